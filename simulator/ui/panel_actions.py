"""What a click on the game panel does: one frozen class per kind, dispatched with ``match`` + ``assert_never``.

The panel (:mod:`simulator.ui.game_panel`) is rebuilt every frame from the
prompt and the draft, so a button that answers the prompt carries the whole
decision (:class:`Decide`, e.g. ``Decide(RollSkid(2))`` or, for the Fire
button, ``Decide(DeclareAttacks(...))`` with the attacks ticked so far).
The other actions change the draft (dice marked, Shifts spent, targets
ticked, the facing being chosen), a seat, or the template on the car
(:class:`TemplateAction`, which the game mode runs). Nothing here knows a
rule: what may be chosen comes from the prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from simulator.gaslands.decisions import Attack, Decision, Drop
from simulator.gaslands.skid import SpendShift


@dataclass(frozen=True)
class Decide:
    """Answer the prompt with ``decision``."""

    decision: Decision


@dataclass(frozen=True)
class ToggleSeat:
    """A bot takes ``player``'s seat, or gives it back to a person."""

    player: int


@dataclass(frozen=True)
class ToggleDie:
    """Mark a Skid Die for Push It, or cancel it with a Shift (p.23, p.40); again to take it back."""

    index: int


@dataclass(frozen=True)
class AddSpend:
    """Spend one more Shift this way (gear up or down, shed a Hazard Token, p.23)."""

    spend: SpendShift


@dataclass(frozen=True)
class TakeBackSpend:
    """Take back the last Shift spent."""


@dataclass(frozen=True)
class SetTurn:
    """The facing being chosen (Spin, Pivot, Lose Control, Piledriver): ``turn_deg`` from the heading now,
    counter-clockwise positive."""

    turn_deg: float


@dataclass(frozen=True)
class SetShove:
    """How far along its heading the Piledriver's victim is put (p.120), in mm."""

    shove_mm: float


@dataclass(frozen=True)
class SetSpot:
    """Where the Experimental Teleporter would put its vehicle (p.83-84): a point of the table, in mm."""

    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class ToggleAttack:
    """Tick a target for a weapon (one target per weapon: ticking another moves the tick), or untick it."""

    attack: Attack


@dataclass(frozen=True)
class ToggleDrop:
    """Tick a dropped weapon against an edge (one drop per Attack Step, p.78), or untick it."""

    drop: Drop


@dataclass(frozen=True)
class PickDeployCar:
    """The waiting car the next Starting Grid slot is for (p.126)."""

    vehicle_id: str


@dataclass(frozen=True)
class TemplateAction:
    """The template on the active car: choose it (the decision), mirror it, reverse it, take it away."""

    what: Literal["choose", "mirror", "reverse", "cancel"]


PanelAction: TypeAlias = (
    Decide | ToggleSeat | ToggleDie | AddSpend | TakeBackSpend | SetTurn | SetShove | SetSpot | ToggleAttack | ToggleDrop
    | PickDeployCar | TemplateAction
)
"""Every action a click on the game panel can run."""

__all__ = ["AddSpend", "Decide", "PanelAction", "PickDeployCar", "SetShove", "SetSpot", "SetTurn", "TakeBackSpend",
           "TemplateAction", "ToggleAttack", "ToggleDie", "ToggleDrop", "ToggleSeat"]
