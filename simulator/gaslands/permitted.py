"""Which movement templates a vehicle may select, and whether they are Trivial or Hazardous.

The per-gear table belongs to the template set (``simulator/data/template_sets``,
p.18); this module applies the rules that change it for one vehicle:

- Full Throttle (Bike, Bike with Sidecar, p.69; Experimental Nuclear Engine,
  p.83): the Long Straight is permitted in every gear, never Trivial or Hazardous.
- Zero Crew (p.82): only templates Hazardous in the current gear count as permitted.
- Forced moves (p.39) ignore the permitted gears and are neither Trivial nor Hazardous.
- Reversing (p.39): only in Gear 1, with any template permitted in Gear 1.

The template set's own permission enum is read by member name (``TRIVIAL``,
``PERMITTED``, ``HAZARDOUS``, ``NOT_PERMITTED``), so any table with a
``permission(template_name, gear)`` method plugs in.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Protocol

from simulator.errors import IllegalChoice

LONG_STRAIGHT = "long_straight"
"""The template name Full Throttle refers to (p.69)."""

MOVEMENT_TEMPLATES: tuple[str, ...] = (
    "short_straight",
    "medium_straight",
    "long_straight",
    "gentle",
    "turn",
    "hard",
    "hairpin",
    "veer",
    "swerve",
)
"""The nine movement templates (p.16)."""

STRAIGHTS = frozenset({"short_straight", "medium_straight", "long_straight"})


class Manoeuvre(Enum):
    """How a template counts for a vehicle in its current gear (p.17, p.38, p.40)."""

    TRIVIAL = "trivial"
    PERMITTED = "permitted"
    HAZARDOUS = "hazardous"
    NOT_PERMITTED = "not_permitted"

    @property
    def permitted(self) -> bool:
        """Whether the template may be selected."""
        return self is not Manoeuvre.NOT_PERMITTED

    @property
    def hazard_tokens(self) -> int:
        """Tokens gained on selecting it: 1 if Hazardous (p.38)."""
        return 1 if self is Manoeuvre.HAZARDOUS else 0

    @property
    def free_shifts(self) -> int:
        """Bonus Shift results: 1 if Trivial (p.40)."""
        return 1 if self is Manoeuvre.TRIVIAL else 0


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class PermissionTable(Protocol):
    """The permitted-gear table of a template set (GEOMETRY.md section 1)."""

    def permission(self, template_name: str, gear: int) -> _Named: ...


def manoeuvre(
    table: PermissionTable,
    template: str,
    gear: int,
    *,
    full_throttle: bool = False,
    zero_crew: bool = False,
) -> Manoeuvre:
    """How ``template`` counts for a vehicle in ``gear`` under its rules."""
    if full_throttle and template == LONG_STRAIGHT:
        return Manoeuvre.PERMITTED
    base = Manoeuvre[table.permission(template, gear).name]
    if zero_crew:
        return Manoeuvre.HAZARDOUS if base is Manoeuvre.HAZARDOUS else Manoeuvre.NOT_PERMITTED
    return base


def permitted_templates(
    table: PermissionTable,
    gear: int,
    *,
    templates: Iterable[str] = MOVEMENT_TEMPLATES,
    full_throttle: bool = False,
    zero_crew: bool = False,
) -> dict[str, Manoeuvre]:
    """The templates a vehicle in ``gear`` may select, each with how it counts (p.22)."""
    found = {t: manoeuvre(table, t, gear, full_throttle=full_throttle, zero_crew=zero_crew) for t in templates}
    return {t: m for t, m in found.items() if m.permitted}


def check_reverse(gear: int, template: str, table: PermissionTable) -> None:
    """Raise :class:`IllegalChoice` unless a reverse with ``template`` is allowed (p.39)."""
    if gear != 1:
        raise IllegalChoice(f"only a vehicle in Gear 1 may reverse, not Gear {gear}", "Reversing, p.39")
    if not manoeuvre(table, template, 1).permitted:
        raise IllegalChoice(f"{template} is not permitted in Gear 1", "Reversing, p.39")
