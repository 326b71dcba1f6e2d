"""Special rule names are data with pages (simulator/data/special_rules.toml): a typo in a table is a load error,
and every name the engine asks about is a known one (issue 8, item 9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from simulator.gaslands.special_rules import check_rule_names, known_rules
from simulator.gaslands.tables import VehicleType

ROOT = Path(__file__).resolve().parents[2]


def test_a_misspelt_rule_in_a_vehicle_row_is_refused_with_the_valid_names() -> None:
    row = {"name": "Buggy", "weight": "lightweight", "hull": 6, "handling": 4, "max_gear": 6, "crew": 2,
           "build_slots": 2, "cost": 6, "special_rules": ["Rol Cage"], "length_mm": 60.0, "width_mm": 30.0,
           "page": 66}
    with pytest.raises(ValidationError, match="unknown special rule 'Rol Cage' for a vehicle; known: .*Roll Cage"):
        VehicleType.model_validate(row)


def test_a_weapon_rule_is_not_a_vehicle_rule() -> None:
    with pytest.raises(ValueError, match="'Blitz' for a vehicle"):
        check_rule_names(("Blitz",), "vehicle")
    assert check_rule_names(("Blitz",), "weapon") == ("Blitz",)


def test_every_rule_the_code_asks_about_is_known() -> None:
    asked = set()
    for path in (ROOT / "simulator").rglob("*.py"):
        asked |= set(re.findall(r'\.has(?:_rule)?\("([^"]+)"\)', path.read_text(encoding="utf-8")))
    assert asked and asked <= set(known_rules()), sorted(asked - set(known_rules()))


def test_every_rule_has_a_page() -> None:
    assert all(rule.page > 0 and rule.on for rule in known_rules().values())


def test_the_rulebook_numbers_come_from_the_data_with_pages() -> None:
    """Smash Attack dice (p.55), weight (p.56) and explosions (p.44) from simulator/data/rules.toml."""
    from simulator.gaslands.attacks import EXPLOSION_DICE, HIT_ON
    from simulator.gaslands.collisions import Orientation, base_smash_dice, weight_bonus
    from simulator.gaslands.rule_numbers import RULES
    from simulator.gaslands.tables import Weight

    assert (HIT_ON, RULES.dice.hit_on.page) == (4, 30)
    assert [base_smash_dice(o, 3, 5) for o in Orientation] == [8, 3, 2]
    assert [weight_bonus(Weight.HEAVYWEIGHT, w) for w in Weight] == [4, 2, 0]
    assert [weight_bonus(Weight.LIGHTWEIGHT, w) for w in Weight] == [0, -1, -2]
    assert EXPLOSION_DICE == {Weight.LIGHTWEIGHT: 2, Weight.MIDDLEWEIGHT: 4, Weight.HEAVYWEIGHT: 6}
    assert RULES.smash_dice.page == 55 and RULES.weight_bonus.page == 56 and RULES.explosions.page == 44
