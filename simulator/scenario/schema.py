"""The scenario / rulings file schema (TOML, validated with pydantic).

The table part is the contract of ``../shared/RULINGS.md``; a scenario for
play adds ``[scenario]``, ``[[player]]``, vehicle ``player``/``name``/``weapons``
and ``[[line]]`` (start and finish lines, p.62). ``[[query]]`` tables are kept
raw here and validated by :mod:`simulator.scenario.rulings`.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

Finite = Annotated[float, Field(allow_inf_nan=False)]
Positive = Annotated[float, Field(gt=0, allow_inf_nan=False)]
Point = tuple[Finite, Finite]
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]+$")


def _check_id(value: str) -> str:
    if not ID_PATTERN.match(value):
        raise ValueError("use only letters, digits, - and _")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScenarioInfo(_Strict):
    """``[scenario]``: what the file is and which rules it uses."""

    name: str = "Untitled"
    kind: Literal["street_race", "death_race", "rulings", "sandbox"] = "sandbox"
    description: str = ""
    pages: str = ""
    pole_position: str = ""


MAX_TABLE_MM = 20_000.0
"""The largest play area accepted (20 m): far beyond any real table, small enough to draw."""

TableSize = Annotated[float, Field(gt=0, le=MAX_TABLE_MM, allow_inf_nan=False)]


class TableSpec(_Strict):
    """``[table]``: the play area (at most 20 m a side) and the template set (RULINGS.md)."""

    width_mm: TableSize
    height_mm: TableSize
    template_set: str = "default"


class PlayerSpec(_Strict):
    """``[[player]]``: a team, its colour (``#rrggbb``) and whether a bot drives it."""

    id: str
    name: str = ""
    colour: str = "#cc3333"
    bot: bool = False

    _id = field_validator("id")(_check_id)

    @field_validator("colour")
    @classmethod
    def _colour(cls, value: str) -> str:
        if not re.match(r"^#[0-9a-fA-F]{6}$", value):
            raise ValueError("expected a colour like #cc3333")
        return value


class WeaponSpec(_Strict):
    """A mounted weapon: its type (weapons table) and its arc of fire (p.28)."""

    type: str
    arc: Literal["front", "rear", "side", "turret"] = "front"


class VehicleSpec(_Strict):
    """``[[vehicle]]`` (RULINGS.md), plus ``player``, ``name`` and ``weapons`` for play."""

    id: str
    type: str
    x_mm: Finite
    y_mm: Finite
    heading_deg: Finite
    gear: Annotated[int, Field(ge=1, le=6)] = 1
    length_mm: Positive | None = None
    width_mm: Positive | None = None
    reversing: StrictBool = False
    player: str | None = None
    name: str = ""
    weapons: list[WeaponSpec] = Field(default_factory=list)
    hazard_tokens: Annotated[int, Field(ge=0)] = 0
    hull: Annotated[int, Field(ge=0)] | None = None

    _id = field_validator("id")(_check_id)


def _polygon_or_circle(polygon: list[Point] | None, circle: tuple[Finite, Finite, Positive] | None) -> None:
    if (polygon is None) == (circle is None):
        raise ValueError("give exactly one of polygon or circle")
    if polygon is not None and len(polygon) < 3:
        raise ValueError("a polygon needs at least 3 points")


class ObstacleSpec(_Strict):
    """``[[obstacle]]`` (RULINGS.md): a simple polygon or a circle ``[x, y, r]``."""

    id: str
    weight: Literal["lightweight", "middleweight", "heavyweight"] = "heavyweight"
    polygon: list[Point] | None = None
    circle: tuple[Finite, Finite, Positive] | None = None
    tall: StrictBool = False
    destructible: StrictBool = False
    label: str = ""

    _id = field_validator("id")(_check_id)

    @model_validator(mode="after")
    def _shape(self) -> ObstacleSpec:
        _polygon_or_circle(self.polygon, self.circle)
        return self


class SurfaceSpec(_Strict):
    """``[[surface]]`` (RULINGS.md): road, rough or treacherous (p.86)."""

    id: str
    kind: Literal["road", "rough", "treacherous"]
    polygon: list[Point] | None = None
    circle: tuple[Finite, Finite, Positive] | None = None

    _id = field_validator("id")(_check_id)

    @model_validator(mode="after")
    def _shape(self) -> SurfaceSpec:
        _polygon_or_circle(self.polygon, self.circle)
        return self


class GateSpec(_Strict):
    """``[[gate]]`` (RULINGS.md; p.124-127)."""

    id: str
    number: Annotated[int, Field(ge=1)]
    post_a: Point
    post_b: Point
    post_radius_mm: Positive = 10.0

    _id = field_validator("id")(_check_id)

    @model_validator(mode="after")
    def _apart(self) -> GateSpec:
        if math.dist(self.post_a, self.post_b) <= 2 * self.post_radius_mm:
            raise ValueError("the posts overlap: post_a and post_b must be further apart")
        return self


class LineSpec(_Strict):
    """``[[line]]``: a start or finish line (p.62)."""

    id: str
    kind: Literal["start", "finish"]
    a: Point
    b: Point

    _id = field_validator("id")(_check_id)


class ScenarioFile(_Strict):
    """A whole scenario or rulings file."""

    scenario: ScenarioInfo = Field(default_factory=ScenarioInfo)
    table: TableSpec
    player: list[PlayerSpec] = Field(default_factory=list)
    vehicle: list[VehicleSpec] = Field(default_factory=list)
    obstacle: list[ObstacleSpec] = Field(default_factory=list)
    surface: list[SurfaceSpec] = Field(default_factory=list)
    gate: list[GateSpec] = Field(default_factory=list)
    line: list[LineSpec] = Field(default_factory=list)
    query: list[dict[str, Any]] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)
