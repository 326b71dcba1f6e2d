"""Audience Votes (p.88-90): gaining, spending, each effect, and the switch."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulator.errors import IllegalChoice
from simulator.gaslands.audience import (
    VoteEffect,
    affordable,
    audience_table,
    gain_at_round_start,
    gain_for_wreck,
    spend,
)
from simulator.gaslands.decisions import Activate, SpendVotes
from simulator.gaslands.dice import SeededDice
from simulator.gaslands.game import Game, Options
from simulator.gaslands.state import Status
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.saves import from_json, to_json
from simulator.scenario.setup import new_game

SCENARIO = load_scenario(bundled_scenario())


def game(votes: tuple[int, int] = (0, 0), audience: bool = True):  # type: ignore[no-untyped-def]
    g = new_game(SCENARIO, 3, Options(audience_votes=audience, round_limit=5))
    return g, replace(g.state, votes=votes)


def test_costs_are_the_books_p89_90() -> None:
    costs = {k: e.cost for k, e in audience_table().effects.items()}
    assert costs == {"burn_rubber": 1, "thunderous_applause": 1, "executive_intervention": 2, "reload": 2,
                     "carpe_diem": 2, "respawn": 3}


def test_gains_p88() -> None:
    _, state = game()
    assert gain_for_wreck((0, 0), 1) == (0, 1)
    wrecked = replace(state, vehicles=tuple(replace(v, status=Status.WRECK) if v.player == 0 else v
                                            for v in state.vehicles))
    assert gain_at_round_start(wrecked, (0, 0)) == (2, 0)


def test_thunderous_applause_removes_d6_tokens() -> None:
    _, state = game((1, 0))
    car = next(v for v in state.vehicles if v.player == 0)
    state = state.with_vehicle(replace(car, hazards=5))
    out = spend(state, state.votes, 0, (VoteEffect("thunderous_applause", car.id),), d6=4)
    assert out.state.vehicle(car.id).hazards == 1 and out.votes == (0, 0)


def test_executive_intervention_only_on_enemies() -> None:
    _, state = game((2, 0))
    mine = next(v for v in state.vehicles if v.player == 0)
    theirs = next(v for v in state.vehicles if v.player == 1)
    out = spend(state, state.votes, 0, (VoteEffect("executive_intervention", theirs.id),))
    assert out.state.vehicle(theirs.id).hazards == 5
    with pytest.raises(IllegalChoice, match="not yours|yours"):
        spend(state, state.votes, 0, (VoteEffect("executive_intervention", mine.id),))


def test_burn_rubber_changes_gear_with_a_token() -> None:
    _, state = game((1, 0))
    car = next(v for v in state.vehicles if v.player == 0)
    out = spend(state, state.votes, 0, (VoteEffect("burn_rubber", car.id, gear_change=1),))
    assert out.state.vehicle(car.id).gear == car.gear + 1
    assert out.state.vehicle(car.id).hazards == car.hazards + 1


def test_cannot_overspend() -> None:
    _, state = game((1, 0))
    with pytest.raises(IllegalChoice, match="votes needed"):
        spend(state, state.votes, 0, (VoteEffect("carpe_diem", player=1),))


def test_respawn_needs_no_vehicle_in_play_p90() -> None:
    _, state = game((3, 0))
    assert "respawn" not in affordable(state, state.votes, 0)
    gone = replace(state, vehicles=tuple(replace(v, status=Status.WRECK, damage=v.hull) if v.player == 0 else v
                                         for v in state.vehicles))
    assert "respawn" in affordable(gone, gone.votes, 0)
    wreck = next(v for v in gone.vehicles if v.player == 0)
    out = spend(gone, gone.votes, 0, (VoteEffect("respawn", wreck.id),))
    back = out.state.vehicle(wreck.id)
    assert back.in_play and back.hull_points == wreck.hull // 2


def test_engine_offers_votes_before_activating_and_replays() -> None:
    g = new_game(SCENARIO, 3, Options(audience_votes=True, round_limit=5))
    assert g.state.votes == (0, 0) and g.prompt.kind == "activate"  # nothing to spend yet
    g2 = Game(replace(g.initial_state, votes=(1, 1)), SeededDice(3), g.referee, g.permissions, g.options)
    assert g2.prompt.kind == "votes" and "thunderous_applause" in g2.prompt.options
    g2.decide(SpendVotes(()))
    assert g2.prompt.kind == "activate"
    g2.decide(Activate(str(g2.prompt.options[0])))
    assert g2.prompt.kind == "template"


def test_module_off_never_asks() -> None:
    g = new_game(SCENARIO, 3, Options(audience_votes=False, round_limit=5))
    assert g.state.votes == () and g.prompt.kind == "activate"


def test_save_keeps_the_switch() -> None:
    g = new_game(SCENARIO, 3, Options(audience_votes=True, round_limit=5))
    again = from_json(to_json(g))
    assert again.options.audience_votes and again.state.votes == (0, 0)
