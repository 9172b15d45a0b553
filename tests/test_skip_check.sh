#!/usr/bin/env bash
# test_skip_check.sh -- no test passes by being skipped.  ctest counts a
# skipped test (exit 77, SKIP_RETURN_CODE in tests/CMakeLists.txt) as no
# failure, so scripts/test.sh (which .ci/run calls) checks ctest's output
# for tests that did not run (scripts/test.sh --check-skips LOG).  Checked
# here on the output of a real ctest run of a small project (one test
# passes, one skips, one is disabled): the check fails naming the skipped
# and the disabled test, and passes on the same project without them; and
# test_mpi.sh without mpirun reports SKIP through exit 77, not 0.
# Usage: test_skip_check.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

testsh=$srcdir/scripts/test.sh

# project DIR KINDS...: a ctest project in DIR with one test of each KIND
# (pass, skip: exit 77 with SKIP_RETURN_CODE 77, disabled), run by ctest;
# its output in DIR/log.
project() {
  local dir=$1 kind
  shift
  mkdir -p "$dir"
  {
    echo 'cmake_minimum_required(VERSION 3.20)'
    echo 'project(skips NONE)'
    echo 'enable_testing()'
    for kind in "$@"; do
      case $kind in
        pass) echo 'add_test(NAME t_pass COMMAND true)' ;;
        skip)
          echo 'add_test(NAME t_skip COMMAND sh -c "echo SKIP: planted; exit 77")'
          echo 'set_tests_properties(t_skip PROPERTIES SKIP_RETURN_CODE 77)'
          ;;
        disabled)
          echo 'add_test(NAME t_disabled COMMAND true)'
          echo 'set_tests_properties(t_disabled PROPERTIES DISABLED TRUE)'
          ;;
      esac
    done
  } >"$dir/CMakeLists.txt"
  cmake -S "$dir" -B "$dir/build" >/dev/null 2>&1 &&
    ctest --test-dir "$dir/build" -j2 >"$dir/log" 2>&1
}

# skips LOG: scripts/test.sh --check-skips LOG; sets $rc and $err.
skips() {
  bash "$testsh" --check-skips "$1" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
}

project "$tmp/clean" pass
check "ctest runs the clean project" test $? -eq 0
skips "$tmp/clean/log"
check "no test skipped: the check passes" test "$rc" -eq 0 -a -z "$err"

project "$tmp/planted" pass skip disabled
check "ctest passes the project with a skipped test (so the check is needed)" test $? -eq 0
check "ctest reports the planted skip" grep -q 'Skipped' "$tmp/planted/log"
skips "$tmp/planted/log"
check "a planted skip fails the check (exit 1)" test "$rc" -eq 1
check "the failure names the skipped test" grep -q 't_skip' <<<"$err"
check "the failure names the disabled test" grep -q 't_disabled' <<<"$err"
check "the failure does not name the test that ran" test "${err/t_pass/}" = "$err"

skips "$tmp/no-such-log"
check "an unreadable log is a usage error (exit 2)" test "$rc" -eq 2

# test_mpi.sh where mpirun is missing: a PATH with only what it needs
# before it looks for mpirun.
mkdir -p "$tmp/bin"
for tool in dirname mktemp rm cat; do
  ln -s "$(command -v "$tool")" "$tmp/bin/$tool"
done
PATH=$tmp/bin "$BASH" "$srcdir/tests/test_mpi.sh" "$nickar" "$srcdir" >"$tmp/out" 2>"$tmp/err"
rc=$?
out=$(cat "$tmp/out")
err=$(cat "$tmp/err")
check "test_mpi.sh without mpirun exits 77 (ctest's skip), not 0" test "$rc" -eq 77
check "test_mpi.sh without mpirun says SKIP and why" grep -q '^SKIP: mpirun not found' <<<"$out"

finish
