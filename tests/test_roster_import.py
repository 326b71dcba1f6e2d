"""Importing a BattleScribe / NewRecruit roster (.rosz) into a team file, with a message per unmapped entry."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.errors import InputFileError
from simulator.gaslands.teams import Fitting, check
from simulator.scenario.roster_import import import_roster
from simulator.scenario.team_file import load_team

ROSTERS = Path(__file__).resolve().parent / "fixtures" / "rosters"


def test_the_hand_made_roster_imports() -> None:
    imported = import_roster(ROSTERS / "rust_buckets.rosz")
    team = imported.team
    assert (team.name, team.sponsor, team.cans) == ("Rust Buckets", "rustys_bootleggers", 90)
    truck, car, buggy = team.vehicles
    assert (truck.type, truck.name, truck.perks) == ("truck", "Moonshine Express", ("biggern_you",))
    # weapons in the trailer selection sit on the trailer, the rest on the cab (p.103)
    assert truck.weapons == (Fitting("rockets", "front", "cab"), Fitting("machine_gun", "rear", "trailer"))
    assert [u.key for u in truck.upgrades] == ["trailer_middleweight", "siphon_pump"]
    assert car.weapons == (Fitting("minigun", "turret"), Fitting("molotov_cocktails"))  # "Mini-Gun", "Turret (Cans x3)"
    assert (buggy.type, buggy.name) == ("buggy", "Dusty")
    assert [u.key for u in buggy.upgrades] == ["extra_crewmember", "extra_crewmember", "ram"]  # number="2"
    assert buggy.upgrades[2].facing == "front"
    assert imported.messages == [
        "Car: 'Flux Capacitor' is not a weapon, upgrade or perk of the rulebook's tables: left out",
        "Dusty (Buggy / Trike / Bike & Sidecar): 'Spiked Hubcaps' is not a weapon, upgrade or perk of the "
        "rulebook's tables: left out",
    ]
    report = check(team)
    assert report.legal and report.cans == 87


def test_a_plain_ros_imports_the_same() -> None:
    assert import_roster(ROSTERS / "rust_buckets.ros").team == import_roster(ROSTERS / "rust_buckets.rosz").team


def test_unknown_vehicles_and_a_custom_sponsor_are_named(tmp_path: Path) -> None:
    text = (ROSTERS / "rust_buckets.ros").read_text(encoding="utf-8")
    text = text.replace('name="Rusty&apos;s Bootleggers"', 'name="Custom"').replace('name="Car"', 'name="Hovercraft"')
    path = tmp_path / "odd.ros"
    path.write_text(text, encoding="utf-8")
    imported = import_roster(path)
    assert imported.team.sponsor is None and len(imported.team.vehicles) == 2
    assert any("Custom sponsor" in m for m in imported.messages)
    assert any(m.startswith("Hovercraft: 'Hovercraft' is not a vehicle type") for m in imported.messages)


@pytest.mark.parametrize("content, reason", [
    (b"not xml at all", "not valid XML"),
    (b"<?xml version='1.0'?><catalogue/>", "not a BattleScribe <roster>"),
    (b"<?xml version='1.0'?><!DOCTYPE r [<!ENTITY a 'b'>]><roster/>", "DOCTYPE"),
])
def test_files_that_are_not_rosters_are_refused(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "bad.ros"
    path.write_bytes(content)
    with pytest.raises(InputFileError, match=reason):
        import_roster(path)


def test_a_zip_without_a_roster_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.rosz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("readme.txt", "nothing here")
    with pytest.raises(InputFileError, match="no .ros roster"):
        import_roster(path)


def test_gaslands_team_import_writes_a_team_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rust.toml"
    assert main(["team", "import", str(ROSTERS / "rust_buckets.rosz"), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "not imported: Car: 'Flux Capacitor'" in printed and "87 of 90 Cans; legal" in printed
    assert load_team(out) == import_roster(ROSTERS / "rust_buckets.rosz").team
    assert main(["team", "check", str(out)]) == 0
    other = tmp_path / "scenario.toml"
    other.write_text("[table]\nwidth_mm = 100.0\n")
    assert main(["team", "import", str(ROSTERS / "rust_buckets.rosz"), "-o", str(other)]) == 2  # not a team file
