"""``gaslands replay SAVE.json --events`` accounts for every Hull Point, Hazard Token and gear of every vehicle
(issue 8): the deltas of the events add up from the first line to the last. A few games of each race run
here; ``python benchmarks/account_events.py`` checks 20 games of each to the full round limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.scenario.loader import load_scenario
from simulator.scenario.replay import unaccounted
from simulator.scenario.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
RACES = {"scenarios/street_race.toml": (8, 30), "scenarios/death_race.toml": (4, 5),
         "tests/golden/golden_mix.toml": (4, 30), "tests/golden/golden_arena.toml": (4, 4)}
"""Scenario: (games, round limit). The long games (a Death Race, a last-team-standing arena) are fewer and cut short
here to keep the suite fast; every event kind still comes up. (20 games of each, to 30 rounds, account for every
point too: ``python benchmarks/account_events.py``.)"""


@pytest.mark.parametrize("scenario", RACES)
def test_events_account_for_every_point(scenario: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games, rounds = RACES[scenario]
    summary = simulate(load_scenario(ROOT / scenario), games=games, seed=8, save_dir=tmp_path, round_limit=rounds)
    saves = sorted(tmp_path.glob("game-*.json"))
    assert summary.games == games and len(saves) == games
    for path in saves:
        assert main(["replay", str(path), "--events"]) == 0
        lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert lines[0]["type"] == "game_started" and lines[-1]["type"] in ("game_over", "game_not_over")
        assert all({"type", "page", "text"} <= set(line) for line in lines)
        assert unaccounted(lines) == [], path.name
        if lines[-1]["type"] == "game_over":
            assert lines[-1]["standings"] and len(lines[-1]["vehicles"]) == len(lines[0]["vehicles"])


def test_a_bad_save_is_a_named_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gaslands-save", "version": 2}', encoding="utf-8")
    assert main(["replay", str(bad), "--events"]) != 0
    assert "bad.json" in capsys.readouterr().err
