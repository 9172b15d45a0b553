#!/usr/bin/env bash
# test_cli_errors.sh -- bad input to the nickar command: each case must exit
# with status 2, print nothing on stdout and one line on stderr that names
# the command and what is wrong (docs/cli.md, "Exit status").
# Usage: test_cli_errors.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

start='4,4,4,4,4,4/4,4,4,4,4,4 0-0 S'
slam='0,0,2,0,0,3/1,2,1,0,0,0 17-22 S'

# ===== the dispatcher =====
run
check "nickar alone: usage, exit 2" test "$rc" -eq 2 -a -z "$out"
run frobnicate
check "unknown command: exit 2" test "$rc" -eq 2 -a -z "$out"
check "unknown command: named" grep -q "unknown command 'frobnicate'" <<<"$err"

# ===== options, for every command =====
for c in rules show replay perft bench; do
  expect_error "$c" "unknown option '--bogus'" "$c" --bogus
  expect_error "$c" "unknown option '-x'" "$c" -x
  expect_error "$c" "unknown option '--bogus=1'" "$c" --bogus=1
done
expect_error rules "unexpected argument 'extra'" rules extra
expect_error show "unexpected argument 'extra'" show --variant antigua extra
expect_error perft "unexpected argument '3'" perft --variant antigua --depth 2 3
expect_error bench "unexpected argument 'x'" bench --games 1 x
expect_error show "option '--json' takes no value" show --variant antigua --json=yes
expect_error replay "option '--random' takes no value" replay --variant antigua --random=1
expect_error show "option '--variant' needs a value" show --variant
expect_error perft "option '--depth' needs a value" perft --variant antigua --depth

# perft needs a depth: the checks below give it one.
args() { [[ $1 == perft ]] && echo "--depth 1"; }

# ===== variants =====
for c in show replay perft; do
  expect_error "$c" "missing --variant V (one of: antigua, speightstown, bridgetown, adjikui, abapa, awari)" \
    "$c" $(args "$c")
  expect_error "$c" "unknown variant 'warri' (one of: antigua," "$c" --variant warri $(args "$c")
  expect_error "$c" "unknown variant ''" "$c" --variant= $(args "$c")
done
expect_error bench "unknown variant 'Antigua'" bench --variant Antigua --games 1

# ===== positions: show, replay and perft share the reader =====
bad_position() { # TEXT WHAT...
  local text=$1
  shift
  for c in show replay perft; do
    expect_error "$c" "bad position '" "$c" --variant antigua $(args "$c") --position "$text"
    for what in "$@"; do
      check "$c: the message about '$text' says '$what'" grep -qF -- "$what" <<<"$err"
    done
  done
}
bad_position '' 'empty'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4'
bad_position '4/4'
bad_position '4,4,4,4,4/4,4,4,4,4,4 0-0 S' "South's" '6 counts'
bad_position '4,4,4,4,4,4,4/4,4,4,4,4,4 0-0 S' "South's" '6 counts'
bad_position '4,4,4,4,4,4/4,4,4,4,4 0-0 S' "North's" '6 counts'
bad_position '4,4,x,4,4,4/4,4,4,4,4,4 0-0 S' 'item 3' 'not a number'
bad_position '4,4,-1,4,4,4/4,4,4,4,4,4 0-0 S' 'item 3' 'negative'
bad_position '4,4,4,4,4,4/4,4,4,4,256,4 0-0 S' "North's" 'pit 5' '255'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4 0-256 S' 'store' '255'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4 -1-0 S' 'field 2'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4 0:0 S' 'field 2'
bad_position '200,50,4,4,4,4/4,4,4,4,4,4 0-0 S' '290 seeds' '255'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4 0-0' 'field 3'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4 0-0 X' 'field 3'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSN' 'field 4' 'twelve'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSNNNNNNS' 'field 4' 'twelve'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSNNNNNX' 'field 4' 'twelve'
bad_position '4,4,4,4,4,4/4,4,4,4,4,4 0-0 S SSSSSSNNNNNN x' 'field 4'
bad_position "$(printf '4,4\n,4')" '\n'
for c in show replay perft; do
  expect_error "$c" "bad position '$start SSSSSSSSNNNN' for abapa: only adjikui positions have an owners field" \
    "$c" --variant abapa $(args "$c") --position "$start SSSSSSSSNNNN"
done
long=$(printf '4,%.0s' {1..3000})
bad_position "$long" '...'
check "a long position is cut in the message" test "${#err}" -lt 400

# ===== moves =====
expect_error replay "bad move 'z' (move 2)" replay --variant antigua c z
expect_error replay "bad move 'cD' (move 1)" replay --variant antigua cD
expect_error replay "bad move '' (argument 2)" replay --variant antigua c ''
expect_error replay "illegal move 1 'A' for South" replay --variant antigua A
check "an illegal move's message lists the legal ones" \
  grep -q "legal moves: a, b, c, d, e, f$" <<<"$err"
expect_error replay "illegal move 2 'c' for North" replay --variant antigua c c
check "... after the position" grep -qF "4,4,0,5,5,5/5,4,4,4,4,4 0-0 N; legal moves: A, B, C, D, E, F" <<<"$err"
expect_error replay "illegal move 1 '-'" replay --variant abapa -
expect_error replay "illegal move 1 'a'" replay --variant adjikui --position '1,0,0,0,0,0/0,0,0,0,0,2 0-0 S' a
check "adjikui: a lone seed cannot be sown, so the pass is the move" grep -q "legal moves: -$" <<<"$err"
expect_error replay "move 2 'c' comes after the end of the game: South wins 26-22 (no-feed)" \
  replay --variant antigua --position "$slam" f c
expect_error replay "comes after the end of the game" \
  replay --variant antigua --position '0,0,0,0,0,0/1,0,0,0,0,0 20-27 S' a
expect_error replay "comes after the end" replay --variant antigua --random --position "$slam" f c

# ===== numbers =====
expect_error perft "missing --depth D" perft --variant antigua
for d in 0 65 -1 x 1x '' 99999999999999999999999; do
  expect_error perft "bad value '$d' for --depth: expected an integer from 1 to 64" \
    perft --variant antigua --depth "$d"
done
expect_error bench "bad value '0' for --games" bench --games 0
expect_error bench "bad value '1e3' for --games" bench --games 1e3
expect_error bench "bad value '-5' for --seed" bench --seed -5
expect_error bench "bad value '18446744073709551616' for --seed" bench --seed 18446744073709551616
expect_error replay "bad value 'x' for --seed" replay --variant antigua --random --seed x
expect_error replay "option '--seed' needs --random" replay --variant antigua --seed 3

# ===== a runtime failure: output that cannot be written =====
if [[ -w /dev/full ]]; then
  for args in "rules" "show --help" "replay --variant antigua --random"; do
    "$nickar" $args >/dev/full 2>"$tmp/err"
    rc=$?
    check "nickar $args >/dev/full: exit 1" test "$rc" -eq 1
    check "nickar $args >/dev/full: one line on stderr" \
      test "$(grep -c '^nickar .*: cannot write the output' "$tmp/err")" -eq 1 -a "$(wc -l <"$tmp/err")" -eq 1
  done
fi

finish
