"""experiments/studylib.py -- what the studies' reports share
(experiments/*/report.py): the shared reader (analysis/nickar_analysis.py,
as ``na``), numbers as the READMEs write them, the quick-run banner, JSON
records of a table, and writing results.json, the PNGs and README.md.

A report is a module of functions (load, tables, plots, readme, ...) and a
``main(argv)``; run.sh runs it as a script with /usr/bin/python3.  Each
imports this module by putting experiments/ on sys.path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import studylib as sl
    na = sl.na
"""

import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "analysis"))
import nickar_analysis as na  # noqa: E402,F401  (the reports' reader)

QUICK_BANNER = ("**QUICK RUN: a tiny budget that only checks the script; no number "
                "below means anything.**")


def readme_start(title, quick):
    """A README's first lines: its title and, for a quick run, the banner."""
    return [title, ""] + ([QUICK_BANNER, ""] if quick else [])


def num(x, nd=0):
    """x with nd decimals; "-" for None or NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.{nd}f}"


def f0(x):
    return num(x, 0)


def f1(x):
    return num(x, 1)


def f3(x):
    return num(x, 3)


def interval(m, lo, hi, nd=0):
    """'m [lo, hi]', each with nd decimals."""
    return f"{num(m, nd)} [{num(lo, nd)}, {num(hi, nd)}]"


def records(table):
    """A pandas table as a list of JSON objects, one a row."""
    return json.loads(table.to_json(orient="records"))


def write_json(path, obj, end=""):
    """obj to path as JSON (results.json: indented by 1), then end."""
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write(end)


def write_lines(path, lines):
    """The lines of a README, joined by newlines."""
    with open(path, "w") as f:
        f.write("\n".join(lines))


def pyplot():
    """matplotlib.pyplot on the Agg backend (no display)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig, path, dpi=80, rect=None):
    """Lays fig out (tight, within rect when given), writes it as a PNG and
    closes it."""
    if rect is None:
        fig.tight_layout()
    else:
        fig.tight_layout(rect=rect)
    fig.savefig(path, dpi=dpi)
    pyplot().close(fig)


def settings(**kw):
    """A report's settings (its command line) as one object: a.seeds, ..."""
    import types
    return types.SimpleNamespace(**kw)
