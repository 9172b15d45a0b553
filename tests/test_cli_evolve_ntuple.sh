#!/usr/bin/env bash
# test_cli_evolve_ntuple.sh -- evolution of an evaluation family (an n-tuple
# network, search/ntuple.h): the same run whatever --threads is and an exact
# --resume (after a stop and after SIGKILL) with every strategy that takes
# thousands of weights; the full-covariance CMA-ES refuses a genome above its
# cap; the champion plays as RUN.h5@best / @gen=G,rank=R in match, tournament
# (@champions), rate, grade and ciao, and its recorded games play again (@game=K);
# inspect summarises the genome; a run of another family or length is
# refused as weights with one line; the keep policy (output.population_every)
# and the compact layout of a long genome; a network (nnet:hidden=4) run
# on 1 and 2 threads and resumed.  Kept small: ring2, cap 3 (193 weights),
# 4 individuals, depth 1.
# Usage: test_cli_evolve_ntuple.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

nt=ntuple:layout=ring2:cap=3
cfg=$tmp/nt.ini
cat >"$cfg" <<INI
[experiment]
name = nt
seed = 11
variant = abapa
generations = 3
[player]
features = $nt
depth = 1
[population]
size = 4
[strategy]
lambda = 4
mu = 2
sigma0 = 0.1
[fitness]
schedule = round-robin
openings = 2
[benchmark]
every = 2
games = 2
opponents = greedy
[output]
record_games = on
INI

# same_ckpt A B: the two files' checkpoints (what resume reads) are equal.
same_ckpt() {
  "$python" - "$1" "$2" <<'PY'
import sys, h5py
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
ca, cb = a["checkpoint"], b["checkpoint"]
assert sorted(ca) == sorted(cb), (sorted(ca), sorted(cb))
for k in ca:
    assert ca[k][:].tobytes() == cb[k][:].tobytes(), k
if "population/sigma" in a:
    g = int(ca.attrs["generation"]) + 1
    assert a["population/sigma"][:g].tobytes() == b["population/sigma"][:g].tobytes()
PY
}

# --- every strategy for large genomes: threads, resume ---------------------
for kind in ga es-plus sep-cma-es openai-es; do
  ks=(--set strategy.kind=$kind --quiet)
  run evolve "$cfg" --output "$tmp/$kind-1.h5" --threads 1 "${ks[@]}"
  check "$kind: an n-tuple run on 1 thread exits 0 ($err)" test "$rc" -eq 0
  run evolve "$cfg" --output "$tmp/$kind-2.h5" --threads 2 "${ks[@]}"
  check "$kind: on 2 threads exits 0 ($err)" test "$rc" -eq 0
  check "$kind: threads 1 and 2 give bit-identical runs" same_run "$tmp/$kind-1.h5" "$tmp/$kind-2.h5"
  check "$kind: ... and checkpoints" same_ckpt "$tmp/$kind-1.h5" "$tmp/$kind-2.h5"
  run evolve "$cfg" --output "$tmp/$kind-r.h5" --set experiment.generations=1 "${ks[@]}"
  run evolve "$cfg" --output "$tmp/$kind-r.h5" --resume "${ks[@]}"
  check "$kind: resume to 3 generations exits 0 ($err)" test "$rc" -eq 0
  check "$kind: the resumed run equals the uninterrupted one" same_run "$tmp/$kind-1.h5" "$tmp/$kind-r.h5"
  check "$kind: ... and its checkpoint" same_ckpt "$tmp/$kind-1.h5" "$tmp/$kind-r.h5"
done

# --- the network family the same way (nnet:hidden=4, 65 weights) -------------
for kind in ga sep-cma-es; do
  ks=(--set strategy.kind=$kind --set "player.features=nnet:hidden=4" --quiet)
  run evolve "$cfg" --output "$tmp/nn-$kind-1.h5" --threads 1 "${ks[@]}"
  check "nnet $kind: a network run on 1 thread exits 0 ($err)" test "$rc" -eq 0
  run evolve "$cfg" --output "$tmp/nn-$kind-2.h5" --threads 2 "${ks[@]}"
  check "nnet $kind: threads 1 and 2 give bit-identical runs" same_run "$tmp/nn-$kind-1.h5" "$tmp/nn-$kind-2.h5"
  run evolve "$cfg" --output "$tmp/nn-$kind-r.h5" --set experiment.generations=1 "${ks[@]}"
  run evolve "$cfg" --output "$tmp/nn-$kind-r.h5" --resume "${ks[@]}"
  check "nnet $kind: the resumed run equals the uninterrupted one" same_run "$tmp/nn-$kind-1.h5" "$tmp/nn-$kind-r.h5"
  check "nnet $kind: ... and its checkpoint" same_ckpt "$tmp/nn-$kind-1.h5" "$tmp/nn-$kind-r.h5"
done
run match "ab:depth=1,features=nnet:hidden=4,weights=$tmp/nn-ga-1.h5@best" random --variant abapa --games 2
check "match plays the network's RUN.h5@best ($err)" test "$rc" -eq 0

check "the run file holds the family's genome" "$python" - "$tmp/ga-1.h5" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
text = lambda v: v.decode() if isinstance(v, bytes) else v
assert text(f.attrs["feature_set"]) == "ntuple:layout=ring2:cap=3"
assert f["population/genome"].shape == (3, 4, 193), f["population/genome"].shape
assert len(f["features"]) == 193 and text(f["features"][0]) == "w0"
assert f["checkpoint/champion"].shape == (194,)
PY

# --- SIGKILL in the middle, then --resume ---------------------------------
LONG=200
sed "s/^generations = 3/generations = $LONG/" "$cfg" >"$tmp/long.ini"
run evolve "$tmp/long.ini" --output "$tmp/full.h5" --quiet --set output.record_games=off
check "an uninterrupted $LONG-generation run ($err)" test "$rc" -eq 0
rm -f "$tmp/k.h5" "$tmp/k.h5.bak"
"$nickar" evolve "$tmp/long.ini" --output "$tmp/k.h5" --quiet --set output.record_games=off \
  >/dev/null 2>&1 &
pid=$!
reached=1
for ((i = 0; i < 1500; i++)); do
  kill -0 "$pid" 2>/dev/null || break
  j=$("$nickar" inspect --json "$tmp/k.h5" 2>/dev/null)
  if [[ $j =~ \"generations\":([0-9]+) ]] && [[ ${BASH_REMATCH[1]} -ge 3 ]]; then
    reached=0
    break
  fi
  sleep 0.02
done
kill -KILL "$pid" 2>/dev/null
{ wait "$pid"; } 2>/dev/null
krc=$?
check "SIGKILL landed while the n-tuple run went on" test "$reached" -eq 0 -a "$krc" -eq 137
run evolve "$tmp/long.ini" --output "$tmp/k.h5" --resume --quiet --set output.record_games=off
check "resume after SIGKILL exits 0 ($err)" test "$rc" -eq 0
check "resume after SIGKILL equals the uninterrupted run" same_run "$tmp/full.h5" "$tmp/k.h5"

# --- CMA-ES's cap ----------------------------------------------------------
expect_error evolve "strategy.kind: cma-es takes at most 1000 weights, but player.features 'ntuple' has 4117" \
  evolve "$cfg" --set strategy.kind=cma-es --set player.features=ntuple --output "$tmp/cma.h5"
check "CMA-ES refused: no run file" test ! -e "$tmp/cma.h5"
run evolve "$cfg" --set strategy.kind=cma-es --output "$tmp/cma.h5" --quiet
check "CMA-ES takes 193 weights ($err)" test "$rc" -eq 0
expect_error evolve "player.features" \
  evolve "$cfg" --set player.features=ntuple:cap=0 --output "$tmp/bad.h5"

# --- the champion as a player ---------------------------------------------
run="$tmp/ga-1.h5"
expect_ok match --variant abapa --games 2 "ab:depth=1,features=$nt,weights=$run@best" greedy
expect_ok match --variant abapa --games 2 "ab:depth=1,features=$nt,weights=$run@gen=2,rank=3" greedy
expect_error match "193 weights" \
  match --variant abapa --games 2 "ab:depth=1,features=ntuple:layout=ring2:cap=2,weights=$run@best" greedy
expect_error match "weights" \
  match --variant abapa --games 2 "ab:depth=1,features=positional,weights=$run@best" greedy
expect_error match "rank 4 is not in 0..3" \
  match --variant abapa --games 2 "ab:depth=1,features=$nt,weights=$run@gen=1,rank=4" greedy
run tournament --variant abapa --games 2 "$run@champions" greedy --json --output "$tmp/t.h5"
check "tournament of the champions (@champions) ($err)" test "$rc" -eq 0
run tournament --variant abapa --games 2 "$run@champions" greedy --json --output "$tmp/t.h5" --resume
check "... resumed from its file ($err)" test "$rc" -eq 0
run rate --variant abapa --games 2 --ladder "$srcdir/results/ladder/abapa.tsv" "ab:depth=1,features=$nt,weights=$run@best"
check "rate of the champion ($err)" test "$rc" -eq 0
"$nickar" tablebase build --variant abapa --seeds 5 --output "$tmp/tb" >/dev/null 2>&1
run grade "ab:depth=1,features=$nt,weights=$run@best" --variant abapa --tb "$tmp/tb" --positions 10
check "grade of the champion against a database ($err)" test "$rc" -eq 0
run ciao "$run" --games 2 --output "$tmp/ciao.h5"
check "ciao of the run's champions ($err)" test "$rc" -eq 0
run replay "$run@game=7"
check "a recorded game plays again (@game=7) ($err)" test "$rc" -eq 0
check "... between the individuals of the run" grep -q "features=$nt.*id=" <<<"$out"

# --- the keep policy and the compact layout --------------------------------
# output.population_every = 2: whole populations in generations 1, 3, 5, the
# champion's row alone (NaN elsewhere) in 2 and 4; an ES with step sizes, so
# that sigma (float32 in the compact layout) is kept by the same rule.
ks=(--set strategy.kind=es-plus --set mutation.method=lognormal --set experiment.generations=5 --quiet)
run evolve "$cfg" --output "$tmp/k1.h5" "${ks[@]}"
check "keep every generation ($err)" test "$rc" -eq 0
run evolve "$cfg" --output "$tmp/k2.h5" "${ks[@]}" --set output.population_every=2
check "keep every 2nd generation ($err)" test "$rc" -eq 0
check "the kept rows and the champions are those of the whole run; sigma float32" \
  "$python" - "$tmp/k1.h5" "$tmp/k2.h5" <<'PY'
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
for f in (a, b):
    g, s = f["population/genome"], f["population/sigma"]
    assert g.dtype == np.float64 and g.compression == "gzip" and g.shuffle, "genome layout"
    assert s.dtype == np.float32 and s.compression == "gzip" and s.shuffle, "sigma layout"
    assert f["checkpoint/strategy"].dtype == np.float64
ga, gb = a["population/genome"][:], b["population/genome"][:]
sa, sb = a["population/sigma"][:], b["population/sigma"][:]
fit = a["population/fitness"][:]
assert (fit == b["population/fitness"][:]).all()
N = ga.shape[1]
for g in range(5):
    nan = np.isnan(gb[g]).all(axis=1)
    if g % 2 == 0:
        assert not nan.any() and (ga[g] == gb[g]).all() and (sa[g] == sb[g]).all(), g
    else:
        c = int(np.argmax(fit[g]))  # the first of equal bests
        assert nan.sum() == N - 1 and not nan[c], (g, nan)
        assert (ga[g, c] == gb[g, c]).all() and (sa[g, c] == sb[g, c]).all(), g
        assert np.isnan(np.delete(sb[g], c, axis=0)).all(), g
# float32 step sizes: the float64 ones rounded
assert (sa.astype(np.float32) == sa).all()
for k in a["checkpoint"]:
    assert a["checkpoint"][k][:].tobytes() == b["checkpoint"][k][:].tobytes(), k
PY
run evolve "$cfg" --output "$tmp/kr.h5" "${ks[@]}" --set output.population_every=2 \
  --set experiment.generations=2
run evolve "$cfg" --output "$tmp/kr.h5" "${ks[@]}" --set output.population_every=2 --resume
check "keep every 2nd: resume across a generation not kept ($err)" test "$rc" -eq 0
check "... equals the run made whole" same_run "$tmp/k2.h5" "$tmp/kr.h5"
check "... and its checkpoint and step sizes" same_ckpt "$tmp/k2.h5" "$tmp/kr.h5"
expect_error match "generation 2 keeps only its champion's weights (output.population_every)" \
  match --variant abapa --games 2 "ab:depth=1,features=$nt,weights=$tmp/k2.h5@gen=2,rank=1" greedy
expect_ok match --variant abapa --games 2 "ab:depth=1,features=$nt,weights=$tmp/k2.h5@gen=2,rank=0" greedy
expect_ok match --variant abapa --games 2 "ab:depth=1,features=$nt,weights=$tmp/k2.h5@gen=3,rank=1" greedy
expect_error evolve "output.population_every" \
  evolve "$cfg" --set output.population_every=0 --output "$tmp/k0.h5"
check "population_every 0 refused: no run file" test ! -e "$tmp/k0.h5"
# a game of generation 2 between individuals not kept: refused, one line
idx=$("$python" - "$tmp/k2.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
games, fit, ids = f["games"][:], f["population/fitness"][1], f["population/id"][1]
champ = ids[int(np.argmax(fit))]
for k, r in enumerate(games):
    if r["generation"] == 1 and champ not in (r["south_id"], r["north_id"]) and r["south_id"] >= 0:
        print(k + 1)
        break
PY
)
expect_error replay "the run kept only its champion's weights there (output.population_every)" \
  replay "$tmp/k2.h5@game=$idx"
# A file smaller than its genome uncompressed (4117 weights, NaN rows):
# every reader opens it (the bound of rows by the file's size counts
# deflate's ratio).
run evolve "$cfg" --output "$tmp/small.h5" --set player.features=ntuple --set experiment.generations=12 \
  --set output.population_every=100 --set output.record_games=off --quiet
check "a 4117-weight run keeping one population ($err)" test "$rc" -eq 0
check "... its file is smaller than its genome uncompressed" \
  test "$(stat -c %s "$tmp/small.h5")" -lt $((12 * 4 * 4117 * 8))
run inspect "$tmp/small.h5"
check "... inspect reads it ($err)" test "$rc" -eq 0
check "... and summarises 4117 weights" grep -q "4117 weights: min" <<<"$out"
expect_ok match --variant abapa --games 2 "ab:depth=1,features=ntuple,weights=$tmp/small.h5@best" greedy
run evolve "$cfg" --output "$tmp/small.h5" --set player.features=ntuple --set experiment.generations=13 \
  --set output.population_every=100 --set output.record_games=off --quiet --resume
check "... and --resume extends it ($err)" test "$rc" -eq 0
# a linear run keeping every population keeps the layout it always had
run evolve "$cfg" --output "$tmp/lin.h5" --set player.features=positional --set strategy.kind=es-plus \
  --set mutation.method=lognormal --quiet
check "a linear run: genome and sigma float64, not compressed" "$python" - "$tmp/lin.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
for n in ("genome", "sigma"):
    d = f["population/" + n]
    assert d.dtype == np.float64 and d.compression is None and not d.shuffle, n
assert f["checkpoint/strategy"].compression is None
PY

# --- inspect summarises the genome ----------------------------------------
run inspect "$run"
check "inspect exits 0 ($err)" test "$rc" -eq 0
check "inspect summarises the 193 weights" grep -q "193 weights: min" <<<"$out"
check "inspect prints no weight by name" test "$(grep -c '^  w[0-9]' <<<"$out")" -eq 0
run inspect "$run" --json
json 'o = objs[0]; c = o["champion"]
assert o["features"] is None and c["weights"] is None
assert c["weights_summary"]["n"] == 193'

finish
