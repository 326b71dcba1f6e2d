"""The game panel: the current prompt as dice and buttons, one click per legal answer.

:func:`build` lays the panel out for a :class:`~simulator.ui.game_controller.GameController`
and returns a :class:`Panel` (text lines, buttons, dice); :func:`draw_panel`
paints it and :meth:`Panel.hit` says which action a click runs. Actions are
strings the controller understands (``roll:2``, ``die:1``, ``spend:gear_up``,
``done``, ``react:smash``, ``target:0:blue-car``, ``fire``...); ``app:...``
actions (choose, mirror, reverse, cancel the template) go to the window.

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
    PushItPrompt,
    ReactPrompt,
    ShiftsPrompt,
    SkidPrompt,
    SlideFacingPrompt,
    SpinPrompt,
    TemplatePrompt,
    VotesPrompt,
)
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.geometry.placement import Move
from simulator.ui import draw
from simulator.ui.game_controller import (
    LOSE_CONTROL_TURNS,
    PILEDRIVE_SHOVES,
    PIVOT_PRESETS,
    SPIN_PRESETS,
    GameController,
)
from simulator.ui.view import Rect
from simulator.ui.widgets import Button, button_at, draw_button

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
    action: str = ""
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
    buttons: list[Button] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    tumbling: bool = False

    def hit(self, pos: tuple[int, int]) -> str | None:
        """The action under a click, or None."""
        for d in self.dice:
            if d.action and pygame.Rect(d.rect).collidepoint(pos):
                return d.action
        b = button_at(self.buttons, pos)
        return b.action if b is not None else None

    def button(self, action: str) -> Button:
        """The button with this action (``KeyError`` if none): for tests and shortcuts."""
        for b in self.buttons:
            if b.action == action:
                return b
        for d in self.dice:
            if d.action == action:
                return Button(d.rect, str(d.face), d.action)
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

    def buttons(self, items: Sequence[tuple[str, str] | tuple[str, str, bool] | tuple[str, str, bool, bool]],
                per_row: int = 3, height: int = 28) -> None:
        gap = 6
        width = (self.w - gap * (per_row - 1)) // per_row
        for i, item in enumerate(items):
            label, action = item[0], item[1]
            enabled = item[2] if len(item) > 2 else True  # type: ignore[misc]
            active = item[3] if len(item) > 3 else False  # type: ignore[misc]
            col, row = i % per_row, i // per_row
            rect = (self.x + col * (width + gap), self.y + row * (height + gap), width, height)
            self.p.buttons.append(Button(rect, label, action, enabled=bool(enabled), active=bool(active)))
        rows = (len(items) + per_row - 1) // per_row
        self.y += rows * (height + gap)

    def dice(self, dice: Sequence[tuple[str | int, dict[str, object]]], size: int = DIE_PX) -> None:
        x = self.x
        for face, extra in dice:
            if x + size > self.x + self.w:
                x = self.x
                self.y += size + 8
            self.p.dice.append(Die((x, self.y, size, size), face, **extra))  # type: ignore[arg-type]
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


def build(ctl: GameController, rect: Rect, pending: Move | None = None) -> Panel:
    """The panel for the controller's current prompt inside ``rect``."""
    panel = Panel(rect, tumbling=ctl.roll_left > 0)
    c = _Cursor(panel)
    p = ctl.prompt
    seats = [(f"{ctl.player_name(i)}: {'bot' if i in ctl.bots else 'person'} (F{5 + i})", f"seat:{i}", True,
              i in ctl.bots) for i in range(len(ctl.state.players))]
    c.buttons(seats, per_row=max(2, len(seats)), height=24)
    colour = draw.hex_colour(ctl.player_colour(p.player)) if p.player >= 0 else draw.SELECT
    title = _title(ctl)
    c.text(title, 24, draw.shade(colour, 1.35), gap=4)
    if p.kind != "game_over":
        c.text(ctl.instruction(), 17, draw.TEXT_DIM)
    c.space(4)
    if ctl.is_bot_turn():
        _latest_dice(ctl, c)
        return panel
    match p:
        case ActivatePrompt():
            c.buttons([(f"Activate {ctl.name(o)} (G{ctl.vehicle(o).gear})", f"activate:{o}") for o in p.vehicles],
                      per_row=2)
        case TemplatePrompt():
            _template(ctl, c, p, pending)
        case SkidPrompt():
            v = ctl.vehicle(p.vehicle_id)
            c.text(f"Handling {v.handling}: roll up to {p.max_dice} Skid Dice at once. Each die shows Hazard, Spin, "
                   f"Slide or Shift (p.22-24). {v.hazards} Hazard Tokens now; 6 wipes out (p.34).", 16, draw.TEXT_DIM)
            c.buttons([(f"Roll {o}" + (" (Enter)" if o == 0 else ""), f"roll:{o}") for o in p.options],
                      per_row=min(4, len(p.options)))
        case PushItPrompt():
            c.dice([(f.value, {"action": f"die:{i}", "marked": i in ctl.draft.marked}) for i, f in enumerate(p.faces)])
            n = len(ctl.draft.marked)
            c.buttons([("Keep them (Enter)", "keep"),
                       (f"Push It: reroll {n} (+1 Hazard)", "push", n > 0)], per_row=2)
            c.text("Click dice to mark them for the reroll; Push It once per Movement Step (p.40).", 15, draw.TEXT_DIM)
        case ShiftsPrompt():
            _shifts(ctl, c, p)
        case SlideFacingPrompt():
            c.text("A Slide result moves the car along the Slide template (p.24-26): both endings are drawn on the "
                   "table.", 16, draw.TEXT_DIM)
            c.buttons([("Face left", "slide:left"), ("Face right", "slide:right")], per_row=2)
        case SpinPrompt():
            c.text(f"Spin: {ctl.draft.spin_deg:+.0f} deg (counter-clockwise +); the ghost shows it.", 17)
            c.buttons([(f"{a:+.0f}", f"spinto:{a}", True, a == ctl.draft.spin_deg) for a in SPIN_PRESETS], per_row=5)
            c.buttons([("Spin (Enter)", "spin")], per_row=1)
        case ReactPrompt():
            _react(ctl, c, p)
        case AttacksPrompt():
            _attacks(ctl, c)
        case LoseControlPrompt():
            c.text(f"Turn {ctl.name(p.vehicle_id)} by {ctl.draft.turn_deg:+.0f} deg (counter-clockwise +); see the "
                   "ghost.", 17)
            c.buttons([(f"{a:+.0f}", f"turn:{a}", True, a == ctl.draft.turn_deg) for a in LOSE_CONTROL_TURNS],
                      per_row=4)
            c.buttons([("Confirm facing (Enter)", "lose")], per_row=1)
        case PassPolePrompt():
            c.buttons([(f"Give it to {ctl.player_name(o)}", f"pole:{o}") for o in p.to], per_row=2)
        case VotesPrompt():
            c.text(f"{p.votes} Audience Votes to spend (p.89-90):", 16, draw.TEXT_DIM)
            items = [(f"{ch.label} ({ch.cost})", f"vote:{i}") for i, ch in enumerate(p.choices[:10])]
            c.buttons([*items, ("Spend none", "novote")], per_row=2, height=26)
        case DeployPrompt():
            _deploy(ctl, c)
        case DeclarePrompt():
            c.text(f"{p.question} ({p.rule})", 16, draw.TEXT_DIM)
            c.buttons([(o.replace("_", " ").capitalize(), f"declare:{o}") for o in p.choices], per_row=3)
        case PivotPrompt():
            extra = f" for {p.hazards} Hazard Tokens" if p.hazards else ""
            c.text(f"{p.rule} ({p.page}): up to {p.max_deg:.0f} degrees either way{extra}. Pivot: "
                   f"{ctl.draft.spin_deg:+.0f} deg (counter-clockwise +); the ghost shows it.", 16)
            presets = PIVOT_PRESETS if p.rule == "Pivot" else SPIN_PRESETS
            c.buttons([(f"{a:+.0f}", f"spinto:{a}", True, a == ctl.draft.spin_deg) for a in presets], per_row=5)
            c.buttons([("Pivot (Enter)" if ctl.draft.spin_deg else "No pivot (Enter)", "pivot")], per_row=1)
        case PiledriverPrompt():
            c.text(f"Move it back {ctl.draft.push_mm:+.0f} mm and turn it {ctl.draft.turn_deg:+.0f} deg; "
                   "the ghost shows it (p.120).", 16)
            c.buttons([(f"{m:+.0f} mm", f"shove:{m}", True, m == ctl.draft.push_mm) for m in PILEDRIVE_SHOVES],
                      per_row=5)
            c.buttons([(f"{a:+.0f}", f"turn:{a}", True, a == ctl.draft.turn_deg) for a in LOSE_CONTROL_TURNS],
                      per_row=4)
            c.buttons([("Place it (Enter)", "piledrive"), ("Leave it", "noplace")], per_row=2)
        case GameOverPrompt():
            _game_over(ctl, c)
        case _ as unreachable:
            assert_never(unreachable)
    if not isinstance(p, PushItPrompt | ShiftsPrompt | GameOverPrompt):
        _latest_dice(ctl, c)
    return panel


def _deploy(ctl: GameController, c: _Cursor) -> None:
    """Pick a waiting car, then an open slot of the Starting Grid (drawn on the table, p.126)."""
    p = ctl.prompt
    assert isinstance(p, DeployPrompt)
    chosen = ctl.deploy_vehicle()
    c.buttons([(ctl.name(vid), f"deploycar:{vid}", True, vid == chosen) for vid in p.vehicles], per_row=2)
    columns = max(1, p.columns)
    fits = ctl.grid_previews()
    c.buttons([(f"Rank {o // columns + 1}, place {o % columns + 1}", f"deploy:{o}", o in fits) for o in p.slots],
              per_row=2)
    c.text("Fill the first rank touching the Starting Line before the next; a finger's width between cars "
           "(p.126).", 15, draw.TEXT_DIM)


def _title(ctl: GameController) -> str:
    p = ctl.prompt
    who = ctl.player_name(p.player)
    name = ctl.name(p.vehicle_id) if p.vehicle_id else ""
    titles = {
        "activate": f"{who}: activate a vehicle",
        "template": f"{who}: {name}'s move",
        "skid": f"{who}: Skid Dice for {name}",
        "push_it": f"{who}: Push It?",
        "shifts": f"{who}: spend the Shifts",
        "slide_facing": f"{who}: Slide facing",
        "spin": f"{who}: Spin {name}",
        "react": f"{who}: Collision!",
        "attacks": f"{who}: {name} shoots",
        "lose_control": f"{who}: {name} loses control",
        "pass_pole": f"{who}: pass Pole Position",
        "votes": f"{who}: Audience Votes",
        "deploy": f"{who}: place a vehicle on the Starting Grid",
        "declare": f"{who}: {name}'s choice",
        "pivot": f"{who}: pivot {name}",
        "piledriver": f"{who}: place the Piledriver's victim",
        "game_over": ctl.result_text(),
    }
    return titles.get(p.kind, p.kind) + (" (bot)" if ctl.is_bot_turn() else "")


def _template(ctl: GameController, c: _Cursor, p: TemplatePrompt, pending: Move | None) -> None:
    v = ctl.vehicle(p.vehicle_id)
    words = ", ".join(f"{t.template.replace('_', ' ')}"
                      + (f" ({t.manoeuvre.value})" if t.manoeuvre.value in ("trivial", "hazardous") else "")
                      for t in p.templates if t.permitted)
    c.text(f"Gear {v.gear}, {v.hazards} Hazard Tokens. Permitted (p.17-18): {words}.", 16, draw.TEXT_DIM)
    if p.reverse_allowed:
        c.text("In Gear 1 it may reverse: V puts the template on the rear edge (p.39).", 15, draw.TEXT_DIM)
    if pending is None:
        c.text("Drag a template from the tray onto the car (or press 1-9).", 17, draw.SELECT)
        return
    label = pending.template.replace("_", " ")
    title = label + (f" {pending.direction}" if pending.direction else "") + (" in reverse" if pending.reverse else "")
    c.text(f"Chosen: {title}", 19, draw.SELECT)
    refused = ctl.refusal(pending.template)
    if refused:
        c.text(f"Not permitted: {refused}", 16, draw.INTERRUPT)
    c.buttons([("Choose it (Enter)", "app:confirm", not refused),
               ("Mirror (Tab)", "app:mirror", pending.direction is not None),
               ("Reverse (V)", "app:reverse", p.reverse_allowed, pending.reverse), ("Cancel (Esc)", "app:cancel")],
              per_row=2)


def _shifts(ctl: GameController, c: _Cursor, p: ShiftsPrompt) -> None:
    roll = p.roll
    cancelled = ctl.cancelled_dice()
    used = len(ctl.draft.spends)
    dice: list[tuple[str | int, dict[str, object]]] = []
    shift_no = 0
    for i, f in enumerate(roll.faces):
        extra: dict[str, object] = {"action": f"die:{i}", "crossed": i in cancelled}
        if f is SkidFace.SHIFT:
            extra["dim"] = shift_no < used
            extra["caption"] = "spent" if shift_no < used else "Shift"
            shift_no += 1
        dice.append((f.value, extra))
    for k in range(roll.free_shifts):
        spent = shift_no + k < used
        dice.append(("shift", {"dim": spent, "caption": "spent" if spent else "free"}))
    c.dice(dice)
    out, err = ctl.shift_outcome()
    v = ctl.vehicle(p.vehicle_id)
    left = ctl.shifts_left()
    if out is not None:
        d = out.driving
        effects = [w for w, on in (("Slide", out.slide), ("Spin", out.spin)) if on]
        c.text(f"Shifts left: {left}.  Gear {v.gear} -> {d.gear},  Hazards {v.hazards} -> {d.hazards}"
               + (f",  {' and '.join(effects)}" if effects else ""), 18, draw.SELECT)
    else:
        c.text(err, 16, draw.INTERRUPT)
    c.buttons([("Gear up (+1 Haz)", "spend:gear_up", ctl.can_spend(SpendShift(ShiftUse.GEAR_UP))),
               ("Gear down (+1 Haz)", "spend:gear_down", ctl.can_spend(SpendShift(ShiftUse.GEAR_DOWN))),
               ("Drop a Hazard", "spend:discard_hazard", ctl.can_spend(SpendShift(ShiftUse.DISCARD_HAZARD))),
               ("Take back", "unspend", used > 0), ("Done (Enter)", "done")], per_row=3)
    c.text("Uncancelled Hazard, Spin and Slide dice add a Hazard Token each; unspent Shifts are lost (p.23-24).",
           15, draw.TEXT_DIM)


def _react(ctl: GameController, c: _Cursor, p: ReactPrompt) -> None:
    kind = p.orientation.value.replace("_", "-").title()
    against = f"the {p.other_name}" if p.other_obstacle else f"{p.other_name}'s {p.other_edge}"
    c.text(f"{ctl.name(p.vehicle_id)}'s {p.edge} meets {against}: {kind} (p.52-53). {ctl.name(p.vehicle_id)} "
           "reacts:", 17)
    labels = {"smash": "Smash (attack dice)", "evade": "Evade (dice = gear)", "piledriver": "Piledriver (p.120)"}
    c.buttons([(labels.get(r.value, r.value), f"react:{r.value}") for r in p.reactions], per_row=2)
    c.text("Smash: roll attack dice by orientation and weight, hits on 4+. Evade: roll dice equal to the current "
           "gear, each 6 cancels a hit (p.54-55).", 15, draw.TEXT_DIM)


def _attacks(ctl: GameController, c: _Cursor) -> None:
    options = ctl.attack_options()
    chosen = ctl.draft.attacks
    limit = ctl.attack_limit()
    c.text(f"Crew {limit}: up to {limit} attacks (p.31). Picked {len(chosen)}.", 17)
    if not options:
        c.text("No target in range and arc (p.28-30).", 17, draw.TEXT_DIM)
    rows = []
    for o in options[:8]:
        on = any(a.mount == o.mount and a.target == o.target for a in chosen)
        extra = f"{o.range_band}" + (", cover -1" if o.cover else "")
        rows.append((f"{'[x]' if on else '[ ]'} {o.weapon} -> {ctl.name(o.target)} ({extra})",
                     f"target:{o.mount}:{o.target}", True, on))
    c.buttons(rows, per_row=1, height=24)
    drops = ctl.drop_options()
    if drops:
        c.text("Drop one weapon's template against an edge (p.78):", 15, draw.TEXT_DIM)
        picked = ctl.draft.drop
        c.buttons([(f"{'[x]' if on else '[ ]'} drop {o.weapon} ({o.edge})", f"drop:{o.mount}:{o.edge}", True, on)
                   for o in drops[:4]
                   for on in [picked is not None and (picked.mount, picked.edge) == (o.mount, o.edge)]],
                  per_row=1, height=24)
    count = len(chosen) + (ctl.draft.drop is not None)
    c.buttons([(f"Fire {count}" + (" (Enter)" if count else ""), "fire", bool(count)),
               ("No attack" + ("" if count else " (Enter)"), "hold")], per_row=2)


def _game_over(ctl: GameController, c: _Cursor) -> None:
    c.text("Standings (p.128):", 18)
    for i, name in enumerate(ctl.standings(), 1):
        c.text(f"{i}. {name}", 18, draw.SELECT if i == 1 else draw.TEXT)
    c.text("Ctrl+S saves the game, Ctrl+Z takes back the last decision, F2 opens the free table.", 15, draw.TEXT_DIM)


def _latest_dice(ctl: GameController, c: _Cursor) -> None:
    event = next((e for e in reversed(ctl.game.log) if e.dice), None)
    if event is None:
        return
    c.space(4)
    c.text("Last roll: " + event.text + (f"  ({event.rule})" if event.rule else ""), 16, draw.TEXT_DIM)
    for label, group in dice_groups(event):
        dice = [(face, {"tone": tone}) for face, tone in group]
        if label:
            c.text(label, 14, draw.TEXT_DIM, gap=0)
        skid = all(isinstance(face, str) for face, _ in group)
        c.dice(dice, size=ROLL_SKID_DIE_PX if skid else ROLL_DIE_PX)


# ==================================================================== drawing
def draw_panel(surface: pygame.Surface, panel: Panel, tumble: list[int] | None = None) -> None:
    """Paint the lines, buttons and dice (dice tumble while ``panel.tumbling``)."""
    for line in panel.lines:
        draw.text(surface, line.text, line.pos, line.size, line.colour)
    for b in panel.buttons:
        draw_button(surface, b, 17)
    for i, d in enumerate(panel.dice):
        roll = tumble[i % len(tumble)] if panel.tumbling and tumble else None
        draw_die(surface, d, roll)
