#!/usr/bin/env bash
# test_cli_nnet.sh -- the network family from the command line: a weights
# file of the family's length plays in match (ab and mcts players, Warri
# and Adji Kui II), tournament, rate and grade; the default weights play as
# material; bad specs (width 0 or over the cap, an unknown activation or
# key) and weights files of the wrong length are refused with exit 2 and
# one line naming the spec and what is wrong, and nothing is written; the
# bench takes the family.
# Usage: test_cli_nnet.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

# 4 units, hardtanh: 1 + 4 * (14 + 2) = 65 weights in the Warri family.
nn=nnet:hidden=4:act=hardtanh
"$python" -c '
import random
random.seed(4)
print("# nnet:hidden=4:act=hardtanh")
print(1.0)
for i in range(64): print(round(random.uniform(-0.3, 0.3), 6))
' >"$tmp/nn.txt"
head -n 40 "$tmp/nn.txt" >"$tmp/short.txt"
player="ab:depth=2,features=$nn,weights=$tmp/nn.txt"

# ===== plays =====
expect_ok match --variant abapa --games 4 --json "$player" greedy
json 'o = objs[0]; assert o["games"] == 4 and o["a"].startswith("ab:depth=2,features=nnet"), o'
expect_ok match --variant abapa --games 2 --json \
  "mcts:playouts=40,cutoff=4,features=$nn,weights=$tmp/nn.txt" greedy
json 'o = objs[0]; assert o["games"] == 2 and o["a"].startswith("mcts:"), o'
expect_ok match --variant adjikui --games 2 --json ab:depth=2,features=nnet:hidden=3:act=relu greedy
json 'o = objs[0]; assert o["games"] == 2, o'
# The default weights add nothing to the store term: the material player,
# to the move (every game of a colour-swapped pair mirrors the other).
run match --variant abapa --games 8 --json ab:depth=3,features=nnet ab:depth=3,features=material
json 'o = objs[0]; assert o["score"] == 0.5 and o["seed_diff"] == 0, o'
printf 'nn = %s\npos = ab:depth=2,features=positional\n' "$player" >"$tmp/players.txt"
expect_ok tournament --variant abapa --games 4 --players "$tmp/players.txt" --output "$tmp/t.h5" --quiet
check "tournament file written" test -s "$tmp/t.h5"
expect_ok inspect "$tmp/t.h5" --json
json 'assert objs[0]["players"][0]["name"] == "nn", objs[0]["players"][0]'
printf '# a small ladder\nrandom\trandom\t0\ngreedy\tgreedy\t480\n' >"$tmp/ladder.tsv"
expect_ok rate --variant abapa --ladder "$tmp/ladder.tsv" --games 4 --json "$player"
json 'o = objs[0]; assert o["player"] == "'"$player"'" and o["games"] == 8, o'
run tablebase build --variant abapa --seeds 8 --output "$tmp/db" --threads 1
check "build an 8-seed database ($err)" test "$rc" -eq 0
expect_ok grade "$player" --variant abapa --tb "$tmp/db" --positions 40 --seed 3
check "grade prints the share of optimal moves" grep -q '^optimal moves: ' <<<"$out"

# ===== bad specs and weights files: exit 2, one line, nothing written =====
for bad in "hidden=0|nnet.hidden '0' is not a whole number of units in 1..256" \
  "hidden=257|nnet.hidden '257' is not a whole number of units in 1..256" \
  "act=softmax|nnet.act 'softmax' is not an activation" \
  "width=3|nnet: unknown key 'width'; valid keys: hidden, act"; do
  bad_player "ab:depth=2,features=nnet:${bad%%|*}" "${bad##*|}"
done
expect_error match "short.txt: 39 weights, but family '$nn' needs 65" \
  match --variant abapa --games 2 "ab:depth=2,features=$nn,weights=$tmp/short.txt" greedy
expect_error match "more than 49 weights" \
  match --variant abapa --games 2 "ab:depth=2,features=nnet:hidden=3,weights=$tmp/nn.txt" greedy
# Adji Kui II has 26 inputs: 1 + 4 * 28 = 113 weights.
expect_error match "65 weights, but family '$nn' needs 113" \
  match --variant adjikui --games 2 "$player" greedy
expect_error tournament "needs 81" tournament --variant abapa --games 2 --output "$tmp/bad.h5" \
  "ab:depth=2,features=nnet:hidden=5,weights=$tmp/nn.txt" greedy
check "no tournament file for a short weights file" test ! -e "$tmp/bad.h5"
expect_error match "are for feature set 'ayo12', not 'nnet'" \
  match --variant abapa --games 2 ab:depth=2,features=nnet,weights=ayo2004-d3 greedy

# ===== bench =====
expect_ok bench --search --features positional,nnet:hidden=2 --json
json '
o = objs[0]
names = [s["features"] for s in o["sets"]]
assert names == ["positional", "nnet:hidden=2"], names
assert all(s["nodes"] > 0 and s["positions"] > 0 for s in o["sets"])
'
expect_error bench "nnet.hidden" bench --search --features nnet:hidden=0

finish
