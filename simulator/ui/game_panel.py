"""The game panel: the current prompt as dice, buttons and a slider, one click per legal answer.

:func:`build` lays the panel out for a :class:`~simulator.ui.game_controller.GameController`
and returns a :class:`Panel` (text lines, buttons, dice, a slider); :func:`draw_panel`
paints it and :meth:`Panel.hit` says which typed action
(:mod:`simulator.ui.panel_actions`) a click runs. What is offered comes from
the prompt: the templates' permissions, whether reversing is allowed, the
Spin range, the targets of each weapon, the open grid slots.

Dice are drawn as dice: Skid Dice with their Hazard, Spin, Slide and Shift
symbols (p.12, p.22-24), D6 with pips, hits (4+, p.30) and Evades (6, p.33)
marked. The layout and the click areas come from the same list, so they
never drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import assert_never

import pygame

from simulator.gaslands.collisions import Reaction
from simulator.gaslands.decisions import (
    Activate,
    Attack,
    Declare,
    DeclareAttacks,
    Deploy,
    Drop,
    PassPole,
    PushIt,
    React,
    RollSkid,
    SlideFacing,
    SpendShifts,
    SpendVotes,
    Teleport,
)
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.events import GameEvent
from simulator.gaslands.prompts import (
    ActivatePrompt,
    AttacksPrompt,
    DeclarePrompt,
    DeployPrompt,
    GameOverPrompt,
    LoseControlPrompt,
    PassPolePrompt,
    PiledriverPrompt,
    PivotPrompt,
    Prompt,
    PushItPrompt,
    ReactPrompt,
    ShiftsPrompt,
    SkidPrompt,
    SlideFacingPrompt,
    SpinPrompt,
    SwingTrailerPrompt,
    TeleportPrompt,
    TemplatePrompt,
    VotesPrompt,
)
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.ui import draw
from simulator.ui.game_controller import GameController
from simulator.ui.panel_actions import (
    AddSpend,
    Decide,
    PanelAction,
    PickDeployCar,
    SetShove,
    SetTurn,
    TakeBackSpend,
    TemplateAction,
    ToggleAttack,
    ToggleDie,
    ToggleDrop,
    ToggleSeat,
)
from simulator.ui.pending import Pending
from simulator.ui.view import Rect
from simulator.ui.widgets import Button, Slider, button_at, draw_button, draw_slider
from simulator.vocab import plural

TURN_PRESETS = (-135.0, -90.0, -45.0, 0.0, 45.0, 90.0, 135.0, 180.0)
"""Quick facings offered beside the slider (only those the prompt's range allows)."""
SHOVE_STEPS = 5
"""Piledriver (p.120): how many quick distances from back to forward within the prompt's Short range."""
DIE_PX = 46
SMALL_DIE_PX = 20
ROLL_DIE_PX = 30
"""D6 in the "Last roll" rows."""
ROLL_SKID_DIE_PX = 40
"""Skid Dice in the "Last roll" rows: wide enough for the symbol and its word under it."""
SKID_WORDS = {"hazard": "Hazard", "spin": "Spin", "slide": "Slide", "shift": "Shift"}
IVORY = (238, 232, 214)
INK = (30, 30, 34)
HIT = (90, 200, 110)
CRIT = (250, 200, 60)
MISS = (120, 124, 130)


@dataclass(frozen=True)
class Die:
    """A die on the panel: a Skid Die face (``hazard`` ...) or a D6 value, and how to mark it."""

    rect: Rect
    face: str | int
    action: PanelAction | None = None
    marked: bool = False
    crossed: bool = False
    dim: bool = False
    tone: str = ""
    caption: str = ""


@dataclass(frozen=True)
class Line:
    """A line of text on the panel."""

    text: str
    pos: tuple[int, int]
    size: int = 18
    colour: draw.Colour = draw.TEXT


@dataclass
class Panel:
    """Everything drawn in the game panel, and where clicks land."""

    rect: Rect
    lines: list[Line] = field(default_factory=list)
    buttons: list[Button[PanelAction]] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    slider: Slider | None = None
    slider_label: str = ""
    tumbling: bool = False
    hidden: int = 0
    """Answers left out for lack of room (named in a line; the window then gives the panel more room)."""

    def used_px(self) -> int:
        """How tall the panel's content is, from the top of its rectangle."""
        bottoms = [ln.pos[1] + ln.size for ln in self.lines]
        bottoms += [b.rect[1] + b.rect[3] for b in self.buttons] + [d.rect[1] + d.rect[3] + 14 for d in self.dice]
        if self.slider is not None:
            bottoms.append(self.slider.rect[1] + self.slider.rect[3] + 20)
        return max(bottoms, default=self.rect[1]) - self.rect[1]

    def hit(self, pos: tuple[int, int]) -> PanelAction | None:
        """The action under a click, or None."""
        for d in self.dice:
            if d.action is not None and pygame.Rect(d.rect).collidepoint(pos):
                return d.action
        b = button_at(self.buttons, pos)
        return b.action if b is not None else None

    def button(self, action: PanelAction) -> Button[PanelAction]:
        """The enabled button (or die) with this action (``KeyError`` if none): for tests and shortcuts."""
        for b in self.buttons:
            if b.action == action and b.enabled:
                return b
        for d in self.dice:
            if d.action == action:
                return Button(d.rect, str(d.face), action)
        raise KeyError(action)


# ==================================================================== dice drawing
def draw_skid_die(surface: pygame.Surface, rect: Rect, face: str, *, marked: bool = False, crossed: bool = False,
                  dim: bool = False, caption: str = "") -> None:
    """A Skid Die showing ``face`` (hazard, spin, slide, shift) with its symbol and, when big, its word."""
    r = pygame.Rect(rect)
    body = draw.shade(IVORY, 0.55) if dim else IVORY
    pygame.draw.rect(surface, body, r, border_radius=max(3, r.width // 6))
    pygame.draw.rect(surface, draw.SELECT if marked else (60, 60, 60), r, 3 if marked else 1,
                     border_radius=max(3, r.width // 6))
    ink = (110, 110, 110) if dim else INK
    cx, cy = r.centerx, r.centery - (r.height // 10 if r.width >= 30 else 0)
    s = r.width * 0.30
    if face == "hazard":
        pts = [(cx, cy - s), (cx + s * 1.05, cy + s * 0.8), (cx - s * 1.05, cy + s * 0.8)]
        pygame.draw.polygon(surface, (235, 140, 30) if not dim else (150, 120, 80), pts)
        pygame.draw.polygon(surface, ink, pts, 2)
        draw.text(surface, "!", (cx, cy + s * 0.25), max(10, int(s * 1.5)), ink, "center")
    elif face == "spin":
        box = pygame.Rect(0, 0, int(2 * s), int(2 * s))
        box.center = (cx, cy)
        pygame.draw.arc(surface, ink, box, math.radians(20), math.radians(300), max(2, r.width // 14))
        ax, ay = cx + s * math.cos(math.radians(20)), cy - s * math.sin(math.radians(20))
        pygame.draw.polygon(surface, ink, [(ax - s * 0.45, ay - s * 0.1), (ax + s * 0.35, ay - s * 0.15),
                                           (ax, ay + s * 0.45)])
    elif face == "slide":
        for dy in (-s * 0.45, s * 0.45):
            y = cy + dy
            pygame.draw.line(surface, ink, (cx - s, y), (cx + s * 0.6, y), max(2, r.width // 14))
            pygame.draw.polygon(surface, ink, [(cx + s * 1.1, y), (cx + s * 0.4, y - s * 0.4),
                                               (cx + s * 0.4, y + s * 0.4)])
    else:  # shift: a gear-stick gate (H pattern)
        w = max(2, r.width // 14)
        pygame.draw.line(surface, ink, (cx - s, cy - s), (cx - s, cy + s), w)
        pygame.draw.line(surface, ink, (cx + s, cy - s), (cx + s, cy + s), w)
        pygame.draw.line(surface, ink, (cx - s, cy), (cx + s, cy), w)
        pygame.draw.circle(surface, (40, 120, 200) if not dim else (90, 100, 120), (cx + int(s), int(cy - s)),
                           max(3, int(s * 0.35)))
    if r.width >= 30:
        word = caption or SKID_WORDS.get(face, face)
        draw.text(surface, word, (r.centerx, r.bottom - 3), caption_size(word, r.width - 4), ink, "midbottom")
    if crossed:
        pygame.draw.line(surface, (200, 40, 40), r.topleft, r.bottomright, 4)
        pygame.draw.line(surface, (200, 40, 40), r.topright, r.bottomleft, 4)


def caption_size(word: str, width_px: int, size: int = 14, smallest: int = 9) -> int:
    """The largest font size up to ``size`` at which ``word`` fits ``width_px`` (never below ``smallest``)."""
    while size > smallest and draw.font(size).size(word)[0] > width_px:
        size -= 1
    return size


PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def draw_d6(surface: pygame.Surface, rect: Rect, value: int, tone: str = "") -> None:
    """A D6 with pips; ``tone`` ``hit`` (green rim), ``crit`` (gold), ``miss`` (grey)."""
    r = pygame.Rect(rect)
    body = {"miss": (175, 175, 170)}.get(tone, IVORY)
    pygame.draw.rect(surface, body, r, border_radius=max(3, r.width // 6))
    rim = {"hit": HIT, "crit": CRIT}.get(tone, (60, 60, 60))
    pygame.draw.rect(surface, rim, r, 3 if tone in ("hit", "crit") else 1, border_radius=max(3, r.width // 6))
    step = r.width * 0.26
    rad = max(2, r.width // 10)
    for dx, dy in PIPS.get(value, []):
        pygame.draw.circle(surface, INK, (r.centerx + dx * step, r.centery + dy * step), rad)


def draw_die(surface: pygame.Surface, d: Die, tumble: int | None = None) -> None:
    """A :class:`Die` (a tumbling one shows ``tumble`` pips or a changing face)."""
    if isinstance(d.face, str):
        face = d.face if tumble is None else ("hazard", "spin", "slide", "shift", "shift", "shift")[tumble - 1]
        draw_skid_die(surface, d.rect, face, marked=d.marked, crossed=d.crossed and tumble is None, dim=d.dim,
                      caption=d.caption)
    else:
        draw_d6(surface, d.rect, d.face if tumble is None else tumble, "" if tumble is not None else d.tone)
    if d.caption and not isinstance(d.face, str):
        r = pygame.Rect(d.rect)
        draw.text(surface, d.caption, (r.centerx, r.bottom + 1), 13, draw.TEXT_DIM, "midtop")


def dice_groups(event: GameEvent) -> list[tuple[str, list[tuple[str | int, str]]]]:
    """An event's dice as labelled groups of (face, tone): Skid Dice faces, attack dice (hits on 4+, 6s
    marked), Evades (6) — read from the event's :class:`~simulator.gaslands.events.DiceGroup` values."""
    out: list[tuple[str, list[tuple[str | int, str]]]] = []
    for group in event.dice:
        if all(isinstance(f, str) for f in group.faces):
            out.append(("Skid Dice", [(f, "") for f in group.faces]))
            continue
        evade = "evade" in group.label
        tones = [(_evade_tone(int(f)) if evade else _attack_tone(int(f))) if isinstance(f, int) else ""
                 for f in group.faces]
        out.append((group.label, list(zip(group.faces, tones, strict=True))))
    return out


def _attack_tone(roll: int) -> str:
    return "crit" if roll == 6 else "hit" if roll >= 4 else "miss"


def _evade_tone(roll: int) -> str:
    return "hit" if roll == 6 else "miss"


# ==================================================================== layout
class _Cursor:
    def __init__(self, panel: Panel) -> None:
        self.p = panel
        x, y, w, _ = panel.rect
        self.x, self.y, self.w = x + 12, y + 6, w - 24

    def text(self, message: str, size: int = 18, colour: draw.Colour = draw.TEXT, gap: int = 2) -> None:
        for line in wrap(message, size, self.w):
            self.p.lines.append(Line(line, (self.x, self.y), size, colour))
            self.y += size - 3 + gap

    def space(self, px: int) -> None:
        self.y += px

    def buttons(self, items: Sequence[Button[PanelAction]], per_row: int = 3, height: int = 28) -> None:
        """Lay ``items`` (their rects ignored) out in rows of ``per_row``."""
        gap = 6
        width = (self.w - gap * (per_row - 1)) // per_row
        for i, item in enumerate(items):
            col, row = i % per_row, i // per_row
            rect = (self.x + col * (width + gap), self.y + row * (height + gap), width, height)
            self.p.buttons.append(Button(rect, item.label, item.action, item.enabled, item.active))
        rows = (len(items) + per_row - 1) // per_row
        self.y += rows * (height + gap)

    def slider(self, low: float, high: float, value: float, label: str) -> None:
        """A slider across the panel (the facing being chosen)."""
        self.y += 18
        self.p.slider = Slider((self.x + 8, self.y, self.w - 16, 16), low, high, value)
        self.p.slider_label = label
        self.y += 26

    def dice(self, dice: Sequence[Die], size: int = DIE_PX) -> None:
        """Lay ``dice`` (their rects ignored) out in a row, wrapping."""
        x = self.x
        for d in dice:
            if x + size > self.x + self.w:
                x = self.x
                self.y += size + 8
            self.p.dice.append(Die((x, self.y, size, size), d.face, d.action, d.marked, d.crossed, d.dim, d.tone,
                                   d.caption))
            x += size + 8
        self.y += size + 8


def wrap(message: str, size: int, width_px: int) -> list[str]:
    """``message`` broken into lines that fit ``width_px`` at font ``size``."""
    f = draw.font(size)
    words, lines, now = message.split(), [], ""
    for word in words:
        trial = f"{now} {word}".strip()
        if f.size(trial)[0] <= width_px or not now:
            now = trial
        else:
            lines.append(now)
            now = word
    if now:
        lines.append(now)
    return lines or [""]


def _b(label: str, action: PanelAction, enabled: bool = True, active: bool = False) -> Button[PanelAction]:
    return Button((0, 0, 0, 0), label, action, enabled, active)


def _per_row(items: Sequence[Button[PanelAction]], width_px: int, size: int, gap_px: int = 6) -> int:
    """All ``items`` in one row if every label fits its button at ``size`` px, else two a row (four seats'
    "Yellow Team: person (F6)" in a 1280x720 window)."""
    n = max(1, len(items))
    each = (width_px - gap_px * (n - 1)) // n - 12
    if n <= 2 or all(draw.font(size).size(b.label)[0] <= each for b in items):
        return max(2, n)
    return 2


def _d(face: str | int, action: PanelAction | None = None, marked: bool = False, crossed: bool = False) -> Die:
    return Die((0, 0, 0, 0), face, action, marked, crossed)


def build(ctl: GameController, rect: Rect, pending: Pending | None = None) -> Panel:
    """The panel for the controller's current prompt inside ``rect``; ``pending``: the template on the car."""
    panel = Panel(rect, tumbling=ctl.anim.roll_left > 0)
    c = _Cursor(panel)
    p = ctl.prompt
    seats = [_b(f"{ctl.player_name(i)}: {ctl.seat_label(i)} (F{5 + i})", ToggleSeat(i), True,
                i in ctl.bots) for i in range(len(ctl.state.players))]
    c.buttons(seats, per_row=_per_row(seats, c.w, 17), height=24)
    colour = draw.hex_colour(ctl.player_colour(p.player)) if p.player >= 0 else draw.SELECT
    c.text(title(ctl), 24, draw.shade(colour, 1.35), gap=4)
    if not isinstance(p, GameOverPrompt):
        c.text(ctl.instruction(), 17, draw.TEXT_DIM)
    c.space(4)
    if ctl.is_bot_turn():
        _latest_dice(ctl, c)
        return panel
    match p:
        case ActivatePrompt():
            c.buttons([_b(f"Activate {ctl.name(o)} (G{ctl.vehicle(o).gear})", Decide(Activate(o)))
                       for o in p.vehicles], per_row=2)
        case TemplatePrompt():
            _template(ctl, c, p, pending)
        case SkidPrompt():
            v = ctl.vehicle(p.vehicle_id)
            c.text(f"Handling {v.handling}: roll up to {p.max_dice} Skid Dice at once. Each die shows Hazard, Spin, "
                   f"Slide or Shift (p.22-24). {plural(v.hazards, 'Hazard Token')} now; 6 wipes out (p.34).", 16, draw.TEXT_DIM)
            c.buttons([_b(f"Roll {o}" + (" (Enter)" if o == 0 else ""), Decide(RollSkid(o))) for o in p.options],
                      per_row=min(4, len(p.options)))
        case PushItPrompt():
            c.dice([_d(f.value, ToggleDie(i), marked=i in ctl.draft.marked) for i, f in enumerate(p.faces)])
            marked = tuple(sorted(ctl.draft.marked))
            c.buttons([_b("Keep them" + ("" if marked else " (Enter)"), Decide(PushIt(()))),
                       _b(f"Push It: reroll {len(marked)} (+1 Hazard)" + (" (Enter)" if marked else ""),
                          Decide(PushIt(marked)), bool(marked))], per_row=2)
            c.text("Click dice to mark them for the reroll; Push It once per Movement Step (p.40).", 15, draw.TEXT_DIM)
        case ShiftsPrompt():
            _shifts(ctl, c, p)
        case SlideFacingPrompt():
            c.text("A Slide result moves the car along the Slide template (p.24-26): both endings are drawn on the "
                   "table.", 16, draw.TEXT_DIM)
            c.buttons([_b("Face left", Decide(SlideFacing("left"))), _b("Face right", Decide(SlideFacing("right")))],
                      per_row=2)
        case SpinPrompt():
            _facing(ctl, c, p.min_deg, p.max_deg, "Spin")
        case ReactPrompt():
            _react(ctl, c, p)
        case AttacksPrompt():
            _attacks(ctl, c, p)
        case LoseControlPrompt():
            _facing(ctl, c, -180.0, 180.0, "Confirm facing")
        case PassPolePrompt():
            c.buttons([_b(f"Give it to {ctl.player_name(o)}", Decide(PassPole(o))) for o in p.to], per_row=2)
        case VotesPrompt():
            c.text(f"{plural(p.votes, 'Audience Vote')} to spend (p.89-90):", 16, draw.TEXT_DIM)
            items = [_b(f"{ch.label} ({ch.cost})", Decide(SpendVotes((ch.effect,)))) for ch in p.choices[:10]]
            c.buttons([*items, _b("Spend none", Decide(SpendVotes(())))], per_row=2, height=26)
        case DeployPrompt():
            _deploy(ctl, c, p)
        case DeclarePrompt():
            c.text(f"{p.question} ({p.rule})", 16, draw.TEXT_DIM)
            c.buttons([_b(p.label(o), Decide(Declare(o))) for o in p.choices], per_row=1 if p.labels else 3)
        case PivotPrompt():
            extra = f" for {plural(p.hazards, 'Hazard Token')}" if p.hazards else ""
            c.text(f"{p.rule} ({p.page}): up to {p.max_deg:.0f} degrees either way{extra}.", 16, draw.TEXT_DIM)
            _facing(ctl, c, -p.max_deg, p.max_deg, "Pivot" if ctl.draft.turn_deg else "No pivot")
        case PiledriverPrompt():
            _piledriver(ctl, c, p)
        case SwingTrailerPrompt():
            c.text(f"Jackknife (p.119): hinge the trailer about the hitch, up to {p.max_deg:.0f} degrees either "
                   "side of the cab; it stops at whatever it hits (a Collision).", 16, draw.TEXT_DIM)
            bend = p.bend_deg + ctl.draft.turn_deg
            _facing(ctl, c, -p.max_deg - p.bend_deg, p.max_deg - p.bend_deg, "Swing the trailer",
                    f"Trailer bend {bend:+.0f} deg (now {p.bend_deg:+.0f}): drag behind the hitch, or here")
        case TeleportPrompt():
            _teleport(ctl, c, p)
        case GameOverPrompt():
            _game_over(ctl, c)
        case _ as unreachable:
            assert_never(unreachable)
    if not isinstance(p, PushItPrompt | ShiftsPrompt | GameOverPrompt):
        _latest_dice(ctl, c)
    return panel


def title(ctl: GameController) -> str:
    """The panel's title: who decides what."""
    p: Prompt = ctl.prompt
    who = ctl.player_name(p.player)
    name = ctl.name(p.vehicle_id) if p.vehicle_id else ""
    match p:
        case ActivatePrompt():
            text = f"{who}: activate a vehicle"
        case TemplatePrompt():
            text = f"{who}: {name}'s move"
        case SkidPrompt():
            text = f"{who}: Skid Dice for {name}"
        case PushItPrompt():
            text = f"{who}: Push It?"
        case ShiftsPrompt():
            text = f"{who}: spend the Shifts"
        case SlideFacingPrompt():
            text = f"{who}: Slide facing"
        case SpinPrompt():
            text = f"{who}: Spin {name}"
        case ReactPrompt():
            text = f"{who}: Collision!"
        case AttacksPrompt():
            text = f"{who}: {name} shoots"
        case LoseControlPrompt():
            text = f"{who}: {name} loses control"
        case PassPolePrompt():
            text = f"{who}: pass Pole Position"
        case VotesPrompt():
            text = f"{who}: Audience Votes"
        case DeployPrompt():
            text = f"{who}: place a vehicle " + ("by your spawn point" if p.spawn else "on the Starting Grid")
        case DeclarePrompt():
            text = f"{who}: {name}'s choice"
        case PivotPrompt():
            text = f"{who}: pivot {name}"
        case PiledriverPrompt():
            text = f"{who}: place the Piledriver's victim"
        case SwingTrailerPrompt():
            text = f"{who}: {name} jackknifes"
        case TeleportPrompt():
            text = f"{who}: teleport {name}"
        case GameOverPrompt():
            text = ctl.result_text()
        case _ as unreachable:
            assert_never(unreachable)
    return text + (" (bot)" if ctl.is_bot_turn() else "")


def _facing(ctl: GameController, c: _Cursor, low: float, high: float, confirm: str, caption: str = "") -> None:
    """A facing to choose: a slider over the prompt's range, quick turns, and the answer (Enter); ``caption``
    replaces the slider's default words."""
    turn = ctl.draft.turn_deg
    c.slider(low, high, turn, caption or f"Turn {turn:+.0f} deg (counter-clockwise +): drag round the car, or here")
    presets = [a for a in TURN_PRESETS if low <= a <= high] or [0.0]
    c.buttons([_b(f"{a:+.0f}", SetTurn(a), True, a == turn) for a in presets], per_row=min(len(presets), 8),
              height=24)
    decision = ctl.facing_decision()
    if decision is not None:
        c.buttons([_b(f"{confirm} (Enter)", Decide(decision))], per_row=1)


def _piledriver(ctl: GameController, c: _Cursor, p: PiledriverPrompt) -> None:
    step = p.max_mm / (SHOVE_STEPS // 2) if SHOVE_STEPS > 1 else 0.0
    shoves = [round((i - SHOVE_STEPS // 2) * step) for i in range(SHOVE_STEPS)]
    c.text(f"Move it along its heading (within {p.max_mm:.0f} mm) and turn it; the ghost shows it (p.120).", 16)
    c.buttons([_b(f"{m:+.0f} mm", SetShove(float(m)), True, m == ctl.draft.shove_mm) for m in shoves],
              per_row=SHOVE_STEPS, height=24)
    _facing(ctl, c, -180.0, 180.0, "Place it")
    c.buttons([_b("Leave it", Decide(Declare("no")))], per_row=1)


def _teleport(ctl: GameController, c: _Cursor, p: TeleportPrompt) -> None:
    """The Experimental Teleporter's jump (p.83-84): a click on the table puts the ghost; Enter places it."""
    c.text(f"Click the table inside the dashed line ({p.band.title()} range, {p.max_mm:.0f} mm); the ghost shows "
           "where it lands. It causes no Collision.", 16, draw.TEXT_DIM)
    problem = ctl.teleport_problem()
    if problem:
        c.text(f"Not there: {problem}.", 16, draw.INTERRUPT)
    pose = ctl.teleport_pose()
    if pose is not None:
        here = ctl.draft.spot is not None
        c.buttons([_b("Teleport here (Enter)" if here else "Leave it where it is (Enter)",
                      Decide(Teleport(pose.x_mm, pose.y_mm)), not problem)], per_row=1)


def _deploy(ctl: GameController, c: _Cursor, p: DeployPrompt) -> None:
    """Pick a waiting car, then an open slot of the Starting Grid (drawn on the table, p.126)."""
    chosen = ctl.deploy_vehicle()
    c.buttons([_b(ctl.name(vid), PickDeployCar(vid), True, vid == chosen) for vid in p.vehicles], per_row=2)
    fits = ctl.grid_previews()
    c.buttons([_b(p.label(o), Decide(Deploy(chosen, o)), o in fits) for o in p.slots][:16],
              per_row=2 if len(p.slots) <= 8 else 3, height=24)
    if p.spawn:
        c.text(f"Within Short range of your spawn point, facing the middle of the table ({p.rule}).", 15,
               draw.TEXT_DIM)
    else:
        c.text("Fill the first rank touching the Starting Line before the next; a finger's width between cars "
               "(p.126).", 15, draw.TEXT_DIM)


def _template(ctl: GameController, c: _Cursor, p: TemplatePrompt, pending: Pending | None) -> None:
    v = ctl.vehicle(p.vehicle_id)
    words = ", ".join(f"{t.template.replace('_', ' ')}"
                      + (f" ({t.manoeuvre.value})" if t.manoeuvre.value in ("trivial", "hazardous") else "")
                      for t in p.templates if t.permitted)
    c.text(f"Gear {v.gear}, {plural(v.hazards, 'Hazard Token')}. Permitted (p.17-18): {words}.", 16, draw.TEXT_DIM)
    if p.reverse_allowed:
        c.text("It may reverse: V puts the template on the rear edge (p.39).", 15, draw.TEXT_DIM)
    if pending is None:
        c.text("Drag a template from the tray onto the car (or press 1-9).", 17, draw.SELECT)
        return
    c.text(f"Chosen: {pending.title(pending.move.template.replace('_', ' '))}", 19, draw.SELECT)
    refused = ctl.template_refusal(pending)
    if refused:
        c.text(f"Not permitted: {refused}", 16, draw.INTERRUPT)
    c.buttons([_b("Choose it (Enter)", TemplateAction("choose"), not refused),
               _b("Mirror (Tab)", TemplateAction("mirror"), pending.move.direction is not None),
               _b("Reverse (V)", TemplateAction("reverse"), p.reverse_allowed, pending.move.reverse),
               _b("Cancel (Esc)", TemplateAction("cancel"))], per_row=2)


def _shifts(ctl: GameController, c: _Cursor, p: ShiftsPrompt) -> None:
    roll = p.roll
    cancelled = ctl.cancelled_dice()
    used = len(ctl.draft.spends)
    dice: list[Die] = []
    shift_no = 0
    for i, f in enumerate(roll.faces):
        if f is SkidFace.SHIFT:
            spent = shift_no < used
            dice.append(Die((0, 0, 0, 0), f.value, ToggleDie(i), crossed=i in cancelled, dim=spent,
                            caption="spent" if spent else "Shift"))
            shift_no += 1
        else:
            dice.append(_d(f.value, ToggleDie(i), crossed=i in cancelled))
    for k in range(roll.free_shifts):
        spent = shift_no + k < used
        dice.append(Die((0, 0, 0, 0), "shift", dim=spent, caption="spent" if spent else "free"))
    c.dice(dice)
    out, err = ctl.shift_outcome()
    v = ctl.vehicle(p.vehicle_id)
    if out is not None:
        d = out.driving
        effects = [w for w, on in (("Slide", out.slide), ("Spin", out.spin)) if on]
        c.text(f"Shifts left: {ctl.shifts_left()}.  Gear {v.gear} -> {d.gear},  Hazards {v.hazards} -> {d.hazards}"
               + (f",  {' and '.join(effects)}" if effects else ""), 18, draw.SELECT)
        if out.slide and ctl.slide_endings():
            c.text("The Slide is drawn on the table (blue): cancel it with a Shift, or Done to slide.", 15,
                   (120, 220, 255))
    else:
        c.text(err, 16, draw.INTERRUPT)
    spend = [(label, SpendShift(use)) for label, use in (("Gear up (+1 Haz)", ShiftUse.GEAR_UP),
                                                          ("Gear down (+1 Haz)", ShiftUse.GEAR_DOWN),
                                                          ("Drop a Hazard", ShiftUse.DISCARD_HAZARD))]
    c.buttons([*(_b(label, AddSpend(s), ctl.can_spend(s)) for label, s in spend),
               _b("Take back", TakeBackSpend(), used > 0),
               _b("Done (Enter)", Decide(SpendShifts(tuple(ctl.draft.spends))))], per_row=3)
    c.text("Uncancelled Hazard, Spin and Slide dice add a Hazard Token each; unspent Shifts are lost (p.23-24).",
           15, draw.TEXT_DIM)


REACTION_LABELS = {Reaction.SMASH: "Smash (attack dice)", Reaction.EVADE: "Evade (dice = gear)",
                   Reaction.GRINDERMAN: "Grinderman: Smash for Hazard Tokens (p.105)",
                   Reaction.PIT: "PIT: send it off (p.111)", Reaction.SLIPSTREAM: "Slipstream (p.113)"}


def _react(ctl: GameController, c: _Cursor, p: ReactPrompt) -> None:
    kind = p.orientation.value.replace("_", "-").title()
    against = f"the {p.other_name}" if p.other_obstacle else f"{p.other_name}'s {p.other_edge}"
    c.text(f"{ctl.name(p.vehicle_id)}'s {p.edge} meets {against}: {kind} (p.52-53). {ctl.name(p.vehicle_id)} "
           "reacts:", 17)
    c.buttons([_b(REACTION_LABELS.get(r, f"{r.value.capitalize()} (p.120)"), Decide(React(r))) for r in p.reactions],
              per_row=2)
    c.text("Smash: roll attack dice by orientation and weight, hits on 4+. Evade: roll dice equal to the current "
           "gear, each 6 cancels a hit (p.54-55).", 15, draw.TEXT_DIM)


def _attacks(ctl: GameController, c: _Cursor, p: AttacksPrompt) -> None:
    options = ctl.attack_options()
    chosen = ctl.draft.attacks
    limit = ctl.attack_limit()
    c.text(f"Crew {limit}: up to {plural(limit, 'attack')} (p.31), one target per weapon. Picked {ctl.attack_count()}.", 17)
    if not options:
        c.text("No target in range and arc (p.28-30).", 17, draw.TEXT_DIM)
    count = len(chosen) + (ctl.draft.drop is not None)
    c.buttons([_b(f"Fire {count}" + (" (Enter)" if count else ""), Decide(ctl.attacks_decision()), bool(count)),
               _b("No attack" + ("" if count else " (Enter)"), Decide(DeclareAttacks(())))],
              per_row=2)
    drops = ctl.drop_options()
    per_row = 1 if len(options) <= 4 else 2
    below = (14 + 30 * ((min(4, len(drops)) + 1) // 2) if drops else 0) + 20  # the drops and a "more" line
    fit = max(1, (c.p.rect[1] + c.p.rect[3] - c.y - below) // 30) * per_row
    ticked = [o for o in options if Attack(o.mount, o.target) in chosen]
    shown = (ticked + [o for o in options if o not in ticked])[:max(len(ticked), min(12, fit))]
    rows = []
    for o in shown:
        attack = Attack(o.mount, o.target)
        on = attack in chosen
        extra = ("OWN TEAM, " if o.friendly else "") + f"{o.range_band}" + (", cover -1" if o.cover else "")
        rows.append(_b(f"{'[x]' if on else '[ ]'} {o.weapon} -> {ctl.name(o.target)} ({extra})", ToggleAttack(attack),
                       True, on))
    c.buttons(rows, per_row=per_row, height=24)
    if len(shown) < len(options):
        c.p.hidden += len(options) - len(shown)
        c.text(f"{plural(len(options) - len(shown), 'more weapon and target', 'more weapons and targets')} not "
               "listed: click a car on the table to tick its first weapon.", 15, draw.TEXT_DIM)
    if drops:
        c.text("Drop one weapon's template against an edge (p.78):", 15, draw.TEXT_DIM)
        picked = ctl.draft.drop
        items = []
        for d in drops[:4]:
            drop = Drop(d.mount, d.edge)
            on = picked is not None and (picked.mount, picked.edge) == (drop.mount, drop.edge)
            items.append(_b(f"{'[x]' if on else '[ ]'} drop {d.weapon} ({d.edge})", ToggleDrop(drop), True, on))
        c.buttons(items, per_row=1 if len(items) <= 2 else 2, height=24)


def _game_over(ctl: GameController, c: _Cursor) -> None:
    c.text("Standings (p.128):", 18)
    for i, name in enumerate(ctl.standings(), 1):
        c.text(f"{i}. {name}", 18, draw.SELECT if i == 1 else draw.TEXT)
    c.text(ctl.game_over_hint(), 15, draw.TEXT_DIM)


def _latest_dice(ctl: GameController, c: _Cursor) -> None:
    """The dice of the last decision (none once the game has moved on: an older roll is in the log), as many
    rows as fit the panel's rectangle (the log is drawn under it); the rest are named, not hidden."""
    event = next((e for e in reversed(ctl.game.last_events) if e.dice), None)
    if event is None:
        return
    bottom = c.p.rect[1] + c.p.rect[3]
    c.space(4)
    c.text("Last roll: " + event.text + (f"  ({event.rule})" if event.rule else ""), 16, draw.TEXT_DIM)
    groups = dice_groups(event)
    for k, (label, group) in enumerate(groups):
        skid = all(isinstance(face, str) for face, _ in group)
        size = ROLL_SKID_DIE_PX if skid else ROLL_DIE_PX
        per_row = max(1, (c.w + 8) // (size + 8))
        needed = (13 if label else 0) + -(-len(group) // per_row) * (size + 8)
        if c.y + needed > bottom:
            left = [lab or "dice" for lab, _ in groups[k:]]
            c.text(f"({', '.join(left)}: in the log below)", 14, draw.TEXT_DIM, gap=0)
            return
        if label:
            c.text(label, 14, draw.TEXT_DIM, gap=0)
        c.dice([Die((0, 0, 0, 0), face, tone=tone) for face, tone in group], size=size)


# ==================================================================== drawing
def draw_panel(surface: pygame.Surface, panel: Panel, tumble: list[int] | None = None) -> None:
    """Paint the lines, buttons, slider and dice (dice tumble while ``panel.tumbling``)."""
    for line in panel.lines:
        draw.text(surface, line.text, line.pos, line.size, line.colour)
    for b in panel.buttons:
        draw_button(surface, b, 17)
    if panel.slider is not None:
        draw_slider(surface, panel.slider, panel.slider_label, marks=(0.0, -90.0, 90.0))
    for i, d in enumerate(panel.dice):
        roll = tumble[i % len(tumble)] if panel.tumbling and tumble else None
        draw_die(surface, d, roll)
