"""Printable track layouts: the A4 overview and the 1:1 A4 tiles (``gaslands export-track``)."""

from __future__ import annotations

import math
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import resvg_py

from simulator.cli import main
from simulator.errors import InputFileError
from simulator.scenario.loader import Scenario, load_scenario
from simulator.scenario.svg_export import MARGIN_MM
from simulator.scenario.track_export import (
    OVERLAP_MM,
    STEP_X_MM,
    STEP_Y_MM,
    TILE_H_MM,
    TILE_W_MM,
    column_name,
    export_track,
    render_track,
)

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ["death_race.toml", "street_race.toml"]


@pytest.fixture(scope="module", params=SCENARIOS)
def exported(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Scenario, Path]:
    scenario = load_scenario(ROOT / "scenarios" / request.param)
    out = tmp_path_factory.mktemp(Path(request.param).stem)
    export_track(scenario, out)
    return scenario, out


def _expected_grid(width_mm: float, height_mm: float) -> tuple[int, int]:
    """Fewest tiles of ``TILE_W_MM`` x ``TILE_H_MM`` overlapping by ``OVERLAP_MM`` that cover the table."""
    cols = math.ceil((width_mm - OVERLAP_MM) / (TILE_W_MM - OVERLAP_MM))
    rows = math.ceil((height_mm - OVERLAP_MM) / (TILE_H_MM - OVERLAP_MM))
    return cols, rows


def test_tile_window_is_a4_less_margins_and_footer() -> None:
    assert TILE_W_MM == 210.0 - 2 * MARGIN_MM == 190.0
    assert TILE_H_MM < 297.0 - 2 * MARGIN_MM
    assert MARGIN_MM == 10.0 and OVERLAP_MM == 10.0
    assert (STEP_X_MM, STEP_Y_MM) == (TILE_W_MM - OVERLAP_MM, TILE_H_MM - OVERLAP_MM)


def test_page_sizes(exported: tuple[Scenario, Path]) -> None:
    _, out = exported
    root = ET.parse(out / "overview.svg").getroot()
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("297mm", "210mm", "0 0 297 210")
    tiles = sorted(out.glob("tile-*.svg"))
    assert tiles
    for path in tiles:
        root = ET.parse(path).getroot()
        assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("210mm", "297mm", "0 0 210 297")
        texts = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
        assert "100% / actual size" in texts
        assert root.find(f".//{SVG}g[@class='ruler']") is not None
        assert root.find(f".//{SVG}path[@class='crop-marks']") is not None


def test_number_and_names_of_tiles(exported: tuple[Scenario, Path]) -> None:
    scenario, out = exported
    t = scenario.table
    cols, rows = _expected_grid(t.width_mm, t.height_mm)
    # the set covers the table, and one column or row fewer would not
    assert (cols - 1) * STEP_X_MM + TILE_W_MM >= t.width_mm > (cols - 2) * STEP_X_MM + TILE_W_MM
    assert (rows - 1) * STEP_Y_MM + TILE_H_MM >= t.height_mm > (rows - 2) * STEP_Y_MM + TILE_H_MM
    names = {f"tile-{column_name(i)}{j + 1}.svg" for i in range(cols) for j in range(rows)}
    assert {p.name for p in out.glob("tile-*.svg")} == names
    footer = "".join(ET.parse(out / "tile-B1.svg").getroot().find(f".//{SVG}g[@class='footer']").itertext())
    assert "tile B1" in footer
    assert f"table x {STEP_X_MM:g}–{STEP_X_MM + TILE_W_MM:g} mm, y 0–{TILE_H_MM:g} mm" in footer


def test_gate_posts_at_true_size_and_position(exported: tuple[Scenario, Path]) -> None:
    scenario, out = exported
    cols, rows = _expected_grid(scenario.table.width_mm, scenario.table.height_mm)
    checked = 0
    for gate in scenario.table.gates:
        for which, (x, y) in (("post_a", gate.post_a), ("post_b", gate.post_b)):
            i, j = int(x // STEP_X_MM), int(y // STEP_Y_MM)
            i, j = min(i, cols - 1), min(j, rows - 1)
            x0, y0 = i * STEP_X_MM, j * STEP_Y_MM
            root = ET.parse(out / f"tile-{column_name(i)}{j + 1}.svg").getroot()
            circle = root.find(f".//{SVG}circle[@id='{gate.id}.{which}']")
            assert circle is not None, (gate.id, which)
            assert float(circle.get("cx", "nan")) == pytest.approx(MARGIN_MM + (x - x0), abs=0.01)
            assert float(circle.get("cy", "nan")) == pytest.approx(MARGIN_MM + TILE_H_MM - (y - y0), abs=0.01)
            assert float(circle.get("r", "nan")) == pytest.approx(gate.post_radius_mm, abs=0.01)
            checked += 1
        g = ET.parse(out / "overview.svg").getroot().find(f".//{SVG}g[@id='gate-{gate.id}']")
        assert g is not None and g.find(f"{SVG}path[@class='gate-arrow']") is not None
    assert checked == 2 * len(scenario.table.gates)


def test_gate_lines_dashed_with_arrow_on_tiles() -> None:
    scenario = load_scenario(ROOT / "scenarios" / "death_race.toml")
    _, pages, _ = render_track(scenario)
    # gate 1 runs from (1150, 291) to (1150, 109): column G (1080-1270), row 1 (0-255)
    root = ET.fromstring(pages["G1"])
    g = root.find(f".//{SVG}g[@id='gate-gate-1']")
    assert g is not None
    line = g.find(f"{SVG}path[@class='gate-line']")
    assert line is not None and line.get("stroke-dasharray")
    arrow = g.find(f"{SVG}path[@class='gate-arrow']")
    assert arrow is not None and arrow.get("marker-end") == "url(#arrow)"
    # the arrow points along the left-hand normal of a -> b: +x, i.e. right on the page
    nums = [float(v) for v in arrow.get("d", "").replace("M", " ").replace("L", " ").split()]
    assert nums[2] - nums[0] == pytest.approx(40.0) and nums[3] == pytest.approx(nums[1])
    assert g.find(f"{SVG}path[@class='post-centre']") is not None


def test_overview_names_every_piece(exported: tuple[Scenario, Path]) -> None:
    scenario, out = exported
    root = ET.parse(out / "overview.svg").getroot()
    texts = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    for o in scenario.table.obstacles:
        assert o.id in texts and f"obstacle-{o.id}" in ids
    for s in scenario.table.surfaces:
        assert s.id in texts and s.kind in texts
    for g in scenario.table.gates:
        assert f"gate {g.number}" in texts
    for ln in scenario.table.lines:
        assert f"line-{ln.id}" in ids
    cols, rows = _expected_grid(scenario.table.width_mm, scenario.table.height_mm)
    tile_rects = [el.get("data-tile") for el in root.iter(f"{SVG}rect") if el.get("class") == "tile"]
    assert len(tile_rects) == cols * rows and "A1" in texts and f"{column_name(cols - 1)}{rows}" in texts
    assert "1000" in texts  # grid coordinates along the edges


def test_empty_tiles_are_marked(exported: tuple[Scenario, Path]) -> None:
    scenario, out = exported
    flags = {p.name: ET.parse(p).getroot().get("data-empty") for p in out.glob("tile-*.svg")}
    assert set(flags.values()) == {"true", "false"}
    for name, flag in flags.items():
        texts = " ".join(ET.parse(out / name).getroot().itertext())
        assert ("empty" in texts) == (flag == "true"), name
    if scenario.table.name == "Death Race":  # H1: open track between gate 1 and crate-1; G1 holds gate 1
        assert (flags["tile-H1.svg"], flags["tile-G1.svg"]) == ("true", "false")


def test_deterministic_and_stale_tiles_removed(tmp_path: Path) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "street_race.toml")
    a, b = tmp_path / "a", tmp_path / "b"
    export_track(scenario, a)
    export_track(scenario, b)
    stale = b / "tile-Z9.svg"  # a tile an earlier export of a larger table wrote
    stale.write_bytes((b / "tile-A1.svg").read_bytes())
    export_track(scenario, b)
    assert not stale.exists()
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for n in names:
        assert (a / n).read_bytes() == (b / n).read_bytes(), n


def test_a_folder_with_other_files_is_refused(tmp_path: Path) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "street_race.toml")
    (tmp_path / "tile-ZZ99.svg").write_text("mine")
    with pytest.raises(InputFileError) as info:
        export_track(scenario, tmp_path)
    assert "holds files this command did not write ('tile-ZZ99.svg')" in str(info.value)
    assert [p.name for p in tmp_path.iterdir()] == ["tile-ZZ99.svg"]


def test_tile_renders(exported: tuple[Scenario, Path]) -> None:
    _, out = exported
    png = bytes(resvg_py.svg_to_bytes(svg_string=(out / "tile-B2.svg").read_text(encoding="utf-8"), dpi=96.0))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", png[16:24])
    assert (w, h) == (round(210 / 25.4 * 96), round(297 / 25.4 * 96))


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "track"
    assert main(["export-track", str(ROOT / "scenarios" / "death_race.toml"), "-o", str(out)]) == 0
    msg = capsys.readouterr().out
    cols, rows = _expected_grid(1830.0, 1220.0)
    assert "overview.svg" in msg and f"{cols * rows} tiles" in msg and "100% / actual size" in msg
    assert len(list(out.glob("tile-*.svg"))) == cols * rows

    bad = tmp_path / "bad.toml"
    bad.write_text("[table]\nwidth_mm = 'wide'\n")
    assert main(["export-track", str(bad), "-o", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "width_mm" in err
    assert not (tmp_path / "x").exists()

    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["export-track", str(ROOT / "scenarios" / "street_race.toml"), "-o", str(blocker)]) == 2
    assert capsys.readouterr().err == f"{blocker}: -o: is a file, not a folder; name a new or empty folder\n"


def test_the_overview_and_tiles_also_go_into_one_pdf_at_one_to_one(exported: tuple[Scenario, Path]) -> None:
    import re

    _, out = exported
    pdf = (out / "track.pdf").read_bytes()
    tiles = sorted(out.glob("tile-*.svg"))
    full = [t for t in tiles if ET.parse(t).getroot().get("data-empty") == "false"]
    assert 0 < len(full) < len(tiles)
    boxes = re.findall(rb"/MediaBox \[ ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) \]", pdf)
    assert len(boxes) == 1 + len(full)  # the overview, then every tile with something on it (QA: no blank pages)
    for box in boxes[1:]:  # the tiles are A4 portrait at 1:1
        assert abs(float(box[2]) * 25.4 / 72.0 - 210.0) < 0.01 and abs(float(box[3]) * 25.4 / 72.0 - 297.0) < 0.01
    assert b"/PrintScaling /None" in pdf
