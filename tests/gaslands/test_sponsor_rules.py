"""Every Sponsored Perk (p.91-103) and upgrade (p.83-85, p.96-103) in play or in team building, by example.

Each Sponsored Perk has a test named ``test_<key>`` (checked by the last tests),
on the small table of :mod:`tests.gaslands.perk_table`; build-time rules point at
their team-building tests in test_teams.py.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import replace

import pytest
from shapely import box

from simulator.errors import IllegalChoice
from simulator.gaslands.audience import CROSSROADS, RespawnRights, VoteEffect, affordable, spend
from simulator.gaslands.collisions import Orientation, Reaction
from simulator.gaslands.decisions import (
    Activate,
    Attack,
    ChooseTemplate,
    Declare,
    DeclareAttacks,
    Drop,
    PushIt,
    React,
    RollSkid,
    SlideFacing,
    SpendShifts,
    SpendVotes,
)
from simulator.gaslands.dice import ScriptedDice
from simulator.gaslands.events import PerkUsed, SoulTokens, VotesSpent
from simulator.gaslands.game import Game, Options
from simulator.gaslands.perks.sponsors import dashboard_notes, soul_tokens
from simulator.gaslands.prompts import DeclarePrompt, SlideFacingPrompt, TemplatePrompt, VotesPrompt
from simulator.gaslands.referee import MovePlan, MoveReport
from simulator.gaslands.round import RoundState
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.gaslands.tables import load_sponsors
from simulator.gaslands.teams import Fitting, Team, TeamVehicle, check, statistics, vehicle_in_play
from simulator.geometry.pose import Pose
from tests.gaslands.perk_table import (
    VOTES,
    Table,
    answer,
    asked,
    car,
    drive,
    finish_attacks,
    gained,
    game,
    used,
)


def legal(sponsor: str, *vehicles: TeamVehicle, cans: int = 100) -> bool:
    return check(Team("T", sponsor, cans, vehicles)).legal


# =========================================================================== Rutherford (p.91)


def test_military_hardware() -> None:
    assert legal("rutherford", TeamVehicle("tank"), TeamVehicle("helicopter"))
    assert not legal("rutherford", TeamVehicle("tank"), TeamVehicle("tank"))


def test_well_stocked() -> None:
    team = Team("T", "rutherford", 50, (TeamVehicle("car", weapons=(Fitting("rockets", "front"),)),))
    state, _ = vehicle_in_play(team, 0, "c", 0)
    assert state.weapons[0].ammo == 4


def test_might_is_right() -> None:
    assert not legal("rutherford", TeamVehicle("bike"))


def test_televised_carnage() -> None:
    # a Minigun's 4 dice and two Handguns: 6, 6, 4, 4 = 6 hits before Evades
    g = game(car("blue", 0, weapons=("minigun",)), car("red", 1), sponsor="rutherford", options=VOTES,
             dice=ScriptedDice(d6=[6, 6, 4, 4, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    answer(g)
    assert gained(g, 0) == 1


# =========================================================================== Miyazaki (p.92)


def test_virtuoso() -> None:
    g = game(car("blue", 0), car("red", 1), sponsor="miyazaki", dice=ScriptedDice(skid=["hazard", "shift"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt((0,)))
    assert g.state.vehicle("blue").hazards == 0 and used(g, "Virtuoso")


def test_elegance() -> None:
    assert not legal("miyazaki", TeamVehicle("truck")) and legal("miyazaki", TeamVehicle("car"))


def test_showing_off() -> None:
    # a Spin and a Slide resolved, a gear change, no Wipeout: a token; the whole team (one car) shows off
    g = game(car("blue", 0), car("red", 1), sponsor="miyazaki", options=VOTES,
             dice=ScriptedDice(skid=["spin", "slide"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(2))
    g.decide(PushIt())
    g.decide(SpendShifts((SpendShift(ShiftUse.GEAR_UP),)))
    from simulator.gaslands.decisions import SlideFacing, Spin

    g.decide(SlideFacing("left"))
    g.decide(Spin(10.0))
    finish_attacks(g)
    assert gained(g, 0) == 1 and used(g, "Showing Off")


# =========================================================================== Mishkin (p.93)


def test_thumpermonkey() -> None:
    assert legal("mishkin", TeamVehicle("car", weapons=(Fitting("death_ray", "front"),)))
    assert not legal("rutherford", TeamVehicle("car", weapons=(Fitting("death_ray", "front"),)))


def test_dynamo() -> None:
    g = game(car("blue", 0, gear=4, weapons=("death_ray",)), car("red", 1, gear=4), sponsor="mishkin",
             gear_phase=4)
    drive(g, "blue")
    finish_attacks(g)
    assert g.state.vehicle("blue").weapons[0].ammo == 2 and used(g, "Dynamo")


def test_all_the_toys() -> None:
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), sponsor="mishkin", options=VOTES,
             dice=ScriptedDice(d6=[1, 1, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    answer(g)
    assert gained(g, 0) == 1


# =========================================================================== Idris (p.94)


def test_n2o_addict() -> None:
    assert check(Team("T", "idris", 50, (TeamVehicle("car", upgrades=(Fitting("nitro_booster"),)),))).cans == 15


def test_speed_demon() -> None:
    g = game(car("blue", 0), car("red", 1), sponsor="idris", upgrades={"blue": (("nitro_booster", ""),)})
    g.decide(Activate("blue"))
    asked(g, "nitro_booster")
    g.decide(Declare("yes"))
    assert g.state.vehicle("blue").hazards == 3  # topped up to 3, not 5
    assert isinstance(g.prompt, TemplatePrompt) and not g.prompt.reverse_allowed


def test_cult_of_speed() -> None:
    g = game(car("blue", 0, gear=2), car("red", 1), sponsor="idris", options=VOTES)
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("long_straight"))
    assert gained(g, 0) == 1


def test_kiss_my_asphalt() -> None:
    assert not legal("idris", TeamVehicle("gyrocopter"))


# =========================================================================== Slime (p.95)


def test_pinball() -> None:
    g = game(car("blue", 0), car("red", 1), sponsor="slime", dice=ScriptedDice(d6=[1, 1]),
             table=Table(crash="red", orientation=Orientation.T_BONE, edges=("side", "side")))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    g.decide(SpendShifts())
    g.decide(React(Reaction.SMASH))
    g.decide(React(Reaction.EVADE))
    asked(g, "pinball")
    g.decide(Declare("yes"))
    assert isinstance(g.prompt, TemplatePrompt)  # another Movement Step


def test_spiked_fist() -> None:
    v = TeamVehicle("bike", weapons=(Fitting("machine_gun", "front"),), upgrades=(Fitting("ram", "front"),))
    assert legal("slime", v) and not legal("the_warden", v)


def test_live_fast() -> None:
    g = game(car("blue", 0, hazards=5, damage=7), car("red", 1), sponsor="slime", options=VOTES)
    drive(g, "blue")
    finish_attacks(g)
    assert gained(g, 0) == 1  # 5 Hazard Tokens, 3 Hull Points left


# =========================================================================== The Warden (p.96)


def test_prison_cars() -> None:
    assert check(Team("T", "the_warden", 50, (TeamVehicle("car", upgrades=(Fitting("prison_car"),)),))).cans == 8


def test_fireworks() -> None:
    # Red, one Hull left, is hit and wrecked; its Explosion check (6) explodes it: a Middleweight, 1 vote
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1, damage=9, weapons=("rockets",)),
             sponsor="the_warden", options=VOTES, dice=ScriptedDice(d6=[4, 1, 1, 6]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    answer(g)
    assert gained(g, 1) == 1 + 1  # 1 for the wreck (p.88), 1 for Fireworks
    assert g.state.vehicle("red").weapons[0].ammo == 0


# =========================================================================== Scarlett (p.97)


def test_crew_quarters() -> None:
    v = TeamVehicle("truck", upgrades=(Fitting("extra_crewmember"),))
    assert check(Team("T", "scarlett", 50, (v,))).cans == 17


class Touching(Table):
    """Blue and Red touch (their footprints meet)."""


def test_raiders() -> None:
    g = game(car("blue", 0), car("red", 1, x=160.0 + 120.0), sponsor="scarlett")
    drive(g, "blue")
    finish_attacks(g, {"raiders": "red:1"})
    blue, red = g.state.vehicle("blue"), g.state.vehicle("red")
    assert (blue.crew, red.damage) == (1, 1)


def test_raise_the_sails() -> None:
    g = game(car("blue", 0), car("red", 1), sponsor="scarlett", dice=ScriptedDice(skid=["hazard"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    asked(g, "raise_the_sails")
    g.decide(Declare("yes"))
    assert g.prompt.shifts == 2 and g.state.vehicle("blue").crew == 1  # type: ignore[union-attr]


def test_press_gang_or_keelhaul() -> None:
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1, x=280.0, damage=9), sponsor="scarlett",
             dice=ScriptedDice(d6=[4, 1, 1, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    finish_attacks(g, {"raiders": "no", "press_gang_or_keelhaul": "crew"})
    assert g.state.vehicle("red").status is not Status.ACTIVE and g.state.vehicle("blue").crew == 3


# =========================================================================== Highway Patrol (p.98)


def test_hot_pursuit() -> None:
    g = game(car("blue", 0), car("red", 1), sponsor="highway_patrol")
    asked(g, "hot_pursuit")
    g.decide(Declare("red"))
    assert g.state.notes.get("team0:bogey") == 2
    # the other player's vehicles of the same sponsor name a bogey too
    asked(g, "hot_pursuit")
    g.decide(Declare("blue"))
    assert g.prompt.kind == "activate"


def test_bogey_at_12() -> None:
    g = game(car("blue", 0), car("red", 1, x=900.0), kits={}, sponsor="highway_patrol")
    answer(g, {"hot_pursuit": "red"})
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    g.decide(SpendShifts())
    asked(g, "bogey_at_12")
    g.decide(Declare("yes"))
    assert isinstance(g.prompt, TemplatePrompt)


def test_siren() -> None:
    # Blue behind Red (its bogey): Red's player chooses to change down
    g = game(car("blue", 0), car("red", 1, x=400.0, gear=3), sponsor="highway_patrol")
    answer(g, {"hot_pursuit": "red"})
    drive(g, "blue")
    finish_attacks(g, {"siren": "gear_down"})
    assert g.state.vehicle("red").gear == 2 and used(g, "Siren")


def test_steel_justice() -> None:
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1, damage=9), sponsor="highway_patrol",
             options=VOTES, dice=ScriptedDice(d6=[4, 1, 1, 1]))
    answer(g, {"hot_pursuit": "red"})
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert gained(g, 0) == 4


# =========================================================================== Verney (p.98-99)


def test_microplate_armour() -> None:
    assert statistics(TeamVehicle("car", upgrades=(Fitting("microplate_armour"),))).hull == 12


def test_trunk_of_junk() -> None:
    g = game(car("blue", 0, weapons=("mine_dropper", "caltrop_dropper"), facing="rear"), car("red", 1),
             sponsor="verney")
    drive(g, "blue", attacks=DeclareAttacks((), (Drop(0, "rear", -5.0), Drop(1, "rear", 5.0))))
    assert len(g.state.dropped) == 2


def test_tombstone() -> None:
    g = game(car("blue", 0), car("red", 1), sponsor="verney")
    drive(g, "blue", say={"tombstone": "yes"})
    assert g.state.notes.get("blue:head_on:next") == 1 and g.state.vehicle("blue").hazards == 2


def test_thats_entertainment() -> None:
    from simulator.gaslands.engine import _Run
    from simulator.gaslands.events import DropAttacked, WeaponDropped
    from simulator.gaslands.perks.sponsors import _entertainment
    from simulator.gaslands.state import DroppedTemplate
    from simulator.geometry.pose import Pose

    g = game(car("blue", 0), car("red", 1), sponsor="verney", options=VOTES)
    run = _Run(g.engine_state, g.dice, g.referee)
    run.state = run.state.with_dropped(DroppedTemplate("drop-1", "mine_dropper", "small_burst", Pose(0, 0, 0),
                                                       "blue", 0))
    _entertainment(run, WeaponDropped("blue", "Blue", "Mine Dropper", "drop-1", "rear"))
    run.state = run.state.without_dropped("drop-1")  # Red set the mines off: they leave play (p.79)
    _entertainment(run, DropAttacked("Mine Dropper", "drop-1", "red", "Red", ((1, 1, 1, 1),), (), 0, 0, 0))
    assert run.state.votes_of(0) == 1


# =========================================================================== Maxxine (p.99)


def test_dizzy() -> None:
    g = game(car("blue", 0), car("red", 1), sponsor="maxxine", dice=ScriptedDice(skid=["spin", "spin"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(2))
    g.decide(PushIt())
    g.decide(SpendShifts())
    assert (g.prompt.min_deg, g.prompt.max_deg) == (-180.0, 180.0)  # type: ignore[union-attr]


def test_maxximum_drift() -> None:
    # two uncancelled Slides off a Medium Straight: the Medium Straight may be the Slide template (p.99)
    table = Table()
    g = game(car("blue", 0), car("red", 1, x=700.0), sponsor="maxxine", table=table,
             dice=ScriptedDice(skid=["slide", "slide"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(2))
    g.decide(PushIt())
    g.decide(SpendShifts())
    p = asked(g, "maxximum_drift")
    assert p.choices == ("slide", "medium_straight")  # two Slides: never the Long Straight
    assert [(plan.slide_template, plan.slide_facing) for plan in p.plans] == [
        ("", "left"), ("", "right"), ("medium_straight", "left"), ("medium_straight", "right")]
    g.decide(Declare("medium_straight"))
    facing = g.prompt
    assert isinstance(facing, SlideFacingPrompt) and facing.slide_template == "medium_straight"
    assert [e.pose for e in facing.endings]  # the window draws both facings along the Medium Straight
    g.decide(SlideFacing("left"))
    moved = table.plans[-1]
    assert (moved.slide, moved.slide_facing, moved.slide_template) == (True, "left", "medium_straight")
    assert g.state.vehicle("blue").hazards == 2 and used(g, "Maxximum Drift")


def test_maxximum_drift_three_slides_reach_the_long_straight() -> None:
    # three Slides on a Gentle: the Slide template, the Medium Straight or the Long Straight (p.99)
    table = Table()
    g = game(car("blue", 0), car("red", 1, x=700.0), sponsor="maxxine", table=table,
             dice=ScriptedDice(skid=["slide", "slide", "slide"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("gentle", "left"))
    g.decide(RollSkid(3))
    g.decide(PushIt())
    g.decide(SpendShifts())
    p = asked(g, "maxximum_drift")
    assert p.choices == ("slide", "medium_straight", "long_straight")
    assert [plan.slide_template for plan in p.plans] == ["", "medium_straight", "long_straight"]  # the window's
    assert len(p.endings) == 3  # preview: each Slide's Final Position
    g.decide(Declare("long_straight"))
    assert table.plans[-1].slide_template == "long_straight"


def test_maxximum_drift_asks_nothing_for_one_slide() -> None:
    # one Slide stays on the Slide template; a Slide cancelled with the Shift leaves one: no question either
    for faces, spends in ((["slide"], ()), (["slide", "slide", "shift"], (SpendShift(ShiftUse.CANCEL, 0),))):
        table = Table()
        g = game(car("blue", 0), car("red", 1, x=700.0), sponsor="maxxine", table=table,
                 dice=ScriptedDice(skid=faces))
        g.decide(Activate("blue"))
        g.decide(ChooseTemplate("gentle", "left"))
        g.decide(RollSkid(len(faces)))
        g.decide(PushIt())
        g.decide(SpendShifts(spends))
        assert not (isinstance(g.prompt, DeclarePrompt) and g.prompt.perk == "maxximum_drift")
        assert table.plans[-1].slide and table.plans[-1].slide_template == ""


def test_meshuggah() -> None:
    g = game(car("blue", 0), car("pal", 0, x=400.0), car("red", 1, x=700.0), sponsor="maxxine", options=VOTES,
             table=Table({("blue", "pal"): "medium"}), dice=ScriptedDice(skid=["spin"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    g.decide(SpendShifts())
    from simulator.gaslands.decisions import Spin

    g.decide(Spin(20.0))
    answer(g)
    assert gained(g, 0) == 1


# =========================================================================== The Order of the Inferno (p.100)


def test_fire_walk_with_me() -> None:
    # a Flamethrower (Fire) hits Red 4 times; Fire Walk With Me takes 3 off: 1 damage
    g = game(car("blue", 0, weapons=("flamethrower",)), car("red", 1), sponsor="the_order_of_the_inferno",
             dice=ScriptedDice(d6=[4, 4, 4, 4, 1, 1, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("red").damage == 1


def test_burning_man() -> None:
    # Red is On Fire: its Evade die 5 becomes 6 and cancels the one hit
    from dataclasses import replace

    red = replace(car("red", 1), on_fire=True, hazards=1)
    g = game(car("blue", 0, weapons=("machine_gun",)), red, sponsor="the_order_of_the_inferno",
             dice=ScriptedDice(d6=[4, 1, 5]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("red").damage == 0


def test_cult_of_flame() -> None:
    from dataclasses import replace

    blue = replace(car("blue", 0), on_fire=True, hazards=1)
    red = replace(car("red", 1), on_fire=True, hazards=1)
    g = game(blue, red, sponsor="the_order_of_the_inferno", options=VOTES, dice=ScriptedDice(d6=[6, 6]))
    drive(g, "blue")
    finish_attacks(g)
    drive(g, "red")
    finish_attacks(g)
    assert gained(g, 0) == 1 and gained(g, 1) == 1  # every enemy is burning: a vote for each burning friend


# =========================================================================== Beverly (p.100-101)


def test_graveyard_shift() -> None:
    g = game(car("blue", 0), car("ghost", 0, x=300.0), car("red", 1, x=600.0), sponsor="beverly")
    asked(g, "graveyard_shift")
    g.decide(Declare("blue"))
    assert g.state.vehicle("ghost").has("Ghost Rider") and not g.state.vehicle("blue").has("Ghost Rider")


def test_ghost_rider() -> None:
    from simulator.gaslands.perks.sponsors import may_collide, may_shoot, may_win

    g = game(car("blue", 0), car("ghost", 0, x=300.0), car("red", 1, x=600.0), sponsor="beverly")
    answer(g, {"graveyard_shift": "blue"})
    s = g.state
    assert not may_shoot(s, "red", "ghost") and not may_shoot(s, "ghost", "red") and may_shoot(s, "red", "blue")
    assert not may_collide(s, "red", "ghost") and not may_win(s, "ghost")


def test_soul_anchor() -> None:
    g = game(car("blue", 0, weapons=()), car("ghost", 0, x=300.0), car("red", 1, x=600.0, weapons=("machine_gun",)),
             sponsor="beverly", dice=ScriptedDice(d6=[6] * 10 + [1] * 10))
    answer(g, {"graveyard_shift": "blue"})
    from dataclasses import replace

    from simulator.gaslands.engine import _Run
    from simulator.gaslands.perks.reactions import _vehicle_of  # noqa: F401 - the observers are loaded
    from simulator.gaslands.perks.sponsors import _soul_anchor

    run = _Run(g.engine_state, g.dice, g.referee)
    run._put(replace(run.state.vehicle("blue"), status=Status.WRECK))
    _soul_anchor(run, PerkUsed("blue", "Blue", "x", "", ""))
    assert run.state.vehicle("ghost").status is Status.REMOVED


def haunted(*vehicles: VehicleState, votes: tuple[int, int], sponsor: str = "beverly") -> Game:
    """A game with Audience Votes where player 0 is haunted by ``sponsor`` and starts with ``votes``."""
    from simulator.gaslands.state import Loadout
    from tests.gaslands.test_game import FakePermissions

    loadouts = tuple(Loadout(v.id, sponsor if v.player == 0 else "", (), ()) for v in vehicles)
    state = GameState(("Blue", "Red"), tuple(vehicles), RoundState.start(2, pole=0), loadouts=loadouts, votes=votes)
    return Game(state, ScriptedDice(), Table(), FakePermissions(), VOTES)


def test_at_the_crossroads() -> None:
    # Blue lies Wrecked while Pal drives on: 1 Audience Vote brings Blue back (Car: Hull 10, half is 5) as a
    # Ghost Rider (p.101); a Respawn at full price (3, p.90) is not affordable with 1
    blue = replace(car("blue", 0), status=Status.WRECK, damage=10)
    g = haunted(blue, car("pal", 0, x=300.0), car("red", 1, x=600.0), votes=(1, 0))
    p = g.prompt
    assert isinstance(p, VotesPrompt)
    back = [c for c in p.choices if c.effect.effect == "respawn"]
    assert [(c.cost, c.page, c.effect.target) for c in back] == [(1, 101, CROSSROADS)]
    g.decide(SpendVotes((back[0].effect,)))
    b = g.state.vehicle("blue")
    assert (b.status, b.hull_points, b.has("Ghost Rider"), g.state.votes_of(0)) == (Status.ACTIVE, 5, True, 0)
    spent = [e for e in g.log if isinstance(e, VotesSpent)]
    assert spent[-1].ref == "At the Crossroads, p.101" and "Ghost Rider" in spent[-1].detail
    assert not g.state.vehicle("pal").has("Ghost Rider")


def test_at_the_crossroads_or_the_full_price() -> None:
    # with 3 votes both are offered: the Respawn of p.90 (3 votes, alive) and At the Crossroads (1, a ghost)
    blue = replace(car("blue", 0), status=Status.WRECK, damage=10)
    g = haunted(blue, car("pal", 0, x=300.0), car("red", 1, x=600.0), votes=(3, 0))
    p = g.prompt
    assert isinstance(p, VotesPrompt)
    assert sorted(c.cost for c in p.choices if c.effect.effect == "respawn") == [1, 3]
    g.decide(SpendVotes((VoteEffect("respawn", "blue"),)))
    assert not g.state.vehicle("blue").has("Ghost Rider") and g.state.votes_of(0) == 0


def test_inexorable() -> None:
    # Pal is still in play: another team may not respawn Blue (p.90), a team haunted by Beverly may (p.101)
    blue = replace(car("blue", 0), status=Status.WRECK, damage=10)
    plain = haunted(blue, car("pal", 0, x=300.0), car("red", 1, x=600.0), votes=(3, 0), sponsor="rutherford")
    assert not isinstance(plain.prompt, VotesPrompt) or "respawn" not in plain.prompt.effects
    g = haunted(blue, car("pal", 0, x=300.0), car("red", 1, x=600.0), votes=(3, 0))
    assert isinstance(g.prompt, VotesPrompt) and "respawn" in g.prompt.effects


def test_inexorable_lifts_the_scenarios_bans() -> None:
    # Arena of Death has no Respawn (p.130) and Scarper keeps disqualified vehicles out (p.135): not for
    # Inexorable (p.101); a wreck comes back where it lies, a disqualified vehicle by its spawn point
    wreck = replace(car("blue", 0), status=Status.WRECK, damage=10)
    state = GameState(("Blue", "Red"), (wreck, car("red", 1)), RoundState.start(2), votes=(3, 0))
    inexorable = RespawnRights(inexorable=True)
    assert "respawn" not in affordable(state, state.votes, 0, "none")
    assert "respawn" in affordable(state, state.votes, 0, "none", inexorable)
    with pytest.raises(IllegalChoice):
        spend(state, state.votes, 0, (VoteEffect("respawn", "blue"),), respawn="none")
    done = spend(state, state.votes, 0, (VoteEffect("respawn", "blue"),), respawn="none", rights=inexorable)
    assert done.state.vehicle("blue").status is Status.ACTIVE and done.votes == (0, 0)
    gone = replace(state, vehicles=(replace(wreck, status=Status.DISQUALIFIED), car("red", 1)))
    assert "respawn" not in affordable(gone, gone.votes, 0, "spawn")
    back = spend(gone, gone.votes, 0, (VoteEffect("respawn", "blue"),), respawn="spawn", rights=inexorable)
    assert back.state.vehicle("blue").status is Status.UNDEPLOYED
    with pytest.raises(IllegalChoice):  # At the Crossroads is Beverly's alone
        spend(state, state.votes, 0, (VoteEffect("respawn", "blue", target=CROSSROADS),), rights=inexorable)


class Sweep(Table):
    """The open table with each move's movement template: a straight as wide as the car from its front edge to
    the Final Position's front edge (what Soul Harvest looks at)."""

    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        report = super().move(state, vehicle_id, plan)
        v = state.vehicle(vehicle_id)
        front = v.pose.x_mm + v.length_mm / 2
        return replace(report, area=box(front, v.pose.y_mm - v.width_mm / 2, report.pose.x_mm + v.length_mm / 2,
                                        v.pose.y_mm + v.width_mm / 2))


def harvest(*vehicles: VehicleState, options: Options = VOTES) -> Game:
    """Blue and Pal for Beverly (Blue a Ghost Rider, Pal alive), Red for another sponsor, Blue to drive."""
    from simulator.gaslands.state import Loadout
    from tests.gaslands.test_game import FakePermissions

    loadouts = tuple(Loadout(v.id, "beverly" if v.player == 0 else "", (), ()) for v in vehicles)
    state = GameState(("Blue", "Red"), tuple(vehicles), RoundState.start(2, pole=0), loadouts=loadouts)
    g = Game(state, ScriptedDice(), Sweep(), FakePermissions(), options)
    answer(g, {"graveyard_shift": "pal"})
    return g


def souls(g: Game) -> list[SoulTokens]:
    return [e for e in g.log if isinstance(e, SoulTokens)]


def test_soul_harvest() -> None:
    # Blue's Medium Straight (x 130-250) touches Red (x 140-200) and then Pal (x 220-280, 2 Hull lost): a Soul
    # Token from Red, handed to Pal as 2 Hull Points repaired (p.101); then none is left
    g = harvest(car("blue", 0), car("pal", 0, x=250.0, damage=2), car("red", 1, x=170.0))
    assert g.state.vehicle("blue").has("Ghost Rider")
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    g.decide(SpendShifts())
    p = asked(g, "soul_harvest")
    assert p.choices == ("votes", "repair")
    g.decide(Declare("repair"))
    assert g.state.vehicle("pal").damage == 0
    assert [(e.count, e.delta) for e in souls(g)] == [(1, 1), (0, -1)]
    assert soul_tokens(g.state, "blue") == 0 and souls(g)[0].rule == "Soul Harvest, p.101"


def test_soul_harvest_for_audience_votes() -> None:
    g = harvest(car("blue", 0), car("pal", 0, x=250.0), car("red", 1, x=170.0))
    drive(g, "blue", say={"soul_harvest": "votes"})
    assert gained(g, 0) == 1 and soul_tokens(g.state, "blue") == 0


def test_soul_harvest_keeps_tokens_until_a_living_friend_is_touched() -> None:
    # Pal is touched first (x 140-200), with no Soul Token yet; Red after it (x 220-280): one Soul Token kept,
    # on Blue's dashboard; without the Audience Votes module a later friend is repaired without a question
    g = harvest(car("blue", 0), car("pal", 0, x=170.0), car("red", 1, x=250.0))
    drive(g, "blue")
    assert soul_tokens(g.state, "blue") == 1 and not used(g, "Soul Harvest")
    assert dashboard_notes(g.state, "blue") == ("GHOST RIDER", "1 Soul Token")


def test_soul_harvest_counts_an_ignored_enemy_not_a_friend_touched_at_the_start() -> None:
    # Red is a Ghost Rider (ignored by all) and still gives a Soul Token; Pal touches Blue's corner at the start
    # (x 130-190, y 115-145), so touching it again cashes nothing
    red = replace(car("red", 1, x=200.0), rules=frozenset({"Ghost Rider"}))
    pal = replace(car("pal", 0, x=160.0), pose=Pose(160.0, 130.0, 0.0))
    g = harvest(car("blue", 0), pal, red)
    drive(g, "blue")
    assert soul_tokens(g.state, "blue") == 1 and not isinstance(g.prompt, DeclarePrompt)


def test_soul_harvest_without_audience_votes_repairs() -> None:
    g = harvest(car("blue", 0), car("pal", 0, x=250.0, damage=5), car("red", 1, x=170.0), options=Options())
    drive(g, "blue")
    assert g.state.vehicle("pal").damage == 3 and used(g, "Soul Harvest")


def test_bots_play_beverly_and_maxxine_teams_to_the_end() -> None:
    # a Street Race, and Saturday Night Live (Audience Votes, respawns by the spawn points, p.130): the bots
    # harvest souls, respawn At the Crossroads beside a living team-mate, and never shoot a Ghost Rider
    from simulator.scenario.loader import bundled_scenario, load_scenario
    from simulator.scenario.simulate import bot_games

    logs = []
    for name in ("street_race", "saturday_night_live"):
        for g in bot_games(load_scenario(bundled_scenario(f"{name}.toml")), 1, 1, 10, ("beverly", "maxxine"), 50):
            assert g.prompt.kind == "game_over"
            logs.append(g.log)
    tv = logs[-1]
    assert any(isinstance(e, SoulTokens) for e in tv)
    assert any(isinstance(e, VotesSpent) and e.ref == "At the Crossroads, p.101" for e in tv)


# =========================================================================== Rusty's Bootleggers (p.102-103)


def test_party_hard() -> None:
    g = game(car("blue", 0, hazards=3), car("red", 1, hazards=1), sponsor="rustys_bootleggers", options=VOTES,
             table=Table({("blue", "red"): "medium"}))
    drive(g, "blue", "veer")  # no Straight for a Bootlegger (Over the Limit, p.102)
    finish_attacks(g)
    assert gained(g, 0) == 1


def test_dutch_courage() -> None:
    g = game(car("blue", 0, hazards=7), car("red", 1), sponsor="rustys_bootleggers")
    drive(g, "blue", "veer")
    finish_attacks(g)
    assert g.prompt.kind == "activate"  # 7 Hazard Tokens: no Wipeout before 8 (p.102)


def test_as_straight_as_im_able() -> None:
    g = game(car("blue", 0, "war_rig"), car("red", 1), sponsor="rustys_bootleggers")
    g.decide(Activate("blue"))
    g.decide(Declare("no"))  # no Tanker Anchor (p.120)
    g.decide(ChooseTemplate("gentle", "left"))
    assert g.state.vehicle("blue").hazards == 0 and used(g, "As Straight as I'm Able")


def test_over_the_limit() -> None:
    g = game(car("blue", 0, gear=2), car("red", 1), sponsor="rustys_bootleggers")
    g.decide(Activate("blue"))
    p = g.prompt
    assert isinstance(p, TemplatePrompt)
    assert "medium_straight" not in p.options and "veer" in p.options
    assert p.option("veer").manoeuvre.value == "trivial"  # type: ignore[union-attr]


def test_trailer_trash() -> None:
    assert not legal("rustys_bootleggers", TeamVehicle("car"))
    assert legal("rustys_bootleggers", TeamVehicle("war_rig"))


def test_haulage() -> None:
    assert legal("rustys_bootleggers", TeamVehicle("war_rig", upgrades=(Fitting("siphon_pump"),)))


# =========================================================================== upgrades in play (p.83-85, p.103)


def test_nitro_booster_upgrade() -> None:
    table = Table()
    g = game(car("blue", 0), car("red", 1), upgrades={"blue": (("nitro_booster", ""),)}, table=table)
    g.decide(Activate("blue"))
    g.decide(Declare("yes"))
    assert table.forced == ["long_straight"] and g.state.vehicle("blue").hazards == 5
    assert g.state.notes.get("blue:nitro_used") == 1


def test_exploding_ram_upgrade() -> None:
    # Head-On 1 + 1 = 2 dice + 6 for the Exploding Ram = 8 dice; its two 1s cost two Hull Points (p.84)
    g = game(car("blue", 0), car("red", 1), upgrades={"blue": (("exploding_ram", "front"),)},
             table=Table(crash="red", edges=("front", "front")), dice=ScriptedDice(d6=[1, 1, 4, 4, 4, 4, 4, 4, 3, 3]))
    drive(g, "blue")
    assert g.prompt.kind == "react" and g.prompt.options == (Reaction.SMASH, Reaction.EVADE)  # type: ignore[union-attr]
    g.decide(React(Reaction.EVADE))  # the Exploding Ram forces the Smash: Red's turn
    assert g.state.notes.get("blue:exploding_ram_used") == 1 and g.state.vehicle("blue").damage >= 2


def test_siphon_pump_cargo() -> None:
    g = game(car("blue", 0), car("red", 1, hazards=2), upgrades={"blue": (("siphon_pump", ""),)},
             table=Table({("blue", "red"): "short"}))
    drive(g, "blue")
    assert (g.state.vehicle("blue").hazards, g.state.vehicle("red").hazards) == (1, 1)


def test_sourmash_jet_booster_cargo() -> None:
    table = Table()
    g = game(car("blue", 0, hazards=5), car("red", 1), upgrades={"blue": (("sourmash_jet_booster", ""),)},
             table=table)
    drive(g, "blue")
    answer(g)
    assert table.forced == ["long_straight"]


def test_peach_moonshine_cargo() -> None:
    team = Team("T", "rustys_bootleggers", 50, (TeamVehicle("war_rig", weapons=(Fitting("molotov_cocktails"),),
                                                            upgrades=(Fitting("peach_moonshine"),)),))
    state, _ = vehicle_in_play(team, 0, "rig", 0)
    assert state.weapons[0].ammo is None  # never runs out


def test_old_fashioned_corn_liquor_cargo() -> None:
    g = game(car("blue", 0), car("red", 1), upgrades={"red": (("old_fashioned_corn_liquor", ""),)},
             table=Table({("blue", "red"): "medium"}), dice=ScriptedDice(skid=["hazard"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    g.decide(SpendShifts())
    assert g.state.vehicle("blue").hazards == 2


def test_cattle_hammer_cargo() -> None:
    g = game(car("blue", 0, gear=4, hazards=6), car("red", 1), upgrades={"blue": (("cattle_hammer", ""),)},
             dice=ScriptedDice(d6=[2]))
    drive(g, "blue")
    finish_attacks(g)
    assert g.state.vehicle("blue").damage == 0  # Flip check 2 in "Gear 1": no Flip


def test_experimental_nuclear_engine_upgrade() -> None:
    assert statistics(TeamVehicle("car", upgrades=(Fitting("experimental_nuclear_engine"),))).max_gear == 6
    g = game(car("blue", 0, gear=4, hazards=6), car("red", 1),
             upgrades={"blue": (("experimental_nuclear_engine", ""),)}, dice=ScriptedDice(d6=[1, 1]))
    drive(g, "blue")
    finish_attacks(g)
    assert g.state.vehicle("blue").status is Status.REMOVED  # wrecked and exploded (p.84)


# =========================================================================== every rule has a test


NOT_YET: tuple[str, ...] = ()
"""Sponsored Perks the engine does not play yet (named in the perks package)."""


def test_every_sponsored_perk_has_a_test() -> None:
    from simulator.gaslands.perks import SPONSOR_RULES_NOT_YET

    names = {n for n, _ in inspect.getmembers(sys.modules[__name__], inspect.isfunction) if n.startswith("test_")}
    keys = [p.key for s in load_sponsors().values() for p in s.perks]
    missing = sorted(k for k in keys if f"test_{k}" not in names)
    assert missing == sorted(NOT_YET) == sorted(SPONSOR_RULES_NOT_YET)
