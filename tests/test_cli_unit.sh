#!/usr/bin/env bash
# test_cli_unit.sh -- match play as a unit: `nickar match --unit match`
# (matches counted as results, the games inside reported, the same for any
# --threads, the records of every game), --sprt over matches, bad input,
# and an evolution's fitness.unit (parsed, stored in the run file's config,
# auto = match for adjikui).
# Usage: test_cli_unit.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

# ===== match --unit match =====
expect_ok match --variant adjikui --unit match --match-games 5 --games 6 --json greedy random
json '
o = objs[0]
assert o["unit"] == "match" and o["match_games"] == 5
assert o["games"] == 6 and o["pairs"] == 3 and o["wins"] + o["draws"] + o["losses"] == 6
g = o["games_played"]
assert 6 <= g <= 30, g
assert o["game_wins"] + o["game_draws"] + o["game_losses"] == g
assert sum(o["reasons"].values()) == g
assert sum(o["pentanomial"]) == 3
'
for v in adjikui antigua; do
  run match --variant $v --unit match --games 4 --threads 1 --json random greedy
  one=$out
  run match --variant $v --unit match --games 4 --threads 2 --json random greedy
  two=$out
  run match --variant $v --unit match --games 4 --threads 3 --json random greedy
  check "$v matches: threads 1, 2, 3 agree" test -n "$one" -a "$one" = "$two" -a "$one" = "$out"
done
# Warri: greedy beats random to six won games well before a limit of 11
expect_ok match --variant antigua --unit match --games 4 --json greedy random
json 'o = objs[0]; assert o["wins"] == 4 and 24 <= o["games_played"] < 44, o'

# text
expect_ok match --variant adjikui --unit match --games 2 greedy random
check "text: matches line" grep -q '^matches  2 in 1 colour-swapped pairs, at most 11 games a match' <<<"$out"
check "text: matches won" grep -q '^A: [0-9]* matches won, [0-9]* drawn, [0-9]* lost' <<<"$out"
check "text: games inside" grep -q '^games inside the matches: A [0-9]* wins' <<<"$out"

# records: every game of every match, each one replays
expect_ok match --variant adjikui --unit match --match-games 4 --games 2 --json \
  --records "$tmp/m.txt" random random
n=$("$python" -c 'import json,sys; print(json.loads(open(sys.argv[1]).read())["games_played"])' "$tmp/out")
check "records: one line a game" test "$(grep -c '^game ' "$tmp/m.txt")" -eq "$n"
for k in $(seq 1 "$n"); do
  run replay --game "$k" "$tmp/m.txt"
  [[ $rc -eq 0 ]] || break
done
check "records: every game replays" test "$rc" -eq 0
# the first game of each match starts with the default rows; some later
# game of a random-against-random match starts with other owners
check "records: games from bought pits" \
  test "$(grep -c 'record=4,4,4,4,4,4/4,4,4,4,4,4 0-0 S ' "$tmp/m.txt")" -lt "$n"

# --unit game is the default and plays as before
run match --variant antigua --games 6 --json random greedy
one=$out
expect_ok match --variant antigua --games 6 --unit game --json random greedy
check "--unit game: as the default" test "$one" = "$out"

# the SPRT counts matches
expect_ok match --variant antigua --unit match --sprt elo0=0,elo1=50 --json greedy random
json 'o = objs[0]; assert o["sprt"]["decision"] == "H1" and o["unit"] == "match"'

# ===== bad input =====
expect_error match "bad value 'set' for --unit: expected one of auto, game, match" match --variant antigua \
  --unit set random greedy
expect_error match "--match-games needs --unit match" match --variant antigua \
  --match-games 3 random greedy
expect_error match "bad value '0' for --match-games" match --variant antigua --unit match \
  --match-games 0 random greedy
expect_error match "bad value '100' for --match-games" match --variant antigua --unit match \
  --match-games 100 random greedy

# ===== play --unit match =====
# The person's moves come from a pipe that cycles through every pit letter
# (illegal ones are answered and skipped), so every game ends.
moves() { for _ in $(seq 1 400); do printf 'a\nb\nc\nd\ne\nf\nA\nB\nC\nD\nE\nF\n'; done; }
moves | "$nickar" play --variant adjikui --opponent random --unit match --match-games 3 \
  --record "$tmp/pm.txt" >"$tmp/play.txt" 2>"$tmp/err"
rc=$?; out=$(cat "$tmp/play.txt")
check "play match: exit 0" test "$rc" -eq 0 -a ! -s "$tmp/err"
check "play match: three games" test "$(grep -c '^=== Game [123] of the match (at most 3)' <<<"$out")" -eq 3
check "play match: over" grep -q '^Match over after 3 games: ' <<<"$out"
check "play match: records of the 3 games" test "$(grep -c '^game ' "$tmp/pm.txt")" -eq 3
for k in 1 2 3; do
  run replay --game $k "$tmp/pm.txt"
  check "play match: game $k replays" test "$rc" -eq 0
done
# the owners each game announces are those of its record (R-K9)
"$python" - "$tmp/play.txt" "$tmp/pm.txt" <<'PY' && pass || fail "play match: owners"
import re, sys
out = open(sys.argv[1]).read()
ann = [(int(a), int(b)) for a, b in re.findall(r"South owns (\d+) pits, North (\d+)", out)]
recs = [l.split("record=", 1)[1].split() for l in open(sys.argv[2]) if l.startswith("game ")]
assert len(ann) == 3 == len(recs)
for (south, north), r in zip(ann, recs):
    owners = r[3] if len(r[3]) == 12 and set(r[3]) <= set("SN") else "S" * 6 + "N" * 6
    assert owners.count("S") == south and owners.count("N") == north, (owners, south, north)
assert ann[0] == (6, 6)
PY
# Warri: quitting stops the match
printf 'quit\n' | "$nickar" play --variant antigua --opponent greedy --unit match >"$tmp/out" 2>&1
check "play match: quit" grep -q '^Match stopped after 0 finished games: you quit.' "$tmp/out"
expect_error play "--position cannot be used with --unit match" play --variant antigua \
  --opponent greedy --unit match --position "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S"
expect_error play "--match-games needs --unit match" play --variant antigua --opponent greedy \
  --match-games 3
expect_error play "bad value 'x' for --unit: expected one of auto, game, match" play \
  --variant antigua --opponent greedy --unit x
# --unit auto (the values of fitness.unit): a match for adjikui, a game otherwise
printf 'quit\n' | "$nickar" play --variant adjikui --opponent greedy --unit auto >"$tmp/out" 2>&1
check "play --unit auto: adjikui plays a match" \
  grep -q '^Match stopped after 0 finished games: you quit.' "$tmp/out"
printf 'quit\n' | "$nickar" play --variant antigua --opponent greedy --unit auto >"$tmp/out" 2>&1
check "play --unit auto: antigua plays a game" \
  sh -c "! grep -q '^Match stopped' '$tmp/out'"

# ===== fitness.unit =====
cfg=$tmp/tiny.ini
tiny_config "$cfg" 1 random
expect_error evolve "fitness.unit: 'set' is not one of auto, game, match" evolve "$cfg" \
  --set fitness.unit=set --output "$tmp/bad.h5" --quiet
check "bad fitness.unit: no run file" test ! -e "$tmp/bad.h5"
expect_error evolve "fitness.match_games" evolve "$cfg" --set fitness.match_games=0 \
  --output "$tmp/bad.h5" --quiet

expect_ok evolve "$cfg" --output "$tmp/game.h5" --quiet
expect_ok evolve "$cfg" --set fitness.unit=match --set fitness.match_games=3 \
  --output "$tmp/match.h5" --quiet
expect_ok evolve "$cfg" --set experiment.variant=adjikui --set player.features=adjikui \
  --output "$tmp/adji.h5" --quiet
"$python" - "$tmp/game.h5" "$tmp/match.h5" "$tmp/adji.h5" <<'PY' && pass || fail "fitness.unit in the run files"
import sys, h5py
def text(x):
    return x.decode() if isinstance(x, bytes) else str(x)
def fitness(path):
    with h5py.File(path, "r") as f:
        cfg = text(f.attrs["config"])
        sec = cfg[cfg.index("[fitness]"):]
        sec = sec[:sec.index("[benchmark]")]
        keys = dict(l.split(" = ", 1) for l in sec.splitlines() if " = " in l and not l.startswith(";"))
        return keys
g, m, a = (fitness(p) for p in sys.argv[1:])
assert g["unit"] == "auto" and g["match_games"] == "11", g
assert m["unit"] == "match" and m["match_games"] == "3", m
assert a["unit"] == "auto", a
PY
# four players in a round robin: 6 meetings, 12 games as games; as Abapa
# matches of at most 3 games, 36 (no one reaches six wins within 3 games,
# so every match runs to its limit)
"$python" - "$tmp/game.h5" "$tmp/match.h5" <<'PY' && pass || fail "fitness.unit: games per generation"
import sys, h5py
def played(path):
    with h5py.File(path, "r") as f:
        s = f["stats"][0]
        return int(s["games"])
g, m = (played(p) for p in sys.argv[1:])
assert g == 12, g
assert m == 36, m
PY

# every stored game of the match runs plays again from its run file
# (RUN.h5@game=K: the game's start follows from the match's games before)
for src in match adji; do
  n=$("$python" -c 'import h5py, sys; print(len(h5py.File(sys.argv[1])["games"]))' "$tmp/$src.h5")
  ok=0 owned=0
  for k in $(seq 1 "$n"); do
    run replay "$tmp/$src.h5@game=$k"
    [[ $rc -eq 0 ]] && ok=$((ok + 1))
    [[ $(tail -1 <<<"$out") == *"record="*" "[SN][SN][SN][SN][SN][SN][SN][SN][SN][SN][SN][SN]" "* ]] &&
      owned=$((owned + 1))
  done
  check "$src.h5: all $n stored games play again ($ok)" test "$n" -gt 0 -a "$ok" -eq "$n"
  [[ $src == adji ]] && check "adji.h5: games with bought pits among them ($owned)" test "$owned" -gt 0
done

finish
