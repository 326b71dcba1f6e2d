"""Skid Dice, Push It and Shift spending (p.21-24, p.40-41), with the rulebook's worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.errors import IllegalChoice
from simulator.gaslands.dice import ScriptedDice, SkidFace
from simulator.gaslands.permitted import Manoeuvre
from simulator.gaslands.skid import (
    Driving,
    ShiftUse,
    SkidRoll,
    SpendShift,
    legal_shift_uses,
    push_it,
    resolve_shifts,
    roll_skid_dice,
)

SHIFT, SLIDE, SPIN, HAZARD = SkidFace.SHIFT, SkidFace.SLIDE, SkidFace.SPIN, SkidFace.HAZARD


def test_skid_dice_example_one_p40() -> None:
    """A Handling 3 car in Gear 2 on a Trivial Medium Straight rolls Slide, Shift, Shift (p.40-41)."""
    dice = ScriptedDice(skid=[SLIDE, SHIFT, SHIFT])
    roll = roll_skid_dice(dice, 3, handling=3, trivial=Manoeuvre.TRIVIAL.free_shifts == 1)
    assert roll.shifts == 3
    outcome = resolve_shifts(
        Driving(gear=2, hazards=0, max_gear=5),
        roll,
        [SpendShift(ShiftUse.GEAR_UP), SpendShift(ShiftUse.DISCARD_HAZARD), SpendShift(ShiftUse.CANCEL, 0)],
    )
    assert (outcome.driving.gear, outcome.driving.hazards) == (3, 0)
    assert not outcome.slide and not outcome.spin


def test_skid_dice_example_two_p41() -> None:
    """A Handling 2 truck, Gear 3, 4 tokens, Hazardous Hard, pushes Slide+Hazard into two Shifts (p.41)."""
    dice = ScriptedDice(skid=[SLIDE, HAZARD, SHIFT, SHIFT])
    driving = Driving(gear=3, hazards=4, max_gear=4).gain(Manoeuvre.HAZARDOUS.hazard_tokens)
    assert driving.hazards == 5
    roll = roll_skid_dice(dice, 2, handling=2)
    untouched = resolve_shifts(driving, roll, [])
    assert untouched.driving.hazards == 7  # would wipe out
    pushed = push_it(roll, [0, 1], dice)
    driving = driving.gain(1)
    assert pushed.faces == (SHIFT, SHIFT) and driving.hazards == 6
    outcome = resolve_shifts(driving, pushed, [SpendShift(ShiftUse.DISCARD_HAZARD)] * 2)
    assert (outcome.driving.gear, outcome.driving.hazards) == (3, 4)
    assert dice.exhausted


def test_example_activation_p36_keeps_the_slide() -> None:
    """Blue (Handling 3, Gear 2) keeps a Slide, shifts up and discards that token: Gear 3, 1 token (p.36)."""
    roll = roll_skid_dice(ScriptedDice(skid=[SHIFT, SHIFT, SLIDE]), 3, handling=3)
    outcome = resolve_shifts(
        Driving(2, 0, 5), roll, [SpendShift(ShiftUse.GEAR_UP), SpendShift(ShiftUse.DISCARD_HAZARD)]
    )
    assert (outcome.driving.gear, outcome.driving.hazards, outcome.slide) == (3, 1, True)


def test_example_of_play_p58_red_shifts_up_twice() -> None:
    """Red (Gear 1, Trivial Medium Straight) cancels the Slide with the free Shift and gears up twice (p.59)."""
    roll = roll_skid_dice(ScriptedDice(skid=[SHIFT, SHIFT, SLIDE]), 3, handling=3, trivial=True)
    spends = [SpendShift(ShiftUse.CANCEL, 2), SpendShift(ShiftUse.GEAR_UP), SpendShift(ShiftUse.GEAR_UP)]
    outcome = resolve_shifts(Driving(1, 0, 5), roll, spends)
    assert (outcome.driving.gear, outcome.driving.hazards) == (3, 2)


def test_example_of_play_p60_spins_still_give_hazards() -> None:
    """Red pushes two Hazards into Spins; three uncancelled Spins give three tokens and one Spin (p.60).

    The book counts one Shift without naming where it comes from; we give it as a free Shift.
    """
    dice = ScriptedDice(skid=[HAZARD, HAZARD, SPIN, SPIN, SPIN])
    roll = roll_skid_dice(dice, 3, handling=3, trivial=True)
    roll = push_it(roll, [0, 1], dice)
    outcome = resolve_shifts(Driving(3, 5, 5), roll, [SpendShift(ShiftUse.GEAR_DOWN)])
    assert (outcome.spins, outcome.spin, outcome.hazards_from_dice) == (3, True, 3)
    assert outcome.driving.gear == 2 and outcome.driving.hazards >= 6


def test_multiple_slides_place_one_template_but_give_all_tokens() -> None:
    outcome = resolve_shifts(Driving(2, 0, 5), SkidRoll((SLIDE, SLIDE, SPIN)), [])
    assert (outcome.slides, outcome.slide, outcome.driving.hazards) == (2, True, 3)  # p.24


def test_cannot_roll_more_than_handling() -> None:
    with pytest.raises(IllegalChoice, match="p.22"):
        roll_skid_dice(ScriptedDice(skid=[SHIFT] * 4), 4, handling=3)


def test_push_it_only_once() -> None:
    dice = ScriptedDice(skid=[SPIN, SHIFT, SHIFT])
    pushed = push_it(roll_skid_dice(dice, 1, handling=2), [0], dice)
    with pytest.raises(IllegalChoice, match="p.40"):
        push_it(pushed, [0], dice)


@pytest.mark.parametrize(
    ("driving", "roll", "spend", "rule"),
    [
        (Driving(5, 0, 5), SkidRoll((SHIFT,)), SpendShift(ShiftUse.GEAR_UP), "p.15"),
        (Driving(1, 0, 5), SkidRoll((SHIFT,)), SpendShift(ShiftUse.GEAR_DOWN), "p.16"),
        (Driving(2, 0, 5), SkidRoll((SHIFT,)), SpendShift(ShiftUse.DISCARD_HAZARD), "p.23"),
        (Driving(2, 0, 5), SkidRoll((SHIFT, SHIFT)), SpendShift(ShiftUse.CANCEL, 1), "p.23"),
        (Driving(2, 0, 5), SkidRoll((SHIFT,)), SpendShift(ShiftUse.CANCEL, 5), "p.23"),
    ],
)
def test_illegal_spends_name_the_rule(driving: Driving, roll: SkidRoll, spend: SpendShift, rule: str) -> None:
    with pytest.raises(IllegalChoice, match=rule):
        resolve_shifts(driving, roll, [spend])


def test_more_spends_than_shifts_is_illegal() -> None:
    with pytest.raises(IllegalChoice):
        resolve_shifts(Driving(2, 0, 5), SkidRoll((SHIFT,)), [SpendShift(ShiftUse.DISCARD)] * 2)


def test_cancelling_the_same_die_twice_is_illegal() -> None:
    with pytest.raises(IllegalChoice, match="already cancelled"):
        resolve_shifts(Driving(2, 0, 5), SkidRoll((SPIN,), free_shifts=2), [SpendShift(ShiftUse.CANCEL, 0)] * 2)


faces = st.sampled_from(list(SkidFace))


@given(
    gear=st.integers(1, 6),
    hazards=st.integers(0, 10),
    rolled=st.lists(faces, max_size=6),
    free=st.integers(0, 1),
    choices=st.lists(st.integers(0, 20), max_size=8),
)
def test_any_legal_spending_keeps_gear_in_range_and_hazards_non_negative(
    gear: int, hazards: int, rolled: list[SkidFace], free: int, choices: list[int]
) -> None:
    """Spending Shifts one legal option at a time never breaks gear 1..max or hazards >= 0."""
    driving = Driving(gear, hazards, 6)
    roll = SkidRoll(tuple(rolled), free_shifts=free)
    spends: list[SpendShift] = []
    cancelled: set[int] = set()
    for pick in choices[: roll.shifts]:
        options = legal_shift_uses(driving, roll, frozenset(cancelled))
        spend = options[pick % len(options)]
        spends.append(spend)
        partial = resolve_shifts(Driving(gear, hazards, 6), roll, spends)
        cancelled = set(partial.cancelled)
        driving = partial.driving.gain(-partial.hazards_from_dice)
        assert 1 <= driving.gear <= 6 and driving.hazards >= 0
    final = resolve_shifts(Driving(gear, hazards, 6), roll, spends)
    assert 1 <= final.driving.gear <= 6
    assert final.driving.hazards >= 0
    assert final.hazards_from_dice == sum(1 for i, f in enumerate(rolled) if f is not SHIFT and i not in final.cancelled)
