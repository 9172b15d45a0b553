#!/usr/bin/python3
"""test_sprt_reference.py -- the SPRT's log-likelihood ratios of
src/arena/arena.c recomputed independently from pentanomial counts.

    /usr/bin/python3 tests/test_sprt_reference.py SPRT_LLR NICKAR

For each case (ELO0, ELO1 and the counts of pairs by A's half points 0..4):
  - the exact GSPRT (model gsprt): for s = s0 and s = s1 (logistic
    expected scores) the maximum of sum_i phat_i ln p_i subject to sum_i
    p_i = 1 and sum_i p_i a_i = s, a_i = i/4, with fishtest's
    regularisation (an empty cell counts as 1e-3), through its convex dual
    (a bounded scalar minimisation in scipy, not the root of the
    multiplier's equation that nickar solves); LLR = N times the
    difference of the two maxima (= sum_i n_i ln(p1_i / p0_i));
  - the normal approximation (model normal): n (s1 - s0) (2 m - s0 - s1) /
    (2 var), m and var the mean and variance of the pair score over the n
    pairs (when every pair scored alike, the per-game variance over the 2n
    games of the pairs as tests/sprt_llr.c counts them).
Both are compared with SPRT_LLR (tests/sprt_llr.c, nk_arena_sprt on a tally
of those pairs) to 1e-6.  The cases: fixed ones (empty cells, a single
cell, large counts, asymmetric bounds) and 40 drawn with numpy's generator
(seed 7); and the pairs of nickar's depth-3 against depth-2 Abapa match of
docs/cli.md, whose LLRs `nickar match --sprt ... --json` prints, checked
the same way (to its 6 decimals) under both models.
"""
import json
import subprocess
import sys

import numpy as np
from scipy.optimize import minimize_scalar

A = np.arange(5) / 4.0
# A's two games of a pair of 0..4 half points, as tests/sprt_llr.c counts them
GAMES = [(0, 0), (0.5, 0), (0.5, 0.5), (1, 0.5), (1, 1)]
TOL = 1e-6


def score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def profile(phat, s):
    """max sum_i phat_i ln p_i over the distributions p with mean s, less
    sum_i phat_i ln phat_i, by convex duality (empirical likelihood):
    -max over lam of sum_i phat_i ln(1 + lam (a_i - s)), the maximum over
    the lam that keep every 1 + lam (a_i - s) > 0, found by scipy's bounded
    scalar minimiser (no root of the multiplier's equation is solved)."""
    d = A - s
    lo, hi = -1.0 / d.max(), -1.0 / d.min()
    width = hi - lo
    def g(lam):
        return -(phat * np.log1p(lam * d)).sum()
    r = minimize_scalar(g, bounds=(lo + 1e-12 * width, hi - 1e-12 * width),
                        method="bounded", options={"xatol": 1e-13 * width, "maxiter": 2000})
    assert r.success, r.message
    return r.fun


def gsprt(elo0, elo1, n):
    m = np.array([c if c > 0 else 1e-3 for c in n], float)
    phat = m / m.sum()
    return float(m.sum() * (profile(phat, score(elo1)) - profile(phat, score(elo0))))


def normal(elo0, elo1, n):
    n = np.array(n, float)
    pairs = n.sum()
    mean = (n * A).sum() / pairs
    var = (n * (A - mean) ** 2).sum() / pairs
    s0, s1 = score(elo0), score(elo1)
    if var == 0:  # every pair alike: the per-game variance of the games
        games = [g for k, c in enumerate(n) for _ in range(int(c)) for g in GAMES[k]]
        pairs = len(games)
        var = float(np.var(games))
    if var == 0:
        return 0.0
    return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def main():
    sprt_llr, nickar = sys.argv[1], sys.argv[2]
    cases = [(0, 30, [3, 10, 20, 12, 5]), (0, 30, [0, 1, 5, 3, 2]),
             (0, 30, [0, 0, 1, 0, 10]), (0, 30, [10, 0, 1, 0, 0]),
             (0, 5, [100, 200, 300, 250, 150]), (-2, 4, [40, 700, 1500, 720, 45]),
             (0, 20, [0, 3, 0, 0, 0]), (-10, 10, [5000, 0, 0, 0, 5001]),
             (0, 30, [0, 0, 3, 0, 8]), (0, 30, [0, 0, 13, 0, 23])]
    rng = np.random.default_rng(7)
    for _ in range(40):
        elo0 = float(rng.integers(-20, 20))
        elo1 = elo0 + float(rng.integers(1, 40))
        n = rng.integers(0, 60, size=5) * (rng.random(5) < 0.8)
        n[2] += 1  # at least one pair
        n[rng.integers(0, 2) * 4] += 1  # a variance > 0
        cases.append((elo0, elo1, [int(c) for c in n]))
    text = "".join(f"{e0} {e1} {' '.join(map(str, n))}\n" for e0, e1, n in cases)
    out = subprocess.run([sprt_llr], input=text, capture_output=True, text=True, check=True)
    rows = out.stdout.split("\n")
    worst = 0.0
    for (e0, e1, n), row in zip(cases, rows):
        c_g, c_n = map(float, row.split())
        r_g, r_n = gsprt(e0, e1, n), normal(e0, e1, n)
        worst = max(worst, abs(c_g - r_g), abs(c_n - r_n))
        assert abs(c_g - r_g) < TOL, (e0, e1, n, "gsprt", c_g, r_g)
        assert abs(c_n - r_n) < TOL, (e0, e1, n, "normal", c_n, r_n)
    assert len(rows) >= len(cases)
    print(f"{len(cases)} cases: nickar's LLRs agree with the recomputation "
          f"(largest difference {worst:.2e})")

    # nickar match --sprt: the pairs it counted give the LLR it printed
    for model in ("gsprt", "normal"):
        o = json.loads(subprocess.run(
            [nickar, "match", "--variant", "abapa", "--json", "--sprt",
             f"elo0=0,elo1=30,model={model}", "ab:depth=3", "ab:depth=2"],
            capture_output=True, text=True, check=True).stdout)
        t, n = o["sprt"], o["pentanomial"]
        ref = (gsprt if model == "gsprt" else normal)(0, 30, n)
        assert t["model"] == model, t
        assert abs(t["llr"] - ref) < TOL, (model, n, t["llr"], ref)
        other = normal(0, 30, n) if model == "gsprt" else gsprt(0, 30, n)
        print(f"match depth 3 against 2, model {model}: {o['pairs']} pairs {n}, "
              f"LLR {t['llr']:.6f} (recomputed {ref:.6f}; the other model "
              f"{other:.6f}), decision {t['decision']}")


if __name__ == "__main__":
    main()
