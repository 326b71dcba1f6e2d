"""The referee's moves and shots shared between games of one scenario (issue #13 item 6): same answers, shared
only between referees of the same scenario table and template set, and nothing changes a game's course."""

from __future__ import annotations

from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.referee import MovePlan
from simulator.gaslands.table_referee import _SHARED, SHARED_MAX, TableReferee, clear_shared_caches
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game


def test_games_of_one_scenario_share_their_opening_moves() -> None:
    clear_shared_caches()
    scenario = load_scenario(bundled_scenario())
    a, b = new_game(scenario, 1), new_game(scenario, 2)
    assert isinstance(a.referee, TableReferee) and isinstance(b.referee, TableReferee)
    vid = a.state.vehicles[0].id
    first = a.referee.move(a.state, vid, MovePlan("medium_straight"))
    assert b.referee.move(b.state, vid, MovePlan("medium_straight")) is first  # judged once
    other = load_scenario(bundled_scenario())  # another scenario object (another table): not shared
    c = new_game(other, 1)
    mine = c.referee.move(c.state, vid, MovePlan("medium_straight"))
    assert mine is not first and mine == first
    clear_shared_caches()
    assert not _SHARED
    d = new_game(scenario, 3)
    again = d.referee.move(d.state, vid, MovePlan("medium_straight"))
    assert again is not first and again == first


def test_a_game_plays_the_same_with_the_cache_warm_or_cold() -> None:
    scenario = load_scenario(bundled_scenario())
    clear_shared_caches()
    cold = play_bot_game(new_game(scenario, 5), Bot())
    for seed in (1, 2, 3):  # the cache fills with other games' moves and shots
        play_bot_game(new_game(scenario, seed), Bot())
    assert _SHARED
    warm = play_bot_game(new_game(scenario, 5), Bot())
    assert warm.decisions == cold.decisions and warm.log == cold.log
    assert 0 < len(_SHARED) <= SHARED_MAX
