"""Ramps (p.87): a move stops at a ramp's exit edge, then a Jump (D6 at most the Gear) or a Tumble."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulator.errors import InputFileError
from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import Activate, ChooseTemplate, DeclareAttacks, RollSkid, SpendShifts
from simulator.gaslands.dice import ScriptedDice
from simulator.gaslands.events import Jumped, Moved, RampReached, Tumbled, VotesGained
from simulator.gaslands.game import Game, Options
from simulator.gaslands.ramps import jump_template, jumps
from simulator.gaslands.table_referee import TableReferee
from simulator.geometry.pose import Pose
from simulator.geometry.ramps import ramp_stop
from simulator.scenario.loader import Scenario, parse_scenario
from simulator.scenario.setup import initial_state, options_for

SCENARIO = """
[scenario]
kind = "sandbox"
[table]
width_mm = 1400.0
height_mm = 600.0
[[player]]
id = "red"
[[player]]
id = "blue"
[[vehicle]]
id = "red-car"
player = "red"
type = "car"
x_mm = 200.0
y_mm = 300.0
heading_deg = 0.0
gear = 2
[[vehicle]]
id = "blue-car"
player = "blue"
type = "car"
x_mm = 200.0
y_mm = 100.0
heading_deg = 180.0
[[ramp]]
id = "kicker"
label = "kicker ramp"
polygon = [[300.0, 250.0], [400.0, 250.0], [400.0, 350.0], [300.0, 350.0]]
entry_edge = 4
"""


def _scenario(text: str = SCENARIO) -> Scenario:
    import tomllib

    return parse_scenario(tomllib.loads(text), "<ramp test>")


def _game(d6: list[int], gear: int = 2, votes: bool = True) -> Game:
    sc = _scenario()
    state = initial_state(sc, 1)
    state = state.with_vehicle(replace(state.vehicle("red-car"), gear=gear))
    options = replace(options_for(sc, Options(audience_votes=votes)), pass_pole_each_phase=False)
    return Game(state, ScriptedDice(d6=d6), TableReferee(sc.table, sc.template_set), sc.template_set, options)


def _drive_off(game: Game, gear: int) -> None:
    """Red activates in its gear's phase and takes the Medium Straight off the far edge."""
    while game.prompt.kind == "activate" and "red-car" not in getattr(game.prompt, "vehicles", ()):
        game.decide(Activate(game.prompt.vehicles[0]))  # type: ignore[attr-defined]
        while game.prompt.kind not in ("activate", "game_over"):
            game.decide(Bot().decide(game))
    game.decide(Activate("red-car"))
    game.decide(ChooseTemplate("medium_straight"))
    if game.prompt.kind == "skid":
        game.decide(RollSkid(0))
    if game.prompt.kind == "shifts":
        game.decide(SpendShifts())  # the Trivial template's free Shift is not spent


def test_the_rule_numbers() -> None:
    assert [jumps(r, 3) for r in range(1, 7)] == [True, True, True, False, False, False]
    assert [jump_template(g) for g in range(1, 7)] == ["medium_straight"] * 4 + ["long_straight"] * 2


def test_a_jump_goes_a_medium_straight_further_and_costs_two_hazard_tokens_and_gains_a_vote() -> None:
    game = _game(d6=[2], gear=2)  # the ramp roll: 2, at most Gear 2: a Jump
    _drive_off(game, 2)
    log = game.log
    reached = next(e for e in log if isinstance(e, RampReached))
    assert (reached.roll, reached.gear, reached.jump, reached.ramp_name) == (2, 2, True, "kicker ramp")
    moves = [e for e in log if isinstance(e, Moved) and e.vehicle == "red-car"]
    assert moves[-2].final.x_mm == pytest.approx(370.0, abs=0.02)  # stopped with its front on the far edge
    assert moves[-1].how == "jumps" and moves[-1].template == "medium_straight"
    assert moves[-1].final.x_mm == pytest.approx(550.0, abs=0.02)
    assert next(e for e in log if isinstance(e, Jumped)).hazard_delta == 2
    assert any(isinstance(e, VotesGained) and e.count == 1 for e in log)
    red = game.state.vehicle("red-car")
    assert red.hazards == 2 and game.state.votes[0] == 1
    assert game.prompt.kind == "attacks"
    game.decide(DeclareAttacks())


def test_a_tumble_goes_a_short_straight_and_suffers_a_4d6_attack_and_six_hazard_tokens() -> None:
    # the ramp roll 5 (more than Gear 2): a Tumble; attack 6, 4, 3, 1: 3 hits (a 6 counts twice, p.30);
    # Evade (Gear 2): 6, 2: one saved
    game = _game(d6=[5, 6, 4, 3, 1, 6, 2], gear=2)
    _drive_off(game, 2)
    log = game.log
    assert not next(e for e in log if isinstance(e, RampReached)).jump
    move = [e for e in log if isinstance(e, Moved) and e.vehicle == "red-car"][-1]
    assert move.how == "tumbles" and move.final.x_mm == pytest.approx(490.0, abs=0.02)
    t = next(e for e in log if isinstance(e, Tumbled))
    assert (t.rolls, t.evade_rolls, t.hits, t.hull_delta, t.hazard_delta) == ((6, 4, 3, 1), (6, 2), 3, -2, 6)
    assert game.state.vehicle("red-car").hazards == 6


def test_entering_over_the_entry_edge_and_stopping_on_the_ramp_is_just_a_move() -> None:
    sc = _scenario()
    red = sc.table.vehicle("red-car")
    referee = TableReferee(sc.table, sc.template_set)
    state = initial_state(sc, 1)
    from simulator.gaslands.referee import MovePlan

    assert referee.move(state, "red-car", MovePlan("short_straight")).ramp == ""
    assert referee.move(state, "red-car", MovePlan("long_straight")).ramp == "kicker"
    # a vehicle driving at a side edge (not the entry edge) stops there too
    side = replace(red, pose=Pose(350.0, 150.0, 90.0))
    from simulator.geometry.path import Path, Segment

    stop = ramp_stop(sc.table.ramps, Path((Segment("drive", side.pose, 200.0),)), side)
    assert stop is not None and stop.edge == 1 and stop.pose.y_mm == pytest.approx(220.0, abs=0.01)
    # and a path that starts touching an exit edge leaves that edge alone
    on_edge = replace(red, pose=Pose(370.0, 300.0, 0.0))
    assert ramp_stop(sc.table.ramps, Path((Segment("drive", on_edge.pose, 50.0),)), on_edge) is None


def test_a_ramp_file_names_its_entry_edge_on_the_polygon() -> None:
    bad = SCENARIO.replace("entry_edge = 4", "entry_edge = 5")
    with pytest.raises(InputFileError, match=r"ramp\[1\].*entry_edge is 5 but the polygon has only 4 edges"):
        _scenario(bad)


def test_bots_take_a_ramp_fast_and_avoid_its_edge_slow() -> None:
    from simulator.gaslands.referee import MovePlan

    text = SCENARIO.replace('kind = "sandbox"', 'kind = "street_race"') + """
[[line]]
id = "start"
kind = "start"
a = [100.0, 200.0]
b = [100.0, 400.0]
[[line]]
id = "finish"
kind = "finish"
a = [1300.0, 200.0]
b = [1300.0, 400.0]
"""
    sc = _scenario(text)

    def chosen(gear: int) -> str:
        state = initial_state(sc, 1)
        state = state.with_vehicle(replace(state.vehicle("red-car"), gear=gear))
        game = Game(state, ScriptedDice(d6=[1] * 20), TableReferee(sc.table, sc.template_set), sc.template_set,
                    options_for(sc))
        game.decide(Activate("red-car")) if game.prompt.kind == "activate" else None
        while game.prompt.kind != "template":
            game.decide(Activate(game.prompt.vehicles[0]))  # type: ignore[attr-defined]
        choice = Bot().decide(game)
        assert isinstance(choice, ChooseTemplate)
        plan = MovePlan(choice.template, None if "straight" in choice.template else choice.direction)
        return game.referee.move(game.state, "red-car", plan).ramp

    assert chosen(5) == "kicker"  # a Jump 5 times in 6: worth it
    assert chosen(1) == ""  # a Tumble 5 times in 6: not


VOLATILE = """
[scenario]
kind = "sandbox"
[table]
width_mm = 1400.0
height_mm = 600.0
[[player]]
id = "red"
[[player]]
id = "blue"
[[vehicle]]
id = "red-car"
player = "red"
type = "car"
x_mm = 200.0
y_mm = 300.0
heading_deg = 0.0
gear = 2
[[vehicle]]
id = "blue-car"
player = "blue"
type = "car"
x_mm = 420.0
y_mm = 380.0
heading_deg = 0.0
[[obstacle]]
id = "barrels"
label = "fuel barrels"
weight = "middleweight"
volatile = true
polygon = [[300.0, 250.0], [340.0, 250.0], [340.0, 350.0], [300.0, 350.0]]
"""


def _volatile_game(d6: list[int]) -> Game:
    sc = _scenario(VOLATILE)
    state = initial_state(sc, 1)
    options = replace(options_for(sc), pass_pole_each_phase=False)
    return Game(state, ScriptedDice(d6=d6), TableReferee(sc.table, sc.template_set), sc.template_set, options)


def test_a_volatile_obstacle_explodes_on_4_plus_before_reactions_and_is_removed() -> None:
    from simulator.gaslands.events import Collided, ExplosionHit, ObstacleRemoved, VolatileRolled

    # the volatile D6: 5, it explodes; a middleweight explodes with 4 dice (p.44) at each car within Medium
    # range: red 6, 4, 1, 1 (3 hits: a 6 counts twice), Evade (Gear 2) 2, 3; blue 1, 1, 1, 1, Evade (Gear 1) 2
    game = _volatile_game([5, 6, 4, 1, 1, 2, 3, 1, 1, 1, 1, 2])
    _drive_off(game, 2)
    log = game.log
    rolled = next(e for e in log if isinstance(e, VolatileRolled))
    assert (rolled.roll, rolled.explodes, rolled.obstacle_name) == (5, True, "fuel barrels")
    assert any(isinstance(e, ObstacleRemoved) and e.obstacle == "barrels" for e in log)
    hits = [e for e in log if isinstance(e, ExplosionHit)]
    assert [(h.vehicle, h.hull_delta) for h in hits] == [("red-car", -3), ("blue-car", 0)]
    assert not any(isinstance(e, Collided) for e in log)  # the obstacle is gone: no collision
    assert "barrels" in game.state.removed_obstacles


def test_a_volatile_obstacle_that_holds_is_an_ordinary_collision() -> None:
    from simulator.gaslands.events import Collided, VolatileRolled

    game = _volatile_game([3] + [1] * 30)  # 3: it holds; then the collision's reactions and dice
    _drive_off(game, 2)
    while game.prompt.kind == "react":
        game.decide(Bot().decide(game))
    assert not next(e for e in game.log if isinstance(e, VolatileRolled)).explodes
    assert any(isinstance(e, Collided) for e in game.log)
