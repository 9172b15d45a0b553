#!/usr/bin/python3
"""report.py OUT SEEDS GAMES QUICK DEPTH -- writes the caribbean study's
tables (champions.csv, ratings.csv, own.csv, cross.csv, weights.csv,
weights_diff.csv, games_by_variant.csv, compute.csv, results.json), plots (fitness.png, weights.png, cross.png) and
README.md into OUT from the run files, ratings.jsonl and compute.tsv that
run.sh left there.  Outside a quick run, README.md ends with
experiments/caribbean/discussion.md (written from the committed numbers)."""
import glob
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import studylib as sl  # noqa: E402  (the studies' shared library)

import pandas as pd  # noqa: E402

na = sl.na
plt = sl.pyplot()
fmt, ival = sl.num, sl.interval

WARRI = ["antigua", "speightstown", "bridgetown", "abapa"]
VARIANTS = WARRI + ["adjikui"]
PAIRS = [(a, b) for a in ("speightstown", "bridgetown") for b in ("antigua", "abapa")]


# discussion.md was written from the numbers of these settings (README.md
# includes it only for them).
DISCUSSED = {"seeds": 5, "games": 100, "depth": 3, "generations": 30}


def path(out, name):
    return os.path.join(out, name)


def elos(ratings, x, y):
    """The Elo of the champions trained under x rated under y, by seed."""
    t = ratings[(ratings.trained == x) & (ratings.played == y)]
    return list(t.sort_values("seed")["elo"])


def load_champions(cfg):
    """Every run file of OUT (exit 1 for a missing one) and its champion;
    writes champions.csv."""
    runs = {}
    for p in sorted(glob.glob(path(cfg.out, "run-*-s*.h5"))):
        v, s = os.path.basename(p)[4:-3].rsplit("-s", 1)
        runs[(v, int(s))] = na.read(p)
    missing = [(v, s) for v in VARIANTS for s in range(1, cfg.seeds + 1) if (v, s) not in runs]
    if missing:
        sys.exit(f"report.py: missing run files: {missing}")

    champ_rows, weights = [], {}
    for (v, s), r in sorted(runs.items(), key=lambda kv: (VARIANTS.index(kv[0][0]), kv[0][1])):
        c = na.run_champion(r)
        w = c["weights"]
        nw = na.normalise_weights(w)
        weights.setdefault(v, []).append(w)
        row = {"variant": v, "seed": s, "generations": int(len(r["stats"])),
               "generation": c["generation"], "fitness": c["fitness"]}
        row.update({f"w_{k}": float(x) for k, x in w.items()})
        row.update({f"n_{k}": float(x) for k, x in nw.items()})
        champ_rows.append(row)
    champions = pd.DataFrame(champ_rows)
    champions.to_csv(path(cfg.out, "champions.csv"), index=False)
    generations = int(champions["generations"].max())
    return champions, generations, runs, weights


def weight_tables(cfg, weights):
    """Normalised weights by variant (weights.csv) and the Welch differences
    of Speightstown and Bridgetown from Antigua and Abapa
    (weights_diff.csv)."""
    # Normalised weights by variant: mean, sd, min, max over seeds.
    wrows = []
    for v in VARIANTS:
        ws = pd.DataFrame([na.normalise_weights(w) for w in weights[v]])
        for f in ws.columns:
            m, lo, hi, n = na.mean_interval(ws[f])
            wrows.append({"variant": v, "feature": f, "seeds": n, "mean": m, "lo": lo,
                          "hi": hi, "sd": float(ws[f].std(ddof=1)) if n > 1 else math.nan,
                          "min": float(ws[f].min()), "max": float(ws[f].max()),
                          "positive": int((ws[f] > 0).sum())})
    wtab = pd.DataFrame(wrows)
    wtab.to_csv(path(cfg.out, "weights.csv"), index=False)

    # Speightstown and Bridgetown against the two Warri rule sets whose end
    # rules give each player his own row (antigua, abapa): the difference of
    # the mean normalised weight, Welch 95%.
    drows = []
    for a, b in PAIRS:
        na_ = pd.DataFrame([na.normalise_weights(w) for w in weights[a]])
        nb_ = pd.DataFrame([na.normalise_weights(w) for w in weights[b]])
        for f in na_.columns:
            d, lo, hi = na.welch_interval(na_[f], nb_[f])
            drows.append({"variant": a, "minus": b, "feature": f, "diff": d, "lo": lo, "hi": hi})
    wdiff = pd.DataFrame(drows)
    wdiff.to_csv(path(cfg.out, "weights_diff.csv"), index=False)
    return wdiff, wtab


def rating_tables(cfg):
    """The ratings (ratings.csv), every champion on its own ladder (own.csv)
    and on every Warri ladder (cross.csv)."""
    with open(path(cfg.out, "ratings.jsonl")) as f:
        ratings = na.rating_table([line for line in f if line.strip()])
    fit_phrase = na.rate_fit_phrase(ratings)
    ratings = ratings[["trained", "played", "seed", "elo", "elo_lo", "elo_hi", "se",
                       "games", "prior", "player"]]
    ratings.to_csv(path(cfg.out, "ratings.csv"), index=False)


    own_rows = []
    for v in VARIANTS:
        e = elos(ratings, v, v)
        m, lo, hi, n = na.mean_interval(e)
        own_rows.append({"variant": v, "seeds": n, "mean": m, "lo": lo, "hi": hi,
                         "min": min(e), "max": max(e)})
    own = pd.DataFrame(own_rows)
    own.to_csv(path(cfg.out, "own.csv"), index=False)

    cross_rows = []
    for x in WARRI:
        for y in WARRI:
            e = elos(ratings, x, y)
            m, lo, hi, n = na.mean_interval(e)
            d, dlo, dhi = na.welch_interval(e, elos(ratings, y, y)) if x != y else (0.0, math.nan, math.nan)
            cross_rows.append({"trained": x, "played": y, "seeds": n, "mean": m, "lo": lo,
                               "hi": hi, "minus_home": d, "minus_home_lo": dlo,
                               "minus_home_hi": dhi})
    cross = pd.DataFrame(cross_rows)
    cross.to_csv(path(cfg.out, "cross.csv"), index=False)
    return cross, fit_phrase, own, ratings


def games_by_variant(cfg):
    """Every rating game's result by the rules it was played under
    (games_by_variant.csv)."""
    # Every rating game, by the rules it was played under: wins, draws, losses
    # of the rated champions (all rungs, all seeds, own and cross ratings).
    grows = []
    with open(path(cfg.out, "ratings.jsonl")) as f:
        objs = [json.loads(line) for line in f if line.strip()]
    for y in VARIANTS:
        wdl = [0, 0, 0]
        for o in objs:
            if o["played"] == y:
                for op in o["rate"]["opponents"]:
                    wdl[0] += op["wins"]
                    wdl[1] += op["draws"]
                    wdl[2] += op["losses"]
        n = sum(wdl)
        p = wdl[1] / n if n else math.nan
        h = 1.959963984540054 * math.sqrt(p * (1 - p) / n) if n else math.nan
        grows.append({"played": y, "games": n, "wins": wdl[0], "draws": wdl[1],
                      "losses": wdl[2], "draw_rate": p, "draw_lo": max(0.0, p - h),
                      "draw_hi": min(1.0, p + h)})
    gtab = pd.DataFrame(grows)
    gtab.to_csv(path(cfg.out, "games_by_variant.csv"), index=False)
    return gtab


def write_results(cfg, champions, cross, generations, gtab, own, ratings, wdiff, wtab):
    """The compute phases (compute.csv) and results.json."""
    comp = pd.read_csv(path(cfg.out, "compute.tsv"), sep="\t", header=None,
                       names=["phase", "wall_s_total", "cpu_s_total"])
    comp["wall_s"] = comp["wall_s_total"].diff().fillna(comp["wall_s_total"])
    comp["cpu_s"] = comp["cpu_s_total"].diff().fillna(comp["cpu_s_total"])
    comp.to_csv(path(cfg.out, "compute.csv"), index=False)
    wall, cpu = int(comp["wall_s_total"].iloc[-1]), float(comp["cpu_s_total"].iloc[-1])

    sl.write_json(path(cfg.out, "results.json"), {
        "quick": cfg.quick, "seeds": cfg.seeds, "games_per_rung": cfg.games, "depth": cfg.depth,
        "generations": generations,
        "champions": sl.records(champions),
        "weights": sl.records(wtab),
        "ratings": sl.records(ratings),
        "own": sl.records(own),
        "cross": sl.records(cross),
        "weights_diff": sl.records(wdiff),
        "games_by_variant": sl.records(gtab),
        "compute": sl.records(comp)
    })
    return comp, cpu, wall


def plot_fitness(cfg, runs):
    """fitness.png: best fitness by generation, every seed, by variant."""

    st = na.stats_table([runs[(v, s)] for v in VARIANTS for s in range(1, cfg.seeds + 1)],
                        labels=[f"{v}-s{s}" for v in VARIANTS for s in range(1, cfg.seeds + 1)])
    fig, axes = plt.subplots(1, len(VARIANTS), figsize=(3.2 * len(VARIANTS), 3.4), sharey=True)
    for ax, v in zip(axes, VARIANTS):
        for s in range(1, cfg.seeds + 1):
            t = st[st.run == f"{v}-s{s}"]
            ax.plot(t["generation"] + 1, t["best"], linewidth=1, label=f"seed {s}")
        ax.set_title(v + (" (matches)" if v == "adjikui" else ""))
        ax.set_xlabel("generation")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("best fitness (2/1/0 points a game; adjikui: a match)")
    axes[-1].legend(fontsize="x-small")
    sl.save(fig, path(cfg.out, "fitness.png"), dpi=90)


def plot_weights(cfg, weights):
    """weights.png: the normalised weights by variant."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.2), gridspec_kw={"width_ratios": [9, 7]})
    na.plot_weight_spread({v: weights[v] for v in WARRI}, a1)
    a1.set_title("positional weights of the champions (Warri family)")
    na.plot_weight_spread({"adjikui": weights["adjikui"]}, a2)
    a2.set_title("adjikui weights of the champions (Adji Kui II)")
    sl.save(fig, path(cfg.out, "weights.png"), dpi=90)


def plot_cross(cfg, cross, own, ratings):
    """cross.png: own-ladder Elo by variant and the cross table."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.2), gridspec_kw={"width_ratios": [5, 6]})
    for j, v in enumerate(VARIANTS):
        e = elos(ratings, v, v)
        a1.plot([j] * len(e), e, "o", alpha=0.6)
        r = own[own.variant == v].iloc[0]
        a1.errorbar([j + 0.15], [r["mean"]], yerr=[[r["mean"] - r["lo"]], [r["hi"] - r["mean"]]]
                    if not math.isnan(r["lo"]) else None, fmt="s", color="black", capsize=4)
    a1.set_xticks(range(len(VARIANTS)))
    a1.set_xticklabels(VARIANTS, rotation=20)
    a1.set_ylabel("Elo on the variant's own ladder")
    a1.set_title("champions on their own ladder (dots: seeds; mean, 95% t)")
    a1.grid(alpha=0.3)
    mat = cross.pivot(index="trained", columns="played", values="minus_home").loc[WARRI, WARRI]
    im = a2.imshow(mat.to_numpy(), cmap="RdBu", vmin=-max(1, abs(mat.to_numpy()).max()),
                   vmax=max(1, abs(mat.to_numpy()).max()))
    for i, x in enumerate(WARRI):
        for j, y in enumerate(WARRI):
            r = cross[(cross.trained == x) & (cross.played == y)].iloc[0]
            dark = abs(r["minus_home"]) > 0.6 * max(1, abs(mat.to_numpy()).max())
            a2.text(j, i, f"{r['mean']:.0f}\n({r['minus_home']:+.0f})", ha="center",
                    va="center", fontsize=8, color="white" if dark else "black")
    a2.set_xticks(range(len(WARRI)))
    a2.set_xticklabels(WARRI, rotation=20)
    a2.set_yticks(range(len(WARRI)))
    a2.set_yticklabels(WARRI)
    a2.set_xlabel("played under (ladder of)")
    a2.set_ylabel("evolved under")
    a2.set_title("mean Elo (minus the home champions')")
    fig.colorbar(im, ax=a2, label="Elo minus home champions'")
    sl.save(fig, path(cfg.out, "cross.png"), dpi=90)


def readme_protocol(cfg, fit_phrase, generations, ratings):
    """README.md's question and protocol."""
    rungs = int(ratings["games"].iloc[0]) // cfg.games  # rate plays GAMES against each rung

    # ---- README -------------------------------------------------------------------
    lines = sl.readme_start("# caribbean: the Caribbean rule sets as a benchmark for evolved players",
                            cfg.quick)
    lines += [
        "## The question",
        "",
        "With one evolution budget spent on each of the five rule sets (Warri of",
        "Antigua, Barbados Warri in the Speightstown and Bridgetown traditions,",
        "Adji Kui II of Cuba in match play, and tournament Oware under Abapa",
        "rules), how strong are the evolved players against each variant's fixed",
        "reference ladder; does a player evolved under one Warri rule set keep",
        "its strength under another; and how do the evolved weights differ, in",
        "particular what the Speightstown and Bridgetown end rules change in",
        "good play?  The study stands in the line of Depradine's use of Barbados",
        "Warri as a benchmark for evolutionary computation; his paper is not",
        "available to us, so the protocol below is ours and nothing in it claims",
        "to follow his.",
        "",
        "## Protocol",
        "",
        "| | paper | ours | why |",
        "|---|---|---|---|",
        "| source | Depradine (Barbados Warri as an EC benchmark) | nickar's own protocol | the paper is not available to us: no setting below is taken from it |",
        f"| rules | - | `antigua`, `speightstown`, `bridgetown`, `adjikui`, `abapa` (docs/rules.md) | the five rule sets of the mission |",
        f"| player | - | alpha-beta, depth {cfg.depth}, linear evaluation: `positional` features (9 weights) in the Warri family, `adjikui` features (8 weights) in Adji Kui II | `positional` needs Warri sowing and `adjikui` relay sowing (nickar refuses the other pairings) |",
        f"| GA | - | configs/caribbean.ini: the GA of configs/quickstart.ini (population 20, weights in [-1, 1], 2 elites, tournament selection of 3, blx-alpha 0.5 crossover at 0.9, gaussian mutation 0.1 at rate 0.2) | one budget for all variants |",
        f"| generations | - | {generations} (quickstart: 40) | sized to the session's CPU budget and deadline on a shared machine |",
        "| fitness | - | round robin every generation, one meeting per pair, from random 2-ply openings; Warri family: a meeting is two games (one per colour), 2/1/0 points a game; Adji Kui II: two whole matches (at most 11 games each, R-K10), 2/1/0 points a match; fitness is the mean per game (match) | match play is how Adji Kui II is played (fitness.unit = auto) |",
        f"| seeds | - | {cfg.seeds} per variant (1..{cfg.seeds}), every run reported | |",
        "| champion | - | the best individual of the last generation (`RUN.h5@best`) | |",
        f"| yardstick | - | `nickar rate` on results/ladder/<V>.tsv: {cfg.games} games against each of the {rungs} ladder players (colour-swapped pairs, 2-ply openings, seed 1), {fit_phrase} | the reference ladders are fixed and open; in Adji Kui II `rate` plays single games, not matches |",
        "| intervals | - | per champion: rate's 95% interval; per variant: Student t over the seeds' ratings; differences: Welch t | one champion's rating has a game noise of about +-25 Elo (95%); the seeds' spread is larger |",
        "",
        "## Results",
        "",
        "### Champions on their own variant's ladder",
        "",
        "Elo on the variant's reference ladder (random = 0; the ladders are in",
        "results/ladder/, where e.g. `positional-d3` and `material-d3` are the",
        "hand-weighted searchers of the same depth).  Per seed with rate's 95%",
        "interval; the mean over seeds with its 95% t interval:",
        "",
        "| variant | " + " | ".join(f"seed {s}" for s in range(1, cfg.seeds + 1)) +
        " | mean [95%] |",
        "|---|" + "---|" * cfg.seeds + "---|",
    ]
    return lines


def readme_own(cfg, lines, own, ratings):
    """README.md's own-ladder results, with the reference players."""
    ref = {}
    for v in VARIANTS:
        cells = []
        for s in range(1, cfg.seeds + 1):
            r = ratings[(ratings.trained == v) & (ratings.played == v) & (ratings.seed == s)].iloc[0]
            cells.append(ival(r["elo"], r["elo_lo"], r["elo_hi"]))
        o = own[own.variant == v].iloc[0]
        lines.append(f"| {v} | " + " | ".join(cells) + f" | **{ival(o['mean'], o['lo'], o['hi'])}** |")
        lad = na.read_ladder(os.path.join(os.environ.get("LADDERS", "results/ladder"), f"{v}.tsv"))
        fam = "adjikui" if v == "adjikui" else "positional"
        ref[v] = (lad.get(f"{fam}-d{cfg.depth}"), lad.get(f"material-d{cfg.depth}"), fam)
    lines += [
        "",
        f"For scale, the ladder's own depth-{cfg.depth} players (hand-set weights):",
        "",
        "| variant | hand-weighted set at the same depth | Elo | `material` at the same depth | Elo |",
        "|---|---|---:|---|---:|",
    ]
    for v in VARIANTS:
        p, m, fam = ref[v]
        lines.append(f"| {v} | `{fam}-d{cfg.depth}` | {fmt(p)} | `material-d{cfg.depth}` | {fmt(m)} |")
    return lines


def readme_cross(cross, gtab, lines):
    """README.md's cross-variant table and the games by variant."""
    lines += [
        "",
        "![fitness](fitness.png)",
        "",
        "Best fitness per generation (points a game; 2 would win every game).  It is",
        "relative to the population of the moment, so it does not show absolute",
        "progress; the ladder ratings do.",
        "",
        "### Cross-variant table (Warri family)",
        "",
        "Each cell: the mean Elo of the champions evolved under the row's rules",
        "when they play under the column's rules, rated on the column's ladder",
        "(mean over the seeds [95% t interval]); below it, the difference to the",
        "column's own champions (Welch 95% interval).  Adji Kui II has no cross",
        "pairs: its `adjikui` features read relay sowing and bought pits, which the",
        "Warri family does not have, and the `positional` features assume Warri",
        "sowing, so nickar refuses both pairings (`nk_features_check`).",
        "",
        "| evolved under \\ played under | " + " | ".join(WARRI) + " |",
        "|---|" + "---|" * len(WARRI),
    ]
    for x in WARRI:
        cells = []
        for y in WARRI:
            r = cross[(cross.trained == x) & (cross.played == y)].iloc[0]
            c = ival(r["mean"], r["lo"], r["hi"])
            if x == y:
                c = f"**{c}** (home)"
            else:
                c += f"<br>{r['minus_home']:+.0f} [{fmt(r['minus_home_lo'])}, {fmt(r['minus_home_hi'])}]"
            cells.append(c)
        lines.append(f"| **{x}** | " + " | ".join(cells) + " |")
    lines += [
        "",
        "![ratings](cross.png)",
        "",
        "Every game of these ratings (champions against all ladder rungs, own and",
        "cross ratings together) by the rules it was played under; the draw rate",
        "with its normal 95% interval (games are not independent draws from one",
        "population of games, so read it as a description):",
        "",
        "| played under | games | W-D-L of the champions | draw rate [95%] |",
        "|---|---:|---|---|",
    ]
    for r in gtab.itertuples():
        lines.append(f"| {r.played} | {r.games} | {r.wins}-{r.draws}-{r.losses} | "
                     f"{ival(r.draw_rate, r.draw_lo, r.draw_hi, 3)} |")
    return lines


def readme_weights(cfg, lines, wdiff, wtab):
    """README.md's evolved weights by variant."""
    lines += [
        "",
        "### Evolved weights by variant",
        "",
        "Each champion's weights divided by its largest |weight| (an alpha-beta",
        "search over a linear evaluation chooses the same moves for w and c*w,",
        "c > 0: win and loss scores are 10^6 a seed, far beyond any evaluation",
        "here).  Mean over the seeds [95% t interval] and, after the bar, how many",
        f"of the {cfg.seeds} champions have the weight positive:",
        "",
    ]
    for group, vs in (("positional", WARRI), ("adjikui", ["adjikui"])):
        feats = list(wtab[wtab.variant == vs[0]]["feature"])
        lines += ["| feature | " + " | ".join(vs) + " |", "|---|" + "---|" * len(vs)]
        for f in feats:
            cells = []
            for v in vs:
                r = wtab[(wtab.variant == v) & (wtab.feature == f)].iloc[0]
                cells.append(f"{ival(r['mean'], r['lo'], r['hi'], 2)} \\| {r['positive']}/{r['seeds']}")
            lines.append(f"| `{f}` | " + " | ".join(cells) + " |")
        lines.append("")
    lines += [
        "Speightstown and Bridgetown against the two rule sets in which each player",
        "takes the seeds of his own row at the end (antigua, abapa): the difference",
        "of the mean normalised weight [Welch 95%]:",
        "",
        "| feature | " + " | ".join(f"{a} - {b}" for a, b in PAIRS) + " |",
        "|---|" + "---|" * len(PAIRS),
    ]
    for f in wdiff[(wdiff.variant == PAIRS[0][0]) & (wdiff.minus == PAIRS[0][1])]["feature"]:
        cells = []
        for a, b in PAIRS:
            r = wdiff[(wdiff.variant == a) & (wdiff.minus == b) & (wdiff.feature == f)].iloc[0]
            c = f"{r['diff']:+.2f} [{fmt(r['lo'], 2)}, {fmt(r['hi'], 2)}]"
            if not math.isnan(r["lo"]) and (r["lo"] > 0 or r["hi"] < 0):
                c = f"**{c}**"
            cells.append(c)
        lines.append(f"| `{f}` | " + " | ".join(cells) + " |")
    lines += [
        "",
        "(Bold: the interval excludes 0.  With nine features and four comparisons",
        "about two such intervals are expected by chance alone at 95%.)",
        "",
        "The features are defined in src/search/features.h (docs/cli.md lists the",
        "sets); every term is signed so that a positive weight means \"this helps",
        "as the name says\" (an `opp_` term counts against the opponent).",
        "",
        "![weights](weights.png)",
        "",
        "Dots are the seeds' champions, the thick bar their range, the line the",
        "mean over seeds.",
        "",
    ]
    return lines


def readme_end(cfg, comp, cpu, generations, lines, wall):
    """README.md's discussion (for the discussed settings), compute and rerun;
    writes README.md."""
    # discussion.md was written from the numbers of these settings; with others
    # it would not fit the tables, so it is left out.
    if not cfg.quick and (cfg.seeds, cfg.games, cfg.depth, generations) == tuple(DISCUSSED.values()):
        with open(os.path.join(HERE, "discussion.md")) as f:
            lines += [f.read().rstrip("\n"), ""]
    elif not cfg.quick:
        lines += ["## Discussion", "",
                  "Left out: experiments/caribbean/discussion.md was written from the run",
                  "with " + ", ".join(f"{k} {v}" for k, v in DISCUSSED.items()) +
                  ", and these settings differ.", ""]
    lines += [
        "## Compute",
        "",
        f"Measured by run.sh (wall clock with `date`, CPU as the user + system time",
        f"of its child processes from bash's `times`, every thread counted): **{wall} s",
        f"wall, {cpu:.0f} CPU seconds** in all, on a shared 2-core virtual machine with",
        "other engineers' builds and experiments running at the same time (run.sh",
        "under `nice -n 10`, THREADS=2), so the wall time is far longer than",
        "CPU / 2.  The report (report.py, seconds) is not counted.  By phase:",
        "",
        "| phase | wall s | CPU s |",
        "|---|---:|---:|",
    ]
    for r in comp.itertuples():
        lines.append(f"| {r.phase} | {r.wall_s:.0f} | {r.cpu_s:.1f} |")
    lines += [
        "",
        "Every number in the tables is in the CSV files beside this README",
        "(champions.csv: each champion's weights, raw `w_` and normalised `n_`, and",
        "fitness; ratings.csv: every `nickar rate`; own.csv, cross.csv, weights.csv:",
        "the summaries; weights_diff.csv: the differences; games_by_variant.csv:",
        "the draw rates; compute.csv) and in",
        "results.json.  The run files",
        "(run-<variant>-s<seed>.h5) are not committed; run.sh remakes them bit for",
        "bit.",
        "",
        "## Rerun",
        "",
        "    cmake --preset release && cmake --build build -j2",
        "    THREADS=2 nice -n 10 experiments/caribbean/run.sh   # the study (writes results/caribbean/)",
        "    experiments/caribbean/run.sh --quick                 # seconds: checks the script",
        "",
        "SEEDS, GAMES (a rung), GENERATIONS and OUT are environment variables",
        "(`run.sh --help`); the same settings give the same numbers on any machine",
        "and with any number of threads.",
        "",
    ]
    sl.write_lines(path(cfg.out, "README.md"), lines)
    print(f"report.py: wrote {path(cfg.out, 'README.md')}")


def main(argv):
    """report.py OUT SEEDS GAMES QUICK DEPTH: every output."""
    out, seeds, games, quick, depth = (argv[1], int(argv[2]), int(argv[3]),
                                       argv[4] == "1", int(argv[5]))
    cfg = sl.settings(out=out, seeds=seeds, games=games, quick=quick, depth=depth)
    champions, generations, runs, weights = load_champions(cfg)
    wdiff, wtab = weight_tables(cfg, weights)
    cross, fit_phrase, own, ratings = rating_tables(cfg)
    gtab = games_by_variant(cfg)
    (comp, cpu,
     wall) = write_results(cfg, champions, cross, generations, gtab, own, ratings, wdiff, wtab)
    plot_fitness(cfg, runs)
    plot_weights(cfg, weights)
    plot_cross(cfg, cross, own, ratings)
    lines = readme_protocol(cfg, fit_phrase, generations, ratings)
    lines = readme_own(cfg, lines, own, ratings)
    lines = readme_cross(cross, gtab, lines)
    lines = readme_weights(cfg, lines, wdiff, wtab)
    readme_end(cfg, comp, cpu, generations, lines, wall)


if __name__ == "__main__":
    main(sys.argv)
