"""Board files that must be refused with a named error (the reliability review's reproducers r30, r31, r36).

Each file goes through the real command line; the answer is one line per problem,
``FILE: key: reason``, and exit code 2: never a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simulator.boards.board_files import load_board
from simulator.cli import main
from simulator.errors import InputFileError

HERE = Path(__file__).resolve().parent / "bad_input"


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and not any("Traceback" in line for line in err)
    return err


def test_r30_a_query_kind_that_is_a_table_is_a_named_error(capsys: pytest.CaptureFixture[str]) -> None:
    path = HERE / "r30_board_query_kind_table.toml"
    err = refused(capsys, "rule", str(path))
    assert err == [f"{path}: query[walk].kind: expected one of moves, sight, number, path, plan, control, "
                   "townsfolk, deputy, wound, arrest, action_order for this board (a string)"]


def test_r31_a_nul_in_an_outfit_is_refused_by_rule_and_render(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    path = HERE / "r31_board_nul_outfit.toml"
    expected = [f"{path}: dude[1].outfit: Value error, contains the control character U+0000; write plain "
                "printable text"]
    assert refused(capsys, "render", str(path), "-o", str(tmp_path / "x.png")) == expected
    assert refused(capsys, "rule", str(path)) == expected
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("table, key, text", [
    ("dude", "id", "ranger\x00"), ("dude", "outfit", "texas\nrangers"), ("townsfolk", "name", "Mr\x07 Bell"),
    ("townsfolk", "id", "folk\x1b[31m"), ("board", "title", "Gulch\u200b"),
])
def test_control_characters_in_ids_and_names_are_named(table: str, key: str, text: str) -> None:
    doc: dict[str, object] = {"board": {"game": "slaughter_gulch", "seed": 1},
                              "dude": [{"id": "d", "at": "home"}], "townsfolk": [{"at": "jail"}]}
    section = doc[table]
    target = section[0] if isinstance(section, list) else section
    assert isinstance(target, dict)
    target[key] = text
    with pytest.raises(InputFileError) as error:
        load_board(doc, "f.toml")
    where = f"{table}[1].{key}" if table != "board" else f"board.{key}"
    assert str(error.value).startswith(f"f.toml: {where}: Value error, contains the control character U+")


def test_doomtown_names_and_players_refuse_control_characters() -> None:
    doc = {"board": {"game": "doomtown"}, "street": [{"player": "ann", "locations": ["ann-home"]}],
           "dude": [{"id": "d", "player": "ann", "at": "ann-home", "name": "Big\x00Al"}]}
    with pytest.raises(InputFileError, match=r"dude\[1\]\.name: Value error, contains the control character U\+0000"):
        load_board(doc, "f.toml")
    doc["street"] = [{"player": "日本", "locations": ["日本-home"]}]
    with pytest.raises(InputFileError, match=r"street\[1\]\.player"):
        load_board(doc, "f.toml")


def test_r36_one_spelling_per_square(capsys: pytest.CaptureFixture[str]) -> None:
    path = HERE / "r36_gulch_alias_space.toml"
    err = refused(capsys, "rule", str(path))
    assert err == [f"{path}: dude[2].at: 'street:+0:01' is not how a square is written: write 'street:0:1' "
                   "(one spelling per square)"]


@pytest.mark.parametrize("alias", ["street:+0:01", "street: 0:1", "street:0:1 ", "street:00:1", "Street:0:1"])
def test_a_street_alias_in_a_query_is_named_with_its_one_spelling(alias: str) -> None:
    from simulator.boards.rulings import answer_board_file

    doc = {"board": {"game": "slaughter_gulch", "seed": 1}, "dude": [{"id": "d", "at": "street:0:1"}],
           "query": [{"id": "p", "kind": "path", "from": alias, "to": "home"}]}
    with pytest.raises(InputFileError) as error:
        answer_board_file(doc, "f.toml")
    assert str(error.value) == (f"f.toml: query[p].from: {alias!r} is not how a square is written: write "
                                "'street:0:1' (one spelling per square)")
