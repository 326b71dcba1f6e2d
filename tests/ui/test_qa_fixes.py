"""Findings of a QA pass of main (a new user following the README), each checked in the window."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pygame
import pytest
from ui_events import click

from simulator.errors import IllegalChoice
from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import Deploy
from simulator.gaslands.prompts import DeployPrompt, ReactPrompt
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import team_warnings
from simulator.ui import draw
from simulator.ui.app import App
from simulator.ui.modes.replay import ReplayMode, describe
from simulator.ui.window import game_app


def _bot_game_until(tmp_path: Path, wanted: type, seeds: range = range(1, 30), limit: int = 400) -> App:
    """A Street Race played by bots until its prompt is a ``wanted`` one (the first seed that gets there)."""
    for seed in seeds:
        app = game_app(bundled_scenario("street_race.toml"), (1400, 900), seed=seed,
                       autosave=tmp_path / f"autosave{seed}.json")
        mode = app.game
        assert mode is not None
        bot = Bot()
        for _ in range(limit):
            if mode.ctl.over():
                break
            p = mode.ctl.prompt
            if isinstance(p, wanted) and (not isinstance(p, ReactPrompt) or p.vehicle_id != p.active_id):
                mode.refresh()
                return app
            mode.ctl.decide(bot.decide(mode.ctl.game))
        mode.refresh()
    raise AssertionError(f"no {wanted.__name__} in the bot games tried")


def test_active_badge_stays_on_the_activated_car_while_another_reacts(tmp_path: Path) -> None:
    app = _bot_game_until(tmp_path, ReactPrompt)
    assert app.game is not None
    ctl = app.game.ctl
    p = ctl.prompt
    assert isinstance(p, ReactPrompt)
    notes = {d.vehicle_id: d.note for d in app.game.dashboards()}
    assert p.vehicle_id != p.active_id  # the car hit reacts (p.53); the car driving is still the active one
    assert "ACTIVE" not in notes[p.vehicle_id]
    assert "ACTIVE" in notes[p.active_id]
    status = ctl.vehicle_status(p.vehicle_id)
    assert status is not None and "ACTIVE" not in status.note
    app.draw(pygame.Surface((1400, 900)))


def _drawn_texts(app: App, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string the window draws in one frame."""
    texts: list[str] = []
    real = draw.text

    def spy(surface: pygame.Surface, message: str, *args: Any, **kw: Any) -> pygame.Rect:
        texts.append(message)
        return real(surface, message, *args, **kw)

    monkeypatch.setattr(draw, "text", spy)
    app.draw(pygame.Surface(app.layout.size))
    monkeypatch.setattr(draw, "text", real)
    return texts


def test_starting_grid_slots_are_named_as_the_prompt_names_them(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    app = game_app(bundled_scenario("death_race.toml"), (1400, 900), seed=1, autosave=tmp_path / "a.json")
    assert app.game is not None
    ctl = app.game.ctl
    p = ctl.prompt
    assert isinstance(p, DeployPrompt) and not p.spawn
    texts = _drawn_texts(app, monkeypatch)
    assert "Rank 1, place 1" in texts
    assert not [t for t in texts if t.startswith("slot ")]
    with pytest.raises(IllegalChoice, match="Rank 3, place 1 is not open"):
        ctl.game.decide(Deploy(p.vehicles[0], 2 * p.columns))
    vid, slot = p.vehicles[0], p.slots[0]
    ctl.decide(Deploy(vid, slot))
    replay = ReplayMode(app.ctx, ctl.game, None)
    replay.seek(1)
    assert describe(replay.entry.decision, ctl.name, replay.asked()) == f"Deploy {ctl.name(vid)}: Rank 1, place 1"


def test_an_illegal_team_is_seated_with_a_warning(tmp_path: Path) -> None:
    teams = Path(__file__).resolve().parents[1] / "fixtures" / "teams"
    for name in ("street_race_teams.toml", "speed_freaks.toml"):
        shutil.copy(teams / name, tmp_path / name)
    (tmp_path / "rust_buckets.toml").write_text(
        (teams / "rust_buckets.toml").read_text(encoding="utf-8").replace("cans = 50", "cans = 30"), encoding="utf-8")
    scenario = load_scenario(tmp_path / "street_race_teams.toml")
    warnings = team_warnings(scenario)
    assert len(warnings) == 1
    assert warnings[0].startswith("Red Team's team 'Rust Buckets' is not legal (1 problem, gaslands team check): ")
    assert "team over its Cans" in warnings[0] and "(p.64)" in warnings[0]
    app = game_app(tmp_path / "street_race_teams.toml", (1400, 900), seed=1, autosave=tmp_path / "a.json")
    assert app.game is not None and any(v.id.startswith("red-") for v in app.game.ctl.state.vehicles)  # seated
    assert "'Rust Buckets' is not legal" in app.status
    legal = game_app(teams / "street_race_teams.toml", (1400, 900), seed=1, autosave=tmp_path / "b.json")
    assert "not legal" not in legal.status


def test_a_selected_card_has_no_stray_gear_label(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    assert app.free is not None
    click(app, app.free.vehicle_screen_pos("red-car"))
    assert app.free.selected == "red-car"
    texts = _drawn_texts(app, monkeypatch)
    assert "Red Car" in texts and "Gear" in texts
    assert "gear" not in texts
