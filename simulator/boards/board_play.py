"""A board game in progress: its history of states, its log, undo and redo, and its save file.

Both Deadlands boards are played the same way: a start position (a board
file) and a list of actions, each applied by a pure function
(:func:`simulator.boards.gulch_round.apply`,
:func:`simulator.boards.doom_turn.apply`) that returns the next state and the
log lines, each naming its rule. :class:`BoardPlay` keeps the states in a
:class:`simulator.history.History` (undo and redo move a cursor, as in the
Gaslands game) and writes the save file.

The save file is JSON, versioned and checked with pydantic when read::

    {"format": "deadlands-board-save", "version": 1, "game": "slaughter_gulch",
     "title": "...", "start": {board file as a table}, "actions": [{"kind": ...}, ...]}

A bad save gives :class:`simulator.errors.InputFileError` with one
``FILE: key: reason`` line per problem (``version``, ``start.dude[2].at``,
``actions[7].attack.outcome``, or ``actions[7]`` with the rule that refuses
the action when it is replayed), never a traceback. Files are written
atomically (:func:`simulator.atomic.write_text_atomic`); autosaves go to the
user's data folder (``platformdirs``), never the working folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from simulator import safe_read
from simulator.atomic import write_text_atomic
from simulator.boards import doom_actions as da
from simulator.boards import doom_turn as dtt
from simulator.boards import gulch_actions as ga
from simulator.boards import gulch_round as gr
from simulator.boards.board_files import (
    DoomGame,
    GulchGame,
    doomtown_document,
    gulch_document,
    load_board,
    pydantic_problems,
)
from simulator.errors import IllegalChoice, InputFileError, Problem

FORMAT = "deadlands-board-save"
VERSION = 1
#: The most actions a save may hold (a long Slaughter Gulch game is a few thousand).
MAX_ACTIONS = 200_000
Game = Literal["slaughter_gulch", "doomtown"]
State = gr.GulchState | dtt.DoomState
Applier = Callable[[Any, Any], tuple[Any, tuple[str, ...]]]


@dataclass(frozen=True)
class Entry:
    """One step of play: the state after ``action`` (``None`` for the start) and the lines it logged."""

    state: Any
    action: Any
    log: tuple[str, ...]


class SaveFile(BaseModel):
    """The envelope of a board save (the start and the actions are checked after it)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["deadlands-board-save"]
    version: Literal[1]
    game: Game
    title: str = ""
    start: dict[str, Any]
    actions: list[Any] = Field(max_length=MAX_ACTIONS)


def autosave_path(game: str) -> Path:
    """Where the window autosaves ``game``: ``<user data folder>/gaslands/boards/<game>_autosave.json``."""
    return platformdirs.user_data_path("gaslands", appauthor=False) / "boards" / f"{game}_autosave.json"


def save_folder() -> Path:
    """The folder Ctrl+S writes board saves to (in the user's data folder)."""
    return platformdirs.user_data_path("gaslands", appauthor=False) / "boards"


class BoardPlay:
    """A game of one board in progress: the history of states, the log, saving and loading.

    ``apply`` is the board's pure action function; ``start_doc`` the board
    file (as a table) the game started from.
    """

    def __init__(self, game: Game, title: str, start_doc: dict[str, Any], start: State,
                 names: dict[str, str] | None = None, opening: tuple[str, ...] = ()) -> None:
        from simulator.history import History

        self.game: Game = game
        self.title = title
        self.start_doc = start_doc
        self.names = dict(names or {})
        self.history: History[Entry] = History(Entry(start, None, opening))
        self._apply: Applier = gr.apply if game == "slaughter_gulch" else dtt.apply

    # ---- building

    @classmethod
    def from_file(cls, loaded: GulchGame | DoomGame, source: str = "") -> BoardPlay:
        """Start playing a loaded board file."""
        if isinstance(loaded, GulchGame):
            doc = gulch_document(loaded.town, loaded.title, loaded.state)
            opening = (f"{loaded.title}: round {loaded.state.round}. {gr.STEP_TITLES[loaded.state.step]}",)
            return cls("slaughter_gulch", loaded.title, doc, loaded.state, opening=opening)
        doc = doomtown_document(loaded.town, loaded.title, loaded.names, loaded.state)
        opening = (f"{loaded.title}: turn {loaded.state.turn}. {dtt.PHASE_TITLES[loaded.state.phase]}",)
        return cls("doomtown", loaded.title, doc, loaded.state, loaded.names, opening)

    # ---- playing

    @property
    def state(self) -> Any:
        """The present state."""
        return self.history.current.state

    def do(self, action: Any) -> tuple[str, ...]:
        """Apply ``action`` to the present state and make the result present; return its log lines.

        Raises :class:`simulator.errors.IllegalChoice` (nothing changes) when the rules refuse it.
        """
        state, lines = self._apply(self.state, action)
        self.history.push(Entry(state, action, lines))
        return lines

    def try_do(self, action: Any) -> tuple[bool, str]:
        """Like :meth:`do`, but return (done, the last log line or the refusal's reason)."""
        try:
            lines = self.do(action)
        except IllegalChoice as e:
            return False, str(e)
        return True, lines[-1] if lines else ""

    def undo(self) -> bool:
        """Step back one action; False at the start."""
        if not self.history.can_undo:
            return False
        self.history.undo()
        return True

    def redo(self) -> bool:
        """Bring back the last undone action; False if there is none."""
        if not self.history.can_redo:
            return False
        self.history.redo()
        return True

    @property
    def last_action(self) -> Any:
        """The action that led to the present state (``None`` at the start)."""
        return self.history.current.action

    @property
    def actions(self) -> list[Any]:
        """Every action from the start to the present."""
        return [e.action for e in self.history.entries[1:]]

    def log(self) -> list[str]:
        """Every log line from the start to the present."""
        return [line for e in self.history.entries for line in e.log]

    # ---- saving

    def to_json(self) -> dict[str, Any]:
        """The save document (JSON-able): the start board and the actions up to the present."""
        return {"format": FORMAT, "version": VERSION, "game": self.game, "title": self.title,
                "start": self.start_doc, "actions": [a.model_dump(mode="json") for a in self.actions]}

    def save(self, path: Path) -> None:
        """Write the save document to ``path`` atomically (the folder is made when missing).

        Raises ``OSError`` when the file cannot be written (an old file is then untouched).
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def from_json(cls, doc: Any, source: str) -> BoardPlay:
        """Rebuild a game from a save document by replaying its actions.

        Raises :class:`InputFileError` naming the key and the reason for a bad
        envelope, start board, action, or an action the rules refuse on replay.
        """
        if not isinstance(doc, dict):
            raise InputFileError(source, [Problem("file", "a board save is a JSON object")])
        try:
            envelope = SaveFile.model_validate(doc)
        except ValidationError as e:
            raise InputFileError(source, _envelope_problems(e)) from None
        try:
            loaded = load_board(envelope.start, source)
        except InputFileError as e:
            raise InputFileError(source, [Problem(f"start.{p.where}", p.reason) for p in e.problems]) from None
        if (envelope.game == "slaughter_gulch") != isinstance(loaded, GulchGame):
            raise InputFileError(source, [Problem("start.board.game", f"expected {envelope.game}, as `game` says")])
        play = cls.from_file(loaded)
        play.title = envelope.title or play.title
        for i, action in enumerate(_actions(envelope, source), 1):
            try:
                play.do(action)
            except IllegalChoice as e:
                raise InputFileError(source, [Problem(f"actions[{i}]", f"refused on replay: {e}")]) from None
        return play

    @classmethod
    def load(cls, path: Path) -> BoardPlay:
        """Read a save file; raises :class:`InputFileError` (file, key, reason) for anything wrong with it."""
        return cls.from_json(read_json(path), str(path))


def _envelope_problems(error: ValidationError) -> list[Problem]:
    problems = pydantic_problems(error)
    for p in problems:
        if p.where == "version":
            return [Problem("version", f"this program reads board saves of version {VERSION}")]
    return problems


def _actions(envelope: SaveFile, source: str) -> list[Any]:
    adapter: TypeAdapter[Any] = ga.ACTIONS if envelope.game == "slaughter_gulch" else da.ACTIONS
    try:
        actions: list[Any] = adapter.validate_json(json.dumps(envelope.actions))
    except ValidationError as e:
        raise InputFileError(source, pydantic_problems(e, "actions")) from None
    return actions


def read_json(path: Path) -> Any:
    """Read a JSON file through :mod:`simulator.safe_read` (size, UTF-8, strict JSON, nesting checked).

    Raises :class:`InputFileError` for a missing or unreadable file, bad text or bad JSON.
    """
    return safe_read.read_json(path)


def is_board_save(path: Path) -> bool:
    """True when ``path`` is a readable JSON file whose ``format`` is a board save (no replay)."""
    try:
        doc = safe_read.read_json(path)
    except InputFileError:
        return False
    return isinstance(doc, dict) and doc.get("format") == FORMAT
