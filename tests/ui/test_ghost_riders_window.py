"""Beverly's Ghost Riders in the window (p.100-101): the Graveyard Shift answered with a click, the ghosts'
dashboards say GHOST RIDER, and a Soul Token shows on its card and in the log as the engine's event says."""

from __future__ import annotations

from pathlib import Path

import pygame
from conftest import SIZE
from ui_events import post_mouse, pump

from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import Declare
from simulator.gaslands.events import SoulTokens
from simulator.gaslands.prompts import DeclarePrompt
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game, with_teams
from simulator.scenario.simulate import bot_teams
from simulator.ui.app import App
from simulator.ui.game_controller import GameController
from simulator.ui.panel_actions import Decide

SEED = 3
"""A game whose bots bring a Ghost Rider's template onto an enemy."""


def _haunted_race(tmp_path: Path) -> App:
    """A Street Race of a Beverly team (Blue) against Maxxine's, bots deploying, up to the Graveyard Shift."""
    scenario = load_scenario(bundled_scenario())
    teams = bot_teams(scenario, ("beverly", "maxxine"), 50, 0, 1)
    game = new_game(with_teams(scenario, teams), SEED)
    pygame.event.clear()
    ctl = GameController(game, autosave_path=tmp_path / "autosave.json")
    app = App.for_game(ctl, SIZE, game_path=tmp_path / "game.json")
    bot = Bot()
    for _ in range(30):
        p = ctl.prompt
        if isinstance(p, DeclarePrompt) and p.perk == "graveyard_shift":
            break
        ctl.decide(bot.decide(ctl.game))
    assert app.game is not None
    app.game.refresh()
    return app


def test_graveyard_shift_by_a_click_and_the_ghosts_dashboards(tmp_path: Path) -> None:
    app = _haunted_race(tmp_path)
    assert app.game is not None
    ctl = app.game.ctl
    p = ctl.prompt
    assert isinstance(p, DeclarePrompt) and p.perk == "graveyard_shift" and len(p.choices) >= 2
    living = p.choices[0]
    rect = pygame.Rect(app.game.panel().button(Decide(Declare(living))).rect)
    post_mouse(pygame.MOUSEBUTTONDOWN, rect.center)
    post_mouse(pygame.MOUSEBUTTONUP, rect.center)
    pump(app)
    ghosts = [v.id for v in ctl.state.vehicles if v.has("Ghost Rider")]
    assert ghosts and living not in ghosts
    notes = {d.vehicle_id: d.note for d in app.game.dashboards()}
    assert all("GHOST RIDER" in notes[g] for g in ghosts) and "GHOST RIDER" not in notes[living]
    # bots play on until a ghost's template touches an enemy: the engine's Soul Token is on its card
    bot = Bot()
    for _ in range(400):
        if ctl.over() or any(isinstance(e, SoulTokens) for e in ctl.game.log):
            break
        ctl.decide(bot.decide(ctl.game))
    harvested = [e for e in ctl.game.log if isinstance(e, SoulTokens)]
    assert harvested and harvested[0].text.startswith(f"{harvested[0].name} gains a Soul Token")
    app.game.refresh()
    notes = {d.vehicle_id: d.note for d in app.game.dashboards()}
    assert f"{harvested[-1].count} Soul Token" in notes[harvested[-1].vehicle]
