# test_study_solved.sh -- experiments/solved/run.sh --quick (abapa and
# speightstown with one seed a pit: databases of 12 seeds, seconds) writes
# the outputs and tables of the small games solved, and its values agree
# with a solve of the same start position read back from the database it
# built; the bounds of abapa's start and first moves (k1/abapa.bounds,
# `nickar solve --history`) hold the database's values, and the README
# states them.  `nickar solve --bounds` refuses speightstown, a position
# beyond the database and --history 0 (exit 2, one line, nothing on
# stdout).  The outputs go to a temporary directory, never results/.
#
#   bash tests/test_study_solved.sh NICKAR_BINARY SOURCE_ROOT
set -u
nickar=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd) || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
NICKAR=$nickar OUT=$out/study THREADS=1 "$src/experiments/solved/run.sh" --quick \
  >/dev/null 2>"$out/err" || { cat "$out/err"; echo "FAIL: run.sh --quick"; exit 1; }
o=$out/study
for f in README.md results.csv results.json k1/times.tsv k1/abapa.solve k1/speightstown.solve \
  k1/abapa.bounds; do
  check "$f written" "test -s '$o/$f'"
done
check "the databases went to OUT/tb" "test -s '$o/tb/k1/abapa.nktb' && test -s '$o/tb/k1/speightstown.nktb'"
check "README has the 12-seed table" "grep -q '^## one seed a pit (12 seeds)' '$o/README.md'"
check "README states the values and the repetition rule" \
  "grep -q '^### The values and the repetition rule' '$o/README.md' && grep -q '^| abapa | a | ' '$o/README.md'"
check "no speightstown bounds run" "test ! -e '$o/k1/speightstown.bounds'"
# The report's cells are those of a solve made here, and the start's value is
# the best of its moves' values (abapa: a number of seeds each).
"$nickar" solve --variant abapa --position '1,1,1,1,1,1/1,1,1,1,1,1 0-0 S' --tb "$o/tb/k1" \
  >"$out/abapa.solve"
/usr/bin/python3 - "$o" "$out/abapa.solve" >"$out/py" 2>&1 <<'PY'
import json, re, sys
o, again = sys.argv[1], open(sys.argv[2]).read()
rows = {r["variant"]: r for r in json.load(open(f"{o}/results.json"))}
assert set(rows) == {"abapa", "speightstown"}, rows.keys()
a = rows["abapa"]
assert a["seeds"] == 12 and a["per_pit"] == 1
assert again.splitlines()[1] == "value: " + a["value"], (again, a["value"])
best = int(re.match(r"(\d+) of the 12 seeds", a["value"]).group(1))
vals = {m["move"]: int(m["value"]) for m in a["move_detail"]}
assert sorted(vals) == list("abcdef"), vals
assert max(vals.values()) == best, (vals, best)
assert a["optimal"].split() == [m for m, v in vals.items() if v == best]
b = a["bounds"]
assert b[2] <= b[0] <= best <= b[1] <= b[3], b
for m in a["move_detail"]:
    mb = m["bounds"]
    assert mb[2] <= mb[0] <= int(m["value"]) <= mb[1] <= mb[3], (m["move"], mb)
    h = m["history"]
    assert h[0] <= h[1], h
    if mb[2] == mb[3]:  # a value that stands is the game's with history
        assert h[0] == h[1] == mb[2], (m["move"], h, mb)
s = rows["speightstown"]
assert s["bounds"] is None
assert s["result"] in ("South wins", "North wins", "draw"), s["result"]
assert s["stored_positions"] > 0 and s["build_cpu_s"] >= 0
print("tables consistent")
PY
check "tables agree with a solve made here ($(tail -1 "$out/py"))" "grep -q '^tables consistent' '$out/py'"
start='1,1,1,1,1,1/1,1,1,1,1,1 0-0 S'
for bad in "speightstown|$start|--bounds" "abapa|2,1,1,1,1,1/1,1,1,1,1,1 0-0 S|--bounds" \
  "abapa|$start|--history 0"; do
  IFS='|' read -r v pos opt <<<"$bad"
  # shellcheck disable=SC2086
  "$nickar" solve --variant "$v" --position "$pos" --tb "$o/tb/k1" $opt >"$out/so" 2>"$out/se"
  rc=$?
  check "solve $opt ($v, $pos): exit 2, one line, nothing on stdout" \
    "test $rc -eq 2 && test \$(wc -l <'$out/se') -eq 1 && test ! -s '$out/so'"
done
NICKAR=$nickar OUT=$out/bad "$src/experiments/solved/run.sh" --per-pit 3 >/dev/null 2>"$out/e3"
rc=$?
check "--per-pit 3: exit 2 with one line, nothing written" \
  "test $rc -eq 2 && test \$(wc -l <'$out/e3') -eq 1 && test ! -e '$out/bad'"
NICKAR=$nickar OUT=$out/bad "$src/experiments/solved/run.sh" --variants oware >/dev/null 2>&1
rc=$?
check "unknown variant: exit 2, nothing written" "test $rc -eq 2 && test ! -e '$out/bad'"
exit $fail
