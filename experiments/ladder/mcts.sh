#!/usr/bin/env bash
# experiments/ladder/mcts.sh -- the built-in MCTS player on the abapa
# reference ladder: `nickar rate` of mcts:playouts=B at a few playout
# budgets B, and how many playouts match `positional` at depth 3, 5 and 7.
#
#   experiments/ladder/mcts.sh [--quick] [--force] [--out DIR] [--ladder DIR] [SPEC...]
#
# For each budget B of BUDGETS (default "100 300 1000 3000"), and each
# further SPEC named (another player to rate beside them, e.g. an ext:
# engine), it runs
#   nickar rate --variant abapa --ladder LADDER/abapa.tsv --games GAMES --seed 1 --json SPEC
# (GAMES a ladder player, default 20: 320 games against the 16 players)
# into DIR/mcts-abapa/<name>.json (name: pB for mcts:playouts=B, else the
# SPEC with every character but letters, digits, '.', '=' and '-' made
# '_'), and appends its wall and CPU seconds to DIR/mcts-abapa/times.tsv.
# A player whose JSON is there already is not played again (so a long
# list can be run in parts, and committed as it completes) unless --force.
# Then experiments/ladder/mcts_report.py writes DIR/mcts-abapa.md from every
# JSON there and the ladder's LADDER/abapa.json: the ratings, their cost, and
# for positional-d3, -d5 and -d7 the budget where the ratings cross theirs.
#
# DIR and LADDER default to results/ladder.  --quick: BUDGETS "5 20", GAMES 2,
# into DIR (default $TMPDIR/ladder-mcts-quick), for the test suite, against
# LADDER (give one made by run.sh --quick).
#
# Environment: NICKAR (the binary, default build/nickar), BUDGETS, GAMES,
# THREADS (default: all cores), NICE (default 10: the niceness it runs at).
#
# The committed results/ladder/mcts-abapa: BUDGETS="100 300 1000 3000 10000"
# GAMES=20, then BUDGETS=30000 GAMES=10 (the CPU of a 30000-playout game is
# 30 times that of a 1000), then the agent with BUDGETS=" " GAMES=2 and
# NICKAR_LIB, PYTHONPATH=python: "ext:python3 examples/mcts_agent.py --playouts 30".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/experiments/study-lib.sh"
NICKAR=${NICKAR:-build/nickar}
quick=0
force=0
out=
ladder=
specs=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) quick=1 ;;
    --force) force=1 ;;
    --out) out=$2; shift ;;
    --out=*) out=${1#--out=} ;;
    --ladder) ladder=$2; shift ;;
    --ladder=*) ladder=${1#--ladder=} ;;
    -h|--help) study_help "$0"; exit 0 ;;
    -*) echo "mcts.sh: unknown option '$1'" >&2; exit 2 ;;
    *) specs+=("$1") ;;
  esac
  shift
done
# paths given relative to where it is run; then it runs from the checkout,
# so that the defaults (and what `nickar rate` writes of its ladder into
# the JSON) read as paths of the checkout, not of one machine
here=$PWD
[[ -n $out && $out != /* ]] && out=$here/$out
[[ -n $ladder && $ladder != /* ]] && ladder=$here/$ladder
[[ $NICKAR == */* && $NICKAR != /* ]] && NICKAR=$here/$NICKAR
cd "$root"
study_need_nickar
if [[ $quick -eq 1 ]]; then
  budgets=${BUDGETS:-5 20}; games=${GAMES:-2}; out=${out:-${TMPDIR:-/tmp}/ladder-mcts-quick}
else
  budgets=${BUDGETS:-100 300 1000 3000}; games=${GAMES:-20}; out=${out:-results/ladder}
fi
ladder=${ladder:-results/ladder}
[[ -f $ladder/abapa.tsv && -f $ladder/abapa.json ]] || {
  echo "mcts.sh: no ladder at $ladder (abapa.tsv and abapa.json: experiments/ladder/run.sh)" >&2
  exit 2
}
threads=()
[[ -n ${THREADS:-} ]] && threads=(--threads "$THREADS")
dir=$out/mcts-abapa
mkdir -p "$dir"

players=()
for b in $budgets; do players+=("mcts:playouts=$b"); done
players+=("${specs[@]}")
for spec in "${players[@]}"; do
  if [[ $spec =~ ^mcts:playouts=([0-9]+)$ ]]; then
    name=p${BASH_REMATCH[1]}
  else
    name=$(printf '%s' "$spec" | tr -c 'A-Za-z0-9.=-' '_')
  fi
  json=$dir/$name.json
  if [[ -s $json && $force -eq 0 ]]; then
    echo "== $spec: $json is there" >&2
    continue
  fi
  echo "== $spec: $games games against each ladder player" >&2
  tf=$(mktemp)
  if ! measure "$tf" nice -n "${NICE:-10}" "$NICKAR" rate --variant abapa \
      --ladder "$ladder/abapa.tsv" --games "$games" --seed 1 --json "${threads[@]}" "$spec" \
      >"$json.new"; then
    rm -f "$tf" "$json.new"
    echo "mcts.sh: nickar rate failed for '$spec'" >&2
    exit 1
  fi
  mv "$json.new" "$json"
  grep -v "^$name	" "$dir/times.tsv" 2>/dev/null >"$dir/times.tsv.new" || true
  printf '%s\t%s\n' "$name" "$(awk '{printf "%s\t%.2f", $1, $2 + $3}' "$tf")" >>"$dir/times.tsv.new"
  mv "$dir/times.tsv.new" "$dir/times.tsv"
  rm -f "$tf"
done

/usr/bin/python3 "$root/experiments/ladder/mcts_report.py" "$dir" "$ladder/abapa.json" \
  "$out/mcts-abapa.md" "$quick"
echo "== wrote $out/mcts-abapa.md" >&2
