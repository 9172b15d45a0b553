#!/usr/bin/python3
"""experiments/solved/report.py OUT -- the tables of the small games solved.

Reads OUT/k<K>/<variant>.solve (the output of `nickar solve` on the start
position), <variant>.bounds (`nickar solve --history N`: the bounds behind
the values and the search with history; absent where not run),
<variant>.wholebounds (`nickar tablebase bounds`, K = 2, where it ran),
<variant>.build and times.tsv for every K present, and OUT/scaling/
(experiments/solved/scaling.sh: the whole database's bounds measured at
smaller seed counts, projected to 24 seeds) when present, and writes
OUT/results.csv, OUT/results.json and OUT/README.md (the tables, then
OUT/discussion.md when it exists: what the numbers mean, written by hand).

report.py --committed SRC INTO: the same from the committed data of SRC,
written into INTO (what scripts/check-results.py compares).

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
                        the board, C(S + 11, 11), one byte each;
    {{standing:K}}      what stands whatever the repetition rule with K
                        seeds a pit: the start's and each first move's
                        results that the bounds leave, the search with
                        history, the bounds' compute, the variants still
                        without bounds.
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


RANGE = r"(\d+|from \d+ to \d+)"
BOUNDS = r"lo (\d+), hi (\d+) at this count; lo (\d+), hi (\d+) whatever a repetition gives"
# the bounds file alone (no region): the bounds at the count not computed
ANY = r"lo (\d+), hi (\d+) whatever a repetition gives \(at this count: not computed\)"


def span(text):
    """"6" or "from 4 to 8": (lo, hi)."""
    m = re.match(r"from (\d+) to (\d+)$", text)
    return (int(m.group(1)), int(m.group(2))) if m else (int(text), int(text))


def parse_bounds(text):
    """The bounds and the search with history of a `nickar solve --history`
    output: the start's, and each first move's by its letter."""
    out = {"moves": {}}
    for line in text.splitlines():
        m = re.match(r"positions with the cycle bit reachable: (\d+)$", line)
        if m:
            out["cycle_positions"] = int(m.group(1))
        m = re.match(r"positions with the cycle bit reachable: more than (\d+) \(no region", line)
        if m:
            out["cycle_positions"], out["region_max"] = None, int(m.group(1))
        m = re.match(r"bounds: " + BOUNDS + "$", line)
        if m:
            out["bounds"] = [int(x) for x in m.groups()]
        m = re.match(r"bounds: " + ANY + "$", line)
        if m:
            out["bounds"] = [None, None] + [int(x) for x in m.groups()]
        m = re.match(r"bounds of move (\S): " + BOUNDS + "$", line)
        if m:
            out["moves"].setdefault(m.group(1), {})["bounds"] = [int(x) for x in m.groups()[1:]]
        m = re.match(r"bounds of move (\S): " + ANY + "$", line)
        if m:
            out["moves"].setdefault(m.group(1), {})["bounds"] = \
                [None, None] + [int(x) for x in m.groups()[1:]]
        m = re.match(r"with the history: " + RANGE +
                     r" \((settled|not settled); (\d+) nodes, at most (\d+) a move\)$", line)
        if m:
            out["history"] = list(span(m.group(1)))
            out["history_nodes"], out["history_budget"] = int(m.group(3)), int(m.group(4))
        m = re.match(r"with the history, move (\S): " + RANGE + r" \((\d+) nodes\)$", line)
        if m:
            mv = out["moves"].setdefault(m.group(1), {})
            mv["history"], mv["history_nodes"] = list(span(m.group(2))), int(m.group(3))
    if "bounds" not in out:
        raise ValueError("not the output of nickar solve --bounds")
    return out


def read_times(path):
    """times.tsv's rows by (variant, step); the optional sixth column,
    machine, names where a step ran when not on the study's own machine
    (rows without it read None there)."""
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
            rest = re.search(r"\((\d+) resting on repetition\)", build)
            b = times.get((v, "build"), {})
            s = times.get((v, "solve"), {})
            bt = times.get((v, "bounds"), {})
            bf = kdir / f"{v}.bounds"
            bd = parse_bounds(bf.read_text()) if bf.exists() else None
            wt = times.get((v, "wholebounds"), {})
            wf = kdir / f"{v}.wholebounds"
            wm = re.search(r"\((\d+) with lo < hi\)", wf.read_text()) if wf.exists() else None
            for mv in moves:
                x = bd["moves"].get(mv["move"], {}) if bd else {}
                mv["bounds"] = x.get("bounds")
                mv["history"] = x.get("history")
                mv["history_nodes"] = x.get("history_nodes")
            rows.append({
                "per_pit": k, "seeds": 12 * k, "variant": v,
                "value": value, "result": result,
                "rests_on_repetition": "rests on the repetition rule" in value,
                "optimal": " ".join(m["move"] for m in moves if m["optimal"]),
                "moves": "; ".join(f"{m['move']} {m['value']}" for m in moves),
                "stored_positions": int(pos.group(1)) if pos else None,
                "resting_positions": int(rest.group(1)) if rest else None,
                "build_cpu_s": float(b["cpu_s"]) if b else None,
                "build_wall_s": float(b["wall_s"]) if b else None,
                "build_max_rss_mib": round(int(b["max_rss_kb"]) / 1024, 1) if b else None,
                "solve_cpu_s": float(s["cpu_s"]) if s else None,
                "bounds": bd["bounds"] if bd else None,
                "stands": bd["bounds"][2] == bd["bounds"][3] if bd else None,
                "cycle_positions": bd.get("cycle_positions") if bd else None,
                "history": bd.get("history") if bd else None,
                "history_nodes": bd.get("history_nodes") if bd else None,
                "history_budget": bd.get("history_budget") if bd else None,
                "region_max": bd.get("region_max") if bd else None,
                "whole_apart": int(wm.group(1)) if wm else None,
                "whole_cpu_s": float(wt["cpu_s"]) if wt else None,
                "whole_wall_s": float(wt["wall_s"]) if wt else None,
                "whole_max_rss_mib": round(int(wt["max_rss_kb"]) / 1024, 1) if wt else None,
                "bounds_cpu_s": float(bt["cpu_s"]) if bt else None,
                "bounds_max_rss_mib": round(int(bt["max_rss_kb"]) / 1024, 1) if bt else None,
                "whole_machine": (wt.get("machine") or None) if wt else None,
                "bounds_machine": (bt.get("machine") or None) if bt else None,
                "move_detail": moves,
            })
    return rows


def read_scaling(src):
    """OUT/scaling (scaling.sh): for each seed count measured, the
    positions, those whose bounds stay apart, and the CPU seconds, peak
    memory and sweeps of the bounds with every list kept and with the
    children computed again."""
    d = src / "scaling"
    if not (d / "times.tsv").exists():
        return []
    with open(d / "times.tsv") as f:
        t = {(int(r["seeds"]), r["step"]): r for r in csv.DictReader(f, delimiter="\t")}
    rows = []
    for s in sorted({k[0] for k in t}):
        one = {"seeds": s}
        for step in ("lists", "computed"):
            if (s, step) not in t or not (d / f"abapa-{s}.{step}").exists():
                break
            text = (d / f"abapa-{s}.{step}").read_text()
            one["positions"] = int(re.search(r"(\d+) positions", text).group(1))
            one["apart"] = int(re.search(r"\((\d+) with lo < hi\)", text).group(1))
            one[f"{step}_cpu_s"] = float(t[(s, step)]["cpu_s"])
            one[f"{step}_max_rss_mib"] = round(int(t[(s, step)]["max_rss_kb"]) / 1024, 1)
            one[f"{step}_sweeps"] = int(re.search(r"(\d+) sweeps", text).group(1))
        else:
            rows.append(one)
    return rows


def all_positions(seeds):
    """The positions of a one-pattern database to `seeds`: C(seeds + 12, 12)."""
    return math.comb(seeds + 12, 12)


def scaling_section(scale, k, rows=()):
    """The cost of the whole database's bounds: measured (scaling.sh) and
    projected to 12K seeds, then measured at 12K seeds where ROWS have it."""
    if not scale:
        return []
    seeds = 12 * k
    n = all_positions(seeds)
    md = ["#### The whole database's bounds: measured cost, projected", "",
          "`experiments/solved/scaling.sh`: abapa's bounds whatever the rule",
          "(`nickar tablebase bounds`, one thread, nice 10) with every list kept",
          "(retrograde analysis: no memory limit) and with the children computed",
          "again at each sweep (`--memory 1`, as the large counts run within a",
          "limit that holds no list); both give the same file.", "",
          "| seeds | positions | lo < hi | lists: CPU s | lists: peak MiB | computed: CPU s "
          "| computed: peak MiB | computed: sweeps |",
          "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in scale:
        md.append(f"| {r['seeds']} | {r['positions']:,} | {r['apart']:,} | {r['lists_cpu_s']} | "
                  f"{r['lists_max_rss_mib']} | {r['computed_cpu_s']} | {r['computed_max_rss_mib']} | "
                  f"{r['computed_sweeps']} |")
    top = scale[-1]
    per_c = top["computed_cpu_s"] / top["positions"]
    per_l = top["lists_cpu_s"] / top["positions"]
    mem = top["lists_max_rss_mib"] * 2 ** 20 / top["positions"]
    md += ["", f"At {seeds} seeds ({n:,} positions), at the CPU a position measured at "
           f"{top['seeds']} seeds: at least {per_c * n / 3600:,.1f} CPU hours with the children "
           f"computed again, at least {per_l * n / 3600:,.1f} with every list kept, which "
           f"takes about {binary(mem * n)} at its peak ({mem:,.1f} bytes a position at "
           f"{top['seeds']} seeds)."]
    if len(scale) >= 2:
        a, b = scale[-2], scale[-1]
        f = (b["computed_cpu_s"] / b["positions"]) / (a["computed_cpu_s"] / a["positions"])
        steps = (seeds - b["seeds"]) / (b["seeds"] - a["seeds"])
        md[-1] += (f" The CPU a position grew {f:.2f} times from {a['seeds']} to "
                   f"{b['seeds']} seeds (more sweeps a count); if it goes on so, the computed "
                   f"way takes about {per_c * f ** steps * n / 3600:,.1f} CPU hours at {seeds}.")
    done = [r for r in rows if r["per_pit"] == k and r["whole_cpu_s"] is not None]
    if done:
        md[-1] += (f" Measured at {seeds} seeds with every list kept (the table above): "
                   + "; ".join(f"{r['variant']} {r['whole_cpu_s'] / 3600:.2f} CPU hours and "
                               f"{binary(r['whole_max_rss_mib'] * 2 ** 20)}"
                               f" ({r['whole_machine'] or 'this machine'})" for r in done)
                   + ", against the projection's "
                   f"{per_l * n / 3600:,.1f} and {binary(mem * n)}.")
    md.append("")
    return md


def cell(x):
    """A table cell: empty for a missing number."""
    return "" if x is None else str(x)


def write_tables(out, rows):
    """results.csv (without each move's detail) and results.json."""
    flat = [{k: (" ".join(map(str, v)) if isinstance(v, list) else v)
             for k, v in r.items() if k != "move_detail"} for r in rows]
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

    text = re.sub(r"\{\{standing:(\d+)\}\}", lambda m: standing(rows, int(m.group(1))), text)
    return re.sub(r"\{\{(peak|db|layer):([^}]*)\}\}", one, text)


def outcomes(lo, hi, seeds):
    """What a value for South in [lo, hi] of SEEDS decides: a win needs
    more than half, a loss is less."""
    half = seeds / 2
    if hi < half:
        return "a loss for South"
    if lo > half:
        return "a win for South"
    if lo == hi:
        return "a draw"
    if lo == half:
        return "no loss for South"
    if hi == half:
        return "no win for South"
    return "any result"


def standing(rows, k):
    """The paragraph {{standing:K}}: from each one-plane variant's bounds
    whatever the rule (k<K>/V.bounds), what stands of its start and first
    moves, and what does not."""
    have = [r for r in rows if r["per_pit"] == k and r["bounds"] is not None]
    one = [r for r in rows if r["per_pit"] == k and r["variant"] != "speightstown"]
    if not have:
        return (f"**Whether those values stand whatever the repetition rule is not known at "
                f"{12 * k} seeds**: no variant's bounds file has been made (`experiments/solved/"
                f"run.sh --per-pit {k} --bounds-only --variants V`).")
    seeds = 12 * k
    parts = []
    for r in have:
        lo, hi = r["bounds"][2], r["bounds"][3]
        moves = []
        for m in r["move_detail"]:
            if m["bounds"] is None:
                continue
            ml, mh = m["bounds"][2], m["bounds"][3]
            moves.append(f"`{m['move']}` [{ml}, {mh}]: {outcomes(ml, mh, seeds)}")
        settled = [m["move"] for m in r["move_detail"]
                   if m["history"] is not None and m["history"][0] == m["history"][1]]
        parts.append(f"**{r['variant']}**: the start [{lo}, {hi}] ({outcomes(lo, hi, seeds)}"
                     f" whatever a repetition gives); after each first move "
                     f"{'; '.join(moves)}. The search with history "
                     + (f"settled {' '.join(settled)}"
                        if settled else "settled no first move")
                     + f" within {r['history_budget']:,} nodes a move"
                     + (f" (over the bounds file alone each first move's window starts at "
                        f"[0, {seeds}]: a child that keeps the start's history is not bounded by "
                        "its bounds whatever the rule, since an earlier position can repeat)."
                        if r["cycle_positions"] is None and not settled else "."))
    missing = [r["variant"] for r in one if r["bounds"] is None]
    whole = [r for r in have if r["whole_cpu_s"] is not None]
    cost = ""
    if whole:
        where = sorted({r["whole_machine"] or "this machine" for r in whole})
        cost = (f" The bounds files took {min(r['whole_cpu_s'] for r in whole):,.0f} to "
                f"{max(r['whole_cpu_s'] for r in whole):,.0f} CPU seconds, "
                f"{min(r['whole_wall_s'] for r in whole):,.0f} to "
                f"{max(r['whole_wall_s'] for r in whole):,.0f} s of wall time and up to "
                f"{binary(max(r['whole_max_rss_mib'] for r in whole) * 2 ** 20)} "
                f"(on {', '.join(where)}; every list kept).")
    return (f"**What stands whatever the repetition rule at {seeds} seeds** (the bounds "
            f"whatever the rule; the tables above): "
            + " ".join(parts)
            + (" So the starts' values are the database's claim, not a proof: whatever a "
               "repetition gives, their bounds leave more than one result, and a first move "
               "has its result whatever the rule only where its bounds leave one."
               if all(r["bounds"][2] != r["bounds"][3] for r in have) else "") + cost
            + (f" Not computed for {', '.join(missing)}: "
               + ("its bounds file has" if len(missing) == 1 else "their bounds files have")
               + f" not been made (`experiments/solved/run.sh --per-pit {k} --bounds-only "
               f"--variants V`, "
               f"given the database in `TB/k{k}`)." if missing else ""))


def interval(b):
    """[lo, hi], or the value where they meet; "not computed" (the bounds
    file alone gives no bounds at the count)."""
    if b[0] is None:
        return "not computed"
    return f"{b[0]}" if b[0] == b[1] else f"[{b[0]}, {b[1]}]"


def history_cell(h, nodes, budget):
    """The search with history: the value (settled) or the bounds it reached."""
    if h is None:
        return "-"
    if h[0] == h[1]:
        return f"{h[0]} (settled, {nodes:,} nodes)"
    return f"[{h[0]}, {h[1]}] (not settled within {budget:,} nodes a move)"


def where(whole, bounds):
    """The machine cell of the whole bounds' table: where the bounds file
    and the search with history ran (times.tsv's optional column machine)."""
    if whole == bounds:
        return whole or "this one"
    return f"bounds: {whole or 'this one'}; history: {bounds or 'this one'}"


def short(k):
    """'one seed a pit' for 1."""
    return NAMES.get(k, str(k)).split(" (")[0]


def region_reach(rows, k, one):
    """Why `nickar solve --bounds` (a region of the database in memory,
    src/tb/region.c) does not reach the start with K seeds a pit, and what
    a proof needs instead: from the memory the region took at the smallest
    K measured and the positions with the cycle bit at K."""
    small = [r for r in rows if r["per_pit"] < k and r["cycle_positions"]
             and r["bounds_max_rss_mib"] and r["resting_positions"]]
    rest = [r for r in one if r["resting_positions"] and r["stored_positions"]]
    if not small or not rest:
        return ["`experiments/solved/run.sh --per-pit "
                f"{k}` computes them after each build (`--bounds-only` from kept databases)."]
    s = max(small, key=lambda r: r["cycle_positions"])
    per = s["bounds_max_rss_mib"] * 2 ** 20 / s["cycle_positions"]
    reach = s["cycle_positions"] / s["resting_positions"]
    lo = min(rest, key=lambda r: r["resting_positions"])
    hi = max(rest, key=lambda r: r["resting_positions"])
    n = hi["stored_positions"]
    return [
        "",
        "A region of the start (`nickar solve --bounds` without a bounds file,",
        "src/tb/region.c) does not fit: it holds in memory every position with the",
        "cycle bit that play from the start can reach, with its moves: with "
        f"{short(s['per_pit'])}, {s['variant']}'s "
        f"{s['cycle_positions']:,} such positions took {s['bounds_max_rss_mib']:,.1f} MiB "
        f"at the peak of the bounds step, {per:,.0f} bytes a position. With "
        f"{short(k)} {lo['resting_positions']:,} ({lo['variant']}) to "
        f"{hi['resting_positions']:,} ({hi['variant']}) of the {n:,} stored positions "
        f"have the cycle bit ({100 * lo['resting_positions'] / n:.2f}% to "
        f"{100 * hi['resting_positions'] / n:.2f}%); if the same share of them is reachable as "
        f"with {short(s['per_pit'])} ({100 * reach:.0f}%), the region "
        f"would take about {binary(per * reach * lo['resting_positions'])}, and up to "
        f"{binary(per * hi['resting_positions'])}: several times the 24 GiB of the machine "
        "these runs had.",
        "",
        "What a proof needs: (1) the bounds whatever the rule over the whole",
        "database rather than a region: two more bytes a position (lo_any and",
        f"hi_any, {binary(2 * n)} beside the {binary(n)} database), iterated seed count",
        "by seed count from the smallest as the build iterates lo and hi; a start",
        "or first-move value stands where they meet. This is `nickar tablebase",
        "bounds` (docs/tablebase.md, \"The whole database's bounds\"), which",
        "`run.sh --per-pit 2` runs when the file is missing; its cost is below.",
        "(2) Where they do not meet, the search with the game's history from the",
        "start, bounded by them at its leaves (`nickar solve --history` reads the",
        "bounds file; without a region it keeps the history along every move",
        "that does not capture), or a retrograde analysis whose states carry the",
        "history within the current strongly connected component (not written).",
        "",
    ]


def missing(one, k):
    """The one-plane variants of K seeds a pit without bounds, and why."""
    lack = [r["variant"] for r in one if r["bounds"] is None]
    if not lack:
        return []
    why = ("no bounds file `TB/k2/V.nkbd`: `nickar tablebase bounds` has not been run "
           f"on {'its' if len(lack) == 1 else 'their'} 24-seed "
           f"{'database' if len(lack) == 1 else 'databases'} (see the measured cost below; "
           "`experiments/solved/run.sh --per-pit 2 --bounds-only --variants V` makes the "
           "file and the bounds from a kept database)") if k == 2 else \
          "`experiments/solved/run.sh` has not run the bounds step for them"
    return [f"Bounds still missing for {', '.join(lack)}: {why}.", ""]


def status(rows, k, scale=()):
    """The section on the values and the repetition rule for K seeds a pit:
    the bounds of the start and of each first move, and what a proof of
    each value that does not stand would need."""
    krows = [r for r in rows if r["per_pit"] == k]
    md = ["### The values and the repetition rule", ""]
    have = [r for r in krows if r["bounds"] is not None]
    one = [r for r in krows if r["variant"] != "speightstown"]
    if not have:
        cpu = [r["build_cpu_s"] for r in one if r["build_cpu_s"] is not None]
        peak = [r["build_max_rss_mib"] for r in one if r["build_max_rss_mib"] is not None]
        size = binary(96 + max(r["stored_positions"] or 0 for r in krows))
        md += [f"Not computed for {NAMES.get(k, k)}: the bounds are computed from",
               f"each database again ({size} a variant), whose build took "
               f"{min(cpu):,.0f} to {max(cpu):,.0f} CPU seconds" if cpu else "each database again",
               f"and {binary(min(peak) * 2 ** 20)} to {binary(max(peak) * 2 ** 20)} at its peak."
               if peak else None]
        md += region_reach(rows, k, one)
        md += ["Until then the values above that rest on the repetition",
               "rule are the database's, not the game's with its history: none is",
               "known to stand whatever the rule gives.", ""]
        md += missing(one, k)
        md += scaling_section(scale, k, rows) if k == 2 else []
        return [x for x in md if x is not None]
    budget = max(r["history_budget"] or 0 for r in have)
    md += ["`nickar solve --history N` on the start position: the bounds",
           "[lo, hi] behind each value (docs/tablebase.md, \"The small games'",
           "status\"). *At the count*: the database's own fixpoint, the smaller",
           "counts its captures reach at their stored values (the stored value is",
           "lo where they meet, else the repetition's value clamped to them).",
           "*Whatever the rule*: the same fixpoint with each capture's smaller count",
           "at its own bounds; the value of the game with its full history lies in",
           "it whatever a repetition gives, and **stands** where lo = hi. *With the",
           "history*: a search from the start with the game's history",
           "(repetitions as the rules define them), bounded by those bounds at",
           f"its leaves, at most {budget:,} nodes a first move."]
    if any(r["cycle_positions"] is None for r in have):
        md += ["Where the region of the start does not fit (more than `--region N`",
               "positions), the bounds whatever the rule come from the whole",
               "database's bounds file (`nickar tablebase bounds`), the bounds at the",
               "count are not computed, and the search with history keeps the",
               "history along every move that does not capture (no components)."]
    md += ["",
           "| variant | cycle positions reachable | start at the count | start whatever the rule "
           "| stands | with the history |",
           "|---|---:|---|---|---|---|"]
    for r in krows:
        if r["variant"] == "speightstown":
            md.append("| speightstown | 0 | exact | exact | yes | the value (two planes: no "
                      "value rests on a repetition) |")
        elif r["bounds"] is not None:
            b = r["bounds"]
            reach = (r["cycle_positions"] if r["cycle_positions"] is not None else
                      f"more than {r['region_max']:,} (the bounds file alone)")
            md.append(f"| {r['variant']} | {reach} | {interval(b[0:2])} | "
                      f"{interval(b[2:4])} | {'yes' if r['stands'] else 'no'} | "
                      f"{history_cell(r['history'], r['history_nodes'], r['history_budget'])} |")
    md += ["", "Each first move (the value of the start after it, to South):", "",
           "| variant | first move | database | at the count | whatever the rule | stands "
           "| with the history |",
           "|---|---|---:|---|---|---|---|"]
    for r in have:
        for m in r["move_detail"]:
            if m["bounds"] is None:
                continue
            b = m["bounds"]
            h = m["history"]
            hc = "-" if h is None else (f"{h[0]}" if h[0] == h[1] else f"[{h[0]}, {h[1]}]")
            md.append(f"| {r['variant']} | {m['move']} | {m['value']} | {interval(b[0:2])} | "
                      f"{interval(b[2:4])} | {'yes' if b[2] == b[3] else 'no'} | "
                      f"{hc} ({m['history_nodes']:,} nodes) |" if h is not None else
                      f"| {r['variant']} | {m['move']} | {m['value']} | {interval(b[0:2])} | "
                      f"{interval(b[2:4])} | {'yes' if b[2] == b[3] else 'no'} | - |")
    open_ = [r for r in have if not r["stands"]]
    md += [""]
    if open_:
        md += ["What a proof needs where the value does not stand:", ""]
    for r in open_:
        b, h = r["bounds"], r["history"]
        v = int(re.match(r"(\d+)", r["value"]).group(1))
        good = [m["move"] for m in r["move_detail"] if m["bounds"] and m["bounds"][2] == m["bounds"][3]]
        bad = [m["move"] for m in r["move_detail"] if m["bounds"] and m["bounds"][2] != m["bounds"][3]]
        count = ("At the start's own count the bounds were not computed (the bounds "
                 "file alone)." if b[0] is None else
                 "At the start's own count the database's bounds meet, so what rests "
                 "on the rule comes from the smaller counts its captures reach."
                 if b[0] == b[1] else
                 f"At the start's own count they are [{b[0]}, {b[1]}]: the start's value "
                 "is the repetition's, clamped.")
        settled = ("" if h is None else
                   f" The search with history settled it: {h[0]}." if h[0] == h[1] else
                   f" The search with history here stopped at [{h[0]}, {h[1]}] within "
                   f"{r['history_budget']:,} nodes a first move: not settled.")
        md += [f"- **{r['variant']}**: the database gives South {v}; whatever a repetition "
               f"gives, South can force {b[2]} and North can hold him to {b[3]}. {count} "
               + (f"First moves that stand: {' '.join(good)}; that do not: {' '.join(bad)}. "
                  if good else f"No first move's value stands ({' '.join(bad)}). ")
               + f"A proof that the game with its history is worth {v} needs South to force "
               f"{v} and North to hold him to {v} with the repetitions scored as the rules "
               "score them: the search with history settled for every first move, or a "
               "retrograde analysis whose states carry the part of the history that can "
               "repeat (the positions of the current strongly connected component since "
               "the last capture)." + settled]
    if open_:
        md.append("")
    md += missing(one, k)
    md += scaling_section(scale, k, rows) if k == 2 else []
    return md


def readme(src, rows, out=None, scale=()):
    """README.md (into out, default src): a table of values, one of compute
    and the status of the values for each K, then src's discussion.md when
    it exists."""
    out = src if out is None else out
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
               "| variant | stored positions | build CPU s | build wall s | peak memory MiB | solve CPU s "
               "| bounds and history CPU s | their peak MiB |",
               "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for r in (r for r in rows if r["per_pit"] == k):
            md.append(f"| {r['variant']} | {cell(r['stored_positions'])} | {cell(r['build_cpu_s'])} | "
                      f"{cell(r['build_wall_s'])} | {cell(r['build_max_rss_mib'])} | {cell(r['solve_cpu_s'])} | "
                      f"{cell(r['bounds_cpu_s'])} | {cell(r['bounds_max_rss_mib'])} |")
        md.append("")
        whole = [r for r in rows if r["per_pit"] == k and r["whole_cpu_s"] is not None]
        if whole:
            md += ["The whole database's bounds (`nickar tablebase bounds`, run.sh's",
                   "step wholebounds), and where they and the search with history ran",
                   "(times.tsv's column machine; this machine where it is empty):", "",
                   "| variant | positions with lo < hi | CPU s | wall s | peak MiB | machine |",
                   "|---|---:|---:|---:|---:|---|"]
            md += [f"| {r['variant']} | {cell(r['whole_apart'])} | {r['whole_cpu_s']} | "
                   f"{cell(r['whole_wall_s'])} | {cell(r['whole_max_rss_mib'])} | "
                   f"{where(r['whole_machine'], r['bounds_machine'])} |" for r in whole]
            md.append("")
        md += status(rows, k, scale)
    disc = src / "discussion.md"
    if disc.exists():
        md += [fill(disc.read_text().rstrip(), rows), ""]
    sl.write_lines(out / "README.md", md)


def main(argv):
    """report.py OUT, or report.py --committed SRC INTO: every output."""
    if len(argv) == 4 and argv[1] == "--committed":
        src, out = Path(argv[2]), Path(argv[3])
    elif len(argv) == 2:
        src = out = Path(argv[1])
    else:
        sys.exit("usage: report.py OUT | report.py --committed SRC INTO")
    rows = collect(src)
    if not rows:
        sys.exit(f"report.py: no k<K>/<variant>.solve under {src}")
    out.mkdir(parents=True, exist_ok=True)
    if src != out and (src / "discussion.md").exists():
        readme_src = src
    else:
        readme_src = out
    write_tables(out, rows)
    readme(readme_src, rows, out, read_scaling(src))


if __name__ == "__main__":
    main(sys.argv)
