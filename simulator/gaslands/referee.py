"""The rules engine's window on the geometry: where moves end, what collides, who can be shot.

:class:`Referee` is the interface the engine calls; the geometry layer
(``simulator.geometry.movement.resolve_move`` and ``shooting.shoot``) plugs in
behind it. :class:`OpenTableReferee` is a stand-in for tests and bots on an
empty table: straights move the vehicle forward by a nominal length, nothing
collides, every vehicle is in range and arc without Cover.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from simulator.frozen import fast_init, replace
from simulator.gaslands.collisions import Orientation
from simulator.gaslands.decisions import DropEdge, Side
from simulator.gaslands.grid import FINGER_WIDTH_MM, StartingLine, slot_pose
from simulator.gaslands.race import Course
from simulator.gaslands.state import GameState
from simulator.geometry.articulated import clamp_bend
from simulator.geometry.dropped import drop_pose, max_offset_mm
from simulator.geometry.path import Path
from simulator.geometry.pose import TOUCH_MM, Pose, footprint
from simulator.geometry.table import Table


@dataclass(frozen=True)
class MovePlan:
    """A move to resolve: template, mirror, reverse and the Slide (p.22-26, p.39); ``slide_template``: the
    straight template a Powerslide uses as its Slide template (p.107), empty for the Slide template."""

    template: str
    direction: Side | None = None
    reverse: bool = False
    slide: bool = False
    slide_facing: Side | None = None
    slide_template: str = ""


@dataclass(frozen=True)
class Contact:
    """A Collision found by the geometry: the other piece and where each was touched (p.52-53).

    ``edge`` and ``other_edge`` are ``"front"``, ``"side"`` or ``"rear"`` after
    the corner and reversing rules; obstacles carry their weight and flags.
    """

    other_id: str
    orientation: Orientation
    edge: str = "front"
    other_edge: str = "front"
    obstacle: bool = False
    obstacle_weight: str = "heavyweight"
    destructible: bool = False
    other_name: str = ""
    """The obstacle's label (``"rock"``), for the log; vehicles are named by the game state."""
    volatile: bool = False
    """A Volatile obstacle: a D6 before reactions, 4+ and it explodes (p.87)."""
    piece: str = ""
    """Which piece of an articulated mover touched: ``"cab"`` or ``"trailer"`` (p.118); empty otherwise."""
    other_piece: str = ""
    """Which piece of an articulated other vehicle was touched; empty otherwise."""


@fast_init
@dataclass(frozen=True)
class MoveReport:
    """Where a move, pivot or forced move ended and what happened on the way.

    ``crossed_finish``: the vehicle touched a Street Race Finish Line while
    driving forward across it (p.62). ``gates``: ids of the race gates it
    touched while travelling in their direction, in the order touched; which of
    them count (in order, p.127) is for the rules engine to decide.
    ``removed``: destructible obstacles the vehicle drove through after
    colliding with them (p.49); they leave the table with the move.
    ``dropped``: ids of the dropped weapon templates that the movement
    template or the Final Position overlaps, top of the stack first (p.78);
    ``dropped_touched``: those it touches (a superset; Smoke, p.80).
    ``path``: the path driven (centre and heading along it), for drawing and
    animating; None for a turn on the spot. ``turned_deg``: how far a Spin,
    Pivot or Lose Control turned (counter-clockwise positive), and
    ``stopped_by`` what it stopped against without a Collision (p.24, p.35).
    ``finish_touch``: the vehicle touched the Finish Line while driving forward
    across it; ``finish_point``: where its centre crossed the line (between the
    posts, travelling away from the Starting Line), None if it did not (p.62).
    ``ramp``: the ramp at whose edge (not its entry edge) the move stopped, with
    ``ramp_name`` its label; a Jump or Tumble follows (p.87).
    ``area``: the movement template the move used (a Spin's or pivot's: None), for what a scenario counts
    as touched by "the movement template or Final Position" (p.131, p.139); None when the referee has no
    geometry. ``bend_deg``: an articulated vehicle's trailer bend after the move (p.118; None: unchanged).
    """

    pose: Pose
    interrupted: bool = False
    contacts: tuple[Contact, ...] = ()
    disqualified: bool = False
    surfaces: tuple[str, ...] = ()
    crossed_finish: bool = False
    gates: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    dropped_touched: tuple[str, ...] = ()
    path: Path | None = None
    turned_deg: float | None = None
    stopped_by: tuple[str, ...] = ()
    finish_touch: bool = False
    finish_point: tuple[float, float] | None = None
    ramp: str = ""
    ramp_name: str = ""
    area: BaseGeometry | None = field(default=None, compare=False, repr=False)
    bend_deg: float | None = None


@dataclass(frozen=True)
class DropReport:
    """Where a dropped weapon's template lands (p.78): its pose and the vehicles it overlaps.

    ``pose`` is the template's near-edge centre, heading the way it points;
    ``under`` lists the vehicles (never the one that dropped it) it overlaps.
    """

    pose: Pose
    under: tuple[str, ...] = ()


@dataclass(frozen=True)
class Shot:
    """A target the geometry allows for a weapon, with Cover (p.42) and the range band."""

    target: str
    cover: bool = False
    range_band: str = "medium"


@dataclass(frozen=True)
class Sight:
    """One weapon's line of fire at one target, for showing it (the ruling is :meth:`Referee.shot`'s).

    ``arc`` is the arc the weapon fires in (``front``, ``rear``, ``side``, ``turret``; ``""`` for a dropped
    weapon, which never fires at a target, p.78); ``shot`` the ruling itself (None: out of arc or range, or
    blocked by a Tall obstruction, p.28-30, p.87); ``range_band`` the band drawn (the shot's, else the
    weapon's longest); ``template`` the shooting template where the geometry placed it (table mm; None when
    it cannot be placed or is not known), ``near_part`` its part between the near edge and the target;
    ``cover_from`` the pieces giving Cover (p.42), ``blocked_by`` those blocking the line (p.87).
    """

    arc: str
    shot: Shot | None
    range_band: str = ""
    template: Polygon | None = field(default=None, compare=False)
    near_part: Polygon | None = field(default=None, compare=False)
    cover_from: tuple[str, ...] = ()
    blocked_by: tuple[str, ...] = ()


class Referee(Protocol):
    """The geometry questions the rules engine asks."""

    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        """Final Position of a Movement Step (p.25-26, p.45-50)."""
        ...

    def spin(self, state: GameState, vehicle_id: str, angle_deg: float) -> MoveReport:
        """A Spin about the centre (p.24)."""
        ...

    def forced_move(self, state: GameState, vehicle_id: str, template: str, *, ignore_obstructions: bool,
                    direction: Side | None = None) -> MoveReport:
        """A forced move straight ahead (p.39): Flip (p.35), skid to a halt (p.43); ``direction`` for a turning
        template (Rocket Thrusters, p.114)."""
        ...

    def move_through(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        """A Movement Step ignoring obstructions (Stunt Driver, p.107)."""
        ...

    def pivot(self, state: GameState, vehicle_id: str, heading_deg: float) -> MoveReport:
        """A pivot to a facing, e.g. Lose Control (p.35); an articulated vehicle turns about the rig's centre
        (p.118)."""
        ...

    def swing(self, state: GameState, vehicle_id: str, bend_deg: float) -> MoveReport:
        """Swing Trailer (Jackknife, p.119): the trailer hinged about the hitch to ``bend_deg``, stopping at
        first contact; ``bend_deg`` of the report is where it stopped."""
        ...

    def shots(self, state: GameState, attacker_id: str, mount: int) -> tuple[Shot, ...]:
        """Targets in range and arc of a weapon mount (``-1`` Handgun), not blocked by Tall (p.28-30, p.87)."""
        ...

    def shot(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> Shot | None:
        """``target_id`` as a target of the weapon mount, or None if out of range or arc (p.28-30)."""
        ...

    def sight(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> Sight:
        """The line of fire of the weapon on ``mount`` at ``target_id`` to draw: :meth:`shot`'s ruling with the
        template placed, Cover and blocks (p.28-30, p.42, p.87). Changes nothing."""
        ...

    def distracted(self, state: GameState, vehicle_id: str) -> bool:
        """Whether the vehicle touches an obstruction (p.42) or a Smoke template (p.80)."""
        ...

    def drop(self, state: GameState, vehicle_id: str, template: str, edge: DropEdge, offset_mm: float) -> DropReport:
        """Place a dropped weapon's ``template`` against ``edge`` (p.78); ``ValueError`` if the offset is too far."""
        ...

    def splash(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> tuple[str, ...]:
        """Every vehicle under the template placed to attack ``target_id``, the target first (Splash, p.82)."""
        ...

    def within_medium(self, state: GameState, vehicle_id: str) -> tuple[str, ...]:
        """Vehicles within Medium range in a 360-degree arc, for Explosions (p.44)."""
        ...

    def within(self, state: GameState, vehicle_id: str, band: str) -> tuple[str, ...]:
        """Vehicles in play within range ``band`` (short, medium, long, double) of ``vehicle_id`` in a
        360-degree arc (p.28): for perks and sponsor rules (p.91-115)."""
        ...

    def grid_slot(self, state: GameState, vehicle_id: str, slot: int) -> Pose | None:
        """Where ``vehicle_id`` stands in Starting Grid ``slot`` (p.126), or None if it does not fit there:
        off the table, on an obstruction, or less than a finger's width from a vehicle already placed."""
        ...

    def continue_move(self, state: GameState, vehicle_id: str, plan: MovePlan, start: Pose,
                      ignoring: tuple[str, ...]) -> MoveReport:
        """The Movement Step ``plan`` from ``start`` again, ignoring the obstructions ``ignoring`` (Up and
        Over, p.71): what it met before is already resolved; a Final Position on top of an ignored piece
        is moved back along the path until clear of it."""
        ...

    def place(self, state: GameState, vehicle_id: str, pose: Pose, origin: Pose, away_from: str,
              band: str = "short", clear: bool = False) -> str:
        """Why ``vehicle_id`` cannot be put at ``pose`` (Piledriver, p.120), or ``""`` if it can: within
        range ``band`` (Short; Medium or Long for the Experimental Teleporter, p.83-84) of ``origin``, on the
        table, overlapping nothing and not touching ``away_from``; with ``clear``, touching no obstruction
        and no rough or treacherous terrain either (the Teleporter)."""
        ...

    def name_of(self, piece_id: str) -> str:
        """A piece of terrain's name for the log (its label, e.g. ``"rock"``); the id if it has none."""
        ...

    def terrain(self) -> Table | None:
        """The table without its vehicles (obstacles, surfaces, gates, lines), or None for an open table."""
        ...

    def dropped_polygon(self, template: str, pose: Pose) -> Polygon:
        """A dropped template's outline on the table (p.78), for drawing it."""
        ...

    def nominal(self, state: GameState, vehicle_id: str, plan: MovePlan) -> Pose:
        """Where the template alone would put the vehicle, nothing in the way (a cheap preview, p.25)."""
        ...

    def short_range_mm(self) -> float:
        """The length of Short range (p.28), for placements within it (Piledriver, p.120)."""
        ...

    def race_order(self, state: GameState, course: Course) -> tuple[str, ...]:
        """Vehicles in play from first to last in the race: more gates passed first, then nearest the line
        they race to next (Runners Up, p.128)."""
        ...

    def range_mm(self, name: str) -> float:
        """The length of the shooting template ``name`` (``short``, ``medium``, ``long``, ``double``, p.27)."""
        ...

    def fits(self, state: GameState, vehicle_id: str, pose: Pose) -> bool:
        """Whether ``vehicle_id`` may be placed at ``pose``: wholly on the table, touching no obstruction, a
        finger's width from every other vehicle (deployment, p.126, p.130)."""
        ...


NOMINAL_LENGTH_MM: dict[str, float] = {
    "short_straight": 60.0,
    "medium_straight": 120.0,
    "long_straight": 182.0,
}
"""Straight lengths of the default template set (GEOMETRY.md 1), for the stand-in referee."""

NOMINAL_RANGE_MM: dict[str, float] = {"short": 60.0, "medium": 120.0, "long": 182.0, "double": 302.0}
"""Range lengths of the default template set (p.27), for the stand-in referee."""

OPEN_STARTING_LINE = StartingLine((0.0, -500.0), (0.0, 500.0), (1.0, 0.0))
"""The stand-in referee's Starting Line (p.126): the y axis, racing towards +x."""

NOMINAL_NEAR_EDGE_MM = 20.0
"""Near edge of the default Small and Large Burst templates (GEOMETRY.md 1), for the stand-in referee."""


class OpenTableReferee:
    """An empty, endless table: nothing collides, everyone can shoot everyone without Cover.

    Straights move the vehicle forward (backwards in reverse) by their nominal
    length; curves move it forward 100 mm and turn it 45 degrees towards
    ``direction``. Dropped templates land where the geometry puts them and
    touch nothing; a Splash hits only its target. Good enough to drive the engine in tests before the geometry
    is plugged in; not a ruling.
    """

    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        pose = state.vehicle(vehicle_id).pose
        length = NOMINAL_LENGTH_MM.get(plan.template, 100.0)
        moved = pose.ahead(-length if plan.reverse else length)
        if plan.template not in NOMINAL_LENGTH_MM:
            moved = moved.turned(45.0 if plan.direction == "left" else -45.0)
        if plan.slide:
            moved = moved.turned(90.0 if plan.slide_facing != "right" else -90.0)
        return MoveReport(moved)

    def spin(self, state: GameState, vehicle_id: str, angle_deg: float) -> MoveReport:
        return MoveReport(state.vehicle(vehicle_id).pose.turned(angle_deg), turned_deg=angle_deg)

    def forced_move(self, state: GameState, vehicle_id: str, template: str, *, ignore_obstructions: bool,
                    direction: Side | None = None) -> MoveReport:
        if template not in NOMINAL_LENGTH_MM:
            return self.move(state, vehicle_id, MovePlan(template, direction))
        return MoveReport(state.vehicle(vehicle_id).pose.ahead(NOMINAL_LENGTH_MM[template]))

    def move_through(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        return self.move(state, vehicle_id, plan)

    def pivot(self, state: GameState, vehicle_id: str, heading_deg: float) -> MoveReport:
        p = state.vehicle(vehicle_id).pose
        turned = (heading_deg - p.heading_deg + 180.0) % 360.0 - 180.0
        return MoveReport(Pose(p.x_mm, p.y_mm, heading_deg % 360.0), turned_deg=turned)

    def swing(self, state: GameState, vehicle_id: str, bend_deg: float) -> MoveReport:
        v = state.vehicle(vehicle_id)
        bend = clamp_bend(bend_deg)
        return MoveReport(v.pose, turned_deg=bend - v.bend_deg, bend_deg=bend)

    def shots(self, state: GameState, attacker_id: str, mount: int) -> tuple[Shot, ...]:
        return tuple(Shot(v.id) for v in state.vehicles if v.in_play and v.id != attacker_id)

    def shot(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> Shot | None:
        return next((s for s in self.shots(state, attacker_id, mount) if s.target == target_id), None)

    def sight(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> Sight:
        shot = self.shot(state, attacker_id, mount, target_id)
        return Sight("turret", shot, shot.range_band if shot is not None else "")

    def distracted(self, state: GameState, vehicle_id: str) -> bool:
        return False

    def drop(self, state: GameState, vehicle_id: str, template: str, edge: DropEdge, offset_mm: float) -> DropReport:
        v = state.vehicle(vehicle_id)
        limit = max_offset_mm(v.length_mm, v.width_mm, edge, NOMINAL_NEAR_EDGE_MM)
        if abs(offset_mm) > limit:
            raise ValueError(f"offset {offset_mm:.1f} mm: the template must touch the {edge} edge (p.78)")
        return DropReport(drop_pose(v.pose, v.length_mm, v.width_mm, edge, offset_mm))

    def splash(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> tuple[str, ...]:
        return (target_id,)

    def within_medium(self, state: GameState, vehicle_id: str) -> tuple[str, ...]:
        return ()

    def within(self, state: GameState, vehicle_id: str, band: str) -> tuple[str, ...]:
        return ()

    def grid_slot(self, state: GameState, vehicle_id: str, slot: int) -> Pose | None:
        """The Starting Line runs along the y axis through the origin, racing towards +x."""
        v = state.vehicle(vehicle_id)
        placed = [w for w in state.vehicles if w.in_play and w.id != vehicle_id]
        width = max(w.width_mm for w in state.vehicles) + FINGER_WIDTH_MM
        depth = max(w.length_mm for w in state.vehicles) + FINGER_WIDTH_MM
        pose = slot_pose(OPEN_STARTING_LINE, max(1, len(state.players)), slot, width, depth, v.length_mm)
        shape = footprint(pose, v.length_mm, v.width_mm)
        if any(shape.distance(footprint(w.pose, w.length_mm, w.width_mm)) < FINGER_WIDTH_MM - TOUCH_MM
               for w in placed):
            return None
        return pose

    def continue_move(self, state: GameState, vehicle_id: str, plan: MovePlan, start: Pose,
                      ignoring: tuple[str, ...]) -> MoveReport:
        v = state.vehicle(vehicle_id)
        return self.move(state.with_vehicle(replace(v, pose=start)), vehicle_id, plan)

    def name_of(self, piece_id: str) -> str:
        return piece_id

    def terrain(self) -> Table | None:
        return None

    def dropped_polygon(self, template: str, pose: Pose) -> Polygon:
        return footprint(pose.ahead(NOMINAL_NEAR_EDGE_MM), 2 * NOMINAL_NEAR_EDGE_MM, 2 * NOMINAL_NEAR_EDGE_MM)

    def nominal(self, state: GameState, vehicle_id: str, plan: MovePlan) -> Pose:
        return self.move(state, vehicle_id, plan).pose

    def short_range_mm(self) -> float:
        return NOMINAL_LENGTH_MM["short_straight"]

    def range_mm(self, name: str) -> float:
        return NOMINAL_RANGE_MM[name]

    def fits(self, state: GameState, vehicle_id: str, pose: Pose) -> bool:
        v = state.vehicle(vehicle_id)
        shape = footprint(pose, v.length_mm, v.width_mm)
        return not any(shape.distance(footprint(w.pose, w.length_mm, w.width_mm)) < FINGER_WIDTH_MM - TOUCH_MM
                       for w in state.vehicles if w.in_play and w.id != vehicle_id)

    def race_order(self, state: GameState, course: Course) -> tuple[str, ...]:
        return tuple(v.id for v in sorted((v for v in state.vehicles if v.in_play), key=lambda v: -v.gates_passed))

    def place(self, state: GameState, vehicle_id: str, pose: Pose, origin: Pose, away_from: str,
              band: str = "short", clear: bool = False) -> str:
        v = state.vehicle(vehicle_id)
        shape = footprint(pose, v.length_mm, v.width_mm)
        reach = NOMINAL_LENGTH_MM["short_straight"] if band == "short" else NOMINAL_RANGE_MM[band]
        if shape.distance(footprint(origin, v.length_mm, v.width_mm)) > reach:
            return f"more than {band.title()} range from where it was"
        for w in state.vehicles:
            if w.in_play and w.id != vehicle_id:
                other = footprint(w.pose, w.length_mm, w.width_mm)
                if (clear or w.id == away_from) and shape.distance(other) <= TOUCH_MM:
                    if clear:
                        return f"it would touch {w.id}"
                    return f"it would touch {w.id} again"
                if shape.intersection(other).area > TOUCH_MM:
                    return f"it would overlap {w.id}"
        return ""
