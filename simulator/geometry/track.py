"""Checking a Death Race track layout (p.124-125).

Hard requirements make a track illegal; guidelines make it a worse race. The
Long Straight's length comes from the template set, so a measured set checks
against its own gate width.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import shapely
import shapely.ops
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from simulator.geometry.table import Gate, Line, Table
from simulator.geometry.templates import TemplateSet
from simulator.vocab import plural

MIN_GATES = 3
"""A Death Race needs three or more gates (p.124)."""

MIN_SPACING_LONG_STRAIGHTS = 1.0
"""Gates stand at least one Long Straight from each other (p.124)."""

MAX_LEG_LONG_STRAIGHTS = 3.0
"""Guideline: consecutive gates no more than three Long Straights apart (p.125)."""

WIDTH_TOLERANCE_MM = 0.05

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Finding:
    """One thing the check found: ``error`` breaks a rule, ``warning`` a guideline; ``where`` names the gate(s);
    ``shape`` is where on the table it applies (a gate line, a post, a leg, the run to Gate 1), for drawing;
    None for the track as a whole."""

    severity: Severity
    where: str
    message: str
    page: str
    shape: BaseGeometry | None = field(default=None, compare=False)

    def render(self) -> str:
        """``error: gate-2: ... (p.124)``."""
        return f"{self.severity}: {self.where}: {self.message} ({self.page})"


def _centre(piece: Gate | Line) -> tuple[float, float]:
    a, b = (piece.post_a, piece.post_b) if isinstance(piece, Gate) else (piece.a, piece.b)
    return ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0)


def _corridor(a: LineString, b: LineString, spread_mm: float) -> Polygon:
    """The stretch of table a leg runs over: the hull of both gate lines, widened by ``spread_mm``."""
    hull = shapely.convex_hull(shapely.union(a, b)).buffer(spread_mm)
    assert isinstance(hull, Polygon)
    return hull


def check_track(table: Table, template_set: TemplateSet) -> list[Finding]:
    """Check ``table``'s gates against the Death Race rules and guidelines (p.124-125).

    Errors: fewer than three gates; a gate not exactly a Long Straight wide
    (within 0.05 mm); gate numbers repeated; two gates closer than a Long
    Straight; a gate or its posts off the table; a post overlapping an obstacle.
    Warnings: consecutive gates more than three Long Straights apart; a leg
    between consecutive gates with no obstacle within half a Long Straight of
    it; obstacles on the run to Gate 1. Gates are passed in number order and the
    last is the Finish Line; the first leg runs from it to Gate 1 (a loop, whose
    Starting Line is the finish gate, p.124). Returns the findings, errors first.
    """
    long_mm = template_set.movement["long_straight"].length_mm or 182.0
    gates = sorted(table.gates, key=lambda g: g.number)
    out: list[Finding] = []
    if len(gates) < MIN_GATES:
        out.append(Finding("error", "gates", f"{plural(len(gates), 'gate')}; a Death Race needs at least {MIN_GATES}", "p.124"))
    numbers = [g.number for g in gates]
    for n in sorted({n for n in numbers if numbers.count(n) > 1}):
        out.append(Finding("error", f"gate number {n}", "used by more than one gate", "p.124",
                           shapely.union_all([g.line for g in gates if g.number == n])))
    for g in gates:
        width = g.line.length
        if abs(width - long_mm) > WIDTH_TOLERANCE_MM:
            out.append(Finding("error", g.id, f"posts {width:.2f} mm apart; a gate is exactly a Long Straight "
                                              f"({long_mm:g} mm) wide", "p.124", g.line))
        for post in g.posts():
            if not table.area.contains(post.polygon):
                out.append(Finding("error", post.id, "the post is not wholly on the table", "p.124", post.polygon))
            for o in table.obstacles:
                if post.polygon.intersects(o.polygon):
                    out.append(Finding("error", post.id, f"the post overlaps obstacle {o.id}", "p.124",
                                       post.polygon))
    for i, a in enumerate(gates):
        for b in gates[i + 1:]:
            d = a.line.distance(b.line)
            if d < MIN_SPACING_LONG_STRAIGHTS * long_mm - WIDTH_TOLERANCE_MM:
                pa, pb = shapely.ops.nearest_points(a.line, b.line)
                out.append(Finding("error", f"{a.id}/{b.id}", f"{d:.1f} mm apart; gates stand at least a Long "
                                                             f"Straight ({long_mm:g} mm) apart", "p.124",
                                   shapely.union_all([a.line, b.line, LineString([pa, pb])]) if d > 0
                                   else shapely.union(a.line, b.line)))
    out += _guidelines(table, gates, long_mm)
    return sorted(out, key=lambda f: f.severity != "error")


def _guidelines(table: Table, gates: list[Gate], long_mm: float) -> list[Finding]:
    out: list[Finding] = []
    # gates are passed in number order; the last gate is the Finish Line and, on a loop, the Starting
    # Line too, so the first leg runs from the last gate to Gate 1 (or from a [[line]] kind "start")
    legs: list[tuple[Gate | Line, Gate]] = list(zip(gates, gates[1:], strict=False))
    start = next((ln for ln in table.lines if ln.kind == "start"), None)
    if gates and start is not None:
        legs.insert(0, (start, gates[0]))
    elif len(gates) >= MIN_GATES:
        legs.insert(0, (gates[-1], gates[0]))
    for a, b in legs:
        ax, ay = _centre(a)
        bx, by = _centre(b)
        dx, dy = b.direction
        if (bx - ax) * dx + (by - ay) * dy < 0:
            out.append(Finding("warning", f"{a.id}->{b.id}", f"{b.id} faces away from the way in from {a.id}: "
                                                           "cars must turn round to pass it the right way",
                               "p.124", b.line))
    for a, b in legs:
        a_line = a.line if isinstance(a, Gate) else a.segment
        d = a_line.distance(b.line)
        if d > MAX_LEG_LONG_STRAIGHTS * long_mm:
            out.append(Finding("warning", f"{a.id}->{b.id}", f"{d:.0f} mm between the gates; keep gates within "
                                                           f"three Long Straights ({3 * long_mm:g} mm)", "p.125",
                               LineString([_centre(a), _centre(b)])))
        if b is gates[0]:
            lane = _corridor(a_line, b.line, 0.0)
            on_leg = [o.id for o in table.obstacles if o.polygon.intersects(lane)]
            if on_leg:
                out.append(Finding("warning", f"{a.id}->{b.id}", "the run from the Starting Line to Gate 1 should "
                                                               f"be an easy drive; in the way: {', '.join(on_leg)}",
                                   "p.125", lane))
        elif not any(o.polygon.intersects(_corridor(a_line, b.line, long_mm / 2.0)) for o in table.obstacles):
            out.append(Finding("warning", f"{a.id}->{b.id}", "no obstacle on this leg of the track", "p.125",
                               _corridor(a_line, b.line, long_mm / 2.0)))
    out += _leaders_meet_laggards(gates, long_mm)
    return out


def _leaders_meet_laggards(gates: list[Gate], long_mm: float) -> list[Finding]:
    """Guideline (p.125): the leaders should come back past the laggards, as a figure of eight (legs that cross)
    or a tear-drop (the first and last legs running close) makes them. Legs run between the gates' middles;
    two legs that share no gate meet when they come within a Long Straight, two that share one when their
    middles are within two Long Straights. Warns when no two legs meet."""
    if len(gates) < MIN_GATES:
        return []
    loop = [*gates, gates[0]]
    legs = [LineString([_centre(a), _centre(b)]) for a, b in zip(loop, loop[1:], strict=False)]
    n = len(legs)
    for i in range(n):
        for j in range(i + 1, n):
            adjacent = j == i + 1 or (i == 0 and j == n - 1)
            if adjacent:
                if legs[i].interpolate(0.5, normalized=True).distance(
                        legs[j].interpolate(0.5, normalized=True)) <= 2.0 * long_mm:
                    return []
            elif legs[i].distance(legs[j]) <= long_mm:
                return []
    return [Finding("warning", "layout", "the leaders never come back past the laggards; a figure of eight or a "
                                         "tear-drop layout brings them together", "p.125",
                    shapely.union_all(legs))]
