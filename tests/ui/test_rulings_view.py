"""The rulings view (issue 3, item 6): questions asked with real events, answers drawn and saved."""

from __future__ import annotations

import math
from pathlib import Path

import pygame
from ui_events import drag, post_key, pump

from simulator.geometry.pose import Pose
from simulator.scenario.loader import load_scenario
from simulator.ui.app import App
from simulator.ui.draw import CONTACT


def _rulings_long_straight(app: App) -> None:
    post_key(pygame.K_r)
    pump(app)
    assert app.mode is app.rulings
    app.rulings.select("red-car")
    app.rulings.set_gear(+1)
    drag(app, app.rulings.tray_cell_centre("long_straight"), app.rulings.vehicle_screen_pos("red-car"))
    assert app.rulings.pending is not None and app.rulings.pending.move.template == "long_straight"


def test_collision_ruling_is_drawn_and_explained(app: App) -> None:
    _rulings_long_straight(app)
    out = app.rulings.outcome()
    assert out is not None and out.interrupted
    assert [c.with_id for c in out.collisions] == ["rock-1"]
    assert out.collisions[0].orientation == "head_on"
    from simulator.ui.rulings_view import rulings_lines

    text = " ".join(t for t, _ in rulings_lines(app.rulings.table, app.ctx.template_set, app.rulings.rulings, out, app.rulings.vehicle_name))
    assert "Interrupted (p.45-46)" in text and "Head-On" in text and "rock-1" in text
    surface = pygame.Surface((1400, 900))
    app.draw(surface)
    px, py = app.view.to_screen_int(*out.collisions[0].point)
    colours = {tuple(surface.get_at((px + dx, py + dy)))[:3] for dx in range(-3, 4) for dy in range(-3, 4)}
    assert CONTACT in colours


def test_answer_follows_an_obstacle_dragged_by_hand(app: App) -> None:
    _rulings_long_straight(app)
    assert app.rulings.outcome().interrupted
    rock = app.rulings.table.obstacle("rock-1").polygon.centroid
    start = app.view.to_screen(rock.x, rock.y)
    end = app.view.to_screen(rock.x, rock.y - 120.0)
    post_mouse_down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(start[0]), round(start[1])), button=1)
    pygame.event.post(post_mouse_down)
    pump(app)
    for i in range(1, 11):
        y = start[1] + (end[1] - start[1]) * i / 10
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(start[0]), round(y)), rel=(0, 0),
                                             buttons=(1, 0, 0)))
        pump(app)
        app.update(1 / 60)
    for _ in range(30):
        app.update(1 / 60)
    assert app.rulings.hand is not None and app.rulings.hand.piece_id == "rock-1"
    assert not app.rulings.outcome().interrupted  # live, before the rock is put down
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(round(end[0]), round(end[1])), button=1))
    pump(app)
    moved = app.rulings.table.obstacle("rock-1").polygon.centroid
    assert moved.y < rock.y - 60.0
    assert not app.rulings.outcome().interrupted


def test_shoot_question_picks_attacker_and_target(app: App) -> None:
    post_key(pygame.K_r)
    post_key(pygame.K_x)
    pump(app)
    assert app.rulings.rulings.question == "shoot"
    t = app.rulings.table
    app.rulings.box.table = t.with_vehicle(t.vehicle("blue-car").moved(Pose(470.0, 490.0, 90.0)))
    for vid in ("red-car", "blue-car"):
        pos = app.rulings.vehicle_screen_pos(vid)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        pump(app)
    assert (app.rulings.rulings.attacker, app.rulings.rulings.target) == ("red-car", "blue-car")
    post_key(pygame.K_d)
    post_key(pygame.K_d)
    pump(app)
    assert app.rulings.rulings.range_name == "double"
    shot = app.rulings.rulings.shot(app.rulings.table, app.ctx.template_set)
    assert shot is not None
    assert shot.result is not None
    if shot.result is not None:
        assert shot.result.in_arc_and_range and shot.result.cover
        assert "rock-1" in shot.result.cover_from


def test_save_and_load_rulings_file(app: App, tmp_path: Path) -> None:
    post_key(pygame.K_r)
    pump(app)
    app.rulings.select("red-car")
    drag(app, app.rulings.tray_cell_centre("turn"), app.rulings.vehicle_screen_pos("red-car"))
    post_key(pygame.K_RIGHTBRACKET)
    pump(app)
    path = tmp_path / "situation.toml"
    app.rulings.save_rulings(path)
    assert path.exists() and not list(tmp_path.glob("*.tmp"))
    scenario = load_scenario(path)
    assert [v.id for v in scenario.table.vehicles] == [v.id for v in app.rulings.table.vehicles]
    for a, b in zip(scenario.table.vehicles, app.rulings.table.vehicles, strict=True):
        assert math.dist((a.pose.x_mm, a.pose.y_mm), (b.pose.x_mm, b.pose.y_mm)) < 1e-6
    assert scenario.spec.query[0]["template"] == "turn" and scenario.spec.query[0]["spin_deg"] == 15.0
    fresh = App(load_scenario(path))
    assert fresh.free is not None
    fresh.free.load_rulings(path)
    assert fresh.rulings is not None and fresh.mode is fresh.rulings
    assert fresh.rulings.pending is not None and fresh.rulings.pending.move == app.rulings.pending.move
    assert fresh.rulings.table.obstacle("rock-1").polygon.equals_exact(app.rulings.table.obstacle("rock-1").polygon, 1e-3)


def test_rulings_file_opens_on_its_query_zoomed_in() -> None:
    """A rulings file opens in rulings mode on the asked query, zoomed onto it (issue 3, item 6)."""
    from pathlib import Path

    from simulator.ui.app import App

    case = Path(__file__).resolve().parents[1] / "cases" / "move_tbone.toml"
    app = App.from_path(case)
    assert app.mode is app.rulings
    assert app.rulings.pending is not None
    out = app.rulings.outcome()
    assert out is not None and out.collisions
    whole = App.from_path(case)
    whole.ctx.canvas.fit()
    assert app.view.scale_px_per_mm > whole.view.scale_px_per_mm  # zoomed in on the question


def test_unknown_query_is_refused() -> None:
    from pathlib import Path

    import pytest

    from simulator.ui.app import App

    case = Path(__file__).resolve().parents[1] / "cases" / "move_tbone.toml"
    with pytest.raises(KeyError, match="no query"):
        App.from_path(case, query="nonesuch")


def test_saving_keeps_the_files_other_queries(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Ctrl+S from a rulings file writes back every query, the shown one updated (QA finding)."""
    import shutil
    import tomllib
    from pathlib import Path

    from simulator.ui.app import App

    src = Path(__file__).resolve().parents[1] / "cases" / "move_final_turn.toml"
    case = tmp_path / "case.toml"
    shutil.copy(src, case)
    before = tomllib.loads(case.read_text())["query"]
    app = App.from_path(case, query=str(before[1].get("id", 2)))
    assert app.rulings.shown == str(before[1].get("id", 2))
    app.rulings.save_rulings(app.rulings.rulings_path)
    after = tomllib.loads(case.read_text())["query"]
    assert [q.get("id") for q in after] == [q.get("id") for q in before]
    assert after[1]["template"] == before[1]["template"]


def test_query_by_index_and_status_names_the_shown_query() -> None:
    from pathlib import Path

    from simulator.ui.app import App

    case = Path(__file__).resolve().parents[1] / "cases" / "move_final_turn.toml"
    app = App.from_path(case, query="2")
    assert app.rulings.shown is not None and f"query {app.rulings.shown} (2 of" in app.status


def test_question_buttons_answer_real_clicks(app: App) -> None:
    """Every question button in the panel does what it says when clicked (QA: they did nothing)."""
    from ui_events import click

    post_key(pygame.K_r)
    pump(app)
    mode = app.rulings

    def button(label: str) -> tuple[int, int]:
        app.draw(pygame.Surface(app.layout.size))
        b = next(b for b in mode.question_buttons() if b.label == label)
        return pygame.Rect(b.rect).center

    click(app, button("Shoot question (X)"))
    assert mode.rulings.question == "shoot"
    click(app, button("turret"))
    assert mode.rulings.arc == "turret"
    click(app, button("large burst"))
    assert mode.rulings.range_name == "large_burst"
    click(app, button("Indirect (I)"))
    assert mode.rulings.indirect
    mode.rulings.pick("red-car")
    click(app, button("Clear shot"))
    assert mode.rulings.attacker is None
    click(app, button("Move question"))
    assert mode.rulings.question == "move"


def test_unknown_rulings_action_is_refused() -> None:
    import pytest

    from simulator.ui.rulings_view import RulingsState

    state = RulingsState()
    for action in ("rulings:arc=turret", "arc=sideways", "range=far", "nonesuch"):
        with pytest.raises(ValueError, match="unknown rulings action"):
            state.apply(action)
    assert state.apply("arc=turret") == "Shot: turret arc, medium range" and state.arc == "turret"
