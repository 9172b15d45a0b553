#!/usr/bin/env bash
# test_lib_install.sh -- libnickar as a user gets it (docs/library.md): the
# shared library exports the header's functions and nothing else; `cmake
# --install` into a temporary prefix gives the header, both libraries and
# nickar.pc; the example program builds there through `pkg-config --cflags
# --libs nickar` (shared, and static with --static) and plays the same game
# as the one built in the build tree; the header compiles alone under
# -std=c99 -pedantic.
# Usage: test_lib_install.sh NICKAR_BINARY SOURCE_ROOT (the build directory
# is the binary's).
source "$(dirname "$0")/lib_cli.sh"

build=$(cd "$(dirname "$nickar")" && pwd)
lib=$build/libnickar.so
cc=${CC:-cc}
header=$srcdir/include/nickar.h
example=$srcdir/examples/play_game.c
args=(abapa ab:depth=2 greedy 3)

check "the build made $lib" test -f "$lib"

# --- exported symbols ------------------------------------------------------------
nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | sort >"$tmp/exported"
grep -v -E '^(nickar_[a-z_]+|NICKAR_0)$' "$tmp/exported" >"$tmp/stray"
check "libnickar.so exports only nickar_* ($(head -3 "$tmp/stray" | tr '\n' ' '))" \
  test ! -s "$tmp/stray"
sed -n 's/^NICKAR_API [^(]*[ *]\(nickar_[a-z_]*\)(.*/\1/p' "$header" | sort -u >"$tmp/declared"
check "the header declares functions" test "$(wc -l <"$tmp/declared")" -ge 30
grep -v '^NICKAR_0$' "$tmp/exported" >"$tmp/exported_fns"
check "every declared function is exported, and only those" \
  diff "$tmp/declared" "$tmp/exported_fns"

# --- the header alone -----------------------------------------------------------------
printf '#include <nickar.h>\nint main(void) { return nickar_api_version() == NICKAR_API_VERSION ? 0 : 1; }\n' \
  >"$tmp/alone.c"
check "nickar.h compiles alone under -std=c99 -pedantic -Werror" \
  "$cc" -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$srcdir/include" "$tmp/alone.c"

# --- install -----------------------------------------------------------------------------
prefix=$tmp/prefix
if cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then pass; else
  fail "cmake --install $build --prefix $prefix: $(tail -3 "$tmp/install.log")"; finish; fi
pcdir=$(dirname "$(find "$prefix" -name nickar.pc | head -1)")
for f in include/nickar.h; do
  check "installed $f" test -f "$prefix/$f"
done
check "installed libnickar.so, libnickar.a and nickar.pc in one directory" \
  test -f "$pcdir/../libnickar.so" -a -f "$pcdir/../libnickar.a"

export PKG_CONFIG_PATH=$pcdir
flags=$(pkg-config --cflags --libs nickar 2>"$tmp/err")
check "pkg-config --cflags --libs nickar: '$flags'" grep -q -- '-lnickar' <<<"$flags"
check "pkg-config --modversion nickar is the library's version" \
  test "$(pkg-config --modversion nickar)" = "$("$nickar" --version | grep -o '[0-9][0-9.]*' | head -1)"

# The build tree's example and the installed one play the same game.
"$build/example_play_game" "${args[@]}" >"$tmp/want" 2>&1
check "the build tree's example plays a game" grep -q '^over after' "$tmp/want"
# shellcheck disable=SC2086
if "$cc" "$example" $flags -o "$tmp/pg_shared" 2>"$tmp/err"; then pass; else
  fail "cc $example \$(pkg-config --cflags --libs nickar): $(head -3 "$tmp/err")"; fi
LD_LIBRARY_PATH=$pcdir/.. "$tmp/pg_shared" "${args[@]}" >"$tmp/got" 2>&1
check "the installed example (shared) plays the same game" cmp -s "$tmp/want" "$tmp/got"
check "it runs with the installed libnickar.so" \
  grep -q "$pcdir/../libnickar.so" <(LD_LIBRARY_PATH=$pcdir/.. ldd "$tmp/pg_shared")

static_libs=$(pkg-config --static --libs nickar | sed 's/ *-lnickar\b//')
# shellcheck disable=SC2086
if "$cc" "$example" $(pkg-config --cflags nickar) "$pcdir/../libnickar.a" $static_libs \
     -o "$tmp/pg_static" 2>"$tmp/err"; then pass; else
  fail "cc $example libnickar.a \$(pkg-config --static --libs nickar): $(head -3 "$tmp/err")"; fi
"$tmp/pg_static" "${args[@]}" >"$tmp/got" 2>&1
check "the example linked statically plays the same game" cmp -s "$tmp/want" "$tmp/got"
check "and needs no libnickar.so" bash -c "! ldd '$tmp/pg_static' | grep -q libnickar"

# Bad input: exit 1, one line naming what is wrong.
LD_LIBRARY_PATH=$pcdir/.. "$tmp/pg_shared" chess >"$tmp/out" 2>"$tmp/err"
rc=$?
check "an unknown variant: exit 1, one line naming it" \
  test $rc -eq 1 -a "$(wc -l <"$tmp/err")" -eq 1 -a -n "$(grep "unknown variant 'chess'" "$tmp/err")"
LD_LIBRARY_PATH=$pcdir/.. "$tmp/pg_shared" abapa ab:depth=99 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a bad spec: exit 1, one line naming the key" \
  test $rc -eq 1 -a "$(wc -l <"$tmp/err")" -eq 1 -a -n "$(grep "depth" "$tmp/err")"

finish
