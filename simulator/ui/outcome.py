"""What the window draws for a move or a shot: the geometry's answers, and one drawable preview type.

:func:`preview_move` asks :func:`simulator.geometry.movement.resolve_move`
where a move ends on a free table or in the rulings mode (Interrupted
Movement, collisions, p.45-54); :func:`preview_shot` asks
:func:`simulator.geometry.shooting.shoot` what a gun sees (p.28-30).

:class:`MovePreview` is what the canvas draws for any move, whoever answered:
the geometry on a free table (:meth:`MovePreview.of_outcome`) or the game's
referee in a game (:meth:`MovePreview.of_report`, through the public
:class:`~simulator.gaslands.referee.Referee` protocol).
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from simulator.gaslands.referee import MoveReport
from simulator.geometry.movement import Collision, MoveResult, resolve_move
from simulator.geometry.path import Path
from simulator.geometry.placement import Move, PlacedMove, place
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.shooting import ShotResult, shoot
from simulator.geometry.table import Table
from simulator.geometry.templates import TemplateSet
from simulator.vocab import Arc

ARCS: dict[str, Arc] = {"front": "front", "rear": "rear", "side": "side", "turret": "turret"}
"""The arcs :func:`~simulator.geometry.shooting.shoot` knows, by name."""


@dataclass(frozen=True)
class MoveOutcome:
    """Where a move ends on a table and what happened on the way (``result``: the geometry's answer).

    ``planned``: the plain Final Position after the Spin, where the car would
    end if nothing were in the way.
    """

    vehicle_id: str
    move: Move
    result: MoveResult
    planned: Pose

    @property
    def final(self) -> Pose:
        """Where the vehicle ends (Spin included)."""
        return self.result.final

    @property
    def placed(self) -> PlacedMove:
        """The movement template as attached to the vehicle."""
        return self.result.placed

    @property
    def path(self) -> Path:
        """The path driven, Spin included."""
        return self.result.path

    @property
    def table_after(self) -> Table:
        """The table with the vehicle moved and destroyed obstacles removed."""
        return self.result.table_after

    @property
    def interrupted(self) -> bool:
        """The template or the Final Position met an obstruction (p.45)."""
        return self.result.interrupted

    @property
    def collisions(self) -> tuple[Collision, ...]:
        """Every Collision of the move (p.52-54)."""
        return self.result.collisions

    def focus_shapes(self) -> list[BaseGeometry]:
        """What a view should show to explain this move: the movement template, both end poses'
        footprints, and everything it collided with."""
        v = self.table_after.vehicle(self.vehicle_id)
        shapes: list[BaseGeometry] = [self.placed.movement_polygon, footprint(self.final, v.length_mm, v.width_mm),
                                      footprint(self.planned, v.length_mm, v.width_mm)]
        for c in self.collisions:
            try:
                shapes.append(self.table_after.shape_of(c.with_id))
            except KeyError:
                continue  # a destructible obstacle driven through is gone from the table after
        return shapes


def preview_move(table: Table, vehicle_id: str, move: Move, template_set: TemplateSet) -> MoveOutcome:
    """Resolve ``move`` for ``vehicle_id`` on ``table`` (p.22-26, p.45-54).

    Raises :class:`~simulator.geometry.placement.MoveSpecError` (missing
    direction or slide facing, Spin out of range) and ``KeyError`` (unknown
    vehicle or template).
    """
    vehicle = table.vehicle(vehicle_id)
    planned = place(template_set, vehicle.pose, vehicle.length_mm, vehicle.width_mm, move).spun_position
    return MoveOutcome(vehicle_id, move, resolve_move(table, vehicle_id, move, template_set), planned)


@dataclass(frozen=True)
class ShotOutcome:
    """A shooting ruling (``result``), or why there is none (``note``: an obstacle cannot fire a fixed arc...)."""

    result: ShotResult | None
    note: str = ""


def preview_shot(table: Table, attacker_id: str, target_id: str, range_name: str, arc: str,
                 template_set: TemplateSet, indirect: bool = False) -> ShotOutcome:
    """Ask :func:`~simulator.geometry.shooting.shoot` (p.28-30); a question it refuses comes back with the
    reason in ``note`` (``shoot`` raises ``KeyError``/``ValueError`` for those)."""
    if arc not in ARCS:
        return ShotOutcome(None, f"unknown arc {arc!r}")
    try:
        return ShotOutcome(shoot(table, attacker_id, target_id, range_name, ARCS[arc], template_set, indirect))
    except (KeyError, ValueError) as exc:
        return ShotOutcome(None, f"no ruling: {exc}")


@dataclass(frozen=True)
class MovePreview:
    """A move as the canvas draws it: the template (and Slide template), the path, where the template alone
    would end (``planned``) and where the vehicle ends (``final``), what stopped it.

    ``at_interruption``: it ends at an Interrupted Final Position (p.45-46);
    ``met``: ids of the pieces it collides with (p.52).
    """

    vehicle_id: str
    move: Move
    template_polygon: BaseGeometry
    slide_polygon: Polygon | None
    path: Path | None
    planned: Pose
    final: Pose
    interrupted: bool = False
    at_interruption: bool = False
    met: tuple[str, ...] = ()
    bend_deg: float | None = None
    """A War Rig's trailer bend at ``final`` (p.118); None: the vehicle's own (or no trailer)."""

    @property
    def stopped_short(self) -> bool:
        """The vehicle does not end where the template alone would put it."""
        return self.interrupted or self.final != self.planned

    @classmethod
    def of_outcome(cls, outcome: MoveOutcome) -> MovePreview:
        """The preview of a free-table or rulings move (the geometry's answer)."""
        placed, r = outcome.placed, outcome.result
        return cls(outcome.vehicle_id, outcome.move, placed.movement_polygon,
                   placed.slide_polygon if outcome.move.slide else None, r.path, outcome.planned, r.final,
                   r.interrupted, r.ended_interrupted, tuple(c.with_id for c in r.collisions), r.bend_deg)

    @classmethod
    def of_report(cls, vehicle_id: str, move: Move, start: Pose, length_mm: float, width_mm: float,
                  template_set: TemplateSet, report: MoveReport) -> MovePreview:
        """The preview of a move in a game: the referee's ``report`` (where it ends, its path, its contacts),
        the template drawn where it is attached at ``start``."""
        placed = place(template_set, start, length_mm, width_mm, move)
        return cls(vehicle_id, move, placed.movement_polygon, placed.slide_polygon if move.slide else None,
                   report.path or placed.path, placed.spun_position, report.pose, report.interrupted,
                   report.interrupted, tuple(c.other_id for c in report.contacts), report.bend_deg)
