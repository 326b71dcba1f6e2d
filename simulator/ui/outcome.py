"""Asking the geometry engine where a move ends and what a gun sees, for the window.

:func:`preview_move` uses ``simulator.geometry.movement.resolve_move`` when that
module exists (Interrupted Movement, collisions, p.45-54) and falls back to
plain placement (:func:`simulator.geometry.placement.place`, p.22-26)
otherwise, so the window works at every stage of the engine. :func:`preview_shot`
likewise wraps ``simulator.geometry.shooting.shoot`` (p.28-30) when present.
Both return values the drawing code can use without knowing which engine
answered.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from simulator.geometry.path import Path
from simulator.geometry.placement import Move, MoveSpecError, PlacedMove, place
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.table import Table
from simulator.geometry.templates import TemplateSet


@dataclass(frozen=True)
class MoveOutcome:
    """Where a move ends and what happened on the way.

    ``final``: the pose the vehicle ends in (Spin included). ``planned``: the
    plain Final Position after the Spin, where the car would end if nothing was
    in the way. ``resolved``: True when ``resolve_move`` answered (collisions
    and interruption are then meaningful). ``result``: the raw ``MoveResult``.
    """

    vehicle_id: str
    move: Move
    placed: PlacedMove
    final: Pose
    planned: Pose
    path: Path
    table_after: Table
    interrupted: bool = False
    collisions: tuple[Any, ...] = ()
    resolved: bool = False
    result: Any = None
    note: str = ""

    def focus_shapes(self) -> list[Any]:
        """What a view should show to explain this move: the movement template, both end poses'
        footprints, and everything it collided with."""
        v = self.table_after.vehicle(self.vehicle_id)
        shapes: list[Any] = [self.placed.movement_polygon, footprint(self.final, v.length_mm, v.width_mm),
                             footprint(self.planned, v.length_mm, v.width_mm)]
        for c in self.collisions:
            try:
                shapes.append(self.table_after.shape_of(c.with_id))
            except KeyError:
                pass
        return shapes


@dataclass(frozen=True)
class ShotOutcome:
    """A shooting ruling, or why there is none (``available`` False: the engine is missing)."""

    available: bool
    result: Any = None
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _engine(module: str, name: str) -> Any:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    return getattr(mod, name, None)


def resolve_available() -> bool:
    """True when ``simulator.geometry.movement.resolve_move`` can be imported."""
    return _engine("simulator.geometry.movement", "resolve_move") is not None


def preview_move(table: Table, vehicle_id: str, move: Move, template_set: TemplateSet) -> MoveOutcome:
    """Resolve ``move`` for ``vehicle_id`` on ``table`` (engine when present, placement otherwise).

    Raises :class:`MoveSpecError` (missing direction or slide facing, Spin out
    of range) and ``KeyError`` (unknown vehicle or template).
    """
    vehicle = table.vehicle(vehicle_id)
    placed = place(template_set, vehicle.pose, vehicle.length_mm, vehicle.width_mm, move)
    planned = placed.spun_position
    resolve = _engine("simulator.geometry.movement", "resolve_move")
    note = ""
    if resolve is not None:
        try:
            r = resolve(table, vehicle_id, move, template_set)
        except MoveSpecError:
            raise
        except Exception as exc:  # the engine is being written; keep the window usable  # noqa: BLE001
            note = f"resolve_move failed ({type(exc).__name__}: {exc}); showing the plain Final Position"
        else:
            return MoveOutcome(vehicle_id, move, r.placed, r.final, planned, r.path, r.table_after,
                               bool(r.interrupted), tuple(r.collisions), True, r)
    moved = vehicle.moved(planned, reversing=move.reverse)
    return MoveOutcome(vehicle_id, move, placed, planned, planned, placed.path, table.with_vehicle(moved),
                       note=note)


def preview_shot(table: Table, attacker_id: str, target_id: str, range_name: str, arc: str,
                 template_set: TemplateSet, indirect: bool = False) -> ShotOutcome:
    """Ask ``simulator.geometry.shooting.shoot`` (p.28-30); ``available`` False when it is missing."""
    shoot = _engine("simulator.geometry.shooting", "shoot")
    if shoot is None:
        return ShotOutcome(False, note="the shooting engine (geometry/shooting.py) is not available yet")
    try:
        result = shoot(table, attacker_id, target_id, range_name, arc, template_set, indirect=indirect)
    except Exception as exc:  # noqa: BLE001  (shown to the player, not hidden)
        return ShotOutcome(False, note=f"shoot failed: {type(exc).__name__}: {exc}")
    return ShotOutcome(True, result)
