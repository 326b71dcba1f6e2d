"""Vehicle, weapon and upgrade tables, loaded from package data and validated.

The numbers live in ``simulator/data/vehicles.toml`` (p.66, p.68, footprints
p.177), ``weapons.toml`` (p.67, p.72-79) and ``upgrades.toml`` (p.83-85);
this module only checks and types them. Every loader returns a dict keyed by
the snake_case name (``"car"``, ``"machine_gun"``) of frozen models.

>>> load_vehicle_types()["car"].hull
10
>>> load_weapons()["minigun"].attack_dice
4

Errors: a file that is not valid TOML, or whose values break the schema,
raises :class:`simulator.errors.InputFileError` naming the table and key,
e.g. ``vehicles.toml: vehicles.car.hull: Input should be greater than 0``.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from simulator.errors import InputFileError, Problem
from simulator.gaslands.special_rules import check_rule_names
from simulator.vocab import Arc, WeightName
from simulator.vocab import Weight as Weight  # re-exported: one definition, in simulator.vocab

RangeName = Literal["short", "medium", "long", "double", "small_burst", "large_burst", "dropped"]
WeaponGroup = Literal["basic", "advanced", "crew_fired", "dropped"]
FacingName = Arc


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class VehicleType(_Row):
    """One row of the vehicle type tables (p.66, p.68)."""

    name: str
    weight_name: WeightName = Field(alias="weight")
    hull: int = Field(gt=0)
    handling: int = Field(ge=0)
    max_gear: int = Field(ge=1, le=6)
    crew: int = Field(ge=0)
    build_slots: int = Field(ge=0)
    cost: int = Field(ge=0)
    special_rules: tuple[str, ...] = ()
    airborne: bool = False
    length_mm: float = Field(gt=0)
    width_mm: float = Field(gt=0)
    trailer_length_mm: float | None = Field(default=None, gt=0)
    trailer_width_mm: float | None = Field(default=None, gt=0)
    aliases: tuple[str, ...] = ()
    page: int = Field(gt=0)

    @field_validator("special_rules")
    @classmethod
    def _known(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return check_rule_names(names, "vehicle")

    @property
    def weight(self) -> Weight:
        """The weight class as an ordered value."""
        return Weight.parse(self.weight_name)

    def has_rule(self, rule: str) -> bool:
        """Whether the vehicle type lists the special rule ``rule`` (exact name)."""
        return rule in self.special_rules


class Weapon(_Row):
    """One row of the weapon tables (p.67, p.72, p.76, p.77)."""

    name: str
    group: WeaponGroup
    range: RangeName
    attack_dice: int = Field(ge=0)
    damaging: bool = True
    dice_by_range: dict[str, int] | None = None
    template: RangeName | None = None
    slots: int = Field(ge=0)
    cost: int = Field(ge=0)
    ammo: int | None = Field(default=None, ge=1)
    special_rules: tuple[str, ...] = ()
    mishkin_only: bool = False
    front_only: bool = False
    facings: tuple[FacingName, ...] = ("front", "rear", "side", "turret")
    """Where it may be mounted when bought (p.65, p.67, p.78, p.85); empty: it takes no facing."""
    aliases: tuple[str, ...] = ()
    page: int = Field(gt=0)

    @field_validator("special_rules")
    @classmethod
    def _known(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return check_rule_names(names, "weapon")

    @property
    def electrical(self) -> bool:
        """Electrical weapons are for Mishkin's teams only (the table's **, p.72, p.93)."""
        return self.mishkin_only or self.has_rule("Electrical")

    def has_rule(self, rule: str) -> bool:
        """Whether the weapon lists the special rule ``rule`` (exact name)."""
        return rule in self.special_rules

    @property
    def crew_fired(self) -> bool:
        """Crew Fired weapons fire in a 360-degree arc (p.67, p.81)."""
        return self.has_rule("Crew Fired")

    @property
    def dropped(self) -> bool:
        """Dropped weapons leave their template on the table (p.78)."""
        return self.range == "dropped"


class Upgrade(_Row):
    """One row of the Vehicle Upgrade Table (p.83), a sponsor's upgrade (p.96-99) or a trailer (p.102-103).

    The build rules (``facings``, ``per_vehicle``, ``weights``...) are
    described at the top of ``upgrades.toml`` and applied by
    :mod:`simulator.gaslands.teams`.
    """

    name: str
    slots: int = Field(ge=0)
    cost: int = Field(ge=0)
    cost_multiplier: int | None = None
    ammo: int | None = Field(default=None, ge=1)
    hull_bonus: int = 0
    crew_bonus: int = 0
    handling_bonus: int = 0
    max_gear_bonus: int = 0
    special_rules: tuple[str, ...] = ()
    mishkin_only: bool = False
    facings: tuple[FacingName, ...] = ()
    per_vehicle: int | None = Field(default=None, ge=1)
    per_facing: int | None = Field(default=None, ge=1)
    weights: tuple[WeightName, ...] = ()
    banned_types: tuple[str, ...] = ()
    max_by_crew: bool = False
    sponsor_only: bool = False
    restricted: bool = False
    trailer: WeightName | None = None
    stowage_slots: int = Field(default=0, ge=0)
    cargo: bool = False
    base_cost_delta: int = 0
    min_vehicle_cost: int = Field(default=0, ge=0)
    grants_rules: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    summary: str = ""
    page: int = Field(gt=0)

    @field_validator("special_rules")
    @classmethod
    def _known(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return check_rule_names(names, "upgrade")

    @field_validator("grants_rules")
    @classmethod
    def _granted(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return check_rule_names(names, "vehicle")

    @property
    def electrical(self) -> bool:
        """Electrical upgrades are for Mishkin's teams only (p.83, p.93)."""
        return self.mishkin_only or "Electrical" in self.special_rules


class PerkClass(_Row):
    """A class of perks (p.104-115)."""

    name: str
    page: str


class Perk(_Row):
    """One perk (p.104-115): its class, cost in Cans, page and a short reminder in our words.

    ``weights`` and ``min_handling`` limit who may take it (Stunt Driver, p.107).
    """

    name: str
    perk_class: str = Field(alias="class")
    cost: int = Field(ge=0)
    page: str
    summary: str
    aliases: tuple[str, ...] = ()
    weights: tuple[WeightName, ...] = ()
    min_handling: int | None = None


class SponsoredPerk(_Row):
    """One of a sponsor's Sponsored Perks (p.91-103): a rule every vehicle of the team has."""

    key: str
    name: str
    page: str
    summary: str


class Sponsor(_Row):
    """A sponsor (p.91-103): its perk classes, build rules and Sponsored Perks (see ``sponsors.toml``)."""

    name: str
    page: str
    perk_classes: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    restricted_allowed: dict[str, int] = Field(default_factory=dict)
    banned_weights: tuple[WeightName, ...] = ()
    banned_types: tuple[str, ...] = ()
    min_handling: int | None = None
    electrical: bool = False
    half_cost: tuple[str, ...] = ()
    zero_slot_upgrades: tuple[str, ...] = ()
    ammo_3_becomes: int | None = None
    upgrades: tuple[str, ...] = ()
    trailers: bool = False
    needs_trailer_or_war_rig: bool = False
    free_cargo: bool = False
    perks: tuple[SponsoredPerk, ...] = ()

    def has_perk(self, key: str) -> bool:
        """Whether ``key`` (``"well_stocked"``) is one of its Sponsored Perks."""
        return any(p.key == key for p in self.perks)


_M = TypeVar("_M", bound=_Row)


def _read_toml(path: Path | None, default_name: str) -> tuple[str, dict[str, Any]]:
    if path is None:
        text = (files("simulator") / "data" / default_name).read_text(encoding="utf-8")
        source = default_name
    else:
        text = path.read_text(encoding="utf-8")
        source = str(path)
    try:
        return source, tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputFileError(source, [Problem("<file>", f"not valid TOML: {error}")]) from None


def _where(table: str, key: str, loc: tuple[int | str, ...]) -> str:
    return ".".join([table, key, *(str(part) for part in loc)])


def _load_rows(path: Path | None, default_name: str, table: str, model: type[_M]) -> dict[str, _M]:
    source, document = _read_toml(path, default_name)
    rows = document.get(table)
    if not isinstance(rows, dict) or not rows:
        raise InputFileError(source, [Problem(table, f"expected a non-empty table [{table}.<key>]")])
    problems: list[Problem] = []
    result: dict[str, _M] = {}
    for key, row in rows.items():
        try:
            result[key] = model.model_validate(row)
        except ValidationError as error:
            problems.extend(Problem(_where(table, key, e["loc"]), e["msg"]) for e in error.errors())
    if problems:
        raise InputFileError(source, problems)
    return result


@cache
def _default_vehicle_types() -> dict[str, VehicleType]:
    return _load_rows(None, "vehicles.toml", "vehicles", VehicleType)


@cache
def _default_weapons() -> dict[str, Weapon]:
    return _load_rows(None, "weapons.toml", "weapons", Weapon)


@cache
def _default_upgrades() -> dict[str, Upgrade]:
    return _load_rows(None, "upgrades.toml", "upgrades", Upgrade)


@cache
def _default_perks() -> dict[str, Perk]:
    return _load_rows(None, "perks.toml", "perks", Perk)


@cache
def _default_perk_classes() -> dict[str, PerkClass]:
    return _load_rows(None, "perks.toml", "classes", PerkClass)


@cache
def _default_sponsors() -> dict[str, Sponsor]:
    return _load_rows(None, "sponsors.toml", "sponsors", Sponsor)


def load_perks(path: Path | None = None) -> dict[str, Perk]:
    """Perks by key (``"slipstream"``, ...), from ``path`` or the package data (p.104-115).

    Raises :class:`InputFileError` listing every bad key.
    """
    return dict(_default_perks()) if path is None else _load_rows(path, "", "perks", Perk)


def load_perk_classes(path: Path | None = None) -> dict[str, PerkClass]:
    """Perk classes by key (``"speed"``, ...), from ``path`` or the package data (p.104-115)."""
    return dict(_default_perk_classes()) if path is None else _load_rows(path, "", "classes", PerkClass)


def load_sponsors(path: Path | None = None) -> dict[str, Sponsor]:
    """Sponsors by key (``"rutherford"``, ...), from ``path`` or the package data (p.91-103).

    Raises :class:`InputFileError` listing every bad key.
    """
    return dict(_default_sponsors()) if path is None else _load_rows(path, "", "sponsors", Sponsor)


def load_vehicle_types(path: Path | None = None) -> dict[str, VehicleType]:
    """Vehicle types by key (``"buggy"`` ... ``"war_rig"``), from ``path`` or the package data.

    Raises :class:`InputFileError` listing every bad key.
    """
    return dict(_default_vehicle_types()) if path is None else _load_rows(path, "", "vehicles", VehicleType)


def load_weapons(path: Path | None = None) -> dict[str, Weapon]:
    """Weapons by key (``"handgun"``, ``"machine_gun"``, ...), from ``path`` or the package data.

    Raises :class:`InputFileError` listing every bad key.
    """
    return dict(_default_weapons()) if path is None else _load_rows(path, "", "weapons", Weapon)


def weapon_row(key: str) -> Weapon:
    """The package data's weapon ``key`` (read once, never copied: :func:`load_weapons` returns a copy).

    Raises ``KeyError`` for an unknown key.
    """
    return _default_weapons()[key]


def load_upgrades(path: Path | None = None) -> dict[str, Upgrade]:
    """Upgrades by key (``"ram"``, ``"armour_plating"``, ...), from ``path`` or the package data.

    Raises :class:`InputFileError` listing every bad key.
    """
    return dict(_default_upgrades()) if path is None else _load_rows(path, "", "upgrades", Upgrade)
