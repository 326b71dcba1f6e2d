"""Getting Wrecked and Explosions (p.43-44).

A vehicle at zero Hull Points is Wrecked: it makes a forced Short Straight
forward (skid to a halt), resets to Gear 1 with no Hazard Tokens, makes an
Explosion check (D6 + its ammo tokens, explodes on 6+) and is left on the table
as a wreck: a destructible obstacle of its weight (p.43-44). An Exploding
vehicle attacks every vehicle within Medium range in a 360-degree arc with
Blast and 2/4/6 dice by weight (p.44), then is removed. A vehicle Wrecked in a
Collision is removed after the wrecking steps (Twisted Metal, p.44).

A Jet Engine counts as a Nitro Booster with infinite ammo, so it always
explodes (p.70).
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.gaslands.attacks import explosion_dice
from simulator.gaslands.rule_numbers import RULES
from simulator.gaslands.tables import Weight

EXPLODES_ON = RULES.explosions.explodes_on.value
"""An Explosion check explodes at this total or more (p.43)."""

SKID_TO_A_HALT = RULES.wrecks.skid_to_a_halt.value
"""The forced move of a Wrecked vehicle (p.43)."""


def is_wrecked(hull: int, damage: int) -> bool:
    """Whether a vehicle that has suffered ``damage`` of its ``hull`` is Wrecked (p.43)."""
    return damage >= hull


def explodes(roll: int, ammo_tokens: int, *, infinite_ammo: bool = False) -> bool:
    """Explosion check: D6 ``roll`` plus ammo tokens, 6 or more explodes (p.43; Jet Engine p.70)."""
    return infinite_ammo or roll + ammo_tokens >= EXPLODES_ON


@dataclass(frozen=True)
class WreckPlan:
    """The outcome of the wrecking steps once the Explosion check is rolled."""

    explosion_roll: int
    exploded: bool
    explosion_dice: int
    stays_as_wreck: bool


def plan_wreck(
    weight: Weight,
    explosion_roll: int,
    ammo_tokens: int,
    *,
    infinite_ammo: bool = False,
    in_collision: bool = False,
) -> WreckPlan:
    """Explosion and what remains (p.43-44): exploded or Twisted Metal wrecks are removed."""
    exploded = explodes(explosion_roll, ammo_tokens, infinite_ammo=infinite_ammo)
    return WreckPlan(
        explosion_roll=explosion_roll,
        exploded=exploded,
        explosion_dice=explosion_dice(weight) if exploded else 0,
        stays_as_wreck=not exploded and not in_collision,
    )
