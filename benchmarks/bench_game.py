"""Benchmark: bot Street Races per second and time per activation (issue 4, item 11).

Run ``python benchmarks/bench_game.py [--games N] [--seed S] [--repeats R] [--scenario FILE]``.
Plays N bot Street Races (or the races of ``FILE``, a Death Race say) on the real table (``TableReferee``: resolve_move and
shooting) and, as a baseline in the same run, the same bot on
``OpenTableReferee`` (no geometry) for the same number of activations per
game, R times each. Times are CPU seconds of this process (``process_time``:
one core, and steady when other programs load the machine); the wall-clock
rate is printed beside it. Each batch starts with the referee's shared caches
emptied (``clear_shared_caches``): the games of a batch share the moves and shots of their common openings
(every race starts from the same grid), as the games of a ``playtest`` do, but nothing carries over from
one batch to the next. Prints the median and mean time per activation,
races per second on one core (the median of the R batches), the target
(20/s) and the ratio real/baseline, and how the bots raced (rounds, Collisions,
Wipeouts and Wrecks per race, races won), so a faster bot is not a worse one.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from simulator.gaslands.bots import Bot, Navigator
from simulator.gaslands.game import Game, Options
from simulator.gaslands.referee import OpenTableReferee
from simulator.gaslands.table_referee import clear_shared_caches
from simulator.scenario.loader import Scenario, bundled_scenario, load_scenario
from simulator.scenario.setup import new_game, options_for
from simulator.scenario.simulate import ROUND_LIMIT, count_events, game_seeds

TARGET_RACES_PER_S = 20.0


@dataclass
class Timing:
    """Wall time per activation and per game."""

    activations: list[float] = field(default_factory=list)
    games: list[float] = field(default_factory=list)
    activations_per_game: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    won: int = 0
    events: Counter[str] = field(default_factory=Counter)


def play_timed(game: Game, bot: Bot, timing: Timing, max_activations: int | None = None) -> None:
    """Play ``game`` with ``bot``, timing each activation (from Activate to the next activate prompt)."""
    clock = time.process_time
    started = clock()
    count = 0
    mark = started
    while game.prompt.kind != "game_over":
        if game.prompt.kind == "activate":
            if count:
                now = clock()
                timing.activations.append(now - mark)
                mark = now
            if max_activations is not None and count >= max_activations:
                break
            count += 1
        game.decide(bot.decide(game))
    timing.activations.append(clock() - mark)
    timing.games.append(clock() - started)
    timing.activations_per_game.append(count)
    timing.rounds.append(game.state.round.round_no)
    timing.won += game.state.winner is not None
    timing.events.update(count_events(game.log))


def run(scenario: Scenario, games: int, seed: int, repeats: int = 3) -> tuple[list[Timing], list[Timing], float]:
    """(real table, open-table baseline) timings, ``repeats`` batches each, and the wall-clock races per
    second of the real batches."""
    options = options_for(scenario, Options(round_limit=ROUND_LIMIT))
    reals, bases = [], []
    bot = Bot(Navigator(scenario.table, options.course))
    seeds = game_seeds(seed, games)
    wall_games, wall = 0, 0.0
    for _ in range(repeats):
        real, base = Timing(), Timing()
        clear_shared_caches()  # every batch starts cold: only openings repeated within it are judged once
        t0 = time.perf_counter()
        for s in seeds:
            play_timed(new_game(scenario, s, options), bot, real)
        wall += time.perf_counter() - t0
        wall_games += len(seeds)
        for s, n in zip(seeds, real.activations_per_game, strict=True):
            game = new_game(scenario, s, options)
            game.referee = OpenTableReferee()
            play_timed(game, bot, base, max_activations=n)
        reals.append(real)
        bases.append(base)
    return reals, bases, wall_games / wall if wall > 0 else 0.0


def report(reals: list[Timing], bases: list[Timing], wall_per_s: float = 0.0, race: str = "Street Race"
           ) -> list[str]:
    """The printed lines."""
    def ms(x: float) -> str:
        return f"{1000.0 * x:.2f} ms"

    races_per_s = statistics.median(len(r.games) / sum(r.games) for r in reals)
    base_per_s = statistics.median(len(b.games) / sum(b.games) for b in bases)
    real = Timing([a for r in reals for a in r.activations], [g for r in reals for g in r.games],
                  reals[0].activations_per_game)
    base = Timing([a for b in bases for a in b.activations], [g for b in bases for g in b.games])
    med_real, med_base = statistics.median(real.activations), statistics.median(base.activations)
    first, n = reals[0], len(reals[0].games)
    per_race = ", ".join(f"{first.events[k] / n:.2f} {k}" for k in ("collisions", "wipeouts", "wrecks"))
    return [
        f"bot {race}s: {len(reals[0].games)} games x {len(reals)} batches, "
        f"{sum(reals[0].activations_per_game)} activations a batch (CPU time, one core)",
        f"time per activation, real table:      median {ms(med_real)}, mean {ms(statistics.mean(real.activations))}",
        f"time per activation, open baseline:   median {ms(med_base)}, mean {ms(statistics.mean(base.activations))}",
        f"ratio real/baseline (median activation): {med_real / med_base:.1f}x",
        f"bot {race}s per second (one core): {races_per_s:.2f}  (target {TARGET_RACES_PER_S:.0f}/s: "
        f"{'met' if races_per_s >= TARGET_RACES_PER_S else 'NOT met'}; wall clock {wall_per_s:.2f}/s)",
        f"baseline games per second (same activations, no geometry): {base_per_s:.2f}; "
        f"ratio {base_per_s / races_per_s:.1f}x",
        f"how they raced (real table, per race): {statistics.mean(first.rounds):.1f} rounds, {per_race}; "
        f"{first.won} of {n} races won",
    ]


def main() -> None:
    """Parse arguments, run, print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scenario", type=Path, default=None, help="a race's file (default: the Street Race)")
    args = parser.parse_args()
    scenario = load_scenario(args.scenario if args.scenario is not None else bundled_scenario())
    reals, bases, wall = run(scenario, args.games, args.seed, max(1, args.repeats))
    print("\n".join(report(reals, bases, wall, scenario.name)))


if __name__ == "__main__":
    main()
