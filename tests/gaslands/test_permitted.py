"""Permitted templates with vehicle rules applied (p.22, p.38-40, p.69, p.82), on the lead's template set."""

from __future__ import annotations

import pytest

from simulator.errors import IllegalChoice
from simulator.gaslands.permitted import Manoeuvre, check_reverse, manoeuvre, permitted_templates
from simulator.geometry.templates import load_template_set


def test_gear_five_permits_only_gentle_swerve_and_long_straight() -> None:
    assert set(permitted_templates(load_template_set(), 5)) == {"gentle", "swerve", "long_straight"}  # p.22


def test_veer_hazardous_in_gear_four_and_turn_trivial_in_gear_one() -> None:
    table = load_template_set()
    assert manoeuvre(table, "veer", 4) is Manoeuvre.HAZARDOUS  # p.38
    assert manoeuvre(table, "turn", 1) is Manoeuvre.TRIVIAL  # p.58


def test_full_throttle_permits_long_straight_in_any_gear() -> None:
    table = load_template_set()
    assert manoeuvre(table, "long_straight", 1) is Manoeuvre.NOT_PERMITTED
    assert manoeuvre(table, "long_straight", 1, full_throttle=True) is Manoeuvre.PERMITTED  # p.69
    assert manoeuvre(table, "long_straight", 6, full_throttle=True) is Manoeuvre.PERMITTED  # never Trivial


def test_zero_crew_permits_only_hazardous_templates() -> None:
    table = load_template_set()
    assert permitted_templates(table, 1, zero_crew=True) == {}  # p.82: none in Gear 1
    assert set(permitted_templates(table, 4, zero_crew=True)) == {
        t for t, m in permitted_templates(table, 4).items() if m is Manoeuvre.HAZARDOUS
    }


def test_reverse_only_in_gear_one() -> None:
    table = load_template_set()
    check_reverse(1, "short_straight", table)
    with pytest.raises(IllegalChoice, match="p.39"):
        check_reverse(2, "short_straight", table)
