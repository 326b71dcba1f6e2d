"""Scenario rules (p.122-175): the hook points the engine calls, and what every scenario shares.

A scenario other than a race names its rules in its file (``[scenario] rules = "flag_tag"``); the data
are a row of ``simulator/data/scenarios.toml`` (:class:`ScenarioSpec`: deployment, Pole Position, respawn,
victory, every number with its page) and the mechanics a small :class:`ScenarioRules` subclass in
:mod:`simulator.gaslands.televised`, :mod:`~simulator.gaslands.skirmishes`,
:mod:`~simulator.gaslands.special_events` or :mod:`~simulator.gaslands.highways`.

The engine (:mod:`simulator.gaslands.engine`) stays the one place that advances a game. At fixed points of
the turn it calls the scenario's hooks with itself as a :class:`Ctx` (the working copy of the state, the
referee, the dice, and ``emit`` for events); a hook changes ``ctx.state`` (a new frozen value) and says
what it did with events, each with its page. Hooks never prompt: a choice the scenario owes a player is an
:class:`Ask` the engine turns into a :class:`~simulator.gaslands.prompts.DeclarePrompt` and answers back
with :meth:`ScenarioRules.answer`. Where the game ends comes back as a :class:`Verdict`.

What every scenario shares lives here, once:

- **spawn points and deployment** (p.130): slots within Short range of the player's spawn point, facing
  the middle of the table, where the vehicle fits; vehicles waiting to deploy or respawn are placed there
  through the engine's ``deploy`` prompt;
- **tokens** (:mod:`simulator.gaslands.tokens`): picked up when a move's template or Final Position touches
  them (:attr:`ScenarioRules.pickup`), carried, left touching a wreck (:attr:`ScenarioRules.wreck_drops`),
  removed when a Collision destroys them (Destructible obstacles, p.49);
- **points**: per player, in the scenario's unit; per team in Team Games (p.123);
- **rounds**: a game that ends after N rounds is decided by the points;
- **ranges**: a range from a point, a token or a move is the nearest distance up to the shooting template's
  length (a 360-degree placement from the piece's edge, p.28-30).
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol

import shapely
from pydantic import BaseModel, ConfigDict, Field
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from simulator.gaslands.dice import DiceSource
from simulator.gaslands.events import (
    DeployedAtSpawn,
    GameEvent,
    PointsScored,
    ScenarioBegins,
    TokenDropped,
    TokenPickedUp,
    TokenPlaced,
    TokenRemoved,
    VehiclePoints,
)
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.gaslands.tokens import ScenarioState, Token
from simulator.geometry.pose import TOUCH_MM, Pose, footprint

if TYPE_CHECKING:
    from simulator.gaslands.audience import VoteChoice, VoteEffect
    from simulator.gaslands.prompts import VotesPrompt
    from simulator.gaslands.referee import MoveReport, Referee

# --------------------------------------------------------------------------- the data


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ScenarioNumber(_Frozen):
    """A number (or dice, or a range's name) of a scenario and its page."""

    value: int | float | str
    page: int = Field(gt=0)


class ScenarioTable(_Frozen):
    """A scenario's dice table: its page and its rows by roll (``"3"``: what a 3 gives)."""

    page: int = Field(gt=0)
    rows: dict[str, str]


class SpecialRule(_Frozen):
    """A scenario's special rule: its name, page and a short reminder (our words)."""

    name: str
    page: int = Field(gt=0)
    text: str


class ScenarioSpec(_Frozen):
    """One row of ``simulator/data/scenarios.toml`` (see its header)."""

    name: str
    group: Literal["Televised Events", "Wasteland Skirmishes", "Special Events", "Savage Highways"]
    pages: str
    summary: str
    deployment: Literal["spawn", "file"]
    pole: Literal["clockwise", "fixed", "sides"]
    respawn: Literal["spawn", "none", "edge", "in_place"]
    victory: Literal["last_player", "points", "escape"]
    victory_page: int = Field(gt=0)
    unit: str
    audience_votes: bool = False
    numbers: dict[str, ScenarioNumber] = Field(default_factory=dict)
    special: tuple[SpecialRule, ...] = ()
    tables: dict[str, ScenarioTable] = Field(default_factory=dict)
    """The scenario's tables (the Special Prizes Table p.134, the Loot Box Table p.140), rows by roll."""

    def number(self, name: str) -> int | float | str:
        """The value of the number ``name``; ``KeyError`` naming the scenario if it has none."""
        try:
            return self.numbers[name].value
        except KeyError:
            raise KeyError(f"{self.name} has no number {name!r} in scenarios.toml") from None

    def whole(self, name: str) -> int:
        """The number ``name`` as a whole number."""
        value = self.number(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{self.name}: {name} is {value!r}, not a whole number")
        return value

    def text(self, name: str) -> str:
        """The number ``name`` as text (a dice expression or a range's name)."""
        return str(self.number(name))

    def ref(self, rule: str = "") -> str:
        """``"Flag Tag, p.132"``: the special rule ``rule`` with its page, or the scenario with its pages."""
        for s in self.special:
            if s.name == rule:
                return f"{s.name}, p.{s.page}"
        if rule in self.numbers:
            return f"{self.name}, p.{self.numbers[rule].page}"
        return f"{self.name}, {self.pages}"

    @property
    def victory_ref(self) -> str:
        """The victory condition with its page."""
        return f"{self.name}, p.{self.victory_page}"


@cache
def scenario_specs() -> dict[str, ScenarioSpec]:
    """Every scenario's rules by key (``simulator/data/scenarios.toml``)."""
    text = (files("simulator") / "data" / "scenarios.toml").read_text("utf-8")
    return {key: ScenarioSpec.model_validate(row) for key, row in tomllib.loads(text).items()}


# --------------------------------------------------------------------------- what the engine hands a hook


class Ctx(Protocol):
    """The engine's working copy as a hook sees it: the state to change, the referee, the dice, the log."""

    state: GameState
    referee: Referee
    dice: DiceSource

    def emit(self, event: GameEvent) -> None:
        """Add an event to the log of this step."""
        ...

    def player_name(self, player: int) -> str:
        """A player's name."""
        ...

    def name(self, piece_id: str) -> str:
        """A vehicle's or a piece of terrain's name for the log."""
        ...


@dataclass(frozen=True)
class Verdict:
    """The game is over: ``winner`` (a player index; in Team Games the team's first player, p.123) or None
    (a draw, or nobody), and why, with the page."""

    winner: int | None
    reason: str
    ref: str = ""


@dataclass(frozen=True)
class Ask:
    """A choice a scenario owes a player (the engine asks it as a ``declare`` prompt): ``key`` names the
    question for the rule module, ``subject`` what it is about (a token, a vehicle)."""

    player: int
    vehicle_id: str
    rule: str
    question: str
    choices: tuple[str, ...]
    key: str
    subject: str = ""


AskPoint = Literal["deployed", "activation_start", "activation_end", "phase_start"]
"""Where the engine asks a scenario for choices: after deployment, at the start and end of an activation,
at the start of a Gear Phase."""


@dataclass(frozen=True)
class Goal:
    """Somewhere a bot's vehicle wants to be (or to avoid, with a negative ``value``), read from the state:
    a token to pick up, a spawn point to carry a flag home to, an enemy to ram."""

    x_mm: float
    y_mm: float
    value: float
    why: str = ""
    target: str = ""
    """A vehicle or token id the goal is about ("" for a place)."""
    attack: bool = False
    """An enemy to shoot or ram: worth being near and facing, or colliding with; not worth sitting against."""
    radius_mm: float = 0.0
    """How far from the point the goal reaches (a piece of terrain to ram: its size)."""


@dataclass(frozen=True)
class Objective:
    """The scenario rules of a game (``key`` of ``scenarios.toml``; empty for a race)."""

    key: str = ""

    @property
    def active(self) -> bool:
        """Whether the game has scenario rules."""
        return bool(self.key)

    @property
    def spec(self) -> ScenarioSpec:
        """The scenario's data row."""
        return scenario_specs()[self.key]

    @property
    def rules(self) -> ScenarioRules:
        """The scenario's rule module."""
        return rules_for(self.key)


NO_OBJECTIVE = Objective()


@dataclass(frozen=True)
class Layout:
    """A scenario file's layout as the rules check it (:meth:`ScenarioRules.layout_problems`): player ids,
    spawn points ``(player id, x, y)``, token and site kinds in file order, the table's size and the range
    lengths (mm)."""

    players: tuple[str, ...]
    spawns: tuple[tuple[str, float, float], ...]
    token_kinds: tuple[str, ...]
    site_kinds: tuple[str, ...]
    width_mm: float
    height_mm: float
    ranges: dict[str, float]


SPAWN_RADIUS = 10.0
"""A spawn point's radius (mm): a counter no larger than a penny (p.130)."""

# --------------------------------------------------------------------------- geometry the scenarios share


def range_mm(referee: Referee, name: str) -> float:
    """The length of the shooting template ``name`` (``short``, ``medium``, ``long``, ``double``, p.27)."""
    return referee.range_mm(name)


def vehicle_shape(v: VehicleState) -> BaseGeometry:
    """A vehicle's footprint on the table (a War Rig's cab and trailer, p.118)."""
    shape: BaseGeometry = footprint(v.pose, v.length_mm, v.width_mm)
    trailer = v.trailer_pose
    if trailer is not None:
        shape = shapely.union(shape, footprint(trailer, v.trailer_length_mm, v.trailer_width_mm))
    return shape


def move_area(v: VehicleState, report: MoveReport) -> BaseGeometry:
    """What a move covered: its template (when the referee gave it) and its Final Position (p.78, p.131), a War
    Rig's trailer included (p.118)."""
    bend = v.bend_deg if report.bend_deg is None else report.bend_deg
    end = vehicle_shape(replace(v, pose=report.pose, bend_deg=bend))
    area = report.area
    return end if area is None else shapely.union(area, end)


def token_shape(t: Token) -> BaseGeometry:
    """A token's disc."""
    return ShapelyPoint(t.x_mm, t.y_mm).buffer(t.radius_mm, 24)


def touches_token(area: BaseGeometry, t: Token) -> bool:
    """Whether ``area`` touches the token (within the touching tolerance)."""
    return bool(area.distance(ShapelyPoint(t.x_mm, t.y_mm)) <= t.radius_mm + TOUCH_MM)


def within_of_point(area: BaseGeometry, x_mm: float, y_mm: float, reach_mm: float, radius_mm: float = 0.0) -> bool:
    """Whether ``area`` comes within ``reach_mm`` of a counter of ``radius_mm`` at ``(x_mm, y_mm)``."""
    return bool(area.distance(ShapelyPoint(x_mm, y_mm)) <= reach_mm + radius_mm + TOUCH_MM)


def table_centre(referee: Referee) -> tuple[float, float]:
    """The middle of the table (an open table: the origin)."""
    t = referee.terrain()
    return (0.0, 0.0) if t is None else (t.width_mm / 2.0, t.height_mm / 2.0)


def clear_point(referee: Referee, state: GameState, x_mm: float, y_mm: float, radius_mm: float,
                avoid_vehicles: bool = True) -> bool:
    """Whether a token of ``radius_mm`` at the point is on the table and touches no terrain (nor a vehicle)."""
    disc = ShapelyPoint(x_mm, y_mm).buffer(radius_mm, 16)
    t = referee.terrain()
    if t is not None:
        if not t.area.contains(disc):
            return False
        if any(disc.distance(o.polygon) <= TOUCH_MM for o in t.all_obstacles
               if o.id not in state.removed_obstacles):
            return False
    if avoid_vehicles:
        for v in state.vehicles:
            if (v.in_play or v.status is Status.WRECK) and disc.distance(vehicle_shape(v)) <= TOUCH_MM:
                return False
    others = [token_shape(o) for o in state.scenario.tokens if o.on_table and o.obstacle]
    return not any(disc.distance(o) <= TOUCH_MM for o in others)


def nearest_clear(referee: Referee, state: GameState, x_mm: float, y_mm: float, radius_mm: float,
                  max_mm: float = 200.0, avoid_vehicles: bool = True) -> tuple[float, float] | None:
    """The clear point nearest ``(x_mm, y_mm)`` within ``max_mm`` (rings of 8 directions every 10 mm)."""
    if clear_point(referee, state, x_mm, y_mm, radius_mm, avoid_vehicles):
        return (x_mm, y_mm)
    step = 10.0
    r = step
    while r <= max_mm:
        for k in range(16):
            a = math.radians(22.5 * k)
            x, y = x_mm + r * math.cos(a), y_mm + r * math.sin(a)
            if clear_point(referee, state, x, y, radius_mm, avoid_vehicles):
                return (x, y)
        r += step
    return None


def beside(v: VehicleState, radius_mm: float, k: int) -> tuple[float, float]:
    """A point for a token touching ``v``: ``k`` walks round it (left side, right side, rear, front, corners)."""
    half_l, half_w = v.length_mm / 2.0, v.width_mm / 2.0
    spots = [(0.0, half_w + radius_mm), (0.0, -half_w - radius_mm), (-half_l - radius_mm, 0.0),
             (half_l + radius_mm, 0.0), (-half_l / 2.0, half_w + radius_mm), (-half_l / 2.0, -half_w - radius_mm),
             (half_l / 2.0, half_w + radius_mm), (half_l / 2.0, -half_w - radius_mm)]
    dx, dy = spots[k % len(spots)]
    h = math.radians(v.pose.heading_deg)
    return (v.pose.x_mm + dx * math.cos(h) - dy * math.sin(h), v.pose.y_mm + dx * math.sin(h) + dy * math.cos(h))


DICE_EXPR = re.compile(r"^(\d*)D6(?:\+(\d+))?$")


def roll_expression(dice: DiceSource, text: str) -> tuple[int, tuple[int, ...]]:
    """Roll ``"2D6"``, ``"D6+6"`` or read ``"6"``: ``(total, the dice rolled)``."""
    if text.isdigit():
        return int(text), ()
    m = DICE_EXPR.match(text.replace(" ", "").upper())
    if m is None:
        raise ValueError(f"not a dice expression: {text!r}")
    rolls = dice.roll_d6(int(m.group(1) or 1))
    return sum(rolls) + int(m.group(2) or 0), rolls


COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")
"""Eight directions, counter-clockwise from east (the table's +x); north is +y."""


# --------------------------------------------------------------------------- the rules every scenario shares


class ScenarioRules:
    """A scenario's mechanics (see the module docstring). Subclasses set :attr:`key` and override hooks;
    every hook here does what the scenarios share or nothing."""

    key: ClassVar[str] = ""
    pickup: ClassVar[frozenset[str]] = frozenset()
    """Token kinds a vehicle picks up when its move's template or Final Position touches them."""
    wreck_drops: ClassVar[frozenset[str]] = frozenset()
    """Carried token kinds left touching a vehicle when it is Wrecked (p.131, p.139, p.146, p.147)."""

    @property
    def spec(self) -> ScenarioSpec:
        """The scenario's data row."""
        return scenario_specs()[self.key]

    def ref(self, rule: str = "") -> str:
        """A special rule (or the scenario) with its page."""
        return self.spec.ref(rule)

    # ------------------------------------------------------------------ setting up

    token_kinds: ClassVar[frozenset[str]] = frozenset()
    """Token kinds a scenario file of these rules may lay out (``[[token]]`` and ``[[site]]``)."""
    spawn_edge: ClassVar[str] = "medium"
    """A spawn point lies within this range of a table edge (p.130)."""
    spawn_apart: ClassVar[str] = "double"
    """and further than this from any other spawn point (p.130)."""

    def layout_problems(self, layout: Layout) -> list[tuple[str, str]]:
        """What is wrong with a scenario file's layout for these rules: ``(where, why)`` pairs naming the
        table and key (a spawn point too far from an edge or too near another, a token of an unknown kind)."""
        out: list[tuple[str, str]] = []
        ref = self.ref()
        if self.spec.deployment == "spawn":
            have = {p for p, _, _ in layout.spawns}
            for p in layout.players:
                if p not in have:
                    out.append(("spawn", f"player {p!r} has no [[spawn]] point ({ref})"))
            edge = layout.ranges[self.spawn_edge]
            apart = layout.ranges[self.spawn_apart]
            for i, (player, x, y) in enumerate(layout.spawns, 1):
                if player not in layout.players:
                    out.append((f"spawn[{i}].player", f"no [[player]] with id {player!r}"))
                gap = min(x, y, layout.width_mm - x, layout.height_mm - y)
                if gap > edge + 1e-6:
                    out.append((f"spawn[{i}]", f"{gap:.0f} mm from the nearest table edge: a spawn point lies "
                                               f"within {self.spawn_edge.title()} range ({edge:.0f} mm) of an edge "
                                               f"({ref})"))
                for j, (_, x2, y2) in enumerate(layout.spawns[:i - 1], 1):
                    d = math.hypot(x - x2, y - y2) - 2.0 * SPAWN_RADIUS
                    if d <= apart:
                        out.append((f"spawn[{i}]", f"{d:.0f} mm from spawn[{j}]: spawn points are more than "
                                                   f"{self.spawn_apart.title()} range ({apart:.0f} mm) apart ({ref})"))
        for i, kind in enumerate(layout.token_kinds, 1):
            if kind not in self.token_kinds:
                known = ", ".join(sorted(self.token_kinds)) or "none"
                out.append((f"token[{i}].kind", f"{self.spec.name} has no {kind!r} tokens (known: {known})"))
        for i, kind in enumerate(layout.site_kinds, 1):
            if kind not in self.token_kinds:
                out.append((f"site[{i}].kind", f"{self.spec.name} places no {kind!r} tokens"))
        return out

    def begin(self, ctx: Ctx) -> None:
        """The game begins: say what the scenario is (and lay out what it lays out at the start)."""
        counts: dict[str, int] = {}
        for t in ctx.state.scenario.tokens:
            counts[t.kind] = counts.get(t.kind, 0) + 1
        spec = self.spec
        terrain = ctx.referee.terrain()
        if terrain is not None:
            self.note(ctx, "table_size", f"{terrain.width_mm:g},{terrain.height_mm:g}")
        ctx.emit(ScenarioBegins(spec.name, spec.summary, tuple(sorted(counts.items())), f"{spec.name}, {spec.pages}"))

    def waiting_to_deploy(self, state: GameState) -> tuple[str, ...]:
        """Vehicles the players place now through the ``deploy`` prompt (default: every vehicle waiting)."""
        return tuple(v.id for v in state.undeployed())

    def deploy_slots(self, state: GameState, referee: Referee, player: int) -> tuple[int, ...]:
        """The spawn slots (p.130) open to one of ``player``'s waiting vehicles."""
        waiting = [v for v in state.undeployed(player) if v.id in self.waiting_to_deploy(state)]
        return tuple(k for k in range(SPAWN_SLOTS)
                     if any(self.deploy_pose(state, referee, v.id, k) is not None for v in waiting))

    def deploy_pose(self, state: GameState, referee: Referee, vehicle_id: str, slot: int) -> Pose | None:
        """Where ``vehicle_id`` stands in spawn slot ``slot`` (within Short range of its spawn point, facing
        the middle of the table, p.130), or None if it does not fit there."""
        v = state.vehicle(vehicle_id)
        spawn = state.scenario.spawn(v.player)
        if spawn is None:
            return None
        pose = spawn_slot_pose(spawn.x_mm, spawn.y_mm, table_centre(referee), slot)
        reach = referee.range_mm("short") + spawn.radius_mm
        if vehicle_shape(replace(v, pose=pose)).distance(ShapelyPoint(spawn.x_mm, spawn.y_mm)) > reach:
            return None
        return pose if referee.fits(state, vehicle_id, pose) else None

    def slot_label(self, slot: int) -> str:
        """A spawn slot in words (``"on the spawn point"``, ``"north-east, close"``)."""
        if slot == 0:
            return "on the spawn point"
        ring, k = divmod(slot - 1, 8)
        return f"{COMPASS[k]}, {'close' if ring == 0 else 'further'}"

    def deployed_vehicle(self, ctx: Ctx, vehicle_id: str, pose: Pose) -> None:
        """A vehicle has been placed at its spawn point: deployment, or a respawn (p.90, p.130)."""
        respawn = ctx.state.scenario.note(f"respawn:{vehicle_id}") == "1"
        if respawn:
            ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_note(f"respawn:{vehicle_id}", ""))
        ctx.emit(DeployedAtSpawn(vehicle_id, ctx.name(vehicle_id), pose, respawn, self.ref("deployment")
                                 if "deployment" in self.spec.numbers else f"{self.spec.name}, {self.spec.pages}"))

    # ------------------------------------------------------------------ asking

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        """A choice owed at ``point`` (None when there is none left to ask)."""
        return None

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        """Apply the answer ``choice`` to ``ask``."""

    # ------------------------------------------------------------------ the turn

    def start_of_phase(self, ctx: Ctx) -> None:
        """A Gear Phase begins (after Pole Position passed): redeploy flags, bring vehicles back (p.132, p.138)."""

    def start_of_round(self, ctx: Ctx) -> None:
        """A round begins (Gear Phase 1): Commercial Break (p.148, p.151)."""

    def start_of_activation(self, ctx: Ctx, vehicle_id: str) -> None:
        """A vehicle's activation begins (Into the Danger Zone, p.153)."""

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        """The vehicle was put where ``report`` says (a Movement Step's move when ``movement``; else a forced
        move, a Spin or a pivot): pick up what it touched."""
        self.pick_up(ctx, vehicle_id, report)

    def end_of_movement_step(self, ctx: Ctx, vehicle_id: str) -> None:
        """The active vehicle's Movement Step has ended, before its Attack Step (gun turrets, p.130)."""

    def start_of_wipeout_step(self, ctx: Ctx, vehicle_id: str) -> None:
        """The active vehicle's Wipeout Step begins (Auto-defense, p.146)."""

    def after_collision(self, ctx: Ctx, active_id: str, other_id: str, obstacle: bool, smashes: tuple[bool, bool],
                        damage: dict[str, int]) -> None:
        """A Collision was resolved (``smashes``: whether the active and the passive side declared a Smash
        Attack; ``damage``:
        Hull Points each vehicle lost). A token that was a Destructible obstacle is gone (p.49)."""
        if obstacle and ctx.state.scenario.has_token(other_id) and other_id in ctx.state.removed_obstacles:
            t = ctx.state.scenario.token(other_id)
            self.remove_token(ctx, t, f"{ctx.name(active_id)} collided with it (a Destructible obstacle, p.49)")

    def on_wreck(self, ctx: Ctx, vehicle_id: str, exploded: bool) -> None:
        """A vehicle was Wrecked (p.43): leave its carried tokens touching the wreck."""
        self.drop_all(ctx, vehicle_id, "it is Wrecked", self.wreck_drops)

    def after_activation(self, ctx: Ctx, vehicle_id: str) -> tuple[str, int] | None:
        """After an activation: ``(vehicle, player)`` that activates at once, driven by ``player`` (Enraged
        creatures p.144), or None."""
        return None

    def observe(self, ctx: Ctx, event: GameEvent) -> None:
        """Every event the engine emits, as it is emitted (here: note the active vehicle and number the
        activations, for rules used once per activation; subclasses call this first)."""
        from simulator.gaslands.events import Activated

        if isinstance(event, Activated):
            n = ctx.state.scenario.note_int("activation") + 1
            ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_note("activation", n)
                                .with_note("active", event.vehicle).with_note("step", f"{n}:move"))

    def token_destroyed(self, ctx: Ctx, token: Token, by: str) -> None:
        """A token that may be shot at lost its last Hull Point to ``by``'s attack: it leaves play."""
        self.remove_token(ctx, token, f"destroyed by {ctx.name(by)}")

    def driven(self, ctx: Ctx, vehicle_id: str, player: int) -> None:
        """A vehicle of nobody is about to activate, driven by ``player`` (set its Gear, p.144, p.153)."""

    def undriven(self, ctx: Ctx, vehicle_id: str) -> None:
        """A driven vehicle's activation is over and it belongs to nobody again."""

    # ------------------------------------------------------------------ what the engine asks

    def distracted(self, state: GameState, vehicle_id: str) -> bool:
        """Whether the scenario distracts the vehicle (toxic clouds, p.146)."""
        return False

    def shot_blocked(self, state: GameState, attacker_id: str, target_id: str) -> str:
        """Why ``attacker_id`` may not shoot ``target_id`` ("" if it may)."""
        return ""

    def shootable(self, state: GameState, attacker_id: str) -> tuple[Token, ...]:
        """Tokens ``attacker_id`` may shoot at (turrets, p.130, p.146)."""
        return ()

    def token_evade_gear(self, token: Token) -> int:
        """The Gear a token Evades in (0: it does not Evade)."""
        return 0

    def reroll_misses(self, state: GameState, referee: Referee, attacker_id: str, target_id: str) -> bool:
        """Whether this shooting attack re-rolls its misses (Close Range, p.151)."""
        return False

    def always_explodes(self, state: GameState, vehicle_id: str) -> bool:
        """Whether the vehicle Explodes when Wrecked whatever the roll (p.151)."""
        return False

    def always_smashes(self, state: GameState, vehicle_id: str) -> bool:
        """Whether the vehicle must declare a Smash Attack in a Collision (creatures, p.144)."""
        return not 0 <= state.vehicle(vehicle_id).player < len(state.players)

    def vote_choices(self, state: GameState, player: int) -> tuple[VoteChoice, ...]:
        """Audience Vote effects the scenario adds (p.151, p.152)."""
        return ()

    def spend(self, ctx: Ctx, player: int, effect: VoteEffect) -> tuple[str, int] | None:
        """Apply a scenario vote effect; ``(vehicle, player)`` to activate at once (Truckasaurus Lives), or None."""
        return None

    def leaves_table(self, ctx: Ctx, vehicle_id: str, report: MoveReport) -> bool:
        """A move that would disqualify the vehicle for leaving the table (p.87): True when the scenario takes
        it instead (an exit edge, p.137), having changed the vehicle as its rules say."""
        return False

    def cannot_wreck(self, state: GameState, vehicle_id: str) -> bool:
        """Whether the vehicle stays in play at zero Hull Points (Unlikely Stamina, p.167)."""
        return False

    def no_push_it(self, state: GameState, vehicle_id: str) -> bool:
        """Whether the vehicle may not Push It (Truckasaurus, p.152)."""
        return False

    def pivot_at_start(self, ctx: Ctx, vehicle_id: str) -> float | None:
        """A facing the vehicle pivots to at the start of its activation (Roar, p.144), or None."""
        return None

    def no_tanker_anchor(self, state: GameState, vehicle_id: str) -> bool:
        """Whether the vehicle may not use the Tanker Anchor (Desperate Flight, p.174)."""
        return False

    # ------------------------------------------------------------------ score and end

    def score(self, state: GameState) -> tuple[int, ...]:
        """Each player's score in the scenario's unit (default: their points)."""
        return tuple(state.scenario.points_of(p) for p in range(len(state.players)))

    def side_scores(self, state: GameState) -> dict[int, int]:
        """Each team's score (p.123: a team scores what its players score); each player without teams."""
        out: dict[int, int] = {}
        for p, n in enumerate(self.score(state)):
            side = state.side_of(p)
            out[side] = out.get(side, 0) + n
        return out

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """Whether the game is over now (``phase_end``: a Gear Phase has just ended)."""
        return None

    def most_points(self, state: GameState, why: str) -> Verdict:
        """The team (or player) with the most points wins; a tie has no winner (p.123)."""
        scores = self.side_scores(state)
        if not scores:
            return Verdict(None, why, self.spec.victory_ref)
        best = max(scores.values())
        top = sorted(s for s, n in scores.items() if n == best)
        unit = self.spec.unit
        if len(top) > 1:
            names = " and ".join(state.side_name(s) for s in top)
            return Verdict(None, f"{why}: {names} tie on {best} {unit}", self.spec.victory_ref)
        return Verdict(state.side_players(top[0])[0], f"{why}: {state.side_name(top[0])} has the most {unit} ({best})",
                       self.spec.victory_ref)

    def first_to(self, state: GameState, target: int, what: str) -> Verdict | None:
        """The first team (or player) to ``target`` points wins at once."""
        for side, n in sorted(self.side_scores(state).items()):
            if n >= target:
                return Verdict(state.side_players(side)[0],
                               f"{state.side_name(side)} reached {n} {self.spec.unit}{what}", self.spec.victory_ref)
        return None

    def rounds_over(self, state: GameState, rounds: int) -> bool:
        """Whether ``rounds`` rounds have been played (the game is in round ``rounds + 1``)."""
        return state.round.round_no > rounds

    def standings(self, state: GameState) -> tuple[str, ...]:
        """Vehicle ids, best first: by their team's score, then in play before out."""
        scores = self.side_scores(state)
        order = sorted(state.vehicles, key=lambda v: (-scores.get(state.side_of(v.player), 0),
                                                      not v.in_play, state.vehicles.index(v)))
        return tuple(v.id for v in order)

    # ------------------------------------------------------------------ bots

    def advise(self, state: GameState, referee: Referee, ask: Ask) -> str:
        """What a bot answers to one of the scenario's questions (reading the state only): the first choice."""
        return ask.choices[0]

    def advise_votes(self, state: GameState, referee: Referee, prompt: VotesPrompt) -> tuple[VoteEffect, ...]:
        """The scenario's own vote effects a bot buys now (none by default)."""
        return ()

    def saves_votes(self, state: GameState, player: int) -> bool:
        """Whether a bot playing ``player`` keeps its Audience Votes for the scenario's own effect instead of
        shedding Hazard Tokens with them (Truckasaurus Lives, p.152). False by default."""
        return False

    def wants(self, state: GameState, vehicle_id: str) -> frozenset[str]:
        """What a bot driving ``vehicle_id`` should seek besides its goals: ``"hazardous"`` (a Hazardous
        template), ``"top_gear"``, ``"fast"`` (Gear 3 or more), ``"no_hazards"`` (shed every Hazard Token),
        ``"t_bone"`` (a T-Bone ram). None by default."""
        return frozenset()

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """Where a bot's vehicle wants to go (default: towards the nearest enemy vehicle, to fight)."""
        v = state.vehicle(vehicle_id)
        return tuple(Goal(e.pose.x_mm, e.pose.y_mm, 1.0, "an enemy", e.id, attack=True) for e in enemies(state, v))

    # ------------------------------------------------------------------ shared mechanics

    def pick_up(self, ctx: Ctx, vehicle_id: str, report: MoveReport) -> tuple[Token, ...]:
        """Every token of :attr:`pickup` kinds the move touched, onto the vehicle's dashboard (p.131)."""
        v = ctx.state.vehicle(vehicle_id)
        if not self.pickup or not v.in_play:
            return ()
        area = move_area(v, report)
        got = []
        for t in ctx.state.scenario.on_table():
            if t.kind in self.pickup and not t.obstacle and touches_token(area, t) and self.may_pick_up(
                    ctx.state, v, t):
                got.append(t)
        for t in got:
            ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t.carried_by(vehicle_id)))
            ctx.emit(TokenPickedUp(vehicle_id, v.label, t.id, t.name, t.kind, self.pickup_ref(t)))
            self.picked_up(ctx, vehicle_id, ctx.state.scenario.token(t.id))
        return tuple(got)

    def pickup_ref(self, token: Token) -> str:
        """The rule a pick-up follows."""
        return self.ref()

    def may_pick_up(self, state: GameState, vehicle: VehicleState, token: Token) -> bool:
        """Whether ``vehicle`` may pick ``token`` up."""
        return True

    def picked_up(self, ctx: Ctx, vehicle_id: str, token: Token) -> None:
        """After a pick-up (a Loot Box, p.140; a zombie collected, p.142)."""

    def drop_all(self, ctx: Ctx, vehicle_id: str, why: str, kinds: frozenset[str]) -> None:
        """Put the vehicle's carried tokens of ``kinds`` on the table touching it (p.131)."""
        v = ctx.state.vehicle(vehicle_id)
        for k, t in enumerate(ctx.state.scenario.carried(vehicle_id)):
            if t.kind not in kinds:
                continue
            x, y = beside(v, t.radius_mm, k)
            placed = t.put(x, y)
            ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(placed))
            ctx.emit(TokenDropped(vehicle_id, v.label, t.id, t.name, t.kind, x, y, why, self.pickup_ref(t)))

    def place_token(self, ctx: Ctx, token: Token, why: str, ref: str = "") -> None:
        """Put a new (or moved) token on the table and say so."""
        ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(token))
        ctx.emit(TokenPlaced(token.id, token.name, token.kind, token.x_mm, token.y_mm, why, ref or self.ref()))

    def remove_token(self, ctx: Ctx, token: Token, why: str, ref: str = "") -> None:
        """Take a token out of play and say so."""
        ctx.state = replace(ctx.state, scenario=ctx.state.scenario.without_token(token.id))
        ctx.emit(TokenRemoved(token.id, token.name, token.kind, why, ref or self.ref()))

    def gain_votes(self, ctx: Ctx, player: int, n: int, why: str) -> None:
        """``player`` gains ``n`` Audience Votes (when the game uses them, p.88)."""
        from simulator.gaslands.events import VotesGained

        if n <= 0 or not 0 <= player < len(ctx.state.players) or not ctx.state.votes:
            return
        votes = tuple(v + n if i == player else v for i, v in enumerate(ctx.state.votes))
        ctx.state = replace(ctx.state, votes=votes)
        ctx.emit(VotesGained(player, ctx.player_name(player), n, why))

    def score_points(self, ctx: Ctx, player: int, n: int, why: str, ref: str = "", vehicle: str = "") -> None:
        """``player`` gains ``n`` points in the scenario's unit."""
        if n == 0 or not 0 <= player < len(ctx.state.players):
            return
        scen = ctx.state.scenario.add_points(player, n, len(ctx.state.players))
        ctx.state = replace(ctx.state, scenario=scen)
        ctx.emit(PointsScored(player, ctx.player_name(player), n, scen.points_of(player), self.spec.unit, why,
                              ref or self.spec.victory_ref, vehicle))

    def vehicle_points(self, ctx: Ctx, vehicle_id: str, n: int, why: str, ref: str = "") -> None:
        """The vehicle gains (or loses) ``n`` points of its own (Salvage Points, p.135)."""
        if n == 0:
            return
        total = ctx.state.scenario.vehicle_points_of(vehicle_id) + n
        ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_vehicle_points(vehicle_id, total))
        ctx.emit(VehiclePoints(vehicle_id, ctx.name(vehicle_id), n, total, self.spec.unit, why, ref or self.ref()))

    def note(self, ctx: Ctx, key: str, value: str | int) -> None:
        """Record one of the scenario's own values."""
        ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_note(key, value))

    def activation_stamp(self, state: GameState) -> str:
        """Names the activation under way (for rules used once per activation)."""
        return state.scenario.note("activation", "0")

    def step_stamp(self, state: GameState) -> str:
        """Names the step under way (``"12:attack"``: the Attack Step of the 12th activation)."""
        return state.scenario.note("step", self.activation_stamp(state) + ":move")

    def phase_stamp(self, state: GameState) -> str:
        """Names the Gear Phase under way (``"2.3"``: round 2, Gear Phase 3)."""
        return f"{state.round.round_no}.{state.round.gear_phase}"

    def respawn_at_spawn(self, ctx: Ctx, vehicle_id: str) -> None:
        """Take a vehicle out of play back to its spawn point to be placed again, with half its Hull (p.90)."""
        v = ctx.state.vehicle(vehicle_id)
        fresh = replace(v, status=Status.UNDEPLOYED, damage=v.hull - v.hull // 2, gear=1, hazards=0, on_fire=False)
        ctx.state = replace(ctx.state.with_vehicle(fresh),
                            scenario=ctx.state.scenario.with_note(f"respawn:{vehicle_id}", "1"))


SPAWN_SLOTS = 17
"""Spawn slots: on the spawn point, then two rings of eight round it (p.130)."""

SLOT_RINGS_MM = (45.0, 90.0)
"""How far the centres of the two rings of spawn slots are from the spawn point."""


def spawn_slot_pose(x_mm: float, y_mm: float, centre: tuple[float, float], slot: int) -> Pose:
    """The pose of spawn slot ``slot`` round a spawn point at ``(x_mm, y_mm)``, facing ``centre``."""
    heading = math.degrees(math.atan2(centre[1] - y_mm, centre[0] - x_mm)) if (x_mm, y_mm) != centre else 0.0
    if slot == 0:
        return Pose(x_mm, y_mm, heading % 360.0)
    ring, k = divmod(slot - 1, 8)
    r = SLOT_RINGS_MM[min(ring, len(SLOT_RINGS_MM) - 1)]
    a = math.radians(45.0 * k)
    return Pose(x_mm + r * math.cos(a), y_mm + r * math.sin(a), heading % 360.0)


def enemies(state: GameState, v: VehicleState) -> tuple[VehicleState, ...]:
    """Vehicles in play of other teams (p.123) than ``v``'s, nearest first."""
    out = [e for e in state.vehicles if e.in_play and e.id != v.id and 0 <= e.player < len(state.players)
           and not state.same_side(e.player, v.player)]
    return tuple(sorted(out, key=lambda e: (math.dist(e.pose[:2], v.pose[:2]), e.id)))


def vehicles_of(state: GameState, player: int) -> tuple[VehicleState, ...]:
    """``player``'s vehicles (any status)."""
    return tuple(v for v in state.vehicles if v.player == player)


def with_scenario(state: GameState, scenario: ScenarioState) -> GameState:
    """``state`` with a new scenario state."""
    return replace(state, scenario=scenario)


def plural(n: int, word: str) -> str:
    """``"1 flag"``, ``"2 flags"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


# --------------------------------------------------------------------------- the registry


class _NoRules(ScenarioRules):
    """A race or a free game: no scenario rules."""


@cache
def rules_for(key: str) -> ScenarioRules:
    """The rule module of scenario ``key`` (``KeyError`` naming the known keys)."""
    if not key:
        return _NoRules()
    from simulator.gaslands import highways, skirmishes, special_events, televised

    known: dict[str, type[ScenarioRules]] = {}
    for module in (televised, skirmishes, special_events, highways):
        for cls in module.RULES:
            known[cls.key] = cls
    if key not in known:
        raise KeyError(f"unknown scenario rules {key!r}; known: {', '.join(sorted(known))}")
    return known[key]()


def known_keys() -> tuple[str, ...]:
    """Every scenario key of the data."""
    return tuple(scenario_specs())


def points_line(state: GameState, rules: ScenarioRules) -> str:
    """``"Red 2, Blue 1 Victory Points"``: the score in one line."""
    scores = rules.side_scores(state)
    parts = [f"{state.side_name(s)} {n}" for s, n in sorted(scores.items())]
    return ", ".join(parts) + f" {rules.spec.unit}"


def stamped(state: GameState, key: str, stamp: str) -> bool:
    """Whether note ``key`` already holds ``stamp`` (a rule used once per step, phase or activation)."""
    return state.scenario.note(key) == stamp


__all__ = [
    "Ask", "AskPoint", "Ctx", "Goal", "NO_OBJECTIVE", "Objective", "ScenarioRules", "ScenarioSpec", "Verdict",
    "beside", "clear_point", "enemies", "move_area", "nearest_clear", "points_line", "range_mm", "roll_expression",
    "rules_for", "scenario_specs", "spawn_slot_pose", "stamped", "table_centre", "touches_token", "vehicle_shape",
    "vehicles_of", "within_of_point",
]
