"""Every decision a player makes, as a value (DESIGN.md: a game is a seed plus a list of these).

The engine asks with a :class:`Prompt` (who decides, what kind, which answers
are legal) and is answered with one of the decision classes below. A UI, a bot
and a test all drive the engine the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.gaslands.audience import VoteEffect
from simulator.gaslands.collisions import Reaction
from simulator.gaslands.skid import SpendShift
from simulator.vocab import DropEdge, Side  # noqa: E402  (one definition for every layer)

__all__ = ["DropEdge", "Side"]


@dataclass(frozen=True)
class Activate:
    """Activate this qualifying vehicle (p.19)."""

    vehicle_id: str


@dataclass(frozen=True)
class ChooseTemplate:
    """Select and place a movement template (p.22); ``direction`` for non-straights, ``reverse`` in Gear 1 (p.39)."""

    template: str
    direction: Side | None = None
    reverse: bool = False


@dataclass(frozen=True)
class RollSkid:
    """Roll this many Skid Dice, 0 to Handling, all at once (p.22)."""

    count: int


@dataclass(frozen=True)
class PushIt:
    """Reroll the dice at these indices for a Hazard Token (p.40); empty: do not Push It."""

    reroll: tuple[int, ...] = ()


@dataclass(frozen=True)
class SpendShifts:
    """Spend Shift results in this order (p.23); Shifts left over are discarded."""

    spends: tuple[SpendShift, ...] = ()


@dataclass(frozen=True)
class SlideFacing:
    """Which way to face after sliding off a straight (p.26)."""

    side: Side


@dataclass(frozen=True)
class Spin:
    """Pivot by this angle about the centre, -90 to +90 degrees counter-clockwise (p.24)."""

    angle_deg: float


@dataclass(frozen=True)
class React:
    """A participant's reaction to a Collision (p.53)."""

    reaction: Reaction


@dataclass(frozen=True)
class Attack:
    """One attack: the weapon mount index (``-1`` a Handgun, p.31) and the target vehicle."""

    mount: int
    target: str


@dataclass(frozen=True)
class Drop:
    """Attack with a dropped weapon: leave its template against the vehicle's ``edge`` (p.78).

    ``edge`` must be in the mount's Arc of Fire (rear, or a side for a
    side-mounted weapon; any of them for a turret); ``offset_mm`` slides the
    template along that edge (see :mod:`simulator.geometry.dropped`).
    """

    mount: int
    edge: DropEdge = "rear"
    offset_mm: float = 0.0


@dataclass(frozen=True)
class DeclareAttacks:
    """All attacks of an Attack Step, up to the Crew Value (p.30-31); empty: no attacks.

    ``drops``: at most one dropped weapon attack (p.78); it counts towards the Crew Value.
    """

    attacks: tuple[Attack, ...] = ()
    drops: tuple[Drop, ...] = ()


@dataclass(frozen=True)
class LoseControl:
    """The next player clockwise sets the wiped-out vehicle's heading (p.35)."""

    heading_deg: float


@dataclass(frozen=True)
class PassPole:
    """Hand Pole Position to this player after passing a gate in a Death Race (p.125)."""

    player: int


@dataclass(frozen=True)
class SpendVotes:
    """Spend Audience Votes on these effects before activating or passing (p.89); empty: spend none."""

    effects: tuple[VoteEffect, ...] = ()


@dataclass(frozen=True)
class Deploy:
    """Place ``vehicle_id`` in Starting Grid slot ``slot`` (Death Race, p.126).

    Slots are numbered rank by rank from the Starting Line: slot ``r * columns + c``
    is column ``c`` of rank ``r`` (``columns`` = the number of players).
    """

    vehicle_id: str
    slot: int


@dataclass(frozen=True)
class Declare:
    """Answer a ``declare`` prompt with one of its options (a vehicle special rule that *may* be used).

    The options are words such as ``"yes"``/``"no"`` (Up and Over p.70-71,
    Slip Away p.66) or ``"skip"``/``"skip_gear_up"``/``"no"`` (Tanker Anchor,
    p.120); :attr:`DeclarePrompt.rule` names the rule being offered.
    """

    choice: str


@dataclass(frozen=True)
class Pivot:
    """A pivot about the centre at the start of an activation, counter-clockwise degrees; 0: no pivot.

    Pivot (Bike, Tank, p.69, p.71: Gear 1, any facing, no Collision, not left
    touching an obstruction) or Airwolf (Gyrocopter, Helicopter, p.70: up to
    90 degrees either way for 2 Hazard Tokens).
    """

    angle_deg: float = 0.0


@dataclass(frozen=True)
class Piledrive:
    """Put the target of a Piledriver Attack here (p.120): within Short range of where it was, any facing."""

    x_mm: float
    y_mm: float
    heading_deg: float


@dataclass(frozen=True)
class Teleport:
    """Where the Experimental Teleporter puts its vehicle (p.83-84): the new centre, facing unchanged."""

    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class SwingTrailer:
    """A Jackknife's Swing Trailer (p.119): hinge the trailer to this bend, its heading minus the cab's,
    counter-clockwise degrees, within 90 either way."""

    bend_deg: float


Decision = (
    Activate | ChooseTemplate | RollSkid | PushIt | SpendShifts | SlideFacing | Spin | React | DeclareAttacks
    | LoseControl | PassPole | SpendVotes | Deploy | Declare | Pivot | Piledrive | SwingTrailer | Teleport
)
