#!/usr/bin/env bash
# experiments/ladder/anomalies.sh -- the evidence for the two anomalies of
# the reference ladders (issue 24, item 16): why `greedy` rates 73-145 Elo
# below `material-d1` on every ladder, and why `positional-d1` rates at or
# below `material-d1` on the Warri and Oware ladders.
#
#   experiments/ladder/anomalies.sh [PAIRS]
#
# Builds experiments/ladder/anomalies.c (see its header: depth-one players
# that differ from nickar's greedy and material-d1 in one thing each, and
# the matches between them) against the static libraries of the build
# directory BUILD (default build/, the release preset) and runs it for each
# variant with PAIRS colour-swapped pairs a match (default 1000), into
# results/ladder/anomalies.txt; then experiments/ladder/readme.py writes
# results/ladder/README.md, which quotes it.  About a CPU-minute on the
# shared 2-core machine.
#
# Environment: BUILD, CC (default cc).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build}
pairs=${1:-1000}
cc=${CC:-cc}
bin=$(mktemp -d)/anomalies
trap 'rm -rf "$(dirname "$bin")"' EXIT
libs=()
for l in arena exec search tb rules base; do
  [[ -f $build/libnk_$l.a ]] || { echo "anomalies.sh: no $build/libnk_$l.a (build first, or set BUILD)" >&2; exit 2; }
  libs+=("$build/libnk_$l.a")
done
"$cc" -O2 -std=c17 -flto -fopenmp -I"$root/src" "$root/experiments/ladder/anomalies.c" \
  "${libs[@]}" -lgsl -lgslcblas -lm -o "$bin"
out=$root/results/ladder/anomalies.txt
{
  echo "# made by experiments/ladder/anomalies.sh $pairs (experiments/ladder/anomalies.c)"
  for v in antigua speightstown bridgetown abapa awari adjikui; do
    "$bin" "$v" "$pairs"
    echo
  done
} >"$out"
/usr/bin/python3 "$root/experiments/ladder/readme.py"
echo "written: $out, results/ladder/README.md" >&2
