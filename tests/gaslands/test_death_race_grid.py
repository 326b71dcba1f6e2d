"""The Death Race Starting Grid (p.126), Green Light, Go! (p.127) and the Catch Up Mechanic (p.127)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from simulator.errors import IllegalChoice
from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.decisions import (
    Activate,
    ChooseTemplate,
    DeclareAttacks,
    Deploy,
    RollSkid,
    SpendShifts,
)
from simulator.gaslands.dice import ScriptedDice
from simulator.gaslands.game import Game, Options
from simulator.gaslands.grid import FINGER_WIDTH_MM
from simulator.gaslands.race import Course
from simulator.gaslands.referee import MovePlan, MoveReport, OpenTableReferee
from simulator.gaslands.round import RoundState
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.geometry.pose import Pose, footprint
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.saves import load, save
from simulator.scenario.setup import new_game
from tests.gaslands.test_game import FakePermissions

DEATH = load_scenario(bundled_scenario("death_race.toml"))
START_X = 680.0
"""The bundled Death Race's Starting Line runs along x = 680, racing towards +x."""


def test_the_game_starts_with_every_vehicle_waiting_and_pole_position_deploying_first() -> None:
    game = new_game(DEATH, seed=1)
    assert game.options.starting_grid
    assert all(v.status is Status.UNDEPLOYED for v in game.state.vehicles)
    assert game.prompt.kind == "deploy" and game.prompt.player == game.state.round.pole
    assert game.prompt.options == (0, 1)  # the first rank: as wide as the number of players


def test_ranks_fill_in_order_touching_the_line_a_finger_apart() -> None:
    game = new_game(DEATH, seed=1)
    pole = game.state.round.pole
    other = 1 - pole
    mine = [v.id for v in game.state.undeployed(pole)]
    theirs = [v.id for v in game.state.undeployed(other)]
    with pytest.raises(IllegalChoice, match="p.126"):
        game.decide(Deploy(theirs[0], 0))  # not your vehicle
    game.decide(Deploy(mine[0], 1))
    assert game.prompt.player == other and game.prompt.options == (0,)
    with pytest.raises(IllegalChoice, match="first rank"):
        game.decide(Deploy(theirs[0], 2))
    game.decide(Deploy(theirs[0], 0))
    assert game.prompt.player == pole and game.prompt.options == (2, 3)  # the second rank now
    game.decide(Deploy(mine[1], 3))
    game.decide(Deploy(theirs[1], 2))
    assert game.grid == {1: mine[0], 0: theirs[0], 3: mine[1], 2: theirs[1]}
    front = [game.state.vehicle(v) for v in (mine[0], theirs[0])]
    for v in front:
        assert v.pose.heading_deg == pytest.approx(0.0)
        assert v.pose.x_mm + v.length_mm / 2.0 == pytest.approx(START_X)  # touching the Starting Line
    shapes = [footprint(v.pose, v.length_mm, v.width_mm) for v in game.state.vehicles]
    for i, a in enumerate(shapes):
        for b in shapes[i + 1:]:
            assert a.distance(b) >= FINGER_WIDTH_MM - 1e-6
    assert any("Green Light, Go!" in e.text for e in game.log)
    assert game.prompt.kind == "activate"
    assert all(v.gates_passed == 0 and v.in_play for v in game.state.vehicles)  # next: Gate 1 (p.127)


def test_the_grid_is_replayed_from_a_save(tmp_path: Path) -> None:
    game = new_game(DEATH, seed=4)
    bot = Bot()
    while game.prompt.kind == "deploy":
        game.decide(bot.decide(game))
    assert all(isinstance(d, Deploy) for d in game.decisions) and len(game.decisions) == 4
    path = tmp_path / "g.json"
    save(game, path)
    again = load(path)
    assert again.state == game.state and again.decisions == game.decisions
    assert again.undo(4).prompt.kind == "deploy"


def test_bots_deploy_and_race() -> None:
    game = play_bot_game(new_game(DEATH, seed=3, options=Options(round_limit=30)), Bot())
    assert sum(isinstance(d, Deploy) for d in game.decisions) == 4
    assert game.prompt.kind == "game_over"


def test_starting_grid_can_be_switched_off_in_the_scenario() -> None:
    import tomllib

    from simulator.scenario.loader import parse_scenario

    raw = tomllib.loads(bundled_scenario("death_race.toml").read_text())
    raw["options"] = {"starting_grid": False}
    game = new_game(parse_scenario(raw, "<test>"), seed=1)
    assert game.prompt.kind == "activate"


def test_three_players_on_an_open_table() -> None:
    vehicles = tuple(replace(VehicleState.new(f"v{i}", i % 3, "car", Pose(0.0, 0.0, 0.0)), status=Status.UNDEPLOYED)
                     for i in range(4))
    state = GameState(("A", "B", "C"), vehicles, RoundState.start(3, pole=2))
    game = Game(state, ScriptedDice(), OpenTableReferee(), FakePermissions())
    assert game.prompt.kind == "deploy" and game.prompt.player == 2 and game.prompt.options == (0, 1, 2)
    game.decide(Deploy("v2", 1))
    game.decide(Deploy("v0", 0))  # A, then B
    game.decide(Deploy("v1", 2))
    assert game.prompt.player == 0 and game.prompt.options == (3, 4, 5)  # only A has a car left
    game.decide(Deploy("v3", 4))
    assert game.state.vehicle("v3").pose.x_mm == pytest.approx(-(60.0 + FINGER_WIDTH_MM) - 30.0)
    assert game.prompt.kind == "activate"


# ----------------------------------------------------------------------------- Catch Up Mechanic (p.127)


class ThroughGate(OpenTableReferee):
    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        return replace(super().move(state, vehicle_id, plan), gates=("g1", "g2"))


def _catch_up_game(d6: list[int], votes: bool = True) -> Game:
    vehicles = (VehicleState.new("a", 0, "car", Pose(0.0, 0.0, 0.0)),
                VehicleState.new("b", 1, "car", Pose(0.0, 100.0, 0.0)),
                VehicleState.new("c", 2, "car", Pose(0.0, 200.0, 0.0)))
    state = GameState(("A", "B", "C"), vehicles, RoundState.start(3, pole=0))
    course = Course("death_race", ("g1", "g2", "g3"), weapons_from_gate=1, pole_at_gates=True)
    game = Game(state, ScriptedDice(d6=d6), ThroughGate(), FakePermissions(),
                Options(course=course, audience_votes=votes, pass_pole_each_phase=False))
    game.decide(Activate("a"))
    game.decide(ChooseTemplate("short_straight"))
    game.decide(RollSkid(0))
    game.decide(SpendShifts())  # Trivial in Gear 1: the free Shift (p.40)
    return game


def test_catch_up_first_through_a_gate_lets_the_others_roll_for_votes() -> None:
    # "a" is first through Gate 1 and Gate 2: B and C roll for each; D6 + gates behind >= 6 gains a Vote.
    game = _catch_up_game([5, 4, 3, 4])
    # Gate 1 (1 behind): B 5 -> 6 yes, C 4 -> 5 no; Gate 2 (counted at 2 behind): B 3 -> 5 no, C 4 -> 6 yes.
    assert game.state.votes == (0, 1, 1)
    assert sum(e.rule == "Catch Up Mechanic, p.127" for e in game.log) == 4
    assert game.state.gates_led == 2


def test_no_catch_up_without_audience_votes() -> None:
    game = _catch_up_game([], votes=False)
    assert game.state.gates_led == 2 and not any(e.rule == "Catch Up Mechanic, p.127" for e in game.log)
    assert game.prompt.kind in ("attacks", "pass_pole")
    if game.prompt.kind == "attacks":
        game.decide(DeclareAttacks())
