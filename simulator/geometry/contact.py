"""Touching, overlapping and Collision orientation (p.52-54; GEOMETRY.md 4-5).

Two shapes *touch* when they are at most :data:`TOUCH_MM` apart and *overlap*
when one reaches more than :data:`TOUCH_MM` into the other.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from simulator.geometry.pose import TOUCH_MM, footprint_corners
from simulator.geometry.table import VehiclePiece

Edge = Literal["front", "rear", "side"]
Orientation = Literal["head_on", "t_bone", "tailgate"]

CONTACT_LENGTH_MM = 0.05
"""A contact set this long or longer is labelled by the edge holding most of it (GEOMETRY.md 5)."""


def touches(a: BaseGeometry, b: BaseGeometry) -> bool:
    """True when ``a`` and ``b`` are at most 0.01 mm apart (overlapping shapes touch too)."""
    return bool(shapely.dwithin(a, b, TOUCH_MM))


def shrink(shape: Polygon, by_mm: float = TOUCH_MM) -> BaseGeometry:
    """``shape`` eroded by ``by_mm`` with mitred corners (a rectangle stays a rectangle)."""
    return shape.buffer(-by_mm, join_style="mitre")


_CACHE_LIMIT = 2048
_SHRUNK: dict[int, tuple[BaseGeometry, BaseGeometry]] = {}
_ZONES: dict[int, tuple[BaseGeometry, BaseGeometry]] = {}


def _cached(cache: dict[int, tuple[BaseGeometry, BaseGeometry]], shape: BaseGeometry,
            make: Callable[[BaseGeometry], BaseGeometry]) -> BaseGeometry:
    """``make(shape)``, remembered per shape object (for obstacles and footprints, which are reused)."""
    hit = cache.get(id(shape))
    if hit is not None and hit[0] is shape:
        return hit[1]
    out = make(shape)
    if len(cache) > _CACHE_LIMIT:
        cache.clear()
    cache[id(shape)] = (shape, out)
    return out


def _inner_of(shape: Polygon, cache: bool) -> BaseGeometry:
    return _cached(_SHRUNK, shape, shrink) if cache else shrink(shape)


def _reaches_into(a: Polygon, b: Polygon, cache: bool = False) -> bool:
    inner = _inner_of(a, cache)
    return bool(not inner.is_empty and inner.intersects(b) and not inner.touches(b))


def overlaps(a: Polygon, b: Polygon) -> bool:
    """True when either shape reaches more than 0.01 mm into the other (DESIGN.md, Tolerance).

    Measured both ways: ``a`` eroded by 0.01 mm still meets ``b``'s interior,
    or ``b`` eroded by 0.01 mm still meets ``a``'s (a sharp corner can reach
    deep into a rectangle while the rectangle barely reaches into it).
    """
    if not a.intersects(b):
        return False
    return _reaches_into(a, b) or _reaches_into(b, a)


def overlaps_static(a: Polygon, b: Polygon) -> bool:
    """:func:`overlaps` for a ``b`` that is used again and again (an obstacle or a parked vehicle's
    footprint): its eroded shape is remembered, and tested first."""
    if not a.intersects(b):
        return False
    return _reaches_into(b, a, cache=True) or _reaches_into(a, b)


@dataclass(frozen=True)
class Contact:
    """How two pieces touch: orientation and each vehicle's contact edge (None for obstacles)."""

    touching: bool
    distance_mm: float
    orientation: Orientation | None
    a_edge: Edge | None
    b_edge: Edge | None


def _swap(edge: str, reversing: bool) -> str:
    if not reversing:
        return edge
    return {"front": "rear", "rear": "front"}.get(edge, edge)


_EDGE_ORDER = ("front", "rear", "left", "right")
_EDGE_CORNERS = np.array([[0, 3], [1, 2], [1, 0], [2, 3]])
"""Each edge of :data:`_EDGE_ORDER` as indices of footprint_corners (fl, rl, rr, fr), as in footprint_edges."""


def _zone(other: BaseGeometry) -> BaseGeometry:
    return other.buffer(TOUCH_MM, quad_segs=4)


def contact_edge(vehicle: VehiclePiece, other: BaseGeometry) -> Edge:
    """Which edge of ``vehicle`` touches ``other`` (p.52-53; GEOMETRY.md 5).

    The contact set is the part of the vehicle's boundary within 0.01 mm of
    ``other``. From 0.05 mm of boundary up, the edge holding most of it wins
    (ties: front, side, rear); otherwise the contact is a point, and a point
    within 0.01 mm of a corner takes the corner rule: front/side corner is
    front, rear/side corner is side. A vehicle most recently moved in reverse
    swaps front and rear first (p.53).

    Decided in closed form (:func:`_fast_contact_edge`) whenever the answer is
    clear of every threshold by a margin; otherwise by the shapely reference
    :func:`contact_edge_reference`, so the two always agree.
    """
    return _contact_edge(vehicle, other, None)


def _contact_edge(vehicle: VehiclePiece, other: BaseGeometry, outline: _Outline | None) -> Edge:
    corners = footprint_corners(vehicle.pose, vehicle.length_mm, vehicle.width_mm)
    if outline is None:
        outline = _outline_of(other)
    if outline is not None:
        fast = _fast_contact_edge(corners.tolist(), vehicle.reversing, other, outline)
        if fast is not None:
            return fast
    return contact_edge_reference(vehicle, other, corners)


def contact_edge_reference(vehicle: VehiclePiece, other: BaseGeometry,
                           corners: NDArray[np.float64] | None = None) -> Edge:
    """:func:`contact_edge` computed with shapely: each edge intersected with ``other``'s 0.01 mm buffer."""
    if corners is None:
        corners = footprint_corners(vehicle.pose, vehicle.length_mm, vehicle.width_mm)
    segs = shapely.linestrings(corners[_EDGE_CORNERS])
    # only edges within 0.01 mm of ``other`` can meet its 0.01 mm buffer (whose vertices lie on the offset)
    near = shapely.distance(segs, other) <= TOUCH_MM + 1e-9
    lengths: dict[str, float] = {"front": 0.0, "rear": 0.0, "side": 0.0}
    if near.any():
        zone = _cached(_ZONES, other, _zone)
        parts = shapely.length(shapely.intersection(segs[near], zone)).tolist()
        names = [n for n, k in zip(_EDGE_ORDER, near.tolist(), strict=True) if k]
        for name, part in zip(names, parts, strict=True):
            key = _swap(name, vehicle.reversing)
            key = "side" if key in ("left", "right") else key
            lengths[key] += part
    if sum(lengths.values()) >= CONTACT_LENGTH_MM:
        order = ("front", "side", "rear")
        best = max(order, key=lambda k: (lengths[k], -order.index(k)))
        return best  # type: ignore[return-value]
    return _point_edge(vehicle, other, corners, segs)


def _point_edge(vehicle: VehiclePiece, other: BaseGeometry, corners: NDArray[np.float64],
                segs: NDArray[np.object_]) -> Edge:
    boundary = vehicle.footprint.exterior
    p, _ = nearest_points(boundary, other)
    names = ("front", "rear", "rear", "front")  # fl, rl, rr, fr: which end each corner is on
    for (cx, cy), end in zip(corners.tolist(), names, strict=True):
        if math.hypot(p.x - cx, p.y - cy) <= TOUCH_MM:
            end = _swap(end, vehicle.reversing)
            return "front" if end == "front" else "side"
    dist = shapely.distance(segs, Point(p.x, p.y)).tolist()
    name = min(_EDGE_ORDER, key=lambda n: dist[_EDGE_ORDER.index(n)])
    key = _swap(name, vehicle.reversing)
    return "side" if key in ("left", "right") else key  # type: ignore[return-value]


# --------------------------------------------------------------------------- closed-form contact sets

_MARGIN_MM = 0.002
"""A closed-form decision this close to a threshold (0.05 mm, a tie, the 0.01 mm corner distance) is
left to the shapely reference."""

_R_OUT = TOUCH_MM + 2e-4
"""Radius of a capsule holding shapely's 0.01 mm buffer of an edge (buffer simplification adds < 1e-4)."""

_R_IN = TOUCH_MM * math.cos(3.0 * math.pi / 32.0) - 1e-9
"""Radius of a capsule inside shapely's 0.01 mm buffer: its round joins (quad_segs=4) are chords of the
offset circle at most 3 pi / 16 wide, so they stay this far out."""

_FAST_EDGES = ((0, 3), (1, 2), (1, 0), (2, 3))
""":data:`_EDGE_ORDER`'s edges as (start, end) corner indices (fl, rl, rr, fr)."""

_CORNER_ENDS = ("front", "rear", "rear", "front")

_EdgeRow = tuple[float, float, float, float, float, float, float, float, float, float, float]
"""(ax, ay, bx, by, mx, my, length, xmin, xmax, ymin, ymax) of one boundary edge, (mx, my) its unit direction."""


class _Outline:
    """A polygon's boundary edges as plain rows, with their bounding boxes as arrays for a quick filter."""

    __slots__ = ("rows", "x0", "x1", "y0", "y1")

    def __init__(self, rings: list[list[list[float]]]) -> None:
        rows: list[_EdgeRow] = []
        for ring in rings:
            for (ax, ay), (bx, by) in zip(ring[:-1], ring[1:], strict=True):
                le = math.hypot(bx - ax, by - ay)
                if le > 0.0:
                    rows.append((ax, ay, bx, by, (bx - ax) / le, (by - ay) / le, le,
                                 min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)))
        self.rows = rows
        if len(rows) > 12:
            box = np.array([r[7:] for r in rows])
            self.x0, self.x1, self.y0, self.y1 = box.T
        else:
            self.x0 = self.x1 = self.y0 = self.y1 = np.zeros(0)

    def near(self, x0: float, x1: float, y0: float, y1: float) -> list[_EdgeRow]:
        """The edges whose bounding boxes meet the box [x0, x1] x [y0, y1]."""
        if len(self.rows) <= 12:
            return [r for r in self.rows if r[8] >= x0 and r[7] <= x1 and r[10] >= y0 and r[9] <= y1]
        keep = np.flatnonzero((self.x1 >= x0) & (self.x0 <= x1) & (self.y1 >= y0) & (self.y0 <= y1))
        rows = self.rows
        return [rows[i] for i in keep.tolist()]


_OUTLINES: dict[int, tuple[BaseGeometry, _Outline | None]] = {}


def _make_outline(shape: BaseGeometry) -> _Outline | None:
    if not isinstance(shape, Polygon) or shape.is_empty:
        return None
    if not shape.interiors:
        return _Outline([shapely.get_coordinates(shape).tolist()])
    return _Outline([shapely.get_coordinates(r).tolist() for r in (shape.exterior, *shape.interiors)])


def _outline_of(shape: BaseGeometry) -> _Outline | None:
    """:class:`_Outline` of a polygon (None for another geometry), remembered per shape object."""
    hit = _OUTLINES.get(id(shape))
    if hit is not None and hit[0] is shape:
        return hit[1]
    out = _make_outline(shape)
    if len(_OUTLINES) > _CACHE_LIMIT:
        _OUTLINES.clear()
    _OUTLINES[id(shape)] = (shape, out)
    return out


def _rect_outline(c: list[list[float]]) -> _Outline:
    """The :class:`_Outline` of a footprint from its corners."""
    return _Outline([[*c, c[0]]])


def _capsule_interval(wx: float, wy: float, ux: float, uy: float, length: float, mx: float, my: float,
                      le: float, rho: float) -> tuple[float, float] | None:
    """The parameters t in [0, length] at which p + t u lies within ``rho`` of the segment a + s m,
    s in [0, le] (w = p - a; u, m unit): one interval, as a capsule is convex; None if empty."""
    a0, a1 = mx * wx + my * wy, mx * ux + my * uy
    n0, n1 = mx * wy - my * wx, mx * uy - my * ux
    t0, t1 = 0.0, length
    if n1 != 0.0:
        ta, tb = (-rho - n0) / n1, (rho - n0) / n1
        if ta > tb:
            ta, tb = tb, ta
        t0, t1 = max(t0, ta), min(t1, tb)
    elif abs(n0) > rho:
        t0, t1 = 1.0, 0.0
    if a1 != 0.0:
        ta, tb = -a0 / a1, (le - a0) / a1
        if ta > tb:
            ta, tb = tb, ta
        t0, t1 = max(t0, ta), min(t1, tb)
    elif a0 < 0.0 or a0 > le:
        t0, t1 = 1.0, 0.0
    lo, hi = (t0, t1) if t0 <= t1 else (math.inf, -math.inf)
    for vx, vy in ((wx, wy), (wx - le * mx, wy - le * my)):
        b = vx * ux + vy * uy
        disc = b * b - (vx * vx + vy * vy) + rho * rho
        if disc >= 0.0:
            sq = math.sqrt(disc)
            ta, tb = max(-b - sq, 0.0), min(-b + sq, length)
            if ta <= tb:
                lo, hi = min(lo, ta), max(hi, tb)
    return (lo, hi) if lo <= hi else None


def _union_length(intervals: list[tuple[float, float]]) -> float:
    total, reach = 0.0, -math.inf
    for lo, hi in sorted(intervals):
        if hi > reach:
            total += hi - max(lo, reach)
            reach = hi
    return total


def _label_of(name: str, reversing: bool) -> str:
    key = _swap(name, reversing)
    return "side" if key in ("left", "right") else key


def _point_label(x: float, y: float, c: list[list[float]], reversing: bool) -> str | None:
    """:func:`_point_edge`'s label for the contact point (x, y); None when within the margin of a decision."""
    label: str | None = None
    for (cx, cy), end in zip(c, _CORNER_ENDS, strict=True):
        dc = math.hypot(x - cx, y - cy)
        if abs(dc - TOUCH_MM) <= _MARGIN_MM:
            return None
        if dc <= TOUCH_MM and label is None:
            label = "front" if _swap(end, reversing) == "front" else "side"
    if label is not None:
        return label
    dists = []
    for i, (s, e) in enumerate(_FAST_EDGES):
        (px, py), (qx, qy) = c[s], c[e]
        dx, dy = qx - px, qy - py
        t = min(max(((x - px) * dx + (y - py) * dy) / (dx * dx + dy * dy), 0.0), 1.0)
        dists.append((math.hypot(x - px - t * dx, y - py - t * dy), i))
    dists.sort()
    best = _label_of(_EDGE_ORDER[dists[0][1]], reversing)
    if dists[1][0] - dists[0][0] < 1e-7 and _label_of(_EDGE_ORDER[dists[1][1]], reversing) != best:
        return None
    return best


def _fast_contact_edge(c: list[list[float]], reversing: bool, other: BaseGeometry,
                       outline: _Outline) -> Edge | None:
    """:func:`contact_edge_reference`'s answer in closed form, or None when it is too close to call.

    Each vehicle edge's contact length is bounded below and above by its intersection with capsules
    round ``other``'s edges of radius :data:`_R_IN` and :data:`_R_OUT` (shapely's buffer lies between
    them); a label is returned only when both bounds give it with :data:`_MARGIN_MM` to spare. The
    point rule uses every closest pair of features (corner to edge, vertex to edge), and needs them to
    agree. Crossing or (nearly) touching boundaries, and a vehicle inside ``other``, are left to shapely.
    """
    xs = [p[0] for p in c]
    ys = [p[1] for p in c]
    rows = outline.near(min(xs) - _R_OUT, max(xs) + _R_OUT, min(ys) - _R_OUT, max(ys) + _R_OUT)
    if not rows:
        return None
    lows = {"front": 0.0, "rear": 0.0, "side": 0.0}
    highs = {"front": 0.0, "rear": 0.0, "side": 0.0}
    points: list[tuple[float, float, float]] = []
    for i, (s, e) in enumerate(_FAST_EDGES):
        (px, py), (qx, qy) = c[s], c[e]
        dx, dy = qx - px, qy - py
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        ex0, ex1 = min(px, qx) - _R_OUT, max(px, qx) + _R_OUT
        ey0, ey1 = min(py, qy) - _R_OUT, max(py, qy) + _R_OUT
        outer: list[tuple[float, float]] = []
        inner: list[tuple[float, float]] = []
        for ax, ay, bx, by, mx, my, le, x0, x1, y0, y1 in rows:
            if x1 < ex0 or x0 > ex1 or y1 < ey0 or y0 > ey1:
                continue
            # closest features: each corner of this edge to the other edge, each vertex to this edge
            for vx, vy in ((px, py), (qx, qy)):
                t = min(max((vx - ax) * mx + (vy - ay) * my, 0.0), le)
                points.append((math.hypot(vx - ax - t * mx, vy - ay - t * my), vx, vy))
            for vx, vy in ((ax, ay), (bx, by)):
                t = min(max((vx - px) * ux + (vy - py) * uy, 0.0), length)
                fx, fy = px + t * ux, py + t * uy
                points.append((math.hypot(vx - fx, vy - fy), fx, fy))
            # a proper crossing (the vehicle reaches into ``other``): left to shapely
            o1 = mx * (py - ay) - my * (px - ax)
            o2 = mx * (qy - ay) - my * (qx - ax)
            o3 = ux * (ay - py) - uy * (ax - px)
            o4 = ux * (by - py) - uy * (bx - px)
            if o1 * o2 < 0.0 and o3 * o4 < 0.0:
                return None
            wx, wy = px - ax, py - ay
            hit = _capsule_interval(wx, wy, ux, uy, length, mx, my, le, _R_OUT)
            if hit is not None:
                outer.append(hit)
                hit = _capsule_interval(wx, wy, ux, uy, length, mx, my, le, _R_IN)
                if hit is not None:
                    inner.append(hit)
        label = _label_of(_EDGE_ORDER[i], reversing)
        if outer:
            highs[label] += _union_length(outer)
            if inner:
                lows[label] += _union_length(inner)
    if not points:
        return None
    d_min = min(p[0] for p in points)
    if d_min < 1e-7 or d_min > TOUCH_MM:
        return None
    if shapely.intersects_xy(other, c[0][0], c[0][1]):  # the vehicle inside ``other``
        return None
    if sum(lows.values()) >= CONTACT_LENGTH_MM + _MARGIN_MM:
        order = ("front", "side", "rear")
        best = max(order, key=lambda k: (lows[k], -order.index(k)))
        if all(lows[best] > highs[k] + _MARGIN_MM for k in order if k != best):
            return best  # type: ignore[return-value]
        return None
    if sum(highs.values()) >= CONTACT_LENGTH_MM - _MARGIN_MM:
        return None
    labels = {_point_label(x, y, c, reversing) for d, x, y in points if d <= d_min + 1e-9}
    if len(labels) != 1 or None in labels:
        return None
    return labels.pop()  # type: ignore[return-value]


def orientation_of(a_edge: Edge, b_edge: Edge | None) -> Orientation:
    """Head-On when both fronts, T-Bone when either side, else Tailgate (p.52-53).

    ``b_edge`` None means an obstacle: always Head-On (p.54).
    """
    if b_edge is None:
        return "head_on"
    if a_edge == "front" and b_edge == "front":
        return "head_on"
    if "side" in (a_edge, b_edge):
        return "t_bone"
    return "tailgate"


def classify(a: VehiclePiece, b: VehiclePiece | None, b_shape: Polygon) -> Contact:
    """Contact between vehicle ``a`` and either vehicle ``b`` or an obstacle shape (``b`` None)."""
    a_fp = a.footprint
    distance = float(a_fp.distance(b_shape))
    if distance > TOUCH_MM:
        return Contact(False, distance, None, None, None)
    a_edge = contact_edge(a, b_shape)
    b_edge = None
    if b is not None:
        corners = footprint_corners(a.pose, a.length_mm, a.width_mm).tolist()
        b_edge = _contact_edge(b, a_fp, _rect_outline(corners))
    return Contact(True, distance, orientation_of(a_edge, b_edge), a_edge, b_edge)
