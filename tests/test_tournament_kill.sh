#!/usr/bin/env bash
# test_tournament_kill.sh -- a tournament killed at any step of its file
# I/O resumes with --resume to the same file, byte for byte, and prints the
# same results as an uninterrupted one.
#
# nickar-test stops itself (_exit(137), as SIGKILL would) just before the
# Nth step of the file I/O when NICKAR_KILL_AT=N (tests/runfile_kill_seam.c;
# the tournament file's steps: every attribute, dataset and group written,
# the flush, the sync, the rename; io/tourfile.h).  The tournament below
# writes its file four times (before the first game, then after batches of
# 64, 64 and 22 meetings); N walks over every step of the four writes.  After each kill the file is either
# absent or whole (`nickar inspect` reads it); `--resume` then finishes
# the tournament, and the file must equal the uninterrupted one (cmp: the
# creation time comes from SOURCE_DATE_EPOCH, so nothing else may differ).
# The walk is made twice: a tournament of games, and one of whole matches
# (--unit match, whose file also holds the matches; 60 meetings, so two
# writes: before the first game and after the one batch).
source "$(dirname "$0")/lib_cli.sh"
testbin=${NICKAR_TEST_BIN:-$(dirname "$nickar")/tests/nickar-test}
[[ -x $testbin ]] || { echo "FAIL: no nickar-test binary ($testbin)"; exit 1; }
export SOURCE_DATE_EPOCH=1764633600
# walk WRITES ARGS...: the uninterrupted tournament, then a kill at every
# step of its WRITES writes of the file and a --resume after each
walk() {
  local writes=$1
  shift
  local args=("$@")
  rm -f "$tmp/ref.h5"
  run "${args[@]}" --output "$tmp/ref.h5"
  check "the uninterrupted tournament exits 0 ($err)" test "$rc" -eq 0
  cp "$tmp/out" "$tmp/ref.json"
  rm -f "$tmp/steps.log" "$tmp/logged.h5"
  NICKAR_KILL_LOG=$tmp/steps.log "$testbin" "${args[@]}" --output "$tmp/logged.h5" >/dev/null 2>&1
  local steps n krc killed=0
  steps=$(wc -l <"$tmp/steps.log")
  check "nickar-test writes the same file as nickar" cmp -s "$tmp/logged.h5" "$tmp/ref.h5"
  check "$writes writes of the file ($steps steps)" test "$(grep -c 'tournament rename' "$tmp/steps.log")" -eq "$writes"
  for ((n = 1; n <= steps; n++)); do
    rm -rf "$tmp/w"
    mkdir -p "$tmp/w"
    NICKAR_KILL_AT=$n "$testbin" "${args[@]}" --output "$tmp/w/t.h5" >/dev/null 2>&1
    krc=$?
    [[ $krc -eq 137 ]] || { fail "step $n: nickar-test exit $krc, want 137"; continue; }
    killed=$((killed + 1))
    if [[ -e $tmp/w/t.h5 ]]; then
      run inspect "$tmp/w/t.h5"
      [[ $rc -eq 0 ]] || fail "step $n: the file left by the kill does not read ($err)"
    fi
    run "${args[@]}" --output "$tmp/w/t.h5" --resume
    if [[ $rc -ne 0 ]]; then
      fail "step $n: --resume exits $rc ($err)"
    elif ! cmp -s "$tmp/w/t.h5" "$tmp/ref.h5"; then
      fail "step $n: the resumed file differs from the uninterrupted one"
    elif ! cmp -s "$tmp/out" "$tmp/ref.json"; then
      fail "step $n: the resumed output differs"
    else
      pass
    fi
  done
  check "every step was walked ($killed of $steps killed)" test "$killed" -eq "$steps"
}

walk 4 tournament --variant abapa random greedy ab:depth=1 --games 100 --threads 2 --quiet --json
walk 2 tournament --variant antigua random greedy ab:depth=1 --unit match --match-games 3 --games 40 \
  --threads 2 --quiet --json
finish
