"""Where a path crosses a line: the centre of a vehicle crossing a finish line in its direction (p.62).

>>> from simulator.geometry.path import Path, Segment
>>> from simulator.geometry.pose import Pose
>>> path = Path((Segment("drive", Pose(0.0, 0.0, 0.0), 100.0),))
>>> centre_crossing(path, (50.0, -20.0), (50.0, 20.0), (1.0, 0.0))
(50.0, 0.0)
>>> centre_crossing(path, (50.0, -20.0), (50.0, 20.0), (-1.0, 0.0)) is None
True
"""

from __future__ import annotations

import numpy as np

from simulator.geometry.path import Path

STEP_MM = 1.0
"""The path's centre is followed in steps of this length."""


def centre_crossing(path: Path, a: tuple[float, float], b: tuple[float, float],
                    direction: tuple[float, float]) -> tuple[float, float] | None:
    """The first point (mm, table frame) where the centre of ``path`` crosses the segment ``a``-``b`` while
    moving along ``direction`` (a unit vector across the line), or None if it never does.

    Crossing means going from the side behind the line (against ``direction``)
    to the side in front, between the two ends. A path that only touches the
    line, or crosses it the other way, does not cross.
    """
    if path.total <= 0.0:
        return None
    points = path.points(STEP_MM)
    side = (points[:, 0] - a[0]) * direction[0] + (points[:, 1] - a[1]) * direction[1]
    for i in np.flatnonzero((side[:-1] < 0.0) & (side[1:] >= 0.0)).tolist():
        t = side[i] / (side[i] - side[i + 1])
        cx, cy = points[i] + t * (points[i + 1] - points[i])
        if _within(float(cx), float(cy), a, b):
            return (float(cx), float(cy))
    return None


def _within(x: float, y: float, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether the point on the line a-b lies between the ends (inclusive, 0.01 mm tolerance)."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    length2 = ex * ex + ey * ey
    if length2 == 0.0:
        return False
    t = ((x - a[0]) * ex + (y - a[1]) * ey) / length2
    tol = 0.01 / length2 ** 0.5
    return bool(-tol <= t <= 1.0 + tol)
