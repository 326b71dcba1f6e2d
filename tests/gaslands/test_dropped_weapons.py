"""Dropped weapons (p.78-80), Splash and Blitz (p.81-82), and the Collision Windows of forced moves (p.35, p.43)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from simulator.errors import IllegalChoice
from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.collisions import Orientation, Reaction
from simulator.gaslands.decisions import (
    Activate,
    Attack,
    ChooseTemplate,
    DeclareAttacks,
    Drop,
    LoseControl,
    React,
    RollSkid,
    SpendShifts,
)
from simulator.gaslands.dice import ScriptedDice, SeededDice
from simulator.gaslands.events import DropAttacked
from simulator.gaslands.game import Game
from simulator.gaslands.referee import Contact, DropReport, MovePlan, MoveReport, OpenTableReferee
from simulator.gaslands.round import RoundState
from simulator.gaslands.state import DroppedTemplate, GameState, Mount, Status, VehicleState
from simulator.gaslands.table_referee import TableReferee
from simulator.geometry.contact import overlaps, touches
from simulator.geometry.dropped import drop_pose, dropped_polygon, max_offset_mm, move_area, touched_templates
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.templates import load_template_set
from simulator.scenario.loader import load_scenario
from simulator.scenario.saves import decode_decision, encode_decision
from simulator.scenario.setup import initial_state, options_for
from tests.gaslands.test_game import FakePermissions
from tests.gaslands.test_table_referee import car, setup


def two(blue_weapons: tuple[Mount, ...], red_weapons: tuple[Mount, ...] = (), *, red_gear: int = 1,
        pole: int = 0) -> GameState:
    return GameState(
        players=("Blue", "Red"),
        vehicles=(
            replace(VehicleState.new("blue", 0, "car", Pose(300.0, 100.0, 90.0), blue_weapons), gear=1),
            replace(VehicleState.new("red", 1, "car", Pose(300.0, 20.0, 90.0), red_weapons), gear=red_gear),
        ),
        round=RoundState.start(2, pole=pole),
    )


def mine(vid: str = "blue", weapon: str = "mine_dropper", n: int = 1) -> DroppedTemplate:
    return DroppedTemplate(f"drop-{n}", weapon, "small_burst", Pose(300.0, 200.0, 270.0), vid, 0)


class Scripted(OpenTableReferee):
    """Moves end where the OpenTableReferee says and meet the dropped templates listed in ``meets``."""

    def __init__(self, meets: tuple[str, ...] = (), touches: tuple[str, ...] = (), under: tuple[str, ...] = (),
                 splash: tuple[str, ...] = ()) -> None:
        self.meets, self.touches, self.under, self.splash_ids = meets, touches, under, splash

    def move(self, state: GameState, vehicle_id: str, plan: MovePlan) -> MoveReport:
        report = super().move(state, vehicle_id, plan)
        here = tuple(t.id for t in reversed(state.dropped) if t.id in self.meets)
        near = tuple(t.id for t in reversed(state.dropped) if t.id in self.meets + self.touches)
        return replace(report, dropped=here, dropped_touched=near)

    def drop(self, state: GameState, vehicle_id: str, template: str, edge: str, offset_mm: float) -> DropReport:
        report = super().drop(state, vehicle_id, template, edge, offset_mm)  # type: ignore[arg-type]
        return replace(report, under=self.under)

    def splash(self, state: GameState, attacker_id: str, mount: int, target_id: str) -> tuple[str, ...]:
        return (target_id, *self.splash_ids)


def drive(game: Game, vid: str, template: str = "short_straight") -> None:
    game.decide(Activate(vid))
    game.decide(ChooseTemplate(template))
    if game.prompt.kind == "skid":
        game.decide(RollSkid(0))
    if game.prompt.kind == "shifts":
        game.decide(SpendShifts())


# --------------------------------------------------------------------------- geometry


def test_drop_pose_puts_the_near_edge_on_the_rear_or_a_side_edge() -> None:
    ts = load_template_set().shooting["small_burst"]
    car_pose = Pose(100.0, 100.0, 90.0)
    rear = drop_pose(car_pose, 60.0, 30.0, "rear")
    assert rear.x_mm == pytest.approx(100.0) and rear.y_mm == pytest.approx(70.0) and rear.heading_deg == 270.0
    poly = dropped_polygon(ts, rear)
    body = footprint(car_pose, 60.0, 30.0)
    assert touches(poly, body) and not overlaps(poly, body)  # never overlaps its own vehicle (p.78)
    assert poly.bounds[3] == pytest.approx(70.0)
    right = drop_pose(car_pose, 60.0, 30.0, "right", -30.0)
    assert (right.x_mm, right.y_mm, right.heading_deg) == pytest.approx((115.0, 70.0, 0.0))
    assert max_offset_mm(60.0, 30.0, "left", ts.near_width_mm) == pytest.approx(30.0 + ts.near_width_mm / 2)
    with pytest.raises(ValueError, match="p.78"):
        drop_pose(car_pose, 60.0, 30.0, "front")  # type: ignore[arg-type]


def test_touched_templates_overlap_and_touch_in_stack_order() -> None:
    ts = load_template_set().shooting["small_burst"]
    a = dropped_polygon(ts, Pose(0.0, 0.0, 0.0))  # spans x 0..75
    b = dropped_polygon(ts, Pose(200.0, 0.0, 0.0))
    area = move_area(None, Pose(105.0, 0.0, 0.0), 60.0, 30.0)  # rear edge at x = 75: touches a only
    assert touched_templates(area, [("b", b), ("a", a)]) == ((), ("a",))
    area = move_area(footprint(Pose(100.0, 0.0, 0.0), 140.0, 35.0), Pose(300.0, 0.0, 0.0), 60.0, 30.0)
    assert touched_templates(area, [("b", b), ("a", a)]) == (("b", "a"), ("b", "a"))


# --------------------------------------------------------------------------- dropping (p.78)


def test_dropping_leaves_the_template_with_its_owner_and_spends_ammo() -> None:
    game = Game(two((Mount.fitted("mine_dropper", "rear"),)), ScriptedDice(), Scripted(), FakePermissions())
    drive(game, "blue")
    assert game.prompt.kind == "attacks"
    game.decide(DeclareAttacks(drops=(Drop(0, "rear"),)))
    (t,) = game.state.dropped
    assert (t.id, t.weapon, t.template, t.owner, t.player) == ("drop-1", "mine_dropper", "small_burst", "blue", 0)
    blue = game.state.vehicle("blue")
    assert t.pose == pytest.approx(drop_pose(blue.pose, 60.0, 30.0, "rear"))
    assert blue.weapons[0].ammo == 2
    assert game.prompt.kind == "activate"


@pytest.mark.parametrize(("mounts", "drops", "rule"), [
    ((Mount("mine_dropper", "front", 3),), (Drop(0, "rear"),), "p.78"),  # never front-mounted
    ((Mount.fitted("mine_dropper", "rear"),), (Drop(0, "left"),), "p.78"),  # out of its arc
    ((Mount.fitted("mine_dropper", "rear"), Mount.fitted("oil_slick_dropper", "rear")),
     (Drop(0), Drop(1)), "p.78"),  # one dropped weapon per Attack Step
    ((Mount.fitted("mine_dropper", "rear"),), (Drop(0, "rear", 40.0),), "p.78"),  # no longer touching
    ((Mount("mine_dropper", "rear", 0),), (Drop(0),), "Ammo"),
    ((Mount.fitted("sentry_gun", "rear"),), (Drop(0),), "p.77"),  # a model, not a template
])
def test_illegal_drops(mounts: tuple[Mount, ...], drops: tuple[Drop, ...], rule: str) -> None:
    game = Game(two(mounts), ScriptedDice(), Scripted(), FakePermissions())
    drive(game, "blue")
    with pytest.raises(IllegalChoice, match=rule):
        game.decide(DeclareAttacks(drops=drops))
    assert game.state.dropped == () and game.prompt.kind == "attacks"


def test_a_drop_counts_against_the_crew_value() -> None:
    game = Game(two((Mount.fitted("mine_dropper", "rear"),)), ScriptedDice(), Scripted(), FakePermissions())
    drive(game, "blue")
    with pytest.raises(IllegalChoice, match="p.31"):
        game.decide(DeclareAttacks((Attack(-1, "red"), Attack(-1, "red")), (Drop(0),)))  # a car has Crew 2


def test_a_template_dropped_on_a_vehicle_hits_it_in_the_collision_window() -> None:
    """Red sits under the Mines: 4D6 with Blast, Red evades one in Gear 1, then the Mines leave (p.78-79, p.81)."""
    dice = ScriptedDice(d6=[6, 4, 2, 1] + [6])
    game = Game(two((Mount.fitted("mine_dropper", "rear"),)), dice, Scripted(under=("red",)), FakePermissions())
    drive(game, "blue")
    game.decide(DeclareAttacks(drops=(Drop(0),)))
    red = game.state.vehicle("red")
    assert (red.damage, red.hazards) == (2, 2)  # 3 hits, one evaded; Blast: a Hazard Token per hit
    assert game.state.dropped == () and dice.exhausted


# --------------------------------------------------------------------------- later Movement Steps (p.78-80)


def state_with(template: DroppedTemplate, *, red_gear: int = 2) -> GameState:
    s = two((), red_gear=red_gear, pole=1)
    return replace(s, dropped=(template,), drops_made=1)


def test_mines_attack_the_first_vehicle_that_drives_over_them_then_leave() -> None:
    dice = ScriptedDice(d6=[4, 4, 6, 1] + [6, 1])  # 4 hits, Red (Gear 2) evades one
    game = Game(state_with(mine()), dice, Scripted(meets=("drop-1",)), FakePermissions())
    drive(game, "red")
    red = game.state.vehicle("red")
    assert (red.damage, red.hazards) == (3, 3) and game.state.dropped == ()
    assert any("Mine Dropper" in e.text and e.rule == "Dropped Weapons, p.78-79" for e in game.log)
    assert dice.exhausted


def test_napalm_sets_the_vehicle_on_fire() -> None:
    dice = ScriptedDice(d6=[4, 1, 1, 1] + [1, 1])
    game = Game(state_with(mine(weapon="napalm_dropper")), dice, Scripted(meets=("drop-1",)), FakePermissions())
    drive(game, "red")
    red = game.state.vehicle("red")
    assert (red.damage, red.hazards, red.on_fire) == (1, 0, True)


def test_caltrops_are_treacherous_and_attack_once() -> None:
    dice = ScriptedDice(d6=[5, 1] + [1, 1])
    game = Game(state_with(mine(weapon="caltrop_dropper")), dice, Scripted(meets=("drop-1",)), FakePermissions())
    drive(game, "red")
    red = game.state.vehicle("red")
    assert (red.damage, red.hazards) == (1, 2)  # 2 Hazard Tokens for the treacherous surface (p.86)
    assert game.state.dropped == ()


def test_an_oil_slick_is_treacherous_and_stays() -> None:
    oil = replace(mine(weapon="oil_slick_dropper"), template="large_burst")
    game = Game(state_with(oil), ScriptedDice(), Scripted(meets=("drop-1",)), FakePermissions())
    drive(game, "red")
    assert game.state.vehicle("red").hazards == 2 and game.state.dropped == (oil,)


def test_glue_takes_two_gears_but_not_two_activations_in_a_row() -> None:
    glue = replace(mine(weapon="glue_dropper"), template="large_burst")
    s = state_with(glue, red_gear=4)
    game = Game(s, ScriptedDice(), Scripted(meets=("drop-1",)), FakePermissions())
    drive(game, "red", "long_straight")
    red = game.state.vehicle("red")
    assert (red.gear, red.hazards, red.glued) == (2, 2, True)
    game.decide(DeclareAttacks())
    while game.prompt.kind == "activate" and "red" not in game.prompt.options:
        vid = str(game.prompt.options[0])
        drive(game, vid)
        game.decide(DeclareAttacks())
    drive(game, "red")
    red = game.state.vehicle("red")
    assert (red.gear, red.glued) == (2, False)  # immune this activation (p.79)


def test_smoke_touched_gives_a_hazard_token_distracts_and_gives_cover() -> None:
    smoke = replace(mine(weapon="smoke_dropper"), template="large_burst")
    game = Game(state_with(smoke), ScriptedDice(), Scripted(touches=("drop-1",)), FakePermissions())
    drive(game, "red")
    assert game.state.vehicle("red").hazards == 1
    # on a real table: a Smoke template between two cars gives Cover, and touching it distracts (p.80)
    _, state, ref = setup(car("a", "red", 300, 400, 0, '{ type = "machine_gun", arc = "front" }')
                          + car("b", "blue", 550, 400, 0))
    assert ref.shots(state, "a", 0)[0].cover is False
    cloud = DroppedTemplate("drop-1", "smoke_dropper", "large_burst", Pose(400.0, 400.0, 0.0), "b", 1)
    smoky = replace(state, dropped=(cloud,), drops_made=1)
    assert ref.shots(smoky, "a", 0)[0].cover is True
    assert not ref.distracted(smoky, "a")
    touching = replace(smoky, dropped=(replace(cloud, pose=Pose(330.0, 400.0, 0.0)),))
    assert ref.distracted(touching, "a")


def test_stacked_templates_resolve_from_the_top() -> None:
    first, second = mine(n=1), replace(mine(weapon="napalm_dropper", n=2))
    s = replace(two((), red_gear=1, pole=1), dropped=(first, second), drops_made=2)
    dice = ScriptedDice(d6=[4, 1, 1, 1] + [1] + [1, 1, 1, 1] + [1])  # napalm (on top) first, then the mines
    game = Game(s, dice, Scripted(meets=("drop-1", "drop-2")), FakePermissions())
    drive(game, "red")
    attacks = [e for e in game.log if isinstance(e, DropAttacked) and e.vehicle == "red"]
    assert [(e.weapon, e.template_id) for e in attacks] == [("Napalm Dropper", "drop-2"), ("Mine Dropper", "drop-1")]
    assert game.state.vehicle("red").on_fire and game.state.dropped == ()


def test_a_real_table_move_over_a_rear_dropped_mine() -> None:
    """Blue drops Mines behind it; Red, following, drives over them (p.78-79) on the real geometry."""
    sc, state, ref = setup(car("a", "red", 300, 400, 0, '{ type = "mine_dropper", arc = "rear" }')
                           + car("b", "blue", 150, 400, 0))
    report = ref.drop(state, "a", "small_burst", "rear", 0.0)
    assert report.under == ()
    cloud = DroppedTemplate("drop-1", "mine_dropper", "small_burst", report.pose, "a", 0)
    state = replace(state, dropped=(cloud,), drops_made=1)
    move = ref.move(state, "b", MovePlan("short_straight"))
    assert move.dropped == ("drop-1",)
    assert ref.move(state, "a", MovePlan("short_straight")).dropped == ()  # its own template stays behind


# --------------------------------------------------------------------------- Splash and Blitz (p.81-82)


def test_splash_attacks_every_vehicle_under_the_template_separately() -> None:
    state = GameState(
        players=("Blue", "Red"),
        vehicles=(VehicleState.new("blue", 0, "truck", Pose(100.0, 100.0, 0.0), (Mount.fitted("flamethrower", "side"),)),
                  VehicleState.new("red", 1, "car", Pose(100.0, 200.0, 0.0)),
                  VehicleState.new("pink", 1, "car", Pose(150.0, 200.0, 0.0))),
        round=RoundState.start(2),
    )
    dice = ScriptedDice(d6=[4, 1, 1, 1, 1, 1] + [1] + [4, 4, 1, 1, 1, 1] + [1])
    game = Game(state, dice, Scripted(splash=("pink",)), FakePermissions())
    drive(game, "blue")
    game.decide(DeclareAttacks((Attack(0, "red"),)))
    assert game.state.vehicle("red").damage == 1 and game.state.vehicle("pink").damage == 2
    assert game.state.vehicle("red").on_fire and game.state.vehicle("pink").on_fire  # Fire (p.81)
    assert game.state.vehicle("blue").weapons[0].ammo == 2  # one attack, one Ammo Token
    assert dice.exhausted


def test_splash_on_a_real_table_finds_the_vehicles_under_the_template() -> None:
    _, state, ref = setup(car("a", "red", 300, 400, 0, '{ type = "flamethrower", arc = "front" }')
                          + car("b", "blue", 380, 400, 0) + car("c", "blue", 380, 700, 0))
    assert ref.splash(state, "a", 0, "b") == ("b",)
    _, state, ref = setup(car("a", "red", 300, 400, 0, '{ type = "flamethrower", arc = "front" }')
                          + car("b", "blue", 370, 400, 90) + car("c", "blue", 430, 400, 90))
    assert set(ref.splash(state, "a", 0, "b")) == {"b", "c"} and ref.splash(state, "a", 0, "b")[0] == "b"


def test_blitz_attacks_as_many_times_as_ammo_and_crew_allow() -> None:
    game = Game(two((Mount.fitted("grenades"),)), ScriptedDice(d6=[4, 4, 1, 1]), Scripted(), FakePermissions())
    drive(game, "blue")
    game.decide(DeclareAttacks((Attack(0, "red"), Attack(0, "red"))))  # two copies (p.81)
    assert game.state.vehicle("blue").weapons[0].ammo == 3
    assert game.state.vehicle("red").damage == 2 and game.state.vehicle("red").hazards == 2  # Blast


def test_blitz_is_limited_by_ammo_and_other_weapons_attack_once() -> None:
    game = Game(two((Mount("grenades", "crew", 1), Mount.fitted("machine_gun"))), ScriptedDice(), Scripted(),
                FakePermissions())
    drive(game, "blue")
    with pytest.raises(IllegalChoice, match="Ammo"):
        game.decide(DeclareAttacks((Attack(0, "red"), Attack(0, "red"))))
    with pytest.raises(IllegalChoice, match="p.31"):
        game.decide(DeclareAttacks((Attack(1, "red"), Attack(1, "red"))))


# --------------------------------------------------------------------------- forced moves' Collision Windows


class FlipInto(OpenTableReferee):
    """The Flip ends touching Red's rear: a Tailgate in the Flip's Collision Window."""

    def forced_move(self, state: GameState, vehicle_id: str, template: str, *, ignore_obstructions: bool) -> MoveReport:
        report = super().forced_move(state, vehicle_id, template, ignore_obstructions=ignore_obstructions)
        other = next(v.id for v in state.vehicles if v.id != vehicle_id)
        if state.vehicle(other).in_play:
            return replace(report, contacts=(Contact(other, Orientation.TAILGATE, "front", "rear"),))
        return report


def test_the_flip_forced_move_opens_a_collision_window_then_lose_control() -> None:
    s = two((), red_gear=1)
    s = s.with_vehicle(replace(s.vehicle("blue"), gear=3, hazards=6))
    dice = ScriptedDice(d6=[1] + [1, 1, 1])  # Flip check 1 < Gear 3; Blue smashes 3 dice (Gear 3), Red evades 1
    game = Game(s, dice, FlipInto(), FakePermissions())
    drive(game, "blue", "short_straight")
    game.decide(DeclareAttacks())
    p = game.prompt
    assert p.kind == "react" and (p.vehicle_id, p.other_id) == ("blue", "red")  # type: ignore[union-attr]
    game.decide(React(Reaction.SMASH))
    game.decide(React(Reaction.EVADE))
    blue = game.state.vehicle("blue")
    assert blue.damage == 2 and (blue.gear, blue.hazards) == (1, 0)  # Flip hits, then reset (p.35)
    assert game.prompt.kind == "lose_control"  # the interrupted sequence goes on
    game.decide(LoseControl(0.0))
    assert game.prompt.kind == "activate" and dice.exhausted


class SkidInto(OpenTableReferee):
    """A wreck's Skid to a Halt runs into the other car head-on."""

    def forced_move(self, state: GameState, vehicle_id: str, template: str, *, ignore_obstructions: bool) -> MoveReport:
        report = super().forced_move(state, vehicle_id, template, ignore_obstructions=ignore_obstructions)
        if template != "short_straight":
            return report
        other = next(v.id for v in state.vehicles if v.id != vehicle_id)
        return replace(report, contacts=(Contact(other, Orientation.HEAD_ON, "front", "front"),))


def test_skid_to_a_halt_collides_and_the_wreck_is_twisted_metal() -> None:
    s = two((Mount.fitted("machine_gun"),))
    s = s.with_vehicle(replace(s.vehicle("red"), damage=9))
    # Blue's MG: 6, 6 (4 hits), Red evades 1 die: 1 -> 4 damage, Red wrecked. Skid: Head-On, Red smashes
    # (Gears 1 + 1: 2 dice), Blue evades (1 die); Explosion check 1.
    dice = ScriptedDice(d6=[6, 6] + [1] + [1, 1] + [1] + [1])
    game = Game(s, dice, SkidInto(), FakePermissions())
    drive(game, "blue")
    game.decide(DeclareAttacks((Attack(0, "red"),)))
    assert game.prompt.kind == "react" and game.prompt.player == 1  # the skidding wreck reacts first
    game.decide(React(Reaction.SMASH))
    game.decide(React(Reaction.EVADE))
    red = game.state.vehicle("red")
    assert red.status is Status.REMOVED  # involved in a Collision while skidding (Twisted Metal, p.44)
    assert game.state.vehicle("blue").hazards == 2  # the collision's Hazard Tokens (p.57)
    assert game.prompt.kind == "game_over" and dice.exhausted


def test_skid_without_contact_leaves_a_wreck() -> None:
    s = two((Mount.fitted("machine_gun"),))
    s = s.with_vehicle(replace(s.vehicle("red"), damage=9))
    game = Game(s, ScriptedDice(d6=[6, 1] + [1] + [2]), OpenTableReferee(), FakePermissions())
    drive(game, "blue")
    game.decide(DeclareAttacks((Attack(0, "red"),)))
    red = game.state.vehicle("red")
    assert red.status is Status.WRECK and red.pose.y_mm == pytest.approx(80.0)  # skidded 60 mm (p.43)


# --------------------------------------------------------------------------- replay, save, undo


def test_drops_replay_save_and_undo() -> None:
    s = two((Mount.fitted("mine_dropper", "rear"),))
    game = Game(s, SeededDice(5), Scripted(under=("red",)), FakePermissions())
    drive(game, "blue")
    d = DeclareAttacks(drops=(Drop(0, "rear", -5.0),))
    assert decode_decision(encode_decision(d)) == d
    game.decide(d)
    again = Game.replay(5, s, game.decisions, Scripted(under=("red",)), FakePermissions())
    assert again.state == game.state and again.log == game.log
    undone = game.undo(5)
    assert undone.prompt.kind == "attacks" and undone.state.dropped == ()


# --------------------------------------------------------------------------- bots


def test_the_bot_drops_mines_on_an_enemy_following_behind() -> None:
    s = two((Mount.fitted("mine_dropper", "rear"),))  # Red is 80 mm behind Blue
    game = Game(s, ScriptedDice(d6=[1] * 10), Scripted(), FakePermissions())
    drive(game, "blue", "short_straight")
    decision = Bot().decide(game)
    assert isinstance(decision, DeclareAttacks) and decision.drops == (Drop(0, "rear"),)
    assert len(decision.attacks) == 1  # the other crew member still fires a Handgun


def test_the_bot_does_not_drop_without_a_follower_or_on_a_team_mate() -> None:
    s = two((Mount.fitted("mine_dropper", "rear"),))
    s = s.with_vehicle(replace(s.vehicle("red"), pose=Pose(600.0, 20.0, 90.0)))
    game = Game(s, ScriptedDice(), Scripted(), FakePermissions())
    drive(game, "blue", "short_straight")
    assert Bot().decide(game) == DeclareAttacks((Attack(-1, "red"), Attack(-1, "red")))
    pink = replace(VehicleState.new("pink", 0, "car", Pose(300.0, 20.0, 90.0)), id="pink")
    game = Game(replace(s, vehicles=(*s.vehicles, pink)), ScriptedDice(), Scripted(), FakePermissions())
    drive(game, "blue", "short_straight")
    decision = Bot().decide(game)
    assert isinstance(decision, DeclareAttacks) and decision.drops == ()  # a team-mate follows


def test_bot_games_with_dropped_weapons_are_legal_and_deterministic() -> None:
    sc = load_scenario(Path(__file__).resolve().parents[1] / "fixtures" / "street_race_v1.toml")
    kit = (Mount.fitted("machine_gun"), Mount.fitted("mine_dropper", "rear"), Mount.fitted("oil_slick_dropper", "rear"),
           Mount.fitted("grenades"))
    start = initial_state(sc, 3)  # a seed in which a bot drops something
    start = replace(start, vehicles=tuple(replace(v, weapons=kit) for v in start.vehicles))
    options = replace(options_for(sc), round_limit=6)

    def play() -> Game:
        game = Game(start, SeededDice(3), TableReferee(sc.table, sc.template_set), sc.template_set, options)
        return play_bot_game(game, Bot())

    game = play()
    assert game.prompt.kind == "game_over"
    assert any("drops" in e.text for e in game.log)
    again = play()
    assert again.state == game.state and again.log == game.log
    assert all(v.hazards >= 0 and 1 <= v.gear <= v.max_gear for v in game.state.vehicles)
