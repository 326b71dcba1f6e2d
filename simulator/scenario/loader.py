"""Reading scenario and rulings files into a :class:`Scenario` value.

TOML is read with ``tomllib`` and validated with pydantic
(:mod:`simulator.scenario.schema`); then the table is checked as a whole:
unique ids, known vehicle types and weapons, simple polygons, pieces within
one table size of the table, and no vehicle overlapping another vehicle or an
obstacle at the start (an airborne vehicle may start over anything but a Tall
obstacle, p.70). Every problem is reported at once as an
:class:`~simulator.errors.InputFileError` naming the file, the table and key,
and the reason (RULINGS.md, Errors).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from shapely.geometry import Polygon
from shapely.validation import explain_validity

from simulator import safe_read
from simulator.errors import InputFileError, Problem, readable_reason
from simulator.gaslands.tables import VehicleType, load_vehicle_types, load_weapons
from simulator.gaslands.teams import Team
from simulator.geometry.contact import overlaps
from simulator.geometry.pose import Pose
from simulator.geometry.table import Gate, Line, Obstacle, Ramp, Surface, Table, VehiclePiece
from simulator.geometry.templates import (
    TemplateSet,
    circle_polygon,
    load_template_set,
    template_set_from_document,
)
from simulator.scenario.schema import ObstacleSpec, ScenarioFile, SurfaceSpec, VehicleSpec

DEFAULT_SCENARIO = "street_race.toml"


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: the table plus what play needs (players, vehicle extras, queries)."""

    source: str
    spec: ScenarioFile
    table: Table
    template_set: TemplateSet
    raw: dict[str, Any] = field(default_factory=dict)
    teams: dict[str, Team] = field(default_factory=dict)
    """The players' teams (``[[player]] team``), by player id."""

    @property
    def name(self) -> str:
        """The scenario's name (the file's name when ``[scenario]`` gives none)."""
        if self.spec.scenario.name == "Untitled" and self.source not in ("", "<string>"):
            return Path(self.source).stem
        return self.spec.scenario.name

    def vehicle_spec(self, vehicle_id: str) -> VehicleSpec:
        """The file's entry for ``vehicle_id``."""
        for v in self.spec.vehicle:
            if v.id == vehicle_id:
                return v
        raise KeyError(vehicle_id)

    def player_colour(self, player_id: str | None) -> str:
        """The player's colour, grey when there is no such player."""
        for p in self.spec.player:
            if p.id == player_id:
                return p.colour
        return "#888888"


def bundled_scenario(name: str = DEFAULT_SCENARIO) -> Path:
    """Path of a scenario shipped with the package (the repository's ``scenarios/`` folder)."""
    return Path(str(files("simulator.bundled_scenarios") / name))


def _where(loc: tuple[int | str, ...], raw: dict[str, Any]) -> str:
    """``vehicle[2].heading_deg`` from a pydantic location (1-based; queries by their ``id``)."""
    out = ""
    for i, part in enumerate(loc):
        if isinstance(part, int):
            table = loc[i - 1] if i else ""
            queries = raw.get("query") if table == "query" else None
            item = queries[part] if isinstance(queries, list) and 0 <= part < len(queries) else None
            label = item.get("id") if isinstance(item, dict) else None
            if isinstance(label, str | int) and not isinstance(label, bool) and len(str(label)) <= 64:
                out += f"[{label}]"
            else:
                out += f"[{part + 1}]"
        else:
            out += ("." if out else "") + str(part)[:64]
    return out or "(file)"


def validation_problems(error: ValidationError, raw: dict[str, Any]) -> list[Problem]:
    """Turn a pydantic error into problems whose ``where`` reads ``vehicle[2].heading_deg``."""
    problems = []
    for e in error.errors():
        loc = tuple(p for p in e["loc"] if not (isinstance(p, str) and p.startswith("function-after")))
        problems.append(Problem(_where(loc, raw), readable_reason(e["msg"])))
    return problems


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML file; a missing, oversized, non-UTF-8, too deeply nested or malformed file becomes
    :class:`InputFileError` (:mod:`simulator.safe_read`)."""
    return safe_read.read_toml(path)


def _shape(spec: ObstacleSpec | SurfaceSpec) -> Polygon:
    if spec.circle is not None:
        return circle_polygon(*spec.circle)
    assert spec.polygon is not None
    return Polygon(spec.polygon)


def _vehicle(spec: VehicleSpec, vtype: VehicleType) -> VehiclePiece:
    """The vehicle of a ``[[vehicle]]`` table; a War Rig (or any vehicle given a trailer's size) with its
    trailer hitched at ``bend_deg`` (GEOMETRY.md 8)."""
    trailer_length = spec.trailer_length_mm or vtype.trailer_length_mm or 0.0
    trailer_width = spec.trailer_width_mm or vtype.trailer_width_mm or 0.0
    if not (trailer_length and trailer_width):
        trailer_length = trailer_width = 0.0
    return VehiclePiece(
        id=spec.id, type=spec.type, pose=Pose(spec.x_mm, spec.y_mm, spec.heading_deg).normalised(),
        length_mm=spec.length_mm or vtype.length_mm, width_mm=spec.width_mm or vtype.width_mm,
        weight=vtype.weight_name, gear=spec.gear, reversing=spec.reversing, airborne=vtype.airborne,
        player=spec.player, trailer_length_mm=trailer_length, trailer_width_mm=trailer_width,
        bend_deg=spec.bend_deg if trailer_length else 0.0,
    )


def _check_polygon(where: str, poly: Polygon, problems: list[Problem]) -> None:
    if not poly.is_valid or not poly.exterior.is_simple or poly.area <= 0:
        problems.append(Problem(where, f"the polygon is not simple ({explain_validity(poly)})"))


def _near_table(where: str, bounds: tuple[float, float, float, float], spec: ScenarioFile,
                problems: list[Problem]) -> None:
    """A piece may overhang the table, but not lie more than one table size beyond it (so the
    geometry and the drawing stay within a few table sizes of the table)."""
    w, h = spec.table.width_mm, spec.table.height_mm
    x0, y0, x1, y1 = bounds
    if x0 < -w or x1 > 2.0 * w or y0 < -h or y1 > 2.0 * h:
        problems.append(Problem(where, f"lies more than one table size off the {w:g} x {h:g} mm table "
                                       f"(x from {-w:g} to {2 * w:g}, y from {-h:g} to {2 * h:g})"))


def build_table(spec: ScenarioFile, source: str) -> tuple[Table, list[Problem]]:
    """Build the :class:`Table` and collect every problem of the file's contents."""
    problems: list[Problem] = []
    types = load_vehicle_types()
    weapons = load_weapons()
    seen: dict[str, str] = {}

    def claim(piece_id: str, where: str) -> None:
        if piece_id in seen:
            problems.append(Problem(where, f"id {piece_id!r} is already used by {seen[piece_id]}"))
        seen.setdefault(piece_id, where)

    players = {p.id for p in spec.player}
    vehicles: list[VehiclePiece] = []
    for i, v in enumerate(spec.vehicle, 1):
        where = f"vehicle[{i}]"
        claim(v.id, where)
        if v.type not in types:
            problems.append(Problem(f"{where}.type", f"unknown vehicle type {v.type!r}; known: {', '.join(types)}"))
            continue
        if players and v.player is not None and v.player not in players:
            problems.append(Problem(f"{where}.player", f"no [[player]] with id {v.player!r}"))
        for j, w in enumerate(v.weapons, 1):
            if w.type not in weapons:
                problems.append(Problem(f"{where}.weapons[{j}].type", f"unknown weapon {w.type!r}"))
        if v.bend_deg and not (v.trailer_length_mm or types[v.type].trailer_length_mm):
            problems.append(Problem(f"{where}.bend_deg", f"a {types[v.type].name} has no trailer to bend "
                                                         "(give trailer_length_mm and trailer_width_mm)"))
        vehicles.append(_vehicle(v, types[v.type]))
    obstacles: list[Obstacle] = []
    for i, o in enumerate(spec.obstacle, 1):
        claim(o.id, f"obstacle[{i}]")
        poly = _shape(o)
        key = "circle" if o.circle is not None else "polygon"
        _check_polygon(f"obstacle[{i}].{key}", poly, problems)
        _near_table(f"obstacle[{i}].{key}", poly.bounds, spec, problems)
        obstacles.append(Obstacle(o.id, poly, o.weight, o.tall, o.destructible, o.label, o.volatile))
    surfaces: list[Surface] = []
    for i, s in enumerate(spec.surface, 1):
        claim(s.id, f"surface[{i}]")
        poly = _shape(s)
        key = "circle" if s.circle is not None else "polygon"
        _check_polygon(f"surface[{i}].{key}", poly, problems)
        _near_table(f"surface[{i}].{key}", poly.bounds, spec, problems)
        surfaces.append(Surface(s.id, s.kind, poly))
    gates = []
    for i, g in enumerate(spec.gate, 1):
        claim(g.id, f"gate[{i}]")
        claim(f"{g.id}.post_a", f"gate[{i}].post_a")
        claim(f"{g.id}.post_b", f"gate[{i}].post_b")
        r = g.post_radius_mm
        xs, ys = (g.post_a[0], g.post_b[0]), (g.post_a[1], g.post_b[1])
        _near_table(f"gate[{i}]", (min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r), spec, problems)
        gates.append(Gate(g.id, g.number, g.post_a, g.post_b, g.post_radius_mm))
    for i, x in enumerate(spec.line, 1):
        claim(x.id, f"line[{i}]")
        _near_table(f"line[{i}]", (min(x.a[0], x.b[0]), min(x.a[1], x.b[1]), max(x.a[0], x.b[0]),
                                   max(x.a[1], x.b[1])), spec, problems)
    lines = [Line(x.id, x.kind, x.a, x.b) for x in spec.line]
    ramps: list[Ramp] = []
    for i, rs in enumerate(spec.ramp, 1):
        claim(rs.id, f"ramp[{i}]")
        poly = Polygon(rs.polygon)
        _check_polygon(f"ramp[{i}].polygon", poly, problems)
        _near_table(f"ramp[{i}].polygon", poly.bounds, spec, problems)
        ramps.append(Ramp(rs.id, poly, rs.entry_edge, rs.label))
    table = Table(spec.table.width_mm, spec.table.height_mm, tuple(vehicles), tuple(obstacles), tuple(surfaces),
                  tuple(gates), tuple(lines), _set_name(spec.table.template_set), spec.scenario.name, ramps=tuple(ramps))
    if not problems:
        problems += _start_overlaps(table)
    return table, problems


def _start_overlaps(table: Table) -> list[Problem]:
    problems = []
    area = table.area.buffer(0.01, join_style="mitre")
    index = {v.id: i for i, v in enumerate(table.vehicles, 1)}
    for v in table.pieces:
        i = index[v.owner]
        if not area.contains(v.footprint):
            problems.append(Problem(f"vehicle[{i}]", f"{v.id!r} is not wholly on the {table.width_mm:g} x "
                                                    f"{table.height_mm:g} mm table"))
    grounded = [v for v in table.pieces if not v.airborne]
    for v in table.pieces:
        i = index[v.owner]
        if v.airborne:  # above everything but Tall obstacles, which stop it (p.70)
            for o in table.all_obstacles:
                if o.tall and overlaps(v.footprint, o.polygon):
                    problems.append(Problem(f"vehicle[{i}]", f"{v.id!r} is airborne inside the Tall obstacle "
                                                            f"{o.id!r} at the start (Tall obstacles stop it, p.70)"))
            continue
        for other in grounded:
            if other.id < v.id and other.owner != v.owner and overlaps(v.footprint, other.footprint):
                problems.append(Problem(f"vehicle[{i}]", f"{v.id!r} overlaps vehicle {other.id!r} at the start"))
        for o in table.all_obstacles:
            if overlaps(v.footprint, o.polygon):
                problems.append(Problem(f"vehicle[{i}]", f"{v.id!r} overlaps obstacle {o.id!r} at the start"))
    return problems


def _set_name(template_set: str | dict[str, Any]) -> str:
    """The table's template-set name: the file as written, or ``"(inline)"`` for a set written in the scenario."""
    return template_set if isinstance(template_set, str) else "(inline)"


def parse_scenario(raw: dict[str, Any], source: str, template_set: str | Path | TemplateSet | None = None
                   ) -> Scenario:
    """Validate an already-parsed TOML document (see :func:`load_scenario`).

    ``template_set``: a template-set file (or an already loaded set) used instead of the ``[table]`` one.
    """
    try:
        spec = ScenarioFile.model_validate(raw)
    except ValidationError as exc:
        raise InputFileError(source, validation_problems(exc, raw)) from None
    table, problems = build_table(spec, source)
    chosen: TemplateSet | None = None
    if isinstance(template_set, TemplateSet):
        chosen = template_set
    elif template_set is not None:
        chosen = load_template_set(template_set)  # its own errors name its own file
    else:
        try:
            base = Path(source).parent if source not in ("<string>", "") else Path.cwd()
            ts_name = spec.table.template_set
            if isinstance(ts_name, dict):
                chosen = template_set_from_document(ts_name, f"{source} [table.template_set]")
            else:
                chosen = load_template_set(ts_name if ts_name == "default" else base / ts_name)
        except InputFileError as exc:
            problems += [Problem("table.template_set", p.render(exc.source)) for p in exc.problems]
    if chosen is not None:
        problems += _gate_problems(spec, chosen)
        if not problems:
            problems += _scenario_problems(spec, chosen)
    teams = _teams(spec, source, problems)
    if problems:
        raise InputFileError(source, problems)
    assert chosen is not None
    return Scenario(source, spec, table, chosen, raw, teams)


def _teams(spec: ScenarioFile, source: str, problems: list[Problem]) -> dict[str, Team]:
    """Each player's team: a team file relative to the scenario, or its tables inline (TEAMS.md)."""
    from simulator.scenario.team_file import load_team, parse_team

    base = Path(source).parent if source not in ("<string>", "") else Path.cwd()
    teams: dict[str, Team] = {}
    for i, p in enumerate(spec.player, 1):
        if p.team is None:
            continue
        where = f"player[{i}].team"
        try:
            if isinstance(p.team, str):
                teams[p.id] = load_team(base / p.team)
            else:
                teams[p.id] = parse_team(p.team, f"{source} ({where})")
        except InputFileError as exc:
            problems += [Problem(where, pr.render(exc.source)) for pr in exc.problems]
    return teams


def _scenario_problems(spec: ScenarioFile, template_set: TemplateSet) -> list[Problem]:
    """A scenario's layout against its rules (spawn points p.130, token kinds), and the ids its tokens and
    spawn points name."""
    out: list[Problem] = []
    players = tuple(p.id for p in spec.player)
    vehicles = {v.id for v in spec.vehicle}
    for i, sp in enumerate(spec.spawn, 1):
        if sp.player not in players:
            out.append(Problem(f"spawn[{i}].player", f"no [[player]] with id {sp.player!r}"))
    for i, t in enumerate(spec.token, 1):
        if t.owner and t.owner not in players:
            out.append(Problem(f"token[{i}].owner", f"no [[player]] with id {t.owner!r}"))
        if t.carrier and t.carrier not in vehicles:
            out.append(Problem(f"token[{i}].carrier", f"no [[vehicle]] with id {t.carrier!r}"))
    ids = [t.id for t in spec.token if t.id]
    for i, t in enumerate(spec.token, 1):
        if t.id and ids.count(t.id) > 1:
            out.append(Problem(f"token[{i}].id", f"id {t.id!r} is used by another token"))
    key = spec.scenario.rules
    if not key:
        if spec.spawn or spec.token or spec.site:
            out.append(Problem("scenario.rules", "spawn points, tokens and sites need scenario rules "
                                                 "([scenario] kind = \"scenario\", rules = ...)"))
        return out
    from simulator.gaslands.objectives import Layout, rules_for

    ranges = {name: float(t.length_mm) for name, t in template_set.shooting.items() if t.length_mm}
    layout = Layout(players, tuple((sp.player, sp.x_mm, sp.y_mm) for sp in spec.spawn),
                    tuple(t.kind for t in spec.token), tuple(st.kind for st in spec.site),
                    spec.table.width_mm, spec.table.height_mm, ranges)
    out += [Problem(where, why) for where, why in rules_for(key).layout_problems(layout)]
    return out


def _gate_problems(spec: ScenarioFile, template_set: TemplateSet) -> list[Problem]:
    """Gates are exactly a Long Straight wide and numbered once each (p.124; GEOMETRY.md 7)."""
    long_mm = template_set.movement["long_straight"].length_mm or 182.0
    out = []
    numbers: dict[int, str] = {}
    for i, g in enumerate(spec.gate, 1):
        width = math.dist(g.post_a, g.post_b)
        if abs(width - long_mm) > 0.05:
            out.append(Problem(f"gate[{i}].post_b", f"the posts are {width:.2f} mm apart; a gate is exactly a "
                                                   f"Long Straight ({long_mm:g} mm) wide (p.124)"))
        if g.number in numbers:
            out.append(Problem(f"gate[{i}].number", f"gate {numbers[g.number]!r} already has number {g.number}"))
        numbers.setdefault(g.number, g.id)
    return out


def load_scenario(path: str | Path, template_set: str | Path | None = None) -> Scenario:
    """Read and validate a scenario or rulings file (with ``template_set`` instead of its own set).

    Raises :class:`InputFileError` listing every problem: TOML syntax, schema
    (missing keys, wrong types, non-finite numbers), unknown vehicle types or
    weapons, duplicate ids, polygons that are not simple, vehicles off the
    table or overlapping at the start, gates that are not a Long Straight wide
    or share a number, and a template set that cannot be read.
    """
    path = Path(path)
    return parse_scenario(read_toml(path), str(path), template_set)
