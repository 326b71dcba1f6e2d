"""The Slaughter Gulch town: tiles, the grid of spaces, doors and numbering.

Rules: *Deadlands: The Battle for Slaughter Gulch* rulebook (``seeds/004``),
sections "Game Setup" (tiles, two rows with the street between, Rail Station
left, Mine right, numbered disks clockwise, two-player variant) and
"Movement" (a street square or a building is one space). The grid itself is
the project's model in ``BOARDS.md``:

* rows, top to bottom: ``-1`` top buildings, ``0`` and ``1`` the street lanes,
  ``2`` bottom buildings; columns ``0..N-1`` (N = 5, or 3 for two players);
* the Rail Station fills column ``-1`` and the Mine column ``N``, all rows;
* a top building opens on the lane square below it, a bottom building on the
  lane square above it, the Rail Station on both squares of column 0 and the
  Mine on both squares of column N-1; homes are off the board.

Locations are plain strings: ``street:ROW:COL``, a building key, or ``home``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import NamedTuple

RAIL_STATION = "rail_station"
MINE = "mine"
HOME = "home"
JAIL = "jail"
GRAVEYARD = "graveyard"

#: The ten shuffled building tiles ("Game Setup").
BUILDING_TILES: tuple[str, ...] = (
    "jail", "general_store", "hotel_saloon", "doctors_office", "telegraph_office",
    "bank", "church", "stable", "theater", "graveyard",
)
#: Tiles removed before setup in a two-player game ("Game Setup", Two Player Game).
TWO_PLAYER_REMOVED: tuple[str, ...] = ("stable", "theater", "bank", "church")

DISPLAY_NAMES: dict[str, str] = {
    RAIL_STATION: "Rail Station", MINE: "Mine", "jail": "Jail", "general_store": "General Store",
    "hotel_saloon": "Hotel-Saloon", "doctors_office": "Doctor's Office",
    "telegraph_office": "Telegraph Office", "bank": "Bank", "church": "Church", "stable": "Stable",
    "theater": "Theater", "graveyard": "Graveyard", HOME: "Home",
}

STREET_ROWS: tuple[int, int] = (0, 1)
TOP_ROW = -1
BOTTOM_ROW = 2


class Cell(NamedTuple):
    """One grid cell: ``row`` (-1..2, top to bottom) and ``col`` (-1..N)."""

    row: int
    col: int


def street(row: int, col: int) -> str:
    """Return the location key of the street square at lane ``row`` (0 or 1) and ``col``."""
    return f"street:{row}:{col}"


_STREET_KEY = re.compile(r"street:(0|[1-9][0-9]{0,5}):(0|[1-9][0-9]{0,5})")
_STREET_LOOSE = re.compile(r"\s*street\s*:\s*([+-]?[0-9]+)\s*:\s*([+-]?[0-9]+)\s*", re.IGNORECASE)


def parse_street(location: str) -> Cell | None:
    """Return the :class:`Cell` of a ``street:ROW:COL`` key, or ``None`` for any other string.

    Only the one spelling per square is a key: decimal digits with no sign, no
    leading zero and no spaces (``street:0:1``). ``street:+0:01`` or
    ``street: 0:1`` name no square here; :func:`street_spelling` says how to
    write them.
    """
    match = _STREET_KEY.fullmatch(location)
    return Cell(int(match[1]), int(match[2])) if match else None


def street_spelling(text: str) -> str | None:
    """Return the key ``text`` was meant to be when it is a loose spelling of a street square, else ``None``.

    ``street:+0:01``, ``street: 0:1`` and ``STREET:00:1`` all give
    ``street:0:1``; a key already written right, or text that is no street key
    at all, gives ``None``. Used for error messages (one spelling per square).
    """
    if parse_street(text) is not None:
        return None
    match = _STREET_LOOSE.fullmatch(text)
    return street(int(match[1]), int(match[2])) if match else None


def columns_for(players: int) -> int:
    """Return the building positions per row: 3 for two players, 5 otherwise ("Game Setup")."""
    return 3 if players == 2 else 5


def tiles_for(players: int) -> tuple[str, ...]:
    """Return the building tiles used with ``players`` players (four removed for two players)."""
    if players == 2:
        return tuple(t for t in BUILDING_TILES if t not in TWO_PLAYER_REMOVED)
    return BUILDING_TILES


@dataclass(frozen=True)
class Board:
    """A laid-out town: ``top`` and ``bottom`` building rows, each listed left to right.

    Raises ``ValueError`` when the rows differ in length, repeat a tile, or use an
    unknown tile key. ``N`` (``columns``) is the row length.
    """

    top: tuple[str, ...]
    bottom: tuple[str, ...]

    def __post_init__(self) -> None:
        tiles = self.top + self.bottom
        if len(self.top) != len(self.bottom) or not self.top:
            raise ValueError("the two building rows must have the same, non-zero length")
        if len(set(tiles)) != len(tiles):
            raise ValueError("a building tile appears twice")
        unknown = [t for t in tiles if t not in BUILDING_TILES]
        if unknown:
            raise ValueError(f"unknown building tile(s): {', '.join(unknown)}")

    @property
    def columns(self) -> int:
        """N, the number of building positions in each row."""
        return len(self.top)

    @property
    def buildings(self) -> tuple[str, ...]:
        """Every building-like location (Rail Station, Mine and tiles) in clockwise order."""
        return (RAIL_STATION, *self.top, MINE, *reversed(self.bottom))

    @property
    def streets(self) -> tuple[str, ...]:
        """Every street square key, lane 0 then lane 1, left to right."""
        return tuple(street(r, c) for r in STREET_ROWS for c in range(self.columns))

    @property
    def locations(self) -> tuple[str, ...]:
        """Every location key: buildings, street squares and ``home``."""
        return (*self.buildings, *self.streets, HOME)

    def is_location(self, location: str) -> bool:
        """True when ``location`` names a space of this board (or ``home``)."""
        return location in self.buildings or location == HOME or self.is_street(location)

    def is_street(self, location: str) -> bool:
        """True when ``location`` is a street square of this board."""
        cell = parse_street(location)
        return cell is not None and cell.row in STREET_ROWS and 0 <= cell.col < self.columns

    def is_building(self, location: str) -> bool:
        """True for the Rail Station, the Mine and the building tiles on this board."""
        return location in self.buildings

    def cells(self, location: str) -> frozenset[Cell]:
        """Return the grid cells a location covers (none for ``home``)."""
        n = self.columns
        if self.is_street(location):
            cell = parse_street(location)
            return frozenset({cell}) if cell else frozenset()
        if location == RAIL_STATION:
            return frozenset(Cell(r, -1) for r in range(TOP_ROW, BOTTOM_ROW + 1))
        if location == MINE:
            return frozenset(Cell(r, n) for r in range(TOP_ROW, BOTTOM_ROW + 1))
        if location in self.top:
            return frozenset({Cell(TOP_ROW, self.top.index(location))})
        if location in self.bottom:
            return frozenset({Cell(BOTTOM_ROW, self.bottom.index(location))})
        return frozenset()

    def location_at(self, cell: Cell) -> str | None:
        """Return the location covering ``cell``, or ``None`` off the board."""
        row, col = cell
        if not TOP_ROW <= row <= BOTTOM_ROW or not -1 <= col <= self.columns:
            return None
        if col == -1:
            return RAIL_STATION
        if col == self.columns:
            return MINE
        if row == TOP_ROW:
            return self.top[col]
        if row == BOTTOM_ROW:
            return self.bottom[col]
        return street(row, col)

    def doors(self, location: str) -> tuple[str, ...]:
        """Return the street squares a building opens on (empty for streets and ``home``)."""
        n = self.columns
        if location == RAIL_STATION:
            return (street(0, 0), street(1, 0))
        if location == MINE:
            return (street(0, n - 1), street(1, n - 1))
        if location in self.top:
            return (street(0, self.top.index(location)),)
        if location in self.bottom:
            return (street(1, self.bottom.index(location)),)
        return ()

    def buildings_opening_on(self, square: str) -> tuple[str, ...]:
        """Return the buildings whose door is the street square ``square``."""
        return tuple(b for b in self.buildings if square in self.doors(b))

    def number(self, location: str) -> int:
        """Return the numbered disk of a building: 1 on the Rail Station, then clockwise.

        Clockwise is the top row left to right, the Mine, the bottom row right to
        left ("Game Setup"). Raises ``KeyError`` for streets and ``home``.
        """
        if location not in self.buildings:
            raise KeyError(f"{location} has no numbered disk (only buildings are numbered)")
        return self.buildings.index(location) + 1

    def at_number(self, number: int) -> str | None:
        """Return the building with disk ``number``, or ``None`` when no building has it."""
        return self.buildings[number - 1] if 1 <= number <= len(self.buildings) else None


def layout_board(layout: list[str] | tuple[str, ...]) -> Board:
    """Build a :class:`Board` from ``layout``: the top row left to right, then the bottom row.

    Raises ``ValueError`` for an odd length or bad tiles.
    """
    if len(layout) % 2:
        raise ValueError("the layout needs the same number of tiles in both rows")
    half = len(layout) // 2
    return Board(tuple(layout[:half]), tuple(layout[half:]))


def setup(players: int, rng: random.Random) -> Board:
    """Lay out a town for ``players`` (2-6) by shuffling the tiles with ``rng`` ("Game Setup").

    The same seed gives the same town, so a game can be replayed. Raises
    ``ValueError`` for a player count outside 2-6.
    """
    if not 2 <= players <= 6:
        raise ValueError("Slaughter Gulch is for 2 to 6 players")
    tiles = list(tiles_for(players))
    rng.shuffle(tiles)
    return layout_board(tiles)


def setup_seeded(players: int, seed: int) -> Board:
    """Return :func:`setup` with ``random.Random(seed)``."""
    return setup(players, random.Random(seed))
