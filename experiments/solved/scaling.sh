#!/bin/bash
# experiments/solved/scaling.sh [--seeds "S ..."] -- what the whole
# database's bounds (`nickar tablebase bounds`, docs/tablebase.md, "The
# whole database's bounds") cost, measured on abapa's databases of S seeds
# (default 14 16), to project the cost at 24 seeds (the small games of two
# seeds a pit): for each S, the database is built (kept in TB/s<S>, reused
# when there), then the bounds are computed twice, one thread at nice 10:
#
#   lists:    no memory limit: every count keeps its children's and
#             parents' lists (retrograde analysis), the fast way;
#   computed: --memory 1: no list kept, every sweep computes the children
#             again, the way a count runs whose lists do not fit (at 24
#             seeds within 6000 MiB, most of the large counts).
#
# Both files must be the same (the run stops otherwise).  OUT/scaling/
# receives abapa-<S>.build, abapa-<S>.lists, abapa-<S>.computed (the
# outputs) and times.tsv (seeds, step, wall and CPU seconds, peak resident
# memory in KiB); experiments/solved/report.py reads them.
#
# Environment: NICKAR (default build/nickar), OUT (default results/solved),
# TB (default OUT/tb).
set -euo pipefail
cd "$(dirname "$0")/../.."
. experiments/study-lib.sh
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/solved}
seeds_list="14 16"
while [ $# -gt 0 ]; do
  case $1 in
    --seeds)
      [ $# -ge 2 ] || { echo "scaling.sh: --seeds needs a list of seed counts" >&2; exit 2; }
      seeds_list=$2; shift 2 ;;
    -h|--help) study_help "$0"; exit 0 ;;
    *) echo "scaling.sh: unknown argument '$1' (only --seeds)" >&2; exit 2 ;;
  esac
done
for s in $seeds_list; do
  case $s in
    ''|*[!0-9]*) echo "scaling.sh: --seeds: '$s' is not a number" >&2; exit 2 ;;
  esac
  [ "$s" -ge 1 ] && [ "$s" -le 20 ] || { echo "scaling.sh: --seeds: $s is not 1 to 20" >&2; exit 2; }
done
study_need_nickar
TB=${TB:-$OUT/tb}
dir=$OUT/scaling
mkdir -p "$dir"
[ -f "$dir/times.tsv" ] || printf 'seeds\tstep\twall_s\tcpu_s\tmax_rss_kb\n' >"$dir/times.tsv"

# timed S STEP LOG CMD...: CMD's output in LOG, a line of times.tsv.
timed() { study_timed_log "$dir/times.tsv" "$@"; }

for s in $seeds_list; do
  awk -F'\t' -v s="$s" '$1 != s' "$dir/times.tsv" >"$dir/times.tsv.new"
  mv "$dir/times.tsv.new" "$dir/times.tsv"
  db=$TB/s$s
  mkdir -p "$db" "$db-m"
  if [ ! -f "$db/abapa.nktb" ]; then
    echo "scaling: abapa to $s seeds: building the database" >&2
    timed "$s" build "$dir/abapa-$s.build" nice -n 10 "$NICKAR" tablebase build --variant abapa \
      --seeds "$s" --output "$db" --threads 1
  fi
  cp "$db/abapa.nktb" "$db-m/abapa.nktb"
  echo "scaling: abapa to $s seeds: the bounds, every list kept" >&2
  timed "$s" lists "$dir/abapa-$s.lists" nice -n 10 "$NICKAR" tablebase bounds --variant abapa \
    --tb "$db" --threads 1
  echo "scaling: abapa to $s seeds: the bounds, the children computed again" >&2
  timed "$s" computed "$dir/abapa-$s.computed" nice -n 10 "$NICKAR" tablebase bounds \
    --variant abapa --tb "$db-m" --threads 1 --memory 1
  cmp -s "$db/abapa.nkbd" "$db-m/abapa.nkbd" || { echo "scaling.sh: $s seeds: the two bounds files differ" >&2; exit 1; }
  rm -rf "$db-m"
done
