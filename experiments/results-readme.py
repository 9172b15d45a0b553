#!/usr/bin/python3
"""results-readme.py [RESULTS [OUT]] -- writes results/README.md, the short
guide to the studies: what each asks, its headline answer with its
interval, how to rerun it.  Every number comes from the studies' committed
results.json (RESULTS, default results/; OUT, default RESULTS/README.md);
scripts/check-results.py remakes it and compares."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))


def load(results, study):
    with open(os.path.join(results, study, "results.json")) as f:
        return json.load(f)


def signed(d, lo, hi):
    return f"{d:+.0f} [{lo:+.0f}, {hi:+.0f}]"


def ayo2004(results):
    r = load(results, "ayo2004")
    h = r["head_to_head_pooled"]
    g = {v["paper_name"]: v for v in r["group_differences"].values()}
    d5, d73 = g["ayo12 d5 - dk2002 d7"], g["dk2002 d7 - ayo12 d3"]
    return [
        "## ayo2004: Daoud et al., CEC 2004 (results/ayo2004/)",
        "",
        "Asks: does the paper's GA evolve players as strong as it reports, and do",
        "its depth-5 players beat Davis & Kendall's depth-7 players, as it reports?",
        "",
        f"Answer: yes, these champions beat those: evolved `ayo12` at depth 5 scores",
        f"{h['score']:.3f} [{h['lo']:.3f}, {h['hi']:.3f}] against evolved `dk2002` at depth 7 (all",
        f"{r['seeds']} pairs of seeds, {r['seeds'] * r['games_per_match']} games; Wilson's interval from the",
        f"colour-swapped pairs) and rates {signed(d5['diff'], d5['lo'], d5['hi'])} Elo above it on the",
        "awari ladder (joint fit).  The two arms differ in five ways besides the",
        "depth, so the match does not separate representation from depth.",
        f"Against the paper's reading, `dk2002` d7 rates {signed(d73['diff'], d73['lo'], d73['hi'])} Elo",
        "above `ayo12` d3.",
        "",
        "Rerun: `DK_DIR=results/davis-kendall-2002 experiments/ayo2004/run.sh`",
        "(after the davis-kendall-2002 study).",
        "",
    ]


def davis_kendall(results):
    r = load(results, "davis-kendall-2002")
    e, m = r["elo_over_seeds"], r["mean_minus_material"]
    return [
        "## davis-kendall-2002: Davis & Kendall, CEC 2002, as recounted (results/davis-kendall-2002/)",
        "",
        "Asks: how strong is a player evolved by Davis & Kendall's protocol, as far",
        "as the Ayo paper recounts it, on the awari reference ladder?",
        "",
        f"Answer: its {r['seeds']} champions ({r['generations']} generations of a (3+6)-ES, depth "
        f"{r['depth']}) rate {e['mean']:.0f} [{e['lo']:.0f}, {e['hi']:.0f}]",
        f"Elo (mean over seeds, t), {signed(m['diff'], m['lo'], m['hi'])} above `material` at the same",
        "depth (joint fit).",
        "",
        "Rerun: `experiments/davis-kendall-2002/run.sh`.",
        "",
    ]


def caribbean(results):
    r = load(results, "caribbean")
    t = r["transfer"]
    own = {o["variant"]: o for o in r["own"]}
    return [
        "## caribbean: the Caribbean rule sets as a benchmark (results/caribbean/)",
        "",
        "Asks: how strong are players evolved under each of five rule sets on that",
        "rule set's ladder, and does a Warri champion keep its strength under",
        "another Warri rule set?",
        "",
        "Answer: the champions rate, against the hand-weighted searcher of the same",
        "depth on their own ladder, " + ", ".join(
            f"{v} {signed(o['minus_hand'], o['minus_hand_lo'], o['minus_hand_hi'])}"
            for v, o in own.items()) + " Elo",
        f"(t over {r['seeds']} seeds).  Under another Warri rule set they rate "
        f"{signed(t['mean'], t['lo'], t['hi'])} Elo",
        "against that rule set's own champions on average: an average transfer",
        f"loss above {max(0.0, -t['lo']):.0f} Elo is excluded, a loss of up to {-t['weakest'][2]:.0f} Elo in a single",
        "pair of rule sets is not.",
        "",
        "Rerun: `THREADS=2 nice -n 10 experiments/caribbean/run.sh`.",
        "",
    ]


def strategies(results):
    r = load(results, "strategies")
    sig = [x for x in r["tests"] if x["p_holm"] < 0.05]
    med = ", ".join(f"{s['label']} {s['median']:.0f} [{s['median_lo']:.0f}, {s['median_hi']:.0f}]"
                    for s in r["summary"])
    return [
        "## strategies: GA, ES and CMA-ES at an equal budget of games (results/strategies/)",
        "",
        "Asks: given the same number of self-play games, which evolution strategy",
        "evolves the strongest player?",
        "",
        f"Answer: {'no pair differs' if not sig else f'{len(sig)} of the 6 pairs differ'} at the 5% level "
        f"after Holm's correction ({r['settings']['seeds']} seeds a",
        f"strategy, {r['settings']['budget_games']} games a run); the median final ladder Elo",
        f"[95% order-statistic interval]: {med}.",
        "",
        "Rerun: `THREADS=2 nice -n 10 experiments/strategies/run.sh`.",
        "",
    ]


def perfect(results):
    """The perfect study's headline, where results/perfect is committed."""
    if not os.path.exists(os.path.join(results, "perfect", "results.json")):
        return []
    r = load(results, "perfect")
    lines = [
        "## perfect: how far from perfect play (results/perfect/)",
        "",
        "Asks: how far from perfect play is each reference-ladder player in the",
        "small games, whose databases hold every position of a game, and how far",
        "is each study's champion in endgames?",
        "",
    ]
    by = {}
    for x in r["ladder"]:
        by.setdefault(x["variant"], []).append(x)
    ans = []
    for v, xs in by.items():
        top = max(xs, key=lambda x: x["elo"])
        low = min(xs, key=lambda x: x["optimal"])
        ans.append(f"in {v}'s {12 * top['per_pit']}-seed games the ladder's strongest player "
                   f"({top['player']}) plays {100 * top['optimal']:.1f}% "
                   f"[{100 * top['optimal_lo']:.1f}, {100 * top['optimal_hi']:.1f}] of its moves "
                   f"optimally and loses {top['lost_game']:.1f} [{top['lost_game_lo']:.1f}, "
                   f"{top['lost_game_hi']:.1f}] seeds a game, the least accurate "
                   f"({low['player']}) {100 * low['optimal']:.1f}%")
    g = [x for x in r["champion_groups"] if x["study"] != "reference"]
    if g:
        a, b = min(g, key=lambda x: x["optimal"]), max(g, key=lambda x: x["optimal"])
        ans.append(f"on endgame positions the studies' champions play {100 * a['optimal']:.1f}% "
                   f"({a['study']}, {a['group']}) to {100 * b['optimal']:.1f}% ({b['study']}, "
                   f"{b['group']}) of their moves optimally (mean over seeds)")
    two = any(x["per_pit"] == 2 for x in r["ladder"])
    lines += ["Answer: " + "; ".join(ans) + " (95% intervals over games;"
              " every player and champion in the README)."
              + ("" if two or r["quick"] else " The two-seed-a-pit (24-seed) games are not graded"
                 " yet: the README says why."), "",
              "Rerun: `THREADS=2 nice -n 10 experiments/perfect/run.sh`.", ""]
    return lines


def tbteach(results):
    """The tbteach study's headline, where results/tbteach is committed."""
    if not os.path.exists(os.path.join(results, "tbteach", "results.json")):
        return []
    r = load(results, "tbteach")
    label = {x["arm"]: x["label"] for x in r["summary"]}
    # tune-logistic-12 is a control (the smaller database), not an answer
    control = "tune-logistic-12"
    elo = [t for t in r["tests"] if t["measure"] == "elo" and t["arm"] != control]
    end = {t["arm"]: t for t in r["tests"] if t["measure"] == "end_optimal" and t["arm"] != control}
    worse = sum(1 for t in elo if t["diff_hi"] < 0)
    better = sum(1 for t in elo if t["diff_lo"] > 0)
    diffs = "; ".join(f"{label[t['arm']]} {signed(t['diff'], t['diff_lo'], t['diff_hi'])}" for t in elo)
    ends = "; ".join(f"{label[a]} {t['diff']:+.3f} [{t['diff_lo']:+.3f}, {t['diff_hi']:+.3f}]"
                     for a, t in end.items())
    s = r["settings"]
    return [
        "## tbteach: weights taught by perfect play in endgames (results/tbteach/)",
        "",
        "Asks: do `positional` weights fitted to the endgame database's exact values",
        "(`nickar tune`) or evolved with the database as fitness play whole games as",
        "well as self-play-evolved weights of the same features, depth and CPU budget?",
        "",
        f"Answer: {worse} of the {len(elo)} database-taught arms rate lower on the abapa ladder "
        f"than self-play evolution, {better} higher ({s['seeds']} seeds an arm; the difference of",
        f"the mean Elo over seeds, Welch's 95% interval): {diffs}. The share of optimal",
        f"endgame moves minus self-play's: {ends}. The study's README gives every seed,",
        "the controls (the 12-seed database's tuning among them) and whole 12-seed games graded.",
        "",
        "Rerun: `THREADS=2 nice -n 10 experiments/tbteach/run.sh`.",
        "",
    ]


def representation(results):
    """The representation study's headline, where results/representation is
    committed."""
    if not os.path.exists(os.path.join(results, "representation", "results.json")):
        return []
    r = load(results, "representation")
    s = r["settings"]
    by = {x["arm"]: x for x in r["summary"]}
    best = by[r["best_arm"]]
    order = sorted(r["summary"], key=lambda x: -x["elo_mean"])
    means = "; ".join(f"{x['label']} {x['elo_mean']:.0f}" for x in order)
    hand = "; ".join(f"{x['label']} {signed(x['elo_minus_hand'], x['elo_minus_hand_lo'], x['elo_minus_hand_hi'])}"
                     for x in r["summary"])
    h2h = {x["arm"]: x for x in r["headtohead"]}
    learned = [a for a in by if a in h2h]
    lines = [
        "## representation: positional, n-tuple and network evaluations, evolved and learnt by TD"
        " (results/representation/)",
        "",
        f"Asks: at one budget of {s['budget']} self-play games a run (abapa, depth {s['depth']},"
        f" {s['seeds']} seeds an arm), which representation and learner gives the strongest player,",
        "does any learned evaluation beat the hand-tuned `positional` weights, and how close",
        "does each come to perfect play in endgames?",
        "",
        f"Answer: the strongest arm is {best['label']} (mean ladder Elo at depth {s['depth']}"
        f" {best['elo_mean']:.0f} [{best['elo_mean_lo']:.0f}, {best['elo_mean_hi']:.0f}]); the means: {means}.",
        f"Each arm's mean minus the hand-tuned rung positional-d{s['depth']} (joint fit, 95%): {hand}.",
    ]
    if learned:
        b = max(learned, key=lambda a: h2h[a]["score"])
        x = h2h[b]
        lines.append(f"At depth {s['h2h_d']} against hand-tuned depth {s['h2h_d'] + 2}, the best champion"
                     f" ({by[b]['label']}) scores {x['score']:.3f} [{x['score_lo']:.3f}, {x['score_hi']:.3f}].")
    hand = [g for g in r["gdepth"] if g["arm"] == "hand" and g["depth"] == s["depth"]]
    lines.append(f"Endgames ({s['tbseeds']}-seed database, share of optimal moves at depth {s['depth']},"
                 " mean over seeds): " + "; ".join(f"{x['label']} {x['end_optimal']:.3f}" for x in r["summary"])
                 + (f"; hand-tuned {hand[0]['optimal']:.3f}." if hand else "."))
    lines += ["Coevolutionary TD is not built, so it has no arm. The README gives every seed,",
              "the learning curves, the endgame grades against depth and the champions.", "",
              "Rerun: `THREADS=1 nice -n 10 experiments/representation/run.sh`.", ""]
    return lines


def main(argv):
    results = argv[1] if len(argv) > 1 else os.path.join(ROOT, "results")
    out = argv[2] if len(argv) > 2 else os.path.join(results, "README.md")
    lines = [
        "# results: the studies",
        "",
        "Written by experiments/results-readme.py from each study's committed",
        "results.json; scripts/check-results.py (the ctest test_results_check)",
        "remakes this file and every study README from the committed data and",
        "fails where a number differs.  Each study's README gives its protocol,",
        "every seed and every interval; the intervals are said there (ratings:",
        "fitted jointly with the ladder's own games; scores: Wilson's interval from",
        "the colour-swapped pairs).  Run files are not committed; the runs are",
        "deterministic, so a rerun gives them back bit for bit.",
        "",
    ]
    lines += ayo2004(results) + davis_kendall(results) + caribbean(results) + strategies(results)
    lines += perfect(results) + tbteach(results) + representation(results)
    lines += [
        "## Also here",
        "",
        "- results/ladder/: the reference ladders of every variant, which the",
        "  studies rate against (`experiments/ladder/run.sh VARIANT`).",
        "- results/solved/: the endgame databases (`experiments/solved/run.sh`).",
        "",
    ]
    with open(out, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv)
