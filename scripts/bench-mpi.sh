#!/usr/bin/env bash
# bench-mpi.sh -- scaling of `nickar evolve` over MPI ranks: games per
# second at each rank count, the speed-up over one rank and the parallel
# efficiency (speed-up / ranks), on one fixed evolution run.
#
#   scripts/bench-mpi.sh [RANKS...]        (default: 1 2)
#   scripts/bench-mpi.sh 1 2 4 8 16        (on a machine with 16+ cores)
#
# Every rank plays with THREADS OpenMP threads (default 1, so that K ranks
# use K cores and the figures measure MPI alone).  The games per second
# come from the run file's /stats (games and wall seconds of each
# generation), so MPI start-up and file creation are left out.  The runs
# must give bit-identical populations; the script checks that too.
#
# Environment: NICKAR (the binary, default build/nickar, built if missing),
# THREADS (per rank, default 1), GENERATIONS (default 10), POP (population,
# default 16: 240 games a generation), DEPTH (search depth, default 5),
# VARIANT (default antigua), MPIRUN_ARGS (extra mpirun options, e.g.
# "--hostfile hosts" on a cluster; default "--bind-to none"), REPEAT (runs
# at each rank count, the fastest counts; default 3), KEEP (a directory to
# keep the run files in).
set -euo pipefail
cd "$(dirname "$0")/.."

ranks=("$@")
[[ ${#ranks[@]} -gt 0 ]] || ranks=(1 2)
nickar=${NICKAR:-build/nickar}
threads=${THREADS:-1}
generations=${GENERATIONS:-10}
pop=${POP:-16}
depth=${DEPTH:-5}
variant=${VARIANT:-antigua}
repeat=${REPEAT:-3}
read -r -a mpirun_args <<<"${MPIRUN_ARGS:---bind-to none}"

if [[ ! -x $nickar ]]; then
  echo "bench-mpi: building $nickar" >&2
  cmake --preset release >/dev/null
  cmake --build --preset release -j"$(nproc)" >/dev/null
fi
python=/usr/bin/python3 # Debian's, with python3-h5py
[[ -x $python ]] || python=python3
command -v mpirun >/dev/null || { echo "bench-mpi: mpirun not found (openmpi-bin)" >&2; exit 1; }
if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe=${OMPI_MCA_rmaps_base_oversubscribe:-1}

dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
[[ -n ${KEEP:-} ]] || trap 'rm -rf "$dir"' EXIT
cfg=$dir/bench.ini
cat >"$cfg" <<INI
[experiment]
name = bench-mpi
seed = 2024
variant = $variant
generations = $generations
[player]
features = positional
depth = $depth
[population]
size = $pop
[fitness]
schedule = round-robin
openings = 2
[benchmark]
every = 0
[output]
record_games = off
INI

# games_per_second FILE: total games / total wall seconds of /stats.
games_per_second() {
  "$python" -c '
import sys, h5py
s = h5py.File(sys.argv[1], "r")["stats"][:]
print("%d %.3f %.2f" % (s["games"].sum(), s["wall_seconds"].sum(),
                        s["games"].sum() / s["wall_seconds"].sum()))' "$1"
}

same_population() {
  "$python" -c '
import sys, h5py
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
for n in ["genome", "fitness", "id", "parents"]:
    assert a["population/" + n][:].tobytes() == b["population/" + n][:].tobytes(), n' "$1" "$2"
}

echo "nickar evolve scaling: $variant, population $pop (round-robin, $((pop * (pop - 1))) games a" \
  "generation), depth $depth, $generations generations, $threads thread(s) a rank, $(nproc) cores," \
  "best of $repeat"
printf '%6s %8s %8s %10s %10s %8s %11s\n' ranks threads games seconds games/s speedup efficiency
base=""
base_k=""
first=""
for k in "${ranks[@]}"; do
  rate=0
  for ((i = 1; i <= repeat; i++)); do
    out=$dir/run-$k-$i.h5
    mpirun -np "$k" "${mpirun_args[@]}" "$nickar" evolve "$cfg" --output "$out" --force \
      --threads "$threads" --quiet
    read -r g s r < <(games_per_second "$out")
    if "$python" -c 'import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))' "$r" "$rate"
    then
      games=$g secs=$s rate=$r
    fi
  done
  [[ -n $base ]] || { base=$rate; base_k=$k; }
  if [[ -z $first ]]; then
    first=$out
  elif ! same_population "$first" "$out" 2>/dev/null; then
    echo "bench-mpi: the run at $k ranks differs from the first one" >&2
    exit 1
  fi
  "$python" -c '
import sys
k, t, games, secs, rate, base, base_k = sys.argv[1:]
speedup = float(rate) / float(base)
print("%6s %8s %8s %10.2f %10.1f %8.2f %10.0f%%" % (k, t, games, float(secs), float(rate),
      speedup, 100 * speedup * int(base_k) / int(k)))' "$k" "$threads" "$games" "$secs" "$rate" \
    "$base" "$base_k"
done
echo "(speedup: games/s over those of the first rank count; efficiency: speedup / (ranks / first ranks))"
