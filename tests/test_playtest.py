"""gaslands playtest: races read from typed events, the same report whatever the workers, heat maps, the CLI."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pygame
import pytest

from simulator.cli import main
from simulator.gaslands.bots import Bot, Navigator, play_bot_game
from simulator.gaslands.events import Collided, CrossedFinish, GridPlaced, WipedOut, Wrecked
from simulator.gaslands.game import Options
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.playtest import (
    KINDS,
    Incident,
    RaceResult,
    Sample,
    build_report,
    job_for,
    play_race,
    report_json,
    run_races,
    summary_lines,
)
from simulator.scenario.setup import new_game, options_for
from simulator.scenario.simulate import ROUND_LIMIT, game_seeds
from simulator.ui.heatmap import draw_heatmap

DEATH_RACE = bundled_scenario("death_race.toml")


@pytest.fixture(scope="module")
def scenario():  # type: ignore[no-untyped-def]
    return load_scenario(DEATH_RACE)


def test_a_race_is_summed_up_from_its_events(scenario) -> None:  # type: ignore[no-untyped-def]
    seed = game_seeds(3, 1)[0]
    result = play_race(job_for(scenario), 0, seed)
    options = options_for(scenario, Options(round_limit=ROUND_LIMIT))
    game = play_bot_game(new_game(scenario, seed, options), Bot(Navigator(scenario.table, options.course)))
    log = game.log
    counted = Counter(i.kind for i in result.incidents)
    assert counted["collisions"] == sum(isinstance(e, Collided) for e in log)
    assert counted["wipeouts"] == sum(isinstance(e, WipedOut) for e in log)
    assert counted["wrecks"] == sum(isinstance(e, Wrecked) for e in log)
    assert [s[0] for s in result.slots] == [e.vehicle for e in log if isinstance(e, GridPlaced)]
    crossed = [e.vehicle for e in log if isinstance(e, CrossedFinish) and e.wins]
    assert result.winner_vehicle == (crossed[0] if crossed else None)
    assert result.finished == bool(crossed)
    assert result.rounds == game.state.round.round_no
    # every activation that moved gives one sample, and progress sums to about the course driven
    assert len(result.samples) >= 4 and all(s.leg >= 0 for s in result.samples)
    assert all(0 <= i.leg <= 6 for i in result.incidents)


def test_the_report_is_the_same_whatever_the_number_of_workers(scenario) -> None:  # type: ignore[no-untyped-def]
    job = job_for(scenario)
    one = run_races(job, 4, seed=11, workers=1)
    two = run_races(job, 4, seed=11, workers=2)
    assert one == two
    assert report_json(build_report(scenario, one, 11)[0]) == report_json(build_report(scenario, two, 11)[0])


def _result(index: int, rounds: int, incidents: tuple[Incident, ...] = (), finished: bool = True) -> RaceResult:
    slots = (("red-car", "Red Team", 1, 1), ("blue-car", "Blue Team", 1, 2))
    return RaceResult(index, index, finished, rounds, "the race is won" if finished else "round limit 30 reached",
                      "red-car" if finished and index % 2 == 0 else ("blue-car" if finished else None),
                      ("Red Team" if index % 2 == 0 else "Blue Team") if finished else None, slots, incidents,
                      (Sample(700.0, 200.0, 0, 100.0), Sample(1000.0, 200.0, 0, 20.0)))


def test_percentiles_win_rates_legs_and_pile_ups_from_known_results(scenario) -> None:  # type: ignore[no-untyped-def]
    # gate-1 runs from (1150, 291) to (1150, 109): two collisions in one activation beside it are a pile-up
    pile = (Incident("collisions", 0, 1140.0, 200.0, 5, "red-car", "blue-car", True),
            Incident("collisions", 0, 1145.0, 190.0, 5, "blue-car", "gate-1.post_a", False),
            Incident("wipeouts", 1, 1500.0, 600.0, 9, "blue-car"))
    results = [_result(0, 6, pile), _result(1, 7), _result(2, 8), _result(3, 9), _result(4, 10),
               _result(5, 31, finished=False)]
    report, heat = build_report(scenario, results, seed=1)
    r = report["rounds_to_finish"]
    assert (r["finished"], r["stopped_at_round_limit"], r["mean"]) == (5, 1, 8.0)
    assert r["percentiles"] == {"p10": 6.4, "p25": 7.0, "p50": 8.0, "p75": 9.0, "p90": 9.6}
    assert report["win_rate_by_grid_slot"] == [
        {"rank": 1, "place": 1, "races": 6, "wins": 3, "win_rate": 0.5},
        {"rank": 1, "place": 2, "races": 6, "wins": 2, "win_rate": round(2 / 6, 4)}]
    legs = {leg["leg"]: leg for leg in report["legs"]}
    assert legs["start -> gate-1"]["collisions"] == 2 and legs["gate-1 -> gate-2"]["wipeouts"] == 1
    assert sum(leg["collisions"] for leg in report["legs"]) == report["incidents"]["collisions"] == 2
    gates = {g["gate"]: g for g in report["gates"]}
    assert gates["gate-1"]["pile_ups"] == 1 and gates["gate-1"]["post_hits"] == 1
    assert gates["gate-1"]["collisions_within_long_straight"] == 2
    assert report["pile_ups"]["gates"][0]["gate"] == "gate-1"
    # the collision heat peaks where the collisions were, and the hotspot says so
    spot = report["hotspots"]["collisions"][0]
    assert abs(spot["x_mm"] - 1142) <= 15 and abs(spot["y_mm"] - 195) <= 15
    assert spot["within_100_mm"] == round(2 / 6, 4)
    assert report["time"]["mean_progress_per_activation_mm"] == 60.0
    assert heat.maps["time_lost"].sum() == pytest.approx(40.0 * 6 / 6, rel=0.05)
    lines = summary_lines(report)
    assert lines[0] == "Death Race: 6 bot races, seed 1"
    assert "median 8" in lines[1] and "gate-1 (1 pile-ups, 1 post hits)" in lines[-1]
    json.loads(report_json(report))


def test_the_heat_map_is_drawn_over_the_track(scenario) -> None:  # type: ignore[no-untyped-def]
    pygame.font.init()
    results = [_result(0, 6, (Incident("wrecks", 0, 1400.0, 900.0, 1, "red-car"),))]
    _, heat = build_report(scenario, results, seed=1)
    picture = draw_heatmap(scenario.table, heat.maps["wrecks"], "Wrecks", "per race", 1, heat.cell_mm)
    from simulator.ui.heatmap import LEGEND_PX, TITLE_PX
    from simulator.ui.view import View

    w, h = picture.get_size()
    view = View.fit((0.0, 0.0, 1830.0, 1220.0), (0, TITLE_PX, w, h - TITLE_PX - LEGEND_PX), margin_px=16)
    hot = picture.get_at(view.to_screen_int(1405.0, 905.0))
    cold = picture.get_at(view.to_screen_int(300.0, 200.0))
    assert hot.r > 120 and hot.g < 90  # deep red where the wreck was
    assert (cold.r, cold.g, cold.b) != (hot.r, hot.g, hot.b)


def test_playtest_command_writes_the_report_and_heat_maps(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pt"
    assert main(["playtest", str(DEATH_RACE), "--races", "3", "--seed", "4", "--workers", "1", "--quiet",
                 "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Death Race: 3 bot races, seed 4")
    report = json.loads((out / "report.json").read_text())
    assert report["races"] == 3 and set(report["heatmaps"]) == {*KINDS, "time_lost"}
    for name in report["heatmaps"].values():
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the same folder again is fine; a folder holding something else is refused before any race
    assert main(["playtest", str(DEATH_RACE), "--races", "1", "--workers", "1", "--quiet", "-o", str(out)]) == 0
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    assert main(["playtest", str(DEATH_RACE), "--races", "1", "--quiet", "-o", str(other)]) == 2
    assert "holds files this command did not write" in capsys.readouterr().err
    assert (other / "notes.txt").read_text() == "keep me"


def test_a_playtest_needs_a_race(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = Path(__file__).parent / "cases" / "move_gates.toml"
    assert main(["playtest", str(case), "--races", "1", "--quiet", "-o", str(tmp_path / "x")]) == 2
    assert "a playtest needs a race" in capsys.readouterr().err


def test_playtest_on_a_local_dask_cluster_gives_the_same_report(scenario) -> None:  # type: ignore[no-untyped-def]
    if os.environ.get("CI"):  # CI installs the cluster extra (.ci/run): this test must run there, not skip
        import distributed
    else:
        distributed = pytest.importorskip("distributed")
    job = job_for(scenario)
    local = run_races(job, 3, seed=21, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40) as cluster:
        on_cluster = run_races(job, 3, seed=21, dask_address=cluster.scheduler_address)
    assert on_cluster == local
    assert report_json(build_report(scenario, on_cluster, 21)[0]) == report_json(build_report(scenario, local, 21)[0])
