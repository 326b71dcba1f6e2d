"""The game mode: a hot-seat game under the full rules, every answer read from the engine's typed prompt.

The panel on the right shows the prompt as buttons, dice and a slider
(:mod:`simulator.ui.game_panel`); each click runs a typed panel action
(:mod:`simulator.ui.panel_actions`) on the :class:`~simulator.ui.game_controller.GameController`.
The template of a move is put on the car the same way as on the free table
(drag it from the tray, or 1-9; Tab mirrors, V reverses when the prompt allows
it) and Enter chooses it. A facing (Spin, Pivot, Lose Control, Piledriver) is
chosen by dragging round the car or with the slider, over the range the prompt
gives. What the table shows comes from the prompt (the templates' permissions,
the Slide endings before Done, targets in range, open grid slots) and from the
events of the last step (:mod:`simulator.ui.game_scene`). Nothing here checks a
rule, reads log text, or reaches behind the referee's public protocol.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import assert_never

import pygame
from shapely.geometry import Point

from simulator.gaslands.decisions import Activate, Attack, Deploy
from simulator.gaslands.events import Collided
from simulator.gaslands.prompts import (
    ActivatePrompt,
    AttacksPrompt,
    DeclarePrompt,
    DeployPrompt,
    Ending,
    LoseControlPrompt,
    PivotPrompt,
    PushItPrompt,
    ReactPrompt,
    ShiftsPrompt,
    SkidPrompt,
    SlideFacingPrompt,
    SpinPrompt,
    SwingTrailerPrompt,
    TeleportPrompt,
    TemplatePrompt,
)
from simulator.gaslands.referee import MovePlan, MoveReport
from simulator.gaslands.round import activation_order
from simulator.geometry.articulated import hitch_point, rig_centre, rotated
from simulator.geometry.placement import Move, MoveSpecError, place
from simulator.geometry.pose import footprint
from simulator.geometry.table import Table, VehiclePiece
from simulator.scenario.loader import Scenario
from simulator.ui import draw, game_panel, scenario_view, tray
from simulator.ui.camera import FollowCamera, toggle_follow
from simulator.ui.canvas import SLIDE_COLOUR, vehicle_ids
from simulator.ui.controller import manoeuvre_label
from simulator.ui.dashboard import Dashboard, card_rects
from simulator.ui.event_log import EventLog, draw_log
from simulator.ui.game_controller import GameController
from simulator.ui.game_scene import (
    HOVER_PX,
    CollisionMark,
    GameScene,
    badge_layout,
    collision_lines,
    damage_after,
    draw_tooltip,
    recent,
)
from simulator.ui.labels import LabelBoard
from simulator.ui.layout import TOP_INFO
from simulator.ui.modes import Context, HelpLines, TopButton
from simulator.ui.modes.free_table import HEADLINE_STEP, draw_panel_head, headline
from simulator.ui.outcome import MovePreview
from simulator.ui.panel_actions import (
    Decide,
    PanelAction,
    SetSpot,
    SetTurn,
    TemplateAction,
    ToggleAttack,
    ToggleSeat,
)
from simulator.ui.pending import Pending, TemplateDrag
from simulator.ui.phase_strip import Chip, draw_strip
from simulator.ui.sandbox import Sandbox, sandbox_of_game
from simulator.ui.table_tools import HELP as TOOLS_HELP
from simulator.ui.table_tools import TableTools
from simulator.ui.view import Rect
from simulator.vocab import plural

GAME_CARD_PX = 64
GAME_PROMPT_PX = 330
"""The most the prompt panel takes; it takes what its prompt needs (at least :data:`PROMPT_MIN_PX`)."""
PROMPT_MIN_PX = 150
PROMPT_RESERVE_PX = 240
"""Room kept for the prompt when the cards are laid out (a card gets smaller before the prompt does)."""
LOG_MIN_PX = 142
"""The log keeps at least six one-line events (a title and 6 x 19 px, with margins)..."""
LOG_TIGHT_PX = 84
"""...or three when the prompt needs the room (four teams' seats and eight places to deploy at 1280x720)."""
TURN_STEP_DEG = 15.0
INSPECT = (110, 220, 255)
"""The outline of the car being inspected (a click shows it; activating is explicit)."""
FRIENDLY = (255, 170, 40)
"""The mark on a target of the attacker's own team: friendly fire is allowed (p.30), and the table says so."""

HELP: HelpLines = (
    ("Click a car", "inspect it (outlined, its card too); Enter or the panel's Activate button activates a glowing "
                    "one (p.19)"),
    ("Drag a template onto a glowing car", "activate it with that template"),
    ("Drag a template onto the car, or 1 .. 9", "its move; Tab / right click mirrors, V reverses (if allowed)"),
    ("Enter", "choose the template, or press the panel's main button (Roll, Done, Fire, Spin...)"),
    ("Panel buttons and dice", "answer the prompt: roll, Push It, click a die to cancel it with a Shift, react, shoot"),
    ("Drag round the car, or the slider", "Spin, Pivot or Lose Control to any angle the rule allows; [ ] step 15"),
    ("Click a target car (attacks)", "tick its first weapon that can fire at it; again to untick"),
    ("Click a slot on the table (grid)", "place the chosen car in that Starting Grid slot (p.126)"),
    ("Hover a collision's ? or its log line", "the dice arithmetic of both sides and the damage"),
    ("Ctrl+Z", "take back the last decision (instant: a step back in the game's history)"),
    ("Ctrl+S / Ctrl+O", "save the game / open a game or scenario (a file dialog; autosaved after every decision)"),
    ("F2", "switch between the game and a free table on its positions"),
    ("R", "the rulings mode on the game's table (R again returns, the game untouched)"),
    ("F5 .. F8", "a bot takes or gives back player 1 .. 4's seat; Space pauses the bots"),
    ("Wheel over the log", "scroll back through the game log"),
    ("Wheel / right drag / arrows", "zoom about the cursor / pan; Home fits the table"),
    ("C", "the camera follows the active car and bots' moves when zoomed in; C again: it stays put"),
)
"""The game's controls."""


class GameMode:
    """A hot-seat game in the window (see the module docstring)."""

    title = "GAME"

    def __init__(self, ctx: Context, ctl: GameController, game_path: Path | None = None) -> None:
        self.ctx = ctx
        self.ctl = ctl
        self.scene = GameScene(ctl.scenario, ctl.game.referee)
        self.game_path = game_path
        """The file the game was opened from or last saved to (None: Save asks where)."""
        self.saved_decisions = list(ctl.game.decisions)
        self.pending: Pending | None = None
        self.template_drag: TemplateDrag | None = None
        self.selected: str | None = None
        self.inspected: str | None = None
        """The car clicked to look at (outlined; activating it is explicit: Enter or the panel's button)."""
        self.log_view = EventLog()
        self.turn_held = False
        self.slider_held = False
        self.message = ""
        self.marks: list[CollisionMark] = []
        self.log_rects: list[tuple[pygame.Rect, int]] = []
        self.labels: LabelBoard | None = None
        """The table's labels in the last frame drawn (placed clear of each other, the cars and line ends)."""
        self._revision = -1
        self._preview_key: tuple[object, ...] | None = None
        self._preview: MovePreview | None = None
        self._turn_key: tuple[object, ...] | None = None
        self._turn: MoveReport | None = None
        self.tools = TableTools(ctx.canvas, ctx.template_set, lambda: self.scene.table(self.ctl.state),
                                lambda: self.ctl.state, lambda *q: self.ctl.game.referee.sight(*q), self.scene_name)
        """The tape measure and the line-of-fire check (T, L): they look, the game waits."""
        self.camera = FollowCamera(ctx.canvas)
        """Keeps the active car (or the car driving on screen) in view when zoomed in (C turns it on and off)."""
        self.refresh()
        if ctl.autosave_path is not None:
            self.message += f"  Autosaving to {ctl.autosave_path}."

    # ================================================================ Mode protocol
    @property
    def scenario(self) -> Scenario:
        """The game's scenario."""
        return self.ctl.scenario

    def status(self) -> str:
        """The status line."""
        return self.message

    def say(self, message: str) -> None:
        """Show ``message`` in the status line."""
        self.message = message

    def help_lines(self) -> HelpLines:
        """The game's controls that work now (a template only when one is chosen, a slot only on the grid...),
        then the tools'."""
        p, ctl = self.ctl.prompt, self.ctl
        person = not ctl.is_bot_turn()
        works = {
            "Drag a template onto a glowing car": isinstance(p, ActivatePrompt) and person,
            "Drag a template onto the car, or 1 .. 9": isinstance(p, TemplatePrompt) and person,
            "Drag round the car, or the slider": bool(ctl.turning()) and person,
            "Click a target car (attacks)": isinstance(p, AttacksPrompt) and person,
            "Click a slot on the table (grid)": isinstance(p, DeployPrompt) and person,
            "Ctrl+Z": bool(ctl.game.decisions),
        }
        return (*(row for row in HELP if works.get(row[0], True)), *TOOLS_HELP)

    def sandbox(self) -> Sandbox:
        """A copy of the game's table as it stands, for the free table or the rulings mode (the game is kept)."""
        rs = self.ctl.state.round
        return sandbox_of_game(self.scenario, self.ctl.state, f"the game at round {rs.round_no}, Gear Phase "
                                                             f"{rs.gear_phase}")

    def entered(self) -> None:
        """Back to the game: show it as it stands."""
        self.refresh()
        self.say("Back to the game. " + self.ctl.instruction())

    def buttons(self) -> list[TopButton]:
        """Undo and Fit (saving and opening are in the File menu)."""
        return [TopButton("Undo", self.undo, enabled=bool(self.ctl.game.decisions), width_px=60),
                TopButton("Fit", self.ctx.canvas.fit, width_px=50)]

    def unsaved_work(self) -> str:
        """What would be lost without a save ("" when the game is as saved or has no decision yet)."""
        decisions = self.ctl.game.decisions
        if not decisions or list(decisions) == self.saved_decisions:
            return ""
        where = f" (the autosave {self.ctl.autosave_path.name} keeps it)" if self.ctl.autosave_path else ""
        return f"The game has {plural(len(decisions), 'decision')} not saved to a file{where}."

    # ================================================================ state
    def refresh(self) -> None:
        """Show the game's current state: the vehicle to act, the news."""
        ctl = self.ctl
        self._revision = ctl.revision
        self.scene.scenario = ctl.scenario
        p = ctl.prompt
        if self.pending is not None and (not isinstance(p, TemplatePrompt) or self.pending.vehicle_id != p.vehicle_id):
            self.pending = None
        active = p.vehicle_id or None
        self.selected = active if active in vehicle_ids(self.scene.table(ctl.state)) else None
        if self.inspected == self.selected or self.inspected not in vehicle_ids(self.scene.table(ctl.state)):
            self.inspected = None
        self.log_view.scroll = 0
        self.say(ctl.result_text() if ctl.over() else ctl.message or ctl.instruction())

    def _after(self, changed: bool) -> None:
        """Show what an action did: the new state, or the reason it was refused."""
        if self.ctl.revision != self._revision:
            self.refresh()
        elif self.ctl.message:
            self.say(self.ctl.message)
        elif changed:
            self.say(self.ctl.instruction())

    def act(self, action: PanelAction) -> None:
        """Run a panel action (a template action is the window's own) and show the result."""
        if isinstance(action, TemplateAction):
            self.template_action(action)
            return
        self.ctl.message = ""
        self._after(self.ctl.apply(action))

    def template_action(self, action: TemplateAction) -> None:
        """Choose, mirror, reverse or take away the template on the car."""
        match action.what:
            case "choose":
                self.choose()
            case "mirror":
                self.mirror()
            case "reverse":
                self.toggle_reverse()
            case "cancel":
                self.cancel()
            case _ as unreachable:
                assert_never(unreachable)

    def choose(self) -> None:
        """Enter on a template prompt: the template on the car becomes the decision."""
        if self.pending is None:
            self.say(self.ctl.instruction())
            return
        refused = self.ctl.template_refusal(self.pending)
        if refused:
            self.say(refused)
            return
        self.ctl.message = ""
        self._after(self.ctl.decide(self.pending.decision()))

    def confirm(self) -> None:
        """Enter: the panel's main action for the prompt; activating the inspected car when it may (p.19)."""
        p = self.ctl.prompt
        if isinstance(p, ActivatePrompt) and self.inspected in p.vehicles and not self.ctl.is_bot_turn():
            self.act(Decide(Activate(self.inspected)))
            return
        action = self.ctl.primary_action()
        if action is None:
            self.say(self.ctl.instruction())
            return
        self.act(action)

    def undo(self) -> None:
        """Take back the last decision (a step back in the history)."""
        self.pending = None
        self.ctl.undo()
        self.refresh()

    def save(self, path: Path) -> bool:
        """Write the seed, the scenario and every decision to ``path`` atomically; Save writes there from now on."""
        ok = self.ctl.save(Path(path))
        if ok:
            self.game_path = Path(path)
            self.saved_decisions = list(self.ctl.game.decisions)
        self.say(self.ctl.message)
        return ok

    def load(self, path: Path) -> bool:
        """Replace the game with a saved one (replayed from its decisions); False (and why) if it cannot be read."""
        if self.ctl.load(Path(path)):
            self.pending = None
            self.game_path = Path(path)
            self.saved_decisions = list(self.ctl.game.decisions)
            self.scene = GameScene(self.ctl.scenario, self.ctl.game.referee)
            self.refresh()
            self.ctx.canvas.fit()
            return True
        self.say(self.ctl.message)
        return False

    # ================================================================ the template on the car
    def attach(self, vehicle_id: str, template: str, direction: str | None = None) -> None:
        """Put ``template`` on the active car (front edge; the rear if it was reversing and still may)."""
        p = self.ctl.prompt
        if not isinstance(p, TemplatePrompt) or p.vehicle_id != vehicle_id:
            self.say("No template to choose now. " + self.ctl.instruction())
            return
        option = p.option(template)
        turns = option.turns if option is not None else False
        keep = self.pending is not None and self.pending.move.reverse and p.reverse_allowed
        self.pending = Pending(vehicle_id, Move(template, ("left" if direction == "left" else "right") if turns
                                                else None, reverse=keep))
        refused = self.ctl.template_refusal(self.pending)
        label = self.ctx.template_set.template(template).label
        self.say(f"{refused}. Showing it anyway; Enter will refuse." if refused else
                 f"{label} on {self.ctl.name(vehicle_id)}: Enter chooses it, Tab mirrors, Esc takes it away.")

    def mirror(self) -> None:
        """Flip the template (on the car or being dragged) left <-> right."""
        if self.template_drag is not None:
            self.template_drag.mirrored = not self.template_drag.mirrored
        elif self.pending is not None and self.pending.move.direction is not None:
            self.pending = self.pending.mirrored()
            self.say(f"Mirrored: now turning {self.pending.move.direction}.")
        else:
            self.say("Nothing to mirror: drag a turning template onto the car first.")

    def toggle_reverse(self) -> None:
        """V: the template on the rear edge, when the prompt allows reversing (p.39)."""
        p = self.ctl.prompt
        if self.pending is None or not isinstance(p, TemplatePrompt):
            self.say("Drag a template onto the car first.")
            return
        if not self.pending.move.reverse and not p.reverse_allowed:
            self.say(f"No reversing now: {p.reverse_reason}")
            return
        m = self.pending.move
        self.pending = self.pending.with_move(Move(m.template, m.direction, not m.reverse))
        self.say("Reversing: the template is on the rear edge." if not m.reverse else "Driving forward.")

    def cancel(self) -> None:
        """Esc: drop a drag, take the template off the car, or stop inspecting a car."""
        if self.inspected is not None and self.template_drag is None and self.pending is None:
            self.inspected = None
            self.say(self.ctl.instruction())
        elif self.template_drag is not None:
            self.template_drag = None
            self.say("Template put back.")
        elif self.pending is not None:
            self.pending = None
            self.say("Template taken away. " + self.ctl.instruction())
        else:
            self.say(self.ctl.instruction())

    def template_open(self) -> bool:
        """Whether a template may be dragged now: a person chooses one, or activates a car first (p.19, p.22)."""
        return isinstance(self.ctl.prompt, TemplatePrompt | ActivatePrompt) and not self.ctl.is_bot_turn()

    def tray_labels(self) -> dict[str, str] | None:
        """Each template's word for the active car, from the prompt (None while a car is to be activated; empty
        when no template is chosen now)."""
        p = self.ctl.prompt
        if not isinstance(p, TemplatePrompt) or self.ctl.is_bot_turn():
            return None if self.template_open() else {}
        return {t.template: manoeuvre_label(t.manoeuvre) for t in p.templates}

    # ================================================================ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Mouse, keys, the wheel over the log, a save dropped on the window (a tool that is on sees them first)."""
        said = self.tools.handle_event(event)
        if said is not None:
            self.say(said)
            return True
        if event.type == pygame.MOUSEMOTION:
            self._motion((int(event.pos[0]), int(event.pos[1])))
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
        if event.type == pygame.MOUSEWHEEL and pygame.Rect(self.log_rect()).collidepoint(self.ctx.mouse_pos):
            self.log_view.wheel(int(event.y), len(self.ctl.game.log))
            return True
        if event.type == pygame.KEYDOWN:
            return self._key_down(event.key, event.mod)
        if event.type == pygame.DROPFILE and str(event.file).lower().endswith(".json"):
            self.load(Path(event.file))
            return True
        return False

    def _motion(self, pos: tuple[int, int]) -> None:
        if self.template_drag is not None:
            self.template_drag.pos = pos
        if self.slider_held:
            s = self.panel().slider
            if s is not None:
                self.act(SetTurn(round(s.value_at(pos[0]))))
        elif self.turn_held:
            self._turn_towards(pos)

    def _turn_towards(self, pos: tuple[int, int]) -> None:
        """The car being turned faces the pointer (the turn clamped to the prompt's range)."""
        vid = self.ctl.turning()
        if not vid:
            return
        pose = self.ctl.vehicle(vid).pose
        x, y = self.ctx.canvas.view.to_table(*pos)
        p = self.ctl.prompt
        if isinstance(p, SwingTrailerPrompt):  # the trailer trails from the hitch towards the pointer (p.119)
            hx, hy = hitch_point(pose, self.scene.table(self.ctl.state).vehicle(vid).length_mm)
            if math.hypot(x - hx, y - hy) < 5.0:
                return
            bend = math.degrees(math.atan2(hy - y, hx - x)) - pose.heading_deg
            self.act(SetTurn(round(math.remainder(bend - p.bend_deg, 360.0))))
            return
        if math.hypot(x - pose.x_mm, y - pose.y_mm) < 5.0:
            return
        facing = math.degrees(math.atan2(y - pose.y_mm, x - pose.x_mm))
        self.act(SetTurn(round(math.remainder(facing - pose.heading_deg, 360.0))))

    def _left_down(self, pos: tuple[int, int]) -> None:
        panel = self.panel()
        if panel.slider is not None and panel.slider.grabs(pos):
            self.slider_held = True
            self.act(SetTurn(round(panel.slider.value_at(pos[0]))))
            return
        action = panel.hit(pos)
        if action is not None:
            self.act(action)
            return
        if pygame.Rect(self.ctx.layout.tray).collidepoint(pos):
            self._tray_press(pos)
            return
        if not self.ctx.canvas.view.contains_px(pos):
            return
        if isinstance(self.ctl.prompt, TeleportPrompt) and not self.ctl.is_bot_turn():
            self.act(SetSpot(*self.ctx.canvas.view.to_table(*pos)))  # the Teleporter's jump (p.83-84)
            return
        if self.ctl.turning() and not self.ctl.is_bot_turn():
            self.turn_held = True
            self._turn_towards(pos)
            return
        if isinstance(self.ctl.prompt, DeployPrompt) and not self.ctl.is_bot_turn():
            slot = self.slot_at(pos)
            if slot is not None:
                self.act(Decide(Deploy(self.ctl.deploy_vehicle(), slot)))
                return
        piece = self.ctx.canvas.piece_at(self.scene.table(self.ctl.state), pos)
        if piece is not None:
            self._click_vehicle(piece)

    def _left_up(self, pos: tuple[int, int]) -> None:
        self.slider_held = self.turn_held = False
        drag, self.template_drag = self.template_drag, None
        if drag is None:
            return
        table = self.scene.table(self.ctl.state)
        target = self.ctx.canvas.drop_target(table, pos)
        if target is None:
            self.say("Drop the template on a car.")
            return
        if isinstance(self.ctl.prompt, ActivatePrompt):  # a template dropped on a car activates it first (p.19)
            self.ctl.message = ""
            if not self.ctl.click_vehicle(target):
                self.say(self.ctl.message)
                return
            self.refresh()
        self.attach(target, drag.template, self.ctx.canvas.side_of(table.vehicle(target), pos, drag.mirrored))

    def slot_at(self, pos: tuple[int, int]) -> int | None:
        """The open Starting Grid slot (drawn as a ghost) under a screen point, for the car being placed."""
        vid = self.ctl.deploy_vehicle()
        if not vid:
            return None
        v = self.ctl.vehicle(vid)
        point = Point(*self.ctx.canvas.view.to_table(*pos))
        for slot, pose in self.ctl.grid_previews().items():
            if footprint(pose, v.length_mm, v.width_mm).distance(point) <= self.ctx.canvas.view.px_to_mm(3.0):
                return slot
        return None

    def _click_vehicle(self, vehicle_id: str) -> None:
        """A click shows a car (inspects it); activating is explicit (Enter, the panel's button, a template)."""
        self.ctl.message = ""
        p = self.ctl.prompt
        name = self.ctl.name(vehicle_id)
        if isinstance(p, ActivatePrompt):
            self.inspected = vehicle_id
            refused = self.ctl.refusal_to_select(vehicle_id)
            self.say(f"Inspecting {name}: {refused}" if refused else
                     f"Inspecting {name}: Enter or the panel's Activate {name} activates it (p.19).")
            return
        if isinstance(p, AttacksPrompt) and not self.ctl.is_bot_turn():
            options = [Attack(o.mount, o.target) for o in self.ctl.attack_options() if o.target == vehicle_id]
            if options:  # a click on a target ticks its first weapon, or unticks the one ticked
                ticked = next((a for a in options if a in self.ctl.draft.attacks), None)
                self.act(ToggleAttack(ticked or options[0]))
                return
        self.inspected = vehicle_id if vehicle_id != self.selected else None
        refused = self.ctl.refusal_to_select(vehicle_id)
        self.say((f"Inspecting {name}. " if self.inspected else "") + (refused or self.ctl.instruction()))

    def _tray_press(self, pos: tuple[int, int]) -> None:
        cell = tray.cell_at(tray.layout(self.ctx.template_set, self.ctx.layout.tray), pos)
        if cell is None:
            return
        if not self.template_open():
            self.say("No template to choose now. " + self.ctl.instruction())
            return
        p = self.ctl.prompt
        if isinstance(p, TemplatePrompt):
            option = p.option(cell.template)
            if option is None or not option.permitted:
                label = self.ctx.template_set.template(cell.template).label
                why = f": {option.reason} ({option.page})" if option is not None else ""
                self.say(f"{label} is not permitted now{why}")
                return
        self.template_drag = TemplateDrag(cell.template, pos)
        self.say("Drop the template on the car (it snaps to the front edge). Right click mirrors, Esc cancels.")

    def _key_down(self, key: int, mod: int) -> bool:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        keys: dict[int, Callable[[], None]] = {
            pygame.K_ESCAPE: self.cancel, pygame.K_RETURN: self.confirm, pygame.K_KP_ENTER: self.confirm,
            pygame.K_TAB: self.mirror, pygame.K_m: self.mirror, pygame.K_v: self.toggle_reverse,
            pygame.K_SPACE: self._pause_bots,
            pygame.K_t: lambda: self.say(self.tools.toggle("tape")),
            pygame.K_l: lambda: self.say(self.tools.toggle("sight")),
            pygame.K_c: self.toggle_camera,
        }
        if ctrl and key == pygame.K_z:
            self.undo()
        elif key in keys:
            keys[key]()
        elif pygame.K_F5 <= key <= pygame.K_F8:
            self.act(ToggleSeat(key - pygame.K_F5))
        elif key in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET, pygame.K_0) and self.ctl.turning():
            step = {pygame.K_LEFTBRACKET: -TURN_STEP_DEG, pygame.K_RIGHTBRACKET: TURN_STEP_DEG}.get(key)
            self.act(SetTurn(self.ctl.draft.turn_deg + step if step is not None else 0.0))
        elif pygame.K_1 <= key <= pygame.K_9:
            self._shortcut(key - pygame.K_1)
        elif key in (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_MINUS, pygame.K_KP_PLUS, pygame.K_KP_MINUS):
            self.say("In a game the gear changes by spending Shift results on the Skid Dice (p.23).")
        elif key == pygame.K_s:
            self.say("In a game Slides and Spins come from the Skid Dice (p.24) and pieces move only by the rules; "
                     "F2 opens the free table.")
        else:
            return False
        return True

    def toggle_camera(self) -> None:
        """C: the camera follows the active car, or stays where it is put (kept in the settings)."""
        self.say(toggle_follow(self.ctx.settings, "the active car"))

    def _pause_bots(self) -> None:
        self.ctl.bots_paused = not self.ctl.bots_paused
        self.say("Bots paused: Space resumes." if self.ctl.bots_paused else "Bots resume.")

    def _shortcut(self, index: int) -> None:
        cells = tray.layout(self.ctx.template_set, self.ctx.layout.tray)
        p = self.ctl.prompt
        if index >= len(cells) or not isinstance(p, TemplatePrompt) or self.ctl.is_bot_turn():
            self.say("No template to choose now. " + self.ctl.instruction())
            return
        option = p.option(cells[index].template)
        if option is None or not option.permitted:
            why = f": {option.reason} ({option.page})" if option is not None else ""
            self.say(f"{self.ctx.template_set.template(cells[index].template).label} is not permitted now{why}")
            return
        self.attach(p.vehicle_id, cells[index].template)

    # ================================================================ time
    def update(self, dt: float) -> None:
        """The camera, motions, badges and bots (a bot waits while the camera is on its way to its car)."""
        self.follow(dt)
        if self.camera.travelling and self.ctl.is_bot_turn():
            self.ctl.bot_wait = 0.0
        self.ctl.update(dt)
        if self.ctl.revision != self._revision:
            self.refresh()

    def phase_chips(self) -> list[Chip]:
        """The players in the engine's activation order (Pole Position first, p.19-20), the one offered the next
        activation marked, with their Audience Votes when the module is on (p.88)."""
        ctl = self.ctl
        state = ctl.state
        rs = state.round
        votes = ctl.game.options.audience_votes
        return [Chip(ctl.player_name(p), draw.hex_colour(ctl.player_colour(p)), p == rs.pole, p == rs.turn,
                     state.votes_of(p) if votes else None) for p in activation_order(rs)]

    def follow(self, dt: float) -> None:
        """Point the camera at the car driving on screen, else at the car the prompt is about."""
        ctl = self.ctl
        subject, point = "", None
        if ctl.anim.motions:
            m = ctl.anim.motions[0]
            pose = m.pose()
            subject, point = m.vehicle_id, (pose.x_mm, pose.y_mm)
        else:
            vid = ctl.prompt.vehicle_id
            if vid and vid in vehicle_ids(self.scene.table(ctl.state)):
                pose = ctl.vehicle(vid).pose
                subject, point = vid, (pose.x_mm, pose.y_mm)
        self.camera.update(dt, subject, point, self.ctx.settings.follow_camera)

    # ================================================================ layout
    def vehicle_screen_pos(self, vehicle_id: str) -> tuple[int, int]:
        """Screen pixel of a vehicle's centre."""
        return self.ctx.canvas.screen_pos(self.ctl.vehicle(vehicle_id).pose)

    def tray_cell_centre(self, template: str) -> tuple[int, int]:
        """Screen centre of a template's tray cell."""
        return tray.cell_centre(tray.layout(self.ctx.template_set, self.ctx.layout.tray), template)

    def headline_lines(self) -> list[str]:
        """The panel's headline: the cars still to activate in this Gear Phase (wrapped to two lines)."""
        ctl = self.ctl
        rs = ctl.state.round
        names = ", ".join(ctl.name(v) for v in ctl.qualifying_now())
        p = ctl.prompt
        if isinstance(p, DeployPrompt):
            text = f"The Starting Grid (p.126): {len(p.vehicles)} car{'s' if len(p.vehicles) != 1 else ''} of " \
                   f"{ctl.player_name(p.player)} to place; click a slot on the table"
        elif ctl.over():
            text = f"Game over after round {rs.round_no}"
        else:
            text = f"To activate in Gear Phase {rs.gear_phase}: {names or 'none'}"
        return headline(text, self.ctx.layout.panel[2] - 24)

    def card_rects(self) -> list[tuple[str, Rect]]:
        """Where each vehicle's dashboard card is."""
        x, y, w, h = self.ctx.layout.panel
        top = y + 44 + (len(self.headline_lines()) - 1) * HEADLINE_STEP
        ids = [v.id for v in self.ctl.state.vehicles]
        room = y + h - top - PROMPT_RESERVE_PX - LOG_MIN_PX - 10
        return card_rects((x + 8, top, w - 16, room), ids, GAME_CARD_PX)

    def options_top(self) -> int:
        """Where the prompt panel starts, under the cards."""
        rects = self.card_rects()
        return (rects[-1][1][1] + rects[-1][1][3] if rects else self.ctx.layout.panel[1] + 44) + 10

    def _prompt_room(self) -> int:
        """The prompt panel's height (px) when the log keeps its six lines (see :meth:`log_rect`)."""
        _, y, _, h = self.ctx.layout.panel
        return min(GAME_PROMPT_PX, y + h - LOG_MIN_PX - 6 - 8 - self.options_top())

    def panel(self) -> game_panel.Panel:
        """The prompt panel as laid out now (for drawing, clicks and tests)."""
        x, y, w, h = self.ctx.layout.panel
        top = self.options_top()
        room = self._prompt_room()
        panel = game_panel.build(self.ctl, (x, top, w, room), self.pending)
        tight = y + h - LOG_TIGHT_PX - 6 - 8 - top
        if (panel.used_px() > room or panel.hidden) and tight > room:  # the log gives up three of its lines
            panel = game_panel.build(self.ctl, (x, top, w, tight), self.pending)
        return panel

    def log_rect(self) -> Rect:
        """Where the game log is: under what the prompt needs, keeping at least six lines (three when the prompt
        needs more room)."""
        x, y, w, h = self.ctx.layout.panel
        panel = self.panel()
        used = min(max(GAME_PROMPT_PX, panel.rect[3]), max(PROMPT_MIN_PX, panel.used_px() + 8))
        keep = LOG_TIGHT_PX if panel.rect[3] > self._prompt_room() else LOG_MIN_PX
        top = min(self.options_top() + used, y + h - keep - 6)
        return (x + 6, top, w - 12, y + h - top - 6)

    def dashboards(self) -> list[Dashboard]:
        """A card for every vehicle, with ACTIVE and "to activate" from the game."""
        ctl = self.ctl
        course = ctl.game.options.course
        active = ctl.active_vehicle()
        qualifying = set(ctl.qualifying_now()) if not ctl.over() else set()

        def note(vid: str) -> str:
            if ctl.over() or not ctl.vehicle(vid).in_play:
                return ""
            return "ACTIVE" if vid == active else "to activate" if vid in qualifying else ""

        return self.scene.dashboards(ctl.state, len(course.gates) if course.death_race else None, note)

    def move_preview(self) -> MovePreview | None:
        """Where the template on the car (or the template chosen for this move) ends, as the referee says."""
        ctl = self.ctl
        p = ctl.prompt
        pending = self.pending
        if pending is None and isinstance(p, SkidPrompt | PushItPrompt | ShiftsPrompt) and not self.slide_shown():
            chosen = ctl.chosen_template()
            if chosen is not None:
                pending = Pending(p.vehicle_id, Move(chosen.template, chosen.direction, chosen.reverse))
        if pending is None:
            return None
        key = (ctl.state, pending)
        if key != self._preview_key:
            self._preview_key = key
            v = ctl.vehicle(pending.vehicle_id)
            try:
                report = ctl.game.referee.move(ctl.state, pending.vehicle_id, pending.plan())
                self._preview = MovePreview.of_report(pending.vehicle_id, pending.move, v.pose, v.length_mm,
                                                      v.width_mm, self.ctx.template_set, report)
            except (MoveSpecError, KeyError):
                self._preview = None
        return self._preview

    def slide_shown(self) -> bool:
        """Whether the table shows where an uncancelled Slide would end (p.24-26)."""
        return bool(self.ctl.slide_endings())

    # ================================================================ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """The table, the tray, the panel, the round in the top bar and a tooltip over a collision."""
        self._draw_top(surface)
        self.draw_table(surface)
        if not self.ctl.over():
            draw_strip(surface, pygame.Rect(self.ctx.canvas.rect),
                       f"Gear Phase {self.ctl.state.round.gear_phase}: activation order (p.19-20)", self.phase_chips(),
                       min(pygame.Rect(b.rect).left for b in self.tools.buttons()) - 10)
        self.tools.draw(surface)
        self.draw_tray(surface)
        self.draw_panel(surface)
        if self.template_drag is not None and not self.ctx.canvas.view.contains_px(self.template_drag.pos):
            tray.draw_floating(surface, self.ctx.template_set, self.template_drag.template, self.template_drag.pos)
        self._draw_hover(surface)

    def _draw_top(self, surface: pygame.Surface) -> None:
        ctl = self.ctl
        rs = ctl.state.round
        x = draw.text(surface, f"Round {rs.round_no}  Gear Phase {rs.gear_phase}", TOP_INFO, 18, draw.TEXT).right + 14
        if ctl.over():
            draw.text(surface, "GAME OVER", (x, TOP_INFO[1]), 18, draw.SELECT)
            return
        p = ctl.prompt
        who = ctl.player_name(p.player) + (" (bot)" if ctl.is_bot_turn() else "")
        draw.text(surface, f"{who}'s turn", (x, TOP_INFO[1]), 18, draw.shade(draw.hex_colour(ctl.player_colour(p.player)),
                                                                           1.35))

    def draw_table(self, surface: pygame.Surface) -> None:
        """The game's table, what the recent events say, and what the prompt asks about."""
        ctl, canvas = self.ctl, self.ctx.canvas
        view = canvas.view
        state = ctl.state
        table = self.scene.table(state)
        canvas.clip(surface)
        board = self.labels = LabelBoard(pygame.Rect(canvas.rect).inflate(-4, -4))
        draw.draw_table(surface, view, table, board)
        under, over = canvas.overlay(surface), canvas.overlay(surface)
        self.scene.draw_dropped(under, view, state)
        objective = ctl.game.options.objective
        colours = scenario_view.player_colours([p.colour for p in self.scenario.spec.player])
        if objective.active:
            scenario_view.draw_objectives(under, view, state, table, colours)
        self.marks = self.scene.draw_events(under, over, view, state, recent(ctl.game.log), ctl.game.log)
        self._draw_prompt(under, over)
        surface.blit(under, (0, 0))
        halos: dict[str, tuple[draw.Colour, int]] = {}
        p = ctl.prompt
        if not ctl.is_bot_turn():
            halos = {v: ((200, 200, 200), 1) for v in ctl.qualifying_now()}
            if isinstance(p, ActivatePrompt):
                halos.update({v: (draw.SELECT, 3) for v in p.vehicles})
        self.scene.draw_pieces(surface, view, state, ctl.anim, halos, self.selected, labels=board)
        if self.inspected in vehicle_ids(table):
            grown = table.vehicle(self.inspected).footprint.buffer(view.px_to_mm(7.0), join_style="mitre")
            draw.outline_shape(surface, view, grown, INSPECT, 3)
        surface.blit(over, (0, 0))
        board.draw(surface)
        self.scene.draw_badges(surface, self.badge_layout(board.rects()))
        if objective.active:
            scenario_view.draw_carried(surface, view, state, table)
            scenario_view.draw_scoreboard(surface, pygame.Rect(canvas.rect), state, objective, colours,
                                          ctl.result_text() if ctl.over() else "",
                                          view.to_screen(0.0, 0.0)[0])
        if ctl.over():
            self.scene.draw_banner(surface, pygame.Rect(canvas.rect), ctl.result_text(), ctl.standings())
        canvas.unclip(surface)

    def badge_layout(self, keep_clear: list[pygame.Rect] | None = None) -> list[tuple[pygame.Rect, str, int]]:
        """Where each car's badge goes (see :func:`~simulator.ui.game_scene.badge_layout`), clear of the labels."""
        ctl = self.ctl
        if keep_clear is None and self.labels is not None:
            keep_clear = self.labels.rects()
        return badge_layout(self.ctx.canvas.view, pygame.Rect(self.ctx.canvas.rect), self.scene.table(ctl.state),
                            ctl.anim, ctl.name, keep_clear or [], ctl.turning(), ctl.preview_pose())

    def _draw_prompt(self, under: pygame.Surface, over: pygame.Surface) -> None:
        """What the prompt asks about: the template's preview and the Slide endings, the template being dragged,
        open grid slots and targets (``under`` the pieces); the facing being chosen and the pieces of a collision
        (``over`` them)."""
        ctl, view, canvas = self.ctl, self.ctx.canvas.view, self.ctx.canvas
        p = ctl.prompt
        table = self.scene.table(ctl.state)
        ids = vehicle_ids(table)
        preview = self.move_preview()
        if preview is not None and preview.vehicle_id in ids:
            v = table.vehicle(preview.vehicle_id)
            canvas.draw_preview(under, preview, v, self.scene.colour(ctl.state, v.id), labels=over)
        self._draw_slides(under, over)
        drag = self.template_drag
        if drag is not None and isinstance(p, TemplatePrompt) and view.contains_px(drag.pos):
            target = canvas.drop_target(table, drag.pos)
            if target == p.vehicle_id:
                v = table.vehicle(target)
                option = p.option(drag.template)
                side = canvas.side_of(v, drag.pos, drag.mirrored) if option is not None and option.turns else None
                try:
                    placed = place(self.ctx.template_set, v.pose, v.length_mm, v.width_mm, Move(drag.template, side))
                    draw.fill_shape(under, view, placed.movement_polygon, draw.TEMPLATE_FILL, draw.TEMPLATE_EDGE, 2)
                except (MoveSpecError, KeyError):
                    pass  # a template the set lacks: nothing to show
        self._draw_turn(under, over, table)
        if isinstance(p, TeleportPrompt) and p.vehicle_id in ids:
            self._draw_teleport(under, over, table.vehicle(p.vehicle_id), p)
        if isinstance(p, DeployPrompt):
            vid = ctl.deploy_vehicle()
            if vid:
                waiting = ctl.vehicle(vid)
                for slot, pose in ctl.grid_previews().items():
                    draw.ghost_vehicle(under, view, pose, waiting.length_mm, waiting.width_mm, (255, 230, 120), 110)
                    draw.put_label(under, self.labels, p.label(slot), view.to_screen(pose.x_mm, pose.y_mm), 15,
                                   (255, 255, 255), (10, 10, 10, 190), priority=6)
        picked = {a.target for a in ctl.draft.attacks}
        if p.vehicle_id in ids:
            a = table.vehicle(p.vehicle_id).pose
            marked: set[str] = set()
            for o in ctl.attack_options():
                if o.target in ids:
                    t = table.vehicle(o.target).pose
                    colour = (255, 70, 60, 230) if o.target in picked else (255, 200, 200, 120)
                    draw.dashed_polyline(under, colour, [view.to_screen(a.x_mm, a.y_mm),
                                                         view.to_screen(t.x_mm, t.y_mm)],
                                         3 if o.target in picked else 1)
                    if o.friendly and o.target not in marked:  # friendly fire: say so on the car itself
                        marked.add(o.target)
                        draw.outline_shape(over, view, table.shape_of(o.target).buffer(2.0, join_style="mitre"),
                                           FRIENDLY, 3)
                        draw.text(over, "OWN TEAM", view.to_screen(t.x_mm, t.y_mm), 14, (20, 20, 20), "center",
                                  backing=FRIENDLY)
        if isinstance(p, ReactPrompt):
            for piece in (p.vehicle_id, p.other_id):
                try:
                    draw.outline_shape(over, view, table.shape_of(piece).buffer(1.5, join_style="mitre"),
                                       draw.CONTACT, 3)
                except KeyError:
                    continue  # the other piece is no longer on the table

    def turn_preview(self) -> MoveReport | None:
        """Where the Spin, Pivot or Lose Control being chosen stops, as the referee says (p.24, p.35, p.69)."""
        ctl = self.ctl
        p = ctl.prompt
        turn = ctl.draft.turn_deg
        key = (ctl.state, p, turn)
        if key != self._turn_key:
            self._turn_key = key
            referee = ctl.game.referee
            if isinstance(p, SpinPrompt | PivotPrompt):
                self._turn = referee.spin(ctl.state, p.vehicle_id, turn)
            elif isinstance(p, LoseControlPrompt):
                self._turn = referee.pivot(ctl.state, p.vehicle_id, (p.heading_deg + turn) % 360.0)
            elif isinstance(p, SwingTrailerPrompt):
                self._turn = referee.swing(ctl.state, p.vehicle_id, p.bend_deg + turn)
            else:
                self._turn = None
        return self._turn

    def _draw_teleport(self, under: pygame.Surface, over: pygame.Surface, v: VehiclePiece, p: TeleportPrompt) -> None:
        """The Experimental Teleporter (p.83-84): the reach of its range band round where it stands (dashed), and
        the car at the point clicked, white when the referee allows it there, orange when not."""
        view = self.ctx.canvas.view
        reach = footprint(p.before, v.length_mm, v.width_mm).buffer(p.max_mm)
        draw.outline_shape(over, view, reach, draw.TEMPLATE_EDGE, 2, dashed=True)
        pose = self.ctl.teleport_pose()
        if pose is None or self.ctl.draft.spot is None:
            return
        colour = draw.INTERRUPT if self.ctl.teleport_problem() else draw.GHOST
        draw.ghost_vehicle(under, view, pose, v.length_mm, v.width_mm, colour, 110, colour)
        draw.ghost_vehicle(over, view, pose, v.length_mm, v.width_mm, colour, 0, colour, dashed=True)

    def _draw_turn(self, under: pygame.Surface, over: pygame.Surface, table: Table) -> None:
        """The facing being chosen: the car turned as asked, and where the turn stops if something is in the way
        (filled under the pieces, outlined over them, so the car itself stays in view)."""
        ctl, view, canvas = self.ctl, self.ctx.canvas.view, self.ctx.canvas
        ghost = ctl.preview_pose()
        vid = ctl.turning()
        if ghost is None or vid not in vehicle_ids(table):
            return
        v = table.vehicle(vid)
        size = max(v.length_mm, v.width_mm)
        report = self.turn_preview()
        if ctl.preview_bend() is not None:
            self._draw_swing(under, over, table, v, report)
            return
        if v.has_trailer:  # a War Rig pivots about the rig's centre (p.118)
            centre = rig_centre(v.pose, v.length_mm, v.trailer_length_mm, v.bend_deg)
            ghost = rotated(v.pose, centre, ghost.heading_deg - v.pose.heading_deg)
        if report is not None and report.turned_deg is not None and abs(report.turned_deg - ctl.draft.turn_deg) > 0.5:
            draw.ghost_vehicle(over, view, ghost, v.length_mm, v.width_mm, (220, 220, 220), 25, (220, 220, 220),
                               dashed=True)
            draw.ghost_trailer(over, view, v, ghost, None, (220, 220, 220), 25, (220, 220, 220), dashed=True)
            for surface, alpha in ((under, 110), (over, 0)):
                draw.ghost_vehicle(surface, view, report.pose, v.length_mm, v.width_mm, draw.INTERRUPT, alpha,
                                   draw.INTERRUPT)
                draw.ghost_trailer(surface, view, v, report.pose, None, draw.INTERRUPT, alpha, draw.INTERRUPT)
            blockers = (*report.stopped_by, *(c.other_id for c in report.contacts))
            for piece in blockers:
                if piece in {o.id for o in table.all_obstacles} | vehicle_ids(table):
                    draw.outline_shape(over, view, table.shape_of(piece).buffer(1.5, join_style="mitre"),
                                       draw.INTERRUPT, 3)
            names = ", ".join(dict.fromkeys(self.scene_name(b) for b in blockers))
            canvas.label_over(over, report.pose, size, f"asked {ctl.draft.turn_deg:+.0f}, stops at "
                                                       f"{report.turned_deg:+.0f}" + (f" against {names}" if names else ""),
                              draw.INTERRUPT)
            return
        for surface, alpha in ((under, 90), (over, 0)):
            draw.ghost_vehicle(surface, view, ghost, v.length_mm, v.width_mm, (255, 255, 255), alpha)
            draw.ghost_trailer(surface, view, v, ghost, None, (255, 255, 255), alpha)
        canvas.label_over(over, ghost, size, f"turn {ctl.draft.turn_deg:+.0f} deg")

    def _draw_swing(self, under: pygame.Surface, over: pygame.Surface, table: Table, v: VehiclePiece,
                    report: MoveReport | None) -> None:
        """A Jackknife's Swing Trailer being chosen (p.119): the trailer ghost at the asked bend, and where the
        referee says it stops against something in its way (red, with what it hits)."""
        ctl, view, canvas = self.ctl, self.ctx.canvas.view, self.ctx.canvas
        asked = ctl.preview_bend()
        size = max(v.length_mm, v.width_mm)
        reached = report.bend_deg if report is not None else None
        if reached is not None and asked is not None and abs(reached - asked) > 0.5:
            draw.ghost_trailer(over, view, v, v.pose, asked, (220, 220, 220), 25, (220, 220, 220), dashed=True)
            for surface, alpha in ((under, 110), (over, 0)):
                draw.ghost_trailer(surface, view, v, v.pose, reached, draw.INTERRUPT, alpha, draw.INTERRUPT)
            assert report is not None
            blockers = (*report.stopped_by, *(c.other_id for c in report.contacts))
            names = ", ".join(dict.fromkeys(self.scene_name(b) for b in blockers))
            canvas.label_over(over, v.pose, size, f"trailer stops at {reached:+.0f}"
                                                  + (f" against {names}" if names else ""), draw.INTERRUPT)
            return
        for surface, alpha in ((under, 90), (over, 0)):
            draw.ghost_trailer(surface, view, v, v.pose, asked, (255, 255, 255), alpha)
        canvas.label_over(over, v.pose, size, f"trailer bend {asked or 0.0:+.0f} deg")

    def scene_name(self, piece_id: str) -> str:
        """A piece's name: a vehicle's from the scenario, terrain's from the referee."""
        try:
            return self.ctl.vehicle(piece_id).label
        except KeyError:
            return self.ctl.game.referee.name_of(piece_id)

    def _draw_slides(self, under: pygame.Surface, over: pygame.Surface) -> None:
        """Where an uncancelled Slide ends, drawn with the Slide template, before Done or the facing (p.24-26);
        on the Shifts prompt also where the move ends if the Slide is cancelled."""
        ctl, view = self.ctl, self.ctx.canvas.view
        p = ctl.prompt
        endings = ctl.slide_endings()
        if not endings or p.vehicle_id not in vehicle_ids(self.scene.table(ctl.state)):
            return
        v = ctl.vehicle(p.vehicle_id)
        plans: list[MovePlan | None] = [None] * len(endings)
        if isinstance(p, ShiftsPrompt):
            plans = list(p.plans[1:1 + len(endings)])
            plain = p.plain_ending
            if plain is not None:
                draw.ghost_vehicle(under, view, plain.pose, v.length_mm, v.width_mm, (220, 220, 220), 30,
                                   (220, 220, 220), dashed=True)
                px, py = view.to_screen(plain.pose.x_mm, plain.pose.y_mm)
                draw.text(over, "here if the Slide is cancelled", (px + view.mm_to_px(v.length_mm) / 2 + 8, py), 15,
                          (220, 220, 220), "midleft", backing=(10, 10, 10, 190))
        elif isinstance(p, SlideFacingPrompt):
            plans = [MovePlan(p.template, p.direction, p.reverse, True, e.side, p.slide_template) for e in endings]
        elif isinstance(p, DeclarePrompt):
            plans = list(p.plans[:len(endings)])
        for i, (ending, plan) in enumerate(zip(endings, plans, strict=True)):
            if plan is not None:
                try:
                    placed = place(self.ctx.template_set, v.pose, v.length_mm, v.width_mm,
                                   Move(plan.template, plan.direction, plan.reverse, True, plan.slide_facing,
                                        slide_template=plan.slide_template))
                    if placed.slide_polygon is not None:
                        draw.fill_shape(under, view, placed.slide_polygon, (*SLIDE_COLOUR, 45), SLIDE_COLOUR, 2)
                except (MoveSpecError, KeyError):
                    pass  # no template to draw: the ending alone is shown
            along = plan.slide_template if plan is not None else ""
            self._draw_ending(under, over, ending, v.length_mm, v.width_mm, below=i % 2 == 1, along=along)

    def _draw_ending(self, under: pygame.Surface, over: pygame.Surface, e: Ending, length_mm: float,
                     width_mm: float, below: bool, along: str = "") -> None:
        """One Slide's Final Position, named by its facing and (``along``) the straight used as its template."""
        view = self.ctx.canvas.view
        colour = draw.INTERRUPT if e.interrupted else SLIDE_COLOUR
        draw.ghost_vehicle(under, view, e.pose, length_mm, width_mm, colour, 90, colour)
        words = "Slide" + (f" along the {self.ctx.template_set.template(along).label}" if along else "") \
            + (f" facing {e.side}" if e.side else "") + (f": into {', '.join(e.meets)}" if e.meets else "")
        x, y = view.to_screen(e.pose.x_mm, e.pose.y_mm)
        reach = view.mm_to_px(max(length_mm, width_mm)) / 2 + 4
        draw.text(over, words, (x, y + reach if below else y - reach), 16, (255, 255, 255),
                  "midtop" if below else "midbottom", backing=(10, 40, 60, 210))

    def draw_tray(self, surface: pygame.Surface) -> None:
        """The tray: the templates as the prompt permits them, greyed out when no template is chosen now."""
        cells = tray.layout(self.ctx.template_set, self.ctx.layout.tray)
        tray.draw_tray_area(surface, self.ctx.template_set, cells, self.ctx.layout.tray, self.tray_labels(),
                            self.template_drag.template if self.template_drag else None, self.ctx.mouse_pos)
        p = self.ctl.prompt
        if not self.template_open():
            tray.shade_tray(surface, self.ctx.layout.tray, "Templates are chosen when a car makes its move (p.22)")
        elif isinstance(p, TemplatePrompt):
            v = self.ctl.vehicle(p.vehicle_id)
            tray.draw_caption(surface, self.ctx.layout.tray,
                              f"Templates permitted now: {self.ctl.name(v.id)} in gear {v.gear}")

    def draw_panel(self, surface: pygame.Surface) -> None:
        """Headline, dashboards, the prompt, the log."""
        rect = pygame.Rect(self.ctx.layout.panel)
        draw_panel_head(surface, rect, self.headline_lines(), self.dashboards(), self.card_rects(), self.selected)
        card = next((r for vid, r in self.card_rects() if vid == self.inspected), None)
        if card is not None:
            pygame.draw.rect(surface, INSPECT, pygame.Rect(card).inflate(4, 4), 2, border_radius=6)
        y = self.options_top()
        pygame.draw.line(surface, draw.PANEL_EDGE, (rect.left + 8, y - 4), (rect.right - 8, y - 4), 1)
        panel = self.panel()
        tumble = [self.ctl.anim.tumbling_face() for _ in panel.dice] if panel.tumbling else None
        log = self.log_rect()
        surface.set_clip(pygame.Rect(rect.left, y - 4, rect.width, log[1] - y + 2))
        game_panel.draw_panel(surface, panel, tumble)
        surface.set_clip(None)
        events, fresh = self.ctl.display_log()
        self.log_rects = draw_log(surface, log, events, self.log_view, fresh_from=fresh)

    def _draw_hover(self, surface: pygame.Surface) -> None:
        """The dice arithmetic of the collision under the pointer (its marker, or its line in the log)."""
        pos = self.ctx.mouse_pos
        log = self.ctl.game.log
        hit = next((m.event for m in self.marks if math.dist(m.pos, pos) <= HOVER_PX), None)
        if hit is None:
            index = next((i for r, i in self.log_rects if r.collidepoint(pos)), None)
            e = log[index] if index is not None and index < len(log) else None
            hit = e if isinstance(e, Collided) else None
        if hit is not None:
            draw_tooltip(surface, pos, collision_lines(hit, damage_after(log, hit)),
                         pygame.Rect(self.ctx.layout.between_bars()))

