#!/usr/bin/env bash
# test_files_damage.sh -- the reproducers of issue 27 (damaged tournament,
# CIAO, database, records, players and weights files), each a regression
# case: exit 2 (1 for an output that cannot be written) with exactly one
# line on stderr, and no sanitizer report under the asan preset.  The
# damaged inputs are also kept in tests/fuzz/regress/<kind>/ (replayed
# here through the command that reads that kind).
source "$(dirname "$0")/lib_cli.sh"
if ldd "$nickar" 2>/dev/null | grep -q libasan; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1"
  export LSAN_OPTIONS="suppressions=$srcdir/tests/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi
regress=$srcdir/tests/fuzz/regress

# one_line WANT_RC DESC: the last run exited WANT_RC with one line on
# stderr that starts "nickar " and no sanitizer report
one_line() {
  if [[ $rc -eq $1 && $(wc -l <"$tmp/err") -eq 1 && $err == nickar* ]]; then
    pass
  else
    fail "$2: exit $rc (want $1) with $(wc -l <"$tmp/err") lines on stderr"
  fi
}

# ===== finding 5: the note on an odd --games comes last, prefixed =====
run ciao /nonexistent.h5 --games 3
one_line 2 "ciao of a missing run file with --games 3"
run match --variant abapa random greedy --games 3 --records /dev/full
one_line 1 "match --games 3 --records /dev/full"
run tournament --variant abapa random greedy --games 3 --output /nonexistent/x.h5
one_line 1 "tournament --games 3 --output /nonexistent/x.h5"
run tournament --variant abapa random greedy --games 3
check "an odd --games in a tournament that succeeds: the note, last and prefixed ($err)" \
  test "$rc" -eq 0 -a "$(tail -1 "$tmp/err")" = \
  "nickar tournament: note: --games 3 is odd; playing 4 a pairing (colour-swapped pairs)"
run match --variant abapa random greedy --games 3
check "an odd --games in a match that succeeds: the note, last and prefixed ($err)" \
  test "$rc" -eq 0 -a "$(tail -1 "$tmp/err")" = \
  "nickar match: note: --games 3 is odd; playing 4 (colour-swapped pairs)"

# ===== findings 1, 2: tournament files =====
# regress/tourfile: chunk indexes damaged (tests/h5_chunk_index.py) and
# values forged with their checksums right (regress/forge_h5.c): a rank of
# 0, twice 1 or beyond the players (the printer indexed by it), a pairing
# of no player, games out of range, a move that is no pit, a cross table
# that is not the games'
n=0
for f in "$regress"/tourfile/*.h5; do
  n=$((n + 1))
  cp "$f" "$tmp/t.h5"
  run inspect "$tmp/t.h5"
  one_line 2 "inspect $(basename "$f")"
  run tournament --variant abapa --games 4 --quiet random greedy ab:depth=1 \
    --output "$tmp/t.h5" --resume
  one_line 2 "tournament --resume of $(basename "$f")"
  check "$(basename "$f"): a refused --resume leaves the file as it was" cmp -s "$f" "$tmp/t.h5"
done
check "damaged tournament files to replay ($n)" test "$n" -ge 16

finish
