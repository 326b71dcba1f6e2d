"""gaslands simulate (same seed, same summary), save/load/autosave/undo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.decisions import Activate, ChooseTemplate, SpendShifts
from simulator.gaslands.game import Options
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.saves import (
    SaveError,
    autosave,
    decode_decision,
    encode_decision,
    load,
    save,
    saved_log,
    undo,
)
from simulator.scenario.setup import new_game
from simulator.scenario.simulate import game_seeds, simulate_command

STREET = load_scenario(bundled_scenario())


def test_simulate_prints_the_same_summary_for_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate_command(bundled_scenario(), games=3, seed=9, progress=False) == 0
    first = capsys.readouterr().out
    simulate_command(bundled_scenario(), games=3, seed=9, progress=False)
    assert capsys.readouterr().out == first
    assert "Red Team" in first and "mean rounds" in first and "wipeouts" in first and "unfinished" in first
    assert game_seeds(9, 3) == game_seeds(9, 3) != game_seeds(10, 3)


def test_simulate_rejects_a_negative_count() -> None:
    with pytest.raises(ValueError, match="--games"):
        simulate_command(bundled_scenario(), games=-1, seed=1, progress=False)


def test_decisions_round_trip_through_json() -> None:
    game = play_bot_game(new_game(STREET, seed=3, options=Options(round_limit=30)), Bot())
    for d in game.decisions:
        assert decode_decision(json.loads(json.dumps(encode_decision(d)))) == d
    shifts = SpendShifts((SpendShift(ShiftUse.CANCEL, 1), SpendShift(ShiftUse.GEAR_UP)))
    assert decode_decision(encode_decision(shifts)) == shifts


def test_save_then_load_gives_an_identical_game(tmp_path: Path) -> None:
    game = new_game(STREET, seed=6, options=Options(round_limit=30))
    bot = Bot()
    for _ in range(40):
        game.decide(bot.decide(game))
    path = tmp_path / "game.json"
    save(game, path)
    again = load(path)
    assert again.state == game.state and again.log == game.log and again.prompt == game.prompt
    assert again.decisions == game.decisions and again.options == game.options
    assert [e.text for e in saved_log(path)] == [e.text for e in game.log]
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind


def test_undo_replays_all_but_the_last_decision() -> None:
    game = new_game(STREET, seed=6)
    first = game.prompt.options[0]
    game.decide(Activate(str(first)))
    before = game.state
    game.decide(ChooseTemplate("medium_straight"))
    decisions = list(game.decisions)
    back = undo(game)
    assert back.decisions == decisions[:-1] and back.state == before and back.prompt.kind == "template"


def test_autosave_writes_between_activations_only(tmp_path: Path) -> None:
    path = tmp_path / "auto.json"
    game = new_game(STREET, seed=2)
    bot = Bot()
    assert autosave(game, path)  # waiting for an activation
    game.decide(bot.decide(game))
    assert game.prompt.kind == "template" and not autosave(game, path)
    while game.prompt.kind != "activate":
        game.decide(bot.decide(game))
    assert autosave(game, path) and load(path).state == game.state


def test_a_broken_save_is_a_named_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "something else"}')
    with pytest.raises(SaveError, match="format"):
        load(path)
    game = new_game(STREET, seed=1)
    save(game, path)
    doc = json.loads(path.read_text())
    doc["decisions"] = [{"type": "Activate", "vehicle_id": "nobody"}]
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError, match=r"decisions\[1\]"):
        load(path)
