"""Maxximum Drift in the window (p.99): with two Slides left the question draws each Slide the car may make
(the Slide template and the Medium Straight, both facings off a Straight) and is answered with a click."""

from __future__ import annotations

from pathlib import Path

import pygame
from conftest import SIZE
from ui_events import post_mouse, pump

from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import Activate, ChooseTemplate, Declare, PushIt, RollSkid, SpendShifts
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.prompts import (
    ActivatePrompt,
    DeclarePrompt,
    PushItPrompt,
    ShiftsPrompt,
    SkidPrompt,
    SlideFacingPrompt,
)
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game, with_teams
from simulator.scenario.simulate import bot_teams
from simulator.ui.app import App
from simulator.ui.game_controller import GameController
from simulator.ui.modes.game import SLIDE_COLOUR
from simulator.ui.panel_actions import Decide

SEED = 5
"""A Street Race whose Maxxine car rolls two Slides (and two Shifts) on its first Medium Straight."""


def test_maxximum_drift_draws_each_slide_and_takes_a_click(tmp_path: Path) -> None:
    scenario = load_scenario(bundled_scenario())
    game = new_game(with_teams(scenario, bot_teams(scenario, ("maxxine", "rutherford"), 50, 0, SEED)), SEED)
    bot = Bot()
    while not (isinstance(game.prompt, ActivatePrompt) and game.prompt.player == 0):
        game.decide(bot.decide(game))
    vid = game.prompt.options[0]
    game.decide(Activate(vid))
    game.decide(ChooseTemplate("medium_straight"))
    assert isinstance(game.prompt, SkidPrompt)
    game.decide(RollSkid(game.prompt.max_dice))
    if isinstance(game.prompt, PushItPrompt):
        game.decide(PushIt())
    p = game.prompt
    assert isinstance(p, ShiftsPrompt) and p.roll.faces.count(SkidFace.SLIDE) == 2
    game.decide(SpendShifts())  # the Shifts kept for nothing: both Slides stand
    pygame.event.clear()
    ctl = GameController(game, autosave_path=tmp_path / "autosave.json")
    app = App.for_game(ctl, SIZE, game_path=tmp_path / "game.json")
    assert app.game is not None
    app.game.refresh()
    drift = ctl.prompt
    assert isinstance(drift, DeclarePrompt) and drift.perk == "maxximum_drift"
    assert drift.choices == ("slide", "medium_straight") and len(ctl.slide_endings()) == 4
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "drift.png"))
    x, y, w, h = app.layout.table
    slide = [surface.get_at((px, py)) for px in range(x, x + w, 3) for py in range(y, y + h, 3)]
    assert sum(1 for c in slide if (c.r, c.g, c.b) == SLIDE_COLOUR) > 20  # the Slide templates' outlines
    rect = pygame.Rect(app.game.panel().button(Decide(Declare("medium_straight"))).rect)
    post_mouse(pygame.MOUSEBUTTONDOWN, rect.center)
    post_mouse(pygame.MOUSEBUTTONUP, rect.center)
    pump(app)
    facing = ctl.prompt
    assert isinstance(facing, SlideFacingPrompt) and facing.slide_template == "medium_straight"
