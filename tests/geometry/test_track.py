"""The Death Race track check (p.124-125)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from shapely.geometry import box

from simulator.cli import main
from simulator.geometry.table import Gate, Obstacle, Table
from simulator.geometry.templates import load_template_set
from simulator.geometry.track import check_track
from simulator.scenario.loader import bundled_scenario, load_scenario

TS = load_template_set()


def gate(gid: str, n: int, x: float, y: float, width: float = 182.0) -> Gate:
    return Gate(gid, n, (x, y), (x, y + width))


def messages(table: Table) -> list[str]:
    return [f.render() for f in check_track(table, TS)]


def test_shipped_death_race_is_legal_and_follows_the_guidelines_but_one() -> None:
    s = load_scenario(bundled_scenario("death_race.toml"))
    findings = check_track(s.table, s.template_set)
    # an oval: the leaders never meet the laggards again (p.125)
    assert [f.render() for f in findings] == [
        "warning: layout: the leaders never come back past the laggards; a figure of eight or a tear-drop "
        "layout brings them together (p.125)"]
    assert findings[0].shape is not None and findings[0].shape.length > 3000


def test_every_finding_says_where_it_applies_on_the_table() -> None:
    s = load_scenario(bundled_scenario("death_race.toml"))
    g = s.table.gates
    moved = replace(s.table, gates=(replace(g[0], post_b=(g[0].post_b[0], g[0].post_b[1] + 5.0)), *g[1:]))
    found = check_track(moved, s.template_set)
    width = next(f for f in found if "a gate is exactly a Long Straight" in f.message)
    assert width.shape is not None and width.shape.equals(moved.gates[0].line)
    assert all(f.shape is not None for f in found)


def test_a_figure_of_eight_brings_leaders_back_to_laggards_p125() -> None:
    long_mm = TS.movement["long_straight"].length_mm or 182.0
    # four gates at the corners of a square, taken in a crossing order: legs 1-2 and 3-4 cross
    gates = (gate("g1", 1, 300.0, 300.0, long_mm), gate("g2", 2, 900.0, 800.0, long_mm),
             gate("g3", 3, 900.0, 300.0, long_mm), gate("g4", 4, 300.0, 800.0, long_mm))
    assert not any("leaders never come back" in m for m in messages(Table(1400.0, 1300.0, gates=gates)))
    oval = (gates[0], gates[2], gates[1], gates[3])
    renumbered = tuple(replace(gt, number=i) for i, gt in enumerate(oval, 1))
    assert any("leaders never come back" in m for m in messages(Table(1400.0, 1300.0, gates=renumbered)))


def test_three_gates_needed_p124() -> None:
    t = Table(1800, 1200, gates=(gate("a", 1, 200, 100), gate("b", 2, 800, 100)))
    assert any(m.startswith("error: gates: 2 gates") for m in messages(t))


def test_gate_must_be_a_long_straight_wide_p124() -> None:
    t = Table(1800, 1200, gates=(gate("a", 1, 200, 100), gate("b", 2, 800, 100, 180.0), gate("c", 3, 1400, 100)))
    assert any("error: b:" in m and "180.00 mm apart" in m for m in messages(t))


def test_gates_a_long_straight_apart_p124() -> None:
    t = Table(1800, 1200, gates=(gate("a", 1, 200, 100), gate("b", 2, 300, 100), gate("c", 3, 900, 100)))
    assert any(m.startswith("error: a/b:") for m in messages(t))


def test_guidelines_are_warnings_p125() -> None:
    t = Table(3000, 1200, gates=(gate("a", 1, 200, 100), gate("b", 2, 900, 100), gate("c", 3, 1500, 100)),
              obstacles=(Obstacle("rock", box(1700, 600, 1720, 620)),))
    found = messages(t)
    assert any(m.startswith("warning: a->b:") and "three Long Straights" in m for m in found)
    assert any(m.startswith("warning: a->b:") and "no obstacle" in m for m in found)
    assert not any(m.startswith("error") for m in found)


def test_post_overlapping_an_obstacle_is_an_error() -> None:
    s = load_scenario(bundled_scenario("death_race.toml"))
    g = s.table.gates[0]
    rock = Obstacle("rock-x", box(g.post_a[0] - 5, g.post_a[1] - 5, g.post_a[0] + 5, g.post_a[1] + 5))
    t = replace(s.table, obstacles=s.table.obstacles + (rock,))
    assert any("overlaps obstacle rock-x" in f.message for f in check_track(t, s.template_set))


def test_check_command_exit_codes(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["check", str(bundled_scenario("death_race.toml"))]) == 0
    assert "legal Death Race track" in capsys.readouterr().out
    assert main(["check", str(Path(bundled_scenario()))]) == 1


def test_a_gate_facing_away_from_its_approach_is_a_warning_p124() -> None:
    # gate() makes gates facing -x (the left-hand normal of post_a -> post_b); the race runs right to
    # left, g1 at x = 1400, g2 at 800, g3 at 200. Flipping g2's posts makes it face +x, back at g1.
    g1, g3 = gate("g1", 1, 1400, 100), gate("g3", 3, 200, 100)
    g2 = Gate("g2", 2, (800.0, 282.0), (800.0, 100.0))
    rocks = (Obstacle("rock", box(1080, 150, 1100, 170)), Obstacle("rock2", box(480, 150, 500, 170)))
    found = messages(Table(1800, 1200, gates=(g1, g2, g3), obstacles=rocks))
    assert any(m.startswith("warning: g1->g2:") and "faces away" in m for m in found)
    assert not any(m.startswith("warning: g2->g3:") and "faces away" in m for m in found)
