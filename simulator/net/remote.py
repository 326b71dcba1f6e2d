"""A hosted game seen from a window: the network in a background thread, the game on the caller's thread.

:class:`RemoteGame` runs a :class:`~simulator.net.client.Connection` in its
own thread (with its own asyncio loop) and hands every server message to the
caller through a queue. The caller (the window's main loop) calls
:meth:`RemoteGame.pump` once a frame: the messages are applied there to the
:class:`~simulator.net.client.Follower`'s copy of the game, so the game is
only ever touched by one thread, and each confirmed decision comes back as an
:class:`Update` to animate. :meth:`RemoteGame.submit` sends this seat's
decision; it takes effect when the server confirms it.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Literal

from simulator.gaslands.decisions import Decision
from simulator.gaslands.events import GameEvent
from simulator.gaslands.game import Game
from simulator.gaslands.state import GameState
from simulator.net.client import RETRY_S, Connection, Follower, Refusal, ServerMessage, Unreachable
from simulator.net.mirror import Desync
from simulator.net.protocol import SPECTATOR, Decided, ErrorMessage, GameOver, JoinLink, Presence, Welcome
from simulator.vocab import plural

MAX_RESYNCS = 3
"""A copy of the game that differs from the server's this many times (another version of the rules?) gives up."""


@dataclass(frozen=True)
class Update:
    """What one server message changed, for the window.

    ``kind``: ``welcome`` (the game was (re)built: ``game`` is the new copy),
    ``decided`` (a decision was applied: ``before`` is the table before it,
    ``events`` what it caused), ``presence``, ``error`` (the server refused one
    of our messages: ``text`` says why), ``over`` (the result is in
    :attr:`RemoteGame.result`), ``status`` (connection news in ``text``),
    ``ended`` (the connection ended for good: ``text`` says why).
    """

    kind: Literal["welcome", "decided", "presence", "error", "over", "status", "ended"]
    text: str = ""
    before: GameState | None = None
    events: tuple[GameEvent, ...] = ()
    mine: bool = False
    """For ``decided``: this client made the decision."""


@dataclass
class _Ended:
    reason: str
    refused: bool


class RemoteGame:
    """A hosted game joined with ``link``; call :meth:`start`, then :meth:`pump` every frame."""

    def __init__(self, link: JoinLink, retry_s: float = RETRY_S) -> None:
        self.link = link
        self.follower = Follower()
        self.connection = Connection(link, retry_s=retry_s)
        self.ended = ""
        """Why the connection ended for good (refused, unreachable); empty while it lives."""
        self.refused = False
        self.pending: int | None = None
        """The number of the decision this client sent and the server has not confirmed yet."""
        self.resyncs = 0
        """How many times the copy of the game was rebuilt because it differed from the server's."""
        self._resyncing = False
        self._sent_at = 0.0
        self._inbox: queue.Queue[ServerMessage | _Ended | str] = queue.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the network thread

    def start(self) -> RemoteGame:
        """Start the connection's thread; returns ``self``."""
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            ready.set()
            try:
                loop.run_until_complete(self._receive())
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name=f"gaslands-join-{self.link.seat}", daemon=True)
        self._thread.start()
        ready.wait(5.0)
        return self

    async def _receive(self) -> None:
        try:
            async for message in self.connection.messages():
                self._inbox.put(message)
            self._inbox.put(_Ended("the game is over" if self.connection.status == "over" else "closed",
                                   refused=False))
        except Refusal as exc:
            self._inbox.put(_Ended(f"refused: {exc}", refused=True))
        except Unreachable as exc:
            self._inbox.put(_Ended(str(exc), refused=False))

    def _call(self, coro: Coroutine[object, object, object]) -> None:
        """Run ``coro`` on the network thread's loop (dropped if the loop has ended)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            asyncio.run_coroutine_threadsafe(coro, loop)
        else:
            coro.close()

    def close(self) -> None:
        """Close the connection and stop the thread (within a second or two)."""
        if self._loop is not None and not self._loop.is_closed():
            try:
                asyncio.run_coroutine_threadsafe(self.connection.close(), self._loop).result(2.0)
            except Exception:  # noqa: BLE001 - closing a connection that is already gone
                pass
        if self._thread is not None:
            self._thread.join(3.0)

    # ------------------------------------------------------------------ the caller's thread

    @property
    def game(self) -> Game | None:
        """The copy of the game (None until the welcome has been applied)."""
        return self.follower.mirror.game if self.follower.mirror is not None else None

    @property
    def player(self) -> int | None:
        """This seat's player index (None for a spectator)."""
        return self.follower.player

    @property
    def spectator(self) -> bool:
        """Whether this is a spectator's link."""
        return self.link.seat == SPECTATOR

    @property
    def my_turn(self) -> bool:
        """Whether this seat owes the current prompt and has not sent its answer yet."""
        return self.follower.my_turn and self.pending is None

    @property
    def presence(self) -> Presence | None:
        """Who is connected, as the server last said."""
        return self.follower.presence

    @property
    def result(self) -> GameOver | None:
        """The result, once the game is over."""
        return self.follower.result

    @property
    def latency_ms(self) -> float:
        """The round-trip time to the server (the last ping's), in milliseconds; 0 before the first."""
        return 1000.0 * self.connection.latency_s

    @property
    def status(self) -> str:
        """``connecting``, ``connected``, ``reconnecting``, ``over``, ``closed``, or why it ended."""
        return self.ended or self.connection.status

    def submit(self, decision: Decision) -> bool:
        """Send ``decision`` as this seat's answer to the current prompt; False if it is not this seat's turn
        (or an answer is already on its way). It is applied when the server confirms it (:meth:`pump`)."""
        if not self.my_turn or self._loop is None:
            return False
        n = self.follower.next_n
        self.pending = n
        self._sent_at = time.monotonic()
        self._call(self._send(n, decision))
        return True

    async def _send(self, n: int, decision: Decision) -> None:
        if not await self.connection.send(n, decision):
            self._inbox.put("unsent")

    def pump(self, limit: int = 200) -> list[Update]:
        """Apply what the server sent since the last call (at most ``limit`` messages); returns what changed."""
        updates: list[Update] = []
        for _ in range(limit):
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                break
            updates.extend(self._apply(item))
        return updates

    def _apply(self, item: ServerMessage | _Ended | str) -> list[Update]:
        if isinstance(item, _Ended):
            self.ended, self.refused = item.reason, item.refused
            return [Update("ended", item.reason)]
        if isinstance(item, str):  # the decision could not be sent: it is asked again after the reconnect
            self.pending = None
            return [Update("status", "not connected: the decision will be asked again")]
        if self._resyncing and not isinstance(item, Welcome):
            return []  # the rest of the old connection's messages: the fresh welcome replaces them
        self._resyncing = False
        before = self.follower.mirror.game.state if self.follower.mirror is not None else None
        try:
            self.follower.handle(item)
        except Desync as exc:
            self.follower.mirror = None
            self.pending = None
            self.resyncs += 1
            if self.resyncs > MAX_RESYNCS:
                self.ended = f"this copy of the game keeps differing from the server's ({exc})"
                self._call(self.connection.close())
                return [Update("ended", self.ended)]
            self._resyncing = True
            self._call(self.connection.resync())
            return [Update("status", f"resynchronising with the server ({exc})")]
        events = tuple(self.follower.events)
        self.follower.events = []
        if isinstance(item, Welcome):
            self.pending = None
            return [Update("welcome", f"joined as {item.seat or 'a spectator'} ({plural(len(item.moves), 'decision')} so far)")]
        if isinstance(item, Decided):
            mine = self.pending is not None and item.move.n == self.pending
            if self.pending is not None and item.move.n >= self.pending:
                self.pending = None
            return [Update("decided", before=before, events=events, mine=mine)]
        if isinstance(item, Presence):
            return [Update("presence")]
        if isinstance(item, ErrorMessage):
            if self.pending is not None and item.n == self.pending:
                self.pending = None
            return [Update("error", item.reason)]
        return [Update("over", item.reason)]
