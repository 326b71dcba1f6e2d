"""The frame's reused drawing (the table's terrain layer, the overlays) looks exactly like drawing afresh."""

from __future__ import annotations

import dataclasses

import numpy as np
import pygame
import pytest
from conftest import SIZE
from ui_events import post_key, pump

from simulator.ui import draw
from simulator.ui.app import App
from simulator.ui.canvas import Canvas


def _shot(app: App) -> np.ndarray:
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    return pygame.surfarray.array3d(surface).astype(int)


def _fresh(app: App, monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    """The window drawn with nothing reused (the terrain drawn directly, a new surface per overlay)."""
    with monkeypatch.context() as m:
        m.setattr(draw, "draw_table", draw._draw_table)
        m.setattr(Canvas, "overlay", lambda self, surface: pygame.Surface(surface.get_size(), pygame.SRCALPHA))
        return _shot(app)


def test_reused_layers_draw_the_same_pixels_after_panning_zooming_and_a_change_of_terrain(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _shot(app)
    assert np.array_equal(first, _shot(app))  # the second frame comes from the kept layers
    assert np.array_equal(first, _fresh(app, monkeypatch))
    post_key(pygame.K_LEFT)  # pan: the terrain layer is redrawn for the new view
    pump(app)
    panned = _shot(app)
    assert not np.array_equal(first, panned)
    assert np.array_equal(panned, _fresh(app, monkeypatch))
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, precise_x=0.0, precise_y=1.0, flipped=False))
    pump(app)
    assert np.array_equal(_shot(app), _fresh(app, monkeypatch))
    assert app.free is not None
    table = app.free.table
    assert table.obstacles
    before = _shot(app)
    app.free.box.table = dataclasses.replace(table, obstacles=table.obstacles[1:])  # an obstacle removed
    after = _shot(app)
    assert not np.array_equal(before, after)
    assert np.array_equal(after, _fresh(app, monkeypatch))
    assert len(app.ctx.canvas._overlays) <= 4
