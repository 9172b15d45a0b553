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


def committed(argv):
    """`report.py --committed SRC [INTO]`, the reports' second step (every
    table and README.md from the committed data of SRC, into INTO, default
    SRC): (src, into, plots) -- plots only when INTO is SRC -- or None for
    any other command line."""
    if len(argv) < 3 or argv[1] != "--committed":
        return None
    into = argv[3] if len(argv) > 3 else argv[2]
    return argv[2], into, os.path.abspath(into) == os.path.abspath(argv[2])


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
    anchor Elo, {(a, b): (w, d, l)}, {name: Elo}) from its
    NAME<TAB>SPEC<TAB>ELO, @anchor and @wdl lines (read once a path)."""
    key = os.path.abspath(path)
    if key not in _LADDERS:
        _LADDERS[key] = _read_ladder_games(path)
    names, anchor, anchor_elo, wdl, elo = _LADDERS[key]
    return list(names), anchor, anchor_elo, dict(wdl), dict(elo)


_LADDERS = {}


def _read_ladder_games(path):
    names, anchor, anchor_elo, wdl, elo = [], None, 0.0, {}, {}
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
                elo[p[0]] = float(p[2])
    if anchor is None or not wdl:
        raise ValueError(f"{path}: no @anchor or @wdl lines: the ladder's games are not stored")
    return names, anchor, anchor_elo, wdl, elo


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


def _reach(adj):
    """How many players player 0 reaches over the edges of the boolean
    matrix adj (adj[i, j]: an edge from i to j)."""
    import numpy as np
    seen = np.zeros(len(adj), bool)
    seen[0] = True
    while True:
        more = seen | adj[seen].any(axis=0)
        if (more == seen).all():
            return int(seen.sum())
        seen = more


def fit_ratings(names, wdl, anchor, anchor_elo, start=None):
    """The maximum-likelihood ratings of names from wdl {(a, b): (a's W, D,
    L against b)} with anchor's rating fixed at anchor_elo: a Fit.  start:
    {name: Elo} where Newton's method may start (the maximum is unique, so
    the start changes only the number of steps)."""
    import numpy as np
    n = len(names)
    idx = {x: i for i, x in enumerate(names)}
    W = np.zeros((n, n))
    D = np.zeros((n, n))
    for (a, b), (w, d, l_) in wdl.items():
        i, j = idx[a], idx[b]
        W[i, j] += w
        W[j, i] += l_
        D[i, j] += d
        D[j, i] += d
    played = (W + W.T + D) > 0
    if _reach(played) < n:
        raise ValueError("rating fit: the players are not connected by games")
    prior = _reach((W + D) > 0) < n or _reach((W.T + D) > 0) < n
    v = 1.0 if prior else 0.0
    ng = np.where(played, W + W.T + D + v, 0.0)
    dr = np.where(played, D + v, 0.0)
    pts = np.where(played, W + 0.5 * dr, 0.0)
    a = idx[anchor]
    free = np.arange(n) != a
    up = np.triu(np.ones((n, n), bool), 1)
    share = np.divide(dr, ng, out=np.zeros_like(dr), where=ng > 0)  # each pairing's draw share

    def expected(r):
        return 1.0 / (1.0 + 10.0 ** ((r[None, :] - r[:, None]) / 400.0))

    def loglik(r):
        x = (r[:, None] - r[None, :]) * C_ELO
        return float(np.sum((-pts * np.logaddexp(0.0, -x) - (ng - pts) * np.logaddexp(0.0, x))[up]))

    def information(p, draws_corrected):
        v = p * (1 - p)
        if draws_corrected:
            v = np.maximum(0.0, v - 0.25 * share)
        h = ng * v * (C_ELO * C_ELO)
        full = np.diag(h.sum(axis=1)) - h
        return full[free][:, free]

    r = np.array([float((start or {}).get(x, 0.0)) for x in names])
    r[a] = anchor_elo
    ll = loglik(r)
    for _ in range(200):
        p = expected(r)
        g = C_ELO * (pts - ng * p).sum(axis=1)
        step = np.linalg.solve(information(p, False), g[free])
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
    p = expected(r)
    jinv = np.linalg.inv(information(p, False))
    sub = jinv @ information(p, True) @ jinv
    cov = np.zeros((n, n))
    cov[np.ix_(free, free)] = sub
    return Fit(list(names), r, cov, prior)


def joint_fit(ladder_path, players):
    """One fit of a ladder's games with those of the rated players
    {label: opponents}, where opponents is the list `nickar rate --json`
    gives (name, wins, draws, losses against each ladder player): a Fit
    over the ladder's names and the labels."""
    names, anchor, anchor_elo, wdl, start = ladder_games(ladder_path)
    for lab, opps in players.items():
        if lab in names:
            raise ValueError(f"rated player {lab!r} has a ladder player's name")
        pts = games = 0.0
        for o in opps:
            w, d, l_ = int(o["wins"]), int(o["draws"]), int(o["losses"])
            wdl[(lab, o["name"])] = (w, d, l_)
            g = w + d + l_
            if g and o["name"] in start:  # a first guess: each opponent's Elo plus the score's
                s = min(max((w + 0.5 * d) / g, 0.02), 0.98)
                pts += g * (start[o["name"]] - 400.0 * math.log10(1.0 / s - 1.0))
                games += g
        start[lab] = pts / games if games else 0.0
    return fit_ratings(names + list(players), wdl, anchor, anchor_elo, start)


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


# ===== the exact Mann-Whitney test, counted =====

def mann_whitney_u(x, y):
    """nickar_analysis.mann_whitney_u's exact test (two-sided, ties at their
    mid-ranks, p = the share of the C(n + m, n) splits of the pooled sample
    with |U - nm/2| at least the observed one), the splits counted by
    dynamic programming over the sums of doubled mid-ranks instead of
    listed one by one: the same u, a, p for any sample size, in
    milliseconds (the listing takes a second for 10 against 10, and the
    strategies report makes 54 tests).  Returns the same dict; beyond
    nickar_analysis's exact limit (C(n + m, n) > 200000) its normal
    approximation, as there."""
    v = [float(t) for t in x] + [float(t) for t in y]
    n, m = len(x), len(y)
    if n == 0 or m == 0 or math.comb(n + m, n) > 200000:
        return na.mann_whitney_u(x, y)
    order = sorted(range(n + m), key=lambda k: v[k])
    twice = [0] * (n + m)  # doubled mid-ranks: integers
    i = 0
    while i < n + m:
        j = i
        while j + 1 < n + m and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            twice[order[k]] = i + j + 2
        i = j + 1
    base2 = n * (n + 1)          # twice n(n+1)/2
    u = (sum(twice[:n]) - base2) / 2
    centre = n * m / 2
    dev = abs(u - centre)
    top = sum(sorted(twice)[-n:])
    ways = [[0] * (top + 1) for _ in range(n + 1)]  # ways[k][s]: k of them summing to s
    ways[0][0] = 1
    for r in twice:
        for k in range(min(n, n + m) - 1, -1, -1):
            row, nxt = ways[k], ways[k + 1]
            for s in range(top - r, -1, -1):
                if row[s]:
                    nxt[s + r] += row[s]
    hits = sum(c for s, c in enumerate(ways[n]) if c and abs((s - base2) / 2 - centre) >= dev - 1e-9)
    p = hits / math.comb(n + m, n)
    return {"u": u, "a": u / (n * m), "p": min(1.0, p), "method": "exact"}


# ===== grades against perfect play (`nickar grade`) =====
#
# experiments/perfect/run.sh keeps every `nickar grade` output verbatim (a
# JSON line with what was graded and "output", the lines); the reports read
# the numbers from those lines with grade_numbers.  A study's champions'
# endgame grades are in results/<study>/endgame.jsonl (one line a champion,
# "label" as the study's tables name it).

_GRADE_LINE = {  # value, then its interval or "(no interval: ...)" (NaN bounds)
    "optimal": r"optimal moves: ([\d.]+)  (?:95% interval \[([\d.]+), ([\d.]+)\]|\(no interval)",
    "lost_move": r"seeds lost per move: ([\d.]+)  (?:95% interval \[([\d.]+), ([\d.]+)\]|\(no interval)",
    "lost_game": r"seeds lost per game: ([\d.]+)  (?:95% interval \[([\d.]+), ([\d.]+)\]|\(no interval)",
}


def grade_numbers(lines):
    """The numbers of one `nickar grade` output (a list of lines): optimal,
    lost_move, lost_game as (value, lo, hi); positions (graded moves),
    games (the games the intervals are over); for --from-start also wins,
    draws, losses, forced, repetition, errors, thrown (moves, win to draw,
    win to loss, draw to loss, games) and phases / seeds: lists of
    (band, moves, errors, optimal, lost).  A number the output lacks is
    absent."""
    import re
    g = {}
    section = None
    for line in lines:
        for key, pat in _GRADE_LINE.items():
            m = re.match(pat, line)
            if m:
                g[key] = tuple(float("nan") if x is None else float(x) for x in m.groups())
        m = re.match(r"positions: (\d+) from (\d+) games .*\((\d+) rest on the repetition rule\)", line)
        if m:
            g["positions"], g["repetition"] = int(m.group(1)), int(m.group(3))
        m = re.match(r"intervals: cluster-robust over the (\d+) games", line)
        if m:
            g["games"] = int(m.group(1))
        m = re.match(r"intervals: over the (\d+) games", line)
        if m:
            g["games"] = int(m.group(1))
        m = re.match(r"results of the graded player: (\d+) wins, (\d+) draws, (\d+) losses", line)
        if m:
            g["wins"], g["draws"], g["losses"] = (int(x) for x in m.groups())
        m = re.match(r"moves graded: (\d+) with a choice \((\d+) forced moves not graded; (\d+) rest", line)
        if m:
            g["positions"], g["forced"], g["repetition"] = (int(x) for x in m.groups())
        m = re.match(r"errors: (\d+)(?: \(|$)", line)
        if m:
            g["errors"] = int(m.group(1))
        m = re.match(r"value thrown away: (\d+) moves \(win to draw (\d+), win to loss (\d+), "
                     r"draw to loss (\d+)\) in (\d+) games", line)
        if m:
            g["thrown"] = tuple(int(x) for x in m.groups())
        if line.startswith("by phase"):
            section = "phases"
            g[section] = []
        elif line.startswith("by seeds on the board"):
            section = "seeds"
            g[section] = []
        elif section and re.match(r"\s+\S+\s+\d+\s+\d+\s+[\d.]+\s+[\d.]+$", line):
            b, n, e, o, lost = line.split()
            g[section].append((b, int(n), int(e), float(o), float(lost)))
        elif not line.startswith(" "):
            section = None
    return g


def read_grades(path):
    """The JSON lines of a file of grades, each with its numbers under
    "grade" (grade_numbers of its "output"); [] when the file is missing."""
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for x in f:
            if x.strip():
                o = json.loads(x)
                o["grade"] = grade_numbers(o["output"])
                out.append(o)
    return out


def endgame_grades(src):
    """{label: grade numbers} of SRC/endgame.jsonl (the study's champions
    graded on endgames by experiments/perfect/run.sh), and the first
    line's settings (seeds, positions) or None when there is no file."""
    rows = read_grades(os.path.join(src, "endgame.jsonl"))
    return {o["label"]: o["grade"] for o in rows}, (rows[0] if rows else None)


def endgame_cell(g, nd=3):
    """A grade's share of optimal moves 'p [lo, hi]'; '-' for None."""
    if not g or "optimal" not in g:
        return "-"
    return interval(*g["optimal"], nd=nd)


def endgame_mean(grades, nd=3):
    """The mean over champions of the share of optimal moves with Student's
    t interval over them, 'm [lo, hi]'; '-' when none."""
    v = [g["optimal"][0] for g in grades if g and "optimal" in g]
    if not v:
        return "-"
    m, lo, hi, _n = na.mean_interval(v)
    return interval(m, lo, hi, nd=nd)


def endgame_note(first):
    """The README sentence that says what the endgame column is."""
    return (f"Endgame: the share of the champion's moves that are optimal on {first['positions']} "
            f"positions inside the database to {first['seeds']} seeds (drawn from games of "
            "`ab:depth=3`, seed 1, the same positions for every champion of a variant), with its "
            "95% interval over the games the positions come from (cluster-robust); a mean over "
            "seeds: Student's t over the seeds, the spread between seeds on these positions "
            "(not the positions' own sampling error); experiments/perfect/run.sh grades them "
            "(endgame.jsonl; results/perfect/README.md compares the hand-weighted players).")
