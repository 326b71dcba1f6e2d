"""An articulated vehicle's two pieces: the cab and the trailer joined at the hitch (War Rig, p.116-120).

GEOMETRY.md 8 is the specification. Conventions:

- The **hitch** is one point: the centre of the cab's rear edge, which is also
  the centre of the trailer's front edge ("reconnected with the hitch", p.118).
- ``bend_deg`` is the trailer's heading minus the cab's, folded into
  (-180, 180]; counter-clockwise positive. A straight rig has ``bend_deg`` 0.
  It never exceeds :data:`MAX_BEND_DEG` either way.
- The **rig's centre** (the "shared centre point" both pieces pivot about,
  p.118) is the midpoint between the centre of the cab's front edge and the
  centre of the trailer's rear edge; for a straight rig, the centre of the
  whole rectangle.
- The pieces of one vehicle never obstruct or collide with each other. Bent at
  the hitch, the trailer's near corners reach under the cab's rear corners, as
  a semi-trailer's nose rides over the cab.

Everything here is plain pose arithmetic (table frame, mm, degrees); the
moves themselves are resolved in :mod:`simulator.geometry.movement`.
"""

from __future__ import annotations

import math

from simulator.geometry.pose import Pose, angle_diff_deg, normalise_deg

TRAILER_SUFFIX = ".trailer"
"""A trailer piece's id is its vehicle's id with this suffix (vehicle ids never contain a dot)."""

MAX_BEND_DEG = 90.0
"""How far the trailer may swing from the cab's line, either way (our reading of "without overlapping the cab
and trailer", p.119: past a right angle the trailer would fold onto the cab)."""


def trailer_id(vehicle_id: str) -> str:
    """The id of ``vehicle_id``'s trailer piece."""
    return vehicle_id + TRAILER_SUFFIX


def hitch_point(cab: Pose, cab_length_mm: float) -> tuple[float, float]:
    """The hitch: the centre of the cab's rear edge (table mm)."""
    return cab.offset(-cab_length_mm / 2.0, 0.0)


def trailer_pose(cab: Pose, cab_length_mm: float, trailer_length_mm: float, bend_deg: float) -> Pose:
    """The trailer hitched to ``cab`` with the bend ``bend_deg``: its front-edge centre on the hitch."""
    hx, hy = hitch_point(cab, cab_length_mm)
    heading = normalise_deg(cab.heading_deg + bend_deg)
    rad = math.radians(heading)
    half = trailer_length_mm / 2.0
    return Pose(hx - math.cos(rad) * half, hy - math.sin(rad) * half, heading)


def cab_pose(trailer: Pose, cab_length_mm: float, trailer_length_mm: float, bend_deg: float) -> Pose:
    """The cab hitched to ``trailer`` with the bend ``bend_deg`` (the inverse of :func:`trailer_pose`)."""
    hx, hy = trailer.offset(trailer_length_mm / 2.0, 0.0)
    heading = normalise_deg(trailer.heading_deg - bend_deg)
    rad = math.radians(heading)
    half = cab_length_mm / 2.0
    return Pose(hx + math.cos(rad) * half, hy + math.sin(rad) * half, heading)


def bend_between(cab_heading_deg: float, trailer_heading_deg: float) -> float:
    """The bend of a trailer heading ``trailer_heading_deg`` behind a cab heading ``cab_heading_deg``."""
    return angle_diff_deg(trailer_heading_deg, cab_heading_deg)


def clamp_bend(bend_deg: float, limit_deg: float = MAX_BEND_DEG) -> float:
    """``bend_deg`` folded into (-180, 180] and held within ``limit_deg`` either way."""
    folded = angle_diff_deg(bend_deg, 0.0)
    return max(-limit_deg, min(limit_deg, folded))


def rig_centre(cab: Pose, cab_length_mm: float, trailer_length_mm: float, bend_deg: float) -> tuple[float, float]:
    """The shared centre point both pieces pivot about (p.118): halfway between the centre of the cab's
    front edge and the centre of the trailer's rear edge."""
    fx, fy = cab.offset(cab_length_mm / 2.0, 0.0)
    rx, ry = trailer_pose(cab, cab_length_mm, trailer_length_mm, bend_deg).offset(-trailer_length_mm / 2.0, 0.0)
    return ((fx + rx) / 2.0, (fy + ry) / 2.0)


def rotated(pose: Pose, centre: tuple[float, float], delta_deg: float) -> Pose:
    """``pose`` turned by ``delta_deg`` (counter-clockwise) about the table point ``centre``."""
    rad = math.radians(delta_deg)
    c, s = math.cos(rad), math.sin(rad)
    dx, dy = pose.x_mm - centre[0], pose.y_mm - centre[1]
    return Pose(centre[0] + c * dx - s * dy, centre[1] + s * dx + c * dy, normalise_deg(pose.heading_deg + delta_deg))
