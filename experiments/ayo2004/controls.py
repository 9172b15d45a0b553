#!/usr/bin/python3
"""controls.py -- the controls and learning curves of the ayo2004 study
(issue 24, items 13 and 14); experiments/ayo2004/controls.sh runs it.

    controls.py weights AYO_RESULTS DK_RESULTS DIR SEEDS
        the committed champions' weights (ayo12 depth 3 of the ayo2004
        study, dk2002 depth 7 of davis-kendall-2002, from their
        results.json) as weights files DIR/ayo12-d3-sS.txt and
        DIR/dk2002-d7-sS.txt, one number a line, exact (repr);
    controls.py tables OUT SEEDS QUICK D3 D5 D7 GENS EVERY GAMES RATE_GAMES
                       AYO_RESULTS DK_RESULTS LADDER
        from what controls.sh left in OUT (the run files, the JSON lines of
        the ratings and matches, controls-times.tsv): curves.csv,
        controls.csv, controls.json, curves.png and the weights files of the
        dk2002 champions evolved by the GA.

``section(out_dir)`` is the markdown the study's README includes (report.py),
computed from the committed files alone (curves.csv, controls.csv,
controls.json); None when they are absent.
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import studylib as sl  # noqa: E402  (the studies' shared library)

na = sl.na
Z = 1.959963984540054


def weights_file(path, w):
    """Weights {name: value} as a weights file nickar reads (`weights=FILE`):
    one number a line, exact (repr), its name after '#'."""
    with open(path, "w") as f:
        f.write("".join(f"{float(v)!r}  # {k}\n" for k, v in w.items()))


def write_weights(ayo_results, dk_results, wdir, seeds):
    """The committed champions as weights files (see the module's help);
    2 with a line on stderr when a results.json lacks one."""
    try:
        ayo = json.load(open(ayo_results))["champions"]
        dk = json.load(open(dk_results))["champions"]
        ws = [(f"ayo12-d3-s{s}", ayo[f"ayo12 d3 s{s}"]["weights"]) for s in range(1, seeds + 1)]
        ws += [(f"dk2002-d7-s{s}", dk[f"s{s}"]["weights"]) for s in range(1, seeds + 1)]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"controls.py: the committed champions ({ayo_results}, {dk_results}): "
              f"{type(e).__name__} {e}", file=sys.stderr)
        return 2
    os.makedirs(wdir, exist_ok=True)
    for name, w in ws:
        weights_file(os.path.join(wdir, name + ".txt"), w)
    return 0


# ===== statistics =====

def pair_score(wins, draws, losses, pent):
    """(score, lo, hi) of a match from its colour-swapped pairs (pent[k]
    pairs scored k/4 from A's view), by the studies' one method
    (studylib.pair_score: Wilson's interval with the effective number of
    games from the pairs' variance)."""
    return tuple(sl.pair_score(wins, draws, losses, list(pent))[:3])


def elo_of(score):
    """The logistic Elo difference of an expected score (+-inf at 1 and 0)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


# ===== tables (controls.sh's last step) =====

BENCH = {"greedy": "greedy", "ab:depth=3,features=material": "material_d3",
         "ab:depth=3,features=ayo12,weights=ayo2004-d3": "table1_d3"}


def bench_name(spec):
    return BENCH.get(spec, "".join(c if c.isalnum() else "_" for c in spec))


def rate_rows(objs):
    """Wrapped `nickar rate --json` lines as dicts: the wrapper's members,
    elo, elo_lo, elo_hi (the joint fit's 95% interval), fixed_elo and
    fixed_se (the ladder held exact) and games."""
    rows = []
    for o in objs:
        r = o["rate"]
        row = {k: v for k, v in o.items() if k != "rate"}
        row.update({"player": r["player"], "games": r["games"], "elo": r["elo"],
                    "elo_lo": r["ci"][0], "elo_hi": r["ci"][1],
                    "fixed_elo": r.get("fixed_elo", r["elo"]), "fixed_se": r.get("fixed_se", r["se"])})
        rows.append(row)
    return rows


def committed_match(jsonl, run_name, b):
    """The committed match of the champion of run file run_name (as the
    study named it: ...run_name@best) against b, or None."""
    for o in na.read_jsonl(jsonl):
        if o["a"].endswith("/" + run_name + "@best") and o["b"] == b:
            return o
    return None


PARTS = ["check-ayo12-d3", "check-dk2002-d7", "d3-vs-d7", "ga-d3", "es-d3"]


def tables(args):
    """controls.py tables ...: see the module's help."""
    (out, seeds, quick, d3, d5, d7, gens, every, games, rate_games,
     ayo_results, dk_results, ladder) = args
    seeds, quick, gens, every = int(seeds), quick == "1", int(gens), int(every)
    import csv
    # Curves: the ladder ratings every EVERY generations and the run files'
    # benchmark and fitness at the same generations.
    curves = rate_rows(na.read_jsonl(os.path.join(out, "curves-ratings.jsonl")))
    curves.sort(key=lambda c: (c["depth"], c["seed"], c["generation"]))
    # Only the runs that were rated (a run still evolving in another shell,
    # PARTS, has no ratings yet and is left alone).
    runs, arrays = {}, {}
    for d, s in sorted({(c["depth"], c["seed"]) for c in curves}):
        tag = "d3" if str(d) == d3 else "d5"
        path = os.path.join(out, f"run-ayo12-{tag}-s{s}.h5")
        runs[(d, s)], arrays[(d, s)] = na.read(path), na.read_run_arrays(path)
    bench_cols = []
    for c in curves:
        run, arr = runs[(c["depth"], c["seed"])], arrays[(c["depth"], c["seed"])]
        # The champion rated (rank 0: the best fitness, ties by index, as
        # nickar orders them): its unique id and weights.
        fit = list(arr["fitness"][c["generation"] - 1])
        i = fit.index(max(fit))
        c["champion_id"] = int(arr["id"][c["generation"] - 1][i])
        c["weights"] = " ".join(f"{float(v):.6g}" for v in arr["genome"][c["generation"] - 1][i])
        st = run["stats"]
        row = st[st["generation"] == c["generation"] - 1].iloc[0]
        c["fitness_best"], c["fitness_mean"] = float(row["best"]), float(row["mean"])
        b = run["benchmark"]
        b = b[b["generation"] == c["generation"] - 1]
        for x in b.itertuples():
            name = "bench_" + bench_name(x.opponent)
            c[name] = float(x.score)
            if name not in bench_cols:
                bench_cols.append(name)
        c["bench_games"] = int(b["wins"].sum() + b["draws"].sum() + b["losses"].sum()) if len(b) else 0
    ccols = (["depth", "seed", "generation", "elo", "elo_lo", "elo_hi", "fixed_elo", "fixed_se",
              "games"] + bench_cols + ["bench_games", "fitness_best", "fitness_mean", "champion_id", "weights"])
    with open(os.path.join(out, "curves.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, ccols, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(curves)

    # The matches: the checks against the committed ones, 13(b), 13(a).
    ayo_dir, dk_dir = os.path.dirname(ayo_results), os.path.dirname(dk_results)
    mrows = []
    for o in na.read_jsonl(os.path.join(out, "controls-matches.jsonl")):
        m = o["match"]
        s, lo, hi = pair_score(m["wins"], m["draws"], m["losses"], m["pentanomial"])
        row = {"part": o["part"], "seed": o["seed"], "a": m["a"], "b": m["b"], "games": m["games"],
               "pairs": m["pairs"], "wins": m["wins"], "draws": m["draws"], "losses": m["losses"]}
        row.update({f"pairs_{k}": c for k, c in enumerate(m["pentanomial"])})
        row.update({"score": s, "score_lo": lo, "score_hi": hi, "elo": m["elo"],
                    "elo_lo": m["elo_ci"][0], "elo_hi": m["elo_ci"][1], "plies": m["plies"],
                    "committed_same": ""})
        if o["part"].startswith("check-"):
            if o["part"] == "check-ayo12-d3":
                c = committed_match(os.path.join(ayo_dir, "matches.jsonl"),
                                    f"run-ayo12-d3-s{o['seed']}.h5", m["b"])
            else:
                c = committed_match(os.path.join(dk_dir, "matches.jsonl"),
                                    f"run-dk2002-d{d7}-s{o['seed']}.h5", m["b"])
            if c is not None:
                keys = ("games", "wins", "draws", "losses", "pentanomial", "plies", "reasons")
                row["committed_same"] = int(all(c.get(k) == m.get(k) for k in keys))
        mrows.append(row)
    # One order whatever order the parts ran in (PARTS, SEED_LIST).
    mrows.sort(key=lambda r: (PARTS.index(r["part"]) if r["part"] in PARTS else len(PARTS),
                              r["part"], r["seed"]))
    mcols = list(mrows[0]) if mrows else []
    with open(os.path.join(out, "controls.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, mcols, lineterminator="\n")
        w.writeheader()
        w.writerows(mrows)

    # The ladder ratings of 13(a): dk2002 evolved by the GA, and the ayo12
    # champions of the same runs as the curves' last point.
    ratings = rate_rows(na.read_jsonl(os.path.join(out, "controls-ratings.jsonl")))
    for c in curves:
        if c["depth"] == int(d3) and c["generation"] == gens:
            ratings.append({"part": "ga-d3", "features": "ayo12", "seed": c["seed"],
                            **{k: c[k] for k in ("player", "games", "elo", "elo_lo", "elo_hi",
                                                 "fixed_elo", "fixed_se")}})
    ratings.sort(key=lambda r: (r["features"], r["seed"]))

    # The champions: the dk2002 ones the GA evolved (also as weights files),
    # and the ayo12 ones evolved again, against the committed weights and
    # ladder ratings.
    champions = {}
    for s in sorted(x["seed"] for x in ratings if x["features"] == "dk2002"):
        run = na.read(os.path.join(out, f"run-dk2002ga-d3-s{s}.h5"))
        w = run["champion"]["weights"]
        champions[f"dk2002 ga d{d3} s{s}"] = {"fitness": run["champion"]["fitness"],
                                               "fitness_games": int(run["stats"]["games"].sum()),
                                               "weights": {k: float(v) for k, v in w.items()}}
        weights_file(os.path.join(out, "controls-weights", f"dk2002ga-d3-s{s}.txt"), w)
    committed = json.load(open(ayo_results))
    cw = committed.get("champions", {})
    cr = {o["player"]: o for o in na.read_jsonl(os.path.join(ayo_dir, "ratings.jsonl"))}
    regenerated = []
    for (d, s), run in sorted(runs.items()):
        tag = "d3" if str(d) == d3 else "d5"
        w = {k: float(v) for k, v in run["champion"]["weights"].items()}
        c = cw.get(f"ayo12 d{d} s{s}")
        last = [x for x in curves if x["depth"] == d and x["seed"] == s and x["generation"] == gens]
        spec = f"ab:depth={d},features=ayo12,view=root,weights=results/ayo2004/run-ayo12-{tag}-s{s}.h5@best"
        if not last:
            continue
        regenerated.append({
            "run": f"ayo12 d{d} s{s}", "weights": w, "fitness_games": int(run["stats"]["games"].sum()),
            "weights_same": None if c is None else int(c["weights"] == w),
            "elo": last[0]["elo"],
            "committed_elo": cr[spec]["elo"] if spec in cr else None})
    times = na.times_table(os.path.join(out, "controls-times.tsv"))
    parts = {}
    for t in times.itertuples():
        p = t.label.split()
        key = ("evolve " + p[1].rsplit("-s", 1)[0].replace("run-", "") if p[0] == "evolve"
               else " ".join(p[:3]) if p[:2] == ["rate", "curve"] else " ".join(p[:2]))
        parts.setdefault(key, [0.0, 0.0])
        parts[key][0] += t.wall
        parts[key][1] += t.cpu
    sl.write_json(os.path.join(out, "controls.json"), {
        "quick": quick, "seeds": seeds, "depths": {"d3": int(d3), "d5": int(d5), "d7": int(d7)},
        "generations": gens, "every": every, "games_per_match": int(games),
        "rate_games_per_rung": int(rate_games), "ladder": ladder,
        "compute": {"wall_s": float(times["wall"].sum()), "cpu_s": float(times["cpu"].sum()),
                    "parts": {k: {"wall_s": round(v[0], 2), "cpu_s": round(v[1], 2)}
                              for k, v in parts.items()}},
        "ratings": ratings, "champions": champions, "regenerated": regenerated}, end="\n")
    plot_curves(out, curves, bench_cols, int(d3), int(d5), na.read_ladder(ladder))
    return 0


def plot_curves(out, curves, bench_cols, d3, d5, ladder):
    """curves.png: the ladder Elo of each run's champion every EVERY
    generations (top) and its benchmark score (bottom), by depth."""
    plt = sl.pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(13, 8), sharex=True)
    for col, d in enumerate((d3, d5)):
        seeds = sorted({c["seed"] for c in curves if c["depth"] == d})
        for s in seeds:
            pts = sorted((c for c in curves if c["depth"] == d and c["seed"] == s),
                         key=lambda c: c["generation"])
            g = [c["generation"] for c in pts]
            axes[0][col].errorbar(g, [c["elo"] for c in pts], fmt="o-", ms=3, capsize=2, alpha=0.7,
                                  yerr=[[c["elo"] - c["elo_lo"] for c in pts],
                                        [c["elo_hi"] - c["elo"] for c in pts]], label=f"seed {s}")
            if bench_cols:
                axes[1][col].plot(g, [sum(c.get(b, math.nan) for b in bench_cols) / len(bench_cols)
                                      for c in pts], "o-", ms=3, alpha=0.7, label=f"seed {s}")
        if seeds:
            gs = sorted({c["generation"] for c in curves if c["depth"] == d})
            mean = [sum(c["elo"] for c in curves if c["depth"] == d and c["generation"] == g)
                    / max(1, sum(1 for c in curves if c["depth"] == d and c["generation"] == g)) for g in gs]
            axes[0][col].plot(gs, mean, "k-", lw=2.5, label="mean over seeds")
        for name, elo in ladder.items():
            if name in (f"material-d{d}", "material-d7", f"positional-d{d}"):
                axes[0][col].axhline(elo, color="grey", lw=0.7, ls="--")
                axes[0][col].text(0, elo, name, fontsize="x-small", color="grey", va="bottom")
        axes[0][col].set_title(f"ayo12, depth {d}: the champion on the awari ladder")
        axes[0][col].set_ylabel("ladder Elo (random = 0), 95% interval")
        if seeds:
            axes[0][col].legend(fontsize="x-small")
        axes[1][col].set_title(f"ayo12, depth {d}: the run's benchmark (mean score, "
                               + ", ".join(b[6:] for b in bench_cols) + ")", fontsize="small")
        axes[1][col].set_xlabel("generation")
        axes[1][col].set_ylabel("score")
        axes[1][col].set_ylim(0, 1.02)
    sl.save(fig, os.path.join(out, "curves.png"), dpi=80)


# ===== the README's section =====

def _read_csv(path):
    import csv
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _num(x):
    return float(x) if x not in ("", None) else math.nan


def _pooled(rows):
    """(W, D, L, pentanomial) of match rows (controls.csv) together."""
    pent = [sum(int(r[f"pairs_{k}"]) for r in rows) for k in range(5)]
    return (sum(int(r["wins"]) for r in rows), sum(int(r["draws"]) for r in rows),
            sum(int(r["losses"]) for r in rows), pent)


def _elo_text(s, lo, hi):
    """The Elo difference of a score and its interval's ends."""
    return f"{elo_of(s):+.0f} [{elo_of(lo):+.0f}, {elo_of(hi):+.0f}]"


def _h2h_table(rows, a_name, b_name):
    """The per-seed rows and the pooled rows of a head-to-head part, and
    the numbers of the pooled and over-seeds scores."""
    lines = [f"| seed | {a_name} | {b_name} | W-D-L | W:D:L % | pairs (0, 1/4, 1/2, 3/4, 1) | "
             "score [95%, pairs] | Elo [95%, pairs] |",
             "|---:|---|---|---|---|---|---|---|"]
    for r in rows:
        pent = [int(r[f"pairs_{k}"]) for k in range(5)]
        lines.append(f"| {r['seed']} | s{r['seed']} | s{r['seed']} | {r['wins']}-{r['draws']}-{r['losses']} | "
                     f"{na.wdl_percent(int(r['wins']), int(r['draws']), int(r['losses']))} | "
                     f"{' '.join(map(str, pent))} | "
                     f"{sl.interval(_num(r['score']), _num(r['score_lo']), _num(r['score_hi']), 3)} | "
                     f"{sl.interval(_num(r['elo']), _num(r['elo_lo']), _num(r['elo_hi']), 0)} |")
    w, d, l, pent = _pooled(rows)
    ps = pair_score(w, d, l, pent)
    ts = na.mean_interval([_num(r["score"]) for r in rows])
    lines.append(f"| all | | | {w}-{d}-{l} | {na.wdl_percent(w, d, l)} | {' '.join(map(str, pent))} | "
                 f"{sl.interval(*ps, 3)} pooled pairs; {sl.interval(*ts[:3], 3)} over seeds (t) | "
                 f"{_elo_text(*ps)} (pooled pairs) |")
    return lines, ps, ts


def _verdict(ps, ts, a, b):
    """Who outscores whom, and by how much, from the pooled-pairs and the
    over-seeds intervals of A's score."""
    by = (f"{a}'s score {sl.interval(*ps, 3)} over the pooled pairs ({_elo_text(*ps)} Elo), "
          f"{sl.interval(*ts[:3], 3)} over seeds")
    if ts[1] > 0.5:
        return f"{a} outscores {b}, both intervals above 1/2: {by}"
    if ts[2] < 0.5:
        return f"{b} outscores {a}, both intervals below 1/2: {by}"
    if ps[1] > 0.5:
        return (f"{a} outscores {b} in the games played, but the interval over seeds "
                f"contains 1/2 (the seeds disagree): {by}")
    if ps[2] < 0.5:
        return (f"{b} outscores {a} in the games played, but the interval over seeds "
                f"contains 1/2 (the seeds disagree): {by}")
    return f"no difference between {a} and {b} is found, both intervals contain 1/2: {by}"


def _games_text(meta, d3):
    """The fitness games of the two GA arms' runs, from controls.json."""
    a = {r["fitness_games"] for r in meta.get("regenerated", []) if r["run"].startswith(f"ayo12 d{d3} ")}
    b = {c["fitness_games"] for c in meta.get("champions", {}).values()}
    fmt = lambda v: "/".join(f"{x:,}" for x in sorted(v)) if v else "-"  # noqa: E731
    return f"{fmt(a)} fitness games a run (ayo12) and {fmt(b)} (dk2002)"


def section(out_dir):
    """The README's sections on the controls (item 13) and the learning
    curves (item 14), from curves.csv, controls.csv and controls.json in
    out_dir; None when any of them is absent."""
    paths = [os.path.join(out_dir, f) for f in ("controls.json", "controls.csv", "curves.csv")]
    if not all(os.path.exists(p) for p in paths):
        return None
    meta = json.load(open(paths[0]))
    matches, curves = _read_csv(paths[1]), _read_csv(paths[2])
    d3, d5, d7 = meta["depths"]["d3"], meta["depths"]["d5"], meta["depths"]["d7"]
    seeds, games, gens, every = meta["seeds"], meta["games_per_match"], meta["generations"], meta["every"]
    parts = meta["compute"]["parts"]

    def cpu(*keys):
        return sum(v["cpu_s"] for k, v in parts.items() if any(k.startswith(x) for x in keys))

    L = ["### Controls: equal optimiser and budget; depth 3 against depth 7", ""]
    if meta["quick"]:
        L += [sl.QUICK_BANNER, ""]
    L += [
        f"The study's head-to-head match (ayo12 at depth {d5} against dk2002 at depth {d7})",
        "pits champions that differ in more than their features and depth: the",
        "optimiser, the games of fitness, the weight range, the leaf view.  Two",
        "controls (experiments/ayo2004/controls.sh; controls.csv, controls.json):",
        "",
        f"#### ayo12 against dk2002 at equal depth ({d3}), optimiser and budget",
        "",
        f"`dk2002` evolved by the paper's GA exactly as `ayo12` was: configs/ayo2004.ini",
        f"with only `player.features=dk2002` set (depth {d3}, population 50, fitness set of",
        f"10, {gens} generations, so the same games of fitness; weights in [0, 1], each term",
        "signed by its meaning in both sets; leaves from the root's view), seeds",
        f"1..{seeds}.  The `ayo12` side is the study's own depth-{d3} champion of each seed.",
        "So none of the differences of the davis-kendall-2002 study's `dk2002` remain:",
        "its (3+6)-ES with a round robin (9 x 8 = 72 games a generation, 250",
        "generations: 18,000 games a run), weights in [-1, 1], leaves from the",
        "mover's view and 2 random opening plies in the fitness games.  Here both",
        "sides played " + _games_text(meta, d3) + ".  What still differs: the",
        "terms themselves (the question), and so the chromosome's length (6 genes,",
        "24 bits, against 12 genes, 48 bits: a bit-flip rate of 0.001 mutates a",
        "dk2002 chromosome half as often).",
        "",
        f"Head to head, seed against seed ({games} games, colour-swapped pairs from",
        "random 2-ply openings; score from `ayo12`'s view; its 95% interval Wilson's",
        "with the effective number of games from the pairs' variance, as everywhere",
        "in this README; Elo as `nickar match` gives it, from the pairs):",
        "",
    ]
    ga = [r for r in matches if r["part"] == "ga-d3"]
    if ga:
        lines, ps_a, ts_a = _h2h_table(ga, f"ayo12 d{d3} (GA)", f"dk2002 d{d3} (GA)")
        L += lines
        L += ["", _verdict(ps_a, ts_a, "`ayo12`", "`dk2002`") + ".", ""]
    else:
        L += ["**Not run yet** (controls.sh, PARTS=ga).", ""]
    rat = meta["ratings"]
    if ga and rat:
        by = {(r["features"], r["seed"]): r for r in rat}
        L += [f"On the awari ladder (`nickar rate`, {meta['rate_games_per_rung']} games against each rung, as the",
              "study rates; the difference with the ladder held fixed, so that its shared",
              "anchor error cancels: 1.96 times the root of the two fixed-ladder variances):",
              "",
              f"| seed | ayo12 d{d3} Elo [95%] | dk2002 d{d3} (GA) Elo [95%] | difference [95%] |",
              "|---:|---|---|---|"]
        diffs = []
        for s in range(1, seeds + 1):
            a, b = by.get(("ayo12", s)), by.get(("dk2002", s))
            if not a or not b:
                continue
            dlt = a["fixed_elo"] - b["fixed_elo"]
            h = Z * math.hypot(a["fixed_se"], b["fixed_se"])
            diffs.append(dlt)
            L.append(f"| {s} | {sl.interval(a['elo'], a['elo_lo'], a['elo_hi'])} | "
                     f"{sl.interval(b['elo'], b['elo_lo'], b['elo_hi'])} | {sl.interval(dlt, dlt - h, dlt + h)} |")
        ma = na.mean_interval([r["elo"] for r in rat if r["features"] == "ayo12"])
        mb = na.mean_interval([r["elo"] for r in rat if r["features"] == "dk2002"])
        wd = na.welch_interval([r["fixed_elo"] for r in rat if r["features"] == "ayo12"],
                               [r["fixed_elo"] for r in rat if r["features"] == "dk2002"])
        L += [f"| mean (t over seeds) | {sl.interval(*ma[:3])} | {sl.interval(*mb[:3])} | "
              f"{sl.interval(*wd)} (Welch, fixed ladder) |", ""]
    es = [r for r in matches if r["part"] == "es-d3"]
    es_rat = [r for r in rat if r["features"] == "dk2002-es"]
    if es and es_rat:
        lines, ps_e, ts_e = _h2h_table(es, f"ayo12 d{d3}", f"dk2002 d{d3} (ES)")
        me = na.mean_interval([r["elo"] for r in es_rat])
        L += [f"For scale, a third arm: the davis-kendall-2002 study's own `dk2002` champions",
              f"(its ES, weights in [-1, 1], evolved at depth {d7}, leaves from the mover's view)",
              f"searched at depth {d3}.  Ladder Elo by seed "
              + ", ".join(f"{r['elo']:.0f}" for r in sorted(es_rat, key=lambda r: r["seed"]))
              + f"; mean {sl.interval(*me[:3])} (t over seeds)"]
        ga_rat = [r for r in rat if r["features"] == "dk2002"]
        if ga_rat:
            we = na.welch_interval([r["fixed_elo"] for r in es_rat], [r["fixed_elo"] for r in ga_rat])
            L[-1] += (f", {sl.interval(*we)} Elo against the GA's `dk2002` champions (Welch, fixed ladder)")
        L[-1] += ".  Against the `ayo12` champions of the same seeds:"
        L += [""] + lines + ["", _verdict(ps_e, ts_e, "`ayo12`", "the ES's `dk2002`") + ".", ""]
    L += [
        f"#### ayo12 depth {d3} against dk2002 depth {d7}",
        "",
        f"The paper reads its Tables 2 and 3 (Ayo at depth 3, Davis & Kendall at depth 7)",
        "as differing very little.  Head to head here, the two studies' committed",
        f"champions, seed against seed ({games} games; score from `ayo12` depth {d3}'s view):",
        "",
    ]
    b7 = [r for r in matches if r["part"] == "d3-vs-d7"]
    if b7:
        lines, ps_b, ts_b = _h2h_table(b7, f"ayo12 d{d3}", f"dk2002 d{d7}")
        L += lines
        paper = ("so these two are not about equal, against the paper's reading" if ts_b[2] < 0.5 or ts_b[1] > 0.5
                 else "consistent with the paper's reading that they differ little")
        L += ["", _verdict(ps_b, ts_b, f"`ayo12` depth {d3}", f"`dk2002` depth {d7}") + f"; {paper}.", ""]
    else:
        L += ["**Not run yet** (controls.sh, PARTS=b).", ""]
    chk = [r for r in matches if r["part"].startswith("check-")]
    same = [r for r in chk if r["committed_same"] not in ("", None)]
    L += [
        "The champions are played from their committed weights",
        "(results/ayo2004/controls-weights/, written from the two studies'",
        "results.json; the run files are not committed).  Each was checked by playing",
        "again its committed match against `material` at its depth: "
        + (f"{sum(int(r['committed_same']) for r in same)} of {len(same)} came out game for game the same"
           if same else "no committed match to compare (a quick run)")
        + f" (W-D-L, pairs, plies, end reasons; {len(chk)} checks played).",
        "",
        f"Compute: {cpu('match d3-vs-d7', 'match check'):.0f} CPU-s for these matches and checks; "
        f"{cpu('evolve dk2002ga', 'rate ga', 'match ga'):.0f} CPU-s for the GA-evolved dk2002 runs, their",
        f"ratings and matches; {cpu('rate es', 'match es'):.0f} CPU-s for the ES's dk2002 at depth {d3} (controls-times.tsv).",
        "",
    ]
    L += _curves_section(meta, curves, cpu, d3, d5, seeds, gens, every)
    return "\n".join(L) + "\n"


def _curve_reading(curves, d, gs, mid):
    """One line of the curves' reading: the changes from the first to the
    middle checkpoint, from there to the last and over the last step, the
    champions kept over that step, and the conclusion the intervals allow."""
    def at(g):
        return {int(c["seed"]): _num(c["fixed_elo"]) for c in curves
                if int(c["depth"]) == d and int(c["generation"]) == g}

    se = {(int(c["seed"]), int(c["generation"])): _num(c["fixed_se"]) for c in curves
          if int(c["depth"]) == d}
    common = sorted(set(at(gs[0])) & set(at(mid)) & set(at(gs[-1])))

    def gain(ga, gb):
        """The change from generation ga to gb: over seeds by t; for one
        seed, from its two ratings' own errors."""
        x, y = at(ga), at(gb)
        v = [y[s] - x[s] for s in common if s in x and s in y]
        if len(v) != 1:
            return na.mean_interval(v)
        h = Z * math.hypot(se[(common[0], ga)], se[(common[0], gb)])
        return (v[0], v[0] - h, v[0] + h, 1)
    g1, g2 = gain(gs[0], mid), gain(mid, gs[-1])
    g3 = gain(gs[-2], gs[-1]) if len(gs) > 1 else (math.nan,) * 4
    best = []
    for s in common:
        pts = {g: at(g).get(s) for g in gs}
        best.append(max(pts, key=lambda g: pts[g]))
    ids = {(int(c["seed"]), int(c["generation"])): c["champion_id"] for c in curves
           if int(c["depth"]) == d}
    kept = sum(ids.get((s, gs[-1])) == ids.get((s, gs[-2])) for s in common) if len(gs) > 1 else 0
    if not common:
        verdict = "no seed complete"
    else:
        rise = (f"the rating rises over generations {gs[0]} to {mid}" if g1[1] > 0 else
                f"no rise over generations {gs[0]} to {mid} is detectable" if g1[2] >= 0 else
                f"the rating falls over generations {gs[0]} to {mid}")
        after = (f"it still rises after generation {mid}" if g2[1] > 0 else
                 f"it falls after generation {mid}" if g2[2] < 0 else
                 f"no change after generation {mid} is detectable (the interval contains 0)")
        verdict = f"{rise}; {after}" + (
            " (one seed: the interval is that seed's two ratings' own, not the run-to-run spread)"
            if len(common) == 1 else "")
    return (f"- depth {d}: {verdict}.  Generations {gs[0]} to {mid} {sl.interval(*g1[:3])}; {mid} to "
            f"{gs[-1]} {sl.interval(*g2[:3])}; {gs[-2] if len(gs) > 1 else '-'} to {gs[-1]} "
            f"{sl.interval(*g3[:3])} (the champion of generation {gs[-1]} is that of generation "
            f"{gs[-2] if len(gs) > 1 else '-'} in {kept} of {len(common)} seeds); the best-rated "
            f"checkpoint of seeds {', '.join(map(str, common))}: generation {', '.join(map(str, best))}.")


def _curves_section(meta, curves, cpu, d3, d5, seeds, gens, every):
    """The learning curves' part of section()."""
    L = [
        "### Learning curves",
        "",
        f"Do {gens} generations converge?  The study's ayo12 runs evolved again (evolution is",
        "deterministic: the same config and seed give the same run file), and the",
        f"best individual of generation 1 and of every {every}th generation rated on the",
        f"awari ladder ({meta['rate_games_per_rung']} games against each of its 16 rungs, as the study rates its",
        "champions); the runs' own benchmark (configs/ayo2004.ini: "
        + (f"{int(curves[0]['bench_games']) // 3}" if curves else "-")
        + " games against each",
        "of greedy, material at depth 3 and the paper's Table 1 at depth 3) comes with",
        "them (curves.csv, curves.png).  The ladder is the measure to read: the",
        "benchmark's opponents are all at depth 3 or less, and it starts every game",
        "from the initial position (fitness.openings = 0), so that against the two",
        "deterministic searchers its games repeat one colour-swapped pair.",
        "",
    ]
    regen = meta.get("regenerated", [])
    ws = [r for r in regen if r["weights_same"] is not None]
    es = [r for r in regen if r["elo"] is not None and r["committed_elo"] is not None]
    if ws:
        L += [f"The runs evolved again give the committed champions: {sum(r['weights_same'] for r in ws)} of "
              f"{len(ws)} final champions have the committed weights, and "
              f"{sum(abs(r['elo'] - r['committed_elo']) < 0.005 for r in es)} of {len(es)} rate exactly "
              "as committed (ratings.jsonl).", ""]
    gs = sorted({int(c["generation"]) for c in curves})
    done = {d: sorted({int(c["seed"]) for c in curves if int(c["depth"]) == d
                       and int(c["generation"]) == gens}) for d in (d3, d5)}
    if any(len(v) < seeds for v in done.values()):
        L += ["**Not complete:** " + "; ".join(
            f"depth {d}: {len(v)} of {seeds} seeds rated to generation {gens}"
            + (f" (seeds {', '.join(map(str, v))})" if v else "") for d, v in done.items())
            + "; the rest had not finished evolving when these files were written.", ""]
    ds = [d for d in (d3, d5) if any(int(c["depth"]) == d for c in curves)]
    L += [f"Depth {d}: no checkpoint rated yet." for d in (d3, d5) if d not in ds]
    L += [""] if len(ds) < 2 else []
    for d in ds:
        L += [f"Ladder Elo of the champion, depth {d} (95% interval of each in curves.csv):", "",
              "| generation | " + " | ".join(f"s{s}" for s in range(1, seeds + 1)) + " | mean [95%, t over seeds] |",
              "|---:|" + "---:|" * seeds + "---|"]
        for g in gs:
            v = {int(c["seed"]): _num(c["elo"]) for c in curves
                 if int(c["depth"]) == d and int(c["generation"]) == g}
            m = na.mean_interval(list(v.values()))
            L.append(f"| {g} | " + " | ".join(sl.f0(v.get(s)) for s in range(1, seeds + 1))
                     + f" | {sl.interval(*m[:3])} |")
        L.append("")
    hw = sorted(Z * _num(c["fixed_se"]) for c in curves)
    L += ["![curves](curves.png)", "",
          "Reading (changes of the ladder Elo with the ladder held fixed, mean over seeds,",
          "95% interval by t over seeds; one checkpoint's own rating is good to about +-"
          + (f"{hw[len(hw) // 2]:.0f}" if hw else "-") + " Elo, the median half-width):", ""]
    mid = gs[len(gs) // 2] if gs else None
    for d in ds:
        L.append(_curve_reading(curves, d, gs, mid))
    runs = len({(c["depth"], c["seed"]) for c in curves})
    L += ["", f"Compute: {cpu('evolve ayo12'):.0f} CPU-s to evolve the runs again (their benchmark "
          f"included; {runs} of {2 * seeds} complete), {cpu('rate curve'):.0f} CPU-s for the {len(curves)} "
          "ladder ratings (controls-times.tsv);",
          f"{meta['compute']['cpu_s']:.0f} CPU-s for all of controls.sh.  Rerun: `experiments/ayo2004/controls.sh`",
          "(after run.sh, with `--continue` to reuse its run files; `--quick` checks it",
          "in seconds).", ""]
    return L


def main(argv):
    if len(argv) == 6 and argv[1] == "weights":
        return write_weights(argv[2], argv[3], argv[4], int(argv[5]))
    if len(argv) == 15 and argv[1] == "tables":
        return tables(argv[2:])
    print("controls.py: usage: controls.py weights AYO_RESULTS DK_RESULTS DIR SEEDS | "
          "controls.py tables OUT SEEDS QUICK D3 D5 D7 GENS EVERY GAMES "
          "RATE_GAMES AYO_RESULTS DK_RESULTS LADDER", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
