"""nickar -- the Caribbean mancala games of nickar from Python.

Games, positions, moves, players and search come from the C library
libnickar (docs/library.md) through ctypes; the readers of nickar's HDF5
files (run, tournament and CIAO files) need h5py, not the library.

    >>> import nickar
    >>> g = nickar.Game("abapa")
    >>> g.legal()
    [0, 1, 2, 3, 4, 5]
    >>> g.play("b")
    0
    >>> nickar.search(g, "ab:depth=5").letter
    'B'
    >>> rec = nickar.play_game("ab:depth=3", "greedy", variant="abapa")
    >>> rec.game.result.reason
    'majority'

The library is found through $NICKAR_LIB, the checkout's build
directories, or the installed library (nickar._lib says how).
"""

from ._lib import NickarError
from ._lib import path as library_path
from .files import (open_h5, h5_file, read, read_ciao, read_run_arrays, read_tournament,
                    reader_kinds, register_reader, text)
from .game import (DRAW, NO_MOVE, NORTH, PASS, SOUTH, Game, Player, Position, Record, Result,
                   Think, Variant, evaluate, move_letter, move_of, play_game, search, variants,
                   version)

__version__ = "0.1.0"

__all__ = ["NickarError", "library_path", "open_h5", "h5_file", "read", "read_ciao",
           "read_run_arrays", "read_tournament", "reader_kinds", "register_reader", "text",
           "DRAW", "NO_MOVE", "NORTH", "PASS", "SOUTH", "Game", "Player", "Position", "Record",
           "Result", "Think", "Variant", "evaluate", "move_letter", "move_of", "play_game",
           "search", "variants", "version"]
