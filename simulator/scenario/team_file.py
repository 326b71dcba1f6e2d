"""Team files (TOML, ``docs/teams.md``): read into a :class:`~simulator.gaslands.teams.Team`, and write back.

::

    [team]
    name = "Rust Buckets"
    sponsor = "Rutherford"        # optional
    cans = 50

    [[vehicle]]
    name = "Old Faithful"         # optional
    type = "Performance Car"
    weapons = [{ type = "Heavy Machine Gun", facing = "front" }, { type = "Handgun" }]
    upgrades = ["Armour Plating", { type = "Ram", facing = "front" }]
    perks = ["Slipstream"]

Names are matched as :func:`simulator.gaslands.teams.find` does (case,
spaces, hyphens, underscores and apostrophes do not matter, keys and a
missing leading "The" are accepted). A file that cannot be read raises
:class:`~simulator.errors.InputFileError` naming the file, the table and key
(``vehicle[2].weapons[1].type``) and the reason, listing the valid names when a
name is wrong; every problem is reported at once. Whether the team is *legal*
is :func:`simulator.gaslands.teams.check`'s answer, not an error.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

import tomlkit
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict, ValidationError

from simulator import safe_read
from simulator.atomic import write_text_atomic
from simulator.errors import InputFileError, Problem
from simulator.gaslands.tables import (
    load_perks,
    load_sponsors,
    load_upgrades,
    load_vehicle_types,
    load_weapons,
)
from simulator.gaslands.teams import Fitting, Kind, Team, TeamVehicle, UnknownName, find
from simulator.scenario.loader import validation_problems

MAX_VEHICLES = 50
"""The most vehicles one team file may hold (a 100-Can team of Bikes has 20)."""

MAX_ITEMS = 40
"""The most weapons, upgrades or perks one vehicle may list."""

Name = Annotated[str, Strict(), Field(min_length=1, max_length=100)]
FacingName = Literal["front", "rear", "side", "turret"]
MountName = Literal["cab", "trailer"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ItemSpec(_Strict):
    """A weapon or upgrade as a table: its ``type`` and, where needed, a ``facing`` and a ``mount``."""

    type: Name
    facing: FacingName | None = None
    mount: MountName | None = None


def _as_item(value: Any) -> Any:
    """An upgrade given by name alone is ``{type = NAME}``; anything but a name or a table is refused."""
    if isinstance(value, str):
        return {"type": value}
    if not isinstance(value, dict):
        raise ValueError("expected a name or a table such as { type = \"Ram\", facing = \"front\" }")
    return value


Upgrade = Annotated[ItemSpec, BeforeValidator(_as_item)]


class TeamSpec(_Strict):
    """``[team]``."""

    name: Annotated[str, Strict(), Field(max_length=100)] = "Team"
    sponsor: Name | None = None
    cans: Annotated[int, Strict(), Field(ge=1, le=10_000)] = 50


class VehicleEntry(_Strict):
    """``[[vehicle]]``."""

    name: Annotated[str, Strict(), Field(max_length=100)] = ""
    type: Name
    weapons: Annotated[list[ItemSpec], Field(max_length=MAX_ITEMS)] = Field(default_factory=list)
    upgrades: Annotated[list[Upgrade], Field(max_length=MAX_ITEMS)] = Field(default_factory=list)
    perks: Annotated[list[Name], Field(max_length=MAX_ITEMS)] = Field(default_factory=list)


class TeamFile(_Strict):
    """A whole team file."""

    team: TeamSpec = Field(default_factory=TeamSpec)
    vehicle: Annotated[list[VehicleEntry], Field(max_length=MAX_VEHICLES)] = Field(default_factory=list)


def _lookup(kind: Kind, name: str, where: str, problems: list[Problem]) -> str | None:
    try:
        return find(kind, name)
    except UnknownName as exc:
        problems.append(Problem(where, exc.reason))
        return None


def parse_team(raw: dict[str, Any], source: str) -> Team:
    """Validate a parsed team file (see the module docstring); raises :class:`InputFileError`."""
    try:
        spec = TeamFile.model_validate(raw)
    except ValidationError as exc:
        raise InputFileError(source, validation_problems(exc, raw)) from None
    problems: list[Problem] = []
    sponsor = None
    if spec.team.sponsor is not None:
        sponsor = _lookup("sponsor", spec.team.sponsor, "team.sponsor", problems)
    vehicles = []
    for i, v in enumerate(spec.vehicle, 1):
        where = f"vehicle[{i}]"
        vtype = _lookup("vehicle type", v.type, f"{where}.type", problems)
        weapons = []
        for j, w in enumerate(v.weapons, 1):
            key = _lookup("weapon", w.type, f"{where}.weapons[{j}].type", problems)
            if key is not None:
                weapons.append(Fitting(key, w.facing, w.mount))
        upgrades = []
        for j, u in enumerate(v.upgrades, 1):
            key = _lookup("upgrade", u.type, f"{where}.upgrades[{j}]", problems)
            if key is not None:
                upgrades.append(Fitting(key, u.facing, u.mount))
        perks = []
        for j, p in enumerate(v.perks, 1):
            key = _lookup("perk", p, f"{where}.perks[{j}]", problems)
            if key is not None:
                perks.append(key)
        if vtype is not None:
            vehicles.append(TeamVehicle(vtype, v.name, tuple(weapons), tuple(upgrades), tuple(perks)))
    if problems:
        raise InputFileError(source, problems)
    return Team(spec.team.name, sponsor, spec.team.cans, tuple(vehicles))


def load_team(path: str | Path) -> Team:
    """Read and validate a team file; raises :class:`InputFileError` (file, key, reason) if it cannot be read."""
    return parse_team(safe_read.read_toml(path), str(path))


def team_document(team: Team) -> tomlkit.TOMLDocument:
    """The team as a TOML document in the file format, with the rulebook's names."""
    doc = tomlkit.document()
    head = tomlkit.table()
    head["name"] = team.name
    if team.sponsor:
        head["sponsor"] = load_sponsors()[team.sponsor].name
    head["cans"] = team.cans
    doc["team"] = head
    types, weapons, upgrades, perks = load_vehicle_types(), load_weapons(), load_upgrades(), load_perks()
    rows = tomlkit.aot()
    for v in team.vehicles:
        t = tomlkit.table()
        if v.name:
            t["name"] = v.name
        t["type"] = types[v.type].name
        t["weapons"] = _items((weapons[w.key].name, w) for w in v.weapons)
        t["upgrades"] = _items(((upgrades[u.key].name, u) for u in v.upgrades), bare=True)
        t["perks"] = [perks[p].name for p in v.perks]
        rows.append(t)
    if team.vehicles:
        doc["vehicle"] = rows
    return doc


def _items(items: Any, bare: bool = False) -> tomlkit.items.Array:
    out = tomlkit.array()
    for name, fitting in items:
        if bare and fitting.facing is None and fitting.mount is None:
            out.append(name)
            continue
        item = tomlkit.inline_table()
        item["type"] = name
        if fitting.facing is not None:
            item["facing"] = fitting.facing
        if fitting.mount is not None:
            item["mount"] = fitting.mount
        out.append(item)
    if len(out) > 1:
        out.multiline(True)
    return out


def team_text(team: Team) -> str:
    """The team file's text."""
    return tomlkit.dumps(team_document(team))


def save_team(team: Team, path: str | Path) -> None:
    """Write the team file atomically (the old file stays whole if writing fails; raises ``OSError``)."""
    write_text_atomic(path, team_text(team))


def team_id(name: str) -> str:
    """A file or vehicle id made from a name: ``"Old Faithful"`` -> ``"old_faithful"`` (letters, digits, _)."""
    s = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return s[:64] or "team"


__all__ = ["TeamFile", "load_team", "parse_team", "save_team", "team_document", "team_id", "team_text"]
