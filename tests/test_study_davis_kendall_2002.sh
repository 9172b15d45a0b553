# test_study_davis_kendall_2002.sh -- experiments/davis-kendall-2002/run.sh
# --quick (a tiny budget, seconds) writes every output of the study with
# the shape and content the README's tables need, so that the script never
# rots.  The outputs go to a temporary directory, never results/.
#
#   bash tests/test_study_davis_kendall_2002.sh NICKAR_BINARY SOURCE_ROOT
set -u
nickar=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd) || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
run=$src/experiments/davis-kendall-2002/run.sh

NICKAR=$nickar OUT=$out/bad "$run" --slow >/dev/null 2>"$out/err1"
check "an unknown argument is exit 2" "test $? -eq 2 && grep -q \"unknown argument '--slow'\" '$out/err1'"
NICKAR=$nickar OUT=$out/bad LADDER=$out/none.tsv "$run" --quick >/dev/null 2>"$out/err2"
check "a missing ladder is exit 2, named" "test $? -eq 2 && grep -q 'no awari ladder at $out/none.tsv' '$out/err2'"

NICKAR=$nickar OUT=$out/q "$run" --quick >/dev/null 2>"$out/err" \
  || { cat "$out/err"; echo "FAIL: run.sh --quick"; exit 1; }
q=$out/q
for f in README.md ratings.csv matches.csv results.json benchmark.png weights.png times.tsv; do
  check "$f written" "test -s '$q/$f'"
done
check "one run file a seed (2 seeds)" "test \$(ls '$q'/run-dk2002-d2-s*.h5 | wc -l) -eq 2"
check "README says it is a quick run" "grep -q 'QUICK RUN' '$q/README.md'"
check "README's protocol table: the paper's 250 generations beside ours" \
  "grep -q '^| generations | 250 | \*\*2\*\* |' '$q/README.md'"
check "README marks the unknown ES parameters as ours" "grep -q '(3+6)-ES' '$q/README.md' && grep -q '\*\*ours\*\*' '$q/README.md'"
check "README rates every seed on the ladder" "grep -q '^| 1 | [0-9.-]* | \[' '$q/README.md' && grep -q '^| 2 | [0-9.-]* | \[' '$q/README.md'"
check "README sets the paper's text (3-2, 60:0:40) beside its Table 3 (60:20:20)" \
  "grep -q '^| Amateur | 3-2 (60:0:40) | 60:20:20 |' '$q/README.md'"
mkdir "$out/re"
"$src/experiments/davis-kendall-2002/report.py" --committed "$q" "$out/re" 2>"$out/err-re" || cat "$out/err-re"
check "report.py --committed remakes README.md from the data without run files" \
  "cmp -s '$q/README.md' '$out/re/README.md' && cmp -s '$q/matches.csv' '$out/re/matches.csv'"
/usr/bin/python3 - "$q" <<'PY' && echo "ok: tables and results.json consistent" || { echo "FAIL: tables and results.json"; fail=1; }
import csv, json, sys
q = sys.argv[1]
r = json.load(open(f"{q}/results.json"))
assert r["quick"] and r["seeds"] == 2 and r["generations"] == 2 and r["depth"] == 2
ratings = list(csv.DictReader(open(f"{q}/ratings.csv")))
assert [int(x["seed"]) for x in ratings] == [1, 2]
for x in ratings:
    lo, e, hi = float(x["elo_lo"]), float(x["elo"]), float(x["elo_hi"])
    assert lo < e < hi, x
    assert int(x["games"]) == 32, x          # 2 games against each of 16 rungs
    assert "features=dk2002" in x["player"] and "depth=2" in x["player"], x
matches = list(csv.DictReader(open(f"{q}/matches.csv")))
assert [m["b"] for m in matches] == ["ab:depth=2,features=material", "greedy"] * 2, matches
for m in matches:
    w, d, l = int(m["wins"]), int(m["draws"]), int(m["losses"])
    assert w + d + l == int(m["games"]) == 4, m
    s = (w + d / 2) / 4
    assert abs(float(m["score"]) - s) < 1e-9, m
    assert float(m["score_lo"]) <= s <= float(m["score_hi"]), m
assert set(r["champions"]) == {"s1", "s2"}
for c in r["champions"].values():
    assert list(c["weights"]) == ["opp_cap2", "opp_cap3", "own_cap2", "own_cap3",
                                  "opp_store", "own_store"], c
    assert all(-1 <= v <= 1 for v in c["weights"].values()), c
assert len(r["ratings"]) == 2 and len(r["matches"]) == 4
assert r["compute"]["cpu_s"] >= 0 and len(r["compute"]["steps"]) == 2 + 2 + 4
PY
# --continue with more generations: the run files are extended (not made
# again), the cost of the first evolutions stays in times.tsv, and the
# ratings and matches are played again once each.
NICKAR=$nickar OUT=$q GENS=3 "$run" --quick --continue >"$out/cont.log" 2>&1 \
  || { cat "$out/cont.log"; echo "FAIL: run.sh --quick --continue"; exit 1; }
check "--continue resumes both runs" "test \$(grep -c '^resuming' '$out/cont.log') -eq 2"
check "--continue keeps the first evolutions' cost" \
  "test \$(grep -c '^evolve s1' '$q/times.tsv') -eq 2 && test \$(grep -c '^rate s1' '$q/times.tsv') -eq 1"
check "--continue: the README gives the new generations" "grep -q '^| generations | 250 | \*\*3\*\* |' '$q/README.md'"
check "--continue: 2 ratings, not 4" "test \$(grep -c . '$q/ratings.jsonl') -eq 2"
exit $fail
