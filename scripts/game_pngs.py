#!/usr/bin/env python3
"""game_pngs.py -- PNGs of a game's key positions, for notebooks and reports.

Usage: scripts/game_pngs.py RECORDS [--game K] [-o DIR] [--nickar PATH] [--most N]

Replays game K (from 1) of a records file (nickar match --records, nickar
play --record; docs/cli.md, "Game records") with `nickar replay --json`
and writes, into DIR (default: beside RECORDS), one PNG per key position:
the start, the N plies with the largest captures (default 4) and the end,
named game-K-ply-P.png.  Prints the paths, one a line.  The positions are
nickar's; scripts/board.py draws them.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import board  # noqa: E402

LETTERS = "abcdefABCDEF"


def key_plies(plies, most):
    """Indexes (0 = start) of the start, the biggest captures and the end."""
    caps = sorted((p for p in plies if p["captured"] > 0), key=lambda p: -p["captured"])
    keep = {0, len(plies)} | {p["ply"] for p in caps[:most]}
    return sorted(keep)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("records")
    ap.add_argument("--game", type=int, default=1)
    ap.add_argument("-o", "--out-dir")
    ap.add_argument("--nickar", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                     "nickar"))
    ap.add_argument("--most", type=int, default=4)
    a = ap.parse_args()
    run = subprocess.run([a.nickar, "replay", "--json", a.records, "--game", str(a.game)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(run.stderr.strip() or "nickar replay failed")
    objs = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    plies, end = objs[:-1], objs[-1]
    with open(a.records) as f:
        line = [l for l in f if l.startswith("game ")][a.game - 1]
    start = line.split(" record=", 1)[1].split(" ")
    start = " ".join(start[:4] if len(start) > 3 and len(start[3]) > 1 else start[:3])
    out_dir = a.out_dir or os.path.dirname(os.path.abspath(a.records))
    os.makedirs(out_dir, exist_ok=True)
    for k in key_plies(plies, a.most):
        fig, ax = plt.subplots(figsize=(6, 2.6))
        if k == 0:
            board.draw(ax, start, title="game %d, start" % a.game)
        else:
            p = plies[k - 1]
            title = "game %d, ply %d: %s" % (a.game, k, p["move"])
            if k == len(plies) and end["result"] is not None:
                title += "; %s %d-%d (%s)" % (end["result"], end["south"], end["north"],
                                              end["reason"])
            pit = LETTERS.find(p["move"])
            board.draw(ax, p, title=title, marked=(pit,) if pit >= 0 else (),
                       captured=p["captured"])
        path = os.path.join(out_dir, "game-%d-ply-%d.png" % (a.game, k))
        fig.savefig(path, dpi=80, bbox_inches="tight")
        plt.close(fig)
        print(os.path.abspath(path))


if __name__ == "__main__":
    main()
