#!/bin/bash
# experiments/strategies/run.sh [--quick] -- the strategies study: a
# generational GA, a (4+16)-ES, a (4,16)-ES and CMA-ES (lambda 10) evolving
# the same depth-3 `positional` players under Abapa rules with the same
# budget of fitness GAMES, SEEDS seeds each; the champion of a few sampled
# generations of every run rated on the reference ladder
# (results/ladder/abapa.tsv) with `nickar rate`; ladder Elo against games
# played with bands over seeds, and Mann-Whitney U tests (Holm-corrected)
# of the final Elo per seed, every pair of strategies.
#
# Equal budget: a generation costs 2 * K * (individuals evaluated) games
# (random-k fitness, two games a meeting): 128 for the GA (16), 160 for
# (4+16) (the 4 parents are evaluated again), 128 for (4,16) (16), 80 for
# CMA-ES (10).  Each run gets BUDGET / that many generations; BUDGET must
# be a multiple of every strategy's games per generation.  The champion
# (rank 0 of its generation) is rated after generation 1, after EARLY games
# (a list) and after each CHECKS-th of the budget, GAMES games against each
# rung of the ladder.
#
# Writes OUT: README.md, ratings.jsonl (every `nickar rate --json` with its
# strategy, seed and generation), compute.tsv (wall and CPU seconds of every
# evolution and of every run's ratings, measured with `date` and bash
# `times`), CSV and JSON of every number, PNGs; run files as
# run-<strategy>-s<seed>.h5 (git ignores them).
#
# --continue: keep the run files already in OUT (a finished run stays as it
# is, an interrupted one resumes, bit for bit: `nickar evolve --resume`),
# add to compute.tsv instead of starting it again, and reuse every rating
# of ratings.jsonl that the same champion, ladder file and GAMES gave (a
# rating depends on nothing else; a ladder file changed in place is not
# noticed).  Without it every run starts afresh.
#
# --quick: depth 1, a budget of 1280 games, 2 seeds, EARLY 640, 1 check,
# 2 games a rung: seconds, to check the script; the test suite runs it with OUT set
# to a temporary directory.
#
# Environment: NICKAR (default build/nickar), OUT (default
# results/strategies), THREADS (default: nickar's), SEEDS (default 10),
# BUDGET (games per run, default 48000), EARLY (default "1280 2560 5120",
# each a multiple of 640), CHECKS (default 5), GAMES (per rung, default 50), DEPTH (default 3), LADDER (default
# results/ladder/abapa.tsv).
set -euo pipefail
cd "$(dirname "$0")/../.."
. experiments/study-lib.sh
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/strategies}
LADDER=${LADDER:-results/ladder/abapa.tsv}
PY=/usr/bin/python3
HERE=experiments/strategies
study_args "$0" "$@"
[ -r "$LADDER" ] || { echo "run.sh: no ladder at $LADDER (experiments/ladder/run.sh abapa makes it)" >&2; exit 2; }
if [ $quick = 1 ]; then
  SEEDS=${SEEDS:-2}; BUDGET=${BUDGET:-1280}; CHECKS=${CHECKS:-1}; GAMES=${GAMES:-2}; DEPTH=${DEPTH:-1}
  EARLY=${EARLY-640}
else
  SEEDS=${SEEDS:-10}; BUDGET=${BUDGET:-48000}; CHECKS=${CHECKS:-5}; GAMES=${GAMES:-50}; DEPTH=${DEPTH:-3}
  EARLY=${EARLY-1280 2560 5120}
fi
STRATEGIES=(ga es-plus es-comma cma-es)
K=4  # fitness.k of common.ini
declare -A EVAL=([ga]=16 [es-plus]=20 [es-comma]=16 [cma-es]=10)  # individuals evaluated a generation
declare -A GENS
for k in "${STRATEGIES[@]}"; do
  per=$((2 * K * EVAL[$k]))
  if (( BUDGET % per != 0 || BUDGET / per < CHECKS )); then
    echo "run.sh: BUDGET $BUDGET is not a multiple of $k's $per games a generation" \
         "(or gives fewer than CHECKS=$CHECKS generations); use a multiple of 640" >&2
    exit 2
  fi
  GENS[$k]=$((BUDGET / per))
  for e in $EARLY; do
    if ! [[ $e =~ ^[0-9]+$ ]] || (( e == 0 || e % per != 0 || e > BUDGET )); then
      echo "run.sh: EARLY $e is not a multiple of $k's $per games a generation within" \
           "BUDGET $BUDGET; use multiples of 640" >&2
      exit 2
    fi
  done
done
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")
mkdir -p "$OUT"
prev=$OUT/.ratings.prev
rm -f "$prev"
[ $cont = 1 ] && [ -e "$OUT/ratings.jsonl" ] && mv "$OUT/ratings.jsonl" "$prev"
rm -f "$OUT/ratings.jsonl"
rungs=$(grep -vc '^#' "$LADDER")
[ $cont = 1 ] && [ -s "$OUT/compute.tsv" ] || printf 'phase\tstrategy\tseed\twall_s\tcpu_s\n' >"$OUT/compute.tsv"

mark() { study_mark; }
account() { study_account "$OUT/compute.tsv" "$@"; } # PHASE STRATEGY SEED: a compute.tsv line since the last mark

# 1. Evolution: every strategy and seed, the same number of games.
for s in $(seq 1 "$SEEDS"); do
  for k in "${STRATEGIES[@]}"; do
    run=$OUT/run-$k-s$s.h5
    how=(--force)
    [ $cont = 1 ] && [ -e "$run" ] && how=(--resume)
    mark
    "$NICKAR" evolve "$HERE/$k.ini" --output "$run" "${how[@]}" "${thr[@]}" \
      --set experiment.seed="$s" --set player.depth="$DEPTH" \
      --set experiment.generations="${GENS[$k]}" >/dev/null 2>"$OUT/evolve.err" \
      || { cat "$OUT/evolve.err" >&2; exit 1; }
    account evolve "$k" "$s"
  done
done
rm -f "$OUT/evolve.err"

# 2. Ladder Elo of the champion (rank 0) after generation 1, after EARLY
#    games and after each CHECKS-th of the budget.
for s in $(seq 1 "$SEEDS"); do
  for k in "${STRATEGIES[@]}"; do
    G=${GENS[$k]}
    per=$((2 * K * EVAL[$k]))
    gens=$( (echo 1; for e in $EARLY; do echo $((e / per)); done
             for j in $(seq 1 "$CHECKS"); do echo $(( (j * G + CHECKS / 2) / CHECKS )); done) | sort -nu)
    mark
    for g in $gens; do
      spec="ab:depth=$DEPTH,features=positional,weights=$OUT/run-$k-s$s.h5@gen=$g,rank=0"
      head=$(printf '{"strategy":"%s","seed":%d,"generation":%d,"rate":{"player":"%s","variant":"abapa","ladder":"%s","games":%d,' \
             "$k" "$s" "$g" "$spec" "$LADDER" $((rungs * GAMES)))
      if [ -e "$prev" ] && grep -F -m1 "$head" "$prev" >>"$OUT/ratings.jsonl"; then
        continue  # --continue: the same rating, made before
      fi
      r=$("$NICKAR" rate --variant abapa --ladder "$LADDER" --games "$GAMES" --seed 1 "${thr[@]}" --json "$spec")
      printf '{"strategy":"%s","seed":%d,"generation":%d,"rate":%s}\n' "$k" "$s" "$g" "$r" \
        >>"$OUT/ratings.jsonl"
    done
    account rate "$k" "$s"
  done
done

rm -f "$prev"
"$PY" "$HERE/report.py" "$OUT" --quick "$quick" --seeds "$SEEDS" --budget "$BUDGET" \
  --checks "$CHECKS" --games "$GAMES" --depth "$DEPTH" --ladder "$LADDER" --early "$EARLY"
echo "run.sh: wrote $OUT"
