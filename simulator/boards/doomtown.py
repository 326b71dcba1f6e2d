"""The Doomtown street: locations, adjacency, moves and booting, posses.

Rules: *Deadlands: Doomtown*, Mouth of Hell rulebook, online edition
(``seeds/000``): "Table Layout" (the home starts a player's street; in-town
deeds go at either end; out-of-town deeds stand aside and are adjacent to
nothing; a destroyed deed's neighbours close up), "Controllin' Deeds" (dudes at
a destroyed deed go home, booting), "Movin' Around" (adjacency, the two free
moves, booted dudes cannot move, sent home booted), "Shootin'" (call-outs and
their posses), "Jobs" (job posses) and the Glossary (adjacent, in town, Town
Square, street).

A :class:`Town` is a value; every change returns a new one. Location ids are
strings chosen by the file; the Town Square is ``town_square``.

Judgement calls, stated once: the free move "from home" is from the dude's own
home; "other than home" excludes every home; the dealer of a job must be
unbooted and boots (as most job cards say); a job against a deed targets its
owner's dudes.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from simulator.boards.verdict import Verdict
from simulator.errors import IllegalChoice

TOWN_SQUARE = "town_square"
End = Literal["left", "right"]


class Street(NamedTuple):
    """One player's street: ``locations`` left to right, ``home`` among them."""

    player: str
    home: str
    locations: tuple[str, ...]


class OutOfTown(NamedTuple):
    """A Strike or other out-of-town deed: ``id`` and ``owner`` (a player)."""

    id: str
    owner: str


class Dude(NamedTuple):
    """A dude: ``id``, controlling ``player``, location ``at``, whether it is ``booted``, its ``influence``."""

    id: str
    player: str
    at: str
    booted: bool = False
    influence: int = 0


class MoveCost(NamedTuple):
    """The answer to "may this dude move there?": legal, whether it boots, and why ("Movin' Around")."""

    legal: bool
    boots: bool
    reason: str


class Joiner(NamedTuple):
    """A dude who may join a posse, and whether joining boots it."""

    dude: str
    boots: bool


class Posses(NamedTuple):
    """Who may join each side ("Shootin'", "Jobs"); ``legal`` False with a reason when the action is not allowed."""

    legal: bool
    reason: str
    location: str | None
    dealer_side: tuple[Joiner, ...]
    target_side: tuple[Joiner, ...]


class Town(NamedTuple):
    """A Doomtown position: the streets, out-of-town deeds, dudes and each deed's Control Points."""

    streets: tuple[Street, ...]
    out_of_town: tuple[OutOfTown, ...] = ()
    dudes: tuple[Dude, ...] = ()
    control_points: tuple[tuple[str, int], ...] = ()

    def points_of(self, deed: str) -> int:
        """The Control Points printed on ``deed`` (0 when none are given)."""
        return dict(self.control_points).get(deed, 0)

    def dude(self, dude_id: str) -> Dude:
        """Return the dude with ``dude_id``; raises ``KeyError`` when there is none."""
        for d in self.dudes:
            if d.id == dude_id:
                return d
        raise KeyError(dude_id)

    def street_of(self, player: str) -> Street:
        """Return ``player``'s street; raises ``KeyError`` for an unknown player."""
        for s in self.streets:
            if s.player == player:
                return s
        raise KeyError(player)

    def home_of(self, player: str) -> str:
        """Return ``player``'s home location id."""
        return self.street_of(player).home

    @property
    def homes(self) -> frozenset[str]:
        """Every player's home."""
        return frozenset(s.home for s in self.streets)

    @property
    def locations(self) -> tuple[str, ...]:
        """Every location in play: street locations, the Town Square, out-of-town deeds."""
        in_town = tuple(loc for s in self.streets for loc in s.locations)
        return (*in_town, TOWN_SQUARE, *(d.id for d in self.out_of_town))

    def dudes_at(self, location: str) -> tuple[Dude, ...]:
        """Return the dudes at ``location``."""
        return tuple(d for d in self.dudes if d.at == location)

    def with_dude(self, dude: Dude) -> Town:
        """Return a town with ``dude`` replacing the dude of the same id."""
        return self._replace(dudes=tuple(dude if d.id == dude.id else d for d in self.dudes))


def is_in_town(town: Town, location: str) -> bool:
    """True for the Town Square and every location in a street (homes included) (Glossary, in town)."""
    return location == TOWN_SQUARE or any(location in s.locations for s in town.streets)


def owner(town: Town, location: str) -> str | None:
    """Return the player whose street or out-of-town deed ``location`` is; ``None`` for the Town Square."""
    for s in town.streets:
        if location in s.locations:
            return s.player
    for deed in town.out_of_town:
        if deed.id == location:
            return deed.owner
    return None


def _street_neighbours(town: Town, location: str) -> frozenset[str]:
    """The locations next to ``location`` in its street (streets do not wrap)."""
    for s in town.streets:
        if location in s.locations:
            i = s.locations.index(location)
            return frozenset(s.locations[j] for j in (i - 1, i + 1) if 0 <= j < len(s.locations))
    return frozenset()


def neighbours(town: Town, location: str) -> frozenset[str]:
    """Return every location adjacent to ``location`` ("Movin' Around", Glossary)."""
    if location == TOWN_SQUARE:
        return frozenset(loc for s in town.streets for loc in s.locations)
    if not is_in_town(town, location):
        return frozenset()
    return _street_neighbours(town, location) | {TOWN_SQUARE}


def adjacent(town: Town, a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are adjacent; a location is never adjacent to itself."""
    return a != b and b in neighbours(town, a)


def add_deed(town: Town, player: str, deed: str, end: End) -> Town:
    """Return the town with an in-town ``deed`` added at the ``left`` or ``right`` end of ``player``'s street.

    Raises ``ValueError`` when the id is already in play ("Table Layout", "Shoppin'").
    """
    _require_new(town, deed)
    s = town.street_of(player)
    locations = (deed, *s.locations) if end == "left" else (*s.locations, deed)
    return _replace_street(town, s._replace(locations=locations))


def add_out_of_town(town: Town, player: str, deed: str) -> Town:
    """Return the town with an out-of-town ``deed`` (a Strike) owned by ``player``, set aside ("Table Layout")."""
    _require_new(town, deed)
    town.street_of(player)
    return town._replace(out_of_town=(*town.out_of_town, OutOfTown(deed, player)))


def _require_new(town: Town, location: str) -> None:
    """Raise ``ValueError`` when ``location`` is already an id in play or reserved."""
    if location in town.locations or location == TOWN_SQUARE:
        raise ValueError(f"{location} is already in play")


def _replace_street(town: Town, street: Street) -> Town:
    """Return the town with ``street`` replacing the street of the same player."""
    return town._replace(streets=tuple(street if s.player == street.player else s for s in town.streets))


def destroy(town: Town, deed: str) -> Town:
    """Return the town without ``deed``: the row closes up and dudes there go home booted.

    Raises :class:`IllegalChoice` for a home or the Town Square (they are not
    deeds) and ``KeyError`` for an id not in play ("Table Layout", "Controllin' Deeds").
    """
    if deed == TOWN_SQUARE or deed in town.homes:
        raise IllegalChoice(f"{deed} is not a deed and cannot be destroyed (Glossary: home, Town Square)")
    if deed not in town.locations:
        raise KeyError(deed)
    streets = tuple(s._replace(locations=tuple(loc for loc in s.locations if loc != deed)) for s in town.streets)
    rest = tuple(d for d in town.out_of_town if d.id != deed)
    points = tuple((d, p) for d, p in town.control_points if d != deed)
    closed = town._replace(streets=streets, out_of_town=rest, control_points=points)
    for d in town.dudes_at(deed):
        closed = send_home_booted(closed, d.id)
    return closed


def send_home_booted(town: Town, dude_id: str) -> Town:
    """Return the town with the dude at its controller's home, booted, ignoring every movement restriction."""
    d = town.dude(dude_id)
    return town.with_dude(d._replace(at=town.home_of(d.player), booted=True))


def unboot_all(town: Town) -> Town:
    """Return the town with every dude unbooted (Nightfall)."""
    return town._replace(dudes=tuple(d._replace(booted=False) for d in town.dudes))


def move_cost(town: Town, dude_id: str, to: str) -> MoveCost:
    """Return whether ``dude_id`` may move to ``to`` as a Noon action, and whether it boots ("Movin' Around").

    Free: from the dude's home to an adjacent location, or from the Town Square to
    an adjacent location other than a home. Any other move boots. A booted dude
    cannot move. Raises ``KeyError`` for an unknown dude.
    """
    d = town.dude(dude_id)
    if to not in town.locations:
        return MoveCost(False, False, f"{to} is not a location in play")
    if to == d.at:
        return MoveCost(False, False, f"{d.id} is already at {to}")
    if d.booted:
        return MoveCost(False, False, "a booted dude cannot move (Movin' Around)")
    if d.at == town.home_of(d.player) and adjacent(town, d.at, to):
        return MoveCost(True, False, "free: from home to an adjacent location (Movin' Around)")
    if d.at == TOWN_SQUARE and adjacent(town, d.at, to) and to not in town.homes:
        return MoveCost(True, False, "free: from the Town Square to an adjacent location other than home "
                                     "(Movin' Around)")
    return MoveCost(True, True, "boots: only moves from home or the Town Square to an adjacent location "
                                "are free (Movin' Around)")


def move(town: Town, dude_id: str, to: str) -> Town:
    """Return the town after moving the dude, booting it when the move boots.

    Raises :class:`IllegalChoice` with the reason when :func:`move_cost` says no.
    """
    cost = move_cost(town, dude_id, to)
    Verdict(cost.legal, cost.reason).require()
    d = town.dude(dude_id)
    return town.with_dude(d._replace(at=to, booted=d.booted or cost.boots))


def _gather(town: Town, player: str, place: str, near: frozenset[str], skip: str) -> tuple[Joiner, ...]:
    """Dudes of ``player`` (not ``skip``) at ``place`` (any, no boot) or at a location in ``near`` (unbooted, boot)."""
    joiners: list[Joiner] = []
    for d in town.dudes:
        if d.player != player or d.id == skip:
            continue
        if d.at == place:
            joiners.append(Joiner(d.id, False))
        elif d.at in near and not d.booted:
            joiners.append(Joiner(d.id, True))
    return tuple(joiners)


def _refused_posses(reason: str) -> Posses:
    """A :class:`Posses` saying the action is not allowed."""
    return Posses(False, reason, None, (), ())


def call_out_posses(town: Town, dealer_id: str, target_id: str) -> Posses:
    """Return who may join each posse when ``dealer_id`` calls out ``target_id`` ("Shootin'").

    The dealer must be unbooted and at the target's location, the target another
    player's dude not at its own home. Each side is the caller or target first, then
    its player's dudes at that location (booted or not, no boot) and unbooted ones at
    adjacent locations (who boot). Raises ``KeyError`` for unknown dudes.
    """
    dealer, target = town.dude(dealer_id), town.dude(target_id)
    problem = _call_out_problem(town, dealer, target)
    if problem:
        return _refused_posses(problem)
    place = target.at
    near = neighbours(town, place)
    dealer_side = (Joiner(dealer.id, False), *_gather(town, dealer.player, place, near, dealer.id))
    target_side = (Joiner(target.id, False), *_gather(town, target.player, place, near, target.id))
    return Posses(True, f"shootout at {place}", place, dealer_side, target_side)


def _call_out_problem(town: Town, dealer: Dude, target: Dude) -> str | None:
    """Why ``dealer`` may not call out ``target``, or ``None``."""
    if dealer.player == target.player:
        return "a dude can only call out another player's dude (Shootin')"
    if dealer.booted:
        return "only an unbooted dude can call someone out (Shootin')"
    if dealer.at != target.at:
        return "the target must be at the caller's location (Shootin')"
    if target.at == town.home_of(target.player):
        return "a dude at his or her own home cannot be called out (Shootin')"
    return None


def job_posses(town: Town, dealer_id: str, target: str) -> Posses:
    """Return who may join each posse for a job led by ``dealer_id`` against ``target`` ("Jobs").

    ``target`` is a location (the targeted deed) or a dude id (its location is the
    job's). The dealer's posse may take the dealer's player's dudes at or adjacent to
    the dealer's location or the target's; booted dudes only if already at the
    target's location; everyone not there boots. The defending posse is the target
    owner's dudes at the target's location (no boot) or adjacent and unbooted (boot).
    Raises ``KeyError`` for an unknown dealer or target.
    """
    dealer = town.dude(dealer_id)
    place, defender = _job_target(town, target)
    problem = _job_problem(town, dealer, target, defender)
    if problem:
        return _refused_posses(problem)
    near = (neighbours(town, dealer.at) | {dealer.at} | neighbours(town, place)) - {place}
    dealer_side = (Joiner(dealer.id, True), *_gather(town, dealer.player, place, near, dealer.id))
    defenders = () if defender in (None, dealer.player) else _gather(town, defender, place,
                                                                      neighbours(town, place), "")
    return Posses(True, f"job at {place}", place, dealer_side, defenders)


def _job_target(town: Town, target: str) -> tuple[str, str | None]:
    """The job's location and the defending player for a target location or dude id."""
    if target in town.locations:
        return target, owner(town, target)
    d = town.dude(target)
    return d.at, d.player


def _job_problem(town: Town, dealer: Dude, target: str, defender: str | None) -> str | None:
    """Why ``dealer`` may not lead the job, or ``None``."""
    if dealer.booted:
        return "the dealer boots to start a job, so must be unbooted (Jobs)"
    if target not in town.locations and defender == dealer.player:
        return "you can't target your own dudes with jobs (Jobs)"
    if target == TOWN_SQUARE:
        return "nobody owns the Town Square; a job targets a card (Jobs)"
    return None


def posse_candidates(town: Town, dealer_id: str, target: str, job: bool | None = None) -> Posses:
    """Return the posses for a call-out (``target`` a dude) or a job (``target`` a location, or ``job=True``).

    Raises ``KeyError`` for unknown ids.
    """
    is_job = job if job is not None else target in town.locations
    return job_posses(town, dealer_id, target) if is_job else call_out_posses(town, dealer_id, target)


# --------------------------------------------------------------------------- control by Influence


def influence_at(town: Town, location: str) -> dict[str, int]:
    """Each player's total Influence at ``location`` (players with dudes there; 0 counts) (Glossary, control)."""
    totals: dict[str, int] = {}
    for d in town.dudes_at(location):
        totals[d.player] = totals.get(d.player, 0) + max(0, d.influence)
    return totals


def controller(town: Town, location: str) -> str | None:
    """Return who controls ``location`` ("Controllin' Deeds", Glossary: control).

    A home is always its owner's; nobody controls the Town Square; a deed is
    controlled by the player with the most Influence there, and on a tie (even
    0-0) by its owner. Raises ``KeyError`` for a location not in play.
    """
    if location == TOWN_SQUARE:
        return None
    if location not in town.locations:
        raise KeyError(location)
    deed_owner = owner(town, location)
    if location in town.homes:
        return deed_owner
    ranked = sorted(influence_at(town, location).items(), key=lambda kv: -kv[1])
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return deed_owner
    return ranked[0][0]


def total_influence(town: Town, player: str) -> int:
    """The Influence of all ``player``'s dudes in play ("...An' All the Rest", Influence)."""
    return sum(max(0, d.influence) for d in town.dudes if d.player == player)


def control_points(town: Town, player: str) -> int:
    """The Control Points of the deeds ``player`` controls (Glossary: Control Point)."""
    deeds = [loc for loc in town.locations if loc != TOWN_SQUARE and loc not in town.homes]
    return sum(town.points_of(d) for d in deeds if controller(town, d) == player)
