"""The one place that converts table millimetres to screen pixels and back.

Like pymunk's ``pygame_util``, this module owns the flip between the table
frame and the screen frame; every other module under ``simulator/ui`` hands
millimetres to a :class:`View` and gets pixels back (or the reverse)::

      table frame (mm, y up)              screen (px, y down)

      y                                    (0,0) ----------------> x
      ^                                      |   rect.x, rect.y
      |    heading 90                        |      +-----------+
      |      ^                               |      |  origin_px|  (table 0,0
      |      |                               |      |     *     |   is drawn here)
      | -----+----> heading 0                v      +-----------+
      |                                      y
      +-------------------> x
     (0,0) lower-left corner

    screen_x = origin_x + scale * x_mm
    screen_y = origin_y - scale * y_mm        (the flip)

A heading counter-clockwise on the table is drawn counter-clockwise on the
screen too, because both axes' handedness flips with y: the screen direction
of a heading ``h`` is ``(cos h, -sin h)`` in pixels.

A :class:`View` is an immutable value: :meth:`View.zoomed_about` and
:meth:`View.panned` return new views. :meth:`View.fit` builds the view that
shows a box of the table (or a template thumbnail in the tray) inside a
screen rectangle.

>>> v = View(rect=(0, 0, 200, 100), scale_px_per_mm=2.0, origin_px=(10.0, 90.0))
>>> v.to_screen(0.0, 0.0)
(10.0, 90.0)
>>> v.to_screen(5.0, 10.0)
(20.0, 70.0)
>>> v.to_table(20.0, 70.0)
(5.0, 10.0)
>>> z = v.zoomed_about((60.0, 40.0), 2.0)
>>> z.to_table(60.0, 40.0) == v.to_table(60.0, 40.0)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

Rect = tuple[int, int, int, int]
"""A screen rectangle ``(x_px, y_px, width_px, height_px)``."""

MIN_SCALE_PX_PER_MM = 0.05
MAX_SCALE_PX_PER_MM = 40.0


@dataclass(frozen=True)
class View:
    """A mapping from the table frame (mm, y up) to a screen rectangle (px, y down).

    ``rect``: the part of the screen the table is drawn in. ``scale_px_per_mm``:
    pixels per millimetre. ``origin_px``: where the table point (0, 0) lands on
    the screen (it may lie outside ``rect``).
    """

    rect: Rect
    scale_px_per_mm: float
    origin_px: tuple[float, float]

    # ----------------------------------------------------------- construction
    @classmethod
    def fit(cls, bounds_mm: Sequence[float], rect: Rect, margin_px: float = 0.0) -> View:
        """The view showing the box ``(min_x, min_y, max_x, max_y)`` in mm, centred in ``rect``.

        The box keeps its aspect ratio; ``margin_px`` is left free on every side.
        A degenerate box (zero width or height) is treated as 1 mm.
        """
        min_x, min_y, max_x, max_y = (float(b) for b in bounds_mm)
        w_mm, h_mm = max(max_x - min_x, 1.0), max(max_y - min_y, 1.0)
        avail_w = max(rect[2] - 2 * margin_px, 1.0)
        avail_h = max(rect[3] - 2 * margin_px, 1.0)
        scale = min(avail_w / w_mm, avail_h / h_mm)
        cx_px, cy_px = rect[0] + rect[2] / 2.0, rect[1] + rect[3] / 2.0
        cx_mm, cy_mm = (min_x + max_x) / 2.0, (min_y + max_y) / 2.0
        whole = (int(rect[0]), int(rect[1]), int(rect[2]), int(rect[3]))
        return cls(whole, scale, (cx_px - cx_mm * scale, cy_px + cy_mm * scale))

    def with_rect(self, rect: Rect) -> View:
        """The same mapping drawn into another screen rectangle (the origin keeps its place)."""
        return replace(self, rect=rect)

    # ----------------------------------------------------------- points
    def to_screen(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Screen pixel ``(px, py)`` of the table point ``(x_mm, y_mm)`` (y flipped)."""
        ox, oy = self.origin_px
        return (ox + x_mm * self.scale_px_per_mm, oy - y_mm * self.scale_px_per_mm)

    def to_screen_int(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        """:meth:`to_screen` rounded to whole pixels (for ``pygame.draw``)."""
        px, py = self.to_screen(x_mm, y_mm)
        return (round(px), round(py))

    def to_table(self, px: float, py: float) -> tuple[float, float]:
        """Table point ``(x_mm, y_mm)`` under the screen pixel ``(px, py)``."""
        ox, oy = self.origin_px
        return ((px - ox) / self.scale_px_per_mm, (oy - py) / self.scale_px_per_mm)

    def points_to_screen(self, points_mm: NDArray[np.float64] | Iterable[Sequence[float]]) -> list[tuple[float, float]]:
        """Many table points, shape ``(n, 2)``, as a list of screen points."""
        pts = np.asarray(list(points_mm) if not isinstance(points_mm, np.ndarray) else points_mm, dtype=float)
        if pts.size == 0:
            return []
        ox, oy = self.origin_px
        xs = ox + pts[:, 0] * self.scale_px_per_mm
        ys = oy - pts[:, 1] * self.scale_px_per_mm
        return list(zip(xs.tolist(), ys.tolist(), strict=True))

    # ----------------------------------------------------------- lengths and angles
    def mm_to_px(self, length_mm: float) -> float:
        """A length on the table, in pixels."""
        return length_mm * self.scale_px_per_mm

    def px_to_mm(self, length_px: float) -> float:
        """A length on the screen, in millimetres of table."""
        return length_px / self.scale_px_per_mm

    @staticmethod
    def screen_angle_deg(heading_deg: float) -> float:
        """The heading as a screen angle, degrees counter-clockwise as seen on screen.

        Because the flip reverses both the y axis and the sense of rotation, a
        table heading and its screen angle are the same number: pass it to
        ``pygame.transform.rotate`` unchanged. The screen direction vector is
        ``(cos h, -sin h)`` in pixels (see :meth:`screen_direction`).
        """
        return heading_deg

    @staticmethod
    def screen_direction(heading_deg: float) -> tuple[float, float]:
        """Unit vector of a table heading in screen pixels (y down)."""
        rad = math.radians(heading_deg)
        return (math.cos(rad), -math.sin(rad))

    # ----------------------------------------------------------- navigation
    def contains_px(self, pos: Sequence[float]) -> bool:
        """True when the screen point lies inside ``rect``."""
        x, y, w, h = self.rect
        return x <= pos[0] < x + w and y <= pos[1] < y + h

    def zoomed_about(self, pos_px: Sequence[float], factor: float) -> View:
        """Zoom by ``factor`` keeping the table point under ``pos_px`` fixed on the screen.

        The scale is clamped to [0.05, 40] px/mm; the fixed point stays fixed
        even when clamping shortens the zoom.
        """
        new_scale = min(max(self.scale_px_per_mm * factor, MIN_SCALE_PX_PER_MM), MAX_SCALE_PX_PER_MM)
        x_mm, y_mm = self.to_table(pos_px[0], pos_px[1])
        origin = (pos_px[0] - x_mm * new_scale, pos_px[1] + y_mm * new_scale)
        return replace(self, scale_px_per_mm=new_scale, origin_px=origin)

    def panned(self, dx_px: float, dy_px: float) -> View:
        """Move the picture by ``(dx_px, dy_px)`` screen pixels (what a drag of the table does)."""
        return replace(self, origin_px=(self.origin_px[0] + dx_px, self.origin_px[1] + dy_px))

    def visible_bounds_mm(self) -> tuple[float, float, float, float]:
        """The table box ``(min_x, min_y, max_x, max_y)`` visible in ``rect``."""
        x, y, w, h = self.rect
        x0, y1 = self.to_table(x, y)
        x1, y0 = self.to_table(x + w, y + h)
        return (x0, y0, x1, y1)
