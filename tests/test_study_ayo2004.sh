# test_study_ayo2004.sh -- experiments/ayo2004/run.sh --quick (a tiny
# budget, seconds) writes every output of the study with the shape and
# content the README's tables need, so that the script never rots: once
# evolving its own dk2002 champions, once reading them from a
# davis-kendall-2002 --quick directory (DK_DIR).  The outputs go to a
# temporary directory, never results/.
#
#   bash tests/test_study_ayo2004.sh NICKAR_BINARY SOURCE_ROOT
set -u
nickar=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd) || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
run=$src/experiments/ayo2004/run.sh

NICKAR=$nickar OUT=$out/a "$run" --quick >/dev/null 2>"$out/err" \
  || { cat "$out/err"; echo "FAIL: run.sh --quick"; exit 1; }
a=$out/a
for f in README.md matches.csv ratings.csv summary.csv results.json fitness.png weights.png elo.png; do
  check "$f written" "test -s '$a/$f'"
done
check "six runs (2 seeds x ayo12 d1, ayo12 d2, dk2002 d2)" "test \$(ls '$a'/run-*.h5 | wc -l) -eq 6"
check "README says it is a quick run" "grep -q 'QUICK RUN' '$a/README.md'"
check "README's protocol table: the paper's 100 generations beside ours" \
  "grep -q '^| generations | 100 | \*\*2\*\* at depth 1, \*\*2\*\* at depth 2 |' '$a/README.md'"
check "README has no section left to fill" "! grep -q 'TO BE FILLED' '$a/README.md'"
check "README sets the paper's Tables 2, 3 and 5 beside ours (Table 3: Davis & Kendall, Table 5: Ayo at depth 5)" \
  "grep -q '^| ayo12 d1 (Table 2) | 100:0:0 / 50:50:0 / 40:30:30 / 0:0:100 | [0-9.-]* \[' '$a/README.md' &&
   grep -q '^| ayo12 d2 (Table 5) | 100:0:0 / 100:0:0 / 70:10:20 / 0:0:100 |' '$a/README.md' &&
   grep -q '^| dk2002 d2 (Table 3) | 100:0:0 / 100:0:0 / 60:20:20 / 0:0:100 |' '$a/README.md'"
check "README names the paper's four self-contradictions" \
  "test \$(sed -n '/^## Where the paper contradicts itself/,/^## Results/p' '$a/README.md' | grep -c '^| [A-Za-z]') -eq 5"
check "README lists the five differences of the two arms besides the depth" \
  "grep -q '^5\. the leaf view' '$a/README.md'"
mkdir "$out/re"
"$src/experiments/ayo2004/report.py" --committed "$a" "$out/re" 2>"$out/err-re" || cat "$out/err-re"
check "report.py --committed remakes README.md from the data without run files" \
  "cmp -s '$a/README.md' '$out/re/README.md' && cmp -s '$a/summary.csv' '$out/re/summary.csv'"
/usr/bin/python3 - "$a" own <<'PY' && echo "ok: tables consistent (own dk2002)" || { echo "FAIL: tables (own dk2002)"; fail=1; }
import csv, json, sys
a = sys.argv[1]
r = json.load(open(f"{a}/results.json"))
assert r["quick"] and r["seeds"] == 2
m = list(csv.DictReader(open(f"{a}/matches.csv")))
# 2 depths x (2 seeds x 2 opponents + 3 readings x 2 tables x 2 opponents),
# the 2 dk2002 champions x 2 opponents, 2 head-to-head matches.
assert len(m) == 38 and len(r["matches"]) == 38, len(m)
for x in m:
    w, d, l = int(x["wins"]), int(x["draws"]), int(x["losses"])
    assert w + d + l == int(x["games"]) == 4, x
    assert float(x["score_lo"]) <= (w + d / 2) / 4 <= float(x["score_hi"]), x
h2h = [x for x in m if x["a_label"].startswith("ayo12 d2 s") and x["b_label"].startswith("dk2002 d2 s")]
assert [(x["a_label"], x["b_label"]) for x in h2h] == [("ayo12 d2 s1", "dk2002 d2 s1"),
                                                      ("ayo12 d2 s2", "dk2002 d2 s2")], h2h
rt = list(csv.DictReader(open(f"{a}/ratings.csv")))
labels = [x["label"] for x in rt]
assert len(rt) == 12, labels   # 2 seeds x 3 champions + 2 tables x 3 readings
for want in ("ayo12 d1 s1", "ayo12 d2 s2", "dk2002 d2 s1", "Table 1 ayo12 d1",
             "Table 4 ayo12-literal d2", "Table 1 ayo12-negated d1"):
    assert want in labels, (want, labels)
for x in rt:
    assert float(x["elo_lo"]) < float(x["elo"]) < float(x["elo_hi"]), x
    assert int(x["games"]) == 32, x
s = list(csv.DictReader(open(f"{a}/summary.csv")))
assert len(s) == 10, s         # 3 players x 3 measures + the head-to-head
for x in s:
    assert int(x["seeds"]) == 2, x
    assert float(x["lo"]) <= float(x["mean"]) <= float(x["hi"]), x
assert set(r["champions"]) == {"ayo12 d1 s1", "ayo12 d1 s2", "ayo12 d2 s1", "ayo12 d2 s2",
                               "dk2002 d2 s1", "dk2002 d2 s2"}
for k, c in r["champions"].items():
    if k.startswith("ayo12"):
        assert list(c["weights"]) == [f"a{i}" for i in range(1, 13)], c
        assert all(0 <= v <= 1 for v in c["weights"].values()), c
assert r["published"]["d3"][10] == 1.00 and r["published"]["d5"][0] == 0.80
wv = list(csv.DictReader(open(f"{a}/weights_vs_published.csv")))
assert [(x["depth"], x["table"], x["seed"]) for x in wv] == \
    [("1", "1", "1"), ("1", "1", "2"), ("2", "4", "1"), ("2", "4", "2")], wv
for x in wv:
    w = r["champions"][f"ayo12 d{x['depth']} s{x['seed']}"]["weights"]
    pub = r["published"]["d3" if x["table"] == "1" else "d5"]
    mad = sum(abs(v - p) for v, p in zip(w.values(), pub)) / 12
    assert abs(float(x["mean_abs_diff"]) - mad) < 1e-9, (x, mad)
    assert -1 <= float(x["pearson_r"]) <= 1, x
PY

# DK_DIR: the davis-kendall-2002 study's champions, nothing evolved twice.
NICKAR=$nickar OUT=$out/b DK_DIR=$out/none "$run" --quick >/dev/null 2>"$out/err2"
check "DK_DIR without run files is exit 2, named" \
  "test $? -eq 2 && grep -q 'DK_DIR: no run file $out/none/run-dk2002-d2-s1.h5' '$out/err2'"
NICKAR=$nickar OUT=$out/dk "$src/experiments/davis-kendall-2002/run.sh" --quick >/dev/null 2>"$out/err3" \
  || { cat "$out/err3"; echo "FAIL: davis-kendall-2002 run.sh --quick"; exit 1; }
NICKAR=$nickar OUT=$out/b DK_DIR=$out/dk "$run" --quick >/dev/null 2>"$out/err4" \
  || { cat "$out/err4"; echo "FAIL: run.sh --quick with DK_DIR"; exit 1; }
check "with DK_DIR only the ayo12 runs are evolved" \
  "test \$(ls '$out/b'/run-*.h5 | wc -l) -eq 4 && ! ls '$out/b'/run-dk2002-* >/dev/null 2>&1"
/usr/bin/python3 - "$out/b" "$out/dk" <<'PY' && echo "ok: DK_DIR's champions, ratings and matches used" || { echo "FAIL: DK_DIR tables"; fail=1; }
import csv, json, sys
b, dk = sys.argv[1], sys.argv[2]
rt = {x["label"]: x for x in csv.DictReader(open(f"{b}/ratings.csv"))}
dkr = {x["seed"]: x for x in csv.DictReader(open(f"{dk}/ratings.csv"))}
for s in ("1", "2"):
    assert abs(float(rt[f"dk2002 d2 s{s}"]["elo"]) - float(dkr[s]["elo"])) < 1e-6
m = list(csv.DictReader(open(f"{b}/matches.csv")))
assert len(m) == 38, len(m)
h2h = [x for x in m if x["b_label"].startswith("dk2002")]
assert len(h2h) == 2 and all(f"{dk}/run-dk2002-d2-s" in x["b"] for x in h2h), h2h
r = json.load(open(f"{b}/results.json"))
assert r["dk2002_runs_from"] == dk
PY
exit $fail
