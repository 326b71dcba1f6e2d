"""The Gaslands window: the table, the tray, the dashboards, moves and hands.

:class:`App` is split like pygame_gui's loop (STYLE.md 12):
:meth:`App.handle_event` takes one pygame event, :meth:`App.update` advances
animations and the hand layer by ``dt`` seconds, :meth:`App.draw` paints a
surface. Nothing else happens in between, so a test can post real mouse and
key events, run updates and read the resulting :class:`~simulator.geometry.table.Table`.

The board state is a :class:`Table` value; every change (a move, a gear
change, a piece placed by hand) pushes the previous value on the undo stack.
Rules come from outside: the geometry engine answers where a move ends
(:mod:`simulator.ui.outcome`) and a :class:`~simulator.ui.controller.TurnController`
says what the player may do (the default :class:`~simulator.ui.controller.FreeTable`
only applies the permitted-gear table).

Entry points: :func:`run_window` (interactive) and :func:`render_png`
(headless, the same drawing code; works with ``SDL_VIDEODRIVER=dummy``).
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from importlib.resources import files
from pathlib import Path
from typing import Any

import pygame

from simulator.errors import InputFileError
from simulator.gaslands.decisions import ChooseTemplate
from simulator.gaslands.prompts import ActivatePrompt, PiledriverPrompt, ReactPrompt
from simulator.gaslands.tables import load_vehicle_types, load_weapons
from simulator.geometry.path import Path as MovePath
from simulator.geometry.placement import Move, MoveSpecError
from simulator.geometry.pose import Pose
from simulator.geometry.table import Table
from simulator.geometry.templates import Direction, TemplateSet, load_template_set
from simulator.physics.hand import HandLayer, Placement, moved_obstacle
from simulator.scenario.loader import Scenario, load_scenario
from simulator.scenario.rulings import load_rulings_file
from simulator.ui import draw, game_panel, tray
from simulator.ui.controller import FreeTable, TurnController, manoeuvre_label
from simulator.ui.dashboard import CARD_HEIGHT, Dashboard, draw_card
from simulator.ui.event_log import EventLog, draw_log
from simulator.ui.game_controller import GameController, default_autosave_path
from simulator.ui.help import draw_help
from simulator.ui.outcome import MoveOutcome, preview_move
from simulator.ui.rulings_view import (
    RulingsState,
    draw_rulings_overlay,
    draw_rulings_under,
    pending_from_queries,
    rulings_lines,
    save_rulings,
    select_query,
)
from simulator.ui.view import Rect, View
from simulator.ui.widgets import Button, Slider, button_at, draw_button, draw_slider

ANIMATION_S = 0.6
"""How long the car takes to drive along its path on screen."""

TOP_BAR_PX = 34
STATUS_PX = 26
TRAY_PX = 124
PANEL_PX = 370
GAME_PANEL_PX = 440
GAME_CARD_PX = 64
GAME_PROMPT_PX = 330
BADGE_FONT = 17
"""Font size of the badges over cars (COLLISION, WIPEOUT, hits)."""
HEADLINE_STEP = 15
"""Line step of the panel headline (font 18) when it wraps to a second line."""
GAME_SAVE_NAME = "gaslands_game.json"
RACES = ("street_race", "death_race")
CLICK_SLOP_PX = 4
ZOOM_STEP = 1.15
SPIN_STEP_DEG = 15.0
ROTATE_KEY_DEG = 15.0
ROTATE_WHEEL_DEG = 5.0
STRAIGHTS = ("short_straight", "medium_straight", "long_straight")


class Mode(enum.Enum):
    """Play (move cars under the controller) or Rulings (set up a question, see the answer)."""

    PLAY = "play"
    RULINGS = "rulings"


@dataclass(frozen=True)
class Pending:
    """A template attached to a vehicle, not yet confirmed."""

    vehicle_id: str
    move: Move


@dataclass
class TemplateDrag:
    """A template being dragged from the tray."""

    template: str
    pos: tuple[int, int]
    mirrored: bool = False


@dataclass
class HandDrag:
    """A piece held by hand (or a press that may become one)."""

    piece_id: str
    press_px: tuple[int, int]
    layer: HandLayer | None = None


@dataclass
class Animation:
    """A car driving along its path after a confirmed move."""

    vehicle_id: str
    path: MovePath
    outcome: MoveOutcome
    before: Table
    elapsed: float = 0.0
    duration: float = ANIMATION_S


@dataclass
class VehicleStatus:
    """Dashboard values the window keeps for the free table (a game controller may supply its own)."""

    hazards: int
    hull: int
    hull_max: int


@dataclass
class Layout:
    """Screen rectangles of the window's parts for one window size."""

    size: tuple[int, int]
    panel_px: int = PANEL_PX
    top: Rect = field(init=False)
    table: Rect = field(init=False)
    tray: Rect = field(init=False)
    panel: Rect = field(init=False)
    status: Rect = field(init=False)

    def __post_init__(self) -> None:
        w, h = self.size
        table_w = w - self.panel_px
        table_h = h - TOP_BAR_PX - STATUS_PX - TRAY_PX
        self.top = (0, 0, w, TOP_BAR_PX)
        self.table = (0, TOP_BAR_PX, table_w, table_h)
        self.tray = (0, TOP_BAR_PX + table_h, table_w, TRAY_PX)
        self.panel = (table_w, TOP_BAR_PX, self.panel_px, h - TOP_BAR_PX - STATUS_PX)
        self.status = (0, h - STATUS_PX, w, STATUS_PX)


def _ease(t: float) -> float:
    t = min(max(t, 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


class App:
    """The window's state and behaviour; see the module docstring."""

    def __init__(self, scenario: Scenario, size: tuple[int, int] = (1400, 900),
                 controller: TurnController | None = None, template_set: TemplateSet | None = None,
                 rulings_path: Path | None = None, game: GameController | None = None,
                 game_path: Path | None = None) -> None:
        self.scenario = scenario
        self.template_set = template_set or scenario.template_set
        self.free_controller: TurnController = controller or FreeTable(self.template_set)
        self.controller: TurnController = game or self.free_controller
        self.game = game
        self.game_path = game_path or Path.cwd() / GAME_SAVE_NAME
        self.log_view = EventLog()
        self._game_revision = -1
        self.types = load_vehicle_types()
        self.layout = Layout(size, GAME_PANEL_PX if game is not None else PANEL_PX)
        self.table: Table = game.display_table() if game is not None else scenario.table
        self.undo_stack: list[Table] = []
        self.selected: str | None = None
        self.mode = Mode.PLAY
        self.hand_tool = False
        self.shift_held = False
        self.help_visible = False
        self.status = "Click a car to select it, then drag a template from the tray onto it. H: help."
        self.pending: Pending | None = None
        self.template_drag: TemplateDrag | None = None
        self.hand: HandDrag | None = None
        self.animation: Animation | None = None
        self.pan_from: tuple[int, int] | None = None
        self.pan_moved = False
        self.slider_held = False
        self.mouse_pos: tuple[int, int] = (0, 0)
        self.rulings = RulingsState()
        self.rulings_path = rulings_path or Path.cwd() / "rulings_situation.toml"
        self.shown_query: str | None = None
        self.view = self._fit_view()
        self.statuses = self._initial_statuses()
        self._outcome_key: tuple[int, Pending] | None = None
        self._outcome: MoveOutcome | None = None
        self._outcome_error = ""
        self._live_key: tuple[int, Placement] | None = None
        self._live_table: Table = self.table
        if game is not None:
            self.status = game.instruction()
            if game.autosave_path is not None:
                self.status += f"  Autosaving to {game.autosave_path}."
            self.refresh_game()

    @classmethod
    def for_game(cls, game: GameController, size: tuple[int, int] = (1400, 900),
                 template_set: TemplateSet | None = None, game_path: Path | None = None) -> App:
        """A window playing ``game`` hot-seat under the full rules (F2 toggles the free table)."""
        return cls(game.scenario, size, template_set=template_set, game=game, game_path=game_path)

    @property
    def game_view(self) -> bool:
        """Whether the window shows the game (not the free table)."""
        return self.game is not None and self.controller is self.game

    def refresh_game(self) -> None:
        """Show the game's current state: its table, the vehicle to act, the news."""
        g = self.game
        if g is None or not self.game_view:
            return
        self._game_revision = g.revision
        self.scenario = g.scenario
        self.table = g.display_table()
        p = g.prompt
        active = p.vehicle_id if p.vehicle_id and p.kind != "lose_control" else None
        if self.pending is not None and (p.kind != "template" or self.pending.vehicle_id != p.vehicle_id):
            self.pending = None
        self.selected = active if active in {v.id for v in self.table.vehicles} else None
        self.log_view.scroll = 0
        self.say(g.result_text() if g.over() else g.message or g.instruction())

    def toggle_game_view(self) -> None:
        """F2: the game <-> a free table starting from the game's positions (the game is kept)."""
        if self.game is None:
            self.say("No game in this window: open a Street Race or Death Race to play one.")
            return
        self.pending, self.template_drag, self.hand = None, None, None
        if self.game_view:
            self.controller = self.free_controller
            self.undo_stack = []
            self.mode = Mode.PLAY
            self.say("Free table: move anything, the game is paused. F2 returns to the game.")
        else:
            self.controller = self.game
            self.mode = Mode.PLAY
            self.refresh_game()
            self.say("Back to the game. " + self.game.instruction())

    @classmethod
    def from_path(cls, scenario_path: Path, template_set_path: Path | None = None,
                  size: tuple[int, int] = (1400, 900), query: str | None = None) -> App:
        """Load a scenario (and optionally another template-set file) and build the app.

        A rulings file (one with ``[[query]]`` tables) opens in rulings mode on
        ``query`` (its id or 1-based index; default the first), zoomed onto it.
        Raises ``KeyError`` for an unknown query.
        """
        scenario = load_scenario(scenario_path)
        ts = load_template_set(template_set_path) if template_set_path is not None else None
        app = cls(scenario, size, template_set=ts)
        if scenario.spec.query:
            app.rulings_path = Path(scenario_path)  # Ctrl+S saves the situation back to its file
            app.ask(scenario.spec.query, query)
        return app

    def ask(self, queries: list[dict[str, Any]], query_id: str | None = None) -> None:
        """Show a rulings file's query in rulings mode, zoomed onto the pieces it is about."""
        self.rulings = RulingsState.from_queries(queries, query_id)
        self.pending, self.selected = None, None
        asked = pending_from_queries(queries, query_id)
        if asked is not None and self.rulings.question == "move" and asked[0] in {v.id for v in self.table.vehicles}:
            self.selected = asked[0]
            self.pending = Pending(*asked)
        self.mode = Mode.RULINGS
        self.focus()
        chosen = select_query(queries, query_id)
        index = next(i for i, q in enumerate(queries, 1) if q is chosen) if chosen is not None else 1
        self.shown_query = str(chosen.get("id", index)) if chosen is not None else None
        self.status = (f"Rulings file: showing query {self.shown_query} ({index} of {len(queries)}; "
                       "--query picks another). Drag any piece to ask again; Ctrl+S saves; R returns to play.")

    def focus(self) -> None:
        """Zoom onto the question being asked: the move's template and outcome, or attacker and target."""
        boxes: list[tuple[float, float, float, float]] = []
        out = self.outcome()
        if self.pending is not None and out is not None:
            boxes.append(self.table.vehicle(self.pending.vehicle_id).footprint.bounds)
            boxes += [g.bounds for g in out.focus_shapes()]
        elif self.rulings.question == "shoot" and self.rulings.attacker and self.rulings.target:
            boxes += [self.table.shape_of(self.rulings.attacker).bounds, self.table.shape_of(self.rulings.target).bounds]
        if not boxes:
            self.fit()
            return
        pad = 60.0
        box = (min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad,
               max(b[2] for b in boxes) + pad, max(b[3] for b in boxes) + pad)
        self.view = View.fit(box, self.layout.table, margin_px=24.0)

    # ================================================================ helpers (public for tests)
    def _fit_view(self) -> View:
        return View.fit((0.0, 0.0, self.table.width_mm, self.table.height_mm), self.layout.table, margin_px=24.0)

    def fit(self) -> None:
        """Show the whole table."""
        self.view = self._fit_view()

    def tray_cells(self) -> list[tray.TrayCell]:
        """The tray's cells on the screen."""
        return tray.layout(self.template_set, self.layout.tray)

    def tray_cell_centre(self, template: str) -> tuple[int, int]:
        """Screen centre of a template's tray cell."""
        for c in self.tray_cells():
            if c.template == template:
                return pygame.Rect(c.rect).center
        raise KeyError(template)

    def vehicle_screen_pos(self, vehicle_id: str) -> tuple[int, int]:
        """Screen pixel of the vehicle's centre."""
        p = self.table.vehicle(vehicle_id).pose
        return self.view.to_screen_int(p.x_mm, p.y_mm)

    def live_table(self) -> Table:
        """The table as shown: with the piece in the player's hand where it is now (cached per pose)."""
        h = self.hand
        if h is None or h.layer is None:
            return self.table
        p = h.layer.placement(h.piece_id)
        key = (id(self.table), p)
        if key != self._live_key:
            self._live_key, self._live_table = key, self._placed(h.layer, p)
        return self._live_table

    def _rules_table(self) -> Table:
        """The table moves are previewed on: the referee's in a game (wrecks are obstacles, p.43), else the live one."""
        if self.game_view:
            assert self.game is not None
            table = getattr(self.game.game.referee, "table", None)
            if callable(table):
                return table(self.game.state)  # type: ignore[no-any-return]
        return self.live_table()

    def _placed(self, layer: HandLayer, placement: Placement) -> Table:
        pid = placement.piece_id
        if pid in {v.id for v in self.table.vehicles}:
            return self.table.with_vehicle(self.table.vehicle(pid).moved(placement.pose.normalised()))
        start = layer.pieces[pid].start
        return self.table.with_obstacle(moved_obstacle(self.table.obstacle(pid), placement, (start.x_mm, start.y_mm)))

    def outcome(self) -> MoveOutcome | None:
        """The resolved preview of the pending move on the live table (cached)."""
        if self.pending is None:
            return None
        table = self._rules_table()
        key = (id(table), self.pending)
        if key != self._outcome_key:
            self._outcome_key = key
            try:
                self._outcome = preview_move(table, self.pending.vehicle_id, self.pending.move,
                                             self.template_set)
                self._outcome_error = self._outcome.note
            except (MoveSpecError, KeyError) as exc:
                self._outcome, self._outcome_error = None, str(exc)
        return self._outcome

    def vehicle_name(self, vehicle_id: str) -> str:
        """The name from the scenario, else the id."""
        try:
            return self.scenario.vehicle_spec(vehicle_id).name or vehicle_id
        except KeyError:
            return vehicle_id

    def vehicle_colour(self, vehicle_id: str) -> tuple[int, int, int]:
        """The vehicle's team colour."""
        if self.game_view and vehicle_id not in {v.id for v in self.table.vehicles}:
            assert self.game is not None
            return draw.hex_colour(self.game.player_colour(self.game.vehicle(vehicle_id).player))
        return draw.hex_colour(self.scenario.player_colour(self.table.vehicle(vehicle_id).player))

    def _initial_statuses(self) -> dict[str, VehicleStatus]:
        out = {}
        for v in self.table.vehicles:
            vtype = self.types.get(v.type)
            hull_max = vtype.hull if vtype else 1
            hazards = 0
            try:
                spec = self.scenario.vehicle_spec(v.id)
                hull_max = spec.hull or hull_max
                hazards = spec.hazard_tokens
            except KeyError:
                pass
            out[v.id] = VehicleStatus(hazards, hull_max, hull_max)
        return out

    def resize(self, size: tuple[int, int]) -> None:
        """Re-lay the window out for a new size, keeping the table point at the view's centre."""
        old = self.layout.table
        centre = self.view.to_table(old[0] + old[2] / 2, old[1] + old[3] / 2)
        self.layout = Layout((max(size[0], 900), max(size[1], 600)), self.layout.panel_px)
        r = self.layout.table
        moved = View(r, self.view.scale_px_per_mm, self.view.origin_px)
        now = moved.to_screen(*centre)
        self.view = moved.panned(r[0] + r[2] / 2 - now[0], r[1] + r[3] / 2 - now[1])

    def say(self, message: str) -> None:
        """Show ``message`` in the status line."""
        self.status = message

    # ================================================================ state changes
    def _commit(self, new_table: Table) -> None:
        self.undo_stack.append(self.table)
        self.table = new_table

    def undo(self) -> None:
        """Restore the table before the last change (in a game: take back the last decision, a replay)."""
        if self.game_view:
            assert self.game is not None
            self.pending = None
            self.game.undo()
            self.refresh_game()
            return
        if self.animation is not None:
            self._finish_animation()
        if not self.undo_stack:
            self.say("Nothing to undo.")
            return
        self.table = self.undo_stack.pop()
        self.pending = None
        self.say("Undone.")

    def select(self, vehicle_id: str | None) -> bool:
        """Select a vehicle (None clears); False with a status message if the controller refuses."""
        if vehicle_id is None:
            self.selected = None
            return True
        verdict = self.controller.can_select(self.table, vehicle_id)
        if not verdict.allowed:
            self.say(verdict.reason)
            return False
        self.selected = vehicle_id
        v = self.table.vehicle(vehicle_id)
        self.say(f"{self.vehicle_name(vehicle_id)} selected, gear {v.gear}. Drag a template from the tray onto it.")
        if self.pending is not None and self.pending.vehicle_id != vehicle_id:
            self.pending = None
        return True

    def set_gear(self, delta: int) -> None:
        """Shift the selected vehicle's gear by ``delta`` (controller permitting)."""
        if self.selected is None:
            self.say("Select a car first.")
            return
        v = self.table.vehicle(self.selected)
        verdict = self.controller.can_set_gear(self.table, v.id, v.gear + delta)
        if not verdict.allowed:
            self.say(verdict.reason)
            return
        self._commit(self.table.with_vehicle(replace(v, gear=v.gear + delta)))
        if self.pending is not None and v.gear + delta != 1 and self.pending.move.reverse:
            self._set_move(reverse=False)
        self.say(f"{self.vehicle_name(v.id)} now in gear {v.gear + delta}.")

    def attach(self, vehicle_id: str, template: str, direction: Direction | None = None) -> None:
        """Put ``template`` on ``vehicle_id`` as the pending move (front edge, or rear when reversing)."""
        if self.selected != vehicle_id and not self.select(vehicle_id):
            return
        turning = template not in STRAIGHTS
        keep = self.pending.move if self.pending and self.pending.vehicle_id == vehicle_id else None
        reverse = bool(keep and keep.reverse and self.table.vehicle(vehicle_id).gear == 1)
        move = Move(template, (direction or "right") if turning else None, reverse=reverse)
        self.pending = Pending(vehicle_id, move)
        label = self.template_set.template(template).label
        verdict = self.controller.can_move(self.table, vehicle_id, move)
        if verdict.allowed:
            self.say(f"{label} on {self.vehicle_name(vehicle_id)}: Enter confirms, Tab mirrors, Esc cancels.")
        else:
            self.say(f"{verdict.reason}. Showing it anyway; Enter will refuse.")

    def _set_move(self, **changes: object) -> None:
        if self.pending is None:
            return
        self.pending = replace(self.pending, move=replace(self.pending.move, **changes))  # type: ignore[arg-type]

    def mirror(self) -> None:
        """Flip the pending (or dragged) template left <-> right."""
        if self.template_drag is not None:
            self.template_drag.mirrored = not self.template_drag.mirrored
            return
        if self.pending is None:
            self.say("Nothing to mirror: drag a template onto a car first.")
            return
        m = self.pending.move
        if m.direction is None:
            self.say("Straights have no left or right.")
            return
        self._set_move(direction="left" if m.direction == "right" else "right")
        self.say(f"Mirrored: now turning {self.pending.move.direction}.")

    def toggle_reverse(self) -> None:
        """Reverse on/off (Gear 1 only, p.39)."""
        if self.pending is None:
            self.say("Drag a template onto a car first.")
            return
        v = self.table.vehicle(self.pending.vehicle_id)
        if not self.pending.move.reverse and v.gear != 1:
            self.say(f"Only a vehicle in gear 1 may reverse (p.39); {self.vehicle_name(v.id)} is in gear {v.gear}.")
            return
        self._set_move(reverse=not self.pending.move.reverse)
        self.say("Reversing: the template is on the rear edge." if self.pending.move.reverse else "Driving forward.")

    def cycle_slide(self) -> None:
        """Slide off -> left -> right (straights) or off -> on (turns), p.24-26."""
        if self.game_view:
            self.say("In a game a Slide comes from the Skid Dice (p.24).")
            return
        if self.pending is None:
            self.say("Drag a template onto a car first.")
            return
        m = self.pending.move
        if m.template in STRAIGHTS:
            order: list[tuple[bool, str | None]] = [(False, None), (True, "left"), (True, "right")]
            i = order.index((m.slide, m.slide_facing if m.slide else None))
            slide, facing = order[(i + 1) % 3]
            self._set_move(slide=slide, slide_facing=facing)
        else:
            self._set_move(slide=not m.slide, slide_facing=None)
        self.say("Slide " + ("off" if not self.pending.move.slide else
                             f"on{', facing ' + str(self.pending.move.slide_facing) if self.pending.move.slide_facing else ''}"))

    def set_spin(self, spin_deg: float) -> None:
        """Set the pending Spin, clamped to [-90, 90] (p.24)."""
        if self.pending is None or self.game_view:
            return
        self._set_move(spin_deg=float(min(max(spin_deg, -90.0), 90.0)))

    def confirm(self) -> None:
        """Drive the pending move: the car animates along its path, then snaps to the result.

        In a game: choose the pending template (a ChooseTemplate decision), or
        run the panel's main action for the prompt (roll, done, fire...).
        """
        if self.game_view:
            self._game_confirm()
            return
        if self.pending is None:
            self.say("Nothing to confirm: drag a template onto a car first.")
            return
        verdict = self.controller.can_move(self.table, self.pending.vehicle_id, self.pending.move)
        if not verdict.allowed:
            self.say(verdict.reason)
            return
        outcome = self.outcome()
        if outcome is None:
            self.say(self._outcome_error or "That move cannot be placed.")
            return
        self.animation = Animation(outcome.vehicle_id, outcome.path, outcome, self.table)
        self.pending = None

    def _game_confirm(self) -> None:
        g = self.game
        assert g is not None
        if g.prompt.kind == "template" and self.pending is not None:
            verdict = self.controller.can_move(self.table, self.pending.vehicle_id, self.pending.move)
            if not verdict.allowed:
                self.say(verdict.reason)
                return
            m = self.pending.move
            self.game_act_decision(ChooseTemplate(m.template, m.direction if m.template not in STRAIGHTS else None,
                                                  m.reverse))
            return
        action = g.primary_action()
        if action is None:
            self.say(g.instruction())
            return
        self.game_act(action)

    def game_act(self, action: str) -> None:
        """Run a game panel action (``app:...`` ones are the window's own) and show the result."""
        g = self.game
        assert g is not None
        if action.startswith("app:"):
            self.dispatch(action[4:])
            return
        g.message = ""
        changed = g.act(action)
        if g.revision != self._game_revision:
            self.refresh_game()
        elif g.message:
            self.say(g.message)
        elif changed:
            self.say(g.instruction())

    def game_act_decision(self, decision: object) -> None:
        """Pass a decision the window built (a template) to the game."""
        g = self.game
        assert g is not None
        g.message = ""
        if g.decide(decision):  # type: ignore[arg-type]
            self.refresh_game()
        else:
            self.say(g.message)

    def game_panel(self) -> game_panel.Panel:
        """The prompt panel as laid out now (for drawing, clicks and tests)."""
        assert self.game is not None
        x, _, w, _ = self.layout.panel
        top = self._options_top()
        return game_panel.build(self.game, (x, top, w, GAME_PROMPT_PX), self.pending.move if self.pending else None)

    def _log_rect(self) -> Rect:
        x, y, w, h = self.layout.panel
        top = self._options_top() + GAME_PROMPT_PX + 4
        return (x + 6, top, w - 12, max(60, y + h - top - 6))

    def _finish_animation(self) -> None:
        anim = self.animation
        assert anim is not None
        self.animation = None
        self.undo_stack.append(anim.before)
        self.table = anim.outcome.table_after
        self.controller.moved(anim.before, self.table, anim.vehicle_id, anim.outcome.move)
        f = anim.outcome.final
        what = "Interrupted" if anim.outcome.interrupted else "Final Position"
        hits = ", ".join(f"{c.orientation.replace('_', '-')} with {c.with_id}" for c in anim.outcome.collisions)
        self.say(f"{self.vehicle_name(anim.vehicle_id)}: {what} ({f.x_mm:.1f}, {f.y_mm:.1f}) mm, heading "
                 f"{f.heading_deg:.1f} deg" + (f"; collision: {hits}" if hits else "") + ". Ctrl+Z undoes.")

    def cancel(self) -> None:
        """Esc: close help, drop a drag, or take the pending template away."""
        if self.help_visible:
            self.help_visible = False
        elif self.template_drag is not None:
            self.template_drag = None
            self.say("Template put back.")
        elif self.hand is not None:
            self.hand = None
            self.say("Piece put back where it was.")
        elif self.pending is not None:
            self.pending = None
            self.say("Move cancelled.")
        elif self.slider_held:
            self.slider_held = False
        else:
            self.selected = None
            self.say("Nothing selected.")

    def toggle_mode(self) -> None:
        """Play <-> Rulings (R)."""
        if self.game_view:
            self.say("The game is on: F2 opens the free table, then R the rulings mode.")
            return
        self.mode = Mode.RULINGS if self.mode is Mode.PLAY else Mode.PLAY
        if self.mode is Mode.RULINGS:
            self.say("Rulings: drag cars and terrain by hand, drop a template on a car, or X for a shot question.")
        else:
            self.say("Back to play.")

    # ================================================================ picking
    def piece_at(self, pos: tuple[int, int], obstacles: bool = False) -> str | None:
        """The vehicle (or, with ``obstacles``, obstacle) under a screen point."""
        from shapely.geometry import Point

        x, y = self.view.to_table(*pos)
        slack = self.view.px_to_mm(3.0)
        pt = Point(x, y)
        for v in reversed(self.table.vehicles):
            if v.footprint.distance(pt) <= slack:
                return v.id
        if obstacles:
            for o in reversed(self.table.obstacles):
                if o.polygon.distance(pt) <= slack:
                    return o.id
        return None

    def _drop_target(self, pos: tuple[int, int]) -> str | None:
        from shapely.geometry import Point

        x, y = self.view.to_table(*pos)
        near = max(self.view.px_to_mm(14.0), 15.0)
        best = None
        for v in self.table.vehicles:
            d = v.footprint.distance(Point(x, y))
            if d <= near and (best is None or d < best[0]):
                best = (d, v.id)
        return best[1] if best else None

    def _side_of(self, vehicle_id: str, pos: tuple[int, int], mirrored: bool) -> Direction:
        x, y = self.view.to_table(*pos)
        p = self.table.vehicle(vehicle_id).pose
        lx, ly = p.left
        left_mm = (x - p.x_mm) * lx + (y - p.y_mm) * ly
        left = left_mm > 2.0
        return "left" if left != mirrored else "right"

    # ================================================================ events
    def handle_event(self, event: pygame.event.Event) -> None:
        """React to one pygame event (mouse, keys, wheel, dropped file)."""
        if event.type == pygame.MOUSEMOTION:
            self._mouse_motion(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse_pos = tuple(event.pos)
            if event.button == 1:
                self._left_down(tuple(event.pos))
            elif event.button == 3:
                self.pan_from, self.pan_moved = tuple(event.pos), False
        elif event.type == pygame.MOUSEBUTTONUP:
            self.mouse_pos = tuple(event.pos)
            if event.button == 1:
                self._left_up(tuple(event.pos))
            elif event.button == 3:
                if not self.pan_moved and (self.pending is not None or self.template_drag is not None):
                    self.mirror()
                self.pan_from = None
        elif event.type == pygame.MOUSEWHEEL:
            self._wheel(event)
        elif event.type == pygame.KEYDOWN:
            self._key_down(event)
        elif event.type == pygame.KEYUP:
            if event.key in (pygame.K_LSHIFT, pygame.K_RSHIFT):
                self.shift_held = False
        elif event.type == pygame.DROPFILE:
            if self.game_view and str(event.file).lower().endswith(".json"):
                self.load_game(Path(event.file))
            else:
                self.load_rulings(Path(event.file))

    def _mouse_motion(self, event: pygame.event.Event) -> None:
        pos = tuple(event.pos)
        if self.pan_from is not None:
            dx, dy = pos[0] - self.pan_from[0], pos[1] - self.pan_from[1]
            if self.pan_moved or abs(dx) + abs(dy) > CLICK_SLOP_PX:
                self.view = self.view.panned(dx, dy)
                self.pan_from, self.pan_moved = pos, True
        if self.template_drag is not None:
            self.template_drag.pos = pos
        if self.slider_held:
            s = self._spin_slider()
            if s is not None:
                self.set_spin(round(s.value_at(pos[0])))
        if self.hand is not None:
            self._hand_motion(pos)
        self.mouse_pos = pos

    def _hand_motion(self, pos: tuple[int, int]) -> None:
        assert self.hand is not None
        if self.hand.layer is None:
            px, py = self.hand.press_px
            if abs(pos[0] - px) + abs(pos[1] - py) <= CLICK_SLOP_PX:
                return
            verdict = self.controller.can_hand_move(self.table, self.hand.piece_id)
            if not verdict.allowed:
                self.say(verdict.reason)
                self.hand = None
                return
            layer = HandLayer.from_table(self.table, movable_obstacles=self.mode is Mode.RULINGS)
            layer.pick_up(self.hand.piece_id, self.view.to_table(px, py))
            self.hand.layer = layer
            if self.mode is Mode.PLAY:
                self.pending = None
            self.say("Moving by hand: Q/E or the wheel rotates, release to put it down, Esc puts it back.")
        self.hand.layer.move_to(self.view.to_table(*pos))

    def _left_down(self, pos: tuple[int, int]) -> None:
        if self.help_visible:
            self.help_visible = False
            return
        if self.animation is not None:
            return
        s = self._spin_slider()
        if s is not None and s.enabled and pygame.Rect(s.rect).inflate(0, 16).collidepoint(pos):
            self.slider_held = True
            self.set_spin(round(s.value_at(pos[0])))
            return
        b = button_at(self.buttons(), pos)
        if b is not None:
            self.dispatch(b.action)
            return
        if self.game_view:
            action = self.game_panel().hit(pos)
            if action is not None:
                self.game_act(action)
                return
        if pygame.Rect(self.layout.tray).collidepoint(pos):
            self._tray_press(pos)
            return
        if pygame.Rect(self.layout.panel).collidepoint(pos):
            for vid, rect in self._card_rects():
                if pygame.Rect(rect).collidepoint(pos):
                    self.select(vid)
            return
        if not self.view.contains_px(pos):
            return
        rulings = self.mode is Mode.RULINGS
        piece = self.piece_at(pos, obstacles=rulings)
        if piece is None:
            return
        if self.hand_tool or self.shift_held or rulings:
            self.hand = HandDrag(piece, pos)
        elif piece in {v.id for v in self.table.vehicles}:
            self._click_vehicle(piece)

    def _click_vehicle(self, vehicle_id: str) -> None:
        if self.game_view:
            assert self.game is not None
            self.game.message = ""
            if self.game.prompt.kind == "activate":
                self.game.click_vehicle(vehicle_id)
                if self.game.revision != self._game_revision:
                    self.refresh_game()
                else:
                    self.say(self.game.message)
                return
            verdict = self.controller.can_select(self.table, vehicle_id)
            self.say(verdict.reason if not verdict.allowed else self.game.instruction())
            return
        if self.mode is Mode.RULINGS and self.rulings.question == "shoot":
            self.rulings.pick(vehicle_id)
            self.say(self.rulings.describe_pick(self.vehicle_name))
            return
        self.select(vehicle_id)

    def _tray_press(self, pos: tuple[int, int]) -> None:
        cell = tray.cell_at(self.tray_cells(), pos)
        if cell is None:
            return
        if self.game_view:
            assert self.game is not None
            kind = self.game.prompt.kind
            if self.game.is_bot_turn() or kind not in ("template", "activate"):
                self.say("No template to choose now. " + self.game.instruction())
                return
        if self.selected is not None and self.mode is Mode.PLAY:
            m = self.controller.manoeuvre(self.table, self.selected, cell.template)
            if not m.permitted:
                gear = self.table.vehicle(self.selected).gear
                label = self.template_set.template(cell.template).label
                self.say(f"{label} not permitted in gear {gear} (p.18)")
                return
        self.template_drag = TemplateDrag(cell.template, pos)
        self.say("Drop the template on a car (it snaps to the front edge). Right click mirrors, Esc cancels.")

    def _left_up(self, pos: tuple[int, int]) -> None:
        if self.slider_held:
            self.slider_held = False
            return
        if self.template_drag is not None:
            drag, self.template_drag = self.template_drag, None
            target = self._drop_target(pos)
            if target is None:
                self.say("Drop the template on a car.")
                return
            direction = self._side_of(target, pos, drag.mirrored)
            if self.game_view and not self._game_drop(target):
                return
            self.attach(target, drag.template, direction)
            return
        if self.hand is not None:
            hand, self.hand = self.hand, None
            if hand.layer is None:
                if hand.piece_id in {v.id for v in self.table.vehicles}:
                    self._click_vehicle(hand.piece_id)
                return
            self._put_down(hand)

    def _game_drop(self, target: str) -> bool:
        """A template dropped on a car in a game: activate it first if the player is choosing (p.19)."""
        g = self.game
        assert g is not None
        if g.prompt.kind == "activate":
            g.message = ""
            if not g.click_vehicle(target):
                self.say(g.message)
                return False
            self.refresh_game()
        if g.prompt.kind != "template" or g.prompt.vehicle_id != target:
            self.say(g.instruction())
            return False
        return True

    def _put_down(self, hand: HandDrag) -> None:
        assert hand.layer is not None
        placement = hand.layer.put_down()
        if placement is None:
            return
        pid = placement.piece_id
        if abs(placement.dx_mm) + abs(placement.dy_mm) + abs(placement.dtheta_deg) < 1e-9:
            return
        before = self.table
        self._commit(self._placed(hand.layer, placement))
        if pid in {v.id for v in self.table.vehicles}:
            self.controller.moved(before, self.table, pid, None)
            p = placement.pose.normalised()
            self.say(f"{self.vehicle_name(pid)} placed by hand at ({p.x_mm:.1f}, {p.y_mm:.1f}) mm, "
                     f"heading {p.heading_deg:.1f} deg.")
        else:
            o = self.table.obstacle(pid)
            self.say(f"{o.label or o.id} moved by hand.")

    def _wheel(self, event: pygame.event.Event) -> None:
        pos = tuple(event.dict.get("pos", self.mouse_pos))
        if self.game_view and pygame.Rect(self._log_rect()).collidepoint(pos):
            assert self.game is not None
            self.log_view.wheel(int(event.y), len(self.game.display_log()[0]))
            return
        if self.hand is not None and self.hand.layer is not None:
            self.hand.layer.rotate_by(ROTATE_WHEEL_DEG * event.y)
            return
        if self.view.contains_px(pos):
            self.view = self.view.zoomed_about(pos, ZOOM_STEP ** event.y)

    def _key_down(self, event: pygame.event.Event) -> None:
        key, mod = event.key, event.mod
        ctrl = bool(mod & pygame.KMOD_CTRL)
        if key in (pygame.K_LSHIFT, pygame.K_RSHIFT):
            self.shift_held = True
            return
        if ctrl and key == pygame.K_z:
            self.undo()
        elif ctrl and key == pygame.K_s:
            self.save_game(self.game_path) if self.game_view else self.save_rulings(self.rulings_path)
        elif ctrl and key == pygame.K_o:
            self.load_game(self.game_path) if self.game_view else self.load_rulings(self.rulings_path)
        elif key == pygame.K_F2:
            self.toggle_game_view()
        elif pygame.K_F5 <= key <= pygame.K_F8 and self.game_view:
            self.game_act(f"seat:{key - pygame.K_F5}")
        elif key == pygame.K_SPACE and self.game_view:
            assert self.game is not None
            self.game.bots_paused = not self.game.bots_paused
            self.say("Bots paused: Space resumes." if self.game.bots_paused else "Bots resume.")
        elif key == pygame.K_ESCAPE:
            self.cancel()
        elif key in (pygame.K_h, pygame.K_F1):
            self.help_visible = not self.help_visible
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.confirm()
        elif key in (pygame.K_TAB, pygame.K_m):
            self.mirror()
        elif key == pygame.K_v:
            self.toggle_reverse()
        elif key == pygame.K_s:
            self.cycle_slide()
        elif key == pygame.K_LEFTBRACKET and self.pending:
            self.set_spin(self.pending.move.spin_deg - SPIN_STEP_DEG)
        elif key == pygame.K_RIGHTBRACKET and self.pending:
            self.set_spin(self.pending.move.spin_deg + SPIN_STEP_DEG)
        elif key == pygame.K_0 and self.pending:
            self.set_spin(0.0)
        elif key in (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS, pygame.K_PAGEUP):
            self.set_gear(+1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_PAGEDOWN):
            self.set_gear(-1)
        elif key == pygame.K_t:
            self.hand_tool = not self.hand_tool
            self.say("Hand tool: left-drag a piece to move it." if self.hand_tool else "Drive tool.")
        elif key == pygame.K_r:
            self.toggle_mode()
        elif key in (pygame.K_q, pygame.K_e) and self.hand is not None and self.hand.layer is not None:
            self.hand.layer.rotate_by(ROTATE_KEY_DEG if key == pygame.K_q else -ROTATE_KEY_DEG)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            step = 40
            dx = {pygame.K_LEFT: step, pygame.K_RIGHT: -step}.get(key, 0)
            dy = {pygame.K_UP: step, pygame.K_DOWN: -step}.get(key, 0)
            self.view = self.view.panned(dx, dy)
        elif key == pygame.K_HOME:
            self.fit()
        elif pygame.K_1 <= key <= pygame.K_9:
            self._shortcut(key - pygame.K_1)
        elif self.mode is Mode.RULINGS and key in (pygame.K_x, pygame.K_a, pygame.K_d, pygame.K_i):
            self.say(self.rulings.key(chr(key)))
            if self.rulings.question == "shoot":
                self.pending = None

    def _shortcut(self, index: int) -> None:
        cells = self.tray_cells()
        if index >= len(cells):
            return
        if self.selected is None:
            self.say("Select a car first (click it).")
            return
        template = cells[index].template
        if self.game_view and (self.game is None or self.game.prompt.kind != "template"):
            self.say("No template to choose now. " + (self.game.instruction() if self.game else ""))
            return
        if self.mode is Mode.PLAY and not self.controller.manoeuvre(self.table, self.selected, template).permitted:
            label = self.template_set.template(template).label
            self.say(f"{label} not permitted in gear {self.table.vehicle(self.selected).gear} (p.18)")
            return
        self.attach(self.selected, template)

    def dispatch(self, action: str) -> None:
        """Run a button's action."""
        simple: dict[str, Callable[[], None]] = {
            "confirm": self.confirm, "cancel": self.cancel, "mirror": self.mirror,
            "reverse": self.toggle_reverse, "slide": self.cycle_slide, "undo": self.undo,
            "gear_up": lambda: self.set_gear(+1), "gear_down": lambda: self.set_gear(-1),
            "help": lambda: setattr(self, "help_visible", not self.help_visible),
            "mode": self.toggle_mode, "fit": self.fit,
            "tool": lambda: setattr(self, "hand_tool", not self.hand_tool),
            "save": lambda: self.save_rulings(self.rulings_path),
            "load": lambda: self.load_rulings(self.rulings_path),
            "game_view": self.toggle_game_view,
            "save_game": lambda: self.save_game(self.game_path),
            "load_game": lambda: self.load_game(self.game_path),
        }
        if action in simple:
            simple[action]()
        elif action.startswith("rulings:"):
            self.say(self.rulings.apply(action.split(":", 1)[1]))
            if self.rulings.question == "shoot":
                self.pending = None

    # ================================================================ game files
    def save_game(self, path: Path) -> None:
        """Ctrl+S in a game: the seed, the scenario and every decision, written atomically."""
        if self.game is not None:
            self.game.save(Path(path))
            self.say(self.game.message)

    def load_game(self, path: Path) -> None:
        """Ctrl+O in a game: replace it with a saved game (replayed from its decisions)."""
        if self.game is None:
            return
        if self.game.load(Path(path)):
            self.pending = None
            self.refresh_game()
            self.fit()
        else:
            self.say(self.game.message)

    # ================================================================ rulings files
    def save_rulings(self, path: Path) -> None:
        """Write the situation and the current question as a rulings file (atomic; an existing file keeps its
        comments). Another existing file than the one opened is only written on a second Ctrl+S."""
        path = Path(path)
        opened = Path(self.scenario.source).resolve() if self.scenario.source not in ("", "<string>") else None
        if path.exists() and path.resolve() != opened and getattr(self, "_overwrite_ok", None) != path:
            self._overwrite_ok = path
            self.say(f"{path} exists: press Ctrl+S again to write the situation into it (its comments are kept).")
            return
        self._overwrite_ok = None
        try:
            save_rulings(path, self.scenario, self.table, self.rulings, self.pending.move if self.pending else None,
                         self.pending.vehicle_id if self.pending else self.selected, self.shown_query)
        except OSError as exc:
            self.say(f"Could not save {path}: {exc}")
            return
        self.say(f"Saved the situation to {path}.")

    def load_rulings(self, path: Path) -> None:
        """Replace the table with a scenario or rulings file (undo brings the old one back)."""
        try:
            scenario = load_rulings_file(path)  # the table and its queries, checked as `gaslands rule` does
        except InputFileError as exc:
            self.say(str(exc).splitlines()[0])
            return
        self.undo_stack.append(self.table)
        self.scenario = scenario
        self.table = scenario.table
        self.statuses = self._initial_statuses()
        self.pending = None
        self.selected = None
        if scenario.spec.query:
            self.ask(scenario.spec.query)
        else:
            self.rulings = RulingsState()
            self.fit()
        self.say(f"Loaded {path}.")

    # ================================================================ update
    def update(self, dt: float) -> None:
        """Advance the drive animation and the hand layer by ``dt`` seconds (in a game: motions and bots)."""
        if self.game is not None and self.game_view:
            self.game.update(dt)
            if self.game.revision != self._game_revision:
                self.refresh_game()
        if self.animation is not None:
            self.animation.elapsed += dt
            if self.animation.elapsed >= self.animation.duration:
                self._finish_animation()
        if self.hand is not None and self.hand.layer is not None:
            self.hand.layer.step(dt)

    # ================================================================ widgets
    def headline_lines(self) -> list[str]:
        """The panel's headline, wrapped to at most two lines (in a game: the cars still to activate)."""
        headline = self.controller.headline(self.table)
        if self.game_view:
            assert self.game is not None
            names = ", ".join(self.game.name(v) for v in self.game.qualifying_now())
            headline = (f"To activate in Gear Phase {self.game.state.round.gear_phase}: {names or 'none'}"
                        if not self.game.over() else headline)
        width = self.layout.panel[2] - 24
        lines = game_panel.wrap(headline, 18, width)
        if len(lines) > 2:
            last = " ".join(lines[1:])
            while draw.font(18).size(last + "...")[0] > width and len(last) > 1:
                last = last[:-1]
            lines = [lines[0], last.rstrip(" ,") + "..."]
        return lines

    def _card_rects(self) -> list[tuple[str, Rect]]:
        x, y, w, h = self.layout.panel
        top = y + 44 + (len(self.headline_lines()) - 1) * HEADLINE_STEP
        ids = [v.id for v in self.table.vehicles]
        if self.game_view:
            assert self.game is not None
            ids = [v.id for v in self.game.state.vehicles]
        n = max(len(ids), 1)
        card = int(min(CARD_HEIGHT, max(30, h * 0.42 / n - 6)))
        if self.game_view:
            card = int(min(GAME_CARD_PX, max(30, h * 0.36 / n - 5)))
        return [(vid, (x + 8, top + i * (card + 5), w - 16, card)) for i, vid in enumerate(ids)]

    def _options_top(self) -> int:
        rects = self._card_rects()
        return (rects[-1][1][1] + rects[-1][1][3] if rects else self.layout.panel[1] + 44) + 10

    def _spin_slider(self) -> Slider | None:
        if self.pending is None:
            return None
        x, _, w, _ = self.layout.panel
        y = self._options_top() + 122
        return Slider((x + 20, y, w - 40, 16), -90.0, 90.0, self.pending.move.spin_deg, "spin")

    def buttons(self) -> list[Button]:
        """Every button on screen now (rebuilt from the state)."""
        out: list[Button] = []
        tx = self.layout.top[2]
        out.append(Button((tx - 92, 5, 84, 24), "Help (H)", "help", active=self.help_visible))
        if self.game is not None:
            out.append(Button((tx - 252, 5, 154, 24), "Free table (F2)" if self.game_view else "Back to game (F2)",
                              "game_view", active=not self.game_view))
        if self.game_view:
            assert self.game is not None
            out.append(Button((tx - 342, 5, 84, 24), "Undo", "undo", enabled=bool(self.game.game.decisions)))
            out.append(Button((tx - 432, 5, 84, 24), "Save", "save_game"))
            out.append(Button((tx - 522, 5, 84, 24), "Load", "load_game"))
            out.append(Button((tx - 612, 5, 84, 24), "Fit", "fit"))
            return out
        if self.game is not None:
            tx -= 160
        out.append(Button((tx - 212, 5, 114, 24), "Rulings (R)", "mode", active=self.mode is Mode.RULINGS))
        out.append(Button((tx - 322, 5, 104, 24), "Hand (T)", "tool", active=self.hand_tool))
        out.append(Button((tx - 412, 5, 84, 24), "Undo", "undo", enabled=bool(self.undo_stack)))
        out.append(Button((tx - 502, 5, 84, 24), "Fit", "fit"))
        for vid, rect in self._card_rects():
            if vid == self.selected:
                x, y, w, _ = rect
                out.append(Button((x + w - 64, y + 25, 28, 20), "-", "gear_down"))
                out.append(Button((x + w - 33, y + 25, 28, 20), "+", "gear_up"))
        px, _, pw, _ = self.layout.panel
        y = self._options_top()
        if self.pending is not None and self.animation is None:
            m = self.pending.move
            gear = self.table.vehicle(self.pending.vehicle_id).gear
            row = y + 30
            out.append(Button((px + 12, row, 110, 26), "Mirror (Tab)", "mirror", enabled=m.direction is not None))
            out.append(Button((px + 128, row, 110, 26), "Reverse (V)", "reverse", enabled=gear == 1 or m.reverse,
                              active=m.reverse))
            slide = "Slide: off" if not m.slide else f"Slide: {m.slide_facing or 'on'}"
            out.append(Button((px + 244, row, 114, 26), slide + " (S)", "slide", active=m.slide))
            row += 34
            out.append(Button((px + 12, row, 170, 30), "Confirm (Enter)", "confirm"))
            out.append(Button((px + 188, row, 170, 30), "Cancel (Esc)", "cancel"))
        if self.mode is Mode.RULINGS:
            out += self.rulings.buttons((px + 12, self._rulings_top(), pw - 24))
            ry = self.layout.panel[1] + self.layout.panel[3] - 36
            out.append(Button((px + 12, ry, 170, 28), "Save (Ctrl+S)", "save"))
            out.append(Button((px + 188, ry, 170, 28), "Load (Ctrl+O)", "load"))
        return out

    def _rulings_top(self) -> int:
        return self._options_top() + (170 if self.pending is not None else 4)

    # ================================================================ drawing
    def dashboards(self) -> list[Dashboard]:
        """The dashboard values for every vehicle."""
        out = []
        weapons = load_weapons()
        for v in self.table.vehicles:
            vtype = self.types.get(v.type)
            st = self.statuses.get(v.id) or VehicleStatus(0, 1, 1)
            supplied = getattr(self.controller, "vehicle_status", None)
            if callable(supplied):
                st = supplied(v.id) or st
            team = next((p.name or p.id for p in self.scenario.spec.player if p.id == v.player), v.player or "")
            try:
                spec_weapons = self.scenario.vehicle_spec(v.id).weapons
            except KeyError:
                spec_weapons = []
            wtext = ", ".join(f"{weapons[w.type].name if w.type in weapons else w.type} ({w.arc})"
                              for w in spec_weapons)
            out.append(Dashboard(v.id, self.vehicle_name(v.id), team, self.vehicle_colour(v.id),
                                 vtype.name if vtype else v.type, v.gear, vtype.max_gear if vtype else 6,
                                 st.hazards, st.hull, st.hull_max, wtext, getattr(st, "note", "")))
        if self.game_view:
            out += self._gone_dashboards({d.vehicle_id for d in out})
        return out

    def _gone_dashboards(self, shown: set[str]) -> list[Dashboard]:
        """Cards for game vehicles no longer on the table (destroyed, off the table)."""
        g = self.game
        assert g is not None
        out = []
        for v in g.state.vehicles:
            if v.id in shown:
                continue
            st = g.vehicle_status(v.id)
            team = g.player_name(v.player)
            colour = draw.hex_colour(g.player_colour(v.player))
            vtype = self.types.get(v.type_key)
            out.append(Dashboard(v.id, g.name(v.id), team, colour, vtype.name if vtype else v.type_key, v.gear,
                                 v.max_gear, v.hazards, st.hull if st else 0, v.hull, "", st.note if st else ""))
        return out

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the whole window."""
        surface.fill(draw.BACKGROUND)
        self._draw_table(surface)
        self._draw_tray(surface)
        self._draw_panel(surface)
        self._draw_top(surface)
        self._draw_status(surface)
        if self.template_drag is not None:
            self._draw_floating_template(surface)
        if self.help_visible:
            draw_help(surface)

    def _draw_table(self, surface: pygame.Surface) -> None:
        rect = pygame.Rect(self.layout.table)
        surface.set_clip(rect)
        table = self.live_table()
        draw.draw_table(surface, self.view, table)
        overlay = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        outcome = self.outcome() if self.animation is None else None
        if self.mode is Mode.RULINGS:
            draw_rulings_under(overlay, self.view, table, self.rulings, outcome)
            surface.blit(overlay, (0, 0))
            overlay.fill((0, 0, 0, 0))
        if self.animation is not None:
            self._draw_preview(overlay, self.animation.outcome, faint=True)
        if outcome is not None:
            self._draw_preview(overlay, outcome)
        drop = self._drag_preview()
        if drop is not None:
            self._draw_preview(overlay, drop)
        if self.game_view:
            self._draw_game_overlay(overlay)
        if self.mode is Mode.RULINGS:
            draw_rulings_overlay(overlay, self.view, table, self.template_set, self.rulings, outcome,
                                 self.vehicle_name)
        surface.blit(overlay, (0, 0))
        self._draw_vehicles(surface)
        surface.set_clip(None)
        pygame.draw.rect(surface, draw.PANEL_EDGE, rect, 1)

    def _drag_preview(self) -> MoveOutcome | None:
        drag = self.template_drag
        if drag is None or not self.view.contains_px(drag.pos):
            return None
        target = self._drop_target(drag.pos)
        if target is None:
            return None
        direction = self._side_of(target, drag.pos, drag.mirrored)
        move = Move(drag.template, None if drag.template in STRAIGHTS else direction)
        if self.game_view and self.controller.manoeuvre(self.table, target, drag.template).value == "not_permitted":
            if self.game is not None and self.game.prompt.kind == "template":
                return None
        try:
            return preview_move(self._rules_table(), target, move, self.template_set)
        except (MoveSpecError, KeyError):
            return None

    def _draw_preview(self, overlay: pygame.Surface, outcome: MoveOutcome, faint: bool = False) -> None:
        placed = outcome.placed
        if faint:
            draw.fill_shape(overlay, self.view, placed.movement_polygon, (250, 240, 200, 45))
            return
        draw.fill_shape(overlay, self.view, placed.movement_polygon, draw.TEMPLATE_FILL, draw.TEMPLATE_EDGE, 2)
        if outcome.move.slide and placed.slide_polygon is not None:
            draw.outline_shape(overlay, self.view, placed.slide_polygon, (120, 220, 255), 2)
        v = self.live_table().vehicle(outcome.vehicle_id)
        draw.path_line(overlay, self.view, outcome.path.sample(4.0), (255, 255, 255, 200))
        colour = self.vehicle_colour(outcome.vehicle_id)
        if outcome.interrupted or outcome.final != outcome.planned:
            draw.ghost_vehicle(overlay, self.view, outcome.planned, v.length_mm, v.width_mm, (200, 200, 200), 40,
                               (220, 220, 220), dashed=True)
            draw.ghost_vehicle(overlay, self.view, outcome.final, v.length_mm, v.width_mm, draw.INTERRUPT, 130,
                               draw.INTERRUPT)
            at_ifp = bool(getattr(outcome.result, "ended_interrupted", outcome.interrupted))
            label = "Interrupted Final Position" if at_ifp else "Final Position (Spin stopped, p.24)"
            lcol = draw.INTERRUPT
        else:
            draw.ghost_vehicle(overlay, self.view, outcome.final, v.length_mm, v.width_mm, colour, 120)
            label, lcol = "Final Position", (255, 255, 255)
        fx, fy = self.view.to_screen(outcome.final.x_mm, outcome.final.y_mm)
        draw.text(overlay, label, (fx, fy - self.view.mm_to_px(max(v.length_mm, v.width_mm)) / 2 - 4), 17, lcol,
                  "midbottom", backing=(10, 10, 10, 190))

    def _draw_vehicles(self, surface: pygame.Surface) -> None:
        if self.game_view:
            self._draw_game_vehicles(surface)
            return
        anim = self.animation
        for v in self.live_table().vehicles:
            pose: Pose | None = None
            if anim is not None and anim.vehicle_id == v.id:
                t = _ease(anim.elapsed / anim.duration)
                pose = anim.path.pose_at(t * anim.path.total)
            draw.draw_vehicle(surface, self.view, v, self.vehicle_colour(v.id), self.vehicle_name(v.id),
                              selected=v.id == self.selected, pose=pose)
        if self.hand is not None and self.hand.layer is not None and self.hand.piece_id not in {
                v.id for v in self.table.vehicles}:
            outline = self.live_table().obstacle(self.hand.piece_id).polygon
            draw.outline_shape(surface, self.view, outline, draw.SELECT, 3)

    def _draw_game_vehicles(self, surface: pygame.Surface) -> None:
        g = self.game
        assert g is not None
        wrecks = g.wrecks()
        qualifying = set(g.qualifying_now()) if not g.is_bot_turn() else set()
        choosing = g.prompt.kind == "activate" and not g.is_bot_turn()
        for v in self.table.vehicles:
            if v.id in wrecks:
                draw.draw_wreck(surface, self.view, v, self.vehicle_colour(v.id), self.vehicle_name(v.id))
        names: list[pygame.Rect] = []
        for v in self.table.vehicles:
            if v.id in wrecks:
                continue
            pose = g.moving_pose(v.id)
            if choosing and isinstance(g.prompt, ActivatePrompt) and v.id in g.prompt.vehicles and pose is None:
                draw.halo(surface, self.view, v.pose, v.length_mm, v.width_mm, draw.SELECT)
            elif v.id in qualifying and pose is None:
                draw.halo(surface, self.view, v.pose, v.length_mm, v.width_mm, (200, 200, 200), width=1)
            label = draw.draw_vehicle(surface, self.view, v, self.vehicle_colour(v.id), self.vehicle_name(v.id),
                                      selected=v.id == self.selected, pose=pose)
            if label is not None:
                names.append(label)
            st = g.vehicle(v.id)
            at = pose or v.pose
            sx, sy = self.view.to_screen(at.x_mm, at.y_mm)
            tokens = f"G{st.gear}" + (f"  H{st.hazards}" if st.hazards else "")
            draw.text(surface, tokens, (sx, sy), 15, (255, 255, 255), "center", backing=(10, 10, 10, 170))
        for rect, badge, alpha in self.badge_layout(names):
            draw.badge(surface, badge, rect, BADGE_FONT, (255, 235, 120), (120, 20, 20, 200), alpha)
        if g.over():
            self._draw_banner(surface, g.result_text())

    def badge_layout(self, keep_clear: Sequence[pygame.Rect] = ()) -> list[tuple[pygame.Rect, str, int]]:
        """Where each car's badge (COLLISION, WIPEOUT, hits...) goes: (screen rect, word, alpha).

        One badge per car, above it; a badge that would cover another badge, a car, a name label in
        ``keep_clear``, or the ghost of the car whose facing is being chosen moves up until it is
        clear, and then names its car (``Red Car: WIPEOUT``). That car's own badge waits until the
        facing is chosen.
        """
        g = self.game
        if g is None:
            return []
        on_table = {v.id: v for v in self.table.vehicles}
        chosen = g.facing_chosen()
        avoid = list(keep_clear)
        for vid, v in on_table.items():
            avoid.append(draw.vehicle_rect_px(self.view, g.moving_pose(vid) or v.pose, v.length_mm, v.width_mm)
                         .inflate(12 if vid == chosen else 4, 12 if vid == chosen else 4))
        ghost = g.preview_pose() if chosen in on_table else None
        if ghost is not None:
            v = on_table[chosen]
            avoid.append(draw.vehicle_rect_px(self.view, ghost, v.length_mm, v.width_mm).inflate(12, 12))
        lift = max(self.view.mm_to_px(45.0), 30.0)  # above the car, never over it
        top = pygame.Rect(self.layout.table).top
        items = []
        for vid, (word, _) in g.flashes.items():
            if vid not in on_table or vid == chosen:
                continue
            p = g.moving_pose(vid) or on_table[vid].pose
            sx, sy = self.view.to_screen(p.x_mm, p.y_mm)
            items.append((sy, sx, vid, word))
        placed: list[pygame.Rect] = []
        out = []
        for sy, sx, vid, word in sorted(items, key=lambda i: (-i[0], i[1])):  # lowest car first, stack upward
            rect = draw.badge_rect(word, BADGE_FONT, (sx, sy - lift))
            for _ in range(2 * (len(avoid) + len(placed)) + 4):
                hit = next((r for r in (*placed, *avoid) if r.colliderect(rect)), None)
                if hit is None or rect.top <= top:
                    break
                if not word.startswith(self.vehicle_name(vid)):
                    word = f"{self.vehicle_name(vid)}: {word}"  # moved off its car: say whose it is
                    bottom = rect.bottom
                    rect = draw.badge_rect(word, BADGE_FONT, (sx, bottom))
                    continue
                rect.bottom = hit.top - 2
            rect.top = max(rect.top, top)
            placed.append(rect)
            out.append((rect, word, g.flash_alpha(vid)))
        return out

    def _draw_banner(self, surface: pygame.Surface, message: str) -> None:
        r = pygame.Rect(self.layout.table)
        draw.text(surface, message, (r.centerx, r.top + 40), 38, (255, 230, 120), "midtop", backing=(20, 20, 20, 220))
        assert self.game is not None
        order = "  ".join(f"{i}. {n}" for i, n in enumerate(self.game.standings(), 1))
        draw.text(surface, order, (r.centerx, r.top + 90), 22, draw.TEXT, "midtop", backing=(20, 20, 20, 200))

    def _draw_game_overlay(self, overlay: pygame.Surface) -> None:
        """Ghosts and lines for the prompt: Slide endings, a Spin or Lose Control facing, targets, a collision."""
        g = self.game
        assert g is not None
        p = g.prompt
        table = self.table
        ids = {v.id for v in table.vehicles}
        for t, poly in g.dropped_shapes():
            label = t.rules.name.replace(" Dropper", "")
            draw.draw_dropped(overlay, self.view, poly, t.weapon, label, self.vehicle_colour(t.owner))
        if p.vehicle_id in ids and p.kind in ("slide_facing", "shifts"):
            v = table.vehicle(p.vehicle_id)
            for side, pose in g.slide_previews().items():
                draw.ghost_vehicle(overlay, self.view, pose, v.length_mm, v.width_mm, (120, 220, 255), 90)
                x, y = self.view.to_screen(pose.x_mm, pose.y_mm)
                draw.text(overlay, f"face {side}", (x, y), 17, (255, 255, 255), "center", backing=(10, 10, 10, 190))
        chosen = g.game.engine_state.activation.template
        if chosen is not None and p.kind in ("skid", "push_it", "shifts", "slide_facing") and p.vehicle_id in ids:
            try:
                planned = preview_move(self._rules_table(), p.vehicle_id,
                                       Move(chosen.template, chosen.direction, chosen.reverse), self.template_set)
            except (MoveSpecError, KeyError):
                planned = None
            if planned is not None:
                self._draw_preview(overlay, planned)
        if p.kind == "deploy":
            vid = g.deploy_vehicle()
            if vid:
                v = g.vehicle(vid)
                for slot, pose in g.grid_previews().items():
                    draw.ghost_vehicle(overlay, self.view, pose, v.length_mm, v.width_mm, (255, 230, 120), 110)
                    x, y = self.view.to_screen(pose.x_mm, pose.y_mm)
                    draw.text(overlay, f"slot {slot}", (x, y), 15, (255, 255, 255), "center",
                              backing=(10, 10, 10, 190))
        ghost = g.preview_pose()
        vid = p.target if isinstance(p, PiledriverPrompt) else p.vehicle_id
        if ghost is not None and vid in ids:
            v = table.vehicle(vid)
            draw.ghost_vehicle(overlay, self.view, ghost, v.length_mm, v.width_mm, (255, 255, 255), 70)
        if p.kind == "attacks" and p.vehicle_id in ids:
            a = table.vehicle(p.vehicle_id).pose
            picked = {at.target for at in g.draft.attacks}
            for o in g.attack_options():
                if o.target not in ids:
                    continue
                t = table.vehicle(o.target).pose
                colour = (255, 70, 60, 230) if o.target in picked else (255, 200, 200, 120)
                pts = [self.view.to_screen(a.x_mm, a.y_mm), self.view.to_screen(t.x_mm, t.y_mm)]
                draw.dashed_polyline(overlay, colour, pts, 3 if o.target in picked else 1)
        if isinstance(p, ReactPrompt):
            for piece in (p.vehicle_id, p.other_id):
                try:
                    draw.outline_shape(overlay, self.view, table.shape_of(piece), draw.CONTACT, 4)
                except KeyError:
                    continue

    def _draw_floating_template(self, surface: pygame.Surface) -> None:
        drag = self.template_drag
        assert drag is not None
        if self._drop_target(drag.pos) is not None and self.view.contains_px(drag.pos):
            return
        template = self.template_set.template(drag.template)
        rect = (drag.pos[0] - 30, drag.pos[1] - 40, 60, 80)
        tray.draw_thumbnail(surface, template, rect, (250, 240, 200), (120, 110, 90))

    def _draw_tray(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, draw.PANEL, self.layout.tray)
        labels = None
        game_idle = self.game_view and self.game is not None and (
            self.game.prompt.kind not in ("template", "activate") or self.game.is_bot_turn())
        if self.selected is not None and not game_idle:
            labels = {c.template: manoeuvre_label(self.controller.manoeuvre(self.table, self.selected, c.template))
                      for c in self.tray_cells()}
        hover = tray.cell_at(self.tray_cells(), self.mouse_pos)
        tray.draw_tray(surface, self.template_set, self.tray_cells(), labels,
                       self.template_drag.template if self.template_drag else None,
                       hover.template if hover else None)
        x, y, w, h = self.layout.tray
        if game_idle:
            shade = pygame.Surface((w, h), pygame.SRCALPHA)
            shade.fill((20, 22, 26, 170))
            surface.blit(shade, (x, y))
            draw.text(surface, "Templates are chosen when a car makes its move (p.22)", (x + w // 2, y + h // 2), 20,
                      draw.TEXT_DIM, "center", backing=(15, 15, 15, 220))
        elif self.selected is not None and self.selected in {v.id for v in self.table.vehicles}:
            v = self.table.vehicle(self.selected)
            what = "permitted now" if self.game_view else "for"
            draw.text(surface, f"Templates {what}: {self.vehicle_name(v.id)} in gear {v.gear}", (w - 8, y - 4), 17,
                      draw.SELECT, "bottomright", backing=(15, 15, 15, 200))

    def _draw_panel(self, surface: pygame.Surface) -> None:
        rect = pygame.Rect(self.layout.panel)
        pygame.draw.rect(surface, draw.PANEL, rect)
        pygame.draw.line(surface, draw.PANEL_EDGE, rect.topleft, rect.bottomleft, 2)
        lines = self.headline_lines()
        for i, line in enumerate(lines):
            draw.text(surface, line, (rect.left + 12, rect.top + 8 + i * HEADLINE_STEP), 18, draw.TEXT_DIM)
        draw.text(surface, "Vehicles", (rect.left + 12, rect.top + 26 + (len(lines) - 1) * HEADLINE_STEP), 17,
                  draw.TEXT_DIM)
        boards = {d.vehicle_id: d for d in self.dashboards()}
        for vid, r in self._card_rects():
            if vid in boards:
                draw_card(surface, boards[vid], r, vid == self.selected)
        y = self._options_top()
        if self.game_view:
            self._draw_game_panel(surface, rect, y)
            return
        if self.pending is not None and self.animation is None:
            self._draw_move_options(surface, rect, y)
        elif self.mode is Mode.PLAY:
            hint = ("Select a car, then drag a template onto it." if self.selected is None
                    else "Drag a template from the tray onto the car,")
            draw.text(surface, hint, (rect.left + 12, y + 6), 18, draw.TEXT_DIM)
            if self.selected is not None:
                draw.text(surface, "or press 1-9.  +/- change gear.", (rect.left + 12, y + 26), 18, draw.TEXT_DIM)
        if self.mode is Mode.RULINGS:
            lines = rulings_lines(self.live_table(), self.template_set, self.rulings,
                                  self.outcome() if self.animation is None else None, self.vehicle_name)
            self.rulings.draw_panel(surface, (rect.left + 12, self._rulings_top(), rect.width - 24), lines)
        for b in self.buttons():
            if pygame.Rect(b.rect).colliderect(rect):
                draw_button(surface, b, 17)

    def _draw_game_panel(self, surface: pygame.Surface, rect: pygame.Rect, y: int) -> None:
        g = self.game
        assert g is not None
        pygame.draw.line(surface, draw.PANEL_EDGE, (rect.left + 8, y - 4), (rect.right - 8, y - 4), 1)
        panel = self.game_panel()
        tumble = [g.tumbling_face(i) for i in range(len(panel.dice))] if panel.tumbling else None
        game_panel.draw_panel(surface, panel, tumble)
        events, fresh = g.display_log()
        draw_log(surface, self._log_rect(), events, self.log_view, fresh_from=fresh)
        for b in self.buttons():
            if pygame.Rect(b.rect).colliderect(rect):
                draw_button(surface, b, 17)

    def _draw_move_options(self, surface: pygame.Surface, rect: pygame.Rect, y: int) -> None:
        assert self.pending is not None
        m = self.pending.move
        t = self.template_set.template(m.template)
        word = manoeuvre_label(self.controller.manoeuvre(self.table, self.pending.vehicle_id, m.template))
        title = t.label + (f" {m.direction}" if m.direction else "") + (" in reverse" if m.reverse else "")
        draw.text(surface, title, (rect.left + 12, y + 4), 22, draw.SELECT)
        chip = draw.PERMISSION_COLOURS[word]
        draw.text(surface, word, (rect.right - 12, y + 6), 18, (15, 15, 15), "topright", backing=chip)
        s = self._spin_slider()
        if s is not None:
            draw_slider(surface, s, f"Spin {m.spin_deg:+.0f} deg  ([ ] keys, 0 resets)")
        out = self.outcome()
        msg = self._outcome_error
        if out is not None and not msg:
            f = out.final
            msg = f"ends at ({f.x_mm:.1f}, {f.y_mm:.1f}) mm, heading {f.heading_deg:.1f}"
            if out.interrupted:
                msg = "Interrupted: " + msg
        draw.text(surface, msg[:60], (rect.left + 12, y + 146), 16, draw.INTERRUPT if out and out.interrupted
                  else draw.TEXT_DIM)

    def _draw_top(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, (16, 17, 20), self.layout.top)
        mode = "RULINGS" if self.mode is Mode.RULINGS else "PLAY"
        tool = "Hand" if (self.hand_tool or self.shift_held) else "Drive"
        draw.text(surface, f"Gaslands  -  {self.scenario.name}", (12, 8), 24, draw.TEXT)
        if self.game_view:
            self._draw_game_top(surface)
        else:
            draw.text(surface, f"{mode}{' (FREE TABLE)' if self.game else ''}  |  tool: {tool}", (330, 10), 20,
                      draw.SELECT if self.mode is Mode.RULINGS else draw.TEXT_DIM)
        for b in self.buttons():
            if pygame.Rect(b.rect).colliderect(pygame.Rect(self.layout.top)):
                draw_button(surface, b, 17)

    def _draw_game_top(self, surface: pygame.Surface) -> None:
        g = self.game
        assert g is not None
        rs = g.state.round
        x = 250
        chip = draw.text(surface, "GAME", (x, 9), 20, (15, 15, 15), backing=draw.SELECT)
        x = chip.right + 12
        x = draw.text(surface, f"Round {rs.round_no}  Gear Phase {rs.gear_phase}", (x, 10), 20, draw.TEXT).right + 14
        if g.over():
            draw.text(surface, "GAME OVER", (x, 10), 20, draw.SELECT)
            return
        p = g.prompt
        colour = draw.shade(draw.hex_colour(g.player_colour(p.player)), 1.35)
        who = g.player_name(p.player) + (" (bot)" if g.is_bot_turn() else "")
        draw.text(surface, f"{who}'s turn", (x, 10), 20, colour)

    def _draw_status(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, (16, 17, 20), self.layout.status)
        x, y, _, _ = self.layout.status
        draw.text(surface, self.status, (x + 10, y + 5), 19, draw.TEXT)
        zoom = f"{self.view.scale_px_per_mm:.2f} px/mm"
        draw.text(surface, zoom, (self.layout.status[2] - 10, y + 5), 17, draw.TEXT_DIM, "topright")


# ==================================================================== entry points
def plays_as_game(path: Path) -> bool:
    """Whether ``path`` opens as a game: a save (``.json``) or a race scenario without rulings queries."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return True
    scenario = load_scenario(path)
    return scenario.spec.scenario.kind in RACES and not scenario.spec.query


def game_app(path: Path, size: tuple[int, int] = (1400, 900), seed: int | None = None,
             autosave_path: Path | None = None, bots: set[int] | None = None,
             template_set_path: Path | None = None, game_path: Path | None = None) -> App:
    """A window playing a new game of a scenario, or a saved game (``.json``), hot-seat.

    ``seed`` defaults to a fresh random one; ``autosave_path`` to
    :func:`~simulator.ui.game_controller.default_autosave_path`.
    """
    import random

    from simulator.scenario import saves as saving
    from simulator.scenario.setup import new_game

    path = Path(path)
    if path.suffix.lower() == ".json":
        game = saving.load(path)
        game_path = game_path or path
    else:
        game = new_game(load_scenario(path), seed if seed is not None else random.SystemRandom().randrange(10**6))
    ctl = GameController(game, autosave_path=autosave_path or default_autosave_path(), bots=bots)
    ts = load_template_set(template_set_path) if template_set_path is not None else None
    return App.for_game(ctl, size, template_set=ts, game_path=game_path)


def run_window(scenario_path: Path, template_set_path: Path | None = None, query: str | None = None,
               game: bool | None = None, seed: int | None = None) -> None:
    """Open the window on a scenario and run until it is closed.

    Races (Street Race, Death Race) and saves open as a hot-seat game (F2: the
    free table); rulings files open in rulings mode on ``query``; anything
    else opens the free table. ``game`` forces the choice.
    """
    pygame.init()
    pygame.display.set_caption("Gaslands table")
    icon = files("simulator.bundled_assets") / "icon.png"
    if icon.is_file():
        pygame.display.set_icon(pygame.image.load(str(icon)))
    screen = pygame.display.set_mode((1400, 900), pygame.RESIZABLE)
    as_game = plays_as_game(Path(scenario_path)) if game is None else game
    if as_game and query is None:
        app = game_app(Path(scenario_path), screen.get_size(), seed=seed, template_set_path=template_set_path)
    else:
        app = App.from_path(Path(scenario_path), template_set_path, size=screen.get_size(), query=query)
    clock = pygame.time.Clock()
    running = True
    while running:
        dt = clock.tick(60) / 1000.0
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            elif event.type == pygame.VIDEORESIZE:
                app.resize(event.size)
            else:
                app.handle_event(event)
        app.update(dt)
        app.draw(screen)
        pygame.display.flip()
    pygame.quit()


def render_png(scenario_path: Path, out_png: Path, size: tuple[int, int] = (1400, 900),
               template_set_path: Path | None = None, query: str | None = None, game: bool | None = None,
               seed: int = 1) -> None:
    """Draw a scenario to a PNG without a display (the same drawing code as the window).

    What is drawn is what the window opens on: a race or a save as the game
    (a new game with dice ``seed``), a rulings file in rulings mode with the
    answer to ``query`` (its id or 1-based index; default the first), anything
    else as the free table; ``game`` forces the choice.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.font.init()
    as_game = plays_as_game(Path(scenario_path)) if game is None else game
    if as_game and query is None:
        app = game_app(Path(scenario_path), size, seed=seed, template_set_path=template_set_path)
    else:
        app = App.from_path(Path(scenario_path), template_set_path, size=size, query=query)
    surface = pygame.Surface(size)
    app.draw(surface)
    out = Path(out_png)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))
