#!/usr/bin/env bash
# test_runfile_checkpoint.sh -- the checkpoint interval of the run file's
# backup copy (`nickar evolve --checkpoint-seconds S`, io/backup.h):
#   1. with a long interval the copy is made once, when the file is opened,
#      and not after each generation (the steps of the I/O seam say so);
#      with 0 it is made after every generation;
#   2. a kill late in a run with a long interval leaves the copy of
#      generation 0, and --resume plays every generation again and ends
#      bit-identical to the uninterrupted run;
#   3. with interval 0, a kill at each step of the run (the refresh of the
#      copy after every generation, the final sync of the run file before
#      the copy is removed) resumes bit-identically;
#   4. the run file is synced (step "fsync") once, when it closes, after
#      the last append and before the copy is removed;
#   5. bad values are refused with one line.
# nickar-test stops itself before the Nth step of the run file's I/O with
# NICKAR_KILL_AT=N and logs the steps with NICKAR_KILL_LOG (see
# tests/runfile_kill_seam.c).
source "$(dirname "$0")/lib_cli.sh"
testbin=${NICKAR_TEST_BIN:-$(dirname "$nickar")/tests/nickar-test}
[[ -x $testbin ]] || { echo "FAIL: no nickar-test binary ($testbin)"; exit 1; }

cfg=$tmp/small.ini
tiny_config "$cfg" 2 random
run evolve "$cfg" --output "$tmp/ref.h5" --quiet
check "the uninterrupted run exits 0 ($err)" test "$rc" -eq 0
mkdir -p "$tmp/done"

# 1. how many copies a run makes ("sync copy": the copy's own sync)
NICKAR_KILL_LOG=$tmp/long.log "$testbin" evolve "$cfg" --output "$tmp/long.h5" --quiet \
  --checkpoint-seconds 3600
check "a run with a long interval exits 0" test $? -eq 0
check "a long interval: one copy, when the file is opened ($(grep -c ' sync copy$' "$tmp/long.log"))" \
  test "$(grep -c ' sync copy$' "$tmp/long.log")" -eq 1
NICKAR_KILL_LOG=$tmp/zero.log "$testbin" evolve "$cfg" --output "$tmp/zero.h5" --quiet \
  --checkpoint-seconds 0
check "a run with interval 0 exits 0" test $? -eq 0
check "interval 0: a copy on opening and after each of the 2 generations" \
  test "$(grep -c ' sync copy$' "$tmp/zero.log")" -eq 3
check "no backup left after a clean close" test ! -e "$tmp/zero.h5.bak"
"$python" "$srcdir/scripts/compare-runs.py" "$tmp/ref.h5" "$tmp/long.h5" "$tmp/zero.h5" >"$tmp/cmp" 2>&1
check "the interval does not change the run ($(head -c 300 "$tmp/cmp"))" \
  test "$(grep -c ': same run: ' "$tmp/cmp")" -eq 2

# 4. one fsync of the run file, after the last append's flush and before
# the copy is removed
fs=$(grep -n ' fsync$' "$tmp/long.log" | cut -d: -f1)
lastflush=$(grep -n ' flush$' "$tmp/long.log" | tail -1 | cut -d: -f1)
removal=$(grep -n ' remove backup$' "$tmp/long.log" | tail -1 | cut -d: -f1)
check "the run file is synced once ($fs)" test "$(grep -c ' fsync$' "$tmp/long.log")" -eq 1
check "the sync follows the last append ($fs > $lastflush)" test "${fs:-0}" -gt "${lastflush:-0}"
check "the copy is removed after the sync ($removal > $fs)" test "${removal:-0}" -gt "${fs:-0}"

# 2. a kill in the last generation's append, with a long interval
at=$(grep " /population/genome$" "$tmp/long.log" | tail -1 | cut -d' ' -f1)
rm -rf "$tmp/k" && mkdir -p "$tmp/k"
NICKAR_KILL_AT=$at "$testbin" evolve "$cfg" --output "$tmp/k/run.h5" --quiet \
  --checkpoint-seconds 3600
check "the kill stops the run (step $at)" test $? -eq 137
"$python" - "$tmp/k/run.h5.bak" >"$tmp/gen" 2>&1 <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    print(int(f["checkpoint"].attrs["generation"]) + 1)
PY
check "the copy left by the kill holds 0 generations ($(cat "$tmp/gen"))" test "$(cat "$tmp/gen")" = 0
run evolve "$cfg" --output "$tmp/k/run.h5" --resume
check "--resume after the kill exits 0 ($err)" test "$rc" -eq 0
check "--resume goes on from the copy ($err)" grep -q "resuming '.*' after generation 0" "$tmp/err"
check "no backup left after the resume" test ! -e "$tmp/k/run.h5.bak"
cp "$tmp/k/run.h5" "$tmp/done/replayed.h5"

# 3. interval 0: a kill at each step
n=1
killed=0
while :; do
  rm -rf "$tmp/w" && mkdir -p "$tmp/w"
  NICKAR_KILL_AT=$n timeout 60 "$testbin" evolve "$cfg" --output "$tmp/w/run.h5" --quiet \
    --checkpoint-seconds 0 >/dev/null 2>"$tmp/kerr"
  krc=$?
  [[ $krc -eq 0 ]] && break
  if [[ $krc -ne 137 ]]; then
    fail "step $n: the run ended with $krc, not a kill ($(head -c 300 "$tmp/kerr"))"
    break
  fi
  killed=$((killed + 1))
  run evolve "$cfg" --output "$tmp/w/run.h5" --resume --quiet --checkpoint-seconds 0
  check "step $n: --resume exits 0 (rc $rc: $err)" test "$rc" -eq 0
  check "step $n: no backup left" test ! -e "$tmp/w/run.h5.bak"
  cp "$tmp/w/run.h5" "$tmp/done/zero-$n.h5"
  n=$((n + 1))
  if [[ $n -gt 2000 ]]; then
    fail "more than 2000 steps"
    break
  fi
done
check "interval 0: some steps were killed" test "$killed" -gt 0
echo "interval 0: killed at each of $killed steps"

"$python" "$srcdir/scripts/compare-runs.py" "$tmp/ref.h5" "$tmp/done"/*.h5 >"$tmp/cmp" 2>&1
check "every resumed run equals the uninterrupted run ($(grep -v 'same run' "$tmp/cmp" | head -3))" \
  test "$(grep -c ': same run: ' "$tmp/cmp")" -eq "$(ls "$tmp/done" | wc -l)"

# 5. bad values
expect_error evolve "--checkpoint-seconds" evolve "$cfg" --output "$tmp/bad.h5" --checkpoint-seconds -1
expect_error evolve "--checkpoint-seconds" evolve "$cfg" --output "$tmp/bad.h5" --checkpoint-seconds soon
check "a refused value writes no file" test ! -e "$tmp/bad.h5"
finish
