"""Legality and the query kinds pivot, dropped and up_and_over beyond the worked cases (docs/rulings.md)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from simulator.errors import InputFileError
from simulator.geometry.placement import Move
from simulator.scenario.legality import Verdict, move_legality
from simulator.scenario.loader import load_scenario
from simulator.scenario.rulings import run_rulings

ROOT = Path(__file__).resolve().parents[1]
HEAD = """
[table]
width_mm = 1200.0
height_mm = 900.0
"""


def write(tmp_path: Path, body: str, name: str = "r.toml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body), encoding="utf-8")
    return p


def test_a_template_no_gear_of_the_vehicle_permits(tmp_path: Path) -> None:
    """With a measured set where the Swerve needs Gear 5, a Truck (Max Gear 4, p.66) may never take it,
    whatever gear the file leaves out."""
    text = (ROOT / "simulator" / "data" / "template_sets" / "default.toml").read_text(encoding="utf-8")
    old = 'gears = ["-", "-", "P", "P", "P", "H"]'
    assert text.count(old) == 1
    write(tmp_path, text.replace(old, 'gears = ["-", "-", "-", "-", "P", "H"]'), "mine.toml")
    body = HEAD.replace('height_mm = 900.0', 'height_mm = 900.0\ntemplate_set = "mine.toml"') + """
    [[vehicle]]
    id = "t"
    type = "truck"
    x_mm = 300.0
    y_mm = 300.0
    heading_deg = 0.0
    """
    scenario = load_scenario(write(tmp_path, body))
    assert move_legality(scenario, "t", Move("swerve", "left")) == Verdict.no(
        "the Swerve is not permitted in any gear of a Truck (Max Gear 4)", "p.17-18")
    assert move_legality(scenario, "t", Move("veer", "left")) == Verdict.ok()


QUERY_FILE = HEAD + """
[[vehicle]]
id = "bike"
type = "bike"
x_mm = 300.0
y_mm = 300.0
heading_deg = 0.0

[[query]]
id = "q"
{query}
"""


@pytest.mark.parametrize(("query", "problem"), [
    ('kind = "pivot"\nvehicle = "bike"\nrule = "spin"\nangle_deg = 10.0',
     "query[q].rule: Input should be 'pivot', 'airwolf', 'lose_control' or 'jackknife'"),
    ('kind = "pivot"\nvehicle = "bike"\nrule = "pivot"\nangle_deg = 1e9',
     "query[q].angle_deg: Input should be less than or equal to 360"),
    ('kind = "pivot"\nvehicle = "ghost"\nrule = "pivot"\nangle_deg = 10.0', "query[q].vehicle: no vehicle 'ghost'"),
    ('kind = "dropped"\nvehicle = "bike"\ntemplate = "small_burst"\nedge = "front"',
     "query[q].edge: Input should be 'rear', 'left' or 'right'"),
    ('kind = "dropped"\nvehicle = "bike"\ntemplate = "medium_straight"',
     "query[q].template: Input should be 'short', 'medium', 'long', 'double', 'small_burst' or 'large_burst'"),
    ('kind = "up_and_over"\nvehicle = "bike"\ntemplate = "short_straight"\nover = ["nobody"]',
     "query[q].over[1]: no vehicle or obstacle 'nobody'"),
    ('kind = "teleport"\nvehicle = "bike"', "query[q].kind: Input tag 'teleport' found using 'kind' does not "
     "match any of the expected tags: 'move', 'shoot', 'contact', 'pivot', 'dropped', 'up_and_over', "
     "'swing_trailer'"),
])
def test_new_kinds_are_validated(tmp_path: Path, query: str, problem: str) -> None:
    with pytest.raises(InputFileError) as info:
        run_rulings(write(tmp_path, QUERY_FILE.format(query=query)))
    assert [p.render("") .removeprefix(": ") for p in info.value.problems] == [problem]


def test_a_bike_pivots_freely_in_the_open(tmp_path: Path) -> None:
    (r,) = run_rulings(write(tmp_path, QUERY_FILE.format(
        query='kind = "pivot"\nvehicle = "bike"\nrule = "pivot"\nangle_deg = 270.0')))
    assert r == {"id": "q", "kind": "pivot", "final": {"x_mm": 300.0, "y_mm": 300.0, "heading_deg": 270.0},
                 "turned_deg": 270.0, "stopped": False, "touching": [], "collisions": [], "removed": [],
                 "hazard_tokens": 0, "legal": True}


def test_pivot_in_a_gear_above_1_is_not_legal(tmp_path: Path) -> None:
    body = QUERY_FILE.replace("heading_deg = 0.0\n", "heading_deg = 0.0\ngear = 2\n", 1)
    (r,) = run_rulings(write(tmp_path, body.format(query='kind = "pivot"\nvehicle = "bike"\nrule = "pivot"\n'
                                                         'angle_deg = 30.0')))
    assert (r["legal"], r["reason"], r["page"]) == (False, "a Pivot is made in Gear 1, not Gear 2", "p.69")


def test_a_war_rig_does_not_lose_control(tmp_path: Path) -> None:
    body = QUERY_FILE.replace('type = "bike"', 'type = "war_rig"')
    (r,) = run_rulings(write(tmp_path, body.format(query='kind = "pivot"\nvehicle = "bike"\n'
                                                         'rule = "lose_control"\nangle_deg = 30.0')))
    assert (r["legal"], r["reason"], r["page"]) == (
        False, "a War Rig is Ponderous: Losing Control does not pivot it", "p.120")


def test_airborne_vehicles_are_not_under_dropped_templates(tmp_path: Path) -> None:
    body = HEAD + """
    [[vehicle]]
    id = "red"
    type = "car"
    x_mm = 400.0
    y_mm = 300.0
    heading_deg = 0.0

    [[vehicle]]
    id = "heli"
    type = "helicopter"
    x_mm = 330.0
    y_mm = 300.0
    heading_deg = 0.0

    [[query]]
    id = "q"
    kind = "dropped"
    vehicle = "red"
    template = "small_burst"
    """
    (r,) = run_rulings(write(tmp_path, body))
    assert (r["overlaps"], r["touches"], r["legal"]) == ([], [], True)  # the Helicopter ignores it (p.70)
