"""What the free table and the rulings mode may let the player do.

Those modes never decide a rule. They ask a :class:`TurnController` whether a
piece may be selected, moved by hand or given a move, and which templates a
vehicle may use, and tell it what happened. :class:`FreeTable` is the default:
a sandbox that applies only the template set's permitted-gear table (p.17-18,
through :mod:`simulator.gaslands.permitted`), Reverse in Gear 1 (p.39, through
``permitted.check_reverse``) and each type's Max Gear (p.66, p.68). A game is
not played through this hook: the game mode reads the engine's typed prompts
(:mod:`simulator.ui.modes.game`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from simulator.errors import IllegalChoice
from simulator.gaslands.permitted import Manoeuvre, check_reverse, manoeuvre
from simulator.gaslands.tables import VehicleType, load_vehicle_types
from simulator.geometry.placement import Move
from simulator.geometry.table import Table
from simulator.geometry.templates import TemplateSet


@dataclass(frozen=True)
class Verdict:
    """Yes or no, and when no, why (a sentence naming the rule and page)."""

    allowed: bool
    reason: str = ""

    @classmethod
    def yes(cls) -> Verdict:
        """An allowed action."""
        return cls(True)

    @classmethod
    def no(cls, reason: str) -> Verdict:
        """A refused action, with the reason to show in the status line."""
        return cls(False, reason)


class TurnController(Protocol):
    """The questions the window asks before acting, and the news it reports afterwards."""

    def headline(self, table: Table) -> str:
        """One line for the top of the side panel ("Red Team's turn, Gear Phase 2")."""
        ...

    def can_select(self, table: Table, vehicle_id: str) -> Verdict:
        """May the player select this vehicle?"""
        ...

    def manoeuvre(self, table: Table, vehicle_id: str, template: str) -> Manoeuvre:
        """How the template counts for this vehicle now (Trivial, permitted, Hazardous, not permitted)."""
        ...

    def can_move(self, table: Table, vehicle_id: str, move: Move) -> Verdict:
        """May this vehicle make this move now?"""
        ...

    def can_hand_move(self, table: Table, piece_id: str) -> Verdict:
        """May the player pick this piece up by hand?"""
        ...

    def can_set_gear(self, table: Table, vehicle_id: str, gear: int) -> Verdict:
        """May this vehicle be put in ``gear``?"""
        ...

    def moved(self, before: Table, after: Table, vehicle_id: str, move: Move | None) -> None:
        """News: a move (``move``) or a hand placement (``None``) changed the table."""
        ...


def _manoeuvre_word(m: Manoeuvre) -> str:
    return {"trivial": "Trivial", "permitted": "permitted", "hazardous": "Hazardous",
            "not_permitted": "not permitted"}[m.value]


def manoeuvre_label(m: Manoeuvre) -> str:
    """The word the tray shows: Trivial, permitted, Hazardous or not permitted."""
    return _manoeuvre_word(m)


class FreeTable:
    """A sandbox controller: anyone may act at any time within the templates' permitted gears."""

    def __init__(self, template_set: TemplateSet, vehicle_types: dict[str, VehicleType] | None = None) -> None:
        self.template_set = template_set
        self.types = vehicle_types if vehicle_types is not None else load_vehicle_types()

    def headline(self, table: Table) -> str:
        """Free table: no turn order."""
        return "Free table: any vehicle may move"

    def can_select(self, table: Table, vehicle_id: str) -> Verdict:
        """Every vehicle may be selected."""
        return Verdict.yes()

    def _vtype(self, table: Table, vehicle_id: str) -> VehicleType | None:
        return self.types.get(table.vehicle(vehicle_id).type)

    def manoeuvre(self, table: Table, vehicle_id: str, template: str) -> Manoeuvre:
        """The permitted-gear table for the vehicle's gear (p.18), with Full Throttle (p.69)."""
        vehicle = table.vehicle(vehicle_id)
        vtype = self._vtype(table, vehicle_id)
        full_throttle = vtype is not None and vtype.has_rule("Full Throttle")
        return manoeuvre(self.template_set, template, vehicle.gear, full_throttle=full_throttle)

    def can_move(self, table: Table, vehicle_id: str, move: Move) -> Verdict:
        """Refuse templates not permitted in the vehicle's gear (p.18) and reversing outside Gear 1 (p.39)."""
        vehicle = table.vehicle(vehicle_id)
        label = self.template_set.template(move.template).label
        if move.reverse:
            try:
                check_reverse(vehicle.gear, move.template, self.template_set)
            except IllegalChoice as exc:
                return Verdict.no(f"{exc.args[0]} ({exc.args[1] if len(exc.args) > 1 else 'p.39'})")
        if not self.manoeuvre(table, vehicle_id, move.template).permitted:
            return Verdict.no(f"{label} not permitted in gear {vehicle.gear} (p.18)")
        return Verdict.yes()

    def can_hand_move(self, table: Table, piece_id: str) -> Verdict:
        """Every piece may be placed by hand."""
        return Verdict.yes()

    def max_gear(self, table: Table, vehicle_id: str) -> int:
        """The vehicle type's Max Gear (p.66, p.68); 6 for unknown types."""
        vtype = self._vtype(table, vehicle_id)
        return vtype.max_gear if vtype is not None else 6

    def can_set_gear(self, table: Table, vehicle_id: str, gear: int) -> Verdict:
        """Gears run from 1 to the type's Max Gear (p.66, p.68)."""
        top = self.max_gear(table, vehicle_id)
        if gear < 1:
            return Verdict.no("gear 1 is the lowest gear")
        if gear > top:
            name = self.types[table.vehicle(vehicle_id).type].name if self._vtype(table, vehicle_id) else "vehicle"
            return Verdict.no(f"a {name}'s Max Gear is {top} (p.66)")
        return Verdict.yes()

    def moved(self, before: Table, after: Table, vehicle_id: str, move: Move | None) -> None:
        """A free table keeps no record."""
