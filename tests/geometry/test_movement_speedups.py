"""Shortcuts of the move resolution against the computations they skip (issue #13: pure speed-ups).

Every shortcut here either answers exactly as the full computation would or hands the question back to it;
these tests compare the two on many random inputs, so a later change cannot make them drift apart.
"""

from __future__ import annotations

import math
from dataclasses import fields, replace
from typing import cast

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Polygon, box

from simulator.geometry import movement
from simulator.geometry.contact import overlaps
from simulator.geometry.lazy import lazy_property
from simulator.geometry.movement import (
    _CONTACT_TARGET_MM,
    _build_obstructions,
    _edge_set,
    _edges_of,
    _EdgeSet,
    _near_pivot,
    _pivot_region,
    _scene,
    _Shapes,
    obstructions_for,
    resolve_move,
)
from simulator.geometry.path import Path, Segment, truncated
from simulator.geometry.placement import Move, final_position, place
from simulator.geometry.pose import TOUCH_MM, Pose, normalise_deg
from simulator.geometry.table import Gate, Obstacle, Surface, Table, VehiclePiece
from simulator.geometry.templates import MOVEMENT_NAMES, circle_polygon, load_template_set

TS = load_template_set()

poses = st.builds(Pose, st.floats(200, 800), st.floats(200, 800), st.floats(0, 359.9))


@st.composite
def obstacles_near(draw: st.DrawFn, x: float, y: float, spread: float) -> list[Obstacle]:
    out = []
    for i in range(draw(st.integers(1, 6))):
        ox, oy = x + draw(st.floats(-spread, spread)), y + draw(st.floats(-spread, spread))
        if draw(st.booleans()):
            shape: Polygon = box(ox, oy, ox + draw(st.floats(0.2, 40)), oy + draw(st.floats(0.2, 40)))
        else:
            shape = circle_polygon(ox, oy, draw(st.floats(1.0, 20.0)))
        out.append(Obstacle(f"o{i}", shape))
    return out


@settings(max_examples=300, deadline=None)
@given(st.data(), poses, st.sampled_from([(60.0, 30.0), (45.0, 20.0), (110.0, 40.0)]),
       st.sampled_from([90.0, -90.0]))
def test_pivot_screen_never_hides_a_touch(data: st.DataObject, pose: Pose, size: tuple[float, float],
                                          turn: float) -> None:
    """When :func:`_near_pivot` says nothing is near, the swept pivot region touches nothing either."""
    v = VehiclePiece("me", "car", pose, *size)
    reach = math.hypot(size[0] / 2.0, size[1] / 2.0)
    items = [movement.Obstruction(o.id, o.polygon, obstacle=o)
             for o in data.draw(obstacles_near(pose.x_mm, pose.y_mm, reach + 30.0))]
    shapes = _Shapes(items)
    if not _near_pivot(pose, v, shapes):
        assert shapes.within(_pivot_region(pose, turn, v), TOUCH_MM) == []


def _table(me: VehiclePiece, others: tuple[VehiclePiece, ...], obstacles: tuple[Obstacle, ...]) -> Table:
    gate = Gate("g1", 1, (100.0, 100.0), (100.0, 300.0))
    return Table(1200, 1200, (me, *others), obstacles + gate.posts())


@settings(max_examples=60, deadline=None)
@given(poses, st.lists(poses, max_size=3), st.sampled_from(MOVEMENT_NAMES), st.booleans(), st.data())
def test_scene_shared_by_content(me_pose: Pose, other_poses: list[Pose], template: str, left: bool,
                                 data: st.DataObject) -> None:
    """A table rebuilt with the same pieces and obstacles (new objects, as each game state builds) shares the
    scene of the first, which holds what a fresh build would; moves resolve the same on both; a table whose
    other vehicle moved gets a scene of its own."""
    obstacles = tuple(data.draw(obstacles_near(me_pose.x_mm, me_pose.y_mm, 150.0)))
    me = VehiclePiece("me", "car", me_pose, 60.0, 30.0)
    others = tuple(VehiclePiece(f"v{i}", "car", p, 60.0, 30.0) for i, p in enumerate(other_poses))
    first = _table(me, others, obstacles)
    again = _table(VehiclePiece("me", "car", me_pose, 60.0, 30.0, gear=3),
                   tuple(VehiclePiece(f"v{i}", "car", p, 60.0, 30.0) for i, p in enumerate(other_poses)),
                   tuple(Obstacle(o.id, o.polygon) for o in obstacles))
    scene = _scene(first, first.vehicle("me"))
    assert _scene(again, again.vehicle("me")) is scene
    assert scene.items == _build_obstructions(again, again.vehicle("me"))
    assert obstructions_for(again, again.vehicle("me")) == _build_obstructions(again, again.vehicle("me"))
    move = Move(template, "left" if left else "right")
    a, b = resolve_move(first, "me", move, TS), resolve_move(again, "me", move, TS)
    assert (a.final, a.collisions, a.ignored, a.removed, a.surfaces, a.path, a.notes) == \
        (b.final, b.collisions, b.ignored, b.removed, b.surfaces, b.path, b.notes)
    if others:
        moved = others[0].moved(Pose(others[0].pose.x_mm + 1.0, others[0].pose.y_mm, others[0].pose.heading_deg))
        third = _table(me, (moved, *others[1:]), obstacles)
        assert _scene(third, third.vehicle("me")) is not scene
        assert _scene(third, third.vehicle("me")).items == _build_obstructions(third, third.vehicle("me"))


@settings(max_examples=400, deadline=None)
@given(poses, st.sampled_from([*MOVEMENT_NAMES, "nope"]), st.sampled_from(["left", "right", None]), st.booleans(),
       st.booleans(), st.sampled_from(["", "short_straight", "gentle"]), st.sampled_from([0.0, 45.0, -90.0, 91.0]),
       st.sampled_from([60.0, 45.0, 110.0, 33.3]))
def test_final_position_is_the_placed_moves(start: Pose, template: str, direction: str | None, reverse: bool,
                                            slide: bool, slide_template: str, spin: float, length: float) -> None:
    """``final_position`` gives ``place(...).final_position`` to the last bit (or raises the same error)."""
    move = Move(template, direction, reverse, slide, "left", spin, slide_template)  # type: ignore[arg-type]

    def outcome(f):  # type: ignore[no-untyped-def]
        try:
            return repr(f())
        except (KeyError, ValueError) as e:
            return f"{type(e).__name__}: {e}"

    assert outcome(lambda: final_position(TS, start, length, 30.0, move)) == \
        outcome(lambda: place(TS, start, length, 30.0, move).final_position)


def test_moved_and_with_vehicle_are_replace() -> None:
    """The hand-written copies give what ``dataclasses.replace`` gives, every field set (a new field must be
    added to them)."""
    v = VehiclePiece("a", "truck", Pose(1.0, 2.0, 3.0), 70.0, 35.0, "heavyweight", 4, True, True, "p1", 80.0, 30.0,
                     12.0, "x")
    assert v.moved(Pose(5.0, 6.0, 7.0)) == replace(v, pose=Pose(5.0, 6.0, 7.0))
    assert v.moved(Pose(5.0, 6.0, 7.0), reversing=False, bend_deg=-3.0) == \
        replace(v, pose=Pose(5.0, 6.0, 7.0), reversing=False, bend_deg=-3.0)
    t = Table(900.0, 800.0, (v, replace(v, id="b")), (Obstacle("o", box(0, 0, 1, 1)),), (), (), (), "other", "n",
              (("k", "v"),), ())
    w = v.moved(Pose(9.0, 9.0, 9.0))
    assert t.with_vehicle(w) == replace(t, vehicles=(w, t.vehicles[1]))
    assert len(fields(Table)) == 11 and len(fields(VehiclePiece)) == 14  # a new field: add it to the copies


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_joined_edge_sets_are_the_built_ones(seed: int, n: int) -> None:
    """Joining each polygon's edge rows gives the very arrays building them all at once gives, and a subset
    of the whole is the join of the kept polygons."""
    rng = np.random.default_rng(seed)
    shapes: list[Polygon] = []
    for _ in range(n):
        g = shapely.convex_hull(shapely.multipoints(rng.uniform(-200, 200, (int(rng.integers(3, 9)), 2))))
        shapes.append(g if isinstance(g, Polygon) else box(0, 0, 1, 1))
    if rng.random() < 0.5:
        shapes.append(circle_polygon(float(rng.uniform(-50, 50)), float(rng.uniform(-50, 50)), 10.0))
    built = _EdgeSet.build([cast(np.ndarray, _edges_of(g)) for g in shapes], _CONTACT_TARGET_MM)
    joined = _edge_set(shapes)
    assert joined is not None
    for name in ("data", "verts", "box", "trow", "vcols", "box_t", "ebox", "vbox"):
        assert np.array_equal(getattr(built, name), getattr(joined, name)), name
    keep = rng.random(len(shapes)) < 0.5
    if keep.any():
        part = built.subset(keep)
        kept = _edge_set([g for g, k in zip(shapes, keep, strict=True) if k])
        assert kept is not None
        for name in ("data", "verts", "box", "trow", "vcols", "box_t"):
            assert np.array_equal(getattr(part, name), getattr(kept, name)), name


def test_exit_polygon_is_the_cut_template() -> None:
    for t in TS.movement.values():
        assert shapely.equals_exact(t.exit_polygon, t.polygon_up_to(t.exit_s_mm), 0.0)


def _surfaces_reference(table: Table, movement_polygon: Polygon, outline: Polygon) -> dict[str, bool]:
    """The surface test as first written: the boxes of every surface against the union's box, then overlaps."""
    out = {"road": False, "rough": False, "treacherous": False}
    others = [s for s in table.surfaces if s.kind != "road"]
    b = np.array([movement_polygon.bounds, outline.bounds])
    x0, y0 = b[:, 0].min() - 1e-6, b[:, 1].min() - 1e-6
    x1, y1 = b[:, 2].max() + 1e-6, b[:, 3].max() + 1e-6
    sb = shapely.bounds(np.array([s.polygon for s in others], dtype=object))
    meet = (sb[:, 0] <= x1) & (sb[:, 2] >= x0) & (sb[:, 1] <= y1) & (sb[:, 3] >= y0)
    others = [s for s, m in zip(others, meet.tolist(), strict=True) if m]
    if not others:
        return out
    both = shapely.union(movement_polygon, outline)
    for s in others:
        if overlaps(both, s.polygon):
            out[s.kind] = True
    return out


@settings(max_examples=80, deadline=None)
@given(poses, st.sampled_from(MOVEMENT_NAMES), st.booleans(), st.data())
def test_surfaces_match_reference(start: Pose, template: str, left: bool, data: st.DataObject) -> None:
    surfaces = []
    for i in range(data.draw(st.integers(1, 4))):
        x, y = start.x_mm + data.draw(st.floats(-200, 200)), start.y_mm + data.draw(st.floats(-200, 200))
        kind = data.draw(st.sampled_from(["rough", "treacherous"]))
        surfaces.append(Surface(f"s{i}", kind, box(x, y, x + data.draw(st.floats(1, 150)),
                                                   y + data.draw(st.floats(1, 150)))))
    me = VehiclePiece("me", "car", start, 60.0, 30.0)
    table = Table(1200, 1200, (me,), (), tuple(surfaces))
    placed = place(TS, start, 60.0, 30.0, Move(template, "left" if left else "right"))
    end = me.moved(placed.final_position)
    assert movement._surfaces(table, placed, end, False) == _surfaces_reference(table, placed.movement_polygon,
                                                                                end.outline)


def _pose_lists_reference(path: Path, n: int) -> tuple[list[float], list[float], list[float]]:
    """``Path.pose_lists`` as first written: every step located from the first segment."""
    xs: list[float] = []
    ys: list[float] = []
    hs: list[float] = []
    total = path.total
    segs = path.segments
    last = len(segs) - 1
    for i in range(n + 1):
        remaining = min(max(total * i / n, 0.0), total)
        for index, seg in enumerate(segs):
            span = abs(seg.length)
            if remaining <= span or index == last:
                t = min(remaining, span)
                break
            remaining -= span
        s = seg.start
        if seg.kind == "pivot":
            xs.append(s.x_mm)
            ys.append(s.y_mm)
            hs.append(normalise_deg(s.heading_deg + math.copysign(t, seg.length)))
            continue
        t = min(max(t, 0.0), span)
        if seg.kind == "shift":
            rad = math.radians(seg.shift_deg)
            xs.append(s.x_mm + math.cos(rad) * t)
            ys.append(s.y_mm + math.sin(rad) * t)
            hs.append(s.heading_deg)
            continue
        th0 = math.radians(s.heading_deg + (180.0 if seg.reverse else 0.0))
        k = seg.curvature_per_mm
        if abs(k) < 1e-12:
            xs.append(s.x_mm + math.cos(th0) * t)
            ys.append(s.y_mm + math.sin(th0) * t)
            hs.append(s.heading_deg)
        else:
            th = th0 + k * t
            xs.append(s.x_mm + (math.sin(th) - math.sin(th0)) / k)
            ys.append(s.y_mm - (math.cos(th) - math.cos(th0)) / k)
            hs.append(normalise_deg(s.heading_deg + math.degrees(k * t)))
    return xs, ys, hs


@settings(max_examples=400, deadline=None)
@given(poses, st.sampled_from(MOVEMENT_NAMES), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from([0.0, 30.0, -90.0]), st.integers(1, 400), st.booleans())
def test_pose_lists_match_reference(start: Pose, template: str, left: bool, reverse: bool, slide: bool,
                                    spin: float, n: int, cut: bool) -> None:
    """Every step's numbers, to the last bit, for whole and cut paths with Slides, pivots and Spins; and a
    second call (remembered) gives equal fresh lists."""
    move = Move(template, "left" if left else "right", reverse, slide, "left", spin)
    path = place(TS, start, 60.0, 30.0, move).path
    if cut:
        path = truncated(path, path.total * 0.37)
    want = _pose_lists_reference(path, n)
    got = path.pose_lists(n)
    assert [[repr(x) for x in xs] for xs in got] == [[repr(x) for x in xs] for xs in want]
    again = path.pose_lists(n)
    assert again == want and again[0] is not got[0]


def test_lazy_property_computes_once_and_stores() -> None:
    calls = []

    class Thing:
        @lazy_property
        def value(self) -> int:
            """The answer."""
            calls.append(1)
            return 42

    t = Thing()
    assert (t.value, t.value, t.__dict__["value"], len(calls)) == (42, 42, 42, 1)
    assert isinstance(Thing.value, lazy_property) and Thing.value.__doc__ == "The answer."


def _line_hits_rotate_reference(px, py, cx, cy, sgn, ax, ay, mx, my, length, beta):  # type: ignore[no-untyped-def]
    """``_line_hits_rotate`` as first written: one root after the other."""
    rx, ry = px - cx, py - cy
    rho2 = rx * rx + ry * ry
    alpha = np.arctan2(ry, rx)
    wx, wy = cx - ax, cy - ay
    base = my * wx - mx * wy
    along = mx * wx + my * wy
    root = np.sqrt(rho2 - base * base)
    psi = np.arccos(-base / np.sqrt(rho2))
    gamma = beta - alpha
    best = math.inf
    for sign in (1.0, -1.0):
        theta = np.mod(sgn * (gamma + sign * psi), 2.0 * math.pi)
        lam = along + sign * root
        ok = (lam >= 0.0) & (lam <= length)
        if ok.any():
            best = min(best, float(theta[ok].min()))
    return best


def _segment_hit_reference(motion, pose, span, vehicle, edges, eps):  # type: ignore[no-untyped-def]
    """``_segment_hit`` for a rotation as first written (each corner's turns worked out anew)."""
    _, a, b, rate = motion
    corners = movement.footprint_corners(pose, vehicle.length_mm, vehicle.width_mm)
    listed = corners.tolist()
    xs = [p[0] for p in listed]
    ys = [p[1] for p in listed]
    turn = abs(rate) * span
    n = max(1, math.ceil(turn / 0.2))
    reach = 0.0
    for x, y in listed:
        rx, ry = x - a, y - b
        reach = max(reach, math.hypot(rx, ry))
        for i in range(1, n + 1):
            ang = math.copysign(turn, rate) * i / n
            c, s_ = math.cos(ang), math.sin(ang)
            xs.append(a + c * rx - s_ * ry)
            ys.append(b + s_ * rx + c * ry)
    pad = reach * (1.0 - math.cos(turn / n / 2.0)) + eps + 1e-6
    e, v = edges.in_box(min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad)
    if not e.any() and not v.any():
        return None
    px, py = corners[:, 0:1], corners[:, 1:2]
    best = math.inf
    sgn = 1.0 if rate > 0 else -1.0
    if e.any():
        ax, ay, length, mx, my, beta = edges.data[e][:, :6].T
        best = _line_hits_rotate_reference(px, py, a, b, sgn, ax, ay, mx, my, length, beta)
    if v.any():
        qx, qy = edges.verts[v].T
        box = movement._box_lines(listed, eps)
        best = min(best, _line_hits_rotate_reference(qx[:, None], qy[:, None], a, b, -sgn, *box),
                   movement._circle_hits_rotate(px, py, a, b, sgn, qx, qy, eps))
    return best / abs(rate) if best <= turn else None


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1e-4, 0.01, 3.0]))
def test_rotation_hits_match_reference(seed: int, eps: float) -> None:
    """The least turn to a line, both roots at once, is the one worked out root by root (nan roots too);
    and a turning segment's first hit is the reference's."""
    rng = np.random.default_rng(seed)
    shapes = [shapely.convex_hull(shapely.multipoints(rng.uniform(-120, 120, (7, 2)))) for _ in range(4)]
    edges = _edge_set([g for g in shapes if isinstance(g, Polygon)] or [box(0, 0, 1, 1)])
    assert edges is not None
    vehicle = VehiclePiece("v", "car", Pose(float(rng.uniform(-60, 60)), float(rng.uniform(-60, 60)),
                                            float(rng.uniform(0, 360))), 60.0, 30.0)
    corners = movement.footprint_corners(vehicle.pose, 60.0, 30.0)
    cx, cy = float(rng.uniform(-150, 150)), float(rng.uniform(-150, 150))
    with np.errstate(all="ignore"):
        ax, ay, length, mx, my, beta = edges.data[:, :6].T
        for sgn in (1.0, -1.0):
            args = (corners[:, 0:1], corners[:, 1:2], cx, cy, sgn, ax, ay, mx, my, length, beta)
            assert movement._line_hits_rotate(*args) == _line_hits_rotate_reference(*args)
        k = float(rng.choice([1 / 35.0, -1 / 35.0, 1 / 250.0, -1 / 120.0]))
        rad = math.radians(vehicle.pose.heading_deg)
        motion = (True, vehicle.pose.x_mm - math.sin(rad) / k, vehicle.pose.y_mm + math.cos(rad) / k, k)
        span = float(rng.uniform(0.0, 300.0))
        assert movement._segment_hit(motion, vehicle.pose, span, vehicle, edges, eps) == \
            _segment_hit_reference(motion, vehicle.pose, span, vehicle, edges, eps)
        pivot = (True, vehicle.pose.x_mm, vehicle.pose.y_mm, math.copysign(math.pi / 180.0, k))
        assert movement._segment_hit(pivot, vehicle.pose, span, vehicle, edges, eps) == \
            _segment_hit_reference(pivot, vehicle.pose, span, vehicle, edges, eps)


def _first_touch_reference(pts, steps, a, b):  # type: ignore[no-untyped-def]
    """``first_touch_step`` as first written: every step not certainly clear measured with shapely."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    rx, ry = pts[steps, :, 0] - ax, pts[steps, :, 1] - ay
    across = rx * uy - ry * ux
    along = rx * ux + ry * uy
    far = TOUCH_MM + 1e-6
    clear = ((across > far).all(axis=1) | (across < -far).all(axis=1) | (along < -far).all(axis=1)
             | (along > length + far).all(axis=1))
    left = steps[~clear]
    line = LineString([a, b])
    for block in range(0, len(left), 64):
        rows = left[block:block + 64]
        hulls = shapely.convex_hull(shapely.multipoints(pts[rows]))
        hit = np.flatnonzero(shapely.distance(hulls, line) <= TOUCH_MM)
        if len(hit):
            return int(rows[hit[0]])
    return None


@settings(max_examples=300, deadline=None)
@given(poses, st.sampled_from(MOVEMENT_NAMES), st.booleans(), st.booleans(), st.floats(-80.0, 80.0),
       st.floats(0.0, 180.0), st.floats(1.0, 400.0), st.sampled_from([0.0, 0.005, 0.01, 0.0100001, 0.02]),
       st.booleans())
def test_first_touch_step_matches_reference(start: Pose, template: str, left: bool, reverse: bool, ahead: float,
                                            angle: float, length: float, graze: float, end_on: bool) -> None:
    """The first step whose swept hull comes within 0.01 mm of a line is the reference's: lines across the
    path, short ones ending inside it, and lines laid just off a corner (grazes either side of 0.01 mm)."""
    v = VehiclePiece("me", "car", start, 60.0, 30.0)
    path = place(TS, start, 60.0, 30.0, Move(template, "left" if left else "right", reverse)).path
    n = max(2, math.ceil(path.total))
    px, py, ph = path.pose_lists(n)
    pts = movement.swept_points(np.array(px), np.array(py), ph, v)
    steps = np.arange(n)
    mid = path.pose_at(path.total / 2.0)
    cx, cy = mid.offset(ahead, 0.0)
    t = math.radians(angle)
    a = (cx - math.cos(t) * length / 2.0, cy - math.sin(t) * length / 2.0)
    b = (cx + math.cos(t) * length / 2.0, cy + math.sin(t) * length / 2.0)
    if end_on:  # a line ending just off the first pose's front-left corner
        corner = movement.footprint_corners(start, 60.0, 30.0)[0]
        a = (float(corner[0]) + graze, float(corner[1]))
        b = (a[0] + math.cos(t) * length, a[1] + math.sin(t) * length)
    assert movement.first_touch_step(pts, steps, a, b) == _first_touch_reference(pts, steps, a, b)


def _reach_bounds_reference(placed, v):  # type: ignore[no-untyped-def]
    boxes = [placed.movement_polygon.bounds]
    if placed.template_polygon is not placed.movement_polygon:
        boxes.append(placed.template_polygon.bounds)
    for pose in (placed.start, placed.final_position):
        c = movement._corner_list(pose, v)
        xs, ys = [p[0] for p in c], [p[1] for p in c]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    pad = math.hypot(v.length_mm / 2.0, v.width_mm / 2.0) + 1.0
    return (min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad,
            max(b[2] for b in boxes) + pad, max(b[3] for b in boxes) + pad)


@settings(max_examples=200, deadline=None)
@given(poses, st.sampled_from(MOVEMENT_NAMES), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from([(60.0, 30.0), (45.0, 20.0), (110.0, 40.0)]))
def test_reach_bounds_and_outline_bounds_match_reference(start: Pose, template: str, left: bool, reverse: bool,
                                                         slide: bool, size: tuple[float, float]) -> None:
    v = VehiclePiece("me", "car", start, *size)
    placed = place(TS, start, size[0], size[1], Move(template, "left" if left else "right", reverse, slide, "left"))
    assert movement.reach_bounds(placed, v) == _reach_bounds_reference(placed, v)
    end = v.moved(placed.final_position)
    assert movement._outline_bounds(end) == end.outline.bounds
    rig = VehiclePiece("rig", "war_rig", start, *size, trailer_length_mm=80.0, trailer_width_mm=30.0, bend_deg=10.0)
    assert movement._outline_bounds(rig) == rig.outline.bounds


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_circle_hits_rotate_is_the_nan_ignoring_least(seed: int) -> None:
    """The least turn to a vertex is ``np.nanmin`` of both roots' turns (inf when every one is nan)."""
    rng = np.random.default_rng(seed)
    px, py = rng.uniform(-50, 50, (4, 1)), rng.uniform(-50, 50, (4, 1))
    qx, qy = rng.uniform(-80, 80, int(rng.integers(1, 9))), rng.uniform(-80, 80, int(rng.integers(1, 9)))
    qy = qy[:len(qx)] if len(qy) >= len(qx) else np.resize(qy, len(qx))
    cx, cy = float(rng.uniform(-20, 20)), float(rng.uniform(-20, 20))
    for sgn in (1.0, -1.0):
        with np.errstate(all="ignore"):
            rx, ry = px - cx, py - cy
            wx, wy = qx - cx, qy - cy
            rho2, w2 = rx * rx + ry * ry, wx * wx + wy * wy
            psi = np.arccos((rho2 + w2 - 1e-4 * 1e-4) / (2.0 * np.sqrt(rho2 * w2)))
            gamma = np.arctan2(wy, wx) - np.arctan2(ry, rx)
            both = np.fmin(np.mod(sgn * (gamma + psi), 2 * math.pi), np.mod(sgn * (gamma - psi), 2 * math.pi))
            want = float(np.nanmin(both)) if not np.isnan(both).all() else math.inf
            assert movement._circle_hits_rotate(px, py, cx, cy, sgn, qx, qy, 1e-4) == want


@settings(max_examples=150, deadline=None)
@given(poses, st.sampled_from(MOVEMENT_NAMES), st.booleans(), st.booleans(), st.data())
def test_clear_move_needs_no_back_off(start: Pose, template: str, left: bool, slide: bool,
                                      data: st.DataObject) -> None:
    """When nothing within reach is ignored and the template and Final Position are clear, backing off from
    the path's end (which is the Final Position) finds nothing: the move ends at the path's end."""
    obstacles = tuple(data.draw(obstacles_near(start.x_mm, start.y_mm, 200.0)))
    me = VehiclePiece("me", "car", start, 60.0, 30.0)
    table = Table(1200, 1200, (me,), obstacles)
    placed = place(TS, start, 60.0, 30.0, Move(template, "left" if left else "right", slide=slide,
                                                 slide_facing="left"))
    state = movement._State(table, me, set(), movement.reach_bounds(placed, me))
    live, everything = movement._live(state)
    path = placed.path_before_spin
    if not movement._interrupted(placed, me, live) and len(live.items) == len(everything.items) \
            and path.pose_at(path.total) == placed.final_position:
        assert movement.back_off(path, 0.0, path.total, me, everything) == path.total


@settings(max_examples=200, deadline=None)
@given(poses, st.sampled_from(MOVEMENT_NAMES), st.booleans(), st.booleans(), st.sampled_from([0.0, 30.0, -90.0]),
       st.sampled_from([0.0, 0.25, 0.5, 0.999999, 1.0, 1.5]))
def test_truncated_matches_reference(start: Pose, template: str, left: bool, slide: bool, spin: float,
                                     share: float) -> None:
    """``truncated`` gives the segments the cut always gave (the whole path back when cut at its end)."""
    path = place(TS, start, 60.0, 30.0, Move(template, "left" if left else "right", False, slide, "left", spin)).path
    u = path.total * share
    index, t = path.locate(u)
    head = list(path.segments[:index])
    seg = path.segments[index]
    if t > 0.0 or not head:
        length = math.copysign(t, seg.length) if seg.kind == "pivot" else t
        head.append(Segment(seg.kind, seg.start, length, seg.curvature_per_mm, seg.shift_deg, seg.reverse))
    got = truncated(path, u)
    assert got == Path(tuple(head))
    assert [repr(s.length) for s in got.segments] == [repr(s.length) for s in head]


@settings(max_examples=150, deadline=None)
@given(poses, st.sampled_from(MOVEMENT_NAMES), st.booleans(), st.data())
def test_live_keeps_what_the_box_test_keeps(start: Pose, template: str, left: bool, data: st.DataObject) -> None:
    """The obstructions within reach are those whose boxes meet the reach box (the array test as written)."""
    obstacles = tuple(data.draw(obstacles_near(start.x_mm, start.y_mm, 250.0)))
    me = VehiclePiece("me", "car", start, 60.0, 30.0)
    table = Table(1200, 1200, (me,), obstacles)
    placed = place(TS, start, 60.0, 30.0, Move(template, "left" if left else "right"))
    near = movement.reach_bounds(placed, me)
    live, everything = movement._live(movement._State(table, me, set(), near))
    scene = _scene(table, me)
    b0, b1, b2, b3 = scene.bounds.T
    keep = (b0 <= near[2]) & (b2 >= near[0]) & (b1 <= near[3]) & (b3 >= near[1])
    assert [o.id for o in everything.items] == [o.id for o, k in zip(scene.items, keep, strict=True) if k]
    assert [o.id for o in live.items] == [o.id for o in everything.items]


@settings(max_examples=200, deadline=None)
@given(poses, st.sampled_from([0.0, 0.01, 0.5, 3.0]), st.data())
def test_within_measures_what_the_full_measure_finds(pose: Pose, mm: float, data: st.DataObject) -> None:
    """Items within ``mm`` of a footprint, picked by boxes first, are those every distance picks (in order),
    with footprints laid just touching some of them."""
    obstacles = list(data.draw(obstacles_near(pose.x_mm, pose.y_mm, 60.0)))
    fp = movement.footprint(pose, 60.0, 30.0)
    for i, gap in enumerate(data.draw(st.lists(st.sampled_from([0.0, 0.005, 0.01, 0.0100001, 0.5]), max_size=3))):
        x0, y0, x1, y1 = fp.bounds
        obstacles.append(Obstacle(f"t{i}", box(x1 + gap, y0, x1 + gap + 10.0, y1)))
    me = VehiclePiece("me", "car", Pose(5000.0, 5000.0, 0.0), 60.0, 30.0)
    table = Table(9000, 9000, (me,), tuple(obstacles))
    scene = _scene(table, me)
    shapes = _Shapes.of_scene(scene, np.ones(len(scene.items), dtype=bool))
    want = [o.id for o in scene.items if shapely.distance(fp, o.shape) <= mm]
    assert [o.id for o in shapes.within(fp, mm)] == want


@settings(max_examples=200, deadline=None)
@given(st.data(), poses)
def test_touching_is_every_obstruction_a_piece_touches(data: st.DataObject, pose: Pose) -> None:
    """``touching`` (one vectorised query per piece, for Distracted, p.42) names exactly what the plain pairwise
    test finds, in obstruction order."""
    from simulator.geometry.contact import touches
    from simulator.geometry.movement import touching

    me = VehiclePiece("me", "car", pose, 60.0, 30.0)
    others = tuple(VehiclePiece(f"v{i}", "car", Pose(pose.x_mm + data.draw(st.floats(-70, 70)),
                                                       pose.y_mm + data.draw(st.floats(-70, 70)),
                                                       data.draw(st.floats(0, 359.9))), 60.0, 30.0)
                   for i in range(data.draw(st.integers(0, 3))))
    table = Table(1200, 1200, (me, *others), tuple(data.draw(obstacles_near(pose.x_mm, pose.y_mm, 50.0))))
    expected = [o.owner for o in obstructions_for(table, me) if touches(me.footprint, o.shape)]
    assert touching(table, me) == list(dict.fromkeys(expected))
