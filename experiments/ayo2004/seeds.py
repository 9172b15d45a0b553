#!/usr/bin/python3
"""experiments/ayo2004/seeds.py [--nickar PATH] [--runs DIR] [--out DIR] --
the seeds each side takes a game, in the paper's form (issue 24, item 15:
Daoud et al. give the average seeds of Ayo and of Awale at each level),
for the champions' matches of the ayo2004 and davis-kendall-2002 studies.

matches.jsonl keeps each match's seed margin but not the two sides'
seeds, so each committed match of a champion is played again, with
`nickar match --records`, and its records give every game's final score.
The games must come out the same as the committed ones (wins, draws,
losses, mean seed margin and plies to the printed precision); any that
does not stops the script (exit 1).  The champions' weights: the ayo12
run files (run-ayo12-dD-sS.h5, in --runs, default results/ayo2004; the
study's run.sh or controls.sh writes them again, evolution being
deterministic), and for the davis-kendall-2002 champions, whose run files
are that study's, the weights files results/ayo2004/controls-weights/
dk2002-d7-sS.txt (controls.sh writes them from results.json and checks
they play the committed games).

Writes OUT/per_game_seeds.csv (default OUT results/ayo2004): a line a
match (study, a, b, games, seeds_a and seeds_b: the mean seeds each side
holds at the end of a game, plies), read by report.py.  Each replay takes
seconds (about a minute for all); the wall and CPU time is printed.
"""

import argparse
import csv
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AYO = re.compile(r"weights=results/ayo2004/(run-ayo12-d\d-s\d+\.h5)@best$")
DK = re.compile(r"weights=results/davis-kendall-2002/run-(dk2002-d7-s\d+)\.h5@best$")


def replay_spec(spec, runs):
    """The spec with its champion's weights where this script finds them."""
    m = AYO.search(spec)
    if m:
        return spec[:m.start()] + f"weights={os.path.join(runs, m.group(1))}@best"
    m = DK.search(spec)
    if m:
        return spec[:m.start()] + f"weights=results/ayo2004/controls-weights/{m.group(1)}.txt"
    return spec


def sides(records, a):
    """(A's seeds, B's seeds, plies) of every game of a records file."""
    out = []
    for line in open(records, encoding="utf-8"):
        if not line.startswith("game "):
            continue
        f = dict(w.split("=", 1) for w in line.split(" record=")[0].split()[1:])
        s, n = map(int, f["score"].split("-"))
        if f["south"] == a:
            out.append((s, n, int(f["plies"])))
        elif f["north"] == a:
            out.append((n, s, int(f["plies"])))
        else:
            sys.exit(f"seeds.py: a game of {records} without A ({a}) on either side")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nickar", default="build/nickar")
    ap.add_argument("--runs", default="results/ayo2004")
    ap.add_argument("--out", default="results/ayo2004")
    a = ap.parse_args()
    os.chdir(ROOT)
    if not os.access(a.nickar, os.X_OK):
        print(f"seeds.py: {a.nickar} is not an executable nickar", file=sys.stderr)
        return 2
    todo = []
    for study in ("ayo2004", "davis-kendall-2002"):
        for line in open(f"results/{study}/matches.jsonl", encoding="utf-8"):
            o = json.loads(line)
            if AYO.search(o["a"]) or DK.search(o["a"]):
                todo.append((study, o))
    t0, rows = time.monotonic(), []
    with tempfile.TemporaryDirectory() as tmp:
        for study, o in todo:
            spec_a, spec_b = replay_spec(o["a"], a.runs), replay_spec(o["b"], a.runs)
            rec = os.path.join(tmp, "games.rec")
            cmd = [a.nickar, "match", "--variant", o["variant"], "--games", str(o["games"]),
                   "--openings", str(o["openings"]), "--seed", str(o["seed"]), "--json",
                   "--records", rec, spec_a, spec_b]
            p = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if p.returncode != 0:
                sys.exit(f"seeds.py: {' '.join(cmd)}: {p.stderr.strip()}")
            got = json.loads(p.stdout)
            for k in ("wins", "draws", "losses"):
                if got[k] != o[k]:
                    sys.exit(f"seeds.py: {o['a']} against {o['b']} played again gives "
                             f"{k} {got[k]}, the committed match {o[k]}: not the same games")
            for k in ("seed_diff", "plies"):
                if abs(got[k] - o[k]) > 1e-6 * max(1.0, abs(o[k])):
                    sys.exit(f"seeds.py: {o['a']} against {o['b']} played again gives "
                             f"{k} {got[k]}, the committed match {o[k]}: not the same games")
            g = sides(rec, got.get("a", spec_a))
            n = len(g)
            rows.append({"study": study, "a": o["a"], "b": o["b"], "games": n,
                         "seeds_a": sum(x[0] for x in g) / n, "seeds_b": sum(x[1] for x in g) / n,
                         "plies": sum(x[2] for x in g) / n})
            if abs((rows[-1]["seeds_a"] - rows[-1]["seeds_b"]) - o["seed_diff"]) > 1e-3:
                sys.exit(f"seeds.py: the records of {o['a']} against {o['b']} do not give "
                         f"its seed margin {o['seed_diff']}")
    out = os.path.join(a.out, "per_game_seeds.csv")
    with open(out + ".tmp", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in r.items()})
    os.replace(out + ".tmp", out)
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"seeds.py: {len(rows)} matches played again, each the committed games; wrote {out} "
          f"({time.monotonic() - t0:.0f} s wall, {ru.ru_utime + ru.ru_stime:.0f} CPU-s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
