"""A :class:`~simulator.ui.controller.TurnController` driven by a rules-engine :class:`Game` (hot-seat play).

The window never changes the game itself: every click the player makes in
game mode becomes a decision value (:mod:`simulator.gaslands.decisions`)
passed to :meth:`Game.decide`; the engine checks it and answers with the next
prompt. This controller keeps only what the screen needs around that:

- the table as it should be drawn (:meth:`GameController.display_table`): the
  scenario's table with the game's poses, gears, destroyed obstacles and wrecks;
- what the player is assembling for the current prompt before it is sent
  (dice marked for Push It, Shifts spent so far, attacks picked, a Spin or
  Lose Control facing): :class:`Draft`;
- which seats bots take (:attr:`GameController.bots`) and their visible delay;
- motions to animate after a decision (the car drives along the path of its
  move, from the engine's :class:`~simulator.gaslands.events.Moved` events;
  other pose changes slide there); badges from the events' types;
- the save file: autosave after every decision (so a crash loses at most the
  decision in progress, DESIGN.md), save, load, and undo (a step back in the
  game's history, :meth:`Game.undo`).

What may be chosen comes from the typed prompt (:mod:`simulator.gaslands.prompts`);
what happened from the typed events (:mod:`simulator.gaslands.events`). No rule
is checked here and no log text is read.

Rules quoted by page: the round p.19-20, the Movement Step p.21-26, Skid
Dice and Shifts p.22-24 and p.38-41, attacks p.30-33, Collisions p.52-57,
Wipeouts p.34-35, Wrecks p.43-44, the races p.62 and p.124-128.
"""

from __future__ import annotations

import math
import random
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import assert_never

from shapely.geometry import Polygon

from simulator.errors import IllegalChoice
from simulator.gaslands.bots import Bot
from simulator.gaslands.collisions import Reaction
from simulator.gaslands.decisions import (
    Activate,
    Attack,
    Decision,
    Declare,
    DeclareAttacks,
    Deploy,
    Drop,
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
)
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.events import (
    Attacked,
    Burned,
    Collided,
    CrossedFinish,
    Disqualified,
    Flipped,
    GameEvent,
    LostControl,
    Moved,
    PassedGates,
    WipedOut,
    Wrecked,
)
from simulator.gaslands.game import Game
from simulator.gaslands.permitted import Manoeuvre
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
    TemplatePrompt,
    VotesPrompt,
)
from simulator.gaslands.round import qualifies
from simulator.gaslands.skid import ShiftUse, SkidOutcome, SpendShift
from simulator.gaslands.state import DroppedTemplate, GameState, Status, VehicleState
from simulator.geometry.path import Path as GeometryPath
from simulator.geometry.placement import Move
from simulator.geometry.pose import Pose
from simulator.geometry.table import Table
from simulator.scenario import saves as saving
from simulator.scenario.loader import Scenario, parse_scenario
from simulator.ui.controller import Verdict

BOT_DELAY_S = 0.8
"""A bot waits this long before each decision so people can follow it."""
MOVE_S = 0.7
"""How long a car takes to drive its move on screen."""
ROLL_S = 0.45
"""Dice tumble this long on screen before showing their faces."""
FLASH_S = 3.5
"""How long a badge (WIPEOUT, FLIPPED, WRECKED...) stays over a vehicle."""
FADE_S = 1.0
"""A badge fades out over its last this many seconds."""
BADGE_RANK = ("GATE", "COLLISION", "ON FIRE", "LOST CONTROL", "WIPEOUT", "FLIPPED", "FINISH!", "OFF THE TABLE",
              "WRECKED", "BOOM")
"""When one decision gives a car several badges, the one latest here is kept (hit badges rank lowest)."""
LOSE_CONTROL_TURNS = (-135.0, -90.0, -45.0, 0.0, 45.0, 90.0, 135.0, 180.0)
"""Facings offered to the player who makes a wiped-out vehicle lose control (relative to its heading, p.35)."""
SPIN_PRESETS = (-90.0, -45.0, 0.0, 45.0, 90.0)
PIVOT_PRESETS = (-135.0, -90.0, -45.0, 0.0, 45.0, 90.0, 135.0, 180.0)
"""Pivot (p.69): any facing; the panel offers these turns."""
PILEDRIVE_SHOVES = (-60.0, -30.0, 0.0, 30.0, 60.0)
"""Piledriver (p.120): how far along its heading the target is moved (Short range is about 60 mm)."""


def default_autosave_path() -> Path:
    """``~/.local/share/gaslands/autosave.json`` (the folder is made on first write)."""
    return Path.home() / ".local" / "share" / "gaslands" / "autosave.json"


@dataclass(frozen=True)
class GameStatus:
    """Dashboard values from the game state (the window's ``vehicle_status`` hook)."""

    hazards: int
    hull: int
    hull_max: int
    note: str = ""


@dataclass
class Motion:
    """A vehicle moving on screen from one pose to another along sampled poses."""

    vehicle_id: str
    poses: list[Pose]
    duration: float = MOVE_S
    elapsed: float = 0.0

    def pose(self) -> Pose:
        """The pose now (smoothstep along the samples)."""
        t = min(max(self.elapsed / self.duration, 0.0), 1.0) if self.duration > 0 else 1.0
        t = t * t * (3.0 - 2.0 * t)
        if len(self.poses) == 1:
            return self.poses[0]
        u = t * (len(self.poses) - 1)
        i = min(int(u), len(self.poses) - 2)
        return _lerp_pose(self.poses[i], self.poses[i + 1], u - i)

    @property
    def done(self) -> bool:
        return self.elapsed >= self.duration


@dataclass
class Draft:
    """What the player is putting together for the current prompt, before it becomes a decision."""

    marked: set[int] = field(default_factory=set)
    spends: list[SpendShift] = field(default_factory=list)
    attacks: list[Attack] = field(default_factory=list)
    drop: Drop | None = None
    spin_deg: float = 0.0
    turn_deg: float = 0.0
    deploy: str = ""
    push_mm: float = 0.0


@dataclass(frozen=True)
class DropOption:
    """A dropped weapon that can be dropped now against one vehicle edge (p.78)."""

    mount: int
    weapon: str
    edge: str


@dataclass(frozen=True)
class AttackOption:
    """A weapon that can fire at a target now (p.30): the mount (``-1`` Handgun), names, range band, Cover."""

    mount: int
    weapon: str
    target: str
    range_band: str
    cover: bool


def _lerp_pose(a: Pose, b: Pose, t: float) -> Pose:
    turn = math.remainder(b.heading_deg - a.heading_deg, 360.0)
    return Pose(a.x_mm + (b.x_mm - a.x_mm) * t, a.y_mm + (b.y_mm - a.y_mm) * t, (a.heading_deg + turn * t) % 360.0)


def _near(a: Pose, b: Pose, tol_mm: float = 0.5) -> bool:
    return math.dist((a.x_mm, a.y_mm), (b.x_mm, b.y_mm)) <= tol_mm and abs(
        math.remainder(a.heading_deg - b.heading_deg, 360.0)) <= 0.5


def _sampled(path: GeometryPath) -> list[Pose]:
    return path.sample(4.0)


def _badge_rank(badge: str) -> int:
    return BADGE_RANK.index(badge) if badge in BADGE_RANK else -1


def forced_answer(game: Game) -> Decision | None:
    """The only answer to a prompt with no dice at all (a Shifts or Push It prompt with nothing rolled), else None."""
    p = game.prompt
    if isinstance(p, ShiftsPrompt) and not p.roll.faces:
        return SpendShifts(()) if p.roll.free_shifts == 0 else None
    if isinstance(p, PushItPrompt) and not p.roll.faces:
        return PushIt(())
    return None


def scenario_of(game: Game) -> Scenario:
    """The scenario a game was started from (re-read from the text saved with it)."""
    if game.origin is None:
        raise ValueError("this game has no origin: create it with setup.new_game")
    return parse_scenario(tomllib.loads(game.origin.scenario_text), game.origin.source)


class GameController:
    """Hot-seat play of a :class:`Game` in the window (see the module docstring)."""

    def __init__(self, game: Game, scenario: Scenario | None = None, *, autosave_path: Path | None = None,
                 bots: set[int] | None = None, bot_delay_s: float = BOT_DELAY_S,
                 animate: bool = True) -> None:
        self.game = game
        self.scenario = scenario or scenario_of(game)
        self.autosave_path = autosave_path
        self.bots: set[int] = set(bots or ())
        self.bot = Bot()
        self.bot_delay_s = bot_delay_s
        self.animate = animate
        self.bot_wait = 0.0
        self.bots_paused = False
        self.motions: list[Motion] = []
        self.draft = Draft()
        self.message = ""
        self.revision = 0
        self.roll_left = 0.0
        self.flashes: dict[str, tuple[str, float]] = {}
        self.fresh = 0
        """Index into the log of the first event of the last decision (newer events are highlighted)."""
        self.autosaved_once = False
        self.on_change: Callable[[], None] | None = None
        self._tumble = random.Random(0)

    # ================================================================ names and state
    @property
    def state(self) -> GameState:
        """The game's table now."""
        return self.game.state

    @property
    def prompt(self) -> Prompt:
        """The question the game asks now."""
        return self.game.prompt

    def name(self, vehicle_id: str) -> str:
        """The vehicle's name from the scenario (else the id)."""
        try:
            return self.scenario.vehicle_spec(vehicle_id).name or vehicle_id
        except KeyError:
            return vehicle_id

    def player_name(self, player: int) -> str:
        """The player's name (``Red Team``)."""
        players = self.state.players
        return players[player] if 0 <= player < len(players) else "nobody"

    def player_colour(self, player: int) -> str:
        """The player's colour from the scenario (hex)."""
        spec = self.scenario.spec.player
        return spec[player].colour if 0 <= player < len(spec) and spec[player].colour else "#999999"

    def readable(self, text: str) -> str:
        """Engine text with vehicle ids replaced by their names."""
        for v in sorted(self.state.vehicles, key=lambda v: -len(v.id)):
            text = text.replace(v.id, self.name(v.id))
        return text

    def vehicle(self, vehicle_id: str) -> VehicleState:
        """The engine's vehicle."""
        return self.state.vehicle(vehicle_id)

    def is_bot_turn(self) -> bool:
        """Whether a bot answers the current prompt."""
        return self.prompt.kind != "game_over" and self.prompt.player in self.bots

    def over(self) -> bool:
        """Whether the game has ended."""
        return self.prompt.kind == "game_over"

    def qualifying_now(self) -> tuple[str, ...]:
        """Every vehicle that may still activate in this Gear Phase, whichever player owns it (p.19)."""
        rs = self.state.round
        return tuple(v.id for v in self.state.vehicles if qualifies(v.contender(), rs))

    def display_table(self) -> Table:
        """The scenario's table with the game's poses and gears; removed obstacles gone, wrecks kept as pieces."""
        base = self.scenario.table
        pieces = []
        for piece in base.vehicles:
            try:
                v = self.vehicle(piece.id)
            except KeyError:
                continue
            if v.status in (Status.REMOVED, Status.DISQUALIFIED) or piece.id in self.state.removed_obstacles:
                continue  # a wreck destroyed in a collision is gone from the table (p.44, p.49)
            pieces.append(replace(piece, pose=v.pose, gear=v.gear, reversing=v.reversing))
        removed = self.state.removed_obstacles
        obstacles = tuple(o for o in base.obstacles if o.id not in removed)
        return replace(base, vehicles=tuple(pieces), obstacles=obstacles)

    def wrecks(self) -> frozenset[str]:
        """Ids of the vehicles that are wrecks on the table (p.43)."""
        return frozenset(v.id for v in self.state.vehicles
                         if v.status is Status.WRECK and v.id not in self.state.removed_obstacles)

    def moving_pose(self, vehicle_id: str) -> Pose | None:
        """Where an animated vehicle is drawn now (None: at its pose)."""
        for m in self.motions:
            if m.vehicle_id == vehicle_id:
                return m.pose()
        return None

    # ================================================================ TurnController
    def headline(self, table: Table) -> str:
        """Round, Gear Phase and whose decision it is."""
        rs = self.state.round
        if self.over():
            return f"Game over after round {rs.round_no}"
        who = self.player_name(self.prompt.player)
        return f"Round {rs.round_no}, Gear Phase {rs.gear_phase}: {who} to decide"

    def active_vehicle(self) -> str:
        """The vehicle the prompt is about ('' when choosing which to activate)."""
        return self.prompt.vehicle_id

    def can_select(self, table: Table, vehicle_id: str) -> Verdict:
        """Only the vehicle to act (or, when activating, a qualifying one) may be picked."""
        p = self.prompt
        if p.kind == "game_over":
            return Verdict.no("The game is over. Ctrl+Z takes the last decision back; F2 opens the free table.")
        if self.is_bot_turn():
            return Verdict.no(f"{self.player_name(p.player)} is played by a bot: wait, or give the seat "
                              "to a person with its seat button.")
        if isinstance(p, ActivatePrompt):
            if vehicle_id in p.vehicles:
                return Verdict.yes()
            return Verdict.no(f"{self.name(vehicle_id)} does not qualify now: {self.player_name(p.player)} "
                              f"activates one of {', '.join(self.name(o) for o in p.vehicles)} (p.19)")
        if vehicle_id == p.vehicle_id:
            return Verdict.yes()
        return Verdict.no(f"{self.name(p.vehicle_id)} is activated now; answer the panel on the right.")

    def permitted(self, vehicle_id: str) -> dict[str, Manoeuvre]:
        """The templates the engine offers this vehicle now, with how each counts (p.22, p.38)."""
        p = self.prompt
        if not isinstance(p, TemplatePrompt) or vehicle_id != p.vehicle_id:
            return {}
        return {t.template: t.manoeuvre for t in p.templates if t.permitted}

    def refusal(self, template: str) -> str:
        """Why the engine refuses ``template`` now, with the page ("" when it is permitted)."""
        p = self.prompt
        if not isinstance(p, TemplatePrompt):
            return ""
        option = p.option(template)
        if option is None:
            return f"{template.replace('_', ' ')} is not in the template set"
        return "" if option.permitted else f"{option.reason} ({option.page})"

    def manoeuvre(self, table: Table, vehicle_id: str, template: str) -> Manoeuvre:
        """The engine's legal templates only; everything else is not permitted now."""
        return self.permitted(vehicle_id).get(template, Manoeuvre.NOT_PERMITTED)

    def can_move(self, table: Table, vehicle_id: str, move: Move) -> Verdict:
        """A template may be chosen for the active vehicle during its template decision only (the prompt says)."""
        p = self.prompt
        if not isinstance(p, TemplatePrompt) or vehicle_id != p.vehicle_id:
            return Verdict.no("No template to choose now: " + self.instruction())
        refused = self.refusal(move.template)
        if refused:
            return Verdict.no(f"{move.template.replace('_', ' ')}: {refused}")
        if move.reverse and not p.reverse_allowed:
            return Verdict.no(f"no reversing now: {p.reverse_reason}")
        if move.slide or move.spin_deg:
            return Verdict.no("Slides and Spins come from the Skid Dice (p.24)")
        return Verdict.yes()

    def can_hand_move(self, table: Table, piece_id: str) -> Verdict:
        """Nothing moves by hand in a game (F2 opens the free table)."""
        return Verdict.no("In a game pieces move only by the rules; F2 opens the free table to move by hand.")

    def can_set_gear(self, table: Table, vehicle_id: str, gear: int) -> Verdict:
        """Gears change only with Shift results (p.23)."""
        return Verdict.no("In a game the gear changes by spending Shift results on the Skid Dice (p.23).")

    def moved(self, before: Table, after: Table, vehicle_id: str, move: Move | None) -> None:
        """The game moves pieces itself; the window reports nothing."""

    def vehicle_status(self, vehicle_id: str) -> GameStatus | None:
        """Hazard Tokens, Hull Points and a note (wreck, on fire, gates, qualifies) from the game state."""
        try:
            v = self.vehicle(vehicle_id)
        except KeyError:
            return None
        notes = []
        if v.status is Status.WRECK:
            notes.append("WRECKED")
        elif v.status is Status.REMOVED:
            notes.append("DESTROYED")
        elif v.status is Status.DISQUALIFIED:
            notes.append("OFF THE TABLE")
        if v.on_fire:
            notes.append("ON FIRE")
        course = self.game.options.course
        if course.death_race:
            notes.append(f"gates {v.gates_passed}/{len(course.gates)}")
        if v.in_play and not self.over():
            if vehicle_id == self.prompt.vehicle_id:
                notes.append("ACTIVE")
            elif vehicle_id in self.qualifying_now():
                notes.append("to activate")
        return GameStatus(v.hazards, v.hull_points, v.hull, ", ".join(notes))

    # ================================================================ what to do now
    def instruction(self) -> str:
        """One sentence: who decides what now, and how."""
        p = self.prompt
        who = self.player_name(p.player)
        name = self.name(p.vehicle_id) if p.vehicle_id else ""
        if isinstance(p, GameOverPrompt):
            return self.result_text()
        if self.is_bot_turn():
            return f"{who} (bot) is deciding..."
        match p:
            case ActivatePrompt():
                return f"{who}: click the car to activate (glowing), or drag a template onto it."
            case TemplatePrompt():
                if p.touch_it_use_it:
                    return f"{who}: the template touched was refused; choose a permitted one for {name} (p.38)."
                return f"{who}: drag a permitted template from the tray onto {name}, then Enter."
            case SkidPrompt():
                return f"{who}: choose how many Skid Dice {name} rolls (p.22)."
            case PushItPrompt():
                return f"{who}: keep the dice, or click dice to reroll and Push It (+1 Hazard, p.40)."
            case ShiftsPrompt():
                return f"{who}: click a Hazard/Spin/Slide die to cancel it with a Shift, or use the buttons; Done."
            case SlideFacingPrompt():
                return f"{who}: which way does {name} face after its Slide? (p.26)"
            case SpinPrompt():
                return f"{who}: Spin {name} up to {p.max_deg:.0f} degrees either way, then Spin (Enter) (p.24)."
            case ReactPrompt():
                return f"{who}: Smash or Evade? (p.53)"
            case AttacksPrompt():
                return f"{who}: pick targets for {name}'s weapons, then Fire (Enter) (p.30)."
            case LoseControlPrompt():
                return f"{who}: choose the facing of {name}, which lost control ({'p.119' if p.jackknife else 'p.35'})."
            case PassPolePrompt():
                return f"{who}: hand Pole Position to another player (p.125)."
            case VotesPrompt():
                return f"{who}: spend Audience Votes before activating, or not (p.89)."
            case DeployPrompt():
                return f"{who}: place a car on the Starting Grid: pick a car and a slot (p.126)."
            case DeclarePrompt():
                return f"{who}: {p.question} ({p.rule})"
            case PivotPrompt():
                extra = f" for {p.hazards} Hazard Tokens" if p.hazards else ""
                return f"{who}: {p.rule} {name} up to {p.max_deg:.0f} degrees either way{extra}, or not ({p.page})."
            case PiledriverPrompt():
                return f"{who}: place {self.name(p.target)} within Short range, any facing, or leave it (p.120)."
            case _ as unreachable:
                assert_never(unreachable)

    def result_text(self) -> str:
        """Who won (or why nobody did), from the game-over prompt."""
        p = self.prompt
        if not isinstance(p, GameOverPrompt):
            return ""
        if p.winner is None:
            return f"Game over: no winner ({p.reason})."
        return f"{self.player_name(p.winner)} wins! ({p.reason})"

    def standings(self) -> tuple[str, ...]:
        """Vehicle names from first to last (p.128), as the engine ranked them."""
        p = self.prompt
        return p.standings if isinstance(p, GameOverPrompt) else ()

    # ================================================================ drafts for the current prompt
    def shift_outcome(self) -> tuple[SkidOutcome | None, str]:
        """What the Shifts spent so far would give, or why they are illegal (the prompt rules)."""
        p = self.prompt
        if not isinstance(p, ShiftsPrompt):
            return None, ""
        try:
            return p.outcome(tuple(self.draft.spends)), ""
        except IllegalChoice as exc:
            return None, str(exc)

    def shifts_left(self) -> int:
        """Shift results not spent yet in the draft."""
        p = self.prompt
        return (p.shifts if isinstance(p, ShiftsPrompt) else 0) - len(self.draft.spends)

    def cancelled_dice(self) -> frozenset[int]:
        """Dice the draft cancels with Shifts."""
        return frozenset(s.die for s in self.draft.spends if s.use is ShiftUse.CANCEL and s.die is not None)

    def can_spend(self, spend: SpendShift) -> bool:
        """Whether one more Shift spent this way is legal (p.23)."""
        p = self.prompt
        return isinstance(p, ShiftsPrompt) and self.shifts_left() > 0 and p.allows((*self.draft.spends, spend))

    def skid_faces(self) -> tuple[SkidFace, ...]:
        """The Skid Dice on the table for a Push It or Shifts prompt."""
        p = self.prompt
        return p.faces if isinstance(p, PushItPrompt | ShiftsPrompt) else ()

    def attack_options(self) -> list[AttackOption]:
        """Every weapon with a target in range and arc now (p.28-31), Handguns included: the prompt's list."""
        p = self.prompt
        if not isinstance(p, AttacksPrompt):
            return []
        return [AttackOption(w.mount, w.name, t.vehicle_id, t.range_band, t.cover) for w in p.weapons
                for t in p.targets(w.mount)]

    def drop_options(self) -> list[DropOption]:
        """Every dropped weapon and each edge of its Arc of Fire it may go against (p.78): the prompt's list."""
        p = self.prompt
        if not isinstance(p, AttacksPrompt):
            return []
        return [DropOption(d.mount, d.name, edge) for d in p.drops for edge in d.edges]

    def dropped_shapes(self) -> list[tuple[DroppedTemplate, Polygon]]:
        """The dropped templates on the table, bottom of the stack first, with their outlines (p.78)."""
        return [(t, self.game.referee.dropped_polygon(t.template, t.pose)) for t in self.state.dropped]

    def attack_limit(self) -> int:
        """Attacks allowed this Attack Step: the Crew Value (p.31)."""
        p = self.prompt
        return p.max_attacks if isinstance(p, AttacksPrompt) else 0

    def grid_previews(self) -> dict[int, Pose]:
        """For a deploy prompt: where the chosen (or first) waiting car would stand in each open slot (p.126)."""
        p = self.prompt
        if not isinstance(p, DeployPrompt):
            return {}
        vid = self.deploy_vehicle()
        return {s.slot: s.pose for s in p.previews if s.vehicle_id == vid}

    def deploy_vehicle(self) -> str:
        """The waiting car the deploying player has picked (the first one until they pick another)."""
        p = self.prompt
        waiting = list(p.vehicles) if isinstance(p, DeployPrompt) else []
        if self.draft.deploy in waiting:
            return self.draft.deploy
        return waiting[0] if waiting else ""

    def piledrive_pose(self) -> Pose | None:
        """For a piledriver prompt: where the target goes with the drafted shift and turn (p.120)."""
        p = self.prompt
        if not isinstance(p, PiledriverPrompt):
            return None
        pose = self.vehicle(p.target).pose
        return pose.ahead(self.draft.push_mm).turned(self.draft.turn_deg)

    def preview_pose(self) -> Pose | None:
        """Where a Spin or Lose Control facing being chosen would turn the vehicle (before the engine rules)."""
        p = self.prompt
        if isinstance(p, SpinPrompt | PivotPrompt):
            return self.vehicle(p.vehicle_id).pose.turned(self.draft.spin_deg)
        if isinstance(p, PiledriverPrompt):
            return self.piledrive_pose()
        if isinstance(p, LoseControlPrompt):
            return self.vehicle(p.vehicle_id).pose.turned(self.draft.turn_deg)
        return None

    def slide_previews(self) -> dict[str, Pose]:
        """For a slide_facing prompt: where the Slide ends facing left and right (geometry preview, p.26)."""
        p = self.prompt
        if isinstance(p, SlideFacingPrompt):
            return {e.side: e.pose for e in p.endings if e.side is not None}
        if isinstance(p, ShiftsPrompt) and p.slide_endings:
            out, _ = self.shift_outcome()
            if out is not None and out.slide:
                return {(e.side or "slide"): e.pose for e in p.slide_endings}
        return {}

    # ================================================================ actions (clicks and keys)
    def act(self, action: str) -> bool:
        """Run a panel action (``roll:2``, ``die:1``, ``done``...); True if it changed anything."""
        if self.is_bot_turn() and not action.startswith("seat:"):
            self.message = f"{self.player_name(self.prompt.player)} is a bot seat: wait for it."
            return False
        kind, _, arg = action.partition(":")
        d = self.draft
        p = self.prompt
        if kind == "seat":
            self.toggle_bot(int(arg))
            return True
        if kind == "activate":
            return self.decide(Activate(arg))
        if kind == "roll":
            return self.decide(RollSkid(int(arg)))
        if kind == "die":
            return self._click_die(int(arg))
        if kind == "push":
            return self.decide(PushIt(tuple(sorted(d.marked))))
        if kind == "keep":
            return self.decide(PushIt(()))
        if kind == "spend":
            spend = SpendShift(ShiftUse(arg))
            if not self.can_spend(spend):
                self.message = "No Shift left for that, or it breaks a rule (p.23)."
                return False
            d.spends.append(spend)
            return True
        if kind == "unspend":
            if d.spends:
                d.spends.pop()
            return True
        if kind == "done":
            return self.decide(SpendShifts(tuple(d.spends)))
        if kind == "choose":
            return False
        if kind == "slide":
            return self.decide(SlideFacing(arg))  # type: ignore[arg-type]
        if kind == "spinto":
            d.spin_deg = float(arg)
            return True
        if kind == "spin":
            return self.decide(Spin(d.spin_deg))
        if kind == "react":
            return self.decide(React(Reaction(arg)))
        if kind == "target":
            mount_s, _, target = arg.partition(":")
            attack = Attack(int(mount_s), target)
            if attack in d.attacks:
                d.attacks.remove(attack)
            elif len(d.attacks) + (d.drop is not None) >= self.attack_limit():
                self.message = f"Only {self.attack_limit()} attacks: the Crew Value (p.31). Untick one first."
                return False
            elif attack.mount >= 0 and any(a.mount == attack.mount for a in d.attacks):
                self.message = "Each weapon attacks once per Attack Step (p.31)."
                return False
            else:
                d.attacks.append(attack)
            return True
        if kind == "drop":
            mount_s, _, edge = arg.partition(":")
            drop = Drop(int(mount_s), edge)  # type: ignore[arg-type]
            if d.drop == drop:
                d.drop = None
            elif d.drop is None and len(d.attacks) >= self.attack_limit():
                self.message = f"Only {self.attack_limit()} attacks: the Crew Value (p.31). Untick one first."
                return False
            else:
                d.drop = drop  # one dropped weapon per Attack Step (p.78)
            return True
        if kind == "fire":
            return self.decide(DeclareAttacks(tuple(d.attacks), (d.drop,) if d.drop is not None else ()))
        if kind == "hold":
            return self.decide(DeclareAttacks(()))
        if kind == "turn":
            d.turn_deg = float(arg)
            return True
        if kind == "lose":
            return self.decide(LoseControl((self.vehicle(p.vehicle_id).pose.heading_deg + d.turn_deg) % 360.0))
        if kind == "pole":
            return self.decide(PassPole(int(arg)))
        if kind == "vote":
            if not isinstance(p, VotesPrompt) or not 0 <= int(arg) < len(p.choices):
                return False
            return self.decide(SpendVotes((p.choices[int(arg)].effect,)))
        if kind == "novote":
            return self.decide(SpendVotes(()))
        if kind == "deploycar":
            d.deploy = arg
            return True
        if kind == "deploy":
            return self.decide(Deploy(self.deploy_vehicle(), int(arg)))
        if kind == "declare":
            return self.decide(Declare(arg))
        if kind == "pivot":
            return self.decide(Pivot(d.spin_deg))
        if kind == "shove":
            d.push_mm = float(arg)
            return True
        if kind == "piledrive":
            pose = self.piledrive_pose()
            return pose is not None and self.decide(Piledrive(pose.x_mm, pose.y_mm, pose.heading_deg))
        if kind == "noplace":
            return self.decide(Declare("no"))
        self.message = f"unknown action {action}"
        return False

    def primary_action(self) -> str | None:
        """What Enter does for the current prompt."""
        p = self.prompt
        if isinstance(p, SkidPrompt):  # the safe choice: no dice, no risk (p.22)
            return "roll:0"
        if isinstance(p, AttacksPrompt):
            return "fire" if self.attack_count() else "hold"
        return {"push_it": "push" if self.draft.marked else "keep", "shifts": "done", "spin": "spin",
                "lose_control": "lose", "pivot": "pivot", "piledriver": "piledrive"}.get(p.kind)

    def attack_count(self) -> int:
        """Attacks and drops marked in the current attack prompt."""
        return len(self.draft.attacks) + (self.draft.drop is not None)

    def _click_die(self, index: int) -> bool:
        p = self.prompt
        faces = self.skid_faces()
        if p.kind == "push_it":
            if index in self.draft.marked:
                self.draft.marked.discard(index)
            elif 0 <= index < len(faces):
                self.draft.marked.add(index)
            return True
        if p.kind == "shifts" and 0 <= index < len(faces):
            cancel = SpendShift(ShiftUse.CANCEL, index)
            if cancel in self.draft.spends:
                self.draft.spends.remove(cancel)
                return True
            if faces[index] is SkidFace.SHIFT:
                self.message = "A Shift spends itself: click a Hazard, Spin or Slide die to cancel it (p.23)."
                return False
            if not self.can_spend(cancel):
                self.message = "No Shift left to cancel that die (p.23)."
                return False
            self.draft.spends.append(cancel)
            return True
        return False

    def click_vehicle(self, vehicle_id: str) -> bool:
        """A click on a car: activates it when the player is choosing which to activate (p.19)."""
        p = self.prompt
        if p.kind == "activate" and not self.is_bot_turn():
            verdict = self.can_select(Table(1.0, 1.0), vehicle_id)
            if not verdict.allowed:
                self.message = verdict.reason
                return False
            return self.decide(Activate(vehicle_id))
        return False

    def toggle_bot(self, player: int) -> None:
        """A bot takes the seat, or hands it back to a person."""
        if not 0 <= player < len(self.state.players):
            return
        if player in self.bots:
            self.bots.discard(player)
            self.message = f"{self.player_name(player)} is played by a person now."
        else:
            self.bots.add(player)
            self.bots_paused = False
            self.message = f"A bot plays {self.player_name(player)} now."
        self.bot_wait = 0.0
        self._changed()

    # ================================================================ the log
    def display_log(self) -> tuple[list[GameEvent], int]:
        """The engine's events, and the index where the last decision's events start."""
        return list(self.game.log), self.fresh

    # ================================================================ deciding
    def decide(self, decision: Decision) -> bool:
        """Pass ``decision`` to the engine; animate and autosave. False (with the reason) if it is illegal."""
        before = self.state
        logged = len(self.game.log)
        try:
            self.game.decide(decision)
        except IllegalChoice as exc:
            self.message = f"Not allowed: {exc}"
            return False
        self.draft = Draft()
        self.fresh = logged
        new = list(self.game.last_events)
        self.message = new[-1].text + (f" ({new[-1].rule})" if new[-1].rule else "") if new else ""
        if self.animate:
            self._animate(before, new)
            if any(e.dice for e in new):
                self.roll_left = ROLL_S
        self._flash(new)
        self._autosave()
        self._changed()
        forced = forced_answer(self.game)
        if forced is not None:  # nothing to choose: answered through decide, so it is logged and replayed
            return self.decide(forced)
        return True

    def _changed(self) -> None:
        self.revision += 1
        if self.on_change is not None:
            self.on_change()

    def _autosave(self) -> None:
        if self.autosave_path is None:
            return
        try:
            self.autosave_path.parent.mkdir(parents=True, exist_ok=True)
            saving.save(self.game, self.autosave_path)
            wrote = True
        except (OSError, ValueError) as exc:
            self.message = f"Autosave failed: {exc}"
            return
        if wrote and not self.autosaved_once:
            self.autosaved_once = True
            self.message += f"  [autosaving to {self.autosave_path}]"

    def _flash(self, events: list[GameEvent]) -> None:
        """Badges over the vehicles that something happened to (shown on the table for a few seconds)."""
        fresh: dict[str, str] = {}

        def put(vid: str, badge: str) -> None:  # one badge per car: the weightiest of this decision
            old = fresh.get(vid)
            if old is None or _badge_rank(badge) >= _badge_rank(old):
                fresh[vid] = badge

        for e in events:
            match e:
                case Collided():
                    for vid in e.vehicles:
                        put(vid, "COLLISION")
                case Attacked():
                    put(e.vehicle, f"{e.hits} HITS, {e.damage} DAMAGE")
                case Flipped():
                    put(e.vehicle, "FLIPPED")
                case WipedOut():
                    put(e.vehicle, "WIPEOUT")
                case Wrecked():
                    put(e.vehicle, "BOOM" if e.explodes else "WRECKED")
                case LostControl():
                    put(e.vehicle, "LOST CONTROL")
                case Disqualified():
                    put(e.vehicle, "OFF THE TABLE")
                case Burned():
                    put(e.vehicle, "ON FIRE")
                case CrossedFinish() if e.wins:
                    put(e.vehicle, "FINISH!")
                case PassedGates():
                    put(e.vehicle, "GATE")
        for vid, badge in fresh.items():
            self.flashes[vid] = (badge, FLASH_S)

    def flash_alpha(self, vehicle_id: str) -> int:
        """How opaque a car's badge is now (0-255): full, then fading out over the last :data:`FADE_S`."""
        left = self.flashes.get(vehicle_id, ("", 0.0))[1]
        return max(0, min(255, round(255 * left / FADE_S)))

    def facing_chosen(self) -> str:
        """The vehicle whose facing the prompt is choosing (Lose Control, Pivot, Spin), else ''."""
        p = self.prompt
        if isinstance(p, LoseControlPrompt | PivotPrompt | SpinPrompt):
            return p.vehicle_id
        return ""

    def _animate(self, before: GameState, events: list[GameEvent]) -> None:
        """Queue motions for every vehicle whose pose changed; a vehicle that drove follows the path the engine
        reports (:class:`Moved`), others slide."""
        self.motions = []
        paths: dict[str, list[Pose]] = {}
        for e in events:
            if isinstance(e, Moved):
                poses = _sampled(e.path) if e.path is not None else [e.start, e.final]
                paths[e.vehicle] = [*paths.get(e.vehicle, []), *poses]
        for old in before.vehicles:
            try:
                new = self.state.vehicle(old.id)
            except KeyError:
                continue
            if _near(old.pose, new.pose, 1e-6):
                continue
            poses = paths.get(old.id) or [old.pose, new.pose]
            if not _near(poses[-1], new.pose):
                poses = [*poses, new.pose]
            self.motions.append(Motion(old.id, poses))

    # ================================================================ time
    def update(self, dt: float) -> None:
        """Advance animations and the dice tumble; let a bot decide when its delay is over."""
        for m in self.motions:
            m.elapsed += dt
        self.motions = [m for m in self.motions if not m.done]
        self.roll_left = max(0.0, self.roll_left - dt)
        self.flashes = {k: (w, t - dt) for k, (w, t) in self.flashes.items() if t - dt > 0}
        if not self.is_bot_turn() or self.bots_paused or self.motions:
            self.bot_wait = 0.0
            return
        self.bot_wait += dt
        if self.bot_wait >= self.bot_delay_s:
            self.bot_wait = 0.0
            self.decide(self.bot.decide(self.game))

    def tumbling_face(self, index: int) -> int:
        """A random face shown while the dice tumble (not the game's dice)."""
        return self._tumble.randint(1, 6) + 0 * index

    # ================================================================ files
    def replace_game(self, game: Game, message: str) -> None:
        """Continue with another game value (after undo or load)."""
        self.game = game
        self.scenario = scenario_of(game)
        self.draft = Draft()
        self.motions = []
        self.flashes = {}
        self.fresh = len(game.log)
        self.message = message
        self._changed()

    def undo(self) -> bool:
        """Take back the last decision made by a person (bot answers after it go too): a step back in the history."""
        if not self.game.history.can_undo:
            self.message = "Nothing to undo: no decision yet."
            return False
        game = self.game.undo()
        steps = 1
        all_bots = len(self.bots) >= len(self.state.players)
        while game.history.can_undo and (forced_answer(game) is not None
                                         or (not all_bots and game.prompt.player in self.bots)):
            game = game.undo()  # a forced answer (no dice) goes back with the decision before it
            steps += 1
        if all_bots:
            self.bots_paused = True
        self.replace_game(game, f"Undone: {steps} decision{'s' if steps > 1 else ''} taken back "
                                f"({len(game.decisions)} remain)." + (" Bots paused: Space resumes."
                                                                       if all_bots else ""))
        return True

    def save(self, path: Path) -> bool:
        """Save the game (seed, scenario, decisions, log) to ``path`` atomically."""
        try:
            saving.save(self.game, path)
        except OSError as exc:
            self.message = f"Could not save {path}: {exc}"
            return False
        self.message = f"Saved the game to {path} ({len(self.game.decisions)} decisions)."
        return True

    def load(self, path: Path) -> bool:
        """Replace the game with a saved one (replayed)."""
        try:
            game = saving.load(path)
        except saving.SaveError as exc:
            self.message = str(exc).splitlines()[0]
            return False
        except Exception as exc:  # noqa: BLE001 - a save this program cannot replay never ends the game in hand
            self.message = f"{path}: cannot be replayed ({type(exc).__name__}: {exc}); the game goes on"
            return False
        self.replace_game(game, f"Loaded {path}: {len(game.decisions)} decisions replayed.")
        return True
