"""Team building: a team as a value, what it costs in Cans, and whether it is legal (p.61, p.63-65, p.91-115).

A :class:`Team` has an optional sponsor (p.64, p.91), a team size in Cans and
its vehicles; each :class:`TeamVehicle` has a vehicle type (p.66, p.68),
weapons with a facing (p.65, p.67, p.72-82), upgrades (p.83-85, sponsor
upgrades p.96-99, trailers p.102-103) and perks (p.104-115). Names are the
tables' keys (``"heavy_machine_gun"``); :func:`find` turns what people write
(``"Heavy-Machine-Gun"``, ``"Warden"``) into keys, and :class:`UnknownName`
lists the valid names when nothing matches.

:func:`check` applies every rule of team building and returns a
:class:`TeamReport`: the total in Cans, each vehicle's Cans and build slots,
and every problem naming the vehicle, the rule and the page. It never raises
for an illegal team: illegal is an answer, not an error.

>>> team = Team("Rust Buckets", "rutherford", 50, (TeamVehicle("performance_car", "Old Faithful",
...     (Fitting("heavy_machine_gun", "front"),)),))
>>> report = check(team)
>>> (report.legal, report.cans, report.vehicles[0].slots_used)
(True, 18, 1)

Where the rulebook leaves a point open, :class:`BuildRulings` names the
reading and its default (docs/rulings.md, "Team building").
"""

from __future__ import annotations

import difflib
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from simulator.gaslands.state import Loadout, Status, VehicleState, default_piece
from simulator.gaslands.state import Mount as StateMount
from simulator.gaslands.tables import (
    Perk,
    Sponsor,
    Upgrade,
    VehicleType,
    Weapon,
    Weight,
    load_perk_classes,
    load_perks,
    load_sponsors,
    load_upgrades,
    load_vehicle_types,
    load_weapons,
)
from simulator.geometry.pose import Pose

Facing = Literal["front", "rear", "side", "turret"]
FACINGS: tuple[Facing, ...] = ("front", "rear", "side", "turret")
"""The facings a weapon or upgrade may be declared with (p.65, p.85); a side mount counts on both sides."""

Mount = Literal["cab", "trailer"]
MOUNTS: tuple[Mount, ...] = ("cab", "trailer")
"""Where a weapon sits on an articulated vehicle (War Rig p.118; a trailer upgrade p.103)."""

Kind = Literal["vehicle type", "weapon", "upgrade", "perk", "sponsor"]

MAX_GEAR = 6
"""No vehicle's max Gear goes above 6 (p.17, p.83)."""


# --------------------------------------------------------------------------- names


def normalise(name: str) -> str:
    """The form names are compared in (docs/teams.md): no case, spaces, hyphens, underscores, apostrophes or
    exclamation marks, and no leading "The" (``"The Warden"`` and ``"warden"`` match)."""
    s = name.strip().lower()
    s = re.sub(r"^the[\s_\-]+", "", s)
    return re.sub(r"[\s_\-'’!.]", "", s)


class UnknownName(ValueError):
    """A name that matches nothing of its ``kind``; ``valid`` lists the rulebook's names and ``close`` the
    nearest of them (for "did you mean")."""

    def __init__(self, kind: Kind, given: str, valid: tuple[str, ...]) -> None:
        self.kind = kind
        self.given = given
        self.valid = valid
        by_form = {normalise(v): v for v in valid}
        wanted = normalise(given)
        starts = [v for form, v in by_form.items() if wanted and form.startswith(wanted)]
        near = [by_form[c] for c in difflib.get_close_matches(wanted, list(by_form), n=2)]
        self.close = tuple(dict.fromkeys([*starts, *near]))[:3]
        super().__init__(self.reason)

    @property
    def reason(self) -> str:
        """``unknown weapon 'Lazer' (did you mean Combat Laser?); valid: Handgun; Machine Gun; ...``."""
        hint = f" (did you mean {' or '.join(self.close)}?)" if self.close else ""
        return f"unknown {self.kind} {self.given!r}{hint}; valid: {'; '.join(self.valid)}"


def _rows(kind: Kind) -> Mapping[str, VehicleType | Weapon | Upgrade | Perk | Sponsor]:
    match kind:
        case "vehicle type":
            return load_vehicle_types()
        case "weapon":
            return load_weapons()
        case "upgrade":
            return load_upgrades()
        case "perk":
            return load_perks()
        case "sponsor":
            return load_sponsors()


def names(kind: Kind) -> tuple[str, ...]:
    """The rulebook's names of every ``kind`` (``"Buggy"``, ``"Car"``...), in table order."""
    return tuple(row.name for row in _rows(kind).values())


def find(kind: Kind, name: str) -> str:
    """The table key that ``name`` names (``find("weapon", "Heavy-Machine-Gun") == "heavy_machine_gun"``).

    Keys, rulebook names and the data's aliases all match, compared with
    :func:`normalise`. Raises :class:`UnknownName` (listing the valid names)
    when nothing matches.
    """
    wanted = normalise(name)
    for key, row in _rows(kind).items():
        if wanted in {normalise(key), normalise(row.name), *(normalise(a) for a in row.aliases)}:
            return key
    raise UnknownName(kind, name, names(kind))


# --------------------------------------------------------------------------- the team as a value


@dataclass(frozen=True)
class Fitting:
    """A weapon or upgrade bought for a vehicle: its table ``key``, the ``facing`` declared (None: none),
    and on an articulated vehicle the ``mount`` it sits on (None: not said)."""

    key: str
    facing: Facing | None = None
    mount: Mount | None = None


@dataclass(frozen=True)
class TeamVehicle:
    """One vehicle of a team: its type's key, a name for people, and what it was bought with."""

    type: str
    name: str = ""
    weapons: tuple[Fitting, ...] = ()
    upgrades: tuple[Fitting, ...] = ()
    perks: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The name to show: :attr:`name`, else the type's name."""
        return self.name or load_vehicle_types()[self.type].name

    @property
    def vehicle_type(self) -> VehicleType:
        """The type's row of the tables (p.66, p.68)."""
        return load_vehicle_types()[self.type]

    def upgrade_count(self, key: str) -> int:
        """How many of the upgrade ``key`` it has."""
        return sum(1 for u in self.upgrades if u.key == key)

    @property
    def trailer(self) -> Upgrade | None:
        """Its trailer upgrade, if any (p.102-103)."""
        table = load_upgrades()
        return next((table[u.key] for u in self.upgrades if table[u.key].trailer is not None), None)

    @property
    def articulated(self) -> bool:
        """A War Rig or a vehicle towing a trailer: weapons say whether they sit on the cab or the trailer."""
        return self.vehicle_type.has_rule("Articulated") or self.trailer is not None


@dataclass(frozen=True)
class Team:
    """A team (p.64): its name, sponsor key (None: no sponsor, so no perks), team size in Cans, vehicles."""

    name: str
    sponsor: str | None = None
    cans: int = 50
    vehicles: tuple[TeamVehicle, ...] = ()

    @property
    def sponsor_row(self) -> Sponsor | None:
        """The sponsor's row (p.91-103), or None."""
        return load_sponsors()[self.sponsor] if self.sponsor else None


@dataclass(frozen=True)
class BuildRulings:
    """Readings of points the rulebook leaves open (docs/rulings.md, "Team building"), with their defaults.

    ``restricted_without_sponsor``: a team with no sponsor is not playing with
    sponsor rules, so it may buy Restricted vehicles and trailers (p.68:
    "Your table, your rules"); False makes them need a sponsor's permission
    always. ``turret_dropped``: a dropped weapon may take a Turret Mounting
    (the upgrade names shooting weapons only, p.85, so the default is no).
    """

    restricted_without_sponsor: bool = True
    turret_dropped: bool = False


DEFAULT_RULINGS = BuildRulings()


# --------------------------------------------------------------------------- costs and slots


def _half(cost: int) -> int:
    return math.ceil(cost / 2)


def weapon_cost(vehicle: TeamVehicle, index: int, free_turret: int | None = None) -> int:
    """Cans of weapon ``index``: three times its cost when turret-mounted (p.85), once for the one weapon a
    Tank turret-mounts free (``free_turret``, p.71)."""
    fitting = vehicle.weapons[index]
    weapon = load_weapons()[fitting.key]
    turret = load_upgrades()["turret_mounting"].cost_multiplier or 3
    if fitting.facing == "turret" and index != free_turret:
        return weapon.cost * turret
    return weapon.cost


def free_turret(vehicle: TeamVehicle) -> int | None:
    """The weapon a Tank's Turret rule turret-mounts free (p.71): its most expensive turret weapon."""
    if not vehicle.vehicle_type.has_rule("Turret"):
        return None
    turrets = [(load_weapons()[w.key].cost, -i, i) for i, w in enumerate(vehicle.weapons) if w.facing == "turret"]
    return max(turrets)[2] if turrets else None


def upgrade_cost(key: str, sponsor: Sponsor | None) -> int:
    """Cans of one upgrade: half price for the sponsor's ``half_cost`` (N2O Addict p.94, Crew Quarters p.97)."""
    cost = load_upgrades()[key].cost
    return _half(cost) if sponsor is not None and key in sponsor.half_cost else cost


def base_cost(vehicle: TeamVehicle) -> int:
    """The vehicle type's cost, less a Prison Car's 4 Cans down to its floor of 5 (p.96)."""
    cost = vehicle.vehicle_type.cost
    for u in vehicle.upgrades:
        row = load_upgrades()[u.key]
        if row.base_cost_delta:
            cost = max(row.min_vehicle_cost, cost + row.base_cost_delta)
    return cost


def vehicle_cost(vehicle: TeamVehicle, sponsor: Sponsor | None) -> int:
    """Cans of the whole vehicle: type, weapons, upgrades and perks (p.65)."""
    turret = free_turret(vehicle)
    perks = load_perks()
    return (base_cost(vehicle)
            + sum(weapon_cost(vehicle, i, turret) for i in range(len(vehicle.weapons)))
            + sum(upgrade_cost(u.key, sponsor) for u in vehicle.upgrades)
            + sum(perks[p].cost for p in vehicle.perks if p in perks))


def weapon_slots(vehicle: TeamVehicle, fitting: Fitting) -> int:
    """Build slots of a weapon (p.67); dropped weapons need none on a vehicle with Bombs Away (p.70)."""
    weapon = load_weapons()[fitting.key]
    if weapon.dropped and vehicle.vehicle_type.has_rule("Bombs Away"):
        return 0
    return weapon.slots


def upgrade_slots(fitting: Fitting, sponsor: Sponsor | None) -> int:
    """Build slots of an upgrade (p.83); Slime's Rams need none (Spiked Fist, p.95)."""
    if sponsor is not None and fitting.key in sponsor.zero_slot_upgrades:
        return 0
    return load_upgrades()[fitting.key].slots


def slots_used(vehicle: TeamVehicle, sponsor: Sponsor | None) -> int:
    """Build slots its weapons and upgrades take (p.65)."""
    return (sum(weapon_slots(vehicle, w) for w in vehicle.weapons)
            + sum(upgrade_slots(u, sponsor) for u in vehicle.upgrades))


def slots_available(vehicle: TeamVehicle) -> int:
    """The type's build slots plus a trailer's Stowage (p.103)."""
    trailer = vehicle.trailer
    return vehicle.vehicle_type.build_slots + (trailer.stowage_slots if trailer is not None else 0)


# --------------------------------------------------------------------------- the report


@dataclass(frozen=True)
class TeamProblem:
    """A rule of team building the team breaks: the vehicle (its name; ``""`` for the team as a whole),
    the rule in plain words, and its page (``"p.65"``). ``pending``: the team is not finished rather than
    broken (no vehicle yet; Trailer Trash's War Rig or trailer not bought yet): buying more mends it."""

    vehicle: str
    rule: str
    page: str
    pending: bool = False

    def to_json(self) -> dict[str, str]:
        """``{"vehicle", "rule", "page"}`` (docs/teams.md)."""
        return {"vehicle": self.vehicle, "rule": self.rule, "page": self.page}


@dataclass(frozen=True)
class VehicleReport:
    """One vehicle's Cans and build slots (used and available)."""

    name: str
    cans: int
    slots_used: int
    slots: int

    def to_json(self) -> dict[str, object]:
        """``{"name", "cans", "slots_used", "slots"}`` (docs/teams.md)."""
        return {"name": self.name, "cans": self.cans, "slots_used": self.slots_used, "slots": self.slots}


@dataclass(frozen=True)
class TeamReport:
    """What :func:`check` found: legal or not, the total and the limit in Cans, each vehicle, each problem."""

    legal: bool
    cans: int
    limit: int
    vehicles: tuple[VehicleReport, ...]
    problems: tuple[TeamProblem, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The object ``gaslands team check`` prints (docs/teams.md)."""
        return {"legal": self.legal, "cans": self.cans, "limit": self.limit,
                "vehicles": [v.to_json() for v in self.vehicles],
                "problems": [p.to_json() for p in self.problems]}

    def problems_of(self, vehicle: str) -> tuple[TeamProblem, ...]:
        """The problems naming ``vehicle``."""
        return tuple(p for p in self.problems if p.vehicle == vehicle)


def vehicle_labels(team: Team) -> tuple[str, ...]:
    """Each vehicle's name for the report, made unique (``"Car"``, ``"Car 2"``)."""
    seen: Counter[str] = Counter()
    out = []
    for v in team.vehicles:
        seen[v.label] += 1
        out.append(v.label if seen[v.label] == 1 else f"{v.label} {seen[v.label]}")
    return tuple(out)


def check(team: Team, limit: int | None = None, rulings: BuildRulings = DEFAULT_RULINGS) -> TeamReport:
    """Every rule of team building applied to ``team`` (see the module docstring).

    ``limit`` overrides the team's own size in Cans. The rules: the total
    within the limit (p.64); build slots (p.65, Stowage p.103, Bombs Away
    p.70, Spiked Fist p.95); one facing where the weapon or upgrade needs one
    and none where it takes none (p.65, p.67, p.78, p.84-85); perks only with a
    sponsor, from its classes, once each per vehicle, and only where the perk
    allows (p.64-65, p.104-107); the sponsor's own restrictions and grants
    (p.91-103); Restricted vehicle types (p.68) and sponsor-only items
    (Electrical p.72, p.83, p.93; sponsor upgrades p.96-99; trailers p.102-103)
    only where allowed; each upgrade's own limits (p.83-85).
    """
    sponsor = team.sponsor_row
    labels = vehicle_labels(team)
    problems: list[TeamProblem] = []
    reports: list[VehicleReport] = []
    for vehicle, label in zip(team.vehicles, labels, strict=True):
        problems += _vehicle_problems(vehicle, label, sponsor, rulings)
        reports.append(VehicleReport(label, vehicle_cost(vehicle, sponsor), slots_used(vehicle, sponsor),
                                     slots_available(vehicle)))
    problems += _team_problems(team, labels, sponsor, rulings)
    cap = team.cans if limit is None else limit
    total = 0
    for r in reports:
        total += r.cans
        if total > cap and total - r.cans <= cap:
            problems.append(TeamProblem(r.name, f"team over its Cans: {total} of {cap} with this vehicle", "p.64"))
    if not team.vehicles:
        problems.append(TeamProblem("", "a team needs at least one vehicle", "p.64", pending=True))
    return TeamReport(not problems, total, cap, tuple(reports), tuple(problems))


def refused(before: Team, after: Team, limit: int | None = None,
            rulings: BuildRulings = DEFAULT_RULINGS) -> tuple[TeamProblem, ...]:
    """Why the change from ``before`` to ``after`` (one purchase, a facing, a sponsor) breaks a rule: the
    problems of ``after`` that ``before`` did not have, leaving out the pending ones (buying more mends those).
    Empty: the change is allowed. The team builder refuses a change with these, each with its page."""
    old = set(check(before, limit, rulings).problems)
    return tuple(p for p in check(after, limit, rulings).problems if p not in old and not p.pending)


def _team_problems(team: Team, labels: tuple[str, ...], sponsor: Sponsor | None,
                   rulings: BuildRulings) -> list[TeamProblem]:
    out: list[TeamProblem] = []
    types = load_vehicle_types()
    counts: Counter[str] = Counter()
    for vehicle, label in zip(team.vehicles, labels, strict=True):
        t = vehicle.vehicle_type
        counts[vehicle.type] += 1
        if t.has_rule("Restricted"):
            if sponsor is None:
                if not rulings.restricted_without_sponsor:
                    out.append(TeamProblem(label, f"{t.name} is Restricted: only a sponsor's perk allows it",
                                           "p.68"))
            elif vehicle.type not in sponsor.restricted_allowed:
                out.append(TeamProblem(label, f"{t.name} is Restricted and {sponsor.name} does not allow it",
                                       "p.68"))
            elif counts[vehicle.type] > sponsor.restricted_allowed[vehicle.type]:
                out.append(TeamProblem(label, f"{sponsor.name} may buy only "
                                              f"{sponsor.restricted_allowed[vehicle.type]} {t.name}",
                                       _sponsor_page(sponsor, "military_hardware")))
        if sponsor is None:
            continue
        if t.weight_name in sponsor.banned_weights:
            out.append(TeamProblem(label, f"{sponsor.name} may not buy {t.weight_name} vehicles",
                                   _sponsor_page(sponsor, "might_is_right")))
        if vehicle.type in sponsor.banned_types:
            out.append(TeamProblem(label, f"{sponsor.name} may not buy a {types[vehicle.type].name}",
                                   _sponsor_page(sponsor, "kiss_my_asphalt")))
        if sponsor.min_handling is not None and t.handling < sponsor.min_handling:
            out.append(TeamProblem(label, f"{sponsor.name} may not buy a vehicle type with base Handling "
                                          f"{t.handling} (at least {sponsor.min_handling})",
                                   _sponsor_page(sponsor, "elegance")))
    if sponsor is not None and sponsor.needs_trailer_or_war_rig and team.vehicles:
        towing = any(v.trailer is not None and v.vehicle_type.weight >= Weight.MIDDLEWEIGHT for v in team.vehicles)
        rig = any(v.vehicle_type.has_rule("Articulated") for v in team.vehicles)
        if not (towing or rig):
            out.append(TeamProblem(labels[0], f"{sponsor.name} must field a War Rig, or a Middleweight or "
                                              "Heavyweight vehicle with a trailer",
                                   _sponsor_page(sponsor, "trailer_trash"), pending=True))
    return out


def _sponsor_page(sponsor: Sponsor, perk: str) -> str:
    page = next((p.page for p in sponsor.perks if p.key == perk), sponsor.page)
    return f"p.{page}"


def _may_buy_restricted(sponsor: Sponsor | None, rulings: BuildRulings) -> bool:
    return sponsor.trailers if sponsor is not None else rulings.restricted_without_sponsor


def _vehicle_problems(vehicle: TeamVehicle, label: str, sponsor: Sponsor | None,
                      rulings: BuildRulings) -> list[TeamProblem]:
    out: list[TeamProblem] = []
    t = vehicle.vehicle_type
    used, available = slots_used(vehicle, sponsor), slots_available(vehicle)
    if used > available:
        out.append(TeamProblem(label, f"build slots: {used} used, {available} available", "p.65"))
    out += _weapon_problems(vehicle, label, sponsor, rulings)
    out += _upgrade_problems(vehicle, label, sponsor, rulings)
    perks = load_perks()
    classes = load_perk_classes()
    seen: set[str] = set()
    for key in vehicle.perks:
        perk = perks[key]
        if key in seen:
            out.append(TeamProblem(label, f"{perk.name} bought twice: each perk once per vehicle", "p.65"))
            continue
        seen.add(key)
        if sponsor is None:
            out.append(TeamProblem(label, f"{perk.name}: perks need a sponsor (its perk classes)", "p.64"))
        elif perk.perk_class not in sponsor.perk_classes:
            allowed = " and ".join(classes[c].name for c in sponsor.perk_classes)
            out.append(TeamProblem(label, f"{perk.name} is a {classes[perk.perk_class].name} perk; "
                                          f"{sponsor.name} allows {allowed}", "p.65"))
        if perk.weights and t.weight_name not in perk.weights:
            out.append(TeamProblem(label, f"{perk.name} only for {' or '.join(perk.weights)} vehicles",
                                   f"p.{perk.page}"))
        if perk.min_handling is not None and t.handling < perk.min_handling:
            out.append(TeamProblem(label, f"{perk.name} needs a base Handling of {perk.min_handling} or more",
                                   f"p.{perk.page}"))
    return out


def _weapon_problems(vehicle: TeamVehicle, label: str, sponsor: Sponsor | None,
                     rulings: BuildRulings) -> list[TeamProblem]:
    out: list[TeamProblem] = []
    weapons = load_weapons()
    for fitting in vehicle.weapons:
        w = weapons[fitting.key]
        page = f"p.{w.page}"
        allowed: tuple[str, ...] = w.facings
        if w.dropped and rulings.turret_dropped and "turret" not in allowed:
            allowed = (*allowed, "turret")
        if allowed and fitting.facing is None:
            out.append(TeamProblem(label, f"{w.name} needs a facing: {' or '.join(allowed)}", "p.65"))
        elif not allowed and fitting.facing is not None:
            why = "Crew Fired: no facing" if w.crew_fired else "it takes no facing"
            out.append(TeamProblem(label, f"{w.name} is {why}", page))
        elif fitting.facing is not None and fitting.facing not in allowed:
            if w.dropped and fitting.facing == "front":
                out.append(TeamProblem(label, f"{w.name} is dropped: not front-mounted", "p.78"))
            elif fitting.facing == "turret":
                out.append(TeamProblem(label, f"{w.name} cannot be turret-mounted: only shooting weapons", "p.85"))
            else:
                out.append(TeamProblem(label, f"{w.name} is {' or '.join(allowed)} only", page))
        if w.electrical and not (sponsor is not None and sponsor.electrical):
            out.append(TeamProblem(label, f"{w.name} is Electrical: Mishkin's teams only", "p.72, p.93"))
        out += _mount_problems(vehicle, label, fitting, w.name)
    return out


def _mount_problems(vehicle: TeamVehicle, label: str, fitting: Fitting, name: str,
                    needed: bool = True) -> list[TeamProblem]:
    page = "p.118" if vehicle.vehicle_type.has_rule("Articulated") else "p.103"
    if vehicle.articulated and needed and fitting.mount is None:
        return [TeamProblem(label, f"{name} needs a mount: cab or trailer", page)]
    if not vehicle.articulated and fitting.mount is not None:
        return [TeamProblem(label, f"{name} has a {fitting.mount} mount, but only a War Rig or a vehicle with a "
                                   "trailer has a cab and a trailer", "p.103, p.118")]
    return []


def _upgrade_problems(vehicle: TeamVehicle, label: str, sponsor: Sponsor | None,
                      rulings: BuildRulings) -> list[TeamProblem]:
    out: list[TeamProblem] = []
    table = load_upgrades()
    t = vehicle.vehicle_type
    counts = Counter(u.key for u in vehicle.upgrades)
    facings: Counter[tuple[str, str]] = Counter()
    for key in counts:
        u = table[key]
        page = f"p.{u.page}"
        if u.per_vehicle is not None and counts[key] > u.per_vehicle:
            out.append(TeamProblem(label, f"{u.name}: at most {u.per_vehicle} per vehicle", page))
        if u.max_by_crew and counts[key] > t.crew:
            out.append(TeamProblem(label, f"{u.name}: at most {t.crew} (its starting Crew)", "p.84"))
        if u.weights and t.weight_name not in u.weights:
            out.append(TeamProblem(label, f"{u.name} only for {' or '.join(u.weights)} vehicles", page))
        if vehicle.type in u.banned_types:
            out.append(TeamProblem(label, f"{u.name} may not be bought for a {t.name}", page))
        if u.electrical and not (sponsor is not None and sponsor.electrical):
            out.append(TeamProblem(label, f"{u.name} is Electrical: Mishkin's teams only", "p.83, p.93"))
        if u.sponsor_only and not (sponsor is not None and key in sponsor.upgrades):
            out.append(TeamProblem(label, f"{u.name} is a sponsor's upgrade its sponsor does not grant", page))
        if u.restricted and not _may_buy_restricted(sponsor, rulings):
            who = sponsor.name if sponsor is not None else "a team without a sponsor (ruling)"
            out.append(TeamProblem(label, f"{u.name} is Restricted: {who} may not buy it", "p.102-103"))
        if u.cargo and not (vehicle.trailer is not None or t.has_rule("Articulated")):
            out.append(TeamProblem(label, f"{u.name} is trailer cargo: it needs a trailer or a War Rig", "p.103"))
    if sum(1 for u in vehicle.upgrades if table[u.key].trailer is not None) > 1:
        out.append(TeamProblem(label, "a vehicle may tow a single trailer", "p.102"))
    if sum(1 for u in vehicle.upgrades if table[u.key].cargo) > 1:
        out.append(TeamProblem(label, "a single trailer cargo per trailer or War Rig", "p.103"))
    for fitting in vehicle.upgrades:
        u = table[fitting.key]
        if u.facings and fitting.facing is None:
            out.append(TeamProblem(label, f"{u.name} needs a facing: {' or '.join(u.facings)}", f"p.{u.page}"))
        elif not u.facings and fitting.facing is not None:
            out.append(TeamProblem(label, f"{u.name} takes no facing", f"p.{u.page}"))
        elif fitting.facing is not None and fitting.facing not in u.facings:
            out.append(TeamProblem(label, f"{u.name} is {' or '.join(u.facings)} only", f"p.{u.page}"))
        elif fitting.facing is not None:
            facings[(fitting.key, fitting.facing)] += 1
        out += _mount_problems(vehicle, label, fitting, u.name, needed=False)
    for (key, facing), n in facings.items():
        limit = table[key].per_facing
        if limit is not None and n > limit:
            out.append(TeamProblem(label, f"{table[key].name}: one per facing, {n} on the {facing}", "p.85"))
    return out


# --------------------------------------------------------------------------- the vehicle in play


@dataclass(frozen=True)
class Statistics:
    """A built vehicle's statistics: the type's plus its upgrades and perks (p.66, p.68, p.83-85, p.110)."""

    hull: int
    handling: int
    max_gear: int
    crew: int
    rules: frozenset[str] = field(default_factory=frozenset)


PERK_RULES: Mapping[str, str] = {"murder_tractor": "Piledriver", "crusher": "Up and Over",
                                 "hell_for_leather": "Full Throttle"}
"""Perks that give a vehicle a special rule of the vehicle tables (p.105, p.106, p.113)."""

HANDLING_PERKS: Mapping[str, int] = {"expertise": 1}
"""Perks that add Handling (Expertise, p.110)."""


def statistics(vehicle: TeamVehicle, perks: Iterable[str] | None = None) -> Statistics:
    """Hull, Handling, max Gear, Crew and special rules of the built vehicle.

    Armour Plating and MicroPlate +2 Hull, Prison Car -2 (p.84, p.96, p.99);
    Extra Crewmember +1 Crew (p.84); Tank Tracks +1 Handling, -1 max Gear,
    All Terrain (p.85); Experimental Nuclear Engine +2 max Gear up to 6 (p.84);
    Expertise +1 Handling (p.110); perks and upgrades that grant a rule.
    ``perks`` defaults to the vehicle's own (Whizbang and Gyroscope add more
    in play, p.114).
    """
    t = vehicle.vehicle_type
    table = load_upgrades()
    hull, handling, max_gear, crew = t.hull, t.handling, t.max_gear, t.crew
    rules = set(t.special_rules)
    for u in vehicle.upgrades:
        row = table[u.key]
        hull += row.hull_bonus
        handling += row.handling_bonus
        max_gear += row.max_gear_bonus
        crew += row.crew_bonus
        rules |= set(row.grants_rules)
    chosen = tuple(vehicle.perks if perks is None else perks)
    handling += sum(HANDLING_PERKS.get(p, 0) for p in chosen)
    rules |= {PERK_RULES[p] for p in chosen if p in PERK_RULES}
    return Statistics(max(1, hull), max(0, handling), min(MAX_GEAR, max(1, max_gear)), max(0, crew),
                      frozenset(rules))


def starting_ammo(weapon: Weapon, sponsor: Sponsor | None) -> int | None:
    """Ammo Tokens a weapon is bought with (p.81): Ammo 3 becomes 4 for Rutherford (Well Stocked, p.91)."""
    if weapon.ammo == 3 and sponsor is not None and sponsor.ammo_3_becomes is not None:
        return sponsor.ammo_3_becomes
    return weapon.ammo


def vehicle_in_play(team: Team, index: int, vehicle_id: str, player: int, pose: Pose | None = None,
                    status: Status = Status.UNDEPLOYED) -> tuple[VehicleState, Loadout]:
    """Vehicle ``index`` of ``team`` as the engine plays it, and its :class:`Loadout`.

    Its statistics come from :func:`statistics`; its weapons are mounts with
    their facing (Crew Fired, the Thumper and the Wall of Amplifiers fire all
    round: ``"crew"``) and starting Ammo (Well Stocked, p.91); its Rams are on
    their facings (p.85). It waits off the table (``Status.UNDEPLOYED``) for
    the scenario to place it (Starting Grid, p.62, p.126) unless given a pose.
    """
    vehicle = team.vehicles[index]
    sponsor = team.sponsor_row
    stats = statistics(vehicle)
    weapons = load_weapons()
    mounts = []
    moonshine = any(u.key == "peach_moonshine" for u in vehicle.upgrades)  # endless Molotovs (p.103)
    for fitting in vehicle.weapons:
        w = weapons[fitting.key]
        facing = fitting.facing if w.facings and fitting.facing is not None else "crew"
        ammo = None if moonshine and fitting.key == "molotov_cocktails" else starting_ammo(w, sponsor)
        mounts.append(StateMount(fitting.key, facing, ammo, fitting.mount or default_piece(facing)))
    rams = frozenset(u.facing for u in vehicle.upgrades if u.key == "ram" and u.facing is not None)
    state = VehicleState.new(vehicle_id, player, vehicle.type, pose or Pose(0.0, 0.0, 0.0), tuple(mounts), rams)
    state = replace(state, hull=stats.hull, handling=stats.handling, max_gear=stats.max_gear, crew=stats.crew,
                    rules=stats.rules, name=vehicle_labels(team)[index], status=status)
    loadout = Loadout(vehicle_id, team.sponsor or "", vehicle.perks,
                      tuple((u.key, u.facing or "") for u in vehicle.upgrades))
    return state, loadout


__all__ = [
    "BuildRulings", "DEFAULT_RULINGS", "FACINGS", "Facing", "Fitting", "MOUNTS", "Mount", "Statistics", "Team",
    "TeamProblem", "TeamReport", "TeamVehicle", "UnknownName", "VehicleReport", "base_cost", "check", "find",
    "names", "normalise", "refused", "slots_available", "slots_used", "starting_ammo", "statistics", "upgrade_cost",
    "vehicle_cost", "vehicle_in_play", "vehicle_labels", "weapon_cost",
]
