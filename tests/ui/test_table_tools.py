"""The tape measure and the line-of-fire check in a game (issue 15, item 5): real events, nothing changes."""

from __future__ import annotations

import math
from pathlib import Path

import pygame
from conftest import SIZE
from ui_events import bot_race_replay, click, drag, post_key, pump

from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game
from simulator.ui.app import App
from simulator.ui.game_controller import GameController
from simulator.ui.table_tools import band_words, range_bands


def _app(tmp_path: Path, seed: int = 3) -> App:
    pygame.event.clear()
    ctl = GameController(new_game(load_scenario(bundled_scenario()), seed), autosave_path=tmp_path / "a.json")
    return App.for_game(ctl, SIZE, game_path=tmp_path / "game.json")


def _key(app: App, key: int) -> None:
    post_key(key)
    pump(app)


def test_bands_come_from_the_template_sets_data() -> None:
    app_ts = load_scenario(bundled_scenario()).template_set
    bands = range_bands(app_ts)
    assert [(b.label, b.length_mm) for b in bands] == [("Short", 60.0), ("Medium", 120.0), ("Long", 182.0),
                                                       ("Double", 302.0)]  # p.27, template_sets/default.toml
    assert band_words(60.0, bands) == "within Short (60 mm)"
    assert band_words(60.5, bands) == "within Medium (120 mm)"
    assert band_words(400.0, bands) == "beyond Double (302 mm)"


def test_tape_measure_drags_from_any_point_and_changes_nothing(tmp_path: Path) -> None:
    app = _app(tmp_path)
    game = app.game
    assert game is not None
    before = (game.ctl.state, game.ctl.prompt, list(game.ctl.game.decisions))
    _key(app, pygame.K_t)
    assert game.tools.tool == "tape" and "Tape measure" in app.status
    view = app.view
    a_mm, b_mm = (300.0, 250.0), (300.0 + 90.0, 250.0)
    start, end = view.to_screen(*a_mm), view.to_screen(*b_mm)
    drag(app, start, end)
    per_px = view.px_to_mm(1.0)
    assert abs(game.tools.tape_length_mm() - 90.0) <= 2 * per_px
    assert "within Medium (120 mm)" in app.status
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "tape.png"))
    # a longer drag crosses Long: the band follows the tape
    drag(app, start, view.to_screen(300.0 + 250.0, 250.0))
    assert "within Double (302 mm)" in app.status
    assert (game.ctl.state, game.ctl.prompt, list(game.ctl.game.decisions)) == before
    _key(app, pygame.K_ESCAPE)
    assert game.tools.tool == ""


def test_the_table_corners_buttons_turn_the_tools_on_and_off(tmp_path: Path) -> None:
    app = _app(tmp_path)
    game = app.game
    assert game is not None
    app.draw(pygame.Surface(SIZE))
    tape = next(b for b in game.tools.buttons() if b.action == "tape")
    click(app, pygame.Rect(tape.rect).center)
    assert game.tools.tool == "tape"
    sight = next(b for b in game.tools.buttons() if b.action == "sight")
    click(app, pygame.Rect(sight.rect).center)
    assert game.tools.tool == "sight"
    click(app, pygame.Rect(sight.rect).center)
    assert game.tools.tool == ""
    assert not game.ctl.game.decisions


def test_line_of_fire_shows_the_referees_ruling_for_every_weapon(tmp_path: Path) -> None:
    app = _app(tmp_path)
    game = app.game
    assert game is not None
    ctl = game.ctl
    before = (ctl.state, ctl.prompt, list(ctl.game.decisions))
    referee = ctl.game.referee
    cars = [v for v in ctl.state.vehicles if v.in_play]
    pair = next(((a, b) for a in cars for b in cars if a.id != b.id and any(
        referee.shot(ctl.state, a.id, m, b.id) is not None for m in range(len(a.weapons)))), None)
    assert pair is not None, "no car of the starting grid has a target in arc and range"
    shooter, target = pair
    _key(app, pygame.K_l)
    assert game.tools.tool == "sight"
    click(app, game.vehicle_screen_pos(shooter.id))
    assert game.tools.shooter == shooter.id and "click its target" in app.status
    click(app, game.vehicle_screen_pos(target.id))
    assert game.tools.target == target.id
    rows = game.tools.rows()
    assert [r.mount for r in rows] == [-1, *range(len(shooter.weapons))]
    for r in rows:
        assert r.sight.shot == referee.shot(ctl.state, shooter.id, r.mount, target.id)
        assert r.weapon == shooter.weapon(r.mount)[1].name
    shown = rows[game.tools.shown]
    assert shown.sight.shot is not None and shown.sight.template is not None
    assert "can fire" in shown.words(game.scene_name)
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "sight.png"))
    _key(app, pygame.K_TAB)
    assert game.tools.shown == (rows.index(shown) + 1) % len(rows)
    assert (ctl.state, ctl.prompt, list(ctl.game.decisions)) == before
    _key(app, pygame.K_l)
    assert game.tools.tool == ""
    assert math.isfinite(app.view.scale_px_per_mm)


def test_the_tools_work_in_the_replay_on_the_step_shown(tmp_path: Path) -> None:
    app = bot_race_replay(tmp_path, 3, 20, SIZE)
    replay = app.replay
    assert replay is not None
    replay.seek(12)
    state = replay.state
    referee = replay.game.referee
    cars = [v for v in state.vehicles if v.in_play]
    pair = next(((a, b) for a in cars for b in cars if a.id != b.id and any(
        referee.shot(state, a.id, m, b.id) is not None for m in range(len(a.weapons)))), None)
    assert pair is not None, "no car has a target in arc and range at this step"
    _key(app, pygame.K_l)
    assert replay.tools.tool == "sight" and "Line of fire" in app.status
    canvas = app.ctx.canvas
    shooter, target = pair
    click(app, canvas.screen_pos(shooter.pose))
    click(app, canvas.screen_pos(target.pose))
    assert replay.tools.target == target.id
    rows = replay.tools.rows()
    assert rows and any(r.sight.shot is not None for r in rows)
    for r in rows:
        assert r.sight.shot == referee.shot(state, shooter.id, r.mount, target.id)
    _key(app, pygame.K_t)
    assert replay.tools.tool == "tape"
    view = app.view
    drag(app, view.to_screen(300.0, 250.0), view.to_screen(390.0, 250.0))
    assert abs(replay.tools.tape_length_mm() - 90.0) <= 2 * view.px_to_mm(1.0)
    assert "within Medium (120 mm)" in app.status
    app.draw(pygame.Surface(SIZE))
    assert replay.position == 12 and replay.state is state and not replay.playing  # it only looks
    _key(app, pygame.K_ESCAPE)
    assert replay.tools.tool == ""


def test_the_free_table_has_the_tape_measure_in_its_corner(tmp_path: Path) -> None:
    pygame.event.clear()
    app = App(load_scenario(bundled_scenario()), SIZE)
    free = app.free
    assert free is not None and app.mode is free
    app.draw(pygame.Surface(SIZE))
    assert [b.action for b in free.tools.buttons()] == ["tape"]  # no game, so no line-of-fire check here
    before = free.table
    click(app, pygame.Rect(free.tools.buttons()[0].rect).center)
    assert free.tools.tool == "tape" and "Tape measure" in app.status
    view = app.view
    drag(app, view.to_screen(300.0, 250.0), view.to_screen(300.0, 250.0 + 170.0))
    assert abs(free.tools.tape_length_mm() - 170.0) <= 2 * view.px_to_mm(1.0)
    assert "within Long (182 mm)" in app.status
    app.draw(pygame.Surface(SIZE))
    assert free.table is before and free.hand is None  # the drag measured; nothing moved
    _key(app, pygame.K_ESCAPE)
    assert free.tools.tool == ""
