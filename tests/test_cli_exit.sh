#!/usr/bin/env bash
# test_cli_exit.sh -- the same failure gives the same exit status in every
# command.  The table (nk_cli_exit, src/cli/util.h): 0 success; 2 bad usage
# or bad input -- a malformed spec, key or value, a number out of range, a
# file that is not what it should be, an input file that cannot be opened;
# 1 a runtime failure -- out of memory, a failed write, a signal.  Each case
# below is given to every command that can meet it, and each must exit with
# the one status of the table and print exactly one line on stderr that
# starts "nickar CMD: " and names the culprit.
# Usage: test_cli_exit.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

# A tiny run whose benchmark opponents are the players under test; a bad
# opponent is refused before any generation (and before the run file).
cfg=$tmp/tiny.ini
tiny_config "$cfg" 2 'random'
run evolve "$cfg" --output "$tmp/good.h5" --quiet
check "a good tiny run exits 0 ($err)" test "$rc" -eq 0

# every_command WANT TEXT SPEC: the player SPEC given to match, play and
# evolve (as a benchmark opponent) gives exit WANT and names TEXT.
every_command() {
  local want=$1 text=$2 spec=$3
  expect_exit "$want" match "$text" match --variant abapa --games 2 --threads 1 "$spec" random
  expect_exit "$want" match "$text" match --variant abapa --games 2 --threads 1 random "$spec"
  expect_exit "$want" play "$text" play --variant abapa --opponent "$spec"
  rm -f "$tmp/e.h5"
  expect_exit "$want" evolve "$text" evolve "$cfg" --output "$tmp/e.h5" --quiet \
    --set "benchmark.opponents=random; $spec"
  check "evolve refused '$spec' before making a run file" test ! -e "$tmp/e.h5"
}

# ===== bad input: 2 =====
# a weights file that does not exist or is a directory
every_command 2 "$tmp/none.txt" "ab:depth=1,features=positional,weights=$tmp/none.txt"
mkdir -p "$tmp/wdir"
every_command 2 "$tmp/wdir" "ab:depth=1,features=positional,weights=$tmp/wdir"
# a weights file with a bad line
printf '0.5\nzebra\n' >"$tmp/badw.txt"
every_command 2 "badw.txt:2" "ab:depth=1,features=positional,weights=$tmp/badw.txt"
# a run file as weights that does not exist, is not HDF5, or is no run file
every_command 2 "$tmp/none.h5" "ab:depth=1,features=positional,weights=$tmp/none.h5@best"
echo "not hdf5" >"$tmp/text.h5"
every_command 2 "text.h5" "ab:depth=1,features=positional,weights=$tmp/text.h5@best"
"$python" -c 'import h5py, sys; h5py.File(sys.argv[1], "w")["x"] = [1, 2]' "$tmp/foreign.h5"
every_command 2 "not a nickar run file" "ab:depth=1,features=positional,weights=$tmp/foreign.h5@best"
# a selector outside the run
every_command 2 "gen=9" "ab:depth=1,features=positional,weights=$tmp/good.h5@gen=9,rank=0"
# bad specs
every_command 2 "bogus" "bogus"
every_command 2 "depth" "ab:depth=x"
every_command 2 "depth" "ab:depth=99999"

# a run file for inspect or --resume that is missing, a directory, not HDF5
expect_exit 2 inspect "$tmp/none.h5" inspect "$tmp/none.h5"
expect_exit 2 inspect "$tmp/wdir" inspect "$tmp/wdir"
expect_exit 2 inspect "text.h5" inspect "$tmp/text.h5"
expect_exit 2 evolve "text.h5" evolve "$cfg" --output "$tmp/text.h5" --resume --quiet
expect_exit 2 inspect "not a nickar run file" inspect "$tmp/foreign.h5"
expect_exit 2 evolve "not a nickar run file" evolve "$cfg" --output "$tmp/foreign.h5" --resume --quiet
# a run file from another configuration
expect_exit 2 evolve "experiment.seed" evolve "$cfg" --output "$tmp/good.h5" --resume \
  --set experiment.seed=8 --quiet

# config files: missing, a directory, a missing include, a bad key, a bad value
expect_exit 2 evolve "$tmp/none.ini" evolve "$tmp/none.ini"
expect_exit 2 evolve "$tmp/wdir" evolve "$tmp/wdir"
printf 'include = %s\n' "$tmp/none-inc.ini" >"$tmp/inc.ini"
expect_exit 2 evolve "none-inc.ini" evolve "$tmp/inc.ini"
printf '[fitness]\nschedul = round-robin\n' >"$tmp/badkey.ini"
expect_exit 2 evolve "fitness.schedule" evolve "$tmp/badkey.ini"
expect_exit 2 evolve "fitness.bogus" evolve "$cfg" --set fitness.bogus=1
expect_exit 2 evolve "population.size" evolve "$cfg" --set population.size=many
expect_exit 2 evolve "population.size" evolve "$cfg" --set population.size=1

# bad options: the same status in every command that has the option
expect_exit 2 match "unknown variant 'warri'" match --variant warri random random
expect_exit 2 play "unknown variant 'warri'" play --variant warri --opponent random
expect_exit 2 match "--seed" match --variant abapa --seed x random random
expect_exit 2 play "--seed" play --variant abapa --seed x --opponent random
expect_exit 2 evolve "--threads" evolve "$cfg" --threads 0
expect_exit 2 match "--threads" match --variant abapa --threads 0 random random

# ===== runtime failures: 1 =====
# out of memory at the first allocation of each command that allocates
export NICKAR_FAIL_ALLOC=1
expect_exit 1 match "out of memory" match --variant abapa --games 2 --threads 1 greedy random
expect_exit 1 play "out of memory" play --variant abapa --opponent greedy
expect_exit 1 evolve "out of memory" evolve "$cfg" --output "$tmp/oom.h5" --quiet
expect_exit 1 inspect "out of memory" inspect "$tmp/good.h5"
unset NICKAR_FAIL_ALLOC
check "an evolve out of memory leaves no run file" test ! -e "$tmp/oom.h5"
# a run file that cannot be written
expect_exit 1 evolve "/dev/null/run.h5" evolve "$cfg" --output /dev/null/run.h5 --quiet
# a bad value of the test switch itself is a usage error
NICKAR_FAIL_ALLOC=x run rules
check "NICKAR_FAIL_ALLOC=x: exit 2" test "$rc" -eq 2

finish
