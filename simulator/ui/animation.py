"""What moves and flashes on screen after a decision: cars driving their paths, badges, tumbling dice.

:meth:`Animator.play` reads what the engine says happened: every vehicle
whose pose changed between two states moves on screen, along the path of its
:class:`~simulator.gaslands.events.Moved` events when it drove (other changes
slide); the events' types put a badge over the cars they are about
(COLLISION, WIPEOUT, FLIPPED...); dice tumble when an event rolled some. The
game mode and the replay viewer both use it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from simulator.gaslands.events import (
    Attacked,
    Burned,
    Collided,
    CrossedFinish,
    Disqualified,
    Flipped,
    GameEvent,
    LostControl,
    Moved,
    PassedGates,
    WipedOut,
    Wrecked,
)
from simulator.gaslands.state import GameState
from simulator.geometry.pose import Pose

MOVE_S = 0.7
"""How long a car takes to drive its move on screen."""
ROLL_S = 0.45
"""Dice tumble this long on screen before showing their faces."""
FLASH_S = 3.5
"""How long a badge (WIPEOUT, FLIPPED, WRECKED...) stays over a vehicle."""
FADE_S = 1.0
"""A badge fades out over its last this many seconds."""
BADGE_RANK = ("GATE", "COLLISION", "ON FIRE", "LOST CONTROL", "WIPEOUT", "FLIPPED", "FINISH!", "OFF THE TABLE",
              "WRECKED", "BOOM")
"""When one decision gives a car several badges, the one latest here is kept (hit badges rank lowest)."""


def _lerp_pose(a: Pose, b: Pose, t: float) -> Pose:
    turn = math.remainder(b.heading_deg - a.heading_deg, 360.0)
    return Pose(a.x_mm + (b.x_mm - a.x_mm) * t, a.y_mm + (b.y_mm - a.y_mm) * t, (a.heading_deg + turn * t) % 360.0)


def near(a: Pose, b: Pose, tol_mm: float = 0.5) -> bool:
    """Whether two poses are the same to ``tol_mm`` and half a degree."""
    return math.dist((a.x_mm, a.y_mm), (b.x_mm, b.y_mm)) <= tol_mm and abs(
        math.remainder(a.heading_deg - b.heading_deg, 360.0)) <= 0.5


def _badge_rank(badge: str) -> int:
    return BADGE_RANK.index(badge) if badge in BADGE_RANK else -1


@dataclass
class Motion:
    """A vehicle moving on screen from one pose to another along sampled poses."""

    vehicle_id: str
    poses: list[Pose]
    duration: float = MOVE_S
    elapsed: float = 0.0
    bends: tuple[float, float] = (0.0, 0.0)
    """A War Rig's trailer bend (degrees) at the start and the end of the motion (p.118)."""

    def _t(self) -> float:
        t = min(max(self.elapsed / self.duration, 0.0), 1.0) if self.duration > 0 else 1.0
        return t * t * (3.0 - 2.0 * t)

    def bend(self) -> float:
        """The trailer's bend now, eased from the start's to the end's."""
        t = self._t()
        return self.bends[0] + (self.bends[1] - self.bends[0]) * t

    def pose(self) -> Pose:
        """The pose now (smoothstep along the samples)."""
        t = self._t()
        if len(self.poses) == 1:
            return self.poses[0]
        u = t * (len(self.poses) - 1)
        i = min(int(u), len(self.poses) - 2)
        return _lerp_pose(self.poses[i], self.poses[i + 1], u - i)

    @property
    def done(self) -> bool:
        """Whether it has arrived."""
        return self.elapsed >= self.duration


def badges_of(events: Sequence[GameEvent]) -> dict[str, str]:
    """One badge per vehicle for ``events``: the weightiest of what happened to it."""
    fresh: dict[str, str] = {}

    def put(vid: str, badge: str) -> None:
        old = fresh.get(vid)
        if old is None or _badge_rank(badge) >= _badge_rank(old):
            fresh[vid] = badge

    for e in events:
        match e:
            case Collided():
                for vid in e.vehicles:
                    put(vid, "COLLISION")
            case Attacked():
                put(e.vehicle, f"{e.hits} HIT{'' if e.hits == 1 else 'S'}, {e.damage} DAMAGE")
            case Flipped():
                put(e.vehicle, "FLIPPED")
            case WipedOut():
                put(e.vehicle, "WIPEOUT")
            case Wrecked():
                put(e.vehicle, "BOOM" if e.explodes else "WRECKED")
            case LostControl():
                put(e.vehicle, "LOST CONTROL")
            case Disqualified():
                put(e.vehicle, "OFF THE TABLE")
            case Burned():
                put(e.vehicle, "ON FIRE")
            case CrossedFinish() if e.wins:
                put(e.vehicle, "FINISH!")
            case PassedGates():
                put(e.vehicle, "GATE")
            case _:
                pass  # the other events change nothing drawn over a car
    return fresh


class Animator:
    """Motions, badges and tumbling dice on screen (see the module docstring)."""

    def __init__(self, enabled: bool = True, move_s: float = MOVE_S) -> None:
        self.enabled = enabled
        self.move_s = move_s
        self.motions: list[Motion] = []
        self.flashes: dict[str, tuple[str, float]] = {}
        self.roll_left = 0.0
        self._tumble = random.Random(0)

    def play(self, before: GameState, after: GameState, events: Sequence[GameEvent]) -> None:
        """Show the step from ``before`` to ``after`` that ``events`` describe."""
        self.flash(events)
        if not self.enabled:
            return
        self.motions = []
        paths: dict[str, list[Pose]] = {}
        for e in events:
            if isinstance(e, Moved):
                poses = e.path.sample(4.0) if e.path is not None else [e.start, e.final]
                paths[e.vehicle] = [*paths.get(e.vehicle, []), *poses]
        for old in before.vehicles:
            try:
                new = after.vehicle(old.id)
            except KeyError:
                continue
            if near(old.pose, new.pose, 1e-6):
                continue
            poses = paths.get(old.id) or [old.pose, new.pose]
            if not near(poses[-1], new.pose):
                poses = [*poses, new.pose]
            self.motions.append(Motion(old.id, poses, self.move_s, bends=(old.bend_deg, new.bend_deg)))
        if any(e.dice for e in events):
            self.roll_left = ROLL_S

    def flash(self, events: Sequence[GameEvent]) -> None:
        """Badges over the vehicles that something happened to (shown for :data:`FLASH_S`)."""
        for vid, badge in badges_of(events).items():
            self.flashes[vid] = (badge, FLASH_S)

    def clear(self) -> None:
        """Stop everything (after undo or load)."""
        self.motions, self.flashes, self.roll_left = [], {}, 0.0

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""
        for m in self.motions:
            m.elapsed += dt
        self.motions = [m for m in self.motions if not m.done]
        self.roll_left = max(0.0, self.roll_left - dt)
        self.flashes = {k: (w, t - dt) for k, (w, t) in self.flashes.items() if t - dt > 0}

    @property
    def busy(self) -> bool:
        """Whether a car is still driving on screen."""
        return bool(self.motions)

    def moving_pose(self, vehicle_id: str) -> Pose | None:
        """Where an animated vehicle is drawn now (None: at its pose)."""
        for m in self.motions:
            if m.vehicle_id == vehicle_id:
                return m.pose()
        return None

    def moving_bend(self, vehicle_id: str) -> float | None:
        """The trailer bend an animated War Rig is drawn with now (None: not moving)."""
        for m in self.motions:
            if m.vehicle_id == vehicle_id:
                return m.bend()
        return None

    def flash_alpha(self, vehicle_id: str) -> int:
        """How opaque a car's badge is now (0-255): full, then fading out over the last :data:`FADE_S`."""
        left = self.flashes.get(vehicle_id, ("", 0.0))[1]
        return max(0, min(255, round(255 * left / FADE_S)))

    def tumbling_face(self) -> int:
        """A random face shown while the dice tumble (not the game's dice)."""
        return self._tumble.randint(1, 6)
