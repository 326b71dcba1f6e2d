"""A table anyone may change: what the free table and the rulings mode work on.

A :class:`Sandbox` is the table value (poses, gears, obstacles), the
dashboard values the window keeps for it (Hull Points, Hazard Tokens), the undo
stack of earlier tables, the selected car and the template attached to it. The
free table and the rulings mode opened from it share one sandbox, so a piece
moved in one is moved in the other; a game or a replay hands out a fresh one
built from its current state (:func:`sandbox_of_game`), so nothing done there
touches the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from simulator.gaslands.state import GameState, Status
from simulator.gaslands.table_referee import wreck_obstacle
from simulator.gaslands.tables import load_vehicle_types
from simulator.geometry.table import Table
from simulator.scenario.loader import Scenario
from simulator.ui.pending import Pending


@dataclass
class VehicleStatus:
    """Dashboard values for a vehicle: Hazard Tokens, Hull Points left of ``hull_max``, a note."""

    hazards: int
    hull: int
    hull_max: int
    note: str = ""


@dataclass
class Sandbox:
    """A table to change freely, with its dashboards and undo stack (see the module docstring)."""

    scenario: Scenario
    table: Table
    statuses: dict[str, VehicleStatus]
    undo_stack: list[Table] = field(default_factory=list)
    selected: str | None = None
    pending: Pending | None = None
    origin: str = ""
    """Where the table came from, for the status line ("the game's round 3"); empty for the scenario file."""

    @classmethod
    def of_scenario(cls, scenario: Scenario) -> Sandbox:
        """The scenario's table as the file sets it up (hull from the vehicle type or the file, p.66)."""
        types = load_vehicle_types()
        statuses = {}
        for v in scenario.table.vehicles:
            vtype = types.get(v.type)
            hull_max, hazards = (vtype.hull if vtype else 1), 0
            try:
                spec = scenario.vehicle_spec(v.id)
                hull_max, hazards = spec.hull or hull_max, spec.hazard_tokens
            except KeyError:
                pass  # a vehicle on the table the file does not list: defaults
            statuses[v.id] = VehicleStatus(hazards, hull_max, hull_max)
        return cls(scenario, scenario.table, statuses)

    def commit(self, table: Table) -> None:
        """Make ``table`` the present one; the old one goes on the undo stack."""
        self.undo_stack.append(self.table)
        self.table = table

    def vehicle_ids(self) -> frozenset[str]:
        """The vehicles on the table."""
        return frozenset(v.id for v in self.table.vehicles)


def sandbox_of_game(scenario: Scenario, state: GameState, origin: str) -> Sandbox:
    """A sandbox holding a game's table as it stands (p.43-44, p.49, p.87): vehicles in play at their poses and
    gears with their Hull Points and Hazard Tokens, wrecks as destructible obstacles of their weight, removed
    obstacles and vehicles gone. The gates and lines of the scenario stay."""
    base = scenario.table
    pieces, statuses = [], {}
    for piece in base.vehicles:
        try:
            v = state.vehicle(piece.id)
        except KeyError:
            continue
        if not v.in_play:
            continue
        pieces.append(replace(piece, pose=v.pose, gear=v.gear, reversing=v.reversing))
        statuses[v.id] = VehicleStatus(v.hazards, v.hull_points, v.hull)
    wrecks = tuple(replace(wreck_obstacle(v), label=f"wreck of {v.label}") for v in state.vehicles
                   if v.status is Status.WRECK and v.id not in state.removed_obstacles)
    kept = tuple(o for o in base.obstacles if o.id not in state.removed_obstacles)
    table = replace(base, vehicles=tuple(pieces), obstacles=kept + wrecks)
    return Sandbox(scenario, table, statuses, origin=origin)
