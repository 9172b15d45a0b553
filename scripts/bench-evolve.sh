#!/usr/bin/env bash
# bench-evolve.sh -- games per second of the quickstart evolution at 1 and
# 2 threads (or the thread counts given), and the speed-up over 1 thread.
# Same config and seed at every thread count, so the games are the same
# ones; the populations are compared too (they must be bit-identical).
#
# Usage: scripts/bench-evolve.sh [THREADS...]     (default: 1 2)
#        NICKAR=path/to/nickar CONFIG=configs/quickstart.ini GENERATIONS=20
set -euo pipefail
cd "$(dirname "$0")/.."
nickar=${NICKAR:-build/nickar}
config=${CONFIG:-configs/quickstart.ini}
gens=${GENERATIONS:-20}
threads=("$@")
[[ ${#threads[@]} -gt 0 ]] || threads=(1 2)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "config $config, $gens generations, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
base=
for t in "${threads[@]}"; do
  start=$(date +%s.%N)
  "$nickar" evolve "$config" --set experiment.generations="$gens" --set benchmark.every=0 \
    --output "$tmp/t$t.h5" --threads "$t" --quiet
  end=$(date +%s.%N)
  /usr/bin/python3 - "$tmp/t$t.h5" "$t" "$start" "$end" "${base:-}" "$tmp/t${threads[0]}.h5" <<'PY'
import sys, h5py
path, t, start, end, base, first = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
f = h5py.File(path, "r")
games = int(f["stats"]["games"].sum())
secs = end - start
rate = games / secs
line = f"threads {t:3d}  games {games:7d}  seconds {secs:7.2f}  games/s {rate:9.1f}"
if base:
    line += f"  speed-up {rate / float(base):5.2f}x"
    g0 = h5py.File(first, "r")
    same = all(f["population/" + k][:].tobytes() == g0["population/" + k][:].tobytes()
               for k in ("genome", "fitness", "id", "parents"))
    line += "  populations " + ("identical" if same else "DIFFER")
print(line)
open(path + ".rate", "w").write(str(rate))
PY
  [[ -n $base ]] || base=$(cat "$tmp/t$t.h5.rate")
done
