#!/usr/bin/env bash
# make_corpus.sh [NICKAR] -- makes the seed corpus of the file harnesses
# (tests/fuzz/corpus/{tourfile,ciao,tb,records,players,weights,ladder}/) again
# with the nickar binary NICKAR (default build/nickar): small valid files
# of each kind, as nickar writes them, so a reader sees where each seed
# comes from.  The damaged inputs that once failed live in
# tests/fuzz/regress/<kind>/ and are not made here.  The HDF5 files
# (tournament and run files) are the smallest nickar writes, 39 to 112 KB:
# every dataset is chunked with a checksum.  Run from anywhere; it
# replaces the files it makes and keeps the others: the inputs that
# campaigns found and kept (named by their SHA-1, forge inputs
# forge-SHA-1; docs/testing.md, "The campaigns of the file harnesses").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
nickar=$(realpath "${1:-$root/build/nickar}")
# fixed `created` stamps: the same bytes every time, but for the run
# files, which record each generation's time
export SOURCE_DATE_EPOCH=1767225600
corpus=$root/tests/fuzz/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
for k in tourfile ciao tb records players weights ladder; do
  mkdir -p "$corpus/$k"
done
q=(--quiet --threads 1)

# weights files: one number a line, # comments (the positional set's 9)
printf '# positional (9 features), hand-made\n1.0\n-0.5\n0.25\n\n2\n0\n1e-3\n4\n-2 # a comment\n0.125\n' >"$corpus/weights/positional.txt"
printf '%s\n' 0.5 -1 >"$corpus/weights/two.txt"
printf '1\r\n2\r\n' >"$corpus/weights/crlf.txt"
cp "$corpus/weights/positional.txt" w.txt

# run files for `nickar ciao`: two and three generations of a tiny GA,
# and an ES run (step sizes)
evolve() { # NAME GENERATIONS STRATEGY
  "$nickar" evolve "$root/configs/quickstart.ini" "${q[@]}" --output "$1.h5" \
    --set experiment.generations="$2" --set strategy.kind="$3" --set population.size=4 \
    --set player.depth=1 --set benchmark.every=0 --set strategy.elitism=1 \
    --checkpoint-seconds 0 >/dev/null
  cp "$1.h5" "$corpus/ciao/$1.h5"
}
evolve ga2 2 ga
evolve ga3 3 ga
evolve es2 2 es-plus

# tournament files: a round robin of three (one with file weights), a
# gauntlet with an anchor, unit match (adjikui)
"$nickar" tournament --variant abapa random greedy 'ab:depth=1,weights=w.txt' --games 2 \
  --ply-limit 60 "${q[@]}" --output "$corpus/tourfile/round-robin.h5" >/dev/null
"$nickar" tournament --variant bridgetown --format gauntlet --anchor greedy=1500 random greedy \
  ab:depth=1 --games 2 --openings 0 --ply-limit 40 "${q[@]}" \
  --output "$corpus/tourfile/gauntlet.h5" >/dev/null
"$nickar" tournament --variant adjikui --unit match --match-games 3 random greedy --games 2 \
  --ply-limit 60 "${q[@]}" --output "$corpus/tourfile/unit-match.h5" >/dev/null

# forge inputs (tests/fuzz/fuzz_forge.h): edits of round-robin.h5 (the
# tournament harness) and of ga3.h5 (the ciao harness), each edit
# OBJECT OFFSET FLAGS VALUE as 14 bytes after the magic
forge() { # FILE OBJECT OFFSET FLAGS VALUE [OBJECT OFFSET FLAGS VALUE]...
  python3 - "$@" <<'PY'
import struct, sys
a = sys.argv[1:]
out = b"NKFORGE1"
for i in range(1, len(a), 4):
    out += struct.pack("<BIBq", int(a[i]), int(a[i + 1]), int(a[i + 2]), int(a[i + 3]))
open(a[0], "wb").write(out)
PY
}
for k in tourfile ciao; do
  forge "$corpus/$k/forge-byte" 0 0 0 -1
  forge "$corpus/$k/forge-int64" 4 8 3 1099511627776
  forge "$corpus/$k/forge-resize" 5 0 128 1
  forge "$corpus/$k/forge-three" 1 4 2 65535 7 16 1 127 12 0 3 -2
done

# records files: a match's games, and a game that did not end
"$nickar" match --variant abapa random greedy --games 2 --ply-limit 80 --threads 1 \
  --records "$corpus/records/abapa.txt" >/dev/null
"$nickar" match --variant adjikui random random --games 2 --ply-limit 30 --threads 1 \
  --records "$corpus/records/adjikui-cut.txt" >/dev/null
"$nickar" match --variant speightstown greedy random --games 2 --openings 0 --ply-limit 200 \
  --threads 1 --records "$corpus/records/speightstown.txt" >/dev/null

# players files: specs, file weights, a run's champions (fuzz_players runs
# in a directory with w.txt and r.h5, run_fuzz.sh's NICKAR_FUZZ_RUN)
cat >"$corpus/players/specs.txt" <<'P'
# name = spec
rand = random
greedy  =  greedy
ab2 = ab:depth=2,features=material
P
printf 'w = ab:depth=1,weights=w.txt\nbest = ab:depth=1,weights=r.h5@best\n' \
  >"$corpus/players/weights.txt"
printf 'champ = r.h5@champions\nsome = r.h5@champions:every=2\n' >"$corpus/players/champions.txt"

# endgame databases: one plane (abapa), two (speightstown), patterns (adjikui)
"$nickar" tablebase build --variant abapa --seeds 4 --output tb --threads 1 >/dev/null
"$nickar" tablebase build --variant speightstown --seeds 3 --output tb --threads 1 >/dev/null
"$nickar" tablebase build --variant adjikui --seeds 2 --patterns 0,2,-2 --output tb --threads 1 \
  >/dev/null
for f in tb/*.nktb; do cp "$f" "$corpus/tb/"; done

# reference ladders (nickar rate): two of results/ladder/ (with their
# results), and one of players only
cp "$root/results/ladder/abapa.tsv" "$root/results/ladder/adjikui.tsv" "$corpus/ladder/"
printf '# players only\nrandom\trandom\t0\ngreedy\tgreedy\t210.5\nd2\tab:depth=2\t700\n' \
  >"$corpus/ladder/players-only.tsv"

ls -l "$corpus"/{tourfile,ciao,tb,records,players,weights,ladder}
