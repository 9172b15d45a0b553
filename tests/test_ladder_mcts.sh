#!/usr/bin/env bash
# test_ladder_mcts.sh -- experiments/ladder/mcts.sh --quick against a quick
# ladder (run.sh --quick): nickar rate of two mcts budgets, their JSON and
# cost, a player already rated is not played again, and the report; then
# the report's answer (mcts_report.py) on made-up ratings whose crossings
# are known: interpolated in log(playouts), bounded by the budgets played,
# and said to be out of reach when no budget reaches the target.
source "$(dirname "$0")/lib_cli.sh"
lq=$tmp/lq
NICKAR=$nickar "$srcdir/experiments/ladder/run.sh" --quick --out "$lq" abapa >/dev/null 2>"$tmp/err"
check "the quick ladder ($(tail -c 300 "$tmp/err"))" test -s "$lq/abapa.tsv"
o=$tmp/o
NICKAR=$nickar "$srcdir/experiments/ladder/mcts.sh" --quick --ladder "$lq" --out "$o" >"$tmp/out" 2>"$tmp/err"
check "mcts.sh --quick exits 0 ($(tail -c 300 "$tmp/err"))" test $? -eq 0
check "a rating a budget" test -s "$o/mcts-abapa/p5.json" -a -s "$o/mcts-abapa/p20.json"
check "their cost" test "$(cut -f1 "$o/mcts-abapa/times.tsv" | tr '\n' ' ')" = "p5 p20 "
check "the report's rows" grep -q '^| `mcts:playouts=20` | 20 | ' "$o/mcts-abapa.md"
check "the quick ladder has no depth 3" grep -q '^- \*\*positional-d3\*\*: not on this ladder' "$o/mcts-abapa.md"
NICKAR=$nickar "$srcdir/experiments/ladder/mcts.sh" --quick --ladder "$lq" --out "$o" >"$tmp/out" 2>"$tmp/err"
check "a budget rated is not played again" grep -q 'p20.json is there' "$tmp/err"
NICKAR=$nickar "$srcdir/experiments/ladder/mcts.sh" --quick --ladder "$lq" --out "$o" --missing 2>"$tmp/err"
check "an unknown option is exit 2" test $? -eq 2
NICKAR=$nickar "$srcdir/experiments/ladder/mcts.sh" --quick --ladder "$tmp/none" --out "$o" 2>"$tmp/err"
check "no ladder is exit 2" test $? -eq 2

# made-up ratings: 100 -> 1000, 1000 -> 1400, 10000 -> 1800 (fixed_se 10)
mkdir -p "$tmp/fake"
"$python" - "$tmp/fake" <<'PY'
import json, sys
d = sys.argv[1]
opp = [{"name": "x", "elo": 0, "games": 10, "wins": 5, "draws": 0, "losses": 5, "score": 0.5}]
for b, e in [(100, 1000.0), (1000, 1400.0), (10000, 1800.0)]:
    json.dump({"player": f"mcts:playouts={b}", "games": 10, "elo": e, "ci": [e - 50, e + 50],
               "fixed_elo": e, "fixed_se": 10.0, "opponents": opp}, open(f"{d}/p{b}.json", "w"))
r = lambda n, e: {"player": n, "elo": e, "ci_pool": [e - 19.6, e + 19.6]}
json.dump({"games_per_pairing": 400, "ratings": [r("positional-d3", 1200.0),
           r("positional-d5", 900.0), r("positional-d7", 2000.0)]}, open(f"{d}.ladder.json", "w"))
PY
"$python" "$srcdir/experiments/ladder/mcts_report.py" "$tmp/fake" "$tmp/fake.ladder.json" "$tmp/fake.md" 0
check "the report on made-up ratings" test $? -eq 0
# d3: halfway from 1000 to 1400 in log: sqrt(100 * 1000) = 316; the bounds
# (se 10 and 10 together: 1.96 * 14.14 = 27.7 Elo) at 27.7 / 400 of a decade
check "d3: interpolated in log(playouts)" grep -q 'positional-d3\*\* (1200.0): about \*\*316 playouts\*\* (95% interval: 270 to 371 playouts)' "$tmp/fake.md"
check "d5: below the smallest budget" grep -q 'positional-d5\*\* (900.0): reached already at the smallest budget played, 100 playouts, where mcts rates 1000.0; fewer' "$tmp/fake.md"
check "d7: out of reach" grep -q 'positional-d7\*\* (2000.0): \*\*out of reach of the budgets played\*\*: at 10000 playouts mcts rates 1800.0, 200.0 below' "$tmp/fake.md"
check "Elo a doubling" grep -q 'grows by about 120 Elo a doubling' "$tmp/fake.md"
finish
