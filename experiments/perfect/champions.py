#!/usr/bin/python3
"""experiments/perfect/champions.py RESULTS WEIGHTS -- the champions of every
study, from the studies' committed data alone (their run files are not
committed): one line a player on stdout,

    STUDY <TAB> LABEL <TAB> VARIANT <TAB> SPEC

with each evolved champion's weights written to WEIGHTS/STUDY/NAME.txt (one
number a line, in the feature set's order, the feature's name as a
comment: the same weights as the run file's individual, since Python's
repr of a double reads back exactly) and SPEC naming that file.  The spec
is the one the study rates (its depth, features, tt and view keys), with
the run file's individual replaced by the file:

- ayo2004: the ayo12 champions at depth 3 and 5 (runs.json), the published
  weights (Table 1 at depth 3, Table 4 at depth 5) under each reading, and
  the controls' dk2002 GA champions at depth 3
  (controls-weights/dk2002ga-d3-s*.txt), as the study's tables label them;
- davis-kendall-2002: the dk2002 champions at depth 7 (runs.json);
- caribbean: each variant's champions (champions.csv, the raw w_ columns);
- strategies: the final champion of every strategy and seed (runs.csv);
- representation: each arm's champion (champions.json: the final player
  of the arm's best seed, its weights committed beside it), at its
  training depth;
- reference: for scale, `material` and the variant's hand-weighted set at
  each depth and variant a study's champions play (not champions).

The lines come in a fixed order, so a run grades them in that order."""
import csv
import json
import os
import sys

ORDER = {  # feature names of each set in the set's order (src/search/features.c)
    "positional": ["store_diff", "board_diff", "own_empty", "opp_empty", "own_weak", "opp_weak",
                   "own_kroo", "opp_kroo", "mobility"],
    "adjikui": ["store_diff", "board_diff", "own_singles", "opp_singles", "own_mobility",
                "opp_mobility", "own_threats", "opp_threats"],
    "dk2002": ["opp_cap2", "opp_cap3", "own_cap2", "own_cap3", "opp_store", "own_store"],
    "ayo12": [f"a{k}" for k in range(1, 13)],
}
HAND = {"adjikui": "adjikui"}  # the hand-weighted set of a variant (else positional)


def write_weights(root, study, name, features, weights):
    """weights {feature: value} in the order of features to
    ROOT/STUDY/NAME.txt; returns the path."""
    if sorted(weights) != sorted(features):
        sys.exit(f"champions.py: {study} {name}: weights {sorted(weights)} are not the set's "
                 f"{features}")
    d = os.path.join(root, study)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name + ".txt")
    with open(path, "w") as f:
        for k in features:
            f.write(f"{float(weights[k])!r}  # {k}\n")
    return path


def csv_champions(results, study, name):
    """The depth of STUDY's runs.json and each row of its table NAME with
    the row's weights {feature: value} (its non-empty w_ columns)."""
    with open(os.path.join(results, study, "runs.json")) as f:
        depth = json.load(f)["settings"]["depth"]
    with open(os.path.join(results, study, name)) as f:
        rows = [(r, {c[2:]: x for c, x in r.items() if c.startswith("w_") and x != ""})
                for r in csv.DictReader(f)]
    return depth, rows


def champions(results, root):
    """[(study, label, variant, spec)] in the fixed order."""
    out = []

    with open(os.path.join(results, "ayo2004", "runs.json")) as f:
        ayo = json.load(f)
    s = ayo["settings"]
    for seed in range(1, s["seeds"] + 1):
        for d in (s["d3"], s["d5"]):
            lab = f"ayo12 d{d} s{seed}"
            w = write_weights(root, "ayo2004", f"ayo12-d{d}-s{seed}", ORDER["ayo12"],
                              ayo["champions"][lab]["weights"])
            out.append(("ayo2004", lab, "awari", f"ab:depth={d},features=ayo12,view=root,weights={w}"))
    for feats in ("ayo12", "ayo12-literal", "ayo12-negated"):
        for t, d in ((1, s["d3"]), (4, s["d5"])):
            out.append(("ayo2004", f"Table {t} {feats} d{d}", "awari",
                        f"ab:depth={d},features={feats},view=root,weights=ayo2004-d{3 if t == 1 else 5}"))
    cw = os.path.join(results, "ayo2004", "controls-weights")
    for seed in range(1, s["seeds"] + 1):
        p = os.path.join(cw, f"dk2002ga-d{s['d3']}-s{seed}.txt")
        if os.path.exists(p):
            out.append(("ayo2004", f"dk2002ga d{s['d3']} s{seed}", "awari",
                        f"ab:depth={s['d3']},features=dk2002,view=root,weights={os.path.relpath(p)}"))

    with open(os.path.join(results, "davis-kendall-2002", "runs.json")) as f:
        dk = json.load(f)
    d = dk["settings"]["depth"]
    for seed in range(1, dk["settings"]["seeds"] + 1):
        w = write_weights(root, "davis-kendall-2002", f"dk2002-d{d}-s{seed}", ORDER["dk2002"],
                          dk["champions"][f"s{seed}"]["weights"])
        out.append(("davis-kendall-2002", f"dk2002 d{d} s{seed}", "awari",
                    f"ab:depth={d},features=dk2002,tt=1,weights={w}"))

    cd, rows = csv_champions(results, "caribbean", "champions.csv")
    for r, w in rows:
        v, seed = r["variant"], r["seed"]
        feats = HAND.get(v, "positional")
        w = write_weights(root, "caribbean", f"{v}-s{seed}", ORDER[feats], w)
        out.append(("caribbean", f"{v} s{seed}", v, f"ab:depth={cd},features={feats},tt=0,weights={w}"))

    sd, rows = csv_champions(results, "strategies", "runs.csv")
    for r, w in rows:
        k, seed = r["strategy"], r["seed"]
        w = write_weights(root, "strategies", f"{k}-s{seed}", ORDER["positional"], w)
        out.append(("strategies", f"{k} s{seed}", "abapa", f"ab:depth={sd},features=positional,weights={w}"))

    path = os.path.join(results, "representation", "champions.json")
    if os.path.exists(path):
        with open(path) as f:
            rep = json.load(f)
        for c in rep["champions"]:
            if not os.path.exists(c["weights_file"]):
                sys.exit(f"champions.py: representation {c['arm']}: no weights file "
                         f"{c['weights_file']}")
            out.append(("representation", f"{c['arm']} s{c['seed']}", "abapa", c["spec"]))

    seen = []
    for _study, _lab, v, spec in out:
        d = int(spec.split("depth=")[1].split(",")[0])
        if (v, d) not in seen:
            seen.append((v, d))
    for v, d in seen:
        for feats in ("material", HAND.get(v, "positional")):
            out.append(("reference", f"{v} {feats}-d{d}", v, f"ab:depth={d},features={feats}"))
    return out


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: champions.py RESULTS WEIGHTS")
    for row in champions(argv[1], argv[2]):
        print("\t".join(str(x) for x in row))


if __name__ == "__main__":
    main(sys.argv)
