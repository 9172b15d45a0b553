#!/usr/bin/env bash
# test_cli_hostile.sh -- damaged and hostile input to the nickar command:
# configs that are devices, FIFOs, directories, huge files or endless
# lines; newlines, escape sequences and bytes that are not UTF-8 in specs,
# --set, config paths, weights paths, run-file paths and selectors (each
# message stays one line, the bytes escaped as \n, \xHH); weights bounds
# too wide to evaluate; weights files with stray bytes; positions with
# leading zeros; --resume with fewer generations than the run has.
# Usage: test_cli_hostile.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

qs=$srcdir/configs/quickstart.ini

# ===== config files: only regular files, bounded =====
printf 'include = /dev/zero\n' >"$tmp/zero.ini"
expect_error evolve "zero.ini:1: cannot open included file /dev/zero: not a regular file" \
  evolve "$tmp/zero.ini"
printf 'include = /dev/urandom\n' >"$tmp/rand.ini"
expect_error evolve "cannot open included file /dev/urandom: not a regular file" \
  evolve "$tmp/rand.ini"
expect_error evolve "/dev/zero: cannot open: not a regular file" evolve /dev/zero --print-config
# under a memory limit too: an error, never the default config.  ASan
# reserves terabytes of address space, so a sanitized binary gets the same
# limit from its allocator instead of ulimit -v.
if grep -qa __asan_init "$nickar"; then
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_limit_mb=1000:allocator_may_return_null=1 \
    "$nickar" evolve /dev/zero --print-config >"$tmp/out" 2>"$tmp/err"
  echo $? >"$tmp/rc"
else
  (
    ulimit -v 1000000
    "$nickar" evolve /dev/zero --print-config >"$tmp/out" 2>"$tmp/err"
    echo $? >"$tmp/rc"
  )
fi
check "/dev/zero under ulimit -v: exit 2" test "$(cat "$tmp/rc")" -eq 2
check "/dev/zero under ulimit -v: no config printed" test ! -s "$tmp/out"
mkfifo "$tmp/fifo"
printf 'include = fifo\n' >"$tmp/fifo.ini"
expect_error evolve "cannot open included file $tmp/fifo: not a regular file" \
  evolve "$tmp/fifo.ini"
expect_error evolve "fifo: cannot open: not a regular file" evolve "$tmp/fifo"
printf 'include = .\n' >"$tmp/dir.ini"
expect_error evolve "cannot open included file $tmp/.: Is a directory" evolve "$tmp/dir.ini"
head -c 1048577 /dev/zero | tr '\0' '\n' >"$tmp/big.ini"
expect_error evolve "big.ini: cannot open: larger than 1 MiB" evolve "$tmp/big.ini"
{
  printf '[experiment]\ndescription = '
  head -c 1000000 /dev/zero | tr '\0' x
} >"$tmp/long.ini"
expect_error evolve "long.ini:2: line is longer than 197 characters" evolve "$tmp/long.ini"
printf 'include = cyc.ini\n' >"$tmp/cyc.ini"
expect_error evolve "include cycle" evolve "$tmp/cyc.ini"
# a read error is an error (exit 1), not the end of the file
if [[ -r /proc/self/mem ]]; then
  printf 'include = /proc/self/mem\n' >"$tmp/mem.ini"
  expect_exit 1 evolve "cannot read: Input/output error" evolve "$tmp/mem.ini" --print-config
fi

# ===== one message, one line: hostile bytes are escaped =====
nl=$'\n'
esc=$'\e'
ff=$'\xff'
# expect_escaped CMD TEXT ARGS...: one line on stderr, exit 2, containing
# TEXT, and no ESC, no 0xff byte in it
expect_escaped() {
  local cmd=$1 text=$2
  shift 2
  expect_error "$cmd" "$text" "$@"
  check "nickar $cmd: no raw ESC on stderr" test "$(tr -cd '\033\377' <"$tmp/err" | wc -c)" -eq 0
}
expect_escaped match "player spec 'ab:depth\\n=2'" \
  match --variant abapa --games 2 "ab:depth${nl}=2" random
expect_escaped match "player spec 'ab:depth=2,\\x1b[31mx\\xff'" \
  match --variant abapa --games 2 "ab:depth=2,${esc}[31mx${ff}" random
expect_escaped evolve "--set a\\nb: expected section.key=value" evolve "$qs" --set "a${nl}b"
expect_escaped evolve "--set player.depth=\\x1b[2J" evolve "$qs" --set "player.depth=${esc}[2J"
expect_escaped evolve "c\\nd\\x1b]0;x\\x07\\xff.ini: cannot open" evolve "$tmp/c${nl}d${esc}]0;x"$'\a'"${ff}.ini"
printf '[experiment]\nname = a\033b\n' >"$tmp/ctl.ini"
expect_escaped evolve "ctl.ini" evolve "$tmp/ctl.ini" --print-config
printf 'include = x\033[1my\n' >"$tmp/inc.ini"
expect_escaped evolve "cannot open included file $tmp/x\\x1b[1my" evolve "$tmp/inc.ini"
expect_escaped match "cannot open weights file '$tmp/w\\nx\\x1b\\xff'" \
  match --variant abapa --games 2 "ab:depth=1,weights=$tmp/w${nl}x${esc}${ff}" random
expect_escaped inspect "'$tmp/r\\nun\\x1b\\xff.h5'" inspect "$tmp/r${nl}un${esc}${ff}.h5"
expect_escaped match "'$tmp/r\\nun\\x1b.h5" \
  match --variant abapa --games 2 "ab:depth=1,weights=$tmp/r${nl}un${esc}.h5@best" random
expect_escaped show "bad position '4\\n" show --variant antigua --position "4${nl}4${esc}"
# valid UTF-8 is kept as it is
expect_error evolve "--set é: expected section.key=value" evolve "$qs" --set "é"

# ===== weight bounds: refused before any file is made =====
tiny_config "$tmp/tiny.ini" 4 random
expect_error evolve "player.weights_min: -1e308 is out of range [-1e100, 1e100]" \
  evolve "$tmp/tiny.ini" --set player.weights_min=-1e308 --set player.weights_max=1e308 \
  --output "$tmp/wb.h5"
check "weights bounds 1e308: no run file" test ! -e "$tmp/wb.h5"
check "weights bounds 1e308: no backup" test ! -e "$tmp/wb.h5.bak"
expect_ok evolve "$tmp/tiny.ini" --set player.weights_min=-1e100 --set player.weights_max=1e100 \
  --set experiment.generations=1 --output "$tmp/wb.h5" --quiet --threads 2

# ===== weights files: strict, regular, bounded =====
printf '0.\00087\n' >"$tmp/wnul.txt"
expect_error match "wnul.txt:1: line holds a NUL byte" \
  match --variant abapa --games 2 "ab:depth=1,features=material,weights=$tmp/wnul.txt" random
printf '0.87x\n' >"$tmp/wx.txt"
expect_error match "wx.txt:1: '0.87x' is not one number" \
  match --variant abapa --games 2 "ab:depth=1,features=material,weights=$tmp/wx.txt" random
printf '0.8\0337\n' >"$tmp/wesc.txt"
expect_escaped match "wesc.txt:1: '0.8\\x1b7' is not one number" \
  match --variant abapa --games 2 "ab:depth=1,features=material,weights=$tmp/wesc.txt" random
expect_error match "cannot open weights file '/dev/zero': not a regular file" \
  match --variant abapa --games 2 "ab:depth=1,features=material,weights=/dev/zero" random
expect_error match "cannot open weights file '$tmp/fifo': not a regular file" \
  match --variant abapa --games 2 "ab:depth=1,features=material,weights=$tmp/fifo" random
printf '0.87\n' >"$tmp/wok.txt"
run match --variant abapa --games 2 "ab:depth=1,features=material,weights=$tmp/wok.txt" random
check "a good weights file still plays" test "$rc" -eq 0

# ===== --resume cannot shorten a run =====
run evolve "$tmp/tiny.ini" --output "$tmp/r4.h5" --quiet --threads 2
check "4-generation run: exit 0" test "$rc" -eq 0
sum=$(md5sum <"$tmp/r4.h5")
expect_error evolve "r4.h5' already holds 4 generations, more than experiment.generations = 2; nothing to do" \
  evolve "$tmp/tiny.ini" --resume --set experiment.generations=2 --output "$tmp/r4.h5"
check "--resume shorter: the run file is unchanged" test "$(md5sum <"$tmp/r4.h5")" = "$sum"
expect_ok evolve "$tmp/tiny.ini" --resume --output "$tmp/r4.h5" --quiet --threads 2

# ===== positions: leading zeros are read (docs/rules.md R-B3, Engine note) =====
run show --variant antigua --position '4,4,4,4,4,4/4,4,4,4,4,4 17-022 S' --json
check "17-022 is read as 17-22" grep -q '"stores":\[17,22\]' <<<"$out"
run show --variant antigua --position '04,4,4,4,4,4/4,4,4,4,4,0004 017-22 S' --json
check "leading zeros in pits and stores" grep -q '"position":"4,4,4,4,4,4/4,4,4,4,4,4 17-22 S"' <<<"$out"

finish
