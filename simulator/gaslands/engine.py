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

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, TypeAlias, assert_never

from simulator.errors import IllegalChoice
from simulator.frozen import fast_init, replace
from simulator.gaslands import perks, ramps
from simulator.gaslands.attacks import (
    HitEffects,
    attack_dice,
    count_evades,
    count_hits,
    evade_dice,
    explosion_dice,
    max_attacks,
    resolve_against,
)
from simulator.gaslands.audience import (
    NO_RIGHTS,
    VoteEffect,
    affordable,
    gain_at_round_start,
    gain_for_wreck,
    spend,
    vote_choices,
)
from simulator.gaslands.collisions import (
    Orientation,
    Participant,
    Reaction,
    check_reaction,
    forced_reaction,
    resolve_collision,
    smash_dice_why,
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
from simulator.gaslands.dice import DiceSource, SkidFace
from simulator.gaslands.events import (
    Activated,
    AllTerrain,
    AnchorDropped,
    Attacked,
    Burned,
    CatchUpRolled,
    Collided,
    CollisionDamage,
    CrossedFinish,
    Crunched,
    DiceKept,
    Disqualified,
    Distracted,
    DropAttacked,
    ExplosionHit,
    Flipped,
    GameEvent,
    GameOver,
    GameStarted,
    GearPhaseStarted,
    Glued,
    GreenLight,
    GridPlaced,
    HeldFire,
    Jackknifed,
    Jumped,
    LostControl,
    Moved,
    NitroFired,
    NitroHazards,
    ObstacleRemoved,
    PassedGates,
    Piledriven,
    Pivoted,
    PolePassed,
    PoleStays,
    PushedIt,
    RampReached,
    ScenarioNotice,
    Sedated,
    ShiftsSpent,
    SkidDiceRolled,
    SlideChosen,
    SlipAwayEarned,
    SmokeHazard,
    SpinLost,
    SurfaceHazards,
    TemplateChosen,
    TokenShot,
    TouchItUseIt,
    TrailerSwung,
    Tumbled,
    UpAndOverDeclared,
    UppersGearUp,
    VehicleSummary,
    VolatileRolled,
    VoteEffectApplied,
    VotesGained,
    VotesSpent,
    WeaponDropped,
    WeaponsInactive,
    WipedOut,
    WipeoutReset,
    Wrecked,
)
from simulator.gaslands.grid import current_rank_slots, ranks_needed
from simulator.gaslands.objectives import NO_OBJECTIVE, Ask, AskPoint, Objective, Verdict
from simulator.gaslands.perks import combat as perk_combat
from simulator.gaslands.perks import more as perk_more
from simulator.gaslands.perks import sponsors as perk_sponsors
from simulator.gaslands.perks.core import PerkAsk, PerkStep
from simulator.gaslands.permitted import (
    MOVEMENT_TEMPLATES,
    STRAIGHTS,
    Manoeuvre,
    PermissionTable,
    manoeuvre,
    permitted_templates,
)
from simulator.gaslands.prompts import (
    ActivatePrompt,
    AttacksPrompt,
    DeclarePrompt,
    DeployPrompt,
    DropChoice,
    GameOverPrompt,
    Lookahead,
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
    SlotPreview,
    SpinPrompt,
    SwingTrailerPrompt,
    TeleportPrompt,
    TemplateOption,
    TemplatePrompt,
    VotesPrompt,
    WeaponChoice,
)
from simulator.gaslands.race import Course, advance, finished, weapons_active
from simulator.gaslands.referee import Contact, MovePlan, MoveReport, Referee, Shot
from simulator.gaslands.round import RoundState, after_activation, after_pass, next_gear_phase, qualifying
from simulator.gaslands.rule_numbers import RULES
from simulator.gaslands.skid import (
    ShiftUse,
    SkidRoll,
    SpendShift,
    push_it,
    resolve_shifts,
    roll_skid_dice,
)
from simulator.gaslands.state import DroppedTemplate, GameState, Status, VehicleState
from simulator.gaslands.tables import Weapon, Weight
from simulator.gaslands.tokens import Token
from simulator.gaslands.wipeout import WipeoutPlan, next_player, plan_wipeout, wipeout_order
from simulator.gaslands.wrecks import SKID_TO_A_HALT, plan_wreck
from simulator.geometry.articulated import MAX_BEND_DEG
from simulator.geometry.pose import Pose
from simulator.vocab import plural

SURFACE_HAZARDS = RULES.surfaces.hazards
"""Hazard Tokens at the end of a Movement Step on these surfaces (p.86; simulator/data/rules.toml)."""

TREACHEROUS_DROPS = frozenset({"caltrop_dropper", "glue_dropper", "oil_slick_dropper"})
"""Dropped templates that count as a treacherous surface (p.79)."""

SPENT_DROPS = frozenset({"caltrop_dropper", "mine_dropper", "napalm_dropper"})
"""Dropped templates that attack the first vehicle they affect and are then removed (p.79)."""

GLUE, SMOKE = "glue_dropper", "smoke_dropper"

_S = RULES.special
GLUE_GEARS = _S.glue_gears.value
"""Gears a vehicle affected by Glue loses at the end of its Movement Step (p.79)."""

AIRWOLF_HAZARDS = _S.airwolf_hazards.value
"""Hazard Tokens an Airwolf pivot costs (p.70)."""

AIRWOLF_MAX_DEG = _S.airwolf_max_deg.value
"""The largest Airwolf pivot either way (p.70)."""

TANKER_ANCHOR_HAZARDS = _S.tanker_anchor_hazards.value
"""Hazard Tokens a Ponderous vehicle gains to skip its Movement Step (Tanker Anchor, p.120)."""

ARTICULATED_TURN_HAZARDS = _S.articulated_turn_hazards.value
"""Hazard Tokens an Articulated vehicle gains for selecting a template that is not a Straight (p.118)."""

JACKKNIFE_CRUNCH_DICE = _S.jackknife_crunch_dice.value
"""Attack dice of a Jackknife's Crunch against the vehicle itself, not Evaded (p.119)."""

UPPERS_HAZARDS = _S.uppers_hazards.value
"""Hazard Token each vehicle gains for the forced change up of Uppers (p.69)."""

DOWNERS_DISCARD = _S.downers_discard.value
"""Hazard Tokens the target of a Downers Smash Attack discards instead of gaining any (p.69)."""

DOWNERS_CREW = _S.downers_crew.value
"""Crew Value the target of a Downers Smash Attack loses until the end of the Gear Phase (p.69)."""

NITRO_TEMPLATE = _S.nitro_template.value
NITRO_HAZARDS = _S.nitro_hazards.value
"""Nitro Booster (p.84): a forced Long Straight, then Hazard Tokens up to 5 (again at the end of the
Movement Step); a Jet Engine must use it every activation (p.70)."""

CATCH_UP_TARGET = _S.catch_up_target.value
"""D6 plus gates behind needed to gain an Audience Vote when another vehicle is first through a gate (p.127)."""

PIVOT_WORDS = {"Pivot": "Pivot, p.69, p.71", "Airwolf": "Airwolf, p.70"}


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
    ``finish_line``: when a vehicle crosses a Street Race Finish Line (p.62;
    docs/rulings.md): ``"centre"``, its centre passes over the line between
    the ends, travelling away from the Starting Line (default); ``"touch"``,
    any part touches the line while travelling that way (as gates, p.127).
    ``objective``: the scenario rules of any other scenario (p.122-175;
    :mod:`simulator.gaslands.objectives`); none for a race.
    """

    touch_it_use_it: bool = True
    pass_pole_each_phase: bool = True
    course: Course = Course()
    round_limit: int | None = None
    audience_votes: bool = False
    starting_grid: bool = False
    finish_line: Literal["centre", "touch"] = "centre"
    objective: Objective = NO_OBJECTIVE


DEFAULT_OPTIONS = Options()
"""The rules as the book has them, no round limit, no Audience Votes."""


@dataclass(frozen=True)
class Rules:
    """What stays fixed for a whole game: the switchable rules and the template set's permitted gears (p.17)."""

    options: Options
    permissions: PermissionTable = field(compare=False)
    memo: dict[tuple[int, bool, bool, bool, str], tuple[TemplateOption, ...]] = field(
        default_factory=dict, compare=False, repr=False)
    """Template options already worked out for this game's template set (a cache of a pure function)."""
    permitted_memo: dict[tuple[int, bool, bool], dict[str, Manoeuvre]] = field(
        default_factory=dict, compare=False, repr=False)
    """:func:`permitted_templates` by (gear, Full Throttle, no crew) for this game's template set (a cache)."""


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
    CHOOSE_TEMPLATE = "choose_template"
    """After the perks at the start of the Movement Step (:mod:`simulator.gaslands.perks`)."""
    AFTER_SKID = "after_skid"
    """After the Skid Dice (and Push It) and the perks that act on them."""
    SLIDE = "slide"
    """After the Shifts and the perks that choose the Slide template (Maxximum Drift, p.99): step 1.6."""
    ATTACK_STEP = "attack_step"
    """After the perks at the end of the Movement Step."""
    ATTACKS = "attacks"
    """After the perks at the start of the Attack Step."""
    WIPEOUT_STEP = "wipeout_step"
    """After the perks at the end of the Attack Step."""
    AFTER_DEPLOY = "after_deploy"
    """After the Starting Grid or the spawn points are filled: the scenario's choices, then the perks."""
    SCENARIO_WIPEOUT = "scenario_wipeout"
    """After a scenario's start of the Wipeout Step (p.146) and the Wrecks it caused."""


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
class Swung:
    """After a Jackknife's Swing Trailer and its Collision Window: the Pivot Vehicle step (p.119)."""

    vehicle: str


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
class RampLaunch:
    """After a move stopped at a ramp's edge and its Collision Window: the roll, then the Jump or Tumble
    (p.87)."""

    vehicle: str
    ramp: str
    ramp_name: str


@dataclass(frozen=True)
class RampLanded:
    """After a Jump's or Tumble's Collision Window: its Hazard Tokens, vote or attack (p.87)."""

    vehicle: str
    jump: bool


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
    | WreckFinish | RampLaunch | RampLanded | PerkStep | Swung
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


@dataclass(frozen=True)
class ScenarioAsk:
    """A ``declare`` prompt for a choice the scenario owes a player (:class:`~simulator.gaslands.objectives.Ask`);
    play resumes at ``then`` after the answer."""

    ask: Ask
    then: Resume


Declared: TypeAlias = TankerAnchor | UpAndOver | SlipAway | PerkAsk | ScenarioAsk | None
"""What a ``declare`` prompt's answer goes to."""


@dataclass(frozen=True)
class Pending:
    """A collision waiting for reactions: the active vehicle, the contact, the reactions declared so far."""

    active: str
    contact: Contact
    reactions: tuple[Reaction, ...] = ()
    volatile_rolled: bool = False
    """The D6 for a Volatile obstacle was rolled (p.87)."""


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


@fast_init
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


@fast_init
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


@fast_init
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


@fast_init
@dataclass(frozen=True)
class Step:
    """What :func:`step` returns: the new state, the events in order, and the next prompt."""

    state: EngineState
    events: tuple[GameEvent, ...]

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
    seed = EngineState(game, rules, GameOverPrompt(None, "not started"), flow=Flow(deploy_turn=game.round.pole))
    run = _Run(seed, dice, referee)
    run._emit(GameStarted(summaries(game)))
    rs = game.round
    run._emit(GearPhaseStarted(rs.round_no, rs.gear_phase, rs.pole, run._player(rs.pole)))
    if run.objective.active:
        run.scen.begin(run)
    run.guarded(run._next_deploy if run.state.undeployed() else run._after_deployment)
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
    run.guarded(lambda: run.decide(decision))
    return Step(run.freeze(), tuple(run.log))


class _GameOver(Exception):
    """Raised inside a step when the race is won (p.62, p.128) or a scenario ends at once: play stops."""

    def __init__(self, reason: str, ref: str = "", draw: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.ref = ref
        self.draw = draw


class _Run:
    """One call of :func:`step`: a working copy of an :class:`EngineState`, frozen again at the end."""

    def __init__(self, s: EngineState, dice: DiceSource, referee: Referee) -> None:
        self.dice = dice
        self.referee = referee
        self.rules = s.rules
        self.options = s.rules.options
        self.objective = s.rules.options.objective
        self.scen = self.objective.rules
        self.permissions = s.rules.permissions
        self.state = s.game
        self.prompt: Prompt = s.prompt
        self.log: list[GameEvent] = []
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

    def guarded(self, action: Callable[[], None]) -> None:
        """Run ``action``; a race won on the way ends the game at once (p.62, p.128)."""
        try:
            action()
        except _GameOver as over:
            self._windows = []
            self._wipeouts = []
            self._slip_away = []
            self._active = ""
            self._game_over(over.reason, over.ref)

    # ------------------------------------------------------------------ resuming

    def _resume(self, k: Resume) -> None:
        """Go on from ``k`` (see :data:`Resume`)."""
        kind = type(k)
        if kind is Go:  # the commonest, told apart by type before the match
            _GO_TO[k.point](self)  # type: ignore[union-attr]
            return
        if kind is PerkStep:
            perks.step(self, k)  # type: ignore[arg-type]
            return
        match k:
            case Go(point):
                self._go(point)
            case FlipMove(vid, plan):
                self._flip_move(vid, plan)
            case AfterFlip(vid, plan):
                self._after_flip(vid, plan)
            case Crunch(vid, plan):
                self._crunch(vid, plan)
            case Swung(vid):
                self._after_swing(vid)
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
            case RampLaunch(vid, ramp, ramp_name):
                self._ramp_launch(vid, ramp, ramp_name)
            case RampLanded(vid, jump):
                self._ramp_landed(vid, jump)
            case PerkStep():
                perks.step(self, k)
            case _ as unreachable:
                assert_never(unreachable)

    def _go(self, point: Point) -> None:
        _GO_TO[point](self)

    def _after_nitro(self) -> None:
        self._nitro_hazards()
        self._start_movement()

    # ------------------------------------------------------------------ driving

    def decide(self, decision: Decision) -> None:
        """Answer the current prompt; raises :class:`IllegalChoice` if not legal."""
        p = self.prompt
        match p, decision:
            case ActivatePrompt(), Activate():
                self._on_activate(decision)
            case TemplatePrompt(), ChooseTemplate():
                self._on_template(decision)
            case SkidPrompt(), RollSkid():
                self._on_roll(decision)
            case PushItPrompt(), PushIt():
                self._on_push(decision)
            case ShiftsPrompt(), SpendShifts():
                self._on_shifts(decision)
            case SlideFacingPrompt(), SlideFacing():
                self._on_slide_facing(decision)
            case SpinPrompt(), Spin():
                self._on_spin(decision)
            case ReactPrompt(), React():
                self._on_react(decision)
            case AttacksPrompt(), DeclareAttacks():
                self._on_attacks(decision)
            case LoseControlPrompt(), LoseControl():
                self._on_lose_control(decision)
            case PassPolePrompt(), PassPole():
                self._on_pass_pole(decision)
            case VotesPrompt(), SpendVotes():
                self._on_votes(decision)
            case DeployPrompt(), Deploy():
                self._on_deploy(decision)
            case DeclarePrompt(), Declare():
                self._on_declare(decision)
            case PivotPrompt(), Pivot():
                self._on_pivot(decision)
            case PiledriverPrompt(), Piledrive():
                self._on_piledrive(decision)
            case PiledriverPrompt(), Declare():
                self._on_piledrive_declined(decision)
            case SwingTrailerPrompt(), SwingTrailer():
                self._on_swing(decision)
            case TeleportPrompt(), Teleport():
                perks.teleporter.place(self, decision)
            case GameOverPrompt(), _:
                raise IllegalChoice(f"the game is over: no {type(decision).__name__} now")
            case _:
                raise IllegalChoice(f"expected a {p.kind} decision, got {type(decision).__name__}")

    def _emit(self, event: GameEvent) -> None:
        self.log.append(event)
        perks.observe(self, event)
        if self.objective.active:
            self.scen.observe(self, event)

    # the hooks' view of the run (objectives.Ctx)
    def emit(self, event: GameEvent) -> None:
        """Add ``event`` to this step's log (scenario hooks)."""
        self._emit(event)

    def player_name(self, player: int) -> str:
        """A player's name (scenario hooks)."""
        return self._player(player)

    def name(self, piece_id: str) -> str:
        """A piece's name for the log (scenario hooks)."""
        return self._name(piece_id)

    def _vehicle(self, vehicle_id: str | None = None) -> VehicleState:
        return self.state.vehicle(vehicle_id or self._active)

    def _name(self, vehicle_id: str) -> str:
        """A vehicle's name, or a piece of terrain's (``"rock"``), for the log."""
        try:
            v = self.state.vehicle(vehicle_id)
        except KeyError:
            if self.state.scenario.has_token(vehicle_id):
                return self.state.scenario.token(vehicle_id).name
            return self.referee.name_of(vehicle_id)
        return v.label if v.status is not Status.WRECK else f"the wreck of {v.label}"

    def _player(self, player: int) -> str:
        return self.state.players[player] if 0 <= player < len(self.state.players) else f"player {player}"

    def _in_play(self, p: Participant) -> bool:
        return p.obstacle or self._vehicle(p.id).in_play

    def _put(self, vehicle: VehicleState) -> None:
        self.state = self.state.with_vehicle(vehicle)

    # ------------------------------------------------------------------ prompts

    def _ask_declare(self, player: int, vehicle_id: str, rule: str, question: str, choices: tuple[str, ...],
                     then: Declared) -> None:
        """Offer a special rule that may be used: a :class:`DeclarePrompt` whose answer goes to ``then``."""
        self._declaring = rule
        self._on_declared = then
        self.prompt = DeclarePrompt(player, vehicle_id, rule, question, choices)

    def _game_over(self, reason: str, ref: str = "") -> None:
        """Nothing more to decide: the :class:`GameOverPrompt` and the :class:`GameOver` event."""
        winner = self.state.winner
        order = self._standings()
        self.prompt = GameOverPrompt(winner, reason, tuple(self.state.vehicle(i).label for i in order))
        name = self._player(winner) if winner is not None else ""
        if winner is not None and self.state.sides:
            name = self.state.side_name(self.state.side_of(winner))
        self._emit(GameOver(winner, name, reason, self.prompt.standings, summaries(self.state), ref))

    def _standings(self) -> tuple[str, ...]:
        """Vehicle ids first to last: the winning vehicle, then the rest of the race in order, then the
        vehicles out of the game (Runners Up, p.128)."""
        if self.objective.active and self.objective.spec.victory != "last_player":
            return self.scen.standings(self.state)
        racing = list(self.referee.race_order(self.state, self.options.course))
        won = self.state.winner_vehicle
        if won:
            racing = [won, *(i for i in racing if i != won)]
        return (*racing, *(v.id for v in self.state.vehicles if v.id not in racing))

    # ------------------------------------------------------------------ special rules that may be used

    def _on_declare(self, d: Declare) -> None:
        p = self.prompt
        assert isinstance(p, DeclarePrompt)
        if d.choice not in p.choices:
            raise IllegalChoice(f"{d.choice!r} is not one of {', '.join(p.choices)}", self._declaring)
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
            case PerkAsk():
                perks.answer(self, then, d.choice)
            case ScenarioAsk(ask, resume_at):
                self.scen.answer(self, ask, d.choice)
                self._scenario_check()
                self._resume(resume_at)
            case None:
                raise IllegalChoice("nothing was offered to declare")
            case _ as unreachable:
                assert_never(unreachable)

    # ------------------------------------------------------------------ Starting Grid (p.126-127)

    def grid_slots(self, player: int | None = None) -> tuple[int, ...]:
        """The Starting Grid slots open now (p.126): free, in the first rank with room for a waiting vehicle;
        in a scenario with spawn points, the spawn slots (p.130)."""
        who = self._deploy_turn if player is None else player
        if self._spawn_deploy:
            return self.scen.deploy_slots(self.state, self.referee, who)
        return open_grid_slots(self.state, self.referee, self._grid, who)

    @property
    def _spawn_deploy(self) -> bool:
        """Vehicles are placed by the scenario's rules: by a spawn point (p.130) or a team's table edge (p.168)."""
        return self.objective.active

    def _waiting(self, player: int) -> tuple[VehicleState, ...]:
        """``player``'s vehicles waiting to be placed now (the scenario may hold some back, p.138)."""
        waiting = self.state.undeployed(player)
        if not self.objective.active:
            return waiting
        now = set(self.scen.waiting_to_deploy(self.state))
        return tuple(v for v in waiting if v.id in now)

    def _deploy_pose(self, vehicle_id: str, slot: int) -> Pose | None:
        if self._spawn_deploy:
            return self.scen.deploy_pose(self.state, self.referee, vehicle_id, slot)
        return self.referee.grid_slot(self.state, vehicle_id, slot)

    def _next_deploy(self) -> None:
        """Players take turns, from Pole Position clockwise, to place a vehicle on the grid (p.126)."""
        players = len(self.state.players)
        for _ in range(players):
            if self._waiting(self._deploy_turn):
                slots = self.grid_slots()
                if not slots:
                    if self._spawn_deploy:
                        raise IllegalChoice("no room by the spawn point for the waiting vehicles",
                                            self.objective.spec.ref())
                    raise IllegalChoice("no room on the Starting Grid for the waiting vehicles",
                                        "Starting Grid, p.126")
                self._active = ""
                waiting = self._waiting(self._deploy_turn)
                previews = tuple(SlotPreview(v.id, slot, pose) for v in waiting for slot in slots
                                 if (pose := self._deploy_pose(v.id, slot)) is not None)
                if self._spawn_deploy:
                    self.prompt = DeployPrompt(self._deploy_turn, tuple(v.id for v in waiting), slots, 0, previews,
                                               tuple(self.scen.slot_label(k) for k in slots),
                                               f"Deployment, {self.objective.spec.pages}")
                else:
                    self.prompt = DeployPrompt(self._deploy_turn, tuple(v.id for v in waiting), slots,
                                               self.state.grid_width(), previews)
                return
            self._deploy_turn = next_player(self._deploy_turn, players)
        if self._grid:
            self._emit(GreenLight())
        if self.objective.active and self.state.scenario.note("started") == "1":
            self._next_opportunity()  # vehicles placed again during the game (respawns, p.148): play on
            return
        self._after_deployment()

    def _after_deployment(self) -> None:
        """The game starts: the scenario's choices (a flag on a car, p.131), the perks of its start (Hot Start
        p.113, Whizbang and Gyroscope p.114), then play."""
        if self._scenario_ask("deployed", Go(Point.AFTER_DEPLOY)):
            return
        self._after_deploy()

    def _after_deploy(self) -> None:
        if self.objective.active:
            self.state = replace(self.state, scenario=self.state.scenario.with_note("started", "1"))
        perks.step(self, PerkStep("after_deployment", 0, Go(Point.NEXT_OPPORTUNITY)))

    def _on_deploy(self, d: Deploy) -> None:
        p = self.prompt
        assert isinstance(p, DeployPrompt)
        v = self._vehicle(d.vehicle_id)
        where = p.rule or "Starting Grid, p.126"
        if v.status is not Status.UNDEPLOYED or v.player != p.player or v.id not in p.vehicles:
            raise IllegalChoice(f"{v.label} is not a vehicle of {self._player(p.player)} waiting to deploy", where)
        if d.slot not in p.slots:
            if self._spawn_deploy:
                raise IllegalChoice(f"slot {d.slot} is not open by the spawn point", where)
            raise IllegalChoice(f"{p.label(d.slot)} is not open: fill the first rank first, touching the Starting "
                                "Line", "Starting Grid, p.126")
        pose = self._deploy_pose(v.id, d.slot)
        if pose is None:
            raise IllegalChoice(f"{v.label} does not fit in {p.label(d.slot)} with a finger's width all round", where)
        self._put(replace(v, pose=pose, status=Status.ACTIVE))
        if self._spawn_deploy:
            self.scen.deployed_vehicle(self, v.id, pose)
        else:
            self._grid[d.slot] = v.id
            columns = self.state.grid_width()
            rank, column = divmod(d.slot, columns)
            self._emit(GridPlaced(v.id, v.label, rank + 1, column + 1))
        self._deploy_turn = next_player(self._deploy_turn, len(self.state.players))
        self._next_deploy()

    # ------------------------------------------------------------------ round (p.19-20)

    def _next_opportunity(self) -> None:
        if self._check_game_over():
            return
        if self._scenario_phase_start():
            return
        for _ in range(self.state.round.players * 6 * 2 + 1):
            rs = self.state.round
            if rs.phase_over:
                self._next_phase(rs)
                if self._check_game_over(phase_end=True):
                    return
                if self._scenario_phase_start():
                    return
                continue
            if self._offer_votes(rs.turn):
                return
            options = qualifying(self.state.vehicles, rs)  # each VehicleState reads as its Contender
            if options:
                self._active = ""
                self.prompt = ActivatePrompt(rs.turn, tuple(options), rs.round_no, rs.gear_phase)
                return
            self._votes_offered = False
            self.state = self.state.with_round(after_pass(rs))
        if self.objective.active and self.objective.spec.victory != "last_player":
            self._scenario_end(self.scen.most_points(self.state, "no vehicle can activate"))
            return
        self._game_over("no vehicle can activate")

    def _next_phase(self, rs: RoundState) -> None:
        """The next Gear Phase; Pole Position passes unless Carpe Diem froze it (p.62, p.90)."""
        pass_pole = self.options.pass_pole_each_phase
        if pass_pole and self.state.pole_frozen:
            pass_pole = False
            self.state = replace(self.state, pole_frozen=False)
            self._emit(PoleStays())
        self.state = self.state.with_round(next_gear_phase(rs, pass_pole=pass_pole))
        if pass_pole and self.state.sides:  # never to a team-mate (Team Games, p.123)
            self.state = self.state.with_round(replace(self.state.round, pole=self.state.next_opponent(rs.pole),
                                                       turn=self.state.next_opponent(rs.pole)))
        self._end_phase_effects()
        if perks.in_play(self):
            perks.end_of_gear_phase(self, self.state.round.round_no > rs.round_no)
        after = self.state.round
        if pass_pole and after.pole != rs.pole:
            self._emit(PolePassed(after.pole, self._player(after.pole)))
        self._emit(GearPhaseStarted(after.round_no, after.gear_phase, after.pole, self._player(after.pole)))
        if self.options.audience_votes and after.round_no > rs.round_no:
            before = self.state.votes
            self.state = replace(self.state, votes=gain_at_round_start(self.state, before))
            for p, (a, b) in enumerate(zip(before, self.state.votes, strict=True)):
                if b > a:
                    self._emit(VotesGained(p, self._player(p), b - a, "no active vehicles"))

    # ------------------------------------------------------------------ Audience Votes (p.88-90)

    def _offer_votes(self, player: int) -> bool:
        """Ask ``player`` whether to spend votes before activating or passing (p.89); True if asked."""
        if not self.options.audience_votes or self._votes_offered or self.state.votes_of(player) <= 0:
            return False
        respawn = self.objective.spec.respawn if self.objective.active else "in_place"
        rights = perks.respawn_rights(self.state, player) if perks.in_play(self) else NO_RIGHTS  # p.101
        effects = affordable(self.state, self.state.votes, player, respawn, rights)
        choices = vote_choices(self.state, self.state.votes, player, respawn, rights)
        if self.objective.active:
            extra = self.scen.vote_choices(self.state, player)
            choices = (*choices, *extra)
            effects = (*effects, *dict.fromkeys(c.effect.effect for c in extra))
        if not effects:
            return False
        self._votes_offered = True
        self._active = ""
        self.prompt = VotesPrompt(player, self.state.votes_of(player), effects, choices)
        return True

    def _on_votes(self, d: SpendVotes) -> None:
        player = self.prompt.player
        p = self.prompt
        assert isinstance(p, VotesPrompt)
        own = tuple(e for e in d.effects if e.effect in SCENARIO_EFFECTS)
        for e in own:
            if not any(c.effect == e for c in p.choices):
                raise IllegalChoice(f"{e.effect.replace('_', ' ')} cannot be bought now", self.objective.spec.ref())
        standard = tuple(e for e in d.effects if e.effect not in SCENARIO_EFFECTS)
        if own and cost_of(p, own) + (spend_cost(standard) if standard else 0) > self.state.votes_of(player):
            raise IllegalChoice("not enough Audience Votes for all of that", "Audience Votes, p.89")
        respawn = self.objective.spec.respawn if self.objective.active else "in_place"
        roll = self.dice.roll_d6(1)[0] if any(e.effect == "thunderous_applause" for e in standard) else 1
        before = self.state
        rights = perks.respawn_rights(self.state, player) if perks.in_play(self) else NO_RIGHTS  # p.101
        spent = spend(self.state, self.state.votes, player, standard, roll, respawn, rights)
        self.state = replace(spent.state, votes=spent.votes, pole_frozen=self.state.pole_frozen or spent.freeze_pole)
        for line, rule in spent.lines:
            self._emit(VotesSpent(player, self._player(player), line, rule, roll if "sheds" in line else None))
        for old in before.vehicles:
            new = self.state.vehicle(old.id)
            delta = deltas(old, new)
            if any(delta.values()):
                self._emit(VoteEffectApplied(old.id, old.label, **delta))
            if old.status is not Status.UNDEPLOYED and new.status is Status.UNDEPLOYED:
                self.state = replace(self.state, scenario=self.state.scenario.with_note(f"respawn:{old.id}", "1"))
        driven: tuple[str, int] | None = None
        for e in own:
            self.state = replace(self.state, votes=tuple(v - (cost_of(p, (e,)) if i == player else 0)
                                                         for i, v in enumerate(self.state.votes)))
            driven = self.scen.spend(self, player, e) or driven
        if own:
            self._scenario_check()
        if driven is not None:
            self._drive(*driven)
            return
        if own and any(v.in_play and v.damage >= v.hull for v in self.state.vehicles):
            self._wrecks_then(Go(Point.NEXT_OPPORTUNITY))  # an extra shot wrecked something (p.151)
            return
        if any(self._waiting(q) for q in range(len(self.state.players))):
            self._next_deploy()
            return
        self._next_opportunity()

    def _end_phase_effects(self) -> None:
        if any(v.crew_penalty for v in self.state.vehicles):
            self.state = replace(self.state, vehicles=tuple(replace(v, crew_penalty=0) for v in self.state.vehicles))

    def _check_game_over(self, phase_end: bool = False) -> bool:
        if self.objective.active and self.state.winner is None:
            verdict = self.scen.verdict(self.state, phase_end)
            if verdict is not None:
                self._scenario_end(verdict)
                return True
        limit = self.options.round_limit
        if self.state.winner is None and limit is not None and self.state.round.round_no > limit:
            self._game_over(f"round limit {limit} reached: no winner")
            return True
        if self.objective.active and self.objective.spec.victory != "last_player":
            return False
        if self.state.sides and self.state.winner is None:
            teams = self.state.sides_in_play()
            if len(teams) > 1:
                return False
            if len(teams) == 1:
                side = next(iter(teams))
                self.state = replace(self.state, winner=self.state.side_players(side)[0])
                ref = self.objective.spec.victory_ref if self.objective.active else "p.62"
                self._game_over(f"{self.state.side_name(side)} is the last team with vehicles ({ref}, Team Games "
                                "p.123)", ref if self.objective.active else "")
                return True
        alive = self.state.players_in_play()
        if self.state.winner is None and len(alive) > 1:
            return False
        if self.state.winner is None and len(alive) == 1:
            self.state = replace(self.state, winner=next(iter(alive)))
            if self.objective.active:
                ref = self.objective.spec.victory_ref
                self._game_over(f"{self._player(self.state.winner or 0)} is the last player with vehicles ({ref})",
                                ref)
                return True
            self._game_over(f"{self._player(self.state.winner or 0)} is the last player with vehicles (p.62)")
            return True
        ref = self.objective.spec.victory_ref if self.objective.active else ""
        self._game_over(("no player has vehicles left" if self.state.winner is None else "the race is won")
                        + (f" ({ref})" if ref else ""), ref)
        return True

    def _on_activate(self, d: Activate) -> None:
        p = self.prompt
        assert isinstance(p, ActivatePrompt)
        if d.vehicle_id not in p.vehicles:
            raise IllegalChoice(f"{self._name(d.vehicle_id)} does not qualify now", "Qualifying, p.19")
        self._active = d.vehicle_id
        self._votes_offered = False
        self._emit(Activated(d.vehicle_id, self._name(d.vehicle_id), self.state.round.gear_phase))
        self._begin_activation()

    def _begin_activation(self) -> None:
        v = self._vehicle()
        self._nitro = False
        if self.objective.active:
            self.scen.start_of_activation(self, v.id)
            v = self._vehicle()
        if v.on_fire:
            burnt = replace(v, damage=v.damage + 1)
            self._put(burnt)
            self._emit(Burned(v.id, v.label, hull_delta=deltas(v, burnt)["hull_delta"]))
        self._wrecks_then(PerkStep("start_of_activation", 0, Go(Point.START_OF_ACTIVATION)))

    # ------------------------------------------------------------------ start of an activation (p.69-70, p.120)

    def _start_of_activation(self) -> None:
        """Special rules used at the start of an activation: Tanker Anchor, Pivot, Airwolf."""
        v = self._vehicle()
        if not v.in_play:
            self._start_movement()
            return
        if self._scenario_ask("activation_start", Go(Point.START_OF_ACTIVATION)):
            return
        if self.objective.active:
            heading = self.scen.pivot_at_start(self, v.id)
            if heading is not None:
                report = self.referee.pivot(self.state, v.id, heading)
                requested = (heading - v.pose.heading_deg + 180.0) % 360.0 - 180.0
                self._apply_report(v.id, report, how="pivots", ref=self.objective.spec.ref("Roar"),
                                   requested=requested, surfaces=False)
                self._window(v.id, report, Go(Point.START_MOVEMENT))
                return
        v = self._vehicle()
        if v.has("Ponderous") and not (self.objective.active and self.scen.no_tanker_anchor(self.state, v.id)):
            self._ask_declare(v.player, v.id, "Tanker Anchor, p.120",
                              f"{v.label}: gain 1 Hazard Token to skip the Movement Step (and go up a gear)?",
                              ("no", "skip", "skip_gear_up"), TankerAnchor())
            return
        self._offer_pivot()

    def _pivot_rule(self, v: VehicleState) -> Literal["Pivot", "Airwolf", ""]:
        if v.has("Pivot") and (v.gear == 1 or v.has("Pivot In Any Gear")):
            return "Pivot"
        return "Airwolf" if v.has("Airwolf") else ""

    def _offer_pivot(self) -> None:
        v = self._vehicle()
        rule = self._pivot_rule(v)
        if not rule:
            self._start_movement()
            return
        if rule == "Pivot":
            self.prompt = PivotPrompt(v.player, v.id, "Pivot", 180.0, 0, "p.69, p.71")
        else:
            self.prompt = PivotPrompt(v.player, v.id, "Airwolf", AIRWOLF_MAX_DEG, AIRWOLF_HAZARDS, "p.70")

    def _on_anchor(self, choice: str) -> None:
        v = self._vehicle()
        if choice == "no":
            self._offer_pivot()
            return
        gear = min(v.max_gear, v.gear + 1) if choice == "skip_gear_up" else v.gear
        anchored = replace(v, hazards=v.hazards + TANKER_ANCHOR_HAZARDS, gear=gear)
        self._put(anchored)
        d = deltas(v, anchored)
        self._emit(AnchorDropped(v.id, v.label, gear, d["hazard_delta"], d["gear_delta"]))
        self._spin = False
        self._attack_step()

    def _on_pivot(self, d: Pivot) -> None:
        v = self._vehicle()
        rule = self._pivot_rule(v)
        angle = float(d.angle_deg)
        if angle == 0.0:
            self._start_movement()
            return
        if not math.isfinite(angle):
            raise IllegalChoice("a pivot angle must be a number of degrees", PIVOT_WORDS.get(rule, ""))
        if rule == "Airwolf" and abs(angle) > AIRWOLF_MAX_DEG:
            raise IllegalChoice(f"an Airwolf pivot turns at most {AIRWOLF_MAX_DEG:.0f} degrees", "Airwolf, p.70")
        if not -180.0 <= angle <= 180.0:
            raise IllegalChoice("a pivot turns at most 180 degrees either way", PIVOT_WORDS.get(rule, ""))
        report = self.referee.spin(self.state, v.id, angle)
        if rule == "Pivot" and (report.interrupted or report.contacts):
            raise IllegalChoice(f"{v.label} cannot pivot {angle:+.0f} degrees: it would collide or end touching an "
                                "obstruction", "Pivot, p.69")
        before = v
        if rule == "Airwolf":
            v = replace(v, hazards=v.hazards + AIRWOLF_HAZARDS)
            self._put(v)
        self._emit(Pivoted(v.id, v.label, rule, angle, deltas(before, v)["hazard_delta"]))
        self._apply_report(v.id, report, how="pivots", ref=PIVOT_WORDS.get(rule, ""), requested=angle,
                           surfaces=False)
        self._window(v.id, report, Go(Point.START_MOVEMENT))

    # ------------------------------------------------------------------ movement (p.21-26, p.38-41)

    def _permitted(self, v: VehicleState) -> dict[str, Manoeuvre]:
        key = (v.gear, v.has("Full Throttle"), v.crew_now == 0)
        memo = self.rules.permitted_memo
        known = memo.get(key)
        if known is None:
            known = memo[key] = _shared_permitted(self.permissions, key)
        permitted = dict(known)  # callers may change their copy
        if not perks.in_play(self):
            return permitted
        every = {t: manoeuvre(self.permissions, t, v.gear, full_throttle=v.has("Full Throttle"),
                              zero_crew=v.crew_now == 0) for t in MOVEMENT_TEMPLATES}
        changed = perks.manoeuvres(self, v, self.permissions, every)
        return {t: m for t, m in changed.items() if m.permitted}

    def _template_prompt(self, v: VehicleState, chooser: int, *, touch: bool = False) -> TemplatePrompt:
        """Every template of the set with how it counts for ``v`` now, and why a refused one is refused."""
        key = (v.gear, v.has("Full Throttle"), v.crew_now == 0, v.has("Articulated"), v.label)
        options = self.rules.memo.get(key)
        if options is None:
            options = self.rules.memo[key] = _shared_template_options(self.permissions, key)
        if perks.in_play(self):
            options = self._perk_template_options(v, options)
        reverse = v.gear == 1 and not self._nitro and not touch
        why = "" if reverse else ("only in Gear 1 (p.39)" if v.gear != 1 else
                                  "not after a Nitro Booster (p.84)" if self._nitro else "the owner decides")
        return TemplatePrompt(chooser, v.id, options, reverse, why, touch)

    def _perk_template_options(self, v: VehicleState, options: tuple[TemplateOption, ...]) -> tuple[TemplateOption, ...]:
        """The template options as the vehicle's perks make them (Trick Driving p.110, Over the Limit p.102,
        Delicate Touch p.115, As Straight as I'm Able p.102)."""
        permitted = self._permitted(v)
        out = []
        for o in options:
            m = permitted.get(o.template)
            if m is None:
                out.append(o if not o.permitted else replace(o, manoeuvre=Manoeuvre.NOT_PERMITTED, hazards=0,
                                                              reason="never a Straight (Over the Limit)",
                                                              page="p.102"))
                continue
            articulated = ARTICULATED_TURN_HAZARDS if v.has("Articulated") and o.template not in STRAIGHTS else 0
            hazardous, articulated = perks.template_hazards(self, v, o.template, m.hazard_tokens, articulated,
                                                            quiet=True)
            out.append(replace(o, manoeuvre=m, hazards=hazardous + articulated, reason="", page=""))
        return tuple(out)

    def _start_movement(self) -> None:
        v = self._vehicle()
        if not v.in_play:
            self._end_of_activation()
            return
        if v.has("Jet Engine") and not self._nitro:
            self._nitro_boost(v)
            return
        perks.step(self, PerkStep("start_of_movement", 0, Go(Point.CHOOSE_TEMPLATE)))

    def _choose_template(self) -> None:
        v = self._vehicle()
        if not v.in_play:
            self._end_of_activation()
            return
        self._skid_allowed = True
        self._move_hit = set()
        self._over = set()
        self._over_used = frozenset()
        self.prompt = self._template_prompt(v, v.player)

    def _nitro_boost(self, v: VehicleState) -> None:
        """The Jet Engine's compulsory Nitro Booster: a forced Long Straight, then up to 5 Hazard Tokens (p.70, p.84)."""
        self._nitro = True
        self._emit(NitroFired(v.id, v.label))
        report = self.referee.forced_move(self.state, v.id, NITRO_TEMPLATE, ignore_obstructions=False)
        self._apply_report(v.id, report, how="Nitro Booster", ref="Nitro Booster, p.84", template=NITRO_TEMPLATE,
                           surfaces=False)
        self._window(v.id, report, Go(Point.AFTER_NITRO))

    def _nitro_hazards(self) -> None:
        v = self._vehicle()
        top = perks.nitro_hazards(self, v, NITRO_HAZARDS)  # Speed Demon (p.94)
        if v.in_play and v.hazards < top:
            topped = replace(v, hazards=top)
            self._put(topped)
            self._emit(NitroHazards(v.id, v.label, deltas(v, topped)["hazard_delta"]))

    def _on_template(self, d: ChooseTemplate) -> None:
        p = self.prompt
        assert isinstance(p, TemplatePrompt)
        v = self._vehicle()
        permitted = self._permitted(v)
        if d.reverse and v.gear != 1:
            raise IllegalChoice("only a vehicle in Gear 1 may reverse", "Reversing, p.39")
        if d.reverse and self._nitro:
            raise IllegalChoice("no reversing after a Nitro Booster", "Nitro Booster, p.84")
        if d.template not in permitted:
            if not self.options.touch_it_use_it or p.player != v.player:
                raise IllegalChoice(f"the {d.template.replace('_', ' ')} is not permitted in Gear {v.gear}",
                                    "Permitted Gears, p.17")
            chooser = self._next_opponent(v.player)
            self._emit(TouchItUseIt(v.id, v.label, d.template, self._player(chooser)))
            self._skid_allowed = False
            self.prompt = self._template_prompt(v, chooser, touch=True)
            return
        self._template = d
        self._manoeuvre = permitted[d.template]
        articulated = ARTICULATED_TURN_HAZARDS if v.has("Articulated") and d.template not in STRAIGHTS else 0
        hazardous, articulated = perks.template_hazards(self, v, d.template, self._manoeuvre.hazard_tokens,
                                                        articulated)
        chosen = replace(v, hazards=v.hazards + hazardous + articulated, reversing=d.reverse)
        self._put(chosen)
        by = self._player(p.player) if p.player != v.player else ""
        self._emit(TemplateChosen(v.id, v.label, by, d.template, d.direction, d.reverse, self._manoeuvre,
                                  deltas(v, chosen)["hazard_delta"], bool(articulated)))
        self._roll = SkidRoll(free_shifts=self._manoeuvre.free_shifts)
        if self._skid_allowed and v.handling > 0:
            self.prompt = SkidPrompt(v.player, v.id, perks.max_skid_dice(self, v), self._manoeuvre.free_shifts)
        else:
            self._after_push()

    def _on_roll(self, d: RollSkid) -> None:
        p = self.prompt
        assert isinstance(p, SkidPrompt)
        if not isinstance(d.count, int) or not 0 <= d.count <= p.max_dice:
            raise IllegalChoice(f"roll 0 to {p.max_dice} Skid Dice (the Handling), not {d.count}", "Skid Dice, p.22")
        v = self._vehicle()
        roll = roll_skid_dice(self.dice, d.count, p.max_dice, trivial=self._manoeuvre is Manoeuvre.TRIVIAL)
        self._roll = roll
        self._emit(SkidDiceRolled(v.id, v.label, roll.faces))
        if d.count and not (self.objective.active and self.scen.no_push_it(self.state, v.id)):
            self.prompt = PushItPrompt(v.player, v.id, roll, v.hazards)
        else:
            self._after_push()

    def _on_push(self, d: PushIt) -> None:
        v = self._vehicle()
        if d.reroll:
            if any(not isinstance(i, int) or not 0 <= i < len(self._roll.faces) for i in d.reroll):
                raise IllegalChoice(f"reroll dice 0 to {len(self._roll.faces) - 1}, not {list(d.reroll)}",
                                    "Push It, p.40")
            self._roll = push_it(self._roll, d.reroll, self.dice)
            pushed = replace(v, hazards=v.hazards + 1)
            self._put(pushed)
            self._emit(PushedIt(v.id, v.label, tuple(sorted(set(d.reroll))), self._roll.faces,
                                deltas(v, pushed)["hazard_delta"]))
            if perks.push_again(self, v):  # Chrome-Whisperer (p.107): it may Push It again
                self._roll = replace(self._roll, pushed=False)
                now = self._vehicle()
                self.prompt = PushItPrompt(now.player, now.id, self._roll, now.hazards)
                return
        else:
            self._emit(DiceKept(v.id, v.label))
        self._after_push()

    def _after_push(self) -> None:
        perks.step(self, PerkStep("after_skid", 0, Go(Point.AFTER_SKID)))

    def _after_skid(self) -> None:
        v = self._vehicle()
        if self._roll.shifts:
            plans = self._slide_plans(v) if SkidFace.SLIDE in self._roll.faces else ()
            self.prompt = ShiftsPrompt(v.player, v.id, self._roll, perks.driving(self, v),
                                       plans, Lookahead(self.referee, self.state) if plans else None)
        else:
            self._apply_shifts(SpendShifts())

    def _slide_plans(self, v: VehicleState) -> tuple[MovePlan, ...]:
        """The chosen template without a Slide, then with one (each facing off a Straight, p.26)."""
        t = self._template
        if t is None or v.has("Ponderous"):
            return ()
        sides: tuple[Literal["left", "right"] | None, ...] = ("left", "right") if t.template in STRAIGHTS else (None,)
        along = perk_more.slide_template(self)  # Powerslide (p.107)
        return (MovePlan(t.template, t.direction, t.reverse),
                *(MovePlan(t.template, t.direction, t.reverse, True, side, along) for side in sides))

    def _on_shifts(self, d: SpendShifts) -> None:
        self._apply_shifts(d)

    def _apply_shifts(self, d: SpendShifts) -> None:
        v = self._vehicle()
        outcome = resolve_shifts(perks.driving(self, v), self._roll, d.spends)
        hazards = perks.after_shifts(self, v, outcome, d.spends, len(self._roll.faces))
        shifted = replace(v, gear=outcome.driving.gear, hazards=hazards)
        self._put(shifted)
        self._slide, self._spin = outcome.slide, outcome.spin
        words = tuple(_spend_words(s, self._roll) for s in d.spends)
        delta = deltas(v, shifted)
        self._emit(ShiftsSpent(v.id, v.label, words, shifted.gear, shifted.hazards, outcome.slide, outcome.spin,
                               delta["hazard_delta"], delta["gear_delta"]))
        if outcome.slides > 1 and perks.in_play(self):
            drift = perk_more.maxximum_drift(self, outcome.slides)  # the Slide template for many Slides (p.99)
            if drift is not None:
                perks.ask(self, drift, Go(Point.SLIDE))
                return
        self._place_slide()

    def _place_slide(self) -> None:
        """Step 1.6 (p.22): which way an uncancelled Slide off a Straight faces, else the move itself."""
        v = self._vehicle()
        assert self._template is not None
        if self._slide and self._template.template in STRAIGHTS and not v.has("Ponderous"):
            ahead = Lookahead(self.referee, self.state)
            endings = tuple(ahead.ending(v.id, plan) for plan in self._slide_plans(v)[1:])
            t = self._template
            self.prompt = SlideFacingPrompt(v.player, v.id, endings, t.template, t.direction, t.reverse,
                                            perk_more.slide_template(self))
        else:
            self._move(None)

    def _on_slide_facing(self, d: SlideFacing) -> None:
        if d.side not in ("left", "right"):
            raise IllegalChoice(f"a Slide faces left or right, not {d.side!r}", "Slide, p.26")
        v = self._vehicle()
        self._emit(SlideChosen(v.id, v.label, d.side))
        self._move(d.side)

    def _move(self, slide_facing: str | None) -> None:
        assert self._template is not None
        t = self._template
        slide = self._slide and not self._vehicle().has("Ponderous")
        plan = MovePlan(t.template, t.direction, t.reverse, slide, "left" if slide_facing == "left" else
                        "right" if slide_facing == "right" else None,
                        perk_more.slide_template(self) if slide else "")
        self._move_start = self._vehicle()
        self._move_plan = plan
        report = perk_more.movement(self, plan)  # through obstructions for a Stunt Driver (p.107)
        self._interrupted = report.interrupted
        self._surfaced = report
        self._apply_report(self._active, report, how="drives", ref="Movement Step, p.22-26", plan=plan)
        then: Resume = RampLaunch(self._active, report.ramp, report.ramp_name) if report.ramp else \
            Go(Point.AFTER_MOVE_WINDOW)
        self._window(self._active, report, then, movement=True)

    def _ramp_launch(self, vid: str, ramp: str, ramp_name: str) -> None:
        """Off a ramp's edge (p.87): a D6 against the current Gear, then the Jump or Tumble's forced move
        straight ahead, ignoring every obstruction, and its Collision Window."""
        v = self._vehicle(vid)
        if not v.in_play:
            self._after_move_window()
            return
        (roll,) = self.dice.roll_d6(1)
        jump = ramps.jumps(roll, v.gear)
        self._emit(RampReached(vid, v.label, ramp, ramp_name, roll, v.gear, jump))
        template = ramps.ramp_template(jump, v.gear)
        report = self.referee.forced_move(self.state, vid, template, ignore_obstructions=True)
        self._apply_report(vid, report, how="jumps" if jump else "tumbles", ref="Jump, p.87" if jump else
                           "Tumble, p.87", template=template, surfaces=False)
        self._window(vid, report, RampLanded(vid, jump))

    def _ramp_landed(self, vid: str, jump: bool) -> None:
        """A Jump: 2 Hazard Tokens and 1 Audience Vote; a Tumble: a 4D6 attack and 6 Hazard Tokens (p.87)."""
        v = self._vehicle(vid)
        if v.in_play and jump:
            landed = replace(v, hazards=v.hazards + ramps.JUMP_HAZARDS)
            self._put(landed)
            self._emit(Jumped(vid, v.label, deltas(v, landed)["hazard_delta"]))
            if self.options.audience_votes:
                votes = list(self.state.votes)
                votes[v.player] += ramps.JUMP_VOTES
                self.state = replace(self.state, votes=tuple(votes))
                self._emit(VotesGained(v.player, self._player(v.player), ramps.JUMP_VOTES, f"{v.label} jumped"))
        elif v.in_play:
            rolls = self.dice.roll_d6(ramps.TUMBLE_ATTACK_DICE)
            hits = count_hits(rolls)
            evades = self.dice.roll_d6(evade_dice(v.gear)) if hits else ()
            taken = max(0, hits - count_evades(evades))
            hit = replace(v, damage=v.damage + taken, hazards=v.hazards + ramps.TUMBLE_HAZARDS)
            self._put(hit)
            delta = deltas(v, hit)
            self._emit(Tumbled(vid, v.label, rolls, evades, hits, delta["hull_delta"], delta["hazard_delta"]))
        self._wrecks_then(Go(Point.AFTER_MOVE_WINDOW))

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
        self._interrupted = report.interrupted
        over = ", ".join(self._name(i) for i in sorted(self._over))
        self._apply_report(v.id, self._new_effects(report), how=f"goes Up and Over {over}", ref="Up and Over, p.71",
                           plan=self._move_plan, start=self._move_start.pose)
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

    def _apply_report(self, vehicle_id: str, report: MoveReport, *, how: str, ref: str, surfaces: bool = True,
                      plan: MovePlan | None = None, template: str = "", requested: float | None = None,
                      start: Pose | None = None, can_win: bool = True) -> None:
        """Put the vehicle where the report says and say so (:class:`Moved`); ``surfaces``: this ends a
        Movement Step (p.86, p.79-80). ``can_win``: a crossing of the Finish Line on this move wins (not a
        Wreck skidding to a halt: it is no longer racing, p.43). A race won ends the game at once (p.62,
        p.128)."""
        v = self._vehicle(vehicle_id)
        moved = replace(v, pose=report.pose, bend_deg=v.bend_deg if report.bend_deg is None else report.bend_deg)
        self._emit(Moved(
            v.id, v.label, how, ref, start or v.pose, report.pose,
            template=plan.template if plan else template, direction=plan.direction if plan else None,
            reverse=plan.reverse if plan else False, slide=plan.slide if plan else False,
            slide_facing=plan.slide_facing if plan else None, path=report.path, interrupted=report.interrupted,
            met=tuple(self._name(c.other_id) for c in report.contacts),
            stopped_by=tuple(self._name(i) for i in report.stopped_by),
            requested_deg=requested, turned_deg=report.turned_deg if requested is not None else None,
            trailer_start=v.trailer_pose if start is None else None, trailer_final=moved.trailer_pose,
        ))
        if surfaces:
            moved = self._movement_step_effects(moved, report)
        if report.removed:
            fresh = sorted(set(report.removed) - self.state.removed_obstacles)
            self.state = replace(self.state, removed_obstacles=self.state.removed_obstacles | set(report.removed))
            for gone in fresh:
                self._emit(ObstacleRemoved(gone, self._name(gone)))
        if report.disqualified and self.objective.active and self.scen.leaves_table(self, moved.id, report):
            report = replace(report, disqualified=False)
            moved = self._vehicle(moved.id)
            if moved.status is not Status.ACTIVE:
                return  # it drove off the scenario's exit edge (Express Delivery p.137; Long Road Home p.174)
        if report.disqualified:
            moved = replace(moved, status=Status.DISQUALIFIED)
            self._emit(Disqualified(moved.id, moved.label))
        self._put(moved)
        if self.objective.active:
            self.scen.after_move(self, moved.id, report, surfaces)
            self._scenario_check()
            moved = self._vehicle(moved.id)
        course = self.options.course
        ghost = not perk_sponsors.may_win(self.state, moved.id)  # a Ghost Rider (p.101)
        if report.gates and course.gates and moved.in_play:
            self._pass_gates(moved, report.gates, can_win)
        elif not course.death_race and self.state.winner is None and moved.in_play and (
                report.finish_point is not None if self.options.finish_line == "centre" else report.finish_touch):
            if not can_win or ghost:
                why = ("a Ghost Rider never counts towards victory (p.101)" if ghost
                       else "a Wreck skidding to a halt is out of the race (p.43)")
                self._emit(CrossedFinish(moved.id, moved.label, report.finish_point, wins=False, why=why))
                return
            self.state = replace(self.state, winner=moved.player, winner_vehicle=moved.id)
            self._emit(CrossedFinish(moved.id, moved.label, report.finish_point))
            raise _GameOver(f"{moved.label} crossed the Finish Line (p.62)")

    def _pass_gates(self, v: VehicleState, touched: tuple[str, ...], can_win: bool = True) -> None:
        course = self.options.course
        passed, newly = advance(v.gates_passed, touched, course)
        if not newly:
            return
        self._put(replace(v, gates_passed=passed))
        self._emit(PassedGates(v.id, v.label, tuple(newly)))
        if course.pole_at_gates and v.player == self.state.round.pole:
            self._pole_pending = True
        if passed > self.state.gates_led:
            led = self.state.gates_led
            self.state = replace(self.state, gates_led=passed)
            if self.options.audience_votes:
                for gate_no in range(led + 1, passed + 1):
                    self._catch_up(v.player, gate_no)
        if finished(passed, course) and self.state.winner is None:
            if v.has("Airborne") or not can_win or not perk_sponsors.may_win(self.state, v.id):
                why = ("a Helicopter or Gyrocopter cannot win the race (p.128)" if v.has("Airborne")
                       else "a Ghost Rider never counts towards victory (p.101)" if can_win
                       else "a Wreck skidding to a halt is out of the race (p.43)")
                self._emit(CrossedFinish(v.id, v.label, None, wins=False, death_race=True, why=why))
                return
            self.state = replace(self.state, winner=v.player, winner_vehicle=v.id)
            self._emit(CrossedFinish(v.id, v.label, None, death_race=True))
            raise _GameOver(f"{v.label} passed the Finish Line (p.128)")

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
            self._emit(CatchUpRolled(p, self._player(p), roll, behind, gained))

    def _pass_pole_then(self, then: Resume) -> bool:
        """Hand on Pole Position after a gate (p.125); True if a player must choose first."""
        if not self._pole_pending:
            return False
        self._pole_pending = False
        rs = self.state.round
        others = tuple(p for p in range(rs.players) if p != rs.pole and not self.state.same_side(p, rs.pole))
        if len(others) > 1 and self.state.winner is None:
            self._after_pole = then
            self.prompt = PassPolePrompt(rs.pole, others)
            return True
        if others:
            self._set_pole(others[0])
        return False

    def _set_pole(self, player: int) -> None:
        if self.state.pole_frozen:
            self.state = replace(self.state, pole_frozen=False)
            self._emit(PoleStays())
            return
        self.state = self.state.with_round(replace(self.state.round, pole=player))
        self._emit(PolePassed(player, self._player(player), at_gate=True))

    def _on_pass_pole(self, d: PassPole) -> None:
        p = self.prompt
        assert isinstance(p, PassPolePrompt)
        if d.player not in p.to:
            raise IllegalChoice(f"Pole Position must pass to another player, not {d.player}", "p.125")
        self._set_pole(d.player)
        self._resume(self._after_pole)

    def _after_final_position(self) -> None:
        if self._pass_pole_then(Go(Point.AFTER_FINAL_POSITION)):
            return
        v = self._vehicle()
        if self._spin and not self._interrupted and v.in_play:
            self.prompt = SpinPrompt(v.player, v.id, *perks.spin_range(self, v))
        else:
            if self._spin and v.in_play:
                self._emit(SpinLost(v.id, v.label))
            self._end_movement_step()

    def _end_movement_step(self) -> None:
        if self._nitro:
            self._nitro_hazards()
        if self.objective.active:
            self.scen.end_of_movement_step(self, self._active)
            self._scenario_check()
            perks.step(self, PerkStep("end_of_movement", 0, WrecksThen(Go(Point.ATTACK_STEP))))
            return
        perks.step(self, PerkStep("end_of_movement", 0, Go(Point.ATTACK_STEP)))

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
            self._emit(AllTerrain(v.id, v.label))
            kinds -= set(SURFACE_HAZARDS)
        surface_tokens = sum(SURFACE_HAZARDS.get(k, 0) for k in kinds)
        hazards = v.hazards + surface_tokens
        if surface_tokens:
            names = tuple(f"{k} ground" for k in sorted(kinds) if k in SURFACE_HAZARDS)
            if TREACHEROUS_DROPS & set(drops):
                names = (*names, "a dropped template (treacherous, p.79)")
            self._emit(SurfaceHazards(v.id, v.label, names, surface_tokens))
        if any(self.state.dropped_template(i).weapon == SMOKE for i in report.dropped_touched
               if self._dropped_exists(i)):
            hazards += 1
            self._emit(SmokeHazard(v.id, v.label))
        glued = GLUE in drops and not v.glued
        gear = v.gear
        if glued:
            gear = max(1, v.gear - GLUE_GEARS)
            self._emit(Glued(v.id, v.label, gear, gear - v.gear))
        elif GLUE in drops:
            self._emit(Glued(v.id, v.label, gear, 0, resisted=True))
        return replace(v, hazards=hazards, gear=gear, glued=glued)

    def _dropped_exists(self, template_id: str) -> bool:
        return any(t.id == template_id for t in self.state.dropped)

    def _on_spin(self, d: Spin) -> None:
        low, high = perks.spin_range(self, self._vehicle())
        if not math.isfinite(d.angle_deg) or not low <= d.angle_deg <= high:
            raise IllegalChoice(f"a Spin pivots at most {high:.0f} degrees either way", "Spin, p.24")
        report = perk_more.spin_report(self, self._vehicle(), self.referee.spin(self.state, self._active, d.angle_deg))
        self._apply_report(self._active, report, how="spins", ref="Spin, p.24", requested=d.angle_deg,
                           surfaces=False)
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
        if perks.in_play(self):  # Ghost Riders take part in no Collision (p.101)
            contacts = [c for c in contacts if c.obstacle or perk_sponsors.may_collide(self.state, mover, c.other_id)]
        if movement:
            self._move_hit |= {c.other_id for c in contacts}
        self._windows.append(Window(tuple(Pending(mover, c) for c in contacts), then, movement))
        self._next_collision()

    def _participants(self, p: Pending) -> tuple[Participant, Participant]:
        a = self._vehicle(p.active)
        c = p.contact
        active = _participant(a, c.edge)
        if c.obstacle:
            passive = Participant.of_obstacle(c.other_id, Weight.parse(c.obstacle_weight), c.destructible)
        else:
            passive = _participant(self._vehicle(c.other_id), c.other_edge)
        return perk_combat.participants(self, active, passive)

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
            if not all(self._in_play(p) for p in (active, passive)) or (
                    pending.contact.volatile and passive.id in self.state.removed_obstacles):
                self._pop_first(window)
                continue
            if pending.contact.volatile and not pending.volatile_rolled and not pending.reactions:
                window = self._set_first(window, replace(pending, volatile_rolled=True))
                if self._volatile(pending, passive):
                    return
            for me, other in ((active, passive), (passive, active))[len(pending.reactions):]:
                forced = perk_combat.forced_reaction(self, pending.reactions, me) or \
                    forced_reaction(me, other, pending.contact.orientation)
                if forced is None and self.objective.active and self.scen.always_smashes(self.state, me.id):
                    forced = Reaction.SMASH
                if forced is not None:
                    pending = replace(pending, reactions=(*pending.reactions, forced))
                    window = self._set_first(window, pending)
                    continue
                options: tuple[Reaction, ...] = (Reaction.SMASH, Reaction.EVADE)
                if self._may_piledrive(window.movement, me, other):
                    options = (*options, Reaction.PILEDRIVER)
                options = perk_combat.reaction_options(self, me, other, pending.contact.orientation, options)
                c = pending.contact
                self.prompt = ReactPrompt(
                    self._vehicle(me.id).player, me.id, other.id, self._name(other.id), other.obstacle,
                    c.orientation, me.edge, other.edge, pending.active, options)
                return
            for side, reaction in zip((active, passive), pending.reactions, strict=True):
                if reaction is Reaction.EVADE and not side.obstacle and \
                        perk_more.before_evade(self, self._vehicle(side.id), Go(Point.NEXT_COLLISION)):
                    return
            done = self._pop_first(window)
            self._resolve(done)
            self._wrecks_then(AfterCollision(window.movement, done), in_collision=True)
            return

    def _volatile(self, pending: Pending, obstacle: Participant) -> bool:
        """A collision with a Volatile obstacle: a D6 before reactions; on 4+ it explodes, a Blast attack as an
        exploding wreck of its weight against every vehicle within Medium range, and is removed, so the
        collision does not happen (p.87, p.44). True when it exploded (play goes on from the blast)."""
        (roll,) = self.dice.roll_d6(1)
        explodes = roll >= ramps.VOLATILE_EXPLODES_ON
        name = self._name(obstacle.id)
        self._emit(VolatileRolled(pending.active, self._name(pending.active), obstacle.id, name, roll, explodes))
        if not explodes:
            return False
        targets = self.referee.within_medium(self.state, obstacle.id)
        self.state = replace(self.state, removed_obstacles=self.state.removed_obstacles | {obstacle.id})
        self._emit(ObstacleRemoved(obstacle.id, name))
        self._blast(targets, obstacle.weight, name)
        self._wrecks_then(Go(Point.NEXT_COLLISION))
        return True

    def _may_piledrive(self, movement: bool, me: Participant, other: Participant) -> bool:
        """Piledriver (p.120): in its own Movement Step, against a vehicle of a lighter weight class."""
        return (movement and me.id == self._active and not other.obstacle
                and self._vehicle(me.id).has("Piledriver") and other.weight < me.weight)

    def _after_collision(self, movement: bool, done: Pending) -> None:
        """What the special rules do after a Collision: PIT (p.111), Piledriver (p.120), then Up and Over (p.71)."""
        if len(done.reactions) == 2:
            pit = perk_combat.pit_question(self, done, *self._participants(done), *done.reactions)
            if pit is not None:
                perks.ask(self, pit, Go(Point.NEXT_COLLISION))
                return
        mover = self._vehicle(done.active)
        other_id = done.contact.other_id
        if (done.reactions and done.reactions[0] is Reaction.PILEDRIVER and mover.in_play
                and not done.contact.obstacle and self._vehicle(other_id).in_play):
            target = self._vehicle(other_id)
            self._piledriven = (other_id, target)
            self.prompt = PiledriverPrompt(mover.player, mover.id, other_id, target.pose,
                                           self.referee.short_range_mm())
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
                self._ask_declare(mover.player, mover.id, "Up and Over, p.71",
                                  f"{mover.label}: drive over {self._name(c.other_id)} for the rest of the "
                                  "Movement Step?", ("yes", "no"), UpAndOver(mover.id, c.other_id))
                return
        self._next_collision()

    def _on_up_and_over(self, mover: str, other: str, choice: str) -> None:
        if choice == "yes":
            self._over.add(other)
            self._emit(UpAndOverDeclared(mover, self._name(mover), other, self._name(other)))
        self._next_collision()

    def _on_piledrive(self, d: Piledrive) -> None:
        assert self._piledriven is not None
        target, before = self._piledriven
        if not all(math.isfinite(x) for x in (d.x_mm, d.y_mm, d.heading_deg)):
            raise IllegalChoice("a placement needs finite coordinates and heading", "Piledriver, p.120")
        pose = Pose(d.x_mm, d.y_mm, d.heading_deg % 360.0)
        reason = self.referee.place(self.state, target, pose, before.pose, self._active)
        if reason:
            raise IllegalChoice(f"{self._name(target)} cannot be placed there: {reason}", "Piledriver, p.120")
        self._put(replace(self._vehicle(target), pose=pose))
        self._piledriven = None
        self._emit(Piledriven(target, self._name(target), self._name(self._active), pose))
        self._next_collision()

    def _on_piledrive_declined(self, d: Declare) -> None:
        if d.choice != "no":
            raise IllegalChoice("answer a piledriver prompt with a Piledrive placement or Declare('no')",
                                "Piledriver, p.120")
        self._piledriven = None
        self._next_collision()

    def _on_react(self, d: React) -> None:
        p = self.prompt
        assert isinstance(p, ReactPrompt)
        window = self._windows[-1]
        pending = window.collisions[0]
        active, passive = self._participants(pending)
        me, other = (active, passive) if not pending.reactions else (passive, active)
        if d.reaction not in p.reactions:
            raise IllegalChoice(f"{self._name(me.id)} may not declare a {d.reaction.value} here", "Piledriver, p.120")
        check_reaction(me, other, pending.contact.orientation, d.reaction)
        self._set_first(window, replace(pending, reactions=(*pending.reactions, d.reaction)))
        self._next_collision()

    def _resolve(self, pending: Pending) -> None:
        active, passive = self._participants(pending)
        ra, rp = pending.reactions
        orientation = perk_combat.orientation(self, active, passive, pending.contact.orientation)  # Tombstone
        out = resolve_collision(active, passive, orientation, ra, rp, self.dice)
        out = perk_combat.adjust_outcome(self, active, passive, ra, rp, out)  # Grinderman, Exploding Ram
        self._emit(Collided(
            active.id, self._name(active.id), passive.id, self._name(passive.id), passive.obstacle, out.orientation,
            active.edge, passive.edge if not passive.obstacle else "", ra, rp,
            out.active.attack_rolls, out.passive.attack_rolls, out.active.evade_rolls, out.passive.evade_rolls,
            smash_dice_why(orientation, active, passive) if ra.smashes else "",
            smash_dice_why(orientation, passive, active) if rp.smashes and not passive.obstacle else "",
            out.active.hits_dealt, out.passive.hits_dealt,
            pending.contact.piece, pending.contact.other_piece,
        ))
        downed = self._downers(active, passive, ra, rp)
        for side, who, them in ((out.active, active, passive), (out.passive, passive, active)):
            if not who.obstacle:
                self._collided.add(side.id)
                v = self._vehicle(side.id)
                hazards = max(0, v.hazards - DOWNERS_DISCARD) if side.id in downed else v.hazards + side.hazards_gained
                hit = replace(v, damage=v.damage + side.damage_taken + side.self_damage, hazards=hazards,
                              on_fire=v.on_fire or side.on_fire,
                              crew_penalty=v.crew_penalty + (DOWNERS_CREW if side.id in downed else 0))
                self._put(hit)
                delta = deltas(v, hit)
                other_side = out.passive if side is out.active else out.active
                evaded = sum(1 for r in side.evade_rolls if r == 6)
                self._emit(CollisionDamage(v.id, v.label, self._name(them.id), other_side.hits_dealt,
                                           min(evaded, other_side.hits_dealt), delta["hull_delta"],
                                           delta["hazard_delta"], side.on_fire and not v.on_fire, side.self_damage))
                if side.id in downed:
                    self._emit(Sedated(v.id, v.label))
        if out.removed:
            fresh = sorted(set(out.removed) - self.state.removed_obstacles)
            self.state = replace(self.state, removed_obstacles=self.state.removed_obstacles | set(out.removed))
            for gone in fresh:
                self._emit(ObstacleRemoved(gone, self._name(gone)))
        if not (active.obstacle or passive.obstacle):
            self._uppers(active, passive, ra, rp)
            self._note_slip_away(active, passive, ra, rp, out.orientation)
        perk_combat.after_collision(self, active, passive, ra, rp)  # Bruiser, Slipstream, Pinball
        if self.objective.active:
            lost = {side.id: side.damage_taken + side.self_damage for side in (out.active, out.passive)}
            if not passive.obstacle:
                self._blame(passive.id, active.id, shot=False)
                self._blame(active.id, passive.id, shot=False)
            self.scen.after_collision(self, active.id, passive.id, passive.obstacle, (ra.smashes, rp.smashes), lost)
            self._scenario_check()
        for who in (active, passive):
            if not who.obstacle:
                perk_more.evade_done(self, self._vehicle(who.id))

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
                up = replace(v, gear=min(v.max_gear, v.gear + 1), hazards=v.hazards + UPPERS_HAZARDS)
                self._put(up)
                delta = deltas(v, up)
                self._emit(UppersGearUp(v.id, v.label, up.gear, delta["gear_delta"], delta["hazard_delta"]))

    def _note_slip_away(self, active: Participant, passive: Participant, ra: Reaction, rp: Reaction,
                        orientation: Orientation) -> None:
        """Slip Away (p.66): Evading a Tailgate or T-Bone Smash Attack earns a free activation after this one."""
        if orientation not in (Orientation.TAILGATE, Orientation.T_BONE):
            return
        for me, mine, theirs in ((active, ra, rp), (passive, rp, ra)):
            v = self._vehicle(me.id)
            if mine is Reaction.EVADE and theirs.smashes and v.has("Slip Away") and me.id not in self._slip_away:
                self._slip_away.append(me.id)
                self._emit(SlipAwayEarned(v.id, v.label))

    # ------------------------------------------------------------------ attacks (p.30-33, p.42, p.78-82)

    def _attack_step(self) -> None:
        perks.step(self, PerkStep("start_of_attacks", 0, Go(Point.ATTACKS)))

    def _attacks_now(self) -> None:
        v = self._vehicle()
        self._scenario_step("attack")
        if not v.in_play or (self.referee.distracted(self.state, v.id) and not perks.ignores_distraction(self, v)) or (
                self.objective.active and self.scen.distracted(self.state, v.id)):
            if v.in_play:
                self._emit(Distracted(v.id, v.label))
            self._end_of_attacks()
            return
        if not weapons_active(v, self.options.course):
            self._emit(WeaponsInactive(v.id, v.label))
            self._end_of_attacks()
            return
        self.prompt = self._attacks_prompt(v)

    def _end_of_attacks(self) -> None:
        perks.step(self, PerkStep("end_of_attacks", 0, Go(Point.WIPEOUT_STEP)))

    def _attacks_prompt(self, v: VehicleState) -> AttacksPrompt:
        """Every weapon with ammo and its targets in arc and range now (p.28-31, p.81), Handguns included; every
        dropped weapon with the edges of its Arc of Fire (p.78)."""
        weapons = []
        for mount in [*range(len(v.weapons)), -1]:
            key, weapon = v.weapon(mount)
            if weapon.dropped or (weapon.attack_dice == 0 and weapon.dice_by_range is None):
                continue
            ammo = v.weapons[mount].ammo if mount >= 0 else None
            if ammo == 0:
                continue
            weapons.append(WeaponChoice(mount, key, weapon.name, ammo, weapon.has_rule("Blitz"),
                                        weapon.has_rule("Splash")))
        drops = []
        for mount, m in enumerate(v.weapons):
            key, weapon = v.weapon(mount)
            if weapon.dropped and weapon.template is not None and m.ammo != 0:
                drops.append(DropChoice(mount, key, weapon.name, DROP_EDGES.get(m.facing, ()), m.ammo))
        ahead = Lookahead(self.referee, self.state,
                          allowed=(lambda a, t: perk_sponsors.may_shoot(self.state, a, t)) if perks.in_play(self)
                          else None)
        if self.objective.active:
            ghosts = perks.in_play(self)  # Ghost Riders in a scenario too (p.101)
            vehicles = {u.id for u in self.state.vehicles} if ghosts else set()
            ahead = Lookahead(self.referee, self.state, tuple(t.id for t in self.scen.shootable(self.state, v.id)),
                              lambda a, t: not self.scen.shot_blocked(self.state, a, t) and (
                                  not ghosts or t not in vehicles or perk_sponsors.may_shoot(self.state, a, t)))
        return AttacksPrompt(v.player, v.id, max_attacks(v.crew_now), tuple(weapons), tuple(drops),
                             v.has("Bombs Away"), ahead)

    def _on_attacks(self, d: DeclareAttacks) -> None:
        v = self._vehicle()
        perk_more.check_attacks(self, d)  # Rapid Fire (p.109)
        self._check_attacks(v, d.attacks, d.drops)
        if not d.attacks and not d.drops:
            self._emit(HeldFire(v.id, v.label))
        groups = self._attack_groups(v, d.attacks)
        self._drop_from(0, tuple(d.drops), groups)

    def _shoot_from(self, index: int, groups: tuple[tuple[str, tuple[tuple[Attack, bool], ...]], ...]) -> None:
        if index == len(groups):
            self._end_of_attacks()
            return
        target, entries = groups[index]
        if not self.state.scenario.has_token(target) and \
                perk_more.before_evade(self, self._vehicle(target), ShootFrom(index, groups)):  # Evasive, Sympathy
            return  # (a token shot at, a rocket turret p.146, has no perks and Evades in _shoot_token)
        self._shoot(target, entries)
        back = perk_more.return_fire_question(self)  # Return Fire (p.109)
        if back is not None:
            perks.ask(self, back, WrecksThen(ShootFrom(index + 1, groups)))
            return
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
            if weapon.has_rule("Splash") and not self.state.scenario.has_token(a.target):
                for victim in self.referee.splash(self.state, v.id, a.mount, a.target)[1:]:
                    by_target.setdefault(victim, []).append((Attack(a.mount, victim), False))
        return tuple((target, tuple(entries)) for target, entries in by_target.items())

    def _shot(self, attacker_id: str, mount: int, target: str) -> Shot | None:
        """The referee's shot of ``mount`` at ``target`` (None if out of range or arc, p.28-30, or if the
        scenario forbids it)."""
        if perks.in_play(self) and target in {u.id for u in self.state.vehicles} and \
                not perk_sponsors.may_shoot(self.state, attacker_id, target):
            return None  # a Ghost Rider (p.101)
        if self.objective.active:
            if self.state.scenario.has_token(target) and target not in {
                    t.id for t in self.scen.shootable(self.state, attacker_id)}:
                return None
            if self.scen.shot_blocked(self.state, attacker_id, target):
                return None
        return find_shot(self.referee, self.state, attacker_id, mount, target)

    def _check_attacks(self, v: VehicleState, attacks: Sequence[Attack], drops: Sequence[Drop] = ()) -> None:
        bombs_away = v.has("Bombs Away")
        if len(attacks) + (0 if bombs_away else len(drops)) > max_attacks(v.crew_now):
            raise IllegalChoice(f"{v.label} may attack {v.crew_now} times", "Number of Attacks, p.31")
        mounts = [a.mount for a in attacks if a.mount >= 0] + [dr.mount for dr in drops]
        for m in set(mounts):
            if m >= len(v.weapons):
                raise IllegalChoice(f"{v.label} has no weapon {m}")
            _, weapon = v.weapon(m)
            uses = mounts.count(m)
            if uses > 1 and not weapon.has_rule("Blitz"):
                raise IllegalChoice("each weapon attacks once per Attack Step", "Number of Attacks, p.31")
            ammo = v.weapons[m].ammo
            if ammo is not None and uses > ammo:
                raise IllegalChoice(f"{weapon.name} has {ammo} Ammo Tokens", "Ammo, Blitz, p.81")
        for a in attacks:
            if a.mount < -1:
                raise IllegalChoice(f"{v.label} has no weapon {a.mount}")
            _, weapon = v.weapon(a.mount)
            if weapon.dropped:
                raise IllegalChoice(f"{weapon.name} is dropped, not fired: declare a Drop", "Dropped Weapons, p.78")
            if weapon.attack_dice == 0 and weapon.dice_by_range is None:
                raise IllegalChoice(f"{weapon.name} is not supported by the engine yet", f"p.{weapon.page}")
            if self._shot(v.id, a.mount, a.target) is None:
                raise IllegalChoice(f"{self._name(a.target)} is not in range and arc of {weapon.name}",
                                    "Declare Targets, p.30")
        if len(drops) > 1 and not bombs_away and not perks.many_drops(self, v):
            raise IllegalChoice("only one dropped weapon attacks in an Attack Step", "Dropped Weapons, p.78")
        for dr in drops:
            self._check_drop(v, dr)

    def _check_drop(self, v: VehicleState, dr: Drop) -> None:
        """A dropped weapon with a template, against an edge in its Arc of Fire (p.78; GEOMETRY.md 6)."""
        if not 0 <= dr.mount < len(v.weapons):
            raise IllegalChoice(f"{v.label} has no weapon {dr.mount}")
        _, weapon = v.weapon(dr.mount)
        if not weapon.dropped:
            raise IllegalChoice(f"{weapon.name} is not a dropped weapon", "Dropped Weapons, p.78")
        if weapon.template is None:
            raise IllegalChoice(f"{weapon.name} places a model, not supported by the engine yet", f"p.{weapon.page}")
        facing = v.weapons[dr.mount].facing
        if dr.edge not in DROP_EDGES.get(facing, ()):
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
        if self.state.scenario.has_token(target):
            self._shoot_token(self.state.scenario.token(target), entries)
            return
        t = self._vehicle(target)
        if not v.in_play or not t.in_play:
            return
        rolled: list[tuple[str, Weapon, tuple[int, ...]]] = []
        bonus: list[int] = []
        cover = False
        names = []
        reroll = self.objective.active and self.scen.reroll_misses(self.state, self.referee, v.id, target)
        for a, spends in entries:
            key, weapon = v.weapon(a.mount)
            shot = self._shot(v.id, a.mount, target) or Shot(target, False, weapon.range)
            cover = cover or shot.cover
            extra = perk_combat.shot_dice(self, v, a.mount, weapon)  # Fully Loaded, Angel of Death (p.108-109)
            rolls = self.dice.roll_d6(attack_dice(weapon, shot.range_band) + extra)
            if reroll:
                rolls = self._reroll_misses(v.label, weapon.name, rolls)
            rolled.append((key, weapon, rolls))
            bonus.append(perk_combat.hit_bonus(self, v, a.mount, weapon, shot.range_band))
            perk_more.fired(self, v, a.mount)
            names.append(weapon.name)
            if spends:
                v = self._spend_ammo(v, a.mount)
        self._put(v)
        if self.objective.active:
            self._blame(target, v.id, shot=True)
        evades = self.dice.roll_d6(evade_dice(t.gear) + perk_more.evade_extra_dice(self, t))
        result = resolve_against(rolled, evades, cover=cover, hit_bonus=bonus,
                                 critical=perk_combat.critical_hits(self, v),
                                 evade_bonus=perk_combat.evade_bonus(self, t) + perk_sponsors.tombstone_evade(self, t, v))
        result = perk_combat.after_shots(self, v, t, result)  # Feel No Pain (p.106)
        t = self._vehicle(target)
        hit = self._hit(t, result.effects)
        delta = deltas(t, hit)
        self._emit(Attacked(v.id, v.label, t.id, t.label, tuple(names), result.attack_rolls, result.evade_rolls,
                            result.total_hits, result.effects.damage, cover, delta["hull_delta"],
                            delta["hazard_delta"], hit.on_fire and not t.on_fire))
        perk_more.evade_done(self, t)  # what Evasive and Sympathy chose lasts for this Evade only

    def _reroll_misses(self, label: str, weapon: str, rolls: tuple[int, ...]) -> tuple[int, ...]:
        """Close Range (p.151): the dice that missed are rolled again."""
        misses = [i for i, r in enumerate(rolls) if count_hits((r,)) == 0]
        if not misses:
            return rolls
        again = self.dice.roll_d6(len(misses))
        out = list(rolls)
        for i, r in zip(misses, again, strict=True):
            out[i] = r
        self._emit(ScenarioNotice(f"{label} re-rolls {plural(len(misses), f'missed {weapon} die', f'missed {weapon} dice')}: {list(again)}",
                                  self.objective.spec.ref("Close Range"), roll=again))
        return tuple(out)

    def _shoot_token(self, token: Token, entries: Sequence[tuple[Attack, bool]]) -> None:
        """The active vehicle's attacks on a token that may be shot at (turrets, p.130, p.146): hits, Evade in
        the Gear the scenario gives, damage; at 0 Hull Points it is destroyed (the scenario says what follows)."""
        v = self._vehicle()
        if not v.in_play:
            return
        rolled: list[tuple[str, Weapon, tuple[int, ...]]] = []
        cover = False
        names = []
        for a, spends in entries:
            key, weapon = v.weapon(a.mount)
            shot = self._shot(v.id, a.mount, token.id) or Shot(token.id, False, weapon.range)
            cover = cover or shot.cover
            rolled.append((key, weapon, self.dice.roll_d6(attack_dice(weapon, shot.range_band))))
            names.append(weapon.name)
            if spends:
                v = self._spend_ammo(v, a.mount)
        self._put(v)
        gear = self.scen.token_evade_gear(token)
        result = resolve_against(rolled, self.dice.roll_d6(evade_dice(gear)) if gear else (), cover=cover)
        damage = min(result.effects.damage, token.hull_points)
        hit = replace(token, damage=token.damage + damage)
        destroyed = hit.hull_points <= 0
        self.state = replace(self.state, scenario=self.state.scenario.with_token(hit))
        self._emit(TokenShot(v.id, v.label, token.id, token.name, tuple(names),
                             tuple(r for group in result.attack_rolls for r in group),
                             result.evade_rolls, result.total_hits, damage, destroyed, self.objective.spec.ref()))
        if destroyed:
            self.scen.token_destroyed(self, hit, v.id)
        self._scenario_check()

    def _hit(self, t: VehicleState, fx: HitEffects) -> VehicleState:
        hit = replace(t, damage=t.damage + fx.damage, hazards=t.hazards + fx.hazards, on_fire=t.on_fire or fx.on_fire)
        self._put(hit)
        return hit

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
        self._emit(WeaponDropped(v.id, v.label, weapon.name, template.id, dr.edge))
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
            if self.objective.active:
                self._blame(v.id, template.owner, shot=False)
            weapon = template.rules
            rolls = self.dice.roll_d6(weapon.attack_dice)
            result = resolve_against([(template.weapon, weapon, rolls)], self.dice.roll_d6(evade_dice(v.gear)))
            self.state = self.state.without_dropped(tid)
            hit = self._hit(v, result.effects)
            delta = deltas(v, hit)
            self._emit(DropAttacked(weapon.name, tid, v.id, v.label, result.attack_rolls, result.evade_rolls,
                                    result.total_hits, result.effects.damage, delta["hull_delta"],
                                    delta["hazard_delta"], hit.on_fire and not v.on_fire))

    # ------------------------------------------------------------------ wipeouts (p.34-35)

    def _wipeout_step(self) -> None:
        if self.objective.active and self._active:
            self.scen.start_of_wipeout_step(self, self._active)
            self._scenario_check()
            self._wrecks_then(Go(Point.SCENARIO_WIPEOUT))
            return
        self._wipeout_step_main()

    def _wipeout_step_main(self) -> None:
        if not self._active:
            self._end_activation()
            return
        self._scenario_step("wipeout")
        active = self._vehicle()
        candidates = [(v.id, v.player) for v in self.state.vehicles if v.in_play and perks.wipes_out(self, v)]
        self._wipeouts = list(wipeout_order(active.id, candidates, active.player, len(self.state.players)))
        self._next_wipeout()

    def _next_wipeout(self) -> None:
        while self._wipeouts:
            vid = self._wipeouts.pop(0)
            v = self._vehicle(vid)
            if not v.in_play or not perks.wipes_out(self, v):
                continue
            (roll,) = self.dice.roll_d6(1)
            gear = perks.flip_gear(self, v)  # Cattle-Hammer (p.103)
            plan = plan_wipeout(gear, roll, roll_cage=v.has("Roll Cage"),
                                articulated=v.has("Articulated"), ponderous=v.has("Ponderous"))
            self._emit(WipedOut(vid, v.label, roll, gear, plan.flipped or plan.jackknife))
            if plan.flipped:
                self._flip(vid, plan)
            elif plan.jackknife:
                self._jackknife(vid, plan)
            else:
                self._after_flip(vid, plan)
            return
        self._end_of_activation()

    def _end_of_activation(self) -> None:
        """The perks of the end of an activation (Showing Off p.92, Dynamo p.93), then its end."""
        perks.step(self, PerkStep("end_of_activation", 0, Go(Point.END_ACTIVATION)))

    def _ask_lose_control(self, vid: str, jackknife: bool) -> None:
        v = self._vehicle(vid)
        self._wiped = vid
        self.prompt = LoseControlPrompt(self._next_opponent(v.player), vid, v.pose.heading_deg,
                                        jackknife)

    def _jackknife(self, vid: str, plan: WipeoutPlan) -> None:
        """A Jackknife instead of a Flip (p.119): the player to the left swings the trailer about the hitch (a
        Collision Window), then pivots the vehicle about its centre (a Collision Window), then the Crunch, 4D6
        against itself that cannot be Evaded. A vehicle without a trailer piece skips the swing."""
        self._emit(Jackknifed(vid, self._name(vid)))
        self._after_lose = Crunch(vid, plan)
        v = self._vehicle(vid)
        if not v.has_trailer:
            self._ask_lose_control(vid, jackknife=True)
            return
        self._wiped = vid
        self.prompt = SwingTrailerPrompt(next_player(v.player, len(self.state.players)), vid, v.bend_deg,
                                         MAX_BEND_DEG)

    def _on_swing(self, d: SwingTrailer) -> None:
        p = self.prompt
        assert isinstance(p, SwingTrailerPrompt)
        if not math.isfinite(d.bend_deg) or abs(d.bend_deg) > p.max_deg + 1e-9:
            raise IllegalChoice(f"the trailer swings to at most {p.max_deg:.0f} degrees either way of the cab "
                                "(further it would overlap the cab)", "Jackknife, p.119")
        vid = p.vehicle_id
        report = self.referee.swing(self.state, vid, d.bend_deg)
        self._apply_report(vid, report, how="swings its trailer", ref="Jackknife: Swing Trailer, p.119",
                           requested=d.bend_deg - p.bend_deg, surfaces=False)
        reached = self._vehicle(vid).bend_deg
        stopped = tuple(self._name(c.other_id) for c in report.contacts) + tuple(
            self._name(i) for i in report.stopped_by)
        self._emit(TrailerSwung(vid, self._name(vid), self._player(p.player), d.bend_deg, reached, stopped))
        self._window(vid, report, Swung(vid))

    def _after_swing(self, vid: str) -> None:
        """Pivot Vehicle: the Jackknife's second step (p.119), unless the swing wrecked it."""
        if not self._vehicle(vid).in_play:
            self._resume(self._after_lose)
            return
        self._ask_lose_control(vid, jackknife=True)

    def _crunch(self, vid: str, plan: WipeoutPlan) -> None:
        w = self._vehicle(vid)
        if w.in_play:
            rolls = self.dice.roll_d6(JACKKNIFE_CRUNCH_DICE)
            hits = count_hits(rolls)
            crunched = replace(w, damage=w.damage + hits)
            self._put(crunched)
            self._emit(Crunched(vid, w.label, rolls, deltas(w, crunched)["hull_delta"]))
        self._after_lose = Go(Point.NEXT_WIPEOUT)
        self._wrecks_then(AfterFlip(vid, plan))

    def _flip(self, vid: str, plan: WipeoutPlan) -> None:
        """A Flip: 2 hits that cannot be Evaded (a wreck skids to a halt instead), then the forced move (p.35)."""
        v = self._vehicle(vid)
        flipped = replace(v, damage=v.damage + plan.flip_hits)
        self._put(flipped)
        self._emit(Flipped(vid, v.label, deltas(v, flipped)["hull_delta"]))
        self._wrecks_then(FlipMove(vid, plan))

    def _flip_move(self, vid: str, plan: WipeoutPlan) -> None:
        """The Flip's forced Medium Straight, ignoring obstructions, and its Collision Window (p.35, p.39)."""
        v = self._vehicle(vid)
        if not v.in_play:
            self._next_wipeout()
            return
        choice = perk_more.flip_question(self, v)  # Rocket Thrusters (p.114), Barrel Roll (p.106)
        if choice is not None:
            perks.ask(self, choice, FlipMove(vid, plan))
            return
        report, template = perk_more.flip_move(self, v)
        self._apply_report(vid, report, how="flips over", ref="Flip, p.35", template=template,
                           surfaces=False)
        self._window(vid, report, AfterFlip(vid, plan))

    def _after_flip(self, vid: str, plan: WipeoutPlan) -> None:
        """Reset, then Lose Control (p.35)."""
        v = self._vehicle(vid)
        if not v.in_play:
            self._next_wipeout()
            return
        reset = replace(v, gear=1, hazards=0)
        self._put(reset)
        delta = deltas(v, reset)
        self._emit(WipeoutReset(vid, v.label, delta["hazard_delta"], delta["gear_delta"]))
        if plan.lose_control:
            self._ask_lose_control(vid, jackknife=False)
            return
        self._next_wipeout()

    def _on_lose_control(self, d: LoseControl) -> None:
        p = self.prompt
        assert isinstance(p, LoseControlPrompt)
        if not math.isfinite(d.heading_deg):
            raise IllegalChoice("a facing must be a number of degrees", "Lose Control, p.35")
        vid = self._wiped
        report = self.referee.pivot(self.state, vid, d.heading_deg)
        jackknife = isinstance(self._after_lose, Crunch)
        requested = (d.heading_deg - self._vehicle(vid).pose.heading_deg + 180.0) % 360.0 - 180.0
        self._apply_report(vid, report, how="is turned",
                           ref="Jackknife, p.119" if jackknife else "Lose Control, p.35", requested=requested,
                           surfaces=False)
        stopped = tuple(self._name(c.other_id) for c in report.contacts) + tuple(
            self._name(i) for i in report.stopped_by)
        self._emit(LostControl(vid, self._name(vid), self._player(p.player), d.heading_deg % 360.0,
                               report.pose.heading_deg, stopped, jackknife))
        self._window(vid, report, self._after_lose)

    def _end_activation(self) -> None:
        if self._active and self._scenario_ask("activation_end", Go(Point.END_ACTIVATION)):
            return
        if self._pass_pole_then(Go(Point.END_ACTIVATION)):
            return
        ended = self._active
        if self._active and not self._free:
            self.state = self.state.with_round(after_activation(self.state.round, self._active))
        self._active = ""
        self._free = False
        if self.objective.active and ended:
            self.state = replace(self.state, scenario=self.state.scenario.with_note("active", ""))
            self._undrive(ended)
            follow = self.scen.after_activation(self, ended)
            self._scenario_check()
            if follow is not None:
                self._drive(*follow)
                return
        if not self._offer_slip_away():
            self._next_opportunity()

    # ------------------------------------------------------------------ scenario rules (p.122-175)

    def _next_opponent(self, player: int) -> int:
        """The next player clockwise; in Team Games the next who is not a team-mate (p.123)."""
        if self.state.sides and 0 <= player < len(self.state.players):
            return self.state.next_opponent(player)
        return next_player(player, len(self.state.players)) if 0 <= player < len(self.state.players) else 0

    def _scenario_ask(self, point: AskPoint, then: Resume) -> bool:
        """Ask the next choice the scenario owes at ``point``; True if a prompt is now waiting."""
        if not self.objective.active or self.state.winner is not None:
            return False
        ask = self.scen.ask(self, point)
        if ask is None:
            return False
        self._ask_declare(ask.player, ask.vehicle_id, ask.rule, ask.question, ask.choices, ScenarioAsk(ask, then))
        return True

    def _scenario_check(self) -> None:
        """The scenario's end now (a vehicle carrying two flags, 3 Victory Points...): the game stops at once."""
        if not self.objective.active or self.state.winner is not None:
            return
        verdict = self.scen.verdict(self.state, False)
        if verdict is not None:
            if verdict.winner is not None:
                self.state = replace(self.state, winner=verdict.winner)
            raise _GameOver(f"{verdict.reason} ({verdict.ref})" if verdict.ref else verdict.reason, verdict.ref,
                            verdict.winner is None)

    def _scenario_end(self, verdict: Verdict) -> None:
        """End the game as the scenario says (between activations)."""
        if verdict.winner is not None:
            self.state = replace(self.state, winner=verdict.winner)
        self._windows = []
        self._wipeouts = []
        self._active = ""
        self._game_over(f"{verdict.reason} ({verdict.ref})" if verdict.ref else verdict.reason, verdict.ref)

    def _scenario_phase_start(self) -> bool:
        """Once per Gear Phase: the scenario's start of round and phase (p.132, p.138, p.148), vehicles to
        place by their spawn point, then its choices; True if a prompt is now waiting."""
        if not self.objective.active or self.state.winner is not None:
            return False
        stamp = f"{self.state.round.round_no}.{self.state.round.gear_phase}"
        if self.state.scenario.note("phase_started") != stamp:
            self.state = replace(self.state, scenario=self.state.scenario.with_note("phase_started", stamp))
            if self.state.round.gear_phase == 1:
                self.scen.start_of_round(self)
            self.scen.start_of_phase(self)
            verdict = self.scen.verdict(self.state, False)
            if verdict is not None:
                self._scenario_end(verdict)
                return True
        if any(self._waiting(p) for p in range(len(self.state.players))):
            self._deploy_turn = self.state.round.pole
            self._next_deploy()
            return True
        return self._scenario_ask("phase_start", Go(Point.NEXT_OPPORTUNITY))

    def _scenario_step(self, name: str) -> None:
        """Note which step of the activation is under way (rules used once per step: Ramshackle p.135)."""
        if self.objective.active:
            scen = self.state.scenario
            self.state = replace(self.state, scenario=scen.with_note("step", f"{scen.note('activation')}:{name}"))

    def _blame(self, target: str, source: str, *, shot: bool) -> None:
        """Remember who last damaged ``target`` (kills p.144, p.151; BOOM! p.151)."""
        if target == source or not source:
            return
        try:
            src = self.state.vehicle(source)
        except KeyError:
            return
        scen = self.state.scenario.with_note(f"hit:{target}", source).with_note(f"hitshot:{target}",
                                                                              "1" if shot else "0")
        self.state = replace(self.state, scenario=scen.with_note(f"hitby:{target}", src.player))

    def _drive(self, vehicle_id: str, player: int) -> None:
        """A free activation of ``vehicle_id`` driven by ``player`` (an Enraged creature p.144, Truckasaurus
        p.152): its prompts go to ``player`` until it ends."""
        v = self._vehicle(vehicle_id)
        if not v.in_play:
            self._next_opportunity()
            return
        scen = self.state.scenario.with_note(f"driver:{vehicle_id}", v.player)
        self.state = replace(self.state.with_vehicle(replace(v, player=player)), scenario=scen)
        self.scen.driven(self, vehicle_id, player)
        self._active = vehicle_id
        self._free = True
        self._emit(Activated(vehicle_id, self._name(vehicle_id), self.state.round.gear_phase, free=True))
        self._begin_activation()

    def _undrive(self, vehicle_id: str) -> None:
        """Give a driven vehicle back to nobody after its activation."""
        owner = self.state.scenario.note(f"driver:{vehicle_id}")
        if not owner:
            return
        self.state = replace(self.state, scenario=self.state.scenario.with_note(f"driver:{vehicle_id}", ""))
        v = self._vehicle(vehicle_id)
        self._put(replace(v, player=int(owner)))
        self.scen.undriven(self, vehicle_id)

    def _offer_slip_away(self) -> bool:
        """A free activation for a vehicle that Slipped Away during the one just ended (p.66); True if asked."""
        while self._slip_away and self.state.winner is None:
            vid = self._slip_away.pop(0)
            v = self._vehicle(vid)
            if v.in_play:
                self._ask_declare(v.player, v.id, "Slip Away, p.66", f"{v.label}: take a free activation now?",
                                  ("yes", "no"), SlipAway(vid))
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
        self._emit(Activated(vid, self._name(vid), self.state.round.gear_phase, free=True))
        self._begin_activation()

    # ------------------------------------------------------------------ wrecks (p.43-44)

    def _wrecks_then(self, then: Resume, *, in_collision: bool = False) -> None:
        """Wreck, one at a time, every vehicle in play at zero Hull Points (p.43), then go on with ``then``.

        ``in_collision``: they lost their last Hull Point in a Collision (Twisted Metal, p.44).
        """
        for v in self.state.vehicles:
            if v.in_play and v.damage >= v.hull and v.id not in self._wrecking and not (
                    self.objective.active and self.scen.cannot_wreck(self.state, v.id)):
                self._wreck(v.id, in_collision, WrecksThen(then, in_collision))
                return
        self._resume(then)

    def _wreck(self, vid: str, in_collision: bool, then: Resume) -> None:
        """Skid to a Halt: a forced Short Straight forward and its Collision Window (p.43, p.39)."""
        self._wrecking.add(vid)
        self._collided.discard(vid)
        report = self.referee.forced_move(self.state, vid, SKID_TO_A_HALT, ignore_obstructions=False)
        self._apply_report(vid, report, how="skids to a halt", ref="Skid to a Halt, p.43", template=SKID_TO_A_HALT,
                           surfaces=False, can_win=False)
        self._queue(vid, report.contacts, WreckFinish(vid, in_collision, then))

    def _wreck_finish(self, vid: str, in_collision: bool, then: Resume) -> None:
        """Reset, Explosion check, Get Wrecked (p.43); Twisted Metal removes it (p.44)."""
        v = self._vehicle(vid)
        (rolled,) = self.dice.roll_d6(1)
        roll, weight = perks.explosion(self, v, rolled)  # Powder Keg (p.105)
        always = v.has("Jet Engine") or (self.objective.active and self.scen.always_explodes(self.state, vid))
        plan = plan_wreck(weight, roll, v.ammo_tokens, infinite_ammo=always, in_collision=in_collision)
        status = Status.WRECK if plan.stays_as_wreck else Status.REMOVED
        wreck = replace(v, gear=1, hazards=0, status=status)
        self._put(wreck)
        self._wrecking.discard(vid)
        delta = deltas(v, wreck)
        self._emit(Wrecked(vid, v.label, roll, plan.exploded, plan.stays_as_wreck, delta["hazard_delta"],
                           delta["gear_delta"]))
        if self.options.audience_votes and 0 <= v.player < len(self.state.players):
            self.state = replace(self.state, votes=gain_for_wreck(self.state.votes, v.player))
            self._emit(VotesGained(v.player, self._player(v.player), 1, f"{v.label} was wrecked"))
        if self.objective.active:
            self.scen.on_wreck(self, vid, plan.exploded)
            self._scenario_check()
        if plan.exploded:
            self._explode(vid, weight, then)
        else:
            self._resume(then)

    def _explode(self, vid: str, weight: Weight, then: Resume) -> None:
        self._blast(self.referee.within_medium(self.state, vid), weight, self._name(vid), vid)
        self._wrecks_then(then)

    def _blast(self, targets: Sequence[str], weight: Weight, source_name: str, source: str = "") -> None:
        """An Explosion's dice by ``weight`` against each of ``targets`` still in play, each Evading (p.44);
        ``source``: the exploding vehicle, if one (blamed for the damage in a scenario that counts kills)."""
        for target_id in targets:
            t = self._vehicle(target_id)
            if not t.in_play:
                continue
            rolls = self.dice.roll_d6(explosion_dice(weight))
            hits = sum(1 for r in rolls if r >= 4) + sum(1 for r in rolls if r == 6)
            evades = self.dice.roll_d6(evade_dice(t.gear))
            saved = sum(1 for r in evades if r == 6)
            taken = max(0, hits - saved)
            hit = replace(t, damage=t.damage + taken, hazards=t.hazards + taken)
            self._put(hit)
            if self.objective.active:
                self._blame(t.id, source, shot=False)
            delta = deltas(t, hit)
            self._emit(ExplosionHit(t.id, t.label, source_name, rolls, evades, delta["hull_delta"],
                                    delta["hazard_delta"]))


_GO_TO: dict[Point, Callable[[_Run], None]] = {
    Point.NEXT_OPPORTUNITY: _Run._next_opportunity,
    Point.START_OF_ACTIVATION: _Run._start_of_activation,
    Point.START_MOVEMENT: _Run._start_movement,
    Point.AFTER_NITRO: _Run._after_nitro,
    Point.AFTER_MOVE_WINDOW: _Run._after_move_window,
    Point.AFTER_FINAL_POSITION: _Run._after_final_position,
    Point.END_MOVEMENT_STEP: _Run._end_movement_step,
    Point.NEXT_WIPEOUT: _Run._next_wipeout,
    Point.END_ACTIVATION: _Run._end_activation,
    Point.NEXT_COLLISION: _Run._next_collision,
    Point.CHOOSE_TEMPLATE: _Run._choose_template,
    Point.AFTER_SKID: _Run._after_skid,
    Point.SLIDE: _Run._place_slide,
    Point.ATTACK_STEP: _Run._attack_step,
    Point.ATTACKS: _Run._attacks_now,
    Point.WIPEOUT_STEP: _Run._wipeout_step,
    Point.AFTER_DEPLOY: _Run._after_deployment,
    Point.SCENARIO_WIPEOUT: _Run._wipeout_step_main,
}
"""What each :class:`Point` resumes with (every Point has one: tests/gaslands/test_engine_dispatch.py)."""


# --------------------------------------------------------------------------- questions the prompt needs


_SHARED: dict[int, tuple[PermissionTable, dict[tuple[int, bool, bool, bool, str], tuple[TemplateOption, ...]],
                         dict[tuple[int, bool, bool], dict[str, Manoeuvre]]]] = {}
"""Template options and permitted templates per template set (by identity: the set is kept alive with its
answers), shared by every game on that set (a simulation plays many): caches of pure functions."""


def _shared(permissions: PermissionTable) -> tuple[
        dict[tuple[int, bool, bool, bool, str], tuple[TemplateOption, ...]], dict[tuple[int, bool, bool], dict[str, Manoeuvre]]]:
    hit = _SHARED.get(id(permissions))
    if hit is None or hit[0] is not permissions:
        if len(_SHARED) > 32:
            _SHARED.clear()
        hit = _SHARED[id(permissions)] = (permissions, {}, {})
    return hit[1], hit[2]


def _shared_template_options(permissions: PermissionTable,
                             key: tuple[int, bool, bool, bool, str]) -> tuple[TemplateOption, ...]:
    """:func:`template_options` for ``key`` (gear, Full Throttle, no crew, Articulated, name), worked out once
    per template set."""
    memo = _shared(permissions)[0]
    options = memo.get(key)
    if options is None:
        options = memo[key] = template_options(permissions, *key)
    return options


def _shared_permitted(permissions: PermissionTable, key: tuple[int, bool, bool]) -> dict[str, Manoeuvre]:
    """:func:`permitted_templates` for ``key`` (gear, Full Throttle, no crew), worked out once per template set
    (do not change the dict returned: copy it)."""
    memo = _shared(permissions)[1]
    known = memo.get(key)
    if known is None:
        known = memo[key] = permitted_templates(permissions, key[0], full_throttle=key[1], zero_crew=key[2])
    return known


def template_options(permissions: PermissionTable, gear: int, full_throttle: bool, zero_crew: bool,
                     articulated: bool, name: str) -> tuple[TemplateOption, ...]:
    """Every movement template with how it counts in ``gear`` (p.17-18, p.38, p.40), the Hazard Tokens it
    costs (Articulated p.118) and why a refused one is refused; ``name`` is the vehicle's, for the reason."""
    options = []
    for t in MOVEMENT_TEMPLATES:
        m = manoeuvre(permissions, t, gear, full_throttle=full_throttle, zero_crew=zero_crew)
        straight = t in STRAIGHTS
        hazards = m.hazard_tokens + (ARTICULATED_TURN_HAZARDS if articulated and not straight else 0)
        reason, page = "", ""
        if not m.permitted:
            base = manoeuvre(permissions, t, gear, full_throttle=full_throttle)
            reason = (f"{name} has no Crew left: only Hazardous templates" if zero_crew and base.permitted
                      else f"not permitted in Gear {gear}")
            page = "p.17-18"
        options.append(TemplateOption(t, m, not straight, hazards if m.permitted else 0, reason, page))
    return tuple(options)


DROP_EDGES: dict[str, tuple[Literal["rear", "left", "right"], ...]] = {
    "rear": ("rear",), "side": ("left", "right"), "turret": ("rear", "left", "right")}
"""The edges a dropped weapon of each mount facing may go against (p.78, Arcs of Fire p.29)."""


def deltas(before: VehicleState, after: VehicleState) -> dict[str, int]:
    """How a change moved a vehicle's Hull Points, Hazard Tokens and gear."""
    return {"hull_delta": after.hull_points - before.hull_points, "hazard_delta": after.hazards - before.hazards,
            "gear_delta": after.gear - before.gear}


def summaries(state: GameState) -> tuple[VehicleSummary, ...]:
    """Every vehicle's dashboard."""
    return tuple(VehicleSummary(v.id, v.label, v.player, v.hull_points, v.hazards, v.gear, v.status.value)
                 for v in state.vehicles)


def _spend_words(s: SpendShift, roll: SkidRoll) -> str:
    if s.use is ShiftUse.CANCEL and s.die is not None and 0 <= s.die < len(roll.faces):
        return f"cancel a {roll.faces[s.die].value.title()}"
    return s.use.value.replace("_", " ")





def open_grid_slots(state: GameState, referee: Referee, taken: dict[int, str], player: int) -> tuple[int, ...]:
    """The Starting Grid slots open to ``player`` (p.126): free, in the first rank with room for a waiting
    vehicle of theirs that fits there with a finger's width all round."""
    waiting = state.undeployed(player)
    columns = state.grid_width()
    ranks = ranks_needed(len(state.vehicles), columns)

    def fits(slot: int) -> bool:
        return any(referee.grid_slot(state, v.id, slot) is not None for v in waiting)

    return current_rank_slots(taken, fits, columns, ranks)


SCENARIO_EFFECTS = frozenset({"cannon_facing", "on_my_mark", "truckasaurus_lives", "wheeled_army"})
"""Audience Vote effects a scenario adds (Tank Commander p.151, Truckasaurus p.152)."""


def cost_of(prompt: VotesPrompt, effects: Sequence[VoteEffect]) -> int:
    """What the scenario's vote effects cost, as the prompt lists them."""
    return sum(next((c.cost for c in prompt.choices if c.effect == e), 0) for e in effects)


def spend_cost(effects: Sequence[VoteEffect]) -> int:
    """What the rulebook's vote effects cost (p.89-90)."""
    from simulator.gaslands.audience import cost

    return cost(tuple(effects))


def find_shot(referee: Referee, state: GameState, attacker_id: str, mount: int, target: str) -> Shot | None:
    """The referee's shot of ``mount`` at ``target``, or None if out of range or arc (p.28-30)."""
    return referee.shot(state, attacker_id, mount, target)


def _participant(v: VehicleState, edge: str) -> Participant:
    facing = {"front": "front", "rear": "rear", "side": "side"}.get(edge, "front")
    return Participant(
        v.id, v.gear, v.weight, edge, ram=facing in v.rams, infuriating_jingle=v.has("Infuriating Jingle"),
        on_fire=v.on_fire,
    )


Event = GameEvent
"""Kept for older readers: an event of the log."""

__all__ = [
    "EngineState", "Event", "GameEvent", "Options", "Rules", "Step", "start", "step", "Course", "open_grid_slots",
    "find_shot", "deltas", "summaries",
]
