"""Saving a rulings file over an existing one keeps what the person wrote (issue 9, D10; tomlkit).

The rulings view's document (ui/rulings_view.rulings_document) is written into the existing file by
simulator/scenario/rulings_file.py: comments, layout and unchanged spellings survive; only what
changed is rewritten. The window asks before writing into another existing file than the one opened.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from shapely import affinity

from simulator.geometry.placement import Move
from simulator.geometry.pose import Pose
from simulator.scenario.loader import load_scenario
from simulator.scenario.rulings_file import merge_document, write_rulings_file
from simulator.ui.app import App
from simulator.ui.rulings_view import RulingsState, rulings_document

CASES = Path(__file__).resolve().parent / "cases"


@pytest.mark.parametrize("name", ["move_glance_turn", "move_final_turn", "contact_obstacle", "shoot_cover_low",
                                  "move_gates", "legality"])
def test_saving_an_unchanged_situation_leaves_the_file_as_it_was(name: str) -> None:
    path = CASES / f"{name}.toml"
    scenario = load_scenario(path)
    doc = rulings_document(scenario, scenario.table, RulingsState(), None, None, None)
    assert merge_document(path.read_text(encoding="utf-8"), doc) == path.read_text(encoding="utf-8")


def test_interleaved_tables_keep_every_comment() -> None:
    """A file whose [[vehicle]] and [[obstacle]] tables alternate is written with each kind together
    (tomlkit cannot keep them interleaved): every comment is still there, the situation the same."""
    path = CASES / "pivot.toml"
    before = path.read_text(encoding="utf-8")
    scenario = load_scenario(path)
    text = merge_document(before, rulings_document(scenario, scenario.table, RulingsState(), None, None, None))
    assert sorted(ln for ln in text.splitlines() if ln.startswith("#")) == sorted(
        ln for ln in before.splitlines() if ln.startswith("#"))
    import tomllib

    assert tomllib.loads(text) == tomllib.loads(before)


def test_a_moved_car_and_a_new_question_change_only_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "glance.toml"
    shutil.copy(CASES / "move_glance_turn.toml", path)
    before = path.read_text(encoding="utf-8")
    scenario = load_scenario(path)
    table = scenario.table.with_vehicle(scenario.table.vehicle("parked").moved(Pose(440.0, 280.0, 90.0)))
    doc = rulings_document(scenario, table, RulingsState(), Move("gentle", "left", spin_deg=15.0), "red", "glance")
    write_rulings_file(path, doc)
    after = path.read_text(encoding="utf-8")
    old_lines, new_lines = before.splitlines(), after.splitlines()
    assert [ln for ln in old_lines if ln.startswith("#")] == [ln for ln in new_lines if ln.startswith("#")]
    changed = sorted(set(new_lines) - set(old_lines))
    assert changed == ["direction = \"left\"", "reverse = false", "slide = false", "spin_deg = 15.0",
                       "template = \"gentle\"", "x_mm = 440.0"]
    again = load_scenario(path)
    assert again.table.vehicle("parked").pose == Pose(440.0, 280.0, 90.0)
    assert again.spec.query[0] == {"id": "glance", "kind": "move", "vehicle": "red", "template": "gentle",
                                   "direction": "left", "reverse": False, "slide": False, "spin_deg": 15.0}


CIRCLES = """# my table
[table]
width_mm = 1200.0
height_mm = 900.0

[[vehicle]]
id = "red"
type = "car"
x_mm = 300.0
y_mm = 300.0
heading_deg = 0.0

# a round rock I measured
[[obstacle]]
id = "rock"
circle = [500.0, 300.0, 20.0]

# a crate
[[obstacle]]
id = "crate"
polygon = [[600.0, 600.0], [620.0, 600.0], [620.0, 620.0], [600.0, 620.0]]
"""


def test_circles_stay_circles_until_moved_and_removed_pieces_go(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(CIRCLES, encoding="utf-8")
    scenario = load_scenario(path)
    doc = rulings_document(scenario, scenario.table, RulingsState(), None, None, None)
    assert merge_document(CIRCLES, doc) == CIRCLES
    rock = scenario.table.obstacle("rock")
    moved = replace(scenario.table, obstacles=(replace(rock, polygon=affinity.translate(rock.polygon, 10.0, 0.0)),))
    text = merge_document(CIRCLES, rulings_document(scenario, moved, RulingsState(), None, None, None))
    assert "# a round rock I measured" in text and "circle" not in text and 'id = "crate"' not in text
    path.write_text(text, encoding="utf-8")
    again = load_scenario(path)
    assert [o.id for o in again.table.obstacles] == ["rock"]
    assert again.table.obstacle("rock").polygon.centroid.x == pytest.approx(510.0, abs=1e-3)


def test_a_file_that_is_not_toml_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("this is [not toml", encoding="utf-8")
    scenario = load_scenario(CASES / "move_tbone.toml")
    write_rulings_file(path, rulings_document(scenario, scenario.table, RulingsState(), None, None, None))
    assert load_scenario(path).table.vehicle("red").pose == scenario.table.vehicle("red").pose


def test_the_window_asks_before_writing_into_another_existing_file(tmp_path: Path) -> None:
    pygame.init()
    app = App.from_path(CASES / "move_tbone.toml")
    rulings = app.rulings
    assert rulings is not None and app.mode is rulings
    other = tmp_path / "mine.toml"
    other.write_text("# my notes\n", encoding="utf-8")
    rulings.save_rulings(other)
    assert other.read_text(encoding="utf-8") == "# my notes\n"
    assert "press Ctrl+S again" in app.status
    rulings.save_rulings(other)
    assert other.read_text(encoding="utf-8").startswith("# my notes\n")
    assert load_scenario(other).table.vehicle("red").pose == rulings.table.vehicle("red").pose
