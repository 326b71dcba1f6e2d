"""A camera that follows the active vehicle, so that moves (a bot's too) are seen when zoomed in.

:class:`FollowCamera` pans the canvas (never zooms it) so that its subject
stays inside the middle of the table's rectangle: a car driving on screen
while it drives (the animation's pose), else the vehicle the engine's prompt
is about. It glides there (an exponential ease) and does nothing while the
whole table is in view. A person who pans takes the camera over (zooming
does not): it waits until the subject changes (the next car), then follows
again. The
window's setting ``follow_camera`` (C, or File > settings) turns it on and off.
"""

from __future__ import annotations

import math

from simulator.ui.canvas import Canvas
from simulator.ui.user_files import Settings
from simulator.ui.view import View

KEEP_IN = 0.25
"""The subject is kept this fraction of the table's width and height away from every edge of its rectangle."""
EASE_PER_S = 7.0
"""How fast the camera closes on where it should be (the fraction left after t seconds is exp(-rate t))."""
SETTLED_PX = 2.0
"""Closer than this to where it should be, the camera is settled."""


class FollowCamera:
    """Pans ``canvas`` after a subject (see the module docstring)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.subject = ""
        """The vehicle followed now ("" for none)."""
        self.released_for = ""
        """The subject a person took the camera away from (by panning): not followed until it changes."""
        self._left: View | None = None
        """The view as the camera last left it (another view means a person moved it)."""
        self.travel_px = 0.0
        """How far the camera still has to go (0 when settled)."""

    def whole_table_visible(self) -> bool:
        """Whether the view shows the whole table (nothing to follow)."""
        x0, y0, x1, y1 = self.canvas.view.visible_bounds_mm()
        t0, u0, t1, u1 = self.canvas.table_box_mm
        return x0 <= t0 + 0.5 and y0 <= u0 + 0.5 and x1 >= t1 - 0.5 and y1 >= u1 - 0.5

    def goal_shift_px(self, point_mm: tuple[float, float]) -> tuple[float, float]:
        """The pan (screen px) that brings ``point_mm`` inside the middle of the rectangle (0, 0 if it is)."""
        view = self.canvas.view
        x, y, w, h = view.rect
        px, py = view.to_screen(*point_mm)
        lo_x, hi_x = x + w * KEEP_IN, x + w * (1.0 - KEEP_IN)
        lo_y, hi_y = y + h * KEEP_IN, y + h * (1.0 - KEEP_IN)
        dx = lo_x - px if px < lo_x else hi_x - px if px > hi_x else 0.0
        dy = lo_y - py if py < lo_y else hi_y - py if py > hi_y else 0.0
        return dx, dy

    def update(self, dt: float, subject: str, point_mm: tuple[float, float] | None, enabled: bool) -> None:
        """Follow ``subject`` at ``point_mm`` (table mm) for ``dt`` seconds, if ``enabled`` and not taken over."""
        view = self.canvas.view
        if self._left is not None and view != self._left and view.scale_px_per_mm == self._left.scale_px_per_mm:
            self.released_for = self.subject  # a person panned: theirs until the next subject
        if subject != self.subject:
            self.subject, self.released_for = subject, ""
        self.travel_px = 0.0
        if not enabled or not subject or point_mm is None or self.released_for == subject \
                or self.whole_table_visible():
            self._left = self.canvas.view
            return
        dx, dy = self.goal_shift_px(point_mm)
        self.travel_px = math.hypot(dx, dy)
        if self.travel_px > SETTLED_PX:
            k = 1.0 - math.exp(-EASE_PER_S * max(dt, 0.0))
            self.canvas.view = self.canvas.view.panned(dx * k, dy * k)
        else:
            self.travel_px = 0.0
        self._left = self.canvas.view

    @property
    def travelling(self) -> bool:
        """Whether the camera is still on its way to its subject."""
        return self.travel_px > SETTLED_PX


def toggle_follow(settings: Settings, who: str) -> str:
    """C: the camera follows ``who`` ("the active car", "the car that acts") when zoomed in, or stays where it is
    put; the setting is kept. Returns the status line's words."""
    settings.follow_camera = not settings.follow_camera
    settings.save()
    return (f"The camera follows {who} when zoomed in (C stops it)." if settings.follow_camera else
            f"The camera stays where you put it (C follows {who} again).")
