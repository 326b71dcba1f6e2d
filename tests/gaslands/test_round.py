"""Gear Phases, qualifying and Pole Position (p.19-20, p.62)."""

from __future__ import annotations

from simulator.gaslands.round import (
    Contender,
    RoundState,
    after_activation,
    after_pass,
    next_gear_phase,
    qualifying,
)


def test_a_car_in_gear_two_qualifies_in_phases_one_and_two() -> None:
    car = Contender("car", 0, 2)
    for phase, expected in [(1, ("car",)), (2, ("car",)), (3, ())]:
        assert qualifying([car], RoundState(1, gear_phase=phase)) == expected  # p.19


def test_an_activated_vehicle_no_longer_qualifies() -> None:
    state = after_activation(RoundState.start(2), "car")
    assert qualifying([Contender("car", 0, 6)], state, player=0) == ()
    assert state.turn == 1


def test_phase_ends_when_everyone_passes_and_pole_passes_clockwise() -> None:
    state = after_pass(after_pass(RoundState.start(2, pole=1)))
    assert state.phase_over
    nxt = next_gear_phase(state, pass_pole=True)
    assert (nxt.gear_phase, nxt.pole, nxt.turn, nxt.activated) == (2, 0, 0, frozenset())


def test_after_phase_six_a_new_round_begins() -> None:
    state = RoundState(players=2, gear_phase=6, activated=frozenset({"x"}))
    nxt = next_gear_phase(state, pass_pole=False)
    assert (nxt.round_no, nxt.gear_phase, nxt.pole) == (2, 1, 0)
