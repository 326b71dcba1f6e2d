"""The answers of the rulings query kinds beyond move, shoot and contact (docs/rulings.md).

- :func:`answer_pivot`: a pivot about the centre from rest (Pivot p.69/p.71,
  Airwolf p.70, Lose Control p.35): how far it turns before it touches
  something, what it collides with, whether the rules allow it.
- :func:`answer_dropped`: a dropped weapon's template against a vehicle's rear
  or side edge (p.78): where it lies and which vehicles it overlaps or touches.
- :func:`answer_up_and_over`: a move by a vehicle with Up and Over (p.71) that
  drives over each lighter obstruction it collides with and goes on.
- :func:`answer_swing`: a Jackknife's Swing Trailer (p.119): where an
  articulated vehicle's trailer stops swinging about the hitch, and what it hits.

Each answer is a JSON-ready dict carrying ``legal`` (and ``reason``, ``page``
when not) beside the position keys (:mod:`simulator.scenario.legality`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shapely.geometry.base import BaseGeometry

from simulator.geometry.contact import overlaps, touches
from simulator.geometry.dropped import drop_pose, dropped_polygon, max_offset_mm
from simulator.geometry.movement import (
    MoveResult,
    obstructions_for,
    resolve_move,
    resolve_pivot,
    swing_trailer,
)
from simulator.geometry.path import truncated
from simulator.geometry.placement import Move
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.table import Table, VehiclePiece
from simulator.scenario.legality import (
    PIVOT_PAGES,
    Verdict,
    pivot_legality,
    pivot_outcome,
    swing_legality,
    up_and_over_legality,
    vehicle_type,
)
from simulator.scenario.loader import Scenario

WEIGHTS = {"lightweight": 0, "middleweight": 1, "heavyweight": 2}
"""Weight classes in order (p.53)."""


def pose_json(pose: Pose) -> dict[str, float]:
    """``{"x_mm", "y_mm", "heading_deg"}`` rounded to 1e-6."""
    p = pose.normalised()
    return {"x_mm": round(p.x_mm, 6), "y_mm": round(p.y_mm, 6), "heading_deg": round(p.heading_deg, 6)}


# --------------------------------------------------------------------------- pivot


def answer_pivot(scenario: Scenario, vehicle_id: str, rule: str, angle_deg: float) -> dict[str, Any]:
    """A pivot of ``angle_deg`` (counter-clockwise positive) about the vehicle's centre, from rest.

    It stops at the first contact with an obstruction it did not start touching
    and never turns into one it started touching (GEOMETRY.md 4.7); an airborne
    vehicle is stopped only by Tall obstructions and has no Collision (p.70).
    ``rule``: ``pivot`` (Bike p.69, Tank p.71: Gear 1, no Collision, not left
    touching), ``airwolf`` (p.70: at most 90 degrees, 2 Hazard Tokens) or
    ``lose_control`` (p.35: any facing; collisions are reported).
    """
    table = scenario.table
    result = resolve_pivot(table, vehicle_id, angle_deg)
    mover = result.table_after.vehicle(vehicle_id)
    touching_after = tuple(dict.fromkeys(o.owner for o in obstructions_for(result.table_after, mover)
                                         if any(touches(p.footprint, o.shape) for p in mover.pieces)))
    verdict = pivot_legality(scenario, vehicle_id, rule, angle_deg)
    if verdict.legal:
        page = PIVOT_PAGES.get(vehicle_type(scenario, vehicle_id).name, "p.69")
        verdict = pivot_outcome(rule, result.stopped, touching_after, page)
    collisions = [] if rule == "pivot" else [c.to_json() for c in result.collisions]
    extra: dict[str, Any] = {}
    if mover.trailer is not None:
        extra["trailer"] = {**pose_json(mover.trailer.pose), "bend_deg": round(mover.bend_deg, 6) + 0.0}
    return {"final": pose_json(result.final), **extra, "turned_deg": round(result.turned_deg, 6),
            "stopped": result.stopped, "touching": list(touching_after), "collisions": collisions,
            "removed": list(result.removed), "hazard_tokens": 2 if rule == "airwolf" else 0, **verdict.to_json()}


# --------------------------------------------------------------------------- Swing Trailer


def answer_swing(scenario: Scenario, vehicle_id: str, bend_deg: float) -> dict[str, Any]:
    """A Jackknife's Swing Trailer (p.119; GEOMETRY.md 8): the trailer turned about the hitch, the shorter way,
    to ``bend_deg`` (its heading minus the cab's, held within 90 degrees), stopping at the first contact; what
    it then touches it collides with (the Collision Window)."""
    table = scenario.table
    if table.vehicle(vehicle_id).trailer is None:
        return {"legal": False, "reason": f"{vehicle_id!r} has no trailer", "page": "p.118"}
    result = swing_trailer(table, vehicle_id, bend_deg)
    after = result.table_after.vehicle(vehicle_id)
    assert after.trailer is not None
    return {"trailer": pose_json(after.trailer.pose), "bend_deg": round(result.bend_deg, 6) + 0.0,
            "turned_deg": round(result.turned_deg, 6) + 0.0, "stopped": result.stopped,
            "collisions": [c.to_json() for c in result.collisions], "removed": list(result.removed),
            **swing_legality(scenario, vehicle_id).to_json()}


# --------------------------------------------------------------------------- dropped weapons


def answer_dropped(scenario: Scenario, vehicle_id: str, range_name: str, edge: str, offset_mm: float
                   ) -> dict[str, Any]:
    """A dropped weapon's template (``range_name``: a shooting template, p.27) placed against the rear or a
    side ``edge`` of ``vehicle_id``, slid ``offset_mm`` along it (p.78; :mod:`simulator.geometry.dropped`).

    ``overlaps``: the vehicles it overlaps (they are affected in the next Collision Window);
    ``touches``: those it touches or overlaps (a Smoke Dropper's test, p.80); ``obstacles``: obstacles
    under it. The dropping vehicle never counts (p.78), nor do airborne vehicles, which ignore
    dropped weapons (p.70).
    """
    table = scenario.table
    v = table.vehicle(vehicle_id)
    if v.trailer is not None and edge == "rear":  # the rig's rear edge is the trailer's (p.118)
        v = v.trailer
    template = scenario.template_set.shooting[range_name]
    limit = max_offset_mm(v.length_mm, v.width_mm, edge, template.near_width_mm)  # type: ignore[arg-type]
    verdict = Verdict.ok()
    if abs(offset_mm) > limit + 1e-9:
        verdict = Verdict.no(f"the template must touch the {edge} edge: |offset_mm| at most {limit:g}", "p.78")
    at = drop_pose(v.pose, v.length_mm, v.width_mm, edge, offset_mm)  # type: ignore[arg-type]
    poly = dropped_polygon(template, at)
    others = [w for w in table.pieces if w.owner != vehicle_id and not w.airborne]
    return {"placement": pose_json(at),
            "overlaps": list(dict.fromkeys(w.owner for w in others if overlaps(poly, w.footprint))),
            "touches": list(dict.fromkeys(w.owner for w in others if touches(poly, w.footprint))),
            "obstacles": [o.id for o in table.all_obstacles if overlaps(poly, o.polygon)],
            **verdict.to_json()}


# --------------------------------------------------------------------------- Up and Over


def _weight_of(table: Table, piece_id: str) -> tuple[int, bool]:
    """(weight class order, has Up and Over) of a vehicle or obstacle."""
    for v in table.vehicles:
        if v.id == piece_id:
            from simulator.gaslands.tables import load_vehicle_types

            return WEIGHTS[v.weight], load_vehicle_types()[v.type].has_rule("Up and Over")
    return WEIGHTS[table.obstacle(piece_id).weight], False


def _without(table: Table, ids: set[str]) -> Table:
    return replace(table, vehicles=tuple(v for v in table.vehicles if v.id not in ids),
                   obstacles=tuple(o for o in table.obstacles if o.id not in ids))


def _clear_of(result: MoveResult, piece: VehiclePiece, shapes: list[BaseGeometry]) -> tuple[Pose, float, bool]:
    """The last pose along the path that overlaps none of ``shapes`` (the pieces driven over): a Final
    Position on top of one goes back along the path by the least amount (as the game does, p.71)."""

    def clear(u: float) -> bool:
        fp = footprint(result.path.pose_at(u), piece.length_mm, piece.width_mm)
        return not any(overlaps(fp, s) for s in shapes)

    hi = result.path.total
    if clear(hi):
        return result.final, result.travel_mm, False
    lo = max(0.0, hi - 1.0)
    while lo > 0.0 and not clear(lo):
        hi, lo = lo, max(0.0, lo - 1.0)
    while hi - lo > 1e-4:
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if clear(mid) else (lo, mid)
    return result.path.pose_at(lo).normalised(), truncated(result.path, lo).travel_mm, True


def answer_up_and_over(scenario: Scenario, vehicle_id: str, move: Move, ignore_obstructions: bool,
                       declared: tuple[str, ...] | None) -> dict[str, Any]:
    """A move of a vehicle with Up and Over (p.71): after each Collision with an obstruction of a lower
    weight class (not a vehicle with Up and Over, not a gate post) it declares Up and Over, and the move
    is made again from the start with those obstructions ignored, until it ends or meets something it
    cannot drive over. ``declared``: the ids the player goes over (None: every one it may).

    The result has the keys of a move, each collision reported once, plus ``up_and_over``: the ids
    driven over, in order.
    """
    table, ts = scenario.table, scenario.template_set
    mover = table.vehicle(vehicle_id)
    own, _ = _weight_of(table, vehicle_id)
    result = resolve_move(table, vehicle_id, move, ts, ignore_obstructions)
    ignored = list(result.ignored)
    collisions = list(result.collisions)
    removed = list(result.removed)
    interrupted = result.interrupted
    over: list[str] = []
    posts = {p.id for g in table.gates for p in g.posts()}
    verdict = up_and_over_legality(scenario, vehicle_id, move)
    while verdict.legal:
        eligible = []
        for c in result.collisions:
            if c.with_id in over or c.with_id in posts or c.with_id in removed:
                continue
            weight, rides = _weight_of(table, c.with_id)
            if weight < own and not rides and (declared is None or c.with_id in declared):
                eligible.append(c.with_id)
        if not eligible:
            break
        over += eligible
        result = resolve_move(_without(table, set(over) | set(removed)), vehicle_id, move, ts, ignore_obstructions)
        seen = {c.with_id for c in collisions}
        collisions += [c for c in result.collisions if c.with_id not in seen]
        removed += [r for r in result.removed if r not in removed]
        interrupted = interrupted or result.interrupted
    final, travel = result.final, result.travel_mm
    if over:
        shapes = [table.shape_of(i) for i in over]
        final, travel, moved_back = _clear_of(result, mover, shapes)
        interrupted = interrupted or moved_back
    answer = result.to_json()
    answer.update({"final": pose_json(final), "interrupted": interrupted, "ignored": ignored,
                   "collisions": [c.to_json() for c in collisions], "removed": removed,
                   "travel_mm": round(travel, 6), "up_and_over": over})
    answer.update(verdict.to_json())
    return answer
