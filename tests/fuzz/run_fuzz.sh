#!/usr/bin/env bash
# run_fuzz.sh FUZZER SOURCE_ROOT SECONDS NAME -- the ctest entries fuzz_NAME
# (runfile, pos, spec, config, tourfile, ciao, tb, records, players,
# weights): replays every input of
# tests/fuzz/corpus/NAME/ and tests/fuzz/regress/NAME/ (the seeds and every
# input that once failed) through the libFuzzer harness, then fuzzes for
# SECONDS from that corpus, with a fixed seed, new inputs going to a
# temporary directory.  Fails on any crash, sanitizer report, leak of
# nickar's own memory, timeout (60 s per input) or RSS above 2 GiB; the
# failing input is left in the temporary directory's artifacts and named in
# the output: copy it into the corpus as a regression case.
set -u
fuzzer=$1
src=$2
seconds=${3:-20}
name=${4:-runfile}
corpus=$src/tests/fuzz/corpus/$name
# Inputs that once failed and are files of the old format (no checksums):
# replayed (nickar now refuses the old format before HDF5 reads it, unless
# NICKAR_READ_OLD_FORMAT=1), not fuzzed from (docs/runfile.md).
regress=$src/tests/fuzz/regress/$name
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
. "$src/tests/fuzz/env.sh" "$src"
# 60 s an input, not 10: the slow unwinder that the leak suppression needs
# (env.sh) makes an input that has libhdf5 allocate much up to 13 times
# slower (fuzz_ciao's forge step: 1.1 against 13.8 CPU-s), and ctest runs
# two tests at once on two cores; a 10 s limit failed such an input at
# 12 s under load (fuzz_ciao, 2026-12-04).  A real hang still stops it.
opts=(-rss_limit_mb=2048 -timeout=60 -artifact_prefix="$work/")

inputs=("$corpus"/*)
[[ -d $regress ]] && inputs+=("$regress"/*)
echo "replaying ${#inputs[@]} inputs of $corpus and $regress"
if ! "$fuzzer" "${opts[@]}" "${inputs[@]}" >"$work/replay.log" 2>&1; then
  tail -40 "$work/replay.log"
  echo "FAIL: an input of the corpus fails"
  exit 1
fi

mkdir -p "$work/new"
echo "fuzzing for $seconds s"
if ! "$fuzzer" "${opts[@]}" -seed=1 -max_total_time="$seconds" -print_final_stats=1 \
     "$work/new" "$corpus" >"$work/fuzz.log" 2>&1; then
  tail -60 "$work/fuzz.log"
  ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null
  for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
    [[ -e $a ]] && cp "$a" "${TMPDIR_KEEP:-/tmp}/fuzz_$name-$(basename "$a")" &&
      echo "kept as ${TMPDIR_KEEP:-/tmp}/fuzz_$name-$(basename "$a")"
  done
  echo "FAIL: the fuzzer found a failing input"
  exit 1
fi
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)" "$work/fuzz.log"
echo "fuzz_$name: corpus replayed, $seconds s of fuzzing without a failure"
