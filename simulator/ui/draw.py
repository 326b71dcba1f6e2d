"""Drawing the table and what is on it, through a :class:`~simulator.ui.view.View`.

Every function takes table-frame geometry (millimetres) and a view; the view
alone turns millimetres into pixels. Translucent things (templates, ghosts,
swept paths) are drawn on an ``SRCALPHA`` overlay the caller blits.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import pygame
import shapely
from shapely.geometry import GeometryCollection, LineString, MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from simulator.geometry.articulated import hitch_point, trailer_pose
from simulator.geometry.pose import Pose, transform_points
from simulator.geometry.table import Gate, Line, Obstacle, Ramp, Surface, Table, VehiclePiece
from simulator.ui.view import View

if TYPE_CHECKING:
    from simulator.ui.labels import LabelBoard

Colour = tuple[int, int, int] | tuple[int, int, int, int]

# --------------------------------------------------------------------------- theme
BACKGROUND = (22, 24, 28)
PANEL = (34, 37, 43)
PANEL_EDGE = (60, 64, 72)
TEXT = (228, 228, 222)
TEXT_DIM = (150, 154, 160)
TABLE = (96, 104, 88)
TABLE_EDGE = (200, 196, 170)
GRID = (108, 116, 100)
SELECT = (255, 214, 64)
GHOST = (255, 255, 255)
TEMPLATE_FILL = (250, 240, 200, 90)
TEMPLATE_EDGE = (250, 240, 200)
INTERRUPT = (255, 140, 40)
CONTACT = (255, 60, 200)
SURFACE_COLOURS = {"road": (78, 80, 84), "rough": (140, 118, 78), "treacherous": (40, 44, 70)}
OBSTACLE_COLOURS = {"heavyweight": (118, 108, 100), "middleweight": (150, 150, 156), "lightweight": (176, 132, 76)}
PERMISSION_COLOURS = {
    "Trivial": (80, 190, 110),
    "permitted": (110, 170, 235),
    "Hazardous": (240, 170, 40),
    "not permitted": (200, 70, 70),
}


@cache
def font(size: int) -> pygame.font.Font:
    """pygame's default font at ``size`` pixels (cached)."""
    return pygame.font.Font(None, size)


def hex_colour(text: str) -> tuple[int, int, int]:
    """``"#d23c32"`` -> ``(210, 60, 50)``."""
    text = text.lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


def shade(colour: Sequence[int], factor: float) -> tuple[int, int, int]:
    """The colour darkened (factor < 1) or lightened towards white (factor > 1)."""
    r, g, b = colour[:3]
    if factor <= 1.0:
        return (int(r * factor), int(g * factor), int(b * factor))
    t = min(factor - 1.0, 1.0)
    return (int(r + (255 - r) * t), int(g + (255 - g) * t), int(b + (255 - b) * t))


def text(surface: pygame.Surface, message: str, pos: tuple[float, float], size: int = 20,
         colour: Colour = TEXT, anchor: str = "topleft", backing: Colour | None = None) -> pygame.Rect:
    """Draw ``message`` with its ``anchor`` (a ``pygame.Rect`` attribute name) at ``pos``."""
    img = font(size).render(message, True, colour)
    rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    if backing is not None:
        pad = rect.inflate(8, 4)
        if len(backing) == 4:
            box = pygame.Surface(pad.size, pygame.SRCALPHA)
            box.fill(backing)
            surface.blit(box, pad.topleft)
        else:
            pygame.draw.rect(surface, backing, pad, border_radius=3)
    surface.blit(img, rect)
    return rect


def put_label(surface: pygame.Surface, labels: LabelBoard | None, message: str, pos: tuple[float, float], size: int,
          colour: Colour, backing: Colour | None, priority: int = 0, reach_px: float = 0.0,
          prefer: tuple[float, float] | None = None) -> None:
    """A table label: on ``labels`` (placed later, clear of the others) or, without a board, drawn centred on
    ``pos`` at once."""
    if labels is None:
        text(surface, message, pos, size, colour, "center", backing=backing)
        return
    from simulator.ui.labels import Label

    labels.add(Label(message, pos, size, colour, backing, reach_px, priority, prefer))


def piece_name(label_text: str, piece_id: str) -> str:
    """What a piece is called on screen: its label, else its id made readable (``burnt_out_bus-2`` ->
    ``burnt out bus``): never a bare id."""
    if label_text:
        return label_text
    words = piece_id.replace("_", " ").replace("-", " ").split()
    while words and words[-1].isdigit():
        words.pop()
    return " ".join(words) or "piece"


# --------------------------------------------------------------------------- shapes
def polygon_px(view: View, poly: Polygon) -> list[tuple[float, float]]:
    """The polygon's exterior in screen pixels."""
    return view.points_to_screen(np.asarray(poly.exterior.coords))


def fill_shape(surface: pygame.Surface, view: View, shape: BaseGeometry, colour: Colour,
               outline: Colour | None = None, width: int = 1) -> None:
    """Fill a polygon or multipolygon (holes are ignored) and optionally outline it."""
    for poly in _polygons(shape):
        pts = polygon_px(view, poly)
        if len(pts) >= 3:
            pygame.draw.polygon(surface, colour, pts)
            if outline is not None:
                pygame.draw.polygon(surface, outline, pts, width)


def outline_shape(surface: pygame.Surface, view: View, shape: BaseGeometry, colour: Colour, width: int = 1,
                  dashed: bool = False) -> None:
    """Outline a polygon or multipolygon, solid or dashed."""
    for poly in _polygons(shape):
        pts = polygon_px(view, poly)
        if dashed:
            dashed_polyline(surface, colour, pts, width)
        elif len(pts) >= 3:
            pygame.draw.polygon(surface, colour, pts, width)


def _polygons(shape: BaseGeometry) -> Iterable[Polygon]:
    if isinstance(shape, Polygon):
        return [shape] if not shape.is_empty else []
    if isinstance(shape, MultiPolygon):
        return list(shape.geoms)
    if isinstance(shape, GeometryCollection):
        return [g for g in shape.geoms if isinstance(g, Polygon)]
    return []


def dashed_polyline(surface: pygame.Surface, colour: Colour, pts: Sequence[tuple[float, float]], width: int = 1,
                    dash_px: float = 8.0, gap_px: float = 5.0) -> None:
    """A dashed line through ``pts`` (screen pixels), closing nothing."""
    on, left = True, dash_px
    for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:], strict=True):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while pos < seg:
            step = min(left, seg - pos)
            if on:
                a = (x0 + (x1 - x0) * pos / seg, y0 + (y1 - y0) * pos / seg)
                b = (x0 + (x1 - x0) * (pos + step) / seg, y0 + (y1 - y0) * (pos + step) / seg)
                pygame.draw.line(surface, colour, a, b, width)
            pos += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash_px if on else gap_px


def arrow_px(surface: pygame.Surface, colour: Colour, tail: tuple[float, float], head: tuple[float, float],
             width: int = 2, head_px: float = 9.0) -> None:
    """An arrow between two screen points."""
    pygame.draw.line(surface, colour, tail, head, width)
    ang = math.atan2(head[1] - tail[1], head[0] - tail[0])
    for side in (-1.0, 1.0):
        a = ang + math.pi + side * 0.45
        pygame.draw.line(surface, colour, head, (head[0] + math.cos(a) * head_px, head[1] + math.sin(a) * head_px),
                         width)


# --------------------------------------------------------------------------- table
_TABLE_LAYER: list[tuple[tuple[object, ...], tuple[object, ...], pygame.Surface, LabelBoard | None]] = []
"""The last table drawn: (view and surface key, its terrain pieces, the layer, the labels it asked for), reused
while neither changes."""


def draw_table(surface: pygame.Surface, view: View, table: Table, labels: LabelBoard | None = None) -> None:
    """The play area, a 100 mm grid, surfaces, lines, gates and obstacles inside the surface's clip (their words
    on ``labels`` if given).

    The terrain is most of a frame's drawing and rarely changes, so it is drawn into a transparent layer kept for
    the next frames and blitted while the view, the surface's size and clip and the terrain pieces (the same
    objects, or equal ones) stay the same; the labels it asked for are asked for again on ``labels`` each frame
    (they are placed among the cars of the frame). ``benchmarks/bench_frames.py`` measures the frame."""
    from simulator.ui.labels import LabelBoard

    clip = surface.get_clip()
    key = (view, surface.get_size(), tuple(clip), table.width_mm, table.height_mm, labels is None)
    pieces = (*table.surfaces, *table.lines, *table.ramps, *table.gates, *table.obstacles)
    last = _TABLE_LAYER[0] if _TABLE_LAYER else None
    if (last is None or last[0] != key or len(last[1]) != len(pieces)
            or any(a is not b and a != b for a, b in zip(last[1], pieces, strict=True))):
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        layer.set_clip(clip)
        asked = LabelBoard(pygame.Rect(clip)) if labels is not None else None
        _draw_table(layer, view, table, asked)
        last = (key, pieces, layer, asked)
        _TABLE_LAYER[:] = [last]
    surface.blit(last[2], clip.topleft, clip)
    if labels is not None and last[3] is not None:
        for lab in last[3].labels:
            labels.add(dataclasses.replace(lab, rect=pygame.Rect(lab.rect)))
        for rect in last[3].keep_clear:
            labels.avoid(rect)


def _draw_table(surface: pygame.Surface, view: View, table: Table, labels: LabelBoard | None = None) -> None:
    fill_shape(surface, view, table.area, TABLE)
    _grid(surface, view, table)
    for s in table.surfaces:
        draw_surface(surface, view, s, labels)
    for line in table.lines:
        draw_line(surface, view, line, labels)
    for ramp in table.ramps:
        draw_ramp(surface, view, ramp, labels)
    for gate in table.gates:
        draw_gate(surface, view, gate, labels)
    for o in table.obstacles:
        draw_obstacle(surface, view, o, labels=labels)
    outline_shape(surface, view, table.area, TABLE_EDGE, 2)


def _grid(surface: pygame.Surface, view: View, table: Table) -> None:
    """A 100 mm grid (coarser by tens on a huge table, so drawing stays quick)."""
    step = 100.0
    while max(table.width_mm, table.height_mm) / step > 200:
        step *= 10.0
    x = step
    while x < table.width_mm:
        pygame.draw.line(surface, GRID, view.to_screen(x, 0.0), view.to_screen(x, table.height_mm))
        x += step
    y = step
    while y < table.height_mm:
        pygame.draw.line(surface, GRID, view.to_screen(0.0, y), view.to_screen(table.width_mm, y))
        y += step


def draw_surface(surface: pygame.Surface, view: View, s: Surface, labels: LabelBoard | None = None) -> None:
    """A road, rough or treacherous area (p.86) with its kind written on it."""
    colour = SURFACE_COLOURS[s.kind]
    fill_shape(surface, view, s.polygon, colour, shade(colour, 1.25), 1)
    if s.kind == "rough":
        _speckle(surface, view, s.polygon, shade(colour, 0.7))
    c = s.polygon.representative_point()
    label = {"road": "road", "rough": "rough", "treacherous": "treacherous"}[s.kind]
    put_label(surface, labels, label, view.to_screen(c.x, c.y), 15, shade(colour, 1.6), None, priority=1)


def _speckle(surface: pygame.Surface, view: View, poly: Polygon, colour: Colour) -> None:
    min_x, min_y, max_x, max_y = poly.bounds
    rng = np.random.default_rng(7)
    for x, y in rng.uniform((min_x, min_y), (max_x, max_y), size=(60, 2)):
        from shapely.geometry import Point

        if poly.contains(Point(x, y)):
            pygame.draw.circle(surface, colour, view.to_screen_int(x, y), 1)


def draw_obstacle(surface: pygame.Surface, view: View, o: Obstacle, colour: Colour | None = None,
                  labels: LabelBoard | None = None) -> None:
    """An obstacle with its label; Tall ones hatched and marked TALL, destructible ones dashed."""
    base = colour or OBSTACLE_COLOURS.get(o.weight, (130, 130, 130))
    fill_shape(surface, view, o.polygon, base)
    if o.tall:
        _hatch(surface, view, o.polygon, shade(base, 0.65))
    edge = (250, 250, 250) if o.tall else shade(base, 0.55)
    outline_shape(surface, view, o.polygon, edge, 3 if o.tall else 2, dashed=o.destructible and not o.tall)
    c = o.polygon.representative_point()
    words = piece_name(o.label, o.id) + (" (TALL)" if o.tall else "") + (" (VOLATILE)" if o.volatile else "")
    put_label(surface, labels, words, view.to_screen(c.x, c.y), 15, TEXT, (20, 20, 20, 150), priority=2)


def _hatch(surface: pygame.Surface, view: View, poly: Polygon, colour: Colour) -> None:
    min_x, min_y, max_x, max_y = poly.bounds
    step = 12.0
    k = min_x - (max_y - min_y)
    while k < max_x:
        line = LineString([(k, min_y), (k + (max_y - min_y), max_y)]).intersection(poly)
        for part in shapely.get_parts(line):
            if isinstance(part, LineString) and not part.is_empty:
                pts = view.points_to_screen(np.asarray(part.coords))
                pygame.draw.line(surface, colour, pts[0], pts[-1], 2)
        k += step


RAMP_FILL = (150, 128, 96)
RAMP_ENTRY = (120, 230, 140)
RAMP_EDGE = (70, 52, 36)


def draw_ramp(surface: pygame.Surface, view: View, ramp: Ramp, labels: LabelBoard | None = None) -> None:
    """A ramp (p.87): planks, its entry edge green with arrows pointing up the ramp, the other edges (where a
    vehicle goes off: a Jump or Tumble) dark, and its label."""
    fill_shape(surface, view, ramp.polygon, RAMP_FILL)
    (ax, ay), (bx, by) = ramp.entry
    c = ramp.polygon.centroid
    mx, my = (ax + bx) / 2.0, (ay + by) / 2.0
    ex, ey = bx - ax, by - ay
    length = math.hypot(ex, ey) or 1.0
    nx, ny = -ey / length, ex / length
    if (c.x - mx) * nx + (c.y - my) * ny < 0:
        nx, ny = -nx, -ny  # the arrows point into the ramp
    depth = min(40.0, max(10.0, 0.4 * ramp.polygon.area / length))
    for k, (p, q) in enumerate(ramp.edges, 1):
        if k != ramp.entry_edge:
            pygame.draw.line(surface, RAMP_EDGE, view.to_screen(*p), view.to_screen(*q), 4)
    pygame.draw.line(surface, RAMP_ENTRY, view.to_screen(ax, ay), view.to_screen(bx, by), 4)
    for t in (0.25, 0.5, 0.75):
        px, py = ax + ex * t, ay + ey * t
        arrow_px(surface, RAMP_ENTRY, view.to_screen(px + nx * 4.0, py + ny * 4.0),
                 view.to_screen(px + nx * depth, py + ny * depth), 2)
    put_label(surface, labels, ramp.name, view.to_screen(c.x, c.y), 15, TEXT, (20, 20, 20, 150), priority=2)


def draw_line(surface: pygame.Surface, view: View, line: Line, labels: LabelBoard | None = None) -> None:
    """A start line (white, dashed) or finish line (chequered), labelled."""
    a, b = view.to_screen(*line.a), view.to_screen(*line.b)
    if line.kind == "finish":
        n = 12
        for i in range(n):
            p0 = (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)
            p1 = (a[0] + (b[0] - a[0]) * (i + 1) / n, a[1] + (b[1] - a[1]) * (i + 1) / n)
            pygame.draw.line(surface, (245, 245, 245) if i % 2 else (20, 20, 20), p0, p1, 6)
    else:
        pygame.draw.line(surface, (245, 245, 245), a, b, 4)
    top = a if a[1] < b[1] else b
    if labels is None:
        text(surface, line.kind.upper(), (top[0], top[1] - 6), 18, (245, 245, 245), "midbottom",
             backing=(20, 20, 20, 170))
        return
    for end in (a, b):
        labels.avoid_point(end, 6.0)
    put_label(surface, labels, line.kind.upper(), top, 18, (245, 245, 245), (20, 20, 20, 170), priority=4,
          reach_px=8.0, prefer=(0.0, -1.0))


def draw_gate(surface: pygame.Surface, view: View, gate: Gate, labels: LabelBoard | None = None) -> None:
    """Gate posts, the dashed gate line, its number and the direction of travel (p.124)."""
    a, b = view.to_screen(*gate.post_a), view.to_screen(*gate.post_b)
    dashed_polyline(surface, (250, 220, 90), [a, b], 2)
    for post in gate.posts():
        fill_shape(surface, view, post.polygon, (230, 190, 60), (40, 30, 10), 2)
    mx, my = (gate.post_a[0] + gate.post_b[0]) / 2.0, (gate.post_a[1] + gate.post_b[1]) / 2.0
    dx, dy = gate.direction
    arrow_px(surface, (250, 220, 90), view.to_screen(mx, my), view.to_screen(mx + dx * 30.0, my + dy * 30.0))
    if labels is not None:
        for end in (a, b):
            labels.avoid_point(end, 6.0)
    put_label(surface, labels, f"gate {gate.number}", view.to_screen(mx - dx * 14.0, my - dy * 14.0), 17,
              (250, 220, 90), (20, 20, 20, 160), priority=3)


# --------------------------------------------------------------------------- vehicles
def vehicle_shapes(pose: Pose, length_mm: float, width_mm: float) -> dict[str, np.ndarray]:
    """The body, windscreen and front chevron of a vehicle drawing, in table mm."""
    hl, hw = length_mm / 2.0, width_mm / 2.0
    body = np.array([[hl, hw], [-hl, hw], [-hl, -hw], [hl, -hw]])
    wind = np.array([[hl * 0.45, hw * 0.8], [hl * 0.05, hw * 0.7], [hl * 0.05, -hw * 0.7], [hl * 0.45, -hw * 0.8]])
    chevron = np.array([[hl * 0.62, hw * 0.75], [hl * 0.95, 0.0], [hl * 0.62, -hw * 0.75]])
    return {k: transform_points(pose, v) for k, v in (("body", body), ("wind", wind), ("chevron", chevron))}


def trailer_outline(cab: Pose, v: VehiclePiece, bend_deg: float | None = None) -> np.ndarray | None:
    """The corners (table mm) of ``v``'s trailer hitched to the cab at ``cab`` with ``bend_deg`` (default the
    vehicle's own bend), or None for a vehicle without a trailer (War Rig, p.118; GEOMETRY.md 8)."""
    if not v.has_trailer:
        return None
    pose = trailer_pose(cab, v.length_mm, v.trailer_length_mm, v.bend_deg if bend_deg is None else bend_deg)
    hl, hw = v.trailer_length_mm / 2.0, v.trailer_width_mm / 2.0
    return transform_points(pose, np.array([[hl, hw], [-hl, hw], [-hl, -hw], [hl, -hw]]))


def draw_trailer(surface: pygame.Surface, view: View, v: VehiclePiece, colour: Sequence[int], cab: Pose,
                 selected: bool = False, bend_deg: float | None = None) -> None:
    """A War Rig's trailer (p.118): a box a shade darker than the cab, with cargo ribs and the hitch."""
    corners = trailer_outline(cab, v, bend_deg)
    if corners is None:
        return
    body = view.points_to_screen(corners)
    if selected:
        pygame.draw.polygon(surface, SELECT, _grow_px(body, 4.0), 4)
    pygame.draw.polygon(surface, shade(colour, 0.8), body)
    rib = shade(colour, 0.55)
    for k in (1, 2, 3):  # ribs across the box, front edge (corners 0, 3) to rear (1, 2)
        f = k / 4.0
        a = (body[0][0] + (body[1][0] - body[0][0]) * f, body[0][1] + (body[1][1] - body[0][1]) * f)
        b = (body[3][0] + (body[2][0] - body[3][0]) * f, body[3][1] + (body[2][1] - body[3][1]) * f)
        pygame.draw.line(surface, rib, a, b, 1)
    pygame.draw.polygon(surface, (250, 250, 250) if selected else shade(colour, 0.45), body, 2)
    hx, hy = hitch_point(cab, v.length_mm)
    pygame.draw.circle(surface, (230, 230, 230), view.to_screen(hx, hy), max(2, round(view.mm_to_px(3.0))))


def draw_vehicle(surface: pygame.Surface, view: View, v: VehiclePiece, colour: Sequence[int], name: str,
                 selected: bool = False, pose: Pose | None = None, label: bool = True,
                 labels: LabelBoard | None = None, bend_deg: float | None = None) -> pygame.Rect | None:
    """A vehicle footprint in its team colour with a windscreen and a white chevron at the front; a War Rig's
    trailer hitched behind the cab (``bend_deg``: the trailer's bend drawn, default the vehicle's).

    Returns the screen rect of its name label (None without one, or when it goes on ``labels``: the board
    places it beside the car, behind it if it can, and keeps the car clear of every label).
    """
    draw_trailer(surface, view, v, colour, pose or v.pose, selected, bend_deg)
    shapes = vehicle_shapes(pose or v.pose, v.length_mm, v.width_mm)
    body = view.points_to_screen(shapes["body"])
    if selected:
        pygame.draw.polygon(surface, SELECT, body, 0)
        grown = _grow_px(body, 4.0)
        pygame.draw.polygon(surface, SELECT, grown, 4)
    pygame.draw.polygon(surface, tuple(colour[:3]), body)
    pygame.draw.polygon(surface, (250, 250, 250) if selected else shade(colour, 0.45), body, 2)
    pygame.draw.polygon(surface, shade(colour, 0.35), view.points_to_screen(shapes["wind"]))
    pygame.draw.lines(surface, (255, 255, 255), False, view.points_to_screen(shapes["chevron"]), 2)
    if labels is not None:
        labels.avoid(vehicle_rect_px(view, pose or v.pose, v.length_mm, v.width_mm))
        t = trailer_outline(pose or v.pose, v, bend_deg)
        if t is not None:  # no label over a War Rig's trailer either
            labels.avoid(_points_rect(view.points_to_screen(t)))
        if label:
            p = pose or v.pose
            dx, dy = view.screen_direction(p.heading_deg)
            put_label(surface, labels, name, view.to_screen(p.x_mm, p.y_mm), 17,
                               SELECT if selected else TEXT, (15, 15, 15, 170), priority=9,
                               reach_px=view.mm_to_px(max(v.length_mm, v.width_mm)) / 2.0, prefer=(-dx, -dy))
        return None
    if label:
        p = pose or v.pose
        rear = p.ahead(-v.length_mm / 2.0)
        t = trailer_outline(p, v, bend_deg)
        if t is not None:  # the name goes behind the trailer
            heading = p.heading_deg + (v.bend_deg if bend_deg is None else bend_deg)
            rear = Pose(float(t[1:3, 0].mean()), float(t[1:3, 1].mean()), heading)
        rx, ry = view.to_screen(rear.x_mm, rear.y_mm)
        dx, dy = view.screen_direction(rear.heading_deg)
        if abs(dx) >= abs(dy):
            anchor = "midright" if dx > 0 else "midleft"
        else:
            anchor = "midtop" if dy < 0 else "midbottom"
        return text(surface, name, (rx - dx * 6.0, ry - dy * 6.0), 17, SELECT if selected else TEXT, anchor,
                    backing=(15, 15, 15, 170)).inflate(8, 4)
    return None


def _points_rect(pts: Sequence[tuple[float, float]]) -> pygame.Rect:
    """The screen bounding box of some screen points."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return pygame.Rect(math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs) - min(xs)) + 1,
                       math.ceil(max(ys) - min(ys)) + 1)


def vehicle_rect_px(view: View, pose: Pose, length_mm: float, width_mm: float) -> pygame.Rect:
    """The screen bounding box of a vehicle's footprint at ``pose``."""
    pts = view.points_to_screen(vehicle_shapes(pose, length_mm, width_mm)["body"])
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return pygame.Rect(math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs) - min(xs)) + 1,
                       math.ceil(max(ys) - min(ys)) + 1)


def badge_rect(message: str, size: int, pos: tuple[float, float], anchor: str = "midbottom") -> pygame.Rect:
    """Where :func:`badge` would draw ``message`` (with its backing) for this ``anchor`` at ``pos``."""
    rect = font(size).render(message, True, TEXT).get_rect()
    pad = rect.inflate(8, 4)
    setattr(pad, anchor, (round(pos[0]), round(pos[1])))
    return pad


def badge(surface: pygame.Surface, message: str, rect: pygame.Rect, size: int, colour: Colour, backing: Colour,
          alpha: int = 255) -> None:
    """``message`` on a box filling ``rect`` (from :func:`badge_rect`), the whole badge at ``alpha`` (fading)."""
    box = pygame.Surface(rect.size, pygame.SRCALPHA)
    box.fill(backing)
    img = font(size).render(message, True, colour)
    box.blit(img, img.get_rect(center=(rect.width // 2, rect.height // 2)))
    if alpha < 255:
        box.fill((255, 255, 255, max(0, alpha)), special_flags=pygame.BLEND_RGBA_MULT)
    surface.blit(box, rect.topleft)


def _grow_px(pts: Sequence[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    out = []
    for x, y in pts:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + (x - cx) / d * by, y + (y - cy) / d * by))
    return out


def ghost_trailer(surface: pygame.Surface, view: View, v: VehiclePiece, cab: Pose, bend_deg: float | None,
                  colour: Sequence[int], alpha: int = 110, outline: Colour = GHOST, dashed: bool = False) -> None:
    """A translucent War Rig trailer hitched to a ghost cab at ``cab`` (nothing for other vehicles)."""
    corners = trailer_outline(cab, v, bend_deg)
    if corners is None:
        return
    body = view.points_to_screen(corners)
    pygame.draw.polygon(surface, (*colour[:3], alpha), body)
    if dashed:
        dashed_polyline(surface, outline, body + body[:1], 2, 6.0, 4.0)
    else:
        pygame.draw.polygon(surface, outline, body, 2)


def ghost_vehicle(surface: pygame.Surface, view: View, pose: Pose, length_mm: float, width_mm: float,
                  colour: Sequence[int], alpha: int = 110, outline: Colour = GHOST, dashed: bool = False) -> None:
    """A translucent vehicle (a Final Position) on an ``SRCALPHA`` surface."""
    shapes = vehicle_shapes(pose, length_mm, width_mm)
    body = view.points_to_screen(shapes["body"])
    pygame.draw.polygon(surface, (*colour[:3], alpha), body)
    if dashed:
        dashed_polyline(surface, outline, body + body[:1], 2, 6.0, 4.0)
    else:
        pygame.draw.polygon(surface, outline, body, 2)
    pygame.draw.lines(surface, outline, False, view.points_to_screen(shapes["chevron"]), 2)


def path_line(surface: pygame.Surface, view: View, poses: Sequence[Pose], colour: Colour, width: int = 2) -> None:
    """The track of the vehicle's centre along a path."""
    pts = view.points_to_screen(np.array([(p.x_mm, p.y_mm) for p in poses]))
    if len(pts) >= 2:
        dashed_polyline(surface, colour, pts, width, 6.0, 4.0)


def halo(surface: pygame.Surface, view: View, pose: Pose, length_mm: float, width_mm: float, colour: Colour,
         width: int = 3) -> None:
    """A ring round a vehicle's footprint (a vehicle that may act now)."""
    body = view.points_to_screen(vehicle_shapes(pose, length_mm, width_mm)["body"])
    pygame.draw.polygon(surface, colour, _grow_px(body, 7.0), width)


def draw_wreck(surface: pygame.Surface, view: View, v: VehiclePiece, colour: Sequence[int], name: str,
               labels: LabelBoard | None = None) -> None:
    """A wreck (p.43): a burnt, scorched hulk crossed out, its team colour only at the rim, labelled WRECK; a War
    Rig's trailer a hulk too (p.118)."""
    corners = trailer_outline(v.pose, v)
    if corners is not None:
        hulk = view.points_to_screen(corners)
        pygame.draw.polygon(surface, (48, 44, 42), hulk)
        pygame.draw.polygon(surface, shade(colour, 0.6), hulk, 3)
        pygame.draw.line(surface, (20, 18, 16), hulk[0], hulk[2], 3)
        pygame.draw.line(surface, (20, 18, 16), hulk[1], hulk[3], 3)
    shapes = vehicle_shapes(v.pose, v.length_mm, v.width_mm)
    body = view.points_to_screen(shapes["body"])
    pygame.draw.polygon(surface, (48, 44, 42), body)
    pygame.draw.polygon(surface, shade(colour, 0.6), body, 3)
    pygame.draw.line(surface, (20, 18, 16), body[0], body[2], 3)
    pygame.draw.line(surface, (20, 18, 16), body[1], body[3], 3)
    cx = sum(p[0] for p in body) / 4.0
    cy = sum(p[1] for p in body) / 4.0
    for k, (dx, dy) in enumerate(((-6, -3), (5, 2), (-1, 6))):
        pygame.draw.circle(surface, (90 + 30 * k, 60, 30), (cx + dx, cy + dy), 3)
    if labels is not None:
        labels.avoid(vehicle_rect_px(view, v.pose, v.length_mm, v.width_mm))
        if corners is not None:
            labels.avoid(_points_rect(view.points_to_screen(corners)))
        put_label(surface, labels, f"WRECK: {name}", (cx, cy), 15, (235, 180, 120), (15, 15, 15, 190), priority=8,
              reach_px=view.mm_to_px(max(v.length_mm, v.width_mm)) / 2.0, prefer=(0.0, 1.0))
        return
    text(surface, f"WRECK: {name}", (cx, cy + view.mm_to_px(max(v.length_mm, v.width_mm)) / 2 + 4), 15,
         (235, 180, 120), "midtop", backing=(15, 15, 15, 190))


DROPPED_COLOURS: dict[str, tuple[int, int, int]] = {
    "caltrop_dropper": (170, 170, 180),
    "glue_dropper": (235, 225, 120),
    "mine_dropper": (120, 130, 60),
    "napalm_dropper": (255, 140, 30),
    "oil_slick_dropper": (30, 30, 40),
    "smoke_dropper": (200, 200, 210),
}
"""Fill colours of the dropped weapon templates (p.78-80)."""


def draw_dropped(surface: pygame.Surface, view: View, poly: Polygon, weapon_key: str, label: str,
                 team: Sequence[int]) -> None:
    """A dropped weapon's template left on the table (p.78): translucent fill, its owner's colour at the rim."""
    fill = DROPPED_COLOURS.get(weapon_key, (200, 120, 220))
    fill_shape(surface, view, poly, (*fill, 150), outline=(*shade(team, 0.9), 230), width=2)
    if weapon_key == "caltrop_dropper":
        _speckle(surface, view, poly, (40, 40, 46))
    c = poly.centroid
    text(surface, label, view.to_screen(c.x, c.y), 14, (255, 255, 255), "center", backing=(15, 15, 15, 170))
