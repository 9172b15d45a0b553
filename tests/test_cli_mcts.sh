#!/usr/bin/env bash
# test_cli_mcts.sh -- the `mcts` player wherever a spec is taken: match
# (the same games on 1 and 2 threads, and from a records file), tournament
# and rate; a bad mcts key is exit 2 with one line naming it.
# Usage: test_cli_mcts.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

a='mcts:playouts=40'
b='mcts:playouts=20,c=0.5,cutoff=6,features=positional'

# ===== match: the same games whatever --threads =====
run match --variant abapa --games 6 --seed 3 --threads 1 --json --records "$tmp/one.txt" "$a" "$b"
one=$out
check "match exits 0 ($err)" test "$rc" -eq 0
run match --variant abapa --games 6 --seed 3 --threads 2 --json --records "$tmp/two.txt" "$a" "$b"
check "threads 1 and 2: the same result" test -n "$one" -a "$one" = "$out"
check "threads 1 and 2: the same moves" cmp -s "$tmp/one.txt" "$tmp/two.txt"
json '
o = objs[0]
assert o["games"] == 6, o
assert o["wins"] + o["draws"] + o["losses"] == 6, o
'
run match --variant abapa --games 6 --seed 4 --threads 2 --json "$a" "$b"
check "another seed, other games" test "$one" != "$out"
run match --variant adjikui --games 4 --threads 2 --json 'mcts:playouts=30' greedy
check "adjikui: mcts plays ($err)" test "$rc" -eq 0

# ===== tournament =====
cat >"$tmp/players" <<P
m40 = $a
m20 = mcts:playouts=20,seed=7
greedy = greedy
P
run tournament --variant abapa --players "$tmp/players" --games 2 --threads 2 --quiet --json \
  --output "$tmp/t.h5"
check "tournament exits 0 ($err)" test "$rc" -eq 0
json '
o = objs[0]
assert [p["spec"] for p in o["players"]] == ["mcts:playouts=40", "mcts:playouts=20,seed=7", "greedy"], o["players"]
assert 2 * o["meetings_done"] == 6, o
'
expect_ok inspect "$tmp/t.h5" --json
json 'assert objs[0]["players"][0]["name"] == "m40"'

# ===== rate, against a small ladder =====
printf '# a small ladder\nrandom\trandom\t0\ngreedy\tgreedy\t480\n' >"$tmp/ladder.tsv"
run rate --variant abapa --ladder "$tmp/ladder.tsv" --games 4 --json "$a"
check "rate exits 0 ($err)" test "$rc" -eq 0
json '
o = objs[0]
assert o["player"] == "mcts:playouts=40" and o["games"] == 8, o
assert all(x["games"] == 4 for x in o["opponents"])
'

# ===== bench --mcts: both rates from one run; the search depends on N and the seed =====
expect_ok bench --mcts --variant antigua --playouts 300 --seed 5 --json
one=$(sed 's/"[a-z_]*seconds":[0-9.]*,//g; s/"[a-z_]*per_second":[0-9]*,//g; s/"ratio_[a-z]*":[0-9.]*,//g' <<<"$out")
json '
o = objs[0]
assert o["variant"] == "antigua" and o["playouts"] == 300 and o["mcts_nodes"] == 301, o
assert o["mcts_plies"] > 300 and o["bench_plies"] > 300 and o["move"] in "abcdef", o
assert abs(o["ratio_plies"] - o["mcts_plies_per_second"] / o["bench_plies_per_second"]) < 1e-3
'
expect_ok bench --mcts --variant antigua --playouts 300 --seed 5 --json
two=$(sed 's/"[a-z_]*seconds":[0-9.]*,//g; s/"[a-z_]*per_second":[0-9]*,//g; s/"ratio_[a-z]*":[0-9.]*,//g' <<<"$out")
check "bench --mcts: the same search twice" test -n "$one" -a "$one" = "$two"
expect_error bench "--playouts" bench --mcts --playouts 0

# ===== bad input =====
expect_error match "playouts '0' is not a whole number of playouts in 1..10000000" \
  match --variant abapa --games 2 'mcts:playouts=0' greedy
expect_error match "c '101' is not a number in [0, 100]" match --variant abapa 'mcts:c=101' greedy
expect_error match "unknown option 'depth'; valid options: playouts, c, seed, cutoff" \
  match --variant abapa 'mcts:depth=2' greedy
expect_error match "features and weights need cutoff" \
  match --variant abapa 'mcts:weights=ayo2004-d3' greedy
printf 'a = mcts:cutoff=5001\nb = greedy\n' >"$tmp/bad.players"
expect_error tournament "cutoff '5001'" \
  tournament --variant abapa --players "$tmp/bad.players" --games 2 --output "$tmp/bad.h5"
check "a refused tournament writes no file" test ! -e "$tmp/bad.h5"
# weights from a file, read by the io layer as for ab
printf '1\n' >"$tmp/w.txt"
expect_ok match --variant abapa --games 2 "mcts:playouts=20,cutoff=4,features=material,weights=$tmp/w.txt" greedy
expect_error match "w-none.txt" \
  match --variant abapa --games 2 "mcts:cutoff=4,features=material,weights=$tmp/w-none.txt" greedy

finish
