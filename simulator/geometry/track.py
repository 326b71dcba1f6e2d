"""Checking a Death Race track layout (p.124-125).

Hard requirements make a track illegal; guidelines make it a worse race. The
Long Straight's length comes from the template set, so a measured set checks
against its own gate width.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import shapely
from shapely.geometry import LineString, Polygon

from simulator.geometry.table import Gate, Line, Table
from simulator.geometry.templates import TemplateSet

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
    """One thing the check found: ``error`` breaks a rule, ``warning`` a guideline; ``where`` names the gate(s)."""

    severity: Severity
    where: str
    message: str
    page: str

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
        out.append(Finding("error", "gates", f"{len(gates)} gates; a Death Race needs at least {MIN_GATES}", "p.124"))
    numbers = [g.number for g in gates]
    for n in sorted({n for n in numbers if numbers.count(n) > 1}):
        out.append(Finding("error", f"gate number {n}", "used by more than one gate", "p.124"))
    for g in gates:
        width = g.line.length
        if abs(width - long_mm) > WIDTH_TOLERANCE_MM:
            out.append(Finding("error", g.id, f"posts {width:.2f} mm apart; a gate is exactly a Long Straight "
                                              f"({long_mm:g} mm) wide", "p.124"))
        for post in g.posts():
            if not table.area.contains(post.polygon):
                out.append(Finding("error", post.id, "the post is not wholly on the table", "p.124"))
            for o in table.obstacles:
                if post.polygon.intersects(o.polygon):
                    out.append(Finding("error", post.id, f"the post overlaps obstacle {o.id}", "p.124"))
    for i, a in enumerate(gates):
        for b in gates[i + 1:]:
            d = a.line.distance(b.line)
            if d < MIN_SPACING_LONG_STRAIGHTS * long_mm - WIDTH_TOLERANCE_MM:
                out.append(Finding("error", f"{a.id}/{b.id}", f"{d:.1f} mm apart; gates stand at least a Long "
                                                             f"Straight ({long_mm:g} mm) apart", "p.124"))
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
                               "p.124"))
    for a, b in legs:
        a_line = a.line if isinstance(a, Gate) else a.segment
        d = a_line.distance(b.line)
        if d > MAX_LEG_LONG_STRAIGHTS * long_mm:
            out.append(Finding("warning", f"{a.id}->{b.id}", f"{d:.0f} mm between the gates; keep gates within "
                                                           f"three Long Straights ({3 * long_mm:g} mm)", "p.125"))
        if b is gates[0]:
            lane = _corridor(a_line, b.line, 0.0)
            on_leg = [o.id for o in table.obstacles if o.polygon.intersects(lane)]
            if on_leg:
                out.append(Finding("warning", f"{a.id}->{b.id}", "the run from the Starting Line to Gate 1 should "
                                                               f"be an easy drive; in the way: {', '.join(on_leg)}",
                                   "p.125"))
        elif not any(o.polygon.intersects(_corridor(a_line, b.line, long_mm / 2.0)) for o in table.obstacles):
            out.append(Finding("warning", f"{a.id}->{b.id}", "no obstacle on this leg of the track", "p.125"))
    return out
