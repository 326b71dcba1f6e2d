"""The window's modal dialogs, drawn with pygame_gui: open and save a file, a yes/no question, a short menu.

:class:`Dialogs` holds at most one dialog at a time. While one is open it
takes every mouse and key event (the table underneath does not move); Esc
closes it. The dialogs are pygame_gui's own windows (``UIFileDialog``,
``UIConfirmationDialog``, a ``UIWindow`` of ``UIButton`` rows), which run on
pygame-ce on Linux, Windows and macOS alike (no Tk, which crashes beside SDL
on macOS). What a dialog leads to is a callback given when it is opened:
``on_pick(path)``, ``on_yes()``, one per menu row; it runs when pygame_gui's
event for the choice comes back through the window's event loop.

The UI manager is made on the first dialog, so drawing a window to a PNG
never loads pygame_gui's theme.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pygame

Command = Callable[[], None]
MenuRow = tuple[str, Command | None]
"""A menu row: its label and what it runs (None: shown greyed out)."""

ROW_PX = 34
SHADE = (0, 0, 0, 120)


def _theme(scale: float) -> dict[str, Any]:
    size = str(round(15 * scale))
    return {"defaults": {"font": {"name": "noto_sans", "size": size}},
            "button": {"colours": {"normal_bg": "#3a3e48", "hovered_bg": "#545a68", "selected_bg": "#ffd640",
                                   "disabled_bg": "#2a2c32", "disabled_text": "#6a6e76"}},
            "#menu_title": {"font": {"name": "noto_sans", "size": size, "bold": "1"}}}


class Dialogs:
    """The dialog on top of the window, if any (see the module docstring)."""

    def __init__(self, size: tuple[int, int] = (1400, 900)) -> None:
        self.size = size
        self.scale = 1.0
        self.manager: Any = None
        self.window: Any = None
        self.title = ""
        """The open dialog's title ("" when none is open)."""
        self._pick: Callable[[Path], None] | None = None
        self._yes: Command | None = None
        self._rows: dict[Any, Command] = {}
        self._asker: Any = None
        """The dialog whose answer is awaited (its event comes back after it has closed itself)."""

    # ---------------------------------------------------------------- state
    @property
    def is_open(self) -> bool:
        """Whether a dialog is on screen."""
        return self.window is not None and bool(self.window.alive())

    def _ui(self) -> Any:
        import pygame_gui

        if self.manager is None:
            self.manager = pygame_gui.UIManager(self.size, _theme(self.scale), enable_live_theme_updates=False)
        return self.manager

    def resize(self, size: tuple[int, int]) -> None:
        """The window was resized: the dialog stays in the middle."""
        self.size = size
        if self.manager is not None:
            self.manager.set_window_resolution(size)
            if self.window is not None:
                self.window.set_position(self._rect(*self.window.rect.size).topleft)

    def _rect(self, w: int, h: int) -> pygame.Rect:
        r = pygame.Rect(0, 0, min(w, self.size[0] - 20), min(h, self.size[1] - 20))
        r.center = (self.size[0] // 2, self.size[1] // 2)
        return r

    def close(self) -> None:
        """Close the dialog without choosing anything."""
        if self.window is not None:
            self.window.kill()
        self.window, self.title, self._pick, self._yes, self._rows, self._asker = None, "", None, None, {}, None

    # ---------------------------------------------------------------- opening one
    def ask_path(self, title: str, start: Path, suffixes: Sequence[str], on_pick: Callable[[Path], None],
                 must_exist: bool) -> None:
        """A file dialog at ``start`` (a folder, or a file to preselect) listing ``suffixes``; ``on_pick`` gets the
        chosen path. ``must_exist``: an open dialog (only existing files); else a save dialog (any name)."""
        from pygame_gui.windows import UIFileDialog

        self.close()
        s = self.scale
        rect = self._rect(round(760 * s), round(540 * s))
        self.window = UIFileDialog(rect, self._ui(), title, set(suffixes), str(start),
                                   allow_existing_files_only=must_exist)
        self.title, self._pick, self._asker = title, on_pick, self.window

    def confirm(self, title: str, question: str, on_yes: Command, yes: str = "Yes") -> None:
        """A question with ``yes`` and Cancel; ``on_yes`` runs only on ``yes``."""
        from pygame_gui.windows import UIConfirmationDialog

        self.close()
        rect = self._rect(round(520 * self.scale), round(220 * self.scale))
        self.window = UIConfirmationDialog(rect, question, self._ui(), window_title=title, action_short_name=yes)
        self.title, self._yes, self._asker = title, on_yes, self.window

    def menu(self, title: str, rows: Sequence[MenuRow], note: str = "") -> None:
        """A short menu: one button per row (None: greyed out); a click runs the row's command and closes it."""
        from pygame_gui.elements import UIButton, UILabel, UIWindow

        self.close()
        s = self.scale
        row = round(ROW_PX * s)
        extra = row if note else 0
        width = round(min(620, max(320, 40 + 8 * max((len(r[0]) for r in rows), default=20))) * s)
        rect = self._rect(width, 48 + extra + row * len(rows) + 8)
        ui = self._ui()
        win = UIWindow(rect, ui, window_display_title=title, resizable=False)
        inner = win.get_container().get_size()[0] - 20
        y = 8
        if note:
            UILabel(pygame.Rect(10, y, inner, row - 6), note, ui, container=win)
            y += extra
        for label, command in rows:
            button = UIButton(pygame.Rect(10, y, inner, row - 6), label, ui, container=win)
            if command is None:
                button.disable()  # type: ignore[no-untyped-call]
            else:
                self._rows[button] = command
            y += row
        self.window, self.title = win, title

    # ---------------------------------------------------------------- events and time
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Give ``event`` to the dialog; True if it was the dialog's (always, while one is open)."""
        import pygame_gui

        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self._asker:
            pick = self._pick
            self.close()
            if pick is not None:
                pick(Path(event.text))
            return True
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and event.ui_element is self._asker:
            yes = self._yes
            self.close()
            if yes is not None:
                yes()
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self._rows:
            command = self._rows[event.ui_element]
            self.close()
            command()
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            self.close()
            return True
        if not self.is_open:
            self.window, self.title = None, ""  # closed itself (OK, Cancel): its answer may still be on its way
            return False
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            return True
        self.manager.process_events(event)
        return True

    def update(self, dt: float) -> None:
        """Advance the dialog's widgets by ``dt`` seconds."""
        if self.manager is not None:
            self.manager.update(dt)
            if self.window is not None and not self.window.alive():
                self.window, self.title = None, ""

    def draw(self, surface: pygame.Surface) -> None:
        """The window shaded under the dialog, and the dialog."""
        if not self.is_open:
            return
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill(SHADE)
        surface.blit(shade, (0, 0))
        self.manager.draw_ui(surface)

    # ---------------------------------------------------------------- for tests and scripts
    def button_centre(self, label: str) -> tuple[int, int]:
        """The screen centre of the open dialog's button labelled ``label`` (``KeyError`` if none)."""
        for element in self._elements():
            text = str(getattr(element, "text", "")).removeprefix("pygame-gui.").replace("_", " ")
            if text == label and hasattr(element, "enable"):
                return (int(element.rect.centerx), int(element.rect.centery))
        raise KeyError(label)

    def _elements(self) -> list[Any]:
        if self.manager is None:
            return []
        return list(self.manager.get_sprite_group().sprites())
