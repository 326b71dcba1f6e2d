"""Small immediate-mode widgets: buttons and a slider, laid out afresh every frame.

A mode builds the list of :class:`Button` values from its state, draws them,
and on a click asks :func:`button_at` which action to run, so a button's look
and its behaviour never drift apart. A button's ``action`` is whatever the
code that built it dispatches on: a typed panel action in a game
(:mod:`simulator.ui.panel_actions`), a callable in the top bar.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import pygame

from simulator.ui import draw
from simulator.ui.view import Rect

A = TypeVar("A")

Command = Callable[[], None]
"""What a top-bar or side-panel button of the window runs when clicked."""


@dataclass(frozen=True)
class Button(Generic[A]):
    """A clickable box: ``action`` says what a click does (the code that built it dispatches it)."""

    rect: Rect
    label: str
    action: A
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
    enabled: bool = True

    def value_at(self, x_px: float) -> float:
        """The value under the screen x coordinate (clamped)."""
        x, _, w, _ = self.rect
        t = min(max((x_px - x) / max(w, 1), 0.0), 1.0)
        return self.low + t * (self.high - self.low)

    def knob_x(self) -> float:
        """Screen x of the knob."""
        x, _, w, _ = self.rect
        span = self.high - self.low
        return x + ((self.value - self.low) / span * w if span else 0.0)

    def grabs(self, pos: tuple[int, int]) -> bool:
        """Whether a press at ``pos`` takes hold of the slider (its track, with some slack)."""
        return self.enabled and pygame.Rect(self.rect).inflate(16, 16).collidepoint(pos)


def button_at(buttons: Sequence[Button[A]], pos: tuple[int, int]) -> Button[A] | None:
    """The enabled button under ``pos``."""
    for b in buttons:
        if b.enabled and pygame.Rect(b.rect).collidepoint(pos):
            return b
    return None


MIN_LABEL_PX = 12
"""The smallest a button's label gets to fit its button."""


def draw_button(surface: pygame.Surface, b: Button[A], size: int = 18) -> None:
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
    label = b.label
    while size > MIN_LABEL_PX and draw.font(size).size(label)[0] > rect.width - 8:
        size -= 1  # a long label in a narrow button: smaller, never over the edge...
    while len(label) > 2 and draw.font(size).size(label)[0] > rect.width - 8:
        label = label[:-2] + "\u2026"  # ...and cut short at the smallest size (the tooltip or status has it all)
    draw.text(surface, label, rect.center, size, fg, "center")


def draw_slider(surface: pygame.Surface, s: Slider, label: str, marks: Sequence[float] = (0.0,)) -> None:
    """The track, tick marks at ``marks`` (0 by default), the knob and ``label`` above it."""
    x, y, w, h = s.rect
    mid = y + h // 2
    colour = draw.TEXT if s.enabled else (95, 98, 104)
    pygame.draw.line(surface, (80, 84, 94), (x, mid), (x + w, mid), 4)
    span = s.high - s.low
    for m in marks:
        if span and s.low <= m <= s.high:
            mx = x + (m - s.low) / span * w
            pygame.draw.line(surface, (120, 124, 134), (mx, mid - 7), (mx, mid + 7), 2)
    pygame.draw.circle(surface, (230, 190, 60) if s.enabled else (80, 80, 80), (round(s.knob_x()), mid), 8)
    draw.text(surface, label, (x, y - 16), 17, colour)
