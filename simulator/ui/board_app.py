"""The pygame-ce front end for the two Deadlands boards (Slaughter Gulch and Doomtown).

The windows live in :mod:`simulator.ui.boards`: shared widgets and the play
history in ``common``, the Slaughter Gulch view in ``gulch_view``, the
Doomtown view in ``doom_view``, and the window itself in ``app``. This module
keeps the entry points the command line uses: :func:`run_board_window` and
:func:`render_board`, for a board file or a board save.
"""

from __future__ import annotations

from simulator.ui.boards.app import App, load_play, render_board, run_board_window
from simulator.ui.boards.common import RED
from simulator.ui.boards.doom_view import HELP_DOOM, DoomView
from simulator.ui.boards.gulch_view import HELP_GULCH, GulchView, glyph_crosshair, glyph_wounded

__all__ = ["HELP_DOOM", "HELP_GULCH", "RED", "App", "DoomView", "GulchView", "glyph_crosshair", "glyph_wounded",
           "load_play", "render_board", "run_board_window"]
