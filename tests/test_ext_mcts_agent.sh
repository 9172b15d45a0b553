#!/usr/bin/env bash
# test_ext_mcts_agent.sh -- examples/mcts_agent.py, Monte Carlo tree search
# in pure Python over the nickar package, as an ext: engine (docs/protocol.md):
# its handshake and its refusals, a few games against random that it wins
# without a forfeit, the same games from the same seed on 1 and 2 threads,
# and its playouts set from the spec (ext:nodes=N).
# Usage: test_ext_mcts_agent.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"
export NICKAR_LIB=$(dirname "$nickar") PYTHONPATH=$srcdir/python PYTHONDONTWRITEBYTECODE=1
agent=$srcdir/examples/mcts_agent.py

# ===== the protocol, spoken directly =====
"$python" "$agent" --playouts 20 >"$tmp/out" 2>"$tmp/err" <<'IN'
hello 1
newgame chess limit 1000
newgame abapa limit 1000
position 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S moves c D
go seed 7
go seed 7
go seed 7 nodes 5
moves z
frobnicate
quit
IN
check "the agent exits 0 ($(tail -c 300 "$tmp/err"))" test $? -eq 0
out=$(cat "$tmp/out")
check "handshake: protocol 1 and the variants" grep -qx 'protocol 1' <<<"$out"
check "handshake: abapa and adjikui among the variants" grep -q '^variants .*abapa.*adjikui\|^variants .*adjikui.*abapa' <<<"$out"
check "handshake ends with ready" test "$(sed -n 7p <<<"$out")" = ready
check "an unknown variant is refused" grep -q "^error newgame: no variant 'chess'" <<<"$out"
moves=$(grep '^move ' <<<"$out")
check "three moves: 20 playouts twice, then 5 (go nodes)" test "$(grep -c '^move [a-f] value [0-9.]* nodes 20$' <<<"$moves")" -eq 2 -a "$(grep -c '^move [a-f] value [0-9.]* nodes 5$' <<<"$moves")" -eq 1
check "the same move from the same seed" test "$(sed -n 1p <<<"$moves")" = "$(sed -n 2p <<<"$moves")"
check "an illegal move is an error line" grep -q "^error moves: 'z' is no move" <<<"$out"
check "an unknown command is an error line" grep -q "^error unknown command 'frobnicate'" <<<"$out"

# ===== against random, through nickar =====
spec="ext:$python $agent --playouts 30"
run match --variant abapa --games 4 --seed 3 --threads 1 --json "$spec" random
check "match exits 0 ($err)" test "$rc" -eq 0
one=$out
json '
o = objs[0]
assert o["games"] == 4 and o["wins"] >= 3, o
assert not any(k.startswith("forfeit") for k in o["reasons"]), o
'
run match --variant abapa --games 4 --seed 3 --threads 2 --json "$spec" random
check "threads 1 and 2: the same games" test -n "$one" -a "$one" = "$out"
run match --variant adjikui --games 2 --seed 3 --json "ext:nodes=10,$python $agent" random
check "adjikui, the playouts from the spec ($err)" test "$rc" -eq 0
finish
