"""nickar_analysis -- the studies' shared analysis helpers.

Reads nickar files into pandas tables and draws the shared plots.  Needs
Debian's python3-h5py, -numpy, -pandas and -matplotlib (run with
/usr/bin/python3).

Files are read by *readers*, chosen by kind: ``read(path)`` asks each
registered reader whether it knows the file (``probe``) and uses the first
that does.  The run-file reader (``nickar evolve``'s HDF5 file,
docs/runfile.md) is built in; another file kind (a tournament file, say)
plugs in with ``register_reader(kind, probe, load)`` without touching this
module.

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
"""

import json
import math
import os

os.environ.setdefault("HDF5_USE_FILE_LOCKING", "FALSE")

RUN_SCHEMA_VERSION = 1

_READERS = []  # (kind, probe, load), in registration order


def register_reader(kind, probe, load):
    """Adds a reader: probe(path) -> bool says whether it knows the file,
    load(path) -> dict reads it (the dict holds at least 'kind' and 'path')."""
    _READERS.append((kind, probe, load))


def reader_kinds():
    return [k for k, _, _ in _READERS]


def read(path):
    """The file read by the first reader that knows it; ValueError if none."""
    if not os.path.isfile(path):
        raise ValueError(f"{path}: no such file")
    for kind, probe, load in _READERS:
        if probe(path):
            return load(path)
    raise ValueError(f"{path}: no reader knows this file (readers: "
                     f"{', '.join(reader_kinds())})")


def _text(v):
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    return str(v).rstrip("\0").strip()


# ===== run files =====

def _is_run(path):
    import h5py
    try:
        with h5py.File(path, "r") as f:
            return "schema_version" in f.attrs and "stats" in f
    except OSError:
        return False


def _load_run(path):
    import h5py
    import numpy as np
    import pandas as pd

    with h5py.File(path, "r") as f:
        version = int(np.asarray(f.attrs["schema_version"]).ravel()[0])
        if version != RUN_SCHEMA_VERSION:
            raise ValueError(f"{path}: run schema_version {version}, "
                             f"this module reads {RUN_SCHEMA_VERSION}")
        stats = f["stats"][()]
        fit = f.get("population/fitness")
        G = stats.shape[0]
        if fit is not None and fit.shape:
            G = min(G, fit.shape[0])  # complete generations only
        stats = pd.DataFrame({k: stats[k][:G] for k in stats.dtype.names})
        bench = pd.DataFrame(columns=["generation", "opponent", "wins",
                                      "draws", "losses", "score"])
        if "benchmark" in f and f["benchmark"].shape[0] > 0:
            b = f["benchmark"][()]
            bench = pd.DataFrame({k: b[k] for k in b.dtype.names})
            bench["opponent"] = [_text(o) for o in bench["opponent"]]
        features = [_text(x) for x in f["features"][()]] if "features" in f else []
        champion = None
        if G > 0 and fit is not None:
            last = np.asarray(f["population/fitness"][G - 1])
            best = int(np.argmax(last))  # the first of equal bests
            w = np.asarray(f["population/genome"][G - 1, best])
            champion = {"weights": pd.Series(w, index=features or None),
                        "fitness": float(last[best]),
                        "generation": int(stats["generation"].iloc[G - 1]),
                        "index": best}
        attrs = {k: (_text(v) if isinstance(v, (bytes, str)) else v)
                 for k, v in f.attrs.items()}
    return {"kind": "run", "path": path, "name": os.path.basename(path),
            "attrs": attrs, "features": features, "stats": stats,
            "benchmark": bench, "champion": champion}


register_reader("run", _is_run, _load_run)


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


# ===== study helpers: ladder ratings, seed summaries, compute (ayo2004,
# davis-kendall-2002) =====

# Student's t, 0.975 quantile, for 1..30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def rating_table(objs):
    """`nickar rate --json` results (dicts or JSON lines) as a table: player,
    elo, its 95% interval (elo_lo, elo_hi), se, games, prior (True when
    virtual draws were added)."""
    import pandas as pd
    rows = []
    for o in objs:
        if isinstance(o, str):
            o = json.loads(o)
        rows.append({"player": o["player"], "variant": o["variant"],
                     "games": o["games"], "elo": o["elo"], "se": o["se"],
                     "elo_lo": o["ci"][0], "elo_hi": o["ci"][1],
                     "prior": bool(o["prior"])})
    return pd.DataFrame(rows, columns=["player", "variant", "games", "elo", "se",
                                       "elo_lo", "elo_hi", "prior"])


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
