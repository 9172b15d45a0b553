#!/usr/bin/env bash
# test_cli_tablebase.sh -- `nickar tablebase build` and `nickar solve`
# (docs/tablebase.md): a database is built and read back; solve gives the
# value and the optimal moves of a known endgame; damaged, truncated,
# foreign and other-variant files and a position outside the database are
# refused with exit 2 and one line.  Speightstown's two-plane database
# builds, solves, grades and plays.  Adjikui's databases of some ownership
# patterns (--patterns) hold the full build's values for them and refuse
# the others; tablebase info describes a file.
source "$(dirname "$0")/lib_cli.sh"

db=$tmp/tb
run tablebase build --variant abapa --seeds 6 --output "$db" --threads 2
check "build exits 0" test "$rc" -eq 0
check "build writes the file" test -s "$db/abapa.nktb"
check "build reports the positions" grep -q "18564 positions" <<<"$out"
run tablebase build --variant abapa --seeds 6 --output "$tmp/tb1" --threads 1
check "the file is the same for 1 and 2 threads" cmp -s "$db/abapa.nktb" "$tmp/tb1/abapa.nktb"
# Under a memory limit that holds no child list every count computes its
# children again at each sweep: the same file.
run tablebase build --variant abapa --seeds 6 --output "$tmp/tbm" --threads 2 --memory 1
check "--memory: build exits 0" test "$rc" -eq 0
check "--memory: the children are computed again" \
  grep -q "children computed again in 5 counts" <<<"$out"
check "--memory: the same file" cmp -s "$db/abapa.nktb" "$tmp/tbm/abapa.nktb"
expect_error tablebase "--memory" tablebase build --variant abapa --seeds 6 --output "$tmp/tbm" --memory 0
expect_error tablebase "--memory" tablebase build --variant abapa --seeds 6 --output "$tmp/tbm" --memory lots

# South's one move f makes A 2: a grand slam.  abapa (R-W5) captures
# nothing, and North's A (2 seeds) cannot feed South: North keeps his row
# (R-W7), South gets 0 of the 2.  antigua captures the 2 and South, moving
# again on an empty board, ends the game: 2 of 2 (R-W8, R-G4).
run solve --variant abapa --position '0,0,0,0,0,1/1,0,0,0,0,0 10-10 S' --tb "$db"
check "solve exits 0" test "$rc" -eq 0
check "abapa: value 0" grep -q "^value: 0 of the 2 seeds on the board to South$" <<<"$out"
check "abapa: f is optimal" grep -qx "move f: 0 optimal" <<<"$out"
check "abapa: North wins" grep -q "North 12: North wins" <<<"$out"
run tablebase build --variant antigua --seeds 4 --output "$tmp/other"
run solve --variant antigua --position '0,0,0,0,0,1/1,0,0,0,0,0 10-10 S' --tb "$tmp/other"
check "antigua: value 2" grep -q "^value: 2 of the 2 seeds on the board to South$" <<<"$out"
check "antigua: f is optimal" grep -qx "move f: 2 optimal" <<<"$out"
# A value resting on the repetition rule says so.
run solve --variant abapa --position '0,0,1,0,0,1/1,1,0,0,0,0 10-10 S' --tb "$db"
check "a cycle's value is marked" grep -q "rests on the repetition rule" <<<"$out"

cp "$db/abapa.nktb" "$tmp/good.nktb"
mkdir -p "$tmp/mix" && cp "$tmp/other/antigua.nktb" "$tmp/mix/abapa.nktb"
expect_error solve "database of antigua, not of abapa" \
  solve --variant abapa --position '0,0,0,0,0,1/1,1,0,0,0,0 0-0 S' --tb "$tmp/mix"
mkdir -p "$tmp/trunc" && head -c 5000 "$tmp/good.nktb" >"$tmp/trunc/abapa.nktb"
expect_error solve "truncated" \
  solve --variant abapa --position '0,0,0,0,0,1/1,1,0,0,0,0 0-0 S' --tb "$tmp/trunc"
mkdir -p "$tmp/dmg" && cp "$tmp/good.nktb" "$tmp/dmg/abapa.nktb"
printf '\x3f' | dd of="$tmp/dmg/abapa.nktb" bs=1 seek=9000 conv=notrunc status=none
expect_error solve "checksum" \
  solve --variant abapa --position '0,0,0,0,0,1/1,1,0,0,0,0 0-0 S' --tb "$tmp/dmg"
mkdir -p "$tmp/foreign" && head -c 4000 /dev/zero | tr '\0' 'x' >"$tmp/foreign/abapa.nktb"
expect_error solve "not an endgame database" \
  solve --variant abapa --position '0,0,0,0,0,1/1,1,0,0,0,0 0-0 S' --tb "$tmp/foreign"
expect_error solve "cannot open" \
  solve --variant abapa --position '0,0,0,0,0,1/1,1,0,0,0,0 0-0 S' --tb "$tmp/none"
# Beyond the database: alpha-beta with its values at the leaves.  The start
# position (48 seeds) with a 6-seed database and a tiny budget: bounds, not
# an exact value.
run solve --variant abapa --position '4,4,4,4,4,4/4,4,4,4,4,4 0-0 S' --tb "$db" --nodes 2000
check "solve beyond the database exits 0" test "$rc" -eq 0
check "an undecided value is given as bounds" grep -q "^value: from [0-9]* to [0-9]* of the 48 seeds on the board to South (bounds" <<<"$out"
check "an undecided move is given as bounds" grep -q "^move a: from [0-9]* to [0-9]* " <<<"$out"
expect_error solve "bad value" \
  solve --variant abapa --position '4,4,4,4,4,4/4,4,4,4,4,4 0-0 S' --tb "$db" --nodes 0
# Speightstown (two planes: what each side can force himself to collect).
# f makes A 2 and captures it, a grand slam that leaves North to move on an
# empty board: South 25, a win (R-W5, R-W9, R-W12).  With one seed each
# that can only circulate, nobody captures: a draw at 24-22 (R-W12's
# example), where abapa gives each his own row.
run tablebase build --variant speightstown --seeds 8 --output "$tmp/s" --threads 2
check "speightstown builds" test "$rc" -eq 0
check "speightstown: twice the positions' bytes and the header" \
  test "$(stat -c %s "$tmp/s/speightstown.nktb")" -eq $((96 + 2 * 125970))
run tablebase build --variant speightstown --seeds 8 --output "$tmp/s1" --threads 1
check "speightstown: the same file on 1 and 2 threads" \
  cmp -s "$tmp/s/speightstown.nktb" "$tmp/s1/speightstown.nktb"
run solve --variant speightstown --position '0,0,0,0,0,1/1,0,0,0,0,0 23-23 S' --tb "$tmp/s"
check "speightstown solve exits 0" test "$rc" -eq 0
check "speightstown: both sides' values" \
  grep -qx "value: South can force 2 and North 0 of the 2 seeds on the board (a repetition gives the rest to nobody)" <<<"$out"
check "speightstown: the result" grep -q "^result under perfect play: South wins (stores South 23, North 23; a win needs 25)" <<<"$out"
check "speightstown: the move" grep -qx "move f: South 2, North 0: South wins optimal" <<<"$out"
run solve --variant speightstown --position '0,0,0,0,0,1/0,0,0,0,0,1 24-22 S' --tb "$tmp/s"
check "speightstown: circulating seeds go to nobody" grep -q "^value: South can force 0 and North 0 of the 2" <<<"$out"
check "speightstown: a draw at 24-22" grep -q "^result under perfect play: draw" <<<"$out"
# Speightstown beyond the database: 8-seed positions solved with a 6-seed
# database (searches in collect mode) against the 8-seed database.  Every
# move's bounds must hold the database's g and h and its outcomes the
# database's outcome; the first position is decided exactly (g 2, h 0, a
# draw), the second only in bounds, yet its result (North wins) and its
# optimal move are decided.
run tablebase build --variant speightstown --seeds 6 --output "$tmp/s6"
# holds DB BEYOND: each move line of BEYOND ("move X: S a, N b: outcome" or
# "S from a to b") holds the values and the outcome of DB's line for X.
holds() {
  awk -v db="$1" -v by="$2" '
    function parse(l, r,   f, i, k, rest, w) {
      sub(/ optimal.*| possibly optimal.*| \(depth.*/, "", l)
      r["m"] = substr(l, 6, 1); rest = substr(l, 9); i = index(rest, ": ")
      r["o"] = substr(rest, i + 2)
      split(substr(rest, 1, i - 1), f, ", ")
      for (k = 0; k < 2; k++) {
        split(f[1 + k], w, " ")
        if (w[2] == "from") { r["lo" k] = w[3]; r["hi" k] = w[5] } else { r["lo" k] = r["hi" k] = w[2] }
      }
    }
    BEGIN {
      nd = split(db, d, "\n"); nb = split(by, b, "\n"); ok = 0; bad = 0
      for (i = 1; i <= nd; i++) if (d[i] ~ /^move /) {
        parse(d[i], x)
        for (j = 1; j <= nb; j++) if (b[j] ~ ("^move " x["m"] ":")) {
          parse(b[j], y); ok++
          for (k = 0; k < 2; k++) if (y["lo" k] > x["lo" k] || x["lo" k] > y["hi" k]) bad++
          if (index(y["o"], x["o"]) == 0) bad++
        }
      }
      exit !(ok > 0 && bad == 0)
    }'
}
sp1='0,0,1,2,0,1/1,0,2,0,1,0 20-20 S'
run solve --variant speightstown --position "$sp1" --tb "$tmp/s"
d1=$out
run solve --variant speightstown --position "$sp1" --tb "$tmp/s6" --nodes 200000
check "speightstown beyond: exits 0" test "$rc" -eq 0
check "speightstown beyond: the exact pair of the larger database" \
  grep -q "^value: South can force 2 and North 0 of the 8 seeds on the board (a repetition gives the rest to nobody; exact: search beyond the 6-seed" <<<"$out"
check "the larger database agrees" grep -q "^value: South can force 2 and North 0 of the 8" <<<"$d1"
check "speightstown beyond: the result" \
  grep -q "^result under perfect play: draw (stores South 20, North 20; a win needs 25)" <<<"$out"
check "speightstown beyond: every move's bounds hold the database's values" holds "$d1" "$out"
check "speightstown beyond: the optimal moves" \
  test "$(grep -o '^move [a-f]:.*: draw optimal' <<<"$out" | cut -c6)" = "$(grep -o '^move [a-f]:.*: draw optimal' <<<"$d1" | cut -c6)"
sp2='0,1,0,2,0,1/1,2,0,0,1,0 17-23 N'
run solve --variant speightstown --position "$sp2" --tb "$tmp/s"
d2=$out
run solve --variant speightstown --position "$sp2" --tb "$tmp/s6" --nodes 200000
check "speightstown beyond: bounds" grep -q "^value: North can force from 2 to 4 and South 2 of the 8 seeds on the board (a repetition gives the rest to nobody; bounds" <<<"$out"
check "speightstown beyond: the bounds hold the database's values" holds "$d2" "$out"
check "speightstown beyond: the result decided by bounds" \
  grep -q "^result under perfect play: North wins (stores South 17, North 23" <<<"$out"
check "the larger database agrees on the result" grep -q "^result under perfect play: North wins" <<<"$d2"
check "speightstown beyond: the optimal move" grep -q "^move A: North from 2 to 4, South 2: North wins optimal" <<<"$out"
check "speightstown beyond: a move that only draws" grep -q "^move B: North 0, South 2: draw (depth" <<<"$out"
# More 7- and 8-seed positions, either side to move, at 20,000 nodes a
# search: decided or not, every move's bounds and outcomes hold the 8-seed
# database's.
for p in '0,0,1,1,0,0/0,2,3,1,0,0 21-19 S' '1,0,0,2,0,1/0,2,0,1,0,0 23-18 S' \
         '1,1,0,0,1,0/0,2,0,0,2,0 24-17 N' '1,1,0,0,0,0/3,1,0,0,0,1 23-18 S' \
         '1,0,0,0,0,1/0,1,1,0,1,3 19-21 N' '0,1,1,1,0,1/1,1,1,0,0,0 17-24 N' \
         '1,0,1,1,1,0/2,0,0,0,0,1 18-23 N' '0,0,2,2,1,1/0,0,1,0,0,0 19-22 N'; do
  run solve --variant speightstown --position "$p" --tb "$tmp/s"
  d=$out
  run solve --variant speightstown --position "$p" --tb "$tmp/s6" --nodes 20000
  check "speightstown beyond: $p: the bounds hold the database's values" holds "$d" "$out"
done
# Beyond a 1-seed database, the two seeds that only circulate: the search
# ends at the repetition, which gives them to nobody (R-W10): 0 and 0, a
# draw at 24-22, as the larger database says.
run tablebase build --variant speightstown --seeds 1 --output "$tmp/s1seed"
run solve --variant speightstown --position '0,0,0,0,0,1/0,0,0,0,0,1 24-22 S' --tb "$tmp/s1seed"
check "speightstown beyond: a repetition gives the seeds to nobody" \
  grep -q "^value: South can force 0 and North 0 of the 2 seeds on the board (a repetition gives the rest to nobody; exact: search beyond the 1-seed" <<<"$out"
check "speightstown beyond: the repetition's draw" grep -q "^result under perfect play: draw" <<<"$out"
# A tighter budget leaves the result open; the output says so.
run solve --variant speightstown --position "$sp2" --tb "$tmp/s6" --nodes 1000
check "speightstown beyond: an undecided result" grep -q "^result under perfect play: .* or .*, not decided" <<<"$out"
check "speightstown beyond: undecided moves are possibly optimal" grep -q "possibly optimal" <<<"$out"
mkdir -p "$tmp/smix" && cp "$tmp/s/speightstown.nktb" "$tmp/smix/abapa.nktb"
expect_error solve "database of speightstown, not of abapa" \
  solve --variant abapa --position '0,0,0,0,0,1/1,1,0,0,0,0 0-0 S' --tb "$tmp/smix"
run grade random --variant speightstown --tb "$tmp/s" --positions 100 --seed 3
check "speightstown grade exits 0" test "$rc" -eq 0
check "speightstown grade: 100 positions" grep -q "^positions: 100 " <<<"$out"
run match --variant speightstown --games 2 "ab:depth=1,tb=$tmp/s" greedy
check "a speightstown tb= player plays" test "$rc" -eq 0
expect_error tablebase "expected the action 'build'" tablebase erase --variant abapa --seeds 3
printf 'keep\n' >"$tmp/afile"
expect_error tablebase "is not a directory" \
  tablebase build --variant abapa --seeds 3 --output "$tmp/afile"
check "a file given as --output is kept" grep -qx keep "$tmp/afile"
# grade: the same seed gives the same positions and the same figures; a
# depth-6 search plays more optimal moves and loses fewer seeds than a
# random player on those positions (fixed seed: no chance in the test).
run tablebase build --variant abapa --seeds 10 --output "$tmp/g"
run grade random --variant abapa --tb "$tmp/g" --positions 200 --seed 5
check "grade exits 0" test "$rc" -eq 0
r1=$out
run grade random --variant abapa --tb "$tmp/g" --positions 200 --seed 5
check "grade is reproducible" test "$out" = "$r1"
run grade ab:depth=6 --variant abapa --tb "$tmp/g" --positions 200 --seed 5
a1=$out
check "both graded on the same positions" test "$(head -1 <<<"$a1")" = "$(head -1 <<<"$r1")"
share() { sed -n 's/^optimal moves: \([0-9.]*\) .*/\1/p' <<<"$1"; }
lost() { sed -n 's/^seeds lost per move: \([0-9.]*\) .*/\1/p' <<<"$1"; }
check "grade prints 200 positions" grep -q "^positions: 200 " <<<"$r1"
check "depth 6 plays more optimal moves than random" \
  awk -v a="$(share "$a1")" -v r="$(share "$r1")" 'BEGIN { exit !(a > r) }'
check "depth 6 loses fewer seeds than random" \
  awk -v a="$(lost "$a1")" -v r="$(lost "$r1")" 'BEGIN { exit !(a < r) }'
check "the share lies in its interval" \
  awk -v l="$(grep '^optimal' <<<"$a1")" 'BEGIN { split(l, f, "[][ ,]+"); exit !(f[6] <= f[3] && f[3] <= f[7]) }'
# Solve beyond the 6-seed database against the 10-seed one, on 8-seed
# positions: the same exact value and moves where the search decides, and
# bounds that hold the 10-seed value where it does not.
p1='0,0,1,2,0,1/1,0,2,0,1,0 20-20 S'
run solve --variant abapa --position "$p1" --tb "$db" --nodes 1000000
b1=$out
run solve --variant abapa --position "$p1" --tb "$tmp/g"
check "beyond: the exact value of the larger database" \
  grep -q "^value: 5 of the 8 seeds on the board to South (exact: search beyond the 6-seed" <<<"$b1"
check "the larger database agrees" grep -q "^value: 5 of the 8 seeds" <<<"$out"
check "beyond: the same moves and values as the larger database" \
  test "$(grep '^move' <<<"$b1")" = "$(grep '^move' <<<"$out")"
check "beyond: the totals" grep -q "^totals under perfect play: South 25, North 23: South wins" <<<"$b1"
p2='0,2,0,0,1,0/2,0,0,1,0,2 0-0 S'
run solve --variant abapa --position "$p2" --tb "$tmp/g"
v2=$(sed -n 's/^value: \([0-9]*\) of.*/\1/p' <<<"$out")
run solve --variant abapa --position "$p2" --tb "$db" --nodes 100000
check "beyond: bounds that hold the larger database's value" \
  awk -v v="$v2" -v l="$(grep '^value' <<<"$out")" \
  'BEGIN { if (split(l, f, " ") < 5 || f[2] != "from" || v == "") exit 1; exit !(f[3] <= v && v <= f[5] && f[3] < f[5]) }'
check "beyond: an undecided move is possibly optimal" grep -q "possibly optimal" <<<"$out"
expect_error grade "cannot open" grade random --variant abapa --tb "$tmp/none"
expect_error grade "missing the player SPEC" grade --variant abapa --tb "$tmp/g"
# ab:...,tb=DIR players: a bad database is bad input (exit 2, one line),
# for match as for every command that takes a spec; a good one plays.
expect_error match "cannot open" \
  match --variant abapa --games 2 "ab:depth=1,tb=$tmp/none" greedy
expect_error match "database of antigua, not of abapa" \
  match --variant abapa --games 2 greedy "ab:depth=1,tb=$tmp/mix"
expect_error match "checksum" \
  match --variant abapa --games 2 "ab:depth=1,tb=$tmp/dmg" greedy
expect_error match "truncated" \
  match --variant abapa --games 2 "ab:depth=1,tb=$tmp/trunc" greedy
expect_error match "cannot open" \
  match --variant speightstown --games 2 "ab:depth=1,tb=$db" greedy
expect_error match "tb needs a value" match --variant abapa --games 2 "ab:tb=" greedy
run match --variant abapa --games 4 --threads 2 "ab:depth=2,tb=$db" greedy
check "a tb= player plays a match" test "$rc" -eq 0
m2=$out
run match --variant abapa --games 4 --threads 1 "ab:depth=2,tb=$db" greedy
check "the same match on 1 and 2 threads" test "$out" = "$m2"

# Adjikui's ownership patterns (--patterns, docs/tablebase.md "Build"):
# the build line names them; --patterns 0 and the set 0,2,-2 hold exactly
# the full build's bytes for each of their patterns (each pattern's slice
# of each seed count) and solve gives the same output from them; the same
# set listed in another order writes the same file; open sets, unknown
# and repeated patterns, and patterns other than 0 in the Warri family are
# refused with nothing written; solve refuses a position of a pattern the
# database was not built for, within it and beyond it; grade and an
# evolution's benchmark.tablebase refuse a database without pattern 0;
# tablebase info lists a file's patterns.
ak=$tmp/ak
mkdir -p "$ak"
run tablebase build --variant adjikui --seeds 6 --output "$ak/all" --threads 2
check "adjikui: the build names the eleven patterns" \
  grep -q "adjikui to 6 seeds (patterns 0,1,2,3,4,5,-1,-2,-3,-4,-5), 204204 positions" <<<"$out"
run tablebase build --variant adjikui --seeds 6 --output "$ak/p0" --patterns 0 --threads 2
check "--patterns 0 exits 0" test "$rc" -eq 0
check "--patterns 0: one pattern's positions" \
  grep -q "adjikui to 6 seeds (patterns 0), 18564 positions" <<<"$out"
check "--patterns 0: the header and one byte a position" \
  test "$(stat -c %s "$ak/p0/adjikui.nktb")" -eq $((96 + 18564))
run tablebase build --variant adjikui --seeds 6 --output "$ak/p3" --patterns 2,0,-2 --threads 1
check "--patterns 2,0,-2: stored in the fixed order" \
  grep -q "adjikui to 6 seeds (patterns 0,2,-2), 55692 positions" <<<"$out"
run tablebase build --variant adjikui --seeds 6 --output "$ak/p3b" --patterns -2,0,2 --threads 2
check "the same set in another order: the same file" \
  cmp -s "$ak/p3/adjikui.nktb" "$ak/p3b/adjikui.nktb"
check "each pattern's bytes equal the full build's" "$python" - "$ak" <<'PY'
import sys
from math import comb
d = sys.argv[1]
full = open(f"{d}/all/adjikui.nktb", "rb").read()[96:]
order = [0, 1, 2, 3, 4, 5, -1, -2, -3, -4, -5]
def slices(data, pats):
    out, off = {}, 0
    for b in range(7):
        n = comb(b + 11, 11)
        for k, j in enumerate(pats):
            out[(b, j)] = data[off + k * n: off + (k + 1) * n]
        off += len(pats) * n
    assert off == len(data), (off, len(data))
    return out
f = slices(full, order)
for name, pats in (("p0", [0]), ("p3", [0, 2, -2])):
    s = slices(open(f"{d}/{name}/adjikui.nktb", "rb").read()[96:], pats)
    for key, x in s.items():
        assert x == f[key], (name, key)
PY
for p in '2,0,1,0,0,0/0,1,0,2,0,0 0-0 S' '0,1,0,0,0,0/0,0,0,0,0,3 0-0 N SSSSSSSSNNNN' \
         '1,0,2,0,0,1/0,0,1,0,1,0 3-5 N NNSSSSNNNNNN'; do
  run solve --variant adjikui --position "$p" --tb "$ak/all"
  want=$out
  run solve --variant adjikui --position "$p" --tb "$ak/p3"
  check "solve '$p': the same from 0,2,-2 as from all patterns" test "$rc" -eq 0 -a "$out" = "$want"
done
run solve --variant adjikui --position '2,0,1,0,0,0/0,1,0,2,0,0 0-0 N' --tb "$ak/all"
want=$out
run solve --variant adjikui --position '2,0,1,0,0,0/0,1,0,2,0,0 0-0 N' --tb "$ak/p0"
check "solve: the same from pattern 0 alone as from all patterns" test "$rc" -eq 0 -a "$out" = "$want"
expect_error solve "its ownership pattern 1 is not in the database" \
  solve --variant adjikui --position '0,1,0,0,0,0/0,0,0,0,0,3 0-0 S SSSSSSSNNNNN' --tb "$ak/p3"
check "the refusal names the patterns built" grep -q "(built for patterns 0,2,-2)" <<<"$err"
expect_error solve "its ownership pattern -1 is not in the database" \
  solve --variant adjikui --position '0,1,0,0,0,0/0,0,0,0,0,3 0-0 N NSSSSSNNNNNN' --tb "$ak/p0"
expect_error solve "its ownership pattern 2 is not in the database" \
  solve --variant adjikui --position '4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSSSNNNN' --tb "$ak/p0"
for bad in "2|pattern 2 without -2" "0,-3|pattern -3 without 3" \
           "0,1,-1,1|pattern 1 is listed twice" "6,-6|6 is none of the ownership patterns" \
           "0,,1|'' is not a pattern" "a|'a' is not a pattern" "|'' is not a pattern"; do
  expect_error tablebase "--patterns: ${bad#*|}" \
    tablebase build --variant adjikui --seeds 3 --output "$ak/x" --patterns "${bad%%|*}"
done
expect_error tablebase "--patterns: abapa has one ownership pattern, 0" \
  tablebase build --variant abapa --seeds 3 --output "$ak/x" --patterns 1,-1
check "nothing written for a refused --patterns" test ! -e "$ak/x"
run tablebase build --variant abapa --seeds 4 --output "$ak/w0" --patterns 0
check "abapa --patterns 0 exits 0" test "$rc" -eq 0
run tablebase build --variant abapa --seeds 4 --output "$ak/wall" --patterns all
check "abapa: --patterns 0 and all, the same file" cmp -s "$ak/w0/abapa.nktb" "$ak/wall/abapa.nktb"
# tablebase info: what a file holds, the patterns included.
run tablebase info "$ak/p3/adjikui.nktb"
check "info exits 0" test "$rc" -eq 0
check "info names the variant and N" grep -qx "seeds: 0 to 6" <<<"$out"
check "info lists the patterns" grep -qx "patterns: 0,2,-2 (3 of the variant's 11)" <<<"$out"
check "info gives the stored positions" grep -qx "positions: 55692" <<<"$out"
run tablebase info "$db/abapa.nktb"
check "info: abapa's one pattern" grep -qx "patterns: 0 (1 of the variant's 1)" <<<"$out"
expect_error tablebase "checksum" tablebase info "$tmp/dmg/abapa.nktb"
expect_error tablebase "cannot open" tablebase info "$tmp/none/abapa.nktb"
expect_error tablebase "info takes no option" tablebase info --variant abapa "$db/abapa.nktb"
expect_error tablebase "info needs the database FILE" tablebase info
expect_error tablebase "unexpected argument 'x' after build" \
  tablebase build x --variant abapa --seeds 3 --output "$ak/x"
run tablebase build --variant adjikui --seeds 4 --output "$ak/p1" --patterns 1,-1
expect_error grade "does not hold" grade random --variant adjikui --tb "$ak/p1" --positions 10

# benchmark.tablebase: the champion of an evolution run is graded against
# the database at every benchmark generation (0, 1 and 3 with every = 2 of
# 4), into /stats; the same figures on 1 and 2 threads; inspect shows them;
# a bad directory is refused before anything is written.
cat >"$tmp/tiny.ini" <<INI
[experiment]
name = tiny
seed = 7
variant = abapa
generations = 4
[player]
features = positional
depth = 1
[population]
size = 6
[fitness]
schedule = round-robin
openings = 2
[benchmark]
every = 2
games = 4
opponents = random
tablebase = $tmp/g
tablebase_positions = 60
INI
run evolve "$tmp/tiny.ini" --output "$tmp/e1.h5" --threads 1 --quiet
check "evolve with benchmark.tablebase exits 0 ($err)" test "$rc" -eq 0
run evolve "$tmp/tiny.ini" --output "$tmp/e2.h5" --threads 2 --quiet
check "the champion graded in /stats at the benchmark generations" "$python" - "$tmp/e1.h5" "$tmp/e2.h5" <<'PY'
import sys, h5py
a = h5py.File(sys.argv[1], "r")["stats"][:]
b = h5py.File(sys.argv[2], "r")["stats"][:]
assert list(a["tb_positions"]) == [60, 60, 0, 60], a["tb_positions"]
for k in ("tb_positions", "tb_optimal", "tb_seeds_lost"):
    assert (a[k] == b[k]).all(), k
g = a["tb_positions"] > 0
assert ((a["tb_optimal"][g] > 0) & (a["tb_optimal"][g] <= 1)).all()
assert (a["tb_seeds_lost"][g] >= 0).all() and (a["tb_optimal"][~g] == 0).all()
PY
# scripts/plot_fitness.py draws the grading as a second PNG (its path on a
# second line); a run without the grading gets the fitness PNG alone.
plotpy() { MPLCONFIGDIR=$tmp/mpl "$python" "$srcdir/scripts/plot_fitness.py" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; out=$(cat "$tmp/out"); err=$(cat "$tmp/err"); }
is_png() { [[ -s $1 && $(head -c 8 "$1" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]]; }
plotpy "$tmp/e1.h5" -o "$tmp/f.png"
check "plot_fitness.py on a graded run exits 0 ($err)" test "$rc" -eq 0
check "plot_fitness.py prints both PNGs" test "$out" = "$tmp/f.png"$'\n'"$tmp/f_endgame.png"
check "the endgame PNG is written" is_png "$tmp/f_endgame.png"
run inspect "$tmp/e1.h5"
check "inspect shows the grading" grep -q "^endgame play (champion against the database" <<<"$out"
# A run file made before the tb_* columns existed (its /stats rewritten
# without them) still reads: no grading shown, an empty list in the JSON.
cp "$tmp/e1.h5" "$tmp/old.h5"
check "an old /stats layout made" "$python" - "$tmp/old.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r+")
s = f["stats"][:]
names = [n for n in s.dtype.names if not n.startswith("tb_")]
old = np.zeros(len(s), dtype=[(n, s.dtype[n]) for n in names])
for n in names:
    old[n] = s[n]
del f["stats"]
f.create_dataset("stats", data=old, maxshape=(None,), chunks=(256,))
PY
plotpy "$tmp/old.h5" -o "$tmp/old.png"
check "plot_fitness.py on a run without the grading: one PNG ($err)" \
  test "$rc" -eq 0 -a "$out" = "$tmp/old.png" -a ! -e "$tmp/old_endgame.png"
run inspect "$tmp/old.h5"
check "an old run file reads ($err)" test "$rc" -eq 0
check "an old run file shows no grading" test "$(grep -c '^endgame play' <<<"$out")" -eq 0
run inspect "$tmp/old.h5" --json
check "an old run file: no grading in the JSON" "$python" -c '
import json, sys
assert json.loads(sys.argv[1])["tablebase"] == []' "$out"
sed "s|^tablebase = .*|tablebase = $tmp/none|" "$tmp/tiny.ini" >"$tmp/badtb.ini"
expect_error evolve "benchmark.tablebase: cannot open" evolve "$tmp/badtb.ini" --output "$tmp/e3.h5" --quiet
check "nothing written for a bad benchmark.tablebase" test ! -e "$tmp/e3.h5"
sed "s|^tablebase = .*|tablebase = $tmp/mix|" "$tmp/tiny.ini" >"$tmp/badtb.ini"
expect_error evolve "database of antigua, not of abapa" evolve "$tmp/badtb.ini" --output "$tmp/e3.h5" --quiet
sed -e "s|^tablebase = .*|tablebase = $ak/p1|" -e "s|^variant = .*|variant = adjikui|" \
  -e "s|^features = .*|features = material|" "$tmp/tiny.ini" >"$tmp/badtb.ini"
expect_error evolve "does not hold ownership pattern 0" \
  evolve "$tmp/badtb.ini" --output "$tmp/e3.h5" --quiet
check "nothing written for a database without pattern 0" test ! -e "$tmp/e3.h5"
finish
