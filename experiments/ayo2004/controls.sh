#!/bin/bash
# experiments/ayo2004/controls.sh [--quick] [--continue] -- the controls and
# learning curves of the ayo2004 study (issue 24, items 13 and 14).
#
# 13(b) The paper's Tables 2 and 3 as it reads them: the ayo2004 study's
#    ayo12 champions at depth 3 against the davis-kendall-2002 study's dk2002
#    champions at depth 7, head to head, seed against seed (GAMES games in
#    colour-swapped pairs).  The champions' weights are the committed ones
#    (AYO_RESULTS and DK_RESULTS, the studies' results.json), written to
#    OUT/controls-weights/ as weights files; each is first checked by
#    playing again a committed match of that study (against material at its
#    depth), which must come out game for game the same.
# 13(a) ayo12 against dk2002 at equal depth (3) with the same optimiser
#    and budget: dk2002 evolved by the paper's GA, configs/ayo2004.ini with
#    only player.features=dk2002 set (the same population, fitness set,
#    generations, games, weight range [0, 1] and leaf view), seeds 1..SEEDS;
#    rated on the awari ladder as the study rates its players, and played
#    against the ayo12 depth-3 champion of the same seed.  For scale (part
#    es), the davis-kendall-2002 study's dk2002 champions (its ES, weights
#    in [-1, 1], evolved at depth 7) searched at depth 3, rated and played
#    against the same ayo12 champions.
# 14. Learning curves: the ayo12 runs of the study (configs/ayo2004.ini at
#    depth 3 and 5, seeds 1..SEEDS, the study's run files run-ayo12-d3-sS.h5
#    and run-ayo12-d5-sS.h5 in OUT, evolved again here: evolution is
#    deterministic), and the champion of generation 1 and of every EVERY-th
#    generation rated on the awari ladder (RATE_GAMES games a rung); the
#    run files' own benchmark (every 10 generations, in the config) comes
#    with them.
#
# Writes into OUT: controls-matches.jsonl, controls-ratings.jsonl,
# curves-ratings.jsonl, controls-times.tsv (wall and CPU seconds of each
# step) and controls-weights/; then experiments/ayo2004/controls.py makes
# curves.csv, controls.csv, controls.json and curves.png from them and the
# run files.  results/ayo2004/README.md includes the section
# controls.section() writes from these files (report.py).
#
# --quick: a tiny budget (seconds) that only checks the script; the test
# suite runs it with OUT set to a temporary directory.
# --continue: resume the run files that exist instead of evolving them
# again; every rating and match of the parts run is played again.
#
# PARTS (default "b d3 ga es d5 tables") runs some of the parts alone, and
# SEED_LIST (default 1..SEEDS) some of the seeds, each replacing only its
# own lines of the JSON lines and controls-times.tsv: b (13(b) and the
# checks), d3 and d5 (the curves at that depth), ga and es (13(a); ga
# needs the d3 run files), tables (controls.py, over every seed).  Two shells may run
# parts or seeds at once (say PARTS="b d3 ga" and PARTS=d5, each with
# THREADS=1), then PARTS=tables.
#
# Environment: NICKAR (default build/nickar), OUT (default results/ayo2004),
# THREADS (default: nickar's), SEEDS (default 5), GAMES (default 200),
# RATE_GAMES (default 40), GENS (default 100), EVERY (default 10), LADDER
# (default results/ladder/awari.tsv), PARTS and SEED_LIST (above), AYO_RESULTS (default
# results/ayo2004/results.json), DK_RESULTS (default
# results/davis-kendall-2002/results.json).
set -euo pipefail
cd "$(dirname "$0")/../.."
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/ayo2004}
LADDER=${LADDER:-results/ladder/awari.tsv}
AYO_RESULTS=${AYO_RESULTS:-results/ayo2004/results.json}
DK_RESULTS=${DK_RESULTS:-results/davis-kendall-2002/results.json}
PY=/usr/bin/python3
. experiments/study-lib.sh
study_args "$0" "$@"
for f in "$LADDER" "$AYO_RESULTS" "$DK_RESULTS"; do
  [ -r "$f" ] || { echo "controls.sh: cannot read $f" >&2; exit 2; }
done

if [ $quick = 1 ]; then
  SEEDS=${SEEDS:-2}; GAMES=${GAMES:-4}; RATE_GAMES=${RATE_GAMES:-2}
  GENS=${GENS:-4}; EVERY=${EVERY:-2}
  D3=1; D5=2; D7=2
  EVO=(--set population.size=6 --set fitness.k=2 --set strategy.elitism=1
       --set benchmark.every=2 --set benchmark.games=2)
else
  SEEDS=${SEEDS:-5}; GAMES=${GAMES:-200}; RATE_GAMES=${RATE_GAMES:-40}
  GENS=${GENS:-100}; EVERY=${EVERY:-10}
  D3=3; D5=5; D7=7
  EVO=()
fi
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")
PARTS=${PARTS:-b d3 ga es d5 tables}
for p in $PARTS; do
  case $p in b|d3|ga|es|d5|tables) ;; *) echo "controls.sh: PARTS: unknown part '$p' (b d3 ga es d5 tables)" >&2; exit 2 ;; esac
done
has() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
SEED_LIST=$(echo ${SEED_LIST:-$(seq 1 "$SEEDS")})
for s in $SEED_LIST; do
  case $s in ''|*[!0-9]*) echo "controls.sh: SEED_LIST: '$s' is not a seed (a whole number)" >&2; exit 2 ;; esac
done
S="(${SEED_LIST// /|})"  # the seeds as a regex alternative
mkdir -p "$OUT/controls-weights"
TIMES=$OUT/controls-times.tsv
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.new"' EXIT
drop() { # FILE REGEX: FILE without its lines that match REGEX
  if [ -f "$1" ]; then grep -Ev "$2" "$1" >"$tmp.new" || true; mv "$tmp.new" "$1"; fi
}
forget() { # PART JSONL JSONL-REGEX TIMES-REGEX EVOLVE-REGEX: a part's earlier
  # lines go (the times of its evolutions stay with --continue: those runs
  # are resumed)
  has "$1" || return 0
  drop "$OUT/$2" "$3"
  if [ "$cont" = 1 ]; then drop "$TIMES" "^($4)"; else drop "$TIMES" "^($4|$5)"; fi
}
forget b controls-matches.jsonl "\"part\":\"(check-[^\"]*|d3-vs-d7)\",\"seed\":$S," \
  "match (check-[^ ]*|d3-vs-d7) s$S[[:space:]]" '-'
forget d3 curves-ratings.jsonl "^\\{\"depth\":$D3,\"seed\":$S," "rate curve d3 s$S " \
  "evolve run-ayo12-d3-s$S[[:space:]]"
forget ga controls-matches.jsonl "\"part\":\"ga-d3\",\"seed\":$S," "(rate|match) ga-d3 (dk2002 )?s$S[[:space:]]" \
  "evolve run-dk2002ga-d3-s$S[[:space:]]"
has ga && drop "$OUT/controls-ratings.jsonl" "\"features\":\"dk2002\",\"seed\":$S,"
forget es controls-matches.jsonl "\"part\":\"es-d3\",\"seed\":$S," "(rate|match) es-d3 (dk2002 )?s$S[[:space:]]" '-'
has es && drop "$OUT/controls-ratings.jsonl" "\"features\":\"dk2002-es\",\"seed\":$S,"
forget d5 curves-ratings.jsonl "^\\{\"depth\":$D5,\"seed\":$S," "rate curve d5 s$S " \
  "evolve run-ayo12-d5-s$S[[:space:]]"
start=$(date +%s)

evolve() { # depth seed out [extra --set ...]: configs/ayo2004.ini
  local depth=$1 seed=$2 out=$3; shift 3
  timed "evolve $(basename "$out" .h5)" "$NICKAR" evolve configs/ayo2004.ini --output "$out" \
    "$(keep "$out")" "${thr[@]}" --set player.depth="$depth" --set experiment.seed="$seed" \
    --set experiment.generations="$GENS" "${EVO[@]}" "$@" >/dev/null
}
cmatch() { # PART SEED A B: a `nickar match --json` line, wrapped, to controls-matches.jsonl
  timed "match $1 s$2" sh -c '"$@" >"'"$tmp"'"' match "$NICKAR" match --variant awari \
    --games "$GAMES" --seed 1 "${thr[@]}" --json "$3" "$4"
  printf '{"part":"%s","seed":%d,"match":%s}\n' "$1" "$2" "$(cat "$tmp")" >>"$OUT/controls-matches.jsonl"
}
crate() { # FILE LABEL TAG SPEC (TAG: JSON members): a `nickar rate --json` line, wrapped, to FILE
  timed "rate $2" sh -c '"$@" >"'"$tmp"'"' rate "$NICKAR" rate --variant awari \
    --ladder "$LADDER" --games "$RATE_GAMES" --seed 1 "${thr[@]}" --json "$4"
  printf '{%s,"rate":%s}\n' "$3" "$(cat "$tmp")" >>"$1"
}
ayo() { echo "ab:depth=$1,features=ayo12,view=root,weights=$2"; }
dk7() { echo "ab:depth=$D7,features=dk2002,tt=1,weights=$OUT/controls-weights/dk2002-d7-s$1.txt"; }
dk3() { echo "ab:depth=$D3,features=dk2002,tt=1,weights=$OUT/controls-weights/dk2002-d7-s$1.txt"; }
dkga() { echo "ab:depth=$D3,features=dk2002,view=root,weights=$OUT/run-dk2002ga-d3-s$1.h5@best"; }

# The committed champions' weights, one file each.
"$PY" experiments/ayo2004/controls.py weights "$AYO_RESULTS" "$DK_RESULTS" "$OUT/controls-weights" "$SEEDS"

# 13(b): the committed champions checked against a committed match each,
# then ayo12 depth 3 against dk2002 depth 7, seed against seed.
has b && for s in $SEED_LIST; do
  cmatch check-ayo12-d3 "$s" "$(ayo "$D3" "$OUT/controls-weights/ayo12-d3-s$s.txt")" "ab:depth=$D3,features=material"
  cmatch check-dk2002-d7 "$s" "$(dk7 "$s")" "ab:depth=$D7,features=material"
done
has b && for s in $SEED_LIST; do
  cmatch d3-vs-d7 "$s" "$(ayo "$D3" "$OUT/controls-weights/ayo12-d3-s$s.txt")" "$(dk7 "$s")"
done

# 14 (depth 3) and the ayo12 arm of 13(a): the study's ayo12 depth-3 runs,
# their champions every EVERY generations on the ladder.
curve() { # depth tag seed
  local g
  for g in 1 $(seq "$EVERY" "$EVERY" "$GENS"); do
    crate "$OUT/curves-ratings.jsonl" "curve $2 s$3 g$g" "\"depth\":$1,\"seed\":$3,\"generation\":$g" \
      "$(ayo "$1" "$OUT/run-ayo12-$2-s$3.h5@gen=$g,rank=0")"
  done
}
has d3 && for s in $SEED_LIST; do
  evolve "$D3" "$s" "$OUT/run-ayo12-d3-s$s.h5"
  curve "$D3" d3 "$s"
done

# 13(a): dk2002 evolved by the same GA at the same depth; rated, and played
# against the ayo12 champion of the same seed.
has ga && for s in $SEED_LIST; do
  evolve "$D3" "$s" "$OUT/run-dk2002ga-d3-s$s.h5" --set player.features=dk2002
  crate "$OUT/controls-ratings.jsonl" "ga-d3 dk2002 s$s" "\"part\":\"ga-d3\",\"features\":\"dk2002\",\"seed\":$s" "$(dkga "$s")"
  cmatch ga-d3 "$s" "$(ayo "$D3" "$OUT/run-ayo12-d3-s$s.h5@best")" "$(dkga "$s")"
done

# 13(a), for scale: the davis-kendall-2002 study's dk2002 champions at depth 3.
has es && for s in $SEED_LIST; do
  crate "$OUT/controls-ratings.jsonl" "es-d3 dk2002 s$s" "\"part\":\"es-d3\",\"features\":\"dk2002-es\",\"seed\":$s" "$(dk3 "$s")"
  cmatch es-d3 "$s" "$(ayo "$D3" "$OUT/controls-weights/ayo12-d3-s$s.txt")" "$(dk3 "$s")"
done

# 14 (depth 5).
has d5 && for s in $SEED_LIST; do
  evolve "$D5" "$s" "$OUT/run-ayo12-d5-s$s.h5"
  curve "$D5" d5 "$s"
done

elapsed=$(( $(date +%s) - start ))
if has tables; then
  "$PY" experiments/ayo2004/controls.py tables "$OUT" "$SEEDS" "$quick" "$D3" "$D5" "$D7" \
    "$GENS" "$EVERY" "$GAMES" "$RATE_GAMES" "$AYO_RESULTS" "$DK_RESULTS" "$LADDER"
fi
echo "controls.sh: parts $PARTS: wrote $OUT (${elapsed} s)"
