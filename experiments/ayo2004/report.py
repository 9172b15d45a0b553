#!/usr/bin/python3
"""report.py OUT SEEDS GAMES QUICK SECONDS D3 D5 D7 DKD GENS3 GENS5 RATE_GAMES
LADDER -- the ayo2004 study's report, in two steps:

1. from the run files that run.sh left in OUT (and the dk2002 runs of DKD):
   runs.json (the settings above and each champion's weights, fitness and
   generation) and the plots fitness.png, weights.png;
2. from the committed data alone (runs.json, ratings.jsonl, matches.jsonl,
   times.tsv, the dk2002 study's ratings.jsonl and matches.jsonl, the awari
   ladder): the tables (ratings.csv, matches.csv, summary.csv,
   weights_vs_published.csv, per_game.csv, results.json), elo.png and
   README.md.

    report.py --committed SRC [INTO]

runs step 2 alone: from the committed data in SRC (results/ayo2004) into
INTO (default SRC), without plots when INTO differs from SRC;
scripts/check-results.py uses it.  Paths in runs.json (the ladder, DKD) are
relative to the repository's root."""
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
f0, f1, f3 = sl.f0, sl.f1, sl.f3


# The paper's Tables 1 and 4, a1..a12 (src/search/features.c holds the same
# numbers as the built-in tables ayo2004-d3 and ayo2004-d5).
PUBLISHED = {
    "d3": [0.06, 0.20, 0.93, 0.93, 0.13, 0.87, 0.06, 0.93, 0.13, 0.60, 1.00, 0.67],
    "d5": [0.80, 1.00, 0.06, 0.00, 0.87, 0.60, 0.00, 0.20, 0.73, 0.93, 0.00, 0.80],
}
# The paper's Tables 2, 3 and 5: W:D:L % in 10 games against Awale's levels.
# Table 2 is Ayo at depth 3, Table 3 Davis & Kendall's player (depth 7),
# Table 5 Ayo at depth 5.
AWALE_LEVELS = ["Initiation", "Beginner", "Amateur", "Grand Master"]
AWALE = {
    "ayo12 d3": ["100:0:0", "50:50:0", "40:30:30", "0:0:100"],
    "ayo12 d5": ["100:0:0", "100:0:0", "70:10:20", "0:0:100"],
    "dk2002 d7": ["100:0:0", "100:0:0", "60:20:20", "0:0:100"],
}
TABLE_OF = {"ayo12 d3": "Table 2", "dk2002 d7": "Table 3", "ayo12 d5": "Table 5"}

# Where the paper's text and its tables disagree: (what, the text, the
# table, which one nickar uses).
CONTRADICTIONS = [
    ("Ayo at depth 3 against Awale's Initiation level",
     "the text says \"Awale won all the games\" (0:0:100)",
     "Table 2 shows Ayo winning all 10 (100:0:0)",
     "the table"),
    ("Ayo at depth 5 against the Amateur level",
     "the text says Ayo \"won 7, drew 1, lost 1\": 9 games, 78:11:11",
     "Table 5 gives 70:10:20 of 10 games",
     "the table"),
    ("Davis & Kendall's player against the Amateur level",
     "the text says it won 3-2: of 5 games, 60:0:40",
     "Table 3 gives 60:20:20",
     "both, side by side (results/davis-kendall-2002/)"),
    ("the weight of a1 (the opponent's pits that can capture 2) at depth 3",
     "the text gives 0.67",
     "Table 1 gives 0.06",
     "the table (src/search/features.c, ayo2004-d3)"),
]

# The paper's per-game statistics beside Awale's levels (issue 24, item 15:
# it gives the average seeds of each side at each level).  Not transcribed:
# the search this project has returns only the opening of each stored copy
# of the paper (the CEC 2004 text on studylib, the authors' pages ayo.html
# and ayo2.html); the furthest, ayo2.html, stops at the start of the results
# ("Ayo played 10 games at each level of the four ..."), so the per-level
# values were never read; fill in
# {player: {level: "Ayo:Awale seeds"}} from the paper to print them beside
# ours.
PAPER_PER_GAME = {}



def groups(a):
    """{the paper's name of a group: this run's} (the depths differ in a
    quick run): ayo12 d3, ayo12 d5, dk2002 d7."""
    return {"ayo12 d3": f"ayo12 d{a.d3}", "ayo12 d5": f"ayo12 d{a.d5}", "dk2002 d7": f"dk2002 d{a.d7}"}


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


def at_root(p):
    """A path of runs.json (relative to the repository's root) as a path."""
    return p if os.path.isabs(p) else os.path.join(ROOT, p)


def iv(t, fmt):
    """'m [lo, hi]' of a (m, lo, hi, ...) tuple."""
    return f"{fmt(t[0])} [{fmt(t[1])}, {fmt(t[2])}]"


def signed(t, nd=0):
    """'+d [lo, hi]' of a (d, lo, hi, ...) tuple."""
    return f"{t[0]:+.{nd}f} [{t[1]:+.{nd}f}, {t[2]:+.{nd}f}]"


# ===== step 1: the run files =====

def collect(a):
    """runs.json from the run files: the settings and every champion (this
    study's ayo12 runs and the dk2002 runs of DKD); returns the runs."""
    runs = {}
    for s in range(1, a.seeds + 1):
        runs[f"ayo12 d{a.d3} s{s}"] = na.read(os.path.join(a.out, f"run-ayo12-d3-s{s}.h5"))
        runs[f"ayo12 d{a.d5} s{s}"] = na.read(os.path.join(a.out, f"run-ayo12-d5-s{s}.h5"))
        runs[f"dk2002 d{a.d7} s{s}"] = na.read(os.path.join(a.dkd, f"run-dk2002-d{a.d7}-s{s}.h5"))
    champions = {t: {"fitness": r["champion"]["fitness"], "generation": r["champion"]["generation"],
                     "weights": dict(r["champion"]["weights"].items())}
                 for t, r in runs.items()}
    settings = {k: getattr(a, k) for k in ("seeds", "games", "quick", "seconds", "d3", "d5", "d7",
                                           "dkd", "gens3", "gens5", "rate_games", "ladder")}
    sl.write_json(os.path.join(a.out, "runs.json"), {
        "settings": settings,
        "dk_generations": int(len(runs[f"dk2002 d{a.d7} s1"]["stats"])),
        "champions": champions}, end="\n")
    return runs


def plot_fitness(a, runs):
    """fitness.png: the fitness of every run, by group."""
    plt = sl.pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    for ax, g in zip(axes, (f"ayo12 d{a.d3}", f"ayo12 d{a.d5}", f"dk2002 d{a.d7}")):
        tags = [t for t in runs if group(t) == g]
        na.plot_fitness([runs[t] for t in tags], ax, labels=[t.split()[-1] for t in tags])
        ax.set_title(g + (" (2/1/0 points a game, mean)" if g.startswith("ayo") else
                          " (round robin: the mean is always 1)"))
    sl.save(fig, os.path.join(a.out, "fitness.png"), dpi=80)


def plot_weights(a, runs):
    """weights.png: the evolved ayo12 weights beside the published ones."""
    plt = sl.pyplot()
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


# ===== step 2: the committed data =====

def load_settings(src, into):
    """The settings and champions of runs.json in SRC, as one object."""
    with open(os.path.join(src, "runs.json")) as f:
        r = json.load(f)
    s = r["settings"]
    a = sl.settings(src=src, into=into, champions=r["champions"], dk_gens=r["dk_generations"], **s)
    a.dk_own = os.path.abspath(at_root(a.dkd)) == os.path.abspath(src)
    return a


def ratings_table(a):
    """The ladder ratings (with the dk2002 ones of DKD), labelled and grouped,
    the rungs each beat and lost to, and one joint fit of the ladder's games
    with every rated player's; writes ratings.csv."""
    objs = na.read_jsonl(os.path.join(a.src, "ratings.jsonl"))
    if not a.dk_own:
        objs += [o for o in na.read_jsonl(os.path.join(at_root(a.dkd), "ratings.jsonl"))
                 if "features=dk2002" in o["player"]]
    ratings = na.rating_table(objs)
    ratings.insert(0, "label", [label(p) for p in ratings["player"]])
    ratings.insert(1, "group", [group(x) for x in ratings["label"]])
    ratings["best_rung_beaten"] = [rungs(o)[0] for o in objs]
    ratings["weakest_rung_lost_to"] = [rungs(o)[1] for o in objs]
    fit = sl.joint_fit(at_root(a.ladder), {label(o["player"]): o["opponents"] for o in objs})
    rdiff = rung_diffs(a, objs)
    ratings["minus_material"] = [rdiff[x][0] if x in rdiff else None for x in ratings["label"]]
    ratings["minus_material_lo"] = [rdiff[x][1] if x in rdiff else None for x in ratings["label"]]
    ratings["minus_material_hi"] = [rdiff[x][2] if x in rdiff else None for x in ratings["label"]]
    ratings["joint_elo"] = [fit.elo_of(x) for x in ratings["label"]]
    ratings["joint_se"] = [fit.se_of(x) for x in ratings["label"]]
    ratings.to_csv(os.path.join(a.into, "ratings.csv"), index=False)
    return ratings, fit, rdiff


def matches_table(a):
    """The matches (with the dk2002 ones of DKD), labelled, with the score's
    interval from the pairs; writes matches.csv."""
    mobjs = na.read_jsonl(os.path.join(a.src, "matches.jsonl"))
    if not a.dk_own:  # the davis-kendall-2002 study's own matches of its champions
        mobjs += [o for o in na.read_jsonl(os.path.join(at_root(a.dkd), "matches.jsonl"))
                  if "features=dk2002" in o["a"]]
    matches = na.match_table(mobjs)
    matches.insert(0, "a_label", [label(x) for x in matches["a"]])
    matches.insert(1, "b_label", [label(x) for x in matches["b"]])
    ps = [sl.pair_score(o["wins"], o["draws"], o["losses"], o.get("pentanomial")) for o in mobjs]
    matches["score_lo"] = [p[1] for p in ps]
    matches["score_hi"] = [p[2] for p in ps]
    matches["pentanomial"] = [" ".join(str(x) for x in o.get("pentanomial", [])) for o in mobjs]
    matches["plies"] = [o.get("plies") for o in mobjs]
    matches["seed_diff"] = [o.get("seed_diff") for o in mobjs]
    matches["wdl_percent"] = [na.wdl_percent(m.wins, m.draws, m.losses)
                              for m in matches.itertuples()]
    matches.to_csv(os.path.join(a.into, "matches.csv"), index=False)
    return matches, mobjs


def pooled(matches, mobjs, mask):
    """The matches under mask pooled as one sample of pairs: W, D, L and
    the pair_score tuple."""
    sel = [o for o, k in zip(mobjs, mask) if k]
    w, d, l_, pent = sl.pooled_pairs(sel)
    return w, d, l_, sl.pair_score(w, d, l_, pent)


def summaries(a, matches, mobjs, ratings):
    """Elo over seeds (t) and the scores of each group pooled over its
    seeds' pairs; the pooled head-to-head score; writes summary.csv."""
    summary = []
    for g in (f"ayo12 d{a.d3}", f"ayo12 d{a.d5}", f"dk2002 d{a.d7}"):
        part = ratings[ratings["group"] == g]
        n, m, lo, hi = na.seed_summary(part["elo"])
        summary.append({"player": g, "measure": "ladder Elo", "seeds": n,
                        "mean": m, "lo": lo, "hi": hi})
        depth = g.split(" d")[1]
        for opp in (f"ab:depth={depth},features=material", "greedy"):
            mask = ((matches["a_label"].map(group) == g) & (matches["b"] == opp)
                    & matches["a_label"].str.contains(r" s\d+$"))
            w, d, l_, ps = pooled(matches, mobjs, mask)
            sc = matches[mask]["score"]
            summary.append({"player": g, "measure": f"score vs {label(opp)}", "seeds": int(mask.sum()),
                            "mean": ps[0], "lo": ps[1], "hi": ps[2], "min": float(sc.min()),
                            "max": float(sc.max()), "wins": w, "draws": d, "losses": l_})
    mask = ((matches["a_label"].map(group) == f"ayo12 d{a.d5}")
            & (matches["b_label"].map(group) == f"dk2002 d{a.d7}"))
    h2h = matches[mask]
    w, d, l_, ps = pooled(matches, mobjs, mask)
    summary.append({"player": f"ayo12 d{a.d5}", "measure": f"score vs dk2002 d{a.d7} (same seed)",
                    "seeds": int(mask.sum()), "mean": ps[0], "lo": ps[1], "hi": ps[2],
                    "min": float(h2h["score"].min()), "max": float(h2h["score"].max()),
                    "wins": w, "draws": d, "losses": l_})
    summary = pd.DataFrame(summary)
    summary.to_csv(os.path.join(a.into, "summary.csv"), index=False)
    return h2h, ps, summary


def comparisons(a, fit, ratings):
    """The differences the README compares, each from the joint fit's
    covariance (and, for the groups, Welch's t over the seeds): a dict."""
    G = groups(a)
    lab = {k: list(ratings[ratings["group"] == g]["label"]) for k, g in G.items()}
    el = {k: list(ratings[ratings["group"] == g]["elo"]) for k, g in G.items()}
    out = {}
    for x, y in (("ayo12 d5", "dk2002 d7"), ("dk2002 d7", "ayo12 d3"), ("ayo12 d5", "ayo12 d3")):
        joint = fit.mean_diff(lab[x], lab[y])
        welch = na.welch_interval(el[x], el[y])
        out[f"{G[x]} - {G[y]}"] = {"paper_name": f"{x} - {y}", "diff": joint[0], "lo": joint[1], "hi": joint[2], "se": joint[3],
                             "welch_diff": welch[0], "welch_lo": welch[1], "welch_hi": welch[2]}
    return out


def rung_diffs(a, objs):
    """Each rated player minus material at its depth, from the fit `nickar
    rate` makes (the ladder's games and that player's): {label: (d, lo, hi,
    se)}."""
    out = {}
    for o in objs:
        lab = label(o["player"])
        rung = f"material-d{lab.split(' d')[1].split()[0]}"
        fit = sl.rate_fit(at_root(a.ladder), o["opponents"])
        if rung in fit.index:
            out[lab] = fit.diff("@rated", rung)
    return out


def weights_vs_published(a):
    """Each evolved ayo12 champion against the paper's Tables 1 and 4 (Pearson
    r, mean |difference|); writes weights_vs_published.csv."""
    wcmp = []
    for d, tab in ((a.d3, "d3"), (a.d5, "d5")):
        pub = np.asarray(PUBLISHED[tab])
        for s in range(1, a.seeds + 1):
            w = np.asarray(list(a.champions[f"ayo12 d{d} s{s}"]["weights"].values()), float)
            r = float(np.corrcoef(w, pub)[0, 1]) if w.std() > 0 else float("nan")
            wcmp.append({"depth": int(d), "table": 1 if tab == "d3" else 4, "seed": s,
                         "pearson_r": r, "mean_abs_diff": float(np.abs(w - pub).mean())})
    wcmp = pd.DataFrame(wcmp)
    wcmp.to_csv(os.path.join(a.into, "weights_vs_published.csv"), index=False)
    wsum = {}
    for d in (a.d3, a.d5):
        part = wcmp[wcmp["depth"] == int(d)]
        wsum[d] = {"r": na.seed_summary(part["pearson_r"]),
                   "mad": na.seed_summary(part["mean_abs_diff"])}
    return wcmp, wsum


def side_seeds(src):
    """{(a, b): (A's mean seeds, B's mean seeds)} of the champions' matches
    played again with their records (per_game_seeds.csv, written by
    experiments/ayo2004/seeds.py), or {} without that file."""
    path = os.path.join(src, "per_game_seeds.csv")
    if not os.path.exists(path):
        return {}
    t = pd.read_csv(path)
    return {(r.a, r.b): (r.seeds_a, r.seeds_b) for r in t.itertuples()}


def per_game(a, matches):
    """Game length (plies), the seed margin per game (A's view) and, where
    seeds.py played the matches again, the seeds each side ends a game with,
    of each group's champions against each opponent, all seeds (the paper's
    per-game statistics, issue 24, item 15); writes per_game.csv."""
    rows, seeds = [], side_seeds(a.src)
    ev = matches[matches["a_label"].str.contains(r" s\d+$")]
    for (g, b), part in ev.groupby([ev["a_label"].map(group), ev["b_label"].map(group)], sort=False):
        n = part["games"].sum()
        row = {"player": g, "opponent": b, "games": int(n),
               "plies": float((part["plies"] * part["games"]).sum() / n),
               "seed_margin": float((part["seed_diff"] * part["games"]).sum() / n)}
        side = [seeds.get((x, y)) for x, y in zip(part["a"], part["b"])]
        if seeds and all(v is not None for v in side):
            for k, name in enumerate(("seeds_a", "seeds_b")):
                row[name] = float(sum(v[k] * m for v, m in zip(side, part["games"])) / n)
        rows.append(row)
    t = pd.DataFrame(rows)
    t.to_csv(os.path.join(a.into, "per_game.csv"), index=False)
    return t


def fitness_games(a):
    """Fitness games a run plays, from the configs' settings: the GA plays
    each of its 50 members against the 10 of the fitness set twice (a
    member of the set does not play itself); the (3+6)-ES plays a round
    robin of its 9, two games a pair."""
    return {"ayo12": {a.d3: a.gens3 * (50 * 10 * 2 - 10 * 2), a.d5: a.gens5 * (50 * 10 * 2 - 10 * 2)},
            "dk2002": a.dk_gens * 9 * 8}


def write_results(a, matches, pooled_h2h, ratings, summary, wcmp, comp, rdiff, pg):
    """results.json: the settings, the compute and every number."""
    times = na.times_table(os.path.join(a.src, "times.tsv"))
    dk_times = na.times_table(os.path.join(at_root(a.dkd), "times.tsv")) if not a.dk_own else None
    wall, cpu = float(times["wall"].sum()), float(times["cpu"].sum())
    sl.write_json(os.path.join(a.into, "results.json"), {
        "quick": a.quick, "seeds": a.seeds, "games_per_match": a.games,
        "rate_games_per_rung": a.rate_games, "ladder": a.ladder,
        "depths": {"d3": a.d3, "d5": a.d5, "d7": a.d7},
        "generations": {"d3": a.gens3, "d5": a.gens5, "d7": a.dk_gens},
        "dk2002_runs_from": a.dkd, "seconds": a.seconds,
        "compute": {"wall_s": wall, "cpu_s": cpu, "steps": sl.records(times)},
        "published": PUBLISHED, "awale": AWALE, "awale_tables": TABLE_OF,
        "contradictions": [dict(zip(("what", "text", "table", "used"), c)) for c in CONTRADICTIONS],
        "champions": a.champions,
        "weights_vs_published": sl.records(wcmp),
        "ratings": sl.records(ratings),
        "minus_material_same_depth": {k: {"diff": v[0], "lo": v[1], "hi": v[2], "se": v[3]}
                                      for k, v in rdiff.items()},
        "group_differences": comp,
        "matches": sl.records(matches),
        "summary": sl.records(summary),
        "per_game": sl.records(pg),
        "fitness_games_per_run": {k: ({str(d): n for d, n in v.items()} if isinstance(v, dict) else v)
                                  for k, v in fitness_games(a).items()},
        "head_to_head_pooled": {"score": pooled_h2h[0], "lo": pooled_h2h[1], "hi": pooled_h2h[2]}
    }, end="")
    return cpu, dk_times, times, wall


def plot_elo(a, ratings):
    """elo.png: every player's ladder Elo against the ladder's rungs."""
    plt = sl.pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    order = ratings.sort_values("elo")
    y = range(len(order))
    ax.errorbar(order["elo"], list(y), xerr=[order["elo"] - order["elo_lo"],
                                            order["elo_hi"] - order["elo"]], fmt="o", capsize=3)
    ax.set_yticks(list(y))
    ax.set_yticklabels(order["label"], fontsize="small")
    ax.set_xlabel("Elo on the awari ladder (random = 0), 95% interval")
    for name, elo in na.read_ladder(at_root(a.ladder)).items():
        if name in ("greedy", "material-d3", "material-d5", "material-d7", "positional-d7"):
            ax.axvline(float(elo), color="grey", lw=0.6, ls="--")
            ax.text(float(elo), len(order) - 0.5, name, rotation=90, fontsize="x-small",
                    va="top", ha="right", color="grey")
    ax.set_title("ayo2004: every player rated on the awari reference ladder")
    sl.save(fig, os.path.join(a.into, "elo.png"), dpi=80)


def srow(summary, player, measure):
    """A summary row's mean and interval as the README writes them."""
    r = summary[(summary["player"] == player) & (summary["measure"] == measure)].iloc[0]
    fmt = f1 if measure == "ladder Elo" else f3
    return f"{fmt(r['mean'])} [{fmt(r['lo'])}, {fmt(r['hi'])}]"


def mrow(m):
    """A match as a row of the README's tables."""
    return (f"| {m.a_label} | {m.b_label} | {m.wins}-{m.draws}-{m.losses} | {m.wdl_percent} | "
            f"{f3(m.score)} [{f3(m.score_lo)}, {f3(m.score_hi)}] |")


def readme_protocol(a):
    """README.md's question and protocol."""
    fg = fitness_games(a)
    return sl.readme_start("# ayo2004: Ayo (Daoud, Kharma, Haidar & Popoola, CEC 2004) reproduced",
                           a.quick) + [
        "## The question",
        "",
        "Does the paper's GA, with its twelve terms, evolve players as strong as",
        "the paper reports, and do its depth-5 players beat Davis & Kendall's",
        "depth-7 players, as the paper reports?  The paper reads that result as",
        "better features trumping deeper search; the head-to-head section below",
        "says what our match can and cannot say about that reading.",
        "",
        "## Protocol",
        "",
        "| | paper | ours | why they differ |",
        "|---|---|---|---|",
        "| rules | Awari: 48 seeds, 25 to win, North first, origin pit skipped, captures of 2-3 chained backwards, a grand slam captures | `awari` (docs/rules.md; Abapa where the paper is silent) | - |",
        "| evaluation | Eq. 1, f = sum w_i a_i, w_i in [0, 1], from Ayo's fixed view | `ayo12`: the same counts, each given a sign (below) | Eq. 1 as printed is `ayo12-literal`, rated below |",
        "| signs of the terms | the text reads a1/a2 (\"affect Ayo's ability to be defeated\"), a11 (the opponent's empty pits: where captures start) and a12 (its own: its defence) by meaning; Eq. 1 prints every term with a plus | a1, a2, a12 negative and a11 positive: **the paper's** reading; a5 (the opponent's pits that reach the other side), a7 (its pits above 12 seeds) and a9 (its score) negative: **nickar's inference**, by symmetry with a6, a8 and a10, which the paper describes as Ayo's assets | the paper gives no sign for a5, a7, a9 |",
        f"| search | plain minimax from Ayo's view, depth 3 and 5 | alpha-beta, `view=root`, depth {a.d3} and {a.d5} | alpha-beta returns minimax's value |",
        "| GA | 48-bit chromosomes, population 50, fitness set of 10 (2 games each, 2/1/0), elitism 10%, roulette pool 90%, one-point crossover 0.5, bit-flip 0.001 | the same (configs/ayo2004.ini) | fitness is the mean per game (a fitness-set member cannot play itself: 18 games, not 20) |",
        "| openings of the fitness games | not stated | none: each meeting's two games start from the initial position (configs/ayo2004.ini) | **ours**: the players are deterministic, so each meeting's two games are fixed by the two chromosomes |",
        f"| generations | 100 | **{a.gens3}** at depth {a.d3}, **{a.gens5}** at depth {a.d5} | "
        + ("the CPU budget (about 3,000 CPU-s for this study and davis-kendall-2002 together on a shared 2-core machine)"
           if min(a.gens3, a.gens5) < 100 else "-") + " |",
        f"| runs | one per depth | {a.seeds} seeds per depth (1..{a.seeds}), every one reported | |",
        f"| Davis & Kendall's player | ES, all-play-all, 250 generations, depth 7 | the champions of results/davis-kendall-2002/ ({a.dk_gens} generations of a (3+6)-ES; "
        + ("read from that study's directory" if not a.dk_own else "evolved by this script") + ") | their population and ES settings are unknown; the budget (see that README) |",
        f"| fitness games a run | not stated | ayo12: {fg['ayo12'][a.d5]:,} (GA, {a.gens5} generations of 980); dk2002: {fg['dk2002']:,} ({a.dk_gens} generations of 72) | follows from the two protocols |",
        f"| yardstick | Awale's levels, 10 games each | the awari reference ladder (`nickar rate`, {a.rate_games} games against each of its 16 players); `material` and `greedy` at equal depth | Awale is not available |",
        f"| games | 10 per level | {a.games} per match, colour-swapped pairs from random 2-ply openings, seed 1 | |",
        "",
    ]


def readme_contradictions():
    """README.md's list of the paper's self-contradictions."""
    lines = [
        "## Where the paper contradicts itself",
        "",
        "The paper's text and its tables disagree four times; this README quotes",
        "the tables, and these are the text's values beside them:",
        "",
        "| what | the paper's text | the paper's table | nickar uses |",
        "|---|---|---|---|",
    ]
    lines += [f"| {w} | {t} | {tb} | {u} |" for w, t, tb, u in CONTRADICTIONS]
    return lines + [
        "",
        "Sources: the a1 row was read in the paper's own text (section III.A, \"the",
        "numbers of pits that the opponent can use to capture 2 or 3 seeds are",
        "assigned 0.67 and 0.20 weights\"; the same paragraph gives a12 0.67, a6",
        "0.87, a9 0.13 and a10 0.6, as Table 1 does); the other three rows are",
        "the paper's text as issue 24 quotes it, the results pages of the paper",
        "not having been readable when this report was written.",
        "",
    ]


def readme_ratings(a, lines, ratings, rdiff):
    """README.md's ladder ratings and their reading."""
    lad = na.read_ladder(at_root(a.ladder))
    eg, eg_first = sl.endgame_grades(a.src)
    lines += [
        "## Results",
        "",
        "### Ladder ratings",
        "",
        "Every champion (the best of the last generation) and the published weights",
        "(Table 1 at depth 3, Table 4 at depth 5) under every reading, `view=root`,",
        f"rated with `nickar rate --variant awari --games {a.rate_games}` against the",
        "awari ladder (results/ladder/awari.md: " + ", ".join(
            f"{n} {lad[n]:.0f}" for n in ("random", "greedy", "material-d3", "material-d5",
                                          "material-d7", "positional-d7") if n in lad) + ");",
        f"{sl.RATING_METHOD}; ratings.csv.",
        "'Minus material': the player's rating minus `material` at its depth, with",
        "the 95% interval of the difference from the covariance of the same fit",
        "(the anchor's error, shared by both ratings, cancels).  'Beats up to':",
        "the strongest ladder player it outscored; 'loses from': the weakest it",
        "scored under half against.",
        "",
        "| player | Elo | 95% interval | minus material, same depth [95%] | beats up to | loses from |"
        + (" endgame: optimal [95%] |" if eg_first else ""),
        "|---|---:|---|---|---|---|" + ("---|" if eg_first else ""),
    ]
    for r in ratings.itertuples():
        lines.append(f"| {r.label} | {f1(r.elo)} | [{f1(r.elo_lo)}, {f1(r.elo_hi)}]"
                     + (" (virtual draws)" if r.prior else "")
                     + f" | {signed(rdiff[r.label]) if r.label in rdiff else '-'}"
                     + f" | {r.best_rung_beaten or '-'} | {r.weakest_rung_lost_to or '-'} |"
                     + (f" {sl.endgame_cell(eg.get(r.label))} |" if eg_first else ""))
    if eg_first:
        lines += ["", sl.endgame_note(eg_first)]
    reading = []
    for g in groups(a).values():
        d = g.split(" d")[1]
        part = [x for x in ratings[ratings["group"] == g]["label"] if x in rdiff]
        if part:
            above = sum(1 for x in part if rdiff[x][1] > 0)
            below = sum(1 for x in part if rdiff[x][2] < 0)
            reading.append(f"- {g}: {above} of {len(part)} champions rate above `material-d{d}`, "
                           f"{below} below it, by a difference whose interval excludes 0.")
    for tab, d in (("Table 1", a.d3), ("Table 4", a.d5)):
        part = ratings[ratings["label"].str.startswith(tab + " ") & ratings["label"].str.endswith(f" d{d}")]
        if len(part):
            best = part.sort_values("elo", ascending=False)
            reading.append(f"- {tab} at depth {d}, by reading: " + ", ".join(
                f"{r.label.split()[2]} {r.elo:.0f} [{r.elo_lo:.0f}, {r.elo_hi:.0f}]"
                for r in best.itertuples()) + ".")
    return lines + ["", "Reading:", ""] + reading + ["", "![elo](elo.png)", ""]


def readme_seeds(a, lines, summary, comp):
    """README.md's summary over seeds and the group differences."""
    eg, eg_first = sl.endgame_grades(a.src)
    lines += [
        "### Over seeds",
        "",
        f"Ladder Elo: the mean over the {a.seeds} seeds with Student's t interval on",
        "the seeds' spread (it carries the run-to-run variation).  Scores: all",
        f"seeds' games pooled, {sl.SCORE_METHOD}; after the bar, the lowest and",
        "highest seed's score (summary.csv):",
        "",
        "| evolved player | ladder Elo | score vs material, equal depth | score vs greedy |"
        + (" endgame: optimal, mean over seeds [95% t] |" if eg_first else ""),
        "|---|---|---|---|" + ("---|" if eg_first else ""),
    ]
    for g in groups(a).values():
        d = g.split(" d")[1]
        cells = []
        for meas in (f"score vs material d{d}", "score vs greedy"):
            r = summary[(summary["player"] == g) & (summary["measure"] == meas)].iloc[0]
            cells.append(f"{srow(summary, g, meas)} \\| {f3(r['min'])}-{f3(r['max'])}")
        lines.append(f"| {g} | {srow(summary, g, 'ladder Elo')} | {cells[0]} | {cells[1]} |"
                     + (f" {sl.endgame_mean(v for k, v in eg.items() if group(k) == g)} |"
                        if eg_first else ""))
    lines += [
        "",
        "The differences between the groups' mean ratings, with two intervals: from",
        "the covariance of one joint fit of the ladder's games and every rated",
        "player's (the measurement error of the ten ratings, the shared anchor",
        "error cancelled; ratings.csv: joint_elo, joint_se) and Welch's t over",
        "the seeds' ratings (the run-to-run spread as well):",
        "",
        "| difference of mean ladder Elo | joint fit [95%] | Welch over seeds [95%] |",
        "|---|---|---|",
    ]
    for k, v in comp.items():
        lines.append(f"| {k} | {signed((v['diff'], v['lo'], v['hi']))} | "
                     f"{signed((v['welch_diff'], v['welch_lo'], v['welch_hi']))} |")
    return lines + [""]


def readme_matches(a, h2h, lines, matches, pooled_h2h, summary):
    """README.md's head-to-head match and what it shows, and the other
    matches."""
    hw, hd, hl = int(h2h["wins"].sum()), int(h2h["draws"].sum()), int(h2h["losses"].sum())
    above = int((h2h["score_lo"] > 0.5).sum())
    lines += [
        "### The paper's result, head to head",
        "",
        f"Evolved `ayo12` at depth {a.d5} against evolved `dk2002` at depth {a.d7}, seed",
        f"against seed ({a.games} games each; score from the ayo12 player's view;",
        f"{sl.SCORE_METHOD}):",
        "",
        "| A | B | W-D-L | W:D:L % | score [95%] |",
        "|---|---|---|---|---|",
    ]
    lines += [mrow(m) for m in h2h.itertuples()]
    if pooled_h2h[1] > 0.5:
        verdict = (f"The depth-{a.d5} ayo12 champions outscore the depth-{a.d7} dk2002 champions: "
                   "the pooled interval lies above 0.5")
    elif pooled_h2h[2] < 0.5:
        verdict = (f"The depth-{a.d7} dk2002 champions outscore the depth-{a.d5} ayo12 champions: "
                   "the pooled interval lies below 0.5")
    else:
        verdict = "Neither side outscores the other: the pooled interval contains 0.5"
    fg = fitness_games(a)
    lines += [
        f"| all | | {hw}-{hd}-{hl} | {na.wdl_percent(hw, hd, hl)} | {f3(pooled_h2h[0])} [{f3(pooled_h2h[1])}, {f3(pooled_h2h[2])}] (all pairs pooled) |",
        "",
        f"{verdict}, and {above} of {len(h2h)} pairs of seeds score above 0.5 by their own interval.",
        "",
        "What the match shows: these champions beat those.  What it does not",
        "separate: representation from depth.  The two arms differ in five ways",
        "besides the depth, any of which could carry the result:",
        "",
        "1. the features: ayo12's twelve terms against dk2002's six;",
        "2. the optimiser: a GA with a population of 50 against a (3+6)-ES;",
        f"3. the fitness games: {fg['ayo12'][a.d5]:,} a run against {fg['dk2002']:,};",
        "4. the weight range: [0, 1] in 4-bit steps against real weights in [-1, 1];",
        "5. the leaf view: Ayo's fixed view (`view=root`) against the side to move.",
        "",
        "So this is the paper's comparison reproduced, not a test of its reading",
        "(\"better representation trumps deeper search\"): that needs the arms",
        "equal in all but the features and the depth.",
        "",
    ]
    sec = controls_section(a.src)
    if sec:
        lines += [sec.rstrip("\n"), ""]
    lines += [
        "### Every match",
        "",
        f"Against `material` and `greedy` ({a.games} games; score from A's view;",
        f"{sl.SCORE_METHOD}; matches.csv and results.json):",
        "",
        "| A | B | W-D-L | W:D:L % | score [95%] |",
        "|---|---|---|---|---|",
    ]
    lines += [mrow(m) for m in matches.itertuples() if not (m.Index in h2h.index)]
    return lines


def controls_section(src):
    """The controls' section (experiments/ayo2004/controls.py, issue 24 items
    13-14: section(out_dir) -> markdown, or None without its data files)
    when the module exists; None otherwise."""
    path = os.path.join(HERE, "controls.py")
    if not os.path.exists(path):
        return None
    import importlib.util
    spec = importlib.util.spec_from_file_location("ayo2004_controls", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.section(src)


def readme_weights(a, lines, wsum):
    """README.md's evolved weights against the published ones."""
    return lines + [
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
    ]


def readme_paper(a, lines, summary, comp, pg):
    """README.md's comparison with the paper: its tables, its order, its
    per-game statistics."""
    lines += [
        "## Side by side with the paper (Tables 2, 3 and 5)",
        "",
        "The paper played 10 games against each level of the commercial program",
        "Awale (Table 2: Ayo at depth 3; Table 3: Davis & Kendall's player at",
        "depth 7; Table 5: Ayo at depth 5).  Awale is not available, so its levels",
        "cannot be placed on our scale and no cell below can be compared number",
        "for number.  The ladder stands in for the levels: the rating, and which",
        "fixed searchers the player beats, say how strong it is.",
        "",
        "| player | paper: Awale " + " / ".join(AWALE_LEVELS) + " (W:D:L %) | ours: ladder Elo, mean over seeds [95%] | ours vs material, equal depth (W:D:L %, all seeds) | ours vs greedy |",
        "|---|---|---|---|---|",
    ]
    for key, g in groups(a).items():
        d = g.split(" d")[1]
        rm = summary[(summary["player"] == g) & (summary["measure"] == f"score vs material d{d}")].iloc[0]
        rg = summary[(summary["player"] == g) & (summary["measure"] == "score vs greedy")].iloc[0]
        lines.append(f"| {g} ({TABLE_OF[key]}) | " + " / ".join(AWALE[key]) + f" | {srow(summary, g, 'ladder Elo')} | "
                     f"{na.wdl_percent(rm['wins'], rm['draws'], rm['losses'])} | "
                     f"{na.wdl_percent(rg['wins'], rg['draws'], rg['losses'])} |")
    el = {g: summary[(summary["player"] == g) & (summary["measure"] == "ladder Elo")].iloc[0]["mean"]
          for g in groups(a).values()}
    order_ours = " > ".join(g for g, _ in sorted(el.items(), key=lambda kv: -kv[1]))
    c73 = next(v for v in comp.values() if v["paper_name"] == "dk2002 d7 - ayo12 d3")
    lines += [
        "",
        "The order of the three.  The tables differ at Beginner (ayo12 d3 draws",
        "half its games, the other two win all) and at Amateur, where they put",
        "ayo12 d5 (70:10:20, Table 5) above Davis & Kendall's d7 (60:20:20,",
        "Table 3) above ayo12 d3 (40:30:30, Table 2).  The paper's own reading of",
        "depth 3 against Davis & Kendall's depth 7, as issue 24 quotes it (that",
        "page of the paper could not be read when this report was written), is",
        "that the two differ very little, depth 3 scoring more at Grand Master,",
        "where Tables 2 and 3 both show 0:0:100.",
        "On our ladder the order by mean Elo is " + order_ours + ", and",
        f"{groups(a)['dk2002 d7']} stands {c73['diff']:+.0f} Elo [{c73['lo']:+.0f}, {c73['hi']:+.0f}] (joint fit) "
        f"above {groups(a)['ayo12 d3']} ({c73['welch_diff']:+.0f} [{c73['welch_lo']:+.0f}, {c73['welch_hi']:+.0f}] over seeds):",
        ("a clear gap, against the paper's reading of a small one." if c73["lo"] > 0 and c73["welch_lo"] > 0
         else "the intervals do not settle the order."),
        ("The controls above play the two head to head." if controls_section(a.src) else
         "The two were not played head to head here (issue 24, item 13, adds that control)."),
        "",
        "### Game length and seeds",
        "",
        "The paper gives its players' average seeds per game at each level, the",
        "two sides' seeds A:B.  Ours, all seeds' games of each group's champions",
        "(per_game.csv): the mean game length in plies, the seeds each side",
        "holds at the end of a game, A:B, and their margin A - B.  matches.jsonl",
        "keeps only the margin, so experiments/ayo2004/seeds.py played each",
        "champion's match again with its records (per_game_seeds.csv): every one",
        "came out game for game as committed, or it would have stopped.",
        "",
        "| player | opponent | games | plies a game | seeds a game, A:B | margin a game (A - B) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in pg.itertuples():
        both = (f"{r.seeds_a:.1f}:{r.seeds_b:.1f}" if "seeds_a" in pg.columns
                and pd.notna(r.seeds_a) else "not played again")
        lines.append(f"| {r.player} | {r.opponent} | {r.games} | {f1(r.plies)} | {both} | "
                     f"{r.seed_margin:+.2f} |")
    lines += ["", ("The paper's values, for comparison: " + "; ".join(
        f"{p}: " + ", ".join(f"{lv} {v}" for lv, v in lvls.items()) for p, lvls in PAPER_PER_GAME.items())
        + ".") if PAPER_PER_GAME else
        "The paper's per-level seed averages (ten games at each of Awale's four "
        "levels) are not beside ours: the searchable copies of the paper end, "
        "at the furthest, at the opening of its results section, before those "
        "values, so they were never read (experiments/ayo2004/report.py: "
        "PAPER_PER_GAME).  Our games are against the ladder's players, not "
        "Awale's levels, so the two would not be the same measure in any case.", ""]
    return lines


def readme_end(a, cpu, dk_times, lines, times, wall):
    """README.md's compute and how to rerun; writes README.md."""
    lines += [
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
        "    experiments/ayo2004/controls.sh                  # the controls and learning curves",
        "    experiments/ayo2004/seeds.py                     # the seeds a side (per_game_seeds.csv)",
        "    experiments/ayo2004/report.py --committed results/ayo2004   # this README from the committed data",
        "",
        "Without DK_DIR the script evolves its own dk2002 champions (DK_GENS",
        "generations).  Run files (run-*.h5) are not committed; the runs are",
        "deterministic, so the same binary and settings give them back bit for bit.",
        "runs.json keeps what the report needs of them (the settings and the",
        "champions), so every table and this README are remade from the",
        "committed files alone; scripts/check-results.py checks that they are.",
        "",
    ]
    sl.write_lines(os.path.join(a.into, "README.md"), lines)


def report(src, into, plots):
    """Step 2: every table and README.md from the committed data of SRC,
    into INTO; elo.png too when plots."""
    a = load_settings(src, into)
    ratings, fit, rdiff = ratings_table(a)
    matches, mobjs = matches_table(a)
    h2h, pooled_h2h, summary = summaries(a, matches, mobjs, ratings)
    comp = comparisons(a, fit, ratings)
    wcmp, wsum = weights_vs_published(a)
    pg = per_game(a, matches)
    cpu, dk_times, times, wall = write_results(a, matches, pooled_h2h, ratings, summary, wcmp,
                                               comp, rdiff, pg)
    if plots:
        plot_elo(a, ratings)
    lines = readme_protocol(a)
    lines += readme_contradictions()
    lines = readme_ratings(a, lines, ratings, rdiff)
    lines = readme_seeds(a, lines, summary, comp)
    lines = readme_matches(a, h2h, lines, matches, pooled_h2h, summary)
    lines = readme_weights(a, lines, wsum)
    lines = readme_paper(a, lines, summary, comp, pg)
    readme_end(a, cpu, dk_times, lines, times, wall)


def main(argv):
    """report.py OUT SEEDS GAMES QUICK SECONDS D3 D5 D7 DKD GENS3 GENS5
    RATE_GAMES LADDER: every output; report.py --committed SRC [INTO]: step
    2 alone."""
    c = sl.committed(argv)
    if c:
        report(*c)
        return
    out, seeds, games, quick, seconds = (argv[1], int(argv[2]), int(argv[3]),
                                         argv[4] == "1", int(argv[5]))
    d3, d5, d7 = argv[6:9]
    dkd = argv[9]
    gens3, gens5, rate_games = int(argv[10]), int(argv[11]), int(argv[12])
    ladder = argv[13]
    a = sl.settings(out=out, seeds=seeds, games=games, quick=quick, seconds=seconds, d3=d3, d5=d5,
                    d7=d7, dkd=dkd, gens3=gens3, gens5=gens5, rate_games=rate_games, ladder=ladder)
    runs = collect(a)
    plot_fitness(a, runs)
    plot_weights(a, runs)
    report(out, out, plots=True)


if __name__ == "__main__":
    main(sys.argv)
