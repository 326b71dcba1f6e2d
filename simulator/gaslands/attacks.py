"""Attack dice, Evade dice, Cover, Critical Hits and what uncancelled hits do (p.30-33, p.42, p.81-82).

Attack dice hit on 4+ (5+ with Cover, p.42); a natural 6 is a Critical Hit
worth two hits (p.30, p.42). The target rolls one Evade attempt per attacker's
Attack Step against the combined hits, as many dice as its current gear; each
6 cancels one hit (p.32). Hits that carry special rules are cancelled only
after plain hits (p.42). Each uncancelled hit removes one Hull Point (p.33)
unless the weapon does not damage (brackets in the weapon tables); Blast adds
a Hazard Token per uncancelled hit (p.44, p.81); Fire sets the target On Fire
if it suffered damage (p.81).

>>> count_hits((1, 1, 2, 4, 4, 5, 6))
5
>>> count_hits((4, 5, 6), cover=True)
3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simulator.errors import IllegalChoice
from simulator.gaslands.rule_numbers import RULES
from simulator.gaslands.tables import Weapon, Weight

HIT_ON = RULES.dice.hit_on.value
"""Attack dice hit on this roll or more (p.30; simulator/data/rules.toml)."""

CRITICAL_ON = RULES.dice.critical_on.value
"""A natural roll of this is a Critical Hit: two hits (p.42)."""

EVADE_ON = RULES.dice.evade_on.value
"""Evade dice cancel a hit on this roll (p.32)."""

COVER_PENALTY = RULES.dice.cover_penalty.value
"""Cover: an attack die needs this much more to hit (p.42)."""

EXPLOSION_DICE: dict[Weight, int] = {Weight.parse(w): n for w, n in RULES.explosions.dice.items()}
"""Attack dice of an exploding vehicle by its weight (Vehicle Explosion Table, p.44)."""

RANGE_BANDS: tuple[str, ...] = ("short", "medium", "long")
"""The range bands that vary the Shotgun's dice (p.77), nearest first."""


def hits_on(roll: int, *, cover: bool = False, bonus: int = 0, critical: int = 2) -> int:
    """Hits scored by one attack die: 0, 1 or ``critical`` (a natural 6; Headshot makes it 3, p.109). ``bonus``
    is added to the roll to hit (Dead-Eye, Loader, Double-Barreled, p.104, p.109), never making a Critical Hit."""
    if roll == CRITICAL_ON:
        return critical
    return 1 if roll + bonus >= HIT_ON + (COVER_PENALTY if cover else 0) else 0


def count_hits(rolls: Sequence[int], *, cover: bool = False, bonus: int = 0, critical: int = 2) -> int:
    """Total hits from attack dice ``rolls`` (p.30, p.42)."""
    return sum(hits_on(r, cover=cover, bonus=bonus, critical=critical) for r in rolls)


def count_evades(rolls: Sequence[int], *, bonus: int = 0) -> int:
    """Hits cancelled by Evade dice ``rolls``: one per 6 (p.32); ``bonus`` is added to each die, but a 1 always
    fails (Evasive p.107, Burning Man p.100)."""
    return sum(1 for r in rolls if r >= EVADE_ON or (bonus and r > 1 and r + bonus >= EVADE_ON))


def evade_dice(gear: int) -> int:
    """Evade dice a vehicle rolls: its current gear (p.32)."""
    return max(0, gear)


def attack_dice(weapon: Weapon, range_band: str | None = None) -> int:
    """Attack dice of ``weapon``; the Shotgun needs the nearest range band the target is in (p.77)."""
    if weapon.dice_by_range is None:
        return weapon.attack_dice
    if range_band not in weapon.dice_by_range:
        raise IllegalChoice(f"{weapon.name} needs a range band of {sorted(weapon.dice_by_range)}", f"p.{weapon.page}")
    return weapon.dice_by_range[range_band]


@dataclass(frozen=True)
class WeaponHits:
    """Hits on one target from one weapon, tagged with the special rules they carry."""

    weapon: str
    hits: int
    blast: bool = False
    fire: bool = False
    damaging: bool = True

    @property
    def special(self) -> bool:
        """Whether these hits trigger special rules, so are cancelled last (p.42)."""
        return self.blast or self.fire or not self.damaging

    @classmethod
    def of(cls, key: str, weapon: Weapon, hits: int) -> WeaponHits:
        """Hits from a weapon of the tables, with its Blast and Fire rules."""
        return cls(key, hits, weapon.has_rule("Blast"), weapon.has_rule("Fire"), weapon.damaging)


def cancel_hits(hits: Sequence[WeaponHits], cancels: int) -> tuple[WeaponHits, ...]:
    """Remove ``cancels`` hits, plain hits first, then special ones in the given order (p.42).

    The target's controller orders hits with different special rules (p.42):
    pass them in that order.
    """
    remaining = cancels
    out: list[WeaponHits] = list(hits)
    for special in (False, True):
        for i, group in enumerate(out):
            if group.special is special and remaining > 0:
                taken = min(group.hits, remaining)
                remaining -= taken
                out[i] = WeaponHits(group.weapon, group.hits - taken, group.blast, group.fire, group.damaging)
    return tuple(out)


@dataclass(frozen=True)
class HitEffects:
    """What uncancelled hits do to the target."""

    damage: int = 0
    hazards: int = 0
    on_fire: bool = False


def effects(hits: Sequence[WeaponHits]) -> HitEffects:
    """Damage (p.33), Blast hazards (p.81) and Fire (p.81) of uncancelled hits."""
    damage = sum(h.hits for h in hits if h.damaging)
    hazards = sum(h.hits for h in hits if h.blast)
    on_fire = any(h.fire and h.damaging and h.hits > 0 for h in hits)
    return HitEffects(damage, hazards, on_fire)


@dataclass(frozen=True)
class AttackResolution:
    """An attacker's attacks on one target: dice, hits before and after the Evade, effects."""

    attack_rolls: tuple[tuple[int, ...], ...]
    evade_rolls: tuple[int, ...]
    hits: tuple[WeaponHits, ...]
    uncancelled: tuple[WeaponHits, ...]
    effects: HitEffects

    @property
    def total_hits(self) -> int:
        """Hits before the Evade."""
        return sum(h.hits for h in self.hits)


def resolve_against(
    attacks: Sequence[tuple[str, Weapon, tuple[int, ...]]],
    evade_rolls: Sequence[int],
    *,
    cover: bool = False,
    hit_bonus: Sequence[int] = (),
    critical: int = 2,
    evade_bonus: int = 0,
) -> AttackResolution:
    """Resolve all of one Attack Step's attacks on one target (p.30-33, p.42).

    ``attacks`` are ``(weapon key, weapon, attack dice rolled)``; ``evade_rolls``
    is the target's single Evade roll against the combined hits (pass ``()`` if
    it cannot evade). Indirect weapons ignore Cover (p.82). Perks: ``hit_bonus``
    per attack (added to each die's roll to hit), ``critical`` hits per natural 6
    (Headshot, p.109), ``evade_bonus`` on each Evade die (p.100, p.107).
    """
    bonuses = list(hit_bonus) + [0] * (len(attacks) - len(hit_bonus))
    hits = tuple(
        WeaponHits.of(key, weapon, count_hits(rolls, cover=cover and not weapon.has_rule("Indirect"), bonus=bonus,
                                              critical=critical))
        for (key, weapon, rolls), bonus in zip(attacks, bonuses, strict=True)
    )
    uncancelled = cancel_hits(hits, count_evades(evade_rolls, bonus=evade_bonus))
    return AttackResolution(
        tuple(r for _, _, r in attacks), tuple(evade_rolls), hits, uncancelled, effects(uncancelled)
    )


def max_attacks(crew: int) -> int:
    """Attacks a vehicle may make in its Attack Step: its Crew Value (p.31)."""
    return max(0, crew)


def explosion_dice(weight: Weight) -> int:
    """Attack dice against each vehicle within Medium range of an explosion (p.44)."""
    return EXPLOSION_DICE[weight]
