#!/bin/bash
# experiments/davis-kendall-2002/run.sh [--quick] [--continue] -- the davis-kendall-2002
# study: Davis & Kendall, "An investigation, using co-evolution, to evolve
# an Awari player" (CEC 2002), as the Ayo paper (Daoud et al., CEC 2004)
# recounts it: an evolution strategy, every member playing every other,
# minimax depth 7, the dk2002 terms (pits open to a capture of 2 or 3 seeds
# for either side, both scores), under the awari rules.
#
# Evolves configs/davis-kendall-2002.ini with SEEDS seeds (1..SEEDS) for
# GENS generations each (the paper: 250; an earlier run of this study
# had 40, see results/davis-kendall-2002/README.md); rates every
# champion on the awari reference ladder (nickar rate, RATE_GAMES games
# against each rung) and plays it against material and greedy at the same
# depth (GAMES games a match); writes results/davis-kendall-2002/ (README.md,
# CSV/JSON of every number, PNGs; run files as run-*.h5, which git ignores).
# The ayo2004 study plays these champions against its own (DK_DIR there).
#
# --quick: a tiny budget (seconds: 2 seeds, 2 generations of a (2+3)-ES at
# depth 2, a few games) to check that the script works; the test suite
# runs it with OUT set to a temporary directory.
#
# --continue: keep the run files that exist and resume them (to more
# generations when GENS is raised; the cost already spent stays in
# times.tsv), then rate and play everything again.
#
# Environment: NICKAR (default build/nickar), OUT (default
# results/davis-kendall-2002), THREADS (default: nickar's), SEEDS (default
# 5), GENS (default 250, the paper's), GAMES (default 200), RATE_GAMES (default 40),
# LADDER (default results/ladder/awari.tsv).
set -euo pipefail
cd "$(dirname "$0")/../.."
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/davis-kendall-2002}
LADDER=${LADDER:-results/ladder/awari.tsv}
PY=/usr/bin/python3
. experiments/study-lib.sh
study_args "$0" "$@"

if [ $quick = 1 ]; then
  SEEDS=${SEEDS:-2}; GENS=${GENS:-2}; GAMES=${GAMES:-4}; RATE_GAMES=${RATE_GAMES:-2}
  D=2
  EXTRA=(--set strategy.mu=2 --set strategy.lambda=3 --set benchmark.every=0)
else
  SEEDS=${SEEDS:-5}; GENS=${GENS:-250}; GAMES=${GAMES:-200}; RATE_GAMES=${RATE_GAMES:-40}
  D=7
  EXTRA=()
fi
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")
study_start

champ() { echo "ab:depth=$D,features=dk2002,tt=1,weights=$OUT/run-dk2002-d$D-s$1.h5@best"; }

start=$(date +%s)
# 1. Evolution (configs/davis-kendall-2002.ini; only the seed, the number of
#    generations and, in --quick, the depth and the ES's sizes set here).
for s in $(seq 1 "$SEEDS"); do
  timed "evolve s$s" "$NICKAR" evolve configs/davis-kendall-2002.ini \
    --output "$OUT/run-dk2002-d$D-s$s.h5" "$(keep "$OUT/run-dk2002-d$D-s$s.h5")" "${thr[@]}" \
    --set player.depth="$D" --set experiment.seed="$s" \
    --set experiment.generations="$GENS" "${EXTRA[@]}" >/dev/null
done

[ -r "$LADDER" ] || { echo "run.sh: no awari ladder at $LADDER (experiments/ladder/run.sh awari, or set LADDER)" >&2; exit 2; }
# 2. Every champion on the awari ladder, and against material and greedy.
for s in $(seq 1 "$SEEDS"); do
  timed "rate s$s" sh -c '"$@" >>"'"$OUT"'/ratings.jsonl"' rate "$NICKAR" rate --variant awari \
    --ladder "$LADDER" --games "$RATE_GAMES" --seed 1 "${thr[@]}" --json "$(champ "$s")"
  for b in "ab:depth=$D,features=material" greedy; do
    timed "match s$s $b" sh -c '"$@" >>"'"$OUT"'/matches.jsonl"' match "$NICKAR" match --variant awari \
      --games "$GAMES" --seed 1 "${thr[@]}" --json "$(champ "$s")" "$b"
  done
done

elapsed=$(( $(date +%s) - start ))
"$PY" experiments/davis-kendall-2002/report.py "$OUT" "$SEEDS" "$GENS" "$GAMES" "$RATE_GAMES" \
  "$quick" "$elapsed" "$D" "$LADDER"
echo "run.sh: wrote $OUT (${elapsed} s)"
