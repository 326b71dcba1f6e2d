"""Setting up a game from a scenario file: players, vehicles, weapons, Pole Position, race rules.

:func:`new_game` is the one call a front end needs::

    scenario = load_scenario("scenarios/street_race.toml")
    game = new_game(scenario, seed=7)
    game.prompt          # what to decide next
    game.decide(...)     # answer it

Players are the file's ``[[player]]`` tables in order (clockwise, p.19);
vehicles are its ``[[vehicle]]`` tables with their type's statistics (p.66,
p.68), size overrides, starting gear, Hazard Tokens and weapons with their
arcs (p.28-30). Pole Position (p.62, p.125) goes to the player named by the
scenario's ``pole_position`` or else to the winner of a roll-off made with
the game's seed. The race rules come from ``[scenario].kind`` and the file's
gates (:func:`course_for`): a Street Race passes Pole Position clockwise every
Gear Phase (p.62); a Death Race passes it at gates instead (p.125), keeps
weapons inactive until Gate 1 (p.127) and finishes at its last gate (p.128);
its vehicles start off the table and are deployed to the Starting Grid as the
game's first decisions (p.126; ``[options] starting_grid = false`` keeps the
file's positions). A player with a ``team`` (docs/teams.md) fields its vehicles
instead of the file's; then every vehicle of the race, of either kind, is
placed on the Starting Grid behind the start line by the players in turn
(p.62, p.126).

Errors: a scenario without players, or with a vehicle of no player, raises
:class:`~simulator.errors.InputFileError` naming the key.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from simulator import safe_read
from simulator.errors import InputFileError, Problem
from simulator.gaslands.dice import SeededDice
from simulator.gaslands.game import Game, Options, Origin
from simulator.gaslands.grid import FINGER_WIDTH_MM
from simulator.gaslands.objectives import NO_OBJECTIVE, Objective
from simulator.gaslands.race import Course
from simulator.gaslands.round import RoundState
from simulator.gaslands.state import GameState, Loadout, Mount, Status, VehicleState
from simulator.gaslands.table_referee import Shooting, TableReferee
from simulator.gaslands.teams import Team, check, vehicle_in_play, vehicle_labels
from simulator.gaslands.tokens import ScenarioState, SpawnPoint, Token
from simulator.geometry.templates import load_template_set
from simulator.scenario.loader import Scenario, parse_scenario
from simulator.scenario.team_file import team_document, team_id
from simulator.vocab import plural

DEFAULT_ROUND_LIMIT = None
"""Games a person plays have no round limit; bots and simulations set one."""


def course_for(scenario: Scenario) -> Course:
    """The race rules of ``scenario`` (p.62, p.124-128).

    Death Race: the gates in ascending ``number``; the last one is the Finish
    Line (a loop reuses the Starting Line gate by numbering it last).
    """
    kind = scenario.spec.scenario.kind
    if kind == "death_race":
        gates = tuple(g.id for g in sorted(scenario.spec.gate, key=lambda g: g.number))
        return Course("death_race", gates, weapons_from_gate=1, pole_at_gates=True)
    if kind == "street_race":
        return Course("street_race")
    return Course("sandbox")


def objective_for(scenario: Scenario) -> Objective:
    """The scenario rules of ``scenario`` (p.122-175), or none for a race or a free table."""
    key = scenario.spec.scenario.rules
    return Objective(key) if key else NO_OBJECTIVE


def options_for(scenario: Scenario, options: Options | None = None) -> Options:
    """``options`` (default: the defaults) with the scenario's race rules filled in; a scenario with rules
    (p.130-175) deploys by its spawn points (or as the file places the vehicles), passes Pole Position as
    its data says, and uses Audience Votes when its data does (unless ``[options]`` says otherwise)."""
    course = course_for(scenario)
    spec = scenario.spec.options
    objective = objective_for(scenario)
    votes_default = objective.spec.audience_votes if objective.active else False
    base = options or Options(round_limit=DEFAULT_ROUND_LIMIT, audience_votes=bool(spec.get("audience_votes",
                                                                                            votes_default)))
    if objective.active:
        rules = objective.spec
        votes = bool(spec.get("audience_votes", rules.audience_votes or base.audience_votes))
        return replace(base, course=course, pass_pole_each_phase=rules.pole != "fixed",
                       starting_grid=rules.deployment == "spawn" or bool(scenario.teams), audience_votes=votes,
                       objective=objective)
    grid = (course.kind == "death_race" and bool(spec.get("starting_grid", True))) or bool(scenario.teams)
    finish = spec.get("finish_line", base.finish_line)
    return replace(base, course=course, pass_pole_each_phase=course.kind != "death_race", starting_grid=grid,
                   finish_line="touch" if finish == "touch" else "centre")


def starting_state(scenario: Scenario, seed: int, options: Options, pole: int | None = None) -> GameState:
    """:func:`initial_state`, with every vehicle off the table waiting for the Starting Grid when
    ``options.starting_grid`` (Death Race, p.126): players deploy them as the game's first decisions."""
    state = initial_state(scenario, seed, pole)
    if not options.starting_grid:
        return state
    if options.objective.active and options.objective.spec.deployment == "file":
        return state  # the file's vehicles stand where it puts them; a team's wait to be placed (p.168)
    neutral = len(state.players)
    return replace(state, vehicles=tuple(replace(v, status=Status.UNDEPLOYED) if v.player < neutral else v
                                         for v in state.vehicles))


def _pole(scenario: Scenario, seed: int) -> int:
    ids = [p.id for p in scenario.spec.player]
    named = scenario.spec.scenario.pole_position
    if named in ids:
        return ids.index(named)
    return random.Random(f"pole-position/{seed}").randrange(len(ids))


def pole_position(scenario: Scenario, seed: int) -> int:
    """The player index that starts with Pole Position (p.62, p.125): the scenario's ``pole_position``, or the
    winner of a roll-off made with ``seed``."""
    return _pole(scenario, seed)


def initial_state(scenario: Scenario, seed: int, pole: int | None = None) -> GameState:
    """The state before the first decision: vehicles as deployed in the file, Gear Phase 1 of round 1.

    ``pole`` (a player index) gives Pole Position without the seed's roll-off: a client of an online game
    builds the same state as the server without ever knowing the seed (docs/online.md). Raises
    ``ValueError`` if it is not a player's index.

    A player with a ``team`` (docs/teams.md) fields that team's vehicles instead of
    the file's: built to their statistics, weapons, upgrades and perks
    (:func:`~simulator.gaslands.teams.vehicle_in_play`), waiting off the table
    for the Starting Grid (p.62, p.126), with their :class:`Loadout`.
    """
    spec = scenario.spec
    if not spec.player:
        raise InputFileError(scenario.source, [Problem("player", "a game needs at least one [[player]]")])
    ids = [p.id for p in spec.player]
    problems: list[Problem] = []
    vehicles: list[VehicleState] = []
    loadouts: list[Loadout] = []
    for i, v in enumerate(spec.vehicle, 1):
        if v.player not in ids:
            problems.append(Problem(f"vehicle[{i}].player", "every vehicle in a game needs a [[player]]"))
            continue
        if v.player in scenario.teams:
            continue
        piece = scenario.table.vehicle(v.id)
        mounts = tuple(Mount.fitted(w.type, w.arc, w.mount) for w in v.weapons)
        state = VehicleState.new(v.id, ids.index(v.player), v.type, piece.pose, mounts)
        state = replace(state, length_mm=piece.length_mm, width_mm=piece.width_mm,
                        trailer_length_mm=piece.trailer_length_mm, trailer_width_mm=piece.trailer_width_mm,
                        bend_deg=piece.bend_deg,
                        gear=min(v.gear, state.max_gear), hazards=v.hazard_tokens, reversing=v.reversing,
                        name=v.name or v.id)
        if v.hull is not None:
            state = replace(state, hull=max(1, v.hull))
        vehicles.append(state)
    if problems:
        raise InputFileError(scenario.source, problems)
    taken = {v.id for v in vehicles}
    for p, player in enumerate(spec.player):
        team = scenario.teams.get(player.id)
        if team is None:
            continue
        for k, label in enumerate(vehicle_labels(team)):
            vid = _unique(f"{player.id}-{team_id(label)}", taken)
            state, loadout = vehicle_in_play(team, k, vid, p)
            vehicles.append(state)
            loadouts.append(loadout)
    names = tuple(p.name or p.id for p in spec.player)
    if pole is not None and not 0 <= pole < len(names):
        raise ValueError(f"Pole Position must go to a player 0-{len(names) - 1}, not {pole}")
    first = _pole(scenario, seed) if pole is None else pole
    labels = Counter(v.label for v in vehicles)
    built = {k.vehicle for k in loadouts}
    vehicles = [replace(v, name=f"{v.label} ({names[v.player]})") if labels[v.label] > 1 and v.id in built else v
                for v in vehicles]
    sides, side_names = _sides(scenario)
    vehicles = _campaign_seats(scenario, vehicles)
    votes = tuple(p.votes for p in spec.player) if any(p.votes for p in spec.player) else ()
    return GameState(names, tuple(vehicles), RoundState.start(len(names), first),
                     grid_columns=_street_grid_columns(scenario, vehicles), loadouts=tuple(loadouts),
                     scenario=_scenario_state(scenario), sides=sides, side_names=side_names, votes=votes)


def _campaign_seats(scenario: Scenario, vehicles: list[VehicleState]) -> list[VehicleState]:
    """What a campaign carries into a game (p.162, p.167): Hull and Crew lost for good; a team's War Rig stands
    where the file's War Rig does when the file places the vehicles (Savage Highways, p.168-173)."""
    spec = scenario.spec
    out = []
    file_rigs = {v.player: scenario.table.vehicle(v.id).pose for v in spec.vehicle if v.type == "war_rig"}
    ids = [p.id for p in spec.player]
    placed_by_file = bool(spec.scenario.rules) and objective_for(scenario).spec.deployment == "file"
    for v in vehicles:
        if 0 <= v.player < len(spec.player):
            seat = spec.player[v.player]
            label = v.name.split(" (")[0]
            hull = seat.hull_lost.get(label, 0)
            crew = seat.crew_lost.get(label, 0)
            if hull or crew:
                v = replace(v, hull=max(1, v.hull - hull), crew=max(1, v.crew - crew))
            if placed_by_file and v.type_key == "war_rig" and v.status is Status.UNDEPLOYED and \
                    ids[v.player] in file_rigs and ids[v.player] in scenario.teams:
                v = replace(v, pose=file_rigs[ids[v.player]], status=Status.ACTIVE)
        out.append(v)
    return out


def team_warnings(scenario: Scenario) -> list[str]:
    """One sentence per seated team that breaks a rule of team building (p.63-65, p.91-115), naming the
    player, the team and every problem ``gaslands team check`` finds (vehicle, rule, page); empty when every
    team is legal. Such a team is still seated (a house team is the players' choice); the window and
    ``gaslands play`` show these first."""
    out: list[str] = []
    for player in scenario.spec.player:
        team = scenario.teams.get(player.id)
        if team is None:
            continue
        report = check(team)
        if report.legal:
            continue
        problems = "; ".join(f"{p.vehicle + ': ' if p.vehicle else ''}{p.rule} ({p.page})" for p in report.problems)
        count = len(report.problems)
        out.append(f"{player.name or player.id}'s team {team.name!r} is not legal ({plural(count, 'problem')}, "
                   f"gaslands team check): {problems}")
    return out


def _sides(scenario: Scenario) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Team Games (p.123): each player's team index and the teams' names, from ``[[player]] side``; empty
    when no player names a side."""
    players = scenario.spec.player
    if not any(p.side for p in players):
        return (), ()
    names: list[str] = []
    sides: list[int] = []
    for p in players:
        name = p.side or p.name or p.id
        if name not in names:
            names.append(name)
        sides.append(names.index(name))
    return tuple(sides), tuple(names)


def _scenario_state(scenario: Scenario) -> ScenarioState:
    """The spawn points, tokens, sites and roles of a scenario file (p.130-175)."""
    spec = scenario.spec
    ids = [p.id for p in spec.player]
    spawns = tuple(SpawnPoint(ids.index(sp.player), sp.x_mm, sp.y_mm) for sp in spec.spawn if sp.player in ids)
    tokens: list[Token] = []
    state = ScenarioState(spawns=spawns, points=(0,) * len(ids) if spec.scenario.rules else ())
    counters: dict[str, int] = {}
    for t in spec.token:
        counters[t.kind] = counters.get(t.kind, 0) + 1
        tid = t.id or f"{t.kind}-{counters[t.kind]}"
        radius = t.radius_mm if t.radius_mm is not None else _token_radius(t.kind)
        token = Token(tid, t.kind, t.x_mm, t.y_mm, radius, ids.index(t.owner) if t.owner in ids else -1,
                      t.carrier, _token_obstacle(t.kind), label=t.label)
        tokens.append(token)
    state = replace(state, tokens=tuple(tokens), made=len(tokens))
    for k, site in enumerate(spec.site, 1):
        state = state.with_note(f"site:{site.kind}:{k:03d}", f"{site.x_mm:g},{site.y_mm:g}")
    for i, p in enumerate(spec.player):
        if p.role:
            state = state.with_note(f"role:{i}", p.role)
    for key, edge in spec.scenario.edges.items():
        state = state.with_note(f"edge:{key}", ",".join(edge) if isinstance(edge, list) else edge)
    upgrades = spec.options.get("rig_upgrades", [])
    if upgrades:
        state = state.with_note("rig_upgrades", ",".join(upgrades))
    return state


def _token_radius(kind: str) -> float:
    """A token kind's usual size: flags and crates about 30 mm across, zombies 20 mm, turrets 40 mm (p.131-146)."""
    from simulator.gaslands.tokens import TOKEN_RADIUS_MM

    return {"zombie": 10.0, "gun_turret": 20.0, "rocket_turret": 20.0, "toxic_cloud": 60.0}.get(kind, TOKEN_RADIUS_MM)


def _token_obstacle(kind: str) -> str:
    """The weight of the Destructible obstacle a token kind is ("" for a marker): Flag Tag flags are
    Lightweight (p.132), turrets Middleweight (p.130, p.146)."""
    return {"tag_flag": "lightweight", "gun_turret": "middleweight", "rocket_turret": "middleweight"}.get(kind, "")


def _street_grid_columns(scenario: Scenario, vehicles: Sequence[VehicleState]) -> int:
    """A Street Race with teams lines its vehicles up along the whole start line (p.62): as many columns as fit
    (at least one per player); 0 (one per player, p.126) otherwise."""
    start = next((line for line in scenario.table.lines if line.kind == "start"), None)
    if not scenario.teams or scenario.spec.scenario.kind != "street_race" or start is None or not vehicles:
        return 0
    cell = max(v.width_mm for v in vehicles) + FINGER_WIDTH_MM
    return max(len(scenario.spec.player), int(start.segment.length // cell))


def _unique(wanted: str, taken: set[str]) -> str:
    """``wanted`` cut to an id's 64 characters, with ``-2``, ``-3``... if already taken."""
    base = wanted[:60]
    vid, n = base, 1
    while vid in taken:
        n += 1
        vid = f"{base}-{n}"
    taken.add(vid)
    return vid


def with_teams(scenario: Scenario, teams: Mapping[str, Team], names: Mapping[str, str] | None = None) -> Scenario:
    """``scenario`` with these players' teams (by player id) in place of theirs or of their file vehicles;
    the teams are written inline into its text, so a save holds them (docs/teams.md). ``names``: new names
    for players (by id), shown in the game and saved with it."""
    raw = copy.deepcopy(scenario.raw)
    chosen = {**scenario.teams, **teams}
    for entry in raw.get("player", []):
        if isinstance(entry, dict) and entry.get("id") in chosen:
            entry["team"] = team_document(chosen[entry["id"]]).unwrap()
        if isinstance(entry, dict) and names and entry.get("id") in names:
            entry["name"] = names[entry["id"]]
    return parse_scenario(raw, scenario.source, scenario.template_set)


def scenario_text(scenario: Scenario) -> str:
    """The scenario file's text (re-read from its source), for saves; with its players' teams written inline
    when they come from team files (so the save replays without them)."""
    import tomlkit

    custom_set = scenario.template_set is not load_template_set() and scenario.template_set.document is not None
    if any(isinstance(p.team, str) for p in scenario.spec.player):
        raw = with_teams(scenario, scenario.teams).raw
    else:
        path = Path(scenario.source)
        if path.is_file() and not scenario.teams and not custom_set:
            return safe_read.read_text(path)  # as the loader read it: UTF-8, no byte-order mark
        raw = scenario.raw
    if custom_set and isinstance(raw.get("table"), dict):
        # The set in play (the scenario's file, or one given with --template-set) written inline.
        assert scenario.template_set.document is not None
        raw = {**raw, "table": {**raw["table"], "template_set": dict(scenario.template_set.document)}}
    return tomlkit.dumps(raw)


def new_game(scenario: Scenario, seed: int, options: Options | None = None,
             shooting: Shooting | None = None) -> Game:
    """A new game of ``scenario`` with dice seeded by ``seed`` (see the module docstring)."""
    referee = TableReferee(scenario.table, scenario.template_set, shooting)
    chosen = options_for(scenario, options)
    game = Game(starting_state(scenario, seed, chosen), SeededDice(seed), referee, scenario.template_set, chosen)
    game.origin = Origin(scenario_text(scenario), scenario.source, seed)
    return game
