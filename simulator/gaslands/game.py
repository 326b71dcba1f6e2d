"""A game of Gaslands driven by explicit decisions, replayable from a seed and the decision list.

The engine walks the activation sequence (p.19-35, timing p.21, p.30, p.34)
and stops at every choice with a :class:`Prompt`; :meth:`Game.decide` answers
it. Dice come from a :class:`DiceSource`; geometry from a :class:`Referee`.
``Game.replay(seed, decisions, ...)`` rebuilds a game exactly, and
:meth:`Game.undo` is a replay of all but the last decision.

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
Death Race gates in order, Pole Position passing at gates and weapons inactive
until Gate 1 (p.124-128). ``Options.round_limit`` ends a game with no winner
after that many rounds (for bots and simulations).
Not yet: RC Car Bombs and the Sentry Gun (p.79-80: models, not templates),
the Wreck Lobber's Dumper, most vehicle special rules (Bombs Away and the
Improvised Sludge Thrower among them), and weapons' "See special rules"
beyond those above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from simulator.errors import IllegalChoice
from simulator.gaslands.attacks import (
    HitEffects,
    attack_dice,
    evade_dice,
    explosion_dice,
    max_attacks,
    resolve_against,
)
from simulator.gaslands.audience import affordable, gain_at_round_start, gain_for_wreck, spend
from simulator.gaslands.collisions import (
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
    DeclareAttacks,
    Drop,
    LoseControl,
    PassPole,
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
from simulator.gaslands.dice import DiceSource, SeededDice
from simulator.gaslands.permitted import STRAIGHTS, Manoeuvre, PermissionTable, permitted_templates
from simulator.gaslands.race import Course, advance, finished, weapons_active
from simulator.gaslands.referee import Contact, MovePlan, MoveReport, Referee, Shot
from simulator.gaslands.round import RoundState, after_activation, after_pass, next_gear_phase, qualifying
from simulator.gaslands.skid import Driving, SkidRoll, push_it, resolve_shifts, roll_skid_dice
from simulator.gaslands.state import DroppedTemplate, GameState, Status, VehicleState
from simulator.gaslands.tables import Weapon, Weight
from simulator.gaslands.wipeout import WipeoutPlan, next_player, plan_wipeout, wipeout_order, wipes_out
from simulator.gaslands.wrecks import SKID_TO_A_HALT, plan_wreck

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
    ``audience_votes``: the Audience Votes module (p.88-90, off by default).
    """

    touch_it_use_it: bool = True
    pass_pole_each_phase: bool = True
    course: Course = Course()
    round_limit: int | None = None
    audience_votes: bool = False


@dataclass(frozen=True)
class Origin:
    """Where a game came from, for saving it: the scenario file's text and path, and the dice seed."""

    scenario_text: str
    source: str
    seed: int


@dataclass(frozen=True)
class _Pending:
    """A collision waiting for reactions."""

    active: str
    contact: Contact
    reactions: tuple[Reaction, ...] = ()


@dataclass
class _Window:
    """A Collision Window being resolved (p.52): its collisions in order, then where play resumes.

    Windows nest: a vehicle wrecked in a collision skids to a halt and opens
    its own window (p.43) before the outer one goes on.
    """

    collisions: list[_Pending]
    then: Callable[[], None]


class Game:
    """A game in progress. Read :attr:`state`, :attr:`prompt` and :attr:`log`; answer with :meth:`decide`."""

    def __init__(
        self,
        state: GameState,
        dice: DiceSource,
        referee: Referee,
        permissions: PermissionTable,
        options: Options = Options(),
    ) -> None:
        self.state = state
        self.dice = dice
        self.referee = referee
        self.permissions = permissions
        self.options = options
        self.log: list[Event] = []
        self.decisions: list[Decision] = []
        self._initial = state
        self.prompt: Prompt = Prompt("game_over", -1)
        self._active = ""
        self._template: ChooseTemplate | None = None
        self._manoeuvre = Manoeuvre.PERMITTED
        self._skid_allowed = True
        self._roll = SkidRoll()
        self._slide = False
        self._spin = False
        self._interrupted = False
        self._windows: list[_Window] = []
        self._wrecking: set[str] = set()
        self._collided: set[str] = set()
        self._wipeouts: list[str] = []
        self._wiped = ""
        self._pole_pending = False
        self._after_pole: Callable[[], None] = self._next_opportunity
        self.origin: Origin | None = None
        self._votes_offered = False
        if options.audience_votes and not state.votes:
            self.state = replace(state, votes=(0,) * len(state.players))
            self._initial = self.state
        self._next_opportunity()

    # ------------------------------------------------------------------ replay

    @classmethod
    def replay(
        cls,
        seed: int,
        state: GameState,
        decisions: Sequence[Decision],
        referee: Referee,
        permissions: PermissionTable,
        options: Options = Options(),
        origin: Origin | None = None,
    ) -> Game:
        """The game reached from ``state`` by ``decisions`` with dice seeded by ``seed``."""
        game = cls(state, SeededDice(seed), referee, permissions, options)
        game.origin = origin
        for decision in decisions:
            game.decide(decision)
        return game

    def undo(self, seed: int) -> Game:
        """A fresh replay without the last decision (the dice must have been ``SeededDice(seed)``)."""
        return Game.replay(seed, self._initial, self.decisions[:-1], self.referee, self.permissions, self.options,
                           self.origin)

    @property
    def initial_state(self) -> GameState:
        """The state the game started from (what a replay starts from)."""
        return self._initial

    @property
    def skid_roll(self) -> SkidRoll:
        """The Skid Dice on the table in the current Movement Step (for push_it and shifts prompts)."""
        return self._roll

    @property
    def chosen_template(self) -> ChooseTemplate | None:
        """The template selected in the current Movement Step (for the slide_facing prompt)."""
        return self._template

    @property
    def reacting(self) -> tuple[str, str, Contact] | None:
        """For a react prompt: (who reacts, the other participant, the contact as the active vehicle sees it)."""
        if self.prompt.kind != "react" or not self._windows or not self._windows[-1].collisions:
            return None
        pending = self._windows[-1].collisions[0]
        me, other = (pending.active, pending.contact.other_id)
        return (me, other, pending.contact) if not pending.reactions else (other, me, pending.contact)

    @property
    def wiped(self) -> str:
        """For a lose_control prompt: the vehicle that wiped out (p.35)."""
        return self._wiped

    # ------------------------------------------------------------------ driving

    def decide(self, decision: Decision) -> None:
        """Answer the current prompt; raises :class:`IllegalChoice` (state unchanged) if not legal."""
        handler = self._handlers().get((self.prompt.kind, type(decision)))
        if handler is None:
            raise IllegalChoice(f"expected a {self.prompt.kind} decision, got {type(decision).__name__}")
        handler(decision)
        self.decisions.append(decision)

    def _handlers(self) -> dict[tuple[str, type[object]], Callable[[object], None]]:
        return {
            ("activate", Activate): lambda d: self._on_activate(_as(d, Activate)),
            ("template", ChooseTemplate): lambda d: self._on_template(_as(d, ChooseTemplate)),
            ("skid", RollSkid): lambda d: self._on_roll(_as(d, RollSkid)),
            ("push_it", PushIt): lambda d: self._on_push(_as(d, PushIt)),
            ("shifts", SpendShifts): lambda d: self._on_shifts(_as(d, SpendShifts)),
            ("slide_facing", SlideFacing): lambda d: self._move(_as(d, SlideFacing).side),
            ("spin", Spin): lambda d: self._on_spin(_as(d, Spin)),
            ("react", React): lambda d: self._on_react(_as(d, React)),
            ("attacks", DeclareAttacks): lambda d: self._on_attacks(_as(d, DeclareAttacks)),
            ("lose_control", LoseControl): lambda d: self._on_lose_control(_as(d, LoseControl)),
            ("pass_pole", PassPole): lambda d: self._on_pass_pole(_as(d, PassPole)),
            ("votes", SpendVotes): lambda d: self._on_votes(_as(d, SpendVotes)),
        }

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
        v = self._vehicle()
        if v.on_fire:
            self._put(replace(v, damage=v.damage + 1))
            self._event(f"{v.id} burns: 1 Hull Point lost", "On Fire, p.81")
        self._wrecks_then(self._start_movement)

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
        self._skid_allowed = True
        self._ask("template", v.player, tuple(self._permitted(v)), "reverse allowed" if v.gear == 1 else "")

    def _on_template(self, d: ChooseTemplate) -> None:
        v = self._vehicle()
        permitted = self._permitted(v)
        if d.reverse and v.gear != 1:
            raise IllegalChoice("only a vehicle in Gear 1 may reverse", "Reversing, p.39")
        if d.template not in permitted:
            if not self.options.touch_it_use_it or self.prompt.player != v.player:
                raise IllegalChoice(f"{d.template} is not permitted in Gear {v.gear}", "Permitted Gears, p.17")
            self._event(f"{d.template} not permitted: the next player chooses", "Touch It, Use It, p.38")
            self._skid_allowed = False
            self._ask("template", next_player(v.player, len(self.state.players)), tuple(permitted))
            return
        self._template = d
        self._manoeuvre = permitted[d.template]
        self._put(replace(v, hazards=v.hazards + self._manoeuvre.hazard_tokens, reversing=d.reverse))
        if self._manoeuvre is Manoeuvre.HAZARDOUS:
            self._event(f"{v.id}: Hazardous manoeuvre, +1 Hazard Token", "p.38")
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
        report = self.referee.move(self.state, self._active, plan)
        self._interrupted = report.interrupted
        self._apply_report(self._active, report)
        self._window(self._active, report, self._after_final_position)

    def _apply_report(self, vehicle_id: str, report: MoveReport, *, surfaces: bool = True) -> None:
        """Put the vehicle where the report says; ``surfaces``: this ends a Movement Step (p.86, p.79-80)."""
        v = self._vehicle(vehicle_id)
        v = replace(v, pose=report.pose)
        if surfaces:
            v = self._movement_step_effects(v, report)
        if report.removed:
            self.state = replace(self.state, removed_obstacles=self.state.removed_obstacles | set(report.removed))
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
        if finished(passed, course) and self.state.winner is None:
            self.state = replace(self.state, winner=v.player)
            self._event(f"{v.id} passes the Finish Line", "Race End, p.128")

    def _pass_pole_then(self, then: Callable[[], None]) -> bool:
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
        self._after_pole()

    def _after_final_position(self) -> None:
        if self._pass_pole_then(self._after_final_position):
            return
        v = self._vehicle()
        if self._spin and not self._interrupted and v.in_play:
            self._ask("spin", v.player, note="angle in [-90, 90] degrees")
        else:
            self._attack_step()

    def _movement_step_effects(self, v: VehicleState, report: MoveReport) -> VehicleState:
        """Surfaces (p.86) and the dropped templates that act at the end of the Movement Step (p.79-80).

        Caltrops, Glue and Oil Slick templates are treacherous surfaces (not
        added to a treacherous table surface: one surface rule); touching Smoke
        gives 1 Hazard Token; Glue takes 2 gears off, but not two activations
        in a row.
        """
        drops = [self.state.dropped_template(i).weapon for i in report.dropped]
        kinds = set(report.surfaces) | ({"treacherous"} if TREACHEROUS_DROPS & set(drops) else set())
        hazards = v.hazards + sum(SURFACE_HAZARDS.get(k, 0) for k in kinds)
        if any(self.state.dropped_template(i).weapon == SMOKE for i in report.dropped_touched):
            hazards += 1
            self._event(f"{v.id} drives through Smoke: +1 Hazard Token", "Smoke Dropper, p.80")
        if TREACHEROUS_DROPS & set(drops):
            self._event(f"{v.id} crosses a dropped template: a treacherous surface", "Dropped Weapons, p.79, p.86")
        glued = GLUE in drops and not v.glued
        gear = v.gear
        if glued:
            gear = max(1, v.gear - GLUE_GEARS)
            self._event(f"{v.id} is stuck in Glue: Gear {v.gear} to {gear}", "Glue Dropper, p.79")
        elif GLUE in drops:
            self._event(f"{v.id} is not affected by Glue two activations in a row", "Glue Dropper, p.79")
        return replace(v, hazards=hazards, gear=gear, glued=glued)

    def _on_spin(self, d: Spin) -> None:
        if not -90.0 <= d.angle_deg <= 90.0:
            raise IllegalChoice("a Spin pivots at most 90 degrees either way", "Spin, p.24")
        report = self.referee.spin(self.state, self._active, d.angle_deg)
        self._apply_report(self._active, report, surfaces=False)
        self._window(self._active, report, self._attack_step)

    # ------------------------------------------------------------------ collision windows (p.52-57, p.78)

    def _window(self, mover: str, report: MoveReport, then: Callable[[], None]) -> None:
        """The Collision Window after ``mover``'s move: dropped templates it met (p.78), then its collisions."""
        self._trigger_dropped(mover, report.dropped)
        self._wrecks_then(lambda: self._queue(mover, report.contacts, then))

    def _queue(self, mover: str, contacts: Sequence[Contact], then: Callable[[], None]) -> None:
        """Open a Collision Window with ``contacts`` of ``mover``; ``then`` resumes play after it (p.52)."""
        self._windows.append(_Window([_Pending(mover, c) for c in contacts], then))
        self._next_collision()

    def _participants(self, p: _Pending) -> tuple[Participant, Participant]:
        a = self._vehicle(p.active)
        c = p.contact
        active = _participant(a, c.edge)
        if c.obstacle:
            return active, Participant.of_obstacle(c.other_id, Weight.parse(c.obstacle_weight), c.destructible)
        return active, _participant(self._vehicle(c.other_id), c.other_edge)

    def _next_collision(self) -> None:
        """Resolve the innermost window's next collision, asking for reactions; close it when empty."""
        while self._windows:
            window = self._windows[-1]
            if not window.collisions:
                self._windows.pop()
                window.then()
                return
            pending = window.collisions[0]
            active, passive = self._participants(pending)
            if not all(self._in_play(p) for p in (active, passive)):
                window.collisions.pop(0)
                continue
            for me, other in ((active, passive), (passive, active))[len(pending.reactions):]:
                forced = forced_reaction(me, other, pending.contact.orientation)
                if forced is not None:
                    pending = replace(pending, reactions=(*pending.reactions, forced))
                    window.collisions[0] = pending
                    continue
                self._ask("react", self._vehicle(me.id).player, (Reaction.SMASH, Reaction.EVADE), f"collision {me.id}")
                return
            self._resolve(window.collisions.pop(0))
            self._wrecks_then(self._next_collision, in_collision=True)
            return

    def _on_react(self, d: React) -> None:
        window = self._windows[-1]
        pending = window.collisions[0]
        active, passive = self._participants(pending)
        me, other = (active, passive) if not pending.reactions else (passive, active)
        check_reaction(me, other, pending.contact.orientation, d.reaction)
        window.collisions[0] = replace(pending, reactions=(*pending.reactions, d.reaction))
        self._next_collision()

    def _resolve(self, pending: _Pending) -> None:
        active, passive = self._participants(pending)
        ra, rp = pending.reactions
        out = resolve_collision(active, passive, pending.contact.orientation, ra, rp, self.dice)
        self._event(
            f"collision {active.id} / {passive.id}: {out.orientation.value}, {ra.value} / {rp.value}",
            "Collisions, p.52-57",
            (out.active.attack_rolls, out.passive.attack_rolls, out.active.evade_rolls, out.passive.evade_rolls),
        )
        for side, who in ((out.active, active), (out.passive, passive)):
            if not who.obstacle:
                self._collided.add(side.id)
                v = self._vehicle(side.id)
                self._put(replace(v, damage=v.damage + side.damage_taken + side.self_damage,
                                  hazards=v.hazards + side.hazards_gained, on_fire=v.on_fire or side.on_fire))
        if out.removed:
            self.state = replace(self.state, removed_obstacles=self.state.removed_obstacles | set(out.removed))

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

        def shoot_from(i: int) -> None:
            if i == len(groups):
                self._wipeout_step()
                return
            target, entries = groups[i]
            self._shoot(target, entries)
            self._wrecks_then(lambda: shoot_from(i + 1))

        if d.drops:
            self._drop(d.drops[0], lambda: shoot_from(0))
        else:
            shoot_from(0)

    def _attack_groups(self, v: VehicleState, attacks: Sequence[Attack]
                       ) -> list[tuple[str, list[tuple[Attack, bool]]]]:
        """Attacks by target, each ``(attack, spends ammo)``; a Splash attack hits everything under it (p.82)."""
        by_target: dict[str, list[tuple[Attack, bool]]] = {}
        for a in attacks:
            by_target.setdefault(a.target, []).append((a, True))
            _, weapon = v.weapon(a.mount)
            if weapon.has_rule("Splash"):
                for victim in self.referee.splash(self.state, v.id, a.mount, a.target)[1:]:
                    by_target.setdefault(victim, []).append((Attack(a.mount, victim), False))
        return list(by_target.items())

    def _check_attacks(self, v: VehicleState, attacks: Sequence[Attack], drops: Sequence[Drop] = ()) -> None:
        if len(attacks) + len(drops) > max_attacks(v.crew_now):
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
            if a.target not in {s.target for s in self.referee.shots(self.state, v.id, a.mount)}:
                raise IllegalChoice(f"{a.target} is not in range and arc of {weapon.name}", "Declare Targets, p.30")
        if len(drops) > 1:
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
            shots = self.referee.shots(self.state, v.id, a.mount)
            shot = next((s for s in shots if s.target == target), Shot(target, False, weapon.range))
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

    def _drop(self, dr: Drop, then: Callable[[], None]) -> None:
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
            else:
                self._after_flip(vid, plan)
            return
        self._end_activation()

    def _flip(self, vid: str, plan: WipeoutPlan) -> None:
        """A Flip: 2 hits that cannot be Evaded (a wreck skids to a halt instead), then the forced move (p.35)."""
        v = self._vehicle(vid)
        self._put(replace(v, damage=v.damage + plan.flip_hits))
        self._event(f"{vid} flips: {plan.flip_hits} hits", "Flip, p.35")
        self._wrecks_then(lambda: self._flip_move(vid, plan))

    def _flip_move(self, vid: str, plan: WipeoutPlan) -> None:
        """The Flip's forced Medium Straight, ignoring obstructions, and its Collision Window (p.35, p.39)."""
        if not self._vehicle(vid).in_play:
            self._next_wipeout()
            return
        report = self.referee.forced_move(self.state, vid, "medium_straight", ignore_obstructions=True)
        self._apply_report(vid, report, surfaces=False)
        self._window(vid, report, lambda: self._after_flip(vid, plan))

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
        self._event(f"{self._wiped} loses control", "Lose Control, p.35")
        self._window(self._wiped, report, self._next_wipeout)

    def _end_activation(self) -> None:
        if self._pass_pole_then(self._end_activation):
            return
        if self._active:
            self.state = self.state.with_round(after_activation(self.state.round, self._active))
        self._active = ""
        self._next_opportunity()

    # ------------------------------------------------------------------ wrecks (p.43-44)

    def _wrecks_then(self, then: Callable[[], None], *, in_collision: bool = False) -> None:
        """Wreck, one at a time, every vehicle in play at zero Hull Points (p.43), then go on with ``then``.

        ``in_collision``: they lost their last Hull Point in a Collision (Twisted Metal, p.44).
        """
        for v in self.state.vehicles:
            if v.in_play and v.damage >= v.hull and v.id not in self._wrecking:
                self._wreck(v.id, in_collision, lambda: self._wrecks_then(then, in_collision=in_collision))
                return
        then()

    def _wreck(self, vid: str, in_collision: bool, then: Callable[[], None]) -> None:
        """Skid to a Halt: a forced Short Straight forward and its Collision Window (p.43, p.39)."""
        self._wrecking.add(vid)
        self._collided.discard(vid)
        report = self.referee.forced_move(self.state, vid, SKID_TO_A_HALT, ignore_obstructions=False)
        self._apply_report(vid, report, surfaces=False)
        if report.contacts:
            self._event(f"{vid} skids to a halt into {', '.join(c.other_id for c in report.contacts)}",
                        "Skid to a Halt, p.43")
        self._queue(vid, report.contacts, lambda: self._wreck_finish(vid, in_collision or vid in self._collided, then))

    def _wreck_finish(self, vid: str, in_collision: bool, then: Callable[[], None]) -> None:
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
            then()

    def _explode(self, vid: str, weight: Weight, then: Callable[[], None]) -> None:
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

def _participant(v: VehicleState, edge: str) -> Participant:
    facing = {"front": "front", "rear": "rear", "side": "side"}.get(edge, "front")
    return Participant(
        v.id, v.gear, v.weight, edge, ram=facing in v.rams, infuriating_jingle=v.has("Infuriating Jingle"),
        on_fire=v.on_fire,
    )


def _as(value: object, kind: type[_T]) -> _T:
    assert isinstance(value, kind)
    return value
