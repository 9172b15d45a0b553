#!/usr/bin/env bash
# test_cli_match.sh -- `nickar match`: the JSON fields and their sense, the
# same output whatever --threads, rounding of odd --games, weights files,
# and bad input (exit 2, one line on stderr naming what is wrong).
# Usage: test_cli_match.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

# ===== JSON: fields, sums, ranges =====
expect_ok match --variant antigua --games 20 --json random greedy
json '
o = objs[0]
for k in ("games", "wins", "draws", "losses", "score", "elo", "elo_ci", "los",
          "seed_diff", "pentanomial", "reasons"):
    assert k in o, k
assert o["games"] == 20 and o["pairs"] == 10
assert o["wins"] + o["draws"] + o["losses"] == 20
assert abs(o["score"] - (o["wins"] + o["draws"] / 2) / 20) < 1e-6
assert 0 <= o["score"] <= 1 and 0 <= o["los"] <= 1
lo, hi = o["elo_ci"]
assert lo <= o["elo"] <= hi
assert sum(o["pentanomial"]) == 10 and sum(o["reasons"].values()) == 20
assert o["a"] == "random" and o["b"] == "greedy" and o["variant"] == "antigua"
assert o["openings"] == 2 and o["seed"] == 1
assert o["score"] < 0.5 and o["elo"] < 0   # greedy beats random
'

# Defaults: 100 games, openings 2, seed 1.
expect_ok match --variant abapa --json random random
json 'o = objs[0]; assert o["games"] == 100 and o["openings"] == 2 and o["seed"] == 1'

# ===== the result does not depend on --threads =====
for spec in "random greedy" "ab:depth=2 greedy"; do
  for fmt in --json ""; do
    run match --variant antigua --games 16 --openings 3 --seed 9 --threads 1 $fmt $spec
    one=$out
    run match --variant antigua --games 16 --openings 3 --seed 9 --threads 2 $fmt $spec
    two=$out
    run match --variant antigua --games 16 --openings 3 --seed 9 --threads 3 $fmt $spec
    check "threads 1, 2, 3 agree ($spec $fmt)" test -n "$one" -a "$one" = "$two" -a "$one" = "$out"
  done
done
run match --variant adjikui --games 10 --threads 1 --json random greedy
one=$out
run match --variant adjikui --games 10 --threads 2 --json random greedy
check "adjikui: threads 1 and 2 agree" test -n "$one" -a "$one" = "$out"

# The seed matters (random players), K = 0 is allowed.
run match --variant antigua --games 20 --seed 1 --json random random
one=$out
run match --variant antigua --games 20 --seed 2 --json random random
check "another seed, other games" test "$one" != "$out"
expect_ok match --variant antigua --games 4 --openings 0 --json ab:depth=1 greedy
json 'assert objs[0]["openings"] == 0 and objs[0]["games"] == 4'

# ===== text output =====
expect_ok match --variant bridgetown --games 10 random greedy
check "text: W/D/L line" grep -q '^A: [0-9]* wins, [0-9]* draws, [0-9]* losses; score' <<<"$out"
check "text: Elo and interval" grep -q 'Elo difference: [-+][0-9.]*, 95% confidence interval \[' <<<"$out"
check "text: LOS" grep -q 'likelihood of superiority: [0-9.]*%' <<<"$out"
check "text: seed difference" grep -q 'seed difference: [-+][0-9.]* per game' <<<"$out"

# ===== odd --games: rounded up, with a note =====
run match --variant antigua --games 7 --json random random
check "odd games: exit 0" test "$rc" -eq 0
check "odd games: note on stderr" grep -q "odd; playing 8" <<<"$err"
json 'assert objs[0]["games"] == 8'

# ===== weights files =====
# positional has 9 features (search/features.h); comments and blank lines
# are skipped.
w=$tmp/w.txt
printf '# positional weights\n1.0\n0.5  # board\n\n0.1\n-0.2\n0.3\n0.1\n0.05\n0.05\n0.2\n' >"$w"
expect_ok match --variant antigua --games 2 --json "ab:depth=1,features=positional,weights=$w" greedy
json 'assert objs[0]["a"].endswith("w.txt")'
printf '1\n2\n' >"$tmp/short.txt"
expect_error match "short.txt: 2 weights, but feature set" match --variant antigua \
  "ab:depth=1,weights=$tmp/short.txt" greedy
printf '1\n2\nabc\n' >"$tmp/bad.txt"
expect_error match "bad.txt:3: 'abc' is not one number" match --variant antigua \
  "ab:depth=1,weights=$tmp/bad.txt" greedy
printf '# nothing\n\n' >"$tmp/empty.txt"
expect_error match "no weights" match --variant antigua "ab:weights=$tmp/empty.txt" greedy
expect_error match "cannot open weights file" match --variant antigua \
  "ab:weights=$tmp/missing.txt" greedy
expect_error match "weights '$tmp/run.h5@best': cannot open" match --variant antigua \
  "ab:weights=$tmp/run.h5@best" greedy
expect_error match "after '@' give 'best' or 'gen=G,rank=R'" match --variant antigua \
  "ab:weights=run.h5@gen=x" greedy
# the selector's numbers by the one strict reader: no sign, no hex
for sel in gen=+1,rank=0 gen=1,rank=0x0 gen=1,rank=-0 gen=1,rank=18446744073709551616; do
  expect_error match "after '@' give 'best' or 'gen=G,rank=R'" match --variant antigua \
    "ab:weights=$tmp/run.h5@$sel" greedy
done

# ===== bad input =====
expect_error match "player A: " match --variant antigua bogus greedy
check "bad spec: lists the players" grep -q "random" <<<"$err"
expect_error match "player B: " match --variant antigua random ab:depth=x
expect_error match "player B: " match --variant antigua random ab:colour=red
expect_error match "'human' cannot play a match" match --variant antigua human greedy
expect_error match "player B: " match --variant antigua random ab:features=adjikui
expect_error match "needs two player specs" match --variant antigua random
expect_error match "needs two player specs" match --variant antigua
expect_error match "unexpected argument" match --variant antigua random greedy random
expect_error match "missing --variant" match random greedy
expect_error match "unknown variant 'warri'" match --variant warri random greedy
expect_error match "bad value '0' for --games" match --variant antigua --games 0 random greedy
expect_error match "bad value 'ten' for --games" match --variant antigua --games ten random greedy
expect_error match "bad value '-1' for --games" match --variant antigua --games -1 random greedy
expect_error match "bad value '0' for --threads" match --variant antigua --threads 0 random greedy
expect_error match "bad value '101' for --openings" match --variant antigua --openings 101 random greedy
expect_error match "bad value '1.5' for --seed" match --variant antigua --seed 1.5 random greedy
expect_error match "bad value '0' for --ply-limit" match --variant antigua --ply-limit 0 random greedy
expect_error match "unknown option '--bogus'" match --variant antigua --bogus random greedy
expect_error match "option '--json' takes no value" match --variant antigua --json=1 random greedy

run match --help
check "--help: exit 0, usage" test "$rc" -eq 0 -a -n "$out"
check "--help: synopsis" grep -q "usage: nickar match --variant V" <<<"$out"

finish
