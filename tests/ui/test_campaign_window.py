"""A campaign in the window, driven by real mouse events: the pre-game screen, a game, the post-game screen,
the campaign file written (p.154-164)."""

from __future__ import annotations

from pathlib import Path

import pygame
from conftest import SIZE
from ui_events import post_mouse, pump

from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.campaign import TeamRecord
from simulator.gaslands.teams import Fitting, Team, TeamVehicle
from simulator.scenario.campaign_file import load_campaign, new_campaign, save_campaign
from simulator.ui.app import App
from simulator.ui.modes.campaign import CampaignGameMode, CampaignMode


def _click(app: App, rect: tuple[int, int, int, int]) -> None:
    post_mouse(pygame.MOUSEBUTTONDOWN, pygame.Rect(rect).center)
    post_mouse(pygame.MOUSEBUTTONUP, pygame.Rect(rect).center)
    pump(app)


def _button(mode: CampaignMode, start: str) -> tuple[int, int, int, int]:
    return next(b.rect for b in mode.panel_buttons() if b.label.startswith(start))


def test_a_campaign_game_from_the_pre_game_screen_to_the_saved_file(tmp_path: Path) -> None:
    car = TeamVehicle("car", "Old Faithful", (Fitting("machine_gun", "front"),))
    teams = [TeamRecord("red", "Red Team", "#d23c32", Team("Rust", None, 30, (car,)), 30),
             TeamRecord("blue", "Blue Team", "#2f6fd6", Team("Dust", None, 30, (car,)), 30)]
    path = tmp_path / "season.toml"
    save_campaign(new_campaign("Season", "televised", teams, ("flag_tag", "death_race"), seed=2), path)
    pygame.event.clear()
    app = App.for_campaign(path, SIZE)
    mode = app.mode
    assert isinstance(mode, CampaignMode)
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    _click(app, _button(mode, "Skirmish: Zombie Bash"))
    assert mode.next.scenario == "zombie_bash" and not mode.next.televised
    _click(app, _button(mode, "Televised Event"))
    _click(app, _button(mode, "Who plays"))
    _click(app, _button(mode, "Play game 1"))
    game_app = app.successor
    assert game_app is not None and isinstance(game_app.mode, CampaignGameMode)
    ctl = game_app.mode.ctl
    assert ctl.game.options.objective.key == "flag_tag" and ctl.bots == {0, 1}
    play_bot_game(ctl.game, Bot(), 5_000)
    game_app.mode.refresh()
    back = next(b for b in game_app.mode.buttons() if b.label == "Campaign")
    back.run()
    post_app = game_app.successor
    assert post_app is not None and isinstance(post_app.mode, CampaignMode) and post_app.mode.finished is not None
    post_app.draw(surface)
    assert post_app.mode.unsaved_work()
    _click(post_app, _button(post_app.mode, "Save and go on"))
    c = load_campaign(path)
    assert len(c.games) == 1 and c.games[0].scenario == "flag_tag" and c.events_played == 1
    assert not post_app.mode.unsaved_work() and post_app.mode.next.scenario == "death_race"
