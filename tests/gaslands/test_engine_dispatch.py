"""The engine's shortcuts (issue #13 item 6) say what the plain code says: every resume point has its
handler, the shared template caches hold exactly what the pure functions give, and qualifying reads a
vehicle's state as it reads its Contender."""

from __future__ import annotations

import itertools

from simulator.gaslands.engine import (
    _GO_TO,
    Point,
    _shared_permitted,
    _shared_template_options,
    template_options,
)
from simulator.gaslands.game import Options
from simulator.gaslands.permitted import permitted_templates
from simulator.gaslands.round import RoundState, qualifying
from simulator.gaslands.state import Status
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game, options_for


def test_every_point_resumes_somewhere() -> None:
    assert set(_GO_TO) == set(Point)
    assert all(callable(f) for f in _GO_TO.values())


def test_shared_template_caches_equal_the_pure_functions() -> None:
    sc = load_scenario(bundled_scenario())
    permissions = new_game(sc, 1, options_for(sc, Options())).permissions
    for gear, ft, zc, art in itertools.product(range(1, 7), (False, True), (False, True), (False, True)):
        key = (gear, ft, zc, art, "Red car")
        assert _shared_template_options(permissions, key) == template_options(permissions, *key)
        assert _shared_template_options(permissions, key) is _shared_template_options(permissions, key)
        assert _shared_permitted(permissions, key[:3]) == permitted_templates(permissions, gear, full_throttle=ft,
                                                                              zero_crew=zc)


def test_qualifying_reads_vehicles_as_their_contenders() -> None:
    sc = load_scenario(bundled_scenario())
    state = new_game(sc, 3, options_for(sc, Options())).state
    vehicles = list(state.vehicles)
    vehicles[0] = vehicles[0].__class__(**{**vehicles[0].__dict__, "status": Status.WRECK})
    for gear_phase, turn, activated in itertools.product(range(1, 7), range(len(state.players)),
                                                         (frozenset(), frozenset({vehicles[1].id}))):
        rs = RoundState(len(state.players), gear_phase=gear_phase, turn=turn, activated=activated)
        assert qualifying(vehicles, rs) == qualifying([v.contender() for v in vehicles], rs)
