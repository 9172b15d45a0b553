#!/bin/bash
# experiments/ayo2004/run.sh [--quick] -- the ayo2004 study: Daoud, Kharma,
# Haidar & Popoola, "Ayo, the Awari player, or how better representation
# trumps deeper search" (CEC 2004), reproduced with nickar.
#
# Evolves with configs/ayo2004.ini (the paper's GA) at depth 3 and depth 5,
# and with configs/davis-kendall-2002.ini (dk2002, depth 7), SEEDS seeds
# each; plays every champion and the published weights under each reading
# (ayo12, ayo12-literal, ayo12-negated) against material and greedy at the
# same depth, and evolved ayo12 at depth 5 against evolved dk2002 at depth 7
# (the paper's claim); writes results/ayo2004/ (README.md, CSV/JSON of every
# number, PNGs; run files as run-*.h5, which git ignores).
#
# --quick: a tiny budget (seconds: small populations, 2 generations,
# shallow searches, few games) to check that the script works; the test
# suite runs it with OUT set to a temporary directory.
#
# Environment: NICKAR (default build/nickar), OUT (default results/ayo2004),
# THREADS (default: nickar's), SEEDS (default 5), GAMES (default 200).
set -euo pipefail
cd "$(dirname "$0")/../.."
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/ayo2004}
PY=/usr/bin/python3
quick=0
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$a' (only --quick)" >&2; exit 2 ;;
  esac
done
[ -x "$NICKAR" ] || { echo "run.sh: no nickar binary at $NICKAR (build first, or set NICKAR)" >&2; exit 2; }

if [ $quick = 1 ]; then
  SEEDS=${SEEDS:-2}; GAMES=${GAMES:-4}
  D3=1; D5=2; D7=2
  EVO=(--set experiment.generations=2 --set population.size=6 --set fitness.k=2
       --set benchmark.every=0 --set strategy.elitism=1)
  DK=(--set experiment.generations=2 --set strategy.mu=2 --set strategy.lambda=3
      --set benchmark.every=0 --set player.tt=0)
else
  SEEDS=${SEEDS:-5}; GAMES=${GAMES:-200}
  D3=3; D5=5; D7=7
  EVO=(); DK=()
fi
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")
mkdir -p "$OUT"
rm -f "$OUT/matches.jsonl"
start=$(date +%s)

evolve() { # config depth seed out [extra --set ...]
  local cfg=$1 depth=$2 seed=$3 out=$4; shift 4
  "$NICKAR" evolve "$cfg" --output "$out" --force "${thr[@]}" \
    --set player.depth="$depth" --set experiment.seed="$seed" "$@" >/dev/null
}
match() { # A B: one `nickar match --json` line appended (awari)
  "$NICKAR" match --variant awari --games "$GAMES" --seed 1 "${thr[@]}" --json "$1" "$2" \
    >>"$OUT/matches.jsonl"
}

# 1. Evolution: ayo12 at depth 3 and 5 (the paper's GA), dk2002 at depth 7.
for s in $(seq 1 "$SEEDS"); do
  evolve configs/ayo2004.ini "$D3" "$s" "$OUT/run-ayo12-d3-s$s.h5" "${EVO[@]}"
  evolve configs/ayo2004.ini "$D5" "$s" "$OUT/run-ayo12-d5-s$s.h5" "${EVO[@]}"
  evolve configs/davis-kendall-2002.ini "$D7" "$s" "$OUT/run-dk2002-d7-s$s.h5" "${DK[@]}"
done

# 2. Champions and published weights against material and greedy at equal
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

# 3. The paper's claim: evolved ayo12 at depth 5 against evolved dk2002 at
#    depth 7, seed against seed.
for s in $(seq 1 "$SEEDS"); do
  match "ab:depth=$D5,features=ayo12,view=root,weights=$OUT/run-ayo12-d5-s$s.h5@best" \
        "ab:depth=$D7,features=dk2002,tt=1,weights=$OUT/run-dk2002-d7-s$s.h5@best"
done

elapsed=$(( $(date +%s) - start ))
"$PY" experiments/ayo2004/report.py "$OUT" "$SEEDS" "$GAMES" "$quick" "$elapsed" "$D3" "$D5" "$D7"
echo "run.sh: wrote $OUT (${elapsed} s)"
