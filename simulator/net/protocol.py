"""The online protocol, version :data:`PROTOCOL_VERSION`: messages, limits, join links, the state digest.

Every message is one WebSocket text frame holding a JSON object with a ``type``
(docs/online.md has the whole exchange with examples). A client sends
:class:`Hello` first, then :class:`Decide` messages; the server answers with
:class:`Welcome` or :class:`Refused`, then sends :class:`Decided` (an accepted
decision with the dice it consumed), :class:`Presence`, :class:`ErrorMessage`
(one of this client's messages was refused, with the reason) and
:class:`GameOver`.

Decisions travel in the save file's encoding
(:func:`simulator.scenario.saves.encode_decision`, checked by
:func:`simulator.scenario.save_file.decision_from_json`): there is one
encoding of a decision, on disk and on the wire.

The dice stay secret until used: the server rolls them from its seed and
sends, with each accepted decision, exactly the dice that decision consumed;
a client replays the decision with those dice
(:class:`~simulator.gaslands.dice.ScriptedDice`) and checks its copy of the
game against the server's :func:`state_digest`.

Client messages are parsed strictly (no unknown keys, no coercion); server
messages leniently (a client ignores keys it does not know).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from importlib import metadata
from typing import Annotated, Any, Literal
from urllib.parse import parse_qs, quote, urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, Strict, TypeAdapter, ValidationError

from simulator.errors import readable_reason
from simulator.gaslands.engine import EngineState

PROTOCOL_VERSION = 1
"""The version a client states in its :class:`Hello`; a server refuses any other (docs/online.md)."""

MAX_MESSAGE_BYTES = 16_384
"""A client message longer than this is refused with a reason (a decision is well under 2 KB)."""
MAX_FRAME_BYTES = 1_048_576
"""A frame longer than this closes the connection (code 1009) before it is even read whole."""
CLIENT_MAX_FRAME_BYTES = 64 * 1_048_576
"""The most a client accepts in one frame from the server (a welcome carries the whole game so far)."""
RATE_PER_S = 20.0
"""Messages a second a client may send on average; accepted decisions do not count (the game paces them)."""
BURST = 40
"""Messages a client may send at once before :data:`RATE_PER_S` applies."""
FLOOD_LIMIT = 400
"""A client whose messages were refused for coming too fast this many times in a row is disconnected."""
HELLO_TIMEOUT_S = 10.0
"""A connection that has not said hello within this many seconds is closed."""
MAX_SPECTATORS = 32
"""Spectators one game takes at once."""
TOKEN_BYTES = 32
"""Random bytes in a seat's secret token (43 characters of URL-safe base64: 256 bits)."""

SPECTATOR = "spectator"
"""The ``seat`` of a spectator's link."""

CLOSE_GAME_OVER = 1000
CLOSE_REFUSED = 4001
"""Close codes: a normal close after :class:`GameOver`; a connection refused (the reason is in :class:`Refused`)."""
CLOSE_POLICY = 1008
"""A client that broke the protocol (flooding, no hello) is closed with this code and a reason."""

_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


# --------------------------------------------------------------------------- join links


@dataclass(frozen=True)
class JoinLink:
    """A join link: ``ws://HOST:PORT/game/GAME?seat=SEAT&token=TOKEN`` (``wss://`` behind TLS).

    ``base`` is the server's address with any path prefix (``ws://127.0.0.1:8765`` or
    ``wss://example.org/gaslands``); ``game`` the game's id; ``seat`` a player id or ``"spectator"``.
    The client connects to :attr:`socket_url`, which leaves the token out: the token travels only
    inside the :class:`Hello` message, never in a request line a proxy might log.
    """

    base: str
    game: str
    seat: str
    token: str

    @property
    def socket_url(self) -> str:
        """The URL a client opens: the link without its seat and token."""
        return f"{self.base.rstrip('/')}/game/{self.game}"

    @property
    def url(self) -> str:
        """The whole link, as printed and written to ``--seats-file``."""
        return f"{self.socket_url}?seat={quote(self.seat, safe='')}&token={quote(self.token, safe='')}"

    def __str__(self) -> str:
        return self.url


def parse_link(text: str) -> JoinLink:
    """The :class:`JoinLink` in ``text`` (surrounding quotes and spaces ignored).

    Raises ``ValueError`` saying what is wrong: not ``ws://`` or ``wss://``, no ``/game/ID`` path,
    no ``seat`` or ``token``.
    """
    text = text.strip().strip("'\"")
    parts = urlsplit(text)
    if parts.scheme not in ("ws", "wss") or not parts.netloc:
        raise ValueError(f"a join link starts with ws:// or wss:// and names a server, not {text[:80]!r}")
    match = re.fullmatch(r"(.*)/game/([A-Za-z0-9_-]{4,64})/?", parts.path)
    if match is None:
        given = re.search(r"/game/([^/]*)/?$", parts.path)
        if given is not None:
            raise ValueError(f"the game id {given.group(1)[:80]!r} in the link is not one a host makes (4 to 64 "
                             "letters, digits, - or _): copy the whole link the host printed")
        raise ValueError(f"a join link's path ends with /game/ID, not {parts.path[:80]!r} (copy the whole link the "
                         "host printed)")
    query = parse_qs(parts.query)
    seat = query.get("seat", [""])[0]
    token = query.get("token", [""])[0]
    if not _ID.match(seat):
        raise ValueError("a join link has seat=PLAYER or seat=spectator (copy the whole link)")
    if not token:
        raise ValueError("a join link has token=... (copy the whole link the host printed)")
    base = urlunsplit((parts.scheme, parts.netloc, match.group(1), "", ""))
    return JoinLink(base, match.group(2), seat, token)


def program_name() -> str:
    """``gaslands 0.1.0``: this program and its version, as a hello and a welcome state them."""
    try:
        return f"gaslands {metadata.version('gaslands-table')}"
    except metadata.PackageNotFoundError:
        return "gaslands (not installed)"


def new_token() -> str:
    """A fresh secret token: :data:`TOKEN_BYTES` random bytes from the system's secure generator."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_game_id() -> str:
    """A fresh game id for links (not secret; 8 URL-safe characters)."""
    return secrets.token_urlsafe(6)


def game_from_path(path: str) -> str | None:
    """The game id at the end of a request path (``/game/ID``, after any proxy prefix); None if there is none."""
    match = re.search(r"/game/([A-Za-z0-9_-]{4,64})/?(?:\?.*)?$", path)
    return match.group(1) if match else None


# --------------------------------------------------------------------------- the digest


def state_digest(state: EngineState) -> str:
    """A short fingerprint of the game: SHA-256 over the table (:class:`GameState`) and the prompt.

    Server and client compute it after every decision; equal digests mean the
    client's copy is the server's game. The text hashed is canonical (sets
    sorted, memo fields left out), so it is the same in every process. 32 hex digits.
    """
    text = _canonical(state.game) + "\n" + _canonical(state.prompt)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


_MEMO: dict[int, tuple[object, str]] = {}
"""Canonical text of recently seen frozen records by identity: a decision changes a few vehicles, and the
others are the very same objects as before, so their text is not made again."""
_MEMO_SIZE = 20_000
_PLAIN = (str, int, float, bool, type(None))
_RECORDS: dict[type, tuple[tuple[str, ...], bool]] = {}


def _record(cls: type) -> tuple[tuple[str, ...], bool]:
    """A dataclass's compared field names and whether it is frozen."""
    if cls not in _RECORDS:
        _RECORDS[cls] = (tuple(f.name for f in fields(cls) if f.compare),
                         bool(cls.__dataclass_params__.frozen))  # type: ignore[attr-defined]
    return _RECORDS[cls]


def _canonical(value: object) -> str:
    """``repr``-like text of a value that does not depend on hashing order (sets are sorted)."""
    if isinstance(value, _PLAIN):
        return repr(value)
    if isinstance(value, tuple | list):
        return "[" + ",".join([_canonical(v) for v in value]) + "]"
    if is_dataclass(value) and not isinstance(value, type):
        hit = _MEMO.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        names, frozen = _record(type(value))
        text = type(value).__name__ + "(" + ",".join([n + "=" + _canonical(getattr(value, n)) for n in names]) + ")"
        if frozen:
            if len(_MEMO) >= _MEMO_SIZE:
                _MEMO.clear()
            _MEMO[id(value)] = (value, text)
        return text
    if isinstance(value, frozenset | set):
        return "{" + ",".join(sorted(_canonical(v) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{_canonical(k)}:{_canonical(v)}" for k, v in value.items())) + "}"
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    return repr(value)


# --------------------------------------------------------------------------- messages


class _ClientMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


Name = Annotated[str, Field(max_length=200)]


class Hello(_ClientMessage):
    """The first message of a connection: the protocol version, the seat and its secret token.

    Its shape never changes between versions, so a server can always refuse an old client by name.
    """

    type: Literal["hello"]
    protocol: Annotated[int, Strict()]
    seat: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    token: Annotated[str, Field(max_length=256)]
    client: Annotated[str, Field(max_length=100)] = ""


class Decide(_ClientMessage):
    """An answer to the current prompt: ``n`` is its number (1 for the game's first decision), so an old
    decision sent again is refused; ``decision`` is in the save file's encoding."""

    type: Literal["decide"]
    n: Annotated[int, Strict(), Field(ge=1, le=10_000_000)]
    decision: dict[str, Any]


ClientMessage = Annotated[Hello | Decide, Field(discriminator="type")]
_CLIENT = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A client message that cannot be taken: ``code`` (see :class:`ErrorMessage`) and a reason in plain words."""

    def __init__(self, code: str, reason: str) -> None:
        self.code = code
        self.reason = reason
        super().__init__(reason)


def parse_client_message(text: str | bytes) -> Hello | Decide:
    """A client message from one frame; :class:`ProtocolError` (``too_big``, ``malformed``) says why not."""
    if isinstance(text, bytes):
        raise ProtocolError("malformed", "send text frames holding JSON, not binary frames")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("malformed", f"not JSON: {str(exc)[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object with a type")
    if data.get("type") not in ("hello", "decide"):
        raise ProtocolError("malformed", f"unknown message type {str(data.get('type'))[:40]!r}; "
                                         "clients send hello and decide")
    try:
        message: Hello | Decide = _CLIENT.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "(message)"
        raise ProtocolError("malformed", f"{where}: {readable_reason(first['msg'])}") from None
    return message


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


class _ServerMessage(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Dice(_ServerMessage):
    """Dice a decision consumed, in the order rolled: D6 values and Skid Dice faces (p.12)."""

    d6: list[Annotated[int, Field(ge=1, le=6)]] = Field(default_factory=list)
    skid: list[Literal["hazard", "spin", "slide", "shift"]] = Field(default_factory=list)


class Move(_ServerMessage):
    """One accepted decision: its number, the seat that made it, the decision, its dice and the digest after it."""

    n: int
    seat: str
    decision: dict[str, Any]
    dice: Dice
    digest: str


class Seat(_ServerMessage):
    """A seat of the game: the player's id, name and index (the engine's ``player``)."""

    seat: str
    name: str
    player: int


class SeatPresence(_ServerMessage):
    """Whether a seat has a client connected, and its round-trip time as the server last measured it."""

    connected: bool
    rtt_ms: float | None = None


class Presence(_ServerMessage):
    """Who is connected (seat by seat) and how many spectators watch."""

    type: Literal["presence"] = "presence"
    seats: dict[str, SeatPresence]
    spectators: int = 0


class ScenarioText(_ServerMessage):
    """The scenario the game is played on: its file's text and where it came from."""

    source: str
    toml: str


class Welcome(_ServerMessage):
    """The answer to a good hello: who you are and the whole game so far, to build your copy from.

    ``pole`` is the player with Pole Position at the start (so the seed stays with the server);
    ``start_dice`` what starting the game rolled; ``moves`` every decision so far; ``digest`` the
    state now.
    """

    type: Literal["welcome"] = "welcome"
    protocol: int
    server: str
    game: str
    role: Literal["seat", "spectator"]
    seat: str | None = None
    player: int | None = None
    seats: list[Seat]
    scenario: ScenarioText
    options: dict[str, Any]
    pole: int
    start_dice: Dice
    moves: list[Move]
    digest: str
    presence: Presence


class Refused(_ServerMessage):
    """The connection is refused (then closed): a wrong token, a taken seat, another protocol version..."""

    type: Literal["refused"] = "refused"
    reason: str


class Decided(_ServerMessage):
    """A decision the server accepted, with the dice it consumed; ``turn`` is the seat that decides next."""

    type: Literal["decided"] = "decided"
    move: Move
    turn: str | None = None


ErrorCode = Literal["malformed", "too_big", "too_fast", "spectator", "not_your_turn", "stale", "illegal",
                    "game_over", "hello_again"]


class ErrorMessage(_ServerMessage):
    """One of this client's messages was refused; the game goes on. ``n`` is the decision number it carried."""

    type: Literal["error"] = "error"
    code: ErrorCode
    reason: str
    n: int | None = None


class GameOver(_ServerMessage):
    """The game is over: the winner's seat and name (None: no winner), why, and the standings."""

    type: Literal["game_over"] = "game_over"
    winner: str | None
    winner_name: str | None
    reason: str
    standings: list[str]
    decisions: int


ServerMessage = Annotated[Welcome | Refused | Decided | ErrorMessage | Presence | GameOver,
                          Field(discriminator="type")]
_SERVER = TypeAdapter(ServerMessage)


def parse_server_message(text: str | bytes) -> Welcome | Refused | Decided | ErrorMessage | Presence | GameOver:
    """A server message; ``ValueError`` if it is not one (a broken or foreign server)."""
    try:
        message: Welcome | Refused | Decided | ErrorMessage | Presence | GameOver = _SERVER.validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(message)"
        raise ValueError(f"the server sent a message this program cannot read: {where}: "
                         f"{readable_reason(first['msg'])}") from None
    return message


def dump(message: BaseModel) -> str:
    """A message as the JSON text of one frame."""
    return message.model_dump_json()
