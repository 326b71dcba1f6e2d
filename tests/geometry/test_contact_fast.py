"""The closed-form contact labels against the shapely reference (GEOMETRY.md 5).

:func:`contact_edge` decides most contacts in closed form (capsule intervals
round the other shape's edges, nearest features for the point rule) and hands
anything within a hair of a threshold to :func:`contact_edge_reference`, which
intersects each vehicle edge with the other shape's 0.01 mm buffer in shapely.
Here the two are compared on random touching pairs: rectangles and polygons,
corner touches, near-parallel edges whose shared stretch is close to 1 mm (CONTACT_LENGTH_MM),
and gaps either side of 0.01 mm. They must always agree, and the closed-form
bounds on each edge's contact length must hold shapely's length.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import Polygon
from shapely.ops import nearest_points

from simulator.geometry import contact
from simulator.geometry.contact import classify, contact_edge, contact_edge_reference
from simulator.geometry.pose import TOUCH_MM, Pose, footprint_corners
from simulator.geometry.table import VehiclePiece


def vehicle(heading: float, length: float, width: float, reversing: bool) -> VehiclePiece:
    return VehiclePiece("v", "car", Pose(0.0, 0.0, heading), length, width, reversing=reversing)


@st.composite
def blobs(draw: st.DrawFn) -> Polygon:
    """A star-shaped polygon of 3-30 vertices (convex and concave corners)."""
    n = draw(st.integers(3, 30))
    angles = sorted(draw(st.lists(st.floats(0.0, 2.0 * math.pi), min_size=n, max_size=n, unique=True)))
    radii = draw(st.lists(st.floats(3.0, 15.0), min_size=n, max_size=n))
    poly = Polygon([(r * math.cos(a), r * math.sin(a)) for r, a in zip(radii, angles, strict=True)])
    assume(poly.is_valid and poly.area > 1.0)
    return poly


def rectangle(heading: float, length: float, width: float) -> Polygon:
    out: Polygon = shapely.polygons(footprint_corners(Pose(0.0, 0.0, heading), length, width))
    return out


def placed_at_gap(fixed: Polygon, moving: Polygon, bearing: float, gap: float) -> Polygon:
    """``moving`` brought in from ``bearing`` until it is ``gap`` from ``fixed`` (approximately, for
    concave shapes); a few nearest-point steps."""
    moving = affinity.translate(moving, 90.0 * math.cos(bearing), 90.0 * math.sin(bearing))
    for _ in range(8):
        d = fixed.distance(moving)
        if abs(d - gap) < 1e-10 or d <= 0.0:
            break
        p, q = nearest_points(fixed, moving)
        k = (d - gap) / d
        moving = affinity.translate(moving, (p.x - q.x) * k, (p.y - q.y) * k)
    return moving


def check(v: VehiclePiece, other: Polygon) -> str:
    """The fast and reference labels agree; the length bounds hold; returns the label."""
    fast = contact_edge(v, other)
    assert fast == contact_edge_reference(v, other)
    corners = footprint_corners(v.pose, v.length_mm, v.width_mm)
    outline = contact._make_outline(other)
    if outline is not None:
        bounds = contact._edge_bounds(corners.tolist(), outline)
        if bounds is not None:
            segs = shapely.linestrings(corners[contact._EDGE_CORNERS])
            near = shapely.distance(segs, other) <= TOUCH_MM + 1e-9
            zone = other.buffer(TOUCH_MM, quad_segs=4)
            lengths = np.where(near, shapely.length(shapely.intersection(segs, zone)), 0.0)
            for lo, length, hi in zip(bounds[0], lengths.tolist(), bounds[1], strict=True):
                assert lo - 1e-9 <= length <= hi + 1e-9
    return fast


gaps = st.one_of(st.sampled_from([0.0, 1e-4, 1e-3, 0.005, 0.0099, 0.01, 0.0101]), st.floats(0.0, 0.012))
sizes = st.sampled_from([(60.0, 30.0), (45.0, 20.0), (25.0, 15.0)])


@settings(max_examples=400, deadline=None)
@given(heading=st.floats(0.0, 360.0), size=sizes, reversing=st.booleans(), other=blobs(),
       bearing=st.floats(0.0, 2.0 * math.pi), gap=gaps)
def test_vehicle_against_polygons(heading: float, size: tuple[float, float], reversing: bool, other: Polygon,
                                  bearing: float, gap: float) -> None:
    v = vehicle(heading, *size, reversing)
    check(v, placed_at_gap(v.footprint, other, bearing, gap))


@settings(max_examples=400, deadline=None)
@given(heading=st.floats(0.0, 360.0), size=sizes, reversing=st.booleans(),
       turn=st.one_of(st.floats(-4.0, 4.0), st.floats(0.0, 360.0), st.sampled_from([0.0, 45.0, 90.0])),
       other_size=st.tuples(st.floats(5.0, 60.0), st.floats(5.0, 30.0)),
       bearing=st.floats(0.0, 2.0 * math.pi), gap=gaps)
def test_vehicle_against_rectangles(heading: float, size: tuple[float, float], reversing: bool, turn: float,
                                    other_size: tuple[float, float], bearing: float, gap: float) -> None:
    """Car-to-car contacts, many of them nearly parallel (long contact sets, ties between edges)."""
    v = vehicle(heading, *size, reversing)
    other = placed_at_gap(v.footprint, rectangle(heading + turn, *other_size), bearing, gap)
    check(v, other)
    w = VehiclePiece("w", "car", Pose(other.centroid.x, other.centroid.y, heading + turn), *other_size)
    c = classify(v, w, w.footprint)
    if c.touching:
        assert c.a_edge == contact_edge_reference(v, w.footprint)
        assert c.b_edge == contact_edge_reference(w, v.footprint)


@settings(max_examples=300, deadline=None)
@given(heading=st.floats(0.0, 360.0), reversing=st.booleans(), corner=st.integers(0, 3),
       angle=st.one_of(st.floats(0.3, 89.7), st.floats(0.45, 0.7), st.floats(89.3, 89.55)), gap=gaps)
def test_corner_touches_near_the_length_threshold(heading: float, reversing: bool, corner: int, angle: float,
                                                  gap: float) -> None:
    """A vehicle corner against a long wall: the two edges at the corner hold about 0.01 / sin and
    0.01 / cos of the angle, 1 mm in all near 0.57 degrees (and 89.43)."""
    v = vehicle(heading, 60.0, 30.0, reversing)
    c = footprint_corners(v.pose, 60.0, 30.0)
    cx, cy = c[corner]
    # a wall whose face passes ``gap`` beyond the corner, at ``angle`` to the edge leaving it
    nxt = c[(corner + 1) % 4]
    edge = math.atan2(nxt[1] - cy, nxt[0] - cx)
    face = edge - math.radians(angle)
    dx, dy = math.cos(face), math.sin(face)
    nx, ny = dy, -dx  # the wall lies to this side of its face
    centre_x, centre_y = v.pose.x_mm, v.pose.y_mm
    if (cx - centre_x) * nx + (cy - centre_y) * ny < 0:
        nx, ny = -nx, -ny
    ox, oy = cx + nx * gap, cy + ny * gap
    wall = Polygon([(ox - dx * 100, oy - dy * 100), (ox + dx * 100, oy + dy * 100),
                    (ox + dx * 100 + nx * 20, oy + dy * 100 + ny * 20),
                    (ox - dx * 100 + nx * 20, oy - dy * 100 + ny * 20)])
    assume(wall.is_valid)
    assume(wall.distance(v.footprint) > 0.0 or gap == 0.0)
    check(v, wall)


@settings(max_examples=300, deadline=None)
@given(heading=st.floats(0.0, 360.0), reversing=st.booleans(), side=st.integers(0, 3),
       overlap=st.one_of(st.floats(0.0, 2.5), st.floats(0.95, 1.05)), tilt=st.floats(-0.05, 0.05),
       gap=gaps, other_len=st.floats(5.0, 60.0))
def test_parallel_edges_with_short_shared_stretch(heading: float, reversing: bool, side: int, overlap: float,
                                                  tilt: float, gap: float, other_len: float) -> None:
    """Two footprints corner to corner, edges nearly parallel, sharing ``overlap`` mm of edge: the
    contact set crosses 1 mm and the edges tie or nearly tie."""
    v = vehicle(heading, 60.0, 30.0, reversing)
    c = footprint_corners(v.pose, 60.0, 30.0)
    a, b = c[side], c[(side + 1) % 4]
    ux, uy = (b - a) / np.hypot(*(b - a))
    nx, ny = uy, -ux  # outward for corners in counter-clockwise order
    t = math.radians(tilt)
    dx, dy = ux * math.cos(t) - uy * math.sin(t), ux * math.sin(t) + uy * math.cos(t)
    px, py = b[0] - ux * overlap + nx * gap, b[1] - uy * overlap + ny * gap
    ex, ey = -dy, dx  # pointing away from the vehicle
    ex, ey = (ex, ey) if ex * nx + ey * ny > 0 else (-ex, -ey)
    other = Polygon([(px, py), (px + dx * other_len, py + dy * other_len),
                     (px + dx * other_len + ex * 15, py + dy * other_len + ey * 15), (px + ex * 15, py + ey * 15)])
    assume(other.is_valid)
    check(v, other)


def test_fast_path_decides_most_touches() -> None:
    """The closed form is not a no-op: a plain corner touch and a flush edge are decided without shapely."""
    v = vehicle(0.0, 60.0, 30.0, False)
    corners = footprint_corners(v.pose, 60.0, 30.0).tolist()
    wall = Polygon([(30.0001, -50), (40, -50), (40, 50), (30.0001, 50)])
    assert contact._fast_contact_edge(corners, False, wall, contact._make_outline(wall)) == "front"
    post = Polygon([(30.0001, 0), (31, -1), (32, 0), (31, 1)])
    assert contact._fast_contact_edge(corners, False, post, contact._make_outline(post)) == "front"
    side = Polygon([(10, 15.0001), (20, 15.0001), (20, 25), (10, 25)])
    assert contact._fast_contact_edge(corners, True, side, contact._make_outline(side)) == "side"
    corner_hit = Polygon([(30.00007, 15.00007), (40, 16), (40, 30), (31, 30)])
    assert contact._fast_contact_edge(corners, False, corner_hit, contact._make_outline(corner_hit)) == "front"
    assert contact._fast_contact_edge(corners, True, corner_hit, contact._make_outline(corner_hit)) == "side"
