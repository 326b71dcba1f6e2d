"""The window, driven headless by real pygame events (issue 2, item 8; STYLE.md 12)."""

from __future__ import annotations

import math
from pathlib import Path

import pygame
import pytest
from conftest import FIXTURE
from ui_events import drag, post_key, post_mouse, pump, run_until_idle

from simulator.geometry.contact import overlaps
from simulator.geometry.placement import Move, place
from simulator.scenario.loader import bundled_scenario
from simulator.ui.app import App
from simulator.ui.draw import hex_colour
from simulator.ui.outcome import preview_move
from simulator.ui.window import render_png

TOL_MM = 1e-6


def _expected_final(app: App, vehicle_id: str, move: Move):
    """The Final Position the geometry engine gives (resolve_move when present, else place())."""
    return preview_move(app.free.table, vehicle_id, move, app.ctx.template_set).final


def _click(app: App, pos: tuple[float, float]) -> None:
    post_mouse(pygame.MOUSEBUTTONDOWN, pos)
    post_mouse(pygame.MOUSEBUTTONUP, pos)
    pump(app)


def test_drag_template_onto_car_and_confirm_drives_to_final_position(app: App) -> None:
    car = app.free.table.vehicle("red-car")
    expected = _expected_final(app, "red-car", Move("medium_straight"))
    plain = place(app.ctx.template_set, car.pose, car.length_mm, car.width_mm, Move("medium_straight")).spun_position
    assert abs(plain.x_mm - (165.0 + 30.0 + 120.0 + 30.0)) < TOL_MM  # hand arithmetic, p.25

    drag(app, app.free.tray_cell_centre("medium_straight"), app.free.vehicle_screen_pos("red-car"))
    assert app.free.pending is not None and app.free.pending.vehicle_id == "red-car"
    assert app.free.selected == "red-car"
    post_key(pygame.K_RETURN)
    pump(app)
    assert app.free.animation is not None
    app.update(0.3)
    mid = app.free.animation.path.pose_at(0.5 * app.free.animation.path.total) if app.free.animation else None
    assert mid is not None and car.pose.x_mm < mid.x_mm < expected.x_mm
    run_until_idle(app)
    assert app.free.animation is None
    final = app.free.table.vehicle("red-car").pose
    assert abs(final.x_mm - expected.x_mm) < TOL_MM
    assert abs(final.y_mm - expected.y_mm) < TOL_MM
    assert abs(math.remainder(final.heading_deg - expected.heading_deg, 360.0)) < TOL_MM


def test_turn_confirmed_ends_at_final_position(app: App) -> None:
    drag(app, app.free.tray_cell_centre("turn"), app.free.vehicle_screen_pos("red-car"))
    assert app.free.pending is not None
    move = app.free.pending.move
    assert move.direction in ("left", "right")
    expected = _expected_final(app, "red-car", move)
    post_key(pygame.K_KP_ENTER)
    pump(app)
    run_until_idle(app)
    final = app.free.table.vehicle("red-car").pose
    assert math.dist((final.x_mm, final.y_mm), (expected.x_mm, expected.y_mm)) < TOL_MM


def test_click_selects_vehicle(app: App) -> None:
    assert app.free.selected is None
    _click(app, app.free.vehicle_screen_pos("blue-buggy"))
    assert app.free.selected == "blue-buggy"
    _click(app, app.free.vehicle_screen_pos("red-car"))
    assert app.free.selected == "red-car"


def test_mirror_key_flips_direction_and_final_position(app: App) -> None:
    drag(app, app.free.tray_cell_centre("turn"), app.free.vehicle_screen_pos("red-car"))
    assert app.free.pending is not None
    before = app.free.pending.move.direction
    first = app.free.outcome().final
    post_key(pygame.K_TAB)
    pump(app)
    after = app.free.pending.move.direction
    assert {before, after} == {"left", "right"}
    mirrored = app.free.outcome().final
    car = app.free.table.vehicle("red-car").pose
    # heading 0: the mirror image about the car's centre line y = 530
    assert abs((first.y_mm - car.y_mm) + (mirrored.y_mm - car.y_mm)) < TOL_MM
    assert abs(first.x_mm - mirrored.x_mm) < TOL_MM
    post_key(pygame.K_m)
    pump(app)
    assert app.free.pending.move.direction == before


def test_right_click_mirrors_pending_template(app: App) -> None:
    drag(app, app.free.tray_cell_centre("veer"), app.free.vehicle_screen_pos("red-car"))
    app.free.set_gear(+1)  # the Veer is not permitted in gear 1 (p.22)
    before = app.free.pending.move.direction
    pos = app.free.vehicle_screen_pos("red-car")
    post_mouse(pygame.MOUSEBUTTONDOWN, pos, button=3)
    post_mouse(pygame.MOUSEBUTTONUP, pos, button=3)
    pump(app)
    assert app.free.pending.move.direction != before


def test_undo_restores_pose(app: App) -> None:
    start = app.free.table.vehicle("red-car").pose
    drag(app, app.free.tray_cell_centre("short_straight"), app.free.vehicle_screen_pos("red-car"))
    post_key(pygame.K_RETURN)
    pump(app)
    run_until_idle(app)
    assert app.free.table.vehicle("red-car").pose != start
    post_key(pygame.K_z, pygame.KMOD_LCTRL)
    pump(app)
    assert app.free.table.vehicle("red-car").pose == start


def test_escape_cancels_preview_and_drag(app: App) -> None:
    drag(app, app.free.tray_cell_centre("gentle"), app.free.vehicle_screen_pos("red-car"))
    assert app.free.pending is not None
    post_key(pygame.K_ESCAPE)
    pump(app)
    assert app.free.pending is None
    post_mouse(pygame.MOUSEBUTTONDOWN, app.free.tray_cell_centre("gentle"))
    post_mouse(pygame.MOUSEMOTION, app.free.vehicle_screen_pos("red-car"))
    pump(app)
    assert app.free.template_drag is not None
    post_key(pygame.K_ESCAPE)
    pump(app)
    assert app.free.template_drag is None
    post_mouse(pygame.MOUSEBUTTONUP, app.free.vehicle_screen_pos("red-car"))
    pump(app)
    assert app.free.pending is None
    post_key(pygame.K_RETURN)
    pump(app)
    assert app.free.animation is None and app.free.table.vehicle("red-car").pose.x_mm == 165.0


def test_not_permitted_template_is_refused_with_page(app: App) -> None:
    _click(app, app.free.vehicle_screen_pos("red-car"))
    for _ in range(4):
        app.free.set_gear(+1)
    assert app.free.table.vehicle("red-car").gear == 5
    drag(app, app.free.tray_cell_centre("turn"), app.free.vehicle_screen_pos("red-car"))
    assert app.free.pending is None
    assert "Turn not permitted in gear 5 (p.18)" in app.status


def test_gear_keys_stay_within_max_gear(app: App) -> None:
    _click(app, app.free.vehicle_screen_pos("red-car"))
    for _ in range(8):
        post_key(pygame.K_EQUALS)
    pump(app)
    assert app.free.table.vehicle("red-car").gear == 5  # a Car's Max Gear (p.66)
    for _ in range(8):
        post_key(pygame.K_MINUS)
    pump(app)
    assert app.free.table.vehicle("red-car").gear == 1


def test_reverse_only_in_gear_one(app: App) -> None:
    drag(app, app.free.tray_cell_centre("short_straight"), app.free.vehicle_screen_pos("red-car"))
    post_key(pygame.K_v)
    pump(app)
    assert app.free.pending.move.reverse
    expected = _expected_final(app, "red-car", app.free.pending.move)
    assert expected.x_mm < 165.0  # behind the car, facing the same way (p.39)
    post_key(pygame.K_RETURN)
    pump(app)
    run_until_idle(app)
    assert abs(app.free.table.vehicle("red-car").pose.x_mm - expected.x_mm) < TOL_MM
    _click(app, app.free.vehicle_screen_pos("blue-car"))
    app.free.set_gear(+1)
    drag(app, app.free.tray_cell_centre("short_straight"), app.free.vehicle_screen_pos("blue-car"))
    post_key(pygame.K_v)
    pump(app)
    assert not app.free.pending.move.reverse and "p.39" in app.status


def test_slide_and_spin_from_keys(app: App) -> None:
    drag(app, app.free.tray_cell_centre("short_straight"), app.free.vehicle_screen_pos("red-buggy"))
    post_key(pygame.K_s)
    post_key(pygame.K_RIGHTBRACKET)
    post_key(pygame.K_RIGHTBRACKET)
    pump(app)
    m = app.free.pending.move
    assert m.slide and m.slide_facing == "left" and m.spin_deg == 30.0
    expected = _expected_final(app, "red-buggy", m)
    post_key(pygame.K_RETURN)
    pump(app)
    run_until_idle(app)
    got = app.free.table.vehicle("red-buggy").pose
    assert math.dist((got.x_mm, got.y_mm), (expected.x_mm, expected.y_mm)) < TOL_MM
    assert abs(math.remainder(got.heading_deg - expected.heading_deg, 360.0)) < TOL_MM


def test_zoom_about_cursor_keeps_point_fixed(app: App) -> None:
    pos = (400, 300)
    before = app.view.to_table(*pos)
    post_mouse(pygame.MOUSEMOTION, pos, buttons=(0, 0, 0))
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False, precise_x=0.0, precise_y=2.0))
    pump(app)
    assert app.view.scale_px_per_mm > 1.3 * app.ctx.canvas.fit_view().scale_px_per_mm
    after = app.view.to_table(*pos)
    assert math.dist(before, after) < 1e-9


def test_right_drag_pans(app: App) -> None:
    before = app.view.to_table(500, 400)
    drag(app, (500, 400), (600, 450), button=3)
    after = app.view.to_table(600, 450)
    assert math.dist(before, after) < 1e-9


def test_hand_drag_moves_car_but_not_into_obstacle(app: App) -> None:
    post_key(pygame.K_t)
    pump(app)
    assert app.free.hand_tool
    start = app.free.table.vehicle("red-car").pose
    rock = app.free.table.obstacle("rock-1")
    target = app.view.to_screen(rock.polygon.centroid.x, rock.polygon.centroid.y)
    drag(app, app.free.vehicle_screen_pos("red-car"), target, steps=20, settle=60)
    moved = app.free.table.vehicle("red-car")
    assert moved.pose.x_mm > start.x_mm + 50.0
    for o in app.free.table.all_obstacles:
        assert not overlaps(moved.footprint, o.polygon), o.id
    for v in app.free.table.vehicles:
        if v.id != moved.id:
            assert not overlaps(moved.footprint, v.footprint), v.id
    post_key(pygame.K_z, pygame.KMOD_CTRL)
    pump(app)
    assert app.free.table.vehicle("red-car").pose == start


def test_hand_drag_rotates_with_keys(app: App) -> None:
    app.free.hand_tool = True
    pos = app.free.vehicle_screen_pos("red-car")
    target = app.view.to_screen(250.0, 700.0)
    post_mouse(pygame.MOUSEBUTTONDOWN, pos)
    pump(app)
    post_mouse(pygame.MOUSEMOTION, target)
    pump(app)
    post_key(pygame.K_q)
    post_key(pygame.K_q)
    pump(app)
    for _ in range(60):
        app.update(1 / 60)
    post_mouse(pygame.MOUSEBUTTONUP, target)
    pump(app)
    pose = app.free.table.vehicle("red-car").pose
    assert abs(math.remainder(pose.heading_deg - 30.0, 360.0)) < 0.5
    assert math.dist((pose.x_mm, pose.y_mm), (250.0, 700.0)) < 30.0


def test_help_overlay_toggles(app: App) -> None:
    post_key(pygame.K_h)
    pump(app)
    assert app.help_visible
    post_key(pygame.K_F1)
    pump(app)
    assert not app.help_visible


def test_render_png_shows_table_teams_and_lines(tmp_path: Path) -> None:
    out = tmp_path / "street.png"
    render_png(FIXTURE, out, game=False)
    img = pygame.image.load(str(out))
    assert img.get_size() == (1400, 900)
    probe = App.from_path(FIXTURE)
    view = probe.view

    def at(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        c = img.get_at(view.to_screen_int(x_mm, y_mm))
        return (c.r, c.g, c.b)

    table_colour = at(1100.0, 100.0)
    assert sum(abs(a - b) for a, b in zip(table_colour, (96, 104, 88), strict=True)) < 30
    red, blue = hex_colour("#d23c32"), hex_colour("#2f6fd6")
    red_px = at(150.0, 530.0)
    blue_px = at(150.0, 480.0)
    assert sum(abs(a - b) for a, b in zip(red_px, red, strict=True)) < 30
    assert sum(abs(a - b) for a, b in zip(blue_px, blue, strict=True)) < 30
    start_line = at(200.0, 400.0)
    assert min(start_line) > 200  # white start line
    finish = [at(1000.0, 366.0 + 182.0 * i / 40) for i in range(41)]
    assert any(min(c) > 200 for c in finish) and any(max(c) < 60 for c in finish)  # chequered


@pytest.mark.parametrize("template", ["short_straight", "gentle", "hard", "hairpin", "swerve"])
def test_every_template_thumbnail_cell_is_clickable(app: App, template: str) -> None:
    post_mouse(pygame.MOUSEBUTTONDOWN, app.free.tray_cell_centre(template))
    pump(app)
    assert app.free.template_drag is not None and app.free.template_drag.template == template


def test_readme_lists_every_control() -> None:
    """The README's controls table is the help overlay's list (keep them in step)."""
    from pathlib import Path

    from simulator.ui.help import controls

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for keys, what in controls():
        assert f"| {keys} | {what} |" in readme, keys


def test_render_draws_what_the_window_opens_on(tmp_path: Path) -> None:
    """`gaslands render` of a race draws the game (as `gaslands` opens it), `--free` the free table."""
    game_png, free_png = tmp_path / "game.png", tmp_path / "free.png"
    render_png(bundled_scenario(), game_png)
    render_png(bundled_scenario(), free_png, game=False)
    a, b = pygame.image.load(str(game_png)), pygame.image.load(str(free_png))
    differing = sum(1 for x in range(0, 1400, 20) for y in range(0, 900, 20) if a.get_at((x, y)) != b.get_at((x, y)))
    assert differing > 50
