#!/usr/bin/env bash
# run.sh -- builds the libFuzzer targets of the text parsers (fuzz_pos,
# fuzz_spec, fuzz_config) with clang in build-fuzz/ and runs each: first a
# replay of its corpus (tests/fuzz/corpus/<name>/, regression cases
# included), then SECONDS of fuzzing (default 15) from that corpus.  New
# inputs go to build-fuzz/corpus/<name>/, never into the source tree; a
# crash leaves build-fuzz/crash-<name>-* and fails the script.
#
# Usage: tests/fuzz/run.sh [SECONDS] [NAME...]
#   tests/fuzz/run.sh            15 s each, all three
#   tests/fuzz/run.sh 600 config ten minutes of the config reader
# Environment: CC (default clang), JOBS (build jobs, default 2).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-15}
shift || true
names=("$@")
[[ ${#names[@]} -gt 0 ]] || names=(pos spec config)
cc=${CC:-clang}
if ! command -v "$cc" >/dev/null; then
  echo "run.sh: $cc not found (Debian: apt-get install clang)" >&2
  exit 2
fi
build=$root/build-fuzz
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNICKAR_FUZZ_PARSERS=ON -DNICKAR_WERROR=OFF -DNICKAR_LTO=OFF -DNICKAR_MPI=OFF \
  -DBUILD_TESTING=OFF >/dev/null
targets=()
for n in "${names[@]}"; do targets+=("fuzz_$n"); done
if ! cmake --build "$build" -j "${JOBS:-2}" --target "${targets[@]}" >"$build/build.log" 2>&1; then
  tail -30 "$build/build.log"
  exit 1
fi
status=0
for n in "${names[@]}"; do
  seeds=$root/tests/fuzz/corpus/$n
  work=$build/corpus/$n
  mkdir -p "$work"
  echo "== fuzz_$n: replay of $(find "$seeds" -type f | wc -l) corpus files"
  if ! "$build/fuzz_$n" -runs=0 "$seeds" >"$build/fuzz_$n.replay.log" 2>&1; then
    tail -30 "$build/fuzz_$n.replay.log"
    status=1
    continue
  fi
  echo "== fuzz_$n: ${secs}s of fuzzing"
  if ! "$build/fuzz_$n" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/crash-$n-" "$work" "$seeds" \
    >"$build/fuzz_$n.log" 2>&1; then
    tail -40 "$build/fuzz_$n.log"
    status=1
  fi
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)" \
    "$build/fuzz_$n.log" | sed "s/^/   /" || true
done
exit $status
