"""One board window: load a board file or a board save, route events to its view, help, save, load, undo.

Public entry points: :func:`run_board_window` (a window and its event loop)
and :func:`render_board` (the same drawing, headless, to a PNG). Both take a
board file (``[board]`` table, ``docs/boards.md``) or a board save (``.json``,
:mod:`simulator.boards.board_play`). An :class:`App` splits each frame into
``handle_event`` / ``update`` / ``draw`` so tests can post mouse events.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pygame

from simulator.boards.board_files import GulchGame, load_board_path
from simulator.boards.board_play import BoardPlay, autosave_path, is_board_save, save_folder
from simulator.errors import InputFileError
from simulator.ui import palette
from simulator.ui.boards.common import HELP_COMMON, INK, PAPER, WOOD_DARK, BoardView, text, translucent
from simulator.ui.boards.doom_view import DoomView
from simulator.ui.boards.gulch_view import GulchView
from simulator.ui.user_files import Settings

DEFAULT_SIZE = (1400, 900)


def load_play(path: Path) -> BoardPlay:
    """A board file or a board save, ready to play; raises :class:`InputFileError` when invalid."""
    path = Path(path)
    if path.suffix.lower() == ".json" or is_board_save(path):
        return BoardPlay.load(path)
    return BoardPlay.from_file(load_board_path(path))


def make_view(play: BoardPlay, size: tuple[int, int], autosave: Path | None) -> GulchView | DoomView:
    """The view for the board being played."""
    if play.game == "slaughter_gulch":
        return GulchView(play, size, autosave)
    return DoomView(play, size, autosave)


class App:
    """One board window: routes events to the board's view, draws it, and owns help, save and undo keys.

    ``autosave`` is where every change is written (``None``: nowhere, as in
    tests and renders); ``save_dir`` is where Ctrl+S writes and Ctrl+O reads.
    """

    def __init__(self, path: Path, size: tuple[int, int] = DEFAULT_SIZE, autosave: Path | None = None,
                 save_dir: Path | None = None) -> None:
        """Load the board file or save at ``path``; raises :class:`InputFileError` if invalid."""
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = size
        self.autosave = autosave
        self.save_dir = save_dir
        self.view: GulchView | DoomView = make_view(load_play(Path(path)), size, autosave)
        palette.use_colour_blind(Settings.load().colour_blind)
        self.show_help = False
        self.running = True
        if autosave is not None:
            self.view.message = f"Press H for help. Every change is autosaved to {autosave}."

    @property
    def play(self) -> BoardPlay:
        """The game being played."""
        return self.view.play

    def handle_event(self, event: pygame.event.Event) -> None:
        """Apply one pygame event: quit, help, cancel, undo/redo, save/load, a dropped save, or the view's own."""
        ctrl = event.type == pygame.KEYDOWN and bool(getattr(event, "mod", 0) & pygame.KMOD_CTRL)
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_h, pygame.K_F1) and not ctrl:
            self.show_help = not self.show_help
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.show_help:
                self.show_help = False
            else:
                self.view.cancel()
                self.view.message = "Cancelled."
        elif ctrl and event.key == pygame.K_z:
            self.view.redo() if event.mod & pygame.KMOD_SHIFT else self.view.undo()
        elif ctrl and event.key == pygame.K_y:
            self.view.redo()
        elif ctrl and event.key == pygame.K_s:
            self.save()
        elif ctrl and event.key == pygame.K_o:
            self.open_latest()
        elif ctrl and event.key == pygame.K_b:
            self.toggle_palette()
        elif event.type == pygame.DROPFILE:
            self.open(Path(event.file))
        elif not self.show_help:
            self.view.handle_event(event)

    def toggle_palette(self) -> None:
        """Ctrl+B: the colour-blind-safe (Okabe-Ito) side colours on or off, kept in the settings shared with
        the table window."""
        settings = Settings.load()
        settings.colour_blind = not settings.colour_blind
        try:
            settings.save()
        except OSError as e:
            self.view.message = f"Could not keep the setting: {e.strerror or e}"
        palette.use_colour_blind(settings.colour_blind)
        self.view.message = "Colour-blind-safe colours (Okabe-Ito): " + ("on" if settings.colour_blind else "off") \
            + " (Ctrl+B)."

    def _save_dir(self) -> Path:
        return self.save_dir if self.save_dir is not None else save_folder()

    def save(self) -> Path | None:
        """Ctrl+S: write a save named by the board and the time into the save folder; return its path."""
        path = self._save_dir() / f"{self.play.game}_{time.strftime('%Y%m%d-%H%M%S')}.json"
        n = 1
        while path.exists():
            n += 1
            path = path.with_name(f"{self.play.game}_{time.strftime('%Y%m%d-%H%M%S')}_{n}.json")
        try:
            self.play.save(path)
        except OSError as e:
            self.view.message = f"Could not save: {e.strerror or e}"
            return None
        self.view.message = f"Saved to {path}  (open it with: gaslands play {path})"
        return path

    def open_latest(self) -> None:
        """Ctrl+O: load the newest save of this board from the save folder."""
        folder = self._save_dir()
        saves = sorted(folder.glob(f"{self.play.game}_*.json"), key=lambda p: p.stat().st_mtime) \
            if folder.is_dir() else []
        saves = [s for s in saves if not s.name.endswith("_autosave.json")]
        if not saves:
            self.view.message = f"No save of this board in {folder} yet (Ctrl+S makes one)."
            return
        self.open(saves[-1])

    def open(self, path: Path) -> None:
        """Load a board save or board file into this window; a bad file is reported, the game kept."""
        try:
            play = load_play(path)
        except InputFileError as e:
            self.view.message = f"Not loaded: {str(e).splitlines()[0]}"
            return
        self.view = make_view(play, self.size, self.autosave)
        self.view.message = f"Loaded {path}."

    def update(self) -> None:
        """Advance time-dependent state (none: everything changes on events)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the board, and the help overlay when shown."""
        self.view.draw(surface)
        if self.show_help:
            draw_help(surface, self.view)


def draw_help(surface: pygame.Surface, view: BoardView) -> None:
    """The help overlay: the board's controls, then the shared ones."""
    w, h = surface.get_size()
    lines: list[tuple[str, str]] = [*view.help_lines, ("", ""), *HELP_COMMON]
    height = 84 + 25 * len(lines)
    box = pygame.Rect(w // 2 - 560, max(10, h // 2 - height // 2), 1120, height)
    translucent(surface, surface.get_rect(), INK, 140)
    pygame.draw.rect(surface, PAPER, box, border_radius=10)
    pygame.draw.rect(surface, WOOD_DARK, box, 4, border_radius=10)
    text(surface, "Controls", (box.x + 20, box.y + 16), 34)
    for i, (keys, words) in enumerate(lines):
        text(surface, keys, (box.x + 24, box.y + 60 + i * 25), 24, WOOD_DARK)
        text(surface, words, (box.x + 230, box.y + 60 + i * 25), 22)


def window_size() -> tuple[int, int]:
    """The window's size: 1400x900, smaller on a smaller screen (never below 1100x680)."""
    info = pygame.display.Info()
    width = info.current_w if info.current_w > 0 else DEFAULT_SIZE[0]
    height = info.current_h if info.current_h > 0 else DEFAULT_SIZE[1]
    return (max(1100, min(DEFAULT_SIZE[0], width - 40)), max(680, min(DEFAULT_SIZE[1], height - 80)))


def run_board_window(path: Path) -> None:
    """Open a window on the board file or save at ``path`` and run until it is closed.

    Every change is autosaved into the user's data folder. Raises
    :class:`simulator.errors.InputFileError` for an invalid file.
    """
    play = load_play(Path(path))
    pygame.display.init()
    pygame.font.init()
    try:
        app = App(path, window_size(), autosave=autosave_path(play.game))
        screen = pygame.display.set_mode(app.size)
        pygame.display.set_caption(f"{app.view.title} - press H for help")
        clock = pygame.time.Clock()
        while app.running:
            for event in pygame.event.get():
                app.handle_event(event)
            app.update()
            app.draw(screen)
            pygame.display.flip()
            clock.tick(30)
    finally:
        pygame.quit()


def render_board(path: Path, out_png: Path, size: tuple[int, int] = DEFAULT_SIZE) -> None:
    """Draw the board file or save at ``path`` to the PNG ``out_png`` without opening a window.

    Works with ``SDL_VIDEODRIVER=dummy``. Raises
    :class:`simulator.errors.InputFileError` for an invalid file, ``OSError``
    when the picture cannot be written.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.font.init()
    app = App(path, size)
    surface = pygame.Surface(size)
    app.draw(surface)
    out_png = Path(out_png)
    try:
        pygame.image.save(surface, str(out_png))
    except pygame.error as e:
        raise OSError(f"cannot write {out_png}: {e}") from None


__all__ = ["App", "GulchGame", "render_board", "run_board_window"]
