#!/usr/bin/python3
"""report.py OUT SEEDS GAMES QUICK SECONDS D3 D5 D7 DKD GENS3 GENS5 RATE_GAMES
LADDER -- writes the ayo2004 study's tables (ratings.csv, matches.csv,
summary.csv, results.json), plots (fitness.png, weights.png, elo.png) and
README.md into OUT from the run files, ratings.jsonl, matches.jsonl and
times.tsv that run.sh left there (the dk2002 runs and their ratings from
DKD, the davis-kendall-2002 study's directory when run.sh was given
DK_DIR)."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import studylib as sl  # noqa: E402  (the studies' shared library)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

na = sl.na
plt = sl.pyplot()
f1, f3 = sl.f1, sl.f3


# The paper's Tables 1 and 4, a1..a12 (src/search/features.c holds the same
# numbers as the built-in tables ayo2004-d3 and ayo2004-d5).
PUBLISHED = {
    "d3": [0.06, 0.20, 0.93, 0.93, 0.13, 0.87, 0.06, 0.93, 0.13, 0.60, 1.00, 0.67],
    "d5": [0.80, 1.00, 0.06, 0.00, 0.87, 0.60, 0.00, 0.20, 0.73, 0.93, 0.00, 0.80],
}
# The paper's Tables 2, 3 and 5: W:D:L % in 10 games against Awale's levels.
AWALE_LEVELS = ["Initiation", "Beginner", "Amateur", "Grand Master"]
AWALE = {
    "ayo12 d3": ["100:0:0", "50:50:0", "40:30:30", "0:0:100"],
    "ayo12 d5": ["100:0:0", "100:0:0", "70:10:20", "0:0:100"],
    "dk2002 d7": ["100:0:0", "100:0:0", "60:20:20", "0:0:100"],
}
TABLE_OF = {"ayo12 d3": "Table 2", "ayo12 d5": "Table 3", "dk2002 d7": "Table 5"}


def label(spec):
    """A short name for a player spec of this study."""
    m = re.search(r"depth=(\d+),features=([\w-]+)", spec)
    if spec == "greedy" or not m:
        return spec
    depth, feats = m.groups()
    w = re.search(r"weights=(.*)$", spec)
    w = w.group(1) if w else ""
    r = re.search(r"run-(\w+)-d\d+-s(\d+)\.h5@(best|gen=\d+,rank=0)$", w)
    if r:
        return f"{r.group(1)} d{depth} s{r.group(2)}"
    t = re.fullmatch(r"ayo2004-(d\d)", w)
    if t:
        return f"Table {1 if t.group(1) == 'd3' else 4} {feats} d{depth}"
    return f"{feats} d{depth}"


def group(lab):
    """'ayo12 d3' for 'ayo12 d3 s2' (an evolved champion), else the label."""
    m = re.fullmatch(r"(\w+ d\d+) s\d+", lab)
    return m.group(1) if m else lab


def rungs(o):
    """The strongest ladder player this one outscored and the weakest it
    scored under half against (names), from a `nickar rate --json` object."""
    opp = sorted(o["opponents"], key=lambda x: -x["elo"])
    beat = next((x["name"] for x in opp if x["score"] > 0.5), "")
    lost = next((x["name"] for x in reversed(opp) if x["score"] < 0.5), "")
    return beat, lost


def srow(summary, player, measure):
    """A summary row's mean and interval as the README writes them."""
    r = summary[(summary["player"] == player) & (summary["measure"] == measure)].iloc[0]
    fmt = f1 if measure == "ladder Elo" else f3
    return f"{fmt(r['mean'])} [{fmt(r['lo'])}, {fmt(r['hi'])}]"


def mrow(m):
    """A match as a row of the README's tables."""
    return (f"| {m.a_label} | {m.b_label} | {m.wins}-{m.draws}-{m.losses} | {m.wdl_percent} | "
            f"{f3(m.score)} [{f3(m.score_lo)}, {f3(m.score_hi)}] |")


def load_runs(a):
    """Every champion's run file: this study's ayo12 runs and the dk2002 runs
    (of DKD), by label."""
    runs = {}
    for s in range(1, a.seeds + 1):
        runs[f"ayo12 d{a.d3} s{s}"] = na.read(os.path.join(a.out, f"run-ayo12-d3-s{s}.h5"))
        runs[f"ayo12 d{a.d5} s{s}"] = na.read(os.path.join(a.out, f"run-ayo12-d5-s{s}.h5"))
        runs[f"dk2002 d{a.d7} s{s}"] = na.read(os.path.join(a.dkd, f"run-dk2002-d{a.d7}-s{s}.h5"))
    return runs


def ratings_table(a):
    """The ladder ratings (with the dk2002 ones of DKD), labelled and grouped,
    and the rungs each beat and lost to; writes ratings.csv."""
    objs = na.read_jsonl(os.path.join(a.out, "ratings.jsonl"))
    if not a.dk_own:
        objs += [o for o in na.read_jsonl(os.path.join(a.dkd, "ratings.jsonl"))
                 if "features=dk2002" in o["player"]]
    ratings = na.rating_table(objs)
    ratings.insert(0, "label", [label(p) for p in ratings["player"]])
    ratings.insert(1, "group", [group(x) for x in ratings["label"]])


    ratings["best_rung_beaten"] = [rungs(o)[0] for o in objs]
    ratings["weakest_rung_lost_to"] = [rungs(o)[1] for o in objs]
    ratings.to_csv(os.path.join(a.out, "ratings.csv"), index=False)
    return ratings


def matches_table(a):
    """The matches (with the dk2002 ones of DKD), labelled; writes
    matches.csv."""
    mobjs = na.read_jsonl(os.path.join(a.out, "matches.jsonl"))
    if not a.dk_own:  # the davis-kendall-2002 study's own matches of its champions
        mobjs += [o for o in na.read_jsonl(os.path.join(a.dkd, "matches.jsonl"))
                  if "features=dk2002" in o["a"]]
    matches = na.match_table(mobjs)
    matches.insert(0, "a_label", [label(x) for x in matches["a"]])
    matches.insert(1, "b_label", [label(x) for x in matches["b"]])
    matches["wdl_percent"] = [na.wdl_percent(m.wins, m.draws, m.losses)
                              for m in matches.itertuples()]
    matches.to_csv(os.path.join(a.out, "matches.csv"), index=False)
    return matches


def summaries(a, matches, ratings):
    """Elo and scores over seeds for each group, the pooled head-to-head
    score; writes summary.csv."""
    summary = []
    for g in (f"ayo12 d{a.d3}", f"ayo12 d{a.d5}", f"dk2002 d{a.d7}"):
        part = ratings[ratings["group"] == g]
        n, m, lo, hi = na.seed_summary(part["elo"])
        summary.append({"player": g, "measure": "ladder Elo", "seeds": n,
                        "mean": m, "lo": lo, "hi": hi})
        depth = g.split(" d")[1]
        for opp in (f"ab:depth={depth},features=material", "greedy"):
            mp = matches[(matches["a_label"].map(group) == g) & (matches["b"] == opp)
                         & matches["a_label"].str.contains(r" s\d+$")]
            n, m, lo, hi = na.seed_summary(mp["score"])
            summary.append({"player": g, "measure": f"score vs {label(opp)}", "seeds": n,
                            "mean": m, "lo": max(0.0, lo), "hi": min(1.0, hi),
                            "wins": int(mp["wins"].sum()), "draws": int(mp["draws"].sum()),
                            "losses": int(mp["losses"].sum())})
    h2h = matches[(matches["a_label"].map(group) == f"ayo12 d{a.d5}")
                  & (matches["b_label"].map(group) == f"dk2002 d{a.d7}")]
    n, m, lo, hi = na.seed_summary(h2h["score"])
    summary.append({"player": f"ayo12 d{a.d5}", "measure": f"score vs dk2002 d{a.d7} (same seed)",
                    "seeds": n, "mean": m, "lo": max(0.0, lo), "hi": min(1.0, hi),
                    "wins": int(h2h["wins"].sum()), "draws": int(h2h["draws"].sum()),
                    "losses": int(h2h["losses"].sum())})
    summary = pd.DataFrame(summary)
    summary.to_csv(os.path.join(a.out, "summary.csv"), index=False)
    pooled = na.score_interval(int(h2h["wins"].sum()), int(h2h["draws"].sum()),
                               int(h2h["losses"].sum()))
    return h2h, pooled, summary


def weights_vs_published(a, runs):
    """Each evolved ayo12 champion against the paper's Tables 1 and 4 (Pearson
    r, mean |difference|); writes weights_vs_published.csv."""
    wcmp = []
    for d, tab in ((a.d3, "d3"), (a.d5, "d5")):
        pub = np.asarray(PUBLISHED[tab])
        for s in range(1, a.seeds + 1):
            w = np.asarray(runs[f"ayo12 d{d} s{s}"]["champion"]["weights"].values, float)
            r = float(np.corrcoef(w, pub)[0, 1]) if w.std() > 0 else float("nan")
            wcmp.append({"depth": int(d), "table": 1 if tab == "d3" else 4, "seed": s,
                         "pearson_r": r, "mean_abs_diff": float(np.abs(w - pub).mean())})
    wcmp = pd.DataFrame(wcmp)
    wcmp.to_csv(os.path.join(a.out, "weights_vs_published.csv"), index=False)
    wsum = {}
    for d in (a.d3, a.d5):
        part = wcmp[wcmp["depth"] == int(d)]
        wsum[d] = {"r": na.seed_summary(part["pearson_r"]),
                   "mad": na.seed_summary(part["mean_abs_diff"])}
    return wcmp, wsum


def write_results(a, matches, pooled, ratings, runs, summary, wcmp):
    """results.json: the settings, the compute and every number."""
    times = na.times_table(os.path.join(a.out, "times.tsv"))
    dk_times = na.times_table(os.path.join(a.dkd, "times.tsv")) if not a.dk_own else None
    wall, cpu = float(times["wall"].sum()), float(times["cpu"].sum())

    champions = {t: {"fitness": r["champion"]["fitness"], "generation": r["champion"]["generation"],
                     "weights": dict(r["champion"]["weights"].items())}
                 for t, r in runs.items()}
    sl.write_json(os.path.join(a.out, "results.json"), {
        "quick": a.quick, "seeds": a.seeds, "games_per_match": a.games,
        "rate_games_per_rung": a.rate_games, "ladder": a.ladder,
        "depths": {"d3": a.d3, "d5": a.d5, "d7": a.d7},
        "generations": {"d3": a.gens3, "d5": a.gens5,
                        "d7": int(len(runs[f"dk2002 d{a.d7} s1"]["stats"]))},
        "dk2002_runs_from": a.dkd, "seconds": a.seconds,
        "compute": {"wall_s": wall, "cpu_s": cpu,
                    "steps": sl.records(times)},
        "published": PUBLISHED, "awale": AWALE,
        "champions": champions,
        "weights_vs_published": sl.records(wcmp),
        "ratings": sl.records(ratings),
        "matches": sl.records(matches),
        "summary": sl.records(summary),
        "head_to_head_pooled": {"score": pooled[0], "lo": pooled[1], "hi": pooled[2]}
    })
    return cpu, dk_times, times, wall


def plot_fitness(a, runs):
    """fitness.png: the fitness of every run, by group."""

    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    for ax, g in zip(axes, (f"ayo12 d{a.d3}", f"ayo12 d{a.d5}", f"dk2002 d{a.d7}")):
        tags = [t for t in runs if group(t) == g]
        na.plot_fitness([runs[t] for t in tags], ax, labels=[t.split()[-1] for t in tags])
        ax.set_title(g + (" (2/1/0 points a game, mean)" if g.startswith("ayo") else
                          " (round robin: the mean is always 1)"))
    sl.save(fig, os.path.join(a.out, "fitness.png"), dpi=80)


def plot_weights(a, runs):
    """weights.png: the evolved ayo12 weights beside the published ones."""
    names = list(runs[f"ayo12 d{a.d3} s1"]["champion"]["weights"].index)
    fig, axes = plt.subplots(1, 2, figsize=(14, 4.5), sharey=True)
    for ax, (d, tab) in zip(axes, ((a.d3, "d3"), (a.d5, "d5"))):
        x = list(range(len(names)))
        for s in range(1, a.seeds + 1):
            w = runs[f"ayo12 d{d} s{s}"]["champion"]["weights"]
            ax.plot(x, w.values, marker=".", alpha=0.6, label=f"evolved, seed {s}")
        ax.plot(x, PUBLISHED[tab], "k-o", lw=2.5,
                label=f"published (Table {1 if tab == 'd3' else 4})")
        ax.set_xticks(x)
        ax.set_xticklabels(names)
        ax.set_title(f"ayo12 weights evolved at depth {d} and the paper's")
        ax.legend(fontsize="x-small")
    axes[0].set_ylabel("weight (4-bit genes mapped onto [0, 1])")
    fig.text(0.5, 0.01, "terms: a1/a2 the opponent's captures of 2/3, a3/a4 Ayo's, a5/a6 pits "
             "reaching the other side (opponent/own), a7/a8 more than 12 seeds, a9/a10 scores, "
             "a11/a12 empty pits", ha="center", fontsize="small")
    sl.save(fig, os.path.join(a.out, "weights.png"), dpi=80, rect=(0, 0.04, 1, 1))


def plot_elo(a, ratings):
    """elo.png: every player's ladder Elo against the ladder's rungs."""
    fig, ax = plt.subplots(figsize=(9, 5))
    order = ratings.sort_values("elo")
    y = range(len(order))
    ax.errorbar(order["elo"], list(y), xerr=[order["elo"] - order["elo_lo"],
                                            order["elo_hi"] - order["elo"]], fmt="o", capsize=3)
    ax.set_yticks(list(y))
    ax.set_yticklabels(order["label"], fontsize="small")
    ax.set_xlabel("Elo on the awari ladder (random = 0), 95% interval")
    for name, elo in na.read_ladder(a.ladder).items():
        if name in ("greedy", "material-d3", "material-d5", "material-d7", "positional-d7"):
            ax.axvline(float(elo), color="grey", lw=0.6, ls="--")
            ax.text(float(elo), len(order) - 0.5, name, rotation=90, fontsize="x-small",
                    va="top", ha="right", color="grey")
    ax.set_title("ayo2004: every player rated on the awari reference ladder")
    sl.save(fig, os.path.join(a.out, "elo.png"), dpi=80)


def readme_results(a, ratings, runs):
    """README.md's question, protocol and ladder ratings."""
    dk_gens = int(len(runs[f"dk2002 d{a.d7} s1"]["stats"]))
    lines = [
        "# ayo2004: Ayo (Daoud, Kharma, Haidar & Popoola, CEC 2004) reproduced",
        "",
        sl.QUICK_BANNER if a.quick else "",
        "",
        "## The question",
        "",
        "Does the paper's GA, with its twelve terms, evolve players as strong as",
        "the paper reports, and do better features at depth 5 beat deeper search",
        "(depth 7) with worse features (Davis & Kendall's), as the paper claims?",
        "",
        "## Protocol",
        "",
        "| | paper | ours | why they differ |",
        "|---|---|---|---|",
        "| rules | Awari: 48 seeds, 25 to win, North first, origin pit skipped, captures of 2-3 chained backwards, a grand slam captures | `awari` (docs/rules.md; Abapa where the paper is silent) | - |",
        "| evaluation | Eq. 1, f = sum w_i a_i, w_i in [0, 1], from Ayo's fixed view | `ayo12`: the same counts, each signed by the meaning the paper gives it | the paper reads a11/a12 by meaning; Eq. 1 as printed is `ayo12-literal`, rated below |",
        f"| search | plain minimax from Ayo's view, depth 3 and 5 | alpha-beta, `view=root`, depth {a.d3} and {a.d5} | alpha-beta returns minimax's value |",
        "| GA | 48-bit chromosomes, population 50, fitness set of 10 (2 games each, 2/1/0), elitism 10%, roulette pool 90%, one-point crossover 0.5, bit-flip 0.001 | the same (configs/ayo2004.ini) | fitness is the mean per game (a fitness-set member cannot play itself: 18 games, not 20) |",
        f"| generations | 100 | **{a.gens3}** at depth {a.d3}, **{a.gens5}** at depth {a.d5} | "
        + ("the CPU budget (about 3,000 CPU-s for this study and davis-kendall-2002 together on a shared 2-core machine)"
           if min(a.gens3, a.gens5) < 100 else "-") + " |",
        f"| runs | one per depth | {a.seeds} seeds per depth (1..{a.seeds}), every one reported | |",
        f"| Davis & Kendall's player | ES, all-play-all, 250 generations, depth 7 | the champions of results/davis-kendall-2002/ ({dk_gens} generations of a (3+6)-ES; "
        + ("read from that study's directory" if not a.dk_own else "evolved by this script") + ") | their population and ES settings are unknown; the budget (see that README) |",
        f"| yardstick | Awale's levels, 10 games each | the awari reference ladder (`nickar rate`, {a.rate_games} games against each of its 16 players); `material` and `greedy` at equal depth | Awale is not available |",
        f"| games | 10 per level | {a.games} per match, colour-swapped pairs from random 2-ply openings, seed 1 | |",
        "",
        "## Results",
        "",
        "### Ladder ratings",
        "",
        f"Every champion (the best of the last generation) and the published weights",
        "(Table 1 at depth 3, Table 4 at depth 5) under every reading, `view=root`,",
        f"rated with `nickar rate --variant awari --games {a.rate_games}` against the",
        "awari ladder (results/ladder/awari.md: random 0, greedy 452, material-d3",
        "947, material-d5 1241, material-d7 1515, positional-d7 1934); 95% interval",
        f"from the likelihood's curvature, {na.rate_fit_phrase(ratings)};",
        "ratings.csv.  'Beats up to': the strongest ladder player it outscored;",
        "'loses from': the weakest it scored under half against.",
        "",
        "| player | Elo | 95% interval | beats up to | loses from |",
        "|---|---:|---|---|---|",
    ]
    for r in ratings.itertuples():
        lines.append(f"| {r.label} | {f1(r.elo)} | [{f1(r.elo_lo)}, {f1(r.elo_hi)}]"
                     + (" (virtual draws)" if r.prior else "")
                     + f" | {r.best_rung_beaten or '-'} | {r.weakest_rung_lost_to or '-'} |")
    return lines


def readme_summary(a, lines, ratings, summary):
    """README.md's reading of the ratings and the summary over seeds."""
    lad = na.read_ladder(a.ladder)
    reading = []
    for g, d in ((f"ayo12 d{a.d3}", a.d3), (f"ayo12 d{a.d5}", a.d5), (f"dk2002 d{a.d7}", a.d7)):
        rung = f"material-d{d}"
        part = ratings[ratings["group"] == g]
        if rung in lad and len(part):
            above = int((part["elo_lo"] > lad[rung]).sum())
            below = int((part["elo_hi"] < lad[rung]).sum())
            reading.append(f"- {g}: {above} of {len(part)} champions rate above `{rung}` "
                           f"({lad[rung]:.0f}) by more than their interval, {below} below it.")
    for tab, d in (("Table 1", a.d3), ("Table 4", a.d5)):
        part = ratings[ratings["label"].str.startswith(tab + " ") & ratings["label"].str.endswith(f" d{d}")]
        if len(part):
            best = part.sort_values("elo", ascending=False)
            reading.append(f"- {tab} at depth {d}, by reading: " + ", ".join(
                f"{r.label.split()[2]} {r.elo:.0f} [{r.elo_lo:.0f}, {r.elo_hi:.0f}]"
                for r in best.itertuples()) + ".")
    lines += ["", "Reading:", ""] + reading
    lines += [
        "",
        "![elo](elo.png)",
        "",
        "### Over seeds",
        "",
        f"Mean over the {a.seeds} seeds with its 95% interval (Student's t on the seeds'",
        "spread, so it carries the run-to-run variation; scores clipped to [0, 1];",
        "summary.csv):",
        "",
        "| evolved player | ladder Elo | score vs material, equal depth | score vs greedy |",
        "|---|---|---|---|",
    ]
    for g, d in ((f"ayo12 d{a.d3}", a.d3), (f"ayo12 d{a.d5}", a.d5), (f"dk2002 d{a.d7}", a.d7)):
        lines.append(f"| {g} | {srow(summary, g, 'ladder Elo')} | {srow(summary, g, f'score vs material d{d}')} | "
                     f"{srow(summary, g, 'score vs greedy')} |")
    return lines


def readme_matches(a, h2h, lines, matches, pooled, summary):
    """README.md's head-to-head test of the paper's claim and the other
    matches."""
    lines += [
        "",
        "### The paper's claim, head to head",
        "",
        f"Evolved `ayo12` at depth {a.d5} against evolved `dk2002` at depth {a.d7}, seed",
        f"against seed ({a.games} games each; score from the ayo12 player's view):",
        "",
        "| A | B | W-D-L | W:D:L % | score [95%] |",
        "|---|---|---|---|---|",
    ]
    lines += [mrow(m) for m in h2h.itertuples()]
    hw, hd, hl = int(h2h["wins"].sum()), int(h2h["draws"].sum()), int(h2h["losses"].sum())
    if pooled[1] > 0.5:
        verdict = "holds here: the depth-5 ayo12 players outscore the depth-7 dk2002 players"
    elif pooled[2] < 0.5:
        verdict = "does not hold here: the depth-7 dk2002 players outscore the depth-5 ayo12 players"
    else:
        verdict = "is not decided here: the pooled score's interval contains 0.5"
    lines += [
        f"| all | | {hw}-{hd}-{hl} | {na.wdl_percent(hw, hd, hl)} | {f3(pooled[0])} [{f3(pooled[1])}, {f3(pooled[2])}] pooled games; "
        f"{srow(summary, f'ayo12 d{a.d5}', f'score vs dk2002 d{a.d7} (same seed)')} over seeds (t) |",
        "",
        f"The paper's claim {verdict} (pooled over the {a.seeds} pairs of",
        "seeds; the interval over seeds also carries the run-to-run spread).",
        "",
        "### Every match",
        "",
        f"Against `material` and `greedy` ({a.games} games; score from A's view, 95%",
        "interval from the per-game variance; matches.csv and results.json):",
        "",
        "| A | B | W-D-L | W:D:L % | score [95%] |",
        "|---|---|---|---|---|",
    ]
    lines += [mrow(m) for m in matches.itertuples() if not (m.Index in h2h.index)]
    return lines


def readme_paper(a, cpu, dk_times, lines, summary, times, wall, wsum):
    """README.md's comparison with the paper, the compute and how to rerun;
    writes README.md."""
    lines += [
        "",
        "![fitness](fitness.png)",
        "",
        "![weights](weights.png)",
        "",
        "The evolved weights (thin) beside the published Tables 1 and 4 (thick).",
        "How alike (weights_vs_published.csv; mean over seeds, 95% interval by t):",
        "",
        "| depth | table | Pearson r, evolved vs published | mean absolute difference |",
        "|---:|---|---|---|",
    ] + [
        f"| {d} | Table {1 if d == a.d3 else 4} | {f3(wsum[d]['r'][1])} [{f3(wsum[d]['r'][2])}, {f3(wsum[d]['r'][3])}] | "
        f"{f3(wsum[d]['mad'][1])} [{f3(wsum[d]['mad'][2])}, {f3(wsum[d]['mad'][3])}] |"
        for d in (a.d3, a.d5)
    ] + [
        "",
        "For scale: weights drawn uniformly on [0, 1], unrelated to the table,",
        "have r near 0 and a mean absolute difference from it of "
        + ", ".join(f"{sum((p * p + (1 - p) ** 2) / 2 for p in PUBLISHED[t]) / 12:.3f} (Table {n})"
                    for t, n in (("d3", 1), ("d5", 4)))
        + " (the mean of (p^2 + (1 - p)^2) / 2 over the table's weights p).",
        "",
        "## Side by side with the paper (Tables 2, 3 and 5)",
        "",
        "The paper played 10 games against each level of the commercial program",
        "Awale; Awale is not available, so its levels cannot be placed on our",
        "scale and no cell below can be compared number for number.  The ladder",
        "stands in for the levels: the rating, and which fixed searchers the",
        "player beats, say how strong it is; the comparisons that remain are the",
        "order of the three players and the head-to-head claim.",
        "",
        "| player | paper: Awale " + " / ".join(AWALE_LEVELS) + " (W:D:L %) | ours: ladder Elo, mean over seeds [95%] | ours vs material, equal depth (W:D:L %, all seeds) | ours vs greedy |",
        "|---|---|---|---|---|",
    ]
    for g, d in ((f"ayo12 d{a.d3}", a.d3), (f"ayo12 d{a.d5}", a.d5), (f"dk2002 d{a.d7}", a.d7)):
        key = "dk2002 d7" if g.startswith("dk2002") else ("ayo12 d3" if d == a.d3 else "ayo12 d5")
        rm = summary[(summary["player"] == g) & (summary["measure"] == f"score vs material d{d}")].iloc[0]
        rg = summary[(summary["player"] == g) & (summary["measure"] == "score vs greedy")].iloc[0]
        lines.append(f"| {g} ({TABLE_OF[key]}) | " + " / ".join(AWALE[key]) + f" | {srow(summary, g, 'ladder Elo')} | "
                     f"{na.wdl_percent(rm['wins'], rm['draws'], rm['losses'])} | "
                     f"{na.wdl_percent(rg['wins'], rg['draws'], rg['losses'])} |")
    order_paper = "ayo12 d5 > dk2002 d7 > ayo12 d3 (Amateur: 70:10:20, 60:20:20, 40:30:30)"
    el = {g: summary[(summary["player"] == g) & (summary["measure"] == "ladder Elo")].iloc[0]["mean"]
          for g in (f"ayo12 d{a.d3}", f"ayo12 d{a.d5}", f"dk2002 d{a.d7}")}
    order_ours = " > ".join(g for g, _ in sorted(el.items(), key=lambda kv: -kv[1]))
    lines += [
        "",
        f"Order of the three: paper {order_paper}; ours by mean ladder Elo {order_ours}",
        "(see the intervals above before reading an order into close means).",
        "",
        "## Compute",
        "",
        f"Measured on each step (times.tsv; wall clock and getrusage): {wall:.0f} s wall,",
        f"{cpu:.0f} CPU-s for this script's steps (evolution "
        f"{float(times[times['label'].str.startswith('evolve')]['wall'].sum()):.0f} s wall, "
        f"{float(times[times['label'].str.startswith('evolve')]['cpu'].sum()):.0f} CPU-s);",
        f"the script took {a.seconds} s"
        + (f"; the dk2002 runs it read cost {float(dk_times['cpu'].sum()):.0f} CPU-s in "
           f"the davis-kendall-2002 study" if dk_times is not None and len(dk_times) else "")
        + ".  Machine: a shared 2-core VM with other engineers' jobs running (load",
        "average often above 10), 2 threads, niced: wall times are those of a",
        "loaded machine, CPU seconds are the cost.",
        "",
        "## Rerun",
        "",
        "    experiments/ladder/run.sh awari                  # the ladder, if results/ladder/awari.tsv is missing",
        "    experiments/davis-kendall-2002/run.sh            # the dk2002 champions",
        f"    DK_DIR=results/davis-kendall-2002 GENS5={a.gens5} experiments/ayo2004/run.sh",
        "    experiments/ayo2004/run.sh --quick               # seconds: checks the script",
        "    (--continue on either script resumes existing run files to more generations)",
        "",
        "Without DK_DIR the script evolves its own dk2002 champions (DK_GENS",
        "generations).  Run files (run-*.h5) are not committed; the runs are",
        "deterministic, so the same binary and settings give them back bit for bit.",
        "",
    ]
    sl.write_lines(os.path.join(a.out, "README.md"), lines)


def main(argv):
    """report.py OUT SEEDS GAMES QUICK SECONDS D3 D5 D7 DKD GENS3 GENS5
    RATE_GAMES LADDER: every output."""
    out, seeds, games, quick, seconds = (argv[1], int(argv[2]), int(argv[3]),
                                         argv[4] == "1", int(argv[5]))
    d3, d5, d7 = argv[6:9]
    dkd = argv[9]
    gens3, gens5, rate_games = int(argv[10]), int(argv[11]), int(argv[12])
    ladder = argv[13]
    dk_own = os.path.abspath(dkd) == os.path.abspath(out)
    a = sl.settings(out=out, seeds=seeds, games=games, quick=quick, seconds=seconds, d3=d3, d5=d5,
                    d7=d7, dkd=dkd, gens3=gens3, gens5=gens5, rate_games=rate_games, ladder=ladder,
                    dk_own=dk_own)
    runs = load_runs(a)
    ratings = ratings_table(a)
    matches = matches_table(a)
    h2h, pooled, summary = summaries(a, matches, ratings)
    wcmp, wsum = weights_vs_published(a, runs)
    cpu, dk_times, times, wall = write_results(a, matches, pooled, ratings, runs, summary, wcmp)
    plot_fitness(a, runs)
    plot_weights(a, runs)
    plot_elo(a, ratings)
    lines = readme_results(a, ratings, runs)
    lines = readme_summary(a, lines, ratings, summary)
    lines = readme_matches(a, h2h, lines, matches, pooled, summary)
    readme_paper(a, cpu, dk_times, lines, summary, times, wall, wsum)


if __name__ == "__main__":
    main(sys.argv)
