#!/usr/bin/env bash
# experiments/ladder/run.sh -- the open reference ladder: fixed reference
# players rated with `nickar tournament` for each variant.
#
#   experiments/ladder/run.sh [--quick] [--from-files] [--out DIR] [VARIANT...]
#
# Players (default weights of each feature set): random, greedy, and the
# alpha-beta searchers `material-dD` (ab:depth=D,features=material) and
# `positional-dD` (features=positional) for D = 1..7; for Adji Kui II, whose
# relay sowing the positional set does not suit, `adjikui-dD`
# (features=adjikui) instead of positional.  A round robin of GAMES games a
# pairing (default 400) from random 2-ply openings, seed 1, anchored at
# random = 0.  Two 95% intervals are given.  Against the anchor: relative
# to random, which loses about 99% of its games and so carries little
# information, they are about +-55 Elo with 400 games a pairing (+-95 with
# 100).  Against the pool (the mean of all ratings held fixed, as BayesElo
# and Ordo report): how well each player is placed among the others, about
# +-15 to +-25 with 400 games (random's own about +-45); neighbours on the
# ladder are told apart as sharply (the LOS column).  Variants: all five
# unless named.
#
# For each variant it writes to DIR (default results/ladder):
#   <variant>.md    the rating list as a table, with the settings and the
#                   depth check
#   <variant>.json  `nickar tournament --json` (players, cross table, ratings)
#   <variant>.tsv   name, spec and rating a line: the ladder `nickar rate`
#                   plays against; then `@anchor NAME ELO` and one
#                   `@wdl A B W D L` a pairing (the cross table), with which
#                   `nickar rate` fits its player jointly
#   <variant>.h5    the tournament file (every game; not committed)
# and, into results/ladder, README.md again (experiments/ladder/readme.py:
# the index and the two anomalies, explained by experiments/ladder/
# anomalies.sh).
# and checks, per family of searchers, that the rating grows with the
# depth: it prints each family's ratings by depth and every step down, and
# exits 1 when there is one (in --quick mode it only reports).
#
# --from-files: play nothing; write the .md, .json and .tsv again from the
# tournament files DIR/<variant>.h5 of an earlier run (nickar inspect
# --json), e.g. after a change in what the lists show.
#
# --quick: depths 1 and 2 and 4 games a pairing, into DIR (default
# $TMPDIR/ladder-quick): a few seconds, for the test suite
# (tests/test_ladder.sh).
#
# Environment: NICKAR (the binary, default build/nickar), GAMES, DEPTHS
# (the largest depth, default 7), THREADS (default: all cores).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/experiments/study-lib.sh"
NICKAR=${NICKAR:-$root/build/nickar}
nickar=$NICKAR
py=/usr/bin/python3
quick=0
from_files=0
out=
variants=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) quick=1 ;;
    --from-files) from_files=1 ;;
    --out) out=$2; shift ;;
    --out=*) out=${1#--out=} ;;
    -h|--help) study_help "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
    *) variants+=("$1") ;;
  esac
  shift
done
study_need_nickar
if [[ $quick -eq 1 ]]; then
  games=${GAMES:-4}; depths=${DEPTHS:-2}; out=${out:-${TMPDIR:-/tmp}/ladder-quick}
else
  games=${GAMES:-400}; depths=${DEPTHS:-7}; out=${out:-$root/results/ladder}
fi
[[ ${#variants[@]} -gt 0 ]] || variants=(antigua speightstown bridgetown adjikui abapa)
threads=()
[[ -n ${THREADS:-} ]] && threads=(--threads "$THREADS")
mkdir -p "$out"

status=0
for v in "${variants[@]}"; do
  players=$out/$v.players
  {
    echo "# the reference ladder of $v (experiments/ladder/run.sh)"
    echo "random = random"
    echo "greedy = greedy"
    families=(material positional)
    [[ $v == adjikui ]] && families=(material adjikui)  # positional does not suit relay sowing
    for f in "${families[@]}"; do
      for ((d = 1; d <= depths; d++)); do
        echo "$f-d$d = ab:depth=$d,features=$f"
      done
    done
  } >"$players"
  if [[ $from_files -eq 1 ]]; then
    echo "== $v: from $out/$v.h5" >&2
    "$nickar" inspect "$out/$v.h5" --json >"$out/$v.json" || { rm -f "$players"; exit 2; }
  else
  echo "== $v: $(grep -vc '^#' "$players") players, $games games a pairing" >&2
  "$nickar" tournament --variant "$v" --players "$players" --games "$games" --openings 2 \
      --seed 1 --anchor random=0 --output "$out/$v.h5" --force --quiet --json \
      "${threads[@]}" >"$out/$v.json"
  fi
  rm -f "$players"
  if ! "$py" - "$out/$v.json" "$out/$v.md" "$out/$v.tsv" "$quick" <<'PY'
import json, re, sys
t = json.load(open(sys.argv[1]))
md, tsv, quick = sys.argv[2], sys.argv[3], sys.argv[4] == "1"
spec = {p["name"]: p["spec"] for p in t["players"]}
rat = t["ratings"]
elo = {r["player"]: r["elo"] for r in rat}
fams = {}
for name in elo:
    m = re.fullmatch(r"(\w+)-d(\d+)", name)
    if m:
        fams.setdefault(m.group(1), []).append((int(m.group(2)), name))
check, bad = [], 0
for fam, members in sorted(fams.items()):
    members.sort()
    steps = [f"d{d} {elo[n]:.0f}" for d, n in members]
    down = [f"d{d2} < d{d1}" for (d1, n1), (d2, n2) in zip(members, members[1:])
            if elo[n2] <= elo[n1]]
    bad += len(down)
    check.append(f"- `{fam}`: " + ", ".join(steps) + (
        f" -- **strength does not grow**: {', '.join(down)}" if down else
        " -- grows with depth"))
games = 2 * t["meetings_done"]
lines = [f"# Reference ladder: {t['variant']}", "",
         f"Round robin of {len(rat)} players, {t['games_per_pairing']} games a pairing "
         f"({games} games), colour-swapped pairs from random {t['openings']}-ply openings, "
         f"seed {t['seed']}; anchored at `{t['anchor']}` = {t['anchor_elo']:g}. "
         "Bradley-Terry/Elo ratings, draws as half a win, maximum likelihood; 95% "
         "intervals from the likelihood's curvature (draw-corrected), against the anchor "
         f"(the rating less `{t['anchor']}`'s) and against the pool (the rating less the "
         f"mean of all {len(rat)}, as BayesElo and Ordo report; how well a player is placed among "
         "the others, without the anchor's own uncertainty)"
         + ("; one virtual draw was added to every pairing (a player won or lost every "
            "game against part of the field)" if t["prior"] else "") + ".", "",
         "Made by `experiments/ladder/run.sh`" + (" --quick" if quick else "") + ".", "",
         "| rank | player | spec | Elo | 95% interval (anchor) | ± (pool) | games | score | LOS over next |",
         "|---:|---|---|---:|---|---:|---:|---:|---:|"]
for r in rat:
    los = "" if r["los_next"] is None else f"{100 * r['los_next']:.1f}%"
    lines.append(f"| {r['rank']} | {r['player']} | `{spec[r['player']]}` | {r['elo']:.1f} | "
                 f"[{r['ci'][0]:.1f}, {r['ci'][1]:.1f}] | "
                 f"{r['ci_pool'][1] - r['elo']:.1f} | {r['games']:.0f} | "
                 f"{r['score']:.3f} | {los} |")
lines += ["", "Strength by depth:", ""] + check
open(md, "w").write("\n".join(lines) + "\n")
with open(tsv, "w") as f:
    f.write(f"# the reference ladder of {t['variant']}: name, spec, Elo (random = 0); "
            "made by experiments/ladder/run.sh, read by nickar rate\n")
    for r in rat:
        f.write(f"{r['player']}\t{spec[r['player']]}\t{r['elo']:.2f}\n")
    f.write("# the ladder's own results (nickar rate fits its player with them): the anchor, "
            "then A's wins, draws and losses against B\n")
    f.write(f"@anchor\t{t['anchor']}\t{t['anchor_elo']:g}\n")
    names = [p["name"] for p in t["players"]]
    c = t["cross"]
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            if c["wins"][i][j] + c["draws"][i][j] + c["losses"][i][j]:
                f.write(f"@wdl\t{names[i]}\t{names[j]}\t{c['wins'][i][j]}\t"
                        f"{c['draws'][i][j]}\t{c['losses'][i][j]}\n")
print("\n".join(check), file=sys.stderr)
sys.exit(1 if bad and not quick else 0)
PY
  then
    status=1
  fi
done
# results/ladder/README.md: the index and the anomalies (experiments/ladder/readme.py)
if [[ $quick -eq 0 && $out -ef $root/results/ladder && -f $out/anomalies.txt ]]; then
  "$py" "$root/experiments/ladder/readme.py"
fi
echo "ladder written to $out" >&2
exit $status
