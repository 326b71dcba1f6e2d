"""Team files and ``gaslands team check`` (docs/teams.md): names, errors naming file and key, JSON answer, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.errors import InputFileError
from simulator.scenario.team_file import load_team, save_team, team_text

EXAMPLE = """
[team]
name = "Rust Buckets"
sponsor = "Rutherford"
cans = 50

[[vehicle]]
name = "Old Faithful"
type = "Performance Car"
weapons = [
  { type = "Heavy Machine Gun", facing = "front" },
  { type = "Handgun" },
]
upgrades = ["Armour Plating"]
perks = ["Headshot"]
"""


def write(tmp_path: Path, text: str, name: str = "team.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_reads_with_rulebook_names(tmp_path: Path) -> None:
    team = load_team(write(tmp_path, EXAMPLE))
    assert (team.name, team.sponsor, team.cans) == ("Rust Buckets", "rutherford", 50)
    v = team.vehicles[0]
    assert (v.type, v.name, v.perks) == ("performance_car", "Old Faithful", ("headshot",))
    assert [(w.key, w.facing) for w in v.weapons] == [("heavy_machine_gun", "front"), ("handgun", None)]
    assert [u.key for u in v.upgrades] == ["armour_plating"]


def test_ids_and_odd_spellings_are_accepted(tmp_path: Path) -> None:
    text = EXAMPLE.replace('"Heavy Machine Gun"', '"heavy_machine_gun"').replace('"Rutherford"', '"rutherford"')
    text = text.replace('"Performance Car"', '"performance-car"')
    assert load_team(write(tmp_path, text)).vehicles[0].type == "performance_car"


def test_bad_files_name_the_file_the_key_and_the_reason(tmp_path: Path) -> None:
    bad = write(tmp_path, """
[team]
sponsor = "Rutherfrod"
cans = "fifty"
[[vehicle]]
type = "Cart"
colour = "red"
weapons = [{ type = "Lazer", facing = "front" }, { type = "Machine Gun", facing = "up" }]
upgrades = [3]
""")
    with pytest.raises(InputFileError) as caught:
        load_team(bad)
    wheres = {p.where for p in caught.value.problems}
    assert {"team.cans", "vehicle[1].colour", "vehicle[1].weapons[2].facing", "vehicle[1].upgrades[1]"} <= wheres
    assert str(bad) in str(caught.value)
    fixed = bad.read_text().replace('cans = "fifty"', "cans = 50").replace('colour = "red"\n', "")
    fixed = fixed.replace('"up"', '"rear"').replace("[3]", '["Nitro"]')
    bad.write_text(fixed)
    with pytest.raises(InputFileError) as caught:
        load_team(bad)
    by_where = {p.where: p.reason for p in caught.value.problems}
    assert "did you mean Rutherford?" in by_where["team.sponsor"]
    assert "Car" in by_where["vehicle[1].type"] and "Bike with Sidecar" in by_where["vehicle[1].type"]
    assert "Combat Laser" in by_where["vehicle[1].weapons[1].type"]
    assert "did you mean Nitro Booster?" in by_where["vehicle[1].upgrades[1]"]


def test_saved_teams_read_back_the_same(tmp_path: Path) -> None:
    team = load_team(write(tmp_path, EXAMPLE.replace('["Armour Plating"]',
                                                     '["Armour Plating", { type = "Ram", facing = "front" }]')))
    out = tmp_path / "saved.toml"
    save_team(team, out)
    assert load_team(out) == team
    assert 'sponsor = "Rutherford"' in team_text(team) and '"Heavy Machine Gun"' in team_text(team)


def test_team_check_prints_json_and_exits_0_when_legal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["team", "check", str(write(tmp_path, EXAMPLE))]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer == {"legal": True, "cans": 26, "limit": 50, "problems": [],
                      "vehicles": [{"name": "Old Faithful", "cans": 26, "slots_used": 2, "slots": 2}]}


def test_team_check_exits_1_for_a_broken_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["team", "check", str(write(tmp_path, EXAMPLE)), "--cans", "25"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["legal"] is False and answer["limit"] == 25
    assert answer["problems"] == [{"vehicle": "Old Faithful", "rule": "team over its Cans: 26 of 25 with this vehicle",
                                   "page": "p.64"}]


def test_team_check_exits_2_when_the_file_cannot_be_read(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, EXAMPLE.replace("Headshot", "Headshoot"))
    assert main(["team", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: vehicle[1].perks[1]: unknown perk 'Headshoot'" in err
    assert main(["team", "check", str(tmp_path / "missing.toml")]) == 2


def test_team_check_takes_a_ruling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, '[team]\ncans = 40\n[[vehicle]]\ntype = "Tank"\n')
    assert main(["team", "check", str(path)]) == 0
    assert main(["team", "check", str(path), "--ruling", "restricted_without_sponsor=false"]) == 1
    assert "Restricted" in capsys.readouterr().out
