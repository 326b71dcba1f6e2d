"""Rounds, Gear Phases, qualifying and Pole Position (p.19-20).

A round is six Gear Phases in ascending order. In each, starting with the
player in Pole Position and going clockwise, each player in turn activates one
qualifying vehicle, or passes if they have none; once every player has passed
in a row, the phase ends (p.20). A vehicle qualifies if its current gear is at
least the phase number and it has not activated in this phase, checked at each
opportunity (p.19). The scenario says when Pole Position passes (Street Race:
clockwise at the end of every Gear Phase, p.62).

Players are numbered clockwise from 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from simulator.frozen import fast_init, replace
from simulator.gaslands.rule_numbers import RULES

GEAR_PHASES = RULES.round.gear_phases.value
"""Gear Phases in a round (p.20)."""


@fast_init
@dataclass(frozen=True)
class Contender:
    """What qualifying needs to know about a vehicle."""

    id: str
    player: int
    gear: int
    in_play: bool = True


class Qualifier(Protocol):
    """What qualifying reads of a vehicle: a :class:`Contender`, or the vehicle's state itself."""

    @property
    def id(self) -> str: ...

    @property
    def player(self) -> int: ...

    @property
    def gear(self) -> int: ...

    @property
    def in_play(self) -> bool: ...


@fast_init
@dataclass(frozen=True)
class RoundState:
    """Where the game is in the round structure."""

    players: int
    round_no: int = 1
    gear_phase: int = 1
    pole: int = 0
    turn: int = 0
    passes: int = 0
    activated: frozenset[str] = frozenset()

    @classmethod
    def start(cls, players: int, pole: int = 0) -> RoundState:
        """Round 1, Gear Phase 1, the player in Pole Position to act."""
        if players < 1 or not 0 <= pole < players:
            raise ValueError(f"need at least one player and a pole in range, got {players}, {pole}")
        return cls(players=players, pole=pole, turn=pole)

    @property
    def phase_over(self) -> bool:
        """Every player has passed in a row (p.20)."""
        return self.passes >= self.players


def qualifies(vehicle: Qualifier, state: RoundState) -> bool:
    """Gear at least the phase number and not yet activated this phase (p.19)."""
    return vehicle.in_play and vehicle.gear >= state.gear_phase and vehicle.id not in state.activated


def qualifying(vehicles: Iterable[Qualifier], state: RoundState, player: int | None = None) -> tuple[str, ...]:
    """Ids of the vehicles of ``player`` (default: the one to act) that qualify now."""
    who = state.turn if player is None else player
    return tuple(v.id for v in vehicles if v.player == who and qualifies(v, state))


def activation_order(state: RoundState) -> tuple[int, ...]:
    """The players in the order they are offered activations in this Gear Phase: the one in Pole Position
    first, then clockwise (p.19-20). Each activates one qualifying vehicle (or passes) and the opportunity
    moves on, round and round, until every player passes in a row."""
    return tuple((state.pole + k) % state.players for k in range(state.players))


def after_activation(state: RoundState, vehicle_id: str) -> RoundState:
    """The vehicle has activated; the opportunity passes clockwise (p.20)."""
    return replace(
        state, activated=state.activated | {vehicle_id}, passes=0, turn=(state.turn + 1) % state.players
    )


def after_pass(state: RoundState) -> RoundState:
    """The player to act had no qualifying vehicle and passed (p.20)."""
    return replace(state, passes=state.passes + 1, turn=(state.turn + 1) % state.players)


def next_gear_phase(state: RoundState, *, pass_pole: bool) -> RoundState:
    """Start the next Gear Phase (or the next round after Gear Phase 6), optionally passing Pole Position."""
    pole = (state.pole + 1) % state.players if pass_pole else state.pole
    if state.gear_phase >= GEAR_PHASES:
        return replace(state, round_no=state.round_no + 1, gear_phase=1, pole=pole, turn=pole, passes=0,
                       activated=frozenset())
    return replace(state, gear_phase=state.gear_phase + 1, pole=pole, turn=pole, passes=0, activated=frozenset())
