"""Golden playthroughs: seeded bot games recorded before the engine changes, replayed after (issue 8).

A golden file (``tests/golden/*.json``) holds a game's scenario, seed and round
limit, every decision the bots made, the prompt each answered, every D6 rolled
(Skid Dice are D6 read through the p.12 table), the event log, and the final
state. :func:`play` plays the game again from the scenario and seed with the same
bots and returns the same record, so a test can compare them field by field.

Record or refresh the files (only when a rule is knowingly fixed, and say so in the
commit with its page)::

    .venv/bin/python tests/golden_play.py            # every game in GAMES
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).resolve().parent / "golden"
ROUND_LIMIT = 30


@dataclass(frozen=True)
class GoldenGame:
    """One recorded game: a scenario file (relative to the project root), a dice seed and a round limit."""

    scenario: str
    seed: int
    round_limit: int = ROUND_LIMIT

    @property
    def name(self) -> str:
        return f"{Path(self.scenario).stem}_seed{self.seed}"

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.name}.json"


GAMES: tuple[GoldenGame, ...] = (
    *(GoldenGame("scenarios/street_race.toml", s) for s in (1, 2, 3, 4, 5)),
    *(GoldenGame("scenarios/death_race.toml", s) for s in (1, 2, 3)),
    GoldenGame("scenarios/death_race_figure_eight.toml", 1),
    GoldenGame("scenarios/death_race_teardrop.toml", 1),
    *(GoldenGame("tests/golden/golden_mix.toml", s) for s in (1, 2, 3, 4, 5, 6)),
    *(GoldenGame("tests/golden/golden_arena.toml", s) for s in (1, 2, 3)),
    # the scenarios of p.130-153, one bounded game each (issue 11)
    *(GoldenGame(f"scenarios/{name}.toml", seed, 8) for name, seed in (
        ("arena_of_death", 1), ("capture_the_flag", 2), ("flag_tag", 1), ("saturday_night_live", 1),
        ("automated_salvage", 1), ("express_delivery", 1), ("scavenger_party", 1), ("revolution", 1),
        ("zombie_bash", 1), ("big_game_hunter", 5), ("desert_strike", 1), ("monster_truck_smash", 1),
        ("tank_commander", 1), ("truckasaurus", 1), ("escape_the_city", 1), ("rescue", 1), ("ambush", 1),
        ("long_road_home", 2))),
)


def plain(value: object) -> Any:
    """A JSON-able copy of ``value``: dataclasses as dicts, enums as values, floats rounded to 1e-6."""
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(plain(v) for v in value)
    if isinstance(value, float):
        return round(value, 6) + 0.0
    return value


class RecordingDice:
    """Seeded dice that remember every D6 they rolled, in order."""

    def __init__(self, seed: int) -> None:
        from simulator.gaslands.dice import SeededDice

        self.inner = SeededDice(seed)
        self.rolled: list[int] = []

    def roll_d6(self, n: int) -> tuple[int, ...]:
        out = self.inner.roll_d6(n)
        self.rolled.extend(out)
        return out

    def roll_skid(self, n: int) -> Any:
        from simulator.gaslands.dice import skid_face_for_d6

        return tuple(skid_face_for_d6(r) for r in self.roll_d6(n))

    def snapshot(self) -> object:
        return (self.inner.snapshot(), len(self.rolled))

    def restore(self, snapshot: Any) -> None:
        inner, count = snapshot
        self.inner.restore(inner)
        del self.rolled[count:]


def play(game_spec: GoldenGame) -> dict[str, Any]:
    """Play ``game_spec`` with the bots and return its record (what the golden file holds)."""
    from simulator.gaslands.bots import Bot
    from simulator.gaslands.game import Game, Options
    from simulator.gaslands.table_referee import TableReferee
    from simulator.scenario.loader import load_scenario
    from simulator.scenario.saves import encode_decision
    from simulator.scenario.setup import options_for, starting_state

    scenario = load_scenario(ROOT / game_spec.scenario)
    options = options_for(scenario, Options(round_limit=game_spec.round_limit, audience_votes=bool(
        scenario.spec.options.get("audience_votes", False))))
    dice = RecordingDice(game_spec.seed)
    game = Game(starting_state(scenario, game_spec.seed, options), dice, TableReferee(scenario.table,
                scenario.template_set), scenario.template_set, options)
    bot = Bot()
    prompts: list[list[Any]] = []
    for _ in range(20_000):
        p = game.prompt
        if p.kind == "game_over":
            break
        prompts.append([p.kind, p.player])
        game.decide(bot.decide(game))
    state = game.state
    return {
        "scenario": game_spec.scenario,
        "seed": game_spec.seed,
        "round_limit": game_spec.round_limit,
        "decisions": [encode_decision(d) for d in game.decisions],
        "prompts": prompts,
        "dice": dice.rolled,
        "events": [e.to_json() for e in game.log],
        "final": {
            "winner": state.winner,
            "round": plain(state.round),
            "votes": list(state.votes),
            "removed_obstacles": sorted(state.removed_obstacles),
            "dropped": plain(state.dropped),
            **({"scenario": plain(state.scenario)} if state.scenario.tokens or state.scenario.spawns else {}),
            "vehicles": [plain(v) for v in state.vehicles],
            "end": game.prompt.note,
        },
    }


def record(game_spec: GoldenGame) -> None:
    """Write ``game_spec``'s golden file."""
    GOLDEN.mkdir(exist_ok=True)
    data = play(game_spec)
    game_spec.path.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{game_spec.name}: {len(data['decisions'])} decisions, winner {data['final']['winner']}, "
          f"round {data['final']['round']['round_no']}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    wanted = set(sys.argv[1:])
    for g in GAMES:
        if not wanted or g.name in wanted:
            record(g)
