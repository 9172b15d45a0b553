#!/usr/bin/python3
"""experiments/perfect/report.py -- the report of the distance from perfect
play (experiments/perfect/run.sh).

    report.py OUT --quick Q            after a run: run.json, then as below
                                       with the plots
    report.py --committed SRC [INTO]   README.md, the tables and
                                       results.json from SRC's committed
                                       data into INTO (default SRC; plots
                                       only then)
    report.py --record FILE KEY=VALUE... < OUTPUT
                                       appends to FILE one JSON line: the
                                       keys and OUTPUT's lines ("output")
    report.py --split CHAMPIONS STUDIES
                                       each study's lines of CHAMPIONS to
                                       STUDIES/<study>/endgame.jsonl

Every number comes from the `nickar grade` outputs kept verbatim in
ladder-<variant>.jsonl and champions.jsonl (studylib.grade_numbers)."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import studylib as sl  # noqa: E402

na = sl.na
VARIANTS = ["abapa", "antigua"]  # the variants run.sh grades by default
STUDY_ORDER = ["ayo2004", "davis-kendall-2002", "caribbean", "strategies"]
NUMERIC = {"elo": float, "per_pit": int, "games": int, "seed": int, "seeds": int, "positions": int}


def record(path, pairs):
    o = {}
    for p in pairs:
        k, v = p.split("=", 1)
        o[k] = NUMERIC[k](v) if k in NUMERIC else v
    o["output"] = sys.stdin.read().splitlines()
    with open(path, "a") as f:
        f.write(json.dumps(o, separators=(",", ":")) + "\n")


def split(path, studies):
    by = {}
    with open(path) as f:
        for x in f:
            o = json.loads(x)
            # the representation study grades its own players (its endgame column)
            if o["study"] not in ("reference", "representation"):
                by.setdefault(o["study"], []).append(x)
    # the ayo2004 study's tables show the davis-kendall-2002 champions too
    by.setdefault("ayo2004", []).extend(by.get("davis-kendall-2002", []))
    for study, lines in by.items():
        d = os.path.join(studies, study)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "endgame.jsonl"), "w") as f:
            f.writelines(lines)


# ===== tables =====

def ladder_files(src):
    """[(variant, K)] of the ladder-<variant>-k<K>.jsonl files of SRC: K = 2
    first, then VARIANTS' order."""
    import re
    got = []
    for n in os.listdir(src):
        m = re.fullmatch(r"ladder-(\w+)-k(\d)\.jsonl", n)
        if m:
            got.append((m.group(1), int(m.group(2))))
    rank = {v: i for i, v in enumerate(VARIANTS)}
    return sorted(got, key=lambda x: (-x[1], rank.get(x[0], len(rank)), x[0]))


def ladder_rows(src):
    """Every graded ladder player, file by file (ladder_files' order)."""
    rows = []
    for v, k in ladder_files(src):
        rows += sl.read_grades(os.path.join(src, f"ladder-{v}-k{k}.jsonl"))
    return rows


def family_depth(spec):
    """('material', 3) for ab:depth=3,features=material, ('mcts', 300) for
    mcts:playouts=300; None otherwise."""
    import re
    m = re.fullmatch(r"ab:depth=(\d+),features=(\w+)", spec)
    if m:
        return (m.group(2), int(m.group(1)))
    m = re.fullmatch(r"mcts:playouts=(\d+)", spec)
    return ("mcts", int(m.group(1))) if m else None


def ladder_table(rows):
    import pandas as pd
    out = []
    for o in rows:
        g = o["grade"]
        fd = family_depth(o["spec"])
        t = g.get("thrown", (0, 0, 0, 0, 0))
        ph = {p[0]: p for p in g.get("phases", [])}
        r = {"variant": o["variant"], "player": o["name"], "spec": o["spec"], "elo": o["elo"],
             "family": fd[0] if fd else o["name"],
             "depth": fd[1] if fd and fd[0] != "mcts" else None,
             "playouts": fd[1] if fd and fd[0] == "mcts" else None,
             "per_pit": o["per_pit"], "games": g.get("games"), "opponent": o["opponent"],
             "wins": g.get("wins"), "draws": g.get("draws"), "losses": g.get("losses"),
             "moves": g.get("positions"), "forced": g.get("forced"), "errors": g.get("errors")}
        for k in ("optimal", "lost_move", "lost_game"):
            r[k], r[k + "_lo"], r[k + "_hi"] = g[k]
        r.update({"thrown_moves": t[0], "win_to_draw": t[1], "win_to_loss": t[2],
                  "draw_to_loss": t[3], "thrown_games": t[4]})
        for p in ("opening", "middle", "end"):
            x = ph.get(p)
            r[f"{p}_moves"] = x[1] if x else 0
            r[f"{p}_optimal"] = x[3] if x else None
            r[f"{p}_lost"] = x[4] if x else None
        out.append(r)
    return pd.DataFrame(out)


def band_table(rows, key):
    import pandas as pd
    out = []
    for o in rows:
        for b, n, e, opt, lost in o["grade"].get(key, []):
            out.append({"variant": o["variant"], "per_pit": o["per_pit"], "player": o["name"],
                        key[:-1]: b, "moves": n,
                        "errors": e, "optimal": opt, "lost": lost})
    return pd.DataFrame(out)


def champion_table(rows):
    import pandas as pd
    out = []
    for o in rows:
        g = o["grade"]
        r = {"study": o["study"], "champion": o["label"], "variant": o["variant"], "spec": o["spec"],
             "seeds": o["seeds"], "positions": g.get("positions"), "games": g.get("games"),
             "repetition": g.get("repetition")}
        for k in ("optimal", "lost_move"):
            r[k], r[k + "_lo"], r[k + "_hi"] = g[k]
        out.append(r)
    return pd.DataFrame(out)


def group_of(study, label):
    """The group a champion belongs to: its label less the seed."""
    import re
    m = re.fullmatch(r"(.+) s\d+", label)
    return m.group(1) if m else label


def group_table(ch):
    """Per study and group (a label less its seed) of two or more: the mean
    share of optimal moves and seeds lost per move over the champions, with
    Student's t interval."""
    import pandas as pd
    out = []
    if ch.empty:
        return pd.DataFrame(out)
    ch = ch.assign(group=[group_of(s, c) for s, c in zip(ch.study, ch.champion)])
    for (study, grp), t in ch.groupby(["study", "group"], sort=False):
        if len(t) < 2:
            continue
        r = {"study": study, "group": grp, "variant": t.variant.iloc[0], "champions": len(t)}
        for k in ("optimal", "lost_move"):
            m, lo, hi, _n = na.mean_interval(list(t[k]))
            r[k], r[k + "_lo"], r[k + "_hi"] = m, lo, hi
        r["optimal_min"], r["optimal_max"] = float(t.optimal.min()), float(t.optimal.max())
        out.append(r)
    return pd.DataFrame(out)


# ===== plots =====

def sections(lt):
    """The (variant, K) sections of the ladder table, in its order."""
    if lt.empty:
        return []
    return list(dict.fromkeys(zip(lt.variant, lt.per_pit)))


def plot_depth(lt, path, family_x=(("material", "depth", "search depth"),
                                   ("positional", "depth", "search depth"))):
    plt = sl.pyplot()
    secs = sections(lt)
    fig, axes = plt.subplots(2, len(secs), figsize=(4.5 * len(secs), 6.5), squeeze=False)
    for j, (v, k) in enumerate(secs):
        t = lt[(lt.variant == v) & (lt.per_pit == k)]
        for fam, col, xlab in family_x:
            f = t[(t.family == fam) & t[col].notna()].sort_values(col)
            if f.empty:
                continue
            for i, (y, lab) in enumerate((("optimal", "share of optimal moves"),
                                          ("lost_game", "seeds lost a game"))):
                ax = axes[i][j]
                ax.errorbar(f[col], f[y], yerr=[f[y] - f[y + "_lo"], f[y + "_hi"] - f[y]],
                            marker="o", capsize=3, label=fam)
                ax.set_xlabel(xlab)
                ax.set_ylabel(lab)
                if col == "playouts":
                    ax.set_xscale("log")
        for i in range(2):
            axes[i][j].set_title(f"{v}, {12 * int(k)}-seed games")
            axes[i][j].legend(fontsize="small")
    sl.save(fig, path)


def plot_champions(ch, path):
    plt = sl.pyplot()
    t = ch[ch.study != "reference"]
    if t.empty:
        return
    fig, ax = plt.subplots(figsize=(9, 0.16 * len(t) + 1.5))
    y = list(range(len(t)))[::-1]
    ax.errorbar(t.optimal, y, xerr=[t.optimal - t.optimal_lo, t.optimal_hi - t.optimal], fmt="o",
                ms=3, capsize=2)
    ax.set_yticks(y)
    ax.set_yticklabels([f"{s}: {c}" for s, c in zip(t.study, t.champion)], fontsize=6)
    ax.set_xlabel("share of optimal moves on endgame positions (95% interval over games)")
    sl.save(fig, path)


# ===== README =====

def pct(x):
    return sl.num(100 * x, 1)


def ladder_lines(src, lt, missing):
    lines = []
    for v, k in sections(lt):
        t = lt[(lt.variant == v) & (lt.per_pit == k)]
        o = t.iloc[0]
        lines += [f"### {v}: {int(k) * 12}-seed games ({int(k)} seed{'s' if k > 1 else ''} a pit)", "",
                  f"{int(o.games)} games a player against `{o.opponent}` (colour-swapped pairs, "
                  "2-ply random openings, seed 1), every move of the graded player with a choice "
                  f"graded against the database (ladder-{v}-k{k}.jsonl; ladder.csv)"
                  + ("; the MCTS rows' Elo is their rating on the same ladder "
                     "(results/ladder/mcts-abapa)" if (t.family == "mcts").any() else "") + ":", "",
                  "| player | ladder Elo | W-D-L vs opponent | moves graded | optimal [95%] | "
                  "seeds lost a move [95%] | seeds lost a game [95%] | value thrown away: moves "
                  "(win>draw, win>loss, draw>loss) in games |",
                  "|---|---:|---|---:|---|---|---|---|"]
        for r in t.itertuples():
            lines.append(
                f"| {r.player} | {r.elo:.0f} | {r.wins}-{r.draws}-{r.losses} | {r.moves} | "
                f"{sl.interval(r.optimal, r.optimal_lo, r.optimal_hi, 3)} | "
                f"{sl.interval(r.lost_move, r.lost_move_lo, r.lost_move_hi, 3)} | "
                f"{sl.interval(r.lost_game, r.lost_game_lo, r.lost_game_hi, 2)} | "
                f"{r.thrown_moves} ({r.win_to_draw}, {r.win_to_loss}, {r.draw_to_loss}) in "
                f"{r.thrown_games} |")
        lines += ["", "Errors by phase (the share of optimal moves, and the moves graded, in the "
                  "opening, middle and end: board seeds above 2/3 of the start's, above 1/3, "
                  "the rest; phases.csv, seeds.csv by seeds on the board):", "",
                  "| player | opening | middle | end |", "|---|---|---|---|"]
        for r in t.itertuples():
            lines.append("| " + r.player + " | " + " | ".join(
                f"{sl.f3(getattr(r, p + '_optimal'))} ({getattr(r, p + '_moves')})"
                if getattr(r, p + "_moves") else "- (0)" for p in ("opening", "middle", "end")) + " |")
        lines.append("")
    for v, k in missing:
        lines += [f"### {v}: {12 * k}-seed games not graded", "",
                  f"**Missing**: ladder-{v}-k{k}.jsonl is not here: this run did not grade {v}'s "
                  f"ladder over the {12 * k}-seed games, for want of the {12 * k}-seed database"
                  + build_cost(src, v, k) + ".", ""]
    if missing:
        names = " and ".join(sorted({v for v, _ in missing}))
        lines += ["The sessions that made these runs shared a 2-core machine with other jobs, "
                  "and a two-seed-a-pit database takes about half an hour of CPU to build: "
                  f"{names} did not get one in time. The one-seed-a-pit games above stand in "
                  "for the two-seed ones until `PARTS=ladder VARIANTS=V "
                  "experiments/perfect/run.sh` (which builds what it lacks) runs for "
                  f"{names}.", ""]
    return lines


def build_cost(src, v, k):
    """What the database of V to 12K seeds cost when results/solved built
    it (its times.tsv next to SRC), as a phrase; '' when not known."""
    import csv
    path = os.path.join(src, "..", "solved", f"k{k}", "times.tsv")
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["variant"] == v and r["step"] == "build":
                return (f" (results/solved built it in {float(r['cpu_s']) / 60:.0f} CPU minutes, "
                        f"{int(r['max_rss_kb']) / 2 ** 20:.1f} GiB at the peak; the databases are "
                        "not kept between sessions)")
    return ""


def answer_ladder(lt):
    out = []
    for v, k in sections(lt):
        t = lt[(lt.variant == v) & (lt.per_pit == k)]
        best = t.loc[t.optimal.idxmax()]
        worst = t.loc[t.optimal.idxmin()]
        top = t.loc[t.elo.idxmax()]
        out.append(
            f"- **{v}** ({int(k) * 12} seeds, {int(t.games.iloc[0])} games a player): "
            f"the strongest ladder player, {top.player}, plays "
            f"{sl.interval(100 * top.optimal, 100 * top.optimal_lo, 100 * top.optimal_hi, 1)}% of "
            f"its moves optimally and gives away "
            f"{sl.interval(top.lost_game, top.lost_game_lo, top.lost_game_hi, 2)} seeds a game "
            f"({top.thrown_moves} moves threw a game-theoretic value away, in {top.thrown_games} "
            f"of its {int(top.games)} games); the most accurate is {best.player} "
            f"({pct(best.optimal)}%), the least {worst.player} ({pct(worst.optimal)}%, "
            f"{sl.f1(worst.lost_game)} seeds a game).")
        for fam, col, what in (("material", "depth", "depth"), ("positional", "depth", "depth"),
                               ("mcts", "playouts", "playouts")):
            f = t[(t.family == fam) & t[col].notna()].sort_values(col)
            if len(f) >= 2:
                out.append(
                    f"  `{fam}` from {what} {int(f[col].iloc[0])} to {int(f[col].iloc[-1])}: "
                    + ", ".join(f"{pct(x)}%" for x in f.optimal) + " optimal; "
                    + ", ".join(sl.f1(x) for x in f.lost_game) + " seeds lost a game.")
    return out


def champion_lines(ch, gt):
    lines = ["| study | champion | variant | optimal [95%] | seeds lost a move [95%] | positions "
             "(games) |", "|---|---|---|---|---|---|"]
    for r in ch.itertuples():
        lines.append(f"| {r.study} | {r.champion} | {r.variant} | "
                     f"{sl.interval(r.optimal, r.optimal_lo, r.optimal_hi, 3)} | "
                     f"{sl.interval(r.lost_move, r.lost_move_lo, r.lost_move_hi, 3)} | "
                     f"{r.positions} ({r.games}) |")
    lines += ["", "Over seeds (mean over the group's champions with Student's t interval; "
              "groups.csv):", "",
              "| study | group | variant | champions | optimal [95%] | range | seeds lost a move [95%] |",
              "|---|---|---|---:|---|---|---|"]
    for r in gt.itertuples():
        lines.append(f"| {r.study} | {r.group} | {r.variant} | {r.champions} | "
                     f"{sl.interval(r.optimal, r.optimal_lo, r.optimal_hi, 3)} | "
                     f"{sl.f3(r.optimal_min)}-{sl.f3(r.optimal_max)} | "
                     f"{sl.interval(r.lost_move, r.lost_move_lo, r.lost_move_hi, 3)} |")
    return lines


def hand_beside(ref, variant, depth):
    """"; the hand-weighted SET at depth D: X% [lo, hi]" from the reference
    rows REF, or "" where that player was not graded."""
    hand = "adjikui" if variant == "adjikui" else "positional"
    key = f"{variant} {hand}-d{depth}"
    if key not in ref.index:
        return ""
    d = ref.loc[key]
    return (f"; the hand-weighted `{hand}` at depth {depth}: {pct(d.optimal)}% "
            f"[{pct(d.optimal_lo)}, {pct(d.optimal_hi)}]")


def answer_champions(ch, gt):
    out = []
    ref = ch[ch.study == "reference"].set_index("champion")
    for r in gt.itertuples():
        if r.study == "reference":
            continue
        m = re.search(r"d(\d+)$", r.group)
        depth = int(m.group(1)) if m else {"caribbean": 3, "strategies": 3}.get(r.study)
        out.append(f"- {r.study}, {r.group} ({r.variant}, {r.champions} champions): "
                   f"{pct(r.optimal)}% [{pct(r.optimal_lo)}, {pct(r.optimal_hi)}] optimal, "
                   f"{sl.f3(r.lost_move)} seeds lost a move"
                   + hand_beside(ref, r.variant, depth) + ".")
    grouped = set(zip(gt.study, gt.group)) if not gt.empty else set()
    for r in ch.itertuples():  # a player alone in its group: its own interval over games
        if r.study == "reference" or (r.study, group_of(r.study, r.champion)) in grouped:
            continue
        m = re.search(r"depth=(\d+)", r.spec)
        depth = int(m.group(1)) if m else None
        out.append(f"- {r.study}, {r.champion} ({r.variant}, one player, depth {depth}): "
                   f"{pct(r.optimal)}% [{pct(r.optimal_lo)}, {pct(r.optimal_hi)}] optimal "
                   f"(interval over games), {sl.f3(r.lost_move)} seeds lost a move"
                   + hand_beside(ref, r.variant, depth) + ".")
    return out


def readme(src, lt, ch, gt, times, quick):
    lines = sl.readme_start("# perfect: how far from perfect play", quick)
    present = sections(lt) if not lt.empty else []
    want = 1 if quick else 2
    missing = [(v, want) for v in VARIANTS if (v, want) not in present]
    lines += [
        "## The question",
        "",
        "How far from perfect play is each player of the reference ladders in the",
        "small games, where the endgame databases hold every position of a game,",
        "and how far is each study's champion in endgames?",
        "",
        "## The answer",
        "",
        "Whole small games (every move graded against the database; 95% intervals",
        "over the games):",
        "",
    ]
    lines += answer_ladder(lt) if not lt.empty else ["- no ladder was graded."]
    lines += [f"- **{v}**, {12 * k}-seed games: not graded in this run (see below)." for v, k in missing]
    lines += ["", "Endgames (champions of every study, the share of optimal moves, mean over "
              "seeds [95% t interval]; a player alone in its group, such as published weights "
              "or an arm's one champion, with its own interval over games):", ""]
    lines += answer_champions(ch, gt) if not ch.empty else ["- no champion was graded."]
    lines += [
        "",
        "## Protocol",
        "",
        "- **Whole games** (`nickar grade SPEC --variant V --tb DIR --from-start`, docs/tablebase.md",
        "  \"Grading whole games\"): every rung of results/ladder/V.tsv against the opponent,",
        "  colour-swapped pairs from random openings as `nickar match` plays them; every move",
        "  of the graded player with a choice is looked up in the database of every position",
        "  of the game. Optimal: the move's value is the best move's; seeds lost: the best",
        "  value minus the move's; value thrown away: a move whose result under perfect play",
        "  (win, draw, loss for the mover) is below the best move's. The values of most",
        "  positions rest on the repetition rule (the database's treatment of cycles;",
        "  results/solved). Speightstown (two planes, docs/tablebase.md): a move is",
        "  optimal when it keeps the best result the stores allow, so an error is a move",
        "  that throws value away; its seeds lost are those of what the mover can force.",
        "  Adji Kui is not graded over the 12-seed games: its start offers only passes",
        "  (R-K4), so nothing is graded there.",
        "- **Endgames** (`nickar grade SPEC --variant V --tb DIR --positions N`): positions",
        "  inside the database drawn from games of `ab:depth=3` (4 random plies, seed 1);",
        "  the same positions for every player of a variant, so a mean over a group's seeds",
        "  and its t interval hold the spread between seeds on these positions, not the",
        "  positions' sampling error (each player's own interval over games holds that).",
        "  Champions: the best of the last generation of every run of each study (ayo2004",
        "  also its published weights under each reading and the dk2002 GA champions of",
        "  its controls), their weights taken from the study's committed data",
        "  (experiments/perfect/champions.py writes them to weights/); reference rows:",
        "  `material` and the hand-weighted set at the champions' depths.",
        "- **Intervals**: over games, cluster-robust (the share and the seeds lost a move)",
        "  and Student's t (seeds lost a game), as `nickar grade` prints them; a mean over",
        "  champions: Student's t over the champions.",
        "- **Depth**: the ladders' `material` and `positional` players are the linear sets",
        "  at depths 1 to 7 (depth.png); in abapa MCTS at 100 to 3000 playouts (mcts.png).",
        "  The n-tuple and network families: results/representation grades each arm's",
        "  champion and the hand-tuned weights on the same 10,000 endgame positions at",
        "  depths 1 to 5 (its grade_vs_depth.png, gdepth.csv); here each arm's champion",
        "  at its training depth, 2, beside the others.",
        "",
        "## Whole small games",
        "",
    ]
    lines += ladder_lines(src, lt, missing)
    if not lt.empty:
        lines += ["![grade against depth](depth.png)", "",
                  "Grade against search depth for each linear set (ladder players; error bars: "
                  "95% intervals over games).", ""]
        if (lt.family == "mcts").any():
            lines += ["![grade against playouts](mcts.png)", "",
                      "The same against the playouts of MCTS (abapa).", ""]
    lines += ["## Endgames: the champions of every study", ""]
    if not ch.empty:
        first = ch.iloc[0]
        lines += [f"{int(first.positions)} positions a player inside each variant's database to "
                  f"{int(first.seeds)} seeds (champions.jsonl; champions.csv):", ""]
        lines += champion_lines(ch, gt)
        lines += ["", "![champions](champions.png)", ""]
    else:
        lines += ["**Missing**: champions.jsonl is not here.", ""]
    lines += ["## Compute", "",
              "Wall and CPU seconds and peak memory of every step (times.tsv; one run each):", "",
              "| step | runs | wall s | CPU s | largest peak MiB |", "|---|---:|---:|---:|---:|"]
    for step, t in times.groupby("step", sort=False):
        lines.append(f"| {step} | {len(t)} | {t.wall_s.sum():.0f} | {t.cpu_s.sum():.0f} | "
                     f"{t.max_rss_kb.max() / 1024:.0f} |")
    made = ", ".join(f"`PARTS=ladder PER_PIT={k} GAMES={int(lt[(lt.variant == v) & (lt.per_pit == k)].games.iloc[0])} "
                     f"VARIANTS={v}`" for v, k in present)
    lines += ["", "## Rerun", "",
              "`THREADS=2 nice -n 10 experiments/perfect/run.sh` (the whole study: builds the "
              "databases it lacks; `TBK=DIR` reuses 24-seed databases kept elsewhere; `--quick`: "
              "the 12-seed games, seconds)."
              + (f" The data here: `PARTS=champions` and {made}." if present else "")
              + " The report alone: `experiments/perfect/report.py --committed results/perfect`.",
              ""]
    return lines


def build(src, into, plots, quick):
    import pandas as pd
    lrows = ladder_rows(src)
    lt = ladder_table(lrows)
    crows = sl.read_grades(os.path.join(src, "champions.jsonl"))
    ch = champion_table(crows)
    gt = group_table(ch)
    times = pd.read_csv(os.path.join(src, "times.tsv"), sep="\t")
    if not lt.empty:
        lt.to_csv(os.path.join(into, "ladder.csv"), index=False)
        band_table(lrows, "phases").to_csv(os.path.join(into, "phases.csv"), index=False)
        band_table(lrows, "seeds").to_csv(os.path.join(into, "seeds.csv"), index=False)
    if not ch.empty:
        ch.to_csv(os.path.join(into, "champions.csv"), index=False)
        gt.to_csv(os.path.join(into, "groups.csv"), index=False)
    sl.write_json(os.path.join(into, "results.json"), {
        "quick": quick, "ladder": sl.records(lt) if not lt.empty else [],
        "champion_groups": sl.records(gt) if not gt.empty else []}, end="\n")
    if plots:
        if not lt.empty:
            plot_depth(lt, os.path.join(into, "depth.png"))
            if (lt.family == "mcts").any():
                plot_depth(lt[lt.family == "mcts"], os.path.join(into, "mcts.png"),
                           (("mcts", "playouts", "playouts"),))
        if not ch.empty:
            plot_champions(ch, os.path.join(into, "champions.png"))
    sl.write_lines(os.path.join(into, "README.md"), readme(src, lt, ch, gt, times, quick))


def main(argv):
    if len(argv) >= 3 and argv[1] == "--record":
        return record(argv[2], argv[3:])
    if len(argv) == 4 and argv[1] == "--split":
        return split(argv[2], argv[3])
    c = sl.committed(argv)
    if c is not None:
        src, into, plots = c
        with open(os.path.join(src, "run.json")) as f:
            quick = json.load(f)["quick"]
        os.makedirs(into, exist_ok=True)
        return build(src, into, plots, quick)
    if len(argv) == 4 and argv[2] == "--quick":
        out, quick = argv[1], int(argv[3])
        sl.write_json(os.path.join(out, "run.json"), {"quick": quick}, end="\n")
        return build(out, out, True, quick)
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
