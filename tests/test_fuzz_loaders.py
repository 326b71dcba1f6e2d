"""Every loader, fed mutated copies of real files: a named error or a valid result, never a crash (issue 9).

A small bounded version of ``benchmarks/fuzz.py`` drawn by hypothesis: one mutation of the parsed tree
(a value replaced by anything TOML or JSON can hold, a key deleted or added) or of the text (bytes
flipped, cut, nested deep), then the loader. The only exception allowed out is
:class:`~simulator.errors.InputFileError`, and each of its problems names a key and a reason. What
a loader accepts is then used: the rulings file's queries answered, the save replayed.
"""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.errors import InputFileError
from simulator.geometry.templates import parse_template_set
from simulator.safe_read import parse_json, parse_toml
from simulator.scenario.loader import parse_scenario
from simulator.scenario.rulings import answer, parse_queries

ROOT = Path(__file__).resolve().parents[1]
SEEDS = {
    "scenario": ROOT / "scenarios" / "street_race.toml",
    "rulings": ROOT / "tests" / "cases" / "move_glance_turn.toml",
    "rulings2": ROOT / "tests" / "cases" / "pivot.toml",
    "template_set": ROOT / "simulator" / "data" / "template_sets" / "default.toml",
}

leaves = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-(2**70), 2**70), st.booleans(),
    st.text(max_size=40), st.sampled_from(["", "x" * 5000, "red\n", "a\x00b", "\u202e", "false", "1e308"]),
)
values = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=8)


def _paths(tree: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(tree, dict):
        for k, v in tree.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def tree_mutants(draw: st.DrawFn, original: dict[str, Any]) -> dict[str, Any]:
    tree = copy.deepcopy(original)
    paths = _paths(tree)
    path = paths[draw(st.integers(0, len(paths) - 1))]
    parent: Any = tree
    for p in path[:-1]:
        parent = parent[p]
    how = draw(st.sampled_from(["replace", "delete", "add"]))
    if how == "delete" and isinstance(parent, dict):
        del parent[path[-1]]
    elif how == "add" and isinstance(parent, dict):
        parent[draw(st.text(min_size=1, max_size=8))] = draw(values)
    else:
        parent[path[-1]] = draw(values)
    return tree


@st.composite
def text_mutants(draw: st.DrawFn, original: bytes) -> bytes:
    how = draw(st.sampled_from(["cut", "flip", "nest", "latin1"]))
    if how == "cut":
        return original[:draw(st.integers(0, len(original)))]
    if how == "flip":
        data = bytearray(original)
        for _ in range(draw(st.integers(1, 6))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return bytes(data)
    if how == "nest":
        depth = draw(st.integers(30, 3000))
        return b"junk = " + b"[" * depth + b"]" * depth + b"\n" + original
    return original.decode("utf-8").replace("e", "\u00e9").encode("latin-1")


def named(exc: InputFileError) -> None:
    assert exc.problems
    for p in exc.problems:
        assert p.where and p.reason, p
        assert p.render("f.toml").startswith("f.toml: ")


def load_and_use(raw: dict[str, Any]) -> None:
    try:
        scenario = parse_scenario(raw, str(ROOT / "tests" / "cases" / "fuzz.toml"))
        queries = parse_queries(scenario)
    except InputFileError as exc:
        named(exc)
        return
    for q in queries:
        result = answer(scenario, q)
        json.dumps(result, allow_nan=False)


def dumpable(tree: dict[str, Any]) -> bool:
    try:
        tomlkit.dumps(tree)
    except (TypeError, ValueError):
        return False
    return True


FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.filter_too_much])


@pytest.mark.parametrize("seed", ["scenario", "rulings", "rulings2"])
@FUZZ
@given(data=st.data())
def test_scenario_and_rulings_loader_trees(seed: str, data: st.DataObject) -> None:
    original = tomllib.loads(SEEDS[seed].read_text(encoding="utf-8"))
    load_and_use(data.draw(tree_mutants(original)))


@pytest.mark.parametrize("seed", ["scenario", "rulings"])
@FUZZ
@given(data=st.data())
def test_scenario_and_rulings_loader_texts(seed: str, data: st.DataObject) -> None:
    text = data.draw(text_mutants(SEEDS[seed].read_bytes()))
    try:
        raw = parse_toml(text.decode("utf-8"), "fuzz.toml")
    except UnicodeDecodeError:
        return  # safe_read names this one (tests/test_bad_input.py); here the text never decodes
    except InputFileError as exc:
        named(exc)
        return
    load_and_use(raw)


@FUZZ
@given(data=st.data())
def test_template_set_loader(data: st.DataObject) -> None:
    original = tomllib.loads(SEEDS["template_set"].read_text(encoding="utf-8"))
    tree = data.draw(tree_mutants(original))
    if not dumpable(tree):
        return
    try:
        ts = parse_template_set(tomlkit.dumps(tree), "fuzz.toml")
    except InputFileError as exc:
        named(exc)
        return
    for t in ts.movement.values():  # what it accepts, it can build
        assert t.polygon.is_valid and t.polygon.area > 0
    for s in ts.shooting.values():
        assert s.polygon.is_valid and s.polygon.area > 0


@pytest.fixture(scope="module")
def save_document() -> dict[str, Any]:
    from simulator.gaslands.bots import Bot
    from simulator.gaslands.game import Options
    from simulator.scenario.loader import load_scenario
    from simulator.scenario.saves import to_json
    from simulator.scenario.setup import new_game

    game = new_game(load_scenario(SEEDS["scenario"]), seed=5, options=Options(round_limit=30))
    bot = Bot()
    for _ in range(25):
        game.decide(bot.decide(game))
    doc: dict[str, Any] = json.loads(json.dumps(to_json(game)))
    return doc


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_save_loader(save_document: dict[str, Any], data: st.DataObject) -> None:
    from simulator.gaslands.bots import Bot
    from simulator.scenario.saves import from_json

    tree = data.draw(tree_mutants(save_document))
    try:
        text = json.dumps(tree)
        doc = parse_json(text, "fuzz.json")
        game = from_json(doc, "fuzz.json")
    except InputFileError as exc:
        named(exc)
        return
    bot = Bot()  # what loads plays on (no latent crash a few decisions later)
    for _ in range(5):
        if game.prompt.kind == "game_over":
            break
        game.decide(bot.decide(game))
