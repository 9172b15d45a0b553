"""experiments/studylib.py -- what the studies' reports share
(experiments/*/report.py): the shared reader (analysis/nickar_analysis.py,
as ``na``), numbers as the READMEs write them, the quick-run banner, JSON
records of a table, and writing results.json, the PNGs and README.md.

A report is a module of functions (load, tables, plots, readme, ...) and a
``main(argv)``; run.sh runs it as a script with /usr/bin/python3.  Each
imports this module by putting experiments/ on sys.path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import studylib as sl
    na = sl.na
"""

import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "analysis"))
import nickar_analysis as na  # noqa: E402,F401  (the reports' reader)

QUICK_BANNER = ("**QUICK RUN: a tiny budget that only checks the script; no number "
                "below means anything.**")


def readme_start(title, quick):
    """A README's first lines: its title and, for a quick run, the banner."""
    return [title, ""] + ([QUICK_BANNER, ""] if quick else [])


def num(x, nd=0):
    """x with nd decimals; "-" for None or NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.{nd}f}"


def f0(x):
    return num(x, 0)


def f1(x):
    return num(x, 1)


def f3(x):
    return num(x, 3)


def interval(m, lo, hi, nd=0):
    """'m [lo, hi]', each with nd decimals."""
    return f"{num(m, nd)} [{num(lo, nd)}, {num(hi, nd)}]"


def records(table):
    """A pandas table as a list of JSON objects, one a row."""
    return json.loads(table.to_json(orient="records"))


def write_json(path, obj, end=""):
    """obj to path as JSON (results.json: indented by 1), then end."""
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write(end)


def write_lines(path, lines):
    """The lines of a README, joined by newlines."""
    with open(path, "w") as f:
        f.write("\n".join(lines))


def pyplot():
    """matplotlib.pyplot on the Agg backend (no display)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig, path, dpi=80, rect=None):
    """Lays fig out (tight, within rect when given), writes it as a PNG and
    closes it."""
    if rect is None:
        fig.tight_layout()
    else:
        fig.tight_layout(rect=rect)
    fig.savefig(path, dpi=dpi)
    pyplot().close(fig)


def settings(**kw):
    """A report's settings (its command line) as one object: a.seeds, ..."""
    import types
    return types.SimpleNamespace(**kw)


# ===== intervals for scores and proportions =====
#
# One method for every score in the READMEs (issue 24, items 9 and 10): the
# games of a match come in colour-swapped pairs that share an opening, so
# the standard error of the mean score is taken from the pairs (the
# pentanomial: the variance of x = pair points / 2 over the P pairs, as
# nickar's own Elo interval, src/arena/arena.h); the interval is Wilson's
# score interval with the pairs' effective number of games
# n_eff = s (1 - s) / se^2 (the design effect of the pairing, as Korn &
# Graubard's effective sample size), so that it never has zero width: a
# 200-0-0 match, whose pairs all scored the same, gets n_eff = N (the
# games) and the interval of 200 wins in 200.  A plain proportion (k of n,
# e.g. a draw rate) gets Wilson's interval, the same numbers as scipy's
# binomtest(k, n).proportion_ci(method="wilson") (scipy is not among
# nickar's packages, so the formula is written out here).

Z95 = 1.959963984540054


def wilson(p, n, z=Z95):
    """Wilson's score interval for a proportion p observed in n (possibly
    non-integer, an effective number) trials: (lo, hi)."""
    if n <= 0:
        return (math.nan, math.nan)
    z2 = z * z
    c = (p + z2 / (2 * n)) / (1 + z2 / n)
    h = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, c - h), min(1.0, c + h))


def proportion(k, n):
    """k of n as (p, lo, hi) with Wilson's 95% interval."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    lo, hi = wilson(k / n, n)
    return (k / n, lo, hi)


def pair_score(wins, draws, losses, pentanomial=None):
    """A match's mean score per game and its 95% interval from the
    colour-swapped pairs (see above): (score, lo, hi, n_eff).  pentanomial:
    the pairs by A's points in half points 0..4 (`nickar match --json`);
    without it (games not in pairs) the per-game variance is used."""
    n = wins + draws + losses
    if n == 0:
        return (math.nan, math.nan, math.nan, 0.0)
    s = (wins + 0.5 * draws) / n
    var, samples = 0.0, n
    if pentanomial is not None and sum(pentanomial) > 0:
        samples = sum(pentanomial)
        var = sum(c * (k / 4.0 - s) ** 2 for k, c in enumerate(pentanomial)) / samples
    if var <= 0:
        samples = n
        var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    se2 = var / samples
    n_eff = s * (1 - s) / se2 if se2 > 0 and 0 < s < 1 else float(n)
    lo, hi = wilson(s, n_eff)
    return (s, lo, hi, n_eff)


def pooled_pairs(objs):
    """The W, D, L and pentanomial summed over `nickar match --json` objects
    (the games of several seeds taken as one sample of pairs)."""
    w = sum(o["wins"] for o in objs)
    d = sum(o["draws"] for o in objs)
    l_ = sum(o["losses"] for o in objs)
    pent = [sum(o["pentanomial"][k] for o in objs) for k in range(5)] if all(
        "pentanomial" in o for o in objs) else None
    return w, d, l_, pent


SCORE_METHOD = ("95% interval: Wilson's score interval with the effective number of "
                "games from the colour-swapped pairs (their pentanomial variance), so "
                "that a clean sweep gets a one-sided interval rather than none "
                "(experiments/studylib.py: pair_score)")


# ===== ratings: the joint fit =====
#
# A port of nickar's rating fit (src/arena/rating.c, nk_ratings_fit): the
# Bradley-Terry model on the logistic Elo scale, draws as half a win, the
# anchor's rating fixed, Newton's method with step halving, the covariance
# J^-1 K J^-1 (K: J with each pairing's variance p(1-p) less a quarter of
# its draw share), one virtual draw a pairing when the games do not connect
# the players by wins both ways.  `nickar rate` fits the ladder's own games
# (its @wdl lines) with one rated player; joint_fit fits them with any
# number of rated players at once, so that the differences the READMEs
# compare get their interval from the joint covariance, where the anchor's
# error (shared by every rating) cancels (issue 24, item 11).

C_ELO = math.log(10.0) / 400.0


def ladder_games(path):
    """A ladder file's players, anchor and games: (names, anchor name,
    anchor Elo, {(a, b): (w, d, l)}) from its NAME<TAB>SPEC<TAB>ELO,
    @anchor and @wdl lines."""
    names, anchor, anchor_elo, wdl = [], None, 0.0, {}
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if not line.strip() or line.startswith("#"):
                continue
            if p[0] == "@anchor":
                anchor, anchor_elo = p[1], float(p[2])
            elif p[0] == "@wdl":
                wdl[(p[1], p[2])] = tuple(int(x) for x in p[3:6])
            else:
                names.append(p[0])
    if anchor is None or not wdl:
        raise ValueError(f"{path}: no @anchor or @wdl lines: the ladder's games are not stored")
    return names, anchor, anchor_elo, wdl


class Fit:
    """A joint fit: names, elo and cov (numpy), prior; by name: elo_of,
    se_of, interval, diff, contrast."""

    def __init__(self, names, elo, cov, prior):
        self.names, self.elo, self.cov, self.prior = names, elo, cov, prior
        self.index = {n: i for i, n in enumerate(names)}

    def elo_of(self, name):
        return float(self.elo[self.index[name]])

    def se_of(self, name):
        i = self.index[name]
        return math.sqrt(max(0.0, float(self.cov[i, i])))

    def interval(self, name):
        """(elo, lo, hi): the 95% interval against the anchor."""
        e, h = self.elo_of(name), Z95 * self.se_of(name)
        return (e, e - h, e + h)

    def contrast(self, coef):
        """sum c_i r_i over {name: c_i} with its 95% interval from the joint
        covariance: (value, lo, hi, se)."""
        import numpy as np
        c = np.zeros(len(self.names))
        for k, v in coef.items():
            c[self.index[k]] += v
        val = float(c @ self.elo)
        se = math.sqrt(max(0.0, float(c @ self.cov @ c)))
        return (val, val - Z95 * se, val + Z95 * se, se)

    def diff(self, a, b):
        """r_a - r_b with its 95% interval: (d, lo, hi, se)."""
        return self.contrast({a: 1.0, b: -1.0})

    def mean_diff(self, group_a, group_b):
        """mean(r over group_a) - mean(r over group_b): (d, lo, hi, se)."""
        coef = {}
        for g, sgn in ((group_a, 1.0), (group_b, -1.0)):
            for n in g:
                coef[n] = coef.get(n, 0.0) + sgn / len(g)
        return self.contrast(coef)


def _reach(ng_w, n, dirn):
    """How many players player 0 reaches over edges i -> j where i scored
    against j (dirn 1), j scored against i (-1) or any game (0)."""
    seen, queue = {0}, [0]
    while queue:
        i = queue.pop()
        for j in range(n):
            if j in seen:
                continue
            w, d, l_ = ng_w[i][j]
            edge = (w + d + l_ > 0) if dirn == 0 else (w + d > 0) if dirn > 0 else (l_ + d > 0)
            if edge:
                seen.add(j)
                queue.append(j)
    return len(seen)


def fit_ratings(names, wdl, anchor, anchor_elo):
    """The maximum-likelihood ratings of names from wdl {(a, b): (a's W, D,
    L against b)} with anchor's rating fixed at anchor_elo: a Fit."""
    import numpy as np
    n = len(names)
    idx = {x: i for i, x in enumerate(names)}
    m = [[(0, 0, 0)] * n for _ in range(n)]
    for (a, b), (w, d, l_) in wdl.items():
        i, j = idx[a], idx[b]
        pw, pd, pl = m[i][j]
        m[i][j] = (pw + w, pd + d, pl + l_)
        qw, qd, ql = m[j][i]
        m[j][i] = (qw + l_, qd + d, ql + w)
    if _reach(m, n, 0) < n:
        raise ValueError("rating fit: the players are not connected by games")
    prior = _reach(m, n, 1) < n or _reach(m, n, -1) < n
    ng = np.zeros((n, n))
    pts = np.zeros((n, n))
    dr = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            w, d, l_ = m[i][j]
            g = w + d + l_
            if i == j or g == 0:
                continue
            d = d + (1.0 if prior else 0.0)
            g = g + (1.0 if prior else 0.0)
            ng[i, j], dr[i, j], pts[i, j] = g, d, w + 0.5 * d
    a = idx[anchor]
    free = [i for i in range(n) if i != a]

    def expected(r):
        return 1.0 / (1.0 + 10.0 ** (-(r[:, None] - r[None, :]) / 400.0))

    def loglik(r):
        x = (r[:, None] - r[None, :]) * C_ELO
        lp = -np.logaddexp(0.0, -x)
        return float(np.sum(np.triu(pts * lp + (ng - pts) * (-np.logaddexp(0.0, x)), 1)))

    def information(r, draws_corrected):
        p = expected(r)
        v = p * (1 - p)
        if draws_corrected:
            with np.errstate(invalid="ignore", divide="ignore"):
                v = np.where(ng > 0, np.maximum(0.0, v - 0.25 * dr / np.where(ng > 0, ng, 1)), 0)
        h = ng * v * C_ELO * C_ELO
        full = np.diag(h.sum(axis=1)) - h
        return full[np.ix_(free, free)]

    r = np.zeros(n)
    r[a] = anchor_elo
    ll = loglik(r)
    for _ in range(200):
        p = expected(r)
        g = C_ELO * (pts - ng * p).sum(axis=1)
        step = np.linalg.solve(information(r, False), g[free])
        t = 1.0
        for _h in range(60):
            trial = r.copy()
            trial[free] += t * step
            lt = loglik(trial)
            if lt >= ll - 1e-12 * abs(ll):
                break
            t *= 0.5
        r, ll = trial, lt
        if np.max(np.abs(step)) * t < 1e-9:
            break
    else:
        raise ValueError("rating fit: no convergence")
    jinv = np.linalg.inv(information(r, False))
    sub = jinv @ information(r, True) @ jinv
    cov = np.zeros((n, n))
    cov[np.ix_(free, free)] = sub
    return Fit(list(names), r, cov, prior)


def joint_fit(ladder_path, players):
    """One fit of a ladder's games with those of the rated players
    {label: opponents}, where opponents is the list `nickar rate --json`
    gives (name, wins, draws, losses against each ladder player): a Fit
    over the ladder's names and the labels."""
    names, anchor, anchor_elo, wdl = ladder_games(ladder_path)
    wdl = dict(wdl)
    for lab, opps in players.items():
        if lab in names:
            raise ValueError(f"rated player {lab!r} has a ladder player's name")
        for o in opps:
            wdl[(lab, o["name"])] = (int(o["wins"]), int(o["draws"]), int(o["losses"]))
    return fit_ratings(names + list(players), wdl, anchor, anchor_elo)


def rate_fit(ladder_path, opponents):
    """The fit `nickar rate` makes with a ladder that stores its games: the
    ladder's games and one player's (named "@rated"), as a Fit."""
    return joint_fit(ladder_path, {"@rated": opponents})


def rate_joint(ladder_path, opponents):
    """What `nickar rate` gives with a ladder that stores its games: one
    player fitted jointly with the ladder's games, (elo, se, lo, hi,
    prior)."""
    fit = rate_fit(ladder_path, opponents)
    e, lo, hi = fit.interval("@rated")
    return (e, fit.se_of("@rated"), lo, hi, fit.prior)


RATING_METHOD = ("95% interval: the likelihood's curvature (with draws corrected, "
                 "as `nickar rate`), the player fitted jointly with the ladder's own "
                 "games (the ladder file's @wdl lines), so that it includes the "
                 "ladder's uncertainty; anchored at `random` = 0")
