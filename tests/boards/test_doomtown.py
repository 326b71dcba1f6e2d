"""Doomtown street model, rule by rule (Mouth of Hell rulebook ``seeds/000``: "Table Layout",
"Movin' Around", "Shootin'", "Jobs", Glossary)."""

from __future__ import annotations

import pytest

from simulator.boards import doomtown as dt
from simulator.errors import IllegalChoice

TS = dt.TOWN_SQUARE


def town(*dudes: dt.Dude) -> dt.Town:
    return dt.Town(
        streets=(dt.Street("alice", "alice-home", ("1st-bank", "alice-home", "store")),
                 dt.Street("bob", "bob-home", ("bob-home", "saloon"))),
        out_of_town=(dt.OutOfTown("strike", "alice"),),
        dudes=dudes,
    )


# ---- adjacency


def test_street_neighbours_are_adjacent_and_streets_do_not_wrap() -> None:
    t = town()
    assert dt.adjacent(t, "1st-bank", "alice-home") and dt.adjacent(t, "alice-home", "store")
    assert not dt.adjacent(t, "1st-bank", "store")


def test_streets_are_not_adjacent_to_each_other() -> None:
    assert not dt.adjacent(town(), "store", "bob-home")


def test_town_square_is_adjacent_to_everything_in_town_and_nothing_out_of_town() -> None:
    t = town()
    assert all(dt.adjacent(t, TS, loc) for s in t.streets for loc in s.locations)
    assert not dt.adjacent(t, TS, "strike") and not dt.adjacent(t, "strike", TS)
    assert dt.neighbours(t, "strike") == frozenset()


def test_a_location_is_not_adjacent_to_itself() -> None:
    assert not dt.adjacent(town(), "saloon", "saloon")
    assert not dt.adjacent(town(), TS, TS)


# ---- building the street


def test_deeds_are_added_at_either_end_and_never_jump() -> None:
    t = dt.add_deed(town(), "bob", "church", "left")
    t = dt.add_deed(t, "bob", "smithy", "right")
    assert t.street_of("bob").locations == ("church", "bob-home", "saloon", "smithy")
    assert dt.adjacent(t, "church", "bob-home")
    with pytest.raises(ValueError):
        dt.add_deed(t, "bob", "saloon", "left")


def test_out_of_town_deeds_stand_apart() -> None:
    t = dt.add_out_of_town(town(), "bob", "mine")
    assert "mine" in t.locations and not dt.is_in_town(t, "mine")
    assert dt.owner(t, "mine") == "bob"


def test_destroyed_deed_closes_up_and_its_dudes_go_home_booted() -> None:
    t = town(dt.Dude("erik", "alice", "alice-home"), dt.Dude("bart", "bob", "alice-home"))
    t = dt.add_deed(t, "alice", "school", "right")          # alice-home now has neighbours both sides
    after = dt.destroy(t, "store")
    assert after.street_of("alice").locations == ("1st-bank", "alice-home", "school")
    assert dt.adjacent(after, "alice-home", "school")
    t2 = dt.destroy(dt.add_deed(town(dt.Dude("bart", "bob", "saloon")), "bob", "x", "right"), "saloon")
    assert t2.dude("bart") == dt.Dude("bart", "bob", "bob-home", True)
    assert dt.adjacent(t2, "bob-home", "x")


def test_homes_and_the_town_square_cannot_be_destroyed() -> None:
    with pytest.raises(IllegalChoice):
        dt.destroy(town(), "alice-home")
    with pytest.raises(IllegalChoice):
        dt.destroy(town(), TS)


# ---- moves


def moving_example() -> dt.Town:
    """The "Movin' Around" example street: Casino Morongo next to home, Miss Coutreau's, Sunny Side Hotel."""
    return dt.Town((dt.Street("you", "home", ("sunny-side-hotel", "miss-coutreaus", "casino-morongo", "home")),),
                   dudes=(dt.Dude("dude", "you", "home"),))


def test_rulebook_moving_example() -> None:
    t = moving_example()
    first = dt.move_cost(t, "dude", TS)
    assert first.legal and not first.boots                    # home -> adjacent Town Square: free
    t = dt.move(t, "dude", TS)
    assert dt.move_cost(t, "dude", "sunny-side-hotel") == (True, False, dt.move_cost(
        t, "dude", "sunny-side-hotel").reason)                # Town Square -> adjacent deed: free
    t = dt.move(t, "dude", "sunny-side-hotel")
    assert not t.dude("dude").booted
    assert dt.move_cost(t, "dude", "miss-coutreaus").boots    # adjacent, but not from home/Town Square
    t = dt.move(t, "dude", "home")                            # not adjacent: boots
    assert t.dude("dude") == dt.Dude("dude", "you", "home", True)
    for to in (TS, "casino-morongo"):                         # booted: cannot move even to adjacent
        cost = dt.move_cost(t, "dude", to)
        assert not cost.legal and "booted" in cost.reason
    with pytest.raises(IllegalChoice):
        dt.move(t, "dude", TS)


def test_town_square_to_a_home_boots() -> None:
    t = town(dt.Dude("bart", "bob", TS))
    assert dt.move_cost(t, "bart", "bob-home").boots
    assert not dt.move_cost(t, "bart", "saloon").boots


def test_moves_to_non_adjacent_or_out_of_town_boot() -> None:
    t = town(dt.Dude("erik", "alice", "alice-home"))
    assert dt.move_cost(t, "erik", "saloon").boots
    assert dt.move_cost(t, "erik", "strike") == (True, True, dt.move_cost(t, "erik", "strike").reason)
    assert not dt.move_cost(t, "erik", "alice-home").legal


def test_sent_home_booted_ignores_restrictions() -> None:
    t = town(dt.Dude("bart", "bob", "strike", booted=True), dt.Dude("homer", "bob", "bob-home"))
    assert dt.send_home_booted(t, "bart").dude("bart") == dt.Dude("bart", "bob", "bob-home", True)
    # already home: stays there, still boots
    assert dt.send_home_booted(t, "homer").dude("homer").booted
    assert not any(d.booted for d in dt.unboot_all(t).dudes)


# ---- posses


def job_example() -> dt.Town:
    """The "Job and Shootout Example" positions when the posses are rounded up."""
    return dt.Town(
        streets=(dt.Street("bob", "bob-home", ("bob-home",)),
                 dt.Street("alice", "alice-home", ("dispatch-office", "alice-home", "1st-bank"))),
        dudes=(dt.Dude("nate", "bob", "bob-home"), dt.Dude("reverend", "bob", "bob-home"),
               dt.Dude("tc", "bob", TS), dt.Dude("erik", "alice", "alice-home"),
               dt.Dude("holmes", "alice", "alice-home"), dt.Dude("gabriel", "alice", "1st-bank"),
               dt.Dude("klippstein", "alice", "dispatch-office"),
               dt.Dude("perriwinkle", "alice", "dispatch-office")),
    )


def test_rulebook_job_example_posses() -> None:
    posses = dt.posse_candidates(job_example(), "nate", "1st-bank")
    assert posses.legal and posses.location == "1st-bank"
    assert posses.dealer_side == (dt.Joiner("nate", True), dt.Joiner("reverend", True), dt.Joiner("tc", True))
    assert posses.target_side == (dt.Joiner("erik", True), dt.Joiner("holmes", True),
                                  dt.Joiner("gabriel", False))


def test_job_booted_dudes_join_only_from_the_target_location() -> None:
    t = job_example()
    t = t.with_dude(t.dude("tc")._replace(booted=True))
    t = t.with_dude(t.dude("gabriel")._replace(booted=True))
    posses = dt.job_posses(t, "nate", "1st-bank")
    assert "tc" not in [j.dude for j in posses.dealer_side]
    assert dt.Joiner("gabriel", False) in posses.target_side


def test_job_refusals() -> None:
    t = job_example()
    booted = t.with_dude(t.dude("nate")._replace(booted=True))
    assert not dt.job_posses(booted, "nate", "1st-bank").legal
    assert not dt.job_posses(t, "nate", "reverend").legal             # own dude
    assert dt.job_posses(t, "nate", "gabriel").location == "1st-bank"  # a job on a dude: its location


def test_call_out_posses() -> None:
    t = town(dt.Dude("ace", "alice", "saloon"), dt.Dude("tired", "alice", "saloon", True),
             dt.Dude("sleepy", "alice", TS, True), dt.Dude("fresh", "alice", TS),
             dt.Dude("bart", "bob", "saloon"), dt.Dude("homer", "bob", "bob-home"))
    posses = dt.posse_candidates(t, "ace", "bart")
    assert posses.dealer_side == (dt.Joiner("ace", False), dt.Joiner("tired", False), dt.Joiner("fresh", True))
    assert posses.target_side == (dt.Joiner("bart", False), dt.Joiner("homer", True))


def test_call_out_refusals() -> None:
    t = town(dt.Dude("ace", "alice", "bob-home"), dt.Dude("homer", "bob", "bob-home"),
             dt.Dude("erik", "alice", "bob-home", booted=True), dt.Dude("al", "alice", "bob-home"))
    assert "home" in dt.call_out_posses(t, "ace", "homer").reason
    assert not dt.call_out_posses(t, "erik", "homer").legal
    assert not dt.call_out_posses(t, "ace", "al").legal
