#!/usr/bin/env bash
# test_files_damage.sh -- the reproducers of issue 27 (damaged tournament,
# CIAO, database, records, players and weights files), each a regression
# case: exit 2 (1 for an output that cannot be written) with exactly one
# line on stderr, and no sanitizer report under the asan preset.  The
# damaged inputs are also kept in tests/fuzz/regress/<kind>/ (replayed
# here through the command that reads that kind).
source "$(dirname "$0")/lib_cli.sh"
if ldd "$nickar" 2>/dev/null | grep -q libasan; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1:fast_unwind_on_malloc=0"
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

# ===== finding 4: database values forged with their checksum right =====
# forge_tb DB OUT VALUE [INDEX]: the data byte INDEX (every one without
# it) set to VALUE, the checksum computed again
forge_tb() {
  "$python" - "$@" <<'PY'
import sys
p, out, value = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(p, "rb").read())
if len(sys.argv) > 4:
    b[96 + int(sys.argv[4])] = value
else:
    b[96:] = bytes([value]) * (len(b) - 96)
x = 0xcbf29ce484222325
for c in bytes(b[:48]) + bytes(8) + bytes(b[56:]):
    x = ((x ^ c) * 0x100000001b3) & 0xffffffffffffffff
b[48:56] = x.to_bytes(8, "little")
open(out, "wb").write(b)
PY
}
mkdir -p "$tmp/tb" "$tmp/forged"
run tablebase build --variant abapa --seeds 5 --output "$tmp/tb"
check "a 5-seed abapa database ($err)" test "$rc" -eq 0
run tablebase build --variant speightstown --seeds 4 --output "$tmp/tb"
check "a 4-seed speightstown database ($err)" test "$rc" -eq 0
pos='1,0,0,0,1,0/0,1,1,0,1,0 20-23 S'
run solve --variant abapa --position "$pos" --tb "$tmp/tb"
check "the undamaged database solves ($err)" test "$rc" -eq 0
# byte 0 is the position of no seeds (count 0), bytes 1..12 those of one
# seed; speightstown's second plane starts after its 1820 positions
# (C(16, 12)), 1821 is its entry of one seed in pit a
for c in "abapa all-127 127" "abapa one-seed-value-2 2 1" "abapa no-seeds-cycle 64 0" \
         "abapa bit-0x80 129 5" "speightstown first-plane-cycle 65 3" \
         "speightstown second-plane-2 2 1821" "speightstown planes-sum-over 1 1821"; do
  read -r variant name value index <<<"$c"
  rm -rf "$tmp/forged" && mkdir -p "$tmp/forged"
  forge_tb "$tmp/tb/$variant.nktb" "$tmp/forged/$variant.nktb" "$value" $index
  run solve --variant "$variant" --position "$pos" --tb "$tmp/forged"
  one_line 2 "solve with a forged $variant database ($name)"
  check "the forged $name database is named as damaged ($err)" grep -q "damaged endgame database" <<<"$err"
  run tablebase info "$tmp/forged/$variant.nktb"
  one_line 2 "tablebase info of a forged $variant database ($name)"
done
# the same, kept in regress/tb (forged-VARIANT-NAME.nktb)
n=0
for f in "$regress"/tb/*.nktb; do
  n=$((n + 1))
  variant=$(basename "$f" | cut -d- -f2)
  run tablebase info "$f"
  one_line 2 "tablebase info $(basename "$f")"
done
check "forged databases to replay ($n)" test "$n" -ge 7

# ===== finding 6 (weights files): the parameter tables' number reader =====
# regress/weights: a hex integer and a hex float (read as 16 and 8 before),
# two numbers on a line
n=0
for f in "$regress"/weights/*.txt; do
  n=$((n + 1))
  run match --variant abapa --games 2 "ab:depth=1,features=positional,weights=$f" random
  one_line 2 "a weights file $(basename "$f")"
  check "$(basename "$f") is named as no number ($err)" grep -q ":[0-9]*: '.*' is not one number" <<<"$err"
done
check "weights files to replay ($n)" test "$n" -ge 3
printf '0x1p3\n' >"$tmp/w.txt"
for i in 2 3 4 5 6 7 8 9; do printf '%s\n' "$i" >>"$tmp/w.txt"; done
run match --variant abapa --games 2 "ab:depth=1,features=positional,weights=$tmp/w.txt" random
one_line 2 "nine weights, the first a hex float"
sed -i 1s/.*/8/ "$tmp/w.txt"
run match --variant abapa --games 2 "ab:depth=1,features=positional,weights=$tmp/w.txt" random
check "the same nine weights in decimal play ($err)" test "$rc" -eq 0
# and a config's numbers, read by the same reader
tiny_config "$tmp/c.ini" 1 random
run evolve "$tmp/c.ini" --set selection.rank_pressure=0x1.8p0 --print-config
one_line 2 "a config number in C's hex float notation"
run evolve "$tmp/c.ini" --set selection.rank_pressure=1.5 --print-config
check "the same number in decimal is taken ($err)" test "$rc" -eq 0
# and every other number nickar reads outside a table: a scoring, an
# --anchor, a ladder's Elo (one strict reader, base/param.h)
run evolve "$tmp/c.ini" --set fitness.scoring=0x2,1,0 --print-config
one_line 2 "a scoring with a hex number"
run evolve "$tmp/c.ini" --set fitness.scoring=2,1,1e999 --print-config
one_line 2 "a scoring with a number beyond a double"
run evolve "$tmp/c.ini" --set fitness.scoring=2,1,0 --print-config
check "the decimal scoring is taken ($err)" test "$rc" -eq 0
run tournament --variant abapa --games 2 --quiet random greedy --anchor random=0x10
one_line 2 "an --anchor Elo in hex"
run tournament --variant abapa --games 2 --quiet random greedy --anchor random=16
check "the --anchor Elo in decimal is taken ($err)" test "$rc" -eq 0
printf 'random\trandom\t0\ngreedy\tgreedy\t0x1p6\n' >"$tmp/l.tsv"
run rate --variant abapa --games 2 --ladder "$tmp/l.tsv" greedy
one_line 2 "a ladder Elo in hex"
printf 'random\trandom\t0\ngreedy\tgreedy\t64\n' >"$tmp/l.tsv"
run rate --variant abapa --games 2 --ladder "$tmp/l.tsv" greedy
check "the ladder Elo in decimal is taken ($err)" test "$rc" -eq 0

# ===== players files: refused at the first line beyond the count =====
n=0
for f in "$regress"/players/*.txt; do
  n=$((n + 1))
  run tournament --variant abapa --players "$f" --games 2 --quiet
  one_line 2 "players file $(basename "$f")"
done
check "players files to replay ($n)" test "$n" -ge 3
run tournament --variant abapa --players "$regress/players/2001-players.txt" --games 2 --quiet
check "the 2001st player is refused at its line ($err)" grep -q "2001-players.txt:2001: more than 2000 players" <<<"$err"

# ===== records: ply counts, limits, moves and results checked =====
n=0
for f in "$regress"/records/*.txt; do
  n=$((n + 1))
  run view -o "$tmp/v.html" "$f"
  one_line 2 "view of records $(basename "$f")"
  run replay --game 1 "$f"
  one_line 2 "replay of records $(basename "$f")"
done
check "records files to replay ($n)" test "$n" -ge 9

# ===== finding 3, and CIAO's input: damaged run files =====
# regress/ciao: the config attribute's dataspace size set to ff ff (HDF5
# read beyond its buffer while nickar looked the attribute up), chunk
# indexes damaged
n=0
for f in "$regress"/ciao/*.h5; do
  n=$((n + 1))
  run ciao "$f" --games 2 --output "$tmp/c.h5" --force
  one_line 2 "ciao of $(basename "$f")"
  check "ciao of $(basename "$f") names the damage ($err)" grep -q "damaged run file" <<<"$err"
  run inspect "$f"
  one_line 2 "inspect of $(basename "$f")"
done
check "damaged run files to replay ($n)" test "$n" -ge 3

finish
