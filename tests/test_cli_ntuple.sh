#!/usr/bin/env bash
# test_cli_ntuple.sh -- the n-tuple family from the command line: a weights
# file of the family's length plays in match and tournament; bad layouts
# and weights files of the wrong length are refused with exit 2 and one
# line naming the spec and what is wrong, and nothing is written; the
# bench takes the family; evolution refuses a bad family text
# (test_cli_evolve_ntuple.sh evolves the family).
# Usage: test_cli_ntuple.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

# ring2, cap 3: 1 + 12 * 16 = 193 weights.
nt=ntuple:layout=ring2:cap=3
"$python" -c '
import random
random.seed(3)
print("# ntuple:layout=ring2:cap=3")
print(1.0)
for i in range(192): print(round(random.uniform(-0.5, 0.5), 6))
' >"$tmp/nt.txt"
head -n 100 "$tmp/nt.txt" >"$tmp/short.txt"

# ===== plays =====
expect_ok match --variant abapa --games 4 --json "ab:depth=2,features=$nt,weights=$tmp/nt.txt" greedy
json 'o = objs[0]; assert o["games"] == 4 and o["a"].startswith("ab:depth=2,features=ntuple")'
# The default weights are the store term alone: the material player, to
# the move (every game of a colour-swapped pair mirrors the other).
run match --variant abapa --games 8 --json ab:depth=3,features=ntuple ab:depth=3,features=material
json 'o = objs[0]; assert o["score"] == 0.5 and o["seed_diff"] == 0, o'
printf 'nt = ab:depth=2,features=%s,weights=%s\npos = ab:depth=2,features=positional\n' \
  "$nt" "$tmp/nt.txt" >"$tmp/players.txt"
expect_ok tournament --variant abapa --games 4 --players "$tmp/players.txt" --output "$tmp/t.h5" --quiet
check "tournament file written" test -s "$tmp/t.h5"

# ===== bad layouts and weights files: exit 2, one line, nothing written =====
for bad in "layout=0-12|pit 12 is out of range 0..11" "layout=0-1-0|repeats pit 0" \
  "layout=0++1|has an empty tuple" "layout=|has an empty tuple" "cap=0|ntuple.cap '0' is not"; do
  bad_player "ab:depth=2,features=ntuple:${bad%%|*}" "${bad##*|}"
done
expect_error match "short.txt: 99 weights, but family 'ntuple:layout=ring2:cap=3' needs 193" \
  match --variant abapa --games 2 "ab:depth=2,features=$nt,weights=$tmp/short.txt" greedy
expect_error match "more than 109 weights" \
  match --variant abapa --games 2 "ab:depth=2,features=ntuple:layout=ring2:cap=2,weights=$tmp/nt.txt" greedy
expect_error tournament "needs 301" tournament --variant abapa --games 2 --output "$tmp/bad.h5" \
  "ab:depth=2,features=ntuple:layout=ring2:cap=4,weights=$tmp/nt.txt" greedy
check "no tournament file for a short weights file" test ! -e "$tmp/bad.h5"
expect_error match "does not suit variant 'adjikui'" \
  match --variant adjikui --games 2 ab:depth=2,features=ntuple greedy
expect_error match "are for feature set 'ayo12', not 'ntuple'" \
  match --variant abapa --games 2 ab:depth=2,features=ntuple,weights=ayo2004-d3 greedy

# ===== bench and evolution =====
expect_ok bench --search --features positional,ntuple:layout=ring2:cap=2 --json
json '
o = objs[0]
names = [s["features"] for s in o["sets"]]
assert names == ["positional", "ntuple:layout=ring2:cap=2"], names
assert all(s["nodes"] > 0 and s["positions"] > 0 for s in o["sets"])
'
expect_error bench "ntuple.layout" bench --search --features ntuple:layout=ring9
tiny_config "$tmp/tiny.ini" 1 greedy
expect_error evolve "player.features" \
  evolve "$tmp/tiny.ini" --set player.features=ntuple:layout=ring9 --output "$tmp/run.h5"
check "no run file" test ! -e "$tmp/run.h5"

finish
