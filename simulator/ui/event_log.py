"""The game log panel: who did what, which dice, which rule and page; newest at the bottom, scrollable.

The engine writes the log (:attr:`simulator.gaslands.game.Game.log`); this
module only lays it out: each event's text (the engine's words, with names),
its rule and page, and its dice drawn small (:mod:`simulator.ui.game_panel`).
Events of the last decision are lit. The mouse wheel over the panel scrolls
back through the game; :func:`draw_log` says where each event was drawn, so
hovering one can explain it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from simulator.gaslands.events import GameEvent as Event
from simulator.ui import draw
from simulator.ui.game_panel import SMALL_DIE_PX, Die, dice_groups, draw_die, wrap
from simulator.ui.view import Rect
from simulator.vocab import plural

TEXT_PX = 15
LINE_PX = 14


@dataclass
class EventLog:
    """Scroll position of the log (``scroll``: events hidden below the bottom; 0 follows the game)."""

    scroll: int = 0

    def wheel(self, steps: int, total: int) -> None:
        """Scroll back (``steps`` > 0) or forward through ``total`` events."""
        self.scroll = min(max(self.scroll + steps, 0), max(total - 1, 0))


def _event_height(event: Event, text: str, width: int) -> int:
    lines = len(wrap(text, TEXT_PX, width))
    dice = SMALL_DIE_PX + 3 if event.dice else 0
    return lines * LINE_PX + dice + 5


def draw_log(surface: pygame.Surface, rect: Rect, events: Sequence[Event], log: EventLog,
             fresh_from: int | None = None, title: str = "Game log") -> list[tuple[pygame.Rect, int]]:
    """The log in ``rect``: a title, then events from the newest (bottom) upwards; returns each drawn event's
    screen rect with its index in ``events``."""
    r = pygame.Rect(rect)
    pygame.draw.rect(surface, (26, 28, 33), r, border_radius=4)
    pygame.draw.rect(surface, draw.PANEL_EDGE, r, 1, border_radius=4)
    more = f"  (scrolled back {log.scroll}; wheel down to follow)" if log.scroll else "  (wheel scrolls)"
    draw.text(surface, f"{title}: {plural(len(events), 'event')}" + more, (r.left + 8, r.top + 4), 15, draw.TEXT_DIM)
    drawn: list[tuple[pygame.Rect, int]] = []
    surface.set_clip(r.inflate(-2, -2))
    width = r.width - 16
    y = r.bottom - 4
    last = len(events) - 1 - log.scroll
    for i in range(last, -1, -1):
        e = events[i]
        text = e.text
        text_w = width - max(70, draw.font(13).size(e.rule)[0] + 12) if e.rule else width
        h = _event_height(e, text, text_w)
        if y - h < r.top + 20:
            break
        y -= h
        lit = fresh_from is not None and i >= fresh_from
        colour = draw.TEXT if lit else draw.TEXT_DIM
        ty = y
        for line in wrap(text, TEXT_PX, text_w):
            draw.text(surface, line, (r.left + 8, ty), TEXT_PX, colour)
            ty += LINE_PX
        if e.rule:
            draw.text(surface, e.rule, (r.right - 8, y), 13, (200, 180, 110) if lit else (130, 120, 90), "topright")
        if e.dice:
            x = r.left + 12
            for label, group in dice_groups(e):
                if label:
                    img = draw.text(surface, label, (x, ty + 3), 13, draw.TEXT_DIM)
                    x = img.right + 4
                for face, tone in group:
                    if x + SMALL_DIE_PX > r.right - 6:
                        break
                    draw_die(surface, Die((x, ty + 1, SMALL_DIE_PX, SMALL_DIE_PX), face, tone=tone))
                    x += SMALL_DIE_PX + 3
                x += 8
        if lit:
            pygame.draw.line(surface, draw.SELECT, (r.left + 3, y), (r.left + 3, y + h - 4), 2)
        drawn.append((pygame.Rect(r.left, y, r.width, h), i))
    surface.set_clip(None)
    return drawn
