#!/usr/bin/env bash
# test_cli_play.sh -- `nickar play` with piped input: a whole game that ends
# with its result and a record that replays to it, bad input answered with
# the legal moves, hint, undo, quit, end of input, Antigua's extra move,
# Adji Kui II's forced pass, and bad options.
# Usage: test_cli_play.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

start='4,4,4,4,4,4/4,4,4,4,4,4 0-0 S'

# play INPUT ARGS...: runs nickar play ARGS with INPUT on stdin.
play() {
  local input=$1
  shift
  printf '%b' "$input" | "$nickar" play "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
}
has() { grep -qF -- "$1" <<<"$out"; }
# The moves of the record line printed at the end ("record: POS S|N moves").
record_moves() { sed -n 's/^record: [^ ]* [^ ]* [SN] *//p' <<<"$out"; }

# ===== a whole game: typing every letter in turn always finds a legal move
letters=$(for i in $(seq 300); do printf 'a\\nb\\nc\\nd\\ne\\nf\\n'; done)
upper=$(for i in $(seq 300); do printf 'A\\nB\\nC\\nD\\nE\\nF\\n'; done)
for variant in antigua abapa; do
  play "$letters" --variant "$variant" --opponent greedy --record "$tmp/game.txt"
  check "$variant game: exit 0" test "$rc" -eq 0 -a -z "$err"
  check "$variant game: over" has "Game over: "
  check "$variant game: verdict" grep -qE "after [0-9]+ plies: (you win|you lose|a draw)\.$" <<<"$out"
  check "$variant game: record printed" grep -q "^record: $start [a-fA-F-]" <<<"$out"
  check "$variant game: record saved, one line" test "$(wc -l <"$tmp/game.txt")" -eq 1
  check "$variant game: the saved line is a game record of that record" \
    test "$(sed -n 's/^game variant='"$variant"' limit=1000 south=human north=greedy .* record=//p' "$tmp/game.txt")" = "$(sed -n 's/^record: //p' <<<"$out")"
  "$nickar" replay "$tmp/game.txt" >"$tmp/replay-file" 2>&1
  check "$variant game: nickar replay reads the saved game" grep -qF "$(sed -n 's/^record: //p' <<<"$out")" "$tmp/replay-file"
  check "$variant game: illegal letters answered" has "is not a legal move here; your legal moves: "
  # The record replays to the same result.
  result=$(grep "^Game over: " <<<"$out" | sed 's/^Game over: \(.*\) after .*/\1/')
  moves=$(record_moves)
  "$nickar" replay --variant "$variant" $moves >"$tmp/replay" 2>&1
  check "$variant game: record replays ($result)" grep -qF "$result" "$tmp/replay"
done

# As North against random: the opponent moves first, the game ends.
play "$upper" --variant bridgetown --opponent random --as N --seed 5
check "as North: exit 0" test "$rc" -eq 0
check "as North: South moves first" grep -q "^South (random) plays [a-f]" <<<"$out"
first=$(grep -m1 "^South (random) plays" <<<"$out")
play "$upper" --variant bridgetown --opponent random --as N --seed 5
check "same seed, same game" test "$first" = "$(grep -m1 "^South (random) plays" <<<"$out")"
check "as North: over" has "Game over: "

# ===== bad input, hint, help, board =====
play 'zz\nA\n\nhelp\nhint\nboard\nquit\n' --variant antigua --opponent greedy
check "bad input: exit 0" test "$rc" -eq 0
check "unknown word answered with the legal moves" \
  has "'zz' is not a move or a command; your legal moves: a, b, c, d, e, f"
check "North's pit answered with the legal moves" \
  has "'A' is not a legal move here; your legal moves: a, b, c, d, e, f"
check "help lists the commands" has "undo      take back your last move"
check "hint names a move" grep -q "^hint: ab:depth=6 would play [a-f] (evaluation .*; depth 6, [0-9]* nodes)\.$" <<<"$out"
check "quit: stopped" has "Game stopped after 0 plies: you quit."
check "quit: record" grep -qx "record: $start" <<<"$out"

# ===== undo =====
play 'undo\nb\nundo\nc\nquit\n' --variant antigua --opponent greedy
check "undo before any move" has "Nothing to undo: you have not moved yet."
check "undo takes back two plies" has "Took back 2 plies."
check "undo: only c and the reply remain" grep -qE "^record: $start c [A-F]$" <<<"$out"
# An ab opponent shows its evaluation.
play 'a\nquit\n' --variant antigua --opponent ab:depth=3
check "opponent's evaluation" grep -qE "^North \(ab:depth=3\) plays [A-F] \((evaluation|sees) .*depth 3, [0-9]+ nodes\)\.$" <<<"$out"

# ===== end of input =====
play 'a\n' --variant antigua --opponent greedy
check "EOF: exit 0" test "$rc" -eq 0 -a -z "$err"
check "EOF: said" has "(end of input)"
check "EOF: stopped as quit" has "Game stopped after 2 plies: you quit."
check "EOF: record" grep -qE "^record: $start a [A-F]$" <<<"$out"
play '' --variant antigua --opponent greedy
check "empty input: exit 0" test "$rc" -eq 0 -a -z "$err"

# ===== Antigua's extra move: a grand slam, then the same player again =====
play 'f\ne\nquit\n' --variant antigua --opponent greedy --position '0,0,2,0,5,3/1,2,1,0,0,0 12-22 S'
check "grand slam" has "South (you) plays f and captures 7 (grand slam)."
check "plays again" has "South plays again."
check "the extra move is typed" has "South (you) plays e."
check "record with two South moves" grep -qE "^record: 0,0,2,0,5,3/1,2,1,0,0,0 12-22 S f e [A-F]" <<<"$out"
# undo after the extra move takes back only e (and the reply).
play 'f\ne\nundo\nquit\n' --variant antigua --opponent greedy --position '0,0,2,0,5,3/1,2,1,0,0,0 12-22 S'
check "undo after an extra move" grep -qx "record: 0,0,2,0,5,3/1,2,1,0,0,0 12-22 S f" <<<"$out"

# ===== Adji Kui II: a person with only a pass passes automatically =====
play 'undo\nquit\n' --variant adjikui --opponent random --as N --position '0,0,0,0,1,4/0,0,0,0,0,0 0-0 N'
check "pass: told" has "You have no move: you pass."
check "pass: made" has "North (you) passes."
check "pass: the game ends by passes" grep -q "^Game over: .*(passes) after 4 plies" <<<"$out"
check "pass: record" grep -qx "record: 0,0,0,0,1,4/0,0,0,0,0,0 0-0 N - f - -" <<<"$out"

# A finished position: nothing to play, the result at once.
play '' --variant antigua --opponent greedy --position '0,0,0,0,0,0/0,0,0,0,0,0 25-23 S'
check "finished position: result" has "Game over: South wins 25-23 (majority) after 0 plies: you win."

# ===== bad options =====
expect_error play "missing --opponent SPEC" play --variant antigua
expect_error play "missing --variant" play --opponent greedy
expect_error play "opponent: unknown player 'bogus'" play --variant antigua --opponent bogus
expect_error play "the opponent cannot be 'human'" play --variant antigua --opponent human
expect_error play "opponent: feature set 'adjikui' does not suit" play --variant antigua \
  --opponent ab:features=adjikui
expect_error play "bad value 'west' for --as: expected S or N" play --variant antigua \
  --opponent greedy --as west
expect_error play "bad value 'x' for --seed" play --variant antigua --opponent greedy --seed x
expect_error play "unexpected argument 'a'" play --variant antigua --opponent greedy a
expect_error play "option '--record' needs a file name" play --variant antigua --opponent greedy --record=
run play --variant antigua --opponent greedy --position '4,4,4/4 0-0 S'
check "bad position: exit 2" test "$rc" -eq 2 -a -n "$err"
play 'quit\n' --variant antigua --opponent greedy --record /nonexistent-dir/game.txt
check "unwritable record: exit 1" test "$rc" -eq 1
check "unwritable record: said" grep -q "^nickar play: cannot write the record to '/nonexistent-dir/game.txt'" <<<"$err"
run play --help
check "--help: exit 0" test "$rc" -eq 0
check "--help: synopsis" grep -q "usage: nickar play --variant V --opponent SPEC" <<<"$out"

finish
