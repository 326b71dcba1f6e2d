"""Benchmark: undo and load of long games (issue 8, item 10).

Run ``python benchmarks/bench_history.py``. Plays a long bot Death Race (the golden game
``death_race_seed2``, 800+ decisions, to the 30-round limit) and measures, as medians of repeats:

* **undo at decision 10** and **at decision 500**: one Ctrl+Z, a step back in the game's history, and the
  redo that brings it back (their ratio should be about 1: undo costs the same wherever the game is);
* the **baseline in the same run**: undo as main did it before the game was a value, a replay of all
  decisions but the last (at decision 500);
* **load** of a 500-decision save (one replay of its decisions).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from simulator.gaslands.game import Game, Options  # noqa: E402
from simulator.scenario.loader import load_scenario  # noqa: E402
from simulator.scenario.saves import decode_decision, load, save  # noqa: E402
from simulator.scenario.setup import new_game  # noqa: E402

REPEATS = 31


def median_ms(samples: list[float]) -> float:
    return 1000.0 * statistics.median(samples)


def undo_cost(game: Game, at: int) -> float:
    """Median seconds of one undo (and its redo, untimed) with the game's present at decision ``at``."""
    game.history.seek(at)
    samples = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        game.undo()
        samples.append(time.perf_counter() - t)
        game.redo()
    return statistics.median(samples)


def main() -> None:
    golden = json.loads((ROOT / "tests" / "golden" / "death_race_seed2.json").read_text(encoding="utf-8"))
    scenario = load_scenario(ROOT / golden["scenario"])
    decisions = [decode_decision(d) for d in golden["decisions"]]
    game = new_game(scenario, golden["seed"], Options(round_limit=golden["round_limit"]))
    for d in decisions:
        game.decide(d)
    print(f"a bot Death Race of {len(decisions)} decisions")
    at10, at500 = undo_cost(game, 10), undo_cost(game, 500)
    print(f"undo at decision 10:  median {1e6 * at10:.1f} us")
    print(f"undo at decision 500: median {1e6 * at500:.1f} us  (ratio 500/10: {at500 / at10:.2f})")
    start = game.initial_state
    replays = []
    for _ in range(3):
        t = time.perf_counter()
        Game.replay(golden["seed"], start, decisions[:499], game.referee, game.permissions, game.options)
        replays.append(time.perf_counter() - t)
    print(f"baseline, undo by replay at decision 500: median {median_ms(replays):.0f} ms "
          f"({statistics.median(replays) / at500:.0f}x the undo)")
    game.history.seek(500)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        save(game, path)  # the decisions up to the present (500)
        loads = []
        for _ in range(3):
            t = time.perf_counter()
            load(path)
            loads.append(time.perf_counter() - t)
    print(f"load of a 500-decision save: median {median_ms(loads):.0f} ms "
          f"({1000.0 * statistics.median(loads) / 500:.2f} ms per decision, one replay)")


if __name__ == "__main__":
    main()
