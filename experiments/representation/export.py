#!/usr/bin/python3
"""export.py RUN.h5 G FILE COMMENT -- writes the rank-0 individual of
generation G (counted from 1) of a run file (`nickar evolve` or `nickar
learn`) as a weights file: a `#` comment line, then one number a line, each
the shortest text that reads back as the same double, so that
`weights=FILE` plays as `weights=RUN.h5@gen=G,rank=0` (run.sh checks it by
playing both).  Rank 0 is nickar's champion rule (src/io/playerio.c): the
highest fitness, ties to the lowest index, NaN never."""
import math
import sys

import h5py


def main(argv):
    path, gen, out, comment = argv[1], int(argv[2]), argv[3], argv[4]
    with h5py.File(path, "r") as f:
        fit = f["population/fitness"][gen - 1]
        genome = f["population/genome"][gen - 1]
    best = None
    for i, v in enumerate(fit):
        if not math.isnan(v) and (best is None or v > fit[best]):
            best = i
    if best is None:
        sys.exit(f"export.py: {path}: generation {gen} has no fitness")
    w = genome[best]
    if any(math.isnan(x) for x in w):
        sys.exit(f"export.py: {path}: generation {gen}'s champion was not kept")
    with open(out, "w") as f:
        f.write(f"# {comment}: {len(w)} weights\n")
        for x in w:
            f.write(repr(float(x)) + "\n")


if __name__ == "__main__":
    main(sys.argv)
