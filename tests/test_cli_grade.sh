#!/usr/bin/env bash
# test_cli_grade.sh -- `nickar grade` (docs/cli.md "nickar grade",
# docs/tablebase.md "Grading"): the intervals over games on positions;
# whole games from the one-seed-a-pit start (--from-start) with the
# report's parts, the same for 1 and 2 threads; the errors file, one line
# an error, opens in `nickar view`; the bad input of --from-start (a
# database that does not cover the start, an adjikui database without
# pattern 0, --games 0, an --errors path that cannot be written, options
# of the other mode) exits 2 with one line and writes nothing; an
# evolution run with benchmark.tablebase keeps the grade's intervals in
# /stats and a run without it has no such columns.
source "$(dirname "$0")/lib_cli.sh"

db=$tmp/tb
run tablebase build --variant abapa --seeds 12 --output "$db" --threads 2
check "build the 12-seed database exits 0" test "$rc" -eq 0

# Positions: the intervals are over games and say so.
run grade ab:depth=2 --variant abapa --tb "$db" --positions 200 --seed 3
check "grade on positions exits 0 ($err)" test "$rc" -eq 0
check "grade on positions: the share with its interval" \
  grep -Eq '^optimal moves: [0-9.]+  95% interval \[[0-9.]+, [0-9.]+\]$' <<<"$out"
check "grade on positions: the intervals are over games" \
  grep -Eq '^intervals: cluster-robust over the [0-9]+ games that gave positions$' <<<"$out"

# Whole games.
run grade ab:depth=2 --variant abapa --tb "$db" --from-start --games 10 --opponent random \
  --seed 5 --threads 1 --errors "$tmp/e1.txt"
check "--from-start exits 0 ($err)" test "$rc" -eq 0
one=$out
check "--from-start: the games and the start" \
  grep -q '^games: 10 of ab:depth=2 against random from 1,1,1,1,1,1/1,1,1,1,1,1 0-0 S (1 seed a pit)' <<<"$out"
for line in '^optimal moves: [0-9.]+  95% interval' '^seeds lost per move: [0-9.]+  95% interval' \
            '^seeds lost per game: [0-9.]+  95% interval' '^value thrown away: [0-9]+ moves' \
            '^by phase \(board seeds: opening more than 8, middle 5 to 8, end 4 or fewer\):$' \
            '^  opening ' '^  end ' '^by seeds on the board:$' '^  12 '; do
  check "--from-start reports '$line'" grep -Eq "$line" <<<"$out"
done
errors=$(sed -n 's/^errors: \([0-9]*\).*/\1/p' <<<"$out")
check "the errors file has one line an error ($errors)" test "$(wc -l <"$tmp/e1.txt")" -eq "$errors"
check "there are errors to look at" test "$errors" -gt 0
check "an error line names position, move, optimal moves and value lost" \
  grep -Eq '^error variant=abapa game=[0-9]+ ply=[0-9]+ played=[a-f] optimal=[a-f]+ lost=[0-9]+ result=(win|draw|loss)(>(draw|loss))? position=[0-9,/]+ [0-9]+-[0-9]+ [SN]$' \
  "$tmp/e1.txt"
check "every line is an error line" test "$(grep -vc '^error ' "$tmp/e1.txt")" -eq 0
run grade ab:depth=2 --variant abapa --tb "$db" --from-start --games 10 --opponent random \
  --seed 5 --threads 2 --errors "$tmp/e2.txt"
check "the same report on 2 threads" test "$out" = "$one"
check "the same errors on 2 threads" cmp -s "$tmp/e1.txt" "$tmp/e2.txt"

# The errors open in nickar view: a page with one game an error.
run view "$tmp/e1.txt" -o "$tmp/e.html"
check "view opens the errors file ($err)" test "$rc" -eq 0
check "the page holds every error" test "$(grep -o '"source":' "$tmp/e.html" | wc -l)" -eq "$errors"
check "the page names the errors" grep -q 'e1.txt, game [0-9]*, ply [0-9]*: played [a-f], optimal' "$tmp/e.html"
run view --game 2 "$tmp/e1.txt" -o "$tmp/e2.html"
check "view --game picks one error" test "$rc" -eq 0 -a "$(grep -o '"source":' "$tmp/e2.html" | wc -l)" -eq 1
printf 'error variant=abapa game=1 ply=1 played=z optimal=a lost=1 result=win position=1,1,1,1,1,1/1,1,1,1,1,1 0-0 S\n' >"$tmp/bad.txt"
expect_error view "bad.txt:1: bad move 'z'" view "$tmp/bad.txt"
printf 'error variant=abapa game=1 ply=1 played=a lost=1 position=1,1,1,1,1,1/1,1,1,1,1,1 0-0 S\n' >"$tmp/bad.txt"
expect_error view "bad.txt:1: expected ' optimal='" view "$tmp/bad.txt"

# Speightstown: errors are moves that give up the best result.
run tablebase build --variant speightstown --seeds 12 --output "$tmp/sp" --threads 2
run grade greedy --variant speightstown --tb "$tmp/sp" --from-start --games 4 --errors "$tmp/sp.txt"
check "speightstown --from-start exits 0 ($err)" test "$rc" -eq 0
check "speightstown says what an error is" grep -q "give up the best result" <<<"$out"
if [[ -s $tmp/sp.txt ]]; then
  check "speightstown: every error drops the result" test "$(grep -vc 'result=[a-z]*>' "$tmp/sp.txt")" -eq 0
  run view "$tmp/sp.txt" -o "$tmp/sp.html"
  check "view opens speightstown's errors ($err)" test "$rc" -eq 0
fi

# Bad input: exit 2, one line, nothing written.
run tablebase build --variant abapa --seeds 8 --output "$tmp/small"
expect_error grade "the start position (1 seed a pit, 12 on the board) is not in the database" \
  grade random --variant abapa --tb "$tmp/small" --from-start --errors "$tmp/x.txt"
expect_error grade "the start position (2 seeds a pit, 24 on the board)" \
  grade random --variant abapa --tb "$db" --from-start --per-pit 2 --errors "$tmp/x.txt"
run tablebase build --variant adjikui --seeds 4 --output "$tmp/ak" --patterns 1,-1
expect_error grade "does not hold" \
  grade random --variant adjikui --tb "$tmp/ak" --from-start --errors "$tmp/x.txt"
expect_error grade "--games" grade random --variant abapa --tb "$db" --from-start --games 0 \
  --errors "$tmp/x.txt"
expect_error grade "--errors: cannot write '$tmp/none/x.txt'" \
  grade random --variant abapa --tb "$db" --from-start --errors "$tmp/none/x.txt"
expect_error grade "--games needs --from-start" grade random --variant abapa --tb "$db" --games 4
expect_error grade "--positions does not go with --from-start" \
  grade random --variant abapa --tb "$db" --from-start --positions 4
expect_error grade "--per-pit" grade random --variant abapa --tb "$db" --from-start --per-pit 5
check "nothing written for refused input" test ! -e "$tmp/x.txt" -a ! -e "$tmp/x.txt.new" \
  -a ! -e "$tmp/none"
expect_error grade "opponent: cannot open weights file" grade random --variant abapa --tb "$db" \
  --from-start --opponent 'ab:depth=2,weights=/nonexistent' --errors "$tmp/x.txt"
# A failing run leaves no errors file behind: an engine that cannot start
# fails in the batch, after the file was opened.
expect_error grade "cannot start '/nonexistent/engine'" grade random --variant abapa --tb "$db" \
  --from-start --opponent 'ext:/nonexistent/engine' --errors "$tmp/x.txt"
check "no errors file after a failure" test ! -e "$tmp/x.txt" -a ! -e "$tmp/x.txt.new"

# The run file's endgame benchmark keeps both intervals; a run without it
# has the columns it always had.
tiny_config "$tmp/plain.ini" 2 random
cp "$tmp/plain.ini" "$tmp/tiny.ini" # [benchmark] is its last section
printf 'tablebase = %s\ntablebase_positions = 60\n' "$tmp/small" >>"$tmp/tiny.ini"
run evolve "$tmp/tiny.ini" --output "$tmp/g.h5" --threads 1 --quiet
check "evolve with benchmark.tablebase exits 0 ($err)" test "$rc" -eq 0
run evolve "$tmp/plain.ini" --output "$tmp/p.h5" --threads 1 --quiet
check "evolve without it exits 0 ($err)" test "$rc" -eq 0
check "/stats keeps the intervals with the grading, not without" "$python" - "$tmp/g.h5" "$tmp/p.h5" <<'PY'
import sys, h5py, numpy as np
g = h5py.File(sys.argv[1], "r")["stats"][:]
p = h5py.File(sys.argv[2], "r")["stats"][:]
cols = ("tb_optimal_lo", "tb_optimal_hi", "tb_seeds_lost_lo", "tb_seeds_lost_hi")
assert all(c in g.dtype.names for c in cols), g.dtype.names
assert not any(c in p.dtype.names for c in cols), p.dtype.names
assert p.dtype.names[-1] == "rows_digest", p.dtype.names
assert (g["tb_positions"] > 0).all()
assert ((g["tb_optimal_lo"] <= g["tb_optimal"]) & (g["tb_optimal"] <= g["tb_optimal_hi"])).all()
assert ((g["tb_seeds_lost_lo"] <= g["tb_seeds_lost"]) & (g["tb_seeds_lost"] <= g["tb_seeds_lost_hi"])).all()
assert (g["tb_optimal_hi"] - g["tb_optimal_lo"] > 0).all()
PY
run evolve "$tmp/tiny.ini" --output "$tmp/g.h5" --threads 1 --quiet --resume
check "a graded run resumes ($err)" test "$rc" -eq 0
finish
