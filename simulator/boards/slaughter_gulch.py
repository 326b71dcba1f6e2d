"""Slaughter Gulch: the public face of the board model.

*Deadlands: The Battle for Slaughter Gulch* (``seeds/004``) played on a
grid town. This module gathers the model from its concept modules so callers
import one name space:

* :mod:`~simulator.boards.gulch_board` - tiles, seeded setup, the grid, doors,
  clockwise numbering ("Game Setup");
* :mod:`~simulator.boards.gulch_town` - dudes, townsfolk by 2d6, the Deputy, the
  Jail's three cells, building control ("Events", "Automatic Actions",
  "Control of Buildings", "The Jail");
* :mod:`~simulator.boards.gulch_movement` - legal moves, paths, distances,
  secret plans revealed together ("Movement", Run, "Playing the Game");
* :mod:`~simulator.boards.gulch_sight` - sight, range and shooting
  ("Shootin' and Fightin'", "Long Range Combat");
* :mod:`~simulator.boards.gulch_round` and :mod:`~simulator.boards.gulch_combat` -
  the game round by round, driven by the actions of
  :mod:`~simulator.boards.gulch_actions` ("Playing the Game" and the rest).

Everything is a pure function of immutable values; dice come in as arguments.
"""

from __future__ import annotations

from simulator.boards.gulch_board import (
    BUILDING_TILES,
    DISPLAY_NAMES,
    GRAVEYARD,
    HOME,
    JAIL,
    MINE,
    RAIL_STATION,
    TWO_PLAYER_REMOVED,
    Board,
    Cell,
    columns_for,
    layout_board,
    parse_street,
    setup,
    setup_seeded,
    street,
    street_spelling,
    tiles_for,
)
from simulator.boards.gulch_movement import (
    MOVE_SPACES,
    RUN_SPACES,
    Plan,
    allowance,
    check_plan,
    distance,
    legal_moves,
    path,
    resolve_plans,
    steps_from,
)
from simulator.boards.gulch_sight import (
    DYNAMITE,
    PISTOL,
    Weapon,
    can_see,
    can_shoot,
    range_squares,
    shootable_from,
    visible_from,
)
from simulator.boards.gulch_town import (
    ASIDE,
    JAIL_CELLS,
    TOWNSFOLK,
    Dude,
    Folk,
    Town,
    can_jail,
    controller,
    deputy_next,
    end_round,
    figures_at,
    jailed,
    place_townsfolk,
    send_to_jail,
    townsfolk_destination,
)

__all__ = [
    "BUILDING_TILES", "DISPLAY_NAMES", "GRAVEYARD", "HOME", "JAIL", "MINE", "RAIL_STATION",
    "TWO_PLAYER_REMOVED", "Board", "Cell", "columns_for", "layout_board", "parse_street", "setup",
    "setup_seeded", "street", "street_spelling", "tiles_for", "MOVE_SPACES", "RUN_SPACES", "Plan", "allowance",
    "check_plan", "distance", "legal_moves", "path", "resolve_plans", "steps_from", "DYNAMITE",
    "PISTOL", "Weapon", "can_see", "can_shoot", "range_squares", "shootable_from", "visible_from",
    "ASIDE", "JAIL_CELLS", "TOWNSFOLK", "Dude", "Folk", "Town", "can_jail", "controller", "deputy_next", "end_round",
    "figures_at", "jailed", "place_townsfolk", "send_to_jail", "townsfolk_destination",
]
