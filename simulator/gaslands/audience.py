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
    return sum(table[e.effect].cost for e in effects)


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


def affordable(state: GameState, votes: tuple[int, ...], player: int, respawn: RespawnRule = "in_place"
               ) -> tuple[str, ...]:
    """Names of the effects ``player`` can pay for and use now (p.89-90); ``respawn`` says what the scenario
    allows (:data:`RespawnRule`). In Team Games a team-mate's vehicles count as the player's own (p.123)."""
    have = votes[player] if player < len(votes) else 0
    own_active = any(v.player == player and v.in_play for v in state.vehicles)
    team_active = any(state.same_side(v.player, player) and v.in_play for v in state.vehicles)
    out = []
    for name, spec in audience_table().effects.items():
        if spec.cost > have:
            continue
        if name == "respawn" and (respawn == "none" or own_active or not _own_wrecks(state, player, respawn)):
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


def vote_choices(state: GameState, votes: tuple[int, ...], player: int, respawn: RespawnRule = "in_place"
                 ) -> tuple[VoteChoice, ...]:
    """Every effect ``player`` can pay for now, with each legal target spelled out (p.89-90): a gear up or down
    for each own vehicle in play, each enemy for Executive Intervention, each own weapon with ammo for Reload,
    Carpe Diem, and each own wreck for Respawn."""
    table = audience_table().effects
    own = [v for v in state.vehicles if state.same_side(v.player, player) and v.in_play]
    out: list[VoteChoice] = []
    for name in affordable(state, votes, player, respawn):
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
            for v in _own_wrecks(state, player, respawn):
                where = "where its wreck lies" if v.status is Status.WRECK else "by its spawn point" \
                    if respawn == "spawn" else "at its table edge"
                add(VoteEffect("respawn", v.id), f"{v.label} back with half its Hull, {where}")
    return tuple(out)


def _own_wrecks(state: GameState, player: int, respawn: RespawnRule = "in_place") -> list[VehicleState]:
    """``player``'s vehicles that may respawn: wrecks on the table, and (when the scenario places respawned
    vehicles, p.90) vehicles Wrecked and removed; never a disqualified one (Scarper, p.135)."""
    ok = {Status.WRECK} | ({Status.REMOVED} if respawn in ("spawn", "edge") else set())
    return [v for v in state.vehicles if v.player == player and v.status in ok]


@dataclass(frozen=True)
class Spent:
    """What spending did: the new state, votes left, whether Pole Position is frozen, log lines."""

    state: GameState
    votes: tuple[int, ...]
    freeze_pole: bool
    lines: tuple[tuple[str, str], ...]


def spend(state: GameState, votes: tuple[int, ...], player: int, effects: tuple[VoteEffect, ...],
          d6: int = 1, respawn: RespawnRule = "in_place") -> Spent:
    """Apply ``effects`` bought by ``player`` (p.89-90). ``d6``: the roll for Thunderous Applause.

    Raises :class:`IllegalChoice` naming the rule when the player cannot pay,
    targets another player's vehicle with an own-vehicle effect (or the reverse),
    changes gear beyond 1..max, reloads a weapon without ammo, or respawns while
    still having a vehicle in play.
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
        if e.effect == "respawn" and respawn == "none":
            raise IllegalChoice("no Respawn in this game", rule)
        state, frozen, line = _apply(state, player, e, spec, d6, rule, respawn)
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
           rule: str, respawn: RespawnRule = "in_place") -> tuple[GameState, bool, str]:
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
    if any(x.player == player and x.in_play for x in state.vehicles) or v.in_play:
        raise IllegalChoice("Respawn only with no vehicle in play", rule)
    if v.status not in (Status.WRECK, Status.REMOVED) or (v.status is Status.REMOVED and respawn == "in_place"):
        raise IllegalChoice(f"{v.label} cannot respawn", rule)
    status = Status.ACTIVE if v.status is Status.WRECK else Status.UNDEPLOYED
    healed = replace(v, status=status, damage=v.hull - v.hull // 2, gear=1, hazards=0,
                     on_fire=v.on_fire and status is Status.ACTIVE)
    where = "" if status is Status.ACTIVE else ", to be placed by its spawn point" if respawn == "spawn" \
        else ", to be placed at its table edge"
    return state.with_vehicle(healed), False, f"{v.label} respawns with {v.hull // 2} Hull Points{where}"
