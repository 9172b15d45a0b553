#!/usr/bin/python3
"""experiments/solved/report.py OUT -- the tables of the small games solved.

Reads OUT/k<K>/<variant>.solve (the output of `nickar solve` on the start
position), <variant>.build and times.tsv for every K present, and writes
OUT/results.csv, OUT/results.json and OUT/README.md (the tables, then
OUT/discussion.md when it exists: what the numbers mean, written by hand).

Units: memory and sizes in binary units, MiB (2^20 bytes) and GiB (2^30),
named so.  times.tsv's max_rss_kb is getrusage's ru_maxrss, in KiB; the
tables give it in MiB (build_max_rss_mib).  The discussion writes the
figures it quotes as placeholders that this script fills from the data,
so that a unit is never converted by hand:
    {{peak:K:VARIANT}}  the build's peak memory, in GiB (MiB below 1 GiB);
    {{db:K:VARIANT}}    the size of the database file: the 96-byte header
                        and one byte a position a plane (two planes for
                        speightstown, docs/tablebase.md);
    {{layer:S}}         the bytes of the positions with exactly S seeds on
                        the board, C(S + 11, 11), one byte each.
"""
import csv
import math
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import studylib as sl  # noqa: E402  (the studies' shared library)

VARIANTS = ["antigua", "speightstown", "bridgetown", "abapa", "adjikui"]
NAMES = {1: "one seed a pit (12 seeds)", 2: "two seeds a pit (24 seeds)"}


def parse_solve(text):
    """The value line, the result, and every first move of a solve output."""
    value = result = None
    moves = []
    for line in text.splitlines():
        if line.startswith("value: "):
            value = line[len("value: "):]
        elif line.startswith("totals under perfect play: "):
            result = line.rsplit(": ", 1)[1]
        elif line.startswith("result under perfect play: "):
            result = line[len("result under perfect play: "):].split(" (")[0]
        else:
            m = re.match(r"move (\S+): (.*?)( optimal)?( \(repetition\))?$", line)
            if m:
                moves.append({"move": m.group(1), "value": m.group(2),
                              "optimal": bool(m.group(3)),
                              "repetition": bool(m.group(4))})
    if value is None or result is None or not moves:
        raise ValueError("not the output of nickar solve")
    return value, result, moves


def read_times(path):
    """times.tsv's rows by (variant, step)."""
    with open(path) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return {(r["variant"], r["step"]): r for r in rows}


def collect(out):
    rows = []
    for kdir in sorted(out.glob("k[0-9]")):
        k = int(kdir.name[1:])
        times = read_times(kdir / "times.tsv") if (kdir / "times.tsv").exists() else {}
        for v in VARIANTS:
            solve = kdir / f"{v}.solve"
            if not solve.exists():
                continue
            value, result, moves = parse_solve(solve.read_text())
            build = (kdir / f"{v}.build").read_text()
            pos = re.search(r"(\d+) positions", build)
            b = times.get((v, "build"), {})
            s = times.get((v, "solve"), {})
            rows.append({
                "per_pit": k, "seeds": 12 * k, "variant": v,
                "value": value, "result": result,
                "rests_on_repetition": "rests on the repetition rule" in value,
                "optimal": " ".join(m["move"] for m in moves if m["optimal"]),
                "moves": "; ".join(f"{m['move']} {m['value']}" for m in moves),
                "stored_positions": int(pos.group(1)) if pos else None,
                "build_cpu_s": float(b["cpu_s"]) if b else None,
                "build_wall_s": float(b["wall_s"]) if b else None,
                "build_max_rss_mib": round(int(b["max_rss_kb"]) / 1024, 1) if b else None,
                "solve_cpu_s": float(s["cpu_s"]) if s else None,
                "move_detail": moves,
            })
    return rows


def cell(x):
    """A table cell: empty for a missing number."""
    return "" if x is None else str(x)


def write_tables(out, rows):
    """results.csv (without each move's detail) and results.json."""
    flat = [{k: v for k, v in r.items() if k != "move_detail"} for r in rows]
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(flat[0]))
        w.writeheader()
        w.writerows(flat)
    sl.write_json(out / "results.json", rows, end="\n")


def binary(nbytes):
    """nbytes in GiB with two decimals, or in MiB with one below a GiB."""
    if nbytes >= 2 ** 30:
        return f"{nbytes / 2 ** 30:.2f} GiB"
    return f"{nbytes / 2 ** 20:.1f} MiB"


def fill(text, rows):
    """The discussion with its placeholders (see the header) filled."""
    by = {(r["per_pit"], r["variant"]): r for r in rows}

    def one(m):
        kind, args = m.group(1), m.group(2).split(":")
        if kind == "layer":
            return binary(math.comb(int(args[0]) + 11, 11))
        r = by.get((int(args[0]), args[1]))
        if r is None:
            raise ValueError(f"discussion.md: no data for {m.group(0)}")
        if kind == "peak":
            return binary(r["build_max_rss_mib"] * 2 ** 20)
        planes = 2 if r["variant"] == "speightstown" else 1
        return binary(96 + planes * r["stored_positions"])

    return re.sub(r"\{\{(peak|db|layer):([^}]*)\}\}", one, text)


def readme(out, rows):
    """README.md: a table of values and one of compute for each K, then
    discussion.md when it exists."""
    md = ["# Small games solved",
          "",
          "Each variant played from its start position with one or two seeds a",
          "pit, solved exactly: the endgame database of every position with at",
          "most as many seeds (`nickar tablebase build`), then `nickar solve` on",
          "the start position (South moves first). A value is the number of",
          "board seeds the side to move collects under perfect play by both",
          "(Speightstown: what each side can force; docs/tablebase.md, \"What a",
          "value is\"). Written by `experiments/solved/report.py` from the",
          "outputs under `k<K>/`; `experiments/solved/run.sh --per-pit K` makes",
          "them again.",
          ""]
    for k in sorted({r["per_pit"] for r in rows}):
        md += [f"## {NAMES.get(k, f'{k} seeds a pit')}", "",
               "| variant | value of the start | result | optimal first moves | every first move | rests on repetition |",
               "|---|---|---|---|---|---|"]
        for r in (r for r in rows if r["per_pit"] == k):
            md.append(f"| {r['variant']} | {r['value']} | {r['result']} | {r['optimal']} | "
                      f"{r['moves']} | {'yes' if r['rests_on_repetition'] else 'no'} |")
        md += ["", "Compute (wall clock and getrusage of each step; one run each):", "",
               "| variant | stored positions | build CPU s | build wall s | peak memory MiB | solve CPU s |",
               "|---|---:|---:|---:|---:|---:|"]
        for r in (r for r in rows if r["per_pit"] == k):
            md.append(f"| {r['variant']} | {cell(r['stored_positions'])} | {cell(r['build_cpu_s'])} | "
                      f"{cell(r['build_wall_s'])} | {cell(r['build_max_rss_mib'])} | {cell(r['solve_cpu_s'])} |")
        md.append("")
    disc = out / "discussion.md"
    if disc.exists():
        md += [fill(disc.read_text().rstrip(), rows), ""]
    sl.write_lines(out / "README.md", md)


def main(argv):
    """report.py OUT: every output."""
    if len(argv) != 2:
        sys.exit("usage: report.py OUT")
    out = Path(argv[1])
    rows = collect(out)
    if not rows:
        sys.exit(f"report.py: no k<K>/<variant>.solve under {out}")
    write_tables(out, rows)
    readme(out, rows)


if __name__ == "__main__":
    main(sys.argv)
