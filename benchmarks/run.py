"""Every benchmark in one command: `python benchmarks/run.py`.

Runs the rulings benchmark (moves, shots, the live preview, against a 0.5 mm
stepping reference) and the game benchmark (bot Street Races per second,
against the same bots on an empty table), the history benchmark (undo at decision 10 and 500, against undo
by replay, and the load of a 500-decision save), the big-table benchmark (shots among
up to 10,000 obstacles and a 100,000-vertex render: peak memory and time, against
the same table without them) and online play (50 games at once
against one server on loopback, against the same games played locally) and frame time while a template is dragged across the Death Race
table (p50 and p99 against the 16.7 ms budget, against the idle window and an empty frame), each printing
medians and ratios. The fuzz
benchmark is separate: `python benchmarks/fuzz.py`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    """Run each benchmark script in turn; returns the first non-zero exit code, else 0."""
    for script in ("bench_rulings.py", "bench_game.py", "bench_history.py", "bench_memory.py", "bench_online.py",
                   "bench_frames.py"):
        print(f"== {script}", flush=True)
        code = subprocess.call([sys.executable, str(HERE / script)])
        if code:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
