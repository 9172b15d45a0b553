#!/usr/bin/python3
"""compare-runs.py -- are two nickar run files the same run, bit for bit?

    scripts/compare-runs.py A.h5 B.h5 [C.h5 ...]

Compares every dataset (shape, type and every byte of its values) and every
attribute of the two files (text by its characters, whether it is stored as
variable- or fixed-length strings), except what records the circumstances of a run
rather than its results: the root attributes `created` and `threads`, and
the wall-clock columns of /stats (`wall_seconds`, `play_seconds`,
`outside_seconds`; a file made before the last two existed compares equal
to one that has them).  Prints one line per difference and
exits 1 if there is any, 0 (with a summary line) if there is none, 2 for a
file that cannot be read.  With more than two files, compares A with each
of the others, each line starting with the other file's name.  Used to check that a change of code leaves a run
unchanged (docs/testing.md).
"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "analysis"))
import nickar_analysis as na  # noqa: E402  (the shared reader: h5_file)

VOLATILE_ATTRS = {"created", "threads"}
VOLATILE_FIELDS = {"wall_seconds", "play_seconds", "outside_seconds"}


def items(f):
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj))
    return out


def attrs(obj):
    return {k: v for k, v in obj.attrs.items() if k not in VOLATILE_ATTRS}


def texts(a):
    """The strings of a text array, as str, whatever their storage
    (variable-length, as older run files have, or fixed-length)."""
    return [x.decode("utf-8", "replace") if isinstance(x, bytes) else str(x)
            for x in a.ravel()]


def is_text(a):
    return a.dtype.kind in "SU" or (a.dtype.kind == "O" and all(
        isinstance(x, (bytes, str)) for x in a.ravel()))


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if is_text(a) and is_text(b):
        return a.shape == b.shape and texts(a) == texts(b)
    if a.dtype.names and b.dtype.names:
        keep = [n for n in a.dtype.names if n not in VOLATILE_FIELDS]
        if a.shape != b.shape or keep != [n for n in b.dtype.names if n not in VOLATILE_FIELDS]:
            return False
        return all(same(a[n], b[n]) for n in keep)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "O":
        return list(a.ravel()) == list(b.ravel())
    return a.tobytes() == b.tobytes()


def compare(fa, fb):
    """The differences between two open run files, the number of datasets
    and of root attributes compared."""
    diffs = []
    ia, ib = items(fa), items(fb)
    for name in sorted(set(ia) ^ set(ib)):
        diffs.append(f"{name}: only in {'A' if name in ia else 'B'}")
    datasets = 0
    for name in sorted(set(ia) & set(ib)):
        oa, ob = ia[name], ib[name]
        if isinstance(oa, h5py.Dataset) != isinstance(ob, h5py.Dataset):
            diffs.append(f"{name}: a dataset in one file, a group in the other")
            continue
        if isinstance(oa, h5py.Dataset):
            datasets += 1
            if not same(oa[()], ob[()]):
                diffs.append(f"{name}: values differ")
        if attrs(oa).keys() != attrs(ob).keys():
            diffs.append(f"{name}: attribute names differ")
        for k in attrs(oa).keys() & attrs(ob).keys():
            if not same(oa.attrs[k], ob.attrs[k]):
                diffs.append(f"{name}@{k}: attribute differs")
    ra, rb = attrs(fa), attrs(fb)
    if ra.keys() != rb.keys():
        diffs.append("/: root attribute names differ")
    for k in ra.keys() & rb.keys():
        if not same(ra[k], rb[k]):
            diffs.append(f"/@{k}: attribute differs")
    return diffs, datasets, len(ra)


def main():
    if len(sys.argv) < 3:
        print("usage: compare-runs.py A.h5 B.h5 [C.h5 ...]", file=sys.stderr)
        return 2
    many = len(sys.argv) > 3  # A against each of B, C, ...: lines name the file
    worst = 0
    try:
        fa = na.h5_file(sys.argv[1])
    except OSError as e:
        print(f"compare-runs: {e}", file=sys.stderr)
        return 2
    for pb in sys.argv[2:]:
        tag = f"{pb}: " if many else ""
        try:
            with na.h5_file(pb) as fb:
                diffs, datasets, nroot = compare(fa, fb)
        except (OSError, RuntimeError, KeyError, ValueError) as e:  # damaged files too
            print(f"compare-runs: {e}", file=sys.stderr)
            worst = 2
            continue
        for d in diffs:
            print(tag + d)
        if diffs:
            worst = max(worst, 1)
            continue
        print(f"{tag}same run: {datasets} datasets and {nroot} root attributes identical"
              f" (not compared: {', '.join(sorted(VOLATILE_ATTRS | VOLATILE_FIELDS))})")
    return worst


if __name__ == "__main__":
    sys.exit(main())
