"""The scenario / rulings file schema (TOML, validated with pydantic).

The table part is the contract of ``../shared/RULINGS.md``; a scenario for
play adds ``[scenario]``, ``[[player]]``, vehicle ``player``/``name``/``weapons``
and ``[[line]]`` (start and finish lines, p.62). ``[[query]]`` tables are kept
raw here and validated by :mod:`simulator.scenario.rulings`.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    field_validator,
    model_validator,
)

MAX_TABLE_MM = 20_000.0
"""The largest play area accepted (20 m): far beyond any real table, small enough to draw."""

MAX_COORDINATE_MM = 3.0 * MAX_TABLE_MM
"""No coordinate beyond +-60 m is read; :func:`~simulator.scenario.loader.build_table` then keeps every
piece within one table size of the table (a piece may overhang it, nothing may be kilometres away)."""

MAX_VERTICES = 100_000
"""The most vertices one polygon may have."""

MAX_NAME_CHARS = 200
"""Names and labels: at most this many characters (they are drawn on the table)."""

MAX_TEXT_CHARS = 100_000
"""A scenario's description: at most this many characters."""

MAX_PIECES = {"vehicle": 1_000, "obstacle": 20_000, "surface": 2_000, "gate": 200, "line": 100, "ramp": 200,
              "player": 16, "query": 10_000, "spawn": 16, "token": 2_000, "site": 200}
"""The most tables of each kind in one file."""

Finite = Annotated[float, Strict(), Field(allow_inf_nan=False)]
"""A finite number; integers are accepted, strings and booleans are not."""
Coordinate = Annotated[float, Strict(), Field(ge=-MAX_COORDINATE_MM, le=MAX_COORDINATE_MM, allow_inf_nan=False)]
Heading = Annotated[float, Strict(), Field(ge=-3600.0, le=3600.0, allow_inf_nan=False)]
Radius = Annotated[float, Strict(), Field(ge=0.1, le=MAX_TABLE_MM, allow_inf_nan=False)]
"""A circle's radius in mm: from 0.1 mm (a pin) to the largest table."""
VehicleSize = Annotated[float, Strict(), Field(ge=1.0, le=1_000.0, allow_inf_nan=False)]
"""A vehicle's length or width in mm: 1 mm to 1 m (the largest model is a 150 mm War Rig trailer)."""
Positive = Annotated[float, Strict(), Field(gt=0, allow_inf_nan=False)]
Point = tuple[Coordinate, Coordinate]
def _printable(value: str, allowed: str = "") -> str:
    """Refuse control characters (NUL, escapes, line breaks in a name) and lone surrogates: they cannot
    be drawn or printed."""
    for i, ch in enumerate(value):
        if unicodedata.category(ch) in ("Cc", "Cs") and ch not in allowed:
            raise ValueError(f"character {i + 1} is a control character ({ch!r}); names are plain text")
    return value


def _printable_text(value: str) -> str:
    return _printable(value, "\n\t")


Name = Annotated[str, Field(max_length=MAX_NAME_CHARS), AfterValidator(_printable)]
"""A name or label: at most 200 characters of printable text."""
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS), AfterValidator(_printable_text)]
"""A description: printable text, line breaks allowed."""
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""Ids: 1 to 64 letters, digits, - and _ (the whole string: no trailing newline, RULINGS.md)."""


def _check_id(value: str) -> str:
    if not ID_PATTERN.fullmatch(value):
        raise ValueError("use 1 to 64 letters, digits, - and _ (no spaces or other characters)")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


TableEdge = Literal["north", "south", "east", "west"]
"""A table edge: north is the far edge (largest y), east the right (largest x)."""


class ScenarioInfo(_Strict):
    """``[scenario]``: what the file is and which rules it uses.

    ``kind = "scenario"`` with ``rules`` naming a row of ``simulator/data/scenarios.toml`` plays one of the
    rulebook's other scenarios (p.130-175); ``edges`` names the table edges it uses (``entry`` and ``exit``,
    p.137; ``riggers`` and ``gangers``, p.168).
    """

    name: Name = "Untitled"
    kind: Literal["street_race", "death_race", "rulings", "sandbox", "scenario"] = "sandbox"
    description: Text = ""
    pages: Name = ""
    pole_position: Name = ""
    rules: Annotated[str, Field(max_length=64)] = ""
    edges: dict[Annotated[str, Field(max_length=32)], TableEdge | list[TableEdge]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _rules(self) -> ScenarioInfo:
        if self.kind == "scenario" and not self.rules:
            raise ValueError("a scenario of kind \"scenario\" names its rules (e.g. rules = \"flag_tag\")")
        if self.rules:
            from simulator.gaslands.objectives import scenario_specs

            if self.rules not in scenario_specs():
                raise ValueError(f"unknown scenario rules {self.rules!r}; known: {', '.join(scenario_specs())}")
        return self


TableSize = Annotated[float, Strict(), Field(ge=10.0, le=MAX_TABLE_MM, allow_inf_nan=False)]
"""A side of the play area: 10 mm to 20 m."""


class TableSpec(_Strict):
    """``[table]``: the play area (at most 20 m a side) and the template set (RULINGS.md)."""

    width_mm: TableSize
    height_mm: TableSize
    template_set: Annotated[str, Field(min_length=1, max_length=4096), AfterValidator(_printable)] | dict[str, Any] \
        = "default"
    """``"default"``, a template-set file relative to the scenario, or a template set written inline (as saves
    and online games carry a custom set, so they replay without its file)."""


class PlayerSpec(_Strict):
    """``[[player]]``: a team, its colour (``#rrggbb``) and whether a bot drives it.

    ``team``: a team file (TEAMS.md) as a path relative to the scenario file, or
    the team file's tables inline; its vehicles replace the file's ``[[vehicle]]``
    tables of this player and are placed by the scenario's deployment (the
    Starting Grid, p.62, p.126).
    """

    id: str
    name: Name = ""
    colour: str = "#cc3333"
    bot: StrictBool = False
    team: Annotated[str, Strict(), Field(min_length=1, max_length=4096)] | dict[str, Any] | None = None
    side: Name = ""
    """Team Games (p.123): players with the same ``side`` play as one team."""
    role: Literal["", "monster", "mouse", "riggers", "gangers"] = ""
    """A scenario's part for the player: the Monster or a Mouse (p.147), the Riggers or Gangers (p.166)."""
    votes: Annotated[int, Strict(), Field(ge=0, le=99)] = 0
    """Audience Votes at the start (a campaign's Handicap Bonus, p.159)."""
    hull_lost: dict[Name, Annotated[int, Strict(), Field(ge=0, le=99)]] = Field(default_factory=dict)
    """A campaign's Hull Points lost for good, by the team vehicle's name (Ride Eternal, p.167)."""
    crew_lost: dict[Name, Annotated[int, Strict(), Field(ge=0, le=9)]] = Field(default_factory=dict)
    """A campaign's Crew lost for good, by the team vehicle's name (Upholstery ruined, p.162)."""

    _id = field_validator("id")(_check_id)

    @field_validator("colour")
    @classmethod
    def _colour(cls, value: str) -> str:
        if not re.match(r"^#[0-9a-fA-F]{6}$", value):
            raise ValueError("expected a colour like #cc3333")
        return value


class WeaponSpec(_Strict):
    """A mounted weapon: its type (weapons table), its arc of fire (p.28) and, on a War Rig, the piece it sits
    on (p.118; default: the trailer for a rear arc, else the cab)."""

    type: Name
    arc: Literal["front", "rear", "side", "turret"] = "front"
    mount: Literal["cab", "trailer"] | None = None


class VehicleSpec(_Strict):
    """``[[vehicle]]`` (RULINGS.md), plus ``player``, ``name`` and ``weapons`` for play."""

    id: str
    type: Name
    x_mm: Coordinate
    y_mm: Coordinate
    heading_deg: Heading
    gear: Annotated[int, Strict(), Field(ge=1, le=6)] = 1
    length_mm: VehicleSize | None = None
    width_mm: VehicleSize | None = None
    reversing: StrictBool = False
    trailer_length_mm: VehicleSize | None = None
    trailer_width_mm: VehicleSize | None = None
    bend_deg: Annotated[float, Strict(), Field(ge=-90.0, le=90.0, allow_inf_nan=False)] = 0.0
    player: Name | None = None
    name: Name = ""
    weapons: Annotated[list[WeaponSpec], Field(max_length=32)] = Field(default_factory=list)
    hazard_tokens: Annotated[int, Strict(), Field(ge=0, le=99)] = 0
    hull: Annotated[int, Strict(), Field(ge=0, le=999)] | None = None

    _id = field_validator("id")(_check_id)


PolygonPoints = Annotated[list[Point], Field(max_length=MAX_VERTICES)]
Circle = tuple[Coordinate, Coordinate, Radius]


def _polygon_or_circle(polygon: list[Point] | None, circle: Circle | None) -> None:
    if (polygon is None) == (circle is None):
        raise ValueError("give exactly one of polygon or circle")
    if polygon is not None and len(polygon) < 3:
        raise ValueError("a polygon needs at least 3 points")


class ObstacleSpec(_Strict):
    """``[[obstacle]]`` (RULINGS.md): a simple polygon or a circle ``[x, y, r]``."""

    id: str
    weight: Literal["lightweight", "middleweight", "heavyweight"] = "heavyweight"
    polygon: PolygonPoints | None = None
    circle: Circle | None = None
    tall: StrictBool = False
    destructible: StrictBool = False
    volatile: StrictBool = False
    label: Name = ""

    _id = field_validator("id")(_check_id)

    @model_validator(mode="after")
    def _shape(self) -> ObstacleSpec:
        _polygon_or_circle(self.polygon, self.circle)
        return self


class SurfaceSpec(_Strict):
    """``[[surface]]`` (RULINGS.md): road, rough or treacherous (p.86)."""

    id: str
    kind: Literal["road", "rough", "treacherous"]
    polygon: PolygonPoints | None = None
    circle: Circle | None = None

    _id = field_validator("id")(_check_id)

    @model_validator(mode="after")
    def _shape(self) -> SurfaceSpec:
        _polygon_or_circle(self.polygon, self.circle)
        return self


class GateSpec(_Strict):
    """``[[gate]]`` (RULINGS.md; p.124-127)."""

    id: str
    number: Annotated[int, Strict(), Field(ge=1, le=999)]
    post_a: Point
    post_b: Point
    post_radius_mm: Radius = 10.0

    _id = field_validator("id")(_check_id)

    @model_validator(mode="after")
    def _apart(self) -> GateSpec:
        if math.dist(self.post_a, self.post_b) <= 2 * self.post_radius_mm:
            raise ValueError("the posts overlap: post_a and post_b must be further apart")
        return self


class RampSpec(_Strict):
    """``[[ramp]]`` (p.87): a simple polygon and its entry edge, ``k`` for the edge from point ``k`` to the next
    (1-based; the last edge runs back to point 1)."""

    id: str
    polygon: PolygonPoints
    entry_edge: Annotated[int, Strict(), Field(ge=1)] = 1
    label: Name = ""

    _id = field_validator("id")(_check_id)

    @model_validator(mode="after")
    def _edge(self) -> RampSpec:
        if len(self.polygon) < 3:
            raise ValueError("a ramp's polygon needs at least 3 points")
        if self.entry_edge > len(self.polygon):
            raise ValueError(f"entry_edge is {self.entry_edge} but the polygon has only {len(self.polygon)} edges")
        return self


class LineSpec(_Strict):
    """``[[line]]``: a start or finish line (p.62)."""

    id: str
    kind: Literal["start", "finish"]
    a: Point
    b: Point

    _id = field_validator("id")(_check_id)


class SpawnSpec(_Strict):
    """``[[spawn]]``: a player's spawn point, a counter no larger than a penny (p.130)."""

    player: Name
    x_mm: Coordinate
    y_mm: Coordinate


class TokenSpec(_Strict):
    """``[[token]]``: a flag, crate, zombie, turret... on the table at the start (p.130-153).

    ``owner`` is a player id (a Flag Tag flag, p.132); ``carrier`` a vehicle id that starts carrying it.
    """

    kind: Annotated[str, Field(min_length=1, max_length=32)]
    x_mm: Coordinate = 0.0
    y_mm: Coordinate = 0.0
    id: str = ""
    radius_mm: Radius | None = None
    owner: Name = ""
    carrier: Name = ""
    label: Name = ""

    @field_validator("id")
    @classmethod
    def _token_id(cls, value: str) -> str:
        return _check_id(value) if value else value


class SiteSpec(_Strict):
    """``[[site]]``: where a token whose number is rolled may go (gun turrets, 2D6, p.130), in order of use."""

    kind: Annotated[str, Field(min_length=1, max_length=32)]
    x_mm: Coordinate
    y_mm: Coordinate


class OptionsSpec(_Strict):
    """``[options]``: optional rules of a game (unknown keys and non-boolean values are errors).

    ``audience_votes``: Audience Votes (p.88-90), default off. ``starting_grid``: a Death Race's
    vehicles deploy to the Starting Grid as the game's first decisions (p.126), default on; false
    keeps the file's positions. ``finish_line``: what crossing a Street Race's Finish Line means
    (p.62; docs/rulings.md): ``"centre"`` (default) the vehicle's centre passes over the line between
    its ends, travelling away from the Starting Line; ``"touch"`` any part of it touches the line while
    travelling that way, as a Death Race gate (p.127).
    """

    audience_votes: StrictBool = False
    rig_upgrades: Annotated[list[Literal["hangers_on", "selvaggio", "fuel_pod", "grease_monkey", "cow_catcher"]],
                            Field(max_length=5)] = Field(default_factory=list)
    """Savage Highways (p.167): the War Rig Upgrades attached to the Riggers' War Rig."""
    starting_grid: StrictBool = True
    finish_line: Literal["centre", "touch"] = "centre"


class ScenarioFile(_Strict):
    """A whole scenario or rulings file."""

    scenario: ScenarioInfo = Field(default_factory=ScenarioInfo)
    table: TableSpec
    player: Annotated[list[PlayerSpec], Field(max_length=MAX_PIECES["player"])] = Field(default_factory=list)
    vehicle: Annotated[list[VehicleSpec], Field(max_length=MAX_PIECES["vehicle"])] = Field(default_factory=list)
    obstacle: Annotated[list[ObstacleSpec], Field(max_length=MAX_PIECES["obstacle"])] = Field(default_factory=list)
    surface: Annotated[list[SurfaceSpec], Field(max_length=MAX_PIECES["surface"])] = Field(default_factory=list)
    gate: Annotated[list[GateSpec], Field(max_length=MAX_PIECES["gate"])] = Field(default_factory=list)
    line: Annotated[list[LineSpec], Field(max_length=MAX_PIECES["line"])] = Field(default_factory=list)
    ramp: Annotated[list[RampSpec], Field(max_length=MAX_PIECES["ramp"])] = Field(default_factory=list)
    spawn: Annotated[list[SpawnSpec], Field(max_length=MAX_PIECES["spawn"])] = Field(default_factory=list)
    token: Annotated[list[TokenSpec], Field(max_length=MAX_PIECES["token"])] = Field(default_factory=list)
    site: Annotated[list[SiteSpec], Field(max_length=MAX_PIECES["site"])] = Field(default_factory=list)
    query: Annotated[list[dict[str, Any]], Field(max_length=MAX_PIECES["query"])] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)
    """``[options]``: the keys of :class:`OptionsSpec`, checked as strictly as the rest; kept as a dict."""

    @field_validator("options")
    @classmethod
    def _options(cls, value: dict[str, Any]) -> dict[str, Any]:
        return OptionsSpec.model_validate(value).model_dump(exclude_unset=True)
