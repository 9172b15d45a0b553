# test_study_caribbean.sh -- experiments/caribbean/run.sh --quick (a tiny
# budget, seconds) writes every output of the study with the right shape:
# ten runs, every rating, the summaries consistent with the ratings and the
# champions' weights normalised.  The outputs go to a temporary directory,
# never results/, and the ladders are tiny ones made here (random, greedy,
# a depth-1 searcher) so that the ratings take no time.
#
#   bash tests/test_study_caribbean.sh NICKAR_BINARY SOURCE_ROOT
set -u
nickar=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd) || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
mkdir -p "$out/ladder" "$out/study"
for v in antigua speightstown bridgetown abapa adjikui; do
  # with made-up results lines, so that the report's joint refit has games
  printf 'random\trandom\t0\ngreedy\tgreedy\t400\nmaterial-d1\tab:depth=1,features=material\t550\n@anchor\trandom\t0\n@wdl\trandom\tgreedy\t2\t1\t37\n@wdl\trandom\tmaterial-d1\t1\t1\t38\n@wdl\tgreedy\tmaterial-d1\t12\t2\t26\n' \
    >"$out/ladder/$v.tsv"
done
NICKAR=$nickar OUT=$out/study LADDERS=$out/ladder GAMES=4 \
  "$src/experiments/caribbean/run.sh" --quick >/dev/null 2>"$out/err" \
  || { cat "$out/err"; echo "FAIL: run.sh --quick"; exit 1; }
o=$out/study
for f in README.md champions.csv ratings.csv own.csv cross.csv weights.csv compute.csv results.json; do
  check "$f written" "test -s '$o/$f'"
done
for f in fitness.png weights.png cross.png; do
  check "$f is a PNG" "test \"\$(head -c 8 '$o/$f' | od -An -tx1 | tr -d ' \n')\" = 89504e470d0a1a0a"
done
check "ten runs (5 variants x 2 seeds)" "test \$(ls '$o'/run-*-s[12].h5 | wc -l) -eq 10"
check "README says it is a quick run" "grep -q 'QUICK RUN' '$o/README.md'"
check "README has no discussion in a quick run" "! grep -q '^## Discussion' '$o/README.md'"
mkdir "$out/re"
LADDERS=$out/ladder "$src/experiments/caribbean/report.py" --committed "$o" "$out/re" >/dev/null 2>"$out/err-re" || cat "$out/err-re"
check "report.py --committed remakes README.md from the data without run files" \
  "cmp -s '$o/README.md' '$out/re/README.md' && cmp -s '$o/cross.csv' '$out/re/cross.csv'"
check "README says what the cross table can exclude" "grep -q '^What the data can exclude' '$o/README.md'"
check "README has the cross table" "grep -q '^| \*\*bridgetown\*\* |' '$o/README.md'"
/usr/bin/python3 - "$o" >"$out/py" 2>&1 <<'PY'
import json, math, sys
import pandas as pd
o = sys.argv[1]
W = ["antigua", "speightstown", "bridgetown", "abapa"]
r = pd.read_csv(f"{o}/ratings.csv")
# 5 variants x 2 seeds on their own ladder, 4 x 3 other Warri ladders x 2 seeds
assert len(r) == 10 + 24, len(r)
assert set(zip(r.trained, r.played)) == {(x, y) for x in W for y in W} | {("adjikui", "adjikui")}
assert (r.games == 4 * 3).all(), r.games  # GAMES against each of 3 rungs
assert ((r.elo_lo <= r.elo) & (r.elo <= r.elo_hi)).all()
own = pd.read_csv(f"{o}/own.csv").set_index("variant")
cross = pd.read_csv(f"{o}/cross.csv")
assert len(own) == 5 and len(cross) == 16
for v in W + ["adjikui"]:
    e = r[(r.trained == v) & (r.played == v)].elo
    assert abs(own.loc[v, "mean"] - e.mean()) < 1e-9 and own.loc[v, "seeds"] == 2
for c in cross.itertuples():
    e = r[(r.trained == c.trained) & (r.played == c.played)].elo
    h = r[(r.trained == c.played) & (r.played == c.played)].elo
    assert abs(c.mean - e.mean()) < 1e-9
    assert abs(c.minus_home - (e.mean() - h.mean())) < 1e-9
ch = pd.read_csv(f"{o}/champions.csv")
assert len(ch) == 10
for row in ch.itertuples():
    d = row._asdict()
    w = {k[2:]: v for k, v in d.items() if k.startswith("w_") and not pd.isna(v)}
    n = {k[2:]: v for k, v in d.items() if k.startswith("n_") and not pd.isna(v)}
    assert len(w) == (8 if row.variant == "adjikui" else 9), (row.variant, w)
    m = max(abs(x) for x in w.values())
    assert all(abs(n[k] - w[k] / m) < 1e-12 for k in w)
    assert abs(max(abs(x) for x in n.values()) - 1) < 1e-12
wt = pd.read_csv(f"{o}/weights.csv")
assert len(wt) == 4 * 9 + 8
j = json.load(open(f"{o}/results.json"))
assert j["quick"] and j["seeds"] == 2 and len(j["ratings"]) == 34
comp = pd.read_csv(f"{o}/compute.csv")
assert list(comp.phase) == [f"evolve-{v}" for v in W + ["adjikui"]] + ["rate-own", "rate-cross"]
assert (comp.cpu_s >= 0).all() and comp.cpu_s_total.iloc[-1] > 0
print("tables consistent")
PY
check "tables have the right shape and agree with each other ($(tail -1 "$out/py"))" \
  "grep -q '^tables consistent' '$out/py'"
# Bad input: an unknown argument is exit 2 and writes nothing.
NICKAR=$nickar OUT=$out/bad "$src/experiments/caribbean/run.sh" --bogus >/dev/null 2>&1
rc=$?
check "unknown argument: exit 2, nothing written" "test $rc -eq 2 && test ! -e '$out/bad'"
exit $fail
