"""Behaviour fingerprint for speed work: seeded bot games, every decision and event hashed.

Run ``python benchmarks/fingerprint.py [--games N]`` before and after a change meant to be a pure speed-up
(issue #13 item 6): the printed hashes must be the same (the Street Race, the Death Race, Arena of Death and
Capture the Flag, bots on every seat). The golden playthroughs (tests/golden) check fewer games in the
test suite; this covers more, in a few seconds of CPU.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from simulator.gaslands.bots import Bot, Navigator
from simulator.gaslands.game import Options
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game, options_for
from simulator.scenario.simulate import ROUND_LIMIT, game_seeds


def main() -> None:
    """Play the games and print one hash per scenario."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=30, help="Street Races (a sixth as many Death Races)")
    a = p.parse_args()
    for name, games in (("street_race", a.games), ("death_race", max(3, a.games // 6)), ("arena_of_death", 3),
                        ("capture_the_flag", 2)):
        sc = load_scenario(bundled_scenario(name + ".toml"))
        options = options_for(sc, Options(round_limit=ROUND_LIMIT))
        bot = Bot(Navigator(sc.table, options.course))
        h = hashlib.sha256()
        for s in game_seeds(1, games):
            g = new_game(sc, s, options)
            while g.prompt.kind != "game_over":
                d = bot.decide(g)
                h.update(repr(d).encode())
                g.decide(d)
            for e in g.log:
                h.update(repr(e).encode())
        print(f"{name:18s} {games:3d} games {h.hexdigest()[:16]}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
