"""Save files are checked key by key before a game is replayed (issue 9; simulator/scenario/save_file.py).

A real save (40 bot decisions of the Street Race) is tampered with one key at a time; each
tampering is refused with a SaveError naming the file, the key and the reason, and nothing
is coerced.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import ChooseTemplate, PushIt, RollSkid, SpendShifts
from simulator.gaslands.game import Options
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.save_file import DecisionError, SaveError, decision_from_json, validate_save_document
from simulator.scenario.saves import decode_decision, from_json, load, to_json
from simulator.scenario.setup import new_game

STREET = load_scenario(bundled_scenario())


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    game = new_game(STREET, seed=6, options=Options(round_limit=30))
    bot = Bot()
    for _ in range(40):
        game.decide(bot.decide(game))
    return json.loads(json.dumps(to_json(game)))


def first_index(doc: dict[str, Any], kind: str) -> int:
    return next(i for i, d in enumerate(doc["decisions"]) if d["type"] == kind)


def refused(doc: dict[str, Any]) -> list[str]:
    with pytest.raises(SaveError) as info:
        from_json(doc, "game.json")
    assert info.value.source == "game.json"
    return [f"{p.where}: {p.reason}" for p in info.value.problems]


def test_a_real_save_passes_and_replays(document: dict[str, Any]) -> None:
    checked = validate_save_document(document, "game.json")
    assert checked.seed == 6 and len(checked.decisions) == 40
    assert checked.scenario.table.vehicle("red-car").type == "car"
    assert len(from_json(document, "game.json").decisions) == 40


@pytest.mark.parametrize(("change", "problem"), [
    (lambda d: d.update(version=999), "version: this save is version 999; this program reads versions 1 and 2"),
    (lambda d: d.update(version="1"), "version: this save is version 1; this program reads versions 1 and 2"),
    (lambda d: d.update(version=True), "version: this save is version True; this program reads versions 1 and 2"),
    (lambda d: d.update(seed=3.9), "seed: Input should be a valid integer"),
    (lambda d: d.update(seed="7"), "seed: Input should be a valid integer"),
    (lambda d: d.update(seed=2**70), "seed: Input should be less than 9223372036854775808"),
    (lambda d: d.update(options="abc"), "options: Input should be a valid dictionary"),
    (lambda d: d["options"].update(audience_votes="false"), "options.audience_votes: Input should be a valid boolean"),
    (lambda d: d["options"].update(touch_it_use_it="no"), "options.touch_it_use_it: Input should be a valid boolean"),
    (lambda d: d["options"].update(round_limit="abc"), "options.round_limit: Input should be a valid integer"),
    (lambda d: d["options"].update(round_limit=0), "options.round_limit: Input should be greater than or equal to 1"),
    (lambda d: d["options"].update(course=[]), "options.course: Input should be a valid dictionary"),
    (lambda d: d["options"].update(audience_vote=True), "options.audience_vote: Extra inputs are not permitted"),
    (lambda d: d["scenario"].update(toml=5), "scenario.toml: Input should be a valid string"),
    (lambda d: d.update(extra=1), "extra: Extra inputs are not permitted"),
    (lambda d: d.pop("seed"), "seed: Field required"),
    (lambda d: d.update(decisions={}), "decisions: Input should be a valid list"),
    (lambda d: d.update(log=[{"text": 5}]), "log[1].text: Input should be a valid string"),
])
def test_top_level_keys(document: dict[str, Any], change: Any, problem: str) -> None:
    doc = copy.deepcopy(document)
    change(doc)
    assert refused(doc) == [problem]


def test_format(document: dict[str, Any]) -> None:
    doc = copy.deepcopy(document)
    doc["format"] = "something"
    assert refused(doc) == ["format: not a Gaslands save (expected format = 'gaslands-save')"]


def test_embedded_scenario_errors_name_the_save(document: dict[str, Any]) -> None:
    doc = copy.deepcopy(document)
    doc["scenario"]["toml"] = doc["scenario"]["toml"].replace("heading_deg = 0.0", "heading_deg = nan", 1)
    assert refused(doc) == ["scenario.toml.vehicle[1].heading_deg: Input should be a finite number"]
    doc["scenario"]["toml"] = "[table\n"
    found = refused(doc)
    assert len(found) == 1 and found[0].startswith("scenario.toml (syntax): ")


@pytest.mark.parametrize(("kind", "key", "value", "problem"), [
    ("RollSkid", "count", 2.5, "count: Input should be a valid integer"),
    ("RollSkid", "count", None, "count: Input should be a valid integer"),
    ("RollSkid", "count", 10**9, "count: 1000000000 is out of range (at most 100000 either way)"),
    ("RollSkid", "dice", 3, "dice: unknown key for a RollSkid"),
    ("ChooseTemplate", "reverse", -1, "reverse: Input should be a valid boolean"),
    ("ChooseTemplate", "direction", "up", "direction: Input should be 'left' or 'right'"),
    ("ChooseTemplate", "template", "u_turn", "template: unknown template 'u_turn'; known: short_straight, "
     "medium_straight, long_straight, gentle, turn, hard, hairpin, veer, swerve"),
    ("Activate", "vehicle_id", "ghost", "vehicle_id: no vehicle 'ghost' in the scenario"),
    ("Activate", "vehicle_id", 7, "vehicle_id: Input should be a valid string"),
    ("Activate", "type", "Warp", "type: expected one of Activate, ChooseTemplate, RollSkid, PushIt, "
     "SpendShifts, SlideFacing, Spin, React, DeclareAttacks, LoseControl, PassPole, SpendVotes, Deploy, Declare, "
     "Pivot, Piledrive, SwingTrailer, Teleport"),
])
def test_decisions_are_read_strictly(document: dict[str, Any], kind: str, key: str, value: Any,
                                     problem: str) -> None:
    doc = copy.deepcopy(document)
    i = first_index(doc, kind)
    doc["decisions"][i][key] = value
    assert refused(doc) == [f"decisions[{i + 1}].{problem}"]


def test_a_turning_template_needs_a_direction(document: dict[str, Any]) -> None:
    doc = copy.deepcopy(document)
    i = first_index(doc, "ChooseTemplate")
    doc["decisions"][i] = {"type": "ChooseTemplate", "template": "veer", "direction": None, "reverse": False}
    assert refused(doc) == [f"decisions[{i + 1}].direction: the veer needs direction left or right (p.16)"]


def test_nested_decision_fields() -> None:
    assert decision_from_json({"type": "SpendShifts", "spends": [{"use": "cancel", "die": 0}]}) == SpendShifts(
        (SpendShift(ShiftUse.CANCEL, 0),))
    with pytest.raises(DecisionError) as info:
        decision_from_json({"type": "SpendShifts", "spends": [{"use": "cancel", "die": 0, "x": 1}]})
    assert (info.value.where, info.value.reason) == ("spends[1].x", "unknown key for a SpendShifts")
    with pytest.raises(DecisionError) as info:
        decision_from_json({"type": "DeclareAttacks", "attacks": ""})
    assert (info.value.where, info.value.reason) == ("attacks", "Input should be a valid array")
    with pytest.raises(DecisionError) as info:
        decision_from_json({"type": "SpendShifts", "spends": [{"use": "bogus"}]})
    assert info.value.where == "spends[1].use"
    assert decision_from_json({"type": "PushIt", "reroll": [0, 2]}) == PushIt((0, 2))
    assert decode_decision({"type": "RollSkid", "count": 2}) == RollSkid(2)
    assert decode_decision({"type": "ChooseTemplate", "template": "turn", "direction": "left"}) == ChooseTemplate(
        "turn", "left")


def test_load_names_the_file_for_unreadable_saves(tmp_path: Path) -> None:
    p = tmp_path / "game.json"
    p.write_bytes(b'{"format": "gaslands-save", "seed": Infinity}')
    with pytest.raises(SaveError) as info:
        load(p)
    assert str(info.value) == f"{p}: (syntax): Infinity is not a JSON number"
    p.write_bytes(b"[" * 5000 + b"]" * 5000)
    with pytest.raises(SaveError) as info:
        load(p)
    assert str(info.value) == f"{p}: (file): nested more than 32 levels deep"
    p.write_bytes('{"format": "caf\u00e9"}'.encode("latin-1"))
    with pytest.raises(SaveError) as info:
        load(p)
    assert str(info.value).startswith(f"{p}: (file): not UTF-8 text (byte ")
