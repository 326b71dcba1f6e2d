"""Resolving a move on the table: Interrupted Movement, collisions, table edge,
surfaces and gates (p.45-51, p.86-87, p.124-127; GEOMETRY.md 4-5, 7).

:func:`resolve_move` is the one entry point. It places the template
(:mod:`simulator.geometry.placement`), decides whether the move is interrupted,
finds the first contact along the path to 0.001 mm with a search that cannot
step over a thin obstacle (conservative advancement, checked by the swept hull
of each step), backs off to the Interrupted Final Position, reports every
Collision with its orientation, removes destructible obstacles and resumes,
applies the Spin, and reports the table edge, surfaces and gates.
No dice are rolled here: collisions are reported, the rules engine resolves them.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field, replace
from typing import cast

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from simulator.geometry.articulated import (
    MAX_BEND_DEG,
    bend_between,
    cab_pose,
    clamp_bend,
    hitch_point,
    rig_centre,
    rotated,
    trailer_pose,
)
from simulator.geometry.contact import Edge, Orientation, classify, overlaps, overlaps_static, touches
from simulator.geometry.path import Path, Segment, appended, truncated
from simulator.geometry.placement import Move, PlacedMove, place
from simulator.geometry.pose import CONTACT_MM, TOUCH_MM, Pose, footprint, footprint_corners, half_diagonal_mm
from simulator.geometry.table import Obstacle, Surface, Table, VehiclePiece
from simulator.geometry.templates import TemplateSet

HULL_STEP = 0.25
"""Largest parameter step taken on the strength of a clear swept hull (mm or degrees)."""

MAX_ITERATIONS = 200_000

_CONTACT_TARGET_MM = 1e-4
"""The contact search stops this close (well inside the 0.001 mm it promises)."""


@dataclass(frozen=True)
class Obstruction:
    """Something a moving vehicle can hit: another vehicle (or one piece of an articulated one), an obstacle
    or a gate post."""

    id: str
    shape: Polygon
    vehicle: VehiclePiece | None = None
    obstacle: Obstacle | None = None

    @property
    def owner(self) -> str:
        """The id of the obstruction as a whole: the vehicle a trailer piece belongs to, else :attr:`id`."""
        return self.vehicle.owner if self.vehicle is not None else self.id

    @property
    def destructible(self) -> bool:
        """Removed after its collision (p.49); wrecks are destructible obstacles."""
        return self.obstacle is not None and self.obstacle.destructible


@dataclass(frozen=True)
class Collision:
    """One collision of the active vehicle (p.52-54).

    ``passive_edge`` is None for obstacles (always Head-On, Gear 0, p.54);
    ``point`` is where they touch (table mm); ``during`` is ``"move"``,
    ``"spin"`` or ``"swing"`` (a Jackknife's Swing Trailer, p.119). ``with_id``
    is the vehicle or obstacle as a whole; for an articulated vehicle
    (GEOMETRY.md 8) ``part`` and ``with_part`` say which piece touched:
    ``"cab"`` or ``"trailer"`` (empty for a vehicle without a trailer).
    """

    with_id: str
    orientation: Orientation
    active_edge: Edge
    passive_edge: Edge | None
    point: tuple[float, float]
    during: str = "move"
    part: str = ""
    with_part: str = ""

    def to_json(self) -> dict[str, object]:
        """The RULINGS.md form: with, orientation, active_edge, passive_edge (and active_piece,
        passive_piece for an articulated vehicle's pieces)."""
        out: dict[str, object] = {"with": self.with_id, "orientation": self.orientation,
                                  "active_edge": self.active_edge, "passive_edge": self.passive_edge}
        if self.part:
            out["active_piece"] = self.part
        if self.with_part:
            out["passive_piece"] = self.with_part
        return out


@dataclass(frozen=True)
class MoveResult:
    """Everything :func:`resolve_move` found.

    ``final``: where the vehicle ends (after any Spin). ``interrupted``: the
    template or Final Position overlapped a non-ignored obstruction (p.45).
    ``ended_interrupted``: it ended at an Interrupted Final Position. ``path``:
    the path actually driven, Spin included, for animation. ``table_after``:
    the table with the vehicle moved (reversing flag set) and destructible
    obstacles removed. An articulated vehicle (GEOMETRY.md 8): ``final`` is
    the cab's, ``bend_deg`` the trailer's bend after the move (None for a
    vehicle without a trailer), ``path`` the leading piece's (the cab's, or
    the trailer's in reverse, p.118) before any Spin.
    """

    final: Pose
    interrupted: bool
    ended_interrupted: bool
    collisions: tuple[Collision, ...]
    ignored: tuple[str, ...]
    removed: tuple[str, ...]
    disqualified: bool
    surfaces: dict[str, bool]
    gates_passed: tuple[str, ...]
    travel_mm: float
    path: Path
    placed: PlacedMove
    table_after: Table
    notes: tuple[str, ...] = field(default=())
    bend_deg: float | None = None
    vehicle_id: str = ""

    @property
    def trailer(self) -> Pose | None:
        """Where the trailer ends (an articulated vehicle, GEOMETRY.md 8), else None."""
        if self.bend_deg is None:
            return None
        t = self.table_after.vehicle(self.vehicle_id).trailer
        return t.pose if t is not None else None

    def to_json(self) -> dict[str, object]:
        """The result keys of a ``move`` query (RULINGS.md); an articulated vehicle adds ``trailer``."""
        f = self.final
        extra: dict[str, object] = {}
        t = self.trailer
        if t is not None and self.bend_deg is not None:
            extra["trailer"] = {"x_mm": round(t.x_mm, 6), "y_mm": round(t.y_mm, 6),
                                "heading_deg": round(t.heading_deg, 6), "bend_deg": round(self.bend_deg, 6) + 0.0}
        return {
            "final": {"x_mm": round(f.x_mm, 6), "y_mm": round(f.y_mm, 6), "heading_deg": round(f.heading_deg, 6)},
            **extra,
            "interrupted": self.interrupted,
            "collisions": [c.to_json() for c in self.collisions],
            "ignored": list(self.ignored),
            "removed": list(self.removed),
            "disqualified": self.disqualified,
            "surfaces": dict(self.surfaces),
            "gates_passed": list(self.gates_passed),
            "travel_mm": round(self.travel_mm, 6),
        }


# --------------------------------------------------------------------------- obstructions


def _build_obstructions(table: Table, mover: VehiclePiece) -> list[Obstruction]:
    out: list[Obstruction] = []
    for v in table.pieces:
        if v.owner != mover.owner and not mover.airborne and not v.airborne:
            out.append(Obstruction(v.id, v.footprint, vehicle=v))
    for o in table.all_obstacles:
        if not mover.airborne or o.tall:
            out.append(_obstruction_of(o))
    return out


_OBSTRUCTIONS: dict[int, tuple[Obstacle, Obstruction]] = {}


def _obstruction_of(o: Obstacle) -> Obstruction:
    """``Obstruction(o.id, o.polygon, obstacle=o)``, kept per obstacle object (a scenario's obstacles are the
    same objects in every table of a game)."""
    hit = _OBSTRUCTIONS.get(id(o))
    if hit is not None and hit[0] is o:
        return hit[1]
    out = Obstruction(o.id, o.polygon, obstacle=o)
    if len(_OBSTRUCTIONS) > 4096:
        _OBSTRUCTIONS.clear()
    _OBSTRUCTIONS[id(o)] = (o, out)
    return out


F64 = NDArray[np.float64]
Idx = NDArray[np.intp]


class _Scene:
    """Everything that can stop one mover on one table, as arrays (built once per table and mover)."""

    def __init__(self, items: list[Obstruction]) -> None:
        self.items = items
        self.array: NDArray[np.object_] = np.array([o.shape for o in items], dtype=object)
        self.bounds: F64 = shapely.bounds(self.array) if items else np.zeros((0, 4))
        self.boxes: list[tuple[float, float, float, float]] = [tuple(b) for b in self.bounds.tolist()]
        """:attr:`bounds` as plain numbers, a (minx, miny, maxx, maxy) tuple per obstruction."""
        if items:
            shapely.prepare(self.array)
        self._edges: _EdgeSet | None | bool = False
        self._subsets: dict[bytes, _EdgeSet | None] = {}
        self._pieces: list[_EdgeSet | None] | None = None
        self.shapes: dict[tuple[tuple[bool, ...], frozenset[str]], tuple[_Shapes, _Shapes]] = {}
        """:func:`_live`'s answers, per (reach mask, ignored ids)."""
        self.touching: dict[int, tuple[BaseGeometry, list[str]]] = {}
        """Ids of what touches the mover's footprint, per footprint (the mover stands still on a table)."""

    @property
    def edges(self) -> _EdgeSet | None:
        """The edges of every obstruction (None if one is not a polygon), built on first use."""
        if self._edges is False:
            self._edges = _edge_set([o.shape for o in self.items])
        return self._edges  # type: ignore[return-value]

    def edges_of(self, keep: NDArray[np.bool_]) -> _EdgeSet | None:
        """:attr:`edges` of the obstructions where ``keep`` is true, remembered per mask (joined from each
        polygon's own rows: the same arrays as ``edges.subset(keep)``, without building the whole set)."""
        key = keep.tobytes()
        if key in self._subsets:
            return self._subsets[key]
        if self._pieces is None:
            self._pieces = [_edge_piece(o.shape) for o in self.items]
        pieces = self._pieces
        if any(p is None for p in pieces):
            out = None  # as the whole set: the stepping search for every subset
        elif keep.any():
            out = _EdgeSet.join([cast(_EdgeSet, pieces[i]) for i in np.flatnonzero(keep).tolist()])
        else:
            full = self.edges
            out = None if full is None else full.subset(keep)
        if len(self._subsets) > 256:
            self._subsets.clear()
        self._subsets[key] = out
        return out


_SCENES: dict[tuple[int, str, bool], tuple[weakref.ref[Table], _Scene]] = {}

_CONTENT_SCENES: dict[tuple[object, ...], _Scene] = {}
"""Scenes by what they hold (see :func:`_content_key`): a new table with the same pieces and obstacles (a game
state that changed only a gear, a bot's next decision) shares the scene, its edge arrays and its caches."""


def _content_key(table: Table, mover: VehiclePiece) -> tuple[object, ...]:
    """What :func:`_build_obstructions` reads: the mover's owner and airborne flag, every other piece by value and
    every obstacle by its fields, its polygon by identity. A cached scene holds those polygons, so while it is
    cached no other polygon can have the same id."""
    owner = mover.owner
    return (owner, mover.airborne, tuple([v for v in table.pieces if v.owner != owner]),
            tuple([(o.id, id(o.polygon), o.weight, o.tall, o.destructible, o.label, o.volatile)
                   for o in table.all_obstacles]))


def _scene(table: Table, mover: VehiclePiece) -> _Scene:
    """:class:`_Scene` of ``mover`` on ``table``, cached per table (tables are immutable values) and per
    content (:func:`_content_key`)."""
    key = (id(table), mover.id, mover.airborne)
    hit = _SCENES.get(key)
    if hit is not None and hit[0]() is table:
        return hit[1]
    content = _content_key(table, mover)
    scene = _CONTENT_SCENES.get(content)
    if scene is None:
        scene = _Scene(_build_obstructions(table, mover))
        if len(_CONTENT_SCENES) > 256:
            _CONTENT_SCENES.clear()
        _CONTENT_SCENES[content] = scene
    if len(_SCENES) > 64:
        _SCENES.clear()
    _SCENES[key] = (weakref.ref(table), scene)
    return scene


def obstructions_for(table: Table, mover: VehiclePiece) -> list[Obstruction]:
    """What can stop ``mover``: vehicles in file order (each trailer after its cab; never the mover's own
    pieces), then obstacles, then gate posts.

    Airborne vehicles (p.70) are stopped only by Tall obstacles; grounded
    vehicles ignore airborne ones.
    """
    return list(_scene(table, mover).items)


class _Shapes:
    """The obstructions as a shapely array, for vectorised distance queries.

    ``near`` (minx, miny, maxx, maxy), when given, keeps only the obstructions
    whose bounding boxes meet it: everything the moving vehicle can reach.
    """

    def __init__(self, items: list[Obstruction], near: tuple[float, float, float, float] | None = None) -> None:
        if near is not None and items:
            b = shapely.bounds(np.array([o.shape for o in items], dtype=object))
            keep = (b[:, 0] <= near[2]) & (b[:, 2] >= near[0]) & (b[:, 1] <= near[3]) & (b[:, 3] >= near[1])
            items = [o for o, k in zip(items, keep, strict=True) if k]
        self.items = items
        self.array: NDArray[np.object_] = np.array([o.shape for o in items], dtype=object)
        if items:
            shapely.prepare(self.array)
        self._edges: _EdgeSet | None | bool = False
        self._source: tuple[_Scene, NDArray[np.bool_]] | None = None
        self._boxes: list[tuple[float, float, float, float]] | None = None
        """Each item's bounds, when known (from a scene)."""

    @classmethod
    def of_scene(cls, scene: _Scene, keep: NDArray[np.bool_]) -> _Shapes:
        """The obstructions of ``scene`` where ``keep`` is true (arrays shared with the cached scene)."""
        out = cls.__new__(cls)
        items = scene.items
        index = np.flatnonzero(keep).tolist()
        out.items = [items[i] for i in index]
        out.array = scene.array[keep]
        out._edges = False
        out._source = (scene, keep)
        out._boxes = [scene.boxes[i] for i in index]
        return out

    @property
    def edges(self) -> _EdgeSet | None:
        """The edges of every obstruction as arrays (None if one is not a polygon)."""
        if self._edges is False:
            if self._source is not None:
                self._edges = self._source[0].edges_of(self._source[1])
            else:
                self._edges = _edge_set([o.shape for o in self.items])
        return self._edges  # type: ignore[return-value]

    def distances(self, shape: BaseGeometry) -> NDArray[np.float64]:
        if not self.items:
            return np.zeros(0)
        out: NDArray[np.float64] = shapely.distance(shape, self.array)
        return out

    def nearest(self, shape: BaseGeometry) -> float:
        d = self.distances(shape)
        return float(d.min()) if d.size else math.inf

    def within(self, shape: BaseGeometry, mm: float) -> list[Obstruction]:
        """The items at most ``mm`` from ``shape``, in order. With the items' boxes known, only those whose
        box comes within ``mm`` (and 1e-6 mm) of ``shape``'s box are measured: the others are further."""
        boxes = self._boxes
        if boxes is None or len(boxes) < 3:
            d = self.distances(shape)
            return [o for o, di in zip(self.items, d.tolist(), strict=True) if di <= mm]
        x0, y0, x1, y1 = shape.bounds
        grown = (x0 - mm, y0 - mm, x1 + mm, y1 + mm)
        near = [i for i, b in enumerate(boxes) if _box_meets(b, grown)]
        if not near:
            return []
        items = self.items
        d = shapely.distance(shape, self.array[near]).tolist()
        return [items[i] for i, di in zip(near, d, strict=True) if di <= mm]

    def any_overlap(self, shape: Polygon) -> list[Obstruction]:
        if not self.items:
            return []
        hits = np.flatnonzero(shapely.intersects(self.array, shape))
        if not len(hits):
            return []
        items = self.items
        return [items[i] for i in hits.tolist() if overlaps_static(shape, items[i].shape)]

    def overlaps(self, shape: Polygon) -> bool:
        """``bool(any_overlap(shape))``, stopping at the first overlap."""
        if not self.items:
            return False
        hits = np.flatnonzero(shapely.intersects(self.array, shape))
        items = self.items
        return any(overlaps_static(shape, items[i].shape) for i in hits.tolist())


# --------------------------------------------------------------------------- exact contact events

_TWO_PI = 2.0 * math.pi


def _ring_edges(poly: BaseGeometry) -> F64 | None:
    """A polygon's boundary edges as rows (ax, ay, bx, by), the material on each edge's left
    (exterior counter-clockwise, holes clockwise); None for another geometry."""
    if not isinstance(poly, Polygon) or poly.is_empty:
        return None
    rows = []
    for i, ring in enumerate((poly.exterior, *poly.interiors)):
        c = np.asarray(ring.coords, dtype=np.float64)[:, :2]
        x, y = c[:, 0], c[:, 1]
        area2 = float(np.dot(x[:-1], y[1:]) - np.dot(x[1:], y[:-1]))
        if (area2 < 0.0) == (i == 0):
            c = c[::-1]
        rows.append(np.hstack((c[:-1], c[1:])))
    return np.vstack(rows)


_EDGES: dict[int, tuple[BaseGeometry, F64 | None]] = {}


def _edges_of(poly: BaseGeometry) -> F64 | None:
    """:func:`_ring_edges`, cached per polygon object (obstacles and footprints outlive tables)."""
    hit = _EDGES.get(id(poly))
    if hit is not None and hit[0] is poly:
        return hit[1]
    edges = _ring_edges(poly)
    if len(_EDGES) > 4096:
        _EDGES.clear()
    _EDGES[id(poly)] = (poly, edges)
    return edges


class _EdgeSet:
    """Polygon edges offset outwards by the contact target, and the polygons' vertices, as arrays.

    An edge row is its offset line: origin ``(ax, ay)``, unit direction
    ``(mx, my)``, outward normal ``(my, -mx)`` at angle ``beta``, ``length`` and
    bounding box ``x0, x1, y0, y1``. ``edge_owner`` and ``vertex_owner`` index
    the polygon each row comes from. ``ebox`` (x1, -x0, y1, -y0) and ``vbox``
    (vx, -vx, vy, -vy) rows test boxes against a box in one comparison
    (:meth:`in_box`).
    """

    def __init__(self, data: F64, verts: F64, edge_owner: NDArray[np.intp], vertex_owner: NDArray[np.intp]) -> None:
        self.data, self.verts, self.edge_owner, self.vertex_owner = data, verts, edge_owner, vertex_owner
        ax, ay, length, mx, my, _, x0, x1, y0, y1 = data.T
        vx, vy = verts.T
        ebox: F64 = np.column_stack((x1, -x0, y1, -y0))
        vbox: F64 = np.column_stack((vx, -vx, vy, -vy))
        self.box: F64 = np.vstack((ebox, vbox))
        self.trow: F64 = np.vstack((ax, ay, mx, -my, mx, my, my, -mx, mx, my, length))
        """Field-major, a column per edge: (ax, ay), then its :func:`_translate_hits` factors (mx, -my, mx,
        my, my, -mx, mx, my) and its length."""
        self.vcols: F64 = np.ascontiguousarray(verts.T)
        """The vertices field-major: (vx, vy) rows."""
        self.box_t: F64 = np.ascontiguousarray(self.box.T)
        """:attr:`box` field-major (4 rows), for a quicker filter."""

    def in_box(self, x0: float, x1: float, y0: float, y1: float) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """(edges, vertices) whose bounding boxes meet the box [x0, x1] x [y0, y1]."""
        both: NDArray[np.bool_] = np.all(self.box >= np.array((x0, -x1, y0, -y1)), axis=1)
        n = len(self.data)
        return both[:n], both[n:]

    @staticmethod
    def build(parts: list[F64], eps: float) -> _EdgeSet:
        """From each polygon's edge rows (ax, ay, bx, by), offset outwards by ``eps``."""
        rows = np.vstack(parts)
        owner = np.repeat(np.arange(len(parts)), [len(p) for p in parts])
        ax, ay, bx, by = rows.T
        dx, dy = bx - ax, by - ay
        length = np.hypot(dx, dy)
        keep = length > 0.0
        with np.errstate(all="ignore"):
            mx, my = dx / length, dy / length
        ox, oy = my * eps, -mx * eps
        data = np.column_stack((ax + ox, ay + oy, length, mx, my, np.arctan2(-mx, my),
                                np.minimum(ax, bx) + ox, np.maximum(ax, bx) + ox,
                                np.minimum(ay, by) + oy, np.maximum(ay, by) + oy))
        return _EdgeSet(data[keep], rows[:, :2].copy(), owner[keep], owner)

    @staticmethod
    def join(pieces: list[_EdgeSet]) -> _EdgeSet:
        """The sets of several polygons as one (:meth:`build` of all their edges gives the same arrays; the
        owners number the pieces), remembered per list of pieces (the same obstacles are near many moves)."""
        if len(pieces) == 1:
            return pieces[0]
        key = tuple([id(p) for p in pieces])
        hit = _JOINS.get(key)
        if hit is not None:  # the entry holds its pieces, so these ids are theirs
            return hit[1]
        out = _EdgeSet._join(pieces)
        if len(_JOINS) > 1024:
            _JOINS.clear()
        _JOINS[key] = (pieces, out)
        return out

    @staticmethod
    def _join(pieces: list[_EdgeSet]) -> _EdgeSet:
        out = _EdgeSet.__new__(_EdgeSet)
        out.data = np.concatenate([p.data for p in pieces])
        out.verts = np.concatenate([p.verts for p in pieces])
        out.edge_owner = np.repeat(np.arange(len(pieces)), [len(p.data) for p in pieces])
        out.vertex_owner = np.repeat(np.arange(len(pieces)), [len(p.verts) for p in pieces])
        out.box_t = np.concatenate([p.box_t[:, :len(p.data)] for p in pieces]
                                   + [p.box_t[:, len(p.data):] for p in pieces], axis=1)
        out.box = out.box_t.T
        out.trow = np.concatenate([p.trow for p in pieces], axis=1)
        out.vcols = np.concatenate([p.vcols for p in pieces], axis=1)
        return out

    @property
    def ebox(self) -> F64:
        """The edges' box rows (x1, -x0, y1, -y0)."""
        return self.box[:len(self.data)]

    @property
    def vbox(self) -> F64:
        """The vertices' box rows (vx, -vx, vy, -vy)."""
        return self.box[len(self.data):]

    def subset(self, keep: NDArray[np.bool_]) -> _EdgeSet:
        """The rows of the polygons where ``keep`` is true (owners no longer meaningful)."""
        if keep.all():
            return self
        e, v = keep[self.edge_owner], keep[self.vertex_owner]
        return _EdgeSet(self.data[e], self.verts[v], self.edge_owner[e], self.vertex_owner[v])


_JOINS: dict[tuple[int, ...], tuple[list[_EdgeSet], _EdgeSet]] = {}


def _edge_set(shapes: list[BaseGeometry]) -> _EdgeSet | None:
    """The :class:`_EdgeSet` of ``shapes``; None if one of them is not a polygon.

    Joined from each polygon's own rows (:func:`_edge_piece`, kept per polygon): the same arrays as
    ``_EdgeSet.build`` of all their edges, whose arithmetic is row by row.
    """
    pieces = [_edge_piece(g) for g in shapes]
    if not pieces or any(p is None for p in pieces):
        return None
    return _EdgeSet.join([p for p in pieces if p is not None])


_PIECES: dict[int, tuple[BaseGeometry, _EdgeSet | None]] = {}


def _edge_piece(poly: BaseGeometry) -> _EdgeSet | None:
    """The :class:`_EdgeSet` of one polygon (None for another geometry), cached per polygon object."""
    hit = _PIECES.get(id(poly))
    if hit is not None and hit[0] is poly:
        return hit[1]
    rows = _edges_of(poly)
    piece = None if rows is None else _EdgeSet.build([rows], _CONTACT_TARGET_MM)
    if len(_PIECES) > 4096:
        _PIECES.clear()
    _PIECES[id(poly)] = (poly, piece)
    return piece


def _box_lines(corners: list[list[float]], eps: float) -> tuple[F64, F64, F64, F64, F64, F64]:
    """The footprint's edges offset outwards by ``eps``: (ax, ay, mx, my, length, beta), each shape (1, 4).

    ``corners`` run counter-clockwise (fl, rl, rr, fr), so outward is to each edge's right.
    """
    rows = []
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        mx, my = dx / length, dy / length
        rows.append((x0 + my * eps, y0 - mx * eps, mx, my, length, math.atan2(-mx, my)))
    ax, ay, mx, my, length, beta = np.array(rows).T[:, None, :]
    return ax, ay, mx, my, length, beta


def _line_hits_translate(px: F64, py: F64, vx: float, vy: float, ax: F64, ay: F64, mx: F64, my: F64,
                         length: F64) -> float:
    """Least s >= 0 at which a point p + v s crosses a line (origin a, direction m) within its span.

    Points and lines broadcast against each other; inf if none does.
    """
    rx, ry = px - ax, py - ay
    nv = my * vx - mx * vy
    s = (mx * ry - my * rx) / nv
    lam = mx * rx + my * ry + (mx * vx + my * vy) * s
    ok = (s >= 0.0) & (lam >= 0.0) & (lam <= length)
    return float(np.where(ok, s, math.inf).min())


def _translate_hits(corners: list[list[float]], vx: float, vy: float, edges: F64, verts: F64, eps: float) -> float:
    """Least s >= 0 at which the footprint (``corners``) moving by (vx, vy) s (unit) comes within ``eps`` of
    an edge (columns of :attr:`_EdgeSet.trow`) or a vertex (columns (qx, qy)); inf if never.

    :func:`_line_hits_translate` for the corners against the edges and for the vertices against the
    footprint's edges offset by ``eps``, and :func:`_circle_hits_translate` for the corners against the
    vertices, with the same arithmetic on every pair, in one set of array operations: the two kinds of
    line crossing are stacked side by side (corner by edge, then footprint line by vertex), a vertex's
    as the footprint line's origin minus the vertex moving by +v. Every product and difference then
    only changes sign, exactly (IEEE rounding is symmetric), so ``s`` is the same number, and the
    factors of the position along the line are negated to give it back with its own sign. Arrays are
    field-major, so every operation runs on contiguous blocks.
    """
    ne, nv = edges.shape[1], verts.shape[1]
    k = ne + nv
    if not k:
        return math.inf
    pc = np.array(corners).T[:, :, None]  # (2, 4, 1)
    u = np.empty((8, 4, k))
    w = np.empty((9, 4, k))
    np.subtract(pc, edges[:2, None, :], out=u[2:4, :, :ne])
    w[:, :, :ne] = edges[2:, None, :]
    if nv:
        rows = []
        for (x0, y0), (x1, y1) in zip(corners, (corners[1], corners[2], corners[3], corners[0]), strict=True):
            dx, dy = x1 - x0, y1 - y0
            length = math.hypot(dx, dy)
            mx, my = dx / length, dy / length
            rows.append((x0 + my * eps, y0 - mx * eps, mx, -my, -mx, -my, my, -mx, -mx, -my, length))
        box = np.array(rows).T[:, :, None]  # (11, 4, 1): the footprint's edges offset by eps, as _box_lines
        np.subtract(box[:2], verts[:, None, :], out=u[2:4, :, ne:])
        w[:, :, ne:] = box[2:]
    u[0:2] = u[3:1:-1]
    u[4::2] = vx
    u[5::2] = vy
    prod = u * w[:8]
    sums = prod[0::2] + prod[1::2]  # m x r, m . r, m x v, m . v
    s = sums[0] / sums[2]
    lam = sums[1] + sums[3] * s
    ok = (np.minimum(s, lam) >= 0.0) & (lam <= w[8])  # s >= 0 and lam >= 0, false for nan
    best = float(np.where(ok, s, math.inf).min())
    if nv:
        r = pc - verts[:, None, :]  # (2, 4, nv)
        b = r[0] * vx + r[1] * vy
        rr = r * r
        sc = -b - np.sqrt(b * b - (rr[0] + rr[1]) + eps * eps)
        best = min(best, float(np.where(sc >= 0.0, sc, math.inf).min()))
    return best


def _circle_hits_translate(px: F64, py: F64, vx: float, vy: float, qx: F64, qy: F64, eps: float) -> float:
    """Least s >= 0 at which a point p + v s (unit v) comes within ``eps`` of a point q; inf if never."""
    rx, ry = px - qx, py - qy
    b = rx * vx + ry * vy
    disc = b * b - (rx * rx + ry * ry) + eps * eps
    s = -b - np.sqrt(disc)
    return float(np.where(s >= 0.0, s, math.inf).min())


def _line_hits_rotate(px: F64, py: F64, cx: float, cy: float, sgn: float, ax: F64, ay: F64, mx: F64, my: F64,
                      length: F64, beta: F64) -> float:
    """Least turn theta in [0, 2 pi) about (cx, cy) (direction ``sgn``) at which a point crosses a
    line (origin a, direction m, normal angle ``beta``) within its span; inf if none does.

    With r = p - c at angle alpha and n = (my, -mx): n.(c - a) + |r| cos(alpha + phi - beta) = 0,
    and there m.(p - a) = m.(c - a) +- sqrt(|r|^2 - (n.(c - a))^2), no trigonometry per root.
    """
    rx, ry = px - cx, py - cy
    rho2 = rx * rx + ry * ry
    alpha = np.arctan2(ry, rx)
    wx, wy = cx - ax, cy - ay
    base = my * wx - mx * wy
    along = mx * wx + my * wy
    root = np.sqrt(rho2 - base * base)
    psi = np.arccos(-base / np.sqrt(rho2))
    gamma = beta - alpha
    # both roots at once (a leading axis of +1, -1: the same products), each root's least turn on its own
    theta = np.mod(sgn * (gamma + _SIGNS * psi), _TWO_PI)
    lam = along + _SIGNS * root
    ok = (lam >= 0.0) & (lam <= length)
    best = math.inf
    for least in np.where(ok, theta, math.inf).reshape(2, -1).min(axis=1).tolist():
        best = min(best, least)  # a root whose turns hold a nan gives nan: min keeps best, as theta[ok].min()
    return best


_SIGNS: F64 = np.array([1.0, -1.0]).reshape(2, 1, 1)


def _circle_hits_rotate(px: F64, py: F64, cx: float, cy: float, sgn: float, qx: F64, qy: F64,
                        eps: float) -> float:
    """Least turn theta in [0, 2 pi) about (cx, cy) at which a point comes within ``eps`` of q; inf if never."""
    rx, ry = px - cx, py - cy
    wx, wy = qx - cx, qy - cy
    rho2, w2 = rx * rx + ry * ry, wx * wx + wy * wy
    psi = np.arccos((rho2 + w2 - eps * eps) / (2.0 * np.sqrt(rho2 * w2)))
    gamma = np.arctan2(wy, wx) - np.arctan2(ry, rx)
    both = np.fmin(np.mod(sgn * (gamma + psi), _TWO_PI), np.mod(sgn * (gamma - psi), _TWO_PI))
    least = float(np.fmin.reduce(both, axis=None))  # what np.nanmin does, nan only when all are nan
    return math.inf if least != least else least


def _fp(pose: Pose, v: VehiclePiece) -> Polygon:
    return footprint(pose, v.length_mm, v.width_mm)


def _swept_hull(a: Pose, b: Pose, v: VehiclePiece) -> BaseGeometry:
    """Convex hull of the footprints at ``a`` and ``b``: the area swept by a short straight step."""
    pts = np.vstack((footprint_corners(a, v.length_mm, v.width_mm), footprint_corners(b, v.length_mm, v.width_mm)))
    return shapely.convex_hull(shapely.multipoints(pts))


def _sagitta_bound(seg: Segment, t: float, reach: float) -> float:
    """How far any footprint point strays from the straight chord of its motion over ``t`` of ``seg``."""
    if seg.kind == "shift":
        return 0.0
    if seg.kind == "pivot":
        phi = math.radians(abs(t))
        return reach * phi * phi / 8.0
    k = abs(seg.curvature_per_mm)
    return t * t * k * (1.0 + k * reach) / 8.0


def _touching(shape: Polygon, items: list[Obstruction]) -> list[str]:
    """Ids of the obstructions within 0.01 mm of ``shape`` (vectorised)."""
    if not items:
        return []
    near = shapely.dwithin(shape, np.array([o.shape for o in items], dtype=object), TOUCH_MM)
    return [o.id for o, hit in zip(items, near, strict=True) if hit]


def _motion(seg: Segment) -> tuple[bool, float, float, float]:
    """How ``seg`` moves the footprint: (rotating, a, b, rate).

    A translation moves it by (a, b) per unit of parameter; a rotation turns it
    about the fixed point (a, b) by ``rate`` radians per unit (signed,
    counter-clockwise positive) - exactly what :meth:`Segment.pose_at` does.
    """
    s = seg.start
    if seg.kind == "pivot":
        return True, s.x_mm, s.y_mm, math.copysign(math.pi / 180.0, seg.length)
    if seg.kind == "shift":
        rad = math.radians(seg.shift_deg)
        return False, math.cos(rad), math.sin(rad), 0.0
    th0 = math.radians(s.heading_deg + (180.0 if seg.reverse else 0.0))
    k = seg.curvature_per_mm
    if abs(k) < 1e-12:
        return False, math.cos(th0), math.sin(th0), 0.0
    return True, s.x_mm - math.sin(th0) / k, s.y_mm + math.cos(th0) / k, k


def _segment_hit(motion: tuple[bool, float, float, float], pose: Pose, span: float, vehicle: VehiclePiece,
                 edges: _EdgeSet, eps: float) -> float | None:
    """The least s in [0, span] at which the footprint, leaving ``pose`` with ``motion``
    (:func:`_motion`), comes within ``eps`` of an obstruction of ``edges``; None if it does not.

    Exact: at the first such moment either a footprint corner is ``eps`` from an
    obstruction's edge (on its outer side) or vertex, or an obstruction's vertex
    is ``eps`` from a footprint edge, and each of those events is solved in
    closed form for a translation or a rotation about a fixed point; only edges
    and vertices within the swept box are examined. Nothing thin can be
    stepped over.
    """
    rotating, a, b, rate = motion
    if not rotating:
        return _translate_hit(a, b, pose, span, vehicle, edges, eps)
    corners = footprint_corners(pose, vehicle.length_mm, vehicle.width_mm)
    listed: list[list[float]] = corners.tolist()
    xs = [p[0] for p in listed]
    ys = [p[1] for p in listed]
    if rotating:
        turn = abs(rate) * span
        n = max(1, math.ceil(turn / 0.2))
        reach = 0.0
        signed = math.copysign(turn, rate)
        turns = [(math.cos(ang), math.sin(ang)) for ang in [signed * i / n for i in range(1, n + 1)]]
        for x, y in listed:
            rx, ry = x - a, y - b
            reach = max(reach, math.hypot(rx, ry))
            for c, s_ in turns:
                xs.append(a + c * rx - s_ * ry)
                ys.append(b + s_ * rx + c * ry)
        pad = reach * (1.0 - math.cos(turn / n / 2.0)) + eps + 1e-6
    else:
        xs += [x + a * span for x in xs]
        ys += [y + b * span for y in ys]
        pad = eps + 1e-6
    bx0, bx1, by0, by1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    e, v = edges.in_box(bx0, bx1, by0, by1)
    has_e, has_v = bool(e.any()), bool(v.any())
    if not has_e and not has_v:
        return None
    px, py = corners[:, 0:1], corners[:, 1:2]
    best = math.inf
    if has_e:
        ax, ay, length, mx, my, beta = edges.data[e][:, :6].T
    if has_v:
        qx, qy = edges.verts[v].T
        box = _box_lines(listed, eps)
    if rotating:
        sgn = 1.0 if rate > 0 else -1.0
        if has_e:
            best = _line_hits_rotate(px, py, a, b, sgn, ax, ay, mx, my, length, beta)
        if has_v:
            best = min(best, _line_hits_rotate(qx[:, None], qy[:, None], a, b, -sgn, *box),
                       _circle_hits_rotate(px, py, a, b, sgn, qx, qy, eps))
        return best / abs(rate) if best <= turn else None
    if has_e:
        best = _line_hits_translate(px, py, a, b, ax, ay, mx, my, length)
    if has_v:
        best = min(best, _line_hits_translate(qx[:, None], qy[:, None], -a, -b, *box[:5]),
                   _circle_hits_translate(px, py, a, b, qx, qy, eps))
    return best if best <= span else None


def _corner_list(pose: Pose, vehicle: VehiclePiece) -> list[list[float]]:
    """:func:`footprint_corners` as lists (the same numbers, computed without the array)."""
    rad = math.radians(pose.heading_deg)
    c, s = math.cos(rad), math.sin(rad)
    fx, fy = c * vehicle.length_mm / 2.0, s * vehicle.length_mm / 2.0
    lx, ly = -s * vehicle.width_mm / 2.0, c * vehicle.width_mm / 2.0
    x, y = pose.x_mm, pose.y_mm
    return [[x + fx + lx, y + fy + ly], [x - fx + lx, y - fy + ly],
            [x - fx - lx, y - fy - ly], [x + fx - lx, y + fy - ly]]


def _translate_hit(a: float, b: float, pose: Pose, span: float, vehicle: VehiclePiece, edges: _EdgeSet,
                   eps: float) -> float | None:
    """:func:`_segment_hit` for a translation by (a, b) per unit: the corners as :func:`footprint_corners`
    has them (the same numbers, without the array), the swept box, and :func:`_translate_hits`."""
    corners = _corner_list(pose, vehicle)
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    # the box of the corners and the corners moved by (a, b) span: adding a constant is monotonic, so
    # the least moved x is the least x moved (the same number)
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    dx, dy = a * span, b * span
    x0, x1 = min(x0, x0 + dx), max(x1, x1 + dx)
    y0, y1 = min(y0, y0 + dy), max(y1, y1 + dy)
    pad = eps + 1e-6
    low = np.array((x0 - pad, -(x1 + pad), y0 - pad, -(y1 + pad)))
    both = cast("NDArray[np.bool_]", (edges.box_t >= low[:, None]).all(0))
    n = len(edges.data)
    rows, verts = edges.trow.compress(both[:n], axis=1), edges.vcols.compress(both[n:], axis=1)
    if not rows.shape[1] and not verts.shape[1]:
        return None
    best = _translate_hits(corners, a, b, rows, verts, eps)
    return best if best <= span else None


def first_contact(path: Path, u_start: float, u_end: float, vehicle: VehiclePiece,
                  shapes: _Shapes) -> float | None:
    """The first parameter in [u_start, u_end] where the vehicle comes within 0.0001 mm of a shape.

    Solved exactly segment by segment (:func:`_segment_hit`, consecutive
    straight pieces in one go): the first moment a footprint corner reaches an
    obstruction's edge or vertex, or an obstruction's vertex reaches a footprint
    edge, in closed form for each translation or rotation; only edges within the
    segment's swept box are examined. So a thin obstacle is never stepped over.
    Returns None when the vehicle reaches ``u_end`` without contact.
    """
    if not shapes.items:
        return None
    if shapes.nearest(_fp(path.pose_at(u_start), vehicle)) <= _CONTACT_TARGET_MM:
        return u_start
    return _search(path, u_start, u_end, vehicle, shapes)


def _search(path: Path, u_start: float, u_end: float, vehicle: VehiclePiece, shapes: _Shapes) -> float | None:
    """:func:`first_contact` for a vehicle known to be clear (more than 0.01 mm) of ``shapes`` at ``u_start``."""
    if not shapes.items:
        return None
    edges = shapes.edges
    if edges is None:
        return _first_contact_stepping(path, u_start, u_end, vehicle, shapes)
    index, t = path.locate(u_start)
    segs = path.segments
    seg_u0 = sum(abs(seg.length) for seg in segs[:index])
    with np.errstate(all="ignore"):
        while index < len(segs) and seg_u0 < u_end:
            seg = segs[index]
            motion = _motion(seg)
            span = abs(seg.length)
            index += 1
            while not motion[0] and index < len(segs) and _continues(seg, segs[index], motion, span):
                span += abs(segs[index].length)
                index += 1
            t_end = min(span, u_end - seg_u0)
            if t_end > t:
                pose = seg.pose_at(math.copysign(t, seg.length) if seg.kind == "pivot" else t)
                hit = _segment_hit(motion, pose, t_end - t, vehicle, edges, _CONTACT_TARGET_MM)
                if hit is not None:
                    return min(seg_u0 + t + hit, u_end)
            seg_u0 += span
            t = 0.0
    return None


def _continues(seg: Segment, nxt: Segment, motion: tuple[bool, float, float, float], span: float) -> bool:
    """True when ``nxt`` carries on ``seg``'s translation exactly (same direction, heading and track)."""
    m = _motion(nxt)
    if m[0] or abs(m[1] - motion[1]) > 1e-12 or abs(m[2] - motion[2]) > 1e-12:
        return False
    if nxt.start.heading_deg != seg.start.heading_deg:
        return False
    s = seg.start
    return (abs(s.x_mm + motion[1] * span - nxt.start.x_mm) <= 1e-9
            and abs(s.y_mm + motion[2] * span - nxt.start.y_mm) <= 1e-9)


def _first_contact_stepping(path: Path, u_start: float, u_end: float, vehicle: VehiclePiece,
                  shapes: _Shapes) -> float | None:
    """:func:`first_contact` by stepping (the reference method, and the fallback for non-polygons).

    Conservative advancement: from a pose at distance d, no point of the
    footprint can reach a shape before the parameter advances by d / (speed
    bound). Where that step is short (running close alongside something), a
    longer trial step is taken when the convex hull of the two footprints -
    the swept area of the step, padded by how far a point on a curve strays
    from its chord - is clear; the trial grows while it succeeds and halves
    when it fails. So a thin obstacle is never stepped over. Returns None when
    the vehicle reaches ``u_end`` without contact.
    """
    if not shapes.items:
        return None
    reach = half_diagonal_mm(vehicle.length_mm, vehicle.width_mm)
    u = u_start
    trial = 4.0
    for _ in range(MAX_ITERATIONS):
        fp = _fp(path.pose_at(u), vehicle)
        d = shapes.nearest(fp)
        if d <= _CONTACT_TARGET_MM:
            return u
        if u >= u_end:
            return None
        index, t = path.locate(u)
        seg = path.segments[index]
        seg_left = abs(seg.length) - t
        if seg_left <= 1e-12 and index + 1 < len(path.segments):
            seg = path.segments[index + 1]
            seg_left = abs(seg.length)
        room = min(seg_left if seg_left > 1e-12 else math.inf, u_end - u)
        step = min((d - _CONTACT_TARGET_MM * 0.5) / seg.speed_bound(reach), room)
        probe = min(trial, room)
        if probe > step * 2.0:
            hull = _swept_hull(path.pose_at(u), path.pose_at(u + probe), vehicle)
            if shapes.nearest(hull) > _CONTACT_TARGET_MM + _sagitta_bound(seg, probe, reach):
                step = probe
                trial = min(trial * 2.0, 64.0)
            else:
                trial = max(probe / 4.0, HULL_STEP)
        u = min(u + max(step, 1e-9), u_end)
    raise RuntimeError("contact search did not converge")


def _penetrates(shape: Polygon, others: list[Obstruction]) -> bool:
    """True when ``shape`` shares area with any of ``others`` beyond a hair (1e-5 mm)."""
    inner = shape.buffer(-_CONTACT_TARGET_MM, join_style="mitre")
    return any(inner.intersects(o.shape) and not inner.touches(o.shape) for o in others)


def back_off(path: Path, u_low: float, u_high: float, vehicle: VehiclePiece, everything: _Shapes) -> float:
    """The last parameter in [u_low, u_high] where the vehicle overlaps nothing (p.46; GEOMETRY.md 4.4).

    Whether to move back at all is decided with the 0.01 mm tolerance; the
    pose it moves back to is then exact contact with what it overlapped (to
    0.001 mm), unless the vehicle already reached into that at ``u_low``.
    Bisection along the path.
    """
    return _back_off(path, u_low, u_high, vehicle, everything)[0]


def _back_off(path: Path, u_low: float, u_high: float, vehicle: VehiclePiece, everything: _Shapes
              ) -> tuple[float, tuple[Pose, Polygon] | None]:
    """:func:`back_off`, and the pose and footprint there when it is ``u_high`` (for :func:`_collide`)."""
    pose = path.pose_at(u_high)
    fp = _fp(pose, vehicle)
    culprits = everything.any_overlap(fp)
    if not culprits:
        return u_high, (pose, fp)
    exact = not _penetrates(_fp(path.pose_at(u_low), vehicle), culprits)

    def bad(u: float) -> bool:
        fp = _fp(path.pose_at(u), vehicle)
        return everything.overlaps(fp) or (exact and _penetrates(fp, culprits))

    lo, hi = u_low, u_high
    while hi - lo > CONTACT_MM * 0.1:
        mid = (lo + hi) / 2.0
        if bad(mid):
            hi = mid
        else:
            lo = mid
    return lo, None


def _pivot_region(pose: Pose, turn_deg: float, v: VehiclePiece) -> BaseGeometry:
    steps = max(2, math.ceil(abs(turn_deg) / 2.0))
    shapes = [_fp(pose.turned(turn_deg * i / steps), v) for i in range(steps + 1)]
    hulls = [shapely.convex_hull(shapely.union(a, b)) for a, b in zip(shapes[:-1], shapes[1:], strict=True)]
    return shapely.union_all(hulls)


# --------------------------------------------------------------------------- the move


@dataclass
class _State:
    table: Table
    vehicle: VehiclePiece
    ignored: set[str]
    near: tuple[float, float, float, float] | None = None
    reversing: bool = False
    collisions: list[Collision] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _interrupted(placed: PlacedMove, v: VehiclePiece, live: _Shapes) -> bool:
    if live.overlaps(placed.movement_polygon):
        return True
    if live.overlaps(_fp(placed.final_position, v)):
        return True
    if placed.move.slide and placed.template.shape == "straight":
        turn = 90.0 if placed.move.slide_facing == "left" else -90.0
        seg_index = next(i for i, s in enumerate(placed.path.segments) if s.kind == "pivot")
        start = placed.path.segments[seg_index].start
        if _near_pivot(start, v, live) and live.within(_pivot_region(start, turn, v), TOUCH_MM):
            return True
    return False


def _near_pivot(pose: Pose, v: VehiclePiece, live: _Shapes) -> bool:
    """False when nothing of ``live`` comes within 0.01 mm of the disc every footprint pivoting at ``pose``
    lies in (radius the half-diagonal, with 1e-6 mm to spare for rounding): :func:`_pivot_region` is then
    clear of all of them, without building it. True means: measure the region."""
    if not live.items:
        return False
    reach = half_diagonal_mm(v.length_mm, v.width_mm) + TOUCH_MM + 1e-6
    return bool(shapely.dwithin(shapely.points(pose.x_mm, pose.y_mm), live.array, reach).any())


def _part(piece: VehiclePiece | None) -> str:
    """``"trailer"`` or ``"cab"`` for a piece of an articulated vehicle, else empty."""
    if piece is None:
        return ""
    return "trailer" if piece.part_of else "cab" if piece.has_trailer else ""


def _collide(state: _State, pose: Pose, live: _Shapes, during: str, fp: Polygon | None = None,
             piece: VehiclePiece | None = None) -> list[Obstruction]:
    """Record a Collision with everything touched at ``pose`` (p.52); airborne vehicles have none (p.70).

    ``fp``: the footprint at ``pose`` when already built (the same polygon the moved vehicle would build).
    ``piece``: the piece that touched (default the moving one); a vehicle touched on two pieces at once is
    one Collision, as is one already met in this move.
    """
    moved = (piece or state.vehicle).moved(pose, reversing=state.reversing)
    if fp is not None:
        moved.__dict__["footprint"] = fp  # its cached_property, filled in with the same shape
    hits = live.within(moved.footprint, TOUCH_MM)
    if moved.airborne:
        if hits:
            state.notes.append("airborne: stopped by a Tall obstruction, no Collision (p.70)")
        return []
    met = {c.with_id for c in state.collisions if c.during == during}
    for o in hits:
        if o.owner in met:
            continue
        met.add(o.owner)
        c = classify(moved, o.vehicle, o.shape)
        assert c.orientation is not None and c.a_edge is not None
        p1, _ = nearest_points(moved.footprint, o.shape)
        state.collisions.append(Collision(o.owner, c.orientation, c.a_edge, c.b_edge, (p1.x, p1.y), during,
                                          _part(moved), _part(o.vehicle)))
    return hits


def _remove(state: _State, hits: list[Obstruction]) -> bool:
    """Remove destructible obstacles hit; True if everything hit was removed (p.49)."""
    for o in hits:
        if o.destructible:
            state.table = state.table.without_obstacle(o.id)
            state.removed.append(o.id)
    return all(o.destructible for o in hits)


def reach_bounds(placed: PlacedMove, v: VehiclePiece) -> tuple[float, float, float, float]:
    """A box holding every footprint along the path and the whole movement template.

    The centre runs on the template's centre line or the straight lead-in and
    lead-out, which lie inside the start and final footprints (a Slide's shift
    lies inside the Slide template and the final footprint), so the bounds of
    those shapes grown by the half-diagonal hold every pose.
    """
    x0, y0, x1, y1 = placed.movement_polygon.bounds
    if placed.template_polygon is not placed.movement_polygon:
        b = placed.template_polygon.bounds
        x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
    for pose in (placed.start, placed.final_position):
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = _corner_list(pose, v)
        x0, y0 = min(x0, ax, bx, cx, dx), min(y0, ay, by, cy, dy)
        x1, y1 = max(x1, ax, bx, cx, dx), max(y1, ay, by, cy, dy)
    pad = half_diagonal_mm(v.length_mm, v.width_mm) + 1.0
    return (x0 - pad, y0 - pad, x1 + pad, y1 + pad)


def _live(state: _State) -> tuple[_Shapes, _Shapes]:
    """(the obstructions within reach not ignored, all those within reach), remembered per scene."""
    scene = _scene(state.table, state.vehicle)
    near = state.near
    if near is not None:  # the boxes meeting the reach box, compared as plain numbers (a scene holds a few)
        nx0, ny0, nx1, ny1 = near
        flags = tuple([b0 <= nx1 and b2 >= nx0 and b1 <= ny1 and b3 >= ny0 for b0, b1, b2, b3 in scene.boxes])
    else:
        flags = (True,) * len(scene.items)
    key = (flags, frozenset(state.ignored))
    hit = scene.shapes.get(key)
    if hit is not None:
        return hit
    keep = np.array(flags, dtype=bool).reshape(len(flags))
    live = keep.copy()
    if state.ignored:
        for i in np.flatnonzero(keep).tolist():
            if scene.items[i].owner in state.ignored:
                live[i] = False
    out = (_Shapes.of_scene(scene, live), _Shapes.of_scene(scene, keep))
    if len(scene.shapes) > 256:
        scene.shapes.clear()
    scene.shapes[key] = out
    return out


def _drive(state: _State, placed: PlacedMove) -> tuple[float, bool, bool]:
    """Drive along the path before the Spin; returns (u reached, interrupted, ended at an IFP)."""
    path = placed.path_before_spin
    v = state.vehicle
    u = 0.0
    interrupted_any = False
    while True:
        live, everything = _live(state)
        if not _interrupted(placed, v, live):
            if len(live.items) == len(everything.items) and path.pose_at(path.total) == placed.final_position:
                # nothing within reach is ignored and the path ends at the Final Position just found clear
                # of it all: back_off would find nothing overlapping there
                return path.total, interrupted_any, False
            end = back_off(path, u, path.total, v, everything)
            if end < path.total - 1e-9:
                state.notes.append("the Final Position overlapped an ignored obstruction: moved back (p.46)")
            return end, interrupted_any, False
        interrupted_any = True
        hit_u = _search(path, u, path.total, v, live)  # clear at u: see _collide and the ignored
        if hit_u is None:
            state.notes.append("the template clipped an obstruction the vehicle never reaches (p.47)")
            return back_off(path, u, path.total, v, everything), True, False
        stop, there = _back_off(path, u, hit_u, v, everything)
        hits = _collide(state, path.pose_at(stop), live, "move") if there is None else \
            _collide(state, there[0], live, "move", there[1])
        if not hits:
            return stop, True, True
        if not _remove(state, hits) or stop >= path.total - 1e-9:
            return stop, True, True
        state.notes.append("destructible obstacle removed; the move goes on (p.49)")
        u = stop


def _first_overlap_deg(path: Path, v: VehiclePiece, started_touching: _Shapes) -> float | None:
    """The first pivot angle (degrees along ``path``) at which the vehicle reaches more than 0.01 mm
    into something it started the pivot touching, found by 1-degree steps then bisection."""
    if not started_touching.items:
        return None
    steps = max(1, math.ceil(path.total))
    previous = 0.0
    for i in range(1, steps + 1):
        u = path.total * i / steps
        if started_touching.overlaps(_fp(path.pose_at(u), v)):
            return back_off(path, previous, u, v, started_touching)
        previous = u
    return None


def _spin(state: _State, start: Pose, spin_deg: float) -> tuple[float, bool]:
    """Pivot about the centre (p.24; GEOMETRY.md 4.7). Returns (degrees turned, whether it was stopped).

    It stops at first contact with an obstruction it did not start the pivot
    touching (a Collision unless that one is ignored this Movement Step), and it
    never pivots into one it started touching (it stops where it would overlap).
    """
    v = state.vehicle
    obs = obstructions_for(state.table, v)
    touching_now = {o.id for o in obs if touches(_fp(start, v), o.shape)}
    shapes = _Shapes([o for o in obs if o.id not in touching_now])
    path = Path((Segment("pivot", start, spin_deg),))
    hit = _search(path, 0.0, path.total, v, shapes)  # nothing in shapes touched it at the start
    blocked = _first_overlap_deg(Path((Segment("pivot", start, spin_deg),)), v,
                                 _Shapes([o for o in obs if o.id in touching_now]))
    if blocked is not None and (hit is None or blocked < hit):
        state.notes.append("the Spin stopped against something it started touching (p.24)")
        return math.copysign(blocked, spin_deg), True
    if hit is None:
        return spin_deg, False
    turned = math.copysign(hit, spin_deg)
    pose = start.turned(turned)
    live = _Shapes([o for o in shapes.items if o.id not in state.ignored])
    hits = _collide(state, pose, live, "spin")
    _remove(state, hits)
    state.notes.append("the Spin stopped at first contact (p.24)")
    return turned, True


_AREAS: dict[tuple[float, float], BaseGeometry] = {}


def _disqualified(table: Table, placed: PlacedMove) -> bool:
    key = (table.width_mm, table.height_mm)
    area = _AREAS.get(key)
    if area is None:
        area = table.area.buffer(TOUCH_MM, join_style="mitre")
        shapely.prepare(area)
        if len(_AREAS) > 64:
            _AREAS.clear()
        _AREAS[key] = area
    return not bool(area.contains(placed.movement_polygon))


def _surfaces(table: Table, placed: PlacedMove, end: VehiclePiece, airborne: bool) -> dict[str, bool]:
    out = {"road": False, "rough": False, "treacherous": False}
    if airborne or not table.surfaces:
        return out
    road = _road_of(table.surfaces)
    others = _others_of(table.surfaces)
    if road is None and others:
        # a surface whose box misses both shapes' boxes cannot meet their union: skip the union
        # (a surface meeting the union meets one of the two shapes, so its box meets that shape's box)
        mb, ob = placed.movement_polygon.bounds, _outline_bounds(end)
        others = [(s, b) for s, b in others if _box_meets(b, mb) or _box_meets(b, ob)]
    if road is None and not others:
        return out
    both = shapely.union(placed.movement_polygon, end.outline)
    if road is not None:
        out["road"] = bool(road.contains(both))
    for s, _ in others:
        if overlaps(both, s.polygon):
            out[s.kind] = True
    return out


def _outline_bounds(v: VehiclePiece) -> tuple[float, float, float, float]:
    """``v.outline.bounds``; for a vehicle without a trailer, from its corners (the very numbers its footprint
    polygon holds), without building the polygon."""
    if v.has_trailer:
        b: tuple[float, float, float, float] = v.outline.bounds
        return b
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = _corner_list(v.pose, v)
    return min(ax, bx, cx, dx), min(ay, by, cy, dy), max(ax, bx, cx, dx), max(ay, by, cy, dy)


def _box_meets(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether the box ``a`` (minx, miny, maxx, maxy) meets the box ``b`` grown by 1e-6 mm."""
    return a[0] <= b[2] + 1e-6 and a[2] >= b[0] - 1e-6 and a[1] <= b[3] + 1e-6 and a[3] >= b[1] - 1e-6


_ROADS: dict[int, tuple[tuple[Surface, ...], BaseGeometry | None]] = {}
_OTHERS: dict[int, tuple[tuple[Surface, ...], list[tuple[Surface, tuple[float, float, float, float]]]]] = {}


def _others_of(surfaces: tuple[Surface, ...]) -> list[tuple[Surface, tuple[float, float, float, float]]]:
    """The surfaces other than road, each with its bounds, remembered per surfaces tuple."""
    hit = _OTHERS.get(id(surfaces))
    if hit is not None and hit[0] is surfaces:
        return hit[1]
    others = [(s, s.polygon.bounds) for s in surfaces if s.kind != "road"]
    if len(_OTHERS) > 64:
        _OTHERS.clear()
    _OTHERS[id(surfaces)] = (surfaces, others)
    return others


def _road_of(surfaces: tuple[Surface, ...]) -> BaseGeometry | None:
    """The road surfaces' union grown by 0.01 mm (None without road), remembered per surfaces tuple."""
    hit = _ROADS.get(id(surfaces))
    if hit is not None and hit[0] is surfaces:
        return hit[1]
    roads = [s.polygon for s in surfaces if s.kind == "road"]
    road = shapely.union_all(roads).buffer(TOUCH_MM) if roads else None
    if len(_ROADS) > 64:
        _ROADS.clear()
    _ROADS[id(surfaces)] = (surfaces, road)
    return road


def gates_passed(table: Table, path: Path, vehicle: VehiclePiece) -> tuple[str, ...]:
    """Gates whose line the vehicle touches while its centre moves along the gate's direction (p.124-127).

    Listed in the order first touched (GEOMETRY.md 7; the order of gates is
    the game's business). The path is walked in 1 mm steps and each step's
    swept hull is tested, so a corner grazing the line between steps counts.
    """
    if not table.gates or path.travel_mm <= 0:
        return ()
    reach = half_diagonal_mm(vehicle.length_mm, vehicle.width_mm) + 5.0
    near = [g for g in table.gates if track_distance_bound(path, g.post_a, g.post_b) <= reach]
    if not near:
        return ()
    n = max(2, math.ceil(path.total))
    px, py, ph = path.pose_lists(n)
    xs, ys = np.array(px), np.array(py)
    dxs, dys = xs[1:] - xs[:-1], ys[1:] - ys[:-1]
    pts: F64 | None = None
    first: dict[str, int] = {}
    for gate in near:
        gx, gy = gate.direction
        moving = np.flatnonzero(dxs * gx + dys * gy > 1e-9)
        if not len(moving):
            continue
        if pts is None:
            pts = swept_points(xs, ys, ph, vehicle)
        hit = first_touch_step(pts, moving, gate.post_a, gate.post_b)
        if hit is not None:
            first[gate.id] = hit
    return tuple(sorted(first, key=lambda g: first[g]))


_SEPARATION_SLACK_MM = 1e-6
"""Rounding room of the separating-line screen in :func:`first_touch_step` (it only ever keeps more steps)."""


def first_touch_step(pts: F64, steps: Idx, a: tuple[float, float], b: tuple[float, float]) -> int | None:
    """The first of ``steps`` whose swept hull (the 8 corners ``pts[step]``, :func:`swept_points`) comes
    within ``TOUCH_MM`` of the segment ``a``-``b`` (a gate's line, a ramp's edge), or None.

    Steps whose corners all lie more than ``TOUCH_MM`` to one side of the
    line, or beyond one of its ends, are certainly clear (their hull lies in
    a half-plane that far from the segment); steps with two corners clearly
    either side of the line between its ends, or one clearly within
    ``TOUCH_MM`` of it, certainly touch; the rest before the first sure touch
    are measured with Shapely, in order, a block at a time.
    """
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    rx, ry = pts[steps, :, 0] - ax, pts[steps, :, 1] - ay
    across = rx * uy - ry * ux
    along = rx * ux + ry * uy
    far = TOUCH_MM + _SEPARATION_SLACK_MM
    clear = ((across > far).all(axis=1) | (across < -far).all(axis=1) | (along < -far).all(axis=1)
             | (along > length + far).all(axis=1))
    # certainly touching: two corners well either side of the line, both well between its ends (the chord
    # joining them lies in the hull and crosses the segment), or a corner well within 0.01 mm of it
    m = _SEPARATION_SLACK_MM
    inside = (along > m) & (along < length - m)
    certain = cast("NDArray[np.bool_]", ((across > m) & inside).any(axis=1) & ((across < -m) & inside).any(axis=1)
                   | ((np.abs(across) < TOUCH_MM - m) & inside).any(axis=1))
    keep = ~clear
    left, sure = steps[keep], certain[keep]
    first_sure = np.flatnonzero(sure)
    if len(first_sure):  # only the steps before the first sure touch are measured
        left, sure = left[:first_sure[0] + 1], sure[:first_sure[0] + 1]
    line = LineString([a, b])
    unsure = left[~sure]
    for block in range(0, len(unsure), 64):
        rows = unsure[block:block + 64]
        hulls = shapely.convex_hull(shapely.multipoints(pts[rows]))
        hit = np.flatnonzero(shapely.distance(hulls, line) <= TOUCH_MM)
        if len(hit):
            return int(rows[hit[0]])
    return int(left[-1]) if len(first_sure) else None


def swept_points(xs: F64, ys: F64, headings: list[float], v: VehiclePiece) -> F64:
    """The footprint corners at each pose and the next, ``(steps, 8, 2)``: the points of each step's swept
    hull (the corners :func:`_swept_hull` takes the hull of)."""
    rads = [math.radians(h) for h in headings]
    c = np.array([math.cos(r) for r in rads])
    s = np.array([math.sin(r) for r in rads])
    fx, fy = c * v.length_mm / 2.0, s * v.length_mm / 2.0
    lx, ly = -s * v.width_mm / 2.0, c * v.width_mm / 2.0
    corners = np.stack((np.stack((xs + fx + lx, ys + fy + ly), axis=1), np.stack((xs - fx + lx, ys - fy + ly), axis=1),
                        np.stack((xs - fx - lx, ys - fy - ly), axis=1), np.stack((xs + fx - lx, ys + fy - ly), axis=1)),
                       axis=1)  # (poses, 4, 2) as footprint_corners
    out: F64 = np.concatenate((corners[:-1], corners[1:]), axis=1)
    return out


def _segment_distance(p: tuple[float, float], q: tuple[float, float], a: tuple[float, float],
                      b: tuple[float, float]) -> float:
    """The distance between the segments ``p``-``q`` and ``a``-``b`` (mm)."""
    def cross(o: tuple[float, float], u: tuple[float, float], v: tuple[float, float]) -> float:
        return (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])

    d1, d2, d3, d4 = cross(a, b, p), cross(a, b, q), cross(p, q, a), cross(p, q, b)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return 0.0

    def point_segment(x: tuple[float, float], u: tuple[float, float], v: tuple[float, float]) -> float:
        dx, dy = v[0] - u[0], v[1] - u[1]
        n = dx * dx + dy * dy
        t = 0.0 if n == 0.0 else min(1.0, max(0.0, ((x[0] - u[0]) * dx + (x[1] - u[1]) * dy) / n))
        return math.hypot(x[0] - u[0] - t * dx, x[1] - u[1] - t * dy)

    return min(point_segment(p, a, b), point_segment(q, a, b), point_segment(a, p, q), point_segment(b, p, q))


def track_distance_bound(path: Path, a: tuple[float, float], b: tuple[float, float]) -> float:
    """A lower bound (mm) of the distance between the segment ``a``-``b`` and the track of ``path``'s centre.

    Each segment's track lies within its sagitta of its chord (a straight, a
    Slide's shift and a pivot lie on it), so the least chord distance less
    that sagitta bounds the true distance from below: a gate line further than
    a vehicle's reach by this bound is certainly not touched.
    """
    best = math.inf
    for seg in path.segments:
        start, end = seg.start, seg.end
        d = _segment_distance((start.x_mm, start.y_mm), (end.x_mm, end.y_mm), a, b)
        k = abs(seg.curvature_per_mm) if seg.kind == "drive" else 0.0
        if k > 1e-12:
            theta = k * abs(seg.length)
            d -= (1.0 - math.cos(theta / 2.0)) / k if theta <= math.pi else 2.0 / k
        best = min(best, d)
    return best


def _touching_at_start(scene: _Scene, shape: Polygon) -> list[str]:
    """Owners of what touches ``shape`` (a footprint), remembered per footprint on the scene."""
    everything = scene.items
    known = scene.touching.get(id(shape))
    if known is not None and known[0] is shape:
        return list(known[1])
    ids = ([o.owner for o, hit in zip(everything, shapely.dwithin(scene.array, shape, TOUCH_MM).tolist(),
                                      strict=True) if hit] if everything else [])
    if len(scene.touching) > 8:
        scene.touching.clear()
    scene.touching[id(shape)] = (shape, list(ids))
    return ids


def touching(table: Table, mover: VehiclePiece) -> list[str]:
    """Owners of the obstructions of ``mover`` (:func:`obstructions_for`) that any of its pieces touches (at most
    ``TOUCH_MM`` apart, overlapping included), in the order of :func:`obstructions_for`: one vectorised query
    per piece, remembered per footprint (a Distracted vehicle, p.42)."""
    scene = _scene(table, mover)
    out = _touching_at_start(scene, mover.footprint)
    for other in mover.pieces:
        if other is not mover:
            out += [i for i in _touching_at_start(scene, other.footprint) if i not in out]
    return out


def resolve_move(table: Table, vehicle_id: str, move: Move, template_set: TemplateSet,
                 ignore_obstructions: bool = False) -> MoveResult:
    """Resolve one movement of ``vehicle_id`` on ``table`` with no dice (p.45-51; GEOMETRY.md 4).

    ``ignore_obstructions``: a forced move that ignores all obstructions (a
    Flip, p.35; a Jump or Tumble, p.121): nothing interrupts it, and a Final
    Position overlapping anything is moved back along the path by the least
    amount that clears it (p.121, p.48). A forced move that does not ignore
    obstructions (skidding to a halt, p.43) is an ordinary call.

    An articulated vehicle (GEOMETRY.md 8, p.118) moves its cab as a vehicle
    (its trailer in reverse, Back Her Up), then hitches the other piece at the
    bend that covers most of the movement template without overlapping
    anything; a Spin turns both about the rig's centre.

    Returns a :class:`MoveResult`. Raises ``KeyError`` for an unknown vehicle
    or template and :class:`~simulator.geometry.placement.MoveSpecError` for a
    move that cannot be placed (missing direction or slide facing, Spin beyond
    90 degrees).
    """
    vehicle = table.vehicle(vehicle_id)
    rig = vehicle.trailer is not None
    lead = vehicle.trailer if move.reverse and vehicle.trailer is not None else vehicle
    placed = place(template_set, lead.pose, lead.length_mm, lead.width_mm, move)
    scene = _scene(table, lead)
    everything = scene.items
    touching_at_start = _touching_at_start(scene, lead.footprint)
    for other in vehicle.pieces:
        if other is not lead:
            touching_at_start += [i for i in _touching_at_start(scene, other.footprint) if i not in touching_at_start]
    ignored = {o.owner for o in everything} if ignore_obstructions else set(touching_at_start)
    state = _State(table, lead, ignored, reach_bounds(placed, lead), reversing=move.reverse)
    u, interrupted, at_ifp = _drive(state, placed)
    bend: float | None = None
    if rig:
        u, bend, backed = _follow(state, vehicle, placed, u)
        if backed:
            interrupted = at_ifp = True
    path = truncated(placed.path_before_spin, u)
    final = path.end
    if rig:
        assert bend is not None
        final = _cab_at(vehicle, lead, final, bend)
    if move.spin_deg and not at_ifp:
        if rig:
            assert bend is not None
            turned, _ = _rotate_pieces(state, vehicle.moved(final, bend_deg=bend).pieces,
                                       _centre_of(vehicle, final, bend), move.spin_deg, "spin")
            final = rotated(final, _centre_of(vehicle, final, bend), turned)
        else:
            turned, _ = _spin(state, final, move.spin_deg)
            if turned:
                path = appended(path, Segment("pivot", final, turned))
                final = final.turned(turned)
    elif move.spin_deg:
        state.notes.append("no Spin after an Interrupted Final Position (p.24)")
    moved = vehicle.moved(final.normalised(), reversing=move.reverse, bend_deg=bend)
    table_after = state.table.with_vehicle(moved)
    if ignore_obstructions:
        state.notes.append("a forced move ignoring all obstructions (p.35, p.121)")
    return MoveResult(
        final=final.normalised(), interrupted=interrupted, ended_interrupted=at_ifp,
        collisions=tuple(state.collisions),
        ignored=tuple(sorted(touching_at_start)), removed=tuple(state.removed),
        disqualified=_disqualified(table, placed),
        surfaces=_surfaces(table, placed, moved, vehicle.airborne),
        gates_passed=gates_passed(table, path, lead), travel_mm=path.travel_mm, path=path, placed=placed,
        table_after=table_after, notes=tuple(state.notes), bend_deg=bend, vehicle_id=vehicle_id,
    )


# --------------------------------------------------------------------------- articulated vehicles (p.116-120)

BEND_STEP_DEG = 5.0
"""Spacing of the trailer bends weighed first when hitching the trailing piece (then refined; a finer 1-degree
grid when none of these is clear)."""

_COVER_EPS_MM2 = 1e-6
"""Two bends covering the template within this area of each other cover it equally (the nearer to where the
trailing piece was wins)."""


def _cab_at(vehicle: VehiclePiece, lead: VehiclePiece, lead_pose: Pose, bend_deg: float) -> Pose:
    """The cab's pose when the leading piece is at ``lead_pose`` with ``bend_deg``."""
    if lead is vehicle:
        return lead_pose
    return cab_pose(lead_pose, vehicle.length_mm, vehicle.trailer_length_mm, bend_deg)


def _centre_of(vehicle: VehiclePiece, cab: Pose, bend_deg: float) -> tuple[float, float]:
    return rig_centre(cab, vehicle.length_mm, vehicle.trailer_length_mm, bend_deg)


def _trailing(vehicle: VehiclePiece, lead: VehiclePiece, lead_pose: Pose, bends: list[float]) -> list[Pose]:
    """The trailing piece's pose for each bend, the leading piece at ``lead_pose`` (p.118)."""
    if lead is vehicle:
        return [trailer_pose(lead_pose, vehicle.length_mm, vehicle.trailer_length_mm, b) for b in bends]
    return [cab_pose(lead_pose, vehicle.length_mm, vehicle.trailer_length_mm, b) for b in bends]


def _trailing_piece(vehicle: VehiclePiece, lead: VehiclePiece) -> VehiclePiece:
    t = vehicle.trailer
    assert t is not None
    return t if lead is vehicle else vehicle


_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def best_bend(vehicle: VehiclePiece, lead: VehiclePiece, lead_pose: Pose, area: Polygon, shapes: _Shapes,
              prior_deg: float) -> float | None:
    """The bend (trailer heading minus cab heading) at which the trailing piece, hitched to the leading one
    at ``lead_pose``, covers most of ``area`` (the movement template) without overlapping ``shapes``
    (p.118; GEOMETRY.md 8); None if every bend within :data:`MAX_BEND_DEG` overlaps something.

    Bends every :data:`BEND_STEP_DEG` and ``prior_deg`` (where the trailing piece was) are weighed; bends
    covering equally (within :data:`_COVER_EPS_MM2`) go to the one nearest ``prior_deg``, so the trailing
    piece swings as little as it can. The best is then refined between its neighbours (golden sections),
    up to the exact bend where it would first touch an obstruction; a refined bend wins only when it covers
    strictly more.
    """
    follower = _trailing_piece(vehicle, lead)
    prior = clamp_bend(prior_deg)
    hitch = hitch_point(lead_pose, lead.length_mm) if lead is vehicle else lead_pose.offset(lead.length_mm / 2.0, 0.0)

    def feet(bends: list[float]) -> NDArray[np.object_]:
        poses = _trailing(vehicle, lead, lead_pose, bends)
        corners = np.array([footprint_corners(p, follower.length_mm, follower.width_mm) for p in poses])
        out: NDArray[np.object_] = shapely.polygons(corners)
        return out

    def cover(bend: float) -> float:
        return float(shapely.area(shapely.intersection(feet([bend])[0], area)))

    def clear(bend: float) -> bool:
        return not shapes.overlaps(feet([bend])[0])

    def weigh(step: float) -> tuple[list[float], list[float], list[bool]]:
        n = int(round(2 * MAX_BEND_DEG / step))
        grid = sorted({-MAX_BEND_DEG + k * step for k in range(n + 1)} | {prior})
        polys = feet(grid)
        return grid, shapely.area(shapely.intersection(polys, area)).tolist(), [not shapes.overlaps(p) for p in polys]

    grid, covers, ok = weigh(BEND_STEP_DEG)
    if not any(ok):
        grid, covers, ok = weigh(1.0)
        if not any(ok):
            return None
    top = max(c for c, k in zip(covers, ok, strict=True) if k)
    i = min((k for k in range(len(grid)) if ok[k] and covers[k] >= top - _COVER_EPS_MM2),
            key=lambda k: (abs(grid[k] - prior), grid[k]))
    best, best_cover = grid[i], covers[i]
    ends = []
    for j in (i - 1, i + 1):
        if not 0 <= j < len(grid):
            ends.append(grid[i])
            continue
        lo, hi = grid[i], grid[j]
        if ok[j]:
            ends.append(hi)
            continue
        # the exact bend where it comes to touch what is there: a turn about the hitch
        piece = replace(follower, pose=_trailing(vehicle, lead, lead_pose, [lo])[0])
        turn = (hi - lo) if lead is vehicle else (lo - hi)
        hit = _rotation_hit(piece, hitch, turn, shapes)
        if hit is not None and clear(lo + math.copysign(hit, hi - lo)):
            lo = lo + math.copysign(hit, hi - lo)
        else:
            for _ in range(40):
                mid = (lo + hi) / 2.0
                lo, hi = (mid, hi) if clear(mid) else (lo, mid)
        value = cover(lo)
        if value > best_cover + _COVER_EPS_MM2:
            best, best_cover = lo, value
        ends.append(lo)
    a, b = min(ends), max(ends)
    if b - a > 1e-9:  # the best cover between them, where every bend is clear of what the grid found
        c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
        fc, fd = cover(c), cover(d)
        for _ in range(30):
            if fc >= fd:
                b, d, fd = d, c, fc
                c = b - _GOLDEN * (b - a)
                fc = cover(c)
            else:
                a, c, fc = c, d, fd
                d = a + _GOLDEN * (b - a)
                fd = cover(d)
        candidate = c if fc >= fd else d
        value = max(fc, fd)
        if value > best_cover + _COVER_EPS_MM2 and clear(candidate):
            best = candidate
    return best


def _prior_bend(vehicle: VehiclePiece, lead: VehiclePiece, lead_pose: Pose) -> float:
    """Where the trailing piece was before the move, as a bend from the leading piece at ``lead_pose``."""
    trailer_heading = vehicle.pose.heading_deg + vehicle.bend_deg
    if lead is vehicle:
        return bend_between(lead_pose.heading_deg, trailer_heading)
    return bend_between(vehicle.pose.heading_deg, lead_pose.heading_deg)


def _follow(state: _State, vehicle: VehiclePiece, placed: PlacedMove, u: float) -> tuple[float, float, bool]:
    """Hitch the trailing piece after the leading one reached ``u`` on its path (p.118): the bend covering
    most of the movement template without overlapping anything; if no bend is clear there, the leading
    piece goes back along its path until one is (p.46). Collisions of the trailing piece with what it then
    touches (and no piece touched when the move began) are recorded. Returns (u, bend, went back)."""
    lead = state.vehicle
    path = placed.path_before_spin
    area = placed.movement_polygon
    _, everything = _live(replace(state, near=None))

    def bend_at(v: float, check_lead: bool) -> float | None:
        pose = path.pose_at(v)
        if check_lead and everything.overlaps(_fp(pose, lead)):  # a place it only squeezed past (p.47)
            return None
        return best_bend(vehicle, lead, pose, area, everything, _prior_bend(vehicle, lead, pose))

    bend = bend_at(u, False)
    backed = False
    live, _ = _live(replace(state, near=None))
    if bend is None:
        backed = True
        state.notes.append("no clear place for the trailer: the vehicle went back along its path (p.46, p.118)")
        hi = u
        lo = max(0.0, hi - 1.0)
        while lo > 0.0 and bend_at(lo, True) is None:
            hi, lo = lo, max(0.0, lo - 1.0)
        if bend_at(lo, True) is not None:
            while hi - lo > CONTACT_MM:
                mid = (lo + hi) / 2.0
                lo, hi = (mid, hi) if bend_at(mid, True) is not None else (lo, mid)
        u = lo
        bend = bend_at(u, True)
        if bend is None:  # it started overlapping something: keep its bend
            bend = _prior_bend(vehicle, lead, path.pose_at(u))
        _remove(state, _collide(state, path.pose_at(u), live, "move"))
    pose = path.pose_at(u)
    follower = _trailing_piece(vehicle, lead)
    trailing_pose = _trailing(vehicle, lead, pose, [bend])[0]
    hits = _collide(state, trailing_pose, live, "move", piece=follower)
    _remove(state, hits)
    return u, bend, backed


def _rotation_hit(piece: VehiclePiece, centre: tuple[float, float], delta_deg: float, shapes: _Shapes) -> float | None:
    """Degrees ``piece`` turns about ``centre`` (towards ``delta_deg``'s sign, at most its size) before it comes
    within 0.0001 mm of ``shapes``; None if it never does. ``piece`` is clear of them at the start."""
    if not shapes.items or not delta_deg:
        return None
    span = abs(delta_deg)
    rate = math.copysign(math.pi / 180.0, delta_deg)
    edges = shapes.edges
    if edges is not None:
        with np.errstate(all="ignore"):
            return _segment_hit((True, centre[0], centre[1], rate), piece.pose, span, piece, edges,
                                _CONTACT_TARGET_MM)
    # a shape that is not a polygon: steps of a tenth of a degree, then bisection

    def near(t: float) -> bool:
        return shapes.nearest(_fp(rotated(piece.pose, centre, math.copysign(t, delta_deg)), piece)) <= _CONTACT_TARGET_MM

    steps = max(1, math.ceil(span * 10.0))
    previous = 0.0
    for k in range(1, steps + 1):
        t = span * k / steps
        if near(t):
            lo, hi = previous, t
            while hi - lo > 1e-6:
                mid = (lo + hi) / 2.0
                lo, hi = (lo, mid) if near(mid) else (mid, hi)
            return hi
        previous = t
    return None


def _first_overlap_turn(pieces: tuple[VehiclePiece, ...], centre: tuple[float, float], delta_deg: float,
                        started: _Shapes) -> float | None:
    """Degrees the pieces turn about ``centre`` before one of them reaches more than 0.01 mm into something
    it started the turn touching (1-degree steps then bisection); None if none does."""
    if not started.items or not delta_deg:
        return None

    def bad(t: float) -> bool:
        turn = math.copysign(t, delta_deg)
        return any(started.overlaps(_fp(rotated(p.pose, centre, turn), p)) for p in pieces)

    span = abs(delta_deg)
    steps = max(1, math.ceil(span))
    previous = 0.0
    for k in range(1, steps + 1):
        t = span * k / steps
        if bad(t):
            lo, hi = previous, t
            while hi - lo > CONTACT_MM * 0.1:
                mid = (lo + hi) / 2.0
                lo, hi = (mid, hi) if not bad(mid) else (lo, mid)
            return lo
        previous = t
    return None


def _rotate_pieces(state: _State, pieces: tuple[VehiclePiece, ...], centre: tuple[float, float], delta_deg: float,
                   during: str) -> tuple[float, bool]:
    """Turn ``pieces`` together about ``centre`` by ``delta_deg`` (GEOMETRY.md 4.7, 8): stop at the first
    contact with an obstruction none of them started the turn touching (a Collision unless it is ignored
    this Movement Step), and never turn into one they started touching. Returns (degrees turned, stopped)."""
    obs = obstructions_for(state.table, pieces[0])
    touching_now = {o.id for o in obs if any(touches(p.footprint, o.shape) for p in pieces)}
    shapes = _Shapes([o for o in obs if o.id not in touching_now])
    hits = [h for p in pieces if (h := _rotation_hit(p, centre, delta_deg, shapes)) is not None]
    hit = min(hits) if hits else None
    blocked = _first_overlap_turn(pieces, centre, delta_deg, _Shapes([o for o in obs if o.id in touching_now]))
    if blocked is not None and (hit is None or blocked < hit):
        state.notes.append(f"the {'Spin' if during == 'spin' else 'turn'} stopped against something it started "
                           "touching (p.24)")
        return math.copysign(blocked, delta_deg), True
    if hit is None:
        return delta_deg, False
    turned = math.copysign(hit, delta_deg)
    live = _Shapes([o for o in shapes.items if o.owner not in state.ignored])
    met: list[Obstruction] = []
    for p in pieces:
        met += _collide(state, rotated(p.pose, centre, turned), live, during, piece=p)
    _remove(state, met)
    state.notes.append(f"the {'Spin' if during == 'spin' else 'turn'} stopped at first contact (p.24)")
    return turned, True


@dataclass(frozen=True)
class PivotResult:
    """A pivot about the centre from rest (a Spin, p.24; Lose Control, p.35).

    ``turned_deg``: how far it turned (counter-clockwise positive); ``stopped``:
    it met something before turning the whole way; ``collisions``: what it hit
    that is not ``ignored``; ``table_after``: with the vehicle turned and any
    destructible obstacle it hit removed. An articulated vehicle turns both
    pieces about the rig's centre (p.118); ``final`` is the cab's pose.
    """

    final: Pose
    turned_deg: float
    stopped: bool
    collisions: tuple[Collision, ...]
    removed: tuple[str, ...]
    table_after: Table


def resolve_pivot(table: Table, vehicle_id: str, delta_deg: float,
                  ignored: frozenset[str] = frozenset()) -> PivotResult:
    """Pivot ``vehicle_id`` about its centre by ``delta_deg`` (any size, ccw positive), stopping at
    first contact and never turning into what it started touching (GEOMETRY.md 4.7); an articulated
    vehicle pivots cab and trailer together as one fixed object about the rig's centre (p.118).

    ``ignored``: obstructions ignored this Movement Step (touching does not make
    a Collision with them). Raises ``KeyError`` for an unknown vehicle.
    """
    vehicle = table.vehicle(vehicle_id)
    state = _State(table, vehicle, set(ignored), reversing=vehicle.reversing)
    if vehicle.trailer is not None:
        centre = _centre_of(vehicle, vehicle.pose, vehicle.bend_deg)
        turned, stopped = _rotate_pieces(state, vehicle.pieces, centre, delta_deg, "spin") if delta_deg else \
            (0.0, False)
        final = rotated(vehicle.pose, centre, turned)
    else:
        turned, stopped = _spin(state, vehicle.pose, delta_deg) if delta_deg else (0.0, False)
        final = vehicle.pose.turned(turned)
    after = state.table.with_vehicle(vehicle.moved(final))
    return PivotResult(final, turned, stopped, tuple(state.collisions), tuple(state.removed), after)


@dataclass(frozen=True)
class SwingResult:
    """A trailer swung about the hitch (a Jackknife's Swing Trailer, p.119; GEOMETRY.md 8).

    ``bend_deg``: where it ended; ``turned_deg``: how far it swung
    (counter-clockwise positive); ``stopped``: it met something first;
    ``collisions``: what it hit (``part`` ``"trailer"``), its Collision Window;
    ``table_after``: with the trailer swung and destructible obstacles it hit removed.
    """

    bend_deg: float
    turned_deg: float
    stopped: bool
    collisions: tuple[Collision, ...]
    removed: tuple[str, ...]
    table_after: Table


def swing_trailer(table: Table, vehicle_id: str, bend_deg: float, ignored: frozenset[str] = frozenset()
                  ) -> SwingResult:
    """Swing ``vehicle_id``'s trailer about the hitch towards ``bend_deg`` (held within
    :data:`MAX_BEND_DEG`), the shorter way, stopping at first contact like a Spin (p.119, p.24).

    Raises ``KeyError`` for an unknown vehicle and ``ValueError`` for one without a trailer.
    """
    vehicle = table.vehicle(vehicle_id)
    trailer = vehicle.trailer
    if trailer is None:
        raise ValueError(f"{vehicle_id!r} has no trailer to swing")
    target = clamp_bend(bend_deg)
    delta = target - clamp_bend(vehicle.bend_deg)
    state = _State(table, trailer, set(ignored), reversing=vehicle.reversing)
    hitch = hitch_point(vehicle.pose, vehicle.length_mm)
    turned, stopped = _rotate_pieces(state, (trailer,), hitch, delta, "swing") if delta else (0.0, False)
    bend = clamp_bend(vehicle.bend_deg + turned)
    after = state.table.with_vehicle(vehicle.moved(vehicle.pose, bend_deg=bend))
    return SwingResult(bend, turned, stopped, tuple(state.collisions), tuple(state.removed), after)


def with_pose(table: Table, vehicle_id: str, pose: Pose) -> Table:
    """A copy of ``table`` with one vehicle moved by hand (no rules applied)."""
    return table.with_vehicle(replace(table.vehicle(vehicle_id), pose=pose.normalised()))
