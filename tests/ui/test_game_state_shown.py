"""The game's state on screen (issue 15, item 6): Pole Position and the activation order, Audience Votes,
inspecting a car versus activating it, and a help overlay of what works now."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
from conftest import SIZE
from ui_events import click, post_key, pump

from simulator.gaslands.decisions import Activate
from simulator.gaslands.round import activation_order
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game, options_for
from simulator.ui.app import App
from simulator.ui.game_controller import GameController


def _app(tmp_path: Path, seed: int = 1, audience: bool = False) -> App:
    pygame.event.clear()
    scenario = load_scenario(bundled_scenario())
    options = replace(options_for(scenario), audience_votes=True) if audience else None
    game = new_game(scenario, seed, options)
    ctl = GameController(game, autosave_path=tmp_path / "a.json")
    return App.for_game(ctl, SIZE, game_path=tmp_path / "game.json")


def test_activation_order_is_pole_position_then_clockwise() -> None:
    from simulator.gaslands.round import RoundState

    assert activation_order(RoundState(players=4, pole=2, turn=2)) == (2, 3, 0, 1)  # p.19-20
    assert activation_order(RoundState(players=1)) == (0,)


def test_the_strip_shows_pole_position_the_order_and_who_is_offered_the_activation(tmp_path: Path) -> None:
    app = _app(tmp_path)
    game = app.game
    assert game is not None
    ctl = game.ctl
    rs = ctl.state.round
    chips = game.phase_chips()
    assert [c.name for c in chips] == [ctl.player_name(p) for p in activation_order(rs)]
    assert chips[0].pole and chips[0].name == ctl.player_name(rs.pole)
    assert [c.now for c in chips].index(True) == activation_order(rs).index(rs.turn)
    assert all(c.votes is None for c in chips)  # the module is off in a plain Street Race
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "strip.png"))


def test_a_click_inspects_and_enter_activates(tmp_path: Path) -> None:
    app = _app(tmp_path)
    game = app.game
    assert game is not None
    ctl = game.ctl
    car = ctl.prompt.options[0]
    click(app, game.vehicle_screen_pos(str(car)))
    assert game.inspected == car and ctl.game.decisions == [] and "Inspecting" in app.status
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "inspect.png"))
    other = next(v.id for v in ctl.state.vehicles if v.id not in ctl.prompt.options)
    click(app, game.vehicle_screen_pos(other))  # any car may be looked at; it does not qualify
    assert game.inspected == other and "does not qualify" in app.status
    post_key(pygame.K_RETURN)
    pump(app)
    assert ctl.game.decisions == []  # Enter activates only a car that may activate
    click(app, game.vehicle_screen_pos(str(car)))
    post_key(pygame.K_RETURN)
    pump(app)
    assert ctl.game.decisions == [Activate(str(car))]
    assert game.inspected is None and game.selected == car


def test_help_shows_only_what_works_now(tmp_path: Path) -> None:
    app = _app(tmp_path)
    game = app.game
    assert game is not None
    keys = [k for k, _ in game.help_lines()]
    assert "Drag a template onto a glowing car" in keys
    assert "Drag a template onto the car, or 1 .. 9" not in keys  # no car activated yet
    assert "Click a slot on the table (grid)" not in keys and "Ctrl+Z" not in keys
    post_key(pygame.K_h)
    pump(app)
    assert app.help_visible
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "help.png"))
    post_key(pygame.K_h)
    pump(app)
    click(app, game.vehicle_screen_pos(str(game.ctl.prompt.options[0])))
    post_key(pygame.K_RETURN)
    pump(app)
    keys = [k for k, _ in game.help_lines()]
    assert "Drag a template onto the car, or 1 .. 9" in keys and "Ctrl+Z" in keys
    assert "Drag a template onto a glowing car" not in keys


def test_audience_votes_per_team_are_shown_when_the_module_is_on(tmp_path: Path) -> None:
    app = _app(tmp_path, audience=True)
    game = app.game
    assert game is not None
    state = game.ctl.state
    chips = game.phase_chips()
    assert [c.votes for c in chips] == [state.votes_of(p) for p in activation_order(state.round)]
    assert all("vote" in c.words() for c in chips)



def test_many_teams_chips_shrink_to_stay_clear_of_the_tool_buttons() -> None:
    from simulator.ui.phase_strip import Chip, fitted, strip_rects

    table = pygame.Rect(0, 34, 830, 540)
    chips = [Chip(f"Team {i}", (200, 60, 60), pole=i == 0, votes=3) for i in range(5)]
    wide, small = strip_rects(table, chips, 16)[-1].right, strip_rects(table, chips, 12)[-1].right
    assert small < wide
    limit = (small + wide) // 2
    size, rects = fitted(table, chips, limit)
    assert size < 16 and rects[-1].right <= limit
    assert fitted(table, chips, wide)[0] == 16
