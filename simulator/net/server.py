"""The authoritative game server of ``gaslands host`` (asyncio and ``websockets``; docs/online.md).

A :class:`Table` is one hosted game: it owns the :class:`Game`, the seed and
every die (:class:`~simulator.net.mirror.RecordingDice` around the seeded
dice), a secret token per seat and one for spectators. It checks every
decision against the seat that owes the current prompt and the decision's
number (no acting for another seat, no replaying an old decision, nothing
out of turn), lets the engine judge it, autosaves atomically, then sends it
with the dice it consumed to every client. A :class:`GameServer` listens on
one address and routes each connection to its table by the ``/game/ID`` of
its link; it hosts one table for ``gaslands host`` and many for the load
benchmark.

Every message a client sends is refused with a reason (to that client alone)
when it is malformed, too big or too frequent; the game goes on. A client
that keeps flooding is disconnected.

Ordering: everything a table sends goes out synchronously
(``websockets.broadcast``), so each client sees the welcome and the decisions
in the order the table made them; a decision is sent only once it is saved,
so a kill -9 of the server loses at most the decision in flight.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import secrets
import socket
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
import websockets
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from simulator.atomic import write_text_atomic
from simulator.errors import IllegalChoice, Problem, SimulatorError
from simulator.gaslands.decisions import Decision
from simulator.gaslands.dice import SeededDice
from simulator.gaslands.game import Game, Options, Origin
from simulator.gaslands.prompts import GameOverPrompt
from simulator.gaslands.table_referee import TableReferee
from simulator.net.mirror import RecordingDice
from simulator.net.protocol import (
    BURST,
    CLOSE_GAME_OVER,
    CLOSE_POLICY,
    CLOSE_REFUSED,
    FLOOD_LIMIT,
    HELLO_TIMEOUT_S,
    MAX_FRAME_BYTES,
    MAX_SPECTATORS,
    PROTOCOL_VERSION,
    RATE_PER_S,
    SPECTATOR,
    Decide,
    Decided,
    Dice,
    ErrorCode,
    ErrorMessage,
    GameOver,
    Hello,
    JoinLink,
    Move,
    Presence,
    ProtocolError,
    Refused,
    ScenarioText,
    Seat,
    SeatPresence,
    Welcome,
    dump,
    game_from_path,
    new_game_id,
    new_token,
    parse_client_message,
    program_name,
    state_digest,
)
from simulator.safe_read import read_json
from simulator.scenario.loader import Scenario
from simulator.scenario.save_file import (
    FORMAT,
    VERSION,
    DecisionError,
    OnlineDoc,
    SaveError,
    decision_from_json,
    decision_references,
    validate_save_document,
)
from simulator.scenario.saves import decode_options, encode_decision, encode_options
from simulator.scenario.setup import options_for, pole_position, scenario_text, starting_state, team_warnings
from simulator.vocab import plural

MAX_CONNECTIONS = 1024
"""Connections one server holds at once; more are refused."""
MAX_BUFFERED_BYTES = 8 * 1_048_576
"""A client that has this much unsent data waiting (it stopped reading) is disconnected."""
LINGER_S = 60.0
"""After the game ends, a seat that was disconnected may come back this long to be told the result."""
ALIVE_TIMEOUT_S = 2.0
"""When a seat's link is used while the seat is connected, the old connection must answer a ping this fast
to keep it; otherwise it is taken as dropped and replaced."""
_SAVER = ThreadPoolExecutor(max_workers=8, thread_name_prefix="gaslands-autosave")
"""The threads that write autosaves (each table has at most one write in flight, so its saves stay in order)."""
DURABLE_EVERY_S = 2.0
"""Every autosave is atomic (a crash or kill -9 of the server loses at most the decision in flight); at most
this often it is also flushed to the disk (``fsync``), so a power cut loses at most this many seconds."""
SERVER_NAME = program_name()


class TokenBucket:
    """At most ``burst`` messages at once and ``rate_per_s`` a second on average."""

    def __init__(self, rate_per_s: float = RATE_PER_S, burst: int = BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate_per_s = rate_per_s
        self.burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()

    def take(self) -> bool:
        """Spend one message; False if none is left (the message is refused)."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate_per_s)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def refund(self) -> None:
        """Give back the message just spent (an accepted decision: the game paces those)."""
        self._tokens = min(self.burst, self._tokens + 1.0)


@dataclass(eq=False)
class Client:
    """One connection to a table: its seat (None for a spectator) and its message budget."""

    ws: ServerConnection
    seat: str | None
    bucket: TokenBucket = field(default_factory=TokenBucket)
    too_fast: int = 0
    closing: asyncio.Future[None] | None = None

    @property
    def who(self) -> str:
        """``red`` or ``a spectator``, for the host's console."""
        return self.seat or "a spectator"


@dataclass(frozen=True)
class Links:
    """A table's join links: one per seat (by player id) and one for spectators."""

    seats: dict[str, JoinLink]
    spectator: JoinLink

    def to_json(self) -> dict[str, Any]:
        """``{"seats": {"red": "ws://...", ...}, "spectator": "ws://..."}`` (the ``--seats-file``)."""
        return {"seats": {seat: link.url for seat, link in self.seats.items()}, "spectator": self.spectator.url}


class Table:
    """One hosted game. Build it with :meth:`new` (a scenario and a seed) or :meth:`resume` (a save)."""

    def __init__(self, game: Game, dice: RecordingDice, scenario: Scenario, start_dice: Dice, pole: int,
                 save_path: Path | None = None, online: OnlineDoc | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        self.game = game
        self.dice = dice
        self.scenario = scenario
        self.start_dice = start_dice
        self.pole = pole
        self.save_path = save_path
        players = scenario.spec.player
        self.seats = [Seat(seat=p.id, name=p.name or p.id, player=i) for i, p in enumerate(players)]
        self._player = {s.seat: s.player for s in self.seats}
        if online is not None and set(online.seats) != set(self._player):
            raise SaveError(str(save_path or "<save>"), [
                Problem("online.seats", "the seats must be the scenario's players")])
        self.game_id = online.game if online else new_game_id()
        self.tokens = dict(online.seats) if online else {s.seat: new_token() for s in self.seats}
        self.spectator_token = online.spectator if online else new_token()
        self.endpoint: dict[str, Any] = {
            "bind": online.bind if online else "127.0.0.1",
            "port": online.port if online else 0,
            "public_url": online.public_url if online else None,
        }
        self.moves: list[Move] = []
        self.start_digest = state_digest(game.engine_state)
        self.clients: dict[str, Client] = {}
        self.spectators: set[Client] = set()
        self.finished = asyncio.Event()
        """Set once the game is over and every seat has been told (or :data:`LINGER_S` after the end)."""
        self.told: set[str] = set()
        self._linger: asyncio.TimerHandle | None = None
        self.log = log or (lambda text: None)
        self._lock = asyncio.Lock()
        self._save_parts = _SaveParts(game)
        self._save_failed = ""
        self._durable_at = -DURABLE_EVERY_S
        self._flushing: asyncio.Future[None] | None = None
        self.timings_s: list[float] = []
        """Seconds each accepted decision took, from its arrival to its broadcast (checks, rules, autosave)."""

    # ------------------------------------------------------------------ building

    @classmethod
    def new(cls, scenario: Scenario, seed: int, options: Options | None = None, save_path: Path | None = None,
            log: Callable[[str], None] | None = None) -> Table:
        """A new game of ``scenario`` with dice seeded by ``seed`` (the seed never leaves the server)."""
        chosen = options_for(scenario, options)
        pole = pole_position(scenario, seed)
        dice = RecordingDice(SeededDice(seed))
        referee = TableReferee(scenario.table, scenario.template_set)
        game = Game(starting_state(scenario, seed, chosen, pole), dice, referee, scenario.template_set, chosen)
        game.origin = Origin(scenario_text(scenario), scenario.source, seed)
        return cls(game, dice, scenario, dice.take(), pole, save_path, None, log)

    @classmethod
    def resume(cls, path: Path, save_path: Path | None = None, log: Callable[[str], None] | None = None) -> Table:
        """The game in the save file ``path``, replayed; a save written by ``gaslands host`` keeps its game id
        and tokens (so the same links join). Raises :class:`SaveError` naming the problem."""
        path = Path(path)
        document = read_json(path)
        checked = validate_save_document(document, str(path))
        scenario, seed = checked.scenario, checked.seed
        options = options_for(scenario, decode_options(checked.options, checked.version))
        pole = pole_position(scenario, seed)
        dice = RecordingDice(SeededDice(seed))
        referee = TableReferee(scenario.table, scenario.template_set)
        game = Game(starting_state(scenario, seed, options, pole), dice, referee, scenario.template_set, options)
        game.origin = Origin(checked.scenario_text, checked.scenario_source, seed)
        table = cls(game, dice, scenario, dice.take(), pole, save_path or path, checked.online, log)
        for i, decision in enumerate(checked.decisions, 1):
            if checked.version < 2 and table.over:
                break  # as saves.from_json: a version 1 save went on to the end of the activation after a win
            seat = table.seat_of(game.prompt.player)
            try:
                game.decide(decision)
            except (IllegalChoice, ValueError, KeyError) as exc:
                raise SaveError(str(path), [Problem(f"decisions[{i}]", f"rejected on replay: {exc}")]) \
                    from None
            table.moves.append(Move(n=i, seat=seat or "", decision=encode_decision(decision), dice=dice.take(),
                                    digest=state_digest(game.engine_state)))
            table._save_parts.add(decision, game.last_events)
        return table

    # ------------------------------------------------------------------ reading

    @property
    def n(self) -> int:
        """Decisions accepted so far."""
        return len(self.moves)

    @property
    def over(self) -> bool:
        """Whether the game is over."""
        return isinstance(self.game.prompt, GameOverPrompt)

    def seat_of(self, player: int) -> str | None:
        """The seat of player index ``player`` (None for nobody)."""
        return next((s.seat for s in self.seats if s.player == player), None)

    def name_of(self, seat: str | None) -> str:
        """The player's name for a seat."""
        return next((s.name for s in self.seats if s.seat == seat), seat or "nobody")

    def links(self, base: str) -> Links:
        """The join links with the server's address ``base`` (``ws://HOST:PORT``, or a public URL)."""
        return Links({seat: JoinLink(base, self.game_id, seat, token) for seat, token in self.tokens.items()},
                     JoinLink(base, self.game_id, SPECTATOR, self.spectator_token))

    def presence(self) -> Presence:
        """Who is connected now."""
        seats = {}
        for s in self.seats:
            client = self.clients.get(s.seat)
            rtt = getattr(client.ws, "latency", 0.0) if client else 0.0
            seats[s.seat] = SeatPresence(connected=client is not None, rtt_ms=round(rtt * 1000.0, 1) if rtt else None)
        return Presence(seats=seats, spectators=len(self.spectators))

    def welcome(self, client: Client) -> Welcome:
        """The welcome for ``client``: its seat and the whole game so far (no seed, no future die)."""
        origin = self.game.origin
        assert origin is not None
        return Welcome(protocol=PROTOCOL_VERSION, server=SERVER_NAME, game=self.game_id,
                       role="spectator" if client.seat is None else "seat", seat=client.seat,
                       player=None if client.seat is None else self._player[client.seat], seats=self.seats,
                       scenario=ScenarioText(source=origin.source, toml=origin.scenario_text),
                       options=encode_options(self.game.options), pole=self.pole, start_dice=self.start_dice,
                       moves=self.moves, digest=self.moves[-1].digest if self.moves else self.start_digest,
                       presence=self.presence())

    def game_over(self) -> GameOver:
        """The result, once the game is over."""
        prompt = self.game.prompt
        assert isinstance(prompt, GameOverPrompt)
        seat = None if prompt.winner is None else self.seat_of(prompt.winner)
        return GameOver(winner=seat, winner_name=None if seat is None else self.name_of(seat), reason=prompt.reason,
                        standings=list(prompt.standings), decisions=self.n)

    # ------------------------------------------------------------------ saving

    def save_text(self) -> str:
        """The save document (the save file's format, plus the ``online`` section with the tokens)."""
        online = {"game": self.game_id, "seats": self.tokens, "spectator": self.spectator_token, **self.endpoint}
        return self._save_parts.text(online)

    async def save(self) -> None:
        """Write the save atomically before the decision is sent to anyone (so a crash or kill -9 of the server
        loses at most the decision in flight), in a worker thread: other tables go on while the file system
        renames it into place. At most every :data:`DURABLE_EVERY_S` the file is also flushed to the disk, in the
        background. A failure is reported on the host's console once; the game goes on."""
        if self.save_path is None:
            return
        try:
            await asyncio.get_running_loop().run_in_executor(_SAVER, write_text_atomic, self.save_path,
                                                             self.save_text(), False)
        except OSError as exc:
            reason = f"cannot autosave to {self.save_path}: {exc.strerror or exc}"
            if reason != self._save_failed:
                self.log(f"WARNING: {reason}; the game goes on unsaved")
            self._save_failed = reason
            return
        self._save_failed = ""
        now = time.monotonic()
        if (self._flushing is None or self._flushing.done()) and (now - self._durable_at >= DURABLE_EVERY_S
                                                                  or self.over):
            self._durable_at = now
            self._flushing = asyncio.get_running_loop().run_in_executor(_SAVER, flush_to_disk, self.save_path)
        if self.over and self._flushing is not None:
            await asyncio.wait_for(asyncio.shield(self._flushing), 10.0)  # the result is on the disk at exit

    # ------------------------------------------------------------------ connections

    def _send(self, clients: Iterable[Client], text: str) -> None:
        """Send ``text`` to ``clients`` now, in order with everything sent before (closed ones are skipped)."""
        conns = [c.ws for c in clients]
        websockets.broadcast(conns, text)
        for ws in conns:
            transport = ws.transport
            if transport is not None and transport.get_write_buffer_size() > MAX_BUFFERED_BYTES:
                ws.transport.abort()

    def _everyone(self) -> list[Client]:
        return [*self.clients.values(), *self.spectators]

    def _error(self, client: Client, code: ErrorCode, reason: str, n: int | None = None) -> None:
        self._send([client], dump(ErrorMessage(code=code, reason=reason, n=n)))

    def _refuse(self, client: Client, code: ErrorCode, reason: str, n: int | None = None) -> bool:
        self._error(client, code, reason, n)
        return False

    async def join(self, ws: ServerConnection, hello: Hello) -> None:
        """Admit a connection that said hello (or refuse it), then serve its messages until it closes."""
        seat: str | None = None if hello.seat == SPECTATOR else hello.seat
        expected = self.spectator_token if seat is None else self.tokens.get(seat)
        good = hmac.compare_digest(hello.token.encode("utf-8", "replace"),
                                   (expected or self.spectator_token).encode("utf-8"))
        if expected is None:
            return await refuse(ws, f"this game has no seat {seat!r}; its seats are "
                                    f"{', '.join(self._player)} (and spectator)")
        if not good:
            return await refuse(ws, f"wrong token for {'the spectators' if seat is None else 'seat ' + seat}: "
                                    "copy the whole link the host gave you")
        if self.over:
            return await self._tell_late(ws, seat)
        if seat is None and len(self.spectators) >= MAX_SPECTATORS:
            return await refuse(ws, f"this game already has {MAX_SPECTATORS} spectators")
        if seat is not None and seat in self.clients:
            old = self.clients[seat]
            if await _alive(old.ws):
                return await refuse(ws, f"seat {seat} is already connected: a link joins once at a time "
                                        "(close the other window first)")
            if self.clients.get(seat) is old:
                del self.clients[seat]
                self.log(f"{seat} did not answer; its new connection takes the seat")
                await old.ws.close(CLOSE_POLICY, "replaced by a newer connection with this seat's link")
            if seat in self.clients:
                return await refuse(ws, f"seat {seat} is already connected")
        client = Client(ws, seat)
        if seat is None:
            self.spectators.add(client)
        else:
            self.clients[seat] = client
        self.log(f"{client.who} joined from {_peer(ws)} ({plural(self.n, 'decision')} so far)")
        self._send([client], dump(self.welcome(client)))
        self._send(self._everyone(), dump(self.presence()))
        try:
            async for raw in ws:
                await self._message(client, raw)
        except ConnectionClosed:
            pass
        finally:
            if seat is None:
                self.spectators.discard(client)
            elif self.clients.get(seat) is client:
                del self.clients[seat]
            if not self.finished.is_set():
                self.log(f"{client.who} left")
                self._send(self._everyone(), dump(self.presence()))

    async def _message(self, client: Client, raw: str | bytes) -> None:
        if client.closing is not None:
            return  # cut off: its messages are read (so its close frame arrives) and dropped
        if not client.bucket.take():
            client.too_fast += 1
            if client.too_fast >= FLOOD_LIMIT:
                self.log(f"{client.who} disconnected for flooding")
                client.closing = asyncio.ensure_future(client.ws.close(CLOSE_POLICY, "too many messages too fast"))
            elif client.too_fast == 1 or client.too_fast % 50 == 0:
                self._error(client, "too_fast", f"too many messages: at most {RATE_PER_S:g} a second "
                                                f"(bursts of {BURST}); this one was dropped")
            return
        client.too_fast = 0
        try:
            message = parse_client_message(raw)
        except ProtocolError as exc:
            self._error(client, exc.code, exc.reason)  # type: ignore[arg-type]
            return
        if isinstance(message, Hello):
            self._error(client, "hello_again", "this connection has already said hello")
            return
        async with self._lock:
            await self._decide(client, message, time.perf_counter())

    async def _decide(self, client: Client, message: Decide, started: float) -> bool:
        """Check, apply, save and send one decision; whether it was accepted (else the client got the reason).
        ``started``: when it arrived (``time.perf_counter``), for :attr:`timings_s`."""
        n = message.n
        if client.seat is None:
            return self._refuse(client, "spectator", "spectators watch; only a seat's link may decide", n)
        if self.over:
            return self._refuse(client, "game_over", "the game is over", n)
        if n != self.n + 1:
            return self._refuse(client, "stale", f"decision {n} is not the next one (the next is {self.n + 1}): "
                                                "the game has moved on", n)
        try:
            decision = decision_from_json(message.decision)
        except DecisionError as exc:
            return self._refuse(client, "malformed", f"decision.{exc}", n)
        prompt = self.game.prompt
        if prompt.player != self._player[client.seat]:
            owner = self.seat_of(prompt.player)
            return self._refuse(client, "not_your_turn", f"it is {self.name_of(owner)}'s turn to decide "
                                                        f"({prompt.kind}), not {self.name_of(client.seat)}'s", n)
        wrong = decision_references(decision, self.scenario)
        if wrong:
            return self._refuse(client, "illegal", f"decision.{wrong[0][0]}: {wrong[0][1]}", n)
        refused = self._apply(decision)
        if refused:
            return self._refuse(client, "illegal", refused, n)
        client.bucket.refund()
        move = Move(n=n, seat=client.seat, decision=encode_decision(decision), dice=self.dice.take(),
                    digest=state_digest(self.game.engine_state))
        self._save_parts.add(decision, self.game.last_events)
        await self.save()
        self.moves.append(move)
        self._send(self._everyone(), dump(Decided(move=move, turn=self.seat_of(self.game.prompt.player))))
        self.timings_s.append(time.perf_counter() - started)
        if self.over:
            await self._finish()
        return True

    def _apply(self, decision: Decision) -> str:
        """Apply ``decision`` to the game; the reason it was refused, or ``""``."""
        snapshot = self.dice.snapshot()
        try:
            self.game.decide(decision)
        except IllegalChoice as exc:
            return str(exc)
        except Exception as exc:  # noqa: BLE001 - a decision the engine chokes on must not stop the server
            self.dice.restore(snapshot)
            self.log(f"the engine could not apply {decision!r}: {type(exc).__name__}: {exc}")
            return f"the rules engine could not apply it ({type(exc).__name__})"
        return ""

    async def _finish(self) -> None:
        """Tell everyone the result and close every connection. The table is finished once every seat has been
        told; a seat that was away may come back for :data:`LINGER_S` seconds to see the result."""
        over = self.game_over()
        self.log(f"game over after {plural(over.decisions, 'decision')}: "
                 f"{over.winner_name + ' wins' if over.winner_name else 'no winner'} ({over.reason})")
        everyone = self._everyone()
        self._send(everyone, dump(over))
        self.told.update(c.seat for c in everyone if c.seat is not None)
        away = [s.name for s in self.seats if s.seat not in self.told]
        if away:
            self.log(f"waiting up to {LINGER_S:g} s for {', '.join(away)} to come back and see the result")
            self._linger = asyncio.get_running_loop().call_later(LINGER_S, self.finished.set)
        else:
            self.finished.set()
        await asyncio.gather(*(c.ws.close(CLOSE_GAME_OVER, "the game is over") for c in everyone),
                             return_exceptions=True)

    async def _tell_late(self, ws: ServerConnection, seat: str | None) -> None:
        """A client joining a finished game (it was away at the end): the whole game and the result, then close."""
        client = Client(ws, seat)
        self.log(f"{client.who} came back after the game ended and is told the result")
        self._send([client], dump(self.welcome(client)))
        self._send([client], dump(self.game_over()))
        if seat is not None:
            self.told.add(seat)
        if all(s.seat in self.told for s in self.seats):
            self.finished.set()
        try:
            await ws.close(CLOSE_GAME_OVER, "the game is over")
        except ConnectionClosed:
            pass


class _SaveParts:
    """The save document kept as JSON pieces, so an autosave after each decision costs a join, not a re-encode."""

    def __init__(self, game: Game) -> None:
        origin = game.origin
        assert origin is not None
        self._head = {"format": FORMAT, "version": VERSION,
                      "scenario": {"source": origin.source, "toml": origin.scenario_text},
                      "seed": origin.seed, "options": encode_options(game.options)}
        self._decisions = [json.dumps(encode_decision(d)) for d in game.decisions]
        self._log = [json.dumps(e.to_json()) for e in game.log]

    def add(self, decision: Decision, events: Iterable[Any]) -> None:
        """One more decision and the events it caused."""
        self._decisions.append(json.dumps(encode_decision(decision)))
        self._log.extend(json.dumps(e.to_json()) for e in events)

    def text(self, online: dict[str, Any]) -> str:
        """The whole document's text."""
        head = json.dumps({**self._head, "online": online}, indent=1)[:-2]
        return (head + ',\n "decisions": [\n  ' + ",\n  ".join(self._decisions) + "\n ],\n"
                + ' "log": [\n  ' + ",\n  ".join(self._log) + "\n ]\n}\n")


def flush_to_disk(path: Path) -> None:
    """``fsync`` the file at ``path`` and its folder (so its latest atomic replacement survives a power cut);
    errors are ignored (the next flush tries again)."""
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError:
        pass


async def refuse(ws: ServerConnection, reason: str) -> None:
    """Send :class:`Refused` with ``reason`` and close the connection."""
    try:
        await ws.send(dump(Refused(reason=reason)))
        await ws.close(CLOSE_REFUSED, reason[:120])
    except ConnectionClosed:
        pass


async def _alive(ws: ServerConnection) -> bool:
    """Whether ``ws`` answers a ping within :data:`ALIVE_TIMEOUT_S`."""
    try:
        pong = await ws.ping()
        await asyncio.wait_for(pong, ALIVE_TIMEOUT_S)
    except (TimeoutError, ConnectionClosed):
        return False
    return True


def _peer(ws: ServerConnection) -> str:
    address = ws.remote_address
    return f"{address[0]}:{address[1]}" if isinstance(address, tuple) and len(address) >= 2 else "?"


class GameServer:
    """A WebSocket server for one or more tables, on ``bind``:``port`` (0: a free port).

    Use as ``async with GameServer(tables, "127.0.0.1", 0) as server:``; :attr:`port` is the port it got and
    :meth:`links` a table's join links. ``public_url`` replaces ``ws://HOST:PORT`` in the links (a tunnel or
    a reverse proxy with TLS: ``wss://example.org/gaslands``).
    """

    def __init__(self, tables: Iterable[Table], bind: str = "127.0.0.1", port: int = 0,
                 public_url: str | None = None, log: Callable[[str], None] | None = None) -> None:
        self.tables = {t.game_id: t for t in tables}
        self.bind = bind
        self.port = port
        self.public_url = public_url.rstrip("/") if public_url else None
        self.log = log or (lambda text: None)
        self._server: Server | None = None
        self._connections = 0

    async def __aenter__(self) -> GameServer:
        self._server = await serve(self._handler, self.bind, self.port, max_size=MAX_FRAME_BYTES, compression=None,
                                   ping_interval=10, ping_timeout=30, close_timeout=5, max_queue=64)
        sockets = list(self._server.sockets)
        if sockets:
            self.port = sockets[0].getsockname()[1]
        for table in self.tables.values():
            table.endpoint.update(bind=self.bind, port=self.port, public_url=self.public_url)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Stop listening and close every connection."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    @property
    def base_url(self) -> str:
        """The address the links use: the public URL, or ``ws://HOST:PORT``."""
        if self.public_url:
            return self.public_url
        host = link_host(self.bind)
        return f"ws://{'[' + host + ']' if ':' in host else host}:{self.port}"

    def links(self, table: Table) -> Links:
        """``table``'s join links on this server."""
        return table.links(self.base_url)

    async def _handler(self, ws: ServerConnection) -> None:
        self._connections += 1
        try:
            if self._connections > MAX_CONNECTIONS:
                return await refuse(ws, "this server is full")
            try:
                raw = await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT_S)
            except TimeoutError:
                await ws.close(CLOSE_POLICY, f"no hello within {HELLO_TIMEOUT_S:g} s")
                return
            version = _stated_protocol(raw)
            if version is not None and version != PROTOCOL_VERSION:
                return await refuse(ws, f"this server speaks protocol {PROTOCOL_VERSION} and your client "
                                        f"{version}: install the same version of gaslands as the host "
                                        f"({SERVER_NAME})")
            try:
                hello = parse_client_message(raw)
            except ProtocolError as exc:
                return await refuse(ws, f"expected a hello: {exc.reason}")
            if not isinstance(hello, Hello):
                return await refuse(ws, "say hello first (type hello, protocol, seat, token)")
            table = self.tables.get((game_from_path(ws.request.path) if ws.request else None) or "")
            if table is None:
                return await refuse(ws, "there is no such game on this server (it may be over)")
            await table.join(ws, hello)
        except ConnectionClosed:
            pass
        finally:
            self._connections -= 1


def _stated_protocol(raw: str | bytes) -> int | None:
    """The ``protocol`` a hello states, read leniently (a newer client's hello may have more keys)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and data.get("type") == "hello":
        version = data.get("protocol")
        return version if isinstance(version, int) and not isinstance(version, bool) else None
    return None


def link_host(bind: str) -> str:
    """The host name or address to put in links for a server bound to ``bind``.

    A specific address is used as it is; ``0.0.0.0`` or ``::`` (every address) is replaced by this
    computer's LAN address when one can be found without any network traffic, else its host name.
    """
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    name = socket.gethostname()
    try:
        addresses = socket.gethostbyname_ex(name)[2]
    except OSError:
        return name
    lan = [a for a in addresses if not a.startswith("127.")]
    return lan[0] if lan else name


def default_save_path(scenario: Scenario, game_id: str) -> Path:
    """Where a hosted game autosaves unless told: the user's data folder, ``online/SCENARIO-GAME.json``."""
    stem = Path(scenario.source).stem or "game"
    return platformdirs.user_data_path("gaslands", appauthor=False) / "online" / f"{stem}-{game_id}.json"


def new_seed() -> int:
    """A dice seed nobody can guess (63 bits from the system's secure generator)."""
    return secrets.randbits(63)


def print_log(text: str) -> None:
    """The host console: one line per event, flushed."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


# --------------------------------------------------------------------------- gaslands host

DEFAULT_PORT = 8765
"""The port ``gaslands host`` listens on unless told (or unless the save it resumes says another)."""


@dataclass(frozen=True)
class HostOptions:
    """What ``gaslands host`` was asked for (None: the default, or what the resumed save says)."""

    file: Path
    port: int | None = None
    bind: str | None = None
    seed: int | None = None
    seats_file: Path | None = None
    save: Path | None = None
    public_url: str | None = None
    options: Options | None = None


class HostError(SimulatorError):
    """``gaslands host`` cannot start: the reason in one line."""


def open_table(opts: HostOptions, log: Callable[[str], None] = print_log) -> Table:
    """The table ``gaslands host`` serves: a new game of a scenario, or the game in a save (resumed with its
    links). Raises :class:`HostError`, or the input file's error naming the problem."""
    path = Path(opts.file)
    if path.suffix.lower() == ".json":
        if opts.seed is not None:
            raise HostError("a saved game has its own seed: --seed is for a new game")
        table = Table.resume(path, opts.save or path, log)
        if table.over:
            raise HostError(f"the game in {path} is already over: {table.game_over().reason}")
        return table
    from simulator.scenario.loader import load_scenario

    scenario = load_scenario(path)
    if not scenario.spec.player:
        raise HostError(f"{path} has no [[player]]: a game needs players to seat")
    table = Table.new(scenario, new_seed() if opts.seed is None else opts.seed, opts.options, None, log)
    table.save_path = opts.save or default_save_path(scenario, table.game_id)
    return table


def write_seats_file(path: Path, links: Links) -> None:
    """Write ``--seats-file`` atomically: ``{"seats": {...}, "spectator": ...}``."""
    write_text_atomic(path, json.dumps(links.to_json(), indent=1) + "\n")


async def serve_table(table: Table, bind: str, port: int, public_url: str | None, seats_file: Path | None,
                      log: Callable[[str], None] = print_log,
                      started: Callable[[GameServer], None] | None = None) -> GameOver:
    """Serve ``table`` until its game is over and its clients have been told; returns the result."""
    try:
        server = GameServer([table], bind, port, public_url, log)
        await server.__aenter__()
    except OSError as exc:
        raise HostError(f"cannot listen on {bind}:{port}: {exc.strerror or exc} "
                        "(is another host running there? choose another --port)") from None
    try:
        if table.save_path is not None:
            table.save_path.parent.mkdir(parents=True, exist_ok=True)
        await table.save()
        if seats_file is not None:
            write_seats_file(seats_file, server.links(table))
        if started is not None:
            started(server)
        await table.finished.wait()
        return table.game_over()
    finally:
        await server.close()


def host_command(opts: HostOptions) -> int:
    """``gaslands host``: print the links, serve the game to its end; 0 when it is over and the clients were told,
    130 when stopped (the game is saved: hosting the save resumes it)."""
    table = open_table(opts)
    if table.n == 0:
        for warning in team_warnings(table.scenario):  # seated all the same: the players chose their teams
            print(f"gaslands: warning: {warning}", file=sys.stderr, flush=True)
    saved = table.endpoint
    bind = opts.bind or saved["bind"] or "127.0.0.1"
    port = opts.port if opts.port is not None else (saved["port"] or DEFAULT_PORT)
    public_url = opts.public_url or saved["public_url"]

    def started(server: GameServer) -> None:
        links = server.links(table)
        name = table.scenario.name
        print(f"Hosting {name} (game {table.game_id}, {plural(table.n, 'decision')} so far) on {bind}:{server.port}.")
        if bind in ("127.0.0.1", "::1", "localhost") and not public_url:
            print("  Only this computer can join: use --bind 0.0.0.0 for a LAN, or a tunnel (README).")
        width = max(len("Spectators"), *(len(s.name) for s in table.seats))
        for s in table.seats:
            print(f"  {s.name:<{width}}  gaslands join '{links.seats[s.seat]}'")
        print(f"  {'Spectators':<{width}}  gaslands join '{links.spectator}'")
        print("Each link is secret: send each player only their own.")
        if table.save_path is not None:
            print(f"Autosaving to {table.save_path} after every decision; `gaslands host {table.save_path}` "
                  "resumes with the same links.")
        if opts.seats_file is not None:
            print(f"Links written to {opts.seats_file}.")
        sys.stdout.flush()

    try:
        result = asyncio.run(serve_table(table, bind, port, public_url, opts.seats_file, print_log, started))
    except KeyboardInterrupt:
        where = f" the game is saved in {table.save_path}: `gaslands host {table.save_path}` resumes it." \
            if table.save_path else ""
        print(f"\nStopped.{where}", flush=True)
        return 130
    who = f"{result.winner_name} wins" if result.winner_name else "no winner"
    print(f"Game over after {plural(result.decisions, 'decision')}: {who} ({result.reason}). Saved in {table.save_path}.",
          flush=True)
    return 0
