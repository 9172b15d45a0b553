#!/usr/bin/python3
"""experiments/timecmd.py OUTFILE CMD [ARG...] -- runs CMD and writes to
OUTFILE one line: its wall seconds, user and system CPU seconds, and peak
resident memory in KB ("%e %U %S %M", the fields GNU time printed for the
studies before; the same getrusage figures of the waited-for child, from
wait4).

The study scripts time their steps with it (study-lib.sh: measure), so that
no timing program outside Python's standard library is needed.  CMD's
standard streams are its own; the exit status is CMD's (128 + N when a
signal N ended it, 127 when it cannot be started).

Peak memory has a floor: CMD is started from a fork of this interpreter,
whose resident size (about 7 MB) Linux counts in the child's peak too, so
a command smaller than that reads as about 7 MB (GNU time's floor is about
1 MB).  nickar's steps are above it (`nickar --version` alone: 11 MB)."""

import os
import sys
import time


def main(argv):
    if len(argv) < 3:
        print("timecmd.py: usage: timecmd.py OUTFILE CMD [ARG...]", file=sys.stderr)
        return 2
    out, cmd = argv[1], argv[2:]
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: CMD, or 127
        try:
            os.execvp(cmd[0], cmd)
        except OSError as e:
            print(f"timecmd.py: cannot run '{cmd[0]}': {e.strerror}", file=sys.stderr)
        os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    with open(out, "w") as f:
        f.write(f"{wall:.2f} {ru.ru_utime:.2f} {ru.ru_stime:.2f} {ru.ru_maxrss}\n")
    rc = os.waitstatus_to_exitcode(status)
    return 128 - rc if rc < 0 else rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
