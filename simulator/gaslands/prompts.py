"""The questions the engine asks, one frozen class per kind, each carrying its legal answers.

A front end, a bot, the game server and a test read what may be chosen from
the prompt itself: every movement template with its permission and, when it
is refused, why and on which page (p.17, p.38, p.84, p.118); whether reversing
is allowed (p.39); the Spin range (p.24); the Slide facings with where each
ends (p.26); the targets in arc and range of each weapon with range band and
Cover (p.28-31, p.42); the Starting Grid slots with where each car would
stand (p.126). Nobody checks a rule again: the prompt says.

Dispatch on the class with ``match`` and ``assert_never`` so a new kind of
prompt is a type error until every consumer handles it::

    match prompt:
        case ActivatePrompt(): ...
        ...
        case _ as unreachable:
            assert_never(unreachable)

Each prompt has ``kind`` (a short name, e.g. ``"template"``, used in saves and
on the wire), ``player`` (who decides, -1 when nobody does) and
``vehicle_id`` (the vehicle it is about, ``""`` if none).

Answers that need the geometry (each weapon's targets with Cover, where an
uncancelled Slide would end) are worked out when first asked for, through the
prompt's :class:`Lookahead`, and kept: a bot that looks at one target pays
for one shot, a window that shows them all pays for all. The lookahead is a
memo of pure questions about the prompt's own state; it takes no part in
equality.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal, TypeAlias

from simulator.errors import IllegalChoice
from simulator.gaslands.audience import VoteChoice, VoteEffect
from simulator.gaslands.collisions import Orientation, Reaction
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.permitted import Manoeuvre
from simulator.gaslands.skid import Driving, SkidOutcome, SkidRoll, SpendShift, resolve_shifts
from simulator.geometry.pose import Pose
from simulator.vocab import Side

if TYPE_CHECKING:
    from simulator.gaslands.referee import MovePlan, Referee
    from simulator.gaslands.state import GameState



class Lookahead:
    """Memoised geometry questions about one state: shots (p.28-30, p.42) and where a move would end (p.25-26).

    The answers are pure functions of the state and the table; asking twice
    gives the same value without asking the referee again.
    """

    def __init__(self, referee: Referee, state: GameState, token_targets: tuple[str, ...] = (),
                 allowed: Callable[[str, str], bool] | None = None) -> None:
        """``token_targets``: a scenario's tokens that may be shot at too (turrets, p.130); ``allowed``: the
        scenario's say on whether an attacker may shoot a target at all (toxic clouds, p.146)."""
        self._referee = referee
        self._state = state
        self._token_targets = token_targets
        self._allowed = allowed
        self._shots: dict[tuple[str, int, str], Target | None] = {}
        self._all: dict[tuple[str, int], tuple[Target, ...]] = {}
        self._endings: dict[tuple[str, MovePlan], Ending] = {}

    def target(self, attacker: str, mount: int, vehicle_id: str) -> Target | None:
        """``vehicle_id`` as a target of ``attacker``'s weapon ``mount`` (None: out of arc or range)."""
        key = (attacker, mount, vehicle_id)
        if key not in self._shots:
            if self._allowed is not None and not self._allowed(attacker, vehicle_id):
                self._shots[key] = None
                return None
            if self._state.scenario.has_token(vehicle_id) and vehicle_id not in self._token_targets:
                self._shots[key] = None
                return None
            shot = self._referee.shot(self._state, attacker, mount, vehicle_id)
            self._shots[key] = None if shot is None else Target(shot.target, shot.range_band, shot.cover)
        return self._shots[key]

    def targets(self, attacker: str, mount: int) -> tuple[Target, ...]:
        """Every target of ``attacker``'s weapon ``mount`` now."""
        key = (attacker, mount)
        if key not in self._all:
            ids = [v.id for v in self._state.vehicles if v.in_play and v.id != attacker] + list(self._token_targets)
            found = (self.target(attacker, mount, i) for i in ids)
            self._all[key] = tuple(t for t in found if t is not None)
        return self._all[key]

    def ending(self, vehicle_id: str, plan: MovePlan) -> Ending:
        """Where ``plan`` would end for ``vehicle_id`` now, and what it would meet."""
        key = (vehicle_id, plan)
        if key not in self._endings:
            report = self._referee.move(self._state, vehicle_id, plan)
            meets = tuple(self._name(c.other_id) for c in report.contacts)
            self._endings[key] = Ending(report.pose, report.interrupted, meets, plan.slide_facing)
        return self._endings[key]

    def _name(self, piece_id: str) -> str:
        try:
            return self._state.vehicle(piece_id).label
        except KeyError:
            return self._referee.name_of(piece_id)


@dataclass(frozen=True)
class ActivatePrompt:
    """Choose which qualifying vehicle to activate in this Gear Phase (p.19)."""

    kind: ClassVar[str] = "activate"
    player: int
    vehicles: tuple[str, ...]
    round_no: int
    gear_phase: int
    vehicle_id: ClassVar[str] = ""

    @property
    def options(self) -> tuple[str, ...]:
        """The vehicles that may activate."""
        return self.vehicles


@dataclass(frozen=True)
class TemplateOption:
    """One movement template as the active vehicle may (or may not) use it now.

    ``manoeuvre`` is how it counts in the current gear (Trivial, permitted,
    Hazardous, or not permitted, p.17-18, p.38, p.40); ``reason`` and ``page``
    say why a refused template is refused; ``hazards`` are the Hazard Tokens
    choosing it gains (Hazardous p.38, Articulated p.118); ``turns``: it has
    a left and a right version (everything but the Straights).
    """

    template: str
    manoeuvre: Manoeuvre
    turns: bool
    hazards: int = 0
    reason: str = ""
    page: str = ""

    @property
    def permitted(self) -> bool:
        """Whether it may be chosen."""
        return self.manoeuvre.permitted


@dataclass(frozen=True)
class TemplatePrompt:
    """Select and place a movement template (p.22, p.38-39).

    ``options`` lists every template of the set with its permission;
    ``touch_it_use_it``: another player chooses because a refused template
    was touched (p.38), and may choose only a permitted one.
    """

    kind: ClassVar[str] = "template"
    player: int
    vehicle_id: str
    templates: tuple[TemplateOption, ...]
    reverse_allowed: bool
    reverse_reason: str = ""
    touch_it_use_it: bool = False

    @property
    def options(self) -> tuple[str, ...]:
        """The permitted templates' names."""
        return tuple(t.template for t in self.templates if t.permitted)

    def option(self, template: str) -> TemplateOption | None:
        """The entry for ``template`` (None if the set has no such template)."""
        return next((t for t in self.templates if t.template == template), None)


@dataclass(frozen=True)
class SkidPrompt:
    """Roll 0 to Handling Skid Dice at once (p.22); a Trivial manoeuvre adds a free Shift (p.40)."""

    kind: ClassVar[str] = "skid"
    player: int
    vehicle_id: str
    max_dice: int
    free_shifts: int = 0

    @property
    def options(self) -> tuple[int, ...]:
        """Every legal number of dice."""
        return tuple(range(self.max_dice + 1))


@dataclass(frozen=True)
class PushItPrompt:
    """Keep the Skid Dice, or reroll some for a Hazard Token (Push It, p.40)."""

    kind: ClassVar[str] = "push_it"
    player: int
    vehicle_id: str
    roll: SkidRoll
    hazards: int

    @property
    def faces(self) -> tuple[SkidFace, ...]:
        """The dice on the table, in order."""
        return self.roll.faces

    @property
    def options(self) -> tuple[str, ...]:
        """The faces' names."""
        return tuple(f.value for f in self.roll.faces)


@dataclass(frozen=True)
class Ending:
    """Where a move would end: ``pose`` (its Final Position), ``interrupted``, and what it meets."""

    pose: Pose
    interrupted: bool = False
    meets: tuple[str, ...] = ()
    side: Side | None = None


@dataclass(frozen=True)
class ShiftsPrompt:
    """Spend the Shift results (p.23): cancel Hazard, Spin or Slide dice, change gear, shed Hazard Tokens.

    ``driving`` is the vehicle's gear and tokens before the dice are applied;
    :meth:`outcome` says what a list of spends gives (or raises why it is
    illegal). ``slide_endings``: where the move ends if a Slide is left
    uncancelled (one per facing off a Straight, p.26); ``plain_ending`` where
    it ends without one.
    """

    kind: ClassVar[str] = "shifts"
    player: int
    vehicle_id: str
    roll: SkidRoll
    driving: Driving
    plans: tuple[MovePlan, ...] = ()
    """The move without a Slide, then with one (each facing off a Straight); empty when no Slide was rolled."""
    lookahead: Lookahead | None = field(default=None, compare=False, repr=False)

    @property
    def plain_ending(self) -> Ending | None:
        """Where the move ends if every Slide is cancelled."""
        if not self.plans or self.lookahead is None:
            return None
        return self.lookahead.ending(self.vehicle_id, self.plans[0])

    @property
    def slide_endings(self) -> tuple[Ending, ...]:
        """Where the move ends with an uncancelled Slide (one per facing off a Straight, p.26)."""
        if self.lookahead is None:
            return ()
        return tuple(self.lookahead.ending(self.vehicle_id, plan) for plan in self.plans[1:])

    @property
    def faces(self) -> tuple[SkidFace, ...]:
        """The dice on the table, in order."""
        return self.roll.faces

    @property
    def shifts(self) -> int:
        """Shift results to spend."""
        return self.roll.shifts

    @property
    def options(self) -> tuple[str, ...]:
        """The faces' names."""
        return tuple(f.value for f in self.roll.faces)

    def outcome(self, spends: tuple[SpendShift, ...]) -> SkidOutcome:
        """What spending ``spends`` in order gives (p.23-24); :class:`IllegalChoice` if it breaks a rule."""
        return resolve_shifts(self.driving, self.roll, spends)

    def allows(self, spends: tuple[SpendShift, ...]) -> bool:
        """Whether ``spends`` is a legal way to spend the Shifts."""
        try:
            self.outcome(spends)
        except IllegalChoice:
            return False
        return True


@dataclass(frozen=True)
class SlideFacingPrompt:
    """Which way the vehicle faces after sliding off a Straight (p.26); ``endings`` shows both;
    ``slide_template``: the straight a Powerslide slides along (p.107), empty for the Slide template."""

    kind: ClassVar[str] = "slide_facing"
    player: int
    vehicle_id: str
    endings: tuple[Ending, ...]
    template: str = ""
    direction: Side | None = None
    reverse: bool = False
    slide_template: str = ""

    @property
    def options(self) -> tuple[Side, ...]:
        """``left`` and ``right``."""
        return ("left", "right")


@dataclass(frozen=True)
class SpinPrompt:
    """Pivot about the centre by any angle from ``min_deg`` to ``max_deg`` (p.24), counter-clockwise positive."""

    kind: ClassVar[str] = "spin"
    player: int
    vehicle_id: str
    min_deg: float = -90.0
    max_deg: float = 90.0
    options: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True)
class ReactPrompt:
    """Smash or Evade (or Piledriver) in a Collision (p.53-57, p.120).

    ``vehicle_id`` reacts; ``other_id`` is the other participant
    (``other_obstacle`` for a piece of terrain); ``orientation`` is the
    Collision's type as the active vehicle sees it, with each side's edge.
    """

    kind: ClassVar[str] = "react"
    player: int
    vehicle_id: str
    other_id: str
    other_name: str
    other_obstacle: bool
    orientation: Orientation
    edge: str
    other_edge: str
    active_id: str
    reactions: tuple[Reaction, ...]

    @property
    def options(self) -> tuple[Reaction, ...]:
        """The reactions allowed."""
        return self.reactions


@dataclass(frozen=True)
class Target:
    """A target of one weapon: in arc and range now, its range band and whether it has Cover (p.28-30, p.42)."""

    vehicle_id: str
    range_band: str
    cover: bool


@dataclass(frozen=True)
class WeaponChoice:
    """A weapon that may attack now (``mount`` -1 is a Handgun, p.31); its targets come from
    :meth:`AttacksPrompt.targets`."""

    mount: int
    weapon: str
    name: str
    ammo: int | None = None
    blitz: bool = False
    splash: bool = False


@dataclass(frozen=True)
class DropChoice:
    """A dropped weapon that may be dropped now, and the edges of its Arc of Fire it may go against (p.78)."""

    mount: int
    weapon: str
    name: str
    edges: tuple[Literal["rear", "left", "right"], ...]
    ammo: int | None = None


@dataclass(frozen=True)
class AttacksPrompt:
    """Declare the Attack Step's attacks, up to the Crew Value (p.30-31), and at most one drop (p.78).

    ``max_attacks`` counts drops too unless ``bombs_away`` (p.70).
    """

    kind: ClassVar[str] = "attacks"
    player: int
    vehicle_id: str
    max_attacks: int
    weapons: tuple[WeaponChoice, ...]
    drops: tuple[DropChoice, ...] = ()
    bombs_away: bool = False
    lookahead: Lookahead | None = field(default=None, compare=False, repr=False)
    options: ClassVar[tuple[str, ...]] = ()

    def weapon(self, mount: int) -> WeaponChoice | None:
        """The entry for ``mount`` (None if it cannot attack now)."""
        return next((w for w in self.weapons if w.mount == mount), None)

    def targets(self, mount: int) -> tuple[Target, ...]:
        """Every vehicle weapon ``mount`` may attack now, with range band and Cover (p.28-30, p.42)."""
        if self.weapon(mount) is None or self.lookahead is None:
            return ()
        return self.lookahead.targets(self.vehicle_id, mount)

    def target(self, mount: int, vehicle_id: str) -> Target | None:
        """``vehicle_id`` as a target of weapon ``mount`` (None if it cannot be attacked with it now)."""
        if self.weapon(mount) is None or self.lookahead is None:
            return None
        return self.lookahead.target(self.vehicle_id, mount, vehicle_id)


@dataclass(frozen=True)
class LoseControlPrompt:
    """The next player clockwise sets the wiped-out vehicle's facing (Lose Control p.35; Jackknife p.119).

    ``vehicle_id`` is the vehicle that lost control; ``heading_deg`` its facing now.
    """

    kind: ClassVar[str] = "lose_control"
    player: int
    vehicle_id: str
    heading_deg: float
    jackknife: bool = False
    options: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True)
class PassPolePrompt:
    """Hand Pole Position to another player after passing a gate (p.125)."""

    kind: ClassVar[str] = "pass_pole"
    player: int
    to: tuple[int, ...]
    vehicle_id: ClassVar[str] = ""

    @property
    def options(self) -> tuple[int, ...]:
        """The players it may go to."""
        return self.to


@dataclass(frozen=True)
class VotesPrompt:
    """Spend Audience Votes before activating or passing (p.89); ``effects`` names those affordable now and
    ``choices`` spells out each with its target."""

    kind: ClassVar[str] = "votes"
    player: int
    votes: int
    effects: tuple[str, ...]
    choices: tuple[VoteChoice, ...] = ()
    vehicle_id: ClassVar[str] = ""

    @property
    def options(self) -> tuple[str, ...]:
        """The effects' names."""
        return self.effects


@dataclass(frozen=True)
class SlotPreview:
    """Where a waiting vehicle would stand in a Starting Grid slot (p.126)."""

    vehicle_id: str
    slot: int
    pose: Pose


@dataclass(frozen=True)
class DeployPrompt:
    """Place one of ``vehicles`` in one of ``slots`` of the Starting Grid (p.126), or by the player's spawn
    point (p.130).

    ``previews`` gives, for every waiting vehicle and open slot it fits, its pose there. By a spawn point
    ``columns`` is 0, ``labels`` names each slot (in the order of ``slots``) and ``rule`` the scenario's
    deployment with its page.
    """

    kind: ClassVar[str] = "deploy"
    player: int
    vehicles: tuple[str, ...]
    slots: tuple[int, ...]
    columns: int
    previews: tuple[SlotPreview, ...] = ()
    labels: tuple[str, ...] = ()
    rule: str = ""
    vehicle_id: ClassVar[str] = ""

    @property
    def options(self) -> tuple[int, ...]:
        """The open slots."""
        return self.slots

    @property
    def spawn(self) -> bool:
        """Whether the vehicles go by a spawn point (p.130), not on a Starting Grid."""
        return self.columns == 0

    def label(self, slot: int) -> str:
        """A slot in words."""
        if slot in self.slots and len(self.labels) == len(self.slots):
            return self.labels[self.slots.index(slot)]
        columns = max(1, self.columns)
        return f"Rank {slot // columns + 1}, place {slot % columns + 1}"

    def pose(self, vehicle_id: str, slot: int) -> Pose | None:
        """Where ``vehicle_id`` would stand in ``slot`` (None: it does not fit)."""
        return next((p.pose for p in self.previews if p.vehicle_id == vehicle_id and p.slot == slot), None)


@dataclass(frozen=True)
class DeclarePrompt:
    """Use a special rule that *may* be used, or not: ``choices`` name the answers (Up and Over p.71, Slip
    Away p.66, Tanker Anchor p.120). ``rule`` names it with its page; ``question`` asks in plain words."""

    kind: ClassVar[str] = "declare"
    player: int
    vehicle_id: str
    rule: str
    question: str
    choices: tuple[str, ...]
    perk: str = ""
    """The perk, sponsor rule or upgrade asking (its key, e.g. ``"cover_me"``); empty for a vehicle rule."""
    labels: tuple[str, ...] = ()
    """A label for each choice, in words (``"Pass a token to Red Car"``); empty: the choices are words."""
    plans: tuple[MovePlan, ...] = ()
    """Moves the answers would make, for the window to draw before the answer (Maxximum Drift's Slide along
    each template it may use, p.99); empty: nothing to draw."""
    lookahead: Lookahead | None = field(default=None, compare=False, repr=False)

    @property
    def endings(self) -> tuple[Ending, ...]:
        """Where each of :attr:`plans` would end, in their order."""
        if self.lookahead is None:
            return ()
        return tuple(self.lookahead.ending(self.vehicle_id, plan) for plan in self.plans)

    def label(self, choice: str) -> str:
        """The words for ``choice``."""
        if len(self.labels) == len(self.choices) and choice in self.choices:
            return self.labels[self.choices.index(choice)]
        return choice.replace("_", " ").capitalize()

    @property
    def options(self) -> tuple[str, ...]:
        """The answers."""
        return self.choices


@dataclass(frozen=True)
class PivotPrompt:
    """Pivot about the centre at the start of the activation (Pivot p.69, p.71: no Collision and not left
    touching; Airwolf p.70: up to ``max_deg`` for ``hazards`` Hazard Tokens); 0 for none."""

    kind: ClassVar[str] = "pivot"
    player: int
    vehicle_id: str
    rule: Literal["Pivot", "Airwolf"]
    max_deg: float
    hazards: int = 0
    page: str = ""

    @property
    def options(self) -> tuple[str, ...]:
        """The rule's name."""
        return (self.rule,)


@dataclass(frozen=True)
class PiledriverPrompt:
    """Put ``target`` within ``max_mm`` (Short range) of where it was (``before``), any facing, not touching
    the Piledriver (p.120); or leave it."""

    kind: ClassVar[str] = "piledriver"
    player: int
    vehicle_id: str
    target: str
    before: Pose
    max_mm: float

    @property
    def options(self) -> tuple[str, ...]:
        """The target."""
        return (self.target,)


@dataclass(frozen=True)
class TeleportPrompt:
    """The Experimental Teleporter (p.83-84): ``player`` puts ``vehicle_id`` anywhere within ``max_mm`` (range
    ``band``: Medium, or Long when its Skid Die showed a Hazard and the player to the controller's left places
    it) of where it is (``before``), facing as it does, touching no obstruction or terrain. Answer with
    :class:`~simulator.gaslands.decisions.Teleport`."""

    kind: ClassVar[str] = "teleport"
    player: int
    vehicle_id: str
    before: Pose
    band: str
    max_mm: float
    options: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True)
class SwingTrailerPrompt:
    """A Jackknife's first step (p.119): the player to the left hinges ``vehicle_id``'s trailer about the hitch
    to any bend (its heading minus the cab's, counter-clockwise degrees) within ``max_deg`` either way;
    ``bend_deg`` is where it is now. Answer with :class:`~simulator.gaslands.decisions.SwingTrailer`."""

    kind: ClassVar[str] = "swing_trailer"
    player: int
    vehicle_id: str
    bend_deg: float
    max_deg: float
    options: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True)
class GameOverPrompt:
    """Nothing left to decide: ``winner`` (a player index, or None), why, and the standings (names, first
    first, p.62, p.128)."""

    kind: ClassVar[str] = "game_over"
    winner: int | None
    reason: str
    standings: tuple[str, ...] = ()
    player: ClassVar[int] = -1
    vehicle_id: ClassVar[str] = ""
    options: ClassVar[tuple[str, ...]] = ()

    @property
    def note(self) -> str:
        """The reason (kept for older readers)."""
        return self.reason


Prompt: TypeAlias = (
    ActivatePrompt | TemplatePrompt | SkidPrompt | PushItPrompt | ShiftsPrompt | SlideFacingPrompt | SpinPrompt
    | ReactPrompt | AttacksPrompt | LoseControlPrompt | PassPolePrompt | VotesPrompt | DeployPrompt | DeclarePrompt
    | PivotPrompt | PiledriverPrompt | SwingTrailerPrompt | TeleportPrompt | GameOverPrompt
)
"""Every question the engine can ask."""

PROMPT_KINDS: dict[str, type[Prompt]] = {
    cls.kind: cls
    for cls in (ActivatePrompt, TemplatePrompt, SkidPrompt, PushItPrompt, ShiftsPrompt, SlideFacingPrompt,
                SpinPrompt, ReactPrompt, AttacksPrompt, LoseControlPrompt, PassPolePrompt, VotesPrompt,
                DeployPrompt, DeclarePrompt, PivotPrompt, PiledriverPrompt, SwingTrailerPrompt, TeleportPrompt,
                GameOverPrompt)
}
"""Each prompt class by its ``kind``."""


__all__ = [
    "ActivatePrompt", "AttacksPrompt", "DeclarePrompt", "DeployPrompt", "DropChoice", "Ending", "GameOverPrompt",
    "LoseControlPrompt", "PassPolePrompt", "PiledriverPrompt", "PivotPrompt", "Prompt", "PROMPT_KINDS",
    "PushItPrompt", "ReactPrompt", "ShiftsPrompt", "SkidPrompt", "SlideFacingPrompt", "SlotPreview", "SpinPrompt",
    "SwingTrailerPrompt", "TeleportPrompt",
    "Target", "TemplateOption", "TemplatePrompt", "VotesPrompt", "WeaponChoice", "VoteEffect",
]
