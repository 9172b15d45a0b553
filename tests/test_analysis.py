#!/usr/bin/python3
"""test_analysis.py -- analysis/nickar_analysis.py on a real run file made
by nickar and on hand-made match results.

    test_analysis.py NICKAR SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

NICKAR, SRC = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SRC, "analysis"))
import nickar_analysis as na  # noqa: E402


class Analysis(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.runfile = os.path.join(cls.tmp.name, "run.h5")
        subprocess.run([NICKAR, "evolve", os.path.join(SRC, "configs", "quickstart.ini"),
                        "--output", cls.runfile, "--set", "experiment.generations=3",
                        "--set", "population.size=4", "--set", "player.depth=1",
                        "--set", "benchmark.every=1", "--set", "benchmark.games=2",
                        "--set", "benchmark.opponents=random"],
                       check=True, stdout=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_run_tables(self):
        import h5py
        import numpy as np
        r = na.read(self.runfile)
        self.assertEqual(r["kind"], "run")
        s = na.run_stats(r)
        self.assertEqual(list(s["generation"]), [0, 1, 2])
        with h5py.File(self.runfile, "r") as f:
            best = f["stats"]["best"]
            fit = f["population/fitness"][2]
            genome = f["population/genome"][2]
            names = [x.decode() for x in f["features"][()]]
            bgen = list(f["benchmark"]["generation"])
        self.assertTrue(np.array_equal(s["best"].to_numpy(), best))
        c = na.run_champion(r)
        i = int(np.argmax(fit))
        self.assertEqual(c["generation"], 2)
        self.assertEqual(c["fitness"], float(fit[i]))
        self.assertEqual(list(c["weights"].index), names)
        self.assertTrue(np.array_equal(c["weights"].to_numpy(), genome[i]))
        b = na.run_benchmark(r)
        self.assertEqual(list(b["generation"]), bgen)
        self.assertGreater(len(bgen), 0)
        self.assertEqual(set(b["opponent"]), {"random"})
        t = na.stats_table([r, self.runfile], labels=["x", "y"])
        self.assertEqual(list(t["run"]), ["x"] * 3 + ["y"] * 3)

    def test_plots(self):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, (a, b) = plt.subplots(2)
        na.plot_fitness([self.runfile], a, labels=["q"])
        self.assertEqual(len(a.get_lines()), 2)  # best and mean
        na.plot_weights([na.run_champion(self.runfile)["weights"]], b)
        self.assertEqual(len(b.get_lines()), 1)
        out = os.path.join(self.tmp.name, "p.png")
        fig.savefig(out)
        self.assertGreater(os.path.getsize(out), 1000)

    def test_readers(self):
        bad = os.path.join(self.tmp.name, "x.txt")
        with open(bad, "w") as f:
            f.write("not a run\n")
        with self.assertRaises(ValueError):
            na.read(bad)
        # A new kind plugs in without changing the module.
        na.register_reader("text", lambda p: p.endswith(".txt"),
                           lambda p: {"kind": "text", "path": p})
        try:
            self.assertEqual(na.read(bad)["kind"], "text")
            self.assertEqual(na.read(self.runfile)["kind"], "run")  # first reader wins
        finally:
            na._READERS.pop()

    def test_score_interval(self):
        # 6 wins, 2 draws, 2 losses: score 0.7; per-game deviations
        # 0.3 (x6), -0.2 (x2), -0.7 (x2): variance (0.54 + 0.08 + 0.98) / 10
        # = 0.16; half-width 1.96 * sqrt(0.016) = 0.2479.
        s, lo, hi = na.score_interval(6, 2, 2)
        self.assertAlmostEqual(s, 0.7)
        self.assertAlmostEqual(hi - s, 1.959963984540054 * 0.016 ** 0.5)
        self.assertAlmostEqual(s - lo, hi - s)
        self.assertEqual(na.score_interval(3, 0, 0), (1.0, 1.0, 1.0))
        line = json.dumps({"variant": "awari", "a": "A", "b": "B", "games": 10,
                           "wins": 6, "draws": 2, "losses": 2, "elo": 147.2,
                           "elo_ci": [10.0, 300.0]})
        t = na.match_table([line])
        self.assertEqual(t.loc[0, "score"], s)
        self.assertEqual(t.loc[0, "elo_lo"], 10.0)


class StrategyStatistics(unittest.TestCase):
    """The statistics of the strategies study against worked examples."""

    def test_mann_whitney_separated(self):
        # x all below y: U = 0; of the C(6,3) = 20 splits only {1,2,3} and
        # {4,5,6} are as extreme, so the exact two-sided p is 2/20.
        r = na.mann_whitney_u([1, 2, 3], [4, 5, 6])
        self.assertEqual(r["method"], "exact")
        self.assertEqual(r["u"], 0.0)
        self.assertEqual(r["a"], 0.0)
        self.assertAlmostEqual(r["p"], 0.1)
        r = na.mann_whitney_u([4, 5, 6], [1, 2, 3])
        self.assertEqual((r["u"], r["a"]), (9.0, 1.0))
        self.assertAlmostEqual(r["p"], 0.1)

    def test_mann_whitney_ties(self):
        # x = 1, 2, 2 and y = 2, 3, 4.  Mid-ranks of the pool 1,2,2,2,3,4:
        # 1, 3, 3, 3, 5, 6; R_x = 1 + 3 + 3 = 7, U = 7 - 6 = 1 (the two
        # 2-2 ties count 1/2 each).  The 20 splits give U = 1 three times
        # ({1,3,3} with any two of the three 3s) and U = 8 three times
        # ({3,5,6}): 6 of 20 at least 3.5 from the centre 4.5, p = 0.3.
        r = na.mann_whitney_u([1, 2, 2], [2, 3, 4])
        self.assertEqual(r["u"], 1.0)
        self.assertAlmostEqual(r["a"], 1 / 9)
        self.assertAlmostEqual(r["p"], 0.3)

    def test_mann_whitney_normal(self):
        # The same separated samples by the normal approximation: mean 4.5,
        # variance 3 * 3 * 7 / 12 = 5.25, z = (4.5 - 0.5) / sqrt(5.25) =
        # 1.7457, two-sided p = 2 (1 - Phi(1.7457)) = 0.08086.
        r = na.mann_whitney_u([1, 2, 3], [4, 5, 6], exact_limit=0)
        self.assertEqual(r["method"], "normal")
        self.assertAlmostEqual(r["p"], 0.08086, places=4)
        # Ten against ten, separated: exact p = 2 / C(20, 10) = 2 / 184756.
        r = na.mann_whitney_u(range(10), range(10, 20))
        self.assertEqual(r["method"], "exact")
        self.assertAlmostEqual(r["p"], 2 / 184756)
        # Identical samples: no evidence at all.
        self.assertEqual(na.mann_whitney_u([5, 5], [5, 5])["p"], 1.0)

    def test_holm(self):
        # p = 0.01, 0.04, 0.03 (m = 3): sorted 0.01 * 3 = 0.03,
        # 0.03 * 2 = 0.06, 0.04 * 1 = 0.04 -> max(0.06, 0.04) = 0.06.
        adj = na.holm([0.01, 0.04, 0.03])
        for a, b in zip(adj, [0.03, 0.06, 0.06]):
            self.assertAlmostEqual(a, b)
        self.assertEqual(na.holm([0.5, 0.6]), [1.0, 1.0])
        self.assertEqual(na.holm([0.2]), [0.2])

    def test_median_ci(self):
        # n = 10: P(Bin(10, 1/2) <= 1) = 11/1024, so [x_(2), x_(9)] covers
        # with 1 - 22/1024; k = 3 would cover only 1 - 112/1024 < 0.95.
        med, lo, hi, cov = na.median_ci([7, 3, 10, 1, 5, 9, 2, 8, 4, 6])
        self.assertEqual((med, lo, hi), (5.5, 2.0, 9.0))
        self.assertAlmostEqual(cov, 1 - 22 / 1024)
        # n = 3: no pair of order statistics reaches 95%; the extremes give
        # 1 - 2/8 = 0.75.
        self.assertEqual(na.median_ci([3, 1, 2]), (2.0, 1.0, 3.0, 0.75))

    def test_bands(self):
        import pandas as pd
        t = pd.DataFrame({"s": ["a"] * 5 + ["b"] * 2, "x": [1] * 5 + [1, 2],
                          "y": [1, 2, 3, 4, 5, 7, 8]})
        b = na.quantile_bands(t, "x", "y", "s")
        self.assertEqual(list(b["s"]), ["a", "b", "b"])
        a = b.iloc[0]
        self.assertEqual((a.n, a["min"], a.q25, a["median"], a.q75, a["max"]),
                         (5, 1, 2, 3, 4, 5))
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        na.plot_bands(t, ax, "x", "y", "s")
        self.assertEqual(len(ax.get_lines()), 6)  # median, min, max per group
        plt.close(fig)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]])
