"""Bots that build a legal team for a sponsor and a team size in Cans (p.63-65, p.91-115).

:func:`build_team` is deterministic: the same sponsor, Cans and seed give the
same team. It picks vehicle types the sponsor may buy (not airborne: a
Helicopter or Gyrocopter cannot win a race, p.128), arms each with a front
weapon it can afford, then adds crew-fired or dropped weapons, upgrades and
perks from the sponsor's classes while the team stays legal
(:func:`simulator.gaslands.teams.check`) and within its Cans. Rusty's
Bootleggers start with a War Rig or a towing vehicle (Trailer Trash, p.102).

>>> team = build_team("rutherford", 50, seed=1)
>>> check(team).legal and check(team).cans <= 50
True
"""

from __future__ import annotations

import random
from dataclasses import replace

from simulator.gaslands.tables import load_perks, load_sponsors, load_vehicle_types, load_weapons
from simulator.gaslands.teams import (
    Facing,
    Fitting,
    Mount,
    Team,
    TeamVehicle,
    check,
    vehicle_cost,
    vehicle_labels,
)

VEHICLES = ("car", "buggy", "performance_car", "truck", "bike", "bike_with_sidecar", "heavy_truck",
            "monster_truck", "ambulance", "ice_cream_truck", "drag_racer", "bus", "tank", "war_rig")
"""Vehicle types the bots field (the airborne ones never win a race, p.128)."""

FRONT_WEAPONS = ("machine_gun", "heavy_machine_gun", "minigun", "rockets", "bazooka", "mortar", "flamethrower",
                 "combat_laser")
"""Shooting weapons the bots mount forward."""

CREW_WEAPONS = ("grenades", "molotov_cocktails", "magnum", "submachine_gun", "shotgun", "blunderbuss")
"""Crew Fired weapons the bots carry (no slot, no facing, p.76)."""

DROPPED_WEAPONS = ("mine_dropper", "caltrop_dropper", "napalm_dropper", "oil_slick_dropper", "smoke_dropper",
                   "glue_dropper")
"""Dropped weapons the bots mount at the rear (p.77-80)."""

UPGRADES: tuple[tuple[str, Facing | None], ...] = (("armour_plating", None), ("ram", "front"), ("extra_crewmember", None), ("roll_cage", None),
            ("nitro_booster", None), ("exploding_ram", "front"), ("tank_tracks", None))
"""Upgrades the bots buy, with the facing they give them."""

SPONSOR_UPGRADES: tuple[tuple[str, Facing | None], ...] = (("prison_car", None), ("microplate_armour", None), ("louder_siren", None))
"""Sponsor upgrades the bots buy when their sponsor grants them (p.96-99)."""


def _legal(team: Team) -> bool:
    return check(team).legal


def _vehicle_types(team: Team, rng: random.Random, budget: int) -> list[str]:
    """The types this team may add now, cheapest first, shuffled among equals."""
    out = []
    for key in VEHICLES:
        t = load_vehicle_types()[key]
        trial = replace(team, cans=10_000, vehicles=(*team.vehicles, TeamVehicle(key)))
        if t.cost <= budget and not check(trial).problems_of(vehicle_labels(trial)[-1]):
            out.append(key)
    rng.shuffle(out)
    return out


def _with(team: Team, index: int, vehicle: TeamVehicle) -> Team:
    vehicles = list(team.vehicles)
    vehicles[index] = vehicle
    return replace(team, vehicles=tuple(vehicles))


def _try(team: Team, index: int, vehicle: TeamVehicle) -> Team:
    """``team`` with vehicle ``index`` replaced, if that keeps it legal; else ``team``."""
    trial = _with(team, index, vehicle)
    return trial if _legal(trial) else team


def _mount(vehicle: TeamVehicle) -> Mount | None:
    return "cab" if vehicle.articulated else None


def _first_vehicle_for_rusty(team: Team, rng: random.Random) -> Team:
    """Trailer Trash (p.102): a War Rig, or a middle- or heavyweight vehicle towing a trailer."""
    if team.cans >= 60 and rng.random() < 0.5:
        return replace(team, vehicles=(TeamVehicle("war_rig", "Big Rig"),))
    tow = rng.choice(("car", "truck"))
    return replace(team, vehicles=(TeamVehicle(tow, "", (), (Fitting("trailer_lightweight"),)),))


def build_team(sponsor: str | None, cans: int, seed: int = 0, name: str = "") -> Team:
    """A legal team for ``sponsor`` (a key of ``sponsors.toml``, or None) within ``cans`` (see the module
    docstring). Raises ``ValueError`` when no legal team fits (fewer Cans than the cheapest vehicle)."""
    rng = random.Random(f"team/{sponsor}/{cans}/{seed}")
    row = load_sponsors()[sponsor] if sponsor else None
    team = Team(name or (f"{row.name} bots" if row else "Bots"), sponsor, cans, ())
    if row is not None and row.needs_trailer_or_war_rig:
        team = _first_vehicle_for_rusty(team, rng)
    wanted = max(1, min(4, cans // 18))
    while len(team.vehicles) < wanted:
        spent = check(team).cans
        left = cans - spent
        share = left // (wanted - len(team.vehicles))
        types = _vehicle_types(team, rng, left)
        if not types:
            break
        cheap = [k for k in types if load_vehicle_types()[k].cost <= share * 0.6] or \
            sorted(types, key=lambda k: load_vehicle_types()[k].cost)[:1]
        team = replace(team, vehicles=(*team.vehicles, TeamVehicle(rng.choice(cheap))))
        if not _legal(team):
            team = replace(team, vehicles=team.vehicles[:-1])
            break
    if not team.vehicles or not _legal(team):
        raise ValueError(f"no legal team of {cans} Cans for {row.name if row else 'a team without a sponsor'}")
    for i in range(len(team.vehicles)):
        team = _arm(team, i, rng, cans // len(team.vehicles))
    for i in range(len(team.vehicles)):
        team = _extras(team, i, rng)
    assert _legal(team), check(team).problems
    return team


def _arm(team: Team, i: int, rng: random.Random, share: int) -> Team:
    """A front weapon (the best it can afford), then a crew-fired one and a rear dropped one."""
    v = team.vehicles[i]
    mount = _mount(v)
    fronts = list(FRONT_WEAPONS)
    rng.shuffle(fronts)
    for key in sorted(fronts, key=lambda k: -_weapon_cost(k)):
        trial = replace(v, weapons=(*v.weapons, Fitting(key, "front", mount)))
        if vehicle_cost(trial, team.sponsor_row) <= share and _legal(_with(team, i, trial)):
            team = _with(team, i, trial)
            break
    pools: tuple[tuple[tuple[str, ...], Facing | None], ...] = ((CREW_WEAPONS, None), (DROPPED_WEAPONS, "rear"))
    for pool, facing in pools:
        if rng.random() < 0.6:
            v = team.vehicles[i]
            key = rng.choice(pool)
            team = _try(team, i, replace(v, weapons=(*v.weapons, Fitting(key, facing, mount if facing else None))))
    return team


def _weapon_cost(key: str) -> int:
    return load_weapons()[key].cost


def _extras(team: Team, i: int, rng: random.Random) -> Team:
    """Perks from the sponsor's classes and upgrades, while the team stays legal."""
    row = team.sponsor_row
    if row is not None:
        perks = [k for k, p in load_perks().items() if p.perk_class in row.perk_classes]
        rng.shuffle(perks)
        for key in perks[: rng.randint(1, 3)]:
            v = team.vehicles[i]
            team = _try(team, i, replace(v, perks=(*v.perks, key)))
        for key, facing in SPONSOR_UPGRADES:
            if key in row.upgrades and rng.random() < 0.7:
                v = team.vehicles[i]
                team = _try(team, i, replace(v, upgrades=(*v.upgrades, Fitting(key, facing))))
    upgrades = list(UPGRADES)
    rng.shuffle(upgrades)
    for key, facing in upgrades[:3]:
        v = team.vehicles[i]
        team = _try(team, i, replace(v, upgrades=(*v.upgrades, Fitting(key, facing))))
    return team


__all__ = ["build_team"]
