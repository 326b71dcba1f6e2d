"""A bot that answers every prompt legally and sensibly, deterministically.

:class:`Bot` drives towards the Finish Line (Street Race, p.62) or the next
gate (Death Race, p.127) and shoots what it can:

- **template**: every permitted template (p.22), both ways round for the
  turning ones, is placed where the template alone would put the vehicle and
  scored; the best are resolved with the referee (the real geometry on a
  :class:`~simulator.gaslands.table_referee.TableReferee`), at most
  :data:`MAX_RESOLVED`, until one beats every score left. The score is the
  position along the course (:meth:`Navigator.position`: the legs between the
  gates round the obstacles, continuous as a gate is passed, p.127) plus a
  bonus per gate passed and for lining up, minus collisions (gate posts and
  obstacles by weight, team-mates twice), hazardous surfaces (p.86) and
  Hazardous manoeuvres (p.38); leaving the table is never chosen (p.87).
  Reversing (p.39) is tried only when nothing moves it forward;
- **skid dice / Push It / Shifts**: it aims for a cruising gear (3, or 4 when
  lined up with a clear run), rolls fewer dice the more Hazard Tokens it has
  and none from 4 up, pushes only with few tokens, cancels Hazard, Spin and
  Slide results first and sheds tokens with spare Shifts (p.22-24, p.40);
- **reactions**: Smash enemies while healthy, Evade team-mates or when low (p.53);
- **attacks**: every weapon with a target, then Handguns up to the crew (p.30-31),
  at enemies, preferring no Cover (p.42) and the weakest; Blitz weapons as
  often as their ammo allows (p.81); no Splash attack that would catch a
  team-mate (p.82); a dropped weapon (p.78) when an enemy follows close
  behind (or alongside, for a side mount), before the Handguns;
- **moves** that cross dropped templates (p.78-80) score lower;
- an opponent's choices (Touch It Use It, Lose Control) are made to hurt;
  Pole Position goes to the player furthest behind (p.125);
- **scenarios** (p.130-175): moves are scored by the scenario's goals
  (:meth:`~simulator.gaslands.objectives.ScenarioRules.goals`: a flag to pick
  up, a spawn point to carry it home to, an enemy to ram, a turret to keep
  away from), by distance round the obstacles and with a bonus for touching
  a goal; the scenario's own questions are answered with its advice
  (:meth:`~simulator.gaslands.objectives.ScenarioRules.advise`).

The same game and prompt always give the same answer.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import assert_never

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon

from simulator.errors import IllegalChoice
from simulator.gaslands.audience import CROSSROADS, GHOST_RIDER, VoteEffect
from simulator.gaslands.collisions import Reaction
from simulator.gaslands.decisions import (
    Activate,
    Attack,
    ChooseTemplate,
    Decision,
    Declare,
    DeclareAttacks,
    Deploy,
    Drop,
    DropEdge,
    LoseControl,
    PassPole,
    Piledrive,
    Pivot,
    PushIt,
    React,
    RollSkid,
    Side,
    SlideFacing,
    SpendShifts,
    SpendVotes,
    Spin,
    SwingTrailer,
    Teleport,
)
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.events import Moved, PassedGates
from simulator.gaslands.game import Game
from simulator.gaslands.objectives import Goal, move_area
from simulator.gaslands.perks import bot as perk_bot
from simulator.gaslands.permitted import STRAIGHTS, Manoeuvre
from simulator.gaslands.prompts import (
    ActivatePrompt,
    AttacksPrompt,
    DeclarePrompt,
    DeployPrompt,
    GameOverPrompt,
    LoseControlPrompt,
    PassPolePrompt,
    PiledriverPrompt,
    PivotPrompt,
    PushItPrompt,
    ReactPrompt,
    ShiftsPrompt,
    SkidPrompt,
    SlideFacingPrompt,
    SpinPrompt,
    SwingTrailerPrompt,
    TeleportPrompt,
    TemplatePrompt,
    VotesPrompt,
)
from simulator.gaslands.race import Course, advance
from simulator.gaslands.ramps import JUMP_HAZARDS, TUMBLE_TEMPLATE, jump_template
from simulator.gaslands.referee import MovePlan, MoveReport
from simulator.gaslands.skid import ShiftUse, SkidRoll, SpendShift
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.gaslands.table_referee import finish_gate
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.table import Gate, Table

CELL_MM = 10.0
"""Resolution of the navigation field."""

CLEARANCE_MM = 20.0
"""Obstacles and the table edge are widened by this for the navigation field (about half a car)."""

UNREACHABLE = 1.0e5
PASS_BONUS_MM = 150.0
"""A gate passed is worth this much course on top of the distance it gains (so passing beats stopping short)."""
APPROACH_MM = 40.0
"""A target line is reached from this far before it, on its correct side; the line itself is a wall."""

SCREEN_SLACK = 20.0
"""Added to a nominal score before comparing it with resolved ones."""
MAX_RESOLVED = 6
"""The most moves the bot resolves with the real geometry per template choice (best nominal scores first)."""
FINISH_BONUS = 1.0e6

CIRCLING_MOVES = 8
"""A vehicle whose last this many Movement Steps passed no gate (p.127) yet turned it through
:data:`CIRCLE_DEG` or more is going round in circles (beside a gate it cannot turn into, say): its bot changes
plan (:meth:`Bot._circling`). Any lap of a course passes gates on the way round."""
CIRCLE_DEG = 360.0
CIRCLING_LOOKBACK = 800
"""The most log events read back for them."""
RECOVERY_GEAR = 2
"""The cruising gear of a vehicle going round in circles: its tight turns (Hard, Hairpin) are permitted (p.18)."""

CONTACT_PENALTY = {"heavyweight": 400.0, "middleweight": 300.0, "lightweight": 120.0}
"""Score lost for a move that collides with an obstacle of this weight (gate posts are middleweight, p.124):
a Collision costs Hull Points and Hazard Tokens and can end in a Wipeout (p.52-57, p.34)."""
TUMBLE_PENALTY = 600.0
"""What a Tumble off a ramp costs: a 4D6 attack and a Wipeout (p.87, p.34)."""
VEHICLE_CONTACT_PENALTY = 200.0
"""Score lost for a move that collides with another vehicle (twice that for a team-mate)."""

DROPPED_PENALTY = 70.0
SURFACE_PENALTY = {"rough": 40.0, "treacherous": 80.0}
"""Score lost for a move that ends on (or crosses) a hazardous surface of this kind (p.86)."""
"""Score lost per dropped template a move touches (p.78-80)."""

FOLLOW_MM = 150.0
"""An enemy whose footprint is this close behind (or beside) a vehicle is worth dropping something on."""

GOAL_REACH_MM = 2000.0
"""A scenario goal is worth its value times (this less the distance to it): nearer is better, up to here."""
GOAL_TOUCH_MM = 400.0
"""A move that touches a goal (picks up the flag, rams the enemy) is worth this much more per unit of value."""
AVOID_MM = 180.0
"""A goal of negative value (a turret, one's own flag) costs only within this distance."""
ATTACK_RANGE_MM = 80.0
"""Nearer an enemy than this is no better (in range of any weapon, p.28)."""
FACING_BONUS = 150.0
"""What facing an enemy near by is worth per unit of value (front-mounted weapons, p.29)."""
DETOUR_MM = 300.0
"""Added to the distance to an enemy with an obstacle on the straight line between."""
STUCK_PENALTY = 150.0
WANT_BONUS = 250.0
"""What meeting the scenario's wish (a Special Prize's condition, p.134) is worth to a move."""
"""A move that ends against something without a Collision: it goes nowhere and is Distracted (p.42)."""


class _Field:
    """A distance field (mm per cell of :data:`CELL_MM`), read one point at a time.

    ``values`` is the array; reads go through a flat list of Python floats (the same numbers, cheaper to read
    one by one than NumPy scalars)."""

    __slots__ = ("values", "_flat", "_nx", "_ny", "_walled")

    def __init__(self, values: NDArray[np.float64]) -> None:
        self.values = values
        self._nx, self._ny = int(values.shape[0]), int(values.shape[1])
        self._flat: list[float] = values.ravel().tolist()
        self._walled: dict[int, float] = {}
        """What :meth:`at` read for a cell inside an obstacle, by cell (worked out once)."""

    def at(self, x_mm: float, y_mm: float) -> float:
        """The distance at the cell holding ``(x_mm, y_mm)`` (clamped to the table); for a cell inside an
        obstacle, the nearest reachable one within 3 cells plus 40 mm, else :data:`UNREACHABLE`."""
        nx, ny = self._nx, self._ny
        i = int(x_mm // CELL_MM)
        i = 0 if i < 0 else nx - 1 if i > nx - 1 else i
        j = int(y_mm // CELL_MM)
        j = 0 if j < 0 else ny - 1 if j > ny - 1 else j
        cell = i * ny + j
        v = self._flat[cell]
        if v < _INF:  # finite (a NaN, never made, would take the slow way as before)
            return v
        near = self._walled.get(cell)
        if near is None:
            window = self.values[max(0, i - 3):i + 4, max(0, j - 3):j + 4]
            best = float(window.min()) if window.size else math.inf
            near = self._walled[cell] = best + 40.0 if math.isfinite(best) else UNREACHABLE
        return near

    def at_reference(self, x_mm: float, y_mm: float) -> float:
        """:meth:`at` read straight from the array (the original code, kept to test the fast read against)."""
        nx, ny = self.values.shape
        i = min(max(int(x_mm // CELL_MM), 0), nx - 1)
        j = min(max(int(y_mm // CELL_MM), 0), ny - 1)
        v = float(self.values[i, j])
        if math.isfinite(v):
            return v
        window = self.values[max(0, i - 3):i + 4, max(0, j - 3):j + 4]
        best = float(window.min()) if window.size else math.inf
        return best + 40.0 if math.isfinite(best) else UNREACHABLE


_INF = math.inf


class Navigator:
    """Distance fields to each target line of a race, round the obstacles (8-neighbour Dijkstra).

    Targets are the course's gates in order (Death Race) or the Finish Line
    (Street Race). A target is reached just before its line on the side it
    must be crossed from, and the line is a wall in its own field, so a
    vehicle on the wrong side is led round the posts; the move that then
    crosses the line scores the gate bonus. Fields are computed on first use
    and kept.
    """

    def __init__(self, table: Table, course: Course) -> None:
        self.table = table
        self.course = course
        gates = {g.id: g for g in table.gates}
        finish = finish_gate(table)
        if course.death_race:
            self.targets: tuple[Gate, ...] = tuple(gates[g] for g in course.gates if g in gates)
        else:
            self.targets = (finish,) if finish is not None else ()
        self._fields: dict[int, _Field] = {}
        self._points: dict[tuple[int, int, int], _Field] = {}
        self._legs: tuple[float, ...] | None = None
        self._before: tuple[float, ...] = ()
        """``sum(leg_lengths[:k + 1])`` for each ``k`` (summed as :meth:`position` did, term by term)."""
        self._lines = tuple(g.line for g in self.targets)
        """Each target's line, built once (``Gate.line`` builds a new one each time)."""
        self._directions = tuple(g.direction for g in self.targets)
        self._solid: shapely.Geometry | None = None
        self._boxes: dict[int, tuple[float, float, float, float]] = {}
        self._blocked = self._blocked_cells()

    def _centres(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        nx = max(1, math.ceil(self.table.width_mm / CELL_MM))
        ny = max(1, math.ceil(self.table.height_mm / CELL_MM))
        xs = (np.arange(nx) + 0.5) * CELL_MM
        ys = (np.arange(ny) + 0.5) * CELL_MM
        gx, gy = np.meshgrid(xs, ys, indexing="ij")
        return gx, gy

    def _blocked_cells(self) -> NDArray[np.bool_]:
        gx, gy = self._centres()
        blocked = (gx < CLEARANCE_MM) | (gy < CLEARANCE_MM)
        blocked |= (gx > self.table.width_mm - CLEARANCE_MM) | (gy > self.table.height_mm - CLEARANCE_MM)
        shapes = [o.polygon.buffer(CLEARANCE_MM) for o in self.table.all_obstacles]
        if shapes:
            blocked |= shapely.contains_xy(shapely.union_all(shapes), gx, gy)
        return blocked

    def field(self, index: int) -> _Field | None:
        """The distance field to target ``index`` (None past the last target)."""
        if index >= len(self.targets):
            return None
        if index not in self._fields:
            self._fields[index] = _Field(self._dijkstra(self.targets[index]))
        return self._fields[index]

    def _dijkstra(self, gate: Gate) -> NDArray[np.float64]:
        gx, gy = self._centres()
        dx, dy = gate.direction
        cells = shapely.points(gx, gy)
        wall = shapely.dwithin(gate.line, cells, 0.8 * CELL_MM) | self._blocked
        before = shapely.LineString([(gate.post_a[0] - dx * APPROACH_MM, gate.post_a[1] - dy * APPROACH_MM),
                                     (gate.post_b[0] - dx * APPROACH_MM, gate.post_b[1] - dy * APPROACH_MM)])
        near = shapely.dwithin(before, cells, CELL_MM) & ~wall
        return self._dijkstra_from(near, wall)

    def point_value(self, x_mm: float, y_mm: float, pose: Pose, radius_mm: float = 0.0) -> float:
        """Distance (mm, round the obstacles) from ``pose`` to within ``radius_mm`` of a point of the table (a
        scenario's goal); fields are kept per point, to the nearest 10 mm."""
        key = (round(x_mm / CELL_MM), round(y_mm / CELL_MM), round(radius_mm / CELL_MM))
        f = self._points.get(key)
        if f is None:
            if len(self._points) > 64:
                self._points.clear()
            f = self._points[key] = _Field(self._dijkstra_point(x_mm, y_mm, radius_mm))
        return f.at(pose.x_mm, pose.y_mm)

    def _dijkstra_point(self, x_mm: float, y_mm: float, radius_mm: float) -> NDArray[np.float64]:
        gx, gy = self._centres()
        reach = radius_mm + 2.0 * CELL_MM
        near = (np.hypot(gx - x_mm, gy - y_mm) <= reach) & ~self._blocked
        while not near.any() and reach < 400.0:
            reach += 2.0 * CELL_MM + CLEARANCE_MM
            near = (np.hypot(gx - x_mm, gy - y_mm) <= reach) & ~self._blocked
        return self._dijkstra_from(near, self._blocked)

    def _dijkstra_from(self, sources: NDArray[np.bool_], wall: NDArray[np.bool_]) -> NDArray[np.float64]:
        gx, _ = self._centres()
        nx, ny = int(gx.shape[0]), int(gx.shape[1])
        blocked: list[bool] = wall.ravel().tolist()
        dist = [math.inf] * (nx * ny)
        heap: list[tuple[float, int]] = []
        for cell in np.flatnonzero(sources.ravel()).tolist():
            dist[cell] = 0.0
            heap.append((0.0, cell))
        heapq.heapify(heap)
        steps = [(a, b, CELL_MM * math.hypot(a, b)) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]
        while heap:
            d, cell = heapq.heappop(heap)
            if d > dist[cell]:
                continue
            i, j = divmod(cell, ny)
            for a, b, c in steps:
                p, q = i + a, j + b
                if 0 <= p < nx and 0 <= q < ny:
                    other = p * ny + q
                    if not blocked[other] and d + c < dist[other]:
                        dist[other] = d + c
                        heapq.heappush(heap, (d + c, other))
        return np.array(dist, dtype=np.float64).reshape(nx, ny)

    def _may_cross(self, index: int, a: Pose, b: Pose) -> bool:
        """False when the segment ``a``-``b`` certainly misses target ``index``'s line (their boxes are apart)."""
        return self._may_cross_xy(index, a.x_mm, a.y_mm, b.x_mm, b.y_mm)

    def _may_cross_xy(self, index: int, ax: float, ay: float, bx: float, by: float) -> bool:
        box = self._boxes.get(index)
        if box is None:
            box = self._boxes[index] = self._lines[index].bounds
        x0, y0, x1, y1 = box
        return not ((ax if ax > bx else bx) < x0 or (ax if ax < bx else bx) > x1
                    or (ay if ay > by else by) < y0 or (ay if ay < by else by) > y1)

    def value(self, index: int, pose: Pose) -> float:
        """Distance (mm, round obstacles) from ``pose`` to target ``index``; 0 past the last target."""
        f = self._fields.get(index)
        if f is None:
            f = self.field(index)
            if f is None:
                return 0.0
        return f.at(pose[0], pose[1])

    def _value_xy(self, index: int, x_mm: float, y_mm: float) -> float:
        f = self._fields.get(index)
        if f is None:
            f = self.field(index)
            if f is None:
                return 0.0
        return f.at(x_mm, y_mm)

    @property
    def leg_lengths(self) -> tuple[float, ...]:
        """Each leg's length (mm round the obstacles): to target ``k`` from just past target ``k - 1``; the
        first leg counts 0 (where a race starts does not matter when comparing positions)."""
        if self._legs is None:
            legs = [0.0]
            for k in range(1, len(self.targets)):
                before = self.targets[k - 1]
                (ax, ay), (bx, by) = before.post_a, before.post_b
                dx, dy = before.direction
                legs.append(self.value(k, Pose((ax + bx) / 2.0 + dx * 20.0, (ay + by) / 2.0 + dy * 20.0, 0.0)))
            self._legs = tuple(legs)
            self._before = tuple(sum(self._legs[:k + 1]) for k in range(len(self._legs)))
        return self._legs

    def position(self, passed: int, pose: Pose) -> float:
        """How far along the whole course (mm) a vehicle that has passed ``passed`` targets stands at ``pose``:
        the legs behind it plus the part of its leg driven (continuous as a gate is passed)."""
        legs = self._legs if self._legs is not None else self.leg_lengths
        if passed >= len(legs):
            return sum(legs)
        if passed < 0:
            return sum(legs[:passed + 1]) - self.value(passed, pose)
        return self._before[passed] - self.value(passed, pose)

    def blocked(self, shape: Polygon, others: Sequence[Polygon] = ()) -> bool:
        """Whether ``shape`` overlaps an obstacle of the table (gate posts included) or one of ``others``."""
        if self._solid is None:
            solid = shapely.union_all([o.polygon for o in self.table.all_obstacles])
            shapely.prepare(solid)
            self._solid = solid
        return bool(self._solid.intersects(shape)) or any(shape.intersects(o) for o in others)

    def may_pass(self, index: int, a: Pose, b: Pose, reach_mm: float) -> bool:
        """Whether a vehicle whose centre goes from ``a`` to ``b`` might touch target ``index``'s line going its
        way: the move goes along the gate's direction and the segment comes within ``reach_mm`` of the line.
        A screen for the bot's nominal scores, not a ruling."""
        if index >= len(self.targets):
            return False
        gx, gy = self._directions[index]
        if (b.x_mm - a.x_mm) * gx + (b.y_mm - a.y_mm) * gy <= 0.0:
            return False
        line = self._lines[index]
        x0, y0, x1, y1 = line.bounds
        if (max(a.x_mm, b.x_mm) < x0 - reach_mm or min(a.x_mm, b.x_mm) > x1 + reach_mm
                or max(a.y_mm, b.y_mm) < y0 - reach_mm or min(a.y_mm, b.y_mm) > y1 + reach_mm):
            return False
        return bool(line.distance(shapely.LineString([a[:2], b[:2]])) <= reach_mm)

    def alignment(self, index: int, pose: Pose, ahead_mm: float = 60.0) -> float:
        """How much closer driving ``ahead_mm`` straight on gets, in [-ahead_mm, ahead_mm].

        Driving straight through the target line the right way is the best there is.
        """
        x, y, heading = pose
        return self._alignment(index, x, y, heading, None, ahead_mm)

    def _alignment(self, index: int, x: float, y: float, heading: float, here: float | None,
                   ahead_mm: float) -> float:
        """:meth:`alignment` from scalars; ``here``: the value at ``(x, y)`` if already read."""
        rad = math.radians(heading)  # pose.ahead(ahead_mm), as scalars
        ax, ay = x + math.cos(rad) * ahead_mm, y + math.sin(rad) * ahead_mm
        if index < len(self.targets):
            gx, gy = self._directions[index]
            towards = (ax - x) * gx + (ay - y) * gy > 0
            if towards and self._may_cross_xy(index, x, y, ax, ay) and self._lines[index].intersects(
                    shapely.LineString([(x, y), (ax, ay)])):
                return ahead_mm
        if here is None:
            here = self._value_xy(index, x, y)
        gain = here - self._value_xy(index, ax, ay)
        return max(-ahead_mm, min(ahead_mm, gain))

    def position_alignment(self, passed: int, pose: Pose, ahead_mm: float = 60.0) -> tuple[float, float]:
        """``(position(passed, pose), alignment(passed, pose, ahead_mm))``, reading the field at ``pose`` once."""
        legs = self._legs if self._legs is not None else self.leg_lengths
        if passed < 0 or passed >= len(legs):
            return self.position(passed, pose), self.alignment(passed, pose, ahead_mm)
        x, y, heading = pose
        here = self._value_xy(passed, x, y)
        return self._before[passed] - here, self._alignment(passed, x, y, heading, here, ahead_mm)


@dataclass(frozen=True)
class _Candidate:
    choice: ChooseTemplate
    score: float


_NAVIGATORS: dict[tuple[int, Course], tuple[Table, Navigator]] = {}
"""Distance maps already built, per scenario table and course: every game of a simulation shares one."""


def _navigator(table: Table, course: Course) -> Navigator:
    """The navigator for ``table`` and ``course``, built once per table object."""
    key = (id(table), course)
    hit = _NAVIGATORS.get(key)
    if hit is None or hit[0] is not table:
        if len(_NAVIGATORS) > 16:
            _NAVIGATORS.clear()
        hit = (table, Navigator(table, course))
        _NAVIGATORS[key] = hit
    return hit[1]


class Bot:
    """Answers any :class:`Prompt` of a :class:`Game` (see the module docstring).

    ``navigator`` is shared between games on the same scenario to keep its
    distance fields; build one with :class:`Navigator` or let the bot build it
    from the referee's table on first use.
    """

    def __init__(self, navigator: Navigator | None = None) -> None:
        self.navigator = navigator
        self.template_lengths: dict[str, float] = {}
        """Movement template lengths (mm) of the game's template set, read from its referee (for ramps)."""
        self._game: Game | None = None
        self._goals: dict[str, tuple[Goal, ...]] = {}
        self._objective_game: Game | None = None
        self._objective = False
        self._circled: tuple[object, VehicleState, bool] | None = None
        """The last :meth:`_circling` answer: for this history entry and this vehicle state."""

    # ------------------------------------------------------------------ entry point

    def decide(self, game: Game) -> Decision:
        """A legal answer to ``game.prompt``, read from the prompt's options."""
        nav = self._nav(game)
        if game is not self._game or game.state is not getattr(self, "_goal_state", None):
            self._goals = {}
            self._goal_state = game.state
        self._game = game
        if not self.template_lengths:
            ts = getattr(game.referee, "template_set", None)
            movement = getattr(ts, "movement", {}) if ts is not None else {}
            self.template_lengths = {k: float(t.length_mm or 0.0) for k, t in movement.items()}
        p = game.prompt
        match p:
            case ActivatePrompt():
                return Activate(self._pick_vehicle(game, nav, p))
            case TemplatePrompt():
                return self._template(game, nav, p)
            case SkidPrompt():
                return RollSkid(self._skid_count(game, nav, p))
            case PushItPrompt():
                return self._push(game, p)
            case ShiftsPrompt():
                return self._shifts(game, nav, p)
            case SlideFacingPrompt():
                return SlideFacing(self._slide_facing(game, nav, p))
            case SpinPrompt():
                return Spin(self._spin(game, nav, p))
            case ReactPrompt():
                return React(self._react(game, p))
            case AttacksPrompt():
                return self._attacks(game, p)
            case LoseControlPrompt():
                return LoseControl(self._lose_control(game, nav, p))
            case PassPolePrompt():
                return PassPole(self._pass_pole(game, nav, p))
            case VotesPrompt():
                return SpendVotes(self._votes(game, p))
            case DeployPrompt():
                return self._deploy(game, p)
            case DeclarePrompt():
                return Declare(perk_bot.choose(game, p) if p.perk else self._declare(p))
            case PivotPrompt():
                return Pivot(self._pivot(game, nav, p))
            case PiledriverPrompt():
                return self._piledrive(game, p)
            case SwingTrailerPrompt():
                return SwingTrailer(self._swing(game, p))
            case TeleportPrompt():
                return self._teleport(game, nav, p)
            case GameOverPrompt():
                raise IllegalChoice("the game is over: the bot has nothing to decide")
            case _ as unreachable:
                assert_never(unreachable)

    # ------------------------------------------------------------------ setup and special rules

    def _deploy(self, game: Game, p: DeployPrompt) -> Deploy:
        """The fastest waiting vehicle into the open slot nearest the middle of the grid (p.126)."""
        columns = max(1, p.columns)
        waiting = sorted((game.state.vehicle(i) for i in p.vehicles),
                         key=lambda v: (-v.max_gear, game.state.vehicles.index(v)))
        for v in waiting:
            fits = [s for s in p.slots if p.pose(v.id, s) is not None]
            if fits:
                best = min(fits, key=lambda s: (abs(s % columns - (columns - 1) / 2.0), s))
                return Deploy(v.id, best)
        raise IllegalChoice("no waiting vehicle fits an open slot", "Starting Grid, p.126")

    def _declare(self, p: DeclarePrompt) -> str:
        """Up and Over and Slip Away are taken (they keep the car going); the Tanker Anchor is not (p.66-71, p.120);
        a scenario's question gets the scenario's advice."""
        game = self._game
        if game is not None and game.options.objective.active:
            from simulator.gaslands.engine import ScenarioAsk

            pending = game.engine_state.flow.on_declared
            if isinstance(pending, ScenarioAsk):
                advice = game.options.objective.rules.advise(game.state, game.referee, pending.ask)
                if advice in p.choices:
                    return advice
        if p.rule.startswith("Tanker Anchor"):
            return "no"
        return "yes" if "yes" in p.choices else p.choices[-1]

    def _pivot(self, game: Game, nav: Navigator, p: PivotPrompt) -> float:
        """Pivot (p.69) to the facing best aligned with the way to go; Airwolf's pivot costs tokens: not used."""
        if p.rule != "Pivot":
            return 0.0
        v = game.state.vehicle(p.vehicle_id)
        i = self._target(v, nav)
        best, best_score = 0.0, nav.alignment(i, v.pose)
        for angle in (-135.0, -90.0, -45.0, 45.0, 90.0, 135.0, 180.0):
            score = nav.alignment(i, v.pose.turned(angle))
            if score > best_score + 1e-9:
                report = game.referee.spin(game.state, v.id, angle)
                if not report.interrupted and not report.contacts:
                    best, best_score = angle, score
        return best

    def _piledrive(self, game: Game, p: PiledriverPrompt) -> Decision:
        """Put the piledriven vehicle back along its way, facing the wrong way, if the table allows (p.120)."""
        v = game.state.vehicle(p.target)
        for back in (50.0, 30.0, 15.0):
            for turn in (180.0, 90.0, -90.0):
                pose = v.pose.ahead(-back).turned(turn)
                if not game.referee.place(game.state, p.target, pose, p.before, p.vehicle_id):
                    return Piledrive(pose.x_mm, pose.y_mm, pose.heading_deg)
        return Declare("no")

    def _teleport(self, game: Game, nav: Navigator, p: TeleportPrompt) -> Teleport:
        """The Experimental Teleporter's jump (p.83-84): of a few legal points within range (three rings of
        twelve, and where it stands), the one furthest along the course for its controller, the one least
        far along when a rival places it (on a Hazard)."""
        v = game.state.vehicle(p.vehicle_id)
        mine = p.player == v.player
        best, best_score = p.before, self._progress(v, nav)
        for reach in (0.9, 0.6, 0.3):
            for k in range(12):
                a = math.radians(30.0 * k)
                pose = Pose(p.before.x_mm + reach * p.max_mm * math.cos(a),
                            p.before.y_mm + reach * p.max_mm * math.sin(a), p.before.heading_deg)
                score = self._progress(replace(v, pose=pose), nav)
                if (score > best_score if mine else score < best_score) and not game.referee.place(
                        game.state, v.id, pose, p.before, "", band=p.band, clear=True):
                    best, best_score = pose, score
        return Teleport(best.x_mm, best.y_mm)

    def _votes(self, game: Game, p: VotesPrompt) -> tuple[VoteEffect, ...]:
        """Respawn when out of the game; else calm the most hazardous own vehicle (p.89-90)."""
        if "respawn" in p.effects:
            # a Ghost Rider back At the Crossroads only beside a living team-mate (else Soul Anchor takes it, p.101)
            alive = any(v.player == p.player and v.in_play and not v.has(GHOST_RIDER) for v in game.state.vehicles)
            back = next((c.effect for c in p.choices if c.effect.effect == "respawn"
                         and (alive or c.effect.target != CROSSROADS)), None)
            if back is not None:
                return (back,)
        if game.options.objective.active:
            advice = game.options.objective.rules.advise_votes(game.state, game.referee, p)
            if advice:
                return advice
            if game.options.objective.rules.saves_votes(game.state, p.player):
                return ()
        mine = [v for v in game.state.vehicles if v.player == p.player and v.in_play]
        worst = max(mine, key=lambda v: v.hazards, default=None)
        if "thunderous_applause" in p.effects and worst is not None and worst.hazards >= 3:
            return (VoteEffect("thunderous_applause", worst.id),)
        return ()

    def _nav(self, game: Game) -> Navigator:
        nav = self.navigator
        if nav is None or (nav.course is not (course := game.options.course) and nav.course != course):
            table = game.referee.terrain() or Table(1220.0, 915.0)
            nav = self.navigator = _navigator(table, game.options.course)
        return nav

    # ------------------------------------------------------------------ scoring

    def _target(self, v: VehicleState, nav: Navigator) -> int:
        return v.gates_passed if nav.course.death_race else 0

    def _progress(self, v: VehicleState, nav: Navigator) -> float:
        i = self._target(v, nav)
        return nav.position(i, v.pose) + PASS_BONUS_MM * i

    def _score(self, v: VehicleState, report: MoveReport, nav: Navigator, extra_hazards: int = 0,
               state: GameState | None = None) -> float:
        """How good a move is: course position (mm, :meth:`Navigator.position`) plus a bonus per gate passed,
        lined up for the next, less collisions, hazardous ground, dropped templates, Hazard Tokens and the
        table edge; leaving the table is never chosen (p.87) and finishing always is."""
        if report.disqualified:
            return -1.0e9
        game = self._game
        if game is not None and (self._objective if game is self._objective_game else self._objective_of(game)):
            return self._objective_score(game, v, report, nav, extra_hazards)
        course = nav.course
        passed = v.gates_passed
        if course.death_race:
            passed, _ = advance(v.gates_passed, report.gates, course)
            if passed >= len(course.gates):
                return FINISH_BONUS
        elif report.crossed_finish:
            return FINISH_BONUS
        i = passed if course.death_race else 0
        position, alignment = nav.position_alignment(i, report.pose)
        score = position + PASS_BONUS_MM * i + 0.8 * alignment
        if report.ramp:
            score += self._ramp_gain(v, report.pose, nav, i)
        for c in report.contacts:
            if c.obstacle:
                score -= CONTACT_PENALTY.get(c.obstacle_weight or "heavyweight", 400.0)
            else:
                other = _vehicle_or_none(state, c.other_id) if state is not None else None
                mate = other is not None and other.player == v.player
                score -= VEHICLE_CONTACT_PENALTY * (2.0 if mate else 1.0)
        if report.surfaces:
            score -= sum(SURFACE_PENALTY.get(s, 0.0) for s in report.surfaces)
        score -= DROPPED_PENALTY * len(report.dropped_touched)
        hazards = v.hazards + extra_hazards
        score -= 30.0 * extra_hazards * (3 if hazards >= 4 else 1)
        return score - self._edge_danger(v, report.pose, nav)

    def _objective_of(self, game: Game) -> bool:
        """Whether ``game`` plays a scenario's objective (kept for the game last asked about: a game's options
        never change)."""
        self._objective_game = game
        self._objective = game.options.objective.active
        return self._objective

    def _wants(self, game: Game, vehicle_id: str) -> frozenset[str]:
        return game.options.objective.rules.wants(game.state, vehicle_id) if game.options.objective.active \
            else frozenset()

    def goals(self, game: Game, vehicle_id: str) -> tuple[Goal, ...]:
        """The scenario's goals for ``vehicle_id`` in the state being decided on (asked once per state)."""
        if vehicle_id not in self._goals:
            self._goals[vehicle_id] = game.options.objective.rules.goals(game.state, vehicle_id)
        return self._goals[vehicle_id]

    def _objective_score(self, game: Game, v: VehicleState, report: MoveReport, nav: Navigator,
                         extra_hazards: int) -> float:
        """A scenario's move (p.130-175): the best goal by distance round the obstacles, more for touching it,
        less near what is to be avoided; collisions, surfaces, Hazard Tokens and the table edge as in a race."""
        state = game.state
        goals = self.goals(game, v.id)
        area = move_area(v, report)
        touched = {c.other_id for c in report.contacts}
        best = 0.0
        avoid = 0.0
        end = footprint(report.pose, v.length_mm, v.width_mm)
        for g in goals:
            d = max(0.0, float(area.distance(shapely.Point(g.x_mm, g.y_mm))) - g.radius_mm)
            if g.value > 0 and g.attack:
                best = max(best, self._attack_gain(state, v, report, end, g, touched))
            elif g.value > 0:
                far = nav.point_value(g.x_mm, g.y_mm, report.pose, g.radius_mm) if not g.target or \
                    state.scenario.has_token(g.target) or g.radius_mm else d
                gain = g.value * (GOAL_REACH_MM - min(max(far, d), GOAL_REACH_MM))
                if d <= 15.0 or g.target in touched:
                    gain += g.value * GOAL_TOUCH_MM
                best = max(best, gain)
            elif d < AVOID_MM:
                avoid += g.value * (AVOID_MM - d) * 3.0
        score = best + avoid
        wants = self._wants(game, v.id)
        if "hazardous" in wants and extra_hazards > 0:
            score += WANT_BONUS
        if "t_bone" in wants and any(not c.obstacle and c.orientation.value == "t_bone" for c in report.contacts):
            score += WANT_BONUS
        if report.interrupted and not report.contacts:
            score -= STUCK_PENALTY
        goal_ids = {g.target for g in goals if g.value > 0 and g.target}
        for c in report.contacts:
            if c.other_id in goal_ids:
                continue
            if c.obstacle:
                score -= CONTACT_PENALTY.get(c.obstacle_weight or "heavyweight", 400.0)
            else:
                other = _vehicle_or_none(state, c.other_id)
                mate = other is not None and state.same_side(other.player, v.player)
                score -= VEHICLE_CONTACT_PENALTY * (2.0 if mate else 0.5)
        score -= sum(SURFACE_PENALTY.get(s, 0.0) for s in report.surfaces)
        score -= DROPPED_PENALTY * len(report.dropped_touched)
        hazards = v.hazards + extra_hazards
        score -= 30.0 * extra_hazards * (3 if hazards >= 4 else 1)
        return score - self._edge_danger(v, report.pose, nav)

    def _attack_gain(self, state: GameState, v: VehicleState, report: MoveReport, end: Polygon, g: Goal,
                     touched: set[str]) -> float:
        """An enemy to fight: nearer and facing it is better (front weapons, p.29), a Collision with it (a
        ram) better still; ending against it without a Collision is worth little (Distracted, p.42)."""
        target = _vehicle_or_none(state, g.target)
        if target is None or not target.in_play:
            return 0.0
        other = footprint(target.pose, target.length_mm, target.width_mm)
        d = float(end.distance(other))
        hx, hy = report.pose.direction
        dx, dy = target.pose.x_mm - report.pose.x_mm, target.pose.y_mm - report.pose.y_mm
        n = math.hypot(dx, dy) or 1.0
        facing = (hx * dx + hy * dy) / n
        nav = self.navigator
        if nav is not None and nav.blocked(shapely.LineString([report.pose[:2], target.pose[:2]]).buffer(5.0)):
            d += DETOUR_MM  # an obstacle between: the way round is longer, and it gives Cover (p.42)
        gain = g.value * (GOAL_REACH_MM - min(max(d, ATTACK_RANGE_MM), GOAL_REACH_MM))
        if d < 400.0:
            gain += g.value * FACING_BONUS * facing
        if g.target in touched:
            gain += g.value * GOAL_TOUCH_MM * (1.0 if v.hull_points >= 4 else 0.3)
        elif d <= 2.0:
            gain -= g.value * STUCK_PENALTY
        return gain

    def _ramp_gain(self, v: VehicleState, pose: Pose, nav: Navigator, i: int) -> float:
        """What going off a ramp's edge is worth on average (p.87): a Jump (chance Gear in 6) lands a Medium or
        Long Straight ahead for 2 Hazard Tokens; a Tumble a Short Straight ahead, with a 4D6 attack and 6
        Hazard Tokens (a sure Wipeout)."""
        def ahead(template: str) -> float:
            length = self.template_lengths.get(template, 0.0) + v.length_mm
            return nav.position(i, pose.ahead(length)) - nav.position(i, pose)

        chance = min(max(v.gear, 0), 6) / 6.0
        jump = ahead(jump_template(v.gear)) - 30.0 * JUMP_HAZARDS
        tumble = ahead(TUMBLE_TEMPLATE) - TUMBLE_PENALTY
        return chance * jump + (1.0 - chance) * tumble

    def _edge_danger(self, v: VehicleState, pose: Pose, nav: Navigator) -> float:
        """A penalty for ending where the next move, fast and unable to turn much, would leave the table (p.87)."""
        reach = 100.0 + 45.0 * max(v.gear, 2)
        x, y, heading = pose
        rad = math.radians(heading)  # pose.ahead(reach), as scalars
        ax, ay = x + math.cos(rad) * reach, y + math.sin(rad) * reach
        t = nav.table
        margin = 0.5 * v.length_mm
        inside = margin <= ax <= t.width_mm - margin and margin <= ay <= t.height_mm - margin
        return 0.0 if inside else 400.0

    # ------------------------------------------------------------------ movement

    def _pick_vehicle(self, game: Game, nav: Navigator, p: ActivatePrompt) -> str:
        options = list(p.vehicles)
        return max(options, key=lambda vid: (-game.state.vehicle(vid).hazards, self._progress(
            game.state.vehicle(vid), nav), -options.index(vid)))

    def _template(self, game: Game, nav: Navigator, p: TemplatePrompt) -> ChooseTemplate:
        v = game.state.vehicle(p.vehicle_id)
        permitted = {t.template: t.manoeuvre for t in p.templates if t.permitted}
        names = list(permitted)
        mine = p.player == v.player
        candidates = self._candidates(game, v, names, permitted, reverse=False, nav=nav, mine=mine)
        objective = game.options.objective.active
        if mine and p.reverse_allowed and (not candidates or objective
                                           or max(c.score for c in candidates) < self._progress(v, nav) + 5):
            candidates += self._candidates(game, v, names, permitted, reverse=True, nav=nav)
        if not candidates:
            return ChooseTemplate(names[0], "left")
        best = max(candidates, key=lambda c: c.score) if mine else min(candidates, key=lambda c: c.score)
        return best.choice

    def _candidates(self, game: Game, v: VehicleState, names: Sequence[str], permitted: dict[str, Manoeuvre],
                    *, reverse: bool, nav: Navigator, mine: bool = True) -> list[_Candidate]:
        """Score the moves; on a real table, screen them by where the template alone would put the vehicle.

        For the bot's own vehicle, moves are resolved in order of that nominal
        score (counting a gate the centre's way might pass) until the best real
        score beats every nominal score left (resolving only cuts a move short
        or adds collisions, so the nominal score is nearly an upper bound), and
        at most :data:`MAX_RESOLVED` of them. For an opponent's vehicle (Touch
        It Use It, p.71) every move is resolved, to find the worst.
        """
        plans: list[tuple[ChooseTemplate, MovePlan, int]] = []
        for name in names:
            sides: tuple[Side | None, ...] = (None,) if name in STRAIGHTS else ("left", "right")
            for side in sides:
                plans.append((ChooseTemplate(name, side or "left", reverse), MovePlan(name, side, reverse),
                              permitted[name].hazard_tokens))
        referee = game.referee
        i = self._target(v, nav)
        reach = 0.5 * math.hypot(v.length_mm, v.width_mm)
        others = [footprint(u.pose, u.length_mm, u.width_mm) for u in game.state.vehicles
                  if u.id != v.id and (u.in_play or (u.status is Status.WRECK
                                                     and u.id not in game.state.removed_obstacles))]
        nominal = []
        for k, (_, plan, h) in enumerate(plans):
            pose = referee.nominal(game.state, v.id, plan)
            gates = (nav.targets[i].id,) if nav.course.death_race and nav.may_pass(i, v.pose, pose, reach) else ()
            sweep = None
            if game.options.objective.active:  # the template's sweep, roughly: what it may pick up on the way
                sweep = shapely.convex_hull(shapely.union(footprint(v.pose, v.length_mm, v.width_mm),
                                                          footprint(pose, v.length_mm, v.width_mm)))
            bound = self._score(v, MoveReport(pose, gates=gates, area=sweep), nav, h) + SCREEN_SLACK
            if nav.blocked(footprint(pose, v.length_mm, v.width_mm), others):
                bound -= CONTACT_PENALTY["lightweight"]  # it will stop short and collide
            nominal.append((bound, k))
        nominal.sort(key=lambda t: (-t[0], t[1]))
        out: list[_Candidate] = []
        for bound, k in nominal:
            if mine and out and (len(out) >= MAX_RESOLVED or max(c.score for c in out) >= bound):
                break
            choice, plan, h = plans[k]
            out.append(_Candidate(choice, self._score(v, referee.move(game.state, v.id, plan), nav, h, game.state)))
        return out

    def _stuck(self, game: Game, v: VehicleState) -> bool:
        """Whether the vehicle cannot move forward at all (its front against something): it should change down
        to Gear 1 and reverse (p.39)."""
        report = game.referee.move(game.state, v.id, MovePlan("short_straight"))
        return report.interrupted and math.dist(report.pose[:2], v.pose[:2]) < 5.0

    def _cruise_gear(self, v: VehicleState, nav: Navigator) -> int:
        game = self._game
        if game is not None and game.options.objective.active:
            if v.gear > 1 and self._stuck(game, v):
                return 1
            wants = self._wants(game, v.id)
            if "top_gear" in wants:
                return v.max_gear
            if "fast" in wants:
                return min(v.max_gear, max(3, v.gear))
        i = self._target(v, nav)
        if game is not None and self._circling(game, v):
            return min(v.max_gear, RECOVERY_GEAR)
        lined_up = nav.alignment(i, v.pose) > 45.0 and nav.value(i, v.pose) > 300.0
        return min(v.max_gear, 4 if lined_up else 3)

    def _circling(self, game: Game, v: VehicleState) -> bool:
        """Whether, in a race, ``v``'s last :data:`CIRCLING_MOVES` Movement Steps (read back from the game's log)
        passed no gate (p.127) and turned it, with whatever turned it between them (Spins, Slides), through
        :data:`CIRCLE_DEG` or more one way: its plan is not working.

        Read from the game alone, so the same game and prompt still give the same answer.
        """
        if game.options.objective.active or not self._nav(game).targets:
            return False  # no course to follow: a scenario's goals, or a fight with no line to cross
        now = game.history.current  # the log up to here is this entry's and those before it
        known = self._circled
        if known is not None and known[0] is now and known[1] is v:
            return known[2]
        circling = self._circling_now(game, v)
        self._circled = (now, v, circling)
        return circling

    def _circling_now(self, game: Game, v: VehicleState) -> bool:
        moves: list[Moved] = []
        vid = v.id
        for e in islice(reversed(game.log), CIRCLING_LOOKBACK):  # newest first
            if isinstance(e, Moved):
                if e.vehicle == vid and e.how == "drives":
                    moves.append(e)
                    if len(moves) >= CIRCLING_MOVES:
                        break
            elif isinstance(e, PassedGates) and e.vehicle == vid:
                return False
        if len(moves) < CIRCLING_MOVES:
            return False
        turned, after = 0.0, v.pose.heading_deg
        for e in moves:  # newest first
            turn = _turn_deg(e.start.heading_deg, e.final.heading_deg)
            if abs(turn) > 179.0 and e.direction in ("left", "right"):  # a Hairpin: its side says which way
                turn = 180.0 if e.direction == "left" else -180.0
            turned += _turn_deg(e.final.heading_deg, after) + turn
            after = e.start.heading_deg
        return abs(turned) >= CIRCLE_DEG

    def _skid_count(self, game: Game, nav: Navigator, p: SkidPrompt) -> int:
        v = game.state.vehicle(p.vehicle_id)
        counts = list(p.options)
        want = self._cruise_gear(v, nav) - v.gear
        if want < 0 and v.hazards <= 4 and game.options.objective.active and self._stuck(game, v):
            n = min(3, abs(want) + 1)
        elif want < 0 and v.hazards <= 4 and self._circling(game, v):
            n = 1  # a Shift changes down or sheds a token; otherwise it could never change (p.22-23)
        elif v.hazards >= 4 or want == 0:
            n = 0
        elif v.hazards >= 2:
            n = 1
        else:
            n = 2 if abs(want) > 1 else 1
        return max(c for c in counts if c <= n)

    def _push(self, game: Game, p: PushItPrompt) -> PushIt:
        v = game.state.vehicle(p.vehicle_id)
        roll = p.roll
        bad = [i for i, f in enumerate(roll.faces) if f is not SkidFace.SHIFT]
        if v.hazards <= 1 and len(bad) > roll.shifts:
            return PushIt(tuple(bad))
        return PushIt()

    def _shifts(self, game: Game, nav: Navigator, p: ShiftsPrompt) -> SpendShifts:
        v = game.state.vehicle(p.vehicle_id)
        spends = _plan_shifts(v, p.roll, self._cruise_gear(v, nav))
        if not p.driving.may_shed:  # Unnerving Eye Contact (p.111)
            spends = tuple(s for s in spends if s.use is not ShiftUse.DISCARD_HAZARD)
        if "no_hazards" in self._wants(game, v.id):
            shed = _plan_shed(v, p.roll)
            if shed is not None and p.allows(shed):
                return SpendShifts(shed)
        return SpendShifts(spends) if p.allows(spends) else SpendShifts()

    def _slide_facing(self, game: Game, nav: Navigator, p: SlideFacingPrompt) -> Side:
        v = game.state.vehicle(p.vehicle_id)

        def score(side: Side) -> float:
            plan = MovePlan(p.template, p.direction, p.reverse, True, side)
            return self._score(v, game.referee.move(game.state, v.id, plan), nav, state=game.state)

        return "left" if score("left") >= score("right") else "right"

    def _spin(self, game: Game, nav: Navigator, p: SpinPrompt) -> float:
        v = game.state.vehicle(p.vehicle_id)
        best, best_score = 0.0, -math.inf
        for angle in (0.0, -30.0, 30.0, -60.0, 60.0, -90.0, 90.0):
            report = game.referee.spin(game.state, v.id, angle)
            score = self._score(v, report, nav, state=game.state)
            if score > best_score + 1e-9:
                best, best_score = angle, score
        return best

    def _lose_control(self, game: Game, nav: Navigator, p: LoseControlPrompt) -> float:
        v = game.state.vehicle(p.vehicle_id)
        i = self._target(v, nav)
        headings = [float(h) for h in range(0, 360, 45)]
        sign = 1.0 if p.player == v.player else -1.0
        return max(headings, key=lambda h: sign * nav.alignment(i, Pose(v.pose.x_mm, v.pose.y_mm, h)))

    def _swing(self, game: Game, p: SwingTrailerPrompt) -> float:
        """Swing Trailer (p.119): a team-mate straightens the trailer; a rival folds it as far as it goes,
        the way it already bends (the Collision Window and the next moves are then the rig's problem)."""
        v = game.state.vehicle(p.vehicle_id)
        if p.player == v.player:
            return 0.0
        return math.copysign(p.max_deg, p.bend_deg if p.bend_deg else 1.0)

    def _pass_pole(self, game: Game, nav: Navigator, p: PassPolePrompt) -> int:
        options = list(p.to)

        def best(player: int) -> float:
            mine = [self._progress(v, nav) for v in game.state.vehicles if v.player == player and v.in_play]
            return max(mine, default=-math.inf)

        return min(options, key=lambda p: (best(p), options.index(p)))

    # ------------------------------------------------------------------ collisions and attacks

    def _react(self, game: Game, p: ReactPrompt) -> Reaction:
        me = game.state.vehicle(p.vehicle_id)
        other = _vehicle_or_none(game.state, p.other_id)
        if other is not None and other.player == me.player:
            return Reaction.EVADE
        healthy = me.hull_points >= 4 or (other is not None and me.weight > other.weight)
        if healthy and Reaction.PILEDRIVER in p.reactions:
            return Reaction.PILEDRIVER
        return Reaction.SMASH if healthy else Reaction.EVADE

    def _attacks(self, game: Game, p: AttacksPrompt) -> DeclareAttacks:
        """Every weapon the prompt offers at its best enemy target, a drop on a follower, then Handguns (p.30-31)."""
        state = game.state
        v = state.vehicle(p.vehicle_id)
        budget = p.max_attacks
        attacks: list[Attack] = []
        for choice in p.weapons:
            if choice.mount < 0:
                continue
            if len(attacks) >= budget:
                break
            target = self._best_target(state, v, p, choice.mount)
            if target and choice.splash and self._splashes_friends(game, v, choice.mount, target):
                continue
            if target:
                copies = min(choice.ammo or 1, budget - len(attacks)) if choice.blitz else 1
                attacks += [Attack(choice.mount, target)] * copies
        drops = self._drop(game, v, p) if len(attacks) < budget else ()
        handgun = p.weapon(-1)
        if len(attacks) + len(drops) < budget and handgun is not None:
            target = self._best_target(state, v, p, -1)
            if target:
                attacks += [Attack(-1, target)] * (budget - len(attacks) - len(drops))
        return DeclareAttacks(tuple(attacks), drops)

    def _splashes_friends(self, game: Game, v: VehicleState, mount: int, target: str) -> bool:
        caught = game.referee.splash(game.state, v.id, mount, target)
        return any(game.state.vehicle(i).player == v.player for i in caught)

    def _drop(self, game: Game, v: VehicleState, p: AttacksPrompt) -> tuple[Drop, ...]:
        """The first dropped weapon whose template would land by a following enemy and no team-mate (p.78)."""
        for choice in p.drops:
            for edge in choice.edges:
                if self._follower(game.state, v, edge):
                    return (Drop(choice.mount, edge),)
        return ()

    def _follower(self, state: GameState, v: VehicleState, edge: DropEdge) -> bool:
        """An enemy, and no team-mate, near the ``edge`` side of ``v``."""
        ahead = {"rear": 180.0, "left": 90.0, "right": -90.0}[edge]
        probe = v.pose.turned(ahead)
        reach = 0.5 * (v.length_mm if edge == "rear" else v.width_mm) + FOLLOW_MM
        found = False
        for u in state.vehicles:
            if u.id == v.id or not u.in_play:
                continue
            dx, dy = u.pose.x_mm - v.pose.x_mm, u.pose.y_mm - v.pose.y_mm
            hx, hy = probe.direction
            along, across = dx * hx + dy * hy, abs(-dx * hy + dy * hx)
            if 0.0 < along <= reach + 0.5 * u.length_mm and across <= 0.5 * (u.width_mm + 20.0):
                if u.player == v.player:
                    return False
                found = True
        return found

    def _best_target(self, state: GameState, v: VehicleState, p: AttacksPrompt, mount: int) -> str:
        """The enemy shot with no Cover, then the weakest, then the first id (p.42).

        Enemies are asked about one at a time, weakest first, and the first one
        without Cover ends the search (the same answer as judging every shot).
        """
        enemies = sorted((u for u in state.vehicles if u.in_play and u.player != v.player and u.id != v.id),
                         key=lambda u: (u.hull_points, u.id))
        covered = ""
        for u in enemies:
            shot = p.target(mount, u.id)
            if shot is None:
                continue
            if not shot.cover:
                return u.id
            covered = covered or u.id
        return covered


def _turn_deg(from_deg: float, to_deg: float) -> float:
    """The turn from heading ``from_deg`` to ``to_deg`` (degrees), the short way round: in (-180, 180]."""
    d = (to_deg - from_deg) % 360.0
    return d - 360.0 if d > 180.0 else d


def _vehicle_or_none(state: GameState, vehicle_id: str) -> VehicleState | None:
    try:
        return state.vehicle(vehicle_id)
    except KeyError:
        return None


def _plan_shifts(v: VehicleState, roll: SkidRoll, cruise: int) -> tuple[SpendShift, ...]:
    """Cancel bad results, then change gear towards ``cruise`` while safe, then shed Hazard Tokens (p.23)."""
    left = roll.shifts
    spends: list[SpendShift] = []
    bad = [i for i, f in enumerate(roll.faces) if f is not SkidFace.SHIFT]
    for i in bad:
        if left == 0:
            break
        spends.append(SpendShift(ShiftUse.CANCEL, i))
        left -= 1
    now = v.hazards
    coming = max(0, len(bad) - roll.shifts)
    gear = v.gear
    while left > 0 and gear != cruise and now + coming + 1 <= 3:
        up = gear < cruise
        if (up and gear >= v.max_gear) or (not up and gear <= 1):
            break
        spends.append(SpendShift(ShiftUse.GEAR_UP if up else ShiftUse.GEAR_DOWN))
        gear += 1 if up else -1
        now += 1
        left -= 1
    while left > 0 and now > 0:
        spends.append(SpendShift(ShiftUse.DISCARD_HAZARD))
        now -= 1
        left -= 1
    return tuple(spends)


def _plan_shed(v: VehicleState, roll: SkidRoll) -> tuple[SpendShift, ...] | None:
    """Shifts that cancel every bad die and discard every Hazard Token (Special Prize 7, p.134), or None."""
    bad = [i for i, f in enumerate(roll.faces) if f is not SkidFace.SHIFT]
    if v.hazards == 0 or roll.shifts < len(bad) + v.hazards:
        return None
    return (*(SpendShift(ShiftUse.CANCEL, i) for i in bad),
            *(SpendShift(ShiftUse.DISCARD_HAZARD) for _ in range(v.hazards)))


def play_bot_game(game: Game, bots: Bot | dict[int, Bot], max_decisions: int = 20_000) -> Game:
    """Let bots answer every prompt until the game is over (or ``max_decisions``); returns ``game``."""
    for _ in range(max_decisions):
        if isinstance(game.prompt, GameOverPrompt):
            break
        bot = bots if isinstance(bots, Bot) else bots[game.prompt.player]
        game.decide(bot.decide(game))
    return game
