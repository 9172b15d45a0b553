#!/usr/bin/env bash
# test_cli_ciao.sh -- `nickar ciao`: the master tournament of a run's
# champions.  On a small real run: the JSON's shape and sense (sampled
# generations, an antisymmetric score matrix, CIAO and master scores as the
# means of its rows, a Nash mix), the analysis file's layout against the
# JSON, the same numbers for any --threads, the run file left untouched,
# and bad input (exit 2, one line, nothing overwritten).  The order of a
# sequence of known strength is checked in tests/test_arena_ciao.c.
# Usage: test_cli_ciao.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

# A small run: 6 generations of depth-1 Abapa players.
tiny_config "$tmp/tiny.ini" 6 random
"$nickar" evolve "$tmp/tiny.ini" --output "$tmp/run.h5" --quiet >/dev/null 2>&1
check "a small run to analyse" test -s "$tmp/run.h5"
sum_before=$(md5sum <"$tmp/run.h5")

# ===== the JSON and the analysis file =====
expect_ok ciao "$tmp/run.h5" --every 2 --games 6 --seed 5 --json
json '
import math
o = objs[0]
n = 3
assert o["generations"] == [2, 4, 6], o["generations"]
assert o["every"] == 2 and o["games"] == 6 and o["seed"] == 5 and o["openings"] == 2
assert o["variant"] == "abapa" and o["player"].startswith("ab:depth=1,features=positional")
s = o["score"]
assert len(s) == n and all(len(r) == n for r in s)
for i in range(n):
    assert s[i][i] == 0.5
    for j in range(n):
        assert abs(s[i][j] + s[j][i] - 1) < 1e-9
        assert abs(round(s[i][j] * 12) - s[i][j] * 12) < 1e-4   # half points of 6 games
assert o["ciao"][0] is None
for i in range(1, n):
    assert abs(o["ciao"][i] - sum(s[i][:i]) / i) < 1e-6
for i in range(n):
    assert abs(o["master"][i] - (sum(s[i]) - 0.5) / (n - 1)) < 1e-6
assert abs(sum(o["nash_mix"]) - 1) < 1e-6 and min(o["nash_mix"]) >= 0
assert max(o["nash_payoff"]) < 1e-6
assert 0 <= o["cyclic_share"] <= 1
assert o["output"].endswith("run.ciao.h5")
'
check "the default output is RUN.ciao.h5" test -s "$tmp/run.ciao.h5"
check "the run file is not altered" test "$(md5sum <"$tmp/run.h5")" = "$sum_before"
if "$python" - "$tmp/run.ciao.h5" "$tmp/out" "$tmp/run.h5" <<'PY'
import json, sys, h5py, numpy as np
o = json.loads(open(sys.argv[2]).read())
with h5py.File(sys.argv[3], "r") as r:
    fit, genome, ids = (r["population/" + k][()] for k in ("fitness", "genome", "id"))
with h5py.File(sys.argv[1], "r") as f:
    # the champion of generation g: highest fitness, first of ties
    for k, g in enumerate((2, 4, 6)):
        b = int(np.argmax(fit[g - 1]))
        assert (f["weights"][k] == genome[g - 1, b]).all(), (g, b)
        assert f["champion_id"][k] == ids[g - 1, b]
    a = f.attrs
    kind = a["kind"]
    assert (kind.decode() if isinstance(kind, bytes) else kind) == "nickar ciao"
    assert int(a["schema_version"]) == 1
    assert int(a["every"]) == 2 and int(a["games"]) == 6 and int(a["pairs"]) == 3
    assert int(a["seed"]) == 5 and int(a["openings"]) == 2
    assert list(f["generations"][()]) == [2, 4, 6]
    assert np.allclose(f["score"][()], o["score"], atol=1e-6)
    w, d, l = f["wins"][()], f["draws"][()], f["losses"][()]
    off = ~np.eye(3, dtype=bool)
    assert ((w + d + l)[off] == 6).all() and (np.diag(w + d + l) == 0).all()
    assert (w == l.T).all()
    assert np.allclose(f["master"][()], o["master"], atol=1e-6)
    assert np.isnan(f["ciao"][0]) and np.allclose(f["ciao"][1:], o["ciao"][1:], atol=1e-6)
    assert np.allclose(f["nash_mix"][()], o["nash_mix"], atol=1e-6)
    assert f["weights"].shape[0] == 3 and f["champion_id"].shape == (3,)
    assert abs(float(a["cyclic_share"]) - o["cyclic_share"]) < 1e-6
PY
then pass; else fail "the analysis file holds what the JSON says"; fi

# ===== the same numbers for any number of threads =====
run ciao "$tmp/run.h5" --every 2 --games 6 --seed 5 --threads 1 --output "$tmp/t.h5" --force
one=$out
run ciao "$tmp/run.h5" --every 2 --games 6 --seed 5 --threads 3 --output "$tmp/t.h5" --force
check "threads 1 and 3 agree" test -n "$one" -a "$one" = "$out"
expect_ok ciao "$tmp/run.h5" --every 2 --games 6 --seed 5 --output "$tmp/t.h5" --force
check "text summary: a row per sampled generation" \
  test "$(grep -cE '^ +[246] ' <<<"$out")" -eq 3
check "text summary: the Nash average" grep -q "cyclic triads" <<<"$out"

# ===== bad input =====
sum_out=$(md5sum <"$tmp/run.ciao.h5")
expect_error ciao "already exists" ciao "$tmp/run.h5" --every 2 --games 6
check "an existing output is not overwritten" test "$(md5sum <"$tmp/run.ciao.h5")" = "$sum_out"
expect_error ciao "no-such.h5" ciao "$tmp/no-such.h5"
expect_error ciao "6 complete generations" ciao "$tmp/run.h5" --every 7 --output "$tmp/x.h5"
expect_error ciao "needs 2" ciao "$tmp/run.h5" --every 4 --output "$tmp/x.h5"
check "no output after bad input" test ! -e "$tmp/x.h5"
expect_error ciao "run file itself" ciao "$tmp/run.h5" --output "$tmp/run.h5" --force
expect_error ciao "--every" ciao "$tmp/run.h5" --every 0
expect_error ciao "needs one run file" ciao
echo "not a run file" >"$tmp/text.h5"
expect_error ciao "text.h5" ciao "$tmp/text.h5" --output "$tmp/x.h5"
check "no output after bad input" test ! -e "$tmp/x.h5"
# An output that cannot be written: a runtime failure (exit 1), one line.
expect_exit 1 ciao "cannot write" ciao "$tmp/run.h5" --every 3 --games 2 --output "$tmp/no/such/dir/x.h5"
check "the run file is still not altered" test "$(md5sum <"$tmp/run.h5")" = "$sum_before"

finish
