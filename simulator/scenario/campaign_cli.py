"""``gaslands campaign new|show|play``: start a campaign file, read it, play its next game (p.154-175).

``play --bots`` plays the next game headless and writes the campaign file (atomically) with the post-game
sequence applied; without ``--bots`` the window opens on the campaign (its pre-game screen, the game, its
post-game screen), and the file is written when the post-game sequence is confirmed there.
"""

from __future__ import annotations

import sys
from pathlib import Path

from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.campaign import (
    Campaign,
    TeamRecord,
    next_game,
    schedule_from_rolls,
)
from simulator.gaslands.dice import SeededDice
from simulator.gaslands.team_builder import build_team
from simulator.gaslands.teams import Fitting, Team, TeamVehicle
from simulator.scenario.campaign_file import (
    bot_resistance,
    campaign_game,
    default_upgrades,
    finish_game,
    load_campaign,
    new_campaign,
    save_campaign,
)

COLOURS = ("#d23c32", "#2f6fd6", "#3aa655", "#e0b020")
NAMES = ("Red Team", "Blue Team", "Green Team", "Yellow Team")


def riggers_team(cans: int) -> Team:
    """A Riggers' team for Savage Highways (p.166): the War Rig, armed, and an escort."""
    return Team("Riggers", None, cans, (
        TeamVehicle("war_rig", "The War Rig", (Fitting("heavy_machine_gun", "front"), Fitting("machine_gun", "rear"))),
        TeamVehicle("car", "Outrider", (Fitting("machine_gun", "front"),)),
        TeamVehicle("buggy", "Scout", (Fitting("machine_gun", "front"),)),
    ))


def starting_teams(kind: str, n: int, cans: int, seed: int, bots: bool) -> list[TeamRecord]:
    """Bot-built teams of ``cans`` (p.159; Savage Highways: Riggers 80, Gangers 120, p.166)."""
    if kind == "savage_highways":
        rig = riggers_team(80)
        gang = build_team(None, 120, seed=seed, name="Gangers")
        return [TeamRecord("riggers", "Riggers", COLOURS[0], rig, 80, bot=bots, role="riggers"),
                TeamRecord("gangers", "Gangers", COLOURS[1], gang, 120, bot=bots, role="gangers")]
    n = max(2, min(4, n))
    return [TeamRecord(NAMES[i].split()[0].lower(), NAMES[i], COLOURS[i],
                       build_team(None, cans, seed=seed + i, name=NAMES[i]), cans, bot=bots) for i in range(n)]


def new(path: Path, kind: str, teams: int, events: int, cans: int, seed: int, bots: bool, force: bool) -> int:
    """Write a new campaign file; its Televised Schedule is rolled on the table of p.156."""
    if path.exists() and not force:
        print(f"gaslands: {path} exists: add --force to replace it", file=sys.stderr)
        return 2
    dice = SeededDice(seed)
    if kind == "televised":
        schedule = schedule_from_rolls(dice.roll_d6(max(1, events)))
    elif kind == "savage_highways":
        schedule = ()
    else:
        schedule = tuple("death_race" if i % 2 == 0 else "arena_of_death" for i in range(max(1, events)))
    c = new_campaign(path.stem.replace("_", " ").title(), kind, starting_teams(kind, teams, cans, seed, bots),
                     schedule, seed, starting_cans=cans)
    save_campaign(c, path)
    print(f"wrote {path}")
    show_campaign(c)
    return 0


def show_campaign(c: Campaign) -> None:
    """Print the campaign's standings, schedule and games."""
    print(f"{c.name}: a {c.kind.replace('_', ' ')} campaign, {len(c.games)} game(s) played")
    if c.schedule:
        print("schedule: " + ", ".join(f"{'*' if i < c.events_played else ''}{k}" for i, k in enumerate(c.schedule)))
    for t in c.standings():
        role = f" ({t.role})" if t.role else ""
        print(f"  {t.name}{role}: {t.championship} Championship Points, {t.stash} Cans in the stash, "
              f"{len(t.team.vehicles)} vehicles")
    for g in c.games:
        won = next((t.name for t in c.teams if t.id == g.winner), "nobody")
        print(f"game {g.number}: {g.scenario} ({'televised' if g.televised else 'not televised'}), won by {won}")
    if c.kind == "savage_highways" and (c.rig_upgrades or c.lost_upgrades):
        print(f"War Rig Upgrades kept: {', '.join(c.rig_upgrades) or 'none'}; lost: {', '.join(c.lost_upgrades) or 'none'}")
    if c.over:
        champion = c.champion()
        print("the campaign is over" + (f": {champion} is the Gaslands Season Champion (p.158)" if champion else ""))


def show(path: Path) -> int:
    show_campaign(load_campaign(path))
    return 0


def play(path: Path, skirmish: str, bots: bool, round_limit: int) -> int:
    """Play the next game (see the module docstring)."""
    c = load_campaign(path)
    if c.over:
        show_campaign(c)
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
    show_campaign(post.campaign)
    return 0
