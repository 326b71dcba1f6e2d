"""Every perk (p.104-115) in play, by example with scripted dice; sponsor rules and upgrades in test_sponsor_rules.py.

Each perk has a test named ``test_<perk key>`` (checked by the last test), on
the small table of :mod:`tests.gaslands.perk_table`: two players, chosen ranges
between vehicles, and a first move that may crash into a chosen vehicle.
"""

from __future__ import annotations

import inspect
import math
import sys

import pytest

from simulator.errors import IllegalChoice
from simulator.gaslands.collisions import Orientation, Reaction
from simulator.gaslands.decisions import (
    Activate,
    Attack,
    ChooseTemplate,
    Declare,
    DeclareAttacks,
    PushIt,
    React,
    RollSkid,
    SpendShifts,
    Spin,
)
from simulator.gaslands.dice import ScriptedDice, SkidFace
from simulator.gaslands.game import Game, Options
from simulator.gaslands.prompts import DeclarePrompt, SkidPrompt, SpinPrompt, TemplatePrompt
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.gaslands.tables import load_perks
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

# =========================================================================== Aggression (p.104-105)


def test_double_barreled() -> None:
    # two Handguns (Crew Fired) at Red: rolls 3 and 3 hit at +1; Red evades with 1 die (Gear 1) and rolls 1
    g = game(car("blue", 0), car("red", 1, x=300.0), kits={"blue": ("double_barreled",)},
             dice=ScriptedDice(d6=[3, 3, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(-1, "red"), Attack(-1, "red"))))
    assert g.state.vehicle("red").damage == 2


def test_boarding_party() -> None:
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"blue": ("boarding_party",)},
             table=Table(distracted=True))
    drive(g, "blue")
    assert g.prompt.kind == "attacks"  # not Distracted
    plain = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), table=Table(distracted=True))
    drive(plain, "blue")
    assert plain.prompt.kind != "attacks"


def test_battlehammer() -> None:
    # Head-On, Gear 1 + Gear 1 = 2 dice, +3 for its three Hazard Tokens = 5; Red smashes with 2
    dice = ScriptedDice(d6=[1] * 5 + [1, 1])
    g = game(car("blue", 0, hazards=3), car("red", 1), kits={"blue": ("battlehammer",)},
             table=Table(crash="red"), dice=dice)
    drive(g, "blue")
    g.decide(React(Reaction.SMASH))
    g.decide(React(Reaction.SMASH))
    assert dice.exhausted


def test_terrifying_lunatic() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"red": ("terrifying_lunatic",)},
             table=Table({("blue", "red"): "short"}))
    drive(g, "blue")
    assert g.state.vehicle("blue").hazards == 1 and used(g, "Terrifying Lunatic")


def test_grinderman() -> None:
    # Grinderman Smash: 2 dice, both hit (4, 5): 2 Hazard Tokens on Red instead of damage (+2 for the Collision)
    dice = ScriptedDice(d6=[4, 5, 1])
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("grinderman",)}, table=Table(crash="red"), dice=dice)
    drive(g, "blue")
    assert Reaction.GRINDERMAN in g.prompt.options  # type: ignore[operator, union-attr]
    g.decide(React(Reaction.GRINDERMAN))
    g.decide(React(Reaction.EVADE))
    red = g.state.vehicle("red")
    assert (red.damage, red.hazards) == (0, 2 + 2) and used(g, "Grinderman")


def test_murder_tractor() -> None:
    from simulator.gaslands.teams import TeamVehicle, statistics

    assert "Piledriver" in statistics(TeamVehicle("car", perks=("murder_tractor",))).rules


# =========================================================================== Badass (p.105)


def test_powder_keg() -> None:
    # Red (1 Hull left) is hit once and wrecked: Explosion check 5 + 1 = 6 explodes, as a Heavyweight (6 dice)
    dice = ScriptedDice(d6=[6, 1, 1, 5, 1, 1, 1, 1, 1, 1, 1])
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1, damage=9), kits={"red": ("powder_keg",)},
             table=Table({("blue", "red"): "short"}), dice=dice)
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert used(g, "Powder Keg") and dice.exhausted


def test_crowd_pleaser() -> None:
    # 6 Hazard Tokens: a Wipeout in the Wipeout Step (Flip check 6 in Gear 1: no Flip), worth an Audience Vote
    g = game(car("blue", 0, hazards=6), car("red", 1), kits={"blue": ("crowd_pleaser",)},
             dice=ScriptedDice(d6=[6]), options=VOTES)
    drive(g, "blue", attacks=DeclareAttacks())
    assert gained(g, 0) == 1 and g.prompt.kind == "lose_control"


def test_road_warrior() -> None:
    g = game(car("blue", 0, hazards=2, weapons=("machine_gun",)), car("red", 1), kits={"blue": ("road_warrior",)},
             dice=ScriptedDice(d6=[4, 1, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("blue").hazards == 1 and used(g, "Road Warrior")


def test_cover_me() -> None:
    g = game(car("blue", 0, hazards=3), car("pal", 0, x=200.0), car("red", 1, x=400.0),
             kits={"blue": ("cover_me",)}, table=Table({("blue", "pal"): "long"}))
    drive(g, "blue")
    finish_attacks(g, {"cover_me": "pal"})
    assert (g.state.vehicle("blue").hazards, g.state.vehicle("pal").hazards) == (2, 1)


def test_madman() -> None:
    g = game(car("blue", 0, hazards=4), car("red", 1), kits={"blue": ("madman",)},
             table=Table({("blue", "red"): "medium"}))
    drive(g, "blue", say={"madman": "red"})
    assert (g.state.vehicle("blue").hazards, g.state.vehicle("red").hazards) == (3, 1)


# =========================================================================== Built (p.106)


def test_dead_weight() -> None:
    # Blue takes Dead Weight (a Heavyweight now); Red then crashes into it: Red is two classes lighter, so
    # smashes with 2 + 1... dice: Head-On 1 + 1 = 2, -2 for two classes lighter = 0 dice (p.56)
    g = game(car("blue", 0), car("red", 1, "buggy"), kits={"blue": ("dead_weight",)},
             table=Table(crash="blue"), dice=ScriptedDice(d6=[1] * 6))
    drive(g, "blue", say={"dead_weight": "yes"})
    assert g.state.vehicle("blue").hazards == 2
    finish_attacks(g)
    drive(g, "red")
    g.decide(React(Reaction.SMASH))
    g.decide(React(Reaction.SMASH))  # Blue: 2 + 4 (two classes heavier than the buggy) = 6 dice; Red: 0
    assert g.state.vehicle("red").damage == 0


def test_bruiser() -> None:
    dice = ScriptedDice(d6=[1, 1, 1, 1])
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("bruiser",)}, table=Table(crash="red"), dice=dice)
    drive(g, "blue")
    g.decide(React(Reaction.SMASH))
    g.decide(React(Reaction.SMASH))
    assert g.state.vehicle("red").hazards == 2 + 1 and used(g, "Bruiser")


def test_crusher() -> None:
    from simulator.gaslands.teams import TeamVehicle, statistics

    assert "Up and Over" in statistics(TeamVehicle("car", perks=("crusher",))).rules


def test_feel_no_pain() -> None:
    # Blue's Machine Gun: 4, 5 = 2 hits; Red evades 1 (rolls 1): 2 uncancelled, shrugged off
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"red": ("feel_no_pain",)},
             dice=ScriptedDice(d6=[4, 5, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("red").damage == 0 and used(g, "Feel No Pain")


# =========================================================================== Daring (p.107)


def test_chrome_whisperer() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("chrome_whisperer",)},
             dice=ScriptedDice(skid=["hazard", "hazard", "shift"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt((0,)))
    assert g.prompt.kind == "push_it"  # again (p.107)
    g.decide(PushIt((0,)))
    g.decide(PushIt())
    assert g.state.vehicle("blue").hazards == 2


def test_slippery() -> None:
    # Red smashes Blue Head-On: 1 + 1 = 2 dice, -2 = 0 dice; Blue smashes with 2
    dice = ScriptedDice(d6=[1, 1])
    g = game(car("blue", 0), car("red", 1), kits={"red": ("slippery",)}, table=Table(crash="red"), dice=dice)
    drive(g, "blue")
    g.decide(React(Reaction.SMASH))
    g.decide(React(Reaction.SMASH))
    assert dice.exhausted


def test_handbrake_artist() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("handbrake_artist",)},
             dice=ScriptedDice(skid=["spin"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    g.decide(SpendShifts())  # the free Shift of the Trivial straight is not spent
    p = g.prompt
    assert isinstance(p, SpinPrompt) and (p.min_deg, p.max_deg) == (-180.0, 180.0)
    g.decide(Spin(170.0))
    assert round(g.state.vehicle("blue").pose.heading_deg) == 170


# =========================================================================== Horror (p.108)


def test_purifying_flames() -> None:
    g = game(car("blue", 0), car("pal", 0, damage=4), car("red", 1), kits={"blue": ("purifying_flames",)})
    drive(g, "blue", say={"purifying_flames": "pal:2"})
    assert (g.state.vehicle("blue").damage, g.state.vehicle("pal").damage) == (2, 2)


def test_ecstatic_visions() -> None:
    g = game(car("blue", 0), car("pal", 0, hazards=3), car("red", 1), kits={"blue": ("ecstatic_visions",)})
    drive(g, "blue", say={"ecstatic_visions": "pal:3"})
    assert (g.state.vehicle("blue").hazards, g.state.vehicle("pal").hazards) == (3, 0)


def test_angel_of_death() -> None:
    # 2 damage for +2 dice: the Machine Gun rolls 4 dice (1, 1, 1, 4), Red evades with 1 die
    dice = ScriptedDice(d6=[1, 1, 1, 4, 1])
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"blue": ("angel_of_death",)},
             dice=dice)
    drive(g, "blue", say={"angel_of_death": "2"}, attacks=DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("blue").damage == 2 and g.state.vehicle("red").damage == 1 and dice.exhausted


# =========================================================================== Military (p.109)


class Far(Table):
    """Every shot is at Double range (beyond Medium)."""

    def shot(self, state, attacker_id, mount, target_id):  # type: ignore[no-untyped-def]
        from simulator.gaslands.referee import Shot

        return Shot(target_id, False, "double")


def test_dead_eye() -> None:
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"blue": ("dead_eye",)}, table=Far(),
             dice=ScriptedDice(d6=[3, 3, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("red").damage == 2  # 3s hit at +1


def test_loader() -> None:
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"blue": ("loader",)},
             dice=ScriptedDice(d6=[3, 3, 1]))
    drive(g, "blue", say={"loader": "0"})
    assert g.prompt.max_attacks == 1  # type: ignore[union-attr]  # one of the two Crew loads
    g.decide(DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("red").damage == 2 and g.state.vehicle("blue").crew_now == 2


def test_fully_loaded() -> None:
    dice = ScriptedDice(d6=[1, 1, 1, 1, 1, 1, 1, 1])  # Rockets 6 + 1 dice, Red evades with 1
    g = game(car("blue", 0, weapons=("rockets",)), car("red", 1), kits={"blue": ("fully_loaded",)}, dice=dice)
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert dice.exhausted


def test_headshot() -> None:
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"blue": ("headshot",)},
             dice=ScriptedDice(d6=[6, 1, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("red").damage == 3


# =========================================================================== Precision (p.110)


def test_mister_fahrenheit() -> None:
    # Blue has already gained 2 Collision tokens this activation... one Collision gives +2, the cap is 2
    g = game(car("blue", 0), car("red", 1), kits={"red": ("mister_fahrenheit",)}, table=Table(crash="red"),
             dice=ScriptedDice(d6=[1, 1, 1, 1]))
    drive(g, "blue")
    g.decide(React(Reaction.SMASH))
    g.decide(React(Reaction.SMASH))
    assert g.state.vehicle("red").hazards == 2


def test_moment_of_glory() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("moment_of_glory",)},
             dice=ScriptedDice(skid=["hazard", "spin"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(2))
    g.decide(PushIt())
    asked(g, "moment_of_glory")
    g.decide(Declare("all_shift"))
    assert g.prompt.kind == "shifts" and g.prompt.shifts == 3  # type: ignore[union-attr]
    g.decide(SpendShifts())
    assert g.state.vehicle("blue").hazards == 0 and g.state.notes.get("blue:glory") == 1


def test_restraint() -> None:
    # Gear 2, Medium Straight (Trivial: a free Shift) spent to change down: -1 token instead of +1 (p.110)
    g = game(car("blue", 0, gear=2, hazards=2), car("red", 1), kits={"blue": ("restraint",)})
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    g.decide(SpendShifts((SpendShift(ShiftUse.GEAR_DOWN),)))
    blue = g.state.vehicle("blue")
    assert (blue.gear, blue.hazards) == (1, 1) and used(g, "Restraint")


def test_expertise() -> None:
    from simulator.gaslands.teams import TeamVehicle, statistics

    assert statistics(TeamVehicle("car", perks=("expertise",))).handling == 4


def test_trick_driving() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("trick_driving",)})
    g.decide(Activate("blue"))
    p = g.prompt
    assert isinstance(p, TemplatePrompt) and "long_straight" in p.options  # as if in Gear 2 (p.110)
    plain = game(car("blue", 0), car("red", 1))
    plain.decide(Activate("blue"))
    assert "long_straight" not in plain.prompt.options  # type: ignore[operator, union-attr]


def test_easy_rider() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("easy_rider",)}, dice=ScriptedDice(skid=["hazard"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    asked(g, "easy_rider")
    g.decide(Declare("0"))
    g.decide(SpendShifts())
    assert g.state.vehicle("blue").hazards == 0


# =========================================================================== Pursuit (p.111)


def test_on_your_tail() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"red": ("on_your_tail",)}, table=Table({("blue", "red"): "short"}),
             dice=ScriptedDice(skid=["slide"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("gentle", "left"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    g.decide(SpendShifts())
    assert g.state.vehicle("blue").hazards == 1 + 1 and used(g, "On Your Tail")


def test_schadenfreude() -> None:
    g = game(car("blue", 0, hazards=6), car("red", 1, hazards=4), kits={"red": ("schadenfreude",)},
             table=Table({("blue", "red"): "short"}), dice=ScriptedDice(d6=[6]))
    drive(g, "blue")
    finish_attacks(g)
    assert g.state.vehicle("red").hazards == 0 and used(g, "Schadenfreude")


def test_out_run() -> None:
    g = game(car("blue", 0, gear=2), car("red", 1, gear=1), kits={"blue": ("out_run",)},
             table=Table({("blue", "red"): "short"}))
    drive(g, "blue")
    assert g.state.vehicle("red").hazards == 1


def test_pit() -> None:
    # a T-Bone in Blue's activation: Blue declares a PIT (no dice), Red Evades (3 dice, Gear 3); then Blue sends
    # Red off on the Hard turn, Hazardous for Red in Gear 3 (p.111)
    dice = ScriptedDice(d6=[1, 1, 1])
    table = Table(crash="red", orientation=Orientation.T_BONE)
    g = game(car("blue", 0, gear=2), car("red", 1, gear=3), kits={"blue": ("pit",)}, table=table, dice=dice)
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    g.decide(SpendShifts())
    assert Reaction.PIT in g.prompt.options  # type: ignore[operator, union-attr]
    g.decide(React(Reaction.PIT))
    g.decide(React(Reaction.EVADE))
    p = asked(g, "pit")
    assert p.choices == ("hard:left", "hard:right")
    before = g.state.vehicle("red").pose
    g.decide(Declare("hard:left"))
    after = g.state.vehicle("red").pose
    assert round(after.heading_deg - before.heading_deg) == 45 and used(g, "PIT") and dice.exhausted


def test_unnerving_eye_contact() -> None:
    g = game(car("blue", 0, hazards=2), car("red", 1), kits={"red": ("unnerving_eye_contact",)},
             table=Table({("blue", "red"): "short"}))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    with pytest.raises(IllegalChoice, match="Unnerving Eye Contact"):
        g.decide(SpendShifts((SpendShift(ShiftUse.DISCARD_HAZARD),)))


# =========================================================================== Reckless (p.112)


def test_drive_angry() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("drive_angry",)})
    g.decide(Activate("blue"))
    assert g.state.vehicle("blue").hazards == 1 and used(g, "Drive Angry")


def _sides(g: Game, notes: dict[str, int], active: str = "blue") -> tuple[object, object]:
    from dataclasses import replace

    from simulator.gaslands.collisions import Participant
    from simulator.gaslands.engine import _Run
    from simulator.gaslands.perks.combat import participants

    run = _Run(g.engine_state, g.dice, g.referee)
    for key, value in notes.items():
        run.state = replace(run.state, notes=run.state.notes.set(key, value))
    run._active = active
    blue, red = run.state.vehicle("blue"), run.state.vehicle("red")
    return participants(run, Participant("blue", blue.gear, blue.weight), Participant("red", red.gear, red.weight))


def test_hog_wild() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("hog_wild",)})
    a, _ = _sides(g, {"game:wipeout_step:activation": 1})
    assert a.smash_bonus == 2  # type: ignore[attr-defined]
    a, _ = _sides(g, {})
    assert a.smash_bonus == 0  # type: ignore[attr-defined]


def test_in_for_a_penny() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("in_for_a_penny",)})
    a, _ = _sides(g, {"blue:hazards_gained:activation": 6})
    assert a.smash_factor == 2  # type: ignore[attr-defined]
    a, _ = _sides(g, {"blue:hazards_gained:activation": 5})
    assert a.smash_factor == 1  # type: ignore[attr-defined]


def test_dont_come_knocking() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("dont_come_knocking",)}, table=Table(crash="red"),
             dice=ScriptedDice(d6=[1, 1, 1, 1]))
    drive(g, "blue", say={"dont_come_knocking": "yes"})
    g.decide(React(Reaction.SMASH))
    g.decide(React(Reaction.SMASH))
    assert g.state.vehicle("blue").hazards == 4  # the Collision's 2 tokens are undone


def test_biggern_you() -> None:
    # a Car against a Buggy Head-On: 1 + 1 = 2 dice, +2 heavier doubled to +4 = 6; the Buggy 2 - 2 = 0
    dice = ScriptedDice(d6=[1] * 6)
    g = game(car("blue", 0), car("red", 1, "buggy"), kits={"blue": ("biggern_you",)}, table=Table(crash="red"),
             dice=dice)
    drive(g, "blue")
    g.decide(React(Reaction.SMASH))
    g.decide(React(Reaction.SMASH))
    assert dice.exhausted


def test_beerserker() -> None:
    # Red's Beerserker: Blue's Machine Gun hits 3 times (4, 6 = 1 + 2) outside Red's activation: 2 damage
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"red": ("beerserker",)},
             dice=ScriptedDice(d6=[4, 6, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("red").damage == 2


# =========================================================================== Speed (p.113)


def test_hot_start() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("hot_start",)}, dice=ScriptedDice(d6=[6, 4]))
    assert g.state.vehicle("blue").gear == 4  # 6 is above a Car's max Gear 5: rerolled


def test_slipstream() -> None:
    g = game(car("blue", 0, gear=3), car("red", 1, gear=2), kits={"blue": ("slipstream",)},
             table=Table(crash="red", orientation=Orientation.TAILGATE, edges=("front", "rear")))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    g.decide(React(Reaction.SLIPSTREAM))
    blue, red = g.state.vehicle("blue"), g.state.vehicle("red")
    assert (blue.gear, blue.hazards, red.hazards) == (4, 1, 0)


def test_overload() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("overload",)}, dice=ScriptedDice(skid=["shift"] * 4))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    p = g.prompt
    assert isinstance(p, SkidPrompt) and p.max_dice == 4  # Handling 3 + 1
    g.decide(RollSkid(4))
    g.decide(PushIt())
    g.decide(SpendShifts())  # no change up: a Hazard Token
    assert g.state.vehicle("blue").hazards == 1 and used(g, "Overload")


class Gate(Table):
    """Every move passes gate g1."""

    def move(self, state, vehicle_id, plan):  # type: ignore[no-untyped-def]
        from dataclasses import replace

        return replace(super().move(state, vehicle_id, plan), gates=("g1",))


def test_time_extended() -> None:
    from simulator.gaslands.race import Course

    g = game(car("blue", 0, hazards=3), car("red", 1), kits={"blue": ("time_extended",)}, table=Gate(),
             options=Options(course=Course("death_race", ("g1", "g2"), 1, True)))
    drive(g, "blue")
    assert g.state.vehicle("blue").hazards == 0 and used(g, "Time Extended!")


def test_hell_for_leather() -> None:
    from simulator.gaslands.teams import TeamVehicle, statistics

    assert "Full Throttle" in statistics(TeamVehicle("car", perks=("hell_for_leather",))).rules


# =========================================================================== Technology (p.114)


def test_whizbang() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("whizbang",)}, dice=ScriptedDice(d6=[6]))
    assert "hell_for_leather" in g.state.loadout("blue").perks and g.state.vehicle("blue").has("Full Throttle")


def test_gyroscope() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("gyroscope",)}, dice=ScriptedDice(d6=[2]))
    assert "slippery" in g.state.loadout("blue").perks


def test_mobile_mechanic() -> None:
    g = game(car("blue", 0, damage=3), car("red", 1), kits={"blue": ("mobile_mechanic",)})
    drive(g, "blue", say={"mobile_mechanic": "yes"})
    assert g.state.vehicle("blue").damage == 2 and g.prompt.max_attacks == 1  # type: ignore[union-attr]


# =========================================================================== Tuning (p.114-115)


def test_fenderkiss() -> None:
    # Head-On 1 + 1 = 2 dice each, -2 for Fenderkiss on both sides: nobody rolls
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("fenderkiss",)}, table=Table(crash="red"))
    drive(g, "blue")
    g.decide(React(Reaction.SMASH))
    g.decide(React(Reaction.SMASH))
    assert g.state.vehicle("red").damage == g.state.vehicle("blue").damage == 0


def test_delicate_touch() -> None:
    g = game(car("blue", 0, gear=3), car("red", 1), kits={"blue": ("delicate_touch",)})
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("hard", "left"))  # Hazardous in Gear 3
    assert g.state.vehicle("blue").hazards == 0 and used(g, "Delicate Touch")


def test_momentum() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("momentum",)},
             dice=ScriptedDice(skid=["slide", "shift"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    asked(g, "momentum")
    g.decide(Declare("0"))
    assert g.prompt.kind == "shifts" and g.prompt.faces == (SkidFace.SLIDE, SkidFace.SHIFT)  # type: ignore[union-attr]


def test_purring() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("purring",)},
             dice=ScriptedDice(skid=["hazard", "hazard", "hazard"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(3))
    g.decide(PushIt())
    g.decide(SpendShifts())
    assert g.state.vehicle("blue").hazards == 1 and used(g, "Purring")


# =========================================================================== perks deeper in the activation


def _slide_then(g: Game) -> None:
    from simulator.gaslands.decisions import SlideFacing

    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    answer(g)
    g.decide(SpendShifts())
    g.decide(SlideFacing("left"))


def test_bullet_time() -> None:
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"blue": ("bullet_time",)},
             dice=ScriptedDice(skid=["slide"]))
    _slide_then(g)
    asked(g, "bullet_time")
    g.decide(Declare("0"))
    assert g.state.vehicle("blue").weapons[0].facing == "turret"
    finish_attacks(g)
    assert g.state.vehicle("blue").weapons[0].facing == "front"  # back when the activation ends


def test_downshift() -> None:
    table = Table()
    g = game(car("blue", 0, gear=2), car("red", 1), kits={"blue": ("downshift",)}, table=table)
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    g.decide(SpendShifts((SpendShift(ShiftUse.GEAR_DOWN),)))
    asked(g, "downshift")
    g.decide(Declare("yes"))
    assert table.forced == ["short_straight"] and g.state.vehicle("blue").pose.x_mm == 100.0 + 120.0 + 60.0


def test_highway_to_hell() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("highway_to_hell",)})
    drive(g, "blue", say={"highway_to_hell": "yes"})
    blue = g.state.vehicle("blue")
    assert blue.damage == 2 and blue.on_fire and [t.weapon for t in g.state.dropped] == ["napalm_dropper"]
    finish_attacks(g)
    drive(g, "red")
    finish_attacks(g)
    drive(g, "blue")  # its next activation: the trail burns out (p.108)
    assert not g.state.dropped


def test_stunt_driver() -> None:
    table = Table(crash="red")
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("stunt_driver",)}, table=table)
    drive(g, "blue", say={"stunt_driver": "yes"})
    assert table.forced == ["through"] and not table.crashed
    assert g.state.vehicle("blue").hazards == 3 and used(g, "Stunt Driver")


def test_powerslide() -> None:
    # a Slide rolled on a Gentle: Blue picks the Medium Straight as its Slide template and keeps the Slide
    table = Table()
    g = game(car("blue", 0), car("red", 1, x=300.0), kits={"blue": ("powerslide",)}, table=table,
             dice=ScriptedDice(skid=["slide"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("gentle", "left"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    p = asked(g, "powerslide")
    assert p.choices == ("slide", "short_straight", "medium_straight")  # never the Long Straight (p.107)
    g.decide(Declare("medium_straight"))
    assert [plan.slide_template for plan in g.prompt.plans] == ["", "medium_straight"]  # type: ignore[union-attr]
    g.decide(SpendShifts())
    moved = table.plans[-1]
    assert (moved.template, moved.slide, moved.slide_template) == ("gentle", True, "medium_straight")
    assert used(g, "Powerslide")


def test_powerslide_places_the_straight_as_the_slide_template() -> None:
    from simulator.geometry.placement import Move, MoveSpecError, place
    from simulator.geometry.pose import Pose
    from simulator.geometry.templates import load_template_set

    ts = load_template_set()
    start = Pose(0.0, 0.0, 0.0)
    plain = place(ts, start, 90.0, 45.0, Move("gentle", "left", slide=True))
    medium = place(ts, start, 90.0, 45.0, Move("gentle", "left", slide=True, slide_template="medium_straight"))
    assert medium.slide_length_mm == 120.0 and plain.slide_length_mm == ts.slide_length_mm == 50.0
    moved = math.hypot(medium.final_position.x_mm - plain.final_position.x_mm, medium.final_position.y_mm - plain.final_position.y_mm)
    assert moved == pytest.approx(70.0)  # 70 mm further along the Slide
    with pytest.raises(MoveSpecError):
        place(ts, start, 90.0, 45.0, Move("gentle", "left", slide=True, slide_template="veer"))


def test_skiing() -> None:
    # Blue (a Car, Handling 3) skis: +3 Hazard Tokens; Red's Movement Step then ignores Blue, until Blue activates
    table = Table()
    g = game(car("blue", 0), car("red", 1, x=300.0), kits={"blue": ("skiing",)}, table=table, gear_phase=1)
    drive(g, "blue", say={"skiing": "yes"})
    assert g.state.vehicle("blue").hazards == 3 and used(g, "Skiing") and g.state.notes.get("blue:skiing") == 1
    finish_attacks(g)
    drive(g, "red")
    assert table.forced == ["ignoring blue"]
    finish_attacks(g)
    # a Truck (Handling 2) is never asked
    t = game(car("blue", 0, "truck"), car("red", 1), kits={"blue": ("skiing",)})
    t.decide(Activate("blue"))
    t.decide(ChooseTemplate("medium_straight"))
    t.decide(RollSkid(0))
    assert not (isinstance(t.prompt, DeclarePrompt) and t.prompt.perk == "skiing")


def test_skiing_ends_at_its_next_activation() -> None:
    table = Table()
    g = game(car("blue", 0), car("red", 1, x=300.0), kits={"blue": ("skiing",)}, table=table)
    drive(g, "blue", say={"skiing": "yes"})
    finish_attacks(g)
    drive(g, "red")
    finish_attacks(g)
    drive(g, "blue")  # its next activation: the others collide with it again
    assert not g.state.notes.get("blue:skiing") and len(used(g, "Skiing")) == 2
    finish_attacks(g)
    drive(g, "red")
    assert table.forced == ["ignoring blue"]


def test_taunt() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("taunt",)}, table=Table({("blue", "red"): "short"}),
             dice=ScriptedDice(skid=["spin"]))
    drive(g, "blue", say={"taunt": "red"})
    assert g.state.notes.get("red:taunted") == 2
    finish_attacks(g)
    g.decide(Activate("red"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    assert g.prompt.kind == "shifts" and SkidFace.SPIN in g.prompt.faces  # type: ignore[union-attr]


def test_satellite_navigation() -> None:
    g = game(car("blue", 0), car("pal", 0, x=300.0), car("red", 1, x=500.0),
             kits={"blue": ("satellite_navigation",)}, dice=ScriptedDice(skid=["shift"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    asked(g, "satellite_navigation")
    g.decide(Declare("yes"))
    assert g.state.notes.get("team0:satnav") == 1 and g.prompt.shifts == 1  # type: ignore[union-attr]
    g.decide(SpendShifts())
    finish_attacks(g)
    drive(g, "red")
    finish_attacks(g)
    g.decide(Activate("pal"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(0))
    asked(g, "satellite_shifts")
    g.decide(Declare("1"))
    assert g.prompt.shifts == 2 and g.state.notes.get("team0:satnav") == 0  # type: ignore[union-attr]


def test_eureka() -> None:
    dice = ScriptedDice(d6=[4, 4, 1])
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("eureka",)}, dice=dice)
    drive(g, "blue", say={"eureka": "machine_gun:front"})
    assert [m.weapon for m in g.state.vehicle("blue").weapons] == ["machine_gun"]
    g.decide(DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("red").damage == 2 and not g.state.vehicle("blue").weapons and dice.exhausted


def test_rapid_fire() -> None:
    dice = ScriptedDice(d6=[4, 4, 1, 4, 1, 1])
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"blue": ("rapid_fire",)}, dice=dice)
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    asked(g, "rapid_fire")
    g.decide(Declare("0"))
    p = g.prompt
    assert p.kind == "attacks" and [w.mount for w in p.weapons] == [0]  # type: ignore[union-attr]
    with pytest.raises(IllegalChoice, match="Rapid Fire"):
        g.decide(DeclareAttacks((Attack(-1, "red"),)))
    g.decide(DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("red").damage == 3 and dice.exhausted and g.prompt.kind != "declare"


def _flip(perk: str, choice: str) -> tuple[Game, Table]:
    table = Table()
    g = game(car("blue", 0, gear=3, hazards=6), car("red", 1), kits={"blue": (perk,)}, table=table,
             dice=ScriptedDice(d6=[1]))  # Flip check 1 in Gear 3: flips (p.34)
    drive(g, "blue", attacks=DeclareAttacks())
    asked(g, perk)
    g.decide(Declare(choice))
    return g, table


def test_rocket_thrusters() -> None:
    g, table = _flip("rocket_thrusters", "front:long_straight:")
    assert table.forced == ["long_straight"] and g.state.vehicle("blue").pose.x_mm == 100.0 + 120.0 + 182.0


def test_barrel_roll() -> None:
    g, table = _flip("barrel_roll", "left:medium_straight:")
    pose = g.state.vehicle("blue").pose
    assert (round(pose.x_mm), round(pose.y_mm), round(pose.heading_deg)) == (220, 220, 0)


def test_rear_drive() -> None:
    g = game(car("blue", 0), car("red", 1), kits={"blue": ("rear_drive",)}, dice=ScriptedDice(skid=["spin"]))
    g.decide(Activate("blue"))
    g.decide(ChooseTemplate("medium_straight"))
    g.decide(RollSkid(1))
    g.decide(PushIt())
    g.decide(SpendShifts())
    g.decide(Spin(90.0))
    pose = g.state.vehicle("blue").pose  # front edge centre stays at x = 220 + 30, y = 100
    assert (round(pose.x_mm), round(pose.y_mm), round(pose.heading_deg)) == (250, 70, 90)


def test_evasive() -> None:
    # Machine Gun 4, 1: one hit; Red takes 2 tokens for +2 on its Evade die: a 4 becomes 6 and cancels it
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"red": ("evasive",)},
             dice=ScriptedDice(d6=[4, 1, 4]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    asked(g, "evasive")
    g.decide(Declare("2"))
    red = g.state.vehicle("red")
    assert (red.damage, red.hazards) == (0, 2)


def test_sympathy_for_the_devil() -> None:
    # Red borrows Pal's Gear 3: 1 + 3 = 4 Evade dice, all fail; 2 hits go to Red and to Pal
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), car("pal", 1, gear=3, x=400.0),
             kits={"red": ("sympathy_for_the_devil",)}, table=Table({("red", "pal"): "medium"}),
             dice=ScriptedDice(d6=[4, 5, 1, 1, 1, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    asked(g, "sympathy_for_the_devil")
    g.decide(Declare("pal"))
    assert g.state.vehicle("red").damage == 2 and g.state.vehicle("pal").damage == 2


def test_return_fire() -> None:
    # Blue misses (1, 1; Red evades 1); Red shoots back with its Machine Gun and a Handgun: 4, 4 and 1; Blue evades 1
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1, weapons=("machine_gun",)),
             kits={"red": ("return_fire",)}, dice=ScriptedDice(d6=[1, 1, 1, 4, 4, 1, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    asked(g, "return_fire")
    g.decide(Declare("yes"))
    assert g.state.vehicle("blue").damage == 2 and g.state.vehicle("red").hazards == 2


def test_splashback() -> None:
    # Red loses Hull to Blue's Machine Gun (4, 4; evades 1), then sprays Blue: 4 hits, Blue evades 1
    g = game(car("blue", 0, weapons=("machine_gun",)), car("red", 1), kits={"red": ("splashback",)},
             table=Table({("blue", "red"): "medium"}), dice=ScriptedDice(d6=[4, 4, 1, 4, 1]))
    drive(g, "blue", attacks=DeclareAttacks((Attack(0, "red"),)))
    assert g.state.vehicle("blue").damage == 1 and used(g, "Splashback")


def test_violent_manifestation() -> None:
    from simulator.gaslands.engine import _Run
    from simulator.gaslands.events import VoteEffectApplied
    from simulator.gaslands.perks.more import _respawned

    g = game(car("blue", 0), car("red", 1), kits={"red": ("violent_manifestation",)},
             table=Table({("blue", "red"): "medium"}), dice=ScriptedDice(d6=[4, 4, 6, 1, 1]))
    run = _Run(g.engine_state, g.dice, g.referee)
    _respawned(run, VoteEffectApplied("red", "Red", hull_delta=5))  # a Respawn (p.90)
    blue = run.state.vehicle("blue")  # 4 dice (Middleweight): 4, 4, 6, 1 = 4 hits, Blue evades 1
    assert (blue.damage, blue.hazards, blue.on_fire) == (4, 4, True)


# =========================================================================== every perk has a test


def test_every_perk_in_play_has_a_test() -> None:
    from simulator.gaslands.perks import NOT_YET_IN_PLAY

    names = {n for n, _ in inspect.getmembers(sys.modules[__name__], inspect.isfunction) if n.startswith("test_")}
    missing = sorted(k for k in load_perks() if f"test_{k}" not in names)
    assert missing == sorted(NOT_YET_IN_PLAY), f"perks in play without a test_<key>: {missing}"
