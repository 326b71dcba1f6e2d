"""``gaslands rule`` board queries: the cases directory, the BOARDS.md examples, and errors."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from simulator.boards.board_files import load_board_path
from simulator.boards.rulings import answer_board_file, answer_board_path
from simulator.errors import InputFileError

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((ROOT / "tests" / "cases" / "boards").glob("*.toml"))

GULCH = """
[board]
game = "slaughter_gulch"
players = 4
layout = ["jail", "general_store", "hotel_saloon", "doctors_office", "telegraph_office",
          "bank", "church", "stable", "theater", "graveyard"]

[[dude]]
id = "ranger-1"
at = "street:0:2"
wounded = false
"""

DOOM = """
[board]
game = "doomtown"

[[street]]
player = "alice"
locations = ["1st-bank", "alice-home", "general-store"]

[[street]]
player = "bob"
locations = ["bob-home"]

[[out_of_town]]
id = "strike-1"
owner = "alice"

[[dude]]
id = "nate"
player = "bob"
at = "bob-home"
booted = false

[[dude]]
id = "erik"
player = "alice"
at = "1st-bank"
"""


def answer(text: str) -> list[dict[str, Any]]:
    return answer_board_file(tomllib.loads(text), "test.toml")


def problems(text: str) -> list[str]:
    with pytest.raises(InputFileError) as info:
        answer(text)
    return [p.where for p in info.value.problems]


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_case(case: Path) -> None:
    expected = json.loads(case.with_suffix(".expected.json").read_text())
    results = {r["id"]: r for r in answer_board_path(case)}
    assert set(expected) <= set(results)
    for qid, keys in expected.items():
        for key, value in keys.items():
            assert results[qid][key] == value, f"{case.name} {qid}.{key}"


def test_results_are_json_in_file_order_with_id_and_kind() -> None:
    results = answer(GULCH + """
[[query]]
id = "m"
kind = "moves"
dude = "ranger-1"

[[query]]
kind = "number"
location = "bank"
""")
    assert [(r["id"], r["kind"]) for r in results] == [("m", "moves"), (2, "number")]
    assert results[1]["number"] == 12
    assert json.loads(json.dumps(results)) == results


def test_boards_md_doomtown_example() -> None:
    results = answer(DOOM + """
[[query]]
kind = "adjacent"
a = "alice-home"
b = "town_square"

[[query]]
kind = "move"
dude = "nate"
to = "town_square"

[[query]]
kind = "posse"
dealer = "nate"
target = "erik"

[[query]]
kind = "destroy"
deed = "1st-bank"
""")
    assert results[0]["adjacent"] is True
    assert (results[1]["legal"], results[1]["boots"]) == (True, False)
    assert results[2]["legal"] is False               # erik is not at Nate's location
    assert results[3]["streets"] == {"alice": ["alice-home", "general-store"], "bob": ["bob-home"]}
    assert results[3]["sent_home_booted"] == ["erik"]


def test_every_problem_is_listed_with_where() -> None:
    where = problems(GULCH + """
[[dude]]
id = "ghost"
at = "street:5:0"

[[query]]
id = "m"
kind = "moves"
dude = "nobody"

[[query]]
id = "k"
kind = "teleport"

[[query]]
id = "s"
kind = "sight"
from = "saloon"
to = "bank"

[[query]]
id = "n"
kind = "number"
location = "street:0:0"
""")
    assert where == ["dude[2].at"]                    # a bad board stops before the queries
    where = problems(GULCH + """
[[query]]
id = "m"
kind = "moves"
dude = "nobody"

[[query]]
id = "k"
kind = "teleport"

[[query]]
id = "s"
kind = "sight"
from = "saloon"
to = "bank"

[[query]]
id = "n"
kind = "number"
location = "street:0:0"

[[query]]
id = "x"
kind = "moves"
""")
    assert where == ["query[m].dude", "query[k].kind", "query[s].from", "query[n].location", "query[x].dude"]


def test_doomtown_errors() -> None:
    where = problems(DOOM + """
[[query]]
kind = "adjacent"
a = "alice-home"
b = "nowhere"

[[query]]
kind = "destroy"
deed = "alice-home"

[[query]]
kind = "posse"
dealer = "nate"
target = "nobody"

[[query]]
kind = "move"
dude = "nate"
to = "town_square"
extra = 1
""")
    assert where == ["query[1].b", "query[2].deed", "query[3].target", "query[4].extra"]


def test_bad_board_tables() -> None:
    assert problems('[board]\ngame = "chess"\n') == ["board.game"]
    assert problems('[board]\ngame = "slaughter_gulch"\nplayers = 2\nlayout = ["bank"]\n') == ["board.layout"]
    assert problems('[board]\ngame = "slaughter_gulch"\nplayers = 9\nseed = 1\n') == ["board.players"]
    doom = '[board]\ngame = "doomtown"\n[[street]]\nplayer = "a"\nlocations = ["x", "y"]\n'
    assert problems(doom) == ["street[1].home"]
    assert problems(DOOM + '[[dude]]\nid = "nate"\nplayer = "carol"\nat = "mars"\n') == [
        "dude[3].player", "dude[3].at", "dude[1].id"]


def test_toml_syntax_error_is_an_input_file_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\ngame = 1\n")
    with pytest.raises(InputFileError) as info:
        answer_board_path(bad)
    assert info.value.problems[0].where == "(syntax)"
    assert str(bad) in str(info.value)


def test_seeded_board_file() -> None:
    results = answer('[board]\ngame = "slaughter_gulch"\nplayers = 2\nseed = 5\n'
                     '[[query]]\nkind = "number"\nlocation = "mine"\n')
    assert results[0]["number"] == 5


@pytest.mark.parametrize("name", ["slaughter_gulch.toml", "doomtown.toml"])
def test_bundled_scenarios_load(name: str) -> None:
    game = load_board_path(ROOT / "scenarios" / name)
    assert len(game.town.dudes) >= 6
    assert answer_board_path(ROOT / "scenarios" / name) == []


def test_a_board_file_with_too_many_figures_is_refused_not_slow() -> None:
    """Bounds far above a real game (36 dudes, 20 townsfolk) keep drawing and queries fast."""
    doc = {"board": {"game": "slaughter_gulch", "seed": 1},
           "dude": [{"id": f"d{i}", "at": "home"} for i in range(100_000)]}
    with pytest.raises(InputFileError, match=r"dude: List should have at most 200 items"):
        answer_board_file(doc, "big.toml")
