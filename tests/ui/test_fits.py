"""The window fits any laptop: 1280x720 and 1920x1080 with nothing cut off, resized by real events, a UI scale."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pygame
import pytest
from ui_events import pump

from simulator.gaslands.bots import Bot
from simulator.scenario.loader import bundled_scenario
from simulator.ui.app import App
from simulator.ui.dashboard import COMPACT_PX
from simulator.ui.modes.game import LOG_MIN_PX, LOG_TIGHT_PX
from simulator.ui.scaling import MIN_POINTS, effective_scale, first_size, points, to_points
from simulator.ui.window import game_app

SIZES = [(1280, 720), (1920, 1080)]


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return pygame.Rect(outer).contains(pygame.Rect(inner))


def _check_shell(app: App) -> None:
    """Top-bar buttons in the bar, right of the title, none over another; the tray never over the table."""
    bar = app.buttons()
    for b in bar:
        assert _inside(b.rect, app.layout.top) and b.rect[0] >= 360, b.label
    for a, b in pairwise(sorted(bar, key=lambda b: b.rect[0])):
        assert not pygame.Rect(a.rect).colliderect(pygame.Rect(b.rect)), (a.label, b.label)
    assert not pygame.Rect(app.layout.tray).colliderect(pygame.Rect(app.layout.table))
    assert not pygame.Rect(app.layout.panel).colliderect(pygame.Rect(app.layout.table))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("race", ["death_race.toml", "street_race.toml", "arena_of_death.toml"])
def test_every_prompt_of_a_race_fits_the_panel(size: tuple[int, int], race: str, tmp_path: Path) -> None:
    app = game_app(bundled_scenario(race), size, seed=5, autosave=tmp_path / "autosave.json")
    mode = app.game
    assert mode is not None
    bot = Bot()
    surface = pygame.Surface(size)
    panel_rect = app.layout.panel
    for step in range(160):
        if mode.ctl.over():
            break
        _check_shell(app)
        log = mode.log_rect()
        assert log[3] >= LOG_TIGHT_PX and log[1] + log[3] <= panel_rect[1] + panel_rect[3]
        assert log[3] >= LOG_MIN_PX or mode.panel().rect[3] > mode._prompt_room()  # six lines unless the prompt needs
        for _, card in mode.card_rects():
            assert card[3] >= COMPACT_PX and _inside(card, panel_rect)
        panel = mode.panel()
        for b in panel.buttons:  # every answer to the prompt is on screen, above the log
            assert _inside(b.rect, panel_rect) and b.rect[1] + b.rect[3] <= log[1], (step, b.label)
        if panel.slider is not None:
            assert panel.slider.rect[1] + panel.slider.rect[3] <= log[1]
        if step % 20 == 0:
            app.draw(surface)
        mode.ctl.decide(bot.decide(mode.ctl.game))
        mode.refresh()


def test_cards_keep_gear_hull_and_hazard_with_eight_cars() -> None:
    from simulator.ui.dashboard import card_rects

    ids = [f"car{i}" for i in range(8)]
    rects = card_rects((0, 0, 424, 200), ids)
    assert all(r[3] >= COMPACT_PX for _, r in rects)
    assert all(_inside(r, (0, 0, 424, 200)) for _, r in rects)  # two columns of compact cards
    assert len({r[0] for _, r in rects}) == 2


@pytest.mark.parametrize("size", SIZES)
def test_free_table_and_rulings_fit(size: tuple[int, int]) -> None:
    app = App.from_path(Path(__file__).resolve().parents[1] / "cases" / "move_final_turn.toml", size=size)
    surface = pygame.Surface(size)
    for mode in (app.rulings, app.free):
        assert mode is not None
        app.switch(mode)
        app.draw(surface)
        _check_shell(app)
        buttons = mode.panel_buttons()
        for b in buttons:
            assert _inside(b.rect, app.layout.panel), b.label
        for a in buttons:
            for b in buttons:
                assert a is b or not pygame.Rect(a.rect).colliderect(pygame.Rect(b.rect)), (a.label, b.label)
        for _, card in mode.card_rects():
            assert card[3] >= COMPACT_PX


def test_a_resize_event_reflows_the_window(tmp_path: Path) -> None:
    app = game_app(bundled_scenario("death_race.toml"), (1400, 900), seed=2, autosave=tmp_path / "a.json")
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1280, 720), w=1280, h=720))
    pump(app)
    assert app.layout.size == (1280, 720)
    assert app.layout.panel[0] + app.layout.panel[2] == 1280
    assert app.view.rect == app.layout.table
    _check_shell(app)


def test_the_window_opens_within_the_display_and_scales() -> None:
    assert first_size((1366, 768)) == (1229, 691)  # at most 90 % of a small laptop
    assert first_size((3840, 2160)) == (1400, 900)
    assert first_size(None) == (1400, 900)
    small = effective_scale((1229, 691), 1.0)
    assert small < 1.0 and points((1229, 691), small)[0] >= MIN_POINTS[0] - 1
    assert effective_scale((2560, 1440), 1.5) == 1.5 and points((2560, 1440), 1.5) == (1707, 960)
    assert effective_scale((1920, 1080), 2.0) == 1.5  # never below 1280x720 points
    e = to_points(pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 150), rel=(30, 15), buttons=(1, 0, 0)), 1.5)
    assert e.pos == (200, 100) and e.rel == (20, 10)


def test_a_long_label_never_spills_out_of_its_button() -> None:
    from simulator.ui.widgets import Button, draw_button

    surface = pygame.Surface((300, 60))
    surface.fill((0, 0, 0))
    label = "[ ] Handgun -> Red Buggy (OWN TEAM, medium, cover -1)"
    draw_button(surface, Button((100, 10, 120, 24), label, None), 17)
    outside = [surface.get_at((x, y))[:3] for x in range(300) for y in range(60)
               if not pygame.Rect(100, 10, 120, 24).collidepoint(x, y)]
    assert set(outside) == {(0, 0, 0)}  # smaller text, then cut short with an ellipsis: all inside
