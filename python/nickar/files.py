"""nickar.files -- readers of nickar's HDF5 files: run files (`nickar
evolve`), tournament files (`nickar tournament --output`) and the analysis
files of `nickar ciao` (docs/runfile.md).  Needs Debian's python3-h5py and
-numpy (and -pandas for ``read`` of a run file); the C library is not used.

Files are read by *readers*, chosen by kind: ``read(path)`` asks each
registered reader whether it knows the file (``probe``) and uses the first
that does.  The run-file, tournament and CIAO readers are built in; another
file kind plugs in with ``register_reader(kind, probe, load)``.

  read(path)             the file, by the first reader that knows it
  read_run_arrays(path)  a run file's datasets as arrays (the notebook's view)
  read_tournament(path)  a tournament file: players, cross table, ratings
  read_ciao(path)        the analysis file of `nickar ciao`
  open_h5(path), h5_file(path)  any HDF5 file, read-only, without the lock
  text(v)                an HDF5 string as str

Moved here from analysis/nickar_analysis.py, which imports them back.
"""

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
    if not os.path.exists(path):
        raise ValueError(f"{path}: no such file")
    if not os.path.isfile(path):
        raise ValueError(f"{path}: not a regular file")
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


def read_run_arrays(path):
    """A run file's datasets as arrays, complete generations only: G (the
    smallest length of /stats, /population/genome and /population/fitness;
    a file being written may have extended one before the others), attrs
    (the root attributes as stored), features, stats (the structured rows),
    genome [G, N, D], fitness [G, N], wins, draws, losses, id [G, N],
    has_sigma (ES runs), n_games (rows of /games, or None) and benchmark
    (its rows, or None).  ValueError for a file that is no run file of this
    schema."""
    import numpy as np

    with open_h5(path) as f:
        if "schema_version" not in f.attrs or "stats" not in f or "population" not in f:
            raise ValueError(f"{path} is not a nickar run file (no schema_version, /stats "
                             f"and /population)")
        attrs = {k: f.attrs[k] for k in f.attrs}
        version = int(np.asarray(attrs["schema_version"]).ravel()[0])
        if version != RUN_SCHEMA_VERSION:
            raise ValueError(f"{path}: run schema_version {version}, "
                             f"this module reads {RUN_SCHEMA_VERSION}")
        pop = f["population"]
        G = min(f["stats"].shape[0], pop["genome"].shape[0], pop["fitness"].shape[0])
        r = {"kind": "run", "path": path, "G": G, "attrs": attrs,
             "features": [_text(x) for x in f["features"][()]],
             "stats": f["stats"][:G], "genome": pop["genome"][:G], "fitness": pop["fitness"][:G],
             "has_sigma": "sigma" in pop,
             "n_games": f["games"].shape[0] if "games" in f else None,
             "benchmark": f["benchmark"][()] if "benchmark" in f else None}
        for k in ("wins", "draws", "losses", "id"):
            r[k] = pop[k][:G]
    return r


# ===== any HDF5 file, tournament files, ciao files =====

def h5_file(path):
    """path opened read-only with h5py, without HDF5's file lock (a writer
    such as `nickar evolve` keeps its file locked); h5py's OSError if it
    cannot be opened."""
    import h5py
    return h5py.File(path, "r")


def open_h5(path):
    """h5_file(path); ValueError, one line, if path is missing, not a
    regular file or not HDF5."""
    if not os.path.exists(path):
        raise ValueError(f"{path}: no such file")
    if not os.path.isfile(path):
        raise ValueError(f"{path}: not a regular file")
    try:
        return h5_file(path)
    except OSError as e:
        raise ValueError(f"{path}: not an HDF5 file ({str(e).splitlines()[0]})")


def _kind_probe(kind):
    def probe(path):
        try:
            with h5_file(path) as f:
                return _text(f.attrs.get("kind", "")) == kind
        except OSError:
            return False
    return probe


TOURNAMENT_SCHEMA_VERSIONS = (1, 2)  # 2 added the unit (game or match)


def read_tournament(path):
    """A tournament file (`nickar tournament --output`, docs/runfile.md,
    "Tournament files") as a dict: name, variant, format, unit, anchor,
    done and total meetings, players, the cross table's mean score and
    games (players x players arrays) and the rating rows (None before the
    first rating list).  A tournament in progress is read as far as it got.
    ValueError, one line, for a file that is none or is damaged."""
    import numpy as np

    f = open_h5(path)
    with f:
        try:
            kind = _text(f.attrs.get("kind", ""))
        except (KeyError, ValueError, OSError) as e:
            raise ValueError(f"{path}: damaged tournament file ({e})")
        if kind != "tournament":
            raise ValueError(f"{path}: not a nickar tournament file (no kind = tournament)")
        try:
            version = int(np.asarray(f.attrs["schema_version"]).ravel()[0])
        except (KeyError, ValueError, OSError) as e:
            raise ValueError(f"{path}: damaged tournament file ({e})")
        if version not in TOURNAMENT_SCHEMA_VERSIONS:
            raise ValueError(f"{path}: unsupported schema_version {version} (this script "
                             f"reads {', '.join(map(str, TOURNAMENT_SCHEMA_VERSIONS))})")
        try:
            return {
                "kind": "tournament", "path": path,
                "name": os.path.basename(path),
                "variant": _text(f.attrs["variant"]),
                "format": _text(f.attrs["format"]),
                "unit": _text(f.attrs["unit"]) if "unit" in f.attrs else "game",
                "anchor": _text(f.attrs["anchor"]),
                "done": int(f.attrs["meetings_done"]),
                "total": int(f.attrs["meetings_total"]),
                "players": [_text(s) for s in f["players/name"][:]],
                "score": np.asarray(f["cross/score"][:], dtype=float),
                "games": np.asarray(f["cross/wins"][:] + f["cross/draws"][:]
                                    + f["cross/losses"][:]),
                "ratings": f["ratings"][:] if "ratings" in f else None,
            }
        except (KeyError, ValueError, OSError) as e:
            raise ValueError(f"{path}: damaged tournament file ({e})")


CIAO_KIND = "nickar ciao"
CIAO_SCHEMA_VERSION = 1
CIAO_DATASETS = ("generations", "score", "ciao", "master", "nash_mix")


def read_ciao(path):
    """The analysis file of `nickar ciao` (docs/runfile.md, "The ciao
    file") as a dict: kind, path, its datasets (generations, score, ciao,
    master, nash_mix) as arrays and its attributes (attrs).  ValueError, one
    line, for a file that is none."""
    import h5py
    import numpy as np

    f = open_h5(path)
    with f:
        if _text(f.attrs.get("kind", "")) != CIAO_KIND:
            raise ValueError(f"{path}: not a nickar ciao file (no kind '{CIAO_KIND}')")
        version = int(np.asarray(f.attrs.get("schema_version", -1)).ravel()[0])
        if version != CIAO_SCHEMA_VERSION:
            raise ValueError(f"{path}: unsupported schema_version {version} "
                             f"(this script reads {CIAO_SCHEMA_VERSION})")
        missing = [k for k in CIAO_DATASETS if not isinstance(f.get(k), h5py.Dataset)]
        if missing:
            raise ValueError(f"{path}: lacks /{', /'.join(missing)}")
        d = {k: np.asarray(f[k][()]) for k in CIAO_DATASETS}
        d["attrs"] = {k: f.attrs[k] for k in f.attrs}
    n = len(d["generations"])
    if d["score"].shape != (n, n) or n < 2:
        raise ValueError(f"{path}: /score is {d['score'].shape}, want ({n}, {n}) with n >= 2")
    d.update(kind="ciao", path=path, name=os.path.basename(path))
    return d


register_reader("tournament", _kind_probe("tournament"), read_tournament)
register_reader("ciao", _kind_probe(CIAO_KIND), read_ciao)


def text(v):
    """An HDF5 string (bytes or str, maybe NUL-padded) as str."""
    return _text(v)
