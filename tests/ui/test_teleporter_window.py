"""The Experimental Teleporter in the window (p.83-84): a click on the table puts a ghost of the car (white
when the referee allows it there, orange with the reason when not) inside the dashed range outline, and
Enter (or the panel's button) places it."""

from __future__ import annotations

from pathlib import Path

import pygame
from conftest import SIZE
from ui_events import post_key, post_mouse, pump

from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import Declare, Teleport
from simulator.gaslands.prompts import DeclarePrompt, TeleportPrompt
from simulator.gaslands.teams import Fitting, Team, TeamVehicle
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game, with_teams
from simulator.ui import draw
from simulator.ui.app import App
from simulator.ui.game_controller import GameController
from simulator.ui.panel_actions import Decide


def _at_the_jump(seed: int):  # noqa: ANN202 - a Game waiting for the Teleporter's placement
    scenario = load_scenario(bundled_scenario("street_race.toml"))
    blinker = TeamVehicle("car", "Blinker", upgrades=(Fitting("experimental_teleporter"),))
    mishkin = Team("Mishkin", "mishkin", 50, (blinker, TeamVehicle("car", "Plain")))
    rivals = Team("Rivals", None, 50, (TeamVehicle("car", "A"), TeamVehicle("car", "B")))
    red, blue = (p.id for p in scenario.spec.player)
    game = new_game(with_teams(scenario, {red: mishkin, blue: rivals}), seed=seed)
    bot = Bot()
    for _ in range(500):
        p = game.prompt
        if isinstance(p, DeclarePrompt) and p.perk == "experimental_teleporter":
            game.decide(Declare("yes"))
            break
        game.decide(bot.decide(game))
    assert isinstance(game.prompt, TeleportPrompt)
    return game


def test_a_click_places_the_teleporting_car(tmp_path: Path) -> None:
    game = _at_the_jump(3)
    p = game.prompt
    assert isinstance(p, TeleportPrompt) and p.band == "medium"
    pygame.event.clear()
    ctl = GameController(game, autosave_path=tmp_path / "autosave.json")
    app = App.for_game(ctl, SIZE, game_path=tmp_path / "game.json")
    assert app.game is not None
    app.game.refresh()
    view = app.game.ctx.canvas.view
    other = next(v for v in game.state.vehicles if v.id != p.vehicle_id and v.in_play)
    # a click on another car: the ghost is orange and the panel says why; Enter does not place it
    post_mouse(pygame.MOUSEBUTTONDOWN, view.to_screen(other.pose.x_mm, other.pose.y_mm))
    post_mouse(pygame.MOUSEBUTTONUP, view.to_screen(other.pose.x_mm, other.pose.y_mm))
    pump(app)
    assert ctl.draft.spot is not None and ctl.teleport_problem() != ""
    target = (p.before.x_mm + 60.0, p.before.y_mm)
    for dy in (0.0, 30.0, -30.0, 60.0, -60.0):  # the first free spot ahead of it
        ctl.draft.spot = (p.before.x_mm + 60.0, p.before.y_mm + dy)
        if not ctl.teleport_problem():
            target = ctl.draft.spot
            break
    ctl.draft.spot = None
    post_mouse(pygame.MOUSEBUTTONDOWN, view.to_screen(*target))
    post_mouse(pygame.MOUSEBUTTONUP, view.to_screen(*target))
    pump(app)
    assert ctl.draft.spot is not None and ctl.teleport_problem() == ""
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "teleport.png"))
    assert app.game.panel().button(Decide(Teleport(*ctl.draft.spot))) is not None
    gx, gy = view.to_screen_int(*ctl.draft.spot)
    assert surface.get_at((gx, gy))[:3] != draw.INTERRUPT  # a legal place: not drawn orange
    spot = ctl.draft.spot
    post_key(pygame.K_RETURN)
    pump(app)
    v = game.state.vehicle(p.vehicle_id)
    assert (round(v.pose.x_mm, 6), round(v.pose.y_mm, 6)) == (round(spot[0], 6), round(spot[1], 6))
    assert v.pose.heading_deg == p.before.heading_deg
    assert not isinstance(game.prompt, TeleportPrompt)
