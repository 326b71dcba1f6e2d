"""Team colours: the scenario's own, or (an option) the Okabe-Ito colour-blind-safe palette.

Okabe and Ito's eight colours ("Color Universal Design", 2002) stay apart for the
common kinds of colour blindness (red-green as well as blue-yellow); black is
left out here (it vanishes on the dark window). With the option on
(:attr:`Settings.colour_blind <simulator.ui.user_files.Settings.colour_blind>`,
File > Settings or Ctrl+B), each team takes the palette colour nearest to the one its
scenario declares, no two teams the same (:func:`team_colours`): the red team
turns vermillion, the blue team blue, the green team bluish green.

Every place that draws a team's colour asks :func:`team_hex`; the window sets the
option with :func:`use_colour_blind` when it opens and when the setting changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

OKABE_ITO: tuple[tuple[str, str], ...] = (
    ("vermillion", "#d55e00"),
    ("sky blue", "#56b4e9"),
    ("orange", "#e69f00"),
    ("bluish green", "#009e73"),
    ("yellow", "#f0e442"),
    ("reddish purple", "#cc79a7"),
    ("blue", "#0072b2"),
)
"""The palette (name, hex), without its black."""

NO_COLOUR = "#999999"
"""A team whose scenario gives no colour."""

SPREAD = 0.5
"""How much a palette colour far from the teams' colours already chosen counts against one near the declared
colour (so a yellow team turns yellow, not the orange next to the red team's vermillion)."""

_colour_blind = [False]


def use_colour_blind(on: bool) -> None:
    """Draw every team in the colour-blind-safe palette (``on``) or in its scenario's colours."""
    _colour_blind[0] = bool(on)


def colour_blind() -> bool:
    """Whether the colour-blind-safe palette is in use."""
    return _colour_blind[0]


def _rgb(text: str) -> tuple[int, int, int]:
    t = text.lstrip("#")
    return (int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16))


def _distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The "redmean" distance between two sRGB colours (closer to what the eye sees than plain RGB)."""
    r = (a[0] + b[0]) / 2.0
    dr, dg, db = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return float(((2 + r / 256) * dr * dr + 4 * dg * dg + (2 + (255 - r) / 256) * db * db) ** 0.5)


@cache
def team_colours(declared: tuple[str, ...]) -> tuple[str, ...]:
    """The palette colour of each team whose scenario colour is ``declared`` (hex, "" for none): in team order,
    the unused palette colour nearest the declared one and far from those already taken (:data:`SPREAD`); the
    palette repeats past seven teams."""
    out: list[str] = []
    for i, colour in enumerate(declared):
        taken = out[i - i % len(OKABE_ITO):]  # this run of seven teams' colours so far
        free = [hx for _, hx in OKABE_ITO if hx not in taken]
        want = _rgb(colour) if colour else _rgb(OKABE_ITO[i % len(OKABE_ITO)][1])
        out.append(min(free, key=lambda hx: _distance(_rgb(hx), want) - SPREAD * min(
            (_distance(_rgb(hx), _rgb(t)) for t in taken), default=0.0)))
    return tuple(out)


def team_hex(declared: Sequence[str], index: int) -> str:
    """The colour (hex) to draw team ``index`` in, given every team's scenario colour ``declared`` in order:
    its own (grey if none, or no such team), or its palette colour when the colour-blind option is on."""
    if not 0 <= index < len(declared):
        return NO_COLOUR
    if not _colour_blind[0]:
        return declared[index] or NO_COLOUR
    return team_colours(tuple(declared))[index]
