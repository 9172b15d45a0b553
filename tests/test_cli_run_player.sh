#!/usr/bin/env bash
# test_cli_run_player.sh -- a run's evolving player, rebuilt from its run
# file, is the player that evolved (run/settings.h, nk_run_player_of).  On
# a small `view = root` run whose evaluation is not symmetric (ayo12 with
# unequal weights on awari, so root and mover views search differently):
# - RUN.h5@game=K plays every recorded game again to the stored result,
#   seeds and plies, with players named view=root;
# - `nickar ciao` names the run's player with view=root and plays it: its
#   score matrix is that of `nickar match` between the same champions
#   written out by hand with view=root;
# - RUN.h5@champions names view=root players and plays them: its cross
#   table is that of the same champions written out by hand.
# And no file of src/ but run/settings.c writes the evolving player's spec
# by hand.  Each "plays" check also makes sure the view changes that very result
# (the mover-view players score otherwise), so it cannot pass vacuously.
# Usage: test_cli_run_player.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

cat >"$tmp/vr.ini" <<INI
[experiment]
name = vr
seed = 11
variant = awari
generations = 4
[player]
features = ayo12
depth = 2
view = root
weights_min = 0
weights_max = 1
[population]
size = 4
[fitness]
schedule = round-robin
openings = 2
[benchmark]
every = 0
[output]
record_games = on
INI
run evolve "$tmp/vr.ini" --output "$tmp/vr.h5" --quiet
check "a view=root run with recorded games ($err)" test "$rc" -eq 0

# ===== RUN.h5@game=K =====
ngames=$("$python" -c 'import h5py, sys; print(len(h5py.File(sys.argv[1], "r")["games"]))' "$tmp/vr.h5")
check "the run recorded its games ($ngames)" test "${ngames:-0}" -gt 0
replayed=0 named=0
for k in $(seq 1 "${ngames:-0}"); do
  run replay "$tmp/vr.h5@game=$k"
  if [[ $rc -eq 0 ]]; then
    replayed=$((replayed + 1))
  elif [[ $replayed -eq $((k - 1)) ]]; then
    echo "  first mismatch, game $k: ${err:0:300}"
  fi
  rec=$(grep '^game ' <<<"$out")
  [[ $rec == *"south=ab:depth=2,features=ayo12,tt=0,view=root,id="* ||
     $rec == *"north=ab:depth=2,features=ayo12,tt=0,view=root,id="* ]] && named=$((named + 1))
done
out=
check "RUN.h5@game=K plays all $ngames recorded games to their stored result ($replayed did)" \
  test "$replayed" -eq "$ngames"
check "RUN.h5@game=K names the evolving players view=root ($named of $ngames games)" \
  test "$named" -eq "$ngames"

# ===== nickar ciao =====
champ() { # GEN VIEW: a champion of the run written out by hand
  echo "ab:depth=2,features=ayo12,tt=0$2,weights=$tmp/vr.h5@gen=$1,rank=0"
}
run ciao "$tmp/vr.h5" --every 2 --games 20 --seed 2 --json --output "$tmp/vr.ciao.h5"
check "ciao of the view=root run exits 0 ($err)" test "$rc" -eq 0
json 'assert objs[0]["player"] == "ab:depth=2,features=ayo12,tt=0,view=root", objs[0]["player"]'
run match --variant awari "$(champ 2 ,view=root)" "$(champ 4 ,view=root)" --games 20 --seed 2 --json
cp "$tmp/out" "$tmp/root.json"
run match --variant awari "$(champ 2 "")" "$(champ 4 "")" --games 20 --seed 2 --json
cp "$tmp/out" "$tmp/mover.json"
"$python" - "$tmp/vr.ciao.h5" "$tmp/root.json" "$tmp/mover.json" <<'PY' && pass || fail "ciao plays the view=root champions (its games are nickar match's between them)"
import json, sys, h5py
f = h5py.File(sys.argv[1], "r")
root, mover = (json.load(open(p)) for p in sys.argv[2:4])
got = [int(f[k][0, 1]) for k in ("wins", "draws", "losses")]
want = [root[k] for k in ("wins", "draws", "losses")]
other = [mover[k] for k in ("wins", "draws", "losses")]
assert want != other, "the view does not change these games: the check would not tell"
assert got == want, (got, "view=root", want, "mover", other)
PY

# ===== RUN.h5@champions =====
T=(--variant awari --games 10 --seed 4 --json --quiet)
run tournament "${T[@]}" "$tmp/vr.h5@champions:every=2"
check "a tournament of the view=root run's champions exits 0 ($err)" test "$rc" -eq 0
cp "$tmp/out" "$tmp/champions.json"
for view in ,view=root ""; do
  : >"$tmp/players$view.txt"
  for g in 1 3 4; do echo "vr:g$g = $(champ $g "$view")" >>"$tmp/players$view.txt"; done
  run tournament "${T[@]}" --players "$tmp/players$view.txt"
  cp "$tmp/out" "$tmp/hand$view.json"
done
out=
"$python" - "$tmp/champions.json" <<'PY' && pass || fail "@champions names the view=root champions"
import json, sys
players = json.load(open(sys.argv[1]))["players"]
assert [p["name"] for p in players] == ["vr:g1", "vr:g3", "vr:g4"], players
for p in players:
    assert ",tt=0,view=root,weights=" in p["spec"], p["spec"]
PY
"$python" - "$tmp/champions.json" "$tmp/hand,view=root.json" "$tmp/hand.json" <<'PY' && pass || fail "@champions plays the view=root champions (its cross table is theirs)"
import json, sys
champions, root, mover = (json.load(open(p))["cross"] for p in sys.argv[1:4])
assert root != mover, "the view does not change these games: the check would not tell"
assert champions == root, ("@champions", champions, "view=root", root, "mover", mover)
PY

# ===== one source =====
hand=$(grep -rln '"ab:depth=%d' "$srcdir/src" | sed "s|^$srcdir/src/||" | sort | tr '\n' ' ')
check "only run/settings.c writes the run's player spec (found in: $hand)" test "$hand" = "run/settings.c "

finish
