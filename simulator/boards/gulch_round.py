"""A Slaughter Gulch game played round by round: steps, secret orders, the action step, the round's end.

Rules (``seeds/004``): "To Start the Game" (three dudes onto street squares,
placed in secret), "Playing the Game" (five steps: spells, secret orders,
reveal and move, events, actions; then new arrivals), "Movement", "Action
Tokens" (Run decided at the runner's action), "Actions" (one action, in the
order of the token numbers; wounded this round means no action), "Events",
"Automatic Actions" (the Doctor, the Deputy), "Game End", "Winning the Game".
Shooting, robbing, the Jail and the rest of a dude's action are in
:mod:`simulator.boards.gulch_combat`.

:class:`GulchState` is a value; :func:`apply` returns a new state and the log
lines (each naming its rule section). An action the rules refuse raises
:class:`simulator.errors.IllegalChoice` with the reason and the section, and
changes nothing.

Judgement calls (the rulebook leaves them open), stated once:

* the action order walks the buildings by their numbered disks (clockwise from
  the Rail Station), then the street squares column by column from the Rail
  Station to the Mine (the top lane first in each column), then home;
* tied token numbers in one space go in seating order; "let the next act
  first" (:class:`~simulator.boards.gulch_actions.Defer`) covers the tie roll
  and a dude who lets others go before him;
* the game's end "at the beginning of the turn" (an outfit controlling three
  locations) is checked when a round ends, for the round that follows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, NamedTuple

from simulator.boards import gulch_actions as ga
from simulator.boards.gulch_board import DISPLAY_NAMES, HOME, JAIL, Board, parse_street
from simulator.boards.gulch_movement import RUN_SPACES, Plan, check_plan, legal_moves
from simulator.boards.gulch_town import ASIDE, Dude, Folk, Town, controller, deputy_next, jailed
from simulator.boards.verdict import Verdict, allowed, refused
from simulator.errors import IllegalChoice

Log = tuple[str, ...]
DOCTOR = "doctors_office"
HOTEL_SALOON = "hotel_saloon"
SPELLCASTERS = frozenset({"blessed", "hucksters", "shamans", "mad_scientists"})
LAWMEN = frozenset({"agency", "texas_rangers"})
SETUP_DUDES = 3
#: Ghost rock in the mine at the start by player count ("Game Setup").
MINE_START = {2: 40, 3: 40, 4: 50, 5: 60, 6: 60}
END_CONDITIONS: dict[int, str] = {
    1: "the last encounter card is drawn",
    2: "one outfit controls 3 locations at the beginning of the turn",
    3: "one outfit completes four objectives",
    4: "the Jail is full and the mine is depleted",
    5: "the last event card is drawn",
    6: "all outfits have at least 5 dudes on the board or at home (the graveyard included)",
}
DECLARED_CONDITIONS = frozenset({1, 5})


class Step(StrEnum):
    """Where the round is ("Playing the Game"); ``setup`` is the secret placement before round 1."""

    SETUP = "setup"
    SPELLS = "spells"          # step 1
    ORDERS = "orders"          # step 2 (step 3, the reveal, follows the last outfit's orders)
    EVENTS = "events"          # step 4
    ACTIONS = "actions"        # step 5
    ARRIVALS = "arrivals"      # after step 5: new arrivals, then the round's end
    OVER = "over"              # the game has ended (Winning the Game)


STEP_TITLES: dict[Step, str] = {
    Step.SETUP: "Setup: three dudes onto the street, in secret",
    Step.SPELLS: "Step 1: spells and gadgets",
    Step.ORDERS: "Step 2: orders behind the screens",
    Step.EVENTS: "Step 4: events",
    Step.ACTIONS: "Step 5: actions",
    Step.ARRIVALS: "After step 5: arrivals, then the round's end",
    Step.OVER: "The game is over",
}


class Order(NamedTuple):
    """An action token on a town card: where the dude goes, the token and its number."""

    to: str
    token: str = "none"
    number: int = 0


class Outfit(NamedTuple):
    """A player's outfit: ``id``, its ghost rock, completed objectives and the points of its cards."""

    id: str
    ghost_rock: int = 0
    objectives: int = 0
    points: int = 0


class GulchState(NamedTuple):
    """A Slaughter Gulch game between two actions.

    ``orders`` are the tokens on the town cards this round (dude id -> order),
    ``queue`` the dudes still to act in step 5 (the acting dude first),
    ``acted`` those who took an action (the Doctor heals only the others),
    ``hurt`` those wounded this round (no action), ``crimes`` those who robbed or
    shot this round (they may be arrested), ``arrivals`` the townsfolk (and the
    Deputy) waiting by the coach or train, ``scatter`` the townsfolk a stick of
    dynamite has yet to move, ``mine`` the ghost rock left in the mine.
    """

    town: Town
    outfits: tuple[Outfit, ...]
    round: int = 1
    step: Step = Step.SPELLS
    planner: int = 0
    orders: tuple[tuple[str, Order], ...] = ()
    queue: tuple[str, ...] = ()
    acted: frozenset[str] = frozenset()
    hurt: frozenset[str] = frozenset()
    crimes: frozenset[str] = frozenset()
    arrivals: tuple[str, ...] = ()
    scatter: tuple[str, ...] = ()
    mine: int = 50
    end_condition: int | None = None
    declared: frozenset[int] = frozenset()
    last_round: bool = False
    robbable: tuple[str, ...] = ()

    @property
    def board(self) -> Board:
        """The town's board."""
        return self.town.board

    @property
    def planning(self) -> str | None:
        """The outfit behind the screen during setup or step 2, else ``None``."""
        if self.step in (Step.SETUP, Step.ORDERS) and self.planner < len(self.outfits):
            return self.outfits[self.planner].id
        return None

    @property
    def actor(self) -> str | None:
        """The dude whose action it is in step 5, else ``None``."""
        return self.queue[0] if self.step == Step.ACTIONS and self.queue else None

    def order_of(self, dude_id: str) -> Order | None:
        """The dude's token this round, or ``None``."""
        return dict(self.orders).get(dude_id)

    def outfit(self, outfit_id: str) -> Outfit:
        """The outfit ``outfit_id``; raises ``KeyError`` when it is not playing."""
        for o in self.outfits:
            if o.id == outfit_id:
                return o
        raise KeyError(outfit_id)

    def with_outfit(self, outfit: Outfit) -> GulchState:
        """The state with ``outfit`` replacing the outfit of the same id."""
        return self._replace(outfits=tuple(outfit if o.id == outfit.id else o for o in self.outfits))


def new_state(town: Town, outfits: tuple[Outfit, ...] = (), *, players: int | None = None,
              **fields: Any) -> GulchState:
    """Return the start of a game on ``town``.

    ``outfits`` default to the outfits of the dudes, with no ghost rock. The
    game begins with the secret placement when any outfit has set-aside dudes
    and nobody in play, else at step 1 (or step 2 when no outfit casts spells).
    ``players`` picks the mine's ghost rock (40/50/60, "Game Setup"). Other
    ``fields`` (``round``, ``mine``, ``end_condition``...) are passed on.
    """
    outfits = outfits or tuple(Outfit(o) for o in town.outfits())
    count = players or len(outfits)
    fields.setdefault("mine", MINE_START.get(count, 50))
    state = GulchState(town, outfits, **fields)
    if "step" not in fields:
        state = state._replace(step=Step.SETUP if _needs_setup(state) else first_step(state))
    return state


def _needs_setup(state: GulchState) -> bool:
    """True when an outfit has dudes set aside and none in play: the game has not started."""
    return any(not any(d.in_play for d in _dudes_of(state, o.id)) and _aside(state, o.id) for o in state.outfits)


def first_step(state: GulchState) -> Step:
    """Step 1 when an outfit casts spells or builds gadgets; otherwise step 1 has nothing to do."""
    return Step.SPELLS if any(o.id in SPELLCASTERS for o in state.outfits) else Step.ORDERS


def _dudes_of(state: GulchState, outfit: str) -> tuple[Dude, ...]:
    return tuple(d for d in state.town.dudes if d.outfit == outfit)


def _aside(state: GulchState, outfit: str) -> tuple[Dude, ...]:
    return tuple(d for d in _dudes_of(state, outfit) if d.at == ASIDE)


def place(location: str) -> str:
    """A location's name in the log: ``street 0:3``, ``Hotel-Saloon``, ``home``."""
    cell = parse_street(location)
    if cell is not None:
        return f"street {cell.row}:{cell.col}"
    return DISPLAY_NAMES.get(location, location).replace("Home", "home")


def outfit_name(outfit_id: str) -> str:
    """An outfit's name in the log: ``texas_rangers`` -> ``Texas Rangers``."""
    return " ".join(w.capitalize() for w in outfit_id.replace("-", "_").split("_") if w)


def name(state: GulchState, figure_id: str) -> str:
    """A figure's name for the log: the dude id, or a townsfolk's name (else its id)."""
    if state.town.is_folk(figure_id):
        folk = state.town.folk(figure_id)
        return folk.name or folk.id
    return figure_id


# --------------------------------------------------------------------------- applying actions


def apply(state: GulchState, action: ga.Action) -> tuple[GulchState, Log]:
    """Carry out ``action`` and return the new state with the log lines it wrote.

    Raises :class:`simulator.errors.IllegalChoice` (naming the rule section)
    when the action is not allowed now; ``state`` is never changed.
    """
    from simulator.boards import gulch_combat

    handler = _HANDLERS.get(type(action)) or gulch_combat.HANDLERS.get(type(action))
    if handler is None:  # pragma: no cover - every action class has a handler
        raise IllegalChoice(f"unknown action {action.kind!r}")
    if state.step == Step.OVER and not isinstance(action, ga.AdjustGhostRock | ga.AdjustScore):
        raise IllegalChoice("the game is over (Winning the Game)")
    return handler(state, action)


def apply_all(state: GulchState, actions: list[ga.Action]) -> tuple[GulchState, Log]:
    """Apply ``actions`` in order; return the final state and every log line. Raises as :func:`apply`."""
    lines: list[str] = []
    for action in actions:
        state, log = apply(state, action)
        lines += log
    return state, tuple(lines)


def _require_step(state: GulchState, *steps: Step) -> None:
    if state.step not in steps:
        wanted = " or ".join(STEP_TITLES[s] for s in steps)
        raise IllegalChoice(f"not now: this is for {wanted}; the game is at {STEP_TITLES[state.step]} "
                            "(Playing the Game)")


def _roll_end(state: GulchState, action: ga.RollEnd) -> tuple[GulchState, Log]:
    if state.end_condition is not None:
        raise IllegalChoice("the game's end was rolled at the start and does not change (Game End)")
    if action.die == 4 and not LAWMEN & {o.id for o in state.outfits}:
        raise IllegalChoice("4 means the Jail full and the mine empty: reroll, there is no Agency or "
                            "Texas Rangers outfit (Game End)")
    line = f"The game ends when {END_CONDITIONS[action.die]} (rolled {action.die}; Game End)."
    return state._replace(end_condition=action.die), (line,)


def _end_spells(state: GulchState, action: ga.EndSpells) -> tuple[GulchState, Log]:
    _require_step(state, Step.SPELLS)
    return state._replace(step=Step.ORDERS, planner=0, orders=()), (
        f"Round {state.round}, step 2: each outfit places its tokens behind its screen (Playing the Game).",)


# ---- orders (setup and step 2)


def check_order(state: GulchState, dude_id: str, order: Order) -> Verdict:
    """Whether the planning outfit may put ``order`` on its town card for ``dude_id``, and why.

    Setup: a set-aside dude onto a street square, three per outfit. Step 2: a
    dude in play, alive and out of a cell, at most two spaces (home: onto any
    street square), a Run token on the dude's own space ("Movement",
    "Home Movement", "Action Tokens").
    """
    if state.planning is None:
        return refused(f"nobody is planning now; the game is at {STEP_TITLES[state.step]}")
    if not state.town.is_dude(dude_id):
        return refused(f"no dude has the id {dude_id!r}")
    dude = state.town.dude(dude_id)
    if dude.outfit != state.planning:
        return refused(f"{dude_id} is not {state.planning}'s: only the outfit behind the screen places tokens")
    if state.step == Step.SETUP:
        return _check_setup_order(state, dude, order)
    if order.token not in ga.TOKENS:
        return refused(f"{order.token!r} is not an action token (Action Tokens)")
    if not dude.active:
        return refused(f"{dude_id} needs no token: dead, in a jail cell or set aside (Actions)")
    if order.token == "run":
        if order.to != dude.at:
            return refused("a Run token goes on the dude's own space; the runner picks where to go at "
                           "his action (Action Tokens, Run)")
        if dude.wounded:
            return refused("a wounded dude cannot run (Action Tokens, Run)")
        return allowed("Run: the destination is chosen at his action")
    return check_plan(state.board, dude, Plan(order.to))


def _check_setup_order(state: GulchState, dude: Dude, order: Order) -> Verdict:
    if dude.at != ASIDE:
        return refused(f"{dude.id} is already in play")
    if not state.board.is_street(order.to):
        return refused("the game begins with three dudes on street squares (To Start the Game)")
    mine = [d for d, _ in state.orders if state.town.dude(d).outfit == dude.outfit and d != dude.id]
    if len(mine) >= SETUP_DUDES:
        return refused("three dudes start on the street; the others wait to be recruited (To Start the Game)")
    return allowed(f"{dude.id} will start on {order.to}")


def _plan(state: GulchState, action: ga.Plan) -> tuple[GulchState, Log]:
    order = Order(action.to, "none" if state.step == Step.SETUP else action.token, action.number)
    check_order(state, action.dude, order).require()
    orders = tuple((d, o) for d, o in state.orders if d != action.dude) + ((action.dude, order),)
    return state._replace(orders=orders), ()


def _unplan(state: GulchState, action: ga.Unplan) -> tuple[GulchState, Log]:
    if state.planning is None or state.order_of(action.dude) is None:
        raise IllegalChoice(f"{action.dude} has no token to take back")
    if state.town.dude(action.dude).outfit != state.planning:
        raise IllegalChoice("only the outfit behind the screen may touch its tokens")
    return state._replace(orders=tuple((d, o) for d, o in state.orders if d != action.dude)), ()


def _finish_orders(state: GulchState, action: ga.FinishOrders) -> tuple[GulchState, Log]:
    outfit = state.planning
    if outfit is None:
        raise IllegalChoice(f"nobody is planning now; the game is at {STEP_TITLES[state.step]}")
    if state.step == Step.SETUP:
        placed = sum(1 for d, _ in state.orders if state.town.dude(d).outfit == outfit)
        needed = min(SETUP_DUDES, len(_aside(state, outfit)))
        if placed < needed:
            raise IllegalChoice(f"{outfit_name(outfit)} has placed {placed} of its {needed} dudes (To Start the Game)")
    line = f"{outfit_name(outfit)} has placed its tokens behind its screen (Playing the Game, step 2)."
    if state.planner + 1 < len(state.outfits):
        return state._replace(planner=state.planner + 1), (line,)
    return _reveal(state._replace(planner=len(state.outfits)), line)


def _reveal(state: GulchState, line: str) -> tuple[GulchState, Log]:
    """Step 3: every screen comes down and the dudes move together ("Playing the Game")."""
    town = state.town
    lines = [line, "The screens come down: every dude moves to his token (Playing the Game, step 3)."]
    for dude_id, order in state.orders:
        if order.to != town.dude(dude_id).at:
            town = town.moved(dude_id, order.to)
            lines.append(f"{dude_id} moves to {place(order.to)} (Movement).")
    if state.step == Step.SETUP:
        start = state._replace(town=town, orders=(), planner=0, step=first_step(state))
        return start, (*lines, f"Round {state.round} begins (Playing the Game).")
    return state._replace(town=town, step=Step.EVENTS), (
        *lines, "Step 4: the Clerk turns over two event cards; fill in what they do (Events).")


# ---- step 4: events


def _require_events(state: GulchState) -> None:
    _require_step(state, Step.EVENTS)


def _arrive(state: GulchState, action: ga.Arrive) -> tuple[GulchState, Log]:
    _require_events(state)
    where = "by the Hotel-Saloon" if action.by == "coach" else "by the Rail Station"
    robbable = tuple(dict.fromkeys((*state.robbable, action.by)))
    return state._replace(arrivals=(*state.arrivals, *[action.by] * action.count), robbable=robbable), (
        f"{action.count} townsfolk arrive by {action.by}, waiting {where} until the round ends (Events).",)


def _deputy_arrives(state: GulchState, action: ga.DeputyArrives) -> tuple[GulchState, Log]:
    _require_events(state)
    if state.town.deputy is not None or "deputy" in state.arrivals:
        raise IllegalChoice("the Deputy is already in town (Automatic Actions)")
    return state._replace(arrivals=(*state.arrivals, "deputy")), (
        "The Deputy arrives: he starts at the Jail when the round's arrivals are placed (Events).",)


def wound(state: GulchState, figure_id: str) -> tuple[GulchState, Log]:
    """Give a figure one wound: a wounded dude dies (unless harrowed), a wounded townsfolk dies (Death).

    A dead dude lies face down in the Graveyard; a dead townsfolk leaves the
    board. The figure is marked hurt this round (no action, "Actions").
    Raises ``KeyError`` for an unknown id.
    """
    town = state.town
    hurt = state.hurt | {figure_id}
    if town.is_folk(figure_id):
        folk = town.folk(figure_id)
        if folk.wounded:
            return state._replace(town=town.without_folk(figure_id), hurt=hurt), (
                f"{name(state, figure_id)} is wounded again and killed: off the board (Death).",)
        return state._replace(town=town.with_folk(folk._replace(wounded=True)), hurt=hurt), (
            f"{name(state, figure_id)} is wounded: turn the encounter card (Shootin' and Fightin').",)
    dude = town.dude(figure_id)
    if dude.wounded and not dude.harrowed:
        dead = dude._replace(at="graveyard", dead=True, in_cell=False, wounded=False)
        return state._replace(town=town.with_dude(dead), hurt=hurt), (
            f"{figure_id} is wounded again and killed: face down in the Graveyard (Death).",)
    if dude.wounded:
        return state._replace(hurt=hurt), (f"{figure_id} is harrowed and cannot be killed (Harrowed).",)
    return state._replace(town=town.with_dude(dude._replace(wounded=True)), hurt=hurt), (
        f"{figure_id} is wounded: lie him face up (Shootin' and Fightin').",)


def kill_folk(state: GulchState, folk_id: str, why: str) -> tuple[GulchState, Log]:
    """Take a townsfolk off the board (killed or fled); its encounter card is discarded (Death)."""
    return state._replace(town=state.town.without_folk(folk_id)), (f"{name(state, folk_id)} {why}",)


def _figure(state: GulchState, figure_id: str) -> None:
    if not (state.town.is_dude(figure_id) or state.town.is_folk(figure_id)):
        raise IllegalChoice(f"no dude or townsfolk has the id {figure_id!r}")


def _clerk_wound(state: GulchState, action: ga.ClerkWound) -> tuple[GulchState, Log]:
    _require_events(state)
    _figure(state, action.figure)
    if state.town.is_dude(action.figure) and not state.town.dude(action.figure).in_play:
        raise IllegalChoice(f"{action.figure} is not in play")
    if state.town.is_dude(action.figure) and state.town.dude(action.figure).dead:
        raise IllegalChoice(f"{action.figure} is already dead (Death)")
    return wound(state, action.figure)


def _clerk_move(state: GulchState, action: ga.ClerkMove) -> tuple[GulchState, Log]:
    _require_events(state)
    _figure(state, action.figure)
    town = state.town
    if not town.board.is_location(action.to):
        raise IllegalChoice(f"{action.to!r} is not a space of this town")
    if town.is_folk(action.figure):
        if action.to == HOME:
            raise IllegalChoice("townsfolk have no home off the board")
        folk = town.folk(action.figure)
        moved = town.with_folk(folk._replace(at=action.to, in_cell=False))
    else:
        dude = town.dude(action.figure)
        if not dude.active:
            raise IllegalChoice(f"{action.figure} is dead, in a cell or set aside: an event frees or raises "
                                "him first")
        moved = town.moved(action.figure, action.to)
    return state._replace(town=moved), (f"Event: {name(state, action.figure)} moves to {place(action.to)} (Events).",)


def _clerk_remove(state: GulchState, action: ga.ClerkRemove) -> tuple[GulchState, Log]:
    _require_events(state)
    if not state.town.is_folk(action.figure):
        raise IllegalChoice("only townsfolk leave the board; a dude is killed by wounds (Death)")
    return kill_folk(state, action.figure, "leaves the board; discard the encounter card (Events).")


def _end_events(state: GulchState, action: ga.EndEvents) -> tuple[GulchState, Log]:
    _require_events(state)
    tokens = {d: o.number for d, o in state.orders if o.token != "none" and state.town.dude(d).active}
    queue = action_order(state, tokens)
    started = state._replace(step=Step.ACTIONS, queue=queue)
    return advance(started, (f"Step 5: {len(queue)} dude(s) act, buildings clockwise from the Rail Station, "
                             "then the street, then home (Playing the Game).",))


def action_order(state: GulchState, tokens: Mapping[str, int]) -> tuple[str, ...]:
    """Return the dudes with a token in the order they act in step 5 ("Playing the Game", "Actions").

    ``tokens`` maps each acting dude to its token's number. Buildings go by
    their disks from the Rail Station, then street squares column by column
    from the Rail Station to the Mine (top lane first), then home; within a
    space the lower token number acts first, ties in seating order.
    Raises ``KeyError`` for an unknown dude.
    """
    board = state.board
    seats = {o.id: i for i, o in enumerate(state.outfits)}
    places = (*board.buildings, *sorted(board.streets, key=_street_key), HOME)
    rank = {place: i for i, place in enumerate(places)}

    def key(dude_id: str) -> tuple[int, int, int, str]:
        dude = state.town.dude(dude_id)
        return rank.get(dude.at, len(places)), tokens[dude_id], seats.get(dude.outfit, len(seats)), dude_id

    return tuple(sorted(tokens, key=key))


def _street_key(square: str) -> tuple[int, int]:
    cell = parse_street(square)
    assert cell is not None
    return cell.col, cell.row


def advance(state: GulchState, lines: Log = ()) -> tuple[GulchState, Log]:
    """Drop from the queue the dudes who cannot act now; when nobody is left, step 5 is over.

    A dude wounded this round takes no action, except that a runner still moves
    up to two spaces ("Actions", "Action Tokens" Run); a dead or jailed dude does
    nothing. Pending dynamite moves hold the queue.
    """
    out = list(lines)
    queue = list(state.queue)
    while queue and not state.scatter:
        dude = state.town.dude(queue[0])
        order = state.order_of(dude.id)
        if not dude.active:
            out.append(f"{dude.id} cannot act: dead or in a jail cell (Actions).")
        elif dude.id in state.hurt and (order is None or order.token != "run"):
            out.append(f"{dude.id} was wounded this round and takes no action (Actions).")
        else:
            break
        queue.pop(0)
    state = state._replace(queue=tuple(queue))
    if not queue and not state.scatter:
        state = state._replace(step=Step.ARRIVALS)
        out.append("Step 5 is over: place the new arrivals, then end the round (Events).")
    elif queue:
        out.append(f"Now acting: {queue[0]} ({_token_text(state, queue[0])}).")
    return state, tuple(out)


def _token_text(state: GulchState, dude_id: str) -> str:
    order = state.order_of(dude_id)
    return f"{order.token} token #{order.number}" if order else "no token"


# ---- arrivals and the round's end


def _place_arrival(state: GulchState, action: ga.PlaceArrival) -> tuple[GulchState, Log]:
    _require_step(state, Step.ARRIVALS)
    if not state.arrivals:
        raise IllegalChoice("nobody is waiting to be placed; end the round")
    first, rest = state.arrivals[0], state.arrivals[1:]
    if first == "deputy":
        return state._replace(arrivals=rest, town=state.town._replace(deputy=JAIL)), (
            "The Deputy starts at the Jail (Events; Automatic Actions).",)
    total = sum(action.dice)
    where = state.board.at_number(total)
    if where is None:
        return state, (f"Rolled {total}: no building has that number; roll again (Events; Two Player Game).",)
    town = state.town.add_folk(where)
    return state._replace(arrivals=rest, town=town), (
        f"Rolled {total}: a new townsfolk goes to the {place(where)}; draw its encounter card face down (Events).",)


def _end_round(state: GulchState, action: ga.EndRound) -> tuple[GulchState, Log]:
    _require_step(state, Step.ARRIVALS)
    if state.arrivals:
        raise IllegalChoice("place the new arrivals first (Events)")
    if state.end_condition is None:
        raise IllegalChoice("roll for what ends the game first (Game End)")
    state, lines = _doctor(state)
    if state.town.deputy is not None:
        moved = deputy_next(state.board, state.town.deputy)
        state = state._replace(town=state.town._replace(deputy=moved))
        lines += (f"The Deputy moves on to the {place(moved)} (Automatic Actions).",)
    return _next_round(state, lines)


def _doctor(state: GulchState) -> tuple[GulchState, Log]:
    """The Doctor's Office heals the dudes there who took no other action this round (Automatic Actions)."""
    if DOCTOR not in state.board.buildings:
        return state, ()
    town, lines = state.town, []
    for d in town.dudes:
        if d.at == DOCTOR and d.wounded and d.active and d.id not in state.acted:
            town = town.with_dude(d._replace(wounded=False))
            lines.append(f"{d.id} is healed at the Doctor's Office (Automatic Actions).")
    return state._replace(town=town), tuple(lines)


def _next_round(state: GulchState, lines: Log) -> tuple[GulchState, Log]:
    met = conditions_met(state)
    wanted = state.end_condition
    over = state.last_round or len(met) >= 3 or (wanted in met and wanted != 2)
    last = wanted == 2 and 2 in met
    if over:
        winner = ", ".join(winners(state))
        return state._replace(step=Step.OVER, queue=(), orders=()), (
            *lines, f"The game ends after round {state.round} (Game End). Mayor of Slaughter Gulch: {winner} "
                    "(Winning the Game).")
    nxt = state._replace(round=state.round + 1, step=first_step(state), planner=0, orders=(), queue=(),
                         acted=frozenset(), hurt=frozenset(), crimes=frozenset(), robbable=(), last_round=last)
    note = (" An outfit controls three locations: this is the last round (Game End).",) if last else ()
    return nxt, (*lines, f"Round {nxt.round} begins (Playing the Game).", *note)


# ---- bookkeeping


def _ghost_rock(state: GulchState, action: ga.AdjustGhostRock) -> tuple[GulchState, Log]:
    if action.holder == "mine":
        if state.mine + action.delta < 0:
            raise IllegalChoice(f"the mine holds only {state.mine} ghost rock")
        return state._replace(mine=state.mine + action.delta), (f"Mine: {action.delta:+d} ghost rock.",)
    outfit = _outfit(state, action.holder)
    if outfit.ghost_rock + action.delta < 0:
        raise IllegalChoice(f"{outfit.id} holds only {outfit.ghost_rock} ghost rock")
    return state.with_outfit(outfit._replace(ghost_rock=outfit.ghost_rock + action.delta)), (
        f"{outfit.id}: {action.delta:+d} ghost rock.",)


def _outfit(state: GulchState, outfit_id: str) -> Outfit:
    try:
        return state.outfit(outfit_id)
    except KeyError:
        raise IllegalChoice(f"no outfit {outfit_id!r} is playing") from None


def _score(state: GulchState, action: ga.AdjustScore) -> tuple[GulchState, Log]:
    outfit = _outfit(state, action.outfit)
    objectives, points = outfit.objectives + action.objectives, outfit.points + action.points
    if objectives < 0 or points < 0:
        raise IllegalChoice("objectives and points cannot go below zero")
    return state.with_outfit(outfit._replace(objectives=objectives, points=points)), (
        f"{outfit.id}: {objectives} objective(s) completed, {points} point(s) of objectives and cards.",)


def _declare(state: GulchState, action: ga.Declare) -> tuple[GulchState, Log]:
    if action.condition not in DECLARED_CONDITIONS:
        raise IllegalChoice("the board counts that condition itself; only the last encounter card (1) and the "
                            "last event card (5) are declared (Game End)")
    declared = state.declared ^ {action.condition}
    said = "has" if action.condition in declared else "has not"
    return state._replace(declared=declared), (
        f"Declared: {END_CONDITIONS[action.condition]} - {said} happened (Game End).",)


def controlled(state: GulchState, outfit: str) -> tuple[str, ...]:
    """The locations ``outfit`` controls now: the most figures there (Control of Buildings)."""
    return tuple(b for b in state.board.buildings if controller(state.town, b) == outfit)


def conditions_met(state: GulchState) -> frozenset[int]:
    """The end conditions (1-6, "Game End") that hold now: declared ones and those the board counts."""
    met = set(state.declared)
    if any(len(controlled(state, o.id)) >= 3 for o in state.outfits):
        met.add(2)
    if any(o.objectives >= 4 for o in state.outfits):
        met.add(3)
    if len(jailed(state.town)) >= 3 and state.mine <= 0:
        met.add(4)
    if state.outfits and all(sum(1 for d in _dudes_of(state, o.id) if d.in_play) >= 5 for o in state.outfits):
        met.add(6)
    return frozenset(met)


class Score(NamedTuple):
    """An outfit's points (Winning the Game): dudes in play and alive, ghost rock, 5 per location, cards."""

    outfit: str
    dudes: int
    ghost_rock: int
    locations: int
    cards: int

    @property
    def total(self) -> int:
        """All the points together."""
        return self.dudes + self.ghost_rock + 5 * self.locations + self.cards


def scores(state: GulchState) -> tuple[Score, ...]:
    """Every outfit's score now, in seating order (Winning the Game)."""
    return tuple(Score(o.id, sum(1 for d in _dudes_of(state, o.id) if d.in_play and not d.dead), o.ghost_rock,
                       len(controlled(state, o.id)), o.points) for o in state.outfits)


def winners(state: GulchState) -> tuple[str, ...]:
    """The outfit(s) with the most points (Winning the Game)."""
    table = scores(state)
    best = max((s.total for s in table), default=0)
    return tuple(s.outfit for s in table if s.total == best)


def folk_here(state: GulchState, location: str) -> tuple[Folk, ...]:
    """The townsfolk at ``location``."""
    return tuple(f for f in state.town.townsfolk if f.at == location)


def run_destinations(state: GulchState, dude_id: str) -> frozenset[str]:
    """Where a runner may go at his action: four spaces, two if he is wounded (Action Tokens, Run)."""
    dude = state.town.dude(dude_id)
    if dude.id in state.hurt or dude.wounded:
        return legal_moves(state.board, dude, False)
    return legal_moves(state.board, dude, True)


_HANDLERS: dict[type, Callable[[GulchState, Any], tuple[GulchState, Log]]] = {
    ga.RollEnd: _roll_end, ga.EndSpells: _end_spells, ga.Plan: _plan, ga.Unplan: _unplan,
    ga.FinishOrders: _finish_orders, ga.Arrive: _arrive, ga.DeputyArrives: _deputy_arrives,
    ga.ClerkWound: _clerk_wound, ga.ClerkMove: _clerk_move, ga.ClerkRemove: _clerk_remove,
    ga.EndEvents: _end_events, ga.PlaceArrival: _place_arrival, ga.EndRound: _end_round,
    ga.AdjustGhostRock: _ghost_rock, ga.AdjustScore: _score, ga.Declare: _declare,
}

__all__ = ["RUN_SPACES", "GulchState", "Order", "Outfit", "Score", "Step", "action_order", "advance", "apply",
           "apply_all", "check_order", "conditions_met", "controlled", "new_state", "scores", "winners", "wound"]
