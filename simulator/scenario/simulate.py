"""Headless bot games: ``gaslands simulate SCENARIO --games N --seed S``.

Every player is a :class:`~simulator.gaslands.bots.Bot`; game ``i`` is dealt
its own dice seed drawn from ``S``, so the same ``S`` gives the same games and
the same summary. Each game stops at a round limit (:data:`ROUND_LIMIT`) and
is then counted as unfinished. The summary (stdout) gives wins per team, mean
rounds, and collisions, wipeouts and wrecks per game; a progress bar goes to
stderr.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from simulator.gaslands.bots import Bot, Navigator, play_bot_game
from simulator.gaslands.events import Collided, GameEvent, WipedOut, Wrecked
from simulator.gaslands.game import Game, Options
from simulator.scenario.loader import Scenario, load_scenario
from simulator.scenario.saves import save
from simulator.scenario.setup import new_game, options_for

ROUND_LIMIT = 30
"""A simulated game that has not ended after this many rounds is stopped and reported as unfinished."""

COUNTED: dict[str, type[GameEvent]] = {"collisions": Collided, "wipeouts": WipedOut, "wrecks": Wrecked}
"""Events counted in the summary, by kind."""


@dataclass
class Summary:
    """Totals over a batch of games."""

    scenario: str
    seed: int
    players: tuple[str, ...]
    games: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    unfinished: int = 0
    no_winner: int = 0
    rounds: int = 0
    counts: Counter[str] = field(default_factory=Counter)

    def add(self, game: Game) -> None:
        """Count one finished (or stopped) game."""
        self.games += 1
        self.rounds += min(game.state.round.round_no, ROUND_LIMIT)
        if game.state.winner is None and game.state.round.round_no > ROUND_LIMIT:
            self.unfinished += 1
        elif game.state.winner is None:
            self.no_winner += 1
        else:
            self.wins[game.state.winner] += 1
        self.counts.update(count_events(game.log))

    def lines(self) -> list[str]:
        """The printed summary, one line each."""
        n = max(self.games, 1)
        width = max((len(p) for p in self.players), default=4)
        out = [f"{self.scenario}: {self.games} bot games, seed {self.seed}", "wins:"]
        out += [f"  {name:<{width}}  {self.wins[i]:4d}  ({100.0 * self.wins[i] / n:5.1f}%)"
                for i, name in enumerate(self.players)]
        out.append(f"no winner (every vehicle out): {self.no_winner}")
        out.append(f"unfinished (round limit {ROUND_LIMIT}): {self.unfinished}")
        out.append(f"mean rounds: {self.rounds / n:.2f}")
        for key in COUNTED:
            out.append(f"{key}: {self.counts[key] / n:.2f} per game ({self.counts[key]} in all)")
        return out


def count_events(log: Sequence[GameEvent]) -> Counter[str]:
    """Collisions, wipeouts and wrecks in a game log."""
    counts: Counter[str] = Counter()
    for event in log:
        for key, kind in COUNTED.items():
            if isinstance(event, kind):
                counts[key] += 1
    return counts


def game_seeds(seed: int, games: int) -> list[int]:
    """The dice seed of each game of a batch: the same ``seed`` gives the same list."""
    rng = random.Random(seed)
    return [rng.getrandbits(31) for _ in range(games)]


def bot_games(scenario: Scenario, games: int, seed: int, round_limit: int = ROUND_LIMIT) -> Iterator[Game]:
    """Play ``games`` bot games of ``scenario``, yielding each when it is over."""
    options = options_for(scenario, Options(round_limit=round_limit))
    bot = Bot()
    for game_seed in game_seeds(seed, games):
        game = new_game(scenario, game_seed, options)
        if bot.navigator is None:
            bot.navigator = Navigator(scenario.table, options.course)
        yield play_bot_game(game, bot)


def simulate(scenario: Scenario, games: int, seed: int, progress: bool = False,
             save_dir: Path | None = None, round_limit: int = ROUND_LIMIT) -> Summary:
    """Play the batch and total it; with ``save_dir``, write each game's save there as
    ``game-NNNN-seed-S.json`` (atomically; the folder is made if missing). Games stop after
    ``round_limit`` rounds."""
    summary = Summary(scenario.name, seed, tuple(p.name or p.id for p in scenario.spec.player))
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    for i, game in enumerate(tqdm(bot_games(scenario, games, seed, round_limit), total=games, file=sys.stderr,
                                  disable=not progress, desc="games", unit="game"), 1):
        summary.add(game)
        if save_dir is not None and game.origin is not None:
            save(game, save_dir / f"game-{i:04d}-seed-{game.origin.seed}.json")
    return summary


def simulate_command(path: Path, games: int, seed: int, progress: bool, template_set: Path | None = None,
                     save_dir: Path | None = None) -> int:
    """The ``gaslands simulate`` command: print the summary of ``games`` bot games; returns the exit code.

    Raises :class:`~simulator.errors.InputFileError` for a bad scenario file
    and ``ValueError`` for a negative number of games.
    """
    if games < 0:
        raise ValueError(f"--games must be 0 or more, not {games}")
    summary = simulate(load_scenario(path, template_set), games, seed, progress, save_dir)
    print("\n".join(summary.lines()))
    return 0
