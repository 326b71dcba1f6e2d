"""Slaughter Gulch board model, rule by rule (rulebook ``seeds/004``; grid model ``BOARDS.md``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.boards import slaughter_gulch as sg
from simulator.errors import IllegalChoice

LAYOUT = ["jail", "general_store", "hotel_saloon", "doctors_office", "telegraph_office",
          "bank", "church", "stable", "theater", "graveyard"]


@pytest.fixture
def board() -> sg.Board:
    return sg.layout_board(LAYOUT)


def dude(at: str, **kw: bool) -> sg.Dude:
    return sg.Dude("d", "texas_rangers", at, **kw)


# ---- Game Setup


def test_seeded_setup_replays_and_keeps_rail_station_and_mine_at_the_ends() -> None:
    a, b = sg.setup_seeded(4, 7), sg.setup_seeded(4, 7)
    assert a == b
    assert sorted(a.top + a.bottom) == sorted(sg.BUILDING_TILES)
    assert a.buildings[0] == sg.RAIL_STATION and a.buildings[a.columns + 1] == sg.MINE
    assert a.cells(sg.RAIL_STATION) == {sg.Cell(r, -1) for r in range(-1, 3)}
    assert a.cells(sg.MINE) == {sg.Cell(r, 5) for r in range(-1, 3)}


def test_different_seeds_give_different_towns() -> None:
    assert len({sg.setup_seeded(4, s) for s in range(10)}) > 1


def test_two_player_game_removes_four_tiles_rows_of_three_disks_one_to_eight() -> None:
    b = sg.setup(2, random.Random(3))
    assert b.columns == 3
    assert not set(b.top + b.bottom) & set(sg.TWO_PLAYER_REMOVED)
    assert sorted(b.number(x) for x in b.buildings) == list(range(1, 9))


def test_setup_refuses_a_bad_player_count() -> None:
    with pytest.raises(ValueError):
        sg.setup(7, random.Random(0))


def test_board_refuses_repeated_or_unknown_tiles() -> None:
    with pytest.raises(ValueError):
        sg.Board(("jail", "jail"), ("bank", "church"))
    with pytest.raises(ValueError):
        sg.Board(("saloon",), ("bank",))


def test_numbering_runs_clockwise_from_the_rail_station(board: sg.Board) -> None:
    assert [board.number(b) for b in ("rail_station", "jail", "telegraph_office", "mine")] == [1, 2, 6, 7]
    # the bottom row runs right to left
    assert [board.number(b) for b in ("graveyard", "theater", "bank")] == [8, 9, 12]
    with pytest.raises(KeyError):
        board.number("street:0:0")


def test_doors(board: sg.Board) -> None:
    assert board.doors("hotel_saloon") == ("street:0:2",)
    assert board.doors("stable") == ("street:1:2",)
    assert board.doors("rail_station") == ("street:0:0", "street:1:0")
    assert board.doors("mine") == ("street:0:4", "street:1:4")


# ---- Events / Automatic Actions / The Jail / Control


def test_townsfolk_go_to_the_building_numbered_by_2d6(board: sg.Board) -> None:
    assert sg.townsfolk_destination(board, (3, 4)) == "mine"
    assert sg.townsfolk_destination(board, (1, 1)) == "jail"


def test_two_player_rolls_over_eight_are_rerolled() -> None:
    board = sg.layout_board(["jail", "general_store", "hotel_saloon", "doctors_office", "telegraph_office",
                             "graveyard"])
    assert sg.townsfolk_destination(board, (5, 5)) is None
    assert sg.place_townsfolk(board, [(6, 6), (5, 4), (2, 2)]) == board.at_number(4)
    with pytest.raises(ValueError):
        sg.place_townsfolk(board, [(6, 6)])


def test_deputy_moves_to_the_next_number_and_wraps(board: sg.Board) -> None:
    assert sg.deputy_next(board, "jail") == "general_store"
    assert sg.deputy_next(board, "bank") == "rail_station"
    town = sg.Town(board, (), deputy="jail")
    assert sg.end_round(town).deputy == "general_store"
    assert sg.end_round(sg.Town(board, ())).deputy is None


def test_jail_has_three_cells(board: sg.Board) -> None:
    town = sg.Town(board, tuple(sg.Dude(f"d{i}", "agency", "street:0:0") for i in range(4)))
    for i in range(3):
        town = sg.send_to_jail(town, f"d{i}")
    assert len(sg.jailed(town)) == 3
    assert not sg.can_jail(town).legal
    with pytest.raises(IllegalChoice):
        sg.send_to_jail(town, "d3")


def test_control_by_majority_with_townsfolk_counting(board: sg.Board) -> None:
    # Control of Buildings example: 2 of yours, 1 townsfolk, 1 other outfit -> you control.
    dudes = (sg.Dude("r1", "rangers", "bank"), sg.Dude("r2", "rangers", "bank"), sg.Dude("h1", "hucksters", "bank"))
    town = sg.Town(board, dudes, townsfolk=(sg.Folk("t1", "bank"),))
    assert sg.controller(town, "bank") == "rangers"
    # another townsfolk arrives: a tie, nobody controls
    assert sg.controller(town.add_folk("bank"), "bank") is None
    assert sg.controller(town, "street:0:0") is None


def test_the_deputy_counts_as_townsfolk_and_jailed_dudes_do_not_count(board: sg.Board) -> None:
    town = sg.Town(board, (sg.Dude("r1", "rangers", "jail"), sg.Dude("h1", "hucksters", "jail", in_cell=True)),
                   deputy="jail")
    assert sg.figures_at(town, "jail") == {"rangers": 1, "townsfolk": 1}
    assert sg.controller(town, "jail") is None


# ---- Movement


def test_two_spaces_orthogonally(board: sg.Board) -> None:
    moves = sg.legal_moves(board, dude("street:0:0"))
    assert {"street:0:0", "street:0:1", "street:0:2", "street:1:0", "street:1:1"} <= moves
    assert "street:0:3" not in moves and "street:1:2" not in moves


def test_no_diagonal_step(board: sg.Board) -> None:
    assert sg.distance(board, "street:0:0", "street:1:1") == 2
    assert sg.path(board, "street:0:0", "street:1:1") in (
        ("street:0:0", "street:0:1", "street:1:1"), ("street:0:0", "street:1:0", "street:1:1"))


def test_building_to_building_goes_through_the_street(board: sg.Board) -> None:
    assert sg.path(board, "jail", "general_store") == ("jail", "street:0:0", "street:0:1", "general_store")
    assert "general_store" not in sg.legal_moves(board, dude("jail"))


def test_home_leads_only_onto_a_street_square(board: sg.Board) -> None:
    moves = sg.legal_moves(board, dude("home"))
    assert moves == {"home", *board.streets}
    verdict = sg.check_plan(board, dude("home"), sg.Plan("bank"))
    assert not verdict.legal and "Home Movement" in verdict.reason


def test_straight_home_from_any_building(board: sg.Board) -> None:
    assert all("home" in sg.legal_moves(board, dude(b)) for b in board.buildings)
    assert "home" not in sg.steps_from(board, "street:0:1", first_step=True)
    assert sg.distance(board, "graveyard", "home") == 1


def test_a_move_that_enters_home_ends_there(board: sg.Board) -> None:
    # jail -> home -> street:1:4 would be two spaces, but home ends the move
    assert "street:1:4" not in sg.legal_moves(board, dude("jail"))


def test_run_allows_four_spaces_but_not_when_wounded(board: sg.Board) -> None:
    assert "street:0:4" in sg.legal_moves(board, dude("street:0:0"), run=True)
    assert "street:0:4" not in sg.legal_moves(board, dude("street:0:0", wounded=True), run=True)
    assert sg.allowance(dude("bank", wounded=True), True)[0] == 2


def test_dead_and_jailed_dudes_stay(board: sg.Board) -> None:
    assert sg.legal_moves(board, dude("jail", in_cell=True)) == {"jail"}
    assert sg.legal_moves(board, dude("graveyard", dead=True)) == {"graveyard"}
    assert not sg.check_plan(board, dude("jail", in_cell=True), sg.Plan("street:0:0")).legal


def test_illegal_plan_leaves_the_dude_where_it_is(board: sg.Board) -> None:
    town = sg.Town(board, (sg.Dude("a", "agency", "street:0:0"), sg.Dude("b", "agency", "street:0:4")))
    moved, verdicts = sg.resolve_plans(town, {"a": sg.Plan("graveyard"), "b": sg.Plan("mine")})
    assert not verdicts["a"].legal and "Movement" in verdicts["a"].reason
    assert moved.dude("a").at == "street:0:0"
    assert moved.dude("b").at == "mine"


def test_rulebook_movement_example(board: sg.Board) -> None:
    """"Movement" example: three Texas Rangers pawns; two move, one keeps its place at the Mine."""
    town = sg.Town(board, (sg.Dude("r1", "texas_rangers", "mine"), sg.Dude("r2", "texas_rangers", "street:0:1"),
                           sg.Dude("r3", "texas_rangers", "home")))
    plans = {"r1": sg.Plan("mine"), "r2": sg.Plan("hotel_saloon"), "r3": sg.Plan("street:1:3")}
    moved, verdicts = sg.resolve_plans(town, plans)
    assert all(v.legal for v in verdicts.values())
    assert [d.at for d in moved.dudes] == ["mine", "hotel_saloon", "street:1:3"]


def test_plans_are_judged_from_the_start_position(board: sg.Board) -> None:
    # both plan into the same space at once: simultaneous, nobody blocks anybody
    town = sg.Town(board, (sg.Dude("a", "agency", "street:0:1"), sg.Dude("b", "blessed", "street:0:3")))
    moved, _ = sg.resolve_plans(town, {"a": sg.Plan("hotel_saloon"), "b": sg.Plan("hotel_saloon")})
    assert {d.at for d in moved.dudes} == {"hotel_saloon"}


# ---- property: every legal move path is within the allowance, orthogonal, through doors

LOCATIONS = st.sampled_from(sg.layout_board(LAYOUT).locations)


def _orthogonal(a: sg.Cell, b: sg.Cell) -> bool:
    return abs(a.row - b.row) + abs(a.col - b.col) == 1


def _step_is_legal(board: sg.Board, a: str, b: str) -> bool:
    """An independent check of one step: by grid cells, not by the model's door table."""
    if sg.HOME in (a, b):
        return (a == sg.HOME and board.is_street(b)) or (b == sg.HOME and board.is_building(a))
    if board.is_building(a) and board.is_building(b):
        return False                       # through a wall
    return any(_orthogonal(x, y) for x in board.cells(a) for y in board.cells(b))


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), start_index=st.integers(0, 30),
       run=st.booleans(), wounded=st.booleans())
def test_every_legal_move_path_is_within_allowance_and_orthogonal(players: int, seed: int, start_index: int,
                                                                  run: bool, wounded: bool) -> None:
    board = sg.setup_seeded(players, seed)
    start = board.locations[start_index % len(board.locations)]
    d = sg.Dude("d", "o", start, wounded=wounded)
    limit, _ = sg.allowance(d, run)
    for to in sg.legal_moves(board, d, run):
        route = sg.path(board, start, to)
        assert route is not None and route[0] == start and route[-1] == to
        assert len(route) - 1 <= limit
        assert all(_step_is_legal(board, a, b) for a, b in zip(route, route[1:], strict=False))
        assert sg.HOME not in route[1:-1]
        assert sg.check_plan(board, d, sg.Plan(to, run)).legal


# ---- Shootin' and Fightin'


def test_street_sees_eight_neighbours(board: sg.Board) -> None:
    seen = sg.visible_from(board, "street:0:2")
    assert {"general_store", "hotel_saloon", "doctors_office", "street:0:1", "street:0:3", "street:1:1",
            "street:1:2", "street:1:3"} <= seen
    assert "stable" not in seen and "street:0:4" not in seen


def test_no_shooting_into_a_building(board: sg.Board) -> None:
    verdict = sg.can_shoot(board, "street:0:2", "hotel_saloon")
    assert sg.can_see(board, "street:0:2", "hotel_saloon") and not verdict.legal
    assert "into a building" in verdict.reason


def test_from_a_building_only_the_door_and_beside_it(board: sg.Board) -> None:
    assert sg.visible_from(board, "hotel_saloon") == {"hotel_saloon", "street:0:1", "street:0:2", "street:0:3"}
    assert sg.can_shoot(board, "hotel_saloon", "street:0:3").legal
    assert sg.visible_from(board, "rail_station") >= {"street:0:0", "street:0:1", "street:1:0", "street:1:1"}


def test_dynamite_into_any_building_but_the_jail(board: sg.Board) -> None:
    assert sg.can_shoot(board, "street:0:1", "general_store", sg.DYNAMITE).legal
    assert not sg.can_shoot(board, "street:0:0", "jail", sg.DYNAMITE).legal


def test_long_range_counts_squares(board: sg.Board) -> None:
    rifle = sg.Weapon("rifle", "long_range", 3)
    assert sg.range_squares(board, "street:0:0", "street:1:3") == 3
    assert sg.can_shoot(board, "street:0:0", "street:1:3", rifle).legal
    assert not sg.can_shoot(board, "street:0:0", "street:1:4", rifle).legal
    assert sg.range_squares(board, "street:0:0", "bank") is None


def test_home_sees_nothing(board: sg.Board) -> None:
    assert sg.visible_from(board, "home") == frozenset()
    assert not sg.can_shoot(board, "home", "street:0:0").legal


def test_dynamite_never_goes_into_the_jail_even_from_inside(board: sg.Board) -> None:
    """Item Cards: dynamite may not be thrown into the Jail; standing in the Jail does not change that."""
    verdict = sg.can_shoot(board, "jail", "jail", sg.DYNAMITE)
    assert not verdict.legal and "Jail" in verdict.reason
    assert sg.can_shoot(board, "jail", "jail", sg.PISTOL).legal          # a gun within the space is fine


def test_long_range_fires_out_of_a_building_at_what_it_sees(board: sg.Board) -> None:
    """Shootin' and Fightin' / Long Range Combat: out of a building, only the door square and the two beside it."""
    rifle = sg.Weapon("rifle", "long_range", 3)
    for seen in ("street:0:1", "street:0:2", "street:0:3"):                # the Hotel-Saloon's view
        verdict = sg.can_shoot(board, "hotel_saloon", seen, rifle)
        assert verdict.legal, verdict.reason
        assert sg.range_squares(board, "hotel_saloon", seen) == 1
    unseen = sg.can_shoot(board, "hotel_saloon", "street:1:2", rifle)
    assert not unseen.legal and "door square" in unseen.reason
    assert not sg.can_shoot(board, "street:0:0", "hotel_saloon", rifle).legal   # never into a building
    short = sg.Weapon("derringer", "long_range", 0)
    assert not sg.can_shoot(board, "hotel_saloon", "street:0:2", short).legal


def test_one_spelling_per_street_square(board: sg.Board) -> None:
    """street:+0:01 is not street:0:1 under another name: it is no key at all, and the error says how to write it."""
    assert sg.parse_street("street:0:1") == sg.Cell(0, 1)
    for alias in ("street:+0:01", "street: 0:1", "street:0:1 ", "street:00:1", "STREET:0:1", "street:-0:1"):
        assert sg.parse_street(alias) is None and not board.is_location(alias)
        assert sg.street_spelling(alias) == "street:0:1"
    assert sg.street_spelling("street:0:1") is None and sg.street_spelling("bank") is None
