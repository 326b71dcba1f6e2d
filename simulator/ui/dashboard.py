"""Vehicle dashboards in the side panel: type, gear, hazard tokens, hull (p.12-13)."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from simulator.ui import draw
from simulator.ui.view import Rect

CARD_HEIGHT = 80
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


def draw_card(surface: pygame.Surface, d: Dashboard, rect: Rect, selected: bool) -> None:
    """One dashboard card: colour strip, name and type, gear pips, hazard tokens, hull boxes."""
    r = pygame.Rect(rect)
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
    elif selected:
        draw.text(surface, "gear", (r.right - 70, y), 16, draw.TEXT_DIM, "topright")
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
