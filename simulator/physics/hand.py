"""Picking pieces up and putting them down by hand, through a pymunk space.

The hand layer is what a player's fingers do on a real table: pick a piece up,
slide it, turn it, put it down next to (never inside) another piece. It works
in the table frame (millimetres, y up, angles counter-clockwise), so no
screen arithmetic happens here, and it never decides a rule: it only answers
"where does the piece end up if I push it there".

How it works: :meth:`HandLayer.from_table` builds a pymunk ``Space`` with one
body per piece (vehicle footprints and obstacle polygons; concave obstacles
are split into triangles) and static walls along the table edges. While a
piece is held it is the only dynamic body; a kinematic "hand" body follows
the cursor and pulls it through a ``PivotJoint`` (position) and a
``GearJoint`` (angle), both with a force limit, so the piece slides along
whatever it meets instead of entering it. Every step is checked with Shapely
against the pieces it must not overlap (more than 0.01 mm, DESIGN.md), and
the sweep between two steps must not cross one either; a step that would is
undone, so a piece can be pushed against a rock but never into or through it.

The space is mutable; it is rebuilt from the :class:`~simulator.geometry.table.Table`
value each time a piece is picked up (STYLE.md 2: snapshot the mutable thing).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pymunk
import shapely
from shapely import affinity
from shapely.geometry import Polygon

from simulator.geometry.contact import overlaps
from simulator.geometry.pose import Pose, footprint, normalise_deg
from simulator.geometry.table import Obstacle, Table

WALL_MM = 50.0
"""Thickness of the invisible walls along the table edges."""

MAX_SPEED_MM_S = 1500.0
"""A held piece never moves faster than this (keeps thin obstacles from being tunnelled)."""

SUBSTEP_S = 1.0 / 480.0
"""Physics sub-step."""


@dataclass(frozen=True)
class Placement:
    """Where a held piece is now: ``dx_mm``, ``dy_mm`` and ``dtheta_deg`` relative to where it was
    picked up (about its centre), and its current ``pose`` (centre and heading; for an obstacle
    the heading is the accumulated rotation)."""

    piece_id: str
    pose: Pose
    dx_mm: float
    dy_mm: float
    dtheta_deg: float


@dataclass
class _Piece:
    body: pymunk.Body
    shape_mm: Polygon  # outline when picked up (table frame)
    start: Pose  # centre and heading when picked up
    is_vehicle: bool
    length_mm: float = 0.0
    width_mm: float = 0.0


def _convex_parts(poly: Polygon) -> list[list[tuple[float, float]]]:
    """The polygon as convex vertex lists (itself if convex, else triangles)."""
    coords = [(float(x), float(y)) for x, y in poly.exterior.coords[:-1]]
    if poly.convex_hull.area - poly.area <= 1e-6 * max(poly.area, 1.0):
        return [coords]
    tris = shapely.constrained_delaunay_triangles(poly)
    return [[(float(x), float(y)) for x, y in t.exterior.coords[:-1]] for t in tris.geoms]


class HandLayer:
    """A pymunk space mirroring one :class:`Table`, for dragging one piece at a time.

    >>> from simulator.geometry.table import Table, VehiclePiece
    >>> car = VehiclePiece("c", "car", Pose(100.0, 100.0, 0.0), 60.0, 30.0)
    >>> hand = HandLayer.from_table(Table(600.0, 400.0, vehicles=(car,)))
    >>> hand.piece_at((110.0, 100.0)), hand.piece_at((300.0, 300.0))
    ('c', None)
    """

    def __init__(self, table: Table, movable_obstacles: bool = False) -> None:
        self.table = table
        self.movable_obstacles = movable_obstacles
        self.space = pymunk.Space()
        self.space.collision_slop = 0.001
        self.space.iterations = 30
        self.pieces: dict[str, _Piece] = {}
        self.held: str | None = None
        self._hand = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        self.space.add(self._hand)
        self._joints: list[pymunk.Constraint] = []
        self._target: tuple[float, float] = (0.0, 0.0)
        self._target_angle_rad = 0.0
        self._last_good: tuple[tuple[float, float], float] | None = None
        self._obstructions: list[Polygon] = []
        self._area = table.area.buffer(0.01, join_style="mitre")
        self._walls()
        for v in table.vehicles:
            self._add(v.id, v.footprint, v.pose, True, v.length_mm, v.width_mm, sensor=v.airborne)
        for o in table.all_obstacles:
            c = o.polygon.centroid
            self._add(o.id, o.polygon, Pose(c.x, c.y, 0.0), False)

    @classmethod
    def from_table(cls, table: Table, movable_obstacles: bool = False) -> HandLayer:
        """Build the layer for ``table``; obstacles can be picked up when ``movable_obstacles``."""
        return cls(table, movable_obstacles)

    # ------------------------------------------------------------ building
    def _walls(self) -> None:
        w, h, t = self.table.width_mm, self.table.height_mm, WALL_MM
        static = self.space.static_body
        boxes = [(-t, -t, w + t, 0.0), (-t, h, w + t, h + t), (-t, 0.0, 0.0, h), (w, 0.0, w + t, h)]
        for x0, y0, x1, y1 in boxes:
            self.space.add(pymunk.Poly(static, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]))

    def _add(self, piece_id: str, shape: Polygon, pose: Pose, is_vehicle: bool,
             length_mm: float = 0.0, width_mm: float = 0.0, sensor: bool = False) -> None:
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
        body.position = (pose.x_mm, pose.y_mm)
        body.angle = math.radians(pose.heading_deg)
        local = affinity.rotate(affinity.translate(shape, -pose.x_mm, -pose.y_mm), -pose.heading_deg,
                                origin=(0.0, 0.0))
        shapes = [pymunk.Poly(body, part) for part in _convex_parts(local)]
        for s in shapes:
            s.friction = 0.0
            s.sensor = sensor  # airborne vehicles pass over the others (p.70)
        self.space.add(body, *shapes)
        self.pieces[piece_id] = _Piece(body, shape, pose, is_vehicle, length_mm, width_mm)

    # ------------------------------------------------------------ queries
    def piece_at(self, point_mm: tuple[float, float], pick_radius_mm: float = 0.0) -> str | None:
        """The id of the movable piece under the table point (vehicles first), or None."""
        hits = self.space.point_query(point_mm, pick_radius_mm, pymunk.ShapeFilter())
        found = [self._id_of(h.shape.body) for h in hits if h.shape is not None]
        ids = [i for i in found if i is not None and self._movable(i)]
        ids.sort(key=lambda i: not self.pieces[i].is_vehicle)
        return ids[0] if ids else None

    def _id_of(self, body: pymunk.Body | None) -> str | None:
        for pid, piece in self.pieces.items():
            if piece.body is body:
                return pid
        return None

    def _movable(self, piece_id: str) -> bool:
        piece = self.pieces[piece_id]
        return piece.is_vehicle or (self.movable_obstacles and "." not in piece_id)

    def outline(self, piece_id: str) -> Polygon:
        """The piece's outline where it is now (table frame)."""
        piece = self.pieces[piece_id]
        p = self.placement(piece_id)
        if piece.is_vehicle:
            return footprint(p.pose, piece.length_mm, piece.width_mm)
        rotated = affinity.rotate(piece.shape_mm, p.dtheta_deg, origin=(piece.start.x_mm, piece.start.y_mm))
        return affinity.translate(rotated, p.dx_mm, p.dy_mm)

    def placement(self, piece_id: str) -> Placement:
        """Where the piece is now, relative to where the layer was built."""
        piece = self.pieces[piece_id]
        x, y = piece.body.position
        dtheta = math.degrees(piece.body.angle) - piece.start.heading_deg
        heading = normalise_deg(math.degrees(piece.body.angle))
        return Placement(piece_id, Pose(float(x), float(y), heading),
                         float(x) - piece.start.x_mm, float(y) - piece.start.y_mm, dtheta)

    # ------------------------------------------------------------ holding
    def pick_up(self, piece_id: str, grab_mm: tuple[float, float]) -> None:
        """Take hold of ``piece_id`` at the table point ``grab_mm``; raises ``KeyError`` if unknown."""
        self.put_down()
        piece = self.pieces[piece_id]
        body = piece.body
        body.body_type = pymunk.Body.DYNAMIC
        for s in body.shapes:
            s.density = 0.001
        body.velocity_func = _limited_velocity
        self._hand.position = grab_mm
        self._hand.angle = body.angle
        self._target, self._target_angle_rad = grab_mm, body.angle
        anchor = body.world_to_local(grab_mm)
        pivot = pymunk.PivotJoint(self._hand, body, (0.0, 0.0), anchor)
        pivot.max_force = 5.0e4
        pivot.error_bias = pow(1.0 - 0.3, 60.0)
        gear = pymunk.GearJoint(self._hand, body, 0.0, 1.0)
        gear.max_force = 5.0e6
        self._joints = [pivot, gear]
        self.space.add(*self._joints)
        self.held = piece_id
        airborne = {v.id for v in self.table.vehicles if v.airborne}
        self._obstructions = [] if piece_id in airborne else [
            self.outline(pid) for pid in self.pieces if pid != piece_id and pid not in airborne]
        self._last_good = ((float(body.position.x), float(body.position.y)), float(body.angle))

    def move_to(self, point_mm: tuple[float, float]) -> None:
        """Move the hand (the grab point) towards the table point ``point_mm``."""
        self._target = point_mm

    def rotate_by(self, delta_deg: float) -> None:
        """Turn the held piece by ``delta_deg`` (counter-clockwise positive), about the grab point."""
        self._target_angle_rad += math.radians(delta_deg)

    def step(self, dt_s: float) -> None:
        """Advance the simulation by ``dt_s`` seconds (in small sub-steps)."""
        if self.held is None:
            return
        n = max(1, math.ceil(dt_s / SUBSTEP_S))
        h = dt_s / n if dt_s > 0 else SUBSTEP_S
        start = self._hand.position
        start_angle = self._hand.angle
        for i in range(1, n + 1):
            f = i / n
            tx = start.x + (self._target[0] - start.x) * f
            ty = start.y + (self._target[1] - start.y) * f
            self._hand.velocity = ((tx - self._hand.position.x) / h, (ty - self._hand.position.y) / h)
            self._hand.angle = start_angle + (self._target_angle_rad - start_angle) * f
            self.space.step(h)
            self._hand.position = (tx, ty)
            self._guard()

    def settle(self, seconds: float = 0.5) -> None:
        """Step until the held piece has caught up with the hand (or ``seconds`` pass)."""
        self.step(seconds)

    def _guard(self) -> None:
        """Undo a step that put the held piece into, or swept it through, a piece it must avoid."""
        assert self.held is not None and self._last_good is not None
        body = self.pieces[self.held].body
        now = self.outline(self.held)
        (gx, gy), ga = self._last_good
        before = self._outline_at(self.held, gx, gy, ga)
        moved = math.hypot(body.position.x - gx, body.position.y - gy) + abs(body.angle - ga) * 50.0
        sweep = shapely.convex_hull(shapely.union(now, before)) if moved > 2.0 else None
        if self._collides(now) or (sweep is not None and self._collides(sweep)):
            body.position = (gx, gy)
            body.angle = ga
            body.velocity = (0.0, 0.0)
            body.angular_velocity = 0.0
            return
        self._last_good = ((float(body.position.x), float(body.position.y)), float(body.angle))

    def _outline_at(self, piece_id: str, x: float, y: float, angle_rad: float) -> Polygon:
        piece = self.pieces[piece_id]
        if piece.is_vehicle:
            return footprint(Pose(x, y, math.degrees(angle_rad)), piece.length_mm, piece.width_mm)
        rotated = affinity.rotate(piece.shape_mm, math.degrees(angle_rad) - piece.start.heading_deg,
                                  origin=(piece.start.x_mm, piece.start.y_mm))
        return affinity.translate(rotated, x - piece.start.x_mm, y - piece.start.y_mm)

    def _collides(self, shape: Polygon) -> bool:
        if not shape.within(self._area):
            return True
        return any(overlaps(shape, other) for other in self._obstructions)

    def put_down(self) -> Placement | None:
        """Let go of the held piece; returns where it ended (None if nothing was held)."""
        if self.held is None:
            return None
        piece_id = self.held
        self.space.remove(*self._joints)
        self._joints = []
        body = self.pieces[piece_id].body
        if self._last_good is not None:
            (gx, gy), ga = self._last_good
            body.position, body.angle = (gx, gy), ga
        body.velocity, body.angular_velocity = (0.0, 0.0), 0.0
        result = self.placement(piece_id)
        body.body_type = pymunk.Body.STATIC
        self.held = None
        return result


def _limited_velocity(body: pymunk.Body, gravity: tuple[float, float], damping: float, dt: float) -> None:
    pymunk.Body.update_velocity(body, (0.0, 0.0), 0.9, dt)
    speed = body.velocity.length
    if speed > MAX_SPEED_MM_S:
        body.velocity = body.velocity * (MAX_SPEED_MM_S / speed)
    body.angular_velocity = max(-20.0, min(20.0, body.angular_velocity))


def moved_obstacle(obstacle: Obstacle, placement: Placement, start_centre: tuple[float, float]) -> Obstacle:
    """``obstacle`` turned by ``placement.dtheta_deg`` about ``start_centre`` and shifted by its offset."""
    from dataclasses import replace

    rotated = affinity.rotate(obstacle.polygon, placement.dtheta_deg, origin=start_centre)
    return replace(obstacle, polygon=affinity.translate(rotated, placement.dx_mm, placement.dy_mm))
