"""The War Rig's Ponderous rules and the Piledriver on a real table (p.119-120): a Slide gives its Hazard Token
but no Slide template, a Wipeout does not pivot it, a Piledriver's target may not be put touching either piece."""

from __future__ import annotations

from simulator.gaslands.decisions import (
    Activate,
    ChooseTemplate,
    Declare,
    DeclareAttacks,
    PushIt,
    RollSkid,
    SpendShifts,
)
from simulator.gaslands.dice import ScriptedDice, SkidFace
from simulator.gaslands.events import WipedOut
from simulator.gaslands.game import Game
from simulator.gaslands.referee import MovePlan, MoveReport, OpenTableReferee
from simulator.gaslands.state import GameState
from simulator.geometry.pose import Pose
from tests.gaslands.test_special_rules import game_of, vehicle
from tests.gaslands.test_table_referee import car, setup, war_rig


class Recording(OpenTableReferee):
    """The open table, remembering each move it was asked to resolve."""

    def __init__(self) -> None:
        self.plans: list[MovePlan] = []

    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        self.plans.append(plan)
        return super().move(state, vehicle_id, plan)


def _slide(type_key: str) -> tuple[Game, Recording]:
    ref = Recording()
    game = game_of(vehicle("v", 0, type_key, gear=2), vehicle("car", 1, "car", 900.0), ref,
                   ScriptedDice(skid=[SkidFace.SLIDE]))
    game.decide(Activate("v"))
    if game.prompt.kind == "declare":
        game.decide(Declare("no"))  # no Tanker Anchor
    game.decide(ChooseTemplate("medium_straight"))
    game.decide(RollSkid(1))
    if game.prompt.kind == "push_it":
        game.decide(PushIt())
    if game.prompt.kind == "shifts":
        game.decide(SpendShifts())
    return game, ref


def test_a_ponderous_slide_gives_its_hazard_token_but_no_slide_template() -> None:
    rig, ref = _slide("war_rig")
    assert rig.prompt.kind != "slide_facing"  # no Slide template to face (p.120)
    assert [p.slide for p in ref.plans] == [False]
    assert rig.state.vehicle("v").hazards == 1  # the Slide's Hazard Token all the same (p.24, p.120)
    car_game, _ = _slide("car")
    assert car_game.prompt.kind == "slide_facing"  # a car places the Slide template (p.24)


def test_a_ponderous_wipeout_is_not_pivoted() -> None:
    rig = vehicle("rig", 0, "war_rig", gear=2, hazards=5)
    dice = ScriptedDice(d6=[6], skid=[SkidFace.HAZARD])  # the 6th Hazard Token; Flip check 6 >= Gear 2: no Flip
    game = game_of(rig, vehicle("car", 1, "car", 900.0), OpenTableReferee(), dice)
    game.decide(Activate("rig"))
    game.decide(Declare("no"))
    game.decide(ChooseTemplate("short_straight"))
    game.decide(RollSkid(1))
    game.decide(PushIt())
    game.decide(DeclareAttacks())
    assert any(isinstance(e, WipedOut) for e in game.log)
    assert game.prompt.kind == "activate"  # no Lose Control for the player to the left (p.120)
    r = game.state.vehicle("rig")
    assert (r.gear, r.hazards, r.pose.heading_deg) == (1, 0, 0.0) and dice.exhausted


def test_piledriver_placement_keeps_clear_of_the_trailer() -> None:
    _, state, ref = setup(war_rig("rig", "red", 400, 400, 0) + car("b", "blue", 400, 470, 0))
    trailer = ref.table(state).vehicle("rig").trailer
    assert trailer is not None and (trailer.pose, trailer.length_mm, trailer.width_mm) == (Pose(285, 400, 0), 150, 50)
    beside = 400.0 + 25.0 + 15.0  # the car's side on the trailer's side
    assert ref.place(state, "b", Pose(285.0, beside, 0.0), Pose(400, 470, 0), "rig") == "it would touch rig again"
    assert ref.place(state, "b", Pose(285.0, beside + 1.0, 0.0), Pose(400, 470, 0), "rig") == ""
    assert "Short range" in ref.place(state, "b", Pose(700.0, 700.0, 0.0), Pose(400, 470, 0), "rig")


def test_a_bot_swings_a_rivals_trailer_as_far_as_it_goes_and_the_game_goes_on() -> None:
    from simulator.gaslands.bots import Bot
    from simulator.gaslands.decisions import SwingTrailer
    from simulator.gaslands.prompts import SwingTrailerPrompt

    rig, other = vehicle("rig", 0, "war_rig", gear=3, hazards=6), vehicle("car", 1, "car", 900.0)
    dice = ScriptedDice(d6=[1, 6, 4, 2, 1])  # Flip check 1 < Gear 3: a Jackknife (p.119); the Crunch's 4D6
    game = game_of(rig, other, OpenTableReferee(), dice)
    game.decide(Activate("rig"))
    game.decide(Declare("no"))
    game.decide(ChooseTemplate("medium_straight"))
    game.decide(RollSkid(0))
    game.decide(DeclareAttacks())
    p = game.prompt
    assert isinstance(p, SwingTrailerPrompt) and p.player == 1  # the player to the left
    swing = Bot().decide(game)
    assert swing == SwingTrailer(90.0)  # a rival folds it all the way (bots.py)
    game.decide(swing)
    assert game.state.vehicle("rig").bend_deg == 90.0 and game.prompt.kind == "lose_control"
    game.decide(Bot().decide(game))  # Pivot Vehicle, then the Crunch
    assert game.prompt.kind == "activate" and dice.exhausted
