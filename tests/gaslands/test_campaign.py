"""Campaigns (p.154-175) by example: the tables with their pages, a post-game sequence worked by hand, a
Televised Season played game after game with its file saved between games, and Savage Highways' branches."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from simulator.errors import InputFileError
from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.campaign import (
    NextGame,
    Outcome,
    TeamRecord,
    Wreck,
    handicap_votes,
    next_game,
    post_game,
    schedule_from_rolls,
    upgrade_choices,
    wreck_result,
)
from simulator.gaslands.dice import ScriptedDice
from simulator.gaslands.teams import Fitting, Team, TeamVehicle
from simulator.scenario.campaign_cli import riggers_team
from simulator.scenario.campaign_file import (
    campaign_game,
    finish_game,
    load_campaign,
    new_campaign,
    save_campaign,
    seated,
)

CAR = TeamVehicle("car", "Old Faithful", (Fitting("machine_gun", "front"),), (Fitting("armour_plating"),))
BUGGY = TeamVehicle("buggy", "Scout", (Fitting("machine_gun", "front"),))


def two_teams(bots: bool = True) -> list[TeamRecord]:
    return [TeamRecord("red", "Red Team", "#d23c32", Team("Rust", None, 30, (CAR,)), 30, bot=bots),
            TeamRecord("blue", "Blue Team", "#2f6fd6", Team("Dust", None, 30, (BUGGY, BUGGY)), 30, bot=bots)]


def test_handicap_bonus_table_p159() -> None:
    assert [handicap_votes(n) for n in (0, 10, 11, 15, 16, 21, 26, 30, 31, 60)] == [0, 0, 1, 1, 2, 3, 4, 4, 5, 5]


def test_vehicle_wrecked_table_p162() -> None:
    effects = {t: wreck_result(t)["effect"] for t in range(0, 12)}
    assert effects[1] == "" and wreck_result(1)["dents"] == -1  # Popped it back in!
    assert wreck_result(3)["dents"] == 0
    assert effects[5] == "lose_fitting" and effects[6] == "lose_perk" and effects[7] == "crew"
    assert effects[8] == "weakened" and effects[9] == "favourite" and effects[10] == "dead" and effects[11] == "dead"


def test_schedule_table_p156() -> None:
    assert schedule_from_rolls((1, 2, 3, 4, 5, 6)) == ("death_race", "death_race", "arena_of_death",
                                                      "capture_the_flag", "flag_tag", "saturday_night_live")


def test_post_game_sequence_worked_by_hand_p161_163() -> None:
    c = new_campaign("Test", "televised", two_teams(), ("death_race", "flag_tag"))
    nxt = next_game(c)
    assert nxt.scenario == "death_race" and nxt.televised
    outcome = Outcome("red", ("red", "blue"), (Wreck("blue", "Scout", "lightweight", "red"),),
                      gates=(("blue", 2), ("red", 6)))
    dice = ScriptedDice((4, 1))  # the Scout's Vehicle Wrecked roll: 4 + 0 Dents + 1 (Lightweight) = 5; which fitting
    post = post_game(c, nxt, outcome, dice, frozenset({"blue"}))
    red, blue = post.campaign.team("red"), post.campaign.team("blue")
    assert red.championship == 10 and blue.championship == 0  # only half the players place (p.161)
    assert red.budget == 30 + 6 + 1  # gates, and a Lightweight wrecked (p.161)
    assert blue.resistance == 3  # contacted the Resistance (p.162)
    assert len(blue.team.vehicles[0].weapons) + len(blue.team.vehicles[1].weapons) == 1  # Blown off (p.162)
    assert blue.stash == c.team("blue").stash + 2  # the lost weapon's Cans never come back to the Stash
    assert any("Blown off" in line and " lost)" in line for line in post.lines)
    assert blue.record("Scout").dents == 1
    assert any("p.161" in line for line in post.lines) and any("p.162" in line for line in post.lines)
    assert post.campaign.games[-1].places == ("red", "blue")
    # the next game: Blue is 10 behind, no Handicap Bonus yet (11+, p.159)
    assert next_game(post.campaign).votes == ()


def test_escalating_season_adds_bonus_cans_p154() -> None:
    c = new_campaign("Esc", "escalating", two_teams(), ("death_race", "death_race", "death_race"), bonus_cans=10)
    outcome = Outcome("red", ("red", "blue"))
    first = post_game(c, next_game(c), outcome, ScriptedDice(())).campaign
    assert first.team("red").budget == 30  # no bonus before the first game
    second = post_game(first, next_game(first), outcome, ScriptedDice(())).campaign
    assert second.team("red").budget == 40 and second.team("blue").budget == 40
    assert second.team("red").championship == 0  # an Escalating Season alone gives no Championship Points


def test_championship_season_points_p155() -> None:
    c = new_campaign("Champ", "championship", two_teams(), ("death_race",))
    post = post_game(c, next_game(c), Outcome("blue", ("blue", "red")), ScriptedDice(()))
    assert post.campaign.team("blue").championship == 5 and post.campaign.team("red").championship == 0
    assert post.campaign.over and post.campaign.champion() == "Blue Team"


def test_a_televised_season_played_game_after_game_saved_between_games(tmp_path: Path) -> None:
    path = tmp_path / "season.toml"
    save_campaign(new_campaign("Season", "televised", two_teams(), ("death_race", "flag_tag"), seed=5), path)
    skirmish = ("", "zombie_bash", "")
    for n, kind in enumerate(skirmish, 1):
        c = load_campaign(path)
        nxt = next_game(c, kind)
        game = campaign_game(c, nxt, round_limit=6)
        play_bot_game(game, Bot(), 5_000)
        assert game.prompt.kind == "game_over"
        save_campaign(finish_game(c, nxt, game).campaign, path)
        again = load_campaign(path)
        assert len(again.games) == n and again.games[-1].scenario == nxt.scenario
        assert again.games[-1].televised == (kind == "")
    c = load_campaign(path)
    assert c.events_played == 2 and c.over and c.champion() in ("Red Team", "Blue Team")
    assert sum(t.championship for t in c.teams) >= 10  # a Televised Event's 1st place is 10 (p.161)
    assert any("Wasteland Skirmish" in line for line in c.games[1].lines)


def test_seating_drops_the_files_extra_seats() -> None:
    c = new_campaign("Season", "televised", two_teams(), ("arena_of_death",))
    scenario = seated(c, next_game(c))
    assert [p.name for p in scenario.spec.player] == ["Red Team", "Blue Team"]
    assert len(scenario.spec.spawn) == 2 and set(scenario.teams) == {"red", "yellow"}


def test_a_bad_campaign_file_names_the_key(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[campaign]\nname = "X"\nkind = "televised"\nschedule = ["nope"]\n'
                    '[[team]]\nid = "a"\nname = "A"\nbudget = 30\nteam = { team = { name = "A" } }\n'
                    '[[team]]\nid = "a"\nname = "B"\nbudget = -1\nteam = { team = { name = "B" } }\n', encoding="utf-8")
    with pytest.raises(InputFileError) as err:
        load_campaign(path)
    text = str(err.value)
    assert "team[2].budget" in text


def test_savage_highways_branches_and_upgrades_p168_173() -> None:
    teams = [TeamRecord("riggers", "Riggers", "#d23c32", riggers_team(80), 80, bot=True, role="riggers"),
             TeamRecord("gangers", "Gangers", "#2f6fd6", Team("G", None, 120, (CAR, BUGGY, BUGGY)), 120, bot=True,
                        role="gangers")]
    c = new_campaign("Highways", "savage_highways", teams)
    first = next_game(c)
    assert first.scenario == "escape_the_city" and first.choose_upgrades == 1 and first.chooser == "riggers"
    won = post_game(c, first, Outcome("riggers", ("riggers", "gangers")), ScriptedDice(()), upgrades_chosen=(
        "hangers_on",)).campaign
    assert won.rig_upgrades == ("hangers_on",)
    assert next_game(won).scenario == "ambush"
    lost = post_game(c, first, Outcome("gangers", ("gangers", "riggers"),
                                       (Wreck("riggers", "Scout", "lightweight", "gangers"),)),
                     ScriptedDice(()), upgrades_chosen=("hangers_on",)).campaign
    assert lost.lost_upgrades == ("hangers_on",) and lost.team("riggers").record("Scout").hull_lost == 2
    rescue = next_game(lost)
    assert rescue.scenario == "rescue" and rescue.chooser == "gangers"
    assert "hangers_on" not in upgrade_choices(lost, rescue)
    scenario = seated(lost, rescue, ("selvaggio",))
    assert scenario.spec.options["rig_upgrades"] == ["selvaggio"]
    assert scenario.spec.player[0].hull_lost == {"Scout": 2}
    game = campaign_game(lost, rescue, ("selvaggio",), round_limit=2)
    scout = next(v for v in game.state.vehicles if v.label == "Scout (Riggers)")
    assert scout.hull == 6 - 2  # Ride Eternal (p.167)
    rig = next(v for v in game.state.vehicles if v.type_key == "war_rig")
    assert rig.in_play and rig.pose.x_mm == pytest.approx(190.0)  # where the file puts the War Rig (p.169)
    final = replace(lost, games=(*lost.games, replace(lost.games[-1], scenario="rescue", number=2)))
    assert next_game(final).scenario == "long_road_home" and next_game(final).choose_upgrades == 3


def test_next_game_record_votes() -> None:
    nxt = NextGame(1, "flag_tag", True, 7, votes=(("red", 2),))
    assert nxt.votes_of("red") == 2 and nxt.votes_of("blue") == 0


def test_gaslands_campaign_new_play_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from simulator.cli import main

    path = tmp_path / "highways.toml"
    assert main(["campaign", "new", str(path), "--kind", "savage_highways", "--bots", "--seed", "3"]) == 0
    assert main(["campaign", "new", str(path), "--kind", "savage_highways"]) == 2  # no overwrite without --force
    assert main(["campaign", "play", str(path), "--bots", "--round-limit", "6"]) == 0
    c = load_campaign(path)
    assert len(c.games) == 1 and c.games[0].scenario == "escape_the_city"
    assert main(["campaign", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "game 1: Escape the City (Savage Highways)" in out and "Gangers (Gangers)" not in out
    assert "Championship Points" not in out


def test_a_season_from_the_command_line_game_after_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's way: a player's team file and a bot-built sponsored team, three Televised Events played one
    after another with the file written after each, then the champion (p.156-164)."""
    from simulator.cli import main

    fixtures = Path(__file__).parents[1] / "fixtures" / "teams"
    path = tmp_path / "season.toml"
    assert main(["campaign", "new", str(path), "--team", str(fixtures / "rust_buckets.toml"), "--sponsors", "idris",
                 "--events", "3", "--bots"]) == 0
    out = capsys.readouterr().out
    assert "Rust Buckets (Rutherford)" in out and "Blue Team (Idris)" in out and "next: Game 1:" in out
    c = load_campaign(path)
    assert [t.name for t in c.teams] == ["Rust Buckets", "Blue Team"] and c.teams[0].budget == 50
    for n in (1, 2, 3):
        assert main(["campaign", "play", str(path), "--bots", "--round-limit", "8"]) == 0
        saved = load_campaign(path)
        assert len(saved.games) == n and saved.events_played == n
    out = capsys.readouterr().out
    assert "the campaign is over" in out
    assert main(["campaign", "show", str(path)]) == 0
    assert "game 3:" in capsys.readouterr().out
    assert main(["render", str(path), "-o", str(tmp_path / "season.png")]) == 0
    assert (tmp_path / "season.png").stat().st_size > 1000


def test_campaign_new_refuses_what_it_cannot_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from simulator.cli import main

    path = tmp_path / "season.toml"
    assert main(["campaign", "new", str(path), "--teams", "3"]) == 2
    assert "a campaign has 2 teams for now" in capsys.readouterr().err
    assert main(["campaign", "new", str(path), "--sponsors", "nobody"]) == 2
    assert "--sponsors: unknown sponsor 'nobody'" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text('[team]\nname = "Big"\ncans = 5\n\n[[vehicle]]\ntype = "Truck"\n', encoding="utf-8")
    assert main(["campaign", "new", str(path), "--team", str(bad)]) == 2
    assert "bad.toml" in capsys.readouterr().err and not path.exists()


def test_a_team_costing_more_than_its_budget_is_named(tmp_path: Path) -> None:
    """The Workshop (p.164) spends the Stash: a hand-edited team dearer than its budget is refused by name."""
    path = tmp_path / "season.toml"
    save_campaign(new_campaign("S", "televised", two_teams(), ("death_race",)), path)
    text = path.read_text(encoding="utf-8").replace("budget = 30", "budget = 3", 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError, match=r"team\[1\]\.team.*more than the budget of 3"):
        load_campaign(path)


def test_simulate_names_a_board_or_a_campaign_instead_of_its_fields(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from simulator.cli import main
    from simulator.scenario.loader import bundled_scenario

    assert main(["simulate", str(bundled_scenario("doomtown.toml")), "--games", "1", "--quiet"]) == 2
    assert "is a Deadlands board: simulate plays Gaslands scenarios" in capsys.readouterr().err
    path = tmp_path / "season.toml"
    save_campaign(new_campaign("S", "televised", two_teams(), ("death_race",)), path)
    assert main(["simulate", str(path), "--games", "1", "--quiet"]) == 2
    assert "is a campaign file" in capsys.readouterr().err
