"""Shortcuts of the move resolution against the computations they skip (issue #13: pure speed-ups).

Every shortcut here either answers exactly as the full computation would or hands the question back to it;
these tests compare the two on many random inputs, so a later change cannot make them drift apart.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from simulator.geometry import movement
from simulator.geometry.movement import (
    _build_obstructions,
    _near_pivot,
    _pivot_region,
    _scene,
    _Shapes,
    obstructions_for,
    resolve_move,
)
from simulator.geometry.placement import Move
from simulator.geometry.pose import TOUCH_MM, Pose
from simulator.geometry.table import Gate, Obstacle, Table, VehiclePiece
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
