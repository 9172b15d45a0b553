#!/usr/bin/env bash
# test_cli_evolve.sh -- `nickar evolve` and `nickar inspect`: reproducibility
# whatever the thread count (the default GA, sep-cma-es and openai-es),
# exact resume (the same), after SIGKILL and after SIGINT,
# refusing to overwrite or to resume from another config, and every kind of
# bad input (config, output path, full disk, foreign or damaged run files).
source "$(dirname "$0")/lib_cli.sh"

cfg=$tmp/tiny.ini
cat >"$cfg" <<'INI'
[experiment]
name = tiny
seed = 7
variant = abapa
generations = 4
[player]
features = positional
depth = 1
[population]
size = 6
[fitness]
schedule = round-robin
openings = 2
[benchmark]
every = 2
games = 4
opponents = random; greedy
INI

# --- reproducibility whatever --threads is -------------------------------
run evolve "$cfg" --output "$tmp/t1.h5" --threads 1 --quiet
check "evolve --threads 1 exits 0 ($err)" test "$rc" -eq 0
run evolve "$cfg" --output "$tmp/t2.h5" --threads 2 --quiet
check "evolve --threads 2 exits 0 ($err)" test "$rc" -eq 0
check "threads 1 and 2 give bit-identical populations" same_run "$tmp/t1.h5" "$tmp/t2.h5"

# The strategies for large genomes: the same run on 1 and 2 threads, and a
# run resumed after 2 generations equals the uninterrupted one.
for kind in sep-cma-es openai-es; do
  ks=(--set strategy.kind=$kind --set strategy.lambda=6 --set strategy.mu=3 --set strategy.sigma0=0.1 --quiet)
  run evolve "$cfg" --output "$tmp/$kind-1.h5" --threads 1 "${ks[@]}"
  check "$kind: evolve --threads 1 exits 0 ($err)" test "$rc" -eq 0
  run evolve "$cfg" --output "$tmp/$kind-2.h5" --threads 2 "${ks[@]}"
  check "$kind: evolve --threads 2 exits 0 ($err)" test "$rc" -eq 0
  check "$kind: threads 1 and 2 give bit-identical runs" same_run "$tmp/$kind-1.h5" "$tmp/$kind-2.h5"
  run evolve "$cfg" --output "$tmp/$kind-r.h5" --set experiment.generations=2 "${ks[@]}"
  run evolve "$cfg" --output "$tmp/$kind-r.h5" --resume "${ks[@]}"
  check "$kind: resume to 4 generations exits 0 ($err)" test "$rc" -eq 0
  check "$kind: resumed run equals the uninterrupted one" same_run "$tmp/$kind-1.h5" "$tmp/$kind-r.h5"
  # its example config runs (shortened)
  run evolve "$srcdir/configs/$kind.ini" --output "$tmp/$kind-cfg.h5" --quiet \
    --set experiment.generations=2 --set player.depth=1 --set benchmark.games=2
  check "configs/$kind.ini runs ($err)" test "$rc" -eq 0
done

# --- the run file reads as documented ------------------------------------
check "run file layout" "$python" - "$tmp/t1.h5" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
text = lambda v: v.decode() if isinstance(v, bytes) else v  # fixed-length: bytes
assert f.attrs["schema_version"] == 1 and text(f.attrs["variant"]) == "abapa"
assert f.attrs["master_seed"] == 7
assert "[experiment]" in text(f.attrs["config"])
G = int(f["checkpoint"].attrs["generation"]) + 1
assert G == 4
assert f["population/genome"].shape[:2] == (4, 6)
assert len(f["features"]) == f["population/genome"].shape[2]
assert len(f["stats"]) == 4 and len(f["games"]) == 4 * 30
b = f["benchmark"][:]
assert len(b) == 6 and set(b["generation"]) == {0, 1, 3}
assert ((b["wins"] + b["draws"] + b["losses"]) == 4).all()
PY

# --- inspect -------------------------------------------------------------
run inspect "$tmp/t1.h5"
check "inspect exits 0" test "$rc" -eq 0
check "inspect names the champion's weights" grep -q "champion of generation 4" <<<"$out"
run inspect "$tmp/t1.h5" --json
check "inspect --json" "$python" -c '
import json, sys
o = json.loads(sys.stdin.read())
assert o["generations"] == 4 and o["variant"] == "abapa"
assert set(o["champion"]["weights"]) == set(o["features"])
assert len(o["benchmark"]) == 6' <<<"$out"

# --- the run file as a player's weights ----------------------------------
run match --variant abapa --games 4 "ab:depth=1,features=positional,weights=$tmp/t1.h5@best" random --json
check "a run file serves as weights (@best): $err" test "$rc" -eq 0
run match --variant abapa --games 2 "ab:depth=1,features=positional,weights=$tmp/t1.h5@gen=1,rank=0" random
check "a run file serves as weights (@gen=1,rank=0): $err" test "$rc" -eq 0

# --- resume continues exactly ---------------------------------------------
run evolve "$cfg" --output "$tmp/r.h5" --set experiment.generations=2 --quiet
check "a 2-generation run" test "$rc" -eq 0
run evolve "$cfg" --output "$tmp/r.h5" --resume --quiet
check "resume to 4 generations exits 0 ($err)" test "$rc" -eq 0
check "resumed run equals the uninterrupted one" same_run "$tmp/t1.h5" "$tmp/r.h5"

# A kill while a generation is flushed can leave a run file that opens but
# whose checkpoint data was overwritten; the backup copy left beside it (the
# run did not close) is what --resume goes on from.
run evolve "$cfg" --output "$tmp/b.h5" --set experiment.generations=2 --quiet
cp "$tmp/b.h5" "$tmp/b.h5.bak"
"$python" -c '
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    d = f["checkpoint/strategy"]
    d[...] = 0.5
' "$tmp/b.h5"
run evolve "$cfg" --output "$tmp/b.h5" --resume --quiet
check "resume with a backup beside an overwritten checkpoint exits 0 ($err)" test "$rc" -eq 0
check "... and equals the uninterrupted run" same_run "$tmp/t1.h5" "$tmp/b.h5"
check "... and removes the backup at the end" test ! -e "$tmp/b.h5.bak"

long=$tmp/long.ini
# long enough that a kill after generation 30 lands while the run goes on
# (60 generations took 0.12 s in all on the 2-core machine: a poll could miss
# the window)
LONG=300
sed "s/^generations = 4/generations = $LONG/" "$cfg" >"$long"
run evolve "$long" --output "$tmp/full.h5" --quiet
check "uninterrupted $LONG-generation run" test "$rc" -eq 0

# generations FILE: the complete generations of a run file, read as `nickar
# inspect` does (which works on a run in progress); -1 when it cannot be
# read (absent, or caught while a generation is flushed).
generations() {
  local j
  j=$("$nickar" inspect --json "$1" 2>/dev/null)
  if [[ $j =~ \"generations\":([0-9]+) ]]; then
    echo "${BASH_REMATCH[1]}"
  else
    echo -1
  fi
}
# wait_generations FILE N PID: waits (30 s at most) until FILE holds N
# complete generations while process PID still runs; fails when PID ended
# first or time ran out.
wait_generations() {
  local i
  for ((i = 0; i < 1500; i++)); do
    kill -0 "$3" 2>/dev/null || return 1
    [[ $(generations "$1") -ge $2 ]] && return 0
    sleep 0.02
  done
  return 1
}
# killed_generations FILE: the generations a killed run left, as "F G": F is
# "file" when FILE opens (G its generations), "backup" when the kill caught a
# flush and left FILE unreadable (G those of the backup copy, which holds the
# generations of its last refresh: 0 when the run made it at its start, see
# docs/runfile.md, "Crash safety and backups"), "none" when neither opens.
killed_generations() {
  local g
  g=$(generations "$1")
  if [[ $g -ge 0 ]]; then
    echo "file $g"
  elif [[ -e $1.bak ]]; then
    echo "backup $(generations "$1.bak")"
  else
    echo "none -1"
  fi
}
# kill_left_ok WHERE G TARGET: the run file holds TARGET to LONG-1 complete
# generations; or the kill caught a flush, and the backup holds 0 to LONG-1.
kill_left_ok() {
  case $1 in
  file) [[ $2 -ge $3 && $2 -lt $LONG ]] ;;
  backup) [[ $2 -ge 0 && $2 -lt $LONG ]] ;;
  *) return 1 ;;
  esac
}

# SIGKILL once the run has written generation 1, and once it has written 30
# of its $LONG: each kill must land while the run goes on (the process dies of
# the signal, the file holds fewer generations than the whole run), else
# the resume below would test nothing.
for target in 1 30; do
  rm -f "$tmp/k.h5" "$tmp/k.h5.bak"
  "$nickar" evolve "$long" --output "$tmp/k.h5" --quiet >/dev/null 2>&1 &
  pid=$!
  wait_generations "$tmp/k.h5" "$target" "$pid"
  reached=$?
  kill -KILL "$pid" 2>/dev/null
  { wait "$pid"; } 2>/dev/null # bash's "Killed" notice
  krc=$?
  check "SIGKILL after generation $target: the run got there and was still running" \
    test "$reached" -eq 0 -a "$krc" -eq 137
  read -r where g < <(killed_generations "$tmp/k.h5")
  check "SIGKILL after generation $target: the file holds $target to $((LONG - 1)) generations, or its backup 0 to $((LONG - 1)) ($where: $g)" \
    kill_left_ok "$where" "$g" "$target"
  run evolve "$long" --output "$tmp/k.h5" --resume --quiet
  check "resume after SIGKILL after generation $target exits 0 ($err)" test "$rc" -eq 0
  check "resume after SIGKILL after generation $target equals the uninterrupted run" \
    same_run "$tmp/full.h5" "$tmp/k.h5"
done

# --resume where no file exists yet (a run killed before making it) starts it.
run evolve "$cfg" --output "$tmp/fresh/run.h5" --resume --quiet
check "resume without a run file starts the run ($err)" test "$rc" -eq 0
check "that run equals the uninterrupted one" same_run "$tmp/t1.h5" "$tmp/fresh/run.h5"

# SIGINT once the run has written generation 1: it must stop the run
# mid-way ("stopped after generation G", exit 1, G < $LONG).  A signal that came
# too late to stop anything tests nothing: it is tried again (3 times at
# most), and the checks below fail when no try landed.
landed=false
for attempt in 1 2 3; do
  rm -f "$tmp/i.h5" "$tmp/i.h5.bak"
  "$nickar" evolve "$long" --output "$tmp/i.h5" >/dev/null 2>"$tmp/ierr" &
  pid=$!
  wait_generations "$tmp/i.h5" 1 "$pid"
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  irc=$?
  if grep -q "stopped after generation" "$tmp/ierr"; then
    landed=true
    break
  fi
  echo "note: SIGINT try $attempt did not stop the run mid-way (exit $irc); again"
done
check "SIGINT stopped the run mid-way (in 3 tries)" $landed
check "SIGINT: exit 1" test "$irc" -eq 1
g=$(generations "$tmp/i.h5")
check "SIGINT: the file is valid and holds 1 to $((LONG - 1)) generations (holds $g)" \
  test "$g" -ge 1 -a "$g" -lt "$LONG"
run evolve "$long" --output "$tmp/i.h5" --resume --quiet
check "SIGINT: resume exits 0 ($err)" test "$rc" -eq 0
check "SIGINT: resume equals the uninterrupted run" same_run "$tmp/full.h5" "$tmp/i.h5"

# --- the ETA after --resume counts only the generations this command ran ----
# (the first progress line's ETA is that generation's time times the
# generations left, and its games/s gives the same time: 30 games)
run evolve "$cfg" --output "$tmp/eta.h5" --set experiment.generations=10 --quiet
"$nickar" evolve "$cfg" --output "$tmp/eta.h5" --resume --set experiment.generations=100000 \
  >/dev/null 2>"$tmp/etaerr" &
pid=$!
for _ in $(seq 600); do
  grep -q "^generation 11/" "$tmp/etaerr" && break
  sleep 0.05
done
kill -INT "$pid" 2>/dev/null
wait "$pid"
check "ETA after --resume: from this command's generations" "$python" - "$tmp/etaerr" <<'PY'
import re, sys
line = next(l for l in open(sys.argv[1]) if l.startswith("generation 11/"))
m = re.search(r"  (\d+) games/s .* ETA (\d+)s", line)
rate, eta = float(m.group(1)), float(m.group(2))
want = 30 / rate * (100000 - 11)
assert abs(eta - want) <= 0.05 * want + 2, (line, want)
PY

# --- refusals -------------------------------------------------------------
expect_error evolve "already exists" evolve "$cfg" --output "$tmp/t1.h5"
expect_error evolve "experiment.seed" evolve "$cfg" --output "$tmp/t1.h5" --resume --set experiment.seed=8
expect_error evolve "exclude" evolve "$cfg" --output "$tmp/t1.h5" --resume --force

# --- bad configs ------------------------------------------------------------
expect_error evolve "nope.ini" evolve "$tmp/nope.ini"
printf '[fitness]\nschedul = round-robin\n' >"$tmp/bad1.ini"
expect_error evolve "did you mean 'fitness.schedule'" evolve "$tmp/bad1.ini"
printf '[population]\nsize = many\n' >"$tmp/bad2.ini"
expect_error evolve "bad2.ini:2" evolve "$tmp/bad2.ini"
printf '[population]\nsize = 1\n' >"$tmp/bad3.ini"
expect_error evolve "population.size" evolve "$tmp/bad3.ini"
printf '[population\nsize = 4\n' >"$tmp/bad4.ini"
expect_error evolve "bad4.ini:1" evolve "$tmp/bad4.ini"
expect_error evolve "fitness.scheme" evolve "$cfg" --set fitness.scheme=sample
# the CMA-ES recombine at most lambda / 2 parents (every weight positive)
expect_error evolve "strategy.mu = 4 (--set) must be at most half of strategy.lambda = 6" evolve "$cfg" --output "$tmp/mu.h5" \
  --set strategy.kind=sep-cma-es --set strategy.lambda=6 --set strategy.mu=4
check "a refused mu writes no run file" test ! -e "$tmp/mu.h5"
expect_error evolve "missing the config" evolve --quiet
many=()
for _ in $(seq 257); do many+=(--set player.depth=1); done
expect_error evolve "more than 256 --set" evolve "$cfg" "${many[@]}" --print-config
# one individual per generation meets no one in a round robin: refused
# before any file is made
expect_error evolve "needs at least 2" evolve "$cfg" --output "$tmp/one.h5" \
  --set strategy.kind=es-comma --set strategy.mu=1 --set strategy.lambda=1 \
  --set mutation.method=lognormal --quiet
check "a refused config makes no run file" test ! -e "$tmp/one.h5"

# --- output path and disk ---------------------------------------------------
run evolve "$cfg" --output /dev/null/run.h5 --quiet
check "unwritable output path: exit 1 with one line" \
  bash -c '[[ '"$rc"' -eq 1 && $(wc -l <"'"$tmp/err"'") -eq 1 ]]'
mnt=$tmp/small
mkdir -p "$mnt"
if mount -t tmpfs -o size=1600k tmpfs "$mnt" 2>/dev/null; then
  sed -e 's/^generations = 4/generations = 600/' -e 's/^size = 6/size = 10/' "$cfg" >"$tmp/big.ini"
  printf '[output]\nrecord_games = on\n' >>"$tmp/big.ini"
  run evolve "$tmp/big.ini" --output "$mnt/run.h5" --quiet
  check "full disk: exit 1" test "$rc" -eq 1
  check "full disk: one clear line" grep -qiE "space|writing" "$tmp/err"
  run inspect "$mnt/run.h5" --json
  check "full disk: the file is still valid ($err)" test "$rc" -eq 0
  check "full disk: some complete generations" "$python" -c '
import json, sys
assert json.loads(sys.stdin.read())["generations"] >= 1' <<<"$out"
  umount "$mnt"
else
  echo "note: cannot mount a small tmpfs here; the full-disk path is tested in test_io_runfile"
fi

# --- foreign and damaged run files --------------------------------------------
echo "not hdf5" >"$tmp/text.h5"
expect_error inspect "not" inspect "$tmp/text.h5"
expect_error evolve "not" evolve "$cfg" --output "$tmp/text.h5" --resume
"$python" -c 'import h5py, sys; h5py.File(sys.argv[1], "w")["x"] = [1, 2]' "$tmp/foreign.h5"
expect_error inspect "not a nickar run file" inspect "$tmp/foreign.h5"
expect_error evolve "not a nickar run file" evolve "$cfg" --output "$tmp/foreign.h5" --resume
head -c 3000 "$tmp/t1.h5" >"$tmp/cut.h5"
expect_error inspect "cut.h5" inspect "$tmp/cut.h5"
expect_error evolve "cut.h5" evolve "$cfg" --output "$tmp/cut.h5" --resume

finish
