"""Reading board files: the ``[board]`` TOML format of ``docs/boards.md`` for both Deadlands boards.

A board file is a scenario (``scenarios/slaughter_gulch.toml``,
``scenarios/doomtown.toml``) or a rulings file (the same plus ``[[query]]``
tables, answered by :mod:`simulator.boards.rulings`). The shape is checked
with pydantic, then the meaning (known ids, valid locations) by hand. Every
problem is collected and raised together as
:class:`simulator.errors.InputFileError`; ``where`` names the table and key
with 1-based indices, e.g. ``dude[2].at`` or ``street[1].home``.

Ids are ASCII letters, digits, ``-`` and ``_``; names and titles are printable
text (no NUL or other control characters); a street square has one spelling
(``street:0:1``, never ``street:+0:01``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from simulator import safe_read
from simulator.boards import doom_turn as dtt
from simulator.boards import doomtown as dt
from simulator.boards import gulch_round as gr
from simulator.boards import slaughter_gulch as sg
from simulator.boards.text import ID_PATTERN, Id, Text, printable
from simulator.errors import InputFileError, Problem

__all__ = ["ID_PATTERN", "Id", "Text", "printable"]
#: Bounds on a board file: far above a real game (Slaughter Gulch has 36 dudes and 20 townsfolk for
#: six outfits; a Doomtown street a few dozen cards), low enough that nothing drawn or asked slows down.
MAX_FIGURES = 200
MAX_OUTFITS = 6
MAX_PLAYERS = 12
MAX_LOCATIONS = 200
MAX_QUERIES = 10_000
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,80}")
GAMES = ("slaughter_gulch", "doomtown")


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# --------------------------------------------------------------------------- Slaughter Gulch tables


class GulchBoardTable(_Table):
    """``[board]`` for Slaughter Gulch: players, and the layout or a setup seed."""

    game: Literal["slaughter_gulch"]
    title: Text = "Slaughter Gulch"
    players: int = Field(default=4, ge=2, le=6)
    layout: list[str] | None = None
    seed: int | None = None
    deputy: str | None = None


class GulchGameTable(_Table):
    """``[game]``: where a game stands at the start of a round ("Playing the Game", "Game End")."""

    round: int = Field(default=1, ge=1, le=999)
    step: Literal["setup", "spells", "orders"] | None = None
    end_condition: int | None = Field(default=None, ge=1, le=6)
    mine: int | None = Field(default=None, ge=0, le=999)
    declared: list[Literal[1, 5]] = []
    last_round: bool = False


class OutfitTable(_Table):
    """``[[outfit]]``: a playing outfit in seating order, its ghost rock and points ("Winning the Game")."""

    id: Id
    ghost_rock: int = Field(default=0, ge=0, le=9999)
    objectives: int = Field(default=0, ge=0, le=99)
    points: int = Field(default=0, ge=0, le=9999)


class GulchDudeTable(_Table):
    """``[[dude]]`` on the Slaughter Gulch board (``at = "aside"``: set aside, not in play)."""

    id: Id
    at: str
    outfit: Id = "outfit"
    wounded: bool = False
    in_cell: bool = False
    dead: bool = False
    harrowed: bool = False


class TownsfolkTable(_Table):
    """``[[townsfolk]]``: one townsfolk figure at ``at`` (``sheriff = true`` for the Sheriff)."""

    at: str
    id: Id | None = None
    name: Text = ""
    wounded: bool = False
    in_cell: bool = False
    sheriff: bool = False


class GulchFile(_Table):
    """A whole Slaughter Gulch board file."""

    board: GulchBoardTable
    game: GulchGameTable = GulchGameTable()
    outfit: list[OutfitTable] = Field(default=[], max_length=MAX_OUTFITS)
    dude: list[GulchDudeTable] = Field(default=[], max_length=MAX_FIGURES)
    townsfolk: list[TownsfolkTable] = Field(default=[], max_length=MAX_FIGURES)
    query: list[Any] = Field(default=[], max_length=MAX_QUERIES)


# --------------------------------------------------------------------------- Doomtown tables


class DoomBoardTable(_Table):
    """``[board]`` for the Doomtown street."""

    game: Literal["doomtown"]
    title: Text = "Doomtown"


class DoomGameTable(_Table):
    """``[game]``: the turn and the phase it starts in ("Sequence o' Play")."""

    turn: int = Field(default=1, ge=1, le=999)
    phase: Literal["gambling", "upkeep", "high_noon"] = "gambling"
    winner: str | None = None


class StreetTable(_Table):
    """``[[street]]``: a player's locations left to right, the home among them."""

    player: Id
    locations: list[str] = Field(min_length=1, max_length=MAX_LOCATIONS)
    home: str | None = None


class OutOfTownTable(_Table):
    """``[[out_of_town]]``: a Strike or other out-of-town deed."""

    id: Id
    owner: Id


class DoomDudeTable(_Table):
    """``[[dude]]`` in Doomtown."""

    id: Id
    player: Id
    at: str
    booted: bool = False
    influence: int = Field(default=0, ge=0, le=20)
    name: Text = ""


class DoomFile(_Table):
    """A whole Doomtown board file."""

    board: DoomBoardTable
    game: DoomGameTable = DoomGameTable()
    street: list[StreetTable] = Field(min_length=1, max_length=MAX_PLAYERS)
    out_of_town: list[OutOfTownTable] = Field(default=[], max_length=MAX_LOCATIONS)
    dude: list[DoomDudeTable] = Field(default=[], max_length=MAX_FIGURES)
    query: list[Any] = Field(default=[], max_length=MAX_QUERIES)
    names: dict[str, Text] = {}
    control_points: dict[str, Annotated[int, Field(ge=0, le=20)]] = {}
    victory_points: dict[str, Annotated[int, Field(ge=0, le=99)]] = {}


# --------------------------------------------------------------------------- loaded files


class GulchGame(NamedTuple):
    """A loaded Slaughter Gulch file: the position, the game around it and the raw queries."""

    title: str
    players: int
    town: sg.Town
    queries: list[Any]
    state: gr.GulchState


class DoomGame(NamedTuple):
    """A loaded Doomtown file: the position, display names, the raw queries and the turn around it."""

    title: str
    town: dt.Town
    names: dict[str, str]
    queries: list[Any]
    state: dtt.DoomState


def where(loc: Sequence[int | str]) -> str:
    """Turn a pydantic error location into ``table[i].key`` with 1-based indices."""
    text = ""
    for part in loc:
        text += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "file"


def pydantic_problems(error: ValidationError, prefix: str = "") -> list[Problem]:
    """Return one :class:`Problem` per pydantic error, ``where`` prefixed with ``prefix`` (e.g. ``"query[m]."``)."""
    return [Problem(f"{prefix}{where(e['loc'])}", e["msg"]) for e in error.errors()]


def read_toml(path: Path) -> dict[str, Any]:
    """Read a TOML file through :mod:`simulator.safe_read` (size, UTF-8, nesting checked).

    Raises :class:`InputFileError` for a missing or unreadable file, bad text or a syntax error.
    """
    return safe_read.read_toml(path)


def game_of(doc: dict[str, Any], source: str) -> str:
    """Return ``board.game``; raises :class:`InputFileError` when missing or unknown."""
    board = doc.get("board")
    game = board.get("game") if isinstance(board, dict) else None
    if not isinstance(game, str) or game not in GAMES:
        raise InputFileError(source, [Problem("board.game", f"expected one of {', '.join(GAMES)}")])
    return game


def load_board(doc: dict[str, Any], source: str) -> GulchGame | DoomGame:
    """Validate a parsed board file and build its position; raises :class:`InputFileError` listing every problem."""
    if game_of(doc, source) == "slaughter_gulch":
        return load_gulch(doc, source)
    return load_doomtown(doc, source)


def load_board_path(path: Path) -> GulchGame | DoomGame:
    """Read and load a board file from ``path`` (see :func:`load_board`)."""
    return load_board(read_toml(path), str(path))


def _parse(model: type[_Table], doc: dict[str, Any], source: str) -> Any:
    """Validate ``doc`` against ``model``; raises :class:`InputFileError`."""
    try:
        return model.model_validate(doc)
    except ValidationError as e:
        raise InputFileError(source, pydantic_problems(e)) from None


def _duplicates(table: str, ids: list[str]) -> list[Problem]:
    """Problems for ids that appear more than once in ``table``."""
    return [Problem(f"{table}[{ids.index(i) + 1}].id", f"{i!r} is used more than once")
            for i, n in Counter(ids).items() if n > 1]


# --------------------------------------------------------------------------- Slaughter Gulch


def load_gulch(doc: dict[str, Any], source: str) -> GulchGame:
    """Validate and build a Slaughter Gulch position ("Game Setup"); raises :class:`InputFileError`."""
    data: GulchFile = _parse(GulchFile, doc, source)
    problems: list[Problem] = []
    board = _gulch_board(data.board, problems)
    if board is None:
        raise InputFileError(source, problems)
    dudes = tuple(_gulch_dude(board, i, d, problems) for i, d in enumerate(data.dude, 1))
    problems += _duplicates("dude", [d.id for d in data.dude])
    folk = _townsfolk(board, data.townsfolk, problems)
    problems += _duplicates("townsfolk", [f.id for f in folk])
    both = sorted({d.id for d in dudes} & {f.id for f in folk})
    problems += [Problem("townsfolk", f"{i!r} is both a dude's and a townsfolk's id") for i in both]
    deputy = data.board.deputy
    if deputy is not None and deputy not in board.buildings:
        problems.append(Problem("board.deputy", f"{deputy!r} is not a building of this town"))
    town = sg.Town(board, dudes, folk, deputy)
    if not problems and len(sg.jailed(town)) > sg.JAIL_CELLS:
        problems.append(Problem("dude", "more than three figures in jail cells (The Jail)"))
    outfits = _outfits(data, town, problems)
    if problems:
        raise InputFileError(source, problems)
    return GulchGame(data.board.title, data.board.players, town, data.query, _gulch_state(data, town, outfits))


def _gulch_board(table: GulchBoardTable, problems: list[Problem]) -> sg.Board | None:
    """Build the board from ``layout`` or ``seed``, appending problems."""
    if table.layout is None:
        if table.seed is None:
            problems.append(Problem("board.layout", "give the layout (top row, then bottom row) or a seed"))
            return None
        return sg.setup_seeded(table.players, table.seed)
    tiles = sg.tiles_for(table.players)
    expected = 2 * sg.columns_for(table.players)
    bad = [t for t in table.layout if t not in tiles]
    if bad or len(table.layout) != expected or len(set(table.layout)) != len(table.layout):
        problems.append(Problem("board.layout", f"expected {expected} different tiles from "
                                                f"{', '.join(tiles)} for {table.players} players"
                                                + (f"; not usable: {', '.join(bad)}" if bad else "")))
        return None
    return sg.layout_board(table.layout)


def _not_a_space(text: str, expected: str) -> str:
    """The reason a location is refused, naming the one spelling of a loosely written street square."""
    meant = sg.street_spelling(text)
    if meant is not None:
        return f"{text!r} is not how a square is written: write {meant!r} (one spelling per square)"
    return f"{text!r} is not a space: {expected}"


def _gulch_dude(board: sg.Board, i: int, d: GulchDudeTable, problems: list[Problem]) -> sg.Dude:
    """Build one dude, appending problems for a bad location or condition."""
    if d.at != sg.ASIDE and not board.is_location(d.at):
        problems.append(Problem(f"dude[{i}].at", _not_a_space(d.at, "street:ROW:COL, a building, home or aside")))
    if d.in_cell and d.at != sg.JAIL:
        problems.append(Problem(f"dude[{i}].in_cell", "a dude in a cell must be at the jail"))
    if d.dead and d.at != sg.GRAVEYARD:
        problems.append(Problem(f"dude[{i}].dead", "a dead dude lies in the graveyard (Death)"))
    return sg.Dude(d.id, d.outfit, d.at, d.wounded, d.in_cell, d.dead, d.harrowed)


def _townsfolk(board: sg.Board, tables: list[TownsfolkTable], problems: list[Problem]) -> tuple[sg.Folk, ...]:
    """Build the townsfolk (id ``townsfolk-N`` for the N-th table where none is given), appending problems."""
    folk: list[sg.Folk] = []
    for i, t in enumerate(tables, 1):
        if t.at == sg.HOME or not board.is_location(t.at):
            problems.append(Problem(f"townsfolk[{i}].at", _not_a_space(t.at, "a building or street:ROW:COL")))
        if t.in_cell and t.at != sg.JAIL:
            problems.append(Problem(f"townsfolk[{i}].in_cell", "a figure in a cell must be at the jail"))
        folk.append(sg.Folk(t.id or f"townsfolk-{i}", t.at, t.name, t.wounded, t.in_cell, t.sheriff))
    if sum(1 for f in folk if f.sheriff) > 1:
        problems.append(Problem("townsfolk", "only one townsfolk is the Sheriff"))
    return tuple(folk)


def _outfits(data: GulchFile, town: sg.Town, problems: list[Problem]) -> tuple[gr.Outfit, ...]:
    """The outfits in seating order: the ``[[outfit]]`` tables, else the dudes' outfits."""
    if not data.outfit:
        return tuple(gr.Outfit(o) for o in town.outfits())
    ids = [o.id for o in data.outfit]
    problems += _duplicates("outfit", ids)
    for i, d in enumerate(data.dude, 1):
        if d.outfit not in ids:
            problems.append(Problem(f"dude[{i}].outfit", f"{d.outfit!r} is not one of the [[outfit]] tables"))
    return tuple(gr.Outfit(o.id, o.ghost_rock, o.objectives, o.points) for o in data.outfit)


def _gulch_state(data: GulchFile, town: sg.Town, outfits: tuple[gr.Outfit, ...]) -> gr.GulchState:
    """The game around the position: round, step, mine, end condition (``[game]``)."""
    g = data.game
    fields: dict[str, Any] = {"round": g.round, "end_condition": g.end_condition,
                              "declared": frozenset(g.declared), "last_round": g.last_round}
    if g.mine is not None:
        fields["mine"] = g.mine
    if g.step is not None:
        fields["step"] = gr.Step(g.step)
    return gr.new_state(town, outfits, players=data.board.players, **fields)


def gulch_document(town: sg.Town, title: str = "Slaughter Gulch",
                   state: gr.GulchState | None = None) -> dict[str, Any]:
    """Return the board-file dict (JSON- and TOML-able) describing ``town``; :func:`town_from_document` reads it back.

    The layout is written out, so no seed is needed; the player count is the
    smallest one the board's width allows (2 for rows of three, else 4: the
    same tiles serve 3-6 players). With ``state`` (a game at the start of a
    round or of the setup) the ``[game]`` and ``[[outfit]]`` tables are written
    too.

    >>> town = load_gulch({"board": {"game": "slaughter_gulch", "seed": 1}}, "<doc>").town
    >>> load_gulch(gulch_document(town), "<doc>").town == town
    True
    """
    board: dict[str, Any] = {"game": "slaughter_gulch", "title": title,
                             "players": 2 if town.board.columns == sg.columns_for(2) else 4,
                             "layout": [*town.board.top, *town.board.bottom]}
    if town.deputy is not None:
        board["deputy"] = town.deputy
    doc: dict[str, Any] = {
        "board": board,
        "dude": [{"id": d.id, "outfit": d.outfit, "at": d.at, "wounded": d.wounded, "in_cell": d.in_cell,
                  "dead": d.dead, "harrowed": d.harrowed} for d in town.dudes],
        "townsfolk": [{"id": f.id, "at": f.at, "name": f.name, "wounded": f.wounded, "in_cell": f.in_cell,
                       "sheriff": f.sheriff} for f in town.townsfolk],
    }
    if state is not None:
        if state.step not in (gr.Step.SETUP, gr.Step.SPELLS, gr.Step.ORDERS) or state.orders:
            raise ValueError("a board file holds a game at the start of a round; save the actions instead")
        game: dict[str, Any] = {"round": state.round, "step": state.step.value, "mine": state.mine,
                                "declared": sorted(state.declared), "last_round": state.last_round}
        if state.end_condition is not None:
            game["end_condition"] = state.end_condition
        doc["game"] = game
        doc["outfit"] = [{"id": o.id, "ghost_rock": o.ghost_rock, "objectives": o.objectives, "points": o.points}
                         for o in state.outfits]
    return doc


# --------------------------------------------------------------------------- Doomtown


def load_doomtown(doc: dict[str, Any], source: str) -> DoomGame:
    """Validate and build a Doomtown position ("Table Layout"); raises :class:`InputFileError`."""
    data: DoomFile = _parse(DoomFile, doc, source)
    problems: list[Problem] = []
    streets = tuple(_street(i, s, problems) for i, s in enumerate(data.street, 1))
    players = [s.player for s in data.street]
    problems += [Problem(f"street[{players.index(p) + 1}].player", f"{p!r} has two streets")
                 for p, n in Counter(players).items() if n > 1]
    out = tuple(dt.OutOfTown(o.id, o.owner) for o in data.out_of_town)
    for i, o in enumerate(out, 1):
        if o.owner not in players:
            problems.append(Problem(f"out_of_town[{i}].owner", f"{o.owner!r} has no street"))
    ids = [loc for s in streets for loc in s.locations] + [o.id for o in out]
    problems += _location_duplicates(ids)
    dudes = tuple(dt.Dude(d.id, d.player, d.at, d.booted, d.influence) for d in data.dude)
    points = tuple(sorted(data.control_points.items()))
    town = dt.Town(streets, out, dudes, points)
    problems += _doom_dude_problems(town, players)
    problems += _duplicates("dude", [d.id for d in data.dude])
    problems += _doom_game_problems(data, town, players)
    if problems:
        raise InputFileError(source, problems)
    names = {**{d.id: d.name for d in data.dude if d.name}, **data.names}
    g = data.game
    state = dtt.new_state(town, names, turn=g.turn, phase=dtt.Phase(g.phase), winner=g.winner,
                          to_act=g.winner if g.phase == "high_noon" else None,
                          victory_points=tuple(sorted(data.victory_points.items())))
    return DoomGame(data.board.title, town, names, data.query, state)


def _doom_game_problems(data: DoomFile, town: dt.Town, players: list[str]) -> list[Problem]:
    """Problems with ``[game]``, ``[control_points]`` and ``[victory_points]``."""
    problems: list[Problem] = []
    g = data.game
    if g.phase != "gambling" and g.winner not in players:
        problems.append(Problem("game.winner", "after the Gambling Phase, name the lowball Winner (a player)"))
    if g.phase == "gambling" and g.winner is not None:
        problems.append(Problem("game.winner", "the Winner is found in the Gambling Phase: leave it out there"))
    deeds = set(town.locations) - town.homes - {dt.TOWN_SQUARE}
    problems += [Problem(f"control_points.{d}", f"{d!r} is not a deed in play") for d in data.control_points
                 if d not in deeds]
    problems += [Problem(f"victory_points.{p}", f"{p!r} has no street") for p in data.victory_points
                 if p not in players]
    return problems


def _street(i: int, s: StreetTable, problems: list[Problem]) -> dt.Street:
    """Build one street, finding its home; appends problems."""
    for loc in s.locations:
        if loc == dt.TOWN_SQUARE or not _is_id(loc):
            problems.append(Problem(f"street[{i}].locations", f"{loc!r} is not a usable location id "
                                                               "(ASCII letters, digits, - and _)"))
    home = s.home
    if home is None:
        guesses = [loc for loc in s.locations if "home" in loc]
        home = guesses[0] if len(guesses) == 1 else None
        if home is None:
            problems.append(Problem(f"street[{i}].home", "name the home: it must be one of the locations"))
    elif home not in s.locations:
        problems.append(Problem(f"street[{i}].home", f"{home!r} is not among this street's locations"))
    return dt.Street(s.player, home or "", tuple(s.locations))


def _is_id(text: str) -> bool:
    """True for ASCII letters, digits, ``-`` and ``_`` (the id pattern of every board file)."""
    return ID_RE.fullmatch(text) is not None


def _location_duplicates(ids: list[str]) -> list[Problem]:
    """Problems for a location id used twice anywhere in the file."""
    return [Problem("street", f"location {i!r} appears more than once") for i, n in Counter(ids).items() if n > 1]


def _doom_dude_problems(town: dt.Town, players: list[str]) -> list[Problem]:
    """Problems for dudes with an unknown player or location."""
    problems = []
    for i, d in enumerate(town.dudes, 1):
        if d.player not in players:
            problems.append(Problem(f"dude[{i}].player", f"{d.player!r} has no street"))
        if d.at not in town.locations:
            problems.append(Problem(f"dude[{i}].at", f"{d.at!r} is not a location in play"))
    return problems


def doomtown_document(town: dt.Town, title: str = "Doomtown", names: dict[str, str] | None = None,
                      state: dtt.DoomState | None = None) -> dict[str, Any]:
    """Return the board-file dict (JSON- and TOML-able) describing ``town``; :func:`town_from_document` reads it back.

    ``names`` (display names by id) are written to ``[names]`` when given. With
    ``state`` (a turn before High Noon's first action) ``[game]`` and the Victory
    Points are written too.

    >>> town = dt.Town((dt.Street("ann", "ann-home", ("ann-home",)),))
    >>> load_doomtown(doomtown_document(town), "<doc>").town == town
    True
    """
    doc: dict[str, Any] = {
        "board": {"game": "doomtown", "title": title},
        "street": [{"player": s.player, "home": s.home, "locations": list(s.locations)} for s in town.streets],
        "out_of_town": [{"id": o.id, "owner": o.owner} for o in town.out_of_town],
        "dude": [{"id": d.id, "player": d.player, "at": d.at, "booted": d.booted, "influence": d.influence}
                 for d in town.dudes],
        "names": dict(names or {}),
        "control_points": dict(town.control_points),
    }
    if state is not None:
        if state.phase not in (dtt.Phase.GAMBLING, dtt.Phase.UPKEEP, dtt.Phase.HIGH_NOON) or state.fight:
            raise ValueError("a board file holds a turn before its first action; save the actions instead")
        game: dict[str, Any] = {"turn": state.turn, "phase": state.phase.value}
        if state.winner is not None:
            game["winner"] = state.winner
        doc["game"] = game
        doc["victory_points"] = dict(state.victory_points)
    return doc


def town_document(town: sg.Town | dt.Town) -> dict[str, Any]:
    """Return the board-file dict of a Slaughter Gulch or Doomtown position (default titles, no names)."""
    return gulch_document(town) if isinstance(town, sg.Town) else doomtown_document(town)


def town_from_document(doc: dict[str, Any], source: str = "<document>") -> sg.Town | dt.Town:
    """Return the position described by a board-file dict; raises :class:`InputFileError` listing every problem."""
    return load_board(doc, source).town
