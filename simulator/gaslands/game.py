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
combined Evade (p.30-33, p.42, p.81); Wipeouts (p.34-35); Wrecks and
Explosions (p.43-44); On Fire (p.81); the last player with vehicles wins (p.62).
Races (:mod:`simulator.gaslands.race`): the Street Race finish (p.62); the
Death Race gates in order, Pole Position passing at gates and weapons inactive
until Gate 1 (p.124-128). ``Options.round_limit`` ends a game with no winner
after that many rounds (for bots and simulations).
Not yet: dropped weapons, Splash, Blitz copies, most vehicle special rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from simulator.errors import IllegalChoice
from simulator.gaslands.attacks import attack_dice, evade_dice, explosion_dice, max_attacks, resolve_against
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
from simulator.gaslands.referee import Contact, MovePlan, MoveReport, Referee
from simulator.gaslands.round import RoundState, after_activation, after_pass, next_gear_phase, qualifying
from simulator.gaslands.skid import Driving, SkidRoll, push_it, resolve_shifts, roll_skid_dice
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.gaslands.tables import Weapon, Weight
from simulator.gaslands.wipeout import next_player, plan_wipeout, wipeout_order, wipes_out
from simulator.gaslands.wrecks import SKID_TO_A_HALT, plan_wreck

_T = TypeVar("_T")

SURFACE_HAZARDS = {"rough": 1, "treacherous": 2}
"""Hazard Tokens at the end of a Movement Step on these surfaces (p.86)."""


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
        self._collisions: list[_Pending] = []
        self._then: Callable[[], None] = self._next_opportunity
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
        if self.prompt.kind != "react" or not self._collisions:
            return None
        pending = self._collisions[0]
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
            self._check_wrecks()
        self._start_movement()

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
        self._then = self._after_final_position
        self._queue(self._active, report.contacts)

    def _apply_report(self, vehicle_id: str, report: MoveReport, *, surfaces: bool = True) -> None:
        v = self._vehicle(vehicle_id)
        hazards = v.hazards + (sum(SURFACE_HAZARDS.get(s, 0) for s in report.surfaces) if surfaces else 0)
        v = replace(v, pose=report.pose, hazards=hazards)
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

    def _on_spin(self, d: Spin) -> None:
        if not -90.0 <= d.angle_deg <= 90.0:
            raise IllegalChoice("a Spin pivots at most 90 degrees either way", "Spin, p.24")
        report = self.referee.spin(self.state, self._active, d.angle_deg)
        self._apply_report(self._active, report, surfaces=False)
        self._then = self._attack_step
        self._queue(self._active, report.contacts)

    # ------------------------------------------------------------------ collisions (p.52-57)

    def _queue(self, mover: str, contacts: Sequence[Contact]) -> None:
        self._collisions.extend(_Pending(mover, c) for c in contacts)
        self._next_collision()

    def _participants(self, p: _Pending) -> tuple[Participant, Participant]:
        a = self._vehicle(p.active)
        c = p.contact
        active = _participant(a, c.edge)
        if c.obstacle:
            return active, Participant.of_obstacle(c.other_id, Weight.parse(c.obstacle_weight), c.destructible)
        return active, _participant(self._vehicle(c.other_id), c.other_edge)

    def _next_collision(self) -> None:
        while self._collisions:
            pending = self._collisions[0]
            active, passive = self._participants(pending)
            if not all(self._in_play(p) for p in (active, passive)):
                self._collisions.pop(0)
                continue
            for me, other in ((active, passive), (passive, active))[len(pending.reactions):]:
                forced = forced_reaction(me, other, pending.contact.orientation)
                if forced is not None:
                    pending = replace(pending, reactions=(*pending.reactions, forced))
                    self._collisions[0] = pending
                    continue
                self._ask("react", self._vehicle(me.id).player, (Reaction.SMASH, Reaction.EVADE), f"collision {me.id}")
                return
            self._resolve(self._collisions.pop(0))
        self._then()

    def _on_react(self, d: React) -> None:
        pending = self._collisions[0]
        active, passive = self._participants(pending)
        me, other = (active, passive) if not pending.reactions else (passive, active)
        check_reaction(me, other, pending.contact.orientation, d.reaction)
        self._collisions[0] = replace(pending, reactions=(*pending.reactions, d.reaction))
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
                v = self._vehicle(side.id)
                self._put(replace(v, damage=v.damage + side.damage_taken + side.self_damage,
                                  hazards=v.hazards + side.hazards_gained, on_fire=v.on_fire or side.on_fire))
        if out.removed:
            self.state = replace(self.state, removed_obstacles=self.state.removed_obstacles | set(out.removed))
        self._check_wrecks(in_collision=True)

    # ------------------------------------------------------------------ attacks (p.30-33, p.42)

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
        self._check_attacks(v, d.attacks)
        by_target: dict[str, list[Attack]] = {}
        for a in d.attacks:
            by_target.setdefault(a.target, []).append(a)
        for target, attacks in by_target.items():
            self._shoot(v, target, attacks)
        self._wipeout_step()

    def _check_attacks(self, v: VehicleState, attacks: Sequence[Attack]) -> None:
        if len(attacks) > max_attacks(v.crew_now):
            raise IllegalChoice(f"{v.id} may attack {v.crew_now} times", "Number of Attacks, p.31")
        mounts = [a.mount for a in attacks if a.mount >= 0]
        if len(mounts) != len(set(mounts)):
            raise IllegalChoice("each weapon attacks once per Attack Step", "Number of Attacks, p.31")
        for a in attacks:
            if a.mount >= len(v.weapons):
                raise IllegalChoice(f"{v.id} has no weapon {a.mount}")
            _, weapon = v.weapon(a.mount)
            if weapon.dropped or weapon.attack_dice == 0 and weapon.dice_by_range is None:
                raise IllegalChoice(f"{weapon.name} is not supported by the engine yet", f"p.{weapon.page}")
            if a.mount >= 0 and v.weapons[a.mount].ammo == 0:
                raise IllegalChoice(f"{weapon.name} has no Ammo Tokens", "Ammo, p.81")
            if a.target not in {s.target for s in self.referee.shots(self.state, v.id, a.mount)}:
                raise IllegalChoice(f"{a.target} is not in range and arc of {weapon.name}", "Declare Targets, p.30")

    def _shoot(self, v: VehicleState, target: str, attacks: Sequence[Attack]) -> None:
        rolled: list[tuple[str, Weapon, tuple[int, ...]]] = []
        cover = False
        for a in attacks:
            key, weapon = v.weapon(a.mount)
            shot = next(s for s in self.referee.shots(self.state, v.id, a.mount) if s.target == target)
            cover = cover or shot.cover
            rolled.append((key, weapon, self.dice.roll_d6(attack_dice(weapon, shot.range_band))))
            if a.mount >= 0 and v.weapons[a.mount].ammo is not None:
                mounts = list(v.weapons)
                mounts[a.mount] = replace(mounts[a.mount], ammo=(mounts[a.mount].ammo or 0) - 1)
                v = replace(v, weapons=tuple(mounts))
        self._put(v)
        t = self._vehicle(target)
        result = resolve_against(rolled, self.dice.roll_d6(evade_dice(t.gear)), cover=cover)
        self._event(f"{v.id} attacks {target}: {result.total_hits} hits, {result.effects.damage} damage",
                    "Attack Step, p.30-33", (result.attack_rolls, result.evade_rolls))
        fx = result.effects
        self._put(replace(t, damage=t.damage + fx.damage, hazards=t.hazards + fx.hazards,
                          on_fire=t.on_fire or fx.on_fire))
        self._check_wrecks()

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
                report = self.referee.forced_move(self.state, vid, "medium_straight", ignore_obstructions=True)
                self._apply_report(vid, report, surfaces=False)
                v = self._vehicle(vid)
                self._put(replace(v, damage=v.damage + plan.flip_hits))
                self._event(f"{vid} flips: {plan.flip_hits} hits", "Flip, p.35")
            v = self._vehicle(vid)
            self._put(replace(v, gear=1, hazards=0))
            self._check_wrecks()
            if plan.lose_control and self._vehicle(vid).in_play:
                self._wiped = vid
                self._ask("lose_control", next_player(v.player, len(self.state.players)), note=vid)
                return
        self._end_activation()

    def _on_lose_control(self, d: LoseControl) -> None:
        report = self.referee.pivot(self.state, self._wiped, d.heading_deg)
        self._apply_report(self._wiped, report, surfaces=False)
        self._event(f"{self._wiped} loses control", "Lose Control, p.35")
        self._then = self._next_wipeout
        self._queue(self._wiped, report.contacts)

    def _end_activation(self) -> None:
        if self._pass_pole_then(self._end_activation):
            return
        if self._active:
            self.state = self.state.with_round(after_activation(self.state.round, self._active))
        self._active = ""
        self._next_opportunity()

    # ------------------------------------------------------------------ wrecks (p.43-44)

    def _check_wrecks(self, *, in_collision: bool = False) -> None:
        """Wreck every vehicle in play at zero Hull Points (p.43)."""
        for v in self.state.vehicles:
            if v.in_play and v.damage >= v.hull:
                self._wreck(v.id, in_collision)

    def _wreck(self, vid: str, in_collision: bool) -> None:
        report = self.referee.forced_move(self.state, vid, SKID_TO_A_HALT, ignore_obstructions=False)
        self._apply_report(vid, report, surfaces=False)
        v = self._vehicle(vid)
        (roll,) = self.dice.roll_d6(1)
        plan = plan_wreck(v.weight, roll, v.ammo_tokens, infinite_ammo=v.has("Jet Engine"), in_collision=in_collision)
        status = Status.WRECK if plan.stays_as_wreck else Status.REMOVED
        self._put(replace(v, gear=1, hazards=0, status=status))
        self._event(f"{vid} is Wrecked; Explosion check {roll}", "Getting Wrecked, p.43", (roll,))
        if self.options.audience_votes:
            self.state = replace(self.state, votes=gain_for_wreck(self.state.votes, v.player))
            self._event(f"{self.state.players[v.player]} gains an Audience Vote", "Audience Votes, p.88")
        if plan.exploded:
            self._explode(vid, v.weight)

    def _explode(self, vid: str, weight: Weight) -> None:
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
        self._check_wrecks()


def _participant(v: VehicleState, edge: str) -> Participant:
    facing = {"front": "front", "rear": "rear", "side": "side"}.get(edge, "front")
    return Participant(
        v.id, v.gear, v.weight, edge, ram=facing in v.rams, infuriating_jingle=v.has("Infuriating Jingle"),
        on_fire=v.on_fire,
    )


def _as(value: object, kind: type[_T]) -> _T:
    assert isinstance(value, kind)
    return value
