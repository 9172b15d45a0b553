#!/usr/bin/python3
"""Plot the cross table and the rating list of a nickar tournament file.

    plot_tournament.py TOURNAMENT.h5 [-o OUT.png]

Left panel: the cross table as a heatmap, the row player's mean score
against the column player (0 to 1; grey where no game was played), players
in rating order, the scores written in the cells when there are at most 20
players.  Right panel: the rating list, each player's rating with its 95%
interval, best at the top, the anchor marked.  The PNG goes to OUT.png
(default: tournament.png next to the file; a directory for -o means
tournament.png in it) and its path is printed on stdout.

The file (written by `nickar tournament --output`, docs/runfile.md,
"Tournament files") is opened read-only; a tournament in progress is drawn
as far as it got (its games so far and, once they give one, its ratings).
Needs Debian's python3-h5py, -numpy and -matplotlib (Agg backend).

Exit status: 0 success, 1 runtime failure (cannot write the PNG), 2 bad
arguments or a missing / non-tournament input file; errors are one line on
stderr.
"""

import os
import sys

from plotcommon import Parser, UsageError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "analysis"))
import nickar_analysis as na  # noqa: E402  (the shared reader)


PROG = "plot_tournament.py"


def parse_args(argv):
    p = Parser(prog=PROG, description=__doc__.splitlines()[0])
    p.add_argument("file", metavar="TOURNAMENT.h5", help="nickar tournament file")
    p.add_argument("-o", "--output", metavar="OUT.png",
                   help="PNG to write (default: tournament.png next to the file)")
    return p.parse_args(argv)


def read_tournament(path):
    """What the plot needs, read by the shared analysis module
    (analysis/nickar_analysis.py); UsageError if path is no tournament file."""
    try:
        return na.read_tournament(path)
    except ValueError as e:
        raise UsageError(str(e))


def plot(t, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names, r = t["players"], t["ratings"]
    p = len(names)
    order = np.argsort(r["rank"]) if r is not None else np.arange(p)
    labels = [names[i] for i in order]
    height = max(3.5, 0.32 * p + 1.5)
    fig, (hx, rx) = plt.subplots(1, 2, figsize=(6 + 0.35 * p + 5, height),
                                 gridspec_kw={"width_ratios": [max(p, 4), 4]})
    score = t["score"][np.ix_(order, order)]
    played = t["games"][np.ix_(order, order)] > 0
    shown = np.where(played, score, np.nan)
    cmap = matplotlib.colormaps["RdBu"].copy()
    cmap.set_bad("0.85")
    im = hx.imshow(shown, cmap=cmap, vmin=0, vmax=1)
    hx.set_xticks(range(p), labels=[str(k + 1) for k in range(p)])
    hx.set_yticks(range(p), labels=[f"{k + 1} {n[:28]}" for k, n in enumerate(labels)],
                  fontsize="small")
    hx.set_xlabel("opponent (by rank)")
    if p <= 20:
        for i in range(p):
            for j in range(p):
                if played[i, j]:
                    hx.text(j, i, f"{score[i, j]:.2f}", ha="center", va="center",
                            fontsize="x-small",
                            color="white" if abs(score[i, j] - 0.5) > 0.3 else "black")
    fig.colorbar(im, ax=hx, fraction=0.046, pad=0.04, label="row's score")
    hx.set_title(f"{t['name']}: {t['variant']}, {t['format']}, "
                 f"{2 * t['done']} of {2 * t['total']} {t['unit']}"
                 f"{'es' if t['unit'] == 'match' else 's'}", fontsize="medium")
    if r is None:
        rx.text(0.5, 0.5, "no rating list yet", ha="center", va="center",
                transform=rx.transAxes)
        rx.set_axis_off()
    else:
        y = np.arange(p)
        elo = r["elo"][order]
        lo, hi = r["lo"][order], r["hi"][order]
        rx.errorbar(elo, y, xerr=[elo - lo, hi - elo], fmt="o", color="tab:blue",
                    ecolor="tab:blue", capsize=3)
        anchor = [k for k, n in enumerate(labels) if n == t["anchor"]]
        if anchor:
            rx.plot(elo[anchor], y[anchor], "s", color="tab:red", label=f"anchor {t['anchor']}")
            rx.legend(loc="lower right", fontsize="small")
        rx.set_yticks(y, labels=[str(k + 1) for k in range(p)])
        rx.set_ylim(p - 0.5, -0.5)
        rx.set_xlabel("Elo (95% interval)")
        rx.grid(alpha=0.3, axis="x")
        rx.set_title("rating list", fontsize="medium")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv):
    try:
        a = parse_args(argv)
        t = read_tournament(a.file)
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    out = a.output
    if out is None:
        out = os.path.join(os.path.dirname(os.path.abspath(a.file)), "tournament.png")
    elif os.path.isdir(out):
        out = os.path.join(out, "tournament.png")
    try:
        plot(t, out)
    except OSError as e:
        print(f"{PROG}: error: cannot write {out}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
