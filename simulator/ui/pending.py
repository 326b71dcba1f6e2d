"""A template on a car: the one type the window uses from the tray to the move (p.22-26, p.39).

Every mode puts a template on a car the same way (drag it from the tray, or
press 1-9), mirrors it (Tab), turns it round (V), and confirms it (Enter):
the free table drives it, the rulings mode explains it, the game sends it as
a :class:`~simulator.gaslands.decisions.ChooseTemplate` decision.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from simulator.gaslands.decisions import ChooseTemplate
from simulator.gaslands.referee import MovePlan
from simulator.geometry.placement import Move


@dataclass(frozen=True)
class Pending:
    """A template attached to a vehicle, not yet confirmed."""

    vehicle_id: str
    move: Move

    def mirrored(self) -> Pending:
        """The other hand of a turning template (straights have none)."""
        d = self.move.direction
        if d is None:
            return self
        return replace(self, move=replace(self.move, direction="left" if d == "right" else "right"))

    def with_move(self, move: Move) -> Pending:
        """The same car with ``move`` (Reverse, Slide or Spin changed)."""
        return replace(self, move=move)

    def plan(self) -> MovePlan:
        """The move as the rules engine's referee resolves it."""
        m = self.move
        return MovePlan(m.template, m.direction, m.reverse, m.slide, m.slide_facing)

    def decision(self) -> ChooseTemplate:
        """The move as a game decision: template, direction and reverse (Slides and Spins come from dice, p.24)."""
        return ChooseTemplate(self.move.template, self.move.direction, self.move.reverse)

    def title(self, label: str) -> str:
        """``Gentle left in reverse``: the template's ``label`` with its direction and reverse."""
        m = self.move
        return label + (f" {m.direction}" if m.direction else "") + (" in reverse" if m.reverse else "")


@dataclass
class TemplateDrag:
    """A template being dragged from the tray (right click or Tab mirrors it on the way)."""

    template: str
    pos: tuple[int, int]
    mirrored: bool = False
