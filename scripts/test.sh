#!/usr/bin/env bash
# test.sh -- builds nickar and passes all its tests, from a fresh clone:
# installs what is missing, builds the Release configuration in build/ and
# runs the whole suite, then builds the asan preset in build-asan/ and runs
# the whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
# Exits non-zero if anything fails.  .ci/run calls this script.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
jobs=$(nproc)

for preset in release asan; do
  echo "== $preset: configure, build, test"
  cmake --preset "$preset"
  cmake --build --preset "$preset" -j"$jobs"
  ctest --preset "$preset" -j"$jobs"
done
echo "== all tests passed (release and asan)"
