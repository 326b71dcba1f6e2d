"""Paths of constant curvature: template centre lines and vehicle paths.

A :class:`Path` is a chain of :class:`Segment` values. ``drive`` segments move
the centre along a line or circular arc with the heading on the tangent;
``shift`` segments translate the centre sideways with the heading fixed (a
Slide, GEOMETRY.md 4); ``pivot`` segments turn the pose about its centre (the
90-degree pivot of a Slide off a straight, p.50, or a Spin, p.24).

Every segment is parameterised from 0 to ``length``: millimetres for drive and
shift, degrees for pivot. ``travel_mm`` counts drive and shift millimetres only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from simulator.geometry.lazy import lazy_property
from simulator.geometry.pose import Pose, normalise_deg

SegmentKind = Literal["drive", "shift", "pivot"]


@dataclass(frozen=True)
class Segment:
    """One piece of a path.

    ``start``: the pose at parameter 0 (table or local frame, as the path).
    ``length``: mm for ``drive``/``shift``, degrees (signed, counter-clockwise
    positive) for ``pivot``. ``curvature_per_mm``: signed, counter-clockwise
    positive, ``drive`` only (0 for a straight). ``shift_deg``: the direction of
    a ``shift``. ``reverse``: the pose's heading is opposite to the direction of
    travel (a vehicle moving in reverse, p.39).
    """

    kind: SegmentKind
    start: Pose
    length: float
    curvature_per_mm: float = 0.0
    shift_deg: float = 0.0
    reverse: bool = False

    @property
    def travel_mm(self) -> float:
        """How far the centre moves along this segment."""
        return 0.0 if self.kind == "pivot" else abs(self.length)

    def pose_at(self, t: float) -> Pose:
        """The pose at parameter ``t`` (clamped to [0, length])."""
        t = min(max(t, 0.0), abs(self.length)) if self.kind != "pivot" else t
        s = self.start
        if self.kind == "pivot":
            return Pose(s.x_mm, s.y_mm, normalise_deg(s.heading_deg + t))
        if self.kind == "shift":
            rad = math.radians(self.shift_deg)
            return Pose(s.x_mm + math.cos(rad) * t, s.y_mm + math.sin(rad) * t, s.heading_deg)
        travel_deg = s.heading_deg + (180.0 if self.reverse else 0.0)
        th0 = math.radians(travel_deg)
        k = self.curvature_per_mm
        if abs(k) < 1e-12:
            x = s.x_mm + math.cos(th0) * t
            y = s.y_mm + math.sin(th0) * t
            return Pose(x, y, s.heading_deg)
        th = th0 + k * t
        x = s.x_mm + (math.sin(th) - math.sin(th0)) / k
        y = s.y_mm - (math.cos(th) - math.cos(th0)) / k
        return Pose(x, y, normalise_deg(s.heading_deg + math.degrees(k * t)))

    @property
    def end(self) -> Pose:
        """The pose at the end of the segment."""
        return self.pose_at(self.length if self.kind == "pivot" else abs(self.length))

    def speed_bound(self, reach_mm: float) -> float:
        """How fast any point within ``reach_mm`` of the centre can move per unit of parameter.

        Used by the contact search: a point moves at most ``speed_bound * dt``
        when the parameter advances by ``dt`` (mm per mm, or mm per degree).
        """
        if self.kind == "pivot":
            return math.radians(1.0) * reach_mm
        if self.kind == "shift":
            return 1.0
        return 1.0 + abs(self.curvature_per_mm) * reach_mm


@dataclass(frozen=True)
class Path:
    """A chain of segments; parameter runs from 0 to ``total`` across them.

    The parameter of a pivot segment counts its degrees, so ``total`` mixes
    units; use :attr:`travel_mm` for the distance the centre moves.
    """

    segments: tuple[Segment, ...]

    @property
    def start(self) -> Pose:
        """The first pose of the path."""
        return self.segments[0].start

    @property
    def end(self) -> Pose:
        """The last pose of the path."""
        return self.segments[-1].end

    @lazy_property
    def total(self) -> float:
        """Sum of the segments' parameter spans."""
        return sum(abs(seg.length) for seg in self.segments)

    @property
    def travel_mm(self) -> float:
        """Distance the centre moves over the whole path (pivots count 0)."""
        return sum(seg.travel_mm for seg in self.segments)

    def locate(self, u: float) -> tuple[int, float]:
        """Which segment holds global parameter ``u``, and the local parameter there."""
        remaining = min(max(u, 0.0), self.total)
        for index, seg in enumerate(self.segments):
            span = abs(seg.length)
            if remaining <= span or index == len(self.segments) - 1:
                return index, min(remaining, span)
            remaining -= span
        raise AssertionError("unreachable")

    def pose_at(self, u: float) -> Pose:
        """The pose at global parameter ``u`` in [0, total]."""
        index, t = self.locate(u)
        seg = self.segments[index]
        return seg.pose_at(math.copysign(t, seg.length) if seg.kind == "pivot" else t)

    def travel_at(self, u: float) -> float:
        """Distance the centre has moved when the parameter reaches ``u``."""
        index, t = self.locate(u)
        done = sum(seg.travel_mm for seg in self.segments[:index])
        return done + (0.0 if self.segments[index].kind == "pivot" else t)

    def pose_lists(self, n: int) -> tuple[list[float], list[float], list[float]]:
        """``x_mm``, ``y_mm`` and ``heading_deg`` of :meth:`pose_at` at ``total * i / n`` for ``i`` in 0..n.

        The same numbers as calling :meth:`pose_at` n + 1 times (the same
        arithmetic in the same order), without making a :class:`Pose` each.
        Remembered per ``n`` on the path (a move's gates and Finish Line read
        the same steps); each call returns fresh lists.
        """
        memo: dict[int, tuple[list[float], list[float], list[float]]] = self.__dict__.setdefault("_pose_lists_memo", {})
        hit = memo.get(n)
        if hit is None:
            hit = memo[n] = self._pose_lists(n)
        return list(hit[0]), list(hit[1]), list(hit[2])

    def _pose_lists(self, n: int) -> tuple[list[float], list[float], list[float]]:
        total = self.total
        segs = self.segments
        last = len(segs) - 1
        spans = [abs(seg.length) for seg in segs]
        # per segment, what pose_at works out the same way for every t: (kind, x, y, heading, span, a, b, k, c)
        consts: list[tuple[int, float, float, float, float, float, float, float, float]] = []
        for seg, span in zip(segs, spans, strict=True):
            s = seg.start
            if seg.kind == "pivot":
                consts.append((0, s.x_mm, s.y_mm, s.heading_deg, span, seg.length, 0.0, 0.0, 0.0))
            elif seg.kind == "shift":
                rad = math.radians(seg.shift_deg)
                consts.append((1, s.x_mm, s.y_mm, s.heading_deg, span, math.cos(rad), math.sin(rad), 0.0, 0.0))
            else:
                th0 = math.radians(s.heading_deg + (180.0 if seg.reverse else 0.0))
                k = seg.curvature_per_mm
                if abs(k) < 1e-12:
                    consts.append((1, s.x_mm, s.y_mm, s.heading_deg, span, math.cos(th0), math.sin(th0), 0.0, 0.0))
                else:
                    consts.append((2, s.x_mm, s.y_mm, s.heading_deg, span, math.sin(th0), math.cos(th0), k, th0))
        # which segment holds each step, and its local parameter: pose_at's arithmetic, step by step, as arrays
        # (the same IEEE operations on the same numbers)
        remaining = np.minimum(np.maximum(total * np.arange(n + 1, dtype=np.float64) / n, 0.0), total)
        local = np.empty(n + 1)
        holder = np.empty(n + 1, dtype=np.intp)
        open_ = np.ones(n + 1, dtype=bool)
        for index, span in enumerate(spans):
            here = open_ if index == last else open_ & (remaining <= span)
            local[here] = np.minimum(remaining[here], span)
            holder[here] = index
            open_ &= ~here
            remaining = remaining - span
        x_out, y_out, h_out = np.empty(n + 1), np.empty(n + 1), np.empty(n + 1)
        for index, (kind, x, y, h, span, a, b, k, th0) in enumerate(consts):
            rows = np.flatnonzero(holder == index)
            if not len(rows):
                continue
            t_here = local[rows]
            if kind == 1:  # a straight or a shift: x + a t, the heading fixed
                t_here = np.minimum(np.maximum(t_here, 0.0), span)
                x_out[rows] = x + a * t_here
                y_out[rows] = y + b * t_here
                h_out[rows] = h
                continue
            px: list[float] = []
            py: list[float] = []
            ph: list[float] = []
            for t in t_here.tolist():
                if kind == 0:
                    px.append(x)
                    py.append(y)
                    ph.append(normalise_deg(h + math.copysign(t, a)))
                    continue
                t = min(max(t, 0.0), span)
                th = th0 + k * t
                px.append(x + (math.sin(th) - a) / k)
                py.append(y - (math.cos(th) - b) / k)
                ph.append(normalise_deg(h + math.degrees(k * t)))
            x_out[rows], y_out[rows], h_out[rows] = px, py, ph
        return x_out.tolist(), y_out.tolist(), h_out.tolist()

    def sample(self, step: float = 2.0) -> list[Pose]:
        """Poses every ``step`` units of parameter, both ends included (for drawing and animation)."""
        n = max(1, math.ceil(self.total / step))
        return [Pose(x, y, h) for x, y, h in zip(*self.pose_lists(n), strict=True)]

    def points(self, step: float = 2.0) -> NDArray[np.float64]:
        """The centre's track as an ``(n, 2)`` array (the centres of :meth:`sample`)."""
        xs, ys, _ = self.pose_lists(max(1, math.ceil(self.total / step)))
        return np.column_stack((np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64)))


def truncated(path: Path, u: float) -> Path:
    """The part of ``path`` from its start to global parameter ``u``."""
    index, t = path.locate(u)
    head = list(path.segments[:index])
    seg = path.segments[index]
    if t > 0.0 or not head:
        length = math.copysign(t, seg.length) if seg.kind == "pivot" else t
        if index == len(path.segments) - 1 and length == seg.length and t > 0.0:
            return path  # the whole path: the cut would rebuild the very same segments
        head.append(Segment(seg.kind, seg.start, length, seg.curvature_per_mm, seg.shift_deg, seg.reverse))
    return Path(tuple(head))


def appended(path: Path, segment: Segment) -> Path:
    """``path`` followed by ``segment``."""
    return Path(path.segments + (segment,))
