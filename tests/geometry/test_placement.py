"""Final Positions and paths of every template (p.22-26, p.39; GEOMETRY.md 2-4).

Straights by hand arithmetic, arcs and S-bends by their closed forms; then
hypothesis properties: left is the mirror of right, results commute with
rigid motions of the whole table, the path runs from the start to the Final
Position.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.geometry.placement import Move, MoveSpecError, place
from simulator.geometry.pose import Pose, angle_diff_deg
from simulator.geometry.templates import MOVEMENT_NAMES, load_template_set

TS = load_template_set()
CAR = (60.0, 30.0)
TURNING = [n for n in MOVEMENT_NAMES if TS.movement[n].shape != "straight"]


def close(a: Pose, b: Pose, tol: float = 1e-6) -> bool:
    return (math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) <= tol
            and abs(angle_diff_deg(a.heading_deg, b.heading_deg)) <= tol)


def local_final(name: str, length_mm: float, right: bool = True) -> Pose:
    """Closed-form Final Position in the vehicle's frame (x forward, y left, centre at 0)."""
    t = TS.movement[name]
    front = length_mm / 2.0
    sign = -1.0 if right else 1.0
    if t.shape == "straight":
        assert t.length_mm is not None
        return Pose(front + t.length_mm + length_mm / 2.0, 0.0, 0.0)
    assert t.radius_mm is not None and t.sweep_deg is not None
    r, th = t.radius_mm, math.radians(t.sweep_deg)
    if t.shape == "arc":
        ex, ey, eh = r * math.sin(th), sign * r * (1 - math.cos(th)), sign * th
    else:
        ex, ey, eh = 2 * r * math.sin(th), sign * 2 * r * (1 - math.cos(th)), 0.0
    return Pose(front + ex + length_mm / 2.0 * math.cos(eh), ey + length_mm / 2.0 * math.sin(eh),
                math.degrees(eh))


def to_table(frame: Pose, local: Pose) -> Pose:
    x, y = frame.offset(local.x_mm, local.y_mm)
    return Pose(x, y, frame.heading_deg + local.heading_deg).normalised()


# ---------------------------------------------------------------- exact values


def test_medium_straight_p25() -> None:
    # p.25: rear edge on the far end: 120 + 60 = 180 mm for a 60 mm car.
    p = place(TS, Pose(300, 200, 90), *CAR, Move("medium_straight"))
    assert close(p.final_position, Pose(300, 380, 90))
    assert p.path.travel_mm == pytest.approx(180.0)


def test_long_straight_is_182_errata() -> None:
    p = place(TS, Pose(0, 0, 0), *CAR, Move("long_straight"))
    assert close(p.final_position, Pose(30 + 182 + 30, 0, 0))


def test_reverse_short_straight_p39() -> None:
    # p.39: template on the rear edge (y 170), ends at 110; the front edge ends there.
    p = place(TS, Pose(300, 200, 90), *CAR, Move("short_straight", reverse=True))
    assert close(p.final_position, Pose(300, 80, 90))


def test_right_turn_closed_form() -> None:
    # Turn r = 75, 90 deg: front edge (300, 230) -> far end (375, 305) heading 0; centre 30 beyond.
    p = place(TS, Pose(300, 200, 90), *CAR, Move("turn", "right"))
    assert close(p.final_position, Pose(405, 305, 0), 1e-9)


def test_right_turn_in_reverse_ends_on_vehicles_right() -> None:
    # GEOMETRY.md 1: a right Turn in reverse ends displaced to the vehicle's own right (+x here).
    p = place(TS, Pose(300, 200, 90), *CAR, Move("turn", "right", reverse=True))
    assert close(p.final_position, Pose(405, 95, 180), 1e-9)


@pytest.mark.parametrize("name", MOVEMENT_NAMES)
@pytest.mark.parametrize("right", [True, False])
def test_every_template_closed_form(name: str, right: bool) -> None:
    start = Pose(512.0, 333.0, 37.0)
    direction = "right" if right else "left"
    p = place(TS, start, *CAR, Move(name, direction))
    assert close(p.final_position, to_table(start, local_final(name, CAR[0], right)), 1e-9)


def test_veer_is_a_lane_change() -> None:
    # Veer: two opposite 30 deg arcs of r = 120: ends parallel, 2r(1 - cos 30) = 32.154 to the right.
    p = place(TS, Pose(0, 0, 90), *CAR, Move("veer", "right"))
    assert p.final_position.heading_deg == pytest.approx(90.0)
    assert p.final_position.x_mm == pytest.approx(2 * 120 * (1 - math.cos(math.radians(30))))


def test_slide_off_straight_faces_left() -> None:
    # GEOMETRY.md 3-4: centre to the far end (290), pivot left to 180, slide 50 + 15 forward.
    p = place(TS, Pose(300, 200, 90), *CAR, Move("short_straight", slide=True, slide_facing="left"))
    assert close(p.final_position, Pose(300, 355, 180))
    assert p.path.travel_mm == pytest.approx(30 + 60 + 65)


def test_slide_off_arc_moves_outward() -> None:
    # Gentle right, half sweep 22.5 deg: heading 67.5, sliding outward (left) 17.5 + 50 + 15.
    start = Pose(0, 0, 90)
    p = place(TS, start, *CAR, Move("gentle", "right", slide=True))
    r, half = 150.0, math.radians(22.5)
    cx, cy = r * math.sin(half), -r * (1 - math.cos(half))  # local, x forward, y left
    out = 17.5 + 50.0 + 15.0
    # outward is the left normal of heading -22.5 deg: (sin 22.5, cos 22.5)
    local = Pose(30 + cx + out * math.sin(half), cy + out * math.cos(half), -22.5)
    assert close(p.final_position, to_table(start, local), 1e-9)


def test_spin_turns_about_the_centre() -> None:
    p = place(TS, Pose(100, 100, 0), *CAR, Move("short_straight", spin_deg=-45))
    assert close(p.spun_position, Pose(100 + 120, 100, 315))
    assert close(p.path.end, p.spun_position)


def test_missing_direction_is_an_error() -> None:
    with pytest.raises(MoveSpecError, match="direction"):
        place(TS, Pose(0, 0, 0), *CAR, Move("turn"))


def test_spin_beyond_90_is_an_error() -> None:
    with pytest.raises(MoveSpecError, match="90"):
        place(TS, Pose(0, 0, 0), *CAR, Move("short_straight", spin_deg=95))


def test_arc_polygon_within_tolerance() -> None:
    # GEOMETRY.md 1: every chord within 0.005 mm of the true arc (vertices lie on it).
    t = TS.movement["turn"]
    poly = t.polygon
    true_area = math.pi / 4 * (92.5**2 - 57.5**2)
    # the polygon's area falls short of the true sector by at most perimeter x 0.005
    assert 0 <= true_area - poly.area <= (92.5 + 57.5) * math.pi / 2 * 0.005


# ---------------------------------------------------------------- properties

poses = st.builds(Pose, st.floats(-2000, 2000), st.floats(-2000, 2000), st.floats(0, 360, exclude_max=True))
sizes = st.sampled_from([(60.0, 30.0), (30.0, 20.0), (80.0, 40.0), (100.0, 40.0)])


def mirror_about(axis: Pose, p: Pose) -> Pose:
    """Mirror ``p`` about the line through ``axis`` along its heading."""
    h = math.radians(axis.heading_deg)
    dx, dy = p.x_mm - axis.x_mm, p.y_mm - axis.y_mm
    along = dx * math.cos(h) + dy * math.sin(h)
    across = -dx * math.sin(h) + dy * math.cos(h)
    x, y = axis.offset(along, -across)
    return Pose(x, y, 2 * axis.heading_deg - p.heading_deg).normalised()


@settings(max_examples=60, deadline=None)
@given(start=poses, size=sizes, name=st.sampled_from(TURNING), reverse=st.booleans(), slide=st.booleans())
def test_left_is_mirror_of_right(start: Pose, size: tuple[float, float], name: str, reverse: bool,
                                 slide: bool) -> None:
    right = place(TS, start, *size, Move(name, "right", reverse=reverse, slide=slide)).final_position
    left = place(TS, start, *size, Move(name, "left", reverse=reverse, slide=slide)).final_position
    assert close(left, mirror_about(start, right), 1e-6)


@settings(max_examples=60, deadline=None)
@given(start=poses, size=sizes, name=st.sampled_from(MOVEMENT_NAMES), direction=st.sampled_from(["left", "right"]),
       reverse=st.booleans(), frame=poses)
def test_commutes_with_rigid_motion(start: Pose, size: tuple[float, float], name: str, direction: str,
                                    reverse: bool, frame: Pose) -> None:
    move = Move(name, direction, reverse=reverse)  # type: ignore[arg-type]
    here = place(TS, start, *size, move).final_position
    moved_start = to_table(frame, start)
    there = place(TS, moved_start, *size, move).final_position
    assert close(there, to_table(frame, here), 1e-6)


@settings(max_examples=80, deadline=None)
@given(start=poses, size=sizes, name=st.sampled_from(MOVEMENT_NAMES), direction=st.sampled_from(["left", "right"]),
       reverse=st.booleans(), slide=st.booleans(), facing=st.sampled_from(["left", "right"]),
       spin=st.floats(-90, 90))
def test_path_runs_from_start_to_final(start: Pose, size: tuple[float, float], name: str, direction: str,
                                       reverse: bool, slide: bool, facing: str, spin: float) -> None:
    move = Move(name, direction, reverse, slide, facing, spin)  # type: ignore[arg-type]
    p = place(TS, start, *size, move)
    assert close(p.path.start, start, 1e-9)
    assert close(p.path.end, p.spun_position, 1e-6)
    samples = p.path.sample(1.0)
    for a, b in zip(samples[:-1], samples[1:], strict=True):  # continuous: no jumps
        assert math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) <= 1.0 + 1e-6
