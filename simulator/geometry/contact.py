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
    """
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
    distance = float(a.footprint.distance(b_shape))
    if distance > TOUCH_MM:
        return Contact(False, distance, None, None, None)
    a_edge = contact_edge(a, b_shape)
    b_edge = contact_edge(b, a.footprint) if b is not None else None
    return Contact(True, distance, orientation_of(a_edge, b_edge), a_edge, b_edge)
