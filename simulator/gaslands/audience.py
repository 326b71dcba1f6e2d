"""Audience Votes (p.88-90): a switchable module.

Players (not vehicles) gain votes when one of their vehicles is Wrecked and
when a round starts with none of their vehicles active (p.88). Before a player
activates a vehicle or passes, they may spend votes on effects (p.89-90); the
costs and pages are data in ``simulator/data/audience_votes.toml``. Effects
are applied here as functions of the game state; the dice come in from outside.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from simulator.errors import IllegalChoice
from simulator.frozen import replace
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.vocab import plural

EffectName = Literal["burn_rubber", "thunderous_applause", "executive_intervention", "reload", "carpe_diem",
                     "respawn", "cannon_facing", "on_my_mark", "truckasaurus_lives", "wheeled_army"]
"""The effects of p.89-90, then those a scenario adds (Tank Commander p.151, Truckasaurus p.152; costs in
``simulator/data/scenarios.toml``)."""

RespawnRule = Literal["in_place", "spawn", "none", "edge"]
"""Where a scenario lets a respawned vehicle come back (p.90, p.130): ``in_place`` only a wreck still on the
table turns back over; ``spawn`` and ``edge`` a vehicle no longer in play comes back too, placed by its
spawn point or table edge; ``none`` no Respawn in this game (Arena of Death, p.130)."""

GHOST_RIDER = "Ghost Rider"
"""The special rule of Beverly's ghosts (p.101), which a Respawn At the Crossroads gives."""

CROSSROADS_COST = 1
"""At the Crossroads: what a Respawn costs a team haunted by Beverly when the vehicle comes back a Ghost Rider
(p.101)."""

CROSSROADS = "ghost_rider"
"""``VoteEffect.target`` of a Respawn bought At the Crossroads (p.101)."""


@dataclass(frozen=True)
class RespawnRights:
    """What a player's Sponsored Perks change about Respawn (p.101): ``crossroads``, a Respawn may cost
    :data:`CROSSROADS_COST` and the vehicle comes back a Ghost Rider; ``inexorable``, a wreck or a vehicle out of
    play may respawn whatever else the rules say (while other vehicles are in play, in a game without Respawn,
    disqualified; docs/rulings.md)."""

    crossroads: bool = False
    inexorable: bool = False


NO_RIGHTS = RespawnRights()
"""A player without Beverly's Sponsored Perks (the rules of p.90 alone)."""


class _Gain(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    votes: int = Field(ge=0)
    page: int


class EffectSpec(BaseModel):
    """One effect's row: name, cost in votes, what it targets, page."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    cost: int = Field(ge=0)
    target: Literal["own_vehicle", "enemy_vehicle", "own_weapon", "pole_position", "own_wreck"]
    hazards_up_to: int | None = None
    page: int


class AudienceTable(BaseModel):
    """The whole data file."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    gain: dict[str, _Gain]
    effects: dict[str, EffectSpec]


@cache
def audience_table() -> AudienceTable:
    """The bundled Audience Votes table (p.88-90)."""
    text = (files("simulator") / "data" / "audience_votes.toml").read_text("utf-8")
    return AudienceTable.model_validate(tomllib.loads(text))


@dataclass(frozen=True)
class VoteEffect:
    """One effect to buy. ``vehicle_id`` for vehicle effects; ``gear_change`` +1/-1 for Burn Rubber;
    ``mount`` for Reload; ``player`` for Carpe Diem (-1: stop Pole Position moving next time). A scenario's
    effect uses ``vehicle_id``, ``mount`` and ``target`` (a cannon's new facing, a shot's target)."""

    effect: EffectName
    vehicle_id: str = ""
    gear_change: int = 0
    mount: int = -1
    player: int = -1
    target: str = field(default="", metadata={"omit_if_default": True})
    """Left out of saves when empty (saves of games without scenario effects stay as they were)."""


def cost(effects: tuple[VoteEffect, ...]) -> int:
    """Total votes the effects cost."""
    table = audience_table().effects
    return sum(CROSSROADS_COST if e.effect == "respawn" and e.target == CROSSROADS else table[e.effect].cost
               for e in effects)


def gain_for_wreck(votes: tuple[int, ...], player: int) -> tuple[int, ...]:
    """Votes after one of ``player``'s vehicles is Wrecked (p.88)."""
    return _add(votes, player, audience_table().gain["vehicle_wrecked"].votes)


def gain_at_round_start(state: GameState, votes: tuple[int, ...]) -> tuple[int, ...]:
    """Votes after a round starts: players with no active vehicle gain (p.88)."""
    extra = audience_table().gain["round_without_active_vehicles"].votes
    active = state.players_in_play()
    for p in range(len(state.players)):
        if p not in active:
            votes = _add(votes, p, extra)
    return votes


def _add(votes: tuple[int, ...], player: int, n: int) -> tuple[int, ...]:
    return tuple(v + n if i == player else v for i, v in enumerate(votes))


def affordable(state: GameState, votes: tuple[int, ...], player: int, respawn: RespawnRule = "in_place",
               rights: RespawnRights = NO_RIGHTS) -> tuple[str, ...]:
    """Names of the effects ``player`` can pay for and use now (p.89-90); ``respawn`` says what the scenario
    allows (:data:`RespawnRule`), ``rights`` what the player's Sponsored Perks change (p.101). In Team Games a
    team-mate's vehicles count as the player's own (p.123)."""
    have = votes[player] if player < len(votes) else 0
    own_active = any(v.player == player and v.in_play for v in state.vehicles)
    team_active = any(state.same_side(v.player, player) and v.in_play for v in state.vehicles)
    out = []
    for name, spec in audience_table().effects.items():
        price = min(spec.cost, CROSSROADS_COST) if name == "respawn" and rights.crossroads else spec.cost
        if price > have:
            continue
        if name == "respawn" and (((respawn == "none" or own_active) and not rights.inexorable)
                                  or not _own_wrecks(state, player, respawn, rights)):
            continue
        if spec.target in ("own_vehicle", "own_weapon") and not team_active:
            continue
        out.append(name)
    return tuple(out)


@dataclass(frozen=True)
class VoteChoice:
    """One thing ``player`` can buy now (p.89-90): the effect with its target, what it costs, in words."""

    effect: VoteEffect
    cost: int
    label: str
    page: int


def vote_choices(state: GameState, votes: tuple[int, ...], player: int, respawn: RespawnRule = "in_place",
                 rights: RespawnRights = NO_RIGHTS) -> tuple[VoteChoice, ...]:
    """Every effect ``player`` can pay for now, with each legal target spelled out (p.89-90): a gear up or down
    for each own vehicle in play, each enemy for Executive Intervention, each own weapon with ammo for Reload,
    Carpe Diem, and each own wreck for Respawn (also At the Crossroads' cheaper one as a Ghost Rider, p.101)."""
    table = audience_table().effects
    own = [v for v in state.vehicles if state.same_side(v.player, player) and v.in_play]
    have = votes[player] if player < len(votes) else 0
    out: list[VoteChoice] = []
    for name in affordable(state, votes, player, respawn, rights):
        spec = table[name]

        def add(effect: VoteEffect, words: str, spec: EffectSpec = spec) -> None:
            out.append(VoteChoice(effect, spec.cost, f"{spec.name}: {words}", spec.page))

        if name == "burn_rubber":
            for v in own:
                for change in (1, -1):
                    if 1 <= v.gear + change <= v.max_gear:
                        add(VoteEffect("burn_rubber", v.id, gear_change=change), f"{v.label} to Gear {v.gear + change}")
        elif name == "thunderous_applause":
            for v in own:
                if v.hazards:
                    add(VoteEffect("thunderous_applause", v.id), f"{v.label} sheds D6 Hazard Tokens")
        elif name == "executive_intervention":
            for v in state.vehicles:
                if not state.same_side(v.player, player) and v.in_play:
                    add(VoteEffect("executive_intervention", v.id), f"{v.label} up to {spec.hazards_up_to or 5} Hazard Tokens")
        elif name == "reload":
            for v in own:
                for i, m in enumerate(v.weapons):
                    if m.ammo is not None:
                        add(VoteEffect("reload", v.id, mount=i), f"{v.label}'s {m.weapon.replace('_', ' ')}")
        elif name == "carpe_diem":
            add(VoteEffect("carpe_diem", player=-1), "Pole Position stays put next time")
        elif name == "respawn":
            for v in _own_wrecks(state, player, respawn, rights):
                where = "where its wreck lies" if v.status is Status.WRECK else "by its spawn point" \
                    if respawn == "spawn" else "at its table edge"
                if spec.cost <= have:
                    add(VoteEffect("respawn", v.id), f"{v.label} back with half its Hull, {where}")
                if rights.crossroads:
                    out.append(VoteChoice(VoteEffect("respawn", v.id, target=CROSSROADS), CROSSROADS_COST,
                                          f"At the Crossroads: {v.label} back as a Ghost Rider with half its Hull, "
                                          f"{where}", CROSSROADS_PAGE))
    return tuple(out)


CROSSROADS_PAGE = 101
"""The page of At the Crossroads and Inexorable."""


def _own_wrecks(state: GameState, player: int, respawn: RespawnRule = "in_place",
                rights: RespawnRights = NO_RIGHTS) -> list[VehicleState]:
    """``player``'s vehicles that may respawn: wrecks on the table, and (when the scenario places respawned
    vehicles, p.90) vehicles Wrecked and removed; never a disqualified one (Scarper, p.135) unless Inexorable
    (p.101), which has every vehicle out of play come back where the scenario places respawns."""
    ok = {Status.WRECK} | ({Status.REMOVED} if respawn in ("spawn", "edge") else set())
    if rights.inexorable and respawn in ("spawn", "edge"):
        ok.add(Status.DISQUALIFIED)
    return [v for v in state.vehicles if v.player == player and v.status in ok]


@dataclass(frozen=True)
class Spent:
    """What spending did: the new state, votes left, whether Pole Position is frozen, log lines."""

    state: GameState
    votes: tuple[int, ...]
    freeze_pole: bool
    lines: tuple[tuple[str, str], ...]


def spend(state: GameState, votes: tuple[int, ...], player: int, effects: tuple[VoteEffect, ...],
          d6: int = 1, respawn: RespawnRule = "in_place", rights: RespawnRights = NO_RIGHTS) -> Spent:
    """Apply ``effects`` bought by ``player`` (p.89-90). ``d6``: the roll for Thunderous Applause.

    Raises :class:`IllegalChoice` naming the rule when the player cannot pay,
    targets another player's vehicle with an own-vehicle effect (or the reverse),
    changes gear beyond 1..max, reloads a weapon without ammo, respawns while
    still having a vehicle in play (unless Inexorable, p.101), or buys a Respawn At the Crossroads without
    Beverly's Sponsored Perk (``rights``, p.101).
    """
    table = audience_table().effects
    if cost(effects) > votes[player]:
        raise IllegalChoice(f"{plural(cost(effects), 'vote')} needed, {votes[player]} held", "Audience Votes, p.89")
    freeze = False
    lines: list[tuple[str, str]] = []
    for e in effects:
        spec = table[e.effect]
        rule = f"{spec.name}, p.{spec.page}"
        if e.effect != "respawn" and e.effect not in affordable(state, votes, player, respawn) \
                and spec.cost <= votes[player]:
            raise IllegalChoice(f"{spec.name} cannot be used now", rule)
        if e.effect == "respawn" and respawn == "none" and not rights.inexorable:
            raise IllegalChoice("no Respawn in this game", rule)
        if e.effect == "respawn" and e.target == CROSSROADS:
            if not rights.crossroads:
                raise IllegalChoice("only a team haunted by Beverly respawns At the Crossroads",
                                    f"At the Crossroads, p.{CROSSROADS_PAGE}")
            rule = f"At the Crossroads, p.{CROSSROADS_PAGE}"
        state, frozen, line = _apply(state, player, e, spec, d6, rule, respawn, rights)
        freeze = freeze or frozen
        lines.append((line, rule))
    return Spent(state, _add(votes, player, -cost(effects)), freeze, tuple(lines))


def _vehicle_for(state: GameState, player: int, e: VoteEffect, own: bool, rule: str,
                 team: bool = True) -> VehicleState:
    try:
        v = state.vehicle(e.vehicle_id)
    except KeyError:
        raise IllegalChoice(f"no vehicle {e.vehicle_id!r}", rule) from None
    mine = state.same_side(v.player, player) if team else v.player == player
    if mine != own:
        raise IllegalChoice(f"{v.label} is {'not ' if own else ''}yours", rule)
    return v


def _apply(state: GameState, player: int, e: VoteEffect, spec: EffectSpec, d6: int,
           rule: str, respawn: RespawnRule = "in_place", rights: RespawnRights = NO_RIGHTS
           ) -> tuple[GameState, bool, str]:
    if e.effect == "burn_rubber":
        v = _vehicle_for(state, player, e, True, rule)
        gear = v.gear + e.gear_change
        if e.gear_change not in (-1, 1) or not 1 <= gear <= v.max_gear:
            raise IllegalChoice(f"{v.label} cannot change to gear {gear}", rule)
        return state.with_vehicle(replace(v, gear=gear, hazards=v.hazards + 1)), False, f"{v.label} to gear {gear}"
    if e.effect == "thunderous_applause":
        v = _vehicle_for(state, player, e, True, rule)
        return state.with_vehicle(replace(v, hazards=max(0, v.hazards - d6))), False, f"{v.label} sheds {plural(d6, 'token')}"
    if e.effect == "executive_intervention":
        v = _vehicle_for(state, player, e, False, rule)
        up_to = spec.hazards_up_to or 5
        return state.with_vehicle(replace(v, hazards=max(v.hazards, up_to))), False, f"{v.label} to {up_to} tokens"
    if e.effect == "reload":
        v = _vehicle_for(state, player, e, True, rule)
        if not 0 <= e.mount < len(v.weapons) or v.weapons[e.mount].ammo is None:
            raise IllegalChoice(f"mount {e.mount} of {v.label} takes no ammo", rule)
        mounts = tuple(replace(m, ammo=(m.ammo or 0) + 1) if i == e.mount else m for i, m in enumerate(v.weapons))
        return state.with_vehicle(replace(v, weapons=mounts)), False, f"{v.label} reloads mount {e.mount}"
    if e.effect == "carpe_diem":
        if e.player < 0:
            return state, True, "Pole Position will not move next time"
        if e.player >= len(state.players):
            raise IllegalChoice(f"no player {e.player}", rule)
        return state.with_round(replace(state.round, pole=e.player)), False, f"Pole Position to {state.players[e.player]}"
    v = _vehicle_for(state, player, e, True, rule, team=False)
    if v.in_play or (any(x.player == player and x.in_play for x in state.vehicles) and not rights.inexorable):
        raise IllegalChoice("Respawn only with no vehicle in play", rule)
    if v.id not in {w.id for w in _own_wrecks(state, player, respawn, rights)}:
        raise IllegalChoice(f"{v.label} cannot respawn", rule)
    status = Status.ACTIVE if v.status is Status.WRECK else Status.UNDEPLOYED
    ghost = e.target == CROSSROADS
    healed = replace(v, status=status, damage=v.hull - v.hull // 2, gear=1, hazards=0,
                     on_fire=v.on_fire and status is Status.ACTIVE, rules=v.rules | {GHOST_RIDER} if ghost else v.rules)
    where = "" if status is Status.ACTIVE else ", to be placed by its spawn point" if respawn == "spawn" \
        else ", to be placed at its table edge"
    return state.with_vehicle(healed), False, (f"{v.label} respawns with {v.hull // 2} Hull Points{where}"
                                               + (", a Ghost Rider" if ghost else ""))
