"""Skid Dice: rolling, Push It, spending Shifts and the hazards that follow (p.21-24, p.40-41).

The Movement Step timing (p.21, steps 1.3-1.5) as pure functions of values:

1. :func:`roll_skid_dice` rolls up to the vehicle's Handling at once (p.22);
   a Trivial manoeuvre adds one free Shift (p.40).
2. :func:`push_it` rerolls any chosen dice, once per Movement Step, for
   +1 Hazard Token (p.40).
3. :func:`resolve_shifts` spends each Shift one at a time, in the order given
   (p.23): cancel a Hazard, Spin or Slide result; change Gear up or down
   (+1 Hazard Token each, p.23); discard a Hazard Token; or discard it for no
   effect. Shifts not mentioned are discarded. Then every uncancelled Hazard,
   Slide and Spin result gives +1 Hazard Token (p.24).

Every impossible spend raises :class:`simulator.errors.IllegalChoice` naming
the rule: gear outside 1..max (p.15), a discard with no token (p.23),
cancelling a Shift or a die already cancelled (p.23).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from simulator.errors import IllegalChoice
from simulator.frozen import replace
from simulator.gaslands.dice import DiceSource, SkidFace
from simulator.gaslands.rule_numbers import RULES

WIPEOUT_HAZARDS = RULES.wipeout.hazards.value
"""A vehicle with this many Hazard Tokens or more wipes out in the Wipeout Step (p.34)."""


class ShiftUse(Enum):
    """What a Shift result is spent on (p.21, p.23)."""

    CANCEL = "cancel"
    GEAR_UP = "gear_up"
    GEAR_DOWN = "gear_down"
    DISCARD_HAZARD = "discard_hazard"
    DISCARD = "discard"


@dataclass(frozen=True)
class SpendShift:
    """One Shift spent; ``die`` is the index of the result it cancels (``CANCEL`` only)."""

    use: ShiftUse
    die: int | None = None


@dataclass(frozen=True)
class SkidRoll:
    """The Skid Dice on the table in one Movement Step.

    ``faces`` are the rolled dice in order; ``free_shifts`` counts bonus Shifts
    from a Trivial manoeuvre (p.40); ``pushed`` says whether Push It was used.
    """

    faces: tuple[SkidFace, ...] = ()
    free_shifts: int = 0
    pushed: bool = False

    @property
    def shifts(self) -> int:
        """Shift results available: rolled Shifts plus free ones."""
        return self.faces.count(SkidFace.SHIFT) + self.free_shifts


@dataclass(frozen=True)
class Driving:
    """The part of a vehicle that Skid Dice change: gear and Hazard Tokens."""

    gear: int
    hazards: int
    max_gear: int
    may_shed: bool = True
    """False when an enemy's Unnerving Eye Contact forbids spending Shifts to shed Hazard Tokens (p.111)."""

    def change_gear(self, delta: int) -> Driving:
        """Gear up (+1) or down (-1), gaining a Hazard Token (p.23)."""
        gear = self.gear + delta
        if gear < 1:
            raise IllegalChoice("cannot change down below Gear 1", "Current Gear, p.16")
        if gear > self.max_gear:
            raise IllegalChoice(f"cannot exceed Max Gear {self.max_gear}", "Max Gear, p.15")
        return replace(self, gear=gear, hazards=self.hazards + 1)

    def discard_hazard(self) -> Driving:
        """Discard one Hazard Token (p.23)."""
        if self.hazards <= 0:
            raise IllegalChoice("no Hazard Token to discard", "Shift, p.23")
        if not self.may_shed:
            raise IllegalChoice("an enemy's Unnerving Eye Contact stops it shedding Hazard Tokens with Shifts",
                                "Unnerving Eye Contact, p.111")
        return replace(self, hazards=self.hazards - 1)

    def gain(self, tokens: int) -> Driving:
        """Gain ``tokens`` Hazard Tokens (``tokens >= 0``)."""
        return replace(self, hazards=self.hazards + tokens)


@dataclass(frozen=True)
class SkidOutcome:
    """The result of spending the Shifts and gaining hazards (steps 1.4-1.5, p.21)."""

    driving: Driving
    cancelled: frozenset[int]
    slides: int
    spins: int
    hazards_from_dice: int

    @property
    def slide(self) -> bool:
        """Whether a Slide template is placed (p.24); extra Slides only add hazards."""
        return self.slides > 0

    @property
    def spin(self) -> bool:
        """Whether the vehicle may Spin after its Final Position (p.24)."""
        return self.spins > 0


def roll_skid_dice(dice: DiceSource, count: int, handling: int, *, trivial: bool = False) -> SkidRoll:
    """Roll ``count`` Skid Dice at once, up to ``handling`` (p.22); Trivial adds a free Shift (p.40)."""
    if not 0 <= count <= handling:
        raise IllegalChoice(f"may roll 0 to {handling} Skid Dice, not {count}", "Skid Dice, p.22")
    return SkidRoll(dice.roll_skid(count), free_shifts=1 if trivial else 0)


def push_it(roll: SkidRoll, reroll: Iterable[int], dice: DiceSource) -> SkidRoll:
    """Reroll the dice at the indices ``reroll`` (the caller adds the Hazard Token, p.40).

    Raises :class:`IllegalChoice` if the roll was already pushed or an index is not a die.
    """
    if roll.pushed:
        raise IllegalChoice("Push It only once per Movement Step", "Push It, p.40")
    indices = sorted(set(reroll))
    if any(not 0 <= i < len(roll.faces) for i in indices):
        raise IllegalChoice(f"no Skid Die at {indices}", "Push It, p.40")
    faces = list(roll.faces)
    for i, face in zip(indices, dice.roll_skid(len(indices)), strict=True):
        faces[i] = face
    return replace(roll, faces=tuple(faces), pushed=True)


def resolve_shifts(driving: Driving, roll: SkidRoll, spends: Sequence[SpendShift]) -> SkidOutcome:
    """Spend Shifts in order, then gain hazards for uncancelled Hazard, Slide and Spin results."""
    if len(spends) > roll.shifts:
        raise IllegalChoice(f"{len(spends)} Shifts spent, only {roll.shifts} available", "Shift, p.23")
    cancelled: set[int] = set()
    for spend in spends:
        driving = _spend(driving, roll, spend, cancelled)
    live = [face for i, face in enumerate(roll.faces) if i not in cancelled]
    slides, spins = live.count(SkidFace.SLIDE), live.count(SkidFace.SPIN)
    gained = slides + spins + live.count(SkidFace.HAZARD)
    return SkidOutcome(driving.gain(gained), frozenset(cancelled), slides, spins, gained)


def _spend(driving: Driving, roll: SkidRoll, spend: SpendShift, cancelled: set[int]) -> Driving:
    if spend.use is ShiftUse.CANCEL:
        cancelled.add(_cancellable(roll, spend.die, cancelled))
        return driving
    if spend.die is not None:
        raise IllegalChoice(f"only a cancel names a die, not {spend.use.value}", "Shift, p.23")
    if spend.use is ShiftUse.GEAR_UP:
        return driving.change_gear(+1)
    if spend.use is ShiftUse.GEAR_DOWN:
        return driving.change_gear(-1)
    if spend.use is ShiftUse.DISCARD_HAZARD:
        return driving.discard_hazard()
    return driving


def _cancellable(roll: SkidRoll, die: int | None, cancelled: set[int]) -> int:
    if die is None or not 0 <= die < len(roll.faces):
        raise IllegalChoice(f"no Skid Die at index {die} to cancel", "Shift, p.23")
    if roll.faces[die] is SkidFace.SHIFT:
        raise IllegalChoice("a Shift cancels a Hazard, Spin or Slide result, not a Shift", "Shift, p.23")
    if die in cancelled:
        raise IllegalChoice(f"Skid Die {die} is already cancelled", "Shift, p.23")
    return die


def legal_shift_uses(driving: Driving, roll: SkidRoll, cancelled: frozenset[int] = frozenset()) -> tuple[SpendShift, ...]:
    """Every single spend that is legal now: what a UI or bot may offer for the next Shift."""
    options = [
        SpendShift(ShiftUse.CANCEL, i)
        for i, face in enumerate(roll.faces)
        if face is not SkidFace.SHIFT and i not in cancelled
    ]
    if driving.gear < driving.max_gear:
        options.append(SpendShift(ShiftUse.GEAR_UP))
    if driving.gear > 1:
        options.append(SpendShift(ShiftUse.GEAR_DOWN))
    if driving.hazards > 0 and driving.may_shed:
        options.append(SpendShift(ShiftUse.DISCARD_HAZARD))
    options.append(SpendShift(ShiftUse.DISCARD))
    return tuple(options)
