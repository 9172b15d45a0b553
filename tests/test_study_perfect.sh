# test_study_perfect.sh -- experiments/perfect/run.sh --quick (the one-seed-a-pit
# games: 12-seed databases, seconds) grades every ladder player of abapa and
# antigua over whole games and every study's champion on endgames, and
# writes the report: every rung and every champion is there, the tables
# agree with the `nickar grade` outputs kept, each error file has as many
# lines as its grade's errors, each study's endgame.jsonl holds its
# champions' lines, and the report remade from the committed data alone
# gives the same README and tables.  Not the committed numbers: the quick
# run is another game.  Bad arguments: exit 2, nothing written.  The
# outputs go to a temporary directory, never results/.
#
#   bash tests/test_study_perfect.sh NICKAR_BINARY SOURCE_ROOT
set -u
nickar=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd) || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
NICKAR=$nickar OUT=$out/study TB=$out/tb THREADS=1 "$src/experiments/perfect/run.sh" --quick \
  >/dev/null 2>"$out/err" || { cat "$out/err"; echo "FAIL: run.sh --quick"; exit 1; }
o=$out/study
for f in README.md ladder.csv phases.csv seeds.csv champions.csv groups.csv results.json depth.png \
  mcts.png champions.png ladder-abapa-k1.jsonl ladder-antigua-k1.jsonl champions.jsonl times.tsv \
  run.json errors/abapa-k1-positional-d7.txt errors/antigua-k1-positional-d7.txt; do
  check "$f written" "test -s '$o/$f'"
done
for s in ayo2004 davis-kendall-2002 caribbean strategies; do
  check "studies/$s/endgame.jsonl written" "test -s '$o/studies/$s/endgame.jsonl'"
done
check "the databases went to TB" "test -s '$out/tb/s12/abapa.nktb' && test -s '$out/tb/s12/awari.nktb'"
check "the committed error file opens in nickar view" \
  "'$nickar' view -o '$out/view.html' '$o/errors/abapa-k1-positional-d7.txt' >/dev/null 2>&1 && test -s '$out/view.html'"
check "README says it is a quick run" "grep -q '^\*\*QUICK RUN' '$o/README.md'"
check "README answers for both variants" \
  "grep -q '^- \*\*abapa\*\* (12 seeds' '$o/README.md' && grep -q '^- \*\*antigua\*\* (12 seeds' '$o/README.md'"
/usr/bin/python3 - "$o" "$src" "$out/tb" >"$out/py" 2>&1 <<'PY'
import csv, json, os, subprocess, sys
o, src, tb = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(src, "experiments"))
import studylib as sl
lad = list(csv.DictReader(open(f"{o}/ladder.csv")))
for v in ("abapa", "antigua"):
    rungs = [l.split("\t")[0] for l in open(f"{src}/results/ladder/{v}.tsv")
             if l.strip() and l[0] not in "#@"]
    rungs += ["mcts-p100", "mcts-p300"] if v == "abapa" else []
    got = [r["player"] for r in lad if r["variant"] == v]
    assert got == rungs, (v, got, rungs)
    for o_ in sl.read_grades(f"{o}/ladder-{v}-k1.jsonl"):
        g = o_["grade"]
        row = next(r for r in lad if r["variant"] == v and r["player"] == o_["name"])
        assert abs(float(row["optimal"]) - g["optimal"][0]) < 1e-12
        assert int(row["games"]) == 4 and int(row["per_pit"]) == 1
        assert int(row["wins"]) + int(row["draws"]) + int(row["losses"]) == 4
        assert sum(p[1] for p in g["phases"]) == g["positions"], g
        assert sum(p[2] for p in g["phases"]) == g["errors"], g
        errs = open(f"{tb}/errors/{v}-k1-{o_['name']}.txt").read().splitlines()
        assert len(errs) == g["errors"], (o_["name"], len(errs), g["errors"])
        assert all(e.startswith(f"error variant={v} ") for e in errs)
        assert g["optimal"][1] <= g["optimal"][0] <= g["optimal"][2]
champs = subprocess.run([sys.executable, f"{src}/experiments/perfect/champions.py",
                         f"{src}/results", f"{o}/w"], capture_output=True, text=True,
                        check=True, cwd=src).stdout.splitlines()
rows = sl.read_grades(f"{o}/champions.jsonl")
assert [(r["study"], r["label"]) for r in rows] == [tuple(c.split("\t")[:2]) for c in champs]
for r in rows:
    assert r["grade"]["positions"] == 40 and 0 <= r["grade"]["optimal"][0] <= 1, r["label"]
for s in ("ayo2004", "davis-kendall-2002", "caribbean", "strategies"):
    rows_ = list(map(json.loads, open(f"{o}/champions.jsonl")))
    mine = [json.dumps(r) for r in rows_ if r["study"] == s]
    if s == "ayo2004":  # its tables show the davis-kendall-2002 champions too
        mine += [json.dumps(r) for r in rows_ if r["study"] == "davis-kendall-2002"]
    theirs = [json.dumps(json.loads(x)) for x in open(f"{o}/studies/{s}/endgame.jsonl")]
    assert mine == theirs and mine, s
tmp = f"{o}/../again"
subprocess.run([sys.executable, f"{src}/experiments/perfect/report.py", "--committed", o, tmp],
               check=True)
for f in ("README.md", "ladder.csv", "champions.csv", "groups.csv", "results.json"):
    assert open(f"{o}/{f}").read() == open(f"{tmp}/{f}").read(), f
print("tables consistent")
PY
check "tables agree with the grade outputs ($(tail -1 "$out/py"))" "grep -q '^tables consistent' '$out/py'"
NICKAR=$nickar OUT=$out/bad "$src/experiments/perfect/run.sh" --slow >/dev/null 2>"$out/e1"
rc=$?
check "unknown argument: exit 2 with one line, nothing written" \
  "test $rc -eq 2 && test \$(wc -l <'$out/e1') -eq 1 && test ! -e '$out/bad'"
NICKAR=$nickar OUT=$out/bad VARIANTS=oware "$src/experiments/perfect/run.sh" --quick >/dev/null 2>"$out/e2"
rc=$?
check "a variant without a ladder: exit 2 with one line, nothing written" \
  "test $rc -eq 2 && test \$(wc -l <'$out/e2') -eq 1 && test ! -e '$out/bad'"
NICKAR=$nickar OUT=$out/bad PARTS=all "$src/experiments/perfect/run.sh" --quick >/dev/null 2>"$out/e3"
rc=$?
check "an unknown part: exit 2 with one line, nothing written" \
  "test $rc -eq 2 && test \$(wc -l <'$out/e3') -eq 1 && test ! -e '$out/bad'"
exit $fail
