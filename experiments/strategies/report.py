#!/usr/bin/python3
"""report.py OUT --quick Q --seeds S --budget B --checks C --games N --depth D
--ladder L -- the strategies study's report, in two steps:

1. from the run files that run.sh left in OUT: runs.csv (each run's
   generations, games, final fitness, diversity and champion),
   generations.csv (the games played and the diversity at every rated
   generation) and runs.json (the settings above);
2. from the committed data alone (runs.json, runs.csv, generations.csv,
   ratings.jsonl, compute.tsv, the abapa ladder): every rating refitted
   jointly with the ladder's games, the tables (ladder_elo.csv,
   final_elo.csv, summary.csv, tests.csv, tests_by_games.csv,
   results.json), the plots (elo_vs_games.png, final_elo.png,
   diversity.png) and README.md.

    report.py --committed SRC [INTO]

runs step 2 alone, from SRC into INTO (default SRC; without plots when
INTO differs); scripts/check-results.py uses it.  The ladder's path is
relative to the repository's root."""
import argparse
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import studylib as sl  # noqa: E402  (the studies' shared library)


import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

na = sl.na
f0 = sl.f0


ORDER = ["ga", "es-plus", "es-comma", "cma-es"]
LABEL = {"ga": "GA (16)", "es-plus": "(4+16)-ES", "es-comma": "(4,16)-ES",
         "cma-es": "CMA-ES (5/5w,10)"}


def pairwise(t):
    """Mann-Whitney U of every pair of strategies on t's Elo (one row a
    seed), Holm-adjusted over the 6 pairs."""
    rows = []
    for i, x in enumerate(ORDER):
        for y in ORDER[i + 1:]:
            r = sl.mann_whitney_u(t[t.strategy == x]["elo"], t[t.strategy == y]["elo"])
            rows.append({"a": x, "b": y, "u": r["u"], "prob_a_beats_b": r["a"], "p": r["p"],
                         "method": r["method"]})
    rows = pd.DataFrame(rows)
    rows["p_holm"] = na.holm(rows["p"])
    return rows


def load_runs(a):
    """Every run file of OUT (exit 1 unless every strategy has SEEDS runs of
    BUDGET games): games per generation, cumulative games, wall time; writes
    runs.csv."""
    runs, cum, div = [], {}, {}
    for path in sorted(glob.glob(os.path.join(a.out, "run-*.h5"))):
        m = re.fullmatch(r"run-(.+)-s(\d+)\.h5", os.path.basename(path))
        k, s = m.group(1), int(m.group(2))
        r = na.read(path)
        st = r["stats"]
        cum[(k, s)] = np.cumsum(st["games"].to_numpy())
        div[(k, s)] = st["diversity"].to_numpy()
        runs.append({"strategy": k, "seed": s, "generations": len(st),
                     "games_per_generation": int(st["games"].iloc[0]),
                     "games": int(st["games"].sum()),
                     "evaluations": int(st["evaluations"].iloc[-1]),
                     "wall_seconds": round(float(st["wall_seconds"].sum()), 2),
                     "final_best_fitness": float(st["best"].iloc[-1]),
                     "final_mean_fitness": float(st["mean"].iloc[-1]),
                     "final_diversity": float(st["diversity"].iloc[-1]),
                     "flat_generations": int((st["best"] == st["worst"]).sum()),
                     **{f"w_{f}": float(v) for f, v in r["champion"]["weights"].items()}})
    runs = pd.DataFrame(runs)
    runs["order"] = runs["strategy"].map(ORDER.index)
    runs = runs.sort_values(["order", "seed"]).drop(columns="order").reset_index(drop=True)
    if set(runs["strategy"]) != set(ORDER) or any(
            len(runs[runs.strategy == k]) != a.seeds for k in ORDER):
        sys.exit(f"report.py: expected {a.seeds} run files of each of {', '.join(ORDER)} in {a.out}")
    budgets = sorted(set(runs["games"]))
    if budgets != [a.budget]:
        sys.exit(f"report.py: the runs played {budgets} games, not the budget {a.budget}")
    runs.to_csv(os.path.join(a.out, "runs.csv"), index=False)
    rated = [(o["strategy"], o["seed"], o["generation"])
             for o in na.read_jsonl(os.path.join(a.out, "ratings.jsonl"))]
    pd.DataFrame([{"strategy": k, "seed": s, "generation": g, "games": int(cum[(k, s)][g - 1]),
                   "diversity": float(div[(k, s)][g - 1])} for k, s, g in rated]).to_csv(
        os.path.join(a.out, "generations.csv"), index=False)
    sl.write_json(os.path.join(a.out, "runs.json"), {"settings": {
        k: getattr(a, k) for k in ("quick", "seeds", "budget", "checks", "games", "depth", "ladder",
                                   "early")}}, end="\n")


def at_root(p):
    """A path relative to the repository's root as a path."""
    return p if os.path.isabs(p) else os.path.join(ROOT, p)


def ratings_table(a):
    """Every rating of ratings.jsonl refitted jointly with the ladder's games
    (`nickar rate` held the ladder as exact: those numbers are kept as
    fixed_elo, fixed_lo, fixed_hi), with the games played and the
    diversity of generations.csv, and the final one of each run; writes
    ladder_elo.csv and final_elo.csv."""
    gens = pd.read_csv(os.path.join(a.src, "generations.csv"))
    at = {(r.strategy, r.seed, r.generation): r for r in gens.itertuples()}
    rows = []
    for o in na.read_jsonl(os.path.join(a.src, "ratings.jsonl")):
        rt = o["rate"]
        k, s, g = o["strategy"], o["seed"], o["generation"]
        e, se, lo, hi, prior = sl.rate_joint(at_root(rt["ladder"]), rt["opponents"])
        rows.append({"strategy": k, "seed": s, "generation": g,
                     "games": int(at[(k, s, g)].games), "elo": e, "se": se,
                     "elo_lo": lo, "elo_hi": hi,
                     "rating_games": rt["games"], "prior": prior,
                     "fixed_elo": rt["elo"], "fixed_lo": rt["ci"][0], "fixed_hi": rt["ci"][1],
                     "diversity": float(at[(k, s, g)].diversity)})
    elo = pd.DataFrame(rows)
    elo["order"] = elo["strategy"].map(ORDER.index)
    elo = elo.sort_values(["order", "seed", "generation"]).drop(columns="order").reset_index(drop=True)
    elo.to_csv(os.path.join(a.out, "ladder_elo.csv"), index=False)

    final = elo.loc[elo.groupby(["strategy", "seed"])["generation"].idxmax()]
    final = final[final["games"] == a.budget]
    final["order"] = final["strategy"].map(ORDER.index)
    final = final.sort_values(["order", "seed"]).drop(columns="order").reset_index(drop=True)
    if len(final) != 4 * a.seeds:
        sys.exit("report.py: not every run has a rating at the end of its budget")
    final.to_csv(os.path.join(a.out, "final_elo.csv"), index=False)
    first = elo[elo["generation"] == 1]
    return elo, final, first


def summaries(a, elo, final, first, runs):
    """Each strategy's final Elo over seeds (median and its interval, mean,
    first generation) and the quantile bands over games; writes
    summary.csv."""
    summary = []
    for k in ORDER:
        v = final[final.strategy == k]["elo"].to_numpy()
        v0 = first[first.strategy == k]["elo"].to_numpy()
        med, lo, hi, cov = na.median_ci(v)
        rk = runs[runs.strategy == k].iloc[0]
        summary.append({"strategy": k, "label": LABEL[k],
                        "evaluated_per_generation": int(rk["evaluations"] // rk["generations"]),
                        "games_per_generation": int(rk["games_per_generation"]),
                        "generations": int(rk["generations"]), "games": a.budget,
                        "seeds": len(v), "median": med, "median_lo": lo, "median_hi": hi,
                        "coverage": cov, "mean": float(v.mean()),
                        "q25": float(np.quantile(v, 0.25)), "q75": float(np.quantile(v, 0.75)),
                        "min": float(v.min()), "max": float(v.max()),
                        "median_generation1": float(np.median(v0)),
                        "median_flat_share": float(np.median(
                            runs[runs.strategy == k]["flat_generations"]
                            / runs[runs.strategy == k]["generations"])),
                        "median_final_diversity": float(np.median(
                            final[final.strategy == k]["diversity"])),
                        "median_gain": float(np.median(
                            final[final.strategy == k].set_index("seed")["elo"]
                            - first[first.strategy == k].set_index("seed")["elo"]))})
    summary = pd.DataFrame(summary)
    summary.to_csv(os.path.join(a.out, "summary.csv"), index=False)

    bands = na.quantile_bands(elo, "games", "elo", "strategy")
    return bands, summary


def pairwise_tests(a, elo, final):
    """Mann-Whitney U of every pair at the end of the budget (tests.csv) and,
    exploratory, at every budget rated (tests_by_games.csv)."""
    tests = pairwise(final)  # the primary test: the end of the budget
    tests.to_csv(os.path.join(a.out, "tests.csv"), index=False)
    # Secondary, exploratory: the same at every budget rated for all four.
    levels = [g for g in sorted(elo["games"].unique())
              if all(((elo.strategy == k) & (elo.games == g)).sum() == a.seeds for k in ORDER)]
    by_games = pd.concat([pairwise(elo[elo.games == g]).assign(games=g) for g in levels],
                         ignore_index=True)
    by_games = by_games[["games"] + [c for c in by_games.columns if c != "games"]]
    by_games.to_csv(os.path.join(a.out, "tests_by_games.csv"), index=False)
    return by_games, levels, tests


def write_results(a, by_games, elo, final, runs, summary, tests):
    """The compute accounts and the settings; results.json."""
    ci_half = float(np.median((elo["elo_hi"] - elo["elo_lo"]) / 2))
    acct = pd.read_csv(os.path.join(a.src, "compute.tsv"), sep="\t")
    is_ev = acct["phase"].str.startswith("evolve")
    compute = {"wall_seconds": round(float(acct["wall_s"].sum()), 1),
               "wall_seconds_evolve": round(float(acct[is_ev]["wall_s"].sum()), 1),
               "cpu_seconds": round(float(acct["cpu_s"].sum()), 1),
               "cpu_seconds_evolve": round(float(acct[is_ev]["cpu_s"].sum()), 1),
               "cpu_seconds_rate": round(float(acct[~is_ev]["cpu_s"].sum()), 1),
               "earlier_invocations": acct[~acct["phase"].isin(["evolve", "rate"])]
               .to_dict(orient="records"),
               "machine": "shared 2-core VM, other jobs running"}
    settings = {"quick": bool(a.quick), "seeds": a.seeds, "budget_games": a.budget,
                "checks": a.checks, "early_games": [int(x) for x in a.early.split()],
                "rate_games_per_rung": a.games, "depth": a.depth,
                "ladder": a.ladder, "variant": "abapa", "features": "positional",
                "fitness": "random-k, k = 4, 2 games a meeting, 2-ply openings, 2/1/0"}
    sl.write_json(os.path.join(a.out, "results.json"), {
        "settings": settings, "compute": compute,
        "median_rating_ci_half_width": ci_half,
        "summary": sl.records(summary),
        "tests": sl.records(tests),
        "tests_by_games": sl.records(by_games),
        "final": sl.records(final),
        "ladder_elo": sl.records(elo),
        "runs": sl.records(runs)
    })
    return acct, ci_half, compute


def reference_players(a):
    """The ladder's players of the study's depth, for scale."""

    ladder = na.ladder_table(at_root(a.ladder))
    refs = ladder[ladder["spec"].str.contains(f"depth={a.depth},")]
    return ladder, refs


def plot_elo_vs_games(a, elo, refs):
    """elo_vs_games.png: ladder Elo against games played, bands over seeds."""
    plt = sl.pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    t = elo.assign(label=elo["strategy"].map(LABEL))
    na.plot_bands(t, ax, "games", "elo", "label", order=[LABEL[k] for k in ORDER])
    for _, r in refs.iterrows():
        ax.axhline(r["elo"], color="grey", linewidth=0.7, linestyle="--")
        ax.annotate(r["name"], (0, r["elo"]), xycoords=("axes fraction", "data"),
                    fontsize="x-small", color="grey", va="bottom")
    ax.set_xscale("log")
    ax.set_xlabel("fitness games played (per run, log scale)")
    ax.set_ylabel("ladder Elo of the champion (random = 0)")
    ax.set_title(f"abapa, depth {a.depth}: median over {a.seeds} seeds, "
                 "interquartile band, extremes dotted")
    sl.save(fig, os.path.join(a.out, "elo_vs_games.png"), dpi=80)


def plot_final_elo(a, final, summary):
    """final_elo.png: every seed's final Elo by strategy."""
    plt = sl.pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, k in enumerate(ORDER):
        v = final[final.strategy == k]
        ax.errorbar(i + np.linspace(-0.25, 0.25, len(v)), v["elo"],
                    yerr=[v["elo"] - v["elo_lo"], v["elo_hi"] - v["elo"]],
                    fmt="o", markersize=4, alpha=0.6, elinewidth=0.8)
        srow = summary[summary.strategy == k].iloc[0]
        ax.plot([i - 0.35, i + 0.35], [srow["median"]] * 2, color="black")
        ax.fill_between([i - 0.35, i + 0.35], srow["median_lo"], srow["median_hi"],
                        color="black", alpha=0.1)
    ax.set_xticks(range(len(ORDER)))
    ax.set_xticklabels([LABEL[k] for k in ORDER])
    ax.set_ylabel("ladder Elo at the end of the budget")
    ax.set_title(f"{a.budget} games a run: every seed (95% rating interval), "
                 "median and its 95% interval", fontsize="small")
    sl.save(fig, os.path.join(a.out, "final_elo.png"), dpi=80)


def plot_diversity(a, elo):
    """diversity.png: the population's spread by generation."""
    plt = sl.pyplot()
    t = elo.assign(label=elo["strategy"].map(LABEL))
    fig, ax = plt.subplots(figsize=(9, 4))
    na.plot_bands(t, ax, "games", "diversity", "label", order=[LABEL[k] for k in ORDER])
    ax.set_yscale("log")
    ax.set_xscale("log")
    ax.set_xlabel("fitness games played (per run, log scale)")
    ax.set_ylabel("diversity (mean sd of a weight / its range)")
    ax.set_title(f"population diversity at the rated generations, median over {a.seeds} seeds")
    sl.save(fig, os.path.join(a.out, "diversity.png"), dpi=80)


def readme_protocol(a, ci_half, ladder, summary, tests):
    """README.md's finding, question and protocol."""
    sig = tests[tests["p_holm"] < 0.05]
    if len(sig):
        sig_text = "; ".join(
            f"{LABEL[r.a]} {'above' if r.prob_a_beats_b > 0.5 else 'below'} {LABEL[r.b]} "
            f"(Holm p = {r.p_holm:.3g})" for r in sig.itertuples())
        finding = (f"At the 5% level after Holm's correction, {len(sig)} of the 6 pairs differ: "
                   f"{sig_text}. The other pairs cannot be told apart with {a.seeds} seeds.")
    else:
        finding = (f"No pair of strategies differs at the 5% level after Holm's correction: "
                   f"with {a.seeds} seeds the final ladder Elo cannot tell them apart.")
    order_text = ", ".join(f"{LABEL[r.strategy]} {f0(r['median'])}"
                           for _, r in summary.sort_values("median", ascending=False).iterrows())

    L = sl.readme_start("# strategies: GA, (mu+lambda)-ES, (mu,lambda)-ES and CMA-ES at an equal "
                        "budget of games", a.quick)
    L += [
        "## The question",
        "",
        "Given the same number of self-play games, which of nickar's four evolution",
        "strategies evolves the strongest player: the generational GA, the",
        "(mu+lambda)-ES, the (mu,lambda)-ES or CMA-ES? Strength is measured",
        "outside the evolution, as the champion's Elo on the fixed reference ladder",
        "of Abapa (`results/ladder/abapa.tsv`, random = 0), against the number of",
        "fitness games played.",
        "",
        "## Protocol",
        "",
        "No single paper fixes this comparison; the left column is what issue 10",
        "asks for and, for CMA-ES, the defaults of Hansen's tutorial (2016) that",
        "`src/evolve/cmaes.c` implements.",
        "",
        "| | asked / reference | ours | why they differ |",
        "|---|---|---|---|",
        f"| variant | one variant | `abapa` (tournament Oware) | of the five variants the closest to the Oware/Awari of the literature's evolved players (Davis & Kendall, Ayo; their grand-slam rule is nickar's `awari`, which has no ladder); its ladder has the widest spread (random 0 to {ladder.elo.max():.0f}); a game is a game (no match unit), so a budget of games is unambiguous |",
        f"| players | - | alpha-beta, depth {a.depth}, the 9 `positional` features, weights in [-1, 1] | cheap enough for {a.seeds} seeds x 4 strategies in the CPU budget |",
        "| fitness | - | random-k: each individual meets 4 others drawn at random, 2 games a meeting (one per colour), random 2-ply openings, 2/1/0 | the same schedule for all: a generation costs exactly 8 games per individual evaluated |",
        f"| budget | equal games | {a.budget} fitness games a run, every strategy (checked in the run files' `/stats`) | |",
        "| GA | - | 16 individuals, elitism 1, tournament 3, BLX-0.5 (rate 0.9), Gaussian mutation 0.2 / sigma 0.1: 128 games a generation | nickar's GA defaults |",
        "| (mu+lambda)-ES | - | (4+16), self-adaptive log-normal steps (one per weight, tau = 1/sqrt(2 sqrt D), tau' = 1/sqrt(2 D); initial 0.3 of the range), no recombination; the parents are evaluated again each generation: 160 games | self-play fitness is relative, so a parent's old fitness cannot be compared with new offspring's |",
        "| (mu,lambda)-ES | - | (4,16), the same mutation: 128 games | lambda equal to the GA's population |",
        "| CMA-ES | Hansen (2016): lambda = 4 + floor(3 ln D) = 10 for D = 9, mu = floor(lambda/2) = 5, weighted recombination | the same; sigma0 0.3 of the range, mean started at the centre (all weights 0): 80 games a generation | - |",
        "| generations | - | " + ", ".join(f"{LABEL[r.strategy]} {r.generations}" for r in summary.itertuples()) + " | budget / games a generation |",
        f"| seeds | at least 10 | {a.seeds} per strategy (seeds 1..{a.seeds}), every run reported | |",
        f"| champion | - | rank 0 of the sampled generation (`RUN.h5@gen=G,rank=0`); for CMA-ES the best sample, not the mean | the same rule for every strategy |",
        f"| ladder Elo | `nickar rate` | after generation 1, "
        f"{'after ' + ', '.join(a.early.split()) + ' games ' if a.early.split() else ''}"
        f"and at each of {a.checks} equal steps of the budget ({a.budget // a.checks} games); {a.games} games against each of the 16 rungs (colour-swapped pairs, 2-ply openings, seed 1) | {16 * a.games} games a rating; the median 95% interval of one rating is +-{ci_half:.0f} Elo |",
        "| intervals | - | one rating: the 95% interval of the joint fit of the ladder's own games (its @wdl lines) with the champion's, so that it includes the ladder's uncertainty (`nickar rate` held the ladder as exact; ladder_elo.csv keeps those numbers as fixed_*); the strategies are compared by the seeds' ratings (medians, Mann-Whitney), all on the one ladder, whose shared error cancels from the comparisons | one method for every study (experiments/studylib.py) |",
        "| test | which is better | two-sided Mann-Whitney U on the final Elo per seed, exact permutation p-values, Holm's correction over the 6 pairs; medians with distribution-free 95% intervals (order statistics) | no normality assumed; numpy only (analysis/nickar_analysis.py, tested in tests/test_analysis.py) |",
        "",
        "## Results",
        "",
        f"Final ladder Elo, after {a.budget} games, over {a.seeds} seeds (summary.csv;"
        " the interval of the median is [x(k), x(n+1-k)] of the sorted seeds, coverage"
        " as given):",
        "",
        "| strategy | generations | games/gen | median [95% interval] | coverage | mean | IQR | min-max | median at gen 1 | median gain | final diversity | flat generations |",
        "|---|---:|---:|---|---:|---:|---|---|---:|---:|---:|---:|",
    ]
    return L, finding, order_text


def readme_results(L, ci_half, summary, tests):
    """README.md's final Elo by strategy and the pairwise tests."""
    for r in summary.itertuples():
        L.append(f"| {r.label} | {r.generations} | {r.games_per_generation} | {f0(r.median)} "
                 f"[{f0(r.median_lo)}, {f0(r.median_hi)}] | {r.coverage:.3f} | {f0(r.mean)} | "
                 f"{f0(r.q25)}-{f0(r.q75)} | {f0(r.min)}-{f0(r.max)} | {f0(r.median_generation1)} | "
                 f"{f0(r.median_gain)} | {r.median_final_diversity:.2g} | "
                 f"{100 * r.median_flat_share:.0f}% |")
    L += [
        "",
        "The gain is the median over seeds of (final Elo - Elo of the same run's",
        "generation-1 champion); the final diversity, the median over seeds of the",
        "last population's mean standard deviation of a weight as a fraction of its",
        "range (`/stats` diversity; diversity.png); flat generations, the median over",
        "seeds of the share of generations in which every individual had the same",
        "fitness (best = worst), so that selection had nothing to act on: self-play",
        "fitness is relative, and in a meeting of two identical players the two games",
        "start from the same opening with the colours swapped. One rating's own 95% interval is about",
        f"+-{ci_half:.0f} Elo (median over all ratings), part of the spread between seeds.",
        "",
        "Pairwise tests (tests.csv): U counts the seed pairs where A's champion",
        "rates above B's (ties 1/2); P(A > B) = U / (n m); p exact, then Holm-adjusted:",
        "",
        "| A | B | U | P(A > B) | p | p (Holm) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in tests.itertuples():
        L.append(f"| {LABEL[r.a]} | {LABEL[r.b]} | {r.u:g} | {r.prob_a_beats_b:.2f} | "
                 f"{r.p:.4f} | {r.p_holm:.4f} |")
    return L


def readme_by_games(L, a, bands, by_games, finding, levels, order_text, refs):
    """README.md's Elo against games played and the tests at every budget."""
    hand = refs[refs["spec"].str.contains("features=positional")]
    early = [int(e) for e in a.early.split()]
    late = [g for g in levels if not early or g >= max(early)]
    med = bands[bands.games.isin(late)]["median"] if late else pd.Series(dtype=float)
    plateau = (f" From {late[0]} games on, the four medians stay between {f0(med.min())} and "
               f"{f0(med.max())} Elo" + (f" (the hand-tuned weights at the same depth, "
               f"`{hand.iloc[0]['name']}`: {f0(hand.iloc[0]['elo'])})" if len(hand) else "") + "."
               ) if len(med) else ""
    L += [
        "",
        f"Medians, best first: {order_text}. {finding}{plateau}",
        "",
        "Secondary and exploratory (tests_by_games.csv): the same six tests, Holm within",
        "each budget, at every budget rated for all four strategies; the pairs with a",
        "Holm-adjusted p below 0.05:",
        "",
        "| games | pairs that differ (Holm p) |",
        "|---:|---|",
    ]
    for g in levels:
        t = by_games[(by_games.games == g) & (by_games.p_holm < 0.05)]
        L.append(f"| {g} | " + ("; ".join(
            f"{LABEL[r.a]} {'>' if r.prob_a_beats_b > 0.5 else '<'} {LABEL[r.b]} ({r.p_holm:.3g})"
            for r in t.itertuples()) or "none") + " |")
    L += [
        "",
        "For scale, the ladder's own depth-" + str(a.depth) + " players: " +
        ", ".join(f"`{r['name']}` {f0(r['elo'])}" for _, r in refs.iterrows()) + ".",
        "",
        "![ladder Elo against games](elo_vs_games.png)",
        "",
        "![final Elo per seed](final_elo.png)",
        "",
        "![diversity](diversity.png)",
        "",
        "Every run (final_elo.csv; Elo with its 95% rating interval):",
        "",
        "| strategy | " + " | ".join(f"seed {s}" for s in range(1, a.seeds + 1)) + " |",
        "|---|" + "---:|" * a.seeds,
    ]
    return L


def readme_bands(L, bands, compute, final, runs, endgame=({}, None)):
    """README.md's bands over seeds (and the final champions' endgame
    grades, where endgame.jsonl is committed)."""
    for k in ORDER:
        v = final[final.strategy == k].sort_values("seed")
        L.append(f"| {LABEL[k]} | " + " | ".join(
            f"{f0(r.elo)} [{f0(r.elo_lo)}, {f0(r.elo_hi)}]" for r in v.itertuples()) + " |")
    eg, eg_first = endgame
    if eg_first:
        seeds = sorted(set(final.seed))
        L += ["", sl.endgame_note(eg_first) + " Each champion's own interval: results/perfect/README.md.", "",
              "| strategy | " + " | ".join(f"seed {s}" for s in seeds)
              + " | endgame: optimal, mean [95% t] |",
              "|---|" + "---:|" * len(seeds) + "---|"]
        for k in ORDER:
            g = [eg.get(f"{k} s{s}") for s in seeds]
            L.append(f"| {LABEL[k]} | " + " | ".join(
                sl.f3(x["optimal"][0]) if x else "-" for x in g) + f" | {sl.endgame_mean(g)} |")
    L += [
        "",
        "Median ladder Elo by games played (ladder_elo.csv has every rating):",
        "",
        "| games | " + " | ".join(LABEL[k] for k in ORDER) + " |",
        "|---:|" + "---:|" * len(ORDER),
    ]
    for g in sorted(bands["games"].unique()):
        cells = []
        for k in ORDER:
            b = bands[(bands.strategy == k) & (bands.games == g)]
            cells.append(f0(b["median"].iloc[0]) if len(b) else "")
        L.append(f"| {g} | " + " | ".join(cells) + " |")
    L += [
        "",
        "Limits: one setting of each strategy (nickar's defaults, Hansen's for CMA-ES),",
        "not tuned; one variant, one depth, one feature set; strength is measured",
        "against fixed players only (the ladder), not in play between the champions.",
        "",
        "## Compute",
        "",
        "Measured by run.sh (bash `times` and `date` around every evolution and every",
        "run's ratings; compute.tsv) on a shared 2-core VM with other jobs running:",
        f"{compute['wall_seconds']:.0f} s wall in all ({compute['wall_seconds_evolve']:.0f} s "
        f"evolving), {compute['cpu_seconds']:.0f} CPU seconds (user + system) in all: "
        f"{compute['cpu_seconds_evolve']:.0f} evolving, {compute['cpu_seconds_rate']:.0f} rating. "
        f"The runs' own `/stats` wall time, summed: {runs['wall_seconds'].sum():.0f} s.",
    ]
    return L


def readme_compute(L, a, acct, compute):
    """README.md's compute and rerun; writes README.md."""
    checks = int(acct[acct.phase == "evolve"].groupby(["strategy", "seed"]).size().max())
    if checks > 1:
        L += ["", f"compute.tsv holds the lines of {checks} invocations of run.sh that ran"
              " the evolutions (each continuing the one before with `--continue`; in a later one a finished run"
              " is only checked, in seconds, and the ratings made before are reused)."]
    for e in compute["earlier_invocations"]:
        L += ["", f"compute.tsv's line `{e['phase']}` (seeds {e['seed']}, {e['wall_s']:.0f} s wall, "
              f"{e['cpu_s']:.0f} CPU s) is an earlier invocation of run.sh, stopped and "
              "continued with `--continue`: its runs were kept and only checked "
              "(`nickar evolve --resume`); its CPU time was read from /proc/PID/stat "
              "(the children's user + system time) just before it was stopped."]
    L += [
        "",
        "## Rerun",
        "",
        "    cmake --preset release && cmake --build build -j2",
        "    THREADS=2 nice -n 10 experiments/strategies/run.sh          # the study (writes results/strategies/)",
        "    experiments/strategies/run.sh --quick                        # seconds: checks the script",
        "    THREADS=2 nice -n 10 experiments/strategies/run.sh --continue  # keeps finished runs and ratings",
        "",
        "SEEDS, BUDGET (a multiple of 640), EARLY, CHECKS, GAMES and DEPTH change the",
        "budget; the results are the same bit for bit for any THREADS. The configs are",
        "experiments/strategies/common.ini (shared) and ga.ini, es-plus.ini, es-comma.ini,",
        "cma-es.ini; one run by hand: `nickar evolve experiments/strategies/cma-es.ini",
        "--set experiment.seed=1 --set experiment.generations=600`.",
        "",
    ]
    sl.write_lines(os.path.join(a.out, "README.md"), L)


def report(src, into, plots):
    """Step 2: every table, the plots (when plots) and README.md from the
    committed data of SRC, into INTO."""
    with open(os.path.join(src, "runs.json")) as f:
        st = json.load(f)["settings"]
    a = sl.settings(src=src, into=into, out=into, **st)
    runs = pd.read_csv(os.path.join(src, "runs.csv"))
    elo, final, first = ratings_table(a)
    bands, summary = summaries(a, elo, final, first, runs)
    by_games, levels, tests = pairwise_tests(a, elo, final)
    acct, ci_half, compute = write_results(a, by_games, elo, final, runs, summary, tests)
    ladder, refs = reference_players(a)
    if plots:
        plot_elo_vs_games(a, elo, refs)
        plot_final_elo(a, final, summary)
        plot_diversity(a, elo)
    L, finding, order_text = readme_protocol(a, ci_half, ladder, summary, tests)
    L = readme_results(L, ci_half, summary, tests)
    L = readme_by_games(L, a, bands, by_games, finding, levels, order_text, refs)
    L = readme_bands(L, bands, compute, final, runs, sl.endgame_grades(src))
    readme_compute(L, a, acct, compute)


def main(argv):
    """report.py OUT --quick Q --seeds S --budget B --checks C --games G
    --depth D --ladder L --early E: every output; report.py --committed SRC
    [INTO]: step 2 alone."""
    c = sl.committed(argv)
    if c:
        report(*c)
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    for name in ("quick", "seeds", "budget", "checks", "games", "depth"):
        ap.add_argument("--" + name, type=int, required=True)
    ap.add_argument("--ladder", required=True)
    ap.add_argument("--early", default="", help="the EARLY games, separated by spaces")
    a = ap.parse_args(argv[1:])
    load_runs(a)
    report(a.out, a.out, plots=True)


if __name__ == "__main__":
    main(sys.argv)
