#!/usr/bin/env bash
# test_mpi.sh -- nickar under mpirun (src/exec/mpi.h, docs/cluster.md): the
# same config and seed give bit-identical run files for 1, 2, 3 and 4 ranks
# and without MPI (and for 3 ranks with sep-cma-es and openai-es); `nickar match` and `nickar ciao` give the same JSON; a worker that hangs
# or dies stops the run with a clear error within a bounded time, and
# `--resume` under a fresh mpirun continues it exactly.
#
# The hung and dead workers come from the test seams of the MPI worker
# (src/exec/mpi_seams.h), which only the nickar-test binary has: ctest
# passes its path as $NICKAR_TEST_BIN (tests/CMakeLists.txt).  The plain
# nickar ignores NICKAR_TEST_WORKER_*; the test checks that too.
#
# Time limits: every limit below is a base number of seconds times $scale,
# which is 1 for a plain build and 5 when the binary was built with a
# sanitizer (ASan/UBSan or TSan: slower games, and ctest -j runs other
# tests beside it); NICKAR_TEST_TIME_SCALE=N sets it.  Each bounded-time
# check stays below the limit after which `timeout` kills mpirun, so it can
# still fail.
#
# Skipped (exit 77, ctest's SKIP_RETURN_CODE in tests/CMakeLists.txt, with
# a message) only where mpirun is missing or nickar was built without MPI
# (-DNICKAR_MPI=OFF); scripts/test.sh fails on a skipped test.  Runs as root through OpenMPI's
# environment variables; oversubscribes the cores on purpose.
source "$(dirname "$0")/lib_cli.sh"

if ! command -v mpirun >/dev/null 2>&1; then
  echo "SKIP: mpirun not found (Debian: openmpi-bin); the MPI tests did not run"
  exit 77
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_hwloc_base_binding_policy=none
# OpenMPI's start-up leaks as far as LeakSanitizer can tell; under the asan
# preset only the MPI runs below leave leak detection off.
mpi_asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

# The binary with the worker's test seams (see above), and the one mpi()
# runs: nickar unless a call says mpi_bin=$nickar_test.
nickar_test=${NICKAR_TEST_BIN:-}
mpi_bin=$nickar

# scale: the factor of every time limit (see above).
if [[ -n ${NICKAR_TEST_TIME_SCALE:-} ]]; then
  scale=$NICKAR_TEST_TIME_SCALE
elif grep -qa -e __asan_init -e __tsan_init "$nickar"; then
  scale=5
else
  scale=1
fi
mpirun_limit=$((120 * scale)) # seconds before `timeout` ends an mpirun
worker_timeout=$((5 * scale)) # NICKAR_MPI_TIMEOUT of the hung-worker run
stop_bound=$((60 * scale))    # a run with a lost worker ends within this

# mpi K ARGS...: nickar ARGS under `mpirun -np K`, at most $mpirun_limit s;
# sets $rc, $out, $err and $secs (wall time).  Runs $mpi_bin.
mpi() {
  local k=$1
  shift
  local t0=$SECONDS
  ASAN_OPTIONS=$mpi_asan timeout "$mpirun_limit" mpirun -np "$k" "$mpi_bin" "$@" \
    >"$tmp/out" 2>"$tmp/err"
  rc=$?
  secs=$((SECONDS - t0))
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
}

mpi 2 rules
if [[ $rc -ne 0 && $err == *"built without MPI"* ]]; then
  echo "SKIP: this nickar was built without MPI (-DNICKAR_MPI=OFF)"
  exit 77
fi
if [[ $rc -ne 0 ]]; then
  fail "mpirun -np 2 nickar rules: exit $rc; nothing else can run"
  finish
fi
check "mpirun -np 2 nickar rules: rank 0 alone prints" test "$(grep -c '^antigua' <<<"$out")" -eq 1

cfg=$tmp/small.ini
cat >"$cfg" <<'INI'
[experiment]
name = small
seed = 11
variant = antigua
generations = 3
[player]
features = positional
depth = 1
[population]
size = 6
[fitness]
schedule = round-robin
openings = 2
[benchmark]
every = 1
games = 6
opponents = random; greedy
[output]
record_games = on
INI

ranks_attr() {
  "$python" -c 'import sys, h5py; print(int(h5py.File(sys.argv[1], "r").attrs["mpi_ranks"]))' "$1"
}

# --- the same run for 1..4 ranks and without MPI ---------------------------
run evolve "$cfg" --output "$tmp/plain.h5" --threads 2 --quiet
check "evolve without MPI exits 0 ($err)" test "$rc" -eq 0
check "without MPI: mpi_ranks = 1" test "$(ranks_attr "$tmp/plain.h5")" = 1
for k in 1 2 3 4; do
  mpi "$k" evolve "$cfg" --output "$tmp/k$k.h5" --threads 2 --quiet
  check "mpirun -np $k evolve exits 0 ($err)" test "$rc" -eq 0
  check "mpirun -np $k: bit-identical to the run without MPI" same_run "$tmp/plain.h5" "$tmp/k$k.h5"
  check "mpirun -np $k: mpi_ranks = $k" test "$(ranks_attr "$tmp/k$k.h5")" = "$k"
done
# The strategies for large genomes, and an evaluation family's genome over
# the wire (an n-tuple network, 193 weights a player, sep-cma-es): the same
# run on 3 ranks as without MPI.
for kind in sep-cma-es openai-es ntuple; do
  kset=(--set strategy.kind=$kind --set strategy.lambda=6 --set strategy.mu=3 --set strategy.sigma0=0.1)
  [[ $kind == ntuple ]] && kset=(--set strategy.kind=sep-cma-es --set strategy.lambda=6
    --set strategy.mu=3 --set experiment.variant=abapa --set player.features=ntuple:layout=ring2:cap=3)
  run evolve "$cfg" --output "$tmp/$kind-plain.h5" --threads 2 --quiet "${kset[@]}"
  check "$kind: evolve without MPI exits 0 ($err)" test "$rc" -eq 0
  mpi 3 evolve "$cfg" --output "$tmp/$kind-k3.h5" --threads 2 --quiet "${kset[@]}"
  check "$kind: mpirun -np 3 evolve exits 0 ($err)" test "$rc" -eq 0
  check "$kind: mpirun -np 3: bit-identical to the run without MPI" \
    same_run "$tmp/$kind-plain.h5" "$tmp/$kind-k3.h5"
done
# A gauntlet player of the family with a weights file: its numbers travel
# by name in rank 0 (the io layer's shared table) and inline to the workers.
"$python" -c 'print(1.0)
for i in range(192): print(0.01 * (i % 7))' >"$tmp/nt.txt"
gset=(--set experiment.variant=abapa --set fitness.schedule=gauntlet
  --set "fitness.gauntlet=greedy; ab:depth=1,features=ntuple:layout=ring2:cap=3,weights=$tmp/nt.txt")
run evolve "$cfg" --output "$tmp/ntg-plain.h5" --threads 2 --quiet "${gset[@]}"
check "ntuple gauntlet: evolve without MPI exits 0 ($err)" test "$rc" -eq 0
mpi 2 evolve "$cfg" --output "$tmp/ntg-k2.h5" --threads 2 --quiet "${gset[@]}"
check "ntuple gauntlet: mpirun -np 2 evolve exits 0 ($err)" test "$rc" -eq 0
check "ntuple gauntlet: mpirun -np 2: bit-identical to the run without MPI" \
  same_run "$tmp/ntg-plain.h5" "$tmp/ntg-k2.h5"
# One game per message, one thread a rank: many more messages, same run.
NICKAR_MPI_CHUNK=1 mpi 3 evolve "$cfg" --output "$tmp/c1.h5" --threads 1 --quiet
check "one game a message: exit 0 ($err)" test "$rc" -eq 0
check "one game a message: bit-identical" same_run "$tmp/plain.h5" "$tmp/c1.h5"

# --- nickar match ----------------------------------------------------------
margs=(match --variant abapa --games 60 --seed 5 --json "ab:depth=2,features=positional" greedy)
run "${margs[@]}"
plain=$out
check "match without MPI exits 0" test "$rc" -eq 0
for k in 2 3; do
  mpi "$k" "${margs[@]}"
  check "mpirun -np $k match: same JSON as one process" test "$out" = "$plain"
done
NICKAR_MPI_CHUNK=1 mpi 4 "${margs[@]}" --threads 1
check "mpirun -np 4 match, one game a message: same JSON" test "$out" = "$plain"
# matches as units (Adji Kui II: jobs that start from bought pits) and the
# SPRT over parts: the same JSON as one process
for extra in "--variant adjikui --unit match --match-games 4 --games 8" \
             "--variant antigua --sprt elo0=-10,elo1=10"; do
  run match $extra --seed 5 --json random random
  plain=$out
  mpi 2 match $extra --seed 5 --json random random
  check "mpirun -np 2 match $extra: same JSON as one process" test -n "$plain" -a "$out" = "$plain"
done

# --- nickar tournament: the same JSON and the same file bytes ---------------
targs=(tournament --variant abapa --games 10 --json --quiet random greedy ab:depth=2)
SOURCE_DATE_EPOCH=86400 run "${targs[@]}" --output "$tmp/t0.h5"
tplain=$out
check "tournament without MPI exits 0 ($err)" test "$rc" -eq 0
SOURCE_DATE_EPOCH=86400 mpi 3 "${targs[@]}" --output "$tmp/t3.h5"
check "mpirun -np 3 tournament: same JSON as one process" test "$out" = "$tplain"
check "mpirun -np 3 tournament: the same file bytes" cmp -s "$tmp/t0.h5" "$tmp/t3.h5"
# a tournament of whole matches (Adji Kui II, bought pits), likewise
margs=(tournament --variant adjikui --unit match --match-games 4 --games 10 --json --quiet random greedy ab:depth=1)
SOURCE_DATE_EPOCH=86400 run "${margs[@]}" --output "$tmp/m0.h5"
mplain=$out
check "tournament --unit match without MPI exits 0 ($err)" test "$rc" -eq 0
SOURCE_DATE_EPOCH=86400 mpi 3 "${margs[@]}" --output "$tmp/m3.h5"
check "mpirun -np 3 tournament --unit match: same JSON as one process" test "$out" = "$mplain"
check "mpirun -np 3 tournament --unit match: the same file bytes" cmp -s "$tmp/m0.h5" "$tmp/m3.h5"
mpi 2 match --variant abapa --games 4 --json "ab:features=nope" greedy
check "mpirun: a bad spec is still a usage error on rank 0 (exit 2)" test "$rc" -eq 2

# --- nickar ciao: the master tournament of plain.h5's champions ---------------
cargs=(ciao "$tmp/plain.h5" --games 6 --seed 3 --json --output "$tmp/ciao.h5" --force)
run "${cargs[@]}"
plain=$out
check "ciao without MPI exits 0" test "$rc" -eq 0
for k in 2 3; do
  mpi "$k" "${cargs[@]}"
  check "mpirun -np $k ciao: same JSON as one process" test -n "$out" -a "$out" = "$plain"
done

# --- a worker that hangs or dies, then --resume ------------------------------
long=$tmp/long.ini
sed -e 's/^generations = 3/generations = 12/' "$cfg" >"$long"
run evolve "$long" --output "$tmp/full.h5" --quiet
check "uninterrupted 12-generation run ($err)" test "$rc" -eq 0

# generations FILE: complete generations in a run file (0 if none).
generations() {
  "$python" -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
print(int(f["checkpoint"].attrs["generation"]) + 1 if "checkpoint" in f else 0)' "$1" 2>/dev/null ||
    echo 0
}

if [[ -z $nickar_test || ! -x $nickar_test ]]; then
  fail "NICKAR_TEST_BIN='$nickar_test' is no executable: the hung and dead worker checks need nickar-test"
  finish
fi

# The plain nickar has no seams: asked to hang, its workers play on and the
# run ends as the uninterrupted one (with the time-out that catches the
# hang below, so that a hang would show as a failure).
NICKAR_MPI_CHUNK=2 NICKAR_MPI_TIMEOUT=$worker_timeout NICKAR_TEST_WORKER_HANG_AFTER=8 \
  NICKAR_TEST_WORKER_EXIT_AFTER=9 mpi 3 evolve "$long" --output "$tmp/noseam.h5" --threads 1 --quiet
check "nickar ignores the test seams' settings: exit 0 ($err)" test "$rc" -eq 0
check "nickar ignores the test seams' settings: the uninterrupted run" \
  same_run "$tmp/full.h5" "$tmp/noseam.h5"

NICKAR_MPI_CHUNK=2 NICKAR_MPI_TIMEOUT=$worker_timeout NICKAR_TEST_WORKER_HANG_AFTER=8 \
  mpi_bin=$nickar_test mpi 3 evolve "$long" --output "$tmp/hang.h5" --threads 1 --quiet
check "hung worker: exit non-zero" test "$rc" -ne 0
check "hung worker: rank 0 says which worker and how long" \
  grep -q "nickar evolve: worker rank 2 did not answer within $worker_timeout s" "$tmp/err"
check "hung worker: stopped within a bounded time (${secs}s, at most ${stop_bound}s)" \
  test "$secs" -le "$stop_bound"
check "hung worker: stopped before the end ($(generations "$tmp/hang.h5") generations)" \
  test "$(generations "$tmp/hang.h5")" -lt 12
mpi 2 evolve "$long" --output "$tmp/hang.h5" --resume --quiet
check "hung worker: resume under a fresh mpirun exits 0 ($err)" test "$rc" -eq 0
check "hung worker: resumed run equals the uninterrupted one" same_run "$tmp/full.h5" "$tmp/hang.h5"

NICKAR_MPI_CHUNK=2 NICKAR_TEST_WORKER_EXIT_AFTER=8 \
  mpi_bin=$nickar_test mpi 3 evolve "$long" --output "$tmp/dead.h5" --threads 1 --quiet
check "dead worker: exit non-zero" test "$rc" -ne 0
check "dead worker: the error names the worker" grep -q "worker rank 2" "$tmp/err"
check "dead worker: stopped within a bounded time (${secs}s, at most ${stop_bound}s)" \
  test "$secs" -le "$stop_bound"
check "dead worker: stopped before the end ($(generations "$tmp/dead.h5") generations)" \
  test "$(generations "$tmp/dead.h5")" -lt 12
mpi 4 evolve "$long" --output "$tmp/dead.h5" --resume --quiet
check "dead worker: resume under a fresh mpirun exits 0 ($err)" test "$rc" -eq 0
check "dead worker: resumed run equals the uninterrupted one" same_run "$tmp/full.h5" "$tmp/dead.h5"

finish
