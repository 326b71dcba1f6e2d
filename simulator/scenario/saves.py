"""Saving, loading, autosaving and undoing games (DESIGN.md: a game is a seed plus its decisions).

A save file is JSON::

    {"format": "gaslands-save", "version": 2,
     "scenario": {"source": "scenarios/street_race.toml", "toml": "<the scenario file's text>"},
     "seed": 7, "options": {...}, "decisions": [{"type": "Activate", "vehicle_id": "red-car"}, ...],
     "log": [{"text": "...", "rule": "p.19", "dice": [...]}, ...]}

The scenario's text is embedded, so a save opens even when the scenario file
has changed or gone. :func:`load` rebuilds the game by replaying the decisions
with the seed; the saved log is for reading (the replay regenerates it).
Writes are atomic: a temporary file in the same folder, then ``os.replace``.

>>> import tempfile, pathlib
>>> from simulator.scenario.loader import bundled_scenario, load_scenario
>>> from simulator.scenario.setup import new_game
>>> game = new_game(load_scenario(bundled_scenario()), seed=3)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
>>> save(game, path)
>>> load(path).state == game.state
True

Errors: a file that is not a save, or whose decisions the rules reject on
replay, raises :class:`~simulator.errors.InputFileError` naming the key.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, is_dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from simulator.atomic import write_text_atomic
from simulator.errors import IllegalChoice, InputFileError, Problem
from simulator.gaslands.decisions import Decision
from simulator.gaslands.dice import SeededDice
from simulator.gaslands.game import Game, Options, Origin
from simulator.gaslands.race import Course
from simulator.gaslands.table_referee import TableReferee
from simulator.safe_read import read_json
from simulator.scenario.save_file import SaveError, decision_from_json, validate_save_document
from simulator.scenario.setup import options_for, starting_state

FORMAT = "gaslands-save"
VERSION = 2

# --------------------------------------------------------------------------- encoding


def _plain(value: object) -> object:
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)
                if not (f.metadata.get("omit_if_default") and getattr(value, f.name) == f.default)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def encode_decision(decision: Decision) -> dict[str, object]:
    """A decision as a JSON object with its class name under ``type``."""
    body = _plain(decision)
    assert isinstance(body, dict)
    return {"type": type(decision).__name__, **body}


def decode_decision(data: dict[str, Any]) -> Decision:
    """The decision written by :func:`encode_decision`, every field checked by type (no coercion);
    ``ValueError`` (a :class:`~simulator.scenario.save_file.DecisionError` naming the key) if malformed."""
    return decision_from_json(data)


def encode_options(options: Options) -> dict[str, object]:
    """Options as JSON (the course included; a scenario's rules come from the scenario text the save holds)."""
    return {k: _plain(v) for k, v in asdict(options).items() if k != "objective"}


def decode_options(data: dict[str, Any], version: int = VERSION) -> Options:
    """Options written by :func:`encode_options`; a version 1 save had no ``finish_line`` and touched it (p.62)."""
    course = data.get("course", {})
    return Options(
        touch_it_use_it=bool(data.get("touch_it_use_it", True)),
        pass_pole_each_phase=bool(data.get("pass_pole_each_phase", True)),
        course=Course(course.get("kind", "street_race"), tuple(course.get("gates", ())),
                      int(course.get("weapons_from_gate", 0)), bool(course.get("pole_at_gates", False))),
        round_limit=data.get("round_limit"),
        audience_votes=bool(data.get("audience_votes", False)),
        starting_grid=bool(data.get("starting_grid", False)),
        finish_line="touch" if data.get("finish_line") == "touch" or (
            version < 2 and data.get("finish_line") is None) else "centre",
    )


def to_json(game: Game) -> dict[str, object]:
    """The save document of ``game`` (it must have an ``origin``, as games from ``new_game`` do)."""
    if game.origin is None:
        raise ValueError("this game has no origin (scenario and seed): create it with setup.new_game")
    return {
        "format": FORMAT,
        "version": VERSION,
        "scenario": {"source": game.origin.source, "toml": game.origin.scenario_text},
        "seed": game.origin.seed,
        "options": encode_options(game.options),
        "decisions": [encode_decision(d) for d in game.decisions],
        "log": [e.to_json() for e in game.log],
    }


# --------------------------------------------------------------------------- files


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old file or the new one."""
    write_text_atomic(path, text)


def save(game: Game, path: Path) -> None:
    """Write ``game`` to ``path`` atomically."""
    write_atomic(Path(path), json.dumps(to_json(game), indent=1) + "\n")


def from_json(document: dict[str, Any], source: str = "<save>") -> Game:
    """Rebuild a game from a save document by replaying its decisions."""
    checked = validate_save_document(document, source)  # every key by type and range, or SaveError naming it
    scenario, seed, decisions = checked.scenario, checked.seed, checked.decisions
    options = options_for(scenario, decode_options(checked.options, checked.version))
    referee = TableReferee(scenario.table, scenario.template_set)
    game = Game(starting_state(scenario, seed, options), SeededDice(seed), referee, scenario.template_set, options)
    game.origin = Origin(checked.scenario_text, checked.scenario_source, seed)
    for i, decision in enumerate(decisions):
        if checked.version < 2 and game.prompt.kind == "game_over":
            break  # version 1 went on to the end of the activation after a win; the race ends at once now
        try:
            game.decide(decision)
        except (IllegalChoice, ValueError, KeyError) as exc:
            raise SaveError(source, [Problem(f"decisions[{i + 1}]", f"rejected on replay: {exc}")]) from None
    return game


def load(path: Path) -> Game:
    """Read a save file and replay it. Raises :class:`SaveError` naming the problem."""
    path = Path(path)
    try:
        document = read_json(path)  # size, UTF-8, nesting, strict JSON numbers
    except InputFileError as exc:
        raise SaveError(exc.source, exc.problems) from None
    if not isinstance(document, dict):
        raise SaveError(str(path), [Problem("(file)", "expected a JSON object")])
    return from_json(document, str(path))


@dataclass(frozen=True)
class SavedEvent:
    """An event as a save file stores it (for reading without replaying): its text, rule and JSON."""

    text: str
    rule: str
    data: dict[str, Any]


def saved_log(path: Path) -> list[SavedEvent]:
    """The event log stored in a save file, without replaying it."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    return [SavedEvent(str(e.get("text", "")), str(e.get("rule", "")), e) for e in document.get("log", [])]


def at_activation_boundary(game: Game) -> bool:
    """Whether the game waits between activations (or is over): the moments autosave writes."""
    return game.prompt.kind in ("activate", "game_over")


def autosave(game: Game, path: Path) -> bool:
    """Save ``game`` to ``path`` if it is between activations; returns whether it wrote.

    Call it after every decision: it writes once per activation, so a crash
    loses at most the activation in progress (DESIGN.md).
    """
    if not at_activation_boundary(game) or game.origin is None:
        return False
    save(game, path)
    return True


def undo(game: Game) -> Game:
    """The game without its last decision (a step back in its history; the dice are put back too)."""
    if game.origin is None:
        raise ValueError("this game has no origin (scenario and seed): create it with setup.new_game")
    return game.undo(game.origin.seed)
