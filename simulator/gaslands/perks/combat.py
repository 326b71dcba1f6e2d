"""Perks, sponsor rules and upgrades in Collisions and shooting (p.52-57, p.30-33; p.84-85, p.91-115).

Collisions: each participant's Smash Attack dice, penalties, factors and Evade
bonus (:func:`participants`); the extra reactions Grinderman (p.105), PIT
(p.111) and Slipstream (p.113) (:func:`reaction_options`,
:func:`forced_reaction`); Tombstone's Head-On (p.99); Grinderman's damage as
Hazard Tokens and Bruiser's token (:func:`adjust_outcome`); the Exploding Ram
spent (p.84). Shooting: extra attack dice, bonuses to hit, Critical Hits and
Evade bonuses (:func:`shot_dice`, :func:`hit_bonus`, :func:`critical_hits`,
:func:`evade_bonus`) and Feel No Pain (:func:`after_shots`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.frozen import replace
from simulator.gaslands.attacks import AttackResolution, HitEffects
from simulator.gaslands.collisions import CollisionOutcome, Orientation, Participant, Reaction
from simulator.gaslands.perks.core import (
    PerkAsk,
    Question,
    answers,
    change,
    has,
    in_play,
    note,
    set_note,
    tell,
)
from simulator.gaslands.permitted import MOVEMENT_TEMPLATES, STRAIGHTS, Manoeuvre, manoeuvre
from simulator.gaslands.state import VehicleState
from simulator.gaslands.tables import Weapon, Weight

if TYPE_CHECKING:
    from simulator.gaslands.engine import Pending, _Run

FENDERKISS = 2
"""Fenderkiss: dice off its Smash Attacks and off Smash Attacks against it (p.114)."""

SLIPPERY = 2
"""Slippery: dice off Smash Attacks against it (p.107)."""

HOG_WILD = 2
"""Hog Wild: Smash Attack dice in Collisions of a Wipeout Step (p.112)."""

PENNY_HAZARDS = 6
"""In for a Penny: Hazard Tokens gained this activation to double its Smash Attack dice (p.112)."""

FEEL_NO_PAIN = 2
"""Feel No Pain: an enemy Attack Step with this many uncancelled hits or fewer does nothing (p.106)."""

HEADSHOT = 3
"""Headshot: hits per Critical Hit when shooting (p.109)."""

DOUBLE_BARRELED = 3
"""Double-Barreled: Crew Fired weapons that get +1 to hit in one Attack Step (p.104)."""


# =========================================================================== Collisions


def _heavier(run: _Run, v: VehicleState) -> Weight:
    if note(run.state, v.id, "heavier:next"):
        return Weight(min(int(Weight.HEAVYWEIGHT), int(v.weight) + 1))
    return v.weight


def participants(run: _Run, a: Participant, p: Participant) -> tuple[Participant, Participant]:
    """Both sides of a Collision with their perks: Battlehammer (+1 die per Hazard Token, p.104), Slippery
    (p.107), Fenderkiss (p.114), Hog Wild (p.112), In for a Penny (p.112), Bigger'n You (p.112), Dead Weight's
    weight (p.106), Burning Man's Evade bonus (p.100), an unspent Exploding Ram on the colliding facing (p.84)."""
    if not in_play(run):
        return a, p
    return _side(run, a), _side(run, p)


def _side(run: _Run, me: Participant) -> Participant:
    if me.obstacle:
        return me
    v = run.state.vehicle(me.id)
    s = run.state
    bonus = 0
    if has(s, v.id, "battlehammer"):
        bonus += v.hazards
    if has(s, v.id, "fenderkiss"):
        bonus -= FENDERKISS
    if has(s, v.id, "hog_wild") and note(s, "game", "wipeout_step:activation"):
        bonus += HOG_WILD
    penalty = (SLIPPERY if has(s, v.id, "slippery") else 0) + (FENDERKISS if has(s, v.id, "fenderkiss") else 0)
    factor = 2 if has(s, v.id, "in_for_a_penny") and v.id == run._active and \
        note(s, v.id, "hazards_gained:activation") >= PENNY_HAZARDS else 1
    facing = {"front": "front", "rear": "rear", "side": "side"}.get(me.edge, "front")
    exploding = any(u == "exploding_ram" and f == facing for u, f in s.loadout(v.id).upgrades) and \
        not note(s, v.id, "exploding_ram_used")
    evade = (1 if v.on_fire and has(s, v.id, "burning_man") else 0) + note(s, v.id, "evasive_bonus")
    k = note(s, v.id, "sympathy")
    extra = s.vehicles[k - 1].gear if k else 0
    return replace(me, weight=_heavier(run, v), smash_bonus=bonus, smash_penalty=penalty, smash_factor=factor,
                   weight_factor=2 if has(s, v.id, "biggern_you") else 1, evade_bonus=evade, evade_extra=extra,
                   exploding_ram=me.exploding_ram or exploding)


def orientation(run: _Run, a: Participant, p: Participant, usual: Orientation) -> Orientation:
    """Tombstone (p.99): a vehicle that took 2 Hazard Tokens in its Attack Step has Head-On Collisions until it
    next activates."""
    if in_play(run) and any(not x.obstacle and note(run.state, x.id, "head_on:next") for x in (a, p)):
        return Orientation.HEAD_ON
    return usual


def reaction_options(run: _Run, me: Participant, other: Participant, orientation_now: Orientation,
                     options: tuple[Reaction, ...]) -> tuple[Reaction, ...]:
    """The reactions ``me`` may declare, with Grinderman (a Smash Attack, p.105), PIT (not Head-On, against an
    enemy, in its activation, p.111) and Slipstream (a Tailgate in its activation, p.113)."""
    if not in_play(run) or me.obstacle or other.obstacle:
        return options
    s = run.state
    v, o = s.vehicle(me.id), s.vehicle(other.id)
    out = list(options)
    if has(s, v.id, "grinderman") and Reaction.SMASH in out:
        out.append(Reaction.GRINDERMAN)
    mine = v.id == run._active and not me.exploding_ram
    if mine and has(s, v.id, "pit") and orientation_now is not Orientation.HEAD_ON and o.player != v.player:
        out.append(Reaction.PIT)
    if mine and has(s, v.id, "slipstream") and orientation_now is Orientation.TAILGATE:
        out.append(Reaction.SLIPSTREAM)
    return tuple(out)


def forced_reaction(run: _Run, declared: tuple[Reaction, ...], me: Participant) -> Reaction | None:
    """After a Slipstream the other vehicle may not react (p.113) (unless an Exploding Ram forces its Smash)."""
    if in_play(run) and declared and declared[0] is Reaction.SLIPSTREAM and not me.exploding_ram:
        return Reaction.NONE
    return None


def adjust_outcome(run: _Run, a: Participant, p: Participant, ra: Reaction, rp: Reaction,
                   out: CollisionOutcome) -> CollisionOutcome:
    """Grinderman's damage becomes Hazard Tokens on its target (p.105); the Exploding Ram is spent (p.84)."""
    if not in_play(run):
        return out
    sides = {a.id: out.active, p.id: out.passive}
    for me, mine, other in ((a, ra, p), (p, rp, a)):
        if mine is Reaction.GRINDERMAN and not other.obstacle:
            theirs = sides[other.id]
            if theirs.damage_taken:
                sides[other.id] = replace(theirs, damage_taken=0,
                                          hazards_gained=theirs.hazards_gained + theirs.damage_taken)
                tell(run, run.state.vehicle(me.id), "grinderman", f"grinds {theirs.damage_taken} damage into "
                     f"Hazard Tokens on {run.state.vehicle(other.id).label}")
        if sides[me.id].used_exploding_ram and not me.obstacle:
            set_note(run, me.id, "exploding_ram_used", 1)
    return replace(out, active=sides[a.id], passive=sides[p.id])


def after_collision(run: _Run, a: Participant, p: Participant, ra: Reaction, rp: Reaction) -> None:
    """What perks do once a Collision is resolved: Bruiser's Hazard Token (p.106), Slipstream's gear change
    (p.113), Pinball's second Movement Step (p.95), In for a Penny's count."""
    if not in_play(run) or a.obstacle or p.obstacle:
        return
    s = run.state
    for me, mine, other in ((a, ra, p), (p, rp, a)):
        v, o = s.vehicle(me.id), s.vehicle(other.id)
        if mine is not Reaction.EVADE and mine is not Reaction.NONE and o.player != v.player and o.in_play \
                and has(s, v.id, "bruiser"):
            change(run, o, "bruiser", f"collides with {v.label}, which did not Evade: +1 Hazard Token", hazards=1,
                   source=v.label)
        if mine is Reaction.SLIPSTREAM and v.in_play:
            up = 1 if v.gear < v.max_gear else -1
            change(run, v, "slipstream", f"slips into the slipstream: Gear {v.gear + up}, +1 Hazard Token",
                   gear=up, hazards=1)
        if me.id == run._active and me.edge == "side" and other.edge == "side" and mine.smashes \
                and has(s, v.id, "pinball"):
            set_note(run, v.id, "pinball:movement", 1)


def pit_question(run: _Run, pending: Pending, a: Participant, p: Participant, ra: Reaction,
                 rp: Reaction) -> Question | None:
    """PIT (p.111): the player who declared it picks a template the other vehicle finds Hazardous in its gear."""
    if not in_play(run) or Reaction.PIT not in (ra, rp):
        return None
    me, other = (a, p) if ra is Reaction.PIT else (p, a)
    v, o = run.state.vehicle(me.id), run.state.vehicle(other.id)
    if not (v.in_play and o.in_play):
        return None
    hazardous = [t for t in MOVEMENT_TEMPLATES
                 if manoeuvre(run.permissions, t, o.gear, full_throttle=o.has("Full Throttle")) is Manoeuvre.HAZARDOUS]
    choices: list[str] = []
    labels: list[str] = []
    for t in hazardous:
        for side in ((None,) if t in STRAIGHTS else ("left", "right")):
            choices.append(t if side is None else f"{t}:{side}")
            labels.append(t.replace("_", " ").capitalize() + (f" {side}" if side else ""))
    if not choices:
        tell(run, v, "pit", f"{o.label} finds no template Hazardous in Gear {o.gear}: no forced move")
        return None
    return Question(v.player, v.id, "pit", f"{v.label}: send {o.label} off on a template it finds Hazardous",
                    tuple(choices), tuple(labels), (o.id,))


@answers("pit")
def _pit_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    from simulator.gaslands.referee import MovePlan

    target = ask.context[0]
    template, _, side = choice.partition(":")
    o = run.state.vehicle(target)
    tell(run, o, "pit", f"is sent off on a {template.replace('_', ' ')}{' ' + side if side else ''}",
         source=run.state.vehicle(ask.vehicle).label)
    report = run.referee.move(run.state, target, MovePlan(template, "left" if side == "left" else
                                                           "right" if side == "right" else None))
    run._apply_report(target, report, how="is PITted", ref="PIT, p.111", template=template, surfaces=False)
    run._window(target, report, ask.then)


# =========================================================================== shooting


def shot_dice(run: _Run, v: VehicleState, mount: int, weapon: Weapon) -> int:
    """Extra attack dice of one shooting attack: Fully Loaded (3+ Ammo Tokens, p.109) and Angel of Death (the
    dice it bled for, on its first attack, p.108)."""
    if not in_play(run) or mount < 0 or weapon.dropped:
        return 0
    extra = 0
    ammo = v.weapons[mount].ammo
    if has(run.state, v.id, "fully_loaded") and ammo is not None and ammo >= 3:
        extra += 1
    angel = note(run.state, v.id, "angel:attacks")
    if angel:
        set_note(run, v.id, "angel:attacks", 0)
        extra += angel
    return extra


def hit_bonus(run: _Run, v: VehicleState, mount: int, weapon: Weapon, range_band: str | None) -> int:
    """+1 to hit: Dead-Eye beyond Medium range (p.109), Loader on its chosen weapon (p.109), Double-Barreled on
    up to three Crew Fired weapons a step (p.104)."""
    if not in_play(run):
        return 0
    s = run.state
    bonus = 0
    if has(s, v.id, "dead_eye") and range_band in ("long", "double"):
        bonus += 1
    if mount >= 0 and note(s, v.id, "loader:attacks") == mount + 1:
        bonus += 1
    if weapon.crew_fired and has(s, v.id, "double_barreled") and note(s, v.id, "barrels:attacks") < DOUBLE_BARRELED:
        set_note(run, v.id, "barrels:attacks", note(s, v.id, "barrels:attacks") + 1)
        bonus += 1
    return bonus


def critical_hits(run: _Run, v: VehicleState) -> int:
    """Hits of a Critical Hit when shooting: 2 (p.42), 3 with Headshot (p.109)."""
    return HEADSHOT if in_play(run) and has(run.state, v.id, "headshot") else 2


def evade_bonus(run: _Run, target: VehicleState) -> int:
    """+1 on its Evade dice while On Fire with Burning Man (p.100); +N chosen with Evasive (p.107)."""
    if not in_play(run):
        return 0
    burning = 1 if target.on_fire and has(run.state, target.id, "burning_man") else 0
    return burning + note(run.state, target.id, "evasive_bonus")


def after_shots(run: _Run, attacker: VehicleState, target: VehicleState, result: AttackResolution
                ) -> AttackResolution:
    """Feel No Pain (p.106): an enemy's attacks that leave 2 or fewer uncancelled hits on it are cancelled."""
    if not in_play(run) or attacker.player == target.player or not has(run.state, target.id, "feel_no_pain"):
        return result
    left = sum(h.hits for h in result.uncancelled)
    if 0 < left <= FEEL_NO_PAIN:
        tell(run, target, "feel_no_pain", f"shrugs off {left} hit{'s' if left != 1 else ''}")
        return replace(result, uncancelled=tuple(replace(h, hits=0) for h in result.uncancelled),
                       effects=HitEffects())
    return result


__all__ = ["adjust_outcome", "after_collision", "after_shots", "critical_hits", "evade_bonus", "forced_reaction",
           "hit_bonus", "orientation", "participants", "pit_question", "reaction_options", "shot_dice"]

