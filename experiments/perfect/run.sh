#!/bin/bash
# experiments/perfect/run.sh [--quick] -- distance from perfect play: how far
# each reference-ladder player and each study's champion is from the
# endgame databases' perfect play.
#
# 1. Whole small games: every player of the reference ladder of each
#    variant of VARIANTS (default abapa and the Warri variant antigua;
#    results/ladder/V.tsv) graded with `nickar grade --from-start` over
#    GAMES whole games from the start position with K seeds a pit (K = 2:
#    24 seeds; the 24-seed database holds every position of such a game,
#    so every move is graded, nothing is estimated) against OPPONENT, in
#    colour-swapped pairs from 2-ply random openings, seed 1: the share of
#    optimal moves, the seeds lost per move and per game with 95% intervals
#    over the games, the value thrown away and the errors by phase.  The
#    ladder's `material` and `positional` players at depths 1 to 7 give
#    the grade against search depth of each linear set; in abapa the MCTS
#    players of MCTS (playouts; default 100 300 1000 3000) rated on its
#    ladder (results/ladder/mcts-abapa) join, the grade against playouts.
# 2. Endgames: the champion of every study (experiments/perfect/
#    champions.py: ayo2004, davis-kendall-2002, caribbean, strategies,
#    their weights from the studies' committed data) and, for scale,
#    `material` and the hand-weighted set at each (variant, depth) the
#    champions play, graded with `nickar grade` on POSITIONS positions
#    inside the database to E seeds of the champion's variant (drawn from
#    games of ab:depth=3, seed 1), with 95% intervals over games
#    (cluster-robust).  Each study's lines also go to
#    STUDIES/<study>/endgame.jsonl, which the study's report reads for its
#    endgame column.
#
# Writes OUT: ladder-<variant>-k<K>.jsonl and champions.jsonl (every
# `grade` output, verbatim, with what was graded), weights/ (the
# champions' weight files), errors/<variant>-k<K>-<player>.txt (each error
# of the strongest ladder player, for `nickar view`; every player's go to
# ERRORS, default TB/errors), times.tsv (wall and CPU seconds and peak
# memory of every step), then experiments/perfect/report.py writes
# README.md, the tables (csv), results.json and the plots.
#
# Databases: TB/s<12K>/V.nktb (12K seeds; built when missing: about 29
# CPU minutes and 8.6 GiB each for K = 2, results/solved) and TB/s<E>/V.nktb
# (E seeds; seconds; adjikui its default pattern alone, `--patterns 0`:
# the graded games start from the default rows and no move changes the
# owners); TB defaults to tablebases/perfect, which git ignores; TBK
# overrides TB/s<12K> (a directory of 24-seed databases kept elsewhere).
#
# --quick: K = 1 (the 12-seed databases, seconds), GAMES 4, E 12,
# POSITIONS 40, MCTS "100 300", into OUT (the test suite runs it with OUT set to a
# temporary directory; STUDIES is then OUT/studies).
# PARTS (default "ladder champions") runs only some steps; each step
# replaces its own files, and the report reads whatever is present.
#
# Environment: PER_PIT (K of a full run, default 2), NICKAR (default build/nickar), OUT (default results/perfect),
# STUDIES (default results), TB, TBK, THREADS (default: nickar's), VARIANTS,
# GAMES (default 100), OPPONENT (default ab:depth=3,features=positional,
# the ladders' positional-d3), E (default 15), POSITIONS (default 1000),
# MEMORY (MiB, the 24-seed builds' --memory; default 4000), PARTS, MCTS,
# ERRORS.
set -euo pipefail
cd "$(dirname "$0")/../.."
. experiments/study-lib.sh
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/perfect}
PY=/usr/bin/python3
HERE=experiments/perfect
study_args "$0" "$@"
if [ "$quick" = 1 ]; then
  K=1; GAMES=${GAMES:-4}; E=${E:-12}; POSITIONS=${POSITIONS:-40}; STUDIES=${STUDIES:-$OUT/studies}
  MCTS=${MCTS-100 300}
else
  K=${PER_PIT:-2}; GAMES=${GAMES:-100}; E=${E:-15}; POSITIONS=${POSITIONS:-1000}; STUDIES=${STUDIES:-results}
fi
VARIANTS=${VARIANTS:-abapa antigua}
OPPONENT=${OPPONENT:-ab:depth=3,features=positional}
PARTS=${PARTS:-ladder champions}
MCTS=${MCTS-100 300 1000 3000}
MEMORY=${MEMORY:-4000}
TB=${TB:-tablebases/perfect}
TBK=${TBK:-$TB/s$((12 * K))}
TBE=$TB/s$E
ERRORS=${ERRORS:-$TB/errors}
for v in $VARIANTS; do
  [ -r "results/ladder/$v.tsv" ] || { echo "run.sh: no ladder results/ladder/$v.tsv" >&2; exit 2; }
done
for p in $PARTS; do
  case $p in ladder|champions) ;; *) echo "run.sh: unknown part '$p' (ladder, champions)" >&2; exit 2 ;; esac
done
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")
mkdir -p "$OUT" "$TBK" "$TBE"
[ -f "$OUT/times.tsv" ] || printf 'step\tname\twall_s\tcpu_s\tmax_rss_kb\n' >"$OUT/times.tsv"

# timed STEP NAME LOG CMD...: CMD's output to LOG (exit 1 with it on a
# failure), and a times.tsv line (an older line of STEP and NAME goes).
timed() {
  local step=$1 name=$2 log=$3 tf
  shift 3
  tf=$(mktemp)
  if ! measure "$tf" "$@" </dev/null >"$log" 2>&1; then
    echo "run.sh: $step $name failed:" >&2
    cat "$log" >&2
    rm -f "$tf"
    exit 1
  fi
  awk -F'\t' -v s="$step" -v n="$name" '!($1 == s && $2 == n)' "$OUT/times.tsv" >"$OUT/times.tsv.new"
  mv "$OUT/times.tsv.new" "$OUT/times.tsv"
  printf '%s\t%s\t%s\n' "$step" "$name" "$(awk '{printf "%s\t%.2f\t%s", $1, $2 + $3, $4}' "$tf")" \
    >>"$OUT/times.tsv"
  rm -f "$tf"
}

# database DIR SEEDS V: DIR/V.nktb to SEEDS seeds, built when missing.
database() {
  local dir=$1 seeds=$2 v=$3 pat=() mem=()
  [ -f "$dir/$v.nktb" ] && return 0
  [ "$v" = adjikui ] && pat=(--patterns 0)
  [ "$seeds" -gt 20 ] && mem=(--memory "$MEMORY")
  echo "perfect: building the $v database to $seeds seeds in $dir" >&2
  timed build "$v-$seeds" "$dir/$v.build.log" "$NICKAR" tablebase build --variant "$v" \
    --seeds "$seeds" --output "$dir" "${pat[@]}" "${mem[@]}" "${thr[@]}"
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# players V: NAME, SPEC and Elo of every ladder player of V, then (abapa)
# the MCTS players of MCTS rated on its ladder (results/ladder/mcts-abapa).
players() {
  grep -v '^[#@]' "results/ladder/$1.tsv" | cut -f1-3
  local p
  if [ "$1" = abapa ]; then
    for p in $MCTS; do
      [ -r "results/ladder/mcts-abapa/p$p.json" ] || continue
      printf 'mcts-p%s\tmcts:playouts=%s\t%s\n' "$p" "$p" \
        "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["elo"])' \
           "results/ladder/mcts-abapa/p$p.json")"
    done
  fi
}

# 1. Every ladder player over whole games from the start with K seeds a pit.
if [[ " $PARTS " == *" ladder "* ]]; then
  mkdir -p "$OUT/errors" "$ERRORS"
  for v in $VARIANTS; do
    database "$TBK" $((12 * K)) "$v"
    out=$OUT/ladder-$v-k$K.jsonl
    : >"$out.new"
    players "$v" >"$out.players"
    while IFS=$'\t' read -r name spec elo; do
      echo "perfect: $v: grading $name over $GAMES games of $((12 * K)) seeds" >&2
      timed ladder "$v-k$K/$name" "$log" "$NICKAR" grade "$spec" --variant "$v" --tb "$TBK" \
        --from-start --games "$GAMES" --per-pit "$K" --opponent "$OPPONENT" --seed 1 "${thr[@]}" \
        --errors "$ERRORS/$v-k$K-$name.txt"
      "$PY" "$HERE/report.py" --record "$out.new" variant="$v" name="$name" spec="$spec" \
        elo="$elo" per_pit="$K" games="$GAMES" opponent="$OPPONENT" seed=1 <"$log"
    done <"$out.players"
    rm -f "$out.players"
    mv "$out.new" "$out"
    # the strongest ladder player's errors are committed, for nickar view
    cp "$ERRORS/$v-k$K-$(grep -v '^[#@]' "results/ladder/$v.tsv" | head -1 | cut -f1).txt" "$OUT/errors/"
  done
fi

# 2. The champions of every study on endgames to E seeds.
if [[ " $PARTS " == *" champions "* ]]; then
  rm -rf "$OUT/weights"
  "$PY" "$HERE/champions.py" results "$OUT/weights" >"$OUT/champions.tsv.new"
  out=$OUT/champions.jsonl
  : >"$out.new"
  while IFS=$'\t' read -r study label v spec; do
    database "$TBE" "$E" "$v"
    echo "perfect: $study: grading $label on $POSITIONS endgame positions" >&2
    timed endgame "$study/$label" "$log" "$NICKAR" grade "$spec" --variant "$v" --tb "$TBE" \
      --positions "$POSITIONS" --seed 1
    "$PY" "$HERE/report.py" --record "$out.new" study="$study" label="$label" variant="$v" \
      spec="$spec" seeds="$E" positions="$POSITIONS" seed=1 <"$log"
  done <"$OUT/champions.tsv.new"
  rm -f "$OUT/champions.tsv.new"
  mv "$out.new" "$out"
  "$PY" "$HERE/report.py" --split "$out" "$STUDIES"
fi

"$PY" "$HERE/report.py" "$OUT" --quick "$quick"
echo "run.sh: wrote $OUT"
