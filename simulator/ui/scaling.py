"""Fitting the window to the screen: its first size, and the UI scale for high-DPI (or small) screens.

The window is laid out in *points*: the app sees a window of
``screen size / scale`` points and draws into a surface of that size, which
is scaled onto the screen (:class:`ScaledScreen`); mouse positions come back
divided by the scale. At scale 1 nothing is copied. The scale asked for in the
settings is kept within what leaves the app at least :data:`MIN_POINTS`, so a
window smaller than 1280x720 pixels (a 1366x768 laptop at 90 %) shows the
whole 1280x720 layout slightly reduced, and a large high-DPI screen shows it
enlarged.
"""

from __future__ import annotations

import pygame

MIN_POINTS = (1280, 720)
"""The smallest layout the window is designed for, in points."""
SCREEN_SHARE = 0.9
"""The window opens at most this share of the display."""
DEFAULT_SIZE = (1400, 900)


def first_size(desktop: tuple[int, int] | None, wanted: tuple[int, int] = DEFAULT_SIZE) -> tuple[int, int]:
    """The window's size when it opens: ``wanted`` within 90 % of the display ``desktop`` (if known)."""
    if desktop is None or desktop[0] <= 0 or desktop[1] <= 0:
        return wanted
    return (min(wanted[0], int(desktop[0] * SCREEN_SHARE)), min(wanted[1], int(desktop[1] * SCREEN_SHARE)))


def effective_scale(window_px: tuple[int, int], wanted: float) -> float:
    """The scale used for a window of ``window_px``: ``wanted`` lowered until the window holds at least
    :data:`MIN_POINTS` points (below 1 when the window is smaller than that)."""
    room = min(window_px[0] / MIN_POINTS[0], window_px[1] / MIN_POINTS[1])
    return max(min(wanted, room), 0.25)


def points(window_px: tuple[int, int], scale: float) -> tuple[int, int]:
    """The window's size in points at ``scale``."""
    return (max(1, round(window_px[0] / scale)), max(1, round(window_px[1] / scale)))


def to_points(event: pygame.event.Event, scale: float) -> pygame.event.Event:
    """``event`` with its screen position (and motion) in points."""
    if abs(scale - 1.0) < 1e-9 or "pos" not in event.dict:
        return event
    d = dict(event.dict)
    d["pos"] = (int(event.pos[0] / scale), int(event.pos[1] / scale))
    if "rel" in d:
        d["rel"] = (int(event.rel[0] / scale), int(event.rel[1] / scale))
    return pygame.event.Event(event.type, d)


class ScaledScreen:
    """The display surface and the surface in points the app draws into."""

    def __init__(self, screen: pygame.Surface, wanted: float) -> None:
        self.screen = screen
        self.wanted = wanted
        self.scale = effective_scale(screen.get_size(), wanted)
        self._canvas: pygame.Surface | None = None

    @property
    def size_points(self) -> tuple[int, int]:
        """The window's size in points."""
        return points(self.screen.get_size(), self.scale)

    def rescale(self, wanted: float, screen: pygame.Surface | None = None) -> bool:
        """Take a new wanted scale or display surface; True if the size in points changed."""
        before = self.size_points
        self.screen = screen or pygame.display.get_surface() or self.screen
        self.wanted = wanted
        self.scale = effective_scale(self.screen.get_size(), wanted)
        return self.size_points != before

    def surface(self) -> pygame.Surface:
        """Where the app draws this frame (the display itself at scale 1)."""
        if abs(self.scale - 1.0) < 1e-9:
            return self.screen
        size = self.size_points
        if self._canvas is None or self._canvas.get_size() != size:
            self._canvas = pygame.Surface(size)
        return self._canvas

    def present(self) -> None:
        """Copy the frame onto the display (smoothly scaled) and show it."""
        if self._canvas is not None and abs(self.scale - 1.0) >= 1e-9:
            pygame.transform.smoothscale(self._canvas, self.screen.get_size(), self.screen)
        pygame.display.flip()
