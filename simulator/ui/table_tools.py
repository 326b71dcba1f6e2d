"""Tools players reach for at the table: a tape measure and a line-of-fire check, which change nothing.

:class:`TableTools` is owned by a mode (the game) and sees its events first
while a tool is on. **T** (or the top bar's *Tape*) turns the tape measure on:
drag from any point of the table to any other; the tape shows its length in
millimetres and the range band it falls in, the bands being the set's straight
shooting templates (p.27) read from the template set's data. **L** (or *Line of
fire*) turns the line-of-fire check on: click the car that shoots, then its
target; each weapon says its arc, range band and Cover as the referee rules it
(:meth:`simulator.gaslands.referee.Referee.sight`), and the shown weapon's
template, the pieces giving Cover and those blocking the line are drawn. Tab
shows the next weapon, a click on another car picks another target, Esc (or
the key again) puts the tool away. Nothing here checks a rule or touches the
game: the game's state, prompt and decisions are as they were.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import pygame

from simulator.gaslands.referee import Sight
from simulator.gaslands.state import GameState
from simulator.geometry.pose import Pose
from simulator.geometry.table import Table
from simulator.geometry.templates import TemplateSet
from simulator.ui import draw
from simulator.ui.canvas import Canvas, vehicle_ids
from simulator.ui.widgets import Button, button_at, draw_button

Tool = Literal["", "tape", "sight"]
HelpLines = Sequence[tuple[str, str]]
BUTTON_PX = 24

TAPE = (255, 236, 120)
COVER = (255, 200, 40)
BLOCK = (240, 60, 60)
SHOOTER = (255, 255, 255)
TARGET = (255, 110, 90)

HELP: HelpLines = (
    ("T (or Tape, the table's corner)", "tape measure: drag from any point; mm and the range band (T or Esc: away)"),
    ("L (or Line of fire, its corner)", "click a car, then its target: each weapon's arc, range and Cover, drawn; "
                                        "Tab: next weapon"),
)
"""The tools' rows of the help overlay."""


@dataclass(frozen=True)
class Band:
    """A range band: its label and how far it reaches (mm), from the template set's data (p.27)."""

    name: str
    label: str
    length_mm: float


def range_bands(template_set: TemplateSet) -> tuple[Band, ...]:
    """The set's straight shooting templates (Short, Medium, Long, Double, p.27), shortest first."""
    bands = (Band(name, t.label, float(t.length_mm)) for name, t in template_set.shooting.items()
             if t.shape == "straight")
    return tuple(sorted(bands, key=lambda b: b.length_mm))


def band_words(length_mm: float, bands: Sequence[Band]) -> str:
    """Which band a distance falls in: ``"within Medium (120 mm)"``, or ``"beyond Double (302 mm)"``."""
    for b in bands:
        if length_mm <= b.length_mm:
            return f"within {b.label} ({b.length_mm:.0f} mm)"
    if not bands:
        return ""
    return f"beyond {bands[-1].label} ({bands[-1].length_mm:.0f} mm)"


@dataclass(frozen=True)
class SightRow:
    """One weapon's answer in the line-of-fire check: the mount, its name and the referee's sight."""

    mount: int
    weapon: str
    sight: Sight

    def words(self, name: Callable[[str], str]) -> str:
        """The row as a sentence: the weapon, its arc and what the referee says."""
        s = self.sight
        if not s.arc:
            return f"{self.weapon}: dropped behind the car, never aimed at a target (p.78)"
        arc = "360-degree" if s.arc == "turret" else f"{s.arc} arc"
        head = f"{self.weapon} ({arc})"
        if s.shot is None:
            blocked = f", blocked by {', '.join(name(b) for b in s.blocked_by)} (Tall, p.87)" if s.blocked_by else ""
            return f"{head}: cannot fire, out of arc or {s.range_band} range{blocked} (p.28-30)"
        cover = (f", Cover from {', '.join(name(c) for c in s.cover_from)} (p.42)" if s.shot.cover and s.cover_from
                 else ", Cover (p.42)" if s.shot.cover else ", no Cover")
        return f"{head}: can fire, {s.shot.range_band.capitalize()} range{cover}"


class TableTools:
    """The tape measure and the line-of-fire check of one mode (see the module docstring).

    ``table`` gives the table as drawn, ``sight`` asks the referee (state, shooter, mount, target),
    ``name`` names a piece, ``state`` gives the game's state. ``kinds``: the tools offered; without a game
    (the free table) only the tape, and ``state`` and ``sight`` may be None.
    """

    def __init__(self, canvas: Canvas, template_set: TemplateSet, table: Callable[[], Table],
                 state: Callable[[], GameState] | None, sight: Callable[[GameState, str, int, str], Sight] | None,
                 name: Callable[[str], str], kinds: tuple[Tool, ...] = ("sight", "tape")) -> None:
        if "sight" in kinds and (state is None or sight is None):
            raise ValueError("the line-of-fire check needs the game's state and the referee's sight")
        self.kinds = kinds
        self.canvas = canvas
        self.bands = range_bands(template_set)
        self.table = table
        self.state = state
        self.sight = sight
        self.name = name
        self.tool: Tool = ""
        self.tape: tuple[tuple[float, float], tuple[float, float]] | None = None
        """The tape's two ends on the table (mm), the first where the drag began."""
        self.dragging = False
        self.shooter: str | None = None
        self.target: str | None = None
        self.shown = 0
        """Which weapon row's template is drawn."""
        self._rows_key: tuple[object, ...] | None = None
        self._rows: tuple[SightRow, ...] = ()

    # ================================================================ switching
    def toggle(self, tool: Tool) -> str:
        """Turn ``tool`` on (the other off), or off if it is on; the status line's words."""
        if self.tool == tool or not tool:
            self.tool, self.dragging = "", False
            return "Tool put away."
        if tool not in self.kinds:
            return "The line-of-fire check needs a game: use the rulings mode (R) here."
        self.tool = tool
        if tool == "tape":
            return "Tape measure: drag from any point of the table. T or Esc puts it away; the game waits."
        self.shooter = self.target = None
        return "Line of fire: click the car that shoots, then its target. L or Esc puts it away; the game waits."

    def buttons(self) -> list[Button[Tool]]:
        """The tools' buttons in the table's bottom right corner (lit while on)."""
        x, y, w, h = self.canvas.rect
        out: list[Button[Tool]] = []
        right = x + w - 8
        keys = self.kinds == ("sight", "tape")  # T and L are the tools' keys where both are offered (a game)
        spec: tuple[tuple[Tool, str, int], ...] = (("sight", "Line of fire (L)", 132),
                                                    ("tape", "Tape (T)" if keys else "Tape", 78 if keys else 56))
        for tool, label, width in spec:
            if tool not in self.kinds:
                continue
            right -= width
            out.append(Button((right, y + h - 8 - BUTTON_PX, width, BUTTON_PX), label, tool, True, self.tool == tool))
            right -= 6
        return out

    # ================================================================ events
    def handle_event(self, event: pygame.event.Event) -> str | None:
        """Take an event (the corner buttons always, the rest while a tool is on): the status line's words when
        used, else None."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            b = button_at(self.buttons(), (int(event.pos[0]), int(event.pos[1])))
            if b is not None:
                return self.toggle(b.action)
        if not self.tool:
            return None
        view = self.canvas.view
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                return self.toggle("")
            if event.key == pygame.K_TAB and self.tool == "sight" and self.rows():
                self.shown = (self.shown + 1) % len(self.rows())
                return self.rows()[self.shown].words(self.name)
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and view.contains_px(event.pos):
            point = view.to_table(*event.pos)
            if self.tool == "tape":
                self.tape, self.dragging = (point, point), True
                return self.tape_words()
            return self._pick(event.pos)
        if event.type == pygame.MOUSEMOTION and self.dragging and self.tape is not None:
            self.tape = (self.tape[0], view.to_table(*event.pos))
            return self.tape_words()
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            self.dragging = False
            return self.tape_words()
        return None

    def _pick(self, pos: tuple[int, int]) -> str:
        table = self.table()
        piece = self.canvas.piece_at(table, pos)
        if piece is None or piece not in vehicle_ids(table):
            return "Click a car: the one that shoots, then its target."
        if self.shooter is None or (self.target is not None and piece == self.shooter):
            self.shooter, self.target, self.shown = piece, None, 0
            return f"{self.name(piece)} shoots: now click its target."
        if piece == self.shooter:
            return f"{self.name(piece)} cannot shoot itself: click its target."
        self.target, self.shown = piece, 0
        rows = self.rows()
        self.shown = next((i for i, r in enumerate(rows) if r.sight.shot is not None), 0)
        able = sum(1 for r in rows if r.sight.shot is not None)
        return (f"{self.name(self.shooter)} at {self.name(piece)}: {able} of {len(rows)} weapons can fire. "
                "Tab shows the next; click a car for another target.")

    # ================================================================ answers
    def tape_length_mm(self) -> float:
        """The tape's length (mm); 0 without a tape."""
        if self.tape is None:
            return 0.0
        (x0, y0), (x1, y1) = self.tape
        return math.hypot(x1 - x0, y1 - y0)

    def tape_words(self) -> str:
        """``"87 mm: within Medium (120 mm)"``."""
        length = self.tape_length_mm()
        return f"{length:.0f} mm: {band_words(length, self.bands)}"

    def rows(self) -> tuple[SightRow, ...]:
        """Each weapon of the shooter (its crew's Handgun first) at the target, as the referee rules it."""
        if self.shooter is None or self.target is None or self.state is None or self.sight is None:
            return ()
        state = self.state()
        key = (state, self.shooter, self.target)
        if key != self._rows_key:
            try:
                v = state.vehicle(self.shooter)
                state.vehicle(self.target)
            except KeyError:
                self.shooter = self.target = None
                return ()
            rows = []
            for mount in (-1, *range(len(v.weapons))):
                _, weapon = v.weapon(mount)
                rows.append(SightRow(mount, weapon.name, self.sight(state, self.shooter, mount, self.target)))
            self._rows_key, self._rows = key, tuple(rows)
        return self._rows

    # ================================================================ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """The corner buttons; the tool's marks on the table and its card at the table's top left."""
        for b in self.buttons():
            draw_button(surface, b, 16)
        if not self.tool:
            return
        self.canvas.clip(surface)
        over = self.canvas.overlay(surface)
        if self.tool == "tape":
            self._draw_tape(over)
            surface.blit(over, (0, 0))
            lines = [self.tape_words() if self.tape is not None else "Drag from any point to measure."]
            lines += [f"{b.label}: {b.length_mm:.0f} mm" for b in self.bands]
            self._card(surface, "TAPE MEASURE (changes nothing)", lines)
        else:
            self._draw_sight(over)
            surface.blit(over, (0, 0))
            self._card(surface, "LINE OF FIRE (changes nothing)", self._sight_lines())
        self.canvas.unclip(surface)

    def _draw_tape(self, over: pygame.Surface) -> None:
        if self.tape is None:
            return
        view = self.canvas.view
        a, b = (view.to_screen(*p) for p in self.tape)
        length = self.tape_length_mm()
        if length > 0:  # the band marks along the tape
            for band in self.bands:
                if band.length_mm < length:
                    t = band.length_mm / length
                    m = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                    pygame.draw.circle(over, (*TAPE, 255), m, 4)
                    draw.text(over, band.label, (m[0] + 6, m[1] - 6), 14, TAPE, "bottomleft",
                              backing=(10, 10, 10, 170))
        pygame.draw.line(over, (20, 20, 20, 200), a, b, 6)
        pygame.draw.line(over, (*TAPE, 255), a, b, 3)
        pygame.draw.circle(over, (*TAPE, 255), a, 5)
        pygame.draw.circle(over, (*TAPE, 255), b, 5, 2)
        draw.text(over, self.tape_words(), (b[0] + 10, b[1] + 10), 17, TAPE, "topleft", backing=(10, 10, 10, 210))

    def _draw_sight(self, over: pygame.Surface) -> None:
        view, table = self.canvas.view, self.table()
        ids = vehicle_ids(table)
        for vid, colour in ((self.shooter, SHOOTER), (self.target, TARGET)):
            if vid is not None and vid in ids:
                draw.outline_shape(over, view, table.vehicle(vid).footprint.buffer(2.0, join_style="mitre"),
                                   colour, 3)
        rows = self.rows()
        if not rows or self.shooter not in ids:
            return
        row = rows[self.shown % len(rows)]
        s = row.sight
        shooter = table.vehicle(self.shooter)
        self._draw_arc(over, shooter.pose, shooter.length_mm, shooter.width_mm, s.arc)
        if s.template is not None:
            fill = (120, 200, 255, 70) if s.shot is not None else (200, 200, 200, 40)
            draw.fill_shape(over, view, s.template, fill, (120, 200, 255) if s.shot is not None else (200, 200, 200),
                            2)
        if s.near_part is not None and s.shot is not None:
            draw.fill_shape(over, view, s.near_part, (255, 150, 60, 70), (255, 150, 60), 1)
        for piece, colour in ((p, COVER) for p in s.cover_from):
            self._outline(over, table, piece, colour)
        for piece in s.blocked_by:
            self._outline(over, table, piece, BLOCK)

    def _draw_arc(self, over: pygame.Surface, pose: Pose, length_mm: float, width_mm: float, arc: str) -> None:
        """The edges the weapon fires from, thick: front, rear, both sides, or all round (p.28-30)."""
        hl, hw = length_mm / 2.0, width_mm / 2.0
        fl, fr, rl, rr = pose.offset(hl, hw), pose.offset(hl, -hw), pose.offset(-hl, hw), pose.offset(-hl, -hw)
        edges = {"front": [(fl, fr)], "rear": [(rl, rr)], "side": [(fl, rl), (fr, rr)],
                 "turret": [(fl, fr), (fr, rr), (rr, rl), (rl, fl)]}.get(arc, [])
        view = self.canvas.view
        for a, b in edges:
            pygame.draw.line(over, (120, 200, 255, 255), view.to_screen(*a), view.to_screen(*b), 5)

    def _outline(self, over: pygame.Surface, table: Table, piece: str, colour: tuple[int, int, int]) -> None:
        try:
            shape = table.shape_of(piece)
        except KeyError:
            return
        draw.outline_shape(over, self.canvas.view, shape.buffer(1.5, join_style="mitre"), colour, 4)

    def _sight_lines(self) -> list[str]:
        if self.shooter is None:
            return ["Click the car that shoots."]
        if self.target is None:
            return [f"{self.name(self.shooter)} shoots: click its target."]
        rows = self.rows()
        lines = [f"{self.name(self.shooter)} at {self.name(self.target)}"]
        for i, r in enumerate(rows):
            lines.append(("> " if i == self.shown % max(len(rows), 1) else "   ") + r.words(self.name))
        lines.append("Tab: next weapon drawn.  Blue: template, yellow: Cover, red: blocks.")
        return lines

    def _card(self, surface: pygame.Surface, title: str, lines: Sequence[str]) -> None:
        x, y, w, _ = self.canvas.rect
        size = 16
        width = min(w - 16, max(draw.font(size).size(t)[0] for t in (title, *lines)) + 20)
        card = pygame.Rect(x + 8, y + 8, width, 30 + 20 * len(lines))
        shade = pygame.Surface(card.size, pygame.SRCALPHA)
        shade.fill((12, 13, 16, 225))
        surface.blit(shade, card.topleft)
        pygame.draw.rect(surface, TAPE, card, 1, border_radius=6)
        draw.text(surface, title, (card.left + 10, card.top + 6), size, TAPE)
        for i, line in enumerate(lines):
            draw.text(surface, line, (card.left + 10, card.top + 28 + 20 * i), size, draw.TEXT)
