"""Touching, overlapping and Collision orientation (p.52-54; GEOMETRY.md 4-5).

Two shapes *touch* when they are at most :data:`TOUCH_MM` apart and *overlap*
when one reaches more than :data:`TOUCH_MM` into the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from simulator.geometry.pose import TOUCH_MM, footprint_corners, footprint_edges
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


def _reaches_into(a: Polygon, b: Polygon) -> bool:
    inner = shrink(a)
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


def contact_edge(vehicle: VehiclePiece, other: BaseGeometry) -> Edge:
    """Which edge of ``vehicle`` touches ``other`` (p.52-53; GEOMETRY.md 5).

    The contact set is the part of the vehicle's boundary within 0.01 mm of
    ``other``. From 0.05 mm of boundary up, the edge holding most of it wins
    (ties: front, side, rear); otherwise the contact is a point, and a point
    within 0.01 mm of a corner takes the corner rule: front/side corner is
    front, rear/side corner is side. A vehicle most recently moved in reverse
    swaps front and rear first (p.53).
    """
    edges = footprint_edges(vehicle.pose, vehicle.length_mm, vehicle.width_mm)
    zone = other.buffer(TOUCH_MM, quad_segs=4)
    lengths: dict[str, float] = {"front": 0.0, "rear": 0.0, "side": 0.0}
    for name, seg in edges.items():
        key = _swap(name, vehicle.reversing)
        key = "side" if key in ("left", "right") else key
        lengths[key] += seg.intersection(zone).length
    if sum(lengths.values()) >= CONTACT_LENGTH_MM:
        order = ("front", "side", "rear")
        best = max(order, key=lambda k: (lengths[k], -order.index(k)))
        return best  # type: ignore[return-value]
    return _point_edge(vehicle, other)


def _point_edge(vehicle: VehiclePiece, other: BaseGeometry) -> Edge:
    boundary = vehicle.footprint.exterior
    p, _ = nearest_points(boundary, other)
    corners = footprint_corners(vehicle.pose, vehicle.length_mm, vehicle.width_mm)
    names = ("front", "rear", "rear", "front")  # fl, rl, rr, fr: which end each corner is on
    for (cx, cy), end in zip(corners, names, strict=True):
        if math.hypot(p.x - cx, p.y - cy) <= TOUCH_MM:
            end = _swap(end, vehicle.reversing)
            return "front" if end == "front" else "side"
    edges = footprint_edges(vehicle.pose, vehicle.length_mm, vehicle.width_mm)
    name = min(edges, key=lambda n: edges[n].distance(Point(p.x, p.y)))
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
