#!/usr/bin/python3
"""report.py OUT SEEDS GAMES QUICK DEPTH -- the caribbean study's report, in
two steps:

1. from the run files that run.sh left in OUT: champions.csv (every
   champion's weights and fitness), runs.json (the settings above) and
   fitness.png;
2. from the committed data alone (runs.json, champions.csv, ratings.jsonl,
   compute.tsv, the ladders of results/ladder/): every rating refitted
   jointly with its ladder's games, the tables (ratings.csv, own.csv,
   cross.csv, weights.csv, weights_diff.csv, games_by_variant.csv,
   compute.csv, results.json), weights.png, cross.png and README.md, whose
   discussion is written from the same numbers.

    report.py --committed SRC [INTO]

runs step 2 alone, from SRC into INTO (default SRC; without plots when
INTO differs); scripts/check-results.py uses it.  Ladder paths are
relative to the repository's root."""
import glob
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import studylib as sl  # noqa: E402  (the studies' shared library)

import pandas as pd  # noqa: E402

na = sl.na
fmt, ival = sl.num, sl.interval

WARRI = ["antigua", "speightstown", "bridgetown", "abapa"]
VARIANTS = WARRI + ["adjikui"]
PAIRS = [(a, b) for a in ("speightstown", "bridgetown") for b in ("antigua", "abapa")]


def path(out, name):
    return os.path.join(out, name)


def at_root(p):
    """A path relative to the repository's root as a path."""
    return p if os.path.isabs(p) else os.path.join(ROOT, p)


def ladder_path(v):
    """The reference ladder of variant v."""
    return os.path.join(os.environ.get("LADDERS", os.path.join(ROOT, "results", "ladder")), f"{v}.tsv")


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
    sl.write_json(path(cfg.out, "runs.json"), {"settings": {
        "seeds": cfg.seeds, "games": cfg.games, "quick": cfg.quick, "depth": cfg.depth}}, end="\n")
    return runs


def committed_champions(cfg):
    """champions.csv of SRC: the table, the generations and each variant's
    champions' weights (pandas Series by feature, in the table's order)."""
    champions = pd.read_csv(path(cfg.src, "champions.csv"))
    wcols = [c for c in champions.columns if c.startswith("w_")]
    weights = {}
    for r in champions.itertuples(index=False):
        row = r._asdict()
        w = pd.Series({c[2:]: row[c] for c in wcols if not pd.isna(row[c])})
        weights.setdefault(row["variant"], []).append(w)
    return champions, int(champions["generations"].max()), weights


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
    objs = na.read_jsonl(path(cfg.src, "ratings.jsonl"))
    ratings = na.rating_table(objs)
    fit_phrase = "each rating refitted jointly with the ladder's own games (its @wdl lines)"
    # the ratings `nickar rate` printed held the ladder as exact; each is
    # refitted jointly with its ladder's games (issue 24, item 12)
    ratings = ratings.rename(columns={"elo": "fixed_elo", "elo_lo": "fixed_lo", "elo_hi": "fixed_hi",
                                      "se": "fixed_se"})
    cols = {k: [] for k in ("elo", "elo_lo", "elo_hi", "se", "prior", "minus_hand")}
    for o in objs:
        fit = sl.rate_fit(at_root(o["rate"]["ladder"]), o["rate"]["opponents"])
        e, lo, hi = fit.interval("@rated")
        fam = "adjikui" if o["played"] == "adjikui" else "positional"
        rung = f"{fam}-d{cfg.depth}"
        d = fit.diff("@rated", rung) if rung in fit.index else (math.nan,) * 4
        for k, x in zip(cols, (e, lo, hi, fit.se_of("@rated"), fit.prior, d[0])):
            cols[k].append(x)
    for k, x in cols.items():
        ratings[k] = x
    ratings = ratings[["trained", "played", "seed", "elo", "elo_lo", "elo_hi", "se",
                       "minus_hand", "fixed_elo", "fixed_lo", "fixed_hi", "games", "prior", "player"]]
    ratings.to_csv(path(cfg.out, "ratings.csv"), index=False)


    own_rows = []
    for v in VARIANTS:
        e = elos(ratings, v, v)
        m, lo, hi, n = na.mean_interval(e)
        t = ratings[(ratings.trained == v) & (ratings.played == v)]
        dm, dlo, dhi, _ = na.mean_interval(list(t["minus_hand"]))
        own_rows.append({"variant": v, "seeds": n, "mean": m, "lo": lo, "hi": hi,
                         "min": min(e), "max": max(e), "minus_hand": dm, "minus_hand_lo": dlo,
                         "minus_hand_hi": dhi})
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
    objs = na.read_jsonl(path(cfg.src, "ratings.jsonl"))
    for y in VARIANTS:
        wdl = [0, 0, 0]
        for o in objs:
            if o["played"] == y:
                for op in o["rate"]["opponents"]:
                    wdl[0] += op["wins"]
                    wdl[1] += op["draws"]
                    wdl[2] += op["losses"]
        n = sum(wdl)
        p, lo, hi = sl.proportion(wdl[1], n)
        grows.append({"played": y, "games": n, "wins": wdl[0], "draws": wdl[1],
                      "losses": wdl[2], "draw_rate": p, "draw_lo": lo, "draw_hi": hi})
    gtab = pd.DataFrame(grows)
    gtab.to_csv(path(cfg.out, "games_by_variant.csv"), index=False)
    return gtab


def write_results(cfg, champions, cross, generations, gtab, own, ratings, wdiff, wtab, tr):
    """The compute phases (compute.csv) and results.json."""
    comp = pd.read_csv(path(cfg.src, "compute.tsv"), sep="\t", header=None,
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
        "transfer": tr,
        "compute": sl.records(comp)
    })
    return comp, cpu, wall


def plot_fitness(cfg, runs):
    """fitness.png: best fitness by generation, every seed, by variant."""

    plt = sl.pyplot()
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
    plt = sl.pyplot()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.2), gridspec_kw={"width_ratios": [9, 7]})
    na.plot_weight_spread({v: weights[v] for v in WARRI}, a1)
    a1.set_title("positional weights of the champions (Warri family)")
    na.plot_weight_spread({"adjikui": weights["adjikui"]}, a2)
    a2.set_title("adjikui weights of the champions (Adji Kui II)")
    sl.save(fig, path(cfg.out, "weights.png"), dpi=90)


def plot_cross(cfg, cross, own, ratings):
    """cross.png: own-ladder Elo by variant and the cross table."""
    plt = sl.pyplot()
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
        "| intervals | - | per champion: the joint fit's 95% interval (the ladder's uncertainty included; `nickar rate` held the ladder as exact, and ratings.csv keeps those numbers as fixed_*); per variant: Student t over the seeds' ratings; differences between variants: Welch t over the seeds; a champion minus the hand-weighted player: the joint fit's difference, t over the seeds; draw rates: Wilson | the ladder's error is shared by every rating on it, so it cancels from differences on one ladder |",
        "",
        "## Results",
        "",
        "### Champions on their own variant's ladder",
        "",
        "Elo on the variant's reference ladder (random = 0; the ladders are in",
        "results/ladder/, where e.g. `positional-d3` and `material-d3` are the",
        "hand-weighted searchers of the same depth).  Per seed with the joint",
        "fit's 95% interval; the mean over seeds with its 95% t interval; the last",
        "column: the champion minus the hand-weighted player of the same depth",
        f"(`positional-d{cfg.depth}`, `adjikui-d{cfg.depth}` in Adji Kui II), each seed's difference",
        "from its joint fit, mean over seeds [95% t]:",
        "",
        "| variant | " + " | ".join(f"seed {s}" for s in range(1, cfg.seeds + 1)) +
        " | mean [95%] | minus hand-weighted [95%] |",
        "|---|" + "---|" * cfg.seeds + "---|---|",
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
        lines.append(f"| {v} | " + " | ".join(cells) + f" | **{ival(o['mean'], o['lo'], o['hi'])}** | "
                     f"{o['minus_hand']:+.0f} [{o['minus_hand_lo']:+.0f}, {o['minus_hand_hi']:+.0f}] |")
        lad = na.read_ladder(ladder_path(v))
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
    eg, eg_first = sl.endgame_grades(cfg.src)
    if eg_first:
        lines += ["", sl.endgame_note(eg_first), "",
                  "| variant | " + " | ".join(f"seed {s}" for s in range(1, cfg.seeds + 1))
                  + " | endgame: optimal, mean [95% t] |",
                  "|---|" + "---|" * cfg.seeds + "---|"]
        for v in VARIANTS:
            g = [eg.get(f"{v} s{s}") for s in range(1, cfg.seeds + 1)]
            lines.append(f"| {v} | " + " | ".join(sl.endgame_cell(x) for x in g)
                         + f" | {sl.endgame_mean(g)} |")
    return lines


def transfer(cfg, ratings, cross):
    """What the cross table can exclude (issue 24, item 8): the cells'
    Welch intervals and the mean transfer difference over all pairs of rule
    sets, t over the seeds (each seed's transferred champions against the
    same seed's home champions): a dict."""
    cells = cross[cross.trained != cross.played]
    per_seed = []
    for s in range(1, cfg.seeds + 1):
        d = [ratings[(ratings.trained == x) & (ratings.played == y) & (ratings.seed == s)]["elo"].iloc[0]
             - ratings[(ratings.trained == y) & (ratings.played == y) & (ratings.seed == s)]["elo"].iloc[0]
             for x in WARRI for y in WARRI if x != y]
        per_seed.append(sum(d) / len(d))
    m, lo, hi, n = na.mean_interval(per_seed)
    weakest = cells.loc[cells["minus_home_lo"].idxmin()]
    strongest = cells.loc[cells["minus_home_lo"].idxmax()]
    half = (cells["minus_home_hi"] - cells["minus_home_lo"]) / 2
    return {"cells": len(cells), "max_abs": float(cells["minus_home"].abs().max()),
            "exclude_zero": int(((cells["minus_home_lo"] > 0) | (cells["minus_home_hi"] < 0)).sum()),
            "half_min": float(half.min()), "half_max": float(half.max()),
            "weakest": (weakest["trained"], weakest["played"], float(weakest["minus_home_lo"])),
            "strongest": (strongest["trained"], strongest["played"], float(strongest["minus_home_lo"])),
            "mean": m, "lo": lo, "hi": hi, "seeds": n, "per_seed": per_seed}


def transfer_lines(tr):
    """The README's paragraph on what the cross table can exclude."""
    w, st = tr["weakest"], tr["strongest"]
    return [
        "",
        f"What the data can exclude.  {tr['exclude_zero']} of the {tr['cells']} cells' intervals",
        f"exclude 0; their half-widths run from {tr['half_min']:.0f} to {tr['half_max']:.0f} Elo.",
        "A cell excludes a transfer loss larger than minus its interval's lower",
        f"end: from {-st[2]:.0f} Elo ({st[0]} champions under {st[1]} rules) to",
        f"{-w[2]:.0f} Elo ({w[0]} under {w[1]}).  Averaged over the {tr['cells']} pairs of",
        f"rule sets, a champion playing under another Warri rule set rates",
        f"{tr['mean']:+.0f} [{tr['lo']:+.0f}, {tr['hi']:+.0f}] Elo against that rule set's own",
        f"champions (t over the {tr['seeds']} seeds, each seed's transferred champions",
        "against the same seed's home champions): the data exclude an average",
        f"loss of more than {max(0.0, -tr['lo']):.0f} Elo and an average gain of more than "
        f"{max(0.0, tr['hi']):.0f},",
        "but not a loss of a few tens of Elo in any one pair of rule sets.",
    ]


def readme_cross(cross, gtab, lines, tr):
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
    lines += transfer_lines(tr)
    lines += [
        "",
        "![ratings](cross.png)",
        "",
        "Every game of these ratings (champions against all ladder rungs, own and",
        "cross ratings together) by the rules it was played under; the draw rate",
        "with Wilson's 95% interval (games are not independent draws from one",
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


def share(x, nd=1):
    """A proportion as a percentage."""
    return f"{100 * x:.{nd}f}%"


def disc_strength(cfg, generations, own, ratings):
    """The discussion's paragraph on strength."""
    lad = {v: na.read_ladder(ladder_path(v)) for v in VARIANTS}
    hand = {v: f"{'adjikui' if v == 'adjikui' else 'positional'}-d{cfg.depth}" for v in VARIANTS}
    o = {r.variant: r for r in own.itertuples()}
    at_or_above = [v for v in VARIANTS if o[v].minus_hand >= 0]
    clear = [v for v in VARIANTS if o[v].minus_hand_lo > 0]
    below = [v for v in VARIANTS if o[v].minus_hand_hi < 0]
    wide = max(VARIANTS, key=lambda v: o[v].hi - o[v].lo)
    home = ratings[(ratings.trained == wide) & (ratings.played == wide)]
    weak = home.loc[home["elo"].idxmin()]
    others = home[home.index != weak.name]["elo"]
    warri_hand = [lad[v][hand[v]] for v in WARRI if v != "speightstown"]
    return [
        f"**Strength.**  After {generations} generations of 20 players at depth {cfg.depth}, the mean",
        f"champion of {len(at_or_above)} of the {len(VARIANTS)} variants rates at or above the ladder's hand-weighted",
        f"depth-{cfg.depth} searcher of the same features: " + ", ".join(
            f"{v} {ival(o[v].mean, o[v].lo, o[v].hi)} against `{hand[v]}` at {lad[v][hand[v]]:.0f}"
            for v in VARIANTS) + ".",
        "The difference itself, each seed's from its joint fit, excludes 0 for "
        + (" and ".join(clear) if clear else "no variant") + " above"
        + (" and for " + " and ".join(below) + " below" if below else "") + " (the last column above).",
        f"The widest interval over seeds, {wide}'s, goes with its weakest seed (seed {weak.seed}, "
        f"{weak.elo:.0f}; the others {others.min():.0f} to {others.max():.0f}).",
        "Ratings on different ladders are not on one scale: each ladder is",
        "anchored at random = 0 under its own rules, and the hand-weighted",
        f"`{hand['speightstown']}` itself sits at {lad['speightstown'][hand['speightstown']]:.0f} on the Speightstown ladder",
        f"against {min(warri_hand):.0f} to {max(warri_hand):.0f} on the other Warri ladders.  The best fitness",
        "(relative to the population of the moment) is in fitness.png; whether",
        "more generations would still raise the ladder rating was not measured.",
        "",
    ]


def disc_cross(tr):
    """The discussion's paragraph on cross-variant play."""
    same = tr["exclude_zero"] == 0
    return [
        f"**Cross-variant play.**  No cell of the cross table differs from the home",
        f"champions' rating by more than {tr['max_abs']:.0f} Elo, and "
        + ("every Welch interval contains 0" if same else
           f"{tr['exclude_zero']} of the {tr['cells']} Welch intervals exclude 0")
        + f" (half-widths {tr['half_min']:.0f} to {tr['half_max']:.0f} Elo).",
        "Within what the data can resolve, a champion evolved under one Warri rule",
        "set plays under another as well as that rule set's own champions do:",
        f"the average transfer difference is {tr['mean']:+.0f} [{tr['lo']:+.0f}, {tr['hi']:+.0f}] Elo, so an",
        f"average loss above {max(0.0, -tr['lo']):.0f} Elo is excluded, while a loss of up to "
        f"{-tr['weakest'][2]:.0f} Elo in one",
        f"pair of rule sets ({tr['weakest'][0]} under {tr['weakest'][1]}) is not.  Any rule-specific",
        "knowledge the evolved `positional` weights hold at this depth and budget",
        f"is worth less than {max(0.0, -tr['lo']):.0f} Elo on average over the pairs of rule sets.",
        "The pairs with Adji Kui II cannot be played (the",
        "feature sets do not transfer between relay and Warri sowing), so this",
        "says nothing about Warri against Adji Kui II.",
        "",
    ]


def disc_weights(champions, wtab):
    """The discussion's paragraph on what the weights share."""
    w = champions[champions.variant.isin(WARRI)]
    n = len(w)
    top = int((w["n_store_diff"].abs() >= 1 - 1e-12).sum())
    rest = w[w["n_store_diff"].abs() < 1 - 1e-12]["n_store_diff"]
    means = {f: wtab[(wtab.feature == f) & wtab.variant.isin(WARRI)]["mean"] for f in
             ("store_diff", "board_diff")}
    bd_pos = int((w["n_board_diff"] > 0).sum())
    mob_pos = int((w["n_mobility"] > 0).sum())

    def aw(f):
        r = wtab[(wtab.variant == "adjikui") & (wtab.feature == f)].iloc[0]
        return ival(r["mean"], r["lo"], r["hi"], 2)
    return [
        f"**What the weights share.**  {top} of the {n} Warri champions put their",
        "largest weight on `store_diff`"
        + (f", and the other {len(rest)} at least {rest.min():.2f} of their largest" if len(rest) else "")
        + f" (mean normalised weight {means['store_diff'].min():.2f} to {means['store_diff'].max():.2f} by variant);",
        f"{bd_pos} of {n} put a positive weight on `board_diff` ({means['board_diff'].min():.2f} to "
        f"{means['board_diff'].max():.2f} by variant) and {mob_pos} of {n} a positive weight on",
        "`mobility`.  The remaining six weights vary more between the seeds of one",
        "variant than between variants (the weights table).  The Adji Kui II",
        f"champions weigh their own four-capture threats (`own_threats`, {aw('own_threats')})",
        f"and the store difference ({aw('store_diff')}), and the opponent's threats",
        f"{aw('opp_threats')}.",
        "",
    ]


def disc_ends(cfg, wtab, wdiff, gtab, objs):
    """The discussion's paragraphs on the Speightstown and Bridgetown end
    rules: the weights and the draws."""
    def wv(v, f):
        r = wtab[(wtab.variant == v) & (wtab.feature == f)].iloc[0]
        return ival(r["mean"], r["lo"], r["hi"], 2)

    def dv(a, b, f):
        r = wdiff[(wdiff.variant == a) & (wdiff.minus == b) & (wdiff.feature == f)].iloc[0]
        return r, f"{r['diff']:+.2f} [{fmt(r['lo'], 2)}, {fmt(r['hi'], 2)}]"
    r_sp, t_sp = dv("speightstown", "antigua", "board_diff")
    r_br, t_br = dv("bridgetown", "antigua", "board_diff")
    excl = wdiff[(wdiff["lo"] > 0) | (wdiff["hi"] < 0)]
    big = wdiff.loc[wdiff["diff"].abs().idxmax()]
    near = wdiff.loc[(wdiff[["lo", "hi"]].abs().min(axis=1)).idxmin()]
    neither = r_sp["lo"] <= 0 <= r_sp["hi"] and r_br["lo"] <= 0 <= r_br["hi"]
    g = {r.played: r for r in gtab.itertuples()}
    others = ("antigua", "bridgetown", "abapa")
    rung = f"positional-d{cfg.depth}"
    vs_rung = {}
    for v in WARRI:
        d = gm = 0
        for o in objs:
            if o["trained"] == v and o["played"] == v:
                for op in o["rate"]["opponents"]:
                    if op["name"] == rung:
                        d += op["draws"]
                        gm += op["games"]
        vs_rung[v] = (d, gm)
    rest = [vs_rung[v][0] for v in WARRI if v != "speightstown"]

    def desc(r):
        return f"{r['variant'].capitalize()} minus {r['minus'].capitalize()} on `{r['feature']}` ({r['diff']:+.2f} [{r['lo']:.2f}, {r['hi']:.2f}])"
    lines = [
        "**Speightstown and Bridgetown.**  Their rules differ from Antigua's and",
        "Abapa's in who receives the seeds left on the board when a game ends",
        "without a majority: in Speightstown the starved player (R-W7, R-W9), or",
        "nobody after a repetition (R-W10), and a win needs the majority (R-W12);",
        "in Bridgetown the two players split them (R-W11); in Antigua and Abapa",
        "each player takes his own row.  If these ends mattered to good play, the",
        "weight on seeds in one's own row (`board_diff`) would be expected to fall",
        "or change sign in Speightstown, where those seeds can go to the opponent,",
        "and to fall in Bridgetown, where they are shared.  "
        + ("It does neither: " if neither else "The data: ")
        + f"{wv('speightstown', 'board_diff')} in Speightstown and {wv('bridgetown', 'board_diff')} in Bridgetown against",
        f"{wv('antigua', 'board_diff')} in Antigua (differences {t_sp} and {t_br}).",
        f"{len(excl)} of the {len(wdiff)} weight differences in the table above exclude 0; the",
        f"largest is {desc(big)}, and the nearest to excluding 0 {desc(near)}.",
    ]
    if neither and len(excl) == 0:
        lines += [
            "Two explanations fit and this study does not separate them: the end",
            "rules may decide too few games between depth-3 players to shape the",
            "weights, or the weight on own-row seeds may be earned during the game",
            "(seeds to sow and to capture with) rather than at its end.  How often",
            "each end rule decides a game was not measured here.",
        ]
    lines += [
        "",
        "What the Speightstown rules do change, measurably, is the number of",
        f"draws: {share(g['speightstown'].draw_rate)} [{share(g['speightstown'].draw_lo)}, "
        f"{share(g['speightstown'].draw_hi)}] of the {g['speightstown'].games:,} rating games played under them",
        f"were drawn, against {share(min(g[v].draw_rate for v in others))} to "
        f"{share(max(g[v].draw_rate for v in others))} under Antigua, Bridgetown and Abapa",
        f"rules; against the hand-weighted depth-{cfg.depth} rung the Speightstown champions",
        f"drew {vs_rung['speightstown'][0]} of {vs_rung['speightstown'][1]} games, the others' champions "
        f"{min(rest)} to {max(rest)} on their own",
        "ladders.  The extra draws must come from the rules in which Speightstown",
        "differs (a larger total below the majority is a draw, R-W12; after a",
        "repetition the board counts for nobody, R-W10; a starved player takes the",
        "board, R-W7, R-W9); which of them does it was not measured.  Draws shrink",
        "rating differences, which may lower the Speightstown ratings.  Bridgetown's",
        f"split leaves the draw rate near Antigua's and Abapa's ({share(g['bridgetown'].draw_rate)} against "
        f"{share(g['antigua'].draw_rate)} and {share(g['abapa'].draw_rate)}).",
        "",
    ]
    return lines


def discussion(cfg, generations, own, ratings, cross, wtab, wdiff, gtab, champions, tr):
    """README.md's discussion, every number in it computed here from the
    tables above (nothing typed by hand)."""
    objs = na.read_jsonl(path(cfg.src, "ratings.jsonl"))
    return (["## Discussion", "",
             "Written by report.py from the numbers above; the results check",
             "(scripts/check-results.py) remakes it from the committed data.", ""]
            + disc_strength(cfg, generations, own, ratings) + disc_cross(tr) + disc_weights(champions, wtab)
            + disc_ends(cfg, wtab, wdiff, gtab, objs) + [
                f"**Limits.**  One depth ({cfg.depth}), one feature set per sowing, {generations} generations of",
                f"20 (the quickstart's 40 were cut to fit the session's budget), {cfg.seeds} seeds",
                "per variant; in Adji Kui II the champions were evolved on matches but",
                "rated on single games (`nickar rate` plays games).  Depradine's protocol",
                "and results are not available to us, so nothing here is compared with",
                "them.",
                ""])


def readme_end(cfg, comp, cpu, generations, lines, wall):
    """README.md's discussion (for the discussed settings), compute and rerun;
    writes README.md."""
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
        "bit.  champions.csv and runs.json keep what the report needs of them, so",
        "every table and this README are remade from the committed files alone;",
        "scripts/check-results.py checks that they are.",
        "",
        "## Rerun",
        "",
        "    cmake --preset release && cmake --build build -j2",
        "    THREADS=2 nice -n 10 experiments/caribbean/run.sh   # the study (writes results/caribbean/)",
        "    experiments/caribbean/run.sh --quick                 # seconds: checks the script",
        "    experiments/caribbean/report.py --committed results/caribbean  # this README from the committed data",
        "",
        "SEEDS, GAMES (a rung), GENERATIONS and OUT are environment variables",
        "(`run.sh --help`); the same settings give the same numbers on any machine",
        "and with any number of threads.",
        "",
    ]
    sl.write_lines(path(cfg.out, "README.md"), lines)
    print(f"report.py: wrote {path(cfg.out, 'README.md')}")


def report(src, into, plots):
    """Step 2: every table, weights.png and cross.png (when plots) and
    README.md from the committed data of SRC, into INTO."""
    with open(path(src, "runs.json")) as f:
        st = json.load(f)["settings"]
    cfg = sl.settings(src=src, into=into, out=into, **st)
    champions, generations, weights = committed_champions(cfg)
    wdiff, wtab = weight_tables(cfg, weights)
    cross, fit_phrase, own, ratings = rating_tables(cfg)
    gtab = games_by_variant(cfg)
    tr = transfer(cfg, ratings, cross)
    (comp, cpu,
     wall) = write_results(cfg, champions, cross, generations, gtab, own, ratings, wdiff, wtab, tr)
    if plots:
        plot_weights(cfg, weights)
        plot_cross(cfg, cross, own, ratings)
    lines = readme_protocol(cfg, fit_phrase, generations, ratings)
    lines = readme_own(cfg, lines, own, ratings)
    lines = readme_cross(cross, gtab, lines, tr)
    lines = readme_weights(cfg, lines, wdiff, wtab)
    if not cfg.quick:
        lines += discussion(cfg, generations, own, ratings, cross, wtab, wdiff, gtab, champions, tr)
    readme_end(cfg, comp, cpu, generations, lines, wall)


def main(argv):
    """report.py OUT SEEDS GAMES QUICK DEPTH: every output; report.py
    --committed SRC [INTO]: step 2 alone."""
    c = sl.committed(argv)
    if c:
        report(*c)
        return
    out, seeds, games, quick, depth = (argv[1], int(argv[2]), int(argv[3]),
                                       argv[4] == "1", int(argv[5]))
    cfg = sl.settings(out=out, seeds=seeds, games=games, quick=quick, depth=depth)
    runs = load_champions(cfg)
    plot_fitness(cfg, runs)
    report(out, out, plots=True)


if __name__ == "__main__":
    main(sys.argv)
