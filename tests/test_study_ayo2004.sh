# test_study_ayo2004.sh -- experiments/ayo2004/run.sh --quick (a tiny
# budget, seconds) writes every output of the study, so that the script
# never rots.  The outputs go to a temporary directory, never results/.
#
#   bash tests/test_study_ayo2004.sh NICKAR_BINARY SOURCE_ROOT
set -u
nickar=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd) || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
NICKAR=$nickar OUT=$out "$src/experiments/ayo2004/run.sh" --quick >/dev/null 2>"$out/err" \
  || { cat "$out/err"; echo "FAIL: run.sh --quick"; exit 1; }
for f in README.md matches.csv results.json fitness.png weights.png; do
  check "$f written" "test -s '$out/$f'"
done
# 2 seeds: 2 depths x 2 seeds x 2 opponents (champions), 2 depths x 3
# readings x 2 tables x 2 opponents (published), 2 head-to-head matches.
check "every match in matches.csv" "test \$(( \$(wc -l <'$out/matches.csv') - 1 )) -eq 34"
check "six runs" "test \$(ls '$out'/run-*.h5 | wc -l) -eq 6"
check "README says it is a quick run" "grep -q 'QUICK RUN' '$out/README.md'"
check "README keeps the ladder section for the lead" "grep -q 'TO BE FILLED' '$out/README.md'"
check "results.json parses with every match" \
  "/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d[\"matches\"]) == 34 and d[\"quick\"]' '$out/results.json'"
exit $fail
