"""The rulings mode (R): set a situation up by hand, ask where a move ends or what a gun sees, see the answer.

It is the free table (:class:`~simulator.ui.modes.free_table.FreeTableMode`)
with a question: every press picks a piece up (cars and terrain), a template
dropped on a car shows the swept area, the contacts with their orientations
and both edges, and the Interrupted Final Position (p.45-54); X switches to a
shoot question (click the attacker, then the target; A arc, D range, I
indirect) drawn with the template placement, Cover and what blocks (p.28-30,
p.87). Opened from a game or a replay it works on a copy of that table
(hull, hazards, gears, positions, wrecks as obstacles), so the game is never
touched. Ctrl+S saves the situation as a rulings file (RULINGS.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from simulator.geometry.table import Table
from simulator.scenario.loader import Scenario
from simulator.ui import draw
from simulator.ui.controller import TurnController
from simulator.ui.modes import Context, HelpLines, TopButton
from simulator.ui.modes.free_table import HELP as FREE_HELP
from simulator.ui.modes.free_table import FreeTableMode, headline
from simulator.ui.outcome import MoveOutcome
from simulator.ui.pending import Pending
from simulator.ui.rulings_view import (
    RulingsState,
    draw_rulings_overlay,
    draw_rulings_under,
    pending_from_queries,
    rulings_lines,
    select_query,
)
from simulator.ui.sandbox import Sandbox
from simulator.ui.widgets import Button, Command, button_at, draw_button

OWN_HELP: HelpLines = (
    ("Left drag any piece", "move cars and terrain by hand; the answer follows"),
    ("X", "switch question: move / shoot"),
    ("A / D / I", "shoot: cycle arc / cycle range / indirect"),
    ("Ctrl+S / Ctrl+O", "save the rulings file / open another (a file dialog; or drop a .toml on the window)"),
    ("R", "back to where you came from (the free table, the game or the replay)"),
)
"""What the rulings mode adds to the free table's controls."""

HELP: HelpLines = (*(row for row in FREE_HELP if not row[0].startswith(("R", "T, or", "Ctrl+S"))), *OWN_HELP)
"""The rulings mode's controls."""

FOCUS_PAD_MM = 60.0


class RulingsMode(FreeTableMode):
    """The free table with a question (see the module docstring)."""

    title = "RULINGS"
    movable_obstacles = True
    refuses_unpermitted = False

    def __init__(self, ctx: Context, sandbox: Sandbox, controller: TurnController | None = None,
                 rulings_path: Path | None = None) -> None:
        super().__init__(ctx, sandbox, controller, rulings_path)
        self.rulings = RulingsState()
        self.shown: str | None = None
        self.message = ("Rulings: drag cars and terrain by hand, drop a template on a car, or X for a shot "
                        "question. R goes back.")

    def help_lines(self) -> HelpLines:
        """The rulings mode's controls."""
        return HELP

    def question(self) -> RulingsState:
        """The question on screen."""
        return self.rulings

    def shown_query(self) -> str | None:
        """The id of the rulings file's query on screen."""
        return self.shown

    # ================================================================ asking
    def ask(self, queries: list[dict[str, Any]], query_id: str | None = None) -> None:
        """Show a rulings file's query, zoomed onto the pieces it is about; ``KeyError`` for an unknown query."""
        chosen = select_query(queries, query_id)
        self.rulings = RulingsState.from_queries(queries, query_id)
        self.pending, self.box.selected = None, None
        asked = pending_from_queries(queries, query_id)
        if asked is not None and self.rulings.question == "move" and self.is_vehicle(asked[0]):
            self.box.selected = asked[0]
            self.pending = Pending(*asked)
        self.focus()
        index = next(i for i, q in enumerate(queries, 1) if q is chosen) if chosen is not None else 1
        self.shown = str(chosen.get("id", index)) if chosen is not None else None
        self.say(f"Rulings file: showing query {self.shown} ({index} of {len(queries)}; --query picks another). "
                 "Drag any piece to ask again; Ctrl+S saves; R returns to play.")

    def loaded(self, scenario: Scenario) -> None:
        """A file was loaded: ask its first query, if it has one."""
        self.rulings = RulingsState()
        if scenario.spec.query:
            self.ask(scenario.spec.query)

    def focus(self) -> None:
        """Zoom onto the question being asked: the move's template and outcome, or attacker and target."""
        boxes: list[tuple[float, float, float, float]] = []
        out = self.outcome()
        if self.pending is not None and out is not None:
            boxes.append(self.table.vehicle(self.pending.vehicle_id).footprint.bounds)
            boxes += [g.bounds for g in out.focus_shapes()]
        elif self.rulings.question == "shoot" and self.rulings.attacker and self.rulings.target:
            boxes += [self.table.shape_of(self.rulings.attacker).bounds,
                      self.table.shape_of(self.rulings.target).bounds]
        if not boxes:
            self.ctx.canvas.fit()
            return
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        self.ctx.canvas.fit(box, FOCUS_PAD_MM)

    def buttons(self) -> list[TopButton]:
        """Undo and Fit (every piece moves by hand here: no Hand tool)."""
        return [b for b in super().buttons() if b.label != "Hand (T)"]

    def headline_lines(self) -> list[str]:
        """What the rulings are asked on."""
        where = self.box.origin or self.scenario.name
        return headline(f"Rulings on {where}: move anything, ask a question below", self.ctx.layout.panel[2] - 24)

    def top_line(self) -> str:
        """The top bar's line: the question asked (X switches)."""
        return f"question: {self.rulings.question} (X)" + (f"  on {self.box.origin}" if self.box.origin else "")

    def click_vehicle(self, vehicle_id: str) -> None:
        """A click on a car: in a shoot question it picks the attacker, then the target."""
        if self.rulings.question == "shoot":
            self.rulings.pick(vehicle_id)
            self.say(self.rulings.describe_pick(self.vehicle_name))
            return
        self.select(vehicle_id)

    def apply(self, action: str) -> None:
        """A question button or key (``question``, ``arc``, ``range=long``...)."""
        self.say(self.rulings.apply(action))
        if self.rulings.question == "shoot":
            self.pending = None

    def _key_down(self, key: int, mod: int) -> bool:
        letters = {pygame.K_x: "x", pygame.K_a: "a", pygame.K_d: "d", pygame.K_i: "i"}
        if key in letters and not mod & pygame.KMOD_CTRL:
            self.say(self.rulings.key(letters[key]))
            if self.rulings.question == "shoot":
                self.pending = None
            return True
        if key == pygame.K_t:
            self.say("In the rulings mode every piece moves by hand: just drag it.")
            return True
        return super()._key_down(key, mod)

    def _left_down(self, pos: tuple[int, int]) -> None:
        b = button_at(self.question_buttons(), pos)
        if b is not None:
            self.apply(b.action)
            return
        super()._left_down(pos)

    # ================================================================ panel
    def rulings_top(self) -> int:
        """Where the question's buttons start in the panel."""
        return self.options_top() + (170 if self.pending is not None else 4)

    def question_buttons(self) -> list[Button[str]]:
        """Move / shoot, arcs, ranges, indirect, clear."""
        px, _, pw, _ = self.ctx.layout.panel
        return self.rulings.buttons((px + 12, self.rulings_top(), pw - 24))

    def panel_buttons(self) -> list[Button[Command]]:
        """The free table's buttons, Save and Load at the bottom."""
        px, py, _, ph = self.ctx.layout.panel
        ry = py + ph - 36
        return [*super().panel_buttons(),
                Button((px + 12, ry, 170, 28), "Save (Ctrl+S)", lambda: self.file_command("save")),
                Button((px + 188, ry, 170, 28), "Open (Ctrl+O)", lambda: self.file_command("open"))]

    def file_command(self, name: str) -> None:
        """Run the window's Save or Open (its dialogs)."""
        if self.ctx.file_command is not None:
            self.ctx.file_command(name)

    def draw_hint(self, surface: pygame.Surface, rect: pygame.Rect, y: int) -> None:
        """No hint: the question panel says what to do."""

    def draw_panel(self, surface: pygame.Surface) -> None:
        """The free table's panel with the question and the ruling under it."""
        super().draw_panel(surface)
        rect = pygame.Rect(self.ctx.layout.panel)
        outcome = self.outcome() if self.animation is None else None
        lines = rulings_lines(self.live_table(), self.ctx.template_set, self.rulings, outcome, self.vehicle_name)
        self.rulings.draw_panel(surface, (rect.left + 12, self.rulings_top(), rect.width - 24), lines)
        for b in self.question_buttons():
            draw_button(surface, b, 17)

    def draw_under(self, overlay: pygame.Surface, table: Table, outcome: MoveOutcome | None) -> None:
        """The swept area of the move."""
        draw_rulings_under(overlay, self.view, table, self.rulings, outcome)

    def draw_over(self, overlay: pygame.Surface, table: Table, outcome: MoveOutcome | None) -> None:
        """Contacts and orientations of the move; the shot's template, Cover and blocks."""
        draw_rulings_overlay(overlay, self.view, table, self.ctx.template_set, self.rulings, outcome,
                             self.vehicle_name)

    def draw_tray(self, surface: pygame.Surface) -> None:
        """The tray; in a shoot question it is not needed and says so."""
        super().draw_tray(surface)
        if self.rulings.question == "shoot":
            x, y, w, _ = self.ctx.layout.tray
            draw.text(surface, "Shoot question: click the attacker, then the target (X: back to a move)",
                      (x + w // 2, y + 6), 17, draw.SELECT, "midtop", backing=(15, 15, 15, 210))
