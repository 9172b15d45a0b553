#!/usr/bin/env bash
# test_cli_tournament.sh -- nickar tournament: the games are those of
# nickar match, the output does not depend on threads, the tournament file
# holds what was printed, players files and run-file champions, and every
# bad input is exit 2 with one line and nothing written.
source "$(dirname "$0")/lib_cli.sh"
V=(--variant abapa)

# ----- a round robin of three, its JSON, and the same pairing as a match
run tournament "${V[@]}" random greedy ab:depth=2 --games 10 --json --threads 2 --quiet
check "round robin exits 0 ($err)" test "$rc" -eq 0
cp "$tmp/out" "$tmp/rr.json"
json '
o = objs[0]
assert [p["name"] for p in o["players"]] == ["random", "greedy", "ab:depth=2"]
w, d, l = o["cross"]["wins"], o["cross"]["draws"], o["cross"]["losses"]
for i in range(3):
    for j in range(3):
        assert w[i][j] == l[j][i] and d[i][j] == d[j][i]
        assert w[i][j] + d[i][j] + l[i][j] == (0 if i == j else 10)
r = {x["player"]: x for x in o["ratings"]}
assert r["random"]["elo"] == 0 and r["random"]["se"] == 0      # the default anchor
assert [x["rank"] for x in o["ratings"]] == [1, 2, 3]
assert o["ratings"][0]["elo"] >= o["ratings"][1]["elo"] >= o["ratings"][2]["elo"]
assert o["ratings"][-1]["los_next"] is None
for x in o["ratings"]:
    assert x["ci"][0] <= x["elo"] <= x["ci"][1] and x["games"] == 20
    assert x["se_pool"] > 0 and abs(x["ci_pool"][1] - x["elo"] - 1.959964 * x["se_pool"]) < 0.02
assert r["random"]["se_pool"] > 0          # the anchor is uncertain against the pool
# the Nash average of the finished round robin: a probability vector, its
# payoffs (A mix)_i with A = score - score^T, none above 0, 0 on its support
n, sc = o["nash"], o["cross"]["score"]
mix, pay = n["mix"], n["payoff"]
assert abs(sum(mix) - 1) < 1e-9 and min(mix) >= 0
for i in range(3):
    a = sum((sc[i][j] - sc[j][i]) * mix[j] for j in range(3) if j != i)
    assert abs(a - pay[i]) < 1e-6, (i, a, pay[i])
    assert pay[i] <= 1e-6 and (mix[i] == 0 or abs(pay[i]) < 1e-6)
assert 0 <= n["cyclic_share"] <= 1
'
run match "${V[@]}" greedy ab:depth=2 --games 10 --json
json '
m = objs[0]
t = json.load(open(sys.argv[1].replace("out", "rr.json")))
assert [m["wins"], m["draws"], m["losses"]] == [t["cross"]["wins"][1][2], t["cross"]["draws"][1][2], t["cross"]["losses"][1][2]], (m, t["cross"])
'
run tournament "${V[@]}" random greedy ab:depth=2 --games 10 --json --threads 1 --quiet
check "the output does not depend on --threads" cmp -s "$tmp/out" "$tmp/rr.json"

# ----- text, CSV, gauntlet, anchor
run tournament "${V[@]}" random greedy ab:depth=2 --games 10 --quiet
check "text output has the rating list" grep -q "^rating list" "$tmp/out"
check "text output has the cross table" grep -q "^cross table" "$tmp/out"
check "text output has the pairings" grep -q "random *- greedy" "$tmp/out"
check "text output has the Nash average" grep -q "^Nash average" "$tmp/out"
check "text output says how cyclic the table is" grep -q "cyclic triads: " "$tmp/out"
run tournament "${V[@]}" random greedy ab:depth=2 --games 10 --csv --quiet
check "CSV starts with the rating header" test "$(head -1 "$tmp/out")" = "rank,player,elo,se,lo,hi,games,score,los_next,se_pool"
check "CSV has one row per player and opponent" test "$(grep -c '^[a-z:=0-9]*,[a-z:=0-9]*,10,' "$tmp/out")" -eq 6
run tournament "${V[@]}" greedy random ab:depth=1 ab:depth=2 --format gauntlet --games 4 --json --quiet --anchor 'ab:depth=1=100'
json '
o = objs[0]
w, d, l = o["cross"]["wins"], o["cross"]["draws"], o["cross"]["losses"]
g = [[w[i][j] + d[i][j] + l[i][j] for j in range(4)] for i in range(4)]
assert g[0] == [0, 4, 4, 4] and g[1][2] == g[1][3] == g[2][3] == 0
r = {x["player"]: x["elo"] for x in o["ratings"]}
assert r["ab:depth=1"] == 100
assert o["nash"] is None          # the score matrix of a gauntlet is not whole
'

# ----- the tournament file: inspect, h5py, resume of a finished file
run tournament "${V[@]}" random greedy ab:depth=2 --games 10 --json --quiet --output "$tmp/t.h5"
check "with --output the same output ($err)" cmp -s "$tmp/out" "$tmp/rr.json"
run inspect "$tmp/t.h5" --json
check "inspect --json of a tournament file gives the tournament's JSON" cmp -s "$tmp/out" "$tmp/rr.json"
run inspect "$tmp/t.h5"
check "inspect of a tournament file prints the rating list" grep -q "^rating list" "$tmp/out"
"$python" - "$tmp/t.h5" "$tmp/rr.json" <<'PY' && pass || fail "the tournament file holds the games, moves, cross table and ratings"
import sys, json, h5py, numpy as np
f, o = h5py.File(sys.argv[1], "r"), json.load(open(sys.argv[2]))
assert f.attrs["kind"] == b"tournament" and f.attrs["schema_version"] == 2
assert f.attrs["unit"] == b"game" and f.attrs["match_games"] == 0 and "matches" not in f
assert int(f.attrs["meetings_done"]) == int(f.attrs["meetings_total"]) == 15 and f.attrs["complete"] == 1
names = [n.decode() for n in f["players/name"][:]]
assert names == [p["name"] for p in o["players"]]
g = f["games"][:]
assert len(g) == 30 and len(f["moves"]) == int(g["plies"].sum())
assert (g["moves_at"][1:] == np.cumsum(g["plies"])[:-1]).all()
wins = np.zeros((3, 3), int)
for row in g:
    if row["winner"] == 0: wins[row["south"], row["north"]] += 1
    if row["winner"] == 1: wins[row["north"], row["south"]] += 1
assert (wins == np.array(o["cross"]["wins"])).all() and (wins == f["cross/wins"][:]).all()
r = f["ratings"][:]
for x in o["ratings"]:
    i = names.index(x["player"])
    assert abs(r["elo"][i] - x["elo"]) < 0.01 and r["rank"][i] == x["rank"]
PY
SOURCE_DATE_EPOCH=86400 "$nickar" tournament "${V[@]}" random greedy ab:depth=2 --games 10 --quiet --threads 1 --output "$tmp/th1.h5" >/dev/null
SOURCE_DATE_EPOCH=86400 "$nickar" tournament "${V[@]}" random greedy ab:depth=2 --games 10 --quiet --threads 2 --output "$tmp/th2.h5" >/dev/null
check "the file is the same bytes on 1 and 2 threads" cmp -s "$tmp/th1.h5" "$tmp/th2.h5"
cp "$tmp/t.h5" "$tmp/t0.h5"
run tournament "${V[@]}" random greedy ab:depth=2 --games 10 --json --quiet --output "$tmp/t.h5" --resume
check "--resume of a finished tournament prints it again ($err)" cmp -s "$tmp/out" "$tmp/rr.json"
check "--resume of a finished tournament leaves the file as it was" cmp -s "$tmp/t.h5" "$tmp/t0.h5"

# ----- a players file and run-file champions
run_cfg=$tmp/tiny.ini
tiny_config "$run_cfg" 3 greedy
run evolve "$run_cfg" --output "$tmp/tiny.h5" --quiet
check "the tiny run for the champions exits 0 ($err)" test "$rc" -eq 0
cat >"$tmp/players.txt" <<EOF
# reference players
rnd = random    # a comment after the spec
 greedy=greedy

champ = $tmp/tiny.h5@champions:every=2
EOF
run tournament "${V[@]}" --players "$tmp/players.txt" "$tmp/tiny.h5@champions" --games 2 --json --quiet
check "players file and champions exit 0 ($err)" test "$rc" -eq 0
json '
o = objs[0]
names = [p["name"] for p in o["players"]]
assert names == ["rnd", "greedy", "champ:g1", "champ:g3", "tiny:g1", "tiny:g2", "tiny:g3"], names
spec = {p["name"]: p["spec"] for p in o["players"]}
assert spec["tiny:g2"].startswith("ab:depth=1,features=positional,tt=0,weights=") and spec["tiny:g2"].endswith("tiny.h5@gen=2,rank=0"), spec
'

# ----- --unit match: every result a whole match, played as nickar match --unit match plays it
MV=(--variant antigua random greedy ab:depth=1 --unit match --match-games 5 --games 6 --quiet)
run tournament "${MV[@]}" --json --threads 2 --output "$tmp/m.h5"
check "a tournament of matches exits 0 ($err)" test "$rc" -eq 0
cp "$tmp/out" "$tmp/m.json"
run match --variant antigua greedy ab:depth=1 --unit match --match-games 5 --games 6 --json
cp "$tmp/out" "$tmp/mm.json"
"$python" - "$tmp/m.json" "$tmp/mm.json" "$tmp/m.h5" <<'PY' && pass || fail "unit match: the cross table counts matches, its games those of nickar match --unit match, the file holds both"
import sys, json, h5py, numpy as np
o, m, f = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), h5py.File(sys.argv[3], "r")
assert o["unit"] == "match" and o["match_games"] == 5 and o["matches_played"] == 18
c = o["cross"]
for i in range(3):
    for j in range(3):
        assert c["wins"][i][j] + c["draws"][i][j] + c["losses"][i][j] == (0 if i == j else 6)
# greedy (1) against ab:depth=1 (2): the same matches and games as nickar match
assert [c["wins"][1][2], c["draws"][1][2], c["losses"][1][2]] == [m["wins"], m["draws"], m["losses"]]
assert [c["games_wins"][1][2], c["games_draws"][1][2], c["games_losses"][1][2]] == [m["game_wins"], m["game_draws"], m["game_losses"]]
assert sum(map(sum, c["games_wins"])) + sum(map(sum, c["games_draws"])) // 2 == o["games_played"]
assert all(x["games"] == 12 for x in o["ratings"])      # matches, not games
assert f.attrs["schema_version"] == 2 and f.attrs["unit"] == b"match" and f.attrs["match_games"] == 5
mt, g = f["matches"][:], f["games"][:]
assert len(mt) == 18 and len(g) == o["games_played"] and mt["games"].sum() == len(g)
assert (mt["first_game"] == np.concatenate([[0], np.cumsum(mt["games"])[:-1]])).all()
assert (mt["games"] <= 5).all()
for k, x in enumerate(mt):
    gs = g[x["first_game"]:x["first_game"] + x["games"]]
    assert (gs["south"] == x["south"]).all() and (gs["north"] == x["north"]).all()
    sw, nw = (gs["winner"] == 0).sum(), (gs["winner"] == 1).sum()
    assert (sw, nw, (gs["winner"] == 2).sum()) == (x["south_wins"], x["north_wins"], x["draws"])
    assert x["winner"] == (0 if sw > nw else 1 if nw > sw else 2)    # Warri: more games won
    assert [int(v) for v in gs["first"]] == [i % 2 for i in range(len(gs))]   # the first mover alternates
# meeting m: match 2m has a at South, match 2m+1 b
assert (mt["south"][0::2] == mt["north"][1::2]).all()
PY
run inspect "$tmp/m.h5"
check "inspect shows the unit" grep -q "^unit      match: at most 5 games a match" "$tmp/out"
check "inspect reports matches and games" grep -q "^matches   18 of 18 (" "$tmp/out"
run tournament "${MV[@]}" --json --threads 1
check "unit match: the output does not depend on --threads" cmp -s "$tmp/out" "$tmp/m.json"
cp "$tmp/m.h5" "$tmp/m0.h5"
bad_m() { expect_error tournament "$1" tournament "${@:2}"; }
bad_m "it was made with --unit match, not game" --variant antigua random greedy ab:depth=1 --games 6 --quiet --output "$tmp/m.h5" --resume
bad_m "it was made with --match-games 5, not 7" --variant antigua random greedy ab:depth=1 --unit match --match-games 7 --games 6 --quiet --output "$tmp/m.h5" --resume
check "a refused --resume of a match tournament leaves its file" cmp -s "$tmp/m.h5" "$tmp/m0.h5"
bad_m "--match-games needs --unit match" --variant antigua random greedy --match-games 3
bad_m "bad value 'set' for --unit: expected one of auto, game, match" --variant antigua random greedy --unit set
bad_m "--match-games: " --variant antigua random greedy --unit match --match-games 100

# ----- a tournament file of schema 1 (before --unit; made by an older nickar) reads and resumes
cp "$srcdir/tests/tourfile_v1.h5" "$tmp/v1.h5"
run inspect "$tmp/v1.h5" --json
check "a schema-1 file reads ($err)" test "$rc" -eq 0
json '
o = objs[0]
assert o["unit"] == "game" and o["games_played"] == 12 and o["meetings_done"] == 6
assert [p["name"] for p in o["players"]] == ["random", "greedy", "ab:depth=1"]
assert o["ratings"][-1]["player"] == "random" and o["ratings"][-1]["elo"] == 0
'
cp "$tmp/out" "$tmp/v1.json"
run tournament --variant abapa random greedy ab:depth=1 --games 4 --quiet --json --output "$tmp/v1.h5" --resume
check "--resume of a finished schema-1 file prints it ($err)" cmp -s "$tmp/out" "$tmp/v1.json"
run tournament --variant abapa random greedy ab:depth=1 --games 4 --quiet --json
check "a schema-1 file holds what this nickar plays" cmp -s "$tmp/out" "$tmp/v1.json"

# ----- bad input: exit 2, one line, nothing written
bad() { local text=$1; shift; expect_error tournament "$text" tournament "$@"; }
nothing_written() { check "$1: nothing written" test ! -e "$tmp/bad.h5" -a ! -e "$tmp/bad.h5.tmp"; }
bad "--anchor 'nobody': no player of that name" "${V[@]}" random greedy --anchor nobody=0 --output "$tmp/bad.h5"
nothing_written "unknown anchor"
bad "--anchor 'random': give NAME=ELO" "${V[@]}" random greedy --anchor random --output "$tmp/bad.h5"
bad "duplicate player name 'greedy'" "${V[@]}" random greedy greedy --output "$tmp/bad.h5"
nothing_written "duplicate names"
printf 'a = random\nb = greedy\na = ab:depth=1\n' >"$tmp/dup.txt"
bad "dup.txt:3: duplicate player name 'a'" "${V[@]}" --players "$tmp/dup.txt" --output "$tmp/bad.h5"
printf 'a = random\n# fine\nb greedy\n' >"$tmp/badline.txt"
bad "badline.txt:3: expected 'NAME = SPEC'" "${V[@]}" --players "$tmp/badline.txt" --output "$tmp/bad.h5"
nothing_written "bad players line"
printf 'a = random\nb = ab:depth=zz\n' >"$tmp/badspec.txt"
bad "badspec.txt:2: " "${V[@]}" --players "$tmp/badspec.txt"
printf 'a = random\nb =  \n' >"$tmp/empty.txt"
bad "empty.txt:2: expected 'NAME = SPEC': the spec is empty" "${V[@]}" --players "$tmp/empty.txt"
bad "generation 9 is not in 1..3" "${V[@]}" random "ab:depth=1,weights=$tmp/tiny.h5@gen=9,rank=0" --output "$tmp/bad.h5"
nothing_written "missing generation"
bad "after '@champions' give nothing or ':every=K'" "${V[@]}" random "$tmp/tiny.h5@champions:every=0"
bad "after '@champions' give nothing or ':every=K'" "${V[@]}" random "$tmp/tiny.h5@champions:every=+2"
bad "after '@champions' give nothing or ':every=K'" "${V[@]}" random "$tmp/tiny.h5@champions:every=0x2"
bad "cannot open" "${V[@]}" random "$tmp/none.h5@champions"
bad "needs at least two players" "${V[@]}" random
bad "--format 'swiss'" "${V[@]}" random greedy --format swiss
bad "--resume needs --output" "${V[@]}" random greedy --resume
cp "$tmp/t.h5" "$tmp/keep.h5"
bad "already exists" "${V[@]}" random greedy ab:depth=2 --games 10 --output "$tmp/t.h5"
check "an existing file is not overwritten" cmp -s "$tmp/t.h5" "$tmp/keep.h5"
bad "was made with --games 10, not 12" "${V[@]}" random greedy ab:depth=2 --games 12 --output "$tmp/t.h5" --resume
bad "was made with --seed 1, not 2" "${V[@]}" random greedy ab:depth=2 --games 10 --seed 2 --output "$tmp/t.h5" --resume
bad "it has 3 players, not 2" "${V[@]}" random greedy --games 10 --output "$tmp/t.h5" --resume
bad "its player 3 is 'ab:depth=2', not 'ab:depth=3'" "${V[@]}" random greedy ab:depth=3 --games 10 --output "$tmp/t.h5" --resume
bad "--variant abapa, not antigua" --variant antigua random greedy ab:depth=2 --games 10 --output "$tmp/t.h5" --resume
check "a refused --resume leaves the file as it was" cmp -s "$tmp/t.h5" "$tmp/keep.h5"
echo "not hdf5" >"$tmp/junk.h5"
bad "--resume: " "${V[@]}" random greedy --output "$tmp/junk.h5" --resume
check "a refused --resume of a junk file leaves it" grep -q "not hdf5" "$tmp/junk.h5"
expect_exit 1 tournament "cannot create" tournament "${V[@]}" random greedy --quiet --output "$tmp/no/such/dir/t.h5"

finish
