"""new_game from scenario files, the bot, and a full bot Street Race on the real table."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from simulator.errors import InputFileError
from simulator.gaslands.bots import RECOVERY_GEAR, Bot, Navigator, play_bot_game
from simulator.gaslands.game import Game, Options
from simulator.gaslands.referee import OpenTableReferee
from simulator.gaslands.state import Status
from simulator.geometry.pose import Pose
from simulator.scenario.loader import bundled_scenario, load_scenario, parse_scenario
from simulator.scenario.saves import from_json
from simulator.scenario.setup import course_for, initial_state, new_game

STREET = load_scenario(bundled_scenario())


def test_new_game_builds_players_vehicles_weapons_and_pole() -> None:
    game = new_game(STREET, seed=5)
    s = game.state
    assert s.players == ("Red Team", "Blue Team")
    assert [v.id for v in s.vehicles] == ["red-car", "blue-car", "red-buggy", "blue-buggy"]
    car = s.vehicle("red-car")
    assert (car.player, car.type_key, car.hull, car.gear, car.pose) == (0, "car", 10, 1, Pose(165.0, 530.0, 0.0))
    assert [(m.weapon, m.facing) for m in car.weapons] == [("machine_gun", "front")]
    assert s.vehicle("blue-buggy").has("Roll Cage")
    assert game.options.course.kind == "street_race" and game.options.pass_pole_each_phase
    assert game.prompt.kind == "activate" and game.prompt.player == s.round.pole
    assert game.origin is not None and "Street Race" in game.origin.scenario_text
    poles = {initial_state(STREET, seed).round.pole for seed in range(20)}
    assert poles == {0, 1}  # a roll-off decided by the seed (p.62)
    assert initial_state(STREET, 7) == initial_state(STREET, 7)


def test_scenario_pole_position_and_death_race_course() -> None:
    raw = tomllib.loads(bundled_scenario("death_race.toml").read_text())
    raw["scenario"]["pole_position"] = "blue"
    sc = parse_scenario(raw, str(bundled_scenario("death_race.toml")))
    assert initial_state(sc, 1).round.pole == 1
    course = course_for(sc)
    assert course.gates == ("gate-1", "gate-2", "gate-3", "gate-4", "gate-5", "start-finish")
    assert course.weapons_from_gate == 1 and course.pole_at_gates


def test_a_vehicle_without_a_player_is_an_error() -> None:
    raw = tomllib.loads(bundled_scenario().read_text())
    del raw["vehicle"][0]["player"]
    with pytest.raises(InputFileError, match=r"vehicle\[1\]\.player"):
        initial_state(parse_scenario(raw, "<test>"), 1)


def test_navigator_goes_round_obstacles_towards_the_finish() -> None:
    nav = Navigator(STREET.table, course_for(STREET))
    start, near = Pose(165.0, 530.0, 0.0), Pose(950.0, 450.0, 0.0)
    assert nav.value(0, near) < nav.value(0, start)
    assert nav.alignment(0, start) > 0 > nav.alignment(0, Pose(165.0, 530.0, 180.0))


def test_full_bot_street_race_finishes_with_a_winner() -> None:
    game = play_bot_game(new_game(STREET, seed=11, options=Options(round_limit=30)), Bot())
    assert game.prompt.kind == "game_over"
    assert game.state.winner in (0, 1)
    assert any("Finish Line" in e.text or "last player" in e.text for e in game.log)


def test_bots_are_deterministic() -> None:
    a = play_bot_game(new_game(STREET, seed=4, options=Options(round_limit=30)), Bot())
    b = play_bot_game(new_game(STREET, seed=4, options=Options(round_limit=30)), Bot())
    assert a.decisions == b.decisions and a.state == b.state


def test_bot_on_the_open_table_referee_answers_every_prompt() -> None:
    game = new_game(STREET, seed=2, options=Options(round_limit=3))
    game.referee = OpenTableReferee()
    play_bot_game(game, Bot())
    assert game.prompt.kind == "game_over"


def test_wrecked_vehicles_stay_as_wrecks_or_are_removed() -> None:
    for seed in range(3):
        game = play_bot_game(new_game(STREET, seed=seed, options=Options(round_limit=30)), Bot())
        for v in game.state.vehicles:
            if v.damage >= v.hull:
                assert v.status in (Status.WRECK, Status.REMOVED, Status.DISQUALIFIED)


CIRCLING = Path(__file__).resolve().parents[1] / "fixtures" / "fuzz" / "r37_death_race_seed2_stuck.json"


def _circling_game(decisions: int) -> Game:
    """The reliability review's Death Race with no round limit (seed 2), after its first ``decisions``: an
    older bot's Blue Car, with gates 1-5 passed, circles right beside the Start-Finish gate from round 13 on."""
    document = json.loads(CIRCLING.read_text(encoding="utf-8"))
    document["decisions"] = document["decisions"][:decisions]
    return from_json(document, str(CIRCLING))


def test_a_bot_going_round_in_circles_changes_plan_and_the_game_ends() -> None:
    """Eight Movement Steps with no gate passed (p.127) that turned the car through a full circle: the bot
    cruises in Gear 2, where its tight turns are permitted (p.18); the same car just after passing a gate is left
    alone. Played on by bots with no round limit, the game ends."""
    bot = Bot()
    early = _circling_game(440)  # Blue Car has just passed gate 5
    assert not bot._circling(early, early.state.vehicle("blue-car"))
    game = _circling_game(520)  # round 16: its last eight moves, Turns right but two, went round in a circle
    assert game.options.round_limit is None and game.state.round.round_no == 16
    car = game.state.vehicle("blue-car")
    assert car.gates_passed == 5 and car.in_play and car.gear == 3
    assert bot._circling(game, car)
    bot._game = game
    assert bot._cruise_gear(car, bot._nav(game)) == RECOVERY_GEAR == 2
    while game.prompt.kind != "game_over" and game.state.round.round_no < 16 + 30:
        game.decide(bot.decide(game))
    assert game.prompt.kind == "game_over" and game.state.winner is not None
