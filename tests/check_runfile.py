#!/usr/bin/python3
"""check_runfile.py -- reads a nickar run file with h5py and checks that it
is laid out as src/io/runfile.h documents.

Usage: check_runfile.py FILE N D G

FILE was written by tests/test_io_runfile.c (test_python) with the values of
its fill_simple(): this script recomputes them and compares.  Exit status 0
when everything matches, 1 with a message otherwise, 77 when h5py (or numpy)
is missing so that the caller can skip.
"""
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover
    print(f"check_runfile.py: skipped: {e}")
    sys.exit(77)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def text(x):
    """A text attribute or element as str: fixed-length strings (what nickar
    writes) come back from h5py as bytes, variable-length ones (older files)
    as str."""
    return x.decode("utf-8") if isinstance(x, bytes) else str(x)


def main():
    path, n, d, g = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    with h5py.File(path, "r") as f:
        a = f.attrs
        check(int(a["schema_version"]) == 1, "schema_version")
        check(a["schema_version"].dtype == np.int32, "schema_version int32")
        for key, want in [("variant", "warri"), ("feature_set", "basic"),
                          ("strategy", "cma-es"),
                          ("created", "2024-05-01T12:00:00Z")]:
            check(text(a[key]) == want, f"attr {key} = {a[key]!r}")
        check(isinstance(a["nickar_version"], (bytes, str)), "nickar_version is text")
        check(text(a["config"]) == "[run]\nseed = 7 ; ñ\n", f"config {a['config']!r}")
        # the file detects its own damage: checksums on metadata (superblock
        # v2, object headers v2) and on the data of every dataset
        check(f.id.get_create_plist().get_version()[0] >= 2,
              f"superblock version {f.id.get_create_plist().get_version()}")
        for name in ["features", "population/genome", "population/fitness",
                     "stats", "games", "benchmark", "checkpoint/cma"]:
            check(f[name].fletcher32, f"{name} has a checksum")
        check(a["master_seed"].dtype == np.uint64, "master_seed uint64")
        check(int(a["master_seed"]) == 2**64 - 2, "master_seed value")
        check(int(a["threads"]) == 4 and int(a["mpi_ranks"]) == 1, "threads, ranks")

        names = [text(s) for s in f["features"][()]]
        check(names == [f"feature_{j}" for j in range(d)], f"features {names}")

        pop = f["population"]
        for key, dt, shape in [("genome", np.float64, (g, n, d)),
                               ("sigma", np.float64, (g, n, d)),
                               ("fitness", np.float64, (g, n)),
                               ("wins", np.int32, (g, n)),
                               ("draws", np.int32, (g, n)),
                               ("losses", np.int32, (g, n)),
                               ("id", np.int64, (g, n)),
                               ("parents", np.int64, (g, n, 2))]:
            ds = pop[key]
            check(ds.dtype == dt, f"{key} dtype {ds.dtype}")
            check(ds.shape == shape, f"{key} shape {ds.shape}")
            check(ds.maxshape[0] is None, f"{key} extendible")
            check(ds.chunks is not None and ds.chunks[0] == 1, f"{key} chunks {ds.chunks}")
        gi, ii, jj = np.meshgrid(np.arange(g), np.arange(n), np.arange(d), indexing="ij")
        check(np.array_equal(pop["genome"][()], gi * 10000.0 + ii * 100.0 + jj), "genome values")
        check(np.array_equal(pop["sigma"][()], (gi * 10000.0 + ii * 100.0 + jj) * 0.5), "sigma values")
        gi, ii = np.meshgrid(np.arange(g), np.arange(n), indexing="ij")
        check(np.array_equal(pop["fitness"][()], gi + ii * 0.25), "fitness values")
        check(np.array_equal(pop["wins"][()], ii), "wins")
        check(np.array_equal(pop["draws"][()], gi), "draws")
        check(np.array_equal(pop["losses"][()], ii + gi), "losses")
        check(np.array_equal(pop["id"][()], gi * n + ii), "ids")
        par = pop["parents"][()]
        check(np.all(par[0] == -1), "parents of generation 0 are -1")
        for k in range(1, g):
            for i in range(n):
                check(list(par[k, i]) == [(k - 1) * n + i, (k - 1) * n + (i + 1) % n],
                      f"parents {k},{i}")

        st = f["stats"]
        check(st.shape == (g,), f"stats shape {st.shape}")
        want_fields = ["generation", "games", "evaluations", "best", "mean", "median",
                       "std", "worst", "diversity", "wall_seconds",
                       "play_seconds", "outside_seconds", "tb_positions", "tb_optimal",
                       "tb_seeds_lost"]
        check(list(st.dtype.names) == want_fields, f"stats fields {st.dtype.names}")
        check(st.dtype["generation"] == np.int32 and st.dtype["games"] == np.int64
              and st.dtype["best"] == np.float64 and st.dtype["tb_positions"] == np.int64
              and st.dtype["tb_optimal"] == np.float64, "stats field types")
        s = st[()]
        check(list(s["generation"]) == list(range(g)), "stats generation")
        check(list(s["games"]) == [10 * k for k in range(g)], "stats games")
        check(list(s["best"]) == [k + 1.5 for k in range(g)], "stats best")

        gm = f["games"]
        check(list(gm.dtype.names) == ["generation", "south_id", "north_id", "winner",
                                       "south_seeds", "north_seeds", "plies", "reason",
                                       "seed"], f"games fields {gm.dtype.names}")
        check(gm.dtype["winner"] == np.int8 and gm.dtype["plies"] == np.int16
              and gm.dtype["reason"] == np.int8 and gm.dtype["seed"] == np.uint64,
              "games field types")
        check(gm.maxshape == (None,), "games extendible")
        rows = gm[()]
        check(len(rows) == 2 * g, f"games rows {len(rows)}")
        for r, row in enumerate(rows):
            k = r // 2
            check(row["generation"] == k and row["winner"] == r % 3
                  and row["plies"] == 40 + r and int(row["seed"]) == 2**63 + r,
                  f"game row {r}: {row}")
        wn = [text(x) for x in gm.attrs["winner_names"]]
        check(wn == ["south", "north", "draw"], f"winner_names {wn}")
        check(len(gm.attrs["reason_names"]) >= 2, "reason_names")

        bm = f["benchmark"]
        check(list(bm.dtype.names) == ["generation", "opponent", "wins", "draws",
                                       "losses", "score"], f"bench fields {bm.dtype.names}")
        check(bm.dtype["opponent"] == np.dtype("S64"), f"opponent dtype {bm.dtype['opponent']}")
        b = bm[()]
        check(len(b) == g, "benchmark rows")
        for k, row in enumerate(b):
            check(row["opponent"] == b"greedy:depth=2" and row["score"] == 0.25 * k
                  and row["generation"] == k, f"bench row {k}: {row}")

        ck = f["checkpoint"]
        check(int(ck.attrs["generation"]) == g - 1, "checkpoint generation")
        check(int(ck.attrs["games_rows"]) == 2 * g, "checkpoint games_rows")
        check(int(ck.attrs["benchmark_rows"]) == g, "checkpoint benchmark_rows")
        check(sorted(ck.keys()) == ["cma", "rng"], f"checkpoint keys {list(ck.keys())}")
        check(ck["rng"].dtype == np.uint8 and
              list(ck["rng"][()]) == [((g - 1) * 16 + k) % 256 for k in range(16)],
              "checkpoint rng")
        check(ck["cma"].dtype == np.float64 and
              list(ck["cma"][()]) == [g - 1 + k * 0.5 for k in range(4)], "checkpoint cma")
        check("checkpoint.new" not in f, "no checkpoint.new")

    if failures:
        print("check_runfile.py: " + "; ".join(failures[:10]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
