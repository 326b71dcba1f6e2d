"""Sight, range and shooting in Slaughter Gulch.

Rules (``seeds/004``, "Shootin' and Fightin'"): a dude sees the spaces around
its own, diagonals included, but cannot shoot into a building; dynamite may be
thrown into any building but the Jail; from inside a building a dude sees only
the street square outside the door and the two street squares beside it.
"Long Range Combat": some weapons reach further; range is counted in squares
(``BOARDS.md``: king-move distance along the street).

Model choices (``BOARDS.md``): from a street square the eight grid cells around
it are seen, and a building is seen when one of its cells is among them; a
space sees itself, so figures in the same space can always shoot each other;
``home`` sees nothing and is never seen. Range is counted to street squares
only (0 within one space), from a street square or out of a building.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from simulator.boards.gulch_board import HOME, JAIL, Board, Cell, parse_street, street
from simulator.boards.verdict import Verdict, allowed, refused

WeaponKind = Literal["gun", "dynamite", "long_range"]


class Weapon(NamedTuple):
    """A weapon for a shot: ``kind`` and, for long-range weapons, the furthest range in squares."""

    name: str
    kind: WeaponKind = "gun"
    max_range_squares: int = 1


PISTOL = Weapon("pistol")
DYNAMITE = Weapon("dynamite", "dynamite")


def _around(cell: Cell) -> frozenset[Cell]:
    """The eight cells around ``cell`` and the cell itself."""
    return frozenset(Cell(cell.row + dr, cell.col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def _lane_view(board: Board, door: str) -> tuple[str, ...]:
    """The door square and the street squares beside it along its lane."""
    cell = parse_street(door)
    assert cell is not None
    return tuple(street(cell.row, c) for c in (cell.col - 1, cell.col, cell.col + 1) if 0 <= c < board.columns)


def visible_from(board: Board, location: str) -> frozenset[str]:
    """Return every location seen from ``location``, itself included (empty for ``home``)."""
    if location == HOME or not board.is_location(location):
        return frozenset()
    if board.is_building(location):
        return frozenset({location, *(sq for door in board.doors(location) for sq in _lane_view(board, door))})
    (cell,) = board.cells(location)
    seen = (board.location_at(c) for c in _around(cell))
    return frozenset(loc for loc in seen if loc is not None)


def can_see(board: Board, a: str, b: str) -> bool:
    """True when a figure at ``a`` sees ``b``."""
    return b in visible_from(board, a)


def range_squares(board: Board, a: str, b: str) -> int | None:
    """Return the range in squares from a shooter at ``a`` to a street square ``b`` (0 within one space).

    The king-move distance between their grid cells, the nearest cells of a
    building shooter counting (a building's door square is 1 away). ``None``
    when ``b`` is not a street square (long-range fire never goes into a
    building), or either end is ``home`` or not a space (Long Range Combat).
    """
    if a == b and a != HOME and board.is_location(a):
        return 0
    cb = parse_street(b)
    if cb is None or not board.is_street(b) or a == HOME or not board.is_location(a):
        return None
    return min(max(abs(ca.row - cb.row), abs(ca.col - cb.col)) for ca in board.cells(a))


def can_shoot(board: Board, a: str, b: str, weapon: Weapon = PISTOL) -> Verdict:
    """Whether a dude at ``a`` may attack ``b`` with ``weapon``, with the reason ("Shootin' and Fightin'").

    Guns need sight and never fire into a building (but may fire out of one, or
    within the space the shooter is in). Dynamite needs sight and may go into any
    building except the Jail, even from inside it ("Item Cards": never into the
    Jail). A long-range weapon fires at street squares up to its range; from
    inside a building only at the squares the building sees (Long Range Combat).
    """
    if HOME in (a, b):
        return refused("nobody shoots to or from home: it is off the board")
    if weapon.kind == "dynamite" and b == JAIL:
        return refused("dynamite may not be thrown into the Jail (Shootin' and Fightin'; Item Cards)")
    if weapon.kind == "long_range":
        return _long_range(board, a, b, weapon)
    if not can_see(board, a, b):
        return refused(f"{b} cannot be seen from {a} (Shootin' and Fightin')")
    if a == b:
        return allowed("same space")
    if weapon.kind == "dynamite":
        return allowed("dynamite may be thrown into any building but the Jail")
    if board.is_building(b):
        return refused("you cannot shoot into a building (Shootin' and Fightin')")
    return allowed(f"{b} is in sight")


def _long_range(board: Board, a: str, b: str, weapon: Weapon) -> Verdict:
    """The Long Range Combat check: at a street square within range; out of a building only at what it sees."""
    squares = range_squares(board, a, b)
    if squares is None:
        return refused("long-range fire is at street squares, never into a building or home (Long Range Combat)")
    if board.is_building(a) and a != b and not can_see(board, a, b):
        return refused(f"from inside {a} a dude sees only the door square and the two beside it "
                       "(Shootin' and Fightin')")
    if squares > weapon.max_range_squares:
        return refused(f"{squares} squares is beyond the {weapon.name}'s {weapon.max_range_squares}")
    return allowed(f"{squares} squares, within the {weapon.name}'s range")


def shootable_from(board: Board, location: str, weapon: Weapon = PISTOL) -> frozenset[str]:
    """Return every location a dude at ``location`` may attack with ``weapon``."""
    return frozenset(b for b in board.locations if can_shoot(board, location, b, weapon).legal)

