#!/usr/bin/python3
"""report.py OUT SEEDS GAMES QUICK SECONDS D3 D5 D7 -- writes the ayo2004
study's tables (matches.csv, results.json), plots (fitness.png,
weights.png) and README.md into OUT from the run files and matches.jsonl
that run.sh left there."""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "analysis"))
import nickar_analysis as na  # noqa: E402

out, seeds, games, quick, seconds = (sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                                     sys.argv[4] == "1", int(sys.argv[5]))
d3, d5, d7 = sys.argv[6:9]

with open(os.path.join(out, "matches.jsonl")) as f:
    matches = na.match_table([line for line in f if line.strip()])
matches.to_csv(os.path.join(out, "matches.csv"), index=False)

runs = {}
for path in sorted(glob.glob(os.path.join(out, "run-*.h5"))):
    tag = os.path.basename(path)[4:-3]  # ayo12-d3-s1
    runs[tag] = na.read(path)
champions = {t: {"fitness": r["champion"]["fitness"],
                 "weights": dict(r["champion"]["weights"].items())}
             for t, r in runs.items()}
with open(os.path.join(out, "results.json"), "w") as f:
    json.dump({"quick": quick, "seeds": seeds, "games_per_match": games,
               "depths": {"d3": d3, "d5": d5, "d7": d7}, "seconds": seconds,
               "champions": champions,
               "matches": json.loads(matches.to_json(orient="records"))}, f, indent=1)

import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

fig, axes = plt.subplots(1, 3, figsize=(15, 4))
for ax, group in zip(axes, ("ayo12-d3", "ayo12-d5", "dk2002-d7")):
    tags = [t for t in runs if t.startswith(group + "-")]
    na.plot_fitness([runs[t] for t in tags], ax, labels=[t.split("-")[-1] for t in tags])
    ax.set_title(group)
fig.tight_layout()
fig.savefig(os.path.join(out, "fitness.png"), dpi=80)
plt.close(fig)

fig, ax = plt.subplots(figsize=(9, 4))
tags = [t for t in runs if t.startswith("ayo12-")]
na.plot_weights([runs[t]["champion"]["weights"] for t in tags], ax, labels=tags)
ax.set_title("evolved ayo12 weights (view=root), by run")
fig.tight_layout()
fig.savefig(os.path.join(out, "weights.png"), dpi=80)
plt.close(fig)


def row(m):
    return (f"| `{m.a}` | `{m.b}` | {m.wins}-{m.draws}-{m.losses} | {m.score:.3f} "
            f"[{m.score_lo:.3f}, {m.score_hi:.3f}] |")


lines = [
    "# ayo2004: Ayo (Daoud, Kharma, Haidar & Popoola, CEC 2004) reproduced",
    "",
    ("**QUICK RUN: a tiny budget that only checks the script; no number "
     "below means anything.**" if quick else ""),
    "",
    "## The question",
    "",
    "Does the paper's GA, with its twelve features, evolve players that beat",
    "simple opponents, and do better features at depth 5 beat deeper search",
    "(depth 7) with worse features (Davis & Kendall's), as the paper claims?",
    "",
    "## Protocol",
    "",
    "| | paper | ours | why they differ |",
    "|---|---|---|---|",
    "| rules | Awari: 48 seeds, 25 to win, North first, grand slam captures | `awari` (docs/rules.md) | - |",
    "| evaluation | Eq. 1, f = sum w_i a_i, w_i in [0, 1] | `ayo12`: the same counts signed by the meaning the paper gives them | the paper reads a11/a12 by meaning; Eq. 1 as printed is `ayo12-literal`, measured below |",
    "| search | plain minimax from Ayo's view, depth 3 and 5 | alpha-beta, `view=root`, same depths | alpha-beta returns minimax's value |",
    "| GA | pop. 50, 100 generations, 4-bit genes, fitness set 10 (2 games each, 2/1/0), elitism 10%, roulette pool 90%, one-point 0.5, bit-flip 0.001 | the same (configs/ayo2004.ini) | fitness is the mean per game (set members play 18 games, not 20) |",
    f"| seeds | one run | {seeds} seeds per depth | every run reported |",
    "| Davis & Kendall | ES, all-play-all, 250 generations, depth 7 | configs/davis-kendall-2002.ini (dk2002) | their population and ES settings are unknown: ours, marked there |",
    "| yardstick | Awale's levels, 10 games each | `material`, `greedy` at equal depth; the reference ladder (below) | Awale is not available |",
    f"| games | 10 per level | {games} per match, colour-swapped pairs, 2-ply openings, seed 1 | |",
    "",
    "## Results",
    "",
    f"Every match ({games} games; score from A's view, 95% interval from the",
    "per-game variance; the same numbers are in matches.csv and results.json):",
    "",
    "| A | B | W-D-L | score [95%] |",
    "|---|---|---|---|",
]
lines += [row(m) for m in matches.itertuples()]
lines += [
    "",
    "![fitness](fitness.png)",
    "",
    "![weights](weights.png)",
    "",
    "## Side by side with the paper",
    "",
    "The paper's Tables 2, 3 and 5 (W:D:L % over 10 games against the levels",
    "of the commercial program Awale): depth 3 Initiation 100:0:0, Beginner",
    "50:50:0, Amateur 40:30:30, Grand Master 0:0:100; depth 5 100:0:0,",
    "100:0:0, 70:10:20, 0:0:100; Davis & Kendall's depth-7 player 100:0:0,",
    "100:0:0, 60:20:20, 0:0:100.  Awale is not available, so these cannot be",
    "compared number for number; the ladder ratings below stand in for its",
    "levels, and the head-to-head matches above test the claim directly.",
    "",
    "## Ladder ratings",
    "",
    "**TO BE FILLED by the lead when `nickar rate` and the reference ladder",
    "exist: the champions and the published weights (every reading) rated on",
    "the ladder.  No rating has been measured yet.**",
    "",
    "## Compute",
    "",
    f"{seconds} s wall clock for the whole script on this machine.",
    "",
    "## Rerun",
    "",
    "    experiments/ayo2004/run.sh          # the study (writes results/ayo2004/)",
    "    experiments/ayo2004/run.sh --quick  # seconds: checks the script",
    "",
]
with open(os.path.join(out, "README.md"), "w") as f:
    f.write("\n".join(lines))
