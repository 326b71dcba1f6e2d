"""Every bundled scenario through ``gaslands simulate FILE --games 3 --seed 1``, twice (issue 11's "done when").

Run ``python benchmarks/bench_scenarios.py [--games N] [--seed S] [--repeats R] [NAME ...]``.
For each Gaslands scenario in ``scenarios/`` (the Deadlands boards are left out) it runs the command's code
in this process R times (at least 2), checks that every run prints the same summary, and prints the median
CPU seconds per run (``process_time``: one core, steady when other programs load the machine), the ratio
against the Street Race measured in the same run (the baseline), the mean rounds and how many games had no
winner. Exits 1 if a scenario fails or prints differently between runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
from pathlib import Path

from simulator.scenario.loader import bundled_scenario, read_toml
from simulator.scenario.simulate import simulate_command


def scenario_files() -> list[Path]:
    """The bundled Gaslands scenarios (not the Deadlands boards), the Street Race first."""
    folder = bundled_scenario("street_race.toml").parent
    files = [p for p in sorted(folder.glob("*.toml")) if "board" not in read_toml(p)]
    return sorted(files, key=lambda p: (p.stem != "street_race", p.stem))


def run_once(path: Path, games: int, seed: int) -> tuple[str, float]:
    """The command's output and the CPU seconds it took."""
    out = io.StringIO()
    start = time.process_time()
    with contextlib.redirect_stdout(out):
        simulate_command(path, games, seed, progress=False)
    return out.getvalue(), time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("names", nargs="*", help="scenario names (file stems); default: all")
    args = parser.parse_args(argv)
    files = scenario_files()
    if args.names:
        files = [p for p in files if p.stem in args.names or p.stem == "street_race"]
    repeats = max(2, args.repeats)
    baseline = None
    bad = 0
    print(f"{'scenario':30} {'median s':>9} {'x street':>9} {'rounds':>7} {'no winner':>9}  same")
    for path in files:
        try:
            runs = [run_once(path, args.games, args.seed) for _ in range(repeats)]
        except Exception as exc:  # noqa: BLE001 - report every scenario, then fail
            print(f"{path.stem:30} FAILED: {type(exc).__name__}: {exc}")
            bad += 1
            continue
        median = statistics.median(t for _, t in runs)
        baseline = baseline if baseline is not None else median
        text = runs[0][0]
        same = all(out == text for out, _ in runs)
        bad += not same
        rounds = next((line.split(":")[1].strip() for line in text.splitlines() if line.startswith("mean rounds")), "?")
        none = next((line.split(":")[1].split()[0] for line in text.splitlines() if line.startswith("no winner")), "?")
        print(f"{path.stem:30} {median:9.2f} {median / baseline:9.1f} {rounds:>7} {none:>9}  {'yes' if same else 'NO'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
