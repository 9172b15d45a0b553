#!/usr/bin/env bash
# test_cli_sprt.sh -- `nickar match --sprt`: the decision and the games used
# are the same for 1, 2 and 3 threads; for each model (gsprt, the default,
# and normal) the test stops at the first pair whose LLR crosses a bound,
# checked against an independent computation (python, from the records of
# a plain match with the same seed, whose pairs are the same games); the
# text and JSON fields (the model named in both); the --games cap; bad
# specs (exit 2, one line), among them hex floats and spaces in numbers.
# Usage: test_cli_sprt.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

# random against random between -10 and +10 Elo takes hundreds of pairs,
# so the decision falls in a later part than the first (64 pairs a part).
sprt="elo0=-10,elo1=10,alpha=0.05,beta=0.1"
for fmt in --json ""; do
  run match --variant antigua --seed 3 --threads 1 --sprt "$sprt" $fmt random random
  one=$out
  run match --variant antigua --seed 3 --threads 2 --sprt "$sprt" $fmt random random
  two=$out
  run match --variant antigua --seed 3 --threads 3 --sprt "$sprt" $fmt random random
  check "sprt: threads 1, 2, 3 agree ($fmt)" test -n "$one" -a "$one" = "$two" -a "$one" = "$out"
done

# Each model: the JSON fields; and the same pairs played as a plain match
# (the cap's worth of games) with their records: the LLR recomputed pair by
# pair in python first crosses a bound at the pair where --sprt stopped,
# with the same LLR (the exact GSPRT by tests/test_sprt_reference.py's
# independent recomputation, the normal approximation by its formula).
for model in gsprt normal; do
  expect_ok match --variant antigua --seed 3 --threads 2 --sprt "$sprt,model=$model" --json random random
  cp "$tmp/out" "$tmp/sprt.json"
  json '
o = objs[0]; t = o["sprt"]
assert t["model"] == "'$model'", t
assert t["decision"] in ("H0", "H1"), t
assert abs(t["lower"] - __import__("math").log(0.1 / 0.95)) < 1e-6
assert abs(t["upper"] - __import__("math").log(0.9 / 0.05)) < 1e-6
assert t["elo0"] == -10 and t["elo1"] == 10 and t["alpha"] == 0.05 and t["beta"] == 0.1
assert (t["llr"] >= t["upper"]) == (t["decision"] == "H1")
assert (t["llr"] <= t["lower"]) == (t["decision"] == "H0")
assert o["games"] > 128 and o["games"] % 2 == 0 and o["games"] == 2 * sum(o["pentanomial"])
'
  games=$("$python" -c 'import json; print(json.load(open("'"$tmp/sprt.json"'"))["games"])')
  [[ $model == gsprt ]] && gsprt_games=$games
  expect_ok match --variant antigua --seed 3 --threads 2 --games $((games + 40)) \
    --records "$tmp/plain.txt" random random
  "$python" - "$tmp/sprt.json" "$tmp/plain.txt" "$srcdir/tests" "$model" <<'PY' && pass || fail "sprt: first crossing ($model)"
import json, sys
sys.path.insert(0, sys.argv[3])
from test_sprt_reference import gsprt
o = json.load(open(sys.argv[1])); t = o["sprt"]; model = sys.argv[4]
lines = [l.split() for l in open(sys.argv[2]) if l.startswith("game ")]
def pts(fields, a_side):
    r = dict(f.split("=", 1) for f in fields[1:8] if "=" in f)["result"]
    return 1.0 if r == a_side else 0.5 if r == "draw" else 0.0
def score(elo):
    return 1 / (1 + 10 ** (-elo / 400))
s0, s1 = score(t["elo0"]), score(t["elo1"])
lo, hi = t["lower"], t["upper"]
pairs = []
for i in range(0, len(lines), 2):   # game 2i: A South; 2i+1: A North
    pairs.append((pts(lines[i], "S") + pts(lines[i + 1], "N")) / 2)
for n in range(1, len(pairs) + 1):
    x = pairs[:n]; m = sum(x) / n
    if model == "gsprt":
        llr = gsprt(t["elo0"], t["elo1"], [sum(1 for v in x if v == k / 4) for k in range(5)])
    else:
        var = sum((v - m) ** 2 for v in x) / n
        if var == 0:
            # all pairs alike: the trinomial fallback of arena.h; only at
            # the start, and its LLR does not cross here
            continue
        llr = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)
    if llr >= hi or llr <= lo:
        assert 2 * n == o["games"], (n, o["games"])
        assert abs(llr - t["llr"]) < 1e-5, (llr, t["llr"])
        assert (llr >= hi) == (t["decision"] == "H1")
        break
else:
    raise AssertionError("no crossing")
PY
done

# The model is said in the text too; the default is gsprt.
expect_ok match --variant antigua --seed 3 --sprt "$sprt" --json random random
json 'assert objs[0]["sprt"]["model"] == "gsprt"'
expect_ok match --variant antigua --seed 3 --sprt "$sprt,model=normal" random random
check "text: the normal model" grep -q '^SPRT: .* (model normal: the normal approximation of the GSPRT on the pairs, logistic Elo)$' <<<"$out"

# ===== text =====
expect_ok match --variant antigua --seed 3 --sprt "$sprt" random random
check "text: SPRT line" grep -q '^SPRT: H0 elo = -10 against H1 elo = 10, alpha 0.05, beta 0.1 (model gsprt: the exact GSPRT on the pairs, logistic Elo)$' <<<"$out"
check "text: LLR and bounds" grep -q '^LLR -\?[0-9.]*, bounds \[-2.251, 2.890\]' <<<"$out"
check "text: decision" grep -q "^decision: H[01] (elo = -\?10) after $gsprt_games games" <<<"$out"

# ===== the cap: undecided =====
expect_ok match --variant antigua --games 10 --sprt elo0=0,elo1=5 --json random random
json 'o = objs[0]; assert o["games"] == 10 and o["sprt"]["decision"] == "undecided"
assert o["sprt"]["lower"] < o["sprt"]["llr"] < o["sprt"]["upper"]'
expect_ok match --variant antigua --games 10 --sprt elo0=0,elo1=5 random random
check "text: undecided at the cap" grep -q "^decision: undecided after 10 games (the --games cap of 10)" <<<"$out"

# A clear difference is decided quickly: H1 for the stronger A, H0 for
# the weaker.
expect_ok match --variant antigua --sprt elo0=0,elo1=50 --json ab:depth=3 random
json 'assert objs[0]["sprt"]["decision"] == "H1" and objs[0]["games"] < 20000'
expect_ok match --variant antigua --sprt elo0=0,elo1=50 --json random ab:depth=3
json 'assert objs[0]["sprt"]["decision"] == "H0"'

# ===== bad specs =====
expect_error match "--sprt: " match --variant antigua --sprt elo0=5 random random
expect_error match "lacks elo1" match --variant antigua --sprt elo0=5 random random
expect_error match "elo0 (5) must be below elo1 (0)" match --variant antigua --sprt elo0=5,elo1=0 random random
expect_error match "alpha (0.7) must be a number in (0, 0.5)" match --variant antigua \
  --sprt elo0=0,elo1=5,alpha=0.7 random random
expect_error match "'gamma=2' in" match --variant antigua --sprt elo0=0,elo1=5,gamma=2 random random
expect_error match "beta: 'x' is not a finite decimal number" match --variant antigua \
  --sprt elo0=0,elo1=5,beta=x random random
expect_error match "elo1 is given twice" match --variant antigua --sprt elo0=0,elo1=5,elo1=6 random random
# the parameter tables' strict number reader: no hex floats, no spaces (issue 27, finding 6)
expect_error match "elo0: '0x1p3' is not a finite decimal number" match --variant antigua \
  --sprt elo0=0x1p3,elo1=20 random random
expect_error match "elo0: ' 5' is not a finite decimal number" match --variant antigua \
  --sprt "elo0= 5,elo1=20" random random
expect_error match "model: 'exact' is not gsprt or normal" match --variant antigua \
  --sprt elo0=0,elo1=5,model=exact random random
# an expected score of 1 in doubles has no exact GSPRT (the normal model takes it)
expect_error match "too far from 0 for the GSPRT" match --variant antigua \
  --sprt elo0=0,elo1=20000 random random
expect_error match "option '--sprt' needs a value" match --variant antigua --sprt
expect_error match "--sprt: " match --variant antigua --sprt "" random random
# nothing written with a bad spec
expect_error match "lacks elo1" match --variant antigua --records "$tmp/none.txt" --sprt elo0=1 random random
check "bad spec: no records file" test ! -e "$tmp/none.txt"

finish
