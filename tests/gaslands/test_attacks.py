"""Attack dice, Cover, Critical Hits, Evades and hit effects (p.30-33, p.42, p.44, p.81)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.errors import IllegalChoice
from simulator.gaslands.attacks import (
    WeaponHits,
    attack_dice,
    cancel_hits,
    count_evades,
    count_hits,
    effects,
    evade_dice,
    explosion_dice,
    resolve_against,
)
from simulator.gaslands.tables import Weight, load_weapons

W = load_weapons()


def test_example_of_play_p58_handguns() -> None:
    """Two Handguns roll 3 and 6: a Critical Hit, two hits; Red in Gear 1 evades one with a 6 (p.58)."""
    result = resolve_against([("handgun", W["handgun"], (3,)), ("handgun", W["handgun"], (6,))], (6,))
    assert result.total_hits == 2
    assert result.effects.damage == 1


def test_hits_on_four_plus_and_critical_six() -> None:
    assert count_hits((1, 2, 3)) == 0
    assert count_hits((4, 5)) == 2
    assert count_hits((6,)) == 2  # p.42


def test_cover_needs_five_but_six_is_still_critical() -> None:
    assert count_hits((4,), cover=True) == 0  # p.42
    assert count_hits((5, 6), cover=True) == 3


def test_indirect_ignores_cover() -> None:
    result = resolve_against([("mortar", W["mortar"], (4, 4))], (), cover=True)  # p.82
    assert result.effects.damage == 2


def test_evade_dice_are_the_gear_and_cancel_on_six() -> None:
    assert evade_dice(4) == 4  # p.32
    assert count_evades((5, 6, 6, 1)) == 2


def test_plain_hits_are_cancelled_before_blast_hits() -> None:
    """p.42: the Evade takes plain hits first, so Blast hits survive longest."""
    hits = [WeaponHits("bazooka", 2, blast=True), WeaponHits("machine_gun", 1)]
    left = cancel_hits(hits, 2)
    assert [h.hits for h in left] == [1, 0]
    assert effects(left).hazards == 1 and effects(left).damage == 1


def test_blast_adds_a_token_per_uncancelled_hit_and_fire_sets_on_fire() -> None:
    result = resolve_against([("grenades", W["grenades"], (6,))], (6,))
    assert (result.effects.damage, result.effects.hazards) == (1, 1)  # Blast p.81: 2 hits, 1 evaded
    burning = resolve_against([("molotov_cocktails", W["molotov_cocktails"], (5,))], ())
    assert burning.effects.on_fire  # Fire p.81


def test_steel_nets_do_no_damage_but_blast_still_applies() -> None:
    result = resolve_against([("steel_nets", W["steel_nets"], (4, 5, 1))], ())  # p.77
    assert (result.effects.damage, result.effects.hazards) == (0, 2)


def test_shotgun_dice_depend_on_range() -> None:
    assert [attack_dice(W["shotgun"], band) for band in ("short", "medium", "long")] == [3, 2, 1]  # p.77
    with pytest.raises(IllegalChoice):
        attack_dice(W["shotgun"])


def test_explosion_dice_by_weight() -> None:
    assert [explosion_dice(w) for w in Weight] == [2, 4, 6]  # p.44


@given(st.lists(st.integers(1, 6), max_size=12), st.lists(st.integers(1, 6), max_size=6))
def test_evades_never_leave_negative_hits(attack: list[int], evade: list[int]) -> None:
    result = resolve_against([("minigun", W["minigun"], tuple(attack))], tuple(evade))
    assert 0 <= result.effects.damage <= result.total_hits
    assert result.effects.damage == max(0, count_hits(attack) - count_evades(evade))
