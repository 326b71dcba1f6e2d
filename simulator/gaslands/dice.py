"""Dice come from outside: a protocol, a seeded source and a scripted one for tests.

Skid Dice (p.12) have six faces: one Hazard, one Spin, one Slide and three
Shift. A plain D6 stands in for a Skid Die by the p.12 table: 1 Hazard, 2 Spin,
3 Slide, 4-6 Shift; :class:`SeededDice` rolls Skid Dice that way.

>>> dice = ScriptedDice(d6=[6, 3], skid=[SkidFace.SHIFT])
>>> dice.roll_d6(2), dice.roll_skid(1)
((6, 3), (<SkidFace.SHIFT: 'shift'>,))
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from enum import Enum
from typing import Protocol, TypeVar

from simulator.errors import SimulatorError
from simulator.gaslands.rule_numbers import RULES


class SkidFace(Enum):
    """A Skid Die result (p.12, p.23-24)."""

    HAZARD = "hazard"
    SPIN = "spin"
    SLIDE = "slide"
    SHIFT = "shift"


SKID_FACES: tuple[SkidFace, ...] = tuple(SkidFace(f) for f in RULES.dice.skid_faces.value)
"""The six faces of a Skid Die, indexed by the D6 that stands in for it minus one (p.12)."""


def skid_face_for_d6(roll: int) -> SkidFace:
    """The Skid Die face that a D6 roll of ``roll`` (1-6) stands for (p.12)."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a D6 shows 1-6, not {roll}")
    return SKID_FACES[roll - 1]


_T = TypeVar("_T")


class DiceExhausted(SimulatorError):
    """A :class:`ScriptedDice` was asked for more dice than its script holds."""


class DiceSource(Protocol):
    """Where every die in a game comes from."""

    def roll_d6(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` D6 (``n >= 0``); each value is 1-6."""
        ...

    def roll_skid(self, n: int) -> tuple[SkidFace, ...]:
        """Roll ``n`` Skid Dice (``n >= 0``)."""
        ...

    def snapshot(self) -> object:
        """An immutable value that :meth:`restore` takes back to this point of the sequence (for undo)."""
        ...

    def restore(self, snapshot: object) -> None:
        """Go back to the point of the sequence where ``snapshot`` was taken."""
        ...


class SeededDice:
    """Reproducible dice: the same seed gives the same sequence of rolls.

    :meth:`snapshot` is the number of dice rolled so far; :meth:`restore` goes
    back (or forward) to any such point in constant time, from a checkpoint
    of the generator kept every :data:`CHECKPOINT_DICE` dice.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)
        self._count = 0
        self._checkpoints: dict[int, object] = {0: self._random.getstate()}

    def roll_d6(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` D6."""
        return tuple(self._one() for _ in range(_count(n)))

    def _one(self) -> int:
        if self._count % CHECKPOINT_DICE == 0 and self._count not in self._checkpoints:
            self._checkpoints[self._count] = self._random.getstate()
        self._count += 1
        return self._random.randint(1, 6)

    def roll_skid(self, n: int) -> tuple[SkidFace, ...]:
        """Roll ``n`` Skid Dice as D6 read through the p.12 table."""
        return tuple(skid_face_for_d6(r) for r in self.roll_d6(n))

    def snapshot(self) -> object:
        """How many dice have been rolled."""
        return self._count

    def restore(self, snapshot: object) -> None:
        """Put the sequence back to where ``snapshot`` dice had been rolled (a checkpoint, then a few rolls)."""
        assert isinstance(snapshot, int)
        base = snapshot - snapshot % CHECKPOINT_DICE
        while base not in self._checkpoints:
            base -= CHECKPOINT_DICE
        self._random.setstate(self._checkpoints[base])  # type: ignore[arg-type]
        self._count = base
        while self._count < snapshot:
            self._one()


CHECKPOINT_DICE = 64
""":class:`SeededDice` keeps the generator's state every this many dice, for :meth:`SeededDice.restore`."""


class ScriptedDice:
    """Dice that return prepared results in order; for tests and worked examples.

    D6 and Skid Dice have separate queues. Asking for more than is left raises
    :class:`DiceExhausted`; :attr:`exhausted` says whether every scripted die was used.
    """

    def __init__(self, d6: Iterable[int] = (), skid: Iterable[SkidFace | str] = ()) -> None:
        self._d6 = [_checked_d6(v) for v in d6]
        self._skid = [v if isinstance(v, SkidFace) else SkidFace(v) for v in skid]

    @property
    def exhausted(self) -> bool:
        """True once every scripted die has been rolled."""
        return not self._d6 and not self._skid

    def roll_d6(self, n: int) -> tuple[int, ...]:
        """The next ``n`` scripted D6."""
        return tuple(_take(self._d6, _count(n), "D6"))

    def roll_skid(self, n: int) -> tuple[SkidFace, ...]:
        """The next ``n`` scripted Skid Dice."""
        return tuple(_take(self._skid, _count(n), "Skid Dice"))

    def snapshot(self) -> object:
        """The dice left in both queues."""
        return (tuple(self._d6), tuple(self._skid))

    def restore(self, snapshot: object) -> None:
        """Put the queues back as they were at ``snapshot``."""
        d6: tuple[int, ...]
        skid: tuple[SkidFace, ...]
        d6, skid = snapshot  # type: ignore[misc]
        self._d6, self._skid = list(d6), list(skid)


def _count(n: int) -> int:
    if n < 0:
        raise ValueError(f"cannot roll a negative number of dice ({n})")
    return n


def _checked_d6(value: int) -> int:
    if not 1 <= value <= 6:
        raise ValueError(f"a scripted D6 must be 1-6, not {value}")
    return value


def _take(queue: list[_T], n: int, what: str) -> list[_T]:
    if n > len(queue):
        raise DiceExhausted(f"asked for {n} {what}, only {len(queue)} scripted")
    taken = queue[:n]
    del queue[:n]
    return taken
