"""Board queries for ``gaslands rule``: a rulings file with a ``[board]`` table.

The CLI calls :func:`answer_board_file` (parsed TOML) or
:func:`answer_board_path` (a file). Each returns one JSON-serialisable dict per
``[[query]]`` in file order, each with ``id`` (the query's id, or its 1-based
index) and ``kind`` plus the result keys of ``BOARDS.md``; extra keys may be
added, never renamed.

Slaughter Gulch kinds: ``moves``, ``sight``, ``number`` (``BOARDS.md``), plus
``path``, ``plan``, ``control``, ``townsfolk``, ``deputy``, ``wound``,
``arrest`` and ``action_order``. Doomtown kinds: ``adjacent``, ``move``,
``posse``, ``destroy`` (``BOARDS.md``), plus ``add_deed``, ``form_posse`` and
``control``. ``wound``, ``arrest`` (when legal), ``destroy``, ``add_deed`` and
``form_posse`` (when legal) change the position for the queries after them,
and so does ``move`` with ``apply = true`` when the move is legal. The result
keys of every kind are listed in ``docs/boards.md``.

Every problem in the file (shape, unknown ids, bad locations, unknown kinds)
is collected and raised as one :class:`simulator.errors.InputFileError`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from simulator.boards import doom_actions as da
from simulator.boards import doom_turn as dtt
from simulator.boards import doomtown as dt
from simulator.boards import gulch_round as gr
from simulator.boards import slaughter_gulch as sg
from simulator.boards.board_files import DoomGame, GulchGame, load_board, pydantic_problems, read_toml
from simulator.boards.verdict import Verdict
from simulator.errors import IllegalChoice, InputFileError, Problem

Result = dict[str, Any]


class BadQuery(Exception):
    """One problem in one query: the key and the reason."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(reason)
        self.key = key
        self.reason = reason


class _Query(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    id: str | int | None = None
    kind: str


class MovesQuery(_Query):
    """``moves``: every destination of a dude this round (Movement; Run)."""

    dude: str
    run: bool = False


class SightQuery(_Query):
    """``sight``: can a figure at ``from`` see and shoot ``to`` (Shootin' and Fightin')."""

    from_: str = Field(alias="from")
    to: str
    weapon: Literal["gun", "dynamite", "long_range"] = "gun"
    max_range: int = Field(default=2, ge=0)


class NumberQuery(_Query):
    """``number``: the numbered disk of a building (Game Setup)."""

    location: str


class PathQuery(_Query):
    """``path``: a shortest legal path and its length (Movement)."""

    from_: str = Field(alias="from")
    to: str


class PlanQuery(_Query):
    """``plan``: is this planned move legal (Movement)."""

    dude: str
    to: str
    run: bool = False


class ControlQuery(_Query):
    """``control``: who controls a building (Control of Buildings)."""

    location: str


class TownsfolkQuery(_Query):
    """``townsfolk``: where a new arrival goes for a 2d6 roll (Events)."""

    dice: list[int] = Field(min_length=2, max_length=2)


class DeputyQuery(_Query):
    """``deputy``: where the Deputy goes at the end of the round (Automatic Actions)."""

    at: str


class WoundQuery(_Query):
    """``wound``: one wound to a dude or townsfolk; a second kills (Shootin' and Fightin'; Death)."""

    figure: str


class ArrestQuery(_Query):
    """``arrest``: may this figure be locked in a jail cell, optionally by the dude ``by`` (The Jail)."""

    target: str
    by: str | None = None
    apply: bool = True


class ActionOrderQuery(_Query):
    """``action_order``: the order of step 5 for the dudes holding tokens, by token number (Playing the Game)."""

    tokens: dict[str, int]


class AdjacentQuery(_Query):
    """``adjacent``: are two Doomtown locations adjacent (Movin' Around)."""

    a: str
    b: str


class MoveQuery(_Query):
    """``move``: the cost of a Doomtown move; ``apply`` makes it for later queries (Movin' Around)."""

    dude: str
    to: str
    apply: bool = False


class PosseQuery(_Query):
    """``posse``: who may join each side of a call-out or a job (Shootin'; Jobs)."""

    dealer: str
    target: str
    job: bool | None = None


class FormPosseQuery(_Query):
    """``form_posse``: form a call-out's or a job's posses; joiners boot and everyone moves (Shootin'; Jobs)."""

    dealer: str
    target: str
    job: bool | None = None
    join: list[str] | None = None
    defend: list[str] | None = None


class DoomControlQuery(_Query):
    """``control``: who controls a Doomtown location, by Influence (Controllin' Deeds; Glossary)."""

    location: str


class DestroyQuery(_Query):
    """``destroy``: destroy a deed for the later queries (Table Layout)."""

    deed: str


class AddDeedQuery(_Query):
    """``add_deed``: bring a deed into play at one end of a street, or out of town (Table Layout)."""

    player: str
    deed: str
    end: Literal["left", "right"] = "right"
    out_of_town: bool = False


GULCH_KINDS: dict[str, type[_Query]] = {
    "moves": MovesQuery, "sight": SightQuery, "number": NumberQuery, "path": PathQuery, "plan": PlanQuery,
    "control": ControlQuery, "townsfolk": TownsfolkQuery, "deputy": DeputyQuery, "wound": WoundQuery,
    "arrest": ArrestQuery, "action_order": ActionOrderQuery,
}
DOOM_KINDS: dict[str, type[_Query]] = {
    "adjacent": AdjacentQuery, "move": MoveQuery, "posse": PosseQuery, "destroy": DestroyQuery,
    "add_deed": AddDeedQuery, "form_posse": FormPosseQuery, "control": DoomControlQuery,
}


def answer_board_path(path: Path | str) -> list[Result]:
    """Read a board rulings file and answer it (see :func:`answer_board_file`).

    Raises :class:`InputFileError` for a missing file, a TOML syntax error or an invalid file.
    """
    path = Path(path)
    return answer_board_file(read_toml(path), str(path))


def answer_board_file(doc: dict[str, Any], source: str) -> list[Result]:
    """Answer every ``[[query]]`` of a parsed board file, in order.

    ``doc`` is the parsed TOML (it has a ``[board]`` table); ``source`` names the
    file in errors. Returns one dict per query with ``id``, ``kind`` and the
    result keys. Raises :class:`InputFileError` listing every problem.
    """
    game = load_board(doc, source)
    raw = doc.get("query", [])
    if isinstance(game, GulchGame):
        results, problems = _run(raw, GULCH_KINDS, _GulchRunner(game).answer)
    else:
        results, problems = _run(raw, DOOM_KINDS, _DoomRunner(game).answer)
    if problems:
        raise InputFileError(source, problems)
    return results


def _query_id(raw: Any, index: int) -> str | int:
    """The query's id, or its 1-based index when it has none."""
    qid = raw.get("id") if isinstance(raw, dict) else None
    return qid if isinstance(qid, str | int) and not isinstance(qid, bool) else index


def _run(raw: list[Any], kinds: dict[str, type[_Query]],
         answer: Callable[[_Query], Result]) -> tuple[list[Result], list[Problem]]:
    """Validate and answer each query in order; collect results and problems."""
    results: list[Result] = []
    problems: list[Problem] = []
    seen: set[str | int] = set()
    for index, q in enumerate(raw, 1):
        qid = _query_id(q, index)
        if qid in seen:
            problems.append(Problem(f"query[{qid}].id", "this id is used by an earlier query"))
        seen.add(qid)
        try:
            query = _validate(q, kinds, qid)
            results.append({"id": qid, "kind": query.kind, **answer(query)})
        except BadQuery as e:
            problems.append(Problem(f"query[{qid}].{e.key}", e.reason))
        except InputFileError as e:
            problems += e.problems
    return results, problems


def _validate(raw: Any, kinds: dict[str, type[_Query]], qid: str | int) -> _Query:
    """Check one query's kind and keys; raises :class:`BadQuery` or :class:`InputFileError`."""
    if not isinstance(raw, dict):
        raise BadQuery("kind", "each query must be a [[query]] table")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise BadQuery("kind", f"expected one of {', '.join(kinds)} for this board (a string)")
    try:
        return kinds[kind].model_validate(raw)
    except ValidationError as e:
        raise InputFileError("", pydantic_problems(e, f"query[{qid}].")) from None


class _GulchRunner:
    """Answers Slaughter Gulch queries against one position."""

    def __init__(self, game: GulchGame) -> None:
        self.state = game.state
        self.board = game.town.board

    @property
    def town(self) -> sg.Town:
        return self.state.town

    def answer(self, q: _Query) -> Result:
        handler: Callable[[Any], Result] = getattr(self, f"_{q.kind}")
        return handler(q)

    def _dude(self, key: str, dude_id: str) -> sg.Dude:
        try:
            return self.town.dude(dude_id)
        except KeyError:
            raise BadQuery(key, f"no dude has the id {dude_id!r}") from None

    def _place(self, key: str, text: str) -> str:
        """A location key, or the location of the dude with that id."""
        if self.board.is_location(text):
            return text
        if any(d.id == text for d in self.town.dudes):
            return self.town.dude(text).at
        meant = sg.street_spelling(text)
        if meant is not None:
            raise BadQuery(key, f"{text!r} is not how a square is written: write {meant!r} (one spelling per square)")
        raise BadQuery(key, f"{text!r} is not a space (street:ROW:COL, a building key, home) or a dude")

    def _building(self, key: str, text: str) -> str:
        if not self.board.is_building(text):
            raise BadQuery(key, f"{text!r} is not a building of this town (only buildings are numbered)")
        return text

    def _moves(self, q: MovesQuery) -> Result:
        dude = self._dude("dude", q.dude)
        spaces, reason = sg.allowance(dude, q.run)
        return {"destinations": sorted(sg.legal_moves(self.board, dude, q.run)), "allowance": spaces,
                "reason": reason}

    def _sight(self, q: SightQuery) -> Result:
        a, b = self._place("from", q.from_), self._place("to", q.to)
        weapon = sg.Weapon(q.weapon, q.weapon, q.max_range)
        verdict = sg.can_shoot(self.board, a, b, weapon)
        return {"can_see": sg.can_see(self.board, a, b), "can_shoot": verdict.legal,
                "range_squares": sg.range_squares(self.board, a, b), "reason": verdict.reason}

    def _number(self, q: NumberQuery) -> Result:
        return {"number": self.board.number(self._building("location", q.location))}

    def _path(self, q: PathQuery) -> Result:
        route = sg.path(self.board, self._place("from", q.from_), self._place("to", q.to))
        return {"path": list(route) if route else None, "distance": len(route) - 1 if route else None}

    def _plan(self, q: PlanQuery) -> Result:
        self._place("to", q.to)
        verdict = sg.check_plan(self.board, self._dude("dude", q.dude), sg.Plan(q.to, q.run))
        return {"legal": verdict.legal, "reason": verdict.reason}

    def _control(self, q: ControlQuery) -> Result:
        where = self._building("location", q.location)
        return {"controller": sg.controller(self.town, where), "counts": dict(sg.figures_at(self.town, where))}

    def _townsfolk(self, q: TownsfolkQuery) -> Result:
        if not all(1 <= d <= 6 for d in q.dice):
            raise BadQuery("dice", "each die shows 1 to 6")
        where = sg.townsfolk_destination(self.board, (q.dice[0], q.dice[1]))
        return {"location": where, "reroll": where is None, "number": sum(q.dice)}

    def _deputy(self, q: DeputyQuery) -> Result:
        return {"next": sg.deputy_next(self.board, self._building("at", q.at))}

    def _figure(self, key: str, figure: str) -> str:
        if not (self.town.is_dude(figure) or self.town.is_folk(figure)):
            raise BadQuery(key, f"no dude or townsfolk has the id {figure!r}")
        return figure

    def _wound(self, q: WoundQuery) -> Result:
        figure = self._figure("figure", q.figure)
        if self.town.is_dude(figure) and (self.town.dude(figure).dead or not self.town.dude(figure).in_play):
            raise BadQuery("figure", f"{figure!r} is dead or set aside: a wound needs a figure in play")
        self.state, log = gr.wound(self.state, figure)
        killed = not (self.town.is_dude(figure) or self.town.is_folk(figure)) or (
            self.town.is_dude(figure) and self.town.dude(figure).dead)
        at = None if not (self.town.is_dude(figure) or self.town.is_folk(figure)) else self.town.where(figure)
        wounded = not killed and (self.town.dude(figure).wounded if self.town.is_dude(figure)
                                  else self.town.folk(figure).wounded)
        return {"wounded": wounded, "killed": killed, "at": at, "log": list(log)}

    def _arrest(self, q: ArrestQuery) -> Result:
        target = self._figure("target", q.target)
        verdict = self._arrest_verdict(target, q.by)
        if verdict.legal and q.apply:
            self.state = self.state._replace(town=sg.send_to_jail(self.town, target))
        free = sg.JAIL_CELLS - len(sg.jailed(self.town))
        return {"legal": verdict.legal, "reason": verdict.reason, "cells_free": free,
                "in_cell": self._in_cell(target)}

    def _in_cell(self, figure: str) -> bool:
        return self.town.dude(figure).in_cell if self.town.is_dude(figure) else self.town.folk(figure).in_cell

    def _arrest_verdict(self, target: str, by: str | None) -> Verdict:
        if self._in_cell(target):
            return Verdict(False, f"{target} is already in a jail cell (The Jail)")
        if self.town.is_dude(target) and not self.town.dude(target).active:
            return Verdict(False, f"{target} is dead or set aside (Death)")
        if by is not None:
            lawman = self.town.dude(self._dude("by", by).id)
            where = self.town.where(target)
            if where != lawman.at:
                return Verdict(False, f"an arrest is of a figure in the same space ({by} is at {lawman.at}) "
                                      "(Action Tokens)")
            if self.town.is_dude(target) and self.town.dude(target).outfit == lawman.outfit:
                return Verdict(False, "a dude does not arrest his own outfit's dudes (Action Tokens)")
        free = sg.can_jail(self.town)
        return free if not free.legal else Verdict(True, f"{target} goes to a jail cell (The Jail)")

    def _action_order(self, q: ActionOrderQuery) -> Result:
        for dude_id, number in q.tokens.items():
            if not self.town.is_dude(dude_id):
                raise BadQuery(f"tokens.{dude_id}", f"no dude has the id {dude_id!r}")
            if not self.town.dude(dude_id).active:
                raise BadQuery(f"tokens.{dude_id}", "dead, jailed or set-aside dudes take no action (Actions)")
            if not 0 <= number <= 99:
                raise BadQuery(f"tokens.{dude_id}", "a token's number is 0 to 99")
        order = gr.action_order(self.state, q.tokens)
        return {"order": list(order), "places": [self.town.dude(d).at for d in order]}


class _DoomRunner:
    """Answers Doomtown queries; ``destroy``, ``add_deed`` and applied moves change the town."""

    def __init__(self, game: DoomGame) -> None:
        self.town = game.town
        self.names = game.names

    def answer(self, q: _Query) -> Result:
        handler: Callable[[Any], Result] = getattr(self, f"_{q.kind}")
        return handler(q)

    def _location(self, key: str, text: str) -> str:
        if text not in self.town.locations:
            raise BadQuery(key, f"{text!r} is not a location in play (ids of the file, or town_square)")
        return text

    def _dude(self, key: str, dude_id: str) -> dt.Dude:
        try:
            return self.town.dude(dude_id)
        except KeyError:
            raise BadQuery(key, f"no dude has the id {dude_id!r}") from None

    def _streets(self) -> Result:
        return {s.player: list(s.locations) for s in self.town.streets}

    def _adjacent(self, q: AdjacentQuery) -> Result:
        a, b = self._location("a", q.a), self._location("b", q.b)
        return {"adjacent": dt.adjacent(self.town, a, b)}

    def _move(self, q: MoveQuery) -> Result:
        dude = self._dude("dude", q.dude)
        cost = dt.move_cost(self.town, dude.id, self._location("to", q.to))
        if q.apply and cost.legal:
            self.town = dt.move(self.town, dude.id, q.to)
        return {"legal": cost.legal, "boots": cost.boots, "reason": cost.reason,
                "booted_after": self.town.dude(dude.id).booted}

    def _posse(self, q: PosseQuery) -> Result:
        self._dude("dealer", q.dealer)
        if q.target not in self.town.locations:
            self._dude("target", q.target)
        posses = dt.posse_candidates(self.town, q.dealer, q.target, q.job)
        return {"legal": posses.legal, "reason": posses.reason, "location": posses.location,
                "dealer_side": [j.dude for j in posses.dealer_side],
                "target_side": [j.dude for j in posses.target_side],
                "boots": [j.dude for j in (*posses.dealer_side, *posses.target_side) if j.boots]}

    def _destroy(self, q: DestroyQuery) -> Result:
        deed = self._location("deed", q.deed)
        sent = [d.id for d in self.town.dudes_at(deed)]
        try:
            self.town = dt.destroy(self.town, deed)
        except IllegalChoice as e:
            raise BadQuery("deed", e.reason) from None
        return {"streets": self._streets(), "sent_home_booted": sent}

    def _add_deed(self, q: AddDeedQuery) -> Result:
        if q.player not in {s.player for s in self.town.streets}:
            raise BadQuery("player", f"{q.player!r} has no street")
        if q.deed in self.town.locations or q.deed == dt.TOWN_SQUARE:
            raise BadQuery("deed", f"{q.deed!r} is already in play")
        if q.out_of_town:
            self.town = dt.add_out_of_town(self.town, q.player, q.deed)
        else:
            self.town = dt.add_deed(self.town, q.player, q.deed, q.end)
        return {"streets": self._streets(), "out_of_town": [d.id for d in self.town.out_of_town]}

    def _control(self, q: DoomControlQuery) -> Result:
        where = self._location("location", q.location)
        return {"controller": dt.controller(self.town, where), "owner": dt.owner(self.town, where),
                "influence": dt.influence_at(self.town, where), "control_points": self.town.points_of(where)}

    def _form_posse(self, q: FormPosseQuery) -> Result:
        dealer = self._dude("dealer", q.dealer)
        if q.target not in self.town.locations:
            self._dude("target", q.target)
        for key, ids in (("join", q.join or []), ("defend", q.defend or [])):
            for dude_id in ids:
                self._dude(key, dude_id)
        is_job = q.job if q.job is not None else q.target in self.town.locations
        state = dtt.new_state(self.town, self.names, phase=dtt.Phase.HIGH_NOON, winner=dealer.player,
                              to_act=dealer.player)
        before = {d.id: d for d in self.town.dudes}
        try:
            state = self._posses(state, q, is_job)
        except IllegalChoice as e:
            return {"legal": False, "reason": str(e), "location": None, "dealer_side": [], "target_side": [],
                    "booted": [], "moved": {}}
        fight = state.fight
        town = state.town
        self.town = town
        sides = (fight.dealer_side, fight.target_side) if fight else ((), ())
        location = fight.location if fight else None
        booted = sorted(d.id for d in town.dudes if d.booted and not before[d.id].booted)
        moved = {d.id: d.at for d in town.dudes if d.at != before[d.id].at}
        return {"legal": True, "reason": "posses formed" if fight else "no defence: the job works (Jobs)",
                "location": location, "dealer_side": list(sides[0]), "target_side": list(sides[1]),
                "booted": booted, "moved": moved}

    @staticmethod
    def _posses(state: dtt.DoomState, q: FormPosseQuery, is_job: bool) -> dtt.DoomState:
        """Carry out the call-out (accepted) or job, the joins and both Posse readies."""
        if is_job:
            state, _ = dtt.apply(state, da.StartJob(dealer=q.dealer, target=q.target))
        else:
            state, _ = dtt.apply(state, da.CallOut(dealer=q.dealer, target=q.target))
            if state.fight is not None and state.fight.stage == "answer":
                state, _ = dtt.apply(state, da.Answer(accept=True))
        for which, chosen in (("dealer", q.join), ("target", q.defend)):
            side = dtt.forming(state)
            if side is None or side[0] != which:
                continue
            wanted = [j.dude for j in side[1]] if chosen is None else chosen
            for dude_id in wanted:
                state, _ = dtt.apply(state, da.Join(dude=dude_id))
            state, _ = dtt.apply(state, da.PosseReady())
        return state
