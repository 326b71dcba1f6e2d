"""The perks that reach further into the activation: Flips, Spins, whole Movement Steps, shots and Evades
(p.104-115).

Bullet-Time, Downshift, Highway to Hell, Skiing and Stunt Driver at the end of the
Movement Step (Skiing also in the other vehicles' Movement Steps); Taunt and
Eureka! at the start of the Attack Step, Rapid Fire at its end; Satellite Navigation with the Skid Dice; Rocket Thrusters and Barrel
Roll in a Flip; Rear Drive in a Spin; Evasive and Sympathy for the Devil before
an Evade; Return Fire when shot at; Splashback when hurt; Violent
Manifestation when respawned.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from simulator.frozen import replace
from simulator.gaslands.attacks import attack_dice, evade_dice, resolve_against
from simulator.gaslands.decisions import Attack, DeclareAttacks, Side
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.events import Attacked, CollisionDamage, GameEvent, VoteEffectApplied
from simulator.gaslands.perks.core import (
    PerkAsk,
    Question,
    active_vehicle,
    add_note,
    answers,
    change,
    enemies,
    friends,
    has,
    hook,
    in_play,
    note,
    observer,
    record,
    set_note,
    tell,
    within,
)
from simulator.gaslands.perks.core import ask as put
from simulator.gaslands.permitted import STRAIGHTS
from simulator.gaslands.referee import MovePlan, MoveReport
from simulator.gaslands.state import DroppedTemplate, GameState, Mount, Status, VehicleState
from simulator.gaslands.tables import Weapon, Weight, load_weapons
from simulator.geometry.pose import Pose

if TYPE_CHECKING:
    from simulator.gaslands.engine import Resume, _Run

STUNT_HAZARDS = 3
"""Stunt Driver: Hazard Tokens after a Movement Step through obstructions (p.107)."""

POWERSLIDE_TEMPLATES = ("short_straight", "medium_straight")
"""Powerslide: the templates the engine places as a Slide template besides the Slide template itself (p.107;
the Long Straight is barred, the turning templates are not placed as a Slide yet)."""

DRIFT_TEMPLATES: dict[int, tuple[str, ...]] = {2: ("medium_straight",), 3: ("medium_straight", "long_straight")}
"""Maxximum Drift: the straights a vehicle may slide along for the uncancelled Slide results it resolves (p.99;
two: the Medium Straight, three or more: the Long Straight, or the Medium as two of the three; docs/rulings.md)."""

SLIDE_STRAIGHTS = ("short_straight", "medium_straight", "long_straight")
"""The straights a perk may place as the Slide template, as the notes number them (Powerslide, Maxximum Drift)."""

SKIING_HAZARDS = 3
"""Skiing: Hazard Tokens to be passed through by the other vehicles until its next activation (p.115)."""

SKIING_HANDLING = 3
"""Skiing: the least Handling that may use it (p.115)."""

HIGHWAY_DAMAGE = 2
"""Highway to Hell: the Fire damage it takes (p.108)."""

RETURN_FIRE_HAZARDS = 2
"""Return Fire: Hazard Tokens to shoot back (p.109)."""

EXPLOSION_DICE = {Weight.LIGHTWEIGHT: 2, Weight.MIDDLEWEIGHT: 4, Weight.HEAVYWEIGHT: 6}
"""Violent Manifestation explodes like a wreck of its weight (p.44, p.108)."""

FACES = (SkidFace.HAZARD, SkidFace.SPIN, SkidFace.SLIDE)
"""Taunt's faces, noted as 1, 2, 3 (p.111)."""

FLIP_TEMPLATES = ("long_straight", "veer", "gentle")
"""Rocket Thrusters' other Flip templates (p.114)."""

EDGE_TURN = {"left": 90.0, "right": -90.0, "rear": 180.0}
"""Barrel Roll: how far the Flip's start edge is turned from the front (p.106)."""

EUREKA_WEAPONS = ("machine_gun", "heavy_machine_gun", "minigun", "rockets", "bazooka", "mortar", "flamethrower",
                  "combat_laser", "magnum", "shotgun", "submachine_gun", "blunderbuss")
"""The weapons Eureka! may conjure that the engine plays (p.114)."""


# =========================================================================== the end of the Movement Step


@hook("end_of_movement", "stunt_driver")
def _stunt_driver_tokens(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is not None and note(run.state, v.id, "stunt:movement"):
        set_note(run, v.id, "stunt:movement", 0)
        change(run, v, "stunt_driver", "drove through obstructions: +3 Hazard Tokens", hazards=STUNT_HAZARDS)
    return None


@hook("end_of_movement", "bullet_time")
def _bullet_time(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "bullet_time") or not note(run.state, v.id, "slides:activation"):
        return None
    if note(run.state, v.id, "bullet_time:activation"):
        return None
    weapons = load_weapons()
    mounts = [i for i, m in enumerate(v.weapons) if m.facing not in ("turret", "crew") and not weapons[m.weapon].dropped]
    if not mounts:
        return None
    return Question(v.player, v.id, "bullet_time", f"{v.label} slid: one weapon counts as turret-mounted for the "
                    "rest of the activation?", ("no", *(str(i) for i in mounts)),
                    ("No", *(f"Turret the {weapons[v.weapons[i].weapon].name}" for i in mounts)))


@answers("bullet_time")
def _bullet_time_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        i = int(choice)
        v = run.state.vehicle(ask.vehicle)
        mounts = list(v.weapons)
        set_note(run, v.id, "bullet_time:activation", i + 1)
        set_note(run, v.id, f"bullet_facing_{i}:activation", ("front", "rear", "side").index(mounts[i].facing) + 1
                 if mounts[i].facing in ("front", "rear", "side") else 1)
        mounts[i] = replace(mounts[i], facing="turret")
        run._put(replace(v, weapons=tuple(mounts)))
        tell(run, v, "bullet_time", f"its {load_weapons()[mounts[i].weapon].name} fires all round this activation")
    run._resume(ask.then)


@hook("end_of_activation", "bullet_time_over")
def _bullet_time_over(run: _Run) -> Question | None:
    v = active_vehicle(run) or (run.state.vehicle(run._active) if run._active else None)
    if v is None:
        return None
    i = note(run.state, v.id, "bullet_time:activation") - 1
    if i >= 0 and i < len(v.weapons):
        facing = ("front", "rear", "side")[note(run.state, v.id, f"bullet_facing_{i}:activation") - 1]
        mounts = list(v.weapons)
        mounts[i] = replace(mounts[i], facing=facing)
        run._put(replace(v, weapons=tuple(mounts)))
    return None


@hook("end_of_movement", "downshift")
def _downshift(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "downshift") or not note(run.state, v.id, "changed_down:movement"):
        return None
    set_note(run, v.id, "changed_down:movement", 0)
    return Question(v.player, v.id, "downshift", f"{v.label} changed down: a forced Short Straight forward?",
                    ("no", "yes"), ("No", "Short Straight forward"))


@answers("downshift")
def _downshift_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "yes":
        run._resume(ask.then)
        return
    v = run.state.vehicle(ask.vehicle)
    tell(run, v, "downshift", "a forced Short Straight forward")
    report = run.referee.forced_move(run.state, v.id, "short_straight", ignore_obstructions=False)
    run._apply_report(v.id, report, how="downshifts", ref="Downshift, p.113", template="short_straight",
                      surfaces=False)
    run._window(v.id, report, ask.then)


@hook("end_of_movement", "highway_to_hell")
def _highway_to_hell(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "highway_to_hell") or v.hull_points <= HIGHWAY_DAMAGE:
        return None
    if run._template is None or run._template.template not in STRAIGHTS:
        return None
    return Question(v.player, v.id, "highway_to_hell", f"{v.label}: take {HIGHWAY_DAMAGE} Fire damage to leave a "
                    "Napalm trail?", ("no", "yes"), ("No", f"Burn: {HIGHWAY_DAMAGE} Fire damage, Napalm left behind"))


@answers("highway_to_hell")
def _highway_to_hell_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        v = run.state.vehicle(ask.vehicle)
        hurt = change(run, v, "highway_to_hell", f"takes {HIGHWAY_DAMAGE} Fire damage", hull=-HIGHWAY_DAMAGE)
        if hurt.hull_points < v.hull_points:
            if not hurt.on_fire:
                record(run, hurt, replace(hurt, on_fire=True), "highway_to_hell", "catches fire")
            start = run._move_start.pose if run._move_start is not None else v.pose
            trail = DroppedTemplate(f"drop-{run.state.drops_made + 1}", "napalm_dropper", "small_burst",
                                    Pose(start.x_mm, start.y_mm, (start.heading_deg + 180.0) % 360.0), v.id,
                                    v.player)
            run.state = run.state.with_dropped(trail)
            set_note(run, v.id, "trail", int(trail.id.split("-")[1]))
            tell(run, v, "highway_to_hell", "leaves a Napalm template where its move began, until it next activates")
    run._resume(ask.then)


@hook("start_of_activation", "highway_to_hell_over")
def _highway_to_hell_over(run: _Run) -> Question | None:
    """The Napalm trail goes at the start of the vehicle's next activation (p.108)."""
    v = active_vehicle(run)
    n = note(run.state, v.id, "trail") if v is not None else 0
    if v is None or not n:
        return None
    set_note(run, v.id, "trail", 0)
    if any(t.id == f"drop-{n}" for t in run.state.dropped):
        run.state = run.state.without_dropped(f"drop-{n}")
        tell(run, v, "highway_to_hell", "its Napalm trail burns out")
    return None


# =========================================================================== Stunt Driver: the Movement Step itself


@hook("start_of_movement", "stunt_driver")
def _stunt_driver(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "stunt_driver"):
        return None
    return Question(v.player, v.id, "stunt_driver", f"{v.label}: drive through obstructions this Movement Step "
                    "(then +3 Hazard Tokens)?", ("no", "yes"), ("No", "Drive through obstructions"))


@answers("stunt_driver")
def _stunt_driver_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        set_note(run, ask.vehicle, "stunt:movement", 1)
    run._resume(ask.then)


def movement(run: _Run, plan: MovePlan) -> MoveReport:
    """The active vehicle's Movement Step: through obstructions for a Stunt Driver who chose it (p.107); through
    the vehicles that are Skiing (p.115), backed along its path off any it would end on."""
    if not in_play(run):
        return run.referee.move(run.state, run._active, plan)
    from simulator.gaslands.perks.sponsors import without_ghosts

    state = without_ghosts(run.state, run._active)  # Ghost Riders and the living pass through each other (p.101)
    if note(run.state, run._active, "stunt:movement"):
        return run.referee.move_through(state, run._active, plan)
    skiers = skiing(state, run._active)
    if skiers:
        return run.referee.continue_move(state, run._active, plan, state.vehicle(run._active).pose, skiers)
    return run.referee.move(state, run._active, plan)


# =========================================================================== Powerslide (p.107)


def slide_template(run: _Run) -> str:
    """The straight template the active vehicle's Slide uses instead of the Slide template (Powerslide, p.107),
    or ``""`` for the Slide template."""
    if not run._active:
        return ""
    d = note(run.state, run._active, "drift:movement") - 1  # Maxximum Drift (p.99), chosen after the Shifts
    if 0 <= d < len(SLIDE_STRAIGHTS):
        return SLIDE_STRAIGHTS[d]
    i = note(run.state, run._active, "powerslide:activation") - 1
    return POWERSLIDE_TEMPLATES[i] if 0 <= i < len(POWERSLIDE_TEMPLATES) else ""


def powerslide(run: _Run) -> Question | None:
    """After the Skid Dice (and the perks that change them): a Powerslide with a Slide rolled chooses the template
    an uncancelled Slide will use (p.107)."""
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "powerslide") or v.has("Ponderous"):
        return None
    if SkidFace.SLIDE not in run._roll.faces:
        return None
    return Question(v.player, v.id, "powerslide", f"{v.label}: if the Slide stands, slide along which template?",
                    ("slide", *POWERSLIDE_TEMPLATES),
                    ("The Slide template", *(f"The {_words(k)}" for k in POWERSLIDE_TEMPLATES)))


def _words(template: str) -> str:
    return template.replace("_", " ").title()


@answers("powerslide")
def _powerslide_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    v = run.state.vehicle(ask.vehicle)
    set_note(run, v.id, "powerslide:activation",
             POWERSLIDE_TEMPLATES.index(choice) + 1 if choice in POWERSLIDE_TEMPLATES else 0)
    if choice in POWERSLIDE_TEMPLATES:
        tell(run, v, "powerslide", f"an uncancelled Slide goes along the {_words(choice)}")
    run._resume(ask.then)


# =========================================================================== Maxximum Drift (p.99)


def maxximum_drift(run: _Run, slides: int) -> Question | None:
    """Once the Shifts are spent: a Maxxine vehicle left with two or more uncancelled Slide results chooses
    the straight it slides along instead of the Slide template (p.99): the Medium Straight for two, the Long
    Straight (or the Medium) for three or more. The first choice keeps the template already chosen (the Slide
    template, or Powerslide's straight). ``None`` when it has nothing to choose."""
    v = active_vehicle(run)
    if v is None or slides < 2 or v.has("Ponderous") or not has(run.state, v.id, "maxximum_drift"):
        return None
    current = slide_template(run)
    longer = tuple(t for t in DRIFT_TEMPLATES[min(slides, max(DRIFT_TEMPLATES))] if t != current)
    keep = current or "slide"
    t = run._template
    plans: tuple[MovePlan, ...] = ()
    if t is not None:  # each answer's Slide, drawn by the window (both facings off a Straight, p.26)
        sides: tuple[Side | None, ...] = ("left", "right") if t.template in STRAIGHTS else (None,)
        plans = tuple(MovePlan(t.template, t.direction, t.reverse, True, side, "" if k == "slide" else k)
                      for k in (keep, *longer) for side in sides)
    return Question(v.player, v.id, "maxximum_drift", f"{v.label} resolves {slides} Slides: slide along which "
                    "template?", (keep, *longer),
                    (f"The {_words(keep)} template" if keep == "slide" else f"The {_words(keep)}",
                     *(f"The {_words(k)}" for k in longer)), plans=plans)


@answers("maxximum_drift")
def _maxximum_drift_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice in SLIDE_STRAIGHTS and choice != slide_template(run):
        v = run.state.vehicle(ask.vehicle)
        set_note(run, v.id, "drift:movement", SLIDE_STRAIGHTS.index(choice) + 1)
        tell(run, v, "maxximum_drift", f"drifts: the Slide goes along the {_words(choice)}")
    run._resume(ask.then)


# =========================================================================== Skiing (p.115)


def skiing(state: GameState, mover: str) -> tuple[str, ...]:
    """The ids of the vehicles in play, ``mover`` excepted, that took Skiing's Hazard Tokens and are ignored by
    the other vehicles' Movement Steps until their own next activation (p.115)."""
    return tuple(u.id for u in state.vehicles if u.id != mover and u.in_play and note(state, u.id, "skiing"))


@hook("end_of_movement", "skiing")
def _skiing(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "skiing") or v.handling < SKIING_HANDLING:
        return None
    return Question(v.player, v.id, "skiing", f"{v.label}: take {SKIING_HAZARDS} Hazard Tokens so that the other "
                    "vehicles drive through it until its next activation?", ("no", "yes"),
                    ("No", f"Ski (+{SKIING_HAZARDS} Hazard Tokens)"))


@answers("skiing")
def _skiing_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        v = run.state.vehicle(ask.vehicle)
        set_note(run, v.id, "skiing", 1)
        change(run, v, "skiing", f"skis: +{SKIING_HAZARDS} Hazard Tokens; the other vehicles drive through it "
               "until its next activation", hazards=SKIING_HAZARDS)
    run._resume(ask.then)


@hook("start_of_activation", "skiing_over")
def _skiing_over(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is not None and note(run.state, v.id, "skiing"):
        set_note(run, v.id, "skiing", 0)
        tell(run, v, "skiing", "stops skiing: the other vehicles collide with it again")
    return None


# =========================================================================== Skid Dice: Taunt, Satellite Navigation


@hook("start_of_attacks", "taunt")
def _taunt(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "taunt"):
        return None
    (face,) = run.dice.roll_skid(1)
    if face is SkidFace.SHIFT:
        tell(run, v, "taunt", "rolls a Shift: no taunt")
        return None
    near = within(run, v.id, "short", enemies(run.state, v))
    if not near:
        tell(run, v, "taunt", f"rolls a {face.value}, but no enemy is within Short range")
        return None
    return Question(v.player, v.id, "taunt", f"{v.label} rolls a {face.value}: put it on an enemy's dashboard for "
                    "its next Movement Step?", ("no", *(u.id for u in near)),
                    ("No", *(f"Taunt {u.label}" for u in near)), (face.value,))


@answers("taunt")
def _taunt_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        face = SkidFace(ask.context[0])
        set_note(run, choice, "taunted", FACES.index(face) + 1)
        tell(run, run.state.vehicle(choice), "taunt", f"must take a {face.value} in its next Movement Step",
             source=run.state.vehicle(ask.vehicle).label)
    run._resume(ask.then)


@hook("after_skid", "taunted")
def _taunted(run: _Run) -> Question | None:
    """A taunted vehicle adds the Skid Die it was handed to its roll; it may not be rerolled (p.111)."""
    v = active_vehicle(run)
    if v is None or not note(run.state, v.id, "taunted"):
        return None
    face = FACES[note(run.state, v.id, "taunted") - 1]
    set_note(run, v.id, "taunted", 0)
    run._roll = replace(run._roll, faces=(*run._roll.faces, face))
    tell(run, v, "taunt", f"the taunt adds a {face.value} to its Skid Dice")
    return None


@hook("after_skid", "satellite_navigation")
def _satnav_bank(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "satellite_navigation") or SkidFace.SHIFT not in run._roll.faces:
        return None
    if note(run.state, v.id, "satnav_banked:movement"):
        return None
    return Question(v.player, v.id, "satellite_navigation", f"{v.label}: set a rolled Shift aside for the team?",
                    ("no", "yes"), ("No", "Bank a Shift for later"))


@answers("satellite_navigation")
def _satnav_bank_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        faces = list(run._roll.faces)
        faces.remove(SkidFace.SHIFT)
        run._roll = replace(run._roll, faces=tuple(faces))
        v = run.state.vehicle(ask.vehicle)
        set_note(run, v.id, "satnav_banked:movement", 1)
        banked = add_note(run, f"team{v.player}", "satnav")
        tell(run, v, "satellite_navigation", f"banks a Shift ({banked} banked for the team)")
    run._resume(ask.then)


@hook("after_skid", "satellite_shifts")
def _satnav_use(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None:
        return None
    banked = note(run.state, f"team{v.player}", "satnav")
    if not banked or note(run.state, v.id, "satnav_banked:movement"):
        return None
    return Question(v.player, v.id, "satellite_shifts", f"{v.label}: spend banked Shifts ({banked}) this Movement "
                    "Step?", tuple(str(n) for n in range(banked + 1)),
                    ("No", *(f"Spend {n} banked Shift{'s' if n > 1 else ''}" for n in range(1, banked + 1))))


@answers("satellite_shifts")
def _satnav_use_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    n = int(choice)
    if n:
        v = run.state.vehicle(ask.vehicle)
        add_note(run, f"team{v.player}", "satnav", -n)
        run._roll = replace(run._roll, free_shifts=run._roll.free_shifts + n)
        tell(run, v, "satellite_navigation", f"spends {n} banked Shift{'s' if n > 1 else ''}")
    run._resume(ask.then)


# =========================================================================== the Attack Step: Eureka!, Rapid Fire


@hook("start_of_attacks", "eureka")
def _eureka(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "eureka") or note(run.state, v.id, "eureka"):
        return None
    weapons = load_weapons()
    fired = {m.weapon for m in v.weapons}
    fresh = [k for k in EUREKA_WEAPONS if k not in fired]
    choices = [f"{k}:{f}" for k in fresh for f in (("crew",) if weapons[k].crew_fired else ("front", "rear", "side"))]
    labels = [f"{weapons[c.split(':')[0]].name}" + ("" if c.endswith(":crew") else f", {c.split(':')[1]}")
              for c in choices]
    return Question(v.player, v.id, "eureka", f"{v.label}: Eureka! Conjure a weapon for its next attack (once a "
                    "game)?", ("no", *choices), ("No", *labels))


@answers("eureka")
def _eureka_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        key, facing = choice.split(":")
        v = run.state.vehicle(ask.vehicle)
        run._put(replace(v, weapons=(*v.weapons, Mount(key, facing, 1))))
        set_note(run, v.id, "eureka", 1)
        set_note(run, v.id, "eureka_mount:attacks", len(v.weapons) + 1)
        tell(run, v, "eureka", f"conjures a {load_weapons()[key].name} for one attack")
    run._resume(ask.then)


@hook("end_of_attacks", "rapid_fire", first=True)
def _rapid_fire(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "rapid_fire") or note(run.state, v.id, "rapid_fire:round"):
        return None
    weapons = load_weapons()
    fired = [i for i, m in enumerate(v.weapons) if note(run.state, v.id, f"fired_{i}:attacks") and m.ammo != 0
             and not weapons[m.weapon].dropped]
    if not fired:
        return None
    return Question(v.player, v.id, "rapid_fire", f"{v.label}: Rapid Fire: another Attack Step with one weapon "
                    "(once a round)?", ("no", *(str(i) for i in fired)),
                    ("No", *(f"Fire the {weapons[v.weapons[i].weapon].name} again" for i in fired)))


@answers("rapid_fire")
def _rapid_fire_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "no":
        run._resume(ask.then)
        return
    i = int(choice)
    v = run.state.vehicle(ask.vehicle)
    set_note(run, v.id, "rapid_fire:round", 1)
    set_note(run, v.id, "rapid:attacks", i + 1)
    tell(run, v, "rapid_fire", f"another Attack Step with its {load_weapons()[v.weapons[i].weapon].name}")
    p = run._attacks_prompt(v)
    run.prompt = replace(p, weapons=tuple(w for w in p.weapons if w.mount == i), drops=(), max_attacks=1)


def check_attacks(run: _Run, d: DeclareAttacks) -> None:
    """In a Rapid Fire Attack Step only the chosen weapon fires (p.109); raises ``IllegalChoice`` otherwise."""
    if not in_play(run):
        return
    mount = note(run.state, run._active, "rapid:attacks") - 1
    if mount >= 0:
        from simulator.errors import IllegalChoice

        set_note(run, run._active, "rapid:attacks", 0)
        if d.drops or any(a.mount != mount for a in d.attacks) or len(d.attacks) > 1:
            set_note(run, run._active, "rapid:attacks", mount + 1)
            raise IllegalChoice("a Rapid Fire Attack Step fires only the chosen weapon, once", "Rapid Fire, p.109")


def fired(run: _Run, v: VehicleState, mount: int) -> None:
    """Remember which weapons fired this Attack Step (Rapid Fire, p.109); a conjured Eureka! weapon leaves
    after its attack (p.114)."""
    if not in_play(run) or mount < 0:
        return
    set_note(run, v.id, f"fired_{mount}:attacks", 1)


@hook("end_of_attacks", "eureka_over")
def _eureka_over(run: _Run) -> Question | None:
    v = active_vehicle(run) or (run.state.vehicle(run._active) if run._active else None)
    if v is None:
        return None
    i = note(run.state, v.id, "eureka_mount:attacks") - 1
    if 0 <= i < len(v.weapons):
        run._put(replace(v, weapons=v.weapons[:i] + v.weapons[i + 1:]))
        set_note(run, v.id, "eureka_mount:attacks", 0)
    return None


# =========================================================================== Flips: Rocket Thrusters, Barrel Roll


def flip_question(run: _Run, v: VehicleState) -> Question | None:
    """Before a Flip's move: Rocket Thrusters may pick another template (p.114), Barrel Roll another edge (p.106)."""
    if not in_play(run) or note(run.state, v.id, "flip_chosen"):
        return None
    choices: list[str] = []
    labels: list[str] = []
    thrusters = has(run.state, v.id, "rocket_thrusters")
    roll = has(run.state, v.id, "barrel_roll")
    if not (thrusters or roll):
        return None
    for edge in ("front", *(("left", "right", "rear") if roll else ())):
        for t in ("medium_straight", *(FLIP_TEMPLATES if thrusters else ())):
            for side in ((None,) if t in STRAIGHTS else ("left", "right")):
                choices.append(f"{edge}:{t}:{side or ''}")
                words = t.replace("_", " ") + (f" {side}" if side else "")
                labels.append(f"{words} from its {edge}" if roll else words)
    perk = "rocket_thrusters" if thrusters else "barrel_roll"
    return Question(v.player, v.id, perk, f"{v.label} flips: which way?", tuple(choices), tuple(labels))


def _flip_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    edge, template, side = choice.split(":")
    set_note(run, ask.vehicle, "flip_chosen", 1)
    set_note(run, ask.vehicle, "flip_edge", ("front", "left", "right", "rear").index(edge) + 1)
    set_note(run, ask.vehicle, "flip_template", ("medium_straight", *FLIP_TEMPLATES).index(template) + 1)
    set_note(run, ask.vehicle, "flip_side", 1 if side == "left" else 2 if side == "right" else 0)
    run._resume(ask.then)


answers("rocket_thrusters")(_flip_answer)
answers("barrel_roll")(_flip_answer)


def flip_move(run: _Run, v: VehicleState) -> tuple[MoveReport, str]:
    """The Flip's move (p.35): a Medium Straight forward ignoring obstructions, or the template and edge chosen
    (Rocket Thrusters, Barrel Roll)."""
    if not in_play(run) or not note(run.state, v.id, "flip_chosen"):
        return run.referee.forced_move(run.state, v.id, "medium_straight", ignore_obstructions=True), "medium_straight"
    edge = ("front", "left", "right", "rear")[note(run.state, v.id, "flip_edge") - 1]
    template = ("medium_straight", *FLIP_TEMPLATES)[note(run.state, v.id, "flip_template") - 1]
    side_no = note(run.state, v.id, "flip_side")
    side: Side | None = "left" if side_no == 1 else "right" if side_no == 2 else None
    for fact in ("flip_chosen", "flip_edge", "flip_template", "flip_side"):
        set_note(run, v.id, fact, 0)
    perk = "barrel_roll" if edge != "front" else "rocket_thrusters"
    tell(run, v, perk, f"flips on a {template.replace('_', ' ')}{' ' + side if side else ''} from its {edge}")
    if edge == "front":
        return (run.referee.forced_move(run.state, v.id, template, ignore_obstructions=True, direction=side)
                if side else run.referee.forced_move(run.state, v.id, template, ignore_obstructions=True)), template
    turn = EDGE_TURN[edge]
    sideways = abs(turn) == 90.0
    turned = replace(v, pose=v.pose.turned(turn), length_mm=v.width_mm if sideways else v.length_mm,
                     width_mm=v.length_mm if sideways else v.width_mm)
    probe = run.state.with_vehicle(turned)
    report = (run.referee.forced_move(probe, v.id, template, ignore_obstructions=True, direction=side) if side
              else run.referee.forced_move(probe, v.id, template, ignore_obstructions=True))
    return replace(report, pose=report.pose.turned(-turn).normalised(), path=None), template


# =========================================================================== Rear Drive


def spin_report(run: _Run, v: VehicleState, report: MoveReport) -> MoveReport:
    """Rear Drive (p.115): the Spin pivots about the middle of the front edge, not the centre."""
    if not in_play(run) or not has(run.state, v.id, "rear_drive"):
        return report
    h0 = math.radians(v.pose.heading_deg)
    fx = v.pose.x_mm + v.length_mm / 2.0 * math.cos(h0)
    fy = v.pose.y_mm + v.length_mm / 2.0 * math.sin(h0)
    h1 = math.radians(report.pose.heading_deg)
    pose = Pose(fx - v.length_mm / 2.0 * math.cos(h1), fy - v.length_mm / 2.0 * math.sin(h1),
                report.pose.heading_deg)
    tell(run, v, "rear_drive", "spins about the middle of its front edge")
    return replace(report, pose=pose, path=None)


# =========================================================================== Evasive, Sympathy for the Devil


def before_evade(run: _Run, target: VehicleState, then: Resume) -> bool:
    """Ask the target's player before it Evades: Evasive (Hazard Tokens for +1 each, p.107) and Sympathy for the
    Devil (a friend's gear added, p.108); True if asked (play goes on at ``then``)."""
    if not in_play(run) or not target.in_play:
        return False
    q = _evasive(run, target) if not note(run.state, target.id, "evasive_done") else None
    if q is None and not note(run.state, target.id, "sympathy_done"):
        q = _sympathy(run, target)
    if q is None:
        return False
    put(run, q, then)
    return True


def evade_done(run: _Run, target: VehicleState) -> None:
    """The Evade roll is made: forget what was chosen for it."""
    if not in_play(run):
        return
    for fact in ("evasive_bonus", "evasive_done", "sympathy", "sympathy_done"):
        set_note(run, target.id, fact, 0)


def _evasive(run: _Run, v: VehicleState) -> Question | None:
    if not has(run.state, v.id, "evasive"):
        return None
    return Question(v.player, v.id, "evasive", f"{v.label} is about to Evade: take Hazard Tokens for +1 on each "
                    "Evade die apiece?", ("0", "1", "2", "3"), ("No", "+1 (1 token)", "+2 (2 tokens)",
                                                               "+3 (3 tokens)"))


@answers("evasive")
def _evasive_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    n = int(choice)
    set_note(run, ask.vehicle, "evasive_done", 1)
    if n:
        change(run, run.state.vehicle(ask.vehicle), "evasive", f"+{n} on each Evade die", hazards=n)
        set_note(run, ask.vehicle, "evasive_bonus", n)
    run._resume(ask.then)


def _sympathy(run: _Run, v: VehicleState) -> Question | None:
    if not has(run.state, v.id, "sympathy_for_the_devil"):
        return None
    near = within(run, v.id, "medium", friends(run.state, v))
    if not near:
        return None
    return Question(v.player, v.id, "sympathy_for_the_devil", f"{v.label}: borrow a friend's gear for its Evade "
                    "(the friend shares the damage)?", ("no", *(u.id for u in near)),
                    ("No", *(f"Borrow {u.label}'s Gear {u.gear}" for u in near)))


@answers("sympathy_for_the_devil")
def _sympathy_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    set_note(run, ask.vehicle, "sympathy_done", 1)
    if choice != "no":
        friend = run.state.vehicles.index(run.state.vehicle(choice)) + 1
        set_note(run, ask.vehicle, "sympathy", friend)
        tell(run, run.state.vehicle(ask.vehicle), "sympathy_for_the_devil",
             f"borrows {run.state.vehicle(choice).label}'s gear for its Evade")
    run._resume(ask.then)


def evade_bonus(run: _Run, v: VehicleState) -> int:
    """+N on each Evade die chosen with Evasive (p.107)."""
    return note(run.state, v.id, "evasive_bonus") if in_play(run) else 0


def evade_extra_dice(run: _Run, v: VehicleState) -> int:
    """Evade dice added by Sympathy for the Devil: the friend's gear (p.108)."""
    if not in_play(run):
        return 0
    k = note(run.state, v.id, "sympathy")
    return run.state.vehicles[k - 1].gear if k else 0


@observer
def _sympathy_shares(run: _Run, event: GameEvent) -> None:
    """Sympathy for the Devil (p.108): the friend suffers the damage that got through too."""
    if not isinstance(event, Attacked | CollisionDamage) or event.hull_delta >= 0:
        return
    k = note(run.state, event.vehicle, "sympathy")
    if not k:
        return
    friend = run.state.vehicles[k - 1]
    if friend.in_play:
        change(run, friend, "sympathy_for_the_devil", f"shares {-event.hull_delta} damage",
               hull=event.hull_delta, source=run.state.vehicle(event.vehicle).label)


# =========================================================================== Return Fire, Splashback


@observer
def _shot_at(run: _Run, event: GameEvent) -> None:
    """Remember a vehicle with Return Fire that was just shot at (p.109)."""
    if isinstance(event, Attacked) and has(run.state, event.vehicle, "return_fire"):
        t = run.state.vehicle(event.vehicle)
        if t.in_play and not note(run.state, t.id, "return_fire:phase") and t.player != \
                run.state.vehicle(event.attacker).player:
            set_note(run, t.id, "return_fire_at", run.state.vehicles.index(run.state.vehicle(event.attacker)) + 1)


def return_fire_question(run: _Run) -> Question | None:
    """Return Fire (p.109): once a Gear Phase, take 2 Hazard Tokens to shoot back at once."""
    if not in_play(run):
        return None
    for v in run.state.vehicles:
        k = note(run.state, v.id, "return_fire_at")
        if k:
            set_note(run, v.id, "return_fire_at", 0)
            attacker = run.state.vehicles[k - 1]
            if v.in_play and attacker.in_play:
                return Question(v.player, v.id, "return_fire", f"{v.label} is shot at: Return Fire on "
                                f"{attacker.label} for {RETURN_FIRE_HAZARDS} Hazard Tokens?", ("no", "yes"),
                                ("No", f"Shoot back at {attacker.label}"), (attacker.id,))
    return None


@answers("return_fire")
def _return_fire_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        v = run.state.vehicle(ask.vehicle)
        set_note(run, v.id, "return_fire:phase", 1)
        v = change(run, v, "return_fire", "shoots back", hazards=RETURN_FIRE_HAZARDS)
        volley(run, v, run.state.vehicle(ask.context[0]), "return_fire")
    run._resume(ask.then)


def volley(run: _Run, shooter: VehicleState, target: VehicleState, key: str) -> None:
    """``shooter`` attacks ``target`` with every weapon (and Handguns) in range and arc, up to its Crew (p.30-33),
    outside its own activation (Return Fire)."""
    attacks: list[Attack] = []
    for mount in [*range(len(shooter.weapons)), -1, -1, -1, -1]:
        if len(attacks) >= shooter.crew_now:
            break
        _, weapon = shooter.weapon(mount)
        if weapon.dropped or (weapon.attack_dice == 0 and weapon.dice_by_range is None):
            continue
        if mount >= 0 and shooter.weapons[mount].ammo == 0:
            continue
        if run.referee.shot(run.state, shooter.id, mount, target.id) is not None:
            attacks.append(Attack(mount, target.id))
    if not attacks:
        tell(run, shooter, key, f"has nothing in range and arc of {target.label}")
        return
    rolled: list[tuple[str, Weapon, tuple[int, ...]]] = []
    names = []
    cover = False
    for a in attacks:
        k, weapon = shooter.weapon(a.mount)
        shot = run.referee.shot(run.state, shooter.id, a.mount, target.id)
        cover = cover or bool(shot and shot.cover)
        rolled.append((k, weapon, run.dice.roll_d6(attack_dice(weapon, shot.range_band if shot else None))))
        names.append(weapon.name)
        if a.mount >= 0 and shooter.weapons[a.mount].ammo is not None:
            mounts = list(shooter.weapons)
            mounts[a.mount] = replace(mounts[a.mount], ammo=(mounts[a.mount].ammo or 0) - 1)
            shooter = replace(shooter, weapons=tuple(mounts))
    run._put(shooter)
    result = resolve_against(rolled, run.dice.roll_d6(evade_dice(target.gear)), cover=cover)
    t = run.state.vehicle(target.id)
    fx = result.effects
    hit = replace(t, damage=t.damage + fx.damage, hazards=t.hazards + fx.hazards, on_fire=t.on_fire or fx.on_fire)
    run._put(hit)
    run.log.append(Attacked(shooter.id, shooter.label, t.id, t.label, tuple(names), result.attack_rolls,
                            result.evade_rolls, result.total_hits, fx.damage, cover, hit.hull_points - t.hull_points,
                            hit.hazards - t.hazards, hit.on_fire and not t.on_fire))


@observer
def _splashback(run: _Run, event: GameEvent) -> None:
    """Splashback (p.106): losing Hull Points sprays a 1D6 attack at every vehicle within Medium range, once per
    step, at the end of the step (resolved at the next point of the activation)."""
    vid = getattr(event, "vehicle", "")
    if isinstance(vid, str) and vid and getattr(event, "hull_delta", 0) < 0 and has(run.state, vid, "splashback"):
        set_note(run, vid, "splashback_due", 1)


def splash_back(run: _Run) -> None:
    """Resolve the Splashbacks due (p.106)."""
    for v in run.state.vehicles:
        if not note(run.state, v.id, "splashback_due"):
            continue
        set_note(run, v.id, "splashback_due", 0)
        source = run.state.vehicle(v.id)
        for u in within(run, v.id, "medium", [w for w in run.state.vehicles if w.in_play and w.id != v.id]):
            (roll,) = run.dice.roll_d6(1)
            hits = 2 if roll == 6 else 1 if roll >= 4 else 0
            saved = sum(1 for r in run.dice.roll_d6(evade_dice(u.gear)) if r == 6) if hits else 0
            if hits - saved > 0:
                change(run, u, "splashback", f"sprayed by {source.label}: {hits - saved} damage",
                       hull=-(hits - saved), source=source.label)
            else:
                tell(run, u, "splashback", f"sprayed by {source.label}: no damage (rolled {roll})",
                     source=source.label)


def _splashback_now(run: _Run) -> Question | None:
    splash_back(run)
    return None


for _point in ("end_of_movement", "end_of_attacks", "end_of_activation"):
    hook(_point, "splashback")(_splashback_now)


# =========================================================================== Violent Manifestation


@observer
def _respawned(run: _Run, event: GameEvent) -> None:
    """Violent Manifestation (p.108): a respawned vehicle explodes at every vehicle within Medium range, with
    Blast and Fire (only a Respawn restores Hull to a wreck, p.90)."""
    if not isinstance(event, VoteEffectApplied) or event.hull_delta <= 0:
        return
    v = run.state.vehicle(event.vehicle)
    if not has(run.state, v.id, "violent_manifestation") or v.status is not Status.ACTIVE:
        return
    dice = EXPLOSION_DICE[v.weight]
    for u in within(run, v.id, "medium", [w for w in run.state.vehicles if w.in_play and w.id != v.id]):
        rolls = run.dice.roll_d6(dice)
        hits = sum(2 if r == 6 else 1 if r >= 4 else 0 for r in rolls)
        saved = sum(1 for r in run.dice.roll_d6(evade_dice(u.gear)) if r == 6)
        taken = max(0, hits - saved)
        hurt = change(run, u, "violent_manifestation", f"caught in {v.label}'s manifestation: {taken} damage, Blast",
                      hull=-taken, hazards=taken, source=v.label)
        if taken and not hurt.on_fire:
            record(run, hurt, replace(hurt, on_fire=True), "violent_manifestation", "set On Fire", v.label)


__all__ = ["before_evade", "check_attacks", "evade_bonus", "evade_done", "evade_extra_dice", "fired", "flip_move",
           "flip_question", "movement", "return_fire_question", "spin_report", "volley"]
