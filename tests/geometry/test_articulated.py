"""The War Rig as a cab and a trailer (p.116-120; GEOMETRY.md 8): hitching, articulated movement, Back Her Up,
pivots about the rig's centre, the Swing Trailer and Collisions with either piece."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from simulator.geometry.articulated import (
    MAX_BEND_DEG,
    cab_pose,
    hitch_point,
    rig_centre,
    rotated,
    trailer_pose,
)
from simulator.geometry.contact import classify, overlaps, touches
from simulator.geometry.movement import resolve_move, resolve_pivot, swing_trailer
from simulator.geometry.placement import Move
from simulator.geometry.pose import Pose, angle_diff_deg
from simulator.geometry.table import Obstacle, Table, VehiclePiece
from simulator.geometry.templates import MOVEMENT_NAMES, load_template_set

TS = load_template_set()


def rig(x: float = 400.0, y: float = 300.0, h: float = 0.0, bend: float = 0.0, vid: str = "rig") -> VehiclePiece:
    """A War Rig: cab 80 x 50, trailer 150 x 50 (p.177)."""
    return VehiclePiece(vid, "war_rig", Pose(x, y, h), 80.0, 50.0, "heavyweight", trailer_length_mm=150.0,
                        trailer_width_mm=50.0, bend_deg=bend)


def car(vid: str, x: float, y: float, h: float) -> VehiclePiece:
    return VehiclePiece(vid, "car", Pose(x, y, h), 60.0, 30.0)


def wall(oid: str, x0: float, y0: float, x1: float, y1: float) -> Obstacle:
    return Obstacle(oid, box(x0, y0, x1, y1))


def close(a: Pose, b: Pose, mm: float = 1e-6, deg: float = 1e-6) -> bool:
    return (math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) <= mm
            and abs(angle_diff_deg(a.heading_deg, b.heading_deg)) <= deg)


# ---------------------------------------------------------------- the hitch


def test_trailer_hangs_from_the_hitch() -> None:
    # Cab at (400, 300) facing +x: its rear edge centre, the hitch, is (360, 300); a straight trailer's
    # centre is 75 further back, (285, 300); bent 90 degrees it points up and lies below the hitch.
    assert hitch_point(Pose(400, 300, 0), 80.0) == (360.0, 300.0)
    assert close(trailer_pose(Pose(400, 300, 0), 80.0, 150.0, 0.0), Pose(285, 300, 0))
    assert close(trailer_pose(Pose(400, 300, 0), 80.0, 150.0, 90.0), Pose(360, 225, 90))
    assert close(cab_pose(Pose(360, 225, 90), 80.0, 150.0, 90.0), Pose(400, 300, 0))
    piece = rig(bend=90.0).trailer
    assert piece is not None and piece.id == "rig.trailer" and piece.part_of == "rig"
    assert close(piece.pose, Pose(360, 225, 90))


def test_rig_centre_is_halfway_between_front_and_rear() -> None:
    # Straight: front edge centre (440, 300), trailer rear edge centre (210, 300): centre (325, 300).
    assert rig_centre(Pose(400, 300, 0), 80.0, 150.0, 0.0) == pytest.approx((325.0, 300.0))


def test_outline_covers_both_pieces() -> None:
    assert rig().outline.area == pytest.approx(80 * 50 + 150 * 50)
    table = Table(1200, 900, (rig(),))
    assert [p.id for p in table.pieces] == ["rig", "rig.trailer"]
    assert table.shape_of("rig").area == pytest.approx(11_500.0)
    assert table.shape_of("rig.trailer").area == pytest.approx(7_500.0)


# ---------------------------------------------------------------- articulated movement (p.118)


def test_short_straight_trailer_follows_in_line_p118() -> None:
    # The cab's front edge at 440; a Short Straight (60) puts its rear edge on 500: centre 540. The trailer
    # covers the whole template only in line: bend 0, centre 500 - 75 = 425.
    r = resolve_move(Table(1200, 900, (rig(),)), "rig", Move("short_straight"), TS)
    assert r.final == Pose(540, 300, 0)
    assert r.bend_deg == 0.0
    assert r.trailer is not None and close(r.trailer, Pose(425, 300, 0))
    assert r.to_json()["trailer"] == {"x_mm": 425.0, "y_mm": 300.0, "heading_deg": 0.0, "bend_deg": 0.0}


def test_a_straight_straightens_a_bent_trailer_p118() -> None:
    # A Long Straight (182) from a 40-degree bend: cab (662, 300); the template is covered most in line.
    r = resolve_move(Table(1200, 900, (rig(bend=40.0),)), "rig", Move("long_straight"), TS)
    assert r.final == Pose(662, 300, 0)
    assert r.bend_deg == 0.0
    assert r.trailer is not None and close(r.trailer, Pose(547, 300, 0))


def test_back_her_up_the_trailer_leads_in_reverse_p118() -> None:
    # Reversing, the trailer's rear (x 210) is the front: the Short Straight runs back to 150, where the
    # trailer's front edge ends (GEOMETRY.md 3, reverse): trailer centre 75; the cab follows in line, 190.
    r = resolve_move(Table(1200, 900, (rig(),)), "rig", Move("short_straight", reverse=True), TS)
    assert close(r.final, Pose(190, 300, 0))
    assert r.bend_deg == 0.0
    assert r.trailer is not None and close(r.trailer, Pose(75, 300, 0))
    assert r.travel_mm == pytest.approx(210.0)


def test_turns_bend_the_rig_towards_the_template() -> None:
    # After a right Turn the cab faces -y; the trailer lies back over the arc: bent anticlockwise.
    r = resolve_move(Table(1200, 900, (rig(),)), "rig", Move("turn", "right"), TS)
    assert r.final == Pose(515, 185, 270)  # as for any vehicle (tests/cases/move_final_turn)
    assert r.bend_deg is not None and 0.0 < r.bend_deg < MAX_BEND_DEG
    t = r.trailer
    assert t is not None
    assert t.y_mm > 185.0 and t.x_mm < 515.0


def test_the_trailer_covers_the_most_template_it_can() -> None:
    from simulator.geometry.placement import place
    from simulator.geometry.pose import footprint

    r = resolve_move(Table(1200, 900, (rig(),)), "rig", Move("gentle", "left"), TS)
    area = place(TS, rig().pose, 80.0, 50.0, Move("gentle", "left")).movement_polygon
    assert r.bend_deg is not None

    def cover(bend: float) -> float:
        return float(footprint(trailer_pose(r.final, 80.0, 150.0, bend), 150.0, 50.0).intersection(area).area)

    best = cover(r.bend_deg)
    for other in (r.bend_deg - 0.5, r.bend_deg - 0.01, r.bend_deg + 0.01, r.bend_deg + 0.5, 0.0, -30.0):
        assert cover(other) <= best + 1e-6


def test_spin_turns_both_pieces_about_the_rig_centre_p118() -> None:
    # After the Short Straight: front edge centre (580, 300), trailer rear (350, 300): centre (465, 300).
    # A quarter turn anticlockwise takes the cab's centre (540, 300) to (465, 375).
    r = resolve_move(Table(1200, 900, (rig(),)), "rig", Move("short_straight", spin_deg=90.0), TS)
    assert close(r.final, Pose(465, 375, 90))
    assert r.bend_deg == 0.0
    assert r.trailer is not None and close(r.trailer, Pose(465, 260, 90))


def test_pivot_turns_both_pieces_about_the_rig_centre_p118() -> None:
    p = resolve_pivot(Table(1200, 900, (rig(),)), "rig", 90.0)
    assert close(p.final, Pose(325, 375, 90))
    assert not p.stopped


def test_pivot_stops_when_the_cab_touches_a_wall() -> None:
    # Turning anticlockwise about (325, 300), the cab's front-left corner (115, 25 from the centre) rises:
    # it reaches y = 400 when 115 sin t + 25 cos t = 100.
    table = Table(1200, 900, (rig(),), (wall("wall", 0, 400, 1200, 420),))
    p = resolve_pivot(table, "rig", 90.0)
    expect = math.degrees(math.asin(100 / math.hypot(115, 25))) - math.degrees(math.atan2(25, 115))
    assert p.turned_deg == pytest.approx(expect, abs=1e-3)
    assert p.stopped
    assert [(c.with_id, c.part) for c in p.collisions] == [("wall", "cab")]
    assert close(p.final, rotated(Pose(400, 300, 0), (325.0, 300.0), p.turned_deg))


# ---------------------------------------------------------------- Jackknife: Swing Trailer (p.119)


def test_swing_trailer_free() -> None:
    s = swing_trailer(Table(1200, 900, (rig(),)), "rig", 45.0)
    assert s.bend_deg == 45.0 and not s.stopped and not s.collisions
    assert s.table_after.vehicle("rig").bend_deg == 45.0


def test_swing_trailer_stops_at_first_contact_p119() -> None:
    # The trailer swings about the hitch (360, 300); bending anticlockwise its rear-right corner, (-150, -25)
    # from the hitch, falls: it reaches y = 200 when 150 sin t + 25 cos t = 100.
    table = Table(1200, 900, (rig(),), (wall("wall", 0, 180, 1200, 200),))
    s = swing_trailer(table, "rig", 80.0)
    expect = math.degrees(math.asin(100 / math.hypot(150, 25))) - math.degrees(math.atan2(25, 150))
    assert s.bend_deg == pytest.approx(expect, abs=1e-3)
    assert s.stopped
    assert [(c.with_id, c.part, c.during, c.orientation) for c in s.collisions] == [
        ("wall", "trailer", "swing", "head_on")]


def test_swing_is_held_within_the_limit() -> None:
    s = swing_trailer(Table(1200, 900, (rig(),)), "rig", 170.0)
    assert s.bend_deg == MAX_BEND_DEG


# ---------------------------------------------------------------- Collisions with either piece (p.52-53, p.118)


def test_t_bone_into_the_trailer_side() -> None:
    # The trailer spans x 210..360, y 275..325; a car below it at x 285 drives up into its side.
    table = Table(1200, 900, (rig(), car("car", 285, 150, 90)))
    r = resolve_move(table, "car", Move("medium_straight"), TS)
    assert r.final.y_mm == pytest.approx(245.0, abs=1e-3)
    assert [c.to_json() for c in r.collisions] == [
        {"with": "rig", "orientation": "t_bone", "active_edge": "front", "passive_edge": "side",
         "passive_piece": "trailer"}]


def test_tailgating_the_trailer_rear() -> None:
    table = Table(1200, 900, (rig(), car("car", 100, 300, 0)))
    r = resolve_move(table, "car", Move("medium_straight"), TS)
    assert r.final.x_mm == pytest.approx(180.0, abs=1e-3)
    assert [(c.with_id, c.orientation, c.passive_edge, c.with_part) for c in r.collisions] == [
        ("rig", "tailgate", "rear", "trailer")]


def test_reversing_rig_hits_with_the_trailer_rear_as_its_front_p118() -> None:
    table = Table(1200, 900, (rig(),), (wall("wall", 100, 250, 180, 350),))
    r = resolve_move(table, "rig", Move("short_straight", reverse=True), TS)
    assert r.final.x_mm == pytest.approx(370.0, abs=1e-3)  # the trailer's rear stopped on x = 180
    assert [(c.with_id, c.orientation, c.active_edge, c.part) for c in r.collisions] == [
        ("wall", "head_on", "front", "trailer")]


def test_the_hitch_edge_counts_as_a_side() -> None:
    # Bent 60 degrees, the trailer hangs down-left and the upper half of the cab's rear edge (x = 360)
    # is open: a block against it touches the cab's rear, which is the middle of the rig: a side.
    cab = rig(bend=60.0)
    block = box(340, 315, 360, 325)
    assert classify(cab, None, block).a_edge == "side"
    plain = VehiclePiece("van", "truck", cab.pose, 80.0, 50.0)
    assert classify(plain, None, block).a_edge == "rear"
    trailer = cab.trailer
    assert trailer is not None
    assert not overlaps(trailer.footprint, block)


def test_trailer_placed_against_a_block_collides() -> None:
    # After a right Turn the trailer would lie over (380..420, 340..400); it stops against the block.
    free = resolve_move(Table(1200, 900, (rig(),)), "rig", Move("turn", "right"), TS)
    table = Table(1200, 900, (rig(),), (wall("block", 380, 340, 420, 400),))
    r = resolve_move(table, "rig", Move("turn", "right"), TS)
    assert r.final == free.final
    assert free.bend_deg is not None and r.bend_deg is not None and r.bend_deg < free.bend_deg
    t = r.table_after.vehicle("rig").trailer
    assert t is not None
    assert touches(t.footprint, table.obstacle("block").polygon)
    assert not overlaps(t.footprint, table.obstacle("block").polygon)
    assert [(c.with_id, c.part) for c in r.collisions] == [("block", "trailer")]


def test_no_room_for_the_trailer_sends_the_rig_back() -> None:
    # Kerbs either side of the Long Straight's track, clear of the template: the cab squeezes past
    # (p.47) but no bend of the trailer fits between them, so the rig goes back until both pieces fit.
    kerbs = (wall("up", 450, 318, 600, 330), wall("down", 450, 270, 600, 282))
    table = Table(1200, 900, (rig(),), kerbs)
    r = resolve_move(table, "rig", Move("long_straight"), TS)
    after = r.table_after.vehicle("rig")
    for piece in after.pieces:
        for k in kerbs:
            assert not overlaps(piece.footprint, k.polygon)
    assert r.final.x_mm == pytest.approx(410.0, abs=1e-2)  # the cab's front edge against the kerbs at 450
    assert {c.with_id for c in r.collisions} == {"up", "down"}


def test_other_vehicles_stop_at_the_trailer() -> None:
    # A car driving down x = 285 from above meets the trailer (y 275..325) before anything else.
    table = Table(1200, 900, (rig(), car("car", 285, 450, 270)))
    r = resolve_move(table, "car", Move("long_straight"), TS)
    assert r.final.y_mm == pytest.approx(355.0, abs=1e-3)
    assert r.collisions[0].with_id == "rig" and r.collisions[0].with_part == "trailer"


def test_a_rig_ignores_what_its_trailer_touches_at_the_start_p45() -> None:
    table = Table(1200, 900, (rig(),), (wall("kerb", 200, 250, 300, 275),))
    r = resolve_move(table, "rig", Move("short_straight"), TS)
    assert r.ignored == ("kerb",)
    assert not r.collisions


# ---------------------------------------------------------------- properties


@st.composite
def rig_scenes(draw: st.DrawFn) -> tuple[Table, Move]:
    me = rig(draw(st.floats(450, 750)), draw(st.floats(300, 600)), draw(st.floats(0, 359)),
             draw(st.floats(-MAX_BEND_DEG, MAX_BEND_DEG)))
    obstacles = []
    for i in range(draw(st.integers(1, 6))):
        x, y = draw(st.floats(100, 1100)), draw(st.floats(100, 800))
        w, h = draw(st.floats(2, 80)), draw(st.floats(2, 80))
        rock = Obstacle(f"o{i}", box(x, y, x + w, y + h), destructible=draw(st.booleans()))
        if not any(overlaps(p.footprint, rock.polygon) for p in me.pieces):
            obstacles.append(rock)
    name = draw(st.sampled_from(MOVEMENT_NAMES))
    move = Move(name, draw(st.sampled_from(["left", "right"])), reverse=draw(st.booleans()))
    return Table(1200, 900, (me,), tuple(obstacles)), move


@settings(max_examples=40, deadline=None)
@given(rig_scenes())
def test_rig_never_ends_inside_an_obstruction(scene: tuple[Table, Move]) -> None:
    table, move = scene
    r = resolve_move(table, "rig", move, TS)
    after = r.table_after.vehicle("rig")
    assert r.bend_deg is not None and abs(r.bend_deg) <= MAX_BEND_DEG + 1e-9
    assert after.trailer is not None
    hx, hy = hitch_point(after.pose, 80.0)
    fx, fy = after.trailer.pose.offset(75.0, 0.0)
    assert math.hypot(hx - fx, hy - fy) <= 1e-9  # still hitched
    for piece in after.pieces:
        for o in r.table_after.all_obstacles:
            assert not overlaps(piece.footprint, o.polygon), (piece.id, o.id)


def _mirror_pose(p: Pose) -> Pose:
    return Pose(-p.x_mm, p.y_mm, 180.0 - p.heading_deg).normalised()


def _mirror(table: Table) -> Table:
    return Table(10_000, 10_000,
                 tuple(VehiclePiece(v.id, v.type, _mirror_pose(v.pose), v.length_mm, v.width_mm, v.weight,
                                    trailer_length_mm=v.trailer_length_mm, trailer_width_mm=v.trailer_width_mm,
                                    bend_deg=-v.bend_deg) for v in table.vehicles),
                 tuple(Obstacle(o.id, Polygon([(-x, y) for x, y in o.polygon.exterior.coords]),
                                destructible=o.destructible) for o in table.obstacles))


@settings(max_examples=30, deadline=None)
@given(rig_scenes())
def test_rig_left_right_mirror_symmetry(scene: tuple[Table, Move]) -> None:
    # Mirror the table about x = 0: the right move becomes the left one and the bend changes sign (p.16).
    table, move = scene
    assume(TS.movement[move.template].shape != "straight")
    here = resolve_move(Table(10_000, 10_000, table.vehicles, table.obstacles), "rig", move, TS)
    other = Move(move.template, "left" if move.direction == "right" else "right", reverse=move.reverse)
    there = resolve_move(_mirror(table), "rig", other, TS)
    assert here.bend_deg is not None and there.bend_deg is not None
    assert close(_mirror_pose(here.final), there.final, mm=0.01, deg=0.01)
    assert there.bend_deg == pytest.approx(-here.bend_deg, abs=0.01)
    assert [c.with_id for c in here.collisions] == [c.with_id for c in there.collisions]


def _rigid(frame: Pose, p: Pose) -> Pose:
    x, y = frame.offset(p.x_mm, p.y_mm)
    return Pose(x, y, p.heading_deg + frame.heading_deg).normalised()


@settings(max_examples=30, deadline=None)
@given(rig_scenes(), st.floats(0, 359), st.floats(-300, 300), st.floats(-300, 300))
def test_rig_answers_survive_rigid_motion(scene: tuple[Table, Move], turn: float, dx: float, dy: float) -> None:
    table, move = scene
    frame = Pose(dx + 3000, dy + 3000, turn)

    def poly(p: Polygon) -> Polygon:
        return Polygon([frame.offset(x, y) for x, y in p.exterior.coords])

    moved = Table(10_000, 10_000,
                  tuple(VehiclePiece(v.id, v.type, _rigid(frame, v.pose), v.length_mm, v.width_mm, v.weight,
                                     trailer_length_mm=150.0, trailer_width_mm=50.0, bend_deg=v.bend_deg)
                        for v in table.vehicles),
                  tuple(Obstacle(o.id, poly(o.polygon), destructible=o.destructible) for o in table.obstacles))
    here = resolve_move(Table(10_000, 10_000, table.vehicles, table.obstacles), "rig", move, TS)
    there = resolve_move(moved, "rig", move, TS)
    assert here.bend_deg is not None and there.bend_deg is not None
    assert close(_rigid(frame, here.final), there.final, mm=0.01, deg=0.01)
    assert there.bend_deg == pytest.approx(here.bend_deg, abs=0.01)
    assert [c.with_id for c in here.collisions] == [c.with_id for c in there.collisions]


# ---------------------------------------------------------------- shooting from and at either piece (p.118)


def test_shots_reach_either_piece_and_come_from_the_mounted_one_p118() -> None:
    from simulator.geometry.shooting import shoot, under_template

    # A car 60 behind the trailer's rear (x 210) facing it: a front weapon reaches the trailer, and the
    # rig is the target with both pieces; the rig's rear weapon fires from the trailer's rear edge.
    table = Table(1200, 900, (rig(), car("car", 120, 300, 0)))
    at_rig = shoot(table, "car", "rig", "short", "front", TS)
    assert at_rig.in_arc_and_range and not at_rig.cover
    from_trailer = shoot(table, "rig.trailer", "car", "short", "rear", TS)
    assert from_trailer.in_arc_and_range and not from_trailer.cover
    from_cab = shoot(table, "rig", "car", "double", "rear", TS)  # 210 away, through its own trailer
    assert from_cab.in_arc_and_range and not from_cab.cover
    assert not shoot(table, "rig", "car", "short", "rear", TS).in_arc_and_range  # 150 of trailer in between
    with pytest.raises(ValueError):
        shoot(table, "rig", "rig.trailer", "short", "rear", TS)
    assert at_rig.placement_polygon is not None
    assert under_template(table, at_rig.placement_polygon) == ("rig", "car")  # vehicles, not pieces


def test_a_rig_gives_cover_with_both_pieces() -> None:
    from simulator.geometry.shooting import shoot

    # A car shoots along y = 300 past the trailer at a target beyond: the trailer is in the way.
    table = Table(1200, 900, (rig(x=400, y=300, h=90), car("car", 400, 130, 90), car("far", 400, 470, 90)))
    r = shoot(table, "car", "far", "double", "front", TS)
    assert r.in_arc_and_range and r.cover and r.cover_from == ("rig",)
