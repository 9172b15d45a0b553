#!/usr/bin/env bash
# test_runfile_damage.sh -- every reader of a run file refuses a damaged one
# cleanly.  From a real small run file this makes, deterministically,
#   - every truncation at 4 KiB steps (0, 4096, 8192, ... bytes kept);
#   - single-bit flips over the first 64 KiB: one byte every STRIDE bytes,
#     the bit cycling 0..7 (STRIDE fixed below);
# and gives each variant to four readers: `nickar inspect`, `inspect
# --json`, a 2-game `nickar match` whose player takes weights=FILE@best,
# and `nickar evolve --resume` (one generation more, no backup beside it).
# Each one must, within a time limit (timeout) and a memory limit (ulimit
# -v; under AddressSanitizer its RSS limit instead):
#   - exit 2 with exactly one line on stderr that names the damage ("damaged
#     run file" or "not a nickar run file"), nothing on stdout; or
#   - exit 0 when the damage hit bytes that mean nothing (free space, unused
#     parts of chunks and index nodes), with output identical to the
#     undamaged file's: the same text, the same JSON, the same match, and
#     for --resume the same run as an uninterrupted one
#     (scripts/compare-runs.py, at the end).
# Never exit 1, a crash, a hang or a blown memory limit.  The counts are
# printed at the end.
source "$(dirname "$0")/lib_cli.sh"

STRIDE=521        # bytes between flipped bytes (a prime: every offset mod 8);
                  # about 30 s in release, 3 min under AddressSanitizer
SPAN=65536        # flips cover the first SPAN bytes
TIME_LIMIT=20     # seconds per command
MEM_KB=1048576    # ulimit -v for each command (1 GiB)

asan=0
if ldd "$nickar" 2>/dev/null | grep -q libasan; then
  asan=1
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:hard_rss_limit_mb=1024:detect_leaks=1:fast_unwind_on_malloc=0"
  # two error paths of libhdf5 itself leak on damaged files
  # (tests/fuzz/lsan.supp, whose frames need the slow unwinder); every
  # other leak, nickar's first, is reported
  export LSAN_OPTIONS="suppressions=$srcdir/tests/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi

cfg=$tmp/small.ini
tiny_config "$cfg" 2 random

run evolve "$cfg" --output "$tmp/good.h5" --quiet
check "the small run exits 0 ($err)" test "$rc" -eq 0
cp "$tmp/good.h5" "$tmp/ref3.h5"
run evolve "$cfg" --set experiment.generations=3 --output "$tmp/ref3.h5" --resume --quiet
check "the undamaged file resumes to 3 generations ($err)" test "$rc" -eq 0
size=$(stat -c %s "$tmp/good.h5")
mkdir -p "$tmp/v" "$tmp/resumed"
f=$tmp/v/run.h5   # every variant is read under this one name

# limited CMD...: runs nickar CMD... in bounded time and memory; sets rc,
# out, err as run does.
limited() {
  if [[ $asan -eq 1 ]]; then
    timeout -s KILL "$TIME_LIMIT" "$nickar" "$@" >"$tmp/out" 2>"$tmp/err"
  else
    (ulimit -v "$MEM_KB"; exec timeout -s KILL "$TIME_LIMIT" "$nickar" "$@") \
      >"$tmp/out" 2>"$tmp/err"
  fi
  rc=$?
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
}

readers=(inspect json match resume)
read_with() {
  case $1 in
    inspect) limited inspect "$f" ;;
    json) limited inspect "$f" --json ;;
    match) limited match --variant abapa --games 2 --threads 1 \
             "ab:depth=1,features=positional,weights=$f@best" random ;;
    resume) limited evolve "$cfg" --set experiment.generations=3 --output "$f" \
              --resume --quiet ;;
  esac
}

# the undamaged file's outputs
for r in inspect json match; do
  cp "$tmp/good.h5" "$f"
  read_with "$r"
  check "$r of the undamaged file exits 0 ($err)" test "$rc" -eq 0
  cp "$tmp/out" "$tmp/ref.$r"
done

variants=0
declare -A exits
try_variant() {
  local tag=$1
  variants=$((variants + 1))
  for r in "${readers[@]}"; do
    cp "$tmp/v.h5" "$f"
    rm -f "$f.bak" "$f.damaged"
    read_with "$r"
    exits[$r:$rc]=$(( ${exits[$r:$rc]:-0} + 1 ))
    case $rc in
      0)
        if [[ $r == resume ]]; then
          cp "$f" "$tmp/resumed/$tag.h5"
          pass
        else
          check "$tag $r: exit 0 only with the undamaged output" cmp -s "$tmp/out" "$tmp/ref.$r"
        fi
        ;;
      2)
        if [[ $(wc -l <"$tmp/err") -eq 1 && -z $out ]] &&
           grep -q "damaged run file\|not a nickar run file" "$tmp/err"; then
          pass
        else
          fail "$tag $r: exit 2 without one line naming the damage"
        fi
        ;;
      *) fail "$tag $r: exit $rc (a crash, a hang or another failure)" ;;
    esac
  done
}

# every truncation at 4 KiB steps
for ((keep = 0; keep < size; keep += 4096)); do
  head -c "$keep" "$tmp/good.h5" >"$tmp/v.h5"
  try_variant "cut-$keep"
done

# single-bit flips
limit=$((size < SPAN ? size : SPAN))
i=0
for ((off = 0; off < limit; off += STRIDE)); do
  bit=$((i % 8))
  i=$((i + 1))
  cp "$tmp/good.h5" "$tmp/v.h5"
  byte=$(od -An -tu1 -j "$off" -N1 "$tmp/v.h5" | tr -d ' ')
  printf "$(printf '\\%03o' $((byte ^ (1 << bit))))" |
    dd of="$tmp/v.h5" bs=1 seek="$off" conv=notrunc status=none
  try_variant "flip-$off-$bit"
done

# a byte of the config text changed (a letter of a key, as a flipped bit
# can do): the text is an attribute that HDF5 keeps outside any of its
# checksums, so config_checksum must catch it
cp "$tmp/good.h5" "$tmp/v.h5"
off=$(grep -abo 'sigma_min' "$tmp/v.h5" | head -1 | cut -d: -f1)
check "the config text is in the file" test -n "$off"
printf 'x' | dd of="$tmp/v.h5" bs=1 seek="$((off + 1))" conv=notrunc status=none
cp "$tmp/v.h5" "$f"
read_with inspect
check "a changed config text: exit 2 naming the checksum ($err)" \
  test "$rc" -eq 2 -a "$(grep -c 'damaged run file.*config text does not match its checksum' "$tmp/err")" -eq 1

# the config attribute's message, which HDF5 keeps as a "huge" object of
# the root's attribute heap, without a checksum, and decoded unchecked
# (issue 27 finding 3: its dataspace size set to ff ff made HDF5 read
# beyond its buffer): each of the first 48 bytes of the message (sizes,
# name, datatype, dataspace) inverted, and each size field set to ff ff;
# every reader refuses the file or reads what the undamaged one gives
at=$("$python" -c '
import sys
b = open(sys.argv[1], "rb").read()
i = b.find(b"config\0")
print(i - 9 if i >= 9 and b[i - 9] == 3 and b[i - 7] == 7 else -1)' "$tmp/good.h5")
check "the config attribute message is found ($at)" test "$at" -gt 0
attr_damage() { # OFFSET HEXBYTES: those bytes written at the message's OFFSET
  cp "$tmp/good.h5" "$tmp/v.h5"
  printf "$(sed 's/../\\x&/g' <<<"$2")" |
    dd of="$tmp/v.h5" bs=1 seek="$((at + $1))" conv=notrunc status=none
}
for field in 2 4 6; do
  attr_damage "$field" ffff
  try_variant "config-attribute-size-$field-ffff"
done
for ((k = 0; k < 48; k++)); do
  byte=$(od -An -tx1 -j "$((at + k))" -N1 "$tmp/good.h5" | tr -d ' ')
  attr_damage "$k" "$(printf '%02x' $((0x$byte ^ 0xff)))"
  try_variant "config-attribute-byte-$k"
done

# a resume that went on must have made the uninterrupted run
nres=$(ls "$tmp/resumed" | wc -l)
if [[ $nres -gt 0 ]]; then
  "$python" "$srcdir/scripts/compare-runs.py" "$tmp/ref3.h5" "$tmp/resumed"/*.h5 >"$tmp/cmp" 2>&1
  check "every --resume that exited 0 made the uninterrupted run ($(grep -v ': same run' "$tmp/cmp" | head -3))" \
    test "$(grep -c ': same run: \|^same run: ' "$tmp/cmp")" -eq "$nres"
fi

summary="$variants variants of a $size-byte run file:"
for r in "${readers[@]}"; do
  summary+=" $r exit 2: ${exits[$r:2]:-0}, exit 0: ${exits[$r:0]:-0};"
done
echo "$summary"
finish
