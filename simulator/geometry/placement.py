"""Attaching movement templates to vehicles, Final Positions and vehicle paths.

GEOMETRY.md sections 2-4; rulebook p.16 (mirroring), p.22 (placing the
template), p.24-26 (Slide, Spin, Final Position), p.39 (reversing), p.46 (the
vehicle covers as much of the template as it can).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import MultiPolygon, Polygon

from simulator.geometry.lazy import lazy_property
from simulator.geometry.path import Path, Segment
from simulator.geometry.pose import Pose, compose, normalise_deg, transform_points
from simulator.geometry.templates import MovementTemplate, TemplateSet
from simulator.vocab import Side as Direction  # noqa: E402
from simulator.vocab import Side as SlideFacing  # noqa: E402  (one definition for every layer)


class MoveSpecError(ValueError):
    """A move that cannot be placed: a missing direction or slide facing, or a Spin beyond 90 degrees."""


@dataclass(frozen=True)
class Move:
    """One movement choice (p.22-26): template, direction, reverse, Slide, Spin.

    ``direction`` is required for turning templates and ignored for straights.
    ``slide_facing`` is required for a Slide off a straight. ``slide_template``
    names a straight movement template used as the Slide template (Powerslide,
    p.107); empty: the Slide template. ``spin_deg`` is in [-90, 90],
    counter-clockwise positive.
    """

    template: str
    direction: Direction | None = None
    reverse: bool = False
    slide: bool = False
    slide_facing: SlideFacing | None = None
    spin_deg: float = 0.0
    slide_template: str = ""


_EXTERIORS: dict[int, tuple[Polygon, NDArray[np.float64]]] = {}


def _exterior_of(local: Polygon) -> NDArray[np.float64]:
    """The exterior ring's coordinates of a template's local polygon, cached per polygon object."""
    hit = _EXTERIORS.get(id(local))
    if hit is not None and hit[0] is local:
        return hit[1]
    coords = np.asarray(local.exterior.coords)
    if len(_EXTERIORS) > 256:
        _EXTERIORS.clear()
    _EXTERIORS[id(local)] = (local, coords)
    return coords


def _mirror(local: Pose, mirrored: bool) -> Pose:
    return Pose(local.x_mm, -local.y_mm, -local.heading_deg) if mirrored else local


def _mirror_points(points: NDArray[np.float64], mirrored: bool) -> NDArray[np.float64]:
    return points * np.array([1.0, -1.0]) if mirrored else points


@dataclass(frozen=True)
class PlacedMove:
    """A movement template attached to a vehicle, with the move's Final Position and path.

    All poses and polygons are in the table frame. ``frame`` is the template's
    start-edge centre pointing along the direction of travel; ``mirrored``
    says whether the left-hand image of the template is used in that frame.
    """

    template: MovementTemplate
    move: Move
    start: Pose
    length_mm: float
    width_mm: float
    frame: Pose
    mirrored: bool
    slide_length_mm: float

    # ------------------------------------------------------------ shapes
    def to_table(self, local: Pose) -> Pose:
        """A pose in the template's (right-hand) local frame, mapped to the table."""
        return compose(self.frame, _mirror(local, self.mirrored)).normalised()

    def points_to_table(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Local template points, shape (n, 2), mapped to the table."""
        return transform_points(self.frame, _mirror_points(points, self.mirrored))

    def _polygon(self, local: Polygon) -> Polygon:
        poly: Polygon = shapely.polygons(self.points_to_table(_exterior_of(local)))
        return poly

    @lazy_property
    def template_polygon(self) -> Polygon:
        """The whole movement template on the table."""
        return self._polygon(self.template.polygon)

    @lazy_property
    def far_end(self) -> Pose:
        """Centre of the template's far end, heading along the direction of travel."""
        return self.to_table(self.template.centre_line.end)

    @lazy_property
    def slide_exit(self) -> tuple[Pose, float, tuple[float, float]]:
        """(centre-line pose at the exit level, Slide direction in degrees, Slide Exit Point)."""
        at_local, slide_local_deg = self.template.slide_exit
        at = self.to_table(at_local)
        direction_pose = self.to_table(Pose(at_local.x_mm, at_local.y_mm, slide_local_deg))
        px, py = self.template.slide_exit_point()
        exit_point = tuple(self.points_to_table(np.array([[px, py]]))[0])
        return at, direction_pose.heading_deg, (float(exit_point[0]), float(exit_point[1]))

    @lazy_property
    def slide_polygon(self) -> Polygon | None:
        """The Slide template on the table (None without a Slide): its near edge centred on the Exit Point."""
        if not self.move.slide:
            return None
        _, slide_deg, (ex, ey) = self.slide_exit
        frame = Pose(ex, ey, slide_deg)
        hw = self.template.width_mm / 2.0
        local = np.array([[0.0, -hw], [self.slide_length_mm, -hw], [self.slide_length_mm, hw], [0.0, hw]])
        return Polygon(transform_points(frame, local))

    @lazy_property
    def movement_polygon(self) -> Polygon | MultiPolygon:
        """What counts as the movement template (p.50): with a Slide, the template up to
        the exit level plus the Slide template; otherwise the whole template.

        The exact union of the two: off an arc they meet only at the Slide Exit Point, so it is
        usually a MultiPolygon of two parts. Nothing between them counts (no convex hull).
        """
        if not self.move.slide:
            return self.template_polygon
        part, slide = self.movement_parts
        merged = shapely.union(part, slide)
        if isinstance(merged, Polygon | MultiPolygon):
            return merged
        return MultiPolygon([part, slide])  # pragma: no cover - two valid polygons union to one of the above

    @lazy_property
    def movement_parts(self) -> tuple[Polygon, ...]:
        """The movement template as its parts (p.50): the whole template; or, with a Slide, the template
        up to the exit level and the Slide template."""
        if not self.move.slide:
            return (self.template_polygon,)
        slide = self.slide_polygon
        assert slide is not None
        return (self._polygon(self.template.exit_polygon), slide)

    # ------------------------------------------------------------ positions
    def _vehicle_heading(self, travel_deg: float) -> float:
        return normalise_deg(travel_deg + (180.0 if self.move.reverse else 0.0))

    @lazy_property
    def slide_heading_deg(self) -> float:
        """The vehicle's heading while it slides (GEOMETRY.md 3)."""
        at, _, _ = self.slide_exit
        heading = self._vehicle_heading(at.heading_deg)
        if self.template.shape == "straight":
            if self.move.slide_facing is None:
                raise MoveSpecError("a Slide off a straight needs slide_facing left or right (p.26)")
            heading += 90.0 if self.move.slide_facing == "left" else -90.0
        return normalise_deg(heading)

    @lazy_property
    def slide_shift_mm(self) -> float:
        """How far the centre translates sideways in a Slide (GEOMETRY.md 4)."""
        hw = self.template.width_mm / 2.0
        lead = 0.0 if self.template.shape == "straight" else hw
        return lead + self.slide_length_mm + self.width_mm / 2.0

    @lazy_property
    def final_position(self) -> Pose:
        """The Final Position before any Spin (p.25-26, p.39; GEOMETRY.md 3)."""
        if self.move.slide:
            at, slide_deg, _ = self.slide_exit
            shifted = Pose(at.x_mm, at.y_mm, slide_deg).ahead(self.slide_shift_mm)
            return Pose(shifted.x_mm, shifted.y_mm, self.slide_heading_deg)
        end = self.far_end.ahead(self.length_mm / 2.0)
        return Pose(end.x_mm, end.y_mm, self._vehicle_heading(end.heading_deg))

    @lazy_property
    def spun_position(self) -> Pose:
        """The Final Position after the requested Spin (p.24)."""
        return self.final_position.turned(self.move.spin_deg)

    # ------------------------------------------------------------ path
    def _centre_segments(self, up_to_mm: float) -> list[Segment]:
        out: list[Segment] = []
        done = 0.0
        sign = -1.0 if self.mirrored else 1.0
        for seg in self.template.centre_line.segments:
            if done >= up_to_mm - 1e-12:
                break
            length = min(seg.length, up_to_mm - done)
            travel = self.to_table(seg.start)
            start = Pose(travel.x_mm, travel.y_mm, self._vehicle_heading(travel.heading_deg))
            out.append(Segment("drive", start, length, sign * seg.curvature_per_mm, reverse=self.move.reverse))
            done += seg.length
        return out

    @lazy_property
    def path(self) -> Path:
        """The vehicle's path from its start to its Final Position, Spin included (GEOMETRY.md 4).

        The centre runs straight for length/2 to the template's start edge,
        along the centre line, then either straight on for length/2 (plain move)
        or, for a Slide, stops level with the exit, pivots 90 degrees off a
        straight, and translates sideways to the Final Position.
        """
        rev = self.move.reverse
        segs = [Segment("drive", self.start, self.length_mm / 2.0, reverse=rev)]
        if not self.move.slide:
            segs += self._centre_segments(self.template.centre_length_mm)
            end = self.far_end
            segs.append(Segment("drive", Pose(end.x_mm, end.y_mm, self._vehicle_heading(end.heading_deg)),
                                self.length_mm / 2.0, reverse=rev))
        else:
            segs += self._centre_segments(self.template.exit_s_mm)
            at, slide_deg, _ = self.slide_exit
            here = Pose(at.x_mm, at.y_mm, self._vehicle_heading(at.heading_deg))
            if self.template.shape == "straight":
                turn = 90.0 if self.move.slide_facing == "left" else -90.0
                segs.append(Segment("pivot", here, turn))
                here = here.turned(turn)
            segs.append(Segment("shift", here, self.slide_shift_mm, shift_deg=slide_deg))
        if self.move.spin_deg:
            segs.append(Segment("pivot", self.final_position, self.move.spin_deg))
        return Path(tuple(segs))

    @property
    def path_before_spin(self) -> Path:
        """The path without the Spin segment."""
        if not self.move.spin_deg:
            return self.path
        return Path(self.path.segments[:-1])


def place(template_set: TemplateSet, start: Pose, length_mm: float, width_mm: float, move: Move) -> PlacedMove:
    """Attach ``move.template`` to a vehicle at ``start`` of size ``length_mm`` x ``width_mm``.

    Forward: the template's start edge is centred on the front edge (p.22);
    reverse (gear 1 only, checked by the game): on the rear edge, pointing
    backwards, and ``direction`` still names the side of the vehicle the move
    carries it towards (p.39; GEOMETRY.md 1-2).

    Raises :class:`MoveSpecError` when a turning template lacks ``direction``,
    a Slide off a straight lacks ``slide_facing``, ``slide_template`` is not a
    straight, or ``spin_deg`` is outside [-90, 90] (p.24); ``KeyError`` for an
    unknown template.
    """
    template = template_set.template(move.template)
    if template.shape != "straight" and move.direction not in ("left", "right"):
        raise MoveSpecError(f"the {template.label} needs a direction, left or right (p.16)")
    if move.slide and template.shape == "straight" and move.slide_facing not in ("left", "right"):
        raise MoveSpecError("a Slide off a straight needs slide_facing left or right (p.26)")
    if not -90.0 <= move.spin_deg <= 90.0 or not math.isfinite(move.spin_deg):
        raise MoveSpecError(f"a Spin turns at most 90 degrees either way, not {move.spin_deg} (p.24)")
    mirrored = template.shape != "straight" and (move.direction == "left") != move.reverse
    edge = start.ahead(-length_mm / 2.0 if move.reverse else length_mm / 2.0)
    frame = Pose(edge.x_mm, edge.y_mm, normalise_deg(start.heading_deg + (180.0 if move.reverse else 0.0)))
    slide_length_mm = template_set.slide_length_mm
    if move.slide_template:
        along = template_set.template(move.slide_template)
        if along.shape != "straight" or along.length_mm is None:
            raise MoveSpecError(f"only a straight template can be placed as the Slide template, not the "
                                f"{along.label} (Powerslide, p.107)")
        slide_length_mm = along.length_mm
    return PlacedMove(template, move, start, length_mm, width_mm, frame, mirrored, slide_length_mm)


_CENTRE_ENDS: dict[int, tuple[MovementTemplate, Pose]] = {}


def _centre_end(template: MovementTemplate) -> Pose:
    """The end of ``template``'s centre line (local frame), cached per template object."""
    hit = _CENTRE_ENDS.get(id(template))
    if hit is not None and hit[0] is template:
        return hit[1]
    end = template.centre_line.end
    if len(_CENTRE_ENDS) > 256:
        _CENTRE_ENDS.clear()
    _CENTRE_ENDS[id(template)] = (template, end)
    return end


def final_position(template_set: TemplateSet, start: Pose, length_mm: float, width_mm: float, move: Move) -> Pose:
    """``place(template_set, start, length_mm, width_mm, move).final_position`` (p.25-26, p.39), the same
    numbers from the same arithmetic in the same order, without building the :class:`PlacedMove` (a bot
    screens a dozen moves by it before resolving any).

    Raises as :func:`place` does. A Slide (or a named Slide template) is handed to :func:`place`.
    """
    if move.slide or move.slide_template:
        return place(template_set, start, length_mm, width_mm, move).final_position
    template = template_set.template(move.template)
    if template.shape != "straight" and move.direction not in ("left", "right"):
        raise MoveSpecError(f"the {template.label} needs a direction, left or right (p.16)")
    if not -90.0 <= move.spin_deg <= 90.0 or not math.isfinite(move.spin_deg):
        raise MoveSpecError(f"a Spin turns at most 90 degrees either way, not {move.spin_deg} (p.24)")
    rev = move.reverse
    mirrored = template.shape != "straight" and (move.direction == "left") != rev
    # the frame: start.ahead(+-length / 2), heading along the travel (place)
    rad = math.radians(start.heading_deg)
    edge_mm = -length_mm / 2.0 if rev else length_mm / 2.0
    ex, ey = start.x_mm + math.cos(rad) * edge_mm, start.y_mm + math.sin(rad) * edge_mm
    fh = normalise_deg(start.heading_deg + (180.0 if rev else 0.0))
    # far_end: compose(frame, _mirror(centre end)).normalised()
    lx, ly, lh = _centre_end(template)
    if mirrored:
        ly, lh = -ly, -lh
    rad = math.radians(fh)
    dx, dy = math.cos(rad), math.sin(rad)
    x, y = ex + dx * lx - dy * ly, ey + dy * lx + dx * ly
    h = normalise_deg(fh + lh)
    # far_end.ahead(length / 2), heading as the vehicle faces
    rad = math.radians(h)
    half = length_mm / 2.0
    return Pose(x + math.cos(rad) * half, y + math.sin(rad) * half, normalise_deg(h + (180.0 if rev else 0.0)))
