"""The actions the rules allow now, for both boards: a sample of every kind, each checked by applying it.

Used by the conformance suite's random games (STYLE.md item 10) and by anyone
who wants to offer "what can I do?". The lists are deterministic (the same
state gives the same list, in the same order) and every action in them applies
without raising: candidates are generated per step or phase and kept only when
the pure ``apply`` accepts them. They cover every kind of action; they do not
list every destination of every figure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from simulator.boards import doom_actions as da
from simulator.boards import doom_turn as dtt
from simulator.boards import doomtown as dt
from simulator.boards import gulch_actions as ga
from simulator.boards import gulch_round as gr
from simulator.boards import slaughter_gulch as sg
from simulator.errors import IllegalChoice

GULCH_TOKENS = ("fight", "rob", "arrest", "recruit", "raise", "shop", "none")
OUTCOMES = ("wounds", "kills", "misses", "target_runs", "attacker_wounded")


def _legal(apply: Callable[[Any, Any], Any], state: Any, candidates: Iterable[Any]) -> list[Any]:
    kept: list[Any] = []
    seen: set[str] = set()
    for action in candidates:
        text = action.model_dump_json()
        if text in seen:
            continue
        seen.add(text)
        try:
            apply(state, action)
        except IllegalChoice:
            continue
        kept.append(action)
    return kept


# --------------------------------------------------------------------------- Slaughter Gulch


def gulch_options(state: gr.GulchState) -> list[ga.Action]:
    """A deterministic sample of the actions the rules allow in ``state`` (every one applies)."""
    return _legal(gr.apply, state, _gulch_candidates(state))


def _gulch_candidates(state: gr.GulchState) -> Iterable[ga.Action]:
    if state.end_condition is None:
        yield from (ga.RollEnd(die=d) for d in range(1, 7))
    step = state.step
    if step == gr.Step.SPELLS:
        yield ga.EndSpells()
    elif step in (gr.Step.SETUP, gr.Step.ORDERS):
        yield from _orders(state)
    elif step == gr.Step.EVENTS:
        yield from _events(state)
    elif step == gr.Step.ACTIONS:
        yield from _acting(state)
    elif step == gr.Step.ARRIVALS:
        yield from (ga.PlaceArrival(dice=d) for d in ((1, 1), (3, 4), (6, 6)))
        yield ga.EndRound()
    if state.outfits and step != gr.Step.OVER:
        yield ga.AdjustGhostRock(holder=state.outfits[0].id, delta=1)
        yield ga.Declare(condition=1)


def _orders(state: gr.GulchState) -> Iterable[ga.Action]:
    yield ga.FinishOrders()
    for dude in state.town.dudes:
        if dude.outfit != state.planning:
            continue
        if state.order_of(dude.id):
            yield ga.Unplan(dude=dude.id)
        if state.step == gr.Step.SETUP:
            yield from (ga.Plan(dude=dude.id, to=sq) for sq in state.board.streets[:3])
            continue
        moves = sorted(sg.legal_moves(state.board, dude, False))
        for i, to in enumerate(moves[:3]):
            yield ga.Plan(dude=dude.id, to=to, token=GULCH_TOKENS[i % len(GULCH_TOKENS)], number=i)  # type: ignore[arg-type]
        yield ga.Plan(dude=dude.id, to=dude.at, token="fight", number=1)
        yield ga.Plan(dude=dude.id, to=dude.at, token="run")


def _events(state: gr.GulchState) -> Iterable[ga.Action]:
    yield ga.EndEvents()
    yield ga.Arrive(by="coach")
    yield ga.Arrive(by="train", count=2)
    yield ga.DeputyArrives()
    figures = [d.id for d in state.town.dudes if d.active][:2] + [f.id for f in state.town.townsfolk][:2]
    for f in figures:
        yield ga.ClerkWound(figure=f)
        yield ga.ClerkMove(figure=f, to=state.board.streets[0])
    if state.town.townsfolk:
        yield ga.ClerkRemove(figure=state.town.townsfolk[0].id)


def _acting(state: gr.GulchState) -> Iterable[ga.Action]:
    for folk in state.scatter:
        at = state.town.folk(folk).at
        yield from (ga.Scatter(figure=folk, to=to) for to in sorted(sg.legal_moves(
            state.board, sg.Dude(folk, "", at), False)) if to not in (at, sg.HOME))
    actor = state.actor
    if actor is None:
        return
    yield ga.Skip()
    yield ga.Defer()
    yield ga.TakeAction(note="")
    figures = [d.id for d in state.town.dudes] + [f.id for f in state.town.townsfolk]
    for target in figures:
        for weapon in ("gun", "fight", "dynamite", "long_range"):
            yield from (ga.Attack(target=target, weapon=weapon, outcome=o, die=3)  # type: ignore[arg-type]
                        for o in OUTCOMES)
        yield from (ga.Rob(target=target, outcome=o, die=2) for o in ("success", "failed", "caught"))
        yield ga.Arrest(target=target, success=True, die=4)
        yield ga.Recruit(target=target, success=True)
        yield ga.Raise(target=target, success=True)
        yield ga.Bail(inmate=target, die=1)
        yield ga.BustOut(inmate=target, won=True)
        yield ga.BustOut(inmate=target, won=False)
    yield from (ga.Rob(target=t, outcome="success") for t in ("coach", "train"))
    yield from (ga.RunTo(to=to) for to in sorted(gr.run_destinations(state, actor)))


# --------------------------------------------------------------------------- Doomtown


def doom_options(state: dtt.DoomState) -> list[da.Action]:
    """A deterministic sample of the actions the rules allow in ``state`` (every one applies)."""
    return _legal(dtt.apply, state, _doom_candidates(state))


def _fresh(state: dtt.DoomState, stem: str) -> str:
    taken = {*state.town.locations, *(d.id for d in state.town.dudes), *(d.id for d in state.boot_hill)}
    return next(f"{stem}-{n}" for n in range(1, len(taken) + 2) if f"{stem}-{n}" not in taken)


def _doom_candidates(state: dtt.DoomState) -> Iterable[da.Action]:
    phase = state.phase
    if phase == dtt.Phase.GAMBLING:
        yield from (da.Lowball(winner=p) for p in state.players)
    elif phase == dtt.Phase.UPKEEP:
        yield da.EndUpkeep()
    elif phase == dtt.Phase.NIGHTFALL:
        yield da.Nightfall()
    elif phase == dtt.Phase.HIGH_NOON:
        yield from _fight(state) if state.fight else _noon(state)
    if phase == dtt.Phase.OVER:
        return
    dudes = state.town.dudes
    if dudes:
        yield da.Boot(dude=dudes[0].id, booted=not dudes[0].booted)
        yield da.SetInfluence(dude=dudes[-1].id, influence=min(20, dudes[-1].influence + 1))
    deeds = [loc for loc in state.town.locations if loc != dt.TOWN_SQUARE and loc not in state.town.homes]
    if deeds:
        yield da.Destroy(deed=deeds[-1])
        yield da.SetControlPoints(deed=deeds[0], points=min(20, state.town.points_of(deeds[0]) + 1))
    yield from (da.AdjustVictory(player=p, delta=1) for p in state.players[:1])


def _noon(state: dtt.DoomState) -> Iterable[da.Action]:
    yield da.Pass()
    yield da.NoonAction()
    player = state.to_act or ""
    mine = [d for d in state.town.dudes if d.player == player]
    for d in mine:
        yield from (da.Move(dude=d.id, to=to) for to in state.town.locations)
        yield from (da.CallOut(dealer=d.id, target=t.id) for t in state.town.dudes_at(d.at))
        yield from (da.StartJob(dealer=d.id, target=t) for t in state.town.locations)
    yield da.Shop(card="dude", id=_fresh(state, "dude"), influence=1)
    yield da.Shop(card="deed", id=_fresh(state, "deed"), end="left", control_points=1)
    yield da.Shop(card="out_of_town", id=_fresh(state, "strike"))


def _fight(state: dtt.DoomState) -> Iterable[da.Action]:
    fight = state.fight
    assert fight is not None
    if fight.stage == "answer":
        yield da.Answer(accept=True)
        yield da.Answer(accept=False)
        return
    side = dtt.forming(state)
    if side is not None:
        yield da.PosseReady()
        yield from (da.Join(dude=j.dude) for j in side[1])
        yield from (da.Leave(dude=d) for d in side[2])
        return
    yield da.NextRound()
    for member in (*fight.dealer_side, *fight.target_side):
        yield da.Ace(dude=member)
        yield da.SendHome(dude=member)
    for dude in state.town.dudes:
        yield da.CardJoin(dude=dude.id, boots=True)
