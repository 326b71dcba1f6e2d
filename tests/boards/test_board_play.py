"""Board games in progress: undo and redo, the log, saves that round-trip, and bad saves named, never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from simulator.boards import doom_actions as da
from simulator.boards import gulch_actions as ga
from simulator.boards.board_files import load_board_path
from simulator.boards.board_play import BoardPlay, autosave_path, is_board_save
from simulator.cli import main
from simulator.errors import IllegalChoice, InputFileError

ROOT = Path(__file__).resolve().parents[2]
GULCH = ROOT / "scenarios" / "slaughter_gulch.toml"
GULCH2 = ROOT / "scenarios" / "slaughter_gulch_two_players.toml"
DOOM = ROOT / "scenarios" / "doomtown.toml"


def gulch_play() -> BoardPlay:
    play = BoardPlay.from_file(load_board_path(GULCH))
    for action in (ga.RollEnd(die=5), ga.EndSpells(), ga.Plan(dude="ranger-1", to="street:0:3", token="fight"),
                   ga.FinishOrders(), ga.FinishOrders(), ga.FinishOrders(), ga.FinishOrders(),
                   ga.Arrive(by="train", count=2), ga.EndEvents(),
                   ga.Attack(target="agent-1", outcome="wounds"), ga.PlaceArrival(dice=(1, 2))):
        play.do(action)
    return play


def doom_play() -> BoardPlay:
    play = BoardPlay.from_file(load_board_path(DOOM))
    for action in (da.Lowball(winner="bob"), da.EndUpkeep(), da.StartJob(dealer="nate", target="1st-bank"),
                   da.Join(dude="tc"), da.PosseReady(), da.Join(dude="gabriel"), da.PosseReady(),
                   da.Ace(dude="gabriel")):
        play.do(action)
    return play


@pytest.mark.parametrize("make", [gulch_play, doom_play], ids=["slaughter_gulch", "doomtown"])
def test_save_and_load_replays_to_the_same_state(tmp_path: Path, make: object) -> None:
    play = make()  # type: ignore[operator]
    path = tmp_path / "saves" / "game.json"
    play.save(path)
    assert is_board_save(path) and not list(path.parent.glob(".*.tmp"))     # atomic: no temp left
    doc = json.loads(path.read_text())
    assert doc["format"] == "deadlands-board-save" and doc["version"] == 1
    back = BoardPlay.load(path)
    assert back.state == play.state and back.log() == play.log() and back.actions == play.actions
    assert back.undo() and back.state == play.history.entries[-2].state      # undo works after a load


def test_undo_and_redo_move_through_the_history() -> None:
    play = gulch_play()
    last = play.state
    assert play.undo()
    assert play.state != last and play.redo() and play.state == last
    assert play.undo()
    play.do(ga.PlaceArrival(dice=(2, 2)))
    assert not play.redo()                                               # a new action forgets the redo
    while play.undo():
        pass
    assert play.state == play.history.start.state and not play.actions


def test_a_refused_action_changes_nothing() -> None:
    play = doom_play()
    before = (play.state, len(play.log()))
    with pytest.raises(IllegalChoice):
        play.do(da.Nightfall())
    assert (play.state, len(play.log())) == before
    done, reason = play.try_do(da.Nightfall())
    assert not done and "Nightfall" in reason


def test_the_log_names_each_rule() -> None:
    for play in (gulch_play(), doom_play()):
        assert all(line.endswith(")") or line.endswith(").") for line in play.log()[1:]
                   if not line.startswith("Now acting")), play.log()


def test_autosave_goes_to_the_user_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = autosave_path("doomtown")
    assert str(path).startswith(str(tmp_path / "data")) and path.name == "doomtown_autosave.json"
    assert not str(path).startswith(os.getcwd()) or str(tmp_path).startswith(os.getcwd())


def bad(tmp_path: Path, doc: object, name: str = "bad.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputFileError) as error:
        BoardPlay.load(path)
    message = str(error.value)
    assert message.startswith(str(path)) and "Traceback" not in message
    return message


def test_bad_saves_name_the_key_and_the_reason(tmp_path: Path) -> None:
    good = gulch_play().to_json()
    assert "version: this program reads board saves of version 1" in bad(tmp_path, {**good, "version": 2})
    assert ": (syntax): Expecting property name" in bad(tmp_path, "{nope")
    assert ": file: a board save is a JSON object" in bad(tmp_path, [1, 2])
    assert "format" in bad(tmp_path, {**good, "format": "something"})
    start = json.loads(json.dumps(good["start"]))
    start["dude"][0]["at"] = "street:+0:01"
    assert "start.dude[1].at: 'street:+0:01' is not how a square is written" in bad(tmp_path, {**good,
                                                                                              "start": start})
    actions = [*good["actions"], {"kind": "attack", "target": "x", "outcome": "maybe"}]
    assert "actions[12].attack.outcome" in bad(tmp_path, {**good, "actions": actions})
    refused = [*good["actions"], {"kind": "end_spells"}]
    assert "actions[12]: refused on replay: not now" in bad(tmp_path, {**good, "actions": refused})
    assert "start.board.game" in bad(tmp_path, {**doom_play().to_json(), "game": "slaughter_gulch"})
    (tmp_path / "latin1.json").write_bytes(b'{"format": "\xe9"}')
    with pytest.raises(InputFileError, match="UTF-8"):
        BoardPlay.load(tmp_path / "latin1.json")
    assert "nested more than" in bad(tmp_path, "[" * 100_000 + "]" * 100_000)
    assert "(syntax): Infinity is not a JSON number" in bad(tmp_path, '{"version": Infinity}')
    noted = [*good["actions"][:-1], {"kind": "take_action", "note": "bang\u0000"}]
    assert "actions[11].take_action.note: Value error, contains the control character U+0000" in bad(
        tmp_path, {**good, "actions": noted})
    named = {**doom_play().to_json()}
    named["actions"] = [*named["actions"], {"kind": "shop", "card": "dude", "id": "x", "name": "A\u001b[2J"}]
    assert "shop.name: Value error, contains the control character U+001B" in bad(tmp_path, named)


def test_cli_renders_a_board_save_and_refuses_a_bad_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    save = tmp_path / "game.json"
    doom_play().save(save)
    assert main(["render", str(save), "-o", str(tmp_path / "shot.png"), "--size", "1000x700"]) == 0
    assert (tmp_path / "shot.png").stat().st_size > 10_000
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**doom_play().to_json(), "version": 9}))
    assert main(["render", str(broken), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{broken}: version: this program reads board saves of version 1"]


def test_a_new_two_outfit_game_starts_with_the_secret_setup() -> None:
    play = BoardPlay.from_file(load_board_path(GULCH2))
    state = play.state
    assert state.step.value == "setup" and state.mine == 40 and state.board.columns == 3
    assert [o.id for o in state.outfits] == ["texas_rangers", "hucksters"]
    assert state.town.sheriff is not None and state.town.sheriff.at == "jail"


@pytest.mark.parametrize("save", sorted((ROOT / "docs" / "saves").glob("*.json")), ids=lambda p: p.stem)
def test_the_example_saves_in_the_docs_still_load(save: Path) -> None:
    """The committed example saves (drawn into docs/*.png) replay: the save format stays readable."""
    play = BoardPlay.load(save)
    assert play.actions and play.log()
