"""The shortcuts of :mod:`simulator.geometry.shooting` against plain references (GEOMETRY.md 6).

* ``_squeezes`` (vectorised, with a conservative screen) against the plain
  per-corner loop it replaced;
* ``_may_touch`` never drops a family that touches the target;
* ``_straight_evaluated`` (judging placements best first, stopping at the
  first clear line) picks the same placement as judging them all;
* the lazy out-of-range answer reads, compares and pickles as the plain one;
* ``shoot`` with its shortcuts (the quick "out of arc" for fixed arcs, the margins of the refined
  direction alone, the clear line found among the best families, lazy placements) gives the same
  answer, field by field, as judging every placement;
* each quicker step (margins after the ``_may_touch`` screen, the refined direction's margin read from
  the last zoom, obstructions after a bounding-box screen, the offsets of the best families only, no
  obstruction meaning a clear line) gives what the plain step gives;
* the quick "out of arc" test in plain floats says what the array test says; the bounding-disc screens
  (pieces giving no critical offset, pieces reaching no near part) leave the offsets and hits unchanged.
"""

from __future__ import annotations

import math
import pickle
from dataclasses import replace

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from simulator.geometry import shooting
from simulator.geometry.pose import Pose
from simulator.geometry.table import Obstacle, Table, VehiclePiece
from simulator.geometry.templates import circle_polygon, load_template_set

TS = load_template_set()


def car(vid: str, x: float, y: float, heading: float) -> VehiclePiece:
    return VehiclePiece(vid, "car", Pose(x, y, heading), 60.0, 30.0)


def _scene(tx: float, ty: float, th: float, rocks: list[tuple[float, float, float, int]]) -> Table | None:
    gun = car("gun", 300.0, 200.0, 90.0)
    target = car("t", tx, ty, th)
    obstacles: list[Obstacle] = []
    for k, (x, y, r, n) in enumerate(rocks):
        poly = circle_polygon(x, y, r) if n == 0 else Polygon(
            [(x + r * math.cos(2 * math.pi * j / n) * (1.0 if j % 2 else 0.55),
              y + r * math.sin(2 * math.pi * j / n) * (1.0 if j % 2 else 0.55)) for j in range(n)])
        if any(poly.distance(o.polygon) < 0.5 for o in obstacles) or \
                any(poly.distance(v.footprint) < 0.5 for v in (gun, target)):
            continue
        obstacles.append(Obstacle(f"r{k}", poly))
    if gun.footprint.distance(target.footprint) < 0.5:
        return None
    return Table(1200.0, 900.0, (gun, target), tuple(obstacles))


rocks = st.lists(st.tuples(st.floats(220, 400), st.floats(230, 380), st.floats(4, 18),
                           st.sampled_from([0, 6, 8, 10])), min_size=1, max_size=5)
targets = st.tuples(st.floats(200, 420), st.floats(250, 400), st.floats(0, 360))


def _squeezes_reference(q: shooting._Query, obst: shooting._Pieces, max_vertices: int = 12) -> list[tuple[float, ...]]:
    """The plain loop: every corner, both signs, both solutions, vertex pair by vertex pair."""
    assert q.corners is not None and q.fans is not None
    sizes = np.diff(np.append(obst.starts, obst.xy.shape[0]))
    small = np.repeat(sizes <= max_vertices, sizes)
    owner = np.repeat(obst.owner, sizes)[small]
    pts = obst.xy[small]
    i, j = np.nonzero(owner[:, None] < owner[None, :])
    w, half_near = q.template.width_mm, q.template.near_width_mm / 2.0
    d = pts[i] - pts[j]
    rho = np.hypot(d[:, 0], d[:, 1])
    ok = (rho >= w) & (rho <= math.hypot(w, q.template.length_mm) + 1e-6)  # both on side lines, within length
    i, d, rho = i[ok], d[ok], rho[ok]
    phi = np.arctan2(d[:, 1], d[:, 0])
    rows: list[tuple[float, ...]] = []
    for sign in (1.0, -1.0):
        base = np.arcsin(sign * w / rho)
        for theta in (phi - base, phi - (math.pi - base)):
            for k, (a0, sweep) in enumerate(q.fans):
                off = np.mod(theta - a0, 2.0 * math.pi)
                inside = (off > 0.0) & (off < sweep)
                c = q.corners[k]
                th = theta[inside]
                y_a = -(pts[i[inside], 0] - c[0]) * np.sin(th) + (pts[i[inside], 1] - c[1]) * np.cos(th)
                s_mid = y_a - sign * w / 2.0
                keep = np.abs(s_mid) <= half_near
                for t, sm in zip(th[keep], s_mid[keep], strict=True):
                    rows.append((float(c[0]), float(c[1]), float(t), float(sm), float(sm), float(sm)))
    return rows


def _prepared_query(t: Table) -> tuple[shooting._Query, shooting._Families, list[int], shooting._Pieces] | None:
    q = shooting._query(t, "gun", "t", "medium", "turret", TS, False)
    margins = shooting._margins(q, q.fam)
    fam = q.fam.take(np.flatnonzero(np.isfinite(margins)))
    if len(fam) == 0:
        return None
    idx, obst = shooting._obstructions(q, "gun", fam)
    return q, fam, idx, obst


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(targets, rocks)
def test_squeezes_match_the_plain_loop(tp: tuple[float, float, float], rs: list[tuple[float, float, float, int]]
                                       ) -> None:
    t = _scene(*tp, rs)
    got = _prepared_query(t) if t is not None else None
    if got is None:
        return
    q, _, _, obst = got
    fast = shooting._squeezes(q, obst)
    rows = _squeezes_reference(q, obst)
    want = np.array(rows, dtype=np.float64).reshape(-1, 6)
    have = np.column_stack((fast.ox, fast.oy, fast.ang, fast.s_lo, fast.s_hi, fast.s_mid))
    assert have.shape == want.shape
    assert np.array_equal(have, want)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(targets, rocks)
def test_may_touch_keeps_every_touching_family(tp: tuple[float, float, float],
                                               rs: list[tuple[float, float, float, int]]) -> None:
    t = _scene(*tp, rs)
    got = _prepared_query(t) if t is not None else None
    if got is None:
        return
    q, fam, _, obst = got
    for cand in (shooting._squeezes(q, obst), q.fam, fam):
        if len(cand) == 0:
            continue
        touching = np.isfinite(shooting._margins(q, cand))
        assert not (touching & ~shooting._may_touch(q, cand)).any()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(targets, rocks, st.sampled_from(["front", "turret"]), st.lists(st.booleans(), min_size=5, max_size=5))
def test_first_clear_line_is_the_best_placement(tp: tuple[float, float, float],
                                                rs: list[tuple[float, float, float, int]], arc: str,
                                                tall_flags: list[bool]) -> None:
    """Also with Tall obstructions: when no line is clear the first one not blocked wins, found block
    by block against the pieces near each block (the rows beyond the first 288 best ones)."""
    t = _scene(*tp, rs)
    if t is None:
        return
    q = shooting._query(t, "gun", "t", "medium", arc, TS, False)
    margins = shooting._margins(q, q.fam)
    fam = q.fam.take(np.flatnonzero(np.isfinite(margins)))
    if len(fam) == 0:
        return
    idx, obst = shooting._obstructions(q, "gun", fam)
    fam_of, s = shooting._sample(q, shooting._touching_span(q, fam), obst)
    hw = q.template.width_mm / 2.0
    x_first = shooting._band_first_touch(q, fam, fam_of, s, np.full(len(s), -hw), np.full(len(s), hw))
    ok = np.isfinite(x_first)
    fam_of, s, x_first = fam_of[ok], s[ok], x_first[ok]
    margin = np.maximum(q.template.length_mm - x_first, 0.0)
    hits = shooting._straight_hits(fam, fam_of, s, q.template, x_first, obst, len(idx))
    full = shooting._Evaluated(fam_of, s, x_first, margin, hits)
    for tall in (np.zeros(len(idx), dtype=bool), np.array([tall_flags[k % 5] for k in range(len(idx))], dtype=bool)):
        fast = shooting._straight_evaluated(fam, fam_of, s, q.template, x_first, margin, obst, len(idx), tall)
        a, b = shooting._best(full, fam, tall), shooting._best(fast, fam, tall)
        assert (full.fam_of[a], full.s[a], full.x_first[a]) == (fast.fam_of[b], fast.s[b], fast.x_first[b])
        assert np.array_equal(full.hits[a], fast.hits[b])


def test_out_of_range_answer_is_lazy_but_the_same() -> None:
    t = Table(1200.0, 900.0, (car("gun", 300.0, 200.0, 90.0), car("t", 900.0, 700.0, 0.0)), ())
    lazy = shooting.shoot(t, "gun", "t", "short", "front", TS)
    q = shooting._query(t, "gun", "t", "short", "front", TS, False)
    plain = shooting._out_of_range(q, q.fam)
    assert type(plain) is shooting.ShotResult
    assert not lazy.in_arc_and_range and not lazy.targetable and not lazy.cover
    assert lazy == plain and plain == lazy and hash(lazy) == hash(plain)
    assert repr(lazy) == repr(plain)
    assert lazy.to_json() == plain.to_json()
    again = pickle.loads(pickle.dumps(shooting.shoot(t, "gun", "t", "short", "front", TS)))
    assert type(again) is shooting.ShotResult and again == plain
    assert lazy.margin_mm < 0.0 and lazy.placement is not None


def _touching(q: shooting._Query, fam: shooting._Families) -> np.ndarray:
    kept = fam.take(np.flatnonzero(shooting._may_touch(q, fam)))
    return np.column_stack((kept.ox, kept.oy, kept.ang, kept.s_lo, kept.s_hi, kept.s_mid))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(targets, rocks)
def test_near_target_squeezes_keep_every_touching_family(tp: tuple[float, float, float],
                                                         rs: list[tuple[float, float, float, int]]) -> None:
    """Skipping directions far from the target leaves, after ``_may_touch``, the same families in order."""
    t = _scene(*tp, rs)
    got = _prepared_query(t) if t is not None else None
    if got is None:
        return
    q, _, _, obst = got
    full, near = shooting._squeezes(q, obst), shooting._squeezes(q, obst, near_target=True)
    assert len(near) <= len(full)
    assert np.array_equal(_touching(q, near), _touching(q, full))


def test_no_clear_line_is_judged_block_by_block() -> None:
    """A field of 3 mm pebbles every 7 mm between firer and target: no line is clear, so every
    placement is judged (block by block, against the pebbles near each block) and the best one
    not blocked by a Tall pebble wins, as when judging them all at once."""
    gun, target = car("gun", 300.0, 200.0, 90.0), car("t", 300.0, 330.0, 0.0)
    pebbles = []
    for i in range(14):
        for j in range(9):
            x, y = 255.0 + 7.0 * i, 240.0 + 7.0 * j
            pebbles.append(Obstacle(f"p{i}_{j}", Polygon([(x, y), (x + 3, y), (x + 3, y + 3), (x, y + 3)]),
                                    tall=i >= 10))
    t = Table(1200.0, 900.0, (gun, target), tuple(pebbles))
    q = shooting._query(t, "gun", "t", "medium", "turret", TS, False)
    margins = shooting._margins(q, q.fam)
    fam = q.fam.take(np.flatnonzero(np.isfinite(margins)))
    idx, obst = shooting._obstructions(q, "gun", fam)
    fam_of, s = shooting._sample(q, shooting._touching_span(q, fam), obst)
    hw = q.template.width_mm / 2.0
    x_first = shooting._band_first_touch(q, fam, fam_of, s, np.full(len(s), -hw), np.full(len(s), hw))
    ok = np.isfinite(x_first)
    fam_of, s, x_first = fam_of[ok], s[ok], x_first[ok]
    margin = np.maximum(q.template.length_mm - x_first, 0.0)
    hits = shooting._straight_hits(fam, fam_of, s, q.template, x_first, obst, len(idx))
    assert len(s) > 1000 and hits.any(axis=1).all()  # the slow path: nothing is clear
    full = shooting._Evaluated(fam_of, s, x_first, margin, hits)
    tall = shooting._prepared(t).tall[idx]
    assert 0 < tall.sum() < len(tall)
    for mask in (tall, np.zeros_like(tall), np.ones_like(tall)):
        fast = shooting._straight_evaluated(fam, fam_of, s, q.template, x_first, margin, obst, len(idx), mask)
        a, b = shooting._best(full, fam, mask), shooting._best(fast, fam, mask)
        assert (full.fam_of[a], full.s[a], full.x_first[a]) == (fast.fam_of[b], fast.s[b], fast.x_first[b])
        assert np.array_equal(full.hits[a], fast.hits[b])


def _shoot_reference(t: Table, range_name: str, arc: str) -> shooting.ShotResult:
    """``shoot`` without its shortcuts: every family's margin, every placement judged, nothing lazy."""
    q = shooting._query(t, "gun", "t", range_name, arc, TS, False)
    fmargin = shooting._margins(q, q.fam)
    if not np.isfinite(fmargin).any():
        return shooting._out_of_range(q, q.fam)
    fam = shooting._refine_fan(q, q.fam, fmargin, maximise=True)
    fmargin = shooting._margins(q, fam)
    fam = fam.take(np.flatnonzero(np.isfinite(fmargin)))
    margin_mm = float(fmargin[np.isfinite(fmargin)].max())
    obst_idx, obst = shooting._obstructions(q, "gun", fam)
    squeeze = shooting._squeezes(q, obst, near_target=True)
    if len(squeeze):
        squeeze = squeeze.take(np.flatnonzero(shooting._may_touch(q, squeeze)))
        more = shooting._margins(q, squeeze)
        fam = fam.join(squeeze.take(np.flatnonzero(np.isfinite(more))))
    return shooting._result(q, fam, shooting._evaluate(q, fam, obst_idx, obst), obst_idx, margin_mm)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.floats(150, 450), st.floats(120, 420), st.floats(0, 360)), rocks,
       st.sampled_from(["front", "rear", "side", "turret"]), st.sampled_from(["short", "medium", "double"]),
       st.lists(st.booleans(), min_size=5, max_size=5))
def test_shoot_matches_judging_every_placement(tp: tuple[float, float, float],
                                               rs: list[tuple[float, float, float, int]], arc: str,
                                               range_name: str, tall_flags: list[bool]) -> None:
    """Targets all round the firer (in and out of each arc), rocks some Tall: every field is the same."""
    t = _scene(*tp, rs)
    if t is None:
        return
    t = replace(t, obstacles=tuple(replace(o, tall=tall_flags[k % 5]) for k, o in enumerate(t.obstacles)))
    fast = shooting.shoot(t, "gun", "t", range_name, arc, TS)  # type: ignore[arg-type]
    plain = _shoot_reference(t, range_name, arc)
    assert type(plain) is shooting.ShotResult
    assert (fast.in_arc_and_range, fast.targetable, fast.cover) == (plain.in_arc_and_range, plain.targetable,
                                                                   plain.cover)
    assert shooting._values(fast) == shooting._values(plain)
    assert fast == plain and hash(fast) == hash(plain)


def test_clear_line_answer_is_lazy_but_the_same() -> None:
    """A target in the open: no Cover is known before the best placement is found; reading it finds it."""
    t = Table(1200.0, 900.0, (car("gun", 300.0, 200.0, 90.0), car("t", 320.0, 330.0, 30.0)),
              (Obstacle("rock", circle_polygon(250.0, 270.0, 10.0)),))
    lazy = shooting.shoot(t, "gun", "t", "medium", "turret", TS)
    assert isinstance(lazy, shooting._ClearLine) and "_full_result" not in lazy.__dict__
    assert lazy.in_arc_and_range and lazy.targetable and not lazy.cover
    plain = _shoot_reference(t, "medium", "turret")
    assert lazy == plain and repr(lazy) == repr(plain) and lazy.to_json() == plain.to_json()
    assert lazy.near_part is not None and lazy.near_part.equals(plain.near_part)
    again = pickle.loads(pickle.dumps(shooting.shoot(t, "gun", "t", "medium", "turret", TS)))
    assert type(again) is shooting.ShotResult and again == plain


def test_surely_out_is_quick_and_the_same() -> None:
    """Behind a front arc: the quick answer builds no query until a lazy field is read."""
    t = Table(1200.0, 900.0, (car("gun", 300.0, 200.0, 90.0), car("t", 300.0, 100.0, 0.0)), ())
    tpl = TS.shooting["double"]
    assert shooting._surely_out(t, "gun", "t", tpl, "front")
    assert not shooting._surely_out(t, "gun", "t", tpl, "rear")
    assert not shooting._surely_out(t, "gun", "t", tpl, "turret")
    lazy = shooting.shoot(t, "gun", "t", "double", "front", TS)
    assert isinstance(lazy, shooting._OutOfRange) and not lazy.in_arc_and_range
    assert lazy == _shoot_reference(t, "double", "front") and lazy.margin_mm < 0.0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(-500, 500), st.floats(-500, 500)), min_size=2, max_size=60))
def test_hull_of_a_line_is_the_hull_of_its_points(points: list[tuple[float, float]]) -> None:
    """The quick hull (of a line through the points) is the hull of the points, vertex for vertex."""
    xy = np.array(points, dtype=np.float64)
    quick, plain = shooting._hull(xy), shapely.convex_hull(shapely.multipoints(xy))
    assert quick.geom_type == plain.geom_type
    assert np.array_equal(shapely.get_coordinates(quick), shapely.get_coordinates(plain))


def _obstructions_reference(q: shooting._Query, fam: shooting._Families) -> list[int]:
    """Every obstruction meeting the hull of all placements and the corridor (no bounding-box screen)."""
    prep = shooting._prepared(q.table)
    keep = np.array([i not in ("gun", "t") for i in prep.ids], dtype=bool)
    ring = shooting._template_ring(q.template)
    box = np.array([[ring[:, 0].min(), ring[:, 1].min()], [ring[:, 0].max(), ring[:, 1].min()],
                    [ring[:, 0].max(), ring[:, 1].max()], [ring[:, 0].min(), ring[:, 1].max()]])
    f = np.arange(len(fam))
    corners = np.concatenate((shooting._placed_xy(box, *shooting._frames(fam, f, fam.s_lo)),
                              shooting._placed_xy(box, *shooting._frames(fam, f, fam.s_hi))))
    area = shapely.intersection(shooting._hull(corners.reshape(-1, 2)), shooting._corridor(q, "gun"))
    return [int(i) for i in np.flatnonzero(keep & shapely.intersects(prep.polys, area))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.floats(150, 450), st.floats(120, 420), st.floats(0, 360)), rocks,
       st.sampled_from(["front", "side", "turret"]), st.sampled_from(["short", "medium", "double"]))
def test_quick_steps_match_the_plain_ones(tp: tuple[float, float, float], rs: list[tuple[float, float, float, int]],
                                          arc: str, range_name: str) -> None:
    """The screened margins, the refined direction's margin from the last zoom, the obstructions after the
    bounding-box screen and the offsets of the best families only: each the same as the plain step."""
    t = _scene(*tp, rs)
    if t is None:
        return
    q = shooting._query(t, "gun", "t", range_name, arc, TS, False)
    plain = shooting._margins(q, q.fam)
    assert shooting._screened_margins(q, q.fam).tobytes() == plain.tobytes()
    if not np.isfinite(plain).any():
        return
    fam, score = shooting._refine_fan_scored(q, q.fam, plain, maximise=True)
    assert len(fam) == len(q.fam) + len(score)
    again = shooting._refine_fan(q, q.fam, plain, maximise=True)
    assert all(getattr(fam, k).tobytes() == getattr(again, k).tobytes()
               for k in ("ox", "oy", "ang", "s_lo", "s_hi", "s_mid"))
    fmargin = shooting._margins(q, fam)
    assert fmargin[len(q.fam):].tobytes() == score.tobytes()
    finite = np.flatnonzero(np.isfinite(fmargin))
    fam, fmargin = fam.take(finite), fmargin[finite]
    idx, obst = shooting._obstructions(q, "gun", fam)
    assert idx == _obstructions_reference(q, fam)
    fam_of, s = shooting._sample(q, shooting._touching_span(q, fam), obst)
    best_of, best_s = shooting._best_sample(q, fam, fmargin, obst)
    counts = np.bincount(fam_of, minlength=len(fam))
    order = np.argsort(-fmargin, kind="stable")
    chosen = np.zeros(len(fam), dtype=bool)
    chosen[order[:int(np.searchsorted(np.cumsum(counts[order]), shooting._PROBE_ROWS)) + 1]] = True
    rows = np.flatnonzero(chosen[fam_of])
    assert np.array_equal(best_of, fam_of[rows]) and best_s.tobytes() == s[rows].tobytes()
    assert shooting._clear_line_among_best(q, fam, fmargin, (fam_of, s), obst, len(idx)) == \
        shooting._clear_line_among_best(q, fam, fmargin, (best_of, best_s), obst, len(idx))


def test_no_obstruction_is_a_clear_line_and_the_same() -> None:
    """Nothing near the line of fire: the answer is known without judging placements, and reads as the plain one."""
    t = Table(1200.0, 900.0, (car("gun", 300.0, 200.0, 90.0), car("t", 330.0, 340.0, 20.0)),
              (Obstacle("far", circle_polygon(900.0, 700.0, 10.0)),))
    for arc, range_name in (("turret", "medium"), ("front", "double"), ("front", "medium")):
        fast = shooting.shoot(t, "gun", "t", range_name, arc, TS)  # type: ignore[arg-type]
        assert isinstance(fast, shooting._ClearLine) and "_full_result" not in fast.__dict__
        plain = _shoot_reference(t, range_name, arc)
        assert fast.targetable and not fast.cover
        assert shooting._values(fast) == shooting._values(plain)


def _surely_out_reference(t: Table, tpl_name: str, arc: str) -> bool:
    """The array formulation of the quick "out of arc" test (the family rectangle against every vertex)."""
    v = t.piece("gun")
    tpl = TS.shooting[tpl_name]
    xy = shapely.get_coordinates(t.shape_of("t"))
    fam = shooting._fixed_families(v.pose, v.length_mm, v.width_mm, arc, tpl.near_width_mm)
    c, s = np.cos(fam.ang)[:, None], np.sin(fam.ang)[:, None]
    dx, dy = xy[None, :, 0] - fam.ox[:, None], xy[None, :, 1] - fam.oy[:, None]
    x, y = dx * c + dy * s, dy * c - dx * s
    slack, hw = shooting._EPS + 1e-6, tpl.width_mm / 2.0
    apart = ((x.max(axis=1) < -slack) | (x.min(axis=1) > tpl.length_mm + slack)
             | (y.max(axis=1) < fam.s_lo - hw - slack) | (y.min(axis=1) > fam.s_hi + hw + slack))
    return bool(apart.all())


@settings(max_examples=80, deadline=None)
@given(st.tuples(st.floats(0, 700), st.floats(0, 600), st.floats(0, 360)),
       st.sampled_from(["front", "rear", "side"]), st.sampled_from(["short", "medium", "double", "long"]))
def test_surely_out_in_floats_is_the_array_test(tp: tuple[float, float, float], arc: str, range_name: str) -> None:
    """The plain-float quick test says what the array test says, and only for targets no placement touches."""
    t = _scene(*tp, [])
    if t is None:
        return
    quick = shooting._surely_out(t, "gun", "t", TS.shooting[range_name], arc)
    assert quick == _surely_out_reference(t, range_name, arc)
    if quick:
        q = shooting._query(t, "gun", "t", range_name, arc, TS, False)
        assert not np.isfinite(shooting._margins(q, q.fam)).any()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.floats(150, 450), st.floats(120, 420), st.floats(0, 360)),
       st.lists(st.tuples(st.floats(180, 420), st.floats(200, 420), st.floats(4, 40), st.sampled_from([0, 6, 8])),
                min_size=1, max_size=6),
       st.sampled_from(["front", "turret"]), st.sampled_from(["medium", "double"]))
def test_disc_screens_leave_the_same_offsets_and_hits(tp: tuple[float, float, float],
                                                      rs: list[tuple[float, float, float, int]], arc: str,
                                                      range_name: str) -> None:
    """Discs of many vertices among the rocks: the offsets and obstruction hits found after leaving out the
    pieces whose bounding discs miss are those found with every piece, and the cached corridor is the fresh one."""
    t = _scene(*tp, rs)
    if t is None:
        return
    q = shooting._query(t, "gun", "t", range_name, arc, TS, False)
    margins = shooting._margins(q, q.fam)
    fam = q.fam.take(np.flatnonzero(np.isfinite(margins)))
    if len(fam) == 0:
        return
    idx, obst = shooting._obstructions(q, "gun", fam)
    firer, _ = shooting._attacker_ring(t, "gun")
    fresh = shapely.buffer(shooting._hull(np.vstack((firer, np.asarray(q.target_poly.exterior.coords)))),
                           shooting._corridor_grow(q.template), quad_segs=4)
    assert shooting._corridor(q, "gun").equals_exact(fresh, 0.0)
    span = shooting._touching_span(q, fam)
    hw = q.template.width_mm / 2.0
    fam_of, s = shooting._sample(q, span, obst)
    plain_of, plain_s = shooting._offsets(span, shooting._join_pieces(q.target, obst), (-hw, hw),
                                          shooting.GRID_STEP_MM)
    assert np.array_equal(fam_of, plain_of) and s.tobytes() == plain_s.tobytes()
    x_first = shooting._band_first_touch(q, fam, fam_of, s, np.full(len(s), -hw), np.full(len(s), hw))
    ok = np.isfinite(x_first)
    fam_of, s, x_first = fam_of[ok], s[ok], x_first[ok]
    got = shooting._straight_hits(fam, fam_of, s, q.template, x_first, obst, len(idx))
    want = np.zeros_like(got)
    if len(s) and obst.xy.shape[0]:
        want = shooting._straight_hits_block(fam, fam_of, s, q.template, x_first, obst, len(idx))
    assert np.array_equal(got, want)


def test_disc_screens_work_a_block_of_rows_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A field of round rocks (many vertices each): the offsets and hits are the same whether the disc
    screens weigh every row at once or a few rows at a time (memory stays bounded on big tables)."""
    rocks_ = tuple(Obstacle(f"r{i}_{j}", circle_polygon(250.0 + 14.0 * i, 240.0 + 14.0 * j, 4.0))
                   for i in range(8) for j in range(6))
    t = Table(1200.0, 900.0, (car("gun", 300.0, 200.0, 90.0), car("t", 310.0, 350.0, 10.0)), rocks_)
    q = shooting._query(t, "gun", "t", "medium", "turret", TS, False)
    fam = q.fam.take(np.flatnonzero(np.isfinite(shooting._margins(q, q.fam))))
    idx, obst = shooting._obstructions(q, "gun", fam)
    sizes = np.diff(np.append(obst.starts, obst.xy.shape[0]))
    assert len(idx) > 10 and (sizes > shooting._DISC_SCREEN_VERTICES).all()
    span = shooting._touching_span(q, fam)

    def judged() -> tuple[bytes, ...]:
        fam_of, s = shooting._sample(q, span, obst)
        hw = q.template.width_mm / 2.0
        x_first = shooting._band_first_touch(q, fam, fam_of, s, np.full(len(s), -hw), np.full(len(s), hw))
        ok = np.isfinite(x_first)
        hits = shooting._straight_hits(fam, fam_of[ok], s[ok], q.template, x_first[ok], obst, len(idx))
        return fam_of.tobytes(), s.tobytes(), hits.tobytes()

    whole = judged()
    monkeypatch.setattr(shooting, "_CHUNK_ELEMENTS", 7)
    assert judged() == whole
