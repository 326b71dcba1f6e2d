"""The window's side of online play without a window: :class:`RemoteGame` (network thread, game on the caller's
thread) against a server running in another thread, on loopback."""

from __future__ import annotations

import time

import pytest
from online_helpers import server_thread

from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.decisions import RollSkid
from simulator.gaslands.game import Options
from simulator.net.protocol import JoinLink
from simulator.net.remote import RemoteGame, Update
from simulator.net.server import Table
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game

pytestmark = pytest.mark.timeout(120)

SCENARIO = load_scenario(bundled_scenario())
OPTIONS = Options(round_limit=30)
SEED = 9


def pump_until(games: list[RemoteGame], done: object, bots: dict[int, Bot] | None = None,
               timeout_s: float = 60.0) -> dict[int, list[Update]]:
    """Pump every game (letting a bot answer for each seat that has one) until ``done()``; the updates seen."""
    seen: dict[int, list[Update]] = {i: [] for i in range(len(games))}
    deadline = time.monotonic() + timeout_s
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        for i, remote in enumerate(games):
            seen[i] += remote.pump()
            if bots is not None and i in bots and remote.my_turn and remote.game is not None:
                assert remote.submit(bots[i].decide(remote.game))
        time.sleep(0.002)
    return seen


def test_two_remote_games_and_a_spectator_play_to_the_local_result() -> None:
    local = play_bot_game(new_game(SCENARIO, SEED, OPTIONS), Bot())
    table = Table.new(SCENARIO, SEED, OPTIONS)
    with server_thread(table) as links:
        red, blue, watcher = (RemoteGame(links.seats["red"]).start(), RemoteGame(links.seats["blue"]).start(),
                              RemoteGame(links.spectator).start())
        try:
            seen = pump_until([red, blue, watcher], lambda: all(g.result is not None for g in (red, blue, watcher)),
                              bots={0: Bot(), 1: Bot()})
        finally:
            for g in (red, blue, watcher):
                g.close()
    for remote in (red, blue, watcher):
        assert remote.game is not None
        assert remote.game.decisions == local.decisions
        assert remote.game.state == local.state
        assert remote.result is not None and remote.result.decisions == len(local.decisions)
    assert red.player == 0 and blue.player == 1 and watcher.player is None and watcher.spectator
    assert not watcher.my_turn and watcher.submit(RollSkid(1)) is False
    kinds = [u.kind for u in seen[2]]
    assert kinds[0] == "welcome" and "over" in kinds
    decided = [u for u in seen[2] if u.kind == "decided"]
    assert len(decided) == len(local.decisions)
    assert sum(len(u.events) for u in decided) + len(local.history.start.events) == len(local.log)
    assert any(u.mine for u in seen[0] if u.kind == "decided")
    assert not any(u.mine for u in seen[2])


def test_a_remote_game_refused_says_why_and_ends() -> None:
    table = Table.new(SCENARIO, SEED, OPTIONS)
    with server_thread(table) as links:
        red = links.seats["red"]
        wrong = RemoteGame(JoinLink(red.base, red.game, "red", "y" * 43), retry_s=1).start()
        try:
            pump_until([wrong], lambda: wrong.ended != "", timeout_s=20)
        finally:
            wrong.close()
    assert wrong.refused and "wrong token" in wrong.status


def test_a_copy_that_differs_from_the_server_is_rebuilt_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """One wrong digest (as if this client's rules differed once): the copy is dropped, the connection resyncs,
    the rebuilt copy carries on, and the game ends as the local game."""
    import simulator.net.mirror as mirror_module

    real = mirror_module.state_digest
    calls = [0]

    def once_wrong(state: object) -> str:
        calls[0] += 1
        return "0" * 32 if calls[0] == 40 else real(state)  # type: ignore[arg-type]

    monkeypatch.setattr(mirror_module, "state_digest", once_wrong)
    local = play_bot_game(new_game(SCENARIO, SEED, OPTIONS), Bot())
    table = Table.new(SCENARIO, SEED, OPTIONS)
    with server_thread(table) as links:
        red, blue = RemoteGame(links.seats["red"]).start(), RemoteGame(links.seats["blue"]).start()
        try:
            seen = pump_until([red, blue], lambda: red.result is not None and blue.result is not None,
                              bots={0: Bot(), 1: Bot()})
        finally:
            red.close()
            blue.close()
    assert red.resyncs + blue.resyncs == 1
    assert any(u.kind == "status" and "resynchronising" in u.text for u in seen[0] + seen[1])
    for remote in (red, blue):
        assert remote.game is not None and remote.game.state == local.state
