"""The tray of the nine movement templates, each marked for the selected vehicle's gear (p.17-18).

Each cell shows a small drawing of the template pointing up the screen (the
right-hand version), its name, its shortcut key and a coloured chip with the
word: Trivial, permitted, Hazardous or not permitted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pygame
from shapely.geometry import Polygon

from simulator.geometry.pose import Pose, transform_points
from simulator.geometry.templates import MovementTemplate, TemplateSet
from simulator.ui import draw
from simulator.ui.view import Rect, View

TRAY_ORDER = ("short_straight", "medium_straight", "long_straight", "gentle", "turn", "hard", "hairpin",
              "veer", "swerve")
"""The order of the cells; cell ``i`` has the shortcut key ``i + 1``."""


@dataclass(frozen=True)
class TrayCell:
    """One template in the tray: its name and its screen rectangle."""

    template: str
    rect: Rect


def upright_polygon(template: MovementTemplate) -> Polygon:
    """The template in its local frame turned to point up (+y), for thumbnails."""
    coords = np.asarray(template.polygon.exterior.coords)
    return Polygon(transform_points(Pose(0.0, 0.0, 90.0), coords))


CAPTION_PX = 16
"""The strip at the top of the tray that says whose templates it shows (inside the tray, never over the table)."""


def layout(template_set: TemplateSet, rect: Rect) -> list[TrayCell]:
    """Cells for the templates in :data:`TRAY_ORDER` that the set has, side by side in ``rect`` under its caption
    strip."""
    names = [n for n in TRAY_ORDER if n in template_set.movement]
    x, y, w, h = rect
    y, h = y + CAPTION_PX, h - CAPTION_PX
    cell_w = w // max(len(names), 1)
    return [TrayCell(n, (x + i * cell_w + 3, y + 3, cell_w - 6, h - 6)) for i, n in enumerate(names)]


def cell_centre(cells: list[TrayCell], template: str) -> tuple[int, int]:
    """Screen centre of a template's cell; ``KeyError`` if the tray has none."""
    for c in cells:
        if c.template == template:
            centre = pygame.Rect(c.rect).center
            return (int(centre[0]), int(centre[1]))
    raise KeyError(template)


def cell_at(cells: list[TrayCell], pos: tuple[int, int]) -> TrayCell | None:
    """The cell under a screen point."""
    for c in cells:
        if pygame.Rect(c.rect).collidepoint(pos):
            return c
    return None


def common_extent_mm(template_set: TemplateSet) -> tuple[float, float]:
    """Width and height (mm) of a box that holds every upright template: one scale for the whole tray."""
    boxes = [upright_polygon(t).bounds for t in template_set.movement.values()]
    return (max(b[2] - b[0] for b in boxes), max(b[3] - b[1] for b in boxes))


def draw_thumbnail(surface: pygame.Surface, template: MovementTemplate, rect: Rect, colour: draw.Colour,
                   edge: draw.Colour, extent_mm: tuple[float, float] | None = None) -> None:
    """The template drawn pointing up in ``rect``: to fit, or at the scale of a ``extent_mm`` box."""
    poly = upright_polygon(template)
    min_x, min_y, max_x, max_y = poly.bounds
    if extent_mm is not None:
        cx, cy = (min_x + max_x) / 2.0, (min_y + max_y) / 2.0
        w, h = extent_mm
        min_x, min_y, max_x, max_y = cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0
    view = View.fit((min_x, min_y, max_x, max_y), rect, margin_px=2.0)
    draw.fill_shape(surface, view, poly, colour, edge, 1)


def draw_tray(surface: pygame.Surface, template_set: TemplateSet, cells: list[TrayCell],
              labels: dict[str, str] | None, dragging: str | None = None, hover: str | None = None) -> None:
    """Draw every cell. ``labels`` maps template -> permission word (None: no vehicle selected, say so; empty:
    no words at all, e.g. under a shade)."""
    extent = common_extent_mm(template_set)
    for i, cell in enumerate(cells):
        rect = pygame.Rect(cell.rect)
        word = labels.get(cell.template) if labels else None
        allowed = word is None or word != "not permitted"
        bg = (46, 50, 58) if cell.template != hover else (58, 63, 74)
        pygame.draw.rect(surface, bg, rect, border_radius=6)
        chip_colour = draw.PERMISSION_COLOURS.get(word or "", draw.TEXT_DIM)
        pygame.draw.rect(surface, chip_colour if word else draw.PANEL_EDGE, rect, 2, border_radius=6)
        template = template_set.movement[cell.template]
        label = template.label
        if fitting(label, rect.width - 6, 17) < 14 and " " in label:
            label = label.split()[0]  # "Short Straight" -> "Short" in a narrow tray
        draw.text(surface, label, (rect.centerx, rect.top + 4), fitting(label, rect.width - 6, 17),
                  draw.TEXT if allowed else draw.TEXT_DIM, "midtop")
        key = pygame.Rect(rect.left + 5, rect.top + 22, 16, 16)
        pygame.draw.rect(surface, (70, 74, 84), key, border_radius=3)
        draw.text(surface, str(i + 1), key.center, 15, draw.TEXT, "center")
        thumb = (rect.left + 8, rect.top + 20, rect.width - 16, rect.height - 44)
        fill = (235, 225, 190) if allowed else (90, 90, 95)
        if cell.template == dragging:
            fill = (120, 115, 100)
        draw_thumbnail(surface, template, thumb, fill, draw.shade(fill, 0.5), extent)
        chip = pygame.Rect(rect.left + 6, rect.bottom - 22, rect.width - 12, 18)
        if word:
            pygame.draw.rect(surface, chip_colour, chip, border_radius=4)
            draw.text(surface, word, chip.center, fitting(word, chip.width - 4, 16), (15, 15, 15), "center")
        elif labels is None:
            draw.text(surface, "select a car", chip.center, fitting("select a car", chip.width - 4, 15), draw.TEXT_DIM,
                      "center")


def fitting(text: str, width_px: int, size: int, smallest: int = 10) -> int:
    """The largest font size up to ``size`` at which ``text`` fits ``width_px`` (never below ``smallest``)."""
    while size > smallest and draw.font(size).size(text)[0] > width_px:
        size -= 1
    return size


def draw_tray_area(surface: pygame.Surface, template_set: TemplateSet, cells: list[TrayCell], rect: Rect,
                   labels: dict[str, str] | None, dragging: str | None, mouse_pos: tuple[int, int]) -> None:
    """The tray's background and its cells, the one under ``mouse_pos`` lit."""
    pygame.draw.rect(surface, draw.PANEL, rect)
    hover = cell_at(cells, mouse_pos)
    draw_tray(surface, template_set, cells, labels, dragging, hover.template if hover else None)


def draw_caption(surface: pygame.Surface, rect: Rect, message: str, colour: draw.Colour = draw.SELECT) -> None:
    """``message`` in the tray's caption strip, on the right."""
    x, y, w, _ = rect
    draw.text(surface, message, (x + w - 8, y + 2), 16, colour, "topright")


def shade_tray(surface: pygame.Surface, rect: Rect, message: str) -> None:
    """Grey the tray out with ``message`` across it (no template may be chosen now)."""
    x, y, w, h = rect
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill((20, 22, 26, 170))
    surface.blit(shade, (x, y))
    draw.text(surface, message, (x + w // 2, y + h // 2), 20, draw.TEXT_DIM, "center", backing=(15, 15, 15, 220))


def draw_floating(surface: pygame.Surface, template_set: TemplateSet, template: str, pos: tuple[int, int]) -> None:
    """A template held under the pointer, away from any car."""
    rect = (pos[0] - 30, pos[1] - 40, 60, 80)
    draw_thumbnail(surface, template_set.template(template), rect, (250, 240, 200), (120, 110, 90))
