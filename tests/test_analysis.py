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


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]])
