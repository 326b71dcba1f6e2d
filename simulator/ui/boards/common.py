"""What both Deadlands board windows share: palette, text, buttons, the log, the play history and drags.

The rules live in :mod:`simulator.boards`; the views only draw a
:class:`simulator.boards.board_play.BoardPlay` and turn clicks, drags and keys
into its actions. Boards have no millimetre frame, so ``ui/view.py`` (the
table's mm <-> px conversion) is not involved: board spaces are laid out in
screen pixels by each view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
from pydantic import ValidationError

from simulator.boards.board_play import BoardPlay
from simulator.errors import IllegalChoice
from simulator.ui import palette

Colour = tuple[int, int, int]
Point = tuple[int, int]
PAPER: Colour = (236, 226, 200)
PANEL: Colour = (226, 214, 184)
INK: Colour = (40, 30, 20)
WOOD: Colour = (150, 104, 64)
WOOD_DARK: Colour = (96, 62, 34)
STREET: Colour = (206, 178, 128)
STREET_LINE: Colour = (160, 130, 86)
GREEN: Colour = (40, 170, 70)
BLUE: Colour = (40, 110, 210)
RED: Colour = (200, 40, 40)
GOLD: Colour = (220, 180, 40)
GREY: Colour = (120, 120, 120)
WHITE: Colour = (255, 255, 255)
NEUTRAL: Colour = (196, 190, 178)
BUTTON: Colour = (214, 200, 170)
BUTTON_OFF: Colour = (200, 194, 182)
PALETTE: tuple[Colour, ...] = (
    (200, 60, 50), (50, 100, 200), (230, 200, 60), (60, 160, 80), (150, 70, 170), (240, 140, 40),
)
DRAG_THRESHOLD_PX = 4
BAR_H = 34
TOP_H = 48

HELP_COMMON = [
    ("H / F1", "show or hide this help"),
    ("Esc", "cancel the selection, a drag or a half-made choice; close this help"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo the last change (every change is autosaved)"),
    ("Ctrl+S", "save a copy in your data folder (the message says where)"),
    ("Ctrl+O", "load the newest save of this board (or drop a save on the window)"),
    ("Ctrl+B", "colour-blind-safe side colours (Okabe-Ito) on or off"),
]


def font(size: int) -> pygame.font.Font:
    """Return the pygame default font at ``size`` px (cached)."""
    if size not in _FONTS:
        _FONTS[size] = pygame.font.Font(None, size)
    return _FONTS[size]


_FONTS: dict[int, pygame.font.Font] = {}


def text(surface: pygame.Surface, words: str, pos: tuple[int, int], size: int = 20, colour: Colour = INK,
         centre: bool = False) -> pygame.Rect:
    """Draw ``words`` at ``pos`` (top-left, or centre when ``centre``); return the text rect."""
    image = font(size).render(words, True, colour)
    rect = image.get_rect(center=pos) if centre else image.get_rect(topleft=pos)
    surface.blit(image, rect)
    return rect


def wrap(words: str, size: int, width: int) -> list[str]:
    """Split ``words`` into lines no wider than ``width`` px in the default font."""
    lines: list[str] = []
    for word in words.split():
        if lines and font(size).size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def fit_lines(words: str, size: int, width: int, max_lines: int = 2) -> tuple[list[str], int]:
    """Wrap ``words`` into at most ``max_lines`` lines of ``width`` px, shrinking the font until they fit."""
    while size > 12:
        lines = wrap(words, size, width)
        if len(lines) <= max_lines and all(font(size).size(line)[0] <= width for line in lines):
            return lines, size
        size -= 2
    return wrap(words, size, width)[:max_lines], size


def fit_text(words: str, size: int, width: int) -> tuple[str, int]:
    """One line of ``words`` in ``width`` px: the font shrinks to 12 px, then the text is cut with a dot."""
    while size > 12 and font(size).size(words)[0] > width:
        size -= 1
    while len(words) > 2 and font(size).size(words)[0] > width:
        words = words[:-2] + "."
    return words, size


def pretty(key: str) -> str:
    """Turn an id like ``texas_rangers`` or ``casino-morongo`` into ``Texas Rangers``."""
    return " ".join(part.capitalize() for part in key.replace("-", " ").replace("_", " ").split())


def translucent(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, alpha: int) -> None:
    """Fill ``rect`` with ``colour`` at ``alpha`` (0-255) over what is drawn."""
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    layer.fill((*colour, alpha))
    surface.blit(layer, rect.topleft)


@dataclass
class Button:
    """A clickable panel button: its rect, label, what it does, and whether it is offered now."""

    rect: pygame.Rect
    label: str
    act: Callable[[], object]
    enabled: bool = True
    tone: Colour = BUTTON
    pressed: bool = False
    plain: bool = False

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the button (greyed when disabled, outlined in gold when pressed); a plain label is just text."""
        if self.plain:
            label, size = fit_text(self.label, 20, self.rect.width)
            text(surface, label, (self.rect.x, self.rect.centery - font(size).get_height() // 2), size, INK)
            return
        fill = self.tone if self.enabled else BUTTON_OFF
        pygame.draw.rect(surface, fill, self.rect, border_radius=5)
        edge = GOLD if self.pressed else (WOOD_DARK if self.enabled else GREY)
        pygame.draw.rect(surface, edge, self.rect, 3 if self.pressed else 1, border_radius=5)
        label, size = fit_text(self.label, 20, self.rect.width - 8)
        text(surface, label, self.rect.center, size, INK if self.enabled else GREY, centre=True)


class Panel:
    """Lays buttons out in rows inside a column of the window, top to bottom."""

    def __init__(self, x: int, y: int, width: int, row_h: int = 28, gap: int = 5) -> None:
        self.x, self.y, self.width, self.row_h, self.gap = x, y, width, row_h, gap
        self.buttons: list[Button] = []
        self.notes: list[tuple[int, str, int, Colour]] = []

    def row(self, *items: tuple[str, Callable[[], object] | None] | tuple[str, Callable[[], object], bool],
            weights: tuple[int, ...] | None = None, pressed: str = "") -> list[Button]:
        """Add one row of buttons sharing the width (``weights`` sets their shares); return them.

        An item whose action is ``None`` is a plain label in the row.
        """
        weights = weights or tuple(1 for _ in items)
        total = sum(weights)
        x, made = self.x, []
        for item, w in zip(items, weights, strict=True):
            width = (self.width - self.gap * (len(items) - 1)) * w // total
            label, act = item[0], item[1]
            enabled = item[2] if len(item) > 2 else act is not None
            button = Button(pygame.Rect(x, self.y, width, self.row_h), label, act or _nothing, bool(enabled),
                            pressed=label == pressed, plain=act is None)
            made.append(button)
            x += width + self.gap
        self.buttons += made
        self.y += self.row_h + self.gap
        return made

    def note(self, words: str, size: int = 20, colour: Colour = INK, max_lines: int = 4) -> None:
        """Add wrapped text (at most ``max_lines`` lines)."""
        for line in wrap(words, size, self.width)[:max_lines]:
            self.notes.append((self.y, line, size, colour))
            self.y += size - 2
        self.y += 4

    def heading(self, words: str) -> None:
        """Add a small heading (two lines at most)."""
        self.y += 4
        self.note(words, 22, WOOD_DARK, 2)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the notes and the buttons."""
        for y, line, size, colour in self.notes:
            text(surface, line, (self.x, y), size, colour)
        for b in self.buttons:
            b.draw(surface)

    def click(self, pos: Point) -> Button | None:
        """The button under ``pos`` (enabled or not), or ``None``."""
        return next((b for b in self.buttons if b.rect.collidepoint(pos)), None)


def _nothing() -> None:
    """What a plain label does when clicked."""


def draw_log(surface: pygame.Surface, rect: pygame.Rect, lines: list[str], scroll: int = 0) -> None:
    """Draw the newest log lines that fit in ``rect`` (``scroll`` lines back from the end), wrapped."""
    pygame.draw.rect(surface, PANEL, rect, border_radius=6)
    pygame.draw.rect(surface, STREET_LINE, rect, 1, border_radius=6)
    text(surface, "Log", (rect.x + 8, rect.y + 4), 20, WOOD_DARK)
    size, step = 18, 16
    room = (rect.height - 26) // step
    shown: list[str] = []
    for line in reversed(lines[: len(lines) - scroll] if scroll else lines):
        wrapped = wrap(line, size, rect.width - 16) or [""]
        shown = wrapped + shown
        if len(shown) >= room:
            break
    for i, line in enumerate(shown[-room:]):
        text(surface, line, (rect.x + 8, rect.y + 24 + i * step), size, INK)


def side_colours(ids: Sequence[str]) -> dict[str, Colour]:
    """Each side's colour (an outfit or a player, by id, in order): the board's :data:`PALETTE`, or the
    Okabe-Ito colour-blind-safe palette nearest to it when that setting is on (Ctrl+B, as in the table
    window; :mod:`simulator.ui.palette`)."""
    own = [PALETTE[i % len(PALETTE)] for i in range(len(ids))]
    if not palette.colour_blind():
        return dict(zip(ids, own, strict=True))
    safe = palette.team_colours(tuple(f"#{r:02x}{g:02x}{b:02x}" for r, g, b in own))
    return {i: (int(h[1:3], 16), int(h[3:5], 16), int(h[5:7], 16)) for i, h in zip(ids, safe, strict=True)}


class BoardView:
    """What both board views share: the play (history, log), the message line, drags, panel buttons, saving."""

    help_lines: list[tuple[str, str]] = []

    def side_ids(self) -> list[str]:
        """The ids of the sides drawn in their own colours (outfits, players), in order."""
        return []

    @property
    def colours(self) -> dict[str, Colour]:
        """Each side's colour by id (:func:`side_colours`), following the colour-blind setting."""
        return side_colours(self.side_ids())

    def __init__(self, play: BoardPlay, size: tuple[int, int], autosave: Path | None) -> None:
        self.play = play
        self.size = size
        self.autosave = autosave
        self.message = "Press H for help."
        self.dragging: str | None = None
        self.drag_from: Point = (0, 0)
        self.drag_pos: Point = (0, 0)
        self.panel = Panel(0, 0, 100)
        self.rng = random.Random()
        self.log_scroll = 0

    @property
    def title(self) -> str:
        """The window's title (the board file's)."""
        return self.play.title

    # ---- changing the game

    def act(self, action: Any, success: str = "") -> bool:
        """Apply ``action``; show its last log line (or ``success``) or the refusal; autosave. True when done."""
        try:
            lines = self.play.do(action)
        except IllegalChoice as e:
            self.message = f"Refused: {e}"
            return False
        self.message = success or (lines[-1] if lines else "Done.")
        self.after_change()
        self.save_auto()
        return True

    def after_change(self) -> None:
        """Hook: the game moved on (a view drops stale selections here)."""

    def save_auto(self) -> None:
        """Write the autosave (when enabled); a write failure is reported, never raised."""
        if self.autosave is None:
            return
        try:
            self.play.save(self.autosave)
        except OSError as e:
            self.message += f"  [autosave failed: {e.strerror or e}]"

    def undo(self) -> None:
        """Ctrl+Z: take back the last change."""
        if not self.undo_allowed():
            return
        self.message = "Undone." if self.play.undo() else "Nothing to undo."
        self.cancel()
        self.after_change()
        self.save_auto()

    def undo_allowed(self) -> bool:
        """Hook: a view may refuse an undo (e.g. one that would show another outfit's secret orders)."""
        return True

    def redo(self) -> None:
        """Ctrl+Y: bring back the last undone change."""
        self.message = "Redone." if self.play.redo() else "Nothing to redo."
        self.cancel()
        self.after_change()
        self.save_auto()

    def roll(self, count: int = 1) -> tuple[int, ...]:
        """Roll ``count`` d6 with the window's dice (the result goes into the action, so replays agree)."""
        return tuple(self.rng.randint(1, 6) for _ in range(count))

    # ---- events

    def cancel(self) -> None:
        """Drop the drag in progress."""
        self.dragging = None

    def begin_drag(self, figure: str, pos: Point) -> None:
        """Pick up ``figure`` at ``pos``."""
        self.dragging, self.drag_from, self.drag_pos = figure, pos, pos

    def dragged_far(self, pos: Point) -> bool:
        """True once the mouse moved far enough from the press to count as a drag."""
        return abs(pos[0] - self.drag_from[0]) + abs(pos[1] - self.drag_from[1]) > DRAG_THRESHOLD_PX

    def handle_event(self, event: pygame.event.Event) -> None:
        """Route mouse events to the panel, ``press``, ``motion`` and ``release``; keys to ``key``."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.build_panel()
            button = self.panel.click(event.pos)
            if button is None:
                self.press(event.pos)
            elif button.enabled:
                self.safely(button.act)
        elif event.type == pygame.MOUSEMOTION:
            if self.dragging:
                self.drag_pos = event.pos
            self.motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            figure, self.dragging = self.dragging, None
            if self.dragged_far(event.pos):
                self.drop(figure, event.pos)
            else:
                self.click(figure, event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            self.log_scroll = max(0, min(len(self.play.log()) - 1, self.log_scroll + event.y))
        elif event.type == pygame.KEYDOWN:
            self.build_panel()
            key, mod = event.key, getattr(event, "mod", 0)
            self.safely(lambda: self.key(key, mod))

    def safely(self, do: Callable[[], object]) -> None:
        """Run a control's handler; a value the rules' data refuse (out of range) becomes the message."""
        try:
            do()
        except ValidationError as e:
            first = e.errors()[0]
            self.message = f"Refused: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}"

    def press(self, pos: Point) -> None:  # pragma: no cover - overridden
        """Mouse button 1 pressed at ``pos`` (not on a panel button)."""

    def motion(self, pos: Point) -> None:
        """The mouse moved to ``pos``."""

    def drop(self, figure: str, pos: Point) -> None:  # pragma: no cover - overridden
        """``figure`` was dragged and dropped at ``pos``."""

    def click(self, figure: str, pos: Point) -> None:
        """``figure`` was clicked (pressed and released without dragging)."""

    def key(self, key: int, mod: int) -> None:
        """A key was pressed."""

    def build_panel(self) -> None:  # pragma: no cover - overridden
        """Rebuild ``self.panel`` for the present state."""

    def draw(self, surface: pygame.Surface) -> None:  # pragma: no cover - overridden
        """Draw the whole view."""

    def draw_top(self, surface: pygame.Surface, status: str) -> None:
        """The title and the status line (whose turn, which step) along the top."""
        w = surface.get_width()
        pygame.draw.rect(surface, WOOD_DARK, (0, 0, w, TOP_H))
        keys = "H help  Ctrl+Z undo  Ctrl+S save"
        keys_w = font(20).size(keys)[0]
        title = text(surface, self.title, (14, 10), 34, WHITE)
        words, size = fit_text(status, 26, w - title.right - 20 - keys_w - 40)
        text(surface, words, (title.right + 20, 15), size, GOLD)
        text(surface, keys, (w - 14 - keys_w, 16), 20, PAPER)

    def draw_message(self, surface: pygame.Surface) -> None:
        """Draw the message line along the bottom edge."""
        w, h = surface.get_size()
        pygame.draw.rect(surface, WOOD_DARK, (0, h - BAR_H, w, BAR_H))
        words, size = fit_text(self.message, 24, w - 24)
        text(surface, words, (12, h - BAR_H + 8), size, WHITE)
