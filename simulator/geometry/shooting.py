"""Arcs of fire, range, Cover and Tall blocking for shooting attacks.

GEOMETRY.md section 6 is the specification; the rulebook pages are p.27
(shooting templates), p.28 (range: some placement of the template in the arc
must touch the target), p.29 (front, rear and side arcs), p.30 (the
360-degree arc), p.42 (Cover), p.44 (explosions: Medium range in a 360-degree
arc), p.82 (Indirect, Splash) and p.87 (Tall obstacles).

How a query is answered. Every legal placement of the template belongs to a
*family*: a line on which the template's near edge slides, a direction, and
an interval of lateral offsets ``s`` (mm, positive to the template's left).
Front, rear and each side give one family each; the 360-degree arc gives one
family per footprint edge plus, for each corner, a fan of directions every
``TURRET_STEP_DEG``, refined (three zooms of 41 directions) around the best
one, plus the "squeeze" placements that fit a straight template exactly
between two obstructions.

* Range and margin are exact per family (no sampling). A straight template's
  placements sweep a band, and the target's first point in it gives the
  margin. For a burst, with the template ``A`` at offset 0 and a convex
  target piece ``B`` in the family frame, the Minkowski difference
  ``D = A - B`` (built by merging edge directions) holds ``(t, -s)`` exactly
  when the target moved ``t`` along the axis touches the placement at
  offset ``s``.
* Cover and Tall are judged on sampled offsets: a fine grid plus the
  *critical* offsets where a template side passes a vertex of the target or of
  an obstruction (so a gap exactly as wide as the template is found). Shapes
  are split into convex pieces (non-convex polygons into triangles). For the
  straights each test is a band test in NumPy; for the bursts, a convex
  search along the lateral lines (golden sections, NumPy) or, for a few
  hundred placements or fewer, Shapely's polygon operations; a test checks
  that both agree.

Touching is a distance of at most ``TOUCH_MM``; an obstruction gives Cover
when it reaches more than ``TOUCH_MM`` into the near part of the template.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon

from simulator.geometry.pose import TOUCH_MM, Pose, normalise_deg
from simulator.geometry.table import Table
from simulator.geometry.templates import ShootingTemplate, TemplateSet
from simulator.vocab import Arc  # noqa: E402  (one definition for every layer)

F64 = NDArray[np.float64]
Idx = NDArray[np.intp]
Mask = NDArray[np.bool_]

ARCS: tuple[str, ...] = ("front", "rear", "side", "turret")

GRID_STEP_MM = 0.5
"""Spacing of the sampled lateral offsets inside a family (mm)."""

BURST_GRID_STEP_MM = 1.0
"""The same for the bursts, whose curved sides make each placement dearer to judge."""

TURRET_STEP_DEG = 2.0
"""Spacing of the sampled directions in each corner fan of the 360-degree arc."""

_EPS = TOUCH_MM
_BIG = 1.0e4


# --------------------------------------------------------------------------- result


@dataclass(frozen=True)
class ShotResult:
    """The answer to a ``shoot`` query (RULINGS.md, GEOMETRY.md 6).

    ``placement`` is the near-edge centre and direction of the best template
    placement (when out of arc and range: the nearest one, or ``None`` if the
    arc has no placement at all); ``placement_polygon`` is the whole template
    there, ``near_part`` the part between its near edge and the first point
    that touches the target (``None`` when empty or out of range). ``margin_mm``
    is how far the target could slide away along the template's axis and still
    be touched, over all placements; negative: minus its distance to the
    nearest placement.
    """

    in_arc_and_range: bool
    targetable: bool
    cover: bool
    cover_from: tuple[str, ...]
    blocked_by: tuple[str, ...]
    placement: Pose | None
    placement_polygon: Polygon | None
    near_part: Polygon | None
    margin_mm: float

    def to_json(self) -> dict[str, Any]:
        """The result keys of RULINGS.md's ``shoot`` query, JSON-ready."""
        place = None
        if self.placement is not None:
            place = {"x_mm": self.placement.x_mm, "y_mm": self.placement.y_mm,
                     "heading_deg": normalise_deg(self.placement.heading_deg) + 0.0}
        return {
            "in_arc_and_range": self.in_arc_and_range, "targetable": self.targetable, "cover": self.cover,
            "cover_from": list(self.cover_from), "blocked_by": list(self.blocked_by),
            "placement": place, "margin_mm": self.margin_mm,
        }


class _Lazy(ShotResult):
    """An answer some of whose fields (:attr:`lazy`) are found when first read, by the full computation.

    Callers mostly read only ``targetable`` and ``cover`` (the referee, the
    bots); the best placement costs more than the rest of a query. Reads,
    equality, hashing, ``repr`` and pickling behave as for the plain
    :class:`ShotResult` with the same values.
    """

    lazy: tuple[str, ...] = ()

    def __init__(self, eager: dict[str, Any], full: Callable[[], ShotResult]) -> None:  # pylint: disable=super-init-not-called
        for name, value in eager.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_compute", full)

    def _full(self) -> ShotResult:
        d = self.__dict__
        if "_full_result" not in d:
            full = d["_compute"]()
            object.__setattr__(self, "_full_result", full)
            for name in self.lazy:
                object.__setattr__(self, name, getattr(full, name))
        out: ShotResult = d["_full_result"]
        return out

    def __getattr__(self, name: str) -> Any:
        if name in type(self).lazy:
            return getattr(self._full(), name)
        raise AttributeError(name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShotResult):
            return NotImplemented
        return _values(self) == _values(other)

    def __hash__(self) -> int:
        return hash(self._full())

    def __repr__(self) -> str:
        return repr(self._full())

    def __reduce__(self) -> tuple[Any, ...]:
        return ShotResult, _values(self)


class _OutOfRange(_Lazy):
    """Out of arc and range: the nearest placement and the (negative) margin are found when first read."""

    lazy = ("placement", "placement_polygon", "margin_mm")

    def __init__(self, q: _Query | Callable[[], _Query]) -> None:
        def full() -> ShotResult:
            query = q if isinstance(q, _Query) else q()
            return _out_of_range(query, query.fam)

        super().__init__({"in_arc_and_range": False, "targetable": False, "cover": False, "cover_from": (),
                          "blocked_by": (), "near_part": None}, full)


class _ClearLine(_Lazy):
    """In arc and range with a clear line of fire (no Cover, not blocked, p.42, p.87): the best placement
    is found when first read."""

    lazy = ("placement", "placement_polygon", "near_part")

    def __init__(self, margin_mm: float, full: Callable[[], ShotResult]) -> None:
        super().__init__({"in_arc_and_range": True, "targetable": True, "cover": False, "cover_from": (),
                          "blocked_by": (), "margin_mm": max(margin_mm, 0.0)}, full)


def _values(r: ShotResult) -> tuple[Any, ...]:
    return tuple(getattr(r, f.name) for f in fields(ShotResult))


# --------------------------------------------------------------------------- convex pieces


@dataclass(frozen=True)
class _Pieces:
    """Convex pieces of several shapes, vertices concatenated piece by piece (counter-clockwise).

    ``nxt[i]`` is the vertex after ``i`` in its piece, ``starts`` the first
    vertex of each piece, ``owner`` the shape each piece belongs to.
    """

    xy: F64
    nxt: Idx
    starts: Idx
    owner: Idx


def _is_convex(poly: Polygon) -> bool:
    return bool(poly.convex_hull.area - poly.area <= 1e-9 * max(1.0, poly.area))


def _ring(poly: Polygon) -> F64:
    xy = np.asarray(shapely.get_coordinates(shapely.normalize(poly).exterior))[:-1]
    return xy[::-1] if _signed_area(xy) < 0 else xy


def _signed_area(xy: F64) -> float:
    x, y = xy[:, 0], xy[:, 1]
    return float(0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def _convex_parts(poly: Polygon) -> list[F64]:
    """The polygon as convex vertex rings: itself if convex, else its triangles."""
    if _is_convex(poly):
        return [_ring(poly)]
    tris = shapely.get_parts(shapely.constrained_delaunay_triangles(poly))
    return [_ring(t) for t in tris if t.area > 0.0]


def _pieces(rings_by_owner: list[list[F64]]) -> _Pieces:
    rings = [(k, r) for k, rs in enumerate(rings_by_owner) for r in rs]
    if not rings:
        e = np.zeros(0, dtype=np.intp)
        return _Pieces(np.zeros((0, 2)), e, e, e)
    sizes = np.array([len(r) for _, r in rings])
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.intp)
    idx = np.arange(int(sizes.sum()))
    piece_of = np.repeat(np.arange(len(rings)), sizes)
    nxt = np.where(idx + 1 == starts[piece_of] + sizes[piece_of], starts[piece_of], idx + 1).astype(np.intp)
    owner = np.array([k for k, _ in rings], dtype=np.intp)
    return _Pieces(np.vstack([r for _, r in rings]), nxt, starts, owner)


def _band(xs: F64, ys: F64, pcs: _Pieces, lo: F64, hi: F64) -> tuple[F64, F64]:
    """For each row and convex piece: the x-range of the piece inside ``lo <= y <= hi``.

    ``xs``, ``ys`` are (N, V) local vertex coordinates, ``lo``, ``hi`` (N, 1).
    Returns (N, P) arrays ``xl``, ``xr``; ``inf``/``-inf`` where the band misses
    the piece. Exact for convex pieces (the piece's slice is convex). The
    minima and maxima are taken with masked ufuncs (exact, so the same values
    as with ``np.where``).
    """
    nxt = pcs.nxt
    x2, y2 = xs[:, nxt], ys[:, nxt]
    dy = y2 - ys
    flat = dy == 0.0
    safe = dy.copy()
    safe[flat] = 1.0
    # both band edges at once (the same element-wise arithmetic as one edge at a time)
    c = np.stack((lo, hi)) if lo.shape == hi.shape else np.stack(np.broadcast_arrays(lo, hi))
    cross = (ys - c) * (y2 - c) <= 0.0
    cross &= ~flat
    xc = xs + (c - ys) / safe * (x2 - xs)
    inside = (ys >= lo) & (ys <= hi)
    cmin = np.full(inside.shape, np.inf)
    np.copyto(cmin, xs, where=inside)
    cmax = np.full(inside.shape, -np.inf)
    np.copyto(cmax, xs, where=inside)
    for k in (0, 1):
        np.minimum(cmin, xc[k], out=cmin, where=cross[k])
        np.maximum(cmax, xc[k], out=cmax, where=cross[k])
    return np.minimum.reduceat(cmin, pcs.starts, axis=1), np.maximum.reduceat(cmax, pcs.starts, axis=1)


def _local(pcs: _Pieces, ox: F64, oy: F64, ang: F64) -> tuple[F64, F64]:
    """Vertex coordinates in each frame (x along ``ang``, y to its left), shape (N, V)."""
    c, s = np.cos(ang)[:, None], np.sin(ang)[:, None]
    dx = pcs.xy[None, :, 0] - ox[:, None]
    dy = pcs.xy[None, :, 1] - oy[:, None]
    return dx * c + dy * s, dy * c - dx * s


# --------------------------------------------------------------------------- families of placements


@dataclass(frozen=True)
class _Families:
    """Placement families: near-edge centre at offset 0, direction (rad), offset range (mm)."""

    ox: F64
    oy: F64
    ang: F64
    s_lo: F64
    s_hi: F64
    s_mid: F64

    def __len__(self) -> int:
        return len(self.ox)

    def take(self, idx: Idx) -> _Families:
        """The families at ``idx``."""
        return _Families(self.ox[idx], self.oy[idx], self.ang[idx], self.s_lo[idx], self.s_hi[idx],
                         self.s_mid[idx])

    def join(self, other: _Families) -> _Families:
        """These families followed by ``other``."""
        cat = np.concatenate
        return _Families(cat((self.ox, other.ox)), cat((self.oy, other.oy)), cat((self.ang, other.ang)),
                         cat((self.s_lo, other.s_lo)), cat((self.s_hi, other.s_hi)),
                         cat((self.s_mid, other.s_mid)))


def _edge_family(a: F64, b: F64, near_mm: float) -> tuple[float, ...]:
    """The family whose near edge slides along the segment a->b, pointing right of it (outward, ccw)."""
    d = b - a
    length = float(math.hypot(d[0], d[1]))
    mid = (a + b) / 2.0
    ang = math.atan2(-d[0], d[1])  # right-hand normal of a->b: outward on a counter-clockwise ring
    half = (length + near_mm) / 2.0
    return (float(mid[0]), float(mid[1]), ang, -half, half, 0.0)


def _families_from(rows: Sequence[tuple[float, ...]]) -> _Families:
    a = np.array(rows, dtype=np.float64).reshape(-1, 6)
    return _Families(a[:, 0], a[:, 1], a[:, 2], a[:, 3], a[:, 4], a[:, 5])


def _fixed_families(pose: Pose, length_mm: float, width_mm: float, arc: str, near_mm: float) -> _Families:
    """Front, rear or side (both sides) families of a vehicle footprint (p.29)."""
    return _families_from(_fixed_rows(pose, length_mm, width_mm, arc, near_mm))


def _fixed_rows(pose: Pose, length_mm: float, width_mm: float, arc: str, near_mm: float) -> list[tuple[float, ...]]:
    """:func:`_fixed_families` as rows ``(ox, oy, ang, s_lo, s_hi, s_mid)``."""
    hl, hw = length_mm / 2.0, width_mm / 2.0
    fl, fr = np.array(pose.offset(hl, hw)), np.array(pose.offset(hl, -hw))
    rl, rr = np.array(pose.offset(-hl, hw)), np.array(pose.offset(-hl, -hw))
    if arc == "front":
        rows = [_edge_family(fr, fl, near_mm)]
    elif arc == "rear":
        rows = [_edge_family(rl, rr, near_mm)]
    elif arc == "side":
        rows = [_edge_family(fl, rl, near_mm), _edge_family(rr, fr, near_mm)]
    else:
        raise ValueError(f"unknown arc {arc!r}; known: {', '.join(ARCS)}")
    return rows


def _corner_fan(ring: F64, near_mm: float, angles: list[F64]) -> _Families:
    """Corner families: near edge centred on a corner, one family per direction in its fan."""
    rows: list[F64] = []
    for k, ang in enumerate(angles):
        if len(ang) == 0:
            continue
        c = ring[k]
        n = len(ang)
        rows.append(np.column_stack((np.full(n, c[0]), np.full(n, c[1]), ang, np.full(n, -near_mm / 2.0),
                                     np.full(n, near_mm / 2.0), np.zeros(n))))
    if not rows:
        return _families_from([])
    a = np.vstack(rows)
    return _Families(a[:, 0], a[:, 1], a[:, 2], a[:, 3], a[:, 4], a[:, 5])


def _one_corner(c: F64, near_mm: float, ang: F64) -> _Families:
    """:func:`_corner_fan` for the directions ``ang`` of one corner ``c``."""
    n = len(ang)
    return _Families(np.full(n, float(c[0])), np.full(n, float(c[1])), np.asarray(ang, dtype=np.float64),
                     np.full(n, -near_mm / 2.0), np.full(n, near_mm / 2.0), np.zeros(n))


def _fans(ring: F64, step_deg: float) -> list[tuple[float, float]]:
    """Each corner's open fan of directions (rad): from the previous edge's normal to the next one's."""
    out = []
    n = len(ring)
    for k in range(n):
        d_in, d_out = ring[k] - ring[k - 1], ring[(k + 1) % n] - ring[k]
        a0 = math.atan2(-d_in[0], d_in[1])
        a1 = math.atan2(-d_out[0], d_out[1])
        sweep = (a1 - a0) % (2.0 * math.pi)
        out.append((a0, sweep))
    return out


def _fan_samples(fans: list[tuple[float, float]], step_deg: float) -> list[F64]:
    step = math.radians(step_deg)
    res = []
    for a0, sweep in fans:
        m = max(1, math.ceil(sweep / step))
        res.append(a0 + sweep * np.arange(1, m) / m)
    return res


def _turret_families(ring: F64, near_mm: float, step_deg: float) -> _Families:
    """All 360-degree families (p.30): one per edge, plus sampled corner fans."""
    n = len(ring)
    edges = _families_from([_edge_family(ring[k], ring[(k + 1) % n], near_mm) for k in range(n)])
    return edges.join(_corner_fan(ring, near_mm, _fan_samples(_fans(ring, step_deg), step_deg)))


# --------------------------------------------------------------------------- templates in local frames


@lru_cache(maxsize=32)
def _template_ring(template: ShootingTemplate) -> F64:
    return _ring(template.polygon)


@lru_cache(maxsize=32)
def _eroded_ring(template: ShootingTemplate) -> F64:
    eroded = template.polygon.buffer(-_EPS, join_style="mitre")
    assert isinstance(eroded, Polygon)
    return _ring(eroded)


def _placed_xy(ring: F64, ox: F64, oy: F64, ang: F64) -> F64:
    """The points of ``ring`` (local coordinates) placed in each frame, shape (N, m, 2)."""
    c, s = np.cos(ang)[:, None], np.sin(ang)[:, None]
    x = ox[:, None] + ring[None, :, 0] * c - ring[None, :, 1] * s
    y = oy[:, None] + ring[None, :, 0] * s + ring[None, :, 1] * c
    return np.stack((x, y), axis=-1)


def _placed(ring: F64, ox: F64, oy: F64, ang: F64) -> NDArray[np.object_]:
    """Polygons of ``ring`` (local coordinates) placed in each frame."""
    out: NDArray[np.object_] = shapely.polygons(_placed_xy(ring, ox, oy, ang))
    return out


# --------------------------------------------------------------------------- the Minkowski difference


@dataclass(frozen=True)
class _Reach:
    """Per family and target piece, the Minkowski difference ``A - B`` in the family frame."""

    diff: _Pieces
    n_fam: int
    n_piece: int


def _reach(fam: _Families, ring: F64, target: _Pieces) -> _Reach:
    """Build ``A - B`` for every family and target piece (piece-major order), by merging edges."""
    xs, ys = _local(target, fam.ox, fam.oy, fam.ang)
    bounds = np.append(target.starts, target.xy.shape[0])
    blocks = []
    for p in range(len(target.starts)):
        neg_b = -np.stack((xs[:, bounds[p]:bounds[p + 1]], ys[:, bounds[p]:bounds[p + 1]]), axis=-1)
        blocks.append(_minkowski(ring, neg_b))
    return _Reach(_pieces_of_blocks(blocks), len(fam), len(target.starts))


def _from_bottom(poly: F64) -> F64:
    """Rows of counter-clockwise convex vertex lists (F, k, 2), each rolled to start at its lowest-leftmost."""
    y = poly[:, :, 1]
    low = y <= y.min(axis=1, keepdims=True) + 1e-12
    first = np.argmin(np.where(low, poly[:, :, 0], np.inf), axis=1)
    k = poly.shape[1]
    idx = (first[:, None] + np.arange(k)[None, :]) % k
    return np.take_along_axis(poly, idx[:, :, None], axis=1)


def _edge_angles(poly: F64) -> tuple[F64, F64]:
    edges = np.roll(poly, -1, axis=1) - poly
    ang = np.arctan2(edges[:, :, 1], edges[:, :, 0])
    return edges, np.mod(ang + 1e-12, 2.0 * math.pi) - 1e-12


def _minkowski(ring: F64, other: F64) -> F64:
    """Minkowski sums of one convex ring (m, 2) with each convex ring of ``other`` (F, b, 2): (F, m + b, 2).

    Both counter-clockwise; the sum's edges are the two edge lists merged by direction.
    """
    a = _from_bottom(ring[None, :, :])
    b = _from_bottom(other)
    ea, aa = _edge_angles(a)
    eb, ab = _edge_angles(b)
    n = b.shape[0]
    edges = np.concatenate((np.broadcast_to(ea, (n, *ea.shape[1:])), eb), axis=1)
    angles = np.concatenate((np.broadcast_to(aa, (n, aa.shape[1])), ab), axis=1)
    order = np.argsort(angles, axis=1, kind="stable")
    steps = np.take_along_axis(edges, order[:, :, None], axis=1)
    start = a[:, :1, :] + b[:, :1, :]
    out: F64 = start + np.concatenate((np.zeros((n, 1, 2)), np.cumsum(steps[:, :-1, :], axis=1)), axis=1)
    return out


def _pieces_of_blocks(blocks: list[F64]) -> _Pieces:
    """Pieces from blocks of equal-sized vertex rows, block after block."""
    sizes = np.concatenate([np.full(bl.shape[0], bl.shape[1]) for bl in blocks]).astype(np.intp)
    xy = np.concatenate([bl.reshape(-1, 2) for bl in blocks])
    starts = (np.cumsum(sizes) - sizes).astype(np.intp)
    piece_of = np.repeat(np.arange(len(sizes)), sizes)
    idx = np.arange(len(xy))
    nxt = np.where(idx + 1 == starts[piece_of] + sizes[piece_of], starts[piece_of], idx + 1).astype(np.intp)
    return _Pieces(xy, nxt, starts, np.arange(len(sizes), dtype=np.intp))


def _reach_band(reach: _Reach, fam_of: Idx, lo: F64, hi: F64) -> tuple[F64, F64]:
    """x-range of each ``A - B`` (per target piece) inside ``lo <= y <= hi``, rows per query."""
    out_l, out_r = [], []
    v = reach.diff
    for p in range(reach.n_piece):
        sel = p * reach.n_fam + fam_of
        xl, xr = _band_rows(v, sel, lo, hi)
        out_l.append(xl)
        out_r.append(xr)
    return np.column_stack(out_l), np.column_stack(out_r)


def _band_rows(v: _Pieces, piece_idx: Idx, lo: F64, hi: F64) -> tuple[F64, F64]:
    """Band x-range of the single piece ``piece_idx[i]`` for each row ``i`` (pieces padded)."""
    sizes = np.diff(np.append(v.starts, v.xy.shape[0]))
    width = int(sizes[piece_idx].max()) if len(piece_idx) else 1
    k = np.arange(width)[None, :]
    sz = sizes[piece_idx][:, None]
    first = v.starts[piece_idx][:, None]
    idx = first + np.minimum(k, sz - 1)
    nxt = first + (np.minimum(k, sz - 1) + 1) % sz
    return _band_edges(v.xy[idx, 0], v.xy[idx, 1], v.xy[nxt, 0], v.xy[nxt, 1], lo[:, None], hi[:, None])


def _slide(reach: _Reach, fam_of: Idx, lo: F64, hi: F64) -> F64:
    """Largest slide (mm) of the target for offsets ``-hi..-lo`` of each row; ``-inf`` if it never touches.

    Touching allows ``TOUCH_MM``; the slide itself is read on the exact offsets
    (0 when the contact is only within the tolerance).
    """
    xl, xr = _reach_band(reach, fam_of, lo - _EPS, hi + _EPS)
    ok = (xl <= _EPS) & (xr >= -_EPS)
    _, exact = _reach_band(reach, fam_of, lo, hi)
    out: F64 = np.where(ok, np.maximum(exact, 0.0), -np.inf).max(axis=1)
    return out


def _family_margin(reach: _Reach, fam: _Families) -> F64:
    """Largest slide of the target over each family's offsets (mm); ``-inf`` if it never touches."""
    return _slide(reach, np.arange(len(fam)), -fam.s_hi, -fam.s_lo)


def _touch_margin(reach: _Reach, fam_of: Idx, s: F64) -> F64:
    """Per placement: the target's largest slide (mm) if it touches, else ``-inf``."""
    return _slide(reach, fam_of, -s, -s)


# --------------------------------------------------------------------------- the table, prepared


@dataclass(frozen=True)
class _Prepared:
    ids: tuple[str, ...]
    """Each obstruction as a whole: a vehicle (both pieces of an articulated one share its id), an obstacle."""
    polys: NDArray[np.object_]
    tall: Mask
    bounds: F64
    """(K, 4) bounding boxes (minx, miny, maxx, maxy) of ``polys``."""


_PREPARED: dict[int, tuple[weakref.ref[Table], _Prepared]] = {}
_PARTS: dict[int, tuple[Polygon, tuple[F64, ...]]] = {}


def _prepared(table: Table) -> _Prepared:
    """Every possible obstruction of the table (vehicles not airborne, obstacles, posts), cached per table."""
    hit = _PREPARED.get(id(table))
    if hit is not None and hit[0]() is table:
        return hit[1]
    vehicles = [v for v in table.pieces if not v.airborne]
    obstacles = list(table.all_obstacles)
    ids = tuple(v.owner for v in vehicles) + tuple(o.id for o in obstacles)
    polys = np.array([v.footprint for v in vehicles] + [o.polygon for o in obstacles], dtype=object)
    tall = np.array([False] * len(vehicles) + [o.tall for o in obstacles], dtype=bool)
    bounds = shapely.bounds(polys) if len(polys) else np.zeros((0, 4))
    prep = _Prepared(ids, polys, tall, bounds.reshape(-1, 4))
    if len(_PREPARED) > 16:
        _PREPARED.clear()
    _PREPARED[id(table)] = (weakref.ref(table), prep)
    return prep


_BY_POLYGON: dict[tuple[str, int], tuple[Polygon, Any]] = {}


def _per_polygon(kind: str, poly: Polygon, make: Callable[[Polygon], Any]) -> Any:
    """``make(poly)``, cached per polygon object and ``kind`` (the cache holds the polygon, so its id is not
    reused while cached). The value must never be changed in place."""
    key = (kind, id(poly))
    hit = _BY_POLYGON.get(key)
    if hit is not None and hit[0] is poly:
        return hit[1]
    value = make(poly)
    if len(_BY_POLYGON) > 4096:
        _BY_POLYGON.clear()
    _BY_POLYGON[key] = (poly, value)
    return value


_A = TypeVar("_A", bound=np.ndarray)


def _frozen(a: _A) -> _A:
    """``a``, made read-only (a cached value that must never change in place)."""
    a.flags.writeable = False
    return a


def _ring_of(poly: Polygon) -> F64:
    """:func:`_ring` of ``poly``, cached per polygon object (read-only)."""
    out: F64 = _per_polygon("ring", poly, lambda p: _frozen(_ring(p)))
    return out


def _target_pieces(poly: Polygon) -> _Pieces:
    """The convex pieces of a target outline, cached per polygon object (read-only arrays)."""
    def make(p: Polygon) -> _Pieces:
        pcs = _pieces([_convex_parts(p)])
        return _Pieces(_frozen(pcs.xy), _frozen(pcs.nxt), _frozen(pcs.starts), _frozen(pcs.owner))
    out: _Pieces = _per_polygon("target", poly, make)
    return out


_TURRET: dict[tuple[int, float, float], tuple[F64, list[tuple[float, float]], _Families]] = {}


def _turret_of(ring: F64, near_mm: float, step_deg: float) -> tuple[list[tuple[float, float]], _Families]:
    """:func:`_fans` and :func:`_turret_families` of a firer's ring, cached per ring object (the read-only
    rings of :func:`_ring_of`; the cache holds the ring, so its id is not reused while cached)."""
    key = (id(ring), near_mm, step_deg)
    hit = _TURRET.get(key)
    if hit is None or hit[0] is not ring:
        fam = _turret_families(ring, near_mm, step_deg)
        for a in (fam.ox, fam.oy, fam.ang, fam.s_lo, fam.s_hi, fam.s_mid):
            _frozen(a)
        hit = (ring, _fans(ring, step_deg), fam)
        if len(_TURRET) > 1024:
            _TURRET.clear()
        _TURRET[key] = hit
    return hit[1], hit[2]


def _parts_of(poly: Polygon) -> tuple[F64, ...]:
    """Convex parts of an obstruction, cached per polygon object (obstacles outlive tables)."""
    hit = _PARTS.get(id(poly))
    if hit is not None and hit[0] is poly:
        return hit[1]
    parts = tuple(_convex_parts(poly))
    if len(_PARTS) > 1024:
        _PARTS.clear()
    _PARTS[id(poly)] = (poly, parts)
    return parts


# --------------------------------------------------------------------------- evaluation of placements


@dataclass(frozen=True)
class _Evaluated:
    """Sampled placements that touch the target."""

    fam_of: Idx
    s: F64
    x_first: F64
    margin: F64
    hits: Mask  # (N, K) obstruction k reaches into the near part


_CHUNK_ELEMENTS = 100_000
"""The largest (placements x vertices) array built at once (0.8 MB of float64): every query on a table
of any size stays within a few tens of MB however many placements and vertices it weighs."""


def _rows_per_chunk(columns: int) -> int:
    return max(1, _CHUNK_ELEMENTS // max(1, columns))


def _offsets(fam: _Families, pcs: _Pieces, halves: tuple[float, ...], step_mm: float) -> tuple[Idx, F64]:
    """Sampled offsets, sorted by family: a grid, the ends, the middle and the critical offsets.

    A critical offset puts a template side (``halves``) exactly on a vertex of
    ``pcs`` (:func:`_critical_y`). A family with a single offset (a squeeze) has
    no other; the rest are handled a block of families at a time.
    """
    n = np.maximum(2, np.ceil((fam.s_hi - fam.s_lo) / step_mm).astype(np.intp) + 1)
    f_grid = np.repeat(np.arange(len(fam)), n)
    k = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
    s_grid = fam.s_lo[f_grid] + (fam.s_hi - fam.s_lo)[f_grid] * k / (n[f_grid] - 1)
    f_parts, s_parts = [f_grid], [s_grid]
    mids = np.arange(len(fam))
    f_parts.append(mids)
    s_parts.append(fam.s_mid)
    wide = np.flatnonzero(fam.s_hi > fam.s_lo)
    step = _rows_per_chunk(pcs.xy.shape[0] * max(1, len(halves)))
    for a in range(0, len(wide), step):
        rows = wide[a:a + step]
        sub = fam.take(rows)
        crit = (_critical_y(sub, pcs)[:, :, None] - np.asarray(halves)[None, None, :]).reshape(len(sub), -1)
        inside = (crit >= sub.s_lo[:, None]) & (crit <= sub.s_hi[:, None])
        f_crit = np.nonzero(inside)[0]
        f_parts.append(rows[f_crit])
        s_parts.append(crit[inside])
    f_all = np.concatenate(f_parts).astype(np.intp)
    s_all = np.concatenate(s_parts)
    order = np.lexsort((s_all, f_all))
    f_all, s_all = f_all[order], s_all[order]
    keep = np.ones(len(s_all), dtype=bool)
    keep[1:] = (f_all[1:] != f_all[:-1]) | (np.diff(s_all) > 1e-9)
    return f_all[keep], s_all[keep]


def _critical_y(fam: _Families, pcs: _Pieces, max_vertices: int = 12) -> F64:
    """Lateral coordinates (mm) of the vertices that can bound a gap, per family, shape (F, C).

    Small pieces give every vertex; large ones (discs) only their two lateral extremes.
    """
    if pcs.xy.shape[0] == 0:
        return np.zeros((len(fam), 0))
    c, s = np.cos(fam.ang)[:, None], np.sin(fam.ang)[:, None]  # the lateral coordinate of _local alone
    ys = (pcs.xy[None, :, 1] - fam.oy[:, None]) * c - (pcs.xy[None, :, 0] - fam.ox[:, None]) * s
    sizes = np.diff(np.append(pcs.starts, pcs.xy.shape[0]))
    small = np.repeat(sizes <= max_vertices, sizes)
    cols = [ys[:, small]]
    big = np.flatnonzero(sizes > max_vertices)
    if len(big):
        lo = np.minimum.reduceat(ys, pcs.starts, axis=1)[:, big]
        hi = np.maximum.reduceat(ys, pcs.starts, axis=1)[:, big]
        cols += [lo, hi]
    return np.concatenate(cols, axis=1)


def _frames(fam: _Families, fam_of: Idx, s: F64) -> tuple[F64, F64, F64]:
    ang = fam.ang[fam_of]
    ox = fam.ox[fam_of] - np.sin(ang) * s
    oy = fam.oy[fam_of] + np.cos(ang) * s
    return ox, oy, ang


def _first_touch(xs: F64, ys: F64, target: _Pieces, lo: F64, hi: F64, length: float) -> F64:
    """Distance (mm) from the near edge to the first point of the target inside the band ``lo..hi``."""
    xl, xr = _band(xs, ys, target, lo, hi)
    touch = (xl <= length + _EPS) & (xr >= -_EPS)
    out: F64 = np.where(touch, np.maximum(xl, 0.0), np.inf).min(axis=1)
    return out


def _straight_hits(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, x_first: F64,
                   obst: _Pieces, n_obst: int) -> Mask:
    """Which obstructions reach more than ``TOUCH_MM`` into each straight placement's near part (NumPy),
    a block of placements at a time (:data:`_CHUNK_ELEMENTS`)."""
    hits = np.zeros((len(s), n_obst), dtype=bool)
    if obst.xy.shape[0] == 0 or len(s) == 0:
        return hits
    obst = _without_far_discs(obst, len(s), lambda mid, radius, a, b: _may_reach_near_part(
        fam, fam_of[a:b], s[a:b], tpl, x_first[a:b], mid, radius))
    if obst.xy.shape[0] == 0:
        return hits
    step = _rows_per_chunk(obst.xy.shape[0])
    for a in range(0, len(s), step):
        b = a + step
        hits[a:b] = _straight_hits_block(fam, fam_of[a:b], s[a:b], tpl, x_first[a:b], obst, n_obst)
    return hits


_DISC_SCREEN_VERTICES = 16
"""Obstruction pieces with more vertices than this (round rocks, discs) are first screened by their
bounding discs (:func:`_without_far_discs`); the others always go to the exact tests."""


def _piece_discs(pcs: _Pieces) -> tuple[F64, F64]:
    """Per piece: the middle of its vertices (P, 2) and a radius (mm) about it holding them all, with a
    rounding slack."""
    sizes = np.diff(np.append(pcs.starts, pcs.xy.shape[0]))
    piece_of = np.repeat(np.arange(len(sizes)), sizes)
    mid = np.add.reduceat(pcs.xy, pcs.starts, axis=0) / sizes[:, None]
    d = pcs.xy - mid[piece_of]
    radius = np.sqrt(np.maximum.reduceat(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1], pcs.starts)) + 1e-6
    return mid, radius


def _without_far_discs(pcs: _Pieces, n_rows: int, near: Callable[[F64, F64, int, int], Mask]) -> _Pieces:
    """``pcs`` without the pieces of many vertices (:data:`_DISC_SCREEN_VERTICES`) whose bounding discs
    ``near(mid, radius, a, b)`` rules out for every row ``a:b`` (rows a block at a time,
    :data:`_CHUNK_ELEMENTS`); all other pieces are kept, in order."""
    if len(pcs.starts) == 0 or n_rows == 0:
        return pcs
    sizes = np.diff(np.append(pcs.starts, pcs.xy.shape[0]))
    big = np.flatnonzero(sizes > _DISC_SCREEN_VERTICES)
    if len(big) == 0:
        return pcs
    mid, radius = _piece_discs(_subset(pcs, big))
    found = np.zeros(len(big), dtype=bool)
    step = _rows_per_chunk(len(big))
    for a in range(0, n_rows, step):
        found |= near(mid, radius, a, a + step)
    if found.all():
        return pcs
    keep = np.ones(len(sizes), dtype=bool)
    keep[big[~found]] = False
    return _subset(pcs, np.flatnonzero(keep))


def _may_bound_gap(fam: _Families, mid: F64, radius: F64, lo_mm: float, hi_mm: float) -> Mask:
    """Per disc (``mid``, ``radius``): False when none of its points lies across any family's axis between
    ``s_lo + lo_mm`` and ``s_hi + hi_mm`` (so its piece gives :func:`_offsets` no critical offset)."""
    c, sn = np.cos(fam.ang)[:, None], np.sin(fam.ang)[:, None]
    v = (mid[None, :, 1] - fam.oy[:, None]) * c - (mid[None, :, 0] - fam.ox[:, None]) * sn
    r = radius[None, :] + 1e-6
    near = (v + r >= fam.s_lo[:, None] + lo_mm) & (v - r <= fam.s_hi[:, None] + hi_mm)
    out: Mask = np.asarray(near.any(axis=0))
    return out


def _may_reach_near_part(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, x_first: F64, mid: F64,
                         radius: F64) -> Mask:
    """Per disc (``mid``, ``radius``, with a rounding slack): False when its piece certainly reaches into
    none of these placements' near parts (:func:`_straight_hits_block` would find no hit)."""
    ox, oy, ang = _frames(fam, fam_of, s)
    c, sn = np.cos(ang)[:, None], np.sin(ang)[:, None]
    dx, dy = mid[None, :, 0] - ox[:, None], mid[None, :, 1] - oy[:, None]
    u, v = dx * c + dy * sn, dy * c - dx * sn
    hw = tpl.width_mm / 2.0 - _EPS
    r = radius[None, :]
    near = (v - r <= hw) & (v + r >= -hw) & (u + r > _EPS) & (u - r < x_first[:, None] - _EPS)
    out: Mask = np.asarray(near.any(axis=0))
    return out


def _straight_hits_block(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, x_first: F64,
                         obst: _Pieces, n_obst: int) -> Mask:
    hits = np.zeros((len(s), n_obst), dtype=bool)
    ox, oy, ang = _frames(fam, fam_of, s)
    hw = tpl.width_mm / 2.0
    xs, ys = _local(obst, ox, oy, ang)
    lo, hi = np.full((len(s), 1), -hw + _EPS), np.full((len(s), 1), hw - _EPS)
    ol, orr = _band(xs, ys, obst, lo, hi)
    piece_hit = (ol < x_first[:, None] - _EPS) & (orr > _EPS)
    owner = obst.owner  # non-decreasing: pieces are listed obstruction by obstruction
    first = np.flatnonzero(np.diff(owner, prepend=-1))
    hits[:, owner[first]] = np.logical_or.reduceat(piece_hit, first, axis=1)
    return hits


def _evaluate_straight(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, target: _Pieces,
                       obst: _Pieces, n_obst: int) -> tuple[F64, Mask]:
    """x of the first touch and the obstruction hits of straight-template placements (NumPy)."""
    ox, oy, ang = _frames(fam, fam_of, s)
    hw, length = tpl.width_mm / 2.0, tpl.length_mm
    xs, ys = _local(target, ox, oy, ang)
    lo, hi = np.full((len(s), 1), -hw), np.full((len(s), 1), hw)
    x_first = _first_touch(xs, ys, target, lo, hi, length)
    loose = np.isinf(x_first)
    if loose.any():
        x_first[loose] = _first_touch(xs[loose], ys[loose], target, lo[loose] - _EPS, hi[loose] + _EPS, length)
    return x_first, _straight_hits(fam, fam_of, s, tpl, x_first, obst, n_obst)


def _evaluate_shapely(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, target: Polygon,
                      obst: NDArray[np.object_]) -> tuple[F64, Mask]:
    """The same as :func:`_evaluate_straight` for any template, with Shapely array functions."""
    ox, oy, ang = _frames(fam, fam_of, s)
    placed = _placed(_template_ring(tpl), ox, oy, ang)
    ux, uy = np.cos(ang), np.sin(ang)
    inter = shapely.intersection(placed, target)
    xy, which = shapely.get_coordinates(inter, return_index=True)
    x_first = np.full(len(s), np.inf)
    np.minimum.at(x_first, which, (xy[:, 0] - ox[which]) * ux[which] + (xy[:, 1] - oy[which]) * uy[which])
    near = np.isinf(x_first) & (shapely.distance(placed, target) <= _EPS)
    if near.any():
        pts = shapely.get_coordinates(shapely.shortest_line(placed[near], target))[::2]
        x_first[near] = (pts[:, 0] - ox[near]) * ux[near] + (pts[:, 1] - oy[near]) * uy[near]
    x_first = np.maximum(x_first, 0.0)
    hits = np.zeros((len(s), len(obst)), dtype=bool)
    has = np.isfinite(x_first) & (x_first > 2.0 * _EPS)
    if len(obst) and has.any():
        cut = x_first[has] - _EPS
        box = np.zeros((len(cut), 4, 2))
        box[:, :, 0] = np.column_stack((np.full_like(cut, -1.0), cut, cut, np.full_like(cut, -1.0)))
        box[:, :, 1] = np.array([-_BIG, -_BIG, _BIG, _BIG])
        halfplane = _placed_many(box, ox[has], oy[has], ang[has])
        eroded = _placed(_eroded_ring(tpl), ox[has], oy[has], ang[has])
        near_part = shapely.intersection(eroded, halfplane)
        hits[has] = shapely.intersects(near_part[:, None], obst[None, :])
    return x_first, hits


@dataclass(frozen=True)
class _Chains:
    """A convex template's outline as two functions of the lateral coordinate y (local frame).

    ``left`` and ``right`` are (ys, xs) with ys ascending, for ``np.interp``;
    ``y_lo``..``y_hi`` is the template's lateral extent.
    """

    left: tuple[F64, F64]
    right: tuple[F64, F64]
    y_lo: float
    y_hi: float


def _chains_of(ring: F64) -> _Chains:
    """Split a counter-clockwise convex ring at its lowest and highest vertices."""
    lo, hi = int(np.argmin(ring[:, 1])), int(np.argmax(ring[:, 1]))
    n = len(ring)
    right = ring[[(lo + k) % n for k in range((hi - lo) % n + 1)]]
    left = ring[[(hi + k) % n for k in range((lo - hi) % n + 1)]][::-1]
    return _Chains((left[:, 1], left[:, 0]), (right[:, 1], right[:, 0]), float(ring[lo, 1]), float(ring[hi, 1]))


@lru_cache(maxsize=32)
def _template_chains(template: ShootingTemplate, eroded: bool) -> _Chains:
    return _chains_of(_eroded_ring(template) if eroded else _template_ring(template))


def _golden_min(fn: Any, lo: F64, hi: F64, rounds: int = 44) -> F64:
    """Argmin over ``lo..hi`` (per row) of a convex function ``fn(y) -> values`` by golden sections."""
    r = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = lo.copy(), hi.copy()
    c, d = b - r * (b - a), a + r * (b - a)
    fc, fd = fn(c), fn(d)
    for _ in range(rounds):
        left = fc <= fd  # keep a..d (the old c becomes d), else c..b (the old d becomes c)
        a, b = np.where(left, a, c), np.where(left, d, b)
        c, d = np.where(left, b - r * (b - a), d), np.where(left, c, a + r * (b - a))
        fc, fd = np.where(left, fn(c), fd), np.where(left, fc, fn(d))
    out: F64 = (a + b) / 2.0
    return out


def _band_edges(x1: F64, y1: F64, x2: F64, y2: F64, lo: F64, hi: F64) -> tuple[F64, F64]:
    """x-range, per row, of the convex piece with edges (x1, y1)->(x2, y2) inside ``lo <= y <= hi``."""
    inside = (y1 >= lo) & (y1 <= hi)
    cmin, cmax = np.where(inside, x1, np.inf), np.where(inside, x1, -np.inf)
    dy = y2 - y1
    flat = dy == 0.0
    safe = np.where(flat, 1.0, dy)
    for c in (lo, hi):
        cross = ((y1 - c) * (y2 - c) <= 0.0) & ~flat
        xc = x1 + (c - y1) / safe * (x2 - x1)
        cmin = np.minimum(cmin, np.where(cross, xc, np.inf))
        cmax = np.maximum(cmax, np.where(cross, xc, -np.inf))
    return cmin.min(axis=1), cmax.max(axis=1)


_PENALTY = 1.0e6


def _burst_first_touch(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, target: _Pieces) -> F64:
    """First touch (mm from the near edge) of burst placements, by minimising over the lateral line.

    On each lateral line y (placement frame) the template spans
    ``L_A(y)..R_A(y)`` and a convex target piece ``L_B(y)..R_B(y)``; the first
    touch is the least ``max(L_A, L_B)`` where the spans meet, a convex problem
    (golden sections on a penalised objective; exact to about 1e-6 mm). Where
    they only come within ``TOUCH_MM``, the lines are widened by it.
    """
    ox, oy, ang = _frames(fam, fam_of, s)
    xs, ys = _local(target, ox, oy, ang)
    best = np.full(len(s), np.inf)
    bounds = np.append(target.starts, target.xy.shape[0])
    for p in range(len(target.starts)):
        px, py = xs[:, bounds[p]:bounds[p + 1]], ys[:, bounds[p]:bounds[p + 1]]
        x = _piece_first_touch(tpl, px, py, 0.0)
        loose = np.isinf(x)
        if loose.any():
            x[loose] = _piece_first_touch(tpl, px[loose], py[loose], _EPS)
        best = np.minimum(best, x)
    return best


def _burst_slide(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, target: _Pieces) -> F64:
    """How far (mm) the target could slide along each burst placement's axis and still touch it.

    The most, over lateral lines y, of ``R_A(y) - L_B(y)``: concave, so golden
    sections find it (p.28 range; GEOMETRY.md 6 margin).
    """
    ox, oy, ang = _frames(fam, fam_of, s)
    xs, ys = _local(target, ox, oy, ang)
    ch = _template_chains(tpl, False)
    best = np.zeros(len(s))
    bounds = np.append(target.starts, target.xy.shape[0])
    for p in range(len(target.starts)):
        px, py = xs[:, bounds[p]:bounds[p + 1]], ys[:, bounds[p]:bounds[p + 1]]
        x2, y2 = np.roll(px, -1, axis=1), np.roll(py, -1, axis=1)
        lo, hi = np.maximum(ch.y_lo, py.min(axis=1)), np.minimum(ch.y_hi, py.max(axis=1))
        ok = lo <= hi

        def loss(y: F64, px: F64 = px, py: F64 = py, x2: F64 = x2, y2: F64 = y2) -> F64:
            lb, _ = _band_edges(px, py, x2, y2, y[:, None], y[:, None])
            out: F64 = lb - np.interp(y, *ch.right, left=-np.inf, right=-np.inf)
            return np.where(np.isfinite(out), out, _BIG)

        y = _golden_min(loss, np.where(ok, lo, 0.0), np.where(ok, hi, 0.0))
        best = np.where(ok, np.maximum(best, -loss(y)), best)
    return np.maximum(best, 0.0)


def _piece_first_touch(tpl: ShootingTemplate, px: F64, py: F64, widen: float) -> F64:
    """:func:`_burst_first_touch` for one convex piece given in each placement frame (N, m)."""
    ch = _template_chains(tpl, False)
    x2, y2 = np.roll(px, -1, axis=1), np.roll(py, -1, axis=1)
    lo = np.maximum(ch.y_lo, py.min(axis=1)) - widen
    hi = np.minimum(ch.y_hi, py.max(axis=1)) + widen
    ok = lo <= hi

    def spans(y: F64) -> tuple[F64, F64]:
        lb, rb = _band_edges(px, py, x2, y2, (y - widen)[:, None], (y + widen)[:, None])
        la = np.interp(y, *ch.left, left=np.inf, right=np.inf)
        ra = np.interp(y, *ch.right, left=-np.inf, right=-np.inf)
        return np.maximum(la, lb), np.minimum(ra, rb)

    def objective(y: F64) -> F64:
        g, h = spans(y)
        out: F64 = g + _PENALTY * np.maximum(g - h, 0.0)
        return out

    y = _golden_min(objective, np.where(ok, lo, 0.0), np.where(ok, hi, 0.0))
    g, h = spans(y)
    out: F64 = np.where(ok & (g <= h + 1e-6 + widen), g, np.inf)
    return out


@dataclass(frozen=True)
class _ChainTable:
    """Many monotone chains (x as a function of y) in one sorted array, evaluated row by row."""

    key: F64
    x: F64
    start: Idx
    end: Idx


_CHAIN_GAP = 4.0e4  # wider than any lateral coordinate on a table, so chains never interleave


def _chain_table(chains: list[tuple[F64, F64]]) -> _ChainTable:
    sizes = np.array([len(c[0]) for c in chains], dtype=np.intp)
    start = (np.cumsum(sizes) - sizes).astype(np.intp)
    key = np.concatenate([k * _CHAIN_GAP + c[0] for k, c in enumerate(chains)])
    return _ChainTable(key, np.concatenate([c[1] for c in chains]), start, start + sizes - 1)


def _chain_at(t: _ChainTable, which: Idx, y: F64) -> F64:
    """Chain ``which[i]`` evaluated at ``y[i]`` (linear between vertices, clamped at the ends)."""
    q = which * _CHAIN_GAP + y
    i = np.clip(np.searchsorted(t.key, q, side="right"), t.start[which] + 1, np.maximum(t.end[which],
                                                                                       t.start[which] + 1))
    i = np.minimum(i, len(t.key) - 1)
    k0, k1 = t.key[i - 1], t.key[i]
    span = np.where(k1 > k0, k1 - k0, 1.0)
    w = np.clip((q - k0) / span, 0.0, 1.0)
    out: F64 = t.x[i - 1] + w * (t.x[i] - t.x[i - 1])
    return np.where(t.end[which] == t.start[which], t.x[t.start[which]], out)


def _piece_sides(fam: _Families, fams: Idx, piece: _Pieces) -> tuple[_ChainTable, _ChainTable]:
    """Left and right chains of one convex piece in each family frame (offset 0) of ``fams``."""
    xs, ys = _local(piece, fam.ox[fams], fam.oy[fams], fam.ang[fams])
    lefts, rights = [], []
    for j in range(len(fams)):
        ch = _chains_of(np.column_stack((xs[j], ys[j])))
        lefts.append(ch.left)
        rights.append(ch.right)
    return _chain_table(lefts), _chain_table(rights)


def _burst_hits(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, x_first: F64, obst: _Pieces,
                n_obst: int) -> Mask:
    """Which obstructions reach more than ``TOUCH_MM`` into each burst placement's near part.

    The near part, eroded by ``TOUCH_MM``, spans ``L_E(y - s)..min(R_E(y - s),
    x_first - TOUCH_MM)`` on each lateral line y; a convex piece overlaps it
    when on some line the two spans overlap: the least gap between them is a
    convex function of y, minimised by golden sections.
    """
    hits = np.zeros((len(s), n_obst), dtype=bool)
    if obst.xy.shape[0] == 0 or len(s) == 0:
        return hits
    ch = _template_chains(tpl, True)
    cut = x_first - _EPS
    fams, which = np.unique(fam_of, return_inverse=True)
    bounds = np.append(obst.starts, obst.xy.shape[0])
    for p in range(len(obst.starts)):
        piece = _pieces([[obst.xy[bounds[p]:bounds[p + 1]]]])
        left, right = _piece_sides(fam, fams, piece)
        y_lo = np.maximum(ch.y_lo, left.key[left.start[which]] - which * _CHAIN_GAP - s)
        y_hi = np.minimum(ch.y_hi, left.key[left.end[which]] - which * _CHAIN_GAP - s)
        x_lo = np.array([c.min() for c in np.split(left.x, left.end[:-1] + 1)])[which]
        rows = np.flatnonzero((y_lo <= y_hi) & (cut > _EPS) & (x_lo < cut))
        if len(rows) == 0:
            continue
        w, sr, cr = which[rows], s[rows], cut[rows]

        def gap(y: F64, left: _ChainTable = left, right: _ChainTable = right, w: Idx = w, sr: F64 = sr,
                cr: F64 = cr) -> F64:
            """Row-local y (from the near-edge centre); the piece's chains are in family frames."""
            lo_o, hi_o = _chain_at(left, w, y + sr), _chain_at(right, w, y + sr)
            la = np.interp(y, *ch.left)
            ra = np.minimum(np.interp(y, *ch.right), cr)
            out: F64 = np.maximum(la, lo_o) - np.minimum(ra, hi_o)
            return out

        y = _golden_min(gap, y_lo[rows], y_hi[rows])
        hits[rows, obst.owner[p]] |= gap(y) < -1e-9
    return hits


def _placed_many(local: F64, ox: F64, oy: F64, ang: F64) -> NDArray[np.object_]:
    c, s = np.cos(ang)[:, None], np.sin(ang)[:, None]
    x = ox[:, None] + local[:, :, 0] * c - local[:, :, 1] * s
    y = oy[:, None] + local[:, :, 0] * s + local[:, :, 1] * c
    out: NDArray[np.object_] = shapely.polygons(np.stack((x, y), axis=-1))
    return out


# --------------------------------------------------------------------------- the query


@dataclass(frozen=True)
class _Query:
    table: Table
    target_id: str
    template: ShootingTemplate
    ring: F64
    target_poly: Polygon
    target: _Pieces
    fam: _Families
    indirect: bool
    fans: list[tuple[float, float]] | None
    corners: F64 | None


def _owner(table: Table, piece_id: str) -> str:
    """The vehicle a piece belongs to (a trailer piece's cab), else the id itself."""
    try:
        return table.piece(piece_id).owner
    except KeyError:
        return piece_id


def _attacker_ring(table: Table, attacker_id: str) -> tuple[F64, Any]:
    try:
        v = table.piece(attacker_id)
    except KeyError:
        poly = table.obstacle(attacker_id).polygon
        hull = poly.convex_hull
        assert isinstance(hull, Polygon)
        return _ring(hull), None
    return _ring_of(v.footprint), v


def _template(template_set: TemplateSet, range_name: str) -> ShootingTemplate:
    try:
        return template_set.shooting[range_name]
    except KeyError:
        known = ", ".join(template_set.shooting)
        raise KeyError(f"unknown range {range_name!r}; known: {known}") from None


def _query(table: Table, attacker_id: str, target_id: str, range_name: str, arc: str,
           template_set: TemplateSet, indirect: bool) -> _Query:
    if _owner(table, attacker_id) == _owner(table, target_id):
        raise ValueError(f"a piece cannot shoot at itself ({attacker_id!r})")
    tpl = _template(template_set, range_name)
    ring, vehicle = _attacker_ring(table, attacker_id)
    target_poly = table.shape_of(target_id)
    target = _target_pieces(target_poly)
    near = tpl.near_width_mm
    if arc == "turret":
        fans, fam = _turret_of(ring, near, TURRET_STEP_DEG)
        return _Query(table, target_id, tpl, ring, target_poly, target, fam, indirect, fans, ring)
    if vehicle is None:
        raise ValueError(f"only a vehicle has a {arc} arc; {attacker_id!r} is an obstacle (use turret)")
    fam = _fixed_families(vehicle.pose, vehicle.length_mm, vehicle.width_mm, arc, near)
    return _Query(table, target_id, tpl, _template_ring(tpl), target_poly, target, fam, indirect, None, None)


def _refine_fan(q: _Query, fam: _Families, score: F64, maximise: bool) -> _Families:
    """Zoom on the best sampled corner direction (three rounds of 41 directions each)."""
    return _refine_fan_scored(q, fam, score, maximise)[0]


def _refine_fan_scored(q: _Query, fam: _Families, score: F64, maximise: bool) -> tuple[_Families, F64]:
    """:func:`_refine_fan`, with the new direction's score (its margin, or minus its distance) as the last
    round found it: the same value, as each family's score depends on that family alone."""
    if q.fans is None or q.corners is None:
        return fam, np.zeros(0)
    n_edges = len(q.corners)
    if len(fam) <= n_edges:
        return fam, np.zeros(0)
    corner_scores = score[n_edges:]
    if not np.isfinite(corner_scores).any():
        return fam, np.zeros(0)
    best = int(np.argmax(corner_scores) if maximise else np.argmin(corner_scores)) + n_edges
    k = _corner_of(q, fam, best)
    a0, sweep = q.fans[k]
    centre = float((fam.ang[best] - a0) % (2 * math.pi))
    half = math.radians(TURRET_STEP_DEG)
    for _ in range(3):
        t = np.clip(np.linspace(centre - half, centre + half, 41), 1e-9, sweep - 1e-9)
        cand = _one_corner(q.corners[k], q.template.near_width_mm, a0 + t)
        val = _margins(q, cand) if maximise else -_family_distance(cand, q)
        i = int(np.argmax(val))
        centre = float(t[i])
        half /= 20.0
    best_fam = _one_corner(q.corners[k], q.template.near_width_mm, np.array([a0 + centre]))
    return fam.join(best_fam), val[i:i + 1]


def _corner_of(q: _Query, fam: _Families, i: int) -> int:
    assert q.corners is not None
    d = np.hypot(q.corners[:, 0] - fam.ox[i], q.corners[:, 1] - fam.oy[i])
    return int(np.argmin(d))


def _family_union(fam: _Families, q: _Query) -> NDArray[np.object_]:
    """Each family's placements together: the hull of its two extreme placements (a convex sweep)."""
    ring = _template_ring(q.template)
    f = np.arange(len(fam))
    pts = [_placed_xy(ring, *_frames(fam, f, fam.s_lo)), _placed_xy(ring, *_frames(fam, f, fam.s_hi))]
    out: NDArray[np.object_] = shapely.convex_hull(shapely.multipoints(np.concatenate(pts, axis=1)))
    return out


def _family_distance(fam: _Families, q: _Query) -> F64:
    d: F64 = shapely.distance(_family_union(fam, q), q.target_poly)
    return d


def _hull(points: F64) -> Polygon:
    """The convex hull of ``points`` (``(n, 2)``, n >= 2): taken of a line through them, the same hull as of
    the points themselves but without making a geometry per point (a fiftieth of the time for a thousand)."""
    out: Polygon = shapely.convex_hull(shapely.linestrings(points))
    return out


def _obstructions(q: _Query, attacker_id: str, fam: _Families) -> tuple[list[int], _Pieces]:
    """Indices (into the prepared table) and convex pieces of obstructions near the families."""
    prep = _prepared(q.table)
    mine = (_owner(q.table, attacker_id), _owner(q.table, q.target_id))
    keep = np.array([i not in mine for i in prep.ids], dtype=bool)
    if not keep.any() or q.indirect:
        return [], _pieces([])
    ring = _template_ring(q.template)
    box = np.array([[ring[:, 0].min(), ring[:, 1].min()], [ring[:, 0].max(), ring[:, 1].min()],
                    [ring[:, 0].max(), ring[:, 1].max()], [ring[:, 0].min(), ring[:, 1].max()]])
    f = np.arange(len(fam))
    ends = _frames(fam, np.concatenate((f, f)), np.concatenate((fam.s_lo, fam.s_hi)))
    points = _placed_xy(box, *ends).reshape(-1, 2)  # each family's placements at both ends
    # Bounding boxes first: the area below lies in the box of these corners and in the box of the corridor
    # (its points' box grown by the buffer distance), each widened by a rounding slack.
    firer, _ = _attacker_ring(q.table, attacker_id)
    pts = np.vstack((firer, shapely.get_coordinates(q.target_poly)))
    grow = _corridor_grow(q.template)
    b = prep.bounds
    lo_x = max(float(points[:, 0].min()), float(pts[:, 0].min()) - grow - 1e-6) - 1e-6
    lo_y = max(float(points[:, 1].min()), float(pts[:, 1].min()) - grow - 1e-6) - 1e-6
    hi_x = min(float(points[:, 0].max()), float(pts[:, 0].max()) + grow + 1e-6) + 1e-6
    hi_y = min(float(points[:, 1].max()), float(pts[:, 1].max()) + grow + 1e-6) + 1e-6
    keep &= (b[:, 0] <= hi_x) & (b[:, 2] >= lo_x) & (b[:, 1] <= hi_y) & (b[:, 3] >= lo_y)
    if not keep.any():
        return [], _pieces([])
    area = _hull(points)  # holds every placement
    area = shapely.intersection(area, _corridor_of(q, firer, grow))  # and every near part
    maybe = np.flatnonzero(keep)
    idx = [int(i) for i in maybe[shapely.intersects(prep.polys[maybe], area)]]
    return idx, _pieces([list(_parts_of(prep.polys[i])) for i in idx])


_CORRIDORS: dict[tuple[int, int, float], tuple[F64, Polygon, Polygon]] = {}


def _corridor_of(q: _Query, firer: F64, grow: float) -> Polygon:
    """:func:`_corridor` for the firer's ring ``firer`` and ``grow`` (:func:`_corridor_grow`), cached per
    firer ring object, target outline object and distance (the cache holds both, so their ids are not
    reused while cached)."""
    key = (id(firer), id(q.target_poly), grow)
    hit = _CORRIDORS.get(key)
    if hit is not None and hit[0] is firer and hit[1] is q.target_poly:
        return hit[2]
    pts = np.vstack((firer, np.asarray(q.target_poly.exterior.coords)))
    out: Polygon = shapely.buffer(_hull(pts), grow, quad_segs=4)
    if len(_CORRIDORS) > 1024:
        _CORRIDORS.clear()
    _CORRIDORS[key] = (firer, q.target_poly, out)
    return out


def _corridor(q: _Query, attacker_id: str) -> Polygon:
    """A region holding the near part of every placement that touches the target (GEOMETRY.md 6).

    The near part runs from the near edge, which touches the firer, to the line
    through the first point touching the target, so each of its corners lies
    within the template's widest extent of the firer or of the target: it is
    inside the convex hull of both grown by that extent. Only obstructions
    meeting this region can give Cover or block the shot, so the rest are never
    looked at (a table of 10,000 obstacles costs what its few near the line do).
    """
    grow = _corridor_grow(q.template)
    firer, _ = _attacker_ring(q.table, attacker_id)
    return _corridor_of(q, firer, grow)


def _corridor_grow(tpl: ShootingTemplate) -> float:
    """How far (mm) :func:`_corridor` grows the hull of the firer and the target."""
    return tpl.width_mm + tpl.near_width_mm + 2.0 * float(tpl.radius_mm or 0.0) + 1.0


def _sample(q: _Query, fam: _Families, obst: _Pieces) -> tuple[Idx, F64]:
    hw = q.template.width_mm / 2.0
    if q.template.shape == "burst":
        assert q.template.radius_mm is not None
        halves: tuple[float, ...] = (-q.template.radius_mm, q.template.radius_mm, -q.template.near_width_mm / 2.0,
                                     q.template.near_width_mm / 2.0)
        step = BURST_GRID_STEP_MM
    else:
        halves, step = (-hw, hw), GRID_STEP_MM
    lo_mm, hi_mm = min(halves), max(halves)  # round pieces that give no critical offset left out
    obst = _without_far_discs(obst, len(fam), lambda mid, radius, a, b: _may_bound_gap(
        fam.take(np.arange(a, min(b, len(fam)))), mid, radius, lo_mm, hi_mm))
    return _offsets(fam, _join_pieces(q.target, obst), halves, step)  # sides at s +- half width


def _join_pieces(a: _Pieces, b: _Pieces) -> _Pieces:
    off = a.xy.shape[0]
    return _Pieces(np.vstack((a.xy, b.xy)), np.concatenate((a.nxt, b.nxt + off)),
                   np.concatenate((a.starts, b.starts + off)), np.concatenate((a.owner, b.owner + 1)))


def _screened_margins(q: _Query, fam: _Families) -> F64:
    """:func:`_margins`, with the straight-template families that :func:`_may_touch` rules out (``-inf``
    there, as :func:`_margins` finds) never weighed."""
    if q.template.shape != "straight":
        return _margins(q, fam)
    may = np.flatnonzero(_may_touch(q, fam))
    out = np.full(len(fam), -np.inf)
    if len(may):
        out[may] = _margins(q, fam.take(may))
    return out


def _margins(q: _Query, fam: _Families) -> F64:
    """Each family's largest slide of the target (mm, exact); ``-inf`` where it never touches."""
    if q.template.shape == "straight":
        hw = q.template.width_mm / 2.0
        x_first = _band_first_touch(q, fam, np.arange(len(fam)), np.zeros(len(fam)), fam.s_lo - hw, fam.s_hi + hw)
        return q.template.length_mm - x_first
    return _family_margin(_reach(fam, _template_ring(q.template), q.target), fam)


def _band_first_touch(q: _Query, fam: _Families, fam_of: Idx, s: F64, lo: F64, hi: F64) -> F64:
    """First touch (mm from the near edge) of a straight template covering lateral band ``lo..hi``
    (a block of rows at a time, :data:`_CHUNK_ELEMENTS`)."""
    step = _rows_per_chunk(q.target.xy.shape[0])
    if len(s) <= step:
        return _band_first_touch_block(q, fam, fam_of, s, lo, hi)
    return np.concatenate([_band_first_touch_block(q, fam, fam_of[a:a + step], s[a:a + step], lo[a:a + step],
                                                   hi[a:a + step]) for a in range(0, len(s), step)])


def _band_first_touch_block(q: _Query, fam: _Families, fam_of: Idx, s: F64, lo: F64, hi: F64) -> F64:
    ox, oy, ang = _frames(fam, fam_of, s)
    xs, ys = _local(q.target, ox, oy, ang)
    return _first_touch_or_loose(xs, ys, q.target, lo[:, None], hi[:, None], q.template.length_mm)


def _first_touch_or_loose(xs: F64, ys: F64, target: _Pieces, lo: F64, hi: F64, length: float) -> F64:
    """:func:`_first_touch` in the band ``lo..hi``, and for the rows where nothing touches there, in the band
    widened by ``TOUCH_MM`` each way: both bands in one pass, each value found by the same arithmetic as
    :func:`_first_touch` called once per band (``lo``, ``hi`` of shape (N, 1)). The minima and maxima are
    taken with masked ufuncs instead of ``np.where`` (the same values: a minimum is exact)."""
    nxt = target.nxt
    x2, y2 = xs[:, nxt], ys[:, nxt]
    dy = y2 - ys
    flat = dy == 0.0
    safe = dy.copy()
    safe[flat] = 1.0
    n, v = xs.shape
    c = np.empty((4, n, 1))
    c[0], c[1] = lo, hi
    np.subtract(lo, _EPS, out=c[2])
    np.add(hi, _EPS, out=c[3])
    cross = (ys - c) * (y2 - c) <= 0.0
    cross &= ~flat
    xc = xs + (c - ys) / safe * (x2 - xs)
    inside = (ys >= c[0::2]) & (ys <= c[1::2])  # the exact band, then the widened one
    cmin = np.full((2, n, v), np.inf)
    np.copyto(cmin, xs, where=inside)
    cmax = np.full((2, n, v), -np.inf)
    np.copyto(cmax, xs, where=inside)
    for k in (0, 1):  # each band's lower and upper line
        np.minimum(cmin, xc[k::2], out=cmin, where=cross[k::2])
        np.maximum(cmax, xc[k::2], out=cmax, where=cross[k::2])
    xl = np.minimum.reduceat(cmin, target.starts, axis=2)
    xr = np.maximum.reduceat(cmax, target.starts, axis=2)
    apart = xl > length + _EPS
    apart |= xr < -_EPS
    first = np.maximum(xl, 0.0)
    first[apart] = np.inf
    best = np.minimum.reduce(first, axis=2)
    out: F64 = best[0]
    miss = np.isinf(out)
    out[miss] = best[1][miss]
    return out


def _touching_span(q: _Query, fam: _Families) -> _Families:
    """The families with their offsets narrowed to where the target's lateral extent can be reached."""
    _, ys = _local(q.target, fam.ox, fam.oy, fam.ang)
    reach_mm = q.template.width_mm / 2.0 if q.template.shape == "straight" else float(q.template.radius_mm or 0.0)
    lo = np.maximum(fam.s_lo, ys.min(axis=1) - reach_mm - _EPS)
    hi = np.minimum(fam.s_hi, ys.max(axis=1) + reach_mm + _EPS)
    hi = np.maximum(hi, lo)
    return _Families(fam.ox, fam.oy, fam.ang, lo, hi, np.clip(fam.s_mid, lo, hi))


_SHAPELY_ROWS = 400
"""Up to this many burst placements, Shapely's polygon operations are quicker than the NumPy line search."""


def _evaluate_burst_shapely(q: _Query, fam: _Families, fam_of: Idx, s: F64, obst_idx: list[int]) -> _Evaluated:
    """Burst placements judged with Shapely (the same answers as the line search, to 1e-5 mm)."""
    margin = _touch_margin(_reach(fam, _template_ring(q.template), q.target), fam_of, s)
    ok = np.isfinite(margin)
    fam_of, s, margin = fam_of[ok], s[ok], margin[ok]
    polys = _prepared(q.table).polys[obst_idx] if obst_idx else np.zeros(0, dtype=object)
    x_first, hits = _evaluate_shapely(fam, fam_of, s, q.template, q.target_poly, polys)
    return _Evaluated(fam_of, s, np.where(np.isfinite(x_first), x_first, 0.0), margin, hits)


def _evaluate(q: _Query, fam: _Families, obst_idx: list[int], obst: _Pieces,
              sample: tuple[Idx, F64] | None = None) -> _Evaluated:
    """Sample every family's offsets (unless ``sample`` holds them) and judge each placement that touches
    the target."""
    fam_of, s = sample if sample is not None else _sample(q, _touching_span(q, fam), obst)
    if q.template.shape == "straight":
        hw = q.template.width_mm / 2.0
        x_first = _band_first_touch(q, fam, fam_of, s, np.full(len(s), -hw), np.full(len(s), hw))
        ok = np.isfinite(x_first)
        fam_of, s, x_first = fam_of[ok], s[ok], x_first[ok]
        margin = np.maximum(q.template.length_mm - x_first, 0.0)
        tall = _prepared(q.table).tall[obst_idx] if obst_idx else np.zeros(0, dtype=bool)
        return _straight_evaluated(fam, fam_of, s, q.template, x_first, margin, obst, len(obst_idx), tall)
    if len(s) <= _SHAPELY_ROWS:
        return _evaluate_burst_shapely(q, fam, fam_of, s, obst_idx)
    x_first = _burst_first_touch(fam, fam_of, s, q.template, q.target)
    ok = np.isfinite(x_first)
    fam_of, s, x_first = fam_of[ok], s[ok], x_first[ok]
    margin = _burst_slide(fam, fam_of, s, q.template, q.target)
    hits = _burst_hits(fam, fam_of, s, q.template, x_first, obst, len(obst_idx))
    return _Evaluated(fam_of, s, x_first, margin, hits)


_CLEAR_CHUNKS = (32, 256)
"""Placements judged for obstructions first (best margin first), before all the rest."""


def _straight_evaluated(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, x_first: F64, margin: F64,
                        obst: _Pieces, n_obst: int, tall: Mask | None = None) -> _Evaluated:
    """The placement :func:`_best` would choose among straight placements, with its obstruction hits.

    :func:`_best` prefers a placement no obstruction reaches into, then one no
    Tall obstruction reaches into (``tall``; none when None), then the largest
    margin, the middle of the edge and the family order. Judging the best
    placements in that order first, the first clear one wins outright and the
    rest are not judged. Otherwise all are judged, family by family, each
    against only the obstruction pieces that meet the region its near parts
    cover, and the first clear one in that order wins, else the first one not
    blocked by a Tall obstruction, else the very first. The answer is that one
    placement (the same as judging them all at once), in bounded memory.
    """
    n = len(s)
    if n == 0 or obst.xy.shape[0] == 0:
        return _Evaluated(fam_of, s, x_first, margin, np.zeros((n, n_obst), dtype=bool))
    mid = np.abs(s - fam.s_mid[fam_of])
    order = np.lexsort((fam_of, mid, -np.round(margin, 6)))
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n)
    tall_mask = np.zeros(n_obst, dtype=bool) if tall is None else tall
    done = 0
    first_rows = order[:sum(_CLEAR_CHUNKS)]
    for size in _CLEAR_CHUNKS:
        rows = order[done:done + size]
        done += len(rows)
        if len(rows) == 0:
            break
        h = _straight_hits(fam, fam_of[rows], s[rows], tpl, x_first[rows], obst, n_obst)
        clear = np.flatnonzero(~h.any(axis=1))
        if len(clear):
            r = rows[clear[:1]]
            return _Evaluated(fam_of[r], s[r], x_first[r], margin[r], h[clear[:1]])
    clear_all = np.zeros(n, dtype=bool)
    free_all = np.zeros(n, dtype=bool)
    if done:
        h = _straight_hits(fam, fam_of[first_rows], s[first_rows], tpl, x_first[first_rows], obst, n_obst)
        free_all[first_rows] = ~(h & tall_mask[None, :]).any(axis=1)
    rest = order[done:]
    if len(rest):
        for rows, sub in _by_direction(fam, fam_of, s, tpl, x_first, obst, rest):
            h = _straight_hits(fam, fam_of[rows], s[rows], tpl, x_first[rows], sub, n_obst)
            clear_all[rows] = ~h.any(axis=1)
            free_all[rows] = ~(h & tall_mask[None, :]).any(axis=1)
    for flags in (clear_all, free_all):
        if flags.any():
            pick = int(np.flatnonzero(flags)[np.argmin(rank[flags])])
            break
    else:
        pick = int(order[0])
    r = np.array([pick])
    h = _straight_hits(fam, fam_of[r], s[r], tpl, x_first[r], obst, n_obst)
    return _Evaluated(fam_of[r], s[r], x_first[r], margin[r], h)


def _piece_boxes(pcs: _Pieces) -> F64:
    """(P, 4) bounding boxes (minx, miny, maxx, maxy) of the pieces."""
    return np.column_stack((np.minimum.reduceat(pcs.xy[:, 0], pcs.starts), np.minimum.reduceat(pcs.xy[:, 1], pcs.starts),
                            np.maximum.reduceat(pcs.xy[:, 0], pcs.starts), np.maximum.reduceat(pcs.xy[:, 1], pcs.starts)))


def _subset(pcs: _Pieces, keep: Idx) -> _Pieces:
    """The pieces ``keep`` (ascending) of ``pcs``, with their owners."""
    sizes = np.diff(np.append(pcs.starts, pcs.xy.shape[0]))[keep]
    first = pcs.starts[keep]
    idx = np.repeat(first - (np.cumsum(sizes) - sizes), sizes) + np.arange(int(sizes.sum()))
    sub = _pieces_of_blocks_sizes(pcs.xy[idx], sizes)
    return _Pieces(sub.xy, sub.nxt, sub.starts, pcs.owner[keep])


def _pieces_of_blocks_sizes(xy: F64, sizes: Idx) -> _Pieces:
    starts = (np.cumsum(sizes) - sizes).astype(np.intp)
    piece_of = np.repeat(np.arange(len(sizes)), sizes)
    idx = np.arange(len(xy))
    nxt = np.where(idx + 1 == starts[piece_of] + sizes[piece_of], starts[piece_of], idx + 1).astype(np.intp)
    return _Pieces(xy, nxt, starts, np.arange(len(sizes), dtype=np.intp))


_BLOCK_ROWS = 256
"""Placements judged together against the obstruction pieces near them (:func:`_by_direction`)."""


def _by_direction(fam: _Families, fam_of: Idx, s: F64, tpl: ShootingTemplate, x_first: F64, obst: _Pieces,
                  rows: Idx) -> list[tuple[Idx, _Pieces]]:
    """``rows`` in blocks of placements from the same corner in nearly the same direction, each block with
    the obstruction pieces that meet the convex hull of its near parts (every piece that could reach into
    one of them; found with a spatial index), so each placement is judged against its neighbours only."""
    ox, oy, ang = fam.ox[fam_of[rows]], fam.oy[fam_of[rows]], np.mod(fam.ang[fam_of[rows]], 2.0 * math.pi)
    rows = rows[np.lexsort((s[rows], ang, oy, ox))]
    blocks = [rows[k:k + _BLOCK_ROWS] for k in range(0, len(rows), _BLOCK_ROWS)]
    hw = tpl.width_mm / 2.0
    hulls = []
    for g in blocks:
        far = x_first[g] + _EPS
        lo, hi = np.full(len(g), -hw - _EPS), np.full(len(g), hw + _EPS)
        near = np.full(len(g), -_EPS)
        local = np.stack((np.column_stack((near, far, far, near)), np.column_stack((lo, lo, hi, hi))), axis=-1)
        bx, by, ba = _frames(fam, fam_of[g], s[g])
        c, sn = np.cos(ba)[:, None], np.sin(ba)[:, None]
        x = bx[:, None] + local[:, :, 0] * c - local[:, :, 1] * sn
        y = by[:, None] + local[:, :, 0] * sn + local[:, :, 1] * c
        hulls.append(_hull(np.column_stack((x.ravel(), y.ravel()))))
    boxes = _piece_boxes(obst)
    tree = shapely.STRtree(shapely.box(boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]))
    which, piece = tree.query(np.array(hulls, dtype=object), predicate="intersects")
    order = np.lexsort((piece, which))
    which, piece = which[order], piece[order]
    cuts = np.searchsorted(which, np.arange(len(blocks) + 1))
    return [(g, _subset(obst, piece[cuts[k]:cuts[k + 1]])) for k, g in enumerate(blocks)]


def _best(ev: _Evaluated, fam: _Families, tall: Mask) -> int:
    """Index of the best placement: not blocked, no cover, largest margin, nearest the edge's middle."""
    blocked = (ev.hits & tall[None, :]).any(axis=1)
    cover = ev.hits.any(axis=1)
    mid = np.abs(ev.s - fam.s_mid[ev.fam_of])
    order = np.lexsort((ev.fam_of, mid, -np.round(ev.margin, 6), cover, blocked))
    return int(order[0])


def _placement(q: _Query, fam: _Families, f: int, s: float, x_first: float | None
               ) -> tuple[Pose, Polygon, Polygon | None]:
    ox, oy, ang = _frames(fam, np.array([f]), np.array([s]))
    pose = Pose(float(ox[0]), float(oy[0]), normalise_deg(math.degrees(float(ang[0]))))
    poly = _placed(_template_ring(q.template), ox, oy, ang)[0]
    near_part = None
    if x_first is not None and x_first > _EPS:
        box = np.array([[[0.0, -_BIG], [x_first, -_BIG], [x_first, _BIG], [0.0, _BIG]]])
        cut = shapely.intersection(poly, _placed_many(box, ox, oy, ang)[0])
        near_part = cut if isinstance(cut, Polygon) and not cut.is_empty else None
    return pose, poly, near_part


def _out_of_range(q: _Query, fam: _Families) -> ShotResult:
    dist = _family_distance(fam, q)
    fam = _refine_fan(q, fam, dist, maximise=False)
    dist = _family_distance(fam, q)
    f = int(np.argmin(dist))
    one = fam.take(np.array([f]))
    s = np.linspace(float(one.s_lo[0]), float(one.s_hi[0]), 201)
    d = shapely.distance(_placed(_template_ring(q.template), *_frames(one, np.zeros(201, np.intp), s)),
                         q.target_poly)
    pose, poly, _ = _placement(q, one, 0, float(s[int(np.argmin(d))]), None)
    return ShotResult(False, False, False, (), (), pose, poly, None, -float(dist[f]))


def shoot(table: Table, attacker_id: str, target_id: str, range_name: str, arc: Arc,
          template_set: TemplateSet, indirect: bool = False) -> ShotResult:
    """Is ``target_id`` in ``arc`` and range of ``attacker_id``, targetable, in Cover? (p.28-30, p.42, p.87).

    ``range_name`` is a shooting template of ``template_set`` (``short``,
    ``medium``, ``long``, ``double``, ``small_burst``, ``large_burst``, p.27);
    ``arc`` is ``front``, ``rear``, ``side`` (either side) or ``turret``
    (360 degrees, also crew-fired weapons). The target may be a vehicle or an
    obstacle; the attacker is a vehicle (or, for ``turret``, an obstacle such
    as a sentry gun). ``indirect`` ignores Cover and Tall (p.82).
    Obstructions are the other vehicles (not airborne ones, p.70) and all
    obstacles including gate posts. An articulated vehicle (GEOMETRY.md 8,
    p.118) fires from the piece named (``VEHICLE`` its cab,
    ``VEHICLE.trailer`` its trailer), is a target with both pieces, and never
    gives itself or its target Cover.

    Raises ``KeyError`` for an unknown id or range, ``ValueError`` for an
    unknown arc, a piece shooting itself, or a fixed arc on an obstacle.
    """
    tpl = _template(template_set, range_name)
    if _surely_out(table, attacker_id, target_id, tpl, arc):
        return _OutOfRange(lambda: _query(table, attacker_id, target_id, range_name, arc, template_set, indirect))
    return _shoot(table, attacker_id, target_id, range_name, arc, template_set, indirect)


def _shoot(table: Table, attacker_id: str, target_id: str, range_name: str, arc: Arc,
           template_set: TemplateSet, indirect: bool) -> ShotResult:
    """:func:`shoot` past its quick "out of arc" test."""
    q = _query(table, attacker_id, target_id, range_name, arc, template_set, indirect)
    fmargin = _screened_margins(q, q.fam)
    if not np.isfinite(fmargin).any():
        return _OutOfRange(q)
    fam, refined = _refine_fan_scored(q, q.fam, fmargin, maximise=True)
    fmargin = np.concatenate((fmargin, refined))  # the refined corner direction (if any) joins the families
    finite = np.flatnonzero(np.isfinite(fmargin))
    fam, fmargin = fam.take(finite), fmargin[finite]
    margin_mm = float(fmargin.max())
    obst_idx, obst = _obstructions(q, attacker_id, fam)
    if not obst_idx and q.template.shape == "straight":
        # Nothing near any placement: no Cover and no Tall block (p.42, p.87), as every placement judged
        # would show; the best placement is found when first read.
        return _ClearLine(margin_mm, lambda: _result(q, fam, _evaluate(q, fam, obst_idx, obst), obst_idx,
                                                     margin_mm))
    squeeze = _squeezes(q, obst, near_target=True)
    if len(squeeze):
        squeeze = squeeze.take(np.flatnonzero(_may_touch(q, squeeze)))
        more = _margins(q, squeeze)
        touching = np.flatnonzero(np.isfinite(more))
        fam = fam.join(squeeze.take(touching))
        fmargin = np.concatenate((fmargin, more[touching]))

    def full() -> ShotResult:
        sample = _sample(q, _touching_span(q, fam), obst)
        return _result(q, fam, _evaluate(q, fam, obst_idx, obst, sample), obst_idx, margin_mm)

    if q.template.shape == "straight" and _clear_line_among_best(q, fam, fmargin, _best_sample(q, fam, fmargin, obst),
                                                                 obst, len(obst_idx)):
        return _ClearLine(margin_mm, full)
    return full()


def _surely_out(table: Table, attacker_id: str, target_id: str, tpl: ShootingTemplate, arc: str) -> bool:
    """A quick "out of arc and range" for a straight template in a fixed arc (p.29): every vertex of the
    target lies beyond one side of the rectangle that all the family's placements cover, by more than
    ``TOUCH_MM`` (and a rounding slack), so no placement touches it (:func:`_margins` finds none).

    False means only "not sure"; unusual queries (an obstacle firing, an unknown id) go the long way,
    which raises their errors. A handful of vertices: plain floats beat arrays here.
    """
    if tpl.shape != "straight" or arc not in ("front", "rear", "side"):
        return False
    try:
        v = table.piece(attacker_id)
        if v.owner == _owner(table, target_id):
            return False
        xy = _vertices_of(table.shape_of(target_id))
    except KeyError:
        return False
    slack, hw, length = _EPS + 1e-6, tpl.width_mm / 2.0, tpl.length_mm
    for ox, oy, ang, s_lo, s_hi, _ in _fixed_rows(v.pose, v.length_mm, v.width_mm, arc, tpl.near_width_mm):
        c, s = math.cos(ang), math.sin(ang)
        xs = [(px - ox) * c + (py - oy) * s for px, py in xy]
        ys = [(py - oy) * c - (px - ox) * s for px, py in xy]
        if not (max(xs) < -slack or min(xs) > length + slack or max(ys) < s_lo - hw - slack
                or min(ys) > s_hi + hw + slack):
            return False
    return True


def _vertices_of(poly: Polygon) -> list[tuple[float, float]]:
    """Every vertex of ``poly`` as float pairs, cached per polygon object."""
    out: list[tuple[float, float]] = _per_polygon(
        "vertices", poly, lambda p: [(float(x), float(y)) for x, y in shapely.get_coordinates(p)])
    return out


_PROBE_ROWS = 64
"""Sampled placements of the best families (by margin) looked at for a clear line before judging them all."""


def _best_sample(q: _Query, fam: _Families, fmargin: F64, obst: _Pieces) -> tuple[Idx, F64]:
    """The rows of ``_sample(q, _touching_span(q, fam), obst)`` that :func:`_clear_line_among_best` looks at
    (whole families, largest margin first, until :data:`_PROBE_ROWS` placements): the same values in the
    same order, with the offsets of those few families found instead of every family's.

    A family's offsets depend on that family alone. Each family has at least its distinct grid offsets
    (:func:`_offsets`), so taking families in that order until those reach :data:`_PROBE_ROWS` gives every
    family that will be chosen (and perhaps a few more, dropped once their offsets are known).
    """
    span = _touching_span(q, fam)
    order = np.argsort(-fmargin, kind="stable")
    width = span.s_hi - span.s_lo
    grid = np.maximum(2, np.ceil(width / GRID_STEP_MM).astype(np.intp) + 1)
    least = np.where(width > 1e-6, grid, 1)[order]  # distinct grid offsets: never merged as duplicates
    enough = int(np.searchsorted(np.cumsum(least), _PROBE_ROWS)) + 1
    take = np.sort(order[:enough])
    f_of, s = _sample(q, span.take(take), obst)
    f_of = take[f_of]
    counts = np.bincount(f_of, minlength=len(fam))
    upto = int(np.searchsorted(np.cumsum(counts[order]), _PROBE_ROWS)) + 1
    chosen = np.zeros(len(fam), dtype=bool)
    chosen[order[:upto]] = True
    keep = chosen[f_of]
    return f_of[keep], s[keep]


def _clear_line_among_best(q: _Query, fam: _Families, fmargin: F64, sample: tuple[Idx, F64], obst: _Pieces,
                           n_obst: int) -> bool:
    """Whether a sampled straight placement of the families with the largest margins touches the target with
    no obstruction reaching into its near part (then the answer has no Cover and no Tall block, whichever
    placement is best: :func:`_best` puts such a line first).

    Whole families are taken, largest margin first, until :data:`_PROBE_ROWS` placements; each is judged
    row by row exactly as :func:`_evaluate` judges it. False means only that none of these is clear.
    """
    fam_of, s = sample
    counts = np.bincount(fam_of, minlength=len(fam))
    order = np.argsort(-fmargin, kind="stable")
    upto = int(np.searchsorted(np.cumsum(counts[order]), _PROBE_ROWS)) + 1
    chosen = np.zeros(len(fam), dtype=bool)
    chosen[order[:upto]] = True
    rows = np.flatnonzero(chosen[fam_of])
    if len(rows) == 0:
        return False
    hw = q.template.width_mm / 2.0
    x_first = _band_first_touch(q, fam, fam_of[rows], s[rows], np.full(len(rows), -hw), np.full(len(rows), hw))
    ok = np.isfinite(x_first)
    if not ok.any():
        return False
    rows, x_first = rows[ok], x_first[ok]
    hits = _straight_hits(fam, fam_of[rows], s[rows], q.template, x_first, obst, n_obst)
    return bool((~hits.any(axis=1)).any())


def _target_disc(q: _Query) -> tuple[F64, float]:
    """The middle of the target's vertices and a radius (mm) about it holding the target grown by
    ``TOUCH_MM`` (and a rounding slack), cached per target outline object."""
    def make(_: Polygon) -> tuple[F64, float]:
        xy = q.target.xy
        m = _frozen(xy.mean(axis=0))
        return m, float(np.sqrt(((xy - m) ** 2).sum(axis=1)).max()) + _EPS + 1e-6
    out: tuple[F64, float] = _per_polygon("disc", q.target_poly, make)
    return out


def _may_touch(q: _Query, fam: _Families) -> Mask:
    """False for straight-template families that certainly never touch the target (a bounding-disc test).

    Those have no finite margin; dropping them first changes nothing else.
    """
    m, r = _target_disc(q)
    c, sn = np.cos(fam.ang), np.sin(fam.ang)
    dx, dy = m[0] - fam.ox, m[1] - fam.oy
    along, across = dx * c + dy * sn, dy * c - dx * sn
    hw = q.template.width_mm / 2.0
    out: Mask = ((along >= -r) & (along <= q.template.length_mm + r) & (across >= fam.s_lo - hw - r)
                 & (across <= fam.s_hi + hw + r))
    return out


def _near_target(q: _Query, a: F64, side: F64, sin_a: F64, cos_a: F64) -> Mask:
    """False for squeeze directions whose families :func:`_may_touch` would certainly drop, whatever the corner.

    ``a`` holds the vertices on a side line, ``side`` that line's offset from
    the axis (``+-w/2``, one per variant), ``sin_a``, ``cos_a`` the directions
    (variant, pair). Across the axis, the target's middle less the family's
    offset is ``(m - a) . n + side`` for every corner; along it, the corners
    differ by at most their radius about their middle. The bounding-disc test
    of :func:`_may_touch`, widened by that radius and a rounding slack, so it
    discards only directions :func:`_may_touch` drops for every corner.
    """
    assert q.corners is not None
    m, r = _target_disc(q)
    cc = q.corners.mean(axis=0)
    rc = float(np.sqrt(((q.corners - cc) ** 2).sum(axis=1)).max())
    dx, dy = float(m[0] - cc[0]), float(m[1] - cc[1])
    along = dx * cos_a + dy * sin_a
    lim = q.template.length_mm + r + rc + 1e-6
    across = (m[1] - a[:, 1])[None, :] * cos_a - (m[0] - a[:, 0])[None, :] * sin_a + side[:, None]
    out: Mask = ((along >= -(r + rc + 1e-6)) & (along <= lim)
                 & (np.abs(across) <= q.template.width_mm / 2.0 + r + 1e-6))
    return out


_PAIR_CHUNK = 20_000
"""Vertex pairs weighed at once by :func:`_squeezes` (its arrays are a few times 16 by this)."""


def squeeze_pairs(pts: F64, owner: Idx, width_mm: float, length_mm: float) -> Iterator[tuple[Idx, Idx]]:
    """Pairs ``(i, j)`` of vertices of different obstructions (``owner[i] < owner[j]``) that can lie one
    on each side line of a straight template ``width_mm`` wide, both within its ``length_mm``: from
    ``width_mm`` to ``hypot(width_mm, length_mm)`` apart. Yielded in blocks, in order of ``i`` then
    ``j``; found with a spatial index, so their number, not the square of the vertices', sets the cost,
    and only a block is held at once."""
    if len(pts) < 2:
        return
    points = shapely.points(pts)
    reach = math.hypot(width_mm, length_mm) + 1e-6
    tree = shapely.STRtree(points)
    step = max(1, _CHUNK_ELEMENTS // len(pts))
    for a in range(0, len(pts), step):
        i, j = tree.query(points[a:a + step], predicate="dwithin", distance=reach)
        i = i + a
        keep = owner[i] < owner[j]
        i, j = i[keep], j[keep]
        d = pts[i] - pts[j]
        keep = np.hypot(d[:, 0], d[:, 1]) >= width_mm
        i, j = i[keep], j[keep]
        order = np.lexsort((j, i))
        for c in range(0, len(order), _PAIR_CHUNK):
            part = order[c:c + _PAIR_CHUNK]
            yield i[part].astype(np.intp), j[part].astype(np.intp)


def _squeezes(q: _Query, obst: _Pieces, max_vertices: int = 12, near_target: bool = False) -> _Families:
    """360-degree placements that fit a straight template exactly between two obstructions.

    For each corner of the firer and each pair of vertices ``a``, ``b`` of
    different obstructions that can both lie on the template's side lines
    (:func:`squeeze_pairs`), the direction in which ``a`` and ``b`` lie exactly
    one template width apart across the axis, with ``a`` on one side line and
    the near edge still touching the corner. The sampled fans would miss such a
    gap; the fixed arcs find theirs among the critical offsets.

    With ``near_target`` the directions :func:`_near_target` rules out are
    skipped first: the families left out are only ones :func:`_may_touch`
    drops, and the rest come in the same order. Pairs are weighed
    :data:`_PAIR_CHUNK` at a time.
    """
    if q.corners is None or q.fans is None or q.template.shape != "straight" or q.indirect or \
            len(np.unique(obst.owner)) < 2:  # a pair is of two different obstructions
        return _families_from([])
    sizes = np.diff(np.append(obst.starts, obst.xy.shape[0]))
    small = np.repeat(sizes <= max_vertices, sizes)
    owner = np.repeat(obst.owner, sizes)[small]
    pts = obst.xy[small]
    w, half_near = q.template.width_mm, q.template.near_width_mm / 2.0
    signs = np.array([1.0, 1.0, -1.0, -1.0])
    corners = q.corners
    found_v, found_k, found_p, found_th, found_s = [], [], [], [], []
    a0 = np.array([f[0] for f in q.fans])
    sweep = np.array([f[1] for f in q.fans])
    start = 0
    for i, j in squeeze_pairs(pts, owner, w, q.template.length_mm):
        d = pts[i] - pts[j]
        rho = np.hypot(d[:, 0], d[:, 1])
        phi = np.arctan2(d[:, 1], d[:, 0])
        thetas, sines, cosines = [], [], []
        ux, uy = d[:, 0] / rho, d[:, 1] / rho  # cos(phi), sin(phi)
        for sign in (1.0, -1.0):
            sb = sign * w / rho
            base = np.arcsin(sb)
            cb = np.sqrt(np.maximum(1.0 - sb * sb, 0.0))
            thetas += [phi - base, phi - (math.pi - base)]  # (a - b) . v = sign * w
            # sin and cos of both (phi - base and phi - pi + base), without the transcendental functions
            sines += [uy * cb - ux * sb, -(uy * cb + ux * sb)]
            cosines += [ux * cb + uy * sb, -(ux * cb - uy * sb)]
        theta = np.stack(thetas)  # (variant, pair)
        # A conservative screen on the lateral offset (to 1e-6 mm) before the exact test below.
        sin_a, cos_a = np.stack(sines), np.stack(cosines)
        if near_target:  # the same screen, on the directions near the target only
            vv, pp = np.nonzero(_near_target(q, pts[i], signs * w / 2.0, sin_a, cos_a))
            sf, cf = sin_a[vv, pp], cos_a[vv, pp]
            y0f = -pts[i[pp], 0] * sf + pts[i[pp], 1] * cf
            approx_f = (y0f[None, :] + corners[:, 0, None] * sf[None, :] - corners[:, 1, None] * cf[None, :]
                        - (signs * w / 2.0)[vv][None, :])
            k, e = np.nonzero(np.abs(approx_f) <= half_near + 1e-6)
            v, p = vv[e], pp[e]
        else:
            y0 = -pts[i, 0][None, :] * sin_a + pts[i, 1][None, :] * cos_a
            approx = (y0[:, None, :] + corners[None, :, 0, None] * sin_a[:, None, :]
                      - corners[None, :, 1, None] * cos_a[:, None, :] - (signs * w / 2.0)[:, None, None])
            v, k, p = np.nonzero(np.abs(approx) <= half_near + 1e-6)
        th = theta[v, p]
        # the direction must be in the corner's fan, and a on a side line with the near edge on the corner
        off = np.mod(th - a0[k], 2.0 * math.pi)
        inside = (off > 0.0) & (off < sweep[k])
        v, k, p, th = v[inside], k[inside], p[inside], th[inside]
        c = corners[k]
        ia = i[p]
        y_a = -(pts[ia, 0] - c[:, 0]) * np.sin(th) + (pts[ia, 1] - c[:, 1]) * np.cos(th)
        s_mid = y_a - signs[v] * w / 2.0  # a on one side line, b on the other
        keep = np.abs(s_mid) <= half_near
        found_v.append(v[keep])
        found_k.append(k[keep])
        found_p.append(p[keep] + start)
        found_th.append(th[keep])
        found_s.append(s_mid[keep])
        start += len(i)
    if not found_v:
        return _families_from([])
    v, k, p = np.concatenate(found_v), np.concatenate(found_k), np.concatenate(found_p)
    th, sm = np.concatenate(found_th), np.concatenate(found_s)
    order = np.lexsort((p, k, v))  # in the order variant, corner, pair
    k, th, sm = k[order], th[order], sm[order]
    c = corners[k]
    return _Families(c[:, 0].copy(), c[:, 1].copy(), th, sm, sm.copy(), sm.copy())


def _result(q: _Query, fam: _Families, ev: _Evaluated, obst_idx: list[int], margin_mm: float) -> ShotResult:
    prep = _prepared(q.table)
    tall = prep.tall[obst_idx] if obst_idx else np.zeros(0, dtype=bool)
    b = _best(ev, fam, tall)
    hit_ids = tuple(dict.fromkeys(prep.ids[obst_idx[k]] for k in np.flatnonzero(ev.hits[b])))
    blocked_by = tuple(dict.fromkeys(prep.ids[obst_idx[k]] for k in np.flatnonzero(ev.hits[b] & tall)))
    pose, poly, near_part = _placement(q, fam, int(ev.fam_of[b]), float(ev.s[b]), float(ev.x_first[b]))
    return ShotResult(True, not blocked_by, bool(hit_ids), hit_ids, blocked_by, pose, poly, near_part,
                      max(margin_mm, 0.0))


# --------------------------------------------------------------------------- area effects


def _in_range_ids(table: Table, centre_id: str, template_set: TemplateSet, range_name: str,
                  candidates: list[str]) -> tuple[str, ...]:
    out = []
    for cid in candidates:
        q = _query(table, centre_id, cid, range_name, "turret", template_set, True)
        if np.isfinite(_margins(q, q.fam)).any():
            out.append(cid)
            continue
        d = _family_distance(q.fam, q)
        if float(_family_distance(_refine_fan(q, q.fam, d, False), q).min()) <= _EPS:
            out.append(cid)
    return tuple(out)


def within_range(table: Table, centre_id: str, template_set: TemplateSet, range_name: str = "medium"
                 ) -> tuple[str, ...]:
    """Ids of every vehicle and obstacle within ``range_name`` of ``centre_id`` in a 360-degree arc.

    Used for explosions and similar effects (p.44): the 360-degree placement
    (p.30) of the template must touch the piece; Cover does not matter. The
    centre may be a vehicle or an obstacle (its convex hull is used). Vehicles
    come first, in table order, then obstacles and gate posts. Raises
    ``KeyError`` for an unknown id or range.
    """
    ids = [v.id for v in table.vehicles] + [o.id for o in table.all_obstacles]
    mine = _owner(table, centre_id)
    return _in_range_ids(table, centre_id, template_set, range_name, [i for i in ids if i != mine])


def under_template(table: Table, polygon: Polygon) -> tuple[str, ...]:
    """Ids of every vehicle touching a placed template ``polygon`` (table frame, mm), in table order.

    A Splash weapon attacks each of them (p.82). Touching means a distance of
    at most ``TOUCH_MM``.
    """
    if not table.vehicles:
        return ()
    pieces = table.pieces
    feet = np.array([v.footprint for v in pieces], dtype=object)
    near = shapely.distance(feet, polygon) <= _EPS
    return tuple(dict.fromkeys(v.owner for v, ok in zip(pieces, near, strict=True) if ok))
