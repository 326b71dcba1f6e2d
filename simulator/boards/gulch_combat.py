"""The acting dude's action in step 5: shootin' and fightin', robbing, arrests, the Jail, and the rest.

Rules (``seeds/004``): "Actions" (one action, the one on the dude's token),
"Action Tokens" (Fight, Rob, Arrest, Recruit, Raise the Dead, Run and the
others), "Shootin' and Fightin'" (sight, no shooting into a building, one
attack and a possible counterattack, a miss lets the target run home or shoot
back, townsfolk shoot or flee), "Long Range Combat", "Death" (a second wound
kills; the killer takes 1d6 ghost rock; townsfolk leave the board), "Harrowed",
"Item Cards" (dynamite moves townsfolk two spaces, never into the Jail),
"Automatic Actions" (the Deputy jails whoever robs or shoots where he stands)
and "The Jail" (three cells, untouchable while the Sheriff lives, bail and
bust-out to the square outside).

The dice stay with the players: each action carries the outcome they rolled.
Judgement calls: hand-to-hand fights, robbing and arresting are with a figure
in the same space; a dude may be arrested when he robbed or shot this round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simulator.boards import gulch_actions as ga
from simulator.boards.gulch_board import HOME, JAIL, RAIL_STATION
from simulator.boards.gulch_movement import distance
from simulator.boards.gulch_round import (
    HOTEL_SALOON,
    GulchState,
    Log,
    Step,
    advance,
    kill_folk,
    name,
    outfit_name,
    place,
    run_destinations,
    wound,
)
from simulator.boards.gulch_sight import DYNAMITE, PISTOL, Weapon, can_shoot
from simulator.boards.gulch_town import ASIDE, Dude, can_jail, send_to_jail
from simulator.errors import IllegalChoice

GRAVEYARD = "graveyard"
SHOOTING = frozenset({"gun", "dynamite", "long_range"})
COACH_STOP = {"coach": HOTEL_SALOON, "train": RAIL_STATION}


def _acting(state: GulchState, tokens: set[str] | frozenset[str], what: str) -> Dude:
    """The acting dude, when his token allows ``what``; raises :class:`IllegalChoice` otherwise."""
    if state.step == Step.ACTIONS and state.scatter:
        raise IllegalChoice("first move the townsfolk the dynamite hit (Item Cards)")
    if state.step != Step.ACTIONS or state.actor is None:
        raise IllegalChoice("nobody is acting now: actions are taken in step 5 (Playing the Game)")
    order = state.order_of(state.actor)
    token = order.token if order else "none"
    if token not in tokens:
        raise IllegalChoice(f"{state.actor} has a {token} token: only the action on his token can be taken, "
                            f"and {what} needs {' or '.join(sorted(tokens))} (Actions)")
    return state.town.dude(state.actor)


def finish(state: GulchState, lines: Log, took_action: bool = True) -> tuple[GulchState, Log]:
    """The acting dude is done: mark whether he took an action, and pass to the next dude."""
    actor = state.queue[0]
    acted = state.acted | {actor} if took_action else state.acted
    return advance(state._replace(queue=state.queue[1:], acted=acted), lines)


def _target(state: GulchState, actor: Dude, figure_id: str) -> str:
    """Check a figure may be harmed by ``actor``; return where it is."""
    town = state.town
    if figure_id == actor.id:
        raise IllegalChoice("a dude cannot target himself")
    if town.is_folk(figure_id):
        folk = town.folk(figure_id)
        if folk.in_cell and town.sheriff is not None:
            raise IllegalChoice("nobody in a jail cell may be harmed while the Sheriff is alive (The Jail)")
        return folk.at
    if not town.is_dude(figure_id):
        raise IllegalChoice(f"no dude or townsfolk has the id {figure_id!r}")
    dude = town.dude(figure_id)
    if dude.outfit == actor.outfit:
        raise IllegalChoice("a dude attacks other outfits' dudes or townsfolk, not his own (Action Tokens)")
    if dude.dead or not dude.in_play:
        raise IllegalChoice(f"{figure_id} is dead or not in play (Death)")
    if dude.in_cell and town.sheriff is not None:
        raise IllegalChoice("nobody in a jail cell may be harmed while the Sheriff is alive (The Jail)")
    if dude.at == HOME:
        raise IllegalChoice(f"{figure_id} is at home, off the board")
    return dude.at


def _same_space(actor: Dude, where: str, what: str) -> None:
    if where != actor.at:
        raise IllegalChoice(f"{what} is with a figure in the same space as the dude ({actor.id} is at {actor.at})")


def _weapon(action: ga.Attack) -> Weapon:
    if action.weapon == "dynamite":
        return DYNAMITE
    if action.weapon == "long_range":
        return Weapon("long-range gun", "long_range", action.max_range)
    return PISTOL


# ---- shootin' and fightin'


def attack(state: GulchState, action: ga.Attack) -> tuple[GulchState, Log]:
    """Carry out a Fight token: shoot (gun, dynamite, long range) or fight ``action.target`` ("Shootin' and Fightin'").

    Outcomes: ``wounds`` / ``kills`` (a townsfolk with Vigor 1) hurt the target,
    ``misses`` hurts nobody, ``target_runs`` sends a dude home or a townsfolk
    off the board, ``attacker_wounded`` wounds the attacker (return fire, a
    townsfolk that draws, a lost fight). Raises :class:`IllegalChoice` for a
    target out of sight or reach, an outcome that cannot happen, or a missing
    1d6 when a dude kills another outfit's dude (Death).
    """
    actor = _acting(state, {"fight"}, "attacking")
    where = _target(state, actor, action.target)
    folk = state.town.is_folk(action.target)
    if action.weapon == "fight":
        _same_space(actor, where, "a fight (Strength against Strength)")
        if action.outcome == "target_runs":
            raise IllegalChoice("in a fight the higher Strength wounds the other; nobody runs (Shootin' and "
                                "Fightin')")
    else:
        can_shoot(state.board, actor.at, where, _weapon(action)).require()
    if action.outcome == "kills" and not folk:
        raise IllegalChoice("a dude is killed only by a second wound (Death)")
    verb = {"fight": "fights", "gun": "shoots at", "dynamite": "throws dynamite at",
            "long_range": "fires a long-range gun at"}[action.weapon]
    lines: Log = (f"{actor.id} {verb} {name(state, action.target)} (Shootin' and Fightin').",)
    before = state
    state, more = _attack_outcome(state, actor, action)
    state, paid = _killing_pays(before, state, actor.id, action.target, action.die)
    lines += more + paid
    if action.weapon in SHOOTING:
        state, law = _crime(state, actor.id, "shoots")
        lines += law
    if action.weapon == "dynamite":
        hit = tuple(f.id for f in state.town.townsfolk if f.at == where and not f.in_cell)
        state = state._replace(scatter=hit)
        if hit:
            lines += (f"Dynamite: {actor.id}'s player moves each townsfolk at {where} up to two spaces "
                      "(Item Cards).",)
    return finish(state, lines)


def _attack_outcome(state: GulchState, actor: Dude, action: ga.Attack) -> tuple[GulchState, Log]:
    target = action.target
    if action.outcome == "wounds":
        return wound(state, target)
    if action.outcome == "kills":
        return kill_folk(state, target, "is killed: off the board; the attacker takes the reward on its card "
                                        "(Death).")
    if action.outcome == "misses":
        return state, ("Missed; nobody is hurt (Shootin' and Fightin').",)
    if action.outcome == "target_runs":
        if state.town.is_folk(target):
            return kill_folk(state, target, "flees: off the board; discard the encounter card (Shootin' and "
                                            "Fightin').")
        return state._replace(town=state.town.moved(target, HOME)), (
            f"Missed; {target} runs straight home (Shootin' and Fightin').",)
    return wound(state, actor.id)


def _killing_pays(before: GulchState, after: GulchState, actor: str, target: str,
                  die: int | None) -> tuple[GulchState, Log]:
    """When one outfit's dude kills another's, the killer's outfit takes 1d6 ghost rock from the victim's (Death)."""
    for victim, killer in ((target, actor), (actor, target)):
        if not before.town.is_dude(victim) or not before.town.is_dude(killer):
            continue
        if after.town.dude(victim).dead and not before.town.dude(victim).dead:
            return _take_ghost_rock(after, after.town.dude(killer).outfit, after.town.dude(victim).outfit, die,
                                    "for the kill (Death)")
    return after, ()


def _take_ghost_rock(state: GulchState, taker: str, payer: str, die: int | None,
                     why: str) -> tuple[GulchState, Log]:
    """``taker`` rolls 1d6 (``die``) and takes that much of ``payer``'s ghost rock, as much as there is."""
    if die is None:
        raise IllegalChoice(f"roll 1d6 for the ghost rock {taker} takes from {payer} {why}")
    got = min(die, state.outfit(payer).ghost_rock)
    state = state.with_outfit(state.outfit(payer)._replace(ghost_rock=state.outfit(payer).ghost_rock - got))
    state = state.with_outfit(state.outfit(taker)._replace(ghost_rock=state.outfit(taker).ghost_rock + got))
    return state, (f"{outfit_name(taker)} rolls {die} and takes {got} ghost rock from {outfit_name(payer)} {why}.",)


def _crime(state: GulchState, dude_id: str, verb: str) -> tuple[GulchState, Log]:
    """Mark a robbery or a shooting; where the Deputy stands, the offender goes to jail (Automatic Actions)."""
    state = state._replace(crimes=state.crimes | {dude_id})
    dude = state.town.dude(dude_id)
    if state.town.deputy is None or dude.at != state.town.deputy or not dude.active:
        return state, ()
    if not can_jail(state.town).legal:
        return state, (f"The Deputy saw {dude_id} {verb.rstrip('s')}, but all three cells are full (The Jail).",)
    return state._replace(town=send_to_jail(state.town, dude_id)), (
        f"The Deputy saw {dude_id} {verb.rstrip('s')} and sends him to jail (Automatic Actions).",)


# ---- robbing


def rob(state: GulchState, action: ga.Rob) -> tuple[GulchState, Log]:
    """Carry out a Rob token against a figure in the dude's space, or the coach or train (Action Tokens, Rob).

    ``caught`` (a 1 rolled and no 6) sends the robber to jail; ``success``
    against a townsfolk takes it off the board, against a dude takes 1d6 ghost
    rock (``die``); ``failed`` against a dude wounds the robber. The coach and
    train can be robbed only where they stop, in the round they arrive.
    """
    actor = _acting(state, {"rob"}, "robbing")
    target = action.target
    if target in COACH_STOP:
        if actor.at != COACH_STOP[target] or target not in state.robbable:
            raise IllegalChoice(f"the {target} can be robbed only at {COACH_STOP[target]} in the round it arrives "
                                "(Action Tokens, Rob)")
        victim = f"the {target}"
    else:
        _same_space(actor, _target(state, actor, target), "robbing")
        victim = name(state, target)
    lines: Log = (f"{actor.id} robs {victim} (Action Tokens, Rob).",)
    if action.outcome == "caught":
        state, more = _caught(state, actor.id)
        return finish(state, lines + more)
    if action.outcome == "success":
        state, more = _robbed(state, actor, target, action.die)
    elif state.town.is_dude(target):
        state, more = wound(state, actor.id)
        more = (f"{target} wins the Agility test.", *more)
    else:
        more = ("The robbery fails.",)
    state, law = _crime(state, actor.id, "robs")
    return finish(state, lines + more + law)


def _caught(state: GulchState, dude_id: str) -> tuple[GulchState, Log]:
    state = state._replace(crimes=state.crimes | {dude_id})
    if not can_jail(state.town).legal:
        return state, ("Caught red-handed, but all three cells are full (The Jail).",)
    return state._replace(town=send_to_jail(state.town, dude_id)), (
        f"Caught red-handed: {dude_id} goes to jail (Action Tokens, Rob).",)


def _robbed(state: GulchState, actor: Dude, target: str, die: int | None) -> tuple[GulchState, Log]:
    if target in COACH_STOP:
        return state, (f"{actor.outfit} takes one item from the {target} at no cost (Action Tokens, Rob).",)
    if state.town.is_folk(target):
        return kill_folk(state, target, "is robbed: the robber takes the ghost rock on its card; off the board "
                                        "(Action Tokens, Rob).")
    return _take_ghost_rock(state, actor.outfit, state.town.dude(target).outfit, die, "in the robbery")


# ---- the law and the Jail


def arrest(state: GulchState, action: ga.Arrest) -> tuple[GulchState, Log]:
    """Carry out an Arrest token on a figure in the dude's space (Action Tokens; The Jail).

    A dude may be arrested when he robbed or shot this round; a townsfolk when
    the players judge it "bad". All three cells full means no arrest. A
    successful arrest of a dude takes 1d6 (``die``) of his outfit's ghost rock.
    """
    actor = _acting(state, {"arrest"}, "an arrest")
    _same_space(actor, _target(state, actor, action.target), "an arrest")
    is_dude = state.town.is_dude(action.target)
    if is_dude and action.target not in state.crimes:
        raise IllegalChoice(f"{action.target} has not robbed or shot anyone this round: nothing to arrest him "
                            "for (Action Tokens)")
    can_jail(state.town).require()
    lines: Log = (f"{actor.id} tries to arrest {name(state, action.target)} (Action Tokens).",)
    if not action.success:
        return finish(state, (*lines, "The arrest fails."))
    payer = state.town.dude(action.target).outfit if is_dude else None
    state = state._replace(town=send_to_jail(state.town, action.target))
    lines += (f"{name(state, action.target)} is locked in a jail cell (The Jail).",)
    if payer is not None:
        state, paid = _take_ghost_rock(state, actor.outfit, payer, action.die, "for the arrest")
        lines += paid
    return finish(state, lines)


def _inmate(state: GulchState, actor: Dude, inmate: str) -> None:
    if actor.at != JAIL:
        raise IllegalChoice("breaking someone out is done at the Jail (The Jail)")
    town = state.town
    locked = (town.is_dude(inmate) and town.dude(inmate).in_cell) or (town.is_folk(inmate)
                                                                       and town.folk(inmate).in_cell)
    if not locked:
        raise IllegalChoice(f"{inmate} is not in a jail cell (The Jail)")


def _outside_jail(state: GulchState, *figures: str) -> GulchState:
    """Move figures to the street square just outside the Jail, out of any cell (The Jail)."""
    door = state.board.doors(JAIL)[0]
    town = state.town
    for f in figures:
        if town.is_dude(f):
            if not town.dude(f).dead:
                town = town.with_dude(town.dude(f)._replace(at=door, in_cell=False))
        elif town.is_folk(f):
            town = town.with_folk(town.folk(f)._replace(at=door, in_cell=False))
    return state._replace(town=town)


def bail(state: GulchState, action: ga.Bail) -> tuple[GulchState, Log]:
    """Pay 1d6 ghost rock of bail: the dude and the inmate walk out to the square outside the Jail (The Jail)."""
    actor = _acting(state, {"fight"}, "posting bail")
    _inmate(state, actor, action.inmate)
    outfit = state.outfit(actor.outfit)
    if outfit.ghost_rock < action.die:
        raise IllegalChoice(f"bail is {action.die} ghost rock and {outfit.id} holds {outfit.ghost_rock}; bust "
                            "him out instead (The Jail)")
    state = state.with_outfit(outfit._replace(ghost_rock=outfit.ghost_rock - action.die))
    state = _outside_jail(state, actor.id, action.inmate)
    return finish(state, (f"{actor.id} posts {action.die} ghost rock bail for {name(state, action.inmate)}; "
                          "both step out into the street (The Jail).",))


def bust_out(state: GulchState, action: ga.BustOut) -> tuple[GulchState, Log]:
    """Fight the Sheriff (Strength) to bust an inmate out (The Jail).

    Won: the Sheriff takes a wound and the inmate walks out with the dude to the
    square outside the Jail. Lost: the dude is wounded and thrown out into that
    square. With the Sheriff dead, nobody stops them.
    """
    actor = _acting(state, {"fight"}, "a bust-out")
    _inmate(state, actor, action.inmate)
    sheriff = state.town.sheriff
    if sheriff is None:
        state = _outside_jail(state, actor.id, action.inmate)
        return finish(state, (f"The Sheriff is dead: {actor.id} lets {name(state, action.inmate)} out "
                              "(The Jail).",))
    if action.won:
        state, hurt = wound(state, sheriff.id)
        state = _outside_jail(state, actor.id, action.inmate)
        return finish(state, (f"{actor.id} beats the Sheriff and busts {name(state, action.inmate)} out "
                              "(The Jail).", *hurt))
    state, hurt = wound(state, actor.id)
    state = _outside_jail(state, actor.id)
    return finish(state, (f"The Sheriff wins: {actor.id} is thrown out into the street (The Jail).", *hurt))


# ---- recruiting and raising the dead


def _aside_dude(state: GulchState, outfit: str) -> Dude | None:
    return next((d for d in state.town.dudes if d.outfit == outfit and d.at == ASIDE), None)


def recruit(state: GulchState, action: ga.Recruit) -> tuple[GulchState, Log]:
    """Try to recruit a townsfolk in the dude's space; on success one set-aside dude takes its place.

    ("To Start the Game": the dudes set aside join when townsfolk are recruited;
    "Action Tokens", Special: Brainwash and Epiphany.) Raises
    :class:`IllegalChoice` when no dude of the outfit is left to put in.
    """
    actor = _acting(state, {"recruit", "special"}, "recruiting")
    if not state.town.is_folk(action.target):
        raise IllegalChoice("only townsfolk can be recruited (Good vs. Bad)")
    where = _target(state, actor, action.target)
    _same_space(actor, where, "recruiting")
    newcomer = _aside_dude(state, actor.outfit)
    if newcomer is None:
        raise IllegalChoice(f"{actor.outfit} has no dude left to put in play for a recruit (To Start the Game)")
    lines: Log = (f"{actor.id} tries to recruit {name(state, action.target)} (Good vs. Bad).",)
    if not action.success:
        return finish(state, (*lines, "The townsfolk will not join."))
    town = state.town.without_folk(action.target).with_dude(newcomer._replace(at=where))
    return finish(state._replace(town=town), (*lines, f"Recruited: {newcomer.id} now stands at {where}."))


def raise_dead(state: GulchState, action: ga.Raise) -> tuple[GulchState, Log]:
    """Try to raise a dead dude in the Graveyard: he comes back harrowed ("Raise the Dead", "Harrowed").

    Another outfit's dude is replaced by one of the raiser's set-aside dudes when
    there is one; otherwise he comes back in his own outfit.
    """
    actor = _acting(state, {"raise"}, "raising the dead")
    if actor.at != GRAVEYARD:
        raise IllegalChoice("the dead are raised from the Graveyard (Raise the Dead)")
    if not state.town.is_dude(action.target) or not state.town.dude(action.target).dead:
        raise IllegalChoice(f"{action.target} is not a dead dude (Raise the Dead)")
    lines: Log = (f"{actor.id} tries to raise {action.target} (Raise the Dead).",)
    if not action.success:
        return finish(state, (*lines, "The dead stay dead."))
    dead = state.town.dude(action.target)
    mine = _aside_dude(state, actor.outfit) if dead.outfit != actor.outfit else None
    if mine is None:
        town = state.town.with_dude(dead._replace(dead=False, wounded=False, harrowed=True))
        return finish(state._replace(town=town), (*lines, f"{action.target} rises, harrowed (Harrowed)."))
    town = state.town.with_dude(dead._replace(at=ASIDE, dead=False, wounded=False))
    town = town.with_dude(mine._replace(at=GRAVEYARD, harrowed=True))
    return finish(state._replace(town=town), (
        *lines, f"{action.target} rises for {actor.outfit}: {mine.id} takes his place, harrowed (Raise the Dead)."))


# ---- moving, and the other tokens


def run_to(state: GulchState, action: ga.RunTo) -> tuple[GulchState, Log]:
    """The runner moves now, up to four spaces (two when wounded) (Action Tokens, Run)."""
    actor = _acting(state, {"run"}, "running")
    choices = run_destinations(state, actor.id)
    if action.to not in choices:
        limit = 2 if actor.id in state.hurt or actor.wounded else 4
        far = distance(state.board, actor.at, action.to)
        raise IllegalChoice(f"{action.to} is {far} spaces away by orthogonal steps through doors; this runner "
                            f"goes up to {limit} (Action Tokens, Run)")
    state = state._replace(town=state.town.moved(actor.id, action.to))
    return finish(state, (f"{actor.id} runs to {place(action.to)} (Action Tokens, Run).",))


def take_action(state: GulchState, action: ga.TakeAction) -> tuple[GulchState, Log]:
    """The acting dude takes his token's action where the board moves nothing (shop, spells, mesmerize...)."""
    tokens = frozenset(ga.TOKENS) - {"run", "none"}
    actor = _acting(state, tokens, "this action")
    order = state.order_of(actor.id)
    note = f": {action.note}" if action.note else ""
    return finish(state, (f"{actor.id} takes the {order.token if order else ''} action{note} (Actions).",))


def skip(state: GulchState, action: ga.Skip) -> tuple[GulchState, Log]:
    """The acting dude does nothing this round (Actions)."""
    actor = _acting(state, frozenset(ga.TOKENS), "doing nothing")
    return finish(state, (f"{actor.id} takes no action (Actions).",), took_action=False)


def defer(state: GulchState, action: ga.Defer) -> tuple[GulchState, Log]:
    """The acting dude lets the next dude in his space act before him (Actions)."""
    actor = _acting(state, frozenset(ga.TOKENS), "letting another act first")
    if len(state.queue) < 2 or state.town.dude(state.queue[1]).at != actor.at:
        raise IllegalChoice("nobody else acts in this space after him (Actions)")
    queue = (state.queue[1], actor.id, *state.queue[2:])
    return advance(state._replace(queue=queue), (f"{actor.id} lets {queue[0]} act first (Actions).",))


def scatter(state: GulchState, action: ga.Scatter) -> tuple[GulchState, Log]:
    """Move one townsfolk the dynamite hit, up to two spaces, never home (Item Cards)."""
    if action.figure not in state.scatter:
        raise IllegalChoice(f"{action.figure} was not hit by dynamite this action (Item Cards)")
    folk = state.town.folk(action.figure)
    far = distance(state.board, folk.at, action.to)
    if action.to == HOME or far is None or not 1 <= far <= 2:
        raise IllegalChoice("a townsfolk hit by dynamite moves one or two spaces on the board (Item Cards)")
    state = state._replace(town=state.town.with_folk(folk._replace(at=action.to)),
                           scatter=tuple(f for f in state.scatter if f != action.figure))
    return advance(state, (f"{name(state, action.figure)} scatters to {place(action.to)} (Item Cards).",))


HANDLERS: dict[type, Callable[[GulchState, Any], tuple[GulchState, Log]]] = {
    ga.Attack: attack, ga.Rob: rob, ga.Arrest: arrest, ga.Bail: bail, ga.BustOut: bust_out, ga.Recruit: recruit,
    ga.Raise: raise_dead, ga.RunTo: run_to, ga.TakeAction: take_action, ga.Skip: skip, ga.Defer: defer,
    ga.Scatter: scatter,
}
