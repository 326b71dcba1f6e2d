"""Files like any desktop program: dialogs, the data folder, recent files, New Game, Quit, questions first.

Every step is a real key press or mouse click posted to the headless window; the dialogs are pygame_gui's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from ui_events import click, click_dialog, post_key, pump

from simulator.gaslands.decisions import Activate
from simulator.scenario import saves as saving
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game
from simulator.ui.app import App
from simulator.ui.game_controller import GameController
from simulator.ui.modes.game import GameMode
from simulator.ui.user_files import Recent, data_dir

SIZE = (1280, 720)


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data folder; the working folder is another one, which must stay empty."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("GASLANDS_DATA_DIR", str(tmp_path / "data"))
    pygame.event.clear()
    return tmp_path / "data"


def _game(seed: int = 3) -> App:
    game = new_game(load_scenario(bundled_scenario("street_race.toml")), seed)
    ctl = GameController(game, autosave_path=data_dir() / "autosave.json", animate=False)
    return App.for_game(ctl, SIZE)


def _activate(app: App) -> None:
    assert app.game is not None
    ctl = app.game.ctl
    p = ctl.prompt
    vid = p.vehicles[0]  # type: ignore[attr-defined]
    assert ctl.decide(Activate(vid))
    app.update(1 / 60)


def test_save_asks_where_and_writes_into_the_data_folder(data: Path) -> None:
    app = _game()
    _activate(app)
    post_key(pygame.K_s, pygame.KMOD_LCTRL)
    pump(app)
    assert app.ctx.dialogs.is_open and app.ctx.dialogs.title == "Save the game as"
    click_dialog(app, "OK")
    saved = sorted((data / "games").glob("*.json"))
    assert len(saved) == 1 and saved[0].name.startswith("street_race-")
    assert json.loads(saved[0].read_text())["seed"] == 3
    assert "Saved" in app.status
    assert app.unsaved_work() == ""
    assert Recent.load().entries[0] == ("game", saved[0].resolve())
    assert list(Path.cwd().iterdir()) == []
    # the autosave went to the data folder too
    assert saving.load(data / "autosave.json").decisions == app.game.ctl.game.decisions  # type: ignore[union-attr]
    # the next Ctrl+S writes the same file without asking
    _activate_next(app)
    post_key(pygame.K_s, pygame.KMOD_LCTRL)
    pump(app)
    assert not app.ctx.dialogs.is_open
    assert len(saving.load(saved[0]).decisions) == 2


def _activate_next(app: App) -> None:
    from simulator.gaslands.bots import Bot

    assert app.game is not None
    ctl = app.game.ctl
    assert ctl.decide(Bot().decide(ctl.game))


def test_open_asks_before_replacing_an_unsaved_game_and_cancel_keeps_it(data: Path, tmp_path: Path) -> None:
    other = new_game(load_scenario(bundled_scenario("street_race.toml")), 9)
    other.decide(Activate(other.prompt.vehicles[0]))  # type: ignore[attr-defined]
    (data / "games").mkdir(parents=True)
    save = data / "games" / "other.json"
    saving.save(other, save)
    app = _game()
    _activate(app)
    before = list(app.game.ctl.game.decisions)  # type: ignore[union-attr]
    post_key(pygame.K_o, pygame.KMOD_LCTRL)
    pump(app)
    assert app.ctx.dialogs.title.startswith("Open")
    click_dialog(app, "Cancel")
    assert not app.ctx.dialogs.is_open
    app.files.open_path(save)  # as a pick in the Open dialog does
    assert app.ctx.dialogs.title == "Unsaved changes"
    click_dialog(app, "Cancel")
    assert app.game.ctl.game.decisions == before  # type: ignore[union-attr]
    app.files.open_path(save)
    click_dialog(app, "Open other.json")
    assert app.game.ctl.game.decisions == other.decisions  # type: ignore[union-attr]
    assert app.game.game_path == save  # type: ignore[union-attr]


def test_new_game_from_the_file_menu_with_a_question_first(data: Path) -> None:
    app = _game()
    _activate(app)
    click(app, next(b for b in app.buttons() if b.label == "File").rect[:2])
    assert app.ctx.dialogs.title == "File"
    click_dialog(app, "New game...  (Ctrl+N)")
    assert app.ctx.dialogs.title == "New game: which scenario?"
    click_dialog(app, "Death Race")
    assert "who plays" in app.ctx.dialogs.title
    click_dialog(app, "The first team here, bots play the others")
    assert app.ctx.dialogs.title == "Unsaved changes"
    click_dialog(app, "Start a new game")
    new = app.successor
    assert new is not None and isinstance(new.game, GameMode)
    assert new.game.ctl.scenario.name == "Death Race" and new.game.ctl.bots == {1}
    assert new.game.ctl.game.decisions == []


def test_closing_the_window_asks_when_something_is_unsaved(data: Path) -> None:
    app = _game()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    pump(app)
    assert app.closing  # nothing to lose: closes at once
    app = _game()
    _activate(app)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    pump(app)
    assert not app.closing and app.ctx.dialogs.title == "Unsaved changes"
    post_key(pygame.K_ESCAPE)
    pump(app)
    assert not app.ctx.dialogs.is_open and not app.closing
    post_key(pygame.K_q, pygame.KMOD_LCTRL)
    pump(app)
    click_dialog(app, "Quit")
    assert app.closing


def test_the_free_table_saves_a_rulings_file_in_the_data_folder_and_opens_it_again(data: Path) -> None:
    app = App.from_path(bundled_scenario("street_race.toml"), size=SIZE)
    assert app.free is not None
    app.free.set_gear(0)  # nothing selected: no change
    app.free.select(app.free.table.vehicles[0].id)
    app.free.set_gear(+1)
    assert app.unsaved_work()
    post_key(pygame.K_s, pygame.KMOD_LCTRL)
    pump(app)
    assert app.ctx.dialogs.title == "Save the rulings file as"
    click_dialog(app, "OK")
    saved = sorted((data / "rulings").glob("*.toml"))
    assert len(saved) == 1 and not app.unsaved_work()
    assert load_scenario(saved[0]).table.vehicles[0].gear == 2
    app.files.open_path(saved[0])
    assert app.successor is not None and app.successor.free is not None
    assert app.successor.free.table.vehicles[0].gear == 2
    assert list(Path.cwd().iterdir()) == []


def test_a_shipped_scenario_is_never_the_file_save_writes(data: Path) -> None:
    shipped = bundled_scenario("street_race.toml")
    before = shipped.read_bytes()
    app = App.from_path(shipped, size=SIZE)
    assert app.files.current_path() is None
    post_key(pygame.K_s, pygame.KMOD_LCTRL)
    pump(app)
    assert app.ctx.dialogs.is_open  # asks where, in the data folder
    click_dialog(app, "OK")
    assert shipped.read_bytes() == before
    assert len(list((data / "rulings").glob("*.toml"))) == 1
