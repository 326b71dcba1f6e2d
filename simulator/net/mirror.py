"""Dice that remember what they rolled (the server) and a client's copy of the server's game (the mirror).

The server plays its game with :class:`RecordingDice` around its seeded dice:
after each decision :meth:`RecordingDice.take` gives exactly the dice that
decision consumed, and those are sent with it. A client keeps a
:class:`Mirror`: a real :class:`~simulator.gaslands.game.Game` built from the
scenario text, the options and Pole Position the server sends (never the
seed), that applies each confirmed decision with
:class:`~simulator.gaslands.dice.ScriptedDice` loaded with those dice. It so
has the whole typed prompt, the events with names and deltas, and its own
:class:`~simulator.gaslands.table_referee.TableReferee` for drawing, and it
checks the server's :func:`~simulator.net.protocol.state_digest` after each
decision.
"""

from __future__ import annotations

from simulator.errors import IllegalChoice, InputFileError, SimulatorError
from simulator.gaslands.dice import DiceExhausted, DiceSource, ScriptedDice, SkidFace
from simulator.gaslands.game import Game
from simulator.gaslands.prompts import Prompt
from simulator.gaslands.table_referee import TableReferee
from simulator.net.protocol import Dice, Move, Seat, Welcome, state_digest
from simulator.safe_read import parse_toml
from simulator.scenario.loader import Scenario, parse_scenario
from simulator.scenario.save_file import DecisionError, decision_from_json
from simulator.scenario.saves import decode_options
from simulator.scenario.setup import starting_state


class RecordingDice:
    """A :class:`DiceSource` that rolls with ``inner`` and keeps every die rolled since the last :meth:`take`.

    :meth:`restore` (what :meth:`Game.decide` does when a decision is refused)
    forgets the dice rolled since, as the refused decision never happened.
    """

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self._d6: list[int] = []
        self._skid: list[str] = []

    def roll_d6(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` D6 with the inner dice and remember them."""
        rolled = self.inner.roll_d6(n)
        self._d6.extend(rolled)
        return rolled

    def roll_skid(self, n: int) -> tuple[SkidFace, ...]:
        """Roll ``n`` Skid Dice with the inner dice and remember them."""
        rolled = self.inner.roll_skid(n)
        self._skid.extend(face.value for face in rolled)
        return rolled

    def snapshot(self) -> object:
        """The inner dice's snapshot."""
        return self.inner.snapshot()

    def restore(self, snapshot: object) -> None:
        """Put the inner dice back and forget what was rolled since the last :meth:`take`."""
        self.inner.restore(snapshot)
        self._d6.clear()
        self._skid.clear()

    def take(self) -> Dice:
        """The dice rolled since the last call, in order; the record starts again empty."""
        out = Dice(d6=list(self._d6), skid=list(self._skid))  # type: ignore[arg-type]
        self._d6.clear()
        self._skid.clear()
        return out


class Desync(SimulatorError):
    """The client's copy of the game no longer matches the server's (or the server sent what cannot be
    applied): the connection is dropped and the game fetched again."""


def scenario_from_text(toml: str, source: str) -> Scenario:
    """The scenario whose file text the server sent; :class:`Desync` naming the problem if it cannot be read."""
    try:
        return parse_scenario(parse_toml(toml, f"{source} (from the server)"), source)
    except InputFileError as exc:
        first = exc.problems[0] if exc.problems else None
        detail = f"{first.where}: {first.reason}" if first else str(exc)
        raise Desync(f"the server's scenario cannot be read here: {detail}") from None


class Mirror:
    """A client's copy of the server's game, built from a :class:`Welcome` and kept up by :meth:`apply`.

    Read :attr:`game` (a :class:`Game`: ``prompt``, ``state``, ``log``,
    ``last_events``, ``referee``) as in hot-seat play; never decide on it
    directly: send the decision to the server and apply what it confirms.
    """

    def __init__(self, welcome: Welcome) -> None:
        self.scenario = scenario_from_text(welcome.scenario.toml, welcome.scenario.source)
        self.seats: list[Seat] = list(welcome.seats)
        options = decode_options(welcome.options)
        try:
            state = starting_state(self.scenario, 0, options, pole=welcome.pole)
        except (ValueError, InputFileError) as exc:
            raise Desync(f"the server's game cannot be set up here: {exc}") from None
        referee = TableReferee(self.scenario.table, self.scenario.template_set)
        dice = _scripted(welcome.start_dice)
        self.game = Game(state, dice, referee, self.scenario.template_set, options)
        if not dice.exhausted:
            raise Desync("starting the game here used fewer dice than on the server")
        self.digests: list[str] = [state_digest(self.game.engine_state)]
        self.catch_up(welcome.moves, welcome.digest)

    @property
    def n(self) -> int:
        """Decisions applied so far (the next decision is number ``n + 1``)."""
        return len(self.digests) - 1

    @property
    def prompt(self) -> Prompt:
        """What the game waits for."""
        return self.game.prompt

    def seat_of(self, player: int) -> str | None:
        """The seat (player id) of player index ``player``; None for -1 (nobody)."""
        return next((s.seat for s in self.seats if s.player == player), None)

    def catch_up(self, moves: list[Move], digest: str) -> int:
        """Apply the ``moves`` this copy does not have yet (a welcome after a reconnect repeats the ones it has,
        and their digests must match); returns how many were applied. :class:`Desync` if the histories differ."""
        applied = 0
        for move in moves:
            if move.n <= self.n:
                if self.digests[move.n] != move.digest:
                    raise Desync(f"decision {move.n} differs between this copy and the server")
                continue
            self.apply(move)
            applied += 1
        if self.digests[-1] != digest:
            raise Desync("this copy of the game differs from the server's after catching up")
        return applied

    def apply(self, move: Move) -> None:
        """Apply one confirmed decision with the dice it consumed on the server; :class:`Desync` if it is not
        the next one, cannot be applied, uses other dice, or leads to another state than the server's."""
        if move.n != self.n + 1:
            raise Desync(f"the server sent decision {move.n}; this copy expects {self.n + 1}")
        try:
            decision = decision_from_json(move.decision)
        except DecisionError as exc:
            raise Desync(f"decision {move.n} from the server cannot be read: {exc}") from None
        dice = _scripted(move.dice)
        self.game.dice = dice
        try:
            self.game.decide(decision)
        except (IllegalChoice, DiceExhausted, ValueError, KeyError) as exc:
            raise Desync(f"decision {move.n} from the server cannot be applied here: {exc}") from None
        if not dice.exhausted:
            raise Desync(f"decision {move.n} used fewer dice here than on the server")
        digest = state_digest(self.game.engine_state)
        if digest != move.digest:
            raise Desync(f"after decision {move.n} this copy differs from the server's game (check that both "
                         "computers run the same version of gaslands)")
        self.digests.append(digest)


def _scripted(dice: Dice) -> ScriptedDice:
    return ScriptedDice(d6=dice.d6, skid=dice.skid)
