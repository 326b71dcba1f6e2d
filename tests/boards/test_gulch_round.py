"""Slaughter Gulch round by round (``seeds/004``): the rulebook's examples and every step of a round.

Each test names the rule section it checks. Dice are written into the actions,
as the players rolled them.
"""

from __future__ import annotations

import pytest

from simulator.boards import gulch_actions as ga
from simulator.boards import gulch_round as gr
from simulator.boards import slaughter_gulch as sg
from simulator.errors import IllegalChoice

LAYOUT = ("jail", "general_store", "hotel_saloon", "doctors_office", "telegraph_office",
          "bank", "church", "stable", "theater", "graveyard")


def town(*dudes: sg.Dude, folk: tuple[sg.Folk, ...] = (), deputy: str | None = None) -> sg.Town:
    return sg.Town(sg.layout_board(LAYOUT), dudes, folk, deputy)


def start(t: sg.Town, **fields: object) -> gr.GulchState:
    fields.setdefault("end_condition", 5)
    return gr.new_state(t, **fields)  # type: ignore[arg-type]


def run(state: gr.GulchState, *actions: ga.Action) -> gr.GulchState:
    for action in actions:
        state, _ = gr.apply(state, action)
    return state


def to_actions(state: gr.GulchState, orders: dict[str, tuple[str, str, int]]) -> gr.GulchState:
    """Steps 1-4 with the given tokens (dude -> (to, token, number)); no events."""
    if state.step == gr.Step.SPELLS:
        state = run(state, ga.EndSpells())
    for outfit in state.outfits:
        for dude, (to, token, number) in orders.items():
            if state.town.dude(dude).outfit == outfit.id:
                state = run(state, ga.Plan(dude=dude, to=to, token=token, number=number))  # type: ignore[arg-type]
        state = run(state, ga.FinishOrders())
    return run(state, ga.EndEvents())


RANGERS = (sg.Dude("r1", "texas_rangers", "street:0:0"), sg.Dude("r2", "texas_rangers", "street:1:1"),
           sg.Dude("r3", "texas_rangers", "mine"))
AGENTS = (sg.Dude("a1", "agency", "street:0:3"), sg.Dude("a2", "agency", "street:1:3"))


# ---- steps 1-3: spells, secret orders, the reveal


def test_a_round_walks_through_the_five_steps_in_order() -> None:
    state = start(town(*RANGERS, sg.Dude("h1", "hucksters", "home")))
    assert state.step == gr.Step.SPELLS                   # a spellcasting outfit: step 1 has work
    state = run(state, ga.EndSpells())
    assert state.step == gr.Step.ORDERS and state.planning == "texas_rangers"
    state = run(state, ga.FinishOrders())
    assert state.planning == "hucksters"
    state = run(state, ga.FinishOrders())
    assert state.step == gr.Step.EVENTS and state.planning is None
    state = run(state, ga.EndEvents())
    assert state.step == gr.Step.ARRIVALS               # nobody had a token: step 5 is over at once
    state = run(state, ga.EndRound())
    assert state.round == 2 and state.step == gr.Step.SPELLS


def test_no_spellcasters_skip_step_one() -> None:
    assert start(town(*RANGERS, *AGENTS)).step == gr.Step.ORDERS


def test_rulebook_movement_example_moves_two_and_keeps_one_at_the_mine() -> None:
    """Movement Example: three pawns; two move (tokens up to two spaces away), one stays at the Mine."""
    state = start(town(*RANGERS, *AGENTS))
    state = run(state, ga.Plan(dude="r1", to="street:0:2", token="fight"),
                ga.Plan(dude="r2", to="church"), ga.FinishOrders(), ga.FinishOrders())
    assert state.town.dude("r1").at == "street:0:2" and state.town.dude("r2").at == "church"
    assert state.town.dude("r3").at == "mine"


def test_orders_are_secret_to_each_outfit_and_judged_from_the_start() -> None:
    """Playing the Game, step 2: only the outfit behind the screen places tokens for its own dudes."""
    state = start(town(*RANGERS, *AGENTS))
    with pytest.raises(IllegalChoice, match="behind the screen"):
        run(state, ga.Plan(dude="a1", to="street:0:4"))
    with pytest.raises(IllegalChoice, match="Movement"):
        run(state, ga.Plan(dude="r1", to="street:0:3"))       # three spaces
    with pytest.raises(IllegalChoice, match="Home Movement"):
        run(start(town(sg.Dude("h", "agency", "home"))), ga.Plan(dude="h", to="bank"))


def test_run_token_stays_on_the_dudes_space_and_he_picks_at_his_action() -> None:
    """Action Tokens, Run: the token goes on the runner's space; the destination is chosen at his action."""
    state = start(town(*RANGERS, *AGENTS))
    with pytest.raises(IllegalChoice, match="Run token goes on the dude's own space"):
        run(state, ga.Plan(dude="r1", to="street:0:1", token="run"))
    state = to_actions(state, {"r1": ("street:0:0", "run", 1)})
    assert state.town.dude("r1").at == "street:0:0" and state.actor == "r1"
    assert "street:0:4" in gr.run_destinations(state, "r1")      # four spaces along the lane
    with pytest.raises(IllegalChoice, match="up to 4"):
        run(state, ga.RunTo(to="mine"))                          # five spaces
    state = run(state, ga.RunTo(to="street:0:4"))
    assert state.town.dude("r1").at == "street:0:4"


def test_a_runner_wounded_before_his_action_moves_only_two() -> None:
    """Action Tokens, Run: wounded before his action, he may only move up to two spaces."""
    state = to_actions(start(town(sg.Dude("a", "agency", "general_store"), *RANGERS)),
                       {"a": ("general_store", "fight", 1), "r1": ("street:0:0", "run", 1)})
    assert state.actor == "a"
    state = run(state, ga.Attack(target="r1", weapon="gun", outcome="wounds"))
    assert state.actor == "r1"                                  # wounded, but a runner still moves
    assert "street:0:3" not in gr.run_destinations(state, "r1")
    state = run(state, ga.RunTo(to="street:0:2"))
    assert state.town.dude("r1").at == "street:0:2"


# ---- step 5: the order and the actions


def test_actions_go_buildings_clockwise_then_street_then_home_lowest_token_first() -> None:
    """Playing the Game, step 5 and Actions: order by place, then by the token's number."""
    dudes = (sg.Dude("home", "agency", "home"), sg.Dude("bank", "agency", "bank"),
             sg.Dude("saloon2", "hucksters", "hotel_saloon"), sg.Dude("saloon1", "texas_rangers", "hotel_saloon"),
             sg.Dude("st4", "hucksters", "street:1:4"), sg.Dude("st0", "texas_rangers", "street:1:0"))
    state = start(town(*dudes))
    tokens = {"home": 1, "bank": 1, "saloon2": 2, "saloon1": 7, "st4": 1, "st0": 9}
    assert gr.action_order(state, tokens) == ("saloon2", "saloon1", "bank", "st0", "st4", "home")


def test_let_the_next_act_first_swaps_within_a_space_only() -> None:
    dudes = (sg.Dude("x", "agency", "bank"), sg.Dude("y", "texas_rangers", "bank"),
             sg.Dude("z", "texas_rangers", "mine"))
    state = to_actions(start(town(*dudes)), {"x": ("bank", "shop", 1), "y": ("bank", "shop", 1),
                                             "z": ("mine", "shop", 1)})
    assert state.queue == ("z", "y", "x") or state.queue[0] == "z"
    state = run(state, ga.TakeAction())
    first = state.actor
    state = run(state, ga.Defer())
    assert state.actor != first and state.queue[1] == first
    state = run(state, ga.TakeAction())
    with pytest.raises(IllegalChoice, match="nobody else acts in this space"):
        run(state, ga.Defer())


def test_only_the_action_on_the_token_can_be_taken() -> None:
    """Actions: a dude may only take the action on his token."""
    state = to_actions(start(town(*RANGERS, *AGENTS)), {"r1": ("street:0:1", "shop", 1)})
    with pytest.raises(IllegalChoice, match="shop token"):
        run(state, ga.Attack(target="a1", outcome="wounds"))


def test_rulebook_shooting_example_return_fire_wounds_the_agent() -> None:
    """Shootin' Example: the Agent shoots one square away and misses; the Shaman fires back and wounds him."""
    agent, shaman = sg.Dude("agent", "agency", "street:0:1"), sg.Dude("shining-bear", "shamans", "street:0:2")
    state = to_actions(start(town(agent, shaman)), {"agent": ("street:0:1", "fight", 1)})
    assert sg.can_shoot(state.board, "street:0:1", "street:0:2").legal        # one square away, in sight
    state = run(state, ga.Attack(target="shining-bear", weapon="gun", outcome="attacker_wounded"))
    assert state.town.dude("agent").wounded and not state.town.dude("shining-bear").wounded
    assert "agent" in state.hurt and "agent" in state.crimes


def test_rulebook_fighting_example_losing_to_the_sheriff_throws_willy_into_the_street() -> None:
    """Fightin' Example: a Mad Scientist fights the Sheriff to free a friend and loses: wounded, into the street."""
    willy = sg.Dude("willy", "mad_scientists", "jail")
    friend = sg.Dude("friend", "mad_scientists", "jail", in_cell=True)
    sheriff = sg.Folk("sheriff", "jail", "Sheriff", sheriff=True)
    state = to_actions(start(town(willy, friend, folk=(sheriff,))), {"willy": ("jail", "fight", 1)})
    state = run(state, ga.EndSpells()) if state.step == gr.Step.SPELLS else state
    state = run(state, ga.BustOut(inmate="friend", won=False))
    willy_after = state.town.dude("willy")
    assert willy_after.wounded and willy_after.at == state.board.doors("jail")[0]
    assert state.town.dude("friend").in_cell


def test_a_second_wound_kills_and_the_killer_takes_1d6_ghost_rock() -> None:
    """Death: a wounded character wounded again dies (face down in the Graveyard); the killer rolls 1d6."""
    r = sg.Dude("r", "texas_rangers", "street:0:1")
    a = sg.Dude("a", "agency", "street:0:1", wounded=True)
    outfits = (gr.Outfit("texas_rangers", 1), gr.Outfit("agency", 5))
    state = to_actions(start(town(r, a), outfits=outfits), {"r": ("street:0:1", "fight", 1)})
    with pytest.raises(IllegalChoice, match="1d6"):
        run(state, ga.Attack(target="a", outcome="wounds"))
    state = run(state, ga.Attack(target="a", outcome="wounds", die=4))
    dead = state.town.dude("a")
    assert dead.dead and dead.at == "graveyard"
    assert state.outfit("texas_rangers").ghost_rock == 5 and state.outfit("agency").ghost_rock == 1


def test_harrowed_cannot_be_killed() -> None:
    """Harrowed: wounds never kill a harrowed dude."""
    state = start(town(sg.Dude("h", "agency", "street:0:0", wounded=True, harrowed=True)))
    state, _ = gr.wound(state, "h")
    assert not state.town.dude("h").dead


def test_a_missed_dude_may_run_home_and_a_missed_townsfolk_may_flee() -> None:
    """Shootin' and Fightin': after a miss the dude may run straight home; townsfolk who flee leave the board."""
    folk = (sg.Folk("t", "street:0:1"),)
    r = sg.Dude("r", "texas_rangers", "street:0:1")
    a = sg.Dude("a", "agency", "street:0:2")
    state = to_actions(start(town(r, a, folk=folk)), {"r": ("street:0:1", "fight", 1),
                                                      "a": ("street:0:2", "fight", 1)})
    state = run(state, ga.Attack(target="a", outcome="target_runs"))
    assert state.town.dude("a").at == "home"
    assert state.step == gr.Step.ACTIONS and state.actor == "a"
    state = run(state, ga.Skip())
    state2 = to_actions(start(town(r, folk=folk)), {"r": ("street:0:1", "fight", 1)})
    state2 = run(state2, ga.Attack(target="t", weapon="fight", outcome="kills"))
    assert not state2.town.townsfolk


def test_no_shooting_into_a_building_but_dynamite_yes_and_it_scatters_townsfolk() -> None:
    """Shootin' and Fightin' (no shots into a building; dynamite yes) and Item Cards (NPCs move two spaces)."""
    r = sg.Dude("r", "texas_rangers", "street:0:1")
    h = sg.Dude("h", "hucksters", "general_store")
    folk = (sg.Folk("t1", "general_store"), sg.Folk("t2", "general_store"))
    state = to_actions(start(town(r, h, folk=folk)), {"r": ("street:0:1", "fight", 1)})
    with pytest.raises(IllegalChoice, match="into a building"):
        run(state, ga.Attack(target="h", weapon="gun", outcome="wounds"))
    state = run(state, ga.Attack(target="h", weapon="dynamite", outcome="wounds"))
    assert state.scatter == ("t1", "t2") and state.step == gr.Step.ACTIONS
    with pytest.raises(IllegalChoice, match="not now"):
        run(state, ga.EndRound())
    with pytest.raises(IllegalChoice, match="dynamite hit"):
        run(state, ga.Skip())
    with pytest.raises(IllegalChoice, match="one or two spaces"):
        run(state, ga.Scatter(figure="t1", to="mine"))
    state = run(state, ga.Scatter(figure="t1", to="street:0:1"), ga.Scatter(figure="t2", to="street:1:1"))
    assert state.step == gr.Step.ARRIVALS


def test_dynamite_is_never_thrown_into_the_jail_from_inside() -> None:
    r = sg.Dude("r", "texas_rangers", "jail")
    a = sg.Dude("a", "agency", "jail")
    state = to_actions(start(town(r, a)), {"r": ("jail", "fight", 1)})
    with pytest.raises(IllegalChoice, match="Jail"):
        run(state, ga.Attack(target="a", weapon="dynamite", outcome="wounds"))
    run(state, ga.Attack(target="a", weapon="fight", outcome="wounds"))          # a fist fight is fine


def test_long_range_fires_out_of_a_building() -> None:
    r = sg.Dude("r", "texas_rangers", "hotel_saloon")
    a = sg.Dude("a", "agency", "street:0:3")
    state = to_actions(start(town(r, a)), {"r": ("hotel_saloon", "fight", 1)})
    state = run(state, ga.Attack(target="a", weapon="long_range", outcome="wounds", max_range=2))
    assert state.town.dude("a").wounded


def test_wounded_this_round_takes_no_action() -> None:
    """Actions: a dude wounded during the round takes no action that round."""
    r = sg.Dude("r", "texas_rangers", "street:0:1")
    a = sg.Dude("a", "agency", "street:0:2")
    state = to_actions(start(town(r, a)), {"r": ("street:0:1", "fight", 1), "a": ("street:0:2", "fight", 1)})
    state = run(state, ga.Attack(target="a", outcome="wounds"))
    assert state.step == gr.Step.ARRIVALS                     # a was skipped


# ---- the law and the Jail


def test_the_deputy_jails_whoever_shoots_where_he_stands() -> None:
    """Automatic Actions, the Deputy: shooting (or robbing) at his location sends the offender to jail."""
    r = sg.Dude("r", "texas_rangers", "street:0:1")
    a = sg.Dude("a", "agency", "street:0:2")
    state = to_actions(start(town(r, a, deputy="street:0:1")), {"r": ("street:0:1", "fight", 1)})
    state = run(state, ga.Attack(target="a", outcome="misses"))
    assert state.town.dude("r").in_cell and state.town.dude("r").at == "jail"
    near = a._replace(at="street:0:1")
    state2 = to_actions(start(town(r, near, deputy="street:0:1")), {"r": ("street:0:1", "fight", 1)})
    state2 = run(state2, ga.Attack(target="a", weapon="fight", outcome="wounds"))
    assert not state2.town.dude("r").in_cell                  # a fist fight is not shooting


def test_arrest_needs_a_crime_a_free_cell_and_the_same_space() -> None:
    """Action Tokens (arrest) and The Jail: three cells; the arrested dude's outfit pays 1d6."""
    lawman = sg.Dude("law", "texas_rangers", "street:0:1")
    robber = sg.Dude("rob", "hucksters", "street:0:1")
    folk = (sg.Folk("t", "street:0:1"),)
    outfits = (gr.Outfit("texas_rangers"), gr.Outfit("hucksters", 3))
    base = start(town(lawman, robber, folk=folk), outfits=outfits)
    state = to_actions(base, {"rob": ("street:0:1", "rob", 1), "law": ("street:0:1", "arrest", 2)})
    assert state.actor == "rob"
    state = run(state, ga.Rob(target="t", outcome="success"))
    assert not state.town.townsfolk and "rob" in state.crimes
    state = run(state, ga.Arrest(target="rob", success=True, die=6))
    assert state.town.dude("rob").in_cell
    assert state.outfit("texas_rangers").ghost_rock == 3 and state.outfit("hucksters").ghost_rock == 0
    honest = to_actions(base, {"law": ("street:0:1", "arrest", 1)})
    with pytest.raises(IllegalChoice, match="nothing to arrest him for"):
        run(honest, ga.Arrest(target="rob", success=True, die=1))
    run(honest, ga.Arrest(target="t", success=True))           # a bad townsfolk, as the players judge


def test_caught_red_handed_goes_to_jail_unless_the_cells_are_full() -> None:
    inmates = tuple(sg.Dude(f"i{n}", "agency", "jail", in_cell=True) for n in range(3))
    robber = sg.Dude("rob", "hucksters", "street:0:1")
    folk = (sg.Folk("t", "street:0:1"),)
    state = to_actions(start(town(robber, folk=folk)), {"rob": ("street:0:1", "rob", 1)})
    assert run(state, ga.Rob(target="t", outcome="caught")).town.dude("rob").in_cell
    full = to_actions(start(town(robber, *inmates, folk=folk)), {"rob": ("street:0:1", "rob", 1)})
    assert not run(full, ga.Rob(target="t", outcome="caught")).town.dude("rob").in_cell


def test_nobody_in_a_cell_is_harmed_while_the_sheriff_lives() -> None:
    """The Jail: while the Sheriff is alive, nobody in a cell may be attacked."""
    r = sg.Dude("r", "texas_rangers", "jail")
    inmate = sg.Dude("i", "agency", "jail", in_cell=True)
    sheriff = sg.Folk("s", "jail", "Sheriff", sheriff=True)
    state = to_actions(start(town(r, inmate, folk=(sheriff,))), {"r": ("jail", "fight", 1)})
    with pytest.raises(IllegalChoice, match="Sheriff is alive"):
        run(state, ga.Attack(target="i", weapon="fight", outcome="wounds"))
    no_sheriff = to_actions(start(town(r, inmate)), {"r": ("jail", "fight", 1)})
    run(no_sheriff, ga.Attack(target="i", weapon="fight", outcome="wounds"))


def test_bail_and_bust_out_free_the_inmate_to_the_square_outside() -> None:
    """The Jail: bail of 1d6 ghost rock, or beat the Sheriff; both walk out to the square outside."""
    r = sg.Dude("r", "texas_rangers", "jail")
    inmate = sg.Dude("i", "texas_rangers", "jail", in_cell=True)
    sheriff = sg.Folk("s", "jail", "Sheriff", sheriff=True)
    outfits = (gr.Outfit("texas_rangers", 4),)
    base = to_actions(start(town(r, inmate, folk=(sheriff,)), outfits=outfits), {"r": ("jail", "fight", 1)})
    door = base.board.doors("jail")[0]
    with pytest.raises(IllegalChoice, match="bust him out"):
        run(base, ga.Bail(inmate="i", die=5))
    bailed = run(base, ga.Bail(inmate="i", die=3))
    assert bailed.town.dude("i").at == door and bailed.town.dude("r").at == door
    assert not bailed.town.dude("i").in_cell and bailed.outfit("texas_rangers").ghost_rock == 1
    busted = run(base, ga.BustOut(inmate="i", won=True))
    assert busted.town.dude("i").at == door and busted.town.folk("s").wounded


# ---- step 4 and after step 5: events, arrivals, the round's end


def test_arrivals_wait_then_go_by_2d6_and_a_roll_over_eight_is_rerolled_for_two_players() -> None:
    """Events and Two Player Game: arrivals go to the building numbered by 2d6; over 8 is rolled again."""
    board = sg.layout_board(("jail", "general_store", "hotel_saloon", "telegraph_office", "doctors_office",
                             "graveyard"))
    state = gr.new_state(sg.Town(board, (sg.Dude("r", "texas_rangers", "street:0:0"),)), end_condition=5)
    state = run(state, ga.FinishOrders(), ga.Arrive(by="train"), ga.Arrive(by="coach"), ga.DeputyArrives())
    state = run(state, ga.EndEvents())
    assert state.step == gr.Step.ARRIVALS and state.arrivals == ("train", "coach", "deputy")
    with pytest.raises(IllegalChoice, match="arrivals"):
        run(state, ga.EndRound())
    state = run(state, ga.PlaceArrival(dice=(6, 5)))               # 11: no building with two players
    assert len(state.arrivals) == 3
    state = run(state, ga.PlaceArrival(dice=(2, 2)), ga.PlaceArrival(dice=(1, 1)), ga.PlaceArrival(dice=(1, 1)))
    assert [f.at for f in state.town.townsfolk] == [board.at_number(4), board.at_number(2)]
    assert state.town.deputy == "jail"


def test_events_can_wound_and_move_figures() -> None:
    state = run(start(town(*RANGERS, folk=(sg.Folk("t", "bank"),))), ga.FinishOrders())
    state = run(state, ga.ClerkWound(figure="r1"), ga.ClerkMove(figure="t", to="hotel_saloon"))
    assert state.town.dude("r1").wounded and state.town.folk("t").at == "hotel_saloon"
    with pytest.raises(IllegalChoice, match="not now"):
        run(run(state, ga.EndEvents()), ga.ClerkWound(figure="r1"))


def test_the_doctor_heals_who_took_no_other_action_and_the_deputy_moves_on() -> None:
    """Automatic Actions: the Doctor's Office heals at the round's end; the Deputy moves to the next number."""
    idle = sg.Dude("idle", "agency", "doctors_office", wounded=True)
    busy = sg.Dude("busy", "agency", "doctors_office", wounded=True)
    state = to_actions(start(town(idle, busy, deputy="bank")), {"busy": ("doctors_office", "shop", 1)})
    state = run(state, ga.TakeAction(), ga.EndRound())
    assert not state.town.dude("idle").wounded and state.town.dude("busy").wounded
    assert state.town.deputy == "rail_station"                      # the Bank is 12: wraps to 1


# ---- setup, the game's end and the score


def test_setup_places_three_set_aside_dudes_on_street_squares_in_secret() -> None:
    """To Start the Game: three dudes onto street squares, revealed together; the rest stay aside."""
    dudes = tuple(sg.Dude(f"r{i}", "texas_rangers", sg.ASIDE) for i in range(6)) + \
        tuple(sg.Dude(f"a{i}", "agency", sg.ASIDE) for i in range(6))
    state = start(town(*dudes))
    assert state.step == gr.Step.SETUP
    with pytest.raises(IllegalChoice, match="street squares"):
        run(state, ga.Plan(dude="r0", to="bank"))
    state = run(state, *(ga.Plan(dude=f"r{i}", to=f"street:0:{i}") for i in range(3)))
    with pytest.raises(IllegalChoice, match="three dudes"):
        run(state, ga.Plan(dude="r3", to="street:1:1"))
    state = run(state, ga.FinishOrders())
    with pytest.raises(IllegalChoice, match="placed 0 of its 3"):
        run(state, ga.FinishOrders())
    state = run(state, *(ga.Plan(dude=f"a{i}", to=f"street:1:{i}") for i in range(3)), ga.FinishOrders())
    assert state.step == gr.Step.ORDERS and state.round == 1
    assert [d.at for d in state.town.dudes if d.in_play] == ["street:0:0", "street:0:1", "street:0:2",
                                                             "street:1:0", "street:1:1", "street:1:2"]


def test_recruiting_brings_a_set_aside_dude_into_play() -> None:
    """To Start the Game: the dudes set aside join when townsfolk are recruited."""
    r = sg.Dude("r", "texas_rangers", "bank")
    reserve = sg.Dude("r9", "texas_rangers", sg.ASIDE)
    state = to_actions(start(town(r, reserve, folk=(sg.Folk("t", "bank"),))), {"r": ("bank", "recruit", 1)})
    state = run(state, ga.Recruit(target="t", success=True))
    assert state.town.dude("r9").at == "bank" and not state.town.townsfolk


def test_raising_the_dead_brings_a_harrowed_dude_back() -> None:
    """Raise the Dead and Harrowed."""
    b = sg.Dude("b", "blessed", "graveyard")
    dead = sg.Dude("d", "blessed", "graveyard", dead=True)
    state = to_actions(start(town(b, dead)), {"b": ("graveyard", "raise", 1)})
    state = run(state, ga.Raise(target="d", success=True))
    assert not state.town.dude("d").dead and state.town.dude("d").harrowed


def test_the_end_condition_is_rolled_and_four_needs_lawmen() -> None:
    """Game End: one die picks the condition; reroll a 4 without the Agency or the Texas Rangers."""
    state = gr.new_state(town(sg.Dude("h", "hucksters", "home")))
    with pytest.raises(IllegalChoice, match="reroll"):
        run(state, ga.RollEnd(die=4))
    assert run(state, ga.RollEnd(die=3)).end_condition == 3
    with pytest.raises(IllegalChoice, match="does not change"):
        run(run(state, ga.RollEnd(die=3)), ga.RollEnd(die=2))


def test_the_game_ends_after_the_round_its_condition_is_met_and_the_score_is_counted() -> None:
    """Game End and Winning the Game: 1 per dude alive in play, 1 per ghost rock, 5 per location, cards."""
    dudes = (sg.Dude("r1", "texas_rangers", "bank"), sg.Dude("r2", "texas_rangers", "bank"),
             sg.Dude("r3", "texas_rangers", "graveyard", dead=True), sg.Dude("a1", "agency", "street:0:0"))
    outfits = (gr.Outfit("texas_rangers", 3, 1, 4), gr.Outfit("agency", 7))
    state = start(town(*dudes), outfits=outfits)
    state = run(state, ga.FinishOrders(), ga.FinishOrders(), ga.EndEvents(), ga.Declare(condition=5))
    assert 5 in gr.conditions_met(state)
    state = run(state, ga.EndRound())
    assert state.step == gr.Step.OVER
    table = {s.outfit: s for s in gr.scores(state)}
    assert table["texas_rangers"] == gr.Score("texas_rangers", 2, 3, 1, 4)     # the Bank is theirs
    assert table["texas_rangers"].total == 2 + 3 + 5 + 4
    assert table["agency"].total == 1 + 7
    assert gr.winners(state) == ("texas_rangers",)
    with pytest.raises(IllegalChoice, match="over"):
        run(state, ga.EndSpells())


def test_three_conditions_end_the_game_whichever_was_rolled() -> None:
    inmates = tuple(sg.Dude(f"i{n}", "agency", "jail", in_cell=True) for n in range(3))
    state = start(town(*inmates), end_condition=6, mine=0)
    state = run(state, ga.FinishOrders(), ga.EndEvents(), ga.Declare(condition=1), ga.Declare(condition=5))
    assert gr.conditions_met(state) == {1, 4, 5}
    assert run(state, ga.EndRound()).step == gr.Step.OVER


def test_controlling_three_locations_makes_the_next_round_the_last() -> None:
    """Game End, condition 2: checked at the beginning of the turn, so the game ends after that round."""
    dudes = (sg.Dude("r1", "texas_rangers", "bank"), sg.Dude("r2", "texas_rangers", "mine"),
             sg.Dude("r3", "texas_rangers", "church"))
    state = start(town(*dudes), end_condition=2)
    state = run(state, ga.FinishOrders(), ga.EndEvents(), ga.EndRound())
    assert state.step == gr.Step.ORDERS and state.last_round
    state = run(state, ga.FinishOrders(), ga.EndEvents(), ga.EndRound())
    assert state.step == gr.Step.OVER


def test_ghost_rock_never_goes_below_zero() -> None:
    state = start(town(*RANGERS), outfits=(gr.Outfit("texas_rangers", 1),))
    with pytest.raises(IllegalChoice, match="holds only 1"):
        run(state, ga.AdjustGhostRock(holder="texas_rangers", delta=-2))
    assert run(state, ga.AdjustGhostRock(holder="mine", delta=-5)).mine == state.mine - 5
