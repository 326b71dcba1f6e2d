"""A Doomtown turn on the street (``seeds/000``): the "Job and Shootout Example" to its end, and each phase."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.boards import doom_actions as da
from simulator.boards import doom_turn as dtt
from simulator.boards import doomtown as dt
from simulator.boards.board_files import DoomGame, load_board_path
from simulator.errors import IllegalChoice

ROOT = Path(__file__).resolve().parents[2]


def scenario() -> dtt.DoomState:
    game = load_board_path(ROOT / "scenarios" / "doomtown.toml")
    assert isinstance(game, DoomGame)
    return game.state


def run(state: dtt.DoomState, *actions: da.Action) -> dtt.DoomState:
    for action in actions:
        state, _ = dtt.apply(state, action)
    return state


def noon(state: dtt.DoomState, winner: str) -> dtt.DoomState:
    return run(state, da.Lowball(winner=winner), da.EndUpkeep())


def where(state: dtt.DoomState) -> dict[str, tuple[str, bool]]:
    return {d.id: (d.at, d.booted) for d in state.town.dudes}


def test_job_and_shootout_example_to_its_end() -> None:
    """"Job and Shootout Example": Bob's Arson against Alice's 1st Bank, both rounds, to the job's failure.

    Rounding up posses (Jobs): Hunter leads and boots; the Reverend (with him) and T.C. (Town Square,
    adjacent) boot to join. Zarkov and Holmes (Alice's home, next to the bank) boot to defend; Judge
    Gabriel is at the bank and joins without booting; Klippstein and Perriwinkle, two locations away,
    cannot. Round one: Zarkov is aced by his own Ray Gun; Klippstein's ability brings him (booted) and
    Perriwinkle in; Gabriel is sent home. Round two: Bob aces T.C. and the Reverend, then sends Hunter
    home booted: the job fails, and Alice's dudes stay at the bank.
    """
    state = noon(scenario(), "alice")
    state = run(state, da.Pass())                                  # Alice, the Winner, passes first
    assert state.to_act == "bob"
    state = run(state, da.StartJob(dealer="nate", target="1st-bank", name="Arson"))
    fight = state.fight
    assert fight is not None and fight.stage == "dealer_posse" and state.town.dude("nate").booted
    assert {(j.dude, j.boots) for j in fight.dealer_options} == {("reverend", True), ("tc", True)}
    state = run(state, da.Join(dude="reverend"), da.Join(dude="tc"), da.PosseReady())
    fight = state.fight
    assert fight is not None and fight.stage == "target_posse"
    assert [(j.dude, j.boots) for j in fight.target_options] == [("erik", True), ("holmes", True),
                                                                ("gabriel", False)]
    with pytest.raises(IllegalChoice, match="cannot join"):
        run(state, da.Join(dude="klippstein"))
    state = run(state, da.Join(dude="erik"), da.Join(dude="holmes"), da.Join(dude="gabriel"), da.PosseReady())
    assert state.fight is not None and state.fight.stage == "shootout"
    bank = "1st-bank"
    assert {d: where(state)[d] for d in ("nate", "reverend", "tc", "erik", "holmes", "gabriel")} == {
        "nate": (bank, True), "reverend": (bank, True), "tc": (bank, True),
        "erik": (bank, True), "holmes": (bank, True), "gabriel": (bank, False)}
    assert where(state)["klippstein"] == ("dispatch-office", False)
    # Round one.
    state = run(state, da.Ace(dude="erik"), da.CardJoin(dude="klippstein", boots=True),
                da.CardJoin(dude="perriwinkle"), da.SendHome(dude="gabriel"), da.NextRound())
    assert state.fight is not None and state.fight.round == 2
    assert state.fight.target_side == ("holmes", "klippstein", "perriwinkle")
    # Round two.
    state, log = dtt.apply_all(state, [da.Ace(dude="tc"), da.Ace(dude="reverend"), da.SendHome(dude="nate")])
    assert state.fight is None and any("fails" in line for line in log)
    assert [d.id for d in state.boot_hill] == ["erik", "tc", "reverend"]
    assert where(state) == {"nate": ("bob-home", True), "holmes": (bank, True), "gabriel": ("alice-home", True),
                            "klippstein": (bank, True), "perriwinkle": (bank, True)}
    assert bank in state.town.street_of("alice").locations                         # unscathed
    assert dt.controller(state.town, bank) == "alice"
    assert state.to_act == "alice" and state.passes == 0                           # the action passes on


def test_a_job_that_works_sends_the_dealers_posse_home_booted() -> None:
    """Jobs: with no defence the job works; the dealer's survivors go home booted."""
    state = noon(scenario(), "bob")
    state = run(state, da.StartJob(dealer="nate", target="1st-bank"), da.Join(dude="tc"), da.PosseReady(),
                da.PosseReady())
    assert state.fight is None
    assert where(state)["nate"] == ("bob-home", True) and where(state)["tc"] == ("bob-home", True)
    assert where(state)["gabriel"] == ("1st-bank", False)


def test_call_out_refused_runs_home_booted_and_a_booted_target_must_accept() -> None:
    """Shootin': the target may refuse (boots, runs home) unless booted; then both sides may join."""
    state = noon(scenario(), "bob")
    state = run(state, da.Move(dude="tc", to="1st-bank"))               # from the Town Square: free
    assert where(state)["tc"] == ("1st-bank", False) and state.to_act == "alice"
    state = run(state, da.Pass())
    state = run(state, da.CallOut(dealer="tc", target="gabriel"))
    assert state.fight is not None and state.fight.stage == "answer"
    refused = run(state, da.Answer(accept=False))
    assert where(refused)["gabriel"] == ("alice-home", True) and refused.fight is None
    booted = run(state, da.Boot(dude="gabriel"))
    called = run(booted, da.Answer(accept=True))
    assert called.fight is not None and called.fight.stage == "dealer_posse"
    fresh = run(noon(scenario(), "bob"), da.Move(dude="tc", to="1st-bank"), da.Pass(), da.Boot(dude="gabriel"))
    forced = run(fresh, da.CallOut(dealer="tc", target="gabriel"))
    assert forced.fight is not None and forced.fight.stage == "dealer_posse"    # no chance to refuse


def test_call_out_posses_join_from_adjacent_locations_by_booting() -> None:
    state = noon(scenario(), "bob")
    state = run(state, da.Move(dude="tc", to="1st-bank"), da.Pass(), da.CallOut(dealer="tc", target="gabriel"),
                da.Answer(accept=True))
    assert state.fight is not None
    assert {(j.dude, j.boots) for j in state.fight.dealer_options} == set()     # Bob's others are at home
    state = run(state, da.PosseReady())
    assert {(j.dude, j.boots) for j in state.fight.target_options} == {("erik", True), ("holmes", True)}
    state = run(state, da.Join(dude="holmes"), da.PosseReady())
    assert where(state)["holmes"] == ("1st-bank", True)
    state = run(state, da.Ace(dude="tc"))
    assert state.fight is None and where(state)["gabriel"] == ("1st-bank", False)


def test_high_noon_goes_round_until_everyone_passes_then_nightfall_unboots() -> None:
    """Sequence o' Play: one action each, clockwise from the Winner; all pass in a row: Nightfall."""
    state = noon(scenario(), "alice")
    with pytest.raises(IllegalChoice, match="alice's action"):
        run(state, da.Move(dude="nate", to="town_square"))
    state = run(state, da.Move(dude="holmes", to="town_square"))
    assert where(state)["holmes"] == ("town_square", False)                  # home to adjacent: free
    state = run(state, da.Move(dude="nate", to="sunny-side-hotel"))
    assert where(state)["nate"] == ("sunny-side-hotel", True)                # not adjacent: boots
    state = run(state, da.Pass(), da.Pass())
    assert state.phase == dtt.Phase.NIGHTFALL
    state = run(state, da.Nightfall())
    assert state.phase == dtt.Phase.GAMBLING and state.turn == 2
    assert not any(d.booted for d in state.town.dudes)


def test_a_pass_then_an_action_restarts_the_count() -> None:
    state = noon(scenario(), "alice")
    state = run(state, da.Pass(), da.NoonAction(), da.Pass())
    assert state.phase == dtt.Phase.HIGH_NOON and state.passes == 1


def test_rulebook_moving_example_in_the_turn() -> None:
    """Movin' Around: home to the Town Square free, on to the Sunny Side Hotel free, back home boots."""
    state = noon(scenario(), "bob")
    state = run(state, da.Move(dude="nate", to="town_square"), da.Pass())
    state = run(state, da.Move(dude="nate", to="sunny-side-hotel"), da.Pass())
    assert where(state)["nate"] == ("sunny-side-hotel", False)
    state = run(state, da.Move(dude="nate", to="bob-home"), da.Pass())
    assert where(state)["nate"] == ("bob-home", True)
    with pytest.raises(IllegalChoice, match="booted dude cannot move"):
        run(state, da.Move(dude="nate", to="town_square"))


def test_control_by_influence_tie_goes_to_the_owner() -> None:
    """Controllin' Deeds / Glossary: the most Influence controls; a tie (even 0-0) leaves it to the owner."""
    state = scenario()
    town = state.town
    assert dt.controller(town, "1st-bank") == "alice"                    # Judge Gabriel's 2 Influence
    town = town.with_dude(town.dude("tc")._replace(at="1st-bank", influence=3))
    assert dt.controller(town, "1st-bank") == "bob"
    town = town.with_dude(town.dude("gabriel")._replace(influence=3))
    assert dt.controller(town, "1st-bank") == "alice"                    # 3-3: the owner keeps it
    town = town.with_dude(town.dude("tc")._replace(at="casino-morongo", influence=0))
    town = town.with_dude(town.dude("gabriel")._replace(at="casino-morongo", influence=0))
    assert dt.influence_at(town, "casino-morongo") == {"bob": 0, "alice": 0}
    assert dt.controller(town, "casino-morongo") == "bob"               # 0-0: the owner
    assert dt.controller(town, "bob-home") == "bob" and dt.controller(town, dt.TOWN_SQUARE) is None


def test_shopping_brings_dudes_home_unbooted_and_deeds_to_an_end() -> None:
    """Shoppin': dudes start at home unbooted; deeds go at one end of the street."""
    state = noon(scenario(), "bob")
    state = run(state, da.Shop(card="dude", id="new-gun", influence=1, name="New Gun"))
    assert where(state)["new-gun"] == ("bob-home", False) and state.name("new-gun") == "New Gun"
    state = run(state, da.Shop(card="deed", id="saloon", end="left", control_points=1))
    assert state.town.street_of("alice").locations[0] == "saloon" and state.town.points_of("saloon") == 1
    with pytest.raises(IllegalChoice, match="already in play"):
        run(state, da.Pass(), da.Shop(card="deed", id="saloon"))


def test_victory_at_nightfall_needs_more_points_than_any_others_influence() -> None:
    """Winnin' the Game: at the start of Nightfall, Control plus Victory Points above every other Influence."""
    state = noon(scenario(), "bob")
    inf = dtt.standing(state)
    assert inf["bob"] == (4, 1, 0) and inf["alice"] == (5, 4, 0)         # Infl, CP (the deeds they hold), VP
    assert dtt.champion(state) is None
    state = run(state, da.AdjustVictory(player="bob", delta=5))
    assert dtt.champion(state) == "bob"                                  # 1 + 5 > Alice's 5 Influence
    state = run(state, da.Pass(), da.Pass())
    assert state.phase == dtt.Phase.OVER and state.champion == "bob"
    with pytest.raises(IllegalChoice, match="over"):
        run(state, da.Nightfall())


def test_destroying_a_deed_in_the_turn_sends_its_dudes_home_booted() -> None:
    state = run(scenario(), da.Destroy(deed="1st-bank"))
    assert where(state)["gabriel"] == ("alice-home", True)
    with pytest.raises(IllegalChoice, match="not a deed"):
        run(state, da.Destroy(deed="1st-bank"))
