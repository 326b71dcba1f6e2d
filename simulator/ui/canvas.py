"""The table on the screen, shared by every mode: the view (pan and zoom), picking, the table and the
pieces drawn, move previews, ghosts.

One :class:`Canvas` lives for the whole window, so switching mode (game, free
table, rulings, replay) keeps the zoom and the place looked at. Right drag and
the arrow keys pan, the wheel zooms about the cursor, Home fits the table
(:meth:`Canvas.handle_event`); a mode sees every event first and may take it
(a wheel over the log, a piece held in the hand).
"""

from __future__ import annotations

import pygame
from shapely.geometry import Point

from simulator.geometry.pose import Pose
from simulator.geometry.table import Table, VehiclePiece
from simulator.geometry.templates import Direction
from simulator.ui import draw
from simulator.ui.outcome import MovePreview
from simulator.ui.view import Rect, View

CLICK_SLOP_PX = 4
"""A press that moves less than this is a click, not a drag."""
ZOOM_STEP = 1.15
PAN_KEY_PX = 40
FIT_MARGIN_PX = 24.0
PICK_SLACK_PX = 3.0
DROP_REACH_PX = 14.0
DROP_REACH_MM = 15.0
SLIDE_COLOUR = (120, 220, 255)

Box = tuple[float, float, float, float]


def vehicle_ids(table: Table) -> frozenset[str]:
    """The ids of the vehicles on ``table``."""
    return frozenset(v.id for v in table.vehicles)


OVERLAYS_KEPT = 4
"""How many overlay surfaces a canvas keeps for reuse (a frame asks for two or three)."""


class Canvas:
    """The view of the table in the window's table rectangle, with panning, zooming and picking."""

    def __init__(self, rect: Rect, table_box_mm: Box) -> None:
        self.table_box_mm = table_box_mm
        self.view = View.fit(table_box_mm, rect, margin_px=FIT_MARGIN_PX)
        self.pan_from: tuple[int, int] | None = None
        self.pan_moved = False
        self.mouse_pos: tuple[int, int] = (0, 0)
        """Where the pointer was last seen (the window sets it before any mode sees an event)."""
        self._overlays: list[pygame.Surface] = []
        self._overlays_used = 0

    @property
    def rect(self) -> Rect:
        """The screen rectangle the table is drawn in."""
        return self.view.rect

    # ---------------------------------------------------------------- view
    def fit_view(self) -> View:
        """The view that shows the whole table."""
        return View.fit(self.table_box_mm, self.rect, margin_px=FIT_MARGIN_PX)

    def fit(self, box_mm: Box | None = None, margin_mm: float = 0.0) -> None:
        """Show ``box_mm`` (grown by ``margin_mm``), or the whole table."""
        if box_mm is None:
            self.view = self.fit_view()
            return
        x0, y0, x1, y1 = box_mm
        grown = (x0 - margin_mm, y0 - margin_mm, x1 + margin_mm, y1 + margin_mm)
        self.view = View.fit(grown, self.rect, margin_px=FIT_MARGIN_PX)

    def show_table(self, table: Table) -> None:
        """Home fits ``table`` from now on (another scenario was loaded); the view fits it now."""
        self.table_box_mm = (0.0, 0.0, table.width_mm, table.height_mm)
        self.fit()

    def set_rect(self, rect: Rect) -> None:
        """Draw into another rectangle (the window was resized), keeping the table point at the centre."""
        old = self.rect
        centre = self.view.to_table(old[0] + old[2] / 2, old[1] + old[3] / 2)
        moved = View(rect, self.view.scale_px_per_mm, self.view.origin_px)
        now = moved.to_screen(*centre)
        self.view = moved.panned(rect[0] + rect[2] / 2 - now[0], rect[1] + rect[3] / 2 - now[1])

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Pan (right drag, arrow keys), zoom (wheel over the table), Home fits; True if the event was used."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self.pan_from, self.pan_moved = (int(event.pos[0]), int(event.pos[1])), False
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 3:
            self.pan_from = None
            return True
        if event.type == pygame.MOUSEMOTION and self.pan_from is not None:
            pos = (int(event.pos[0]), int(event.pos[1]))
            dx, dy = pos[0] - self.pan_from[0], pos[1] - self.pan_from[1]
            if self.pan_moved or abs(dx) + abs(dy) > CLICK_SLOP_PX:
                self.view = self.view.panned(dx, dy)
                self.pan_from, self.pan_moved = pos, True
            return True
        if event.type == pygame.MOUSEWHEEL:
            if self.view.contains_px(self.mouse_pos):
                self.zoom_at(self.mouse_pos, event.y)
                return True
            return False
        if event.type == pygame.KEYDOWN:
            shift = {pygame.K_LEFT: (PAN_KEY_PX, 0), pygame.K_RIGHT: (-PAN_KEY_PX, 0),
                     pygame.K_UP: (0, PAN_KEY_PX), pygame.K_DOWN: (0, -PAN_KEY_PX)}.get(event.key)
            if shift is not None:
                self.view = self.view.panned(*shift)
                return True
            if event.key == pygame.K_HOME:
                self.fit()
                return True
        return False

    def zoom_at(self, pos: tuple[int, int], steps: float) -> None:
        """Zoom ``steps`` wheel notches about the screen point ``pos``."""
        self.view = self.view.zoomed_about(pos, ZOOM_STEP ** steps)

    def right_click(self) -> bool:
        """Whether the right button now being released was a click (it did not pan the table)."""
        return self.pan_from is not None and not self.pan_moved

    # ---------------------------------------------------------------- picking
    def screen_pos(self, pose: Pose) -> tuple[int, int]:
        """The screen pixel of a pose's centre."""
        return self.view.to_screen_int(pose.x_mm, pose.y_mm)

    def piece_at(self, table: Table, pos: tuple[int, int], obstacles: bool = False) -> str | None:
        """The vehicle (or, with ``obstacles``, obstacle) under a screen point, topmost first."""
        pt = Point(*self.view.to_table(*pos))
        slack = self.view.px_to_mm(PICK_SLACK_PX)
        for v in reversed(table.vehicles):
            if v.outline.distance(pt) <= slack:  # a War Rig's trailer picks the rig
                return v.id
        if obstacles:
            for o in reversed(table.obstacles):
                if o.polygon.distance(pt) <= slack:
                    return o.id
        return None

    def drop_target(self, table: Table, pos: tuple[int, int]) -> str | None:
        """The vehicle a template dropped at ``pos`` goes onto: the nearest within reach."""
        pt = Point(*self.view.to_table(*pos))
        near = max(self.view.px_to_mm(DROP_REACH_PX), DROP_REACH_MM)
        best: tuple[float, str] | None = None
        for v in table.vehicles:
            d = float(v.footprint.distance(pt))
            if d <= near and (best is None or d < best[0]):
                best = (d, v.id)
        return best[1] if best else None

    def side_of(self, vehicle: VehiclePiece, pos: tuple[int, int], mirrored: bool) -> Direction:
        """Which way a template dropped at ``pos`` turns: towards the side of the car the pointer is on."""
        x, y = self.view.to_table(*pos)
        p = vehicle.pose
        lx, ly = p.left
        left = (x - p.x_mm) * lx + (y - p.y_mm) * ly > 2.0
        return "left" if left != mirrored else "right"

    # ---------------------------------------------------------------- drawing
    def overlay(self, surface: pygame.Surface) -> pygame.Surface:
        """A transparent surface the size of ``surface`` for translucent drawing (blit it back).

        After :meth:`begin_frame` the overlays of the frame before are cleared and handed out again rather than
        new ones made (a window-sized surface each call cost more than drawing on it: ``benchmarks/
        bench_frames.py``); so an overlay must not be kept past the frame it was asked for.
        """
        size = surface.get_size()
        i = self._overlays_used
        self._overlays_used += 1
        if i < len(self._overlays) and self._overlays[i].get_size() == size:
            self._overlays[i].fill((0, 0, 0, 0))
            return self._overlays[i]
        layer = pygame.Surface(size, pygame.SRCALPHA)
        if i < len(self._overlays):
            self._overlays[i] = layer
        elif i < OVERLAYS_KEPT:
            self._overlays.append(layer)
        return layer

    def begin_frame(self) -> None:
        """A new frame: the overlays handed out so far are free again (the window calls this before drawing)."""
        self._overlays_used = 0

    def draw_preview(self, overlay: pygame.Surface, preview: MovePreview, vehicle: VehiclePiece,
                     colour: tuple[int, int, int], faint: bool = False, labels: pygame.Surface | None = None) -> None:
        """A move before it is made: the template (the Slide template too), the path, the Final Position; a move
        stopped short shows where the template would have put it, dashed (p.24-26, p.45-46). ``labels``: where
        the words go (a surface drawn over the pieces; default ``overlay``)."""
        view = self.view
        if faint:
            draw.fill_shape(overlay, view, preview.template_polygon, (250, 240, 200, 45))
            return
        draw.fill_shape(overlay, view, preview.template_polygon, draw.TEMPLATE_FILL, draw.TEMPLATE_EDGE, 2)
        if preview.slide_polygon is not None:
            draw.fill_shape(overlay, view, preview.slide_polygon, (*SLIDE_COLOUR, 40), SLIDE_COLOUR, 2)
        if preview.path is not None:
            draw.path_line(overlay, view, preview.path.sample(4.0), (255, 255, 255, 200))
        length, width = vehicle.length_mm, vehicle.width_mm
        if preview.stopped_short:
            draw.ghost_vehicle(overlay, view, preview.planned, length, width, (200, 200, 200), 40, (220, 220, 220),
                               dashed=True)
            draw.ghost_vehicle(overlay, view, preview.final, length, width, draw.INTERRUPT, 130, draw.INTERRUPT)
            draw.ghost_trailer(overlay, view, vehicle, preview.final, preview.bend_deg, draw.INTERRUPT, 130,
                               draw.INTERRUPT)
            label = "Interrupted Final Position" if preview.at_interruption else "Final Position (Spin stopped, p.24)"
            lcol: draw.Colour = draw.INTERRUPT
        else:
            draw.ghost_vehicle(overlay, view, preview.final, length, width, colour, 120)
            draw.ghost_trailer(overlay, view, vehicle, preview.final, preview.bend_deg, colour, 120)
            label, lcol = "Final Position", (255, 255, 255)
        self.label_over(labels if labels is not None else overlay, preview.final, max(length, width), label, lcol)

    def label_over(self, surface: pygame.Surface, pose: Pose, size_mm: float, label: str,
                   colour: draw.Colour = (255, 255, 255), size: int = 17) -> pygame.Rect:
        """``label`` just above a piece of ``size_mm`` at ``pose``."""
        x, y = self.view.to_screen(pose.x_mm, pose.y_mm)
        return draw.text(surface, label, (x, y - self.view.mm_to_px(size_mm) / 2 - 4), size, colour, "midbottom",
                         backing=(10, 10, 10, 190))

    def clip(self, surface: pygame.Surface) -> None:
        """Draw only inside the table rectangle until :meth:`unclip`."""
        surface.set_clip(pygame.Rect(self.rect))

    def unclip(self, surface: pygame.Surface) -> None:
        """Stop clipping and frame the table rectangle."""
        surface.set_clip(None)
        pygame.draw.rect(surface, draw.PANEL_EDGE, self.rect, 1)
