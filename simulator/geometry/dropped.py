"""Dropped weapon templates: where one lands behind or beside a vehicle, and what a move touches.

A dropped weapon's shooting template is placed in the weapon's Arc of Fire
(p.78) as GEOMETRY.md 6 places shooting templates: the template's near edge
collinear with the vehicle's rear edge (extending backwards) or with a side
edge (extending outward), touching it somewhere along it. ``offset_mm`` slides
the near edge along that vehicle edge (positive: towards the vehicle's left
for the rear edge, towards the front for a side); it is legal while the two
edges still touch, ``|offset_mm| <= (vehicle edge + near edge) / 2``.

A template is *placed* at a pose: the centre of its near edge, heading the
way the template points (the local frame of
:class:`~simulator.geometry.templates.ShootingTemplate`).

A vehicle is affected by a dropped template when its movement template or
Final Position overlaps it (p.78); the Smoke Dropper asks only for touching
(p.80). :func:`touched_templates` answers both for an area, using the
DESIGN.md tolerance (touch: at most 0.01 mm apart; overlap: more than 0.01 mm
into each other).

>>> from simulator.geometry.pose import Pose
>>> drop_pose(Pose(100.0, 100.0, 0.0), 60.0, 30.0, "rear")
Pose(x_mm=70.0, y_mm=100.0, heading_deg=180.0)
>>> drop_pose(Pose(100.0, 100.0, 0.0), 60.0, 30.0, "left", 10.0)
Pose(x_mm=110.0, y_mm=115.0, heading_deg=90.0)
>>> max_offset_mm(60.0, 30.0, "rear", 20.0)
25.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from simulator.geometry.contact import overlaps, touches
from simulator.geometry.pose import Pose, footprint, normalise_deg, transform_points
from simulator.geometry.templates import ShootingTemplate
from simulator.vocab import DropEdge  # noqa: E402  (one definition for every layer)

"""The vehicle edge a dropped template is placed against (dropped weapons are never front-mounted, p.78)."""

DROP_EDGES: tuple[DropEdge, ...] = ("rear", "left", "right")


def _edge_length_mm(length_mm: float, width_mm: float, edge: DropEdge) -> float:
    return width_mm if edge == "rear" else length_mm


def max_offset_mm(length_mm: float, width_mm: float, edge: DropEdge, near_edge_mm: float) -> float:
    """Largest ``|offset_mm|`` at which the template's near edge still touches the vehicle's ``edge``."""
    return (_edge_length_mm(length_mm, width_mm, edge) + near_edge_mm) / 2.0


def drop_pose(vehicle: Pose, length_mm: float, width_mm: float, edge: DropEdge, offset_mm: float = 0.0) -> Pose:
    """The pose (near-edge centre, pointing away from the vehicle) of a template dropped against ``edge``.

    Raises ``ValueError`` for an unknown edge.
    """
    if edge == "rear":
        x, y = vehicle.offset(-length_mm / 2.0, offset_mm)
        return Pose(x, y, normalise_deg(vehicle.heading_deg + 180.0))
    if edge in ("left", "right"):
        sign = 1.0 if edge == "left" else -1.0
        x, y = vehicle.offset(offset_mm, sign * width_mm / 2.0)
        return Pose(x, y, normalise_deg(vehicle.heading_deg + sign * 90.0))
    raise ValueError(f"a dropped template goes against the rear, left or right edge, not {edge!r} (p.78)")


def dropped_polygon(template: ShootingTemplate, at: Pose) -> Polygon:
    """The template's outline placed at ``at`` (table frame, mm)."""
    local = np.asarray(template.polygon.exterior.coords, dtype=np.float64)
    poly: Polygon = shapely.polygons(transform_points(at, local))
    return poly


def move_area(movement_polygon: BaseGeometry | None, final: Pose, length_mm: float, width_mm: float
              ) -> BaseGeometry:
    """What counts for a dropped template: the movement template (if any) and the Final Position (p.78).

    The exact union (a Polygon, or a MultiPolygon when the parts only meet at a point or not at all):
    nothing between the parts counts.
    """
    end = footprint(final, length_mm, width_mm)
    if movement_polygon is None:
        return end
    both: BaseGeometry = shapely.union(movement_polygon, end)
    return both


def touched_templates(area: BaseGeometry, templates: Sequence[tuple[str, Polygon]]
                      ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(overlapped ids, touched ids)`` of ``templates`` by ``area``, in the order given.

    Every overlapped template is also touched.
    """
    overlapped = tuple(i for i, poly in templates if overlaps(area, poly))
    touched = tuple(i for i, poly in templates if i in overlapped or touches(area, poly))
    return overlapped, touched


def under(template: Polygon, pieces: Sequence[tuple[str, Polygon]]) -> tuple[str, ...]:
    """Ids of ``pieces`` (footprints) that the placed ``template`` overlaps, in the order given."""
    return tuple(i for i, poly in pieces if overlaps(template, poly))
