#!/bin/bash
# experiments/ayo2004/run.sh [--quick] [--continue] -- the ayo2004 study: Daoud, Kharma,
# Haidar & Popoola, "Ayo, the Awari player, or how better representation
# trumps deeper search" (CEC 2004), reproduced with nickar.
#
# Evolves with configs/ayo2004.ini (the paper's GA) at depth 3 and depth 5,
# SEEDS seeds each (GENS3 and GENS5 generations; the paper: 100); rates
# every champion and the published weights (Tables 1 and 4) under each
# reading (ayo12, ayo12-literal, ayo12-negated; view=root) on the awari
# reference ladder (nickar rate, RATE_GAMES games against each rung), plays
# them against material and greedy at the same depth, and plays evolved
# ayo12 at depth 5 against evolved dk2002 at depth 7 (the paper's claim),
# seed against seed.  The dk2002 champions are those of the
# davis-kendall-2002 study when DK_DIR names its directory (its run files
# run-dk2002-d7-sS.h5 and ratings.jsonl are read, nothing is evolved twice);
# without DK_DIR this script evolves them itself with
# configs/davis-kendall-2002.ini (DK_GENS generations) into OUT.  Writes
# results/ayo2004/ (README.md, CSV/JSON of every number, PNGs; run files as
# run-*.h5, which git ignores).  The controls and learning curves (ayo12
# against dk2002 at equal depth and budget, depth 3 against depth 7, the
# ladder Elo every 10 generations) are experiments/ayo2004/controls.sh's;
# after this script, `controls.sh --continue` reuses its run files.
#
# --quick: a tiny budget (seconds: small populations, 2 generations,
# shallow searches, few games) to check that the script works; the test
# suite runs it with OUT set to a temporary directory.
#
# --continue: keep the run files that exist and resume them (to more
# generations when GENS is raised; the cost already spent stays in
# times.tsv), then rate and play everything again.
#
# Environment: NICKAR (default build/nickar), OUT (default results/ayo2004),
# THREADS (default: nickar's), SEEDS (default 5), GAMES (default 200),
# GENS3 and GENS5 (default 100), RATE_GAMES (default 40), LADDER (default
# results/ladder/awari.tsv), DK_DIR (default: none), DK_GENS (default 10).
set -euo pipefail
cd "$(dirname "$0")/../.."
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/ayo2004}
LADDER=${LADDER:-results/ladder/awari.tsv}
DK_DIR=${DK_DIR:-}
PY=/usr/bin/python3
. experiments/study-lib.sh
study_args "$0" "$@"
[ -r "$LADDER" ] || { echo "run.sh: no awari ladder at $LADDER (experiments/ladder/run.sh awari, or set LADDER)" >&2; exit 2; }

if [ $quick = 1 ]; then
  SEEDS=${SEEDS:-2}; GAMES=${GAMES:-4}; RATE_GAMES=${RATE_GAMES:-2}
  GENS3=${GENS3:-2}; GENS5=${GENS5:-2}; DK_GENS=${DK_GENS:-2}
  D3=1; D5=2; D7=2
  EVO=(--set population.size=6 --set fitness.k=2
       --set benchmark.every=0 --set strategy.elitism=1)
  DK=(--set strategy.mu=2 --set strategy.lambda=3
      --set benchmark.every=0 --set player.tt=0)
else
  SEEDS=${SEEDS:-5}; GAMES=${GAMES:-200}; RATE_GAMES=${RATE_GAMES:-40}
  GENS3=${GENS3:-100}; GENS5=${GENS5:-100}; DK_GENS=${DK_GENS:-10}
  D3=3; D5=5; D7=7
  EVO=(); DK=()
fi
DKD=${DK_DIR:-$OUT}
if [ -n "$DK_DIR" ]; then
  for s in $(seq 1 "$SEEDS"); do
    [ -r "$DK_DIR/run-dk2002-d$D7-s$s.h5" ] || { echo "run.sh: DK_DIR: no run file $DK_DIR/run-dk2002-d$D7-s$s.h5 (run experiments/davis-kendall-2002/run.sh first)" >&2; exit 2; }
  done
fi
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")
study_start
start=$(date +%s)

evolve() { # config depth seed generations out [extra --set ...]
  local cfg=$1 depth=$2 seed=$3 gens=$4 out=$5; shift 5
  timed "evolve $(basename "$out" .h5)" "$NICKAR" evolve "$cfg" --output "$out" "$(keep "$out")" "${thr[@]}" \
    --set player.depth="$depth" --set experiment.seed="$seed" \
    --set experiment.generations="$gens" "$@" >/dev/null
}
match() { # A B: one `nickar match --json` line appended (awari)
  timed "match" sh -c '"$@" >>"'"$OUT"'/matches.jsonl"' match \
    "$NICKAR" match --variant awari --games "$GAMES" --seed 1 "${thr[@]}" --json "$1" "$2"
}
rate() { # SPEC: one `nickar rate --json` line appended (the awari ladder)
  timed "rate" sh -c '"$@" >>"'"$OUT"'/ratings.jsonl"' rate \
    "$NICKAR" rate --variant awari --ladder "$LADDER" --games "$RATE_GAMES" --seed 1 \
    "${thr[@]}" --json "$1"
}
dkchamp() { echo "ab:depth=$D7,features=dk2002,tt=1,weights=$DKD/run-dk2002-d$D7-s$1.h5@best"; }

# 1. Evolution: ayo12 at depth 3 and 5 (the paper's GA); dk2002 at depth 7
#    unless DK_DIR holds the davis-kendall-2002 study's runs.
for s in $(seq 1 "$SEEDS"); do
  evolve configs/ayo2004.ini "$D3" "$s" "$GENS3" "$OUT/run-ayo12-d3-s$s.h5" "${EVO[@]}"
  evolve configs/ayo2004.ini "$D5" "$s" "$GENS5" "$OUT/run-ayo12-d5-s$s.h5" "${EVO[@]}"
  if [ -z "$DK_DIR" ]; then
    evolve configs/davis-kendall-2002.ini "$D7" "$s" "$DK_GENS" "$OUT/run-dk2002-d$D7-s$s.h5" "${DK[@]}"
  fi
done

# 2. Ladder ratings: the champions and the published weights, each table at
#    its own depth under every reading (view=root), and the dk2002 champions
#    when they were evolved here.
for s in $(seq 1 "$SEEDS"); do
  rate "ab:depth=$D3,features=ayo12,view=root,weights=$OUT/run-ayo12-d3-s$s.h5@best"
  rate "ab:depth=$D5,features=ayo12,view=root,weights=$OUT/run-ayo12-d5-s$s.h5@best"
  if [ -z "$DK_DIR" ]; then rate "$(dkchamp "$s")"; fi
done
for r in ayo12 ayo12-literal ayo12-negated; do
  rate "ab:depth=$D3,features=$r,view=root,weights=ayo2004-d3"
  rate "ab:depth=$D5,features=$r,view=root,weights=ayo2004-d5"
done

# 3. Champions and published weights against material and greedy at equal
#    depth (the ayo readings searched as the paper's minimax: view=root).
for d in "$D3" "$D5"; do
  for s in $(seq 1 "$SEEDS"); do
    tag=d3; [ "$d" = "$D5" ] && tag=d5
    champ="ab:depth=$d,features=ayo12,view=root,weights=$OUT/run-ayo12-$tag-s$s.h5@best"
    match "$champ" "ab:depth=$d,features=material"
    match "$champ" greedy
  done
  for r in ayo12 ayo12-literal ayo12-negated; do
    for t in d3 d5; do
      pub="ab:depth=$d,features=$r,view=root,weights=ayo2004-$t"
      match "$pub" "ab:depth=$d,features=material"
      match "$pub" greedy
    done
  done
done

#    The dk2002 champions evolved here against material and greedy at their
#    depth (the davis-kendall-2002 study plays its own).
if [ -z "$DK_DIR" ]; then
  for s in $(seq 1 "$SEEDS"); do
    match "$(dkchamp "$s")" "ab:depth=$D7,features=material"
    match "$(dkchamp "$s")" greedy
  done
fi

# 4. The paper's claim: evolved ayo12 at depth 5 against evolved dk2002 at
#    depth 7, seed against seed.
for s in $(seq 1 "$SEEDS"); do
  match "ab:depth=$D5,features=ayo12,view=root,weights=$OUT/run-ayo12-d5-s$s.h5@best" \
        "$(dkchamp "$s")"
done

elapsed=$(( $(date +%s) - start ))
"$PY" experiments/ayo2004/report.py "$OUT" "$SEEDS" "$GAMES" "$quick" "$elapsed" "$D3" "$D5" "$D7" \
  "$DKD" "$GENS3" "$GENS5" "$RATE_GAMES" "$LADDER"
echo "run.sh: wrote $OUT (${elapsed} s)"
