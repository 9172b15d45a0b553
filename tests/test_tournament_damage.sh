#!/usr/bin/env bash
# test_tournament_damage.sh -- damaged tournament files: from a real small
# tournament file, a single-bit flip every 101 bytes of the whole file and a
# truncation every 4 KiB, each given to `nickar inspect` and to `nickar
# tournament --resume` (under timeout and ulimit -v): each exits 2 with one
# line on stderr, or 0 with exactly the undamaged file's output (the flip
# fell in space the file does not use); never 1, a crash or a timeout.
# Then damage that bit flips do not reach: every entry of every chunk index
# (tests/h5_chunk_index.py: the key after a chunk's address zeroed, so that
# HDF5 would read the chunk as fill values), in the whole file and in a
# partial one (512 of 600 meetings, left by a kill), through the same two
# commands: exit 2 and one line, or exit 0 with the undamaged output; a
# --resume that goes on must finish the uninterrupted tournament's file,
# byte for byte (no game lost).
# The counts are printed at the end.
source "$(dirname "$0")/lib_cli.sh"
TIME_LIMIT=20
MEM_KB=1048576
if ldd "$nickar" 2>/dev/null | grep -q libasan; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:hard_rss_limit_mb=1024:detect_leaks=1:fast_unwind_on_malloc=0"
  # two error paths of libhdf5 itself leak on damaged files
  # (tests/fuzz/lsan.supp, whose frames need the slow unwinder); every
  # other leak, nickar's first, is reported
  export LSAN_OPTIONS="suppressions=$srcdir/tests/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  MEM_KB=0
fi
targs=(tournament --variant abapa --games 4 --quiet --json random greedy ab:depth=1)
run "${targs[@]}" --output "$tmp/good.h5"
check "the tournament exits 0 ($err)" test "$rc" -eq 0
cp "$tmp/out" "$tmp/good.json"
run inspect "$tmp/good.h5" --json
cp "$tmp/out" "$tmp/good.inspect"

limited() {
  (
    [[ $MEM_KB -gt 0 ]] && ulimit -v "$MEM_KB"
    timeout "$TIME_LIMIT" "$nickar" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
  )
  rc=$?
}
same=0 refused=0
# judge WHAT EXPECTED_OUTPUT: exit 0 with that output, or exit 2 and one line
judge() {
  if [[ $rc -eq 0 ]] && cmp -s "$tmp/out" "$2"; then
    same=$((same + 1)); pass
  elif [[ $rc -eq 2 && $(wc -l <"$tmp/err") -eq 1 && ! -s $tmp/out ]]; then
    refused=$((refused + 1)); pass
  else
    fail "$1: exit $rc ($(head -c 300 "$tmp/err"))"
  fi
}
size=$(stat -c %s "$tmp/good.h5")
for ((off = 0; off < size; off += 101)); do
  "$python" -c '
import sys
p, o = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read()); b[o] ^= 1 << (o % 8)
open(sys.argv[3], "wb").write(b)' "$tmp/good.h5" "$off" "$tmp/bad.h5"
  limited inspect "$tmp/bad.h5" --json
  judge "inspect, bit flipped at byte $off" "$tmp/good.inspect"
  limited "${targs[@]}" --output "$tmp/bad.h5" --resume
  judge "--resume, bit flipped at byte $off" "$tmp/good.json"
done
for ((cut = 0; cut < size; cut += 4096)); do
  head -c "$cut" "$tmp/good.h5" >"$tmp/bad.h5"
  limited inspect "$tmp/bad.h5" --json
  judge "inspect, cut at $cut" "$tmp/good.inspect"
  limited "${targs[@]}" --output "$tmp/bad.h5" --resume
  judge "--resume, cut at $cut" "$tmp/good.json"
done
# every entry of every chunk index
export SOURCE_DATE_EPOCH=1764633600
index=$srcdir/tests/h5_chunk_index.py
# index_damage FILE FULL_FILE ARGS...: each index entry of FILE damaged,
# then inspect, and --resume of tournament ARGS (--json), which must exit 2
# or print the uninterrupted tournament's output and, from a partial file,
# make FULL_FILE
index_damage() {
  local file=$1 full=$2 entries=0
  shift 2
  run "$@" --output "$tmp/ref.h5" --force --json
  cp "$tmp/out" "$tmp/full.json"
  run inspect "$file" --json
  cp "$tmp/out" "$tmp/file.inspect"
  while read -r node child; do
    entries=$((entries + 1))
    "$python" "$index" "$file" "$node" "$child" "$tmp/bad.h5"
    limited inspect "$tmp/bad.h5" --json
    judge "inspect, index $node entry $child damaged" "$tmp/file.inspect"
    limited "$@" --output "$tmp/bad.h5" --resume --json
    if [[ $rc -eq 0 && $file != "$full" ]]; then
      check "--resume of index $node entry $child damaged: exit 0 only with every game" \
        cmp -s "$tmp/bad.h5" "$full"
    fi
    judge "--resume, index $node entry $child damaged" "$tmp/full.json"
  done < <("$python" "$index" "$file")
  check "$file has chunk indexes ($entries entries)" test "$entries" -gt 10
}
run "${targs[@]}" --output "$tmp/whole.h5"
index_damage "$tmp/whole.h5" "$tmp/whole.h5" "${targs[@]}"
testbin=${NICKAR_TEST_BIN:-$(dirname "$nickar")/tests/nickar-test}
if [[ -x $testbin ]]; then
  # 600 meetings in batches of 64 from 0: a kill at the first step of the
  # tenth write leaves the file of 512
  pargs=(tournament --variant abapa --games 200 --quiet --threads 2 random greedy ab:depth=1
         ab:depth=2)
  run "${pargs[@]}" --output "$tmp/full.h5"
  NICKAR_KILL_AT=353 "$testbin" "${pargs[@]}" --output "$tmp/part.h5" >/dev/null 2>&1
  run inspect "$tmp/part.h5" --json
  check "the killed tournament left 512 of 600 meetings" \
    grep -q '"meetings_done":512,"meetings_total":600' "$tmp/out"
  index_damage "$tmp/part.h5" "$tmp/full.h5" "${pargs[@]}"
else
  fail "no nickar-test binary ($testbin) for the partial file"
fi
echo "damaged files: $same read as the undamaged one, $refused refused with one line"
finish
