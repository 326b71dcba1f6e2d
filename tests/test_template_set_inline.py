"""A custom template set travels with the game: saves and online games carry it inline (RULINGS.md's
``[table] template_set``), so they replay where the set's file is not (issue #12: the host's set)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from simulator.errors import InputFileError
from simulator.geometry.templates import load_template_set
from simulator.net.mirror import scenario_from_text
from simulator.scenario import saves
from simulator.scenario.loader import load_scenario
from simulator.scenario.setup import new_game

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SET = ROOT / "simulator" / "data" / "template_sets" / "default.toml"


def _custom_scenario(tmp: Path) -> Path:
    """Street Race with a template set of its own whose Short Straight is 80 mm (the bundled one: 60 mm)."""
    text = DEFAULT_SET.read_text("utf-8")
    short = 'label = "Short Straight"\nshape = "straight"\nlength_mm = { value = 60.0'
    assert short in text
    (tmp / "long_short.toml").write_text(text.replace(short, short.replace("60.0", "80.0")), "utf-8")
    scenario = (ROOT / "scenarios" / "street_race.toml").read_text("utf-8")
    assert 'template_set = "default"' in scenario
    scenario = scenario.replace('template_set = "default"', 'template_set = "long_short.toml"')
    path = tmp / "race.toml"
    path.write_text(scenario, "utf-8")
    return path


def test_save_carries_the_custom_set_and_loads_without_its_file(tmp_path: Path) -> None:
    path = _custom_scenario(tmp_path)
    scenario = load_scenario(path)
    short = scenario.template_set.template("short_straight").length_mm
    assert short != load_template_set().template("short_straight").length_mm
    game = new_game(scenario, seed=3)
    save = tmp_path / "game.json"
    saves.save(game, save)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.move(save, elsewhere / "game.json")
    (tmp_path / "long_short.toml").unlink()
    loaded = saves.load(elsewhere / "game.json")
    assert loaded.referee.template_set.template("short_straight").length_mm == short


def test_a_client_reads_the_hosts_set_from_the_text_it_is_sent(tmp_path: Path) -> None:
    scenario = load_scenario(_custom_scenario(tmp_path))
    game = new_game(scenario, seed=1)
    assert game.origin is not None
    # The client has neither the host's folder nor the set's file.
    client = scenario_from_text(game.origin.scenario_text, "/nowhere/race.toml")
    assert client.template_set.template("short_straight").length_mm == \
        scenario.template_set.template("short_straight").length_mm


def test_the_bundled_set_is_not_written_inline(tmp_path: Path) -> None:
    game = new_game(load_scenario(ROOT / "scenarios" / "street_race.toml"), seed=1)
    assert game.origin is not None
    assert "[table.template_set" not in game.origin.scenario_text


def test_a_bad_inline_set_names_the_field(tmp_path: Path) -> None:
    scenario = (ROOT / "scenarios" / "street_race.toml").read_text("utf-8")
    bad = scenario.replace('template_set = "default"', "template_set = { name = 'x' }", 1)
    path = tmp_path / "bad.toml"
    path.write_text(bad, "utf-8")
    with pytest.raises(InputFileError) as err:
        load_scenario(path)
    assert "table.template_set" in str(err.value)
