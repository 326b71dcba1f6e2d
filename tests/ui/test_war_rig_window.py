"""The War Rig in the window (p.116-120): both pieces drawn, the trailer picks the rig, the Jackknife's Swing
Trailer chosen by dragging behind the hitch, and Savage Highways scenarios open as games (p.165-175)."""

from __future__ import annotations

from pathlib import Path

import pygame
from conftest import SIZE
from ui_events import drag, post_key, pump

from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import Activate, SwingTrailer
from simulator.gaslands.events import TrailerSwung
from simulator.gaslands.game import Game
from simulator.gaslands.prompts import ActivatePrompt, SwingTrailerPrompt
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game
from simulator.ui import draw
from simulator.ui.app import App
from simulator.ui.game_controller import GameController
from simulator.ui.panel_actions import Decide, PanelAction
from simulator.ui.window import plays_as_game

GOLDEN_MIX = Path(__file__).resolve().parents[1] / "golden" / "golden_mix.toml"


def _app(game: Game, tmp_path: Path) -> App:
    pygame.event.clear()
    return App.for_game(GameController(game, autosave_path=tmp_path / "autosave.json"), SIZE)


def _click(app: App, pos: tuple[float, float]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(pos[0]), round(pos[1])), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(round(pos[0]), round(pos[1])), button=1))
    pump(app)


def _click_action(app: App, action: PanelAction) -> None:
    assert app.game is not None
    _click(app, pygame.Rect(app.game.panel().button(action).rect).center)


def _colour_at(surface: pygame.Surface, app: App, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    c = surface.get_at(app.view.to_screen_int(x_mm, y_mm))
    return (c.r, c.g, c.b)


def _near(a: tuple[int, int, int], b: tuple[int, ...], tol: int = 40) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b[:3], strict=True)) < tol


def test_savage_highways_scenarios_open_as_games_with_both_pieces_drawn(tmp_path: Path) -> None:
    path = bundled_scenario("escape_the_city.toml")
    assert plays_as_game(path)
    game = new_game(load_scenario(path), 1)
    app = _app(game, tmp_path)
    assert app.game is not None and app.game_view
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    rig = app.game.scene.table(game.state).vehicle("war-rig")
    assert rig.trailer is not None
    colour = app.game.scene.colour(game.state, "war-rig")
    # the trailer is drawn a shade darker than the cab, where the geometry puts it (p.118)
    t = rig.trailer.pose
    assert _near(_colour_at(surface, app, t.x_mm + 5.0, t.y_mm + 3.0), draw.shade(colour, 0.8))
    behind = t.ahead(-rig.trailer.length_mm / 2.0 - 15.0)
    assert not _near(_colour_at(surface, app, behind.x_mm, behind.y_mm), draw.shade(colour, 0.8))


def _to_riggers_turn(game: Game) -> None:
    bot = Bot()
    for _ in range(400):
        p = game.prompt
        if isinstance(p, ActivatePrompt) and "war-rig" in p.options:
            return
        game.decide(bot.decide(game))
    raise AssertionError("the War Rig never came to activate")


def test_clicking_the_trailer_inspects_the_war_rig_and_enter_activates_it(tmp_path: Path) -> None:
    game = new_game(load_scenario(bundled_scenario("escape_the_city.toml")), 1)
    _to_riggers_turn(game)
    app = _app(game, tmp_path)
    assert app.game is not None
    trailer = app.game.scene.table(game.state).vehicle("war-rig").trailer
    assert trailer is not None
    rear = trailer.pose.ahead(-trailer.length_mm / 2.0 + 10.0)  # well clear of the cab
    _click(app, app.view.to_screen_int(rear.x_mm, rear.y_mm))
    assert app.game.inspected == "war-rig"  # a click shows the car; activating is explicit
    post_key(pygame.K_RETURN)
    pump(app)
    assert game.decisions[-1] == Activate("war-rig")
    assert game.prompt.kind == "declare" and game.prompt.vehicle_id == "war-rig"  # the Tanker Anchor (p.120)


def _jackknife_game() -> Game:
    """A seeded bot game of the golden mix up to the War Rig's Swing Trailer (its golden records one)."""
    game, bot = new_game(load_scenario(GOLDEN_MIX), 1), Bot()
    for _ in range(400):
        if isinstance(game.prompt, SwingTrailerPrompt):
            return game
        game.decide(bot.decide(game))
    raise AssertionError("no Jackknife in the golden mix, seed 1")


def test_swing_trailer_by_dragging_behind_the_hitch(tmp_path: Path) -> None:
    game = _jackknife_game()
    p = game.prompt
    assert isinstance(p, SwingTrailerPrompt)
    app = _app(game, tmp_path)
    assert app.game is not None
    ctl = app.game.ctl
    rig = app.game.scene.table(game.state).vehicle(p.vehicle_id)
    cab = rig.pose
    # the pointer 200 mm behind the hitch, 45 degrees off the cab's line: the trailer trails towards it
    target_bend = -45.0 if p.bend_deg > 0 else 45.0
    hitch = cab.ahead(-rig.length_mm / 2.0)
    aim = hitch.turned(target_bend).ahead(-200.0)
    at = app.view.to_screen_int(aim.x_mm, aim.y_mm)
    drag(app, at, at, steps=1)
    assert ctl.preview_bend() is not None and abs(ctl.preview_bend() - target_bend) <= 1.0  # type: ignore[operator]
    surface = pygame.Surface(SIZE)
    app.draw(surface)  # the ghost trailer (and where it stops)
    pygame.image.save(surface, str(tmp_path / "swing.png"))
    swing = ctl.facing_decision()
    assert isinstance(swing, SwingTrailer) and abs(swing.bend_deg - target_bend) <= 1.0
    _click_action(app, Decide(swing))
    swung = [e for e in game.log if isinstance(e, TrailerSwung)]
    assert swung and swung[-1].requested_deg == swing.bend_deg
    assert game.state.vehicle(p.vehicle_id).bend_deg == swung[-1].reached_deg
    # the Collision Window of the swing, then Pivot Vehicle (p.119)
    assert game.prompt.kind in ("react", "lose_control")
    app.draw(surface)


def test_a_moving_war_rigs_trailer_bends_from_its_start_to_its_end() -> None:
    from simulator.geometry.pose import Pose
    from simulator.ui.animation import Motion

    m = Motion("rig", [Pose(0.0, 0.0, 0.0), Pose(100.0, 0.0, 0.0)], 1.0, bends=(0.0, -40.0))
    assert m.bend() == 0.0
    m.elapsed = 0.5
    assert m.bend() == -20.0 and m.pose() == Pose(50.0, 0.0, 0.0)  # halfway (smoothstep is symmetric)
    m.elapsed = 1.0
    assert m.bend() == -40.0


def test_the_rulings_mode_answers_a_war_rig_move_for_both_pieces() -> None:
    from simulator.ui.outcome import MovePreview
    from simulator.ui.rulings_view import rulings_lines

    case = Path(__file__).resolve().parents[1] / "cases" / "move_war_rig.toml"
    app = App.from_path(case, query="bent_long")
    r = app.rulings
    out = r.outcome()
    assert out is not None and out.result.bend_deg is not None
    lines = [text for text, _ in rulings_lines(r.live_table(), r.ctx.template_set, r.rulings, out, r.vehicle_name)]
    assert any(t.startswith("Trailer hitched behind, bent") and "(p.118)" in t for t in lines)
    assert MovePreview.of_outcome(out).bend_deg == out.result.bend_deg  # the ghost draws the trailer so bent
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    trailer = r.live_table().vehicle(out.vehicle_id).moved(out.final, bend_deg=out.result.bend_deg).trailer
    assert trailer is not None  # the Final Position's trailer ghost is drawn over the table there
    c = surface.get_at(app.view.to_screen_int(trailer.pose.x_mm, trailer.pose.y_mm + 10.0))
    plain = App.from_path(case, query="bent_long")
    plain.rulings.pending = None
    quiet = pygame.Surface(SIZE)
    plain.draw(quiet)
    assert c != quiet.get_at(plain.view.to_screen_int(trailer.pose.x_mm, trailer.pose.y_mm + 10.0))


def test_a_long_game_over_banner_fits_the_table(tmp_path: Path) -> None:
    game = new_game(load_scenario(bundled_scenario("escape_the_city.toml")), 1)
    app = _app(game, tmp_path)
    assert app.game is not None
    surface = pygame.Surface((1000, 300))
    surface.fill((0, 0, 0))
    table = pygame.Rect(200, 0, 600, 300)
    reason = "Riggers wins! (the Riggers win: the War Rig escapes (Escape the City, p.168))"
    app.game.scene.draw_banner(surface, table, reason, [f"Vehicle number {i}" for i in range(1, 8)])
    outside = [surface.get_at((x, y)) for x in (*range(0, 200, 3), *range(800, 1000, 3)) for y in range(0, 140, 2)]
    inside = [surface.get_at((x, y)) for x in range(200, 800, 3) for y in range(40, 120, 2)]
    assert all(c.r == c.g == c.b == 0 for c in outside)  # nothing spills beside the table
    assert any(c.r > 200 for c in inside)  # the words are there
