#!/usr/bin/env bash
# test_cli_learn.sh -- `nickar learn`, self-play TD learning (run/td.h) on
# the command line:
#   1. a short real learning run on abapa with positional features: its run
#      file reads as an evolution's (inspect, match with RUN.h5@best and
#      @gen=G,rank=0), the learnt weights beat the ones it started from,
#      and the same file for 1 and 2 threads (batches of 4 games);
#   2. the same with an n-tuple network (ntuple:layout=ring2:cap=3);
#   3. --resume after a finished part and after SIGKILL gives the
#      uninterrupted run bit for bit; an existing file is refused without
#      --force or --resume;
#   4. bad input (td.alpha <= 0, td.lambda outside [0, 1], an unknown
#      feature set, an unknown [td] key, view = root): exit 2, one line naming
#      the key, nothing written;
#   5. the example configs run (shortened).
source "$(dirname "$0")/lib_cli.sh"

cfg=$tmp/learn.ini
cat >"$cfg" <<'INI'
[experiment]
name = learn
seed = 5
variant = abapa
generations = 6
[player]
features = positional
depth = 2
[benchmark]
every = 2
games = 20
opponents = random; greedy
[td]
games = 40
batch = 4
alpha = 0.01
INI

# 1. positional
run learn "$cfg" --output "$tmp/p1.h5" --threads 1 --quiet
check "learn --threads 1 exits 0 ($err)" test "$rc" -eq 0
run learn "$cfg" --output "$tmp/p2.h5" --threads 2 --quiet
check "learn --threads 2 exits 0 ($err)" test "$rc" -eq 0
check "threads 1 and 2 give the same run file" same_run "$tmp/p1.h5" "$tmp/p2.h5"
run inspect "$tmp/p1.h5"
check "inspect reads the learning run ($err)" test "$rc" -eq 0
check "inspect names the method" grep -q "td-leaf, population 1, 9 weights (positional)" "$tmp/out"
check "the run file reads as documented" "$python" - "$tmp/p1.h5" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
text = lambda v: v.decode() if isinstance(v, bytes) else v
g = int(f["checkpoint"].attrs["generation"]) + 1
assert g == 6, g
assert text(f.attrs["strategy"]) == "td-leaf"
assert text(f.attrs["feature_set"]) == "positional"
assert f["population/genome"].shape[1:] == (1, 9)
assert (f["population/id"][:g, 0] == range(g)).all()
assert (f["population/parents"][:g, 0, 0] == [x - 1 for x in range(g)]).all()
s = f["stats"][:g]
assert (s["games"] == 40).all() and list(s["evaluations"]) == [40 * (x + 1) for x in range(g)]
assert (s["best"] < 0).all() and (s["best"] == f["population/fitness"][:g, 0]).all()
w, d, l = (f["population/" + k][:g, 0] for k in ("wins", "draws", "losses"))
assert (w == l).all() and (w + d == 40).all()
assert "games" not in f  # self-play games of a learner cannot be replayed from a row
b = f["benchmark"][:]
assert sorted(set(b["generation"])) == [0, 1, 3, 5], b["generation"]
champ = f["checkpoint/champion"][:]
assert champ[0] == g - 1 and (champ[1:] == f["population/genome"][g - 1, 0]).all()
assert f["population/genome"][g - 1, 0, 0] > 0.1  # the store difference is worth learning
PY
# The learnt weights against those they started from (all 0), and both
# against the hand-tuned weights, at the run's depth, on the same openings.
score() { sed -n 's/^A: .*score \([0-9.]*\)%.*/\1/p' "$tmp/out"; }
printf '0\n0\n0\n0\n0\n0\n0\n0\n0\n' >"$tmp/zero.txt"
learnt="ab:depth=2,features=positional,weights=$tmp/p1.h5@best"
zero="ab:depth=2,features=positional,weights=$tmp/zero.txt"
run match "$learnt" "$zero" --variant abapa --games 60
check "match plays RUN.h5@best ($err)" test "$rc" -eq 0
head=$(score)
run match "$learnt" "ab:depth=2,features=positional" --variant abapa --games 60
l_hand=$(score)
run match "$zero" "ab:depth=2,features=positional" --variant abapa --games 60
z_hand=$(score)
check "the learnt weights beat the zero start ($head%) and score more against the hand-tuned ones ($l_hand% against $z_hand%)" \
  "$python" -c "import sys; sys.exit(not (float('$head') >= 75 and float('$l_hand') >= float('$z_hand') + 25))"
run match "ab:depth=1,features=positional,weights=$tmp/p1.h5@gen=1,rank=0" random --variant abapa --games 2
check "match plays RUN.h5@gen=1,rank=0 ($err)" test "$rc" -eq 0

# 2. an n-tuple network
run learn "$cfg" --output "$tmp/n1.h5" --threads 1 --quiet --set "player.features=ntuple:layout=ring2:cap=3"
check "learn with ntuple:layout=ring2:cap=3 exits 0 ($err)" test "$rc" -eq 0
run learn "$cfg" --output "$tmp/n2.h5" --threads 2 --quiet --set "player.features=ntuple:layout=ring2:cap=3"
check "ntuple: threads 1 and 2 give the same run file" same_run "$tmp/n1.h5" "$tmp/n2.h5"
check "ntuple: 193 weights, the store term learnt positive, tables moved" "$python" - "$tmp/n1.h5" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
g = int(f["checkpoint"].attrs["generation"]) + 1
w = f["population/genome"][g - 1, 0]
assert w.shape == (193,), w.shape
assert w[0] > 0.05, w[0]
assert (w[1:] != 0).sum() > 50, (w[1:] != 0).sum()
PY
run match "ab:depth=1,features=ntuple:layout=ring2:cap=3,weights=$tmp/n1.h5@best" random --variant abapa --games 20
check "match plays the n-tuple RUN.h5@best ($err)" test "$rc" -eq 0
score=$(sed -n 's/^A: .*score \([0-9.]*\)%.*/\1/p' "$tmp/out")
check "the learnt n-tuple network beats random ($score%)" \
  "$python" -c "import sys; sys.exit(not float('$score') >= 80)"

# ... and a small network, from its default weights (random first layer,
# output weights 0); from zero no gradient reaches its hidden layer
nn=(--set "player.features=nnet:hidden=4" --set td.start=defaults --set experiment.generations=2)
run learn "$cfg" --output "$tmp/nn1.h5" --threads 1 --quiet "${nn[@]}"
check "learn with nnet:hidden=4 exits 0 ($err)" test "$rc" -eq 0
run learn "$cfg" --output "$tmp/nn2.h5" --threads 2 --quiet "${nn[@]}"
check "nnet: threads 1 and 2 give the same run file" same_run "$tmp/nn1.h5" "$tmp/nn2.h5"
check "nnet: 65 weights, output weights learnt" "$python" - "$tmp/nn1.h5" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
g = int(f["checkpoint"].attrs["generation"]) + 1
w = f["population/genome"][g - 1, 0]
assert w.shape == (65,), w.shape
assert (w[61:] != 0).all(), w[61:]
PY
expect_error learn "td.start = zero leaves a network's hidden layer without a gradient" \
  learn "$cfg" --output "$tmp/nn0.h5" --set "player.features=nnet:hidden=4" --set td.start=zero
check "a refused network start writes no run file" test ! -e "$tmp/nn0.h5"

# 3. resume
run learn "$cfg" --output "$tmp/r.h5" --quiet --set experiment.generations=2
run learn "$cfg" --output "$tmp/r.h5" --resume --quiet
check "resume to 6 generations exits 0 ($err)" test "$rc" -eq 0
check "the resumed run equals the uninterrupted one" same_run "$tmp/p1.h5" "$tmp/r.h5"
run learn "$cfg" --output "$tmp/fresh/run.h5" --resume --quiet
check "resume without a run file starts the run ($err)" test "$rc" -eq 0
check "... which equals the uninterrupted one" same_run "$tmp/p1.h5" "$tmp/fresh/run.h5"
cp "$tmp/p1.h5" "$tmp/keep.h5"
expect_error learn "already exists" learn "$cfg" --output "$tmp/p1.h5"
check "an existing run file is kept" cmp -s "$tmp/p1.h5" "$tmp/keep.h5"
expect_error learn "alpha" learn "$cfg" --output "$tmp/p1.h5" --resume --set td.alpha=0.02
check "a resume with another config keeps the file" cmp -s "$tmp/p1.h5" "$tmp/keep.h5"
# an evolution's run file of the same config is not resumed as a learning run
run evolve "$cfg" --output "$tmp/ev.h5" --quiet --set experiment.generations=1 --set population.size=4
cp "$tmp/ev.h5" "$tmp/ev-keep.h5"
expect_error learn "not a run of nickar learn" learn "$cfg" --output "$tmp/ev.h5" --resume \
  --set experiment.generations=1 --set population.size=4
check "the evolution's file is kept" cmp -s "$tmp/ev.h5" "$tmp/ev-keep.h5"

# SIGKILL once the run has written generation 2 of 40; --resume then
# gives the uninterrupted run.
long=$tmp/long.ini
sed "s/^generations = 6/generations = 40/; s/^games = 40/games = 8/" "$cfg" >"$long"
run learn "$long" --output "$tmp/full.h5" --quiet
check "the uninterrupted 40-generation run ($err)" test "$rc" -eq 0
generations() {
  local j
  j=$("$nickar" inspect --json "$1" 2>/dev/null)
  if [[ $j =~ \"generations\":([0-9]+) ]]; then echo "${BASH_REMATCH[1]}"; else echo -1; fi
}
landed=false
for attempt in 1 2 3; do
  rm -f "$tmp/k.h5" "$tmp/k.h5.bak"
  "$nickar" learn "$long" --output "$tmp/k.h5" --quiet --checkpoint-seconds 0 >/dev/null 2>&1 &
  pid=$!
  for ((i = 0; i < 1500; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    [[ $(generations "$tmp/k.h5") -ge 2 ]] && break
    sleep 0.02
  done
  kill -KILL "$pid" 2>/dev/null
  { wait "$pid"; } 2>/dev/null
  krc=$?
  if [[ $krc -eq 137 ]]; then
    landed=true
    break
  fi
done
check "SIGKILL landed while the run went on" $landed
run learn "$long" --output "$tmp/k.h5" --resume --quiet
check "resume after SIGKILL exits 0 ($err)" test "$rc" -eq 0
check "resume after SIGKILL equals the uninterrupted run" same_run "$tmp/full.h5" "$tmp/k.h5"
check "the backup is gone after the run" test ! -e "$tmp/k.h5.bak"

# 4. bad input: exit 2, one line naming the key, nothing written
expect_error learn "td.alpha" learn "$cfg" --output "$tmp/b1.h5" --set td.alpha=0
expect_error learn "td.alpha" learn "$cfg" --output "$tmp/b2.h5" --set td.alpha=-0.5
expect_error learn "td.lambda" learn "$cfg" --output "$tmp/b3.h5" --set td.lambda=1.5
expect_error learn "td.lambda" learn "$cfg" --output "$tmp/b4.h5" --set td.lambda=-0.1
expect_error learn "player.features" learn "$cfg" --output "$tmp/b5.h5" --set player.features=nosuch
expect_error learn "td.gamma" learn "$cfg" --output "$tmp/b6.h5" --set td.gamma=1
expect_error learn "player.view" learn "$cfg" --output "$tmp/b7.h5" --set player.view=root
expect_error learn "td.squash" learn "$cfg" --output "$tmp/b8.h5" --set td.squash=sigmoid
expect_error learn "player.features" learn "$cfg" --output "$tmp/b9.h5" --set "player.features=ntuple:layout=0-12"
for k in 1 2 3 4 5 6 7 8 9; do
  check "bad input $k writes nothing" test ! -e "$tmp/b$k.h5" -a ! -e "$tmp/b$k.h5.new" -a ! -e "$tmp/b$k.h5.bak"
done
expect_error learn "exclude" learn "$cfg" --resume --force
run learn "$cfg" --print-config
check "--print-config shows the [td] keys" grep -q "^lambda = 0.7" "$tmp/out"

# 5. the example configs (shortened)
for c in td-positional td-ntuple; do
  run learn "$srcdir/configs/$c.ini" --output "$tmp/$c.h5" --quiet --set experiment.generations=2 \
    --set td.games=4 --set benchmark.games=2 --set player.depth=1
  check "configs/$c.ini runs ($err)" test "$rc" -eq 0
done

finish
