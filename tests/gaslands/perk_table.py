"""A small table for the perk tests: two players, scripted dice, vehicles with loadouts, chosen ranges."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from simulator.gaslands.collisions import Orientation
from simulator.gaslands.decisions import (
    Activate,
    ChooseTemplate,
    Declare,
    DeclareAttacks,
    Pivot,
    RollSkid,
    SpendShifts,
)
from simulator.gaslands.dice import ScriptedDice
from simulator.gaslands.events import PerkUsed, VotesGained
from simulator.gaslands.game import Game, Options
from simulator.gaslands.prompts import DeclarePrompt
from simulator.gaslands.referee import Contact, MovePlan, MoveReport, OpenTableReferee
from simulator.gaslands.round import RoundState
from simulator.gaslands.state import GameState, Loadout, Mount, VehicleState
from simulator.geometry.pose import Pose
from tests.gaslands.test_game import FakePermissions

BANDS = ("short", "medium", "long", "double")


class Table(OpenTableReferee):
    """An open table (:class:`OpenTableReferee`) where ``ranges`` say which pairs of vehicles are within which
    range band (``{("a", "b"): "short"}``), and where the first move of ``crash`` (if given) collides with that
    vehicle on ``edges`` (the mover's edge, the other's) in ``orientation``."""

    def __init__(self, ranges: Mapping[tuple[str, str], str] | None = None, crash: str = "",
                 orientation: Orientation = Orientation.HEAD_ON, edges: tuple[str, str] = ("front", "side"),
                 distracted: bool = False) -> None:
        self.ranges = dict(ranges or {})
        self.crash, self.orientation, self.edges = crash, orientation, edges
        self.crashed = False
        self.is_distracted = distracted
        self.forced: list[str] = []
        self.plans: list[MovePlan] = []

    def within(self, state: GameState, vehicle_id: str, band: str) -> tuple[str, ...]:
        out = []
        for (a, b), near in self.ranges.items():
            if vehicle_id in (a, b) and BANDS.index(near) <= BANDS.index(band):
                other = b if vehicle_id == a else a
                if state.vehicle(other).in_play:
                    out.append(other)
        return tuple(out)

    def within_medium(self, state: GameState, vehicle_id: str) -> tuple[str, ...]:
        return self.within(state, vehicle_id, "medium")

    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        self.plans.append(plan)
        if self.crash and not self.crashed and vehicle_id != self.crash:
            self.crashed = True
            contact = Contact(self.crash, self.orientation, *self.edges)
            return MoveReport(state.vehicle(vehicle_id).pose.ahead(20.0), interrupted=True, contacts=(contact,))
        return super().move(state, vehicle_id, plan)

    def forced_move(self, state: GameState, vehicle_id: str, template: str, *, ignore_obstructions: bool,
                    direction: str | None = None) -> MoveReport:
        self.forced.append(template if direction is None else f"{template} {direction}")
        return super().forced_move(state, vehicle_id, template, ignore_obstructions=ignore_obstructions,
                                   direction=direction)  # type: ignore[arg-type]

    def move_through(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        self.forced.append("through")
        return OpenTableReferee.move(self, state, vehicle_id, plan)

    def continue_move(self, state: GameState, vehicle_id: str, plan: MovePlan, start: Pose,
                      ignoring: tuple[str, ...]) -> MoveReport:
        self.forced.append("ignoring " + " ".join(ignoring))
        return super().continue_move(state, vehicle_id, plan, start, ignoring)

    def distracted(self, state: GameState, vehicle_id: str) -> bool:
        return self.is_distracted


def car(vid: str, player: int, type_key: str = "car", *, gear: int = 1, hazards: int = 0, damage: int = 0,
        x: float = 100.0, weapons: tuple[str, ...] = (), facing: str = "front") -> VehicleState:
    mounts = tuple(Mount.fitted(w, facing) for w in weapons)
    return replace(VehicleState.new(vid, player, type_key, Pose(x, 100.0, 0.0), mounts), gear=gear,
                   hazards=hazards, damage=damage, name=vid.capitalize())


def game(*vehicles: VehicleState, kits: Mapping[str, tuple[str, ...]] | None = None, sponsor: str = "",
         upgrades: Mapping[str, tuple[tuple[str, str], ...]] | None = None, table: Table | None = None,
         dice: ScriptedDice | None = None, options: Options | None = None, pole: int = 0, gear_phase: int = 1
         ) -> Game:
    """Two players; vehicles with perks ``kits[vid]``, all of ``sponsor``'s team (or none)."""
    kits = kits or {}
    upgrades = upgrades or {}
    loadouts = tuple(Loadout(v.id, sponsor, kits.get(v.id, ()), upgrades.get(v.id, ())) for v in vehicles)
    start = replace(RoundState.start(2, pole=pole), gear_phase=gear_phase)
    state = GameState(("Blue", "Red"), tuple(vehicles), start, loadouts=loadouts)
    return Game(state, dice or ScriptedDice(), table or Table(), FakePermissions(), options or Options())


def answer(g: Game, say: Mapping[str, str] | None = None) -> None:
    """Answer the perks' questions from ``say`` (perk key -> choice; "no" when not said)."""
    say = say or {}
    for _ in range(50):
        p = g.prompt
        if not (isinstance(p, DeclarePrompt) and p.perk):
            return
        wanted = say.get(p.perk, "no")
        g.decide(Declare(wanted if wanted in p.choices else "no" if "no" in p.choices else p.choices[0]))


def drive(g: Game, vid: str, template: str = "medium_straight", *, dice: int = 0, spends: tuple = (),
          say: Mapping[str, str] | None = None, attacks: DeclareAttacks | None = None) -> None:
    """Activate ``vid`` and drive ``template`` with ``dice`` Skid Dice (kept) and ``spends``; answer perks from
    ``say``; shoot ``attacks`` (if it gets to its Attack Step)."""
    answer(g, say)
    g.decide(Activate(vid))
    answer(g, say)
    if g.prompt.kind == "pivot":
        g.decide(Pivot(0.0))
    answer(g, say)
    g.decide(ChooseTemplate(template, None if "straight" in template else "left"))
    if g.prompt.kind == "skid":
        g.decide(RollSkid(dice))
    if g.prompt.kind == "push_it":
        from simulator.gaslands.decisions import PushIt

        g.decide(PushIt())
    answer(g, say)
    if g.prompt.kind == "shifts":
        g.decide(SpendShifts(spends))
    answer(g, say)
    if attacks is not None and g.prompt.kind == "attacks":
        g.decide(attacks)  # questions after the attacks are the test's to answer


def finish_attacks(g: Game, say: Mapping[str, str] | None = None) -> None:
    """Hold fire if asked to attack, then answer the perks."""
    answer(g, say)
    if g.prompt.kind == "attacks":
        g.decide(DeclareAttacks())
    answer(g, say)


VOTES = Options(audience_votes=True)


def used(g: Game, perk: str) -> list[PerkUsed]:
    """The log's uses of ``perk``."""
    return [e for e in g.log if isinstance(e, PerkUsed) and e.perk == perk]


def gained(g: Game, player: int) -> int:
    """Audience Votes ``player`` gained in the log."""
    return sum(e.count for e in g.log if isinstance(e, VotesGained) and e.player == player)


def asked(g: Game, perk: str) -> DeclarePrompt:
    """The prompt, which must be ``perk``'s question."""
    p = g.prompt
    assert isinstance(p, DeclarePrompt) and p.perk == perk, p
    return p
