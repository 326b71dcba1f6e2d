"""The vehicle, weapon and upgrade tables hold the rulebook's numbers (pages cited per case)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.errors import InputFileError
from simulator.gaslands.tables import Weight, load_upgrades, load_vehicle_types, load_weapons

VEHICLE_KEYS = {
    "buggy", "car", "performance_car", "truck", "heavy_truck", "bus", "drag_racer", "bike",
    "bike_with_sidecar", "ice_cream_truck", "gyrocopter", "ambulance", "monster_truck", "helicopter",
    "tank", "war_rig",
}


def test_all_sixteen_vehicle_types_are_present() -> None:
    assert set(load_vehicle_types()) == VEHICLE_KEYS


@pytest.mark.parametrize(
    ("key", "weight", "hull", "handling", "max_gear", "crew", "slots", "cost", "page"),
    [
        ("buggy", Weight.LIGHTWEIGHT, 6, 4, 6, 2, 2, 6, 66),  # p.66
        ("car", Weight.MIDDLEWEIGHT, 10, 3, 5, 2, 2, 12, 66),  # p.66
        ("performance_car", Weight.MIDDLEWEIGHT, 8, 4, 6, 1, 2, 15, 66),  # p.66
        ("bus", Weight.HEAVYWEIGHT, 16, 2, 3, 8, 3, 30, 66),  # p.66
        ("bike", Weight.LIGHTWEIGHT, 4, 5, 6, 1, 1, 5, 68),  # p.68
        ("helicopter", Weight.HEAVYWEIGHT, 8, 3, 4, 3, 4, 30, 68),  # p.68
        ("tank", Weight.HEAVYWEIGHT, 20, 4, 3, 3, 4, 40, 68),  # p.68
        ("war_rig", Weight.HEAVYWEIGHT, 26, 2, 4, 5, 5, 40, 68),  # p.68
    ],
)
def test_vehicle_statistics_match_the_book(
    key: str, weight: Weight, hull: int, handling: int, max_gear: int, crew: int, slots: int, cost: int, page: int
) -> None:
    v = load_vehicle_types()[key]
    assert (v.weight, v.hull, v.handling, v.max_gear, v.crew, v.build_slots, v.cost, v.page) == (
        weight, hull, handling, max_gear, crew, slots, cost, page
    )


def test_special_rules_are_named() -> None:
    types = load_vehicle_types()
    assert types["buggy"].special_rules == ("Roll Cage",)  # p.66
    assert types["bike"].has_rule("Full Throttle") and types["bike"].has_rule("Pivot")  # p.68
    assert types["ice_cream_truck"].has_rule("Infuriating Jingle")  # p.68


@pytest.mark.parametrize(
    ("key", "size"),
    [("bike", (30.0, 20.0)), ("car", (60.0, 30.0)), ("heavy_truck", (80.0, 40.0)), ("bus", (100.0, 40.0)),
     ("war_rig", (80.0, 50.0))],
)
def test_footprints_are_the_p177_base_sizes(key: str, size: tuple[float, float]) -> None:
    v = load_vehicle_types()[key]
    assert (v.length_mm, v.width_mm) == size


def test_war_rig_has_a_trailer_and_helicopters_fly() -> None:
    types = load_vehicle_types()
    assert (types["war_rig"].trailer_length_mm, types["war_rig"].trailer_width_mm) == (150.0, 50.0)  # p.177
    assert {k for k, v in types.items() if v.airborne} == {"helicopter", "gyrocopter"}  # p.70


def test_basic_weapons_p67() -> None:
    w = load_weapons()
    assert (w["handgun"].range, w["handgun"].attack_dice, w["handgun"].crew_fired) == ("medium", 1, True)
    assert [(w[k].attack_dice, w[k].slots, w[k].cost) for k in ("machine_gun", "heavy_machine_gun", "minigun")] == [
        (2, 1, 2), (3, 1, 3), (4, 1, 5)
    ]
    assert all(w[k].range == "double" and w[k].page == 67 for k in ("machine_gun", "heavy_machine_gun", "minigun"))


def test_advanced_crew_fired_and_dropped_weapons() -> None:
    w = load_weapons()
    flamer = w["flamethrower"]  # p.72
    assert (flamer.range, flamer.attack_dice, flamer.ammo, flamer.slots, flamer.cost) == ("large_burst", 6, 3, 2, 4)
    assert {"Splash", "Fire", "Indirect"} <= set(flamer.special_rules)
    assert (w["grenades"].ammo, w["grenades"].has_rule("Blitz"), w["grenades"].page) == (5, True, 76)  # p.76
    assert w["shotgun"].dice_by_range == {"short": 3, "medium": 2, "long": 1}  # p.77
    assert not w["harpoon"].damaging  # brackets in the p.72 table
    mines = w["mine_dropper"]  # p.77
    assert (mines.dropped, mines.template, mines.attack_dice, mines.has_rule("Blast")) == (True, "small_burst", 4, True)
    assert w["bfg"].front_only and w["bfg"].attack_dice == 10  # p.72-73


def test_upgrades_p83() -> None:
    u = load_upgrades()
    assert (u["armour_plating"].hull_bonus, u["armour_plating"].cost) == (2, 4)
    assert (u["tank_tracks"].handling_bonus, u["tank_tracks"].max_gear_bonus) == (1, -1)
    assert u["turret_mounting"].cost_multiplier == 3


def test_a_bad_file_names_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "vehicles.toml"
    bad.write_text('[vehicles.car]\nname = "Car"\nweight = "superheavy"\nhull = 0\n', encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_vehicle_types(bad)
    wheres = {p.where for p in caught.value.problems}
    assert {"vehicles.car.weight", "vehicles.car.hull", "vehicles.car.handling"} <= wheres
    assert str(bad) in str(caught.value)


def test_invalid_toml_is_an_input_file_error(tmp_path: Path) -> None:
    bad = tmp_path / "weapons.toml"
    bad.write_text("[weapons.x\n", encoding="utf-8")
    with pytest.raises(InputFileError, match="not valid TOML"):
        load_weapons(bad)
