"""The golden playthroughs (issue 8): seeded bot games recorded before the engine became a value.

Each game is played again from its scenario and seed with the same bots; the
decisions, the prompts they answered, every D6 rolled, the event log and the
final state must equal the recorded ones. A difference is either a regression or
a rule knowingly fixed (then the file is re-recorded with ``tests/golden_play.py``
and the commit names the rule and its page).
"""

from __future__ import annotations

import json

import pytest
from golden_play import GAMES, GoldenGame, play


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_golden_playthrough(spec: GoldenGame) -> None:
    expected = json.loads(spec.path.read_text(encoding="utf-8"))
    actual = play(spec)
    for key in ("decisions", "prompts", "dice", "final"):
        assert actual[key] == expected[key], f"{spec.name}: {key} differ"
    assert actual["events"] == expected["events"], f"{spec.name}: events differ"


def test_every_scenario_has_a_golden_game() -> None:
    from pathlib import Path

    from golden_play import ROOT

    races = {p.relative_to(ROOT).as_posix() for p in (ROOT / "scenarios").glob("*.toml")
             if any(f'kind = "{k}"' in p.read_text() for k in ("street_race", "death_race", "scenario"))}
    recorded = {g.scenario for g in GAMES}
    assert races <= recorded, f"scenarios without a golden playthrough: {sorted(races - recorded)}"
    assert all(Path(g.path).is_file() for g in GAMES)
