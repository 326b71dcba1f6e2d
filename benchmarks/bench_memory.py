"""Memory and time of big tables (issue 9, item 5): `python benchmarks/bench_memory.py [--repeat N]`.

(a) A turret Double shot (p.28-30) and a front Long shot among N obstacles: 3 mm pebbles packed on
    a 1200 x 900 table every 9.6 x 11.2 mm (N = 250, 1,000 and 10,000), with the firer in the
    middle and targets 300 mm and 80 mm away. Each run is a fresh process (``gaslands rule`` on the
    file); it prints the medians of the load time, the time of the four queries and the peak
    resident memory, and two ratios measured in the same run: the time against the same queries on
    the same table without obstacles (the baseline), and the peak against that baseline's peak.
    Target: every table of up to 10,000 obstacles under 200 MB, queries in seconds.
(b) `gaslands render` of a table with a Tall obstacle and a road of 100,000 vertices each, against
    the same table with 100-vertex shapes. Target: seconds, not the 30 s measured before.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIMIT_MB = 200.0
CARS = (("gun", 600.0, 450.0, 30.0), ("far", 860.0, 600.0, 0.0), ("near", 680.0, 450.0, 90.0))
QUERIES = (("t1", "far", "double", "turret"), ("t2", "near", "double", "turret"), ("t3", "far", "long", "front"),
           ("t4", "far", "large_burst", "turret"))


def pebble_table(n: int) -> str:
    """A rulings file: three cars and ``n`` 3 mm pebbles packed round them, four shoot queries."""
    from shapely import affinity
    from shapely.geometry import box

    lines = ["[table]", "width_mm = 1200.0", "height_mm = 900.0", ""]
    feet = []
    for cid, x, y, h in CARS:
        lines += ["[[vehicle]]", f'id = "{cid}"', 'type = "car"', f"x_mm = {x}", f"y_mm = {y}", f"heading_deg = {h}",
                  ""]
        feet.append(affinity.rotate(box(x - 30, y - 15, x + 30, y + 15), h, origin=(x, y)).buffer(1.0))
    k = 0
    # fill the table from its middle outwards, so smaller N are the pebbles nearest the cars
    cells = sorted(((i, j) for i in range(125) for j in range(80)),
                   key=lambda c: math.hypot(2.0 + c[0] * 9.6 - 600.0, 2.0 + c[1] * 11.2 - 450.0))
    for i, j in cells:
        if k >= n:
            break
        x0, y0 = 2.0 + i * 9.6, 2.0 + j * 11.2
        if any(box(x0, y0, x0 + 3, y0 + 3).intersects(f) for f in feet):
            continue
        lines += ["[[obstacle]]", f'id = "p{k}"',
                  f"polygon = [[{x0}, {y0}], [{x0 + 3}, {y0}], [{x0 + 3}, {y0 + 3}], [{x0}, {y0 + 3}]]", ""]
        k += 1
    for qid, target, rng, arc in QUERIES:
        lines += ["[[query]]", f'id = "{qid}"', 'kind = "shoot"', 'attacker = "gun"', f'target = "{target}"',
                  f'range = "{rng}"', f'arc = "{arc}"', ""]
    return "\n".join(lines)


def wavy_table(vertices: int) -> str:
    """A rulings file with a Tall obstacle and a road, each a simple polygon of ``vertices`` vertices."""
    pts = []
    for k in range(vertices):
        a = 2 * math.pi * k / vertices
        r = 200 + 30 * math.sin(50 * a)
        pts.append(f"[{600 + r * math.cos(a):.4f}, {450 + r * math.sin(a):.4f}]")
    poly = ", ".join(pts)
    return (f'[table]\nwidth_mm = 1200.0\nheight_mm = 900.0\n\n[[vehicle]]\nid = "red"\ntype = "car"\nx_mm = 100.0\n'
            f'y_mm = 100.0\nheading_deg = 0.0\n\n[[obstacle]]\nid = "blob"\ntall = true\npolygon = [{poly}]\n\n'
            f'[[surface]]\nid = "road"\nkind = "road"\npolygon = [{poly}]\n')


def child(path: str) -> None:
    """In a fresh process: load the rulings file, answer its queries, print times and peak memory."""
    t0 = time.perf_counter()
    from simulator.scenario.rulings import answer, load_rulings_file, parse_queries

    scenario = load_rulings_file(path)
    queries = parse_queries(scenario)
    t1 = time.perf_counter()
    answers = [answer(scenario, q) for q in queries]
    t2 = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({"load_s": t1 - t0, "query_s": t2 - t1, "peak_mb": peak,
                      "cover": [a.get("cover") for a in answers]}))


def run_child(path: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--child", str(path)], capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def render_time(path: Path, png: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "simulator.cli", "render", str(path), "-o", str(png), "--free"],
                   check=True, capture_output=True, env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                                                         "PATH": "/usr/bin:/bin"})
    return time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        runs: dict[int, list[dict[str, float]]] = {}
        for n in (0, 250, 1_000, 10_000):
            path = folder / f"pebbles_{n}.toml"
            path.write_text(pebble_table(n), encoding="utf-8")
            runs[n] = [run_child(path) for _ in range(args.repeat)]
        base = runs[0]
        base_q = statistics.median(r["query_s"] for r in base)
        base_mb = statistics.median(r["peak_mb"] for r in base)
        print(f"(a) four shoot queries (turret double x2, front long, turret large burst), {args.repeat} fresh "
              f"processes each; medians")
        print(f"{'obstacles':>9} {'load s':>7} {'queries s':>9} {'x empty':>8} {'peak MB':>8} {'x empty':>8}  verdict")
        for n, rs in runs.items():
            load = statistics.median(r["load_s"] for r in rs)
            q = statistics.median(r["query_s"] for r in rs)
            mb = statistics.median(r["peak_mb"] for r in rs)
            ok = mb < LIMIT_MB
            failed |= not ok
            print(f"{n:>9,} {load:>7.2f} {q:>9.2f} {q / base_q:>8.1f} {mb:>8.0f} {mb / base_mb:>8.2f}  "
                  f"{'under' if ok else 'OVER'} {LIMIT_MB:.0f} MB")
        print()
        times = {}
        for vertices in (100, 100_000):
            path = folder / f"wavy_{vertices}.toml"
            path.write_text(wavy_table(vertices), encoding="utf-8")
            times[vertices] = statistics.median(render_time(path, folder / "x.png") for _ in range(args.repeat))
        print(f"(b) gaslands render, Tall obstacle and road of 100,000 vertices each: {times[100_000]:.2f} s median; "
              f"100 vertices: {times[100]:.2f} s; ratio {times[100_000] / times[100]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
