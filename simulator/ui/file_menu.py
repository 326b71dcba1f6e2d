"""The File menu and its keys: New Game, Open, Save, Save As, recent files, settings, Quit.

Every file goes through a dialog (:mod:`simulator.ui.dialogs`) that opens
in the user's data folder (:mod:`simulator.ui.user_files`), one folder per
kind: games, scenarios, rulings files, teams, tracks. What Save writes
depends on the mode on screen: a game its save (``.json``), the free table
and the rulings mode a rulings file, the track editor its track. Before
anything unsaved is replaced (Open, New Game, Quit, closing the window) the
window asks. A file opened becomes a fresh window state (:attr:`App.successor`),
except a saved game opened during a game, which replaces the game in place
(the seats and the view are kept).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from simulator.errors import InputFileError
from simulator.ui.dialogs import Dialogs
from simulator.ui.user_files import KINDS, Kind, Recent, Settings, folder, is_shipped, suggested_name

if TYPE_CHECKING:
    from simulator.ui.app import App
    from simulator.ui.team_builder import TeamBuilderScreen

Command = Callable[[], None]
SCALES = (0.85, 1.0, 1.25, 1.5, 1.75, 2.0)
"""The UI scales offered (text and controls; 1.25 and up for high-DPI screens)."""


def bundled_races() -> list[tuple[str, Path]]:
    """The scenarios shipped with the program that play as a game: (name, path), the races first (Street Race
    first), then the other scenarios (p.130-175)."""
    from simulator.scenario.loader import bundled_scenario, load_scenario

    out: list[tuple[bool, str, Path]] = []
    for p in sorted(bundled_scenario().parent.glob("*.toml"), key=lambda p: (p.stem != "street_race", p.stem)):
        try:
            s = load_scenario(p)
        except InputFileError:
            continue
        if s.spec.scenario.kind in ("street_race", "death_race", "scenario") and not s.spec.query:
            out.append((s.spec.scenario.kind == "scenario", s.name, p))
    return [(name, p) for _, name, p in sorted(out, key=lambda r: r[0])]


def shipped_games() -> tuple[list[tuple[str, Path]], list[tuple[str, str, list[tuple[str, Path]]]]]:
    """The shipped races, and the other shipped scenarios by their group (Televised Events p.130-134, Wasteland
    Skirmishes p.135-142, Special Events p.143-153, Savage Highways p.165-175) with the group's pages."""
    from simulator.gaslands.objectives import scenario_specs
    from simulator.scenario.loader import load_scenario

    races: list[tuple[str, Path]] = []
    groups: dict[str, list[tuple[str, Path]]] = {}
    for name, path in bundled_races():
        key = load_scenario(path).spec.scenario.rules
        if key:
            groups.setdefault(scenario_specs()[key].group, []).append((name, path))
        else:
            races.append((name, path))
    pages = {"Televised Events": "p.130-134", "Wasteland Skirmishes": "p.135-142", "Special Events": "p.143-153",
             "Savage Highways": "p.165-175"}
    order = list(pages)
    return races, [(g, pages.get(g, ""), groups[g]) for g in sorted(groups, key=lambda g: order.index(g)
                                                                     if g in order else 99)]


class FileMenu:
    """The window's file commands (see the module docstring)."""

    def __init__(self, app: App, settings: Settings | None = None) -> None:
        self.app = app
        self.recent = Recent.load()
        self.settings = settings or Settings.load()

    @property
    def dialogs(self) -> Dialogs:
        """The window's dialogs."""
        return self.app.ctx.dialogs

    def say(self, message: str) -> None:
        """A message in the status line."""
        self.app.mode.say(message)

    # ================================================================ keys and the menu
    def key(self, key: int, mod: int) -> bool:
        """Ctrl+N, Ctrl+O, Ctrl+S, Ctrl+Shift+S, Ctrl+Q, Ctrl+T (team builder), and the settings' Ctrl+M (sound),
        Ctrl+B (colour-blind-safe colours) and Ctrl+L (the legend; L alone is the game's line-of-fire check); True
        if it was one of them."""
        if not mod & pygame.KMOD_CTRL:
            return False
        if key == pygame.K_s and mod & pygame.KMOD_SHIFT:
            self.save_as()
        else:
            command = {pygame.K_n: self.new_game, pygame.K_o: self.open, pygame.K_s: self.save,
                       pygame.K_q: self.quit, pygame.K_t: self.team_builder, pygame.K_m: self.toggle_sound,
                       pygame.K_b: self.toggle_palette, pygame.K_l: self.toggle_legend}.get(key)
            if command is None:
                return False
            command()
        return True

    def show(self) -> None:
        """The File menu."""
        rows: list[tuple[str, Command | None]] = [
            ("New game...  (Ctrl+N)", self.new_game),
            ("Open...  (Ctrl+O)", self.open),
            ("Save  (Ctrl+S)", self.save if self.can_save() else None),
            ("Save as...  (Ctrl+Shift+S)", self.save_as if self.can_save() else None),
            ("Open a track in the editor...", self.open_track),
            ("Team builder...  (Ctrl+T)", self.team_builder),
            ("Open a team in the team builder...", self.open_team),
        ]
        rows += [(f"Recent: {p.name}  ({KINDS[k][2]})", self._team_opener(p) if k == "team" else self._opener(p))
                 for k, p in self.recent.entries[:5]]
        rows += [("Settings...", self.show_settings), ("Quit  (Ctrl+Q)", self.quit)]
        self.dialogs.menu("File", rows)

    def team_builder(self) -> None:
        """Ctrl+T: the team builder on the team being built."""
        from simulator.ui.team_builder import TeamBuilderScreen

        if not isinstance(self.app.screen, TeamBuilderScreen):
            self.app.open_team_builder()

    def open_team(self) -> None:
        """Pick a team file for the team builder."""
        self.dialogs.ask_path("Open a team", self._folder("team"), (".toml",), self._open_team_now, must_exist=True)

    def _open_team_now(self, path: Path) -> None:
        def run() -> None:
            screen = self.app.open_team_builder()
            screen.open_file(path)
            if not self.app.team_builder.unsaved:
                self._remember("team", path)
        if self.app.team_builder.unsaved:
            self.dialogs.confirm("Unsaved changes", f"The team {self.app.team_builder.team.name} has unsaved "
                                 f"changes. Carry on and open {path.name}?", run, yes="Open " + path.name)
        else:
            run()

    def _builder(self) -> TeamBuilderScreen | None:
        from simulator.ui.team_builder import TeamBuilderScreen

        return self.app.screen if isinstance(self.app.screen, TeamBuilderScreen) else None

    def _opener(self, path: Path) -> Command:
        return lambda: self.open_path(path)

    def _team_opener(self, path: Path) -> Command:
        return lambda: self._open_team_now(path)

    def show_settings(self) -> None:
        """UI scale, sound, camera and colours."""
        s = self.settings
        rows: list[tuple[str, Command | None]] = [
            (f"UI scale {scale:.0%}" + ("  (now)" if abs(scale - s.ui_scale) < 1e-6 else ""), self._scaler(scale))
            for scale in SCALES]
        rows += [("Sound: " + ("off" if s.muted else "on") + "  (Ctrl+M toggles)", self.toggle_sound),
                 ("Camera follows the active car: " + ("on" if s.follow_camera else "off") + "  (C toggles)",
                  self._toggle("follow_camera")),
                 ("Colour-blind-safe team colours: " + ("on" if s.colour_blind else "off") + "  (Ctrl+B toggles)",
                  self.toggle_palette),
                 ("Legend of the table's colours and marks  (Ctrl+L)", self.toggle_legend)]
        self.dialogs.menu("Settings", rows)

    def _scaler(self, scale: float) -> Command:
        def run() -> None:
            self.app.set_ui_scale(scale)
        return run

    def toggle_sound(self) -> None:
        """Ctrl+M: sound off or on (kept in the settings)."""
        self.app.toggle_setting("muted")
        self.say("Sound off: Ctrl+M turns it on again." if self.settings.muted else
                 "Sound on: Ctrl+M mutes it." if self.app.sound.available is not False else
                 "Sound on, but this machine has no sound device.")

    def toggle_palette(self) -> None:
        """Ctrl+B: the colour-blind-safe team colours on or off (kept in the settings)."""
        self.app.toggle_setting("colour_blind")
        self.say("Colour-blind-safe team colours (Okabe-Ito): " + ("on" if self.settings.colour_blind else "off")
                 + ". Ctrl+L shows the legend.")

    def toggle_legend(self) -> None:
        """Ctrl+L: show or hide the legend of the table's colours and marks."""
        self.app.legend_visible = not self.app.legend_visible
        self.app.help_visible = False

    def _toggle(self, name: str) -> Command:
        def run() -> None:
            self.app.toggle_setting(name)
        return run

    # ================================================================ what would be lost
    def unsaved(self, closing: bool = True) -> str:
        """What the window would lose if it were closed (``closing``) or replaced now ("" for nothing)."""
        return self.app.unsaved_work(closing)

    def guarded(self, doing: str, then: Command) -> None:
        """Run ``then`` now, or after a question when something unsaved would be replaced (or, quitting, lost)."""
        lost = self.unsaved(closing=doing == "quit")
        if not lost:
            then()
            return
        self.dialogs.confirm("Unsaved changes", f"{lost} Carry on and {doing}?", then, yes=doing.capitalize())

    # ================================================================ opening
    def start_folder(self) -> Path:
        """Where the Open dialog starts: at the file on screen (if it has one), else its kind's folder."""
        current = self.current_path()
        return current if current is not None and current.is_file() else self._folder(self.kind())

    def _folder(self, kind: Kind) -> Path:
        try:
            return folder(kind)
        except OSError:
            return Path.home()

    def kind(self) -> Kind:
        """The kind of file the mode on screen saves."""
        from simulator.ui.modes.editor import EditorMode
        from simulator.ui.modes.free_table import FreeTableMode
        from simulator.ui.modes.game import GameMode

        if self._builder() is not None:
            return "team"
        mode = self.app.mode
        if isinstance(mode, GameMode):
            return "game"
        if isinstance(mode, EditorMode):
            return "track"
        if isinstance(mode, FreeTableMode):
            return "rulings"
        return "game"

    def open(self) -> None:
        """Ctrl+O: pick a saved game, a scenario or a rulings file to open (in the team builder: a team)."""
        if self._builder() is not None:
            self.open_team()
            return
        self.dialogs.ask_path("Open a game, scenario or rulings file", self.start_folder(), (".json", ".toml"),
                              self.open_path, must_exist=True)

    def open_track(self) -> None:
        """Pick a track file for the editor."""
        self.dialogs.ask_path("Open a track in the editor", self._folder("track"), (".toml",),
                              lambda p: self.open_path(p, editor=True), must_exist=True)

    def open_path(self, path: Path, editor: bool = False) -> None:
        """Open ``path`` (asking first if something unsaved would be replaced)."""
        self.guarded("open " + Path(path).name, lambda: self._open_now(Path(path), editor))

    def _open_now(self, path: Path, editor: bool) -> None:
        from simulator.ui.modes.game import GameMode
        from simulator.ui.modes.online import OnlineGameMode
        from simulator.ui.window import open_app

        mode = self.app.mode
        if path.suffix.lower() == ".json" and isinstance(mode, GameMode) and not isinstance(mode, OnlineGameMode):
            if mode.load(path):
                self._remember("game", path)
            return
        try:
            app = open_app(path, self.app.layout.size, editor=editor, settings=self.settings)
        except (InputFileError, OSError, ValueError) as exc:
            self.say(f"Cannot open {path}: {str(exc).splitlines()[0]}")
            return
        kind: Kind = "game" if path.suffix.lower() == ".json" else "track" if editor else (
            "rulings" if app.rulings is not None else "scenario")
        self._remember(kind, path)
        self.app.successor = app

    def _remember(self, kind: Kind, path: Path) -> None:
        if not is_shipped(path):
            self.recent.add(kind, path)

    # ================================================================ new game
    def new_game(self) -> None:
        """Ctrl+N: choose a scenario (a shipped race, a group of the other scenarios, a recent or any scenario
        file), then who plays."""
        races, groups = shipped_games()
        rows: list[tuple[str, Command | None]] = [(name, self._seats(path)) for name, path in races]
        rows += [(f"{group} ({pages})...", self._group(group, entries)) for group, pages, entries in groups]
        rows += [(f"{p.stem}  (recent)", self._seats(p)) for k, p in self.recent.entries if k == "scenario"][:3]
        rows.append(("Another scenario file...", self._pick_scenario))
        self.dialogs.menu("New game: which scenario?", rows)

    def _group(self, group: str, entries: list[tuple[str, Path]]) -> Command:
        def ask() -> None:
            rows: list[tuple[str, Command | None]] = [(name, self._seats(path)) for name, path in entries]
            self.dialogs.menu(f"New game: {group}", rows)
        return ask

    def _pick_scenario(self) -> None:
        self.dialogs.ask_path("New game from a scenario file", self._folder("scenario"), (".toml",),
                              lambda p: self._seats(p)(), must_exist=True)

    def _seats(self, path: Path) -> Command:
        def ask() -> None:
            rows: list[tuple[str, Command | None]] = [
                ("Choose each seat's team and player...", lambda: self._seat_screen(path)),
                ("Everyone at this screen (hot-seat)", self._starter(path, "none")),
                ("The first team here, bots play the others", self._starter(path, "others")),
                ("Bots play every team (watch a race)", self._starter(path, "all"))]
            self.dialogs.menu(f"New game: {path.stem.replace('_', ' ')} - who plays?", rows)
        return ask

    def _seat_screen(self, path: Path) -> None:
        try:
            self.app.open_new_game(path)
        except (InputFileError, OSError, ValueError) as exc:
            self.say(f"Cannot start {path.name}: {str(exc).splitlines()[0]}")

    def _starter(self, path: Path, bots: str) -> Command:
        return lambda: self.guarded("start a new game", lambda: self._start(path, bots))

    def _start(self, path: Path, bots: str) -> None:
        from simulator.scenario.loader import load_scenario
        from simulator.ui.window import game_app

        try:
            players = len(load_scenario(path).spec.player)
            seats = {"none": set(), "others": set(range(1, players)), "all": set(range(players))}[bots]
            app = game_app(path, self.app.layout.size, seed=random.SystemRandom().randrange(10**6), bots=seats,
                           settings=self.settings)
        except (InputFileError, OSError, ValueError) as exc:
            self.say(f"Cannot start {path.name}: {str(exc).splitlines()[0]}")
            return
        self._remember("scenario", path)
        self.app.successor = app

    # ================================================================ saving
    def can_save(self) -> bool:
        """Whether the mode on screen has anything to save (not a replay, not an online game)."""
        from simulator.ui.modes.editor import EditorMode
        from simulator.ui.modes.free_table import FreeTableMode
        from simulator.ui.modes.game import GameMode
        from simulator.ui.modes.online import OnlineGameMode

        if self._builder() is not None:
            return True
        mode = self.app.mode
        return isinstance(mode, GameMode | FreeTableMode | EditorMode) and not isinstance(mode, OnlineGameMode)

    def current_path(self) -> Path | None:
        """The file Save writes without asking: the one the work was opened from or last saved to (never a
        shipped scenario)."""
        from simulator.ui.modes.editor import EditorMode
        from simulator.ui.modes.free_table import FreeTableMode
        from simulator.ui.modes.game import GameMode

        if self._builder() is not None:
            return self.app.team_builder.path
        mode = self.app.mode
        path = None
        if isinstance(mode, GameMode):
            path = mode.game_path
        elif isinstance(mode, FreeTableMode):
            path = mode.rulings_path
        elif isinstance(mode, EditorMode):
            path = mode.path
        return path if path is not None and not is_shipped(path) else None

    def save(self) -> None:
        """Ctrl+S: write the work to its file, or ask where when it has none."""
        from simulator.ui.modes.editor import EditorMode

        builder = self._builder()
        if builder is not None:
            builder.save()
            return
        if not self.can_save():
            self.say("Nothing to save here: " + ("the host saves an online game." if self.app.game_view
                                                  else "a replay is a saved file already."))
            return
        if isinstance(self.app.mode, EditorMode):
            self.app.mode.save()
            return
        path = self.current_path()
        if path is None:
            self.save_as()
        else:
            self._write(path)

    def save_as(self) -> None:
        """Ctrl+Shift+S: ask where to write the work (in the data folder by default)."""
        from simulator.ui.modes.editor import EditorMode

        builder = self._builder()
        if builder is not None:
            builder.save_as()
            return
        if not self.can_save():
            self.save()
            return
        if isinstance(self.app.mode, EditorMode):
            self.say("The track editor saves to its own file (Ctrl+S); open a copy of a track to save another.")
            return
        kind = self.kind()
        try:
            start = self.current_path() or suggested_name(kind, self.app.mode.scenario.name)
        except OSError:
            start = Path.home()
        noun = KINDS[kind][2].replace("a saved game", "the game").replace("a ", "the ", 1)
        self.dialogs.ask_path(f"Save {noun} as", start, KINDS[kind][1], self._confirm_write,
                              must_exist=False)

    def _confirm_write(self, path: Path) -> None:
        suffix = KINDS[self.kind()][1][0]
        if path.suffix.lower() != suffix:
            path = path.with_name(path.name + suffix)
        if path.exists() and path != self.current_path():
            self.dialogs.confirm("Replace the file?", f"{path.name} exists in {path.parent}. Replace it?",
                                 lambda: self._write(path), yes="Replace")
        else:
            self._write(path)

    def _write(self, path: Path) -> None:
        from simulator.ui.modes.free_table import FreeTableMode
        from simulator.ui.modes.game import GameMode

        mode = self.app.mode
        if isinstance(mode, GameMode):
            if mode.save(path):
                self._remember("game", path)
        elif isinstance(mode, FreeTableMode):
            if mode.save_rulings(path, confirmed=True):
                self._remember("rulings", path)

    # ================================================================ quitting
    def quit(self) -> None:
        """Ctrl+Q or closing the window: close, asking first if something is unsaved."""
        self.guarded("quit", self.app.close)
