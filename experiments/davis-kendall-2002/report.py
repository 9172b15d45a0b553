#!/usr/bin/python3
"""report.py OUT SEEDS GENS GAMES RATE_GAMES QUICK SECONDS DEPTH LADDER --
writes the davis-kendall-2002 study's tables (ratings.csv, matches.csv,
results.json), plots (benchmark.png, weights.png) and README.md into OUT
from the run files, ratings.jsonl, matches.jsonl and times.tsv that run.sh
left there."""
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import studylib as sl  # noqa: E402  (the studies' shared library)

import pandas as pd  # noqa: E402

na = sl.na
plt = sl.pyplot()
f1, f3 = sl.f1, sl.f3


def load(a):
    """The run files of OUT (exit 1 for one not made by this run), the
    ratings, matches and compute steps; writes ratings.csv and matches.csv."""
    runs = {}
    for s in range(1, a.seeds + 1):
        path = os.path.join(a.out, f"run-dk2002-d{a.depth}-s{s}.h5")
        runs[s] = na.read(path)
    extra = sorted(set(glob.glob(os.path.join(a.out, "run-*.h5")))
                   - {r["path"] for r in runs.values()})
    if extra:
        sys.exit(f"report.py: run files not made by this run: {extra}")

    ratings = na.rating_table(na.read_jsonl(os.path.join(a.out, "ratings.jsonl")))
    matches = na.match_table(na.read_jsonl(os.path.join(a.out, "matches.jsonl")))
    times = na.times_table(os.path.join(a.out, "times.tsv"))
    if len(ratings) != a.seeds or len(matches) != 2 * a.seeds:
        sys.exit(f"report.py: {len(ratings)} ratings and {len(matches)} matches "
                 f"for {a.seeds} seeds")
    ratings.insert(0, "seed", list(range(1, a.seeds + 1)))
    matches.insert(0, "seed", [s for s in range(1, a.seeds + 1) for _ in range(2)])
    matches["wdl_percent"] = [na.wdl_percent(m.wins, m.draws, m.losses)
                              for m in matches.itertuples()]
    ratings.to_csv(os.path.join(a.out, "ratings.csv"), index=False)
    matches.to_csv(os.path.join(a.out, "matches.csv"), index=False)
    return matches, ratings, runs, times


def summaries(a, matches, ratings, runs, times):
    """Scores and Elo over seeds, the champions, the benchmark table
    (benchmark.csv) and the compute totals."""
    elo_n, elo_mean, elo_lo, elo_hi = na.seed_summary(ratings["elo"])
    opp_summary = {}
    for b, part in matches.groupby("b", sort=False):
        n, m, lo, hi = na.seed_summary(part["score"])
        opp_summary[b] = {"seeds": n, "mean_score": m, "lo": lo, "hi": hi,
                          "wins": int(part["wins"].sum()), "draws": int(part["draws"].sum()),
                          "losses": int(part["losses"].sum())}
    champions = {f"s{s}": {"fitness": r["champion"]["fitness"],
                           "generation": r["champion"]["generation"],
                           "weights": dict(r["champion"]["weights"].items())}
                 for s, r in runs.items()}
    bench = []
    for s, r in runs.items():
        b = r["benchmark"].copy()
        b.insert(0, "seed", s)
        bench.append(b)
    bench = pd.concat(bench, ignore_index=True) if bench else pd.DataFrame()
    if len(bench):
        bench.to_csv(os.path.join(a.out, "benchmark.csv"), index=False)
    wall, cpu = float(times["wall"].sum()), float(times["cpu"].sum())
    evo = times[times["label"].str.startswith("evolve")]
    return bench, champions, cpu, elo_hi, elo_lo, elo_mean, elo_n, evo, opp_summary, wall


def write_results(a, champions, cpu, elo_hi, elo_lo, elo_mean, elo_n, evo, matches, opp_summary,
                  ratings, times, wall):
    """results.json: the settings, the compute and every number."""
    sl.write_json(os.path.join(a.out, "results.json"), {
        "quick": a.quick, "seeds": a.seeds, "generations": a.gens, "depth": int(a.depth),
        "games_per_match": a.games, "rate_games_per_rung": a.rate_games,
        "ladder": a.ladder, "seconds": a.seconds,
        "compute": {"wall_s": wall, "cpu_s": cpu,
                    "evolve_wall_s": float(evo["wall"].sum()),
                    "evolve_cpu_s": float(evo["cpu"].sum()),
                    "steps": sl.records(times)},
        "elo_over_seeds": {"seeds": elo_n, "mean": elo_mean, "lo": elo_lo, "hi": elo_hi},
        "scores_over_seeds": opp_summary,
        "champions": champions,
        "ratings": sl.records(ratings),
        "matches": sl.records(matches)
    })


def plot_benchmark(a, bench):
    """benchmark.png: the champion of each generation against the config's
    benchmark."""
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
    fig, ax = plt.subplots(figsize=(8, 4))
    na.plot_weights([r["champion"]["weights"] for r in runs.values()], ax,
                    labels=[f"seed {s}" for s in runs])
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_title(f"evolved dk2002 weights (depth {a.depth}, generation {a.gens}), by seed")
    sl.save(fig, os.path.join(a.out, "weights.png"), dpi=80)


def readme(a, cpu, elo_hi, elo_lo, elo_mean, elo_n, evo, matches, opp_summary, ratings, wall):
    """README.md: the question, the protocol, the results, the comparison with
    the paper, the compute."""
    lines = [
        "# davis-kendall-2002: Davis & Kendall (CEC 2002) as the Ayo paper recounts it",
        "",
        sl.QUICK_BANNER if a.quick else "",
        "",
        "## The question",
        "",
        "Davis & Kendall evolved an Awari player with an evolution strategy, every",
        "member playing every other, searching 7 plies with an evaluation of the",
        "pits open to a capture of 2 or 3 seeds and both scores; it beat the",
        "commercial program Awale 5-0 (Initiation), 5-0 (Beginner), 3-2 (Amateur)",
        "and lost 0-5 (Master).  Their paper is not available to us; the Ayo paper",
        "(Daoud et al., CEC 2004) recounts it, and its Table 5 gives the same",
        "player as 100:0:0, 100:0:0, 60:20:20, 0:0:100 (W:D:L %).  How strong is",
        "a player evolved by that protocol, as far as it is known, measured on",
        "nickar's awari reference ladder and against material and greedy?  Its",
        "champions are also the depth-7 opponents of the ayo2004 study's",
        "head-to-head test.",
        "",
        "## Protocol",
        "",
        "| | Davis & Kendall (as recounted) | ours | why they differ |",
        "|---|---|---|---|",
        "| rules | Awari | `awari` (the rules the Ayo paper states; docs/rules.md) | their exact rules are not recounted |",
        "| evaluation | pits vulnerable to a capture of 2 or 3 seeds in the next move, both scores | `dk2002`: 6 weighted terms (the Ayo paper's a1-a4 and both stores) | - |",
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
        f"95% interval from the likelihood's curvature, {na.rate_fit_phrase(ratings)};",
        "ratings.csv):",
        "",
        "| seed | champion's Elo | 95% interval |",
        "|---:|---:|---|",
    ]
    for r in ratings.itertuples():
        lines.append(f"| {r.seed} | {f1(r.elo)} | [{f1(r.elo_lo)}, {f1(r.elo_hi)}]"
                     + (" (virtual draws added)" if r.prior else "") + " |")
    lines += [
        f"| mean of {elo_n} | {f1(elo_mean)} | [{f1(elo_lo)}, {f1(elo_hi)}] over seeds (t) |",
        "",
        "For scale, the awari ladder (results/ladder/awari.md): greedy 452,",
        "material-d3 947, material-d5 1241, material-d7 1515, positional-d5 1744,",
        "positional-d7 1934 (random = 0).",
        "",
        f"Against `material` at depth {a.depth} and `greedy` ({a.games} games a match,",
        "colour-swapped pairs from random 2-ply openings, seed 1; score from the",
        "champion's view with its 95% interval from the per-game variance;",
        "matches.csv):",
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
                     f"{f3(o['mean_score'])} [{f3(o['lo'])}, {f3(o['hi'])}] over seeds (t) |")
    lad = na.read_ladder(a.ladder)
    rung = f"material-d{a.depth}"
    if rung in lad:
        above = int((ratings["elo_lo"] > lad[rung]).sum())
        below = int((ratings["elo_hi"] < lad[rung]).sum())
        lines += [
            "",
            f"Reading: {above} of {a.seeds} champions rate above `{rung}` ({lad[rung]:.0f}), the",
            f"same search evaluating the store difference alone, by more than their 95%",
            f"interval;",
            f"{below} below it; the rest overlap it.  The ladder's strongest players,",
            "the positional searchers, evaluate more than these six terms.",
        ]
    lines += [
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
        "| Awale level | Davis & Kendall (as recounted) | here |",
        "|---|---|---|",
        "| Initiation | 5-0 (100:0:0) | no Awale; see the ladder ratings |",
        "| Beginner | 5-0 (100:0:0) | no Awale |",
        "| Amateur | 3-2 (60:20:20 in the Ayo paper's Table 5) | no Awale |",
        "| Master | 0-5 (0:0:100) | no Awale |",
        "",
        "What can be compared: not the scores against Awale's levels, whose",
        "strength on our scale is unknown.  What can: the champions' ratings on",
        "a fixed ladder of known searchers (above), and the claim the Ayo paper",
        "draws from this player, tested head to head in results/ayo2004/.",
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
        "",
        "It needs the awari ladder, results/ladder/awari.tsv",
        "(`experiments/ladder/run.sh awari`).  Run files (run-*.h5) are not",
        "committed; the runs are deterministic, so the same binary and settings",
        "give them back bit for bit.",
        "",
    ]
    sl.write_lines(os.path.join(a.out, "README.md"), lines)


def main(argv):
    """report.py OUT SEEDS GENS GAMES RATE_GAMES QUICK SECONDS DEPTH LADDER:
    every output."""
    out = argv[1]
    seeds, gens, games, rate_games = (int(x) for x in argv[2:6])
    quick, seconds, depth, ladder = argv[6] == "1", int(argv[7]), argv[8], argv[9]
    a = sl.settings(out=out, seeds=seeds, gens=gens, games=games, rate_games=rate_games,
                    quick=quick, seconds=seconds, depth=depth, ladder=ladder)
    matches, ratings, runs, times = load(a)
    (bench, champions, cpu, elo_hi, elo_lo, elo_mean, elo_n, evo, opp_summary,
     wall) = summaries(a, matches, ratings, runs, times)
    write_results(a, champions, cpu, elo_hi, elo_lo, elo_mean, elo_n, evo, matches, opp_summary,
                  ratings, times, wall)
    plot_benchmark(a, bench)
    plot_champion_weights(a, runs)
    readme(a, cpu, elo_hi, elo_lo, elo_mean, elo_n, evo, matches, opp_summary, ratings, wall)


if __name__ == "__main__":
    main(sys.argv)
