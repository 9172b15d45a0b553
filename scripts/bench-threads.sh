#!/usr/bin/env bash
# bench-threads.sh -- OpenMP scaling of one nickar process: games per
# second of the quickstart evolution and of a match at each thread count,
# speed-up and parallel efficiency over 1 thread, and a check that every
# thread count gives the same run (inspect --json of the run files, which
# holds no timings, compared byte for byte).  Beside the evolution's
# speed-up it prints its serial share: the time of the generations spent
# outside play (strategy, statistics, writing the run file) as a fraction
# of their whole time, from the play_seconds and outside_seconds columns of
# the run file's /stats (docs/runfile.md); this needs python3 with h5py
# ("n/a" without), the rest only the nickar binary.
#
# Usage: scripts/bench-threads.sh [THREADS...]        (default: 1 2)
#        NICKAR=path/to/nickar GENERATIONS=20 MATCH_GAMES=400
set -euo pipefail
cd "$(dirname "$0")/.."
nickar=$(realpath "${NICKAR:-build/nickar}")
gens=${GENERATIONS:-20}
match_games=${MATCH_GAMES:-400}
threads=("$@")
[[ ${#threads[@]} -gt 0 ]] || threads=(1 2)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
config=$(realpath configs/quickstart.ini)

now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", n / (b - a) }'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { printf "%.2f", x / y }'; }
# serial RUN.h5: outside / (play + outside) over the run's generations, in %
serial() {
  "$(command -v /usr/bin/python3 || echo python3)" - "$1" 2>/dev/null <<'PY' || echo n/a
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    g = int(f["checkpoint"].attrs["generation"]) + 1
    s = f["stats"][:g]
    play, out = s["play_seconds"].sum(), s["outside_seconds"].sum()
    print("%.2f%%" % (100 * out / (play + out)))
PY
}

echo "nickar thread scaling: $(nproc) cores, $gens generations of configs/quickstart.ini, match of $match_games games"
printf '%8s %14s %9s %11s %7s %14s %9s %11s %s\n' threads "evolve games/s" speed-up efficiency \
  serial "match games/s" speed-up efficiency "same run"
base_e= base_m= ref=
for t in "${threads[@]}"; do
  mkdir -p "$tmp/$t"
  a=$(now)
  (cd "$tmp/$t" && "$nickar" evolve "$config" --set experiment.generations="$gens" \
    --set benchmark.every=0 --output run.h5 --threads "$t" --quiet)
  b=$(now)
  games=$((gens * 380))
  re=$(rate "$games" "$a" "$b")
  (cd "$tmp/$t" && "$nickar" inspect run.h5 --json >inspect.json)
  [[ -n $ref ]] || ref=$tmp/$t/inspect.json
  same=$(cmp -s "$ref" "$tmp/$t/inspect.json" && echo identical || echo DIFFERENT)
  a=$(now)
  "$nickar" match --variant abapa --games "$match_games" --threads "$t" --json \
    ab:depth=5,features=positional ab:depth=5,features=material >"$tmp/$t/match.json"
  b=$(now)
  rm=$(rate "$match_games" "$a" "$b")
  [[ -n $base_e ]] || { base_e=$re; base_m=$rm; }
  se=$(ratio "$re" "$base_e")
  sm=$(ratio "$rm" "$base_m")
  printf '%8s %14s %8sx %10s%% %7s %14s %8sx %10s%% %s\n' "$t" "$re" "$se" \
    "$(awk -v s="$se" -v t="$t" 'BEGIN { printf "%.0f", 100 * s / t }')" \
    "$(serial "$tmp/$t/run.h5")" "$rm" "$sm" \
    "$(awk -v s="$sm" -v t="$t" 'BEGIN { printf "%.0f", 100 * s / t }')" \
    "$same$(cmp -s "$tmp/${threads[0]}/match.json" "$tmp/$t/match.json" || echo ' (match DIFFERENT)')"
done
