"""Teams in play: scenarios seat team files, the races deploy any team (p.62, p.126), bots build legal teams
for every sponsor, and ``gaslands simulate`` plays bot-built teams of every sponsor."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.errors import InputFileError
from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.decisions import Deploy
from simulator.gaslands.game import Options
from simulator.gaslands.prompts import DeployPrompt
from simulator.gaslands.state import Status
from simulator.gaslands.tables import load_sponsors
from simulator.gaslands.team_builder import build_team
from simulator.gaslands.teams import check
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.saves import from_json, to_json
from simulator.scenario.setup import new_game, with_teams
from simulator.scenario.simulate import seated_sponsors, simulate

TEAMS = Path(__file__).resolve().parents[1] / "fixtures" / "teams"


def test_a_scenario_seats_team_files_in_place_of_its_vehicles() -> None:
    scenario = load_scenario(TEAMS / "street_race_teams.toml")
    game = new_game(scenario, seed=4)
    state = game.state
    assert [v.label for v in state.vehicles] == ["Old Faithful", "Tin Can", "Buggy", "Car", "Bike"]
    assert all(v.status is Status.UNDEPLOYED for v in state.vehicles)
    faithful, tin_can, buggy, car, _ = state.vehicles
    assert (faithful.hull, faithful.crew, faithful.player) == (8, 1, 0)
    assert tin_can.rams == frozenset({"front"}) and tin_can.weapons[1].ammo == 4   # Well Stocked mines (p.91)
    assert car.handling == 4                                                        # Expertise (p.110)
    assert state.loadout(buggy.id).perks == ("slipstream", "hot_start")
    assert state.loadout(buggy.id).upgrades == (("nitro_booster", ""),)
    assert state.loadout(faithful.id).sponsor == "rutherford"
    assert isinstance(game.prompt, DeployPrompt)


def test_the_street_race_deploys_any_team_behind_its_start_line() -> None:
    scenario = load_scenario(TEAMS / "street_race_teams.toml")
    game = new_game(scenario, seed=4)
    assert game.state.grid_width() == 4                       # 182 mm of start line, 45 mm a car (p.62)
    while isinstance(game.prompt, DeployPrompt):
        p = game.prompt
        game.decide(Deploy(p.vehicles[0], p.slots[0]))
    for v in game.state.vehicles:
        assert v.status is Status.ACTIVE
        assert v.pose.x_mm < 200.0 and v.pose.heading_deg == 0.0   # behind the line, facing the finish
    assert game.prompt.kind in ("activate", "votes")


def test_a_bundled_race_takes_teams_and_plays_to_the_end() -> None:
    for race in ("street_race.toml", "death_race.toml"):
        scenario = load_scenario(bundled_scenario(race))
        teams = {p.id: build_team(s, 50, seed=3) for p, s in zip(scenario.spec.player, ("slime", "mishkin"),
                                                                   strict=True)}
        game = play_bot_game(new_game(with_teams(scenario, teams), seed=2, options=Options(round_limit=12)), Bot())
        assert game.prompt.kind == "game_over"
        assert {k.sponsor for k in game.state.loadouts} == {"slime", "mishkin"}


def test_a_save_holds_its_teams_and_replays(tmp_path: Path) -> None:
    scenario = load_scenario(TEAMS / "street_race_teams.toml")
    game = play_bot_game(new_game(scenario, seed=5, options=Options(round_limit=3)), Bot(), max_decisions=60)
    document = json.loads(json.dumps(to_json(game)))
    assert "Speed Freaks" in document["scenario"]["toml"]     # the team travels inline with the save
    again = from_json(document)
    assert again.state == game.state and again.decisions == game.decisions


def test_a_bad_team_file_is_named_with_the_player(tmp_path: Path) -> None:
    text = (TEAMS / "street_race_teams.toml").read_text(encoding="utf-8").replace("speed_freaks.toml", "nope.toml")
    path = tmp_path / "race.toml"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "rust_buckets.toml").write_text((TEAMS / "rust_buckets.toml").read_text(encoding="utf-8"))
    with pytest.raises(InputFileError) as caught:
        load_scenario(path)
    assert [p.where for p in caught.value.problems] == ["player[2].team"]
    assert "no such file" in str(caught.value)


@pytest.mark.parametrize("sponsor", [None, *load_sponsors()])
def test_bots_build_a_legal_team_for_every_sponsor(sponsor: str | None) -> None:
    for cans in (20, 50, 100):
        for seed in range(3):
            team = build_team(sponsor, cans, seed)
            report = check(team)
            assert report.legal, (cans, seed, report.problems)
            assert 0 < report.cans <= cans and team.sponsor == sponsor
    assert build_team(sponsor, 50, 7) == build_team(sponsor, 50, 7)


def test_too_few_cans_for_any_vehicle() -> None:
    with pytest.raises(ValueError, match="no legal team of 4 Cans"):
        build_team("rutherford", 4)


def test_simulate_plays_bot_built_teams_of_every_sponsor() -> None:
    sponsors = tuple(load_sponsors())
    assert {s for g in range(7) for s in seated_sponsors(sponsors, 2, g)} == set(sponsors)
    summary = simulate(load_scenario(bundled_scenario()), games=7, seed=3, sponsors=sponsors, cans=50,
                       round_limit=10)
    assert summary.games == 7 and sum(summary.sponsor_games.values()) == 14
    assert len(summary.sponsor_games) == 13
    assert any("wins by sponsor" in line for line in summary.lines())


def test_gaslands_simulate_with_sponsors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(bundled_scenario()), "--games", "2", "--sponsors", "idris,warden", "--cans",
                 "40", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Idris" in out and "The Warden" in out
    assert main(["simulate", str(bundled_scenario()), "--games", "1", "--sponsors", "idriss", "--quiet"]) == 2
    assert "did you mean Idris?" in capsys.readouterr().err
