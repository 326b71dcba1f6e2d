"""The Gear Phase at a glance: who has Pole Position, the order players activate in, and Audience Votes.

A strip of team chips in the table's bottom left corner, in the engine's activation order
(:func:`simulator.gaslands.round.activation_order`: Pole Position first, then clockwise, p.19-20): the
first chip carries POLE, the player offered the next activation is outlined, and with the Audience Votes
module on (p.88-90) each chip says the team's votes (``GameState.votes_of``). Nothing here decides who
goes first; it draws what the engine's state says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from simulator.ui import draw

STRIP_PX = 30
"""The strip's height."""


@dataclass(frozen=True)
class Chip:
    """One player in the strip: name, colour, whether in Pole Position or to act now, votes (None: module off)."""

    name: str
    colour: tuple[int, int, int]
    pole: bool = False
    now: bool = False
    votes: int | None = None

    def words(self) -> str:
        """The chip's text: ``"POLE  Red Team  2 votes"``."""
        votes = "" if self.votes is None else f"  {self.votes} vote{'' if self.votes == 1 else 's'}"
        return ("POLE  " if self.pole else "") + self.name + votes


def strip_rects(table_rect: pygame.Rect, chips: Sequence[Chip], size: int = 16) -> list[pygame.Rect]:
    """Where each chip goes: left to right from the table's bottom left corner."""
    x = table_rect.left + 8
    y = table_rect.bottom - 8 - STRIP_PX + 4
    out = []
    for c in chips:
        w = draw.font(size).size(c.words())[0] + 18
        out.append(pygame.Rect(x, y, w, STRIP_PX - 4))
        x += w + 16
    return out


def fitted(table_rect: pygame.Rect, chips: Sequence[Chip], right_px: int) -> tuple[int, list[pygame.Rect]]:
    """The largest text size (16, 14 or 12 pt) whose chips end left of ``right_px`` (12 if none does), and
    the chips' rects at it."""
    for size in (16, 14, 12):
        rects = strip_rects(table_rect, chips, size)
        if rects and rects[-1].right <= right_px:
            break
    return size, rects


def draw_strip(surface: pygame.Surface, table_rect: pygame.Rect, title: str, chips: Sequence[Chip],
               right_px: int | None = None) -> None:
    """The title (``"Gear Phase 2:"``) and the chips, with arrows between them for the order; the text gets
    smaller (down to 12 pt) until the chips end left of ``right_px`` (default: the table's right edge)."""
    if not chips:
        return
    size, rects = fitted(table_rect, chips, table_rect.right - 8 if right_px is None else right_px)
    head = draw.font(14).size(title)[0]
    back = pygame.Rect(rects[0].left - 6, rects[0].top - 20, max(rects[-1].right - rects[0].left + 12, head + 12),
                       rects[0].height + 26)
    shade = pygame.Surface(back.size, pygame.SRCALPHA)
    shade.fill((12, 13, 16, 200))
    surface.blit(shade, back.topleft)
    draw.text(surface, title, (back.left + 6, back.top + 3), 14, draw.TEXT_DIM)
    for i, (c, r) in enumerate(zip(chips, rects, strict=True)):
        pygame.draw.rect(surface, draw.shade(c.colour, 0.55), r, border_radius=5)
        pygame.draw.rect(surface, draw.SELECT if c.now else draw.shade(c.colour, 1.2), r, 3 if c.now else 1,
                         border_radius=5)
        draw.text(surface, c.words(), r.center, size, draw.TEXT, "center")
        if i + 1 < len(rects):
            a, b = (r.right + 3, r.centery), (rects[i + 1].left - 3, r.centery)
            pygame.draw.line(surface, draw.TEXT_DIM, a, b, 2)
            pygame.draw.polygon(surface, draw.TEXT_DIM, [b, (b[0] - 5, b[1] - 4), (b[0] - 5, b[1] + 4)])
