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


def _first_touch_reference(xs, ys, pcs, lo, hi, length):  # type: ignore[no-untyped-def]
    """The first touch in the band, then in the band widened by TOUCH_MM for the rows that missed it (the
    two-pass formulation, with the plain band slice)."""
    def once(xs, ys, lo, hi):  # type: ignore[no-untyped-def]
        xl, xr = _band_reference(xs, ys, pcs, lo, hi)
        touch = (xl <= length + TOUCH_MM) & (xr >= -TOUCH_MM)
        return np.where(touch, np.maximum(xl, 0.0), np.inf).min(axis=1)
    out = once(xs, ys, lo, hi)
    loose = np.isinf(out)
    if loose.any():
        out[loose] = once(xs[loose], ys[loose], lo[loose] - TOUCH_MM, hi[loose] + TOUCH_MM)
    return out


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 40), st.sampled_from([0.0, 50.0, 152.4]))
def test_first_touch_or_loose_matches_two_passes(seed: int, owners: int, rows: int, length: float) -> None:
    """The one-pass first touch (exact band, then widened band where nothing touched) gives the bytes of
    the two passes, also for vertices exactly on a band edge, within TOUCH_MM of it, and empty bands."""
    rng = np.random.default_rng(seed)
    pcs = _random_pieces(rng, owners)
    ox, oy = rng.uniform(-150, 150, rows), rng.uniform(-150, 150, rows)
    ang = rng.uniform(0, 2 * math.pi, rows)
    xs, ys = sh._local(pcs, ox, oy, ang)
    if rng.random() < 0.3:
        ys = np.round(ys)
    lo = rng.choice([-5.0, -10.0, -2.5], size=(rows, 1))
    if rng.random() < 0.3:
        lo = lo + rng.choice([0.0, TOUCH_MM / 2.0, -TOUCH_MM / 2.0, TOUCH_MM], size=(rows, 1))
    hi = lo + rng.choice([10.0, 20.0, 5.0, 0.0], size=(rows, 1))
    got = sh._first_touch_or_loose(xs, ys, pcs, lo, hi, length)
    want = _first_touch_reference(xs, ys, pcs, lo, hi, length)
    assert got.tobytes() == want.tobytes()


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


# --------------------------------------------------------------------------- movement: merged translation events


def _translate_reference(corners: list[list[float]], vx: float, vy: float, edges: mv._EdgeSet,
                         e: np.ndarray, v: np.ndarray, eps: float) -> float:
    """The three event kinds one after the other, each with its own arrays (the original formulation)."""
    c = np.array(corners)
    px, py = c[:, 0:1], c[:, 1:2]
    best = math.inf
    with np.errstate(all="ignore"):
        if e.any():
            ax, ay, length, mx, my = edges.data[e][:, :5].T
            best = mv._line_hits_translate(px, py, vx, vy, ax, ay, mx, my, length)
        if v.any():
            qx, qy = edges.verts[v].T
            box = mv._box_lines(corners, eps)
            best = min(best, mv._line_hits_translate(qx[:, None], qy[:, None], -vx, -vy, *box[:5]),
                       mv._circle_hits_translate(px, py, vx, vy, qx, qy, eps))
    return best


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.sampled_from([1e-4, 0.01, 2.0]))
def test_translate_hits_match_reference(seed: int, square: bool, eps: float) -> None:
    rng = np.random.default_rng(seed)
    if square:  # axis-aligned boxes, a move along an axis: parallel edges, vertices on the corners' tracks
        shapes = [box(*(lambda x, y: (x, y, x + float(rng.integers(1, 30)), y + float(rng.integers(1, 30))))(
            float(rng.integers(-60, 60)), float(rng.integers(-60, 60)))) for _ in range(3)]
        heading = float(rng.choice([0.0, 90.0, 180.0, 270.0]))
        t = math.radians(float(rng.choice([0.0, 90.0, 180.0, 270.0])))
    else:
        shapes = [shapely.convex_hull(shapely.multipoints(rng.uniform(-80, 80, (7, 2)))) for _ in range(3)]
        heading = float(rng.uniform(0, 360))
        t = float(rng.uniform(0, 2 * math.pi))
    edges = mv._edge_set([g for g in shapes if g.geom_type == "Polygon"] or [box(0, 0, 1, 1)])
    assert edges is not None
    pose = Pose(float(rng.uniform(-100, 100)), float(rng.uniform(-100, 100)), heading)
    corners = footprint_corners(pose, 60, 30).tolist()
    vx, vy = math.cos(t), math.sin(t)
    n = len(edges.ebox)
    for keep in (np.ones(n + len(edges.vbox), dtype=bool), rng.random(n + len(edges.vbox)) < 0.5):
        e, v = keep[:n], keep[n:]
        if not e.any() and not v.any():
            continue
        with np.errstate(all="ignore"):
            got = mv._translate_hits(corners, vx, vy, edges.trow[:, e], edges.vcols[:, v], eps)
        want = _translate_reference(corners, vx, vy, edges, e, v, eps)
        assert got == want or (math.isnan(got) and math.isnan(want))


def _segment_hit_reference(motion, pose, span, vehicle, edges, eps):  # type: ignore[no-untyped-def]
    """:func:`_segment_hit` for a translation as first written: the box filter, then the three event kinds."""
    _, a, b, _ = motion
    listed = footprint_corners(pose, vehicle.length_mm, vehicle.width_mm).tolist()
    xs = [p[0] for p in listed]
    ys = [p[1] for p in listed]
    xs += [x + a * span for x in xs]
    ys += [y + b * span for y in ys]
    pad = eps + 1e-6
    e, v = edges.in_box(min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad)
    if not e.any() and not v.any():
        return None
    best = _translate_reference(listed, a, b, edges, e, v, eps)
    return best if best <= span else None


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 120.0))
def test_translate_segment_hit_matches_reference(seed: int, span: float) -> None:
    rng = np.random.default_rng(seed)
    shapes = [shapely.convex_hull(shapely.multipoints(rng.uniform(-150, 150, (8, 2)))) for _ in range(5)]
    edges = mv._edge_set([g for g in shapes if g.geom_type == "Polygon"] or [box(0, 0, 1, 1)])
    assert edges is not None
    vehicle = VehiclePiece("v", "car", Pose(float(rng.uniform(-150, 150)), float(rng.uniform(-150, 150)),
                                            float(rng.uniform(0, 360))), 60, 30)
    t = float(rng.uniform(0, 2 * math.pi))
    motion = (False, math.cos(t), math.sin(t), 0.0)
    with np.errstate(all="ignore"):
        got = mv._segment_hit(motion, vehicle.pose, span, vehicle, edges, 1e-4)
    assert got == _segment_hit_reference(motion, vehicle.pose, span, vehicle, edges, 1e-4)


# --------------------------------------------------------------------------- contact: the closed-form contact edge


def _capsule_reference(wx, wy, ux, uy, length, mx, my, le, strip_out, inner):  # type: ignore[no-untyped-def]
    """:func:`contact._capsule_bounds` with min and max (the original formulation)."""
    from simulator.geometry.contact import _R_EXACT_IN, _R_JOIN_IN
    a0, a1 = mx * wx + my * wy, mx * ux + my * uy
    n0, n1 = mx * wy - my * wx, mx * uy - my * ux
    t0, t1 = 0.0, length
    if a1 != 0.0:
        ta, tb = -a0 / a1, (le - a0) / a1
        if ta > tb:
            ta, tb = tb, ta
        t0, t1 = max(t0, ta), min(t1, tb)
    elif a0 < 0.0 or a0 > le:
        t1 = -1.0
    lo_o, hi_o = math.inf, -math.inf
    if t0 <= t1:
        if n1 != 0.0:
            ta, tb = (-strip_out - n0) / n1, (strip_out - n0) / n1
            if ta > tb:
                ta, tb = tb, ta
            lo, hi = max(t0, ta), min(t1, tb)
            if lo <= hi:
                lo_o, hi_o = lo, hi
                ta, tb = (-_R_EXACT_IN - n0) / n1, (_R_EXACT_IN - n0) / n1
                if ta > tb:
                    ta, tb = tb, ta
                lo, hi = max(t0, ta), min(t1, tb)
                if lo <= hi:
                    inner.append((lo, hi))
        elif abs(n0) <= strip_out:
            lo_o, hi_o = t0, t1
            if abs(n0) <= _R_EXACT_IN:
                inner.append((t0, t1))
    rr_out = strip_out * strip_out
    for vx, vy in ((wx, wy), (wx - le * mx, wy - le * my)):
        b = vx * ux + vy * uy
        c = b * b - (vx * vx + vy * vy)
        disc = c + rr_out
        if disc >= 0.0:
            sq = math.sqrt(disc)
            ta, tb = max(-b - sq, 0.0), min(-b + sq, length)
            if ta <= tb:
                lo_o, hi_o = min(lo_o, ta), max(hi_o, tb)
                disc = c + _R_JOIN_IN * _R_JOIN_IN
                if disc >= 0.0:
                    sq = math.sqrt(disc)
                    ta, tb = max(-b - sq, 0.0), min(-b + sq, length)
                    if ta <= tb:
                        inner.append((ta, tb))
    if lo_o > hi_o:
        return None
    return lo_o, hi_o


def _union_reference(intervals):  # type: ignore[no-untyped-def]
    total, reach = 0.0, -math.inf
    for lo, hi in sorted(intervals):
        if hi > reach:
            total += hi - max(lo, reach)
            reach = hi
    return total


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, 1e-3, 0.01, 0.0102, 1.0]))
def test_capsule_bounds_match_reference(seed: int, offset: float) -> None:
    from simulator.geometry import contact as ct
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, 2)
    t = rng.uniform(0, 2 * math.pi, 2)
    if rng.random() < 0.3:
        t[1] = t[0] + rng.choice([0.0, math.pi, math.pi / 2])  # parallel or square to each other
    (mx, my), (ux, uy) = (math.cos(t[0]), math.sin(t[0])), (math.cos(t[1]), math.sin(t[1]))
    le, length = float(rng.uniform(0, 3)), float(rng.uniform(0.05, 3))
    wx, wy = float(a[0]) - offset * my, float(a[1]) + offset * mx
    for strip in (ct._R_EXACT_OUT, ct._R_SLACK):
        got_in: list[tuple[float, float]] = []
        want_in: list[tuple[float, float]] = []
        got = ct._capsule_bounds(wx, wy, ux, uy, length, mx, my, le, strip, got_in)
        want = _capsule_reference(wx, wy, ux, uy, length, mx, my, le, strip, want_in)
        assert got == want and got_in == want_in
        for part in (got_in, got_in[:1]):
            assert ct._union_length(part) == _union_reference(part)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_contact_edges_of_touching_cars_match_reference(seed: int, reversing: bool, square: bool) -> None:
    """Two cars placed touching (end to end, side to side, corner to edge): the closed form (with its
    written-out min and max, shared corners and box test before the point test) agrees with shapely."""
    from simulator.geometry import contact as ct
    rng = np.random.default_rng(seed)
    h = float(rng.choice([0.0, 90.0, 180.0, 270.0])) if square else float(rng.uniform(0, 360))
    a = VehiclePiece("a", "car", Pose(0.0, 0.0, h), 60, 30, reversing=reversing)
    side = float(rng.choice([30.0, 15.0, 45.0]))
    gap = float(rng.choice([0.0, 0.005, 0.0099, 0.02]))
    turn = float(rng.choice([0.0, 90.0, 37.0, 180.0])) if square else float(rng.uniform(0, 360))
    d = math.radians(h + float(rng.choice([0.0, 90.0, 180.0, 270.0])))
    b = VehiclePiece("b", "car", Pose(0.0, 0.0, h + turn), 60, 30)
    # slide b out along d until it just clears a, then in by ``gap`` less than that
    lo, hi = 0.0, 200.0
    for _ in range(80):
        mid = (lo + hi) / 2.0
        fb = footprint_corners(Pose(mid * math.cos(d) + side * math.sin(d) * 0.1, mid * math.sin(d), h + turn), 60, 30)
        if shapely.intersects(shapely.polygons(fb), a.footprint):
            lo = mid
        else:
            hi = mid
    b = VehiclePiece("b", "car", Pose(hi * math.cos(d) + side * math.sin(d) * 0.1 + gap * math.cos(d),
                                      hi * math.sin(d) + gap * math.sin(d), h + turn), 60, 30, reversing=not reversing)
    c = ct.classify(a, b, b.footprint)
    if c.touching:
        assert c.a_edge == ct.contact_edge_reference(a, b.footprint)
        assert c.b_edge == ct.contact_edge_reference(b, a.footprint)
