"""Headless bot games: ``gaslands simulate SCENARIO --games N --seed S``.

Every player is a :class:`~simulator.gaslands.bots.Bot`; game ``i`` is dealt
its own dice seed drawn from ``S``, so the same ``S`` gives the same games and
the same summary. Each game stops at a round limit (:data:`ROUND_LIMIT`) and
is then counted as unfinished. The summary (stdout) gives wins per team, mean
rounds, and collisions, wipeouts and wrecks per game; a progress bar goes to
stderr.

With ``--sponsors`` (``all``, or sponsor names separated by commas; ``none``
for a team without one) every player fields a team the bots build for its
sponsor and ``--cans`` (:func:`~simulator.gaslands.team_builder.build_team`):
game ``i`` seats the sponsors in turn, so each sponsor meets the others, and
the summary adds wins per sponsor.
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
from simulator.gaslands.tables import load_sponsors
from simulator.gaslands.team_builder import build_team
from simulator.gaslands.teams import Team, find
from simulator.scenario.loader import Scenario, load_scenario
from simulator.scenario.saves import save
from simulator.scenario.setup import new_game, options_for, with_teams

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
    sponsor_games: Counter[str] = field(default_factory=Counter)
    sponsor_wins: Counter[str] = field(default_factory=Counter)

    def add(self, game: Game, sponsors: Sequence[str] = ()) -> None:
        """Count one finished (or stopped) game; ``sponsors`` names each player's sponsor (bot-built teams)."""
        for p, name in enumerate(sponsors):
            self.sponsor_games[name] += 1
            if game.state.winner == p:
                self.sponsor_wins[name] += 1
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
        out.append(f"no winner (every vehicle out, or a tie on points): {self.no_winner}")
        out.append(f"unfinished (round limit {ROUND_LIMIT}): {self.unfinished}")
        out.append(f"mean rounds: {self.rounds / n:.2f}")
        for key in COUNTED:
            out.append(f"{key}: {self.counts[key] / n:.2f} per game ({self.counts[key]} in all)")
        if self.sponsor_games:
            out.append("wins by sponsor (bot-built teams):")
            width = max(len(s) for s in self.sponsor_games)
            out += [f"  {s:<{width}}  {self.sponsor_wins[s]:4d} of {self.sponsor_games[s]:4d} games"
                    for s in sorted(self.sponsor_games)]
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


def seated_sponsors(sponsors: Sequence[str | None], players: int, game: int) -> tuple[str | None, ...]:
    """The sponsors of game ``game``'s players: the list taken in turn, so each sponsor meets the others."""
    return tuple(sponsors[(game * players + p) % len(sponsors)] for p in range(players))


def bot_teams(scenario: Scenario, sponsors: Sequence[str | None], cans: int, game: int, game_seed: int
              ) -> dict[str, Team]:
    """Each player's bot-built team for game ``game`` (:func:`seated_sponsors`)."""
    seated = seated_sponsors(sponsors, len(scenario.spec.player), game)
    return {p.id: build_team(s, cans, seed=game_seed + k, name=f"{p.name or p.id}")
            for k, (p, s) in enumerate(zip(scenario.spec.player, seated, strict=True))}


def bot_games(scenario: Scenario, games: int, seed: int, round_limit: int = ROUND_LIMIT,
              sponsors: Sequence[str | None] = (), cans: int = 50) -> Iterator[Game]:
    """Play ``games`` bot games of ``scenario``, yielding each when it is over; with ``sponsors``, between
    bot-built teams of ``cans`` (see the module docstring)."""
    options = options_for(scenario, Options(round_limit=round_limit))
    bot = Bot()
    for i, game_seed in enumerate(game_seeds(seed, games)):
        played = with_teams(scenario, bot_teams(scenario, sponsors, cans, i, game_seed)) if sponsors else scenario
        game = new_game(played, game_seed, options_for(played, options))
        if bot.navigator is None:
            bot.navigator = Navigator(scenario.table, options.course)
        yield play_bot_game(game, bot)


def simulate(scenario: Scenario, games: int, seed: int, progress: bool = False,
             save_dir: Path | None = None, round_limit: int = ROUND_LIMIT, sponsors: Sequence[str | None] = (),
             cans: int = 50) -> Summary:
    """Play the batch and total it; with ``save_dir``, write each game's save there as
    ``game-NNNN-seed-S.json`` (atomically; the folder is made if missing). Games stop after
    ``round_limit`` rounds. ``sponsors``: bot-built teams of ``cans`` (see the module docstring)."""
    summary = Summary(scenario.name, seed, tuple(p.name or p.id for p in scenario.spec.player))
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    names = {key: row.name for key, row in load_sponsors().items()}
    played = bot_games(scenario, games, seed, round_limit, sponsors, cans)
    for i, game in enumerate(tqdm(played, total=games, file=sys.stderr, disable=not progress or games == 0, desc="games",
                                  unit="game"), 1):
        seated = seated_sponsors(sponsors, len(scenario.spec.player), i - 1) if sponsors else ()
        summary.add(game, tuple(names[s] if s else "no sponsor" for s in seated))
        if save_dir is not None and game.origin is not None:
            save(game, save_dir / f"game-{i:04d}-seed-{game.origin.seed}.json")
    return summary


def parse_sponsors(text: str) -> tuple[str | None, ...]:
    """``all`` (the thirteen), ``none`` (no sponsor) or sponsor names separated by commas, as keys; raises
    :class:`~simulator.gaslands.teams.UnknownName` listing the valid names."""
    if text.strip().lower() == "all":
        return tuple(load_sponsors())
    return tuple(None if part.strip().lower() == "none" else find("sponsor", part) for part in text.split(",")
                 if part.strip())


def simulate_command(path: Path, games: int, seed: int, progress: bool, template_set: Path | None = None,
                     save_dir: Path | None = None, sponsors: Sequence[str | None] = (), cans: int = 50) -> int:
    """The ``gaslands simulate`` command: print the summary of ``games`` bot games; returns the exit code.

    Raises :class:`~simulator.errors.InputFileError` for a bad scenario file
    and ``ValueError`` for a negative number of games.
    """
    if games < 0:
        raise ValueError(f"--games must be 0 or more, not {games}")
    summary = simulate(load_scenario(path, template_set), games, seed, progress, save_dir, sponsors=sponsors,
                       cans=cans)
    print("\n".join(summary.lines()))
    return 0
