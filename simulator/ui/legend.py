"""The legend (Ctrl+L): what each colour, ring, badge and mark on the table means, drawn with the table's own colours.

:func:`entries` lists the rows, each a small picture (:class:`Swatch`) and a few words:
the teams in the colours they are drawn in now (the scenario's, or the colour-blind-safe
palette, :mod:`simulator.ui.palette`), the cars' rings and labels, the marks a move leaves
(its path, what stopped it, a collision's ``?``, a Finish Line crossing), the terrain and the
tray's template colours. :func:`draw_legend` paints them on a card in the middle of the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from simulator.scenario.loader import Scenario
from simulator.ui import draw, palette
from simulator.ui.canvas import SLIDE_COLOUR
from simulator.ui.game_scene import ASKED

SWATCH_PX = (40, 20)
ROW_PX = 24
COLUMN_PX = 470


@dataclass(frozen=True)
class Swatch:
    """A small picture of a marker: its ``kind`` (``car``, ``ring``, ``selected``, ``wreck``, ``tokens``,
    ``badge``, ``path``, ``outline``, ``dashed``, ``collision``, ``finish``, ``fill``, ``line``) and colour."""

    kind: str
    colour: tuple[int, int, int] = (255, 255, 255)
    width: int = 2


Row = tuple[Swatch, str]


def entries(scenario: Scenario) -> list[tuple[str, list[Row]]]:
    """The legend's sections: (heading, rows) for ``scenario``'s teams and the table's markers."""
    players = scenario.spec.player
    declared = [p.colour for p in players]
    teams: list[Row] = [(Swatch("car", draw.hex_colour(palette.team_hex(declared, i))), p.name or p.id)
                        for i, p in enumerate(players)]
    teams.append((Swatch("fill", (0, 0, 0)), "colour-blind-safe palette: " + ("on" if palette.colour_blind()
                                                                             else "off") + " (Ctrl+B)"))
    cars: list[Row] = [
        (Swatch("ring", (200, 200, 200), 1), "thin grey ring: may activate in this Gear Phase"),
        (Swatch("ring", draw.SELECT, 3), "thick yellow ring: click one to activate it now"),
        (Swatch("selected", draw.SELECT), "yellow car and name: the car you are looking at"),
        (Swatch("tokens"), "G3 H2 after its name: a car's Gear and Hazard Tokens"),
        (Swatch("badge"), "red badge: what just happened to it (hits, WIPEOUT...)"),
        (Swatch("wreck", (120, 120, 120)), "dark, crossed out: a Wreck (p.43)"),
    ]
    marks: list[Row] = [
        (Swatch("path", (180, 200, 255)), "thin line in team colour: the path it drove"),
        (Swatch("outline", draw.INTERRUPT, 3), "orange outline: what stopped or met the move"),
        (Swatch("dashed", ASKED), "dashed grey car: the turn asked for (not all made)"),
        (Swatch("collision", draw.CONTACT), "pink ?: a collision; hover it for the dice"),
        (Swatch("finish"), "black and white target: a Finish Line crossing"),
        (Swatch("fill", SLIDE_COLOUR), "light blue: where a Slide would take it (p.26)"),
        (Swatch("line", (255, 70, 60), 3), "red dashes: a target picked to shoot at"),
    ]
    terrain: list[Row] = [(Swatch("fill", c), f"{kind} surface") for kind, c in draw.SURFACE_COLOURS.items()]
    terrain += [(Swatch("fill", c), f"{kind} obstacle (white edge: Tall)") for kind, c in draw.OBSTACLE_COLOURS.items()]
    terrain.append((Swatch("line", (250, 220, 90), 2), "yellow dashes and arrow: a gate, the way through"))
    tray: list[Row] = [(Swatch("fill", c), f"tray: {kind} template") for kind, c in draw.PERMISSION_COLOURS.items()]
    return [("Teams", teams), ("Cars", cars), ("Marks a move leaves", marks), ("Terrain", terrain),
            ("Templates", tray)]


def draw_swatch(surface: pygame.Surface, s: Swatch, rect: pygame.Rect) -> None:
    """One swatch in ``rect`` (:data:`SWATCH_PX`)."""
    r = rect
    body = r.inflate(-8, -6)
    match s.kind:
        case "car" | "selected":
            colour = s.colour
            if s.kind == "selected":
                pygame.draw.rect(surface, draw.SELECT, body.inflate(6, 6), 3)
            pygame.draw.rect(surface, colour, body)
            pygame.draw.rect(surface, draw.shade(colour, 0.45), body, 2)
            tip, back = (body.right - 3, body.centery), body.right - 10
            pygame.draw.lines(surface, (255, 255, 255), False,
                              [(back, body.top + 3), tip, (back, body.bottom - 3)], 2)
        case "ring":
            pygame.draw.rect(surface, (150, 150, 156), body.inflate(-6, -6))
            pygame.draw.rect(surface, s.colour, body.inflate(2, 2), s.width, border_radius=4)
        case "wreck":
            pygame.draw.rect(surface, (48, 44, 42), body)
            pygame.draw.rect(surface, draw.shade(s.colour, 0.6), body, 2)
            pygame.draw.line(surface, (20, 18, 16), body.topleft, body.bottomright, 2)
            pygame.draw.line(surface, (20, 18, 16), body.bottomleft, body.topright, 2)
        case "tokens":
            draw.text(surface, "G3 H2", r.center, 14, (255, 255, 255), "center", backing=(10, 10, 10, 170))
        case "badge":
            draw.text(surface, "HIT", r.center, 14, (255, 235, 120), "center", backing=(120, 20, 20))
        case "path":
            pygame.draw.lines(surface, s.colour, False, [(r.left + 2, r.bottom - 4), (r.centerx, r.top + 6),
                                                         (r.right - 2, r.top + 3)], 2)
        case "outline":
            pygame.draw.rect(surface, (150, 150, 156), body.inflate(-4, -4))
            pygame.draw.rect(surface, s.colour, body, s.width)
        case "dashed":
            pts = [body.topleft, body.topright, body.bottomright, body.bottomleft, body.topleft]
            draw.dashed_polyline(surface, s.colour, pts, 1)
        case "collision":
            pygame.draw.circle(surface, s.colour, r.center, 9)
            pygame.draw.circle(surface, (255, 255, 255), r.center, 9, 2)
            draw.text(surface, "?", r.center, 16, (255, 255, 255), "center")
        case "finish":
            for i, colour in enumerate(((20, 20, 20), (245, 245, 245), (20, 20, 20))):
                pygame.draw.circle(surface, colour, r.center, 10 - 4 * i)
        case "line":
            draw.dashed_polyline(surface, s.colour, [(r.left + 2, r.centery), (r.right - 2, r.centery)], s.width)
        case _:  # fill
            if s.colour != (0, 0, 0):
                pygame.draw.rect(surface, s.colour, body)
                pygame.draw.rect(surface, draw.shade(s.colour, 1.3), body, 1)


def draw_legend(surface: pygame.Surface, scenario: Scenario,
                sections: Sequence[tuple[str, Sequence[Row]]] | None = None) -> dict[str, pygame.Rect]:
    """A card in the middle of the window with the legend in two columns; returns each row's swatch rect by its
    words (for the tests)."""
    sections = sections if sections is not None else entries(scenario)
    w, h = surface.get_size()
    lines = [len(rows) + 1 for _, rows in sections]
    split = min(range(1, len(sections) + 1), key=lambda k: max(sum(lines[:k]), sum(lines[k:])))
    tall = max(sum(lines[:split]), sum(lines[split:]))
    card = pygame.Rect(0, 0, min(2 * COLUMN_PX + 40, w - 20), min(64 + ROW_PX * tall + 16, h - 20))
    card.center = (w // 2, h // 2)
    shade = pygame.Surface(card.size, pygame.SRCALPHA)
    shade.fill((12, 13, 16, 248))
    surface.blit(shade, card.topleft)
    pygame.draw.rect(surface, draw.SELECT, card, 2, border_radius=8)
    draw.text(surface, "Legend: what the table shows", (card.left + 20, card.top + 14), 30, draw.SELECT)
    draw.text(surface, "Ctrl+L or Esc closes this", (card.right - 20, card.top + 18), 18, draw.TEXT_DIM, "topright")
    row = max(16, min(ROW_PX, (card.height - 70) // max(tall, 1)))
    out: dict[str, pygame.Rect] = {}
    surface.set_clip(card)
    for column, part in enumerate((sections[:split], sections[split:])):
        x, y = card.left + 20 + column * (card.width - 40) // 2, card.top + 54
        for heading, rows in part:
            draw.text(surface, heading, (x, y + 2), 20, draw.TEXT_DIM)
            y += row
            for swatch, words in rows:
                rect = pygame.Rect((x, y + (row - SWATCH_PX[1]) // 2), SWATCH_PX)
                draw_swatch(surface, swatch, rect)
                draw.text(surface, words, (x + SWATCH_PX[0] + 10, y + row // 2), 17, draw.TEXT, "midleft")
                out[words] = rect
                y += row
    surface.set_clip(None)
    return out
