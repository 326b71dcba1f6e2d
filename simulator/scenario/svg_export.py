"""Printable 1:1 SVG sheets of a template set (issue 2 item 7).

:func:`export_templates` draws the nine movement templates, the Slide template
and the six shooting templates (p.16-18, p.27; GEOMETRY.md 1) on A4 portrait
sheets whose user unit is one millimetre (``width="210mm" height="297mm"
viewBox="0 0 210 297"``), so printed at 100 % / actual size every template is
exactly its real size. Each template is one ``<path>`` of plain absolute
``M x y L x y ... Z`` data in millimetres, rounded to 0.001 mm, with
``id="movement-<name>"``, ``id="slide"`` or ``id="shooting-<name>"`` (split
parts: ``id="shooting-double-part-1"``), ``class="template"``; it carries its
full label in a ``<title>``.

On a template: its name, permitted gears (``1T`` = Trivial, ``4H`` =
Hazardous; p.18, FAQ v1.2) and dimensions; a shaded bar along the start
(near) edge; a tick on the edge at the Slide Exit Point (p.17, p.24). On each
sheet: a 100 mm calibration ruler and a footer with the set's name and version.
Templates are drawn right-hand (the left-hand version is the mirror image,
p.16: use the template face down). A template longer than the printable area
(the 302 mm Double) is split across parts; the Double is Medium and Long end to
end (p.27), so it is split into those two.

Packing is a deterministic bottom-left fill on a 1 mm grid using the real
outlines (so curved templates nest), rotations in steps of 90 deg, 3 mm
clearance for cutting, 10 mm page margin; output is byte-for-byte reproducible.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import affinity
from shapely.geometry import LineString, Polygon, box

from simulator.atomic import ExportFolder, write_text_atomic
from simulator.errors import InputFileError, Problem
from simulator.geometry.templates import MovementTemplate, Permission, ShootingTemplate, TemplateSet

SHEET_W_MM = 210.0
"""A4 portrait width."""
SHEET_H_MM = 297.0
"""A4 portrait height."""
MARGIN_MM = 10.0
"""Blank margin on every side of the sheet."""
FOOTER_BAND_MM = 26.0
"""Height above the bottom margin kept for the ruler and footer."""
CLEARANCE_MM = 3.0
"""Smallest gap between two templates, for cutting them out."""
GRID_MM = 1.0
"""Packing grid: templates are placed at whole-millimetre offsets."""
RULER_MM = 100.0
"""Length of the calibration ruler on each sheet."""

_AREA = (MARGIN_MM, MARGIN_MM, SHEET_W_MM - MARGIN_MM, SHEET_H_MM - MARGIN_MM - FOOTER_BAND_MM)
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_EDGE_BAR_MM = 2.0
_TICK_MM = 6.0
_SHEET_NAME = re.compile(r"sheet-(\d+)\.svg|templates\.pdf")
PDF_NAME = "templates.pdf"
"""Every sheet in one PDF at 1:1, beside the SVG sheets (print with scaling off)."""


# --------------------------------------------------------------------------- pieces


@dataclass(frozen=True)
class _Line:
    text: str
    scale: float  # relative to the block's font size
    bold: bool = False


@dataclass(frozen=True)
class _Mark:
    """An edge note: a line (shaded bar or dashed join) plus a short text along it."""

    kind: str  # "start" | "join"
    a: tuple[float, float]
    b: tuple[float, float]
    text: str


@dataclass
class _Piece:
    """One outline to print, in the drawing frame (mm, y down, start edge at x = 0)."""

    key: str
    title: str
    polygon: Polygon
    lines: tuple[_Line, ...]
    spots: tuple[tuple[float, float, float], ...]  # label candidates: x, y, angle (deg, y down)
    marks: tuple[_Mark, ...] = ()
    tick: tuple[tuple[float, float], tuple[float, float]] | None = None  # exit point, inward unit
    font_mm: float = 5.0
    label_at: tuple[float, float, float] | None = None


def _flip(geom: Polygon) -> Polygon:
    """Local frame (y left, GEOMETRY.md 1) to drawing frame (y down): mirror y."""
    out = affinity.scale(geom, 1.0, -1.0, origin=(0.0, 0.0))
    assert isinstance(out, Polygon)
    return out


def _gears_text(t: MovementTemplate) -> str:
    """``"gears 1T 2 3 4H"``: permitted gears, T = Trivial, H = Hazardous (p.18)."""
    parts = []
    for g in t.permitted_gears:
        p = t.permission(g)
        parts.append(f"{g}{'T' if p is Permission.TRIVIAL else 'H' if p is Permission.HAZARDOUS else ''}")
    return "gears " + " ".join(parts) if parts else "not permitted in any gear"


def _fmt_mm(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _movement_dims(t: MovementTemplate) -> str:
    if t.shape == "straight":
        assert t.length_mm is not None
        dims = f"{_fmt_mm(t.length_mm)} × {_fmt_mm(t.width_mm)} mm"
    elif t.shape == "arc":
        assert t.radius_mm is not None and t.sweep_deg is not None
        dims = f"radius {_fmt_mm(t.radius_mm)} mm, {_fmt_mm(t.sweep_deg)}°"
    else:
        assert t.radius_mm is not None and t.sweep_deg is not None
        dims = f"2 arcs, radius {_fmt_mm(t.radius_mm)} mm, {_fmt_mm(t.sweep_deg)}° each"
    if any("provisional" in v.lower() for v in t.provenance.values()):
        dims += " (provisional)"
    return dims


def _movement_piece(t: MovementTemplate) -> _Piece:
    title = f"{t.label} — {_gears_text(t)}"
    hw = t.width_mm / 2.0
    total = t.centre_length_mm
    spots = []
    for f in (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74):
        p = t.centre_line.pose_at(total * f)
        for off in (0.0, -4.0, 4.0, -8.0, 8.0):
            x, y = p.offset(0.0, off)
            spots.append((x, -y, -p.heading_deg))
    at, slide_deg = t.slide_exit
    ex, ey = t.slide_exit_point()
    inward = math.radians(slide_deg + 180.0)
    tick = ((ex, -ey), (math.cos(inward), -math.sin(inward)))
    return _Piece(
        key=f"movement-{t.name}", title=title, polygon=_flip(t.polygon),
        lines=(_Line(t.label, 1.0, True), _Line(_gears_text(t), 0.8), _Line(_movement_dims(t), 0.55)),
        spots=tuple(spots), marks=(_Mark("start", (0.0, -hw), (0.0, hw), "start"),), tick=tick,
    )


def _strip(key: str, title: str, length_mm: float, width_mm: float, lines: tuple[_Line, ...],
           marks: tuple[_Mark, ...]) -> _Piece:
    hw = width_mm / 2.0
    poly = Polygon([(0.0, -hw), (length_mm, -hw), (length_mm, hw), (0.0, hw)])
    spots = tuple((length_mm * f, off, 0.0) for f in (0.5, 0.45, 0.55) for off in (0.0, -3.0, 3.0))
    return _Piece(key=key, title=title, polygon=poly, lines=lines, spots=spots, marks=marks)


def _shooting_pieces(ts: TemplateSet, longest_mm: float) -> list[_Piece]:
    out: list[_Piece] = []
    for name, s in ts.shooting.items():
        hw = s.near_width_mm / 2.0
        if s.shape == "burst":
            assert s.radius_mm is not None
            cx = s.length_mm - s.radius_mm
            out.append(_Piece(
                key=f"shooting-{name}", title=f"{s.label} — shooting template, {_fmt_mm(s.length_mm)} mm",
                polygon=_flip(s.polygon),
                lines=(_Line(s.label, 1.0, True), _Line("shooting template", 0.7),
                       _Line(f"{_fmt_mm(s.length_mm)} mm long", 0.6)),
                spots=((cx, 0.0, 0.0), (cx - 5.0, 0.0, 0.0), (cx + 5.0, 0.0, 0.0)),
                marks=(_Mark("start", (0.0, -hw), (0.0, hw), "near edge"),),
            ))
            continue
        parts = _split_lengths(ts, name, s, longest_mm)
        if len(parts) == 1:
            out.append(_strip(
                f"shooting-{name}", f"{s.label} — shooting range, {_fmt_mm(s.length_mm)} mm",
                s.length_mm, s.width_mm,
                (_Line(f"{s.label} range", 1.0, True), _Line("shooting template", 0.7),
                 _Line(f"{_fmt_mm(s.length_mm)} × {_fmt_mm(s.width_mm)} mm", 0.6)),
                (_Mark("start", (0.0, -hw), (0.0, hw), "near edge"),),
            ))
            continue
        n = len(parts)
        for k, (part_len, part_name) in enumerate(parts, start=1):
            what = f"part {k} of {n}: {part_name}" if part_name else f"part {k} of {n}"
            label = f"{s.label} ({what})"
            marks = []
            if k == 1:
                marks.append(_Mark("start", (0.0, -hw), (0.0, hw), "near edge"))
            else:
                marks.append(_Mark("join", (0.0, -hw), (0.0, hw), f"join to part {k - 1}"))
            if k < n:
                marks.append(_Mark("join", (part_len, hw), (part_len, -hw), f"join to part {k + 1}"))
            out.append(_strip(
                f"shooting-{name}-part-{k}", f"{label} — shooting range, {_fmt_mm(s.length_mm)} mm in all",
                part_len, s.width_mm,
                (_Line(label, 1.0, True), _Line(f"{_fmt_mm(s.length_mm)} mm in all, parts end to end", 0.7),
                 _Line(f"this part {_fmt_mm(part_len)} × {_fmt_mm(s.width_mm)} mm", 0.6)),
                tuple(marks),
            ))
    return out


def _split_lengths(ts: TemplateSet, name: str, s: ShootingTemplate, longest_mm: float) -> list[tuple[float, str]]:
    """Parts of a shooting straight that must be split to fit the printable area.

    The Double is Medium and Long end to end (p.27): if those two ranges sum to
    its length and each fits, those are its parts. Otherwise equal parts.
    """
    if s.length_mm <= longest_mm:
        return [(s.length_mm, "")]
    if name == "double" and "medium" in ts.shooting and "long" in ts.shooting:
        med, lng = ts.shooting["medium"], ts.shooting["long"]
        if abs(med.length_mm + lng.length_mm - s.length_mm) < 1e-6 and max(med.length_mm, lng.length_mm) <= longest_mm:
            return [(med.length_mm, med.label), (lng.length_mm, lng.label)]
    n = math.ceil(s.length_mm / longest_mm)
    return [(s.length_mm / n, "")] * n


def _pieces(ts: TemplateSet) -> list[_Piece]:
    ax0, ay0, ax1, ay1 = _AREA
    longest = max(ax1 - ax0, ay1 - ay0)
    pieces = [_movement_piece(t) for t in ts.movement.values()]
    hw = ts.width_mm / 2.0
    pieces.append(_strip(
        "slide", f"Slide — {_fmt_mm(ts.slide_length_mm)} mm", ts.slide_length_mm, ts.width_mm,
        (_Line("Slide", 1.0, True), _Line("at a Slide Exit Point", 0.6),
         _Line(f"{_fmt_mm(ts.slide_length_mm)} × {_fmt_mm(ts.width_mm)} mm", 0.55)),
        (_Mark("start", (0.0, -hw), (0.0, hw), "near edge"),),
    ))
    pieces.extend(_shooting_pieces(ts, longest))
    for p in pieces:
        _fit_label(p)
    return pieces


# --------------------------------------------------------------------------- labels


def _text_width_mm(text: str, size_mm: float, bold: bool) -> float:
    """Generous estimate of a DejaVu Sans line's advance width."""
    return len(text) * size_mm * (0.66 if bold else 0.6)


def _block_size(lines: Sequence[_Line], font_mm: float) -> tuple[float, float]:
    """Width and height (mm) of a label block of ``lines`` at ``font_mm``."""
    w = max(_text_width_mm(ln.text, font_mm * ln.scale, ln.bold) for ln in lines)
    h = sum(font_mm * ln.scale * 1.25 for ln in lines)
    return w, h


def _keep_out(p: _Piece) -> Polygon:
    """Where a label may go: inside the outline, clear of the edge marks and the tick."""
    region = p.polygon.buffer(-1.5)
    for m in p.marks:
        region = region.difference(LineString([m.a, m.b]).buffer(_EDGE_BAR_MM + 4.5))
    if p.tick is not None:
        (x, y), (ux, uy) = p.tick
        region = region.difference(LineString([(x, y), (x + ux * _TICK_MM, y + uy * _TICK_MM)]).buffer(4.0))
        mx, my = x + ux * _TICK_MM / 2, y + uy * _TICK_MM / 2  # the "slide exit" note runs along the edge
        region = region.difference(LineString([(mx, my), (mx - uy * 13.0, my + ux * 13.0)]).buffer(2.0))
    return region


def _fit_label(p: _Piece) -> None:
    """Choose the label's spot and font size so the block lies inside the template."""
    region = _keep_out(p)
    for font in (5.0, 4.5, 4.0, 3.5, 3.0, 2.6, 2.2, 1.8):
        w, h = _block_size(p.lines, font)
        for x, y, ang in p.spots:
            rect = affinity.rotate(box(-w / 2, -h / 2, w / 2, h / 2), ang, origin=(0.0, 0.0))
            if region.contains(affinity.translate(rect, x, y)):
                p.font_mm, p.label_at = font, (x, y, ang)
                return
    x, y, ang = p.spots[0]
    p.font_mm, p.label_at = 1.8, (x, y, ang)


# --------------------------------------------------------------------------- packing


@dataclass
class _Placed:
    piece: _Piece
    rotation_deg: float
    dx: float
    dy: float

    def xy(self, x: float, y: float) -> tuple[float, float]:
        """A drawing-frame point of the piece on the sheet (mm)."""
        r = math.radians(self.rotation_deg)
        c, s = round(math.cos(r)), round(math.sin(r))
        return (x * c - y * s + self.dx, x * s + y * c + self.dy)

    def vec(self, x: float, y: float) -> tuple[float, float]:
        """A drawing-frame direction rotated onto the sheet."""
        r = math.radians(self.rotation_deg)
        c, s = round(math.cos(r)), round(math.sin(r))
        return (x * c - y * s, x * s + y * c)

    @property
    def polygon(self) -> Polygon:
        """The outline on the sheet (mm)."""
        return Polygon([self.xy(x, y) for x, y in self.piece.polygon.exterior.coords[:-1]])


def _rotated(poly: Polygon, rot: float) -> Polygon:
    r = math.radians(rot)
    c, s = round(math.cos(r)), round(math.sin(r))
    return Polygon([(x * c - y * s, x * s + y * c) for x, y in poly.exterior.coords[:-1]])


class _Sheet:
    """Occupancy of one sheet's printable area on the packing grid (conservative raster)."""

    pad = math.ceil((CLEARANCE_MM / 2.0 + GRID_MM) / GRID_MM) * GRID_MM
    grow = CLEARANCE_MM / 2.0 + GRID_MM * 0.7072  # half clearance + half a cell diagonal

    def __init__(self) -> None:
        ax0, ay0, ax1, ay1 = _AREA
        self.nx = round((ax1 - ax0 + 2 * self.pad) / GRID_MM)
        self.ny = round((ay1 - ay0 + 2 * self.pad) / GRID_MM)
        self.occ = np.zeros((self.ny, self.nx), dtype=bool)
        self.placed: list[_Placed] = []

    def _cells(self, poly: Polygon, x0: float, y0: float, nx: int, ny: int) -> NDArray[np.bool_]:
        xs = x0 + (np.arange(nx) + 0.5) * GRID_MM
        ys = y0 + (np.arange(ny) + 0.5) * GRID_MM
        gx, gy = np.meshgrid(xs, ys)
        grown = poly.buffer(self.grow, quad_segs=16)
        return np.asarray(shapely.contains_xy(grown, gx, gy), dtype=bool)

    def best(self, poly: Polygon) -> tuple[int, int] | None:
        """Lowest, then leftmost free grid offset for ``poly`` (bounds min at 0, 0), or None."""
        ax0, ay0, ax1, ay1 = _AREA
        _, _, w, h = poly.bounds
        ni = math.floor((ax1 - ax0 - w) / GRID_MM + 1e-9) + 1
        nj = math.floor((ay1 - ay0 - h) / GRID_MM + 1e-9) + 1
        if ni <= 0 or nj <= 0:
            return None
        mnx = math.ceil((w + 2 * self.pad) / GRID_MM)
        mny = math.ceil((h + 2 * self.pad) / GRID_MM)
        mask = self._cells(poly, -self.pad, -self.pad, mnx, mny).astype(np.float64)
        if not self.occ.any():
            free = np.ones((nj, ni), dtype=bool)
        else:
            shape = self.occ.shape
            corr = np.fft.irfft2(np.fft.rfft2(self.occ.astype(np.float64)) * np.conj(np.fft.rfft2(mask, s=shape)),
                                 s=shape)
            free = corr[:nj, :ni] < 0.5
        js, is_ = np.nonzero(free)
        if js.size == 0:
            return None
        # lowest bottom edge first (y down: smallest j), then leftmost
        order = np.lexsort((is_, js))
        return int(is_[order[0]]), int(js[order[0]])

    def place(self, piece: _Piece, rot: float, poly: Polygon, i: int, j: int) -> None:
        """Put ``piece`` rotated by ``rot`` with its bounding box at grid offset (i, j)."""
        ax0, ay0, _, _ = _AREA
        minx, miny, _, _ = _rotated(piece.polygon, rot).bounds
        placed = _Placed(piece, rot, ax0 + i * GRID_MM - minx, ay0 + j * GRID_MM - miny)
        outline = placed.polygon
        for other in self.placed:  # exact check behind the raster
            assert outline.distance(other.polygon) >= CLEARANCE_MM - 1e-6, (piece.key, other.piece.key)
        self.placed.append(placed)
        self.occ |= self._cells(outline, ax0 - self.pad, ay0 - self.pad, self.nx, self.ny)


class _TooBig(ValueError):
    """A template that does not fit on a sheet (``key``: the piece's key)."""

    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        super().__init__(reason)


def _pack(pieces: list[_Piece]) -> list[_Sheet]:
    """Bottom-left fill onto the first sheet each fits: movement templates and the Slide first, then
    the shooting templates, biggest outline first within each group (the parts of a split template
    together, ranked by their biggest part)."""
    family = [re.sub(r"-part-\d+$", "", p.key) for p in pieces]
    biggest: dict[str, float] = {}
    for fam, p in zip(family, pieces, strict=True):
        biggest[fam] = max(biggest.get(fam, 0.0), p.polygon.area)
    ranked = sorted(zip(family, pieces, strict=True),
                    key=lambda fp: (fp[1].key.startswith("shooting-"), -round(biggest[fp[0]], 6), fp[1].key))
    todo = [p for _, p in ranked]
    sheets: list[_Sheet] = []
    for piece in todo:
        for sheet in [*sheets, None]:
            if sheet is None:
                sheet = _Sheet()
                sheets.append(sheet)
            best: tuple[tuple[float, int, int, float], Polygon] | None = None
            for rot in (0.0, 90.0, 180.0, 270.0):
                poly = _rotated(piece.polygon, rot)
                minx, miny, _, _ = poly.bounds
                poly = affinity.translate(poly, -minx, -miny)
                at = sheet.best(poly)
                if at is None:
                    continue
                i, j = at
                score = (j * GRID_MM + poly.bounds[3], i, j, rot)
                if best is None or score < best[0]:
                    best = (score, poly)
            if best is not None:
                (_, i, j, rot), poly = best
                sheet.place(piece, rot, poly, i, j)
                break
            if not sheet.placed:
                raise _TooBig(piece.key, f"the template does not fit on an A4 sheet inside a {MARGIN_MM:g} mm "
                                         "margin, so it cannot be printed 1:1 here")
    return sheets


# --------------------------------------------------------------------------- SVG text


def _n(v: float) -> str:
    """A coordinate in mm, rounded to 0.001, without trailing zeros or ``-0``."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _path_d(points: Sequence[tuple[float, float]]) -> str:
    """Plain absolute ``M x y L x y ... Z`` path data."""
    head, *rest = points
    return f"M {_n(head[0])} {_n(head[1])} " + " ".join(f"L {_n(x)} {_n(y)}" for x, y in rest) + " Z"


def _text(x: float, y: float, text: str, size: float, angle: float = 0.0, anchor: str = "middle",
          bold: bool = False, fill: str = "#222") -> str:
    rot = f' transform="rotate({_n(angle)} {_n(x)} {_n(y)})"' if abs(angle) > 1e-9 else ""
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"{weight} text-anchor="{anchor}" '
            f'fill="{fill}"{rot}>{escape(text)}</text>')


def _text_mid(x: float, y: float, text: str, size: float, angle: float = 0.0, anchor: str = "middle",
              bold: bool = False, fill: str = "#222") -> str:
    """Like :func:`_text` but ``(x, y)`` is the middle of the line's height, not its baseline."""
    shift = 0.36 * size
    rad = math.radians(angle)
    return _text(x - math.sin(rad) * shift, y + math.cos(rad) * shift, text, size, angle, anchor, bold, fill)


def _readable(angle: float) -> float:
    """``angle`` (deg) turned by 180 if needed so text does not read upside down; in (-90, 90]."""
    a = (angle + 180.0) % 360.0 - 180.0
    if a > 90.0 + 1e-9:
        a -= 180.0
    elif a <= -90.0 + 1e-9:
        a += 180.0
    return a


def _piece_svg(pl: _Placed) -> list[str]:
    p = pl.piece
    out = [f'<g class="piece" aria-label={quoteattr(p.title)}>', f"<title>{escape(p.title)}</title>"]
    pts = [pl.xy(x, y) for x, y in p.polygon.exterior.coords[:-1]]
    out.append(f'<path id="{p.key}" class="template" fill="#f2f2e6" stroke="#000" stroke-width="0.3" '
               f'stroke-linejoin="round" d="{_path_d(pts)}"/>')
    for m in p.marks:
        (ax, ay), (bx, by) = m.a, m.b
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        nx, ny = uy, -ux  # into the template for a start edge drawn bottom-to-top (y down)
        if m.kind == "start":
            bar = Polygon([(ax, ay), (bx, by), (bx + nx * _EDGE_BAR_MM, by + ny * _EDGE_BAR_MM),
                           (ax + nx * _EDGE_BAR_MM, ay + ny * _EDGE_BAR_MM)])
            bar = bar.intersection(p.polygon)
            if isinstance(bar, Polygon) and not bar.is_empty:
                bpts = [pl.xy(x, y) for x, y in bar.exterior.coords[:-1]]
                out.append(f'<path class="start-edge" fill="#555" d="{_path_d(bpts)}"/>')
        else:
            a_s, b_s = pl.xy(ax, ay), pl.xy(bx, by)
            out.append(f'<path class="join-edge" fill="none" stroke="#000" stroke-width="0.6" '
                       f'stroke-dasharray="2 1.5" d="M {_n(a_s[0])} {_n(a_s[1])} L {_n(b_s[0])} {_n(b_s[1])}"/>')
        mx, my = (ax + bx) / 2 + nx * (_EDGE_BAR_MM + 2.2), (ay + by) / 2 + ny * (_EDGE_BAR_MM + 2.2)
        sx, sy = pl.xy(mx, my)
        dx, dy = pl.vec(ux, uy)
        out.append(_text_mid(sx, sy, m.text, 2.2, _readable(math.degrees(math.atan2(dy, dx))), fill="#333"))
    if p.tick is not None:
        (ex, ey), (ux, uy) = p.tick
        a_s, b_s = pl.xy(ex, ey), pl.xy(ex + ux * _TICK_MM, ey + uy * _TICK_MM)
        out.append(f'<path class="slide-exit" fill="none" stroke="#c00" stroke-width="0.6" '
                   f'd="M {_n(a_s[0])} {_n(a_s[1])} L {_n(b_s[0])} {_n(b_s[1])}"/>')
        # "slide exit" beside the tick, reading along the edge
        tx, ty = ex + ux * (_TICK_MM / 2) - uy * 1.2, ey + uy * (_TICK_MM / 2) + ux * 1.2
        sx, sy = pl.xy(tx, ty)
        dx, dy = pl.vec(-uy, ux)
        raw = math.degrees(math.atan2(dy, dx))
        ang = _readable(raw)
        anchor = "start" if abs((ang - raw + 180.0) % 360.0 - 180.0) < 1e-6 else "end"
        out.append(_text_mid(sx, sy, "slide exit", 1.8, ang, anchor=anchor, fill="#c00"))
    assert p.label_at is not None
    x, y, ang = p.label_at
    cx, cy = pl.xy(x, y)
    d0, d1 = pl.vec(math.cos(math.radians(ang)), math.sin(math.radians(ang)))
    a = _readable(math.degrees(math.atan2(d1, d0)))
    down = (-math.sin(math.radians(a)), math.cos(math.radians(a)))
    _, h = _block_size(p.lines, p.font_mm)
    off = -h / 2
    for ln in p.lines:
        size = p.font_mm * ln.scale
        base = off + size * 1.25 / 2 + size * 0.36
        out.append(_text(cx + down[0] * base, cy + down[1] * base, ln.text, size, a, bold=ln.bold))
        off += size * 1.25
    out.append("</g>")
    return out


def _ruler_svg(x0: float, y0: float) -> list[str]:
    """A ``RULER_MM`` calibration ruler whose baseline starts at (x0, y0), ticks upwards."""
    out = ['<g class="ruler">',
           f'<path class="ruler" fill="none" stroke="#000" stroke-width="0.25" '
           f'd="M {_n(x0)} {_n(y0)} L {_n(x0 + RULER_MM)} {_n(y0)}"/>']
    ticks = []
    for mm in range(int(RULER_MM) + 1):
        h = 5.0 if mm % 10 == 0 else 3.5 if mm % 5 == 0 else 2.0
        ticks.append(f"M {_n(x0 + mm)} {_n(y0)} L {_n(x0 + mm)} {_n(y0 - h)}")
    out.append(f'<path class="ruler-ticks" fill="none" stroke="#000" stroke-width="0.15" d="{" ".join(ticks)}"/>')
    for cm in range(int(RULER_MM) // 10 + 1):
        out.append(_text(x0 + cm * 10, y0 + 3.2, str(cm * 10), 2.4))
    out.append(_text(x0 + RULER_MM + 3, y0 - 2.6, f"← this ruler must measure exactly {_n(RULER_MM)} mm;", 2.6,
                     anchor="start"))
    out.append(_text(x0 + RULER_MM + 3, y0 + 1.0, "if not, reprint at 100% / actual size", 2.6, anchor="start"))
    out.append("</g>")
    return out


def _sheet_svg(ts: TemplateSet, sheet: _Sheet, index: int, count: int) -> str:
    w, h = _n(SHEET_W_MM), _n(SHEET_H_MM)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}" '
        f'font-family="{_FONT}">',
        f"<title>{escape(f'Gaslands templates, {ts.name} v{ts.version}, sheet {index} of {count} (1:1)')}</title>",
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="#fff"/>',
    ]
    for pl in sheet.placed:
        out.extend(_piece_svg(pl))
    bottom = SHEET_H_MM - MARGIN_MM
    out.extend(_ruler_svg(MARGIN_MM, bottom - 15.0))
    out.append('<g class="footer">')
    out.append(_text(MARGIN_MM, bottom - 5.2,
                     f"Gaslands template set “{ts.name}” version {ts.version} · sheet {index} of {count} · "
                     "print at 100% / actual size (no “fit to page”)", 2.8, anchor="start", bold=True))
    out.append(_text(MARGIN_MM, bottom - 1.0,
                     "Gears: 1T = Trivial, 4H = Hazardous · shaded bar = start (near) edge · red tick = Slide "
                     "Exit Point · drawn right-hand: for left, use face down (p.16)", 2.4, anchor="start"))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- files


def _write_atomic(path: Path, text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically."""
    write_text_atomic(path, text)


def _key_of(piece_key: str) -> str:
    """``movement.turn`` or ``shooting.double`` (the template-set file's key) from a piece's key."""
    base = re.sub(r"-part-\d+$", "", piece_key)
    kind, _, name = base.partition("-")
    return f"{kind}.{name}" if name else kind


def render_sheets(template_set: TemplateSet) -> list[str]:
    """The SVG text of each sheet, in order (see :func:`export_templates`).

    Raises :class:`~simulator.errors.InputFileError` naming the template-set file and the template
    that does not fit on an A4 sheet.
    """
    try:
        sheets = _pack(_pieces(template_set))
    except _TooBig as exc:
        raise InputFileError(template_set.source, [Problem(_key_of(exc.key), str(exc))]) from None
    return [_sheet_svg(template_set, s, k, len(sheets)) for k, s in enumerate(sheets, start=1)]


def export_templates(template_set: TemplateSet, out_dir: Path) -> list[Path]:
    """Write ``template_set`` as printable 1:1 A4 sheets ``sheet-01.svg``, ``sheet-02.svg``, ... in ``out_dir``.

    Every template is drawn at actual size in millimetres (1 user unit = 1 mm
    on a 210 x 297 mm page), with a 100 mm calibration ruler per sheet
    (GEOMETRY.md 1; p.16-18, p.27). ``out_dir`` is created if missing (its
    parent must exist); each file is written atomically (temp file in
    ``out_dir``, then ``os.replace``). Only files this command wrote are
    touched: the folder keeps a list of them (:data:`~simulator.atomic.MANIFEST`),
    sheets of an earlier export numbered beyond the new set are removed, and a
    folder holding any other file is refused. Every sheet also goes into one PDF
    at 1:1, :data:`PDF_NAME`, beside them (:mod:`simulator.scenario.pdf_export`).
    Returns the written SVG paths in order.

    Raises :class:`~simulator.errors.InputFileError` when a template cannot fit
    on a sheet even when split (naming the template-set key), or when
    ``out_dir`` is a file, holds other files, or its parent folder is missing
    (naming ``-o``); ``OSError`` when writing fails.
    """
    texts = render_sheets(template_set)
    folder = ExportFolder(out_dir, "templates", _SHEET_NAME, "<title>Gaslands templates,")
    folder.prepare()
    paths = []
    for k, text in enumerate(texts, start=1):
        path = folder.folder / f"sheet-{k:02d}.svg"
        _write_atomic(path, text)
        paths.append(path)
    from simulator.scenario.pdf_export import svgs_to_pdf

    pdf = svgs_to_pdf(paths, folder.folder / PDF_NAME, f"Gaslands templates, {getattr(template_set, 'name', '')}")
    folder.finish([*paths, pdf])
    return paths
