#!/usr/bin/python3
"""report.py OUT SEEDS GENS GAMES RATE_GAMES QUICK SECONDS DEPTH LADDER --
the davis-kendall-2002 study's report, in two steps:

1. from the run files that run.sh left in OUT: runs.json (the settings
   above and each seed's champion), benchmark.csv (the champion of each
   generation against the config's benchmark) and the plots benchmark.png,
   weights.png;
2. from the committed data alone (runs.json, benchmark.csv, ratings.jsonl,
   matches.jsonl, times.tsv, the awari ladder): ratings.csv, matches.csv,
   results.json and README.md.

    report.py --committed SRC [INTO]

runs step 2 alone, from the committed data in SRC into INTO (default SRC);
scripts/check-results.py uses it.  The ladder's path in runs.json is
relative to the repository's root."""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import studylib as sl  # noqa: E402  (the studies' shared library)

import pandas as pd  # noqa: E402

na = sl.na
f1, f3 = sl.f1, sl.f3

# The Ayo paper's two accounts of this player against Awale's Amateur level:
# its text ("3-2", of 5 games) and its Table 3 (W:D:L %).
AMATEUR_TEXT, AMATEUR_TABLE3 = "3-2", "60:20:20"


def at_root(p):
    """A path of runs.json (relative to the repository's root) as a path."""
    return p if os.path.isabs(p) else os.path.join(ROOT, p)


# ===== step 1: the run files =====

def collect(a):
    """The run files of OUT (exit 1 for one not made by this run): writes
    runs.json and benchmark.csv; returns the runs and the benchmark."""
    runs = {}
    for s in range(1, a.seeds + 1):
        path = os.path.join(a.out, f"run-dk2002-d{a.depth}-s{s}.h5")
        runs[s] = na.read(path)
    extra = sorted(set(glob.glob(os.path.join(a.out, "run-*.h5")))
                   - {r["path"] for r in runs.values()})
    if extra:
        sys.exit(f"report.py: run files not made by this run: {extra}")
    champions = {f"s{s}": {"fitness": r["champion"]["fitness"],
                           "generation": r["champion"]["generation"],
                           "weights": dict(r["champion"]["weights"].items())}
                 for s, r in runs.items()}
    settings = {k: getattr(a, k) for k in ("seeds", "gens", "games", "rate_games", "quick",
                                           "seconds", "depth", "ladder")}
    sl.write_json(os.path.join(a.out, "runs.json"), {"settings": settings, "champions": champions},
                  end="\n")
    bench = []
    for s, r in runs.items():
        b = r["benchmark"].copy()
        b.insert(0, "seed", s)
        bench.append(b)
    bench = pd.concat(bench, ignore_index=True) if bench else pd.DataFrame()
    if len(bench):
        bench.to_csv(os.path.join(a.out, "benchmark.csv"), index=False)
    return runs, bench


def plot_benchmark(a, bench):
    """benchmark.png: the champion of each generation against the config's
    benchmark."""
    plt = sl.pyplot()
    fig, ax = plt.subplots(figsize=(8, 4))
    if len(bench):
        for opp, part in bench.groupby("opponent", sort=False):
            g = part.groupby("generation")["score"]
            line, = ax.plot(g.mean().index, g.mean().values, marker="o",
                            label=f"{opp} (mean of {a.seeds} seeds)")
            ax.fill_between(g.min().index, g.min().values, g.max().values,
                            color=line.get_color(), alpha=0.15)
        ax.legend(fontsize="small")
    else:
        ax.text(0.5, 0.5, "no benchmark in these runs", ha="center", transform=ax.transAxes)
    ax.set_xlabel("generation")
    ax.set_ylabel("champion's score (band: min-max over seeds)")
    ax.set_ylim(0, 1)
    ax.set_title("davis-kendall-2002: the champion against the config's benchmark")
    sl.save(fig, os.path.join(a.out, "benchmark.png"), dpi=80)


def plot_champion_weights(a, runs):
    """weights.png: every seed's champion's weights."""
    plt = sl.pyplot()
    fig, ax = plt.subplots(figsize=(8, 4))
    na.plot_weights([r["champion"]["weights"] for r in runs.values()], ax,
                    labels=[f"seed {s}" for s in runs])
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_title(f"evolved dk2002 weights (depth {a.depth}, generation {a.gens}), by seed")
    sl.save(fig, os.path.join(a.out, "weights.png"), dpi=80)


# ===== step 2: the committed data =====

def load(src, into):
    """The settings and champions of runs.json in SRC, the ratings (with the
    joint fit of the ladder's games and the champions'), the matches (with
    the score's interval from the pairs) and the compute steps; writes
    ratings.csv and matches.csv into INTO."""
    with open(os.path.join(src, "runs.json")) as f:
        r = json.load(f)
    a = sl.settings(src=src, into=into, champions=r["champions"], **r["settings"])
    objs = na.read_jsonl(os.path.join(src, "ratings.jsonl"))
    mobjs = na.read_jsonl(os.path.join(src, "matches.jsonl"))
    ratings = na.rating_table(objs)
    matches = na.match_table(mobjs)
    times = na.times_table(os.path.join(src, "times.tsv"))
    if len(ratings) != a.seeds or len(matches) != 2 * a.seeds:
        sys.exit(f"report.py: {len(ratings)} ratings and {len(matches)} matches "
                 f"for {a.seeds} seeds")
    ratings.insert(0, "seed", list(range(1, a.seeds + 1)))
    fit = sl.joint_fit(at_root(a.ladder), {f"s{s}": o["opponents"]
                                           for s, o in zip(ratings["seed"], objs)})
    rung = f"material-d{a.depth}"
    fits = [sl.rate_fit(at_root(a.ladder), o["opponents"]) for o in objs]
    diffs = [f.diff("@rated", rung) if rung in f.index else (None,) * 4 for f in fits]
    ratings["minus_material"] = [d[0] for d in diffs]
    ratings["minus_material_lo"] = [d[1] for d in diffs]
    ratings["minus_material_hi"] = [d[2] for d in diffs]
    matches.insert(0, "seed", [s for s in range(1, a.seeds + 1) for _ in range(2)])
    ps = [sl.pair_score(o["wins"], o["draws"], o["losses"], o.get("pentanomial")) for o in mobjs]
    matches["score_lo"] = [p[1] for p in ps]
    matches["score_hi"] = [p[2] for p in ps]
    matches["plies"] = [o.get("plies") for o in mobjs]
    matches["seed_diff"] = [o.get("seed_diff") for o in mobjs]
    matches["wdl_percent"] = [na.wdl_percent(m.wins, m.draws, m.losses)
                              for m in matches.itertuples()]
    ratings.to_csv(os.path.join(into, "ratings.csv"), index=False)
    matches.to_csv(os.path.join(into, "matches.csv"), index=False)
    return a, fit, matches, mobjs, ratings, times


def summaries(a, fit, matches, mobjs, ratings, times):
    """Elo over seeds (t) and the mean champion minus material from the joint
    fit; each opponent's score, all seeds' pairs pooled; the compute
    totals."""
    elo = na.seed_summary(ratings["elo"])
    rung = f"material-d{a.depth}"
    mean_minus = fit.mean_diff([f"s{s}" for s in ratings["seed"]], [rung]) if rung in fit.index else None
    opp_summary = {}
    for b in dict.fromkeys(matches["b"]):
        sel = [o for o in mobjs if o["b"] == b]
        w, d, l_, pent = sl.pooled_pairs(sel)
        s, lo, hi, _ = sl.pair_score(w, d, l_, pent)
        sc = matches[matches["b"] == b]["score"]
        opp_summary[b] = {"seeds": len(sel), "score": s, "lo": lo, "hi": hi,
                          "min": float(sc.min()), "max": float(sc.max()),
                          "wins": w, "draws": d, "losses": l_,
                          "plies": sum(o["plies"] * o["games"] for o in sel) / sum(o["games"] for o in sel),
                          "seed_margin": sum(o["seed_diff"] * o["games"] for o in sel)
                          / sum(o["games"] for o in sel)}
    wall, cpu = float(times["wall"].sum()), float(times["cpu"].sum())
    evo = times[times["label"].str.startswith("evolve")]
    return elo, mean_minus, opp_summary, cpu, evo, wall


def write_results(a, elo, mean_minus, opp_summary, cpu, evo, wall, matches, ratings, times):
    """results.json: the settings, the compute and every number."""
    sl.write_json(os.path.join(a.into, "results.json"), {
        "quick": a.quick, "seeds": a.seeds, "generations": a.gens, "depth": int(a.depth),
        "games_per_match": a.games, "rate_games_per_rung": a.rate_games,
        "ladder": a.ladder, "seconds": a.seconds,
        "compute": {"wall_s": wall, "cpu_s": cpu,
                    "evolve_wall_s": float(evo["wall"].sum()),
                    "evolve_cpu_s": float(evo["cpu"].sum()),
                    "steps": sl.records(times)},
        "elo_over_seeds": {"seeds": elo[0], "mean": elo[1], "lo": elo[2], "hi": elo[3]},
        "mean_minus_material": (None if mean_minus is None else
                                {"diff": mean_minus[0], "lo": mean_minus[1], "hi": mean_minus[2]}),
        "scores_over_seeds": opp_summary,
        "amateur": {"text": AMATEUR_TEXT, "table3": AMATEUR_TABLE3},
        "champions": a.champions,
        "ratings": sl.records(ratings),
        "matches": sl.records(matches)
    })


def readme(a, elo, mean_minus, opp_summary, cpu, evo, wall, ratings, matches):
    """README.md: the question, the protocol, the results, the comparison with
    the paper, the compute."""
    elo_n, elo_mean, elo_lo, elo_hi = elo
    eg, eg_first = sl.endgame_grades(a.src)
    lines = sl.readme_start("# davis-kendall-2002: Davis & Kendall (CEC 2002) as the Ayo paper recounts it",
                            a.quick) + [
        "## The question",
        "",
        "Davis & Kendall evolved an Awari player with an evolution strategy, every",
        "member playing every other, searching 7 plies with an evaluation of the",
        "pits open to a capture of 2 or 3 seeds and both scores.  Their paper is",
        "not available to us; the Ayo paper (Daoud et al., CEC 2004) recounts it,",
        "and recounts its result against the commercial program Awale twice, in",
        f"two forms that disagree at the Amateur level: its text gives 5-0",
        f"(Initiation), 5-0 (Beginner), {AMATEUR_TEXT} (Amateur) and 0-5 (Master), of",
        "5 games a level; its Table 3 gives 100:0:0, 100:0:0, "
        f"{AMATEUR_TABLE3}, 0:0:100 (W:D:L %).",
        f"{AMATEUR_TEXT} of 5 games is 60:0:40, not {AMATEUR_TABLE3}: a 20% draw share",
        "is one draw in 5 games, which a 3-2 score does not leave room for.",
        "How strong is a player evolved by that protocol, as far as it is known,",
        "measured on nickar's awari reference ladder and against material and",
        "greedy?  Its champions are also the depth-7 opponents of the ayo2004",
        "study's head-to-head match.",
        "",
        "## Protocol",
        "",
        "| | Davis & Kendall (as recounted) | ours | why they differ |",
        "|---|---|---|---|",
        "| rules | Awari | `awari` (the rules the Ayo paper states; docs/rules.md) | their exact rules are not recounted |",
        "| evaluation | the Ayo paper says its a1-a6 are Davis & Kendall's features (a5/a6: the pits that reach the other side); its account of their evaluation names only the pits vulnerable to a capture of 2 or 3 seeds in the next move and both scores | `dk2002`: 6 weighted terms, the Ayo paper's a1-a4 and both stores (no a5/a6) | the two accounts disagree; `dk2002` follows the account of the evaluation (configs/davis-kendall-2002.ini) |",
        "| weights | not recounted | real, in [-1, 1] | **ours** |",
        f"| search | minimax, depth 7 | alpha-beta depth {a.depth}, 1 MiB transposition table, leaves from the side to move | alpha-beta returns minimax's value; the table only saves time |",
        "| strategy | an evolution strategy; parameters not recounted | (3+6)-ES, self-adaptive log-normal steps (initial 0.1, least 0.001 of the range), no recombination | **ours**: unknown; small so that a depth-7 generation stays affordable |",
        "| population | not recounted | 9 (3 parents + 6 offspring) | **ours** |",
        "| fitness | every member plays every other | round robin of the 9, two games a pair (one per colour), 2/1/0 points, 2 random opening plies a meeting | the points and openings are **ours** |",
        f"| generations | 250 | **{a.gens}** | "
        + ("the CPU budget of this study (about 3,000 CPU-s for this and ayo2004 together on a shared 2-core machine)"
           if a.gens < 250 else "-") + " |",
        f"| runs | one | {a.seeds} seeds (1..{a.seeds}), every one reported | |",
        f"| yardstick | Awale's levels, 5 games each | the awari reference ladder (`nickar rate`, {a.rate_games} games against each of its 16 players); `material` at depth {a.depth} and `greedy`, {a.games} games each | Awale is not available |",
        "",
        "## Results",
        "",
        f"Ladder rating of each seed's champion (`nickar rate --variant awari --games {a.rate_games}`;",
        f"{sl.RATING_METHOD}; ratings.csv).  'Minus material-d{a.depth}': the",
        "champion's rating minus that of the same search evaluating the store",
        "difference alone, with the interval of the difference from the same",
        "fit's covariance (the anchor's error, shared by both, cancels); for the",
        "mean, one joint fit of the ladder's games and all five champions':",
        "",
        f"| seed | champion's Elo | 95% interval | minus material-d{a.depth} [95%] |"
        + (" endgame: optimal [95%] |" if eg_first else ""),
        "|---:|---:|---|---|" + ("---|" if eg_first else ""),
    ]
    for r in ratings.itertuples():
        md = ("-" if r.minus_material is None else
              f"{r.minus_material:+.0f} [{r.minus_material_lo:+.0f}, {r.minus_material_hi:+.0f}]")
        lines.append(f"| {r.seed} | {f1(r.elo)} | [{f1(r.elo_lo)}, {f1(r.elo_hi)}]"
                     + (" (virtual draws added)" if r.prior else "") + f" | {md} |"
                     + (f" {sl.endgame_cell(eg.get(f'dk2002 d{a.depth} s{r.seed}'))} |" if eg_first else ""))
    lines.append(f"| mean of {elo_n} | {f1(elo_mean)} | [{f1(elo_lo)}, {f1(elo_hi)}] over seeds (t) | "
                 + ("-" if mean_minus is None else
                    f"{mean_minus[0]:+.0f} [{mean_minus[1]:+.0f}, {mean_minus[2]:+.0f}] (joint fit)") + " |"
                 + (f" {sl.endgame_mean(eg.values())} |" if eg_first else ""))
    if eg_first:
        lines += ["", sl.endgame_note(eg_first)]
    lad = na.read_ladder(at_root(a.ladder))
    lines += [
        "",
        "For scale, the awari ladder (results/ladder/awari.md): " + ", ".join(
            f"{n} {lad[n]:.0f}" for n in ("greedy", "material-d3", "material-d5", "material-d7",
                                          "positional-d5", "positional-d7") if n in lad)
        + " (random = 0).",
        "",
        f"Against `material` at depth {a.depth} and `greedy` ({a.games} games a match,",
        "colour-swapped pairs from random 2-ply openings, seed 1; score from the",
        f"champion's view; {sl.SCORE_METHOD}; 'all': every seed's pairs pooled,",
        "after the bar the lowest and highest seed's score; matches.csv):",
        "",
        "| seed | opponent | W-D-L | W:D:L % | score [95%] |",
        "|---:|---|---|---|---|",
    ]
    for m in matches.itertuples():
        lines.append(f"| {m.seed} | `{m.b}` | {m.wins}-{m.draws}-{m.losses} | {m.wdl_percent} | "
                     f"{f3(m.score)} [{f3(m.score_lo)}, {f3(m.score_hi)}] |")
    for b, o in opp_summary.items():
        lines.append(f"| all {o['seeds']} | `{b}` | {o['wins']}-{o['draws']}-{o['losses']} | "
                     f"{na.wdl_percent(o['wins'], o['draws'], o['losses'])} | "
                     f"{f3(o['score'])} [{f3(o['lo'])}, {f3(o['hi'])}] \\| {f3(o['min'])}-{f3(o['max'])} |")
    rung = f"material-d{a.depth}"
    if "minus_material_lo" in ratings and ratings["minus_material_lo"].notna().all():
        above = int((ratings["minus_material_lo"] > 0).sum())
        below = int((ratings["minus_material_hi"] < 0).sum())
        lines += [
            "",
            f"Reading: {above} of {a.seeds} champions rate above `{rung}`, {below} below it,",
            "by a difference whose 95% interval excludes 0.  The ladder's strongest",
            "players, the positional searchers, evaluate more than these six terms.",
        ]
    lines += [
        "",
        "Game length and seed margin (all seeds' games; the Ayo paper gives",
        "average seeds per side against Awale, which our matches do not record",
        "per side):",
        "",
        "| opponent | plies a game | seed margin a game (champion - opponent) |",
        "|---|---:|---:|",
    ] + [f"| `{b}` | {f1(o['plies'])} | {o['seed_margin']:+.2f} |" for b, o in opp_summary.items()] + [
        "",
        "![benchmark](benchmark.png)",
        "",
        "The champion of each generation against the config's benchmark (20 games",
        "each against greedy, material at depth 3 and the Ayo paper's depth-3",
        "weights; benchmark.csv).  The fitness itself says little here: in a",
        "round robin the points are shared out, so the mean is always 1.",
        "",
        "![weights](weights.png)",
        "",
        "Every term is signed by its meaning for the evaluating player (the",
        "opponent's threats and store enter negatively, its own positively;",
        "src/search/features.c), so a positive weight means the term counts the",
        "way its meaning says.  The weights are the best of the last generation;",
        "the same numbers are in results.json.",
        "",
        "## Side by side with the paper",
        "",
        "The Ayo paper's two accounts of this player (its text, 5 games a level,",
        "and its Table 3, W:D:L %); they disagree at Amateur:",
        "",
        "| Awale level | the Ayo paper's text | the Ayo paper's Table 3 | here |",
        "|---|---|---|---|",
        "| Initiation | 5-0 (100:0:0) | 100:0:0 | no Awale; see the ladder ratings |",
        "| Beginner | 5-0 (100:0:0) | 100:0:0 | no Awale |",
        f"| Amateur | {AMATEUR_TEXT} (60:0:40) | {AMATEUR_TABLE3} | no Awale |",
        "| Master | 0-5 (0:0:100) | 0:0:100 | no Awale |",
        "",
        "What can be compared: not the scores against Awale's levels, whose",
        "strength on our scale is unknown.  What can: the champions' ratings on",
        "a fixed ladder of known searchers (above), and the result the Ayo paper",
        "reports against this player, replayed head to head in results/ayo2004/.",
        (f"With {a.gens} generations of a (3+6)-ES instead of 250 of an unknown ES, these "
         "champions are evolved far less than Davis & Kendall's; they are what this "
         "budget buys, not their player." if a.gens < 250 else
         "Their 250 generations are the paper's, but the ES (a (3+6)-ES here) and its "
         "parameters are ours: these champions are what that protocol gives with our "
         "choices, not Davis & Kendall's player."),
        "",
        "## Compute",
        "",
        f"Measured on each step (times.tsv; wall clock and getrusage): {wall:.0f} s wall,",
        f"{cpu:.0f} CPU-s in all; evolution {float(evo['wall'].sum()):.0f} s wall,",
        f"{float(evo['cpu'].sum()):.0f} CPU-s ({a.seeds} runs of {a.gens} generations);",
        f"the script took {a.seconds} s.  Machine: a shared 2-core VM with other",
        "engineers' jobs running (load average often above 10), 2 threads, niced:",
        "wall times are those of a loaded machine, CPU seconds are the cost.",
        "",
        "## Rerun",
        "",
        "    experiments/davis-kendall-2002/run.sh          # the study, 250 generations (writes results/davis-kendall-2002/)",
        "    GENS=40 experiments/davis-kendall-2002/run.sh  # a shorter budget",
        "    GENS=250 experiments/davis-kendall-2002/run.sh --continue  # extend existing runs, rate and play again",
        "    experiments/davis-kendall-2002/run.sh --quick  # seconds: checks the script",
        "    experiments/davis-kendall-2002/report.py --committed results/davis-kendall-2002  # this README from the committed data",
        "",
        "It needs the awari ladder, results/ladder/awari.tsv",
        "(`experiments/ladder/run.sh awari`).  Run files (run-*.h5) are not",
        "committed; the runs are deterministic, so the same binary and settings",
        "give them back bit for bit.  runs.json and benchmark.csv keep what the",
        "report needs of them, so every table and this README are remade from",
        "the committed files alone; scripts/check-results.py checks that they are.",
        "",
    ]
    sl.write_lines(os.path.join(a.into, "README.md"), lines)


def report(src, into):
    """Step 2: every table and README.md from the committed data of SRC,
    into INTO."""
    a, fit, matches, mobjs, ratings, times = load(src, into)
    elo, mean_minus, opp_summary, cpu, evo, wall = summaries(a, fit, matches, mobjs, ratings, times)
    write_results(a, elo, mean_minus, opp_summary, cpu, evo, wall, matches, ratings, times)
    readme(a, elo, mean_minus, opp_summary, cpu, evo, wall, ratings, matches)


def main(argv):
    """report.py OUT SEEDS GENS GAMES RATE_GAMES QUICK SECONDS DEPTH LADDER:
    every output; report.py --committed SRC [INTO]: step 2 alone."""
    c = sl.committed(argv)
    if c:
        report(c[0], c[1])
        return
    out = argv[1]
    seeds, gens, games, rate_games = (int(x) for x in argv[2:6])
    quick, seconds, depth, ladder = argv[6] == "1", int(argv[7]), argv[8], argv[9]
    a = sl.settings(out=out, seeds=seeds, gens=gens, games=games, rate_games=rate_games,
                    quick=quick, seconds=seconds, depth=depth, ladder=ladder)
    runs, bench = collect(a)
    plot_benchmark(a, bench)
    plot_champion_weights(a, runs)
    report(out, out)


if __name__ == "__main__":
    main(sys.argv)
