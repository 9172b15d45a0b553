#!/usr/bin/env python3
"""examples/mcts_agent.py -- Monte Carlo tree search in pure Python (UCT
over uniformly random playouts, as nickar's own `mcts:` player,
src/search/mcts.h) that plays nickar's games over the engine protocol
(docs/protocol.md), with the rules from the nickar package (python/nickar).

    PYTHONPATH=python nickar match --variant abapa \\
        'ext:python3 examples/mcts_agent.py --playouts 100' random

Each move: PLAYOUTS times, from the root down the child of the largest
Q + c sqrt(ln N / n) (Q the child's mean reward for the side that played
its move: 1 a win, 1/2 a draw, 0 a loss), a random untried move made a new
child, random moves to the end of the game, the reward added on the way
back up; then the most visited child.  `go nodes N` sets the playouts of
that move (so `ext:nodes=N,...` sets them from the spec); every random
number comes from the `go` seed, so the same game seed gives the same moves.
"""

import argparse
import math
import random
import sys

import nickar


class Node:
    __slots__ = ("move", "mover", "parent", "children", "untried", "visits", "reward")

    def __init__(self, move, mover, parent, untried):
        self.move, self.mover, self.parent = move, mover, parent
        self.children, self.untried = [], untried
        self.visits, self.reward = 0, 0.0


def south_reward(game):
    winner = game.result.winner
    return 1.0 if winner == nickar.SOUTH else 0.0 if winner == nickar.NORTH else 0.5


def best_child(node, c):
    log_n = math.log(node.visits)
    return max(node.children,
               key=lambda ch: ch.reward / ch.visits + c * math.sqrt(log_n / ch.visits))


def playout(root, game, c, rng):
    """One playout from game (a copy, played on): down, out, back up."""
    node = root
    while not node.untried and node.children:
        node = best_child(node, c)
        game.play(node.move)
    if node.untried:
        move = node.untried.pop(rng.randrange(len(node.untried)))
        mover = game.to_move
        game.play(move)
        child = Node(move, mover, node, [] if game.over else game.legal())
        node.children.append(child)
        node = child
    while not game.over:
        moves = game.legal()
        game.play(moves[rng.randrange(len(moves))])
    reward = south_reward(game)
    while node is not None:
        node.visits += 1
        if node.mover is not None:
            node.reward += reward if node.mover == nickar.SOUTH else 1.0 - reward
        node = node.parent


def choose(game, playouts, c, rng):
    """(move, its mean reward, playouts played) for the live game."""
    legal = game.legal()
    if len(legal) == 1:
        return legal[0], 0.5, 0
    root = Node(None, None, None, legal)
    for _ in range(playouts):
        playout(root, game.copy(), c, rng)
    best = max(root.children, key=lambda ch: (ch.visits, ch.reward / ch.visits))
    return best.move, best.reward / best.visits, playouts


class Agent:
    def __init__(self, playouts, c, out):
        self.playouts, self.c, self.out = playouts, c, out
        self.variants = [v.name for v in nickar.variants()]
        self.variant, self.limit, self.game = None, 0, None

    def send(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def hello(self, words):
        self.send(f"id name mcts_agent.py playouts={self.playouts} c={self.c:g}")
        self.send("id author nickar examples")
        self.send("protocol 1")
        self.send("variants " + " ".join(self.variants))
        self.send(f"option playouts int {self.playouts} playouts a move")
        self.send(f"option c float {self.c:g} UCT's exploration constant")
        self.send("ready")

    def setoption(self, words):
        if len(words) == 3 and words[1] == "playouts" and int(words[2]) >= 1:
            self.playouts = int(words[2])
        elif len(words) == 3 and words[1] == "c" and float(words[2]) >= 0:
            self.c = float(words[2])
        else:
            self.send("error setoption: playouts (a whole number >= 1) or c (a number >= 0)")

    def newgame(self, words):
        if len(words) < 2 or words[1] not in self.variants:
            self.send(f"error newgame: no variant '{' '.join(words[1:2])}'")
            return
        self.variant, self.game = words[1], None
        self.limit = int(words[3]) if len(words) >= 4 and words[2] == "limit" else 0
        self.send("ready")

    def position(self, words):
        k = words.index("moves") if "moves" in words else len(words)
        self.game = nickar.Game(self.variant, " ".join(words[1:k]), self.limit)
        for m in words[k + 1:]:
            self.game.play(m)

    def moves(self, words):
        for m in words[1:]:
            self.game.play(m)

    def go(self, words):
        opts = dict(zip(words[1::2], words[2::2]))
        playouts = int(opts.get("nodes", self.playouts))
        rng = random.Random(int(opts.get("seed", 0)))
        move, value, n = choose(self.game, playouts, self.c, rng)
        self.send(f"move {nickar.move_letter(move)} value {value:.4f} nodes {n}")

    def serve(self, inp):
        for line in inp:
            words = line.split()
            if not words or words[0].startswith("#") or words[0] == "error":
                continue
            if words[0] == "quit":
                return 0
            handler = {"hello": self.hello, "setoption": self.setoption,
                       "newgame": self.newgame, "position": self.position,
                       "moves": self.moves, "go": self.go}.get(words[0])
            try:
                if handler is None:
                    self.send(f"error unknown command '{words[0]}'")
                elif words[0] in ("position", "moves", "go") and self.variant is None:
                    self.send(f"error {words[0]}: no newgame yet")
                else:
                    handler(words)
            except (nickar.NickarError, ValueError, AttributeError) as e:
                why = str(e).splitlines()[0] if str(e) else repr(e)
                self.send(f"error {words[0]}: {why}")
        return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--playouts", type=int, default=100, help="playouts a move (default 100)")
    ap.add_argument("--c", type=float, default=1.4, help="exploration constant (default 1.4)")
    args = ap.parse_args(argv[1:])
    if args.playouts < 1 or args.c < 0:
        ap.error("--playouts must be >= 1 and --c >= 0")
    return Agent(args.playouts, args.c, sys.stdout).serve(sys.stdin)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
