"""The exact contact search against a plain stepping reference (GEOMETRY.md 4).

:func:`first_contact` solves each path segment in closed form. Here it is
checked against the simplest possible method: step along the path in 0.05 mm
(0.05 degree) steps and stop before the first pose whose footprint comes within
0.0001 mm of an obstruction (shapely distances, nothing clever). The fast answer
may never be later than the reference's first contact, and never earlier than
the pose one step before it; so the two agree to within the reference's step.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from simulator.geometry.contact import overlaps
from simulator.geometry.movement import _first_contact_stepping, _Shapes, first_contact, obstructions_for
from simulator.geometry.path import Path, Segment
from simulator.geometry.placement import Move, place
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.table import Obstacle, Table, VehiclePiece
from simulator.geometry.templates import MOVEMENT_NAMES, load_template_set

TS = load_template_set()
STEP = 0.05
TARGET = 1e-4


def reference_contact(path: Path, vehicle: VehiclePiece, shapes: list[Polygon]) -> tuple[float, float] | None:
    """(last clear parameter, first parameter in contact) by plain stepping, or None without contact."""
    n = max(1, math.ceil(path.total / STEP))
    previous = 0.0
    for i in range(n + 1):
        u = path.total * i / n
        fp = footprint(path.pose_at(u), vehicle.length_mm, vehicle.width_mm)
        if any(fp.distance(s) <= TARGET for s in shapes):
            return previous, u
        previous = u
    return None


def sliver(x: float, y: float, angle_deg: float, length: float) -> Polygon:
    """A thin obstacle (0.2 mm thick) that a coarse search could step over."""
    a = math.radians(angle_deg)
    dx, dy, nx, ny = math.cos(a), math.sin(a), -math.sin(a) * 0.2, math.cos(a) * 0.2
    return Polygon([(x, y), (x + dx * length, y + dy * length), (x + dx * length + nx, y + dy * length + ny),
                    (x + nx, y + ny)])


@st.composite
def scenes(draw: st.DrawFn) -> tuple[Table, Path]:
    me = VehiclePiece("me", "car", Pose(draw(st.floats(450, 550)), draw(st.floats(450, 550)),
                                        draw(st.floats(0, 359.9))), draw(st.sampled_from([60.0, 45.0])),
                      draw(st.sampled_from([30.0, 20.0])))
    obstacles = []
    for i in range(draw(st.integers(1, 5))):
        x, y = draw(st.floats(300, 700)), draw(st.floats(300, 700))
        kind = draw(st.sampled_from(["box", "sliver", "star"]))
        if kind == "box":
            shape = box(x, y, x + draw(st.floats(0.5, 60)), y + draw(st.floats(0.5, 60)))
        elif kind == "sliver":
            shape = sliver(x, y, draw(st.floats(0, 180)), draw(st.floats(10, 120)))
        else:
            r = draw(st.floats(4, 30))
            k = draw(st.integers(5, 9))
            shape = Polygon([(x + r * (1.0 if j % 2 else 0.45) * math.cos(2 * math.pi * j / k),
                              y + r * (1.0 if j % 2 else 0.45) * math.sin(2 * math.pi * j / k)) for j in range(k)])
        if shape.is_valid and me.footprint.distance(shape) > 0.02 and not overlaps(me.footprint, shape):
            obstacles.append(Obstacle(f"o{i}", shape))
    if draw(st.booleans()):  # a wall alongside: grazing approaches
        side = draw(st.sampled_from([-1.0, 1.0]))
        gap = me.width_mm / 2.0 + draw(st.floats(0.02, 3.0))
        x, y = me.pose.offset(draw(st.floats(-30.0, 40.0)), side * gap)
        tilt = me.pose.heading_deg + draw(st.floats(-4.0, 4.0))
        wall = sliver(x, y, tilt, draw(st.floats(40, 200)))
        if wall.is_valid and me.footprint.distance(wall) > 0.02:
            obstacles.append(Obstacle("wall", wall))
    table = Table(1200, 1200, (me,), tuple(obstacles))
    if draw(st.integers(0, 4)) == 0:  # a Spin-like pivot about the centre
        path = Path((Segment("pivot", me.pose, draw(st.floats(-180.0, 180.0).filter(lambda d: abs(d) > 1))),))
    else:
        move = Move(draw(st.sampled_from(MOVEMENT_NAMES)), draw(st.sampled_from(["left", "right"])),
                    reverse=draw(st.booleans()), slide=draw(st.booleans()),
                    slide_facing=draw(st.sampled_from(["left", "right"])))
        path = place(TS, me.pose, me.length_mm, me.width_mm, move).path_before_spin
    return table, path


@settings(max_examples=120, deadline=None)
@given(scenes())
def test_exact_search_agrees_with_stepping(scene: tuple[Table, Path]) -> None:
    table, path = scene
    me = table.vehicle("me")
    items = obstructions_for(table, me)
    shapes = _Shapes(items)
    fast = first_contact(path, 0.0, path.total, me, shapes)
    slow = reference_contact(path, me, [o.shape for o in items])
    if slow is None:
        # no contact at any step; the fast search may only find one between steps (a graze)
        if fast is not None:
            fp = footprint(path.pose_at(fast), me.length_mm, me.width_mm)
            assert shapes.nearest(fp) <= TARGET * 1.01
        return
    clear, touching = slow
    assert fast is not None
    assert fast <= touching + 1e-9  # never later than the reference's first contact
    fp = footprint(path.pose_at(fast), me.length_mm, me.width_mm)
    assert TARGET * 0.5 <= shapes.nearest(fp) <= TARGET * 1.01  # in contact, not overlapping
    if fast < clear - 1e-9:
        return  # a graze between two of the reference's steps: a real contact it stepped past
    a, b = path.pose_at(fast), path.pose_at(touching)
    assert math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) <= STEP + 1e-6
    turn = max(STEP, math.degrees(STEP / 35.0))  # a pivot step, or a step on the tightest arc (Hairpin)
    assert abs((a.heading_deg - b.heading_deg + 180.0) % 360.0 - 180.0) <= turn + 1e-6


@settings(max_examples=60, deadline=None)
@given(scenes())
def test_exact_search_agrees_with_the_conservative_search(scene: tuple[Table, Path]) -> None:
    """The old conservative advancement stops within (0.00005, 0.0001] mm of contact; the exact search
    at the first 0.0001 mm, so no later and at most a graze earlier."""
    table, path = scene
    me = table.vehicle("me")
    shapes = _Shapes(obstructions_for(table, me))
    fast = first_contact(path, 0.0, path.total, me, shapes)
    slow = _first_contact_stepping(path, 0.0, path.total, me, shapes)
    if slow is None:
        if fast is not None:  # a graze between the old search's poses
            assert shapes.nearest(footprint(path.pose_at(fast), me.length_mm, me.width_mm)) <= TARGET * 1.01
        return
    assert fast is not None
    assert fast <= slow + 1e-9
    if slow - fast > 0.01:  # a different, earlier graze: it must be a real contact
        assert shapes.nearest(footprint(path.pose_at(fast), me.length_mm, me.width_mm)) <= TARGET * 1.01
