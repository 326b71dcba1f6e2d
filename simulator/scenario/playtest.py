"""Playtesting a track: ``gaslands playtest TRACK.toml --races N --seed S [--workers K | --dask ADDRESS] -o DIR``.

N bot races of the track (the bots of :mod:`simulator.gaslands.bots`, on the
real table), each dealt its own dice seed drawn from ``S``
(:func:`~simulator.scenario.simulate.game_seeds`), so the report is the same
for the same ``S`` however the races are spread: in this process, over K
local worker processes, or over a Dask cluster (:func:`run_playtest`).

A race is read from the engine's typed events only
(:mod:`simulator.gaslands.events`: :class:`Moved` with its start and Final
Position, :class:`Collided`, :class:`WipedOut`, :class:`Wrecked`,
:class:`PassedGates`, :class:`GridPlaced`, :class:`CrossedFinish`...) into a
:class:`RaceResult`: a few hundred numbers, never a game object; that is what
travels back from a worker. :func:`build_report` folds the results, in race
order, into the report:

- **rounds to finish** (races won at the Finish Line, p.62, p.128): mean and
  percentiles; races won by elimination, with no winner, or stopped at the
  round limit (:data:`ROUND_LIMIT`) are counted apart;
- **win rate by Starting Grid slot** (p.126; rank 1 is the front rank) and by
  team;
- **collisions, wipeouts and wrecks per leg**: a leg is the run to a gate
  (p.127) from the one before it (the first from the start); an incident
  counts on the leg its vehicle was driving;
- **gates and pile-ups**: for each gate, the incidents within a Long Straight
  of its line and the hits on its posts; a *pile-up* is an activation with two
  or more collisions or three or more vehicles involved, and it is put on the
  nearest gate within a Long Straight;
- **heat maps** (:class:`HeatMaps`, drawn by :mod:`simulator.ui.heatmap`):
  where collisions, wipeouts and wrecks happen, and where cars lose time. Time
  lost is measured per activation as progress along the course (the bots'
  distance field round the obstacles, :class:`~simulator.gaslands.bots.Navigator`)
  short of the mean progress of all activations, put where the activation
  began.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import sys
import tomllib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from simulator.errors import SimulatorError
from simulator.gaslands.bots import Bot, Navigator, play_bot_game
from simulator.gaslands.events import (
    Activated,
    Collided,
    CrossedFinish,
    GameOver,
    GearPhaseStarted,
    GridPlaced,
    Moved,
    PassedGates,
    WipedOut,
    Wrecked,
)
from simulator.gaslands.game import Game, Options
from simulator.gaslands.race import Course
from simulator.geometry.pose import Pose
from simulator.geometry.table import Table
from simulator.geometry.templates import TemplateSet, parse_template_set
from simulator.scenario.loader import Scenario, load_scenario, parse_scenario
from simulator.scenario.setup import new_game, options_for
from simulator.scenario.simulate import ROUND_LIMIT, game_seeds

REPORT_VERSION = 1
"""The version of ``report.json``'s layout."""

HEAT_CELL_MM = 10.0
"""Heat maps are binned in cells of this size, then smoothed (:data:`HEAT_SIGMA_MM`)."""

HEAT_SIGMA_MM = 30.0
"""The Gaussian smoothing of the heat maps (about half a car length)."""

HOTSPOT_RADIUS_MM = 100.0
"""A hotspot in the report sums what lies within this of its centre."""

PERCENTILES = (10, 25, 50, 75, 90)
"""Percentiles of the rounds to finish in the report."""

KINDS = ("collisions", "wipeouts", "wrecks")
"""The incidents counted, in report order."""

MAX_WORKERS = 256
"""The most local worker processes ``--workers`` accepts."""


class PlaytestError(SimulatorError):
    """A playtest that cannot run (no race rules, a cluster that cannot be reached...)."""


# --------------------------------------------------------------------------- what travels to and from workers


@dataclass(frozen=True)
class TrackJob:
    """What a worker needs to race a track: the scenario file's text and the template set's text (None for
    the bundled set), so a worker on another machine needs neither file. Small and picklable."""

    scenario_text: str
    source: str
    template_set_text: str | None
    round_limit: int = ROUND_LIMIT

    @property
    def key(self) -> int:
        """A short digest of the job (cache key in a worker)."""
        return hash((self.scenario_text, self.source, self.template_set_text, self.round_limit))


@dataclass(frozen=True)
class Incident:
    """A collision, wipeout or wreck: ``kind`` (one of :data:`KINDS`), the leg it happened on, where (mm),
    the activation it happened in (1-based, for pile-ups), the vehicle and, for a collision, what it met."""

    kind: str
    leg: int
    x_mm: float
    y_mm: float
    activation: int
    vehicle: str
    other: str = ""
    other_is_vehicle: bool = False


@dataclass(frozen=True)
class Sample:
    """One activation: where it began (mm), the leg, and the progress made along the course (mm)."""

    x_mm: float
    y_mm: float
    leg: int
    progress_mm: float


@dataclass(frozen=True)
class RaceResult:
    """One race, summed up by the worker that played it.

    ``finished``: a vehicle crossed the Finish Line and won (p.62, p.128);
    ``rounds``: the round it ended in (the round limit + 1 when stopped);
    ``winner_vehicle``/``winner_team``: who won (a team may win by elimination,
    p.62); ``slots``: ``(vehicle, team, rank, place)`` of the Starting Grid
    (p.126), empty when the race has none; ``reason``: why the game ended.
    """

    index: int
    seed: int
    finished: bool
    rounds: int
    reason: str
    winner_vehicle: str | None
    winner_team: str | None
    slots: tuple[tuple[str, str, int, int], ...]
    incidents: tuple[Incident, ...]
    samples: tuple[Sample, ...]


# --------------------------------------------------------------------------- the course


def leg_names(scenario: Scenario, course: Course) -> list[str]:
    """The legs of the course in order: ``"start -> gate-1"``, ``"gate-1 -> gate-2"``...; a Street Race has
    the one leg ``"start -> finish"``."""
    if not course.death_race:
        return ["start -> finish"]
    names = ["start", *course.gates]
    return [f"{a} -> {b}" for a, b in zip(names, names[1:], strict=False)]


# --------------------------------------------------------------------------- one race, in a worker


@dataclass
class _Racer:
    """A worker's state for one track: the scenario, options, bot and its navigator (built once per process)."""

    scenario: Scenario
    options: Options
    bot: Bot
    navigator: Navigator
    teams: tuple[str, ...]


_RACERS: dict[int, _Racer] = {}


def _racer(job: TrackJob) -> _Racer:
    racer = _RACERS.get(job.key)
    if racer is None:
        scenario = scenario_from_job(job)
        options = options_for(scenario, Options(round_limit=job.round_limit))
        navigator = Navigator(scenario.table, options.course)
        racer = _Racer(scenario, options, Bot(navigator), navigator,
                       tuple(p.name or p.id for p in scenario.spec.player))
        _RACERS.clear()
        _RACERS[job.key] = racer
    return racer


def scenario_from_job(job: TrackJob) -> Scenario:
    """The scenario of ``job`` (parsed from its text, with its own template set)."""
    template_set: TemplateSet | None = None
    if job.template_set_text is not None:
        template_set = parse_template_set(job.template_set_text, "template set")
    return parse_scenario(tomllib.loads(job.scenario_text), job.source, template_set)


def play_race(job: TrackJob, index: int, seed: int) -> RaceResult:
    """Play race ``index`` with dice ``seed`` and sum it up (run in a worker; a pure function of its inputs)."""
    racer = _racer(job)
    game = new_game(racer.scenario, seed, racer.options)
    play_bot_game(game, racer.bot)
    return summarise(game, index, seed, racer.navigator, racer.teams)


def summarise(game: Game, index: int, seed: int, meter: Navigator, teams: Sequence[str]) -> RaceResult:
    """Read one finished game's events into a :class:`RaceResult` (see the module docstring)."""
    poses: dict[str, Pose] = {v.id: v.pose for v in game.initial_state.vehicles}
    passed: Counter[str] = Counter()
    team_of = {v.id: v.player for v in game.initial_state.vehicles}
    slots: list[tuple[str, str, int, int]] = []
    incidents: list[Incident] = []
    samples: list[Sample] = []
    activation = 0
    current: tuple[str, int, Pose | None] | None = None  # vehicle, leg, start pose
    rounds, reason, finished = 1, "", False
    winner_vehicle: str | None = None
    winner_team: str | None = None

    def close() -> None:
        nonlocal current
        if current is not None:
            vid, leg, start = current
            if start is not None:
                progress = meter.position(passed[vid], poses[vid]) - meter.position(leg, start)
                samples.append(Sample(round(start.x_mm, 1), round(start.y_mm, 1), leg, round(progress, 1)))
        current = None

    def incident(kind: str, vid: str, other: str = "", other_is_vehicle: bool = False) -> None:
        pose = poses.get(vid)
        if pose is not None:
            incidents.append(Incident(kind, passed[vid], round(pose.x_mm, 1), round(pose.y_mm, 1), activation,
                                      vid, other, other_is_vehicle))

    for entry in game.history.entries:
        for ev in entry.events:
            match ev:
                case GearPhaseStarted():
                    close()
                    rounds = ev.round_no
                case GridPlaced():
                    poses[ev.vehicle] = entry.state.game.vehicle(ev.vehicle).pose
                    slots.append((ev.vehicle, teams[team_of[ev.vehicle]], ev.rank, ev.place))
                case Activated():
                    close()
                    activation += 1
                    current = (ev.vehicle, passed[ev.vehicle], None)
                case Moved():
                    if current is not None and current[0] == ev.vehicle and current[2] is None:
                        current = (current[0], current[1], ev.start)
                    poses[ev.vehicle] = ev.final
                case PassedGates():
                    passed[ev.vehicle] += len(ev.gates)
                case Collided():
                    incident("collisions", ev.active, ev.passive, not ev.passive_obstacle)
                case WipedOut():
                    incident("wipeouts", ev.vehicle)
                case Wrecked():
                    incident("wrecks", ev.vehicle)
                case CrossedFinish():
                    if ev.wins and winner_vehicle is None:
                        finished, winner_vehicle = True, ev.vehicle
                case GameOver():
                    close()
                    reason = ev.reason
                    winner_team = ev.winner_name if ev.winner is not None else None
                case _:
                    pass
    close()
    return RaceResult(index, seed, finished, rounds, reason, winner_vehicle, winner_team, tuple(slots),
                      tuple(incidents), tuple(samples))


# --------------------------------------------------------------------------- running the races


def job_for(scenario: Scenario, template_set: Path | None = None, round_limit: int = ROUND_LIMIT) -> TrackJob:
    """The :class:`TrackJob` of a loaded scenario: its file's text, and the template set's text when it is
    not the bundled one (``template_set`` overrides the file's ``[table] template_set``)."""
    text = Path(scenario.source).read_text(encoding="utf-8")
    ts_text = None
    if template_set is not None:
        ts_text = template_set.read_text(encoding="utf-8")
    elif isinstance(scenario.spec.table.template_set, str) and scenario.spec.table.template_set != "default":
        # (a set written inline in the scenario travels in its text)
        ts_text = (Path(scenario.source).parent / scenario.spec.table.template_set).read_text(encoding="utf-8")
    return TrackJob(text, scenario.source, ts_text, round_limit)


Progress = Callable[[int], None]
"""Called with the number of races done each time more are done."""


def _local(job: TrackJob, seeds: Sequence[int], workers: int, progress: Progress) -> list[RaceResult]:
    if workers <= 1:
        out = []
        for i, s in enumerate(seeds):
            out.append(play_race(job, i, s))
            progress(1)
        return out
    from concurrent.futures import ProcessPoolExecutor, as_completed

    results: list[RaceResult] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_race, job, i, s) for i, s in enumerate(seeds)]
        try:
            for fut in as_completed(futures):
                results.append(fut.result())
                progress(1)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise
    return results


def _dask(job: TrackJob, seeds: Sequence[int], address: str, progress: Progress) -> list[RaceResult]:
    try:
        distributed: Any = importlib.import_module("distributed")  # the optional cluster extra
    except ImportError:
        raise PlaytestError("--dask needs the cluster extra: pip install 'gaslands-table[cluster]' "
                            "(or: pip install -e '.[cluster]' in the repository)") from None
    try:
        client = distributed.Client(address, timeout="20s")
    except OSError as exc:
        raise PlaytestError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        shared = client.scatter(job, broadcast=True)
        tag = f"{abs(job.key):x}-{seeds[0] if seeds else 0}"
        futures = [client.submit(play_race, shared, i, s, key=f"gaslands-race-{tag}-{i}", pure=False)
                   for i, s in enumerate(seeds)]
        results: list[RaceResult] = []
        for fut in distributed.as_completed(futures):
            try:
                results.append(fut.result())
            except Exception as exc:  # a worker without this program, or of another version
                client.cancel(futures)
                raise PlaytestError(f"a race failed on the Dask cluster at {address}: {exc!r}; every worker "
                                    "needs this program installed, at the same version (README, "
                                    "Playtesting)") from exc
            progress(1)
        return results
    finally:
        client.close()


def run_races(job: TrackJob, races: int, seed: int, workers: int = 1, dask_address: str | None = None,
              progress: Progress | None = None) -> list[RaceResult]:
    """Play ``races`` races of ``job`` with dice seeds drawn from ``seed``; returns the results in race order.

    ``workers`` local processes (1: in this process), or the Dask scheduler at
    ``dask_address``; the results do not depend on either.
    """
    seeds = game_seeds(seed, races)
    tick = progress or (lambda n: None)
    if dask_address:
        results = _dask(job, seeds, dask_address, tick)
    else:
        results = _local(job, seeds, max(1, workers), tick)
    return sorted(results, key=lambda r: r.index)


# --------------------------------------------------------------------------- the report


@dataclass
class HeatMaps:
    """Heat over the table, one grid per map (cells of :data:`HEAT_CELL_MM`, ``[ix, iy]``), smoothed.

    ``maps``: name -> values per race (incidents per race, or mm lost per race).
    """

    width_mm: float
    height_mm: float
    cell_mm: float
    maps: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)


def _percentile(values: Sequence[int], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else math.nan


def _smooth(grid: NDArray[np.float64], sigma_cells: float) -> NDArray[np.float64]:
    radius = max(1, int(3 * sigma_cells))
    x = np.arange(-radius, radius + 1, dtype=np.float64)
    kernel = np.exp(-0.5 * (x / sigma_cells) ** 2)
    kernel /= kernel.sum()
    out = np.apply_along_axis(lambda r: np.convolve(r, kernel, mode="same"), 0, grid)
    return np.apply_along_axis(lambda r: np.convolve(r, kernel, mode="same"), 1, out)


def _bin(table: Table, points: Iterable[tuple[float, float, float]]) -> NDArray[np.float64]:
    """The weights of ``(x_mm, y_mm, weight)`` summed per cell of :data:`HEAT_CELL_MM`."""
    nx = max(1, math.ceil(table.width_mm / HEAT_CELL_MM))
    ny = max(1, math.ceil(table.height_mm / HEAT_CELL_MM))
    grid = np.zeros((nx, ny), dtype=np.float64)
    for x, y, w in points:
        i = min(max(int(x // HEAT_CELL_MM), 0), nx - 1)
        j = min(max(int(y // HEAT_CELL_MM), 0), ny - 1)
        grid[i, j] += w
    return grid


def _hotspots(raw: NDArray[np.float64], smooth: NDArray[np.float64], count: int = 3) -> list[dict[str, float]]:
    """The ``count`` hottest places of a map, hottest first, at least :data:`HOTSPOT_RADIUS_MM` x 2 apart:
    the centre and the raw total within :data:`HOTSPOT_RADIUS_MM` of it."""
    out: list[dict[str, float]] = []
    ii, jj = np.indices(raw.shape)
    cx = np.asarray((ii + 0.5) * HEAT_CELL_MM, dtype=np.float64)
    cy = np.asarray((jj + 0.5) * HEAT_CELL_MM, dtype=np.float64)
    for k in np.argsort(smooth, axis=None, kind="stable")[::-1][:20000]:
        i, j = np.unravel_index(int(k), smooth.shape)
        if smooth[i, j] <= 1e-12:
            break
        x, y = float(cx[i, j]), float(cy[i, j])
        if all(math.hypot(x - h["x_mm"], y - h["y_mm"]) >= 2 * HOTSPOT_RADIUS_MM for h in out):
            near = (cx - x) ** 2 + (cy - y) ** 2 <= HOTSPOT_RADIUS_MM ** 2
            out.append({"x_mm": round(x), "y_mm": round(y), "within_100_mm": round(float(raw[near].sum()), 4)})
        if len(out) >= count:
            break
    return out


def _pile_ups(incidents: Sequence[Incident]) -> list[list[Incident]]:
    """Activations with two or more collisions, or three or more vehicles in incidents."""
    by_activation: dict[int, list[Incident]] = defaultdict(list)
    for inc in incidents:
        by_activation[inc.activation].append(inc)
    out = []
    for group in by_activation.values():
        collisions = [i for i in group if i.kind == "collisions"]
        vehicles = {i.vehicle for i in group} | {i.other for i in collisions if i.other_is_vehicle}
        if len(collisions) >= 2 or len(vehicles) >= 3:
            out.append(group)
    return out


def build_report(scenario: Scenario, results: Sequence[RaceResult], seed: int,
                 round_limit: int = ROUND_LIMIT) -> tuple[dict[str, Any], HeatMaps]:
    """The report (a JSON-ready dict) and the heat maps of ``results`` (folded in race order)."""
    results = sorted(results, key=lambda r: r.index)
    n = len(results)
    per = 1.0 / max(n, 1)
    options = options_for(scenario, Options(round_limit=round_limit))
    course = options.course
    legs = leg_names(scenario, course)
    table = scenario.table
    long_mm = scenario.template_set.movement["long_straight"].length_mm or 182.0
    gates = sorted(table.gates, key=lambda g: g.number)

    finished = [r for r in results if r.finished]
    rounds = [r.rounds for r in finished]
    by_reason = Counter("finished" if r.finished else ("round limit" if r.reason.startswith("round limit") else
                                                        ("eliminated" if r.winner_team else "no winner"))
                        for r in results)
    rounds_block: dict[str, Any] = {
        "finished": len(finished), "won_by_elimination": by_reason["eliminated"],
        "no_winner": by_reason["no winner"], "stopped_at_round_limit": by_reason["round limit"],
        "round_limit": round_limit,
        "mean": round(sum(rounds) / len(rounds), 3) if rounds else None,
        "min": min(rounds) if rounds else None, "max": max(rounds) if rounds else None,
        "percentiles": {f"p{q}": (round(_percentile(rounds, q), 3) if rounds else None) for q in PERCENTILES},
        "histogram": {str(k): v for k, v in sorted(Counter(rounds).items())},
    }

    slot_races: Counter[tuple[int, int]] = Counter()
    slot_wins: Counter[tuple[int, int]] = Counter()
    team_wins: Counter[str] = Counter()
    for r in results:
        for vid, _team, rank, place in r.slots:
            slot_races[(rank, place)] += 1
            if r.winner_vehicle == vid:
                slot_wins[(rank, place)] += 1
        if r.winner_team:
            team_wins[r.winner_team] += 1
    slots_block = [{"rank": rank, "place": place, "races": slot_races[(rank, place)],
                    "wins": slot_wins[(rank, place)],
                    "win_rate": round(slot_wins[(rank, place)] / slot_races[(rank, place)], 4)}
                   for rank, place in sorted(slot_races)]
    teams = [p.name or p.id for p in scenario.spec.player]
    teams_block = [{"team": t, "wins": team_wins[t], "win_rate": round(team_wins[t] * per, 4)} for t in teams]

    leg_counts = [Counter[str]() for _ in legs]
    for r in results:
        for inc in r.incidents:
            leg_counts[min(inc.leg, len(legs) - 1)][inc.kind] += 1
    legs_block = [{"leg": name, **{k: c[k] for k in KINDS}, **{f"{k}_per_race": round(c[k] * per, 4) for k in KINDS}}
                  for name, c in zip(legs, leg_counts, strict=True)]

    gate_near = {g.id: Counter[str]() for g in gates}
    post_hits: Counter[str] = Counter()
    gate_piles: Counter[str] = Counter()
    pile_total = 0
    lines = {g.id: g.line for g in gates}
    from shapely import Point

    def nearest_gate(x: float, y: float) -> str | None:
        best, best_d = None, long_mm
        p = Point(x, y)
        for gid, line in lines.items():
            d = line.distance(p)
            if d <= best_d:
                best, best_d = gid, d
        return best

    for r in results:
        for inc in r.incidents:
            gid = nearest_gate(inc.x_mm, inc.y_mm)
            if gid is not None:
                gate_near[gid][inc.kind] += 1
            if inc.kind == "collisions" and "." in inc.other and inc.other.split(".", 1)[0] in gate_near:
                post_hits[inc.other.split(".", 1)[0]] += 1
        for group in _pile_ups(r.incidents):
            pile_total += 1
            first = next((i for i in group if i.kind == "collisions"), group[0])
            gid = nearest_gate(first.x_mm, first.y_mm)
            if gid is not None:
                gate_piles[gid] += 1
    number_of = {g.id: g.number for g in gates}
    gates_block = [{"gate": g.id, "number": g.number, "pile_ups": gate_piles[g.id], "post_hits": post_hits[g.id],
                    **{f"{k}_within_long_straight": gate_near[g.id][k] for k in KINDS}} for g in gates]
    pile_gates = sorted((b for b in gates_block if b["pile_ups"] or b["post_hits"]),
                        key=lambda b: (-gate_piles[str(b["gate"])], -post_hits[str(b["gate"])],
                                       number_of[str(b["gate"])]))

    samples = [s for r in results for s in r.samples]
    mean_progress = (sum(s.progress_mm for s in samples) / len(samples)) if samples else 0.0
    heat = HeatMaps(table.width_mm, table.height_mm, HEAT_CELL_MM)
    raw: dict[str, NDArray[np.float64]] = {}
    for kind in KINDS:
        raw[kind] = _bin(table, [(i.x_mm, i.y_mm, per) for r in results for i in r.incidents if i.kind == kind])
        heat.units[kind] = "per race"
    raw["time_lost"] = _bin(table, [(s.x_mm, s.y_mm, max(0.0, mean_progress - s.progress_mm) * per)
                                    for s in samples])
    heat.units["time_lost"] = "mm per race"
    for name, grid in raw.items():
        heat.maps[name] = _smooth(grid, HEAT_SIGMA_MM / HEAT_CELL_MM)
    heat.titles.update({"collisions": "Collisions", "wipeouts": "Wipeouts", "wrecks": "Wrecks",
                        "time_lost": "Where cars lose time (progress short of the mean activation)"})

    report: dict[str, Any] = {
        "version": REPORT_VERSION,
        "track": scenario.name,
        "source": Path(scenario.source).name,
        "kind": course.kind,
        "races": n,
        "seed": seed,
        "rounds_to_finish": rounds_block,
        "win_rate_by_grid_slot": slots_block,
        "win_rate_by_team": teams_block,
        "incidents": {k: sum(1 for r in results for i in r.incidents if i.kind == k) for k in KINDS}
        | {f"{k}_per_race": round(sum(1 for r in results for i in r.incidents if i.kind == k) * per, 4)
           for k in KINDS},
        "legs": legs_block,
        "gates": gates_block,
        "pile_ups": {"total": pile_total, "per_race": round(pile_total * per, 4),
                     "gates": [{"gate": b["gate"], "pile_ups": b["pile_ups"], "post_hits": b["post_hits"]}
                               for b in pile_gates],
                     "definition": "an activation with 2+ collisions or 3+ vehicles in incidents, put on the "
                                   "nearest gate within a Long Straight"},
        "time": {"mean_progress_per_activation_mm": round(mean_progress, 2),
                 "activations": len(samples)},
        "hotspots": {name: _hotspots(raw[name], heat.maps[name]) for name in heat.maps},
        "heatmaps": {name: f"heat-{name.replace('_', '-')}.png" for name in heat.maps},
    }
    return report, heat


def summary_lines(report: dict[str, Any]) -> list[str]:
    """The short summary printed on stdout."""
    r = report["rounds_to_finish"]
    out = [f"{report['track']}: {report['races']} bot races, seed {report['seed']}"]
    if r["finished"]:
        p = r["percentiles"]
        out.append(f"rounds to finish: mean {r['mean']:.2f}, median {p['p50']:g} (p10 {p['p10']:g}, "
                   f"p90 {p['p90']:g}); {r['finished']} finished")
    else:
        out.append("rounds to finish: no race was finished")
    others = [f"{r[k]} {w}" for k, w in (("won_by_elimination", "won by elimination"), ("no_winner", "no winner"),
                                         ("stopped_at_round_limit", f"stopped at round {r['round_limit']}"))
              if r[k]]
    if others:
        out.append("  also: " + ", ".join(others))
    if report["win_rate_by_grid_slot"]:
        out.append("win rate by Starting Grid slot: " + ", ".join(
            f"{s['rank']}.{s['place']} {100 * s['win_rate']:.0f}%" for s in report["win_rate_by_grid_slot"]))
    out.append("win rate by team: " + ", ".join(f"{t['team']} {100 * t['win_rate']:.0f}%"
                                                for t in report["win_rate_by_team"]))
    inc = report["incidents"]
    out.append("per race: " + ", ".join(f"{inc[k + '_per_race']:.2f} {k}" for k in KINDS))
    worst = max(report["legs"], key=lambda leg: sum(leg[k] for k in KINDS), default=None)
    if worst is not None and sum(worst[k] for k in KINDS):
        out.append(f"roughest leg: {worst['leg']} ({', '.join(f'{worst[k]} {k}' for k in KINDS)})")
    piles = report["pile_ups"]
    if piles["gates"]:
        out.append("gates with pile-ups: " + ", ".join(f"{g['gate']} ({g['pile_ups']} pile-ups, {g['post_hits']} "
                                                      "post hits)" for g in piles["gates"][:3]))
    return out


def report_json(report: dict[str, Any]) -> str:
    """``report.json``'s text: strict JSON (no NaN), keys in a fixed order."""
    return json.dumps(report, indent=2, allow_nan=False) + "\n"


# --------------------------------------------------------------------------- the command


def playtest(path: Path, races: int, seed: int, workers: int = 1, dask_address: str | None = None,
             template_set: Path | None = None, progress: bool = False,
             round_limit: int = ROUND_LIMIT) -> tuple[Scenario, dict[str, Any], HeatMaps]:
    """Load ``path``, play the races (see :func:`run_races`) and build the report.

    Raises :class:`~simulator.errors.InputFileError` for a bad track file,
    :class:`PlaytestError` for a track with no race rules, ``ValueError`` for
    bad counts.
    """
    if races < 1:
        raise ValueError(f"--races must be 1 or more, not {races}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"--workers must be 1 to {MAX_WORKERS}, not {workers}")
    scenario = load_scenario(path, template_set)
    if scenario.spec.scenario.kind not in ("death_race", "street_race"):
        raise PlaytestError(f"{path}: a playtest needs a race: set [scenario] kind = \"death_race\" or "
                            f"\"street_race\" (it is {scenario.spec.scenario.kind!r})")
    if not scenario.spec.player:
        raise PlaytestError(f"{path}: a playtest needs [[player]] teams with vehicles to race")
    job = job_for(scenario, template_set, round_limit)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=races, file=sys.stderr, desc="races", unit="race")
    try:
        results = run_races(job, races, seed, workers, dask_address, bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    report, heat = build_report(scenario, results, seed, round_limit)
    return scenario, report, heat


def default_workers() -> int:
    """Local worker processes by default: the cores this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
