"""The online game in the window, driven headless by real pygame events: two windows play the two seats (one by
hand, then by its bot; the other handed to its bot) and a third window watches as a spectator, all through a server
on loopback; every window ends with the game the same decisions give when played locally.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from conftest import SIZE
from online_helpers import server_thread
from ui_events import drag, post_key, post_mouse, pump

from simulator.gaslands.decisions import Activate, ChooseTemplate, Decision, PushIt, RollSkid, SpendShifts
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.game import Options
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.net.remote import RemoteGame
from simulator.net.server import Table
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game
from simulator.ui.app import App
from simulator.ui.modes.online import OnlineGameMode
from simulator.ui.panel_actions import Decide, PanelAction, ToggleDie
from simulator.ui.remote_controller import RemoteController
from simulator.ui.window import online_app, wait_for_welcome

pytestmark = pytest.mark.timeout(120)

SCENARIO = load_scenario(bundled_scenario())
OPTIONS = Options(round_limit=30)
TEMPLATE = "medium_straight"


def seed_with_shift_and_other() -> tuple[int, str, int]:
    """A seed whose first activation rolls two Skid Dice showing a Shift and a die a Shift can cancel."""
    for seed in range(200):
        g = new_game(SCENARIO, seed, OPTIONS)
        vid = str(g.prompt.options[0])
        g.decide(Activate(vid))
        g.decide(ChooseTemplate(TEMPLATE))
        if g.prompt.kind != "skid" or 2 not in g.prompt.options:
            continue
        g.decide(RollSkid(2))
        faces = g.prompt.faces  # type: ignore[union-attr]
        if SkidFace.SHIFT in faces and any(f is not SkidFace.SHIFT for f in faces):
            return seed, vid, next(i for i, f in enumerate(faces) if f is not SkidFace.SHIFT)
    raise AssertionError("no seed found")


class Session:
    """The windows, advanced together one frame at a time (events are posted and handed to one window at once)."""

    def __init__(self, app: App, *others: App) -> None:
        self.app = app
        self.apps = (app, *others)

    @staticmethod
    def ctl_of(app: App) -> RemoteController:
        assert isinstance(app.game, OnlineGameMode)
        return app.game.remote_ctl

    @property
    def ctl(self) -> RemoteController:
        return self.ctl_of(self.app)

    def frame(self) -> None:
        for app in self.apps:
            app.update(1 / 60)

    def until(self, done: Callable[[], bool], timeout_s: float = 30.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not done():
            assert time.monotonic() < deadline, f"timed out; status: {self.ctl.message}"
            self.frame()
            time.sleep(0.001)

    def click_action(self, action: PanelAction) -> None:
        assert self.app.game is not None
        rect = pygame.Rect(self.app.game.panel().button(action).rect)
        post_mouse(pygame.MOUSEBUTTONDOWN, rect.center)
        post_mouse(pygame.MOUSEBUTTONUP, rect.center)
        pump(self.app)

    def key(self, app: App, key: int, mod: int = 0) -> None:
        post_key(key, mod)
        pump(app)

    def answered(self, n: int) -> Callable[[], bool]:
        return lambda: len(self.ctl.game.decisions) >= n and self.ctl.remote.pending is None


def test_two_windows_play_the_seats_and_a_spectator_window_watches_to_the_local_result(tmp_path: Path) -> None:
    seed, vid, die = seed_with_shift_and_other()
    first = new_game(SCENARIO, seed, OPTIONS)
    me = SCENARIO.spec.player[first.prompt.player].id
    them = next(p.id for p in SCENARIO.spec.player if p.id != me)
    table = Table.new(SCENARIO, seed, OPTIONS)
    with server_thread(table) as links:
        remotes = [RemoteGame(links.seats[me]).start(), RemoteGame(links.seats[them]).start(),
                   RemoteGame(links.spectator).start()]
        try:
            for remote in remotes:
                wait_for_welcome(remote, 10)
            pygame.event.clear()
            app, other, watcher = (online_app(r, SIZE, bot_delay_s=0.0, animate=False) for r in remotes)
            s = Session(app, other, watcher)
            game_mode = app.game
            assert isinstance(game_mode, OnlineGameMode) and app.game_view
            s.until(lambda: s.ctl.remote.presence is not None and s.ctl.remote.presence.spectators == 1
                    and all(p.connected for p in s.ctl.remote.presence.seats.values()))
            note = s.ctl.online_note()
            assert f"{s.ctl.seat_name} (you)" in note and "online" in note and " ms" in note and "1 watching" in note
            assert s.ctl.seat_label(first.prompt.player) == "you"
            assert s.ctl_of(watcher).seat_label(first.prompt.player) == "online"

            # A template dropped on the glowing car activates it; it goes on the car once the server confirms.
            drag(app, game_mode.tray_cell_centre(TEMPLATE), game_mode.vehicle_screen_pos(vid))
            s.until(s.answered(1))
            s.until(lambda: game_mode.pending is not None)
            assert game_mode.pending is not None and game_mode.pending.move.template == TEMPLATE
            s.key(app, pygame.K_RETURN)
            assert s.ctl.remote.pending == 2 and "waiting for the server" in s.ctl.message
            s.until(s.answered(2))
            assert s.ctl.prompt.kind == "skid"
            s.click_action(Decide(RollSkid(2)))
            s.until(s.answered(3))
            s.click_action(Decide(PushIt(())))
            s.until(s.answered(4))
            assert s.ctl.prompt.kind == "shifts"
            s.click_action(ToggleDie(die))
            s.click_action(Decide(SpendShifts((SpendShift(ShiftUse.CANCEL, die),))))
            s.until(s.answered(5))
            expected: list[Decision] = [Activate(vid), ChooseTemplate(TEMPLATE), RollSkid(2), PushIt(()),
                                        SpendShifts((SpendShift(ShiftUse.CANCEL, die),))]
            assert s.ctl.game.decisions[:5] == expected
            s.until(lambda: len(s.ctl_of(watcher).game.decisions) >= 5)
            assert s.ctl_of(watcher).state == s.ctl.state  # the spectator's window shows the same table
            pygame.image.save(_drawn(app), str(tmp_path / "online.png"))
            pygame.image.save(_drawn(watcher), str(tmp_path / "spectator.png"))

            # The spectator and the other seat cannot act for this seat: refused with the reason, nothing sent.
            assert s.ctl_of(watcher).decide(RollSkid(0)) is False and "turn" in s.ctl_of(watcher).message
            s.key(app, pygame.K_F5 + (1 - first.prompt.player))
            assert "Only your own seat" in s.ctl.message
            s.key(app, pygame.K_z, pygame.KMOD_CTRL)  # undo and save are the host's
            assert "not taken back" in s.ctl.message

            # Both seats go to their windows' bots (F5..F8), and the game runs to its end in every window.
            s.key(other, pygame.K_F5 + (1 - first.prompt.player))
            s.key(app, pygame.K_F5 + first.prompt.player)
            assert first.prompt.player in s.ctl.bots and s.ctl.seat_label(first.prompt.player) == "you: bot"
            s.until(lambda: all(s.ctl_of(a).over() for a in s.apps), 60)
            for _ in range(10):
                s.frame()
            final = _drawn(watcher)
            pygame.image.save(final, str(tmp_path / "over.png"))
        finally:
            for remote in remotes:
                remote.close()
    local = new_game(SCENARIO, seed, OPTIONS)
    for decision in table.game.decisions:
        local.decide(decision)
    for window in s.apps:
        assert s.ctl_of(window).game.decisions == table.game.decisions
        assert s.ctl_of(window).state == local.state
        assert s.ctl_of(window).result_text() in window.status
    assert final.get_size() == SIZE


def _drawn(app: App) -> pygame.Surface:
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    return surface
