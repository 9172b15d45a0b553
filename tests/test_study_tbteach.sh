# test_study_tbteach.sh -- experiments/tbteach/run.sh --quick (depth 1,
# 2 seeds, 4 generations, the 12-seed database built in OUT/tb: seconds)
# writes every output of the tbteach study with the right shape and
# consistent numbers; its README is remade from the committed data alone
# and passes scripts/check-results.py; a rating and a grade of the tables
# are what nickar gives again; bad settings exit 2 with one line.  The
# outputs go to a temporary directory, never results/.
#
#   bash tests/test_study_tbteach.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"
nickar=$(cd "$(dirname "$nickar")" && pwd)/$(basename "$nickar")
dir=$tmp/results/tbteach
NICKAR=$nickar OUT=$dir THREADS=1 "$srcdir/experiments/tbteach/run.sh" --quick >"$tmp/log" 2>&1
rc=$?
check "run.sh --quick exits 0 ($(tail -c 300 "$tmp/log"))" test "$rc" -eq 0
for f in README.md runs.json runs.csv ratings.jsonl matches.jsonl grades.jsonl tunes.jsonl \
         compute.tsv players.csv final.csv summary.csv tests.csv checkpoints.csv budget.csv \
         results.json elo_vs_endgame.png checkpoints.png; do
  check "$f written" test -s "$dir/$f"
done
check "12 run files (6 arms x 2 seeds)" test "$(ls "$dir"/run-*.h5 | wc -l)" -eq 12
check "the 12-seed database went to OUT/tb" test -s "$dir/tb/abapa.nktb"
check "README says it is a quick run" grep -q 'QUICK RUN' "$dir/README.md"
check "README answers the question" grep -q '^## Answer' "$dir/README.md"
check "README names the controls" grep -q '^\*\*Controls: what differs between the arms besides the teacher' "$dir/README.md"
check "README states the limits" grep -q '^\*\*Limits\.\*\*' "$dir/README.md"
check "README says two seeds a pit were not graded" grep -q 'two seeds a pit not graded' "$dir/README.md"
mkdir "$tmp/re"
"$srcdir/experiments/tbteach/report.py" --committed "$dir" "$tmp/re" >/dev/null 2>"$tmp/err-re"
check "report.py --committed remakes README.md without run files ($(head -c 300 "$tmp/err-re"))" \
  cmp -s "$dir/README.md" "$tmp/re/README.md"
"$python" - "$dir" <<'PY' && pass || fail "tables: shape and consistency"
import json, sys
import pandas as pd
out = sys.argv[1]
runs = pd.read_csv(f"{out}/runs.csv")
assert len(runs) == 12
arms = ["tune-logistic", "tune-ls", "tune-logistic-12", "tb-lost", "tb-optimal", "selfplay"]
assert list(dict.fromkeys(runs.arm)) == arms
# Equal generations and individuals for the evolving arms; games for self-play alone.
ev = runs[runs.arm.isin(arms[3:])]
assert (ev.generations == 4).all() and (ev.evaluations == 64).all()
assert (runs[runs.arm == "selfplay"].fitness_games == 4 * 128).all()
assert (runs[runs.arm.str.startswith("tb-")].fitness_games == 0).all()
b = pd.read_csv(f"{out}/budget.csv")
assert (b[b.arm.str.startswith("tb-")].positions_graded == 64 * 20).all()
assert (b.train_cpu_s >= 0).all()
# Players: the hand-tuned searcher, 6 tunings, 3 x 2 evolutions at 2 checkpoints.
p = pd.read_csv(f"{out}/players.csv")
assert len(p) == 1 + 6 + 12, len(p)
assert sorted(set(p[p.arm == "selfplay"].generation)) == [1, 4]
rated = p[p.arm != "hand"]
assert ((rated.elo_lo < rated.elo) & (rated.elo < rated.elo_hi)).all()
assert ((rated.score_lo <= rated.score) & (rated.score <= rated.score_hi)).all()
assert (rated.wins + rated.draws + rated.losses == 20).all()
assert (p.end_positions == 100).all()
assert ((p.end_optimal_lo <= p.end_optimal) & (p.end_optimal <= p.end_optimal_hi)).all()
assert (p.start1_games == 10).all() and (p.start1_wins + p.start1_draws + p.start1_losses == 10).all()
assert (p.start1_opening_moves + p.start1_middle_moves + p.start1_end_moves == p.start1_moves).all()
assert (p.start1_thrown == p.start1_win_to_draw + p.start1_win_to_loss + p.start1_draw_to_loss).all()
f = pd.read_csv(f"{out}/final.csv")
assert len(f) == 12 and set(f[f.arm == "tb-lost"].generation) == {4}
assert set(f[f.arm.str.startswith("tune")].generation) == {0}
assert (f[f.arm.str.startswith("tune")].iterations >= 1).all()
# The summary's pooled score is the sum of the seeds' matches.
s = pd.read_csv(f"{out}/summary.csv").set_index("arm")
for k in arms:
    v = f[f.arm == k]
    assert s.loc[k, "wins"] == v.wins.sum() and s.loc[k, "losses"] == v.losses.sum()
    assert abs(s.loc[k, "end_optimal"] - v.end_optimal.mean()) < 1e-12
    assert abs(s.loc[k, "elo_median"] - v.elo.median()) < 1e-9
t = pd.read_csv(f"{out}/tests.csv")
assert len(t) == 15 and set(t.measure) == {"elo", "end_optimal", "start1_optimal"}
for r in t.itertuples():
    x, y = f[f.arm == r.arm][r.measure].tolist(), f[f.arm == "selfplay"][r.measure].tolist()
    u = sum((a > b) + 0.5 * (a == b) for a in x for b in y)
    assert abs(u - r.u) < 1e-9 and 0 < r.p <= r.p_holm <= 1
d = json.load(open(f"{out}/results.json"))
assert d["settings"]["quick"] == 1 and d["settings"]["tbseeds"] == 12
for png in ("elo_vs_endgame.png", "checkpoints.png"):
    assert open(f"{out}/{png}", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
PY

# A rating and a grade of the tables are what nickar gives again.
spec="ab:depth=1,features=positional,weights=$dir/run-tb-lost-s1.h5@gen=4,rank=0"
run rate --variant abapa --ladder "$srcdir/results/ladder/abapa.tsv" --games 2 --seed 1 --json "$spec"
check "rate exits 0" test "$rc" -eq 0
"$python" - "$dir" "$out" <<'PY' && pass || fail "the table's rating is nickar rate's"
import json, sys
import pandas as pd
p = pd.read_csv(f"{sys.argv[1]}/players.csv")
row = p[(p.arm == "tb-lost") & (p.seed == 1) & (p.generation == 4)]
assert len(row) == 1 and abs(row.elo.iloc[0] - json.loads(sys.argv[2])["elo"]) < 0.01
PY
run grade "$spec" --variant abapa --tb "$dir/tb" --positions 100 --seed 1 --reference 'ab:depth=1,features=positional'
check "grade exits 0" test "$rc" -eq 0
"$python" - "$dir" "$out" <<'PY' && pass || fail "the table's endgame grade is nickar grade's"
import re, sys
import pandas as pd
p = pd.read_csv(f"{sys.argv[1]}/players.csv")
row = p[(p.arm == "tb-lost") & (p.seed == 1) & (p.generation == 4)].iloc[0]
m = re.search(r"optimal moves: ([\d.]+)\s+95% interval \[([\d.]+), ([\d.]+)\]", sys.argv[2])
assert (float(m.group(1)), float(m.group(2)), float(m.group(3))) == \
    (row.end_optimal, row.end_optimal_lo, row.end_optimal_hi), (m.groups(), row.end_optimal)
PY

# The results check on the quick outputs, as on the committed study.
rm -f "$dir"/run-*.h5
/usr/bin/python3 "$srcdir/scripts/check-results.py" --results "$tmp/results" --study tbteach \
  >"$tmp/check.out" 2>&1
check "check-results passes on the quick outputs ($(tail -c 300 "$tmp/check.out"))" test $? -eq 0
check "check-results refitted every rating" grep -q ' 18 ratings refitted' "$tmp/check.out"
sed -i '0,/^| tuned, logistic | /s/| \([0-9]*\)-\([0-9]*\)-\([0-9]*\) |/| \1-\2-9\3 |/' "$dir/README.md"
/usr/bin/python3 "$srcdir/scripts/check-results.py" --results "$tmp/results" --study tbteach \
  >"$tmp/check.out" 2>&1
check "check-results fails on an edited README number" test $? -eq 1

# Bad settings: exit 2, one line, nothing written.
NICKAR=$nickar OUT=$tmp/bad CHECKPOINTS="1 3" "$srcdir/experiments/tbteach/run.sh" --quick \
  >"$tmp/bad.out" 2>"$tmp/bad.err"
check "CHECKPOINTS without GENS exits 2" test $? -eq 2
check "and says why" grep -q "CHECKPOINTS must include GENS=4" "$tmp/bad.err"
NICKAR=$nickar OUT=$tmp/bad TB24=$tmp "$srcdir/experiments/tbteach/run.sh" --quick \
  >"$tmp/bad.out" 2>"$tmp/bad.err"
check "TB24 without a 24-seed database exits 2" test $? -eq 2
check "and says why" grep -q "holds no abapa database of 24 seeds" "$tmp/bad.err"
NICKAR=$nickar OUT=$tmp/bad "$srcdir/experiments/tbteach/run.sh" --quick --continue \
  >"$tmp/bad.out" 2>"$tmp/bad.err"
check "--continue exits 2" test $? -eq 2
check "one line each time" test "$(wc -l <"$tmp/bad.err")" -eq 1
check "and nothing written" test ! -e "$tmp/bad"
finish
