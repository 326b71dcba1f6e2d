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
from simulator.geometry.table import Table, VehiclePiece
from simulator.geometry.templates import MOVEMENT_NAMES, SHOOTING_NAMES, TemplateSet
from simulator.scenario.legality import move_legality
from simulator.scenario.loader import Scenario, load_scenario, parse_scenario, read_toml
from simulator.scenario.rule_kinds import answer_dropped, answer_pivot, answer_swing, answer_up_and_over

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
    """``kind = "pivot"``: a pivot about the centre from rest: Pivot (p.69, p.71), Airwolf (p.70), Lose
    Control (p.35) or a Jackknife's pivot (p.119); how far it turns before contact."""

    kind: Literal["pivot"]
    vehicle: str
    rule: Literal["pivot", "airwolf", "lose_control", "jackknife"]
    angle_deg: Annotated[float, Field(ge=-360.0, le=360.0, allow_inf_nan=False)]


class SwingQuery(_Query):
    """``kind = "swing_trailer"``: a Jackknife's Swing Trailer (p.119): the trailer turned about the hitch to
    ``bend_deg`` (its heading minus the cab's), stopping at first contact."""

    kind: Literal["swing_trailer"]
    vehicle: str
    bend_deg: Annotated[float, Field(ge=-180.0, le=180.0, allow_inf_nan=False)]


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


Query = MoveQuery | ShootQuery | ContactQuery | PivotQuery | DroppedQuery | UpAndOverQuery | SwingQuery
AnyQuery = Annotated[Query, Field(discriminator="kind")]
_ADAPTER: TypeAdapter[Query] = TypeAdapter(AnyQuery)
KINDS = ("move", "shoot", "contact", "pivot", "dropped", "up_and_over", "swing_trailer")


def _label(raw: dict[str, Any], index: int) -> str | int:
    qid = raw.get("id")
    return qid if isinstance(qid, str | int) and not isinstance(qid, bool) else index


def parse_queries(scenario: Scenario) -> list[Query]:
    """Validate every ``[[query]]``; raises :class:`InputFileError` naming ``query[ID].KEY``."""
    problems: list[Problem] = []
    queries = []
    ids = {v.id for v in scenario.table.vehicles}
    pieces = {v.id for v in scenario.table.pieces} | {o.id for o in scenario.table.all_obstacles}
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
        table = scenario.table
        if q.attacker not in {v.id for v in table.pieces}:
            out.append(Problem(f"{where}.attacker", f"no vehicle {q.attacker!r}"))
        if q.target not in pieces:
            out.append(Problem(f"{where}.target", f"no vehicle or obstacle {q.target!r}"))
        elif q.attacker in pieces and _whole(table, q.target) == _whole(table, q.attacker):
            out.append(Problem(f"{where}.target", "a vehicle cannot shoot at itself"))
    elif isinstance(q, PivotQuery | DroppedQuery | SwingQuery):
        if q.vehicle not in vehicles:
            out.append(Problem(f"{where}.vehicle", f"no vehicle {q.vehicle!r}"))
    else:
        if q.a not in {v.id for v in scenario.table.pieces}:
            out.append(Problem(f"{where}.a", f"no vehicle {q.a!r}"))
        if q.b not in pieces:
            out.append(Problem(f"{where}.b", f"no vehicle or obstacle {q.b!r}"))
    return out


def _whole(table: Table, piece_id: str) -> str:
    """The vehicle a piece belongs to (``VEHICLE.trailer`` is part of ``VEHICLE``), else the id."""
    try:
        return table.piece(piece_id).owner
    except KeyError:
        return piece_id


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
        met = [v.id for v in table.vehicles if v.id != vehicle_id and touches(moved.outline, v.outline)]
        met += [o.id for o in table.all_obstacles if touches(moved.outline, o.polygon)]
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
    if isinstance(q, SwingQuery):
        return answer_swing(scenario, q.vehicle, q.bend_deg)
    return answer_contact(table, q.a, q.b)


def answer_contact(table: Table, a_id: str, b_id: str) -> dict[str, Any]:
    """Do ``a_id`` and ``b_id`` touch, and how (p.52-54)? Either may be an articulated vehicle (each of its
    pieces is tried, cab first, GEOMETRY.md 8) or one piece of it (``VEHICLE.trailer``); the touching pieces
    are then named (``a_piece``, ``b_piece``)."""
    a_pieces = table.piece(a_id).pieces if a_id in {v.id for v in table.vehicles} else (table.piece(a_id),)
    b_pieces: tuple[VehiclePiece | None, ...] = (None,)
    if b_id in {v.id for v in table.pieces}:
        b_pieces = table.piece(b_id).pieces if b_id in {v.id for v in table.vehicles} else (table.piece(b_id),)
    best = None
    for a in a_pieces:
        for b in b_pieces:
            c = classify(a, b, table.shape_of(b_id) if b is None else b.footprint)
            if best is None or (c.touching and not best[0].touching) or \
                    (not best[0].touching and c.distance_mm < best[0].distance_mm):
                best = (c, a, b)
    assert best is not None
    c, a, b = best
    out: dict[str, Any] = {"touching": c.touching, "distance_mm": round(c.distance_mm, 6),
                           "orientation": c.orientation, "a_edge": c.a_edge, "b_edge": c.b_edge}
    for key, piece in (("a_piece", a), ("b_piece", b)):
        if piece is not None and (piece.part_of or piece.has_trailer):
            out[key] = "trailer" if piece.part_of else "cab"
    return out


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
