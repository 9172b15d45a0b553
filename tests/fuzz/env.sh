# tests/fuzz/env.sh SOURCE_ROOT -- sourced by run_fuzz.sh and campaign.sh:
# the environment every libFuzzer harness runs in.  The leak checker reads
# tests/fuzz/lsan.supp (what libhdf5 itself leaks; its entries name libhdf5
# frames, so malloc stacks are unwound slowly and in full); the harnesses
# that need a good file find it here: the run file that players-file lines
# `r.h5@...` name (fuzz_players.c) and the good files that forge inputs
# edit (fuzz_forge.h).
nk_fuzz_src=$1
export LSAN_OPTIONS="suppressions=$nk_fuzz_src/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
export NICKAR_FUZZ_RUN=$nk_fuzz_src/tests/fuzz/corpus/ciao/ga3.h5
export NICKAR_FUZZ_TOUR=$nk_fuzz_src/tests/fuzz/corpus/tourfile/round-robin.h5
