#!/usr/bin/env bash
# demo.sh -- nickar's main job, from a fresh clone: installs what is missing,
# builds the Release configuration in build/, evolves a player with
# configs/quickstart.ini (about a minute on two cores), and ends with the run
# file, the champion's benchmark scores and a fitness plot (PNG).
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
echo "next: nickar inspect $run"
echo "      nickar play --variant abapa --opponent 'ab:depth=4,features=positional,weights=$run@best'"
