"""The Wipeout Step: who wipes out, in which order, and the Flip check (p.34-35).

A vehicle with 6 or more Hazard Tokens in any Wipeout Step wipes out (p.34):
the active vehicle first, then the others in clockwise order of their
controllers starting after the active player. A Wipeout is: Flip check (a D6
lower than the current gear flips: 2 hits that cannot be evaded and a forced
Medium Straight forward, p.35); reset to Gear 1 with no Hazard Tokens; Lose
Control: the next player clockwise pivots the vehicle to any facing (p.35).

Rules that change it: Roll Cage ignores the Flip's 2 hits (p.66, p.85);
Ponderous vehicles are not pivoted (p.120); an Articulated vehicle Jackknifes
instead of Flipping (p.119).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simulator.gaslands.rule_numbers import RULES
from simulator.gaslands.skid import WIPEOUT_HAZARDS

FLIP_HITS = RULES.wipeout.flip_hits.value
"""Hits a Flip causes, which cannot be evaded (p.35)."""

FLIP_TEMPLATE = RULES.wipeout.flip_template.value
"""The forced move of a Flip (p.35)."""


def wipes_out(hazards: int) -> bool:
    """Whether a vehicle with ``hazards`` tokens wipes out in the Wipeout Step (p.34)."""
    return hazards >= WIPEOUT_HAZARDS


def flips(gear: int, roll: int) -> bool:
    """Flip check: a roll lower than the current gear flips (p.34)."""
    return roll < gear


def wipeout_order(
    active_id: str,
    candidates: Sequence[tuple[str, int]],
    active_player: int,
    players: int,
) -> tuple[str, ...]:
    """Order of Wipeouts (p.34): the active vehicle, then clockwise by controller.

    ``candidates`` are ``(vehicle id, controlling player index)`` of vehicles that
    wipe out, in a stable order; players are numbered clockwise from 0.
    """
    def key(item: tuple[int, tuple[str, int]]) -> tuple[int, int, int]:
        index, (vehicle_id, player) = item
        return (0 if vehicle_id == active_id else 1, (player - active_player) % players, index)

    return tuple(v for _, (v, _) in sorted(enumerate(candidates), key=key))


@dataclass(frozen=True)
class WipeoutPlan:
    """The steps a Wipeout takes for one vehicle, decided by the Flip check roll."""

    flip_roll: int
    flipped: bool
    jackknife: bool
    flip_hits: int
    forced_move: str | None
    lose_control: bool


def plan_wipeout(
    gear: int,
    flip_roll: int,
    *,
    roll_cage: bool = False,
    articulated: bool = False,
    ponderous: bool = False,
) -> WipeoutPlan:
    """What the Wipeout does after its Flip check roll (p.34-35, p.66, p.119-120).

    A Roll Cage always chooses to ignore the Flip's hits here.
    """
    failed = flips(gear, flip_roll)
    flipped = failed and not articulated
    return WipeoutPlan(
        flip_roll=flip_roll,
        flipped=flipped,
        jackknife=failed and articulated,
        flip_hits=FLIP_HITS if flipped and not roll_cage else 0,
        forced_move=FLIP_TEMPLATE if flipped else None,
        lose_control=not ponderous,
    )


def next_player(player: int, players: int) -> int:
    """The player clockwise of ``player`` (players numbered clockwise from 0)."""
    return (player + 1) % players
