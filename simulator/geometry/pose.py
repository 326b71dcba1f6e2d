"""Poses, rigid motions and vehicle footprints in the table frame.

Conventions (DESIGN.md): millimetres and degrees; origin at the table's
lower-left corner, +x right, +y away from the bottom edge; a heading is the
direction a vehicle faces, degrees counter-clockwise from +x, in [0, 360).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, Polygon

TOUCH_MM = 0.01
"""Two shapes touch when they are at most this far apart (DESIGN.md, Tolerance)."""

CONTACT_MM = 0.001
"""A moving vehicle stops with this precision at exact contact (GEOMETRY.md 4)."""


def normalise_deg(angle_deg: float) -> float:
    """Return ``angle_deg`` folded into [0, 360)."""
    folded = math.fmod(angle_deg, 360.0)
    if folded < 0.0:
        folded += 360.0
    return 0.0 if folded >= 360.0 - 1e-12 else folded


def angle_diff_deg(a_deg: float, b_deg: float) -> float:
    """Return the signed difference ``a - b`` folded into (-180, 180]."""
    d = normalise_deg(a_deg - b_deg)
    return d - 360.0 if d > 180.0 else d


class Pose(NamedTuple):
    """Where a piece stands: centre ``(x_mm, y_mm)`` and ``heading_deg``."""

    x_mm: float
    y_mm: float
    heading_deg: float

    @property
    def direction(self) -> tuple[float, float]:
        """Unit vector of the heading, ``(dx, dy)``."""
        rad = math.radians(self.heading_deg)
        return (math.cos(rad), math.sin(rad))

    @property
    def left(self) -> tuple[float, float]:
        """Unit vector to the vehicle's left (counter-clockwise side)."""
        dx, dy = self.direction
        return (-dy, dx)

    def ahead(self, distance_mm: float) -> Pose:
        """This pose moved ``distance_mm`` along its heading (negative: backwards)."""
        dx, dy = self.direction
        return Pose(self.x_mm + dx * distance_mm, self.y_mm + dy * distance_mm, self.heading_deg)

    def offset(self, forward_mm: float, left_mm: float) -> tuple[float, float]:
        """The table point ``forward_mm`` ahead and ``left_mm`` to the left of the centre."""
        dx, dy = self.direction
        return (self.x_mm + dx * forward_mm - dy * left_mm, self.y_mm + dy * forward_mm + dx * left_mm)

    def turned(self, delta_deg: float) -> Pose:
        """This pose rotated about its own centre by ``delta_deg`` (counter-clockwise)."""
        return Pose(self.x_mm, self.y_mm, normalise_deg(self.heading_deg + delta_deg))

    def normalised(self) -> Pose:
        """The same pose with the heading in [0, 360)."""
        return Pose(self.x_mm, self.y_mm, normalise_deg(self.heading_deg))


def compose(frame: Pose, local: Pose) -> Pose:
    """Express ``local`` (a pose in ``frame``'s coordinates) in the table frame."""
    x, y = frame.offset(local.x_mm, local.y_mm)
    return Pose(x, y, frame.heading_deg + local.heading_deg)


def transform_points(frame: Pose, points: NDArray[np.float64]) -> NDArray[np.float64]:
    """Map an ``(n, 2)`` array of local points (x forward, y left) into the table frame."""
    rad = math.radians(frame.heading_deg)
    c, s = math.cos(rad), math.sin(rad)
    out = np.empty_like(points, dtype=np.float64)
    out[:, 0] = points[:, 0] * c - points[:, 1] * s + frame.x_mm
    out[:, 1] = points[:, 0] * s + points[:, 1] * c + frame.y_mm
    return out


def footprint_corners(pose: Pose, length_mm: float, width_mm: float) -> NDArray[np.float64]:
    """The footprint's corners, shape (4, 2): front-left, rear-left, rear-right, front-right."""
    rad = math.radians(pose.heading_deg)
    c, s = math.cos(rad), math.sin(rad)
    fx, fy = c * length_mm / 2.0, s * length_mm / 2.0
    lx, ly = -s * width_mm / 2.0, c * width_mm / 2.0
    x, y = pose.x_mm, pose.y_mm
    return np.array([[x + fx + lx, y + fy + ly], [x - fx + lx, y - fy + ly],
                     [x - fx - lx, y - fy - ly], [x + fx - lx, y + fy - ly]])


@lru_cache(maxsize=4096)
def footprint(pose: Pose, length_mm: float, width_mm: float) -> Polygon:
    """The vehicle's footprint: a ``length_mm`` x ``width_mm`` rectangle centred on ``pose``.

    Kept for the last few thousand poses (a geometry never changes; the same vehicles' footprints are asked
    for again and again while a move is chosen and resolved). Raises ``ValueError`` if a dimension is not
    positive.
    """
    if length_mm <= 0.0 or width_mm <= 0.0:
        raise ValueError(f"footprint needs positive dimensions, got {length_mm} x {width_mm} mm")
    poly: Polygon = shapely.polygons(footprint_corners(pose, length_mm, width_mm))
    return poly


EDGE_NAMES = ("front", "rear", "left", "right")


def footprint_edges(pose: Pose, length_mm: float, width_mm: float) -> dict[str, LineString]:
    """The four edges of a footprint as segments, keyed ``front``, ``rear``, ``left``, ``right``.

    The front edge runs from the front-left to the front-right corner.
    """
    fl, rl, rr, fr = (tuple(p) for p in footprint_corners(pose, length_mm, width_mm))
    return {
        "front": LineString([fl, fr]),
        "rear": LineString([rl, rr]),
        "left": LineString([rl, fl]),
        "right": LineString([rr, fr]),
    }


def half_diagonal_mm(length_mm: float, width_mm: float) -> float:
    """Distance from a footprint's centre to its corners."""
    return math.hypot(length_mm / 2.0, width_mm / 2.0)
