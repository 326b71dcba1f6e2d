"""The Experimental Teleporter upgrade (Mishkin only, p.83-84).

At the start of its activation the vehicle may use it (a yes/no
:class:`~simulator.gaslands.prompts.DeclarePrompt`): it gains
:data:`TELEPORT_HAZARDS` Hazard Tokens and rolls one Skid Die (from the game's
dice). Unless the die shows a Hazard, its controller places it within Medium
range; on a Hazard the next player clockwise (the controller's left; in a team
game the next rival, as for a Wipeout's pivot, p.123) places it within Long
range. Either way the facing stays, the new place touches no obstruction or
terrain (:meth:`~simulator.gaslands.referee.Referee.place` with ``clear``), and
nothing collides. The placement is a :class:`~simulator.gaslands.prompts.TeleportPrompt`
answered by a :class:`~simulator.gaslands.decisions.Teleport`; then the
activation goes on with the normal Movement Step from there.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from simulator.errors import IllegalChoice
from simulator.frozen import replace
from simulator.gaslands.decisions import Teleport
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.perks.core import PerkAsk, Question, active_vehicle, answers, change, has, hook, tell
from simulator.gaslands.prompts import TeleportPrompt
from simulator.geometry.pose import Pose

if TYPE_CHECKING:
    from simulator.gaslands.engine import _Run

KEY = "experimental_teleporter"
TELEPORT_HAZARDS = 3
"""Hazard Tokens the vehicle gains when it uses the Teleporter (p.84)."""

RULE = "Experimental Teleporter, p.83-84"


@hook("start_of_activation", KEY)
def _offer(run: _Run) -> Question | None:
    v = active_vehicle(run)
    if v is None or not has(run.state, v.id, KEY):
        return None
    return Question(v.player, v.id, KEY,
                    f"{v.label}: use the Experimental Teleporter ({TELEPORT_HAZARDS} Hazard Tokens and a Skid Die, "
                    "then a jump within Medium range; on a Hazard a rival places it within Long range)?",
                    ("no", "yes"), ("No", f"Teleport: gain {TELEPORT_HAZARDS} Hazard Tokens, roll a Skid Die"))


@answers(KEY)
def _answer(run: _Run, ask: PerkAsk, choice: str) -> None:
    if choice != "yes":
        run._resume(ask.then)
        return
    v = change(run, run.state.vehicle(ask.vehicle), KEY, f"powers up: +{TELEPORT_HAZARDS} Hazard Tokens",
               hazards=TELEPORT_HAZARDS)
    (face,) = run.dice.roll_skid(1)
    hazard = face is SkidFace.HAZARD
    band = "long" if hazard else "medium"
    placer = run._next_opponent(v.player) if hazard else v.player
    who = run.player_name(placer)
    tell(run, v, KEY, f"rolls {face.value} on the Skid Die: {who} places it within {band.title()} range")
    run._on_declared = PerkAsk(KEY, v.id, ask.then, (band,))
    run.prompt = TeleportPrompt(placer, v.id, v.pose, band, run.referee.range_mm(band))


def place(run: _Run, d: Teleport) -> None:
    """Put the teleporting vehicle at ``d`` (facing unchanged) and go on with its activation.

    Raises:
        IllegalChoice: the coordinates are not finite numbers, or the place is out of range, off the table,
            or touches an obstruction or terrain (the reason and p.83-84). Where it stands now is always
            accepted (our ruling, docs/rulings.md: with no legal place it stays).
    """
    k = run._on_declared
    p = run.prompt
    assert isinstance(k, PerkAsk) and isinstance(p, TeleportPrompt)
    if not (math.isfinite(d.x_mm) and math.isfinite(d.y_mm)):
        raise IllegalChoice("a placement needs finite coordinates", RULE)
    v = run.state.vehicle(k.vehicle)
    pose = Pose(d.x_mm, d.y_mm, v.pose.heading_deg)
    stays = (d.x_mm, d.y_mm) == (p.before.x_mm, p.before.y_mm)
    reason = "" if stays else run.referee.place(run.state, v.id, pose, p.before, "", band=p.band, clear=True)
    if reason:
        raise IllegalChoice(f"{v.label} cannot be teleported there: {reason}", RULE)
    run._on_declared = None
    run._put(replace(v, pose=pose))
    moved = math.hypot(pose.x_mm - p.before.x_mm, pose.y_mm - p.before.y_mm)
    tell(run, v, KEY, f"teleports {moved:.0f} mm to ({pose.x_mm:.0f}, {pose.y_mm:.0f}), same facing",
         run.player_name(p.player))
    run._resume(k.then)


__all__ = ["KEY", "TELEPORT_HAZARDS", "place"]
