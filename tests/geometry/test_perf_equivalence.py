"""The performance rewrites give exactly the answers of the plain code they replaced.

Each fast routine is compared, bit for bit, with a slow reference written the
plain way (the formulation it replaced): the band slices of the shooting line
search, the obstruction hits per owner, the gate test along a path, the
surfaces of a move and the closed-form contact events.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, box

from simulator.geometry import movement as mv
from simulator.geometry import shooting as sh
from simulator.geometry.contact import overlaps
from simulator.geometry.placement import Move, place
from simulator.geometry.pose import TOUCH_MM, Pose, footprint_corners
from simulator.geometry.table import Gate, Surface, Table, VehiclePiece
from simulator.geometry.templates import MOVEMENT_NAMES, load_template_set

TS = load_template_set()
coord = st.floats(-200.0, 200.0, allow_nan=False, allow_infinity=False)


# --------------------------------------------------------------------------- shooting: band slices


def _band_reference(xs, ys, pcs, lo, hi):  # type: ignore[no-untyped-def]
    """The band slice one band edge at a time (the original formulation)."""
    x2, y2 = xs[:, pcs.nxt], ys[:, pcs.nxt]
    inside = (ys >= lo) & (ys <= hi)
    cmin = np.where(inside, xs, np.inf)
    cmax = np.where(inside, xs, -np.inf)
    dy = y2 - ys
    flat = dy == 0.0
    safe = np.where(flat, 1.0, dy)
    for c in (lo, hi):
        cross = ((ys - c) * (y2 - c) <= 0.0) & ~flat
        xc = xs + (c - ys) / safe * (x2 - xs)
        cmin = np.minimum(cmin, np.where(cross, xc, np.inf))
        cmax = np.maximum(cmax, np.where(cross, xc, -np.inf))
    return np.minimum.reduceat(cmin, pcs.starts, axis=1), np.maximum.reduceat(cmax, pcs.starts, axis=1)


def _random_pieces(rng: np.random.Generator, owners: int) -> sh._Pieces:
    rings: list[list[np.ndarray]] = []
    for _ in range(owners):
        parts = []
        for _ in range(int(rng.integers(0, 3))):
            pts = rng.uniform(-100.0, 100.0, size=(int(rng.integers(3, 9)), 2))
            hull = shapely.convex_hull(shapely.multipoints(pts))
            if hull.geom_type == "Polygon" and hull.area > 0.0:
                parts.append(sh._ring(hull))
        if rng.random() < 0.3:  # a square on the grid: flat edges, vertices on the band edges
            parts.append(np.array([[0.0, -5.0], [10.0, -5.0], [10.0, 5.0], [0.0, 5.0]]))
        rings.append(parts)
    if not any(rings):
        rings[0].append(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
    return sh._pieces(rings)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 40))
def test_band_matches_reference(seed: int, owners: int, rows: int) -> None:
    rng = np.random.default_rng(seed)
    pcs = _random_pieces(rng, owners)
    ox, oy = rng.uniform(-150, 150, rows), rng.uniform(-150, 150, rows)
    ang = rng.uniform(0, 2 * math.pi, rows)
    xs, ys = sh._local(pcs, ox, oy, ang)
    if rng.random() < 0.3:
        ys = np.round(ys)  # vertices exactly on a band edge
    lo = rng.choice([-5.0, -10.0, -2.5], size=(rows, 1))
    hi = lo + rng.choice([10.0, 20.0, 5.0, 0.0], size=(rows, 1))
    got = sh._band(xs, ys, pcs, lo, hi)
    want = _band_reference(xs, ys, pcs, lo, hi)
    for g, w in zip(got, want, strict=True):
        assert g.tobytes() == w.tobytes()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8))
def test_straight_hits_per_owner(seed: int, owners: int) -> None:
    rng = np.random.default_rng(seed)
    pcs = _random_pieces(rng, owners)
    n = 12
    fam = sh._families_from([(float(rng.uniform(-50, 50)), float(rng.uniform(-50, 50)),
                              float(rng.uniform(0, 6.3)), -20.0, 20.0, 0.0) for _ in range(n)])
    fam_of = np.arange(n)
    s = rng.uniform(-20, 20, n)
    x_first = rng.uniform(0, 300, n)
    tpl = TS.shooting["medium"]
    got = sh._straight_hits(fam, fam_of, s, tpl, x_first, pcs, owners + 1)
    ox, oy, ang = sh._frames(fam, fam_of, s)
    xs, ys = sh._local(pcs, ox, oy, ang)
    hw = tpl.width_mm / 2.0
    ol, orr = _band_reference(xs, ys, pcs, np.full((n, 1), -hw + sh._EPS), np.full((n, 1), hw - sh._EPS))
    piece_hit = (ol < x_first[:, None] - sh._EPS) & (orr > sh._EPS)
    want = np.zeros((n, owners + 1), dtype=bool)
    for k in range(owners + 1):
        want[:, k] = piece_hit[:, pcs.owner == k].any(axis=1)
    assert (got == want).all()


# --------------------------------------------------------------------------- movement: gates and surfaces


def _gates_reference(table: Table, path, vehicle: VehiclePiece) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    """:func:`gates_passed` one step and one gate at a time (the original formulation)."""
    if not table.gates or path.travel_mm <= 0:
        return ()
    track = LineString(path.points(5.0)) if path.total > 0 else None
    reach = math.hypot(vehicle.length_mm / 2.0, vehicle.width_mm / 2.0) + 5.0
    near = [g for g in table.gates if track is None or track.distance(g.line) <= reach]
    n = max(2, math.ceil(path.total))
    poses = [path.pose_at(path.total * i / n) for i in range(n + 1)]
    first: dict[str, int] = {}
    for gate in near:
        gx, gy = gate.direction
        for i, (a, b) in enumerate(zip(poses[:-1], poses[1:], strict=True)):
            moving = (b.x_mm - a.x_mm) * gx + (b.y_mm - a.y_mm) * gy
            pts = np.vstack((footprint_corners(a, vehicle.length_mm, vehicle.width_mm),
                             footprint_corners(b, vehicle.length_mm, vehicle.width_mm)))
            if moving > 1e-9 and shapely.convex_hull(shapely.multipoints(pts)).distance(gate.line) <= TOUCH_MM:
                first[gate.id] = i
                break
    return tuple(sorted(first, key=lambda g: first[g]))


move_st = st.builds(lambda name, d, slide, facing, spin: Move(name, d, False, slide, facing if slide else None, spin),
                    st.sampled_from(MOVEMENT_NAMES), st.sampled_from(["left", "right"]), st.booleans(),
                    st.sampled_from(["left", "right"]), st.sampled_from([0.0, 45.0, -90.0]))


@settings(max_examples=60, deadline=None)
@given(coord, coord, st.floats(0, 360), move_st,
       st.lists(st.tuples(coord, coord, coord, coord), min_size=1, max_size=4))
def test_gates_passed_matches_reference(x: float, y: float, h: float, move: Move,
                                        posts: list[tuple[float, float, float, float]]) -> None:
    v = VehiclePiece("v", "car", Pose(x, y, h), 60, 30)
    gates = tuple(Gate(f"g{k}", k, (ax, ay), (bx, by), 2.0) for k, (ax, ay, bx, by) in enumerate(posts)
                  if math.hypot(bx - ax, by - ay) > 1.0)
    table = Table(1220, 915, (v,), gates=gates)
    path = place(TS, v.pose, 60, 30, move).path
    assert mv.gates_passed(table, path, v) == _gates_reference(table, path, v)


@settings(max_examples=60, deadline=None)
@given(coord, coord, st.floats(0, 360), move_st,
       st.lists(st.tuples(st.sampled_from(["road", "rough", "treacherous"]), coord, coord,
                          st.floats(1, 300), st.floats(1, 300)), max_size=4))
def test_surfaces_match_reference(x: float, y: float, h: float, move: Move,
                                  surfaces: list[tuple[str, float, float, float, float]]) -> None:
    v = VehiclePiece("v", "car", Pose(x, y, h), 60, 30)
    surf = tuple(Surface(f"s{k}", kind, box(sx, sy, sx + w, sy + hh))  # type: ignore[arg-type]
                 for k, (kind, sx, sy, w, hh) in enumerate(surfaces))
    table = Table(1220, 915, (v,), surfaces=surf)
    placed = place(TS, v.pose, 60, 30, move)
    end = v.moved(placed.final_position)
    want = {"road": False, "rough": False, "treacherous": False}
    if surf:
        both = shapely.union(placed.movement_polygon, end.footprint)
        roads = [s.polygon for s in surf if s.kind == "road"]
        if roads:
            want["road"] = bool(shapely.union_all(roads).buffer(TOUCH_MM).contains(both))
        for s in surf:
            if s.kind != "road" and overlaps(both, s.polygon):
                want[s.kind] = True
    assert mv._surfaces(table, placed, end, False) == want


# --------------------------------------------------------------------------- movement: contact events


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30))
def test_translate_events_match_reference(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    px, py = rng.uniform(-50, 50, (4, 1)), rng.uniform(-50, 50, (4, 1))
    ax, ay = rng.uniform(-80, 80, (1, n)), rng.uniform(-80, 80, (1, n))
    ang = rng.uniform(0, 2 * math.pi, (1, n))
    mx, my, length = np.cos(ang), np.sin(ang), rng.uniform(0, 40, (1, n))
    t = rng.uniform(0, 2 * math.pi)
    vx, vy = math.cos(t), math.sin(t)
    with np.errstate(all="ignore"):
        rx, ry = px - ax, py - ay
        s = (mx * ry - my * rx) / (my * vx - mx * vy)
        lam = mx * rx + my * ry + (mx * vx + my * vy) * s
        ok = (s >= 0.0) & (lam >= 0.0) & (lam <= length)
        want = float(s[ok].min()) if ok.any() else math.inf
        assert mv._line_hits_translate(px, py, vx, vy, ax, ay, mx, my, length) == want
        qx, qy = ax[0], ay[0]
        rx, ry = px - qx, py - qy
        b = rx * vx + ry * vy
        s = -b - np.sqrt(b * b - (rx * rx + ry * ry) + 1e-4 * 1e-4)
        ok = s >= 0.0
        want = float(s[ok].min()) if ok.any() else math.inf
        assert mv._circle_hits_translate(px, py, vx, vy, qx, qy, 1e-4) == want


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), coord, coord, st.floats(0, 100), st.floats(0, 100))
def test_edge_box_filter_matches_reference(seed: int, x0: float, y0: float, w: float, h: float) -> None:
    rng = np.random.default_rng(seed)
    shapes = [shapely.convex_hull(shapely.multipoints(rng.uniform(-200, 200, (6, 2)))) for _ in range(4)]
    edges = mv._edge_set([g for g in shapes if g.geom_type == "Polygon"] or [box(0, 0, 1, 1)])
    assert edges is not None
    e, v = edges.in_box(x0, x0 + w, y0, y0 + h)
    low = np.array((x0, -(x0 + w), y0, -(y0 + h)))
    assert (e == np.all(edges.ebox >= low, axis=1)).all()
    assert (v == np.all(edges.vbox >= low, axis=1)).all()
