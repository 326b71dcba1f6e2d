"""The game as a value: a frozen :class:`EngineState` and one pure function that advances it.

``step(state, decision, dice, referee) -> Step(state, events, prompt)`` answers
the state's prompt with a decision and returns the next state, what happened
(events, each with its page) and the next question. Nothing is mutated: the
old state stays valid, so a history of states gives undo and redo for free
(:mod:`simulator.gaslands.game`). Dice come from outside (a
:class:`~simulator.gaslands.dice.DiceSource`), and the geometry is asked
through a :class:`~simulator.gaslands.referee.Referee`.

Where the engine is in the turn is data, never a callback: a collision window
is a frozen :class:`Window` on a stack, and "where play resumes" after a window,
a Wreck or a choice is a frozen :data:`Resume` record (the activation sequence
of p.19-35 written as defunctionalised continuations, timing p.21, p.30, p.34).

Covered: qualifying, Pole Position and passing (p.19-20); template selection
with Touch It Use It (p.38-39), Hazardous and Trivial; Skid Dice, Push It,
Shifts (p.22-24, p.40); Slide facing off straights (p.26); Spin (p.24);
surfaces (p.86); disqualification at the edge (p.87); Collisions with
reactions (p.52-57); the Attack Step with crew limit, Handguns, ammo, Cover,
combined Evade (p.30-33, p.42, p.81); Blitz copies (p.81); Splash against
every vehicle under the template (p.82); dropped weapons (p.78-80): templates
left on the table against the rear or a side edge, resolved in the Collision
Window of the move that overlaps them (Caltrops, Glue, Mines, Napalm, Oil
Slick, Smoke); Wipeouts (p.34-35) with the Flip's forced move and its
Collision Window; Wrecks with the Skid to a Halt's Collision Window and
Twisted Metal, and Explosions (p.43-44); On Fire (p.81); the last player with
vehicles wins (p.62). Collision Windows nest (a wreck skidding to a halt
inside another window), and play resumes where it was interrupted (p.39, p.52).
Races (:mod:`simulator.gaslands.race`): the Street Race finish (p.62); the
Death Race gates in order, Pole Position passing at gates, weapons inactive
until Gate 1, no win for a Helicopter or Gyrocopter, the Starting Grid as the
first decisions (``deploy`` prompts, :mod:`simulator.gaslands.grid`), Green
Light, Go! and the Catch Up Mechanic with Audience Votes (p.124-128).
``Options.round_limit`` ends a game with no winner after that many rounds
(for bots and simulations).
Vehicle special rules (p.66, p.69-71, p.118-120): Roll Cage, Slip Away (a free
activation), Full Throttle, Pivot, Jet Engine (a compulsory Nitro Booster,
p.84), Airborne (in the geometry; dropped templates ignored), Airwolf, Bombs
Away, Infuriating Jingle, Uppers, Downers, All Terrain, Up and Over (the move
goes on from its start with the obstruction taken off the table), Articulated
(+1 Hazard Token off the Straights; Jackknife: pivot and Crunch), Ponderous
(Tanker Anchor, no Slide template, no Lose Control pivot), Piledriver.
Not yet: RC Car Bombs and the Sentry Gun (p.79-80: models, not templates),
the Wreck Lobber's Dumper, the Improvised Sludge Thrower and other weapons'
"See special rules" beyond those above; upgrades other than Rams and the
Exploding Ram (a Nitro Booster only as the Jet Engine's); the War Rig's
trailer as a separate piece (Articulated movement, Swing Trailer, p.118-119);
build-time rules (Turret, Restricted, Bombs Away's free slots).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TypeAlias, TypeVar

from simulator.errors import IllegalChoice
from simulator.gaslands.attacks import (
    HitEffects,
    attack_dice,
    count_hits,
    evade_dice,
    explosion_dice,
    max_attacks,
    resolve_against,
)
from simulator.gaslands.audience import affordable, gain_at_round_start, gain_for_wreck, spend
from simulator.gaslands.collisions import (
    Orientation,
    Participant,
    Reaction,
    check_reaction,
    forced_reaction,
    resolve_collision,
)
from simulator.gaslands.decisions import (
    Activate,
    Attack,
    ChooseTemplate,
    Decision,
    Declare,
    DeclareAttacks,
    Deploy,
    Drop,
    LoseControl,
    PassPole,
    Piledrive,
    Pivot,
    Prompt,
    PromptKind,
    PushIt,
    React,
    RollSkid,
    SlideFacing,
    SpendShifts,
    SpendVotes,
    Spin,
)
from simulator.gaslands.dice import DiceSource
from simulator.gaslands.grid import current_rank_slots, ranks_needed
from simulator.gaslands.permitted import STRAIGHTS, Manoeuvre, PermissionTable, permitted_templates
from simulator.gaslands.race import Course, advance, finished, weapons_active
from simulator.gaslands.referee import Contact, MovePlan, MoveReport, Referee, Shot
from simulator.gaslands.round import RoundState, after_activation, after_pass, next_gear_phase, qualifying
from simulator.gaslands.skid import Driving, SkidRoll, push_it, resolve_shifts, roll_skid_dice
from simulator.gaslands.state import DroppedTemplate, GameState, Status, VehicleState
from simulator.gaslands.tables import Weapon, Weight
from simulator.gaslands.wipeout import WipeoutPlan, next_player, plan_wipeout, wipeout_order, wipes_out
from simulator.gaslands.wrecks import SKID_TO_A_HALT, plan_wreck
from simulator.geometry.pose import Pose

_T = TypeVar("_T")

SURFACE_HAZARDS = {"rough": 1, "treacherous": 2}
"""Hazard Tokens at the end of a Movement Step on these surfaces (p.86)."""

TREACHEROUS_DROPS = frozenset({"caltrop_dropper", "glue_dropper", "oil_slick_dropper"})
"""Dropped templates that count as a treacherous surface (p.79)."""

SPENT_DROPS = frozenset({"caltrop_dropper", "mine_dropper", "napalm_dropper"})
"""Dropped templates that attack the first vehicle they affect and are then removed (p.79)."""

GLUE, SMOKE = "glue_dropper", "smoke_dropper"
GLUE_GEARS = 2
"""Gears a vehicle affected by Glue loses at the end of its Movement Step (p.79)."""

AIRWOLF_HAZARDS = 2
"""Hazard Tokens an Airwolf pivot costs (p.70)."""

AIRWOLF_MAX_DEG = 90.0
"""The largest Airwolf pivot either way (p.70)."""

TANKER_ANCHOR_HAZARDS = 1
"""Hazard Tokens a Ponderous vehicle gains to skip its Movement Step (Tanker Anchor, p.120)."""

ARTICULATED_TURN_HAZARDS = 1
"""Hazard Tokens an Articulated vehicle gains for selecting a template that is not a Straight (p.118)."""

JACKKNIFE_CRUNCH_DICE = 4
"""Attack dice of a Jackknife's Crunch against the vehicle itself, not Evaded (p.119)."""

UPPERS_HAZARDS = 1
"""Hazard Token each vehicle gains for the forced change up of Uppers (p.69)."""

DOWNERS_DISCARD = 2
"""Hazard Tokens the target of a Downers Smash Attack discards instead of gaining any (p.69)."""

DOWNERS_CREW = 1
"""Crew Value the target of a Downers Smash Attack loses until the end of the Gear Phase (p.69)."""

NITRO_TEMPLATE = "long_straight"
NITRO_HAZARDS = 5
"""Nitro Booster (p.84): a forced Long Straight, then Hazard Tokens up to 5 (again at the end of the
Movement Step); a Jet Engine must use it every activation (p.70)."""

CATCH_UP_TARGET = 6
"""D6 plus gates behind needed to gain an Audience Vote when another vehicle is first through a gate (p.127)."""

PIVOT_WORDS = {"Pivot": "Pivot, p.69, p.71", "Airwolf": "Airwolf, p.70"}


@dataclass(frozen=True)
class Event:
    """One line of the game log: who, what, the dice and the rule with its page."""

    text: str
    rule: str = ""
    dice: tuple[object, ...] = ()


@dataclass(frozen=True)
class Options:
    """Switchable rules and the scenario's race rules.

    Touch It Use It (p.38, on by default); passing Pole Position at the end of
    each Gear Phase (Street Race, p.62); the race :class:`Course` (gates, weapons
    until Gate 1, Pole Position at gates, p.124-128); ``round_limit``: the game
    ends without a winner after that many rounds (None: no limit);
    ``audience_votes``: the Audience Votes module (p.88-90, off by default);
    ``starting_grid``: vehicles not yet on the table are deployed to the
    Death Race Starting Grid before the first Gear Phase (p.126).
    """

    touch_it_use_it: bool = True
    pass_pole_each_phase: bool = True
    course: Course = Course()
    round_limit: int | None = None
    audience_votes: bool = False
    starting_grid: bool = False


DEFAULT_OPTIONS = Options()
"""The rules as the book has them, no round limit, no Audience Votes."""


@dataclass(frozen=True)
class Rules:
    """What stays fixed for a whole game: the switchable rules and the template set's permitted gears (p.17)."""

    options: Options
    permissions: PermissionTable = field(compare=False)


# --------------------------------------------------------------------------- where play resumes


class Point(Enum):
    """A point of the activation sequence that play resumes at, with nothing else to remember."""

    NEXT_OPPORTUNITY = "next_opportunity"
    START_OF_ACTIVATION = "start_of_activation"
    START_MOVEMENT = "start_movement"
    AFTER_NITRO = "after_nitro"
    AFTER_MOVE_WINDOW = "after_move_window"
    AFTER_FINAL_POSITION = "after_final_position"
    END_MOVEMENT_STEP = "end_movement_step"
    NEXT_WIPEOUT = "next_wipeout"
    END_ACTIVATION = "end_activation"
    NEXT_COLLISION = "next_collision"


@dataclass(frozen=True)
class Go:
    """Resume at a plain :class:`Point`."""

    point: Point


@dataclass(frozen=True)
class FlipMove:
    """After a Flip's hits: its forced Medium Straight (p.35)."""

    vehicle: str
    plan: WipeoutPlan


@dataclass(frozen=True)
class AfterFlip:
    """After a Flip (or none): reset and Lose Control (p.35)."""

    vehicle: str
    plan: WipeoutPlan


@dataclass(frozen=True)
class Crunch:
    """After a Jackknife's pivot: the Crunch (p.119)."""

    vehicle: str
    plan: WipeoutPlan


@dataclass(frozen=True)
class QueueContacts:
    """Open a Collision Window with these contacts of ``mover`` (p.52), then resume at ``then``."""

    mover: str
    contacts: tuple[Contact, ...]
    then: Resume
    movement: bool = False


@dataclass(frozen=True)
class AfterCollision:
    """A Collision of the innermost window is resolved: Piledriver and Up and Over (p.71, p.120)."""

    movement: bool
    done: Pending


@dataclass(frozen=True)
class ShootFrom:
    """The Attack Step's shots, from group ``index`` on (p.30-33)."""

    index: int
    groups: tuple[tuple[str, tuple[tuple[Attack, bool], ...]], ...]


@dataclass(frozen=True)
class DropFrom:
    """The Attack Step's dropped weapons, from ``index`` on, then the shots (p.78)."""

    index: int
    drops: tuple[Drop, ...]
    groups: tuple[tuple[str, tuple[tuple[Attack, bool], ...]], ...]


@dataclass(frozen=True)
class WrecksThen:
    """Wreck every vehicle at zero Hull Points, then resume at ``then`` (p.43)."""

    then: Resume
    in_collision: bool = False


@dataclass(frozen=True)
class WreckFinish:
    """After a Skid to a Halt's window: reset, Explosion check (p.43-44), then ``then``."""

    vehicle: str
    in_collision: bool
    then: Resume


Resume: TypeAlias = (
    Go | FlipMove | AfterFlip | Crunch | QueueContacts | AfterCollision | ShootFrom | DropFrom | WrecksThen
    | WreckFinish
)
"""Where play resumes: one frozen record per continuation of the activation sequence."""


@dataclass(frozen=True)
class TankerAnchor:
    """A ``declare`` prompt for the Tanker Anchor (p.120)."""


@dataclass(frozen=True)
class UpAndOver:
    """A ``declare`` prompt for Up and Over ``other`` (p.71)."""

    mover: str
    other: str


@dataclass(frozen=True)
class SlipAway:
    """A ``declare`` prompt for Slip Away's free activation (p.66)."""

    vehicle: str


Declared: TypeAlias = TankerAnchor | UpAndOver | SlipAway | None
"""What a ``declare`` prompt's answer goes to."""


@dataclass(frozen=True)
class Pending:
    """A collision waiting for reactions: the active vehicle, the contact, the reactions declared so far."""

    active: str
    contact: Contact
    reactions: tuple[Reaction, ...] = ()


@dataclass(frozen=True)
class Window:
    """A Collision Window being resolved (p.52): its collisions in order, then where play resumes.

    Windows nest on a stack: a vehicle wrecked in a collision skids to a halt
    and opens its own window (p.43) before the outer one goes on. ``movement``:
    the window of the active vehicle's own Movement Step (Up and Over,
    Piledriver, p.71, p.120).
    """

    collisions: tuple[Pending, ...]
    then: Resume
    movement: bool = False


@dataclass(frozen=True)
class Activation:
    """The active vehicle's activation so far (p.19-35): template, Skid Dice, Slide and Spin, the move."""

    active: str = ""
    template: ChooseTemplate | None = None
    manoeuvre: Manoeuvre = Manoeuvre.PERMITTED
    skid_allowed: bool = True
    roll: SkidRoll = SkidRoll()
    slide: bool = False
    spin: bool = False
    interrupted: bool = False
    free: bool = False
    """A Slip Away activation, which does not count as the vehicle's activation (p.66)."""
    nitro: bool = False
    move_start: VehicleState | None = None
    move_plan: MovePlan | None = None
    move_hit: frozenset[str] = frozenset()
    over: frozenset[str] = frozenset()
    over_used: frozenset[str] = frozenset()
    surfaced: MoveReport | None = None


@dataclass(frozen=True)
class Flow:
    """The rest of where the game is: wipeouts and wrecks in progress, choices owed, the Starting Grid."""

    wrecking: frozenset[str] = frozenset()
    collided: frozenset[str] = frozenset()
    wipeouts: tuple[str, ...] = ()
    wiped: str = ""
    pole_pending: bool = False
    after_pole: Resume = Go(Point.NEXT_OPPORTUNITY)
    votes_offered: bool = False
    declaring: str = ""
    on_declared: Declared = None
    slip_away: tuple[str, ...] = ()
    piledriven: tuple[str, VehicleState] | None = None
    after_lose: Resume = Go(Point.NEXT_WIPEOUT)
    grid: tuple[tuple[int, str], ...] = ()
    deploy_turn: int = 0


@dataclass(frozen=True)
class EngineState:
    """Everything the engine knows, as one immutable value.

    ``game`` is the table (vehicles, round, votes, dropped templates); ``rules``
    the fixed rules of this game; ``prompt`` the decision owed; ``activation``,
    ``windows`` (innermost last) and ``flow`` where the engine is in the turn.
    """

    game: GameState
    rules: Rules
    prompt: Prompt
    activation: Activation = Activation()
    windows: tuple[Window, ...] = ()
    flow: Flow = Flow()


@dataclass(frozen=True)
class Step:
    """What :func:`step` returns: the new state, the events in order, and the next prompt."""

    state: EngineState
    events: tuple[Event, ...]

    @property
    def prompt(self) -> Prompt:
        """The decision the new state waits for."""
        return self.state.prompt


def start(game: GameState, rules: Rules, dice: DiceSource, referee: Referee) -> Step:
    """The state of a new game at its first prompt (the Starting Grid, or the first activation, p.19, p.126).

    Audience Votes start at 0 for every player when the module is on (p.88).
    """
    if rules.options.audience_votes and not game.votes:
        game = replace(game, votes=(0,) * len(game.players))
    seed = EngineState(game, rules, Prompt("game_over", -1), flow=Flow(deploy_turn=game.round.pole))
    run = _Run(seed, dice, referee)
    if run.state.undeployed():
        run._next_deploy()
    else:
        run._next_opportunity()
    return Step(run.freeze(), tuple(run.log))


def step(state: EngineState, decision: Decision, dice: DiceSource, referee: Referee) -> Step:
    """Answer ``state.prompt`` with ``decision``: the next state, the events in order, the next prompt.

    Pure: ``state`` is not changed. Dice are drawn from ``dice`` in the order
    the rules roll them; geometry comes from ``referee``. Raises
    :class:`~simulator.errors.IllegalChoice` (naming the rule and its page)
    for a decision the prompt does not allow; nothing is then drawn from
    ``dice`` before the refusal, except where the rules roll first.
    """
    run = _Run(state, dice, referee)
    run.decide(decision)
    return Step(run.freeze(), tuple(run.log))


class _Run:
    """One call of :func:`step`: a working copy of an :class:`EngineState`, frozen again at the end."""

    def __init__(self, s: EngineState, dice: DiceSource, referee: Referee) -> None:
        self.dice = dice
        self.referee = referee
        self.rules = s.rules
        self.options = s.rules.options
        self.permissions = s.rules.permissions
        self.state = s.game
        self.prompt = s.prompt
        self.log: list[Event] = []
        a = s.activation
        self._active = a.active
        self._template = a.template
        self._manoeuvre = a.manoeuvre
        self._skid_allowed = a.skid_allowed
        self._roll = a.roll
        self._slide = a.slide
        self._spin = a.spin
        self._interrupted = a.interrupted
        self._free = a.free
        self._nitro = a.nitro
        self._move_start = a.move_start
        self._move_plan = a.move_plan
        self._move_hit = set(a.move_hit)
        self._over = set(a.over)
        self._over_used = a.over_used
        self._surfaced = a.surfaced
        self._windows: list[Window] = list(s.windows)
        f = s.flow
        self._wrecking = set(f.wrecking)
        self._collided = set(f.collided)
        self._wipeouts = list(f.wipeouts)
        self._wiped = f.wiped
        self._pole_pending = f.pole_pending
        self._after_pole: Resume = f.after_pole
        self._votes_offered = f.votes_offered
        self._declaring = f.declaring
        self._on_declared: Declared = f.on_declared
        self._slip_away = list(f.slip_away)
        self._piledriven = f.piledriven
        self._after_lose: Resume = f.after_lose
        self._grid = dict(f.grid)
        self._deploy_turn = f.deploy_turn

    def freeze(self) -> EngineState:
        """The working copy as a new immutable state."""
        activation = Activation(
            self._active, self._template, self._manoeuvre, self._skid_allowed, self._roll, self._slide,
            self._spin, self._interrupted, self._free, self._nitro, self._move_start, self._move_plan,
            frozenset(self._move_hit), frozenset(self._over), self._over_used, self._surfaced,
        )
        flow = Flow(
            frozenset(self._wrecking), frozenset(self._collided), tuple(self._wipeouts), self._wiped,
            self._pole_pending, self._after_pole, self._votes_offered, self._declaring, self._on_declared,
            tuple(self._slip_away), self._piledriven, self._after_lose, tuple(sorted(self._grid.items())),
            self._deploy_turn,
        )
        return EngineState(self.state, self.rules, self.prompt, activation, tuple(self._windows), flow)

    # ------------------------------------------------------------------ resuming

    def _resume(self, k: Resume) -> None:
        """Go on from ``k`` (see :data:`Resume`)."""
        match k:
            case Go(point):
                self._go(point)
            case FlipMove(vid, plan):
                self._flip_move(vid, plan)
            case AfterFlip(vid, plan):
                self._after_flip(vid, plan)
            case Crunch(vid, plan):
                self._crunch(vid, plan)
            case QueueContacts(mover, contacts, then, movement):
                self._queue(mover, contacts, then, movement=movement)
            case AfterCollision(movement, done):
                self._after_collision(movement, done)
            case ShootFrom(index, groups):
                self._shoot_from(index, groups)
            case DropFrom(index, drops, groups):
                self._drop_from(index, drops, groups)
            case WrecksThen(then, in_collision):
                self._wrecks_then(then, in_collision=in_collision)
            case WreckFinish(vid, in_collision, then):
                self._wreck_finish(vid, in_collision or vid in self._collided, then)

    def _go(self, point: Point) -> None:
        match point:
            case Point.NEXT_OPPORTUNITY:
                self._next_opportunity()
            case Point.START_OF_ACTIVATION:
                self._start_of_activation()
            case Point.START_MOVEMENT:
                self._start_movement()
            case Point.AFTER_NITRO:
                self._nitro_hazards()
                self._start_movement()
            case Point.AFTER_MOVE_WINDOW:
                self._after_move_window()
            case Point.AFTER_FINAL_POSITION:
                self._after_final_position()
            case Point.END_MOVEMENT_STEP:
                self._end_movement_step()
            case Point.NEXT_WIPEOUT:
                self._next_wipeout()
            case Point.END_ACTIVATION:
                self._end_activation()
            case Point.NEXT_COLLISION:
                self._next_collision()

    # ------------------------------------------------------------------ driving

    def decide(self, decision: Decision) -> None:
        """Answer the current prompt; raises :class:`IllegalChoice` if not legal."""
        kind = self.prompt.kind
        match decision:
            case Activate() if kind == "activate":
                self._on_activate(decision)
            case ChooseTemplate() if kind == "template":
                self._on_template(decision)
            case RollSkid() if kind == "skid":
                self._on_roll(decision)
            case PushIt() if kind == "push_it":
                self._on_push(decision)
            case SpendShifts() if kind == "shifts":
                self._on_shifts(decision)
            case SlideFacing() if kind == "slide_facing":
                self._move(decision.side)
            case Spin() if kind == "spin":
                self._on_spin(decision)
            case React() if kind == "react":
                self._on_react(decision)
            case DeclareAttacks() if kind == "attacks":
                self._on_attacks(decision)
            case LoseControl() if kind == "lose_control":
                self._on_lose_control(decision)
            case PassPole() if kind == "pass_pole":
                self._on_pass_pole(decision)
            case SpendVotes() if kind == "votes":
                self._on_votes(decision)
            case Deploy() if kind == "deploy":
                self._on_deploy(decision)
            case Declare() if kind == "declare":
                self._on_declare(decision)
            case Pivot() if kind == "pivot":
                self._on_pivot(decision)
            case Piledrive() if kind == "piledriver":
                self._on_piledrive(decision)
            case Declare() if kind == "piledriver":
                self._on_piledrive_declined(decision)
            case _:
                raise IllegalChoice(f"expected a {kind} decision, got {type(decision).__name__}")

    def _event(self, text: str, rule: str = "", dice: tuple[object, ...] = ()) -> None:
        self.log.append(Event(text, rule, dice))

    def _ask(self, kind: PromptKind, player: int, options: tuple[object, ...] = (), note: str = "") -> None:
        self.prompt = Prompt(kind, player, self._active, options, note)

    def _vehicle(self, vehicle_id: str | None = None) -> VehicleState:
        return self.state.vehicle(vehicle_id or self._active)

    def _in_play(self, p: Participant) -> bool:
        return p.obstacle or self._vehicle(p.id).in_play

    def _put(self, vehicle: VehicleState) -> None:
        self.state = self.state.with_vehicle(vehicle)

    def _declare(self, player: int, rule: str, options: tuple[str, ...], then: Declared, note: str = "") -> None:
        """Offer a special rule that may be used: a ``declare`` prompt whose answer goes to ``then``."""
        self._declaring = rule
        self._on_declared = then
        self._ask("declare", player, options, note or rule)

    def _on_declare(self, d: Declare) -> None:
        if d.choice not in self.prompt.options:
            raise IllegalChoice(f"{d.choice!r} is not one of {', '.join(map(str, self.prompt.options))}",
                                self._declaring)
        then = self._on_declared
        self._declaring = ""
        self._on_declared = None
        match then:
            case TankerAnchor():
                self._on_anchor(d.choice)
            case UpAndOver(mover, other):
                self._on_up_and_over(mover, other, d.choice)
            case SlipAway(vid):
                self._on_slip_away(vid, d.choice)
            case None:
                raise IllegalChoice("nothing was offered to declare")

    # ------------------------------------------------------------------ Starting Grid (p.126-127)

    def grid_slots(self, player: int | None = None) -> tuple[int, ...]:
        """The Starting Grid slots open now (p.126): free, in the first rank with room for a waiting vehicle."""
        who = self._deploy_turn if player is None else player
        return open_grid_slots(self.state, self.referee, self._grid, who)

    def _next_deploy(self) -> None:
        """Players take turns, from Pole Position clockwise, to place a vehicle on the grid (p.126)."""
        players = len(self.state.players)
        for _ in range(players):
            if self.state.undeployed(self._deploy_turn):
                slots = self.grid_slots()
                if not slots:
                    raise IllegalChoice("no room on the Starting Grid for the waiting vehicles",
                                        "Starting Grid, p.126")
                self._active = ""
                self._ask("deploy", self._deploy_turn, slots, "Starting Grid, p.126")
                return
            self._deploy_turn = next_player(self._deploy_turn, players)
        if self._grid:
            self._event("Green Light, Go! Every vehicle counts as having passed the Starting Line", "p.127")
        self._next_opportunity()

    def _on_deploy(self, d: Deploy) -> None:
        v = self._vehicle(d.vehicle_id)
        if v.status is not Status.UNDEPLOYED or v.player != self.prompt.player:
            raise IllegalChoice(f"{d.vehicle_id} is not a vehicle of {self.state.players[self.prompt.player]} "
                                "waiting to deploy", "Starting Grid, p.126")
        if d.slot not in self.prompt.options:
            raise IllegalChoice(f"slot {d.slot} is not open: fill the first rank first, touching the Starting "
                                "Line", "Starting Grid, p.126")
        pose = self.referee.grid_slot(self.state, v.id, d.slot)
        if pose is None:
            raise IllegalChoice(f"{v.id} does not fit in slot {d.slot} with a finger's width all round",
                                "Starting Grid, p.126")
        self._put(replace(v, pose=pose, status=Status.ACTIVE))
        self._grid[d.slot] = v.id
        columns = max(1, len(self.state.players))
        rank, column = divmod(d.slot, columns)
        self._event(f"{v.id} takes rank {rank + 1}, place {column + 1} of the Starting Grid", "Starting Grid, p.126")
        self._deploy_turn = next_player(self._deploy_turn, len(self.state.players))
        self._next_deploy()

    # ------------------------------------------------------------------ round (p.19-20)

    def _next_opportunity(self) -> None:
        if self._check_game_over():
            return
        for _ in range(self.state.round.players * 6 * 2 + 1):
            rs = self.state.round
            if rs.phase_over:
                self._next_phase(rs)
                if self._check_game_over():
                    return
                continue
            if self._offer_votes(rs.turn):
                return
            options = qualifying(self.state.contenders(), rs)
            if options:
                self._active = ""
                self._ask("activate", rs.turn, tuple(options), f"Gear Phase {rs.gear_phase}")
                return
            self._votes_offered = False
            self.state = self.state.with_round(after_pass(rs))
        self._ask("game_over", -1, note="no vehicle can activate")

    def _next_phase(self, rs: RoundState) -> None:
        """The next Gear Phase; Pole Position passes unless Carpe Diem froze it (p.62, p.90)."""
        pass_pole = self.options.pass_pole_each_phase
        if pass_pole and self.state.pole_frozen:
            pass_pole = False
            self.state = replace(self.state, pole_frozen=False)
            self._event("Pole Position stays put", "Carpe Diem, p.90")
        self.state = self.state.with_round(next_gear_phase(rs, pass_pole=pass_pole))
        self._end_phase_effects()
        if self.options.audience_votes and self.state.round.round_no > rs.round_no:
            before = self.state.votes
            self.state = replace(self.state, votes=gain_at_round_start(self.state, before))
            for p, (a, b) in enumerate(zip(before, self.state.votes, strict=True)):
                if b > a:
                    self._event(f"{self.state.players[p]} gains {b - a} Audience Votes: no active vehicles",
                                "Audience Votes, p.88")

    # ------------------------------------------------------------------ Audience Votes (p.88-90)

    def _offer_votes(self, player: int) -> bool:
        """Ask ``player`` whether to spend votes before activating or passing (p.89); True if asked."""
        if not self.options.audience_votes or self._votes_offered or self.state.votes_of(player) <= 0:
            return False
        effects = affordable(self.state, self.state.votes, player)
        if not effects:
            return False
        self._votes_offered = True
        self._active = ""
        self._ask("votes", player, effects, f"{self.state.votes_of(player)} Audience Votes to spend (p.89)")
        return True

    def _on_votes(self, d: SpendVotes) -> None:
        player = self.prompt.player
        roll = self.dice.roll_d6(1)[0] if any(e.effect == "thunderous_applause" for e in d.effects) else 1
        spent = spend(self.state, self.state.votes, player, d.effects, roll)
        self.state = replace(spent.state, votes=spent.votes, pole_frozen=self.state.pole_frozen or spent.freeze_pole)
        for line, rule in spent.lines:
            self._event(f"{self.state.players[player]} spends votes: {line}", rule,
                        (roll,) if "sheds" in line else ())
        self._next_opportunity()

    def _end_phase_effects(self) -> None:
        self.state = replace(self.state, vehicles=tuple(replace(v, crew_penalty=0) for v in self.state.vehicles))

    def _check_game_over(self) -> bool:
        limit = self.options.round_limit
        if self.state.winner is None and limit is not None and self.state.round.round_no > limit:
            self._ask("game_over", -1, note=f"round limit {limit} reached: no winner")
            return True
        alive = self.state.players_in_play()
        if self.state.winner is None and len(alive) > 1:
            return False
        if self.state.winner is None and len(alive) == 1:
            self.state = replace(self.state, winner=next(iter(alive)))
            self._event(f"{self.state.players[self.state.winner or 0]} is the last player with vehicles", "p.62")
        self._ask("game_over", -1, note="game over")
        return True

    def _on_activate(self, d: Activate) -> None:
        if d.vehicle_id not in self.prompt.options:
            raise IllegalChoice(f"{d.vehicle_id} does not qualify now", "Qualifying, p.19")
        self._active = d.vehicle_id
        self._votes_offered = False
        self._event(f"{d.vehicle_id} activates in Gear Phase {self.state.round.gear_phase}", "p.19")
        self._begin_activation()

    def _begin_activation(self) -> None:
        v = self._vehicle()
        self._nitro = False
        if v.on_fire:
            self._put(replace(v, damage=v.damage + 1))
            self._event(f"{v.id} burns: 1 Hull Point lost", "On Fire, p.81")
        self._wrecks_then(Go(Point.START_OF_ACTIVATION))

    # ------------------------------------------------------------------ start of an activation (p.69-70, p.120)

    def _start_of_activation(self) -> None:
        """Special rules used at the start of an activation: Tanker Anchor, Pivot, Airwolf."""
        v = self._vehicle()
        if not v.in_play:
            self._start_movement()
            return
        if v.has("Ponderous"):
            self._declare(v.player, "Tanker Anchor, p.120", ("no", "skip", "skip_gear_up"), TankerAnchor(),
                          f"{v.id}: gain 1 Hazard Token to skip the Movement Step (and go up a gear)?")
            return
        self._offer_pivot()

    def _pivot_rule(self, v: VehicleState) -> str:
        if v.has("Pivot") and v.gear == 1:
            return "Pivot"
        return "Airwolf" if v.has("Airwolf") else ""

    def _offer_pivot(self) -> None:
        v = self._vehicle()
        rule = self._pivot_rule(v)
        if not rule:
            self._start_movement()
            return
        note = ("any facing, no Collision, not left touching an obstruction" if rule == "Pivot"
                else f"up to {AIRWOLF_MAX_DEG:.0f} degrees either way for {AIRWOLF_HAZARDS} Hazard Tokens")
        self._ask("pivot", v.player, (rule,), f"{PIVOT_WORDS[rule]}: {note}; 0 for none")

    def _on_anchor(self, choice: str) -> None:
        v = self._vehicle()
        if choice == "no":
            self._offer_pivot()
            return
        gear = min(v.max_gear, v.gear + 1) if choice == "skip_gear_up" else v.gear
        self._put(replace(v, hazards=v.hazards + TANKER_ANCHOR_HAZARDS, gear=gear))
        self._event(f"{v.id} drops anchor: +{TANKER_ANCHOR_HAZARDS} Hazard Token, no Movement Step, Gear {gear}",
                    "Tanker Anchor, p.120")
        self._spin = False
        self._attack_step()

    def _on_pivot(self, d: Pivot) -> None:
        v = self._vehicle()
        rule = self._pivot_rule(v)
        angle = float(d.angle_deg)
        if angle == 0.0:
            self._start_movement()
            return
        if rule == "Airwolf" and abs(angle) > AIRWOLF_MAX_DEG:
            raise IllegalChoice(f"an Airwolf pivot turns at most {AIRWOLF_MAX_DEG:.0f} degrees", "Airwolf, p.70")
        if not -180.0 <= angle <= 180.0:
            raise IllegalChoice("a pivot turns at most 180 degrees either way", PIVOT_WORDS[rule])
        report = self.referee.spin(self.state, v.id, angle)
        if rule == "Pivot" and (report.interrupted or report.contacts):
            raise IllegalChoice(f"{v.id} cannot pivot {angle:+.0f} degrees: it would collide or end touching an "
                                "obstruction", "Pivot, p.69")
        if rule == "Airwolf":
            v = replace(v, hazards=v.hazards + AIRWOLF_HAZARDS)
            self._put(v)
        self._apply_report(v.id, report, surfaces=False)
        extra = f", +{AIRWOLF_HAZARDS} Hazard Tokens" if rule == "Airwolf" else ""
        self._event(f"{v.id} pivots {angle:+.0f} degrees{extra}", PIVOT_WORDS[rule])
        self._window(v.id, report, Go(Point.START_MOVEMENT))

    # ------------------------------------------------------------------ movement (p.21-26, p.38-41)

    def _permitted(self, v: VehicleState) -> dict[str, Manoeuvre]:
        return permitted_templates(
            self.permissions, v.gear, full_throttle=v.has("Full Throttle"), zero_crew=v.crew_now == 0
        )

    def _start_movement(self) -> None:
        v = self._vehicle()
        if not v.in_play:
            self._end_activation()
            return
        if v.has("Jet Engine") and not self._nitro:
            self._nitro_boost(v)
            return
        self._skid_allowed = True
        self._move_hit = set()
        self._over = set()
        self._over_used = frozenset()
        reverse = v.gear == 1 and not self._nitro
        self._ask("template", v.player, tuple(self._permitted(v)), "reverse allowed" if reverse else "")

    def _nitro_boost(self, v: VehicleState) -> None:
        """The Jet Engine's compulsory Nitro Booster: a forced Long Straight, then up to 5 Hazard Tokens (p.70, p.84)."""
        self._nitro = True
        self._event(f"{v.id} fires its Jet Engine: Nitro Booster", "Jet Engine, p.70; Nitro Booster, p.84")
        report = self.referee.forced_move(self.state, v.id, NITRO_TEMPLATE, ignore_obstructions=False)
        self._apply_report(v.id, report, surfaces=False)
        self._window(v.id, report, Go(Point.AFTER_NITRO))

    def _nitro_hazards(self) -> None:
        v = self._vehicle()
        if v.in_play and v.hazards < NITRO_HAZARDS:
            self._put(replace(v, hazards=NITRO_HAZARDS))
            self._event(f"{v.id} gains Hazard Tokens up to {NITRO_HAZARDS}", "Nitro Booster, p.84")

    def _on_template(self, d: ChooseTemplate) -> None:
        v = self._vehicle()
        permitted = self._permitted(v)
        if d.reverse and v.gear != 1:
            raise IllegalChoice("only a vehicle in Gear 1 may reverse", "Reversing, p.39")
        if d.reverse and self._nitro:
            raise IllegalChoice("no reversing after a Nitro Booster", "Nitro Booster, p.84")
        if d.template not in permitted:
            if not self.options.touch_it_use_it or self.prompt.player != v.player:
                raise IllegalChoice(f"{d.template} is not permitted in Gear {v.gear}", "Permitted Gears, p.17")
            self._event(f"{d.template} not permitted: the next player chooses", "Touch It, Use It, p.38")
            self._skid_allowed = False
            self._ask("template", next_player(v.player, len(self.state.players)), tuple(permitted))
            return
        self._template = d
        self._manoeuvre = permitted[d.template]
        articulated = ARTICULATED_TURN_HAZARDS if v.has("Articulated") and d.template not in STRAIGHTS else 0
        self._put(replace(v, hazards=v.hazards + self._manoeuvre.hazard_tokens + articulated, reversing=d.reverse))
        if self._manoeuvre is Manoeuvre.HAZARDOUS:
            self._event(f"{v.id}: Hazardous manoeuvre, +1 Hazard Token", "p.38")
        if articulated:
            self._event(f"{v.id}: an Articulated vehicle off the Straights, +{articulated} Hazard Token",
                        "Articulated Movement, p.118")
        self._roll = SkidRoll(free_shifts=self._manoeuvre.free_shifts)
        if self._skid_allowed and v.handling > 0:
            self._ask("skid", v.player, tuple(range(v.handling + 1)))
        else:
            self._after_push()

    def _on_roll(self, d: RollSkid) -> None:
        v = self._vehicle()
        roll = roll_skid_dice(self.dice, d.count, v.handling, trivial=self._manoeuvre is Manoeuvre.TRIVIAL)
        self._roll = roll
        self._event(f"{v.id} rolls {d.count} Skid Dice", "p.22", tuple(f.value for f in roll.faces))
        if d.count:
            self._ask("push_it", v.player, tuple(f.value for f in roll.faces), "indices of dice to reroll, or none")
        else:
            self._after_push()

    def _on_push(self, d: PushIt) -> None:
        if d.reroll:
            self._roll = push_it(self._roll, d.reroll, self.dice)
            v = self._vehicle()
            self._put(replace(v, hazards=v.hazards + 1))
            self._event(f"{v.id} pushes it", "Push It, p.40", tuple(f.value for f in self._roll.faces))
        self._after_push()

    def _after_push(self) -> None:
        if self._roll.shifts:
            self._ask("shifts", self._vehicle().player, tuple(f.value for f in self._roll.faces),
                      f"{self._roll.shifts} Shift results")
        else:
            self._on_shifts(SpendShifts())

    def _on_shifts(self, d: SpendShifts) -> None:
        v = self._vehicle()
        outcome = resolve_shifts(Driving(v.gear, v.hazards, v.max_gear), self._roll, d.spends)
        self._put(replace(v, gear=outcome.driving.gear, hazards=outcome.driving.hazards))
        self._slide, self._spin = outcome.slide, outcome.spin
        self._event(f"{v.id}: Gear {outcome.driving.gear}, {outcome.driving.hazards} Hazard Tokens", "p.23-24")
        assert self._template is not None
        if self._slide and self._template.template in STRAIGHTS and not v.has("Ponderous"):
            self._ask("slide_facing", v.player, ("left", "right"))
        else:
            self._move(None)

    def _move(self, slide_facing: str | None) -> None:
        assert self._template is not None
        t = self._template
        slide = self._slide and not self._vehicle().has("Ponderous")
        plan = MovePlan(t.template, t.direction, t.reverse, slide, "left" if slide_facing == "left" else
                        "right" if slide_facing == "right" else None)
        self._move_start = self._vehicle()
        self._move_plan = plan
        report = self.referee.move(self.state, self._active, plan)
        self._interrupted = report.interrupted
        self._surfaced = report
        self._apply_report(self._active, report)
        self._window(self._active, report, Go(Point.AFTER_MOVE_WINDOW), movement=True)

    def _after_move_window(self) -> None:
        """Go on Up and Over what was declared (p.71), or on to the Final Position's rules."""
        v = self._vehicle()
        if not (self._over - self._over_used) or not v.in_play or self._move_start is None \
                or self._move_plan is None:
            self._after_final_position()
            return
        self._over_used = frozenset(self._over)
        report = self.referee.continue_move(self.state, v.id, self._move_plan, self._move_start.pose,
                                            tuple(sorted(self._over)))
        report = replace(report, contacts=tuple(c for c in report.contacts if c.other_id not in self._move_hit))
        self._event(f"{v.id} goes Up and Over {', '.join(sorted(self._over))}", "Up and Over, p.71")
        self._interrupted = report.interrupted
        self._apply_report(v.id, self._new_effects(report))
        self._window(v.id, report, Go(Point.AFTER_MOVE_WINDOW), movement=True)

    def _new_effects(self, report: MoveReport) -> MoveReport:
        """A continued move's surfaces and dropped templates not already counted in this Movement Step (p.86)."""
        before = self._surfaced
        self._surfaced = report
        if before is None:
            return report
        return replace(report,
                       surfaces=tuple(k for k in report.surfaces if k not in before.surfaces),
                       dropped=tuple(i for i in report.dropped if i not in before.dropped),
                       dropped_touched=tuple(i for i in report.dropped_touched if i not in before.dropped_touched))

    def _apply_report(self, vehicle_id: str, report: MoveReport, *, surfaces: bool = True) -> None:
        """Put the vehicle where the report says; ``surfaces``: this ends a Movement Step (p.86, p.79-80)."""
        v = self._vehicle(vehicle_id)
        v = replace(v, pose=report.pose)
        if surfaces:
            v = self._movement_step_effects(v, report)
        if report.removed:
            fresh = sorted(set(report.removed) - self.state.removed_obstacles)
            self.state = replace(self.state, removed_obstacles=self.state.removed_obstacles | set(report.removed))
            for gone in fresh:
                self._event(f"{gone} is smashed and removed from the table", "Destructible Obstacles, p.49")
        if report.disqualified:
            v = replace(v, status=Status.DISQUALIFIED)
            self._event(f"{v.id} leaves the table and is disqualified", "Edge of the Table, p.87")
        self._put(v)
        course = self.options.course
        if report.gates and course.gates and v.in_play:
            self._pass_gates(v, report.gates)
        elif report.crossed_finish and not course.death_race and self.state.winner is None and v.in_play:
            self.state = replace(self.state, winner=v.player)
            self._event(f"{v.id} crosses the Finish Line", "Street Race, p.62")

    def _pass_gates(self, v: VehicleState, touched: tuple[str, ...]) -> None:
        course = self.options.course
        passed, newly = advance(v.gates_passed, touched, course)
        if not newly:
            return
        self._put(replace(v, gates_passed=passed))
        self._event(f"{v.id} passes {', '.join(newly)}", "Passing Gates, p.127")
        if course.pole_at_gates and v.player == self.state.round.pole:
            self._pole_pending = True
        if passed > self.state.gates_led:
            led = self.state.gates_led
            self.state = replace(self.state, gates_led=passed)
            if self.options.audience_votes:
                for gate_no in range(led + 1, passed + 1):
                    self._catch_up(v.player, gate_no)
        if finished(passed, course) and self.state.winner is None:
            if v.has("Airborne"):
                self._event(f"{v.id} passes the Finish Line, but a Helicopter or Gyrocopter cannot win the race",
                            "Game End, p.128")
                return
            self.state = replace(self.state, winner=v.player)
            self._event(f"{v.id} passes the Finish Line", "Race End, p.128")

    def _catch_up(self, leader_player: int, gate_no: int) -> None:
        """Catch Up (p.127): first through a gate, so each other player rolls a D6 plus the gates their
        front-most vehicle is behind (``gate_no`` is the gate's place in the course); 6 or more gains an
        Audience Vote. Players roll clockwise from the leader's controller."""
        players = len(self.state.players)
        for k in range(1, players):
            p = (leader_player + k) % players
            mine = [w.gates_passed for w in self.state.vehicles if w.player == p and w.in_play]
            if not mine:
                continue
            behind = max(0, gate_no - max(mine))
            (roll,) = self.dice.roll_d6(1)
            gained = roll + behind >= CATCH_UP_TARGET
            if gained:
                votes = list(self.state.votes)
                votes[p] += 1
                self.state = replace(self.state, votes=tuple(votes))
            self._event(f"{self.state.players[p]} rolls {roll} + {behind} gates behind"
                        f"{': +1 Audience Vote' if gained else ''}", "Catch Up Mechanic, p.127", (roll,))

    def _pass_pole_then(self, then: Resume) -> bool:
        """Hand on Pole Position after a gate (p.125); True if a player must choose first."""
        if not self._pole_pending:
            return False
        self._pole_pending = False
        rs = self.state.round
        others = tuple(p for p in range(rs.players) if p != rs.pole)
        if len(others) > 1 and self.state.winner is None:
            self._after_pole = then
            self._ask("pass_pole", rs.pole, others, "after passing a gate")
            return True
        if others:
            self._set_pole(others[0])
        return False

    def _set_pole(self, player: int) -> None:
        if self.state.pole_frozen:
            self.state = replace(self.state, pole_frozen=False)
            self._event("Pole Position stays put", "Carpe Diem, p.90")
            return
        self.state = self.state.with_round(replace(self.state.round, pole=player))
        self._event(f"Pole Position passes to {self.state.players[player]}", "Pole Position, p.125")

    def _on_pass_pole(self, d: PassPole) -> None:
        if d.player not in self.prompt.options:
            raise IllegalChoice(f"Pole Position must pass to another player, not {d.player}", "p.125")
        self._set_pole(d.player)
        self._resume(self._after_pole)

    def _after_final_position(self) -> None:
        if self._pass_pole_then(Go(Point.AFTER_FINAL_POSITION)):
            return
        v = self._vehicle()
        if self._spin and not self._interrupted and v.in_play:
            self._ask("spin", v.player, note="angle in [-90, 90] degrees")
        else:
            self._end_movement_step()

    def _end_movement_step(self) -> None:
        if self._nitro:
            self._nitro_hazards()
        self._attack_step()

    def _movement_step_effects(self, v: VehicleState, report: MoveReport) -> VehicleState:
        """Surfaces (p.86) and the dropped templates that act at the end of the Movement Step (p.79-80).

        Caltrops, Glue and Oil Slick templates are treacherous surfaces (not
        added to a treacherous table surface: one surface rule); touching Smoke
        gives 1 Hazard Token; Glue takes 2 gears off, but not two activations
        in a row.
        """
        drops = [self.state.dropped_template(i).weapon for i in report.dropped if self._dropped_exists(i)]
        kinds = set(report.surfaces) | ({"treacherous"} if TREACHEROUS_DROPS & set(drops) else set())
        if v.has("All Terrain") and kinds & set(SURFACE_HAZARDS):
            self._event(f"{v.id} ignores rough and treacherous surfaces", "All Terrain, p.71")
            kinds -= set(SURFACE_HAZARDS)
        hazards = v.hazards + sum(SURFACE_HAZARDS.get(k, 0) for k in kinds)
        if any(self.state.dropped_template(i).weapon == SMOKE for i in report.dropped_touched
               if self._dropped_exists(i)):
            hazards += 1
            self._event(f"{v.id} drives through Smoke: +1 Hazard Token", "Smoke Dropper, p.80")
        if TREACHEROUS_DROPS & set(drops) and not v.has("All Terrain"):
            self._event(f"{v.id} crosses a dropped template: a treacherous surface", "Dropped Weapons, p.79, p.86")
        glued = GLUE in drops and not v.glued
        gear = v.gear
        if glued:
            gear = max(1, v.gear - GLUE_GEARS)
            self._event(f"{v.id} is stuck in Glue: Gear {v.gear} to {gear}", "Glue Dropper, p.79")
        elif GLUE in drops:
            self._event(f"{v.id} is not affected by Glue two activations in a row", "Glue Dropper, p.79")
        return replace(v, hazards=hazards, gear=gear, glued=glued)

    def _dropped_exists(self, template_id: str) -> bool:
        return any(t.id == template_id for t in self.state.dropped)

    def _on_spin(self, d: Spin) -> None:
        if not -90.0 <= d.angle_deg <= 90.0:
            raise IllegalChoice("a Spin pivots at most 90 degrees either way", "Spin, p.24")
        report = self.referee.spin(self.state, self._active, d.angle_deg)
        self._apply_report(self._active, report, surfaces=False)
        self._window(self._active, report, Go(Point.END_MOVEMENT_STEP))

    # ------------------------------------------------------------------ collision windows (p.52-57, p.78)

    def _window(self, mover: str, report: MoveReport, then: Resume, *, movement: bool = False) -> None:
        """The Collision Window after ``mover``'s move: dropped templates it met (p.78), then its collisions.

        ``movement``: the window of the active vehicle's own Movement Step.
        """
        self._trigger_dropped(mover, report.dropped)
        self._wrecks_then(QueueContacts(mover, report.contacts, then, movement))

    def _queue(self, mover: str, contacts: Sequence[Contact], then: Resume, *, movement: bool = False) -> None:
        """Open a Collision Window with ``contacts`` of ``mover``; ``then`` resumes play after it (p.52)."""
        if movement:
            self._move_hit |= {c.other_id for c in contacts}
        self._windows.append(Window(tuple(Pending(mover, c) for c in contacts), then, movement))
        self._next_collision()

    def _participants(self, p: Pending) -> tuple[Participant, Participant]:
        a = self._vehicle(p.active)
        c = p.contact
        active = _participant(a, c.edge)
        if c.obstacle:
            return active, Participant.of_obstacle(c.other_id, Weight.parse(c.obstacle_weight), c.destructible)
        return active, _participant(self._vehicle(c.other_id), c.other_edge)

    def _set_first(self, window: Window, pending: Pending) -> Window:
        """``window`` with its first collision replaced by ``pending`` (kept on top of the stack)."""
        window = replace(window, collisions=(pending, *window.collisions[1:]))
        self._windows[-1] = window
        return window

    def _pop_first(self, window: Window) -> Pending:
        """Take the first collision off the innermost window."""
        first = window.collisions[0]
        self._windows[-1] = replace(window, collisions=window.collisions[1:])
        return first

    def _next_collision(self) -> None:
        """Resolve the innermost window's next collision, asking for reactions; close it when empty."""
        while self._windows:
            window = self._windows[-1]
            if not window.collisions:
                self._windows.pop()
                self._resume(window.then)
                return
            pending = window.collisions[0]
            active, passive = self._participants(pending)
            if not all(self._in_play(p) for p in (active, passive)):
                self._pop_first(window)
                continue
            for me, other in ((active, passive), (passive, active))[len(pending.reactions):]:
                forced = forced_reaction(me, other, pending.contact.orientation)
                if forced is not None:
                    pending = replace(pending, reactions=(*pending.reactions, forced))
                    window = self._set_first(window, pending)
                    continue
                options: tuple[Reaction, ...] = (Reaction.SMASH, Reaction.EVADE)
                if self._may_piledrive(window.movement, me, other):
                    options = (*options, Reaction.PILEDRIVER)
                self._ask("react", self._vehicle(me.id).player, options, f"collision {me.id}")
                return
            done = self._pop_first(window)
            self._resolve(done)
            self._wrecks_then(AfterCollision(window.movement, done), in_collision=True)
            return

    def _may_piledrive(self, movement: bool, me: Participant, other: Participant) -> bool:
        """Piledriver (p.120): in its own Movement Step, against a vehicle of a lighter weight class."""
        return (movement and me.id == self._active and not other.obstacle
                and self._vehicle(me.id).has("Piledriver") and other.weight < me.weight)

    def _after_collision(self, movement: bool, done: Pending) -> None:
        """What the special rules do after a Collision: Piledriver (p.120), then Up and Over (p.71)."""
        mover = self._vehicle(done.active)
        other_id = done.contact.other_id
        if (done.reactions and done.reactions[0] is Reaction.PILEDRIVER and mover.in_play
                and not done.contact.obstacle and self._vehicle(other_id).in_play):
            self._piledriven = (other_id, self._vehicle(other_id))
            self._ask("piledriver", mover.player, (other_id,),
                      f"place {other_id} within Short range of where it is, any facing (Piledriver, p.120)")
            return
        self._offer_up_and_over(movement, done)

    def _offer_up_and_over(self, movement: bool, done: Pending) -> None:
        mover = self._vehicle(done.active)
        c = done.contact
        if movement and done.active == self._active and mover.in_play and mover.has("Up and Over"):
            if c.obstacle:
                lighter = Weight.parse(c.obstacle_weight) < mover.weight and c.other_id not in \
                    self.state.removed_obstacles
            else:
                other = self._vehicle(c.other_id)
                lighter = other.in_play and other.weight < mover.weight and not other.has("Up and Over")
            if lighter and c.other_id not in self._over:
                self._declare(mover.player, "Up and Over, p.71", ("yes", "no"), UpAndOver(mover.id, c.other_id),
                              f"{mover.id}: drive over {c.other_id} for the rest of the Movement Step?")
                return
        self._next_collision()

    def _on_up_and_over(self, mover: str, other: str, choice: str) -> None:
        if choice == "yes":
            self._over.add(other)
            self._event(f"{mover} declares Up and Over {other}", "Up and Over, p.71")
        self._next_collision()

    def _on_piledrive(self, d: Piledrive) -> None:
        assert self._piledriven is not None
        target, before = self._piledriven
        pose = Pose(d.x_mm, d.y_mm, d.heading_deg % 360.0)
        reason = self.referee.place(self.state, target, pose, before.pose, self._active)
        if reason:
            raise IllegalChoice(f"{target} cannot be placed there: {reason}", "Piledriver, p.120")
        self._put(replace(self._vehicle(target), pose=pose))
        self._piledriven = None
        self._event(f"{self._active} piledrives {target} to ({pose.x_mm:.0f}, {pose.y_mm:.0f}) facing "
                    f"{pose.heading_deg:.0f} degrees", "Piledriver, p.120")
        self._next_collision()

    def _on_piledrive_declined(self, d: Declare) -> None:
        if d.choice != "no":
            raise IllegalChoice("answer a piledriver prompt with a Piledrive placement or Declare('no')",
                                "Piledriver, p.120")
        self._piledriven = None
        self._next_collision()

    def _on_react(self, d: React) -> None:
        window = self._windows[-1]
        pending = window.collisions[0]
        active, passive = self._participants(pending)
        me, other = (active, passive) if not pending.reactions else (passive, active)
        if d.reaction not in self.prompt.options:
            raise IllegalChoice(f"{me.id} may not declare a {d.reaction.value} here", "Piledriver, p.120")
        check_reaction(me, other, pending.contact.orientation, d.reaction)
        self._set_first(window, replace(pending, reactions=(*pending.reactions, d.reaction)))
        self._next_collision()

    def _resolve(self, pending: Pending) -> None:
        active, passive = self._participants(pending)
        ra, rp = pending.reactions
        out = resolve_collision(active, passive, pending.contact.orientation, ra, rp, self.dice)
        self._event(
            f"collision {active.id} / {passive.id}: {out.orientation.value}, {ra.value} / {rp.value}",
            "Collisions, p.52-57",
            (out.active.attack_rolls, out.passive.attack_rolls, out.active.evade_rolls, out.passive.evade_rolls),
        )
        downed = self._downers(active, passive, ra, rp)
        for side, who in ((out.active, active), (out.passive, passive)):
            if not who.obstacle:
                self._collided.add(side.id)
                v = self._vehicle(side.id)
                hazards = max(0, v.hazards - DOWNERS_DISCARD) if side.id in downed else v.hazards + side.hazards_gained
                self._put(replace(v, damage=v.damage + side.damage_taken + side.self_damage, hazards=hazards,
                                  on_fire=v.on_fire or side.on_fire,
                                  crew_penalty=v.crew_penalty + (DOWNERS_CREW if side.id in downed else 0)))
                if side.id in downed:
                    self._event(f"{side.id} is sedated: discards {DOWNERS_DISCARD} Hazard Tokens, Crew -"
                                f"{DOWNERS_CREW} until the end of the Gear Phase", "Downers, p.69")
        if out.removed:
            self.state = replace(self.state, removed_obstacles=self.state.removed_obstacles | set(out.removed))
        if not (active.obstacle or passive.obstacle):
            self._uppers(active, passive, ra, rp)
            self._note_slip_away(active, passive, ra, rp, out.orientation)

    def _downers(self, active: Participant, passive: Participant, ra: Reaction, rp: Reaction) -> set[str]:
        """Downers (p.69): the active Ambulance's Smash Attack target gains no tokens, discards 2, loses Crew."""
        out: set[str] = set()
        if active.obstacle or passive.obstacle:
            return out
        for me, other, mine in ((active, passive, ra), (passive, active, rp)):
            if me.id == self._active and mine.smashes and self._vehicle(me.id).has("Downers"):
                out.add(other.id)
        return out

    def _uppers(self, active: Participant, passive: Participant, ra: Reaction, rp: Reaction) -> None:
        """Uppers (p.69): both Evaded, so both change up a gear, each with a Hazard Token."""
        ids = (active.id, passive.id)
        if not (ra is rp is Reaction.EVADE) or not any(self._vehicle(i).has("Uppers") for i in ids):
            return
        for vid in ids:
            v = self._vehicle(vid)
            if v.in_play:
                self._put(replace(v, gear=min(v.max_gear, v.gear + 1), hazards=v.hazards + UPPERS_HAZARDS))
        self._event(f"Uppers: {' and '.join(ids)} change up a gear, +{UPPERS_HAZARDS} Hazard Token each",
                    "Uppers, p.69")

    def _note_slip_away(self, active: Participant, passive: Participant, ra: Reaction, rp: Reaction,
                        orientation: Orientation) -> None:
        """Slip Away (p.66): Evading a Tailgate or T-Bone Smash Attack earns a free activation after this one."""
        if orientation not in (Orientation.TAILGATE, Orientation.T_BONE):
            return
        for me, mine, theirs in ((active, ra, rp), (passive, rp, ra)):
            v = self._vehicle(me.id)
            if mine is Reaction.EVADE and theirs.smashes and v.has("Slip Away") and me.id not in self._slip_away:
                self._slip_away.append(me.id)
                self._event(f"{me.id} may Slip Away after this activation", "Slip Away, p.66")

    # ------------------------------------------------------------------ attacks (p.30-33, p.42, p.78-82)

    def _attack_step(self) -> None:
        v = self._vehicle()
        if not v.in_play or self.referee.distracted(self.state, v.id):
            if v.in_play:
                self._event(f"{v.id} is Distracted", "Distracted, p.42")
            self._wipeout_step()
            return
        if not weapons_active(v, self.options.course):
            self._event(f"{v.id}: weapons inactive until Gate 1", "Weapons Inactive Until Gate 1, p.127")
            self._wipeout_step()
            return
        self._ask("attacks", v.player, note=f"up to {max_attacks(v.crew_now)} attacks")

    def _on_attacks(self, d: DeclareAttacks) -> None:
        v = self._vehicle()
        self._check_attacks(v, d.attacks, d.drops)
        groups = self._attack_groups(v, d.attacks)
        self._drop_from(0, tuple(d.drops), groups)

    def _shoot_from(self, index: int, groups: tuple[tuple[str, tuple[tuple[Attack, bool], ...]], ...]) -> None:
        if index == len(groups):
            self._wipeout_step()
            return
        target, entries = groups[index]
        self._shoot(target, entries)
        self._wrecks_then(ShootFrom(index + 1, groups))

    def _drop_from(self, index: int, drops: tuple[Drop, ...],
                   groups: tuple[tuple[str, tuple[tuple[Attack, bool], ...]], ...]) -> None:
        if index == len(drops) or not self._vehicle().in_play:
            self._shoot_from(0, groups)
            return
        self._drop(drops[index], DropFrom(index + 1, drops, groups))

    def _attack_groups(self, v: VehicleState, attacks: Sequence[Attack]
                       ) -> tuple[tuple[str, tuple[tuple[Attack, bool], ...]], ...]:
        """Attacks by target, each ``(attack, spends ammo)``; a Splash attack hits everything under it (p.82)."""
        by_target: dict[str, list[tuple[Attack, bool]]] = {}
        for a in attacks:
            by_target.setdefault(a.target, []).append((a, True))
            _, weapon = v.weapon(a.mount)
            if weapon.has_rule("Splash"):
                for victim in self.referee.splash(self.state, v.id, a.mount, a.target)[1:]:
                    by_target.setdefault(victim, []).append((Attack(a.mount, victim), False))
        return tuple((target, tuple(entries)) for target, entries in by_target.items())

    def _shot(self, attacker_id: str, mount: int, target: str) -> Shot | None:
        """The referee's shot of ``mount`` at ``target`` (None if out of range or arc, p.28-30)."""
        return find_shot(self.referee, self.state, attacker_id, mount, target)

    def _check_attacks(self, v: VehicleState, attacks: Sequence[Attack], drops: Sequence[Drop] = ()) -> None:
        bombs_away = v.has("Bombs Away")
        if len(attacks) + (0 if bombs_away else len(drops)) > max_attacks(v.crew_now):
            raise IllegalChoice(f"{v.id} may attack {v.crew_now} times", "Number of Attacks, p.31")
        mounts = [a.mount for a in attacks if a.mount >= 0] + [dr.mount for dr in drops]
        for m in set(mounts):
            if m >= len(v.weapons):
                raise IllegalChoice(f"{v.id} has no weapon {m}")
            _, weapon = v.weapon(m)
            uses = mounts.count(m)
            if uses > 1 and not weapon.has_rule("Blitz"):
                raise IllegalChoice("each weapon attacks once per Attack Step", "Number of Attacks, p.31")
            ammo = v.weapons[m].ammo
            if ammo is not None and uses > ammo:
                raise IllegalChoice(f"{weapon.name} has {ammo} Ammo Tokens", "Ammo, Blitz, p.81")
        for a in attacks:
            _, weapon = v.weapon(a.mount)
            if weapon.dropped:
                raise IllegalChoice(f"{weapon.name} is dropped, not fired: declare a Drop", "Dropped Weapons, p.78")
            if weapon.attack_dice == 0 and weapon.dice_by_range is None:
                raise IllegalChoice(f"{weapon.name} is not supported by the engine yet", f"p.{weapon.page}")
            if self._shot(v.id, a.mount, a.target) is None:
                raise IllegalChoice(f"{a.target} is not in range and arc of {weapon.name}", "Declare Targets, p.30")
        if len(drops) > 1 and not bombs_away:
            raise IllegalChoice("only one dropped weapon attacks in an Attack Step", "Dropped Weapons, p.78")
        for dr in drops:
            self._check_drop(v, dr)

    def _check_drop(self, v: VehicleState, dr: Drop) -> None:
        """A dropped weapon with a template, against an edge in its Arc of Fire (p.78; GEOMETRY.md 6)."""
        _, weapon = v.weapon(dr.mount)
        if not weapon.dropped:
            raise IllegalChoice(f"{weapon.name} is not a dropped weapon", "Dropped Weapons, p.78")
        if weapon.template is None:
            raise IllegalChoice(f"{weapon.name} places a model, not supported by the engine yet", f"p.{weapon.page}")
        facing = v.weapons[dr.mount].facing
        edges = {"rear": ("rear",), "side": ("left", "right"), "turret": ("rear", "left", "right")}.get(facing, ())
        if dr.edge not in edges:
            raise IllegalChoice(f"a {facing}-mounted {weapon.name} cannot drop against the {dr.edge} edge",
                                "Dropped Weapons, p.78; Arcs of Fire, p.29")
        try:
            self.referee.drop(self.state, v.id, weapon.template, dr.edge, dr.offset_mm)
        except ValueError as exc:
            raise IllegalChoice(str(exc), "Dropped Weapons, p.78") from None

    def _spend_ammo(self, v: VehicleState, mount: int) -> VehicleState:
        """Discard an Ammo Token before attacking (p.81)."""
        if mount < 0 or v.weapons[mount].ammo is None:
            return v
        mounts = list(v.weapons)
        mounts[mount] = replace(mounts[mount], ammo=(mounts[mount].ammo or 0) - 1)
        return replace(v, weapons=tuple(mounts))

    def _shoot(self, target: str, entries: Sequence[tuple[Attack, bool]]) -> None:
        """All of the active vehicle's attacks on one target, one Evade roll against them (p.30-33)."""
        v = self._vehicle()
        t = self._vehicle(target)
        if not v.in_play or not t.in_play:
            return
        rolled: list[tuple[str, Weapon, tuple[int, ...]]] = []
        cover = False
        for a, spends in entries:
            key, weapon = v.weapon(a.mount)
            shot = self._shot(v.id, a.mount, target) or Shot(target, False, weapon.range)
            cover = cover or shot.cover
            rolled.append((key, weapon, self.dice.roll_d6(attack_dice(weapon, shot.range_band))))
            if spends:
                v = self._spend_ammo(v, a.mount)
        self._put(v)
        result = resolve_against(rolled, self.dice.roll_d6(evade_dice(t.gear)), cover=cover)
        self._event(f"{v.id} attacks {target}: {result.total_hits} hits, {result.effects.damage} damage",
                    "Attack Step, p.30-33", (result.attack_rolls, result.evade_rolls))
        self._hit(t, result.effects)

    def _hit(self, t: VehicleState, fx: HitEffects) -> None:
        self._put(replace(t, damage=t.damage + fx.damage, hazards=t.hazards + fx.hazards,
                          on_fire=t.on_fire or fx.on_fire))

    # ------------------------------------------------------------------ dropped weapons (p.78-80)

    def _drop(self, dr: Drop, then: Resume) -> None:
        """Leave the template on the table; vehicles under it meet it in this Collision Window (p.78, p.30)."""
        v = self._vehicle()
        key, weapon = v.weapon(dr.mount)
        assert weapon.template is not None
        report = self.referee.drop(self.state, v.id, weapon.template, dr.edge, dr.offset_mm)
        self._put(self._spend_ammo(v, dr.mount))
        template = DroppedTemplate(f"drop-{self.state.drops_made + 1}", key, weapon.template, report.pose, v.id,
                                   v.player)
        self.state = self.state.with_dropped(template)
        self._event(f"{v.id} drops {weapon.name} ({template.id}) at its {dr.edge} edge", "Dropped Weapons, p.78")
        for victim in report.under:
            self._trigger_dropped(victim, (template.id,))
        self._wrecks_then(then)

    def _trigger_dropped(self, vehicle_id: str, template_ids: Sequence[str]) -> None:
        """Dropped templates (top of the stack first) that attack the vehicle they meet, then leave (p.78-79).

        Caltrops attack with 2D6, Mines with 4D6 and Blast, Napalm with 4D6 and
        Fire; the target may Evade. The surface-like templates act at the end
        of a Movement Step instead (:meth:`_movement_step_effects`).
        """
        for tid in template_ids:
            v = self._vehicle(vehicle_id)
            if not v.in_play or v.damage >= v.hull:
                return
            template = next((t for t in self.state.dropped if t.id == tid), None)
            if template is None or template.weapon not in SPENT_DROPS:
                continue
            weapon = template.rules
            rolls = self.dice.roll_d6(weapon.attack_dice)
            result = resolve_against([(template.weapon, weapon, rolls)], self.dice.roll_d6(evade_dice(v.gear)))
            self.state = self.state.without_dropped(tid)
            self._event(f"{weapon.name} ({tid}) attacks {v.id}: {result.total_hits} hits, "
                        f"{result.effects.damage} damage; the template is removed",
                        "Dropped Weapons, p.78-79", (result.attack_rolls, result.evade_rolls))
            self._hit(v, result.effects)

    # ------------------------------------------------------------------ wipeouts (p.34-35)

    def _wipeout_step(self) -> None:
        active = self._vehicle()
        candidates = [(v.id, v.player) for v in self.state.vehicles if v.in_play and wipes_out(v.hazards)]
        self._wipeouts = list(wipeout_order(active.id, candidates, active.player, len(self.state.players)))
        self._next_wipeout()

    def _next_wipeout(self) -> None:
        while self._wipeouts:
            vid = self._wipeouts.pop(0)
            v = self._vehicle(vid)
            if not v.in_play or not wipes_out(v.hazards):
                continue
            (roll,) = self.dice.roll_d6(1)
            plan = plan_wipeout(v.gear, roll, roll_cage=v.has("Roll Cage"),
                                articulated=v.has("Articulated"), ponderous=v.has("Ponderous"))
            self._event(f"{vid} wipes out; Flip check {roll} in Gear {v.gear}", "Wipeout, p.34", (roll,))
            if plan.flipped:
                self._flip(vid, plan)
            elif plan.jackknife:
                self._jackknife(vid, plan)
            else:
                self._after_flip(vid, plan)
            return
        self._end_activation()

    def _jackknife(self, vid: str, plan: WipeoutPlan) -> None:
        """A Jackknife instead of a Flip (p.119): the player to the left pivots it (a Collision Window), then
        the Crunch, 4D6 against itself that cannot be Evaded. The trailer is not a separate piece here, so
        Swing Trailer has nothing to hinge."""
        v = self._vehicle(vid)
        self._event(f"{vid} jackknifes", "Jackknife, p.119")
        self._wiped = vid
        self._after_lose = Crunch(vid, plan)
        self._ask("lose_control", next_player(v.player, len(self.state.players)), note=vid)

    def _crunch(self, vid: str, plan: WipeoutPlan) -> None:
        w = self._vehicle(vid)
        if w.in_play:
            rolls = self.dice.roll_d6(JACKKNIFE_CRUNCH_DICE)
            hits = count_hits(rolls)
            self._put(replace(w, damage=w.damage + hits))
            self._event(f"{vid} crunches: {hits} hits on itself", "Jackknife, p.119", (rolls,))
        self._after_lose = Go(Point.NEXT_WIPEOUT)
        self._wrecks_then(AfterFlip(vid, plan))

    def _flip(self, vid: str, plan: WipeoutPlan) -> None:
        """A Flip: 2 hits that cannot be Evaded (a wreck skids to a halt instead), then the forced move (p.35)."""
        v = self._vehicle(vid)
        self._put(replace(v, damage=v.damage + plan.flip_hits))
        self._event(f"{vid} flips: {plan.flip_hits} hits", "Flip, p.35")
        self._wrecks_then(FlipMove(vid, plan))

    def _flip_move(self, vid: str, plan: WipeoutPlan) -> None:
        """The Flip's forced Medium Straight, ignoring obstructions, and its Collision Window (p.35, p.39)."""
        if not self._vehicle(vid).in_play:
            self._next_wipeout()
            return
        report = self.referee.forced_move(self.state, vid, "medium_straight", ignore_obstructions=True)
        self._apply_report(vid, report, surfaces=False)
        self._window(vid, report, AfterFlip(vid, plan))

    def _after_flip(self, vid: str, plan: WipeoutPlan) -> None:
        """Reset, then Lose Control (p.35)."""
        v = self._vehicle(vid)
        if not v.in_play:
            self._next_wipeout()
            return
        self._put(replace(v, gear=1, hazards=0))
        if plan.lose_control:
            self._wiped = vid
            self._ask("lose_control", next_player(v.player, len(self.state.players)), note=vid)
            return
        self._next_wipeout()

    def _on_lose_control(self, d: LoseControl) -> None:
        report = self.referee.pivot(self.state, self._wiped, d.heading_deg)
        self._apply_report(self._wiped, report, surfaces=False)
        jackknife = isinstance(self._after_lose, Crunch)
        self._event(f"{self._wiped} {'is pivoted' if jackknife else 'loses control'}",
                    "Jackknife, p.119" if jackknife else "Lose Control, p.35")
        self._window(self._wiped, report, self._after_lose)

    def _end_activation(self) -> None:
        if self._pass_pole_then(Go(Point.END_ACTIVATION)):
            return
        if self._active and not self._free:
            self.state = self.state.with_round(after_activation(self.state.round, self._active))
        self._active = ""
        self._free = False
        if not self._offer_slip_away():
            self._next_opportunity()

    def _offer_slip_away(self) -> bool:
        """A free activation for a vehicle that Slipped Away during the one just ended (p.66); True if asked."""
        while self._slip_away and self.state.winner is None:
            vid = self._slip_away.pop(0)
            v = self._vehicle(vid)
            if v.in_play:
                self._declare(v.player, "Slip Away, p.66", ("yes", "no"), SlipAway(vid),
                              f"{vid}: take a free activation now?")
                return True
        self._slip_away.clear()
        return False

    def _on_slip_away(self, vid: str, choice: str) -> None:
        if choice == "no":
            if not self._offer_slip_away():
                self._next_opportunity()
            return
        self._active = vid
        self._free = True
        self._event(f"{vid} slips away: a free activation that does not count as its activation", "Slip Away, p.66")
        self._begin_activation()

    # ------------------------------------------------------------------ wrecks (p.43-44)

    def _wrecks_then(self, then: Resume, *, in_collision: bool = False) -> None:
        """Wreck, one at a time, every vehicle in play at zero Hull Points (p.43), then go on with ``then``.

        ``in_collision``: they lost their last Hull Point in a Collision (Twisted Metal, p.44).
        """
        for v in self.state.vehicles:
            if v.in_play and v.damage >= v.hull and v.id not in self._wrecking:
                self._wreck(v.id, in_collision, WrecksThen(then, in_collision))
                return
        self._resume(then)

    def _wreck(self, vid: str, in_collision: bool, then: Resume) -> None:
        """Skid to a Halt: a forced Short Straight forward and its Collision Window (p.43, p.39)."""
        self._wrecking.add(vid)
        self._collided.discard(vid)
        report = self.referee.forced_move(self.state, vid, SKID_TO_A_HALT, ignore_obstructions=False)
        self._apply_report(vid, report, surfaces=False)
        if report.contacts:
            self._event(f"{vid} skids to a halt into {', '.join(c.other_id for c in report.contacts)}",
                        "Skid to a Halt, p.43")
        self._queue(vid, report.contacts, WreckFinish(vid, in_collision, then))

    def _wreck_finish(self, vid: str, in_collision: bool, then: Resume) -> None:
        """Reset, Explosion check, Get Wrecked (p.43); Twisted Metal removes it (p.44)."""
        v = self._vehicle(vid)
        (roll,) = self.dice.roll_d6(1)
        plan = plan_wreck(v.weight, roll, v.ammo_tokens, infinite_ammo=v.has("Jet Engine"), in_collision=in_collision)
        status = Status.WRECK if plan.stays_as_wreck else Status.REMOVED
        self._put(replace(v, gear=1, hazards=0, status=status))
        self._wrecking.discard(vid)
        self._event(f"{vid} is Wrecked; Explosion check {roll}", "Getting Wrecked, p.43", (roll,))
        if self.options.audience_votes:
            self.state = replace(self.state, votes=gain_for_wreck(self.state.votes, v.player))
            self._event(f"{self.state.players[v.player]} gains an Audience Vote", "Audience Votes, p.88")
        if plan.exploded:
            self._explode(vid, v.weight, then)
        else:
            self._resume(then)

    def _explode(self, vid: str, weight: Weight, then: Resume) -> None:
        self._event(f"{vid} explodes", "Explosions, p.44")
        for target_id in self.referee.within_medium(self.state, vid):
            t = self._vehicle(target_id)
            if not t.in_play:
                continue
            rolls = self.dice.roll_d6(explosion_dice(weight))
            hits = sum(1 for r in rolls if r >= 4) + sum(1 for r in rolls if r == 6)
            saved = sum(1 for r in self.dice.roll_d6(evade_dice(t.gear)) if r == 6)
            taken = max(0, hits - saved)
            self._put(replace(t, damage=t.damage + taken, hazards=t.hazards + taken))
        self._wrecks_then(then)


# --------------------------------------------------------------------------- questions the prompt needs


def open_grid_slots(state: GameState, referee: Referee, taken: dict[int, str], player: int) -> tuple[int, ...]:
    """The Starting Grid slots open to ``player`` (p.126): free, in the first rank with room for a waiting
    vehicle of theirs that fits there with a finger's width all round."""
    waiting = state.undeployed(player)
    columns = max(1, len(state.players))
    ranks = ranks_needed(len(state.vehicles), columns)

    def fits(slot: int) -> bool:
        return any(referee.grid_slot(state, v.id, slot) is not None for v in waiting)

    return current_rank_slots(taken, fits, columns, ranks)


def find_shot(referee: Referee, state: GameState, attacker_id: str, mount: int, target: str) -> Shot | None:
    """The referee's shot of ``mount`` at ``target``, or None if out of range or arc (p.28-30)."""
    return referee.shot(state, attacker_id, mount, target)


def _participant(v: VehicleState, edge: str) -> Participant:
    facing = {"front": "front", "rear": "rear", "side": "side"}.get(edge, "front")
    return Participant(
        v.id, v.gear, v.weight, edge, ram=facing in v.rams, infuriating_jingle=v.has("Infuriating Jingle"),
        on_fire=v.on_fire,
    )


__all__ = [
    "EngineState", "Event", "Options", "Rules", "Step", "start", "step", "Course", "open_grid_slots", "find_shot",
]
