"""What the plot scripts (plot_fitness.py, plot_ciao.py, plot_tournament.py)
share: one-line usage errors, HDF5 strings, and opening an input file.

Importing it lets HDF5 read files without taking its lock (a writer such as
`nickar evolve` keeps its file open and locked), so it must come before
h5py is imported.
"""

import argparse
import os

os.environ.setdefault("HDF5_USE_FILE_LOCKING", "FALSE")


class UsageError(Exception):
    """Bad arguments or bad input: exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message):           # one line, not usage + error
        raise UsageError(message)


def text(v):
    """An HDF5 string (bytes or str, maybe NUL-padded) as str."""
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    return str(v).rstrip("\0").strip()


def open_h5(path):
    """path opened read-only with h5py; UsageError if it is missing, not a
    regular file or not HDF5."""
    import h5py

    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    if not os.path.isfile(path):
        raise UsageError(f"{path}: not a regular file")
    try:
        return h5py.File(path, "r")
    except OSError as e:
        raise UsageError(f"{path}: not an HDF5 file ({str(e).splitlines()[0]})")
