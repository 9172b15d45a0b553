#!/bin/bash
# experiments/tbteach/run.sh [--quick] -- the tbteach study (issue 23, item
# 4): do weights that play endgames perfectly also play whole games well?
# The nine `positional` weights of a depth-3 alpha-beta player under Abapa
# rules are taught by abapa's endgame database in two ways and by self-play
# in a third, and every result is measured in whole games and in endgames:
#
#   tune-logistic   `nickar tune`, logistic loss (sigmoid of the evaluation
#                   fitted to the result under perfect play), the TBSEEDS
#                   database, 5000 positions (tune.ini)
#   tune-ls         the same, least squares (the evaluation fitted to the
#                   final seed margin under perfect play)
#   tune-logistic-12  a control: logistic on the 12-seed database, where
#                   the two `kroo` features (a pit of more than 12 seeds)
#                   never vary and keep weight 0
#   tb-lost         the GA of ga.ini, fitness.schedule = tablebase: minus
#                   the seeds lost per move on TBPOS positions a generation
#   tb-optimal      the same, fitness the share of optimal moves
#   selfplay        the same GA, fitness from self-play games (random-k 4,
#                   128 games a generation)
#
# SEEDS seeds each (tuning: experiment.seed, which draws other positions);
# the evolving arms run GENS generations each (equal individuals evaluated;
# TBPOS chosen so that a tablebase generation costs about the CPU time of a
# self-play generation: the budget is CPU seconds, and both the games and
# the CPU seconds are reported).  Every player (each evolving run's rank-0
# champion after each generation of CHECKPOINTS, and each tuning's result)
# is measured four ways:
#
#   ladder Elo      `nickar rate` on LADDER, GAMES games a rung, fitted
#                   jointly with the ladder's own games by the report
#   score           `nickar match` against ab:depth=DEPTH,features=positional
#                   (the hand-tuned weights), MATCH games from 2-ply openings
#   endgame grade   `nickar grade` on POSITIONS positions inside the TBSEEDS
#                   database, from games of the hand-tuned searcher (the
#                   same positions for every player; cluster-robust
#                   intervals over games)
#   small games     `nickar grade --from-start --per-pit 1`: FROMSTART whole
#                   games of 12 seeds against the hand-tuned searcher,
#                   every move graded; with --per-pit 2 as well when TB24
#                   holds a 24-seed abapa database
#
# The hand-tuned weights themselves are graded both ways too (the
# `positional-d3` rung of the ladder is their Elo).
#
# Writes OUT: runs.json (the settings), ratings.jsonl, matches.jsonl,
# grades.jsonl (the text of every `nickar grade`), tunes.jsonl (the text
# of every `nickar tune`), compute.tsv (wall and CPU seconds of every step:
# bash `times` and `date`), then report.py's runs.csv and the tables, PNGs
# and README.md; run files as run-<arm>-s<seed>.h5 (git ignores them).
#
# The databases: TB (default tablebases/tbteach-abapa<TBSEEDS>, which git
# ignores) and TB12 (default tablebases/tbteach-abapa12), built with
# `nickar tablebase build` when they hold no abapa database of that size.
#
# The budget (planned before the study from single runs measured on this
# shared 2-core machine, CPU seconds of user + system time): a 375-generation
# evolution 15 CPU-s (self-play: 48000 games; tablebase: 6000 individuals
# x 150 positions), a tuning 0.2 CPU-s, the measures of one player about
# 2.5 CPU-s (a rating of 1600 games 1.6, a match of 1000 games 0.4, the
# endgame grade 0.1, 1000 small games 0.4).  Per arm, 10 seeds: tb-lost,
# tb-optimal and selfplay each 2.5 CPU-min evolving + 1.7 measuring 4
# checkpoints; the three tunings 0.4 CPU-min each with their measures;
# the databases 0.4; in all about 14 CPU-minutes (at most 90 allowed).
#
# --quick: depth 1, 2 seeds, 4 generations, the 12-seed database alone
# (built in OUT/tb), small samples: seconds, to check the script; the test
# suite runs it with OUT set to a temporary directory.
#
# Environment: NICKAR (default build/nickar), OUT (default results/tbteach),
# THREADS (default: nickar's), SEEDS (default 10), GENS (default 375),
# CHECKPOINTS (default "1 25 125 375"), TBPOS (default 150), TBSEEDS
# (default 15), TB, TB12, TB24 (default none), GAMES (per rung, default
# 100), MATCH (default 1000), POSITIONS (default 2000), FROMSTART (default
# 1000), DEPTH (default 3), LADDER (default results/ladder/abapa.tsv).
set -euo pipefail
cd "$(dirname "$0")/../.."
. experiments/study-lib.sh
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/tbteach}
LADDER=${LADDER:-results/ladder/abapa.tsv}
PY=/usr/bin/python3
HERE=experiments/tbteach
study_args "$0" "$@"
[ $cont = 0 ] || { echo "run.sh: --continue: not supported by this study (a whole run takes minutes; run it again)" >&2; exit 2; }
[ -r "$LADDER" ] || { echo "run.sh: no ladder at $LADDER (experiments/ladder/run.sh abapa makes it)" >&2; exit 2; }
if [ $quick = 1 ]; then
  SEEDS=${SEEDS:-2}; GENS=${GENS:-4}; CHECKPOINTS=${CHECKPOINTS:-1 4}; TBPOS=${TBPOS:-20}
  TBSEEDS=${TBSEEDS:-12}; TB=${TB:-$OUT/tb}; TB12=${TB12:-$TB}; GAMES=${GAMES:-2}
  MATCH=${MATCH:-20}; POSITIONS=${POSITIONS:-100}; FROMSTART=${FROMSTART:-10}; DEPTH=${DEPTH:-1}
  TUNEPOS=${TUNEPOS:-500}; TUNEGRADE=${TUNEGRADE:-100}
else
  SEEDS=${SEEDS:-10}; GENS=${GENS:-375}; CHECKPOINTS=${CHECKPOINTS:-1 25 125 375}; TBPOS=${TBPOS:-150}
  TBSEEDS=${TBSEEDS:-15}; TB=${TB:-tablebases/tbteach-abapa$TBSEEDS}; TB12=${TB12:-tablebases/tbteach-abapa12}
  GAMES=${GAMES:-100}; MATCH=${MATCH:-1000}; POSITIONS=${POSITIONS:-2000}; FROMSTART=${FROMSTART:-1000}
  DEPTH=${DEPTH:-3}; TUNEPOS=${TUNEPOS:-5000}; TUNEGRADE=${TUNEGRADE:-1000}
fi
TB24=${TB24:-}
for c in $CHECKPOINTS; do
  if ! [[ $c =~ ^[0-9]+$ ]] || (( c < 1 || c > GENS )); then
    echo "run.sh: CHECKPOINTS $c is not a generation from 1 to GENS=$GENS" >&2
    exit 2
  fi
done
[[ " $CHECKPOINTS " == *" $GENS "* ]] || { echo "run.sh: CHECKPOINTS must include GENS=$GENS (the end of the budget)" >&2; exit 2; }
if (( TBSEEDS < 12 )); then
  echo "run.sh: TBSEEDS $TBSEEDS: the small games of one seed a pit need a database of 12 seeds or more" >&2
  exit 2
fi
start2=0
if [ -n "$TB24" ]; then
  "$NICKAR" tablebase info "$TB24/abapa.nktb" 2>/dev/null | grep -q '^seeds: 0 to 2[4-9]$' \
    || { echo "run.sh: TB24=$TB24 holds no abapa database of 24 seeds or more" >&2; exit 2; }
  start2=1
fi
EVOLVE=(tb-lost tb-optimal selfplay)
TUNE=(tune-logistic tune-ls tune-logistic-12)
HAND="ab:depth=$DEPTH,features=positional"
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")
mkdir -p "$OUT"
rm -f "$OUT"/ratings.jsonl "$OUT"/matches.jsonl "$OUT"/grades.jsonl "$OUT"/tunes.jsonl
printf 'phase\tarm\tseed\twall_s\tcpu_s\n' >"$OUT/compute.tsv"

mark() { study_mark; }
account() { study_account "$OUT/compute.tsv" "$@"; } # PHASE ARM SEED: a compute.tsv line since the last mark
jstr() { "$PY" -c 'import json, sys; print(json.dumps(sys.stdin.read()))'; }

# 0. The databases: built unless DIR/abapa.nktb already holds SEEDS seeds.
ensure_db() { # DIR SEEDS
  if [ -f "$1/abapa.nktb" ] && "$NICKAR" tablebase info "$1/abapa.nktb" 2>/dev/null \
       | grep -qx "seeds: 0 to $2"; then
    return
  fi
  echo "tbteach: building abapa's database to $2 seeds in $1" >&2
  mark
  "$NICKAR" tablebase build --variant abapa --seeds "$2" --output "$1" "${thr[@]}" >/dev/null
  account tablebase "db$2" 0
}
ensure_db "$TB" "$TBSEEDS"
ensure_db "$TB12" 12

# 1. Measures of one player: ARM SEED GENERATION SPEC (generation 0: a
#    tuning's result, or the hand-tuned weights).
measure_player() {
  local arm=$1 s=$2 g=$3 spec=$4 head r txt
  head=$(printf '"arm":"%s","seed":%d,"generation":%d' "$arm" "$s" "$g")
  if [ "$arm" != hand ]; then
    r=$("$NICKAR" rate --variant abapa --ladder "$LADDER" --games "$GAMES" --seed 1 "${thr[@]}" \
        --json "$spec")
    printf '{%s,"rate":%s}\n' "$head" "$r" >>"$OUT/ratings.jsonl"
    r=$("$NICKAR" match "$spec" "$HAND" --variant abapa --games "$MATCH" --seed 1 "${thr[@]}" --json)
    printf '{%s,"match":%s}\n' "$head" "$r" >>"$OUT/matches.jsonl"
  fi
  txt=$("$NICKAR" grade "$spec" --variant abapa --tb "$TB" --positions "$POSITIONS" --seed 1 \
        --reference "$HAND")
  printf '{%s,"kind":"endgame","text":%s}\n' "$head" "$(printf '%s\n' "$txt" | jstr)" >>"$OUT/grades.jsonl"
  txt=$("$NICKAR" grade "$spec" --variant abapa --tb "$TB" --from-start --per-pit 1 \
        --games "$FROMSTART" --opponent "$HAND" --seed 1 "${thr[@]}")
  printf '{%s,"kind":"start1","text":%s}\n' "$head" "$(printf '%s\n' "$txt" | jstr)" >>"$OUT/grades.jsonl"
  if [ $start2 = 1 ]; then
    txt=$("$NICKAR" grade "$spec" --variant abapa --tb "$TB24" --from-start --per-pit 2 \
          --games "$FROMSTART" --opponent "$HAND" --seed 1 "${thr[@]}")
    printf '{%s,"kind":"start2","text":%s}\n' "$head" "$(printf '%s\n' "$txt" | jstr)" >>"$OUT/grades.jsonl"
  fi
}

# 2. Every seed: each arm trained, then its players measured (so that an
#    interrupted study leaves whole seeds).  The hand-tuned weights first.
mark
measure_player hand 0 0 "$HAND"
account measure hand 0
for s in $(seq 1 "$SEEDS"); do
  for k in "${TUNE[@]}"; do
    db=$TB loss=logistic
    [ "$k" = tune-ls ] && loss=least-squares
    [ "$k" = tune-logistic-12 ] && db=$TB12
    mark
    txt=$("$NICKAR" tune "$HERE/tune.ini" --output "$OUT/run-$k-s$s.h5" --force --quiet \
          --set experiment.seed="$s" --set player.depth="$DEPTH" --set tune.tablebase="$db" \
          --set tune.loss="$loss" --set tune.positions="$TUNEPOS" \
          --set tune.grade_positions="$TUNEGRADE")
    account train "$k" "$s"
    printf '{"arm":"%s","seed":%d,"text":%s}\n' "$k" "$s" "$(printf '%s\n' "$txt" | jstr)" \
      >>"$OUT/tunes.jsonl"
    measure_player "$k" "$s" 0 "ab:depth=$DEPTH,features=positional,weights=$OUT/run-$k-s$s.h5@best"
    account measure "$k" "$s"
  done
  for k in "${EVOLVE[@]}"; do
    how=()
    case $k in
      selfplay) ini=selfplay.ini ;;
      tb-*) ini=tablebase.ini
            how=(--set fitness.tablebase="$TB" --set fitness.tablebase_measure="${k#tb-}"
                 --set fitness.tablebase_positions="$TBPOS") ;;
    esac
    mark
    "$NICKAR" evolve "$HERE/$ini" --output "$OUT/run-$k-s$s.h5" --force "${thr[@]}" \
      --set experiment.seed="$s" --set player.depth="$DEPTH" \
      --set experiment.generations="$GENS" "${how[@]}" >/dev/null 2>"$OUT/evolve.err" \
      || { cat "$OUT/evolve.err" >&2; exit 1; }
    account train "$k" "$s"
    for g in $CHECKPOINTS; do
      measure_player "$k" "$s" "$g" "ab:depth=$DEPTH,features=positional,weights=$OUT/run-$k-s$s.h5@gen=$g,rank=0"
    done
    account measure "$k" "$s"
  done
done
rm -f "$OUT/evolve.err"

"$PY" "$HERE/report.py" "$OUT" --quick "$quick" --seeds "$SEEDS" --gens "$GENS" \
  --checkpoints "$CHECKPOINTS" --tbpos "$TBPOS" --tbseeds "$TBSEEDS" --games "$GAMES" \
  --match "$MATCH" --positions "$POSITIONS" --fromstart "$FROMSTART" --depth "$DEPTH" \
  --tunepos "$TUNEPOS" --ladder "$LADDER" --start2 "$start2"
echo "run.sh: wrote $OUT"
