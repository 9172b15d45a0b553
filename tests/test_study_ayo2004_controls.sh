# test_study_ayo2004_controls.sh -- experiments/ayo2004/controls.sh --quick
# (a tiny budget, seconds) writes every output of the ayo2004 study's
# controls and learning curves (issue 24, items 13 and 14) with the shape
# and content that controls.section() needs, and the section reads them
# back; its parts run alone replace only their own lines; bad input is
# refused with a line naming it; a committed champion's weights file plays
# its committed match again game for game.  Outputs go to a temporary
# directory, never results/.
#
#   bash tests/test_study_ayo2004_controls.sh NICKAR_BINARY SOURCE_ROOT
set -u
nickar=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd) || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
run=$src/experiments/ayo2004/controls.sh
a=$out/a

NICKAR=$nickar OUT=$a "$run" --quick >/dev/null 2>"$out/err" \
  || { cat "$out/err"; echo "FAIL: controls.sh --quick"; exit 1; }
for f in controls-matches.jsonl controls-ratings.jsonl curves-ratings.jsonl controls-times.tsv \
         curves.csv controls.csv controls.json curves.png; do
  check "$f written" "test -s '$a/$f'"
done
check "weights files of the committed champions and the GA's dk2002 ones" \
  "test \$(ls '$a'/controls-weights/*.txt | wc -l) -eq 6"
check "six run files (2 seeds x ayo12 d1, ayo12 d2, dk2002 by the GA d1)" \
  "test \$(ls '$a'/run-*.h5 | wc -l) -eq 6"

/usr/bin/python3 - "$a" "$src" <<'PY' && echo "ok: tables consistent, section written" || { echo "FAIL: tables or section"; fail=1; }
import csv, json, math, os, sys
a, src = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(src, "experiments", "ayo2004"))
import controls
m = list(csv.DictReader(open(f"{a}/controls.csv")))
parts = [(x["part"], x["seed"]) for x in m]
# 2 seeds x (2 checks + depth 3 against depth 7 + the GA pair + the ES pair)
assert sorted(parts) == sorted((p, s) for p in ("check-ayo12-d3", "check-dk2002-d7", "d3-vs-d7", "ga-d3",
                                                "es-d3") for s in ("1", "2")), parts
for x in m:
    w, d, l = int(x["wins"]), int(x["draws"]), int(x["losses"])
    pent = [int(x[f"pairs_{k}"]) for k in range(5)]
    assert w + d + l == int(x["games"]) == 4 and sum(pent) == int(x["pairs"]) == 2, x
    s = float(x["score"])
    assert abs(s - (w + d / 2) / 4) < 1e-12, x      # the pairs' mean is the games' mean
    assert float(x["score_lo"]) <= s <= float(x["score_hi"]), x
    assert x["committed_same"] == "", x            # depth 1 and 2: no committed match
ga = [x for x in m if x["part"] == "ga-d3"]
assert all("features=ayo12" in x["a"] and "run-dk2002ga-d3-s" in x["b"] for x in ga), ga
c = list(csv.DictReader(open(f"{a}/curves.csv")))
# 2 depths x 2 seeds x generations 1, 2, 4 (EVERY 2 of 4)
assert sorted((x["depth"], x["seed"], x["generation"]) for x in c) == sorted(
    (d, s, g) for d in ("1", "2") for s in ("1", "2") for g in ("1", "2", "4")), c
for x in c:
    assert float(x["elo_lo"]) < float(x["elo"]) < float(x["elo_hi"]), x
    assert int(x["games"]) == 32 and int(x["bench_games"]) == 6, x
    assert len(x["weights"].split()) == 12 and x["champion_id"], x
    assert 0 <= float(x["bench_greedy"]) <= 1, x
r = json.load(open(f"{a}/controls.json"))
assert r["quick"] and r["seeds"] == 2 and r["generations"] == 4 and r["every"] == 2, r
assert sorted((x["features"], x["seed"]) for x in r["ratings"]) == [
    ("ayo12", 1), ("ayo12", 2), ("dk2002", 1), ("dk2002", 2), ("dk2002-es", 1), ("dk2002-es", 2)], r["ratings"]
es = [x for x in m if x["part"] == "es-d3"]
assert all("features=dk2002,tt=1,weights=" in x["b"] and "dk2002-d7-s" in x["b"]
           and x["b"].startswith("ab:depth=1,") for x in es), es
assert set(r["champions"]) == {"dk2002 ga d1 s1", "dk2002 ga d1 s2"}
for k, ch in r["champions"].items():
    assert list(ch["weights"]) == ["opp_cap2", "opp_cap3", "own_cap2", "own_cap3",
                                   "opp_store", "own_store"], ch
    assert all(0 <= v <= 1 for v in ch["weights"].values()), ch
    got = [float(v.split("#")[0]) for v in open(f"{a}/controls-weights/dk2002ga-d3-s{k[-1]}.txt")]
    assert got == list(ch["weights"].values()), (got, ch)
assert len(r["regenerated"]) == 4 and all(x["weights_same"] is None for x in r["regenerated"])
assert r["compute"]["cpu_s"] > 0 and "evolve ayo12-d5" in r["compute"]["parts"], r["compute"]
text = controls.section(a)
assert text.startswith("### Controls"), text[:80]
assert "QUICK RUN" in text and "\n### Learning curves\n" in text and "![curves](curves.png)" in text
assert not any(l.startswith("## ") for l in text.splitlines()), "headings below the README's ##"
assert "| all | | | " in text and "| mean (t over seeds) |" in text, text
assert text.count("| all | | | ") == 3 and "For scale, a third arm" in text, text
rows = [l for l in text.splitlines() if l.startswith("| 4 | ")]
assert len(rows) == 2, rows                        # generation 4 at each depth
assert controls.section(os.path.join(a, "controls-weights")) is None
# pair_score: Wilson's interval with the pairs' effective number of games;
# a sweep gets the interval of 20 wins in 20 (20 / (20 + z^2) below), not
# none; alike pairs fall back on the games' variance
z2 = 1.959963984540054 ** 2
s, lo, hi = controls.pair_score(20, 0, 0, [0, 0, 0, 0, 10])
assert s == 1 and hi == 1 and abs(lo - 20 / (20 + z2)) < 1e-12, (s, lo, hi)
s, lo, hi = controls.pair_score(10, 0, 10, [0, 0, 10, 0, 0])
assert s == 0.5 and abs(hi - 0.5 - 1.959963984540054 * 0.5 / math.sqrt(20 + z2)) < 1e-12, (s, lo, hi)
s, lo, hi = controls.pair_score(2, 4, 2, [0, 2, 0, 2, 0])   # pairs of 1/4 and 3/4: n_eff 16
assert s == 0.5 and abs(hi - 0.5 - 1.959963984540054 * 0.5 / math.sqrt(16 + z2)) < 1e-12, (s, lo, hi)
PY

# Parts and seeds alone: PARTS=b SEED_LIST=2 replaces the b lines of seed 2
# only; the others stay.
cp "$a/controls-matches.jsonl" "$out/m0"
NICKAR=$nickar OUT=$a PARTS=b SEED_LIST=2 "$run" --quick --continue >/dev/null 2>"$out/err2"
check "PARTS=b SEED_LIST=2: exit 0" "test $? -eq 0"
check "PARTS=b SEED_LIST=2: the lines of the other parts and seeds stay, in order" \
  "grep -Ev '^\\{\"part\":\"(check-[a-z0-9-]*|d3-vs-d7)\",\"seed\":2,' '$out/m0' >'$out/m1' &&
   test \$(wc -l <'$out/m1') -eq 7 && head -n 7 '$a/controls-matches.jsonl' | cmp -s - '$out/m1' &&
   test \$(wc -l <'$a/curves-ratings.jsonl') -eq 12"
check "PARTS=b SEED_LIST=2: its three lines played again, the same" \
  "tail -n 3 '$a/controls-matches.jsonl' | sort >'$out/m2' &&
   grep '^{\"part\":\"\(check-[a-z0-9-]*\|d3-vs-d7\)\",\"seed\":2,' '$out/m0' | sort | cmp -s - '$out/m2'"
check "PARTS=b SEED_LIST=2: the times of the rest stay, seed 2's matches once" \
  "test \$(grep -c '^evolve' '$a/controls-times.tsv') -eq 6 &&
   test \$(grep -c '^match check-ayo12-d3 s1' '$a/controls-times.tsv') -eq 1 &&
   test \$(grep -c '^match check-ayo12-d3 s2' '$a/controls-times.tsv') -eq 1"
NICKAR=$nickar OUT=$out/c SEED_LIST="1 x" "$run" --quick >/dev/null 2>"$out/err5"
check "a bad SEED_LIST is exit 2, named" \
  "test $? -eq 2 && grep -q \"SEED_LIST: 'x' is not a seed\" '$out/err5'"

NICKAR=$nickar OUT=$out/c PARTS="b x" "$run" --quick >/dev/null 2>"$out/err3"
check "an unknown part is exit 2, named" \
  "test $? -eq 2 && grep -q \"PARTS: unknown part 'x'\" '$out/err3'"
NICKAR=$nickar OUT=$out/c DK_RESULTS=$out/none.json "$run" --quick >/dev/null 2>"$out/err4"
check "a missing results.json is exit 2, named" \
  "test $? -eq 2 && grep -q 'cannot read $out/none.json' '$out/err4'"
echo '{"champions": {"s1": {"weights": {"own_store": 1}}}}' >"$out/bad.json"
NICKAR=$nickar OUT=$out/c DK_RESULTS=$out/bad.json "$run" --quick >/dev/null 2>"$out/err6"
check "a results.json without a seed's champion is exit 2, one line naming it" \
  "test $? -eq 2 && test \$(wc -l <'$out/err6') -eq 1 &&
   grep -q \"controls.py: the committed champions (.*$out/bad.json): KeyError 's2'\" '$out/err6'"

# A committed champion from its weights file plays its committed match
# against material again game for game (what the full run's checks do).
/usr/bin/python3 "$src/experiments/ayo2004/controls.py" weights "$src/results/ayo2004/results.json" \
  "$src/results/davis-kendall-2002/results.json" "$out/w" 1
(cd "$src" && "$nickar" match --variant awari --games 200 --seed 1 --json \
  "ab:depth=3,features=ayo12,view=root,weights=$out/w/ayo12-d3-s1.txt" ab:depth=3,features=material) >"$out/m.json"
/usr/bin/python3 - "$out/m.json" "$src" <<'PY' && echo "ok: a committed champion replays its committed match" || { echo "FAIL: replay"; fail=1; }
import json, os, sys
sys.path.insert(0, os.path.join(sys.argv[2], "experiments", "ayo2004"))
import controls
m = json.load(open(sys.argv[1]))
c = controls.committed_match(os.path.join(sys.argv[2], "results", "ayo2004", "matches.jsonl"),
                             "run-ayo12-d3-s1.h5", "ab:depth=3,features=material")
assert c is not None
for k in ("games", "wins", "draws", "losses", "pentanomial", "plies", "reasons"):
    assert c[k] == m[k], (k, c[k], m[k])
PY
exit $fail
