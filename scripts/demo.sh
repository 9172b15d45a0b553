#!/usr/bin/env bash
# demo.sh -- nickar's main job, from a fresh clone: installs what is missing,
# builds the Release configuration in build/, and runs a short
# demonstration: the variants, the start position, then one game between
# two random players, move by move with the board, and its result.
#
# Usage: scripts/demo.sh [VARIANT [SEED]]   (default: antigua, a seed from the clock)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)" >/dev/null

variant=${1:-antigua}
seed=${2:-$(date +%s)}
nickar=build/nickar

echo "== nickar rules"
$nickar rules
echo
echo "== nickar show --variant $variant"
$nickar show --variant "$variant"
echo
echo "== nickar replay --variant $variant --random --seed $seed   (random against random)"
$nickar replay --variant "$variant" --random --seed "$seed"
