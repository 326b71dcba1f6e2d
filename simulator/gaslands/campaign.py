"""Campaigns (p.154-175) as values: teams, money and results carried from game to game.

A :class:`Campaign` is frozen; every step returns a new one. Three ways to play a series of games
(p.154-164), which combine: an **Escalating** Season adds bonus Cans before each game after the first
(p.154); a **Championship** Season gives Championship Points by place (p.155); a **Televised** Season has a
schedule of Televised Events (where the Championship Points are won) with Wasteland Skirmishes between them,
and its pre-game and post-game sequences (p.156-164). **Savage Highways** (p.165-175) is a narrative of three
scenarios for the Riggers and the Gangers, the War Rig's upgrades won and lost on the way.

The sequence of a game:

- :func:`next_game`: which scenario is next (the schedule, a skirmish, or the narrative's branch), the
  pre-game sequence (Handicap Bonus votes p.159, Sabotage Tokens p.160; the War Rig Upgrades to choose, p.167)
  and the Escalating bonus (p.154), as a :class:`NextGame`;
- the game is played (:mod:`simulator.scenario.campaign_file` seats the teams in the scenario);
- :func:`outcome_of` reads the finished game (places, wrecks and who made them, gates, the scenario's score);
- :func:`post_game`: Spoils (p.161), Contacting the Resistance (p.162), Damage and Injuries (p.162-163), the
  Savage Highways' Ride Eternal and upgrades (p.167-175); every line says what happened with its page.

The tables are data: ``simulator/data/campaigns.toml``. Dice come from outside.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from typing import Any, Literal

from simulator.gaslands.dice import DiceSource
from simulator.gaslands.events import GameEvent, GameOver, Wrecked
from simulator.gaslands.state import GameState
from simulator.gaslands.tables import load_perks, load_upgrades, load_vehicle_types, load_weapons
from simulator.gaslands.teams import Team, vehicle_cost

Kind = Literal["escalating", "championship", "televised", "savage_highways"]


@cache
def campaign_data() -> dict[str, Any]:
    """The campaign tables (``simulator/data/campaigns.toml``)."""
    return tomllib.loads((files("simulator") / "data" / "campaigns.toml").read_text("utf-8"))


def _d(section: str, key: str) -> Any:
    return campaign_data()[section][key]


def ref(section: str, name: str) -> str:
    """``"Spoils, p.161"``: a campaign rule with its page."""
    return f"{name}, p.{campaign_data()[section]['page']}"


# --------------------------------------------------------------------------- the records


@dataclass(frozen=True)
class VehicleRecord:
    """What a season remembers of one vehicle (by its name in the team): Dents (p.162), Injuries (p.163), Hull
    lost to Ride Eternal (p.167), Crew lost (Upholstery ruined, p.162)."""

    label: str
    dents: int = 0
    injuries: tuple[str, ...] = ()
    hull_lost: int = 0
    crew_lost: int = 0
    weakened: bool = False


@dataclass(frozen=True)
class TeamRecord:
    """A team in a campaign: the player's name and colour, the team (vehicles, sponsor), the Cans it may spend
    in all (``budget``: the Stash is what is left after the team's cost, p.162), Championship Points, Resistance
    Points, the vehicles' records, whether a bot plays it, and its part in Savage Highways."""

    id: str
    name: str
    colour: str
    team: Team
    budget: int
    championship: int = 0
    resistance: int = 0
    vehicles: tuple[VehicleRecord, ...] = ()
    bot: bool = False
    role: str = ""

    @property
    def cost(self) -> int:
        """The team's cost in Cans (p.65)."""
        sponsor = self.team.sponsor_row
        return sum(vehicle_cost(v, sponsor) for v in self.team.vehicles)

    @property
    def stash(self) -> int:
        """Cans not spent (p.162)."""
        return self.budget - self.cost

    def record(self, label: str) -> VehicleRecord:
        """The vehicle's record (a fresh one if none)."""
        return next((r for r in self.vehicles if r.label == label), VehicleRecord(label))

    def with_record(self, rec: VehicleRecord) -> TeamRecord:
        """This team with ``rec`` replacing the record of the same vehicle."""
        rest = tuple(r for r in self.vehicles if r.label != rec.label)
        return replace(self, vehicles=(*rest, rec))


@dataclass(frozen=True)
class GameRecord:
    """One game played: its number, scenario, whether it was a scheduled Televised Event, its seed, the winning
    team (``""``: none), the places, and the post-game sequence's lines."""

    number: int
    scenario: str
    televised: bool
    seed: int
    winner: str = ""
    places: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Campaign:
    """A campaign as it stands (see the module docstring)."""

    name: str
    kind: Kind
    teams: tuple[TeamRecord, ...]
    escalating: bool = False
    championship: bool = False
    starting_cans: int = 30
    bonus_cans: int = 10
    schedule: tuple[str, ...] = ()
    """Televised Events in order (scenario keys), p.156."""
    games: tuple[GameRecord, ...] = ()
    seed: int = 1
    rig_upgrades: tuple[str, ...] = ()
    """Savage Highways: upgrades won, re-attached in every later scenario (p.168)."""
    lost_upgrades: tuple[str, ...] = ()
    """Savage Highways: upgrades lost for good (p.168)."""
    revolutions: tuple[str, ...] = ()
    """Teams that have forced The Revolution Will Be Televised (p.158)."""

    @property
    def televised(self) -> bool:
        """A Televised Season (p.156)."""
        return self.kind == "televised"

    @property
    def events_played(self) -> int:
        """Televised Events played so far."""
        return sum(1 for g in self.games if g.televised)

    @property
    def over(self) -> bool:
        """Whether the season (or the narrative) is over."""
        if self.kind == "televised":
            return self.events_played >= len(self.schedule)
        if self.kind == "savage_highways":
            return any(g.scenario == "long_road_home" for g in self.games)
        return bool(self.schedule) and len(self.games) >= len(self.schedule)

    def team(self, team_id: str) -> TeamRecord:
        """The team with this id; ``KeyError`` if none."""
        for t in self.teams:
            if t.id == team_id:
                return t
        raise KeyError(f"no team {team_id!r}")

    def with_team(self, t: TeamRecord) -> Campaign:
        """This campaign with ``t`` replacing the team of the same id."""
        return replace(self, teams=tuple(t if x.id == t.id else x for x in self.teams))

    def standings(self) -> tuple[TeamRecord, ...]:
        """Teams by Championship Points, ties broken by fewer Resistance Points (Winning the Season, p.158)."""
        return tuple(sorted(self.teams, key=lambda t: (-t.championship, t.resistance, t.name)))

    def champion(self) -> str:
        """The Gaslands Season Champion once the season is over (p.158), else ``""``."""
        if not self.over or self.kind == "savage_highways":
            return ""
        return self.standings()[0].name

    def resistance_general(self) -> str:
        """The Pro-Earth Resistance General (p.158): the most Resistance Points, if The Revolution Will Be
        Televised was played."""
        if not any(g.scenario == "revolution" for g in self.games):
            return ""
        best = max(self.teams, key=lambda t: (t.resistance, t.name))
        return best.name if best.resistance else ""


# --------------------------------------------------------------------------- before a game (p.156-160)


@dataclass(frozen=True)
class NextGame:
    """The next game: its number, scenario key, whether it is a scheduled Televised Event, its seed, each
    team's bonus Audience Votes (Handicap Bonus, p.159) and Sabotage Tokens (p.160), the War Rig Upgrades
    attached (Savage Highways, p.167) and who chooses the new ones, and the pre-game lines."""

    number: int
    scenario: str
    televised: bool
    seed: int
    votes: tuple[tuple[str, int], ...] = ()
    sabotage: tuple[tuple[str, int], ...] = ()
    rig_upgrades: tuple[str, ...] = ()
    choose_upgrades: int = 0
    chooser: str = ""
    lines: tuple[str, ...] = ()

    def votes_of(self, team_id: str) -> int:
        return next((n for t, n in self.votes if t == team_id), 0)


def handicap_votes(behind: int) -> int:
    """Bonus Audience Votes for a team ``behind`` Championship Points behind the leader (p.159)."""
    votes = 0
    for least, n in _d("handicap", "rows"):
        if behind >= least:
            votes = n
    return int(votes)


def game_seed(c: Campaign, number: int) -> int:
    """The dice seed of game ``number`` (the same campaign seed gives the same games)."""
    import random

    return random.Random(f"campaign/{c.seed}/{number}").getrandbits(31)


def next_game(c: Campaign, skirmish: str = "") -> NextGame:
    """The next game and its pre-game sequence (see the module docstring). ``skirmish``: a Wasteland Skirmish
    (or any scenario key) to play instead of the next Televised Event (p.157)."""
    number = len(c.games) + 1
    seed = game_seed(c, number)
    lines: list[str] = []
    if c.kind == "savage_highways":
        return _highways_next(c, number, seed)
    if skirmish:
        scenario, televised = skirmish, False
    elif c.kind == "televised":
        scenario, televised = c.schedule[min(c.events_played, len(c.schedule) - 1)], True
    else:
        scenario, televised = (c.schedule[(number - 1) % len(c.schedule)] if c.schedule else "street_race"), True
    votes: list[tuple[str, int]] = []
    sabotage: list[tuple[str, int]] = []
    if c.kind == "televised" or c.championship:
        lead = max((t.championship for t in c.teams), default=0)
        for t in c.teams:
            n = handicap_votes(lead - t.championship)
            if n:
                votes.append((t.id, n))
                lines.append(f"{t.name} is {lead - t.championship} Championship Points behind: {n} bonus Audience "
                             f"Vote{'s' if n != 1 else ''} ({ref('handicap', 'Handicap Bonus')})")
    if c.kind == "televised" and televised:
        per = int(_d("sabotage", "points_per_token"))
        for t in c.teams:
            if t.resistance >= per:
                sabotage.append((t.id, t.resistance // per))
                lines.append(f"{t.name} may take {t.resistance // per} Sabotage Token(s) "
                             f"({ref('sabotage', 'Sabotage Tokens')}; their effects are played by hand)")
    if c.escalating and number > 1:
        lines.append(f"Escalating Season: every team gains {c.bonus_cans} Cans ({ref('escalating', 'Escalating Seasons')})")
    kind = "Televised Event" if televised and c.kind == "televised" else "game"
    lines.insert(0, f"Game {number}: {scenario.replace('_', ' ').title()} ({kind})")
    return NextGame(number, scenario, televised, seed, tuple(votes), tuple(sabotage), lines=tuple(lines))


def begin_game(c: Campaign, nxt: NextGame) -> Campaign:
    """What the pre-game sequence changes before play: the Escalating bonus Cans (p.154)."""
    if c.escalating and nxt.number > 1 and not any(g.number == nxt.number for g in c.games):
        return replace(c, teams=tuple(replace(t, budget=t.budget + c.bonus_cans) for t in c.teams))
    return c


def _highways_next(c: Campaign, number: int, seed: int) -> NextGame:
    """The narrative's next scenario and its War Rig Upgrades (p.168-174)."""
    played = {g.scenario: g for g in c.games}
    riggers = next((t for t in c.teams if t.role == "riggers"), None)
    gangers = next((t for t in c.teams if t.role == "gangers"), None)
    rig_id = riggers.id if riggers else ""
    gang_id = gangers.id if gangers else ""
    if "escape_the_city" not in played:
        scenario, choose, chooser = "escape_the_city", 1, rig_id
    elif "rescue" not in played and "ambush" not in played:
        won = played["escape_the_city"].winner == rig_id
        scenario = "ambush" if won else "rescue"
        choose, chooser = 1, (rig_id if won else gang_id)
    else:
        scenario, choose, chooser = "long_road_home", int(_d("savage_highways", "long_road_upgrades")), rig_id
    lines = [f"Game {number}: {scenario.replace('_', ' ').title()} (Savage Highways, p.{_page(scenario)})"]
    if c.rig_upgrades:
        lines.append("Attached from earlier wins: " + ", ".join(_upgrade_name(u) for u in c.rig_upgrades)
                     + " (p.168)")
    who = next((t.name for t in c.teams if t.id == chooser), chooser)
    lines.append(f"{who} choose{'s' if choose == 1 else ''} {choose} War Rig Upgrade{'s' if choose != 1 else ''} "
                 "(p.167)")
    return NextGame(number, scenario, False, seed, rig_upgrades=c.rig_upgrades, choose_upgrades=choose,
                    chooser=chooser, lines=tuple(lines))


def _page(scenario: str) -> int:
    return {"escape_the_city": 168, "rescue": 169, "ambush": 172, "long_road_home": 173}.get(scenario, 165)


def _upgrade_name(key: str) -> str:
    return key.replace("_", " ").title()


def upgrade_choices(c: Campaign, nxt: NextGame) -> tuple[str, ...]:
    """The War Rig Upgrades that may be chosen now (p.167): not attached already, not lost for good; in Rescue
    one never attached before (p.169)."""
    every = tuple(_d("savage_highways", "upgrades"))
    taken = set(c.rig_upgrades) | set(c.lost_upgrades)
    if nxt.scenario == "rescue":
        return tuple(u for u in every if u not in taken)
    return tuple(u for u in every if u not in taken)


# --------------------------------------------------------------------------- what a game's end says


@dataclass(frozen=True)
class Wreck:
    """A vehicle Wrecked in the game: its team, its name, its weight class (or ``war_rig``), the team that
    wrecked it (``""``: nobody or itself)."""

    team: str
    label: str
    weight: str
    by: str


@dataclass(frozen=True)
class Outcome:
    """What a finished game says for the campaign: the winning team, places (team ids, best first), the
    vehicles Wrecked, the gates each team passed (Death Race), each team's score in the scenario's unit, and
    how many of each team's vehicles were off the last table at the end (Express Delivery)."""

    winner: str
    places: tuple[str, ...]
    wrecks: tuple[Wreck, ...] = ()
    gates: tuple[tuple[str, int], ...] = ()
    scores: tuple[tuple[str, int], ...] = ()
    delivered: tuple[tuple[str, int], ...] = ()
    own_slip: tuple[str, ...] = ()

    def score_of(self, team: str) -> int:
        return next((n for t, n in self.scores if t == team), 0)


def outcome_of(state: GameState, log: Sequence[GameEvent], team_of_player: Sequence[str],
               scores: Sequence[int] = ()) -> Outcome:
    """Read a finished game: ``team_of_player`` gives each player's team id; ``scores`` the scenario's score
    by player (its score board), when it has one."""
    over = next((e for e in reversed(log) if isinstance(e, GameOver)), None)
    players = len(team_of_player)
    by_label = {v.label: v for v in state.vehicles}
    order: list[str] = []
    if state.winner is not None and 0 <= state.winner < players:
        order.append(team_of_player[state.winner])
    for name in over.standings if over is not None else ():
        v = by_label.get(name) or by_label.get(name.removeprefix("the wreck of "))
        if v is not None and 0 <= v.player < players and team_of_player[v.player] not in order:
            order.append(team_of_player[v.player])
    for t in team_of_player:
        if t not in order:
            order.append(t)
    if scores and state.winner is None:
        ranked = sorted(range(players), key=lambda p: (-scores[p], order.index(team_of_player[p])))
        order = [team_of_player[p] for p in ranked]
    return Outcome(team_of_player[state.winner] if state.winner is not None and 0 <= state.winner < players else "",
                   tuple(order), _wrecks(state, log, team_of_player), _gates(state, team_of_player),
                   tuple((team_of_player[p], int(scores[p])) for p in range(min(players, len(scores)))),
                   _delivered(state, team_of_player), _own_slips(state, team_of_player))


def _wrecks(state: GameState, log: Sequence[GameEvent], team_of_player: Sequence[str]) -> tuple[Wreck, ...]:
    """Every Wrecked vehicle of a team and the team that last damaged it (p.161-162)."""
    ids = {v.id: v for v in state.vehicles}
    names = {v.label: v.id for v in state.vehicles}
    last: dict[str, str] = {}
    out: list[Wreck] = []
    for e in log:
        victim = getattr(e, "vehicle", "")
        if not victim or getattr(e, "hull_delta", 0) >= 0:
            if isinstance(e, Wrecked) and victim in ids:
                v = ids[victim]
                if 0 <= v.player < len(team_of_player):
                    by = last.get(victim, "")
                    killer = ids.get(by)
                    who = team_of_player[killer.player] if killer is not None and 0 <= killer.player < len(
                        team_of_player) else ""
                    weight = "war_rig" if v.type_key == "war_rig" else v.weight.name.lower()
                    out.append(Wreck(team_of_player[v.player], v.label, weight,
                                     who if who != team_of_player[v.player] else ""))
            continue
        source = getattr(e, "attacker", "") or names.get(getattr(e, "other", "")) or names.get(
            getattr(e, "source_name", ""), "")
        if source:
            last[victim] = source
    return tuple(out)


def _gates(state: GameState, team_of_player: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """The most gates passed by one of each team's vehicles (Death Race, p.161)."""
    best: dict[str, int] = {}
    for v in state.vehicles:
        if 0 <= v.player < len(team_of_player):
            t = team_of_player[v.player]
            best[t] = max(best.get(t, 0), v.gates_passed)
    return tuple(sorted(best.items()))


def _delivered(state: GameState, team_of_player: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """Vehicles of each team that left the final table (Express Delivery's spoils, p.138)."""
    out: dict[str, int] = {}
    for v in state.vehicles:
        if 0 <= v.player < len(team_of_player) and state.scenario.note(f"exit:{v.id}"):
            t = team_of_player[v.player]
            out[t] = out.get(t, 0) + 1
    return tuple(sorted(out.items()))


def _own_slips(state: GameState, team_of_player: Sequence[str]) -> tuple[str, ...]:
    """Teams that end Express Delivery holding their own Delivery Slip (p.138)."""
    return tuple(team_of_player[p] for p in range(len(team_of_player))
                 if state.scenario.note(f"slip:{p}") == str(p))


# --------------------------------------------------------------------------- after a game (p.161-164)


@dataclass(frozen=True)
class PostGame:
    """The post-game sequence's result: the campaign after it and every line, with pages."""

    campaign: Campaign
    lines: tuple[str, ...]


def placing(c: Campaign, nxt: NextGame) -> int:
    """How many players may place: half of them, rounded up (p.161)."""
    return math.ceil(len(c.teams) / 2)


def post_game(c: Campaign, nxt: NextGame, outcome: Outcome, dice: DiceSource,
              resistance: frozenset[str] = frozenset(), upgrades_chosen: tuple[str, ...] = ()) -> PostGame:
    """Spoils, Contacting the Resistance, Damage and Injuries (p.161-163); Savage Highways' upgrades and Ride
    Eternal (p.167-168). ``resistance``: the teams that did not place and contact the Resistance; the rolls
    come from ``dice``."""
    lines: list[str] = []
    c = begin_game(c, nxt)
    if c.kind == "savage_highways":
        c = _highways_after(c, nxt, outcome, upgrades_chosen, lines)
    else:
        c = _spoils(c, nxt, outcome, dice, lines)
        c = _resistance(c, nxt, outcome, resistance, lines)
    c = _damage(c, outcome, dice, lines)
    record = GameRecord(nxt.number, nxt.scenario, nxt.televised, nxt.seed, outcome.winner, outcome.places,
                        tuple(lines))
    return PostGame(replace(c, games=(*c.games, record)), tuple(lines))


def _spoils(c: Campaign, nxt: NextGame, outcome: Outcome, dice: DiceSource, lines: list[str]) -> Campaign:
    """The Spoils Table (p.161) and a Championship Season's points (p.155)."""
    cans: dict[str, int] = {t.id: 0 for t in c.teams}
    points: dict[str, int] = {t.id: 0 for t in c.teams}
    places = outcome.places[:placing(c, nxt)]
    spoils = ref("spoils", "Spoils")
    if c.kind == "televised" and nxt.televised:
        for i, tid in enumerate(places):
            table = _d("spoils", "place_points")
            if i < len(table):
                points[tid] += int(table[i])
                lines.append(f"{c.team(tid).name} places {_ordinal(i + 1)}: +{table[i]} Championship Points "
                             f"({spoils})")
        if nxt.scenario == "death_race":
            for tid, n in outcome.gates:
                if n:
                    cans[tid] += n * int(_d("spoils", "gate_cans"))
                    lines.append(f"{c.team(tid).name} passed {n} gates: +{n} Cans ({spoils})")
    elif c.championship:
        for i, tid in enumerate(places):
            table = _d("championship", "points")
            if i < len(table):
                points[tid] += int(table[i])
                lines.append(f"{c.team(tid).name} places {_ordinal(i + 1)}: +{table[i]} Championship Points "
                             f"({ref('championship', 'Championship Seasons')})")
    if c.kind == "televised" and not nxt.televised:
        for rec in c.teams:
            (roll,) = dice.roll_d6(1)
            cans[rec.id] += roll
            lines.append(f"{rec.name} took part in a Wasteland Skirmish: D6 = {roll} Cans ({spoils})")
        _scenario_spoils(c, nxt, outcome, dice, cans, lines)
    if c.kind == "televised":
        wreck_cans = _d("spoils", "wreck_cans")
        for w in outcome.wrecks:
            if w.by:
                n = int(wreck_cans.get(w.weight, 0))
                cans[w.by] += n
                lines.append(f"{c.team(w.by).name} wrecked {w.label}: +{n} Cans ({spoils})")
    teams = []
    for t in c.teams:
        if cans[t.id] or points[t.id]:
            t = replace(t, budget=t.budget + cans[t.id], championship=t.championship + points[t.id])
        teams.append(t)
    return replace(c, teams=tuple(teams))


def _scenario_spoils(c: Campaign, nxt: NextGame, outcome: Outcome, dice: DiceSource, cans: dict[str, int],
                     lines: list[str]) -> None:
    """A Wasteland Skirmish's own Spoils (p.136, p.138, p.140, p.142)."""
    key = nxt.scenario
    for t in c.teams:
        score = outcome.score_of(t.id)
        if key == "automated_salvage" and score:
            cans[t.id] += score
            lines.append(f"{t.name}: {score} Salvage Points become {score} Cans (Automated Salvage, p.136)")
        elif key == "scavenger_party" and score:
            rolls = dice.roll_d6(score)
            n = min(20, sum(r + 1 for r in rolls))
            cans[t.id] += n
            lines.append(f"{t.name}: D6+1 for each of {score} crates = {n} Cans (Scavenger Party, p.140)")
        elif key == "zombie_bash" and score:
            n = min(20, score)
            cans[t.id] += n
            lines.append(f"{t.name}: {n} Cans for {score} zombies (Zombie Bash, p.142)")
        elif key == "express_delivery":
            out = next((n for team, n in outcome.delivered if team == t.id), 0)
            rolls = dice.roll_d6(out + score)
            n = sum(rolls)
            if t.id in outcome.own_slip and score >= 2:
                bonus = dice.roll_d6(4)
                n += sum(bonus)
            if n:
                cans[t.id] += n
                lines.append(f"{t.name}: {n} Cans for {out} deliveries and {score} Victory Points "
                             "(Express Delivery, p.138)")


def _resistance(c: Campaign, nxt: NextGame, outcome: Outcome, chosen: frozenset[str], lines: list[str]) -> Campaign:
    """A team that did not place may contact the Pro-Earth Resistance: +3 Resistance Points (p.162)."""
    if c.kind != "televised":
        return c
    placed = set(outcome.places[:placing(c, nxt)])
    n = int(_d("resistance", "points"))
    for t in c.teams:
        if t.id in chosen and t.id not in placed:
            c = c.with_team(replace(t, resistance=t.resistance + n))
            lines.append(f"{t.name} contacts the Resistance (kept secret): +{n} Resistance Points "
                         f"({ref('resistance', 'Contacting the Resistance')})")
    return c


def wreck_result(total: int) -> dict[str, Any]:
    """The Vehicle Wrecked Table's row for a total (p.162)."""
    rows = _d("wrecked", "rows")
    out = rows[0]
    for row in rows:
        if total >= row["from"]:
            out = row
    return dict(out)


def _damage(c: Campaign, outcome: Outcome, dice: DiceSource, lines: list[str]) -> Campaign:
    """Damage and Injuries (p.162): every Wrecked vehicle rolls D6 plus its Dents (+1 Lightweight, -1
    Heavyweight) on the Vehicle Wrecked Table."""
    if c.kind == "savage_highways":
        return c
    table = ref("wrecked", "Vehicle Wrecked Table")
    for w in outcome.wrecks:
        t = c.team(w.team)
        index = _vehicle_index(t.team, w.label)
        if index is None:
            continue
        rec = t.record(w.label)
        (roll,) = dice.roll_d6(1)
        mod = {"lightweight": int(_d("wrecked", "lightweight")), "heavyweight": int(_d("wrecked", "heavyweight"))}
        total = roll + rec.dents + mod.get(w.weight, 0)
        row = wreck_result(total)
        rec = replace(rec, dents=max(0, rec.dents + int(row["dents"])))
        words = f"{w.label} ({t.name}) Wrecked: D6 {roll} + {rec.dents - int(row['dents'])} Dents"
        effect = row["effect"]
        vehicle = t.team.vehicles[index]
        team = t.team
        stash = t.stash
        lost = ""
        if effect == "lose_fitting":
            fittings = [("w", i) for i in range(len(vehicle.weapons))] + [("u", i) for i in range(len(vehicle.upgrades))]
            if fittings:
                kind, i = fittings[(dice.roll_d6(1)[0] - 1) % len(fittings)]
                lost = _fitting_name(vehicle.weapons[i].key if kind == "w" else vehicle.upgrades[i].key)
                vehicle = replace(vehicle, weapons=tuple(x for j, x in enumerate(vehicle.weapons)
                                                         if not (kind == "w" and j == i)),
                                  upgrades=tuple(x for j, x in enumerate(vehicle.upgrades) if not (kind == "u" and j == i)))
        elif effect == "lose_perk" and vehicle.perks:
            i = (dice.roll_d6(1)[0] - 1) % len(vehicle.perks)
            lost = _fitting_name(vehicle.perks[i])
            vehicle = replace(vehicle, perks=tuple(p for j, p in enumerate(vehicle.perks) if j != i))
        elif effect == "crew":
            rec = replace(rec, crew_lost=rec.crew_lost + 1)
        elif effect == "weakened":
            rec = replace(rec, weakened=True)
        elif effect == "favourite":
            t = replace(t, championship=t.championship + 5)
        if effect == "dead":
            team = replace(team, vehicles=tuple(v for j, v in enumerate(team.vehicles) if j != index))
            t = replace(t, team=team, vehicles=tuple(r for r in t.vehicles if r.label != w.label))
        else:
            team = replace(team, vehicles=tuple(vehicle if j == index else v for j, v in enumerate(team.vehicles)))
            t = replace(t, team=team).with_record(rec)
        t = replace(t, budget=t.cost + stash)  # a loss is for good: nothing comes back to the Stash (p.162)
        c = c.with_team(t)
        lines.append(f"{words} = {total}: {row['text']}{f' ({lost} lost)' if lost else ''} ({table})")
    return c


def _fitting_name(key: str) -> str:
    """A weapon's, upgrade's or perk's name (its key if no table knows it) for the post-game lines."""
    for table in (load_weapons(), load_upgrades(), load_perks()):
        row = table.get(key)
        if row is not None:
            return str(row.name)
    return key.replace("_", " ")


def _vehicle_index(team: Team, label: str) -> int | None:
    from simulator.gaslands.teams import vehicle_labels

    labels = vehicle_labels(team)
    for i, name in enumerate(labels):
        if name == label or label.startswith(f"{name} ("):
            return i
    return None


def _highways_after(c: Campaign, nxt: NextGame, outcome: Outcome, chosen: tuple[str, ...],
                    lines: list[str]) -> Campaign:
    """The upgrades chosen for this scenario are kept for good by a Rigger win, lost for good otherwise
    (p.168-173); Ride Eternal: Wrecked vehicles come back with 2 fewer Hull Points (p.167)."""
    riggers = next((t for t in c.teams if t.role == "riggers"), None)
    won = riggers is not None and outcome.winner == riggers.id
    if chosen:
        names = ", ".join(_upgrade_name(u) for u in chosen)
        if won:
            c = replace(c, rig_upgrades=(*c.rig_upgrades, *chosen))
            lines.append(f"The Riggers won: {names} stay on the War Rig for the rest of the campaign (p.168)")
        else:
            c = replace(c, lost_upgrades=(*c.lost_upgrades, *chosen))
            lines.append(f"The Gangers won: {names} are lost for good (p.168)")
    loss = int(_d("savage_highways", "ride_eternal_hull"))
    for w in outcome.wrecks:
        t = c.team(w.team)
        rec = t.record(w.label)
        c = c.with_team(t.with_record(replace(rec, hull_lost=rec.hull_lost + loss)))
        lines.append(f"{w.label} ({t.name}) comes back with {loss} fewer Hull Points (Ride Eternal, p.167)")
    if nxt.scenario == "long_road_home":
        side = "Riggers" if won else "Gangers"
        lines.append(f"The {side} win the Savage Highways campaign (p.175)")
    return c


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def schedule_from_rolls(rolls: Sequence[int]) -> tuple[str, ...]:
    """A Televised Schedule from D6 rolls on the Televised Event Schedule Table (p.156)."""
    table = _d("televised", "schedule_table")
    return tuple(table[str(r)] for r in rolls)


def skirmish_from_roll(roll: int) -> str:
    """A Wasteland Skirmish from a D6 on the Wasteland Skirmish Table (p.157)."""
    return str(_d("televised", "skirmish_table")[str(roll)])


def vehicle_weights() -> dict[str, str]:
    """Each vehicle type's weight class word."""
    return {k: t.weight_name for k, t in load_vehicle_types().items()}


__all__ = [
    "Campaign", "GameRecord", "NextGame", "Outcome", "PostGame", "TeamRecord", "VehicleRecord", "Wreck",
    "begin_game", "campaign_data", "game_seed", "handicap_votes", "next_game", "outcome_of", "post_game",
    "schedule_from_rolls", "skirmish_from_roll", "upgrade_choices", "wreck_result",
]
