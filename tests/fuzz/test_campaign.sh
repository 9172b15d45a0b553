#!/usr/bin/env bash
# tests/fuzz/test_campaign.sh FUZZ_WEIGHTS SOURCE_ROOT -- tests/fuzz/campaign.sh:
# a campaign stops once its rounds' CPU time reaches the budget, logs each
# round, goes on from where it stopped when run again with the same OUT,
# and refuses bad arguments with exit 2 and one line.
set -u
fuzzer=$1
src=$2
camp=$src/tests/fuzz/campaign.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

ROUND=2 bash "$camp" "$fuzzer" weights 3 "$work/c" >"$work/out1" 2>&1 || { cat "$work/out1"; fail "a 3 CPU-s campaign"; }
tsv=$work/c/campaign.tsv
rows=$(($(wc -l <"$tsv") - 1))
(( rows >= 1 )) || fail "no round logged"
cpu=$(awk -F'\t' 'NR > 1 { c += $3 } END { print c }' "$tsv")
awk -v c="$cpu" 'BEGIN { exit !(c >= 3) }' || fail "stopped at $cpu CPU s, before the budget of 3"
awk -F'\t' 'NR > 1 && ($4 <= 0 || $6 <= 0) { bad = 1 } END { exit bad }' "$tsv" ||
  fail "a round with no inputs or no coverage: $(cat "$tsv")"
[[ $(ls "$work/c/corpus" | wc -l) -gt 0 ]] || fail "no corpus gathered"
grep -q "^fuzz_weights: $rows rounds" "$work/out1" || fail "no summary line: $(tail -2 "$work/out1")"

# again with the same OUT and a larger budget: the next seeds, appended
ROUND=2 bash "$camp" "$fuzzer" weights 6 "$work/c" >"$work/out2" 2>&1 || { cat "$work/out2"; fail "the continued campaign"; }
rows2=$(($(wc -l <"$tsv") - 1))
(( rows2 > rows )) || fail "the second run added no round"
[[ $(awk -F'\t' 'NR == 2 { print $1 }' "$tsv") == 1 && \
   $(awk -F'\t' -v r="$((rows + 2))" 'NR == r { print $1 }' "$tsv") == $((rows + 1)) ]] ||
  fail "seeds do not follow on: $(cut -f1 "$tsv" | tr '\n' ' ')"
# the same budget again: nothing to do
ROUND=2 bash "$camp" "$fuzzer" weights 6 "$work/c" >/dev/null 2>&1 || fail "a spent budget"
[[ $(($(wc -l <"$tsv") - 1)) == "$rows2" ]] || fail "a spent budget ran another round"

# a second leg in a new OUT from FIRST_SEED: its first round has that seed
FIRST_SEED=101 ROUND=2 bash "$camp" "$fuzzer" weights 1 "$work/e" >"$work/out3" 2>&1 || { cat "$work/out3"; fail "a leg from FIRST_SEED"; }
[[ $(awk -F'\t' 'NR == 2 { print $1 }' "$work/e/campaign.tsv") == 101 ]] ||
  fail "FIRST_SEED=101 began at seed $(awk -F'\t' 'NR == 2 { print $1 }' "$work/e/campaign.tsv")"

bad() {  # bad ARGS...: exit 2 and one line
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  [[ $rc == 2 && $(printf '%s\n' "$err" | wc -l) == 1 && -n $err ]] ||
    fail "'$*' gave exit $rc and: $err"
}
bad bash "$camp" "$fuzzer" weights 0 "$work/d"
bad bash "$camp" "$fuzzer" weights 1e3 "$work/d"
bad bash "$camp" "$fuzzer" nosuchkind 10 "$work/d"
bad bash "$camp" "$work/none" weights 10 "$work/d"
bad env ROUND=0 bash "$camp" "$fuzzer" weights 10 "$work/d"
bad env TIMEOUT=x bash "$camp" "$fuzzer" weights 10 "$work/d"
bad env FIRST_SEED=0 bash "$camp" "$fuzzer" weights 10 "$work/d"
bad bash "$camp" "$fuzzer" weights
[[ ! -e $work/d ]] || fail "a refused campaign wrote $work/d"
echo "PASS: campaign rounds, budget, continuation, FIRST_SEED and bad arguments"
