"""The nickar package's games, positions, moves, players and search, over
the shared library; checked against the nickar binary where it says the
same thing (replay --json, match --records)."""

import json
import os
import subprocess
import sys

import pytest

import nickar
from nickar import NickarError


def test_library_and_variants():
    assert nickar.version() == nickar.__version__
    names = [v.name for v in nickar.variants()]
    assert names == ["antigua", "speightstown", "bridgetown", "adjikui", "abapa", "awari"]
    assert all(v.title for v in nickar.variants())
    assert os.path.isfile(nickar.library_path())


def test_moves():
    assert [nickar.move_letter(m) for m in range(13)] == list("abcdefABCDEF-")
    assert nickar.move_letter(99) == "?"
    assert nickar.move_of("D") == 9 and nickar.move_of("-") == nickar.PASS and nickar.move_of(3) == 3
    for bad in ("g", "", "ab"):
        with pytest.raises(NickarError) as e:
            nickar.move_of(bad)
        assert e.value.code == "einval"


def test_positions():
    p = nickar.Position.parse("1,0,5,0,3,6/2,0,0,8,1,4 7-9 S SSNSSSNNNNSN")
    assert p.pits[2] == 5 and p.stores == [7, 9] and p.side == nickar.SOUTH
    assert p.north == 0x4 | 0x40 | 0x80 | 0x100 | 0x200 | 0x800
    assert p.text() == "1,0,5,0,3,6/2,0,0,8,1,4 7-9 S SSNSSSNNNNSN"
    s = nickar.Position.start(nickar.NORTH)
    assert str(s) == "4,4,4,4,4,4/4,4,4,4,4,4 0-0 N"
    s.pits[0] = 300
    with pytest.raises(NickarError, match="pit a holds 300 seeds") as e:
        s.text()
    assert e.value.code == "erange"
    with pytest.raises(NickarError, match="field 3"):
        nickar.Position.parse("4,4,4,4,4,4/4,4,4,4,4,4 0-0 X")
    with pytest.raises(NickarError, match="12 pits"):
        nickar.Position([1, 2], [0, 0]).text()


def test_game_play_and_errors():
    g = nickar.Game("abapa")
    assert g.variant == "abapa" and g.ply == 0 and g.ply_limit == 1000
    assert g.legal() == [0, 1, 2, 3, 4, 5] and g.to_move == nickar.SOUTH
    assert g.play("b") == 0
    assert g.position == "4,0,5,5,5,5/4,4,4,4,4,4 0-0 N"
    assert g.board.pits[1] == 0 and g.moves == [1]
    with pytest.raises(NickarError, match="legal moves: A, B, C, D, E, F") as e:
        g.play("a")
    assert e.value.code == "eillegal"
    c = g.copy()
    c.play("A")
    assert c.ply == 2 and g.ply == 1
    assert g.result == nickar.Result(False, "none", None, (0, 0))
    with pytest.raises(NickarError, match="unknown variant 'chess'; valid variants: antigua"):
        nickar.Game("chess")
    with pytest.raises(NickarError, match="owners"):
        nickar.Game("abapa", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S NNNNNNSSSSSS")
    with pytest.raises(NickarError) as e:
        nickar.Game("abapa", ply_limit=5001)
    assert e.value.code == "erange"
    over = nickar.Game("abapa", nickar.Position.parse("1,0,0,0,0,0/0,0,0,0,0,1 25-21 N"))
    assert over.over and over.legal() == []
    assert over.result == nickar.Result(True, "majority", nickar.SOUTH, (25, 21))
    with pytest.raises(NickarError) as e:
        over.play("F")
    assert e.value.code == "eover"


@pytest.mark.parametrize("variant,seed", [("antigua", 1), ("speightstown", 2), ("bridgetown", 3),
                                          ("adjikui", 4), ("abapa", 5), ("awari", 6)])
def test_game_agrees_with_replay(run_nickar, variant, seed):
    """A random game of nickar replay, played again move by move: the same
    positions, captures, legal moves and result."""
    lines = [json.loads(x) for x in
             run_nickar("replay", "--variant", variant, "--random", "--seed", str(seed),
                        "--json").splitlines()]
    *plies, end = lines
    g = nickar.Game(variant)
    for p in plies:
        assert nickar.move_of(p["move"]) in g.legal()
        assert g.play(p["move"]) == p["captured"]
        assert g.position == p["position"]
    r = g.result
    assert r.over and r.reason == end["reason"] and g.ply == end["plies"]
    assert r.totals == (end["south"], end["north"])
    assert ("S", "N", "draw")[r.winner] == end["result"]


def test_legal_moves_agree_with_show(run_nickar):
    """Legal moves of positions of a random game, as nickar show sees them."""
    g = nickar.Game("awari")
    rng = __import__("random").Random(7)
    while not g.over:
        shown = json.loads(run_nickar("show", "--variant", "awari", "--position", g.position,
                                      "--json"))
        assert [nickar.move_letter(m) for m in g.legal()] == shown["legal"]
        g.play(rng.choice(g.legal()))


def test_players_and_search():
    g = nickar.Game("abapa")
    p = nickar.Player("ab:depth=4", "abapa")
    t = p.think(g)
    assert t.move in g.legal() and t.depth == 4 and t.nodes > 0
    assert nickar.search(g, "ab:depth=4") == t
    assert p.evaluate(g) == 0.0  # the start is symmetric
    assert nickar.evaluate(nickar.Game("abapa", "4,4,4,4,4,4/4,4,4,4,0,0 8-0 S"),
                           "ab:features=positional") > 0
    with pytest.raises(NickarError, match="no evaluation"):
        nickar.evaluate(g, "greedy")
    with pytest.raises(NickarError, match="plays abapa, the game is awari"):
        p.think(nickar.Game("awari"))
    with pytest.raises(NickarError, match="depth"):
        nickar.Player("ab:depth=99")
    with pytest.raises(NickarError, match="no person"):
        nickar.Player("human")
    with pytest.raises(NickarError) as e:
        nickar.Player("ab:weights=/no/such/file")
    assert e.value.code == "enofile"


def test_random_players_follow_their_seed():
    a = nickar.play_game("random", "random", variant="awari", seed=11)
    b = nickar.play_game("random", "random", variant="awari", seed=11)
    c = nickar.play_game("random", "random", variant="awari", seed=12)
    assert a.game.moves == b.game.moves and a.game.moves != c.game.moves
    p = nickar.Player("random", "awari", seed=3)
    g = nickar.Game("awari")
    first = [p.move(g) for _ in range(8)]
    p.seed(3)
    assert [p.move(g) for _ in range(8)] == first


def test_play_game_is_nickar_match(run_nickar, tmp_path):
    """Deterministic players: the library plays the very game that
    nickar match plays (records file, first game)."""
    south, north = "ab:depth=3", "ab:depth=2,features=dk2002"
    rec_file = tmp_path / "records.txt"
    run_nickar("match", "--variant", "abapa", south, north, "--games", "1",
               "--openings", "0", "--records", str(rec_file))
    line = rec_file.read_text().splitlines()[0]
    moves = line.split("record=")[1].split(" ")[3:]
    rec = nickar.play_game(south, north, variant="abapa")
    assert [nickar.move_letter(m) for m in rec.game.moves] == moves
    assert f"reason={rec.game.result.reason}" in line
    assert len(rec.positions) == len(moves) + 1 and len(rec.thinks) == len(moves)


def test_weights_from_a_file(tmp_path):
    w = tmp_path / "w.txt"
    w.write_text("# dk2002\n1\n1\n1\n1\n-1\n1\n")
    g = nickar.Game("abapa", "4,4,4,4,4,4/4,4,4,4,4,4 3-0 S")
    assert nickar.evaluate(g, f"ab:features=dk2002,weights={w}") == 3.0


def test_library_not_found(tmp_path):
    """Without a library where NICKAR_LIB points, one line saying what was
    tried; the file readers still import."""
    code = ("import nickar\n"
            "try:\n    nickar.Game()\nexcept OSError as e:\n    print(e)\n")
    env = dict(os.environ, NICKAR_LIB=str(tmp_path / "none.so"))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("libnickar.so not found (tried: " + str(tmp_path / "none.so"))
    assert "set NICKAR_LIB" in out and out.count("\n") == 1
