"""Race scenarios as rules: the Street Race (p.61-62) and the Death Race (p.124-128).

A :class:`Course` says what a race needs from the rules engine: the gates in
the order they must be passed, whether weapons wait for Gate 1 and whether Pole
Position passes at gates. The geometry reports which gate lines a vehicle
touched while travelling in their direction (``MoveReport.gates``); this
module decides which of them count:

- a vehicle passes a gate only after the previous one (p.127), and every
  vehicle counts as having passed the Starting Line when the game begins
  (Green Light, Go!, p.127), so the first gate to pass is Gate 1;
- the Finish Line is the last gate of the course (for a loop, the Starting
  Line gate again, numbered last), passable only after all the others (p.128);
- Street Race: the first vehicle across the Finish Line wins (p.62).

>>> course = Course("death_race", gates=("g1", "g2", "finish"))
>>> advance(0, ("g2", "g1", "g2"), course)
(2, ('g1', 'g2'))
>>> finished(3, course), finished(2, course)
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from simulator.gaslands.state import GameState, VehicleState
from simulator.geometry.pose import footprint
from simulator.geometry.table import Table

RaceKind = Literal["street_race", "death_race", "sandbox"]


@dataclass(frozen=True)
class Course:
    """The race rules of a scenario.

    ``gates``: gate ids in the order they must be passed; the last one is the
    Finish Line (Death Race). ``weapons_from_gate``: weapons stay inactive until
    this many gates are passed (1 in a Death Race, p.127). ``pole_at_gates``:
    the player in Pole Position hands it on when one of their vehicles passes
    a gate (p.125).
    """

    kind: RaceKind = "street_race"
    gates: tuple[str, ...] = ()
    weapons_from_gate: int = 0
    pole_at_gates: bool = False

    @property
    def death_race(self) -> bool:
        """Whether the finish is the last gate of a gate sequence."""
        return self.kind == "death_race" and bool(self.gates)

    def next_gate(self, passed: int) -> str | None:
        """The id of the next gate for a vehicle that has passed ``passed`` gates, or None at the end."""
        return self.gates[passed] if passed < len(self.gates) else None


def advance(passed: int, touched: Sequence[str], course: Course) -> tuple[int, tuple[str, ...]]:
    """Gates passed in order (p.127): the new count and the gates newly passed.

    ``touched`` are the gate ids the vehicle touched in their direction, in
    the order touched; a gate counts only when it is the next one.
    """
    newly: list[str] = []
    for gate_id in touched:
        if course.next_gate(passed) == gate_id:
            passed += 1
            newly.append(gate_id)
    return passed, tuple(newly)


def finished(passed: int, course: Course) -> bool:
    """Whether a vehicle that has passed ``passed`` gates has passed the Finish Line (p.128)."""
    return course.death_race and passed >= len(course.gates)


def weapons_active(vehicle: VehicleState, course: Course) -> bool:
    """Weapons are inactive until the vehicle has passed Gate 1 in a Death Race (p.127)."""
    return vehicle.gates_passed >= course.weapons_from_gate


def standings(state: GameState, table: Table, course: Course) -> tuple[str, ...]:
    """Vehicle ids from first to last, frozen when the winner crossed the finish (Runners Up, p.128).

    Vehicles in play that passed more gates come first; among equals the one
    nearest the line of its next gate (the Finish Line at the end). Wrecked,
    removed and disqualified vehicles follow in their file order.
    """
    gates = {g.id: g for g in table.gates}
    finish_lines = [line for line in table.lines if line.kind == "finish"]

    def distance(v: VehicleState) -> float:
        shape = footprint(v.pose, v.length_mm, v.width_mm)
        gate_id = course.next_gate(v.gates_passed)
        if gate_id is not None and gate_id in gates:
            return float(shape.distance(gates[gate_id].line))
        if not course.death_race and finish_lines:
            return float(shape.distance(finish_lines[0].segment))
        return 0.0 if course.death_race else math.inf

    racing = [v for v in state.vehicles if v.in_play]
    winner_first = sorted(racing, key=lambda v: (-v.gates_passed, distance(v)))
    out = [v.id for v in winner_first]
    out += [v.id for v in state.vehicles if not v.in_play]
    return tuple(out)
