"""The window's modes: one protocol, one canvas, one shell that switches between them.

Each mode is a way to use the same table: the free table
(:mod:`~simulator.ui.modes.free_table`), the rulings mode
(:mod:`~simulator.ui.modes.rulings`), a hot-seat game
(:mod:`~simulator.ui.modes.game`) and the replay viewer
(:mod:`~simulator.ui.modes.replay`). The shell (:class:`simulator.ui.app.App`)
owns the pygame loop, the layout, the help overlay and the switching; it
hands every event to the active mode first (:meth:`Mode.handle_event`), then
to the shared :class:`~simulator.ui.canvas.Canvas` (pan and zoom) when the
mode did not use it. A new mode (a track editor, a team builder) implements
:class:`Mode` and is given a :class:`Context`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pygame

from simulator.geometry.templates import TemplateSet
from simulator.scenario.loader import Scenario
from simulator.ui.canvas import Canvas
from simulator.ui.dialogs import Dialogs
from simulator.ui.layout import Layout
from simulator.ui.sandbox import Sandbox
from simulator.ui.user_files import Settings
from simulator.ui.widgets import Command

HelpLines = Sequence[tuple[str, str]]
"""(keys, what they do) rows of the help overlay."""


@dataclass
class Context:
    """What every mode shares: the layout (replaced when the window is resized), the canvas, the template set."""

    layout: Layout
    canvas: Canvas
    template_set: TemplateSet
    ask_rulings: Callable[[list[dict[str, Any]]], None] | None = None
    """Open the rulings mode on a rulings file's queries (set by the window; a free table calls it when a file
    with queries is loaded onto it)."""
    dialogs: Dialogs = field(default_factory=Dialogs)
    """The window's dialogs (one at a time, on top of everything)."""
    settings: Settings = field(default_factory=Settings)
    """The window's settings (UI scale, sound, camera, colours)."""
    file_command: Callable[[str], None] | None = None
    """Run one of the window's file commands by name (``save``, ``save_as``, ``open``: set by the window)."""

    @property
    def mouse_pos(self) -> tuple[int, int]:
        """Where the pointer is."""
        return self.canvas.mouse_pos


@dataclass(frozen=True)
class TopButton:
    """A button a mode puts in the top bar: its label, what it runs, and how wide it is."""

    label: str
    run: Command
    enabled: bool = True
    active: bool = False
    width_px: int = 84


class Mode(Protocol):
    """One way of using the window (see the module docstring)."""

    @property
    def title(self) -> str:
        """The mode's name in the top bar (``FREE TABLE``, ``RULINGS``, ``GAME``, ``REPLAY``)."""
        ...

    @property
    def scenario(self) -> Scenario:
        """The scenario on the table (its name heads the window)."""
        ...

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Take one pygame event; True if it was used (else the canvas may pan or zoom with it)."""
        ...

    def update(self, dt: float) -> None:
        """Advance animations, bots and playback by ``dt`` seconds."""
        ...

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the table, the tray and the side panel (the shell paints the top bar, status line and help)."""
        ...

    def buttons(self) -> list[TopButton]:
        """The mode's buttons for the top bar, from the right."""
        ...

    def status(self) -> str:
        """The status line: what just happened, or what to do next."""
        ...

    def say(self, message: str) -> None:
        """Put ``message`` in the status line."""
        ...

    def help_lines(self) -> HelpLines:
        """The mode's rows of the help overlay."""
        ...

    def sandbox(self) -> Sandbox:
        """The table as it stands, for a free table or the rulings mode opened on it."""
        ...

    def entered(self) -> None:
        """The mode is shown again (after another one): refresh what it shows."""
        ...
