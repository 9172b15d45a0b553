#!/usr/bin/python3
# experiments/sprt/oc.py -- the error rates of the SPRT of nickar match
# --sprt under its two models, with bounds far apart.
#
#   /usr/bin/python3 experiments/sprt/oc.py [RUNS] > experiments/sprt/oc.txt
#
# Simulates RUNS tests per hypothesis (default 20000; numpy generator, seed
# 1) at elo0 = 0 against elo1 = 20, alpha = beta = 0.05, on synthetic pairs
# of two independent games with 40% draws (the model of
# tests/test_arena_sprt.c), with the truth at elo0 (false positives) and at
# elo1 (false negatives).  Every method sees the same pairs; a test stops at
# the first pair whose LLR crosses a Wald bound, as nickar's does.
#   gsprt      the exact generalised SPRT (nickar's default, model=gsprt):
#              the maximum-likelihood pentanomial under each hypothesis'
#              expected score, with fishtest's regularisation (an empty
#              cell counts as 1e-3); the multiplier by bisection here
#              (64 halvings, numpy, over all running tests at once), an
#              implementation independent of nickar's (GSL's Brent);
#   normal     the normal approximation (model=normal):
#              n (s1 - s0) (2 s - s0 - s1) / (2 var), var the pairs' sample
#              variance so far (0 while it is 0);
#   known      the same with the true variance of a pair: isolates what
#              estimating the variance from a few dozen pairs costs.
# Prints, for each method, the false-positive and false-negative rates with
# their standard errors sqrt(p (1 - p) / RUNS), and the mean pairs a test
# used.  oc.txt is its output at the default RUNS (about 7 CPU-minutes on
# the shared machine); docs/cli.md quotes it.
import sys

import numpy as np

R = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
D = 0.4
MAXN = 20000
METHODS = ("gsprt", "normal", "known")


def score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


S0, S1 = score(0), score(20)
LOWER, UPPER = np.log(0.05 / 0.95), np.log(0.95 / 0.05)
XS = np.arange(5) / 4.0  # pair score per game


def penta(s):
    w, l = s - D / 2, 1 - s - D / 2
    g = np.array([l, D, w])
    return np.convolve(g, g)


def profile(phat, s):
    """sum_i phat_i ln(p_i / phat_i) at the maximum-likelihood p with mean
    s: p_i = phat_i / (1 + lam d_i), d_i = a_i - s, lam the root of
    sum_i phat_i d_i / (1 + lam d_i) = 0 in (-1/(1-s), 1/s), by bisection
    (the function decreases in lam).  phat: (runs, 5), all > 0."""
    d = XS - s
    lo = np.full(len(phat), -1 / d.max())
    hi = np.full(len(phat), -1 / d.min())
    for _ in range(64):
        mid = (lo + hi) / 2
        f = (phat * d / (1 + mid[:, None] * d)).sum(axis=1)
        pos = f > 0
        lo = np.where(pos, mid, lo)
        hi = np.where(pos, hi, mid)
    lam = (lo + hi) / 2
    return -(phat * np.log1p(lam[:, None] * d)).sum(axis=1)


def llr(method, cnt, n, true_var):
    if method == "gsprt":
        m = np.where(cnt > 0, cnt, 1e-3)
        tot = m.sum(axis=1)
        phat = m / tot[:, None]
        return tot * (profile(phat, S1) - profile(phat, S0))
    ph = cnt / n
    mean = ph @ XS
    var = ph @ XS ** 2 - mean ** 2 if method == "normal" else np.full(len(cnt), true_var)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = n * (S1 - S0) * (2 * mean - S0 - S1) / (2 * var)
    return np.where(var > 1e-15, out, 0.0)


def simulate(true_elo, rng):
    """For each method: (wrong decisions, mean pairs) over R tests."""
    p = penta(score(true_elo))
    true_var = p @ XS ** 2 - (p @ XS) ** 2
    cnt = np.zeros((R, 5))
    verdict = {m: np.zeros(R, int) for m in METHODS}  # 0 running, -1 H0, 1 H1
    used = {m: np.zeros(R, int) for m in METHODS}
    for n in range(1, MAXN + 1):
        live = np.zeros(R, bool)
        for m in METHODS:
            live |= verdict[m] == 0
        if not live.any():
            break
        idx = np.flatnonzero(live)
        out = rng.choice(5, size=len(idx), p=p)
        cnt[idx, out] += 1
        for m in METHODS:
            run = idx[verdict[m][idx] == 0]
            if len(run) == 0:
                continue
            v = llr(m, cnt[run], n, true_var)
            dec = np.where(v >= UPPER, 1, np.where(v <= LOWER, -1, 0))
            verdict[m][run] = dec
            used[m][run[dec != 0]] = n
    wrong = 1 if true_elo == 0 else -1
    return {m: ((verdict[m] == wrong).sum(), used[m].mean(), (verdict[m] == 0).sum())
            for m in METHODS}


def main():
    rng = np.random.default_rng(1)
    at0, at1 = simulate(0, rng), simulate(20, rng)
    print(f"SPRT elo0 = 0 against elo1 = 20, alpha = beta = 0.05; {R} simulated tests per "
          f"hypothesis, pairs of independent games with 40% draws (numpy seed 1)")
    for m in METHODS:
        fp, fn = at0[m][0] / R, at1[m][0] / R
        se = lambda q: (q * (1 - q) / R) ** 0.5
        print(f"{m:7s} false positives {fp:.4f} (se {se(fp):.4f}), false negatives {fn:.4f} "
              f"(se {se(fn):.4f}); mean pairs {at0[m][1]:.1f} at elo0, {at1[m][1]:.1f} at elo1"
              + (f"; undecided at {MAXN} pairs: {at0[m][2] + at1[m][2]}"
                 if at0[m][2] + at1[m][2] else ""))


if __name__ == "__main__":
    main()
