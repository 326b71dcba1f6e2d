"""The game mode of an online seat or spectator (``gaslands join URL``; docs/online.md).

The same screen as a hot-seat game (:class:`~simulator.ui.modes.game.GameMode`)
driven by a :class:`~simulator.ui.remote_controller.RemoteController`; the top
bar adds who this window plays, who else is connected, the spectators and the
round-trip time to the host's server. Undo, Save and Load are the host's and
are not offered.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from simulator.gaslands.prompts import ActivatePrompt, TemplatePrompt
from simulator.ui import draw
from simulator.ui.layout import TOP_INFO
from simulator.ui.modes import Context, HelpLines, TopButton
from simulator.ui.modes.game import HELP, GameMode
from simulator.ui.remote_controller import RemoteController

ONLINE_HELP: HelpLines = (
    *(row for row in HELP if not row[0].startswith(("Ctrl+Z", "Ctrl+S", "F5"))),
    ("F5 .. F8", "the bot plays your own seat, or gives it back; Space pauses it"),
    ("Top bar", "you, who else is connected (AWAY: disconnected, the game waits), spectators, round-trip time"),
    ("Online", "your answer goes to the host's server and shows when it confirms it; the host keeps and saves the game"),
)
"""The controls of an online game."""


class OnlineGameMode(GameMode):
    """A seat (or a spectator) of a hosted game in the window (see the module docstring)."""

    title = "ONLINE"

    def __init__(self, ctx: Context, ctl: RemoteController, game_path: Path | None = None) -> None:
        super().__init__(ctx, ctl, game_path)
        self.remote_ctl = ctl
        self.attach_after: tuple[str, str, str | None] | None = None
        """A template dropped on a car to activate it: (car, template, side), put on the car once the server has
        confirmed the activation."""

    def _left_up(self, pos: tuple[int, int]) -> None:
        """A template dropped on a glowing car activates it (p.19) and goes on it once the server confirms."""
        drag = self.template_drag
        if drag is None or not isinstance(self.ctl.prompt, ActivatePrompt):
            super()._left_up(pos)
            return
        self.slider_held = self.turn_held = False
        self.template_drag = None
        table = self.scene.table(self.ctl.state)
        target = self.ctx.canvas.drop_target(table, pos)
        if target is None:
            self.say("Drop the template on a car.")
            return
        side = self.ctx.canvas.side_of(table.vehicle(target), pos, drag.mirrored)
        self.ctl.message = ""
        if not self.ctl.click_vehicle(target):
            self.say(self.ctl.message)
            return
        self.attach_after = (target, drag.template, side)
        self.refresh()

    def update(self, dt: float) -> None:
        """As a hot-seat game; and a template dropped to activate a car goes on it once the activation is in."""
        super().update(dt)
        if self.attach_after is None:
            return
        p = self.ctl.prompt
        target, template, side = self.attach_after
        if isinstance(p, TemplatePrompt) and p.vehicle_id == target:
            self.attach_after = None
            self.attach(target, template, side)
        elif not isinstance(p, ActivatePrompt):  # something else came first (the server refused, a reconnect)
            self.attach_after = None

    def buttons(self) -> list[TopButton]:
        """Only Fit: undo, save and load are the host's."""
        return [TopButton("Fit", self.ctx.canvas.fit)]

    def help_lines(self) -> HelpLines:
        """The online game's controls."""
        return ONLINE_HELP

    def _draw_top(self, surface: pygame.Surface) -> None:
        ctl = self.remote_ctl
        rs = ctl.state.round
        x = draw.text(surface, f"Round {rs.round_no}  Gear Phase {rs.gear_phase}", TOP_INFO, 18, draw.TEXT).right + 14
        if ctl.over():
            x = draw.text(surface, "GAME OVER", (x, TOP_INFO[1]), 18, draw.SELECT).right + 14
        else:
            p = ctl.prompt
            who = "Your turn" if ctl.my_prompt() else f"{ctl.player_name(p.player)}'s turn"
            colour = draw.shade(draw.hex_colour(ctl.player_colour(p.player)), 1.35)
            x = draw.text(surface, who, (x, TOP_INFO[1]), 18, colour).right + 14
        room = self.ctx.layout.top[2] - TOP_BUTTONS_PX - x
        draw.text(surface, fitted(ctl.online_note(), 15, room), (x, TOP_INFO[1] + 2), 15, draw.TEXT_DIM)


TOP_BUTTONS_PX = 480
"""The top bar's buttons take about this much on the right (Fit, Rulings, Free table, Help)."""


def fitted(text: str, size: int, width_px: int) -> str:
    """``text`` cut with an ellipsis to fit ``width_px`` at font ``size``."""
    font = draw.font(size)
    if font.size(text)[0] <= width_px:
        return text
    while text and font.size(text + "...")[0] > width_px:
        text = text[:-1]
    return text + "..." if text else ""
