#!/usr/bin/env bash
# test_cli_contract.sh -- the command line's contract (docs/cli.md): --help
# everywhere, the output of rules, show, replay, perft and bench as text and
# JSON, and the worked examples of docs/rules.md section 5
# seen through `nickar replay --json`.
# Usage: test_cli_contract.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

start='4,4,4,4,4,4/4,4,4,4,4,4 0-0 S'
slam='0,0,2,0,0,3/1,2,1,0,0,0 17-22 S'

# ===== --help =====
expect_ok --help
check "nickar --help lists the commands" grep -q "replay" <<<"$out"
for c in rules show replay perft bench; do
  expect_ok "$c" --help
  check "$c --help prints its usage" grep -q "^usage: nickar $c" <<<"$out"
  check "$c --help lists --help" grep -q -- "--help" <<<"$out"
  expect_ok "$c" -h
done
run show --help --variant nonsense
check "--help wins over later options" test "$rc" -eq 0

# ===== rules =====
expect_ok rules
check "rules: one line per variant" test "$(wc -l <<<"$out")" -eq 6
for v in antigua speightstown bridgetown adjikui abapa awari; do
  check "rules lists $v" grep -q "^$v " <<<"$out"
done

# ===== show =====
expect_ok show --variant antigua
check "show: North's row (F..A) drawn above South's (a..f)" \
  "$python" -c '
import sys
lines = sys.stdin.read().splitlines()
top = next(i for i, l in enumerate(lines) if l.split() == list("FEDCBA"))
bottom = next(i for i, l in enumerate(lines) if l.split() == list("abcdef"))
north = next(i for i, l in enumerate(lines) if "North" in l and "|" in l)
south = next(i for i, l in enumerate(lines) if "South" in l and "|" in l)
assert top < north < south < bottom
assert "to move" in lines[south] and "to move" not in lines[north]
' <<<"$out"
check "show: legal moves" grep -q "legal moves: a, b, c, d, e, f" <<<"$out"

expect_ok show --variant antigua --position "$slam"
check "show: the stores at the ends of the middle line" \
  grep -Eq '^ +22 \+-.*-\+ 17$' <<<"$out"

expect_ok show --variant antigua --json
json '
o = objs[0]
assert len(objs) == 1
assert o["variant"] == "antigua"
assert o["position"] == "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S"
assert o["to_move"] == "S" and o["over"] is False
assert o["legal"] == list("abcdef")
assert o["result"] is None and o["reason"] is None
'
expect_ok show --variant=abapa --position='4,4,4,4,4,4/4,4,4,4,4,4 3-1 N' --json
json '
o = objs[0]
assert o["to_move"] == "N" and o["legal"] == list("ABCDEF")
assert o["position"] == "4,4,4,4,4,4/4,4,4,4,4,4 3-1 N"
'
expect_ok show --variant antigua --json --position '0,0,0,0,0,0/1,0,0,0,0,0 20-27 S'
json '
o = objs[0]
assert o["over"] is True and o["legal"] == []
assert o["result"] == "N" and o["reason"] == "majority"
'
# Adji Kui II: bought pits can be sown; a player without a move passes.
expect_ok show --variant adjikui --json --position "$start SSSSSSSSNNNN"
json 'assert objs[0]["legal"] == list("abcdefAB"), objs'
expect_ok show --variant adjikui --position "$start SSSSSSSSNNNN"
check "show marks bought pits" grep -q '\*' <<<"$out"
expect_ok show --variant adjikui --json --position '0,0,0,0,1,4/0,0,0,0,0,0 0-0 N'
json 'assert objs[0]["legal"] == ["-"] and objs[0]["over"] is False, objs'

# ===== replay: docs/rules.md section 5 =====
expect_ok replay --variant antigua --json --position "$slam" f
json '
assert objs[0] == {"ply": 1, "move": "f", "position": "0,0,2,0,0,0/0,0,0,0,0,0 24-22 S", "captured": 7}
assert objs[1] == {"result": "S", "south": 26, "north": 22, "plies": 1, "reason": "no-feed"}
assert len(objs) == 2
'
expect_ok replay --variant speightstown --json --position "$slam" f
json 'assert objs[-1] == {"result": "draw", "south": 24, "north": 24, "plies": 1, "reason": "empty-row"}'
expect_ok replay --variant bridgetown --json --position "$slam" f
json 'assert objs[-1] == {"result": "S", "south": 25, "north": 23, "plies": 1, "reason": "empty-row"}'
expect_ok replay --variant abapa --json --position "$slam" f
json '
assert objs[0]["position"] == "0,0,2,0,0,0/2,3,2,0,0,0 17-22 N" and objs[0]["captured"] == 0
assert objs[1] == {"result": None, "south": None, "north": None, "plies": 1, "reason": None}
'
expect_ok replay --variant adjikui --json --position '0,0,0,0,0,2/0,1,0,0,0,0 0-0 S' f
json 'assert objs[0]["position"] == "0,0,0,0,0,0/1,0,1,1,0,0 0-0 N", objs'
expect_ok replay --variant adjikui --json --position '0,0,0,2,0,3/0,0,0,0,0,0 0-0 S' d -
json '
assert [o.get("move") for o in objs[:2]] == ["d", "-"]
assert objs[0]["position"] == "0,0,0,0,1,4/0,0,0,0,0,0 0-0 N"
assert objs[1]["position"].endswith(" S")
'

# ===== replay: forms of the moves, text, records =====
expect_ok replay --variant antigua --json c D a
moves3=$out
expect_ok replay --variant antigua --json 'c D' a
check "moves in one argument, separated by spaces" test "$out" = "$moves3"
expect_ok replay --json c --variant antigua D -- a
check "options between moves, and --" test "$out" = "$moves3"
json '
assert [o["ply"] for o in objs[:3]] == [1, 2, 3]
assert objs[0]["position"] == "4,4,0,5,5,5/5,4,4,4,4,4 0-0 N"
assert objs[3]["result"] is None
'
expect_ok replay --variant antigua c D a
check "replay text: one board per position" test "$(grep -c '|  South' <<<"$out")" -eq 4
check "replay text: the game goes on" grep -q "North to move" <<<"$out"
check "replay text: the record" grep -qx "record: $start c D a" <<<"$out"

for v in antigua speightstown bridgetown adjikui abapa awari; do
  expect_ok replay --variant "$v" --json --random --seed 7
  random=$out
  json '
plies, end = objs[:-1], objs[-1]
assert end["result"] in ("S", "N", "draw") and end["plies"] == len(plies)
assert [o["ply"] for o in plies] == list(range(1, len(plies) + 1))
s, n = end["south"], end["north"]
if end["result"] == "draw":  # speightstown: a win needs the majority
    assert s == n or "'"$v"'" == "speightstown"
else:
    assert end["result"] == ("S" if s > n else "N")
'
  moves=$("$python" -c '
import json, sys
print(" ".join(json.loads(l)["move"] for l in sys.stdin if "move" in l))' <<<"$random")
  expect_ok replay --variant "$v" --json $moves
  check "$v: a random game's moves replay to the same game" test "$out" = "$random"
  expect_ok replay --variant "$v" --random --seed 7
  check "$v: text replay ends with the result" grep -q "^Game over after" <<<"$out"
  record=$(sed -n 's/^record: //p' <<<"$out")
  check "$v: the record holds the moves" test "${record#"$start "}" = "$moves"
done
run replay --variant antigua --random --seed 8 --json
check "another seed, another game" test "$out" != "$("$nickar" replay --variant antigua --random --seed 7 --json)"

# ===== perft =====
expect_ok perft --variant antigua --depth 4
check "perft antigua from the start" test "$out" = "$(printf '1 6\n2 36\n3 190\n4 1014')"
expect_ok perft --variant abapa --depth=2 --position "$slam"
check "perft: one line per depth" test "$(wc -l <<<"$out")" -eq 2
check "perft: depth 1 counts the legal moves" test "$(head -n1 <<<"$out")" = "1 2"
expect_ok perft --variant antigua --depth 3 --position '0,0,0,0,0,0/1,0,0,0,0,0 20-27 S'
check "perft of a finished game is 0" test "$out" = "$(printf '1 0\n2 0\n3 0')"

# ===== bench =====
expect_ok bench --games 200 --seed 3 --json
json '
assert [o["variant"] for o in objs] == ["antigua", "speightstown", "bridgetown", "adjikui", "abapa", "awari"]
for o in objs:
    assert set(o) == {"variant", "games", "plies", "seconds", "plies_per_second", "signature"}
    assert o["games"] == 200 and o["plies"] > 200 and o["seconds"] >= 0
    assert len(o["signature"]) == 16 and int(o["signature"], 16) >= 0
'
first=$out
run bench --games 200 --seed 3 --json
check "bench signatures are deterministic" test \
  "$(sed 's/"seconds.*signature//' <<<"$out")" = "$(sed 's/"seconds.*signature//' <<<"$first")"
expect_ok bench --variant adjikui --games 100
check "bench text: one line" test "$(wc -l <<<"$out")" -eq 1
check "bench text: fields" grep -Eq '^adjikui +games 100 +plies [0-9]+ +seconds [0-9.]+ +plies/s [0-9]+ +signature [0-9a-f]{16}$' <<<"$out"

finish
