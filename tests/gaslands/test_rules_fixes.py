"""Rules contradictions of issue 8, each fixed with its page: the Finish Line (p.62, p.128), the Lose Control
pivot's log (p.35) and surface Hazard Tokens (p.86)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulator.gaslands.decisions import Activate, ChooseTemplate, LoseControl, RollSkid, SpendShifts
from simulator.gaslands.dice import ScriptedDice
from simulator.gaslands.events import CrossedFinish, GameOver, LostControl, SurfaceHazards
from simulator.gaslands.game import Game, Options
from simulator.gaslands.prompts import GameOverPrompt, LoseControlPrompt
from simulator.gaslands.referee import MovePlan, MoveReport, OpenTableReferee
from simulator.gaslands.state import GameState
from simulator.geometry.pose import Pose
from simulator.scenario.loader import parse_scenario
from simulator.scenario.setup import new_game
from tests.gaslands.test_special_rules import game_of, vehicle

CLIP = """
[scenario]
name = "Clip"
kind = "street_race"
pole_position = "blue"
[table]
width_mm = 1220.0
height_mm = 915.0
[[player]]
id = "blue"
[[player]]
id = "red"
[[vehicle]]
id = "blue-car"
name = "Blue Car"
player = "blue"
type = "car"
x_mm = 885.0
y_mm = 351.846
heading_deg = 0.0
[[vehicle]]
id = "red-car"
name = "Red Car"
player = "red"
type = "car"
x_mm = 200.0
y_mm = 700.0
heading_deg = 0.0
[[line]]
id = "start"
kind = "start"
a = [200.0, 366.0]
b = [200.0, 548.0]
[[line]]
id = "finish"
kind = "finish"
a = [1000.0, 366.0]
b = [1000.0, 548.0]
"""


def roll_none(game: Game) -> None:
    """No Skid Dice; a free Shift of a Trivial template (p.40) is left unspent."""
    game.decide(RollSkid(0))
    if game.prompt.kind == "shifts":
        game.decide(SpendShifts())


def clip_game(finish_line: str | None = None) -> Game:
    """Blue Car's Turn left ends with its side over the Finish Line and its centre 10 mm short of it."""
    text = CLIP + (f"[options]\nfinish_line = \"{finish_line}\"\n" if finish_line else "")
    import tomllib

    scenario = parse_scenario(tomllib.loads(text), "clip.toml")
    game = new_game(scenario, seed=1)
    game.dice = ScriptedDice()
    game.decide(Activate("blue-car"))
    game.decide(ChooseTemplate("turn", "left"))
    roll_none(game)
    return game


def test_a_side_touching_the_finish_line_is_not_a_crossing_by_default() -> None:
    """p.62 says cross: the centre must pass over the line (docs/rulings.md, finish_line = "centre")."""
    game = clip_game()
    moved = game.state.vehicle("blue-car").pose
    assert moved.x_mm == pytest.approx(990.0, abs=0.01)  # 10 mm short of the line
    assert game.state.winner is None and not isinstance(game.prompt, GameOverPrompt)
    assert not any(isinstance(e, CrossedFinish) for e in game.log)


def test_the_touch_reading_is_a_named_option() -> None:
    game = clip_game("touch")
    assert game.state.winner == 0 and isinstance(game.prompt, GameOverPrompt)
    assert game.prompt.standings[0] == "Blue Car"


def test_a_race_won_ends_the_game_at_once_with_the_winner_first() -> None:
    """p.62: the first vehicle across wins and the game is over: no Attack Step follows the crossing."""

    class Across(OpenTableReferee):
        def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
            return replace(super().move(state, vehicle_id, plan), finish_point=(300.0, 100.0), finish_touch=True)

    game = game_of(vehicle("a", 0, "car"), vehicle("b", 1, "car", 600.0), Across(), ScriptedDice())
    game.decide(Activate("a"))
    game.decide(ChooseTemplate("medium_straight"))
    roll_none(game)
    assert isinstance(game.prompt, GameOverPrompt) and game.prompt.winner == 0
    crossing = next(e for e in game.log if isinstance(e, CrossedFinish))
    assert crossing.point == (300.0, 100.0) and crossing.wins and "(300, 100)" in crossing.text
    over = game.log[-1]
    assert isinstance(over, GameOver) and over.standings[0] == "a" and "crossed the Finish Line" in over.reason


def test_a_wreck_skidding_across_the_line_does_not_win() -> None:
    """p.43: a Wreck is out of the race; its Skid to a Halt crossing the line wins nothing (banner and standings
    agree because there is no winner to disagree about)."""

    class SkidAcross(OpenTableReferee):
        def forced_move(self, state: GameState, vehicle_id: str, template: str, *,
                        ignore_obstructions: bool) -> MoveReport:
            return replace(super().forced_move(state, vehicle_id, template, ignore_obstructions=ignore_obstructions),
                           finish_point=(160.0, 100.0), finish_touch=True)

    burning = replace(vehicle("a", 0, "car"), on_fire=True, damage=9)  # 1 Hull Point left: burns to a wreck
    game = game_of(burning, vehicle("b", 1, "car", 600.0), SkidAcross(), ScriptedDice(d6=[1]))
    game.decide(Activate("a"))
    crossing = next(e for e in game.log if isinstance(e, CrossedFinish))
    assert not crossing.wins and "Wreck" in crossing.text and "p.43" in crossing.text
    assert game.state.winner != 0


def test_lose_control_says_what_stopped_the_pivot_and_where() -> None:
    """p.35: the chosen facing is reached unless something stops the pivot; the log says both."""

    class Crates(OpenTableReferee):
        def pivot(self, state: GameState, vehicle_id: str, heading_deg: float) -> MoveReport:
            p = state.vehicle(vehicle_id).pose
            return MoveReport(Pose(p.x_mm, p.y_mm, 30.0), interrupted=True, turned_deg=30.0,
                              stopped_by=("crate-1",))

        def name_of(self, piece_id: str) -> str:
            return "crates" if piece_id == "crate-1" else piece_id

    wobbly = vehicle("a", 0, "car", gear=3, hazards=6)
    game = game_of(wobbly, vehicle("b", 1, "car", 600.0), Crates(), ScriptedDice(d6=[5]))
    game.decide(Activate("a"))
    game.decide(ChooseTemplate("medium_straight"))
    roll_none(game)
    from simulator.gaslands.decisions import DeclareAttacks

    game.decide(DeclareAttacks())
    assert isinstance(game.prompt, LoseControlPrompt) and game.prompt.vehicle_id == "a"
    game.decide(LoseControl(90.0))
    event = next(e for e in game.log if isinstance(e, LostControl))
    assert (event.requested_deg, event.reached_deg, event.stopped_by) == (90.0, 30.0, ("crates",))
    assert "chose heading 90 degrees; stopped by crates at 30" in event.text


def test_surface_hazard_tokens_are_in_the_log() -> None:
    """p.86: rough ground gives a Hazard Token at the end of the Movement Step, and the log says so."""

    class Rough(OpenTableReferee):
        def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
            return replace(super().move(state, vehicle_id, plan), surfaces=("rough",))

    game = game_of(vehicle("a", 0, "car"), vehicle("b", 1, "car", 600.0), Rough(), ScriptedDice())
    game.decide(Activate("a"))
    game.decide(ChooseTemplate("medium_straight"))
    roll_none(game)
    event = next(e for e in game.log if isinstance(e, SurfaceHazards))
    assert event.hazard_delta == 1 and game.state.vehicle("a").hazards == 1
    assert "rough ground: +1 Hazard Token" in event.text and event.rule == "Surfaces, p.86"


def test_options_default_to_the_centre_reading() -> None:
    assert Options().finish_line == "centre"
