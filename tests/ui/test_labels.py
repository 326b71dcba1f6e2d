"""Labels never overlap: on every bundled scenario's render no label covers another label, a car or a line end."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from simulator.errors import InputFileError
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.ui.draw import piece_name
from simulator.ui.labels import Label, LabelBoard, overlaps
from simulator.ui.window import open_app

SCENARIOS = sorted(p for p in bundled_scenario().parent.glob("*.toml")
                   if "slaughter" not in p.stem and "doomtown" not in p.stem)


def _board_of(app: object) -> LabelBoard:
    mode = getattr(app, "mode")  # noqa: B009
    board = getattr(mode, "labels", None)
    assert isinstance(board, LabelBoard), type(mode)
    return board


def _check(board: LabelBoard) -> None:
    rects = board.rects()
    assert rects, "no labels drawn"
    assert overlaps(rects) == [], [(board.labels[i].text, board.labels[j].text) for i, j in overlaps(rects)]
    for lab, rect in zip(board.labels, rects, strict=True):
        assert rect.collidelist(board.keep_clear) < 0, lab.text  # no car, no line end under a label
        assert board.bounds.contains(rect), lab.text


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_no_two_labels_overlap_on_a_bundled_scenario(path: Path, size: tuple[int, int], tmp_path: Path) -> None:
    try:
        load_scenario(path)
    except InputFileError:
        pytest.skip("not a Gaslands scenario")
    app = open_app(path, size, seed=1)
    app.draw(pygame.Surface(size))
    _check(_board_of(app))


def test_a_race_in_play_keeps_its_labels_apart(tmp_path: Path) -> None:
    """Cars bunched mid-game (Death Race, bots) still get their names beside them, apart."""
    from simulator.gaslands.bots import Bot

    app = open_app(bundled_scenario("death_race.toml"), (1280, 720), seed=5)
    assert app.game is not None
    surface = pygame.Surface((1280, 720))
    bot = Bot()
    for step in range(90):
        app.game.ctl.decide(bot.decide(app.game.ctl.game))
        if step % 15 == 14:
            app.game.refresh()
            app.draw(surface)
            _check(_board_of(app))


def test_labels_asked_at_one_point_are_spread_with_leader_lines() -> None:
    board = LabelBoard(pygame.Rect(0, 0, 400, 300))
    board.avoid(pygame.Rect(180, 130, 40, 40))  # a car
    for word in ("crates", "treacherous", "FINISH"):
        board.add(Label(word, (200.0, 150.0)))
    rects = board.rects()
    assert overlaps(rects) == [] and all(r.collidelist(board.keep_clear) < 0 for r in rects)
    surface = pygame.Surface((400, 300))
    board.draw(surface)
    assert surface.get_at((200, 150))[:3] != (0, 0, 0)  # the leader lines' dot on the point named


def test_pieces_are_named_never_shown_by_id() -> None:
    assert piece_name("", "burnt_out_bus-2") == "burnt out bus"
    assert piece_name("", "rock3") == "rock3"
    assert piece_name("", "crates-12") == "crates"
    assert piece_name("the old tower", "tower-1") == "the old tower"


def test_labels_of_points_out_of_view_are_hidden_not_pinned_to_the_edge() -> None:
    from simulator.ui.labels import Label, LabelBoard

    board = LabelBoard(pygame.Rect(0, 0, 400, 300))
    inside = board.add(Label("rock", (200.0, 150.0)))
    outside = board.add(Label("crates", (460.0, 150.0)))  # zoomed away: the point is right of the view
    near = board.add(Label("Red Car", (405.0, 150.0), reach_px=10.0))  # half a car in view
    board.place()
    assert not inside.hidden and outside.hidden and not near.hidden
    assert len(board.rects()) == 2 and all(pygame.Rect(0, 0, 400, 300).contains(r) for r in board.rects())
