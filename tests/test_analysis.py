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

    # ===== study helpers (ayo2004, davis-kendall-2002) =====

    def test_rating_table(self):
        # the shape `nickar rate --json` prints (docs/cli.md), read from a
        # real quick ladder rating below and from a hand-made line here
        line = json.dumps({"player": "greedy", "variant": "awari", "ladder": "l.tsv",
                           "games": 32, "elo": 388.5, "se": 131.5, "ci": [130.8, 646.2],
                           "prior": False, "opponents": []})
        t = na.rating_table([line, json.loads(line) | {"prior": True}])
        self.assertEqual(list(t["player"]), ["greedy", "greedy"])
        self.assertEqual(t.loc[0, "elo_lo"], 130.8)
        self.assertEqual(t.loc[0, "elo_hi"], 646.2)
        self.assertEqual(list(t["prior"]), [False, True])
        self.assertEqual(len(na.rating_table([])), 0)

    def test_rating_table_from_nickar(self):
        lad = os.path.join(self.tmp.name, "ladder.tsv")
        with open(lad, "w") as f:
            f.write("# a two-rung ladder\nrandom\trandom\t0\ngreedy\tgreedy\t400\n")
        p = subprocess.run([NICKAR, "rate", "--variant", "awari", "--ladder", lad,
                            "--games", "4", "--json", "ab:depth=1"],
                           check=True, capture_output=True, text=True)
        t = na.rating_table(p.stdout.splitlines())
        self.assertEqual(len(t), 1)
        self.assertEqual(t.loc[0, "player"], "ab:depth=1")
        self.assertEqual(t.loc[0, "games"], 8)
        self.assertLess(t.loc[0, "elo_lo"], t.loc[0, "elo"])
        self.assertLess(t.loc[0, "elo"], t.loc[0, "elo_hi"])

    def test_read_jsonl(self):
        path = os.path.join(self.tmp.name, "x.jsonl")
        with open(path, "w") as f:
            f.write('{"a": 1}\n\n{"a": 2}\n')
        self.assertEqual(na.read_jsonl(path), [{"a": 1}, {"a": 2}])
        self.assertEqual(na.read_jsonl(path + ".missing"), [])

    def test_seed_summary(self):
        # 1, 2, 3: mean 2, sd 1, t(0.975, 2 df) = 4.303: half-width
        # 4.303 / sqrt(3) = 2.4843
        n, m, lo, hi = na.seed_summary([1.0, 2.0, 3.0])
        self.assertEqual((n, m), (3, 2.0))
        self.assertAlmostEqual(hi - m, 4.303 / 3 ** 0.5)
        self.assertAlmostEqual(m - lo, hi - m)
        # five seeds: t(0.975, 4 df) = 2.776; values 0, 0, 0, 0, 5: mean 1,
        # sd sqrt(20 / 4) = sqrt(5)
        n, m, lo, hi = na.seed_summary([0, 0, 0, 0, 5])
        self.assertAlmostEqual(hi - m, 2.776 * 5 ** 0.5 / 5 ** 0.5)
        one = na.seed_summary([7.0])
        self.assertEqual(one[:2], (1, 7.0))
        self.assertTrue(one[2] != one[2] and one[3] != one[3])  # nan
        self.assertEqual(na.seed_summary([])[0], 0)

    def test_times_table(self):
        path = os.path.join(self.tmp.name, "times.tsv")
        with open(path, "w") as f:
            f.write("evolve s1\t108.95\t33.15\nrate\t2.5\t1.25\nbad line\n")
        t = na.times_table(path)
        self.assertEqual(list(t["label"]), ["evolve s1", "rate"])
        self.assertAlmostEqual(t["cpu"].sum(), 34.4)
        self.assertAlmostEqual(t["wall"].sum(), 111.45)
        self.assertEqual(len(na.times_table(path + ".missing")), 0)

    def test_wdl_percent(self):
        self.assertEqual(na.wdl_percent(4, 3, 3), "40:30:30")
        self.assertEqual(na.wdl_percent(7, 1, 2), "70:10:20")
        self.assertEqual(na.wdl_percent(0, 0, 5), "0:0:100")
        self.assertEqual(na.wdl_percent(0, 0, 0), "")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]])
