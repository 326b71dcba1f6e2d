"""The game's small words, defined once for every layer: sides, edges, arcs, weights, Collision orientations.

``geometry`` and ``gaslands`` both import these (this module imports nothing of the project), so a side
of a template, a Slide's facing and a drop against a side edge are the same ``Side``; a contact edge the
same ``Edge`` whether the geometry found it or the rules read it (p.53); and a weight class the same
whether written in a file (``WeightName``) or ordered for the Smash Attack Dice (``Weight``, p.56).
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Literal

Side = Literal["left", "right"]
"""A turning template's direction, a Slide's facing off a Straight (p.26), a vehicle's side."""

Edge = Literal["front", "rear", "side"]
"""Where a Collision touches a vehicle, after the corner and reversing rules (p.53)."""

DropEdge = Literal["rear", "left", "right"]
"""The edges a dropped weapon's template may go against (p.78)."""

Arc = Literal["front", "rear", "side", "turret"]
"""A weapon's Arc of Fire, or the facing it is mounted on (p.28-29); ``turret`` is 360 degrees."""

OrientationName = Literal["head_on", "t_bone", "tailgate"]
"""A Collision's orientation as written in files and JSON (p.52-53)."""

WeightName = Literal["lightweight", "middleweight", "heavyweight"]
"""A weight class as written in files (p.15)."""


class Orientation(Enum):
    """The orientation of a Collision (p.52-53); its values are the :data:`OrientationName` words."""

    HEAD_ON = "head_on"
    T_BONE = "t_bone"
    TAILGATE = "tailgate"


class Weight(IntEnum):
    """Weight classes, ordered so that differences count classes (p.15, p.56)."""

    LIGHTWEIGHT = 1
    MIDDLEWEIGHT = 2
    HEAVYWEIGHT = 3

    @classmethod
    def parse(cls, name: str) -> Weight:
        """``"middleweight"`` -> ``Weight.MIDDLEWEIGHT``; ``ValueError`` for other words."""
        try:
            return cls[name.upper()]
        except KeyError:
            raise ValueError(f"unknown weight class {name!r}") from None

    @property
    def word(self) -> WeightName:
        """The class as written in files: ``"middleweight"``."""
        words: dict[Weight, WeightName] = {Weight.LIGHTWEIGHT: "lightweight", Weight.MIDDLEWEIGHT: "middleweight",
                                           Weight.HEAVYWEIGHT: "heavyweight"}
        return words[self]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word`` agreeing in number: ``plural(1, "error")`` is ``"1 error"``, ``plural(2, "error")``
    ``"2 errors"``; ``many`` gives an irregular plural (``plural(1, "die", "dice")``)."""
    return f"{n} {word if n == 1 else many or word + 's'}"
