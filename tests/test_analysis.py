#!/usr/bin/python3
"""test_analysis.py -- analysis/nickar_analysis.py on a real run file made
by nickar and on hand-made match results.

    test_analysis.py NICKAR SOURCE_DIR
"""
import json
import math
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

    def test_run_arrays(self):
        import h5py
        import numpy as np
        r = na.read_run_arrays(self.runfile)
        self.assertEqual(r["G"], 3)
        with h5py.File(self.runfile, "r") as f:
            for key, ds in (("stats", "stats"), ("genome", "population/genome"),
                            ("fitness", "population/fitness"), ("wins", "population/wins"),
                            ("id", "population/id"), ("benchmark", "benchmark")):
                self.assertTrue(np.array_equal(r[key], f[ds][()]), key)
            self.assertEqual(r["features"], [x.decode() for x in f["features"][()]])
            self.assertEqual(r["has_sigma"], "sigma" in f["population"])
        self.assertEqual(r["genome"].shape[:2], r["fitness"].shape)
        with self.assertRaisesRegex(ValueError, "not a nickar run file"):
            na.read_run_arrays(os.path.join(SRC, "tests", "tourfile_v1.h5"))

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

    def test_tournament_and_ciao_files(self):
        import h5py
        import numpy as np
        tour = os.path.join(self.tmp.name, "t.h5")
        subprocess.run([NICKAR, "tournament", "--variant", "abapa", "--games", "2",
                        "--threads", "1", "--quiet", "--output", tour,
                        "random", "greedy", "ab:depth=1"], check=True, stdout=subprocess.DEVNULL)
        t = na.read(tour)  # chosen by its kind
        self.assertEqual(t["kind"], "tournament")
        self.assertEqual(t["players"], ["random", "greedy", "ab:depth=1"])
        self.assertEqual((t["variant"], t["done"], t["total"]), ("abapa", 3, 3))
        with h5py.File(tour, "r") as f:
            self.assertTrue(np.array_equal(t["score"], f["cross/score"][:]))
            played = f["cross/wins"][:] + f["cross/draws"][:] + f["cross/losses"][:]
            self.assertTrue(np.array_equal(t["games"], played))
            self.assertTrue(np.array_equal(t["ratings"]["elo"], f["ratings"]["elo"]))
        self.assertEqual(int(t["games"].sum()), 2 * 2 * 3)  # 3 pairings, 2 games, both sides
        ciao = os.path.join(self.tmp.name, "run.ciao.h5")
        subprocess.run([NICKAR, "ciao", self.runfile, "--games", "2", "--threads", "1",
                        "--output", ciao], check=True, stdout=subprocess.DEVNULL)
        c = na.read(ciao)
        self.assertEqual(c["kind"], "ciao")
        self.assertEqual(len(c["generations"]), 3)  # every generation's champion
        self.assertEqual(c["score"].shape, (3, 3))
        with h5py.File(ciao, "r") as f:
            for k in ("generations", "score", "master", "ciao", "nash_mix"):
                self.assertTrue(np.array_equal(c[k], f[k][()], equal_nan=True), k)
        # one line naming what is wrong, for each kind of bad input
        for fn, kind in ((na.read_tournament, "tournament"), (na.read_ciao, "ciao")):
            for bad, words in ((os.path.join(self.tmp.name, "none.h5"), "no such file"),
                               (self.tmp.name, "not a regular file"),
                               (os.path.join(self.tmp.name, "x.txt"), "not an HDF5 file"),
                               (self.runfile, f"not a nickar {kind} file")):
                if bad.endswith("x.txt"):
                    with open(bad, "w") as f:
                        f.write("text\n")
                with self.assertRaises(ValueError) as e:
                    fn(bad)
                self.assertIn(words, str(e.exception))
                self.assertNotIn("\n", str(e.exception))
        with self.assertRaisesRegex(ValueError, "not a nickar ciao file"):
            na.read_ciao(tour)
        with self.assertRaisesRegex(ValueError, "not a nickar tournament file"):
            na.read_tournament(ciao)

    def test_studylib(self):
        sys.path.insert(0, os.path.join(SRC, "experiments"))
        import pandas as pd
        import studylib as sl
        self.assertIs(sl.na, na)
        self.assertEqual([sl.num(1.25, 1), sl.num(None), sl.num(float("nan"), 3), sl.f0(2.5),
                          sl.f3(0.5)], ["1.2", "-", "-", "2", "0.500"])
        self.assertEqual(sl.interval(1, 0.5, 1.5, 1), "1.0 [0.5, 1.5]")
        self.assertEqual(sl.records(pd.DataFrame({"a": [1, 2]})), [{"a": 1}, {"a": 2}])
        p = os.path.join(self.tmp.name, "r.json")
        sl.write_json(p, {"x": [1]}, end="\n")
        with open(p) as f:
            self.assertEqual(f.read(), '{\n "x": [\n  1\n ]\n}\n')
        sl.write_lines(p, ["a", "b"])
        with open(p) as f:
            self.assertEqual(f.read(), "a\nb")
        a = sl.settings(out="o", seeds=2)
        self.assertEqual((a.out, a.seeds), ("o", 2))

    def test_timecmd(self):
        """experiments/timecmd.py: wall, user and system seconds and peak
        memory of the command, in GNU time's "%e %U %S %M" form; its exit
        status."""
        timecmd = os.path.join(SRC, "experiments", "timecmd.py")
        out = os.path.join(self.tmp.name, "t.txt")
        # a child that holds about 60 MB and burns some CPU
        code = "x = bytearray(60_000_000); s = sum(range(3_000_000))"
        r = subprocess.run([sys.executable, timecmd, out, sys.executable, "-c", code])
        self.assertEqual(r.returncode, 0)
        with open(out) as f:
            line = f.read()
        fields = line.split()
        self.assertEqual(len(fields), 4)
        wall, user, system, rss = float(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])
        self.assertGreater(rss, 60_000)  # KB
        self.assertLess(rss, 1_000_000)
        self.assertGreater(user + system, 0.0)
        self.assertGreaterEqual(wall, 0.0)
        self.assertRegex(line, r"^\d+\.\d\d \d+\.\d\d \d+\.\d\d \d+\n$")
        r = subprocess.run([sys.executable, timecmd, out, "sh", "-c", "exit 3"])
        self.assertEqual(r.returncode, 3)
        r = subprocess.run([sys.executable, timecmd, out, "sh", "-c", "kill -TERM $$"])
        self.assertEqual(r.returncode, 128 + 15)
        r = subprocess.run([sys.executable, timecmd, out, os.path.join(self.tmp.name, "none")],
                           stderr=subprocess.PIPE, text=True)
        self.assertEqual(r.returncode, 127)
        self.assertIn("cannot run", r.stderr)

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

    # --- seeds, ratings and weight spreads (the module's last section) ---

    def test_t_quantile(self):
        # Student t 97.5% points from the printed tables (e.g. Abramowitz &
        # Stegun 26.10): df 1, 2, 4, 10, 30; the normal's 1.95996 far out.
        for df, t in ((1, 12.7062), (2, 4.3027), (4, 2.7764), (10, 2.2281),
                      (30, 2.0423)):
            self.assertAlmostEqual(na.t_quantile(0.975, df), t, places=3)
        self.assertAlmostEqual(na.t_quantile(0.975, 1e6), 1.95996, places=3)
        self.assertAlmostEqual(na.t_quantile(0.025, 4), -2.7764, places=3)
        self.assertEqual(na.t_quantile(0.5, 3), 0.0)
        with self.assertRaises(ValueError):
            na.t_quantile(1.0, 3)

    def test_mean_interval(self):
        # 1..5: mean 3, sd sqrt(2.5), half-width 2.7764 * sqrt(2.5 / 5).
        m, lo, hi, n = na.mean_interval([1, 2, 3, 4, 5])
        self.assertEqual((m, n), (3.0, 5))
        self.assertAlmostEqual(hi - m, 2.7764 * 0.5 ** 0.5, places=3)
        self.assertAlmostEqual(m - lo, hi - m)
        m, lo, hi, n = na.mean_interval([7.0])
        self.assertEqual((m, n), (7.0, 1))
        self.assertTrue(math.isnan(lo) and math.isnan(hi))

    def test_welch_interval(self):
        # a = 1,2,3 (var 1), b = 4,5,7 (var 7/3): se^2 = 1/3 + 7/9 = 10/9;
        # Welch df = (10/9)^2 / ((1/3)^2 / 2 + (7/9)^2 / 2) = 3.4483.
        d, lo, hi = na.welch_interval([1, 2, 3], [4, 5, 7])
        self.assertAlmostEqual(d, -10 / 3)
        df = (10 / 9) ** 2 / ((1 / 3) ** 2 / 2 + (7 / 9) ** 2 / 2)
        self.assertAlmostEqual(hi - d, na.t_quantile(0.975, df) * (10 / 9) ** 0.5)
        self.assertGreater(na.t_quantile(0.975, df), na.t_quantile(0.975, 4))
        self.assertLess(na.t_quantile(0.975, df), na.t_quantile(0.975, 3))
        d, lo, hi = na.welch_interval([2, 2], [1, 1])  # no spread at all
        self.assertEqual(d, 1.0)
        self.assertTrue(math.isnan(lo))

    def test_rating_table(self):
        # A real `nickar rate --json` on a two-rung ladder made here.
        ladder = os.path.join(self.tmp.name, "ladder.tsv")
        with open(ladder, "w") as f:
            f.write("# test ladder\nrandom\trandom\t0\ngreedy\tgreedy\t400\n")
        p = subprocess.run([NICKAR, "rate", "--variant", "abapa", "--ladder", ladder,
                            "--games", "4", "--json", "ab:depth=1,features=material"],
                           check=True, capture_output=True, text=True)
        o = json.loads(p.stdout)
        t = na.rating_table([p.stdout, {"trained": "abapa", "seed": 3, "rate": o}])
        self.assertEqual(len(t), 2)
        self.assertEqual(t.loc[0, "elo"], o["elo"])
        self.assertEqual((t.loc[0, "elo_lo"], t.loc[0, "elo_hi"]), tuple(o["ci"]))
        self.assertEqual(t.loc[0, "games"], 8)
        self.assertEqual(t.loc[1, "trained"], "abapa")
        self.assertEqual(t.loc[1, "seed"], 3)
        self.assertEqual(t.loc[1, "player"], "ab:depth=1,features=material")

    def test_normalise_weights(self):
        import pandas as pd
        w = pd.Series([0.5, -2.0, 1.0], index=["a", "b", "c"])
        n = na.normalise_weights(w)
        self.assertEqual(list(n), [0.25, -1.0, 0.5])
        self.assertEqual(list(n.index), ["a", "b", "c"])
        self.assertEqual(list(na.normalise_weights([0.0, 0.0])), [0.0, 0.0])
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        na.plot_weight_spread({"x": [w, 2 * w], "y": [w]}, ax)
        # per group: the mean line, and one dot line per seed
        self.assertEqual(len(ax.get_lines()), (1 + 2) + (1 + 1) + 1)  # + the zero line
        mean_x = ax.get_lines()[0].get_ydata()
        self.assertEqual(list(mean_x), [0.25, -1.0, 0.5])  # 2w normalises to the same
        plt.close(fig)

    # ===== study helpers (ayo2004, davis-kendall-2002) =====

    def test_rating_table_rate_lines(self):
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


    def test_read_ladder(self):
        # a ladder as experiments/ladder/run.sh writes it: players, then the
        # results lines nickar rate fits with, which are not players
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "v.tsv")
            with open(p, "w") as f:
                f.write("# name\tspec\telo\nrandom\trandom\t0.0\n"
                        "greedy\tgreedy\t479.6\n@anchor\trandom\t0\n"
                        "@wdl\trandom\tgreedy\t15\t5\t380\n")
            self.assertEqual(na.read_ladder(p), {"random": 0.0, "greedy": 479.6})
            self.assertEqual(list(na.ladder_table(p)["spec"]), ["random", "greedy"])
            with open(p, "a") as f:
                f.write("bad line\n")
            with self.assertRaisesRegex(ValueError, "v.tsv:6: expected"):
                na.read_ladder(p)


    def test_rate_fit_phrase(self):
        # rate --json says "joint" since the ladder holds its own games;
        # lines without the key are from a fit with the ladder held exact
        base = {"player": "p", "variant": "abapa", "games": 2, "elo": 1.0,
                "se": 1.0, "ci": [0.0, 2.0], "prior": False}
        joint = na.rating_table([base | {"joint": True}] * 2)
        fixed = na.rating_table([base, base | {"joint": False}])
        both = na.rating_table([base | {"joint": True}, base])
        self.assertIn("jointly", na.rate_fit_phrase(joint))
        self.assertIn("taken as exact", na.rate_fit_phrase(fixed))
        self.assertIn("some fitted jointly", na.rate_fit_phrase(both))


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
