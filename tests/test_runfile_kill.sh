#!/usr/bin/env bash
# test_runfile_kill.sh -- a run stopped at any moment of its file I/O can
# always be resumed, and ends bit-identical to an uninterrupted run.
#
# nickar-test (tests/CMakeLists.txt) stops itself with _exit(137) -- as a
# SIGKILL would: no flush, no cleanup -- just before the Nth step of the run
# file's I/O when NICKAR_KILL_AT=N (tests/runfile_kill_seam.c: every HDF5
# write and flush, every write, sync, rename, link, unlink and truncate of
# the copies, see io/backup.h).  This walks N over every step of
#   1. a small run from the start;
#   2. its --resume after a kill in the middle of a generation;
#   3. its --resume when the run file is damaged (cut in half), so that the
#      recovery from the backup copy (keep the damaged file, copy, rename)
#      is interrupted at each of its steps;
#   4. its --resume when the run file is missing beside its backup;
#   5. (one step only) sep-cma-es and openai-es runs killed in the middle of
#      a generation and resumed.
# After each kill: `nickar inspect` either reads the file (exit 0) or
# refuses it (exit 2) with one line that says --resume recovers it (or
# that there is no file yet); then a plain `nickar evolve --resume` (after
# a second kill in walks 2-4, the state then left) exits 0, and at the end
# scripts/compare-runs.py checks every resumed file against the
# uninterrupted run.
source "$(dirname "$0")/lib_cli.sh"
testbin=${NICKAR_TEST_BIN:-$(dirname "$nickar")/tests/nickar-test}
[[ -x $testbin ]] || { echo "FAIL: no nickar-test binary ($testbin)"; exit 1; }

cfg=$tmp/small.ini
tiny_config "$cfg" 2 random

run evolve "$cfg" --output "$tmp/ref.h5" --quiet
check "the uninterrupted run exits 0 ($err)" test "$rc" -eq 0
mkdir -p "$tmp/done"

# after_kill DIR TAG: the state left by a kill reads or says how to recover,
# and a plain --resume finishes the run; the result is kept as done/TAG.h5.
after_kill() {
  local d=$1 tag=$2
  run inspect "$d/run.h5"
  if [[ $rc -ne 0 ]]; then
    check "$tag: inspect of a killed file exits 0 or 2 (rc $rc: $err)" test "$rc" -eq 2
    check "$tag: inspect writes one line" test "$(wc -l <"$tmp/err")" -eq 1
    check "$tag: inspect says how to recover ($err)" grep -q -- "--resume" "$tmp/err"
  fi
  run evolve "$cfg" --output "$d/run.h5" --resume --quiet
  check "$tag: --resume after the kill exits 0 (rc $rc: $err)" test "$rc" -eq 0
  run inspect "$d/run.h5"
  check "$tag: inspect after the resume exits 0 ($err)" test "$rc" -eq 0
  check "$tag: no backup left after a clean close" test ! -e "$d/run.h5.bak"
  cp "$d/run.h5" "$tmp/done/$tag.h5"
}

# kill_walk NAME MAX SETUP ARGS...: for N = 1, 2, ... until the command
# finishes without being stopped (or N > MAX, 0: no limit): SETUP prepares
# $tmp/w, nickar-test ARGS runs with NICKAR_KILL_AT=N, then after_kill.
kill_walk() {
  local name=$1 max=$2 setup=$3
  shift 3
  local n=1 killed=0
  while [[ $max -eq 0 || $n -le $max ]]; do
    rm -rf "$tmp/w"
    mkdir -p "$tmp/w"
    "$setup"
    NICKAR_KILL_AT=$n timeout 60 "$testbin" "$@" >/dev/null 2>"$tmp/kerr"
    local krc=$?
    if [[ $krc -eq 0 ]]; then
      break
    fi
    if [[ $krc -ne 137 ]]; then
      fail "$name: step $n: the run ended with $krc, not a kill ($(head -c 300 "$tmp/kerr"))"
      break
    fi
    killed=$((killed + 1))
    after_kill "$tmp/w" "$name-$n"
    n=$((n + 1))
    if [[ $n -gt 2000 ]]; then
      fail "$name: more than 2000 steps"
      break
    fi
  done
  echo "$name: killed at each of $killed steps"
  check "$name: some steps were killed" test "$killed" -gt 0
}

# 1. a run from the start
fresh() { :; }
kill_walk run 0 fresh evolve "$cfg" --output "$tmp/w/run.h5" --quiet

# A state in the middle of generation 2: the step of the second append's
# first population write.
rm -rf "$tmp/s" && mkdir -p "$tmp/s"
NICKAR_KILL_LOG=$tmp/steps.log "$testbin" evolve "$cfg" --output "$tmp/s/run.h5" --quiet
mid=$(grep " /population/genome$" "$tmp/steps.log" | sed -n 3p | cut -d' ' -f1)
check "the step log names the appends ($mid)" test -n "$mid"
rm -rf "$tmp/s" && mkdir -p "$tmp/s"
NICKAR_KILL_AT=$mid "$testbin" evolve "$cfg" --output "$tmp/s/run.h5" --quiet
check "a kill in generation 2 leaves a backup" test -e "$tmp/s/run.h5.bak"

# 2. the resume of that state, every step
mid_state() { cp -a "$tmp/s/." "$tmp/w/"; }
kill_walk resume 0 mid_state evolve "$cfg" --output "$tmp/w/run.h5" --resume --quiet

# 3. the resume of that state with the run file damaged (cut to half of its
# backup's size: the killed file is longer, by its space reservation): the
# steps of the recovery and of the first append after it
damaged_state() {
  cp -a "$tmp/s/." "$tmp/w/"
  truncate -s $(($(stat -c %s "$tmp/w/run.h5.bak") / 2)) "$tmp/w/run.h5"
}
damaged_state
rm -f "$tmp/steps.log"
NICKAR_KILL_LOG=$tmp/steps.log "$testbin" evolve "$cfg" --output "$tmp/w/run.h5" --resume --quiet
check "the damaged file is kept" test -e "$tmp/w/run.h5.damaged"
first=$(grep " fsync$" "$tmp/steps.log" | sed -n 1p | cut -d' ' -f1)
check "the step log shows the first append of the recovery ($first)" test -n "$first"
check "the recovery keeps the damaged file by a link" grep -q " link$" "$tmp/steps.log"
rm -rf "$tmp/w"
kill_walk recover "${first:-1}" damaged_state evolve "$cfg" --output "$tmp/w/run.h5" --resume --quiet

# 4. the resume of that state with the run file missing (as a kill in the
# restore of older versions left it), the same number of steps
missing_state() {
  cp -a "$tmp/s/." "$tmp/w/"
  rm "$tmp/w/run.h5"
}
kill_walk missing "${first:-1}" missing_state evolve "$cfg" --output "$tmp/w/run.h5" --resume --quiet

# every resumed run is the uninterrupted one, bit for bit
"$python" "$srcdir/scripts/compare-runs.py" "$tmp/ref.h5" "$tmp/done"/*.h5 >"$tmp/cmp" 2>&1
check "every resumed run equals the uninterrupted run ($(grep -v 'same run' "$tmp/cmp" | head -3))" \
  test "$(grep -c ': same run: ' "$tmp/cmp")" -eq "$(ls "$tmp/done" | wc -l)"
echo "$(ls "$tmp/done" | wc -l) killed runs resumed, each bit-identical to the uninterrupted run"

# 5. the strategies for large genomes, whose state is their distribution:
# killed in the middle of generation 2 (the step of its first population
# write), then resumed, each equals its uninterrupted run
for kind in sep-cma-es openai-es; do
  kcfg=$tmp/$kind.ini
  tiny_config "$kcfg" 3 random
  printf '[strategy]\nkind = %s\nlambda = 4\nmu = 2\nsigma0 = 0.1\n' "$kind" >>"$kcfg"
  rm -rf "$tmp/k" && mkdir -p "$tmp/k"
  run evolve "$kcfg" --output "$tmp/k/ref.h5" --quiet
  check "$kind: the uninterrupted run exits 0 ($err)" test "$rc" -eq 0
  rm -f "$tmp/ksteps.log"
  NICKAR_KILL_LOG=$tmp/ksteps.log "$testbin" evolve "$kcfg" --output "$tmp/k/log.h5" --quiet
  kmid=$(grep " /population/genome$" "$tmp/ksteps.log" | sed -n 3p | cut -d' ' -f1)
  check "$kind: the step log names the appends ($kmid)" test -n "$kmid"
  NICKAR_KILL_AT=${kmid:-1} "$testbin" evolve "$kcfg" --output "$tmp/k/run.h5" --quiet
  check "$kind: the run was killed in generation 2 (exit $?)" test -e "$tmp/k/run.h5.bak"
  run evolve "$kcfg" --output "$tmp/k/run.h5" --resume --quiet
  check "$kind: --resume after the kill exits 0 ($err)" test "$rc" -eq 0
  check "$kind: the resumed run equals the uninterrupted run" \
    "$python" "$srcdir/scripts/compare-runs.py" "$tmp/k/ref.h5" "$tmp/k/run.h5"
done
finish
