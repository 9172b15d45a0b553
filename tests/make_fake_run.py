#!/usr/bin/python3
"""Write a small synthetic nickar run file (HDF5, schema_version 1).

    make_fake_run.py OUT.h5 [--generations G] [--population N]
                            [--no-sigma] [--no-games] [--no-benchmark]
                            [--fixed-strings] [--seed S]

The layout is the one nickar's writer produces (docs/runfile.md):
root attributes, /features, /population/*, /stats, /games, /benchmark and
/checkpoint.  The numbers are plausible rather than real: D = 5 features, a
round-robin with both colours and 2/1/0 scoring (so every individual plays
2 * (N - 1) games and the mean fitness is always 2 * (N - 1)), weights that
drift towards a hidden "good" vector, and two benchmark opponents played by
the champion every 2 generations.  Defaults: G = 6, N = 8.

Used by tests/test_notebook.sh to exercise notebooks/run_overview.ipynb and
scripts/plot_fitness.py before real runs exist; the options produce the
edge cases a reader must cope with (one generation, no sigma, no games, an
empty benchmark table, fixed-length feature names).
"""

import argparse
import sys

import h5py
import numpy as np

FEATURES = ["store_diff", "seeds_own_side", "seeds_opp_side",
            "capture_threats", "mobility"]
TARGET = np.array([1.0, 0.35, -0.25, 0.6, 0.15])   # the "good" weights
OPPONENTS = [b"random", b"alphabeta:depth=4,weights=hand"]
BENCH_EVERY = 2
BENCH_GAMES = 20
LO, HI = -2.0, 2.0                                  # genome bounds

CONFIG = """\
; resolved configuration (synthetic run written by tests/make_fake_run.py)
[run]
variant = warri
seed = {seed}
generations = {G}
threads = 4
output = results/fake/run.h5

[evaluation]
features = basic5
depth = 2

[evolve]
strategy = ga
population = {N}
encoding = real
min = {lo}
max = {hi}
selection = tournament
tournament_size = 2
crossover = blx-alpha
alpha = 0.5
mutation = gaussian
mutation_sigma = 0.1
elitism = 1

[fitness]
schedule = round-robin
scoring = 2/1/0
random_plies = 2

[benchmark]
every = {every}
games = {bg}
opponents = random, alphabeta:depth=4,weights=hand
"""


def strength(w):
    """How well a weight vector plays: closeness to TARGET, in (0, 1]."""
    return float(np.exp(-np.sum((w - TARGET) ** 2)))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--generations", "-G", type=int, default=6)
    p.add_argument("--population", "-N", type=int, default=8)
    p.add_argument("--seed", type=int, default=20240607)
    p.add_argument("--no-sigma", action="store_true",
                   help="leave out /population/sigma (non-ES strategies)")
    p.add_argument("--no-games", action="store_true",
                   help="leave out /games")
    p.add_argument("--no-benchmark", action="store_true",
                   help="write /benchmark with 0 rows")
    p.add_argument("--fixed-strings", action="store_true",
                   help="store /features as fixed-length byte strings")
    a = p.parse_args(argv)
    G, N, D = a.generations, a.population, len(FEATURES)
    if G < 1 or N < 2:
        p.error("need --generations >= 1 and --population >= 2")
    rng = np.random.default_rng(a.seed)

    genome = np.zeros((G, N, D))
    sigma = np.zeros((G, N, D))
    fitness = np.zeros((G, N))
    wins = np.zeros((G, N), np.int32)
    draws = np.zeros((G, N), np.int32)
    losses = np.zeros((G, N), np.int32)
    ids = np.arange(G * N, dtype=np.int64).reshape(G, N)
    parents = np.full((G, N, 2), -1, np.int64)
    stats_rows, game_rows, bench_rows = [], [], []

    pop = rng.uniform(-1.0, 1.0, (N, D))
    sig = np.full((N, D), 0.3)
    wall = 0.0
    for g in range(G):
        if g > 0:   # variation: parents from the previous generation's best
            prev = fitness[g - 1]
            order = np.argsort(-prev)
            new = np.empty_like(pop)
            for i in range(N):
                pa, pb = rng.choice(order[: max(2, N // 2)], 2, replace=False)
                parents[g, i] = ids[g - 1, pa], ids[g - 1, pb]
                child = 0.5 * (genome[g - 1, pa] + genome[g - 1, pb])
                child += 0.35 * (TARGET - child) + rng.normal(0, sig[i] * 0.5)
                new[i] = np.clip(child, LO, HI)
            new[0] = genome[g - 1, order[0]]            # elitism
            parents[g, 0] = ids[g - 1, order[0]], -1
            pop = new
            sig = np.clip(sig * np.exp(rng.normal(0, 0.2, (N, D))), 0.01, 1)
        genome[g], sigma[g] = pop, sig

        # Round-robin, both colours, 2/1/0 scoring.
        s = np.array([strength(w) for w in pop])
        evaluations = 0
        for i in range(N):
            for j in range(N):
                if i == j:
                    continue
                pd = 0.08
                pw = (1 - pd) * (0.5 + 0.5 * (s[i] - s[j])) + 0.02
                r = rng.random()
                winner = 0 if r < pw else (2 if r < pw + pd else 1)
                plies = int(rng.integers(40, 160))
                evaluations += plies * int(rng.integers(200, 900))
                if winner == 2:
                    ss, ns, reason = 24, 24, 2          # draw by repetition
                else:
                    big = int(rng.integers(25, 40))
                    ss, ns = (big, 48 - big) if winner == 0 else (48 - big, big)
                    reason = 0 if plies < 150 else 1    # 1: move limit
                game_rows.append((g, ids[g, i], ids[g, j], winner, ss, ns,
                                  plies, reason,
                                  int(rng.integers(0, 2**63, dtype=np.int64))))
                if winner == 0:
                    wins[g, i] += 1
                    losses[g, j] += 1
                elif winner == 1:
                    wins[g, j] += 1
                    losses[g, i] += 1
                else:
                    draws[g, i] += 1
                    draws[g, j] += 1
        fitness[g] = 2.0 * wins[g] + draws[g]
        f = fitness[g]
        diversity = float(np.mean(np.std(pop, axis=0)))
        wall += 0.8 + 0.1 * rng.random()
        stats_rows.append((g, N * (N - 1), evaluations, f.max(), f.mean(),
                           np.median(f), f.std(), f.min(), diversity, wall))

        # Absolute progress: the champion against fixed opponents.
        if not a.no_benchmark and g % BENCH_EVERY == 0:
            champ = pop[int(np.argmax(f))]
            for k, opp in enumerate(OPPONENTS):
                p_win = min(0.97, strength(champ) * (0.95 if k == 0 else 0.6)
                            + (0.35 if k == 0 else 0.05))
                w = int(rng.binomial(BENCH_GAMES, p_win))
                d = int(rng.binomial(BENCH_GAMES - w, 0.15))
                l = BENCH_GAMES - w - d
                bench_rows.append((g, opp, w, d, l, (w + 0.5 * d) / BENCH_GAMES))

    stats_t = np.dtype([("generation", "<i4"), ("games", "<i8"),
                        ("evaluations", "<i8"), ("best", "<f8"),
                        ("mean", "<f8"), ("median", "<f8"), ("std", "<f8"),
                        ("worst", "<f8"), ("diversity", "<f8"),
                        ("wall_seconds", "<f8")])
    games_t = np.dtype([("generation", "<i4"), ("south_id", "<i8"),
                        ("north_id", "<i8"), ("winner", "u1"),
                        ("south_seeds", "<i2"), ("north_seeds", "<i2"),
                        ("plies", "<i4"), ("reason", "u1"), ("seed", "<u8")])
    bench_t = np.dtype([("generation", "<i4"), ("opponent", "S32"),
                        ("wins", "<i4"), ("draws", "<i4"), ("losses", "<i4"),
                        ("score", "<f8")])

    with h5py.File(a.out, "w") as h:
        h.attrs["nickar_version"] = "0.1.0-fake"
        h.attrs["schema_version"] = np.int32(1)
        h.attrs["created"] = "2024-06-07T12:00:00Z"
        h.attrs["variant"] = "warri"
        h.attrs["master_seed"] = np.uint64(a.seed)
        h.attrs["config"] = CONFIG.format(seed=a.seed, G=G, N=N, lo=LO, hi=HI,
                                          every=BENCH_EVERY, bg=BENCH_GAMES)
        h.attrs["threads"] = np.int32(4)
        h.attrs["mpi_ranks"] = np.int32(1)
        h.attrs["feature_set"] = "basic5"
        h.attrs["strategy"] = "ga"

        if a.fixed_strings:
            h["features"] = np.array([f.encode() for f in FEATURES], "S32")
        else:
            h.create_dataset("features", data=FEATURES,
                             dtype=h5py.string_dtype("utf-8"))

        def ext(grp, name, data):   # extendible along G, chunked per generation
            grp.create_dataset(name, data=data, maxshape=(None,) + data.shape[1:],
                               chunks=(1,) + data.shape[1:])

        pg = h.create_group("population")
        ext(pg, "genome", genome)
        if not a.no_sigma:
            ext(pg, "sigma", sigma)
        ext(pg, "fitness", fitness)
        ext(pg, "wins", wins)
        ext(pg, "draws", draws)
        ext(pg, "losses", losses)
        ext(pg, "id", ids)
        ext(pg, "parents", parents)

        h.create_dataset("stats", data=np.array(stats_rows, stats_t),
                         maxshape=(None,), chunks=(64,))
        if not a.no_games:
            h.create_dataset("games", data=np.array(game_rows, games_t),
                             maxshape=(None,), chunks=(256,))
        h.create_dataset("benchmark", data=np.array(bench_rows, bench_t),
                         maxshape=(None,), chunks=(64,))

        cp = h.create_group("checkpoint")
        cp.attrs["generation"] = np.int32(G - 1)
        cp.create_dataset("rng_state", data=rng.integers(0, 255, 64, dtype=np.uint8))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
