#!/usr/bin/env bash
# bench-protocol.sh -- what the engine protocol costs nickar's own players:
# a match between SPEC served over the protocol (`ext:nickar engine
# --player SPEC`) and SPEC in-process, against the same match with both
# in-process, on one thread: games per second by the wall clock, and per
# CPU second (user + system of nickar and of the engines it reaped, which
# the kernel counts in its children).  On a loaded machine the wall clock
# also counts every hand-over between the two processes waiting for a
# core; the CPU time does not.  The runs alternate, each is repeated, and
# the best of each is kept.  Checks first that the two matches of an `ab`
# spec play the same games (their records, the specs' names aside), as
# the protocol promises (docs/protocol.md).
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

# measure A B: "WALL CPU" seconds of the match of A against B, one thread,
# its records into $tmp/rec
# (bash's time keyword: the wall clock, and the user and system time of
# the child and of what it reaped)
measure() {
  local TIMEFORMAT='%R %U %S'
  rm -f "$tmp/rec"
  { time "$nickar" match --variant "$variant" --games "$games" --threads 1 --json \
      --records "$tmp/rec" "$1" "$2" >/dev/null; } 2>"$tmp/time"
  awk '{ printf "%s %.3f", $1, $2 + $3 }' "$tmp/time"
}
# best "W C" "W C": the smaller of each ("" for none yet)
best() {
  awk -v x="$1" -v y="$2" 'BEGIN { if (x == "") { print y; exit }
    split(x, a, " "); split(y, b, " ");
    printf "%s %s", (b[1] < a[1] ? b[1] : a[1]), (b[2] < a[2] ? b[2] : a[2]) }'
}
strip() { sed 's/ south=[^ ]* north=[^ ]*//' "$1"; }

printf '%-32s %25s   %25s\n' "" "games per second" "games per CPU second"
printf '%-32s %9s %9s %5s   %9s %9s %5s\n' spec in-proc "ext:" ratio in-proc "ext:" ratio
for spec in "${specs[@]}"; do
  ext="ext:$nickar engine --player $spec"
  measure "$spec" "$spec" >/dev/null
  strip "$tmp/rec" >"$tmp/in"
  measure "$ext" "$spec" >/dev/null
  if [[ $spec == ab:* ]] && ! cmp -s "$tmp/in" <(strip "$tmp/rec"); then
    echo "bench-protocol: $spec: the games over ext: differ from the in-process games" >&2
    exit 1
  fi
  a="" b=""
  for ((r = 0; r < repeat; r++)); do
    a=$(best "$a" "$(measure "$spec" "$spec")")
    b=$(best "$b" "$(measure "$ext" "$spec")")
  done
  awk -v s="$spec" -v n="$games" -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ");
    printf "%-32s %9.1f %9.1f %5.2f   %9.1f %9.1f %5.2f\n", s, n / x[1], n / y[1], x[1] / y[1],
      n / x[2], n / y[2], x[2] / y[2] }'
done
