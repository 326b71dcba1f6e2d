"""The machinery every perk, sponsor rule and upgrade of :mod:`simulator.gaslands.perks` shares.

The engine (:mod:`simulator.gaslands.engine`) calls the perks at named points
of the activation sequence (:data:`HOOKS`): ``after_deployment``,
``start_of_activation``, ``start_of_movement``, ``after_skid``,
``end_of_movement``, ``start_of_attacks``, ``end_of_attacks`` and
``end_of_activation``. Each point runs its handlers in order; a handler either
changes the game at once (and says so with a
:class:`~simulator.gaslands.events.PerkUsed` event) or asks its player a
question: a :class:`~simulator.gaslands.prompts.DeclarePrompt` whose ``perk``
names it and whose choices are the legal answers. The question is a value
(:class:`PerkAsk`); its answer is applied by the perk's answer function and
play goes on from the :class:`PerkStep` continuation, so the game stays a pure
function of its decisions. Every event the engine emits is also shown to the
perks (:func:`observe`), which react to wipeouts, wrecks, damage and Hazard
Tokens (Crowd Pleaser, Beerserker, Mister Fahrenheit...).

A game without teams has no :class:`~simulator.gaslands.state.Loadout`: then
every hook resumes at once and nothing changes (the golden playthroughs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from simulator.frozen import replace
from simulator.gaslands.events import GameEvent, PerkUsed, VotesGained
from simulator.gaslands.prompts import DeclarePrompt, Lookahead
from simulator.gaslands.referee import MovePlan
from simulator.gaslands.state import GameState, Loadout, VehicleState
from simulator.gaslands.tables import load_perks, load_sponsors, load_upgrades

if TYPE_CHECKING:
    from simulator.gaslands.engine import Resume, _Run

HOOKS: tuple[str, ...] = ("after_deployment", "start_of_activation", "start_of_movement", "after_skid",
                          "end_of_movement", "start_of_attacks", "end_of_attacks", "end_of_activation")
"""The named points of the activation sequence where perks act (p.19-35)."""


@dataclass(frozen=True)
class PerkStep:
    """Run the handlers of ``hook`` from ``index`` on, then resume play at ``then`` (a continuation)."""

    hook: str
    index: int
    then: Resume


@dataclass(frozen=True)
class PerkAsk:
    """A perk's question waiting for its answer: whose perk (``vehicle``), which (``perk``), what the
    answer function needs (``context``), and where play goes on afterwards (``then``)."""

    perk: str
    vehicle: str
    then: Resume
    context: tuple[str, ...] = ()


@dataclass(frozen=True)
class Question:
    """What a handler asks: ``player`` chooses one of ``choices`` (each with its words in ``labels``)."""

    player: int
    vehicle: str
    perk: str
    question: str
    choices: tuple[str, ...]
    labels: tuple[str, ...] = ()
    context: tuple[str, ...] = ()
    plans: tuple[MovePlan, ...] = ()
    """Moves to draw before the answer (:attr:`~simulator.gaslands.prompts.DeclarePrompt.plans`)."""


Handler = Callable[["_Run"], Question | None]
Answer = Callable[["_Run", PerkAsk, str], None]
Observer = Callable[["_Run", GameEvent], None]

_HANDLERS: dict[str, list[tuple[str, Handler]]] = {hook: [] for hook in HOOKS}
_ANSWERS: dict[str, Answer] = {}
_OBSERVERS: list[Observer] = []


def hook(point: str, name: str, *, first: bool = False) -> Callable[[Handler], Handler]:
    """Register a handler of ``point`` (one of :data:`HOOKS`) named ``name`` (a perk or rule key); ``first``: run
    it before every other (the resets of what lasted for a step)."""
    if point not in _HANDLERS:
        raise ValueError(f"no hook {point!r}; hooks: {', '.join(HOOKS)}")

    def register(fn: Handler) -> Handler:
        if first:
            _HANDLERS[point].insert(0, (name, fn))
        else:
            _HANDLERS[point].append((name, fn))
        return fn
    return register


def answers(name: str) -> Callable[[Answer], Answer]:
    """Register the function that applies the answer to ``name``'s questions; it must go on with
    ``run._resume(ask.then)`` (or open a window that resumes there)."""
    def register(fn: Answer) -> Answer:
        _ANSWERS[name] = fn
        return fn
    return register


def observer(fn: Observer) -> Observer:
    """Register a function shown every event the engine emits."""
    _OBSERVERS.append(fn)
    return fn


def handlers(point: str) -> tuple[str, ...]:
    """The names of ``point``'s handlers, in the order they run."""
    return tuple(name for name, _ in _HANDLERS[point])


# --------------------------------------------------------------------------- running


def in_play(run: _Run) -> bool:
    """Whether any vehicle of the game was built as a team (otherwise the perks never act)."""
    return bool(run.state.loadouts)


def step(run: _Run, k: PerkStep) -> None:
    """Run ``k.hook``'s handlers from ``k.index``; stop at the first question, else resume at ``k.then``."""
    if in_play(run):
        entries = _HANDLERS[k.hook]
        for i in range(k.index, len(entries)):
            asked = entries[i][1](run)
            if asked is not None:
                ask(run, asked, PerkStep(k.hook, i + 1, k.then))
                return
    run._resume(k.then)


def ask(run: _Run, q: Question, then: Resume) -> None:
    """Put ``q`` to its player; the answer goes to the perk's answer function, then play resumes at ``then``."""
    row = rule_row(q.perk)
    run._declaring = f"{row[0]}, {row[1]}"
    run._on_declared = PerkAsk(q.perk, q.vehicle, then, q.context)
    run.prompt = DeclarePrompt(q.player, q.vehicle, run._declaring, q.question, q.choices, q.perk, q.labels,
                               q.plans, Lookahead(run.referee, run.state) if q.plans else None)


def answer(run: _Run, k: PerkAsk, choice: str) -> None:
    """Apply ``choice`` (already checked against the prompt's choices) and go on."""
    _ANSWERS[k.perk](run, k, choice)


def observe(run: _Run, event: GameEvent) -> None:
    """Show ``event`` to every observer (the perks that react to what happens)."""
    if in_play(run) and not isinstance(event, PerkUsed | VotesGained):
        for fn in _OBSERVERS:
            fn(run, event)


# --------------------------------------------------------------------------- what the perks share


def rule_row(key: str) -> tuple[str, str]:
    """``(name, "p.N")`` of a perk, sponsored perk or upgrade key."""
    perks = load_perks()
    if key in perks:
        return perks[key].name, f"p.{perks[key].page}"
    for sponsor in load_sponsors().values():
        for sp in sponsor.perks:
            if sp.key == key:
                return sp.name, f"p.{sp.page}"
    upgrades = load_upgrades()
    if key in upgrades:
        return upgrades[key].name, f"p.{upgrades[key].page}"
    return key.replace("_", " ").title(), ""


def has(state: GameState, vehicle_id: str, key: str) -> bool:
    """Whether the vehicle has the perk, its sponsor's perk, or the upgrade ``key``."""
    k = state.loadout(vehicle_id)
    if key in k.perks or any(u == key for u, _ in k.upgrades):
        return True
    if k.sponsor:
        return load_sponsors()[k.sponsor].has_perk(key)
    return False


def with_perk(state: GameState, vehicle_id: str, key: str) -> tuple[VehicleState, ...]:
    """The vehicles in play with ``key`` (perk, sponsored perk or upgrade), ``vehicle_id`` excluded."""
    return tuple(v for v in state.vehicles if v.in_play and v.id != vehicle_id and has(state, v.id, key))


def note(state: GameState, owner: str, fact: str) -> int:
    """The note ``owner:fact``."""
    return state.notes.get(f"{owner}:{fact}")


def set_note(run: _Run, owner: str, fact: str, value: int) -> None:
    """Set the note ``owner:fact`` to ``value``."""
    run.state = replace(run.state, notes=run.state.notes.set(f"{owner}:{fact}", value))


def add_note(run: _Run, owner: str, fact: str, amount: int = 1) -> int:
    """Add ``amount`` to the note ``owner:fact``; its new value."""
    run.state = replace(run.state, notes=run.state.notes.add(f"{owner}:{fact}", amount))
    return note(run.state, owner, fact)


def clear_notes(run: _Run, suffix: str) -> None:
    """Forget every note whose fact ends in ``suffix`` (``":activation"``, ``":phase"``, ``":round"``)."""
    run.state = replace(run.state, notes=run.state.notes.without(suffix))


def team(state: GameState, player: int) -> tuple[VehicleState, ...]:
    """``player``'s vehicles in play."""
    return tuple(v for v in state.vehicles if v.player == player and v.in_play)


def change(run: _Run, vehicle: VehicleState, key: str, what: str, *, hull: int = 0, hazards: int = 0,
           gear: int = 0, source: str = "") -> VehicleState:
    """Change ``vehicle`` by these amounts (``hull`` > 0 repairs up to its Hull Value, < 0 damages; Hazard
    Tokens and gear stay within their limits) and log a :class:`PerkUsed` with the deltas that really
    happened; returns the changed vehicle."""
    v = run.state.vehicle(vehicle.id)
    damage = max(0, v.damage - hull) if hull > 0 else v.damage - hull
    after = replace(v, damage=damage, hazards=max(0, v.hazards + hazards), gear=max(1, min(v.max_gear, v.gear + gear)))
    return record(run, v, after, key, what, source)


def record(run: _Run, before: VehicleState, after: VehicleState, key: str, what: str,
           source: str = "") -> VehicleState:
    """Put ``after`` in place of ``before`` and log a :class:`PerkUsed` with the Hull, Hazard and gear deltas."""
    run._put(after)
    name, page = rule_row(key)
    run.log.append(PerkUsed(after.id, after.label, name, page, what, after.hull_points - before.hull_points,
                            after.hazards - before.hazards, after.gear - before.gear, source))
    return after


def tell(run: _Run, vehicle: VehicleState, key: str, what: str, source: str = "") -> None:
    """Log a :class:`PerkUsed` that changes no dashboard numbers."""
    name, page = rule_row(key)
    run.log.append(PerkUsed(vehicle.id, vehicle.label, name, page, what, source=source))


def votes(run: _Run, player: int, count: int, key: str, why: str) -> None:
    """``player`` gains ``count`` Audience Votes for ``key`` (only with the Audience Votes module, p.88)."""
    if not run.options.audience_votes or count <= 0 or not 0 <= player < len(run.state.players):
        return
    current = list(run.state.votes) or [0] * len(run.state.players)
    current[player] += count
    run.state = replace(run.state, votes=tuple(current))
    name, page = rule_row(key)
    run.log.append(VotesGained(player, run.state.players[player], count, f"{name} ({page}): {why}"))


def enemies(state: GameState, vehicle: VehicleState) -> tuple[VehicleState, ...]:
    """The vehicles in play of other players."""
    return tuple(v for v in state.vehicles if v.in_play and v.player != vehicle.player)


def friends(state: GameState, vehicle: VehicleState) -> tuple[VehicleState, ...]:
    """The vehicles in play of the same player, ``vehicle`` excluded."""
    return tuple(v for v in state.vehicles if v.in_play and v.player == vehicle.player and v.id != vehicle.id)


def within(run: _Run, vehicle_id: str, band: str, among: Sequence[VehicleState]) -> tuple[VehicleState, ...]:
    """Those of ``among`` within range ``band`` (``short``, ``medium``, ``long``, ``double``) of the vehicle, in
    a 360-degree arc (the shooting templates' lengths, p.28)."""
    ids = set(run.referee.within(run.state, vehicle_id, band)) if among else set()
    return tuple(v for v in among if v.id in ids)


def active_vehicle(run: _Run) -> VehicleState | None:
    """The active vehicle, if any and in play."""
    if not run._active:
        return None
    v = run.state.vehicle(run._active)
    return v if v.in_play else None


def loadout_with(state: GameState, vehicle_id: str, perk: str) -> Loadout:
    """The vehicle's loadout with ``perk`` added (Whizbang, Gyroscope, p.114)."""
    k = state.loadout(vehicle_id)
    return replace(k, perks=(*k.perks, perk))


__all__ = ["HOOKS", "PerkAsk", "PerkStep", "Question", "answer", "answers", "ask", "handlers", "hook", "observe",
           "observer", "step"]
