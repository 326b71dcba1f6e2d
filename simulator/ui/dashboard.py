"""Vehicle dashboards in the side panel: type, gear, hazard tokens, hull (p.12-13)."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from simulator.ui import draw
from simulator.ui.view import Rect

CARD_HEIGHT = 80
COMPACT_PX = 42
"""The smallest card: name and gear on one row, Hull and Hazard Tokens on the next (never fewer rows)."""
CARD_GAP = 5
MAX_HAZARDS = 6
"""A vehicle wipes out on its sixth Hazard Token (p.38)."""


@dataclass(frozen=True)
class Dashboard:
    """What one card shows. ``hull`` is the hull points left of ``hull_max``."""

    vehicle_id: str
    name: str
    team: str
    colour: tuple[int, int, int]
    type_name: str
    gear: int
    max_gear: int
    hazards: int
    hull: int
    hull_max: int
    weapons: str = ""
    note: str = ""
    """Game news for the card: WRECKED, ON FIRE, gates passed, ACTIVE, to activate."""


def card_rects(area: Rect, ids: list[str], tallest: int = CARD_HEIGHT) -> list[tuple[str, Rect]]:
    """One card per vehicle in ``area`` (x, y, width, height available): as tall as fits up to ``tallest``, never
    below :data:`COMPACT_PX`; two columns when one column of compact cards does not fit."""
    x, y, w, h = area
    n = max(len(ids), 1)
    each = (h + CARD_GAP) // n - CARD_GAP
    if each >= COMPACT_PX or n == 1:
        card = min(tallest, each) if each >= 64 else COMPACT_PX  # a full card, or a compact one: no odd sizes
        return [(vid, (x, y + i * (card + CARD_GAP), w, card)) for i, vid in enumerate(ids)]
    card = COMPACT_PX
    half = (w - CARD_GAP) // 2
    return [(vid, (x + (i % 2) * (half + CARD_GAP), y + (i // 2) * (card + CARD_GAP), half, card))
            for i, vid in enumerate(ids)]


def draw_card(surface: pygame.Surface, d: Dashboard, rect: Rect, selected: bool) -> None:
    """One dashboard card: colour strip, name and type, gear pips, hazard tokens, hull boxes; a card lower than
    64 px (or narrower than 300) is drawn compact, keeping Gear, Hull and Hazard."""
    r = pygame.Rect(rect)
    if r.height < 64 or r.width < 300:
        _draw_compact(surface, d, r, selected)
        return
    pygame.draw.rect(surface, (50, 54, 62) if selected else (40, 43, 50), r, border_radius=6)
    pygame.draw.rect(surface, draw.SELECT if selected else draw.PANEL_EDGE, r, 3 if selected else 1,
                     border_radius=6)
    pygame.draw.rect(surface, d.colour, (r.left + 4, r.top + 4, 8, r.height - 8), border_radius=3)
    draw.text(surface, d.name, (r.left + 18, r.top + 6), 21, draw.SELECT if selected else draw.TEXT)
    team = f"{d.type_name} - {d.team}" if d.team else d.type_name
    draw.text(surface, team, (r.right - 8, r.top + 8), 16, draw.TEXT_DIM, "topright")
    y = r.top + 28
    draw.text(surface, "Gear", (r.left + 18, y), 16, draw.TEXT_DIM)
    for g in range(1, d.max_gear + 1):
        box = pygame.Rect(r.left + 54 + (g - 1) * 19, y - 2, 16, 16)
        on = g == d.gear
        pygame.draw.rect(surface, draw.SELECT if on else (70, 74, 84), box, border_radius=3)
        draw.text(surface, str(g), box.center, 15, (20, 20, 20) if on else draw.TEXT_DIM, "center")
    if d.note:
        alarm = any(w in d.note for w in ("WRECKED", "DESTROYED", "OFF THE TABLE", "ON FIRE"))
        colour = (230, 90, 70) if alarm else draw.SELECT if "ACTIVE" in d.note else (120, 160, 210)
        draw.text(surface, d.note, (r.right - 10, y), 15, (15, 15, 15), "topright", backing=colour)
    y += 20
    if y + 14 > r.bottom:
        return
    draw.text(surface, "Hull", (r.left + 18, y), 16, draw.TEXT_DIM)
    box_w = max(3, min(9, 120 // max(d.hull_max, 1) - 2))
    for i in range(d.hull_max):
        colour = (90, 190, 120) if i < d.hull else (110, 50, 50)
        pygame.draw.rect(surface, colour, (r.left + 54 + i * (box_w + 2), y, box_w, 12), border_radius=2)
    draw.text(surface, f"{d.hull}/{d.hull_max}", (r.left + 60 + d.hull_max * (box_w + 2), y - 1), 16,
              draw.TEXT_DIM)
    hx = r.right - 8 - MAX_HAZARDS * 13
    draw.text(surface, "Hazard", (hx - 8, y - 1), 16, draw.TEXT_DIM, "topright")
    for i in range(MAX_HAZARDS):
        colour = (240, 170, 40) if i < d.hazards else (70, 74, 84)
        pygame.draw.circle(surface, colour, (hx + 6 + i * 13, y + 6), 5)
    if d.weapons and y + 32 <= r.bottom:
        draw.text(surface, d.weapons, (r.left + 18, y + 17), 15, draw.TEXT_DIM)


def _draw_compact(surface: pygame.Surface, d: Dashboard, r: pygame.Rect, selected: bool) -> None:
    """Name, gear and note on the first row; Hull boxes and Hazard Tokens on the second."""
    pygame.draw.rect(surface, (50, 54, 62) if selected else (40, 43, 50), r, border_radius=5)
    pygame.draw.rect(surface, draw.SELECT if selected else draw.PANEL_EDGE, r, 3 if selected else 1,
                     border_radius=5)
    pygame.draw.rect(surface, d.colour, (r.left + 3, r.top + 3, 6, r.height - 6), border_radius=3)
    top = r.top + max(3, (r.height - 38) // 2)
    gear = f"G{d.gear}/{d.max_gear}"
    gear_rect = draw.text(surface, gear, (r.right - 8, top + 1), 16, (15, 15, 15), "topright", backing=draw.SELECT)
    right = gear_rect.left - 10
    if d.note:
        alarm = any(w in d.note for w in ("WRECKED", "DESTROYED", "OFF THE TABLE", "ON FIRE"))
        colour = (230, 90, 70) if alarm else draw.SELECT if "ACTIVE" in d.note else (120, 160, 210)
        note = d.note if draw.font(14).size(d.note)[0] < r.width * 0.45 else d.note.split(",")[0]
        right = draw.text(surface, note, (right, top + 2), 14, (15, 15, 15), "topright", backing=colour).left - 8
    surface.set_clip(pygame.Rect(r.left, r.top, max(0, right - r.left), r.height))
    draw.text(surface, d.name, (r.left + 14, top), 18, draw.SELECT if selected else draw.TEXT)
    surface.set_clip(None)
    y = top + 21
    draw.text(surface, "Hull", (r.left + 14, y - 1), 14, draw.TEXT_DIM)
    hazards_w = MAX_HAZARDS * 11
    hx = r.right - 8 - hazards_w
    for i in range(MAX_HAZARDS):
        colour = (240, 170, 40) if i < d.hazards else (70, 74, 84)
        pygame.draw.circle(surface, colour, (hx + 5 + i * 11, y + 5), 4)
    f = draw.font(14)
    count = f"{d.hull}/{d.hull_max}"
    label_end = hx - 8 - f.size("Hz")[0]  # the words and boxes of the Hull row end before the "Hz" label
    room = label_end - (r.left + 48) - f.size(count)[0] - 4
    box_w = min(9, room // max(d.hull_max, 1) - 2)
    x = r.left + 44
    if box_w >= 3:  # boxes while they can be seen; a narrow card says the count alone
        for i in range(d.hull_max):
            colour = (90, 190, 120) if i < d.hull else (110, 50, 50)
            pygame.draw.rect(surface, colour, (x + i * (box_w + 2), y, box_w, 11), border_radius=2)
        x += 4 + d.hull_max * (box_w + 2)
    colour = draw.TEXT_DIM if d.hull > d.hull_max // 3 else (230, 110, 90)
    draw.text(surface, count, (x, y - 1), 14, colour)
    if x + f.size(count)[0] + 4 <= label_end:
        draw.text(surface, "Hz", (hx - 4, y - 1), 14, draw.TEXT_DIM, "topright")
