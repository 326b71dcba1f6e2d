"""The game state as frozen values: vehicles on the table, the round, the players.

Every rule returns a new value (STYLE.md 2), so undo, replay and previews are free.
Poses are :class:`simulator.geometry.pose.Pose` (table frame, millimetres, degrees).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal

from simulator.frozen import fast_init, replace
from simulator.gaslands.round import Contender, RoundState
from simulator.gaslands.tables import (
    VehicleType,
    Weapon,
    Weight,
    load_vehicle_types,
    weapon_row,
)
from simulator.gaslands.tokens import ScenarioState
from simulator.geometry.articulated import trailer_pose
from simulator.geometry.pose import Pose

HANDGUN = "handgun"
"""Every vehicle counts as armed with unlimited Handguns (p.31)."""


class Status(Enum):
    """Whether a vehicle is still a vehicle (p.43-44, p.87), or not yet on the Starting Grid (p.126)."""

    UNDEPLOYED = "undeployed"
    ACTIVE = "active"
    WRECK = "wreck"
    REMOVED = "removed"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True)
class Mount:
    """A weapon fitted to a vehicle: its key, facing (front, rear, side, turret, crew) and ammo left; ``on``
    the piece of an articulated vehicle it sits on, ``"cab"`` or ``"trailer"`` (p.118)."""

    weapon: str
    facing: str = "front"
    ammo: int | None = None
    on: Literal["cab", "trailer"] = "cab"

    @classmethod
    def fitted(cls, weapon_key: str, facing: str = "front", on: Literal["cab", "trailer"] | None = None) -> Mount:
        """A new weapon with the ammo of its table row (p.81); Crew Fired weapons need no facing (p.67).
        ``on``: the piece of an articulated vehicle it sits on (default :func:`default_piece`)."""
        weapon = weapon_row(weapon_key)
        facing = "crew" if weapon.crew_fired else facing
        return cls(weapon_key, facing, weapon.ammo, on or default_piece(facing))


def default_piece(facing: str) -> Literal["cab", "trailer"]:
    """Where a weapon sits on a War Rig when its owner does not say (our reading of p.118): a rear-facing one on
    the trailer, whose rear edge is the rig's rear; every other on the cab."""
    return "trailer" if facing == "rear" else "cab"


@fast_init
@dataclass(frozen=True)
class VehicleState:
    """One vehicle: its type's statistics, where it is, and its dashboard (p.15-16).

    ``gates_passed`` counts the race gates passed in order (Death Race, p.127).
    ``glued``: the Glue Dropper affected it in its last activation, so it cannot
    in this one (p.79). An articulated vehicle (War Rig, p.116-120) has a
    trailer of ``trailer_length_mm`` x ``trailer_width_mm`` hitched to the
    cab, whose pose is ``pose``, and bent ``bend_deg`` (the trailer's heading
    minus the cab's; GEOMETRY.md 8).
    """

    id: str
    player: int
    type_key: str
    pose: Pose
    hull: int
    handling: int
    max_gear: int
    crew: int
    weight: Weight
    length_mm: float
    width_mm: float
    rules: frozenset[str] = frozenset()
    weapons: tuple[Mount, ...] = ()
    rams: frozenset[str] = frozenset()
    gear: int = 1
    hazards: int = 0
    damage: int = 0
    status: Status = Status.ACTIVE
    on_fire: bool = False
    reversing: bool = False
    crew_penalty: int = 0
    gates_passed: int = 0
    glued: bool = False
    name: str = ""
    """The vehicle's name for people (the scenario's ``name``, else its id)."""
    trailer_length_mm: float = 0.0
    trailer_width_mm: float = 0.0
    bend_deg: float = 0.0

    @property
    def has_trailer(self) -> bool:
        """Whether it is a cab with a trailer (War Rig, p.118)."""
        return self.trailer_length_mm > 0.0 and self.trailer_width_mm > 0.0

    @property
    def trailer_pose(self) -> Pose | None:
        """Where its trailer stands, hitched to the cab (None without one)."""
        if not self.has_trailer:
            return None
        return trailer_pose(self.pose, self.length_mm, self.trailer_length_mm, self.bend_deg)

    @property
    def label(self) -> str:
        """The name to show: :attr:`name`, else the id."""
        return self.name or self.id

    @classmethod
    def new(
        cls,
        vehicle_id: str,
        player: int,
        type_key: str,
        pose: Pose,
        weapons: tuple[Mount, ...] = (),
        rams: frozenset[str] = frozenset(),
    ) -> VehicleState:
        """A vehicle of a table type in Gear 1 with no tokens (p.16)."""
        t: VehicleType = load_vehicle_types()[type_key]
        return cls(
            vehicle_id, player, type_key, pose, t.hull, t.handling, t.max_gear, t.crew, t.weight,
            t.length_mm, t.width_mm, frozenset(t.special_rules), weapons, rams,
            trailer_length_mm=t.trailer_length_mm or 0.0, trailer_width_mm=t.trailer_width_mm or 0.0,
        )

    @property
    def hull_points(self) -> int:
        """Hull Points left (p.43)."""
        return max(0, self.hull - self.damage)

    @property
    def in_play(self) -> bool:
        """Still a vehicle on the table (not a wreck, removed or disqualified)."""
        return self.status is Status.ACTIVE

    @property
    def crew_now(self) -> int:
        """Crew Value after reductions until the end of the Gear Phase (p.76)."""
        return max(0, self.crew - self.crew_penalty)

    @property
    def ammo_tokens(self) -> int:
        """Ammo tokens on board, for the Explosion check (p.43)."""
        return sum(m.ammo or 0 for m in self.weapons)

    def has(self, rule: str) -> bool:
        """Whether the vehicle has the named special rule."""
        return rule in self.rules

    def weapon(self, index: int) -> tuple[str, Weapon]:
        """``(key, weapon)`` of mount ``index``; ``-1`` is a Handgun (p.31)."""
        key = HANDGUN if index < 0 else self.weapons[index].weapon
        return key, weapon_row(key)

    def contender(self) -> Contender:
        """What qualifying needs (p.19)."""
        return Contender(self.id, self.player, self.gear, self.in_play)


@dataclass(frozen=True)
class DroppedTemplate:
    """A dropped weapon's template left on the table (p.78-80).

    ``pose`` is the centre of the template's near edge, heading the way the
    template points (table frame, mm, degrees; see
    :mod:`simulator.geometry.dropped`); ``template`` names the shooting
    template (``small_burst``, ``large_burst``); ``owner`` is the vehicle that
    dropped it and ``player`` its controller. Later templates lie on top of
    earlier ones (p.78).
    """

    id: str
    weapon: str
    template: str
    pose: Pose
    owner: str
    player: int

    @property
    def rules(self) -> Weapon:
        """The weapon's table row."""
        return weapon_row(self.weapon)


@dataclass(frozen=True)
class Notes:
    """What perks and sponsor rules remember during a game (p.91-115), as named whole numbers.

    Keys name their owner and the fact (``"red-car:moment_of_glory"``,
    ``"team1:satellite_shifts"``); a missing key reads 0, and setting 0 removes
    it, so an empty value is the start of a game.
    """

    items: tuple[tuple[str, int], ...] = ()

    def get(self, key: str) -> int:
        """The value of ``key`` (0 when not set)."""
        for k, v in self.items:
            if k == key:
                return v
        return 0

    def set(self, key: str, value: int) -> Notes:
        """These notes with ``key`` set to ``value`` (removed when 0)."""
        rest = tuple((k, v) for k, v in self.items if k != key)
        return Notes(tuple(sorted((*rest, (key, value))))) if value else Notes(rest)

    def add(self, key: str, amount: int = 1) -> Notes:
        """These notes with ``amount`` added to ``key``."""
        return self.set(key, self.get(key) + amount)

    def without(self, suffix: str) -> Notes:
        """These notes without any key ending in ``suffix`` (facts that end with a step, phase or round)."""
        return Notes(tuple((k, v) for k, v in self.items if not k.endswith(suffix)))

    def keys_ending(self, suffix: str) -> tuple[str, ...]:
        """The keys ending in ``suffix``."""
        return tuple(k for k, _ in self.items if k.endswith(suffix))


@dataclass(frozen=True)
class Loadout:
    """What a vehicle was built with beyond its statistics (p.63-65): its team's sponsor, its perks and its
    upgrades as ``(key, facing)`` pairs (facing ``""`` when none), by table key. A vehicle of a scenario
    file without a team has none (:meth:`GameState.loadout` gives an empty one)."""

    vehicle: str
    sponsor: str = ""
    perks: tuple[str, ...] = ()
    upgrades: tuple[tuple[str, str], ...] = ()

    def has_perk(self, perk: str) -> bool:
        """Whether the vehicle has the perk ``perk`` (a key of ``perks.toml``)."""
        return perk in self.perks

    def upgrade_count(self, upgrade: str) -> int:
        """How many of the upgrade ``upgrade`` it has."""
        return sum(1 for key, _ in self.upgrades if key == upgrade)


@fast_init
@dataclass(frozen=True)
class GameState:
    """Everything that changes during a game, as one value."""

    players: tuple[str, ...]
    vehicles: tuple[VehicleState, ...]
    round: RoundState
    removed_obstacles: frozenset[str] = frozenset()
    winner: int | None = None
    votes: tuple[int, ...] = ()
    pole_frozen: bool = False
    dropped: tuple[DroppedTemplate, ...] = ()
    drops_made: int = 0
    gates_led: int = 0
    """The most gates any vehicle has passed this game (who is first through a gate, Catch Up, p.127)."""
    winner_vehicle: str = ""
    """The vehicle whose crossing won the race (p.62, p.128); empty if none did."""
    grid_columns: int = 0
    """Columns of the Starting Grid; 0: one per player (Death Race, p.126). A Street Race with teams uses as
    many as fit along its start line (p.62)."""
    loadouts: tuple[Loadout, ...] = ()
    """Sponsors, perks and upgrades of the vehicles built as teams (:mod:`simulator.gaslands.teams`)."""
    notes: Notes = Notes()
    """What perks and sponsor rules remember (:mod:`simulator.gaslands.perks`)."""
    scenario: ScenarioState = ScenarioState()
    """The scenario's tokens, spawn points and points (:mod:`simulator.gaslands.tokens`); empty for a race."""
    sides: tuple[int, ...] = ()
    """Team Games (p.123): each player's team, as an index into :attr:`side_names`; empty when every player
    plays alone."""
    side_names: tuple[str, ...] = ()
    """The Team Games teams' names (p.123)."""

    def side_of(self, player: int) -> int:
        """``player``'s team in a team game (p.123); without teams every player is a team of one (its index)."""
        return self.sides[player] if 0 <= player < len(self.sides) else player

    def same_side(self, a: int, b: int) -> bool:
        """Whether players ``a`` and ``b`` are team-mates (or the same player, p.123)."""
        return a == b or (bool(self.sides) and self.side_of(a) == self.side_of(b))

    def side_name(self, side: int) -> str:
        """A team's name (p.123), or the player's name without teams."""
        if self.sides:
            return self.side_names[side] if 0 <= side < len(self.side_names) else f"team {side + 1}"
        return self.players[side] if 0 <= side < len(self.players) else f"player {side + 1}"

    def side_players(self, side: int) -> tuple[int, ...]:
        """The players of team ``side`` (p.123); without teams, the one player."""
        if not self.sides:
            return (side,)
        return tuple(p for p in range(len(self.players)) if self.side_of(p) == side)

    def sides_in_play(self) -> frozenset[int]:
        """Teams (p.123; players without teams) that still control a vehicle in play or waiting to deploy."""
        return frozenset(self.side_of(p) for p in self.players_in_play())

    def next_opponent(self, player: int) -> int:
        """The next player clockwise after ``player`` who is not a team-mate (Team Games p.123: Pole Position
        and a Wipeout's pivot never go to a team-mate); ``player + 1`` without teams."""
        n = len(self.players)
        for k in range(1, n + 1):
            other = (player + k) % n
            if not self.same_side(other, player):
                return other
        return (player + 1) % max(n, 1)

    def grid_width(self) -> int:
        """Columns of the Starting Grid (:attr:`grid_columns`, else one per player)."""
        return max(1, self.grid_columns or len(self.players))

    def with_loadout(self, loadout: Loadout) -> GameState:
        """This state with ``loadout`` replacing the vehicle's (or added)."""
        rest = tuple(k for k in self.loadouts if k.vehicle != loadout.vehicle)
        return replace(self, loadouts=(*rest, loadout))

    def loadout(self, vehicle_id: str) -> Loadout:
        """The vehicle's :class:`Loadout` (an empty one for a vehicle without a team)."""
        for k in self.loadouts:
            if k.vehicle == vehicle_id:
                return k
        return Loadout(vehicle_id)

    def undeployed(self, player: int | None = None) -> tuple[VehicleState, ...]:
        """Vehicles still waiting for a Starting Grid slot (p.126), of ``player`` or of anyone."""
        return tuple(v for v in self.vehicles
                     if v.status is Status.UNDEPLOYED and (player is None or v.player == player))

    def votes_of(self, player: int) -> int:
        """Audience Votes held by ``player`` (p.88); 0 when the module is off."""
        return self.votes[player] if player < len(self.votes) else 0

    def vehicle(self, vehicle_id: str) -> VehicleState:
        """The vehicle with this id; ``KeyError`` if none."""
        for v in self.vehicles:
            if v.id == vehicle_id:
                return v
        raise KeyError(f"no vehicle {vehicle_id!r}")

    def with_vehicle(self, vehicle: VehicleState) -> GameState:
        """This state with ``vehicle`` replacing the one of the same id."""
        return replace(self, vehicles=tuple(vehicle if v.id == vehicle.id else v for v in self.vehicles))

    def with_round(self, round_state: RoundState) -> GameState:
        """This state with a new round state."""
        return replace(self, round=round_state)

    def contenders(self) -> tuple[Contender, ...]:
        """Every vehicle as qualifying sees it."""
        return tuple(v.contender() for v in self.vehicles)

    def with_dropped(self, template: DroppedTemplate) -> GameState:
        """This state with ``template`` put on top of the dropped templates (p.78)."""
        return replace(self, dropped=(*self.dropped, template), drops_made=self.drops_made + 1)

    def without_dropped(self, template_id: str) -> GameState:
        """This state with the dropped template ``template_id`` removed from play (p.79)."""
        return replace(self, dropped=tuple(t for t in self.dropped if t.id != template_id))

    def dropped_template(self, template_id: str) -> DroppedTemplate:
        """The dropped template with this id; ``KeyError`` if it has left play."""
        for t in self.dropped:
            if t.id == template_id:
                return t
        raise KeyError(f"no dropped template {template_id!r}")

    def players_in_play(self) -> frozenset[int]:
        """Players that still control a vehicle in play (or one waiting to be deployed); vehicles of nobody
        (turrets, creatures: a player index past the last) do not count."""
        n = len(self.players)
        return frozenset(v.player for v in self.vehicles
                         if (v.in_play or v.status is Status.UNDEPLOYED) and 0 <= v.player < n)
