#!/usr/bin/python3
"""report.py OUT -- the representation study's report, in two steps:

1. from the run files that run.sh left in OUT: runs.csv (each run's
   generations, self-play games and individuals evaluated);
2. from the committed data alone (runs.json, runs.csv, ratings.jsonl,
   matches.jsonl, grades.jsonl, compute.tsv, champion-*.txt, the abapa
   ladder): every rating refitted jointly with the ladder's games, the
   grades read from `nickar grade`'s text, the tables (players.csv,
   final.csv, summary.csv, tests.csv, curves.csv, headtohead.csv,
   gdepth.csv, budget.csv, champions.json, results.json), the plots
   (learning_curves.png, ntuple_weights.png, grade_vs_depth.png,
   elo_depths.png) and README.md.

    report.py --committed SRC [INTO]

runs step 2 alone, from SRC into INTO (default SRC; without plots when
INTO differs); scripts/check-results.py uses it.  The ladder's path is
relative to the repository's root.

A study that did not finish (fewer seeds than planned for some arm, or no
champions) is reported as far as it went: the README names what is
missing."""
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

ARMS = ["pos-ga", "pos-cma", "ntuple-es", "ntuple-td", "nnet-es", "nnet-td"]
FAMILY = {"pos-ga": "positional", "pos-cma": "positional", "ntuple-es": "ntuple",
          "ntuple-td": "ntuple", "nnet-es": "nnet", "nnet-td": "nnet"}
LEARNER = {"pos-ga": "GA", "pos-cma": "CMA-ES", "ntuple-es": "sep-CMA-ES",
           "ntuple-td": "TD-Leaf(λ)", "nnet-es": "sep-CMA-ES", "nnet-td": "TD-Leaf(λ)"}
FAMNAME = {"positional": "`positional`", "ntuple": "n-tuple", "nnet": "network"}
HAND = "hand-tuned `positional`"


def label(k):
    return f"{FAMNAME[FAMILY[k]]} / {LEARNER[k]}"


def plain(k):
    """A label without markdown, for the plots."""
    return (HAND if k == "hand" else label(k)).replace("`", "")


INT_SETTINGS = ("quick", "seeds", "budget", "tdgames", "depth", "deep", "rate", "match", "champ",
                "h2h", "h2h_d", "positions", "tbseeds")


def read_settings(src):
    with open(os.path.join(src, "runs.json")) as f:
        st = json.load(f)["settings"]
    st = {k: int(v) if k in INT_SETTINGS else v for k, v in st.items()}
    st["checkpoints"] = [int(x) for x in st["checkpoints"].split()]
    st["gdepths"] = [int(x) for x in st["gdepths"].split()]
    return st


# ===== step 1: the run files =====

def load_runs(out):
    """Every run file of OUT: runs.csv."""
    rows = []
    for path in sorted(glob.glob(os.path.join(out, "run-*.h5"))):
        m = re.fullmatch(r"run-(.+)-s(\d+)\.h5", os.path.basename(path))
        k, s = m.group(1), int(m.group(2))
        st = na.read(path)["stats"]
        rows.append({"arm": k, "seed": s, "generations": len(st),
                     "selfplay_games": int(st["games"].sum()),
                     "evaluations": int(st["evaluations"].iloc[-1]),
                     "final_best_fitness": float(st["best"].iloc[-1])})
    runs = pd.DataFrame(rows)
    runs["order"] = runs["arm"].map(ARMS.index)
    runs = runs.sort_values(["order", "seed"]).drop(columns="order").reset_index(drop=True)
    runs.to_csv(os.path.join(out, "runs.csv"), index=False)


# ===== step 2: the tables =====

def at_root(p):
    return p if os.path.isabs(p) else os.path.join(ROOT, p)


def order_rows(t, cols):
    t = t.copy()
    t["order"] = t["arm"].map(lambda x: -1 if x == "hand" else ARMS.index(x))
    return t.sort_values(["order"] + cols).drop(columns="order").reset_index(drop=True)


def players_table(a):
    """One row a rating: arm, seed, games played by then, depth, role, the
    Elo refitted jointly with the ladder's games; writes players.csv."""
    rows, rates = [], {}
    for o in na.read_jsonl(os.path.join(a.src, "ratings.jsonl")):
        rt = o["rate"]
        e, se, lo, hi, prior = sl.rate_joint(at_root(rt["ladder"]), rt["opponents"])
        k = (o["arm"], int(o["seed"]), int(o["games"]), int(o["depth"]))
        rates[k] = rt
        rows.append({"arm": o["arm"], "seed": o["seed"], "games": o["games"], "depth": o["depth"],
                     "role": o["role"], "elo": e, "se": se, "elo_lo": lo, "elo_hi": hi,
                     "prior": prior, "fixed_elo": rt["elo"], "rating_games": rt["games"]})
    t = order_rows(pd.DataFrame(rows), ["seed", "depth", "games"])
    t.to_csv(os.path.join(a.out, "players.csv"), index=False)
    return t, rates


def grades(a):
    """Every grade: {(arm, seed, role, depth): numbers}."""
    out = {}
    for o in na.read_jsonl(os.path.join(a.src, "grades.jsonl")):
        g = sl.grade_numbers(o["text"].splitlines())
        out[(o["arm"], int(o["seed"]), o["role"], int(o["depth"]))] = g
    return out


def matches(a):
    return na.read_jsonl(os.path.join(a.src, "matches.jsonl"))


def score_of(m):
    s, lo, hi, _ = sl.pair_score(m["wins"], m["draws"], m["losses"], m.get("pentanomial"))
    return s, lo, hi


def final_table(a, t, gr, ms, acct):
    """Each run's player after the whole budget: Elo at the training depth
    and at the deep depth, its score against the hand-tuned weights at the
    training depth, its endgame grade, the CPU of its training; writes
    final.csv.  Only runs with every final measure are rows."""
    fm = {(o["arm"], int(o["seed"])): o["match"] for o in ms if o["role"] == "final"}
    cpu = {(r.phase, r.arm, int(r.seed)): r for r in acct.itertuples()}
    rows = []
    for r in t[(t.depth == a.depth) & (t.games == a.budget)].itertuples():
        k = (r.arm, int(r.seed))
        deep = t[(t.arm == r.arm) & (t.seed == r.seed) & (t.depth == a.deep) & (t.games == a.budget)]
        g = gr.get((r.arm, int(r.seed), "final", a.depth))
        if len(deep) != 1 or k not in fm or g is None or ("train", r.arm, r.seed) not in cpu:
            continue
        m = fm[k]
        s, lo, hi = score_of(m)
        rows.append({"arm": r.arm, "seed": r.seed, "elo": r.elo, "elo_lo": r.elo_lo,
                     "elo_hi": r.elo_hi, "elo_deep": deep.elo.iloc[0],
                     "elo_deep_lo": deep.elo_lo.iloc[0], "elo_deep_hi": deep.elo_hi.iloc[0],
                     "wins": m["wins"], "draws": m["draws"], "losses": m["losses"],
                     "score": s, "score_lo": lo, "score_hi": hi,
                     "end_positions": g["positions"], "end_games": g["games"],
                     "end_optimal": g["optimal"][0], "end_optimal_lo": g["optimal"][1],
                     "end_optimal_hi": g["optimal"][2], "end_lost": g["lost_move"][0],
                     "end_lost_lo": g["lost_move"][1], "end_lost_hi": g["lost_move"][2],
                     "train_cpu_s": cpu[("train", r.arm, r.seed)].cpu_s,
                     "train_wall_s": cpu[("train", r.arm, r.seed)].wall_s})
    fin = order_rows(pd.DataFrame(rows), ["seed"])
    fin.to_csv(os.path.join(a.out, "final.csv"), index=False)
    return fin


def hand_rung(depth):
    return f"positional-d{depth}"


def joint(a, fin, rates):
    """One fit of the ladder's games with every final player's, at both
    depths (labels ARM/sSEED/dDEPTH)."""
    players = {}
    for r in fin.itertuples():
        for d in (a.depth, a.deep):
            players[f"{r.arm}/s{r.seed}/d{d}"] = rates[(r.arm, r.seed, a.budget, d)]["opponents"]
    return sl.joint_fit(at_root(a.ladder), players)


def summaries(a, fin, fit, ms):
    """By arm, over its seeds: the final Elo at both depths (median with
    its order-statistic interval; the mean and its difference from the
    hand-tuned rung of the same depth, from the joint fit), the pooled
    score against the hand-tuned weights, the endgame grade (mean with t
    interval over seeds), the training CPU; writes summary.csv."""
    rows = []
    for k in ARMS:
        v = fin[fin.arm == k]
        if len(v) == 0:
            continue
        r = {"arm": k, "label": label(k), "seeds": len(v)}
        for d, col in ((a.depth, "elo"), (a.deep, "elo_deep")):
            labs = [f"{k}/s{s}/d{d}" for s in v.seed]
            med, mlo, mhi, cov = na.median_ci(v[col])
            cm = fit.contrast({x: 1.0 / len(labs) for x in labs})
            dh = fit.mean_diff(labs, [hand_rung(d)])
            r.update({f"{col}_median": med, f"{col}_median_lo": mlo, f"{col}_median_hi": mhi,
                      f"{col}_coverage": cov, f"{col}_min": float(v[col].min()),
                      f"{col}_max": float(v[col].max()), f"{col}_mean": cm[0],
                      f"{col}_mean_lo": cm[1], f"{col}_mean_hi": cm[2],
                      f"{col}_minus_hand": dh[0], f"{col}_minus_hand_lo": dh[1],
                      f"{col}_minus_hand_hi": dh[2]})
        objs = [o["match"] for o in ms if o["role"] == "final" and o["arm"] == k
                and int(o["seed"]) in set(v.seed)]
        w, d, l_, pent = sl.pooled_pairs(objs)
        s, slo, shi, _ = sl.pair_score(w, d, l_, pent)
        r.update({"wins": w, "draws": d, "losses": l_, "score": s, "score_lo": slo, "score_hi": shi})
        for col in ("end_optimal", "end_lost"):
            m, lo, hi, _ = na.mean_interval(v[col])
            r.update({col: m, col + "_lo": lo, col + "_hi": hi})
        r.update({"train_cpu_s_median": float(v.train_cpu_s.median()),
                  "train_cpu_s_total": float(v.train_cpu_s.sum())})
        rows.append(r)
    s = pd.DataFrame(rows)
    s.to_csv(os.path.join(a.out, "summary.csv"), index=False)
    return s


def tests(a, fin, s):
    """The arm with the highest mean Elo at the training depth against each
    other arm, over seeds: Mann-Whitney U (exact p, Holm over the other arms
    within each measure) and Welch's interval of the difference of means,
    for the Elo at both depths and the endgame share optimal; writes
    tests.csv."""
    best = s.sort_values("elo_mean", ascending=False).arm.iloc[0]
    rows = []
    b = fin[fin.arm == best]
    for measure in ("elo", "elo_deep", "end_optimal"):
        part = []
        for k in ARMS:
            x = fin[fin.arm == k][measure]
            if k == best or len(x) == 0:
                continue
            u = sl.mann_whitney_u(b[measure], x)
            d, lo, hi = na.welch_interval(b[measure], x) if len(x) > 1 and len(b) > 1 else (math.nan,) * 3
            part.append({"measure": measure, "best": best, "arm": k, "u": u["u"],
                         "prob_best_above": u["a"], "p": u["p"], "diff": d, "diff_lo": lo,
                         "diff_hi": hi})
        for p, h in zip(part, na.holm([p["p"] for p in part])):
            p["p_holm"] = h
        rows += part
    t = pd.DataFrame(rows)
    t.to_csv(os.path.join(a.out, "tests.csv"), index=False)
    return t, best


def curves(a, t):
    """The learning curves: by arm and games played, over seeds, the
    median, quartiles and extremes of the Elo at the training depth;
    writes curves.csv."""
    c = t[(t.depth == a.depth) & (t.role == "curve")]
    b = na.quantile_bands(c, "games", "elo", "arm")
    b = order_rows(b, ["games"])
    b.to_csv(os.path.join(a.out, "curves.csv"), index=False)
    return c, b


def champions(a, ms, gr, fin):
    """Each arm's champion: its spec and seed, the fresh match against the
    hand-tuned weights at the training depth, the head-to-head at depth
    h2h_d against positional two plies deeper, and the grade at each
    depth; writes headtohead.csv, gdepth.csv and champions.json."""
    ch = {o["arm"]: o for o in ms if o["role"] == "champion" and o["kind"] == "champion"}
    h2h = {o["arm"]: o for o in ms if o["kind"] == "h2h"}
    hrows, grows, cj = [], [], []
    for k in ["hand"] + ARMS:
        if k in h2h:
            o = h2h[k]
            s, lo, hi = score_of(o["match"])
            hrows.append({"arm": k, "seed": o["seed"], "spec": o["spec"], "opponent": o["opponent"],
                          "wins": o["match"]["wins"], "draws": o["match"]["draws"],
                          "losses": o["match"]["losses"], "score": s, "score_lo": lo,
                          "score_hi": hi, "elo": o["match"]["elo"]})
        for d in a.gdepths:
            g = gr.get((k, int(ch[k]["seed"]) if k in ch else 0, "gdepth", d))
            if g is None:
                continue
            grows.append({"arm": k, "depth": d, "positions": g["positions"], "games": g["games"],
                          "optimal": g["optimal"][0], "optimal_lo": g["optimal"][1],
                          "optimal_hi": g["optimal"][2], "lost": g["lost_move"][0],
                          "lost_lo": g["lost_move"][1], "lost_hi": g["lost_move"][2]})
        if k in ch:
            o = ch[k]
            s, lo, hi = score_of(o["match"])
            f = fin[(fin.arm == k) & (fin.seed == o["seed"])]
            entry = {"arm": k, "label": label(k), "seed": o["seed"], "games_trained": o["games"],
                     "spec": o["spec"], "weights_file": o["spec"].split("weights=", 1)[1],
                     "opponent": o["opponent"], "games": o["match"]["games"],
                     "match_seed": o["match"]["seed"], "wins": o["match"]["wins"],
                     "draws": o["match"]["draws"], "losses": o["match"]["losses"],
                     "score": s, "score_lo": lo, "score_hi": hi,
                     "ladder_elo": float(f.elo.iloc[0]) if len(f) else None,
                     "ladder_elo_deep": float(f.elo_deep.iloc[0]) if len(f) else None}
            if k in h2h:
                hs = hrows[-1]
                entry["h2h"] = {"spec": hs["spec"], "opponent": hs["opponent"],
                                "games": h2h[k]["match"]["games"], "wins": hs["wins"],
                                "draws": hs["draws"], "losses": hs["losses"], "score": hs["score"],
                                "score_lo": hs["score_lo"], "score_hi": hs["score_hi"]}
            cj.append(entry)
    hh = pd.DataFrame(hrows)
    gd = pd.DataFrame(grows)
    if len(hh):
        hh.to_csv(os.path.join(a.out, "headtohead.csv"), index=False)
    gd.to_csv(os.path.join(a.out, "gdepth.csv"), index=False)
    sl.write_json(os.path.join(a.out, "champions.json"), {
        "method": "each arm's final player with the highest `nickar rate` Elo at the training "
                  "depth; its score from a fresh match (seed 2) against the opponent; "
                  + sl.SCORE_METHOD,
        "champions": cj}, end="\n")
    return hh, gd, cj


def budget(a, runs, acct):
    """The budget of every run: generations, self-play games, individuals
    evaluated, CPU and wall seconds of training and of measuring; writes
    budget.csv."""
    cpu = acct[acct.phase.isin(["train", "measure"])].pivot_table(
        index=["arm", "seed"], columns="phase", values=["cpu_s", "wall_s"], aggfunc="sum")
    cpu.columns = [f"{p}_{v}" for v, p in cpu.columns]
    b = runs.merge(cpu.reset_index(), on=["arm", "seed"], how="left")
    b = order_rows(b, ["seed"])
    b.to_csv(os.path.join(a.out, "budget.csv"), index=False)
    return b


# ===== plots =====

def plot_curves(a, c):
    plt = sl.pyplot()
    fig, ax = plt.subplots(figsize=(8.5, 5))
    e = c.assign(label=c.arm.map(plain))
    na.plot_bands(e, ax, "games", "elo", "label", order=[plain(k) for k in ARMS if k in set(c.arm)])
    ax.axhline(ladder_elo(a, hand_rung(a.depth)), color="black", linewidth=0.8, linestyle="--")
    ax.set_xscale("log")
    ax.set_xlabel("self-play games played (log scale)")
    ax.set_ylabel(f"ladder Elo at depth {a.depth} (random = 0)")
    ax.set_title(f"abapa, depth {a.depth}: median over seeds, interquartile band, extremes dotted; "
                 f"dashed: {hand_rung(a.depth)}", fontsize="small")
    ax.legend(fontsize="x-small")
    sl.save(fig, os.path.join(a.out, "learning_curves.png"), dpi=80)


def read_weights(path):
    with open(path) as f:
        return [float(x) for x in f.read().split("\n") if x.strip() and not x.startswith("#")]


def ntuple_shape(spec):
    """(tuples, cap) of a ringK layout: each tuple a table of (cap+1)^K."""
    m = re.search(r"layout=ring(\d)", spec)
    c = re.search(r"cap=(\d+)", spec)
    return (int(m.group(1)) if m else 3), (int(c.group(1)) if c else 6)


def plot_ntuple(a, cj):
    """ntuple_weights.png: each n-tuple champion's tables, one row a tuple
    (the run of pits from pit i), one column an index (pit i's capped count
    + (cap + 1) x pit i+1's ...)."""
    plt = sl.pyplot()
    arms = [e for e in cj if FAMILY[e["arm"]] == "ntuple"]
    if not arms:
        return
    fig, axes = plt.subplots(1, len(arms), figsize=(6 * len(arms), 4.6), squeeze=False)
    for ax, e in zip(axes[0], arms):
        k, cap = ntuple_shape(a.ntuple)
        w = np.array(read_weights(at_root(e["weights_file"])))
        tab = w[1:].reshape(12, (cap + 1) ** k)
        lim = float(np.abs(tab).max()) or 1.0
        im = ax.imshow(tab, cmap="RdBu_r", vmin=-lim, vmax=lim, aspect="auto")
        ax.set_yticks(range(12))
        ax.set_yticklabels([f"pits {i},{(i + 1) % 12}" if k == 2 else f"from pit {i}" for i in range(12)],
                           fontsize="x-small")
        ax.set_xlabel(f"table index: the tuple's capped counts (cap {cap}: {cap} means {cap} or more)",
                      fontsize="small")
        if k == 2:
            ax.set_xticks(range((cap + 1) ** 2))
            ax.set_xticklabels([f"{i % (cap + 1)},{i // (cap + 1)}" for i in range((cap + 1) ** 2)],
                               fontsize="x-small")
        ax.set_title(f"{plain(e['arm'])}, seed {e['seed']}: store term {w[0]:.3f}", fontsize="small")
        fig.colorbar(im, ax=ax)
    fig.suptitle(f"n-tuple champions ({a.ntuple}): pits 0-5 the mover's, 6-11 the opponent's",
                 fontsize="small")
    sl.save(fig, os.path.join(a.out, "ntuple_weights.png"), dpi=80, rect=(0, 0, 1, 0.94))


def plot_gdepth(a, gd):
    plt = sl.pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    for k in ["hand"] + ARMS:
        v = gd[gd.arm == k]
        if len(v) == 0:
            continue
        ax.errorbar(v.depth, v.optimal, yerr=[v.optimal - v.optimal_lo, v.optimal_hi - v.optimal],
                    marker="o" if k != "hand" else "*", markersize=5 if k != "hand" else 10,
                    capsize=2, label=plain("hand") if k == "hand" else f"{plain(k)} (champion)",
                    color="black" if k == "hand" else None)
    ax.set_xticks(a.gdepths)
    ax.set_xlabel("search depth")
    ax.set_ylabel("share of optimal moves")
    ax.set_title(f"endgames of the {a.tbseeds}-seed abapa database ({a.positions} positions)",
                 fontsize="small")
    ax.legend(fontsize="x-small")
    sl.save(fig, os.path.join(a.out, "grade_vs_depth.png"), dpi=80)


def plot_depths(a, fin):
    plt = sl.pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    for k in ARMS:
        v = fin[fin.arm == k]
        ax.scatter(v.elo, v.elo_deep, label=plain(k), s=18)
    ax.scatter([ladder_elo(a, hand_rung(a.depth))], [ladder_elo(a, hand_rung(a.deep))], marker="*",
               s=160, color="black", label=plain("hand"))
    ax.set_xlabel(f"ladder Elo at depth {a.depth}")
    ax.set_ylabel(f"ladder Elo at depth {a.deep}")
    ax.set_title("every final player at the training depth and at the deep depth", fontsize="small")
    ax.legend(fontsize="x-small")
    sl.save(fig, os.path.join(a.out, "elo_depths.png"), dpi=80)


# ===== README =====

def ladder_elo(a, rung):
    return sl.ladder_games(at_root(a.ladder))[4][rung]


def vs(d, lo, hi, unit="Elo", nd=0):
    """'+X [lo, hi] UNIT (above|below|indistinguishable)'."""
    word = "above" if lo > 0 else "below" if hi < 0 else "indistinguishable"
    return f"{d:+.{nd}f} [{lo:+.{nd}f}, {hi:+.{nd}f}] {unit} ({word})"


def sc(s, lo, hi):
    return f"{s:.3f} [{lo:.3f}, {hi:.3f}]"


def closest(by, col):
    """' (closest: ARM d [lo, hi] Elo, WORD)' for the arm with the highest col."""
    k = by[col].idxmax()
    r = by.loc[k]
    return f" (closest: {label(k)} {vs(r[col], r[col + '_lo'], r[col + '_hi'])})"


def champ_line(a, cj):
    """The champions' fresh scores against the hand-tuned weights."""
    if not cj:
        return ""
    above = [e for e in cj if e["score_lo"] > 0.5]
    return (f"The champions (each arm's best seed) in fresh matches of {cj[0]['games']} games against "
            f"`ab:depth={a.depth},features=positional`: "
            + ", ".join(f"{label(e['arm'])} {sc(e['score'], e['score_lo'], e['score_hi'])}" for e in cj)
            + f"; above 0.5: {', '.join(label(e['arm']) for e in above) if above else 'none'}.")


def curve_change(a, cb):
    """Each arm's median Elo at the first and the last checkpoint."""
    out = []
    for k in ARMS:
        v = cb[cb.arm == k].set_index("games")
        if a.checkpoints[0] in v.index and a.checkpoints[-1] in v.index:
            m0, m1 = v.loc[a.checkpoints[0], "median"], v.loc[a.checkpoints[-1], "median"]
            out.append(f"{label(k)} {f0(m0)} to {f0(m1)} ({m1 - m0:+.0f})")
    return out


def missing_lines(a, s, cj, hh):
    out = []
    for k in ARMS:
        n = int(s[s.arm == k].seeds.iloc[0]) if k in set(s.arm) else 0
        if n < a.seeds:
            out.append(f"- {label(k)}: {n} of {a.seeds} seeds have every final measure.")
    have = {e["arm"] for e in cj}
    for k in ARMS:
        if k not in have:
            out.append(f"- {label(k)}: no champion measured (no champions.json entry, head-to-head or grade against depth).")
    if len(hh) == 0 or "hand" not in set(hh.arm):
        out.append("- the hand-tuned weights' own head-to-head (depth "
                   f"{a.h2h_d} against {a.h2h_d + 2}) was not played.")
    return out


def answer(a, s, tst, best, cj, hh, gd, fin):
    by = s.set_index("arm")
    b = by.loc[best]
    L = ["## Answers", ""]
    # 1. strongest
    order = s.sort_values("elo_mean", ascending=False)
    t1 = tst[tst.measure == "elo"]
    sep = [r.arm for r in t1.itertuples() if r.diff_lo > 0 and r.p_holm < 0.05]
    ties = [r.arm for r in t1.itertuples() if r.arm not in sep]
    L.append(f"**Which representation and learner gives the strongest player for "
             f"{a.budget} self-play games?** "
             f"{label(best)}: mean ladder Elo at depth {a.depth} {f0(b.elo_mean)} "
             f"[{f0(b.elo_mean_lo)}, {f0(b.elo_mean_hi)}] over its {int(b.seeds)} seeds "
             f"(median {f0(b.elo_median)}, seeds {f0(b.elo_min)} to {f0(b.elo_max)}). "
             + (f"It is measurably above {', '.join(label(k) for k in sep)} "
                f"(Welch's interval of the difference of means above 0 and Mann-Whitney p < 0.05 "
                f"after Holm). " if sep else "")
             + (f"With {a.seeds} seeds, the two tests do not both separate it from "
                + ", ".join(f"{label(r.arm)} (difference {vs(r.diff, r.diff_lo, r.diff_hi)}, "
                            f"Mann-Whitney p = {r.p_holm:.3f} after Holm)"
                            for r in t1.itertuples() if r.arm in ties) + ". " if ties else "")
             + f"The order of the means at depth {a.depth}: "
             + ", ".join(f"{label(r.arm)} {f0(r.elo_mean)}" for r in order.itertuples())
             + f". At depth {a.deep} (the same weights searched deeper): "
             + ", ".join(f"{label(r.arm)} {f0(r.elo_deep_mean)}"
                         for r in s.sort_values("elo_deep_mean", ascending=False).itertuples())
             + f". The same games cost different CPU: training took {b.train_cpu_s_median:.1f} CPU s a run "
             "(median) for the strongest arm, "
             + ", ".join(f"{label(r.arm)} {r.train_cpu_s_median:.1f}" for r in s.itertuples() if r.arm != best)
             + ".")
    L.append("")
    # 2. against hand-tuned
    eq = [k for k in by.index if by.loc[k].elo_minus_hand_lo > 0]
    eqd = [k for k in by.index if by.loc[k].elo_deep_minus_hand_lo > 0]
    L.append(f"**Does any learned evaluation beat hand-tuned `positional` at equal depth?** "
             + (f"Yes at depth {a.depth}: " + ", ".join(
                 f"{label(k)} {vs(by.loc[k].elo_minus_hand, by.loc[k].elo_minus_hand_lo, by.loc[k].elo_minus_hand_hi)}"
                 for k in eq) if eq else f"No arm's mean is above the {hand_rung(a.depth)} rung at depth {a.depth}")
             + f" (the mean Elo of an arm's seeds minus the ladder's {hand_rung(a.depth)}, joint fit). "
             + (f"At depth {a.deep}: " + ", ".join(
                 f"{label(k)} {vs(by.loc[k].elo_deep_minus_hand, by.loc[k].elo_deep_minus_hand_lo, by.loc[k].elo_deep_minus_hand_hi)}"
                 for k in eqd) if eqd else f"At depth {a.deep} no arm's mean is above {hand_rung(a.deep)}"
                 + closest(by, "elo_deep_minus_hand"))
             + ". " + champ_line(a, cj))
    L.append("")
    if len(hh):
        hhi = hh.set_index("arm")
        arms = [k for k in ARMS if k in hhi.index]
        bestk = max(arms, key=lambda k: hhi.loc[k].score)
        r = hhi.loc[bestk]
        beat = [k for k in arms if hhi.loc[k].score_lo > 0.5]
        line = (f"**And at two plies less?** The champions at depth {a.h2h_d} against "
                f"`ab:depth={a.h2h_d + 2},features=positional` ({a.h2h} games each): best "
                f"{label(bestk)} {sc(r.score, r.score_lo, r.score_hi)}; "
                + ("none scores above 0.5 (its interval)" if not beat else
                   "above 0.5: " + ", ".join(label(k) for k in beat))
                + "; " + ", ".join(f"{label(k)} {hhi.loc[k].score:.3f}" for k in arms) + ".")
        if "hand" in hhi.index:
            h = hhi.loc["hand"]
            line += (f" The hand-tuned weights themselves at depth {a.h2h_d} score "
                     f"{sc(h.score, h.score_lo, h.score_hi)} against depth {a.h2h_d + 2}.")
        L.append(line)
        L.append("")
    # 3. endgames
    hand_g = gd[(gd.arm == "hand") & (gd.depth == a.depth)]
    hl = (f"the {HAND} weights make {sc(hand_g.optimal.iloc[0], hand_g.optimal_lo.iloc[0], hand_g.optimal_hi.iloc[0])} "
          f"at depth {a.depth}") if len(hand_g) else ""
    L.append(f"**How close to perfect play in endgames?** Share of optimal moves on "
             f"{a.positions} positions of the {a.tbseeds}-seed database at depth {a.depth} "
             f"(mean over seeds, t interval): "
             + ", ".join(f"{label(k)} {sc(by.loc[k].end_optimal, by.loc[k].end_optimal_lo, by.loc[k].end_optimal_hi)}"
                         for k in by.index)
             + (f"; {hl} (intervals over the games the positions come from)." if hl else ".")
             + " The grade against depth (gdepth.csv, grade_vs_depth.png) follows each arm's"
             " champion and the hand-tuned weights from depth "
             f"{min(a.gdepths)} to {max(a.gdepths)}"
             + (f"; at depth {max(a.gdepths)}: " + ", ".join(
                 f"{HAND if r.arm == 'hand' else label(r.arm)} {sc(r.optimal, r.optimal_lo, r.optimal_hi)}"
                 for r in gd[gd.depth == max(a.gdepths)].itertuples()) if len(gd) else "")
             + ".")
    L.append("")
    return L


def readme(a, t, fin, s, tst, best, cb, hh, gd, cj, acct, runs):
    by = s.set_index("arm")
    L = sl.readme_start("# Representation against learner: positional, n-tuple and network "
                        "evaluations, evolved and learnt by TD (abapa)", a.quick)
    L += [
        f"Issue 22, item 6. Under Abapa rules, every run plays {a.budget} self-play games at "
        f"depth {a.depth}, {a.seeds} seeds an arm (experiment.seed 1..{a.seeds}), every seed "
        "reported. Six arms: the nine `positional` weights evolved by the GA and by CMA-ES; "
        f"the n-tuple network `{a.ntuple}` evolved by separable CMA-ES and learnt by "
        f"self-play TD-Leaf(λ); the network `{a.nnet}` evolved and learnt the same two ways. "
        "**Coevolutionary TD (evolution whose individuals also learn by TD) is not built in "
        "nickar, so it has no arm.** The plan and the costs measured before the run: "
        "[experiments/representation/PLAN.md](../../experiments/representation/PLAN.md).",
        "",
    ]
    miss = missing_lines(a, s, cj, hh)
    if miss:
        L += ["**Missing.** The full run did not complete every step; what is missing:", ""] + miss + [""]
    L += answer(a, s, tst, best, cj, hh, gd, fin)
    L += [
        f"**The budget's limits.** These answers hold for {a.budget} self-play games a run at "
        f"depth {a.depth} and these settings only: richer representations have more weights "
        "to place and may need more games than the linear set; the learners' settings were "
        "not tuned beyond a short pilot of the TD rate (PLAN.md); one n-tuple layout and one "
        f"network width were tried. With {a.seeds} seeds an arm, differences smaller than the "
        "spread between seeds are not resolved.",
        "",
        "## The arms after the whole budget",
        "",
        f"Ladder Elo (`nickar rate` on {a.ladder}, {a.rate} games a rung, refitted jointly "
        f"with the ladder's games): median over seeds with its order-statistic interval, "
        f"and the mean minus the hand-tuned rung of the same depth from one joint fit of "
        f"every final player (its interval includes the ladder's uncertainty). Score: "
        f"pooled over seeds against `ab:depth={a.depth},features=positional`, {a.match} "
        f"games a seed. Endgame: share of optimal moves at depth {a.depth}, mean over seeds "
        "with Student's t interval.",
        "",
        f"| arm | seeds | Elo d{a.depth} median [95%] | Elo d{a.depth} range | mean minus {hand_rung(a.depth)} [95%] "
        f"| Elo d{a.deep} median [95%] | mean minus {hand_rung(a.deep)} [95%] | W-D-L | W:D:L % | score [95%] "
        "| endgame optimal [95%] | training CPU s (median) |",
        "|---|---:|---|---|---|---|---|---|---|---|---|---:|",
    ]
    for r in s.itertuples():
        pct = ":".join(str(round(100 * x / (r.wins + r.draws + r.losses))) for x in (r.wins, r.draws, r.losses))
        L.append(f"| {r.label} | {r.seeds} | {sl.interval(r.elo_median, r.elo_median_lo, r.elo_median_hi)} | "
                 f"{f0(r.elo_min)}-{f0(r.elo_max)} | "
                 f"{sl.interval(r.elo_minus_hand, r.elo_minus_hand_lo, r.elo_minus_hand_hi)} | "
                 f"{sl.interval(r.elo_deep_median, r.elo_deep_median_lo, r.elo_deep_median_hi)} | "
                 f"{sl.interval(r.elo_deep_minus_hand, r.elo_deep_minus_hand_lo, r.elo_deep_minus_hand_hi)} | "
                 f"{r.wins}-{r.draws}-{r.losses} | {pct} | {r.score:.3f} [{r.score_lo:.3f}, {r.score_hi:.3f}] | "
                 f"{sl.interval(r.end_optimal, r.end_optimal_lo, r.end_optimal_hi, 3)} | "
                 f"{r.train_cpu_s_median:.1f} |")
    hg = gd[(gd.arm == "hand") & (gd.depth == a.depth)]
    L += [f"| {HAND} | - | {f0(ladder_elo(a, hand_rung(a.depth)))} (ladder file) | - | 0 | "
          f"{f0(ladder_elo(a, hand_rung(a.deep)))} (ladder file) | 0 | - | - | 0.5 (itself) | "
          + (sl.interval(hg.optimal.iloc[0], hg.optimal_lo.iloc[0], hg.optimal_hi.iloc[0], 3) if len(hg) else "-")
          + " | - |", ""]
    L += [f"Tests: the strongest arm at depth {a.depth} ({label(best)}) against each other "
          "arm over seeds (tests.csv): Mann-Whitney U (P(best > arm) = U / n m, exact p, Holm "
          "over the other arms within each measure) and the difference of means with "
          "Welch's interval:", "",
          "| measure | arm | P(best > arm) | p | p (Holm) | difference of means [95%] |",
          "|---|---|---:|---:|---:|---|"]
    mname = {"elo": f"Elo at depth {a.depth}", "elo_deep": f"Elo at depth {a.deep}",
             "end_optimal": "endgame share optimal"}
    for r in tst.itertuples():
        nd = 3 if r.measure == "end_optimal" else 0
        L.append(f"| {mname[r.measure]} | {label(r.arm)} | {r.prob_best_above:.2f} | {r.p:.4f} | "
                 f"{r.p_holm:.4f} | {sl.interval(r.diff, r.diff_lo, r.diff_hi, nd)} |")
    L += ["", f"![Elo at depth {a.depth} against depth {a.deep}](elo_depths.png)", "",
          "Every final player (final.csv; Elo with its 95% rating interval, endgame share "
          "optimal with `nickar grade`'s interval over games):", "",
          f"| arm | seed | Elo d{a.depth} [95%] | Elo d{a.deep} [95%] | W-D-L | W:D:L % | score [95%] | endgame optimal [95%] | training CPU s |",
          "|---|---:|---|---|---|---|---|---|---:|"]
    for r in fin.itertuples():
        pct = ":".join(str(round(100 * x / (r.wins + r.draws + r.losses))) for x in (r.wins, r.draws, r.losses))
        L.append(f"| {label(r.arm)} | {r.seed} | {sl.interval(r.elo, r.elo_lo, r.elo_hi)} | "
                 f"{sl.interval(r.elo_deep, r.elo_deep_lo, r.elo_deep_hi)} | "
                 f"{r.wins}-{r.draws}-{r.losses} | {pct} | {r.score:.3f} [{r.score_lo:.3f}, {r.score_hi:.3f}] | "
                 f"{sl.interval(r.end_optimal, r.end_optimal_lo, r.end_optimal_hi, 3)} | {r.train_cpu_s:.1f} |")
    L += ["", "## Learning curves", "",
          f"Ladder Elo at depth {a.depth} of each run's player after "
          + ", ".join(str(c) for c in a.checkpoints)
          + " self-play games (the evolving arms' rank-0 champion of that generation, the TD "
          "arms' weights after it): median over seeds (curves.csv; players.csv has every "
          "rating).", "",
          "| arm | " + " | ".join(f"{c} games" for c in a.checkpoints) + " |",
          "|---|" + "---:|" * len(a.checkpoints)]
    for k in ARMS:
        v = cb[cb.arm == k].set_index("games")
        if len(v) == 0:
            continue
        L.append(f"| {label(k)} | " + " | ".join(
            f"{f0(v.loc[c, 'median'])} ({int(v.loc[c, 'n'])})" if c in v.index else "-"
            for c in a.checkpoints) + " |")
    ch = curve_change(a, cb)
    L += ["", "(In brackets: the seeds measured.) The median from the first checkpoint "
          f"({a.checkpoints[0]} games) to the last ({a.checkpoints[-1]}): " + "; ".join(ch) + "."
          if ch else "", "",
          "![learning curves](learning_curves.png)", ""]
    L += ["## Champions", "",
          "Each arm's final player with the highest `nickar rate` Elo at the training depth "
          "(selected on that rating, so its ladder Elo is optimistic); its weights are "
          "committed as `champion-ARM.txt`, and champions.json gives the spec to play it as "
          "given (`nickar match SPEC OPPONENT --variant abapa`). The scores below are from "
          "fresh matches (seed 2), not from the games it was chosen on.", "",
          f"| arm | seed | spec | against `ab:depth={a.depth},features=positional`: W-D-L | W:D:L % | score [95%] "
          f"| at depth {a.h2h_d} against `ab:depth={a.h2h_d + 2},features=positional`: W-D-L | W:D:L % | score [95%] |",
          "|---|---:|---|---|---|---|---|---|---|"]
    for e in cj:
        pct = ":".join(str(round(100 * x / e["games"])) for x in (e["wins"], e["draws"], e["losses"]))
        h = e.get("h2h")
        hcell = "- | - | -"
        if h:
            hp = ":".join(str(round(100 * x / h["games"])) for x in (h["wins"], h["draws"], h["losses"]))
            hcell = f"{h['wins']}-{h['draws']}-{h['losses']} | {hp} | {h['score']:.3f} [{h['score_lo']:.3f}, {h['score_hi']:.3f}]"
        L.append(f"| {label(e['arm'])} | {e['seed']} | `{e['spec']}` | {e['wins']}-{e['draws']}-{e['losses']} | "
                 f"{pct} | {e['score']:.3f} [{e['score_lo']:.3f}, {e['score_hi']:.3f}] | {hcell} |")
    if len(hh) and "hand" in set(hh.arm):
        h = hh.set_index("arm").loc["hand"]
        hp = ":".join(str(round(100 * x / (h.wins + h.draws + h.losses))) for x in (h.wins, h.draws, h.losses))
        L.append(f"| {HAND} | - | `{h.spec}` | - | - | - | {h.wins}-{h.draws}-{h.losses} | {hp} | "
                 f"{h.score:.3f} [{h.score_lo:.3f}, {h.score_hi:.3f}] |")
    L += ["", "## Endgames against depth", "",
          f"Share of optimal moves of each champion and of the hand-tuned weights on the same "
          f"{a.positions} positions (`nickar grade --positions {a.positions} --seed 1 --reference "
          f"ab:depth={a.depth},features=positional`, inside the {a.tbseeds}-seed abapa database), "
          "at each depth, with `nickar grade`'s 95% interval over the games the positions come "
          "from (gdepth.csv):", "",
          "| player | " + " | ".join(f"depth {d}" for d in a.gdepths) + " |",
          "|---|" + "---|" * len(a.gdepths)]
    for k in ["hand"] + ARMS:
        v = gd[gd.arm == k].set_index("depth")
        if len(v) == 0:
            continue
        L.append(f"| {HAND if k == 'hand' else label(k)} | " + " | ".join(
            sl.interval(v.loc[d, "optimal"], v.loc[d, "optimal_lo"], v.loc[d, "optimal_hi"], 3)
            if d in v.index else "-" for d in a.gdepths) + " |")
    L += ["", "![grade against depth](grade_vs_depth.png)", "",
          "## The n-tuple weights", "",
          f"The two n-tuple champions' tables (`{a.ntuple}`: the store term, then twelve tables, "
          "one for each pair of neighbouring pits counted from the side to move, indexed by "
          "their capped seed counts). The evaluation adds the mover's view's entries and "
          "subtracts the opponent's (antisymmetric by construction).", "",
          "![n-tuple weights](ntuple_weights.png)", ""]
    L += protocol(a)
    L += compute(a, acct, runs)
    sl.write_lines(os.path.join(a.out, "README.md"), L)


def protocol(a):
    return [
        "## Protocol and controls", "",
        "| | what | why |", "|---|---|---|",
        f"| game and player | Abapa (tournament Oware), alpha-beta to depth {a.depth} in training | the depth of the shipped TD configs; the budget (PLAN.md) |",
        f"| equal budget | {a.budget} self-play games a run: GA and sep-CMA-ES {a.budget // 128} generations of 16 individuals x 4 opponents x 2 games; CMA-ES {a.budget // 80} generations of 10; TD {a.budget // a.tdgames} generations of {a.tdgames} games | games are the issue's unit; the CPU each cost is reported beside them (budget.csv) |",
        "| evolution | random-k 4 (each individual meets 4 others drawn at random, two games from 2-ply openings, 2/1/0), weights in [-1, 1]; GA: 16, elitism 1, tournament 3, BLX-0.5, Gaussian mutation 0.2/0.1; CMA-ES: lambda 10, mu 5, sigma0 0.3; sep-CMA-ES: lambda 16, mu 8, sigma0 0.3 | the strategies study's schedule and settings |",
        f"| TD | `nickar learn`: TD-Leaf(λ), λ 0.7, ε 0.1, 2 opening plies, tanh(eval / 10), batches of 8, rate {a.alpha_ntuple} (n-tuple) and {a.alpha_nnet} (network), from the family's defaults (store term 1: `material`) | Baxter, Tridgell & Weaver; the rate from a pilot (PLAN.md) |",
        f"| representations | `positional` (9 weights); `{a.ntuple}` (193 weights); `{a.nnet}` (129 weights); one layout and one width for both learners of a family | PLAN.md says why these |",
        f"| ladder Elo | `nickar rate` on {a.ladder}, {a.rate} games against each of its 16 rungs (colour-swapped pairs, 2-ply openings, seed 1), refitted jointly with the ladder's own games, at depth {a.depth} and at depth {a.deep} | as the other studies |",
        f"| score | `nickar match` against `ab:depth={a.depth},features=positional`, {a.match} games a seed (seed 1), champions afresh {a.champ} games (seed 2); {sl.SCORE_METHOD} | |",
        f"| endgame grade | `nickar grade --positions {a.positions} --seed 1 --reference ab:depth={a.depth},features=positional` on the {a.tbseeds}-seed database: the same positions for every player, from the hand-tuned searcher's games | no arm graded on its own games |",
        f"| head-to-head | each champion at depth {a.h2h_d} against `ab:depth={a.h2h_d + 2},features=positional`, {a.h2h} games (seed 2) | \"representation against depth\" |",
        "",
        "**Controls.** Within a family the two learners share the representation, the "
        "depth, the budget of games and the seeds; across families the evolving arms share "
        "the fitness schedule (the GA and sep-CMA-ES also the generation size). The TD "
        "arms' rate was chosen by a short pilot; the evolving arms' settings are the "
        "strategies study's, untuned here. Every player is measured against the same "
        "opponents and positions (seed 1).",
        "",
        "**Limits.** One variant, one training depth, one layout and one width; the "
        "budget is small for a network of 129 or 193 weights; the database covers the last "
        f"{a.tbseeds} seeds of a 48-seed game; strength is measured against fixed players "
        "(the ladder, the hand-tuned weights), not between the arms; the champions' ladder "
        "Elo is the maximum over seeds (optimistic), their scores are fresh. "
        "Coevolutionary TD is not built, so the literature's strongest learner is absent.",
        "",
    ]


def compute(a, acct, runs):
    cpu = acct.groupby("phase")["cpu_s"].sum()
    tr = acct[acct.phase == "train"].groupby("arm")["cpu_s"].sum()
    return [
        "## Compute", "",
        "Measured by run.sh (bash `times` and `date` around every step; compute.tsv, "
        "budget.csv) on a shared 2-core VM, one thread, `nice -n 10`, with other jobs "
        f"running: {acct.wall_s.sum():.0f} s wall, {acct.cpu_s.sum():.0f} CPU seconds (user + "
        "system) in all: " + ", ".join(f"{p} {cpu[p]:.0f}" for p in cpu.index) + ". Training "
        "CPU by arm, all seeds: " + ", ".join(f"{label(k)} {tr[k]:.0f} s" for k in ARMS if k in tr.index)
        + f"; self-play games a run: {', '.join(sorted({str(x) for x in runs.selfplay_games}))}.",
        "",
        "## Rerun", "",
        "    cmake --preset release && cmake --build build -j2",
        "    THREADS=1 nice -n 10 experiments/representation/run.sh    # the study (writes results/representation/)",
        "    experiments/representation/run.sh --quick                  # seconds: checks the script",
        "",
        "TB names the 15-seed database's directory (built when missing, seconds); SEEDS, "
        "BUDGET, CHECKPOINTS, DEPTH, DEEP, NTUPLE, NNET, RATE, MATCH, POSITIONS and GDEPTHS "
        "change the budget (run.sh's header). The configs: experiments/representation/"
        "common.ini, ga.ini, cma-es.ini, sep-cma-es.ini, td.ini.",
        "",
    ]


def write_results(a, s, tst, best, fin, cb, hh, gd, cj):
    sl.write_json(os.path.join(a.out, "results.json"), {
        "settings": {k: getattr(a, k) for k in a.keys},
        "hand": {"elo": ladder_elo(a, hand_rung(a.depth)), "elo_deep": ladder_elo(a, hand_rung(a.deep))},
        "best_arm": best,
        "summary": sl.records(s), "tests": sl.records(tst), "curves": sl.records(cb),
        "headtohead": sl.records(hh) if len(hh) else [], "gdepth": sl.records(gd),
        "champions": cj, "final": sl.records(fin)})


def report(src, into, plots):
    st = read_settings(src)
    a = sl.settings(src=src, into=into, out=into, keys=list(st), **st)
    acct = pd.read_csv(os.path.join(src, "compute.tsv"), sep="\t")
    runs = pd.read_csv(os.path.join(src, "runs.csv"))
    t, rates = players_table(a)
    gr = grades(a)
    ms = matches(a)
    fin = final_table(a, t, gr, ms, acct)
    fit = joint(a, fin, rates)
    s = summaries(a, fin, fit, ms)
    tst, best = tests(a, fin, s)
    c, cb = curves(a, t)
    hh, gd, cj = champions(a, ms, gr, fin)
    budget(a, runs, acct)
    write_results(a, s, tst, best, fin, cb, hh, gd, cj)
    if plots:
        plot_curves(a, c)
        plot_ntuple(a, cj)
        plot_gdepth(a, gd)
        plot_depths(a, fin)
    readme(a, t, fin, s, tst, best, cb, hh, gd, cj, acct, runs)


def main(argv):
    c = sl.committed(argv)
    if c:
        report(*c)
        return
    if len(argv) != 2:
        sys.exit("usage: report.py OUT | report.py --committed SRC [INTO]")
    load_runs(argv[1])
    report(argv[1], argv[1], plots=True)


if __name__ == "__main__":
    main(sys.argv)
