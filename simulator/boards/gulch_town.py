"""The figures in Slaughter Gulch: dudes, townsfolk, the Deputy, the Jail; building control.

Rules (``seeds/004``): "Events" (new townsfolk go to the building numbered by
2d6; the Deputy starts at the Jail), "Automatic Actions" (the Deputy moves to
the next number at the end of each round), "Control of Buildings" (most figures
controls, a tie means nobody, townsfolk count), "The Jail" (three cells) and
"Game Setup" (rolls over 8 are disregarded with two players).

A :class:`Town` is a value: every change returns a new one, so undo and replay
cost nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from simulator.boards.gulch_board import HOME, JAIL, Board
from simulator.boards.verdict import Verdict, allowed, refused

JAIL_CELLS = 3
TOWNSFOLK = "townsfolk"
#: Where a dude waits who is not in play: the three set aside at the start, used when
#: recruiting ("To Start the Game"). Not a space of the town.
ASIDE = "aside"


class Dude(NamedTuple):
    """A player's figure: ``id``, ``outfit``, location ``at``, and its condition.

    ``in_cell`` means locked in one of the Jail's cells; ``dead`` means lying in
    the Graveyard ("Death"); ``harrowed`` means it cannot be killed ("Harrowed");
    ``at == ASIDE`` means not in play yet ("To Start the Game").
    """

    id: str
    outfit: str
    at: str
    wounded: bool = False
    in_cell: bool = False
    dead: bool = False
    harrowed: bool = False

    @property
    def in_play(self) -> bool:
        """On the board or at home (dead dudes included), not set aside."""
        return self.at != ASIDE

    @property
    def active(self) -> bool:
        """In play, alive and out of a cell: a dude that can move and act."""
        return self.in_play and not self.dead and not self.in_cell


class Folk(NamedTuple):
    """A townsfolk figure (an NPC): ``id``, location ``at``, a display ``name`` and its condition.

    ``sheriff`` marks the figure that stands for the Sheriff ("Game Setup": the
    townsfolk in the Jail). A second wound kills a wounded townsfolk; killed
    townsfolk leave the board ("Death").
    """

    id: str
    at: str
    name: str = ""
    wounded: bool = False
    in_cell: bool = False
    sheriff: bool = False


class Town(NamedTuple):
    """A game position: the board, the dudes, the townsfolk figures, the Deputy's location (or None)."""

    board: Board
    dudes: tuple[Dude, ...]
    townsfolk: tuple[Folk, ...] = ()
    deputy: str | None = None

    def dude(self, dude_id: str) -> Dude:
        """Return the dude with ``dude_id``; raises ``KeyError`` when there is none."""
        for d in self.dudes:
            if d.id == dude_id:
                return d
        raise KeyError(dude_id)

    def folk(self, folk_id: str) -> Folk:
        """Return the townsfolk with ``folk_id``; raises ``KeyError`` when there is none."""
        for f in self.townsfolk:
            if f.id == folk_id:
                return f
        raise KeyError(folk_id)

    def is_dude(self, figure_id: str) -> bool:
        """True when ``figure_id`` names a dude (not a townsfolk)."""
        return any(d.id == figure_id for d in self.dudes)

    def is_folk(self, figure_id: str) -> bool:
        """True when ``figure_id`` names a townsfolk on the board."""
        return any(f.id == figure_id for f in self.townsfolk)

    def where(self, figure_id: str) -> str:
        """Return the location of a dude or townsfolk; raises ``KeyError`` for an unknown id."""
        return self.dude(figure_id).at if self.is_dude(figure_id) else self.folk(figure_id).at

    def with_dude(self, dude: Dude) -> Town:
        """Return a town with ``dude`` replacing the dude of the same id."""
        return self._replace(dudes=tuple(dude if d.id == dude.id else d for d in self.dudes))

    def with_folk(self, folk: Folk) -> Town:
        """Return a town with ``folk`` replacing the townsfolk of the same id."""
        return self._replace(townsfolk=tuple(folk if f.id == folk.id else f for f in self.townsfolk))

    def without_folk(self, folk_id: str) -> Town:
        """Return a town with the townsfolk ``folk_id`` taken off the board."""
        return self._replace(townsfolk=tuple(f for f in self.townsfolk if f.id != folk_id))

    def add_folk(self, at: str, name: str = "") -> Town:
        """Return a town with a new townsfolk at ``at``, its id the first free ``townsfolk-N``."""
        taken = {f.id for f in self.townsfolk}
        folk_id = next(f"townsfolk-{n}" for n in range(1, len(taken) + 2) if f"townsfolk-{n}" not in taken)
        return self._replace(townsfolk=(*self.townsfolk, Folk(folk_id, at, name)))

    def moved(self, dude_id: str, to: str) -> Town:
        """Return a town with the dude ``dude_id`` at ``to`` (no rule is checked)."""
        return self.with_dude(self.dude(dude_id)._replace(at=to))

    def outfits(self) -> tuple[str, ...]:
        """Return the outfits present, in order of first appearance."""
        return tuple(dict.fromkeys(d.outfit for d in self.dudes))

    @property
    def sheriff(self) -> Folk | None:
        """The townsfolk standing for the Sheriff, while he is alive (on the board)."""
        return next((f for f in self.townsfolk if f.sheriff), None)


def townsfolk_destination(board: Board, dice: tuple[int, int]) -> str | None:
    """Return the building a new townsfolk goes to for a 2d6 roll, or ``None`` to reroll.

    ``dice`` are the two d6 values. A total with no building (over 8 in a
    two-player town) names nothing and must be rerolled ("Events", "Game Setup").
    Raises ``ValueError`` for a die outside 1-6.
    """
    if not all(1 <= d <= 6 for d in dice):
        raise ValueError("each die must show 1 to 6")
    return board.at_number(sum(dice))


def place_townsfolk(board: Board, rolls: Iterable[tuple[int, int]]) -> str:
    """Return the building for a new townsfolk, taking 2d6 rolls from ``rolls`` until one names a building.

    Raises ``ValueError`` when the rolls run out first.
    """
    for dice in rolls:
        where = townsfolk_destination(board, dice)
        if where is not None:
            return where
    raise ValueError("every roll was disregarded; roll again")


def deputy_next(board: Board, at: str) -> str:
    """Return where the Deputy goes at the end of a round: the next number, wrapping ("Automatic Actions")."""
    count = len(board.buildings)
    return board.buildings[board.number(at) % count]


def end_round(town: Town) -> Town:
    """Return the town after the round-end Deputy move (unchanged when no Deputy is in play)."""
    if town.deputy is None:
        return town
    return town._replace(deputy=deputy_next(town.board, town.deputy))


def jailed(town: Town) -> tuple[Dude | Folk, ...]:
    """Return the figures (dudes and townsfolk) locked in the Jail's cells."""
    return (*(d for d in town.dudes if d.in_cell), *(f for f in town.townsfolk if f.in_cell))


def can_jail(town: Town) -> Verdict:
    """Whether one more figure fits in the Jail: it has three cells ("The Jail", arrest)."""
    if len(jailed(town)) >= JAIL_CELLS:
        return refused("all three jail cells are full: nobody can be arrested (The Jail / arrest)")
    return allowed("a jail cell is free")


def send_to_jail(town: Town, figure_id: str) -> Town:
    """Return the town with the dude or townsfolk ``figure_id`` locked in a Jail cell.

    Raises :class:`simulator.errors.IllegalChoice` when the three cells are
    full, and ``KeyError`` for an unknown id.
    """
    can_jail(town).require()
    if town.is_dude(figure_id):
        return town.with_dude(town.dude(figure_id)._replace(at=JAIL, in_cell=True))
    return town.with_folk(town.folk(figure_id)._replace(at=JAIL, in_cell=True))


def figures_at(town: Town, location: str) -> Counter[str]:
    """Count the figures at ``location`` by side: each outfit, and ``"townsfolk"`` (the Deputy included).

    Dead dudes and figures in a cell are not counted: they can take no action there.
    """
    counts: Counter[str] = Counter(d.outfit for d in town.dudes
                                   if d.at == location and not d.dead and not d.in_cell)
    folk = sum(1 for t in town.townsfolk if t.at == location and not t.in_cell) + (town.deputy == location)
    if folk:
        counts[TOWNSFOLK] = folk
    return counts


def controller(town: Town, location: str) -> str | None:
    """Return the outfit controlling a building, or ``None`` ("Control of Buildings").

    The side with the most figures controls; a tie for most means nobody does;
    townsfolk count as a side but never control for a player. ``home`` and
    street squares are never controlled.
    """
    if location == HOME or not town.board.is_building(location):
        return None
    ranked = figures_at(town, location).most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return None if ranked[0][0] == TOWNSFOLK else ranked[0][0]
