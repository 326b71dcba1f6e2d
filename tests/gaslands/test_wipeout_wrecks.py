"""Wipeouts, Flips, Wrecks and Explosions (p.34-35, p.43-44, p.119-120)."""

from __future__ import annotations

from simulator.gaslands.tables import Weight
from simulator.gaslands.wipeout import flips, plan_wipeout, wipeout_order, wipes_out
from simulator.gaslands.wrecks import explodes, is_wrecked, plan_wreck


def test_six_tokens_wipe_out() -> None:
    assert not wipes_out(5) and wipes_out(6) and wipes_out(8)  # p.34


def test_flip_check_needs_the_gear_or_more() -> None:
    assert flips(5, 4) and not flips(5, 5)  # p.34: Gear 5 needs 5+
    assert not flips(2, 5)  # p.60: Red in Gear 2 rolls 5, no Flip


def test_flip_plan_and_roll_cage() -> None:
    plan = plan_wipeout(4, 1)
    assert (plan.flipped, plan.flip_hits, plan.forced_move, plan.lose_control) == (True, 2, "medium_straight", True)
    assert plan_wipeout(4, 1, roll_cage=True).flip_hits == 0  # p.66


def test_war_rig_jackknifes_and_is_not_pivoted() -> None:
    plan = plan_wipeout(3, 1, articulated=True, ponderous=True)  # p.119-120
    assert (plan.flipped, plan.jackknife, plan.lose_control, plan.forced_move) == (False, True, False, None)


def test_wipeout_order_active_first_then_clockwise() -> None:
    candidates = [("p0a", 0), ("p1a", 1), ("p2a", 2), ("active", 2)]
    assert wipeout_order("active", candidates, active_player=2, players=3) == ("active", "p2a", "p0a", "p1a")


def test_wrecked_at_zero_hull_and_explosion_check() -> None:
    assert not is_wrecked(10, 9) and is_wrecked(10, 10)  # p.43
    assert not explodes(5, 0) and explodes(5, 1) and explodes(1, 0, infinite_ammo=True)  # p.43, p.70


def test_wreck_plan() -> None:
    plan = plan_wreck(Weight.HEAVYWEIGHT, 6, 0)
    assert (plan.exploded, plan.explosion_dice, plan.stays_as_wreck) == (True, 6, False)  # p.44
    assert plan_wreck(Weight.MIDDLEWEIGHT, 2, 0).stays_as_wreck
    assert not plan_wreck(Weight.MIDDLEWEIGHT, 2, 0, in_collision=True).stays_as_wreck  # Twisted Metal p.44
