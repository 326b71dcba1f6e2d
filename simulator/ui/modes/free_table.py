"""The free table: move any car with the templates, or any piece by hand; nothing but the templates' rules.

A :class:`FreeTableMode` works on a :class:`~simulator.ui.sandbox.Sandbox`:
click a car to select it, drag a template from the tray onto it (or press
1-9), mirror it (Tab, right click), reverse it (V, Gear 1 only, p.39), add a
Slide (S) or a Spin ([ ], the slider), and Enter drives it: the car animates
along its path to the Final Position the geometry gives (p.22-26, p.45-54).
The Hand tool (T, or hold Shift) picks a piece up and puts it down without
overlapping anything. Every change is undone with Ctrl+Z.

What may be done is asked of a :class:`~simulator.ui.controller.TurnController`
(by default :class:`~simulator.ui.controller.FreeTable`: the permitted-gear
table, p.17-18, Reverse in Gear 1, p.39, each type's Max Gear, p.66). The
rulings mode (:mod:`simulator.ui.modes.rulings`) extends this mode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pygame

from simulator.errors import InputFileError
from simulator.gaslands.tables import load_vehicle_types, load_weapons
from simulator.geometry.path import Path as MovePath
from simulator.geometry.placement import Move, MoveSpecError
from simulator.geometry.pose import Pose
from simulator.geometry.table import Table
from simulator.geometry.templates import Direction
from simulator.physics.hand import HandLayer, Placement, moved_obstacle
from simulator.scenario.loader import Scenario
from simulator.scenario.rulings import load_rulings_file
from simulator.ui import draw, game_panel, palette, tray
from simulator.ui.controller import FreeTable, TurnController, manoeuvre_label
from simulator.ui.dashboard import CARD_HEIGHT, Dashboard, card_rects, draw_card
from simulator.ui.labels import LabelBoard
from simulator.ui.layout import TOP_INFO
from simulator.ui.modes import Context, HelpLines, TopButton
from simulator.ui.outcome import MoveOutcome, MovePreview, preview_move
from simulator.ui.pending import Pending, TemplateDrag
from simulator.ui.rulings_view import RulingsState, save_rulings
from simulator.ui.sandbox import Sandbox, VehicleStatus
from simulator.ui.table_tools import TableTools
from simulator.ui.view import Rect, View
from simulator.ui.widgets import Button, Command, Slider, button_at, draw_button, draw_slider

ANIMATION_S = 0.6
"""How long the car takes to drive along its path on screen."""
HEADLINE_STEP = 15
"""Line step of the panel headline (font 18) when it wraps to a second line."""
SPIN_LIMIT_DEG = 90.0
"""The slider's range either way: a Spin turns at most 90 degrees (p.24)."""
SPIN_STEP_DEG = 15.0
ROTATE_KEY_DEG = 15.0
ROTATE_WHEEL_DEG = 5.0
CLICK_SLOP_PX = 4

HELP: HelpLines = (
    ("Left click a car", "select it (its dashboard lights up on the right)"),
    ("Drag a template from the tray", "drop it on a car: it snaps to the front edge"),
    ("1 .. 9", "put that template on the selected car"),
    ("Tab / M / right click", "mirror the template left <-> right"),
    ("V", "Reverse (Gear 1 only): the template goes on the rear edge"),
    ("S", "Slide: off / left / right (straights), off / on (turns)"),
    ("[  ]  or the slider", "Spin -15 / +15 degrees (0 resets), -90 .. 90"),
    ("Enter", "confirm: the car drives to its Final Position"),
    ("Esc", "cancel the template, a drag, or close this help"),
    ("Ctrl+Z", "undo the last move, gear change or hand placement"),
    ("+ / -", "gear up / down for the selected car"),
    ("T, or hold Shift", "Hand tool: left-drag a piece to move it by hand"),
    ("Q / E or wheel while dragging", "rotate the piece in your hand"),
    ("Wheel", "zoom about the cursor"),
    ("Right drag / arrow keys", "pan; Home fits the table"),
    ("Tape (the table's corner)", "tape measure: drag from any point; mm and the range band (Esc: away)"),
    ("R", "rulings mode: move anything, ask where a move ends or what a gun sees"),
    ("Ctrl+S / Ctrl+O", "save the situation as a rulings file / open a file (a file dialog; or drop a .toml)"),
)
"""The free table's controls (the help overlay and the README list them)."""


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


def _ease(t: float) -> float:
    t = min(max(t, 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


class FreeTableMode:
    """The free table on a :class:`Sandbox` (see the module docstring)."""

    title = "FREE TABLE"
    movable_obstacles = False
    """Whether the hand may pick up obstacles too, and every press picks a piece up (the rulings mode: yes)."""
    refuses_unpermitted = True
    """Whether a template not permitted in the car's gear is refused at the tray (the rulings mode shows it)."""

    def __init__(self, ctx: Context, sandbox: Sandbox, controller: TurnController | None = None,
                 rulings_path: Path | None = None) -> None:
        self.ctx = ctx
        self.box = sandbox
        self.controller: TurnController = controller or FreeTable(ctx.template_set)
        self.rulings_path = rulings_path
        """The rulings file the table was opened from or last saved to (None: Save asks where)."""
        self.saved_table = sandbox.table
        self.types = load_vehicle_types()
        self.hand_tool = False
        self.shift_held = False
        self.template_drag: TemplateDrag | None = None
        self.hand: HandDrag | None = None
        self.animation: Animation | None = None
        self.slider_held = False
        self.message = "Click a car to select it, then drag a template from the tray onto it. H: help."
        self._outcome_key: tuple[int, Pending] | None = None
        self._outcome: MoveOutcome | None = None
        self._outcome_error = ""
        self._live_key: tuple[int, Placement] | None = None
        self._live_table: Table = sandbox.table
        self._overwrite_ok: Path | None = None
        self.labels: LabelBoard | None = None
        """The table's labels in the last frame drawn (placed clear of each other, the cars and line ends)."""
        self.tools = TableTools(ctx.canvas, ctx.template_set, self.live_table, None, None, self.vehicle_name,
                                kinds=("tape",))
        """The tape measure (the table's corner button): it measures and changes nothing."""

    # ================================================================ Mode protocol
    @property
    def scenario(self) -> Scenario:
        """The scenario on the table."""
        return self.box.scenario

    def status(self) -> str:
        """The status line."""
        return self.message

    def say(self, message: str) -> None:
        """Show ``message`` in the status line."""
        self.message = message

    def help_lines(self) -> HelpLines:
        """The free table's controls."""
        return HELP

    def sandbox(self) -> Sandbox:
        """The table itself: the rulings mode opened from here works on the same table."""
        return self.box

    def entered(self) -> None:
        """Back on this table: drop whatever was half done."""
        self.template_drag, self.hand, self.slider_held = None, None, False

    def buttons(self) -> list[TopButton]:
        """Hand tool, Undo, Fit."""
        return [TopButton("Hand (T)", self.toggle_hand_tool, active=self.hand_tool, width_px=90),
                TopButton("Undo", self.undo, enabled=bool(self.box.undo_stack), width_px=60),
                TopButton("Fit", self.ctx.canvas.fit, width_px=50)]

    # ================================================================ the table
    @property
    def table(self) -> Table:
        """The table now."""
        return self.box.table

    @property
    def selected(self) -> str | None:
        """The selected vehicle."""
        return self.box.selected

    @property
    def pending(self) -> Pending | None:
        """The template on a car, not yet confirmed."""
        return self.box.pending

    @pending.setter
    def pending(self, value: Pending | None) -> None:
        self.box.pending = value

    @property
    def view(self) -> View:
        """The canvas's view."""
        return self.ctx.canvas.view

    def tray_cells(self) -> list[tray.TrayCell]:
        """The tray's cells on the screen."""
        return tray.layout(self.ctx.template_set, self.ctx.layout.tray)

    def tray_cell_centre(self, template: str) -> tuple[int, int]:
        """Screen centre of a template's tray cell."""
        return tray.cell_centre(self.tray_cells(), template)

    def vehicle_screen_pos(self, vehicle_id: str) -> tuple[int, int]:
        """Screen pixel of the vehicle's centre."""
        return self.ctx.canvas.screen_pos(self.table.vehicle(vehicle_id).pose)

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

    def _placed(self, layer: HandLayer, placement: Placement) -> Table:
        pid = placement.piece_id
        if pid in self.box.vehicle_ids():
            return self.table.with_vehicle(self.table.vehicle(pid).moved(placement.pose.normalised()))
        start = layer.pieces[pid].start
        return self.table.with_obstacle(moved_obstacle(self.table.obstacle(pid), placement, (start.x_mm, start.y_mm)))

    def outcome(self) -> MoveOutcome | None:
        """The resolved preview of the pending move on the live table (cached)."""
        if self.pending is None:
            return None
        table = self.live_table()
        key = (id(table), self.pending)
        if key != self._outcome_key:
            self._outcome_key = key
            try:
                self._outcome = preview_move(table, self.pending.vehicle_id, self.pending.move, self.ctx.template_set)
                self._outcome_error = ""
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
        player = self.table.vehicle(vehicle_id).player
        players = self.scenario.spec.player
        index = next((i for i, p in enumerate(players) if p.id == player), -1)
        return draw.hex_colour(palette.team_hex([p.colour for p in players], index))

    def is_vehicle(self, piece_id: str) -> bool:
        """Whether ``piece_id`` is a vehicle on the table (not an obstacle)."""
        return piece_id in self.box.vehicle_ids()

    def turns(self, template: str) -> bool:
        """Whether a template has a left and a right hand (everything but the Straights, p.16)."""
        return self.ctx.template_set.template(template).shape != "straight"

    # ================================================================ changes
    def undo(self) -> None:
        """Restore the table before the last change."""
        if self.animation is not None:
            self._finish_animation()
        if not self.box.undo_stack:
            self.say("Nothing to undo.")
            return
        self.box.table = self.box.undo_stack.pop()
        self.pending = None
        self.say("Undone.")

    def select(self, vehicle_id: str | None) -> bool:
        """Select a vehicle (None clears); False with a status message if the controller refuses."""
        if vehicle_id is None:
            self.box.selected = None
            return True
        verdict = self.controller.can_select(self.table, vehicle_id)
        if not verdict.allowed:
            self.say(verdict.reason)
            return False
        self.box.selected = vehicle_id
        v = self.table.vehicle(vehicle_id)
        self.say(f"{self.vehicle_name(vehicle_id)} selected, gear {v.gear}. Drag a template from the tray onto it.")
        if self.pending is not None and self.pending.vehicle_id != vehicle_id:
            self.pending = None
        return True

    def set_gear(self, delta: int) -> None:
        """Shift the selected vehicle's gear by ``delta`` (controller permitting); a reverse it no longer
        allows is dropped (p.39)."""
        if self.selected is None:
            self.say("Select a car first.")
            return
        v = self.table.vehicle(self.selected)
        verdict = self.controller.can_set_gear(self.table, v.id, v.gear + delta)
        if not verdict.allowed:
            self.say(verdict.reason)
            return
        self.box.commit(self.table.with_vehicle(replace(v, gear=v.gear + delta)))
        p = self.pending
        if p is not None and p.move.reverse and not self.controller.can_move(self.table, p.vehicle_id, p.move).allowed:
            self.pending = p.with_move(replace(p.move, reverse=False))
        self.say(f"{self.vehicle_name(v.id)} now in gear {v.gear + delta}.")

    def attach(self, vehicle_id: str, template: str, direction: str | None = None) -> None:
        """Put ``template`` on ``vehicle_id`` as the pending move (front edge; the rear if it was reversing and
        still may)."""
        if self.selected != vehicle_id and not self.select(vehicle_id):
            return
        keep = self.pending.move if self.pending and self.pending.vehicle_id == vehicle_id else None
        turn: Direction | None = ("left" if direction == "left" else "right") if self.turns(template) else None
        move = Move(template, turn)
        if keep is not None and keep.reverse:
            reversed_move = replace(move, reverse=True)
            if self.controller.can_move(self.table, vehicle_id, reversed_move).allowed:
                move = reversed_move
        self.pending = Pending(vehicle_id, move)
        label = self.ctx.template_set.template(template).label
        verdict = self.controller.can_move(self.table, vehicle_id, move)
        if verdict.allowed:
            self.say(f"{label} on {self.vehicle_name(vehicle_id)}: Enter confirms, Tab mirrors, Esc cancels.")
        else:
            self.say(f"{verdict.reason}. Showing it anyway; Enter will refuse.")

    def mirror(self) -> None:
        """Flip the pending (or dragged) template left <-> right."""
        if self.template_drag is not None:
            self.template_drag.mirrored = not self.template_drag.mirrored
            return
        if self.pending is None:
            self.say("Nothing to mirror: drag a template onto a car first.")
            return
        if self.pending.move.direction is None:
            self.say("Straights have no left or right.")
            return
        self.pending = self.pending.mirrored()
        self.say(f"Mirrored: now turning {self.pending.move.direction}.")

    def toggle_reverse(self) -> None:
        """Reverse on/off, if the controller allows it (Gear 1 only, p.39)."""
        p = self.pending
        if p is None:
            self.say("Drag a template onto a car first.")
            return
        flipped = replace(p.move, reverse=not p.move.reverse)
        if flipped.reverse:
            verdict = self.controller.can_move(self.table, p.vehicle_id, flipped)
            if not verdict.allowed:
                self.say(verdict.reason)
                return
        self.pending = p.with_move(flipped)
        self.say("Reversing: the template is on the rear edge." if flipped.reverse else "Driving forward.")

    def cycle_slide(self) -> None:
        """Slide off -> left -> right (straights) or off -> on (turns), p.24-26."""
        p = self.pending
        if p is None:
            self.say("Drag a template onto a car first.")
            return
        m = p.move
        if not self.turns(m.template):
            order: list[tuple[bool, str | None]] = [(False, None), (True, "left"), (True, "right")]
            i = order.index((m.slide, m.slide_facing if m.slide else None))
            slide, facing = order[(i + 1) % 3]
            m = replace(m, slide=slide, slide_facing="left" if facing == "left" else "right" if facing else None)
        else:
            m = replace(m, slide=not m.slide, slide_facing=None)
        self.pending = p.with_move(m)
        self.say("Slide " + ("off" if not m.slide else f"on{', facing ' + m.slide_facing if m.slide_facing else ''}"))

    def set_spin(self, spin_deg: float) -> None:
        """Set the pending Spin, clamped to the slider's range (p.24)."""
        if self.pending is None:
            return
        spin = float(min(max(spin_deg, -SPIN_LIMIT_DEG), SPIN_LIMIT_DEG))
        self.pending = self.pending.with_move(replace(self.pending.move, spin_deg=spin))

    def confirm(self) -> None:
        """Drive the pending move: the car animates along its path, then snaps to the result."""
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

    def _finish_animation(self) -> None:
        anim = self.animation
        assert anim is not None
        self.animation = None
        self.box.undo_stack.append(anim.before)
        self.box.table = anim.outcome.table_after
        self.controller.moved(anim.before, self.table, anim.vehicle_id, anim.outcome.move)
        f = anim.outcome.final
        what = "Interrupted" if anim.outcome.interrupted else "Final Position"
        hits = ", ".join(f"{c.orientation.replace('_', '-')} with {self.vehicle_name(c.with_id)}"
                         for c in anim.outcome.collisions)
        self.say(f"{self.vehicle_name(anim.vehicle_id)}: {what} ({f.x_mm:.1f}, {f.y_mm:.1f}) mm, heading "
                 f"{f.heading_deg:.1f} deg" + (f"; collision: {hits}" if hits else "") + ". Ctrl+Z undoes.")

    def cancel(self) -> None:
        """Esc: drop a drag, or take the pending template away, or clear the selection."""
        if self.template_drag is not None:
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
            self.box.selected = None
            self.say("Nothing selected.")

    def toggle_hand_tool(self) -> None:
        """T: the Hand tool on or off."""
        self.hand_tool = not self.hand_tool
        self.say("Hand tool: left-drag a piece to move it." if self.hand_tool else "Drive tool.")

    # ================================================================ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Mouse, keys, wheel (while holding a piece), dropped files; False leaves pan and zoom to the canvas (the
        tape measure, when on, sees them first)."""
        said = self.tools.handle_event(event)
        if said is not None:
            self.say(said)
            return True
        if event.type == pygame.MOUSEMOTION:
            self._mouse_motion((int(event.pos[0]), int(event.pos[1])))
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._left_down((int(event.pos[0]), int(event.pos[1])))
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._left_up((int(event.pos[0]), int(event.pos[1])))
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 3:
            if self.ctx.canvas.right_click() and (self.pending is not None or self.template_drag is not None):
                self.mirror()
            return False
        if event.type == pygame.MOUSEWHEEL and self.hand is not None and self.hand.layer is not None:
            self.hand.layer.rotate_by(ROTATE_WHEEL_DEG * event.y)
            return True
        if event.type == pygame.KEYDOWN:
            return self._key_down(event.key, event.mod)
        if event.type == pygame.KEYUP and event.key in (pygame.K_LSHIFT, pygame.K_RSHIFT):
            self.shift_held = False
            return True
        if event.type == pygame.DROPFILE:
            self.load_rulings(Path(event.file))
            return True
        return False

    def _mouse_motion(self, pos: tuple[int, int]) -> None:
        if self.template_drag is not None:
            self.template_drag.pos = pos
        if self.slider_held:
            s = self.spin_slider()
            if s is not None:
                self.set_spin(round(s.value_at(pos[0])))
        if self.hand is not None:
            self._hand_motion(pos)

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
            layer = HandLayer.from_table(self.table, movable_obstacles=self.movable_obstacles)
            layer.pick_up(self.hand.piece_id, self.view.to_table(px, py))
            self.hand.layer = layer
            if not self.movable_obstacles:
                self.pending = None
            self.say("Moving by hand: Q/E or the wheel rotates, release to put it down, Esc puts it back.")
        assert self.hand.layer is not None
        self.hand.layer.move_to(self.view.to_table(*pos))

    def _left_down(self, pos: tuple[int, int]) -> None:
        if self.animation is not None:
            return
        s = self.spin_slider()
        if s is not None and s.grabs(pos):
            self.slider_held = True
            self.set_spin(round(s.value_at(pos[0])))
            return
        b = button_at(self.panel_buttons(), pos)
        if b is not None:
            b.action()
            return
        if pygame.Rect(self.ctx.layout.tray).collidepoint(pos):
            self._tray_press(pos)
            return
        if pygame.Rect(self.ctx.layout.panel).collidepoint(pos):
            for vid, rect in self.card_rects():
                if pygame.Rect(rect).collidepoint(pos):
                    self.select(vid)
            return
        if not self.view.contains_px(pos):
            return
        piece = self.ctx.canvas.piece_at(self.table, pos, obstacles=self.movable_obstacles)
        if piece is None:
            return
        if self.hand_tool or self.shift_held or self.movable_obstacles:
            self.hand = HandDrag(piece, pos)
        elif self.is_vehicle(piece):
            self.click_vehicle(piece)

    def click_vehicle(self, vehicle_id: str) -> None:
        """A click on a car (not a drag): select it."""
        self.select(vehicle_id)

    def _tray_press(self, pos: tuple[int, int]) -> None:
        cell = tray.cell_at(self.tray_cells(), pos)
        if cell is None:
            return
        if self.selected is not None and self.refuses_unpermitted:
            m = self.controller.manoeuvre(self.table, self.selected, cell.template)
            if not m.permitted:
                gear = self.table.vehicle(self.selected).gear
                label = self.ctx.template_set.template(cell.template).label
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
            target = self.ctx.canvas.drop_target(self.table, pos)
            if target is None:
                self.say("Drop the template on a car.")
                return
            direction = self.ctx.canvas.side_of(self.table.vehicle(target), pos, drag.mirrored)
            self.attach(target, drag.template, direction)
            return
        if self.hand is not None:
            hand, self.hand = self.hand, None
            if hand.layer is None:
                if self.is_vehicle(hand.piece_id):
                    self.click_vehicle(hand.piece_id)
                return
            self._put_down(hand)

    def _put_down(self, hand: HandDrag) -> None:
        assert hand.layer is not None
        placement = hand.layer.put_down()
        if placement is None:
            return
        pid = placement.piece_id
        if abs(placement.dx_mm) + abs(placement.dy_mm) + abs(placement.dtheta_deg) < 1e-9:
            return
        before = self.table
        self.box.commit(self._placed(hand.layer, placement))
        if self.is_vehicle(pid):
            self.controller.moved(before, self.table, pid, None)
            p = placement.pose.normalised()
            self.say(f"{self.vehicle_name(pid)} placed by hand at ({p.x_mm:.1f}, {p.y_mm:.1f}) mm, "
                     f"heading {p.heading_deg:.1f} deg.")
        else:
            o = self.table.obstacle(pid)
            self.say(f"{o.label or o.id} moved by hand.")

    def _key_down(self, key: int, mod: int) -> bool:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        p = self.pending
        actions: dict[int, Callable[[], None]] = {
            pygame.K_ESCAPE: self.cancel, pygame.K_RETURN: self.confirm, pygame.K_KP_ENTER: self.confirm,
            pygame.K_TAB: self.mirror, pygame.K_m: self.mirror, pygame.K_v: self.toggle_reverse,
            pygame.K_s: self.cycle_slide, pygame.K_t: self.toggle_hand_tool,
            pygame.K_EQUALS: lambda: self.set_gear(+1), pygame.K_PLUS: lambda: self.set_gear(+1),
            pygame.K_KP_PLUS: lambda: self.set_gear(+1), pygame.K_PAGEUP: lambda: self.set_gear(+1),
            pygame.K_MINUS: lambda: self.set_gear(-1), pygame.K_KP_MINUS: lambda: self.set_gear(-1),
            pygame.K_PAGEDOWN: lambda: self.set_gear(-1),
        }
        if key in (pygame.K_LSHIFT, pygame.K_RSHIFT):
            self.shift_held = True
        elif ctrl and key == pygame.K_z:
            self.undo()
        elif key in actions:
            actions[key]()
        elif key in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET, pygame.K_0) and p is not None:
            step = {pygame.K_LEFTBRACKET: -SPIN_STEP_DEG, pygame.K_RIGHTBRACKET: SPIN_STEP_DEG}.get(key)
            self.set_spin(p.move.spin_deg + step if step is not None else 0.0)
        elif key in (pygame.K_q, pygame.K_e) and self.hand is not None and self.hand.layer is not None:
            self.hand.layer.rotate_by(ROTATE_KEY_DEG if key == pygame.K_q else -ROTATE_KEY_DEG)
        elif pygame.K_1 <= key <= pygame.K_9:
            self._shortcut(key - pygame.K_1)
        else:
            return False
        return True

    def _shortcut(self, index: int) -> None:
        cells = self.tray_cells()
        if index >= len(cells):
            return
        if self.selected is None:
            self.say("Select a car first (click it).")
            return
        template = cells[index].template
        if self.refuses_unpermitted and not self.controller.manoeuvre(self.table, self.selected, template).permitted:
            label = self.ctx.template_set.template(template).label
            self.say(f"{label} not permitted in gear {self.table.vehicle(self.selected).gear} (p.18)")
            return
        self.attach(self.selected, template)

    # ================================================================ files
    def unsaved_work(self) -> str:
        """What would be lost without a save ("" when the table is as opened or saved)."""
        if self.table is self.saved_table:
            return ""
        return f"The {self.title.lower()}'s changes are not saved to a rulings file."

    def save_rulings(self, path: Path, confirmed: bool = False) -> bool:
        """Write the situation and the current question as a rulings file (atomic; an existing file keeps its
        comments); Save writes there from now on. Another existing file than the one opened is only written when
        ``confirmed`` (the Save dialog asked) or on a second call."""
        path = Path(path)
        source = self.scenario.source
        opened = Path(source).resolve() if source not in ("", "<string>") else None
        if path.exists() and path.resolve() != opened and self._overwrite_ok != path and not confirmed:
            self._overwrite_ok = path
            self.say(f"{path} exists: press Ctrl+S again to write the situation into it (its comments are kept).")
            return False
        self._overwrite_ok = None
        p = self.pending
        try:
            save_rulings(path, self.scenario, self.table, self.question(), p.move if p else None,
                         p.vehicle_id if p else self.selected, self.shown_query())
        except OSError as exc:
            self.say(f"Could not save {path}: {exc}")
            return False
        self.rulings_path, self.saved_table = path, self.table
        self.say(f"Saved the situation to {path}.")
        return True

    def question(self) -> RulingsState:
        """The rulings question being asked (none on the free table)."""
        return RulingsState()

    def shown_query(self) -> str | None:
        """The id of the rulings file's query on screen (None on the free table)."""
        return None

    def load_rulings(self, path: Path) -> None:
        """Replace the table with a scenario or rulings file (undo brings the old one back)."""
        try:
            scenario = load_rulings_file(path)  # the table and its queries, checked as `gaslands rule` does
        except InputFileError as exc:
            self.say(str(exc).splitlines()[0])
            return
        self.box.undo_stack.append(self.table)
        fresh = Sandbox.of_scenario(scenario)
        self.box.scenario, self.box.table, self.box.statuses = scenario, fresh.table, fresh.statuses
        self.pending = None
        self.box.selected = None
        self.ctx.canvas.show_table(scenario.table)
        self.saved_table = self.table
        self.rulings_path = Path(path) if scenario.spec.query else None
        self.loaded(scenario)
        self.say(f"Loaded {path}.")

    def loaded(self, scenario: Scenario) -> None:
        """A scenario or rulings file was loaded onto the table: a rulings file's question opens the rulings mode."""
        if scenario.spec.query and self.ctx.ask_rulings is not None:
            self.ctx.ask_rulings(scenario.spec.query)

    # ================================================================ update
    def update(self, dt: float) -> None:
        """Advance the drive animation and the hand layer by ``dt`` seconds."""
        if self.animation is not None:
            self.animation.elapsed += dt
            if self.animation.elapsed >= self.animation.duration:
                self._finish_animation()
        if self.hand is not None and self.hand.layer is not None:
            self.hand.layer.step(dt)

    # ================================================================ panel layout
    def headline_lines(self) -> list[str]:
        """The panel's headline, wrapped to at most two lines."""
        origin = f" ({self.box.origin})" if self.box.origin else ""
        return headline(self.controller.headline(self.table) + origin, self.ctx.layout.panel[2] - 24)

    def card_rects(self) -> list[tuple[str, Rect]]:
        """Where each vehicle's dashboard card is in the panel."""
        x, y, w, h = self.ctx.layout.panel
        top = y + 44 + (len(self.headline_lines()) - 1) * HEADLINE_STEP
        ids = [v.id for v in self.table.vehicles]
        return card_rects((x + 8, top, w - 16, int(h * 0.42)), ids, CARD_HEIGHT)

    def options_top(self) -> int:
        """Where the move options start, under the cards."""
        rects = self.card_rects()
        return (rects[-1][1][1] + rects[-1][1][3] if rects else self.ctx.layout.panel[1] + 44) + 10

    def spin_slider(self) -> Slider | None:
        """The Spin slider of the pending move (None without one)."""
        if self.pending is None or self.animation is not None:
            return None
        x, _, w, _ = self.ctx.layout.panel
        return Slider((x + 20, self.options_top() + 122, w - 40, 16), -SPIN_LIMIT_DEG, SPIN_LIMIT_DEG,
                      self.pending.move.spin_deg)

    def panel_buttons(self) -> list[Button[Command]]:
        """The side panel's buttons: gear on the selected card, the pending move's options."""
        out: list[Button[Command]] = []
        for vid, rect in self.card_rects():
            if vid == self.selected:
                x, y, w, _ = rect
                out.append(Button((x + w - 64, y + 25, 28, 20), "-", lambda: self.set_gear(-1)))
                out.append(Button((x + w - 33, y + 25, 28, 20), "+", lambda: self.set_gear(+1)))
        px = self.ctx.layout.panel[0]
        p = self.pending
        if p is not None and self.animation is None:
            m = p.move
            row = self.options_top() + 30
            may_reverse = m.reverse or self.controller.can_move(self.table, p.vehicle_id,
                                                                replace(m, reverse=True)).allowed
            slide = "Slide: off" if not m.slide else f"Slide: {m.slide_facing or 'on'}"
            out += [Button((px + 12, row, 110, 26), "Mirror (Tab)", self.mirror, enabled=m.direction is not None),
                    Button((px + 128, row, 110, 26), "Reverse (V)", self.toggle_reverse, enabled=may_reverse,
                           active=m.reverse),
                    Button((px + 244, row, 114, 26), slide + " (S)", self.cycle_slide, active=m.slide),
                    Button((px + 12, row + 34, 170, 30), "Confirm (Enter)", self.confirm),
                    Button((px + 188, row + 34, 170, 30), "Cancel (Esc)", self.cancel)]
        return out

    # ================================================================ drawing
    def dashboards(self) -> list[Dashboard]:
        """The dashboard values for every vehicle."""
        out = []
        weapons = load_weapons()
        for v in self.table.vehicles:
            vtype = self.types.get(v.type)
            st = self.box.statuses.get(v.id) or VehicleStatus(0, 1, 1)
            team = next((p.name or p.id for p in self.scenario.spec.player if p.id == v.player), v.player or "")
            try:
                spec_weapons = self.scenario.vehicle_spec(v.id).weapons
            except KeyError:
                spec_weapons = []
            wtext = ", ".join(f"{weapons[w.type].name if w.type in weapons else w.type} ({w.arc})"
                              for w in spec_weapons)
            out.append(Dashboard(v.id, self.vehicle_name(v.id), team, self.vehicle_colour(v.id),
                                 vtype.name if vtype else v.type, v.gear, vtype.max_gear if vtype else 6,
                                 st.hazards, st.hull, st.hull_max, wtext, st.note))
        return out

    def draw(self, surface: pygame.Surface) -> None:
        """The table, the tray, the side panel and the tool in the top bar."""
        draw.text(surface, self.top_line(), TOP_INFO, 18, draw.TEXT_DIM)
        self.draw_table(surface)
        self.tools.draw(surface)
        self.draw_tray(surface)
        self.draw_panel(surface)
        if self.template_drag is not None:
            self._draw_floating_template(surface)

    def top_line(self) -> str:
        """The top bar's line: the tool in hand."""
        return f"tool: {'Hand' if self.hand_tool or self.shift_held else 'Drive'} (T)"

    def draw_table(self, surface: pygame.Surface) -> None:
        """The table with its pieces, the pending move's preview and the template being dragged."""
        canvas = self.ctx.canvas
        canvas.clip(surface)
        table = self.live_table()
        self.labels = LabelBoard(pygame.Rect(canvas.rect).inflate(-4, -4))
        draw.draw_table(surface, self.view, table, self.labels)
        under = canvas.overlay(surface)
        outcome = self.outcome() if self.animation is None else None
        self.draw_under(under, table, outcome)
        surface.blit(under, (0, 0))
        overlay, labels = canvas.overlay(surface), canvas.overlay(surface)
        if self.animation is not None:
            self._draw_outcome(overlay, self.animation.outcome, labels, faint=True)
        if outcome is not None:
            self._draw_outcome(overlay, outcome, labels)
        dragged = self._drag_preview()
        if dragged is not None:
            self._draw_outcome(overlay, dragged, labels)
        self.draw_over(overlay, table, outcome)
        surface.blit(overlay, (0, 0))
        self._draw_vehicles(surface)
        self.labels.draw(surface)
        surface.blit(labels, (0, 0))
        canvas.unclip(surface)

    def draw_under(self, overlay: pygame.Surface, table: Table, outcome: MoveOutcome | None) -> None:
        """What goes under the move preview (the rulings mode draws the swept area)."""

    def draw_over(self, overlay: pygame.Surface, table: Table, outcome: MoveOutcome | None) -> None:
        """What goes over the move preview (the rulings mode draws contacts and shots)."""

    def _draw_outcome(self, overlay: pygame.Surface, outcome: MoveOutcome, labels: pygame.Surface,
                      faint: bool = False) -> None:
        v = self.live_table().vehicle(outcome.vehicle_id)
        self.ctx.canvas.draw_preview(overlay, MovePreview.of_outcome(outcome), v, self.vehicle_colour(v.id), faint,
                                     labels)

    def _drag_preview(self) -> MoveOutcome | None:
        drag = self.template_drag
        if drag is None or not self.view.contains_px(drag.pos):
            return None
        target = self.ctx.canvas.drop_target(self.table, drag.pos)
        if target is None:
            return None
        direction = self.ctx.canvas.side_of(self.table.vehicle(target), drag.pos, drag.mirrored)
        move = Move(drag.template, direction if self.turns(drag.template) else None)
        try:
            return preview_move(self.live_table(), target, move, self.ctx.template_set)
        except (MoveSpecError, KeyError):
            return None

    def _draw_vehicles(self, surface: pygame.Surface) -> None:
        anim = self.animation
        for v in self.live_table().vehicles:
            pose: Pose | None = None
            if anim is not None and anim.vehicle_id == v.id:
                t = _ease(anim.elapsed / anim.duration)
                pose = anim.path.pose_at(t * anim.path.total)
            draw.draw_vehicle(surface, self.view, v, self.vehicle_colour(v.id), self.vehicle_name(v.id),
                              selected=v.id == self.selected, pose=pose, labels=self.labels)
        if self.hand is not None and self.hand.layer is not None and not self.is_vehicle(self.hand.piece_id):
            outline = self.live_table().obstacle(self.hand.piece_id).polygon
            draw.outline_shape(surface, self.view, outline, draw.SELECT, 3)

    def _draw_floating_template(self, surface: pygame.Surface) -> None:
        drag = self.template_drag
        assert drag is not None
        if self.ctx.canvas.drop_target(self.table, drag.pos) is not None and self.view.contains_px(drag.pos):
            return
        tray.draw_floating(surface, self.ctx.template_set, drag.template, drag.pos)

    def draw_tray(self, surface: pygame.Surface) -> None:
        """The tray, each template marked for the selected car's gear (p.17-18)."""
        labels = None
        if self.selected is not None:
            labels = {c.template: manoeuvre_label(self.controller.manoeuvre(self.table, self.selected, c.template))
                      for c in self.tray_cells()}
        tray.draw_tray_area(surface, self.ctx.template_set, self.tray_cells(), self.ctx.layout.tray, labels,
                            self.template_drag.template if self.template_drag else None, self.ctx.mouse_pos)
        if self.selected is not None and self.is_vehicle(self.selected):
            v = self.table.vehicle(self.selected)
            tray.draw_caption(surface, self.ctx.layout.tray,
                              f"Templates for: {self.vehicle_name(v.id)} in gear {v.gear}")

    def draw_panel(self, surface: pygame.Surface) -> None:
        """Headline, dashboards, the pending move's options (or a hint), the buttons."""
        rect = pygame.Rect(self.ctx.layout.panel)
        draw_panel_head(surface, rect, self.headline_lines(), self.dashboards(), self.card_rects(), self.selected)
        y = self.options_top()
        if self.pending is not None and self.animation is None:
            self._draw_move_options(surface, rect, y)
        else:
            self.draw_hint(surface, rect, y)
        for b in self.panel_buttons():
            draw_button(surface, b, 17)

    def draw_hint(self, surface: pygame.Surface, rect: pygame.Rect, y: int) -> None:
        """What to do when no template is on a car."""
        hint = ("Select a car, then drag a template onto it." if self.selected is None
                else "Drag a template from the tray onto the car,")
        draw.text(surface, hint, (rect.left + 12, y + 6), 18, draw.TEXT_DIM)
        if self.selected is not None:
            draw.text(surface, "or press 1-9.  +/- change gear.", (rect.left + 12, y + 26), 18, draw.TEXT_DIM)

    def _draw_move_options(self, surface: pygame.Surface, rect: pygame.Rect, y: int) -> None:
        p = self.pending
        assert p is not None
        word = manoeuvre_label(self.controller.manoeuvre(self.table, p.vehicle_id, p.move.template))
        draw.text(surface, p.title(self.ctx.template_set.template(p.move.template).label), (rect.left + 12, y + 4),
                  22, draw.SELECT)
        draw.text(surface, word, (rect.right - 12, y + 6), 18, (15, 15, 15), "topright",
                  backing=draw.PERMISSION_COLOURS[word])
        s = self.spin_slider()
        if s is not None:
            draw_slider(surface, s, f"Spin {p.move.spin_deg:+.0f} deg  ([ ] keys, 0 resets)")
        out = self.outcome()
        msg = self._outcome_error
        if out is not None and not msg:
            f = out.final
            msg = f"ends at ({f.x_mm:.1f}, {f.y_mm:.1f}) mm, heading {f.heading_deg:.1f}"
            if out.interrupted:
                msg = "Interrupted: " + msg
        draw.text(surface, msg[:60], (rect.left + 12, y + 146), 16,
                  draw.INTERRUPT if out and out.interrupted else draw.TEXT_DIM)


def headline(text: str, width_px: int, size: int = 18) -> list[str]:
    """``text`` wrapped to at most two lines of ``width_px``; the second ends in "..." if cut."""
    lines = game_panel.wrap(text, size, width_px)
    if len(lines) > 2:
        last = " ".join(lines[1:])
        while draw.font(size).size(last + "...")[0] > width_px and len(last) > 1:
            last = last[:-1]
        lines = [lines[0], last.rstrip(" ,") + "..."]
    return lines


def draw_panel_head(surface: pygame.Surface, rect: pygame.Rect, lines: Sequence[str], boards: Sequence[Dashboard],
                    cards: Sequence[tuple[str, Rect]], selected: str | None) -> None:
    """The side panel's background, its headline, "Vehicles" and one dashboard card per vehicle."""
    pygame.draw.rect(surface, draw.PANEL, rect)
    pygame.draw.line(surface, draw.PANEL_EDGE, rect.topleft, rect.bottomleft, 2)
    for i, line in enumerate(lines):
        draw.text(surface, line, (rect.left + 12, rect.top + 8 + i * HEADLINE_STEP), 18, draw.TEXT_DIM)
    draw.text(surface, "Vehicles", (rect.left + 12, rect.top + 26 + (len(lines) - 1) * HEADLINE_STEP), 17,
              draw.TEXT_DIM)
    by_id = {d.vehicle_id: d for d in boards}
    for vid, r in cards:
        if vid in by_id:
            draw_card(surface, by_id[vid], r, vid == selected)
