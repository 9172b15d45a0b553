#!/usr/bin/env bash
# test_cli_view.sh -- game records and `nickar view`, checked in a browser:
# a page made from a match's records is opened in headless Chromium with a
# URL fragment, and the position its DOM shows must be the one `nickar
# replay --json` reaches for that game and ply; the page must log no
# console error and its screenshot must not be blank.  Damaged records are
# refused with one line naming FILE:LINE and what is wrong.  Chromium is a
# dependency (scripts/setup.sh installs it): without it this test fails.
source "$(dirname "$0")/lib_cli.sh"

browser=$(command -v chromium || command -v chromium-browser || true)
check "chromium is installed (scripts/setup.sh installs it)" test -n "$browser"
[[ -n $browser ]] || finish

# Runs the browser on URL; what it logs goes to $tmp/console.
chrome() {
  timeout 120 "$browser" --headless --disable-gpu --no-sandbox --no-first-run \
    --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
    --virtual-time-budget=5000 "$@" 2>"$tmp/console"
}
# The DOM of the page at fragment $1, in $tmp/dom.
dom() { chrome --dump-dom "file://$tmp/page.html#$1" >"$tmp/dom"; }
# What the DOM shows, as one JSON object: position text, ply, status, the
# pits' seeds by index, the stores, the cells marked as the other row's.
shown() {
  "$python" - "$tmp/dom" <<'PY'
import json, re, sys
d = open(sys.argv[1]).read()
pos = re.search(r'id="position" data-ply="(\d+)">([^<]*)<', d)
status = re.search(r'id="status">([^<]*)<', d)
pits = {int(i): int(n) for i, n in re.findall(r'id="pit-(\d+)" data-seeds="(\d+)"', d)}
stores = [int(re.search(r'id="store-%s"[^>]*>(\d+)<' % s, d).group(1)) for s in "sn"]
print(json.dumps({"ply": int(pos.group(1)), "position": pos.group(2),
                  "status": status.group(1), "pits": [pits[i] for i in range(12)],
                  "stores": stores, "other": len(re.findall(r'class="pit [^"]*other', d))}))
PY
}
# No console message at all from the page (its errors are logged as CONSOLE).
no_console() { ! grep -q "CONSOLE" "$tmp/console"; }

# ===== records from a match =====
expect_ok match --variant antigua --games 4 --threads 2 --seed 3 --records "$tmp/games.rec" \
  ab:depth=2 greedy
check "match --records: one line a game" test "$(wc -l <"$tmp/games.rec")" -eq 4
check "match --records: the format" grep -qE '^game variant=antigua limit=1000 south=greedy north=ab:depth=2 result=(S|N|draw) score=[0-9]+-[0-9]+ reason=[a-z-]+ plies=[0-9]+ record=4,4,4,4,4,4/4,4,4,4,4,4 0-0 S( [a-fA-F-])+$' <(sed -n 2p "$tmp/games.rec")
run match --variant antigua --games 4 --threads 2 --seed 3 ab:depth=2 greedy
plain=$out
run match --variant antigua --games 4 --threads 1 --seed 3 --records "$tmp/games1.rec" ab:depth=2 greedy
check "match: --records does not change the output" test "$out" = "$plain"
check "match --records: the same games on 1 and 2 threads" cmp -s "$tmp/games.rec" "$tmp/games1.rec"

# replay reads a record and prints the same line back
expect_ok replay "$tmp/games.rec" --game 2
check "replay RECORDS: prints the game's line again" test "$(tail -1 <<<"$out")" = "$(sed -n 2p "$tmp/games.rec")"
expect_ok replay --json "$tmp/games.rec" --game 2
"$python" -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
print(json.dumps({"last": objs[-2]["position"], "plies": objs[-1]["plies"], "p5": objs[4]["position"]}))
' "$tmp/out" >"$tmp/want"
want_last=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["last"])' "$tmp/want")
want_p5=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["p5"])' "$tmp/want")
plies=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["plies"])' "$tmp/want")
expect_ok show --variant antigua --position "$want_last" --json
show_last=$out

# ===== the page =====
expect_ok view "$tmp/games.rec" -o "$tmp/page.html"
check "view: a page was written" test -s "$tmp/page.html"
check "view: the page fetches nothing" bash -c "! grep -qiE '(src|href)=|https?://|@import|fetch\(' '$tmp/page.html'"
expect_ok view "$tmp/games.rec"
check "view: without -o the page goes to stdout" test "$out" = "$(cat "$tmp/page.html")"

dom "game=2&ply=last"
shown >"$tmp/shown"
check "page #game=2&ply=last: no console message" no_console
check "page #game=2&ply=last: the position of nickar replay --json" "$python" -c '
import json, sys
s = json.load(open(sys.argv[1])); want = json.loads(sys.stdin.read())
assert s["position"] == sys.argv[2], (s, sys.argv[2])
assert s["ply"] == int(sys.argv[3]), s
assert s["pits"] == want["pits"] and s["stores"] == want["stores"], (s, want)
assert s["status"] == "ok: game 2 of 4, ply %s" % sys.argv[3], s
' "$tmp/shown" "$want_last" "$plies" <<<"$show_last"

dom "game=2&ply=5"
shown >"$tmp/shown"
check "page #game=2&ply=5: the position after five plies" "$python" -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["position"] == sys.argv[2] and s["ply"] == 5, s
' "$tmp/shown" "$want_p5"

dom "game=3&ply=0"
shown >"$tmp/shown"
check "page ply=0: the start" "$python" -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["position"] == "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S" and s["ply"] == 0, s
assert s["pits"] == [4] * 12 and s["stores"] == [0, 0], s
assert s["status"] == "ok: game 3 of 4, ply 0", s
' "$tmp/shown"
check "page ply=0: no console message" no_console

# The check of the console works: a game that does not exist is logged.
dom "game=9&ply=1"
check "page #game=9: the console error is seen" grep -q 'CONSOLE.*no game 9' "$tmp/console"

chrome --hide-scrollbars --window-size=900,900 --screenshot="$tmp/shot.png" \
  "file://$tmp/page.html#game=1&ply=7" >/dev/null
check "screenshot taken" test -s "$tmp/shot.png"
check "screenshot not blank (many colours)" "$python" -c '
import sys, matplotlib.image as mi
import numpy as np
a = mi.imread(sys.argv[1])
colours = len(np.unique(a.reshape(-1, a.shape[-1]), axis=0))
assert a.shape[0] > 100 and colours > 50, colours
' "$tmp/shot.png"

# ===== Adji Kui II: the owners of the pits =====
owners_start='4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSNNNNNNS'
expect_ok replay --variant adjikui --position "$owners_start" --random --seed 3
tail -1 <<<"$out" >"$tmp/adji.rec"
check "replay: its last line is a game record" grep -q "^game variant=adjikui .* record=$owners_start" "$tmp/adji.rec"
expect_ok view "$tmp/adji.rec" -o "$tmp/page.html"
dom "ply=0"
shown >"$tmp/shown"
check "adjikui page: two pits shown as the other row's" "$python" -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["other"] == 2 and s["position"] == sys.argv[2], s
' "$tmp/shown" "$owners_start"
check "adjikui page: no console message" no_console
check "adjikui page: the relay's laps are in the data" grep -q '"laps":' "$tmp/page.html"

# ===== play --record, then view =====
printf 'quit\n' | "$nickar" play --variant abapa --opponent greedy --as N --record "$tmp/play.rec" >/dev/null
check "play --record: an unfinished game" grep -q '^game variant=abapa limit=1000 south=greedy north=human result=none score=- reason=none plies=1 ' "$tmp/play.rec"
expect_ok view "$tmp/play.rec" "$tmp/games.rec" --game 1 -o "$tmp/one.html"
check "view --game 1: one game" grep -q '"title":"nickar view: 1 game"' "$tmp/one.html"

# ===== scripts/game_pngs.py: PNGs of a game's key positions (scripts/board.py) =====
"$python" "$srcdir/scripts/game_pngs.py" "$tmp/games.rec" --game 2 --nickar "$nickar" \
  -o "$tmp/pngs" >"$tmp/pngs.txt" 2>"$tmp/pngs.err"
check "game_pngs.py: exit 0 ($(head -c 200 "$tmp/pngs.err"))" test $? -eq 0
check "game_pngs.py: the start and the end among the PNGs" \
  grep -qE "game-2-ply-0.png" "$tmp/pngs.txt"
check "game_pngs.py: the last ply" grep -q "game-2-ply-$plies.png" "$tmp/pngs.txt"
check "game_pngs.py: the pictures are not blank" "$python" -c '
import sys, matplotlib.image as mi, numpy as np
paths = open(sys.argv[1]).read().split()
assert len(paths) >= 2, paths
for p in paths:
    a = mi.imread(p)
    assert len(np.unique(a.reshape(-1, a.shape[-1]), axis=0)) > 20, p
' "$tmp/pngs.txt"
check "board.py: reads show --json and R-B3 text alike" "$python" -c '
import json, sys
sys.path.insert(0, sys.argv[1] + "/scripts")
import board
shown = json.loads(sys.argv[2])
assert board.position_of(shown["position"]) == {k: shown[k] for k in ("pits", "stores", "owners")} | {"to_move": shown["to_move"]}
' "$srcdir" "$show_last"

# ===== games of a run file, played again (RUN.h5@game=K, RUN.h5@gen=G,game=J) =====
tiny_config "$tmp/tiny.ini" 2 greedy
printf '[output]\nrecord_games = on\nfile = %s\n' "$tmp/run.h5" >>"$tmp/tiny.ini"
"$nickar" evolve "$tmp/tiny.ini" --force >/dev/null 2>&1
check "a tiny run with its games recorded" test -s "$tmp/run.h5"
sed "s/^schedule = round-robin/schedule = gauntlet/; s|$tmp/run.h5|$tmp/gauntlet.h5|" \
  "$tmp/tiny.ini" >"$tmp/gauntlet.ini"
"$nickar" evolve "$tmp/gauntlet.ini" --force >/dev/null 2>&1
check "a tiny gauntlet run with its games recorded" test -s "$tmp/gauntlet.h5"
sed "s/^schedule = round-robin/schedule = hall-of-fame\nk = 3/; s/^generations = 2/generations = 4/; s|$tmp/run.h5|$tmp/hall.h5|" \
  "$tmp/tiny.ini" >"$tmp/hall.ini"
"$nickar" evolve "$tmp/hall.ini" --force >/dev/null 2>&1
check "a tiny hall-of-fame run with its games recorded" test -s "$tmp/hall.h5"
check "... whose games include hall of fame entrants (ids -1, -2, ...)" "$python" -c '
import h5py, sys
with h5py.File(sys.argv[1]) as f:
    g = f["games"][:]
assert any(-1000 < r[k] < 0 for r in g for k in ("south_id", "north_id")), "no hall entrant"
' "$tmp/hall.h5"
"$python" - "$tmp/run.h5" "$tmp/gauntlet.h5" "$tmp/hall.h5" >"$tmp/rows" <<'PY'
import h5py, sys
for path in sys.argv[1:]:
    with h5py.File(path) as f:
        g = f["games"][:]
        print(len(g), " ".join("%s,%d-%d,%d,%d" % ("S" if r["winner"] == 0 else "N" if r["winner"] == 1 else "draw", r["south_seeds"], r["north_seeds"], r["plies"], r["generation"]) for r in g))
PY
regen_ok=0
declare -A line_of=([run]=1 [gauntlet]=2 [hall]=3)
for src in run gauntlet hall; do
  read -r nrows rows <<<"$(sed -n "${line_of[$src]}p" "$tmp/rows")"
  k=0
  for row in $rows; do
    k=$((k + 1))
    IFS=, read -r winner score plies gen <<<"$row"
    run replay "$tmp/$src.h5@game=$k"
    line=$(tail -1 <<<"$out")
    [[ $rc -eq 0 && $line == "game variant=abapa limit=1000 "*" result=$winner score=$score "*" plies=$plies record="* ]] &&
      regen_ok=$((regen_ok + 1))
  done
  check "$src.h5: every stored game played again ($regen_ok of $k so far)" test "$regen_ok" -gt 0
done
total=$(awk '{n += $1} END {print n}' "$tmp/rows")
check "every game of the three runs regenerates to its stored result ($regen_ok of $total)" test "$regen_ok" -eq "$total"
expect_ok replay "$tmp/gauntlet.h5@gen=2,game=2"
check "a gauntlet player is named by its spec" grep -q "^game variant=abapa limit=1000 south=greedy north=ab:depth=1,features=positional,tt=0,id=" <<<"$out"
expect_ok view "$tmp/run.h5@gen=1,game=3" "$tmp/gauntlet.h5@game=1" "$tmp/games.rec" -o "$tmp/page.html"
dom "game=1&ply=last"
shown >"$tmp/shown"
expect_ok replay --json "$tmp/run.h5@gen=1,game=3"
check "page of a run file's game: its last position" "$python" -c '
import json, sys
s = json.load(open(sys.argv[1]))
objs = [json.loads(l) for l in open(sys.argv[2])]
assert s["position"] == objs[-2]["position"] and s["ply"] == objs[-1]["plies"], (s, objs[-1])
assert s["status"] == "ok: game 1 of 6, ply %d" % objs[-1]["plies"], s
' "$tmp/shown" "$tmp/out"
check "page of a run file's game: no console message" no_console
cp "$tmp/run.h5" "$tmp/bad.h5"
"$python" -c '
import h5py, sys
with h5py.File(sys.argv[1], "r+") as f:
    g = f["games"]; r = g[4]; r["plies"] += 1; g[4] = r
' "$tmp/bad.h5"
expect_error replay "$tmp/bad.h5@game=5: the game played again ends" replay "$tmp/bad.h5@game=5"
expect_error view "the stored one" view "$tmp/bad.h5@game=5"
expect_error replay "game=999: the run file holds" replay "$tmp/run.h5@game=999"
expect_error replay "gen=3,game=1: generation 3 holds 0 games" replay "$tmp/run.h5@gen=3,game=1"
expect_error replay "after '@' give game=K or gen=G,game=J" replay "$tmp/run.h5@game=x"
expect_error replay "after '@' give game=K or gen=G,game=J" replay "$tmp/run.h5@game=+1"
expect_error replay "after '@' give game=K or gen=G,game=J" replay "$tmp/run.h5@gen=1,game=0x1"
expect_error view "cannot open" view "$tmp/missing.h5@game=1"

# ===== bad records: exit 2, one line naming FILE:LINE and what is wrong =====
sed '3s/variant=antigua/variant=oware/' "$tmp/games.rec" >"$tmp/bad.rec"
expect_error view "$tmp/bad.rec:3: unknown variant 'oware'" view "$tmp/bad.rec"
expect_error replay "$tmp/bad.rec:3: unknown variant 'oware'" replay "$tmp/bad.rec" --game 3
first=$(head -1 "$tmp/games.rec")
{ echo '# a comment'; echo "${first:0:${#first}-10}"; } >"$tmp/bad.rec"
expect_error view "$tmp/bad.rec:2: plies=" view "$tmp/bad.rec"
sed '1s/ reason=[a-z-]*/ reason=boredom/' "$tmp/games.rec" >"$tmp/bad.rec"
expect_error view "$tmp/bad.rec:1: unknown end reason 'boredom'" view "$tmp/bad.rec"
sed '1s/ score=[0-9]*-/ score=99-/' "$tmp/games.rec" >"$tmp/bad.rec"
expect_error view "$tmp/bad.rec:1: the moves end in" view "$tmp/bad.rec"
sed '1s/ limit=1000 / /' "$tmp/games.rec" >"$tmp/bad.rec"
expect_error view "$tmp/bad.rec:1: expected limit=" view "$tmp/bad.rec"
sed '1s/ 0-0 S ./ 0-0 S x/' "$tmp/games.rec" >"$tmp/bad.rec"
expect_error view "$tmp/bad.rec:1: bad move 1 'x'" view "$tmp/bad.rec"
sed '1s/record=4,4,4,4,4,4\/4,4,4,4,4,4 0-0 S d/record=4,4,4,4,4,4\/4,4,4,4,4,4 0-0 S D/' \
  "$tmp/games.rec" >"$tmp/bad.rec"
if ! cmp -s "$tmp/bad.rec" "$tmp/games.rec"; then
  expect_error view "$tmp/bad.rec:1: move 1 'D' is illegal" view "$tmp/bad.rec"
fi
printf '# only a comment\n\n' >"$tmp/empty.rec"
expect_error view "no game record" view "$tmp/empty.rec"
expect_error view "cannot open '$tmp/missing.rec'" view "$tmp/missing.rec"
expect_error view "needs at least one records file" view
expect_error view "--game 9: the records hold 4 games" view "$tmp/games.rec" --game 9
expect_error replay "--game 5: '$tmp/games.rec' holds 4 games" replay "$tmp/games.rec" --game 5
expect_error match "option '--records' needs a file name" match --variant antigua --records= a b
expect_exit 1 match "cannot write the game records to '/nonexistent-dir/g.rec'" \
  match --variant antigua --games 2 --records /nonexistent-dir/g.rec greedy random

# A move without --variant is still a missing --variant, not a missing file.
expect_error replay "missing --variant V" replay c
expect_error replay "missing --variant V" replay 'c D'
expect_error replay "a records file gives the start and the moves" replay "$tmp/games.rec" --random
expect_error replay "option '--game' needs a records file" replay --variant antigua --game 2 c

finish
