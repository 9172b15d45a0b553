# test_study_representation.sh -- experiments/representation/run.sh --quick
# (depth 1, 2 seeds, 1280 games a run, the 12-seed database built in
# OUT/tb: seconds) writes every output of the representation study with the
# right shape and consistent numbers: every arm plays the same number of
# self-play games, the tables agree with the per-seed rows, a rating, a
# grade and a champion's claimed score are what nickar gives again, the
# champions' weights files play as their run files' individuals; the README
# is remade from the committed data alone and passes
# scripts/check-results.py, which fails once a README number is edited;
# bad settings exit 2 with one line.  The outputs go to a temporary
# directory, never results/.
#
#   bash tests/test_study_representation.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"
nickar=$(cd "$(dirname "$nickar")" && pwd)/$(basename "$nickar")
dir=$tmp/r/representation  # short: a player spec holds 127 bytes
NICKAR=$nickar OUT=$dir THREADS=1 "$srcdir/experiments/representation/run.sh" --quick >"$tmp/log" 2>&1
rc=$?
check "run.sh --quick exits 0 ($(tail -c 300 "$tmp/log"))" test "$rc" -eq 0
for f in README.md runs.json runs.csv ratings.jsonl matches.jsonl grades.jsonl compute.tsv \
         players.csv final.csv summary.csv tests.csv curves.csv headtohead.csv gdepth.csv \
         budget.csv champions.json results.json learning_curves.png ntuple_weights.png \
         grade_vs_depth.png elo_depths.png; do
  check "$f written" test -s "$dir/$f"
done
check "12 run files (6 arms x 2 seeds)" test "$(ls "$dir"/run-*.h5 | wc -l)" -eq 12
check "6 champions' weights files" test "$(ls "$dir"/champion-*.txt | wc -l)" -eq 6
check "the 12-seed database went to OUT/tb" test -s "$dir/tb/abapa.nktb"
check "README says it is a quick run" grep -q 'QUICK RUN' "$dir/README.md"
check "README answers the questions" grep -q '^## Answers' "$dir/README.md"
check "README answers which is strongest" grep -q '^\*\*Which representation and learner gives the strongest player' "$dir/README.md"
check "README answers against hand-tuned at equal depth" grep -q '^\*\*Does any learned evaluation beat hand-tuned' "$dir/README.md"
check "README answers at two plies less" grep -q '^\*\*And at two plies less?\*\*' "$dir/README.md"
check "README answers on endgames" grep -q '^\*\*How close to perfect play in endgames?\*\*' "$dir/README.md"
check "README says coevolutionary TD is not built" grep -q 'Coevolutionary TD (evolution whose individuals also learn by TD) is not built' "$dir/README.md"
check "README states the budget's limits" grep -q "^\*\*The budget's limits\.\*\*" "$dir/README.md"
check "README lists nothing missing after a whole run" bash -c "! grep -q '^\*\*Missing' '$dir/README.md'"
mkdir "$tmp/re"
"$srcdir/experiments/representation/report.py" --committed "$dir" "$tmp/re" >/dev/null 2>"$tmp/err-re"
check "report.py --committed remakes README.md without run files ($(head -c 300 "$tmp/err-re"))" \
  cmp -s "$dir/README.md" "$tmp/re/README.md"
"$python" - "$dir" <<'PY' && pass || fail "tables: shape and consistency"
import json, statistics, sys
import pandas as pd
out = sys.argv[1]
arms = ["pos-ga", "pos-cma", "ntuple-es", "ntuple-td", "nnet-es", "nnet-td"]
runs = pd.read_csv(f"{out}/runs.csv")
assert len(runs) == 12 and list(dict.fromkeys(runs.arm)) == arms
# One equal budget of self-play games; the generations each learner's share.
assert (runs.selfplay_games == 1280).all(), runs.selfplay_games.tolist()
gens = dict(zip(runs.arm, runs.generations))
assert gens == {"pos-ga": 10, "pos-cma": 16, "ntuple-es": 10, "ntuple-td": 20,
                "nnet-es": 10, "nnet-td": 20}, gens
# Ratings: 2 checkpoints at depth 1 and the final player at depth 2, a run.
p = pd.read_csv(f"{out}/players.csv")
assert len(p) == 12 * 3, len(p)
assert sorted(set(p[p.depth == 1].games)) == [640, 1280] and set(p[p.depth == 2].games) == {1280}
assert ((p.elo_lo < p.elo) & (p.elo < p.elo_hi)).all()
f = pd.read_csv(f"{out}/final.csv")
assert len(f) == 12
assert ((f.score_lo <= f.score) & (f.score <= f.score_hi)).all()
assert (f.wins + f.draws + f.losses == 20).all()
assert (f.end_positions == 100).all()
assert ((f.end_optimal_lo <= f.end_optimal) & (f.end_optimal <= f.end_optimal_hi)).all()
for r in f.itertuples():  # the final rows are the players.csv rows of the whole budget
    q = p[(p.arm == r.arm) & (p.seed == r.seed) & (p.games == 1280)]
    assert abs(q[q.depth == 1].elo.iloc[0] - r.elo) < 1e-9 and abs(q[q.depth == 2].elo.iloc[0] - r.elo_deep) < 1e-9
# The summary from the per-seed rows.
s = pd.read_csv(f"{out}/summary.csv").set_index("arm")
for k in arms:
    v = f[f.arm == k]
    assert s.loc[k, "seeds"] == 2
    assert s.loc[k, "wins"] == v.wins.sum() and s.loc[k, "losses"] == v.losses.sum()
    assert abs(s.loc[k, "end_optimal"] - v.end_optimal.mean()) < 1e-12
    assert abs(s.loc[k, "elo_median"] - v.elo.median()) < 1e-9
    assert abs(s.loc[k, "elo_deep_median"] - v.elo_deep.median()) < 1e-9
    assert abs(s.loc[k, "train_cpu_s_total"] - v.train_cpu_s.sum()) < 1e-9
# The tests: the best arm by mean Elo against the five others, three measures.
t = pd.read_csv(f"{out}/tests.csv")
assert len(t) == 15 and set(t.best) == {s.elo_mean.idxmax()}
for r in t.itertuples():
    x, y = f[f.arm == r.best][r.measure].tolist(), f[f.arm == r.arm][r.measure].tolist()
    u = sum((a > b) + 0.5 * (a == b) for a in x for b in y)
    assert abs(u - r.u) < 1e-9 and 0 < r.p <= r.p_holm <= 1
# Learning curves: medians of the players' ratings.
c = pd.read_csv(f"{out}/curves.csv")
assert len(c) == 12 and (c.n == 2).all()
for r in c.itertuples():
    v = p[(p.arm == r.arm) & (p.games == r.games) & (p.depth == 1)].elo
    assert abs(statistics.median(v) - r.median) < 1e-9
# Champions: each arm's best seed by the fixed-fit Elo, its file, its claim.
ch = json.load(open(f"{out}/champions.json"))["champions"]
assert [e["arm"] for e in ch] == arms
rates = [json.loads(x) for x in open(f"{out}/ratings.jsonl")]
for e in ch:
    fin = {o["seed"]: o["rate"]["elo"] for o in rates
           if o["arm"] == e["arm"] and o["games"] == 1280 and o["depth"] == 1}
    assert e["seed"] == max(sorted(fin), key=lambda s: fin[s]), (e["arm"], fin)
    assert e["spec"].endswith(",weights=" + e["weights_file"]) and e["spec"].startswith("ab:depth=1,")
    assert e["wins"] + e["draws"] + e["losses"] == e["games"] == 20
    assert e["h2h"]["opponent"] == "ab:depth=3,features=positional"
g = pd.read_csv(f"{out}/gdepth.csv")
assert len(g) == 7 * 2 and set(g.depth) == {1, 2}
h = pd.read_csv(f"{out}/headtohead.csv")
assert list(h.arm) == ["hand"] + arms
b = pd.read_csv(f"{out}/budget.csv")
assert len(b) == 12 and (b.train_cpu_s >= 0).all() and (b.measure_cpu_s >= 0).all()
d = json.load(open(f"{out}/results.json"))
assert d["settings"]["quick"] == 1 and d["settings"]["tbseeds"] == 12 and d["best_arm"] == s.elo_mean.idxmax()
for png in ("learning_curves.png", "ntuple_weights.png", "grade_vs_depth.png", "elo_depths.png"):
    assert open(f"{out}/{png}", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
PY

# A rating and a grade of the tables are what nickar gives again.
spec="ab:depth=1,features=ntuple:layout=ring2:cap=3,weights=$dir/run-ntuple-td-s1.h5@gen=10,rank=0"
run rate --variant abapa --ladder "$srcdir/results/ladder/abapa.tsv" --games 2 --seed 1 --json "$spec"
check "rate exits 0" test "$rc" -eq 0
"$python" - "$dir" "$out" <<'PY' && pass || fail "the table's rating is nickar rate's"
import json, sys
import pandas as pd
p = pd.read_csv(f"{sys.argv[1]}/players.csv")
row = p[(p.arm == "ntuple-td") & (p.seed == 1) & (p.games == 640) & (p.depth == 1)]
assert len(row) == 1 and abs(row.elo.iloc[0] - json.loads(sys.argv[2])["elo"]) < 0.01
PY
spec="ab:depth=1,features=nnet:hidden=8:act=tanh,weights=$dir/run-nnet-es-s2.h5@gen=10,rank=0"
run grade "$spec" --variant abapa --tb "$dir/tb" --positions 100 --seed 1 --reference 'ab:depth=1,features=positional'
check "grade exits 0" test "$rc" -eq 0
"$python" - "$dir" "$out" <<'PY' && pass || fail "the table's endgame grade is nickar grade's"
import re, sys
import pandas as pd
f = pd.read_csv(f"{sys.argv[1]}/final.csv")
row = f[(f.arm == "nnet-es") & (f.seed == 2)].iloc[0]
m = re.search(r"optimal moves: ([\d.]+)\s+95% interval \[([\d.]+), ([\d.]+)\]", sys.argv[2])
assert (float(m.group(1)), float(m.group(2)), float(m.group(3))) == \
    (row.end_optimal, row.end_optimal_lo, row.end_optimal_hi), (m.groups(), row.end_optimal)
PY
# A champion's claimed score, played again from champions.json as given.
read -r cspec copp cgames cseed cwdl < <("$python" -c '
import json, sys
e = json.load(open(sys.argv[1]))["champions"][3]
print(e["spec"], e["opponent"], e["games"], e["match_seed"], "%d-%d-%d" % (e["wins"], e["draws"], e["losses"]))' "$dir/champions.json")
run match "$cspec" "$copp" --variant abapa --games "$cgames" --seed "$cseed" --json
check "the champion's match exits 0" test "$rc" -eq 0
check "the champion's claimed score is nickar match's ($cwdl)" test \
  "$("$python" -c 'import json, sys; o = json.loads(sys.argv[1]); print("%d-%d-%d" % (o["wins"], o["draws"], o["losses"]))' "$out")" = "$cwdl"
# A champion's weights file holds the run file's individual exactly.
"$python" - "$dir" <<'PY' && pass || fail "champion-ntuple-es.txt is its run file's rank-0 individual"
import json, sys
import h5py
out = sys.argv[1]
e = json.load(open(f"{out}/champions.json"))["champions"][2]
w = [float(x) for x in open(f"{out}/champion-ntuple-es.txt") if not x.startswith("#")]
with h5py.File(f"{out}/run-ntuple-es-s{e['seed']}.h5") as f:
    fit, gen = f["population/fitness"][-1], f["population/genome"][-1]
best = max(range(len(fit)), key=lambda i: (fit[i], -i))
assert len(w) == 193 and w == [float(x) for x in gen[best]]
PY

# The results check on the quick outputs, as on the committed study.
rm -f "$dir"/run-*.h5
/usr/bin/python3 "$srcdir/scripts/check-results.py" --results "$tmp/r" --study representation \
  >"$tmp/check.out" 2>&1
check "check-results passes on the quick outputs ($(tail -c 300 "$tmp/check.out"))" test $? -eq 0
check "check-results refitted every rating" grep -q ' 36 ratings refitted' "$tmp/check.out"
sed -i '0,/^| `positional` \/ GA | 2 | /s/| \([0-9]*\)-\([0-9]*\)-\([0-9]*\) |/| \1-\2-9\3 |/' "$dir/README.md"
/usr/bin/python3 "$srcdir/scripts/check-results.py" --results "$tmp/r" --study representation \
  >"$tmp/check.out" 2>&1
check "check-results fails on an edited README number" test $? -eq 1

# Bad settings: exit 2, one line, nothing written.
for bad in "CHECKPOINTS=640" "BUDGET=1000" "CHECKPOINTS=100 1280"; do
  env NICKAR="$nickar" OUT="$tmp/bad" "$bad" "$srcdir/experiments/representation/run.sh" --quick \
    >"$tmp/bad.out" 2>"$tmp/bad.err"
  check "$bad exits 2" test $? -eq 2
  check "$bad: one line" test "$(wc -l <"$tmp/bad.err")" -eq 1
done
check "CHECKPOINTS without BUDGET says why" bash -c "env NICKAR='$nickar' OUT='$tmp/bad' CHECKPOINTS=640 '$srcdir/experiments/representation/run.sh' --quick 2>&1 | grep -q 'CHECKPOINTS must include BUDGET=1280'"
NICKAR=$nickar OUT=$tmp/bad/$(printf 'x%.0s' {1..60}) "$srcdir/experiments/representation/run.sh" --quick \
  >"$tmp/bad.out" 2>"$tmp/bad.err"
check "an OUT too long for a player spec exits 2" test $? -eq 2
check "and says why" grep -q "is too long: the spec" "$tmp/bad.err"
NICKAR=$nickar OUT=$tmp/bad "$srcdir/experiments/representation/run.sh" --quick --continue \
  >"$tmp/bad.out" 2>"$tmp/bad.err"
check "--continue exits 2" test $? -eq 2
check "and nothing written" test ! -e "$tmp/bad"
finish
