"""Ramps (p.87): where a move stops at a ramp's edge, and where the Jump or Tumble that follows lands.

A :class:`Ramp` is a simple polygon with one *entry edge*, the edge a vehicle
drives up onto it over (the rulebook has the players name it). Its edges are
numbered from 1 in the order of the polygon's points: edge ``k`` runs from
point ``k`` to point ``k + 1`` (the last one back to point 1).

A move whose vehicle comes to touch any other edge of a ramp stops there, at
the edge (:func:`ramp_stop`: the first point of its path where its footprint
comes within ``TOUCH_MM`` of such an edge; edges it already touched when the
move began do not count). The rules then roll for a Jump or a Tumble (in the
engine); the forced move that follows goes straight ahead ignoring every
obstruction and, should it end on one, backs along its path by the least
amount (:func:`simulator.geometry.movement.resolve_move` with
``ignore_obstructions``).

Reading of the rule (documented in docs/rulings.md): the vehicle's footprint
along its path decides, the template's own width is not used; a move that ends
exactly touching an exit edge stops there too; reversing off a ramp's edge
counts like driving off it, and the Jump still goes forward (p.87 says so).
Ramps are not obstructions: a vehicle may stand on one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from shapely.geometry import LineString

from simulator.geometry.movement import (
    MoveResult,
    first_touch_step,
    gates_passed,
    swept_points,
    track_distance_bound,
)
from simulator.geometry.path import Path, truncated
from simulator.geometry.pose import TOUCH_MM, Pose, footprint, half_diagonal_mm
from simulator.geometry.table import Ramp, Table, VehiclePiece

__all__ = ["Ramp", "RampStop", "ramp_stop", "stop_at_ramp"]


@dataclass(frozen=True)
class RampStop:
    """Where a move stops at a ramp's edge: the ramp, the edge touched (1-based), the path parameter and the
    pose there."""

    ramp: str
    edge: int
    u: float
    pose: Pose

    def to_json(self) -> dict[str, object]:
        """The ``ramp`` part of a ``move`` answer (docs/rulings.md)."""
        p = self.pose
        return {"ramp": self.ramp, "edge": self.edge,
                "stop": {"x_mm": round(p.x_mm, 6), "y_mm": round(p.y_mm, 6), "heading_deg": round(p.heading_deg, 6)}}


def _edge_distance(pose: Pose, v: VehiclePiece, edge: LineString) -> float:
    return float(footprint(pose, v.length_mm, v.width_mm).distance(edge))


def ramp_stop(ramps: tuple[Ramp, ...], path: Path, vehicle: VehiclePiece) -> RampStop | None:
    """The first point of ``path`` where ``vehicle``'s footprint touches an edge of a ramp other than its
    entry edge (p.87), or None. Edges the footprint touches at the path's start are left out.

    The path is walked in 1 mm steps and each step's swept hull is tested
    (:func:`~simulator.geometry.movement.first_touch_step`), then the stop is
    found within the step to 0.001 mm by bisection.
    """
    if not ramps or path.total <= 0.0:
        return None
    reach = half_diagonal_mm(vehicle.length_mm, vehicle.width_mm) + 5.0
    near = [(r, k, a, b) for r in ramps for k, a, b in r.exits() if track_distance_bound(path, a, b) <= reach]
    if not near:
        return None
    n = max(2, math.ceil(path.total))
    xs, ys, hs = path.pose_lists(n)
    pts = swept_points(np.array(xs), np.array(ys), hs, vehicle)
    steps = np.arange(n)
    start = path.start
    best: RampStop | None = None
    for ramp, k, a, b in near:
        edge = LineString([a, b])
        if _edge_distance(start, vehicle, edge) <= TOUCH_MM:
            continue
        step = first_touch_step(pts, steps, a, b)
        if step is None:
            continue
        u = _refine(path, vehicle, edge, path.total * step / n, path.total * (step + 1) / n)
        if best is None or u < best.u:
            best = RampStop(ramp.id, k, u, path.pose_at(u).normalised())
    return best


def _refine(path: Path, vehicle: VehiclePiece, edge: LineString, lo: float, hi: float) -> float:
    """The least parameter in ``lo..hi`` where the footprint touches ``edge`` (the step's hull touched it)."""
    samples = [lo + (hi - lo) * i / 20.0 for i in range(21)]
    dists = [_edge_distance(path.pose_at(u), vehicle, edge) for u in samples]
    first = next((i for i, d in enumerate(dists) if d <= TOUCH_MM), None)
    if first is None:  # a corner grazed it between samples: stop where it comes nearest
        return samples[int(np.argmin(dists))]
    if first == 0:
        return lo
    a, b = samples[first - 1], samples[first]
    for _ in range(30):
        if b - a <= 1e-4:
            break
        m = (a + b) / 2.0
        if _edge_distance(path.pose_at(m), vehicle, edge) <= TOUCH_MM:
            b = m
        else:
            a = m
    return b


def stop_at_ramp(table: Table, vehicle_id: str, result: MoveResult) -> tuple[MoveResult, RampStop | None]:
    """``result`` cut short where the vehicle first reaches an exit edge of one of ``table``'s ramps (p.87).

    The move ends there: the Final Position is the stop, nothing met after it
    counts (collisions, destructible obstacles driven through), gates count only
    up to it. Without a ramp stop the result is returned as it is.
    """
    if not table.ramps:
        return result, None
    vehicle = table.vehicle(vehicle_id)
    stop = ramp_stop(table.ramps, result.path, vehicle)
    if stop is None:
        return result, None
    path = truncated(result.path, stop.u)
    moved = vehicle.moved(stop.pose, reversing=vehicle.reversing)
    cut = replace(result, final=stop.pose, interrupted=False, ended_interrupted=False, collisions=(), removed=(),
                  gates_passed=gates_passed(table, path, vehicle), travel_mm=path.travel_mm, path=path,
                  table_after=table.with_vehicle(moved),
                  notes=(*result.notes, f"stopped at edge {stop.edge} of the ramp {stop.ramp} (p.87)"))
    return cut, stop
