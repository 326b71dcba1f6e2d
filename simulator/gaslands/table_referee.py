"""The real referee: the rules engine's geometry questions answered on a scenario's table.

:class:`TableReferee` implements :class:`simulator.gaslands.referee.Referee`
with :func:`simulator.geometry.movement.resolve_move` and
:mod:`simulator.geometry.shooting`. The geometry knows no rules; this module is
where the two meet:

- :func:`table_for` turns a :class:`GameState` into a geometry
  :class:`~simulator.geometry.table.Table`: vehicles in play are vehicles,
  wrecks are destructible obstacles of their weight (p.43-44), removed and
  disqualified vehicles and destroyed obstacles are gone (p.49, p.87);
- moves, Slides and the table edge come from ``resolve_move`` (p.22-26,
  p.45-51, p.87); a Street Race vehicle crosses the Finish Line when it touches
  the line while driving forward across it, away from the Starting Line (p.62);
  Death Race gates touched in their direction are reported in order and the
  engine decides which count (p.127);
- forced moves go straight ahead (p.39): a Flip ignores every obstruction and,
  should it end overlapping one, backs along the template by the least amount
  (p.35, as for Jumps p.87); skidding to a halt does not ignore them (p.43);
- a Spin (p.24) and a Lose Control pivot (p.35) turn the vehicle about its
  centre and stop at the first contact; obstructions it started touching stop
  it without a Collision;
- shots: each weapon's arc (front, rear, side; crew-fired and 360-degree
  weapons and Handguns: turret) and range template, Cover and Tall (p.28-30,
  p.42, p.87); the Shotgun's range band is the nearest one the target is in
  (p.77); within Medium range for Explosions (p.44);
- dropped weapons (p.78-80): a template is placed against the rear or a side
  edge (:mod:`simulator.geometry.dropped`); every move reports the dropped
  templates its movement template or Final Position overlaps or touches;
  Smoke templates are obstructions for Cover and distract a vehicle touching
  them (p.80); a Splash weapon hits every vehicle under the template placed
  for its target (p.82).

>>> from simulator.scenario.loader import bundled_scenario, load_scenario
>>> from simulator.scenario.setup import initial_state
>>> scenario = load_scenario(bundled_scenario())
>>> state = initial_state(scenario, seed=1)
>>> referee = TableReferee(scenario.table, scenario.template_set)
>>> report = referee.move(state, "red-car", MovePlan("medium_straight"))
>>> report.pose.x_mm > state.vehicle("red-car").pose.x_mm, report.interrupted
(True, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from typing import Protocol

import shapely
from shapely.geometry import Polygon

from simulator.gaslands.collisions import Orientation
from simulator.gaslands.decisions import DropEdge, Side
from simulator.gaslands.grid import FINGER_WIDTH_MM, slot_pose, starting_line
from simulator.gaslands.race import Course, standings
from simulator.gaslands.referee import Contact, DropReport, MovePlan, MoveReport, Shot, Sight
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.gaslands.tables import Weapon, load_vehicle_types
from simulator.geometry import shooting
from simulator.geometry.contact import classify, overlaps, touches
from simulator.geometry.dropped import (
    drop_pose,
    dropped_polygon,
    max_offset_mm,
    move_area,
    touched_templates,
    under,
)
from simulator.geometry.lines import centre_crossing
from simulator.geometry.movement import (
    Collision,
    MoveResult,
    gates_passed,
    obstructions_for,
    resolve_move,
    resolve_pivot,
    swing_trailer,
    touching,
)
from simulator.geometry.path import Path, truncated
from simulator.geometry.placement import Move, final_position
from simulator.geometry.pose import TOUCH_MM, Pose, angle_diff_deg, footprint, half_diagonal_mm
from simulator.geometry.ramps import stop_at_ramp
from simulator.geometry.table import Gate, Obstacle, Table, VehiclePiece
from simulator.geometry.templates import TemplateSet, circle_polygon

ARCS = {"front": "front", "rear": "rear", "side": "side", "turret": "turret", "crew": "turret"}
"""Mount facings (p.28-30, p.67) to the arcs the geometry knows; crew-fired weapons fire in 360 degrees."""

RANGE_BANDS = ("short", "medium", "long")
"""Range bands nearest first, for weapons whose dice depend on the band (Shotgun, p.77)."""

WRECK_LABEL = "wreck"
SMOKE = "smoke_dropper"
"""The dropped weapon whose template gives Cover and distracts (p.80)."""


class ShotAnswer(Protocol):
    """What the referee reads from a shooting query (``simulator.geometry.shooting.ShotResult``)."""

    @property
    def targetable(self) -> bool: ...

    @property
    def cover(self) -> bool: ...


class Shooting(Protocol):
    """The geometry's shooting functions (GEOMETRY.md 6), injectable for tests."""

    def shoot(self, table: Table, attacker_id: str, target_id: str, range_name: str, arc: str,
              template_set: TemplateSet, indirect: bool = False) -> ShotAnswer: ...

    def within_range(self, table: Table, centre_id: str, template_set: TemplateSet,
                     range_name: str = "medium") -> tuple[str, ...]: ...


class GeometryShooting:
    """:mod:`simulator.geometry.shooting` behind the :class:`Shooting` protocol."""

    def shoot(self, table: Table, attacker_id: str, target_id: str, range_name: str, arc: str,
              template_set: TemplateSet, indirect: bool = False) -> ShotAnswer:
        """``shooting.shoot`` (p.28-30, p.42)."""
        if arc not in ("front", "rear", "side", "turret"):
            raise ValueError(f"unknown arc {arc!r}")
        return shooting.shoot(table, attacker_id, target_id, range_name, arc, template_set,  # type: ignore[arg-type]
                              indirect)

    def within_range(self, table: Table, centre_id: str, template_set: TemplateSet,
                     range_name: str = "medium") -> tuple[str, ...]:
        """``shooting.within_range`` (p.44)."""
        return shooting.within_range(table, centre_id, template_set, range_name)


@cache
def _airborne(type_key: str) -> bool:
    return load_vehicle_types()[type_key].airborne


def vehicle_piece(v: VehicleState, players: tuple[str, ...]) -> VehiclePiece:
    """A vehicle of the game as a geometry piece (a War Rig's cab, carrying its trailer, GEOMETRY.md 8)."""
    return VehiclePiece(
        v.id, v.type_key, v.pose, v.length_mm, v.width_mm, v.weight.name.lower(),  # type: ignore[arg-type]
        v.gear, v.reversing, _airborne(v.type_key), players[v.player] if v.player < len(players) else None,
        v.trailer_length_mm, v.trailer_width_mm, v.bend_deg,
    )


def wreck_obstacle(v: VehicleState) -> Obstacle:
    """A wreck: a destructible obstacle of the vehicle's weight where it stopped, both pieces of a War Rig
    (p.43-44, p.118)."""
    shape = vehicle_piece(v, ()).outline if v.has_trailer else footprint(v.pose, v.length_mm, v.width_mm)
    return Obstacle(v.id, shape, v.weight.name.lower(),  # type: ignore[arg-type]
                    destructible=True, label=WRECK_LABEL)


def table_for(base: Table, state: GameState) -> Table:
    """The scenario table ``base`` with the game's vehicles, wrecks and destroyed obstacles applied.

    Gate posts become plain obstacles (same ids, ``GATE.post_a``) and the
    gates themselves are left off: the referee checks gate lines itself, only
    for the gates a move can reach.
    """
    pieces = tuple(vehicle_piece(v, state.players) for v in state.vehicles if v.in_play)
    wrecks = tuple(wreck_obstacle(v) for v in state.vehicles
                   if v.status is Status.WRECK and v.id not in state.removed_obstacles)
    kept = tuple(o for o in base.obstacles if o.id not in state.removed_obstacles)
    posts = tuple(p for g in base.gates for p in g.posts())
    return replace(base, vehicles=pieces, obstacles=kept + posts + wrecks + token_obstacles(state), gates=())


def token_obstacles(state: GameState) -> tuple[Obstacle, ...]:
    """A scenario's tokens that are Destructible obstacles (flags, gun turrets, p.49, p.130-132), where they lie."""
    return tuple(Obstacle(t.id, circle_polygon(t.x_mm, t.y_mm, t.radius_mm), t.obstacle,  # type: ignore[arg-type]
                          destructible=True, label=t.name)
                 for t in state.scenario.tokens if t.obstacle and t.on_table and t.id not in state.removed_obstacles)


def _point_segment_mm(x: float, y: float, ax: float, ay: float, bx: float, by: float) -> float:
    """The distance from ``(x, y)`` to the segment ``a``-``b``."""
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0.0 else min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / n))
    return math.hypot(x - ax - t * dx, y - ay - t * dy)


def may_reach(gate: Gate, ends: tuple[tuple[float, float], tuple[float, float]], travel_mm: float,
              half_mm: float) -> bool:
    """Whether a vehicle whose centre travels ``travel_mm`` from ``ends[0]`` to ``ends[1]`` (along any path)
    could come within ``half_mm`` of ``gate``'s line.

    Every point of such a path lies in the ellipse with those foci whose distances add up to ``travel_mm``;
    a point of the line within ``half_mm`` of the path therefore has distances to the foci adding up to at
    most ``travel_mm + 2 * half_mm``. That sum is convex along the line, so its least value is found by a
    ternary search. False means the line is certainly out of reach (then no gate test is needed).
    """
    (sx, sy), (ex, ey) = ends
    (ax, ay), (bx, by) = gate.post_a, gate.post_b
    limit = travel_mm + 2.0 * half_mm
    # each focus is at least its distance from the segment away from any point of it: a quick "no"
    if _point_segment_mm(sx, sy, ax, ay, bx, by) + _point_segment_mm(ex, ey, ax, ay, bx, by) > limit + 1e-6:
        return False

    def total(t: float) -> float:
        x, y = ax + t * (bx - ax), ay + t * (by - ay)
        return math.hypot(x - sx, y - sy) + math.hypot(x - ex, y - ey)

    lo, hi = 0.0, 1.0
    for _ in range(40):
        m1, m2 = lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0
        if total(m1) <= total(m2):
            hi = m2
        else:
            lo = m1
    return min(total(0.0), total(1.0), total((lo + hi) / 2.0)) <= limit + 1e-6


_SHARED: dict[tuple[object, ...], tuple[Table, TemplateSet, object]] = {}
"""Moves and shots already judged by any referee of the same scenario table and template set, by the geometry
of the state (what :meth:`TableReferee.table` keys its own caches on): games of one scenario share their
openings (every bot race starts from the same grid), so a batch of races judges each opening once. Values are
immutable; each holds its scenario table and template set, so their ids cannot be reused while it is kept."""

SHARED_MAX = 4096
"""The most entries :data:`_SHARED` keeps (it is emptied when full)."""


def clear_shared_caches() -> None:
    """Forget the moves and shots shared between games (a benchmark batch starts cold with this)."""
    _SHARED.clear()


class _Geometry:
    """A state's geometry key with its hash worked out once (it is hashed at every shared lookup)."""

    __slots__ = ("key", "hash")

    def __init__(self, key: tuple[object, ...]) -> None:
        self.key = key
        self.hash = hash(key)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, _Geometry) and self.hash == other.hash and self.key == other.key)


_MOVES: dict[MovePlan, Move] = {}


def _move_of(plan: MovePlan) -> Move:
    """The geometry :class:`Move` of ``plan`` (equal plans give the same value; kept, as both are immutable)."""
    move = _MOVES.get(plan)
    if move is None:
        move = Move(plan.template, plan.direction, plan.reverse, plan.slide, plan.slide_facing,
                    slide_template=plan.slide_template)
        if len(_MOVES) > 1024:
            _MOVES.clear()
        _MOVES[plan] = move
    return move


def _share(key: tuple[object, ...], value: tuple[Table, TemplateSet, object]) -> None:
    if len(_SHARED) >= SHARED_MAX:
        _SHARED.clear()
    _SHARED[key] = value


def finish_gate(table: Table) -> Gate | None:
    """The Street Race Finish Line as a directed gate: crossing it means moving away from the Starting Line.

    Without a Starting Line the direction is the left-hand normal of the line
    as written (a to b). None when the table has no finish line.
    """
    finish = next((line for line in table.lines if line.kind == "finish"), None)
    if finish is None:
        return None
    start = next((line for line in table.lines if line.kind == "start"), None)
    gate = Gate(finish.id, 0, finish.a, finish.b)
    if start is not None:
        sx, sy = start.segment.centroid.x, start.segment.centroid.y
        fx, fy = finish.segment.centroid.x, finish.segment.centroid.y
        dx, dy = gate.direction
        if (fx - sx) * dx + (fy - sy) * dy < 0:
            gate = Gate(finish.id, 0, finish.b, finish.a)
    return gate


@dataclass(frozen=True)
class _Blocker:
    id: str
    shape: Polygon
    vehicle: VehiclePiece | None
    obstacle: Obstacle | None


class TableReferee:
    """The :class:`~simulator.gaslands.referee.Referee` of a real table.

    ``table`` is the scenario's table (its obstacles, surfaces, gates and
    lines; its vehicles are replaced by the game's); ``template_set`` gives the
    movement and shooting templates; ``shooting`` defaults to the geometry's.
    """

    def __init__(self, table: Table, template_set: TemplateSet, shooting_api: Shooting | None = None) -> None:
        self.base = replace(table, vehicles=())
        self._source = table
        """The scenario's table as given (shared by every game of the scenario: the key of :data:`_SHARED`)."""
        self.template_set = template_set
        self.shooting: Shooting = shooting_api or GeometryShooting()
        self.finish = finish_gate(table)
        self.gates = table.gates
        self._cache_state: GameState | None = None
        self._cache_key: tuple[object, ...] | None = None
        self._geometry_key: tuple[object, ...] | None = None
        self._shared_key: _Geometry | None = None
        self._cache_table = self.base
        self._with_smoke: Table | None = None
        self._gate_tables: dict[tuple[Gate, ...], Table] = {}
        self._shots: dict[tuple[object, ...], tuple[Shot, ...]] = {}
        self._shot: dict[tuple[str, int, str], Shot | None] = {}
        self._moves: dict[tuple[object, ...], MoveReport] = {}
        self._drops: tuple[tuple[str, Polygon], ...] = ()
        self._smoke: tuple[Obstacle, ...] = ()
        self.starting_line = starting_line(table)

    # ------------------------------------------------------------------ state -> table

    def table(self, state: GameState) -> Table:
        """The geometry table of ``state`` (cached for the last state seen)."""
        if state is self._cache_state:
            return self._cache_table
        geometry = (state.removed_obstacles, state.players, state.dropped,
                    tuple((v.id, v.pose, v.status, v.reversing, v.bend_deg) for v in state.vehicles),
                    tuple(t for t in state.scenario.tokens if t.obstacle and t.on_table))
        key = (geometry, tuple(v.gear for v in state.vehicles))
        self._cache_state = state
        if key == self._cache_key:
            return self._cache_table
        self._cache_key = key
        self._cache_table = table_for(self.base, state)
        self._with_smoke = None
        self._gate_tables = {}
        if geometry != self._geometry_key:
            # The geometry never reads a vehicle's gear: moves and shots survive a change of gear.
            self._geometry_key = geometry
            self._shared_key = _Geometry((id(self._source), id(self.template_set), geometry))
            self._shots = {}
            self._shot = {}
            self._moves = {}
            self._drops = tuple((t.id, self.dropped_polygon(t.template, t.pose)) for t in reversed(state.dropped))
            self._smoke = tuple(Obstacle(t.id, poly, "lightweight", label="smoke")
                                for t, (_, poly) in zip(reversed(state.dropped), self._drops, strict=True)
                                if t.weapon == SMOKE)
        return self._cache_table

    def dropped_polygon(self, template: str, pose: Pose) -> Polygon:
        """A dropped template's outline on the table (p.78)."""
        return dropped_polygon(self.template_set.shooting[template], pose)

    def _touched(self, movement_polygon: Polygon | None, final: Pose, piece: VehiclePiece,
                 bend_deg: float | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Dropped templates (top first) overlapped and touched by a move's template or Final Position (p.78);
        an articulated vehicle's Final Position is both pieces (``bend_deg``: its trailer's bend there).

        Airborne vehicles ignore dropped weapons (p.70).
        """
        if not self._drops or piece.airborne:
            return (), ()
        area = move_area(movement_polygon, final, piece.length_mm, piece.width_mm)
        if piece.trailer is not None:
            area = shapely.union(area, piece.moved(final, bend_deg=bend_deg).outline)
        return touched_templates(area, self._drops)

    # ------------------------------------------------------------------ movement

    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        """Final Position of a Movement Step with ``resolve_move`` (p.22-26, p.45-51); a move that reaches a
        ramp's edge other than its entry edge stops there (``ramp``, p.87)."""
        move = _move_of(plan)
        if not self.base.ramps:
            return self.resolve(state, vehicle_id, move)
        table = self.table(state)
        key = (vehicle_id, move, "ramps")
        if key not in self._moves:
            result, stop = stop_at_ramp(table, vehicle_id, resolve_move(table, vehicle_id, move, self.template_set))
            report = self._report(table, vehicle_id, result, forward=not move.reverse)
            if stop is not None:
                ramp = next(r for r in self.base.ramps if r.id == stop.ramp)
                report = replace(report, ramp=ramp.id, ramp_name=ramp.name)
            self._moves[key] = report
        return self._moves[key]

    def resolve(self, state: GameState, vehicle_id: str, move: Move) -> MoveReport:
        """Any geometry :class:`Move` of ``vehicle_id`` in ``state``, as a report (also used by bots)."""
        table = self.table(state)
        key = (vehicle_id, move)
        hit = self._moves.get(key)
        if hit is None:
            shared = (self._shared_key, vehicle_id, move)
            known = _SHARED.get(shared)
            if known is not None and known[0] is self._source and known[1] is self.template_set \
                    and isinstance(known[2], MoveReport):
                report = known[2]
            else:
                result = resolve_move(table, vehicle_id, move, self.template_set)
                report = self._report(table, vehicle_id, result, forward=not move.reverse)
                _share(shared, (self._source, self.template_set, report))
            self._moves[key] = hit = report
        return hit

    def preview(self, state: GameState, vehicle_id: str, move: Move) -> MoveResult:
        """The raw geometry result of a move (path, polygons, notes) for drawing it."""
        return resolve_move(self.table(state), vehicle_id, move, self.template_set)

    def nominal(self, state: GameState, vehicle_id: str, plan: MovePlan) -> Pose:
        """Where the template would put the vehicle if nothing were in the way (a cheap preview, p.25)."""
        v = state.vehicle(vehicle_id)
        return final_position(self.template_set, v.pose, v.length_mm, v.width_mm, _move_of(plan))

    def _lines_crossed(self, table: Table, piece: VehiclePiece, path: Path
                       ) -> tuple[bool, tuple[str, ...], tuple[float, float] | None]:
        """(Finish Line touched while driving across it, gates touched in their direction in order, where the
        centre crossed the Finish Line) along ``path`` (p.62, p.127)."""
        half = half_diagonal_mm(piece.length_mm, piece.width_mm) + 1.0
        ends = ((path.start.x_mm, path.start.y_mm), (path.end.x_mm, path.end.y_mm))
        near = tuple(g for g in self.gates if may_reach(g, ends, path.travel_mm, half))
        gates = gates_passed(self._with_gates(table, near), path, piece) if near else ()
        crossed, point = False, None
        if self.finish is not None and may_reach(self.finish, ends, path.travel_mm, half):
            crossed = bool(gates_passed(self._with_gates(table, (self.finish,)), path, piece))
            if crossed:  # the centre cannot cross the line unless the vehicle touched it going across
                point = centre_crossing(path, self.finish.post_a, self.finish.post_b, self.finish.direction)
        return crossed, gates, point

    def _with_gates(self, table: Table, gates: tuple[Gate, ...]) -> Table:
        """``table`` with ``gates`` (kept while ``table`` is the current one)."""
        if table is not self._cache_table:
            return replace(table, gates=gates)
        hit = self._gate_tables.get(gates)
        if hit is None:
            hit = self._gate_tables[gates] = replace(table, gates=gates)
        return hit

    def _report(self, table: Table, vehicle_id: str, result: MoveResult, *, forward: bool) -> MoveReport:
        piece = table.vehicle(vehicle_id)
        crossed, gates, point = self._lines_crossed(table, piece, result.path) if forward else (False, (), None)
        dropped, touched = self._touched(result.placed.movement_polygon, result.final, piece, result.bend_deg)
        return MoveReport(
            pose=result.final,
            interrupted=result.ended_interrupted,
            contacts=tuple(self._contact(table, c) for c in result.collisions),
            disqualified=result.disqualified,
            surfaces=tuple(k for k, on in result.surfaces.items() if on and k != "road"),
            crossed_finish=crossed,
            gates=gates,
            removed=result.removed,
            dropped=dropped,
            dropped_touched=touched,
            path=result.path,
            finish_touch=crossed,
            finish_point=point,
            area=result.placed.movement_polygon,
            bend_deg=result.bend_deg,
        )

    def _contact(self, table: Table, c: Collision) -> Contact:
        if c.passive_edge is not None:
            return Contact(c.with_id, Orientation(c.orientation), c.active_edge, c.passive_edge, piece=c.part,
                           other_piece=c.with_part)
        obstacle = table.obstacle(c.with_id)
        return Contact(c.with_id, Orientation(c.orientation), c.active_edge, "front", obstacle=True,
                       obstacle_weight=obstacle.weight, destructible=obstacle.destructible,
                       volatile=obstacle.volatile,
                       other_name=obstacle.label or obstacle.id, piece=c.part)

    def forced_move(self, state: GameState, vehicle_id: str, template: str, *, ignore_obstructions: bool,
                    direction: Side | None = None) -> MoveReport:
        """A forced move straight ahead (p.39): a Flip ignores obstructions (p.35), a skid to a halt not (p.43).
        ``direction``: for a turning template (Rocket Thrusters' Veer or Gentle, p.114)."""
        if not ignore_obstructions:
            return self.resolve(state, vehicle_id, Move(template, direction))
        return self._through(state, vehicle_id, Move(template, direction))

    def move_through(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        """A Movement Step that ignores every obstruction on its way (Stunt Driver, p.107); it collides only with
        what its Final Position ends touching."""
        return self._through(state, vehicle_id, Move(plan.template, plan.direction, plan.reverse, plan.slide,
                                                     plan.slide_facing, slide_template=plan.slide_template))

    def _through(self, state: GameState, vehicle_id: str, move: Move) -> MoveReport:
        table = self.table(state)
        piece = table.vehicle(vehicle_id)
        if piece.trailer is not None:
            return self._forced_rig(table, piece, move)
        alone = replace(table, vehicles=(piece,), obstacles=(), gates=())
        result = resolve_move(alone, vehicle_id, move, self.template_set)
        u = self._clear_back(table, piece, result.path)
        pose = result.path.pose_at(u).normalised()
        driven = truncated(result.path, u)
        crossed, gates, point = self._lines_crossed(table, piece, driven)
        dropped, touched = self._touched(result.placed.movement_polygon, pose, piece)
        return MoveReport(pose, disqualified=result.disqualified, crossed_finish=crossed, gates=gates,
                          contacts=self._landing_contacts(table, piece, pose), dropped=dropped,
                          dropped_touched=touched, path=driven, finish_touch=crossed, finish_point=point,
                          area=result.placed.movement_polygon)

    def _forced_rig(self, table: Table, piece: VehiclePiece, move: Move) -> MoveReport:
        """A War Rig's move ignoring obstructions (a Jump or Tumble, p.87; Stunt Driver, p.107): the cab as the
        move says, the trailer hitched behind (p.118), both backed along the path until clear (GEOMETRY.md 8)."""
        result = resolve_move(table, piece.id, move, self.template_set, ignore_obstructions=True)
        crossed, gates, point = self._lines_crossed(table, piece, result.path)
        dropped, touched = self._touched(result.placed.movement_polygon, result.final, piece, result.bend_deg)
        landed = piece.moved(result.final, bend_deg=result.bend_deg)
        return MoveReport(result.final, disqualified=result.disqualified, crossed_finish=crossed, gates=gates,
                          contacts=self._landing_contacts(table, piece, result.final, landed), dropped=dropped,
                          dropped_touched=touched, path=result.path, finish_touch=crossed, finish_point=point,
                          area=result.placed.movement_polygon, bend_deg=result.bend_deg)

    def _landing_contacts(self, table: Table, piece: VehiclePiece, pose: Pose,
                          landed: VehiclePiece | None = None) -> tuple[Contact, ...]:
        """A forced move that ignored obstructions collides with what it ends touching and did not start
        touching (its Collision Window, p.35, p.39, p.45); either piece of a War Rig (p.118)."""
        if landed is None:
            landed = replace(piece, pose=pose)
        out: list[Contact] = []
        met: set[str] = set()
        for b in self._blockers(table, piece):
            owner = b.vehicle.owner if b.vehicle is not None else b.id
            if owner in met or any(touches(p.footprint, b.shape) for p in piece.pieces):
                continue
            part = next((p for p in landed.pieces if touches(p.footprint, b.shape)), None)
            if part is None:
                continue
            c = classify(part, b.vehicle, b.shape)
            if c.orientation is None or c.a_edge is None:
                continue
            mine = "trailer" if part.part_of else "cab" if part.has_trailer else ""
            if b.vehicle is not None and c.b_edge is not None:
                theirs = "trailer" if b.vehicle.part_of else "cab" if b.vehicle.has_trailer else ""
                out.append(Contact(owner, Orientation(c.orientation), c.a_edge, c.b_edge, piece=mine,
                                   other_piece=theirs))
                met.add(owner)
            elif b.obstacle is not None:
                out.append(Contact(b.id, Orientation(c.orientation), c.a_edge, "front", obstacle=True,
                                   obstacle_weight=b.obstacle.weight, destructible=b.obstacle.destructible,
                                   volatile=b.obstacle.volatile,
                                   other_name=b.obstacle.label or b.id, piece=mine))
                met.add(owner)
        return tuple(out)

    def _clear_back(self, table: Table, piece: VehiclePiece, path: Path) -> float:
        """The furthest point along ``path`` where ``piece`` overlaps nothing (p.35, p.87)."""
        shapes = [b.shape for b in self._blockers(table, piece)]

        def clear(u: float) -> bool:
            fp = footprint(path.pose_at(u), piece.length_mm, piece.width_mm)
            return not any(overlaps(fp, s) or overlaps(s, fp) for s in shapes if fp.intersects(s))

        if clear(path.total):
            return path.total
        step = 1.0
        hi = path.total
        lo = max(0.0, hi - step)
        while lo > 0.0 and not clear(lo):
            hi, lo = lo, max(0.0, lo - step)
        if not clear(lo):
            return 0.0
        while hi - lo > 1e-3:
            mid = (lo + hi) / 2.0
            lo, hi = (mid, hi) if clear(mid) else (lo, mid)
        return lo

    def spin(self, state: GameState, vehicle_id: str, angle_deg: float) -> MoveReport:
        """A Spin about the centre, stopping at first contact (p.24)."""
        return self._rotate(state, vehicle_id, angle_deg)

    def pivot(self, state: GameState, vehicle_id: str, heading_deg: float) -> MoveReport:
        """Lose Control: pivot the shorter way to ``heading_deg``, stopping at first contact (p.35)."""
        current = state.vehicle(vehicle_id).pose.heading_deg
        return self._rotate(state, vehicle_id, angle_diff_deg(heading_deg, current))

    def _blockers(self, table: Table, piece: VehiclePiece) -> list[_Blocker]:
        return [_Blocker(o.id, o.shape, o.vehicle, o.obstacle) for o in obstructions_for(table, piece)]

    def _rotate(self, state: GameState, vehicle_id: str, delta_deg: float) -> MoveReport:
        """Turn about the centre with the geometry's pivot (stops at first contact, p.24, p.35)."""
        table = self.table(state)
        result = resolve_pivot(table, vehicle_id, delta_deg)
        contacts = tuple(self._contact(table, c) for c in result.collisions)
        piece = table.vehicle(vehicle_id)
        dropped, touched = self._touched(None, result.final, piece)
        stopped_by: tuple[str, ...] = ()
        if result.stopped and not contacts:
            turned = piece.moved(result.final).pieces
            stopped_by = tuple(dict.fromkeys(_owner(b) for b in self._blockers(table, piece)
                                             if any(touches(p.footprint, b.shape) for p in turned)))
        return MoveReport(result.final, interrupted=result.stopped, contacts=contacts, dropped=dropped,
                          dropped_touched=touched, turned_deg=result.turned_deg, stopped_by=stopped_by)

    def swing(self, state: GameState, vehicle_id: str, bend_deg: float) -> MoveReport:
        """Swing Trailer (Jackknife, p.119; GEOMETRY.md 8): the trailer turned about the hitch towards
        ``bend_deg``, the shorter way, stopping at first contact; its Collisions are the report's contacts.
        A vehicle without a trailer piece does not move."""
        table = self.table(state)
        piece = table.vehicle(vehicle_id)
        if piece.trailer is None:
            return MoveReport(piece.pose, turned_deg=0.0)
        result = swing_trailer(table, vehicle_id, bend_deg)
        contacts = tuple(self._contact(table, c) for c in result.collisions)
        swung = piece.moved(piece.pose, bend_deg=result.bend_deg)
        dropped, touched = self._touched(None, piece.pose, piece, result.bend_deg)
        stopped_by: tuple[str, ...] = ()
        if result.stopped and not contacts and swung.trailer is not None:
            t = swung.trailer.footprint
            stopped_by = tuple(dict.fromkeys(_owner(b) for b in self._blockers(table, piece) if touches(t, b.shape)))
        return MoveReport(piece.pose, interrupted=result.stopped, contacts=contacts, dropped=dropped,
                          dropped_touched=touched, turned_deg=result.turned_deg, stopped_by=stopped_by,
                          removed=result.removed, bend_deg=result.bend_deg)

    def continue_move(self, state: GameState, vehicle_id: str, plan: MovePlan, start: Pose,
                      ignoring: tuple[str, ...]) -> MoveReport:
        """Up and Over (p.71): the move from ``start`` again with ``ignoring`` off the table; a Final Position
        on top of an ignored piece goes back along the path, by the least amount, until clear (as p.35)."""
        here = state.vehicle(vehicle_id)
        table = self.table(state.with_vehicle(replace(here, pose=start)))
        ignored = set(ignoring)
        shapes = [b.shape for b in self._blockers(table, table.vehicle(vehicle_id)) if b.id in ignored]
        bare = replace(table, vehicles=tuple(v for v in table.vehicles if v.id not in ignored),
                       obstacles=tuple(o for o in table.obstacles if o.id not in ignored))
        move = Move(plan.template, plan.direction, plan.reverse, plan.slide, plan.slide_facing,
                    slide_template=plan.slide_template)
        result = resolve_move(bare, vehicle_id, move, self.template_set)
        report = self._report(bare, vehicle_id, result, forward=not move.reverse)
        piece = bare.vehicle(vehicle_id)

        def clear(u: float) -> bool:
            fp = footprint(result.path.pose_at(u), piece.length_mm, piece.width_mm)
            return not any(overlaps(fp, s) or overlaps(s, fp) for s in shapes if fp.intersects(s))

        if clear(result.path.total):
            return report
        hi = result.path.total
        lo = max(0.0, hi - 1.0)
        while lo > 0.0 and not clear(lo):
            hi, lo = lo, max(0.0, lo - 1.0)
        while clear(lo) and hi - lo > 1e-3:
            mid = (lo + hi) / 2.0
            lo, hi = (mid, hi) if clear(mid) else (lo, mid)
        pose = result.path.pose_at(lo).normalised()
        return replace(report, pose=pose, interrupted=True, contacts=(), path=truncated(result.path, lo))

    def grid_slot(self, state: GameState, vehicle_id: str, slot: int) -> Pose | None:
        """Starting Grid slot ``slot`` behind the Starting Line (p.126; :mod:`simulator.gaslands.grid`)."""
        line = self.starting_line
        if line is None:
            return None
        v = state.vehicle(vehicle_id)
        width = max(w.width_mm for w in state.vehicles) + FINGER_WIDTH_MM
        depth = max(w.length_mm + w.trailer_length_mm for w in state.vehicles) + FINGER_WIDTH_MM
        pose = slot_pose(line, state.grid_width(), slot, width, depth, v.length_mm)
        shape = vehicle_piece(replace(v, pose=pose, bend_deg=0.0), state.players).outline
        table = self.table(state)
        if not table.area.buffer(TOUCH_MM).contains(shape):
            return None
        if any(touches(shape, o.polygon) for o in table.obstacles):
            return None
        if any(shape.distance(p.outline) < FINGER_WIDTH_MM - TOUCH_MM for p in table.vehicles):
            return None
        return pose

    def name_of(self, piece_id: str) -> str:
        """The label of a piece of terrain (``"rock"``, ``"gate post"``), else its id."""
        for o in self.base.obstacles:
            if o.id == piece_id:
                return o.label or o.id
        for g in self.gates:
            if piece_id.startswith(f"{g.id}.post"):
                return f"a post of {g.id}"
        return piece_id

    def terrain(self) -> Table:
        """The scenario's table without vehicles."""
        return self.base

    def short_range_mm(self) -> float:
        """Short range: the length of the set's Short range template (p.28)."""
        return float(self.template_set.shooting["short"].length_mm)

    def race_order(self, state: GameState, course: Course) -> tuple[str, ...]:
        """Vehicles in play, first to last (:func:`simulator.gaslands.race.standings`, Runners Up p.128)."""
        return tuple(i for i in standings(state, self.base, course) if state.vehicle(i).in_play)

    def range_mm(self, name: str) -> float:
        """The length of the shooting template ``name`` of the template set (p.27)."""
        return float(self.template_set.shooting[name].length_mm)

    def fits(self, state: GameState, vehicle_id: str, pose: Pose) -> bool:
        """Wholly on the table, touching no obstruction, a finger's width from every other vehicle (p.126, p.130)."""
        v = state.vehicle(vehicle_id)
        shape = vehicle_piece(replace(v, pose=pose), state.players).outline
        table = self.table(state)
        if not table.area.buffer(TOUCH_MM).contains(shape):
            return False
        if any(touches(shape, o.polygon) for o in table.all_obstacles):
            return False
        return not any(shape.distance(p.outline) < FINGER_WIDTH_MM - TOUCH_MM for p in table.vehicles
                       if p.id != vehicle_id)

    def place(self, state: GameState, vehicle_id: str, pose: Pose, origin: Pose, away_from: str,
              band: str = "short", clear: bool = False) -> str:
        """Piledriver placement (p.120): within ``band`` range (Short) of ``origin``, on the table, overlapping
        nothing, not touching ``away_from``; the Experimental Teleporter (p.83-84) with ``band`` Medium or Long
        and ``clear``: touching no obstruction and no rough or treacherous surface either."""
        v = state.vehicle(vehicle_id)
        shape = vehicle_piece(replace(v, pose=pose), state.players).outline
        reach = self.template_set.shooting[band].length_mm
        if shape.distance(vehicle_piece(replace(v, pose=origin), state.players).outline) > reach + TOUCH_MM:
            return f"more than {band.title()} range ({reach:.0f} mm) from where it was"
        table = self.table(state)
        if not table.area.contains(shape):
            return "it would leave the table"
        if clear:
            for s in table.surfaces:
                if s.kind != "road" and touches(shape, s.polygon):
                    return f"it would touch {s.kind} terrain ({s.id})"
        for b in self._blockers(table, table.vehicle(vehicle_id)):
            if clear and touches(shape, b.shape):
                return f"it would touch {_owner(b)}"
            if _owner(b) == away_from and touches(shape, b.shape):
                return f"it would touch {away_from} again"
            if overlaps(shape, b.shape) or overlaps(b.shape, shape):
                return f"it would overlap {_owner(b)}"
        return ""

    # ------------------------------------------------------------------ attacks

    def shots(self, state: GameState, attacker_id: str, mount: int) -> tuple[Shot, ...]:
        """Vehicles the weapon on ``mount`` can target, with Cover and range band (p.28-30, p.42, p.87).

        Smoke templates count as obstructions for Cover (p.80).
        """
        table = self.table(state)
        key = (attacker_id, mount)
        if key not in self._shots:
            found = (self.shot(state, attacker_id, mount, t.id) for t in table.vehicles if t.id != attacker_id)
            self._shots[key] = tuple(s for s in found if s is not None)
        return self._shots[key]

    def shot(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> Shot | None:
        """The one entry of :meth:`shots` for ``target_id`` (None when it cannot be targeted), found alone."""
        self.table(state)
        key = (attacker_id, mount, target_id)
        if key in self._shot:
            return self._shot[key]
        if type(self.shooting) is not GeometryShooting:  # an injected shooting answers for this game alone
            shot = self._shot[key] = self._shot_of(state, attacker_id, mount, target_id)
            return shot
        shared = (self._shared_key, "shot", attacker_id, mount, target_id)
        known = _SHARED.get(shared)
        if known is not None and known[0] is self._source and known[1] is self.template_set \
                and (known[2] is None or isinstance(known[2], Shot)):
            shot = known[2]
        else:
            shot = self._shot_of(state, attacker_id, mount, target_id)
            _share(shared, (self._source, self.template_set, shot))
        self._shot[key] = shot
        return shot

    def _shot_of(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> Shot | None:
        attacker = state.vehicle(attacker_id)
        if not attacker.in_play or target_id == attacker_id:
            return None
        table = self.table(state)
        target = next((t.outline for t in table.vehicles if t.id == target_id), None)
        if target is None:  # a scenario's token that may be shot at (a turret, p.130), or nothing
            target = next((o.polygon for o in table.obstacles if o.id == target_id and
                           state.scenario.has_token(target_id)), None)
        if target is None:
            return None
        _, weapon = attacker.weapon(mount)
        bands = _bands(weapon)
        firer = firing_piece(table.vehicle(attacker_id), attacker, mount)
        if not bands or firer.footprint.distance(target) > self._reach(bands[-1]):
            return None
        arc = self._arc(attacker, mount)
        shooting_table = self._shooting_table(state)
        for band in bands:
            answer = self.shooting.shoot(shooting_table, firer.id, target_id, band, arc, self.template_set,
                                         weapon.has_rule("Indirect"))
            if answer.targetable:
                return Shot(target_id, answer.cover, band)
        return None

    def sight(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> Sight:
        """:meth:`shot`'s ruling with the template where the geometry places it for that band (the shot's, else
        the weapon's longest), the near part, Cover and blocks (p.28-30, p.42, p.87); for drawing only.

        Raises ``KeyError`` for an unknown vehicle.
        """
        attacker = state.vehicle(attacker_id)
        _, weapon = attacker.weapon(mount)
        bands = _bands(weapon)
        if not bands:
            return Sight("", None)
        arc = self._arc(attacker, mount)
        shot = self.shot(state, attacker_id, mount, target_id)
        band = shot.range_band if shot is not None else bands[-1]
        if not attacker.in_play or target_id == attacker_id:
            return Sight(arc, None, band)
        try:
            answer = self.shooting.shoot(self._shooting_table(state), attacker_id, target_id, band, arc,
                                         self.template_set, weapon.has_rule("Indirect"))
        except KeyError:  # not a piece on the table (a wreck taken off, a spent token)
            return Sight(arc, shot, band)
        template = getattr(answer, "placement_polygon", None)
        near = getattr(answer, "near_part", None)
        return Sight(arc, shot, band, template if isinstance(template, Polygon) else None,
                     near if isinstance(near, Polygon) else None, tuple(getattr(answer, "cover_from", ())),
                     tuple(getattr(answer, "blocked_by", ())))

    def _shooting_table(self, state: GameState) -> Table:
        table = self.table(state)
        if not self._smoke:
            return table
        if self._with_smoke is None:
            self._with_smoke = replace(table, obstacles=table.obstacles + self._smoke)
        return self._with_smoke

    def splash(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> tuple[str, ...]:
        """Vehicles under the template placed to attack ``target_id``, target first, never the attacker (p.82).

        The template is the one the geometry chose for the shot (GEOMETRY.md 6:
        not blocked, no Cover, largest margin).
        """
        shot = self.shot(state, attacker_id, mount, target_id)
        if shot is None:
            return ()
        table = self._shooting_table(state)
        attacker = state.vehicle(attacker_id)
        _, weapon = attacker.weapon(mount)
        firer = firing_piece(table.vehicle(attacker_id), attacker, mount)
        answer = self.shooting.shoot(table, firer.id, target_id, shot.range_band, self._arc(attacker, mount),
                                     self.template_set, weapon.has_rule("Indirect"))
        poly = getattr(answer, "placement_polygon", None)
        if not isinstance(poly, Polygon):
            return (target_id,)
        others = shooting.under_template(table, poly)
        return (target_id, *(i for i in others if i not in (attacker_id, target_id)))

    def drop(self, state: GameState, vehicle_id: str, template: str, edge: DropEdge, offset_mm: float) -> DropReport:
        """Place a dropped template against ``edge``, sliding ``offset_mm`` along it (p.78; GEOMETRY.md 6).

        Raises ``ValueError`` when the near edge would no longer touch the vehicle's edge.
        """
        t = self.template_set.shooting[template]
        table = self.table(state)
        at = table.vehicle(vehicle_id)
        if at.trailer is not None and edge == "rear":  # a War Rig's rear edge is its trailer's (p.118)
            at = at.trailer
        limit = max_offset_mm(at.length_mm, at.width_mm, edge, t.near_width_mm)
        if abs(offset_mm) > limit:
            raise ValueError(f"offset {offset_mm:.1f} mm: the template must touch the {edge} edge "
                             f"(at most {limit:.1f} mm either way, p.78)")
        pose = drop_pose(at.pose, at.length_mm, at.width_mm, edge, offset_mm)
        feet = tuple((p.owner, p.footprint) for p in table.pieces if p.owner != vehicle_id and not p.airborne)
        return DropReport(pose, tuple(dict.fromkeys(under(self.dropped_polygon(template, pose), feet))))

    def _reach(self, range_name: str) -> float:
        """No placement of this template reaches further from the firer than this (a quick reject)."""
        t = self.template_set.shooting[range_name]
        return math.hypot(t.length_mm, t.width_mm) + 1.0

    @staticmethod
    def _arc(attacker: VehicleState, mount: int) -> str:
        _, weapon = attacker.weapon(mount)
        facing = "crew" if mount < 0 else attacker.weapons[mount].facing
        return "turret" if weapon.crew_fired or weapon.has_rule("360-degree") else ARCS.get(facing, "front")

    def distracted(self, state: GameState, vehicle_id: str) -> bool:
        """Touching any obstruction (p.42) or a Smoke template (p.80) at the start of the Attack Step."""
        table = self.table(state)
        piece = table.vehicle(vehicle_id)
        if any(touches(piece.outline, s.polygon) for s in self._smoke):
            return True
        return bool(touching(table, piece))

    def within(self, state: GameState, vehicle_id: str, band: str) -> tuple[str, ...]:
        """Vehicles in play within range ``band`` (short, medium, long, double) of ``vehicle_id`` in a
        360-degree arc (p.28), for perks and sponsor rules (p.91-115)."""
        table = self.table(state)
        centre = vehicle_piece(state.vehicle(vehicle_id), state.players)
        reach = self._reach(band)
        near = tuple(v for v in table.vehicles if v.id != vehicle_id and centre.outline.distance(v.outline) <= reach)
        if not near:
            return ()
        small = replace(table, vehicles=(centre, *near), obstacles=(), gates=())
        reached: list[str] = []
        for piece in centre.pieces:  # a War Rig reaches from either piece (p.118)
            reached += self.shooting.within_range(small, piece.id, self.template_set, band)
        return tuple(v.id for v in near if v.id in reached)

    def within_medium(self, state: GameState, vehicle_id: str) -> tuple[str, ...]:
        """Vehicles in play within Medium range in a 360-degree arc of ``vehicle_id`` (p.44), or of an obstacle
        of that id (a Volatile obstacle exploding, p.87).

        The vehicle may already be a wreck or removed: it is put back where it stopped.
        """
        table = self.table(state)
        if not any(v.id == vehicle_id for v in state.vehicles):
            obstacle = table.obstacle(vehicle_id)
            reach = self._reach("medium")
            near = tuple(v for v in table.vehicles if obstacle.polygon.distance(v.outline) <= reach)
            if not near:
                return ()
            small = replace(table, vehicles=near, obstacles=(obstacle,), gates=())
            found = self.shooting.within_range(small, vehicle_id, self.template_set, "medium")
            return tuple(i for i in found if any(v.id == i for v in near))
        return self.within(state, vehicle_id, "medium")


def firing_piece(piece: VehiclePiece, vehicle: VehicleState, mount: int) -> VehiclePiece:
    """The piece a weapon fires from (p.118): a War Rig's trailer for a weapon mounted on it, else the vehicle
    (its cab); Handguns and Crew Fired weapons from the cab, where the crew is."""
    if piece.trailer is not None and 0 <= mount < len(vehicle.weapons) and vehicle.weapons[mount].on == "trailer":
        return piece.trailer
    return piece


def _owner(b: _Blocker) -> str:
    """The vehicle or obstacle a blocker is (or is a piece of)."""
    return b.vehicle.owner if b.vehicle is not None else b.id


def _bands(weapon: Weapon) -> tuple[str, ...]:
    if weapon.dropped:
        return ()
    if weapon.dice_by_range is not None:
        return tuple(b for b in RANGE_BANDS if b in weapon.dice_by_range)
    return (weapon.range,)
