"""The save file checked key by key before a game is replayed from it (DESIGN.md: a seed plus decisions).

:func:`validate_save_document` takes a parsed save document (JSON, see
:mod:`simulator.scenario.saves`) and either returns a :class:`CheckedSave` whose
every value has the type and range the engine expects, or raises
:class:`SaveError` naming the key and the reason::

    game.json: version: this save is version 999; this program reads versions 1 and 2
    game.json: decisions[14].count: Input should be a valid integer
    game.json: scenario.toml.vehicle[1].heading_deg: Input should be a finite number

Checked: ``format``; ``version`` (exactly :data:`VERSION`); ``seed`` (an
integer, not a float or a string); ``options`` (known keys, booleans strict,
``round_limit`` a positive integer); the embedded scenario (TOML text, read
and validated as a scenario file, its problems named under ``scenario.toml``);
each decision (a known ``type``, every field of the right type with no
unknown keys, numbers finite and bounded, vehicle ids and templates that the
scenario has, a direction for every turning template); the ``log`` (text
entries). Nothing is coerced: ``"false"`` is not a boolean, ``3.9`` is not a
seed, ``-1`` is not ``reverse``.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, fields, is_dataclass
from typing import Annotated, Any, Literal, get_args, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, Strict, StrictBool, TypeAdapter, ValidationError

from simulator.errors import InputFileError, Problem, readable_reason
from simulator.gaslands.decisions import ChooseTemplate, Decision
from simulator.safe_read import MAX_FILE_BYTES, parse_toml
from simulator.scenario.loader import Scenario, parse_scenario

FORMAT = "gaslands-save"
VERSION = 2
"""The save format this program writes. Version 2 added ``options.finish_line`` (p.62) and ends a game the
moment a race is won (p.62, p.128)."""

READABLE_VERSIONS = (1, 2)
"""Save versions this program reads: a version 1 save replays with the Finish Line rule of its time
(``touch``) and any decision made after the race was won is left out."""

MAX_DECISIONS = 100_000
"""The most decisions a save may hold (a long bot game has about 3,000)."""

MAX_DECISION_NUMBER = 100_000.0
"""No number in a decision is larger than this (mm, degrees, indices): beyond any table."""

DECISIONS: dict[str, type[Any]] = {cls.__name__: cls for cls in get_args(Decision)}
"""Every decision class by name (the members of the ``Decision`` union)."""


class SaveError(InputFileError):
    """A save file that cannot be read or replayed."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Id = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]


class CourseDoc(_Strict):
    """``options.course``: the race rules (p.62, p.124-128)."""

    kind: Literal["street_race", "death_race", "sandbox"] = "street_race"
    gates: Annotated[list[Id], Field(max_length=200)] = Field(default_factory=list)
    weapons_from_gate: Annotated[int, Strict(), Field(ge=0, le=200)] = 0
    pole_at_gates: StrictBool = False


class OptionsDoc(_Strict):
    """``options``: the switchable rules of :class:`~simulator.gaslands.game.Options`."""

    touch_it_use_it: StrictBool = True
    pass_pole_each_phase: StrictBool = True
    course: CourseDoc = Field(default_factory=CourseDoc)
    round_limit: Annotated[int, Strict(), Field(ge=1, le=100_000)] | None = None
    audience_votes: StrictBool = False
    starting_grid: StrictBool = False
    finish_line: Literal["centre", "touch"] | None = None


class ScenarioDoc(_Strict):
    """``scenario``: where the scenario came from and its whole text."""

    source: Annotated[str, Field(max_length=4096)] = "<save>"
    toml: Annotated[str, Field(max_length=MAX_FILE_BYTES)]


class LogEntry(BaseModel):
    """One event of the saved game log (for reading; the replay makes its own): its text and rule are checked,
    the rest of the event's fields are kept as they are."""

    model_config = ConfigDict(extra="allow", frozen=True)
    text: Annotated[str, Field(max_length=10_000)]
    rule: Annotated[str, Field(max_length=1_000)] = ""
    dice: Annotated[list[Any], Field(max_length=100)] = Field(default_factory=list)


Token = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{32,128}$")]


class OnlineDoc(_Strict):
    """``online``: a game hosted with ``gaslands host`` (docs/online.md), so that resuming it keeps its links.

    ``game`` is the game's id in the links, ``seats`` each seat's secret token by player id, ``spectator``
    the spectators' token; ``bind``/``port`` where the server listened and ``public_url`` the address the
    links were made with (None: ``ws://`` + the bound address).
    """

    game: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{4,64}$")]
    seats: Annotated[dict[Id, Token], Field(max_length=64)]
    spectator: Token
    bind: Annotated[str, Field(max_length=256)] = "127.0.0.1"
    port: Annotated[int, Strict(), Field(ge=0, le=65535)] = 0
    public_url: Annotated[str, Field(max_length=2048)] | None = None


class SaveDocument(_Strict):
    """The whole save document."""

    format: Literal["gaslands-save"]
    version: Annotated[int, Strict()]
    scenario: ScenarioDoc
    seed: Annotated[int, Strict(), Field(ge=-(2**63), lt=2**63)]
    options: OptionsDoc = Field(default_factory=OptionsDoc)
    decisions: Annotated[list[dict[str, Any]], Field(max_length=MAX_DECISIONS)] = Field(default_factory=list)
    log: Annotated[list[LogEntry], Field(max_length=10 * MAX_DECISIONS)] = Field(default_factory=list)
    online: OnlineDoc | None = None


@dataclass(frozen=True)
class CheckedSave:
    """A save document whose every key has been checked: the scenario built, the decisions decoded."""

    scenario: Scenario
    scenario_text: str
    scenario_source: str
    seed: int
    options: dict[str, Any]
    decisions: tuple[Decision, ...]
    version: int = VERSION
    online: OnlineDoc | None = None


# --------------------------------------------------------------------------- decisions


class DecisionError(ValueError):
    """A decision that is not what its ``type`` needs; ``where`` is the key path inside it (or ``""``)."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}" if where else reason)


_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def _adapter(cls: type[Any]) -> TypeAdapter[Any]:
    if cls not in _ADAPTERS:
        _ADAPTERS[cls] = TypeAdapter(cls)
    return _ADAPTERS[cls]


def _loc(parts: tuple[int | str, ...]) -> str:
    out = ""
    for part in parts:
        out += f"[{part + 1}]" if isinstance(part, int) else ("." if out else "") + str(part)[:64]
    return out


@functools.cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    """The type hints of a decision class (worked out once: they are read for every decision checked)."""
    return get_type_hints(cls)


def _unknown_keys(cls: type[Any], data: object, where: str) -> list[str]:
    """Keys of ``data`` that the dataclass ``cls`` (and the dataclasses inside it) has no field for."""
    if not isinstance(data, dict) or not is_dataclass(cls):
        return []
    hints = _hints(cls)
    names = {f.name for f in fields(cls)}
    prefix = f"{where}." if where else ""
    out = [f"{prefix}{k}" for k in data if k not in names]
    for name in sorted(names & set(data)):
        inner = [a for a in get_args(hints[name]) if isinstance(a, type) and is_dataclass(a)]
        value = data[name]
        if inner and isinstance(value, list):
            for i, item in enumerate(value, 1):
                out += _unknown_keys(inner[0], item, f"{prefix}{name}[{i}]")
    return out


def _bounded(value: object, where: str) -> None:
    """Every number inside ``value`` within :data:`MAX_DECISION_NUMBER`, every string at most 200 long."""
    stack: list[tuple[object, str]] = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, int | float) and abs(item) > MAX_DECISION_NUMBER:
            raise DecisionError(at, f"{item!r} is out of range (at most {MAX_DECISION_NUMBER:g} either way)")
        if isinstance(item, str) and len(item) > 200:
            raise DecisionError(at, "text longer than 200 characters")
        if isinstance(item, dict):
            stack.extend((v, f"{at}.{k}".lstrip(".")) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{at}[{i + 1}]") for i, v in enumerate(item))


def decision_from_json(data: object) -> Decision:
    """The decision a save holds as ``{"type": CLASS_NAME, FIELD: VALUE, ...}``, decoded strictly.

    Every field must have its declared type (JSON types: a tuple is an array, an
    enumeration its value), unknown keys are refused, numbers are bounded by
    :data:`MAX_DECISION_NUMBER`. Raises :class:`DecisionError` naming the key.
    """
    if not isinstance(data, dict):
        raise DecisionError("", "expected an object with a type")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in DECISIONS:
        raise DecisionError("type", f"expected one of {', '.join(DECISIONS)}")
    cls = DECISIONS[kind]
    body = {k: v for k, v in data.items() if k != "type"}
    unknown = _unknown_keys(cls, body, "")
    if unknown:
        raise DecisionError(unknown[0], f"unknown key for a {kind}")
    _bounded(body, "")
    try:
        decision: Decision = _adapter(cls).validate_json(json.dumps(body, allow_nan=False), strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise DecisionError(_loc(tuple(first["loc"])), readable_reason(first["msg"])) from None
    except ValueError as exc:  # a NaN or infinity put in by a program, not read from JSON
        raise DecisionError("", str(exc)) from None
    return decision


def _vehicle_ids(scenario: Scenario) -> set[str]:
    """The ids of the scenario's vehicles, its players' teams' vehicles included (named as the game names them)."""
    vehicles = {v.id for v in scenario.table.vehicles}
    if scenario.teams:
        from simulator.scenario.setup import initial_state

        vehicles |= {v.id for v in initial_state(scenario, 0).vehicles}
    return vehicles


def decision_references(decision: Decision, scenario: Scenario, vehicles: set[str] | None = None
                        ) -> list[tuple[str, str]]:
    """(key, reason) for each vehicle id or template in ``decision`` that ``scenario`` does not have (and a
    turning template without its direction, p.16); empty when every reference is known. ``vehicles``: the
    scenario's vehicle ids, when already worked out (:func:`_vehicle_ids`)."""
    if vehicles is None:
        vehicles = _vehicle_ids(scenario)
    out: list[tuple[str, str]] = []
    for key in ("vehicle_id",):
        value = getattr(decision, key, None)
        if isinstance(value, str) and value and value not in vehicles:
            out.append((key, f"no vehicle {value!r} in the scenario"))
    for i, attack in enumerate(getattr(decision, "attacks", ()), 1):
        if attack.target not in vehicles:
            out.append((f"attacks[{i}].target", f"no vehicle {attack.target!r} in the scenario"))
    for i, effect in enumerate(getattr(decision, "effects", ()), 1):
        if effect.vehicle_id and effect.vehicle_id not in vehicles:
            out.append((f"effects[{i}].vehicle_id", f"no vehicle {effect.vehicle_id!r} in the scenario"))
    if isinstance(decision, ChooseTemplate):
        movement = scenario.template_set.movement
        if decision.template not in movement:
            out.append(("template", f"unknown template {decision.template!r}; known: {', '.join(movement)}"))
        elif movement[decision.template].shape != "straight" and decision.direction is None:
            out.append(("direction", f"the {decision.template} needs direction left or right (p.16)"))
    return out


# --------------------------------------------------------------------------- the document


def _problems(error: ValidationError) -> list[Problem]:
    return [Problem(_loc(tuple(e["loc"])) or "(save)", readable_reason(e["msg"]))
            for e in error.errors()]


def _scenario(doc: ScenarioDoc, source: str) -> Scenario:
    inner = f"{source}: scenario.toml"
    try:
        raw = parse_toml(doc.toml, inner)
        return parse_scenario(raw, doc.source)
    except InputFileError as exc:
        raise SaveError(source, [Problem(f"scenario.toml.{p.where}" if not p.where.startswith("(")
                                         else f"scenario.toml {p.where}", p.reason)
                                 for p in exc.problems]) from None


def validate_save_document(document: object, source: str = "<save>") -> CheckedSave:
    """Check a parsed save document key by key (see the module docstring).

    Returns a :class:`CheckedSave`; raises :class:`SaveError` (an
    :class:`~simulator.errors.InputFileError`) naming ``source``, the key and
    the reason, with every problem of the top-level keys at once.
    """
    if not isinstance(document, dict):
        raise SaveError(source, [Problem("(file)", "expected a JSON object (a Gaslands save)")])
    if document.get("format") != FORMAT:
        raise SaveError(source, [Problem("format", f"not a Gaslands save (expected format = {FORMAT!r})")])
    version = document.get("version")
    if version not in READABLE_VERSIONS or isinstance(version, bool) or not isinstance(version, int):
        readable = " and ".join(str(v) for v in READABLE_VERSIONS)
        raise SaveError(source, [Problem("version", f"this save is version {str(version)[:20]}; this program "
                                                    f"reads versions {readable}")])
    try:
        doc = SaveDocument.model_validate(document)
    except ValidationError as exc:
        raise SaveError(source, _problems(exc)) from None
    scenario = _scenario(doc.scenario, source)
    vehicle_ids = _vehicle_ids(scenario)
    decisions: list[Decision] = []
    problems: list[Problem] = []
    for i, raw in enumerate(doc.decisions, 1):
        try:
            decision = decision_from_json(raw)
        except DecisionError as exc:
            problems.append(Problem(f"decisions[{i}]" + (f".{exc.where}" if exc.where else ""), exc.reason))
            continue
        problems += [Problem(f"decisions[{i}].{key}", reason)
                     for key, reason in decision_references(decision, scenario, vehicle_ids)]
        decisions.append(decision)
        if len(problems) >= 20:
            break
    if problems:
        raise SaveError(source, problems)
    return CheckedSave(scenario, doc.scenario.toml.removeprefix("\ufeff"), doc.scenario.source, doc.seed,
                       doc.options.model_dump(), tuple(decisions), version, doc.online)
