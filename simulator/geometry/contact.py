"""Touching, overlapping and Collision orientation (p.52-54; GEOMETRY.md 4-5).

Two shapes *touch* when they are at most :data:`TOUCH_MM` apart and *overlap*
when one reaches more than :data:`TOUCH_MM` into the other.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from simulator.geometry.pose import TOUCH_MM, footprint_corners
from simulator.geometry.table import VehiclePiece
from simulator.vocab import Edge as Edge  # noqa: E402  (one definition for every layer, re-exported)
from simulator.vocab import OrientationName  # noqa: E402

Orientation = OrientationName

CONTACT_LENGTH_MM = 1.0
"""A contact set this long or longer is labelled by the edge holding most of it (GEOMETRY.md 5).

1 mm of boundary within 0.01 mm of the other shape means the two edges lie flush, within about
0.6 degrees; a corner striking an edge at any steeper angle is a point, and the corner rule of p.53
applies to it. (An earlier 0.05 mm turned corner touches below about 15 degrees into edge contacts.)"""


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


_EMPTY_INNER: dict[int, tuple[BaseGeometry, bool]] = {}
"""Whether a remembered eroded shape is empty, per eroded shape object."""


def _reaches_into(a: Polygon, b: Polygon, cache: bool = False) -> bool:
    inner = _inner_of(a, cache)
    if cache:
        hit = _EMPTY_INNER.get(id(inner))
        if hit is not None and hit[0] is inner:
            empty = hit[1]
        else:
            empty = inner.is_empty
            if len(_EMPTY_INNER) > _CACHE_LIMIT:
                _EMPTY_INNER.clear()
            _EMPTY_INNER[id(inner)] = (inner, empty)
    else:
        empty = inner.is_empty
    return bool(not empty and inner.intersects(b) and not inner.touches(b))


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
    ``other``. From 1 mm of boundary up (:data:`CONTACT_LENGTH_MM`: edges flush within about
    0.6 degrees), the edge holding most of it wins
    (ties: front, side, rear); otherwise the contact is a point, and a point
    within 0.01 mm of a corner takes the corner rule: front/side corner is
    front, rear/side corner is side. A vehicle most recently moved in reverse
    swaps front and rear first (p.53).

    Decided in closed form (:func:`_fast_contact_edge`) whenever the answer is
    clear of every threshold by a margin; otherwise by the shapely reference
    :func:`contact_edge_reference`, so the two always agree.
    """
    return _at_hitch(vehicle, _contact_edge(vehicle, other, None))


def _at_hitch(vehicle: VehiclePiece, edge: Edge) -> Edge:
    """A contact on the hitch edge of a cab or trailer (its corners included) counts as a side: it is in the
    middle of the articulated vehicle (GEOMETRY.md 8, p.118)."""
    hitch = vehicle.hitch_edge
    if hitch is None:
        return edge
    return "side" if edge == _swap(hitch, vehicle.reversing) else edge


def _corners(vehicle: VehiclePiece) -> list[list[float]]:
    """:func:`footprint_corners` of ``vehicle`` as lists (the same numbers, computed without the array)."""
    pose, length_mm, width_mm = vehicle.pose, vehicle.length_mm, vehicle.width_mm
    rad = math.radians(pose.heading_deg)
    c, s = math.cos(rad), math.sin(rad)
    fx, fy = c * length_mm / 2.0, s * length_mm / 2.0
    lx, ly = -s * width_mm / 2.0, c * width_mm / 2.0
    x, y = pose.x_mm, pose.y_mm
    return [[x + fx + lx, y + fy + ly], [x - fx + lx, y - fy + ly],
            [x - fx - lx, y - fy - ly], [x + fx - lx, y + fy - ly]]


def _contact_edge(vehicle: VehiclePiece, other: BaseGeometry, outline: _Outline | None,
                  corners: list[list[float]] | None = None) -> Edge:
    if corners is None:
        corners = _corners(vehicle)
    if outline is None:
        outline = _outline_of(other)
    if outline is not None:
        fast = _fast_contact_edge(corners, vehicle.reversing, other, outline)
        if fast is not None:
            return fast
    return contact_edge_reference(vehicle, other, np.array(corners))


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

_MARGIN_MM = 1e-5
"""A closed-form decision this close to a threshold (:data:`CONTACT_LENGTH_MM`, a tie, the 0.01 mm corner distance) is
left to the shapely reference."""

_R_SLACK = TOUCH_MM + 2e-4
"""Outer radius of shapely's 0.01 mm buffer next to a concave vertex, which its input simplification
(tolerance 1e-4 mm) may cut off; elsewhere the buffer's straight parts are offset exactly 0.01 mm."""

_R_EXACT_IN, _R_EXACT_OUT = TOUCH_MM - 1e-9, TOUCH_MM + 1e-9

_R_JOIN_IN = TOUCH_MM * math.cos(3.0 * math.pi / 32.0) - 1e-9
"""Shapely's round joins (quad_segs=4) are chords of the 0.01 mm circle at most 3 pi / 16 wide, so
they stay at least this far from their vertex."""

_FAST_EDGES = ((0, 3), (1, 2), (1, 0), (2, 3))
""":data:`_EDGE_ORDER`'s edges as (start, end) corner indices (fl, rl, rr, fr)."""

_CORNER_ENDS = ("front", "rear", "rear", "front")

_EdgeRow = tuple[float, float, float, float, float, float, float, float, float, float, float, float]
"""(ax, ay, bx, by, mx, my, length, xmin, xmax, ymin, ymax, outer strip radius) of one boundary edge,
(mx, my) its unit direction."""


class _Outline:
    """A polygon's boundary edges as plain rows, with their bounding boxes as arrays for a quick filter."""

    __slots__ = ("rows", "x0", "x1", "y0", "y1", "bbox")

    def __init__(self, rings: list[list[list[float]]]) -> None:
        rows: list[_EdgeRow] = []
        for k, ring in enumerate(rings):
            pts = ring[:-1]
            n = len(pts)
            area2 = sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1] for i in range(n))
            sign = 1.0 if area2 > 0.0 else -1.0

            def convex(i: int, pts: list[list[float]] = pts, n: int = n, sign: float = sign) -> bool:
                (ax, ay), (bx, by), (cx, cy) = pts[i - 1], pts[i], pts[(i + 1) % n]
                return sign * ((bx - ax) * (cy - by) - (by - ay) * (cx - bx)) > 0.0

            flags = [convex(i) for i in range(n)] if k == 0 else [False] * n
            for i in range(n):
                (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
                le = math.hypot(bx - ax, by - ay)
                if le > 0.0:
                    strip = _R_EXACT_OUT if flags[i] and flags[(i + 1) % n] else _R_SLACK
                    rows.append((ax, ay, bx, by, (bx - ax) / le, (by - ay) / le, le,
                                 min(ax, bx), max(ax, bx), min(ay, by), max(ay, by), strip))
        self.rows = rows
        self.bbox = _bbox(rings[0])
        if len(rows) > 12:
            box = np.array([r[7:11] for r in rows])
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


def _bbox(points: list[list[float]]) -> tuple[float, float, float, float]:
    """(xmin, xmax, ymin, ymax) of ``points``."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), max(xs), min(ys), max(ys)


_OUTLINES: dict[int, tuple[BaseGeometry, _Outline | None]] = {}


def _make_outline(shape: BaseGeometry) -> _Outline | None:
    if not isinstance(shape, Polygon) or shape.is_empty or not shape.is_valid:
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


_NO_BOXES = np.zeros(0)


def _rect_outline(c: list[list[float]]) -> _Outline:
    """The :class:`_Outline` of a footprint from its corners (a rectangle: every vertex convex)."""
    out = _Outline.__new__(_Outline)
    rows: list[_EdgeRow] = []
    for (ax, ay), (bx, by) in zip(c, (c[1], c[2], c[3], c[0]), strict=True):
        le = math.hypot(bx - ax, by - ay)
        # min(ax, bx) is ``bx if bx < ax else ax``, max(ax, bx) ``bx if bx > ax else ax``
        rows.append((ax, ay, bx, by, (bx - ax) / le, (by - ay) / le, le, bx if bx < ax else ax,
                     bx if bx > ax else ax, by if by < ay else ay, by if by > ay else ay, _R_EXACT_OUT))
    out.rows = rows
    out.x0 = out.x1 = out.y0 = out.y1 = _NO_BOXES
    out.bbox = _bbox(c)
    return out


def _capsule_bounds(wx: float, wy: float, ux: float, uy: float, length: float, mx: float, my: float,
                    le: float, strip_out: float, inner: list[tuple[float, float]]) -> tuple[float, float] | None:
    """Where p + t u, t in [0, length], lies within 0.01 mm of the segment a + s m, s in [0, le] as
    shapely's buffer has it (w = p - a; u, m unit). Returns (lo, hi) where the line meets a capsule
    holding that buffer (one interval: a capsule is convex), None if it misses it; and appends to
    ``inner`` the intervals where it meets a shape inside the buffer (the exact strip, and discs of
    radius :data:`_R_JOIN_IN` at the ends)."""
    a0, a1 = mx * wx + my * wy, mx * ux + my * uy
    n0, n1 = mx * wy - my * wx, mx * uy - my * ux
    # min(x, y) is ``y if y < x else x`` and max(x, y) ``y if y > x else x``, written out (the same numbers)
    t0, t1 = 0.0, length
    if a1 != 0.0:
        ta, tb = -a0 / a1, (le - a0) / a1
        if ta > tb:
            ta, tb = tb, ta
        if ta > t0:
            t0 = ta
        if tb < t1:
            t1 = tb
    elif a0 < 0.0 or a0 > le:
        t1 = -1.0
    lo_o, hi_o = math.inf, -math.inf
    if t0 <= t1:
        if n1 != 0.0:
            ta, tb = (-strip_out - n0) / n1, (strip_out - n0) / n1
            if ta > tb:
                ta, tb = tb, ta
            lo = ta if ta > t0 else t0
            hi = tb if tb < t1 else t1
            if lo <= hi:
                lo_o, hi_o = lo, hi
                ta, tb = (-_R_EXACT_IN - n0) / n1, (_R_EXACT_IN - n0) / n1
                if ta > tb:
                    ta, tb = tb, ta
                lo = ta if ta > t0 else t0
                hi = tb if tb < t1 else t1
                if lo <= hi:
                    inner.append((lo, hi))
        elif abs(n0) <= strip_out:
            lo_o, hi_o = t0, t1
            if abs(n0) <= _R_EXACT_IN:
                inner.append((t0, t1))
    rr_out = strip_out * strip_out
    for vx, vy in ((wx, wy), (wx - le * mx, wy - le * my)):
        b = vx * ux + vy * uy
        c = b * b - (vx * vx + vy * vy)
        disc = c + rr_out
        if disc >= 0.0:
            sq = math.sqrt(disc)
            ta, tb = -b - sq, -b + sq
            if 0.0 > ta:
                ta = 0.0
            if length < tb:
                tb = length
            if ta <= tb:
                if ta < lo_o:
                    lo_o = ta
                if tb > hi_o:
                    hi_o = tb
                disc = c + _R_JOIN_IN * _R_JOIN_IN
                if disc >= 0.0:
                    sq = math.sqrt(disc)
                    ta, tb = -b - sq, -b + sq
                    if 0.0 > ta:
                        ta = 0.0
                    if length < tb:
                        tb = length
                    if ta <= tb:
                        inner.append((ta, tb))
    if lo_o > hi_o:
        return None
    return lo_o, hi_o


def _union_length(intervals: list[tuple[float, float]]) -> float:
    if len(intervals) == 1:  # the loop below, once: max(lo, -inf) is lo
        lo, hi = intervals[0]
        return 0.0 + (hi - lo) if hi > -math.inf else 0.0
    total, reach = 0.0, -math.inf
    for lo, hi in sorted(intervals):
        if hi > reach:
            total += hi - max(lo, reach)
            reach = hi
    return total


def _label_of(name: str, reversing: bool) -> str:
    key = _swap(name, reversing)
    return "side" if key in ("left", "right") else key


_LABELS = {r: tuple(_label_of(n, r) for n in _EDGE_ORDER) for r in (False, True)}
""":data:`_EDGE_ORDER`'s labels, front and rear swapped when reversing."""


_VEdge = tuple[int, float, float, float, float, float, float, float]
"""One vehicle edge of :data:`_FAST_EDGES`: (index, px, py, qx, qy, ux, uy, length), (ux, uy) its unit direction."""


def _vehicle_edges(c: list[list[float]]) -> list[_VEdge]:
    out: list[_VEdge] = []
    for i, (s, e) in enumerate(_FAST_EDGES):
        (px, py), (qx, qy) = c[s], c[e]
        dx, dy = qx - px, qy - py
        length = math.hypot(dx, dy)
        out.append((i, px, py, qx, qy, dx / length, dy / length, length))
    return out


def _edge_bounds(c: list[list[float]], outline: _Outline
                 ) -> tuple[list[float], list[float], list[tuple[_VEdge, _EdgeRow]]] | None:
    """Lower and upper bounds on the length of each edge of :data:`_EDGE_ORDER` (corners ``c``) that
    lies in shapely's 0.01 mm buffer of the shape ``outline`` describes, and the pairs of edges less
    than :data:`_R_SLACK` apart; None when the boundaries cross or (nearly) touch, where the contact
    set may have parts inside the shape, or when no edge of the shape is near."""
    # min and max of two numbers written out as ``y if y < x else x`` and ``y if y > x else x`` (the same)
    x0_, x1_, y0_, y1_ = c[0][0], c[0][0], c[0][1], c[0][1]
    for x, y in c[1:]:
        if x < x0_:
            x0_ = x
        if x > x1_:
            x1_ = x
        if y < y0_:
            y0_ = y
        if y > y1_:
            y1_ = y
    rows = outline.near(x0_ - _R_SLACK, x1_ + _R_SLACK, y0_ - _R_SLACK, y1_ + _R_SLACK)
    if not rows:
        return None
    lows = [0.0, 0.0, 0.0, 0.0]
    highs = [0.0, 0.0, 0.0, 0.0]
    pairs: list[tuple[_VEdge, _EdgeRow]] = []
    for edge in _vehicle_edges(c):
        i, px, py, qx, qy, ux, uy, length = edge
        ex0, ex1 = (qx if qx < px else px) - _R_SLACK, (qx if qx > px else px) + _R_SLACK
        ey0, ey1 = (qy if qy < py else py) - _R_SLACK, (qy if qy > py else py) + _R_SLACK
        outer: list[tuple[float, float]] = []
        inner: list[tuple[float, float]] = []
        for row in rows:
            if row[8] < ex0 or row[7] > ex1 or row[10] < ey0 or row[9] > ey1:
                continue
            ax, ay, bx, by, mx, my, le, _x0, _x1, _y0, _y1, strip = row
            # each end's side of the other's line: a crossing, or an end (nearly) on the other segment's
            # line, means parts of the contact set may lie inside the shape
            o1 = mx * (py - ay) - my * (px - ax)
            o2 = mx * (qy - ay) - my * (qx - ax)
            o3 = ux * (ay - py) - uy * (ax - px)
            o4 = ux * (by - py) - uy * (bx - px)
            if (abs(o1) < 1e-7 or abs(o2) < 1e-7 or abs(o3) < 1e-7 or abs(o4) < 1e-7
                    or (o1 * o2 < 0.0 and o3 * o4 < 0.0)):
                return None
            hit = _capsule_bounds(px - ax, py - ay, ux, uy, length, mx, my, le, strip, inner)
            if hit is not None:
                outer.append(hit)
                pairs.append((edge, row))
        if outer:
            highs[i] = _union_length(outer)
            if inner:
                lows[i] = _union_length(inner)
    return lows, highs, pairs


def _fast_contact_edge(c: list[list[float]], reversing: bool, other: BaseGeometry,
                       outline: _Outline) -> Edge | None:
    """:func:`contact_edge_reference`'s answer in closed form, or None when it is too close to call.

    Each vehicle edge's contact length is bounded below and above (:func:`_edge_bounds`) by its
    intersection with shapes inside and outside shapely's 0.01 mm buffer of ``other``; a label is
    returned only when both bounds give it with :data:`_MARGIN_MM` to spare. The point rule takes
    every closest pair of features (a corner to an edge, a vertex to an edge) and needs them to agree.
    Crossing or touching boundaries and a vehicle inside ``other`` are left to shapely.
    """
    if min(math.dist(c[0], c[1]), math.dist(c[0], c[3])) <= 3.0 * TOUCH_MM:
        return None
    bounds = _edge_bounds(c, outline)
    if bounds is None:
        return None
    # the vehicle inside ``other``: a corner outside the box of its outer boundary is not in it
    x, y = c[0]
    x0, x1, y0, y1 = outline.bbox
    if x0 <= x <= x1 and y0 <= y <= y1 and shapely.intersects_xy(other, x, y):
        return None
    edge_lows, edge_highs, pairs = bounds
    lows = {"front": 0.0, "rear": 0.0, "side": 0.0}
    highs = {"front": 0.0, "rear": 0.0, "side": 0.0}
    for label, lo, hi in zip(_LABELS[reversing], edge_lows, edge_highs, strict=True):
        lows[label] += lo
        highs[label] += hi
    if sum(lows.values()) >= CONTACT_LENGTH_MM + _MARGIN_MM:
        order = ("front", "side", "rear")
        best = max(order, key=lambda k: (lows[k], -order.index(k)))
        if all(lows[best] > highs[k] + _MARGIN_MM for k in order if k != best):
            return best  # type: ignore[return-value]
        return None
    if sum(highs.values()) >= CONTACT_LENGTH_MM - _MARGIN_MM:
        return None
    return _fast_point_edge(reversing, pairs)


def _fast_point_edge(reversing: bool, pairs: list[tuple[_VEdge, _EdgeRow]]) -> Edge | None:
    """:func:`_point_edge` from the nearest pairs of features, or None when they disagree, are too far
    apart or the point is within :data:`_MARGIN_MM` of 0.01 mm from a corner.

    ``pairs``: (vehicle edge, edge of the other shape) for every pair of edges less than
    :data:`_R_SLACK` apart, so the nearest features are among them when the shapes touch. The point
    lies on a vehicle edge at ``t`` from its start: ``t`` and ``length - t`` are its distances to that
    edge's corners, and every other corner is further (the footprint is a rectangle wider than 0.03 mm).
    """
    # clamps written out: min(max(x, 0.0), hi) is ``hi if hi < y else y`` with ``y = 0.0 if 0.0 > x else x``
    found: list[tuple[float, int, float, float]] = []  # (distance, vehicle edge, t, edge length)
    d_min = math.inf
    for (i, px, py, qx, qy, ux, uy, length), (ax, ay, bx, by, mx, my, le, *_rest) in pairs:
        for vx, vy, t in ((px, py, 0.0), (qx, qy, length)):
            r = (vx - ax) * mx + (vy - ay) * my
            if 0.0 > r:
                r = 0.0
            if le < r:
                r = le
            d = math.hypot(vx - ax - r * mx, vy - ay - r * my)
            if d < d_min:
                d_min = d
            found.append((d, i, t, length))
        for vx, vy in ((ax, ay), (bx, by)):
            t = (vx - px) * ux + (vy - py) * uy
            if 0.0 > t:
                t = 0.0
            if length < t:
                t = length
            d = math.hypot(vx - px - t * ux, vy - py - t * uy)
            if d < d_min:
                d_min = d
            found.append((d, i, t, length))
    if not found:
        return None
    if d_min > TOUCH_MM:
        return None
    labels = set()
    for d, i, t, length in found:
        if d > d_min + 1e-9:
            continue
        near_start = t <= length - t
        to_corner = t if near_start else length - t
        if abs(to_corner - TOUCH_MM) <= _MARGIN_MM:
            return None
        if to_corner < TOUCH_MM:
            end = _CORNER_ENDS[_FAST_EDGES[i][0 if near_start else 1]]
            labels.add("front" if _swap(end, reversing) == "front" else "side")
        else:
            labels.add(_LABELS[reversing][i])
    if len(labels) != 1:
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
    corners = _corners(a)
    a_edge = _at_hitch(a, _contact_edge(a, b_shape, None, corners))
    b_edge = None
    if b is not None:
        b_edge = _at_hitch(b, _contact_edge(b, a_fp, _rect_outline(corners)))
    return Contact(True, distance, orientation_of(a_edge, b_edge), a_edge, b_edge)
