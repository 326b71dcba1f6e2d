"""Template sets as data: movement, Slide and shooting templates.

A template set file (TOML, ``simulator/data/template_sets/*.toml``) gives every
dimension with its provenance and the permitted-gear table (p.17-18, FAQ v1.2);
this module validates it (pydantic) and builds each template's geometry in its
**local frame**: the start (near) edge is centred on the origin, the template
points along +x, and y is to its left. The right-hand version is built; the
left-hand one is its mirror image about the x axis (p.16; FAQ v1.00).
"""

from __future__ import annotations

import copy
import enum
import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib.resources import files
from pathlib import Path as FilePath
from typing import Annotated, Any, Literal

import numpy as np
import shapely
from numpy.typing import NDArray
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    ValidationError,
    field_validator,
    model_validator,
)
from shapely.geometry import Polygon

from simulator.errors import InputFileError, Problem, readable_reason
from simulator.geometry.path import Path, Segment
from simulator.geometry.pose import Pose
from simulator.safe_read import parse_toml, read_text
from simulator.vocab import Side

Direction = Side
"""A turning template's direction (one definition for every layer: :data:`simulator.vocab.Side`)."""

ARC_TOLERANCE_MM = 0.005
"""Largest gap between a polygonised arc and the true arc (GEOMETRY.md 1)."""



class Permission(enum.Enum):
    """How a movement template may be used in a gear (p.17-18)."""

    TRIVIAL = "T"
    PERMITTED = "P"
    HAZARDOUS = "H"
    NOT_PERMITTED = "-"

    @property
    def allowed(self) -> bool:
        """True unless the template is not permitted in this gear."""
        return self is not Permission.NOT_PERMITTED

    @property
    def label(self) -> str:
        """A word for the tray and the dashboard."""
        return {"T": "Trivial", "P": "permitted", "H": "Hazardous", "-": "not permitted"}[self.value]


# --------------------------------------------------------------------------- file schema


MAX_TEMPLATE_MM = 1_000.0
"""The longest length or radius a template-set file may give (the longest real template is 302 mm):
any set people measure fits, and nothing it builds can run the geometry or the printing away."""

def _printable(value: str) -> str:
    for i, ch in enumerate(value):
        if unicodedata.category(ch) in ("Cc", "Cs"):
            raise ValueError(f"character {i + 1} is a control character ({ch!r}); labels are plain text")
    return value


Label = Annotated[str, Field(max_length=100), AfterValidator(_printable)]
"""A template's label: at most 100 characters of printable text (it is printed on the sheets)."""


class _Measure(BaseModel):
    """A length or radius in mm, 1 to :data:`MAX_TEMPLATE_MM`, with where it comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    value: Annotated[float, Strict(), Field(ge=1.0, le=MAX_TEMPLATE_MM, allow_inf_nan=False)]
    provenance: Annotated[str, Field(max_length=500), AfterValidator(_printable)]


class _Angle(_Measure):
    """An angle turned, 1 to 180 degrees."""

    value: Annotated[float, Strict(), Field(ge=1.0, le=180.0, allow_inf_nan=False)]


class _Width(_Measure):
    """The templates' width, 5 to 100 mm (the official one is 35)."""

    value: Annotated[float, Strict(), Field(ge=5.0, le=100.0, allow_inf_nan=False)]


class _MovementSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    label: Label
    shape: Literal["straight", "arc", "s_bend"]
    length_mm: _Measure | None = None
    radius_mm: _Measure | None = None
    sweep_deg: _Angle | None = None
    gears: Annotated[list[Literal["T", "P", "H", "-"]], Field(min_length=6, max_length=6)]
    gears_fixed: Annotated[list[StrictBool], Field(min_length=6, max_length=6)] = Field(
        default_factory=lambda: [False] * 6)

    @model_validator(mode="after")
    def _dimensions(self) -> _MovementSpec:
        if self.shape == "straight" and self.length_mm is None:
            raise ValueError("a straight needs length_mm")
        if self.shape != "straight" and (self.radius_mm is None or self.sweep_deg is None):
            raise ValueError(f"an {self.shape} needs radius_mm and sweep_deg")
        return self


class _SlideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    label: Label = "Slide"
    shape: Literal["straight"] = "straight"
    length_mm: _Measure


class _ShootingSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    label: Label
    shape: Literal["straight", "burst"]
    length_mm: _Measure
    near_edge_mm: _Measure | None = None
    radius_mm: _Measure | None = None

    @model_validator(mode="after")
    def _burst(self) -> _ShootingSpec:
        if self.shape == "burst":
            if self.near_edge_mm is None or self.radius_mm is None:
                raise ValueError("a burst needs near_edge_mm and radius_mm")
            if 2 * self.radius_mm.value > self.length_mm.value:
                raise ValueError("a burst's disc must fit in its length")
        return self


MOVEMENT_NAMES = (
    "short_straight", "medium_straight", "long_straight", "gentle", "turn", "hard", "hairpin", "veer", "swerve",
)
SHOOTING_NAMES = ("short", "medium", "long", "double", "small_burst", "large_burst")


def _known_names(kind: str, given: dict[str, object], known: tuple[str, ...]) -> None:
    missing = [n for n in known if n not in given]
    unknown = [n for n in given if n not in known]
    if missing:
        raise ValueError(f"missing {kind} templates: " + ", ".join(missing))
    if unknown:
        names = ", ".join(repr(n[:40]) for n in unknown[:5])
        raise ValueError(f"unknown {kind} templates {names}; the {kind} templates are " + ", ".join(known))


class _TemplateSetFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: Label
    version: Annotated[int, Strict(), Field(ge=1, le=999_999)] = 1
    width_mm: _Width
    movement: dict[str, _MovementSpec]
    slide: _SlideSpec
    shooting: dict[str, _ShootingSpec]

    @field_validator("movement")
    @classmethod
    def _movement_names(cls, value: dict[str, _MovementSpec]) -> dict[str, _MovementSpec]:
        _known_names("movement", dict(value), MOVEMENT_NAMES)
        return value

    @field_validator("shooting")
    @classmethod
    def _shooting_names(cls, value: dict[str, _ShootingSpec]) -> dict[str, _ShootingSpec]:
        _known_names("shooting", dict(value), SHOOTING_NAMES)
        return value


# --------------------------------------------------------------------------- geometry helpers


def arc_step_rad(radius_mm: float, tolerance_mm: float = ARC_TOLERANCE_MM) -> float:
    """Largest angle between arc points so each chord is within ``tolerance_mm`` of the arc."""
    return 2.0 * math.acos(max(-1.0, 1.0 - tolerance_mm / radius_mm))


def arc_points(
    cx: float, cy: float, radius_mm: float, start_rad: float, sweep_rad: float,
    tolerance_mm: float = ARC_TOLERANCE_MM,
) -> NDArray[np.float64]:
    """Points on a circular arc, both ends included, shape (n, 2); ``sweep_rad`` signed (ccw +)."""
    n = max(1, math.ceil(abs(sweep_rad) / arc_step_rad(radius_mm, tolerance_mm)))
    angles = start_rad + np.linspace(0.0, sweep_rad, n + 1)
    return np.column_stack((cx + radius_mm * np.cos(angles), cy + radius_mm * np.sin(angles)))


@lru_cache(maxsize=4096)
def circle_polygon(cx: float, cy: float, radius_mm: float) -> Polygon:
    """A disc as a polygon whose edge is within 0.005 mm of the circle (vertices on it).

    Kept for the last few thousand discs (a geometry never changes): gate posts and tokens are rebuilt with
    every game state's table, and the same polygon lets the movement code reuse what it worked out for it.
    """
    pts = arc_points(cx, cy, radius_mm, 0.0, 2.0 * math.pi)[:-1]
    return Polygon(pts)


def _drive(start: Pose, length_mm: float, curvature: float = 0.0) -> Segment:
    return Segment("drive", start, length_mm, curvature_per_mm=curvature)


# --------------------------------------------------------------------------- templates


@dataclass(frozen=True)
class MovementTemplate:
    """One movement template, built in its local frame, right-hand version.

    ``centre_line`` is a :class:`Path` of drive segments from the start-edge
    centre ``(0, 0)`` heading 0 to the far-end centre; ``exit_s_mm`` is the
    distance along it where the vehicle's centre stops for a Slide (the far end
    of a straight, half the sweep of an arc, the inflection of an S-bend;
    GEOMETRY.md 4); ``gears`` maps gear 1..6 to its :class:`Permission`.
    """

    name: str
    label: str
    shape: Literal["straight", "arc", "s_bend"]
    width_mm: float
    length_mm: float | None
    radius_mm: float | None
    sweep_deg: float | None
    gears: tuple[Permission, ...]
    gears_fixed: tuple[bool, ...]
    provenance: dict[str, str] = field(default_factory=dict)

    @cached_property
    def centre_line(self) -> Path:
        """The centre line, right-hand version, local frame."""
        origin = Pose(0.0, 0.0, 0.0)
        if self.shape == "straight":
            assert self.length_mm is not None
            return Path((_drive(origin, self.length_mm),))
        assert self.radius_mm is not None and self.sweep_deg is not None
        arc_mm = self.radius_mm * math.radians(self.sweep_deg)
        first = _drive(origin, arc_mm, -1.0 / self.radius_mm)
        if self.shape == "arc":
            return Path((first,))
        return Path((first, _drive(first.end, arc_mm, 1.0 / self.radius_mm)))

    @property
    def centre_length_mm(self) -> float:
        """Length of the centre line."""
        return self.centre_line.total

    @property
    def exit_s_mm(self) -> float:
        """Distance along the centre line of the Slide Exit Point's level (GEOMETRY.md 1, 4)."""
        if self.shape == "straight":
            return self.centre_line.total
        if self.shape == "arc":
            return self.centre_line.total / 2.0
        return self.centre_line.segments[0].length

    @cached_property
    def polygon(self) -> Polygon:
        """The template's outline, right-hand version, local frame."""
        return self.polygon_up_to(self.centre_length_mm)

    @cached_property
    def exit_polygon(self) -> Polygon:
        """:meth:`polygon_up_to` the Slide Exit Point's level (:attr:`exit_s_mm`): what of the template counts
        in a Slide (p.50), right-hand version, local frame."""
        return self.polygon_up_to(self.exit_s_mm)

    def polygon_up_to(self, s_mm: float) -> Polygon:
        """The part of the template from its start edge to the cut across it at ``s_mm``.

        Built from points on the true offset arcs (radius r - w/2 and r + w/2),
        spaced so every chord is within 0.005 mm of its arc (GEOMETRY.md 1).
        """
        hw = self.width_mm / 2.0
        if self.shape == "straight":
            return Polygon([(0.0, -hw), (s_mm, -hw), (s_mm, hw), (0.0, hw)])
        assert self.radius_mm is not None
        step_mm = arc_step_rad(self.radius_mm + hw) * self.radius_mm
        n = max(2, math.ceil(s_mm / step_mm) + 1)
        # sample each segment separately so the inflection is a vertex
        cuts = sorted({0.0, s_mm, *(x for x in self._segment_starts() if 0.0 < x < s_mm)})
        params: list[float] = []
        for a, b in zip(cuts[:-1], cuts[1:], strict=True):
            k = max(1, math.ceil((b - a) / s_mm * n))
            params.extend(a + (b - a) * i / k for i in range(k))
        params.append(s_mm)
        poses = [self.centre_line.pose_at(x) for x in params]
        left = [p.offset(0.0, hw) for p in poses]
        right = [p.offset(0.0, -hw) for p in poses]
        return Polygon(right + left[::-1])

    def _segment_starts(self) -> list[float]:
        out, acc = [], 0.0
        for seg in self.centre_line.segments:
            out.append(acc)
            acc += seg.length
        return out

    @property
    def slide_exit(self) -> tuple[Pose, float]:
        """The Slide Exit Point and the Slide direction (degrees), right-hand version, local frame.

        Off a straight: the far-end centre, sliding forward. Off an arc: the
        outer edge at half the sweep, sliding outward. Off an S-bend: the edge on
        the side the vehicle moves towards (right), at the inflection, sliding
        that way (GEOMETRY.md 1, 3). The returned pose is on the centre line.
        """
        at = self.centre_line.pose_at(self.exit_s_mm)
        if self.shape == "straight":
            return at, at.heading_deg
        if self.shape == "arc":
            return at, at.heading_deg + 90.0
        return at, at.heading_deg - 90.0

    def slide_exit_point(self) -> tuple[float, float]:
        """The Slide Exit Point itself (local frame, right-hand version)."""
        at, slide_deg = self.slide_exit
        if self.shape == "straight":
            return (at.x_mm, at.y_mm)
        rad = math.radians(slide_deg)
        hw = self.width_mm / 2.0
        return (at.x_mm + hw * math.cos(rad), at.y_mm + hw * math.sin(rad))

    def permission(self, gear: int) -> Permission:
        """Permission in ``gear`` (1..6); gears outside 1..6 are not permitted."""
        return self.gears[gear - 1] if 1 <= gear <= len(self.gears) else Permission.NOT_PERMITTED

    @property
    def permitted_gears(self) -> tuple[int, ...]:
        """The gears in which this template may be used."""
        return tuple(g for g in range(1, 7) if self.permission(g).allowed)


@dataclass(frozen=True)
class ShootingTemplate:
    """A shooting template (p.27) in its local frame: near edge centred on the origin, pointing +x."""

    name: str
    label: str
    shape: Literal["straight", "burst"]
    length_mm: float
    width_mm: float
    near_edge_mm: float | None = None
    radius_mm: float | None = None

    @property
    def near_width_mm(self) -> float:
        """Width of the near edge (35 for the straights; the burst's near edge)."""
        return self.near_edge_mm if self.shape == "burst" and self.near_edge_mm else self.width_mm

    @cached_property
    def polygon(self) -> Polygon:
        """The outline in the local frame."""
        if self.shape == "straight":
            hw = self.width_mm / 2.0
            return Polygon([(0.0, -hw), (self.length_mm, -hw), (self.length_mm, hw), (0.0, hw)])
        assert self.radius_mm is not None and self.near_edge_mm is not None
        disc = circle_polygon(self.length_mm - self.radius_mm, 0.0, self.radius_mm)
        edge = np.array([[0.0, -self.near_edge_mm / 2.0], [0.0, self.near_edge_mm / 2.0]])
        hull = shapely.MultiPoint(np.vstack((np.asarray(disc.exterior.coords), edge))).convex_hull
        assert isinstance(hull, Polygon)
        return hull


@dataclass(frozen=True)
class TemplateSet:
    """A whole template set: nine movement templates, the Slide template, six shooting templates."""

    name: str
    version: int
    width_mm: float
    movement: dict[str, MovementTemplate]
    slide_length_mm: float
    shooting: dict[str, ShootingTemplate]
    source: str = "default"
    document: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    """The set's TOML document as read (None for the bundled set): written inline into a save or sent to an
    online game's clients, so the game replays where the set's file is not."""

    def template(self, name: str) -> MovementTemplate:
        """The movement template called ``name``; ``KeyError`` names the known ones."""
        try:
            return self.movement[name]
        except KeyError:
            raise KeyError(f"unknown template {name!r}; known: {', '.join(self.movement)}") from None

    def permission(self, template_name: str, gear: int) -> Permission:
        """How ``template_name`` may be used in ``gear`` (p.17-18)."""
        return self.template(template_name).permission(gear)

    def range_mm(self, range_name: str) -> float:
        """Length of a shooting template (p.27)."""
        return self.shooting[range_name].length_mm


def _build(spec: _TemplateSetFile, source: str, document: Mapping[str, Any] | None = None) -> TemplateSet:
    width = spec.width_mm.value
    movement: dict[str, MovementTemplate] = {}
    for name, m in spec.movement.items():
        prov = {k: v.provenance for k, v in (("length_mm", m.length_mm), ("radius_mm", m.radius_mm),
                                              ("sweep_deg", m.sweep_deg)) if v is not None}
        movement[name] = MovementTemplate(
            name=name, label=m.label, shape=m.shape, width_mm=width,
            length_mm=m.length_mm.value if m.length_mm else None,
            radius_mm=m.radius_mm.value if m.radius_mm else None,
            sweep_deg=m.sweep_deg.value if m.sweep_deg else None,
            gears=tuple(Permission(g) for g in m.gears), gears_fixed=tuple(m.gears_fixed), provenance=prov,
        )
    shooting = {
        name: ShootingTemplate(
            name=name, label=s.label, shape=s.shape, length_mm=s.length_mm.value, width_mm=width,
            near_edge_mm=s.near_edge_mm.value if s.near_edge_mm else None,
            radius_mm=s.radius_mm.value if s.radius_mm else None,
        )
        for name, s in spec.shooting.items()
    }
    for name, t in movement.items():
        if t.radius_mm is not None and t.radius_mm <= width / 2.0:
            raise InputFileError(source, [Problem(f"movement.{name}.radius_mm",
                                                  f"must exceed half the template width ({width / 2.0} mm)")])
    return TemplateSet(spec.name, spec.version, width, movement, spec.slide.length_mm.value, shooting, source,
                       document)


def _problems(error: ValidationError) -> list[Problem]:
    return [Problem(".".join(str(p)[:64] for p in e["loc"]) or "(file)", readable_reason(e["msg"]))
            for e in error.errors()]


def parse_template_set(text: str, source: str = "<string>") -> TemplateSet:
    """Build a :class:`TemplateSet` from TOML text.

    Raises :class:`InputFileError` naming the file, the key and the reason for
    TOML syntax errors, missing templates, non-positive or non-finite sizes.
    """
    return template_set_from_document(parse_toml(text, source), source)


def template_set_from_document(raw: Mapping[str, Any], source: str = "<string>") -> TemplateSet:
    """Build a :class:`TemplateSet` from an already parsed TOML document (a template set written inline in a
    scenario's ``[table] template_set``, or a file's). Raises :class:`InputFileError` as
    :func:`parse_template_set` does."""
    try:
        spec = _TemplateSetFile.model_validate(raw)
    except ValidationError as exc:
        raise InputFileError(source, _problems(exc)) from None
    return _build(spec, source, copy.deepcopy(dict(raw)))


_CACHE: dict[str, TemplateSet] = {}


def load_template_set(path: str | FilePath | None = None) -> TemplateSet:
    """Load a template set: ``None`` or ``"default"`` is the bundled set, else a file path.

    Results are cached per path. Raises :class:`InputFileError` (see
    :func:`parse_template_set`; a missing, oversized or non-UTF-8 file too).
    """
    if path is not None and "\x00" in str(path):
        raise InputFileError(str(path).replace("\x00", "\\0"), [Problem("(file)", "not a usable file name")])
    key = "default" if path is None or str(path) == "default" else str(FilePath(path).resolve())
    if key not in _CACHE:
        if key == "default":
            text = (files("simulator") / "data" / "template_sets" / "default.toml").read_text("utf-8")
            _CACHE[key] = parse_template_set(text, "default.toml")
        else:
            _CACHE[key] = parse_template_set(read_text(str(path)), str(path))
    return _CACHE[key]
