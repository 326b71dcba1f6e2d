"""Printable 1:1 dashboards (p.15-16): the card's size in mm, the boxes to tick, and the export folder."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import resvg_py

from simulator.cli import main
from simulator.errors import InputFileError
from simulator.gaslands.teams import Fitting, Team, TeamVehicle
from simulator.scenario.dashboard_export import CARD_W_MM, dashboard_svg, export_dashboards
from simulator.scenario.team_file import save_team

SVG = "{http://www.w3.org/2000/svg}"

TEAM = Team("Rust Buckets", "rutherford", 50, (
    TeamVehicle("car", "Old Faithful", (Fitting("mortar", "front"), Fitting("grenades")),
                (Fitting("armour_plating"),), ("headshot",)),
    TeamVehicle("truck", "", (Fitting("machine_gun", "turret"),)),
))


def parse(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def test_a_card_is_drawn_in_millimetres_at_one_to_one() -> None:
    root = parse(dashboard_svg(TEAM, 0))
    assert root.get("width") == f"{CARD_W_MM:g}mm"
    height = float(root.get("height", "0").removesuffix("mm"))
    assert root.get("viewBox") == f"0 0 {CARD_W_MM:g} {height:g}"
    assert 80.0 < height < 200.0
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Gaslands dashboard: Old Faithful (Car), Rust Buckets (1:1)"


def test_the_boxes_to_tick_match_the_built_vehicle() -> None:
    root = parse(dashboard_svg(TEAM, 0))
    rects = root.iter(f"{SVG}rect")
    by_class: dict[str, int] = {}
    for r in rects:
        by_class[r.get("class", "")] = by_class.get(r.get("class", ""), 0) + 1
    assert by_class["hull-box"] == 12                   # Car 10 + Armour Plating 2 (p.84)
    assert by_class["ammo-box"] == 4 + 5                # Mortar: Ammo 3 made 4 by Well Stocked (p.91); Grenades 5
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert not any(t and t.startswith("not legal") for t in texts)
    assert "25 Cans" in texts                           # Car 12, Mortar 4, Grenades 1, Armour Plating 4, Headshot 4
    crossed = [p for p in root.iter(f"{SVG}path") if p.get("stroke") == "#888"]
    assert len(crossed) == 1                            # a Car's max Gear is 5: gear 6 crossed out
    assert "Headshot (Military, p.109)" in texts and "Well Stocked (p.91)" in texts


def test_the_card_renders(tmp_path: Path) -> None:
    png = bytes(resvg_py.svg_to_bytes(svg_string=dashboard_svg(TEAM, 1), dpi=96.0))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_export_writes_one_card_per_vehicle_and_only_its_own_files(tmp_path: Path) -> None:
    out = tmp_path / "cards"
    paths = export_dashboards(TEAM, out)
    assert [p.name for p in paths] == ["dashboard-01.svg", "dashboard-02.svg"]
    export_dashboards(Team("One", None, 50, TEAM.vehicles[:1]), out)
    assert sorted(p.name for p in out.glob("*.svg")) == ["dashboard-01.svg"]
    (out / "notes.txt").write_text("mine")
    with pytest.raises(InputFileError, match="did not write"):
        export_dashboards(TEAM, out)


def test_gaslands_team_dashboards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    team_file = tmp_path / "team.toml"
    save_team(TEAM, team_file)
    assert main(["team", "dashboards", str(team_file), "-o", str(tmp_path / "out")]) == 0
    assert "dashboard-02.svg" in capsys.readouterr().out
