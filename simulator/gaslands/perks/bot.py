"""How the bots answer the perks' questions (a ``DeclarePrompt`` with ``perk`` set): deterministic and sensible.

Each answer reads only the prompt and the game state: take what keeps the car
going and out of a Wipeout (p.34), spend Hull or Crew only with plenty left,
give Hazard Tokens to enemies and take them off friends.
"""

from __future__ import annotations

from collections.abc import Callable

from simulator.gaslands.dice import SkidFace
from simulator.gaslands.game import Game
from simulator.gaslands.perks.sponsors import SOUL_REPAIR, ghost
from simulator.gaslands.prompts import DeclarePrompt
from simulator.gaslands.state import GameState, VehicleState
from simulator.gaslands.tables import load_weapons

SAFE_HAZARDS = 2
"""A bot takes Hazard Tokens for a perk only with at most this many already."""

Chooser = Callable[[GameState, VehicleState, DeclarePrompt], str]


def _no(p: DeclarePrompt) -> str:
    return "no" if "no" in p.choices else p.choices[0]


def _yes_if(p: DeclarePrompt, ok: bool) -> str:
    return "yes" if ok and "yes" in p.choices else _no(p)


def _other(state: GameState, choice: str) -> VehicleState | None:
    vid = choice.split(":")[0]
    try:
        return state.vehicle(vid)
    except KeyError:
        return None


def _pass_to_enemy(state: GameState, v: VehicleState, p: DeclarePrompt) -> str:
    enemies = [c for c in p.choices if (u := _other(state, c)) is not None and u.player != v.player]
    return max(enemies, key=lambda c: state.vehicle(c).hazards) if enemies else _no(p)


def _cover_me(state: GameState, v: VehicleState, p: DeclarePrompt) -> str:
    calm = [c for c in p.choices if (u := _other(state, c)) is not None and u.hazards + 1 < v.hazards]
    return min(calm, key=lambda c: state.vehicle(c).hazards) if calm and v.hazards >= 3 else _no(p)


def _ecstatic(state: GameState, v: VehicleState, p: DeclarePrompt) -> str:
    best = _no(p)
    for c in p.choices:
        if ":" in c and v.hazards + int(c.split(":")[1]) <= SAFE_HAZARDS + 1:
            best = c
    return best


def _purifying(state: GameState, v: VehicleState, p: DeclarePrompt) -> str:
    if v.hull_points < 6:
        return _no(p)
    worst = [c for c in p.choices if c.endswith(":1") and (u := _other(state, c)) is not None and u.hull_points <= 3]
    return worst[0] if worst else _no(p)


def _glory(state: GameState, v: VehicleState, p: DeclarePrompt) -> str:
    bad = p.question.count("hazard") + p.question.count("spin") + p.question.count("slide")
    return "all_shift" if bad >= 2 and "all_shift" in p.choices else _no(p)


def _easy_rider(state: GameState, v: VehicleState, p: DeclarePrompt) -> str:
    dice = [c for c in p.choices if c != "no"]
    order = {SkidFace.HAZARD.value: 0, SkidFace.SPIN.value: 1, SkidFace.SLIDE.value: 2}
    if not dice:
        return _no(p)
    return min(dice, key=lambda c: order.get(p.label(c).rsplit("(", 1)[-1].rstrip(")"), 3))


def _loader(state: GameState, v: VehicleState, p: DeclarePrompt) -> str:
    mounts = [c for c in p.choices if c != "no"]
    if v.crew_now < 2 or not mounts:
        return _no(p)
    weapons = load_weapons()
    return max(mounts, key=lambda c: weapons[v.weapons[int(c)].weapon].attack_dice)


def _soul_harvest(state: GameState, v: VehicleState, p: DeclarePrompt) -> str:
    """Repairs when a living friend has lost Hull Points, else the Audience Votes."""
    hurt = any(u.damage >= SOUL_REPAIR for u in state.vehicles if u.player == v.player and u.in_play and not ghost(u))
    return "repair" if hurt or "votes" not in p.choices else "votes"


def _angel(state: GameState, v: VehicleState, p: DeclarePrompt) -> str:
    return "1" if v.hull_points >= 6 and "1" in p.choices else p.choices[0]


def _teleport_helps(game: Game, v: VehicleState) -> bool:
    """The Experimental Teleporter (p.83-84) is used only with no Hazard Tokens yet (its 3 leave room to move
    without a Wipeout, p.34) and when the vehicle is not in the front half of the race (behind, or stuck)."""
    if v.hazards > 0:
        return False
    order = game.referee.race_order(game.state, game.options.course)
    return v.id in order and order.index(v.id) >= len(order) // 2 and len(order) > 1


CHOOSERS: dict[str, Chooser] = {
    "dont_come_knocking": lambda s, v, p: _yes_if(p, v.hazards + 4 < 6),
    "purifying_flames": _purifying,
    "ecstatic_visions": _ecstatic,
    "nitro_booster": lambda s, v, p: _yes_if(p, v.hazards <= 1),
    "moment_of_glory": _glory,
    "easy_rider": _easy_rider,
    "momentum": lambda s, v, p: _no(p),
    "raise_the_sails": lambda s, v, p: _yes_if(p, v.crew >= 3),
    "madman": _pass_to_enemy,
    "cover_me": _cover_me,
    "dead_weight": lambda s, v, p: _yes_if(p, v.hazards <= SAFE_HAZARDS),
    "tombstone": lambda s, v, p: _no(p),
    "loader": _loader,
    "mobile_mechanic": lambda s, v, p: _yes_if(p, v.crew_now >= 2 or not v.weapons),
    "angel_of_death": _angel,
    "pinball": lambda s, v, p: _yes_if(p, v.hazards <= 3),
    "bullet_time": lambda s, v, p: p.choices[1] if len(p.choices) > 1 else _no(p),
    "downshift": lambda s, v, p: _yes_if(p, v.hazards <= SAFE_HAZARDS),
    "highway_to_hell": lambda s, v, p: _no(p),
    "stunt_driver": lambda s, v, p: _yes_if(p, v.hazards == 0),
    "skiing": lambda s, v, p: _no(p),
    "powerslide": lambda s, v, p: p.choices[0],  # the Slide template
    "maxximum_drift": lambda s, v, p: p.choices[0],  # the template already chosen
    "taunt": lambda s, v, p: p.choices[1] if len(p.choices) > 1 else _no(p),
    "satellite_navigation": lambda s, v, p: _no(p),
    "satellite_shifts": lambda s, v, p: p.choices[-1],
    "eureka": lambda s, v, p: p.choices[1] if len(p.choices) > 1 else _no(p),
    "rapid_fire": lambda s, v, p: p.choices[1] if len(p.choices) > 1 else _no(p),
    "evasive": lambda s, v, p: "1" if v.hazards <= SAFE_HAZARDS and "1" in p.choices else p.choices[0],
    "sympathy_for_the_devil": lambda s, v, p: _no(p),
    "return_fire": lambda s, v, p: _yes_if(p, v.hazards <= SAFE_HAZARDS),
    "soul_harvest": _soul_harvest,
}
"""The bot's answer to each perk's question."""


def choose(game: Game, p: DeclarePrompt) -> str:
    """The bot's answer to a perk's question ``p``; "no" (or the first choice) for a question it has no view on."""
    try:
        v = game.state.vehicle(p.vehicle_id)
    except KeyError:
        return _no(p)
    if p.perk == "experimental_teleporter":
        return _yes_if(p, _teleport_helps(game, v))
    chooser = CHOOSERS.get(p.perk)
    answer = chooser(game.state, v, p) if chooser is not None else p.choices[0] if "no" not in p.choices else "no"
    return answer if answer in p.choices else p.choices[0]


__all__ = ["CHOOSERS", "choose"]
