"""nickar.game -- variants, positions, games, players and search over
libnickar (include/nickar.h, docs/library.md) through ctypes.

Moves are pit numbers 0..11 (South's a..f are 0..5, North's A..F 6..11) or
PASS (12); every function that takes a move takes its letter too ("b",
"D", "-").  Positions are R-B3 text ("4,4,4,4,4,4/4,4,4,4,4,4 0-0 S",
docs/rules.md) or Position objects.  A refused call raises NickarError with
the library's one-line message.
"""

import ctypes
from dataclasses import dataclass, field
from typing import List, NamedTuple, Optional

from . import _lib
from ._lib import NickarError, dec, enc

PASS = 12
NO_MOVE = -1
SOUTH, NORTH, DRAW = 0, 1, 2
DEFAULT_NORTH = 0x0FC0


def version():
    """The version of the loaded library ("0.1.0")."""
    return dec(_lib.lib().nickar_version())


class Variant(NamedTuple):
    name: str
    title: str


def variants():
    """The variants, in the library's order."""
    L = _lib.lib()
    return [Variant(dec(L.nickar_variant_name(i)), dec(L.nickar_variant_title(i)))
            for i in range(L.nickar_variant_count())]


def move_letter(move):
    """'a'..'f', 'A'..'F', '-' for the pass; '?' for anything else."""
    return _lib.lib().nickar_move_letter(int(move)).decode()


def move_of(move):
    """A move given as a number or a letter, as a number; NickarError(einval)
    for a letter that is none."""
    if isinstance(move, str):
        m = _lib.lib().nickar_move_parse(move.encode()[:1]) if len(move) == 1 else NO_MOVE
        if m == NO_MOVE:
            raise NickarError(1, f"'{move}' is no move (a..f, A..F, - for the pass)")
        return m
    return int(move)


@dataclass
class Position:
    """A position as numbers: pits[12] (a..f, A..F), stores [South, North],
    side to move (SOUTH or NORTH), north (bit i: North owns pit i), passes
    in a row that led here (Adji Kui II)."""
    pits: List[int]
    stores: List[int]
    side: int = SOUTH
    north: int = DEFAULT_NORTH
    passes: int = 0

    @classmethod
    def _of(cls, c):
        return cls(list(c.pit), list(c.store), c.side, c.north, c.passes)

    def _c(self):
        c = _lib.CPosition()
        if len(self.pits) != 12 or len(self.stores) != 2:
            raise NickarError(1, f"a position has 12 pits and 2 stores, not "
                                 f"{len(self.pits)} and {len(self.stores)}")
        c.pit[:] = [int(x) for x in self.pits]
        c.store[:] = [int(x) for x in self.stores]
        c.side, c.north, c.passes = int(self.side), int(self.north), int(self.passes)
        return c

    @classmethod
    def parse(cls, text):
        """The position of R-B3 text."""
        c = _lib.CPosition()
        _lib.call("nickar_position_parse", enc(text), ctypes.byref(c))
        return cls._of(c)

    @classmethod
    def start(cls, side=SOUTH):
        c = _lib.CPosition()
        _lib.lib().nickar_position_start(ctypes.byref(c), side)
        return cls._of(c)

    def text(self):
        """The position as R-B3 text."""
        out = ctypes.create_string_buffer(_lib.POS_TEXT)
        c = self._c()
        _lib.call("nickar_position_format", ctypes.byref(c), out)
        return dec(out.value)

    def __str__(self):
        return self.text()


class Result(NamedTuple):
    over: bool
    reason: str           # "none", "majority", "empty-row", ...
    winner: Optional[int]  # SOUTH, NORTH, DRAW; None while the game goes on
    totals: tuple          # seeds each side ends with (the stores while on)


class Think(NamedTuple):
    move: int
    score: float   # from the mover's view (a finished game: seeds x 1e6)
    depth: int
    nodes: int

    @property
    def letter(self):
        return move_letter(self.move)


class Game:
    """A game of a variant from a position (None: the start, South to move),
    under a ply limit (0: the default, 1000)."""

    def __init__(self, variant="abapa", position=None, ply_limit=0, _handle=None):
        self._h = None
        self._free = _lib.lib().nickar_game_free  # kept for __del__ at exit
        if _handle is not None:
            self._h = _handle
            return
        if isinstance(position, Position):
            position = position.text()
        h = ctypes.c_void_p()
        _lib.call("nickar_game_new", ctypes.byref(h), enc(variant), enc(position), int(ply_limit))
        self._h = h

    def __del__(self):
        if getattr(self, "_h", None) is not None:
            self._free(self._h)
            self._h = None

    def copy(self):
        h = _lib.lib().nickar_game_clone(self._h)
        if not h:
            raise MemoryError("out of memory for a copy of the game")
        return Game(_handle=ctypes.c_void_p(h))

    @property
    def variant(self):
        return dec(_lib.lib().nickar_game_variant(self._h))

    @property
    def position(self):
        """The current position as R-B3 text."""
        out = ctypes.create_string_buffer(_lib.POS_TEXT)
        _lib.lib().nickar_game_position_text(self._h, out)
        return dec(out.value)

    @property
    def board(self):
        """The current position as a Position."""
        c = _lib.CPosition()
        _lib.lib().nickar_game_position(self._h, ctypes.byref(c))
        return Position._of(c)

    @property
    def to_move(self):
        return _lib.lib().nickar_game_to_move(self._h)

    @property
    def ply(self):
        return _lib.lib().nickar_game_ply(self._h)

    @property
    def ply_limit(self):
        return _lib.lib().nickar_game_ply_limit(self._h)

    @property
    def moves(self):
        """The moves played, in order."""
        L = _lib.lib()
        return [L.nickar_game_move_at(self._h, k) for k in range(self.ply)]

    def legal(self):
        """The legal moves, in pit order ([] once the game is over)."""
        mask = _lib.lib().nickar_game_legal(self._h)
        return [m for m in range(13) if mask >> m & 1]

    def play(self, move):
        """Plays a move (number or letter); returns the seeds it captured.
        NickarError eillegal (the message lists the legal moves) or eover."""
        captured = ctypes.c_uint(0)
        _lib.call("nickar_game_play", self._h, move_of(move), ctypes.byref(captured))
        return captured.value

    @property
    def over(self):
        return bool(_lib.lib().nickar_game_over(self._h))

    @property
    def result(self):
        r = _lib.CResult()
        _lib.lib().nickar_game_result(self._h, ctypes.byref(r))
        return Result(bool(r.over), dec(r.reason), r.winner if r.over else None,
                      (r.total[0], r.total[1]))

    def __repr__(self):
        return f"Game({self.variant!r}, {self.position!r}, ply={self.ply})"


class Player:
    """A player of spec ("random", "greedy", "ab:depth=5,features=positional",
    weights from a file or RUN.h5@best ...) for a variant; seed starts its
    random generator (random players, tie-breaks)."""

    def __init__(self, spec, variant="abapa", seed=0):
        self._h = None
        self._free = _lib.lib().nickar_player_free  # kept for __del__ at exit
        h = ctypes.c_void_p()
        _lib.call("nickar_player_new", ctypes.byref(h), enc(spec), enc(variant), int(seed))
        self._h = h
        self.variant = variant

    def __del__(self):
        if getattr(self, "_h", None) is not None:
            self._free(self._h)
            self._h = None

    @property
    def spec(self):
        return dec(_lib.lib().nickar_player_spec(self._h))

    def seed(self, seed):
        """Starts the random generator again from seed."""
        _lib.lib().nickar_player_seed(self._h, int(seed))

    def think(self, game):
        """The player's choice for game (not played) with its value, depth and
        nodes, a Think."""
        t = _lib.Think()
        _lib.call("nickar_player_move", self._h, game._h, ctypes.byref(t))
        return Think(t.move, t.score, t.depth, t.nodes)

    def move(self, game):
        """The move the player chooses for game (not played)."""
        return self.think(game).move

    def evaluate(self, game):
        """The static evaluation of game's position from the side to move's
        view (ab players only)."""
        v = ctypes.c_double()
        _lib.call("nickar_player_evaluate", self._h, game._h, ctypes.byref(v))
        return v.value

    def __repr__(self):
        return f"Player({self.spec!r}, {self.variant!r})"


def search(game, spec, seed=0):
    """The best move for game by spec, a Think (one-off player)."""
    t = _lib.Think()
    _lib.call("nickar_search", game._h, enc(spec), int(seed), ctypes.byref(t))
    return Think(t.move, t.score, t.depth, t.nodes)


def evaluate(game, spec):
    """The evaluation of game's position by spec, from the side to move's view."""
    v = ctypes.c_double()
    _lib.call("nickar_evaluate", game._h, enc(spec), ctypes.byref(v))
    return v.value


@dataclass
class Record:
    """A game played by play_game: the finished game, the two players, every
    position from the start (positions[k] before move k, the last the final
    one) and what the mover said about each move."""
    game: Game
    players: tuple
    positions: List[str] = field(default_factory=list)
    thinks: List[Think] = field(default_factory=list)


def play_game(south, north, variant="abapa", seed=1, position=None, ply_limit=0):
    """A game between two specs (or Players): South's player moves in the
    positions with South to move.  seed starts the players' generators (South
    seed, North seed + 1).  Returns a Record."""
    players = tuple(p if isinstance(p, Player) else Player(p, variant, seed + i)
                    for i, p in enumerate((south, north)))
    g = Game(variant, position, ply_limit)
    rec = Record(g, players, [g.position])
    while not g.over:
        t = players[g.to_move].think(g)
        g.play(t.move)
        rec.thinks.append(t)
        rec.positions.append(g.position)
    return rec
