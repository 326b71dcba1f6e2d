"""The client side of online play: ``gaslands join URL`` (docs/online.md).

Three parts, so the headless bot and the window share everything but the loop:

- :class:`Connection` (asyncio): opens the link, says hello, yields the
  server's messages, and on a dropped connection reconnects with the same
  link (backing off, for up to ``retry_s`` seconds) and yields the fresh
  :class:`Welcome`; it raises :class:`Refusal` when the server refuses
  (a wrong or used token, a full seat, another protocol version) and
  :class:`Unreachable` when it cannot get through.
- :class:`Follower` (plain code): applies those messages to a
  :class:`~simulator.net.mirror.Mirror` (the client's copy of the game) and
  keeps who is connected, the last refusal and the result.
- :func:`play` (asyncio): the loop of ``join --bot`` (and of the tests and the
  load benchmark): the built-in :class:`~simulator.gaslands.bots.Bot` answers
  every prompt that this seat owes.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from simulator.errors import SimulatorError
from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import Decision
from simulator.gaslands.events import GameEvent
from simulator.net.mirror import Desync, Mirror
from simulator.net.protocol import (
    CLIENT_MAX_FRAME_BYTES,
    CLOSE_POLICY,
    CLOSE_REFUSED,
    PROTOCOL_VERSION,
    SPECTATOR,
    Decide,
    Decided,
    ErrorMessage,
    GameOver,
    Hello,
    JoinLink,
    Presence,
    Refused,
    Welcome,
    dump,
    parse_server_message,
    program_name,
)
from simulator.scenario.saves import encode_decision
from simulator.vocab import plural

RETRY_S = 60.0
"""How long a client keeps trying to reconnect to a server it lost (``join --retry``)."""
FIRST_CONNECT_S = 15.0
"""How long a client keeps trying to reach a server it has not reached yet (a host not started, or a wrong
address) before it gives up with the reason (at most ``retry_s``)."""
PING_INTERVAL_S = 5.0
"""The client pings the server this often; the round-trip time shown is the last ping's."""

ServerMessage = Welcome | Refused | Decided | ErrorMessage | Presence | GameOver


class Refusal(SimulatorError):
    """The server refused this client; the message is its reason (one line)."""


class Unreachable(SimulatorError):
    """The server could not be reached (or was lost) for longer than the retry time."""


class Connection:
    """One link's connection to a server, reconnecting when it drops (see the module docstring)."""

    def __init__(self, link: JoinLink, retry_s: float = RETRY_S, ping_interval_s: float = PING_INTERVAL_S,
                 open_timeout_s: float = 10.0, first_connect_s: float | None = None,
                 on_status: Callable[[str], None] | None = None) -> None:
        self.link = link
        self.retry_s = retry_s
        self.first_connect_s = min(FIRST_CONNECT_S if first_connect_s is None else first_connect_s, retry_s)
        """How long to try for before the first welcome (after it, ``retry_s`` applies to a lost server)."""
        self.on_status = on_status
        """Told, in a sentence, when the first attempt fails, when connected and when the server is lost
        (``join --bot`` prints these to stderr, so it never waits in silence)."""
        self.ping_interval_s = ping_interval_s
        self.open_timeout_s = open_timeout_s
        self.status = "connecting"
        """``connecting``, ``connected``, ``reconnecting``, ``over`` or ``closed``: for the window's status line."""
        self.reconnects = 0
        self._ws: ClientConnection | None = None
        self._closing = False
        self._first_rtt_s = 0.0

    @property
    def latency_s(self) -> float:
        """The round-trip time of the last ping, in seconds (one is sent on connecting, then every
        ``ping_interval_s``); 0 while not connected."""
        ws = self._ws
        if ws is None:
            return 0.0
        return ws.latency or self._first_rtt_s

    async def _measure(self, ws: ClientConnection) -> None:
        """Ping once on connecting, so the round-trip time is known at once."""
        started = time.perf_counter()
        try:
            pong = await ws.ping()
            await asyncio.wait_for(pong, self.open_timeout_s)
        except (TimeoutError, ConnectionClosed):
            return
        self._first_rtt_s = time.perf_counter() - started

    async def send(self, n: int, decision: Decision) -> bool:
        """Send decision number ``n``; False if not connected now (it is asked again after reconnecting)."""
        return await self.send_raw(dump(Decide(type="decide", n=n, decision=encode_decision(decision))))

    async def send_raw(self, text: str | bytes) -> bool:
        """Send one frame as it is (text, or bytes as a binary frame; the tests misbehave with it); False if not
        connected."""
        ws = self._ws
        if ws is None:
            return False
        try:
            await ws.send(text)
        except ConnectionClosed:
            return False
        return True

    def drop(self) -> None:
        """Cut the connection without a closing handshake, as a network failure would (it then reconnects)."""
        if self._ws is not None and self._ws.transport is not None:
            self._ws.transport.abort()

    async def resync(self) -> None:
        """Drop the connection so that a fresh welcome rebuilds the game (after a :class:`Desync`)."""
        if self._ws is not None:
            await self._ws.close(1000, "resynchronising")

    async def close(self) -> None:
        """Close for good; :meth:`messages` ends."""
        self._closing = True
        self.status = "closed"
        if self._ws is not None:
            await self._ws.close(1000, "bye")

    def _say(self, text: str) -> None:
        if self.on_status is not None:
            self.on_status(text)

    async def messages(self) -> AsyncGenerator[ServerMessage, None]:
        """The server's messages, a :class:`Welcome` first and again after each reconnect; ends after
        :class:`GameOver`. Raises :class:`Refusal` or :class:`Unreachable`."""
        lost_at: float | None = None
        delay = 0.25
        reached = False
        while not self._closing:
            last_error = "the connection closed"
            try:
                async with connect(self.link.socket_url, max_size=CLIENT_MAX_FRAME_BYTES, compression=None,
                                   ping_interval=self.ping_interval_s, ping_timeout=30,
                                   open_timeout=self.open_timeout_s, close_timeout=5,
                                   user_agent_header=program_name()) as ws:
                    await ws.send(dump(Hello(type="hello", protocol=PROTOCOL_VERSION, seat=self.link.seat,
                                             token=self.link.token, client=program_name())))
                    first = parse_server_message(await asyncio.wait_for(ws.recv(), self.open_timeout_s))
                    if isinstance(first, Refused):
                        raise Refusal(first.reason)
                    if not isinstance(first, Welcome):
                        raise Refusal(f"the server answered hello with {first.type}, not a welcome")
                    self._ws = ws
                    self.status = "connected"
                    self._say(f"connected to {self.link.socket_url} as {first.seat or 'a spectator'} "
                              f"({plural(len(first.moves), 'decision')} so far)")
                    lost_at, delay, reached = None, 0.25, True
                    await self._measure(ws)
                    yield first
                    async for raw in ws:
                        message = parse_server_message(raw)
                        yield message
                        if isinstance(message, GameOver):
                            self.status = "over"
                            return
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                if code in (CLOSE_POLICY, CLOSE_REFUSED):
                    raise Refusal(exc.rcvd.reason if exc.rcvd and exc.rcvd.reason
                                  else "the server closed the connection") from None
                last_error = f"connection lost ({exc.rcvd.reason if exc.rcvd and exc.rcvd.reason else 'closed'})"
            except (OSError, TimeoutError, InvalidHandshake) as exc:
                last_error = str(exc) or type(exc).__name__
            except InvalidURI as exc:
                raise Refusal(f"not a link this client can open: {exc}") from None
            except ValueError as exc:  # a message that is not of this protocol
                raise Refusal(str(exc)) from None
            finally:
                self._ws = None
            if self._closing:
                return
            now = time.monotonic()
            limit = self.retry_s if reached else self.first_connect_s
            if lost_at is None:
                lost_at = now
                self._say(f"{'lost' if reached else 'cannot reach'} {self.link.socket_url} ({last_error}); "
                          f"{'reconnecting' if reached else 'trying'} for up to {limit:g} s (Ctrl+C stops)")
            if now - lost_at > limit:
                hint = ("" if reached else
                        ": is the host's `gaslands host` running, and is the link's address one this computer "
                        "can reach (a host on 127.0.0.1 takes only its own computer)?")
                raise Unreachable(f"cannot reach {self.link.socket_url} after {now - lost_at:.0f} s "
                                  f"({last_error}){hint}")
            self.status = "reconnecting"
            self.reconnects += 1
            await asyncio.sleep(min(delay, max(0.05, limit - (now - lost_at))))  # a last try at the limit
            delay = min(delay * 2.0, 5.0)


@dataclass
class Follower:
    """The client's view of the game, kept from the server's messages (see :meth:`handle`)."""

    mirror: Mirror | None = None
    seat: str | None = None
    player: int | None = None
    game_id: str = ""
    presence: Presence | None = None
    result: GameOver | None = None
    last_error: ErrorMessage | None = None
    server: str = ""
    events: list[GameEvent] = field(default_factory=list)
    """Events of the decisions applied since the caller last emptied this list (to print or animate)."""

    def handle(self, message: ServerMessage) -> None:
        """Apply one server message. Raises :class:`Desync` when the copy no longer matches the server's."""
        if isinstance(message, Welcome):
            self._welcome(message)
        elif isinstance(message, Decided):
            self._decided(message)
        elif isinstance(message, Presence):
            self.presence = message
        elif isinstance(message, ErrorMessage):
            self.last_error = message
        elif isinstance(message, GameOver):
            self.result = message

    def _welcome(self, welcome: Welcome) -> None:
        self.seat, self.player, self.presence, self.server = welcome.seat, welcome.player, welcome.presence, \
            welcome.server
        if self.mirror is not None and welcome.game == self.game_id:
            before = len(self.mirror.game.log)
            try:
                self.mirror.catch_up(welcome.moves, welcome.digest)
                self.events.extend(self.mirror.game.log[before:])
                return
            except Desync:
                pass
        self.game_id = welcome.game
        self.mirror = Mirror(welcome)
        self.events.extend(self.mirror.game.log)

    def _decided(self, decided: Decided) -> None:
        mirror = self.mirror
        if mirror is None:
            raise Desync("a decision came before the welcome")
        move = decided.move
        if move.n <= mirror.n:
            if mirror.digests[move.n] != move.digest:
                raise Desync(f"decision {move.n} differs between this copy and the server")
            return
        mirror.apply(move)
        self.events.extend(mirror.game.last_events)

    @property
    def my_turn(self) -> bool:
        """Whether this seat owes the current prompt."""
        return (self.mirror is not None and self.player is not None and self.result is None
                and self.mirror.prompt.player == self.player)

    @property
    def next_n(self) -> int:
        """The number the next decision carries."""
        return self.mirror.n + 1 if self.mirror is not None else 1


@dataclass
class Played:
    """What :func:`play` returns: the result, the final copy of the game, and the client's measurements."""

    result: GameOver
    follower: Follower
    latencies_s: list[float] = field(default_factory=list)
    """For each decision this client sent: seconds from sending it to the server's confirmation."""
    reconnects: int = 0
    resyncs: int = 0


async def play(link: JoinLink, bot: Bot | None = None, *, retry_s: float = RETRY_S,
               on_events: Callable[[Follower, list[GameEvent]], None] | None = None,
               connection: Connection | None = None, max_resyncs: int = 3,
               on_status: Callable[[str], None] | None = None) -> Played:
    """Follow the game at ``link`` to its end; with ``bot``, answer every prompt this seat owes with it.

    ``on_events(follower, events)`` is called with the events of each batch of
    decisions applied (``join --log`` prints them). Returns :class:`Played`;
    raises :class:`Refusal` (the server refused us, or refused the bot's
    decision, which would be a defect), :class:`Unreachable`, or
    :class:`Desync` after ``max_resyncs`` failed attempts to rebuild the copy.
    """
    conn = connection or Connection(link, retry_s=retry_s, on_status=on_status)
    follower = Follower()
    played_latencies: list[float] = []
    resyncs = 0
    pending: tuple[int, float] | None = None
    resyncing = False
    async with aclosing(conn.messages()) as messages:
        async for message in messages:
            if resyncing and not isinstance(message, Welcome):
                continue  # the rest of the old connection's messages: the fresh welcome replaces them
            resyncing = False
            try:
                follower.handle(message)
            except Desync:
                resyncs += 1
                if resyncs > max_resyncs:
                    raise
                follower.mirror = None
                pending = None
                resyncing = True
                await conn.resync()
                continue
            if isinstance(message, Welcome):
                pending = None
            if on_events is not None and follower.events:
                on_events(follower, follower.events)
            follower.events = []
            if isinstance(message, Decided) and pending is not None and message.move.n >= pending[0]:
                if message.move.n == pending[0] and message.move.seat == follower.seat:
                    played_latencies.append(time.perf_counter() - pending[1])
                pending = None
            if isinstance(message, ErrorMessage) and pending is not None and message.n == pending[0]:
                if message.code in ("illegal", "malformed"):
                    raise Refusal(f"the server refused the bot's decision {message.n}: {message.reason}")
                pending = None
            if follower.result is not None:
                return Played(follower.result, follower, played_latencies, conn.reconnects, resyncs)
            if bot is not None and follower.my_turn and pending is None:
                assert follower.mirror is not None
                n = follower.next_n
                decision = bot.decide(follower.mirror.game)
                pending = (n, time.perf_counter())
                if not await conn.send(n, decision):
                    pending = None
    raise Unreachable("the connection ended before the game was over")


def describe_result(result: GameOver) -> str:
    """The result in one line: who won, why, after how many decisions, and the standings."""
    who = f"{result.winner_name} wins" if result.winner_name else "no winner"
    standings = ", ".join(f"{i}. {name}" for i, name in enumerate(result.standings, 1))
    return (f"Game over after {plural(result.decisions, 'decision')}: {who} ({result.reason})."
            + (f" Standings: {standings}." if standings else ""))


# --------------------------------------------------------------------------- gaslands join

EXIT_REFUSED = 4
"""``gaslands join`` exit code: the server refused this client (the reason is printed)."""
EXIT_UNREACHABLE = 5
"""``gaslands join`` exit code: the server could not be reached, or was lost for longer than ``--retry``."""


def print_status(text: str) -> None:
    """``join --bot`` / ``--log``: the connection's news on stderr (``gaslands: connected to ...``)."""
    print(f"gaslands: {text}", file=sys.stderr, flush=True)


def print_events(follower: Follower, events: list[GameEvent]) -> None:
    """``join --log``: each event's text, one line each."""
    for event in events:
        print(f"  {event.text}", flush=True)


def join_headless(link: JoinLink, bot: bool, log: bool, retry_s: float = RETRY_S) -> int:
    """``gaslands join URL --bot`` / ``--log``: play the seat with the built-in bot (or only follow the game),
    print the result; returns the exit code (0 when the game is over)."""
    if bot and link.seat == SPECTATOR:
        print("gaslands: a spectator's link cannot play: --bot needs a seat's link", file=sys.stderr)
        return EXIT_REFUSED
    try:
        played = asyncio.run(play(link, Bot() if bot else None, retry_s=retry_s,
                                  on_events=print_events if log else None, on_status=print_status))
    except Refusal as exc:
        print(f"gaslands: refused: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    except (Unreachable, Desync) as exc:
        print(f"gaslands: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        return 130
    print(describe_result(played.result), flush=True)
    return 0
