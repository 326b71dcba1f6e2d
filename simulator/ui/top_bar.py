"""The window's top bar and status line: the File menu, the mode switches, the mode's own buttons, the title.

Laid out afresh every frame from the window's state (:func:`buttons`), so a
narrow window drops the keys from the labels and a long title is clipped,
never drawn under the buttons.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from simulator.ui import draw
from simulator.ui.layout import TOP_INFO
from simulator.ui.modes import TopButton
from simulator.ui.widgets import Button, Command, draw_button

if TYPE_CHECKING:
    from simulator.ui.app import App

BAR = (16, 17, 20)


def buttons(app: App) -> list[Button[Command]]:
    """The top bar's buttons from the right: Help, File, the mode switches, then the mode's own."""
    def toggle_help() -> None:
        app.help_visible = not app.help_visible
    tools = [TopButton("Help (H)", toggle_help, active=app.help_visible, width_px=76),
             TopButton("File", app.files.show, active=app.ctx.dialogs.is_open, width_px=54)]
    if app.screen is not None:
        tools.append(TopButton("Back (Esc)", app.close_screen, width_px=100))
        return _laid_out(app, tools)
    if app.home is not app.free:
        away = app.mode is not app.home
        tools.append(TopButton(f"Back to {app.home.title.lower()} (F2)" if away else "Free table (F2)",
                               app.toggle_free_table, active=away, width_px=136))
    back = app.mode is app.rulings
    editing = app.mode is app.editor
    tools.append(TopButton("Back (F4)" if editing and app.home is not app.editor else "Editor (F4)",
                           app.toggle_editor, active=editing, width_px=100))
    if not editing:
        tools.append(TopButton("Back (R)" if back else "Rulings (R)", app.toggle_rulings, active=back,
                               width_px=100))
    tools += app.mode.buttons()
    return _laid_out(app, tools)


def _laid_out(app: App, tools: list[TopButton]) -> list[Button[Command]]:
    top = app.layout.top
    room = top[2] - TOP_INFO[0] - 8
    compact = sum(t.width_px + 6 for t in tools) > room  # a narrow window: the labels without their keys
    out: list[Button[Command]] = []
    x = top[2] - 8
    for t in tools:
        label = t.label.split(" (")[0] if compact else t.label
        width = min(t.width_px, draw.font(17).size(label)[0] + 16) if compact else t.width_px
        x -= width
        out.append(Button((x, 5, width, 24), label, t.run, t.enabled, t.active))
        x -= 6
    return out


def draw_top(app: App, surface: pygame.Surface) -> None:
    """The bar over what the mode drew into it: the program and scenario, the mode's name, the buttons."""
    top = app.layout.top
    bar = buttons(app)
    left = min((b.rect[0] for b in bar), default=top[2]) - 6
    pygame.draw.rect(surface, BAR, (left, 0, top[2] - left, top[3]))
    surface.set_clip(pygame.Rect(0, 0, 240, top[3]))
    draw.text(surface, f"Gaslands  -  {app.mode.scenario.name}", (12, 8), 24, draw.TEXT)
    surface.set_clip(None)
    draw.text(surface, app.title, (250, 9), 20, (15, 15, 15), backing=draw.SELECT)
    for b in bar:
        draw_button(surface, b, 17)


def draw_status(app: App, surface: pygame.Surface, extra: str) -> None:
    """The status line: the mode's message, and on the right ``extra`` (scale, sound, camera)."""
    x, y, w, h = app.layout.status
    pygame.draw.rect(surface, BAR, app.layout.status)
    right = draw.font(17).size(extra)[0] + 20
    surface.set_clip(pygame.Rect(x, y, w - right, h))
    draw.text(surface, app.status, (x + 10, y + 5), 19, draw.TEXT)
    surface.set_clip(None)
    draw.text(surface, extra, (w - 10, y + 5), 17, draw.TEXT_DIM, "topright")
