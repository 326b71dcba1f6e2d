"""Collisions: reactions, Smash Attack dice, evades, simultaneous damage and hazards (p.52-57).

Resolution order (p.52): orientation (from the geometry), the active
participant's reaction, the passive one's, Smash Attack rolls, Evade rolls,
uncancelled hits applied to both at once, then Hazard Tokens: 2 each, or 1
each if both evaded (p.54).

Smash Attack dice (p.55-56): Head-On, the sum of both current gears; T-Bone,
the vehicle's own gear; Tailgate, the faster gear minus the slower (not below
zero); then +2/+4 for being one/two weight classes heavier and -1/-2 for
lighter; never below zero dice. Obstacles always Smash, the collision is
Head-On and the obstacle is in Gear 0 (p.54). In a Tailgate where the front
vehicle (contact on its rear edge) is in the higher gear, both must Evade (p.53).

Upgrades and vehicle rules handled here: Ram (+2 dice, no hazards, p.85),
Exploding Ram (+6 dice, must Smash, loses a Hull Point per 1 or 2, p.84),
Infuriating Jingle (who Smashes an Ice Cream Truck gains no hazards, p.70),
On Fire (Smash Attacks carry Fire, p.81). A Piledriver Attack (p.120) is a
Smash Attack in all regards here; its extra effect (moving the target) and
Uppers/Downers (p.69) are applied by the game after the Collision.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from simulator.errors import IllegalChoice
from simulator.gaslands.attacks import count_evades, count_hits, evade_dice
from simulator.gaslands.dice import DiceSource
from simulator.gaslands.rule_numbers import RULES, SmashRow
from simulator.vocab import Orientation as Orientation  # re-exported: one definition, in simulator.vocab
from simulator.vocab import Weight as Weight
from simulator.vocab import plural

RAM_DICE = RULES.rams.ram_dice.value
"""Extra Smash Attack dice from a Ram on the colliding facing (p.85)."""

EXPLODING_RAM_DICE = RULES.rams.exploding_ram_dice.value
"""Extra Smash Attack dice from an Exploding Ram, once per game (p.84)."""


class Reaction(Enum):
    """A participant's reaction to a Collision (p.53)."""

    SMASH = "smash"
    EVADE = "evade"
    PILEDRIVER = "piledriver"
    """A Smash Attack in all regards that may then move a lighter target (Piledriver, p.120)."""
    GRINDERMAN = "grinderman"
    """A Smash Attack whose damage becomes Hazard Tokens on the target (Grinderman, p.105)."""
    PIT = "pit"
    """No dice: after the Collision the other vehicle makes a forced move on a template it finds Hazardous
    (Pursuit Intervention Technique, p.111)."""
    SLIPSTREAM = "slipstream"
    """No dice and no Collision tokens: a free gear change and a Hazard Token (Slipstream, p.113)."""
    NONE = "none"
    """No reaction: the other vehicle took a Slipstream (p.113)."""

    @property
    def smashes(self) -> bool:
        """Smash, Piledriver and Grinderman Attacks roll Smash Attack dice (p.55, p.105, p.120)."""
        return self in (Reaction.SMASH, Reaction.PILEDRIVER, Reaction.GRINDERMAN)


def weight_bonus(own: Weight, other: Weight) -> int:
    """Smash Attack dice for the weight difference (p.56): +2/+4 heavier, -1/-2 lighter (rules.toml)."""
    return RULES.weight_bonus.classes[int(own) - int(other)]


def base_smash_dice(orientation: Orientation, own_gear: int, other_gear: int) -> int:
    """Smash Attack dice before weight (Smash Attack Dice Table, p.55; rules.toml): Head-On both gears,
    T-Bone one's own gear, Tailgate the difference."""
    row: SmashRow = getattr(RULES.smash_dice, orientation.value)
    dice = row.own_gear * own_gear + row.other_gear * other_gear
    return max(0, abs(dice) if row.absolute else dice)


def smash_dice(
    orientation: Orientation,
    own_gear: int,
    other_gear: int,
    own_weight: Weight,
    other_weight: Weight,
    extra: int = 0,
) -> int:
    """Smash Attack dice for one participant (p.55-56); ``extra`` adds Ram dice (p.84-85). Never negative."""
    total = base_smash_dice(orientation, own_gear, other_gear) + weight_bonus(own_weight, other_weight) + extra
    return max(0, total)


@dataclass(frozen=True)
class Participant:
    """One side of a Collision.

    ``edge`` is where the contact is on this participant: ``"front"``,
    ``"side"`` or ``"rear"`` (after the corner and reversing rules of p.53,
    which the geometry applies). An obstacle has ``obstacle=True``, gear 0 and
    its weight (p.54). ``ram`` / ``exploding_ram`` say whether that upgrade is on
    the colliding facing (and, for the Exploding Ram, still has its ammo).
    """

    id: str
    gear: int
    weight: Weight
    edge: str = "front"
    obstacle: bool = False
    destructible: bool = False
    ram: bool = False
    exploding_ram: bool = False
    infuriating_jingle: bool = False
    on_fire: bool = False
    smash_bonus: int = 0
    """Smash Attack dice it adds (Battlehammer p.104, Hog Wild p.112) or loses (Fenderkiss p.114)."""
    smash_penalty: int = 0
    """Dice lost by Smash Attacks against it (Slippery p.107, Fenderkiss p.114)."""
    smash_factor: int = 1
    """Its Smash Attack dice are multiplied by this (In for a Penny, p.112)."""
    weight_factor: int = 1
    """Weight bonuses and penalties of its Collisions are multiplied by this (Bigger'n You, p.112)."""
    evade_bonus: int = 0
    """Added to each of its Evade dice; a 1 still fails (Evasive p.107, Burning Man p.100)."""
    no_hazards: bool = False
    """It gains no Hazard Tokens from this Collision (Slipstream, p.113)."""
    evade_extra: int = 0
    """Evade dice it adds to its gear's (Sympathy for the Devil, p.108)."""

    @classmethod
    def of_obstacle(cls, obstacle_id: str, weight: Weight, destructible: bool = False) -> Participant:
        """An obstacle: Gear 0, always Head-On and Smash (p.54)."""
        return cls(obstacle_id, 0, weight, "front", obstacle=True, destructible=destructible)




def forced_reaction(me: Participant, other: Participant, orientation: Orientation) -> Reaction | None:
    """The reaction the rules impose on ``me``, or ``None`` if the player chooses.

    Obstacles always Smash (p.54); an unspent Exploding Ram must Smash (p.84);
    in a Tailgate where the vehicle hit on its rear edge is in the higher gear,
    both Evade (p.53).
    """
    if me.obstacle:
        return Reaction.SMASH
    if orientation is Orientation.TAILGATE and _front_vehicle_faster(me, other):
        return Reaction.EVADE
    if me.exploding_ram:
        return Reaction.SMASH
    return None


def _front_vehicle_faster(a: Participant, b: Participant) -> bool:
    if a.obstacle or b.obstacle:
        return False
    front = a if a.edge == "rear" else b if b.edge == "rear" else None
    if front is None:
        return False
    back = b if front is a else a
    return front.gear > back.gear


def check_reaction(me: Participant, other: Participant, orientation: Orientation, reaction: Reaction) -> None:
    """Raise :class:`IllegalChoice` if ``reaction`` is not allowed for ``me`` (p.53-54, p.84)."""
    forced = forced_reaction(me, other, orientation)
    if forced is not None and forced.smashes != reaction.smashes:
        raise IllegalChoice(f"{me.id} must declare {forced.value}", _forced_rule(me, orientation))


def _forced_rule(me: Participant, orientation: Orientation) -> str:
    if me.obstacle:
        return "Collisions with Obstacles, p.54"
    if orientation is Orientation.TAILGATE:
        return "Tailgate, p.53"
    return "Exploding Ram, p.84"


@dataclass(frozen=True)
class SideOutcome:
    """What one participant rolled and suffered in a Collision."""

    id: str
    reaction: Reaction
    attack_rolls: tuple[int, ...]
    hits_dealt: int
    evade_rolls: tuple[int, ...]
    damage_taken: int
    hazards_gained: int
    self_damage: int = 0
    on_fire: bool = False
    used_exploding_ram: bool = False


@dataclass(frozen=True)
class CollisionOutcome:
    """Both sides of a resolved Collision; ``removed`` lists a destructible obstacle to remove (p.54)."""

    orientation: Orientation
    active: SideOutcome
    passive: SideOutcome
    removed: tuple[str, ...] = ()


def _extra_dice(me: Participant) -> int:
    return (RAM_DICE if me.ram else 0) + (EXPLODING_RAM_DICE if me.exploding_ram else 0)


def _hazards(me: Participant, other: Participant, mine: Reaction, theirs: Reaction) -> int:
    if me.obstacle or me.ram or me.no_hazards or Reaction.SLIPSTREAM in (mine, theirs):
        return 0
    if mine.smashes and other.infuriating_jingle:
        return 0
    return 1 if mine is theirs is Reaction.EVADE else 2


def resolve_collision(
    active: Participant,
    passive: Participant,
    orientation: Orientation,
    active_reaction: Reaction,
    passive_reaction: Reaction,
    dice: DiceSource,
) -> CollisionOutcome:
    """Resolve a Collision after both reactions are declared (steps 4-7, p.52-57).

    Dice order: the active Smash Attack, the passive Smash Attack, then the
    active Evade and the passive Evade. Damage is applied to both at once
    (p.57); the caller applies it.
    """
    check_reaction(active, passive, orientation, active_reaction)
    check_reaction(passive, active, orientation, passive_reaction)
    a_rolls = _smash_rolls(active, passive, orientation, active_reaction, dice)
    p_rolls = _smash_rolls(passive, active, orientation, passive_reaction, dice)
    a_evade = _evade_rolls(active, active_reaction, dice)
    p_evade = _evade_rolls(passive, passive_reaction, dice)
    a_hits, p_hits = count_hits(a_rolls), count_hits(p_rolls)
    outcome_a = _side(active, passive, active_reaction, passive_reaction, a_rolls, a_hits, a_evade, p_hits)
    outcome_p = _side(passive, active, passive_reaction, active_reaction, p_rolls, p_hits, p_evade, a_hits)
    removed = tuple(p.id for p in (active, passive) if p.obstacle and p.destructible)
    return CollisionOutcome(orientation, outcome_a, outcome_p, removed)


def _smash_rolls(
    me: Participant, other: Participant, orientation: Orientation, reaction: Reaction, dice: DiceSource
) -> tuple[int, ...]:
    if not reaction.smashes:
        return ()
    return dice.roll_d6(_smash_count(orientation, me, other))


def _smash_count(orientation: Orientation, me: Participant, other: Participant) -> int:
    """Smash Attack dice of ``me`` with the perks' bonuses, penalties and factors (never below zero)."""
    factor = max(me.weight_factor, other.weight_factor)
    n = base_smash_dice(orientation, me.gear, other.gear) + factor * weight_bonus(me.weight, other.weight)
    n += _extra_dice(me) + me.smash_bonus - other.smash_penalty
    return max(0, n) * me.smash_factor


def _evade_rolls(me: Participant, reaction: Reaction, dice: DiceSource) -> tuple[int, ...]:
    if reaction is not Reaction.EVADE or me.obstacle:
        return ()
    return dice.roll_d6(evade_dice(me.gear) + me.evade_extra)


def _side(
    me: Participant,
    other: Participant,
    mine: Reaction,
    theirs: Reaction,
    rolls: tuple[int, ...],
    hits_dealt: int,
    evades: tuple[int, ...],
    incoming: int,
) -> SideOutcome:
    damage = max(0, incoming - count_evades(evades, bonus=me.evade_bonus))
    used_ram = me.exploding_ram and mine.smashes
    self_damage = sum(1 for r in rolls if r <= 2) if used_ram else 0
    on_fire = other.on_fire and damage > 0 and not me.obstacle
    return SideOutcome(
        me.id, mine, rolls, hits_dealt, evades, damage, _hazards(me, other, mine, theirs), self_damage, on_fire, used_ram
    )


def smash_dice_why(orientation: Orientation, me: Participant, other: Participant) -> str:
    """How ``me``'s Smash Attack dice are counted, in words (p.55-57, Rams p.84-85): ``"3 + 2 gears (Head-On),
    +2 heavier = 7 dice"``."""
    if orientation is Orientation.HEAD_ON:
        parts = [f"{me.gear} + {other.gear} gears (Head-On)"]
    elif orientation is Orientation.T_BONE:
        parts = [f"Gear {me.gear} (T-Bone)"]
    else:
        parts = [f"|{me.gear} - {other.gear}| gears (Tailgate)"]
    bonus = max(me.weight_factor, other.weight_factor) * weight_bonus(me.weight, other.weight)
    if bonus:
        parts.append(f"{bonus:+d} {'heavier' if bonus > 0 else 'lighter'}")
    extra = _extra_dice(me)
    if extra:
        parts.append(f"{extra:+d} Ram")
    if me.smash_bonus:
        parts.append(f"{me.smash_bonus:+d} perks")
    if other.smash_penalty:
        parts.append(f"{-other.smash_penalty:+d} (the target's perks)")
    total = _smash_count(orientation, me, other)
    if me.smash_factor != 1:
        parts.append(f"x{me.smash_factor}")
    return f"{', '.join(parts)} = {plural(total, 'die', 'dice')}"
