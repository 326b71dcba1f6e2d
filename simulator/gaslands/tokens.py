"""What a scenario puts on the table besides vehicles and terrain, and the score, as frozen values.

A :class:`Token` is a flag, a crate, a zombie, a Salvage Counter, a gun turret... (p.130-153): a small round
piece at a point of the table (mm, table frame), or carried on a vehicle's dashboard (``carrier``). A token
with an ``obstacle`` weight is a Destructible obstacle of that weight (flags, turrets, p.49, p.130-148); the
others are markers that nothing collides with (zombies, crates, p.139-142). A token with ``hull`` may be shot
at (gun and rocket turrets, p.130, p.146).

:class:`SpawnPoint` is a player's spawn point (a counter no larger than a penny, p.130); vehicles deploy and
respawn within Short range of it.

:class:`ScenarioState` holds them all with the players' points (Victory Points, kills, zombies collected:
whatever the scenario counts, p.130-153), points that belong to a vehicle (Salvage Points, p.135), and the
scenario's own small values (``notes``: the current Special Prize, the uplink, the Delivery Slips...). It
lives in :attr:`simulator.gaslands.state.GameState.scenario`: every change is a new value, so undo and
replay need nothing more.

>>> s = ScenarioState().with_token(Token("flag-1", "flag", 100.0, 50.0))
>>> s = s.with_token(s.token("flag-1").carried_by("red-car"))
>>> [t.id for t in s.carried("red-car")], s.on_table()
(['flag-1'], ())
>>> s.add_points(1, 2, players=2).points
(0, 2)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

SPAWN_RADIUS_MM = 10.0
"""A spawn point is a round counter no larger than a penny, 20 mm across (p.130)."""

TOKEN_RADIUS_MM = 12.0
"""Flags, crates and turrets are objects about 30 mm across or smaller (p.131, p.139); drawn and touched as
circles of this radius unless the scenario file gives another."""


@dataclass(frozen=True)
class Token:
    """A scenario piece (see the module docstring).

    ``owner``: the player it belongs to (a Flag Tag flag, p.132), -1 for none. ``carrier``: the vehicle
    carrying it, ``""`` when it is on the table. ``obstacle``: ``""``, or the weight class of the
    Destructible obstacle it is (p.49). ``hull`` and ``damage``: Hull Points when shot at, and the damage
    taken (p.130, p.146).
    """

    id: str
    kind: str
    x_mm: float
    y_mm: float
    radius_mm: float = TOKEN_RADIUS_MM
    owner: int = -1
    carrier: str = ""
    obstacle: str = ""
    hull: int = 0
    damage: int = 0
    label: str = ""

    @property
    def on_table(self) -> bool:
        """Whether it lies on the table (not carried)."""
        return not self.carrier

    @property
    def name(self) -> str:
        """How the log names it: its label, else its kind and number (``"flag 2"``)."""
        if self.label:
            return self.label
        tail = self.id.rsplit("-", 1)[-1]
        return f"{self.kind.replace('_', ' ')} {tail}" if tail.isdigit() else self.kind.replace("_", " ")

    @property
    def hull_points(self) -> int:
        """Hull Points left (0 for a token that cannot be shot at)."""
        return max(0, self.hull - self.damage)

    def carried_by(self, vehicle_id: str) -> Token:
        """This token on ``vehicle_id``'s dashboard."""
        return replace(self, carrier=vehicle_id)

    def put(self, x_mm: float, y_mm: float) -> Token:
        """This token on the table at ``(x_mm, y_mm)``."""
        return replace(self, x_mm=x_mm, y_mm=y_mm, carrier="")

    def distance_mm(self, x_mm: float, y_mm: float) -> float:
        """From the token's centre to a point."""
        return math.hypot(self.x_mm - x_mm, self.y_mm - y_mm)


@dataclass(frozen=True)
class SpawnPoint:
    """A player's spawn point (p.130): where their vehicles deploy and respawn, within Short range of it."""

    player: int
    x_mm: float
    y_mm: float
    radius_mm: float = SPAWN_RADIUS_MM


@dataclass(frozen=True)
class ScenarioState:
    """Tokens, spawn points and scores (see the module docstring). Empty for a race."""

    tokens: tuple[Token, ...] = ()
    spawns: tuple[SpawnPoint, ...] = ()
    points: tuple[int, ...] = ()
    """Each player's points in the scenario's unit (Victory Points, kills, zombies...)."""
    vehicle_points: tuple[tuple[str, int], ...] = ()
    """Points that belong to a vehicle (Salvage Points, p.135), by vehicle id."""
    notes: tuple[tuple[str, str], ...] = ()
    """The scenario's own values by key (sorted), e.g. ``("prize", "7")``."""
    made: int = 0
    """Tokens made so far in the game (new tokens are numbered after them)."""

    # ------------------------------------------------------------------ tokens

    def token(self, token_id: str) -> Token:
        """The token with this id; ``KeyError`` if none."""
        for t in self.tokens:
            if t.id == token_id:
                return t
        raise KeyError(f"no token {token_id!r}")

    def has_token(self, token_id: str) -> bool:
        """Whether a token with this id is in play."""
        return any(t.id == token_id for t in self.tokens)

    def of_kind(self, kind: str) -> tuple[Token, ...]:
        """Every token of ``kind``, on the table or carried."""
        return tuple(t for t in self.tokens if t.kind == kind)

    def on_table(self, kind: str | None = None) -> tuple[Token, ...]:
        """Tokens lying on the table (of ``kind``, or any)."""
        return tuple(t for t in self.tokens if t.on_table and (kind is None or t.kind == kind))

    def carried(self, vehicle_id: str, kind: str | None = None) -> tuple[Token, ...]:
        """Tokens on ``vehicle_id``'s dashboard (of ``kind``, or any)."""
        return tuple(t for t in self.tokens if t.carrier == vehicle_id and (kind is None or t.kind == kind))

    def with_token(self, token: Token) -> ScenarioState:
        """This state with ``token`` replacing the one of the same id, or added (a new one counts as made)."""
        if self.has_token(token.id):
            return replace(self, tokens=tuple(token if t.id == token.id else t for t in self.tokens))
        return replace(self, tokens=(*self.tokens, token), made=self.made + 1)

    def without_token(self, token_id: str) -> ScenarioState:
        """This state with the token ``token_id`` out of play."""
        return replace(self, tokens=tuple(t for t in self.tokens if t.id != token_id))

    def new_id(self, kind: str) -> str:
        """An id for the next token of ``kind`` (``"zombie-14"``)."""
        return f"{kind}-{self.made + 1}"

    # ------------------------------------------------------------------ spawn points

    def spawn(self, player: int) -> SpawnPoint | None:
        """``player``'s spawn point, or None."""
        return next((s for s in self.spawns if s.player == player), None)

    # ------------------------------------------------------------------ points

    def points_of(self, player: int) -> int:
        """``player``'s points (0 when none recorded)."""
        return self.points[player] if 0 <= player < len(self.points) else 0

    def add_points(self, player: int, n: int, players: int) -> ScenarioState:
        """This state with ``n`` more points for ``player`` (of ``players``)."""
        points = list(self.points) + [0] * max(0, players - len(self.points))
        points[player] += n
        return replace(self, points=tuple(points))

    def vehicle_points_of(self, vehicle_id: str) -> int:
        """The points on ``vehicle_id`` (Salvage Points, p.135)."""
        return next((n for v, n in self.vehicle_points if v == vehicle_id), 0)

    def with_vehicle_points(self, vehicle_id: str, n: int) -> ScenarioState:
        """This state with ``vehicle_id`` holding ``n`` points."""
        rest = tuple((v, k) for v, k in self.vehicle_points if v != vehicle_id)
        return replace(self, vehicle_points=tuple(sorted((*rest, (vehicle_id, n)))))

    # ------------------------------------------------------------------ notes

    def note(self, key: str, default: str = "") -> str:
        """The scenario's value under ``key``."""
        return next((v for k, v in self.notes if k == key), default)

    def note_int(self, key: str, default: int = 0) -> int:
        """The value under ``key`` as a whole number."""
        text = self.note(key)
        return int(text) if text.lstrip("-").isdigit() else default

    def with_note(self, key: str, value: str | int) -> ScenarioState:
        """This state with ``key`` set to ``value`` (``""`` removes it)."""
        rest = tuple((k, v) for k, v in self.notes if k != key)
        text = str(value)
        return replace(self, notes=tuple(sorted((*rest, (key, text)) if text else rest)))

    def notes_starting(self, prefix: str) -> tuple[tuple[str, str], ...]:
        """Every ``(key, value)`` whose key starts with ``prefix``."""
        return tuple((k, v) for k, v in self.notes if k.startswith(prefix))

    def without_notes(self, keys: Iterable[str]) -> ScenarioState:
        """This state without the notes ``keys``."""
        gone = set(keys)
        return replace(self, notes=tuple((k, v) for k, v in self.notes if k not in gone))
