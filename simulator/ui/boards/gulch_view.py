"""The Slaughter Gulch window: the town grid, every figure, and a whole round carried out with the mouse.

Each step of the round ("Playing the Game", ``seeds/004``) has its controls in
the panel on the right; the board shows where everyone is, what they may do,
and (after the reveal) every token. The rules are
:mod:`simulator.boards.gulch_round` and :mod:`simulator.boards.gulch_combat`;
this module only draws and turns clicks into their actions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import pygame

from simulator.boards import gulch_actions as ga
from simulator.boards import gulch_round as gr
from simulator.boards import slaughter_gulch as sg
from simulator.boards.board_play import BoardPlay
from simulator.boards.verdict import Verdict
from simulator.errors import IllegalChoice
from simulator.ui.boards.common import (
    BAR_H,
    BLUE,
    GOLD,
    GREEN,
    GREY,
    INK,
    NEUTRAL,
    PAPER,
    RED,
    STREET,
    STREET_LINE,
    TOP_H,
    WHITE,
    WOOD,
    WOOD_DARK,
    BoardView,
    Colour,
    Panel,
    Point,
    draw_log,
    fit_lines,
    fit_text,
    pretty,
    text,
    translucent,
    wrap,
)

TOKEN_CODES = {"fight": "F", "rob": "Rb", "arrest": "Ar", "confiscate": "Cf", "mesmerize": "Ms", "recruit": "Rc",
               "raise": "RD", "shop": "Sh", "spell": "Sp", "special": "Sx", "run": "Run", "none": "-"}
TOKEN_KEYS = {pygame.K_f: "fight", pygame.K_b: "rob", pygame.K_a: "arrest", pygame.K_r: "run",
              pygame.K_n: "none"}
TARGETING = {"fight", "rob", "arrest", "recruit", "special", "raise"}

HELP_GULCH = [
    ("Click a figure", "select it: where it may move (green), what it sees (blue), may shoot (crosshair)"),
    ("Setup / step 2", "click your dude, then a space (or drag it there) to put its token; F fight, B rob,"),
    ("", "A arrest, R run (stays put), N face down, 0-9 the token's number; Enter passes the screen"),
    ("Step 4", "add coach / train arrivals and the Deputy; drag a figure or Wound it as the event says"),
    ("Step 5", "the acting dude is ringed in gold: click a target (red ring), then how it went;"),
    ("", "a runner: click where he runs; dynamite: drag each townsfolk it hit; Enter = no action"),
    ("Fight token", "Gun / Fight / Dynamite / Long range pick the weapon; at the Jail: Bail (1d6) or Bust out"),
    ("", "\"Let the next act first\": the next dude in the same space acts before him (a tie roll)"),
    ("After step 5", "Roll 2d6 for each arrival, then End the round (the Doctor heals, the Deputy moves)"),
    ("Panel - / +", "ghost rock, objectives and card points of each outfit, the mine's ghost rock"),
    ("Badges", "F fight, Rb rob, Ar arrest, Run, Rc recruit, RD raise, Sh shop, Sp spell, Sx special,"),
    ("", "Cf confiscate, Ms mesmerize, - face down; the number orders a space's actions"),
]


# --------------------------------------------------------------------------- glyphs
# Each marker is drawn by one function, used both on the board and in the legend.


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


def glyph_dead(surface: pygame.Surface, centre: Point) -> None:
    """Dead: a black cross over the token."""
    x, y = centre
    pygame.draw.line(surface, INK, (x - 9, y - 9), (x + 9, y + 9), 3)
    pygame.draw.line(surface, INK, (x - 9, y + 9), (x + 9, y - 9), 3)


def glyph_star(surface: pygame.Surface, centre: Point) -> None:
    """The Deputy: a gold five-pointed star."""
    points = []
    for i in range(10):
        r = 12 if i % 2 == 0 else 5
        a = math.pi / 2 + i * math.pi / 5
        points.append((centre[0] + r * math.cos(a), centre[1] - r * math.sin(a)))
    pygame.draw.polygon(surface, GOLD, points)
    pygame.draw.polygon(surface, INK, points, 1)


def glyph_townsfolk(surface: pygame.Surface, centre: Point, letter: str = "T") -> None:
    """A townsfolk: a grey square marked T (S for the Sheriff)."""
    pygame.draw.rect(surface, GREY, (centre[0] - 9, centre[1] - 9, 18, 18), border_radius=3)
    text(surface, letter, centre, 18, WHITE, centre=True)


def glyph_selected(surface: pygame.Surface, centre: Point, colour: Colour = PAPER) -> None:
    """The selected dude: a thick gold ring."""
    pygame.draw.circle(surface, colour, centre, 12)
    pygame.draw.circle(surface, GOLD, centre, 12, 3)


def glyph_acting(surface: pygame.Surface, centre: Point) -> None:
    """The dude whose action it is: a double gold ring."""
    pygame.draw.circle(surface, GOLD, centre, 17, 3)
    pygame.draw.circle(surface, WOOD_DARK, centre, 20, 1)


def glyph_target(surface: pygame.Surface, centre: Point) -> None:
    """A figure the acting dude may target: a red ring."""
    pygame.draw.circle(surface, RED, centre, 16, 2)


def glyph_held(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, words: str = "") -> None:
    """A building held (controlled) by an outfit: a band in its colour along the bottom, naming it."""
    band = pygame.Rect(rect.x + 3, rect.bottom - 22, rect.width - 6, 19)
    pygame.draw.rect(surface, colour, band, border_radius=4)
    pygame.draw.rect(surface, INK, band, 1, border_radius=4)
    if words:
        label, size = fit_lines(words, 18, band.width - 8, max_lines=1)
        text(surface, label[0] if label else "", band.center, size, INK, centre=True)


def glyph_token(surface: pygame.Surface, centre: Point, order: gr.Order, colour: Colour) -> None:
    """An action token after the reveal: a small tag with its code and number above the dude."""
    code = TOKEN_CODES.get(order.token, "?") + (str(order.number) if order.token != "none" else "")
    w = max(18, text_width(code, 16) + 6)
    tag = pygame.Rect(centre[0] - w // 2, centre[1] - 27, w, 14)
    pygame.draw.rect(surface, WHITE, tag, border_radius=3)
    pygame.draw.rect(surface, colour, tag, 2, border_radius=3)
    text(surface, code, tag.center, 16, INK, centre=True)


def text_width(words: str, size: int) -> int:
    """Width in px of ``words`` in the default font."""
    from simulator.ui.boards.common import font

    return font(size).size(words)[0]


# --------------------------------------------------------------------------- the view


class GulchView(BoardView):
    """Slaughter Gulch: the town grid, the figures, and each step of the round from the panel."""

    help_lines = HELP_GULCH
    LEGEND_ROW = 26
    LEGEND: tuple[str, ...] = ("townsfolk (S: Sheriff)", "the Deputy", "acting now", "may be targeted",
                               "wounded", "in a jail cell", "dead", "may move there", "can see", "may shoot")

    def side_ids(self) -> list[str]:
        """The outfits, in order (their colours)."""
        return [o.id for o in self.state.outfits]

    def __init__(self, play: BoardPlay, size: tuple[int, int], autosave: Path | None = None) -> None:
        super().__init__(play, size, autosave)
        self.selected: str | None = None
        self.target: str | None = None
        self.weapon: ga.Weapon = "gun"
        self.max_range = 3
        self.token: str = "fight"
        self.curtain = self.state.planning is not None
        self.bail_die: int | None = None
        w, h = size
        self.board_rect = pygame.Rect(16, TOP_H + 8, w - 400, int((h - TOP_H - BAR_H) * 0.60))
        self.home_rect = pygame.Rect(16, self.board_rect.bottom + 8, self.board_rect.width, 92)
        self.legend_y = self.home_rect.bottom + 6
        log_top = self.legend_y + 2 * self.LEGEND_ROW + 4
        self.log_rect = pygame.Rect(16, log_top, self.board_rect.width, h - BAR_H - 8 - log_top)
        self.panel_x = self.board_rect.right + 16
        self.panel_w = w - self.panel_x - 14
        self._planner = self.state.planning
        self.selected = self.state.actor

    @property
    def state(self) -> gr.GulchState:
        """The present game state."""
        state: gr.GulchState = self.play.state
        return state

    @property
    def town(self) -> sg.Town:
        """The present position."""
        return self.state.town

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

    def location_at(self, pos: Point) -> str | None:
        """The location under the screen point ``pos``, or ``None``."""
        if self.home_rect.collidepoint(pos):
            return sg.HOME
        for loc in self.town.board.locations:
            if loc != sg.HOME and self.location_rect(loc).collidepoint(pos):
                return loc
        return None

    def _home_slot(self, outfit: str) -> pygame.Rect:
        outfits = [o.id for o in self.state.outfits] or [""]
        width = self.home_rect.width // len(outfits)
        i = outfits.index(outfit) if outfit in outfits else 0
        return pygame.Rect(self.home_rect.x + i * width, self.home_rect.y, width, self.home_rect.height)

    def token_centres(self) -> dict[str, Point]:
        """Screen centre of every figure: dude ids, townsfolk ids and ``deputy``."""
        groups: dict[str, list[str]] = {}
        for d in self.town.dudes:
            key = f"home:{d.outfit}" if d.at == sg.HOME else f"aside:{d.outfit}" if d.at == sg.ASIDE else d.at
            groups.setdefault(key, []).append(d.id)
        for f in self.town.townsfolk:
            groups.setdefault(f.at, []).append(f.id)
        if self.town.deputy:
            groups.setdefault(self.town.deputy, []).append("deputy")
        centres: dict[str, Point] = {}
        for key, ids in groups.items():
            centres.update(self._arrange(key, ids))
        return centres

    def _arrange(self, key: str, ids: list[str]) -> dict[str, Point]:
        """Lay figures in rows inside their location, below the name of a building."""
        step = 30
        if key.startswith(("home:", "aside:")):
            slot = self._home_slot(key.split(":", 1)[1])
            half = slot.width // 2
            rect = pygame.Rect(slot.x + (half if key.startswith("aside:") else 0), slot.y, half, slot.height)
            top = 40
        else:
            rect = self.location_rect(key)
            top = 22 if self.town.board.is_street(key) else 56
        per_row = max(1, (rect.width - 12) // step)
        return {fid: (rect.x + 20 + (i % per_row) * step, rect.y + top + (i // per_row) * step)
                for i, fid in enumerate(ids)}

    def figure_at_pos(self, pos: Point) -> str | None:
        """The dude or townsfolk whose token is under ``pos`` (the Deputy cannot be picked), or ``None``."""
        for fid, (x, y) in self.token_centres().items():
            if fid != "deputy" and (x - pos[0]) ** 2 + (y - pos[1]) ** 2 <= 13 ** 2:
                return fid
        return None

    # ---- names

    def place(self, location: str) -> str:
        """A location's name on screen."""
        cell = sg.parse_street(location)
        return f"street {cell.row}:{cell.col}" if cell else sg.DISPLAY_NAMES.get(location, location)

    def who(self, figure: str) -> str:
        """A figure's name on screen."""
        return gr.name(self.state, figure)

    # ---- legality, asked of the model without changing anything

    def verdict(self, action: ga.Action) -> Verdict:
        """Whether the rules allow ``action`` now (the pure apply is tried on the present state)."""
        try:
            gr.apply(self.state, action)
        except IllegalChoice as e:
            return Verdict(False, str(e))
        return Verdict(True, "")

    def targets(self) -> list[str]:
        """The figures the acting dude may pick as a target now."""
        actor = self.state.actor
        order = self.state.order_of(actor) if actor else None
        if actor is None or order is None or order.token not in TARGETING or self.state.scatter:
            return []
        ids = [d.id for d in self.town.dudes] + [f.id for f in self.town.townsfolk]
        return [f for f in ids if self.verdict(self._probe(order.token, f)).legal]

    def _probe(self, token: str, figure: str) -> ga.Action:
        """An action that is legal exactly when ``figure`` may be the target (outcomes that change nothing)."""
        if token == "fight":
            return ga.Attack(target=figure, weapon=self.weapon, outcome="misses", max_range=self.max_range)
        if token == "rob":
            return ga.Rob(target=figure, outcome="failed", die=1)
        if token == "arrest":
            return ga.Arrest(target=figure, success=False)
        if token == "raise":
            return ga.Raise(target=figure, success=False)
        return ga.Recruit(target=figure, success=False)

    # ---- changes

    def after_change(self) -> None:
        """Keep the selection honest, lift the curtain rules when the planner changes."""
        state = self.state
        if state.planning != self._planner:
            self.curtain = state.planning is not None
            self._planner = state.planning
            self.selected = None
            self.token = "fight"                   # nothing of one outfit's choices shows to the next
        if self.selected and not (self.town.is_dude(self.selected) or self.town.is_folk(self.selected)):
            self.selected = None
        if state.actor is not None:
            self.selected = state.actor
        self.target = None
        self.bail_die = None

    def undo_allowed(self) -> bool:
        """No undo across a screen change while planning: it would show another outfit's tokens."""
        if self.state.planning is not None and isinstance(self.play.last_action, ga.FinishOrders):
            self.message = "Not while planning: undoing would show the last outfit's secret tokens."
            return False
        return True

    # ---- events

    def press(self, pos: Point) -> None:
        if self.curtain:
            self.curtain = False
            self.message = f"{pretty(self.state.planning or '')}: place your tokens; nobody else looks."
            return
        figure = self.figure_at_pos(pos)
        if figure is None:
            self._click_place(self.location_at(pos))
            return
        self.begin_drag(figure, pos)

    def click(self, figure: str, pos: Point) -> None:
        """A figure was clicked: select it, or pick it as the acting dude's target."""
        state = self.state
        if state.step == gr.Step.ACTIONS and state.actor and figure != state.actor and figure in self.targets():
            self.target = figure
            self.message = f"Target: {self.who(figure)}. Now say how it went (panel)."
            return
        if state.planning and self.town.is_dude(figure) and self.town.dude(figure).outfit != state.planning:
            self.message = f"It is {pretty(state.planning)}'s turn behind the screen; that dude is not theirs."
            return
        self.selected = figure
        self.message = self._describe(figure)

    def _click_place(self, where: str | None) -> None:
        """A click on a space, not on a figure: plan or run there, else clear the selection."""
        state = self.state
        if where and state.planning and self.selected and self.town.is_dude(self.selected):
            self._plan_to(self.selected, where)
        elif where and state.actor and self._token() == "run":
            self.act(ga.RunTo(to=where))
        else:
            self.selected, self.target = None, None

    def drop(self, figure: str, pos: Point) -> None:
        """A figure was dragged to ``pos``: plan, run, scatter or (step 4) move it as the step allows."""
        where = self.location_at(pos)
        state = self.state
        if where is None or where == self.town.where(figure):
            self.message = f"{self.who(figure)} stays where it is."
            return
        if state.planning:
            if self.town.is_dude(figure):
                self._plan_to(figure, where)
            return
        if state.step == gr.Step.EVENTS:
            self.act(ga.ClerkMove(figure=figure, to=where))
        elif figure in state.scatter:
            self.act(ga.Scatter(figure=figure, to=where))
        elif figure == state.actor and self._token() == "run":
            self.act(ga.RunTo(to=where))
        else:
            self.message = "Figures move in step 2 (tokens), when running, or as step 4's events say."

    def _plan_to(self, dude: str, where: str) -> None:
        order = self.state.order_of(dude)
        token = order.token if order and order.token != "run" else self.token
        number = order.number if order else 0
        if token == "run":
            token = "none"
        if self.act(ga.Plan(dude=dude, to=where, token=token, number=number),  # type: ignore[arg-type]
                    f"Token for {dude}: {self.place(where)}, {token}. Choose the token in the panel."):
            self.selected = dude

    def _token(self) -> str:
        actor = self.state.actor
        order = self.state.order_of(actor) if actor else None
        return order.token if order else "none"

    def set_token(self, token: str) -> None:
        """Put ``token`` on the selected dude's order (a Run token stays on his own space)."""
        self.token = token
        dude = self.selected
        if not dude or not self.town.is_dude(dude) or self.state.step != gr.Step.ORDERS:
            self.message = f"Token: {token}. Click one of your dudes, then where he goes."
            return
        order = self.state.order_of(dude)
        to = self.town.dude(dude).at if token == "run" or order is None else order.to
        number = order.number if order else 0
        self.act(ga.Plan(dude=dude, to=to, token=token, number=number),  # type: ignore[arg-type]
                 f"{dude}: {token} token on {self.place(to)}.")

    def set_number(self, number: int) -> None:
        """Set the number of the selected dude's token (lower numbers act first in a space)."""
        dude = self.selected
        order = self.state.order_of(dude) if dude else None
        if dude is None or order is None:
            self.message = "Put a token on a dude first."
            return
        self.act(ga.Plan(dude=dude, to=order.to, token=order.token, number=max(0, min(99, number))),  # type: ignore[arg-type]
                 f"{dude}: token number {number}.")

    def key(self, key: int, mod: int) -> None:
        state = self.state
        if self.curtain and key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER):
            self.curtain = False
            return
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.enter()
        elif state.planning and key in TOKEN_KEYS and state.step == gr.Step.ORDERS:
            self.set_token(TOKEN_KEYS[key])
        elif state.planning and pygame.K_0 <= key <= pygame.K_9:
            self.set_number(key - pygame.K_0)

    def enter(self) -> None:
        """Enter: the step's main button (pass the screen, end a step, no action, end the round)."""
        state = self.state
        if state.step == gr.Step.SPELLS:
            self.act(ga.EndSpells())
        elif state.planning:
            self.act(ga.FinishOrders())
        elif state.step == gr.Step.EVENTS:
            self.act(ga.EndEvents())
        elif state.step == gr.Step.ACTIONS and not state.scatter:
            self.act(ga.Skip())
        elif state.step == gr.Step.ARRIVALS:
            self.place_arrival() if state.arrivals else self.act(ga.EndRound())

    def cancel(self) -> None:
        """Esc: drop the drag, the selection and a half-chosen target."""
        super().cancel()
        self.target = None
        self.bail_die = None
        if self.state.actor is None:
            self.selected = None

    def place_arrival(self) -> None:
        """Roll 2d6 for the next arrival, again while the roll names no building (the Deputy needs no roll)."""
        waiting = len(self.state.arrivals)
        for _ in range(50):
            a, b = self.roll(2)
            if not self.act(ga.PlaceArrival(dice=(a, b))) or len(self.state.arrivals) < waiting:
                return

    def roll_end(self) -> None:
        """Roll one die for the game's end, rerolling a 4 with no lawmen (Game End)."""
        for _ in range(20):
            (die,) = self.roll()
            if self.verdict(ga.RollEnd(die=die)).legal:
                self.act(ga.RollEnd(die=die))
                return

    def _describe(self, figure: str) -> str:
        town = self.town
        if town.is_folk(figure):
            f = town.folk(figure)
            state = ", wounded" if f.wounded else ""
            return f"{self.who(figure)} (townsfolk{state}) at {self.place(f.at)}."
        d = town.dude(figure)
        words = [pretty(d.outfit)] + [w for w, on in (("wounded", d.wounded), ("in a cell", d.in_cell),
                                                     ("dead", d.dead), ("harrowed", d.harrowed)) if on]
        where = "set aside" if d.at == sg.ASIDE else f"at {self.place(d.at)}"
        return f"{d.id} ({', '.join(words)}) {where}."

    # ---- the panel

    def build_panel(self) -> None:
        """The step's controls, the outfits' books and the game's end, top to bottom."""
        p = Panel(self.panel_x, TOP_H + 10, self.panel_w)
        self.panel = p
        state = self.state
        p.heading(f"Round {state.round}: {gr.STEP_TITLES[state.step]}")
        if state.end_condition is None:
            p.note("Roll one die for what ends the game (Game End).")
            p.row(("Roll for the game's end", self.roll_end))
        builder: dict[gr.Step, Callable[[Panel], None]] = {
            gr.Step.SETUP: self._panel_orders, gr.Step.SPELLS: self._panel_spells,
            gr.Step.ORDERS: self._panel_orders, gr.Step.EVENTS: self._panel_events,
            gr.Step.ACTIONS: self._panel_actions, gr.Step.ARRIVALS: self._panel_arrivals,
            gr.Step.OVER: self._panel_over,
        }
        builder[state.step](p)
        self._panel_books(p)

    def _panel_spells(self, p: Panel) -> None:
        casters = [pretty(o.id) for o in self.state.outfits if o.id in gr.SPELLCASTERS]
        p.note(f"{', '.join(casters)}: turn up a spell or gadget card if none is face up (Spell Cards).")
        p.row(("Step 1 done (Enter)", lambda: self.act(ga.EndSpells())))

    def _panel_orders(self, p: Panel) -> None:
        state = self.state
        outfit = state.planning or ""
        if self.curtain:
            p.note(f"Pass the screen to {pretty(outfit)}; click the board when only they are looking.")
            return
        if state.step == gr.Step.SETUP:
            p.note(f"{pretty(outfit)}: drag three of your set-aside dudes (right of your home) onto street "
                   "squares. Nobody else sees until every outfit has placed (To Start the Game).")
        else:
            p.note(f"{pretty(outfit)}: click a dude, then a space up to two away (home: any street square), "
                   "or drag it. Then pick its token and number. A dude with no token stays and does nothing.")
            self._token_buttons(p)
        mine = [(d, o) for d, o in state.orders if self.town.dude(d).outfit == outfit]
        p.note(f"{len(mine)} token(s) placed" + (": " + ", ".join(f"{d} {self.place(o.to)}" for d, o in mine)
                                                  if mine else "."), 18, WOOD_DARK, 3)
        if self.selected and state.order_of(self.selected):
            p.row(("Take the token back", lambda: self._unplan()))
        p.row(("Done: pass the screen (Enter)", lambda: self.act(ga.FinishOrders())))

    def _unplan(self) -> None:
        if self.selected:
            self.act(ga.Unplan(dude=self.selected), f"Token taken back from {self.selected}.")

    def _token_buttons(self, p: Panel) -> None:
        order = self.state.order_of(self.selected) if self.selected else None
        current = order.token if order else self.token

        def pick(token: str) -> Callable[[], object]:
            return lambda: self.set_token(token)

        names = ("fight", "rob", "arrest", "run", "recruit", "raise", "shop", "spell", "special", "confiscate",
                 "mesmerize", "none")
        for row in (names[:4], names[4:8], names[8:]):
            p.row(*[(n if n != "none" else "face down", pick(n)) for n in row],
                  pressed=current if current != "none" else "face down")
        number = order.number if order else 0
        p.row((f"Token number {number}", None), ("-", lambda: self.set_number(number - 1)),
              ("+", lambda: self.set_number(number + 1)), weights=(3, 1, 1))

    def _panel_events(self, p: Panel) -> None:
        p.note("Turn over two event cards and do what they say (Events): arrivals wait by the coach or the "
               "train until the round ends; drag a figure an event moves.")
        p.row(("+ coach arrival", lambda: self.act(ga.Arrive(by="coach"))),
              ("+ train arrival", lambda: self.act(ga.Arrive(by="train"))))
        p.row(("The Deputy arrives", lambda: self.act(ga.DeputyArrives())))
        sel = self.selected
        if sel:
            p.note(f"Selected: {self.who(sel)}", 18)
            row: list[tuple[str, Callable[[], object]]] = [("Wound", lambda: self.act(ga.ClerkWound(figure=sel)))]
            if self.town.is_folk(sel):
                row.append(("Take off the board", lambda: self.act(ga.ClerkRemove(figure=sel))))
            p.row(*row)
        waiting = self.state.arrivals
        if waiting:
            p.note(f"Waiting: {', '.join(waiting)}", 18, WOOD_DARK)
        p.row(("Events done: step 5 (Enter)", lambda: self.act(ga.EndEvents())))

    def _panel_actions(self, p: Panel) -> None:
        state = self.state
        if state.scatter:
            p.note("Dynamite! Drag each townsfolk it hit one or two spaces (Item Cards): "
                   + ", ".join(self.who(f) for f in state.scatter))
            return
        actor = state.actor
        if actor is None:
            return
        token = self._token()
        order = state.order_of(actor)
        p.note(f"Acting: {actor} at {self.place(self.town.dude(actor).at)} with a {token} token"
               f"{f' #{order.number}' if order else ''}.", 22)
        later = state.queue[1:4]
        if later:
            p.note("Then: " + ", ".join(later) + (" ..." if len(state.queue) > 4 else ""), 18, WOOD_DARK)
        handler = {"fight": self._panel_fight, "rob": self._panel_rob, "arrest": self._panel_arrest,
                   "recruit": self._panel_recruit, "special": self._panel_recruit, "raise": self._panel_raise,
                   "run": self._panel_run}.get(token, self._panel_other)
        handler(p)
        p.row(("No action (Enter)", lambda: self.act(ga.Skip())),
              ("Let the next act first", lambda: self.act(ga.Defer())))

    def _target_note(self, p: Panel, what: str) -> str | None:
        if self.target is None:
            p.note(f"Click a figure ringed in red to {what}.", 20, WOOD_DARK)
            return None
        p.note(f"Target: {self.who(self.target)}", 20)
        return self.target

    def _panel_fight(self, p: Panel) -> None:
        weapons = (("Gun", "gun"), ("Fight", "fight"), ("Dynamite", "dynamite"), ("Long range", "long_range"))

        def pick(w: str) -> Callable[[], object]:
            def choose() -> None:
                self.weapon = w  # type: ignore[assignment]
                self.target = None
            return choose

        p.row(*[(label, pick(w)) for label, w in weapons],
              pressed=next(label for label, w in weapons if w == self.weapon))
        if self.weapon == "long_range":
            p.row((f"Gun's longest range: {self.max_range}", None),
                  ("-", lambda: self._range(-1)), ("+", lambda: self._range(1)), weights=(3, 1, 1))
        self._panel_jail(p)
        target = self._target_note(p, "attack it")
        if target is None:
            return
        folk = self.town.is_folk(target)

        def hit(outcome: str) -> Callable[[], object]:
            return lambda: self._attack(target, outcome)

        if self.weapon == "fight":
            p.row(("Won: wounds", hit("wounds")), ("Lost: attacker wounded", hit("attacker_wounded")))
            if folk:
                p.row(("Won: kills (Vigor 1)", hit("kills")))
            return
        p.row(("Hit: wounds", hit("wounds")), *((("Hit: kills (Vigor 1)", hit("kills")),) if folk else ()))
        p.row(("Missed", hit("misses")), ("Missed: " + ("it flees" if folk else "he runs home"), hit("target_runs")))
        p.row(("Missed: shot back, attacker wounded", hit("attacker_wounded")))

    def _range(self, delta: int) -> None:
        self.max_range = max(1, min(12, self.max_range + delta))

    def _attack(self, target: str, outcome: str) -> None:
        (die,) = self.roll()
        self.act(ga.Attack(target=target, weapon=self.weapon, outcome=outcome,  # type: ignore[arg-type]
                           max_range=self.max_range, die=die))

    def _panel_jail(self, p: Panel) -> None:
        actor = self.state.actor
        if actor is None or self.town.dude(actor).at != sg.JAIL:
            return
        for inmate in sg.jailed(self.town):
            who = self.who(inmate.id)
            if self.bail_die is not None and self.target == inmate.id:
                die = self.bail_die
                p.row((f"Pay {die} bail for {who}", lambda i=inmate.id, d=die: self.act(ga.Bail(inmate=i, die=d))))
                continue
            p.row((f"Bail {who}: roll", lambda i=inmate.id: self._bail(i)),
                  ("Bust out: won", lambda i=inmate.id: self.act(ga.BustOut(inmate=i, won=True))),
                  ("lost", lambda i=inmate.id: self.act(ga.BustOut(inmate=i, won=False))), weights=(3, 2, 1))

    def _bail(self, inmate: str) -> None:
        (self.bail_die,) = self.roll()
        self.target = inmate
        self.message = f"Bail for {self.who(inmate)} is {self.bail_die} ghost rock: pay it, or bust him out."

    def _panel_rob(self, p: Panel) -> None:
        stops = [t for t in ("coach", "train") if self.verdict(ga.Rob(target=t, outcome="failed")).legal]
        if stops:
            p.row(*[(f"Rob the {t}", lambda t=t: self._set_target(t)) for t in stops])
        target = self.target or None
        if target is None:
            self._target_note(p, "rob it")
            return
        p.note(f"Robbing: {self.who(target) if target not in ('coach', 'train') else 'the ' + target}")

        def rob(outcome: str) -> Callable[[], object]:
            return lambda: self._rob(target, outcome)

        p.row(("Success", rob("success")), ("Failed", rob("failed")), ("Caught: jail", rob("caught")))

    def _set_target(self, target: str) -> None:
        self.target = target

    def _rob(self, target: str, outcome: str) -> None:
        (die,) = self.roll()
        self.act(ga.Rob(target=target, outcome=outcome, die=die))  # type: ignore[arg-type]

    def _panel_arrest(self, p: Panel) -> None:
        target = self._target_note(p, "arrest it (a dude who robbed or shot this round)")
        if target is None:
            return
        p.row(("Arrested: to a cell", lambda: self._arrest(target)),
              ("Failed", lambda: self.act(ga.Arrest(target=target, success=False))))

    def _arrest(self, target: str) -> None:
        (die,) = self.roll()
        self.act(ga.Arrest(target=target, success=True, die=die))

    def _panel_recruit(self, p: Panel) -> None:
        target = self._target_note(p, "recruit a townsfolk")
        if target is not None:
            p.row(("Recruited", lambda: self.act(ga.Recruit(target=target, success=True))),
                  ("Refused", lambda: self.act(ga.Recruit(target=target, success=False))))
        if self._token() == "special":
            p.row(("Took the special action", lambda: self.act(ga.TakeAction())))

    def _panel_raise(self, p: Panel) -> None:
        target = self._target_note(p, "raise a dead dude")
        if target is not None:
            p.row(("Raised, harrowed", lambda: self.act(ga.Raise(target=target, success=True))),
                  ("Failed", lambda: self.act(ga.Raise(target=target, success=False))))

    def _panel_run(self, p: Panel) -> None:
        p.note("Click (or drag him to) the space he runs to, up to four spaces; two when wounded.")

    def _panel_other(self, p: Panel) -> None:
        p.note("Do what the token says with the cards, then:", 20, WOOD_DARK)
        p.row(("Took the action", lambda: self.act(ga.TakeAction())))

    def _panel_arrivals(self, p: Panel) -> None:
        waiting = self.state.arrivals
        if waiting:
            p.note(f"{len(waiting)} arrival(s) to place: each goes to the building numbered by 2d6 (Events).")
            label = "Place the Deputy at the Jail" if waiting[0] == "deputy" else "Roll 2d6 for the next arrival"
            p.row((f"{label} (Enter)", self.place_arrival))
        else:
            p.note("End the round: the Doctor heals who took no other action, the Deputy moves on, "
                   "the game's end is checked.")
            p.row(("End the round (Enter)", lambda: self.act(ga.EndRound())))

    def _panel_over(self, p: Panel) -> None:
        p.note("Scores (Winning the Game): dudes alive in play, ghost rock, 5 per location held, cards and "
               "objectives.")
        for s in gr.scores(self.state):
            p.note(f"{pretty(s.outfit)}: {s.total}  ({s.dudes} dudes, {s.ghost_rock} rock, {s.locations} held, "
                   f"{s.cards} cards)", 20)
        p.note("Mayor of Slaughter Gulch: " + ", ".join(pretty(o) for o in gr.winners(self.state)), 24, RED)

    def _panel_books(self, p: Panel) -> None:
        p.y = max(p.y + 6, self.size[1] - BAR_H - 12 - 60 - 50 * len(self.state.outfits))
        p.heading("Outfits: ghost rock, objectives, card points")

        def adjust(kind: str, outfit: str, delta: int) -> Callable[[], object]:
            if kind == "gr":
                return lambda: self.act(ga.AdjustGhostRock(holder=outfit, delta=delta))
            if kind == "obj":
                return lambda: self.act(ga.AdjustScore(outfit=outfit, objectives=delta))
            return lambda: self.act(ga.AdjustScore(outfit=outfit, points=delta))

        scores = {s.outfit: s for s in gr.scores(self.state)}
        for o in self.state.outfits:
            p.note(f"{pretty(o.id)}: {o.ghost_rock} rock, {o.objectives} obj., {o.points} pts; "
                   f"score {scores[o.id].total}", 18, INK, 1)
            p.row(("rock -", adjust("gr", o.id, -1)), ("+", adjust("gr", o.id, 1)),
                  ("obj -", adjust("obj", o.id, -1)), ("+", adjust("obj", o.id, 1)),
                  ("pts -", adjust("pts", o.id, -1)), ("+", adjust("pts", o.id, 1)), weights=(3, 2, 3, 2, 3, 2))
        end = self.state.end_condition
        p.row((f"Mine: {self.state.mine}", None),
              ("-", lambda: self.act(ga.AdjustGhostRock(holder="mine", delta=-1))),
              ("+", lambda: self.act(ga.AdjustGhostRock(holder="mine", delta=1))),
              ("last enc.", lambda: self.act(ga.Declare(condition=1))),
              ("last event", lambda: self.act(ga.Declare(condition=5))), weights=(3, 1, 1, 2, 2))
        if end is not None:
            met = gr.conditions_met(self.state)
            p.note(f"Ends when {gr.END_CONDITIONS[end]}" + (" - met!" if end in met else "")
                   + (f"; {len(met)} condition(s) met" if met else ""), 18, WOOD_DARK, 2)

    # ---- drawing

    def status(self) -> str:
        """The top bar: round, step, and whose turn."""
        state = self.state
        who = (f" - {pretty(state.planning)} behind the screen" if state.planning else
               f" - {state.actor} acts" if state.actor else "")
        return f"Round {state.round}: {gr.STEP_TITLES[state.step]}{who}"

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(PAPER)
        self.draw_top(surface, self.status())
        self._draw_streets(surface)
        for b in self.town.board.buildings:
            self._draw_building(surface, b)
        self._draw_home(surface)
        if self.curtain:
            self._draw_curtain(surface)
        else:
            self._draw_highlights(surface)
            self._draw_figures(surface)
        self._draw_legend(surface)
        draw_log(surface, self.log_rect, self.play.log(), self.log_scroll)
        self.build_panel()
        self.panel.draw(surface)
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
        lines, size = fit_lines(self.place(building), 22, rect.width - 40)
        for i, line in enumerate(lines):
            text(surface, line, (rect.x + 34, rect.y + 6 + i * 18), size, WHITE)
        owner = sg.controller(self.town, building)
        if owner:
            glyph_held(surface, rect, self.colours.get(owner, NEUTRAL), f"held: {pretty(owner)}")
        if building == sg.JAIL:
            cells = len(sg.jailed(self.town))
            text(surface, f"cells {cells}/3", (rect.x + 8, rect.bottom - 42), 18, PAPER)
        waiting = [a for a in self.state.arrivals if (a == "coach" and building == gr.HOTEL_SALOON)
                   or (a == "train" and building == sg.RAIL_STATION)]
        if waiting:
            text(surface, f"{len(waiting)} arriving", (rect.x + 8, rect.bottom - 42), 18, GOLD)

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
        for o in self.state.outfits:
            slot = self._home_slot(o.id)
            pygame.draw.rect(surface, STREET_LINE, slot, 1, border_radius=6)
            pygame.draw.circle(surface, self.colours[o.id], (slot.x + 12, slot.y + 14), 7)
            aside = sum(1 for d in self.town.dudes if d.outfit == o.id and d.at == sg.ASIDE)
            label, size = fit_text(f"Home: {pretty(o.id)}", 20, (slot.width // 2 if aside else slot.width) - 30)
            text(surface, label, (slot.x + 24, slot.y + 6), size, INK)
            if aside:
                text(surface, f"set aside ({aside})", (slot.centerx + 6, slot.y + 6), 18, GREY)

    def _draw_highlights(self, surface: pygame.Surface) -> None:
        state = self.state
        if self.selected is None or not self.town.is_dude(self.selected):
            return
        dude = self.town.dude(self.selected)
        if not dude.active:
            return
        board = self.town.board
        for loc in sg.visible_from(board, dude.at):
            glyph_sight(surface, self.location_rect(loc).inflate(-4, -4))
        if state.planning:
            moves = sg.legal_moves(board, dude, False)
        elif state.actor == dude.id and self._token() == "run":
            moves = gr.run_destinations(state, dude.id)
        else:
            moves = frozenset()
        for loc in moves:
            area = self._home_slot(dude.outfit) if loc == sg.HOME else self.location_rect(loc)
            translucent(surface, area, GREEN, 70)
        for loc in sg.shootable_from(board, dude.at) - {dude.at}:
            r = self.location_rect(loc)
            glyph_crosshair(surface, (r.right - 16, r.y + 16))

    def _draw_figures(self, surface: pygame.Surface) -> None:
        state = self.state
        centres = self.token_centres()
        hidden = state.planning
        targets = set(self.targets())
        for fid, (x, y) in centres.items():
            if fid == self.dragging:
                continue
            if fid == "deputy":
                glyph_star(surface, (x, y))
            elif self.town.is_folk(fid):
                self._draw_folk(surface, self.town.folk(fid), (x, y))
            else:
                self._draw_dude(surface, self.town.dude(fid), (x, y))
                order = state.order_of(fid)
                if order and (not hidden or self.town.dude(fid).outfit == hidden) and state.step != gr.Step.SETUP:
                    glyph_token(surface, (x, y), order, self.colours[self.town.dude(fid).outfit])
            if fid in targets:
                glyph_target(surface, (x, y))
            if fid == self.target:
                pygame.draw.circle(surface, RED, (x, y), 19, 4)
            if fid == state.actor:
                glyph_acting(surface, (x, y))
        if state.planning:
            self._draw_plans(surface, centres)
        if self.dragging:
            if self.town.is_dude(self.dragging):
                self._draw_dude(surface, self.town.dude(self.dragging), self.drag_pos)
            elif self.town.is_folk(self.dragging):
                self._draw_folk(surface, self.town.folk(self.dragging), self.drag_pos)

    def _draw_folk(self, surface: pygame.Surface, folk: sg.Folk, centre: Point) -> None:
        glyph_townsfolk(surface, centre, "S" if folk.sheriff else "T")
        if folk.wounded:
            glyph_wounded(surface, centre)
        if folk.in_cell:
            glyph_bars(surface, centre)
        if folk.id in self.state.scatter:
            pygame.draw.circle(surface, GOLD, centre, 15, 3)

    def _draw_dude(self, surface: pygame.Surface, dude: sg.Dude, centre: Point) -> None:
        colour = self.colours.get(dude.outfit, NEUTRAL)
        if dude.at == sg.ASIDE:
            colour = tuple(c // 2 + 110 for c in colour)  # type: ignore[assignment]
        pygame.draw.circle(surface, colour, centre, 12)
        ring = GOLD if dude.id == self.selected else INK
        pygame.draw.circle(surface, ring, centre, 12, 3 if dude.id == self.selected else 1)
        text(surface, dude.id[-1], centre, 18, INK, centre=True)
        if dude.in_cell:
            glyph_bars(surface, centre)
        if dude.wounded:
            glyph_wounded(surface, centre)
        if dude.dead:
            glyph_dead(surface, centre)
        if dude.harrowed:
            pygame.draw.circle(surface, (120, 40, 140), centre, 14, 2)

    def _draw_plans(self, surface: pygame.Surface, centres: dict[str, Point]) -> None:
        """Only the planning outfit's own tokens show; the others stay behind their screens."""
        outfit = self.state.planning
        for dude_id, order in self.state.orders:
            dude = self.town.dude(dude_id)
            if dude.outfit != outfit:
                continue
            colour = self.colours[dude.outfit]
            target = self.location_rect(order.to).center
            pygame.draw.line(surface, colour, centres[dude_id], target, 3)
            pygame.draw.circle(surface, colour, target, 10, 3)
            if self.state.step == gr.Step.ORDERS:
                glyph_token(surface, (target[0], target[1] + 8), order, colour)

    def _draw_curtain(self, surface: pygame.Surface) -> None:
        cover = self.board_rect.union(self.home_rect)
        pygame.draw.rect(surface, WOOD_DARK, cover)
        text(surface, f"Pass the screen to {pretty(self.state.planning or '')}", cover.center, 44, WHITE,
             centre=True)
        text(surface, "click or press Enter when only they are looking", (cover.centerx, cover.centery + 40),
             26, PAPER, centre=True)

    def _draw_legend(self, surface: pygame.Surface) -> None:
        """One row with every marker the board uses, drawn with the board's own glyphs."""
        x, y = 16, self.legend_y
        for words in self.LEGEND:
            if x + 28 + text_width(words, 18) > self.board_rect.right:
                x, y = 16, y + self.LEGEND_ROW
            box = pygame.Rect(x, y, 24, 22)
            self._legend_glyph(surface, words, box)
            rect = text(surface, words, (x + 28, y + 4), 18)
            x = rect.right + 14

    def _legend_glyph(self, surface: pygame.Surface, words: str, box: pygame.Rect) -> None:
        c = box.center
        sample = NEUTRAL

        def token(extra: Callable[[pygame.Surface, Point], None]) -> Callable[[], object]:
            def draw() -> None:
                pygame.draw.circle(surface, sample, c, 10)
                extra(surface, c)
            return draw

        draw: dict[str, Callable[[], object]] = {
            "townsfolk (S: Sheriff)": lambda: glyph_townsfolk(surface, c),
            "the Deputy": lambda: glyph_star(surface, c),
            "acting now": lambda: (pygame.draw.circle(surface, sample, c, 9), pygame.draw.circle(surface, GOLD, c, 11, 3)),
            "may be targeted": lambda: (pygame.draw.circle(surface, sample, c, 8), pygame.draw.circle(surface, RED, c, 11, 2)),
            "wounded": token(lambda s, p: glyph_wounded(s, (p[0] - 8, p[1] - 6))),
            "in a jail cell": token(glyph_bars),
            "dead": token(glyph_dead),
            "may move there": lambda: glyph_move(surface, c, 10),
            "can see": lambda: glyph_sight(surface, box.inflate(-2, -2)),
            "may shoot": lambda: glyph_crosshair(surface, c),
        }
        draw[words]()


def legend_words() -> tuple[str, ...]:
    """The legend's entries (for tests)."""
    return GulchView.LEGEND


__all__ = ["GulchView", "HELP_GULCH", "glyph_crosshair", "glyph_wounded", "legend_words", "wrap"]
