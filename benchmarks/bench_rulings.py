"""Rulings benchmark (issue 3, item 7): `python benchmarks/bench_rulings.py [--repeat N]`.

On a 1220 x 915 table with 12 vehicles and 60 obstacles of 8-40 vertices it times
(a) one interrupted move, (b) one turret shoot query with cover, (c) every
permitted template for one vehicle, both directions (the live preview), and
prints medians. In the same run it times a plain reference for (a): stepping
the vehicle along the path in 0.5 mm steps with shapely until it first
overlaps something, then prints the ratio and the two methods' largest
disagreement in mm over many moves. Targets: (a) < 200 us, (b) < 2 ms, (c) < 8 ms.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable

import shapely
from shapely.geometry import Polygon

from simulator.geometry.movement import obstructions_for, resolve_move
from simulator.geometry.placement import Move, place
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.table import Obstacle, Table, VehiclePiece
from simulator.geometry.templates import MOVEMENT_NAMES, load_template_set

TS = load_template_set()


def blob(rng: random.Random, cx: float, cy: float, r: float, n: int) -> Polygon:
    """A star-convex polygon of ``n`` vertices around (cx, cy)."""
    angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
    return Polygon([(cx + r * rng.uniform(0.6, 1.0) * math.cos(a), cy + r * rng.uniform(0.6, 1.0) * math.sin(a))
                    for a in angles])


def build_table(seed: int = 7) -> Table:
    """12 vehicles and 60 obstacles, none overlapping at the start."""
    rng = random.Random(seed)
    obstacles: list[Obstacle] = []
    while len(obstacles) < 60:
        p = blob(rng, rng.uniform(40, 1180), rng.uniform(40, 875), rng.uniform(8, 22), rng.randint(8, 40))
        if p.is_valid and all(not p.intersects(o.polygon) for o in obstacles):
            obstacles.append(Obstacle(f"o{len(obstacles)}", p))
    vehicles: list[VehiclePiece] = []
    while len(vehicles) < 12:
        v = VehiclePiece(f"v{len(vehicles)}", "car", Pose(rng.uniform(100, 1120), rng.uniform(100, 815),
                                                         rng.uniform(0, 360)), 60, 30)
        if all(v.footprint.distance(o.polygon) > 1 for o in obstacles) and all(
                v.footprint.distance(w.footprint) > 1 for w in vehicles):
            vehicles.append(v)
    return Table(1220, 915, tuple(vehicles), tuple(obstacles))


def median_us(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def reference_stop(table: Table, vid: str, move: Move) -> Pose:
    """The plain method: step the path in 0.5 mm (0.5 deg) steps until the footprint overlaps something."""
    v = table.vehicle(vid)
    placed = place(TS, v.pose, v.length_mm, v.width_mm, move)
    shapes = [o.shape for o in obstructions_for(table, v) if not o.shape.intersects(v.footprint.buffer(0.01))]
    path = placed.path_before_spin
    n = max(1, math.ceil(path.total / 0.5))
    last = path.start
    for i in range(n + 1):
        pose = path.pose_at(path.total * i / n)
        fp = footprint(pose, v.length_mm, v.width_mm)
        if any(fp.intersects(s) and fp.intersection(s).area > 1e-6 for s in shapes):
            return last
        last = pose
    return last


def interrupted_cases(table: Table) -> list[tuple[str, Move]]:
    out = []
    for v in table.vehicles:
        for name in MOVEMENT_NAMES:
            for d in ("left", "right"):
                move = Move(name, d)  # type: ignore[arg-type]
                r = resolve_move(table, v.id, move, TS)
                if r.ended_interrupted and r.collisions:
                    out.append((v.id, move))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    table = build_table()
    cases = interrupted_cases(table)
    print(f"table: 12 vehicles, 60 obstacles; {len(cases)} interrupted moves found")
    vid, move = cases[0]

    a = median_us(lambda: resolve_move(table, vid, move, TS), args.repeat)
    ref = median_us(lambda: reference_stop(table, vid, move), max(5, args.repeat // 10))
    print(f"(a) interrupted move      median {a:9.1f} us   target  200 us   "
          f"reference (0.5 mm steps) {ref:9.1f} us   ratio ref/ours {ref / a:5.2f}")

    worst = 0.0
    for cvid, cmove in cases[:40]:
        ours = resolve_move(table, cvid, cmove, TS).final
        theirs = reference_stop(table, cvid, cmove)
        worst = max(worst, math.hypot(ours.x_mm - theirs.x_mm, ours.y_mm - theirs.y_mm))
    print(f"    largest disagreement with the reference over {min(40, len(cases))} moves: {worst:.3f} mm "
          "(the reference stops up to one 0.5 mm step early)")

    try:
        from simulator.geometry.shooting import shoot
    except ImportError:
        print("(b) shooting: module not available")
    else:
        ids = [v.id for v in table.vehicles]
        pairs = [(x, y) for x in ids for y in ids if x != y]
        chosen = next(((x, y) for x, y in pairs if shoot(table, x, y, "medium", "turret", TS).cover),
                      pairs[0])
        b = median_us(lambda: shoot(table, chosen[0], chosen[1], "medium", "turret", TS), max(20, args.repeat // 4))
        print(f"(b) turret shoot query    median {b:9.1f} us   target 2000 us   ({chosen[0]} at {chosen[1]})")

    v = table.vehicle(vid)
    moves = [Move(n, d) for n in MOVEMENT_NAMES if TS.permission(n, 3).allowed  # type: ignore[arg-type]
             for d in ("left", "right")]

    def preview() -> None:
        for m in moves:
            resolve_move(table, v.id, m, TS)

    c = median_us(preview, max(10, args.repeat // 10))
    base = median_us(lambda: [place(TS, v.pose, 60, 30, m).final_position for m in moves], args.repeat)
    print(f"(c) preview, {len(moves)} moves      median {c:9.1f} us   target 8000 us   "
          f"placement only (no obstructions) {base:8.1f} us")
    print(f"shapely {shapely.__version__}")


if __name__ == "__main__":
    main()
