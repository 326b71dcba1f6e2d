"""Collisions and Smash Attacks (p.52-57), with the p.57 example."""

from __future__ import annotations

import pytest

from simulator.errors import IllegalChoice
from simulator.gaslands.collisions import (
    Orientation,
    Participant,
    Reaction,
    forced_reaction,
    resolve_collision,
    smash_dice,
    weight_bonus,
)
from simulator.gaslands.dice import ScriptedDice
from simulator.gaslands.tables import Weight

LW, MW, HW = Weight.LIGHTWEIGHT, Weight.MIDDLEWEIGHT, Weight.HEAVYWEIGHT


def test_example_collision_p57() -> None:
    """Middleweight car in Gear 5 T-bones a Lightweight buggy in Gear 2; car Smashes, buggy Evades (p.57)."""
    car = Participant("car", 5, MW, edge="front")
    buggy = Participant("buggy", 2, LW, edge="side")
    assert smash_dice(Orientation.T_BONE, 5, 2, MW, LW) == 7
    assert smash_dice(Orientation.T_BONE, 2, 5, LW, MW) == 1  # what the buggy would have rolled
    dice = ScriptedDice(d6=[1, 1, 2, 4, 4, 5, 6, 3, 6])
    out = resolve_collision(car, buggy, Orientation.T_BONE, Reaction.SMASH, Reaction.EVADE, dice)
    assert out.active.hits_dealt == 5
    assert out.passive.evade_rolls == (3, 6)
    assert out.passive.damage_taken == 4
    assert out.active.damage_taken == 0
    assert (out.active.hazards_gained, out.passive.hazards_gained) == (2, 2)
    assert dice.exhausted


def test_example_of_play_p59_head_on() -> None:
    """Both Middleweight, Gears 2 and 3, Head-On: both roll five dice (p.59-60)."""
    red = Participant("red", 3, MW)
    blue = Participant("blue", 2, MW)
    dice = ScriptedDice(d6=[4, 4, 4, 4, 4] + [4, 4, 4, 1, 1])
    out = resolve_collision(red, blue, Orientation.HEAD_ON, Reaction.SMASH, Reaction.SMASH, dice)
    assert (len(out.active.attack_rolls), len(out.passive.attack_rolls)) == (5, 5)
    assert (out.passive.damage_taken, out.active.damage_taken) == (5, 3)
    assert out.active.evade_rolls == () and out.passive.evade_rolls == ()
    assert (out.active.hazards_gained, out.passive.hazards_gained) == (2, 2)


@pytest.mark.parametrize(
    ("own", "other", "bonus"), [(HW, LW, 4), (MW, LW, 2), (MW, MW, 0), (LW, MW, -1), (LW, HW, -2)]
)
def test_weight_difference_table_p56(own: Weight, other: Weight, bonus: int) -> None:
    assert weight_bonus(own, other) == bonus


def test_tailgate_is_the_gear_difference_and_never_negative() -> None:
    assert smash_dice(Orientation.TAILGATE, 4, 2, MW, MW) == 2  # p.55
    assert smash_dice(Orientation.TAILGATE, 2, 4, MW, MW) == 2
    assert smash_dice(Orientation.TAILGATE, 3, 3, LW, HW) == 0


def test_tailgate_with_a_faster_front_vehicle_forces_evade() -> None:
    front = Participant("front", 4, MW, edge="rear")
    back = Participant("back", 2, MW, edge="front")
    assert forced_reaction(back, front, Orientation.TAILGATE) is Reaction.EVADE  # p.53
    assert forced_reaction(front, back, Orientation.TAILGATE) is Reaction.EVADE
    with pytest.raises(IllegalChoice, match="p.53"):
        resolve_collision(back, front, Orientation.TAILGATE, Reaction.SMASH, Reaction.EVADE, ScriptedDice())


def test_both_evading_gain_one_token_each() -> None:
    a, b = Participant("a", 1, MW), Participant("b", 1, MW)
    out = resolve_collision(a, b, Orientation.HEAD_ON, Reaction.EVADE, Reaction.EVADE, ScriptedDice(d6=[1, 1]))
    assert (out.active.hazards_gained, out.passive.hazards_gained) == (1, 1)  # p.54


def test_obstacles_smash_in_gear_zero_and_destructibles_are_removed() -> None:
    car = Participant("car", 3, MW)
    barrels = Participant.of_obstacle("barrels", MW, destructible=True)
    assert forced_reaction(barrels, car, Orientation.HEAD_ON) is Reaction.SMASH  # p.54
    dice = ScriptedDice(d6=[4, 4, 4] + [6, 6, 1])
    out = resolve_collision(car, barrels, Orientation.HEAD_ON, Reaction.EVADE, Reaction.SMASH, dice)
    assert len(out.passive.attack_rolls) == 3  # Gear 0 + Gear 3 (p.54)
    assert out.active.damage_taken == 1
    assert out.removed == ("barrels",)


def test_ram_adds_two_dice_and_no_hazards() -> None:
    rammer = Participant("rammer", 2, MW, ram=True)
    other = Participant("other", 2, MW, edge="side")
    dice = ScriptedDice(d6=[1, 1, 1, 1, 1, 1])
    out = resolve_collision(rammer, other, Orientation.T_BONE, Reaction.SMASH, Reaction.EVADE, dice)
    assert len(out.active.attack_rolls) == 4  # p.85
    assert out.active.hazards_gained == 0 and out.passive.hazards_gained == 2


def test_infuriating_jingle_p70() -> None:
    truck = Participant("ice", 2, MW, infuriating_jingle=True)
    smasher = Participant("car", 2, MW)
    dice = ScriptedDice(d6=[1, 1, 1, 1, 1, 1, 1, 1])
    out = resolve_collision(smasher, truck, Orientation.HEAD_ON, Reaction.SMASH, Reaction.SMASH, dice)
    assert out.active.hazards_gained == 0 and out.passive.hazards_gained == 2


def test_exploding_ram_must_smash_and_hurts_on_ones_and_twos() -> None:
    bomber = Participant("bomber", 1, MW, exploding_ram=True)
    other = Participant("other", 1, MW)
    assert forced_reaction(bomber, other, Orientation.HEAD_ON) is Reaction.SMASH  # p.84
    dice = ScriptedDice(d6=[1, 2, 3, 4, 5, 6, 6, 6] + [1])
    out = resolve_collision(bomber, other, Orientation.HEAD_ON, Reaction.SMASH, Reaction.EVADE, dice)
    assert len(out.active.attack_rolls) == 8 and out.active.self_damage == 2
