# test_study_strategies.sh -- experiments/strategies/run.sh --quick (a tiny
# budget, seconds) writes every output of the strategies study with the
# right shape and consistent numbers, so that the script never rots.  The
# outputs go to a temporary directory, never results/.
#
#   bash tests/test_study_strategies.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"
nickar=$(cd "$(dirname "$nickar")" && pwd)/$(basename "$nickar")
dir=$tmp/strategies
NICKAR=$nickar OUT=$dir "$srcdir/experiments/strategies/run.sh" --quick >"$tmp/log" 2>&1
rc=$?
check "run.sh --quick exits 0 ($(tail -c 300 "$tmp/log"))" test "$rc" -eq 0
for f in README.md ratings.jsonl ladder_elo.csv final_elo.csv summary.csv tests.csv runs.csv \
         results.json tests_by_games.csv elo_vs_games.png final_elo.png diversity.png; do
  check "$f written" test -s "$dir/$f"
done
check "eight run files (4 strategies x 2 seeds)" test "$(ls "$dir"/run-*.h5 | wc -l)" -eq 8
check "README says it is a quick run" grep -q 'QUICK RUN' "$dir/README.md"
check "README has the protocol table" grep -q '^| CMA-ES | Hansen (2016)' "$dir/README.md"
check "README says which intervals" grep -q '^| intervals | - | one rating: the 95% interval of the joint fit' "$dir/README.md"
mkdir "$tmp/re"
"$srcdir/experiments/strategies/report.py" --committed "$dir" "$tmp/re" >/dev/null 2>"$tmp/err-re"
check "report.py --committed remakes README.md from the data without run files ($(head -c 300 "$tmp/err-re"))" \
  cmp -s "$dir/README.md" "$tmp/re/README.md"

"$python" - "$dir" <<'PY' && pass || fail "tables: shape and consistency"
import json, sys
import pandas as pd
out = sys.argv[1]
runs = pd.read_csv(f"{out}/runs.csv")
# An equal budget of games, from generations of different sizes.
per = dict(zip(runs.strategy, runs.games_per_generation))
assert per == {"ga": 128, "es-plus": 160, "es-comma": 128, "cma-es": 80}, per
assert (runs.games == 1280).all() and len(runs) == 8
assert dict(zip(runs.strategy, runs.generations)) == {"ga": 10, "es-plus": 8, "es-comma": 10, "cma-es": 16}
# Ratings after generation 1, after EARLY = 640 games and at the end of the
# budget: 3 per run.
elo = pd.read_csv(f"{out}/ladder_elo.csv")
assert len(elo) == 24 and len(open(f"{out}/ratings.jsonl").readlines()) == 24
assert sorted(set(elo[elo.strategy == "cma-es"].generation)) == [1, 8, 16]
assert sorted(set(elo[elo.strategy == "es-plus"].generation)) == [1, 4, 8]
assert sorted(set(elo[elo.strategy == "ga"].games)) == [128, 640, 1280]
assert (elo.rating_games == 32).all()        # 2 games x 16 rungs
assert ((elo.elo_lo < elo.elo) & (elo.elo < elo.elo_hi)).all()
assert ((elo.diversity >= 0) & (elo.diversity <= 1)).all()
final = pd.read_csv(f"{out}/final_elo.csv")
assert len(final) == 8 and (final.games == 1280).all()
# The tests: U recomputed from the per-seed final Elo; Holm never lowers p.
t = pd.read_csv(f"{out}/tests.csv")
assert len(t) == 6
for r in t.itertuples():
    x = final[final.strategy == r.a].elo.tolist()
    y = final[final.strategy == r.b].elo.tolist()
    u = sum((a > b) + 0.5 * (a == b) for a in x for b in y)
    assert abs(u - r.u) < 1e-9, (r.a, r.b, u, r.u)
    assert abs(r.prob_a_beats_b - u / 4) < 1e-9
    assert 0 < r.p <= r.p_holm <= 1
# Secondary: the same tests at each budget rated for all four (640, 1280);
# at the end of the budget they are the primary tests.
bg = pd.read_csv(f"{out}/tests_by_games.csv")
assert sorted(set(bg.games)) == [640, 1280] and len(bg) == 12
end = bg[bg.games == 1280].drop(columns="games").reset_index(drop=True)
pd.testing.assert_frame_equal(end, t)
s = pd.read_csv(f"{out}/summary.csv")
assert list(s.strategy) == ["ga", "es-plus", "es-comma", "cma-es"] and (s.seeds == 2).all()
for r in s.itertuples():
    v = sorted(final[final.strategy == r.strategy].elo)
    assert abs(r.median - (v[0] + v[1]) / 2) < 1e-6
d = json.load(open(f"{out}/results.json"))
assert d["settings"]["quick"] and d["settings"]["budget_games"] == 1280
assert d["settings"]["early_games"] == [640]
assert d["compute"]["cpu_seconds"] >= d["compute"]["cpu_seconds_evolve"] >= 0
for png in ("elo_vs_games.png", "final_elo.png", "diversity.png"):
    assert open(f"{out}/{png}", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
PY

# A rating in the tables is the one nickar rate gives for that champion.
spec="ab:depth=1,features=positional,weights=$dir/run-es-comma-s2.h5@gen=5,rank=0"  # 640 games
run rate --variant abapa --ladder "$srcdir/results/ladder/abapa.tsv" --games 2 --seed 1 --json "$spec"
check "rate exits 0" test "$rc" -eq 0
"$python" - "$dir" "$out" <<'PY' && pass || fail "the table's rating is nickar rate's"
import json, sys
import pandas as pd
elo = pd.read_csv(f"{sys.argv[1]}/ladder_elo.csv")
row = elo[(elo.strategy == "es-comma") & (elo.seed == 2) & (elo.generation == 5)]
assert len(row) == 1 and abs(row.elo.iloc[0] - json.loads(sys.argv[2])["elo"]) < 0.01
PY

check "compute.tsv: an evolve line a run, a rate line a run" test "$(grep -c $'^evolve\t' "$dir/compute.tsv") $(grep -c $'^rate\t' "$dir/compute.tsv")" = "8 8"

# --continue keeps the finished runs (only checked) and reuses the ratings
# made with the same champion, ladder and games: with EARLY empty, the 16
# ratings left are those made before; one whose games differ (doctored
# here: 30 for 32) is made again.
cp "$dir/ratings.jsonl" "$tmp/first.jsonl"
sed -i 's/^\({"strategy":"cma-es","seed":[0-9]*,"generation":16,.*\)"games":32,/\1"games":30,/' "$dir/ratings.jsonl"
check "the test doctored two cma-es ratings" test "$(grep -c '"games":30,' "$dir/ratings.jsonl")" -eq 2
NICKAR=$nickar OUT=$dir EARLY= "$srcdir/experiments/strategies/run.sh" --quick --continue >"$tmp/log" 2>&1
check "--continue exits 0 ($(tail -c 300 "$tmp/log"))" test $? -eq 0
check "--continue: 16 ratings" test "$(wc -l <"$dir/ratings.jsonl")" -eq 16
check "--continue: the doctored ratings were made again" test "$(grep -c '"games":30,' "$dir/ratings.jsonl")" -eq 0
check "--continue: every rating as the first invocation made it" \
  bash -c "grep -vxFf '$tmp/first.jsonl' '$dir/ratings.jsonl' | wc -l | grep -qx 0"
check "--continue: compute.tsv grows" test "$(grep -c $'^evolve\t' "$dir/compute.tsv")" -eq 16

# A budget that some strategy cannot spend in whole generations is bad input.
NICKAR=$nickar OUT=$tmp/bad BUDGET=1000 "$srcdir/experiments/strategies/run.sh" --quick \
  >"$tmp/bad.out" 2>"$tmp/bad.err"
check "BUDGET 1000 exits 2" test $? -eq 2
check "and says why" grep -q "BUDGET 1000 is not a multiple of ga's 128 games" "$tmp/bad.err"
NICKAR=$nickar OUT=$tmp/bad EARLY=320 "$srcdir/experiments/strategies/run.sh" --quick \
  >"$tmp/bad.out" 2>"$tmp/bad.err"
check "EARLY 320 exits 2" test $? -eq 2
check "and says why" grep -q "EARLY 320 is not a multiple of ga's 128 games" "$tmp/bad.err"
check "and writes nothing" test ! -e "$tmp/bad"
finish
