#!/usr/bin/env bash
# test_cli_engine.sh -- the engine protocol (docs/protocol.md): `nickar
# engine` answering commands; `ext:` players in match, tournament, rate,
# grade, play and an evolution's benchmark playing exactly the games of
# the in-process player they serve; bad engines refused with exit 2 and
# one line naming the engine; engines that fail during a game forfeiting
# it (reason in the JSON, the records and the tournament file), restarted
# for the next game, never left running or unreaped
# (tests/engines/faulty.py).
# Usage: test_cli_engine.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

faulty=$srcdir/tests/engines/faulty.py
pos='4,4,4,4,4,4/4,4,4,4,4,4 0-0 S'
ab=ab:depth=3,features=positional

# serve LINES...: nickar engine --player $spec fed the lines; sets $out.
serve() {
  printf '%s\n' "$@" | "$nickar" engine --player "$spec" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
}

# ===== nickar engine: the server =====
spec=$ab
serve "hello 1" quit
check "handshake: exit 0, nothing on stderr" test "$rc" -eq 0 -a -z "$err"
check "handshake: the lines" test "$out" = "id name nickar engine $ab
id author nickar
protocol 1
variants antigua speightstown bridgetown abapa awari
ready"
serve "newgame awari limit 1000" "position $pos moves c D" "go seed 5" "moves a B" "go"
check "newgame, position, go: a move with its search" \
  grep -qx 'ready
move [a-f] value [-0-9.e+]* depth 3 nodes [0-9]*
move [a-f] value [-0-9.e+]* depth 3 nodes [0-9]*' <<<"$out"
check "two moves answered" test "$(grep -c '^move' <<<"$out")" -eq 2
serve "go depth 1" "newgame adjikui limit 9" "newgame awari limit 0" "newgame nosuch" \
  "position $pos" "newgame awari" "moves a" "position $pos moves a -" "position 1,2/3 0-0 S" \
  "go" "go depth 99" "go seed x" "setoption Hash 1" "frobnicate" "" "# note" "error fine" \
  "position $pos moves a B" "go nodes 50" quit "go"
check "bad commands: one error line each, then a move, nothing after quit" test \
  "$(head -n 14 <<<"$out")" = \
"error go: no position; send position first
error newgame: feature set 'positional' does not suit variant 'adjikui' (relay sowing); sets for 'adjikui': material, adjikui
error newgame: expected 'newgame awari limit L', L in 1..5000
error newgame: unknown variant 'nosuch'
error position: no game; send newgame first
ready
error moves: no position; send position first
error position: illegal move '-' at ply 2; legal moves: A, B, C, D, E, F
error position: bad position '1,2/3 0-0 S': South's (a..f) row needs exactly 6 counts
error go: no position; send position first
error go: bad 'depth 99'; expected depth 1..64, nodes N, time S (seconds), seed X
error go: bad 'seed x'; expected depth 1..64, nodes N, time S (seconds), seed X
error setoption: this engine has no options
error unknown command 'frobnicate'" -a "$(wc -l <<<"$out")" -eq 15
check "bad commands: the engine goes on" grep -qx 'move [a-f] value [-0-9.e+]* depth [0-9]* nodes [0-9]*' <<<"$(tail -1 <<<"$out")"
spec=greedy
serve hello newgame "hello 1" "newgame adjikui limit 50" "position $pos" "go seed 1"
check "greedy: every variant; hello without a version refused" test "$(head -1 <<<"$out")" = \
  "error hello: expected 'hello VERSION', e.g. 'hello 1'" -a "$(grep -c '^variants antigua speightstown bridgetown adjikui abapa awari$' <<<"$out")" -eq 1
check "greedy: a plain move" test "$(tail -1 <<<"$out")" = "move a" -o "$(tail -1 <<<"$out" | grep -c '^move [a-f]$')" -eq 1
# mcts: `go nodes N` sets its playouts, as an ab player's search is limited
# by it (the reply's nodes are the playouts); without it, the spec's
spec=mcts:playouts=300
serve "newgame awari limit 1000" "position $pos" "go nodes 7 seed 1" "go nodes 40 seed 1" "go seed 1"
n1=$(sed -n 's/^move .* nodes \([0-9]*\)$/\1/p' <<<"$out" | sed -n 1p)
n2=$(sed -n 's/^move .* nodes \([0-9]*\)$/\1/p' <<<"$out" | sed -n 2p)
n3=$(sed -n 's/^move .* nodes \([0-9]*\)$/\1/p' <<<"$out" | sed -n 3p)
check "mcts: go nodes limits the playouts ($n1, $n2, $n3 nodes)" \
  test "$n1 $n2 $n3" = "7 40 300"
# numbers by the one strict reader: no hex, no sign, nothing out of range
spec=$ab
big=99999999999999999999999
serve "newgame awari limit 0x10" "newgame awari limit $big" "newgame awari limit +9" \
  "newgame awari limit 100" "position $pos" "go time 0x1p3" "go nodes $big" "go depth +3" \
  "go seed 18446744073709551616" "go depth 1 time 1e-3 seed 18446744073709551615"
check "strict numbers: each refused with one error line, then a move" test \
  "$(grep -c "^error newgame: expected 'newgame awari limit L'" <<<"$out")" -eq 3 -a \
  "$(grep -c "^error go: bad '" <<<"$out")" -eq 4 -a "$(wc -l <<<"$out")" -eq 9 -a \
  "$(grep -c '^move [a-f] value' <<<"$out")" -eq 1
long=$(head -c 20000 /dev/zero | tr '\0' a)
spec=random
serve "$long" "hello 1"
check "a line too long: an error, and the engine goes on" test "$(head -1 <<<"$out")" = \
  "error a line is longer than 16383 bytes" -a "$(tail -1 <<<"$out")" = ready

expect_error engine "missing --player SPEC" engine
expect_error engine "unknown player 'bogus'" engine --player bogus
expect_error engine "'human' cannot be served" engine --player human
expect_error engine "plays no variant" engine --player "ab:weights=$tmp/none"

# ===== the identical-games test =====
# ext:nickar engine --player SPEC plays the games SPEC plays: same seeds,
# same moves, same results, on 1 and 2 threads, in the records and the
# JSON (the specs' names aside).
strip() { sed 's/ south=[^ ]* north=[^ ]*//' "$1"; }
ext="ext:$nickar engine --player $ab"
for v in awari antigua; do
  for t in 1 2; do
    rm -f "$tmp/ext.rec" "$tmp/in.rec"
    run match --variant $v --games 12 --threads $t --seed 4 --json --records "$tmp/ext.rec" "$ext" $ab
    extout=$out
    check "identical ($v, threads $t): ext exits 0 quietly" test "$rc" -eq 0 -a -z "$err"
    run match --variant $v --games 12 --threads $t --seed 4 --json --records "$tmp/in.rec" $ab $ab
    check "identical ($v, threads $t): the same records" \
      cmp -s <(strip "$tmp/ext.rec") <(strip "$tmp/in.rec")
    check "identical ($v, threads $t): 12 games recorded" test "$(wc -l <"$tmp/ext.rec")" -eq 12
    check "identical ($v, threads $t): the same tallies" test \
      "$(sed 's/"a":"[^"]*"//' <<<"$extout")" = "$(sed 's/"a":"[^"]*"//' <<<"$out")"
  done
done
# Written with %20 or with spaces, the spec is the same player.
run match --variant awari --games 2 --json "ext:${nickar}%20engine%20--player%20random" greedy
check "%20 in the command" test "$rc" -eq 0
check "the spec is written with %20" grep -q "\"a\":\"ext:${nickar}%20engine%20--player%20random\"" <<<"$out"

# ===== bad engines and bad specs: exit 2, one line naming the engine =====
log=$tmp/engines.log
expect_error match "engine 'ext:/no/such/engine': cannot start '/no/such/engine': No such file or directory" \
  match --variant awari --games 2 ext:/no/such/engine greedy
expect_error match "sent no handshake within 2 s" \
  match --variant awari --games 2 "ext:start=2,$faulty silent 0 $log $nickar" greedy
expect_error match "speaks protocol version '2'; nickar speaks 1" \
  match --variant awari --games 2 "ext:$faulty version 0 $log $nickar" greedy
expect_error match "sent 'hello there' instead of its handshake" \
  match --variant awari --games 2 "ext:$faulty malformed 0 $log $nickar" greedy
expect_error match "ended its handshake without 'variants'" \
  match --variant awari --games 2 "ext:$faulty incomplete 0 $log $nickar" greedy
expect_error match "engine 'ext:false': exited with status 1" \
  match --variant awari --games 2 ext:false greedy
expect_error match "no command after 'ext:'" match --variant awari ext: greedy
expect_error match "no command after the options" match --variant awari ext:timeout=5 greedy
expect_error match "unknown option 'speed'; valid options: depth, nodes, time, timeout, start" \
  match --variant awari ext:speed=5,./x greedy
expect_error match "timeout '0' is not a number of seconds in (0, 86400]" \
  match --variant awari ext:timeout=0,./x greedy
expect_error match "must be %20 (a space) or %25" match --variant awari ext:./x%41 greedy
expect_error tournament "cannot start '/no/such/engine'" \
  tournament --variant awari --games 2 ext:/no/such/engine greedy random

# ===== forfeits: each fault costs the engine its game =====
# K = 2: the engine fails at its second move of every game (a fresh one
# each game), so all 4 games are forfeits of that kind.  One thread, so
# that an engine starting can see its predecessor's zombie, if nickar
# left one (on two, another thread's engine may be between its exit and
# its reaping).
declare -A reason=([timeout]=forfeit-time [crash]=forfeit-crash [close]=forfeit-crash
  [illegal]=forfeit-illegal [garbage]=forfeit-garbage [error]=forfeit-garbage
  [hexvalue]=forfeit-garbage [refuse]=forfeit-refused [unlisted]=forfeit-refused)
for mode in timeout crash close illegal garbage error hexvalue refuse unlisted; do
  r=${reason[$mode]}
  # 3 s for the engine that never answers; a generous 60 s for the others,
  # so that a slow start on a loaded machine is not a forfeit-time.
  tmo=60
  [ "$mode" = timeout ] && tmo=3
  : >"$log"
  rm -f "$tmp/f.rec"
  run match --variant awari --games 4 --threads 1 --json --records "$tmp/f.rec" \
    "ext:timeout=$tmo,$faulty $mode 2 $log $nickar" greedy
  check "$mode: the match ends (exit 0)" test "$rc" -eq 0
  json "o = objs[0]; assert o['losses'] == 4 and o['reasons'] == {'$r': 4}, o"
  check "$mode: one line per forfeit, naming the engine and the reason" test \
    "$(grep -c "^nickar: engine 'ext:timeout=$tmo,$faulty%20$mode%202.*' forfeits the game at ply [0-9]* ($r): " <<<"$err")" -eq 4 \
    -a "$(wc -l <<<"$err")" -eq 4
  check "$mode: the records say $r" test "$(grep -c "reason=$r " "$tmp/f.rec")" -eq 4
  run view "$tmp/f.rec" --output "$tmp/f.html"
  check "$mode: the records read back" test "$rc" -eq 0
  check "$mode: no engine was left unreaped" test -z "$(grep zombie "$log")"
  for pid in $(sed -n 's/^start //p' "$log"); do
    if kill -0 "$pid" 2>/dev/null; then fail "$mode: engine $pid still runs"; else pass; fi
  done
done
# On two threads, each thread's engine forfeits its own games.
run match --variant awari --games 4 --threads 2 --json "ext:timeout=60,$faulty crash 2 $log $nickar" greedy
json "o = objs[0]; assert o['losses'] == 4 and o['reasons'] == {'forfeit-crash': 4}, o"
# The same faults in a tournament: the reasons are in the tournament file.
# A tournament names a player by its spec, at most 127 bytes: the engine
# and nickar by short links, whatever the length of the checkout's path.
rm -f "$tmp/t.h5"
ln -sf "$faulty" "$tmp/f.py"
ln -sf "$nickar" "$tmp/n"
run tournament --variant awari --games 2 --quiet --output "$tmp/t.h5" \
  "ext:timeout=60,$tmp/f.py crash 2 $log $tmp/n" greedy random
check "tournament with a crashing engine: exit 0" test "$rc" -eq 0
"$python" - "$tmp/t.h5" <<'PY' && pass || fail "tournament file: forfeits recorded"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
g = f["games"]
names = g.attrs["reason_names"]
names = (names.decode() if isinstance(names, bytes) else str(names)).split(",")
reasons = [names[r] for r in g["reason"][:]]
assert reasons.count("forfeit-crash") == 4, reasons
PY
# A tournament without forfeits lists only the rules' reasons, as before.
run tournament --variant awari --games 2 --quiet --output "$tmp/t2.h5" greedy random
"$python" - "$tmp/t2.h5" <<'PY' && pass || fail "tournament file: reason names unchanged"
import sys, h5py
names = h5py.File(sys.argv[1], "r")["games"].attrs["reason_names"]
names = names.decode() if isinstance(names, bytes) else str(names)
assert names == "none,majority,empty-row,no-feed,few-seeds,passes,repetition,ply-limit", names
PY

# ===== ext: wherever a spec is taken =====
run rate --variant awari --ladder "$srcdir/results/ladder/awari.tsv" --games 2 --json "$ext"
check "rate: an ext player" test "$rc" -eq 0 -a -z "$err"
run tablebase build --variant abapa --seeds 6 --output "$tmp/tb"
run grade "ext:$nickar engine --player ab:depth=4" --variant abapa --tb "$tmp/tb" --positions 40 --seed 5
extout=$out
run grade ab:depth=4 --variant abapa --tb "$tmp/tb" --positions 40 --seed 5
check "grade: ext grades as the player it serves" test "$rc" -eq 0 -a -n "$out" -a "$extout" = "$out"
run play --variant awari --opponent "$ext" --as N </dev/null
check "play: an ext opponent moves first" test "$rc" -eq 0 -a "$(grep -c 'North.*sows\|^North' <<<"$out")" -ge 1
run play --variant awari --opponent "ext:timeout=60,$faulty illegal 1 $log $nickar" --as N </dev/null
check "play: a forfeit ends the game" grep -q "forfeits the game (forfeit-illegal)" <<<"$out"
ln -s "$nickar" "$tmp/nk"  # a run file keeps 63 characters of an opponent's spec
tiny_config "$tmp/evo.ini" 1 "ext:$tmp/nk%20engine%20--player%20greedy"
run evolve "$tmp/evo.ini" --output "$tmp/evo.h5" --quiet
check "evolve: an ext benchmark opponent" test "$rc" -eq 0

# ===== under MPI: each rank runs its own engine =====
# (where mpirun exists and nickar was built with MPI; test_mpi.sh says so
# where not)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_hwloc_base_binding_policy=none
if command -v mpirun >/dev/null 2>&1 && timeout 60 mpirun -np 2 "$nickar" rules >/dev/null 2>&1; then
  : >"$log"
  rm -f "$tmp/mpi.rec" "$tmp/in.rec"
  timeout 120 mpirun -np 3 "$nickar" match --variant awari --games 12 --threads 1 \
    --records "$tmp/mpi.rec" "ext:$faulty ok 0 $log $nickar $ab" $ab >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "MPI: an ext player on 3 ranks" test "$rc" -eq 0
  run match --variant awari --games 12 --threads 1 --records "$tmp/in.rec" $ab $ab
  check "MPI: the in-process player's games" cmp -s <(strip "$tmp/mpi.rec") <(strip "$tmp/in.rec")
  check "MPI: an engine on each playing rank" test "$(grep -c '^start' "$log")" -ge 3
  check "MPI: no engine left unreaped" test -z "$(grep zombie "$log")"
fi
finish
