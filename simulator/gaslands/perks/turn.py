"""Perks, sponsor rules and upgrades that act at the named points of a vehicle's activation (p.83-115).

Each handler is registered on a hook of :mod:`simulator.gaslands.perks.core`
with the key of what it implements, in the order the points run; a handler that
offers a choice returns a :class:`~simulator.gaslands.perks.core.Question` and
its ``@answers`` function applies the answer and goes on.

Notes (``GameState.notes``) that last for a while end in ``:activation``,
``:movement``, ``:attacks``, ``:phase`` or ``:round`` and are forgotten when
that ends; ``:next`` notes last until the vehicle's next activation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.frozen import replace
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.perks.core import (
    PerkAsk,
    Question,
    active_vehicle,
    add_note,
    answers,
    change,
    clear_notes,
    enemies,
    friends,
    has,
    hook,
    note,
    set_note,
    team,
    tell,
    votes,
    with_perk,
    within,
)
from simulator.gaslands.perks.core import ask as put
from simulator.gaslands.perks.more import powerslide
from simulator.gaslands.permitted import STRAIGHTS
from simulator.gaslands.skid import SkidRoll
from simulator.gaslands.state import VehicleState
from simulator.gaslands.tables import load_perks, load_weapons

if TYPE_CHECKING:
    from simulator.gaslands.engine import _Run

UP_TO = 3
"""Purifying Flames and Ecstatic Visions move up to 3 points (p.108)."""

DONT_COME_KNOCKING = 4
"""Hazard Tokens Don't Come Knocking takes (p.112)."""

MADMAN_AT = 4
"""Madman passes a token on with this many or more (p.105)."""

SOURMASH_AT = 5
"""The Sourmash Jet Booster fires with this many Hazard Tokens or more (p.103)."""

CARNAGE_HITS = 6
"""Televised Carnage: hits in one Attack Step, before Evades, for a vote (p.91)."""

DYNAMO_PHASES = (4, 5, 6)
"""Gear Phases after which Dynamo tops up an Electrical weapon (p.93)."""


def _gear_word(n: int) -> str:
    return f"{n} Hazard Token{'s' if n != 1 else ''}"


# =========================================================================== after deployment (the game starts)


@hook("after_deployment", "game_start")
def _game_start(run: _Run) -> Question | None:
    """Once per game, before the first Gear Phase: Hot Start, Whizbang and Gyroscope (p.113-114)."""
    if note(run.state, "game", "started"):
        return None
    set_note(run, "game", "started", 1)
    for v in run.state.vehicles:
        for perk, klass in (("whizbang", "speed"), ("gyroscope", "daring")):
            if has(run.state, v.id, perk):
                _random_perk(run, v, perk, klass)
    for v in run.state.vehicles:
        if v.in_play and has(run.state, v.id, "hot_start"):
            _hot_start(run, v)
    return None


def _random_perk(run: _Run, v: VehicleState, key: str, klass: str) -> None:
    """Whizbang / Gyroscope (p.114): a D6 picks one of the class's six perks, for this game."""
    pool = [k for k, p in load_perks().items() if p.perk_class == klass]
    (roll,) = run.dice.roll_d6(1)
    chosen = pool[(roll - 1) % len(pool)]
    k = run.state.loadout(v.id)
    if chosen in k.perks:
        tell(run, v, key, f"rolled {roll}: {load_perks()[chosen].name}, which it already has")
        return
    run.state = run.state.with_loadout(replace(k, perks=(*k.perks, chosen)))
    from simulator.gaslands.teams import PERK_RULES

    if chosen in PERK_RULES:
        run._put(replace(run.state.vehicle(v.id), rules=v.rules | {PERK_RULES[chosen]}))
    tell(run, v, key, f"rolled {roll}: {load_perks()[chosen].name} for this game")


def _hot_start(run: _Run, v: VehicleState) -> None:
    """Hot Start (p.113): a D6 sets the starting gear, rerolled while above the max Gear."""
    for _ in range(100):
        (roll,) = run.dice.roll_d6(1)
        if roll <= v.max_gear:
            change(run, v, "hot_start", f"rolled {roll}: starts in Gear {roll}", gear=roll - v.gear)
            return


# =========================================================================== start of an activation


@hook("start_of_activation", "reset", first=True)
def _reset_activation(run: _Run) -> Question | None:
    """Forget what lasted for the last activation and what this vehicle kept until now."""
    clear_notes(run, ":activation")
    v = active_vehicle(run)
    if v is not None:
        for key in run.state.notes.keys_ending(":next"):
            if key.startswith(f"{v.id}:"):
                run.state = replace(run.state, notes=run.state.notes.set(key, 0))
        set_note(run, v.id, "hazards_at_start:activation", v.hazards + 1)
    return None


@hook("start_of_activation", "drive_angry")
def _drive_angry(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is not None and has(run.state, v.id, "drive_angry"):
        change(run, v, "drive_angry", "+1 Hazard Token as it activates", hazards=1)
    return None


@hook("start_of_activation", "dont_come_knocking")
def _dont_come_knocking(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "dont_come_knocking"):
        return None
    return Question(v.player, v.id, "dont_come_knocking",
                    f"{v.label}: take {DONT_COME_KNOCKING} Hazard Tokens so its tokens cannot change until it "
                    "next activates?", ("no", "yes"),
                    ("No", f"Take {DONT_COME_KNOCKING} Hazard Tokens and lock them"))


@answers("dont_come_knocking")
def _dont_come_knocking_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        v = run.state.vehicle(ask.vehicle)
        change(run, v, "dont_come_knocking", f"takes {DONT_COME_KNOCKING} Hazard Tokens; they stay until it next "
                                             "activates", hazards=DONT_COME_KNOCKING)
        set_note(run, v.id, "locked:next", 1)
    run._resume(ask.then)


@hook("start_of_activation", "purifying_flames")
def _purifying_flames(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "purifying_flames"):
        return None
    hurt = [f for f in friends(run.state, v) if f.damage > 0]
    if not hurt or v.hull_points <= 1:
        return None
    choices, labels = ["no"], ["No"]
    for f in hurt:
        for n in range(1, min(UP_TO, f.damage, v.hull_points - 1) + 1):
            choices.append(f"{f.id}:{n}")
            labels.append(f"Burn {n} to repair {n} on {f.label}")
    return Question(v.player, v.id, "purifying_flames", f"{v.label}: burn itself to repair a friend?",
                    tuple(choices), tuple(labels))


@answers("purifying_flames")
def _purifying_flames_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        target, n = choice.split(":")
        v = run.state.vehicle(ask.vehicle)
        f = run.state.vehicle(target)
        change(run, v, "purifying_flames", f"takes {n} Fire damage to repair {f.label}", hull=-int(n))
        change(run, f, "purifying_flames", f"{n} Hull Point{'s' if n != '1' else ''} repaired", hull=int(n),
               source=v.label)
    run._resume(ask.then)


@hook("start_of_activation", "ecstatic_visions")
def _ecstatic_visions(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "ecstatic_visions"):
        return None
    shaken = [f for f in friends(run.state, v) if f.hazards > 0]
    if not shaken:
        return None
    choices, labels = ["no"], ["No"]
    for f in shaken:
        for n in range(1, min(UP_TO, f.hazards) + 1):
            choices.append(f"{f.id}:{n}")
            labels.append(f"Take {_gear_word(n)} off {f.label}")
    return Question(v.player, v.id, "ecstatic_visions", f"{v.label}: take Hazard Tokens off a friend onto itself?",
                    tuple(choices), tuple(labels))


@answers("ecstatic_visions")
def _ecstatic_visions_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        target, n = choice.split(":")
        v = run.state.vehicle(ask.vehicle)
        f = run.state.vehicle(target)
        change(run, v, "ecstatic_visions", f"takes {_gear_word(int(n))} from {f.label}", hazards=int(n))
        change(run, f, "ecstatic_visions", f"{_gear_word(int(n))} taken away", hazards=-int(n), source=v.label)
    run._resume(ask.then)


# =========================================================================== start of the Movement Step


@hook("start_of_movement", "reset", first=True)
def _reset_movement(run: _Run) -> Question | None:
    clear_notes(run, ":movement")
    return None


@hook("start_of_movement", "nitro_booster")
def _nitro_booster(run: _Run) -> Question | None:
    """Nitro Booster (p.84): once per activation, at the start of a Movement Step, for an Ammo Token."""
    v = active_vehicle(run)
    if v is None or run._nitro or v.has("Jet Engine") or not has(run.state, v.id, "nitro_booster"):
        return None
    count = run.state.loadout(v.id).upgrade_count("nitro_booster")
    left = count - note(run.state, v.id, "nitro_used")
    if left <= 0 or note(run.state, v.id, "nitro:activation"):
        return None
    return Question(v.player, v.id, "nitro_booster",
                    f"{v.label}: fire the Nitro Booster ({left} left): a Long Straight forward, then Hazard Tokens "
                    "up to 5?", ("no", "yes"), ("No", "Fire the Nitro Booster"))


@answers("nitro_booster")
def _nitro_booster_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "yes":
        run._resume(ask.then)
        return
    add_note(run, ask.vehicle, "nitro_used")
    set_note(run, ask.vehicle, "nitro:activation", 1)
    # the engine's own Nitro Booster move (p.84): after its Collision Window the Movement Step starts again,
    # in which it may not reverse and is not offered the Nitro Booster twice
    run._nitro_boost(run.state.vehicle(ask.vehicle))


# =========================================================================== after the Skid Dice


@hook("after_skid", "moment_of_glory")
def _moment_of_glory(run: _Run) -> Question | None:
    v = active_vehicle(run)
    faces = run._roll.faces
    if v is None or not faces or not has(run.state, v.id, "moment_of_glory") or note(run.state, v.id, "glory"):
        return None
    if all(f is SkidFace.SHIFT for f in faces):
        return None
    options = [("no", "No (keep it for later)"), ("all_shift", "Every die a Shift")]
    if SkidFace.HAZARD in faces:
        options.append(("hazard_shift", "Hazards become Shifts"))
    if SkidFace.SLIDE in faces or SkidFace.SPIN in faces:
        options.append(("keep_slide_spin", "Hazards become Shifts, keep Slides and Spins"))
    return Question(v.player, v.id, "moment_of_glory", f"{v.label}: use its Moment of Glory on "
                    f"{', '.join(f.value for f in faces)}?", tuple(o for o, _ in options), tuple(w for _, w in options))


@answers("moment_of_glory")
def _moment_of_glory_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        v = run.state.vehicle(ask.vehicle)
        old = run._roll.faces
        if choice == "all_shift":
            faces = tuple(SkidFace.SHIFT for _ in old)
        else:
            faces = tuple(SkidFace.SHIFT if f is SkidFace.HAZARD else f for f in old)
        run._roll = replace(run._roll, faces=faces)
        set_note(run, v.id, "glory", 1)
        tell(run, v, "moment_of_glory", f"Skid Dice set to {', '.join(f.value for f in faces)} (once a game)")
    run._resume(ask.then)


@hook("after_skid", "easy_rider")
def _easy_rider(run: _Run) -> Question | None:
    v = active_vehicle(run)
    faces = run._roll.faces
    if v is None or not has(run.state, v.id, "easy_rider") or note(run.state, v.id, "easy_rider:round"):
        return None
    bad = [i for i, f in enumerate(faces) if f is not SkidFace.SHIFT]
    if not bad:
        return None
    return Question(v.player, v.id, "easy_rider", f"{v.label}: throw away one rolled Skid Die (once a round)?",
                    ("no", *(str(i) for i in bad)), ("No", *(f"Throw away die {i + 1} ({faces[i].value})"
                                                          for i in bad)))


@answers("easy_rider")
def _easy_rider_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        i = int(choice)
        faces = list(run._roll.faces)
        gone = faces.pop(i)
        run._roll = replace(run._roll, faces=tuple(faces))
        set_note(run, ask.vehicle, "easy_rider:round", 1)
        tell(run, run.state.vehicle(ask.vehicle), "easy_rider", f"throws away a {gone.value}")
    run._resume(ask.then)


@hook("after_skid", "momentum")
def _momentum(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "momentum"):
        return None
    aside = note(run.state, v.id, "momentum:movement")
    swingers = [i for i, f in enumerate(run._roll.faces) if f in (SkidFace.SLIDE, SkidFace.SPIN)
                and not aside & (1 << i)]
    if not swingers:
        return None
    return Question(v.player, v.id, "momentum", f"{v.label}: set a Slide or Spin aside (it still counts) to roll "
                    "another Skid Die?", ("no", *(str(i) for i in swingers)),
                    ("No", *(f"Set aside die {i + 1} ({run._roll.faces[i].value})" for i in swingers)))


@answers("momentum")
def _momentum_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "no":
        run._resume(ask.then)
        return
    i = int(choice)
    add_note(run, ask.vehicle, "momentum:movement", 1 << i)
    (face,) = run.dice.roll_skid(1)
    run._roll = replace(run._roll, faces=(*run._roll.faces, face))
    tell(run, run.state.vehicle(ask.vehicle), "momentum", f"sets a {run._roll.faces[i].value} aside and rolls a "
                                                          f"{face.value}")
    again = _momentum(run)  # it may do it again (p.115)
    if again is not None:
        put(run, again, ask.then)
        return
    run._resume(ask.then)


@hook("after_skid", "raise_the_sails")
def _raise_the_sails(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.crew <= 0 or not has(run.state, v.id, "raise_the_sails") or not run._roll.faces:
        return None
    return Question(v.player, v.id, "raise_the_sails", f"{v.label}: lose a Crew for good for a free Shift?",
                    ("no", "yes"), ("No", f"Lose 1 Crew (Crew {v.crew} -> {v.crew - 1}) for a Shift"))


@answers("raise_the_sails")
def _raise_the_sails_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        v = run.state.vehicle(ask.vehicle)
        run._put(replace(v, crew=max(0, v.crew - 1)))
        run._roll = replace(run._roll, free_shifts=run._roll.free_shifts + 1)
        tell(run, v, "raise_the_sails", f"Crew {v.crew} -> {v.crew - 1} for good: a free Shift")
    run._resume(ask.then)


hook("after_skid", "powerslide")(powerslide)  # last: after the perks that change the dice (p.107)


# =========================================================================== end of the Movement Step


@hook("end_of_movement", "pinball")
def _pinball(run: _Run) -> Question | None:
    """Pinball (p.95): a side-to-side Smash in its Movement Step earns another Movement Step."""
    v = active_vehicle(run)
    if v is None or not note(run.state, v.id, "pinball:movement"):
        return None
    set_note(run, v.id, "pinball:movement", 0)
    return Question(v.player, v.id, "pinball", f"{v.label} bounced off a side: take another Movement Step?",
                    ("no", "yes"), ("No", "Another Movement Step"))


@answers("pinball")
def _pinball_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        from simulator.gaslands.engine import Go, Point

        tell(run, run.state.vehicle(ask.vehicle), "pinball", "another Movement Step")
        run._resume(Go(Point.START_MOVEMENT))
        return
    run._resume(ask.then)


@hook("end_of_movement", "terrifying_lunatic")
def _terrifying_lunatic(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None:
        return None
    lunatics = [u for u in with_perk(run.state, v.id, "terrifying_lunatic") if u.player != v.player]
    for u in within(run, v.id, "short", lunatics):
        v = change(run, v, "terrifying_lunatic", f"ends its move within Short range of {u.label}: +1 Hazard Token",
                   hazards=1, source=u.label)
    return None


@hook("end_of_movement", "on_your_tail")
def _on_your_tail(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not (note(run.state, v.id, "spins:activation") or note(run.state, v.id, "slides:activation")):
        return None
    tails = [u for u in with_perk(run.state, v.id, "on_your_tail") if u.player != v.player]
    for u in within(run, v.id, "short", tails):
        v = change(run, v, "on_your_tail", f"Spins or Slides within Short range of {u.label}: +1 Hazard Token",
                   hazards=1, source=u.label)
    return None


@hook("end_of_movement", "meshuggah")
def _meshuggah(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "meshuggah") or run._move_hit:
        return None
    if not (note(run.state, v.id, "spins:activation") or note(run.state, v.id, "slides:activation")):
        return None
    if within(run, v.id, "medium", friends(run.state, v)):
        votes(run, v.player, 1, "meshuggah", f"{v.label} Slides or Spins close to a friend")
    return None


@hook("end_of_movement", "time_extended")
def _time_extended(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.hazards == 0 or not has(run.state, v.id, "time_extended"):
        return None
    if note(run.state, v.id, "gates:movement"):
        change(run, v, "time_extended", "passes a gate: clears its Hazard Tokens", hazards=-v.hazards)
    return None


@hook("end_of_movement", "madman")
def _madman(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.hazards < MADMAN_AT or not has(run.state, v.id, "madman"):
        return None
    near = within(run, v.id, "medium", [u for u in run.state.vehicles if u.in_play and u.id != v.id])
    if not near:
        return None
    return Question(v.player, v.id, "madman", f"{v.label} has {v.hazards} Hazard Tokens: pass one to a vehicle "
                    "within Medium range?", ("no", *(u.id for u in near)),
                    ("No", *(f"Pass one to {u.label}" for u in near)))


@answers("madman")
def _madman_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        _pass_token(run, ask.vehicle, choice, "madman")
    run._resume(ask.then)


def _pass_token(run: _Run, giver: str, taker: str, key: str) -> None:
    v, u = run.state.vehicle(giver), run.state.vehicle(taker)
    change(run, v, key, f"passes a Hazard Token to {u.label}", hazards=-1)
    change(run, u, key, "+1 Hazard Token", hazards=1, source=v.label)


@hook("end_of_movement", "sourmash_jet_booster")
def _sourmash(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.hazards < SOURMASH_AT or not has(run.state, v.id, "sourmash_jet_booster"):
        return None
    if note(run.state, v.id, "sourmash:movement"):
        return None
    set_note(run, v.id, "sourmash:movement", 1)
    return Question(v.player, v.id, "sourmash_jet_booster",
                    f"{v.label} has {v.hazards} Hazard Tokens: the Sourmash Jet Booster fires a Long Straight",
                    ("go",), ("Go (compulsory)",))


@answers("sourmash_jet_booster")
def _sourmash_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    v = run.state.vehicle(ask.vehicle)
    tell(run, v, "sourmash_jet_booster", "fires: a forced Long Straight forward")
    report = run.referee.forced_move(run.state, v.id, "long_straight", ignore_obstructions=False)
    run._apply_report(v.id, report, how="Sourmash Jet Booster", ref="Sourmash Jet Booster, p.103",
                      template="long_straight", surfaces=False)
    run._window(v.id, report, ask.then)


# =========================================================================== start of the Attack Step


@hook("start_of_attacks", "reset", first=True)
def _reset_attacks(run: _Run) -> Question | None:
    clear_notes(run, ":attacks")
    return None


@hook("start_of_attacks", "out_run")
def _out_run(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "out_run"):
        return None
    slower = [u for u in run.state.vehicles if u.in_play and u.id != v.id and u.gear < v.gear]
    for u in within(run, v.id, "short", slower):
        change(run, u, "out_run", f"slower than {v.label} within Short range: +1 Hazard Token", hazards=1,
               source=v.label)
    return None


@hook("start_of_attacks", "siphon_pump")
def _siphon_pump(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "siphon_pump"):
        return None
    for u in within(run, v.id, "short", [u for u in run.state.vehicles if u.in_play and u.hazards > 0]):
        change(run, u, "siphon_pump", f"a Hazard Token siphoned off by {v.label}", hazards=-1, source=v.label)
        v = change(run, v, "siphon_pump", f"takes a Hazard Token from {u.label}", hazards=1)
    return None


@hook("start_of_attacks", "dead_weight")
def _dead_weight(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "dead_weight") or int(v.weight) >= 3:
        return None
    return Question(v.player, v.id, "dead_weight", f"{v.label}: take 2 Hazard Tokens to count a weight class "
                    "heavier until it next activates?", ("no", "yes"), ("No", "Take 2 Hazard Tokens"))


@answers("dead_weight")
def _dead_weight_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        v = run.state.vehicle(ask.vehicle)
        change(run, v, "dead_weight", "+2 Hazard Tokens: a weight class heavier until it next activates", hazards=2)
        set_note(run, v.id, "heavier:next", 1)
    run._resume(ask.then)


@hook("start_of_attacks", "tombstone")
def _tombstone(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "tombstone"):
        return None
    return Question(v.player, v.id, "tombstone", f"{v.label}: take 2 Hazard Tokens to make all its Collisions "
                    "Head-On until it next activates?", ("no", "yes"), ("No", "Take 2 Hazard Tokens"))


@answers("tombstone")
def _tombstone_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        v = run.state.vehicle(ask.vehicle)
        change(run, v, "tombstone", "+2 Hazard Tokens: its Collisions are Head-On until it next activates",
               hazards=2)
        set_note(run, v.id, "head_on:next", 1)
    run._resume(ask.then)


@hook("start_of_attacks", "loader")
def _loader(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.crew_now <= 0 or not has(run.state, v.id, "loader") or not v.weapons:
        return None
    weapons = load_weapons()
    mounts = [i for i, m in enumerate(v.weapons) if not weapons[m.weapon].dropped]
    if not mounts:
        return None
    return Question(v.player, v.id, "loader", f"{v.label}: give up a Crew this Attack Step for +1 to hit with one "
                    "weapon?", ("no", *(str(i) for i in mounts)),
                    ("No", *(f"+1 to hit with {weapons[v.weapons[i].weapon].name}" for i in mounts)))


@answers("loader")
def _loader_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        v = run.state.vehicle(ask.vehicle)
        run._put(replace(v, crew_penalty=v.crew_penalty + 1))
        set_note(run, v.id, "loader:attacks", int(choice) + 1)
        tell(run, v, "loader", f"one Crew loads: +1 to hit with {load_weapons()[v.weapons[int(choice)].weapon].name}")
    run._resume(ask.then)


@hook("start_of_attacks", "angel_of_death")
def _angel_of_death(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.hull_points <= 1 or not has(run.state, v.id, "angel_of_death") or not v.weapons:
        return None
    most = min(UP_TO, v.hull_points - 1)
    return Question(v.player, v.id, "angel_of_death", f"{v.label}: take damage for as many extra attack dice on its "
                    "first attack this step?", ("0", *(str(n) for n in range(1, most + 1))),
                    ("No", *(f"{n} damage for +{n} dice" for n in range(1, most + 1))))


@answers("angel_of_death")
def _angel_of_death_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    n = int(choice)
    if n:
        v = run.state.vehicle(ask.vehicle)
        change(run, v, "angel_of_death", f"takes {n} damage for +{n} attack dice", hull=-n)
        set_note(run, v.id, "angel:attacks", n)
    run._resume(ask.then)


@hook("start_of_attacks", "mobile_mechanic")
def _mobile_mechanic(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.damage <= 0 or v.crew_now <= 0 or not has(run.state, v.id, "mobile_mechanic"):
        return None
    return Question(v.player, v.id, "mobile_mechanic", f"{v.label}: give up a Crew this Attack Step to repair a "
                    "Hull Point?", ("no", "yes"), ("No", "Repair 1 Hull Point"))


@answers("mobile_mechanic")
def _mobile_mechanic_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        v = run.state.vehicle(ask.vehicle)
        v = change(run, v, "mobile_mechanic", "a field repair: +1 Hull Point, one Crew busy", hull=1)
        run._put(replace(v, crew_penalty=v.crew_penalty + 1))
        set_note(run, v.id, "mechanic:attacks", 1)
    run._resume(ask.then)


# =========================================================================== end of the Attack Step


@hook("end_of_attacks", "crew_back")
def _crew_back(run: _Run) -> Question | None:
    """The Crew that loaded or repaired is back (Loader, Mobile Mechanic: until the end of the Attack Step)."""
    v = active_vehicle(run)
    if v is None:
        return None
    busy = (1 if note(run.state, v.id, "loader:attacks") else 0) + note(run.state, v.id, "mechanic:attacks")
    if busy:
        run._put(replace(v, crew_penalty=max(0, v.crew_penalty - busy)))
    return None


@hook("end_of_attacks", "road_warrior")
def _road_warrior(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.hazards == 0 or not has(run.state, v.id, "road_warrior"):
        return None
    if note(run.state, v.id, "hit_enemy:activation") and not note(run.state, v.id, "road_warrior:activation"):
        set_note(run, v.id, "road_warrior:activation", 1)
        change(run, v, "road_warrior", "hit an enemy this activation: sheds a Hazard Token", hazards=-1)
    return None


@hook("end_of_attacks", "televised_carnage")
def _televised_carnage(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is not None and has(run.state, v.id, "televised_carnage"):
        hits = note(run.state, v.id, "hits:attacks")
        if hits >= CARNAGE_HITS:
            votes(run, v.player, 1, "televised_carnage", f"{v.label} scores {hits} hits in one Attack Step")
    return None


@hook("end_of_attacks", "party_hard")
def _party_hard(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "party_hard"):
        return None
    near = within(run, v.id, "medium", enemies(run.state, v))
    if near and v.hazards > sum(u.hazards for u in near):
        partying = sum(1 for u in near if u.hazards > 0)
        votes(run, v.player, partying, "party_hard", f"{v.label} out-parties the enemies within Medium range")
    return None


@hook("end_of_attacks", "cover_me")
def _cover_me(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.hazards == 0 or not has(run.state, v.id, "cover_me") or note(run.state, v.id,
                                                                                  "cover_me:activation"):
        return None
    near = within(run, v.id, "double", friends(run.state, v))
    if not near:
        return None
    return Question(v.player, v.id, "cover_me", f"{v.label}: pass a Hazard Token to a friend within Double range?",
                    ("no", *(u.id for u in near)), ("No", *(f"Pass one to {u.label}" for u in near)))


@answers("cover_me")
def _cover_me_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        set_note(run, ask.vehicle, "cover_me:activation", 1)
        _pass_token(run, ask.vehicle, choice, "cover_me")
    run._resume(ask.then)


@hook("end_of_attacks", "live_fast")
def _live_fast(run: _Run) -> Question | None:
    """Live Fast (p.95) is checked as the Wipeout Step begins; the Wipeout Step starts here (Hog Wild, p.112)."""
    set_note(run, "game", "wipeout_step:activation", 1)
    v = active_vehicle(run)
    if v is not None and has(run.state, v.id, "live_fast") and v.hazards > v.hull_points:
        votes(run, v.player, 1, "live_fast", f"{v.label} starts the Wipeout Step with more Hazard Tokens than Hull")
    return None


# =========================================================================== end of the activation


@hook("end_of_activation", "showing_off")
def _showing_off(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "showing_off"):
        return None
    spun, slid = note(run.state, v.id, "spins:activation"), note(run.state, v.id, "slides:activation")
    shifted, wiped = note(run.state, v.id, "gear_changes:activation"), note(run.state, v.id, "wiped:activation")
    if spun and slid and shifted and not wiped and not note(run.state, v.id, "showing_off:phase"):
        set_note(run, v.id, "showing_off:phase", 1)
        tell(run, v, "showing_off", "Spun, Slid and changed gear without a Wipeout: a Showing Off token")
    mine = team(run.state, v.player)
    if mine and all(note(run.state, u.id, "showing_off:phase") for u in mine):
        for u in mine:
            set_note(run, u.id, "showing_off:phase", 0)
        votes(run, v.player, len(mine), "showing_off", "every vehicle of the team is Showing Off")
    return None


@hook("end_of_activation", "dynamo")
def _dynamo(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "dynamo") or run.state.round.gear_phase not in DYNAMO_PHASES:
        return None
    weapons = load_weapons()
    electric = [i for i, m in enumerate(v.weapons) if weapons[m.weapon].electrical and m.ammo is not None]
    if not electric:
        return None
    if len(electric) == 1:
        _top_up(run, v, electric[0])
        return None
    return Question(v.player, v.id, "dynamo", f"{v.label}: which Electrical weapon gains an Ammo Token?",
                    tuple(str(i) for i in electric), tuple(weapons[v.weapons[i].weapon].name for i in electric))


@answers("dynamo")
def _dynamo_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    _top_up(run, run.state.vehicle(ask.vehicle), int(choice))
    run._resume(ask.then)


def _top_up(run: _Run, v: VehicleState, mount: int) -> None:
    mounts = list(v.weapons)
    mounts[mount] = replace(mounts[mount], ammo=(mounts[mount].ammo or 0) + 1)
    run._put(replace(v, weapons=tuple(mounts)))
    tell(run, v, "dynamo", f"+1 Ammo Token for its {load_weapons()[mounts[mount].weapon].name}")


@hook("end_of_activation", "wipeout_step_over")
def _wipeout_step_over(run: _Run) -> Question | None:
    set_note(run, "game", "wipeout_step:activation", 0)
    return None


# =========================================================================== end of a Gear Phase (no questions)


def end_of_gear_phase(run: _Run, new_round: bool) -> None:
    """Cult of Flame's votes (p.100), then forget what lasted for the Gear Phase (Showing Off tokens, p.92) and,
    when a new round starts, for the round (Easy Rider, Rapid Fire)."""
    for player in range(len(run.state.players)):
        burning = [v for v in team(run.state, player) if v.on_fire and has(run.state, v.id, "cult_of_flame")]
        if not burning:
            continue
        foes = [v for v in run.state.vehicles if v.in_play and v.player != player]
        on_fire = sum(1 for v in foes if v.on_fire)
        mine = sum(1 for v in team(run.state, player) if v.on_fire)
        if foes and (on_fire > mine or on_fire == len(foes)):
            votes(run, player, len(burning), "cult_of_flame", "more enemies than friends are burning")
    clear_notes(run, ":phase")
    if new_round:
        clear_notes(run, ":round")


def selected_straight(run: _Run) -> bool:
    """Whether the active vehicle selected a Straight this Movement Step."""
    return run._template is not None and run._template.template in STRAIGHTS


def unused(roll: SkidRoll) -> SkidRoll:
    """A roll that may be pushed again (Chrome-Whisperer, p.107)."""
    return replace(roll, pushed=False)


__all__ = ["end_of_gear_phase", "selected_straight", "unused"]
