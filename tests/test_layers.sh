#!/usr/bin/env bash
# test_layers.sh -- no #include under src/ runs up or sideways against the
# layer order of src/layers.txt (scripts/check-layers.sh).  The checker must
# pass on the real tree, and must fail, naming the file, the line and the
# header, on copies of the tree with an include planted upward (rules
# including io), sideways (evolve including search), to a layer that is not
# declared, and from a directory that is not declared -- so that it cannot
# pass by checking nothing.
# Usage: test_layers.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

checker=$srcdir/scripts/check-layers.sh

bash "$checker" "$srcdir/src" >"$tmp/out" 2>"$tmp/err"
rc=$?
out=$(cat "$tmp/out")
err=$(cat "$tmp/err")
check "the real tree keeps the layer order" test "$rc" -eq 0 -a -z "$out"

# The checker reads the includes it is meant to: the real tree has some of
# every kind it accepts (own layer, a layer below, own directory).
check "the real tree has includes to check" \
  grep -rqE '^#include "(base|rules)/' "$srcdir/src/io"

# plant SUBPATH LINE: a fresh copy of src/ with LINE added at the end of
# SUBPATH; runs the checker on it.
plant() {
  rm -rf "$tmp/src"
  cp -r "$srcdir/src" "$tmp/src"
  mkdir -p "$(dirname "$tmp/src/$1")"
  printf '%s\n' "$2" >>"$tmp/src/$1"
  bash "$checker" "$tmp/src" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
}

# expect_offence DESC TEXT...: the last plant failed (exit 1) with exactly
# one offence line that contains every TEXT.
expect_offence() {
  local desc=$1
  shift
  local lines
  lines=$(grep -c . <<<"$out")
  if [[ $rc -ne 1 ]]; then
    fail "$desc: checker exit $rc, want 1"
    return
  fi
  if [[ $lines -ne 1 ]]; then
    fail "$desc: $lines offence lines, want 1"
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

lines_of() { wc -l <"$srcdir/src/$1"; }

n=$(($(lines_of rules/pos.c) + 1))
plant rules/pos.c '#include "io/config.h"'
expect_offence "upward include (rules -> io)" "src/rules/pos.c:$n:" '"io/config.h"' upward

n=$(($(lines_of evolve/genome.h) + 1))
plant evolve/genome.h '#include "search/player.h"'
expect_offence "sideways include (evolve -> search)" "src/evolve/genome.h:$n:" \
  '"search/player.h"' sideways

n=$(($(lines_of base/rng.c) + 1))
plant base/rng.c '#  include "rules/rules.h"'
expect_offence "upward include with spaces (base -> rules)" "src/base/rng.c:$n:" \
  '"rules/rules.h"' upward

plant exec/exec.c '#include "nowhere/x.h"'
expect_offence "include of an undeclared layer" "src/exec/exec.c:" '"nowhere/x.h"' \
  "not a layer"

plant stray/x.c '#include "base/status.h"'
expect_offence "a directory that is not declared" "src/stray/" "does not declare"

# allowed includes stay allowed in the copy: own layer, every layer below
plant io/config.c '#include "base/status.h"'
check "a layer may include a layer far below it" test "$rc" -eq 0
plant cli/util.c '#include "run/nothing-yet.h"'
check "a layer may include a declared layer with no directory yet" test "$rc" -eq 0

# a layer list that names a dep it has not declared is refused
rm -rf "$tmp/src"
cp -r "$srcdir/src" "$tmp/src"
printf 'late: nothere\n' >>"$tmp/src/layers.txt"
bash "$checker" "$tmp/src" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a dep on an undeclared layer: exit 2" test "$rc" -eq 2

finish
