"""Posting real pygame events to the app, for the front-end tests."""

from __future__ import annotations

from pathlib import Path

import pygame

from simulator.ui.app import App


def pump(app: App) -> int:
    """Hand every queued pygame event to the app; returns how many there were."""
    events = pygame.event.get()
    for e in events:
        app.handle_event(e)
    return len(events)


def post_mouse(kind: int, pos: tuple[float, float], button: int = 1, buttons: tuple[int, int, int] = (1, 0, 0),
               rel: tuple[int, int] = (0, 0)) -> None:
    """Post a real mouse event at a screen position."""
    p = (round(pos[0]), round(pos[1]))
    if kind == pygame.MOUSEMOTION:
        pygame.event.post(pygame.event.Event(kind, pos=p, rel=rel, buttons=buttons))
    else:
        pygame.event.post(pygame.event.Event(kind, pos=p, button=button))


def post_key(key: int, mod: int = 0) -> None:
    """Post a real key press."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))


def drag(app: App, start: tuple[float, float], end: tuple[float, float], button: int = 1, steps: int = 8,
         settle: int = 0) -> None:
    """Press at ``start``, move in ``steps`` to ``end`` (updating the app), release."""
    mask = (1, 0, 0) if button == 1 else (0, 0, 1)
    post_mouse(pygame.MOUSEBUTTONDOWN, start, button)
    pump(app)
    for i in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * i / steps
        y = start[1] + (end[1] - start[1]) * i / steps
        post_mouse(pygame.MOUSEMOTION, (x, y), buttons=mask)
        pump(app)
        app.update(1 / 60)
    for _ in range(settle):
        app.update(1 / 60)
    post_mouse(pygame.MOUSEBUTTONUP, end, button)
    pump(app)


def run_until_idle(app: App, seconds: float = 2.0) -> None:
    """Update the app at 60 Hz until its animation is over (or ``seconds`` pass)."""
    t = 0.0
    assert app.free is not None
    while app.free.animation is not None and t < seconds:
        app.update(1 / 60)
        t += 1 / 60


def click(app: App, pos: tuple[float, float], button: int = 1) -> None:
    """A press and release at ``pos``, each handed to the app, then whatever they posted (dialog events)."""
    post_mouse(pygame.MOUSEBUTTONDOWN, pos, button)
    pump(app)
    post_mouse(pygame.MOUSEBUTTONUP, pos, button)
    pump(app)
    for _ in range(3):  # a button's event, then the dialog's answer, then what that opened
        app.update(1 / 60)
        pump(app)


def click_dialog(app: App, label: str) -> None:
    """Click the open dialog's button labelled ``label`` with real mouse events (the dialog is drawn first)."""
    app.update(1 / 60)
    app.draw(pygame.Surface(app.layout.size))
    click(app, app.ctx.dialogs.button_centre(label))


def bot_race_replay(tmp_path: Path, seed: int, decisions: int, size: tuple[int, int]) -> App:
    """The replay viewer on a saved Street Race of ``decisions`` bot decisions with dice ``seed``."""
    from simulator.gaslands.bots import Bot
    from simulator.scenario import saves as saving
    from simulator.scenario.loader import bundled_scenario, load_scenario
    from simulator.scenario.setup import new_game

    game, bot = new_game(load_scenario(bundled_scenario()), seed), Bot()
    while len(game.decisions) < decisions:
        game.decide(bot.decide(game))
    saving.save(game, tmp_path / "race.json")
    pygame.event.clear()
    return App.for_replay(saving.load(tmp_path / "race.json"), size, tmp_path / "race.json")
