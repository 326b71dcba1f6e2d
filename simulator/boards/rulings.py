"""Board queries for ``gaslands rule``: a rulings file with a ``[board]`` table.

The CLI calls :func:`answer_board_file` (parsed TOML) or
:func:`answer_board_path` (a file). Each returns one JSON-serialisable dict per
``[[query]]`` in file order, each with ``id`` (the query's id, or its 1-based
index) and ``kind`` plus the result keys of ``BOARDS.md``; extra keys may be
added, never renamed.

Slaughter Gulch kinds: ``moves``, ``sight``, ``number`` (``BOARDS.md``), plus
``path``, ``plan``, ``control``, ``townsfolk`` and ``deputy``. Doomtown kinds:
``adjacent``, ``move``, ``posse``, ``destroy`` (``BOARDS.md``), plus
``add_deed``. ``destroy`` and ``add_deed`` change the town for the queries
after them, and so does ``move`` with ``apply = true`` when the move is legal.

Every problem in the file (shape, unknown ids, bad locations, unknown kinds)
is collected and raised as one :class:`simulator.errors.InputFileError`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from simulator.boards import doomtown as dt
from simulator.boards import slaughter_gulch as sg
from simulator.boards.board_files import DoomGame, GulchGame, load_board, pydantic_problems, read_toml
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
    max_range: int = Field(2, ge=0)


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
    "control": ControlQuery, "townsfolk": TownsfolkQuery, "deputy": DeputyQuery,
}
DOOM_KINDS: dict[str, type[_Query]] = {
    "adjacent": AdjacentQuery, "move": MoveQuery, "posse": PosseQuery, "destroy": DestroyQuery,
    "add_deed": AddDeedQuery,
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
    if kind not in kinds:
        raise BadQuery("kind", f"expected one of {', '.join(kinds)} for this board")
    try:
        return kinds[kind].model_validate(raw)
    except ValidationError as e:
        raise InputFileError("", pydantic_problems(e, f"query[{qid}].")) from None


class _GulchRunner:
    """Answers Slaughter Gulch queries against one position."""

    def __init__(self, game: GulchGame) -> None:
        self.town = game.town
        self.board = game.town.board

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


class _DoomRunner:
    """Answers Doomtown queries; ``destroy``, ``add_deed`` and applied moves change the town."""

    def __init__(self, game: DoomGame) -> None:
        self.town = game.town

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
