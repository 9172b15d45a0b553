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
rows = [l.split("\t") for l in open(sys.argv[2]) if not l.startswith("#")]
assert len(rows) == 6 and all(abs(float(e) - r[n]) < 0.01 for n, s, e in rows)
PY
done
check "the depth check is printed" grep -q "grows with depth\|does not grow" "$tmp/err"

# nickar rate: a gauntlet against the quick ladder
run rate --variant abapa --ladder "$out/abapa.tsv" --games 4 --json ab:depth=3
check "rate exits 0 ($err)" test "$rc" -eq 0
json '
o = objs[0]
assert o["player"] == "ab:depth=3" and len(o["opponents"]) == 6 and o["games"] == 24
assert o["ci"][0] < o["elo"] < o["ci"][1]
assert all(x["games"] == 4 for x in o["opponents"])
'
expect_error rate "no ladder" rate --variant abapa --ladder "$tmp/none.tsv" greedy
printf 'a\tb\n' >"$tmp/bad.tsv"
expect_error rate "bad.tsv:1: " rate --variant abapa --ladder "$tmp/bad.tsv" greedy
expect_error rate "needs one player spec" rate --variant abapa --ladder "$out/abapa.tsv"
finish
