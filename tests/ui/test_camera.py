"""The camera follows the active car when zoomed in, and a bot's move is seen (issue 15, item 3)."""

from __future__ import annotations

from pathlib import Path

import pygame
from conftest import SIZE
from ui_events import bot_race_replay, click, drag, post_key, pump

from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game
from simulator.ui.app import App
from simulator.ui.camera import KEEP_IN, SETTLED_PX
from simulator.ui.game_controller import GameController


def _app(tmp_path: Path, bots: set[int] | None = None) -> App:
    pygame.event.clear()
    ctl = GameController(new_game(load_scenario(bundled_scenario()), 3), autosave_path=tmp_path / "a.json",
                         bots=bots)
    app = App.for_game(ctl, SIZE, game_path=tmp_path / "game.json")
    app.settings.follow_camera = True
    return app


def _zoom_in_far_away(app: App) -> None:
    """Wheel notches over the table's far right corner: the cars (at the Start, left) leave the view."""
    x, y, w, h = app.layout.table
    corner = (x + w - 30, y + h - 30)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=corner, rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(6):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0,
                                             precise_y=1.0))
    pump(app)


def _activate(app: App) -> None:
    """Click the panel's first Activate button (a real click)."""
    assert app.game is not None
    app.draw(pygame.Surface(SIZE))
    b = next(b for b in app.game.panel().buttons if b.label.startswith("Activate"))
    click(app, pygame.Rect(b.rect).center)
    assert app.game.ctl.prompt.vehicle_id


def _inside(app: App, pos: tuple[float, float], keep: float = 0.0) -> bool:
    x, y, w, h = app.layout.table
    slack = 1 + SETTLED_PX  # the camera stops this close to its goal
    return x + w * keep - slack <= pos[0] <= x + w * (1 - keep) + slack and \
        y + h * keep - slack <= pos[1] <= y + h * (1 - keep) + slack


def _active_px(app: App) -> tuple[float, float]:
    assert app.game is not None
    ctl = app.game.ctl
    vid = ctl.prompt.vehicle_id or ctl.state.vehicles[0].id
    pose = ctl.vehicle(vid).pose
    return app.view.to_screen(pose.x_mm, pose.y_mm)


def test_the_camera_glides_to_the_active_car_and_c_turns_it_off(tmp_path: Path) -> None:
    app = _app(tmp_path)
    game = app.game
    assert game is not None
    _activate(app)
    _zoom_in_far_away(app)
    assert not _inside(app, _active_px(app))
    for _ in range(90):
        app.update(1 / 60)
    assert _inside(app, _active_px(app), KEEP_IN)
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "followed.png"))
    # C: the camera stays put
    post_key(pygame.K_c)
    pump(app)
    assert not app.settings.follow_camera and "stays where you put it" in app.status
    _zoom_in_far_away(app)
    view = app.view
    for _ in range(60):
        app.update(1 / 60)
    assert app.view == view
    post_key(pygame.K_c)
    pump(app)
    assert app.settings.follow_camera
    assert any("C" == keys for keys, _ in game.help_lines())


def test_a_person_who_pans_takes_the_camera_until_the_next_car(tmp_path: Path) -> None:
    app = _app(tmp_path)
    game = app.game
    assert game is not None
    _activate(app)
    _zoom_in_far_away(app)
    app.update(1 / 60)
    x, y, w, h = app.layout.table
    drag(app, (x + w // 2, y + h // 2), (x + w // 2 - 200, y + h // 2), button=3)
    view = app.view
    for _ in range(60):
        app.update(1 / 60)
    assert app.view == view


def test_a_bots_move_is_animated_in_view_when_zoomed_in(tmp_path: Path) -> None:
    app = _app(tmp_path, bots={0, 1})
    game = app.game
    assert game is not None
    ctl = game.ctl
    _zoom_in_far_away(app)
    seen = 0
    for _ in range(60 * 20):
        app.update(1 / 60)
        for m in ctl.anim.motions[:1]:
            pose = m.pose()
            assert _inside(app, app.view.to_screen(pose.x_mm, pose.y_mm)), (m.vehicle_id, pose)
            seen += 1
        if len(ctl.game.decisions) > 12:
            break
    assert seen > 30  # frames of driving cars, every one of them on screen


def test_the_replay_viewer_follows_the_car_that_acts_when_zoomed_in(tmp_path: Path) -> None:
    app = bot_race_replay(tmp_path, 2, 30, SIZE)
    app.settings.follow_camera = True
    replay = app.replay
    assert replay is not None
    _zoom_in_far_away(app)
    post_key(pygame.K_SPACE)  # play
    pump(app)
    seen = 0
    for _ in range(60 * 12):
        app.update(1 / 60)
        for m in replay.anim.motions[:1]:
            pose = m.pose()
            assert _inside(app, app.view.to_screen(pose.x_mm, pose.y_mm)), (m.vehicle_id, pose)
            seen += 1
    assert seen > 30
    post_key(pygame.K_c)
    pump(app)
    assert not app.settings.follow_camera
