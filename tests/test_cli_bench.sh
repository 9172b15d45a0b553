#!/usr/bin/env bash
# test_cli_bench.sh -- the rules' bench signature: `nickar bench` on a fixed
# number of games and seed must give the plies and signatures recorded in
# tests/bench_signatures.txt.  A change to the rules' behaviour changes them;
# such a commit updates that file and gives the new signatures in its
# message (docs/testing.md), any other commit leaves them as they are.
# Usage: test_cli_bench.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

table=$srcdir/tests/bench_signatures.txt
check "the recorded signatures exist" test -s "$table"
while read -r variant games seed plies signature; do
  [[ -z $variant || $variant == \#* ]] && continue
  expect_ok bench --variant "$variant" --games "$games" --seed "$seed" --json
  got=$("$python" -c '
import json, sys
o = json.loads(sys.stdin.read())
print(o["plies"], o["signature"])' <<<"$out")
  if [[ $got == "$plies $signature" ]]; then
    pass
  else
    fail "$variant: bench --games $games --seed $seed gives plies and signature '$got'," \
         "recorded '$plies $signature': if the rules changed on purpose, update $table"
  fi
done <"$table"
finish
