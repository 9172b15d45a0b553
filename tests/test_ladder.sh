#!/usr/bin/env bash
# test_ladder.sh -- experiments/ladder/run.sh --quick: for every variant a
# rating list of the reference players (Markdown, JSON, the TSV that nickar
# rate reads) anchored at random = 0, and the depth check's report; then
# nickar rate against that quick ladder.
source "$(dirname "$0")/lib_cli.sh"
out=$tmp/ladder
NICKAR=$nickar "$srcdir/experiments/ladder/run.sh" --quick --out "$out" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "run.sh --quick exits 0 ($(tail -c 300 "$tmp/err"))" test "$rc" -eq 0
for v in antigua speightstown bridgetown adjikui abapa; do
  check "$v: the Markdown list" grep -q "^| 1 | " "$out/$v.md"
  check "$v: the depth check is reported" grep -q "^- \`material\`: d1 .*, d2 " "$out/$v.md"
  check "$v: the tournament file" test -s "$out/$v.h5"
  "$python" - "$out/$v.json" "$out/$v.tsv" "$v" <<'PY' && pass || fail "$v: JSON and TSV"
import json, sys
t = json.load(open(sys.argv[1]))
names = [p["name"] for p in t["players"]]
fam = "adjikui" if sys.argv[3] == "adjikui" else "positional"
assert names == ["random", "greedy", "material-d1", "material-d2", f"{fam}-d1", f"{fam}-d2"], names
r = {x["player"]: x["elo"] for x in t["ratings"]}
assert r["random"] == 0 and t["anchor"] == "random"
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if not l.startswith("#")]
players = [x for x in rows if not x[0].startswith("@")]
assert len(players) == 6 and all(abs(float(e) - r[n]) < 0.01 for n, s, e in players)
# the ladder's own results: the anchor and the cross table, one line a pairing
assert ["@anchor", "random", "0"] in rows
wdl = {(x[1], x[2]): list(map(int, x[3:])) for x in rows if x[0] == "@wdl"}
c = t["cross"]
for i in range(6):
    for j in range(i + 1, 6):
        assert wdl[(names[i], names[j])] == [c["wins"][i][j], c["draws"][i][j], c["losses"][i][j]]
PY
done
check "the depth check is printed" grep -q "grows with depth\|does not grow" "$tmp/err"

# nickar rate: a gauntlet against the quick ladder (run sets $out: keep the ladder in $lq)
lq=$out
run rate --variant abapa --ladder "$lq/abapa.tsv" --games 4 --json ab:depth=3
check "rate exits 0 ($err)" test "$rc" -eq 0
json '
o = objs[0]
assert o["player"] == "ab:depth=3" and len(o["opponents"]) == 6 and o["games"] == 24
assert o["ci"][0] < o["elo"] < o["ci"][1]
assert all(x["games"] == 4 for x in o["opponents"])
# fitted with the ladder results (4 games a pairing: virtual draws enter, so the two
# intervals are not compared here; test_arena_rating compares them on a known case)
assert o["joint"] is True and o["se"] > 0 and o["fixed_se"] > 0, o
'
expect_error rate "no ladder" rate --variant abapa --ladder "$tmp/none.tsv" greedy
printf 'a\tb\n' >"$tmp/bad.tsv"
expect_error rate "bad.tsv:1: " rate --variant abapa --ladder "$tmp/bad.tsv" greedy
# a ladder without its results: the ratings held exact
grep -v '^@' "$lq/abapa.tsv" >"$tmp/nores.tsv"
run rate --variant abapa --ladder "$tmp/nores.tsv" --games 4 --json ab:depth=3
json '
o = objs[0]
assert o["joint"] is False and o["se"] == o["fixed_se"] and o["elo"] == o["fixed_elo"]
'
# damaged ladders: exit 2, one line naming the line
damaged() { # NAME SED-SCRIPT MESSAGE
  sed "$2" "$lq/abapa.tsv" >"$tmp/$1.tsv"
  expect_error rate "$3" rate --variant abapa --ladder "$tmp/$1.tsv" --games 2 greedy
}
line=$(grep -n '^@wdl' "$lq/abapa.tsv" | head -1 | cut -d: -f1)
damaged wdlcount "${line}s/\t[0-9]*\$/\t-3/" "wdlcount.tsv:$line: expected @wdl<TAB>A<TAB>B<TAB>W<TAB>D<TAB>L"
damaged wdlplus "${line}s/\t\([0-9]*\)\$/\t+\1/" "wdlplus.tsv:$line: expected @wdl<TAB>A<TAB>B<TAB>W<TAB>D<TAB>L"
damaged wdlspace "${line}s/\t\([0-9]*\)\$/\t \1/" "wdlspace.tsv:$line: expected @wdl<TAB>A<TAB>B<TAB>W<TAB>D<TAB>L"
damaged wdlname "${line}s/^@wdl\t[^\t]*/@wdl\tnobody/" "wdlname.tsv:$line: expected @wdl"
damaged wdlshort "${line}s/\t[0-9]*\$//" "wdlshort.tsv:$line: expected @wdl"
damaged noanchor "/^@anchor/d" "the ladder's results need both @anchor and @wdl lines"
damaged badanchor "s/^@anchor\trandom/@anchor\tnobody/" "expected @anchor<TAB>NAME<TAB>ELO naming a ladder player"
damaged twice "${line}p" "a second @wdl line for"
damaged at "${line}s/^@wdl/@what/" "'@what': a line may start with @anchor or @wdl only"
cp "$lq/abapa.tsv" "$tmp/after.tsv"
printf 'extra\tgreedy\t1\n' >>"$tmp/after.tsv"
expect_error rate "a player after the results" rate --variant abapa --ladder "$tmp/after.tsv" greedy
mkdir -p "$tmp/empty" && (cd "$tmp/empty" && "$nickar" rate --variant abapa greedy >/dev/null 2>"$tmp/noladder.err"; echo $? >"$tmp/noladder.rc")
check "no ladder for the variant: exit 2" test "$(cat "$tmp/noladder.rc")" -eq 2
check "no ladder for the variant: one line naming it" test "$(wc -l <"$tmp/noladder.err")" -eq 1 -a -n "$(grep "no ladder 'results/ladder/abapa.tsv'" "$tmp/noladder.err")"
expect_error rate "needs one player spec" rate --variant abapa --ladder "$lq/abapa.tsv"
finish
