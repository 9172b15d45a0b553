#!/usr/bin/python3
"""experiments/ladder/mcts_report.py DIR LADDER_JSON OUT_MD QUICK -- the
Markdown report of experiments/ladder/mcts.sh: the ratings of `nickar rate`
in DIR/*.json (one player each), their cost (DIR/times.tsv), and how many
playouts mcts:playouts=B needs to match positional-d3, -d5 and -d7 of the
ladder (LADDER_JSON, `nickar tournament --json`).  Every number in OUT_MD
comes from those files.

The match: a player's rating against the ladder's ratings held exact
(`fixed_elo`, the scale the ladder's own ratings are on) is compared with
the target's; the difference's standard error is the player's `fixed_se`
and the target's place in its pool (its 95% half-width against the pool
over 1.96) together.  The budget where the rating reaches the target is read
off the line through the budgets' ratings in log(playouts), piecewise
between neighbouring budgets; its interval is where the rating's 95%
bounds reach it.  Nothing is extrapolated past the budgets played: a target
out of their reach is said to be."""

import json
import math
import os
import sys

TARGETS = ["positional-d3", "positional-d5", "positional-d7"]
Z = 1.959964


def load(d):
    players = []
    for f in sorted(os.listdir(d)):
        if f.endswith(".json"):
            o = json.load(open(os.path.join(d, f)))
            players.append((f[:-5], o))
    times = {}
    tpath = os.path.join(d, "times.tsv")
    if os.path.exists(tpath):
        for line in open(tpath):
            name, wall, cpu = line.rstrip("\n").split("\t")
            times[name] = (float(wall), float(cpu))
    return players, times


def budget(o):
    spec = o["player"]
    if spec.startswith("mcts:playouts=") and spec[14:].isdigit():
        return int(spec[14:])
    return None


def crossing(points, target):
    """The budget (interpolated in log budget) where the values of points
    [(budget, value)], budgets ascending, first reach target: ("at", B),
    ("below", B0) when the smallest budget already does, ("beyond", Bmax)
    when none does."""
    if points[0][1] >= target:
        return ("below", points[0][0])
    for (b0, v0), (b1, v1) in zip(points, points[1:]):
        if v1 >= target:
            t = (target - v0) / (v1 - v0)
            return ("at", math.exp(math.log(b0) + t * (math.log(b1) - math.log(b0))))
    return ("beyond", points[-1][0])


def say(c, lower):
    kind, b = c
    if kind == "at":
        return f"{b:.0f}"
    if kind == "below":
        return f"{b}" if lower else f"at most {b}"
    return f"more than {b}"


def answer(curve, name, r, hw_pool):
    """One line for target name (rating r, pool half-width hw_pool)."""
    s_t = hw_pool / Z
    mid = [(b, e) for b, e, s in curve]
    lo = [(b, e + Z * math.hypot(s, s_t)) for b, e, s in curve]  # reaches first: fewest playouts
    hi = [(b, e - Z * math.hypot(s, s_t)) for b, e, s in curve]
    c_mid, c_lo, c_hi = crossing(mid, r), crossing(lo, r), crossing(hi, r)
    head = f"- **{name}** ({r:.1f}): "
    top_b, top_e, top_s = curve[-1]
    if c_mid[0] == "beyond":
        reach = (f"the upper bound reaches it from about {say(c_lo, True)} playouts"
                 if c_lo[0] != "beyond" else "not even the upper 95% bound reaches it")
        return (head + f"**out of reach of the budgets played**: at {top_b} playouts mcts rates "
                f"{top_e:.1f}, {r - top_e:.1f} below ({reach}); more playouts than {top_b} "
                "would be needed, how many these games do not say.")
    if c_mid[0] == "below":
        b0, e0, _ = curve[0]
        bound = (f"; the lower 95% bound reaches it at {say(c_hi, False)} playouts"
                 if c_hi[0] != "below" else "")
        return (head + f"reached already at the smallest budget played, {b0} playouts, where "
                f"mcts rates {e0:.1f}{bound}; fewer playouts were not played.")
    return (head + f"about **{say(c_mid, False)} playouts** "
            f"(95% interval: {say(c_lo, True)} to {say(c_hi, False)} playouts).")


def main(argv):
    d, ladder_json, out, quick = argv[1], argv[2], argv[3], argv[4] == "1"
    players, times = load(d)
    if not players:
        print(f"mcts_report.py: no ratings in {d}", file=sys.stderr)
        return 2
    t = json.load(open(ladder_json))
    rat = {x["player"]: x for x in t["ratings"]}
    first = players[0][1]
    lines = [
        "# MCTS on the abapa ladder", "",
        "The built-in `mcts` player (UCT over uniformly random playouts, `src/search/mcts.h`; "
        "exploration constant 1.4, no cut-off) rated with `nickar rate` on the reference "
        f"ladder of abapa ([abapa.md](abapa.md), {len(t['ratings'])} players, "
        f"{t['games_per_pairing']} games a pairing): the same number of games against each of "
        f"its {len(first['opponents'])} players (the games column), colour-swapped pairs "
        "from random 2-ply openings, seed 1. **Elo (joint)** is the rating fitted jointly "
        "with the ladder's own results, its 95% interval holding their uncertainty too; "
        "**Elo (fixed)** the rating against the ladder's ratings held exact, with its "
        "standard error. Wall and CPU seconds are those of the whole `nickar rate` "
        "(both sides of every game, on a machine shared with other jobs).", "",
        "Made by `experiments/ladder/mcts.sh`" + (" --quick" if quick else "") + ".", "",
        "| player | playouts | Elo (joint) | 95% interval | Elo (fixed) | ± se | games | score | wall s | CPU s |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    rows = sorted(players, key=lambda p: (budget(p[1]) is None, budget(p[1]) or 0, p[0]))
    for name, o in rows:
        b = budget(o)
        score = sum(x["wins"] + 0.5 * x["draws"] for x in o["opponents"]) / o["games"]
        wall, cpu = times.get(name, (float("nan"), float("nan")))
        lines.append(f"| `{o['player']}` | {b if b is not None else ''} | {o['elo']:.1f} | "
                     f"[{o['ci'][0]:.1f}, {o['ci'][1]:.1f}] | {o['fixed_elo']:.1f} | "
                     f"{o['fixed_se']:.1f} | {o['games']} | {score:.3f} | {wall:.0f} | {cpu:.0f} |")
    others = [o for _, o in players if budget(o) is None]
    if others:
        lines += ["", "The rows without playouts are other players rated the same way (an "
                  "`ext:` engine such as `examples/mcts_agent.py`, the same UCT in pure Python "
                  "over the engine protocol, its playouts in its spec); they are not in the "
                  "answer below."]
    curve = sorted((budget(o), o["fixed_elo"], o["fixed_se"]) for _, o in players
                   if budget(o) is not None)
    total_cpu = sum(c for _, c in times.values())
    lines += ["", f"CPU in all: {total_cpu / 60:.1f} minutes.", ""]
    lines += ["## How many playouts match `positional` at depth 3, 5 and 7?", "",
              "The budget where the line through the ratings (fixed) in log(playouts) reaches "
              "the ladder's rating of the alpha-beta player, and the 95% interval of that "
              "budget (where the rating's 95% bounds reach it; the bounds hold the player's "
              "standard error and the target's place in its pool). Nothing is extrapolated "
              "past the budgets played.", ""]
    if not curve:
        lines.append("No `mcts:playouts=B` player rated yet.")
    for name in TARGETS:
        if name not in rat:
            lines.append(f"- **{name}**: not on this ladder.")
            continue
        x = rat[name]
        lines.append(answer(curve, name, x["elo"], x["ci_pool"][1] - x["elo"]) if curve else "")
    if len(curve) >= 2:
        xs = [math.log2(b) for b, _, _ in curve]
        ys = [e for _, e, _ in curve]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((a - mx) * (c - my) for a, c in zip(xs, ys)) / sum((a - mx) ** 2 for a in xs)
        lines += ["", f"Between {curve[0][0]} and {curve[-1][0]} playouts the rating grows by "
                  f"about {slope:.0f} Elo a doubling (least squares in log2(playouts))."]
    open(out, "w").write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
