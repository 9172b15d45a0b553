#!/usr/bin/env bash
# demo.sh -- nickar's main job, from a fresh clone: installs what is missing,
# builds the Release configuration in build/, evolves a player with
# configs/quickstart.ini (about a minute on two cores), and ends with the run
# file, the champion's benchmark scores, a fitness plot (PNG) and, beside it,
# a page (HTML) that replays a few of the champion's games against the
# benchmark players (nickar match --records, nickar view).
#
# Usage: scripts/demo.sh [--set section.key=value]...   (passed to nickar evolve)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)" >/dev/null

nickar=build/nickar
run=results/quickstart/run.h5

echo "== nickar evolve configs/quickstart.ini --force $*"
$nickar evolve configs/quickstart.ini --force "$@"
echo
echo "== fitness plot"
png=$(/usr/bin/python3 scripts/plot_fitness.py "$run")
echo "plot: $png"
echo
echo "== the champion's games against the benchmark players"
dir=$(dirname "$run")
champion="ab:depth=3,features=positional,weights=$run@best"
records=()
k=0
for opponent in greedy ab:depth=3,features=material ab:depth=3,features=positional; do
  k=$((k + 1))
  $nickar match --variant abapa --games 2 --records "$dir/games-$k.rec" "$champion" "$opponent" |
    grep '^A:'
  records+=("$dir/games-$k.rec")
done
$nickar view "${records[@]}" -o "$dir/games.html"
echo "page: $(cd "$dir" && pwd)/games.html   (open it in a browser; #game=2&ply=last picks a game and a ply)"
echo
echo "next: nickar inspect $run"
echo "      nickar replay $dir/games-1.rec --game 2"
echo "      nickar play --variant abapa --opponent 'ab:depth=4,features=positional,weights=$run@best'"
