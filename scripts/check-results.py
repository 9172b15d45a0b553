#!/usr/bin/python3
"""check-results.py [--results DIR] [--study NAME ...] [--self-test] -- the
results check: every number a study README quotes is recomputed from the
committed data, and the check fails (exit 1, naming file and line) where
they disagree.

Two parts:

1. Regeneration.  Each study's report script remakes its README and its
   tables from the committed data alone (`report.py --committed SRC INTO`,
   no run file needed) into a temporary directory; every file it writes
   must equal the committed one, character for character.  So a number
   edited by hand in a README or a table, or a data file that no longer
   gives the README's numbers, fails.  results/README.md is remade the same
   way (experiments/results-readme.py).
2. Independent recomputation, by code other than the reports':
   - every `nickar rate` object fitted jointly with its ladder's games
     (ratings.jsonl, "joint": true) is refitted in Python
     (studylib.rate_joint): its Elo and standard error must agree to 0.01;
   - every match row of a README (| ... | W-D-L | W:D:L % | score [lo, hi] |)
     must give the W:D:L % and the score of its W-D-L, an interval around
     the score, and, for a clean sweep, exactly Wilson's interval of N wins
     in N in its closed form, [N / (N + z^2), 1] (mirrored for N losses);
   - every ayo2004 and davis-kendall-2002 rating row must quote the Elo and
     interval of its ratings.jsonl object;
   - each study's endgame.jsonl (its champions' endgame grades) must hold
     the lines of results/perfect/champions.jsonl that grade them.

--self-test: the check must pass on a copy of the results and fail on a
copy with one README number edited, on one with one game result edited
in matches.jsonl, and (results/perfect) on one with an endgame cell of a
study README edited, one with a number of a `nickar grade` output edited
and one with a study's endgame line edited (what the ctest
test_results_check_detects_edit runs).  Needs /usr/bin/python3 with Debian's numpy, pandas and
matplotlib; takes seconds."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "experiments"))

PY = sys.executable or "/usr/bin/python3"

# Each study whose report remakes its README from the committed data: its
# directory under results/ and its report script.
STUDIES = {
    "ayo2004": "experiments/ayo2004/report.py",
    "davis-kendall-2002": "experiments/davis-kendall-2002/report.py",
    "caribbean": "experiments/caribbean/report.py",
    "strategies": "experiments/strategies/report.py",
    "solved": "experiments/solved/report.py",
    "perfect": "experiments/perfect/report.py",
    "tbteach": "experiments/tbteach/report.py",
    "representation": "experiments/representation/report.py",
}
SUMMARY = "experiments/results-readme.py"


def regenerate(results, study, report, problems):
    """Runs REPORT --committed on results/STUDY into a temporary directory and
    compares every file it writes with the committed one."""
    src = os.path.join(results, study)
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([PY, os.path.join(ROOT, report), "--committed", src, tmp],
                           capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"{study}: {report} --committed failed:\n{r.stderr.strip()}")
            return
        written = sorted(os.listdir(tmp))
        if "README.md" not in written:
            problems.append(f"{study}: {report} --committed wrote no README.md")
        for name in written:
            compare(os.path.join(src, name), os.path.join(tmp, name),
                    f"results/{study}/{name}", problems)


NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def same_line(a, b):
    """a and b equal, but for numbers within a relative 1e-9 of each other."""
    if a == b:
        return True
    if NUMBER.split(a) != NUMBER.split(b):
        return False
    for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)):
        if x != y and abs(float(x) - float(y)) > 1e-9 * max(1.0, abs(float(x)), abs(float(y))):
            return False
    return True


def compare(committed, remade, shown, problems):
    """The committed file against the remade one: a problem naming the
    first differing line."""
    if not os.path.exists(committed):
        problems.append(f"{shown}: written by its report from the committed data, but not committed")
        return
    with open(committed) as f:
        want = f.read().splitlines()
    with open(remade) as f:
        got = f.read().splitlines()
    if want == got:
        return
    for k in range(max(len(want), len(got))):
        a = want[k] if k < len(want) else "(end of file)"
        b = got[k] if k < len(got) else "(end of file)"
        if not same_line(a, b):
            problems.append(f"{shown}:{k + 1}: the committed file says\n    {a}\n"
                            f"  but the committed data give\n    {b}")
            return


def summary_readme(results, problems):
    """results/README.md remade by experiments/results-readme.py."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "README.md")
        r = subprocess.run([PY, os.path.join(ROOT, SUMMARY), results, out],
                           capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"{SUMMARY} failed:\n{r.stderr.strip()}")
            return
        compare(os.path.join(results, "README.md"), out, "results/README.md", problems)


def refit_ratings(results, studies, problems):
    """Every joint `nickar rate` object refitted in Python; returns how many."""
    import studylib as sl
    n = 0
    for study in studies:
        for line_no, o in jsonl(os.path.join(results, study, "ratings.jsonl")):
            r = o.get("rate", o)
            if not r.get("joint"):
                continue
            e, se, _lo, _hi, prior = sl.rate_joint(os.path.join(ROOT, r["ladder"]), r["opponents"])
            if abs(e - r["elo"]) > 0.011 or abs(se - r["se"]) > 0.011 or prior != bool(r["prior"]):
                problems.append(f"results/{study}/ratings.jsonl:{line_no}: {r['player']}: nickar "
                                f"rate says {r['elo']} (se {r['se']}), the refit {e:.2f} (se {se:.2f})")
            n += 1
    return n


def jsonl(path):
    """(line number, object) of a JSON-lines file; nothing when missing."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [(k, json.loads(x)) for k, x in enumerate(f, 1) if x.strip()]


MATCH_ROW = re.compile(r"\| (\d+)-(\d+)-(\d+) \| (\d+):(\d+):(\d+) \| (\d\.\d{3}) \[(\d\.\d{3}), (\d\.\d{3})\]")


def match_rows(results, studies, problems):
    """Every W-D-L | W:D:L % | score [lo, hi] row of the READMEs; returns
    how many."""
    z2 = 1.959963984540054 ** 2
    n = 0
    for study in studies:
        path = os.path.join(results, study, "README.md")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for k, line in enumerate(f, 1):
                for m in MATCH_ROW.finditer(line):
                    w, d, l_, pw, pd, pl = (int(x) for x in m.groups()[:6])
                    s, lo, hi = (float(x) for x in m.groups()[6:])
                    g = w + d + l_
                    where = f"results/{study}/README.md:{k}"
                    pct = tuple(round(100 * x / g) for x in (w, d, l_))
                    if pct != (pw, pd, pl):
                        problems.append(f"{where}: {w}-{d}-{l_} is {pct[0]}:{pct[1]}:{pct[2]}, "
                                        f"not {pw}:{pd}:{pl}")
                    if abs(round((w + d / 2) / g, 3) - s) > 0.0005:
                        problems.append(f"{where}: {w}-{d}-{l_} scores {(w + d / 2) / g:.3f}, not {s}")
                    if not (lo <= s <= hi and lo < hi):
                        problems.append(f"{where}: the interval [{lo}, {hi}] of {s} is empty or "
                                        "misses the score")
                    if d == 0 and (w == 0 or l_ == 0):
                        edge = g / (g + z2)
                        want = (edge, 1.0) if l_ == 0 else (0.0, 1.0 - edge)
                        if abs(round(want[0], 3) - lo) > 0.0005 or abs(round(want[1], 3) - hi) > 0.0005:
                            problems.append(f"{where}: a sweep of {g}: Wilson gives "
                                            f"[{want[0]:.3f}, {want[1]:.3f}], not [{lo}, {hi}]")
                    n += 1
    return n


def rating_rows(results, problems):
    """The rating rows of ayo2004 and davis-kendall-2002 against their
    ratings.jsonl objects; returns how many."""
    sys.path.insert(0, os.path.join(ROOT, "experiments", "ayo2004"))
    n = 0
    ayo = os.path.join(results, "ayo2004")
    dk = os.path.join(results, "davis-kendall-2002")
    want = {}
    if os.path.exists(os.path.join(ayo, "README.md")):
        import report as ayo_report
        objs = [o for _, o in jsonl(os.path.join(ayo, "ratings.jsonl"))]
        objs += [o for _, o in jsonl(os.path.join(dk, "ratings.jsonl"))]
        want["ayo2004"] = {ayo_report.label(o["player"]): o for o in objs}
    if os.path.exists(os.path.join(dk, "README.md")):
        want["davis-kendall-2002"] = {str(k): o for k, o in jsonl(os.path.join(dk, "ratings.jsonl"))}
    for study, by_label in want.items():
        with open(os.path.join(results, study, "README.md")) as f:
            for k, line in enumerate(f, 1):
                m = re.match(r"\| ([^|]+?) \| (-?\d+\.\d) \| \[(-?\d+\.\d), (-?\d+\.\d)\]", line)
                if not m or m.group(1) not in by_label:
                    continue
                o = by_label[m.group(1)]
                got = tuple(float(x) for x in m.groups()[1:])
                ref = (o["elo"], o["ci"][0], o["ci"][1])
                if any(abs(a - round(b, 1)) > 0.051 for a, b in zip(got, ref)):
                    problems.append(f"results/{study}/README.md:{k}: {m.group(1)} quotes {got}, "
                                    f"its ratings.jsonl says {ref}")
                n += 1
    return n


def endgame_data(results, studies, problems):
    """Each study's endgame.jsonl (the champions' grades its endgame column
    is written from) against results/perfect/champions.jsonl, the perfect
    run's: the same lines, the study's own (ayo2004 also shows the
    davis-kendall-2002 champions); returns how many lines were compared."""
    path = os.path.join(results, "perfect", "champions.jsonl")
    if not os.path.exists(path):
        return 0
    perfect = [o for _, o in jsonl(path)]
    n = 0
    for study in studies:
        mine = os.path.join(results, study, "endgame.jsonl")
        if study == "perfect" or not os.path.exists(mine):
            continue
        want = [o for o in perfect if o["study"] == study
                or (study == "ayo2004" and o["study"] == "davis-kendall-2002")]
        got = [o for _, o in jsonl(mine)]
        if got != want:
            k = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            problems.append(f"results/{study}/endgame.jsonl:{k + 1}: not the line of "
                            "results/perfect/champions.jsonl that grades the same champion "
                            f"({len(got)} lines, the perfect run has {len(want)} for {study})")
        n += len(got)
    return n


def check(results, studies):
    """Every check on RESULTS: (problems, counts)."""
    problems, counts = [], {}
    for study in studies:
        if os.path.isdir(os.path.join(results, study)):
            regenerate(results, study, STUDIES[study], problems)
            counts["regenerated"] = counts.get("regenerated", 0) + 1
    if set(studies) == set(STUDIES) and os.path.exists(os.path.join(ROOT, SUMMARY)):
        summary_readme(results, problems)
    counts["ratings refitted"] = refit_ratings(results, studies, problems)
    counts["match rows"] = match_rows(results, studies, problems)
    counts["rating rows"] = rating_rows(results, problems)
    counts["endgame lines"] = endgame_data(results, studies, problems)
    return problems, counts


def _edit_readme_match(copy):
    """One W of the first W-D-L of ayo2004's README, plus one."""
    path = os.path.join(copy, "ayo2004", "README.md")
    text = open(path).read()
    m = re.search(r"\| (\d+)-(\d+)-(\d+) \| ", text)
    open(path, "w").write(text[:m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):])


def _edit_match_data(copy):
    """One game of ayo2004's first match turned from a win into a loss."""
    path = os.path.join(copy, "ayo2004", "matches.jsonl")
    lines = open(path).read().splitlines(True)
    o = json.loads(lines[0])
    o["wins"], o["losses"] = o["wins"] - 1, o["losses"] + 1
    lines[0] = json.dumps(o, separators=(",", ":")) + "\n"
    open(path, "w").writelines(lines)


def _edit_endgame_cell(copy):
    """The first endgame share of davis-kendall-2002's README, 0.001 more."""
    path = os.path.join(copy, "davis-kendall-2002", "README.md")
    text = open(path).read()
    m = re.search(r"\| 0\.(\d{3}) \[0\.\d{3}, 0\.\d{3}\] \|\n", text)
    v = f"{int(m.group(1)) + 1:03d}"
    open(path, "w").write(text[:m.start(1)] + v + text[m.end(1):])


def _edit_grade_output(copy):
    """The share of optimal moves in the first grade output of a perfect
    ladder file, changed."""
    path = sorted(glob.glob(os.path.join(copy, "perfect", "ladder-*.jsonl")))[0]
    lines = open(path).read().splitlines(True)
    o = json.loads(lines[0])
    o["output"] = [re.sub(r"^optimal moves: (\d)\.(\d)", lambda m: f"optimal moves: {m.group(1)}."
                          f"{(int(m.group(2)) + 1) % 10}", x) for x in o["output"]]
    lines[0] = json.dumps(o, separators=(",", ":")) + "\n"
    open(path, "w").writelines(lines)


def _edit_endgame_data(copy):
    """davis-kendall-2002's first endgame.jsonl line graded on one position
    fewer (its README is remade from it, and it no longer matches the
    perfect run's line)."""
    path = os.path.join(copy, "davis-kendall-2002", "endgame.jsonl")
    lines = open(path).read().splitlines(True)
    o = json.loads(lines[0])
    o["output"] = [re.sub(r"^positions: (\d+)", lambda m: f"positions: {int(m.group(1)) - 1}", x)
                   for x in o["output"]]
    lines[0] = json.dumps(o, separators=(",", ":")) + "\n"
    open(path, "w").writelines(lines)


# (what, the studies copied and checked, the edit or None)
SELF_TESTS = [
    ("none", ["ayo2004"], None),
    ("readme", ["ayo2004"], _edit_readme_match),
    ("data", ["ayo2004"], _edit_match_data),
    ("none (perfect)", ["davis-kendall-2002", "perfect", "solved"], None),
    ("endgame column", ["davis-kendall-2002", "perfect", "solved"], _edit_endgame_cell),
    ("grade output", ["davis-kendall-2002", "perfect", "solved"], _edit_grade_output),
    ("endgame data", ["davis-kendall-2002", "perfect", "solved"], _edit_endgame_data),
]


def self_test(studies):
    """The check passes on copies of results/ayo2004 and of results/perfect
    (with the studies it reads), and fails on a copy with one README number
    edited, one game result edited, one endgame cell edited, one grade
    output edited and one study's endgame line edited."""
    ok = True
    for what, copied, edit in SELF_TESTS:
        if not all(os.path.isdir(os.path.join(ROOT, "results", c)) for c in copied):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "results")
            for c in copied:
                shutil.copytree(os.path.join(ROOT, "results", c), os.path.join(copy, c))
            if edit:
                edit(copy)
            problems, _ = check(copy, [c for c in copied if c in STUDIES])
            failed = bool(problems)
            expect = edit is not None
            print(f"{'ok' if failed == expect else 'FAIL'}: edit {what}: the check "
                  f"{'fails' if failed else 'passes'}" + (f" ({problems[0].splitlines()[0]})" if failed else ""))
            ok = ok and failed == expect
    return ok


def main(argv):
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--results", default=os.path.join(ROOT, "results"))
    p.add_argument("--study", action="append", choices=sorted(STUDIES))
    p.add_argument("--self-test", action="store_true")
    a = p.parse_args(argv[1:])
    studies = a.study or list(STUDIES)
    if a.self_test:
        return 0 if self_test(studies) else 1
    problems, counts = check(os.path.abspath(a.results), studies)
    for x in problems:
        print(f"check-results: {x}")
    print("check-results: " + ", ".join(f"{v} {k}" for k, v in counts.items())
          + f"; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
