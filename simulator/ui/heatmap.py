"""Heat maps of a playtest drawn over the track (``gaslands playtest``): one PNG per map.

The track is drawn with the window's own drawing code (:func:`~simulator.ui.draw.draw_table`);
the heat (:class:`~simulator.scenario.playtest.HeatMaps`, a grid of values per
table cell) is laid over it from transparent through yellow to red, with a
title, the scale and the number of races.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pygame
from numpy.typing import NDArray

from simulator.geometry.table import Table
from simulator.scenario.playtest import HeatMaps
from simulator.ui import draw
from simulator.ui.view import View

SIZE_PX = (1400, 1000)
"""The picture's size in pixels."""

TITLE_PX = 56
LEGEND_PX = 64

_STOPS = np.array([
    (0.00, 255, 255, 120, 0),
    (0.15, 255, 235, 90, 110),
    (0.45, 255, 150, 30, 170),
    (0.75, 235, 50, 20, 205),
    (1.00, 150, 0, 60, 230),
], dtype=np.float64)
"""The colour ramp: position, red, green, blue, alpha."""


def ramp(values: NDArray[np.float64]) -> NDArray[np.uint8]:
    """RGBA colours (``values.shape + (4,)``) for ``values`` in [0, 1]."""
    v = np.clip(values, 0.0, 1.0)
    out = np.empty(v.shape + (4,), dtype=np.float64)
    for c in range(4):
        out[..., c] = np.interp(v, _STOPS[:, 0], _STOPS[:, c + 1])
    return out.astype(np.uint8)


def heat_surface(grid: NDArray[np.float64], vmax: float) -> pygame.Surface:
    """The grid (``[ix, iy]``, y up) as an RGBA surface one pixel per cell, row 0 at the top (y down)."""
    norm = grid / vmax if vmax > 0 else np.zeros_like(grid)
    rgba = ramp(np.flip(norm, axis=1).T)  # rows from the far edge of the table (screen top) down
    h, w = rgba.shape[:2]
    return pygame.image.frombuffer(np.ascontiguousarray(rgba).tobytes(), (w, h), "RGBA").copy()


def draw_heatmap(table: Table, grid: NDArray[np.float64], title: str, unit: str, races: int, cell_mm: float,
                 size: tuple[int, int] = SIZE_PX) -> pygame.Surface:
    """The track with ``grid`` (values per ``cell_mm`` square cell) laid over it, a title and a scale."""
    surface = pygame.Surface(size)
    surface.fill(draw.BACKGROUND)
    rect = (0, TITLE_PX, size[0], size[1] - TITLE_PX - LEGEND_PX)
    view = View.fit((0.0, 0.0, table.width_mm, table.height_mm), rect, margin_px=16)
    draw.draw_table(surface, view, table)
    vmax = float(grid.max()) if grid.size else 0.0
    x0, y0 = view.to_screen(0.0, table.height_mm)
    x1, y1 = view.to_screen(table.width_mm, 0.0)
    if vmax > 0:
        img = pygame.transform.smoothscale(heat_surface(grid, vmax), (round(x1 - x0), round(y1 - y0)))
        surface.blit(img, (round(x0), round(y0)))
        draw.outline_shape(surface, view, table.area, draw.TABLE_EDGE, 2)
    draw.text(surface, title, (16, 14), 30, draw.TEXT)
    draw.text(surface, f"{races} bot races", (size[0] - 16, 18), 22, draw.TEXT_DIM, "topright")
    _legend(surface, size, vmax, unit, cell_mm)
    return surface


def _legend(surface: pygame.Surface, size: tuple[int, int], vmax: float, unit: str, cell_mm: float) -> None:
    left, top, width, height = 16, size[1] - LEGEND_PX + 14, 320, 18
    bar = ramp(np.linspace(0.0, 1.0, width)[None, :].repeat(height, axis=0))
    backing = pygame.Surface((width, height))
    backing.fill(draw.TABLE)
    backing.blit(pygame.image.frombuffer(np.ascontiguousarray(bar).tobytes(), (width, height), "RGBA"), (0, 0))
    surface.blit(backing, (left, top))
    pygame.draw.rect(surface, draw.PANEL_EDGE, (left, top, width, height), 1)
    draw.text(surface, "0", (left, top + height + 3), 18, draw.TEXT_DIM)
    per_square = vmax * (100.0 / cell_mm) ** 2
    peak = (f"hottest 10 cm square: {per_square:.3g} {unit}" if vmax > 0 else "nothing of this kind happened")
    draw.text(surface, peak, (left + width + 12, top + 1), 20, draw.TEXT)


def save_heatmap(table: Table, heat: HeatMaps, name: str, races: int, path: Path) -> None:
    """Draw the map ``name`` of ``heat`` to the PNG ``path`` (the caller makes the write atomic)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.font.init()
    surface = draw_heatmap(table, heat.maps[name], heat.titles.get(name, name), heat.units.get(name, ""), races,
                           heat.cell_mm)
    pygame.image.save(surface, str(path))
