"""Vehicle special rules of the vehicle tables (p.66, p.68-71) and the War Rig (p.118-120), with exact dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulator.errors import IllegalChoice
from simulator.gaslands.collisions import Orientation, Reaction
from simulator.gaslands.decisions import (
    Activate,
    ChooseTemplate,
    Declare,
    DeclareAttacks,
    Drop,
    LoseControl,
    Piledrive,
    Pivot,
    React,
    RollSkid,
    SpendShifts,
    SwingTrailer,
)
from simulator.gaslands.dice import ScriptedDice
from simulator.gaslands.events import CrossedFinish, TrailerSwung
from simulator.gaslands.game import Game, Options
from simulator.gaslands.prompts import SwingTrailerPrompt, TemplatePrompt
from simulator.gaslands.race import Course
from simulator.gaslands.referee import Contact, MovePlan, MoveReport, OpenTableReferee
from simulator.gaslands.round import RoundState
from simulator.gaslands.state import GameState, Mount, VehicleState
from simulator.geometry.pose import Pose
from tests.gaslands.test_game import FakePermissions


def game_of(active: VehicleState, other: VehicleState, referee: OpenTableReferee, dice: ScriptedDice,
            options: Options | None = None) -> Game:
    """Two players; ``active`` (player 0) has Pole Position."""
    options = options or Options()
    state = GameState(("Blue", "Red"), (active, other), RoundState.start(2, pole=0))
    return Game(state, dice, referee, FakePermissions(), options)


def vehicle(vid: str, player: int, type_key: str, x: float = 100.0, gear: int = 1, hazards: int = 0,
            weapons: tuple[Mount, ...] = ()) -> VehicleState:
    return replace(VehicleState.new(vid, player, type_key, Pose(x, 100.0, 0.0), weapons), gear=gear,
                   hazards=hazards)


class CrashOnce(OpenTableReferee):
    """The first move collides with ``other`` (a vehicle, or an obstacle of ``obstacle_weight``); later ones
    and continued moves go where the open table says."""

    def __init__(self, other: str, orientation: Orientation = Orientation.HEAD_ON, *, obstacle_weight: str = "",
                 surfaces: tuple[str, ...] = ()) -> None:
        self.other, self.orientation, self.obstacle_weight, self.surfaces = other, orientation, obstacle_weight, surfaces
        self.crashed = False
        self.continued: list[tuple[str, ...]] = []
        self.forced: list[str] = []

    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        if self.crashed or not self.other:
            return replace(super().move(state, vehicle_id, plan), surfaces=self.surfaces)
        self.crashed = True
        contact = (Contact(self.other, self.orientation, "front", "front", obstacle=True,
                           obstacle_weight=self.obstacle_weight) if self.obstacle_weight
                   else Contact(self.other, self.orientation, "front", "side"))
        return MoveReport(state.vehicle(vehicle_id).pose.ahead(20.0), interrupted=True, contacts=(contact,))

    def continue_move(self, state: GameState, vehicle_id: str, plan: MovePlan, start: Pose,
                      ignoring: tuple[str, ...]) -> MoveReport:
        self.continued.append(ignoring)
        return MoveReport(start.ahead(120.0))

    def forced_move(self, state: GameState, vehicle_id: str, template: str, *, ignore_obstructions: bool) -> MoveReport:
        self.forced.append(template)
        return super().forced_move(state, vehicle_id, template, ignore_obstructions=ignore_obstructions)


class Blocked(OpenTableReferee):
    """Every pivot stops at once against something."""

    def spin(self, state: GameState, vehicle_id: str, angle_deg: float) -> MoveReport:
        return MoveReport(state.vehicle(vehicle_id).pose, interrupted=True)


def drive(game: Game, vid: str, template: str = "medium_straight") -> None:
    game.decide(Activate(vid))
    if game.prompt.kind == "pivot":
        game.decide(Pivot(0.0))
    game.decide(ChooseTemplate(template, "left" if "straight" not in template else None))
    if game.prompt.kind == "skid":
        game.decide(RollSkid(0))
    if game.prompt.kind == "shifts":
        game.decide(SpendShifts())


# ----------------------------------------------------------------------------- Ambulance (p.69)


def test_uppers_both_evade_so_both_change_up_with_a_hazard_token() -> None:
    amb, car = vehicle("amb", 0, "ambulance", gear=3), vehicle("car", 1, "car", 300.0, gear=5)
    dice = ScriptedDice(d6=[1, 2, 3, 1, 2, 3, 4, 5])  # Evade: 3 dice (Gear 3), 5 dice (Gear 5)
    game = game_of(amb, car, CrashOnce("car"), dice)
    drive(game, "amb")
    game.decide(React(Reaction.EVADE))
    game.decide(React(Reaction.EVADE))
    a, c = game.state.vehicle("amb"), game.state.vehicle("car")
    assert (a.gear, a.hazards) == (4, 1 + 1)  # 1 for both evading (p.54) + 1 for Uppers
    assert (c.gear, c.hazards) == (5, 2)  # already at max Gear: only the token (p.69)
    assert dice.exhausted and any(e.rule == "Uppers, p.69" for e in game.log)


def test_downers_target_discards_two_tokens_and_loses_a_crew_until_the_phase_ends() -> None:
    amb, car = vehicle("amb", 0, "ambulance", gear=3), vehicle("car", 1, "car", 300.0, gear=3, hazards=3)
    dice = ScriptedDice(d6=[1] * 6 + [1, 1, 1])  # Smash 3+3 dice, all miss; the car Evades with 3
    game = game_of(amb, car, CrashOnce("car"), dice)
    drive(game, "amb")
    game.decide(React(Reaction.SMASH))
    game.decide(React(Reaction.EVADE))
    c = game.state.vehicle("car")
    assert (c.hazards, c.crew_now) == (1, 1)
    assert game.state.vehicle("amb").hazards == 2
    assert dice.exhausted
    game.decide(DeclareAttacks())
    assert game.state.vehicle("car").crew_now == 1  # still Gear Phase 1 until Red is done
    game.decide(Activate("car"))
    game.decide(ChooseTemplate("medium_straight"))
    game.decide(RollSkid(0))
    game.decide(DeclareAttacks())
    assert game.state.round.gear_phase != 3 and game.state.vehicle("car").crew_now == 2  # reset at phase end


# ----------------------------------------------------------------------------- Performance Car (p.66)


def test_slip_away_gives_a_free_activation_that_does_not_count() -> None:
    car, perf = vehicle("car", 0, "car", gear=3), vehicle("perf", 1, "performance_car", 300.0, gear=3)
    dice = ScriptedDice(d6=[1, 1, 1, 6, 1, 1])  # T-Bone Smash: 3 dice; Evade: 3 dice
    game = game_of(car, perf, CrashOnce("perf", Orientation.T_BONE), dice)
    drive(game, "car")
    game.decide(React(Reaction.SMASH))
    game.decide(React(Reaction.EVADE))
    game.decide(DeclareAttacks())
    assert game.prompt.kind == "declare" and game.prompt.player == 1 and game.prompt.rule == "Slip Away, p.66"  # type: ignore[union-attr]
    game.decide(Declare("yes"))
    assert game.prompt.kind == "template" and game.prompt.vehicle_id == "perf"
    game.decide(ChooseTemplate("medium_straight"))
    game.decide(RollSkid(0))
    game.decide(DeclareAttacks())
    assert "perf" not in game.state.round.activated and "car" in game.state.round.activated
    assert game.prompt.kind == "activate" and game.prompt.options == ("perf",)  # it still activates in Phase 3
    assert dice.exhausted


def test_slip_away_needs_a_tailgate_or_t_bone() -> None:
    car, perf = vehicle("car", 0, "car", gear=3), vehicle("perf", 1, "performance_car", 300.0, gear=3)
    dice = ScriptedDice(d6=[1] * 6 + [1, 1, 1])
    game = game_of(car, perf, CrashOnce("perf", Orientation.HEAD_ON), dice)
    drive(game, "car")
    game.decide(React(Reaction.SMASH))
    game.decide(React(Reaction.EVADE))
    game.decide(DeclareAttacks())
    assert game.prompt.kind == "activate"


# ----------------------------------------------------------------------------- Monster Truck, Tank (p.70-71)


def test_up_and_over_a_lighter_obstacle_continues_the_move() -> None:
    truck, car = vehicle("truck", 0, "monster_truck", gear=2), vehicle("car", 1, "car", 900.0)
    ref = CrashOnce("crate", obstacle_weight="lightweight")
    dice = ScriptedDice(d6=[1] * 6)  # Head-On: 2 + 0 + 4 (two classes heavier) = 6 dice; the crate rolls 0
    game = game_of(truck, car, ref, dice)
    drive(game, "truck")
    game.decide(React(Reaction.SMASH))
    assert game.prompt.kind == "declare" and game.prompt.rule == "Up and Over, p.71"  # type: ignore[union-attr]
    game.decide(Declare("yes"))
    assert ref.continued == [("crate",)]
    assert game.state.vehicle("truck").pose == Pose(220.0, 100.0, 0.0)  # the whole Medium Straight from the start
    assert game.prompt.kind == "attacks" and dice.exhausted


def test_up_and_over_is_not_offered_against_heavier_or_equal_weights_or_another_monster() -> None:
    truck, car = vehicle("truck", 0, "monster_truck", gear=2), vehicle("car", 1, "car", 900.0)
    game = game_of(truck, car, CrashOnce("rock", obstacle_weight="heavyweight"), ScriptedDice(d6=[1] * 4))
    drive(game, "truck")
    game.decide(React(Reaction.SMASH))
    assert game.prompt.kind == "attacks"
    other = vehicle("tank", 1, "tank", 300.0, gear=2)
    game = game_of(truck, other, CrashOnce("tank"), ScriptedDice(d6=[1] * 8))
    drive(game, "truck")
    game.decide(React(Reaction.SMASH))
    game.decide(React(Reaction.SMASH))
    assert game.prompt.kind == "attacks"


def test_all_terrain_ignores_rough_and_treacherous_surfaces() -> None:
    truck, car = vehicle("truck", 0, "monster_truck", gear=2), vehicle("car", 1, "car", 900.0)
    game = game_of(truck, car, CrashOnce("", surfaces=("rough", "treacherous")), ScriptedDice())
    drive(game, "truck")
    assert game.state.vehicle("truck").hazards == 0
    assert any(e.rule == "All Terrain, p.71" for e in game.log)


def test_pivot_in_gear_1_any_facing_but_not_into_an_obstruction() -> None:
    bike, car = vehicle("bike", 0, "bike"), vehicle("car", 1, "car", 900.0)
    game = game_of(bike, car, OpenTableReferee(), ScriptedDice())
    game.decide(Activate("bike"))
    assert game.prompt.kind == "pivot" and game.prompt.options == ("Pivot",)
    game.decide(Pivot(135.0))
    assert game.state.vehicle("bike").pose.heading_deg == pytest.approx(135.0)
    assert game.state.vehicle("bike").hazards == 0 and game.prompt.kind == "template"
    blocked = game_of(bike, car, Blocked(), ScriptedDice())
    blocked.decide(Activate("bike"))
    with pytest.raises(IllegalChoice, match="Pivot, p.69"):
        blocked.decide(Pivot(90.0))
    fast = game_of(replace(bike, gear=2), car, OpenTableReferee(), ScriptedDice())
    fast.decide(Activate("bike"))
    assert fast.prompt.kind == "template"  # only in Gear 1


# ----------------------------------------------------------------------------- Helicopter, Gyrocopter (p.70)


def test_airwolf_pivots_up_to_90_degrees_for_two_hazard_tokens() -> None:
    gyro, car = vehicle("gyro", 0, "gyrocopter", gear=3), vehicle("car", 1, "car", 900.0)
    game = game_of(gyro, car, OpenTableReferee(), ScriptedDice())
    game.decide(Activate("gyro"))
    assert game.prompt.kind == "pivot" and game.prompt.options == ("Airwolf",)
    with pytest.raises(IllegalChoice, match="Airwolf, p.70"):
        game.decide(Pivot(120.0))
    game.decide(Pivot(-45.0))
    g = game.state.vehicle("gyro")
    assert (g.pose.heading_deg, g.hazards) == (pytest.approx(315.0), 2)


def test_bombs_away_drops_any_number_of_weapons() -> None:
    mines = (Mount.fitted("mine_dropper", "rear"), Mount.fitted("caltrop_dropper", "rear"))
    gyro, car = vehicle("gyro", 0, "gyrocopter", gear=2, weapons=mines), vehicle("car", 1, "car", 900.0)
    game = game_of(gyro, car, OpenTableReferee(), ScriptedDice())
    game.decide(Activate("gyro"))
    game.decide(Pivot(0.0))
    game.decide(ChooseTemplate("long_straight"))
    game.decide(RollSkid(0))
    game.decide(DeclareAttacks((), (Drop(0), Drop(1))))  # Crew 1, two drops (p.70)
    assert [t.weapon for t in game.state.dropped] == ["mine_dropper", "caltrop_dropper"]
    truck = vehicle("truck", 0, "truck", gear=2, weapons=mines)
    game = game_of(truck, car, OpenTableReferee(), ScriptedDice())
    drive(game, "truck")
    with pytest.raises(IllegalChoice, match="p.78"):
        game.decide(DeclareAttacks((), (Drop(0), Drop(1))))


def test_a_helicopter_cannot_win_a_death_race() -> None:
    class Finish(OpenTableReferee):
        def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
            return replace(super().move(state, vehicle_id, plan), gates=("g1",))

    heli, car = vehicle("heli", 0, "helicopter", gear=2), vehicle("car", 1, "car", 900.0)
    options = Options(course=Course("death_race", ("g1",), pole_at_gates=True))
    game = game_of(heli, car, Finish(), ScriptedDice(), options)
    drive(game, "heli")
    assert game.state.vehicle("heli").gates_passed == 1 and game.state.winner is None
    assert any(isinstance(e, CrossedFinish) and not e.wins and e.page == "p.128" for e in game.log)


# ----------------------------------------------------------------------------- Drag Racer (p.70, p.84)


def test_jet_engine_must_use_nitro_every_activation() -> None:
    racer, car = vehicle("racer", 0, "drag_racer", hazards=1), vehicle("car", 1, "car", 900.0)
    ref = CrashOnce("")
    game = game_of(racer, car, ref, ScriptedDice())
    game.decide(Activate("racer"))
    assert ref.forced == ["long_straight"]
    r = game.state.vehicle("racer")
    assert (r.pose.x_mm, r.hazards) == (pytest.approx(282.0), 5)
    assert isinstance(game.prompt, TemplatePrompt) and not game.prompt.reverse_allowed
    assert "Nitro" in game.prompt.reverse_reason
    with pytest.raises(IllegalChoice, match="Nitro Booster, p.84"):
        game.decide(ChooseTemplate("short_straight", reverse=True))
    game.decide(ChooseTemplate("short_straight"))
    game.decide(RollSkid(0))
    game.decide(SpendShifts())
    assert game.state.vehicle("racer").hazards == 5


# ----------------------------------------------------------------------------- War Rig (p.118-120)


def test_tanker_anchor_skips_the_movement_step_and_may_change_up() -> None:
    rig, car = vehicle("rig", 0, "war_rig", gear=2), vehicle("car", 1, "car", 900.0)
    game = game_of(rig, car, OpenTableReferee(), ScriptedDice())
    game.decide(Activate("rig"))
    assert game.prompt.kind == "declare" and game.prompt.rule == "Tanker Anchor, p.120"  # type: ignore[union-attr]
    game.decide(Declare("skip_gear_up"))
    r = game.state.vehicle("rig")
    assert (r.gear, r.hazards, r.pose) == (3, 1, rig.pose) and game.prompt.kind == "attacks"


def test_articulated_turns_cost_a_hazard_token() -> None:
    rig, car = vehicle("rig", 0, "war_rig", gear=2), vehicle("car", 1, "car", 900.0)
    game = game_of(rig, car, OpenTableReferee(), ScriptedDice())
    game.decide(Activate("rig"))
    game.decide(Declare("no"))
    game.decide(ChooseTemplate("gentle", "left"))
    assert game.state.vehicle("rig").hazards == 1


def test_jackknife_instead_of_a_flip_swing_pivot_then_crunch_and_no_lose_control() -> None:
    rig, car = vehicle("rig", 0, "war_rig", gear=3, hazards=6), vehicle("car", 1, "car", 900.0)
    dice = ScriptedDice(d6=[1, 6, 4, 2, 1])  # Flip check 1 < Gear 3; Crunch 4D6: 6, 4, 2, 1 = 3 hits
    game = game_of(rig, car, OpenTableReferee(), dice)
    game.decide(Activate("rig"))
    game.decide(Declare("no"))
    game.decide(ChooseTemplate("medium_straight"))
    game.decide(RollSkid(0))
    game.decide(DeclareAttacks())
    p = game.prompt
    assert isinstance(p, SwingTrailerPrompt) and (p.player, p.vehicle_id, p.max_deg) == (1, "rig", 90.0)
    with pytest.raises(IllegalChoice, match="overlap the cab"):
        game.decide(SwingTrailer(120.0))
    game.decide(SwingTrailer(-60.0))  # Swing Trailer (p.119), by the player to the left
    assert game.state.vehicle("rig").bend_deg == -60.0
    assert game.prompt.kind == "lose_control" and game.prompt.player == 1 and game.prompt.vehicle_id == "rig"
    game.decide(LoseControl(90.0))  # Pivot Vehicle
    r = game.state.vehicle("rig")
    assert (r.damage, r.gear, r.hazards, r.pose.heading_deg, r.bend_deg) == (3, 1, 0, pytest.approx(90.0), -60.0)
    assert game.prompt.kind == "activate" and dice.exhausted  # Ponderous: no second pivot (p.120)
    assert any(e.rule == "Jackknife, p.119" for e in game.log)
    swung = [e for e in game.log if isinstance(e, TrailerSwung)]
    assert [(e.requested_deg, e.reached_deg, e.page) for e in swung] == [(-60.0, -60.0, "p.119")]


def test_piledriver_moves_a_lighter_target_within_short_range() -> None:
    rig, car = vehicle("rig", 0, "war_rig", gear=2), vehicle("car", 1, "car", 300.0, gear=2)
    dice = ScriptedDice(d6=[1] * 6 + [1, 1])  # Head-On 2 + 2 + 2 (a class heavier) = 6 dice; Evade 2
    game = game_of(rig, car, CrashOnce("car"), dice)
    game.decide(Activate("rig"))
    game.decide(Declare("no"))
    game.decide(ChooseTemplate("medium_straight"))
    game.decide(RollSkid(0))
    game.decide(SpendShifts())  # Trivial in Gear 2: a free Shift (p.40)
    assert game.prompt.options == (Reaction.SMASH, Reaction.EVADE, Reaction.PILEDRIVER)
    game.decide(React(Reaction.PILEDRIVER))
    with pytest.raises(IllegalChoice):
        game.decide(React(Reaction.PILEDRIVER))  # only the active vehicle may piledrive
    game.decide(React(Reaction.EVADE))
    assert game.prompt.kind == "piledriver" and game.prompt.player == 0
    assert game.prompt.target == "car"  # type: ignore[union-attr]
    with pytest.raises(IllegalChoice, match="Short range"):
        game.decide(Piledrive(600.0, 100.0, 0.0))
    game.decide(Piledrive(340.0, 130.0, 180.0))
    assert game.state.vehicle("car").pose == Pose(340.0, 130.0, 180.0)
    assert game.prompt.kind == "attacks" and dice.exhausted


def test_piledriver_is_not_offered_against_an_equal_weight() -> None:
    rig, bus = vehicle("rig", 0, "war_rig", gear=2), vehicle("bus", 1, "bus", 300.0, gear=2)
    game = game_of(rig, bus, CrashOnce("bus"), ScriptedDice(d6=[1] * 8))
    game.decide(Activate("rig"))
    game.decide(Declare("no"))
    game.decide(ChooseTemplate("medium_straight"))
    game.decide(RollSkid(0))
    game.decide(SpendShifts())  # Trivial in Gear 2: a free Shift (p.40)
    assert game.prompt.options == (Reaction.SMASH, Reaction.EVADE)
