"""Interrupted Movement and collisions (p.45-54; GEOMETRY.md 4-5)."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from simulator.geometry.contact import overlaps, touches
from simulator.geometry.movement import resolve_move
from simulator.geometry.placement import Move
from simulator.geometry.pose import Pose
from simulator.geometry.table import Obstacle, Table, VehiclePiece
from simulator.geometry.templates import MOVEMENT_NAMES, load_template_set

TS = load_template_set()


def car(vid: str, x: float, y: float, h: float, **kw: object) -> VehiclePiece:
    return VehiclePiece(vid, "car", Pose(x, y, h), 60.0, 30.0, **kw)  # type: ignore[arg-type]


def wall(oid: str, x0: float, y0: float, x1: float, y1: float, **kw: object) -> Obstacle:
    return Obstacle(oid, box(x0, y0, x1, y1), **kw)  # type: ignore[arg-type]


def test_wall_head_on_exact_contact_p45() -> None:
    table = Table(1200, 900, (car("red", 300, 200, 90),), (wall("wall", 250, 400, 350, 420),))
    r = resolve_move(table, "red", Move("long_straight"), TS)
    assert r.interrupted and r.ended_interrupted
    assert r.final.y_mm == pytest.approx(370.0, abs=0.001)  # front edge exactly on y = 400
    assert [(c.with_id, c.orientation, c.active_edge, c.passive_edge) for c in r.collisions] == [
        ("wall", "head_on", "front", None)]


def test_thin_obstacle_is_not_stepped_over() -> None:
    # A 0.02 mm sliver across the path must still stop the car (GEOMETRY.md 4).
    table = Table(1200, 900, (car("red", 300, 200, 90),), (wall("sliver", 250, 350, 350, 350.02),))
    r = resolve_move(table, "red", Move("long_straight"), TS)
    assert r.final.y_mm == pytest.approx(320.0, abs=0.001)
    assert r.collisions and r.collisions[0].with_id == "sliver"


def test_touching_at_start_is_ignored_p45() -> None:
    # The car's left side touches a wall along x = 285; driving straight on is not interrupted.
    table = Table(1200, 900, (car("red", 300, 200, 90),), (wall("kerb", 270, 100, 285, 500),))
    r = resolve_move(table, "red", Move("medium_straight"), TS)
    assert r.ignored == ("kerb",)
    assert not r.interrupted and not r.collisions
    assert r.final == Pose(300, 380, 90)


def test_t_bone_into_side_p52() -> None:
    other = car("blue", 300, 330, 0)  # side along y = 315
    table = Table(1200, 900, (car("red", 300, 200, 90), other))
    r = resolve_move(table, "red", Move("medium_straight"), TS)
    assert r.final.y_mm == pytest.approx(285.0, abs=0.001)
    c = r.collisions[0]
    assert (c.with_id, c.orientation, c.active_edge, c.passive_edge) == ("blue", "t_bone", "front", "side")


def test_destructible_removed_and_move_resumes_p49() -> None:
    table = Table(1200, 900, (car("red", 300, 200, 90),),
                  (wall("crate", 280, 300, 320, 310, destructible=True, weight="lightweight"),))
    r = resolve_move(table, "red", Move("medium_straight"), TS)
    assert r.removed == ("crate",)
    assert [c.with_id for c in r.collisions] == ["crate"]
    assert r.final == pytest.approx(Pose(300, 380, 90))
    assert all(o.id != "crate" for o in r.table_after.obstacles)


def test_squeeze_past_p47() -> None:
    # A 50 mm wide vehicle; posts clip its body but not the 35 mm template nor the Final Position.
    wide = VehiclePiece("rig", "truck", Pose(300, 100, 90), 60.0, 50.0)
    posts = (wall("p1", 320, 200, 330, 210), wall("p2", 270, 200, 280, 210))
    table = Table(1200, 900, (wide,), posts)
    r = resolve_move(table, "rig", Move("long_straight"), TS)
    assert not r.interrupted and not r.collisions
    assert r.final == pytest.approx(Pose(300, 100 + 30 + 182 + 30, 90))


def test_table_edge_disqualifies_p87() -> None:
    table = Table(1200, 900, (car("red", 300, 800, 90),))
    assert resolve_move(table, "red", Move("long_straight"), TS).disqualified
    assert not resolve_move(table, "red", Move("short_straight", reverse=True), TS).disqualified


def test_spin_stops_at_first_contact_p24() -> None:
    # After a Short Straight the car is at (300, 320) facing +y; a block to its right stops the Spin.
    table = Table(1200, 900, (car("red", 300, 200, 90),), (wall("block", 330, 330, 360, 360),))
    r = resolve_move(table, "red", Move("short_straight", spin_deg=-90), TS)
    assert not r.interrupted
    assert -90 < (r.final.heading_deg - 90.0) < 0
    assert touches(r.table_after.vehicle("red").footprint, table.obstacle("block").polygon)
    assert r.collisions and r.collisions[0].during == "spin"


# ---------------------------------------------------------------- properties

coords = st.floats(150, 1050)


@st.composite
def scenes(draw: st.DrawFn) -> tuple[Table, Move]:
    me = car("me", draw(st.floats(400, 800)), draw(st.floats(300, 600)), draw(st.floats(0, 359)))
    obstacles = []
    for i in range(draw(st.integers(1, 6))):
        x, y = draw(coords), draw(coords) * 0.8
        w, h = draw(st.floats(2, 80)), draw(st.floats(2, 80))
        rock = Obstacle(f"o{i}", box(x, y, x + w, y + h), destructible=draw(st.booleans()))
        if not overlaps(me.footprint, rock.polygon):
            obstacles.append(rock)
    name = draw(st.sampled_from(MOVEMENT_NAMES))
    move = Move(name, draw(st.sampled_from(["left", "right"])), reverse=draw(st.booleans()))
    return Table(1200, 900, (me,), tuple(obstacles)), move


@settings(max_examples=60, deadline=None)
@given(scenes())
def test_never_ends_inside_an_obstruction(scene: tuple[Table, Move]) -> None:
    table, move = scene
    r = resolve_move(table, "me", move, TS)
    end = r.table_after.vehicle("me").footprint
    for o in r.table_after.all_obstacles:
        assert not overlaps(end, o.polygon), o.id
    for c in r.collisions:  # an Interrupted Final Position touches what it hit
        if c.with_id not in r.removed and c.during == "move":
            assert touches(end, table.obstacle(c.with_id).polygon)


def rigid(frame: Pose, p: Pose) -> Pose:
    x, y = frame.offset(p.x_mm, p.y_mm)
    return Pose(x, y, p.heading_deg + frame.heading_deg).normalised()


def moved_table(table: Table, frame: Pose) -> Table:
    def poly(p: Polygon) -> Polygon:
        return Polygon([frame.offset(x, y) for x, y in p.exterior.coords])

    vs = tuple(VehiclePiece(v.id, v.type, rigid(frame, v.pose), v.length_mm, v.width_mm) for v in table.vehicles)
    os_ = tuple(Obstacle(o.id, poly(o.polygon), destructible=o.destructible) for o in table.obstacles)
    return Table(10_000, 10_000, vs, os_)


@settings(max_examples=40, deadline=None)
@given(scenes(), st.floats(0, 359), st.floats(-300, 300), st.floats(-300, 300))
def test_answers_survive_rigid_motion(scene: tuple[Table, Move], turn: float, dx: float, dy: float) -> None:
    table, move = scene
    here = resolve_move(Table(10_000, 10_000, table.vehicles, table.obstacles), "me", move, TS)
    frame = Pose(dx + 3000, dy + 3000, turn)
    there = resolve_move(moved_table(table, frame), "me", move, TS)
    expect = rigid(frame, here.final)
    assume(not here.collisions or here.collisions[0].with_id != "")
    assert math.hypot(expect.x_mm - there.final.x_mm, expect.y_mm - there.final.y_mm) <= 0.01
    assert [c.with_id for c in here.collisions] == [c.with_id for c in there.collisions]
    assert here.interrupted == there.interrupted


def test_flip_forced_move_ignores_obstructions_p35() -> None:
    # A Flip: Medium Straight ignoring everything; the Final Position (y 290..350 centre 320... here
    # the car ends at 380) overlaps a rock at y 360..400 and is moved back until clear (p.121).
    table = Table(1200, 900, (car("red", 300, 200, 90),), (wall("rock", 250, 250, 350, 260), wall("r2", 280, 400, 320, 430)))
    r = resolve_move(table, "red", Move("medium_straight"), TS, ignore_obstructions=True)
    assert not r.interrupted and not r.collisions
    assert r.final.y_mm == pytest.approx(370.0, abs=0.002)  # front edge backed off to the rock at y = 400


def mirror_pose(p: Pose) -> Pose:
    return Pose(-p.x_mm, p.y_mm, 180.0 - p.heading_deg).normalised()


@settings(max_examples=40, deadline=None)
@given(scenes())
def test_left_right_mirror_symmetry(scene: tuple[Table, Move]) -> None:
    # Mirror the whole table about x = 0: a right move becomes the left one (p.16).
    table, move = scene
    assume(TS.movement[move.template].shape != "straight")
    big = Table(10_000, 10_000, table.vehicles, table.obstacles)
    mirrored = Table(10_000, 10_000,
                     tuple(VehiclePiece(v.id, v.type, mirror_pose(v.pose), v.length_mm, v.width_mm) for v in table.vehicles),
                     tuple(Obstacle(o.id, Polygon([(-x, y) for x, y in o.polygon.exterior.coords]),
                                    destructible=o.destructible) for o in table.obstacles))
    here = resolve_move(big, "me", move, TS)
    other = Move(move.template, "left" if move.direction == "right" else "right", reverse=move.reverse)
    there = resolve_move(mirrored, "me", other, TS)
    expect = mirror_pose(here.final)
    assert math.hypot(expect.x_mm - there.final.x_mm, expect.y_mm - there.final.y_mm) <= 0.01
    assert [c.with_id for c in here.collisions] == [c.with_id for c in there.collisions]


def test_spin_never_turns_into_what_it_started_touching_p24() -> None:
    # After a Short Straight the car (300, 320) facing +y has its right side on x = 315, flush
    # against a block; a clockwise Spin would swing its front-right corner into the block.
    table = Table(1200, 900, (car("red", 300, 200, 90),), (wall("block", 315, 300, 340, 340),))
    r = resolve_move(table, "red", Move("short_straight", spin_deg=-45), TS)
    end = r.table_after.vehicle("red").footprint
    assert not overlaps(end, table.obstacle("block").polygon)
    assert r.final.heading_deg == pytest.approx(90.0, abs=0.5)
