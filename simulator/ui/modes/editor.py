"""The track editor (``gaslands edit TRACK.toml``, or F4 in the window): lay a Death Race out on the table.

Tools (the tray's buttons, or keys 1-9): select and drag, gate, rectangle,
circle and polygon obstacles, surface, ramp, start line, finish line. A click
with a tool places the piece at the pointer (snapped to a 10 mm grid and 15
degrees unless G turns snapping off); a polygon takes a click per point and
Enter closes it. The selected piece is dragged with the mouse, turned with Q /
E (1 degree with Shift), resized with + / -, deleted with Delete; W cycles an
obstacle's weight, T / D / V toggle Tall, destructible and volatile, K a
surface's kind, N a ramp's entry edge, [ ] a gate's number. Enter opens
numeric entry for the selected piece (``x y heading size``: any leading part,
``-`` keeps a value). Every change is undone with Ctrl+Z and redone with
Ctrl+Y; Ctrl+S saves through :class:`~simulator.scenario.track_doc.TrackDoc`
(tomlkit: the file's comments and layout are kept).

The Death Race check (p.124-125) runs after every change and is drawn on the
table where each finding applies (:mod:`simulator.ui.track_checks`), listed
with its reason and page in the panel. A change that makes the file invalid
(say a gate number used twice) is kept, the last valid table stays drawn and
the panel says what is wrong.
"""

from __future__ import annotations

import math
from pathlib import Path

import pygame
from shapely.geometry import LineString, Point, Polygon

from simulator.errors import InputFileError
from simulator.geometry.track import Finding, check_track
from simulator.history import History
from simulator.scenario.loader import Scenario
from simulator.scenario.track_doc import KINDS, SURFACE_KINDS, WEIGHTS, Piece, TrackDoc, rectangle
from simulator.ui import draw
from simulator.ui.game_panel import wrap
from simulator.ui.layout import TOP_INFO
from simulator.ui.modes import Context, HelpLines, TopButton
from simulator.ui.sandbox import Sandbox
from simulator.ui.track_checks import draw_findings, finding_lines
from simulator.ui.view import View
from simulator.ui.widgets import Button, Command, button_at, draw_button
from simulator.vocab import plural

GRID_MM = 10.0
"""Positions snap to this grid."""
ANGLE_STEP_DEG = 15.0
"""Turns snap to this step (Q / E); with Shift, 1 degree."""
RESIZE_STEP = 1.1
PICK_SLACK_PX = 6.0

TOOLS = (("select", "Select"), ("gate", "Gate"), ("rect", "Rect"), ("circle", "Circle"), ("polygon", "Polygon"),
         ("surface", "Surface"), ("ramp", "Ramp"), ("start", "Start"), ("finish", "Finish"))
"""The editor's tools, in key order (1-9)."""

HELP: HelpLines = (
    ("1 .. 9 or the tray", "tool: select, gate, rectangle, circle, polygon, surface, ramp, start, finish line"),
    ("Left click (a tool)", "place the piece at the pointer (polygon: a click per point, Enter closes)"),
    ("Left drag (select)", "move the piece under the pointer"),
    ("Q / E (+Shift)", "turn the selected piece 15 (1) degrees; a gate's way through turns with it"),
    ("+ / -", "resize: obstacles, surfaces, ramps, a gate's posts (always a Long Straight apart)"),
    ("Delete", "delete the selected piece"),
    ("W / T / D / V", "obstacle: weight, Tall, destructible, volatile"),
    ("K / N / [ ]", "surface kind / ramp entry edge / gate number"),
    ("Enter", "type the selected piece's x y heading size (mm, degrees)"),
    ("G", "snapping on / off (10 mm, 15 degrees)"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo"),
    ("Ctrl+S", "save (comments and layout of the file kept)"),
    ("Wheel / right drag / Home", "zoom / pan / fit the table"),
)
"""The editor's controls."""


class EditorMode:
    """The track editor on one file (see the module docstring)."""

    title = "EDITOR"

    def __init__(self, ctx: Context, path: Path, doc: TrackDoc) -> None:
        self.ctx = ctx
        self.path = Path(path)
        long_mm = ctx.template_set.movement["long_straight"].length_mm or 182.0
        doc = TrackDoc(doc.text, doc.source, long_mm)
        self.history: History[TrackDoc] = History(doc)
        self.saved_text = doc.text if self.path.is_file() else ""
        self.tool = "select"
        self.selected: Piece | None = None
        self.snap = True
        self.points: list[tuple[float, float]] = []
        self.drag: tuple[Piece, tuple[float, float], TrackDoc] | None = None
        self.drag_doc: TrackDoc | None = None
        self.entry: str | None = None
        self.message = "Track editor: pick a tool (1-9 or the tray), click on the table; Ctrl+S saves. H: help."
        self._checked_text = ""
        self._scenario: Scenario | None = None
        self._problems: list[str] = []
        self._findings: list[Finding] = []
        self._check()
        if self._scenario is None:
            raise InputFileError(str(self.path), [])  # pragma: no cover - the caller checks the file first

    # ================================================================ Mode protocol
    @property
    def doc(self) -> TrackDoc:
        """The document as shown (while a piece is dragged, with it where it is)."""
        return self.drag_doc or self.history.current

    @property
    def scenario(self) -> Scenario:
        """The last valid version of the track."""
        assert self._scenario is not None
        return self._scenario

    @property
    def findings(self) -> list[Finding]:
        """What the Death Race check finds now (p.124-125)."""
        self._check()
        return self._findings

    @property
    def problems(self) -> list[str]:
        """Why the file as it stands is not valid (empty when it is)."""
        self._check()
        return self._problems

    @property
    def unsaved(self) -> bool:
        """Whether there are changes not yet saved."""
        return self.history.current.text != self.saved_text

    def status(self) -> str:
        """The status line."""
        return self.message

    def say(self, message: str) -> None:
        """Show ``message`` in the status line."""
        self.message = message

    def help_lines(self) -> HelpLines:
        """The editor's controls."""
        return HELP

    def sandbox(self) -> Sandbox:
        """The track as a free table (to try a move on it)."""
        return Sandbox.of_scenario(self.scenario)

    def entered(self) -> None:
        """Back in the editor: nothing half done."""
        self.drag, self.drag_doc, self.entry = None, None, None

    def buttons(self) -> list[TopButton]:
        """Save, Redo, Undo, Fit."""
        return [TopButton("Save" + (" *" if self.unsaved else ""), self.save, width_px=70),
                TopButton("Redo", self.redo, enabled=self.history.can_redo, width_px=60),
                TopButton("Undo", self.undo, enabled=self.history.can_undo, width_px=60),
                TopButton("Fit", self.ctx.canvas.fit, width_px=50)]

    def update(self, dt: float) -> None:
        """Nothing moves by itself in the editor."""

    # ================================================================ checking
    def _check(self) -> None:
        doc = self.doc
        if doc.text == self._checked_text:
            return
        self._checked_text = doc.text
        try:
            scenario = doc.scenario(self.ctx.template_set)
        except InputFileError as exc:
            self._problems = [p.render(exc.source) for p in exc.problems] or [str(exc)]
            return
        except Exception as exc:  # a TOML error
            self._problems = [str(exc)]
            return
        self._problems = []
        self._scenario = scenario
        self._findings = check_track(scenario.table, scenario.template_set) if scenario.spec.scenario.kind == \
            "death_race" else []

    # ================================================================ changes
    def apply(self, doc: TrackDoc, message: str) -> None:
        """Make ``doc`` the present (one undo step) and say what changed."""
        self.history.push(doc)
        self.drag_doc = None
        self.say(message)
        self._check()

    def undo(self) -> None:
        """Take back the last change."""
        if self.history.can_undo:
            self.history.undo()
            self.selected = None
            self.say("Undone.")
            self._check()

    def redo(self) -> None:
        """Bring back the last change taken back."""
        if self.history.can_redo:
            self.history.redo()
            self.say("Redone.")
            self._check()

    def save(self) -> None:
        """Write the file (atomically); the comments and layout the designer wrote are kept."""
        try:
            self.history.current.write(self.path)
        except OSError as exc:
            self.say(f"Cannot save {self.path}: {exc.strerror or exc}")
            return
        self.saved_text = self.history.current.text
        bad = f"; note: {plural(len(self.problems), 'problem')} to fix before it plays" if self.problems else ""
        self.say(f"Saved {self.path}{bad}.")

    # ================================================================ geometry helpers
    @property
    def view(self) -> View:
        """The canvas's view."""
        return self.ctx.canvas.view

    def snapped(self, pos: tuple[int, int]) -> tuple[float, float]:
        """The table point under ``pos``, on the grid when snapping."""
        x, y = self.view.to_table(*pos)
        if self.snap:
            x, y = round(x / GRID_MM) * GRID_MM, round(y / GRID_MM) * GRID_MM
        return (x, y)

    def piece_shape(self, piece: Piece) -> Polygon | LineString | Point:
        """A piece's outline for picking and highlighting."""
        kind, i = piece
        item = self.doc.pieces(kind)[i]
        if kind == "gate":
            r = float(item.get("post_radius_mm", 10.0))
            return LineString([tuple(item["post_a"]), tuple(item["post_b"])]).buffer(r)
        if kind == "line":
            return LineString([tuple(item["a"]), tuple(item["b"])])
        if "circle" in item:
            x, y, r = (float(v) for v in item["circle"])
            return Point(x, y).buffer(r)
        return Polygon([tuple(p) for p in item["polygon"]])

    def piece_at(self, pos: tuple[int, int]) -> Piece | None:
        """The piece under a screen point: gates and lines first, then the smallest shape."""
        pt = Point(*self.view.to_table(*pos))
        slack = self.view.px_to_mm(PICK_SLACK_PX)
        best: tuple[float, Piece] | None = None
        for kind in KINDS:
            for i in range(len(self.doc.pieces(kind))):
                shape = self.piece_shape((kind, i))
                if shape.distance(pt) <= slack:
                    area = 0.0 if kind in ("gate", "line") else float(shape.area)
                    if best is None or area < best[0]:
                        best = (area, (kind, i))
        return best[1] if best else None

    def describe(self, piece: Piece) -> str:
        """A piece in words: ``gate-2 (gate 2)``."""
        kind, i = piece
        item = self.doc.pieces(kind)[i]
        extra = {"gate": f"gate {item.get('number')}", "obstacle": str(item.get("weight", "heavyweight")),
                 "surface": str(item.get("kind", "")), "ramp": f"entry edge {item.get('entry_edge', 1)}",
                 "line": str(item.get("kind", ""))}[kind]
        return f"{item.get('label') or item.get('id')} ({extra})"

    # ================================================================ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Mouse and keys of the editor; True when used."""
        if self.entry is not None and event.type == pygame.KEYDOWN:
            self._entry_key(event)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            pos = (int(event.pos[0]), int(event.pos[1]))
            tool = button_at(self.tool_buttons(), pos)
            if tool is not None:
                tool.action()
                return True
            if self.view.contains_px(pos):
                self._press(pos)
                return True
            return False
        if event.type == pygame.MOUSEMOTION and self.drag is not None:
            piece, start, base = self.drag
            x, y = self.snapped((int(event.pos[0]), int(event.pos[1])))
            self.drag_doc = base.move(piece, x - start[0], y - start[1]) if (x, y) != start else None
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag is not None:
            piece, _, _ = self.drag
            self.drag = None
            if self.drag_doc is not None:
                moved = self.drag_doc
                self.apply(moved, f"Moved {self.describe(piece)}.")
            return True
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        return False

    def _press(self, pos: tuple[int, int]) -> None:
        x, y = self.snapped(pos)
        doc = self.history.current
        tool = self.tool
        if tool == "select":
            self.selected = self.piece_at(pos)
            if self.selected is not None:
                self.drag = (self.selected, (x, y), doc)
                self.say(f"Selected {self.describe(self.selected)}: drag it, Q / E turn, + / - resize, Delete, "
                         "Enter types its values.")
            else:
                self.say("Nothing there. Pick a tool (1-9) to place a piece.")
            return
        if tool == "gate":
            self._place(doc.add_gate_here(x, y, 0.0), "gate", "Gate placed: a Long Straight wide, passed the way "
                        "its arrow points; Q / E turn it, [ ] renumber it.")
        elif tool == "rect":
            self._place(doc.add_obstacle({"polygon": rectangle(x, y, 80.0, 50.0)}), "obstacle", "Obstacle placed.")
        elif tool == "circle":
            self._place(doc.add_obstacle({"circle": [x, y, 25.0]}), "obstacle", "Round obstacle placed.")
        elif tool == "surface":
            self._place(doc.add_surface({"polygon": rectangle(x, y, 120.0, 80.0)}), "surface",
                        "Rough ground placed; K changes its kind (p.86).")
        elif tool == "ramp":
            self._place(doc.add_ramp(rectangle(x, y, 80.0, 60.0), 4), "ramp",
                        "Ramp placed: green edge = entry edge (N changes it); off any other edge a car Jumps or "
                        "Tumbles (p.87).")
        elif tool in ("start", "finish"):
            half = (self.history.current.long_mm) / 2.0
            self._place(doc.add_line(tool, (x, y - half), (x, y + half)), "line", f"{tool.title()} line placed.")
        elif tool == "polygon":
            self.points.append((x, y))
            self.say(f"Polygon: {plural(len(self.points), 'point')}; click more, Enter closes it, Esc cancels.")

    def _place(self, doc: TrackDoc, kind: str, message: str) -> None:
        self.apply(doc, message)
        self.selected = (kind, len(doc.pieces(kind)) - 1)

    def _key(self, event: pygame.event.Event) -> bool:
        key, mods = event.key, event.mod
        ctrl = bool(mods & pygame.KMOD_CTRL)
        shift = bool(mods & pygame.KMOD_SHIFT)
        if ctrl and key == pygame.K_z:
            self.redo() if shift else self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif ctrl and key == pygame.K_s:
            self.save()
        elif ctrl:
            return False
        elif pygame.K_1 <= key <= pygame.K_9:
            self.set_tool(TOOLS[key - pygame.K_1][0])
        elif key == pygame.K_ESCAPE:
            if self.points:
                self.points = []
                self.say("Polygon cancelled.")
            elif self.tool != "select":
                self.set_tool("select")
            else:
                self.selected = None
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.points:
                self._close_polygon()
            elif self.selected is not None:
                self.entry = ""
                self.say("Type x y heading size (mm, degrees; '-' keeps a value), Enter to apply, Esc to cancel.")
        elif key == pygame.K_g:
            self.snap = not self.snap
            self.say(f"Snapping {'on: 10 mm, 15 degrees' if self.snap else 'off'}.")
        elif self.selected is None:
            return False
        else:
            return self._piece_key(key, shift)
        return True

    def _piece_key(self, key: int, shift: bool) -> bool:
        piece = self.selected
        assert piece is not None
        doc = self.history.current
        kind, i = piece
        item = doc.pieces(kind)[i]
        name = self.describe(piece)
        step = 1.0 if shift else ANGLE_STEP_DEG
        if key in (pygame.K_q, pygame.K_e):
            self.apply(doc.rotate(piece, step if key == pygame.K_q else -step), f"Turned {name}.")
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.apply(doc.resize(piece, RESIZE_STEP), f"Enlarged {name}.")
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.apply(doc.resize(piece, 1.0 / RESIZE_STEP), f"Shrank {name}.")
        elif key in (pygame.K_DELETE, pygame.K_BACKSPACE):
            self.apply(doc.delete(piece), f"Deleted {name}.")
            self.selected = None
        elif key == pygame.K_w and kind == "obstacle":
            weight = WEIGHTS[(WEIGHTS.index(str(item.get("weight", "heavyweight"))) + 1) % len(WEIGHTS)]
            self.apply(doc.set(piece, "weight", weight), f"{name}: {weight}.")
        elif key in (pygame.K_t, pygame.K_d, pygame.K_v) and kind == "obstacle":
            flag = {pygame.K_t: "tall", pygame.K_d: "destructible", pygame.K_v: "volatile"}[key]
            on = not bool(item.get(flag, False))
            self.apply(doc.set(piece, flag, on), f"{name}: {'' if on else 'not '}{flag}.")
        elif key == pygame.K_k and kind == "surface":
            new = SURFACE_KINDS[(SURFACE_KINDS.index(str(item.get("kind", "rough"))) + 1) % len(SURFACE_KINDS)]
            self.apply(doc.set(piece, "kind", new), f"{name}: now {new} (p.86).")
        elif key == pygame.K_n and kind == "ramp":
            edges = len(item["polygon"])
            edge = int(item.get("entry_edge", 1)) % edges + 1
            self.apply(doc.set(piece, "entry_edge", edge), f"Ramp entry edge: {edge} of {edges} (p.87).")
        elif key in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET) and kind == "gate":
            number = max(1, int(item.get("number", 1)) + (1 if key == pygame.K_RIGHTBRACKET else -1))
            self.apply(doc.set(piece, "number", number), f"{name}: now gate {number}.")
        else:
            return False
        return True

    def _close_polygon(self) -> None:
        if len(self.points) < 3:
            self.say("A polygon needs at least 3 points.")
            return
        pts, self.points = self.points, []
        if not Polygon(pts).is_valid:
            self.say("That polygon crosses itself: not placed. Click the points in order round it.")
            return
        self._place(self.history.current.add_obstacle({"polygon": pts}), "obstacle",
                    f"Obstacle of {len(pts)} points placed.")

    def set_tool(self, tool: str) -> None:
        """Pick a tool (see :data:`TOOLS`)."""
        self.tool, self.points = tool, []
        label = dict(TOOLS)[tool]
        self.say(f"Tool: {label}." + ("" if tool == "select" else " Click on the table to place it."))

    def _entry_key(self, event: pygame.event.Event) -> None:
        assert self.entry is not None
        if event.key == pygame.K_ESCAPE:
            self.entry = None
            self.say("Numeric entry cancelled.")
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            text, self.entry = self.entry, None
            self.enter_values(text)
        elif event.key == pygame.K_BACKSPACE:
            self.entry = self.entry[:-1]
        elif event.unicode and event.unicode in "0123456789.- ":
            self.entry += event.unicode
        elif event.unicode and event.unicode.isprintable():
            self.say(f"Numeric entry takes digits, '.', '-' and spaces, not {event.unicode!r}: x y heading size "
                     "(mm, degrees; '-' keeps a value). Enter applies, Esc cancels.")

    def enter_values(self, text: str) -> None:
        """Apply ``x y heading size`` typed for the selected piece (any leading part; ``-`` keeps a value)."""
        piece = self.selected
        if piece is None:
            return
        doc = self.history.current
        parts = text.split()
        if not parts:
            self.say("Nothing typed: nothing changed.")
            return
        try:
            values = [None if p == "-" else float(p) for p in parts]
        except ValueError:
            self.say(f"Not numbers: {text!r}. Type x y heading size, e.g. 900 400 90 182.")
            return
        refused = self._out_of_range(values)
        if refused:
            self.say(f"Nothing changed: {refused}.")
            return
        x, y = doc.centre(piece)
        vx = values[0] if len(values) > 0 else None
        vy = values[1] if len(values) > 1 else None
        if vx is not None or vy is not None:
            doc = doc.move_to(piece, vx if vx is not None else x, vy if vy is not None else y)
        if len(values) > 2 and values[2] is not None:
            doc = doc.turn_to(piece, values[2])
        if len(values) > 3 and values[3] is not None:
            doc = doc.resize(piece, values[3] / max(doc.size(piece), 1e-6))
        self.apply(doc, f"{self.describe(piece)} set to {text}.")

    def _out_of_range(self, values: list[float | None]) -> str:
        """Why typed ``x y heading size`` values cannot be applied ("" when they can): at most four numbers, the
        centre on the table, a heading within one turn either way, a size above 0 and at most the table's longer
        side."""
        if len(values) > 4:
            return f"{len(values)} numbers typed; at most 4 (x y heading size)"
        width, height = self.history.current.table_size()
        limits = (("x", 0.0, width, "mm: the centre stays on the table"),
                  ("y", 0.0, height, "mm: the centre stays on the table"),
                  ("heading", -360.0, 360.0, "degrees"),
                  ("size", 0.0, max(width, height), "mm, more than 0"))
        for value, (name, low, high, unit) in zip(values, limits, strict=False):
            if value is None:
                continue
            bad = not math.isfinite(value) or value < low or value > high or (name == "size" and value <= 0.0)
            if bad:
                return f"{name} {value:g} is out of range ({low:g} to {high:g} {unit})"
        return ""

    # ================================================================ drawing
    def tool_buttons(self) -> list[Button[Command]]:
        """The tool palette in the tray."""
        x, y, w, _ = self.ctx.layout.tray
        width = min(110, max(60, (w - 20) // len(TOOLS) - 6))
        out: list[Button[Command]] = []
        for k, (tool, label) in enumerate(TOOLS):
            out.append(Button((x + 10 + k * (width + 6), y + 14, width, 30), f"{k + 1} {label}",
                              self._tool_setter(tool), True, tool == self.tool))
        return out

    def _tool_setter(self, tool: str) -> Command:
        return lambda: self.set_tool(tool)

    def draw(self, surface: pygame.Surface) -> None:
        """The table with the track, the checks on it, the tool palette and the panel."""
        canvas = self.ctx.canvas
        snap = "on" if self.snap else "off"
        draw.text(surface, f"tool: {dict(TOOLS)[self.tool]}  snap: {snap} (G)", TOP_INFO, 18, draw.TEXT_DIM)
        canvas.clip(surface)
        table = self.scenario.table
        draw.draw_table(surface, self.view, table)
        draw_findings(surface, self.view, self.findings)
        overlay = canvas.overlay(surface)
        if self.selected is not None:
            try:
                shape = self.piece_shape(self.selected)
                if isinstance(shape, Polygon):
                    draw.outline_shape(overlay, self.view, shape, draw.SELECT, 3)
                else:
                    grown = shape.buffer(self.view.px_to_mm(4.0))
                    draw.outline_shape(overlay, self.view, grown, draw.SELECT, 2)
            except (IndexError, KeyError):
                self.selected = None
        if self.points:
            pts = [self.view.to_screen(*p) for p in self.points]
            pts.append(self.ctx.canvas.mouse_pos)
            pygame.draw.lines(overlay, draw.SELECT, False, pts, 2)
            for p in pts[:-1]:
                pygame.draw.circle(overlay, draw.SELECT, (round(p[0]), round(p[1])), 4)
        surface.blit(overlay, (0, 0))
        canvas.unclip(surface)
        pygame.draw.rect(surface, draw.PANEL, self.ctx.layout.tray)
        for b in self.tool_buttons():
            draw_button(surface, b, 17)
        tx, ty, _, th = self.ctx.layout.tray
        draw.text(surface, "Q/E turn  +/- size  Del delete  W/T/D/V obstacle  K surface  N ramp  [ ] gate no.  "
                  "Enter: type values", (tx + 10, ty + 56), 16, draw.TEXT_DIM)
        if self.entry is not None:
            draw.text(surface, f"x y heading size: {self.entry}_", (tx + 10, ty + th - 34), 22, draw.SELECT,
                      backing=(10, 10, 10))
        self._draw_panel(surface)

    def _draw_panel(self, surface: pygame.Surface) -> None:
        x, y, w, h = self.ctx.layout.panel
        pygame.draw.rect(surface, draw.PANEL, (x, y, w, h))
        cx, cy = x + 12, y + 10
        name = self.path.name + (" (unsaved changes)" if self.unsaved else "")
        draw.text(surface, name, (cx, cy), 20, draw.TEXT)
        cy += 26
        if self.selected is not None:
            try:
                d = self.doc
                px, py = d.centre(self.selected)
                draw.text(surface, self.describe(self.selected), (cx, cy), 18, draw.SELECT)
                cy += 20
                draw.text(surface, f"x {px:.1f}  y {py:.1f}  heading {d.heading(self.selected):.1f}  "
                          f"size {d.size(self.selected):.1f}", (cx, cy), 16, draw.TEXT_DIM)
                cy += 24
            except (IndexError, KeyError):
                self.selected = None
        if self.problems:
            draw.text(surface, "The file does not read (the last valid track is drawn):", (cx, cy), 17,
                      (235, 70, 60))
            cy += 20
            for line in self.problems[:6]:
                for part in wrap(line, 16, w - 24):
                    draw.text(surface, part, (cx, cy), 16, (235, 120, 110))
                    cy += 17
            cy += 6
        errors = sum(f.severity == "error" for f in self.findings)
        head = f"Death Race check (p.124-125): {plural(errors, 'error')}, {plural(len(self.findings) - errors, 'warning')}"
        if self.scenario.spec.scenario.kind != "death_race":
            head = "Not a Death Race ([scenario] kind): no track check"
        draw.text(surface, head, (cx, cy), 17, draw.TEXT)
        cy += 22
        for line, colour in finding_lines(self.findings):
            for part in wrap(line, 16, w - 24):
                if cy > y + h - 20:
                    return
                draw.text(surface, part, (cx, cy), 16, colour)
                cy += 17
            cy += 3


def check_editable(path: Path) -> TrackDoc:
    """The document of ``path`` for editing (a new one when the file does not exist); an
    :class:`InputFileError` when it cannot be read as a track."""
    from simulator.scenario.track_doc import EMPTY_TRACK

    if path.exists():
        from simulator import safe_read

        doc = TrackDoc(safe_read.read_text(path), str(path))
    else:
        doc = TrackDoc(EMPTY_TRACK, str(path))
    doc.scenario()  # raises InputFileError naming the file, key and reason
    return doc
