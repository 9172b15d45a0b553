#!/usr/bin/python3
"""report.py OUT --quick Q --seeds S --gens G --checkpoints "C ..." --tbpos P
--tbseeds T --games N --match M --positions K --fromstart F --depth D
--tunepos U --ladder L --start2 0|1 -- the tbteach study's report, in two
steps:

1. from the run files that run.sh left in OUT: runs.csv (each run's
   generations, fitness games, individuals evaluated, final fitness and
   champion's weights) and runs.json (the settings above);
2. from the committed data alone (runs.json, runs.csv, ratings.jsonl,
   matches.jsonl, grades.jsonl, tunes.jsonl, compute.tsv, the abapa
   ladder): every rating refitted jointly with the ladder's games, the
   grades read from `nickar grade`'s text, the tables (players.csv,
   final.csv, summary.csv, tests.csv, checkpoints.csv, budget.csv,
   results.json), the plots (elo_vs_endgame.png, checkpoints.png) and
   README.md.

    report.py --committed SRC [INTO]

runs step 2 alone, from SRC into INTO (default SRC; without plots when
INTO differs); scripts/check-results.py uses it.  The ladder's path is
relative to the repository's root."""
import argparse
import glob
import json
import math
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
f0, f3 = sl.f0, sl.f3

TUNE = ["tune-logistic", "tune-ls", "tune-logistic-12"]
EVOLVE = ["tb-lost", "tb-optimal", "selfplay"]
ORDER = TUNE + EVOLVE
TAUGHT = ["tune-logistic", "tune-ls", "tb-lost", "tb-optimal"]  # by the database, the primary arms
LABEL = {"tune-logistic": "tuned, logistic", "tune-ls": "tuned, least squares",
         "tune-logistic-12": "tuned, logistic, 12-seed database",
         "tb-lost": "evolved, tablebase fitness (seeds lost)",
         "tb-optimal": "evolved, tablebase fitness (share optimal)",
         "selfplay": "evolved, self-play fitness", "hand": "hand-tuned (`positional`)"}
HAND_RUNG = "positional-d{depth}"


# ===== step 1: the run files =====

def load_runs(a):
    """Every run file of OUT (exit 1 unless every arm has SEEDS runs): writes
    runs.csv and runs.json."""
    rows = []
    for path in sorted(glob.glob(os.path.join(a.out, "run-*.h5"))):
        m = re.fullmatch(r"run-(.+)-s(\d+)\.h5", os.path.basename(path))
        k, s = m.group(1), int(m.group(2))
        r = na.read(path)
        st = r["stats"]
        rows.append({"arm": k, "seed": s, "generations": len(st),
                     "fitness_games": int(st["games"].sum()),
                     "evaluations": int(st["evaluations"].iloc[-1]),
                     "final_best_fitness": float(st["best"].iloc[-1]),
                     "final_mean_fitness": float(st["mean"].iloc[-1]),
                     **{f"w_{f}": float(v) for f, v in r["champion"]["weights"].items()}})
    runs = pd.DataFrame(rows)
    if set(runs["arm"]) != set(ORDER) or any((runs.arm == k).sum() != a.seeds for k in ORDER):
        sys.exit(f"report.py: expected {a.seeds} run files of each of {', '.join(ORDER)} in {a.out}")
    runs["order"] = runs["arm"].map(ORDER.index)
    runs = runs.sort_values(["order", "seed"]).drop(columns="order").reset_index(drop=True)
    runs.to_csv(os.path.join(a.out, "runs.csv"), index=False)
    sl.write_json(os.path.join(a.out, "runs.json"), {"settings": {
        k: getattr(a, k) for k in ("quick", "seeds", "gens", "checkpoints", "tbpos", "tbseeds",
                                   "games", "match", "positions", "fromstart", "depth", "tunepos",
                                   "ladder", "start2")}}, end="\n")


# ===== reading nickar's text =====

NUM = r"(-?\d+(?:\.\d+)?)"
IV = NUM + r"\s+95% interval \[" + NUM + ", " + NUM + r"\]"


def grab(pattern, text, what):
    m = re.search(pattern, text)
    if not m:
        sys.exit(f"report.py: no {what} in:\n{text}")
    return [x if not re.fullmatch(NUM, x) else float(x) if "." in x else int(x)
            for x in m.groups()]


def parse_endgame(text):
    """`nickar grade` on positions: its figures."""
    n, games = grab(r"positions: (\d+) from (\d+) games", text, "positions")
    o, olo, ohi = grab(r"optimal moves: " + IV, text, "optimal share")
    s, slo, shi = grab(r"seeds lost per move: " + IV, text, "seeds lost")
    (clusters,) = grab(r"cluster-robust over the (\d+) games", text, "clusters")
    return {"positions": n, "clusters": clusters, "optimal": o, "optimal_lo": olo,
            "optimal_hi": ohi, "lost": s, "lost_lo": slo, "lost_hi": shi}


def parse_start(text):
    """`nickar grade --from-start`: its figures."""
    w, d, l_ = grab(r"results of the graded player: (\d+) wins, (\d+) draws, (\d+) losses", text,
                    "results")
    moves, forced = grab(r"moves graded: (\d+) with a choice \((\d+) forced", text, "moves")
    o, olo, ohi = grab(r"optimal moves: " + IV, text, "optimal share")
    s, slo, shi = grab(r"seeds lost per move: " + IV, text, "seeds lost per move")
    g, glo, ghi = grab(r"seeds lost per game: " + IV, text, "seeds lost per game")
    (errors,) = grab(r"errors: (\d+)", text, "errors")
    tv = grab(r"value thrown away: (\d+) moves \(win to draw (\d+), win to loss (\d+), "
              r"draw to loss (\d+)\) in (\d+) games", text, "value thrown away")
    out = {"games": w + d + l_, "wins": w, "draws": d, "losses": l_, "moves": moves,
           "forced": forced, "optimal": o, "optimal_lo": olo, "optimal_hi": ohi,
           "lost": s, "lost_lo": slo, "lost_hi": shi, "lost_game": g, "lost_game_lo": glo,
           "lost_game_hi": ghi, "errors": errors, "thrown": tv[0], "win_to_draw": tv[1],
           "win_to_loss": tv[2], "draw_to_loss": tv[3], "games_thrown": tv[4]}
    for ph in ("opening", "middle", "end"):
        mv, er, op, lo = grab(rf"\n  {ph}\s+(\d+)\s+(\d+)\s+{NUM}\s+{NUM}", text, ph)
        out[f"{ph}_moves"], out[f"{ph}_optimal"], out[f"{ph}_lost"] = mv, op, lo
    return out


def parse_tune(text):
    """`nickar tune`: what it fitted on, its residuals and its grade."""
    pos, games = grab(r"on (\d+) positions from (\d+) games", text, "positions")
    it, unit, res, res0 = grab(r"iterations (\d+), residual \(root mean square, (\w+)\) " + NUM
                               + r", at the start \(w = 0\) " + NUM, text, "residual")
    start = grab(r"start\s+optimal " + NUM + r" \[[^]]*\]\s+seeds lost per move " + NUM, text, "start")
    tuned = grab(r"tuned\s+optimal " + NUM + r" \[[^]]*\]\s+seeds lost per move " + NUM, text, "tuned")
    return {"positions": pos, "games": games, "iterations": it, "residual": res,
            "residual_start": res0, "residual_unit": unit,
            "tune_grade_start_optimal": start[0], "tune_grade_optimal": tuned[0],
            "tune_grade_start_lost": start[1], "tune_grade_lost": tuned[1]}


# ===== step 2: the tables =====

def at_root(p):
    """A path relative to the repository's root as a path."""
    return p if os.path.isabs(p) else os.path.join(ROOT, p)


def key(o):
    return (o["arm"], int(o["seed"]), int(o["generation"]))


def players_table(a):
    """One row a measured player (arm, seed, generation): its ladder Elo
    (refitted jointly with the ladder's games), its score against the
    hand-tuned searcher, its endgame grade and its small-game grade(s);
    writes players.csv.  Returns it and the ratings by player."""
    rates = {key(o): o["rate"] for o in na.read_jsonl(os.path.join(a.src, "ratings.jsonl"))}
    matches = {key(o): o["match"] for o in na.read_jsonl(os.path.join(a.src, "matches.jsonl"))}
    grades = {}
    for o in na.read_jsonl(os.path.join(a.src, "grades.jsonl")):
        grades.setdefault(key(o), {})[o["kind"]] = o["text"]
    rows = []
    for k, g in grades.items():
        r = {"arm": k[0], "seed": k[1], "generation": k[2]}
        if k in rates:
            rt = rates[k]
            e, se, lo, hi, prior = sl.rate_joint(at_root(rt["ladder"]), rt["opponents"])
            r.update({"elo": e, "se": se, "elo_lo": lo, "elo_hi": hi, "rating_games": rt["games"],
                      "prior": prior, "fixed_elo": rt["elo"]})
        if k in matches:
            m = matches[k]
            s, lo, hi, neff = sl.pair_score(m["wins"], m["draws"], m["losses"], m.get("pentanomial"))
            r.update({"wins": m["wins"], "draws": m["draws"], "losses": m["losses"],
                      "score": s, "score_lo": lo, "score_hi": hi})
        r.update({f"end_{x}": v for x, v in parse_endgame(g["endgame"]).items()})
        for kind in ("start1", "start2"):
            if kind in g:
                r.update({f"{kind}_{x}": v for x, v in parse_start(g[kind]).items()})
        rows.append(r)
    t = pd.DataFrame(rows)
    t["order"] = t["arm"].map(lambda x: -1 if x == "hand" else ORDER.index(x))
    t = t.sort_values(["order", "seed", "generation"]).drop(columns="order").reset_index(drop=True)
    t.to_csv(os.path.join(a.out, "players.csv"), index=False)
    return t, rates


def final_table(a, t):
    """Each run's final player (a tuning's result; an evolution's champion
    at the end of the budget), with the tunings' own figures and the CPU
    seconds of its training and measures; writes final.csv."""
    fin = t[(t.arm != "hand") & ((t.generation == 0) | (t.generation == a.gens))].copy()
    tunes = {(o["arm"], o["seed"]): parse_tune(o["text"])
             for o in na.read_jsonl(os.path.join(a.src, "tunes.jsonl"))}
    for col in ("iterations", "residual", "residual_start", "tune_grade_optimal"):
        fin[col] = [tunes.get((r.arm, r.seed), {}).get(col, math.nan) for r in fin.itertuples()]
    acct = pd.read_csv(os.path.join(a.src, "compute.tsv"), sep="\t")
    cpu = {(r.phase, r.arm, int(r.seed)): r for r in acct.itertuples()}
    fin["train_cpu_s"] = [cpu[("train", r.arm, r.seed)].cpu_s for r in fin.itertuples()]
    fin["train_wall_s"] = [cpu[("train", r.arm, r.seed)].wall_s for r in fin.itertuples()]
    fin = fin.reset_index(drop=True)
    if any((fin.arm == k).sum() != a.seeds for k in ORDER):
        sys.exit("report.py: not every run has a final player measured")
    fin.to_csv(os.path.join(a.out, "final.csv"), index=False)
    return fin, acct


def joint(a, fin, rates):
    """One fit of the ladder's games with every final player's: the Fit
    (labels ARM/sSEED) and the ladder's hand-tuned rung."""
    players = {f"{r.arm}/s{r.seed}": rates[(r.arm, r.seed, r.generation)]["opponents"]
               for r in fin.itertuples()}
    return sl.joint_fit(at_root(a.ladder), players), HAND_RUNG.format(depth=a.depth)


def pooled_score(a, arm, src):
    """The pooled score of an arm's final players against the hand-tuned
    searcher: (W, D, L, score, lo, hi)."""
    objs = [o["match"] for o in na.read_jsonl(os.path.join(src, "matches.jsonl"))
            if o["arm"] == arm and (o["generation"] == 0 or o["generation"] == a.gens)]
    w, d, l_, pent = sl.pooled_pairs(objs)
    s, lo, hi, _ = sl.pair_score(w, d, l_, pent)
    return w, d, l_, s, lo, hi


def summaries(a, fin, fit, hand_rung):
    """By arm, over its seeds: the final Elo (median with its order-statistic
    interval; the mean and its difference from self-play's and from the
    hand-tuned rung, from the joint fit), the pooled score against the
    hand-tuned searcher, the endgame and small-game grades (means with t
    intervals over seeds), the training CPU; writes summary.csv."""
    rows = []
    sp = [f"selfplay/s{s}" for s in range(1, a.seeds + 1)]
    for k in ORDER:
        v = fin[fin.arm == k]
        labs = [f"{k}/s{s}" for s in v.seed]
        med, mlo, mhi, cov = na.median_ci(v.elo)
        cm = fit.contrast({x: 1.0 / len(labs) for x in labs})
        dh = fit.mean_diff(labs, [hand_rung])
        ds = fit.mean_diff(labs, sp) if k != "selfplay" else (math.nan,) * 4
        w, d, l_, s, slo, shi = pooled_score(a, k, a.src)
        r = {"arm": k, "label": LABEL[k], "seeds": len(v),
             "elo_median": med, "elo_median_lo": mlo, "elo_median_hi": mhi, "coverage": cov,
             "elo_min": float(v.elo.min()), "elo_max": float(v.elo.max()),
             "elo_mean": cm[0], "elo_mean_lo": cm[1], "elo_mean_hi": cm[2],
             "minus_hand": dh[0], "minus_hand_lo": dh[1], "minus_hand_hi": dh[2],
             "minus_selfplay": ds[0], "minus_selfplay_lo": ds[1], "minus_selfplay_hi": ds[2],
             "wins": w, "draws": d, "losses": l_, "score": s, "score_lo": slo, "score_hi": shi,
             "train_cpu_s_median": float(v.train_cpu_s.median()),
             "train_cpu_s_total": float(v.train_cpu_s.sum())}
        for col in ("end_optimal", "end_lost", "start1_optimal", "start1_lost_game",
                    "start1_thrown", "start2_optimal", "start2_lost_game"):
            if col in v:
                m, lo, hi, _ = na.mean_interval(v[col])
                r.update({col: m, col + "_lo": lo, col + "_hi": hi})
        rows.append(r)
    s = pd.DataFrame(rows)
    s.to_csv(os.path.join(a.out, "summary.csv"), index=False)
    return s


def tests(a, fin):
    """Each other arm against self-play, over seeds: Mann-Whitney U of the
    final Elo and of the endgame share optimal (Holm over the five arms,
    within each measure), and Welch's interval of the difference of means;
    writes tests.csv."""
    rows = []
    sp = fin[fin.arm == "selfplay"]
    for measure in ("elo", "end_optimal", "start1_optimal"):
        part = []
        for k in ORDER[:-1]:
            x = fin[fin.arm == k][measure]
            u = sl.mann_whitney_u(x, sp[measure])
            d, lo, hi = na.welch_interval(x, sp[measure])
            part.append({"measure": measure, "arm": k, "u": u["u"], "prob_above": u["a"],
                         "p": u["p"], "diff": d, "diff_lo": lo, "diff_hi": hi})
        adj = na.holm([p["p"] for p in part])
        for p, h in zip(part, adj):
            p["p_holm"] = h
        rows += part
    t = pd.DataFrame(rows)
    t.to_csv(os.path.join(a.out, "tests.csv"), index=False)
    return t


def spearman(x, y):
    """Spearman's rank correlation (mid-ranks for ties)."""
    rx = pd.Series(list(x)).rank().to_numpy()
    ry = pd.Series(list(y)).rank().to_numpy()
    return float(np.corrcoef(rx, ry)[0, 1])


def checkpoints(a, t):
    """The evolving arms at each checkpoint: medians over seeds of the Elo,
    the endgame share optimal and the small-game share optimal; writes
    checkpoints.csv."""
    e = t[t.arm.isin(EVOLVE)]
    c = (e.groupby(["arm", "generation"])
         .agg(seeds=("seed", "size"), elo=("elo", "median"), score=("score", "median"),
              end_optimal=("end_optimal", "median"), start1_optimal=("start1_optimal", "median"))
         .reset_index())
    c["order"] = c["arm"].map(ORDER.index)
    c = c.sort_values(["order", "generation"]).drop(columns="order").reset_index(drop=True)
    c.to_csv(os.path.join(a.out, "checkpoints.csv"), index=False)
    return c


def budget(a, fin, runs):
    """The budget of every training run: generations, individuals
    evaluated, fitness games, positions graded, CPU and wall seconds;
    writes budget.csv (and returns the arms' medians)."""
    b = runs[["arm", "seed", "generations", "evaluations", "fitness_games"]].merge(
        fin[["arm", "seed", "train_cpu_s", "train_wall_s"]], on=["arm", "seed"])
    b["positions_graded"] = [r.evaluations * a.tbpos if r.arm.startswith("tb-") else 0
                             for r in b.itertuples()]
    b.loc[b.arm.isin(TUNE), "generations"] = 0  # a tuning's rows are solver iterations
    b.loc[b.arm.isin(TUNE), "evaluations"] = 0
    b.to_csv(os.path.join(a.out, "budget.csv"), index=False)
    return b.groupby("arm").median(numeric_only=True)


# ===== plots =====

def plot_final(a, fin, hand):
    """elo_vs_endgame.png: every final player's ladder Elo against its
    endgame share optimal, by arm; the hand-tuned searcher marked."""
    plt = sl.pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    for k in ORDER:
        v = fin[fin.arm == k]
        ax.errorbar(v.end_optimal, v.elo, yerr=[v.elo - v.elo_lo, v.elo_hi - v.elo],
                    fmt="o", markersize=4, alpha=0.7, elinewidth=0.6, label=LABEL[k])
    ax.scatter([hand["end_optimal"]], [hand["elo"]], marker="*", s=160, color="black",
               label=LABEL["hand"], zorder=5)
    ax.set_xlabel(f"endgame grade: share of optimal moves ({a.positions} positions, "
                  f"{a.tbseeds}-seed database)")
    ax.set_ylabel("ladder Elo (random = 0)")
    ax.set_title(f"abapa, depth {a.depth}: every final player ({a.seeds} seeds an arm)",
                 fontsize="small")
    ax.legend(fontsize="x-small")
    sl.save(fig, os.path.join(a.out, "elo_vs_endgame.png"), dpi=80)


def plot_checkpoints(a, t, hand):
    """checkpoints.png: the evolving arms' Elo and endgame grade by
    generation, medians over seeds and every seed."""
    plt = sl.pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    e = t[t.arm.isin(EVOLVE)].assign(label=lambda x: x.arm.map(LABEL))
    for ax, col, name in ((axes[0], "elo", "ladder Elo"),
                          (axes[1], "end_optimal", "endgame share optimal")):
        na.plot_bands(e, ax, "generation", col, "label", order=[LABEL[k] for k in EVOLVE])
        ax.axhline(hand[col], color="black", linewidth=0.8, linestyle="--")
        ax.set_xscale("log")
        ax.set_xlabel("generation (log scale)")
        ax.set_ylabel(name)
    axes[1].legend(fontsize="x-small")
    fig.suptitle("evolving arms: median over seeds, interquartile band; dashed: hand-tuned",
                 fontsize="small")
    sl.save(fig, os.path.join(a.out, "checkpoints.png"), dpi=80, rect=(0, 0, 1, 0.94))


# ===== README =====

def word(d, lo, hi, unit, ref="self-play-evolved weights"):
    """'better than REF by X [lo, hi] UNIT', 'worse ...' or
    'indistinguishable from REF (d [lo, hi] UNIT)': unit is (name, decimals)."""
    n = unit[1]
    if not (lo > 0 or hi < 0):
        return f"indistinguishable from {ref} ({d:+.{n}f} [{lo:+.{n}f}, {hi:+.{n}f}] {unit[0]})"
    return (f"{'better' if d > 0 else 'worse'} than {ref} by {abs(d):.{n}f} "
            f"[{lo:+.{n}f}, {hi:+.{n}f}] {unit[0]}")


def ladder_elo(a, rung):
    """A rung's Elo in the ladder file (the ladder's own fit, on the scale of
    the players' own fits, `nickar rate`)."""
    return sl.ladder_games(at_root(a.ladder))[4][rung]


def readme(a, t, fin, s, tst, ck, bmed, fit, hand_rung, acct):
    hand = t[t.arm == "hand"].iloc[0].to_dict()
    hand["elo"] = ladder_elo(a, hand_rung)
    hand_joint = fit.elo_of(hand_rung)
    by = s.set_index("arm")
    rho = spearman(fin.end_optimal, fin.elo)
    rho_start = spearman(fin.end_optimal, fin.start1_optimal)
    cpu = acct.groupby("phase")["cpu_s"].sum()
    Elo = ("Elo", 0)
    taught_lines = []
    for k in TAUGHT:
        r = by.loc[k]
        te = tst[(tst.measure == "end_optimal") & (tst.arm == k)].iloc[0]
        tl = tst[(tst.measure == "elo") & (tst.arm == k)].iloc[0]
        taught_lines.append(
            f"- **{LABEL[k]}**: on the ladder {word(tl['diff'], tl.diff_lo, tl.diff_hi, Elo)}"
            f" (difference of the means over seeds, Welch's interval; Mann-Whitney p ="
            f" {tl.p_holm:.3g} after Holm; for these seeds, from the joint fit:"
            f" {sl.interval(r.minus_selfplay, r.minus_selfplay_lo, r.minus_selfplay_hi)});"
            f" against the hand-tuned searcher"
            f" {r.score:.3f} [{r.score_lo:.3f}, {r.score_hi:.3f}] (self-play-evolved:"
            f" {by.loc['selfplay'].score:.3f} [{by.loc['selfplay'].score_lo:.3f},"
            f" {by.loc['selfplay'].score_hi:.3f}]); on endgames"
            f" {word(te['diff'], te.diff_lo, te.diff_hi, ('in the share of optimal moves', 3), 'them')}"
            f" (Welch over seeds; Holm p = {te.p_holm:.3g}).")
    better_end = [k for k in TAUGHT if tst[(tst.measure == "end_optimal") & (tst.arm == k)].iloc[0].diff_lo > 0]
    welch = {k: tst[(tst.measure == "elo") & (tst.arm == k)].iloc[0] for k in TAUGHT}
    worse_elo = [k for k in TAUGHT if welch[k].diff_hi < 0]
    better_elo = [k for k in TAUGHT if welch[k].diff_lo > 0]
    if len(worse_elo) == len(TAUGHT):
        plain = (f"No: every one of the {len(TAUGHT)} database-taught arms plays whole games "
                 f"worse than self-play-evolved weights of the same features and depth,")
    elif worse_elo and not better_elo:
        plain = (f"Mostly no: {len(worse_elo)} of the {len(TAUGHT)} database-taught arms play whole "
                 f"games worse than self-play-evolved weights of the same features and depth, "
                 f"{len(better_elo)} better,")
    elif better_elo and not worse_elo:
        plain = (f"Yes: {len(better_elo)} of the {len(TAUGHT)} database-taught arms play whole games "
                 f"better than self-play-evolved weights, none worse,")
    elif not worse_elo and not better_elo:
        plain = (f"Not distinguishable with {a.seeds} seeds: none of the {len(TAUGHT)} database-taught "
                 f"arms plays whole games measurably better or worse than self-play-evolved weights,")
    else:
        plain = (f"Not uniformly: of the {len(TAUGHT)} database-taught arms, {len(worse_elo)} play "
                 f"whole games worse than self-play-evolved weights and {len(better_elo)} better,")
    worse_end = [k for k in TAUGHT if tst[(tst.measure == "end_optimal") & (tst.arm == k)].iloc[0].diff_hi < 0]
    start_lines = []
    for k in TAUGHT:
        r = tst[(tst.measure == "start1_optimal") & (tst.arm == k)].iloc[0]
        if r.diff_lo > 0 or r.diff_hi < 0:
            start_lines.append(f"In whole 12-seed games against the hand-tuned searcher, graded move by"
                               f" move, {LABEL[k]} plays {word(r['diff'], r.diff_lo, r.diff_hi, ('in the share of optimal moves', 3))}.")
    c12 = fin[fin.arm == "tune-logistic-12"].elo
    c15 = fin[fin.arm == "tune-logistic"].elo
    d, lo, hi = na.welch_interval(c12, c15)
    start_lines.append(f"Control: the logistic tuning on the 12-seed database, where the `kroo` weights"
                       f" stay 0, against the same on the {a.tbseeds}-seed database:"
                       f" {sl.interval(d, lo, hi)} Elo (Welch over seeds).")
    start_lines = [""] + start_lines
    plain += (f" while {len(better_end)} of them play endgames better and {len(worse_end)} worse"
              f" (share of optimal moves on {a.positions} positions of the {a.tbseeds}-seed database;"
              f" intervals over seeds, Welch's).")
    L = sl.readme_start("# tbteach: do weights taught by perfect play in endgames play whole "
                        "games well?", a.quick)
    L += [
        "## The question",
        "",
        "Issue 23, item 4: nickar's endgame databases can teach an evaluation, by",
        "supervised fitting to their exact values (`nickar tune`) or as an evolution's",
        "fitness (`fitness.schedule = tablebase`). Do the weights so taught, fitted to",
        "play endgames as perfect play does, also play whole games well, against the",
        "same budget spent on self-play evolution? Every arm fits the same nine",
        f"`positional` weights of the same depth-{a.depth} alpha-beta player under Abapa",
        "rules; every result is measured in whole games (ladder Elo, score against",
        "the hand-tuned weights, whole small games graded move by move) and in",
        "endgames.",
        "",
        "## Answer",
        "",
        plain,
        "",
    ] + taught_lines + [
        "",
        f"Across all {len(fin)} final players, Spearman's rank correlation between the",
        f"endgame share optimal and the ladder Elo is {rho:+.2f}; between the endgame",
        f"grade and the grade in whole 12-seed games, {rho_start:+.2f} (descriptive, no test).",
        f"The hand-tuned weights (`positional-d{a.depth}`, a rung of the ladder) rate"
        f" {f0(hand['elo'])} in the ladder's own fit and play"
        f" {f3(hand['end_optimal'])} [{f3(hand['end_optimal_lo'])}, {f3(hand['end_optimal_hi'])}]"
        " of endgame moves optimally.",
    ] + start_lines + [
        "",
        "## Results",
        "",
        f"Final players, {a.seeds} seeds an arm (summary.csv). Elo: the ladder Elo of the",
        "final player (a tuning's result; an evolution's rank-0 champion at the end of",
        "the budget), median over seeds with the order-statistic interval of the",
        "median, and the mean over seeds minus that of the self-play arm and minus the",
        "hand-tuned rung, from one joint fit of the ladder's games with every final",
        "player's (the interval is the rating fit's, for these seeds; in that fit the",
        f"rungs move too, the hand-tuned one to {f0(hand_joint)}, so only differences are",
        "quoted from it). Elo median and min-max: each player fitted alone with the",
        "ladder's games, as `nickar rate` does, comparable with the ladder file's",
        "ratings (the hand-tuned row's). Score: pooled",
        "over seeds against the hand-tuned searcher at the same depth. Grades: means",
        "over seeds with t intervals.",
        "",
        "| arm | Elo median [95%] | min-max | mean - self-play | mean - hand-tuned | W-D-L | W:D:L % | score [95%] | endgame optimal | endgame seeds lost / move | 12-seed games optimal | seeds lost / game | training CPU s (median) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---:|",
    ]
    for r in s.itertuples():
        pct = ":".join(str(round(100 * x / (r.wins + r.draws + r.losses))) for x in (r.wins, r.draws, r.losses))
        L.append(
            f"| {r.label} | {f0(r.elo_median)} [{f0(r.elo_median_lo)}, {f0(r.elo_median_hi)}] | "
            f"{f0(r.elo_min)}-{f0(r.elo_max)} | "
            + ("-" if r.arm == "selfplay" else sl.interval(r.minus_selfplay, r.minus_selfplay_lo, r.minus_selfplay_hi))
            + f" | {sl.interval(r.minus_hand, r.minus_hand_lo, r.minus_hand_hi)} | "
            f"{r.wins}-{r.draws}-{r.losses} | {pct} | {r.score:.3f} [{r.score_lo:.3f}, {r.score_hi:.3f}] | "
            f"{sl.interval(r.end_optimal, r.end_optimal_lo, r.end_optimal_hi, 3)} | "
            f"{sl.interval(r.end_lost, r.end_lost_lo, r.end_lost_hi, 3)} | "
            f"{sl.interval(r.start1_optimal, r.start1_optimal_lo, r.start1_optimal_hi, 3)} | "
            f"{sl.interval(r.start1_lost_game, r.start1_lost_game_lo, r.start1_lost_game_hi, 2)} | "
            f"{r.train_cpu_s_median:.2f} |")
    L += [
        f"| {LABEL['hand']} | {f0(hand['elo'])} (ladder file) | - | - | - | - | - | 0.5 (itself) | "
        f"{sl.interval(hand['end_optimal'], hand['end_optimal_lo'], hand['end_optimal_hi'], 3)} | "
        f"{sl.interval(hand['end_lost'], hand['end_lost_lo'], hand['end_lost_hi'], 3)} | "
        f"{sl.interval(hand['start1_optimal'], hand['start1_optimal_lo'], hand['start1_optimal_hi'], 3)} | "
        f"{sl.interval(hand['start1_lost_game'], hand['start1_lost_game_lo'], hand['start1_lost_game_hi'], 2)} | - |",
        "",
        "The hand-tuned row's endgame and small-game intervals are `nickar grade`'s own",
        "(cluster-robust over the games, one player); the arms' are t intervals over",
        "seeds of the players' figures.",
        "",
        "Tests against the self-play arm over seeds (tests.csv): Mann-Whitney U (P(arm > self-play)",
        "= U / n m, exact p, Holm over the five arms within each measure) and the",
        "difference of means with Welch's interval:",
        "",
        "| measure | arm | P(arm > self-play) | p | p (Holm) | difference of means [95%] |",
        "|---|---|---:|---:|---:|---|",
    ]
    nd = {"elo": 0, "end_optimal": 3, "start1_optimal": 3}
    mname = {"elo": "ladder Elo", "end_optimal": "endgame share optimal",
             "start1_optimal": "12-seed games share optimal"}
    for r in tst.itertuples():
        L.append(f"| {mname[r.measure]} | {LABEL[r.arm]} | {r.prob_above:.2f} | {r.p:.4f} | "
                 f"{r.p_holm:.4f} | {sl.interval(r.diff, r.diff_lo, r.diff_hi, nd[r.measure])} |")
    L += [
        "",
        "![Elo against endgame grade](elo_vs_endgame.png)",
        "",
        "Every final player (final.csv; Elo with its 95% rating interval, endgame share",
        "optimal with `nickar grade`'s cluster-robust interval):",
        "",
        "| arm | seed | Elo [95%] | score [95%] | endgame optimal [95%] | 12-seed games optimal [95%] | seeds lost / game [95%] | value thrown away (moves) |",
        "|---|---:|---|---|---|---|---|---:|",
    ]
    for r in fin.itertuples():
        L.append(f"| {LABEL[r.arm]} | {r.seed} | {sl.interval(r.elo, r.elo_lo, r.elo_hi)} | "
                 f"{sl.interval(r.score, r.score_lo, r.score_hi, 3)} | "
                 f"{sl.interval(r.end_optimal, r.end_optimal_lo, r.end_optimal_hi, 3)} | "
                 f"{sl.interval(r.start1_optimal, r.start1_optimal_lo, r.start1_optimal_hi, 3)} | "
                 f"{sl.interval(r.start1_lost_game, r.start1_lost_game_lo, r.start1_lost_game_hi, 2)} | "
                 f"{r.start1_thrown} |")
    L += [
        "",
        "## The evolving arms by generation",
        "",
        "Medians over seeds of the rank-0 champion at each checkpoint (checkpoints.csv;",
        "players.csv has every player):",
        "",
        "| arm | generation | ladder Elo | score | endgame optimal | 12-seed games optimal |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in ck.itertuples():
        L.append(f"| {LABEL[r.arm]} | {r.generation} | {f0(r.elo)} | {f3(r.score)} | "
                 f"{f3(r.end_optimal)} | {f3(r.start1_optimal)} |")
    L += ["", "![checkpoints](checkpoints.png)", ""]
    L += readme_weights(a)
    L += readme_protocol(a, bmed, hand)
    L += readme_compute(a, acct, cpu)
    sl.write_lines(os.path.join(a.out, "README.md"), L)


def readme_weights(a):
    runs = pd.read_csv(os.path.join(a.src, "runs.csv"))
    feats = [c for c in runs.columns if c.startswith("w_")]
    L = ["## The weights", "",
         "Median over seeds of each final weight (runs.csv has every run's). The",
         "evolving arms keep weights in [-1, 1]; a tuning's are unbounded. A linear",
         "evaluation's play depends on its weights up to a positive factor only.", "",
         "| arm | " + " | ".join(c[2:] for c in feats) + " |",
         "|---|" + "---:|" * len(feats)]
    for k in ORDER:
        v = runs[runs.arm == k]
        L.append(f"| {LABEL[k]} | " + " | ".join(f"{v[c].median():.3f}" for c in feats) + " |")
    return L + [""]


def readme_protocol(a, bmed, hand):
    sp, tl, to = bmed.loc["selfplay"], bmed.loc["tb-lost"], bmed.loc["tb-optimal"]
    return [
        "## Protocol and controls",
        "",
        "| | what | why |",
        "|---|---|---|",
        f"| game and player | Abapa (tournament Oware), alpha-beta to depth {a.depth}, the nine `positional` features; every player of the study is this player with other weights | one feature set (the issue names linear sets first), the strategies study's setting |",
        f"| database | abapa to {a.tbseeds} seeds (every position with at most {a.tbseeds} seeds on the board; the 12-seed database for one control arm) | built in under a minute |",
        f"| supervised (tune-*) | `nickar tune` (experiments/tbteach/tune.ini): {a.tunepos} positions inside the database from self-play games of the hand-tuned depth-3 searcher, labelled by the database; logistic (sigmoid of the evaluation against the result under perfect play, GSL's trust-region solver from w = 0) or least squares (the evaluation against the final seed margin, GSL's SVD solve); seed s draws other games | Texel tuning with exact labels |",
        f"| tablebase evolution (tb-*) | the GA below, fitness the grade on {a.tbpos} positions a generation from the previous champion's self-play games inside the database: minus the seeds lost per move (tb-lost) or the share of optimal moves (tb-optimal) | the two measures the schedule offers |",
        f"| self-play evolution | the same GA, fitness random-k: 4 opponents drawn at random, two games a meeting from 2-ply openings, 2/1/0: 128 games a generation | the strategies study's schedule |",
        f"| GA (all evolution) | 16 individuals, elitism 1, tournament 3, BLX-0.5 (0.9), Gaussian mutation 0.2 / sigma 0.1, weights in [-1, 1]; {a.gens} generations (6000 individuals evaluated) | nickar's GA defaults |",
        f"| equal budget | the budget is CPU seconds: equal generations and individuals, with {a.tbpos} positions per tablebase evaluation chosen beforehand so that a tablebase generation costs about a self-play generation's CPU. Measured (budget.csv, medians over seeds): self-play {sp.fitness_games:.0f} fitness games, {sp.train_cpu_s:.1f} CPU s; tb-lost 0 games, {tl.positions_graded:.0f} positions graded, {tl.train_cpu_s:.1f} CPU s; tb-optimal {to.train_cpu_s:.1f} CPU s | fitness games cannot be equal: the tablebase schedule plays none |",
        f"| seeds | {a.seeds} an arm (experiment.seed 1..{a.seeds}), every run reported | |",
        f"| ladder Elo | `nickar rate` on {a.ladder}, {a.games} games against each of its 16 rungs (colour-swapped pairs, 2-ply openings, seed 1), refitted jointly with the ladder's own games (its @wdl lines) | as the other studies (experiments/studylib.py) |",
        f"| score | `nickar match` against `ab:depth={a.depth},features=positional` (the hand-tuned weights), {a.match} games, seed 1; {sl.SCORE_METHOD} | |",
        f"| endgame grade | `nickar grade --positions {a.positions} --seed 1 --reference ab:depth={a.depth},features=positional`: the same positions for every player, from the hand-tuned searcher's games, inside the {a.tbseeds}-seed database; share of optimal moves and seeds lost per move, cluster-robust intervals over the games that gave positions | the hand-tuned searcher's positions, so that no arm is graded on its own games |",
        f"| small games | `nickar grade --from-start --per-pit 1 --games {a.fromstart} --opponent ab:depth={a.depth},features=positional --seed 1`: whole games from one seed a pit (12 seeds, inside the database), every move with a choice graded; seeds lost per game, value thrown away (moves that turn a win into a draw or loss, or a draw into a loss) | the whole-game grade; " + ("two seeds a pit too (start2 columns of players.csv)" if a.start2 else "two seeds a pit not graded: no 24-seed abapa database was at hand when the study ran") + " |",
        "",
        "**Controls: what differs between the arms besides the teacher.**",
        "",
        "- Supervised against evolved: the optimiser (GSL's solvers from zero weights,",
        "  against a GA from random weights), the weights' range (unbounded against",
        "  [-1, 1]; only the direction matters for play, but `own_kroo` and",
        "  `opp_kroo`, which a 15-seed position rarely switches on, get large",
        "  weights fitted on few positions), the positions (from the hand-tuned",
        "  searcher's games, fixed, against the population's champion's, moving),",
        "  and the budget (a tuning takes a fraction of a CPU second: it is not",
        "  matched to the evolutions').",
        "- tune-logistic-12 against tune-logistic: the database (12 seeds, where",
        "  the `kroo` features never vary and keep weight 0, against 15).",
        "- Tablebase against self-play evolution: the fitness alone (the same GA,",
        "  population, generations, feature set, depth and seeds); the CPU per",
        "  generation was matched beforehand and is reported as measured.",
        "- Every player is measured by the same opponents, games and positions",
        "  (seed 1 throughout).",
        "",
        "**Limits.** One variant, one feature set, one depth, one GA setting; the",
        f"databases cover only the last {a.tbseeds} seeds of a 48-seed game, so the",
        "taught weights never see the middle game; the endgame positions come from",
        "the hand-tuned searcher's games (another player's endgames could grade",
        "differently); the whole-game grade covers only the 12-seed game, not",
        "Abapa's 48 seeds; strength is measured against fixed players (the ladder",
        "and the hand-tuned searcher), not in play between the arms.",
        "",
    ] + ([] if a.start2 else [
        "**Missing.** The whole games of two seeds a pit (24 seeds) are not graded:",
        "they need abapa's 24-seed database, which was not built when the study ran",
        "(`TB24=DIR experiments/tbteach/run.sh` grades them too).",
        "",
    ])


def readme_compute(a, acct, cpu):
    return [
        "## Compute",
        "",
        "Measured by run.sh (bash `times` and `date` around every step; compute.tsv)",
        "on a shared 2-core VM with other jobs running: "
        f"{acct.wall_s.sum():.0f} s wall, {acct.cpu_s.sum():.0f} CPU seconds (user + system) in all: "
        + ", ".join(f"{p} {cpu[p]:.0f}" for p in cpu.index) + ".",
        "",
        "## Rerun",
        "",
        "    cmake --preset release && cmake --build build -j2",
        "    THREADS=2 nice -n 10 experiments/tbteach/run.sh      # the study (writes results/tbteach/)",
        "    experiments/tbteach/run.sh --quick                   # seconds: checks the script",
        "",
        "TB and TB12 name the databases' directories (built when missing), TB24 a",
        "24-seed abapa database for the two-seed games; SEEDS, GENS, CHECKPOINTS,",
        "TBPOS, GAMES, MATCH, POSITIONS, FROMSTART and DEPTH change the budget",
        "(run.sh's header). The configs: experiments/tbteach/ga.ini (shared),",
        "selfplay.ini, tablebase.ini, tune.ini.",
        "",
    ]


def write_results(a, s, tst, fin, ck, bmed, fit, hand_rung, t):
    hand = t[t.arm == "hand"].iloc[0]
    e, lo, hi = fit.interval(hand_rung)
    sl.write_json(os.path.join(a.out, "results.json"), {
        "settings": {k: getattr(a, k) for k in ("quick", "seeds", "gens", "checkpoints", "tbpos",
                                                 "tbseeds", "games", "match", "positions",
                                                 "fromstart", "depth", "tunepos", "ladder",
                                                 "start2")},
        "hand": {"elo": ladder_elo(a, hand_rung), "joint_elo": e, "joint_elo_lo": lo, "joint_elo_hi": hi,
                 "end_optimal": float(hand.end_optimal), "start1_optimal": float(hand.start1_optimal)},
        "spearman_endgame_elo": spearman(fin.end_optimal, fin.elo),
        "summary": sl.records(s), "tests": sl.records(tst), "checkpoints": sl.records(ck),
        "budget_medians": json.loads(bmed.reset_index().to_json(orient="records")),
        "final": sl.records(fin)})


def report(src, into, plots):
    """Step 2: every table, the plots (when plots) and README.md from the
    committed data of SRC, into INTO."""
    with open(os.path.join(src, "runs.json")) as f:
        st = json.load(f)["settings"]
    a = sl.settings(src=src, into=into, out=into, **st)
    t, rates = players_table(a)
    fin, acct = final_table(a, t)
    fit, hand_rung = joint(a, fin, rates)
    s = summaries(a, fin, fit, hand_rung)
    tst = tests(a, fin)
    ck = checkpoints(a, t)
    runs = pd.read_csv(os.path.join(src, "runs.csv"))
    bmed = budget(a, fin, runs)
    write_results(a, s, tst, fin, ck, bmed, fit, hand_rung, t)
    hand = t[t.arm == "hand"].iloc[0].to_dict()
    hand["elo"] = ladder_elo(a, hand_rung)
    if plots:
        plot_final(a, fin, hand)
        plot_checkpoints(a, t, hand)
    readme(a, t, fin, s, tst, ck, bmed, fit, hand_rung, acct)


def main(argv):
    c = sl.committed(argv)
    if c:
        report(*c)
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    for name in ("quick", "seeds", "gens", "tbpos", "tbseeds", "games", "match", "positions",
                 "fromstart", "depth", "tunepos", "start2"):
        ap.add_argument("--" + name, type=int, required=True)
    ap.add_argument("--checkpoints", required=True)
    ap.add_argument("--ladder", required=True)
    a = ap.parse_args(argv[1:])
    load_runs(a)
    report(a.out, a.out, plots=True)


if __name__ == "__main__":
    main(sys.argv)
