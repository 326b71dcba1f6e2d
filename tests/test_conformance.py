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
from typing import Any, NamedTuple, Protocol

import pytest

from simulator.boards import board_options as bo
from simulator.boards import doom_actions as da
from simulator.boards import doom_turn as dtt
from simulator.boards import gulch_actions as ga
from simulator.boards import gulch_round as gr
from simulator.boards import slaughter_gulch as sg
from simulator.boards.board_files import load_board, read_toml
from simulator.boards.board_play import BoardPlay
from simulator.errors import IllegalChoice
from simulator.gaslands.bots import Bot
from simulator.gaslands.collisions import Reaction
from simulator.gaslands.decisions import (
    Activate,
    ChooseTemplate,
    Declare,
    DeclareAttacks,
    PassPole,
    PushIt,
    React,
    RollSkid,
    SlideFacing,
    SpendShifts,
)
from simulator.gaslands.game import Game
from simulator.gaslands.prompts import Prompt
from simulator.scenario import saves as save
from simulator.scenario.loader import load_scenario
from simulator.scenario.setup import new_game

ROOT = Path(__file__).resolve().parents[1]


def load_toml(path: Path) -> dict[str, Any]:
    """A board file as a table."""
    return read_toml(path)
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
        forked = game.fork()
        forked.decide(action)
        return forked

    def to_document(self, game: Game) -> dict[str, Any]:
        return save.to_json(game)

    def from_document(self, doc: dict[str, Any]) -> Game:
        return save.from_json(doc)

    def illegal_action(self, game: Game) -> Action | None:
        return Activate("no-such-vehicle")


# --------------------------------------------------------------------------- the Deadlands boards


class Run(NamedTuple):
    """A board game as a value: the start board (canonical JSON text), the actions so far, the state they give."""

    start: str
    actions: tuple[Any, ...]
    state: Any


class _BoardAdapter:
    """Both boards are played as a start board plus actions; documents are board saves (docs/boards.md).

    ``legal_actions`` are :mod:`simulator.boards.board_options`' sample of every
    kind of action the rules allow now; ``apply`` is the board's pure apply;
    ``from_document`` replays the save, so the round trip checks saves too.
    """

    name = ""
    game = ""
    apply_state: Callable[[Any, Any], tuple[Any, tuple[str, ...]]]
    options: Callable[[Any], list[Any]]

    def start(self, seed: int) -> dict[str, Any]:
        raise NotImplementedError

    def new(self, seed: int) -> Run:
        doc = self.start(seed)
        play = BoardPlay.from_file(load_board(doc, "<start>"))
        return Run(json.dumps(play.start_doc, sort_keys=True), (), play.state)

    def legal_actions(self, run: Run) -> list[Action]:
        return sorted(type(self).options(run.state), key=repr)

    def apply(self, run: Run, action: Action) -> Run:
        state, _ = type(self).apply_state(run.state, action)
        return Run(run.start, (*run.actions, action), state)

    def to_document(self, run: Run) -> dict[str, Any]:
        return {"format": "deadlands-board-save", "version": 1, "game": self.game, "title": "",
                "start": json.loads(run.start), "actions": [a.model_dump(mode="json") for a in run.actions]}

    def from_document(self, doc: dict[str, Any]) -> Run:
        play = BoardPlay.from_json(doc, "<document>")
        return Run(json.dumps(play.start_doc, sort_keys=True), tuple(play.actions), play.state)


class GulchAdapter(_BoardAdapter):
    """Slaughter Gulch: a seeded four-outfit town (two outfits playing), round by round, every step."""

    name = "slaughter_gulch"
    game = "slaughter_gulch"
    apply_state = staticmethod(gr.apply)
    options = staticmethod(bo.gulch_options)

    def start(self, seed: int) -> dict[str, Any]:
        board = sg.setup_seeded(4, seed)
        dudes = [{"id": f"{o}-{i}", "outfit": o, "wounded": i == 2,
                  "at": sg.HOME if i == 1 else board.buildings[(3 * i + seed) % 12]}
                 for o in ("texas_rangers", "hucksters") for i in (1, 2, 3)]
        folk = [{"at": sg.JAIL, "sheriff": True, "name": "Sheriff"}, {"at": board.buildings[seed % 12]}]
        return {"board": {"game": "slaughter_gulch", "players": 4, "seed": seed, "deputy": sg.JAIL},
                "outfit": [{"id": "texas_rangers", "ghost_rock": 5}, {"id": "hucksters", "ghost_rock": 5}],
                "dude": dudes, "townsfolk": folk}

    def illegal_action(self, run: Run) -> Action | None:
        """Ending the round before step 5 is over (or, after it, the spells step)."""
        return ga.EndSpells() if run.state.step == gr.Step.ARRIVALS else ga.EndRound()


class DoomAdapter(_BoardAdapter):
    """Doomtown from the sample scenario, turn by turn. The seed shuffles nothing: the random actions differ."""

    name = "doomtown"
    game = "doomtown"
    apply_state = staticmethod(dtt.apply)
    options = staticmethod(bo.doom_options)

    def start(self, seed: int) -> dict[str, Any]:
        return load_toml(ROOT / "scenarios" / "doomtown.toml")

    def illegal_action(self, run: Run) -> Action | None:
        """Destroying a home: homes are not deeds."""
        return da.Destroy(deed=sorted(run.state.town.homes)[0])


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
