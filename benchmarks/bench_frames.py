"""Benchmark: frame time while a template is dragged across the Death Race table (issue 15, item 9).

Run ``python benchmarks/bench_frames.py [--frames N] [--repeats R] [--size WxH]``.
Headless (SDL's dummy video and audio drivers). Opens the Death Race (p.124-128) as
a hot-seat game in the window (:class:`simulator.ui.app.App`), lets the bot play the
Starting Grid and the first Gear Phase until a person's car waits for its template,
then, R times, presses the mouse on the Medium Straight's tray cell and moves it in N
steps across the table, over the active car (where the window previews the move,
snapped to its front edge) and back, and lets go off the table. Each frame is what
the window's loop does: the real pygame events (``pygame.event.post`` with ``pos``,
then ``pygame.event.get``), ``App.handle_event``, ``App.update(1/60)``, ``App.draw``
onto the display surface and ``pygame.display.flip``.

Prints p50, p99 and the worst frame against the 16.7 ms budget of 60 frames per
second, the share of frames over it, and two baselines timed in the same run:
the same window drawn idle (no drag) and an empty frame (fill and flip), with the
ratio of the drag's p50 to the idle window's. Times are wall-clock (``perf_counter``:
what a player sees) and this process's CPU time (``process_time``: steadier when other
programs load the machine; the load average is printed), medians over the repeats.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pygame  # noqa: E402

from simulator.gaslands.bots import Bot  # noqa: E402
from simulator.gaslands.prompts import TemplatePrompt  # noqa: E402
from simulator.scenario.loader import load_scenario  # noqa: E402
from simulator.scenario.setup import new_game  # noqa: E402
from simulator.ui.app import App  # noqa: E402
from simulator.ui.game_controller import GameController  # noqa: E402
from simulator.ui.user_files import Settings  # noqa: E402

BUDGET_MS = 1000.0 / 60.0
"""One frame at 60 frames per second."""

DEATH_RACE = Path(__file__).resolve().parents[1] / "scenarios" / "death_race.toml"
TEMPLATE = "medium_straight"


def death_race_window(size: tuple[int, int], seed: int = 1) -> App:
    """The Death Race in the game window, the bot having played until a car waits for its template."""
    game = new_game(load_scenario(DEATH_RACE), seed)
    bot = Bot()
    for _ in range(500):
        if isinstance(game.prompt, TemplatePrompt):
            break
        game.decide(bot.decide(game))
    else:
        raise RuntimeError("the Death Race never asked for a template")
    ctl = GameController(game, autosave_path=None)
    return App(ctl.scenario, size, game=ctl, settings=Settings(muted=True))  # silent: no mixer in the timing


def drag_path(app: App, frames: int) -> list[tuple[int, int]]:
    """``frames`` pointer positions: from the template's tray cell up to the active car, across the table to its
    far side, back over the car, and off the table below it."""
    assert app.game is not None
    start = app.game.tray_cell_centre(TEMPLATE)
    car = app.game.vehicle_screen_pos(app.game.ctl.prompt.vehicle_id)
    table = app.ctx.canvas.rect
    far = (table[0] + table[2] - 20, table[1] + 20)
    near = (table[0] + 20, table[1] + table[3] - 20)
    legs = [start, car, far, near, car, start]
    per = max(frames // (len(legs) - 1), 1)
    out: list[tuple[int, int]] = []
    for a, b in zip(legs, legs[1:], strict=False):
        out += [(round(a[0] + (b[0] - a[0]) * i / per), round(a[1] + (b[1] - a[1]) * i / per)) for i in range(per)]
    return out


def _event(kind: int, pos: tuple[int, int], **kw: Any) -> None:
    pygame.event.post(pygame.event.Event(kind, pos=pos, **kw))


Frame = tuple[float, float]
"""One frame's wall-clock and CPU milliseconds."""


def _frame(app: App | None, screen: pygame.Surface) -> Frame:
    """One pass of the window's loop (None: an empty frame), timed."""
    t0, c0 = time.perf_counter(), time.process_time()
    events = pygame.event.get()
    if app is None:
        screen.fill((22, 24, 28))
    else:
        for e in events:
            app.handle_event(e)
        app.update(1 / 60)
        app.draw(screen)
    pygame.display.flip()
    return (time.perf_counter() - t0) * 1000.0, (time.process_time() - c0) * 1000.0


def time_drag(app: App, screen: pygame.Surface, path: Sequence[tuple[int, int]]) -> list[Frame]:
    """Milliseconds per frame while the pointer drags the template along ``path`` (press, moves, release)."""
    out = []
    _event(pygame.MOUSEBUTTONDOWN, path[0], button=1)
    out.append(_frame(app, screen))
    assert app.game is not None and app.game.template_drag is not None, "the press did not pick up the template"
    for prev, pos in zip(path, path[1:], strict=False):
        _event(pygame.MOUSEMOTION, pos, rel=(pos[0] - prev[0], pos[1] - prev[1]), buttons=(1, 0, 0))
        out.append(_frame(app, screen))
    _event(pygame.MOUSEBUTTONUP, path[-1], button=1)
    out.append(_frame(app, screen))
    return out


def time_idle(app: App, screen: pygame.Surface, frames: int) -> list[Frame]:
    """Milliseconds per frame of the same window with nothing happening."""
    return [_frame(app, screen) for _ in range(frames)]


def time_empty(screen: pygame.Surface, frames: int) -> list[Frame]:
    """Milliseconds per empty frame (events, fill and flip): the floor of the loop."""
    return [_frame(None, screen) for _ in range(frames)]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest-rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def _median_of(runs: list[list[Frame]], stat: Callable[[list[Frame]], float]) -> float:
    return statistics.median(stat(r) for r in runs)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its table; 0 always (the figures are for reading, not a gate)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", type=int, default=300, help="frames per drag (default 300: 5 s at 60 fps)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--size", default="1400x900", help="window size in pixels (default 1400x900)")
    args = ap.parse_args(argv)
    size = tuple(int(v) for v in args.size.lower().split("x"))
    assert len(size) == 2
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    app = death_race_window((size[0], size[1]))
    path = drag_path(app, args.frames)
    time_drag(app, screen, path[: len(path) // 3])  # warm caches (fonts, templates) before timing
    drags: list[list[Frame]] = []
    idles: list[list[Frame]] = []
    empties: list[list[Frame]] = []
    for _ in range(args.repeats):
        drags.append(time_drag(app, screen, path))
        idles.append(time_idle(app, screen, len(path)))
        empties.append(time_empty(screen, len(path)))
    assert app.game is not None and isinstance(app.game.ctl.prompt, TemplatePrompt), "the drag changed the game"

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Frame time, Death Race table, {size[0]}x{size[1]}, {len(path) + 1} frames per drag, "
          f"{args.repeats} repeats (medians over repeats); budget {BUDGET_MS:.1f} ms (60 fps); "
          f"load average {load:.1f} on {os.cpu_count()} CPUs")
    for k, clock in enumerate(("wall-clock", "CPU (this process)")):
        def ms(r: list[Frame], q: float, k: int = k) -> float:
            return percentile([f[k] for f in r], q)

        def row(name: str, runs: list[list[Frame]], k: int = k) -> str:
            p50 = _median_of(runs, lambda r: ms(r, 0.5))
            p99 = _median_of(runs, lambda r: ms(r, 0.99))
            worst = _median_of(runs, lambda r: max(f[k] for f in r))
            over = _median_of(runs, lambda r: 100.0 * sum(f[k] > BUDGET_MS for f in r) / len(r))
            return f"{name:<34} {p50:8.2f} {p99:8.2f} {worst:8.2f} {over:9.1f}%"

        print(f"{clock + ' ms':<34} {'p50':>8} {'p99':>8} {'max':>8} {'> budget':>10}")
        print(row("drag a template across the table", drags))
        print(row("baseline: the same window, idle", idles))
        print(row("baseline: empty frame (fill+flip)", empties))
        drag50 = _median_of(drags, lambda r: ms(r, 0.5))
        idle50 = _median_of(idles, lambda r: ms(r, 0.5))
        drag99 = _median_of(drags, lambda r: ms(r, 0.99))
        print(f"  drag p50 / idle p50 = {drag50 / idle50:.2f}x; drag p50 = {drag50 / BUDGET_MS:.0%} of the budget, "
              f"p99 = {drag99 / BUDGET_MS:.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
