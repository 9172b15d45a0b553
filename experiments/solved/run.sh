#!/bin/bash
# experiments/solved/run.sh [--per-pit K] [--variants "V ..."] [--quick] [--bounds-only] --
# the small games solved: each variant played with K seeds a pit (12K seeds
# on the board) solved from its start position by the endgame database of
# every position with at most 12K seeds (nickar tablebase build), then
# nickar solve on the start position: its exact value, the result under
# perfect play and every first move's value, optimal ones marked.
#
#   K = 1: the 12-seed games (seconds each; adjikui builds its eleven
#          ownership patterns, about half a minute: results/solved/k1 was
#          built so);
#   K = 2: the mini games of 24 seeds (docs/tablebase.md gives the size and
#          docs/speed.md the projected compute; run only where the machine
#          holds them).  adjikui builds ownership pattern 0 alone
#          (--patterns 0): a game from the start position keeps the
#          default rows (no move changes the owners, R-K9), so that is all
#          its solve needs, one eleventh of the eleven patterns' build.
#
# Then, for each one-plane variant (not speightstown, whose values rest on
# no repetition), nickar solve --history on the start position: the
# bounds [lo, hi] behind the start's value and each first move's, at the
# count and whatever a repetition gives (docs/tablebase.md, "The small
# games' status"), and a search with the game's history bounded by them,
# HISTORY nodes a first move.  For K = 2 a region of the start does not
# fit in memory (about 100 bytes a position with the cycle bit, and
# 99.95% of the 1.25 billion positions have it), so the bounds whatever
# the rule come from the whole database's bounds file TB/k2/V.nkbd
# (docs/tablebase.md, "The whole database's bounds"): when it is missing,
# `nickar tablebase bounds` makes it first (the step "wholebounds", at
# nice 10, BOUNDS_THREADS threads, default 1, within BOUNDS_MEMORY MiB,
# default 6000; hours of CPU at 24 seeds, results/solved/README.md gives
# the measured scaling), and solve --history reads it (the bounds at the
# count are then not computed).  With K = 1 the region fits and the
# bounds file is not needed.
#
# For each variant V, OUT/k<K>/ receives V.build (the build's output),
# V.solve (the solver's), V.wholebounds (K = 2: tablebase bounds' output,
# when it ran), V.bounds (the bounds and the search with history), and a
# line of OUT/k<K>/times.tsv for each step (wall and CPU seconds, peak
# resident memory in KiB, of the build, the solve, the whole database's
# bounds and the bounds).
# The databases go to TB/k<K>/ (default OUT/tb, which git ignores; one byte
# a position a plane: for K = 1, 2.6 MiB a variant, 5.2 MiB for
# speightstown's two planes and 28.4 MiB for adjikui's eleven ownership
# patterns; for K = 2, 1.17 GiB a variant, 2.33 GiB for speightstown).  experiments/solved/report.py
# then writes OUT/README.md, results.csv and results.json from every k<K>/
# present.
#
# --quick: K = 1, abapa and speightstown only, into OUT (the test suite
# runs it with OUT set to a temporary directory), HISTORY 20000.
# --bounds-only: the bounds steps alone (K = 2: the bounds file when
# missing, then solve --history), from the databases already in TB (the
# build's and the solve's outputs and times stay as they are).
#
# Environment: NICKAR (default build/nickar), OUT (default results/solved),
# TB (default OUT/tb), THREADS (default: nickar's), HISTORY (nodes a first
# move of the search with history, default 5000000), BOUNDS_THREADS and
# BOUNDS_MEMORY (the whole database's bounds, above).
set -euo pipefail
cd "$(dirname "$0")/../.."
. experiments/study-lib.sh
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/solved}
PY=/usr/bin/python3
ALL="antigua speightstown bridgetown abapa adjikui"
k=1
variants=$ALL
quick=0
only=0
while [ $# -gt 0 ]; do
  case $1 in
    --per-pit)
      [ $# -ge 2 ] || { echo "run.sh: --per-pit needs a value (1 or 2)" >&2; exit 2; }
      k=$2; shift 2 ;;
    --variants)
      [ $# -ge 2 ] || { echo "run.sh: --variants needs a list of variants" >&2; exit 2; }
      variants=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --bounds-only) only=1; shift ;;
    -h|--help) study_help "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (only --per-pit, --variants, --quick, --bounds-only)" >&2; exit 2 ;;
  esac
done
case $k in
  1|2) ;;
  *) echo "run.sh: --per-pit '$k' is not 1 or 2 (a database of more than 24 seeds is out of reach)" >&2; exit 2 ;;
esac
for v in $variants; do
  case " $ALL " in
    *" $v "*) ;;
    *) echo "run.sh: unknown variant '$v' (one of: $ALL)" >&2; exit 2 ;;
  esac
done
history=${HISTORY:-5000000}
[ $quick = 1 ] && { k=1; variants="abapa speightstown"; history=${HISTORY:-20000}; }
study_need_nickar
TB=${TB:-$OUT/tb}
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")

seeds=$((12 * k))
row=$(printf "%d,%d,%d,%d,%d,%d" "$k" "$k" "$k" "$k" "$k" "$k")
start="$row/$row 0-0 S"
dir=$OUT/k$k
mkdir -p "$dir" "$TB/k$k"
[ -f "$dir/times.tsv" ] || printf 'variant\tstep\twall_s\tcpu_s\tmax_rss_kb\n' >"$dir/times.tsv"

# timed V STEP LOG CMD...: runs CMD with its output in LOG and appends V,
# STEP, wall and CPU seconds and peak memory to times.tsv (a variant run
# again replaces its lines).
timed() { study_timed_log "$dir/times.tsv" "$@"; }

for v in $variants; do
  if [ $only = 1 ]; then
    [ -f "$TB/k$k/$v.nktb" ] || { echo "run.sh: --bounds-only: no database $TB/k$k/$v.nktb" >&2; exit 2; }
  fi
done
bthr=${BOUNDS_THREADS:-1}
bmem=${BOUNDS_MEMORY:-6000}
for v in $variants; do
  # the bounds file is made (K = 2) when missing; its line in times.tsv
  # stays otherwise
  whole=0
  if [ "$k" = 2 ] && [ "$v" != speightstown ] && [ ! -f "$TB/k$k/$v.nkbd" ]; then whole=1; fi
  if [ $only = 1 ]; then # drop the variant's bounds lines only
    awk -F'\t' -v v="$v" -v w=$whole '!($1 == v && ($2 == "bounds" || ($2 == "wholebounds" && w == 1)))' \
      "$dir/times.tsv" >"$dir/times.tsv.new"
  else
    awk -F'\t' -v v="$v" -v w=$whole '$1 != v || ($2 == "wholebounds" && w == 0)' \
      "$dir/times.tsv" >"$dir/times.tsv.new"
  fi
  mv "$dir/times.tsv.new" "$dir/times.tsv"
  if [ $only = 0 ]; then
    echo "solved: $v, $k seeds a pit: building the database to $seeds seeds" >&2
    pat=() # adjikui's mini game: pattern 0 alone (the header says why)
    if [ "$v" = adjikui ] && [ "$k" = 2 ]; then pat=(--patterns 0); fi
    timed "$v" build "$dir/$v.build" "$NICKAR" tablebase build --variant "$v" --seeds "$seeds" \
      --output "$TB/k$k" "${pat[@]}" "${thr[@]}"
    timed "$v" solve "$dir/$v.solve" "$NICKAR" solve --variant "$v" --position "$start" \
      --tb "$TB/k$k"
    cat "$dir/$v.solve" >&2
  fi
  [ "$v" != speightstown ] || continue
  if [ $whole = 1 ]; then
    echo "solved: $v, $k seeds a pit: the whole database's bounds ($bthr threads, $bmem MiB)" >&2
    timed "$v" wholebounds "$dir/$v.wholebounds" nice -n 10 "$NICKAR" tablebase bounds \
      --variant "$v" --tb "$TB/k$k" --threads "$bthr" --memory "$bmem"
  fi
  echo "solved: $v, $k seeds a pit: bounds, and the search with history ($history nodes a move)" >&2
  timed "$v" bounds "$dir/$v.bounds" "$NICKAR" solve --variant "$v" --position "$start" \
    --tb "$TB/k$k" --history "$history"
done
"$PY" experiments/solved/report.py "$OUT"
