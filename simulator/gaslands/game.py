"""A game in progress: the engine's states in a history, the dice and the referee.

The rules live in :mod:`simulator.gaslands.engine` as a pure function
``step(state, decision, dice, referee)``. :class:`Game` keeps the states it
produced in a :class:`~simulator.history.History`, so :meth:`Game.undo` and
:meth:`Game.redo` are a move of the cursor (constant time, the dice put back
where they were), and ``Game.replay(seed, state, decisions, ...)`` rebuilds a
game exactly from a seed and its decisions (DESIGN.md: a game is a seed plus a
list of decisions).

>>> from simulator.gaslands.referee import OpenTableReferee
>>> from simulator.gaslands.dice import SeededDice
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from simulator.errors import IllegalChoice
from simulator.frozen import fast_init
from simulator.gaslands.decisions import Decision
from simulator.gaslands.dice import DiceSource, SeededDice
from simulator.gaslands.engine import (
    DEFAULT_OPTIONS,
    EngineState,
    Event,
    Options,
    Rules,
    open_grid_slots,
    start,
    step,
)
from simulator.gaslands.permitted import PermissionTable
from simulator.gaslands.prompts import Prompt
from simulator.gaslands.referee import Referee
from simulator.gaslands.state import GameState
from simulator.history import History

__all__ = ["Entry", "Event", "Game", "Options", "Origin"]


@dataclass(frozen=True)
class Origin:
    """Where a game came from, for saving it: the scenario file's text and path, and the dice seed."""

    scenario_text: str
    source: str
    seed: int


@fast_init
@dataclass(frozen=True)
class Entry:
    """One point of a game's history: the state, the decision that led to it (None at the start), the events
    that decision caused, and the dice as they stood afterwards (to put them back on undo)."""

    state: EngineState
    decision: Decision | None
    events: tuple[Event, ...]
    dice: object


class Game:
    """A game in progress. Read :attr:`state`, :attr:`prompt` and :attr:`log`; answer with :meth:`decide`.

    ``dice`` must support ``snapshot``/``restore`` (every :class:`DiceSource`
    does) so that undo puts them back exactly.
    """

    def __init__(
        self,
        state: GameState,
        dice: DiceSource,
        referee: Referee,
        permissions: PermissionTable,
        options: Options = DEFAULT_OPTIONS,
    ) -> None:
        self.dice = dice
        self.referee = referee
        self.origin: Origin | None = None
        first = start(state, Rules(options, permissions), dice, referee)
        self.history: History[Entry] = History(Entry(first.state, None, first.events, dice.snapshot()))
        self._log: list[Event] | None = None
        self._dice_stale = False

    # ------------------------------------------------------------------ replay

    @classmethod
    def replay(
        cls,
        seed: int,
        state: GameState,
        decisions: Sequence[Decision],
        referee: Referee,
        permissions: PermissionTable,
        options: Options = DEFAULT_OPTIONS,
        origin: Origin | None = None,
    ) -> Game:
        """The game reached from ``state`` by ``decisions`` with dice seeded by ``seed``."""
        game = cls(state, SeededDice(seed), referee, permissions, options)
        game.origin = origin
        for decision in decisions:
            game.decide(decision)
        return game

    def undo(self, seed: int | None = None) -> Game:
        """Take back the last decision (constant time: the history's cursor moves back); returns ``self``.

        ``seed`` is accepted for compatibility and ignored. Raises ``IndexError`` at the start.
        """
        self.history.undo()
        self._after_move()
        return self

    def redo(self) -> Game:
        """Bring back the last decision taken back; returns ``self``. Raises ``IndexError`` if none."""
        self.history.redo()
        self._after_move()
        return self

    def fork(self) -> Game:
        """An independent copy at the same point (its own history and dice): deciding in one leaves the other.

        Costs a copy of the history's list, not a replay.
        """
        other = copy.copy(self)
        other.history = self.history.copy()
        other.dice = copy.deepcopy(self._fresh_dice())
        other._log = None
        return other

    def _after_move(self) -> None:
        self._dice_stale = True  # put back before the next roll (see decide): undo itself stays O(1)
        self._log = None

    def _fresh_dice(self) -> DiceSource:
        if self._dice_stale:
            self.dice.restore(self.history.current.dice)
            self._dice_stale = False
        return self.dice

    # ------------------------------------------------------------------ reading

    @property
    def engine_state(self) -> EngineState:
        """The present state of the engine (everything it knows, as a value)."""
        return self.history.current.state

    @property
    def state(self) -> GameState:
        """The table: vehicles, round, votes, dropped templates."""
        return self.history.current.state.game

    @property
    def prompt(self) -> Prompt:
        """The decision the game waits for."""
        return self.history.current.state.prompt

    @property
    def options(self) -> Options:
        """The switchable rules of this game."""
        return self.history.current.state.rules.options

    @property
    def permissions(self) -> PermissionTable:
        """The template set's permitted gears (p.17)."""
        return self.history.current.state.rules.permissions

    @property
    def initial_state(self) -> GameState:
        """The state the game started from (what a replay starts from)."""
        return self.history.start.state.game

    @property
    def decisions(self) -> list[Decision]:
        """Every decision so far, in order."""
        return [e.decision for e in self.history.entries[1:] if e.decision is not None]

    @property
    def log(self) -> list[Event]:
        """Every event so far, in order."""
        if self._log is None:
            self._log = [ev for e in self.history.entries for ev in e.events]
        return self._log

    @property
    def last_events(self) -> tuple[Event, ...]:
        """The events of the last decision (or of the start)."""
        return self.history.current.events

    @property
    def grid(self) -> dict[int, str]:
        """Starting Grid slots taken so far, slot to vehicle id (p.126)."""
        return dict(self.engine_state.flow.grid)

    def grid_slots(self, player: int | None = None) -> tuple[int, ...]:
        """The Starting Grid slots open now (p.126), for ``player`` (default: whose turn it is to deploy)."""
        s = self.engine_state
        who = s.flow.deploy_turn if player is None else player
        return open_grid_slots(s.game, self.referee, dict(s.flow.grid), who)

    # ------------------------------------------------------------------ deciding

    def decide(self, decision: Decision) -> None:
        """Answer the current prompt; raises :class:`IllegalChoice` (game and dice unchanged) if not legal."""
        try:
            out = step(self.engine_state, decision, self._fresh_dice(), self.referee)
        except IllegalChoice:
            self.dice.restore(self.history.current.dice)
            raise
        self.history.push(Entry(out.state, decision, out.events, self.dice.snapshot()))
        if self._log is not None:
            self._log.extend(out.events)
