"""Check (not time) that ``gaslands replay --events`` accounts for every point: N bot games of each race
scenario played to the usual round limit, each saved, replayed and its events added up (issue 8).

Run ``python benchmarks/account_events.py [--games 20] [--seed 8]``; prints, per scenario, the games, how
many ended, the events checked and the vehicles whose Hull, Hazard Tokens or gear do not add up (0 expected).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from simulator.scenario.loader import load_scenario
from simulator.scenario.replay import event_lines, unaccounted
from simulator.scenario.saves import load
from simulator.scenario.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
RACES = ("scenarios/street_race.toml", "scenarios/death_race.toml", "tests/golden/golden_mix.toml",
         "tests/golden/golden_arena.toml")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    for scenario in RACES:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as folder:
            simulate(load_scenario(ROOT / scenario), args.games, args.seed, save_dir=Path(folder))
            events = ended = 0
            wrong: list[str] = []
            for path in sorted(Path(folder).glob("*.json")):
                lines = list(event_lines(load(path)))
                events += len(lines)
                ended += lines[-1]["type"] == "game_over"
                wrong += [f"{path.name}: {w}" for w in unaccounted(lines)]
        print(f"{scenario}: {args.games} games, {ended} ended, {events} events, {len(wrong)} unaccounted "
              f"({time.perf_counter() - started:.1f} s)")
        for w in wrong:
            print("  ", w)


if __name__ == "__main__":
    main()
