"""One conformance check for every board (STYLE.md item 10: Gymnasium's ``check_env``, OpenSpiel's ``random_sim_test``).

The Gaslands table (a Street Race) and both Deadlands boards (Slaughter Gulch,
Doomtown) are driven through the same small adapter interface:

* ``new(seed)`` -> a state value;
* ``legal_actions(state)`` -> a sorted, deterministic list of actions;
* ``apply(state, action)`` -> a new state; the old one is never changed; an
  illegal action raises :class:`simulator.errors.IllegalChoice` with a reason;
* ``to_document(state)`` -> a JSON-able dict; ``from_document(doc)`` -> a state;
* ``illegal_action(state)`` -> an action the rules refuse here, or ``None``.

Each suite plays a few dozen random legal actions, chosen by
``random.Random(seed)``, and checks determinism, serialisation, immutability
and that every legal action applies (and an illegal one is refused by name).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import pytest

from simulator.boards import doomtown as dt
from simulator.boards import slaughter_gulch as sg
from simulator.boards.board_files import load_board_path, town_document, town_from_document
from simulator.errors import IllegalChoice
from simulator.gaslands import save
from simulator.gaslands.bots import Bot
from simulator.gaslands.collisions import Reaction
from simulator.gaslands.decisions import (
    Activate,
    ChooseTemplate,
    Declare,
    DeclareAttacks,
    PassPole,
    Prompt,
    PushIt,
    React,
    RollSkid,
    SlideFacing,
    SpendShifts,
)
from simulator.gaslands.game import Game
from simulator.gaslands.setup import new_game
from simulator.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SEEDS = (1, 2, 3)
STEPS = 30
Action = Any
State = Any


class Adapter(Protocol):
    """What the conformance suite needs from a game or board."""

    name: str

    def new(self, seed: int) -> State: ...
    def legal_actions(self, state: State) -> list[Action]: ...
    def apply(self, state: State, action: Action) -> State: ...
    def to_document(self, state: State) -> dict[str, Any]: ...
    def from_document(self, doc: dict[str, Any]) -> State: ...
    def illegal_action(self, state: State) -> Action | None: ...


# --------------------------------------------------------------------------- Gaslands


class GaslandsAdapter:
    """The Street Race game. A state is a :class:`Game`; an action is a decision; documents are saves.

    Legal actions are the bot's answer plus every answer the prompt lists outright
    (vehicles, templates each way, dice counts, reactions, declared options).
    ``apply`` replays the decisions into a fresh game, so the old game is untouched.
    """

    name = "gaslands_street_race"
    bot = Bot()

    def new(self, seed: int) -> Game:
        return new_game(load_scenario(ROOT / "scenarios" / "street_race.toml"), seed)

    def legal_actions(self, game: Game) -> list[Action]:
        p = game.prompt
        if p.kind == "game_over":
            return []
        unique = {repr(a): a for a in (*self.listed(p), self.bot.decide(game))}
        return [unique[k] for k in sorted(unique)]

    @staticmethod
    def listed(p: Prompt) -> list[Action]:
        """The answers a prompt lists outright (or an always-legal "none"), by prompt kind."""
        o = p.options
        answers: dict[str, Callable[[], list[Action]]] = {
            "activate": lambda: [Activate(str(v)) for v in o],
            "template": lambda: [ChooseTemplate(str(t), side) for t in o
                                 for side in ((None,) if "straight" in str(t) else ("left", "right"))],
            "skid": lambda: [RollSkid(int(str(n))) for n in o],
            "push_it": lambda: [PushIt()],
            "shifts": lambda: [SpendShifts()],
            "slide_facing": lambda: [SlideFacing("left"), SlideFacing("right")],
            "react": lambda: [React(r) for r in o if isinstance(r, Reaction)],
            "attacks": lambda: [DeclareAttacks()],
            "declare": lambda: [Declare(str(v)) for v in o],
            "pass_pole": lambda: [PassPole(int(str(v))) for v in o],
        }
        return answers[p.kind]() if p.kind in answers else []

    def apply(self, game: Game, action: Action) -> Game:
        assert game.origin is not None
        return Game.replay(game.origin.seed, game.initial_state, [*game.decisions, action], game.referee,
                           game.permissions, game.options, game.origin)

    def to_document(self, game: Game) -> dict[str, Any]:
        return save.to_json(game)

    def from_document(self, doc: dict[str, Any]) -> Game:
        return save.from_json(doc)

    def illegal_action(self, game: Game) -> Action | None:
        return Activate("no-such-vehicle")


# --------------------------------------------------------------------------- Slaughter Gulch


class GulchAdapter:
    """Slaughter Gulch from a seeded four-outfit setup. A state is a :class:`sg.Town`.

    Actions: ``("move", dude, to, run)`` for each legal destination other than
    the start, ``("jail", dude)`` while a cell is free, ``("townsfolk", d1, d2)``
    for each 2d6 roll that names a building (chance as a player), ``("end_round",)``.
    """

    name = "slaughter_gulch"

    def new(self, seed: int) -> sg.Town:
        board = sg.setup_seeded(4, seed)
        outfits = ("rangers", "agency")
        dudes = tuple(sg.Dude(f"{o}-{i}", o, sg.HOME if i == 1 else board.buildings[(3 * i + seed) % 12],
                              wounded=i == 2) for o in outfits for i in (1, 2, 3))
        return sg.Town(board, dudes, (sg.JAIL,), sg.JAIL)

    def legal_actions(self, town: sg.Town) -> list[Action]:
        actions: list[Action] = [("end_round",)]
        for d in town.dudes:
            for run in (False, True):
                actions += [("move", d.id, to, run) for to in sg.legal_moves(town.board, d, run) if to != d.at]
            if sg.can_jail(town).legal and not d.in_cell and not d.dead:
                actions.append(("jail", d.id))
        actions += [("townsfolk", a, b) for a in range(1, 7) for b in range(1, 7)
                    if sg.townsfolk_destination(town.board, (a, b))]
        return sorted(set(actions))

    def apply(self, town: sg.Town, action: Action) -> sg.Town:
        kind, *args = action
        if kind == "move":
            dude_id, to, run = args
            sg.check_plan(town.board, town.dude(dude_id), sg.Plan(to, run)).require()
            return town.moved(dude_id, to)
        if kind == "jail":
            return sg.send_to_jail(town, args[0])
        if kind == "townsfolk":
            return town._replace(townsfolk=(*town.townsfolk, sg.place_townsfolk(town.board, [tuple(args)])))
        if kind == "end_round":
            return sg.end_round(town)
        raise IllegalChoice(f"unknown action {kind!r}")

    def to_document(self, town: sg.Town) -> dict[str, Any]:
        return town_document(town)

    def from_document(self, doc: dict[str, Any]) -> sg.Town:
        town = town_from_document(doc)
        assert isinstance(town, sg.Town)
        return town

    def illegal_action(self, town: sg.Town) -> Action | None:
        """A walk to a space more than two spaces away (or through a wall) for the first dude that can move."""
        for d in town.dudes:
            walk = sg.legal_moves(town.board, d, False)
            far = sorted(loc for loc in town.board.locations if loc not in walk)
            if far and not d.in_cell and not d.dead:
                return ("move", d.id, far[0], False)
        return None


# --------------------------------------------------------------------------- Doomtown


class DoomAdapter:
    """Doomtown from the sample scenario. A state is a :class:`dt.Town`.

    Actions: ``("move", dude, to)`` for each legal move, ``("destroy", deed)``,
    ``("add_deed", player, end, id)``, ``("out_of_town", player, id)``,
    ``("send_home", dude)`` and ``("nightfall",)``. New deed ids are the first
    free ``deed-N``. The seed shuffles nothing: the random actions differ.
    """

    name = "doomtown"

    def new(self, seed: int) -> dt.Town:
        game = load_board_path(ROOT / "scenarios" / "doomtown.toml")
        assert isinstance(game.town, dt.Town)
        return game.town

    def legal_actions(self, town: dt.Town) -> list[Action]:
        fresh = next(f"deed-{n}" for n in range(1, 10_000) if f"deed-{n}" not in town.locations)
        actions: list[Action] = [("nightfall",)]
        for d in town.dudes:
            actions += [("move", d.id, to) for to in town.locations if dt.move_cost(town, d.id, to).legal]
            actions.append(("send_home", d.id))
        deeds = [loc for loc in town.locations if loc != dt.TOWN_SQUARE and loc not in town.homes]
        actions += [("destroy", deed) for deed in deeds]
        for s in town.streets:
            actions += [("add_deed", s.player, end, fresh) for end in ("left", "right")]
            actions.append(("out_of_town", s.player, fresh))
        return sorted(set(actions))

    def apply(self, town: dt.Town, action: Action) -> dt.Town:
        kind, *args = action
        steps = {
            "move": lambda: dt.move(town, args[0], args[1]),
            "destroy": lambda: dt.destroy(town, args[0]),
            "add_deed": lambda: dt.add_deed(town, args[0], args[2], args[1]),
            "out_of_town": lambda: dt.add_out_of_town(town, args[0], args[1]),
            "send_home": lambda: dt.send_home_booted(town, args[0]),
            "nightfall": lambda: dt.unboot_all(town),
        }
        if kind not in steps:
            raise IllegalChoice(f"unknown action {kind!r}")
        return steps[kind]()

    def to_document(self, town: dt.Town) -> dict[str, Any]:
        return town_document(town)

    def from_document(self, doc: dict[str, Any]) -> dt.Town:
        town = town_from_document(doc)
        assert isinstance(town, dt.Town)
        return town

    def illegal_action(self, town: dt.Town) -> Action | None:
        """Destroying a home: homes are not deeds."""
        return ("destroy", sorted(town.homes)[0])


ADAPTERS: list[Adapter] = [GaslandsAdapter(), GulchAdapter(), DoomAdapter()]


# --------------------------------------------------------------------------- the checks


def documents_equal(adapter: Adapter, a: State, b: State) -> bool:
    """States compare by their documents (a Gaslands game has no ``==``; the boards are values)."""
    return canonical(adapter.to_document(a)) == canonical(adapter.to_document(b))


def canonical(doc: dict[str, Any]) -> str:
    """The document as sorted JSON text: proves it JSON-able and compares it exactly."""
    return json.dumps(doc, sort_keys=True)


def random_run(adapter: Adapter, seed: int, steps: int = STEPS) -> list[State]:
    """The states of a random game: ``random.Random(seed)`` picks among the legal actions each step."""
    rng = random.Random(seed)
    states = [adapter.new(seed)]
    for _ in range(steps):
        actions = adapter.legal_actions(states[-1])
        if not actions:
            break
        states.append(adapter.apply(states[-1], rng.choice(actions)))
    return states


@pytest.fixture(params=ADAPTERS, ids=lambda a: a.name)
def adapter(request: pytest.FixtureRequest) -> Adapter:
    board: Adapter = request.param
    return board


@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_same_game(adapter: Adapter, seed: int) -> None:
    """(a) Determinism: the same seed and random action sequence give equal states and documents, twice."""
    first, second = random_run(adapter, seed), random_run(adapter, seed)
    assert len(first) == len(second) > 1
    for a, b in zip(first, second, strict=True):
        assert documents_equal(adapter, a, b)
        if not isinstance(a, Game):
            assert a == b
        assert adapter.legal_actions(a) == adapter.legal_actions(b)


@pytest.mark.parametrize("seed", SEEDS)
def test_document_round_trip_at_every_step(adapter: Adapter, seed: int) -> None:
    """(b) Serialisation: from_document(to_document(s)) equals s (or its document does) at every step."""
    for state in random_run(adapter, seed):
        doc = json.loads(canonical(adapter.to_document(state)))
        back = adapter.from_document(doc)
        assert documents_equal(adapter, back, state)
        if not isinstance(state, Game):
            assert back == state
        assert adapter.legal_actions(back) == adapter.legal_actions(state)


@pytest.mark.parametrize("seed", SEEDS)
def test_apply_never_mutates(adapter: Adapter, seed: int) -> None:
    """(c) apply returns a new state; the old state's document is unchanged by it."""
    rng = random.Random(seed)
    state = adapter.new(seed)
    for _ in range(STEPS):
        actions = adapter.legal_actions(state)
        if not actions:
            break
        before = canonical(adapter.to_document(state))
        after = adapter.apply(state, rng.choice(actions))
        assert after is not state
        assert canonical(adapter.to_document(state)) == before
        state = after


@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_action_applies_and_an_illegal_one_is_named(adapter: Adapter, seed: int) -> None:
    """(d) Every listed action applies without raising; an illegal one raises IllegalChoice with a reason."""
    for state in random_run(adapter, seed, steps=STEPS // 3):
        actions = adapter.legal_actions(state)
        assert actions == sorted(actions, key=repr) or actions == sorted(actions)
        for action in actions:
            adapter.apply(state, action)
        illegal = adapter.illegal_action(state)
        if illegal is not None and actions:
            before = canonical(adapter.to_document(state))
            with pytest.raises(IllegalChoice) as refused:
                adapter.apply(state, illegal)
            assert str(refused.value)
            assert canonical(adapter.to_document(state)) == before


def test_the_runs_differ_between_seeds() -> None:
    """The random runs are not trivially the same: each adapter's final documents vary with the seed."""
    for adapter in ADAPTERS:
        finals = {canonical(adapter.to_document(random_run(adapter, seed)[-1])) for seed in SEEDS}
        assert len(finals) > 1, adapter.name
