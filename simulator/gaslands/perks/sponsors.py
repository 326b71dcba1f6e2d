"""Sponsor rules that need more than a perk's hook (p.91-103): the Highway Patrol's bogey, Scarlett's raiders,
Verney's Tombstone and That's Entertainment, Beverly's Ghost Riders; and the Experimental Nuclear Engine (p.84).

The bogey (Hot Pursuit, p.98) is a note of the Highway Patrol's team; it is
nominated after deployment and again when it is Wrecked or disqualified. A
Ghost Rider (p.101) is a vehicle with the special rule "Ghost Rider": it is
left off the table when others move and moves as if alone, neither shoots nor
is shot, takes part in no Collision and cannot win.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from simulator.frozen import replace
from simulator.gaslands.audience import GHOST_RIDER, RespawnRights
from simulator.gaslands.events import (
    DropAttacked,
    GameEvent,
    Moved,
    SoulTokens,
    WeaponDropped,
    WipedOut,
    Wrecked,
)
from simulator.gaslands.perks.core import (
    PerkAsk,
    Question,
    active_vehicle,
    answers,
    change,
    enemies,
    has,
    hook,
    in_play,
    note,
    observer,
    set_note,
    team,
    tell,
    votes,
    within,
)
from simulator.gaslands.perks.core import ask as put
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.geometry.pose import TOUCH_MM, footprint

if TYPE_CHECKING:
    from simulator.gaslands.engine import _Run

GHOST = GHOST_RIDER
"""The special rule of Beverly's ghosts (p.101)."""

ARC_HALF_DEG = 45.0
"""Half the width of a front or rear Arc of Fire, about the vehicle's centre line (p.29)."""

STEEL_JUSTICE = {"wipeout": 2, "wreck": 4}
"""Steel Justice: Audience Votes for the bogey's Wipeout and Wreck (p.98)."""

PRESS_GANG_VOTES = 2
"""Press Gang or Keelhaul: Audience Votes instead of a Crew (p.97)."""


def touching(state: GameState, v: VehicleState, among: list[VehicleState] | tuple[VehicleState, ...]
             ) -> tuple[VehicleState, ...]:
    """Those of ``among`` in base contact with ``v`` (0.01 mm, GEOMETRY.md)."""
    mine = footprint(v.pose, v.length_mm, v.width_mm)
    return tuple(u for u in among if u.id != v.id and
                 mine.distance(footprint(u.pose, u.length_mm, u.width_mm)) <= TOUCH_MM)


def in_arc(v: VehicleState, other: VehicleState, arc: str) -> bool:
    """Whether ``other``'s centre is in ``v``'s front or rear Arc of Fire (90 degrees about its centre line)."""
    bearing = math.degrees(math.atan2(other.pose.y_mm - v.pose.y_mm, other.pose.x_mm - v.pose.x_mm))
    facing = v.pose.heading_deg + (180.0 if arc == "rear" else 0.0)
    return abs((bearing - facing + 180.0) % 360.0 - 180.0) <= ARC_HALF_DEG


# =========================================================================== Highway Patrol: the bogey (p.98)


def bogey(state: GameState, player: int) -> VehicleState | None:
    """The Highway Patrol player's bogey, if it is still in play."""
    k = note(state, f"team{player}", "bogey")
    if not k:
        return None
    b = state.vehicles[k - 1]
    return b if b.in_play else None


def _patrols(state: GameState) -> list[int]:
    return sorted({v.player for v in state.vehicles if has(state, v.id, "hot_pursuit")})


def _nominate(run: _Run) -> Question | None:
    for player in _patrols(run.state):
        if bogey(run.state, player) is not None:
            continue
        mine = team(run.state, player)
        foes = [v for v in run.state.vehicles if v.in_play and v.player != player]
        if not mine or not foes:
            continue
        return Question(player, mine[0].id, "hot_pursuit", f"{run.state.players[player]}: nominate the bogey",
                        tuple(v.id for v in foes), tuple(f"{v.label} is the bogey" for v in foes))
    return None


hook("after_deployment", "hot_pursuit")(_nominate)
hook("end_of_activation", "hot_pursuit")(_nominate)


@answers("hot_pursuit")
def _nominate_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    b = run.state.vehicle(choice)
    player = run.state.vehicle(ask.vehicle).player
    set_note(run, f"team{player}", "bogey", run.state.vehicles.index(b) + 1)
    tell(run, b, "hot_pursuit", f"is {run.state.players[player]}'s bogey")
    again = _nominate(run)  # another Highway Patrol team still to nominate
    if again is not None:
        put(run, again, ask.then)
        return
    run._resume(ask.then)


@hook("end_of_movement", "bogey_at_12")
def _bogey_at_12(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "bogey_at_12") or note(run.state, v.id, "bogey_at_12:activation"):
        return None
    b = bogey(run.state, v.player)
    if b is None or not in_arc(v, b, "front") or within(run, v.id, "double", [b]):
        return None
    set_note(run, v.id, "bogey_at_12:activation", 1)
    return Question(v.player, v.id, "bogey_at_12", f"The bogey {b.label} is far ahead of {v.label}: another "
                    "Movement Step?", ("no", "yes"), ("No", "Another Movement Step"))


@answers("bogey_at_12")
def _bogey_at_12_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice == "yes":
        from simulator.gaslands.engine import Go, Point

        tell(run, run.state.vehicle(ask.vehicle), "bogey_at_12", "chases the bogey: another Movement Step")
        run._resume(Go(Point.START_MOVEMENT))
        return
    run._resume(ask.then)


@hook("end_of_attacks", "siren")
def _siren(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, "siren") or note(run.state, v.id, "siren:activation"):
        return None
    louder = has(run.state, v.id, "louder_siren")
    b = bogey(run.state, v.player)
    heard = [u for u in enemies(run.state, v) if (louder or u is b) and in_arc(u, v, "rear")]
    if not heard:
        return None
    set_note(run, v.id, "siren:activation", 1)
    u = heard[0]
    return Question(u.player, u.id, "siren", f"{v.label}'s siren behind {u.label}: change down or take 2 Hazard "
                    "Tokens?", ("gear_down", "hazards") if u.gear > 1 else ("hazards",),
                    ("Change down a gear", "Take 2 Hazard Tokens") if u.gear > 1 else ("Take 2 Hazard Tokens",),
                    (v.label,))


@answers("siren")
def _siren_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    u = run.state.vehicle(ask.vehicle)
    if choice == "gear_down":
        change(run, u, "siren", "pulls over: down a gear", gear=-1, source=ask.context[0])
    else:
        change(run, u, "siren", "ignores the siren: +2 Hazard Tokens", hazards=2, source=ask.context[0])
    run._resume(ask.then)


@observer
def _steel_justice(run: _Run, event: GameEvent) -> None:
    if not isinstance(event, WipedOut | Wrecked):
        return
    for player in _patrols(run.state):
        k = note(run.state, f"team{player}", "bogey")
        if k and run.state.vehicles[k - 1].id == event.vehicle:
            what = "wreck" if isinstance(event, Wrecked) else "wipeout"
            holders = [v for v in run.state.vehicles if v.player == player and has(run.state, v.id, "steel_justice")]
            if holders:
                votes(run, player, STEEL_JUSTICE[what], "steel_justice", f"the bogey {event.name} "
                      f"{'is Wrecked' if what == 'wreck' else 'wipes out'}")


# =========================================================================== Scarlett: Raiders, Press Gang (p.97)


@hook("end_of_attacks", "raiders")
def _raiders(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or v.crew <= 0 or not has(run.state, v.id, "raiders"):
        return None
    boarded = touching(run.state, v, [u for u in run.state.vehicles if u.in_play])
    if not boarded:
        return None
    choices = ["no"]
    labels = ["No"]
    for u in boarded:
        for n in range(1, v.crew + 1):
            choices.append(f"{u.id}:{n}")
            labels.append(f"{n} Crew board {u.label}: {n} Hull Point{'s' if n > 1 else ''} off it")
    return Question(v.player, v.id, "raiders", f"{v.label}: send Crew over (lost for good) to hurt a vehicle in "
                    "contact?", tuple(choices), tuple(labels))


@answers("raiders")
def _raiders_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "no":
        target, n = choice.split(":")
        v = run.state.vehicle(ask.vehicle)
        run._put(replace(v, crew=max(0, v.crew - int(n))))
        tell(run, v, "raiders", f"{n} Crew board and are lost (Crew {v.crew} -> {max(0, v.crew - int(n))})")
        change(run, run.state.vehicle(target), "raiders", f"boarded: {n} Hull Point{'s' if n != '1' else ''} off",
               hull=-int(n), source=v.label)
    run._resume(ask.then)


@observer
def _press_gang_due(run: _Run, event: GameEvent) -> None:
    """A vehicle Wrecked in contact with a press gang: where it was when it began to skid to a halt (p.43)."""
    if not (isinstance(event, Moved) and event.ref.startswith("Skid to a Halt")):
        return
    wreck = replace(run.state.vehicle(event.vehicle), pose=event.start)
    gangs = [u for u in run.state.vehicles if u.in_play and has(run.state, u.id, "press_gang_or_keelhaul")]
    for u in touching(run.state, wreck, gangs):
        set_note(run, u.id, "press_gang", note(run.state, u.id, "press_gang") + 1)


@hook("end_of_activation", "press_gang_or_keelhaul")
def _press_gang(run: _Run) -> Question | None:
    for u in run.state.vehicles:
        if note(run.state, u.id, "press_gang") and u.in_play:
            set_note(run, u.id, "press_gang", note(run.state, u.id, "press_gang") - 1)
            return Question(u.player, u.id, "press_gang_or_keelhaul", f"A wreck by {u.label}: press a new Crew or "
                            f"keelhaul for {PRESS_GANG_VOTES} Audience Votes?", ("crew", "votes"),
                            ("Gain 1 Crew", f"Gain {PRESS_GANG_VOTES} Audience Votes"))
    return None


@answers("press_gang_or_keelhaul")
def _press_gang_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    u = run.state.vehicle(ask.vehicle)
    if choice == "crew":
        run._put(replace(u, crew=u.crew + 1))
        tell(run, u, "press_gang_or_keelhaul", f"presses a new Crew (Crew {u.crew + 1})")
    else:
        votes(run, u.player, PRESS_GANG_VOTES, "press_gang_or_keelhaul", f"{u.label} keelhauls the wreck")
    run._resume(ask.then)


# =========================================================================== Verney: That's Entertainment (p.99)


@observer
def _entertainment(run: _Run, event: GameEvent) -> None:
    if isinstance(event, WeaponDropped):
        owner = run.state.vehicle(event.vehicle)
        set_note(run, "game", f"drop_owner_{event.template_id}", owner.player + 1)
        if has(run.state, owner.id, "thats_entertainment"):
            set_note(run, "game", f"drop_show_{event.template_id}", 1)
    elif isinstance(event, DropAttacked) and note(run.state, "game", f"drop_show_{event.template_id}"):
        player = note(run.state, "game", f"drop_owner_{event.template_id}") - 1
        if not any(t.id == event.template_id for t in run.state.dropped):
            set_note(run, "game", f"drop_show_{event.template_id}", 0)
            votes(run, player, 1, "thats_entertainment", f"the {event.weapon} leaves play")


def tombstone_evade(run: _Run, target: VehicleState, attacker: VehicleState) -> int:
    """Tombstone (p.99): +1 on its Evade dice against a shot from behind (its rear arc: where a template touching
    its rear edge comes from)."""
    if in_play(run) and has(run.state, target.id, "tombstone") and in_arc(target, attacker, "rear"):
        return 1
    return 0


# =========================================================================== Beverly: Ghost Riders (p.100-101)


@hook("after_deployment", "graveyard_shift")
def _graveyard_shift(run: _Run) -> Question | None:
    for player in sorted({v.player for v in run.state.vehicles if has(run.state, v.id, "graveyard_shift")}):
        if note(run.state, f"team{player}", "graveyard"):
            continue
        set_note(run, f"team{player}", "graveyard", 1)
        mine = team(run.state, player)
        if len(mine) < 2:
            continue
        return Question(player, mine[0].id, "graveyard_shift", f"{run.state.players[player]}: which vehicle stays "
                        "among the living? (the others become Ghost Riders)", tuple(v.id for v in mine),
                        tuple(f"{v.label} stays alive" for v in mine))
    return None


@answers("graveyard_shift")
def _graveyard_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    player = run.state.vehicle(ask.vehicle).player
    for v in team(run.state, player):
        if v.id != choice:
            run._put(replace(v, rules=v.rules | {GHOST}))
            tell(run, v, "ghost_rider", "is a Ghost Rider: it ignores and is ignored by every other vehicle")
    run._resume(ask.then)


def ghost(v: VehicleState) -> bool:
    """Whether ``v`` is a Ghost Rider (p.101)."""
    return v.has(GHOST)


def without_ghosts(state: GameState, mover: str) -> GameState:
    """The state a move is resolved in: a Ghost Rider moves as if alone; others pass through Ghost Riders."""
    me = state.vehicle(mover)
    if not any(ghost(v) for v in state.vehicles if v.in_play):
        return state
    keep = (lambda v: v.id == mover) if ghost(me) else (lambda v: not ghost(v))
    return replace(state, vehicles=tuple(v if keep(v) or not v.in_play else replace(v, status=Status.REMOVED)
                                         for v in state.vehicles))


def may_shoot(state: GameState, attacker: str, target: str) -> bool:
    """Ghost Riders neither shoot nor are shot (p.101)."""
    return not (ghost(state.vehicle(attacker)) or ghost(state.vehicle(target)))


def may_collide(state: GameState, a: str, b: str) -> bool:
    """Ghost Riders take part in no Collision (p.101)."""
    try:
        return not (ghost(state.vehicle(a)) or ghost(state.vehicle(b)))
    except KeyError:
        return not ghost(state.vehicle(a))


def may_win(state: GameState, vehicle_id: str) -> bool:
    """A Ghost Rider never counts towards victory (p.101)."""
    return not ghost(state.vehicle(vehicle_id))


def soul_tokens(state: GameState, vehicle_id: str) -> int:
    """The Soul Tokens ``vehicle_id`` carries (Soul Harvest, p.101)."""
    return note(state, vehicle_id, "soul")


def dashboard_notes(state: GameState, vehicle_id: str) -> tuple[str, ...]:
    """What a vehicle's dashboard shows of Beverly's rules (p.101): GHOST RIDER, its Soul Tokens."""
    v = state.vehicle(vehicle_id)
    souls = soul_tokens(state, vehicle_id) if state.loadouts else 0
    return (*(("GHOST RIDER",) if ghost(v) else ()),
            *((f"{souls} Soul Token{'s' if souls != 1 else ''}",) if souls else ()))


def respawn_rights(state: GameState, player: int) -> RespawnRights:
    """What ``player``'s Sponsored Perks change about Respawn: At the Crossroads and Inexorable (p.101)."""
    mine = [v.id for v in state.vehicles if v.player == player]
    return RespawnRights(any(has(state, vid, "at_the_crossroads") for vid in mine),
                         any(has(state, vid, "inexorable") for vid in mine))


@observer
def _soul_anchor(run: _Run, event: GameEvent) -> None:
    """Soul Anchor (p.101): when only Ghost Riders of a Beverly team are left in play, the team leaves play."""
    for player in sorted({v.player for v in run.state.vehicles if has(run.state, v.id, "soul_anchor")}):
        mine = team(run.state, player)
        if mine and all(ghost(v) for v in mine):
            for v in mine:
                run._put(replace(v, status=Status.REMOVED))
                tell(run, v, "soul_anchor", "no living vehicle anchors it: it fades from play")


# =========================================================================== Beverly: Soul Harvest (p.101)


SOUL_REPAIR = 2
"""Soul Harvest: Hull Points repaired on the living friend for each Soul Token handed over (p.101)."""


def _soul_contacts(run: _Run, v: VehicleState) -> tuple[tuple[str, VehicleState], ...]:
    """What the Movement Step's template touched, nearest the start first: ``("enemy", u)`` for every enemy in
    play (ignored or not), ``("friend", u)`` for every living friend it did not touch at the start."""
    report = run._surfaced
    area = report.area if report is not None else None
    if area is None or area.is_empty:
        return ()
    start = run._move_start if run._move_start is not None else v
    begun = footprint(start.pose, start.length_mm, start.width_mm)
    found: list[tuple[float, str, VehicleState]] = []
    for u in run.state.vehicles:
        if u.id == v.id or not u.in_play:
            continue
        enemy = not run.state.same_side(u.player, v.player)
        if not enemy and ghost(u):
            continue
        body = footprint(u.pose, u.length_mm, u.width_mm)
        if area.distance(body) > TOUCH_MM or (not enemy and begun.distance(body) <= TOUCH_MM):
            continue
        found.append((begun.distance(body), "enemy" if enemy else "friend", u))
    found.sort(key=lambda f: (f[0], f[1] == "friend"))  # an enemy as near as a friend is touched first
    return tuple((kind, u) for _, kind, u in found)


def _harvest(run: _Run, vid: str) -> Question | None:
    """Walk the Movement Step's contacts from where the last answer left off: a Soul Token for each enemy, a
    choice for the first living friend touched with Soul Tokens in hand (p.101)."""
    v = run.state.vehicle(vid)
    contacts = _soul_contacts(run, v)
    done = note(run.state, vid, "soul_walk:movement") - 1
    for i in range(max(done, 0), len(contacts)):
        set_note(run, vid, "soul_walk:movement", i + 2)
        kind, u = contacts[i]
        souls = soul_tokens(run.state, vid)
        if kind == "enemy":
            set_note(run, vid, "soul", souls + 1)
            run.log.append(SoulTokens(vid, v.label, souls + 1, 1, f"its template touches {u.label}"))
            continue
        if not souls:
            continue
        choices = (*(("votes",) if run.options.audience_votes else ()), "repair")
        labels = (*((f"Gain {souls} Audience Vote{'s' if souls > 1 else ''}",) if run.options.audience_votes else ()),
                  f"Repair {SOUL_REPAIR * souls} Hull Points on {u.label}")
        if len(choices) == 1:
            _cash(run, vid, u.id, choices[0])
            continue
        return Question(v.player, vid, "soul_harvest", f"{v.label} touches {u.label} with {souls} Soul Token"
                        f"{'s' if souls > 1 else ''}: cash them for Audience Votes or repairs?", choices, labels,
                        (u.id,))
    return None


def _cash(run: _Run, vid: str, friend: str, choice: str) -> None:
    """Hand the Soul Tokens over: Audience Votes or 2 Hull Points on ``friend`` each, then discard them (p.101)."""
    v = run.state.vehicle(vid)
    souls = soul_tokens(run.state, vid)
    u = run.state.vehicle(friend)
    if choice == "votes":
        votes(run, v.player, souls, "soul_harvest", f"{v.label} hands over {souls} Soul Token{'s' if souls > 1 else ''}")
    else:
        change(run, u, "soul_harvest", f"{souls} Soul Token{'s' if souls > 1 else ''} repair it",
               hull=SOUL_REPAIR * souls, source=v.label)
    set_note(run, vid, "soul", 0)
    run.log.append(SoulTokens(vid, v.label, 0, -souls, f"handed over to {u.label}"))


@hook("end_of_movement", "soul_harvest")
def _soul_harvest(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or note(run.state, v.id, "soul_walk:movement") or not has(run.state, v.id, "soul_harvest"):
        return None
    return _harvest(run, v.id)


@answers("soul_harvest")
def _soul_harvest_answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    _cash(run, ask.vehicle, ask.context[0], choice)
    again = _harvest(run, ask.vehicle)
    if again is not None:
        put(run, again, ask.then)
        return
    run._resume(ask.then)


# =========================================================================== Experimental Nuclear Engine (p.84)


@observer
def _meltdown(run: _Run, event: GameEvent) -> None:
    """A failed Flip check wrecks a vehicle with an Experimental Nuclear Engine, and it Explodes (p.84)."""
    if isinstance(event, WipedOut) and event.flips and has(run.state, event.vehicle, "experimental_nuclear_engine"):
        v = run.state.vehicle(event.vehicle)
        if v.in_play:
            set_note(run, v.id, "meltdown", 1)
            change(run, v, "experimental_nuclear_engine", "fails its Flip check: the engine goes critical",
                   hull=-v.hull_points)


__all__ = ["bogey", "dashboard_notes", "ghost", "respawn_rights", "soul_tokens", "in_arc", "may_collide", "may_shoot", "may_win", "tombstone_evade", "touching",
           "without_ghosts"]
