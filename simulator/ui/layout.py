"""Where the window's parts go for one window size: the top bar, the table, the tray, the side panel, the
status line. Every mode draws into the same rectangles."""

from __future__ import annotations

from dataclasses import dataclass, field

from simulator.ui.view import Rect

TOP_BAR_PX = 34
STATUS_PX = 26
TRAY_PX = 124
PANEL_PX = 370
"""The side panel of the free table and rulings windows."""
GAME_PANEL_PX = 440
"""The wider side panel of a game or a replay (prompt, dice and log)."""
MIN_SIZE = (900, 600)
PANEL_MIN_PX = 280
PANEL_MAX_SHARE = 0.42
"""On a narrow window the side panel gives way, down to :data:`PANEL_MIN_PX`, so the table stays the larger part."""
TOP_INFO = (372, 10)
"""Where a mode writes its line in the top bar, right of the mode's name."""


@dataclass
class Layout:
    """Screen rectangles of the window's parts for one window size."""

    size: tuple[int, int]
    wanted_px: int = PANEL_PX
    """The side panel's width on a wide enough window."""
    panel_px: int = field(init=False)
    top: Rect = field(init=False)
    table: Rect = field(init=False)
    tray: Rect = field(init=False)
    panel: Rect = field(init=False)
    status: Rect = field(init=False)

    def __post_init__(self) -> None:
        w, h = self.size
        self.panel_px = min(self.wanted_px, max(PANEL_MIN_PX, int(w * PANEL_MAX_SHARE)))
        table_w = w - self.panel_px
        table_h = h - TOP_BAR_PX - STATUS_PX - TRAY_PX
        self.top = (0, 0, w, TOP_BAR_PX)
        self.table = (0, TOP_BAR_PX, table_w, table_h)
        self.tray = (0, TOP_BAR_PX + table_h, table_w, TRAY_PX)
        self.panel = (table_w, TOP_BAR_PX, self.panel_px, h - TOP_BAR_PX - STATUS_PX)
        self.status = (0, h - STATUS_PX, w, STATUS_PX)

    def between_bars(self) -> Rect:
        """The window between the top bar and the status line (both are drawn over a mode's drawing)."""
        top = self.top[1] + self.top[3]
        return (0, top, self.size[0], self.status[1] - top)

    def resized(self, size: tuple[int, int]) -> Layout:
        """The layout for another window size (never smaller than :data:`MIN_SIZE`)."""
        return Layout((max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1])), self.wanted_px)
