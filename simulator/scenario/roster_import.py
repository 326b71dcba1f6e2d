"""Import a BattleScribe / NewRecruit roster (``.rosz``: a zipped ``.ros``) into a team.

A roster of the public BSData Gaslands data is XML in the BattleScribe roster
schema: ``roster`` (its ``name``; ``costLimits/costLimit`` in `` Cans``) >
``forces/force`` > ``selections/selection``, each with a ``name``, a
``type`` (``model`` for a vehicle, ``upgrade`` for the rest), a ``number``
(how many), an optional ``customName``, and its own ``selections``:

- the sponsor is a ``Sponsor`` selection holding the sponsor's name (or a
  selection named after a sponsor); BSData's ``Custom`` sponsor has no
  rulebook equivalent and leaves the team without one;
- a vehicle (``type="model"``) is named like ``Car`` or ``Pickup Truck / Van /
  Tractor`` (each ``/`` part is tried); its selections are weapons,
  upgrades and perks, matched to the rulebook's names as team files are
  (:func:`simulator.gaslands.teams.find`, with aliases such as ``Mini-Gun``,
  ``Double-Barrelled``, ``Lightweight Trailer``);
- a weapon's or Ram's facing is a child selection ``Front``, ``Rear``,
  ``Side``, ``Turret (Cans x3)`` or ``Free Turret (1 per tank)``;
- weapons inside a trailer selection sit on the trailer (``mount =
  "trailer"``), the others on the cab.

Every entry that cannot be mapped is left out with a message naming the
vehicle, the entry and why (:attr:`RosterImport.messages`); the team is then
for :func:`simulator.gaslands.teams.check` to judge. A file that is not a
readable roster raises :class:`~simulator.errors.InputFileError`.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from simulator import safe_read
from simulator.errors import InputFileError, Problem
from simulator.gaslands.tables import load_upgrades, load_vehicle_types, load_weapons
from simulator.gaslands.teams import Facing, Fitting, Kind, Mount, Team, TeamVehicle, UnknownName, find

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
MAX_ROSTER_BYTES = 8 * 1024 * 1024
"""The largest roster read, zipped or unzipped (a real one is a few kilobytes)."""

FACING_ENTRIES: dict[str, Facing] = {"front": "front", "rear": "rear", "side": "side", "turret": "turret",
                                     "turret (cans x3)": "turret", "free turret (1 per tank)": "turret"}
"""BSData's mounting selections and the facing each declares."""

IGNORED = frozenset({"sponsor", "options", "upgrades", "weapons", "perks", "driver perks", "trailers",
                     "trailer cargo", "crew fired weapons", "dropped weapons", "electrical weapons", "mounting"})
"""Grouping entries that carry no item of their own."""

DEFAULT_CANS = 50
"""The team size when the roster sets no Cans limit (the "standard" game, p.64)."""


@dataclass
class RosterImport:
    """What an import gives: the team, and one message per entry that could not be mapped."""

    team: Team
    messages: list[str] = field(default_factory=list)


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _children(element: ET.Element, tag: str) -> list[ET.Element]:
    """``element``'s ``<tag>s><tag>...`` grandchildren (``selections/selection``)."""
    out: list[ET.Element] = []
    for holder in element:
        if _tag(holder) == tag + "s":
            out += [c for c in holder if _tag(c) == tag]
    return out


def read_roster_xml(path: str | Path) -> ET.Element:
    """The roster's XML root, from a ``.rosz`` (zip holding one ``.ros``) or a plain ``.ros``.

    Raises :class:`InputFileError` for a missing or oversized file, a zip
    without a ``.ros``, XML that does not parse, a DOCTYPE (entities are not
    expanded) or a root that is not a ``roster``.
    """
    source = str(path)
    data = safe_read.read_bytes(path, MAX_ROSTER_BYTES)
    if data[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                members = [m for m in archive.infolist() if m.filename.lower().endswith(".ros")]
                if not members:
                    raise InputFileError(source, [Problem("(file)", "the zip holds no .ros roster")])
                if members[0].file_size > MAX_ROSTER_BYTES:
                    raise InputFileError(source, [Problem("(file)", "the roster inside is larger than "
                                                                    f"{MAX_ROSTER_BYTES // 1024 // 1024} MiB")])
                data = archive.read(members[0])
        except zipfile.BadZipFile as exc:
            raise InputFileError(source, [Problem("(file)", f"not a readable .rosz zip ({exc})")]) from None
    if b"<!DOCTYPE" in data[:4096] or b"<!ENTITY" in data:
        raise InputFileError(source, [Problem("(file)", "a roster with a DOCTYPE or entities is not read")])
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise InputFileError(source, [Problem("(syntax)", f"not valid XML: {exc}")]) from None
    if _tag(root) != "roster":
        raise InputFileError(source, [Problem("(file)", f"the XML root is <{_tag(root)}>, not a BattleScribe "
                                                        "<roster>")])
    return root


def _find(kind: Kind, name: str) -> str | None:
    for candidate in (name, *re.split(r"\s*/\s*|\s*&\s*", name)):
        try:
            return find(kind, candidate)
        except UnknownName:
            continue
    return None


def _number(selection: ET.Element) -> int:
    try:
        return max(1, min(40, int(float(selection.get("number", "1")))))
    except ValueError:
        return 1


def _facing(selection: ET.Element) -> Facing | None:
    for child in _children(selection, "selection"):
        facing = FACING_ENTRIES.get(child.get("name", "").strip().lower())
        if facing is not None:
            return facing
    return None


def _cans(root: ET.Element, messages: list[str]) -> int:
    for limit in _children(root, "costLimit"):
        if limit.get("name", "").strip().lower() == "cans":
            try:
                value = float(limit.get("value", "-1"))
            except ValueError:
                continue
            if value > 0:
                return int(value)
    messages.append(f"the roster sets no Cans limit: the team size is {DEFAULT_CANS} Cans (p.64)")
    return DEFAULT_CANS


@dataclass
class _Vehicle:
    weapons: list[Fitting] = field(default_factory=list)
    upgrades: list[Fitting] = field(default_factory=list)
    perks: list[str] = field(default_factory=list)


def _walk(selection: ET.Element, label: str, into: _Vehicle, mount: Mount | None,
          messages: list[str]) -> None:
    """Map ``selection``'s children onto the vehicle's weapons, upgrades and perks."""
    for child in _children(selection, "selection"):
        name = child.get("name", "").strip()
        low = name.lower()
        if low in FACING_ENTRIES:
            continue
        n = _number(child)
        weapon = _find("weapon", name)
        if weapon is not None:
            into.weapons += [Fitting(weapon, _facing(child), mount)] * n
            continue
        upgrade = _find("upgrade", name)
        if upgrade is not None:
            row = load_upgrades()[upgrade]
            into.upgrades += [Fitting(upgrade, _facing(child) if row.facings else None)] * n
            if row.trailer is not None:
                _walk(child, label, into, "trailer", messages)
            continue
        perk = _find("perk", name)
        if perk is not None:
            into.perks.append(perk)
            continue
        if low in IGNORED:
            _walk(child, label, into, mount, messages)
            continue
        messages.append(f"{label}: {name!r} is not a weapon, upgrade or perk of the rulebook's tables: left out")


def import_roster(path: str | Path) -> RosterImport:
    """Read a ``.rosz`` / ``.ros`` roster into a :class:`~simulator.gaslands.teams.Team` (see the module
    docstring); raises :class:`InputFileError` when the file is not a readable roster."""
    root = read_roster_xml(path)
    messages: list[str] = []
    sponsor: str | None = None
    vehicles: list[TeamVehicle] = []
    cans = _cans(root, messages)
    forces = _children(root, "force")
    if not forces:
        raise InputFileError(str(path), [Problem("roster.forces", "the roster has no force (no team)")])
    for force in forces:
        for selection in _children(force, "selection"):
            name = selection.get("name", "").strip()
            if selection.get("type") == "model":
                vehicles += _vehicle(selection, messages)
                continue
            names = [name, *(c.get("name", "") for c in _children(selection, "selection"))]
            found = [s for s in (_find("sponsor", n) for n in names if n.lower() != "sponsor") if s is not None]
            if found:
                sponsor = found[0]
            elif any(n.strip().lower() == "custom" for n in names):
                messages.append("the Custom sponsor is not one of the rulebook's thirteen (p.91-103): the team "
                                "has no sponsor, so its perks will not be legal")
            elif name.lower() != "sponsor":
                messages.append(f"the team: {name!r} is neither a vehicle nor a sponsor: left out")
    name = root.get("name", "").strip() or Path(path).stem
    return RosterImport(Team(name[:100], sponsor, cans, tuple(vehicles)), messages)


def _vehicle(selection: ET.Element, messages: list[str]) -> list[TeamVehicle]:
    name = selection.get("name", "").strip()
    custom = (selection.get("customName") or "").strip()[:100]
    label = f"{custom} ({name})" if custom else name
    vtype = _find("vehicle type", name)
    if vtype is None:
        valid = ", ".join(v.name for v in load_vehicle_types().values())
        messages.append(f"{label}: {name!r} is not a vehicle type of the rulebook (p.66, p.68; {valid}): "
                        "the vehicle is left out")
        return []
    into = _Vehicle()
    articulated = load_vehicle_types()[vtype].has_rule("Articulated")
    _walk(selection, label, into, None, messages)
    trailer = any(load_upgrades()[u.key].trailer is not None for u in into.upgrades)
    weapons = load_weapons()
    if trailer:
        into.weapons = [w if w.mount is not None else Fitting(w.key, w.facing, "cab") for w in into.weapons]
    elif articulated:
        for w in into.weapons:
            messages.append(f"{label}: the roster does not say whether its {weapons[w.key].name} sits on the cab "
                            "or the trailer (p.118): say it with mount = \"cab\" or \"trailer\"")
    return [TeamVehicle(vtype, custom, tuple(into.weapons), tuple(into.upgrades), tuple(into.perks))] * \
        _number(selection)


__all__ = ["RosterImport", "import_roster", "read_roster_xml"]
