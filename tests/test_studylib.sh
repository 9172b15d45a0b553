# test_studylib.sh -- experiments/studylib.py's statistics (issue 24):
# the joint rating fit against `nickar rate`'s own joint fits (committed in
# results/), its covariance, the pair-based Wilson interval of a score, and
# the counted exact Mann-Whitney test against nickar_analysis's listed one.
#
#   bash tests/test_studylib.sh NICKAR_BINARY SOURCE_ROOT
set -u
src=$(cd "$2" && pwd) || exit 2
/usr/bin/python3 - "$src" <<'PY'
import json, math, os, random, sys
src = sys.argv[1]
sys.path.insert(0, os.path.join(src, "experiments"))
import studylib as sl
na = sl.na
fail = 0


def check(what, ok):
    global fail
    print(("ok: " if ok else "FAIL: ") + what)
    fail |= not ok


# the joint fit: every `nickar rate` object of results/ayo2004 (joint) again
objs = [json.loads(x) for x in open(os.path.join(src, "results/ayo2004/ratings.jsonl"))]
worst = max(max(abs(e - o["elo"]), abs(se - o["se"]))
            for o in objs
            for e, se, _lo, _hi, _p in [sl.rate_joint(os.path.join(src, o["ladder"]), o["opponents"])])
check(f"rate_joint gives nickar rate's Elo and se for {len(objs)} players (worst {worst:.4f})",
      worst < 0.006)
fit = sl.joint_fit(os.path.join(src, "results/ladder/awari.tsv"),
                   {f"p{k}": o["opponents"] for k, o in enumerate(objs[:4])})
d = fit.diff("p0", "p1")
check("a difference's variance is below the sum of the two anchored ones (the anchor's error cancels)",
      d[3] ** 2 < fit.se_of("p0") ** 2 + fit.se_of("p1") ** 2)
check("the anchor's rating is fixed (se 0)", fit.se_of("random") == 0 and fit.elo_of("random") == 0)
m = fit.mean_diff(["p0", "p1"], ["p2", "p3"])
check("mean_diff is the difference of the means",
      abs(m[0] - ((fit.elo_of("p0") + fit.elo_of("p1")) - (fit.elo_of("p2") + fit.elo_of("p3"))) / 2) < 1e-9)
try:
    sl.fit_ratings(["a", "b", "c"], {("a", "b"): (1, 0, 1)}, "a", 0.0)
    check("players not connected by games are refused", False)
except ValueError:
    check("players not connected by games are refused", True)

# scores: Wilson from the pairs
z2 = sl.Z95 ** 2
s, lo, hi, n_eff = sl.pair_score(200, 0, 0, [0, 0, 0, 0, 100])
check(f"a 200-0-0 sweep gets [200 / (200 + z^2), 1] (got [{lo:.4f}, {hi}])",
      abs(lo - 200 / (200 + z2)) < 1e-12 and hi == 1.0 and s == 1.0)
s1, lo1, hi1, _ = sl.pair_score(199, 0, 1, [0, 0, 1, 0, 99])
check("199-0-1 has a lower bound below the sweep's and an upper one below 1", lo1 < lo and hi1 < 1)
s2, lo2, hi2, n2 = sl.pair_score(100, 0, 100, [0, 0, 100, 0, 0])
check("100 pairs each split 1-1 score 0.5 with the per-game variance (pairs' variance 0)",
      s2 == 0.5 and n2 == 200 and lo2 < 0.5 < hi2)
s3, lo3, hi3, n3 = sl.pair_score(100, 0, 100, [50, 0, 0, 0, 50])
check("pairs won or lost whole count as 100 samples, not 200 (wider interval)", n3 < 101 and hi3 - lo3 > hi2 - lo2)
p, plo, phi = sl.proportion(0, 50)
check("0 of 50 gets [0, z^2 / (50 + z^2)]", plo == 0 and abs(phi - z2 / (50 + z2)) < 1e-12)

# the counted Mann-Whitney test against the listed one
random.seed(7)
same = True
for t in range(40):
    n, mm = random.randint(1, 9), random.randint(1, 9)
    pool = [random.choice([1, 2, 2.5, 3, 7]) if t % 2 else random.random() for _ in range(n + mm)]
    a, b = na.mann_whitney_u(pool[:n], pool[n:]), sl.mann_whitney_u(pool[:n], pool[n:])
    same &= a["u"] == b["u"] and a["p"] == b["p"] and a["a"] == b["a"]
check("mann_whitney_u: the same u, a and p as nickar_analysis's on 40 samples, ties included", same)
sys.exit(1 if fail else 0)
PY
