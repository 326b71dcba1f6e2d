"""Reading board files: the ``[board]`` TOML format of ``BOARDS.md`` for both Deadlands boards.

A board file is a scenario (``scenarios/slaughter_gulch.toml``,
``scenarios/doomtown.toml``) or a rulings file (the same plus ``[[query]]``
tables, answered by :mod:`simulator.boards.rulings`). The shape is checked
with pydantic, then the meaning (known ids, valid locations) by hand. Every
problem is collected and raised together as
:class:`simulator.errors.InputFileError`; ``where`` names the table and key
with 1-based indices, e.g. ``dude[2].at`` or ``street[1].home``.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from simulator.boards import doomtown as dt
from simulator.boards import slaughter_gulch as sg
from simulator.errors import InputFileError, Problem

ID_PATTERN = r"^[A-Za-z0-9_-]+$"
GAMES = ("slaughter_gulch", "doomtown")


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class GulchBoardTable(_Table):
    """``[board]`` for Slaughter Gulch: players, and the layout or a setup seed."""

    game: Literal["slaughter_gulch"]
    title: str = "Slaughter Gulch"
    players: int = Field(4, ge=2, le=6)
    layout: list[str] | None = None
    seed: int | None = None
    deputy: str | None = None


class GulchDudeTable(_Table):
    """``[[dude]]`` on the Slaughter Gulch board."""

    id: str = Field(pattern=ID_PATTERN)
    at: str
    outfit: str = "outfit"
    wounded: bool = False
    in_cell: bool = False
    dead: bool = False


class TownsfolkTable(_Table):
    """``[[townsfolk]]``: one townsfolk figure at ``at``."""

    at: str
    name: str = ""


class GulchFile(_Table):
    """A whole Slaughter Gulch board file."""

    board: GulchBoardTable
    dude: list[GulchDudeTable] = []
    townsfolk: list[TownsfolkTable] = []
    query: list[dict[str, Any]] = []


class DoomBoardTable(_Table):
    """``[board]`` for the Doomtown street."""

    game: Literal["doomtown"]
    title: str = "Doomtown"


class StreetTable(_Table):
    """``[[street]]``: a player's locations left to right, the home among them."""

    player: str = Field(pattern=ID_PATTERN)
    locations: list[str] = Field(min_length=1)
    home: str | None = None


class OutOfTownTable(_Table):
    """``[[out_of_town]]``: a Strike or other out-of-town deed."""

    id: str = Field(pattern=ID_PATTERN)
    owner: str


class DoomDudeTable(_Table):
    """``[[dude]]`` in Doomtown."""

    id: str = Field(pattern=ID_PATTERN)
    player: str
    at: str
    booted: bool = False
    name: str = ""


class DoomFile(_Table):
    """A whole Doomtown board file."""

    board: DoomBoardTable
    street: list[StreetTable] = Field(min_length=1)
    out_of_town: list[OutOfTownTable] = []
    dude: list[DoomDudeTable] = []
    query: list[dict[str, Any]] = []
    names: dict[str, str] = {}


class GulchGame(NamedTuple):
    """A loaded Slaughter Gulch file: the position and the raw queries."""

    title: str
    players: int
    town: sg.Town
    queries: list[dict[str, Any]]


class DoomGame(NamedTuple):
    """A loaded Doomtown file: the position, display names and the raw queries."""

    title: str
    town: dt.Town
    names: dict[str, str]
    queries: list[dict[str, Any]]


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
    """Read a TOML file; raises :class:`InputFileError` for a missing file or a syntax error."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise InputFileError(str(path), [Problem("file", "no such file")]) from None
    except tomllib.TOMLDecodeError as e:
        raise InputFileError(str(path), [Problem("file", f"TOML syntax error: {e}")]) from None


def game_of(doc: dict[str, Any], source: str) -> str:
    """Return ``board.game``; raises :class:`InputFileError` when missing or unknown."""
    board = doc.get("board")
    game = board.get("game") if isinstance(board, dict) else None
    if game not in GAMES:
        raise InputFileError(source, [Problem("board.game", f"expected one of {', '.join(GAMES)}")])
    return str(game)


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


def load_gulch(doc: dict[str, Any], source: str) -> GulchGame:
    """Validate and build a Slaughter Gulch position ("Game Setup"); raises :class:`InputFileError`."""
    data: GulchFile = _parse(GulchFile, doc, source)
    problems: list[Problem] = []
    board = _gulch_board(data.board, problems)
    if board is None:
        raise InputFileError(source, problems)
    dudes = tuple(_gulch_dude(board, i, d, problems) for i, d in enumerate(data.dude, 1))
    problems += _duplicates("dude", [d.id for d in data.dude])
    folk = tuple(t.at for t in data.townsfolk)
    for i, at in enumerate(folk, 1):
        if at == sg.HOME or not board.is_location(at):
            problems.append(Problem(f"townsfolk[{i}].at", f"{at!r} is not a space of this town"))
    deputy = data.board.deputy
    if deputy is not None and deputy not in board.buildings:
        problems.append(Problem("board.deputy", f"{deputy!r} is not a building of this town"))
    town = sg.Town(board, dudes, folk, deputy)
    if not problems and len(sg.jailed(town)) > sg.JAIL_CELLS:
        problems.append(Problem("dude", "more than three dudes in jail cells (The Jail)"))
    if problems:
        raise InputFileError(source, problems)
    return GulchGame(data.board.title, data.board.players, town, data.query)


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


def _gulch_dude(board: sg.Board, i: int, d: GulchDudeTable, problems: list[Problem]) -> sg.Dude:
    """Build one dude, appending problems for a bad location or condition."""
    if not board.is_location(d.at):
        problems.append(Problem(f"dude[{i}].at", f"{d.at!r} is not a space: street:ROW:COL, a building or home"))
    if d.in_cell and d.at != sg.JAIL:
        problems.append(Problem(f"dude[{i}].in_cell", "a dude in a cell must be at the jail"))
    if d.dead and d.at != sg.GRAVEYARD:
        problems.append(Problem(f"dude[{i}].dead", "a dead dude lies in the graveyard (Death)"))
    return sg.Dude(d.id, d.outfit, d.at, d.wounded, d.in_cell, d.dead)


def _duplicates(table: str, ids: list[str]) -> list[Problem]:
    """Problems for ids that appear more than once in ``table``."""
    return [Problem(f"{table}[{ids.index(i) + 1}].id", f"{i!r} is used more than once")
            for i, n in Counter(ids).items() if n > 1]


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
    town = dt.Town(streets, out, tuple(dt.Dude(d.id, d.player, d.at, d.booted) for d in data.dude))
    problems += _doom_dude_problems(town, players)
    problems += _duplicates("dude", [d.id for d in data.dude])
    if problems:
        raise InputFileError(source, problems)
    names = {**{d.id: d.name for d in data.dude if d.name}, **data.names}
    return DoomGame(data.board.title, town, names, data.query)


def _street(i: int, s: StreetTable, problems: list[Problem]) -> dt.Street:
    """Build one street, finding its home; appends problems."""
    for loc in s.locations:
        if loc == dt.TOWN_SQUARE or not _is_id(loc):
            problems.append(Problem(f"street[{i}].locations", f"{loc!r} is not a usable location id"))
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
    """True for letters, digits, ``-`` and ``_``."""
    return bool(text) and all(c.isalnum() or c in "-_" for c in text)


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


# --------------------------------------------------------------------------- writing board files


def gulch_document(town: sg.Town, title: str = "Slaughter Gulch") -> dict[str, Any]:
    """Return the board-file dict (JSON- and TOML-able) describing ``town``; :func:`town_from_document` reads it back.

    The layout is written out, so no seed is needed; the player count is the
    smallest one the board's width allows (2 for rows of three, else 4: the
    same tiles serve 3-6 players). Townsfolk names are not part of a
    :class:`~simulator.boards.gulch_town.Town` and are not written.

    >>> town = load_gulch({"board": {"game": "slaughter_gulch", "seed": 1}}, "<doc>").town
    >>> load_gulch(gulch_document(town), "<doc>").town == town
    True
    """
    board: dict[str, Any] = {"game": "slaughter_gulch", "title": title,
                             "players": 2 if town.board.columns == sg.columns_for(2) else 4,
                             "layout": [*town.board.top, *town.board.bottom]}
    if town.deputy is not None:
        board["deputy"] = town.deputy
    return {
        "board": board,
        "dude": [{"id": d.id, "outfit": d.outfit, "at": d.at, "wounded": d.wounded, "in_cell": d.in_cell,
                  "dead": d.dead} for d in town.dudes],
        "townsfolk": [{"at": at} for at in town.townsfolk],
    }


def doomtown_document(town: dt.Town, title: str = "Doomtown", names: dict[str, str] | None = None) -> dict[str, Any]:
    """Return the board-file dict (JSON- and TOML-able) describing ``town``; :func:`town_from_document` reads it back.

    ``names`` (display names by id) are written to ``[names]`` when given.

    >>> town = dt.Town((dt.Street("ann", "ann-home", ("ann-home",)),))
    >>> load_doomtown(doomtown_document(town), "<doc>").town == town
    True
    """
    return {
        "board": {"game": "doomtown", "title": title},
        "street": [{"player": s.player, "home": s.home, "locations": list(s.locations)} for s in town.streets],
        "out_of_town": [{"id": o.id, "owner": o.owner} for o in town.out_of_town],
        "dude": [{"id": d.id, "player": d.player, "at": d.at, "booted": d.booted} for d in town.dudes],
        "names": dict(names or {}),
    }


def town_document(town: sg.Town | dt.Town) -> dict[str, Any]:
    """Return the board-file dict of a Slaughter Gulch or Doomtown position (default titles, no names)."""
    return gulch_document(town) if isinstance(town, sg.Town) else doomtown_document(town)


def town_from_document(doc: dict[str, Any], source: str = "<document>") -> sg.Town | dt.Town:
    """Return the position described by a board-file dict; raises :class:`InputFileError` listing every problem."""
    return load_board(doc, source).town
