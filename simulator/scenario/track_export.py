"""Printable track layouts: an A4 overview and the table at 1:1 tiled on A4 pages.

:func:`export_track` writes, for a scenario's table (gates, obstacles, surfaces,
start/finish lines; Death Race tracks p.124-128, terrain p.86-87):

``overview.svg``
    The whole table scaled to fit one A4 landscape page (297 x 210 mm): a grid
    every 100 mm with the table coordinates along the edges, every piece drawn
    and labelled (obstacle ids, gate numbers with their direction arrows, start
    and finish lines, surfaces by kind) and the tile index drawn over it.

``tile-A1.svg``, ``tile-A2.svg``, ...
    The table at 1:1 on A4 portrait pages (``width="210mm" height="297mm"
    viewBox="0 0 210 297"``, one user unit = one millimetre, as the template
    sheets of :mod:`simulator.scenario.svg_export`). Each page shows a
    ``TILE_W_MM`` x ``TILE_H_MM`` window of the table inside a ``MARGIN_MM``
    margin and above a footer band holding a 100 mm calibration ruler and the
    tile's name and table coordinates. Neighbouring tiles overlap by
    ``OVERLAP_MM`` (shaded strips carrying registration marks that appear on
    both pages); crop marks sit at the window's corners. Gate posts are circles
    of their true radius with a cross at the centre; gate lines are dashed with
    the direction arrow (the left-hand normal of post a -> post b, p.124).

Tiles are named like a chessboard seen from the table's bottom edge: the letter
is the column (A at the left, x = 0), the number the row (1 at the bottom,
y = 0), so ``A1`` holds the table's origin. Tile (i, j) shows table x from
``i * STEP_X_MM`` and y from ``j * STEP_Y_MM``. Every tile is written as SVG; a tile
with no piece on it is marked "empty" so the set is complete, and left out of the
PDF (nothing on it needs printing).

Output is deterministic (same input, byte-identical files); files are written
atomically and leftover ``tile-*.svg`` files of an older, larger set are
removed so the folder holds exactly one set.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from simulator.atomic import ExportFolder, write_text_atomic
from simulator.geometry.table import Gate, Table
from simulator.scenario.loader import Scenario
from simulator.scenario.svg_export import (
    _FONT,
    MARGIN_MM,
    SHEET_H_MM,
    SHEET_W_MM,
    _n,
    _path_d,
    _ruler_svg,
    _text,
    _text_mid,
)

OVERLAP_MM = 10.0
"""Table shared by neighbouring tiles (shaded on both pages)."""
FOOTER_BAND_MM = 22.0
"""Height above the bottom margin of a tile kept for the ruler and the footer."""
TILE_W_MM = SHEET_W_MM - 2 * MARGIN_MM
"""Width of the table window on a tile (190 mm)."""
TILE_H_MM = SHEET_H_MM - 2 * MARGIN_MM - FOOTER_BAND_MM
"""Height of the table window on a tile (255 mm)."""
STEP_X_MM = TILE_W_MM - OVERLAP_MM
"""Table x between the left edges of neighbouring tiles."""
STEP_Y_MM = TILE_H_MM - OVERLAP_MM
"""Table y between the bottom edges of neighbouring tiles."""
GRID_MM = 100.0
"""Spacing of the coordinate grid."""
OVERVIEW_W_MM = SHEET_H_MM
"""A4 landscape width of the overview."""
OVERVIEW_H_MM = SHEET_W_MM
"""A4 landscape height of the overview."""

_WIN = (MARGIN_MM, MARGIN_MM, MARGIN_MM + TILE_W_MM, MARGIN_MM + TILE_H_MM)  # window on a tile page
_CROP_GAP_MM = 2.0
_CROP_LEN_MM = 6.0
_REG_R_MM = 2.5
_ARROW_MM = 40.0
_TILE_NAME = re.compile(r"tile-[A-Z]+\d+\.svg")
_OURS = re.compile(r"overview\.svg|tile-[A-Z]+\d+\.svg|track\.pdf")
PDF_NAME = "track.pdf"
"""The overview and every tile in one PDF at 1:1, beside the SVG files (print with scaling off)."""
"""The files :func:`export_track` writes."""
_SURFACE_FILL = {"road": "url(#road)", "rough": "url(#rough)", "treacherous": "url(#treacherous)"}
_SURFACE_STROKE = {"road": "#666", "rough": "#8a6d2f", "treacherous": "#1f6fa8"}
_DEFS = (
    "<defs>"
    '<pattern id="rough" patternUnits="userSpaceOnUse" width="4" height="4">'
    '<rect width="4" height="4" fill="#f1e4c3"/><circle cx="1" cy="1" r="0.45" fill="#8a6d2f"/>'
    '<circle cx="3" cy="3" r="0.45" fill="#8a6d2f"/></pattern>'
    '<pattern id="treacherous" patternUnits="userSpaceOnUse" width="4" height="4">'
    '<rect width="4" height="4" fill="#dcecf7"/>'
    '<path d="M -1 1 L 1 -1 M 0 4 L 4 0 M 3 5 L 5 3" stroke="#1f6fa8" stroke-width="0.4"/></pattern>'
    '<pattern id="road" patternUnits="userSpaceOnUse" width="4" height="4">'
    '<rect width="4" height="4" fill="#e4e4e4"/></pattern>'
    '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4" markerHeight="4" '
    'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 Z" fill="#c00"/></marker>'
    "</defs>"
)

Mapper = Callable[[float, float], tuple[float, float]]


# --------------------------------------------------------------------------- tiling


def column_name(i: int) -> str:
    """Spreadsheet-style column letters: 0 -> A, 25 -> Z, 26 -> AA."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("A") + r) + out
    return out


def tile_counts(width_mm: float, height_mm: float) -> tuple[int, int]:
    """Columns and rows of tiles covering a ``width_mm`` x ``height_mm`` table with the overlap."""
    cols = max(1, math.ceil((width_mm - OVERLAP_MM) / STEP_X_MM - 1e-9))
    rows = max(1, math.ceil((height_mm - OVERLAP_MM) / STEP_Y_MM - 1e-9))
    return cols, rows


@dataclass(frozen=True)
class Tile:
    """One A4 page of the 1:1 layout: column ``i`` (from the left), row ``j`` (from the bottom)."""

    i: int
    j: int
    cols: int
    rows: int

    @property
    def name(self) -> str:
        """``A1`` for the lower-left tile (the table's origin)."""
        return f"{column_name(self.i)}{self.j + 1}"

    @property
    def x0_mm(self) -> float:
        """Table x at the window's left edge."""
        return self.i * STEP_X_MM

    @property
    def y0_mm(self) -> float:
        """Table y at the window's bottom edge."""
        return self.j * STEP_Y_MM

    @property
    def rect(self) -> Polygon:
        """The table window shown on this page, in the table frame."""
        return box(self.x0_mm, self.y0_mm, self.x0_mm + TILE_W_MM, self.y0_mm + TILE_H_MM)

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """A table point (mm, y up) to page millimetres (y down), 1:1."""
        return (_WIN[0] + x - self.x0_mm, _WIN[3] - (y - self.y0_mm))

    def neighbour(self, di: int, dj: int) -> Tile | None:
        """The tile ``di`` columns right and ``dj`` rows up, if there is one."""
        i, j = self.i + di, self.j + dj
        if 0 <= i < self.cols and 0 <= j < self.rows:
            return Tile(i, j, self.cols, self.rows)
        return None


def tiles_for(table: Table) -> list[Tile]:
    """Every tile of ``table`` in file order: A1, A2, ..., B1, ..."""
    cols, rows = tile_counts(table.width_mm, table.height_mm)
    return [Tile(i, j, cols, rows) for i in range(cols) for j in range(rows)]


# --------------------------------------------------------------------------- pieces


@dataclass(frozen=True)
class _Item:
    """Something drawn: its kind, id, the shape it covers on the table and its label lines."""

    kind: str  # "surface" | "obstacle" | "gate" | "line"
    id: str
    shape: BaseGeometry
    label: tuple[str, ...]


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _items(table: Table) -> list[_Item]:
    out = [_Item("surface", s.id, s.polygon, (s.id, f"{s.kind} surface")) for s in table.surfaces]
    for o in table.obstacles:
        traits = [o.weight] + (["tall"] if o.tall else []) + (["destructible"] if o.destructible else []) + (
            ["volatile"] if o.volatile else [])
        first = f"{o.id} ({o.label})" if o.label else o.id
        out.append(_Item("obstacle", o.id, o.polygon, (first, ", ".join(traits))))
    for g in table.gates:
        posts = g.posts()
        shape = posts[0].polygon.union(posts[1].polygon).union(g.line).union(_arrow_line(g).buffer(3.0))
        out.append(_Item("gate", g.id, shape, (f"gate {g.number}", g.id)))
    for ln in table.lines:
        out.append(_Item("line", ln.id, ln.segment, (f"{ln.kind.upper()} line", ln.id)))
    for r in table.ramps:
        out.append(_Item("ramp", r.id, r.polygon, (f"{r.name} (ramp)", f"entry edge {r.entry_edge}")))
    return out


def _arrow_line(g: Gate) -> LineString:
    """From the gate's centre, ``_ARROW_MM`` along the correct direction of travel."""
    (ax, ay), (bx, by) = g.post_a, g.post_b
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = g.direction
    return LineString([(mx, my), (mx + dx * _ARROW_MM, my + dy * _ARROW_MM)])


def _pts(geom: Polygon, to_page: Mapper) -> str:
    d = _path_d([to_page(x, y) for x, y in geom.exterior.coords[:-1]])
    for ring in geom.interiors:
        d += " " + _path_d([to_page(x, y) for x, y in ring.coords[:-1]])
    return d


def _seg(a: tuple[float, float], b: tuple[float, float]) -> str:
    return f"M {_n(a[0])} {_n(a[1])} L {_n(b[0])} {_n(b[1])}"


def _label_spot(shape: BaseGeometry, window: Polygon | None) -> tuple[float, float] | None:
    """Where a label of ``shape`` goes (table frame): inside its visible part if it has area."""
    part = shape if window is None else shape.intersection(window)
    if part.is_empty:
        return None
    if isinstance(part, Polygon) and part.area > 0:
        p = polylabel(part, tolerance=0.5)
        return (p.x, p.y)
    if part.geom_type == "MultiPolygon":
        biggest = max(part.geoms, key=lambda g: (g.area, g.bounds))
        p = polylabel(biggest, tolerance=0.5)
        return (p.x, p.y)
    c = part.centroid
    return (c.x, c.y)


def _halo(text_el: str) -> str:
    """A ``<text>`` element with a white outline under the glyphs, readable over any fill."""
    return text_el.replace("<text ", '<text stroke="#fff" stroke-width="0.6" stroke-linejoin="round" '
                           'paint-order="stroke" ', 1)


def _label_block(x: float, y: float, lines: Sequence[str], size: float, fill: str = "#111",
                 halo: bool = True, within: tuple[float, float, float, float] | None = None) -> list[str]:
    """Lines of text centred on page point (x, y), the first bold, with a white halo.

    ``within`` (page x0, y0, x1, y1): the block is shifted to lie inside it, so it is not cut off.
    """
    out = []
    sizes = [size] + [size * 0.75] * (len(lines) - 1)
    total = sum(s * 1.2 for s in sizes)
    if within is not None:
        if not (within[0] <= x <= within[2] and within[1] <= y <= within[3]):
            return []
        half_w = max(len(t) * s * (0.66 if s == size else 0.6) for t, s in zip(lines, sizes, strict=True)) / 2
        x = min(max(x, within[0] + half_w + 1.0), within[2] - half_w - 1.0)
        y = min(max(y, within[1] + total / 2 + 1.0), within[3] - total / 2 - 1.0)
    top = y - total / 2
    for text, s in zip(lines, sizes, strict=True):
        mid = top + s * 0.6
        el = _text_mid(x, mid, text, s, bold=s == size, fill=fill)
        out.append(_halo(el) if halo else el)
        top += s * 1.2
    return out


def _surface_svg(table: Table, to_page: Mapper, stroke_w: float) -> list[str]:
    out = []
    for s in table.surfaces:
        title = f"{s.id}: {s.kind} surface (p.86)"
        out.append(f'<g class="surface surface-{s.kind}" id="surface-{s.id}"><title>{escape(title)}</title>'
                   f'<path fill="{_SURFACE_FILL[s.kind]}" stroke="{_SURFACE_STROKE[s.kind]}" '
                   f'stroke-width="{_n(stroke_w)}" stroke-dasharray="{_n(stroke_w * 6)} {_n(stroke_w * 3)}" '
                   f'd="{_pts(s.polygon, to_page)}"/></g>')
    return out


def _obstacle_svg(table: Table, to_page: Mapper, stroke_w: float) -> list[str]:
    out = []
    for o in table.obstacles:
        title = f"{o.id}: {o.label or 'obstacle'}, {o.weight}" + (", tall" if o.tall else "") + (
            ", destructible" if o.destructible else "") + (", volatile" if o.volatile else "")
        fill = "#b8b8b8" if o.tall else "#d6d6d6"
        out.append(f'<g class="obstacle" id="obstacle-{o.id}"><title>{escape(title)}</title>'
                   f'<path fill="{fill}" stroke="#000" stroke-width="{_n(stroke_w)}" stroke-linejoin="round" '
                   f'd="{_pts(o.polygon, to_page)}"/></g>')
    return out


def _ramp_svg(table: Table, to_page: Mapper, stroke_w: float) -> list[str]:
    """Ramps (p.87): the outline, the entry edge drawn thick and dashed (drive up it), the other edges solid."""
    out = []
    for r in table.ramps:
        title = f"{r.id}: ramp, entry edge {r.entry_edge} (p.87)"
        (ax, ay), (bx, by) = (to_page(*p) for p in r.entry)
        out.append(f'<g class="ramp" id="ramp-{r.id}"><title>{escape(title)}</title>'
                   f'<path fill="#e8dcc8" stroke="#000" stroke-width="{_n(stroke_w * 2)}" stroke-linejoin="round" '
                   f'd="{_pts(r.polygon, to_page)}"/>'
                   f'<path fill="none" stroke="#2a8a3a" stroke-width="{_n(stroke_w * 5)}" '
                   f'stroke-dasharray="{_n(stroke_w * 8)} {_n(stroke_w * 4)}" '
                   f'd="M {_n(ax)} {_n(ay)} L {_n(bx)} {_n(by)}"/></g>')
    return out


def _lines_svg(table: Table, to_page: Mapper, width: float) -> list[str]:
    out = []
    for ln in table.lines:
        colour = "#0a7d2c" if ln.kind == "start" else "#7a1fa2"
        title = f"{ln.id}: {ln.kind} line from ({_fmt(ln.a[0])}, {_fmt(ln.a[1])}) to ({_fmt(ln.b[0])}, {_fmt(ln.b[1])})"
        a, b = to_page(*ln.a), to_page(*ln.b)
        out.append(f'<g class="line line-{ln.kind}" id="line-{ln.id}"><title>{escape(title)}</title>'
                   f'<path fill="none" stroke="{colour}" stroke-width="{_n(width)}" stroke-linecap="butt" '
                   f'd="{_seg(a, b)}"/>'
                   f'<path fill="none" stroke="#fff" stroke-width="{_n(width * 0.34)}" '
                   f'stroke-dasharray="{_n(width)} {_n(width)}" d="{_seg(a, b)}"/></g>')
    return out


def _gates_svg(table: Table, to_page: Mapper, scale: float, full_posts: bool) -> list[str]:
    """Gates: dashed line between the post centres, the direction arrow, the posts (with centre crosses)."""
    out = []
    for g in table.gates:
        pa, pb = to_page(*g.post_a), to_page(*g.post_b)
        arrow = _arrow_line(g)
        (sx, sy), (ex, ey) = (to_page(*c) for c in arrow.coords)
        title = (f"gate {g.number} ({g.id}): post a ({_fmt(g.post_a[0])}, {_fmt(g.post_a[1])}), post b "
                 f"({_fmt(g.post_b[0])}, {_fmt(g.post_b[1])}), posts {_fmt(g.post_radius_mm)} mm radius; "
                 "pass in the arrow's direction (p.124)")
        lw = max(0.25, 1.0 * scale)
        out.append(f'<g class="gate" id="gate-{g.id}"><title>{escape(title)}</title>')
        out.append(f'<path class="gate-line" fill="none" stroke="#c00" stroke-width="{_n(lw)}" '
                   f'stroke-dasharray="{_n(max(1.0, 6 * scale))} {_n(max(0.8, 4 * scale))}" d="{_seg(pa, pb)}"/>')
        out.append(f'<path class="gate-arrow" fill="none" stroke="#c00" stroke-width="{_n(max(0.35, 1.5 * scale))}" '
                   f'marker-end="url(#arrow)" d="{_seg((sx, sy), (ex, ey))}"/>')
        r = g.post_radius_mm * scale
        for which, (cx, cy) in (("post_a", pa), ("post_b", pb)):
            out.append(f'<circle class="gate-post" id="{escape(g.id)}.{which}" cx="{_n(cx)}" cy="{_n(cy)}" '
                       f'r="{_n(r)}" fill="#ffd9d9" stroke="#c00" stroke-width="{_n(max(0.2, 0.5 * scale))}"/>')
            if full_posts:
                arm = r + 3.0
                out.append(f'<path class="post-centre" fill="none" stroke="#000" stroke-width="0.2" '
                           f'd="{_seg((cx - arm, cy), (cx + arm, cy))} {_seg((cx, cy - arm), (cx, cy + arm))}"/>')
        out.append("</g>")
    return out


# --------------------------------------------------------------------------- tiles


def _crop_marks() -> list[str]:
    x0, y0, x1, y1 = _WIN
    d = []
    for cx, sx in ((x0, -1), (x1, 1)):
        for cy, sy in ((y0, -1), (y1, 1)):
            d.append(_seg((cx + sx * _CROP_GAP_MM, cy), (cx + sx * (_CROP_GAP_MM + _CROP_LEN_MM), cy)))
            d.append(_seg((cx, cy + sy * _CROP_GAP_MM), (cx, cy + sy * (_CROP_GAP_MM + _CROP_LEN_MM))))
    return [f'<path class="crop-marks" fill="none" stroke="#000" stroke-width="0.2" d="{" ".join(d)}"/>']


def _registration_points(tile: Tile) -> list[tuple[float, float]]:
    """Table points of the registration marks in this tile's overlap strips (shared with the neighbours)."""
    pts = []
    x0, y0 = tile.x0_mm, tile.y0_mm
    h = OVERLAP_MM / 2
    for di, x in ((-1, x0 + h), (1, x0 + TILE_W_MM - h)):
        if tile.neighbour(di, 0) is not None:
            pts += [(x, y0 + TILE_H_MM * 0.25), (x, y0 + TILE_H_MM * 0.75)]
    for dj, y in ((-1, y0 + h), (1, y0 + TILE_H_MM - h)):
        if tile.neighbour(0, dj) is not None:
            pts += [(x0 + TILE_W_MM * 0.25, y), (x0 + TILE_W_MM * 0.75, y)]
    return pts


def _overlap_svg(tile: Tile) -> list[str]:
    x0, y0, x1, y1 = _WIN
    out = ['<g class="overlap">']
    strips = (
        ((-1, 0), (x0, y0, x0 + OVERLAP_MM, y1)),
        ((1, 0), (x1 - OVERLAP_MM, y0, x1, y1)),
        ((0, 1), (x0, y0, x1, y0 + OVERLAP_MM)),
        ((0, -1), (x0, y1 - OVERLAP_MM, x1, y1)),
    )
    for (di, dj), (a, b, c, d) in strips:
        if tile.neighbour(di, dj) is not None:
            out.append(f'<rect x="{_n(a)}" y="{_n(b)}" width="{_n(c - a)}" height="{_n(d - b)}" '
                       'fill="#3b7dd8" fill-opacity="0.10"/>')
    for x, y in _registration_points(tile):
        px, py = tile.to_page(x, y)
        r = _REG_R_MM
        out.append(f'<g class="registration"><circle cx="{_n(px)}" cy="{_n(py)}" r="{_n(r)}" fill="none" '
                   f'stroke="#000" stroke-width="0.2"/><path fill="none" stroke="#000" stroke-width="0.2" '
                   f'd="{_seg((px - r - 1.5, py), (px + r + 1.5, py))} {_seg((px, py - r - 1.5), (px, py + r + 1.5))}"/>'
                   "</g>")
    out.append("</g>")
    return out


def _neighbour_notes(tile: Tile) -> list[str]:
    x0, y0, x1, y1 = _WIN
    out = []
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    for (di, dj), (x, y, ang, fmt) in (
        ((0, 1), (mx, y0 - 4.0, 0.0, "↑ above: tile {}")),
        ((0, -1), (mx, y1 + 4.5, 0.0, "↓ below: tile {}")),
        ((-1, 0), (x0 - 4.0, my, -90.0, "left: tile {}")),
        ((1, 0), (x1 + 4.0, my, 90.0, "right: tile {}")),
    ):
        n = tile.neighbour(di, dj)
        if n is not None:
            out.append(_text_mid(x, y, fmt.format(n.name), 2.6, ang, fill="#3b5f9a"))
    return out


def _grid_svg(tile: Tile, table: Table) -> tuple[list[str], list[str]]:
    """Grid lines every 100 mm over the table, and their table-coordinate labels (drawn on top)."""
    wx0, wy0, wx1, wy1 = tile.x0_mm, tile.y0_mm, tile.x0_mm + TILE_W_MM, tile.y0_mm + TILE_H_MM
    tx1, ty1 = min(wx1, table.width_mm), min(wy1, table.height_mm)
    inset = OVERLAP_MM + 1.5  # labels clear of the overlap strips and their marks
    d = []
    labels = ['<g class="grid-labels">']
    for k in range(math.ceil(wx0 / GRID_MM), math.floor(tx1 / GRID_MM) + 1):
        x = k * GRID_MM
        if wy0 < ty1:
            d.append(_seg(tile.to_page(x, wy0), tile.to_page(x, ty1)))
            px, py = tile.to_page(x, wy0 + inset)
            labels.append(_halo(_text_mid(px + 0.8, py, f"x {_fmt(x)}", 2.4, anchor="start", bold=True,
                                          fill="#4d6a8f")))
    for k in range(math.ceil(wy0 / GRID_MM), math.floor(ty1 / GRID_MM) + 1):
        y = k * GRID_MM
        if wx0 < tx1:
            d.append(_seg(tile.to_page(wx0, y), tile.to_page(tx1, y)))
            px, py = tile.to_page(wx0 + inset, y)
            labels.append(_halo(_text(px, py - 1.0, f"y {_fmt(y)}", 2.4, anchor="start", bold=True,
                                      fill="#4d6a8f")))
    labels.append("</g>")
    lines = [f'<path class="grid" fill="none" stroke="#9fb3cc" stroke-width="0.2" d="{" ".join(d)}"/>'] if d else []
    return lines, labels


def _off_table_svg(tile: Tile, table: Table) -> list[str]:
    """Grey out the part of the window beyond the table, and draw the table's edge."""
    window = tile.rect
    off = window.difference(table.area)
    out = []
    parts = [off] if isinstance(off, Polygon) else list(getattr(off, "geoms", []))
    for p in parts:
        if p.area > 1e-6:
            out.append(f'<path class="off-table" fill="#e9e9e9" d="{_pts(p, tile.to_page)}"/>')
            lx, ly = tile.to_page(*_label_spot(p, None) or (0.0, 0.0))
            out.append(_text_mid(lx, ly, "off the table", 3.0, fill="#999"))
    edge = table.area.exterior.intersection(window)
    if not edge.is_empty:
        segs = [edge] if edge.geom_type == "LineString" else [g for g in getattr(edge, "geoms", []) if
                                                              g.geom_type == "LineString"]
        d = " ".join(_seg(tile.to_page(*s.coords[0]), tile.to_page(*s.coords[-1])) for s in segs if s.length > 0)
        if d:
            out.append(f'<path class="table-edge" fill="none" stroke="#000" stroke-width="0.8" d="{d}"/>')
    return out


def _tile_labels(tile: Tile, items: Iterable[_Item]) -> list[str]:
    out = []
    window = tile.rect.buffer(-4.0)
    for it in items:
        if it.kind == "gate":
            continue
        spot = _label_spot(it.shape, window)
        if spot is None:
            continue
        px, py = tile.to_page(*spot)
        out += _label_block(px, py, it.label, 3.2, within=_WIN)
    return out


def _gate_labels(table: Table, to_page: Mapper, size: float, offset_mm: float, scale: float,
                 within: tuple[float, float, float, float] | None = None) -> list[str]:
    """``gate N`` beside each gate, on the side it is entered from (behind the arrow)."""
    out = []
    for g in table.gates:
        (ax, ay), (bx, by) = g.post_a, g.post_b
        dx, dy = g.direction
        mx, my = (ax + bx) / 2 - dx * offset_mm / scale, (ay + by) / 2 - dy * offset_mm / scale
        px, py = to_page(mx, my)
        out += _label_block(px, py, (f"gate {g.number}",), size, fill="#c00", within=within)
    return out


def _post_notes(table: Table, tile: Tile) -> list[str]:
    """Each post's centre as table coordinates, beside the post."""
    out = []
    for g in table.gates:
        for which, (x, y) in (("a", g.post_a), ("b", g.post_b)):
            if not tile.rect.contains(box(x - 1, y - 1, x + 1, y + 1)):
                continue
            px, py = tile.to_page(x, y)
            out += _label_block(px, py + g.post_radius_mm + 5.0,
                                (f"gate {g.number} post {which}", f"centre x {_fmt(x)}  y {_fmt(y)}"), 2.6,
                                within=_WIN)
    return out


def _tile_svg(scenario_name: str, table: Table, tile: Tile, items: list[_Item]) -> tuple[str, bool]:
    w, h = _n(SHEET_W_MM), _n(SHEET_H_MM)
    rect = tile.rect
    empty = not any(it.shape.intersects(rect) for it in items)
    x0, y0, x1, y1 = _WIN
    tx0, ty0 = tile.x0_mm, tile.y0_mm
    coords = f"table x {_fmt(tx0)}–{_fmt(tx0 + TILE_W_MM)} mm, y {_fmt(ty0)}–{_fmt(ty0 + TILE_H_MM)} mm"
    title = f"{scenario_name}: tile {tile.name} of {tile.cols * tile.rows} (1:1), {coords}"
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}" '
        f'font-family="{_FONT}" data-tile="{tile.name}" data-empty="{"true" if empty else "false"}">',
        f"<title>{escape(title)}</title>",
        _DEFS,
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="#fff"/>',
        f'<clipPath id="window"><rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(TILE_W_MM)}" '
        f'height="{_n(TILE_H_MM)}"/></clipPath>',
        '<g clip-path="url(#window)">',
    ]
    out += _off_table_svg(tile, table)
    grid_lines, grid_labels = _grid_svg(tile, table)
    out += grid_lines
    out += _surface_svg(table, tile.to_page, 0.4)
    out += _ramp_svg(table, tile.to_page, 0.4)
    out += _obstacle_svg(table, tile.to_page, 0.4)
    out += _lines_svg(table, tile.to_page, 3.0)
    out += _gates_svg(table, tile.to_page, 1.0, full_posts=True)
    out += _overlap_svg(tile)
    out += grid_labels
    out += _tile_labels(tile, items)
    out += _gate_labels(table, tile.to_page, 4.0, 18.0, 1.0, within=_WIN)
    out += _post_notes(table, tile)
    if empty:
        out.append(_text_mid((x0 + x1) / 2, (y0 + y1) / 2, "empty", 16.0, bold=True, fill="#d0d0d0"))
        out.append(_text_mid((x0 + x1) / 2, (y0 + y1) / 2 + 12.0, "(nothing on this part of the table)", 4.0,
                             fill="#b0b0b0"))
    out.append("</g>")
    out.append(f'<rect class="window" x="{_n(x0)}" y="{_n(y0)}" width="{_n(TILE_W_MM)}" height="{_n(TILE_H_MM)}" '
               'fill="none" stroke="#9a9a9a" stroke-width="0.15"/>')
    out += _crop_marks()
    out += _neighbour_notes(tile)
    bottom = SHEET_H_MM - MARGIN_MM
    out.extend(_ruler_svg(MARGIN_MM, bottom - 9.5))
    out.append('<g class="footer">')
    tag = " · EMPTY" if empty else ""
    out.append(_text(MARGIN_MM, bottom - 3.3,
                     f"{scenario_name} · tile {tile.name}{tag} (column {column_name(tile.i)} of "
                     f"{column_name(tile.cols - 1)}, row {tile.j + 1} of {tile.rows}) · {coords}",
                     2.6, anchor="start", bold=True))
    out.append(_text(MARGIN_MM, bottom,
                     f"Print at 100% / actual size (no “fit to page”). Trim on the crop marks; neighbours overlap "
                     f"{_fmt(OVERLAP_MM)} mm (blue strips): align the ⊕ marks, tape. A1 = table origin (lower left).",
                     2.2, anchor="start"))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n", empty


# --------------------------------------------------------------------------- overview


def _overview_svg(scenario_name: str, table: Table, tiles: list[Tile], items: list[_Item]) -> str:
    w, h = _n(OVERVIEW_W_MM), _n(OVERVIEW_H_MM)
    cols, rows = tiles[0].cols, tiles[0].rows
    ext_w = max(table.width_mm, (cols - 1) * STEP_X_MM + TILE_W_MM)
    ext_h = max(table.height_mm, (rows - 1) * STEP_Y_MM + TILE_H_MM)
    ax0, ay0, ax1, ay1 = MARGIN_MM + 9.0, MARGIN_MM + 9.0, OVERVIEW_W_MM - MARGIN_MM - 2.0, OVERVIEW_H_MM - MARGIN_MM - 16.0
    s = min((ax1 - ax0) / ext_w, (ay1 - ay0) / ext_h)
    ox = ax0 + ((ax1 - ax0) - ext_w * s) / 2
    oy = ay1  # table y = 0 at the bottom of the drawing area

    def to_page(x: float, y: float) -> tuple[float, float]:
        return (ox + x * s, oy - y * s)

    title = (f"{scenario_name}: track overview, {_fmt(table.width_mm)} × {_fmt(table.height_mm)} mm table, "
             f"scale 1:{s and 1 / s:.1f}")
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}" '
        f'font-family="{_FONT}">',
        f"<title>{escape(title)}</title>",
        _DEFS,
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="#fff"/>',
        _text(MARGIN_MM, MARGIN_MM + 3.0, f"{scenario_name} — track overview", 5.0, anchor="start", bold=True),
        _text(OVERVIEW_W_MM - MARGIN_MM, MARGIN_MM + 3.0,
              f"table {_fmt(table.width_mm)} × {_fmt(table.height_mm)} mm · scale 1:{1 / s:.1f} (not for measuring)",
              3.0, anchor="end"),
    ]
    x0p, y1p = to_page(0, 0)
    x1p, y0p = to_page(table.width_mm, table.height_mm)
    out.append(f'<rect class="table" x="{_n(x0p)}" y="{_n(y0p)}" width="{_n(x1p - x0p)}" height="{_n(y1p - y0p)}" '
               'fill="#fbfaf5"/>')
    # grid every 100 mm with coordinates along the edges
    d, labels = [], []
    for k in range(int(table.width_mm // GRID_MM) + 1):
        x = k * GRID_MM
        px, _ = to_page(x, 0)
        d.append(_seg((px, y0p), (px, y1p)))
        if k % (1 if GRID_MM * s >= 9 else 2) == 0:
            labels.append(_text(px, y1p + 3.2, _fmt(x), 2.2, fill="#445"))
    for k in range(int(table.height_mm // GRID_MM) + 1):
        y = k * GRID_MM
        _, py = to_page(0, y)
        d.append(_seg((x0p, py), (x1p, py)))
        labels.append(_text_mid(x0p - 1.2, py, _fmt(y), 2.2, anchor="end", fill="#445"))
    out.append(f'<path class="grid" fill="none" stroke="#c5d0de" stroke-width="0.15" d="{" ".join(d)}"/>')
    out += labels
    out.append(_text(x1p, y1p + 6.6, "x (mm) →", 2.2, anchor="end", fill="#445"))
    out.append(_text_mid(x0p - 7.0, y1p, "y (mm) →", 2.2, -90.0, anchor="start", fill="#445"))
    out += _surface_svg(table, to_page, 0.2)
    out += _ramp_svg(table, to_page, 0.2)
    out += _obstacle_svg(table, to_page, 0.2)
    out += _lines_svg(table, to_page, max(0.8, 6.0 * s))
    out += _gates_svg(table, to_page, s, full_posts=False)
    out.append(f'<rect class="table-edge" x="{_n(x0p)}" y="{_n(y0p)}" width="{_n(x1p - x0p)}" '
               f'height="{_n(y1p - y0p)}" fill="none" stroke="#000" stroke-width="0.4"/>')
    # tile index, drawn over the table
    out.append('<g class="tile-index">')
    for t in tiles:
        a = to_page(t.x0_mm, t.y0_mm + TILE_H_MM)
        b = to_page(t.x0_mm + TILE_W_MM, t.y0_mm)
        out.append(f'<rect class="tile" data-tile="{t.name}" x="{_n(a[0])}" y="{_n(a[1])}" width="{_n(b[0] - a[0])}" '
                   f'height="{_n(b[1] - a[1])}" fill="none" stroke="#3b7dd8" stroke-opacity="0.6" '
                   'stroke-width="0.25" stroke-dasharray="1.2 0.8"/>')
        out.append(_text(a[0] + 1.0, b[1] - 1.0, t.name, 2.8, anchor="start", bold=True, fill="#3b7dd8")
                   .replace("<text ", '<text fill-opacity="0.75" ', 1))
    out.append("</g>")
    # labels last, so they read over everything
    for it in items:
        if it.kind == "gate":
            continue
        spot = _label_spot(it.shape, None)
        assert spot is not None
        px, py = to_page(*spot)
        minx, miny, maxx, maxy = it.shape.bounds
        text = it.label[0] if it.kind != "surface" else f"{it.id} ({it.label[1].split()[0]})"
        big = (maxx - minx) * s > len(text) * 1.3 and (maxy - miny) * s > 3.0
        if not big:  # too small to hold its label: put it just above the piece
            px, py = to_page((minx + maxx) / 2, maxy)
            py -= 2.0
        out += _label_block(px, py, (text,), 2.0)
    out += _gate_labels(table, to_page, 2.6, 5.5, s)
    # footer: legend and the tile set
    legend_y = OVERVIEW_H_MM - MARGIN_MM - 4.0
    n = len(tiles)
    out.append(_text(MARGIN_MM, legend_y,
                     f"{n} tiles, A4 portrait at 1:1: columns A–{column_name(cols - 1)} (left to right) × rows "
                     f"1–{rows} (bottom to top), {_fmt(OVERLAP_MM)} mm overlap; each tile shows "
                     f"{_fmt(TILE_W_MM)} × {_fmt(TILE_H_MM)} mm of table. Print the tiles at 100% / actual size.",
                     2.4, anchor="start"))
    out.append(_text(MARGIN_MM, legend_y + 4.0,
                     "Legend: grey = obstacle (darker = tall) · red dashed line, circles = gate and posts, arrow = "
                     "direction of travel (p.124) · green/purple bars = start/finish line · dotted = rough, "
                     "hatched = treacherous surface · grid every 100 mm",
                     2.2, anchor="start", fill="#333"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- files


@dataclass(frozen=True)
class TrackExport:
    """What :func:`export_track` wrote."""

    overview: Path
    tiles: list[Path]
    empty: list[str]
    cols: int
    rows: int
    pdf: Path | None = None
    """The overview and every tile with something on it as one PDF at 1:1 (the empty tiles are left out)."""


def render_track(scenario: Scenario) -> tuple[str, dict[str, str], list[str]]:
    """The overview SVG, ``{tile name: SVG}`` in order, and the names of empty tiles."""
    table = scenario.table
    name = scenario.name
    tiles = tiles_for(table)
    items = _items(table)
    pages: dict[str, str] = {}
    empty: list[str] = []
    for t in tiles:
        text, is_empty = _tile_svg(name, table, t, items)
        pages[t.name] = text
        if is_empty:
            empty.append(t.name)
    return _overview_svg(name, table, tiles, items), pages, empty


def export_track(scenario: Scenario, out_dir: Path) -> TrackExport:
    """Write ``overview.svg`` and ``tile-<name>.svg`` for every tile of the scenario's table into ``out_dir``.

    ``out_dir`` is created if missing (its parent must exist); every file is
    written atomically. Only files this command wrote are touched: the folder
    keeps a list of them (:data:`~simulator.atomic.MANIFEST`), tiles of an
    earlier export that are not in this set are removed, and a folder holding
    any other file is refused. Raises
    :class:`~simulator.errors.InputFileError` naming ``-o`` when the folder is a
    file, holds other files or has no parent folder; ``OSError`` when writing
    fails.
    """
    overview, pages, empty = render_track(scenario)
    folder = ExportFolder(out_dir, "track", _OURS, 'data-tile="', ": track overview, ")
    folder.prepare()
    ov = folder.folder / "overview.svg"
    write_text_atomic(ov, overview)
    paths = []
    for tname, text in pages.items():
        p = folder.folder / f"tile-{tname}.svg"
        write_text_atomic(p, text)
        paths.append(p)
    from simulator.scenario.pdf_export import svgs_to_pdf

    printed = [p for p in paths if p.stem.removeprefix("tile-") not in empty]
    pdf = svgs_to_pdf([ov, *printed], folder.folder / PDF_NAME, f"{scenario.name}: track overview and 1:1 tiles")
    folder.finish([ov, *paths, pdf])
    cols, rows = tile_counts(scenario.table.width_mm, scenario.table.height_mm)
    return TrackExport(ov, paths, empty, cols, rows, pdf)


__all__ = ["OVERLAP_MM", "STEP_X_MM", "STEP_Y_MM", "TILE_H_MM", "TILE_W_MM", "Tile", "TrackExport",
           "column_name", "export_track", "render_track", "tile_counts", "tiles_for"]
