"""Dice sources: the p.12 Skid Die faces, seeding and scripting."""

from __future__ import annotations

import pytest

from simulator.gaslands.dice import (
    SKID_FACES,
    DiceExhausted,
    ScriptedDice,
    SeededDice,
    SkidFace,
    skid_face_for_d6,
)


def test_skid_die_faces_p12() -> None:
    assert [skid_face_for_d6(r) for r in range(1, 7)] == [
        SkidFace.HAZARD, SkidFace.SPIN, SkidFace.SLIDE, SkidFace.SHIFT, SkidFace.SHIFT, SkidFace.SHIFT,
    ]
    assert SKID_FACES.count(SkidFace.SHIFT) == 3


def test_same_seed_same_rolls() -> None:
    a, b = SeededDice(7), SeededDice(7)
    assert a.roll_d6(20) == b.roll_d6(20)
    assert a.roll_skid(20) == b.roll_skid(20)
    assert all(1 <= r <= 6 for r in SeededDice(1).roll_d6(100))


def test_scripted_dice_run_out_loudly() -> None:
    dice = ScriptedDice(d6=[1], skid=["shift"])
    assert dice.roll_skid(1) == (SkidFace.SHIFT,)
    with pytest.raises(DiceExhausted):
        dice.roll_d6(2)
    with pytest.raises(ValueError):
        ScriptedDice(d6=[7])
