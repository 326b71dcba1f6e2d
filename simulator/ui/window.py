"""Opening the window: the pygame loop and the entry points, for ``gaslands`` and the tests.

:func:`run_window` opens a scenario (a race or a save as a hot-seat game, a
rulings file in the rulings mode, anything else as the free table),
:func:`run_replay` opens the replay viewer on a save, :func:`render_png` draws
what the window would open on to a PNG without a display (the same drawing
code; ``SDL_VIDEODRIVER=dummy``).
"""

from __future__ import annotations

import os
import random
import sys
import time
from importlib.resources import files
from pathlib import Path

import pygame

from simulator.gaslands.game import Game
from simulator.geometry.templates import load_template_set
from simulator.net.protocol import JoinLink
from simulator.net.remote import RemoteGame
from simulator.scenario import saves as saving
from simulator.scenario.loader import Scenario, load_scenario
from simulator.scenario.setup import new_game
from simulator.ui.app import SIZE, App
from simulator.ui.game_controller import GameController
from simulator.ui.scaling import ScaledScreen, first_size, points, to_points
from simulator.ui.user_files import Settings, autosave_path

RACES = ("street_race", "death_race", "scenario")
"""Scenario kinds that open as a game: the races and the other scenarios (p.122-175)."""


def plays_as_game(path: Path) -> bool:
    """Whether ``path`` opens as a game: a save (``.json``) or a race scenario without rulings queries."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return True
    scenario = load_scenario(path)
    return scenario.spec.scenario.kind in RACES and not scenario.spec.query


def game_app(path: Path, size: tuple[int, int] = SIZE, seed: int | None = None, autosave: Path | None = None,
             bots: set[int] | None = None, template_set_path: Path | None = None, game_path: Path | None = None,
             settings: Settings | None = None) -> App:
    """A window playing a new game of a scenario, or a saved game (``.json``), hot-seat.

    ``seed`` defaults to a fresh random one; ``autosave`` to ``autosave.json`` in the user's data folder
    (:func:`simulator.ui.user_files.autosave_path`).
    """
    path = Path(path)
    if path.suffix.lower() == ".json":
        game = saving.load(path)
        game_path = game_path or path
    else:
        game = new_game(load_scenario(path), seed if seed is not None else random.SystemRandom().randrange(10**6))
    ctl = GameController(game, autosave_path=autosave or autosave_path(), bots=bots)
    ts = load_template_set(template_set_path) if template_set_path is not None else None
    return App(ctl.scenario, size, template_set=ts, game=ctl, game_path=game_path, settings=settings)


def game_app_for(scenario: Scenario, size: tuple[int, int] = SIZE, seed: int | None = None,
                 bots: set[int] | None = None, settings: Settings | None = None) -> App:
    """A window playing a new game of ``scenario`` (already loaded: the New game screen's, with its seats' teams),
    hot-seat, autosaved to the user's data folder."""
    game = new_game(scenario, seed if seed is not None else random.SystemRandom().randrange(10**6))
    ctl = GameController(game, autosave_path=autosave_path(), bots=bots)
    return App(ctl.scenario, size, game=ctl, settings=settings)


def open_app(path: Path, size: tuple[int, int] = SIZE, template_set_path: Path | None = None,
             query: str | None = None, game: bool | None = None, seed: int | None = None, editor: bool = False,
             settings: Settings | None = None) -> App:
    """The window on a file: a race or a save as a hot-seat game, a rulings file in the rulings mode, a track in
    the editor (``editor``), anything else as the free table (``game`` forces the choice)."""
    path = Path(path)
    if editor:
        from simulator.ui.modes.editor import check_editable

        return App(check_editable(path).scenario(), size, editor_path=path, settings=settings)
    as_game = plays_as_game(path) if game is None else game
    if as_game and query is None:
        return game_app(path, size, seed=seed, template_set_path=template_set_path, settings=settings)
    return App.from_path(path, template_set_path, size=size, query=query, settings=settings)


def online_app(remote: RemoteGame, size: tuple[int, int] = SIZE, *, bot_delay_s: float | None = None,
               animate: bool = True, settings: Settings | None = None) -> App:
    """A window on a hosted game as ``remote``'s seat or as a spectator; ``remote`` must have been welcomed."""
    from simulator.ui.modes.online import OnlineGameMode
    from simulator.ui.remote_controller import RemoteController

    ctl = RemoteController(remote, animate=animate) if bot_delay_s is None else \
        RemoteController(remote, bot_delay_s=bot_delay_s, animate=animate)
    return App(ctl.scenario, size, game=ctl, game_mode=OnlineGameMode, settings=settings)


def wait_for_welcome(remote: RemoteGame, timeout_s: float) -> None:
    """Pump ``remote`` until the server has welcomed it or the connection has ended (or ``timeout_s``)."""
    deadline = time.monotonic() + timeout_s
    while remote.game is None and not remote.ended and time.monotonic() < deadline:
        remote.pump()
        time.sleep(0.02)


def run_online_window(link: JoinLink, retry_s: float) -> int:
    """``gaslands join URL``: join a hosted game and open the window on it until it is closed.

    Returns the exit code: 0 once the window is closed (the result is printed if the game ended), 4 if the
    server refused the link, 5 if it could not be reached (the one-line reason is printed on stderr).
    """
    from simulator.net.client import EXIT_REFUSED, EXIT_UNREACHABLE, describe_result

    remote = RemoteGame(link, retry_s=retry_s).start()
    try:
        wait_for_welcome(remote, retry_s + 15.0)
        if remote.game is None:
            print(f"gaslands: {remote.ended or 'the server did not answer'}", file=sys.stderr)
            return EXIT_REFUSED if remote.refused else EXIT_UNREACHABLE
        screen = _screen()
        settings = Settings.load()
        app = online_app(remote, _size(screen, settings), settings=settings)
        player = remote.player
        pygame.display.set_caption("Gaslands table - online as " + (
            app.game.ctl.player_name(player) if app.game is not None and player is not None else "a spectator"))
        _loop(app, screen)
    finally:
        remote.close()
    if remote.result is not None:
        print(describe_result(remote.result), flush=True)
    return 0


def _loop(app: App, screen: pygame.Surface) -> None:
    """Run the window until it is closed: events in points, the app's successor swapped in, the frame scaled."""
    clock = pygame.time.Clock()
    out = ScaledScreen(screen, app.settings.ui_scale)
    app.resize(out.size_points)
    app.sound.prepare()
    while not app.closing:
        dt = clock.tick(60) / 1000.0
        for event in pygame.event.get():
            if event.type == pygame.VIDEORESIZE:
                out.rescale(app.settings.ui_scale, pygame.display.get_surface())
                app.resize(out.size_points)
                continue
            app.handle_event(to_points(event, out.scale))
        if app.successor is not None:
            app.successor.team_builder = app.team_builder  # the team being built stays
            app = app.successor
            app.resize(out.size_points)
        if abs(out.wanted - app.settings.ui_scale) > 1e-9 and out.rescale(app.settings.ui_scale):
            app.resize(out.size_points)
        app.update(dt)
        app.draw(out.surface())
        out.present()
    pygame.quit()


def _screen() -> pygame.Surface:
    """The display: at most 90 % of the screen, resizable."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_caption("Gaslands table")
    icon = files("simulator.bundled_assets") / "icon.png"
    if icon.is_file():
        pygame.display.set_icon(pygame.image.load(str(icon)))
    desktops = pygame.display.get_desktop_sizes()
    size = first_size(desktops[0] if desktops else None, SIZE)
    return pygame.display.set_mode(size, pygame.RESIZABLE)


def _size(screen: pygame.Surface, settings: Settings) -> tuple[int, int]:
    return points(screen.get_size(), ScaledScreen(screen, settings.ui_scale).scale)


def run_window(scenario_path: Path, template_set_path: Path | None = None, query: str | None = None,
               game: bool | None = None, seed: int | None = None) -> None:
    """Open the window on a scenario and run until it is closed: races and saves as a hot-seat game, rulings files
    in the rulings mode on ``query``, anything else as the free table (``game`` forces the choice)."""
    screen = _screen()
    settings = Settings.load()
    _loop(open_app(Path(scenario_path), _size(screen, settings), template_set_path, query, game, seed,
                   settings=settings), screen)


def team_builder_app(team_path: Path | None, size: tuple[int, int] = SIZE,
                     settings: Settings | None = None) -> App:
    """A window on the Street Race with the team builder open: on the team file ``team_path`` (read first:
    ``InputFileError`` if it cannot be), a new team saved there when it does not exist yet, or a new team."""
    from simulator.scenario.loader import bundled_scenario
    from simulator.scenario.team_file import load_team
    from simulator.ui.team_builder import TeamBuilder

    app = App(load_scenario(bundled_scenario("street_race.toml")), size, settings=settings)
    if team_path is not None and Path(team_path).exists():
        app.team_builder = TeamBuilder(load_team(team_path), Path(team_path))
    elif team_path is not None:
        app.team_builder = TeamBuilder(path=Path(team_path))
        app.team_builder.saved = app.team_builder.team
    app.open_team_builder()
    return app


def run_team_builder(team_path: Path | None) -> None:
    """``gaslands team edit [FILE]``: the team builder in the window until it is closed."""
    screen = _screen()
    settings = Settings.load()
    _loop(team_builder_app(team_path, _size(screen, settings), settings), screen)


def render_team_builder_png(team_path: Path | None, out_png: Path, size: tuple[int, int] = SIZE) -> None:
    """Draw the team builder on ``team_path`` to a PNG without a display."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.font.init()
    pygame.display.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode(size)  # pygame_gui's widgets need a display (the dummy one here)
    app = team_builder_app(team_path, size)
    app.update(1 / 60)
    surface = pygame.Surface(size)
    app.draw(surface)
    pygame.image.save(surface, str(out_png))


def run_editor(path: Path) -> None:
    """Open the track editor on ``path`` (a new track if the file does not exist) and run until closed."""
    screen = _screen()
    settings = Settings.load()
    _loop(open_app(Path(path), _size(screen, settings), editor=True, settings=settings), screen)


def render_editor_png(path: Path, out_png: Path, size: tuple[int, int] = SIZE) -> None:
    """Draw the track editor opened on ``path`` to a PNG without a display."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.font.init()
    app = App.for_editor(Path(path), size)
    surface = pygame.Surface(size)
    app.draw(surface)
    pygame.image.save(surface, str(out_png))


def render_campaign_png(path: Path, out_png: Path, size: tuple[int, int] = SIZE) -> None:
    """Draw the window opened on a campaign file (its pre-game screen, p.159-160) to a PNG without a display."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.font.init()
    app = App.for_campaign(Path(path), size)
    surface = pygame.Surface(size)
    app.draw(surface)
    pygame.image.save(surface, str(out_png))


def run_replay(save_path: Path, game: Game | None = None) -> None:
    """Open the replay viewer on a save file (``game``: it already loaded) and run until it is closed
    (``SaveError`` if it cannot be read)."""
    game = game if game is not None else saving.load(Path(save_path))
    screen = _screen()
    settings = Settings.load()
    _loop(App.for_replay(game, _size(screen, settings), Path(save_path), settings), screen)


def render_png(scenario_path: Path, out_png: Path, size: tuple[int, int] = SIZE, template_set_path: Path | None = None,
               query: str | None = None, game: bool | None = None, seed: int = 1, step: int | None = None) -> None:
    """Draw what the window opens on to a PNG without a display: a race or a save as the game (a new game with
    dice ``seed``), a rulings file in the rulings mode with the answer to ``query``, anything else as the free
    table; ``game`` forces the choice. A save with ``step`` is drawn in the replay viewer at that step (clamped
    to the game's steps)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.font.init()
    if step is not None:
        app = App.for_replay(saving.load(Path(scenario_path)), size, Path(scenario_path))
        if app.replay is not None:
            app.replay.seek(step)
    else:
        app = open_app(Path(scenario_path), size, template_set_path, query, game, seed)
    surface = pygame.Surface(size)
    app.draw(surface)
    out = Path(out_png)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))
