"""nickar_analysis -- the studies' shared analysis helpers.

Reads nickar files into pandas tables and draws the shared plots.  Needs
Debian's python3-h5py, -numpy, -pandas and -matplotlib (run with
/usr/bin/python3).

The file readers are the nickar package's (python/nickar/files.py), imported
back here.  Files are read by *readers*, chosen by kind: ``read(path)`` asks each
registered reader whether it knows the file (``probe``) and uses the first
that does.  The run-file reader (``nickar evolve``'s HDF5 file,
docs/runfile.md) is built in; another file kind (a tournament file, say)
plugs in with ``register_reader(kind, probe, load)`` without touching this
module.

  read_run_arrays(path) a run file's datasets as arrays (the notebook's view)

Other files (each also a reader of ``read``):
  read_tournament(path)  a tournament file: players, cross table, ratings
  read_ciao(path)        the analysis file of `nickar ciao`
  open_h5(path), h5_file(path)  any HDF5 file, read-only, without the lock

Tables:
  run_stats(run)        /stats: one row per generation
  run_benchmark(run)    /benchmark: generation, opponent, wins, draws,
                        losses, score
  run_champion(run)     the best individual of the last complete generation:
                        its weights by feature name, and its fitness
  stats_table(runs)     run_stats of several runs, with a `run` column
  match_table(objs)     `nickar match --json` objects as rows, with the
                        score's 95% interval
Plots:
  plot_fitness(runs, ax)       best and mean fitness per generation, per run
  plot_weights(champions, ax)  champions' weights by feature, one line each

Seeds, ratings and weight spreads (the section at the end, added for the
caribbean study):
  t_quantile(p, df)            Student's t quantile (no scipy needed)
  mean_interval(values)        mean over seeds with its 95% t interval
  welch_interval(a, b)         mean(a) - mean(b) with Welch's 95% interval
  rating_table(objs)           `nickar rate --json` objects as rows
  normalise_weights(w)         weights divided by the largest |weight|
  weights_summary(w)           a long genome (more than LONG_GENOME weights,
                               an evaluation family's) in eight numbers
  plot_weight_spread(groups, ax)  normalised weights by group: mean, range
                               and every seed
"""

import json
import math
import os

os.environ.setdefault("HDF5_USE_FILE_LOCKING", "FALSE")

# ===== the readers: moved to the nickar package (python/nickar/files.py)
#
# The run-file, tournament-file and CIAO-file readers live in nickar.files;
# they are imported back here so that every script and notebook that uses
# them through this module keeps working.  Without an installed nickar
# package (pip install ./python), the package of this checkout is used.

try:
    import nickar.files  # noqa: F401
except ImportError:
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from nickar.files import (  # noqa: E402,F401
    CIAO_DATASETS, CIAO_KIND, CIAO_SCHEMA_VERSION, RUN_SCHEMA_VERSION,
    TOURNAMENT_SCHEMA_VERSIONS, _READERS, _is_run, _kind_probe, _load_run, _text,
    h5_file, open_h5, read, read_ciao, read_run_arrays, read_tournament, reader_kinds,
    register_reader, text)


# A genome longer than this (NK_MAX_FEATURES: an evaluation family's whole
# weight vector, thousands of numbers) is summarised, not printed.
LONG_GENOME = 32


def weights_summary(w):
    """A weight vector summarised as `nickar inspect` does
    (nk_eval_weights_summary): n, min, argmin, max, argmax, mean, mean_abs
    and zeros, as a dict.  NaN entries (rows a run did not keep,
    output.population_every) are left out of every figure but n."""
    import numpy as np
    w = np.asarray(w, dtype=float)
    ok = ~np.isnan(w)
    v = w[ok]
    if v.size == 0:
        return {"n": int(w.size), "min": math.nan, "argmin": -1, "max": math.nan,
                "argmax": -1, "mean": math.nan, "mean_abs": math.nan, "zeros": 0}
    idx = np.flatnonzero(ok)
    return {"n": int(w.size), "min": float(v.min()), "argmin": int(idx[v.argmin()]),
            "max": float(v.max()), "argmax": int(idx[v.argmax()]), "mean": float(v.mean()),
            "mean_abs": float(np.abs(v).mean()), "zeros": int((v == 0).sum())}


def _as_run(run):
    return read(run) if isinstance(run, str) else run


def run_stats(run):
    return _as_run(run)["stats"]


def run_benchmark(run):
    return _as_run(run)["benchmark"]


def run_champion(run):
    return _as_run(run)["champion"]


def stats_table(runs, labels=None):
    """/stats of every run, one table, with a `run` column (labels or the
    file names)."""
    import pandas as pd
    frames = []
    for i, r in enumerate(runs):
        r = _as_run(r)
        t = r["stats"].copy()
        t.insert(0, "run", labels[i] if labels else r["name"])
        frames.append(t)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


# ===== matches =====

def score_interval(wins, draws, losses, z=1.959963984540054):
    """Mean score per game (win 1, draw 1/2) and its normal 95% interval
    from the per-game variance; (nan, nan, nan) for no games."""
    n = wins + draws + losses
    if n == 0:
        return (math.nan, math.nan, math.nan)
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    h = z * math.sqrt(var / n)
    return (s, max(0.0, s - h), min(1.0, s + h))


def match_table(objs):
    """`nickar match --json` results (dicts or JSON lines) as a table with
    the score's 95% interval (score_lo, score_hi)."""
    import pandas as pd
    rows = []
    for o in objs:
        if isinstance(o, str):
            o = json.loads(o)
        s, lo, hi = score_interval(o["wins"], o["draws"], o["losses"])
        rows.append({"variant": o["variant"], "a": o["a"], "b": o["b"],
                     "games": o["games"], "wins": o["wins"],
                     "draws": o["draws"], "losses": o["losses"],
                     "score": s, "score_lo": lo, "score_hi": hi,
                     "elo": o.get("elo"), "elo_lo": (o.get("elo_ci") or [None])[0],
                     "elo_hi": (o.get("elo_ci") or [None, None])[1]})
    return pd.DataFrame(rows)


# ===== plots =====

def plot_fitness(runs, ax, labels=None):
    """Best (solid) and mean (dashed) fitness per generation of each run."""
    for i, r in enumerate(runs):
        r = _as_run(r)
        s = r["stats"]
        label = labels[i] if labels else r["name"]
        line, = ax.plot(s["generation"], s["best"], label=f"{label} best")
        ax.plot(s["generation"], s["mean"], "--", color=line.get_color(),
                label=f"{label} mean")
    ax.set_xlabel("generation")
    ax.set_ylabel("fitness")
    ax.legend(fontsize="small")
    return ax


def plot_weights(champions, ax, labels=None):
    """Weights by feature, one line per champion (pandas Series indexed by
    feature name, or run dicts)."""
    import numpy as np
    for i, c in enumerate(champions):
        if isinstance(c, (str, dict)) and not hasattr(c, "index"):
            c = _as_run(c)["champion"]["weights"]
        x = np.arange(len(c))
        ax.plot(x, c.values, marker="o", label=labels[i] if labels else None)
        ax.set_xticks(x)
        ax.set_xticklabels(list(c.index), rotation=45, ha="right")
    ax.set_ylabel("weight")
    if labels:
        ax.legend(fontsize="small")
    return ax


# ===== seeds, ratings and weight spreads (caribbean study) =====
# Helpers for studies that repeat a run over seeds: intervals over seeds,
# `nickar rate --json` results as a table, and normalised weights.


def _t_cdf(t, df):
    """P(T <= t) for Student's t with df > 0 degrees of freedom: Simpson's
    rule on the density over [0, |t|] after t -> atan substitution."""
    if t == 0:
        return 0.5
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)

    def dens(u):  # density of T at tan(u), times d tan(u)/du
        x = math.tan(u)
        return c * (1 + x * x / df) ** (-(df + 1) / 2) * (1 + x * x)

    b = math.atan(abs(t))
    n = 400
    h = b / n
    acc = dens(0.0) + dens(b)
    for i in range(1, n):
        acc += (4 if i % 2 else 2) * dens(i * h)
    half = acc * h / 3
    return 0.5 + half if t > 0 else 0.5 - half


def t_quantile(p, df):
    """The p quantile of Student's t with df > 0 degrees of freedom (df may
    be fractional, as Welch's is), to about 1e-6."""
    if not 0 < p < 1 or not df > 0:
        raise ValueError("t_quantile: need 0 < p < 1 and df > 0")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1 - p, df)
    lo, hi = 0.0, 1.0
    while _t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(60):
        mid = (lo + hi) / 2
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_interval(values, level=0.95):
    """(mean, lo, hi, n) of values (one per seed, say): the two-sided
    Student t interval of the mean; lo = hi = nan for fewer than 2 values."""
    v = [float(x) for x in values]
    n = len(v)
    if n == 0:
        return (math.nan, math.nan, math.nan, 0)
    m = sum(v) / n
    if n < 2:
        return (m, math.nan, math.nan, n)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1))
    h = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return (m, m - h, m + h, n)


def welch_interval(a, b, level=0.95):
    """(mean(a) - mean(b), lo, hi): Welch's t interval of the difference of
    two means with unequal variances; nan bounds if either has < 2 values
    or both have no spread."""
    a = [float(x) for x in a]
    b = [float(x) for x in b]
    if not a or not b:
        return (math.nan, math.nan, math.nan)
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    d = ma - mb
    if len(a) < 2 or len(b) < 2:
        return (d, math.nan, math.nan)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1) / len(a)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1) / len(b)
    se2 = va + vb
    if se2 == 0:
        return (d, math.nan, math.nan)
    df = se2 ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    h = t_quantile(0.5 + level / 2, df) * math.sqrt(se2)
    return (d, d - h, d + h)


def rating_table(objs):
    """`nickar rate --json` results (dicts or JSON lines) as a table: player,
    variant, games, elo, elo_lo, elo_hi (the 95% interval rate prints), se,
    prior.  An object may wrap the rate object as "rate" beside its own keys
    (a study's labels, say); those keys become columns too."""
    import pandas as pd
    rows = []
    for o in objs:
        if isinstance(o, str):
            o = json.loads(o)
        r = o.get("rate", o)
        row = {k: v for k, v in o.items() if k != "rate"} if "rate" in o else {}
        row.update({"player": r["player"], "variant": r["variant"],
                    "games": r["games"], "elo": r["elo"], "elo_lo": r["ci"][0],
                    "elo_hi": r["ci"][1], "se": r["se"], "prior": bool(r["prior"]),
                    "joint": bool(r.get("joint", False))})
        rows.append(row)
    return pd.DataFrame(rows)


def normalise_weights(w):
    """w (a pandas Series or a sequence) divided by its largest |weight|, so
    that the largest is +-1.  A linear evaluation searched by alpha-beta
    chooses the same moves for w and c*w (c > 0) while its values stay far
    below the win/loss scores; all-zero weights come back unchanged."""
    import numpy as np
    import pandas as pd
    s = w if isinstance(w, pd.Series) else pd.Series(np.asarray(w, dtype=float))
    m = float(np.max(np.abs(s.to_numpy()))) if len(s) else 0.0
    return s / m if m > 0 else s.copy()


def plot_weight_spread(groups, ax, normalise=True):
    """groups: {label: [weights Series of each seed]} with the same features
    (index).  For each group, its mean weight by feature (line), the range
    over seeds (vertical bar) and every seed (dots), side by side per
    feature; weights are normalised first unless normalise=False."""
    import numpy as np
    labels = list(groups)
    k = len(labels)
    width = 0.8 / max(k, 1)
    features = None
    for j, g in enumerate(labels):
        ws = [normalise_weights(w) if normalise else w for w in groups[g]]
        if not ws:
            continue
        features = list(ws[0].index)
        m = np.array([w.to_numpy() for w in ws])
        x = np.arange(m.shape[1]) + (j - (k - 1) / 2) * width
        mean = m.mean(axis=0)
        line, = ax.plot(x, mean, marker="o", linestyle="-", linewidth=1,
                        label=f"{g} (n={len(ws)})")
        ax.vlines(x, m.min(axis=0), m.max(axis=0), color=line.get_color(),
                  linewidth=3, alpha=0.35)
        for row in m:
            ax.plot(x, row, ".", color=line.get_color(), markersize=4, alpha=0.8)
    if features is not None:
        ax.set_xticks(np.arange(len(features)))
        ax.set_xticklabels(features, rotation=30, ha="right")
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_ylabel("weight / max |weight|" if normalise else "weight")
    ax.grid(alpha=0.3)
# ===== statistics for comparing strategies over seeds (strategies study) =====
#
#   mann_whitney_u(x, y)    Mann-Whitney U of x against y: U, the
#                           probability of superiority A = U / (n m), and the
#                           two-sided p-value, exact (every split of the
#                           pooled values, ties at mid-ranks) for small
#                           samples, else the normal approximation with the
#                           tie and continuity corrections
#   holm(pvalues)           Holm's step-down adjusted p-values
#   median_ci(x)            the median and its distribution-free interval
#                           from order statistics (binomial coverage >= 95%)
#   quantile_bands(t, ...)  median, quartiles and extremes of y over seeds at
#                           each x, by group
#   plot_bands(t, ax, ...)  those bands drawn: median line, interquartile fill

def _midranks(v):
    """Ranks 1..N of v, ties given the mean of the ranks they share."""
    import numpy as np
    v = np.asarray(v, dtype=float)
    order = np.argsort(v, kind="mergesort")
    ranks = np.empty(len(v))
    sv = v[order]
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and sv[j + 1] == sv[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mann_whitney_u(x, y, exact_limit=200000):
    """Mann-Whitney U test of x against y (two-sided).

    Returns a dict: u (pairs with x > y, ties counting one half), a (the
    probability of superiority u / (n m): 1 when every x beats every y),
    p (two-sided p-value), method ('exact' or 'normal').  Exact when the
    number of ways to split the pooled sample, C(n + m, n), is at most
    exact_limit: the permutation distribution of U over every split, ties at
    their mid-ranks, p = the share of splits with |U - nm/2| at least the
    observed one.  Otherwise the normal approximation, with the tie
    correction of the variance and a continuity correction of 1/2."""
    import itertools
    import numpy as np
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    n, m = len(x), len(y)
    if n == 0 or m == 0:
        raise ValueError("mann_whitney_u needs two non-empty samples")
    r = _midranks(np.concatenate([x, y]))
    u = float(r[:n].sum() - n * (n + 1) / 2)
    centre = n * m / 2
    dev = abs(u - centre)
    if math.comb(n + m, n) <= exact_limit:
        combos = np.array(list(itertools.combinations(range(n + m), n)), dtype=np.int64)
        us = r[combos].sum(axis=1) - n * (n + 1) / 2
        p = float(np.mean(np.abs(us - centre) >= dev - 1e-9))
        method = "exact"
    else:
        big = n + m
        _, counts = np.unique(r, return_counts=True)
        ties = float((counts ** 3 - counts).sum())
        var = n * m / 12 * ((big + 1) - ties / (big * (big - 1)))
        if var <= 0:
            p = 1.0
        else:
            z = max(0.0, dev - 0.5) / math.sqrt(var)
            p = math.erfc(z / math.sqrt(2))
        method = "normal"
    return {"u": u, "a": u / (n * m), "p": min(1.0, p), "method": method}


def holm(pvalues):
    """Holm's step-down adjustment of m p-values (controls the family-wise
    error): the i-th smallest becomes max over j <= i of (m - j + 1) p_(j),
    capped at 1; returned in the input's order."""
    import numpy as np
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="mergesort")
    adj = np.empty(m)
    running = 0.0
    for i, k in enumerate(order):
        running = max(running, (m - i) * p[k])
        adj[k] = min(1.0, running)
    return adj.tolist()


def median_ci(x, level=0.95):
    """(median, lo, hi, coverage): the sample median and the interval
    [x_(k), x_(n+1-k)] between order statistics, k the largest for which
    the binomial coverage 1 - 2 P(Bin(n, 1/2) < k) is at least level (no
    assumption on the distribution).  For n = 10: [x_(2), x_(9)], coverage
    0.979.  Too few values for the level: lo and hi are the extremes and
    the coverage says what they give."""
    import numpy as np
    v = np.sort(np.asarray(x, dtype=float))
    n = len(v)
    if n == 0:
        return (math.nan, math.nan, math.nan, math.nan)

    def tail(k):  # P(Bin(n, 1/2) <= k - 1)
        return sum(math.comb(n, i) for i in range(k)) / 2 ** n

    k = 1
    while k + 1 <= (n + 1) // 2 and 1 - 2 * tail(k + 1) >= level:
        k += 1
    return (float(np.median(v)), float(v[k - 1]), float(v[n - k]), 1 - 2 * tail(k))


def quantile_bands(table, x, y, group):
    """For each group and x: n, min, q25, median, q75, max of y (the rows
    are seeds).  A table with columns group, x, n, min, q25, median, q75,
    max, sorted by group and x."""
    g = table.groupby([group, x])[y]
    out = g.agg(n="count", min="min", median="median", max="max")
    out["q25"] = g.quantile(0.25)
    out["q75"] = g.quantile(0.75)
    out = out.reset_index()
    return out[[group, x, "n", "min", "q25", "median", "q75", "max"]]


def plot_bands(table, ax, x, y, group, order=None):
    """Median of y against x per group (line), interquartile range (fill)
    and the extremes (thin dotted lines), over the rows (seeds) of table."""
    b = quantile_bands(table, x, y, group)
    for name in (order or sorted(b[group].unique())):
        s = b[b[group] == name]
        line, = ax.plot(s[x], s["median"], marker="o", label=f"{name} (median)")
        c = line.get_color()
        ax.fill_between(s[x], s["q25"], s["q75"], color=c, alpha=0.2)
        ax.plot(s[x], s["min"], ":", color=c, linewidth=0.8)
        ax.plot(s[x], s["max"], ":", color=c, linewidth=0.8)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.legend(fontsize="small")
    return ax


# ===== study helpers: ladder ratings, seed summaries, compute (ayo2004,
# davis-kendall-2002) =====

# Student's t, 0.975 quantile, for 1..30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


# rating_table (`nickar rate --json` as a table) is in the caribbean section
# above.


def read_jsonl(path):
    """The non-empty lines of a JSON-lines file, parsed; [] when the file is
    missing."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def seed_summary(values):
    """Mean of per-seed values and its 95% interval (Student's t on the
    seeds' spread): (n, mean, lo, hi); the interval is (nan, nan) for fewer
    than two values."""
    import numpy as np
    v = np.asarray([x for x in values if x is not None and not math.isnan(x)], float)
    n = len(v)
    if n == 0:
        return (0, math.nan, math.nan, math.nan)
    m = float(v.mean())
    if n < 2:
        return (1, m, math.nan, math.nan)
    t = _T975[n - 2] if n - 1 <= len(_T975) else 1.959963984540054
    h = t * float(v.std(ddof=1)) / math.sqrt(n)
    return (n, m, m - h, m + h)


def times_table(path):
    """The `label<TAB>wall<TAB>cpu` lines the study scripts write (times.tsv)
    as a table (label, wall, cpu seconds); empty when the file is missing."""
    import pandas as pd
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if len(p) == 3:
                    rows.append({"label": p[0], "wall": float(p[1]), "cpu": float(p[2])})
    return pd.DataFrame(rows, columns=["label", "wall", "cpu"])


def wdl_percent(wins, draws, losses):
    """W:D:L as whole percentages of the games, the papers' way of printing a
    result (e.g. '40:30:30'); '' for no games."""
    n = wins + draws + losses
    if n == 0:
        return ""
    return ":".join(f"{100 * x / n:.0f}" for x in (wins, draws, losses))


# ===== reference ladders =====


def ladder_table(path):
    """The players of a ladder file (results/ladder/<V>.tsv, as
    experiments/ladder/run.sh writes it) as a table (name, spec, elo), in
    file order: the `NAME<TAB>SPEC<TAB>ELO` lines; `#` comments and the
    results lines `nickar rate` fits with (`@anchor`, `@wdl`) are skipped."""
    import pandas as pd
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#") or line.startswith("@"):
                continue
            p = line.rstrip("\n").split("\t")
            if len(p) != 3:
                raise ValueError(f"{path}:{n}: expected NAME<TAB>SPEC<TAB>ELO")
            rows.append({"name": p[0], "spec": p[1], "elo": float(p[2])})
    return pd.DataFrame(rows, columns=["name", "spec", "elo"])


def read_ladder(path):
    """The players of a ladder file as {name: Elo} (see ladder_table)."""
    t = ladder_table(path)
    return dict(zip(t["name"], t["elo"]))


def rate_fit_phrase(ratings):
    """How `nickar rate` placed the players of a rating_table on the ladder,
    in words for a study's README: fitted jointly with the ladder's own
    results (the ladder's uncertainty in the interval) or with the ladder's
    ratings held as exact (ladder files without results, or older nickar)."""
    joint = set(bool(x) for x in ratings["joint"]) if "joint" in ratings else {False}
    if joint == {True}:
        return "fitted jointly with the ladder's own games, so the interval includes the ladder's uncertainty"
    if joint == {False}:
        return "the ladder's ratings taken as exact"
    return "some fitted jointly with the ladder's games, some with its ratings taken as exact"
