"""A track file being edited (``gaslands edit``): the TOML text as a value, edits as functions of it.

A :class:`TrackDoc` holds the file's text; every edit (:meth:`TrackDoc.add_gate`,
:meth:`TrackDoc.move`, :meth:`TrackDoc.rotate`...) parses it with ``tomlkit``,
changes only the values it must and returns a new document, so the
designer's comments, order and layout survive a save, and undo and redo are
a :class:`~simulator.history.History` of texts. :meth:`TrackDoc.scenario`
checks the text as ``gaslands check`` and ``play`` read it (an
:class:`~simulator.errors.InputFileError` names what is wrong).

Pieces are addressed as ``(table, index)``: ``("gate", 0)`` is the first
``[[gate]]``. Units are mm and degrees, the table frame of DESIGN.md. A gate's
posts stay exactly a Long Straight apart whatever is done to it (p.124); its
direction (the left-hand normal of ``post_a -> post_b``) turns with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
from shapely import affinity
from shapely.geometry import Point, Polygon
from tomlkit.items import AoT, Array, Table

from simulator.geometry.templates import TemplateSet
from simulator.scenario.loader import Scenario, parse_scenario

KINDS = ("gate", "obstacle", "surface", "ramp", "line")
"""The tables an editor changes, in the order pieces are picked (the smallest first)."""

WEIGHTS = ("lightweight", "middleweight", "heavyweight")
SURFACE_KINDS = ("road", "rough", "treacherous")

Piece = tuple[str, int]


def _r(x: float) -> float:
    """A coordinate as written: to 0.01 mm."""
    return round(float(x), 2)


def _pt(p: Any) -> tuple[float, float]:
    return (float(p[0]), float(p[1]))


def _inline_points(points: list[tuple[float, float]]) -> Array:
    arr = tomlkit.array()
    for x, y in points:
        arr.append([_r(x), _r(y)])
    return arr


EMPTY_TRACK = """# A Death Race track (p.124-128), made with `gaslands edit`.
# Gates: two posts exactly a Long Straight apart; pass them in number order, the way their arrow points.

[scenario]
name = "New track"
kind = "death_race"
pages = "p.124-128"

[table]
width_mm = 1830.0
height_mm = 1220.0
template_set = "default"

[[player]]
id = "red"
name = "Red Team"
colour = "#d23c32"

[[player]]
id = "blue"
name = "Blue Team"
colour = "#2f6fd6"

[[vehicle]]
id = "red-car"
name = "Red Car"
player = "red"
type = "car"
x_mm = 100.0
y_mm = 100.0
heading_deg = 0.0
weapons = [{ type = "machine_gun", arc = "front" }]

[[vehicle]]
id = "blue-car"
name = "Blue Car"
player = "blue"
type = "car"
x_mm = 100.0
y_mm = 200.0
heading_deg = 0.0
weapons = [{ type = "machine_gun", arc = "front" }]
"""
"""A new track: a 6 x 4 ft table, two teams of one car (placed on the Starting Grid when played, p.126)."""


@dataclass(frozen=True)
class TrackDoc:
    """The text of a track file (see the module docstring). ``source`` names it in messages."""

    text: str
    source: str = "<track>"
    long_mm: float = 182.0
    """The Long Straight of the track's template set: a gate's posts are kept this far apart (p.124)."""

    # ------------------------------------------------------------------ reading

    def document(self) -> tomlkit.TOMLDocument:
        """A fresh tomlkit document of the text (edit it, then :meth:`with_document`)."""
        return tomlkit.parse(self.text)

    def with_document(self, doc: tomlkit.TOMLDocument) -> TrackDoc:
        """A document holding ``doc``'s text."""
        return TrackDoc(tomlkit.dumps(doc), self.source, self.long_mm)

    def data(self) -> dict[str, Any]:
        """The text as plain data (read as strictly as any file: :func:`simulator.safe_read.parse_toml`)."""
        from simulator import safe_read

        return safe_read.parse_toml(self.text, self.source)

    def scenario(self, template_set: TemplateSet | None = None) -> Scenario:
        """The track checked as ``play`` and ``check`` read it; :class:`InputFileError` if it is not valid."""
        return parse_scenario(self.data(), self.source, template_set)

    def pieces(self, kind: str) -> list[dict[str, Any]]:
        """The ``[[kind]]`` tables as plain data."""
        value = self.data().get(kind, [])
        return list(value) if isinstance(value, list) else []

    def table_size(self) -> tuple[float, float]:
        """The table's width and height (mm)."""
        t = self.data().get("table", {})
        return float(t.get("width_mm", 1830.0)), float(t.get("height_mm", 1220.0))

    def centre(self, piece: Piece) -> tuple[float, float]:
        """Where a piece is: a gate's or line's middle, a shape's centroid (mm)."""
        kind, i = piece
        item = self.pieces(kind)[i]
        if kind == "gate":
            (ax, ay), (bx, by) = _pt(item["post_a"]), _pt(item["post_b"])
            return ((ax + bx) / 2.0, (ay + by) / 2.0)
        if kind == "line":
            (ax, ay), (bx, by) = _pt(item["a"]), _pt(item["b"])
            return ((ax + bx) / 2.0, (ay + by) / 2.0)
        if "circle" in item:
            return (float(item["circle"][0]), float(item["circle"][1]))
        c = Polygon([_pt(p) for p in item["polygon"]]).centroid
        return (float(c.x), float(c.y))

    def next_id(self, prefix: str) -> str:
        """``prefix-N`` with the first N no piece uses."""
        used = {str(p.get("id")) for kind in (*KINDS, "vehicle") for p in self.pieces(kind)}
        n = 1
        while f"{prefix}-{n}" in used:
            n += 1
        return f"{prefix}-{n}"

    # ------------------------------------------------------------------ adding

    def _append(self, kind: str, table: Table) -> TrackDoc:
        doc = self.document()
        if kind not in doc:
            doc.append(kind, AoT([table]))
        else:
            aot = doc[kind]
            assert isinstance(aot, AoT)
            aot.append(table)
        return self.with_document(doc)

    def add_gate(self, x_mm: float, y_mm: float, heading_deg: float, long_mm: float) -> TrackDoc:
        """A new gate, numbered after the others, centred at ``(x_mm, y_mm)``, passed towards ``heading_deg``,
        its posts exactly ``long_mm`` (a Long Straight) apart (p.124)."""
        number = max((int(g.get("number", 0)) for g in self.pieces("gate")), default=0) + 1
        a, b = gate_posts(x_mm, y_mm, heading_deg, long_mm)
        t = tomlkit.table()
        t.add("id", self.next_id("gate"))
        t.add("number", number)
        t.add("post_a", [_r(a[0]), _r(a[1])])
        t.add("post_b", [_r(b[0]), _r(b[1])])
        return self._append("gate", t)

    def add_gate_here(self, x_mm: float, y_mm: float, heading_deg: float) -> TrackDoc:
        """:meth:`add_gate` with this track's Long Straight."""
        return self.add_gate(x_mm, y_mm, heading_deg, self.long_mm)

    def add_obstacle(self, shape: dict[str, Any], weight: str = "heavyweight", label: str = "") -> TrackDoc:
        """A new obstacle: ``shape`` is ``{"polygon": [...]}`` or ``{"circle": [x, y, r]}``."""
        t = tomlkit.table()
        t.add("id", self.next_id("obstacle"))
        if label:
            t.add("label", label)
        t.add("weight", weight)
        self._shape_into(t, shape)
        return self._append("obstacle", t)

    def add_surface(self, shape: dict[str, Any], kind: str = "rough") -> TrackDoc:
        """A new surface (road, rough or treacherous, p.86)."""
        t = tomlkit.table()
        t.add("id", self.next_id("surface"))
        t.add("kind", kind)
        self._shape_into(t, shape)
        return self._append("surface", t)

    def add_ramp(self, points: list[tuple[float, float]], entry_edge: int = 1, label: str = "ramp") -> TrackDoc:
        """A new ramp (p.87) with its entry edge (1-based: from point ``k`` to the next)."""
        t = tomlkit.table()
        t.add("id", self.next_id("ramp"))
        t.add("label", label)
        t.add("polygon", _inline_points(points))
        t.add("entry_edge", entry_edge)
        return self._append("ramp", t)

    def add_line(self, kind: str, a: tuple[float, float], b: tuple[float, float]) -> TrackDoc:
        """A new start or finish line."""
        t = tomlkit.table()
        t.add("id", self.next_id(kind))
        t.add("kind", kind)
        t.add("a", [_r(a[0]), _r(a[1])])
        t.add("b", [_r(b[0]), _r(b[1])])
        return self._append("line", t)

    @staticmethod
    def _shape_into(t: Table, shape: dict[str, Any]) -> None:
        if "circle" in shape:
            x, y, r = shape["circle"]
            t.add("circle", [_r(x), _r(y), _r(r)])
        else:
            t.add("polygon", _inline_points([_pt(p) for p in shape["polygon"]]))

    # ------------------------------------------------------------------ changing

    def _item(self, doc: tomlkit.TOMLDocument, piece: Piece) -> Table:
        kind, i = piece
        aot = doc[kind]
        assert isinstance(aot, AoT)
        return aot[i]

    def delete(self, piece: Piece) -> TrackDoc:
        """The document without the piece."""
        doc = self.document()
        kind, i = piece
        aot = doc[kind]
        assert isinstance(aot, AoT)
        del aot[i]
        if not len(aot):
            del doc[kind]
        return self.with_document(doc)

    def set(self, piece: Piece, key: str, value: Any) -> TrackDoc:
        """Set one key of a piece (``weight``, ``tall``, ``label``, ``number``, ``entry_edge``...); a false flag
        is removed rather than written."""
        doc = self.document()
        item = self._item(doc, piece)
        if value is False and key in ("tall", "destructible", "volatile"):
            if key in item:
                del item[key]
        else:
            item[key] = value
        return self.with_document(doc)

    def _transform(self, piece: Piece, fn: Any) -> TrackDoc:
        """Apply ``fn`` (a function of a shapely geometry) to the piece's points."""
        doc = self.document()
        kind, _ = piece
        item = self._item(doc, piece)
        if kind == "gate":  # moved as a line, then its posts put back exactly a Long Straight apart
            line = fn(_line(_pt(item["post_a"]), _pt(item["post_b"])))
            (ax, ay), (bx, by) = list(line.coords)
            heading = math.degrees(math.atan2(bx - ax, -(by - ay)))
            a, b = gate_posts((ax + bx) / 2.0, (ay + by) / 2.0, heading, self.long_mm)
            item["post_a"] = [_r(a[0]), _r(a[1])]
            item["post_b"] = [_r(b[0]), _r(b[1])]
        elif kind == "line":
            line = fn(_line(_pt(item["a"]), _pt(item["b"])))
            (ax, ay), (bx, by) = list(line.coords)
            item["a"] = [_r(ax), _r(ay)]
            item["b"] = [_r(bx), _r(by)]
        elif "circle" in item:
            x, y, r = (float(v) for v in item["circle"])
            c = fn(Point(x, y))
            item["circle"] = [_r(c.x), _r(c.y), _r(r)]
        else:
            poly = fn(Polygon([_pt(p) for p in item["polygon"]]))
            item["polygon"] = _inline_points([(float(px), float(py)) for px, py in list(poly.exterior.coords)[:-1]])
        return self.with_document(doc)

    def move(self, piece: Piece, dx_mm: float, dy_mm: float) -> TrackDoc:
        """The piece moved by ``(dx_mm, dy_mm)``."""
        return self._transform(piece, lambda g: affinity.translate(g, dx_mm, dy_mm))

    def move_to(self, piece: Piece, x_mm: float, y_mm: float) -> TrackDoc:
        """The piece moved so its centre (:meth:`centre`) is at ``(x_mm, y_mm)``."""
        cx, cy = self.centre(piece)
        return self.move(piece, x_mm - cx, y_mm - cy)

    def rotate(self, piece: Piece, angle_deg: float) -> TrackDoc:
        """The piece turned ``angle_deg`` counter-clockwise about its centre (a gate's direction turns too)."""
        cx, cy = self.centre(piece)
        return self._transform(piece, lambda g: affinity.rotate(g, angle_deg, origin=(cx, cy)))

    def heading(self, piece: Piece) -> float:
        """A gate's direction of travel, a line's or shape's first edge direction (degrees)."""
        kind, i = piece
        item = self.pieces(kind)[i]
        if kind == "gate":
            (ax, ay), (bx, by) = _pt(item["post_a"]), _pt(item["post_b"])
            return math.degrees(math.atan2(bx - ax, -(by - ay))) % 360.0
        if kind == "line":
            (ax, ay), (bx, by) = _pt(item["a"]), _pt(item["b"])
        elif "circle" in item:
            return 0.0
        else:
            (ax, ay), (bx, by) = _pt(item["polygon"][0]), _pt(item["polygon"][1])
        return math.degrees(math.atan2(by - ay, bx - ax)) % 360.0

    def turn_to(self, piece: Piece, heading_deg: float) -> TrackDoc:
        """The piece turned so :meth:`heading` is ``heading_deg``."""
        return self.rotate(piece, heading_deg - self.heading(piece))

    def resize(self, piece: Piece, factor: float) -> TrackDoc:
        """A shape scaled by ``factor`` about its centre; a circle's radius; a gate's post radius (its posts
        stay a Long Straight apart); a line's length."""
        kind, _ = piece
        if kind == "gate":
            doc = self.document()
            item = self._item(doc, piece)
            r = float(item.get("post_radius_mm", 10.0)) * factor
            item["post_radius_mm"] = _r(min(max(r, 1.0), 60.0))
            return self.with_document(doc)
        doc = self.document()
        item = self._item(doc, piece)
        if "circle" in item and kind != "line":
            x, y, r = (float(v) for v in item["circle"])
            item["circle"] = [_r(x), _r(y), _r(max(r * factor, 0.5))]
            return self.with_document(doc)
        cx, cy = self.centre(piece)
        return self._transform(piece, lambda g: affinity.scale(g, factor, factor, origin=(cx, cy)))

    def size(self, piece: Piece) -> float:
        """A piece's size for numeric entry: a circle's radius, a gate's post radius, else the width of its
        bounding box (mm)."""
        kind, i = piece
        item = self.pieces(kind)[i]
        if kind == "gate":
            return float(item.get("post_radius_mm", 10.0))
        if "circle" in item:
            return float(item["circle"][2])
        if kind == "line":
            (ax, ay), (bx, by) = _pt(item["a"]), _pt(item["b"])
            return math.hypot(bx - ax, by - ay)
        x0, _, x1, _ = Polygon([_pt(p) for p in item["polygon"]]).bounds
        return float(x1 - x0)

    def write(self, path: Path) -> None:
        """Write the text to ``path`` atomically."""
        from simulator.atomic import write_text_atomic

        write_text_atomic(path, self.text)


def _line(a: tuple[float, float], b: tuple[float, float]) -> Any:
    from shapely.geometry import LineString

    return LineString([a, b])


def gate_posts(x_mm: float, y_mm: float, heading_deg: float, long_mm: float
               ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The posts of a gate centred at ``(x_mm, y_mm)`` passed towards ``heading_deg``: ``post_a`` on the left
    of the way through, ``post_b`` on the right, ``long_mm`` apart (so the left-hand normal of a -> b is the
    heading, p.124)."""
    rad = math.radians(heading_deg)
    dx, dy = math.cos(rad), math.sin(rad)
    lx, ly = -dy, dx  # the left of the way through
    h = long_mm / 2.0
    return (x_mm + lx * h, y_mm + ly * h), (x_mm - lx * h, y_mm - ly * h)


def rectangle(x_mm: float, y_mm: float, width_mm: float, height_mm: float) -> list[tuple[float, float]]:
    """The corners of an axis-aligned rectangle centred at ``(x_mm, y_mm)``, counter-clockwise."""
    w, h = width_mm / 2.0, height_mm / 2.0
    return [(x_mm - w, y_mm - h), (x_mm + w, y_mm - h), (x_mm + w, y_mm + h), (x_mm - w, y_mm + h)]


def new_track_text(example: Path | None = None) -> str:
    """The text a new track starts from: an example layout's file, or :data:`EMPTY_TRACK`."""
    return example.read_text(encoding="utf-8") if example is not None else EMPTY_TRACK
