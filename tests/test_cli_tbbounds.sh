#!/usr/bin/env bash
# test_cli_tbbounds.sh -- `nickar tablebase bounds` (the bounds whatever the
# repetition rule of every position, DIR/V.nkbd; docs/tablebase.md, "The
# whole database's bounds") and `nickar solve --bounds` with it.
#
# - At 12 seeds (abapa, one seed a pit), `solve --bounds` on the start
#   position prints the same with the bounds file as without it (the
#   region's own bounds whatever the rule, computed again, equal the
#   file's); with --region 5 (the file alone) each line gives the same
#   bounds whatever the rule, and the bounds at the count are said to be
#   not computed; --history runs over the file alone (one line a move).
# - The file is the same for 1 and 2 threads and under --memory 1 (no
#   child list: sweeps that compute the children again).
# - Bad input, each exit 2 and one line, nothing written and an existing
#   file kept: bounds without a database, of a two-plane database, with
#   --seeds; solve --bounds with the bounds file of another database, a
#   damaged one (a byte changed), a truncated one.
source "$(dirname "$0")/lib_cli.sh"

db=$tmp/k1
start='1,1,1,1,1,1/1,1,1,1,1,1 0-0 S'
run tablebase build --variant abapa --seeds 12 --output "$db"
check "12-seed build exits 0" test "$rc" -eq 0
run solve --variant abapa --position "$start" --tb "$db" --bounds
check "solve --bounds without the file exits 0" test "$rc" -eq 0
without=$out
check "without the file: the region's bounds" grep -q "^bounds: lo 6, hi 6 at this count" <<<"$out"
run tablebase bounds --variant abapa --tb "$db"
check "bounds exits 0" test "$rc" -eq 0
check "bounds writes DIR/abapa.nkbd" test -s "$db/abapa.nkbd"
check "bounds leaves no temporary file" test ! -e "$db/abapa.nkbd.tmp"
check "bounds reports the positions" grep -q "2704156 positions" <<<"$out"
run solve --variant abapa --position "$start" --tb "$db" --bounds
check "solve --bounds with the file exits 0" test "$rc" -eq 0
check "solve --bounds prints the same with the file as without it" test "$out" = "$without"

# The file alone (--region 5): the bounds whatever the rule of the start
# and of each move are the region's.
run solve --variant abapa --position "$start" --tb "$db" --bounds --region 5
check "--region 5 exits 0" test "$rc" -eq 0
check "--region 5: the region is not built" grep -q "more than 5 (no region" <<<"$out"
any() { sed -n 's/^\(bounds[^:]*\): .*lo \([0-9]*\), hi \([0-9]*\) whatever.*/\1 \2 \3/p'; }
check "--region 5: the same bounds whatever the rule, start and moves" \
  test "$(any <<<"$out")" = "$(any <<<"$without")"
check "--region 5: seven lines of bounds" test "$(any <<<"$out" | wc -l)" -eq 7
check "--region 5: the count's own not computed" \
  grep -q "^bounds: lo 4, hi 8 whatever a repetition gives (at this count: not computed)$" \
  <<<"$out"
run solve --variant abapa --position "$start" --tb "$db" --history 2000 --region 5
check "--history over the file alone exits 0" test "$rc" -eq 0
json_hist=$(sed -n 's/^with the history, move \([a-f]\): \(.*\) (.*/\1 \2/p' <<<"$out")
check "--history: a value for each of the six moves" test "$(wc -l <<<"$json_hist")" -eq 6
# the search over the file alone keeps the history along every move that
# does not capture (one component): its root moves start from the whole
# board, so each value is an interval of it, and the root's meets the
# start's bounds whatever the rule (test_tb_whole compares it with the
# region's search where both settle)
inside=$("$python" - "$out" <<'PY'
import re, sys
text = sys.argv[1]
lo, hi = map(int, re.search(r"^bounds: lo (\d+), hi (\d+) whatever", text, re.M).groups())
ok = True
for m, rest in re.findall(r"^with the history, move (.): (.*?) \(", text, re.M):
    nums = [int(x) for x in re.findall(r"\d+", rest)]
    ok &= 0 <= nums[0] <= nums[-1] <= 12
nums = [int(x) for x in re.findall(r"\d+", re.search(r"^with the history: (.*?) \(", text, re.M).group(1))]
ok &= nums[0] <= hi and lo <= nums[-1]
print("yes" if ok else "no")
PY
)
check "--history: intervals of the board, the root's meets the start's bounds" test "$inside" = yes

# The same file for any threads and memory limit (a 7-seed database).
small=$tmp/k7
run tablebase build --variant antigua --seeds 7 --output "$small"
cp -r "$small" "$tmp/k7b"
cp -r "$small" "$tmp/k7m"
run tablebase bounds --variant antigua --tb "$small" --threads 2
check "antigua bounds, 2 threads" test "$rc" -eq 0
run tablebase bounds --variant antigua --tb "$tmp/k7b" --threads 1
check "the file is the same for 1 and 2 threads" cmp -s "$small/antigua.nkbd" "$tmp/k7b/antigua.nkbd"
run tablebase bounds --variant antigua --tb "$tmp/k7m" --memory 1
check "--memory 1: the children computed again" grep -q "children computed again" <<<"$out"
check "--memory 1: the same file" cmp -s "$small/antigua.nkbd" "$tmp/k7m/antigua.nkbd"

# Bad input.
mkdir -p "$tmp/empty"
expect_error tablebase "cannot open" tablebase bounds --variant abapa --tb "$tmp/empty"
check "no database: nothing written" test ! -e "$tmp/empty/abapa.nkbd"
run tablebase build --variant speightstown --seeds 3 --output "$tmp/two"
expect_error tablebase "two-plane" tablebase bounds --variant speightstown --tb "$tmp/two"
check "two planes: nothing written" test ! -e "$tmp/two/speightstown.nkbd"
expect_error tablebase "--seeds" tablebase bounds --variant abapa --tb "$db" --seeds 12
expect_error tablebase "unexpected argument" tablebase bounds extra --variant abapa --tb "$db"
expect_error tablebase "--tb" tablebase build --variant abapa --seeds 3 --tb "$db"
# a failed run keeps the file already there: a damaged database
cp "$small/antigua.nkbd" "$tmp/kept.nkbd"
printf 'x' | dd of="$small/antigua.nktb" bs=1 seek=200 conv=notrunc 2>/dev/null
expect_error tablebase "damaged" tablebase bounds --variant antigua --tb "$small"
check "a failed bounds run keeps the file already there" cmp -s "$small/antigua.nkbd" "$tmp/kept.nkbd"
# solve --bounds with the bounds file of another database (antigua to 7 as
# abapa's 12: another variant and seeds), a damaged one, a truncated one
mkdir -p "$tmp/bad"
cp "$db/abapa.nktb" "$tmp/bad/"
cp "$tmp/k7b/antigua.nkbd" "$tmp/bad/abapa.nkbd"
expect_error solve "another database" solve --variant abapa --position "$start" --tb "$tmp/bad" --bounds
cp "$db/abapa.nkbd" "$tmp/bad/abapa.nkbd"
printf 'x' | dd of="$tmp/bad/abapa.nkbd" bs=1 seek=100000 conv=notrunc 2>/dev/null
expect_error solve "checksum" solve --variant abapa --position "$start" --tb "$tmp/bad" --bounds
head -c 1000 "$db/abapa.nkbd" >"$tmp/bad/abapa.nkbd"
expect_error solve "truncated" solve --variant abapa --position "$start" --tb "$tmp/bad" --bounds
expect_error solve "--region" solve --variant abapa --position "$start" --tb "$db" --bounds --region 0
# without --bounds the file is not read: a damaged one does not matter
run solve --variant abapa --position "$start" --tb "$tmp/bad"
check "solve without --bounds ignores the bounds file" test "$rc" -eq 0
finish
