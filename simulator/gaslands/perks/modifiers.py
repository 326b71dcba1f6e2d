"""What perks, sponsor rules and upgrades change in the engine's own reckoning: permitted templates, Skid Dice,
Spins, Wipeouts, Explosions, the Nitro Booster (p.83-85, p.91-115).

Each function is asked by the engine at one place with the values it is about
to use, and returns them changed (or unchanged for a vehicle without the perk),
so the engine's rules stay in the engine and the perks stay here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.frozen import replace
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.perks.core import add_note, enemies, has, in_play, note, tell, within
from simulator.gaslands.permitted import STRAIGHTS, Manoeuvre, PermissionTable, manoeuvre
from simulator.gaslands.rule_numbers import RULES
from simulator.gaslands.skid import Driving, ShiftUse, SkidOutcome, SpendShift
from simulator.gaslands.state import VehicleState
from simulator.gaslands.tables import Weight

if TYPE_CHECKING:
    from simulator.gaslands.engine import _Run

WIPEOUT_AT = RULES.wipeout.hazards.value
"""Hazard Tokens at which a vehicle wipes out (p.34)."""

DUTCH_COURAGE_AT = 8
"""Rusty's Bootleggers wipe out at this many instead (Dutch Courage, p.102)."""

SPEED_DEMON_HAZARDS = 3
"""Idris: a Nitro Booster tops Hazard Tokens up to this many, not 5 (Speed Demon, p.94)."""

TRICK_GEARS = (-1, 1)
"""Trick Driving picks templates as if a gear lower or higher (p.110)."""

_RANK = {Manoeuvre.TRIVIAL: 0, Manoeuvre.PERMITTED: 1, Manoeuvre.HAZARDOUS: 2, Manoeuvre.NOT_PERMITTED: 3}


def _better(a: Manoeuvre, b: Manoeuvre) -> Manoeuvre:
    return a if _RANK[a] <= _RANK[b] else b


def manoeuvres(run: _Run, v: VehicleState, table: PermissionTable, base: dict[str, Manoeuvre]) -> dict[str, Manoeuvre]:
    """``base`` (how each template counts in the vehicle's gear) changed by Trick Driving (the best of a gear
    lower, its own and a gear higher, p.110) and Over the Limit (no Straight is permitted; the Veer is permitted
    and Trivial in any gear, p.102)."""
    if not in_play(run):
        return base
    out = dict(base)
    if has(run.state, v.id, "trick_driving"):
        for delta in TRICK_GEARS:
            gear = v.gear + delta
            if 1 <= gear <= v.max_gear:
                for t in out:
                    other = manoeuvre(table, t, gear, full_throttle=v.has("Full Throttle"), zero_crew=v.crew_now == 0)
                    out[t] = _better(out[t], other)
    if has(run.state, v.id, "over_the_limit"):
        for t in out:
            if t in STRAIGHTS:
                out[t] = Manoeuvre.NOT_PERMITTED
            elif t == "veer":
                out[t] = Manoeuvre.TRIVIAL
    return out


def template_hazards(run: _Run, v: VehicleState, template: str, hazardous: int, articulated: int, *,
                     quiet: bool = False) -> tuple[int, int]:
    """The Hazard Tokens a chosen template gives, ``(for Hazardous, for Articulated)``: Delicate Touch ignores the
    hazard icons (p.115); As Straight as I'm Able the Articulated token (p.102). ``quiet``: only asking (no log)."""
    if not in_play(run):
        return hazardous, articulated
    if hazardous and has(run.state, v.id, "delicate_touch"):
        if not quiet:
            tell(run, v, "delicate_touch", f"no Hazard Token for the Hazardous {template.replace('_', ' ')}")
        hazardous = 0
    if articulated and has(run.state, v.id, "as_straight_as_im_able"):
        if not quiet:
            tell(run, v, "as_straight_as_im_able", "no Hazard Token for turning an articulated vehicle")
        articulated = 0
    return hazardous, articulated


def max_skid_dice(run: _Run, v: VehicleState) -> int:
    """Skid Dice it may roll: its Handling, one more with Overload (p.113)."""
    return v.handling + (1 if in_play(run) and has(run.state, v.id, "overload") else 0)


def driving(run: _Run, v: VehicleState) -> Driving:
    """What Skid Dice change for ``v``: its gear and tokens; an enemy's Unnerving Eye Contact within Short range
    stops it spending Shifts to shed Hazard Tokens (p.111)."""
    base = Driving(v.gear, v.hazards, v.max_gear)
    if not in_play(run):
        return base
    starers = [e for e in enemies(run.state, v) if has(run.state, e.id, "unnerving_eye_contact")]
    if starers and within(run, v.id, "short", starers):
        return replace(base, may_shed=False)
    return base


def after_shifts(run: _Run, v: VehicleState, outcome: SkidOutcome, spends: tuple[SpendShift, ...],
                 dice: int) -> int:
    """The Hazard Tokens ``v`` has after its Shifts, changed by Restraint (changing down sheds a token instead of
    gaining one, p.110), Purring (at most 1 token each from Spins, Slides and Hazard faces per activation, p.115)
    and Overload (an extra die rolled: change up or take a token, p.113); ``dice``: Skid Dice rolled."""
    hazards = outcome.driving.hazards
    if not in_play(run):
        return hazards
    downs = sum(1 for s in spends if s.use is ShiftUse.GEAR_DOWN)
    if downs and has(run.state, v.id, "restraint"):
        shed = min(2 * downs, hazards)
        hazards -= shed
        tell(run, v, "restraint", f"changing down sheds a Hazard Token instead of gaining one ({shed} fewer)")
    if has(run.state, v.id, "purring"):
        live = [f for i, f in enumerate(run._roll.faces) if i not in outcome.cancelled]
        saved = 0
        for face in (SkidFace.SPIN, SkidFace.SLIDE, SkidFace.HAZARD):
            n = live.count(face)
            already = note(run.state, v.id, f"purring_{face.value}:activation")
            allowed = max(0, 1 - already)
            taken = min(n, allowed)
            saved += n - taken
            if taken:
                add_note(run, v.id, f"purring_{face.value}:activation", taken)
        if saved:
            hazards = max(0, hazards - saved)
            tell(run, v, "purring", f"{saved} Hazard Token{'s' if saved != 1 else ''} fewer from its Skid Dice")
    if dice > v.handling and has(run.state, v.id, "overload") and outcome.driving.gear <= v.gear:
        hazards += 1
        tell(run, v, "overload", "rolled an extra Skid Die without changing up: +1 Hazard Token")
    add_note(run, v.id, "spins:activation", outcome.spins)
    add_note(run, v.id, "slides:activation", outcome.slides)
    if outcome.driving.gear != v.gear:
        add_note(run, v.id, "gear_changes:activation", abs(outcome.driving.gear - v.gear))
    if outcome.driving.gear < v.gear:
        add_note(run, v.id, "changed_down:movement")
    return hazards


def spin_range(run: _Run, v: VehicleState) -> tuple[float, float]:
    """How far a Spin may turn it, counter-clockwise degrees: 90 either way (p.24); any facing with Handbrake
    Artist (p.107); 90 per Spin result, one after another, with Dizzy (p.99)."""
    if not in_play(run):
        return -90.0, 90.0
    if has(run.state, v.id, "handbrake_artist"):
        return -180.0, 180.0
    if has(run.state, v.id, "dizzy"):
        spins = max(1, note(run.state, v.id, "spins:activation"))
        reach = min(180.0, 90.0 * spins)
        return -reach, reach
    return -90.0, 90.0


def ignores_distraction(run: _Run, v: VehicleState) -> bool:
    """Boarding Party: it attacks even while Distracted (p.104)."""
    return in_play(run) and has(run.state, v.id, "boarding_party")


def many_drops(run: _Run, v: VehicleState) -> bool:
    """Trunk of Junk: any number of dropped weapons in one activation (Verney, p.99)."""
    return in_play(run) and has(run.state, v.id, "trunk_of_junk")


def wipeout_at(run: _Run, v: VehicleState) -> int:
    """The Hazard Tokens at which it wipes out: 6 (p.34), 8 with Dutch Courage (p.102)."""
    if in_play(run) and has(run.state, v.id, "dutch_courage"):
        return DUTCH_COURAGE_AT
    return WIPEOUT_AT


def wipes_out(run: _Run, v: VehicleState) -> bool:
    """Whether ``v`` wipes out now (p.34, Dutch Courage p.102)."""
    return v.hazards >= wipeout_at(run, v)


def flip_gear(run: _Run, v: VehicleState) -> int:
    """The gear its Flip check counts: its own; 1 with the Cattle-Hammer, which may count any gear in the
    Wipeout Step (p.103)."""
    if in_play(run) and has(run.state, v.id, "cattle_hammer") and v.gear > 1:
        tell(run, v, "cattle_hammer", f"counts Gear 1 for its Flip check instead of Gear {v.gear}")
        return 1
    return v.gear


def explosion(run: _Run, v: VehicleState, roll: int) -> tuple[int, Weight]:
    """The Explosion check roll and the weight it explodes as: Powder Keg adds 1 and a weight class (p.105); an
    Experimental Nuclear Engine that failed its Flip check explodes as a Heavyweight (p.84)."""
    if in_play(run) and note(run.state, v.id, "meltdown"):
        tell(run, v, "experimental_nuclear_engine", "explodes as a Heavyweight")
        return max(roll, 6), Weight.HEAVYWEIGHT
    if in_play(run) and has(run.state, v.id, "powder_keg"):
        heavier = Weight(min(int(Weight.HEAVYWEIGHT), int(v.weight) + 1))
        tell(run, v, "powder_keg", f"Explosion check {roll} + 1; it explodes as a {heavier.name.lower()}")
        return roll + 1, heavier
    return roll, v.weight


def nitro_hazards(run: _Run, v: VehicleState, usual: int) -> int:
    """The Hazard Tokens a Nitro Booster tops it up to: 5 (p.84), 3 with Speed Demon (p.94)."""
    if in_play(run) and has(run.state, v.id, "speed_demon"):
        return SPEED_DEMON_HAZARDS
    return usual


def push_again(run: _Run, v: VehicleState) -> bool:
    """Chrome-Whisperer: it may Push It again, as often as it likes (p.107)."""
    return in_play(run) and has(run.state, v.id, "chrome_whisperer")


__all__ = ["after_shifts", "driving", "explosion", "flip_gear", "ignores_distraction", "manoeuvres",
           "many_drops", "max_skid_dice", "nitro_hazards", "push_again", "spin_range", "template_hazards",
           "wipeout_at", "wipes_out"]
