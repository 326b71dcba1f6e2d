"""What counts as the movement template, and what interrupts a move (p.45, p.50; GEOMETRY.md 3-4).

With a Slide the movement template is the template up to the Slide Exit Point plus the Slide
template: their exact union, never a convex hull. An obstruction clear of both templates and of
the Final Position never interrupts a move (p.45), whatever the vehicle's body would clip (p.47).
"""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import MultiPolygon, Point

from simulator.geometry.dropped import move_area
from simulator.geometry.movement import resolve_move
from simulator.geometry.placement import Move, place
from simulator.geometry.pose import Pose, footprint, half_diagonal_mm
from simulator.geometry.table import Obstacle, Table, VehiclePiece
from simulator.geometry.templates import MOVEMENT_NAMES, circle_polygon, load_template_set

TS = load_template_set()
ARCS = ("gentle", "turn", "hard", "hairpin")


@pytest.mark.parametrize("template", ARCS)
def test_slide_off_an_arc_is_the_exact_union_p50(template: str) -> None:
    placed = place(TS, Pose(300.0, 300.0, 0.0), 60.0, 30.0, Move(template, "right", slide=True))
    part, slide = placed.movement_parts
    union = placed.movement_polygon
    # the two parts meet at the Slide Exit Point only: two pieces, no area between them
    assert isinstance(union, MultiPolygon) and len(union.geoms) == 2
    assert union.area == pytest.approx(part.area + slide.area, rel=1e-9)
    assert union.area < union.convex_hull.area - 100.0  # the hull would add at least 1 cm^2
    ex, ey = placed.slide_exit[2]
    assert part.distance(Point(ex, ey)) < 1e-6 and slide.distance(Point(ex, ey)) < 1e-6


def test_slide_off_a_straight_is_one_rectangle_p50() -> None:
    placed = place(TS, Pose(300.0, 300.0, 0.0), 60.0, 30.0, Move("short_straight", slide=True, slide_facing="left"))
    union = placed.movement_polygon
    assert union.geom_type == "Polygon"
    assert union.bounds == pytest.approx((330.0, 282.5, 440.0, 317.5))  # 60 + 50 long, 35 wide


def test_no_slide_is_the_whole_template() -> None:
    placed = place(TS, Pose(300.0, 300.0, 0.0), 60.0, 30.0, Move("turn", "left"))
    assert placed.movement_polygon is placed.template_polygon
    assert placed.movement_parts == (placed.template_polygon,)


def test_dropped_weapon_area_has_no_hull() -> None:
    placed = place(TS, Pose(300.0, 300.0, 0.0), 60.0, 30.0, Move("hairpin", "right", slide=True))
    area = move_area(placed.movement_polygon, placed.final_position, 60.0, 30.0)
    expected = shapely.union(placed.movement_polygon, footprint(placed.final_position, 60.0, 30.0))
    assert area.area == pytest.approx(expected.area)
    assert not area.contains(Point(389.5, 296.5))  # in the hull of the templates, in neither


def _clear(obstacle: shapely.Geometry, *shapes: shapely.Geometry) -> bool:
    return all(obstacle.distance(s) > 0.02 for s in shapes)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(template=st.sampled_from(MOVEMENT_NAMES), direction=st.sampled_from(["left", "right"]),
       reverse=st.booleans(), slide=st.booleans(), facing=st.sampled_from(["left", "right"]),
       heading=st.floats(0.0, 360.0), near_exit=st.booleans(),
       u=st.floats(0.0, 1.0), v=st.floats(0.0, 1.0), radius=st.floats(0.5, 12.0))
def test_an_obstacle_clear_of_templates_and_final_position_never_interrupts(
        template: str, direction: str, reverse: bool, slide: bool, facing: str, heading: float,
        near_exit: bool, u: float, v: float, radius: float) -> None:
    """p.45: only the movement template (with a Slide: the template up to the exit and the Slide
    template, p.50) and the Final Position decide whether a move is interrupted; sliding off a
    straight, also the 90-degree pivot (kept clear here by a disc around the pivot)."""
    move = Move(template, direction, reverse, slide, facing)  # type: ignore[arg-type]
    mover = VehiclePiece("car", "car", Pose(600.0, 450.0, heading), 60.0, 30.0)
    placed = place(TS, mover.pose, 60.0, 30.0, move)
    final_fp = footprint(placed.final_position, 60.0, 30.0)
    if near_exit and slide:
        ex, ey = placed.slide_exit[2]
        cx, cy = ex - 40.0 + 80.0 * u, ey - 40.0 + 80.0 * v
    else:
        x0, y0, x1, y1 = shapely.union(placed.movement_polygon, final_fp).bounds
        cx, cy = x0 - 20.0 + (x1 - x0 + 40.0) * u, y0 - 20.0 + (y1 - y0 + 40.0) * v
    pebble = circle_polygon(cx, cy, radius)
    assume(_clear(pebble, *placed.movement_parts, final_fp))
    if slide and TS.template(template).shape == "straight":
        at = placed.slide_exit[0]
        assume(pebble.distance(Point(at.x_mm, at.y_mm)) > half_diagonal_mm(60.0, 30.0) + 0.02)
    table = Table(1200.0, 900.0, (mover,), (Obstacle("pebble", pebble),))
    result = resolve_move(table, "car", move, TS)
    assert not result.interrupted
    assert result.collisions == ()
    end = placed.final_position
    assert math.dist((result.final.x_mm, result.final.y_mm), (end.x_mm, end.y_mm)) < 1e-6
