"""Perks and sponsor rules that react to what happens: wipeouts, wrecks, explosions, hits, Hazard Tokens (p.91-115).

Each observer is shown every event the engine emits (after the change it
reports) and may change the game at once; what it changes is logged with its
own :class:`~simulator.gaslands.events.PerkUsed` (so the log still accounts for
every Hull Point, Hazard Token and gear).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.frozen import replace
from simulator.gaslands.events import (
    Attacked,
    CollisionDamage,
    DropAttacked,
    GameEvent,
    NitroFired,
    PassedGates,
    PushedIt,
    TemplateChosen,
    WipedOut,
    Wrecked,
)
from simulator.gaslands.perks.core import add_note, change, has, note, observer, set_note, tell, votes, within
from simulator.gaslands.tables import Weight, load_weapons

if TYPE_CHECKING:
    from simulator.gaslands.engine import _Run

FAHRENHEIT_CAP = 2
"""Mister Fahrenheit: Hazard Tokens from Collisions in one activation, at most (p.110)."""

FIRE_WALK = 3
"""Fire Walk With Me: Fire damage cut by up to this much, to no less than 1 (p.100)."""

CULT_OF_SPEED_PHASES = (1, 2, 3)
"""Gear Phases in which Cult of Speed pays for the Long Straight (p.94)."""

FIREWORKS_VOTES = {Weight.LIGHTWEIGHT: 0, Weight.MIDDLEWEIGHT: 1, Weight.HEAVYWEIGHT: 2}
"""Fireworks: Audience Votes for an Explosion by weight (p.96)."""


def _vehicle_of(event: GameEvent) -> str:
    v = getattr(event, "vehicle", "")
    return v if isinstance(v, str) else ""


@observer
def _hazard_lock(run: _Run, event: GameEvent) -> None:
    """Don't Come Knocking (p.112): a locked vehicle's Hazard Tokens do not change until it next activates."""
    vid = _vehicle_of(event)
    delta = getattr(event, "hazard_delta", 0)
    if not vid or not delta or not note(run.state, vid, "locked:next"):
        return
    v = run.state.vehicle(vid)
    change(run, v, "dont_come_knocking", f"its Hazard Tokens are locked: {delta:+d} undone", hazards=-delta)


@observer
def _hazards_gained(run: _Run, event: GameEvent) -> None:
    """Hazard Tokens the active vehicle gains this activation (In for a Penny, p.112)."""
    vid = _vehicle_of(event)
    if vid and vid == run._active and getattr(event, "hazard_delta", 0) > 0:
        add_note(run, vid, "hazards_gained:activation", getattr(event, "hazard_delta", 0))


@observer
def _mister_fahrenheit(run: _Run, event: GameEvent) -> None:
    if not isinstance(event, CollisionDamage) or event.hazard_delta <= 0:
        return
    vid = event.vehicle
    if not has(run.state, vid, "mister_fahrenheit") or note(run.state, vid, "locked:next"):
        return
    before = note(run.state, vid, "collision_hazards:activation")
    allowed = max(0, FAHRENHEIT_CAP - before)
    kept = min(allowed, event.hazard_delta)
    add_note(run, vid, "collision_hazards:activation", kept)
    if kept < event.hazard_delta:
        change(run, run.state.vehicle(vid), "mister_fahrenheit",
               f"at most {FAHRENHEIT_CAP} Hazard Tokens from Collisions this activation", hazards=kept - event.hazard_delta)


@observer
def _beerserker(run: _Run, event: GameEvent) -> None:
    vid = _vehicle_of(event)
    lost = -getattr(event, "hull_delta", 0)
    if not vid or lost < 2 or vid == run._active or not has(run.state, vid, "beerserker"):
        return
    change(run, run.state.vehicle(vid), "beerserker", "1 damage less outside its activation", hull=1)


@observer
def _fire_walk_with_me(run: _Run, event: GameEvent) -> None:
    fire = False
    if isinstance(event, Attacked):
        weapons = {w.name: w for w in load_weapons().values()}
        fire = any(weapons[n].has_rule("Fire") for n in event.weapons if n in weapons)
    elif isinstance(event, DropAttacked):
        fire = any(w.name == event.weapon and w.has_rule("Fire") for w in load_weapons().values())
    if not fire:
        return
    vid = _vehicle_of(event)
    lost = -getattr(event, "hull_delta", 0)
    if lost < 2 or not has(run.state, vid, "fire_walk_with_me"):
        return
    saved = min(FIRE_WALK, lost - 1)
    change(run, run.state.vehicle(vid), "fire_walk_with_me", f"walks through the fire: {saved} damage less",
           hull=saved)


@observer
def _wipeouts(run: _Run, event: GameEvent) -> None:
    """Crowd Pleaser (p.105), Schadenfreude (p.111), and the Wipeout that spoils Showing Off (p.92)."""
    if not isinstance(event, WipedOut):
        return
    v = run.state.vehicle(event.vehicle)
    set_note(run, v.id, "wiped:activation", 1)
    set_note(run, v.id, "showing_off:phase", 0)
    if has(run.state, v.id, "crowd_pleaser"):
        votes(run, v.player, 1, "crowd_pleaser", f"{v.label} wipes out")
    gloaters = [u for u in run.state.vehicles if u.in_play and u.id != v.id and u.hazards > 0
                and has(run.state, u.id, "schadenfreude")]
    for u in within(run, v.id, "short", gloaters):
        change(run, u, "schadenfreude", f"{v.label} wipes out close by: every Hazard Token gone", hazards=-u.hazards)


@observer
def _wrecks(run: _Run, event: GameEvent) -> None:
    """Fireworks (p.96): votes for an Explosion, and the wreck's ammo is spent."""
    if not isinstance(event, Wrecked) or not event.explodes:
        return
    v = run.state.vehicle(event.vehicle)
    if has(run.state, v.id, "fireworks"):
        weight = Weight(min(3, int(v.weight) + (1 if has(run.state, v.id, "powder_keg") else 0)))
        votes(run, v.player, FIREWORKS_VOTES[weight], "fireworks", f"{v.label} explodes")
        if any(m.ammo for m in v.weapons):
            run._put(replace(v, weapons=tuple(replace(m, ammo=0 if m.ammo is not None else None)
                                              for m in v.weapons)))
            tell(run, v, "fireworks", "every Ammo Token of the wreck goes off")


@observer
def _hits(run: _Run, event: GameEvent) -> None:
    """Hits of the active vehicle: Televised Carnage counts them before Evades (p.91), Road Warrior remembers an
    enemy hit (p.105), All the Toys pays for the first attack with each named weapon (p.93)."""
    if not isinstance(event, Attacked):
        return
    add_note(run, event.attacker, "hits:attacks", event.hits)
    attacker = run.state.vehicle(event.attacker)
    target = run.state.vehicle(event.vehicle)
    if event.hits > 0 and target.player != attacker.player:
        set_note(run, attacker.id, "hit_enemy:activation", 1)
    if has(run.state, attacker.id, "all_the_toys"):
        for name in dict.fromkeys(event.weapons):
            key = "toy_" + "".join(c for c in name.lower() if c.isalnum())
            if not note(run.state, "game", key):
                set_note(run, "game", key, 1)
                votes(run, attacker.player, 1, "all_the_toys", f"the first attack of the game with a {name}")


@observer
def _pushes(run: _Run, event: GameEvent) -> None:
    """Virtuoso (p.92): the first Push It of an activation costs no Hazard Token."""
    if not isinstance(event, PushedIt) or event.hazard_delta <= 0:
        return
    vid = event.vehicle
    if has(run.state, vid, "virtuoso") and not note(run.state, vid, "pushed:activation"):
        change(run, run.state.vehicle(vid), "virtuoso", "the first Push It of the activation is free", hazards=-1)
    set_note(run, vid, "pushed:activation", 1)


@observer
def _cult_of_speed(run: _Run, event: GameEvent) -> None:
    """Cult of Speed (p.94): the Long Straight chosen in Gear Phase 1-3, a Nitro Booster included."""
    long_straight = isinstance(event, TemplateChosen) and event.template == "long_straight"
    if not (long_straight or isinstance(event, NitroFired)):
        return
    vid = _vehicle_of(event)
    if run.state.round.gear_phase in CULT_OF_SPEED_PHASES and has(run.state, vid, "cult_of_speed"):
        v = run.state.vehicle(vid)
        votes(run, v.player, 1, "cult_of_speed", f"{v.label} takes the Long Straight in Gear Phase "
                                                 f"{run.state.round.gear_phase}")


@observer
def _gates(run: _Run, event: GameEvent) -> None:
    """A gate passed in this Movement Step (Time Extended!, p.113)."""
    if isinstance(event, PassedGates):
        add_note(run, event.vehicle, "gates:movement", len(event.gates))


@observer
def _corn_liquor(run: _Run, event: GameEvent) -> None:
    """Old Fashioned Corn Liquor (p.103): a vehicle within Medium range that gains Hazard Tokens gains one more."""
    vid = _vehicle_of(event)
    if not vid or getattr(event, "hazard_delta", 0) <= 0 or note(run.state, vid, "locked:next"):
        return
    stills = [u for u in run.state.vehicles if u.in_play and u.id != vid and has(run.state, u.id,
                                                                                "old_fashioned_corn_liquor")]
    if stills:
        near = within(run, vid, "medium", stills)
        if near:
            change(run, run.state.vehicle(vid), "old_fashioned_corn_liquor", "one more Hazard Token", hazards=1,
                   source=near[0].label)


__all__: list[str] = []
