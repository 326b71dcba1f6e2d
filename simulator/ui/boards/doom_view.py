"""The Doomtown window: each player's street of cards, the Town Square, out-of-town deeds, and a turn.

A turn ("Sequence o' Play", ``seeds/000``) is carried out from the panel on
the right: the lowball Winner, Upkeep, then High Noon one action at a time
(move by dragging, call out, start a job, shop, pass), posses formed by
clicking the highlighted dudes, the shootout's losses recorded by the players
(ace, send home), and Nightfall. The rules are :mod:`simulator.boards.doom_turn`.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from simulator.boards import doom_actions as da
from simulator.boards import doom_turn as dtt
from simulator.boards import doomtown as dt
from simulator.boards.board_play import BoardPlay
from simulator.ui.boards.common import (
    BAR_H,
    GOLD,
    GREEN,
    GREY,
    INK,
    PANEL,
    PAPER,
    RED,
    STREET,
    STREET_LINE,
    TOP_H,
    WOOD_DARK,
    BoardView,
    Panel,
    Point,
    draw_log,
    fit_lines,
    fit_text,
    font,
    pretty,
    text,
)

HELP_DOOM = [
    ("Panel buttons", "the phase's choices: lowball Winner, Upkeep done, Pass, Noon action, Nightfall"),
    ("Drag a dude", "move it as the acting player's High Noon action (free or boots, shown while dragging)"),
    ("C, then a dude", "the selected dude calls that dude out; its player accepts or refuses in the panel"),
    ("J, then a deed", "the selected dude leads a job there (or against a dude); the dealer boots"),
    ("Click a ringed dude", "while a posse forms: a dashed ring may join (a gold 'boots' tag: joining boots it);"),
    ("", "a solid ring has joined (green: the dealer's side, red: the target's); click again to leave"),
    ("Shootout", "click a posse member, then Ace or Send home booted; Next round; a card can bring in more"),
    ("Click a +", "shop: a new deed at that end of the acting player's street; or Shop: + dude, + out of town"),
    ("A selected dude", "card effects: Boot / Unboot, Ace, Send home booted, Influence - / +"),
    ("VP - / +", "Victory Points of each player (the panel's foot shows Influence and Control Points)"),
    ("Click a deed", "select it: D destroys it (the street closes up), Control Points - / +"),
    ("M", "card move: the next drag moves a dude without booting it (a card's effect)"),
    ("Enter", "the panel's main button; P passes"),
]


class DoomView(BoardView):
    """Doomtown: each street a row of cards, the Town Square between, out-of-town deeds aside; a turn."""

    help_lines = HELP_DOOM
    CARD_GAP = 12
    PLUS_W = 36
    MIN_CARD_W = 120
    LINE_GAP = 6

    def side_ids(self) -> list[str]:
        """The players, in order (their colours)."""
        return list(self.state.players)

    def __init__(self, play: BoardPlay, size: tuple[int, int], autosave: Path | None = None) -> None:
        super().__init__(play, size, autosave)
        self.selected_dude: str | None = None
        self.selected_deed: str | None = None
        self.mode: str | None = None           # "call_out" / "job": waiting for a target; "card_move"
        self.preview = ""
        self.new_ids = 0
        w, h = size
        right = 390
        self.area = pygame.Rect(16, TOP_H + 8, w - right - 32, h - TOP_H - 8 - BAR_H - 170)
        self.log_rect = pygame.Rect(16, self.area.bottom + 8, self.area.width, h - BAR_H - 8 - self.area.bottom - 8)
        self.column = pygame.Rect(w - right, TOP_H + 8, right - 14, h - TOP_H - 8 - BAR_H - 8)
        self.aside = pygame.Rect(self.column.x, self.column.y + 430, self.column.width, 150)

    @property
    def state(self) -> dtt.DoomState:
        """The present turn state."""
        state: dtt.DoomState = self.play.state
        return state

    @property
    def town(self) -> dt.Town:
        """The present position."""
        return self.state.town

    def name(self, key: str) -> str:
        """Display name of a location, dude or player."""
        shown = self.state.name(key)
        return pretty(shown) if shown == key and key != dt.TOWN_SQUARE else shown

    # ---- layout

    def _card_size(self) -> tuple[int, int]:
        width = max(self._street_cards(i)[0] for i in range(len(self.town.streets)))
        rows = len(self.town.streets)
        height = min(200, (self.area.height - 120 - (rows + 1) * self.CARD_GAP) // max(rows, 1))
        return width, height

    def _street_cards(self, index: int) -> tuple[int, int]:
        count = max(1, len(self.town.streets[index].locations))
        usable = self.area.width - 2 * (self.PLUS_W + self.CARD_GAP)
        fit = max(1, (usable + self.CARD_GAP) // (self.MIN_CARD_W + self.CARD_GAP))
        lines = -(-count // fit)
        per_line = -(-count // lines)
        width = min(190, (usable - (per_line - 1) * self.CARD_GAP) // per_line)
        return width, per_line

    def _row_tops(self) -> list[int]:
        _, ch = self._card_size()
        rows = len(self.town.streets)
        above = (rows + 1) // 2
        square = self.square_rect()
        tops = [square.top - (above - i) * (ch + self.CARD_GAP) for i in range(above)]
        tops += [square.bottom + self.CARD_GAP + i * (ch + self.CARD_GAP) for i in range(rows - above)]
        return tops

    def square_rect(self) -> pygame.Rect:
        """The Town Square band across the middle."""
        _, ch = self._card_size()
        above = (len(self.town.streets) + 1) // 2
        top = self.area.y + above * (ch + self.CARD_GAP)
        return pygame.Rect(self.area.x + self.PLUS_W + self.CARD_GAP, top,
                           self.area.width - 2 * (self.PLUS_W + self.CARD_GAP), 110)

    def _row_rects(self, index: int) -> tuple[list[pygame.Rect], pygame.Rect, pygame.Rect]:
        _, ch = self._card_size()
        cw, per_line = self._street_cards(index)
        count = len(self.town.streets[index].locations)
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
        count = max(1, len(self.town.out_of_town))
        cols = min(count, 3)
        rows = -(-count // cols)
        width = (self.aside.width - (cols - 1) * 8) // cols
        height = max(28, (self.aside.height - 28 - (rows - 1) * 6) // rows)
        for i, deed in enumerate(self.town.out_of_town):
            rects[deed.id] = pygame.Rect(self.aside.x + (i % cols) * (width + 8),
                                         self.aside.y + 26 + (i // cols) * (height + 6), width, height)
        return rects

    def location_rect(self, location: str) -> pygame.Rect:
        """The screen rect of ``location``."""
        return self.location_rects()[location]

    def location_at(self, pos: Point) -> str | None:
        """The location under ``pos``, or ``None``."""
        for loc, rect in self.location_rects().items():
            if rect.collidepoint(pos):
                return loc
        return None

    def plus_at(self, pos: Point) -> tuple[str, dt.End] | None:
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
            square = loc == dt.TOWN_SQUARE
            per_row = max(1, (area.width - 8) // 164) if square else 1
            width = 160 if square else area.width - 12
            top = 34 if square else 40
            step = max(14, min(26, (area.height - top - 18) // max(1, len(self.town.dudes_at(loc)))))
            for i, d in enumerate(self.town.dudes_at(loc)):
                dy = (i // per_row) * (26 if square else step)
                rects[d.id] = pygame.Rect(area.x + 6 + (i % per_row) * 164, area.y + top + dy, width,
                                          min(22, step - 2) if not square else 22)
        return rects

    def token_centre(self, dude_id: str) -> Point:
        """Screen centre of a dude's token."""
        centre: Point = self.token_rects()[dude_id].center
        return centre

    def dude_at_pos(self, pos: Point) -> str | None:
        """The dude whose token is under ``pos``, or ``None``."""
        for dude_id, rect in self.token_rects().items():
            if rect.collidepoint(pos):
                return dude_id
        return None

    # ---- changes

    def after_change(self) -> None:
        """Drop selections of dudes and deeds that left play."""
        if self.selected_dude and not any(d.id == self.selected_dude for d in self.town.dudes):
            self.selected_dude = None
        if self.selected_deed and self.selected_deed not in self.town.locations:
            self.selected_deed = None

    def cancel(self) -> None:
        """Esc: drop the drag, the selection and a half-made call-out or job."""
        super().cancel()
        self.mode, self.preview = None, ""
        self.selected_dude = self.selected_deed = None

    # ---- events

    def press(self, pos: Point) -> None:
        dude_id = self.dude_at_pos(pos)
        if self.mode in ("call_out", "job"):
            self._choose_target(dude_id or self.location_at(pos))
            return
        if dude_id and self._posse_click(dude_id):
            return
        if dude_id:
            self.selected_dude, self.selected_deed = dude_id, None
            self.begin_drag(dude_id, pos)
            self.message = self._describe(dude_id)
            return
        plus = self.plus_at(pos)
        if plus:
            self._shop_deed(*plus)
            return
        self.selected_deed = self.location_at(pos)
        self.selected_dude = None
        if self.selected_deed:
            self.message = f"{self.name(self.selected_deed)} selected."

    def _describe(self, dude_id: str) -> str:
        d = self.town.dude(dude_id)
        booted = ", booted" if d.booted else ""
        return f"{self.name(dude_id)} ({pretty(d.player)}{booted}, Influence {d.influence}) at {self.name(d.at)}."

    def _posse_click(self, dude_id: str) -> bool:
        """While a posse forms, a click on a candidate joins it (or leaves); in a shootout it selects."""
        side = dtt.forming(self.state)
        if side is not None:
            _, options, joined = side
            if dude_id in joined:
                fixed = self.state.fight and dude_id in (self.state.fight.dealer, self.state.fight.target)
                if not fixed:
                    self.act(da.Leave(dude=dude_id))
                return True
            if any(j.dude == dude_id for j in options):
                self.act(da.Join(dude=dude_id))
                return True
        return False

    def motion(self, pos: Point) -> None:
        if not self.dragging:
            return
        target = self.location_at(pos)
        if target is None or target == self.town.dude(self.dragging).at:
            self.preview = ""
            return
        if self.mode == "card_move":
            self.preview = "card"
            return
        cost = dt.move_cost(self.town, self.dragging, target)
        self.preview = ("boots" if cost.boots else "free") if cost.legal else "illegal"

    def drop(self, figure: str, pos: Point) -> None:
        self.preview = ""
        target = self.location_at(pos)
        if target is None or target == self.town.dude(figure).at:
            self.message = f"{self.name(figure)} stays put."
            return
        if self.mode == "card_move":
            self.mode = None
            self.act(da.CardMove(dude=figure, to=target))
        else:
            self.act(da.Move(dude=figure, to=target))

    def key(self, key: int, mod: int) -> None:
        if key in (pygame.K_d, pygame.K_DELETE) and self.selected_deed:
            self.act(da.Destroy(deed=self.selected_deed))
        elif key == pygame.K_c and self.selected_dude:
            self.start_target("call_out")
        elif key == pygame.K_j and self.selected_dude:
            self.start_target("job")
        elif key == pygame.K_p:
            self.act(da.Pass())
        elif key == pygame.K_m:
            self.mode = None if self.mode == "card_move" else "card_move"
            self.message = "Card move: drag a dude; it will not boot." if self.mode else "Card move off."
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.enter()

    def enter(self) -> None:
        """Enter: the main button of the moment."""
        state = self.state
        if state.phase == dtt.Phase.UPKEEP:
            self.act(da.EndUpkeep())
        elif state.phase == dtt.Phase.NIGHTFALL:
            self.act(da.Nightfall())
        elif dtt.forming(state) is not None:
            self.act(da.PosseReady())

    def start_target(self, mode: str) -> None:
        """Wait for a click on the call-out's target dude, or the job's target deed or dude."""
        self.mode = mode
        who = self.name(self.selected_dude or "")
        self.message = (f"Call out: click the dude {who} calls out (Esc cancels)." if mode == "call_out" else
                        f"Job: click the deed (or dude) {who} leads the job against (Esc cancels).")

    def _choose_target(self, target: str | None) -> None:
        mode, self.mode = self.mode, None
        if target is None or self.selected_dude is None:
            self.message = "No target chosen."
            return
        if mode == "call_out":
            self.act(da.CallOut(dealer=self.selected_dude, target=target))
        else:
            self.act(da.StartJob(dealer=self.selected_dude, target=target))

    def _fresh(self, stem: str) -> str:
        taken = {*self.town.locations, *(d.id for d in self.town.dudes), *(d.id for d in self.state.boot_hill)}
        while True:
            self.new_ids += 1
            if f"{stem}-{self.new_ids}" not in taken:
                return f"{stem}-{self.new_ids}"

    def _shop_deed(self, player: str, end: dt.End) -> None:
        if player != self.state.to_act:
            self.message = f"Shopping is a High Noon action of the player whose turn it is ({self.state.to_act})."
            return
        self.act(da.Shop(card="deed", id=self._fresh("new-deed"), end=end))

    # ---- the panel

    def build_panel(self) -> None:
        """The phase's choices, the selected card's tools, then each player's totals."""
        p = Panel(self.column.x, self.column.y + 2, self.column.width)
        self.panel = p
        state = self.state
        p.heading(f"Turn {state.turn}: {dtt.PHASE_TITLES[state.phase]}")
        if state.phase == dtt.Phase.GAMBLING:
            p.note("Ante 1 ghost rock, draw five for lowball; the lowest hand wins (Gambling Phase).")
            for player in state.players:
                p.row((f"{pretty(player)} won lowball", lambda pl=player: self.act(da.Lowball(winner=pl))))
        elif state.phase == dtt.Phase.UPKEEP:
            p.note("Collect Production, pay Upkeep (Upkeep Phase).")
            p.row(("Upkeep done: High Noon (Enter)", lambda: self.act(da.EndUpkeep())))
        elif state.phase == dtt.Phase.NIGHTFALL:
            p.note("Discard, refill your Play hands; then every card unboots (Nightfall).")
            p.row(("Nightfall: unboot all (Enter)", lambda: self.act(da.Nightfall())))
        elif state.phase == dtt.Phase.OVER:
            p.note(f"{pretty(state.champion or '')} wins (Winnin' the Game).", 26, RED)
        elif state.fight is not None:
            self._panel_fight(p)
        else:
            self._panel_noon(p)
        self._panel_selected(p)
        self._panel_players(p)

    def _panel_noon(self, p: Panel) -> None:
        state = self.state
        player = state.to_act or ""
        p.note(f"{pretty(player)} to act ({state.passes} pass(es) in a row). Drag a dude to move it; select one "
               "then Call out or Job; or shop, a Noon action, or pass.")
        sel = self.selected_dude
        mine = sel is not None and self.town.dude(sel).player == player
        p.row(("Call out (C)", lambda: self.start_target("call_out"), mine),
              ("Job (J)", lambda: self.start_target("job"), mine))
        p.row(("Shop: + dude", lambda: self.act(da.Shop(card="dude", id=self._fresh("new-dude")))),
              ("+ out of town", lambda: self.act(da.Shop(card="out_of_town", id=self._fresh("strike")))))
        p.row(("Noon action (card)", lambda: self.act(da.NoonAction())), ("Pass (P)", lambda: self.act(da.Pass())))
        p.row(("Card move: no boot (M)", lambda: self.key(pygame.K_m, 0)), pressed="Card move: no boot (M)"
              if self.mode == "card_move" else "")

    def _panel_fight(self, p: Panel) -> None:
        fight = self.state.fight
        assert fight is not None
        what = "Call-out" if fight.kind == "call_out" else f"Job{' ' + fight.name if fight.name else ''}"
        p.note(f"{what} at {self.name(fight.location)}: {self.name(fight.dealer)} against "
               f"{self.name(fight.target)}.", 22)
        if fight.stage == "answer":
            p.note(f"{pretty(fight.target_player or '')}: accept, or refuse (boots and runs home).")
            p.row(("Accept", lambda: self.act(da.Answer(accept=True))),
                  ("Refuse: home booted", lambda: self.act(da.Answer(accept=False))))
            return
        side = dtt.forming(self.state)
        if side is not None:
            which, options, joined = side
            player = fight.dealer_player if which == "dealer" else fight.target_player
            p.note(f"{pretty(player or '')}: click the ringed dudes to join ({len(joined)} in; a gold 'boots' "
                   "tag means joining boots).")
            p.row(("Posse ready (Enter)", lambda: self.act(da.PosseReady())))
            return
        p.note(f"Shootout round {fight.round}. Draw, then record the losses: click a posse member, then Ace or "
               "Send home booted. It ends when one posse is left.")
        for label, names in (("Dealer", fight.dealer_side), ("Target", fight.target_side)):
            p.note(f"{label}: " + (", ".join(self.name(d) for d in names) or "-"), 18, WOOD_DARK, 2)
        p.row(("Next round", lambda: self.act(da.NextRound())))

    def _panel_selected(self, p: Panel) -> None:
        sel, deed = self.selected_dude, self.selected_deed
        fight = self.state.fight
        if sel:
            d = self.town.dude(sel)
            p.heading(f"{self.name(sel)}: Influence {d.influence}{', booted' if d.booted else ''}")
            if fight and fight.stage == "shootout" and fight.side_of(sel) is None and \
                    d.player in (fight.dealer_player, fight.target_player):
                p.row(("Card: join shootout", lambda: self.act(da.CardJoin(dude=sel))),
                      ("... and boot", lambda: self.act(da.CardJoin(dude=sel, boots=True))))
            p.row(("Ace", lambda: self.act(da.Ace(dude=sel))),
                  ("Send home booted", lambda: self.act(da.SendHome(dude=sel))), weights=(1, 2))
            p.row(("Unboot" if d.booted else "Boot", lambda: self.act(da.Boot(dude=sel, booted=not d.booted))),
                  ("Infl -", lambda: self.act(da.SetInfluence(dude=sel, influence=max(0, d.influence - 1)))),
                  ("Infl +", lambda: self.act(da.SetInfluence(dude=sel, influence=min(20, d.influence + 1)))))
        elif deed and deed != dt.TOWN_SQUARE and deed not in self.town.homes:
            cp = self.town.points_of(deed)
            p.heading(f"{self.name(deed)}: {cp} Control Point(s)")
            p.row(("Destroy (D)", lambda: self.act(da.Destroy(deed=deed))),
                  ("CP -", lambda: self.act(da.SetControlPoints(deed=deed, points=max(0, cp - 1)))),
                  ("CP +", lambda: self.act(da.SetControlPoints(deed=deed, points=min(20, cp + 1)))))

    def _panel_players(self, p: Panel) -> None:
        p.y = self.aside.bottom + 10
        p.heading("Influence / Control Points + Victory Points")
        table = dtt.standing(self.state)
        for player in self.state.players:
            inf, cp, vp = table[player]
            p.row((f"{pretty(player)}: Infl {inf}, CP {cp} + VP {vp}", None),
                  ("VP -", lambda pl=player: self.act(da.AdjustVictory(player=pl, delta=-1))),
                  ("VP +", lambda pl=player: self.act(da.AdjustVictory(player=pl, delta=1))), weights=(5, 1, 1))

    # ---- drawing

    def status(self) -> str:
        """The top bar: turn, phase, whose action."""
        state = self.state
        who = f" - {pretty(state.to_act)} to act" if state.to_act and state.phase == dtt.Phase.HIGH_NOON else ""
        fight = state.fight
        if fight is not None:
            who += f" - {'call-out' if fight.kind == 'call_out' else 'job'} at {self.name(fight.location)}"
        return f"Turn {state.turn}: {dtt.PHASE_TITLES[state.phase]}{who}"

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(PAPER)
        self.draw_top(surface, self.status())
        square = self.square_rect()
        pygame.draw.rect(surface, STREET, square, border_radius=10)
        pygame.draw.rect(surface, STREET_LINE, square, 3, border_radius=10)
        text(surface, "Town Square", (square.x + 10, square.y + 8), 28, INK)
        text(surface, "adjacent to every location in town", (square.x + 160, square.y + 12), 20, STREET_LINE)
        self._draw_streets(surface)
        pygame.draw.rect(surface, PANEL, self.column, border_radius=8)
        self.build_panel()
        self.panel.draw(surface)
        self._draw_aside(surface)
        self._draw_tokens(surface)
        draw_log(surface, self.log_rect, self.play.log(), self.log_scroll)
        self.draw_message(surface)

    def _draw_streets(self, surface: pygame.Surface) -> None:
        acting = self.state.to_act if self.state.phase == dtt.Phase.HIGH_NOON and not self.state.fight else None
        for i, street in enumerate(self.town.streets):
            cards, left, right = self._row_rects(i)
            for loc, rect in zip(street.locations, cards, strict=True):
                self._draw_card(surface, loc, rect, street.player, loc == street.home)
            for slot in (left, right):
                live = street.player == acting
                pygame.draw.rect(surface, (214, 200, 170) if live else (226, 220, 206), slot, border_radius=6)
                pygame.draw.rect(surface, STREET_LINE if live else GREY, slot, 2, border_radius=6)
                text(surface, "+", slot.center, 36, WOOD_DARK if live else GREY, centre=True)

    def _draw_card(self, surface: pygame.Surface, loc: str, rect: pygame.Rect, player: str, home: bool) -> None:
        colour = self.colours.get(player, GREY)
        pygame.draw.rect(surface, (250, 244, 228) if not home else (255, 250, 238), rect, border_radius=8)
        pygame.draw.rect(surface, colour, rect, 6 if home else 3, border_radius=8)
        if loc == self.selected_deed:
            pygame.draw.rect(surface, GOLD, rect.inflate(8, 8), 4, border_radius=10)
        fight = self.state.fight
        if fight and fight.location == loc:
            pygame.draw.rect(surface, RED, rect.inflate(14, 14), 4, border_radius=12)
        lines, size = fit_lines(self.name(loc), 22, rect.width - 14, max_lines=1 if rect.height < 90 else 2)
        for j, line in enumerate(lines):
            text(surface, line, (rect.x + 8, rect.y + 6 + j * 17), size, INK)
        if home:
            label = "HOME"
        else:
            label = ("DEED" if dt.is_in_town(self.town, loc) else "OUT OF TOWN")
            cp = self.town.points_of(loc)
            if cp:
                label += f"  CP {cp}"
            holder = dt.controller(self.town, loc)
            if holder and holder != player:
                label += f"  held: {pretty(holder)}"
                pygame.draw.rect(surface, self.colours.get(holder, GREY), (rect.x + 3, rect.bottom - 22,
                                                                          rect.width - 6, 4))
        words, size = fit_text(label, 18, rect.width - 12)
        text(surface, words, (rect.x + 8, rect.bottom - 17), size, GREY)

    def _draw_aside(self, surface: pygame.Surface) -> None:
        text(surface, "Out of town (adjacent to nothing)", (self.aside.x, self.aside.y + 2), 22, INK)
        for deed in self.town.out_of_town:
            self._draw_card(surface, deed.id, self.location_rect(deed.id), deed.owner, False)

    def _roles(self) -> dict[str, str]:
        """dude id -> ``dealer``/``target`` (in a posse), ``may:dealer``/``may:target`` (+``:boots``)."""
        roles: dict[str, str] = {}
        fight = self.state.fight
        if fight is None:
            return roles
        side = dtt.forming(self.state)
        if side is not None:
            which, options, joined = side
            for j in options:
                if j.dude not in joined:
                    roles[j.dude] = f"may:{which}" + (":boots" if j.boots else "")
        for d in fight.dealer_side:
            roles[d] = "dealer"
        for d in fight.target_side:
            roles[d] = "target"
        return roles

    def _draw_tokens(self, surface: pygame.Surface) -> None:
        roles = self._roles()
        for dude_id, rect in self.token_rects().items():
            if dude_id != self.dragging:
                self._draw_token(surface, self.town.dude(dude_id), rect, roles.get(dude_id))
        if self.dragging:
            rect = self.token_rects()[self.dragging].copy()
            rect.center = self.drag_pos
            self._draw_token(surface, self.town.dude(self.dragging), rect, None)
            if self.preview:
                colour = {"free": GREEN, "boots": GOLD, "illegal": RED, "card": GREEN}[self.preview]
                tag = font(24).size(self.preview)
                badge = pygame.Rect(rect.x, rect.bottom + 4, tag[0] + 12, tag[1] + 6)
                pygame.draw.rect(surface, colour, badge, border_radius=5)
                text(surface, self.preview, badge.center, 24, INK, centre=True)

    def _draw_token(self, surface: pygame.Surface, dude: dt.Dude, rect: pygame.Rect, role: str | None) -> None:
        colour = self.colours.get(dude.player, GREY)
        fill = tuple(c // 2 + 100 for c in colour) if dude.booted else colour
        pygame.draw.rect(surface, fill, rect, border_radius=5)
        border = GOLD if dude.id == self.selected_dude else INK
        pygame.draw.rect(surface, border, rect, 3 if dude.id == self.selected_dude else 1, border_radius=5)
        label, size = self.token_label(dude, rect.width - (46 if role and role.endswith("boots") else 8))
        text(surface, label, (rect.x + 5, rect.centery - font(size).get_height() // 2), size, INK)
        if role is None:
            return
        ring = GREEN if "dealer" in role else RED
        if role.startswith("may:"):
            dashed_rect(surface, ring, rect.inflate(8, 8))                     # a dashed ring: may join
        else:
            pygame.draw.rect(surface, ring, rect.inflate(6, 6), 3, border_radius=7)
        if role.endswith(":boots"):
            badge = pygame.Rect(rect.right - 42, rect.y + 3, 38, min(16, rect.height - 4))
            pygame.draw.rect(surface, GOLD, badge, border_radius=4)
            text(surface, "boots", badge.center, 16, INK, centre=True)

    def token_label(self, dude: dt.Dude, width: int) -> tuple[str, int]:
        """A dude's token text and font size: the name (and Influence), shrunk (then cut) to fit ``width`` px."""
        label = f"{self.name(dude.id)}{f' ({dude.influence})' if dude.influence else ''}" \
                f"{' (booted)' if dude.booted else ''}"
        size = 20
        while size > 11 and font(size).size(label)[0] > width:
            size -= 1
        if font(size).size(label)[0] > width:
            while len(label) > 2 and font(size).size(label + ".")[0] > width:
                label = label[:-1]
            label += "."
        return label, size


def dashed_rect(surface: pygame.Surface, colour: tuple[int, int, int], rect: pygame.Rect, dash: int = 7) -> None:
    """A rectangle outline drawn in dashes (3 px): who may join a posse but has not."""
    x0, y0, x1, y1 = rect.left, rect.top, rect.right - 1, rect.bottom - 1
    for x in range(x0, x1, 2 * dash):
        for y in (y0, y1):
            pygame.draw.line(surface, colour, (x, y), (min(x + dash, x1), y), 3)
    for y in range(y0, y1, 2 * dash):
        for x in (x0, x1):
            pygame.draw.line(surface, colour, (x, y), (x, min(y + dash, y1)), 3)


__all__ = ["DoomView", "HELP_DOOM", "dashed_rect"]

