"""The rulings query runner behind ``gaslands rule FILE.toml`` (RULINGS.md).

A rulings file is a scenario plus ``[[query]]`` tables; each query gives one
JSON object, in file order, always with ``id`` (the query's id, or its 1-based
index as an integer) and ``kind``. Board files (a ``[board]`` table,
BOARDS.md) are answered by :mod:`simulator.boards.rulings`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError

from simulator.errors import InputFileError, Problem
from simulator.geometry.contact import classify
from simulator.geometry.movement import resolve_move
from simulator.geometry.placement import Move
from simulator.geometry.ramps import RampStop, stop_at_ramp
from simulator.geometry.table import Table
from simulator.geometry.templates import MOVEMENT_NAMES, SHOOTING_NAMES, TemplateSet
from simulator.scenario.legality import move_legality
from simulator.scenario.loader import Scenario, load_scenario, parse_scenario, read_toml
from simulator.scenario.rule_kinds import answer_dropped, answer_pivot, answer_up_and_over

TemplateName = Literal[MOVEMENT_NAMES]  # type: ignore[valid-type]
RangeName = Literal[SHOOTING_NAMES]  # type: ignore[valid-type]


class _Query(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str | int | None = None


class MoveQuery(_Query):
    """``kind = "move"``: where a move ends and what it hits (p.22-26, p.45-54)."""

    kind: Literal["move"]
    vehicle: str
    template: TemplateName
    direction: Literal["left", "right"] | None = None
    reverse: StrictBool = False
    slide: StrictBool = False
    slide_facing: Literal["left", "right"] | None = None
    spin_deg: Annotated[float, Field(ge=-90.0, le=90.0, allow_inf_nan=False)] = 0.0
    ignore_obstructions: StrictBool = False


class ShootQuery(_Query):
    """``kind = "shoot"``: arc, range, cover and Tall (p.28-30, p.42, p.87)."""

    kind: Literal["shoot"]
    attacker: str
    target: str
    range: RangeName
    arc: Literal["front", "rear", "side", "turret"]
    indirect: StrictBool = False


class ContactQuery(_Query):
    """``kind = "contact"``: do two pieces touch, and how (p.52-54)."""

    kind: Literal["contact"]
    a: str
    b: str


class PivotQuery(_Query):
    """``kind = "pivot"``: a pivot about the centre from rest: Pivot (p.69, p.71), Airwolf (p.70) or Lose
    Control (p.35); how far it turns before contact."""

    kind: Literal["pivot"]
    vehicle: str
    rule: Literal["pivot", "airwolf", "lose_control"]
    angle_deg: Annotated[float, Field(ge=-360.0, le=360.0, allow_inf_nan=False)]


class DroppedQuery(_Query):
    """``kind = "dropped"``: a dropped weapon's template behind or beside a vehicle, and what it covers (p.78)."""

    kind: Literal["dropped"]
    vehicle: str
    template: RangeName
    edge: Literal["rear", "left", "right"] = "rear"
    offset_mm: Annotated[float, Field(ge=-1000.0, le=1000.0, allow_inf_nan=False)] = 0.0


class UpAndOverQuery(MoveQuery):
    """``kind = "up_and_over"``: a move that drives over lighter obstructions it collides with (p.71)."""

    kind: Literal["up_and_over"]  # type: ignore[assignment]
    over: Annotated[list[str], Field(max_length=1000)] | None = None


Query = MoveQuery | ShootQuery | ContactQuery | PivotQuery | DroppedQuery | UpAndOverQuery
AnyQuery = Annotated[Query, Field(discriminator="kind")]
_ADAPTER: TypeAdapter[Query] = TypeAdapter(AnyQuery)
KINDS = ("move", "shoot", "contact", "pivot", "dropped", "up_and_over")


def _label(raw: dict[str, Any], index: int) -> str | int:
    qid = raw.get("id")
    return qid if isinstance(qid, str | int) and not isinstance(qid, bool) else index


def parse_queries(scenario: Scenario) -> list[Query]:
    """Validate every ``[[query]]``; raises :class:`InputFileError` naming ``query[ID].KEY``."""
    problems: list[Problem] = []
    queries = []
    ids = {v.id for v in scenario.table.vehicles}
    pieces = ids | {o.id for o in scenario.table.all_obstacles}
    seen: set[str] = set()
    for index, raw in enumerate(scenario.spec.query, 1):
        where = f"query[{_label(raw, index)}]"
        if "id" in raw:
            if str(raw["id"]) in seen:
                problems.append(Problem(f"{where}.id", "another query already has this id"))
            seen.add(str(raw["id"]))
        try:
            q = _ADAPTER.validate_python(raw)
        except ValidationError as exc:
            for e in exc.errors():
                loc = [str(p) for p in e["loc"] if str(p) not in KINDS]
                key = loc[0] if loc else "kind"
                problems.append(Problem(f"{where}.{key}", e["msg"]))
            continue
        problems += _references(q, where, ids, pieces, scenario)
        queries.append(q)
    if problems:
        raise InputFileError(scenario.source, problems)
    return queries


def _references(q: Query, where: str, vehicles: set[str], pieces: set[str], scenario: Scenario) -> list[Problem]:
    out = []
    if isinstance(q, MoveQuery):  # and UpAndOverQuery
        if q.vehicle not in vehicles:
            out.append(Problem(f"{where}.vehicle", f"no vehicle {q.vehicle!r}"))
        shape = scenario.template_set.template(q.template).shape
        if shape != "straight" and q.direction is None:
            out.append(Problem(f"{where}.direction", f"the {q.template} needs direction = left or right (p.16)"))
        if q.slide and shape == "straight" and q.slide_facing is None:
            out.append(Problem(f"{where}.slide_facing", "a Slide off a straight needs slide_facing (p.26)"))
        for i, oid in enumerate(getattr(q, "over", None) or (), 1):
            if oid not in pieces:
                out.append(Problem(f"{where}.over[{i}]", f"no vehicle or obstacle {oid!r}"))
    elif isinstance(q, ShootQuery):
        if q.attacker not in vehicles:
            out.append(Problem(f"{where}.attacker", f"no vehicle {q.attacker!r}"))
        if q.target not in pieces:
            out.append(Problem(f"{where}.target", f"no vehicle or obstacle {q.target!r}"))
        elif q.target == q.attacker:
            out.append(Problem(f"{where}.target", "a vehicle cannot shoot at itself"))
    elif isinstance(q, PivotQuery | DroppedQuery):
        if q.vehicle not in vehicles:
            out.append(Problem(f"{where}.vehicle", f"no vehicle {q.vehicle!r}"))
    else:
        if q.a not in vehicles:
            out.append(Problem(f"{where}.a", f"no vehicle {q.a!r}"))
        if q.b not in pieces:
            out.append(Problem(f"{where}.b", f"no vehicle or obstacle {q.b!r}"))
    return out


def ramp_answer(table: Table, vehicle_id: str, stop: RampStop, ts: TemplateSet) -> dict[str, Any]:
    """The ``ramp`` key of a move answer (p.87, docs/rulings.md): where the move stopped, the roll that makes
    a Jump, and where the Jump in the vehicle's Gear and the Tumble land with what they then touch."""
    from simulator.gaslands import ramps as rules
    from simulator.geometry.contact import touches

    vehicle = table.vehicle(vehicle_id)
    out: dict[str, Any] = {**stop.to_json(), "jump_if_roll_at_most": vehicle.gear, "gear": vehicle.gear}
    for key, template in (("jump", rules.jump_template(vehicle.gear)), ("tumble", rules.TUMBLE_TEMPLATE)):
        landed = resolve_move(table, vehicle_id, Move(template), ts, ignore_obstructions=True)
        moved = landed.table_after.vehicle(vehicle_id)
        met = [v.id for v in table.vehicles if v.id != vehicle_id and touches(moved.footprint, v.footprint)]
        met += [o.id for o in table.all_obstacles if touches(moved.footprint, o.polygon)]
        f = landed.final
        out[key] = {"template": template, "final": {"x_mm": round(f.x_mm, 6), "y_mm": round(f.y_mm, 6),
                                                    "heading_deg": round(f.heading_deg, 6)},
                    "collides_with": met, "disqualified": landed.disqualified}
    out["after"] = {"jump": f"+{rules.JUMP_HAZARDS} Hazard Tokens, +{rules.JUMP_VOTES} Audience Vote",
                    "tumble": f"a {rules.TUMBLE_ATTACK_DICE}D6 attack, +{rules.TUMBLE_HAZARDS} Hazard Tokens"}
    out["page"] = "p.87"
    return out


def answer(scenario: Scenario, q: Query) -> dict[str, Any]:
    """Answer one validated query with the result keys of RULINGS.md and docs/rulings.md.

    A move answer also carries ``legal`` (and ``reason``, ``page`` when the
    rules forbid it) beside the position (:mod:`simulator.scenario.legality`).
    """
    table, ts = scenario.table, scenario.template_set
    if isinstance(q, UpAndOverQuery):
        move = Move(q.template, q.direction, q.reverse, q.slide, q.slide_facing, q.spin_deg)
        over = tuple(q.over) if q.over is not None else None
        return answer_up_and_over(scenario, q.vehicle, move, q.ignore_obstructions, over)
    if isinstance(q, MoveQuery):
        move = Move(q.template, q.direction, q.reverse, q.slide, q.slide_facing, q.spin_deg)
        result = resolve_move(table, q.vehicle, move, ts, q.ignore_obstructions)
        stop = None
        if table.ramps and not q.ignore_obstructions:
            result, stop = stop_at_ramp(table, q.vehicle, result)
        out = result.to_json()
        if stop is not None:
            out["ramp"] = ramp_answer(result.table_after, q.vehicle, stop, ts)
        out.update(move_legality(scenario, q.vehicle, move).to_json())
        return out
    if isinstance(q, ShootQuery):
        from simulator.geometry.shooting import shoot

        return shoot(table, q.attacker, q.target, q.range, q.arc, ts, indirect=q.indirect).to_json()
    if isinstance(q, PivotQuery):
        return answer_pivot(scenario, q.vehicle, q.rule, q.angle_deg)
    if isinstance(q, DroppedQuery):
        return answer_dropped(scenario, q.vehicle, q.template, q.edge, q.offset_mm)
    a = table.vehicle(q.a)
    b_vehicle = next((v for v in table.vehicles if v.id == q.b), None)
    c = classify(a, b_vehicle, table.shape_of(q.b))
    return {"touching": c.touching, "distance_mm": round(c.distance_mm, 6), "orientation": c.orientation,
            "a_edge": c.a_edge, "b_edge": c.b_edge}


def load_rulings_file(path: str | Path, template_set: str | Path | None = None) -> Scenario:
    """Read a scenario or rulings file and check its ``[[query]]`` tables as ``gaslands rule`` does
    (so a query that ``rule`` refuses is refused by ``render`` and the window's Open too).

    Raises :class:`InputFileError` naming the file, ``query[ID].KEY`` and the reason.
    """
    scenario = load_scenario(path, template_set)
    parse_queries(scenario)
    return scenario


def run_rulings_document(raw: dict[str, Any], source: str,
                         template_set: str | Path | None = None) -> list[dict[str, Any]]:
    """Answer every query of an already-parsed rulings document (Gaslands table or board).

    ``template_set``: a template-set file to use instead of the one the file names.
    """
    if "board" in raw:
        from simulator.boards.rulings import answer_board_file

        return answer_board_file(raw, source)
    scenario = parse_scenario(raw, source, template_set)
    queries = parse_queries(scenario)
    out = []
    for index, (q, raw_q) in enumerate(zip(queries, scenario.spec.query, strict=True), 1):
        result: dict[str, Any] = {"id": _label(raw_q, index), "kind": q.kind}
        result.update(answer(scenario, q))
        out.append(result)
    return out


def run_rulings(path: str | Path, template_set: str | Path | None = None) -> list[dict[str, Any]]:
    """Read a rulings file and answer its queries (with ``template_set`` instead of the file's own set,
    when given); raises :class:`InputFileError` when the file or the set is invalid."""
    path = Path(path)
    return run_rulings_document(read_toml(path), str(path), template_set)
