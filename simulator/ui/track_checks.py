"""The Death Race track check drawn on the table (p.124-125): each finding where it applies, with its reason and
page (:func:`simulator.geometry.track.check_track` says what and where; this module only draws it).

Errors (a rule broken) are red, warnings (a guideline) amber: the shape the
finding is about (a gate line, a post, a leg between gates, the run to Gate
1, the layout) is outlined or filled faintly, and a numbered tag sits on it;
the panel lists the numbers with the whole reason.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pygame
from shapely.geometry import LineString, MultiLineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from simulator.geometry.track import Finding
from simulator.ui import draw
from simulator.ui.view import View

ERROR = (235, 70, 60)
WARNING = (245, 180, 40)


def colour_of(f: Finding) -> tuple[int, int, int]:
    """Red for an error, amber for a warning."""
    return ERROR if f.severity == "error" else WARNING


def _lines(shape: BaseGeometry) -> list[LineString]:
    if isinstance(shape, LineString):
        return [shape]
    if isinstance(shape, MultiLineString):
        return list(shape.geoms)
    return [g for g in getattr(shape, "geoms", []) if isinstance(g, LineString)]


def draw_findings(surface: pygame.Surface, view: View, findings: Sequence[Finding]) -> list[pygame.Rect]:
    """Each finding with a shape drawn where it applies and tagged with its number (1-based, as in the panel);
    returns the tags' rectangles."""
    overlay = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shown = [(n, f) for n, f in enumerate(findings, 1) if f.shape is not None and not f.shape.is_empty]
    # the shapes first, warnings under errors (pygame's drawing replaces pixels: tags go on top afterwards)
    for _, f in sorted(shown, key=lambda nf: nf[1].severity == "error"):
        c = colour_of(f)
        shape = f.shape
        assert shape is not None
        if isinstance(shape, Polygon) or any(isinstance(g, Polygon) for g in getattr(shape, "geoms", [])):
            draw.fill_shape(overlay, view, shape, (*c, 40))
            draw.outline_shape(overlay, view, shape, (*c, 220), 2, dashed=f.severity == "warning")
        for line in _lines(shape):
            pts = view.points_to_screen(np.asarray(line.coords))
            if len(pts) >= 2:
                if f.severity == "error":
                    pygame.draw.lines(overlay, (*c, 235), False, pts, 5)
                else:
                    draw.dashed_polyline(overlay, (*c, 235), pts, 3)
    tags: list[pygame.Rect] = []
    for n, f in shown:
        shape = f.shape
        assert shape is not None
        anchor = shape.representative_point() if not isinstance(shape, Point) else shape
        x, y = view.to_screen(anchor.x, anchor.y)
        rect = draw.badge_rect(str(n), 16, (x, y), "center")
        while any(rect.colliderect(t) for t in tags):
            rect.move_ip(0, rect.height + 2)
        draw.badge(overlay, str(n), rect, 16, (15, 15, 15), (*colour_of(f), 235))
        tags.append(rect)
    surface.blit(overlay, (0, 0))
    return tags


def finding_lines(findings: Sequence[Finding]) -> list[tuple[str, tuple[int, int, int]]]:
    """The panel's lines: ``"1  error  gate-2: ... (p.124)"``, coloured."""
    if not findings:
        return [("No findings: a legal track that follows every guideline (p.124-125).", (120, 220, 140))]
    return [(f"{n}. {f.severity}: {f.where}: {f.message} ({f.page})", colour_of(f)) for n, f in enumerate(findings, 1)]
