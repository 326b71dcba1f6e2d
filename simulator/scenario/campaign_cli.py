"""``gaslands campaign new|show|play``: start a campaign file, read it, play its next game (p.154-175).

``play --bots`` plays the next game headless and writes the campaign file (atomically) with the post-game
sequence applied; without ``--bots`` the window opens on the campaign (its pre-game screen, the game, its
post-game screen), and the file is written when the post-game sequence is confirmed there.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from simulator.errors import InputFileError, Problem, SimulatorError
from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.campaign import (
    Campaign,
    TeamRecord,
    next_game,
    schedule_from_rolls,
)
from simulator.gaslands.dice import SeededDice
from simulator.gaslands.team_builder import build_team
from simulator.gaslands.teams import Fitting, Team, TeamVehicle, check, vehicle_labels
from simulator.scenario.campaign_file import (
    MAX_TEAMS,
    bot_resistance,
    campaign_game,
    default_upgrades,
    finish_game,
    load_campaign,
    new_campaign,
    save_campaign,
    scenario_path,
)
from simulator.scenario.loader import read_toml
from simulator.scenario.team_file import load_team, team_id

COLOURS = ("#d23c32", "#2f6fd6", "#3aa655", "#e0b020")
NAMES = ("Red Team", "Blue Team", "Green Team", "Yellow Team")


def riggers_team(cans: int) -> Team:
    """A Riggers' team for Savage Highways (p.166): the War Rig, armed, and an escort."""
    return Team("Riggers", None, cans, (
        TeamVehicle("war_rig", "The War Rig", (Fitting("heavy_machine_gun", "front"), Fitting("machine_gun", "rear"))),
        TeamVehicle("car", "Outrider", (Fitting("machine_gun", "front"),)),
        TeamVehicle("buggy", "Scout", (Fitting("machine_gun", "front"),)),
    ))


def own_team(path: Path, i: int, role: str = "") -> TeamRecord:
    """A player's team file as a campaign team (its Cans the team's budget, p.159); raises
    :class:`InputFileError` naming the file when it cannot be read or breaks a rule of team building."""
    team = load_team(path)
    report = check(team)
    if not report.legal:
        raise InputFileError(str(path), [Problem(p.vehicle or "team", f"{p.rule} ({p.page})")
                                         for p in report.problems])
    if role == "riggers" and not any(v.type == "war_rig" for v in team.vehicles):
        raise InputFileError(str(path), [Problem("vehicle", "the Riggers' team needs a War Rig (p.166)")])
    return TeamRecord(team_id(team.name) or f"team{i + 1}", team.name, COLOURS[i % len(COLOURS)], team, team.cans,
                      role=role)


def starting_teams(kind: str, n: int, cans: int, seed: int, bots: bool, team_files: Sequence[Path] = (),
                   sponsors: Sequence[str | None] = ()) -> list[TeamRecord]:
    """The campaign's teams: the players' team files first, then bot-built teams of ``cans`` (p.159; Savage
    Highways: Riggers 80, Gangers 120, p.166) with the ``sponsors`` in turn (none: no sponsor). Ids are made
    unique; ``bots`` lets the bots drive every team."""
    if kind == "savage_highways":
        rig = own_team(team_files[0], 0, "riggers") if team_files else \
            TeamRecord("riggers", "Riggers", COLOURS[0], riggers_team(80), 80, role="riggers")
        gang = own_team(team_files[1], 1, "gangers") if len(team_files) > 1 else \
            TeamRecord("gangers", "Gangers", COLOURS[1], build_team(None, 120, seed=seed, name="Gangers"), 120,
                       role="gangers")
        records = [rig, gang]
    else:
        records = [own_team(f, i) for i, f in enumerate(team_files)]
        for i in range(len(records), max(2, min(4, n), len(records))):
            sponsor = sponsors[(i - len(team_files)) % len(sponsors)] if sponsors else None
            records.append(TeamRecord(NAMES[i].split()[0].lower(), NAMES[i], COLOURS[i % len(COLOURS)],
                                      build_team(sponsor, cans, seed=seed + i, name=NAMES[i]), cans))
    seen: set[str] = set()
    out = []
    for r in records:
        rid = r.id
        k = 2
        while rid in seen:
            rid, k = f"{r.id}_{k}", k + 1
        seen.add(rid)
        out.append(replace(r, id=rid, bot=bots))
    return out


def new(path: Path, kind: str, teams: int, events: int, cans: int, seed: int, bots: bool, force: bool,
        team_files: Sequence[Path] = (), sponsors: Sequence[str | None] = ()) -> int:
    """Write a new campaign file; its Televised Schedule is rolled on the table of p.156."""
    if path.exists() and not force:
        print(f"gaslands: {path} exists: add --force to replace it", file=sys.stderr)
        return 2
    if len(team_files) > MAX_TEAMS or teams != MAX_TEAMS:
        print(f"gaslands: a campaign has {MAX_TEAMS} teams for now (the scenarios in scenarios/ seat two players): "
              f"not {max(teams, len(team_files))}", file=sys.stderr)
        return 2
    dice = SeededDice(seed)
    if kind == "televised":
        schedule = schedule_from_rolls(dice.roll_d6(max(1, events)))
    elif kind == "savage_highways":
        schedule = ()
    else:
        schedule = tuple("death_race" if i % 2 == 0 else "arena_of_death" for i in range(max(1, events)))
    c = new_campaign(path.stem.replace("_", " ").title(), kind,
                     starting_teams(kind, teams, cans, seed, bots, team_files, sponsors), schedule, seed,
                     starting_cans=cans)
    save_campaign(c, path)
    print(f"wrote {path}")
    show_campaign(c, path)
    return 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def show_campaign(c: Campaign, path: Path | None = None) -> None:
    """Print the campaign's standings, schedule, games and what comes next (with the commands for it)."""
    print(f"{c.name}: {KIND_NAMES.get(c.kind, c.kind)}, {_plural(len(c.games), 'game')} played")
    if c.schedule:
        print("Televised Schedule: " + ", ".join(f"{scenario_name(k)}{' (played)' if i < c.events_played else ''}"
                                                 for i, k in enumerate(c.schedule)))
    for t in c.standings():
        row = t.team.sponsor_row
        role = f" ({t.role.title()})" if t.role and t.role.title() != t.name else \
            f" ({row.name})" if row is not None else ""
        points = "" if c.kind == "savage_highways" else f"{t.championship} Championship Points, "
        names = ", ".join(f"{r}{f' ({d} Dents)' if d else ''}"
                          for r, d in ((label, t.record(label).dents) for label in vehicle_labels(t.team)))
        print(f"  {t.name}{role}{' [bot]' if t.bot else ''}: {points}"
              f"{t.stash} Cans in the Stash; {_plural(len(t.team.vehicles), 'vehicle')}: {names or 'none'}")
    for g in c.games:
        won = next((t.name for t in c.teams if t.id == g.winner), "nobody")
        kind_of_game = "Savage Highways" if c.kind == "savage_highways" else \
            "Televised Event" if g.televised else "Wasteland Skirmish"
        print(f"game {g.number}: {scenario_name(g.scenario)} ({kind_of_game}), won by {won}")
    if c.kind == "savage_highways" and (c.rig_upgrades or c.lost_upgrades):
        print(f"War Rig Upgrades kept: {', '.join(upgrade_name(u) for u in c.rig_upgrades) or 'none'}; "
              f"lost: {', '.join(upgrade_name(u) for u in c.lost_upgrades) or 'none'}")
    if c.over:
        champion = c.champion()
        last = next((t.name for t in c.teams if c.games and t.id == c.games[-1].winner), "")
        if c.kind == "savage_highways":
            print("the campaign is over" + (f": {last} won the last leg (p.173)" if last else ""))
        else:
            print("the campaign is over" + (f": {champion} is the Gaslands Season Champion (p.158)" if champion else ""))
        return
    nxt = next_game(c)
    print(f"next: {nxt.lines[0] if nxt.lines else scenario_name(nxt.scenario)}")
    if path is not None:
        print(f"  play it in the window: gaslands play {path}   (bots only: gaslands campaign play {path} --bots)")


def upgrade_name(key: str) -> str:
    """A War Rig Upgrade's name from its key (``hangers_on`` -> ``Hangers On``, p.167)."""
    return key.replace("_", " ").title()


KIND_NAMES = {"escalating": "an Escalating Season (p.154)", "championship": "a Championship Season (p.155)",
              "televised": "a Televised Season (p.156-164)", "savage_highways": "the Savage Highways campaign (p.165-175)"}


def scenario_name(key: str) -> str:
    """A scenario's name from its file in scenarios/ (its key if there is none)."""
    try:
        return str(read_toml(scenario_path(key))["scenario"]["name"])
    except (OSError, SimulatorError, KeyError, TypeError):
        return key.replace("_", " ").title()


def show(path: Path) -> int:
    show_campaign(load_campaign(path), path)
    return 0


def play(path: Path, skirmish: str, bots: bool, round_limit: int) -> int:
    """Play the next game (see the module docstring)."""
    c = load_campaign(path)
    if c.over:
        show_campaign(c, path)
        return 0
    if not bots:
        from simulator.ui.campaign_window import run_campaign_window

        run_campaign_window(path)
        return 0
    nxt = next_game(c, skirmish)
    print("\n".join(nxt.lines))
    upgrades = default_upgrades(c, nxt)
    game = campaign_game(c, nxt, upgrades, round_limit)
    play_bot_game(game, Bot(), 20_000)
    print(f"  {game.prompt.kind.replace('_', ' ')}: {getattr(game.prompt, 'reason', '')}")
    post = finish_game(c, nxt, game, bot_resistance(c, ()), upgrades)
    for line in post.lines:
        print(f"  {line}")
    save_campaign(post.campaign, path)
    show_campaign(post.campaign, path)
    return 0
