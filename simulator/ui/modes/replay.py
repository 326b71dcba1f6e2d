"""The replay viewer (``gaslands replay SAVE.json``): a saved game step by step, with the log beside it.

The save is replayed once when it opens; every state of the game is then in
its history (:attr:`Game.history`), so stepping forward or back, playing at a
speed, or jumping to a round is a move along that list, never a replay. Each
step shows the table as that decision left it, what its events say (the path
driven, what stopped a move, the collision's dice on hover, the finish;
:mod:`simulator.ui.game_scene`), the dashboards, and the log up to that step
with the step's events lit. F2 and R open the free table and the rulings mode
on the table of the step shown; coming back finds the replay where it was.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path

import pygame

from simulator.gaslands.decisions import (
    Activate,
    ChooseTemplate,
    Decision,
    Declare,
    DeclareAttacks,
    Deploy,
    LoseControl,
    PassPole,
    Piledrive,
    Pivot,
    PushIt,
    React,
    RollSkid,
    SlideFacing,
    SpendShifts,
    SpendVotes,
    Spin,
    SwingTrailer,
    Teleport,
)
from simulator.gaslands.events import Collided, GameEvent
from simulator.gaslands.game import Entry, Game
from simulator.gaslands.prompts import DeployPrompt, GameOverPrompt, Prompt
from simulator.gaslands.state import GameState
from simulator.scenario.loader import Scenario
from simulator.ui import draw, scenario_view, tray
from simulator.ui.animation import Animator
from simulator.ui.camera import FollowCamera, toggle_follow
from simulator.ui.event_log import EventLog, draw_log
from simulator.ui.game_controller import result_line, scenario_of
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
from simulator.ui.layout import TOP_INFO
from simulator.ui.modes import Context, HelpLines, TopButton
from simulator.ui.modes.free_table import HEADLINE_STEP, draw_panel_head, headline
from simulator.ui.sandbox import Sandbox, sandbox_of_game
from simulator.ui.table_tools import HELP as TOOLS_HELP
from simulator.ui.table_tools import TableTools, Tool
from simulator.ui.view import Rect
from simulator.ui.widgets import Button, Command, button_at, draw_button
from simulator.vocab import plural

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Playback speeds: decisions per second."""
CARD_PX = 64
CONTROLS_PX = 210

HELP: HelpLines = (
    ("Right / Left  or  .  ,", "one decision forward / back"),
    ("Space", "play / pause"),
    ("+ / -", "faster / slower (0.5 to 8 decisions a second)"),
    ("Page Down / Page Up", "to the start of the next / previous round"),
    ("End / Ctrl+Home", "to the end / the start of the game"),
    ("Click the timeline or a round", "jump there"),
    ("Hover a collision's ? or its log line", "the dice arithmetic of both sides and the damage"),
    ("F2 / R", "the free table / the rulings mode on the table of this step (back returns here)"),
    ("Wheel over the log", "scroll back through the log"),
    ("Wheel / right drag / Home", "zoom / pan / fit the table"),
    ("C", "zoomed in, the camera follows the car that acts or drives; C again: it stays put"),
    *TOOLS_HELP,
)
"""The replay viewer's controls (the tape measure and line of fire look at the step shown)."""


def describe(decision: Decision | None, name: Callable[[str], str], asked: Prompt | None = None) -> str:
    """A decision in a few words (``Activate Red Car``, ``Roll 2 Skid Dice``); ``asked`` is the prompt it
    answered, whose words name a Starting Grid slot (``Rank 1, place 2``)."""
    match decision:
        case None:
            return "The start"
        case Activate(vehicle_id):
            return f"Activate {name(vehicle_id)}"
        case ChooseTemplate(template, direction, reverse):
            return (f"Template: {template.replace('_', ' ')}" + (f" {direction}" if direction else "")
                    + (" in reverse" if reverse else ""))
        case RollSkid(count):
            return f"Roll {count} Skid Dice"
        case React(reaction):
            return f"React: {reaction.value}"
        case Spin(angle_deg) | Pivot(angle_deg):
            return f"{type(decision).__name__} {angle_deg:+.0f} deg"
        case LoseControl(heading_deg):
            return f"Lose Control: heading {heading_deg:.0f}"
        case Deploy(vehicle_id, slot):
            where = asked.label(slot) if isinstance(asked, DeployPrompt) else f"slot {slot}"
            return f"Deploy {name(vehicle_id)}: {where}"
        case PushIt(reroll):
            return f"Push It: reroll {plural(len(reroll), 'Skid Die', 'Skid Dice')}" if reroll else "Keep the Skid Dice"
        case SpendShifts(spends):
            return f"Spend {plural(len(spends), 'Shift')}" if spends else "Spend no Shifts"
        case SlideFacing(side):
            return f"Slide, facing {side}"
        case DeclareAttacks(attacks, drops):
            if not attacks and not drops:
                return "No attacks"
            targets = list(dict.fromkeys(name(a.target) for a in attacks))
            words = [f"{plural(len(attacks), 'attack')} at {', '.join(targets)}"] if attacks else []
            return "; ".join(words + ([f"drop {plural(len(drops), 'weapon')}"] if drops else []))
        case PassPole(player):
            return f"Pass Pole Position to player {player + 1}"
        case SpendVotes(effects):
            return ("Spend Audience Votes: " + ", ".join(e.effect.replace("_", " ") for e in effects)) if effects \
                else "Keep the Audience Votes"
        case Declare(choice):
            return f"Answer: {choice.replace('_', ' ')}"
        case Piledrive():
            return "Piledriver: place the vehicle hit"
        case SwingTrailer(bend_deg):
            return f"Swing the trailer to {bend_deg:+.0f} deg"
        case Teleport(x_mm, y_mm):
            return f"Experimental Teleporter: jump to ({x_mm:.0f}, {y_mm:.0f})"
        case _:
            return type(decision).__name__


class ReplayMode:
    """The replay viewer (see the module docstring)."""

    title = "REPLAY"

    def __init__(self, ctx: Context, game: Game, source: Path | None = None) -> None:
        self.ctx = ctx
        self.game = game
        self.source = source
        self._scenario = scenario_of(game)
        self.scene = GameScene(self._scenario, game.referee)
        self.on_events: Callable[[Sequence[GameEvent]], object] | None = None
        """Called with a step's events when it is played forward (the window plays their sounds)."""
        self.entries: tuple[Entry, ...] = game.history.entries
        self.offsets = [0]
        for e in self.entries:
            self.offsets.append(self.offsets[-1] + len(e.events))
        self.events: list[GameEvent] = [ev for e in self.entries for ev in e.events]
        self.round_starts: dict[int, int] = {}
        for i, e in enumerate(self.entries):
            self.round_starts.setdefault(e.state.game.round.round_no, i)
        self.position = 0
        self.playing = False
        self.speed = 1.0
        self.wait = 0.0
        self.anim = Animator()
        self.camera = FollowCamera(ctx.canvas)
        """Keeps the car that acts (or drives on screen) in view when zoomed in (C turns it on and off)."""
        self.log_view = EventLog()
        self.timeline_held = False
        self.marks: list[CollisionMark] = []
        self.log_rects: list[tuple[pygame.Rect, int]] = []
        self.tools = TableTools(ctx.canvas, ctx.template_set, lambda: self.scene.table(self.state),
                                lambda: self.state, lambda *q: self.game.referee.sight(*q), self.scene.name)
        """The tape measure and the line-of-fire check (T, L) on the table of the step shown; playing stops."""
        name = source.name if source is not None else "the game"
        self.message = (f"Replaying {name}: {plural(len(self.entries) - 1, 'decision')}. Space plays, Right/Left step, "
                        "Page Up/Down jump a round. H: help.")

    # ================================================================ Mode protocol
    @property
    def scenario(self) -> Scenario:
        """The game's scenario."""
        return self._scenario

    def status(self) -> str:
        """The status line."""
        return self.message

    def say(self, message: str) -> None:
        """Show ``message`` in the status line."""
        self.message = message

    def help_lines(self) -> HelpLines:
        """The replay viewer's controls."""
        return HELP

    def sandbox(self) -> Sandbox:
        """A copy of the table at the step shown."""
        rs = self.state.round
        return sandbox_of_game(self.scenario, self.state, f"the replay at round {rs.round_no}, Gear Phase "
                                                          f"{rs.gear_phase}")

    def entered(self) -> None:
        """Back to the replay, where it was."""
        self.playing = False
        self.say(f"Back to the replay at step {self.position} of {self.last}.")

    def buttons(self) -> list[TopButton]:
        """Play or pause, Fit."""
        return [TopButton("Pause" if self.playing else "Play", self.toggle_play, width_px=64),
                TopButton("Fit", self.ctx.canvas.fit, width_px=50)]

    # ================================================================ position
    @property
    def last(self) -> int:
        """The position of the last decision."""
        return len(self.entries) - 1

    @property
    def entry(self) -> Entry:
        """The history entry shown."""
        return self.entries[self.position]

    def _per_second(self) -> str:
        """``decision a second`` at speed 1, else ``decisions a second``."""
        return "decision a second" if self.speed == 1 else "decisions a second"

    def asked(self) -> Prompt | None:
        """The prompt the step's decision answered (the previous step's; None at the start)."""
        return self.entries[self.position - 1].state.prompt if self.position > 0 else None

    @property
    def state(self) -> GameState:
        """The game's table at the step shown."""
        return self.entry.state.game

    def seek(self, position: int, animate: bool = False) -> None:
        """Show the step at ``position`` (clamped to the game); ``animate``: drive the step's moves on screen."""
        position = min(max(position, 0), self.last)
        if position == self.position:
            return
        before = self.state
        self.position = position
        self.log_view.scroll = 0
        if animate:
            self.anim.play(before, self.state, self.entry.events)
            if self.on_events is not None:
                self.on_events(self.entry.events)
        else:
            self.anim.clear()
            self.anim.flash(self.entry.events)
        rs = self.state.round
        self.say(f"Step {position} of {self.last}: round {rs.round_no}, Gear Phase {rs.gear_phase}. "
                 f"{describe(self.entry.decision, self.scene.name, self.asked())}.")

    def step(self, by: int) -> None:
        """``by`` decisions forward (negative: back); forward steps are animated."""
        self.seek(self.position + by, animate=by == 1)
        if self.position == self.last and by > 0:
            self.playing = False

    def round_of(self, position: int) -> int:
        """The round a step is in."""
        return self.entries[position].state.game.round.round_no

    def jump_round(self, round_no: int) -> None:
        """To the first step of ``round_no`` (the nearest round there is)."""
        rounds = sorted(self.round_starts)
        best = min(rounds, key=lambda r: abs(r - round_no))
        self.playing = False
        self.seek(self.round_starts[best])

    def jump_rounds(self, by: int) -> None:
        """To the start of the next (``by`` = 1) or previous (-1) round; back from mid-round goes to its start."""
        here = self.round_of(self.position)
        if by < 0 and self.position > self.round_starts[here]:
            self.jump_round(here)
        else:
            self.jump_round(here + by)

    def toggle_play(self) -> None:
        """Space: play from here (from the start if at the end), or pause."""
        if not self.playing and self.position == self.last:
            self.seek(0)
        self.playing = not self.playing
        self.wait = 0.0
        self.say(f"Playing at {self.speed:g} {self._per_second()} (+/- to change)." if self.playing else "Paused.")

    def change_speed(self, by: int) -> None:
        """+/-: the next speed up or down."""
        i = min(max(SPEEDS.index(self.speed) + by, 0), len(SPEEDS) - 1)
        self.speed = SPEEDS[i]
        self.anim.move_s = min(0.7, 0.8 / self.speed)
        self.say(f"Speed: {self.speed:g} {self._per_second()}.")

    # ================================================================ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Keys, the timeline and the buttons, the wheel over the log (a tool that is on sees them first)."""
        said = self.tools.handle_event(event)
        if said is not None:
            self.playing = False
            self.say(said)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            pos = (int(event.pos[0]), int(event.pos[1]))
            b = button_at(self.panel_buttons(), pos)
            if b is not None:
                b.action()
                return True
            if pygame.Rect(self.timeline_rect()).inflate(0, 12).collidepoint(pos):
                self.timeline_held = True
                self._seek_timeline(pos[0])
                return True
            return pygame.Rect(self.ctx.layout.panel).collidepoint(pos)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.timeline_held = False
            return True
        if event.type == pygame.MOUSEMOTION and self.timeline_held:
            self._seek_timeline(int(event.pos[0]))
            return True
        if event.type == pygame.MOUSEWHEEL and pygame.Rect(self.log_rect()).collidepoint(self.ctx.mouse_pos):
            self.log_view.wheel(int(event.y), self.offsets[self.position + 1])
            return True
        if event.type == pygame.KEYDOWN:
            return self._key_down(event.key, event.mod)
        return False

    def _seek_timeline(self, x_px: int) -> None:
        x, _, w, _ = self.timeline_rect()
        self.playing = False
        self.seek(round(min(max((x_px - x) / max(w, 1), 0.0), 1.0) * self.last))

    def _key_down(self, key: int, mod: int) -> bool:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        keys: dict[int, Callable[[], None]] = {
            pygame.K_RIGHT: lambda: self.step(1), pygame.K_PERIOD: lambda: self.step(1),
            pygame.K_LEFT: lambda: self.step(-1), pygame.K_COMMA: lambda: self.step(-1),
            pygame.K_SPACE: self.toggle_play, pygame.K_PAGEDOWN: lambda: self.jump_rounds(1),
            pygame.K_PAGEUP: lambda: self.jump_rounds(-1), pygame.K_END: lambda: self.seek(self.last),
            pygame.K_EQUALS: lambda: self.change_speed(1), pygame.K_PLUS: lambda: self.change_speed(1),
            pygame.K_KP_PLUS: lambda: self.change_speed(1), pygame.K_MINUS: lambda: self.change_speed(-1),
            pygame.K_KP_MINUS: lambda: self.change_speed(-1), pygame.K_c: self.toggle_camera,
            pygame.K_t: lambda: self._tool("tape"), pygame.K_l: lambda: self._tool("sight"),
        }
        if ctrl and key == pygame.K_HOME:
            self.seek(0)
        elif key in keys:
            keys[key]()
        else:
            return False
        return True

    def _tool(self, tool: Tool) -> None:
        """T / L: the tape measure or the line-of-fire check on (playing stops) or off."""
        self.playing = False
        self.say(self.tools.toggle(tool))

    # ================================================================ time
    def toggle_camera(self) -> None:
        """C: the camera follows the car that acts, or stays where it is put (kept in the settings)."""
        self.say(toggle_follow(self.ctx.settings, "the car that acts"))

    def follow(self, dt: float) -> None:
        """Point the camera at the car driving on screen, else at the car the step's prompt is about."""
        subject, point = "", None
        if self.anim.motions:
            m = self.anim.motions[0]
            pose = m.pose()
            subject, point = m.vehicle_id, (pose.x_mm, pose.y_mm)
        else:
            vid = self.entry.state.prompt.vehicle_id
            at = next((v.pose for v in self.state.vehicles if v.id == vid), None) if vid else None
            if at is not None:
                subject, point = vid, (at.x_mm, at.y_mm)
        self.camera.update(dt, subject, point, self.ctx.settings.follow_camera)

    def update(self, dt: float) -> None:
        """Play: one decision every 1/speed seconds, once the last one has been driven on screen (and the camera
        has reached the car, when zoomed in)."""
        self.follow(dt)
        self.anim.update(dt)
        if not self.playing:
            return
        self.wait += dt
        if self.wait >= 1.0 / self.speed and not self.anim.busy and not self.camera.travelling:
            self.wait = 0.0
            self.step(1)

    # ================================================================ layout
    def card_rects(self) -> list[tuple[str, Rect]]:
        """Where each vehicle's dashboard card is."""
        x, y, w, h = self.ctx.layout.panel
        top = y + 44 + (len(self.headline_lines()) - 1) * HEADLINE_STEP
        ids = [v.id for v in self.state.vehicles]
        card = int(min(CARD_PX, max(30, h * 0.32 / max(len(ids), 1) - 5)))
        return [(vid, (x + 8, top + i * (card + 5), w - 16, card)) for i, vid in enumerate(ids)]

    def controls_top(self) -> int:
        """Where the playback controls start."""
        rects = self.card_rects()
        return (rects[-1][1][1] + rects[-1][1][3] if rects else self.ctx.layout.panel[1] + 44) + 10

    def headline_lines(self) -> list[str]:
        """What is replayed."""
        name = self.source.name if self.source is not None else "a game"
        return headline(f"Replay of {name}: {self.scenario.name}, seed "
                        f"{self.game.origin.seed if self.game.origin else '?'}", self.ctx.layout.panel[2] - 24)

    def timeline_rect(self) -> Rect:
        """The timeline: every decision from the start to the end, rounds marked."""
        x, _, w, _ = self.ctx.layout.panel
        return (x + 20, self.controls_top() + 74, w - 40, 10)

    def panel_buttons(self) -> list[Button[Command]]:
        """Step, play, round jumps, speeds, and one button per round."""
        x, _, w, _ = self.ctx.layout.panel
        y = self.controls_top() + 30
        bw = (w - 24 - 4 * 5) // 5
        row: list[tuple[str, Command, bool]] = [
            ("<< Round", lambda: self.jump_rounds(-1), self.position > 0),
            ("< Step", lambda: self.step(-1), self.position > 0),
            ("Pause" if self.playing else "Play", self.toggle_play, True),
            ("Step >", lambda: self.step(1), self.position < self.last),
            ("Round >>", lambda: self.jump_rounds(1), self.round_of(self.position) < max(self.round_starts)),
        ]
        out = [Button((x + 12 + i * (bw + 5), y, bw, 26), label, run, enabled, label == "Pause")
               for i, (label, run, enabled) in enumerate(row)]
        sy = y + 76
        sw = (w - 24 - 70 - 4 * 4) // len(SPEEDS)
        for i, speed in enumerate(SPEEDS):
            out.append(Button((x + 82 + i * (sw + 4), sy, sw, 22), f"{speed:g}x", self._set_speed(speed),
                              active=speed == self.speed))
        ry = sy + 30
        rounds = sorted(self.round_starts)
        rw = max(34, min(60, (w - 24 - 70) // max(len(rounds), 1) - 4))
        per_row = max(1, (w - 24 - 70) // (rw + 4))
        here = self.round_of(self.position)
        for i, r in enumerate(rounds):
            bx = x + 82 + (i % per_row) * (rw + 4)
            by = ry + (i // per_row) * 26
            out.append(Button((bx, by, rw, 22), str(r), self._jump(r), active=r == here))
        return out

    def _set_speed(self, speed: float) -> Command:
        def run() -> None:
            self.speed = speed
            self.change_speed(0)
        return run

    def _jump(self, round_no: int) -> Command:
        return lambda: self.jump_round(round_no)

    def log_rect(self) -> Rect:
        """Where the log is."""
        x, y, w, h = self.ctx.layout.panel
        top = self.controls_top() + CONTROLS_PX
        return (x + 6, top, w - 12, max(60, y + h - top - 6))

    # ================================================================ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """The table at the step shown, the panel with the controls and the log, a tooltip over a collision."""
        rs = self.state.round
        draw.text(surface, f"Step {self.position} of {self.last}  Round {rs.round_no}  Gear Phase {rs.gear_phase}"
                  + ("  (playing)" if self.playing else ""), TOP_INFO, 18, draw.TEXT)
        self.draw_table(surface)
        self.tools.draw(surface)
        self._draw_tray(surface)
        self.draw_panel(surface)
        self._draw_hover(surface)

    def draw_table(self, surface: pygame.Surface) -> None:
        """The game's table at the step shown and what the recent events say."""
        canvas = self.ctx.canvas
        view = canvas.view
        state = self.state
        canvas.clip(surface)
        draw.draw_table(surface, view, self.scene.table(state))
        under, over = canvas.overlay(surface), canvas.overlay(surface)
        self.scene.draw_dropped(under, view, state)
        objective = self.entry.state.rules.options.objective
        colours = scenario_view.player_colours([p.colour for p in self.scene.scenario.spec.player])
        if objective.active:
            scenario_view.draw_objectives(under, view, state, self.scene.table(state), colours)
        upto = self.events[:self.offsets[self.position + 1]]
        self.marks = self.scene.draw_events(under, over, view, state, recent(upto), upto)
        surface.blit(under, (0, 0))
        active = self.entry.state.prompt.vehicle_id
        names = self.scene.draw_pieces(surface, view, state, self.anim, {}, active or None)
        surface.blit(over, (0, 0))
        layout = badge_layout(view, pygame.Rect(canvas.rect), self.scene.table(state), self.anim, self.scene.name,
                              names)
        self.scene.draw_badges(surface, layout)
        prompt = self.entry.state.prompt
        if objective.active:
            scenario_view.draw_carried(surface, view, state, self.scene.table(state))
            scenario_view.draw_scoreboard(surface, pygame.Rect(canvas.rect), state, objective, colours,
                                          prompt.reason if isinstance(prompt, GameOverPrompt) else "",
                                          view.to_screen(0.0, 0.0)[0])
        if isinstance(prompt, GameOverPrompt):
            players = state.players
            won = result_line(players[prompt.winner] if prompt.winner is not None
                              and 0 <= prompt.winner < len(players) else None, prompt.reason)
            self.scene.draw_banner(surface, pygame.Rect(canvas.rect), won, prompt.standings)
        canvas.unclip(surface)

    def _draw_tray(self, surface: pygame.Surface) -> None:
        cells = tray.layout(self.ctx.template_set, self.ctx.layout.tray)
        tray.draw_tray_area(surface, self.ctx.template_set, cells, self.ctx.layout.tray, {}, None, (-1, -1))
        tray.shade_tray(surface, self.ctx.layout.tray, "Replay: Space plays, Right/Left step, Page Up/Down jump a "
                                                       "round, F2/R open this table")

    def draw_panel(self, surface: pygame.Surface) -> None:
        """Headline, dashboards, playback controls, timeline, rounds, the log up to this step."""
        rect = pygame.Rect(self.ctx.layout.panel)
        course = self.game.options.course
        boards = self.scene.dashboards(self.state, len(course.gates) if course.death_race else None)
        active = self.entry.state.prompt.vehicle_id or None
        draw_panel_head(surface, rect, self.headline_lines(), boards, self.card_rects(), active)
        y = self.controls_top()
        rs = self.state.round
        pygame.draw.line(surface, draw.PANEL_EDGE, (rect.left + 8, y - 4), (rect.right - 8, y - 4), 1)
        draw.text(surface, f"Step {self.position} of {self.last}: round {rs.round_no}, Gear Phase {rs.gear_phase}",
                  (rect.left + 12, y + 2), 20, draw.SELECT)
        for b in self.panel_buttons():
            draw_button(surface, b, 16)
        tx, ty, tw, th = self.timeline_rect()
        pygame.draw.rect(surface, (70, 74, 84), (tx, ty, tw, th), border_radius=4)
        for r, at in self.round_starts.items():
            mx = tx + tw * at / max(self.last, 1)
            pygame.draw.line(surface, draw.TEXT_DIM, (mx, ty - 4), (mx, ty + th + 4), 1)
            if len(self.round_starts) <= 12:
                draw.text(surface, str(r), (mx, ty + th + 4), 13, draw.TEXT_DIM, "midtop")
        kx = tx + tw * self.position / max(self.last, 1)
        pygame.draw.circle(surface, draw.SELECT, (round(kx), ty + th // 2), 8)
        sy = self.controls_top() + 106
        draw.text(surface, "Speed", (rect.left + 12, sy + 3), 16, draw.TEXT_DIM)
        draw.text(surface, "Round", (rect.left + 12, sy + 33), 16, draw.TEXT_DIM)
        decision = describe(self.entry.decision, self.scene.name, self.asked())
        draw.text(surface, f"This step: {decision}", (rect.left + 12, self.controls_top() + CONTROLS_PX - 22), 16,
                  draw.TEXT)
        upto = self.events[:self.offsets[self.position + 1]]
        self.log_rects = draw_log(surface, self.log_rect(), upto, self.log_view,
                                  fresh_from=self.offsets[self.position], title="Log to this step")

    def _draw_hover(self, surface: pygame.Surface) -> None:
        pos = self.ctx.mouse_pos
        hit = next((m.event for m in self.marks if math.dist(m.pos, pos) <= HOVER_PX), None)
        if hit is None:
            index = next((i for r, i in self.log_rects if r.collidepoint(pos)), None)
            e = self.events[index] if index is not None and index < len(self.events) else None
            hit = e if isinstance(e, Collided) else None
        if hit is not None:
            draw_tooltip(surface, pos, collision_lines(hit, damage_after(self.events, hit)),
                         pygame.Rect(self.ctx.layout.between_bars()))
