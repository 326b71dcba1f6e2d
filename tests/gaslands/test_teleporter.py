"""The Experimental Teleporter upgrade (Mishkin only, p.83-84): the question, the tokens, the Skid Die, who
places the vehicle and how far, the placement's legality, and the activation going on from the new place."""

from __future__ import annotations

import pytest

from simulator.errors import IllegalChoice
from simulator.gaslands.decisions import Activate, Declare, Teleport
from simulator.gaslands.dice import ScriptedDice
from simulator.gaslands.events import PerkUsed
from simulator.gaslands.perks import UPGRADES_NOT_YET
from simulator.gaslands.perks.teleporter import TELEPORT_HAZARDS
from simulator.gaslands.prompts import DeclarePrompt, TeleportPrompt
from simulator.gaslands.referee import NOMINAL_RANGE_MM
from tests.gaslands.perk_table import car, game

UPGRADE = {"blue": (("experimental_teleporter", ""),)}


def _asked(skid: str, hazards: int = 0):  # noqa: ANN202 - a Game at the placement prompt
    g = game(car("blue", 0, gear=2, hazards=hazards), car("red", 1, x=260.0), upgrades=UPGRADE, sponsor="mishkin",
             dice=ScriptedDice(skid=[skid]))
    g.decide(Activate("blue"))
    p = g.prompt
    assert isinstance(p, DeclarePrompt) and p.perk == "experimental_teleporter" and p.choices == ("no", "yes")
    g.decide(Declare("yes"))
    return g


def test_the_teleporter_is_played() -> None:
    assert "experimental_teleporter" not in UPGRADES_NOT_YET


def test_teleporting_gains_three_hazard_tokens_and_its_controller_places_within_medium_range() -> None:
    g = _asked("shift", hazards=1)
    assert TELEPORT_HAZARDS == 3
    assert g.state.vehicle("blue").hazards == 1 + 3  # p.84
    p = g.prompt
    assert isinstance(p, TeleportPrompt)
    assert (p.player, p.vehicle_id, p.band, p.max_mm) == (0, "blue", "medium", NOMINAL_RANGE_MM["medium"])
    assert (p.before.x_mm, p.before.y_mm) == (100.0, 100.0)
    used = [e for e in g.log if isinstance(e, PerkUsed) and e.perk == "Experimental Teleporter"]
    assert used[0].hazard_delta == 3 and used[0].page == "p.83"
    assert "rolls shift" in used[1].what and "Blue places it within Medium range" in used[1].what


def test_the_jump_keeps_the_facing_and_the_activation_goes_on_from_there() -> None:
    g = _asked("slide")
    g.decide(Teleport(180.0, 140.0))
    v = g.state.vehicle("blue")
    assert (v.pose.x_mm, v.pose.y_mm, v.pose.heading_deg) == (180.0, 140.0, 0.0)
    assert g.prompt.kind in ("pivot", "template")  # its normal Movement Step, from the new place (p.84)
    assert g.prompt.vehicle_id == "blue"
    jumps = [e.what for e in g.log if isinstance(e, PerkUsed) and e.what.startswith("teleports")]
    assert jumps == ["teleports 89 mm to (180, 140), same facing"]


@pytest.mark.parametrize(("x", "y", "why"), [
    (100.0, 400.0, "more than Medium range"),
    (260.0, 110.0, "it would touch red"),
    (float("nan"), 100.0, "finite coordinates"),
])
def test_an_illegal_place_is_refused_with_the_rule(x: float, y: float, why: str) -> None:
    g = _asked("spin")
    with pytest.raises(IllegalChoice, match=why) as refused:
        g.decide(Teleport(x, y))
    assert "Experimental Teleporter, p.83-84" in str(refused.value)
    assert isinstance(g.prompt, TeleportPrompt)  # still asked


def test_where_it_stands_is_always_accepted() -> None:
    g = _asked("spin")
    g.decide(Teleport(100.0, 100.0))
    assert g.state.vehicle("blue").pose.x_mm == 100.0


def test_on_a_hazard_the_player_to_the_left_places_it_within_long_range() -> None:
    g = _asked("hazard")
    p = g.prompt
    assert isinstance(p, TeleportPrompt)
    assert (p.player, p.band, p.max_mm) == (1, "long", NOMINAL_RANGE_MM["long"])
    g.decide(Teleport(100.0, 260.0))  # 160 mm: beyond Medium, within Long
    assert g.state.vehicle("blue").pose.y_mm == 260.0


def test_declining_rolls_nothing_and_takes_no_tokens() -> None:
    g = game(car("blue", 0, gear=2), car("red", 1, x=400.0), upgrades=UPGRADE, sponsor="mishkin",
             dice=ScriptedDice(skid=["hazard"]))
    g.decide(Activate("blue"))
    g.decide(Declare("no"))
    assert g.state.vehicle("blue").hazards == 0
    assert not g.dice.exhausted  # type: ignore[attr-defined]
    assert g.prompt.kind in ("pivot", "template")


def test_a_vehicle_without_it_is_not_asked() -> None:
    g = game(car("blue", 0, gear=2), car("red", 1, x=400.0), sponsor="mishkin")
    g.decide(Activate("blue"))
    assert not (isinstance(g.prompt, DeclarePrompt) and g.prompt.perk == "experimental_teleporter")


def test_a_replay_is_exact() -> None:
    g = _asked("shift")
    g.decide(Teleport(180.0, 140.0))
    g.undo()
    assert isinstance(g.prompt, TeleportPrompt)
    g.redo()
    assert g.state.vehicle("blue").pose.x_mm == 180.0


def test_a_mishkin_team_with_the_teleporter_plays_a_bot_street_race_to_the_end() -> None:
    from simulator.gaslands.bots import Bot, play_bot_game
    from simulator.gaslands.game import Options
    from simulator.gaslands.teams import Fitting, Team, TeamVehicle, check
    from simulator.scenario.loader import bundled_scenario, load_scenario
    from simulator.scenario.setup import new_game, with_teams

    scenario = load_scenario(bundled_scenario("street_race.toml"))
    blinker = TeamVehicle("car", "Blinker", upgrades=(Fitting("experimental_teleporter"),))
    mishkin = Team("Mishkin", "mishkin", 50, (blinker, TeamVehicle("car", "Plain")))
    rivals = Team("Rivals", None, 50, (TeamVehicle("car", "A"), TeamVehicle("car", "B")))
    assert check(mishkin).legal
    red, blue = (p.id for p in scenario.spec.player)
    game = play_bot_game(new_game(with_teams(scenario, {red: mishkin, blue: rivals}), seed=5,
                                  options=Options(round_limit=12)), Bot())
    assert game.prompt.kind == "game_over"
    used = [e.what for e in game.log if isinstance(e, PerkUsed) and e.perk == "Experimental Teleporter"]
    assert used == ["powers up: +3 Hazard Tokens", "rolls hazard on the Skid Die: Blue Team places it within "
                    "Long range", "teleports 109 mm to (61, 434), same facing"]
