"""Movement in Slaughter Gulch: legal destinations, paths, distances and secret plans.

Rules (``seeds/004``): "Movement" (up to two spaces; a street square or a
building is one space; no diagonals; building to building goes through the
street; an illegal move leaves the dude where it is with no action; from home
only onto a street square, which is the whole move; straight home from any
building), "Action Tokens" / Run (up to four spaces, no other action; a
wounded dude cannot run) and "Playing the Game" steps 2-3 (moves are planned
in secret and revealed together).

The space graph (``BOARDS.md``): street squares step orthogonally to street
squares; a building connects only to its door squares and to ``home``; home
connects to every street square but only as the first step of a move, and a
move that enters home ends there.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import NamedTuple

from simulator.boards.gulch_board import HOME, STREET_ROWS, Board, parse_street, street
from simulator.boards.gulch_town import ASIDE, Dude, Town
from simulator.boards.verdict import Verdict, allowed, refused

MOVE_SPACES = 2
RUN_SPACES = 4


class Plan(NamedTuple):
    """A secretly planned move: the destination ``to`` and whether the dude plays a Run token."""

    to: str
    run: bool = False


def street_neighbours(board: Board, square: str) -> tuple[str, ...]:
    """Return the street squares one orthogonal step from ``square`` (never diagonal)."""
    cell = parse_street(square)
    if cell is None:
        return ()
    steps = ((cell.row - 1, cell.col), (cell.row + 1, cell.col), (cell.row, cell.col - 1),
             (cell.row, cell.col + 1))
    return tuple(street(r, c) for r, c in steps if r in STREET_ROWS and 0 <= c < board.columns)


def steps_from(board: Board, location: str, first_step: bool) -> tuple[str, ...]:
    """Return the spaces one step from ``location``.

    ``first_step`` says whether the move starts here: home leads onto any street
    square only as the first step; later, home is a dead end.
    """
    if location == HOME:
        return board.streets if first_step else ()
    if board.is_building(location):
        return (*board.doors(location), HOME)
    return (*street_neighbours(board, location), *board.buildings_opening_on(location))


def _search(board: Board, start: str, limit: int | None) -> dict[str, tuple[str, ...]]:
    """Breadth-first search: every reachable location -> a shortest path from ``start`` within ``limit``."""
    paths: dict[str, tuple[str, ...]] = {start: (start,)}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        route = paths[here]
        if limit is not None and len(route) - 1 >= limit:
            continue
        for nxt in steps_from(board, here, first_step=len(route) == 1):
            if nxt not in paths:
                paths[nxt] = (*route, nxt)
                queue.append(nxt)
    return paths


def allowance(dude: Dude, run: bool) -> tuple[int, str]:
    """Return the spaces ``dude`` may move this round and why (Movement; Run: wounded dudes cannot run)."""
    if run and dude.wounded:
        return MOVE_SPACES, "a wounded dude cannot run: two spaces (Action Tokens, Run)"
    if run:
        return RUN_SPACES, "running: up to four spaces, no other action (Action Tokens, Run)"
    return MOVE_SPACES, "up to two spaces (Movement)"


def _stuck_reason(dude: Dude) -> str | None:
    """Return why the dude cannot move at all (dead or in a cell), or ``None``."""
    if dude.at == ASIDE:
        return "this dude is set aside, not in play (To Start the Game)"
    if dude.dead:
        return "a dead dude lies in the graveyard and does nothing (Death)"
    if dude.in_cell:
        return "a dude in a jail cell takes no action (Actions; The Jail)"
    return None


def legal_moves(board: Board, dude: Dude, run: bool = False) -> frozenset[str]:
    """Return every location ``dude`` may end its move on this round, its start included.

    From home the choices are home or any street square (Home Movement). A dead or
    jailed dude can only stay. ``run`` uses the Run allowance unless wounded.
    """
    if _stuck_reason(dude):
        return frozenset({dude.at})
    if dude.at == HOME:
        return frozenset({HOME, *board.streets})
    limit, _ = allowance(dude, run)
    return frozenset(_search(board, dude.at, limit))


def path(board: Board, a: str, b: str) -> tuple[str, ...] | None:
    """Return a shortest legal path from ``a`` to ``b`` (both ends included), or ``None`` if none exists.

    Orthogonal steps only, buildings through their doors, home only at either end.
    """
    return _search(board, a, None).get(b)


def distance(board: Board, a: str, b: str) -> int | None:
    """Return the number of spaces on the shortest path from ``a`` to ``b`` (0 when equal), or ``None``."""
    route = path(board, a, b)
    return None if route is None else len(route) - 1


def check_plan(board: Board, dude: Dude, plan: Plan) -> Verdict:
    """Whether ``plan`` is a legal move for ``dude``, with the reason (Movement, Home Movement, Run)."""
    if not board.is_location(plan.to):
        return refused(f"{plan.to} is not a space of this town")
    stuck = _stuck_reason(dude)
    if stuck and plan.to != dude.at:
        return refused(stuck)
    limit, why = allowance(dude, plan.run)
    if dude.at == HOME and plan.to != HOME and not board.is_street(plan.to):
        return refused("from home a dude must move onto a street square, and that is the whole move "
                       "(Home Movement)")
    route = path(board, dude.at, plan.to) if plan.to in legal_moves(board, dude, plan.run) else None
    if route is None:
        shortest = distance(board, dude.at, plan.to)
        return refused(f"{plan.to} is {shortest} spaces away by orthogonal steps through doors; "
                       f"{why}; the dude stays and takes no action (Movement)")
    return allowed(f"{len(route) - 1} space(s): {' > '.join(route)}")


def resolve_plans(town: Town, plans: Mapping[str, Plan]) -> tuple[Town, dict[str, Verdict]]:
    """Reveal every planned move at once ("Playing the Game", steps 2-3).

    Each plan is judged from the position before any dude moves; an illegal plan
    leaves that dude where it is. Returns the new town and the verdict per dude
    id. Raises ``KeyError`` for an unknown dude id.
    """
    verdicts = {dude_id: check_plan(town.board, town.dude(dude_id), plan) for dude_id, plan in plans.items()}
    moved = town
    for dude_id, plan in plans.items():
        if verdicts[dude_id].legal:
            moved = moved.moved(dude_id, plan.to)
    return moved, verdicts
