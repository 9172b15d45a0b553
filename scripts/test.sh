#!/usr/bin/env bash
# test.sh -- builds nickar and passes all its tests, from a fresh clone:
# installs what is missing, builds the Release configuration in build/ and
# runs the whole suite, then builds the asan preset in build-asan/ and runs
# the whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
# Exits non-zero if anything fails, and if any test was skipped or did not
# run (ctest passes a skipped test) unless allowed_skips below names it.
# .ci/run calls this script.
#
# scripts/test.sh --check-skips LOG   only checks a saved ctest output LOG
#                                     for tests that did not run (exit 1
#                                     naming them, 0 when there are none)
set -euo pipefail

# The tests that may be skipped here, one "NAME" a word, each for a reason
# the CI machine genuinely lacks, written beside it.  None: on Debian 12
# after scripts/setup.sh everything every test needs is installed
# (openmpi-bin for test_mpi, chromium for test_cli_view, ...).
allowed_skips=()

# not_run LOG: the names of the tests that ctest's output LOG reports as
# skipped, disabled or not run: the "***Skipped" / "***Not Run" results and
# the list after "The following tests did not run:", one name a line.
not_run() {
  {
    sed -n 's/^ *[0-9]*\/[0-9]* *Test *#[0-9]*: \([^ ]*\) .*\*\*\*\(Skipped\|Not Run\).*$/\1/p' "$1"
    sed -n '/^The following tests did not run:/,/^$/s/^[[:space:]]*[0-9]* - \([^ ]*\) (.*$/\1/p' "$1"
  } | sort -u
}

# check_skips LOG: fails, naming them, when LOG reports tests that did not
# run and allowed_skips does not name.
check_skips() {
  local name bad=()
  while IFS= read -r name; do
    [[ -z $name ]] && continue
    if [[ " ${allowed_skips[*]} " != *" $name "* ]]; then
      bad+=("$name")
    fi
  done < <(not_run "$1")
  if [[ ${#bad[@]} -gt 0 ]]; then
    echo "== FAIL: tests skipped or not run (not in scripts/test.sh's allowed_skips): ${bad[*]}" >&2
    return 1
  fi
}

if [[ ${1:-} == --check-skips ]]; then
  [[ $# -eq 2 && -r $2 ]] || { echo "usage: $0 --check-skips CTEST_OUTPUT" >&2; exit 2; }
  check_skips "$2"
  exit
fi

cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for preset in release asan; do
  echo "== $preset: configure, build, test"
  cmake --preset "$preset"
  cmake --build --preset "$preset" -j"$jobs"
  ctest --preset "$preset" -j"$jobs" | tee "$log"
  check_skips "$log"
done
echo "== all tests passed and none was skipped (release and asan)"
