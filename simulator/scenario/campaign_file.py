"""Campaign files (TOML): a season's teams, money and results, saved between games (p.154-175).

::

    [campaign]
    name = "Summer Season"
    kind = "televised"          # escalating | championship | televised | savage_highways
    escalating = true           # bonus Cans before each game after the first (p.154)
    championship = true         # Championship Points by place (p.155; a Televised Season has its own, p.161)
    starting_cans = 30
    bonus_cans = 10
    schedule = ["death_race", "arena_of_death", "capture_the_flag"]   # the Televised Events (p.156)
    seed = 7

    [[team]]
    id = "red"
    name = "Red Team"
    colour = "#d23c32"
    budget = 30                 # Cans the team may spend in all; the Stash is what its vehicles leave (p.162)
    championship = 0
    resistance = 0
    bot = false
    team = { team = { name = "Rust Buckets", cans = 30 }, vehicle = [...] }   # a team file inline, or a path
    records = [{ label = "Old Faithful", dents = 1, injuries = ["Deathwish"] }]

    [[game]]                    # written after each game
    number = 1
    scenario = "death_race"
    ...

:func:`load_campaign` reads and checks one (every problem named with its table and key), :func:`save_campaign`
writes it atomically. :func:`campaign_game` seats the teams in the next scenario (a bundled scenario file:
``scenarios/KEY.toml``) with what the campaign carries (Handicap votes, Hull and Crew lost, War Rig Upgrades),
and :func:`finish_game` runs the post-game sequence on a finished game. ``gaslands campaign`` drives them
(``new``, ``show``, ``play``).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Literal

import tomlkit
from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from simulator import safe_read
from simulator.atomic import write_text_atomic
from simulator.errors import InputFileError, Problem
from simulator.gaslands.campaign import (
    Campaign,
    GameRecord,
    NextGame,
    PostGame,
    TeamRecord,
    VehicleRecord,
    next_game,
    outcome_of,
    post_game,
)
from simulator.gaslands.dice import SeededDice
from simulator.gaslands.game import Game, Options
from simulator.scenario.loader import (
    Scenario,
    bundled_scenario,
    load_scenario,
    parse_scenario,
    validation_problems,
)
from simulator.scenario.setup import new_game, options_for
from simulator.scenario.team_file import parse_team, team_document

Name = Annotated[str, Strict(), Field(min_length=1, max_length=200)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RecordSpec(_Strict):
    """A vehicle's record: Dents, Injuries (p.162-163), Hull and Crew lost."""

    label: Name
    dents: Annotated[int, Strict(), Field(ge=0, le=99)] = 0
    injuries: list[Name] = Field(default_factory=list)
    hull_lost: Annotated[int, Strict(), Field(ge=0, le=99)] = 0
    crew_lost: Annotated[int, Strict(), Field(ge=0, le=9)] = 0
    weakened: bool = False


class TeamSpec(_Strict):
    """``[[team]]`` of a campaign file."""

    id: Annotated[str, Strict(), Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    name: Name
    colour: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] = "#cc3333"
    budget: Annotated[int, Strict(), Field(ge=0, le=10_000)]
    championship: Annotated[int, Strict(), Field(ge=0)] = 0
    resistance: Annotated[int, Strict(), Field(ge=0)] = 0
    bot: bool = False
    role: Literal["", "riggers", "gangers"] = ""
    team: Annotated[str, Field(max_length=4096)] | dict[str, Any]
    records: list[RecordSpec] = Field(default_factory=list)


class GameSpec(_Strict):
    """``[[game]]``: a game played."""

    number: Annotated[int, Strict(), Field(ge=1)]
    scenario: Name
    televised: bool
    seed: Annotated[int, Strict(), Field(ge=0)]
    winner: str = ""
    places: list[str] = Field(default_factory=list)
    lines: list[str] = Field(default_factory=list)


class CampaignInfo(_Strict):
    """``[campaign]``."""

    name: Name
    kind: Literal["escalating", "championship", "televised", "savage_highways"]
    escalating: bool = False
    championship: bool = False
    starting_cans: Annotated[int, Strict(), Field(ge=0, le=10_000)] = 30
    bonus_cans: Annotated[int, Strict(), Field(ge=0, le=1_000)] = 10
    schedule: list[Name] = Field(default_factory=list)
    seed: Annotated[int, Strict(), Field(ge=0)] = 1
    rig_upgrades: list[Name] = Field(default_factory=list)
    lost_upgrades: list[Name] = Field(default_factory=list)


class CampaignFile(_Strict):
    """A whole campaign file."""

    campaign: CampaignInfo
    team: Annotated[list[TeamSpec], Field(min_length=2, max_length=8)]
    game: list[GameSpec] = Field(default_factory=list)


MAX_TEAMS = 2
"""Teams in a campaign: the bundled scenarios seat two players (p.159 allows more players; not yet here)."""


def parse_campaign(raw: dict[str, Any], source: str) -> Campaign:
    """Check a parsed campaign file; raises :class:`InputFileError` naming every problem."""
    try:
        spec = CampaignFile.model_validate(raw)
    except ValidationError as exc:
        raise InputFileError(source, validation_problems(exc, raw)) from None
    problems: list[Problem] = []
    teams = []
    base = Path(source).parent if source not in ("", "<string>") else Path.cwd()
    from simulator.gaslands.objectives import scenario_specs

    known = set(scenario_specs()) | {"death_race", "street_race"}
    for i, key in enumerate(spec.campaign.schedule, 1):
        if key not in known:
            problems.append(Problem(f"campaign.schedule[{i}]", f"unknown scenario {key!r}"))
    if len(spec.team) != MAX_TEAMS:
        problems.append(Problem("team", f"{len(spec.team)} teams: a campaign here has {MAX_TEAMS} (the scenarios "
                                        "in scenarios/ seat two players)"))
    ids = [t.id for t in spec.team]
    for i, t in enumerate(spec.team, 1):
        if ids.count(t.id) > 1:
            problems.append(Problem(f"team[{i}].id", f"id {t.id!r} is used by another team"))
        try:
            team = parse_team(t.team, f"{source} (team[{i}].team)") if isinstance(t.team, dict) else \
                parse_team(safe_read.read_toml(base / t.team), str(base / t.team))
        except InputFileError as exc:
            problems += [Problem(f"team[{i}].team", p.render(exc.source)) for p in exc.problems]
            continue
        records = tuple(VehicleRecord(r.label, r.dents, tuple(r.injuries), r.hull_lost, r.crew_lost, r.weakened)
                        for r in t.records)
        record = TeamRecord(t.id, t.name, t.colour, team, t.budget, t.championship, t.resistance, records, t.bot,
                            t.role)
        if record.stash < 0:
            problems.append(Problem(f"team[{i}].team", f"the vehicles cost {record.cost} Cans, more than the budget "
                                                       f"of {t.budget}: the Stash cannot pay for that (p.164)"))
        teams.append(record)
    if problems:
        raise InputFileError(source, problems)
    c = spec.campaign
    games = tuple(GameRecord(g.number, g.scenario, g.televised, g.seed, g.winner, tuple(g.places), tuple(g.lines))
                  for g in spec.game)
    return Campaign(c.name, c.kind, tuple(teams), c.escalating, c.championship, c.starting_cans, c.bonus_cans,
                    tuple(c.schedule), games, c.seed, tuple(c.rig_upgrades), tuple(c.lost_upgrades))


def load_campaign(path: str | Path) -> Campaign:
    """Read a campaign file (size, UTF-8, TOML and every key checked); raises :class:`InputFileError`."""
    return parse_campaign(safe_read.read_toml(path), str(path))


def is_campaign(path: str | Path) -> bool:
    """Whether a TOML file is a campaign file (it has a ``[campaign]`` table)."""
    try:
        return "campaign" in safe_read.read_toml(path)
    except InputFileError:
        return False


def campaign_document(c: Campaign) -> tomlkit.TOMLDocument:
    """The campaign as a TOML document."""
    doc = tomlkit.document()
    doc.add(tomlkit.comment(f"A Gaslands campaign ({c.kind.replace('_', ' ')}, p.154-175): written by the program "
                            "after every game."))
    head = tomlkit.table()
    head["name"] = c.name
    head["kind"] = c.kind
    head["escalating"] = c.escalating
    head["championship"] = c.championship
    head["starting_cans"] = c.starting_cans
    head["bonus_cans"] = c.bonus_cans
    head["schedule"] = list(c.schedule)
    head["seed"] = c.seed
    head["rig_upgrades"] = list(c.rig_upgrades)
    head["lost_upgrades"] = list(c.lost_upgrades)
    doc["campaign"] = head
    teams = tomlkit.aot()
    for t in c.teams:
        row = tomlkit.table()
        row["id"] = t.id
        row["name"] = t.name
        row["colour"] = t.colour
        row["budget"] = t.budget
        row["championship"] = t.championship
        row["resistance"] = t.resistance
        row["bot"] = t.bot
        if t.role:
            row["role"] = t.role
        row["team"] = team_document(t.team).unwrap()
        row["records"] = [{k: v for k, v in (("label", r.label), ("dents", r.dents), ("injuries", list(r.injuries)),
                                              ("hull_lost", r.hull_lost), ("crew_lost", r.crew_lost),
                                              ("weakened", r.weakened)) if v or k == "label"} for r in t.vehicles]
        teams.append(row)
    doc["team"] = teams
    if c.games:
        games = tomlkit.aot()
        for g in c.games:
            row = tomlkit.table()
            row["number"] = g.number
            row["scenario"] = g.scenario
            row["televised"] = g.televised
            row["seed"] = g.seed
            row["winner"] = g.winner
            row["places"] = list(g.places)
            row["lines"] = list(g.lines)
            games.append(row)
        doc["game"] = games
    return doc


def save_campaign(c: Campaign, path: str | Path) -> None:
    """Write the campaign file atomically (the old one stays whole if writing fails)."""
    write_text_atomic(path, tomlkit.dumps(campaign_document(c)))


# --------------------------------------------------------------------------- a game of the campaign


def scenario_path(key: str) -> Path:
    """The bundled scenario file of a scenario key (``scenarios/KEY.toml``)."""
    return bundled_scenario(f"{key}.toml")


def seated(c: Campaign, nxt: NextGame, upgrades: tuple[str, ...] = ()) -> Scenario:
    """The next scenario with the campaign's teams in its players' seats (p.159): each team inline, bots as the
    campaign says, the Handicap votes, the Hull and Crew lost for good, the War Rig Upgrades (p.167). Extra seats
    of the file are left out with their vehicles, spawn points and tokens; raises ``ValueError`` if the file seats
    fewer players than the campaign has teams."""
    base = load_scenario(scenario_path(nxt.scenario))
    raw = copy.deepcopy(base.raw)
    players = raw.get("player", [])
    if len(players) < len(c.teams):
        raise ValueError(f"{base.name} seats {len(players)} players; the campaign has {len(c.teams)} teams")
    order = list(c.teams)
    if c.kind == "savage_highways":
        order = sorted(order, key=lambda t: [p.get("role", "") for p in players].index(t.role)
                       if t.role in [p.get("role", "") for p in players] else 99)
    kept = players[:len(order)]
    gone = {p["id"] for p in players[len(order):]}
    for seat, t in zip(kept, order, strict=True):
        seat["name"] = t.name
        seat["colour"] = t.colour
        seat["bot"] = t.bot
        seat["team"] = team_document(t.team).unwrap()
        votes = nxt.votes_of(t.id)
        if votes:
            seat["votes"] = votes
        hull = {r.label: r.hull_lost for r in t.vehicles if r.hull_lost}
        crew = {r.label: r.crew_lost for r in t.vehicles if r.crew_lost}
        if hull:
            seat["hull_lost"] = hull
        if crew:
            seat["crew_lost"] = crew
    raw["player"] = kept
    for key in ("vehicle", "spawn"):
        raw[key] = [x for x in raw.get(key, []) if x.get("player") not in gone]
    raw["token"] = [x for x in raw.get("token", []) if x.get("owner", "") not in gone]
    if c.kind == "savage_highways":
        options = raw.setdefault("options", {})
        options["rig_upgrades"] = list(dict.fromkeys((*nxt.rig_upgrades, *upgrades)))
    if raw.get("scenario", {}).get("pole_position") in gone:
        raw["scenario"].pop("pole_position")
    return parse_scenario(raw, str(scenario_path(nxt.scenario)), base.template_set)


def campaign_game(c: Campaign, nxt: NextGame, upgrades: tuple[str, ...] = (), round_limit: int | None = None) -> Game:
    """A new game of the campaign's next scenario (see :func:`seated`), with its seed."""
    scenario = seated(c, nxt, upgrades)
    return new_game(scenario, nxt.seed, options_for(scenario, Options(round_limit=round_limit)))


def team_of_player(c: Campaign, game: Game) -> tuple[str, ...]:
    """Each seat's team id, by name (the seats carry the teams' names)."""
    names = {t.name: t.id for t in c.teams}
    return tuple(names.get(p, "") for p in game.state.players)


def finish_game(c: Campaign, nxt: NextGame, game: Game, resistance: frozenset[str] = frozenset(),
                upgrades: tuple[str, ...] = ()) -> PostGame:
    """The post-game sequence of a finished game (p.161-164, p.167-175), its dice seeded by the game's seed."""
    objective = game.options.objective
    scores = objective.rules.score(game.state) if objective.active else ()
    outcome = outcome_of(game.state, game.log, team_of_player(c, game), scores)
    return post_game(c, nxt, outcome, SeededDice(nxt.seed + 1), resistance, upgrades)


def new_campaign(name: str, kind: str, teams: list[TeamRecord], schedule: tuple[str, ...] = (), seed: int = 1,
                 escalating: bool = False, championship: bool = False, starting_cans: int = 30,
                 bonus_cans: int = 10) -> Campaign:
    """A campaign before its first game."""
    if kind not in ("escalating", "championship", "televised", "savage_highways"):
        raise ValueError(f"unknown campaign kind {kind!r}: escalating, championship, televised or savage_highways")
    return Campaign(name, kind, tuple(teams), escalating or kind == "escalating",  # type: ignore[arg-type]
                    championship or kind == "championship", starting_cans, bonus_cans, schedule, (), seed)


def bot_resistance(c: Campaign, places: tuple[str, ...]) -> frozenset[str]:
    """Teams a bot would have contact the Resistance: those that came last."""
    if not places or c.kind != "televised":
        return frozenset()
    return frozenset({places[-1]})


def default_upgrades(c: Campaign, nxt: NextGame) -> tuple[str, ...]:
    """The War Rig Upgrades a bot picks: the first that may be chosen, as many as asked (p.167)."""
    from simulator.gaslands.campaign import upgrade_choices

    return upgrade_choices(c, nxt)[:nxt.choose_upgrades]


__all__ = [
    "MAX_TEAMS",
    "CampaignFile", "bot_resistance", "campaign_document", "campaign_game", "default_upgrades", "finish_game",
    "is_campaign", "load_campaign", "new_campaign", "next_game", "parse_campaign", "save_campaign", "scenario_path",
    "seated", "team_of_player", "replace",
]
