#!/bin/bash
# experiments/caribbean/run.sh [--quick] -- the caribbean study: the same
# evolution budget spent on each of the five rule sets, the champions rated
# on each variant's reference ladder, and every Warri-family champion
# played under every Warri-family variant.
#
# 1. Evolves configs/caribbean.ini (the quickstart GA: 20 depth-3 players,
#    round robin, 30 generations) for SEEDS seeds (default 5) of antigua,
#    speightstown, bridgetown, abapa (positional features) and adjikui
#    (adjikui features, match play: fitness.unit auto = match).
# 2. Rates every champion on its own variant's ladder (nickar rate,
#    results/ladder/<V>.tsv, GAMES games a rung, default 100).
# 3. Cross table: every positional champion evolved under X rated on the
#    ladder of every Warri-family variant Y (adjikui's features do not
#    suit Warri sowing and positional ones not relay sowing, so Adji Kui II
#    has no cross pairs).
# 4. experiments/caribbean/report.py writes results/caribbean/ (README.md,
#    CSV/JSON of every number, PNGs); run files are run-<V>-s<S>.h5 (git
#    ignores them).
#
# --quick: a tiny budget (seconds: 6 players, 2 generations, depth 1, 2
# games a rung, matches of at most 3 games) to check that the script works;
# the test suite runs it with OUT set to a temporary directory.
#
# Environment: NICKAR (default build/nickar), OUT (default
# results/caribbean), LADDERS (default results/ladder), THREADS (default:
# nickar's), SEEDS (default 5), GAMES (default 100), GENERATIONS (default:
# the config's 30).
set -euo pipefail
cd "$(dirname "$0")/../.."
. experiments/study-lib.sh
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/caribbean}
LADDERS=${LADDERS:-results/ladder}
PY=/usr/bin/python3
CFG=configs/caribbean.ini
quick=0
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    -h|--help) study_help "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$a' (only --quick)" >&2; exit 2 ;;
  esac
done
study_need_nickar
WARRI=(antigua speightstown bridgetown abapa)
VARIANTS=("${WARRI[@]}" adjikui)
for v in "${VARIANTS[@]}"; do
  [ -f "$LADDERS/$v.tsv" ] || { echo "run.sh: no ladder $LADDERS/$v.tsv (experiments/ladder/run.sh writes it)" >&2; exit 2; }
done

if [ $quick = 1 ]; then
  SEEDS=${SEEDS:-2}; GAMES=${GAMES:-2}; DEPTH=1
  EVO=(--set experiment.generations="${GENERATIONS:-2}" --set population.size=6
       --set strategy.elitism=1 --set fitness.match_games=3)
else
  SEEDS=${SEEDS:-5}; GAMES=${GAMES:-100}; DEPTH=$(sed -n 's/^depth *= *//p' "$CFG")
  EVO=()
  [ -n "${GENERATIONS:-}" ] && EVO=(--set experiment.generations="$GENERATIONS")
fi
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")
mkdir -p "$OUT"
rm -f "$OUT/ratings.jsonl" "$OUT/compute.tsv"
start=$(date +%s)

features() { [ "$1" = adjikui ] && echo adjikui || echo positional; }
champ() { # variant seed -> the champion's player spec
  echo "ab:depth=$DEPTH,features=$(features "$1"),tt=0,weights=$OUT/run-$1-s$2.h5@best"
}
phase() { # name: a line of compute.tsv (phase, wall s, children's CPU s so far)
  local t
  study_cpu t
  printf '%s\t%d\t%s\n' "$1" $(( $(date +%s) - start )) "$t" >>"$OUT/compute.tsv"
}
rate() { # trained-under played-under seed: one `nickar rate --json` line
  local x=$1 y=$2 s=$3
  printf '{"trained":"%s","played":"%s","seed":%d,"rate":' "$x" "$y" "$s" >>"$OUT/ratings.jsonl"
  "$NICKAR" rate --variant "$y" --ladder "$LADDERS/$y.tsv" --games "$GAMES" --seed 1 \
    "${thr[@]}" --json "$(champ "$x" "$s")" | tr -d '\n' >>"$OUT/ratings.jsonl"
  echo "}" >>"$OUT/ratings.jsonl"
}

# 1. Evolution: the Warri family first (cheap), then Adji Kui II.
for v in "${VARIANTS[@]}"; do
  for s in $(seq 1 "$SEEDS"); do
    t0=$(date +%s)
    "$NICKAR" evolve "$CFG" --output "$OUT/run-$v-s$s.h5" --force "${thr[@]}" \
      --set experiment.variant="$v" --set player.features="$(features "$v")" \
      --set player.depth="$DEPTH" --set experiment.seed="$s" "${EVO[@]}" >/dev/null 2>&1
    echo "run.sh: evolved $v seed $s ($(( $(date +%s) - t0 )) s)" >&2
  done
  phase "evolve-$v"
done

# 2 and 3. Every champion on its own ladder; every Warri champion on every
#    Warri ladder (the diagonal is step 2).
for x in "${VARIANTS[@]}"; do
  for s in $(seq 1 "$SEEDS"); do rate "$x" "$x" "$s"; done
done
phase rate-own
for x in "${WARRI[@]}"; do
  for y in "${WARRI[@]}"; do
    [ "$x" = "$y" ] && continue
    for s in $(seq 1 "$SEEDS"); do rate "$x" "$y" "$s"; done
  done
done
phase rate-cross

"$PY" experiments/caribbean/report.py "$OUT" "$SEEDS" "$GAMES" "$quick" "$DEPTH"
echo "run.sh: wrote $OUT ($(( $(date +%s) - start )) s)"
