"""The one mm <-> px conversion (simulator/ui/view.py) and the controller hook."""

from __future__ import annotations

import math

import pygame
from hypothesis import given
from hypothesis import strategies as st
from ui_events import post_mouse, pump

from simulator.geometry.table import Table
from simulator.ui.app import App
from simulator.ui.controller import FreeTable, Verdict
from simulator.ui.view import View

finite = st.floats(-2000.0, 2000.0, allow_nan=False)


@given(finite, finite, st.floats(0.1, 10.0), finite, finite)
def test_round_trip(x: float, y: float, scale: float, ox: float, oy: float) -> None:
    v = View((0, 0, 800, 600), scale, (ox, oy))
    px, py = v.to_screen(x, y)
    back = v.to_table(px, py)
    assert math.dist(back, (x, y)) < 1e-7


def test_y_is_flipped_and_headings_turn_the_same_way() -> None:
    v = View.fit((0.0, 0.0, 1220.0, 915.0), (0, 0, 1000, 800))
    assert v.to_screen(0.0, 100.0)[1] < v.to_screen(0.0, 0.0)[1]  # up on the table is up on screen
    dx, dy = v.screen_direction(90.0)
    assert abs(dx) < 1e-12 and dy == -1.0


@given(st.tuples(st.integers(0, 799), st.integers(0, 599)), st.floats(0.2, 5.0))
def test_zoom_keeps_point_under_cursor(pos: tuple[int, int], factor: float) -> None:
    v = View.fit((0.0, 0.0, 1220.0, 915.0), (0, 0, 800, 600))
    z = v.zoomed_about(pos, factor)
    assert math.dist(v.to_table(*pos), z.to_table(*pos)) < 1e-6


def test_fit_shows_the_whole_box_centred() -> None:
    v = View.fit((0.0, 0.0, 1220.0, 915.0), (10, 20, 800, 600), margin_px=10.0)
    x0, y0 = v.to_screen(0.0, 915.0)
    x1, y1 = v.to_screen(1220.0, 0.0)
    assert 10 <= x0 and x1 <= 810 and 20 <= y0 and y1 <= 620
    assert abs((x0 + x1) / 2 - 410) < 1e-9 and abs((y0 + y1) / 2 - 320) < 1e-9


class _RedOnly(FreeTable):
    """A controller whose turn belongs to the red team only."""

    def can_select(self, table: Table, vehicle_id: str) -> Verdict:
        if table.vehicle(vehicle_id).player != "red":
            return Verdict.no("It is Red Team's turn")
        return Verdict.yes()


def test_controller_decides_who_may_be_selected(app: App) -> None:
    assert app.free is not None
    app.free.controller = _RedOnly(app.ctx.template_set)
    for vid, expected in (("blue-car", None), ("red-buggy", "red-buggy")):
        pos = app.free.vehicle_screen_pos(vid)
        post_mouse(pygame.MOUSEBUTTONDOWN, pos)
        post_mouse(pygame.MOUSEBUTTONUP, pos)
        pump(app)
        assert app.free.selected == expected
        if expected is None:
            assert "Red Team's turn" in app.status
