#!/usr/bin/env bash
# tests/fuzz/campaign.sh FUZZER NAME CPU_SECONDS OUT -- a long libFuzzer
# campaign of one harness, measured in CPU seconds rather than wall time,
# so that an "hour" on a shared machine is an hour of the harness's own
# work however busy the machine is.
#
# It fuzzes from tests/fuzz/corpus/NAME/ into OUT/corpus/ in rounds of at
# most ROUND wall seconds (default 600; the last round no longer than the
# CPU seconds left), each a new process with the next
# seed (1, 2, ...) that first reads the corpus gathered so far, until the
# rounds' CPU time (user + system, from getrusage through
# experiments/timecmd.py) reaches CPU_SECONDS.  Running it again with the
# same OUT goes on from where it stopped (OUT/campaign.tsv is appended).
# FIRST_SEED (default 1) is the first round's seed when OUT is new: a
# second leg of a campaign whose directory was lost starts past the seeds
# its first leg used, so that no round repeats one already counted.
# Options are those of the committed campaigns (docs/testing.md): ASan,
# UBSan and the leak checker with tests/fuzz/lsan.supp, -rss_limit_mb=2048
# -malloc_limit_mb=2048, and -timeout=TIMEOUT (default 300 s, not the short
# runs' 10: the slow unwinder that the suppression needs, env.sh, makes an
# input that has libhdf5 allocate much up to 13 times slower -- 1.1 against
# 13.8 CPU-s measured on the slowest -- and a niced campaign on a busy
# machine gets a fraction of the wall time; a real hang still stops it).
#
# OUT/campaign.tsv has a line a round: seed, wall s, CPU s, inputs run,
# new corpus units, coverage edges (cov) and features (ft) at its end.
# A crash, sanitizer report, leak, timeout or oversized allocation stops
# the campaign with exit 1 and leaves the input in OUT/artifacts/.
#
# Example (an hour of the tournament-file harness, at low priority):
#   nice -n 19 tests/fuzz/campaign.sh build/tests/fuzz_tourfile tourfile 3600 /tmp/c-tourfile
set -euo pipefail
if [[ $# -ne 4 ]]; then
  echo "usage: campaign.sh FUZZER NAME CPU_SECONDS OUT" >&2
  exit 2
fi
fuzzer=$1 name=$2 budget=$3 out=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
seeds=$src/tests/fuzz/corpus/$name
round=${ROUND:-600}
timeout=${TIMEOUT:-300}
first=${FIRST_SEED:-1}
[[ -x $fuzzer ]] || { echo "campaign.sh: $fuzzer is not an executable harness" >&2; exit 2; }
[[ -d $seeds ]] || { echo "campaign.sh: no corpus $seeds (NAME: a directory of tests/fuzz/corpus)" >&2; exit 2; }
[[ $budget =~ ^[1-9][0-9]*$ ]] || { echo "campaign.sh: CPU_SECONDS must be a positive whole number, not '$budget'" >&2; exit 2; }
[[ $round =~ ^[1-9][0-9]*$ ]] || { echo "campaign.sh: ROUND must be a positive whole number, not '$round'" >&2; exit 2; }
[[ $timeout =~ ^[1-9][0-9]*$ ]] || { echo "campaign.sh: TIMEOUT must be a positive whole number, not '$timeout'" >&2; exit 2; }
[[ $first =~ ^[1-9][0-9]*$ ]] || { echo "campaign.sh: FIRST_SEED must be a positive whole number, not '$first'" >&2; exit 2; }
. "$src/tests/fuzz/env.sh" "$src"
mkdir -p "$out/corpus" "$out/artifacts"
tsv=$out/campaign.tsv
[[ -s $tsv ]] || printf 'seed\twall\tcpu\tinputs\tnew_units\tcov\tft\n' >"$tsv"
# the CPU seconds and the last seed of the rounds already run
read -r spent last < <(awk -F'\t' 'NR > 1 { c += $3; s = $1 } END { printf "%d %d\n", int(c), s }' "$tsv")
seed=$((last + 1 > first ? last + 1 : first))
while (( spent < budget )); do
  log=$out/round-$seed.log
  times=$out/round-$seed.times
  rc=0
  secs=$(( budget - spent < round ? budget - spent : round ))  # wall >= CPU: no overshoot
  /usr/bin/python3 "$src/experiments/timecmd.py" "$times" "$fuzzer" -seed="$seed" \
    -max_total_time="$secs" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout="$timeout" \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/" \
    "$out/corpus" "$seeds" >"$log" 2>&1 || rc=$?
  read -r wall user sys _ <"$times"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
  inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  units=$(sed -n 's/^stat::new_units_added: *//p' "$log")
  covft=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 | awk '{ print $2 "\t" $4 }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$seed" "$wall" "$cpu" "${inputs:-0}" "${units:-0}" \
    "${covft:-0	0}" >>"$tsv"
  if (( rc != 0 )); then
    tail -40 "$log"
    echo "campaign.sh: fuzz_$name found a failing input (round $seed, $log):" >&2
    ls "$out/artifacts" >&2
    exit 1
  fi
  spent=$(awk -F'\t' 'NR > 1 { c += $3 } END { printf "%d\n", int(c) }' "$tsv")
  echo "fuzz_$name: round $seed done, $spent of $budget CPU s"
  seed=$((seed + 1))
done
awk -F'\t' -v n="$name" 'NR > 1 { w += $2; c += $3; i += $4; u += $5; cov = $6; ft = $7; r++ }
  END { printf "fuzz_%s: %d rounds, %.0f s wall, %.0f CPU s, %d inputs, %d new units, cov %d ft %d\n",
        n, r, w, c, i, u, cov, ft }' "$tsv"
