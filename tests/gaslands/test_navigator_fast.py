"""The Navigator's quick reads (issue #13 item 6) give exactly the numbers of the straightforward code they
replaced: the distance field read from a flat list, the course position from prefix sums, the alignment and
the edge check from scalar math instead of Pose objects and a fresh gate line per call."""

from __future__ import annotations

import math
from dataclasses import replace

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.gaslands.bots import UNREACHABLE, Bot, Navigator
from simulator.gaslands.state import VehicleState
from simulator.geometry.pose import Pose
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import course_for

STREET = load_scenario(bundled_scenario())
DEATH = load_scenario(bundled_scenario("death_race.toml"))
_NAVS = {"street": Navigator(STREET.table, course_for(STREET)), "death": Navigator(DEATH.table, course_for(DEATH))}

poses = st.builds(Pose, st.floats(-100.0, 1400.0), st.floats(-100.0, 1100.0), st.floats(0.0, 359.999))


def _value(nav: Navigator, index: int, pose: Pose) -> float:
    f = nav.field(index)
    return 0.0 if f is None else f.at_reference(pose.x_mm, pose.y_mm)


def _position(nav: Navigator, passed: int, pose: Pose) -> float:
    legs = nav.leg_lengths
    if passed >= len(legs):
        return sum(legs)
    return sum(legs[:passed + 1]) - _value(nav, passed, pose)


def _alignment(nav: Navigator, index: int, pose: Pose, ahead_mm: float = 60.0) -> float:
    ahead = pose.ahead(ahead_mm)
    if index < len(nav.targets):
        gate = nav.targets[index]
        gx, gy = gate.direction
        towards = (ahead.x_mm - pose.x_mm) * gx + (ahead.y_mm - pose.y_mm) * gy > 0
        x0, y0, x1, y1 = gate.line.bounds
        apart = (max(pose.x_mm, ahead.x_mm) < x0 or min(pose.x_mm, ahead.x_mm) > x1
                 or max(pose.y_mm, ahead.y_mm) < y0 or min(pose.y_mm, ahead.y_mm) > y1)
        if towards and not apart and gate.line.intersects(shapely.LineString([pose[:2], ahead[:2]])):
            return ahead_mm
    gain = _value(nav, index, pose) - _value(nav, index, ahead)
    return max(-ahead_mm, min(ahead_mm, gain))


@settings(max_examples=300, deadline=None)
@given(pose=poses, which=st.sampled_from(["street", "death"]), index=st.integers(0, 7))
def test_field_position_and_alignment_match_the_plain_code(pose: Pose, which: str, index: int) -> None:
    nav = _NAVS[which]
    assert nav.value(index, pose) == _value(nav, index, pose)
    assert nav.position(index, pose) == _position(nav, index, pose)
    assert nav.alignment(index, pose) == _alignment(nav, index, pose)
    assert nav.alignment(index, pose, 25.0) == _alignment(nav, index, pose, 25.0)


def test_a_cell_inside_an_obstacle_reads_as_before() -> None:
    nav = _NAVS["street"]
    f = nav.field(0)
    assert f is not None
    inside = [(i, j) for i in range(f.values.shape[0]) for j in range(f.values.shape[1])
              if not math.isfinite(float(f.values[i, j]))]
    assert inside  # obstacles and the edge margin are walls
    for i, j in inside[::97]:
        x, y = (i + 0.5) * 10.0, (j + 0.5) * 10.0
        assert f.at(x, y) == f.at_reference(x, y)
        assert f.at(x, y) == UNREACHABLE or f.at(x, y) >= 40.0


@settings(max_examples=200, deadline=None)
@given(pose=poses, gear=st.integers(1, 6))
def test_edge_danger_matches_pose_ahead(pose: Pose, gear: int) -> None:
    nav = _NAVS["street"]
    v = replace(VehicleState.new("red", 0, "car", pose), gear=gear)
    reach = 100.0 + 45.0 * max(gear, 2)
    ahead = pose.ahead(reach)
    margin = 0.5 * v.length_mm
    t = nav.table
    inside = margin <= ahead.x_mm <= t.width_mm - margin and margin <= ahead.y_mm <= t.height_mm - margin
    assert Bot()._edge_danger(v, pose, nav) == (0.0 if inside else 400.0)


def test_circling_kept_per_history_entry_matches_reading_the_log_again() -> None:
    from simulator.gaslands.game import Options
    from simulator.scenario.setup import new_game

    bot = Bot()
    game = new_game(STREET, seed=5, options=Options(round_limit=6))
    checked = 0
    while game.prompt.kind != "game_over":
        for v in game.state.vehicles:
            fresh = bot._circling_now(game, v) if bot._nav(game).targets else False
            assert bot._circling(game, v) == fresh
            assert bot._circling(game, v) == fresh  # the kept answer
            checked += 1
        game.decide(bot.decide(game))
    assert checked > 100


@settings(max_examples=300, deadline=None)
@given(pose=poses, which=st.sampled_from(["street", "death"]), passed=st.integers(-1, 7))
def test_position_alignment_reads_the_field_once_for_the_same_pair(pose: Pose, which: str, passed: int) -> None:
    nav = _NAVS[which]
    assert nav.position_alignment(passed, pose) == (nav.position(passed, pose), nav.alignment(passed, pose))
    if passed >= 0:
        assert nav.position_alignment(passed, pose) == (_position(nav, passed, pose), _alignment(nav, passed, pose))
