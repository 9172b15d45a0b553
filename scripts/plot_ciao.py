#!/usr/bin/python3
"""Plot the CIAO matrix and the master-tournament curve of a nickar ciao file.

    plot_ciao.py RUN.ciao.h5 [-o OUT.png]

Reads the analysis file that `nickar ciao` writes (docs/runfile.md, "The
ciao file").  Left: the CIAO heatmap (Cliff & Miller): row = the champion of
a sampled generation, column = an earlier champion, colour = the row's mean
score against the column (red below 0.5, blue above); the upper triangle is
left blank.  Right: per sampled generation, the master-tournament score
(mean score against all sampled champions; Floreano & Nolfi) and the mean
score against the earlier ones, with the Nash equilibrium mass of each
champion as bars.  The PNG goes to OUT.png (default: RUN.ciao.png next to
the input; a directory for -o means ciao.png in it) and its path is printed
on stdout.  Needs Debian's python3-h5py, -numpy and -matplotlib (Agg).

Exit status: 0 success, 1 runtime failure (cannot write the PNG), 2 bad
arguments or a missing / wrong input file; errors are one line on stderr.
"""

import os
import sys

from plotcommon import Parser, UsageError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "analysis"))
import nickar_analysis as na  # noqa: E402  (the shared reader)
from nickar_analysis import text  # noqa: E402


PROG = "plot_ciao.py"


def parse_args(argv):
    p = Parser(prog=PROG, description=__doc__.splitlines()[0])
    p.add_argument("ciao", metavar="RUN.ciao.h5", help="analysis file of nickar ciao")
    p.add_argument("-o", "--output", metavar="OUT.png",
                   help="PNG to write (default: RUN.ciao.png next to the input)")
    return p.parse_args(argv)


def read_ciao(path):
    """What the plot needs, read by the shared analysis module
    (analysis/nickar_analysis.py); UsageError if path is no ciao file."""
    try:
        return na.read_ciao(path)
    except ValueError as e:
        raise UsageError(str(e))


def plot(d, out, name):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    gen = d["generations"]
    n = len(gen)
    score = np.array(d["score"], dtype=float)
    lower = np.where(np.tril(np.ones((n, n), dtype=bool), -1), score, np.nan)
    a = d["attrs"]
    fig, (hx, cx) = plt.subplots(1, 2, figsize=(12, 5),
                                 gridspec_kw={"width_ratios": [1, 1.25]})
    im = hx.imshow(lower, cmap="RdBu", vmin=0, vmax=1, origin="lower",
                   interpolation="nearest")
    ticks = np.arange(n) if n <= 12 else np.linspace(0, n - 1, 8).round().astype(int)
    hx.set_xticks(ticks, [str(gen[t]) for t in ticks])
    hx.set_yticks(ticks, [str(gen[t]) for t in ticks])
    hx.set(xlabel="earlier champion (generation)", ylabel="champion (generation)",
           title="CIAO: champion vs earlier champions")
    fig.colorbar(im, ax=hx, label="mean score of the row", fraction=0.046)
    mark = "o" if n <= 40 else None
    cx.bar(gen, d["nash_mix"], width=max(1.0, float(np.min(np.diff(gen)))) * 0.6,
           color="tab:grey", alpha=0.35, label="Nash mix (mass)")
    cx.plot(gen, d["master"], marker=mark, color="tab:blue", label="master tournament")
    cx.plot(gen[1:], d["ciao"][1:], marker=mark, color="tab:orange", ls="--",
            label="vs earlier champions")
    cx.axhline(0.5, color="grey", lw=0.8)
    cx.set(xlabel="generation", ylabel="mean score", ylim=(-0.03, 1.03),
           title="master tournament")
    cx.grid(alpha=0.3)
    cx.legend(fontsize="small", loc="best")
    share = float(np.asarray(a.get("cyclic_share", np.nan)).ravel()[0])
    fig.suptitle(f"{name}: {text(a.get('variant', '?'))}, {n} champions, "
                 f"{int(np.asarray(a.get('games', 0)).ravel()[0])} games per pairing, "
                 f"cyclic triads {100 * share:.1f}%")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv):
    try:
        a = parse_args(argv)
        d = read_ciao(a.ciao)
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    out = a.output
    if out is None:
        base = os.path.abspath(a.ciao)
        out = (base[:-3] if base.endswith(".h5") else base) + ".png"
    elif os.path.isdir(out):
        out = os.path.join(out, "ciao.png")
    try:
        plot(d, out, os.path.basename(a.ciao))
    except OSError as e:
        print(f"{PROG}: error: cannot write {out}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
