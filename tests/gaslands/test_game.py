"""The decision-driven game: activation sequence, Touch It Use It, attacks, wipeouts, replay and undo."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.errors import IllegalChoice
from simulator.gaslands.collisions import Orientation, Reaction
from simulator.gaslands.decisions import (
    Activate,
    Attack,
    ChooseTemplate,
    Decision,
    DeclareAttacks,
    LoseControl,
    PushIt,
    React,
    RollSkid,
    SlideFacing,
    SpendShifts,
    Spin,
)
from simulator.gaslands.dice import ScriptedDice, SkidFace
from simulator.gaslands.game import Game
from simulator.gaslands.referee import Contact, MovePlan, MoveReport, OpenTableReferee
from simulator.gaslands.round import RoundState
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.gaslands.state import GameState, Mount, VehicleState
from simulator.geometry.pose import Pose

# The permitted-gear table of GEOMETRY.md section 1 (T trivial, P permitted, H hazardous, - not).
TABLE = {
    "short_straight": "TPP---", "medium_straight": "TTPP--", "long_straight": "-PPPPT",
    "gentle": "TPPPPH", "turn": "TPPH--", "hard": "PPH---", "hairpin": "PP----", "veer": "-PPH--",
    "swerve": "--PPPH",
}


@dataclass(frozen=True)
class _Perm:
    name: str


class FakePermissions:
    def permission(self, template_name: str, gear: int) -> _Perm:
        code = TABLE[template_name][gear - 1]
        return _Perm({"T": "TRIVIAL", "P": "PERMITTED", "H": "HAZARDOUS", "-": "NOT_PERMITTED"}[code])


def two_cars() -> GameState:
    mg = (Mount.fitted("machine_gun"),)
    return GameState(
        players=("Blue", "Red"),
        vehicles=(
            VehicleState.new("blue", 0, "car", Pose(100.0, 100.0, 90.0), mg),
            VehicleState.new("red", 1, "car", Pose(300.0, 100.0, 90.0), mg),
        ),
        round=RoundState.start(2),
    )


def test_example_of_play_p58_blue_first_activation() -> None:
    """Blue: Turn (Trivial in Gear 1), free Shift to Gear 2, two Handguns at Red: 3 and 6, Red evades one (p.58)."""
    dice = ScriptedDice(d6=[3, 6, 6])
    game = Game(two_cars(), dice, OpenTableReferee(), FakePermissions())
    assert game.prompt.kind == "activate" and game.prompt.options == ("blue",)
    game.decide(Activate("blue"))
    game.decide(ChooseTemplate("turn", "left"))
    assert game.prompt.kind == "skid"
    game.decide(RollSkid(0))
    assert game.prompt.kind == "shifts"
    game.decide(SpendShifts((SpendShift(ShiftUse.GEAR_UP),)))
    assert (game.state.vehicle("blue").gear, game.state.vehicle("blue").hazards) == (2, 1)
    game.decide(DeclareAttacks((Attack(-1, "red"), Attack(-1, "red"))))
    assert game.state.vehicle("red").damage == 1
    assert dice.exhausted
    assert game.prompt.kind == "activate" and game.prompt.player == 1


def test_touch_it_use_it_passes_the_choice_and_forbids_skid_dice() -> None:
    game = Game(two_cars(), ScriptedDice(d6=[1]), OpenTableReferee(), FakePermissions())
    game.decide(Activate("blue"))
    game.decide(ChooseTemplate("veer", "left"))  # not permitted in Gear 1 (p.22)
    assert game.prompt.kind == "template" and game.prompt.player == 1  # p.38
    with pytest.raises(IllegalChoice, match="p.17"):
        game.decide(ChooseTemplate("long_straight"))
    game.decide(ChooseTemplate("hairpin", "right"))
    assert game.prompt.kind == "attacks"  # no Skid Dice, no free Shift for a Hairpin in Gear 1
    assert len(game.decisions) == 3


def test_illegal_decision_leaves_the_prompt() -> None:
    game = Game(two_cars(), ScriptedDice(), OpenTableReferee(), FakePermissions())
    with pytest.raises(IllegalChoice):
        game.decide(Activate("red"))  # Blue has Pole Position (p.19)
    with pytest.raises(IllegalChoice):
        game.decide(RollSkid(1))
    assert game.prompt.kind == "activate" and game.decisions == []


class CrashReferee(OpenTableReferee):
    """Every move ends in a Head-On with the other car."""

    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        other = next(v.id for v in state.vehicles if v.id != vehicle_id)
        return MoveReport(state.vehicle(vehicle_id).pose, interrupted=True,
                          contacts=(Contact(other, Orientation.HEAD_ON),))


def test_collision_reactions_and_smash_dice_p59() -> None:
    """Red in Gear 3 hits Blue in Gear 2 head-on, both Smash: five dice each (p.59)."""
    state = two_cars()
    state = state.with_vehicle(replace(state.vehicle("blue"), gear=2))
    state = state.with_vehicle(replace(state.vehicle("red"), gear=3))
    state = GameState(state.players, state.vehicles, RoundState.start(2, pole=1))
    dice = ScriptedDice(d6=[4, 4, 4, 4, 4, 4, 4, 4, 1, 1])
    game = Game(state, dice, CrashReferee(), FakePermissions())
    game.decide(Activate("red"))
    game.decide(ChooseTemplate("medium_straight"))
    game.decide(RollSkid(0))
    assert game.prompt.kind == "react" and game.prompt.player == 1
    game.decide(React(Reaction.SMASH))
    assert game.prompt.kind == "react" and game.prompt.player == 0
    game.decide(React(Reaction.SMASH))
    assert (game.state.vehicle("blue").damage, game.state.vehicle("red").damage) == (5, 3)
    assert (game.state.vehicle("blue").hazards, game.state.vehicle("red").hazards) == (2, 2)
    assert dice.exhausted


def test_wipeout_resets_and_next_player_sets_the_facing() -> None:
    """A vehicle on 6 tokens wipes out: Flip check, reset, Lose Control by the next player (p.34-35)."""
    state = two_cars()
    state = state.with_vehicle(replace(state.vehicle("blue"), hazards=5, gear=2))
    dice = ScriptedDice(d6=[6], skid=[SkidFace.HAZARD])
    game = Game(state, dice, OpenTableReferee(), FakePermissions())
    game.decide(Activate("blue"))
    game.decide(ChooseTemplate("short_straight"))
    game.decide(RollSkid(1))
    game.decide(PushIt())
    game.decide(DeclareAttacks())
    assert game.prompt.kind == "lose_control" and game.prompt.player == 1
    game.decide(LoseControl(180.0))
    blue = game.state.vehicle("blue")
    assert (blue.gear, blue.hazards, blue.pose.heading_deg) == (1, 0, 180.0)


def random_decision(game: Game, rng: random.Random) -> Decision:
    """A random legal-looking answer to the current prompt (a minimal bot)."""
    p = game.prompt
    v = game.state.vehicle(p.vehicle_id) if p.vehicle_id else None
    if p.kind == "activate":
        return Activate(str(rng.choice(p.options)))
    if p.kind == "template":
        return ChooseTemplate(str(rng.choice(p.options)), rng.choice(("left", "right")))
    if p.kind == "skid":
        return RollSkid(rng.choice([int(str(o)) for o in p.options]))
    if p.kind == "push_it":
        return PushIt((0,) if rng.random() < 0.3 else ())
    if p.kind == "shifts":
        use = ShiftUse.DISCARD_HAZARD if v is not None and v.hazards > 0 else ShiftUse.DISCARD
        return SpendShifts((SpendShift(use),))
    if p.kind == "slide_facing":
        return SlideFacing(rng.choice(("left", "right")))
    if p.kind == "spin":
        return Spin(rng.uniform(-90.0, 90.0))
    if p.kind == "react":
        return React(rng.choice((Reaction.SMASH, Reaction.EVADE)))
    if p.kind == "attacks":
        others = [u.id for u in game.state.vehicles if u.in_play and v is not None and u.id != v.id]
        return DeclareAttacks((Attack(0, others[0]),) if others and v is not None and v.weapons else ())
    return LoseControl(rng.uniform(0.0, 360.0))


def play(seed: int, steps: int) -> Game:
    game = Game.replay(seed, two_cars(), [], OpenTableReferee(), FakePermissions())
    rng = random.Random(seed)
    for _ in range(steps):
        if game.prompt.kind == "game_over":
            break
        decision = random_decision(game, rng)
        try:
            game.decide(decision)
        except IllegalChoice:
            game.decide(DeclareAttacks() if game.prompt.kind == "attacks" else SpendShifts())
    return game


def test_replay_gives_the_same_state_and_undo_drops_the_last_decision() -> None:
    game = play(3, 60)
    again = Game.replay(3, two_cars(), game.decisions, OpenTableReferee(), FakePermissions())
    assert again.state == game.state and again.log == game.log
    decisions = list(game.decisions)
    undone = game.undo()
    assert undone.decisions == decisions[:-1]
    shorter = Game.replay(3, two_cars(), game.decisions[:-1], OpenTableReferee(), FakePermissions())
    assert undone.state == shorter.state
    assert game.redo().decisions == decisions and game.state == again.state


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_random_games_keep_gear_in_range_and_hazards_non_negative(seed: int) -> None:
    game = play(seed, 80)
    for v in game.state.vehicles:
        assert 1 <= v.gear <= v.max_gear
        assert v.hazards >= 0 and v.damage >= 0
    assert game.state.round.gear_phase in range(1, 7)
