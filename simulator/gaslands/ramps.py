"""Ramps (p.87): the Jump or Tumble after a move stops at a ramp's edge.

The geometry (:mod:`simulator.geometry.ramps`) says where a move stops at an
edge other than the ramp's entry edge; the referee reports it
(``MoveReport.ramp``). Then the active player rolls a D6:

- at most the vehicle's current Gear: a **Jump**, a forced Medium Straight
  forward (Gear 1-4) or Long Straight (Gear 5-6) that ignores every obstruction
  and opens a Collision Window; then 2 Hazard Tokens and 1 Audience Vote;
- more: a **Tumble**, a forced Short Straight forward ignoring obstructions
  with a Collision Window; then a 4D6 attack on the vehicle (hits on 4+,
  Evade dice as for any attack, p.32) and 6 Hazard Tokens.

A forced move that ends on an obstruction backs along its template by the least
amount that clears it (p.87).
"""

from __future__ import annotations

from simulator.gaslands.rule_numbers import RULES

_T = RULES.terrain

JUMP_LONG_FROM_GEAR = _T.jump_long_from_gear.value
"""From this Gear a Jump is a Long Straight; below it a Medium Straight (p.87)."""

JUMP_HAZARDS = _T.jump_hazards.value
"""Hazard Tokens a vehicle gains after a Jump (p.87)."""

JUMP_VOTES = _T.jump_votes.value
"""Audience Votes its controller gains after a Jump (p.87)."""

TUMBLE_TEMPLATE = _T.tumble_template.value
"""The forced move of a Tumble (p.87)."""

TUMBLE_ATTACK_DICE = _T.tumble_attack_dice.value
"""The attack a tumbling vehicle suffers (p.87)."""

TUMBLE_HAZARDS = _T.tumble_hazards.value
"""Hazard Tokens a vehicle gains after a Tumble (p.87)."""

VOLATILE_EXPLODES_ON = _T.volatile_explodes_on.value
"""A Volatile obstacle a vehicle collides with explodes on this D6 or more, rolled before reactions (p.87)."""


def jumps(roll: int, gear: int) -> bool:
    """A Jump when the D6 is at most the current Gear, else a Tumble (p.87)."""
    return roll <= gear


def jump_template(gear: int) -> str:
    """The Jump's forced move in ``gear`` (p.87)."""
    return "long_straight" if gear >= JUMP_LONG_FROM_GEAR else "medium_straight"


def ramp_template(jump: bool, gear: int) -> str:
    """The forced move after the roll: the Jump's in ``gear``, or the Tumble's."""
    return jump_template(gear) if jump else TUMBLE_TEMPLATE
