"""The table as a value: vehicles, obstacles, surfaces, gates and lines.

Everything is in the table frame (DESIGN.md). The value is immutable; moving a
piece returns a new :class:`Table`, so previews, undo and "what if" cost
nothing (STYLE.md 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

import shapely
from shapely.geometry import LineString, Polygon

from simulator.geometry.articulated import trailer_id, trailer_pose
from simulator.geometry.lazy import lazy_property
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.templates import circle_polygon
from simulator.vocab import WeightName as Weight  # noqa: E402  (one definition for every layer)

SurfaceKind = Literal["road", "rough", "treacherous"]

DEFAULT_POST_RADIUS_MM = 10.0
"""Radius of a gate post when the file gives none (RULINGS.md)."""


@dataclass(frozen=True)
class VehiclePiece:
    """A vehicle on the table: its pose and footprint (``length_mm`` along the heading).

    An articulated vehicle (War Rig, p.116-120; GEOMETRY.md 8) is its cab, with
    ``trailer_length_mm`` and ``trailer_width_mm`` above 0 and the trailer's
    ``bend_deg`` (its heading minus the cab's); :attr:`trailer` is then the
    trailer as a piece of its own (id ``VEHICLE.trailer``, ``part_of`` the
    vehicle's id), always hitched to the cab. ``pose`` and :attr:`footprint`
    are the cab's; :attr:`outline` covers both pieces.
    """

    id: str
    type: str
    pose: Pose
    length_mm: float
    width_mm: float
    weight: Weight = "middleweight"
    gear: int = 1
    reversing: bool = False
    airborne: bool = False
    player: str | None = None
    trailer_length_mm: float = 0.0
    trailer_width_mm: float = 0.0
    bend_deg: float = 0.0
    part_of: str = ""
    """A trailer piece: the id of the vehicle (its cab) it belongs to; empty for a vehicle."""

    @lazy_property
    def footprint(self) -> Polygon:
        """The footprint rectangle on the table."""
        return footprint(self.pose, self.length_mm, self.width_mm)

    @property
    def owner(self) -> str:
        """The id of the vehicle this piece is (or is part of)."""
        return self.part_of or self.id

    @property
    def has_trailer(self) -> bool:
        """Whether this is the cab of an articulated vehicle."""
        return self.trailer_length_mm > 0.0 and self.trailer_width_mm > 0.0

    @property
    def hitch_edge(self) -> Literal["front", "rear"] | None:
        """The edge at the hitch, which counts as a side in a Collision (GEOMETRY.md 8): a cab's rear, a
        trailer's front; None for a vehicle without a trailer."""
        if self.part_of:
            return "front"
        return "rear" if self.has_trailer else None

    @lazy_property
    def trailer(self) -> VehiclePiece | None:
        """The trailer as a piece of its own, hitched to this cab (None without one)."""
        if not self.has_trailer:
            return None
        pose = trailer_pose(self.pose, self.length_mm, self.trailer_length_mm, self.bend_deg)
        return VehiclePiece(trailer_id(self.id), self.type, pose, self.trailer_length_mm, self.trailer_width_mm,
                            self.weight, self.gear, self.reversing, self.airborne, self.player, part_of=self.id)

    @property
    def pieces(self) -> tuple[VehiclePiece, ...]:
        """The cab (this piece) and its trailer, or just this piece."""
        t = self.trailer
        return (self,) if t is None else (self, t)

    @lazy_property
    def outline(self) -> Polygon:
        """Everything the vehicle covers on the table: the footprint, with the trailer's when it has one."""
        t = self.trailer
        if t is None:
            return self.footprint
        joined = shapely.union(self.footprint, t.footprint)
        if not isinstance(joined, Polygon):  # the pieces always meet at the hitch; a rounding gap is closed
            hull: Polygon = shapely.convex_hull(joined)
            return hull
        return joined

    def moved(self, pose: Pose, reversing: bool | None = None, bend_deg: float | None = None) -> VehiclePiece:
        """The same vehicle at ``pose`` (optionally with a new reversing flag and trailer bend)."""
        # the constructor, field by field (as dataclasses.replace, without its per-call field walk)
        return VehiclePiece(self.id, self.type, pose, self.length_mm, self.width_mm, self.weight, self.gear,
                            self.reversing if reversing is None else reversing, self.airborne, self.player,
                            self.trailer_length_mm, self.trailer_width_mm,
                            self.bend_deg if bend_deg is None else bend_deg, self.part_of)


@dataclass(frozen=True)
class Obstacle:
    """An obstacle (p.86-87): a simple polygon with a weight class, maybe Tall or destructible."""

    id: str
    polygon: Polygon
    weight: Weight = "heavyweight"
    tall: bool = False
    destructible: bool = False
    label: str = ""
    volatile: bool = False


@dataclass(frozen=True)
class Surface:
    """An area of road, rough or treacherous surface (p.86)."""

    id: str
    kind: SurfaceKind
    polygon: Polygon


@dataclass(frozen=True)
class Gate:
    """A gate (p.124-127): two posts; the correct direction is the left-hand normal of a -> b."""

    id: str
    number: int
    post_a: tuple[float, float]
    post_b: tuple[float, float]
    post_radius_mm: float = DEFAULT_POST_RADIUS_MM

    @property
    def line(self) -> LineString:
        """The gate line joining the post centres."""
        return LineString([self.post_a, self.post_b])

    @property
    def direction(self) -> tuple[float, float]:
        """Unit vector of the correct direction of travel (left-hand normal of a -> b)."""
        dx, dy = self.post_b[0] - self.post_a[0], self.post_b[1] - self.post_a[1]
        n = (dx * dx + dy * dy) ** 0.5
        return (-dy / n, dx / n)

    def posts(self) -> tuple[Obstacle, Obstacle]:
        """The posts as middleweight obstacles with ids ``GATE.post_a`` and ``GATE.post_b``."""
        r = self.post_radius_mm
        return (
            Obstacle(f"{self.id}.post_a", circle_polygon(*self.post_a, r), "middleweight", label="gate post"),
            Obstacle(f"{self.id}.post_b", circle_polygon(*self.post_b, r), "middleweight", label="gate post"),
        )


@dataclass(frozen=True)
class Ramp:
    """A ramp on the table (p.87): its outline and which edge (1-based: edge ``k`` runs from point ``k`` to the next) is its
    entry edge."""

    id: str
    polygon: Polygon
    entry_edge: int = 1
    label: str = ""

    @lazy_property
    def points(self) -> tuple[tuple[float, float], ...]:
        """The outline's points in the file's order (without the closing repeat)."""
        coords = list(self.polygon.exterior.coords)[:-1]
        return tuple((float(x), float(y)) for x, y in coords)

    @lazy_property
    def edges(self) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
        """Every edge, edge ``k`` at index ``k - 1``."""
        pts = self.points
        return tuple((pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts)))

    @property
    def entry(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The entry edge's two ends."""
        return self.edges[self.entry_edge - 1]

    def exits(self) -> tuple[tuple[int, tuple[float, float], tuple[float, float]], ...]:
        """``(k, a, b)`` of every edge but the entry edge (1-based ``k``)."""
        return tuple((k, a, b) for k, (a, b) in enumerate(self.edges, 1) if k != self.entry_edge)

    @property
    def name(self) -> str:
        """The label, else the id."""
        return self.label or self.id


@dataclass(frozen=True)
class Line:
    """A start or finish line of a race (p.62): a segment from ``a`` to ``b``."""

    id: str
    kind: Literal["start", "finish"]
    a: tuple[float, float]
    b: tuple[float, float]

    @property
    def segment(self) -> LineString:
        """The line as a segment."""
        return LineString([self.a, self.b])


@dataclass(frozen=True)
class Table:
    """A play area ``width_mm`` x ``height_mm`` with everything on it."""

    width_mm: float
    height_mm: float
    vehicles: tuple[VehiclePiece, ...] = ()
    obstacles: tuple[Obstacle, ...] = ()
    surfaces: tuple[Surface, ...] = ()
    gates: tuple[Gate, ...] = ()
    lines: tuple[Line, ...] = ()
    template_set: str = "default"
    name: str = ""
    meta: tuple[tuple[str, str], ...] = field(default=())
    ramps: tuple[Ramp, ...] = ()

    @lazy_property
    def area(self) -> Polygon:
        """The play area as a polygon."""
        return Polygon([(0, 0), (self.width_mm, 0), (self.width_mm, self.height_mm), (0, self.height_mm)])

    def vehicle(self, vehicle_id: str) -> VehiclePiece:
        """The vehicle with this id; ``KeyError`` if there is none."""
        for v in self.vehicles:
            if v.id == vehicle_id:
                return v
        raise KeyError(f"no vehicle {vehicle_id!r}")

    @lazy_property
    def pieces(self) -> tuple[VehiclePiece, ...]:
        """Every vehicle piece on the table: each vehicle, followed by its trailer when it has one."""
        return tuple(p for v in self.vehicles for p in v.pieces)

    def piece(self, piece_id: str) -> VehiclePiece:
        """The vehicle or trailer piece with this id; ``KeyError`` if there is none."""
        for p in self.pieces:
            if p.id == piece_id:
                return p
        raise KeyError(f"no vehicle {piece_id!r}")

    def obstacle(self, obstacle_id: str) -> Obstacle:
        """The obstacle (gate posts included) with this id; ``KeyError`` if there is none."""
        for o in self.all_obstacles:
            if o.id == obstacle_id:
                return o
        raise KeyError(f"no obstacle {obstacle_id!r}")

    def shape_of(self, piece_id: str) -> Polygon:
        """The outline of a vehicle (both pieces of an articulated one), the footprint of a trailer piece
        (``VEHICLE.trailer``) or the polygon of an obstacle."""
        for p in self.pieces:
            if p.id == piece_id:
                return p.outline
        return self.obstacle(piece_id).polygon

    @lazy_property
    def all_obstacles(self) -> tuple[Obstacle, ...]:
        """Obstacles in file order, then the gate posts."""
        posts = tuple(p for g in self.gates for p in g.posts())
        return self.obstacles + posts

    def with_vehicle(self, piece: VehiclePiece) -> Table:
        """A copy with the vehicle of the same id replaced by ``piece``."""
        return Table(self.width_mm, self.height_mm, tuple([piece if v.id == piece.id else v for v in self.vehicles]),
                     self.obstacles, self.surfaces, self.gates, self.lines, self.template_set, self.name, self.meta,
                     self.ramps)

    def with_obstacle(self, obstacle: Obstacle) -> Table:
        """A copy with the obstacle of the same id replaced (or added at the end)."""
        if any(o.id == obstacle.id for o in self.obstacles):
            return replace(self, obstacles=tuple(obstacle if o.id == obstacle.id else o for o in self.obstacles))
        return replace(self, obstacles=self.obstacles + (obstacle,))

    def without_obstacle(self, obstacle_id: str) -> Table:
        """A copy without the obstacle ``obstacle_id`` (a destroyed destructible obstacle, p.49)."""
        return replace(self, obstacles=tuple(o for o in self.obstacles if o.id != obstacle_id))
