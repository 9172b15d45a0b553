#!/usr/bin/env bash
# test_function_length.sh -- no function under src/ is over 100 lines
# (scripts/check-function-length.py), except those whose comment says why
# they stay long ("nk: long function: REASON": the search's numbered-step
# nodes, the hot loops) and those of tests/function_length_allow.txt, which
# their owners are splitting.  The checker must pass on the real tree and
# must fail, naming the file, the line, the function and its length, on
# copies of the tree with a long function planted, with an exemption
# without a reason or on a short function, and with an allow-list line
# whose function is gone or no longer long (so the list can only shrink):
# so that it cannot pass by checking nothing.
# Usage: test_function_length.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

checker=$srcdir/scripts/check-function-length.py
allow=$srcdir/tests/function_length_allow.txt

# lint SRC [ALLOW] [ARGS...]: the checker on SRC with the allow list ALLOW
# (none when empty); sets $rc, $out, $err.
lint() {
  local src=$1 al=${2:-}
  shift 2
  "$python" "$checker" ${al:+--allow "$al"} "$@" "$src" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
}

lint "$srcdir/src" "$allow"
check "the real tree has no unexempted function over 100 lines" test "$rc" -eq 0 -a -z "$out$err"

# The checker reads the functions it is meant to: the real tree has long
# functions (exempt or allowed), and short ones that a low limit catches.
lint "$srcdir/src" "$allow" --all
check "--all lists the exempt functions of the real tree" grep -q '(exempt: ' <<<"$out"
lint "$srcdir/src" "" --limit 20
check "with --limit 20 the real tree has many offences" test "$rc" -eq 1 -a "$(grep -c . <<<"$out")" -gt 100
check "with --limit 20: nk_tb_count (4 lines) is no offence" test "${out/: nk_tb_count:/}" = "$out"

# body N: a C function body of N lines in all, from its name to its
# closing brace.
body() {
  local n=$1 name=$2 i
  printf 'int %s(int x)\n{\n' "$name"
  for ((i = 0; i < n - 4; i++)); do printf '    x += %d; /* { */\n' "$i"; done
  printf '    return x;\n}\n'
}

# plant FILE TEXT: a fresh copy of src/ with TEXT (a file's content) added
# as FILE.
plant() {
  rm -rf "$tmp/src"
  cp -r "$srcdir/src" "$tmp/src"
  printf '%s\n' "$2" >"$tmp/src/$1"
}

# expect_offence DESC TEXT...: the last lint failed (exit 1) with exactly
# one offence line that contains every TEXT.
expect_offence() {
  local desc=$1
  shift
  if [[ $rc -ne 1 ]]; then
    fail "$desc: checker exit $rc, want 1"
    return
  fi
  if [[ $(grep -c . <<<"$out") -ne 1 ]]; then
    fail "$desc: $(grep -c . <<<"$out") offence lines, want 1"
    return
  fi
  for t in "$@"; do
    if [[ $out != *"$t"* ]]; then
      fail "$desc: offence line lacks '$t'"
      return
    fi
  done
  pass
}

plant base/planted.c "/* planted */
$(body 101 nk_planted_long)"
lint "$tmp/src" "$allow"
expect_offence "a planted 101-line function" "src/base/planted.c:2: nk_planted_long: 101 lines"

plant base/planted.c "$(body 100 nk_planted_ok)"
lint "$tmp/src" "$allow"
check "a planted 100-line function passes" test "$rc" -eq 0 -a -z "$out"

plant base/planted.c "static const char *s = \"}\";
/* a comment with braces { { */
static int
$(body 101 nk_planted_after)"
lint "$tmp/src" "$allow"
expect_offence "a long function after braces in a string and a comment" \
  "src/base/planted.c:4: nk_planted_after: 101 lines"

plant base/planted.c "/* What it does.
 * nk: long function: planted to be exempt */
$(body 150 nk_planted_exempt)"
lint "$tmp/src" "$allow" --all
check "an exempt long function passes ($out)" test "$rc" -eq 0
check "--all names it with its reason" grep -q 'nk_planted_exempt: 150 lines (exempt: planted to be exempt)' <<<"$out"

plant base/planted.c "/* nk: long function: planted to be exempt */

$(body 150 nk_planted_apart)"
lint "$tmp/src" "$allow"
expect_offence "a mark that is not directly above the function does not exempt it" \
  "nk_planted_apart: 150 lines"

plant base/planted.c "/* nk: long function: */
$(body 150 nk_planted_noreason)"
lint "$tmp/src" "$allow"
expect_offence "an exemption without a reason" "nk_planted_noreason" "without a reason"

plant base/planted.c "/* nk: long function: planted, but short */
$(body 30 nk_planted_short)"
lint "$tmp/src" "$allow"
expect_offence "an exemption on a short function" "nk_planted_short: 30 lines" "not over 100"

# The allow list: a planted long function allowed passes; a line whose
# function is gone or short fails.
plant base/planted.c "$(body 120 nk_planted_allowed)"
cp "$allow" "$tmp/allow"
echo "src/base/planted.c:nk_planted_allowed" >>"$tmp/allow"
lint "$tmp/src" "$tmp/allow"
check "an allowed long function passes" test "$rc" -eq 0 -a -z "$out"

plant base/planted.c "$(body 60 nk_planted_allowed)"
lint "$tmp/src" "$tmp/allow"
expect_offence "an allowed function no longer long" "nk_planted_allowed: 60 lines" "take the line out"

cp "$allow" "$tmp/allow"
echo "src/base/planted.c:nk_no_such_function" >>"$tmp/allow"
lint "$srcdir/src" "$tmp/allow"
expect_offence "an allowed function that does not exist" "nk_no_such_function: no such function"

printf 'src/base/planted.c nk_planted\n' >"$tmp/allow"
lint "$srcdir/src" "$tmp/allow"
check "an allow-list line that is not PATH:FUNCTION: exit 2 naming it" \
  test "$rc" -eq 2 -a -n "$err" -a "${err/planted.c nk_planted/}" != "$err"

finish
