#!/bin/bash
# experiments/representation/run.sh [--quick] -- the representation study
# (issue 22, item 6): under Abapa rules and one equal budget of self-play
# games per run, which representation and which learner give the strongest
# alpha-beta player?  Six arms, SEEDS seeds each (experiment.seed 1..SEEDS),
# every run BUDGET self-play games at depth DEPTH:
#
#   pos-ga       the nine `positional` weights, the GA of ga.ini
#   pos-cma      the same weights, CMA-ES (cma-es.ini)
#   ntuple-es    the n-tuple network NTUPLE, separable CMA-ES (sep-cma-es.ini)
#   ntuple-td    the same network, self-play TD-Leaf(lambda) (td.ini)
#   nnet-es      the neural network NNET, separable CMA-ES
#   nnet-td      the same network, TD-Leaf(lambda)
#
# (Coevolutionary TD is not built in nickar: no arm.)  The evolving arms
# play random-k 4 (2 * 4 games an individual evaluated), the TD arms
# TDGAMES games a generation; every arm stops at BUDGET games.  Measures:
#
#   learning curve  each run's player after each of CHECKPOINTS games (the
#                   rank-0 champion of that generation; the TD weights
#                   after it), `nickar rate` at DEPTH on LADDER, RATE games
#                   a rung (refitted jointly with the ladder's games by the
#                   report)
#   final player    the player after BUDGET games, also rated at DEEP
#                   (depth 5), matched against ab:depth=DEPTH,features=
#                   positional (MATCH games) and graded on POSITIONS endgame
#                   positions of the TBSEEDS-seed abapa database (`nickar
#                   grade`, the positions of the hand-tuned searcher's games,
#                   intervals over games)
#   champions       each arm's best final player (highest fixed-fit Elo at
#                   DEPTH; ties: the lower seed), its weights written to
#                   OUT/champion-ARM.txt; the spec with that file matched
#                   afresh (seed 2, CHAMP games) against the hand-tuned
#                   weights at DEPTH (champions.json's claim), at depth H2H_D
#                   against positional at depth H2H_D + 2 (H2H games:
#                   "representation against depth"), and graded at each of
#                   GDEPTHS (the grade against depth; the hand-tuned weights
#                   too)
#
# CPU seconds of every step (bash `times`) go to compute.tsv.  Writes OUT:
# runs.json (settings), ratings.jsonl, matches.jsonl, grades.jsonl,
# compute.tsv, champion-ARM.txt, then report.py's tables, plots, results.json,
# champions.json and README.md; run files as run-<arm>-s<seed>.h5 (git
# ignores them).
#
# The database: TB (default tablebases/representation-abapa<TBSEEDS>, which
# git ignores), built with `nickar tablebase build` when it holds no abapa
# database of TBSEEDS seeds (seconds).
#
# The budget: experiments/representation/PLAN.md (costs measured before the
# study).  --quick: depth 1 (DEEP 2), 2 seeds, 1280 games a run, the
# 12-seed database (built in OUT/tb), small samples: seconds of CPU, to check
# the script; the test suite runs it with OUT set to a temporary directory.
#
# Environment: NICKAR (default build/nickar), OUT (default
# results/representation), THREADS (default: nickar's), SEEDS (5), BUDGET
# (51200), CHECKPOINTS ("3200 6400 12800 25600 51200"), TDGAMES (100),
# DEPTH (2), DEEP (5), NTUPLE (ntuple:layout=ring2:cap=3), NNET
# (nnet:hidden=8:act=tanh), ALPHA_NTUPLE (0.05), ALPHA_NNET (0.05), RATE
# (100), MATCH (1000), CHAMP (2000), H2H (1000), H2H_D (3), POSITIONS
# (10000), GDEPTHS ("1 2 3 4 5"), TBSEEDS (15), TB, LADDER (default
# results/ladder/abapa.tsv).
set -euo pipefail
cd "$(dirname "$0")/../.."
. experiments/study-lib.sh
NICKAR=${NICKAR:-build/nickar}
OUT=${OUT:-results/representation}
LADDER=${LADDER:-results/ladder/abapa.tsv}
PY=/usr/bin/python3
HERE=experiments/representation
study_args "$0" "$@"
[ $cont = 0 ] || { echo "run.sh: --continue: not supported by this study (run it again)" >&2; exit 2; }
[ -r "$LADDER" ] || { echo "run.sh: no ladder at $LADDER (experiments/ladder/run.sh abapa makes it)" >&2; exit 2; }
if [ $quick = 1 ]; then
  SEEDS=${SEEDS:-2}; BUDGET=${BUDGET:-1280}; CHECKPOINTS=${CHECKPOINTS:-640 1280}; TDGAMES=${TDGAMES:-64}
  DEPTH=${DEPTH:-1}; DEEP=${DEEP:-2}; RATE=${RATE:-2}; MATCH=${MATCH:-20}; CHAMP=${CHAMP:-20}
  H2H=${H2H:-10}; H2H_D=${H2H_D:-1}; POSITIONS=${POSITIONS:-100}; GDEPTHS=${GDEPTHS:-1 2}
  TBSEEDS=${TBSEEDS:-12}; TB=${TB:-$OUT/tb}
else
  SEEDS=${SEEDS:-5}; BUDGET=${BUDGET:-51200}; CHECKPOINTS=${CHECKPOINTS:-3200 6400 12800 25600 51200}
  TDGAMES=${TDGAMES:-100}; DEPTH=${DEPTH:-2}; DEEP=${DEEP:-5}; RATE=${RATE:-100}; MATCH=${MATCH:-1000}
  CHAMP=${CHAMP:-2000}; H2H=${H2H:-1000}; H2H_D=${H2H_D:-3}; POSITIONS=${POSITIONS:-10000}
  GDEPTHS=${GDEPTHS:-1 2 3 4 5}; TBSEEDS=${TBSEEDS:-15}; TB=${TB:-tablebases/representation-abapa$TBSEEDS}
fi
NTUPLE=${NTUPLE:-ntuple:layout=ring2:cap=3}
NNET=${NNET:-nnet:hidden=8:act=tanh}
ALPHA_NTUPLE=${ALPHA_NTUPLE:-0.05}
ALPHA_NNET=${ALPHA_NNET:-0.05}
ARMS=(pos-ga pos-cma ntuple-es ntuple-td nnet-es nnet-td)
# An arm's features, config and games a generation.
features() { case $1 in pos-*) echo positional ;; ntuple-*) echo "$NTUPLE" ;; nnet-*) echo "$NNET" ;; esac; }
config() { case $1 in pos-ga) echo ga.ini ;; pos-cma) echo cma-es.ini ;; *-es) echo sep-cma-es.ini ;; *-td) echo td.ini ;; esac; }
pergen() { case $1 in pos-cma) echo 80 ;; *-td) echo "$TDGAMES" ;; *) echo 128 ;; esac; }
for k in "${ARMS[@]}"; do
  g=$(pergen "$k")
  if (( BUDGET % g != 0 )); then
    echo "run.sh: BUDGET $BUDGET is not a whole number of $k's generations ($g games each)" >&2
    exit 2
  fi
  for c in $CHECKPOINTS; do
    if ! [[ $c =~ ^[0-9]+$ ]] || (( c < 1 || c > BUDGET || c % g != 0 )); then
      echo "run.sh: CHECKPOINTS $c is not a whole number of $k's generations ($g games each) up to BUDGET=$BUDGET" >&2
      exit 2
    fi
  done
done
[[ " $CHECKPOINTS " == *" $BUDGET "* ]] || { echo "run.sh: CHECKPOINTS must include BUDGET=$BUDGET (the end of the budget)" >&2; exit 2; }
# nickar keeps a player's name (its spec) in 127 bytes: the longest spec of
# a run file's individual must fit.
for k in "${ARMS[@]}"; do
  spec="ab:depth=$DEEP,features=$(features "$k"),weights=$OUT/run-$k-s$SEEDS.h5@gen=$((BUDGET / $(pergen "$k"))),rank=0"
  if (( ${#spec} > 127 )); then
    echo "run.sh: OUT=$OUT is too long: the spec '$spec' has ${#spec} bytes, nickar takes 127 (use a shorter OUT)" >&2
    exit 2
  fi
done
HAND="ab:depth=$DEPTH,features=positional"
thr=()
[ -n "${THREADS:-}" ] && thr=(--threads "$THREADS")
mkdir -p "$OUT"
rm -f "$OUT"/ratings.jsonl "$OUT"/matches.jsonl "$OUT"/grades.jsonl "$OUT"/champion-*.txt
printf 'phase\tarm\tseed\twall_s\tcpu_s\n' >"$OUT/compute.tsv"
"$PY" -c 'import json, sys; a = sys.argv[1:]; json.dump({"settings": dict(zip(a[::2], a[1::2]))}, sys.stdout, indent=1); print()' \
  quick "$quick" seeds "$SEEDS" budget "$BUDGET" checkpoints "$CHECKPOINTS" tdgames "$TDGAMES" \
  depth "$DEPTH" deep "$DEEP" ntuple "$NTUPLE" nnet "$NNET" alpha_ntuple "$ALPHA_NTUPLE" \
  alpha_nnet "$ALPHA_NNET" rate "$RATE" match "$MATCH" champ "$CHAMP" h2h "$H2H" h2h_d "$H2H_D" \
  positions "$POSITIONS" gdepths "$GDEPTHS" tbseeds "$TBSEEDS" ladder "$LADDER" >"$OUT/runs.json"

mark() { study_mark; }
account() { study_account "$OUT/compute.tsv" "$@"; } # PHASE ARM SEED: a compute.tsv line since the last mark
jstr() { "$PY" -c 'import json, sys; print(json.dumps(sys.stdin.read()))'; }

# 0. The database: built unless TB/abapa.nktb already holds TBSEEDS seeds.
mark
study_ensure_db "$TB" abapa "$TBSEEDS" "${thr[@]}"
[ "$STUDY_DB_BUILT" = 0 ] || account tablebase "db$TBSEEDS" 0

# Measures, each a JSON line: HEAD is '"arm":...,"seed":...' and the rest.
rate() { # HEAD DEPTH SPEC
  local r
  r=$("$NICKAR" rate --variant abapa --ladder "$LADDER" --games "$RATE" --seed 1 "${thr[@]}" --json "$3")
  printf '{%s,"depth":%d,"rate":%s}\n' "$1" "$2" "$r" >>"$OUT/ratings.jsonl"
}
match() { # HEAD KIND GAMES SEED SPEC OPPONENT
  local r
  r=$("$NICKAR" match "$5" "$6" --variant abapa --games "$3" --seed "$4" "${thr[@]}" --json)
  printf '{%s,"kind":"%s","spec":"%s","opponent":"%s","match":%s}\n' "$1" "$2" "$5" "$6" "$r" >>"$OUT/matches.jsonl"
}
grade() { # HEAD DEPTH SPEC
  local txt
  txt=$("$NICKAR" grade "$3" --variant abapa --tb "$TB" --positions "$POSITIONS" --seed 1 --reference "$HAND")
  printf '{%s,"depth":%d,"text":%s}\n' "$1" "$2" "$(printf '%s\n' "$txt" | jstr)" >>"$OUT/grades.jsonl"
}

# 1. The hand-tuned weights graded at every depth of GDEPTHS (their Elo is
#    the ladder's positional-dD rungs).
mark
for d in $GDEPTHS; do
  grade '"arm":"hand","seed":0,"games":0,"role":"gdepth"' "$d" "ab:depth=$d,features=positional"
done
account measure hand 0

# 2. Every seed: each arm trained, then its players measured (so that an
#    interrupted study leaves whole seeds).
for s in $(seq 1 "$SEEDS"); do
  for k in "${ARMS[@]}"; do
    f=$(features "$k") g=$(pergen "$k") run=$OUT/run-$k-s$s.h5
    set_=(--set experiment.seed="$s" --set player.depth="$DEPTH" --set player.features="$f"
          --set experiment.generations=$((BUDGET / g)))
    mark
    case $k in
      *-td) a=$ALPHA_NTUPLE; [ "$k" = nnet-td ] && a=$ALPHA_NNET
            "$NICKAR" learn "$HERE/td.ini" --output "$run" --force --quiet "${thr[@]}" "${set_[@]}" \
              --set td.games="$TDGAMES" --set td.alpha="$a" 2>"$OUT/train.err" \
              || { cat "$OUT/train.err" >&2; exit 1; } ;;
      *)    "$NICKAR" evolve "$HERE/$(config "$k")" --output "$run" --force --quiet "${thr[@]}" "${set_[@]}" \
              >/dev/null 2>"$OUT/train.err" || { cat "$OUT/train.err" >&2; exit 1; } ;;
    esac
    account train "$k" "$s"
    for c in $CHECKPOINTS; do
      head=$(printf '"arm":"%s","seed":%d,"games":%d' "$k" "$s" "$c")
      spec="features=$f,weights=$run@gen=$((c / g)),rank=0"
      rate "$head,\"role\":\"curve\"" "$DEPTH" "ab:depth=$DEPTH,$spec"
      if [ "$c" = "$BUDGET" ]; then
        rate "$head,\"role\":\"final\"" "$DEEP" "ab:depth=$DEEP,$spec"
        match "$head,\"role\":\"final\"" final "$MATCH" 1 "ab:depth=$DEPTH,$spec" "$HAND"
        grade "$head,\"role\":\"final\"" "$DEPTH" "ab:depth=$DEPTH,$spec"
      fi
    done
    account measure "$k" "$s"
  done
done
rm -f "$OUT/train.err"

# 3. Each arm's champion: the best final player by `nickar rate`'s own Elo
#    at DEPTH, its weights written out, and measured as a spec of that file.
for k in "${ARMS[@]}"; do
  f=$(features "$k") g=$(pergen "$k")
  mark
  s=$("$PY" - "$OUT/ratings.jsonl" "$k" "$BUDGET" "$DEPTH" <<'PY'
import json, sys
path, arm, budget, depth = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
best = None
for line in open(path):
    o = json.loads(line)
    if o["arm"] == arm and o["games"] == budget and o["depth"] == depth and o["role"] == "curve":
        if best is None or o["rate"]["elo"] > best[0]:
            best = (o["rate"]["elo"], o["seed"])
print(best[1])
PY
)
  file=$OUT/champion-$k.txt
  "$PY" "$HERE/export.py" "$OUT/run-$k-s$s.h5" $((BUDGET / g)) "$file" "$k seed $s after $BUDGET games ($f)"
  head=$(printf '"arm":"%s","seed":%d,"games":%d,"role":"champion"' "$k" "$s" "$BUDGET")
  # The text file plays as the run file's rank-0 individual (checked: the
  # same games, whatever the seed).
  a=$("$NICKAR" match "ab:depth=$DEPTH,features=$f,weights=$file" "$HAND" --variant abapa --games 20 --seed 3 --json)
  b=$("$NICKAR" match "ab:depth=$DEPTH,features=$f,weights=$OUT/run-$k-s$s.h5@gen=$((BUDGET / g)),rank=0" "$HAND" \
      --variant abapa --games 20 --seed 3 --json)
  [ "$(printf '%s' "$a" | "$PY" -c 'import json,sys; o=json.load(sys.stdin); print(o["wins"],o["draws"],o["losses"],o.get("pentanomial"))')" = \
    "$(printf '%s' "$b" | "$PY" -c 'import json,sys; o=json.load(sys.stdin); print(o["wins"],o["draws"],o["losses"],o.get("pentanomial"))')" ] \
    || { echo "run.sh: $file does not play as its run file's individual" >&2; exit 1; }
  match "$head" champion "$CHAMP" 2 "ab:depth=$DEPTH,features=$f,weights=$file" "$HAND"
  match "$head" h2h "$H2H" 2 "ab:depth=$H2H_D,features=$f,weights=$file" "ab:depth=$((H2H_D + 2)),features=positional"
  for d in $GDEPTHS; do
    grade "${head/champion/gdepth}" "$d" "ab:depth=$d,features=$f,weights=$file"
  done
  account champion "$k" "$s"
done
# The hand-tuned weights at H2H_D against themselves two plies deeper: the
# gap the learned evaluations are measured against.
mark
match '"arm":"hand","seed":0,"games":0,"role":"h2h"' h2h "$H2H" 2 \
  "ab:depth=$H2H_D,features=positional" "ab:depth=$((H2H_D + 2)),features=positional"
account champion hand 0

"$PY" "$HERE/report.py" "$OUT"
echo "run.sh: wrote $OUT"
