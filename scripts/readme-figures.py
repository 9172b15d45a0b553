#!/usr/bin/python3
"""scripts/readme-figures.py [--check] [--nickar PATH] [--readme PATH] --
the figures of README.md's walk from nothing to a game against the
champion, made by running what README shows rather than typed by hand.

It evolves configs/quickstart.ini in a scratch directory (so the run
file's path reads as README prints it, results/quickstart/run.h5), then
plays the match of step 5 against that run file, and writes into README.md:
  - the block between "<!-- readme-figures: evolve -->" and
    "<!-- readme-figures: end -->": the last generation's progress line,
    the run file line, the champion's benchmark scores of the first and
    the last benchmark generation and the hint to play the champion;
  - the block between "<!-- readme-figures: match -->" and the same end
    marker: the command and the result's three lines;
  - the sentence "The run took S s of wall time on a N-core machine (load
    average L after it);".

--check writes nothing: it runs the same and fails (exit 1, naming the
first line that differs) unless README holds what the runs print, but for
the figures that depend on the machine (games a second, ETA and the wall
time), which it leaves alone.  The test suite runs it
(test_readme_figures.sh).  Bad arguments: exit 2 and one line.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATCH = ["match", "--variant", "abapa", "--games", "200",
         "ab:depth=4,features=positional,weights=results/quickstart/run.h5@best",
         "ab:depth=4,features=positional"]
MARK = "<!-- readme-figures: {} -->"
WALL = re.compile(r"The run took [0-9.]+ s of wall time on a [^;]*;")


def run(cmd, cwd):
    """(stdout, stderr, wall seconds) of cmd; exits 1 naming it if it fails."""
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"readme-figures: {' '.join(cmd)} failed (exit {p.returncode}): "
                 f"{p.stderr.strip().splitlines()[-1:] or ''}")
    return p.stdout, p.stderr, time.monotonic() - t0


def evolve_block(out, err):
    """The lines README shows of the quickstart's output."""
    progress = [ln for ln in err.splitlines() if ln.startswith("generation ")]
    lines = out.splitlines()
    head = [ln for ln in lines if ln.startswith(("run file:", "champion's benchmark"))]
    scores = [ln for ln in lines if re.match(r"\s+\d+: ", ln)]
    gens = [ln.split(":")[0].strip() for ln in scores]
    first = [ln for ln, g in zip(scores, gens) if g == gens[0]]
    last = [ln for ln, g in zip(scores, gens) if g == gens[-1]]
    hint = [ln for ln in lines if ln.startswith("play the champion:")]
    if not (progress and len(head) == 2 and first and hint):
        sys.exit("readme-figures: the quickstart's output is not of the form README shows")
    return [progress[-1]] + head + first + ["   ..."] + last + hint


def match_block(out):
    """The command and the three result lines of step 5."""
    keep = [ln for ln in out.splitlines()
            if ln.startswith(("A: ", "seed difference:", "Elo difference:"))]
    if len(keep) != 3:
        sys.exit("readme-figures: the match's output is not of the form README shows")
    cmd = "$ build/nickar " + " ".join(a if re.fullmatch(r"[\w.:=,/-]+", a) and "@" not in a
                                       else f"'{a}'" for a in MATCH)
    return [cmd, "..."] + keep


def blocks(text, name):
    """(start, end) line indices of the fenced block after marker `name`."""
    lines = text.split("\n")
    try:
        i = lines.index(MARK.format(name))
        j = lines.index(MARK.format("end"), i)
    except ValueError:
        sys.exit(f"readme-figures: README has no {MARK.format(name)} ... "
                 f"{MARK.format('end')} block")
    return lines, i, j


def machine_free(line):
    """A line with the figures that depend on the machine blanked."""
    return re.sub(r"\d+ games/s|ETA \d+s", "#", line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--nickar", default=os.path.join(SRC, "build", "nickar"))
    ap.add_argument("--readme", default=os.path.join(SRC, "README.md"))
    a = ap.parse_args()
    nickar = os.path.abspath(a.nickar)
    if not os.access(nickar, os.X_OK):
        print(f"readme-figures: {a.nickar} is not an executable nickar", file=sys.stderr)
        return 2
    try:
        text = open(a.readme, encoding="utf-8").read()
    except OSError as e:
        print(f"readme-figures: cannot read {a.readme}: {e.strerror}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        out, err, wall = run([nickar, "evolve", os.path.join(SRC, "configs", "quickstart.ini")], tmp)
        made = {"evolve": evolve_block(out, err)}
        out, _, _ = run([nickar] + MATCH, tmp)
        made["match"] = match_block(out)
    for name, new in made.items():
        lines, i, j = blocks(text, name)
        # the fence lines stay: the block is lines i+2 .. j-2
        if not (lines[i + 1].startswith("```") and lines[j - 1] == "```"):
            sys.exit(f"readme-figures: the {name} block of README is not one fenced block")
        old = lines[i + 2:j - 1]
        if a.check:
            for k, (x, y) in enumerate(zip(old + [""] * len(new), new + [""] * len(old))):
                if machine_free(x) != machine_free(y):
                    print(f"readme-figures: README's {name} block, line {k + 1}: "
                          f"README has {x!r}, the run prints {y!r}", file=sys.stderr)
                    return 1
        else:
            lines[i + 2:j - 1] = new
            text = "\n".join(lines)
    if a.check:
        if not WALL.search(text):
            print("readme-figures: README has no sentence 'The run took S s of wall time on a ...;'",
                  file=sys.stderr)
            return 1
        print("readme-figures: README's quickstart and match figures are what the runs print")
        return 0
    load = os.getloadavg()[0]
    text = WALL.sub(f"The run took {wall:.1f} s of wall time on a {os.cpu_count()}-core machine "
                    f"(load average {load:.1f} after it);",
                    text, count=1)
    with open(a.readme + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(a.readme + ".tmp", a.readme)
    print(f"readme-figures: wrote {a.readme} (quickstart {wall:.1f} s wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
