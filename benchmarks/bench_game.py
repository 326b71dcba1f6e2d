"""Benchmark: bot Street Races per second and time per activation (issue 4, item 11).

Run ``python benchmarks/bench_game.py [--games N] [--seed S]``. Plays N bot
Street Races on the real table (``TableReferee``: resolve_move and shooting)
and, as a baseline in the same run, the same bot on ``OpenTableReferee`` (no
geometry) for the same number of activations per game. Prints the median and
mean time per activation, races per second on one core, the target (20/s)
and the ratio real/baseline.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field

from simulator.gaslands.bots import Bot, Navigator
from simulator.gaslands.game import Game, Options
from simulator.gaslands.referee import OpenTableReferee
from simulator.scenario.loader import Scenario, bundled_scenario, load_scenario
from simulator.scenario.setup import new_game, options_for
from simulator.scenario.simulate import ROUND_LIMIT, game_seeds

TARGET_RACES_PER_S = 20.0


@dataclass
class Timing:
    """Wall time per activation and per game."""

    activations: list[float] = field(default_factory=list)
    games: list[float] = field(default_factory=list)
    activations_per_game: list[int] = field(default_factory=list)


def play_timed(game: Game, bot: Bot, timing: Timing, max_activations: int | None = None) -> None:
    """Play ``game`` with ``bot``, timing each activation (from Activate to the next activate prompt)."""
    started = time.perf_counter()
    count = 0
    mark = started
    while game.prompt.kind != "game_over":
        if game.prompt.kind == "activate":
            if count:
                now = time.perf_counter()
                timing.activations.append(now - mark)
                mark = now
            if max_activations is not None and count >= max_activations:
                break
            count += 1
        game.decide(bot.decide(game))
    timing.activations.append(time.perf_counter() - mark)
    timing.games.append(time.perf_counter() - started)
    timing.activations_per_game.append(count)


def run(scenario: Scenario, games: int, seed: int) -> tuple[Timing, Timing]:
    """(real table, open-table baseline) timings."""
    options = options_for(scenario, Options(round_limit=ROUND_LIMIT))
    real, base = Timing(), Timing()
    bot = Bot(Navigator(scenario.table, options.course))
    seeds = game_seeds(seed, games)
    for s in seeds:
        play_timed(new_game(scenario, s, options), bot, real)
    for s, n in zip(seeds, real.activations_per_game, strict=True):
        game = new_game(scenario, s, options)
        game.referee = OpenTableReferee()
        play_timed(game, bot, base, max_activations=n)
    return real, base


def report(real: Timing, base: Timing) -> list[str]:
    """The printed lines."""
    def ms(x: float) -> str:
        return f"{1000.0 * x:.2f} ms"

    races_per_s = len(real.games) / sum(real.games)
    base_per_s = len(base.games) / sum(base.games)
    med_real, med_base = statistics.median(real.activations), statistics.median(base.activations)
    return [
        f"bot Street Races: {len(real.games)} games, {sum(real.activations_per_game)} activations",
        f"time per activation, real table:      median {ms(med_real)}, mean {ms(statistics.mean(real.activations))}",
        f"time per activation, open baseline:   median {ms(med_base)}, mean {ms(statistics.mean(base.activations))}",
        f"ratio real/baseline (median activation): {med_real / med_base:.1f}x",
        f"bot Street Races per second (one core): {races_per_s:.2f}  (target {TARGET_RACES_PER_S:.0f}/s: "
        f"{'met' if races_per_s >= TARGET_RACES_PER_S else 'NOT met'})",
        f"baseline games per second (same activations, no geometry): {base_per_s:.2f}; "
        f"ratio {base_per_s / races_per_s:.1f}x",
    ]


def main() -> None:
    """Parse arguments, run, print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    real, base = run(load_scenario(bundled_scenario()), args.games, args.seed)
    print("\n".join(report(real, base)))


if __name__ == "__main__":
    main()
