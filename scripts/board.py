"""board.py -- a mancala position drawn with matplotlib, for notebooks.

    import board
    fig, ax = plt.subplots(figsize=(6, 2.4))
    board.draw(ax, json.loads(subprocess.check_output(
        ["build/nickar", "show", "--variant", "abapa", "--json"])))

draw() takes a position as `nickar show --json` prints it (pits, stores,
to_move, owners), as a ply of `nickar replay --json` ({"position": ...}), or
as R-B3 text ("4,4,4,4,4,4/4,4,4,4,4,4 0-0 S", docs/rules.md).  It draws the
board as `nickar show` does: North's row on top read right to left (F..A),
South's row below (a..f), North's store at the left end and South's at the
right, the side to move marked; pits owned by the player of the other row
(Adji Kui II) are shaded and starred; `marked` pits (e.g. the pit sown) get
a ring.  The rules are not reimplemented here: positions come from nickar.
"""

from matplotlib.patches import Circle, FancyBboxPatch

LETTERS = "abcdefABCDEF"


def parse_position(text):
    """R-B3 text -> dict(pits, stores, to_move, owners)."""
    fields = text.split(" ")
    if len(fields) not in (3, 4):
        raise ValueError("bad position %r: expected 3 or 4 fields" % text)
    rows = fields[0].split("/")
    pits = [int(n) for n in rows[0].split(",")] + [int(n) for n in rows[1].split(",")]
    south, north = (int(n) for n in fields[1].split("-"))
    owners = fields[3] if len(fields) == 4 else "S" * 6 + "N" * 6
    if len(pits) != 12 or fields[2] not in ("S", "N") or len(owners) != 12:
        raise ValueError("bad position %r" % text)
    return {"pits": pits, "stores": [south, north], "to_move": fields[2], "owners": owners}


def position_of(obj):
    """A position from show --json, a replay --json ply, or R-B3 text."""
    if isinstance(obj, str):
        return parse_position(obj)
    if "pits" in obj:
        return obj
    return parse_position(obj["position"])


def draw(ax, position, title=None, marked=(), captured=None):
    """Draws position on the axes ax; returns ax."""
    p = position_of(position)
    ax.set_xlim(-0.2, 8.2)
    ax.set_ylim(-0.6, 2.9)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(FancyBboxPatch((0, 0), 8, 2.2, boxstyle="round,pad=0.05,rounding_size=0.3",
                                fc="#8a5a2b", ec="none"))
    for store, x in ((1, 0.5), (0, 7.5)):  # North's store left, South's right
        ax.add_patch(FancyBboxPatch((x - 0.35, 0.25), 0.7, 1.7,
                                    boxstyle="round,pad=0.02,rounding_size=0.3",
                                    fc="#b5834c", ec="none"))
        ax.text(x, 1.1, str(p["stores"][store]), ha="center", va="center", fontsize=13,
                weight="bold")
    for i in range(12):
        row_north = i >= 6
        col = (11 - i) if row_north else i  # F..A on top, a..f below
        x, y = 1.5 + col, 1.6 if row_north else 0.6
        other = p["owners"][i] != ("N" if row_north else "S")
        ax.add_patch(Circle((x, y), 0.42, fc="#e0c49a" if p["owners"][i] == "N" else "#c99a62",
                            ec="#1565c0" if i in marked else "none", lw=3))
        ax.text(x, y, str(p["pits"][i]) + ("*" if other else ""), ha="center", va="center",
                fontsize=12, weight="bold", color="#6a1b9a" if other else "#222")
        ax.text(x, 2.45 if row_north else -0.3, LETTERS[i], ha="center", va="center",
                fontsize=9, color="#555")
    ax.annotate("to move", xy=(8.05, 1.6 if p["to_move"] == "N" else 0.6), fontsize=8,
                va="center", color="#333")
    label = title or ""
    if captured:
        label += "  (captures %d)" % captured
    if label:
        ax.set_title(label, fontsize=10)
    return ax
