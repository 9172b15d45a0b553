#!/usr/bin/env bash
# bench-protocol.sh -- what the engine protocol costs nickar's own players:
# games per second of a match between SPEC served over the protocol
# (`ext:nickar engine --player SPEC`) and SPEC in-process, against games
# per second of the same match with both in-process, on one thread; the
# runs alternate, each is repeated, and the best of each is kept.  Checks
# first that the two matches play the same games (their records, the
# specs' names aside), as the protocol promises (docs/protocol.md).
#
# Usage: scripts/bench-protocol.sh [SPEC...]
#        (default: ab:depth=3,features=positional ab:depth=1 greedy)
#        NICKAR=path/to/nickar VARIANT=awari GAMES=400 REPEAT=3
set -euo pipefail
cd "$(dirname "$0")/.."
nickar=$(realpath "${NICKAR:-build/nickar}")
variant=${VARIANT:-awari}
games=${GAMES:-400}
repeat=${REPEAT:-3}
specs=("$@")
[[ ${#specs[@]} -gt 0 ]] || specs=(ab:depth=3,features=positional ab:depth=1 greedy)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
# seconds A B: the match of A against B, one thread, records into $tmp/rec
seconds() {
  local t0 t1
  rm -f "$tmp/rec"
  t0=$(now)
  "$nickar" match --variant "$variant" --games "$games" --threads 1 --json \
    --records "$tmp/rec" "$1" "$2" >/dev/null
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
best() { awk -v x="$1" -v y="$2" 'BEGIN { print (x == "" || y < x) ? y : x }'; }

printf '%-34s %12s %12s %8s\n' spec "in-process" "over ext:" ratio
for spec in "${specs[@]}"; do
  ext="ext:$nickar engine --player $spec"
  seconds "$spec" "$spec" >/dev/null
  sed 's/ south=[^ ]* north=[^ ]*//' "$tmp/rec" >"$tmp/in"
  seconds "$ext" "$spec" >/dev/null
  if [[ $spec == ab:* ]] && ! cmp -s "$tmp/in" <(sed 's/ south=[^ ]* north=[^ ]*//' "$tmp/rec"); then
    echo "bench-protocol: $spec: the games over ext: differ from the in-process games" >&2
    exit 1
  fi
  a="" b=""
  for ((r = 0; r < repeat; r++)); do
    a=$(best "$a" "$(seconds "$spec" "$spec")")
    b=$(best "$b" "$(seconds "$ext" "$spec")")
  done
  awk -v s="$spec" -v n="$games" -v a="$a" -v b="$b" \
    'BEGIN { printf "%-34s %10.1f/s %10.1f/s %8.2f\n", s, n / a, n / b, (n / b) / (n / a) }'
done
