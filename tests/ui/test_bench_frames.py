"""The frame-time benchmark (benchmarks/bench_frames.py) runs and prints its figures (issue 15, item 9)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_frames.py"


def test_bench_frames_drags_through_the_window_and_prints_p50_and_p99(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_frames", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_frames"] = bench
    spec.loader.exec_module(bench)
    assert bench.main(["--frames", "15", "--repeats", "1", "--size", "1280x720"]) == 0
    out = capsys.readouterr().out
    assert "wall-clock ms" in out and "CPU (this process) ms" in out and "p99" in out and "16.7 ms" in out
    for row in ("drag a template across the table", "the same window, idle", "empty frame"):
        line = next(line for line in out.splitlines() if row in line)
        p50, p99 = (float(v) for v in line.split()[-4:-2])
        assert 0.0 < p50 <= p99
    assert bench.percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.0 and bench.percentile([1.0, 2.0, 3.0, 4.0], 0.99) == 4.0
