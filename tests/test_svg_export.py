"""Printable 1:1 template sheets (issue 2 item 7; GEOMETRY.md 1; p.16-18, p.27).

Measurements are taken from the ``<path>`` data in the committed
``templates_svg/`` sheets, where one user unit is one millimetre.
"""

from __future__ import annotations

import math
import re
import struct
import xml.etree.ElementTree as ET
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
import resvg_py
from shapely.geometry import LineString, Polygon

from simulator.atomic import MANIFEST
from simulator.errors import InputFileError
from simulator.geometry.templates import load_template_set
from simulator.scenario.svg_export import export_templates

SVG = "{http://www.w3.org/2000/svg}"
COMMITTED = Path(__file__).resolve().parent.parent / "templates_svg"
SHEETS = sorted(COMMITTED.glob("sheet-*.svg"))


def _paths() -> dict[str, tuple[Path, ET.Element]]:
    """Every ``<path>`` with an id, across all committed sheets: id -> (sheet, element)."""
    out: dict[str, tuple[Path, ET.Element]] = {}
    for sheet in SHEETS:
        for el in ET.parse(sheet).getroot().iter(f"{SVG}path"):
            if el.get("id"):
                assert el.get("id") not in out, f"duplicate id {el.get('id')}"
                out[el.get("id", "")] = (sheet, el)
    return out


def _points(d: str) -> list[tuple[float, float]]:
    """Vertices of plain absolute ``M x y L x y ... Z`` path data (mm)."""
    tokens = d.split()
    assert tokens[0] == "M" and tokens[-1] == "Z", d[:40]
    body = tokens[:-1]
    assert len(body) % 3 == 0 and all(c in "ML" for c in body[0::3]), "path data must be M/L/Z only"
    for t in body:
        if t not in "ML":
            assert re.fullmatch(r"-?\d+(\.\d{1,3})?", t), f"{t} not rounded to 0.001 mm"
    return [(float(body[i + 1]), float(body[i + 2])) for i in range(0, len(body), 3)]


def _template(template_id: str) -> list[tuple[float, float]]:
    _, el = _paths()[template_id]
    return _points(el.get("d", ""))


def _fit_circle(pts: np.ndarray) -> tuple[float, float, float]:
    """Least-squares circle through ``pts``: centre x, centre y, radius (mm)."""
    a = np.column_stack((2 * pts[:, 0], 2 * pts[:, 1], np.ones(len(pts))))
    b = (pts**2).sum(axis=1)
    (cx, cy, c), *_ = np.linalg.lstsq(a, b, rcond=None)
    return float(cx), float(cy), math.sqrt(c + cx * cx + cy * cy)


def test_committed_sheets_exist() -> None:
    assert len(SHEETS) >= 2, f"no sheets in {COMMITTED}; run `gaslands export-templates -o templates_svg`"
    assert [p.name for p in SHEETS] == [f"sheet-{k:02d}.svg" for k in range(1, len(SHEETS) + 1)]


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_sheet_is_a4_in_millimetres(sheet: Path) -> None:
    root = ET.parse(sheet).getroot()
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == "210mm"
    assert root.get("height") == "297mm"
    assert [float(v) for v in root.get("viewBox", "").split()] == [0.0, 0.0, 210.0, 297.0]
    text = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "print at 100% / actual size" in text
    assert "refuelled-approx" in text and "version 1" in text


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_sheet_has_a_100mm_ruler_and_templates_inside_the_margin(sheet: Path) -> None:
    root = ET.parse(sheet).getroot()
    rulers = [el for el in root.iter(f"{SVG}path") if el.get("class") == "ruler"]
    assert len(rulers) == 1
    (x0, y0), (x1, y1) = (lambda t: ((float(t[1]), float(t[2])), (float(t[4]), float(t[5]))))(
        rulers[0].get("d", "").split())
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(100.0, abs=1e-9)
    outlines = [el for el in root.iter(f"{SVG}path") if el.get("class") == "template"]
    assert outlines
    for el in outlines:
        xs, ys = zip(*_points(el.get("d", "")), strict=True)
        assert min(xs) >= 10 - 1e-9 and max(xs) <= 200 + 1e-9, el.get("id")
        assert min(ys) >= 10 - 1e-9 and max(ys) <= 287 + 1e-9, el.get("id")
    polys = {el.get("id"): Polygon(_points(el.get("d", ""))) for el in outlines}
    for (a, pa), (b, pb) in combinations(polys.items(), 2):
        assert pa.distance(pb) >= 3.0 - 0.01, f"{a} and {b} closer than 3 mm"


def test_every_template_is_printed_once() -> None:
    ids = set(_paths())
    ts = load_template_set()
    expected = {f"movement-{n}" for n in ts.movement} | {"slide"}
    expected |= {f"shooting-{n}" for n in ts.shooting if n != "double"}
    expected |= {"shooting-double-part-1", "shooting-double-part-2"}
    assert expected <= ids
    assert len(ids & {i for i in ids if i.startswith(("movement-", "shooting-", "slide"))}) == 17


def test_long_straight_is_182_by_35() -> None:
    pts = _template("movement-long_straight")
    assert len(pts) == 4
    sides = [math.dist(pts[i], pts[(i + 1) % 4]) for i in range(4)]
    assert max(sides) == pytest.approx(182.0, abs=0.01)
    assert min(sides) == pytest.approx(35.0, abs=0.01)
    assert sides[0] == pytest.approx(sides[2], abs=0.01) and sides[1] == pytest.approx(sides[3], abs=0.01)
    assert math.dist(pts[0], pts[2]) == pytest.approx(math.hypot(182.0, 35.0), abs=0.01)  # a rectangle


def test_turn_arcs_have_radii_92_5_and_57_5_about_one_centre() -> None:
    pts = _template("movement-turn")
    n = len(pts)
    # the outline is two arcs joined by the two 35 mm ends; split it at the long edges
    long_edges = [i for i in range(n) if math.dist(pts[i], pts[(i + 1) % n]) > 10.0]
    assert len(long_edges) == 2
    runs = []
    for a, b in ((long_edges[0], long_edges[1]), (long_edges[1], long_edges[0] + n)):
        runs.append(np.array([pts[k % n] for k in range(a + 1, b + 1)]))
    fits = sorted((_fit_circle(run), run) for run in runs)
    (ci, inner), (co, outer) = fits
    assert co[2] == pytest.approx(92.5, abs=0.01)
    assert ci[2] == pytest.approx(57.5, abs=0.01)
    assert math.dist(co[:2], ci[:2]) < 0.01, "the arcs do not share a centre"
    centre = np.array(co[:2])
    assert np.abs(np.hypot(*(outer - centre).T) - 92.5).max() < 0.01
    assert np.abs(np.hypot(*(inner - centre).T) - 57.5).max() < 0.01
    assert len(outer) > 20  # really an arc, not a few chords


def test_labels_name_gears_and_double_parts() -> None:
    titles = set()
    for sheet in SHEETS:
        for g in ET.parse(sheet).getroot().iter(f"{SVG}g"):
            t = g.find(f"{SVG}title")
            if t is not None and t.text:
                titles.add(t.text)
    assert "Turn — gears 1T 2 3 4H" in titles
    assert "Hard — gears 1 2 3H" in titles
    assert any(t.startswith("Double (part 1 of 2: Medium)") for t in titles)
    assert any(t.startswith("Double (part 2 of 2: Long)") for t in titles)
    parts = [_template("shooting-double-part-1"), _template("shooting-double-part-2")]
    lengths = [max(math.dist(p[i], p[(i + 1) % 4]) for i in range(4)) for p in parts]
    assert sum(lengths) == pytest.approx(302.0, abs=0.01)


def test_slide_exit_tick_is_on_the_turn_outer_edge() -> None:
    sheet, _ = _paths()["movement-turn"]
    group = next(g for g in ET.parse(sheet).getroot().iter(f"{SVG}g")
                 if any(p.get("id") == "movement-turn" for p in g.iter(f"{SVG}path")))
    tick = next(p for p in group.iter(f"{SVG}path") if p.get("class") == "slide-exit")
    t = tick.get("d", "").split()
    on_edge = (float(t[1]), float(t[2]))
    outline = LineString([*_template("movement-turn"), _template("movement-turn")[0]])
    assert outline.distance(LineString([on_edge, on_edge])) < 0.01
    assert any(p.get("class") == "start-edge" for p in group.iter(f"{SVG}path"))


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_sheet_renders_to_png(sheet: Path) -> None:
    # resvg_py's default dpi=0 turns mm sizes into 0 px ("invalid size"), so give the dpi
    png = bytes(resvg_py.svg_to_bytes(svg_string=sheet.read_text("utf-8"), dpi=96.0))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (round(210 / 25.4 * 96), round(297 / 25.4 * 96))  # A4 at 96 dpi


def test_committed_sheets_are_up_to_date(tmp_path: Path) -> None:
    written = export_templates(load_template_set(), tmp_path)
    hint = "templates_svg/ is stale: run `gaslands export-templates -o templates_svg`"
    assert [p.name for p in written] == [p.name for p in SHEETS], hint
    for new in written:
        assert new.read_bytes() == (COMMITTED / new.name).read_bytes(), f"{new.name}: {hint}"


def test_export_is_atomic_and_replaces_its_own_stale_sheets(tmp_path: Path) -> None:
    written = export_templates(load_template_set(), tmp_path / "out")
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == sorted([*(p.name for p in written), "templates.pdf", MANIFEST])  # no temp files
    # a sheet an earlier export wrote beyond the new set is removed; one the user wrote is not touched
    stale = tmp_path / "out" / f"sheet-{len(written) + 1:02d}.svg"
    stale.write_bytes(written[0].read_bytes())
    again = export_templates(load_template_set(), tmp_path / "out")
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in written]
    assert not stale.exists()


@pytest.mark.parametrize("stranger", ["notes.txt", "sheet-09.svg"])
def test_export_refuses_a_folder_with_other_files(tmp_path: Path, stranger: str) -> None:
    (tmp_path / stranger).write_text("the user's own", "utf-8")
    with pytest.raises(InputFileError) as info:
        export_templates(load_template_set(), tmp_path)
    assert str(info.value) == (f"{tmp_path}: -o: holds files this command did not write ({stranger!r}); name a "
                               "new or empty folder, or one that only holds an earlier templates export")
    assert sorted(p.name for p in tmp_path.iterdir()) == [stranger]
    assert (tmp_path / stranger).read_text("utf-8") == "the user's own"


def test_the_sheets_also_go_into_one_pdf_at_one_to_one(tmp_path: Path) -> None:
    import re

    written = export_templates(load_template_set(), tmp_path / "out")
    pdf = (tmp_path / "out" / "templates.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    boxes = re.findall(rb"/MediaBox \[ ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) \]", pdf)
    assert len(boxes) == len(written)  # a page per sheet
    for box in boxes:  # A4 in points: 210 x 297 mm at 72 points to the inch, so the ruler prints 100 mm
        w_mm, h_mm = float(box[2]) * 25.4 / 72.0, float(box[3]) * 25.4 / 72.0
        assert abs(w_mm - 210.0) < 0.01 and abs(h_mm - 297.0) < 0.01
    assert b"/PrintScaling /None" in pdf  # the print dialog defaults to actual size
    again = export_templates(load_template_set(), tmp_path / "again")
    assert len(again) == len(written)
    assert (tmp_path / "again" / "templates.pdf").read_bytes() == pdf  # reproducible
    assert (COMMITTED / "templates.pdf").read_bytes() == pdf, "templates_svg/ is stale"
