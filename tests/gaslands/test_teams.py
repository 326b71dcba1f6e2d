"""Team building (p.63-65, p.91-115): costs, build slots, facings, perks, and every sponsor's rules.

Each sponsor has a legal team and the illegal ones its rules forbid; every
problem names the vehicle, the rule and the page.
"""

from __future__ import annotations

import pytest

from simulator.gaslands.tables import load_perks, load_sponsors
from simulator.gaslands.teams import (
    BuildRulings,
    Fitting,
    Team,
    TeamVehicle,
    UnknownName,
    check,
    find,
    normalise,
    statistics,
    vehicle_cost,
)


def team(sponsor: str | None, *vehicles: TeamVehicle, cans: int = 50) -> Team:
    return Team("Test", sponsor, cans, vehicles)


def car(vtype: str = "car", weapons: tuple[Fitting, ...] = (), upgrades: tuple[Fitting, ...] = (),
        perks: tuple[str, ...] = (), name: str = "") -> TeamVehicle:
    return TeamVehicle(vtype, name, weapons, upgrades, perks)


def W(key: str, facing: str | None = "front", mount: str | None = None) -> Fitting:  # noqa: N802
    return Fitting(key, facing, mount)  # type: ignore[arg-type]


def U(key: str, facing: str | None = None, mount: str | None = None) -> Fitting:  # noqa: N802
    return Fitting(key, facing, mount)  # type: ignore[arg-type]


def rules_of(report_team: Team, **kw: object) -> list[tuple[str, str, str]]:
    return [(p.vehicle, p.rule, p.page) for p in check(report_team, **kw).problems]  # type: ignore[arg-type]


def pages(t: Team, **kw: object) -> set[str]:
    return {p for _, _, p in rules_of(t, **kw)}


# --------------------------------------------------------------------------- names


def test_names_match_without_case_spaces_hyphens_underscores_or_apostrophes() -> None:
    for name in ("heavy machine gun", "Heavy-Machine-Gun", "heavy_machine_gun", "HEAVY MACHINE GUN"):
        assert find("weapon", name) == "heavy_machine_gun"
    assert find("sponsor", "Warden") == "the_warden" == find("sponsor", "The Warden")
    assert find("sponsor", "rustys bootleggers") == "rustys_bootleggers"
    assert find("perk", "Biggern You") == "biggern_you" == find("perk", "Bigger'N You")
    assert find("perk", "Double-Barrelled") == "double_barreled"  # an alias (BattleScribe's spelling)
    assert find("perk", "eureka") == "eureka" == find("perk", "Eureka!")
    assert find("weapon", "Mini-Gun") == "minigun"
    assert normalise("The Order of the Inferno") == "orderoftheinferno"


def test_an_unknown_name_lists_the_valid_ones_and_the_nearest() -> None:
    with pytest.raises(UnknownName) as caught:
        find("weapon", "Lazer Cannon")
    assert "Combat Laser" in caught.value.valid and "Handgun" in caught.value.reason
    with pytest.raises(UnknownName) as caught:
        find("upgrade", "Nitro")
    assert caught.value.close[0] == "Nitro Booster"


# --------------------------------------------------------------------------- costs and slots


def test_costs_add_up_vehicle_weapons_upgrades_and_perks() -> None:
    # Performance Car 15 + HMG 3 + Armour Plating 4 + Slipstream 2 (p.66, p.67, p.83, p.113)
    v = car("performance_car", (W("heavy_machine_gun"), W("handgun", None)), (U("armour_plating"),),
            ("slipstream",))
    assert vehicle_cost(v, load_sponsors()["idris"]) == 24


def test_a_turret_costs_three_times_and_a_tank_has_one_free() -> None:
    minigun_turret = car("car", (W("minigun", "turret"),))
    assert vehicle_cost(minigun_turret, None) == 12 + 15  # p.85: a turret Minigun is 15 Cans
    tank = car("tank", (W("minigun", "turret"), W("machine_gun", "turret")))
    assert vehicle_cost(tank, None) == 40 + 5 + 2 * 3  # p.71: the dearest turret weapon is free


def test_over_the_team_size_names_the_vehicle_that_goes_over() -> None:
    t = team(None, car("car", name="A"), car("car", name="B"), car("car", name="C"), car("car", name="D"),
             car("car", name="E"))
    report = check(t)
    assert (report.legal, report.cans, report.limit) == (False, 60, 50)
    assert [(p.vehicle, p.page) for p in report.problems] == [("E", "p.64")]
    assert check(t, limit=60).legal


def test_build_slots() -> None:
    t = team(None, car("car", (W("rockets"), W("machine_gun"))))  # 2 + 1 slots of 2 (p.65)
    report = check(t)
    assert report.vehicles[0].slots_used == 3 and report.vehicles[0].slots == 2
    assert ("Car", "build slots: 3 used, 2 available", "p.65") in rules_of(t)
    # crew fired weapons need no slot (p.76); Bombs Away: dropped weapons none either (p.70)
    assert check(team(None, car("buggy", (W("shotgun", None), W("magnum", None), W("rockets"))))).legal
    assert check(team(None, car("gyrocopter", (W("mine_dropper", "rear"), W("caltrop_dropper", "side"))))).legal
    assert not check(team(None, car("gyrocopter", (W("machine_gun"),)))).legal


def test_facings() -> None:
    assert "p.65" in pages(team(None, car("car", (W("machine_gun", None),))))          # a facing is needed
    assert "p.67" in pages(team(None, car("car", (W("handgun", "front"),))))           # Crew Fired: none
    assert "p.76" in pages(team(None, car("car", (W("magnum", "front"),))))
    assert "p.78" in pages(team(None, car("car", (W("mine_dropper", "front"),))))      # not front-mounted
    assert "p.85" in pages(team(None, car("car", (W("mine_dropper", "turret"),))))     # turret: shooting only
    assert check(team(None, car("car", (W("mine_dropper", "turret"),))),
                 rulings=BuildRulings(turret_dropped=True)).legal
    assert "p.72" in pages(team(None, car("car", (W("bfg", "rear"),)), cans=50))       # BFG: front only
    assert check(team(None, car("car", (W("machine_gun", "side"), W("mine_dropper", "rear"))))).legal
    assert check(team(None, car("truck", (W("flamethrower", "turret"),)), cans=50)).legal


def test_upgrade_rules() -> None:
    assert check(team(None, car("car", upgrades=(U("ram", "front"), U("ram", "rear"))))).legal
    assert "p.85" in pages(team(None, car("truck", upgrades=(U("ram", "front"), U("ram", "front")))))
    assert "p.83" in pages(team(None, car("car", upgrades=(U("ram"),))))                # Ram needs a facing
    assert "p.83" in pages(team(None, car("car", upgrades=(U("armour_plating", "front"),))))
    assert "p.83" in pages(team(None, car("buggy", upgrades=(U("exploding_ram", "front"),))))  # not lightweight
    assert "p.84" in pages(team(None, car("car", upgrades=(U("extra_crewmember"),) * 3)))   # at most Crew 2
    assert check(team(None, car("car", upgrades=(U("extra_crewmember"),) * 2))).legal
    assert "p.83" in pages(team(None, car("tank", upgrades=(U("tank_tracks"),)), cans=60))
    assert "p.83" in pages(team(None, car("car", upgrades=(U("tank_tracks"), U("tank_tracks")))))
    assert check(team(None, car("car", upgrades=(U("armour_plating"), U("armour_plating"))))).legal


def test_statistics_of_a_built_vehicle() -> None:
    v = car("car", upgrades=(U("armour_plating"), U("extra_crewmember"), U("tank_tracks")), perks=("expertise",))
    s = statistics(v)
    assert (s.hull, s.crew, s.handling, s.max_gear) == (12, 3, 5, 4)  # p.84-85, p.110
    assert "All Terrain" in s.rules
    assert "Piledriver" in statistics(car("car", perks=("murder_tractor",))).rules


# --------------------------------------------------------------------------- perks


def test_perks_need_a_sponsor_come_from_its_classes_and_once_each() -> None:
    assert "p.64" in pages(team(None, car("car", perks=("slipstream",))))
    assert ("Car", "Slipstream is a Speed perk; Rutherford allows Badass and Military", "p.65") in \
        rules_of(team("rutherford", car("car", perks=("slipstream",))))
    assert check(team("idris", car("car", perks=("slipstream", "hot_start")))).legal
    assert "p.65" in pages(team("idris", car("car", perks=("slipstream", "slipstream"))))


def test_stunt_driver_only_on_nimble_light_or_middle_vehicles() -> None:
    assert check(team("miyazaki", car("performance_car", perks=("stunt_driver",)))).legal
    assert "p.107" in pages(team("miyazaki", car("monster_truck", perks=("stunt_driver",)), cans=60))
    assert check(team("miyazaki", car("car", perks=("stunt_driver",)))).legal  # Handling 3 is enough


def test_every_perk_is_bought_by_some_sponsor() -> None:
    sponsors = load_sponsors().values()
    for key, perk in load_perks().items():
        assert any(perk.perk_class in s.perk_classes for s in sponsors), key


# --------------------------------------------------------------------------- Restricted vehicle types (p.68)


def test_restricted_vehicles_need_a_sponsor_that_allows_them() -> None:
    assert "p.68" in pages(team("mishkin", car("tank"), cans=60))
    assert "p.68" in pages(team("beverly", car("helicopter"), cans=60))
    assert check(team(None, car("tank"), cans=60)).legal  # no sponsor rules in play (ruling)
    strict = BuildRulings(restricted_without_sponsor=False)
    assert "p.68" in pages(team(None, car("tank"), cans=60), rulings=strict)


# --------------------------------------------------------------------------- each sponsor


def test_rutherford() -> None:
    legal = team("rutherford", car("tank", (W("cannon_125mm", "turret"),)), car("helicopter"),
                 car("car", perks=("headshot", "powder_keg")), cans=110)
    assert check(legal).legal
    assert "p.91" in pages(team("rutherford", car("tank"), car("tank"), cans=100))      # one Tank
    assert "p.91" in pages(team("rutherford", car("buggy")))                             # Might Is Right
    assert "p.65" in pages(team("rutherford", car("car", perks=("expertise",))))


def test_miyazaki() -> None:
    assert check(team("miyazaki", car("buggy", perks=("expertise", "evasive")), car("bike"))).legal
    for slow in ("truck", "ice_cream_truck", "war_rig"):
        assert "p.92" in pages(team("miyazaki", car(slow), cans=60)), slow               # Elegance


def test_mishkin() -> None:
    legal = team("mishkin", car("car", (W("death_ray"),), (U("experimental_teleporter"),), ("mobile_mechanic",)))
    assert check(legal).legal
    assert "p.72, p.93" in pages(team("rutherford", car("car", (W("death_ray"),))))      # Electrical
    assert "p.83, p.93" in pages(team(None, car("car", upgrades=(U("experimental_nuclear_engine"),))))
    assert "p.83" in pages(team("mishkin", car("buggy", upgrades=(U("experimental_nuclear_engine"),))))


def test_idris() -> None:
    nitro = team("idris", car("car", upgrades=(U("nitro_booster"),), perks=("hell_for_leather",)))
    assert check(nitro).cans == 12 + 3 + 5                                              # N2O Addict: half price
    assert check(team(None, car("car", upgrades=(U("nitro_booster"),)))).cans == 18
    assert "p.94" in pages(team("idris", car("gyrocopter")))                             # Kiss My Asphalt


def test_slime() -> None:
    rams = car("buggy", (W("machine_gun"), W("machine_gun", "rear")), (U("ram", "front"), U("ram", "rear")))
    assert check(team("slime", rams)).legal                                              # Spiked Fist
    assert check(team(None, rams)).vehicles[0].slots_used == 4
    assert "p.65" in pages(team("scarlett", car("car", perks=("drive_angry",))))          # Reckless: Slime's


def test_the_warden() -> None:
    report = check(team("the_warden", car("car", upgrades=(U("prison_car"),), perks=("bruiser",) * 0)))
    assert report.legal and report.cans == 8                                             # 12 - 4 (p.96)
    assert statistics(car("car", upgrades=(U("prison_car"),))).hull == 8
    assert check(team("the_warden", car("ice_cream_truck", upgrades=(U("prison_car"),)))).cans == 5  # floor 5
    assert "p.96" in pages(team("the_warden", car("buggy", upgrades=(U("prison_car"),))))  # middleweight only
    assert "p.96" in pages(team("the_warden", car("car", upgrades=(U("prison_car"), U("prison_car")))))
    assert "p.96" in pages(team("slime", car("car", upgrades=(U("prison_car"),))))        # sponsor-only


def test_scarlett() -> None:
    crew = car("truck", upgrades=(U("extra_crewmember"),) * 3, perks=("fenderkiss",))
    report = check(team("scarlett", crew))
    assert report.legal and report.cans == 15 + 3 * 2 + 2                                # Crew Quarters
    assert "p.84" in pages(team("scarlett", car("truck", upgrades=(U("extra_crewmember"),) * 4)))


def test_highway_patrol() -> None:
    assert check(team("highway_patrol", car("performance_car", upgrades=(U("louder_siren"),), perks=("pit",)))).legal
    assert "p.98" in pages(team("maxxine", car("car", upgrades=(U("louder_siren"),))))


def test_verney() -> None:
    plated = car("car", (W("rockets"),), (U("microplate_armour"), U("microplate_armour")), ("crusher",))
    report = check(team("verney", plated))
    assert report.legal and report.vehicles[0].slots_used == 2 and statistics(plated).hull == 14
    assert "p.99" in pages(team("idris", car("car", upgrades=(U("microplate_armour"),))))


def test_maxxine() -> None:
    assert check(team("maxxine", car("car", perks=("fenderkiss", "on_your_tail")))).legal
    assert "p.65" in pages(team("maxxine", car("car", perks=("expertise",))))


def test_the_order_of_the_inferno() -> None:
    assert check(team("the_order_of_the_inferno", car("car", (W("flamethrower"),), perks=("purifying_flames",)))).legal
    assert "p.65" in pages(team("the_order_of_the_inferno", car("car", perks=("dead_eye",))))


def test_beverly() -> None:
    assert check(team("beverly", car("car", perks=("crusher",)), car("buggy", perks=("angel_of_death",)))).legal
    assert "p.68" in pages(team("beverly", car("tank"), cans=60))


def test_rustys_bootleggers() -> None:
    rig = car("war_rig", (W("machine_gun", "front", "cab"), W("mine_dropper", "rear", "trailer")),
              (U("peach_moonshine"),))
    assert check(team("rustys_bootleggers", rig)).legal
    towing = car("truck", (W("rockets", "front", "cab"), W("machine_gun", "rear", "trailer")),
                 (U("trailer_middleweight"), U("siphon_pump")))
    report = check(team("rustys_bootleggers", towing))
    assert report.legal and report.vehicles[0].slots == 4 and report.cans == 15 + 5 + 2 + 8
    assert "p.102" in pages(team("rustys_bootleggers", car("car")))                      # Trailer Trash
    assert "p.102" in pages(team("rustys_bootleggers", car("buggy", upgrades=(U("trailer_lightweight"),))))
    assert "p.103" in pages(team("rustys_bootleggers", car("car", upgrades=(U("trailer_heavyweight"),)), rig))
    assert "p.103" in pages(team("rustys_bootleggers", car("truck", (W("machine_gun"),),
                                                          (U("trailer_middleweight"),))))  # no mount
    assert "p.102-103" in pages(team("slime", car("truck", upgrades=(U("trailer_middleweight"),))))
    assert "p.102" in pages(team("rustys_bootleggers", car("truck", upgrades=(U("trailer_middleweight"),
                                                                              U("trailer_lightweight")))))
    assert "p.103" in pages(team("rustys_bootleggers", rig, car("car", upgrades=(U("siphon_pump"),))))


def test_each_problem_names_a_vehicle_a_rule_and_a_page() -> None:
    bad = team("rutherford", car("buggy", (W("handgun", "front"), W("machine_gun", None)), perks=("expertise",)),
               car("tank"), car("tank"), cans=40)
    report = check(bad)
    assert len(report.problems) >= 5
    for p in report.problems:
        assert p.vehicle in ("Buggy", "Tank", "Tank 2") and p.rule and p.page.startswith("p.")
    assert report.to_json()["problems"][0].keys() == {"vehicle", "rule", "page"}
