"""A game's events as JSON lines: what ``gaslands replay SAVE.json --events`` prints.

The first line is ``{"type": "game_started", "vehicles": [{"name", "hull", "hazards", "gear"}, ...]}``;
then every event in order, each with ``"type"``, ``"page"``, ``"rule"``, ``"text"`` and its fields,
vehicles by name (``"vehicle"``, with ``"vehicle_id"`` beside it); every event that changes a vehicle's
Hull Points, Hazard Tokens or gear carries ``"hull_delta"``, ``"hazard_delta"`` and ``"gear_delta"``.
The last line is ``{"type": "game_over", "standings": [...], "vehicles": [...]}`` (or, for a game not
finished, ``{"type": "game_not_over", "vehicles": [...]}``), so a reader can check that the events
account for every point (:func:`unaccounted`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from simulator.gaslands.engine import summaries
from simulator.gaslands.events import VehicleSummary
from simulator.gaslands.game import Game


def event_lines(game: Game) -> Iterator[dict[str, Any]]:
    """The game's events as JSON-able objects, first to last (see the module docstring)."""
    last: dict[str, Any] | None = None
    for event in game.log:
        last = event.to_json()
        yield last
    if last is None or last.get("type") != "game_over":
        yield {"type": "game_not_over", "page": "", "rule": "", "text": "The game goes on",
               "vehicles": [_summary(v) for v in summaries(game.state)]}


def _summary(v: VehicleSummary) -> dict[str, Any]:
    return {"name": v.name, "vehicle_id": v.vehicle, "player": v.player, "hull": v.hull, "hazards": v.hazards,
            "gear": v.gear, "status": v.status}


def unaccounted(lines: list[dict[str, Any]]) -> list[str]:
    """Every vehicle whose start plus the deltas of the events differs from its end, in words (empty: all
    accounted for). ``lines`` are what :func:`event_lines` gives (or what ``--events`` printed, parsed)."""
    start = {v["name"]: v for v in lines[0]["vehicles"]}
    end = {v["name"]: v for v in lines[-1]["vehicles"]}
    totals: dict[str, dict[str, int]] = {n: {"hull": 0, "hazards": 0, "gear": 0} for n in start}
    for line in lines[1:-1]:
        name = line.get("vehicle")
        if name in totals:
            totals[name]["hull"] += int(line.get("hull_delta", 0))
            totals[name]["hazards"] += int(line.get("hazard_delta", 0))
            totals[name]["gear"] += int(line.get("gear_delta", 0))
    problems = []
    for name, first in start.items():
        for key in ("hull", "hazards", "gear"):
            if first[key] + totals[name][key] != end[name][key]:
                problems.append(f"{name}: {key} {first[key]} {totals[name][key]:+d} != {end[name][key]}")
    return problems
