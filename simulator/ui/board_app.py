"""The pygame-ce front end for the two Deadlands boards (Slaughter Gulch and Doomtown).

Public entry points: :func:`run_board_window` (a window and its event loop) and
:func:`render_board` (the same drawing, headless, to a PNG). Both take a board
file (``[board]`` table, see ``BOARDS.md``). An :class:`App` splits each frame
into ``handle_event`` / ``update`` / ``draw`` so tests can post mouse events.

The rules live in :mod:`simulator.boards`; this module only draws positions
and turns mouse drags into choices the models judge. Board spaces are laid out
in screen pixels here: the boards have no millimetre frame, so ``ui/view.py``
(the table's mm <-> px conversion) is not involved.
"""

from __future__ import annotations

import math
import os
import pathlib
from collections.abc import Callable
from typing import Any

import pygame

from simulator.boards import doomtown as dt
from simulator.boards import slaughter_gulch as sg
from simulator.boards.board_files import DoomGame, GulchGame, load_board_path

Colour = tuple[int, int, int]
PAPER: Colour = (236, 226, 200)
INK: Colour = (40, 30, 20)
WOOD: Colour = (150, 104, 64)
WOOD_DARK: Colour = (96, 62, 34)
STREET: Colour = (206, 178, 128)
STREET_LINE: Colour = (160, 130, 86)
GREEN: Colour = (40, 170, 70)
BLUE: Colour = (40, 110, 210)
RED: Colour = (200, 40, 40)
GOLD: Colour = (220, 180, 40)
GREY: Colour = (120, 120, 120)
WHITE: Colour = (255, 255, 255)
NEUTRAL: Colour = (196, 190, 178)
PALETTE: tuple[Colour, ...] = (
    (200, 60, 50), (50, 100, 200), (230, 200, 60), (60, 160, 80), (150, 70, 170), (240, 140, 40),
)
DRAG_THRESHOLD_PX = 4

HELP_COMMON = [
    ("H / F1", "show or hide this help"),
    ("Esc", "cancel the current selection, drag or mode"),
    ("Ctrl+Z", "undo the last change"),
]
HELP_GULCH = [
    ("Click a dude", "show where it may move (green), sees (blue outline), may shoot (crosshair)"),
    ("Drag a dude", "move it; an illegal drop snaps back with the reason"),
    ("R", "toggle Run (four spaces, no other action)"),
    ("P", "planning mode: each outfit plans in secret, Enter passes on; P again abandons it;"),
    ("", "after the last outfit all moves are revealed together"),
    ("E", "end the round: the Deputy moves to the next building"),
]
HELP_DOOM = [
    ("Drag a dude", "move it (free or boots shown while dragging; illegal refused)"),
    ("Click a deed", "select it; D or Delete destroys it (the row closes up)"),
    ("Click a +", "add a new deed at that end of the street"),
    ("O", "add an out-of-town deed (a Strike) for the selected dude's or deed's player;"),
    ("", "or click \"+ out of town\" beside a player (right). Out of town: adjacent to nothing"),
    ("C, then a dude", "the selected dude calls that dude out: posses highlighted"),
    ("J, then a deed", "the selected dude leads a job there: posses highlighted"),
    ("U", "Nightfall: unboot every dude"),
]


def font(size: int) -> pygame.font.Font:
    """Return the pygame default font at ``size`` px (cached)."""
    key = ("font", size)
    if key not in _FONTS:
        _FONTS[key] = pygame.font.Font(None, size)
    return _FONTS[key]


_FONTS: dict[tuple[str, int], pygame.font.Font] = {}


def text(surface: pygame.Surface, words: str, pos: tuple[int, int], size: int = 20, colour: Colour = INK,
         centre: bool = False) -> pygame.Rect:
    """Draw ``words`` at ``pos`` (top-left, or centre when ``centre``); return the text rect."""
    image = font(size).render(words, True, colour)
    rect = image.get_rect(center=pos) if centre else image.get_rect(topleft=pos)
    surface.blit(image, rect)
    return rect


def wrap(words: str, size: int, width: int) -> list[str]:
    """Split ``words`` into lines no wider than ``width`` px in the default font."""
    lines: list[str] = []
    for word in words.split():
        if lines and font(size).size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def fit_lines(words: str, size: int, width: int, max_lines: int = 2) -> tuple[list[str], int]:
    """Wrap ``words`` into at most ``max_lines`` lines of ``width`` px, shrinking the font until they fit."""
    while size > 12:
        lines = wrap(words, size, width)
        if len(lines) <= max_lines and all(font(size).size(line)[0] <= width for line in lines):
            return lines, size
        size -= 2
    return wrap(words, size, width)[:max_lines], size


def pretty(key: str) -> str:
    """Turn an id like ``texas_rangers`` or ``casino-morongo`` into ``Texas Rangers``."""
    return " ".join(part.capitalize() for part in key.replace("-", " ").replace("_", " ").split())


def translucent(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, alpha: int) -> None:
    """Fill ``rect`` with ``colour`` at ``alpha`` (0-255) over what is drawn."""
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    layer.fill((*colour, alpha))
    surface.blit(layer, rect.topleft)


class _View:
    """What both board views share: the undo history, the message line, the drag state."""

    help_lines: list[tuple[str, str]] = []

    def __init__(self, state: Any, size: tuple[int, int], title: str) -> None:
        self.state = state
        self.size = size
        self.title = title
        self.history: list[Any] = []
        self.message = "Press H for help."
        self.dragging: str | None = None
        self.drag_from: tuple[int, int] = (0, 0)
        self.drag_pos: tuple[int, int] = (0, 0)

    def commit(self, new_state: Any, message: str) -> None:
        """Make ``new_state`` current, remembering the old one for undo."""
        self.history.append(self.state)
        self.state = new_state
        self.message = message

    def undo(self) -> None:
        """Go back to the state before the last change."""
        if not self.history:
            self.message = "Nothing to undo."
            return
        self.state = self.history.pop()
        self.cancel()
        self.message = "Undone."

    def cancel(self) -> None:
        """Drop the drag in progress."""
        self.dragging = None

    def begin_drag(self, dude_id: str, pos: tuple[int, int]) -> None:
        """Pick up ``dude_id`` at ``pos``."""
        self.dragging, self.drag_from, self.drag_pos = dude_id, pos, pos

    def dragged_far(self, pos: tuple[int, int]) -> bool:
        """True once the mouse moved far enough from the press to count as a drag."""
        return abs(pos[0] - self.drag_from[0]) + abs(pos[1] - self.drag_from[1]) > DRAG_THRESHOLD_PX

    def handle_event(self, event: pygame.event.Event) -> None:
        """Route mouse events to ``press``, ``motion`` and ``release``; keys to ``key``."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.press(event.pos)
        elif event.type == pygame.MOUSEMOTION:
            if self.dragging:
                self.drag_pos = event.pos
            self.motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            dude_id, self.dragging = self.dragging, None
            self.release(dude_id, event.pos)
        elif event.type == pygame.KEYDOWN:
            self.key(event.key)

    def press(self, pos: tuple[int, int]) -> None:  # pragma: no cover - overridden
        """Mouse button 1 pressed at ``pos``."""

    def motion(self, pos: tuple[int, int]) -> None:
        """The mouse moved to ``pos``."""

    def release(self, dude_id: str, pos: tuple[int, int]) -> None:  # pragma: no cover - overridden
        """``dude_id`` was dropped at ``pos``."""

    def key(self, key: int) -> None:
        """A key was pressed."""

    def draw(self, surface: pygame.Surface) -> None:  # pragma: no cover - overridden
        """Draw the whole view."""

    def draw_message(self, surface: pygame.Surface) -> None:
        """Draw the message line along the bottom edge."""
        w, h = surface.get_size()
        bar = pygame.Rect(0, h - 34, w, 34)
        pygame.draw.rect(surface, WOOD_DARK, bar)
        text(surface, self.message, (12, h - 26), 24, WHITE)


# --------------------------------------------------------------------------- Slaughter Gulch glyphs
# Each marker is drawn by one function, used both on the board and in the legend, so the
# legend always shows exactly what the board shows. Marker meanings never share a shape:
# red is kept for "may shoot" (a crosshair) alone.

Point = tuple[int, int]


def glyph_move(surface: pygame.Surface, centre: Point, half: int = 8) -> None:
    """May move there: a translucent green fill."""
    translucent(surface, pygame.Rect(centre[0] - half, centre[1] - half, 2 * half, 2 * half), GREEN, 110)


def glyph_sight(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """Can see: a blue outline inside the space."""
    pygame.draw.rect(surface, BLUE, rect, 3)


def glyph_crosshair(surface: pygame.Surface, centre: Point) -> None:
    """May shoot (gun): a red crosshair, a ring with four ticks."""
    x, y = centre
    pygame.draw.circle(surface, RED, centre, 9, 3)
    pygame.draw.line(surface, RED, (x - 12, y), (x + 12, y), 2)
    pygame.draw.line(surface, RED, (x, y - 12), (x, y + 12), 2)


def glyph_wounded(surface: pygame.Surface, centre: Point) -> None:
    """Wounded: a white bandage badge with a black W at the token's lower right (never red)."""
    badge = pygame.Rect(centre[0] + 4, centre[1] + 2, 15, 14)
    pygame.draw.rect(surface, WHITE, badge, border_radius=3)
    pygame.draw.rect(surface, INK, badge, 1, border_radius=3)
    text(surface, "W", badge.center, 16, INK, centre=True)


def glyph_bars(surface: pygame.Surface, centre: Point) -> None:
    """In a jail cell: three black bars across the token."""
    for dx in (-6, 0, 6):
        pygame.draw.line(surface, INK, (centre[0] + dx, centre[1] - 13), (centre[0] + dx, centre[1] + 13), 2)


def glyph_star(surface: pygame.Surface, centre: Point) -> None:
    """The Deputy: a gold five-pointed star."""
    points = []
    for i in range(10):
        r = 12 if i % 2 == 0 else 5
        a = math.pi / 2 + i * math.pi / 5
        points.append((centre[0] + r * math.cos(a), centre[1] - r * math.sin(a)))
    pygame.draw.polygon(surface, GOLD, points)
    pygame.draw.polygon(surface, INK, points, 1)


def glyph_townsfolk(surface: pygame.Surface, centre: Point) -> None:
    """A townsfolk: a grey square marked T."""
    pygame.draw.rect(surface, GREY, (centre[0] - 9, centre[1] - 9, 18, 18), border_radius=3)
    text(surface, "T", centre, 18, WHITE, centre=True)


def glyph_selected(surface: pygame.Surface, centre: Point, colour: Colour = PAPER) -> None:
    """The selected dude: a thick gold ring."""
    pygame.draw.circle(surface, colour, centre, 12)
    pygame.draw.circle(surface, GOLD, centre, 12, 3)


def glyph_held(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, words: str = "") -> None:
    """A building held (controlled) by an outfit: a band in its colour along the bottom, naming it."""
    band = pygame.Rect(rect.x + 3, rect.bottom - 22, rect.width - 6, 19)
    pygame.draw.rect(surface, colour, band, border_radius=4)
    pygame.draw.rect(surface, INK, band, 1, border_radius=4)
    if words:
        label, size = fit_lines(words, 18, band.width - 8, max_lines=1)
        text(surface, label[0] if label else "", band.center, size, INK, centre=True)


# --------------------------------------------------------------------------- Slaughter Gulch


class GulchView(_View):
    """Slaughter Gulch: the town grid, figures, move/sight highlights, dragging and secret planning."""

    help_lines = HELP_GULCH

    def __init__(self, game: GulchGame, size: tuple[int, int]) -> None:
        super().__init__(game.town, size, game.title)
        self.selected: str | None = None
        self.run = False
        self.colours = {o: PALETTE[i % len(PALETTE)] for i, o in enumerate(game.town.outfits())}
        self.planning: list[str] = []          # outfits still to plan, the current one first
        self.plans: dict[str, sg.Plan] = {}
        self.curtain = False                   # hide the board while the screen passes on
        w, h = size
        self.board_rect = pygame.Rect(16, 56, w - 330, h - 56 - 34 - 110)
        self.home_rect = pygame.Rect(16, self.board_rect.bottom + 10, self.board_rect.width, 90)

    @property
    def town(self) -> sg.Town:
        """The current position."""
        town: sg.Town = self.state
        return town

    # ---- layout
    def _column_x(self, col: int) -> tuple[int, int]:
        n = self.town.board.columns
        width = self.board_rect.width / (n + 2)
        return int(self.board_rect.x + (col + 1) * width), int(width)

    def _row_y(self, row: int) -> tuple[int, int]:
        h = self.board_rect.height
        heights = {-1: 0.32 * h, 0: 0.18 * h, 1: 0.18 * h, 2: 0.32 * h}
        y = self.board_rect.y + sum(heights[r] for r in range(-1, row))
        return int(y), int(heights[row])

    def cell_rect(self, cell: sg.Cell) -> pygame.Rect:
        """The screen rectangle of a grid cell."""
        x, w = self._column_x(cell.col)
        y, h = self._row_y(cell.row)
        return pygame.Rect(x, y, w, h)

    def location_rect(self, location: str) -> pygame.Rect:
        """The screen rectangle of a location (``home`` is the strip below the board)."""
        if location == sg.HOME:
            return self.home_rect.copy()
        rects = [self.cell_rect(c) for c in self.town.board.cells(location)]
        return rects[0].unionall(rects[1:])

    def location_at(self, pos: tuple[int, int]) -> str | None:
        """The location under the screen point ``pos``, or ``None``."""
        if self.home_rect.collidepoint(pos):
            return sg.HOME
        for loc in self.town.board.locations:
            if loc != sg.HOME and self.location_rect(loc).collidepoint(pos):
                return loc
        return None

    def _home_slot(self, outfit: str) -> pygame.Rect:
        outfits = self.town.outfits() or ("",)
        width = self.home_rect.width // len(outfits)
        i = outfits.index(outfit) if outfit in outfits else 0
        return pygame.Rect(self.home_rect.x + i * width, self.home_rect.y, width, self.home_rect.height)

    def token_centres(self) -> dict[str, tuple[int, int]]:
        """Screen centre of every figure: dude ids, ``townsfolk:N`` and ``deputy``."""
        centres: dict[str, tuple[int, int]] = {}
        groups: dict[str, list[str]] = {}
        for d in self.town.dudes:
            key = f"home:{d.outfit}" if d.at == sg.HOME else d.at
            groups.setdefault(key, []).append(d.id)
        for i, at in enumerate(self.town.townsfolk):
            groups.setdefault(at, []).append(f"townsfolk:{i}")
        if self.town.deputy:
            groups.setdefault(self.town.deputy, []).append("deputy")
        for key, ids in groups.items():
            centres.update(self._arrange(key, ids))
        return centres

    def _arrange(self, key: str, ids: list[str]) -> dict[str, tuple[int, int]]:
        """Lay figures in rows inside their location, below the name of a building."""
        if key.startswith("home:"):
            rect, top = self._home_slot(key[5:]), 30
        else:
            rect = self.location_rect(key)
            top = 14 if self.town.board.is_street(key) else 48
        step = 30
        per_row = max(1, (rect.width - 12) // step)
        return {fid: (rect.x + 20 + (i % per_row) * step, rect.y + top + (i // per_row) * step)
                for i, fid in enumerate(ids)}

    def dude_at_pos(self, pos: tuple[int, int]) -> str | None:
        """The dude whose token is under ``pos``, or ``None``."""
        for fid, (x, y) in self.token_centres().items():
            if fid in {d.id for d in self.town.dudes} and (x - pos[0]) ** 2 + (y - pos[1]) ** 2 <= 13 ** 2:
                return fid
        return None

    # ---- events
    def press(self, pos: tuple[int, int]) -> None:
        if self.curtain:
            self.curtain = False
            return
        dude_id = self.dude_at_pos(pos)
        if dude_id is None:
            self.selected = None
            return
        if self.planning and self.town.dude(dude_id).outfit != self.planning[0]:
            self.message = f"It is {pretty(self.planning[0])}'s turn to plan; that dude is not theirs."
            return
        self.selected = dude_id
        self.begin_drag(dude_id, pos)
        self.message = self._describe(dude_id)

    def _describe(self, dude_id: str) -> str:
        d = self.town.dude(dude_id)
        spaces, why = sg.allowance(d, self.run)
        state = ", wounded" if d.wounded else ""
        return f"{d.id} ({pretty(d.outfit)}{state}) at {self._name(d.at)}: {why}."

    def _name(self, location: str) -> str:
        cell = sg.parse_street(location)
        return f"street {cell.row}:{cell.col}" if cell else sg.DISPLAY_NAMES.get(location, location)

    def release(self, dude_id: str, pos: tuple[int, int]) -> None:
        if not self.dragged_far(pos):
            return
        target = self.location_at(pos)
        dude = self.town.dude(dude_id)
        if target is None or target == dude.at:
            self.message = f"{dude_id} stays at {self._name(dude.at)}."
            return
        verdict = sg.check_plan(self.town.board, dude, sg.Plan(target, self.run))
        if not verdict.legal:
            self.message = f"Illegal: {verdict.reason}"
        elif self.planning:
            self.plans[dude_id] = sg.Plan(target, self.run)
            self.message = f"Planned (secret): {dude_id} to {self._name(target)}."
        else:
            self.commit(self.town.moved(dude_id, target), f"{dude_id} moved to {self._name(target)}: "
                                                          f"{verdict.reason}")

    def key(self, key: int) -> None:
        if self.curtain and key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER):
            self.curtain = False
        elif key == pygame.K_r:
            self.run = not self.run
            self.message = "Run: up to four spaces, no other action." if self.run else "Walk: up to two spaces."
        elif key == pygame.K_p and not self.planning:
            self.start_planning()
        elif key == pygame.K_p:
            self.abandon_planning()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.planning:
            self.next_planner()
        elif key == pygame.K_e and not self.planning:
            self.commit(sg.end_round(self.town), "Round over: the Deputy moves on." if self.town.deputy
                        else "Round over.")

    def cancel(self) -> None:
        """Esc: drop the drag and the selection; secret plans are kept (P abandons planning)."""
        super().cancel()
        self.selected = None
        if self.planning:
            self.message = f"{pretty(self.planning[0])}: still planning (Enter passes on, P abandons planning)."

    def abandon_planning(self) -> None:
        """P while planning: give up this round's secret plans."""
        self.planning, self.plans, self.curtain, self.run = [], {}, False, False
        self.message = "Planning abandoned: no plan was carried out."

    def undo(self) -> None:
        """Ctrl+Z: while planning, take back this outfit's last plan; otherwise undo the last change."""
        if not self.planning:
            super().undo()
            return
        mine = [d for d in self.plans if self.town.dude(d).outfit == self.planning[0]]
        if not mine:
            self.message = "No plan of yours to take back."
            return
        del self.plans[mine[-1]]
        self.message = f"Plan for {mine[-1]} taken back."

    def start_planning(self) -> None:
        """Begin step 2: each outfit in turn plans its moves behind its screen."""
        self.planning = list(self.town.outfits())
        self.plans = {}
        self.selected = None
        self.curtain = True
        self.run = False
        self.message = f"{pretty(self.planning[0])}: drag your dudes to plan, then press Enter."

    def next_planner(self) -> None:
        """Pass the screen to the next outfit, or reveal every plan after the last."""
        self.planning.pop(0)
        self.selected = None
        self.run = False  # each outfit chooses Walk or Run behind its own screen
        if self.planning:
            self.curtain = True
            self.message = f"{pretty(self.planning[0])}: drag your dudes to plan, then press Enter."
            return
        moved, verdicts = sg.resolve_plans(self.town, self.plans)
        illegal = [d for d, v in verdicts.items() if not v.legal]
        self.commit(moved, f"Revealed: {len(verdicts) - len(illegal)} move(s) made"
                    + (f"; stayed put: {', '.join(illegal)}" if illegal else "."))
        self.plans = {}

    # ---- drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(PAPER)
        text(surface, self.title, (16, 14), 36, INK)
        self._draw_streets(surface)
        for b in self.town.board.buildings:
            self._draw_building(surface, b)
        self._draw_home(surface)
        if self.curtain:
            self._draw_curtain(surface)
        else:
            self._draw_highlights(surface)
            self._draw_figures(surface)
        self._draw_sidebar(surface)
        self.draw_message(surface)

    def _draw_streets(self, surface: pygame.Surface) -> None:
        for sq in self.town.board.streets:
            rect = self.location_rect(sq)
            pygame.draw.rect(surface, STREET, rect)
            pygame.draw.rect(surface, STREET_LINE, rect, 1)
            cell = sg.parse_street(sq)
            assert cell is not None
            text(surface, f"{cell.row}:{cell.col}", (rect.right - 30, rect.bottom - 16), 16, STREET_LINE)

    def _draw_building(self, surface: pygame.Surface, building: str) -> None:
        rect = self.location_rect(building).inflate(-8, -8)
        pygame.draw.rect(surface, WOOD, rect, border_radius=6)
        pygame.draw.rect(surface, WOOD_DARK, rect, 3, border_radius=6)
        for door in self.town.board.doors(building):
            self._draw_door(surface, rect, self.location_rect(door))
        disk = (rect.x + 16, rect.y + 16)
        pygame.draw.circle(surface, PAPER, disk, 13)
        text(surface, str(self.town.board.number(building)), disk, 22, INK, centre=True)
        lines, size = fit_lines(self._name(building), 22, rect.width - 40)
        for i, line in enumerate(lines):
            text(surface, line, (rect.x + 34, rect.y + 6 + i * 18), size, WHITE)
        owner = sg.controller(self.town, building)
        if owner:
            glyph_held(surface, rect, self.colours[owner], f"held: {pretty(owner)}")

    def _draw_door(self, surface: pygame.Surface, rect: pygame.Rect, door: pygame.Rect) -> None:
        """A light gap in the wall on the side facing the door square."""
        x = max(rect.x + 4, door.centerx - 14)
        if door.bottom <= rect.top + 1:
            pygame.draw.rect(surface, PAPER, (x, rect.top - 2, 28, 6))
        elif door.top >= rect.bottom - 1:
            pygame.draw.rect(surface, PAPER, (x, rect.bottom - 4, 28, 6))
        elif door.left >= rect.right - 1:
            pygame.draw.rect(surface, PAPER, (rect.right - 4, door.centery - 14, 6, 28))
        else:
            pygame.draw.rect(surface, PAPER, (rect.left - 2, door.centery - 14, 6, 28))

    def _draw_home(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, (214, 200, 170), self.home_rect, border_radius=6)
        for outfit in self.town.outfits():
            slot = self._home_slot(outfit)
            pygame.draw.rect(surface, STREET_LINE, slot, 1, border_radius=6)
            text(surface, f"Home: {pretty(outfit)}", (slot.x + 8, slot.y + 6), 20, INK)

    def _draw_highlights(self, surface: pygame.Surface) -> None:
        if self.selected is None:
            return
        dude = self.town.dude(self.selected)
        board = self.town.board
        for loc in sg.visible_from(board, dude.at):
            glyph_sight(surface, self.location_rect(loc).inflate(-4, -4))
        for loc in sg.legal_moves(board, dude, self.run):
            translucent(surface, self.location_rect(loc), GREEN, 70)
        for loc in sg.shootable_from(board, dude.at) - {dude.at}:
            r = self.location_rect(loc)
            glyph_crosshair(surface, (r.right - 16, r.y + 16))

    def _draw_figures(self, surface: pygame.Surface) -> None:
        for fid, (x, y) in self.token_centres().items():
            if fid == self.dragging:
                continue
            if fid == "deputy":
                glyph_star(surface, (x, y))
            elif fid.startswith("townsfolk:"):
                glyph_townsfolk(surface, (x, y))
            else:
                self._draw_dude(surface, self.town.dude(fid), (x, y))
        if self.planning:
            self._draw_plans(surface)
        if self.dragging:
            self._draw_dude(surface, self.town.dude(self.dragging), self.drag_pos)

    def _draw_dude(self, surface: pygame.Surface, dude: sg.Dude, centre: tuple[int, int]) -> None:
        pygame.draw.circle(surface, self.colours[dude.outfit], centre, 12)
        ring = GOLD if dude.id == self.selected else INK
        pygame.draw.circle(surface, ring, centre, 12, 3 if dude.id == self.selected else 1)
        text(surface, dude.id[-1], centre, 18, INK, centre=True)
        if dude.in_cell:
            glyph_bars(surface, centre)
        if dude.wounded:
            glyph_wounded(surface, centre)

    def _draw_plans(self, surface: pygame.Surface) -> None:
        """Only the planning outfit's own plans show; the others stay behind their screens."""
        for dude_id, plan in self.plans.items():
            dude = self.town.dude(dude_id)
            if dude.outfit != self.planning[0]:
                continue
            target = self.location_rect(plan.to).center
            pygame.draw.line(surface, self.colours[dude.outfit], self.token_centres()[dude_id], target, 3)
            pygame.draw.circle(surface, self.colours[dude.outfit], target, 10, 3)

    def _draw_curtain(self, surface: pygame.Surface) -> None:
        cover = self.board_rect.union(self.home_rect)
        pygame.draw.rect(surface, WOOD_DARK, cover)
        text(surface, f"Pass the screen to {pretty(self.planning[0])}", cover.center, 44, WHITE, centre=True)
        text(surface, "click or press Enter when only they are looking", (cover.centerx, cover.centery + 40),
             26, PAPER, centre=True)

    LEGEND: tuple[str, ...] = (
        "townsfolk", "the Deputy", "selected dude", "wounded (cannot run)", "in a jail cell",
        "band: held by that outfit", "may move there", "can see", "may shoot (gun)",
    )

    def _draw_legend(self, surface: pygame.Surface, x: int, y: int) -> int:
        """Draw every marker the board uses with its meaning, using the board's own glyphs; return the next y."""
        text(surface, "Legend", (x, y), 22, WOOD_DARK)
        y += 24
        for words in self.LEGEND:
            self._legend_glyph(surface, words, pygame.Rect(x, y, 24, 22))
            text(surface, words, (x + 34, y + 4), 21)
            y += 28
        return y

    def _legend_glyph(self, surface: pygame.Surface, words: str, box: pygame.Rect) -> None:
        """The glyph for one legend line, drawn in ``box``."""
        c = box.center
        sample = NEUTRAL                       # outfit-coloured markers: any outfit's colour

        def wounded() -> None:
            pygame.draw.circle(surface, sample, (c[0] - 6, c[1] - 3), 10)
            glyph_wounded(surface, (c[0] - 8, c[1] - 5))

        def in_cell() -> None:
            pygame.draw.circle(surface, sample, c, 11)
            glyph_bars(surface, c)

        draw: dict[str, Callable[[], None]] = {
            "townsfolk": lambda: glyph_townsfolk(surface, c),
            "the Deputy": lambda: glyph_star(surface, c),
            "selected dude": lambda: glyph_selected(surface, c, sample),
            "wounded (cannot run)": wounded,
            "in a jail cell": in_cell,
            "band: held by that outfit": lambda: glyph_held(surface, box.inflate(4, 0), sample),
            "may move there": lambda: glyph_move(surface, c, 10),
            "can see": lambda: glyph_sight(surface, box.inflate(-2, -2)),
            "may shoot (gun)": lambda: glyph_crosshair(surface, c),
        }
        draw[words]()

    def _draw_sidebar(self, surface: pygame.Surface) -> None:
        x = self.board_rect.right + 20
        y = 60
        mode = f"Planning: {pretty(self.planning[0])}" if self.planning else "Free moves"
        text(surface, f"Mode: {mode}", (x, y), 24)
        text(surface, f"Movement: {'Run (4)' if self.run else 'Walk (2)'}   [R]", (x, y + 26), 22)
        y += 64
        for outfit, colour in self.colours.items():
            pygame.draw.circle(surface, colour, (x + 10, y + 8), 9)
            text(surface, pretty(outfit), (x + 26, y), 22)
            y += 24
        y = self._draw_legend(surface, x, y + 10)
        y += 10
        if self.selected:
            for line in wrap(self._describe(self.selected), 20, 290):
                text(surface, line, (x, y), 20)
                y += 18
        if self.planning:
            planned = sum(1 for d in self.plans if self.town.dude(d).outfit == self.planning[0])
            text(surface, f"{planned} move(s) planned; Enter passes on", (x, y + 10), 20)


# --------------------------------------------------------------------------- Doomtown


class DoomView(_View):
    """Doomtown: each street a row of cards, the Town Square between, out-of-town deeds aside."""

    help_lines = HELP_DOOM
    CARD_GAP = 12
    PLUS_W = 36
    MIN_CARD_W = 120
    LINE_GAP = 6

    def __init__(self, game: DoomGame, size: tuple[int, int]) -> None:
        super().__init__(game.town, size, game.title)
        self.names = game.names
        self.colours = {s.player: PALETTE[i % len(PALETTE)] for i, s in enumerate(game.town.streets)}
        self.selected_dude: str | None = None
        self.selected_deed: str | None = None
        self.mode: str | None = None           # "call_out" or "job": waiting for a target click
        self.posses: dt.Posses | None = None
        self.preview = ""
        self.new_deeds = 0
        w, h = size
        self.area = pygame.Rect(16, 56, w - 300, h - 56 - 44)
        self.aside = pygame.Rect(self.area.right + 16, 56, w - self.area.right - 32, h - 56 - 44)

    @property
    def town(self) -> dt.Town:
        """The current position."""
        town: dt.Town = self.state
        return town

    # ---- layout
    def _card_size(self) -> tuple[int, int]:
        """The widest card of any street and the height of a street's row."""
        width = max(self._street_cards(i)[0] for i in range(len(self.town.streets)))
        rows = len(self.town.streets)
        height = min(220, (self.area.height - 150 - (rows + 1) * self.CARD_GAP) // max(rows, 1))
        return width, height

    def _street_cards(self, index: int) -> tuple[int, int]:
        """Card width and cards per line for street ``index``, sized by that street's own length.

        Cards shrink to fit the row but not below :attr:`MIN_CARD_W`; a longer street wraps onto
        more lines within its row (read left to right, line by line).
        """
        count = max(1, len(self.town.streets[index].locations))
        usable = self.area.width - 2 * (self.PLUS_W + self.CARD_GAP)
        fit = max(1, (usable + self.CARD_GAP) // (self.MIN_CARD_W + self.CARD_GAP))
        lines = -(-count // fit)
        per_line = -(-count // lines)
        width = min(190, (usable - (per_line - 1) * self.CARD_GAP) // per_line)
        return width, per_line

    def _row_tops(self) -> list[int]:
        """The y of each street's row: the first half above the Town Square, the rest below."""
        _, ch = self._card_size()
        rows = len(self.town.streets)
        above = (rows + 1) // 2
        square = self.square_rect()
        tops = [square.top - self.CARD_GAP - (above - i) * (ch + self.CARD_GAP) + self.CARD_GAP
                for i in range(above)]
        tops += [square.bottom + self.CARD_GAP + i * (ch + self.CARD_GAP) for i in range(rows - above)]
        return tops

    def square_rect(self) -> pygame.Rect:
        """The Town Square band across the middle."""
        _, ch = self._card_size()
        rows = len(self.town.streets)
        above = (rows + 1) // 2
        top = self.area.y + above * (ch + self.CARD_GAP)
        return pygame.Rect(self.area.x + self.PLUS_W + self.CARD_GAP, top,
                           self.area.width - 2 * (self.PLUS_W + self.CARD_GAP), 130)

    def _row_rects(self, index: int) -> tuple[list[pygame.Rect], pygame.Rect, pygame.Rect]:
        """The card rects of street ``index`` (centred, wrapped onto lines if long), and its left and right + slots."""
        _, ch = self._card_size()
        cw, per_line = self._street_cards(index)
        street = self.town.streets[index]
        count = len(street.locations)
        lines = max(1, -(-count // per_line))
        line_h = (ch - (lines - 1) * self.LINE_GAP) // lines
        shown = min(count, per_line)
        total = shown * cw + (shown - 1) * self.CARD_GAP
        x0 = self.area.centerx - total // 2
        y = self._row_tops()[index]
        cards = [pygame.Rect(x0 + (i % per_line) * (cw + self.CARD_GAP), y + (i // per_line) * (line_h + self.LINE_GAP),
                             cw, line_h) for i in range(count)]
        left = pygame.Rect(x0 - self.CARD_GAP - self.PLUS_W, y + ch // 2 - 30, self.PLUS_W, 60)
        right = pygame.Rect(x0 + total + self.CARD_GAP, y + ch // 2 - 30, self.PLUS_W, 60)
        return cards, left, right

    def location_rects(self) -> dict[str, pygame.Rect]:
        """Screen rect of every location in play."""
        rects = {dt.TOWN_SQUARE: self.square_rect()}
        for i, street in enumerate(self.town.streets):
            cards, _, _ = self._row_rects(i)
            rects.update(zip(street.locations, cards, strict=True))
        slot = self._aside_slot()
        cols = self._aside_columns()
        width = (self.aside.width - (cols - 1) * 8) // cols
        for i, deed in enumerate(self.town.out_of_town):
            rects[deed.id] = pygame.Rect(self.aside.x + (i % cols) * (width + 8), self.aside.y + 30 + (i // cols) * slot,
                                         width, slot - 10)
        return rects

    def _aside_columns(self) -> int:
        """Columns of out-of-town cards: more when one column would make them shorter than 56 px."""
        count = max(1, len(self.town.out_of_town))
        room = self._panel_top() - 10 - (self.aside.y + 30)
        cols = 1
        while cols < 3 and room // -(-count // cols) < 56:
            cols += 1
        return cols

    def _aside_slot(self) -> int:
        """Height per out-of-town card: 130 px, shrinking so the cards fit above the player panel."""
        count = max(1, len(self.town.out_of_town))
        room = self._panel_top() - 10 - (self.aside.y + 30)
        return max(20, min(130, room // -(-count // self._aside_columns())))

    def _panel_height(self) -> int:
        """Room kept below the out-of-town cards for the player list and the posses."""
        return 40 + 28 * len(self.town.streets) + 150

    def _panel_top(self) -> int:
        """The y where the player list (with its "+ out of town" buttons) starts.

        Fixed at the foot of the aside, so a "+ out of town" button stays put however many
        Strikes it adds (a second click adds another Strike rather than hitting the new card).
        """
        return self.aside.bottom - self._panel_height() + 10

    def out_of_town_buttons(self) -> dict[str, pygame.Rect]:
        """The "+ out of town" button of each player, beside that player's line in the side panel."""
        top = self._panel_top()
        width = 118
        return {s.player: pygame.Rect(self.aside.right - width, top + i * 28 - 2, width, 24)
                for i, s in enumerate(self.town.streets)}

    def out_of_town_button_at(self, pos: tuple[int, int]) -> str | None:
        """The player whose "+ out of town" button is under ``pos``, or ``None``."""
        for player, rect in self.out_of_town_buttons().items():
            if rect.collidepoint(pos):
                return player
        return None

    def location_rect(self, location: str) -> pygame.Rect:
        """The screen rect of ``location``."""
        return self.location_rects()[location]

    def location_at(self, pos: tuple[int, int]) -> str | None:
        """The location under ``pos``, or ``None``."""
        for loc, rect in self.location_rects().items():
            if rect.collidepoint(pos):
                return loc
        return None

    def plus_at(self, pos: tuple[int, int]) -> tuple[str, dt.End] | None:
        """The (player, end) of the + slot under ``pos``, or ``None``."""
        for i, street in enumerate(self.town.streets):
            _, left, right = self._row_rects(i)
            if left.collidepoint(pos):
                return street.player, "left"
            if right.collidepoint(pos):
                return street.player, "right"
        return None

    def token_rects(self) -> dict[str, pygame.Rect]:
        """Screen rect of each dude's token, stacked inside its location below the title."""
        rects: dict[str, pygame.Rect] = {}
        for loc, area in self.location_rects().items():
            per_row = max(1, (area.width - 8) // 124) if loc == dt.TOWN_SQUARE else 1
            width = 120 if loc == dt.TOWN_SQUARE else area.width - 12
            for i, d in enumerate(self.town.dudes_at(loc)):
                rects[d.id] = pygame.Rect(area.x + 6 + (i % per_row) * 124, area.y + 44 + (i // per_row) * 26,
                                          width, 22)
        return rects

    def token_centre(self, dude_id: str) -> tuple[int, int]:
        """Screen centre of a dude's token."""
        centre: tuple[int, int] = self.token_rects()[dude_id].center
        return centre

    def dude_at_pos(self, pos: tuple[int, int]) -> str | None:
        """The dude whose token is under ``pos``, or ``None``."""
        for dude_id, rect in self.token_rects().items():
            if rect.collidepoint(pos):
                return dude_id
        return None

    def name(self, key: str) -> str:
        """Display name of a location or dude."""
        if key == dt.TOWN_SQUARE:
            return "Town Square"
        return self.names.get(key, pretty(key))

    # ---- events
    def press(self, pos: tuple[int, int]) -> None:
        dude_id = self.dude_at_pos(pos)
        if self.mode:
            self._choose_target(dude_id or self.location_at(pos))
            return
        if dude_id:
            self.selected_dude, self.selected_deed, self.posses = dude_id, None, None
            self.begin_drag(dude_id, pos)
            d = self.town.dude(dude_id)
            self.message = f"{self.name(dude_id)} ({pretty(d.player)}{', booted' if d.booted else ''}) at " \
                           f"{self.name(d.at)}. Drag to move; C call out, J job."
            return
        plus = self.plus_at(pos)
        if plus:
            self._add_deed(*plus)
            return
        aside_owner = self.out_of_town_button_at(pos)
        if aside_owner:
            self._add_out_of_town(aside_owner)
            return
        self.selected_deed = self.location_at(pos)
        self.selected_dude, self.posses = None, None
        if self.selected_deed:
            self.message = f"{self.name(self.selected_deed)} selected: D or Delete destroys it."

    def motion(self, pos: tuple[int, int]) -> None:
        if not self.dragging:
            return
        target = self.location_at(pos)
        if target is None or target == self.town.dude(self.dragging).at:
            self.preview = ""
            return
        cost = dt.move_cost(self.town, self.dragging, target)
        self.preview = ("boots" if cost.boots else "free") if cost.legal else "illegal"

    def release(self, dude_id: str, pos: tuple[int, int]) -> None:
        self.preview = ""
        if not self.dragged_far(pos):
            return
        target = self.location_at(pos)
        if target is None or target == self.town.dude(dude_id).at:
            self.message = f"{self.name(dude_id)} stays put."
            return
        cost = dt.move_cost(self.town, dude_id, target)
        if not cost.legal:
            self.message = f"Refused: {cost.reason}"
            return
        self.commit(dt.move(self.town, dude_id, target),
                    f"{self.name(dude_id)} moved to {self.name(target)} - {cost.reason}")

    def key(self, key: int) -> None:
        if key in (pygame.K_d, pygame.K_DELETE, pygame.K_BACKSPACE) and self.selected_deed:
            self._destroy(self.selected_deed)
        elif key == pygame.K_c and self.selected_dude:
            self.mode, self.posses = "call_out", None
            self.message = f"Call out: click the dude {self.name(self.selected_dude)} calls out (Esc cancels)."
        elif key == pygame.K_j and self.selected_dude:
            self.mode, self.posses = "job", None
            self.message = f"Job: click the deed (or dude) {self.name(self.selected_dude)}'s posse targets."
        elif key == pygame.K_u:
            self.commit(dt.unboot_all(self.town), "Nightfall: every dude unbooted.")
        elif key == pygame.K_o:
            player = self._selected_player()
            if player is None:
                self.message = "Select a dude or deed first (its player gets the deed), or click + out of town."
            else:
                self._add_out_of_town(player)

    def _selected_player(self) -> str | None:
        """The player of the selected dude, else the owner of the selected deed (``None`` for the Town Square)."""
        if self.selected_dude:
            return self.town.dude(self.selected_dude).player
        return dt.owner(self.town, self.selected_deed) if self.selected_deed else None

    def _add_out_of_town(self, player: str) -> None:
        """Add a new out-of-town deed (``strike-N``, the first free N) owned by ``player``; undoable."""
        deed = next(f"strike-{n}" for n in range(1, len(self.town.locations) + 2)
                    if f"strike-{n}" not in self.town.locations)
        self.commit(dt.add_out_of_town(self.town, player, deed),
                    f"{self.name(deed)} added out of town for {pretty(player)}: adjacent to nothing.")

    def cancel(self) -> None:
        super().cancel()
        self.mode, self.posses, self.preview = None, None, ""
        self.selected_dude = self.selected_deed = None

    def _choose_target(self, target: str | None) -> None:
        mode, self.mode = self.mode, None
        if target is None or self.selected_dude is None:
            self.message = "No target chosen."
            return
        posses = dt.posse_candidates(self.town, self.selected_dude, target, job=mode == "job")
        if not posses.legal:
            self.message = f"Not allowed: {posses.reason}"
            return
        self.posses = posses
        booting = [self.name(j.dude) for j in (*posses.dealer_side, *posses.target_side) if j.boots]
        self.message = f"{'Job' if mode == 'job' else 'Shootout'} at {self.name(posses.location or '')}: " \
                       f"{len(posses.dealer_side)} v {len(posses.target_side)} may join; boot to join: " \
                       f"{', '.join(booting) or 'nobody'}."

    def _destroy(self, deed: str) -> None:
        try:
            town = dt.destroy(self.town, deed)
        except Exception as e:  # IllegalChoice: a home or the Town Square
            self.message = f"Refused: {e}"
            return
        sent = [self.name(d.id) for d in self.town.dudes_at(deed)]
        self.selected_deed = None
        self.commit(town, f"{self.name(deed)} destroyed; the street closes up."
                    + (f" Sent home booted: {', '.join(sent)}." if sent else ""))

    def _add_deed(self, player: str, end: dt.End) -> None:
        self.new_deeds += 1
        deed = f"new-deed-{self.new_deeds}"
        while deed in self.town.locations:
            self.new_deeds += 1
            deed = f"new-deed-{self.new_deeds}"
        self.commit(dt.add_deed(self.town, player, deed, end), f"{pretty(deed)} added at the {end} end of "
                                                              f"{pretty(player)}'s street.")

    # ---- drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(PAPER)
        text(surface, self.title, (16, 14), 36, INK)
        square = self.square_rect()
        pygame.draw.rect(surface, STREET, square, border_radius=10)
        pygame.draw.rect(surface, STREET_LINE, square, 3, border_radius=10)
        text(surface, "Town Square", (square.x + 10, square.y + 10), 30, INK)
        text(surface, "adjacent to every location in town", (square.x + 170, square.y + 14), 20, STREET_LINE)
        self._draw_streets(surface)
        self._draw_aside(surface)
        self._draw_tokens(surface)
        self._draw_side_panel(surface)
        self.draw_message(surface)

    def _draw_streets(self, surface: pygame.Surface) -> None:
        for i, street in enumerate(self.town.streets):
            cards, left, right = self._row_rects(i)
            for loc, rect in zip(street.locations, cards, strict=True):
                self._draw_card(surface, loc, rect, street.player, loc == street.home)
            for slot in (left, right):
                pygame.draw.rect(surface, (214, 200, 170), slot, border_radius=6)
                pygame.draw.rect(surface, STREET_LINE, slot, 2, border_radius=6)
                text(surface, "+", slot.center, 36, WOOD_DARK, centre=True)

    def _draw_card(self, surface: pygame.Surface, loc: str, rect: pygame.Rect, player: str, home: bool) -> None:
        colour = self.colours[player]
        pygame.draw.rect(surface, (250, 244, 228) if not home else (255, 250, 238), rect, border_radius=8)
        pygame.draw.rect(surface, colour, rect, 6 if home else 3, border_radius=8)
        if loc == self.selected_deed:
            pygame.draw.rect(surface, GOLD, rect.inflate(8, 8), 4, border_radius=10)
        if self.posses and self.posses.location == loc:
            pygame.draw.rect(surface, RED, rect.inflate(14, 14), 4, border_radius=12)
        label = "HOME" if home else ("DEED" if dt.is_in_town(self.town, loc) else "OUT OF TOWN")
        text(surface, label, (rect.x + 8, rect.bottom - 20), 18, GREY)
        lines, size = fit_lines(self.name(loc), 22, rect.width - 14)
        for j, line in enumerate(lines):
            text(surface, line, (rect.x + 8, rect.y + 8 + j * 17), size, INK)

    def _draw_aside(self, surface: pygame.Surface) -> None:
        text(surface, "Out of town (adjacent to nothing)", (self.aside.x, self.aside.y + 4), 22, INK)
        for deed in self.town.out_of_town:
            self._draw_card(surface, deed.id, self.location_rect(deed.id), deed.owner, False)

    def _draw_tokens(self, surface: pygame.Surface) -> None:
        roles = self._posse_roles()
        for dude_id, rect in self.token_rects().items():
            if dude_id != self.dragging:
                self._draw_token(surface, self.town.dude(dude_id), rect, roles.get(dude_id))
        if self.dragging:
            rect = self.token_rects()[self.dragging].copy()
            rect.center = self.drag_pos
            self._draw_token(surface, self.town.dude(self.dragging), rect, None)
            if self.preview:
                colour = {"free": GREEN, "boots": GOLD, "illegal": RED}[self.preview]
                tag = font(24).size(self.preview)
                badge = pygame.Rect(rect.x, rect.bottom + 4, tag[0] + 12, tag[1] + 6)
                pygame.draw.rect(surface, colour, badge, border_radius=5)
                text(surface, self.preview, badge.center, 24, INK, centre=True)

    def _posse_roles(self) -> dict[str, str]:
        """For highlighted posses: dude id -> ``dealer``/``target`` with ``+boot`` when joining boots."""
        roles: dict[str, str] = {}
        if self.posses:
            for side, joiners in (("dealer", self.posses.dealer_side), ("target", self.posses.target_side)):
                for j in joiners:
                    roles[j.dude] = side + ("+boot" if j.boots else "")
        return roles

    def _draw_token(self, surface: pygame.Surface, dude: dt.Dude, rect: pygame.Rect, role: str | None) -> None:
        colour = self.colours.get(dude.player, GREY)
        fill = tuple(c // 2 + 100 for c in colour) if dude.booted else colour
        pygame.draw.rect(surface, fill, rect, border_radius=5)
        border = GOLD if dude.id == self.selected_dude else INK
        pygame.draw.rect(surface, border, rect, 3 if dude.id == self.selected_dude else 1, border_radius=5)
        label, size = self.token_label(dude, rect.width - 8)
        text(surface, label, (rect.x + 5, rect.centery - font(size).get_height() // 2), size, INK)
        if role:
            ring = GREEN if role.startswith("dealer") else RED
            pygame.draw.rect(surface, ring, rect.inflate(6, 6), 3, border_radius=7)
            if role.endswith("+boot"):
                badge = pygame.Rect(rect.right - 42, rect.y + 3, 38, 16)
                pygame.draw.rect(surface, GOLD, badge, border_radius=4)
                text(surface, "boots", badge.center, 16, INK, centre=True)

    def token_label(self, dude: dt.Dude, width: int) -> tuple[str, int]:
        """A dude's token text and font size: the whole name, shrunk (not cut) to fit ``width`` px."""
        label = f"{self.name(dude.id)}{' (booted)' if dude.booted else ''}"
        size = 20
        while size > 11 and font(size).size(label)[0] > width:
            size -= 1
        if font(size).size(label)[0] > width:  # a last resort on a very narrow card
            while len(label) > 2 and font(size).size(label + ".")[0] > width:
                label = label[:-1]
            label += "."
        return label, size

    def _draw_side_panel(self, surface: pygame.Surface) -> None:
        x, y = self.aside.x, self._panel_top()
        buttons = self.out_of_town_buttons()
        for player, colour in self.colours.items():
            pygame.draw.rect(surface, colour, (x, y + 2, 16, 16), border_radius=3)
            text(surface, pretty(player), (x + 24, y), 22)
            button = buttons[player]
            pygame.draw.rect(surface, (214, 200, 170), button, border_radius=5)
            pygame.draw.rect(surface, colour, button, 2, border_radius=5)
            text(surface, "+ out of town", button.center, 20, WOOD_DARK, centre=True)
            y += 28
        if self.posses:
            y += 10
            text(surface, "Posses (green: dealer, red: target)", (x, y), 20)
            for side in (self.posses.dealer_side, self.posses.target_side):
                y += 22
                names = ", ".join(self.name(j.dude) + ("*" if j.boots else "") for j in side)
                for line in wrap(names or "-", 20, self.aside.width):
                    text(surface, line, (x, y), 20)
                    y += 18
            text(surface, "* boots to join", (x, y + 4), 18, GREY)


# --------------------------------------------------------------------------- the app


class App:
    """One board window: routes events to the board's view, draws it, and owns help and undo keys."""

    def __init__(self, path: pathlib.Path, size: tuple[int, int] = (1280, 800)) -> None:
        """Load the board file at ``path``; raises :class:`simulator.errors.InputFileError` if invalid."""
        if not pygame.font.get_init():
            pygame.font.init()
        game = load_board_path(pathlib.Path(path))
        self.view: GulchView | DoomView = (GulchView(game, size) if isinstance(game, GulchGame)
                                           else DoomView(game, size))
        self.size = size
        self.show_help = False
        self.running = True

    def handle_event(self, event: pygame.event.Event) -> None:
        """Apply one pygame event: quit, help, cancel, undo, or the view's own handling."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_h, pygame.K_F1):
            self.show_help = not self.show_help
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.show_help:
                self.show_help = False
            else:
                self.view.cancel()
                self.view.message = "Cancelled."
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            self.view.undo()
        else:
            self.view.handle_event(event)

    def update(self) -> None:
        """Advance time-dependent state (none yet: everything changes on events)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the board, and the help overlay when shown."""
        self.view.draw(surface)
        if self.show_help:
            self._draw_help(surface)

    def _draw_help(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        lines: list[tuple[str, str]] = [*self.view.help_lines, ("", ""), *HELP_COMMON]
        height = 84 + 26 * len(lines)
        box = pygame.Rect(w // 2 - 460, h // 2 - height // 2, 920, height)
        translucent(surface, surface.get_rect(), INK, 140)
        pygame.draw.rect(surface, PAPER, box, border_radius=10)
        pygame.draw.rect(surface, WOOD_DARK, box, 4, border_radius=10)
        text(surface, "Controls", (box.x + 20, box.y + 16), 34)
        for i, (keys, words) in enumerate(lines):
            text(surface, keys, (box.x + 24, box.y + 60 + i * 26), 24, WOOD_DARK)
            text(surface, words, (box.x + 200, box.y + 60 + i * 26), 22)


def run_board_window(path: pathlib.Path) -> None:
    """Open a window on the board file at ``path`` and run until it is closed.

    Raises :class:`simulator.errors.InputFileError` for an invalid file.
    """
    pygame.display.init()
    pygame.font.init()
    try:
        app = App(path)
        screen = pygame.display.set_mode(app.size)
        pygame.display.set_caption(f"{app.view.title} - press H for help")
        clock = pygame.time.Clock()
        while app.running:
            for event in pygame.event.get():
                app.handle_event(event)
            app.update()
            app.draw(screen)
            pygame.display.flip()
            clock.tick(30)
    finally:
        pygame.quit()


def render_board(path: pathlib.Path, out_png: pathlib.Path, size: tuple[int, int] = (1280, 800)) -> None:
    """Draw the board file at ``path`` to the PNG ``out_png`` without opening a window.

    Works with ``SDL_VIDEODRIVER=dummy``. Raises
    :class:`simulator.errors.InputFileError` for an invalid file.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.font.init()
    app = App(path, size)
    surface = pygame.Surface(size)
    app.draw(surface)
    pygame.image.save(surface, str(out_png))
