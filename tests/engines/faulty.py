#!/usr/bin/env python3
"""faulty.py -- a deliberately broken engine for tests/test_cli_engine.sh.

Usage: faulty.py MODE K LOG NICKAR [SPEC]

Serves SPEC (default random) through `NICKAR engine --player SPEC`, which
it runs as its own child and to which it passes every line, and breaks
the protocol as MODE says:

  handshake:  silent (never answers hello), version (protocol 2),
              malformed (a line that is no handshake message),
              incomplete (ready without a variants line)
  newgame:    refuse (answers error), unlisted (lists no variant it plays)
  at the K-th go of its life: timeout (never answers), crash (exits 3),
              illegal (answers a pass, illegal outside Adji Kui II),
              garbage (answers a line that is no move), error (answers
              error), close (closes its output and stays), hexvalue
              (answers its move with "value 0x1p3", a C hex float that
              the one strict number reader refuses)
  ok:         breaks nothing

It appends to LOG a line `start PID` when it starts, and `zombie PID` for
each child of its parent (nickar) that is a zombie at that moment: an
engine nickar ended and did not reap.
"""
import os
import subprocess
import sys
import time

mode, k, log, nickar = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
spec = sys.argv[5] if len(sys.argv) > 5 else "random"

with open(log, "a") as f:
    f.write("start %d\n" % os.getpid())
    ps = subprocess.run(["ps", "--ppid", str(os.getppid()), "-o", "pid=,stat="],
                        capture_output=True, text=True).stdout
    for line in ps.splitlines():
        pid, stat = line.split()
        if stat.startswith("Z"):
            f.write("zombie %s\n" % pid)

child = subprocess.Popen([nickar, "engine", "--player", spec], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)


def ask(line):
    child.stdin.write(line + "\n")
    child.stdin.flush()


def answer():
    return child.stdout.readline().rstrip("\n")


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def hang():
    while True:
        time.sleep(60)


gos = 0
for line in sys.stdin:
    line = line.rstrip("\n")
    word = line.split(" ")[0]
    if word == "quit":
        break
    if word == "hello":
        if mode == "silent":
            hang()
        if mode == "malformed":
            say("hello there")
            continue
        ask(line)
        while True:
            a = answer()
            if mode == "version" and a.startswith("protocol"):
                a = "protocol 2"
            if mode == "incomplete" and a.startswith("variants"):
                continue
            if mode == "unlisted" and a.startswith("variants"):
                a = "variants none"
            say(a)
            if a == "ready":
                break
    elif word == "newgame":
        if mode == "refuse":
            say("error I do not play " + line.split(" ")[1])
            continue
        ask(line)
        say(answer())
    elif word == "go":
        gos += 1
        if gos == k:
            if mode == "timeout":
                hang()
            if mode == "crash":
                sys.exit(3)
            if mode == "close":
                os.close(1)
                hang()
            if mode in ("illegal", "garbage", "error"):
                say({"illegal": "move -", "garbage": "bestmove e2e4",
                     "error": "error out of cheese"}[mode])
                continue
            if mode == "hexvalue":
                ask(line)
                say(" ".join(answer().split()[:2]) + " value 0x1p3")
                continue
        ask(line)
        say(answer())
    elif word in ("position", "moves"):
        ask(line)
child.stdin.close()
child.wait()
