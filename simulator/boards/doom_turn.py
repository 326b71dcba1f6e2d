"""A Doomtown turn on the street: Gambling, Upkeep, High Noon (moves, call-outs, jobs, shootouts), Nightfall.

Rules (``seeds/000``): "Sequence o' Play" (the Winner of lowball acts first,
then clockwise, one action at a time, until everybody passes in a row;
Nightfall unboots), "Shoppin'" (dudes start at home unbooted, deeds at an end
of the street), "Movin' Around", "Shootin'" (call-outs: refuse and run home
booted, or accept; who may join; everybody moves to the shootout),
"Shootout Sequence" (aced dudes go to Boot Hill; chickening out is being sent
home booted; the shootout ends when one posse is left), "Jobs" (the dealer
boots; the defenders form their posse second; the job works if the dealer's
posse is still standing; the dealer's survivors go home booted, the
defenders' stay), "Controllin' Deeds" and the Glossary (control by Influence),
"Winnin' the Game".

:class:`DoomState` is a value; :func:`apply` returns the new state and log
lines naming the rule. A refused action raises
:class:`simulator.errors.IllegalChoice` and changes nothing.

Judgement calls: seating order (clockwise) is the order of the streets;
"more Victory Points plus Control Points than the Influence total of any one
player" is read as more than every other player's Influence.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, Literal, NamedTuple

from simulator.boards import doom_actions as da
from simulator.boards import doomtown as dt
from simulator.errors import IllegalChoice

Log = tuple[str, ...]
Stage = Literal["answer", "dealer_posse", "target_posse", "shootout"]


class Phase(StrEnum):
    """The four phases of a turn ("Sequence o' Play"), and the game's end."""

    GAMBLING = "gambling"
    UPKEEP = "upkeep"
    HIGH_NOON = "high_noon"
    NIGHTFALL = "nightfall"
    OVER = "over"


PHASE_TITLES: dict[Phase, str] = {
    Phase.GAMBLING: "Gambling Phase: who won lowball?",
    Phase.UPKEEP: "Upkeep Phase",
    Phase.HIGH_NOON: "High Noon",
    Phase.NIGHTFALL: "Nightfall",
    Phase.OVER: "The game is over",
}


class Fight(NamedTuple):
    """A call-out or a job under way.

    ``stage``: waiting for the target's answer, forming the dealer's posse, forming
    the target's posse, or the shootout. ``dealer_options`` / ``target_options``
    are who may join each side (fixed when the posses start forming).
    """

    kind: Literal["call_out", "job"]
    started_by: str
    dealer: str
    target: str
    location: str
    dealer_player: str
    target_player: str | None
    stage: Stage
    dealer_options: tuple[dt.Joiner, ...] = ()
    target_options: tuple[dt.Joiner, ...] = ()
    dealer_side: tuple[str, ...] = ()
    target_side: tuple[str, ...] = ()
    round: int = 1
    name: str = ""

    def side_of(self, dude_id: str) -> str | None:
        """``dealer`` or ``target`` for a dude in a posse, else ``None``."""
        if dude_id in self.dealer_side:
            return "dealer"
        return "target" if dude_id in self.target_side else None


class DoomState(NamedTuple):
    """A Doomtown game between two actions: the street, the phase, whose action it is, a fight under way."""

    town: dt.Town
    players: tuple[str, ...]
    turn: int = 1
    phase: Phase = Phase.GAMBLING
    winner: str | None = None
    to_act: str | None = None
    passes: int = 0
    fight: Fight | None = None
    boot_hill: tuple[dt.Dude, ...] = ()
    victory_points: tuple[tuple[str, int], ...] = ()
    names: tuple[tuple[str, str], ...] = ()
    champion: str | None = None

    def name(self, key: str) -> str:
        """A dude's, location's or player's display name (its id when it has none; players capitalised)."""
        if key == dt.TOWN_SQUARE:
            return "Town Square"
        shown = dict(self.names).get(key)
        if shown:
            return shown
        return key[:1].upper() + key[1:] if key in self.players else key

    def vp(self, player: str) -> int:
        """``player``'s Victory Points."""
        return dict(self.victory_points).get(player, 0)


def new_state(town: dt.Town, names: dict[str, str] | None = None, **fields: Any) -> DoomState:
    """The start of a turn on ``town``: seating in street order, Gambling Phase unless ``fields`` say otherwise."""
    return DoomState(town, tuple(s.player for s in town.streets), names=tuple(sorted((names or {}).items())),
                     **fields)


def apply(state: DoomState, action: da.Action) -> tuple[DoomState, Log]:
    """Carry out ``action``; return the new state and its log lines.

    Raises :class:`simulator.errors.IllegalChoice` naming the rule when the
    action is not allowed now (``state`` is never changed).
    """
    if state.phase == Phase.OVER and not isinstance(action, da.AdjustVictory):
        raise IllegalChoice(f"the game is over: {state.champion} has won (Winnin' the Game)")
    handler = _HANDLERS[type(action)]
    return handler(state, action)


def apply_all(state: DoomState, actions: list[da.Action]) -> tuple[DoomState, Log]:
    """Apply ``actions`` in order; return the last state and all log lines."""
    lines: list[str] = []
    for action in actions:
        state, log = apply(state, action)
        lines += log
    return state, tuple(lines)


def _dude(state: DoomState, dude_id: str) -> dt.Dude:
    try:
        return state.town.dude(dude_id)
    except KeyError:
        raise IllegalChoice(f"no dude {dude_id!r} is in play") from None


def _player(state: DoomState, player: str) -> str:
    if player not in state.players:
        raise IllegalChoice(f"{player!r} is not playing; players: {', '.join(state.players)}")
    return player


# ---- Gambling and Upkeep


def _lowball(state: DoomState, action: da.Lowball) -> tuple[DoomState, Log]:
    if state.phase != Phase.GAMBLING:
        raise IllegalChoice("the lowball Winner is found in the Gambling Phase (Sequence o' Play)")
    winner = _player(state, action.winner)
    return state._replace(phase=Phase.UPKEEP, winner=winner), (
        f"Turn {state.turn}: {state.name(winner)} wins lowball and acts first (Gambling Phase).",
        "Upkeep: collect Production, pay Upkeep (Upkeep Phase).")


def _end_upkeep(state: DoomState, action: da.EndUpkeep) -> tuple[DoomState, Log]:
    if state.phase != Phase.UPKEEP:
        raise IllegalChoice("not the Upkeep Phase (Sequence o' Play)")
    return state._replace(phase=Phase.HIGH_NOON, to_act=state.winner, passes=0), (
        f"High Noon: {state.name(state.winner or '')} acts first, then clockwise (High Noon).",)


# ---- High Noon actions


def _noon(state: DoomState, what: str) -> str:
    """The player whose action it is; raises unless it is High Noon with no fight under way."""
    if state.phase != Phase.HIGH_NOON or state.to_act is None:
        raise IllegalChoice(f"{what} is a High Noon action; now it is the {PHASE_TITLES[state.phase]} "
                            "(Sequence o' Play)")
    if state.fight is not None:
        raise IllegalChoice(f"finish the {state.fight.kind.replace('_', '-')} at {state.name(state.fight.location)} "
                            "first")
    return state.to_act


def _next_player(state: DoomState, after: str, passed: bool) -> tuple[DoomState, Log]:
    """Pass the action clockwise; when everybody has passed in a row, High Noon ends (Sequence o' Play)."""
    passes = state.passes + 1 if passed else 0
    if passes >= len(state.players):
        return _start_nightfall(state._replace(passes=passes, to_act=None))
    i = state.players.index(after)
    nxt = state.players[(i + 1) % len(state.players)]
    return state._replace(passes=passes, to_act=nxt), (f"{state.name(nxt)} to act (High Noon).",)


def _own(state: DoomState, dude: dt.Dude, player: str) -> None:
    if dude.player != player:
        raise IllegalChoice(f"{dude.id} is not {player}'s dude: it is {state.to_act}'s action (High Noon)")


def _move(state: DoomState, action: da.Move) -> tuple[DoomState, Log]:
    player = _noon(state, "moving")
    dude = _dude(state, action.dude)
    _own(state, dude, player)
    cost = dt.move_cost(state.town, dude.id, action.to)
    if not cost.legal:
        raise IllegalChoice(cost.reason)
    town = dt.move(state.town, dude.id, action.to)
    line = f"{state.name(dude.id)} moves to {state.name(action.to)}: {cost.reason}."
    return _after_action(state._replace(town=town), player, (line,))


def _after_action(state: DoomState, player: str, lines: Log) -> tuple[DoomState, Log]:
    nxt, more = _next_player(state, player, passed=False)
    return nxt, lines + more


def _pass(state: DoomState, action: da.Pass) -> tuple[DoomState, Log]:
    player = _noon(state, "passing")
    nxt, more = _next_player(state, player, passed=True)
    return nxt, (f"{state.name(player)} passes.", *more)


def _noon_action(state: DoomState, action: da.NoonAction) -> tuple[DoomState, Log]:
    player = _noon(state, "a Noon action")
    note = f": {action.note}" if action.note else ""
    return _after_action(state, player, (f"{state.name(player)} takes a Noon action{note} (High Noon: Actin').",))


def _shop(state: DoomState, action: da.Shop) -> tuple[DoomState, Log]:
    player = _noon(state, "shopping")
    if action.id in state.town.locations or action.id == dt.TOWN_SQUARE or any(
            d.id == action.id for d in (*state.town.dudes, *state.boot_hill)):
        raise IllegalChoice(f"{action.id} is already in play (cards are unique unless they say so)")
    names = state.names + (((action.id, action.name),) if action.name else ())
    shown = action.name or action.id
    town = state.town
    if action.card == "dude":
        town = town._replace(dudes=(*town.dudes, dt.Dude(action.id, player, town.home_of(player), False,
                                                         action.influence)))
        line = f"{shown} joins {state.name(player)}'s gang at home, unbooted (Shoppin')."
    elif action.card == "deed":
        town = dt.add_deed(town, player, action.id, action.end)
        line = f"{shown} goes up at the {action.end} end of {state.name(player)}'s street (Shoppin'; Table Layout)."
    else:
        town = dt.add_out_of_town(town, player, action.id)
        line = f"{shown} goes out of town, adjacent to nothing (Table Layout)."
    if action.card != "dude" and action.control_points:
        town = town._replace(control_points=(*town.control_points, (action.id, action.control_points)))
    return _after_action(state._replace(town=town, names=names), player, (line,))


# ---- call-outs


def _call_out(state: DoomState, action: da.CallOut) -> tuple[DoomState, Log]:
    player = _noon(state, "calling out")
    dealer, target = _dude(state, action.dealer), _dude(state, action.target)
    _own(state, dealer, player)
    posses = dt.call_out_posses(state.town, dealer.id, target.id)
    if not posses.legal:
        raise IllegalChoice(posses.reason)
    fight = Fight("call_out", player, dealer.id, target.id, target.at, dealer.player, target.player, "answer",
                  posses.dealer_side[1:], posses.target_side[1:], (dealer.id,), (target.id,))
    line = f"{state.name(dealer.id)} calls out {state.name(target.id)} at {state.name(target.at)} (Shootin')."
    if target.booted:
        return _accepted(state._replace(fight=fight), (line, f"{state.name(target.id)} is booted and must accept."))
    return state._replace(fight=fight), (line, f"{state.name(target.player)}: accept or refuse.")


def _answer(state: DoomState, action: da.Answer) -> tuple[DoomState, Log]:
    fight = state.fight
    if fight is None or fight.stage != "answer":
        raise IllegalChoice("nobody is waiting for an answer to a call-out")
    if action.accept:
        return _accepted(state, (f"{state.name(fight.target)} accepts (Shootin').",))
    town = dt.send_home_booted(state.town, fight.target)
    lines = (f"{state.name(fight.target)} refuses, boots and runs home to hide (Shootin').",)
    nxt, more = _next_player(state._replace(town=town, fight=None), fight.started_by, passed=False)
    return nxt, lines + more


def _accepted(state: DoomState, lines: Log) -> tuple[DoomState, Log]:
    assert state.fight is not None
    return state._replace(fight=state.fight._replace(stage="dealer_posse")), (
        *lines, f"{state.name(state.fight.dealer_player)}: click the dudes who join your posse, then Posse ready "
                "(Shootin').")


# ---- jobs


def _start_job(state: DoomState, action: da.StartJob) -> tuple[DoomState, Log]:
    player = _noon(state, "a job")
    dealer = _dude(state, action.dealer)
    _own(state, dealer, player)
    if action.target not in state.town.locations:
        _dude(state, action.target)
    posses = dt.job_posses(state.town, dealer.id, action.target)
    if not posses.legal or posses.location is None:
        raise IllegalChoice(posses.reason)
    defender = (dt.owner(state.town, action.target) if action.target in state.town.locations
                else state.town.dude(action.target).player)
    town = state.town.with_dude(dealer._replace(booted=True))
    job = action.name or "a job"
    fight = Fight("job", player, dealer.id, action.target, posses.location, player,
                  None if defender == player else defender, "dealer_posse", posses.dealer_side[1:],
                  posses.target_side, (dealer.id,), (), name=action.name)
    return state._replace(town=town, fight=fight), (
        f"{state.name(dealer.id)} boots to lead {job} against {state.name(action.target)} (Jobs).",
        f"{state.name(player)}: click the dudes who join the posse, then Posse ready (Jobs).")


# ---- forming posses


def _with_side(fight: Fight, which: str, dudes: tuple[str, ...]) -> Fight:
    """``fight`` with the dealer's or the target's side replaced by ``dudes``."""
    return fight._replace(dealer_side=dudes) if which == "dealer" else fight._replace(target_side=dudes)


def forming(state: DoomState) -> tuple[str, tuple[dt.Joiner, ...], tuple[str, ...]] | None:
    """The side being formed now: (``dealer``/``target``, who may join, who has joined), or ``None``."""
    fight = state.fight
    if fight is None or fight.stage not in ("dealer_posse", "target_posse"):
        return None
    if fight.stage == "dealer_posse":
        return "dealer", fight.dealer_options, fight.dealer_side
    return "target", fight.target_options, fight.target_side


def _join(state: DoomState, action: da.Join) -> tuple[DoomState, Log]:
    side = forming(state)
    if side is None or state.fight is None:
        raise IllegalChoice("no posse is being formed now")
    which, options, joined = side
    joiner = next((j for j in options if j.dude == action.dude), None)
    if joiner is None:
        raise IllegalChoice(f"{action.dude} cannot join this posse: only the side's dudes at the location "
                            "(booted or not) or adjacent and unbooted may (Shootin'; Jobs)")
    if action.dude in joined:
        raise IllegalChoice(f"{action.dude} has already joined")
    fight = _with_side(state.fight, which, (*joined, action.dude))
    how = "boots to join" if joiner.boots else "joins without booting"
    rule = "Jobs" if state.fight.kind == "job" else "Shootin'"
    return state._replace(fight=fight), (f"{state.name(action.dude)} {how} the {which}'s posse ({rule}).",)


def _leave(state: DoomState, action: da.Leave) -> tuple[DoomState, Log]:
    side = forming(state)
    if side is None or state.fight is None:
        raise IllegalChoice("no posse is being formed now")
    which, _, joined = side
    fixed = {state.fight.dealer, state.fight.target}
    if action.dude not in joined or action.dude in fixed:
        raise IllegalChoice(f"{action.dude} is not a joiner of this posse")
    fight = _with_side(state.fight, which, tuple(d for d in joined if d != action.dude))
    return state._replace(fight=fight), (f"{state.name(action.dude)} stays out of the posse (Shootin'; Jobs).",)


def _posse_ready(state: DoomState, action: da.PosseReady) -> tuple[DoomState, Log]:
    fight = state.fight
    if fight is None or forming(state) is None:
        raise IllegalChoice("no posse is being formed now")
    if fight.stage == "dealer_posse" and fight.target_player is not None:
        return state._replace(fight=fight._replace(stage="target_posse")), (
            f"{state.name(fight.target_player)}: click the dudes who join the defence, then Posse ready (Jobs).",)
    return _gather_posses(state)


def _gather_posses(state: DoomState) -> tuple[DoomState, Log]:
    """Every posse member moves to the location; those who came from an adjacent location boot."""
    fight = state.fight
    assert fight is not None
    boots = {j.dude for j in (*fight.dealer_options, *fight.target_options) if j.boots}
    town = state.town
    lines: list[str] = []
    for dude_id in (*fight.dealer_side, *fight.target_side):
        d = town.dude(dude_id)
        booted = d.booted or dude_id in boots
        town = town.with_dude(d._replace(at=fight.location, booted=booted))
        if d.at != fight.location:
            lines.append(f"{state.name(dude_id)} moves to {state.name(fight.location)}"
                         + (", booted" if booted else "") + " (Shootin'; Jobs).")
    state = state._replace(town=town, fight=fight._replace(stage="shootout"))
    if not fight.target_side or not fight.dealer_side:
        return _end_fight(state, tuple(lines))
    return state, (*lines, f"Shootout at {state.name(fight.location)}: {len(fight.dealer_side)} against "
                           f"{len(fight.target_side)}. Draw! Record who is aced and who is sent home "
                           "(Shootout Sequence).")


# ---- the shootout


def _in_shootout(state: DoomState) -> Fight:
    if state.fight is None or state.fight.stage != "shootout":
        raise IllegalChoice("no shootout is under way")
    return state.fight


def _leave_fight(state: DoomState, dude_id: str) -> DoomState:
    fight = state.fight
    if fight is None or fight.side_of(dude_id) is None:
        return state
    fight = fight._replace(dealer_side=tuple(d for d in fight.dealer_side if d != dude_id),
                           target_side=tuple(d for d in fight.target_side if d != dude_id))
    return state._replace(fight=fight)


def _maybe_end(state: DoomState, lines: Log) -> tuple[DoomState, Log]:
    fight = state.fight
    if fight is not None and fight.stage == "shootout" and (not fight.dealer_side or not fight.target_side):
        return _end_fight(state, lines)
    return state, lines


def _end_fight(state: DoomState, lines: Log) -> tuple[DoomState, Log]:
    """Only one posse (or none) is left: the shootout ends; a job works or fails; the action passes on."""
    fight = state.fight
    assert fight is not None
    out = list(lines)
    town = state.town
    if fight.kind == "job":
        works = bool(fight.dealer_side)
        out.append(f"The job {fight.name + ' ' if fight.name else ''}"
                   + ("works: resolve the card's effects (Jobs)." if works else "fails (Jobs)."))
        for dude_id in fight.dealer_side:
            town = dt.send_home_booted(town, dude_id)
            out.append(f"{state.name(dude_id)} goes home booted after the job (Jobs).")
        if fight.target_side:
            out.append("The defenders stay at " + state.name(fight.location) + " (Jobs).")
    else:
        left = fight.dealer_side or fight.target_side
        out.append("The shootout is over" + (f": {', '.join(state.name(d) for d in left)} left standing."
                                             if left else ": nobody is left."))
    nxt, more = _next_player(state._replace(town=town, fight=None), fight.started_by, passed=False)
    return nxt, (*out, *more)


def _card_join(state: DoomState, action: da.CardJoin) -> tuple[DoomState, Log]:
    fight = _in_shootout(state)
    dude = _dude(state, action.dude)
    if fight.side_of(dude.id) is not None:
        raise IllegalChoice(f"{dude.id} is already in the shootout")
    if dude.player not in (fight.dealer_player, fight.target_player):
        raise IllegalChoice("only dudes of the two players in the shootout can join it (Shootin')")
    which = "dealer" if dude.player == fight.dealer_player else "target"
    fight = _with_side(fight, which, (*(fight.dealer_side if which == "dealer" else fight.target_side), dude.id))
    town = state.town.with_dude(dude._replace(at=fight.location, booted=dude.booted or action.boots))
    return state._replace(town=town, fight=fight), (
        f"A card brings {state.name(dude.id)} into the shootout at {state.name(fight.location)}"
        + (", booted." if action.boots else "."),)


def _next_round(state: DoomState, action: da.NextRound) -> tuple[DoomState, Log]:
    fight = _in_shootout(state)
    return state._replace(fight=fight._replace(round=fight.round + 1)), (
        f"Shootout round {fight.round + 1} (Shootout Sequence).",)


# ---- card effects


def _ace(state: DoomState, action: da.Ace) -> tuple[DoomState, Log]:
    dude = _dude(state, action.dude)
    state = _leave_fight(state, dude.id)
    town = state.town._replace(dudes=tuple(d for d in state.town.dudes if d.id != dude.id))
    state = state._replace(town=town, boot_hill=(*state.boot_hill, dude))
    return _maybe_end(state, (f"{state.name(dude.id)} is aced: into {state.name(dude.player)}'s Boot Hill "
                              "(Shootout Sequence; Glossary: ace).",))


def _send_home(state: DoomState, action: da.SendHome) -> tuple[DoomState, Log]:
    dude = _dude(state, action.dude)
    in_fight = state.fight is not None and state.fight.side_of(dude.id) is not None
    state = _leave_fight(state, dude.id)
    state = state._replace(town=dt.send_home_booted(state.town, dude.id))
    why = "leaves the shootout and goes home booted (Shootout Sequence)" if in_fight else \
        "is sent home booted (Movin' Around)"
    return _maybe_end(state, (f"{state.name(dude.id)} {why}.",))


def _boot(state: DoomState, action: da.Boot) -> tuple[DoomState, Log]:
    dude = _dude(state, action.dude)
    town = state.town.with_dude(dude._replace(booted=action.booted))
    return state._replace(town=town), (f"A card {'boots' if action.booted else 'unboots'} {state.name(dude.id)}.",)


def _card_move(state: DoomState, action: da.CardMove) -> tuple[DoomState, Log]:
    dude = _dude(state, action.dude)
    if state.fight is not None and state.fight.side_of(dude.id) is not None:
        raise IllegalChoice(f"{dude.id} is in a posse; leave by being sent home")
    if dude.booted:
        raise IllegalChoice("a card's move does not boot, but a booted dude still cannot move (Movin' Around)")
    if action.to not in state.town.locations or action.to == dude.at:
        raise IllegalChoice(f"{action.to} is not another location in play")
    town = state.town.with_dude(dude._replace(at=action.to))
    return state._replace(town=town), (f"A card moves {state.name(dude.id)} to {state.name(action.to)} without "
                                       "booting (Movin' Around).",)


def _destroy(state: DoomState, action: da.Destroy) -> tuple[DoomState, Log]:
    if state.fight is not None and state.fight.location == action.deed:
        raise IllegalChoice("finish the fight at that deed first")
    try:
        sent = [state.name(d.id) for d in state.town.dudes_at(action.deed)]
        town = dt.destroy(state.town, action.deed)
    except KeyError:
        raise IllegalChoice(f"{action.deed!r} is not a deed in play") from None
    tail = f" Sent home booted: {', '.join(sent)}." if sent else ""
    return state._replace(town=town), (f"{state.name(action.deed)} is destroyed; the street closes up "
                                       f"(Table Layout; Controllin' Deeds).{tail}",)


def _set_influence(state: DoomState, action: da.SetInfluence) -> tuple[DoomState, Log]:
    dude = _dude(state, action.dude)
    town = state.town.with_dude(dude._replace(influence=action.influence))
    return state._replace(town=town), (f"{state.name(dude.id)} now has {action.influence} Influence.",)


def _set_points(state: DoomState, action: da.SetControlPoints) -> tuple[DoomState, Log]:
    deed = action.deed
    if deed not in state.town.locations or deed == dt.TOWN_SQUARE or deed in state.town.homes:
        raise IllegalChoice(f"{deed!r} is not a deed in play (homes and the Town Square have no Control Points)")
    points = tuple((d, p) for d, p in state.town.control_points if d != deed) + ((deed, action.points),)
    return state._replace(town=state.town._replace(control_points=points)), (
        f"{state.name(deed)} is worth {action.points} Control Point(s).",)


def _victory(state: DoomState, action: da.AdjustVictory) -> tuple[DoomState, Log]:
    player = _player(state, action.player)
    value = state.vp(player) + action.delta
    if value < 0:
        raise IllegalChoice("Victory Points cannot go below zero")
    points = tuple((p, v) for p, v in state.victory_points if p != player) + ((player, value),)
    return state._replace(victory_points=points), (f"{state.name(player)} has {value} Victory Point(s).",)


# ---- Nightfall and the game's end


def standing(state: DoomState) -> dict[str, tuple[int, int, int]]:
    """Each player's (Influence, Control Points, Victory Points) now."""
    return {p: (dt.total_influence(state.town, p), dt.control_points(state.town, p), state.vp(p))
            for p in state.players}


def champion(state: DoomState) -> str | None:
    """Who wins at the start of Nightfall, or ``None`` (Winnin' the Game).

    A player wins with more Victory plus Control Points than any other player's
    Influence; of several, the most points; then the most Influence; a tie
    means another turn.
    """
    table = standing(state)
    able = [p for p, (_, cp, vp) in table.items()
            if all(cp + vp > inf for q, (inf, _, _) in table.items() if q != p)]
    if not able:
        return None
    best = sorted(able, key=lambda p: (-(table[p][1] + table[p][2]), -table[p][0]))
    if len(best) > 1 and (table[best[0]][1] + table[best[0]][2], table[best[0]][0]) == \
            (table[best[1]][1] + table[best[1]][2], table[best[1]][0]):
        return None
    return best[0]


def _start_nightfall(state: DoomState) -> tuple[DoomState, Log]:
    lines = ["Everybody has passed: Nightfall (Sequence o' Play)."]
    winner = champion(state)
    if winner is not None:
        inf, cp, vp = standing(state)[winner]
        return state._replace(phase=Phase.OVER, champion=winner), (
            *lines, f"{state.name(winner)} wins with {cp + vp} Control and Victory Points (Winnin' the Game).")
    influence = {p: v[0] for p, v in standing(state).items()}
    top = max(influence.values(), default=0)
    most = [p for p, v in influence.items() if v == top]
    if len(most) == 1:
        lines.append(f"{state.name(most[0])} has the most Influence and draws a six-card Play hand (Nightfall).")
    return state._replace(phase=Phase.NIGHTFALL), tuple(lines)


def _nightfall(state: DoomState, action: da.Nightfall) -> tuple[DoomState, Log]:
    if state.phase != Phase.NIGHTFALL:
        raise IllegalChoice("Nightfall comes when everybody has passed at High Noon (Sequence o' Play)")
    town = dt.unboot_all(state.town)
    return state._replace(town=town, phase=Phase.GAMBLING, turn=state.turn + 1, winner=None, to_act=None,
                          passes=0), ("Nightfall: every dude unboots (Nightfall).",
                                      f"Turn {state.turn + 1}: ante and draw for lowball (Gambling Phase).")


_HANDLERS: dict[type, Callable[[DoomState, Any], tuple[DoomState, Log]]] = {
    da.Lowball: _lowball, da.EndUpkeep: _end_upkeep, da.Move: _move, da.CallOut: _call_out,
    da.StartJob: _start_job, da.Shop: _shop, da.NoonAction: _noon_action, da.Pass: _pass, da.Answer: _answer,
    da.Join: _join, da.Leave: _leave, da.PosseReady: _posse_ready, da.CardJoin: _card_join,
    da.NextRound: _next_round, da.Ace: _ace, da.SendHome: _send_home, da.Boot: _boot, da.CardMove: _card_move,
    da.Destroy: _destroy, da.SetInfluence: _set_influence, da.SetControlPoints: _set_points,
    da.AdjustVictory: _victory, da.Nightfall: _nightfall,
}
