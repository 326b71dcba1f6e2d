"""Small immediate-mode widgets: buttons and a slider, laid out afresh every frame.

The app builds the list of :class:`Button` values from its state, draws them,
and on a click asks :func:`button_at` which action to run, so a button's look
and its behaviour never drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from simulator.ui import draw
from simulator.ui.view import Rect


@dataclass(frozen=True)
class Button:
    """A clickable box: ``action`` names what a click does (the app dispatches it)."""

    rect: Rect
    label: str
    action: str
    enabled: bool = True
    active: bool = False
    tip: str = ""


@dataclass(frozen=True)
class Slider:
    """A horizontal slider over [``low``, ``high``] showing ``value``."""

    rect: Rect
    low: float
    high: float
    value: float
    action: str
    enabled: bool = True

    def value_at(self, x_px: float) -> float:
        """The value under the screen x coordinate (clamped)."""
        x, _, w, _ = self.rect
        t = min(max((x_px - x) / max(w, 1), 0.0), 1.0)
        return self.low + t * (self.high - self.low)

    def knob_x(self) -> float:
        """Screen x of the knob."""
        x, _, w, _ = self.rect
        return x + (self.value - self.low) / (self.high - self.low) * w


def button_at(buttons: list[Button], pos: tuple[int, int]) -> Button | None:
    """The enabled button under ``pos``."""
    for b in buttons:
        if b.enabled and pygame.Rect(b.rect).collidepoint(pos):
            return b
    return None


def draw_button(surface: pygame.Surface, b: Button, size: int = 18) -> None:
    """A rounded box with its label; active buttons are lit, disabled ones dim."""
    rect = pygame.Rect(b.rect)
    if not b.enabled:
        bg, fg = (40, 42, 48), (95, 98, 104)
    elif b.active:
        bg, fg = (230, 190, 60), (20, 20, 20)
    else:
        bg, fg = (62, 67, 78), draw.TEXT
    pygame.draw.rect(surface, bg, rect, border_radius=5)
    pygame.draw.rect(surface, draw.PANEL_EDGE, rect, 1, border_radius=5)
    draw.text(surface, b.label, rect.center, size, fg, "center")


def draw_slider(surface: pygame.Surface, s: Slider, label: str) -> None:
    """The track, the zero mark, the knob and ``label`` above it."""
    x, y, w, h = s.rect
    mid = y + h // 2
    colour = draw.TEXT if s.enabled else (95, 98, 104)
    pygame.draw.line(surface, (80, 84, 94), (x, mid), (x + w, mid), 4)
    zero = x + (0.0 - s.low) / (s.high - s.low) * w
    pygame.draw.line(surface, (120, 124, 134), (zero, mid - 7), (zero, mid + 7), 2)
    pygame.draw.circle(surface, (230, 190, 60) if s.enabled else (80, 80, 80), (round(s.knob_x()), mid), 8)
    draw.text(surface, label, (x, y - 16), 17, colour)
