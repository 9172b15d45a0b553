#!/usr/bin/python3
"""Plot the fitness curves and benchmark scores of a nickar run file.

    plot_fitness.py RUN.h5 [-o OUT.png]

Top panel: best, mean (with a +-1 std band) and worst fitness per generation,
from /stats.  Bottom panel, when /benchmark has rows: the champion's score
(0..1) against each benchmark opponent over the generations.  The PNG goes to
OUT.png (default: fitness.png next to the run file; a directory for -o means
fitness.png in it) and its path is printed on stdout.

When the run graded its champion against an endgame database
(benchmark.tablebase: /stats rows with tb_positions > 0), a second PNG,
OUT_endgame.png beside OUT.png (fitness_endgame.png by default), shows that
grading over the benchmark generations: the share of the champion's moves
that were optimal with Wilson's 95% interval (from tb_optimal and
tb_positions), and the mean board seeds lost per move (tb_seeds_lost; the
run file holds no spread of the seeds lost, so no interval for it).  Its
path is printed on a second line.  A run without the grading gets
fitness.png only.

The run file is read by the studies' shared module analysis/nickar_analysis.py,
read-only without taking HDF5's file lock, so a run that nickar is still
writing can be plotted; only the generations that are complete in /stats are
drawn.  Needs Debian's python3-h5py, -numpy, -pandas and -matplotlib (Agg
backend, no display).

Exit status: 0 success, 1 runtime failure (cannot write the PNG), 2 bad
arguments or a missing / non-run input file; errors are one line on stderr.
"""

import os
import sys

from plotcommon import Parser, UsageError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "analysis"))
import nickar_analysis as na  # noqa: E402  (the studies' shared reader)


PROG = "plot_fitness.py"
STATS_FIELDS = ("generation", "best", "mean", "std", "worst")


def parse_args(argv):
    p = Parser(prog=PROG, description=__doc__.splitlines()[0])
    p.add_argument("run", metavar="RUN.h5", help="nickar run file")
    p.add_argument("-o", "--output", metavar="OUT.png",
                   help="PNG to write (default: fitness.png next to RUN.h5)")
    return p.parse_args(argv)


def read_run(path):
    """The bits of RUN.h5 that the plot needs, read by the shared analysis
    module (analysis/nickar_analysis.py: complete generations only, no file
    lock); UsageError if it is no run file."""
    try:
        r = na.read(path)
    except ValueError as e:
        raise UsageError(str(e).splitlines()[0])
    if r["kind"] != "run":
        raise UsageError(f"{path}: not a nickar run file ({r['kind']} file)")
    stats = r["stats"]
    missing = [k for k in STATS_FIELDS if k not in stats.columns]
    if missing:
        raise UsageError(f"{path}: /stats lacks {', '.join(missing)}")
    run = {
        "endgame": read_endgame(stats),
        "name": r["name"],
        "variant": str(r["attrs"].get("variant", "?")),
        "strategy": str(r["attrs"].get("strategy", "?")),
        "stats": {k: stats[k].to_numpy() for k in STATS_FIELDS},
        "bench": {},
    }
    for g, opp, score in zip(r["benchmark"]["generation"], r["benchmark"]["opponent"],
                             r["benchmark"]["score"]):
        run["bench"].setdefault(str(opp), []).append((int(g), float(score)))
    return run


def wilson(p, n, z=1.959964):
    """Wilson's 95% interval of a share p of n trials (as nickar grade)."""
    import numpy as np
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def read_endgame(stats):
    """The graded generations of /stats (tb_positions > 0) as arrays, or
    None when the run has no endgame grading (no tb_* columns, or none
    graded)."""
    if "tb_positions" not in stats.columns:
        return None
    graded = stats["tb_positions"].to_numpy() > 0
    if not graded.any():
        return None
    t = stats[graded]
    return {k: t[k].to_numpy() for k in ("generation", "tb_positions", "tb_optimal",
                                         "tb_seeds_lost")}


def endgame_path(out):
    """OUT_endgame.png beside OUT.png."""
    root, _ = os.path.splitext(out)
    return root + "_endgame.png"


def plot_endgame(run, out):
    """The champion graded against the endgame database: share of optimal
    moves with its 95% interval, and seeds lost per move."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    e = run["endgame"]
    gen = e["generation"]
    n = e["tb_positions"].astype(float)
    lo, hi = wilson(e["tb_optimal"], n)
    fig, (ax, bx) = plt.subplots(2, 1, figsize=(8, 6.6), sharex=True)
    p = e["tb_optimal"]
    ax.errorbar(gen, p, yerr=[p - lo, hi - p], marker="o", color="tab:green", capsize=3,
                label="share of optimal moves, 95% interval (Wilson)")
    ax.set_ylim(-0.03, 1.03)
    ax.set_ylabel("optimal moves")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    npos = (f"{int(n.min())}" if n.min() == n.max()
            else f"{int(n.min())}–{int(n.max())}")
    ax.set_title(f"{run['name']}: champion against perfect play "
                 f"({npos} endgame positions a generation)")
    bx.plot(gen, e["tb_seeds_lost"], marker="o", color="tab:red",
            label="mean seeds lost per move (the run file holds no spread for an interval)")
    bx.set_ylim(bottom=0)
    bx.set_ylabel("seeds lost per move")
    bx.grid(alpha=0.3)
    bx.legend(loc="best", fontsize="small")
    bx.set_xlabel("generation")
    bx.xaxis.set_major_locator(MaxNLocator(integer=True))
    if gen.max() - gen.min() < 2:
        bx.set_xlim(gen.min() - 1, gen.max() + 1)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot(run, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    s = run["stats"]
    gen = s["generation"]
    n = len(gen)
    mark = "o" if n <= 40 else None            # a single generation shows
    panels = 2 if run["bench"] else 1
    fig, axes = plt.subplots(panels, 1, figsize=(8, 3.6 * panels + 0.6),
                             sharex=True, squeeze=False)
    ax = axes[0, 0]
    if n == 0:
        ax.text(0.5, 0.5, "no generations logged yet", ha="center",
                va="center", transform=ax.transAxes)
    else:
        ax.fill_between(gen, s["mean"] - s["std"], s["mean"] + s["std"],
                        color="tab:blue", alpha=0.15, label="mean ± std")
        ax.plot(gen, s["best"], marker=mark, color="tab:green", label="best")
        ax.plot(gen, s["mean"], marker=mark, color="tab:blue", label="mean")
        ax.plot(gen, s["worst"], marker=mark, color="tab:red", label="worst")
        ax.legend(loc="best", fontsize="small")
    ax.set_ylabel("fitness")
    ax.grid(alpha=0.3)
    ax.set_title(f"{run['name']}: {run['variant']}, {run['strategy']}, "
                 f"{n} generation{'s' if n != 1 else ''}")
    if panels == 2:
        bx = axes[1, 0]
        for opp, pts in sorted(run["bench"].items()):
            pts.sort()
            bx.plot([g for g, _ in pts], [v for _, v in pts], marker="o",
                    label=opp)
        bx.set_ylim(-0.03, 1.03)
        bx.set_ylabel("benchmark score")
        bx.grid(alpha=0.3)
        bx.legend(loc="best", fontsize="small", title="champion vs",
                  title_fontsize="small")
    last = axes[-1, 0]
    last.set_xlabel("generation")
    last.xaxis.set_major_locator(MaxNLocator(integer=True))
    if n and gen.max() - gen.min() < 2:       # G = 1 or 2: no 0.015 ticks
        last.set_xlim(gen.min() - 1, gen.max() + 1)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv):
    try:
        a = parse_args(argv)
        run = read_run(a.run)
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    out = a.output
    if out is None:
        out = os.path.join(os.path.dirname(os.path.abspath(a.run)),
                           "fitness.png")
    elif os.path.isdir(out):
        out = os.path.join(out, "fitness.png")
    outs = [(plot, out)]
    if run["endgame"] is not None:
        outs.append((plot_endgame, endgame_path(out)))
    for draw, path in outs:
        try:
            draw(run, path)
        except OSError as e:
            print(f"{PROG}: error: cannot write {path}: {e.strerror or e}",
                  file=sys.stderr)
            return 1
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
