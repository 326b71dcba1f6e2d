"""The Gaslands window: a shell that runs the pygame loop and switches between modes on one canvas.

:class:`App` owns the layout, the shared :class:`~simulator.ui.canvas.Canvas`,
the top bar, the status line and the help overlay; everything else is a mode
(:mod:`simulator.ui.modes`): the free table, the rulings mode, a hot-seat game
and the replay viewer. :meth:`App.handle_event` takes one pygame event (the
shell's keys first: H/F1 help, F2 the free table, R the rulings mode; then the
active mode; then the canvas's pan and zoom), :meth:`App.update` advances time,
:meth:`App.draw` paints a surface. Nothing else happens in between, so a test
can post real mouse and key events and read the result (STYLE.md 12).

F2 and R open the free table and the rulings mode on the current table of the
game or replay (a copy: the game is untouched); F2 or R again returns.

The pygame loop and the entry points (``run_window``, ``run_replay``,
``render_png``) are in :mod:`simulator.ui.window`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from simulator.errors import InputFileError
from simulator.gaslands.game import Game
from simulator.gaslands.teams import Team
from simulator.geometry.templates import TemplateSet, load_template_set
from simulator.scenario.loader import Scenario, load_scenario
from simulator.ui import draw, palette
from simulator.ui.canvas import Canvas
from simulator.ui.controller import TurnController
from simulator.ui.file_menu import FileMenu
from simulator.ui.game_controller import GameController, scenario_of
from simulator.ui.help import SCREEN_HELP, SHELL_HELP, draw_help
from simulator.ui.layout import GAME_PANEL_PX, PANEL_PX, Layout
from simulator.ui.legend import draw_legend
from simulator.ui.modes import Context, Mode
from simulator.ui.modes.editor import EditorMode, check_editable
from simulator.ui.modes.free_table import FreeTableMode
from simulator.ui.modes.game import GameMode
from simulator.ui.modes.replay import ReplayMode
from simulator.ui.modes.rulings import RulingsMode
from simulator.ui.new_game import BUILDER as NEW_GAME_BUILDER
from simulator.ui.new_game import NewGame, NewGameScreen
from simulator.ui.sandbox import Sandbox
from simulator.ui.sound import Sound
from simulator.ui.team_builder import TeamBuilder, TeamBuilderScreen
from simulator.ui.top_bar import buttons, draw_status, draw_top
from simulator.ui.user_files import Settings, editable_copy
from simulator.ui.view import View
from simulator.ui.widgets import Button, Command, button_at

if TYPE_CHECKING:
    from simulator.gaslands.campaign import Campaign, NextGame
    from simulator.ui.modes.campaign import Finished

SIZE = (1400, 900)


class App:
    """The window: the active mode, the modes it can switch to, and the shell around them."""

    def __init__(self, scenario: Scenario, size: tuple[int, int] = SIZE, *, template_set: TemplateSet | None = None,
                 controller: TurnController | None = None, rulings_path: Path | None = None,
                 game: GameController | None = None, game_path: Path | None = None,
                 replay: Game | None = None, replay_path: Path | None = None,
                 editor_path: Path | None = None, game_mode: type[GameMode] = GameMode,
                 settings: Settings | None = None,
                 campaign_path: Path | None = None, campaign_finished: Finished | None = None) -> None:
        wide = game is not None or replay is not None
        self.settings = settings or Settings()
        layout = Layout(size, GAME_PANEL_PX if wide else PANEL_PX)
        table = scenario.table
        self.ctx = Context(layout, Canvas(layout.table, (0.0, 0.0, table.width_mm, table.height_mm)),
                           template_set or scenario.template_set, settings=self.settings)
        self.ctx.ask_rulings = lambda queries: self.open_rulings().ask(queries)
        self.ctx.dialogs.resize(layout.size)
        self.files = FileMenu(self, self.settings)
        self.ctx.file_command = lambda name: getattr(self.files, name)()
        self.help_visible = False
        self.legend_visible = False  # the legend of the table's markers (Ctrl+L)
        palette.use_colour_blind(self.settings.colour_blind)
        self.successor: App | None = None
        """The window state to show next (a file opened, a new game); the loop swaps it in."""
        self.closing = False
        """Set when the window should close (Quit, after any question about unsaved work)."""
        self.sound = Sound(self.settings)
        """The sounds of the game's events (Ctrl+M mutes)."""
        self.game = game_mode(self.ctx, game, game_path) if game is not None else None
        self.replay = ReplayMode(self.ctx, replay, replay_path) if replay is not None else None
        for source in (game, self.replay):  # what a decision or a replayed step caused: its sounds
            if source is not None:
                source.on_events = self.sound.play_events
        self.free: FreeTableMode | None = None
        self.rulings: RulingsMode | None = None
        self.rulings_path = rulings_path
        self.controller = controller
        self.editor: EditorMode | None = None
        if editor_path is not None:
            self.editor = EditorMode(self.ctx, editor_path, check_editable(editor_path))
        self.campaign: Mode | None = None
        if campaign_path is not None:
            from simulator.ui.modes.campaign import CampaignMode

            self.campaign = CampaignMode(self.ctx, campaign_path, scenario, self._start_campaign_game,
                                         campaign_finished)
        self.home: Mode = self.campaign or self.game or self.replay or self.editor or self._free_on(
            Sandbox.of_scenario(scenario))
        self.mode: Mode = self.home
        self._from: Mode = self.home
        self.screen: TeamBuilderScreen | NewGameScreen | None = None
        """A full-window screen over the mode (the team builder, the New game screen), if one is open."""
        self.team_builder = TeamBuilder()
        """The team being built (kept while the builder is closed)."""

    @classmethod
    def for_game(cls, game: GameController, size: tuple[int, int] = SIZE, template_set: TemplateSet | None = None,
                 game_path: Path | None = None) -> App:
        """A window playing ``game`` hot-seat under the full rules."""
        return cls(game.scenario, size, template_set=template_set, game=game, game_path=game_path)

    @classmethod
    def for_campaign(cls, path: Path, size: tuple[int, int] = SIZE, finished: Finished | None = None,
                     settings: Settings | None = None) -> App:
        """A window on a campaign file: its pre-game screen, or the post-game screen of ``finished``."""
        from simulator.gaslands.campaign import next_game
        from simulator.scenario.campaign_file import load_campaign, scenario_path
        from simulator.scenario.loader import bundled_scenario

        c = load_campaign(path)
        key = next_game(c).scenario if not c.over else ""
        source = scenario_path(key) if key and scenario_path(key).is_file() else bundled_scenario()
        return cls(load_scenario(source), size, campaign_path=Path(path), campaign_finished=finished,
                   settings=settings)

    def _start_campaign_game(self, c: Campaign, nxt: NextGame, upgrades: tuple[str, ...], bots_only: bool) -> None:
        """A game of the campaign in a game window; its Campaign button brings back the post-game screen."""
        from simulator.scenario.campaign_file import campaign_game
        from simulator.ui.modes.campaign import CampaignGameMode, Finished

        assert self.campaign is not None
        path = self.campaign.path  # type: ignore[attr-defined]
        game = campaign_game(c, nxt, upgrades)
        ctl = GameController(game)
        ctl.bots = set(range(len(game.state.players))) if bots_only else {
            i for i, seat in enumerate(ctl.scenario.spec.player) if seat.bot}
        app = App(ctl.scenario, self.layout.size, game=ctl, game_mode=CampaignGameMode, settings=self.settings)
        assert isinstance(app.game, CampaignGameMode)
        app.game.back = lambda: setattr(app, "successor", App.for_campaign(
            path, app.layout.size, Finished(nxt, ctl.game, upgrades), self.settings))
        self.successor = app

    @classmethod
    def for_editor(cls, path: Path, size: tuple[int, int] = SIZE) -> App:
        """A window editing the track file ``path`` (a new track when it does not exist yet)."""
        doc = check_editable(Path(path))
        return cls(doc.scenario(), size, editor_path=Path(path))

    @classmethod
    def for_replay(cls, game: Game, size: tuple[int, int] = SIZE, source: Path | None = None,
                   settings: Settings | None = None) -> App:
        """A window replaying ``game`` (a loaded save) step by step."""
        return cls(scenario_of(game), size, replay=game, replay_path=source, settings=settings)

    @classmethod
    def from_path(cls, scenario_path: Path, template_set_path: Path | None = None, size: tuple[int, int] = SIZE,
                  query: str | None = None, settings: Settings | None = None) -> App:
        """The free table on a scenario; a rulings file opens in the rulings mode on ``query`` (its id or 1-based
        index; default the first), zoomed onto it. ``KeyError`` for an unknown query."""
        scenario = load_scenario(scenario_path)
        ts = load_template_set(template_set_path) if template_set_path is not None else None
        app = cls(scenario, size, template_set=ts, rulings_path=Path(scenario_path) if scenario.spec.query else None,
                  settings=settings)
        if scenario.spec.query:
            app.open_rulings().ask(scenario.spec.query, query)
        return app

    # ================================================================ modes
    @property
    def view(self) -> View:
        """The canvas's view of the table."""
        return self.ctx.canvas.view

    @property
    def layout(self) -> Layout:
        """Where the window's parts are."""
        return self.ctx.layout

    @property
    def status(self) -> str:
        """The status line."""
        return self.screen.status() if self.screen is not None else self.mode.status()

    @property
    def title(self) -> str:
        """The name of what is shown, for the top bar (``GAME``, ``TEAM BUILDER``...)."""
        return self.screen.title if self.screen is not None else self.mode.title

    @property
    def game_view(self) -> bool:
        """Whether the game is shown (not a free table or the rulings mode)."""
        return self.game is not None and self.mode is self.game

    def _free_on(self, sandbox: Sandbox) -> FreeTableMode:
        self.free = FreeTableMode(self.ctx, sandbox, self.controller, self.rulings_path)
        return self.free

    def switch(self, mode: Mode, message: str = "") -> None:
        """Show ``mode`` (``message`` in its status line)."""
        self.mode = mode
        mode.entered()
        if message:
            mode.say(message)

    def toggle_free_table(self) -> None:
        """F2: the game or replay <-> a free table on its table as it stands (the game is kept)."""
        if self.home is self.free:
            self.mode.say("No game in this window: open a Street Race or Death Race to play one.")
        elif self.mode is self.home:
            self.switch(self._free_on(self.home.sandbox()),
                        "Free table on the game's positions: move anything, the game waits. F2 returns to it.")
        else:
            self.switch(self.home)

    def toggle_editor(self) -> None:
        """F4: into the track editor on the scenario's file (a copy to ``*_edited.toml`` for a bundled or
        unreadable one), or back to where it was opened from."""
        if self.mode is self.editor:
            self.switch(self._from)
            return
        self._from = self.mode
        if self.editor is None:
            source = Path(self.mode.scenario.source)
            path = editable_copy(source)
            try:
                self.editor = EditorMode(self.ctx, path, check_editable(path))
            except InputFileError as exc:
                self.mode.say(f"Cannot edit {path}: {exc}")
                return
        self.switch(self.editor, f"Track editor on {self.editor.path.name}: Ctrl+S saves, F4 goes back.")

    def open_rulings(self) -> RulingsMode:
        """R: the rulings mode on the table shown (the free table's own table; a copy of a game's)."""
        self._from = self.mode
        self.rulings = RulingsMode(self.ctx, self.mode.sandbox(), self.controller, self.rulings_path)
        self.switch(self.rulings)
        return self.rulings

    def toggle_rulings(self) -> None:
        """R: into the rulings mode, or back to where it was opened from."""
        if self.mode is self.rulings:
            self.switch(self._from)
        else:
            self.open_rulings()

    # ================================================================ screens
    def close_screen(self) -> None:
        """Close the team builder or the New game screen (back to the mode underneath)."""
        self.screen = None
        self.mode.entered()

    def open_team_builder(self, path: Path | None = None, on_use: Callable[[Team], None] | None = None) -> \
            TeamBuilderScreen:
        """The team builder (Ctrl+T, File menu) on the team being built, or on the team file ``path``.
        ``on_use``: opened for a seat of the New game screen, what "Use this team" does."""
        screen = TeamBuilderScreen(self.layout.size, self.team_builder, self.ctx.dialogs.ask_path, self.close_screen,
                                   on_use)
        screen.use_in_new_game = self._play_team
        screen.confirm = self.ctx.dialogs.confirm
        screen.on_saved = lambda p: self.files.recent.add("team", p)
        if path is not None:
            screen.open_file(path)
        self.screen = screen
        return screen

    def _play_team(self, team: Team) -> None:
        from simulator.scenario.loader import bundled_scenario

        self.open_new_game(bundled_scenario("street_race.toml"), team)

    def open_new_game(self, path: Path, team: Team | None = None, state: NewGame | None = None) -> NewGameScreen:
        """The New game screen for the scenario ``path``: who plays each seat and with which team (``team``: the
        first seat plays it; ``state``: the choices so far, coming back from the team builder)."""
        if state is None:
            state = NewGame(path)
            if team is not None:
                state.use_team(0, team, NEW_GAME_BUILDER)
                sponsor = team.sponsor
                for i in range(1, len(state.seats)):
                    state.set_seat(i, source="bots", sponsor=sponsor)
                state.cans = team.cans

        def build(index: int) -> None:
            def use(built: Team) -> None:
                state.use_team(index, built, NEW_GAME_BUILDER)
                self.open_new_game(state.path, state=state)
            self.open_team_builder(on_use=use)

        def builder_team() -> Team | None:
            return self.team_builder.team if self.team_builder.team.vehicles else None

        self.screen = NewGameScreen(self.layout.size, state, self._start_game, build, self.ctx.dialogs.ask_path,
                                    self.close_screen, builder_team, seed=random.SystemRandom().randrange(10**6))
        self.screen.confirm = self.ctx.dialogs.confirm
        return self.screen

    def _start_game(self, scenario: Scenario, bots: set[int], seed: int) -> None:
        from simulator.ui.window import game_app_for

        def start() -> None:
            try:
                app = game_app_for(scenario, self.layout.size, seed, bots=bots, settings=self.settings)
            except (InputFileError, OSError, ValueError) as exc:
                self.mode.say(f"Cannot start {scenario.name}: {str(exc).splitlines()[0]}")
                return
            app.team_builder = self.team_builder
            self.successor = app
        self.files.guarded("start a new game", start)

    # ================================================================ events and time
    def handle_event(self, event: pygame.event.Event) -> None:
        """One pygame event: the shell's keys, then the active mode, then the canvas."""
        if "pos" in event.dict and event.type != pygame.MOUSEWHEEL:
            self.ctx.canvas.mouse_pos = (int(event.pos[0]), int(event.pos[1]))
        if event.type == pygame.VIDEORESIZE:
            self.resize(event.size)
        elif event.type == pygame.QUIT:
            self.files.quit()
        elif self.ctx.dialogs.handle_event(event):
            return
        elif event.type == pygame.MOUSEBUTTONDOWN and (self.help_visible or self.legend_visible):
            self.help_visible = self.legend_visible = False
        elif self.screen is not None and self.screen.handle_event(event):
            return
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self._top_click(event.pos):
            return
        elif event.type == pygame.KEYDOWN and (self._shell_key(event.key) or self.files.key(event.key, event.mod)):
            return
        elif not self.mode.handle_event(event):
            self.ctx.canvas.handle_event(event)

    def _shell_key(self, key: int) -> bool:
        if key in (pygame.K_h, pygame.K_F1) or (key == pygame.K_ESCAPE and self.help_visible):
            self.help_visible = not self.help_visible
        elif key == pygame.K_ESCAPE and self.legend_visible:
            self.legend_visible = False
        elif self.screen is not None:
            return False
        elif key == pygame.K_F2:
            self.toggle_free_table()
        elif key == pygame.K_r and self.mode is not self.editor:
            self.toggle_rulings()
        elif key == pygame.K_F4:
            self.toggle_editor()
        else:
            return False
        return True

    def _top_click(self, pos: tuple[int, int]) -> bool:
        b = button_at(self.buttons(), (int(pos[0]), int(pos[1])))
        if b is not None:
            b.action()
        return b is not None

    def update(self, dt: float) -> None:
        """Advance the active mode by ``dt`` seconds (a game's bots play on only while it is shown)."""
        self.ctx.dialogs.update(dt)
        from simulator.ui.modes.online import OnlineGameMode

        if self.screen is not None:
            self.screen.update(dt)
        if self.screen is None or isinstance(self.mode, OnlineGameMode):
            self.mode.update(dt)  # an online game keeps up with the server behind a screen; bots here wait
        self.sound.update(dt)

    def resize(self, size: tuple[int, int]) -> None:
        """Re-lay the window out for a new size, keeping the table point at the view's centre."""
        self.ctx.layout = self.ctx.layout.resized(size)
        self.ctx.canvas.set_rect(self.ctx.layout.table)
        self.ctx.dialogs.resize(self.ctx.layout.size)
        if self.screen is not None:
            self.screen.resize(self.ctx.layout.size)

    # ================================================================ the shell's state
    def close(self) -> None:
        """Close the window (the loop ends)."""
        self.closing = True

    def unsaved_work(self, closing: bool = True) -> str:
        """What would be lost if the window were closed (``closing``) or replaced now, in a sentence ("" for
        nothing). The team being built is lost only by closing: a window that replaces this one keeps it."""
        lost = [m.unsaved_work() for m in (self.game, self.free, self.rulings) if m is not None]
        if self.editor is not None and self.editor.unsaved:
            lost.append(f"The track {self.editor.path.name} has unsaved changes.")
        if closing and self.team_builder.unsaved:
            lost.append(f"The team {self.team_builder.team.name} has unsaved changes.")
        return " ".join(w for w in lost if w)

    def set_ui_scale(self, scale: float) -> None:
        """Draw the window at ``scale`` (kept in the settings; the loop re-lays the window out for it)."""
        self.settings.ui_scale = scale
        self.settings.save()
        self.mode.say(f"UI scale {scale:.0%} (as far as the window keeps 1280x720 points).")

    def toggle_setting(self, name: str) -> None:
        """Turn a yes/no setting (``muted``, ``follow_camera``, ``colour_blind``) over and keep it."""
        setattr(self.settings, name, not getattr(self.settings, name))
        self.settings.save()
        if name == "muted":
            self.sound.set_muted(self.settings.muted)
        palette.use_colour_blind(self.settings.colour_blind)
        self.mode.entered()

    # ================================================================ drawing
    def buttons(self) -> list[Button[Command]]:
        """The top bar's buttons (:func:`simulator.ui.top_bar.buttons`)."""
        return buttons(self)

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the whole window."""
        self.ctx.canvas.begin_frame()
        surface.fill(draw.BACKGROUND)
        pygame.draw.rect(surface, (16, 17, 20), self.layout.top)
        self.mode.draw(surface)
        if self.screen is not None:
            self.screen.draw(surface)
            pygame.draw.rect(surface, (16, 17, 20), self.layout.top)  # the mode's own line is not the screen's
        draw_top(self, surface)
        draw_status(self, surface, ("" if self.screen is not None else f"{self.view.scale_px_per_mm:.2f} px/mm")
                                   + ("  |  sound off" if self.settings.muted else ""))
        if self.help_visible:
            lines = SCREEN_HELP if self.screen is not None else self.mode.help_lines()
            draw_help(surface, self.title, (*lines, *SHELL_HELP))
        if self.legend_visible:
            draw_legend(surface, self.mode.scenario)
        self.ctx.dialogs.draw(surface)
