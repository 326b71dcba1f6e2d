"""Whether a rulings query's manoeuvre is one the rules allow: ``legal``, with the ``reason`` and ``page``.

A rulings answer gives the position either way (a dispute can see both); this
module only says whether the rules allow the move (RULINGS.md, Legality):

- reverse only in Gear 1, with a template permitted in Gear 1 (p.39);
- a template permitted in the vehicle's gear (p.17-18), the Long Straight in any
  gear for a vehicle with Full Throttle (Bike, p.69);
- no gear beyond the vehicle's Max Gear (p.66, p.68);
- no Slide template for a Ponderous vehicle (War Rig, p.120);
- Pivot (Bike p.69, Tank p.71): Gear 1, no Collision, not left touching;
  Airwolf (p.70): at most 90 degrees; Lose Control (p.35): any facing, but a
  Ponderous vehicle is not pivoted (p.120);
- Up and Over only for a vehicle with the rule (Monster Truck, Tank, p.71);
- a dropped template against the edge it touches (p.78).

Checks that depend on the vehicle's gear apply only when the file gives
``gear`` for it; without it, only what holds in every gear it can be in is
checked (a template permitted in none of its gears, a reverse with a template
not permitted in Gear 1).

>>> Verdict.ok().to_json()
{'legal': True}
>>> Verdict.no("only a vehicle in Gear 1 may reverse, not Gear 3", "p.39").to_json()
{'legal': False, 'reason': 'only a vehicle in Gear 1 may reverse, not Gear 3', 'page': 'p.39'}
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.gaslands.permitted import manoeuvre
from simulator.gaslands.tables import VehicleType, load_vehicle_types
from simulator.geometry.placement import Move
from simulator.geometry.templates import TemplateSet
from simulator.scenario.loader import Scenario


@dataclass(frozen=True)
class Verdict:
    """``legal`` and, when not, the ``reason`` and the rulebook ``page``."""

    legal: bool
    reason: str = ""
    page: str = ""

    @staticmethod
    def ok() -> Verdict:
        """A manoeuvre the rules allow."""
        return Verdict(True)

    @staticmethod
    def no(reason: str, page: str) -> Verdict:
        """A manoeuvre the rules forbid, with why and where."""
        return Verdict(False, reason, page)

    def to_json(self) -> dict[str, object]:
        """``{"legal": true}`` or ``{"legal": false, "reason": ..., "page": ...}``."""
        if self.legal:
            return {"legal": True}
        return {"legal": False, "reason": self.reason, "page": self.page}


def vehicle_type(scenario: Scenario, vehicle_id: str) -> VehicleType:
    """The vehicle's type row (p.66, p.68)."""
    return load_vehicle_types()[scenario.table.vehicle(vehicle_id).type]


def given_gear(scenario: Scenario, vehicle_id: str) -> int | None:
    """The vehicle's gear when the file gives one, else None (gear-dependent checks are then skipped)."""
    spec = scenario.vehicle_spec(vehicle_id)
    return spec.gear if "gear" in spec.model_fields_set else None


def _label(template_set: TemplateSet, name: str) -> str:
    return template_set.template(name).label


def move_legality(scenario: Scenario, vehicle_id: str, move: Move) -> Verdict:
    """Whether ``move`` is one the rules allow ``vehicle_id`` (the first rule it breaks; see the module)."""
    vtype = vehicle_type(scenario, vehicle_id)
    ts = scenario.template_set
    gear = given_gear(scenario, vehicle_id)
    throttle = vtype.has_rule("Full Throttle")
    label = _label(ts, move.template)
    if gear is not None and gear > vtype.max_gear:
        return Verdict.no(f"a {vtype.name} has Max Gear {vtype.max_gear}, not Gear {gear}", f"p.{vtype.page}")
    if move.reverse:
        if not manoeuvre(ts, move.template, 1, full_throttle=throttle).permitted:
            return Verdict.no(f"reversing uses a template permitted in Gear 1; the {label} is not", "p.39")
        if gear is not None and gear != 1:
            return Verdict.no(f"only a vehicle in Gear 1 may reverse, not Gear {gear}", "p.39")
    elif gear is not None:
        if not manoeuvre(ts, move.template, gear, full_throttle=throttle).permitted:
            return Verdict.no(f"the {label} is not permitted in Gear {gear}", "p.17-18")
    elif not any(manoeuvre(ts, move.template, g, full_throttle=throttle).permitted
                 for g in range(1, vtype.max_gear + 1)):
        return Verdict.no(f"the {label} is not permitted in any gear of a {vtype.name} (Max Gear "
                          f"{vtype.max_gear})", "p.17-18")
    if move.slide and vtype.has_rule("Ponderous"):
        return Verdict.no(f"a {vtype.name} is Ponderous: it ignores the Slide template", "p.120")
    return Verdict.ok()


PIVOT_PAGES = {"Bike": "p.69", "Bike with Sidecar": "p.69", "Tank": "p.71"}


def pivot_legality(scenario: Scenario, vehicle_id: str, rule: str, angle_deg: float) -> Verdict:
    """Whether the vehicle may make this pivot at all, before any geometry (see :func:`pivot_outcome`)."""
    vtype = vehicle_type(scenario, vehicle_id)
    gear = given_gear(scenario, vehicle_id)
    if rule == "pivot":
        if not vtype.has_rule("Pivot"):
            return Verdict.no(f"a {vtype.name} has no Pivot rule (Bikes and Tanks do)", "p.69, p.71")
        if gear is not None and gear != 1:
            return Verdict.no(f"a Pivot is made in Gear 1, not Gear {gear}", PIVOT_PAGES.get(vtype.name, "p.69"))
    elif rule == "airwolf":
        if not vtype.has_rule("Airwolf"):
            return Verdict.no(f"a {vtype.name} has no Airwolf rule (Gyrocopters and Helicopters do)", "p.70")
        if abs(angle_deg) > 90.0:
            return Verdict.no(f"Airwolf pivots at most 90 degrees, not {abs(angle_deg):g}", "p.70")
    elif rule == "jackknife":
        if not vtype.has_rule("Articulated"):
            return Verdict.no(f"a {vtype.name} is not Articulated: it Flips, it does not Jackknife", "p.119")
    elif vtype.has_rule("Ponderous"):
        return Verdict.no(f"a {vtype.name} is Ponderous: Losing Control does not pivot it", "p.120")
    return Verdict.ok()


def swing_legality(scenario: Scenario, vehicle_id: str) -> Verdict:
    """A trailer is swung in a Jackknife (p.119): the vehicle must be Articulated."""
    vtype = vehicle_type(scenario, vehicle_id)
    if not vtype.has_rule("Articulated"):
        return Verdict.no(f"a {vtype.name} is not Articulated: it has no Jackknife to swing its trailer in",
                          "p.119")
    return Verdict.ok()


def pivot_outcome(rule: str, stopped: bool, touching_after: tuple[str, ...], page: str) -> Verdict:
    """A Pivot (p.69, p.71) may neither cause a Collision nor end touching an obstruction."""
    if rule != "pivot":
        return Verdict.ok()
    if stopped:
        return Verdict.no("the pivot would touch an obstruction before it turned that far; a Pivot cannot "
                          "cause a Collision", page)
    if touching_after:
        return Verdict.no(f"the pivot would leave the vehicle touching {', '.join(touching_after)}", page)
    return Verdict.ok()


def up_and_over_legality(scenario: Scenario, vehicle_id: str, move: Move) -> Verdict:
    """Up and Over (p.71) needs the rule; the move itself must be legal too."""
    vtype = vehicle_type(scenario, vehicle_id)
    if not vtype.has_rule("Up and Over"):
        return Verdict.no(f"a {vtype.name} has no Up and Over rule (Monster Trucks and Tanks do)", "p.71")
    return move_legality(scenario, vehicle_id, move)
