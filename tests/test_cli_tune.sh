#!/usr/bin/env bash
# test_cli_tune.sh -- learning from the database on the command line
# (docs/tablebase.md, "Learning from the database"):
#   1. `nickar tune` fits positional weights to abapa's one-seed-a-pit
#      database (12 seeds) and writes a run file that inspect, match and
#      the grade read, whose champion is the fitted weights and grades
#      better than zero weights; the same file for any --threads;
#   2. its bad input (no database, one of another variant, an existing
#      file without --force): exit 2, one line naming the key, nothing
#      written;
#   3. fitness.schedule = tablebase: the same run file for 1 and 2 threads
#      and after a --resume; without a database, or with one of another
#      variant: exit 2, one line naming the key, nothing written.
source "$(dirname "$0")/lib_cli.sh"

db=$tmp/db
run tablebase build --variant abapa --seeds 12 --output "$db" --threads 2
check "the one-seed-a-pit database is built ($err)" test -s "$db/abapa.nktb"
run tablebase build --variant antigua --seeds 4 --output "$tmp/other"
mkdir -p "$tmp/mix" && cp "$tmp/other/antigua.nktb" "$tmp/mix/abapa.nktb"

# 1. tune
cfg=$tmp/tune.ini
sed "s|^tablebase = tb$|tablebase = $db|; s/^positions = 5000/positions = 1500/; s/^grade_positions = 1000/grade_positions = 300/; s/^depth = 3/depth = 2/" \
  "$srcdir/configs/tune-abapa.ini" >"$cfg"
run tune "$cfg" --output "$tmp/t1.h5" --threads 1 --quiet
check "tune exits 0 ($err)" test "$rc" -eq 0
check "tune reports the residual" grep -q "^iterations [0-9]*, residual (root mean square, probability) " "$tmp/out"
check "tune reports the grade of start and result" \
  test "$(grep -cE '^  (start|tuned) +optimal ' "$tmp/out")" -eq 2
check "the summary names the positions and the games" grep -q "on 1500 positions from [0-9]* games" "$tmp/out"
run tune "$cfg" --output "$tmp/t2.h5" --threads 2 --quiet
same_run "$tmp/t1.h5" "$tmp/t2.h5" && pass || fail "tune: the same run file for 1 and 2 threads"
run inspect "$tmp/t1.h5"
check "inspect reads the tuning ($err)" test "$rc" -eq 0
check "inspect names the method" grep -q "tune-logistic, population 1, 9 weights (positional)" "$tmp/out"
# the start (zero weights) and the result graded on the same positions:
# the result loses fewer seeds per move
"$python" - "$tmp/t1.h5" >"$tmp/grade" 2>&1 <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
g = int(f["checkpoint"].attrs["generation"]) + 1
s = f["stats"][:g]
assert g >= 2, g
assert s["tb_positions"][0] == 300 and s["tb_positions"][g - 1] == 300, s["tb_positions"]
assert s["tb_seeds_lost"][g - 1] < s["tb_seeds_lost"][0], s["tb_seeds_lost"]
assert (s["tb_positions"][1:g - 1] == 0).all()
champ = f["checkpoint/champion"][:]
assert (champ[1:] == f["population/genome"][g - 1, 0]).all()
assert not (champ[1:] == 0).all()
PY
check "the result grades better than zero weights; the champion is the last fit ($(cat "$tmp/grade"))" test $? -eq 0
run match "ab:depth=1,features=positional,weights=$tmp/t1.h5@best" greedy --variant abapa --games 2
check "match plays the fitted weights from the run file ($err)" test "$rc" -eq 0
run tune "$cfg" --output "$tmp/ls.h5" --quiet --set tune.loss=least-squares
check "least squares: exit 0 ($err)" test "$rc" -eq 0
check "least squares: one solve" grep -q "^iterations 1, residual (root mean square, seeds) " "$tmp/out"
run tune "$cfg" --print-config
check "--print-config shows the [tune] keys" grep -q "^loss = logistic" "$tmp/out"

# 2. tune's bad input
expect_error tune "tune.tablebase" tune "$cfg" --output "$tmp/bad1.h5" --set tune.tablebase=
expect_error tune "tune.tablebase" tune "$cfg" --output "$tmp/bad2.h5" --set "tune.tablebase=$tmp/other"
expect_error tune "antigua" tune "$cfg" --output "$tmp/bad3.h5" --set "tune.tablebase=$tmp/mix"
expect_error tune "tune.loss" tune "$cfg" --output "$tmp/bad4.h5" --set tune.loss=hinge
check "bad input writes no run file" test ! -e "$tmp/bad1.h5" -a ! -e "$tmp/bad2.h5" -a ! -e "$tmp/bad3.h5" -a ! -e "$tmp/bad4.h5"
cp "$tmp/t1.h5" "$tmp/keep.h5"
expect_error tune "already exists" tune "$cfg" --output "$tmp/t1.h5"
check "an existing run file is kept" cmp -s "$tmp/t1.h5" "$tmp/keep.h5"

# 3. the tablebase schedule
evo=$tmp/evo.ini
cat >"$evo" <<INI
[experiment]
name = tbs
seed = 3
variant = abapa
generations = 3
[player]
features = positional
depth = 1
[population]
size = 6
[fitness]
schedule = tablebase
tablebase = $db
tablebase_positions = 60
[benchmark]
every = 0
INI
run evolve "$evo" --output "$tmp/e1.h5" --threads 1 --quiet
check "evolve with the tablebase schedule exits 0 ($err)" test "$rc" -eq 0
run evolve "$evo" --output "$tmp/e2.h5" --threads 2 --quiet
same_run "$tmp/e1.h5" "$tmp/e2.h5" && pass || fail "tablebase schedule: the same run for 1 and 2 threads"
run evolve "$evo" --output "$tmp/e3.h5" --threads 2 --quiet --set experiment.generations=1
run evolve "$evo" --output "$tmp/e3.h5" --threads 1 --quiet --resume
check "--resume exits 0 ($err)" test "$rc" -eq 0
same_run "$tmp/e1.h5" "$tmp/e3.h5" && pass || fail "tablebase schedule: --resume continues bit for bit"
"$python" - "$tmp/e1.h5" >"$tmp/fit" 2>&1 <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
fit = f["population/fitness"][:]
assert (fit <= 0).all() and len(set(fit.ravel())) > 1, fit
assert (f["stats"]["games"][:] == 0).all()
PY
check "fitness is minus the seeds lost, no games ($(cat "$tmp/fit"))" test $? -eq 0
expect_error evolve "fitness.tablebase" evolve "$evo" --output "$tmp/bad5.h5" --set fitness.tablebase=
expect_error evolve "fitness.tablebase" evolve "$evo" --output "$tmp/bad6.h5" --set "fitness.tablebase=$tmp/other"
expect_error evolve "antigua" evolve "$evo" --output "$tmp/bad7.h5" --set "fitness.tablebase=$tmp/mix"
expect_error evolve "fitness.tablebase_measure" evolve "$evo" --output "$tmp/bad8.h5" --set fitness.tablebase_measure=mean
check "bad schedules write no run file" test ! -e "$tmp/bad5.h5" -a ! -e "$tmp/bad6.h5" -a ! -e "$tmp/bad7.h5" -a ! -e "$tmp/bad8.h5"

finish
