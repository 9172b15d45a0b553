"""What the plot scripts (plot_fitness.py, plot_ciao.py, plot_tournament.py)
share: one-line usage errors.  They read their files through the studies'
shared module, analysis/nickar_analysis.py.

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
