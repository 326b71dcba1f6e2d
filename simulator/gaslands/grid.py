"""The Death Race Starting Grid (p.126): where the slots behind the Starting Line are, and which are open.

The grid is behind the Starting Line, as many columns wide as there are
players and as many ranks deep as it takes. Rank 0 touches the line: a
vehicle placed there has its front edge on the line, facing the race
direction. Vehicles keep a finger's width from each other on all sides
(p.126): columns are the widest vehicle plus :data:`FINGER_WIDTH_MM` apart,
ranks the longest vehicle plus the same gap. Slot ``r * columns + c`` is
column ``c`` (counted along the line from its first end) of rank ``r``.

Players fill the first rank before anyone uses the second (p.126); a slot
that no waiting vehicle fits in (an obstacle, the table edge) does not hold
a rank open. The Starting Line is the scenario's ``start`` line, facing the
side Gate 1 is on, or else the last gate of a loop in its own direction.

>>> line = StartingLine((0.0, -100.0), (0.0, 100.0), (1.0, 0.0))
>>> slot_pose(line, columns=2, slot=0, cell_width_mm=45.0, rank_depth_mm=75.0, length_mm=60.0)
Pose(x_mm=-30.0, y_mm=-22.5, heading_deg=0.0)
>>> current_rank_slots({0: "a"}, open_=lambda s: s != 2, columns=2, ranks=2)
(1,)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from simulator.gaslands.rule_numbers import RULES
from simulator.geometry.pose import Pose
from simulator.geometry.table import Table

FINGER_WIDTH_MM = RULES.starting_grid.finger_width_mm.value
"""The gap left on all sides of a vehicle on the Starting Grid: a finger's width (p.126)."""


@dataclass(frozen=True)
class StartingLine:
    """The Starting Line from ``a`` to ``b``; ``direction`` is the unit vector of the race direction."""

    a: tuple[float, float]
    b: tuple[float, float]
    direction: tuple[float, float]

    @property
    def heading_deg(self) -> float:
        """The heading of a vehicle facing the race direction."""
        return math.degrees(math.atan2(self.direction[1], self.direction[0])) % 360.0


def starting_line(table: Table) -> StartingLine | None:
    """The Starting Line of a race table (Death Race p.124, p.126; Street Race p.62), or None if it has neither a
    start line nor gates; it faces Gate 1, else the Finish Line."""
    gates = sorted(table.gates, key=lambda g: g.number)
    start = next((line for line in table.lines if line.kind == "start"), None)
    finish = next((line for line in table.lines if line.kind == "finish"), None)
    if start is not None:
        dx, dy = start.b[0] - start.a[0], start.b[1] - start.a[1]
        n = math.hypot(dx, dy)
        normal = (-dy / n, dx / n)
        mx, my = (start.a[0] + start.b[0]) / 2.0, (start.a[1] + start.b[1]) / 2.0
        ahead: tuple[float, float] | None = None
        if gates:
            g = gates[0]
            ahead = ((g.post_a[0] + g.post_b[0]) / 2.0, (g.post_a[1] + g.post_b[1]) / 2.0)
        elif finish is not None:  # a Street Race: the race runs towards the Finish Line (p.62)
            ahead = ((finish.a[0] + finish.b[0]) / 2.0, (finish.a[1] + finish.b[1]) / 2.0)
        if ahead is not None and (ahead[0] - mx) * normal[0] + (ahead[1] - my) * normal[1] < 0:
            normal = (-normal[0], -normal[1])
        return StartingLine(start.a, start.b, normal)
    if gates:
        last = gates[-1]
        return StartingLine(last.post_a, last.post_b, last.direction)
    return None


def slot_pose(line: StartingLine, columns: int, slot: int, cell_width_mm: float, rank_depth_mm: float,
              length_mm: float) -> Pose:
    """The pose of a vehicle ``length_mm`` long in ``slot``: front edge on its rank's front, centred in its column."""
    rank, column = divmod(slot, columns)
    mx, my = (line.a[0] + line.b[0]) / 2.0, (line.a[1] + line.b[1]) / 2.0
    ux, uy = line.b[0] - line.a[0], line.b[1] - line.a[1]
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n
    dx, dy = line.direction
    across = (column - (columns - 1) / 2.0) * cell_width_mm
    back = rank * rank_depth_mm + length_mm / 2.0
    return Pose(mx + ux * across - dx * back, my + uy * across - dy * back, line.heading_deg)


def ranks_needed(vehicles: int, columns: int, spare: int = 2) -> int:
    """Ranks to offer: enough for every vehicle, plus ``spare`` for slots an obstacle blocks."""
    return max(1, math.ceil(vehicles / max(1, columns))) + spare


def current_rank_slots(taken: Mapping[int, str], open_: Callable[[int], bool], columns: int,
                       ranks: int) -> tuple[int, ...]:
    """The open slots of the first rank that still has one (p.126: ranks are filled in order)."""
    for rank in range(ranks):
        slots = tuple(s for s in range(rank * columns, (rank + 1) * columns) if s not in taken and open_(s))
        if slots:
            return slots
    return ()
