"""Colour-blind-safe team colours and the legend of the table's markers (issue 15, item 8), through real keys."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest
from conftest import SIZE
from test_game_window import _game_app
from ui_events import post_key, post_mouse, pump

from simulator.ui import palette
from simulator.ui.app import App
from simulator.ui.draw import hex_colour
from simulator.ui.help import SHELL_HELP
from simulator.ui.legend import draw_legend, entries
from simulator.ui.user_files import Settings, data_dir

RED, BLUE = hex_colour("#d23c32"), hex_colour("#2f6fd6")  # the Street Race's teams
VERMILLION, OKABE_BLUE = hex_colour("#d55e00"), hex_colour("#0072b2")


@pytest.fixture(autouse=True)
def _palette_off() -> Iterator[None]:
    yield
    palette.use_colour_blind(False)


def _count(app: App, colour: tuple[int, int, int]) -> int:
    """How many pixels of the drawn window are exactly ``colour``."""
    surface = pygame.Surface(app.layout.size)
    app.draw(surface)
    rgb = pygame.surfarray.pixels3d(surface)
    return int(np.all(rgb == np.array(colour, dtype=rgb.dtype), axis=2).sum())


def test_palette_keeps_teams_apart_and_near_their_own_colours() -> None:
    assert palette.team_colours(("#d23c32", "#2f6fd6")) == ("#d55e00", "#0072b2")
    four = palette.team_colours(("#d23c32", "#e0b020", "#2f6fd6", "#3aa655"))
    assert four == ("#d55e00", "#f0e442", "#0072b2", "#009e73")  # red, yellow, blue, green
    nine = palette.team_colours(("",) * 9)
    assert len(set(nine[:7])) == 7 and nine[7:] == nine[:2]  # seven apart, then the palette repeats
    assert palette.team_hex(["#d23c32"], 0) == "#d23c32" and palette.team_hex(["#d23c32"], 3) == palette.NO_COLOUR
    palette.use_colour_blind(True)
    assert palette.team_hex(["#d23c32", "#2f6fd6"], 1) == "#0072b2"


def test_ctrl_b_redraws_the_game_in_the_colour_blind_palette_and_keeps_the_setting(tmp_path: Path) -> None:
    app = _game_app(tmp_path, 3)
    assert _count(app, RED) > 50 and _count(app, BLUE) > 50
    assert _count(app, VERMILLION) == 0 and _count(app, OKABE_BLUE) == 0
    post_key(pygame.K_b, pygame.KMOD_LCTRL)
    pump(app)
    assert app.settings.colour_blind and "Okabe-Ito" in app.status
    assert json.loads((data_dir() / "settings.json").read_text())["colour_blind"] is True
    assert _count(app, VERMILLION) > 50 and _count(app, OKABE_BLUE) > 50  # cars, cards, the turn line
    assert _count(app, RED) == 0 and _count(app, BLUE) == 0
    post_key(pygame.K_b, pygame.KMOD_LCTRL)
    pump(app)
    assert not Settings.load().colour_blind
    assert _count(app, RED) > 50 and _count(app, VERMILLION) == 0


def test_the_free_table_follows_the_option_and_a_window_opens_with_the_saved_one(app: App) -> None:
    assert _count(app, RED) > 50
    window = App(app.mode.scenario, SIZE, settings=Settings(colour_blind=True))
    assert _count(window, VERMILLION) > 50 and _count(window, RED) == 0


def test_ctrl_l_shows_the_legend_with_the_teams_in_their_drawn_colours(tmp_path: Path) -> None:
    app = _game_app(tmp_path, 3)
    assert any(k == "Ctrl+L" for k, _ in SHELL_HELP)
    assert any(k == "Ctrl+B" for k, _ in SHELL_HELP)
    post_key(pygame.K_l)  # L alone is the game's line-of-fire check, not the legend
    pump(app)
    assert not app.legend_visible
    post_key(pygame.K_l, pygame.KMOD_LCTRL)
    pump(app)
    assert app.legend_visible
    surface = pygame.Surface(app.layout.size)
    app.draw(surface)
    rows = draw_legend(surface, app.mode.scenario)
    red_team = app.mode.scenario.spec.player[0].name
    swatch = rows[red_team]
    assert surface.get_at(swatch.center)[:3] == RED
    post_key(pygame.K_b, pygame.KMOD_LCTRL)  # the option while the legend is open: the legend follows
    pump(app)
    app.draw(surface)
    rows = draw_legend(surface, app.mode.scenario)
    assert surface.get_at(rows[red_team].center)[:3] == VERMILLION
    post_key(pygame.K_ESCAPE)
    pump(app)
    assert not app.legend_visible
    post_key(pygame.K_l, pygame.KMOD_LCTRL)
    post_mouse(pygame.MOUSEBUTTONDOWN, (10, 300))
    pump(app)
    assert not app.legend_visible  # a click closes it too


def test_the_legend_names_every_marker_the_table_draws(app: App) -> None:
    words = [w for _, rows in entries(app.mode.scenario) for _, w in rows]
    for needle in ("Wreck", "Gear and Hazard", "collision", "Finish Line", "Slide", "Tall", "gate",
                   "Hazardous template", "may activate"):
        assert any(needle in w for w in words), needle
    surface = pygame.Surface(SIZE)
    rows = draw_legend(surface, app.mode.scenario)
    card = pygame.Rect(0, 0, *SIZE)
    rects = list(rows.values())
    assert all(card.contains(r) for r in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])


def test_the_settings_menu_switches_the_palette_and_opens_the_legend_by_mouse(tmp_path: Path) -> None:
    from ui_events import click, click_dialog

    app = _game_app(tmp_path, 3)
    app.update(1 / 60)
    app.draw(pygame.Surface(app.layout.size))
    click(app, next(b for b in app.buttons() if b.label == "File").rect[:2])
    click_dialog(app, "Settings...")
    assert app.ctx.dialogs.title == "Settings"
    click_dialog(app, "Colour-blind-safe team colours: off  (Ctrl+B toggles)")
    assert app.settings.colour_blind and _count(app, VERMILLION) > 50
    app.files.show_settings()
    click_dialog(app, "Legend of the table's colours and marks  (Ctrl+L)")
    assert app.legend_visible
