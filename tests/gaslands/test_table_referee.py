"""TableReferee: the rules engine's geometry questions on a real table (p.24, p.35, p.39, p.42-44, p.62, p.127)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace

import pytest

from simulator.gaslands.collisions import Orientation
from simulator.gaslands.referee import MovePlan
from simulator.gaslands.state import GameState, Mount, Status
from simulator.gaslands.table_referee import TableReferee, finish_gate, table_for
from simulator.geometry.contact import overlaps
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.table import Table
from simulator.geometry.templates import TemplateSet
from simulator.scenario.loader import Scenario, bundled_scenario, load_scenario, parse_scenario
from simulator.scenario.setup import initial_state


def scenario_of(vehicles: str, extra: str = "") -> Scenario:
    text = f"""
[scenario]
kind = "street_race"
[table]
width_mm = 1200.0
height_mm = 900.0
[[player]]
id = "red"
[[player]]
id = "blue"
{vehicles}
[[line]]
id = "start"
kind = "start"
a = [100.0, 300.0]
b = [100.0, 482.0]
[[line]]
id = "finish"
kind = "finish"
a = [800.0, 300.0]
b = [800.0, 482.0]
{extra}
"""
    return parse_scenario(tomllib.loads(text), "<test>")


def car(vid: str, player: str, x: float, y: float, heading: float, weapons: str = "") -> str:
    return f"""
[[vehicle]]
id = "{vid}"
player = "{player}"
type = "car"
x_mm = {x}
y_mm = {y}
heading_deg = {heading}
weapons = [{weapons}]
"""


def setup(vehicles: str, extra: str = "") -> tuple[Scenario, GameState, TableReferee]:
    sc = scenario_of(vehicles, extra)
    return sc, initial_state(sc, 1), TableReferee(sc.table, sc.template_set)


def test_wrecks_are_destructible_obstacles_and_removed_pieces_are_gone() -> None:
    sc, state, _ = setup(car("a", "red", 300, 400, 0) + car("b", "blue", 300, 600, 0)
                         + '[[obstacle]]\nid = "crate"\nweight = "lightweight"\ndestructible = true\n'
                           'polygon = [[500, 100], [520, 100], [520, 120], [500, 120]]\n')
    state = state.with_vehicle(replace(state.vehicle("a"), status=Status.WRECK))
    state = replace(state, removed_obstacles=frozenset({"crate"}))
    table = table_for(sc.table, state)
    assert [v.id for v in table.vehicles] == ["b"]
    wreck = table.obstacle("a")
    assert wreck.destructible and wreck.weight == "middleweight"
    with pytest.raises(KeyError):
        table.obstacle("crate")
    state = state.with_vehicle(replace(state.vehicle("a"), status=Status.REMOVED))
    assert [o.id for o in table_for(sc.table, state).obstacles] == []


def test_move_reports_collision_with_an_obstacle_head_on() -> None:
    _, state, ref = setup(car("a", "red", 300, 400, 0) + car("b", "blue", 300, 700, 0),
                          '[[obstacle]]\nid = "rock"\ncircle = [420.0, 400.0, 20.0]\n')
    report = ref.move(state, "a", MovePlan("long_straight"))
    assert report.interrupted
    (contact,) = report.contacts
    assert contact.other_id == "rock" and contact.obstacle and contact.obstacle_weight == "heavyweight"
    assert contact.orientation is Orientation.HEAD_ON
    assert report.pose.x_mm < 420.0 - 20.0 - 30.0 + 0.01


def test_finish_line_is_crossed_driving_forward_away_from_the_start() -> None:
    _, state, ref = setup(car("a", "red", 740, 400, 0) + car("b", "blue", 860, 600, 180)
                          + car("c", "blue", 860, 400, 180))
    assert ref.move(state, "a", MovePlan("short_straight")).crossed_finish
    assert not ref.move(state, "b", MovePlan("short_straight")).crossed_finish  # wrong way (p.62)
    assert not ref.move(state, "c", MovePlan("short_straight", reverse=True)).crossed_finish  # not forwards


def test_finish_direction_points_away_from_the_start_line() -> None:
    sc = scenario_of(car("a", "red", 300, 400, 0))
    gate = finish_gate(sc.table)
    assert gate is not None and gate.direction[0] > 0.99
    assert finish_gate(Table(100.0, 100.0)) is None


def test_flip_ignores_obstructions_and_backs_off_an_overlap() -> None:
    _, state, ref = setup(car("a", "red", 300, 400, 0) + car("b", "blue", 470, 400, 0))
    report = ref.forced_move(state, "a", "medium_straight", ignore_obstructions=True)
    # it backs off to touch b's rear: the Flip's Collision Window holds a Tailgate (p.35, p.39)
    assert [(c.other_id, c.orientation, c.edge, c.other_edge) for c in report.contacts] == [
        ("b", Orientation.TAILGATE, "front", "rear")]
    end = footprint(report.pose, 60.0, 30.0)
    assert not overlaps(end, footprint(Pose(470, 400, 0), 60.0, 30.0))
    assert report.pose.x_mm > 300.0


def test_skid_to_a_halt_does_not_ignore_obstructions() -> None:
    _, state, ref = setup(car("a", "red", 300, 400, 0) + car("b", "blue", 400, 400, 90))
    report = ref.forced_move(state, "a", "short_straight", ignore_obstructions=False)
    assert report.contacts and report.contacts[0].other_id == "b"
    assert report.contacts[0].orientation is Orientation.T_BONE


def test_spin_stops_at_first_contact_and_pivot_turns_the_short_way() -> None:
    _, state, ref = setup(car("a", "red", 300, 400, 0) + car("b", "blue", 300, 440, 0) + car("c", "red", 700, 700, 0))
    spun = ref.spin(state, "a", 90.0)
    assert 0.0 < spun.pose.heading_deg < 90.0 and spun.interrupted
    assert spun.contacts and spun.contacts[0].other_id == "b"
    assert not overlaps(footprint(spun.pose, 60, 30), footprint(Pose(300, 440, 0), 60, 30))
    free = ref.pivot(state, "c", 315.0)
    assert free.pose.heading_deg == pytest.approx(315.0) and not free.contacts


def test_distracted_when_touching_an_obstruction() -> None:
    _, state, ref = setup(car("a", "red", 300, 400, 0) + car("b", "blue", 300, 430, 0) + car("c", "red", 600, 600, 0))
    assert ref.distracted(state, "a") and ref.distracted(state, "b") and not ref.distracted(state, "c")


def test_real_shots_front_arc_and_handguns() -> None:
    mg = '{ type = "machine_gun", arc = "front" }'
    _, state, ref = setup(car("a", "red", 300, 400, 0, mg) + car("b", "blue", 450, 400, 180)
                          + car("c", "blue", 300, 480, 0))
    front = ref.shots(state, "a", 0)
    assert [s.target for s in front] == ["b"] and front[0].range_band == "double"
    handguns = {s.target for s in ref.shots(state, "a", -1)}
    assert handguns == {"b", "c"}  # Handguns: Medium range in 360 degrees (p.31); b is 90 mm off, c 50 mm


@dataclass(frozen=True)
class _Answer:
    targetable: bool
    cover: bool = False


class FakeShooting:
    """Records the queries; targets are in range from ``medium`` up (the Shotgun band test)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str]] = []

    def shoot(self, table: Table, attacker_id: str, target_id: str, range_name: str, arc: str,
              template_set: TemplateSet, indirect: bool = False) -> _Answer:
        self.calls.append((target_id, range_name, arc))
        return _Answer(range_name != "short", cover=True)

    def within_range(self, table: Table, centre_id: str, template_set: TemplateSet,
                     range_name: str = "medium") -> tuple[str, ...]:
        return tuple(v.id for v in table.vehicles if v.id != centre_id)


def test_arcs_ranges_and_bands_with_a_fake_shooting() -> None:
    sc = scenario_of(car("a", "red", 300, 400, 0) + car("b", "blue", 360, 460, 0))
    state = initial_state(sc, 1)
    a = replace(state.vehicle("a"), weapons=(Mount.fitted("shotgun"), Mount.fitted("machine_gun", "rear")))
    state = state.with_vehicle(a)
    fake = FakeShooting()
    ref = TableReferee(sc.table, sc.template_set, fake)
    (shot,) = ref.shots(state, "a", 0)
    assert shot.range_band == "medium" and shot.cover  # nearest band the target is in (p.77)
    assert fake.calls[:2] == [("b", "short", "turret"), ("b", "medium", "turret")]  # crew fired: 360 (p.67)
    ref.shots(state, "a", 1)
    assert fake.calls[-1] == ("b", "double", "rear")
    ref.shots(state, "a", -1)
    assert fake.calls[-1] == ("b", "medium", "turret")  # Handguns (p.31)
    assert ref.within_medium(state, "a") == ("b",)


def test_within_medium_counts_the_exploding_wreck_position() -> None:
    sc = load_scenario(bundled_scenario())
    state = initial_state(sc, 1)
    state = state.with_vehicle(replace(state.vehicle("red-car"), status=Status.REMOVED))
    ref = TableReferee(sc.table, sc.template_set)
    assert set(ref.within_medium(state, "red-car")) == {"blue-car", "red-buggy", "blue-buggy"}


def war_rig(vid: str, player: str, x: float, y: float, heading: float) -> str:
    return f"""
[[vehicle]]
id = "{vid}"
player = "{player}"
type = "war_rig"
x_mm = {x}
y_mm = {y}
heading_deg = {heading}
"""


def test_war_rig_forced_moves_keep_the_templates_direction_and_pull_the_trailer() -> None:
    _, state, ref = setup(war_rig("rig", "red", 400, 400, 0) + car("b", "blue", 900, 700, 0))
    left = ref.forced_move(state, "rig", "veer", ignore_obstructions=True, direction="left")
    right = ref.forced_move(state, "rig", "veer", ignore_obstructions=True, direction="right")
    # a Veer ends displaced sideways (p.22): Rocket Thrusters' direction reaches the rig's cab (p.114)
    assert left.pose.y_mm != pytest.approx(right.pose.y_mm)
    assert left.bend_deg is not None and right.bend_deg is not None  # the trailer hitched behind (p.118)
    through = ref.move_through(state, "rig", MovePlan("gentle", "right"))
    assert through.bend_deg is not None and through.pose.heading_deg != pytest.approx(0.0)
