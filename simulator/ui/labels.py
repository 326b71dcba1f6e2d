"""Labels that never overlap: each placed where it covers no other label, no car and no line end.

The table's words (cars' names with their Gear and Hazard Tokens, terrain,
gates, the Start and Finish lines, grid slots, Final Positions) are not drawn
where they are asked for but collected on a :class:`LabelBoard` with the
point they name. The board also knows what must stay visible: the cars'
footprints and the ends of lines and gates (:meth:`LabelBoard.avoid`).
:meth:`LabelBoard.place` then puts the labels one by one, most important
first, at the first free spot: on the point (or just beside it for a car),
then further out in eight directions; a label moved away from its point gets
a thin leader line back to it. Nothing here knows millimetres: anchors and
rects are screen pixels (the view converts before).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from simulator.ui import draw

LEADER = (235, 235, 235)
DIRECTIONS = ((0.0, -1.0), (0.0, 1.0), (1.0, 0.0), (-1.0, 0.0), (0.8, -0.8), (-0.8, -0.8), (0.8, 0.8), (-0.8, 0.8))
"""Above, below, right, left, then the diagonals (screen directions)."""
RINGS = 7
PAD = 2


@dataclass
class Label:
    """One label: its words, the screen point it names, how it looks, and where it may go first."""

    text: str
    anchor: tuple[float, float]
    size: int = 15
    colour: draw.Colour = draw.TEXT
    backing: draw.Colour | None = (20, 20, 20, 170)
    reach_px: float = 0.0
    """How far from the anchor the label goes first (half a car: beside it, not on it); 0 puts it on the point."""
    priority: int = 0
    """Higher is placed first (and so stays nearest its point)."""
    prefer: tuple[float, float] | None = None
    """The direction tried first (e.g. behind a car); default above."""
    rect: pygame.Rect = field(default_factory=pygame.Rect)
    """Where it went (after :meth:`LabelBoard.place`)."""
    hidden: bool = False
    """Its point is out of view (the table zoomed or panned away from it): not drawn, no leader line pinned to
    the edge (after :meth:`LabelBoard.place`)."""


class LabelBoard:
    """The labels of one frame of the table, and what they must not cover (see the module docstring)."""

    def __init__(self, bounds: pygame.Rect) -> None:
        self.bounds = pygame.Rect(bounds)
        self.labels: list[Label] = []
        self.keep_clear: list[pygame.Rect] = []
        self.placed = False

    def avoid(self, rect: pygame.Rect) -> None:
        """Something no label may cover (a car's footprint, a line end)."""
        self.keep_clear.append(pygame.Rect(rect))

    def avoid_point(self, pos: tuple[float, float], radius_px: float = 5.0) -> None:
        """A small square round ``pos`` (a line end, a gate post) that no label may cover."""
        r = int(math.ceil(radius_px))
        self.avoid(pygame.Rect(int(pos[0]) - r, int(pos[1]) - r, 2 * r + 1, 2 * r + 1))

    def add(self, label: Label) -> Label:
        """Ask for ``label`` (placed later, by :meth:`place`)."""
        self.labels.append(label)
        self.placed = False
        return label

    # ---------------------------------------------------------------- placing
    def _candidates(self, lab: Label, w: int, h: int) -> list[pygame.Rect]:
        ax, ay = lab.anchor
        out = []
        if lab.reach_px <= 0.0:
            out.append(pygame.Rect(round(ax - w / 2), round(ay - h / 2), w, h))
        order = list(DIRECTIONS)
        if lab.prefer is not None:
            order.insert(0, lab.prefer)
        for ring in range(RINGS):
            dist = lab.reach_px + 4.0 + ring * (h + 2)
            for dx, dy in order:
                norm = math.hypot(dx, dy) or 1.0
                ux, uy = dx / norm, dy / norm
                # the rect's nearest edge point sits at ``dist`` from the anchor in direction (ux, uy)
                cx = ax + ux * (dist + w / 2 * abs(ux))
                cy = ay + uy * (dist + h / 2 * abs(uy))
                out.append(pygame.Rect(round(cx - w / 2), round(cy - h / 2), w, h))
        return out

    def _free(self, rect: pygame.Rect, taken: list[pygame.Rect]) -> bool:
        if not self.bounds.contains(rect):
            return False
        return rect.collidelist(taken) < 0 and rect.collidelist(self.keep_clear) < 0

    def place(self) -> list[Label]:
        """Place every label (most important first); returns them with their rects."""
        taken: list[pygame.Rect] = []
        for lab in sorted(self.labels, key=lambda lab: -lab.priority):
            reach = round(2 * lab.reach_px)
            lab.hidden = not self.bounds.inflate(reach, reach).collidepoint(lab.anchor)
            if lab.hidden:
                lab.rect = pygame.Rect(0, 0, 0, 0)
                continue
            w, h = draw.font(lab.size).size(lab.text)
            w, h = w + 8 + 2 * PAD, h + 4 + 2 * PAD
            cands = self._candidates(lab, w, h)
            lab.rect = next((c for c in cands if self._free(c, taken)), None) or cands[0].clamp(self.bounds)
            taken.append(lab.rect)
        self.placed = True
        return self.labels

    def rects(self) -> list[pygame.Rect]:
        """Where the labels went (placing them first if needed), without their padding."""
        if not self.placed:
            self.place()
        return [lab.rect.inflate(-2 * PAD, -2 * PAD) for lab in self.labels if not lab.hidden]

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the labels where :meth:`place` put them, with leader lines for those moved off their point."""
        if not self.placed:
            self.place()
        for lab in self.labels:
            if lab.hidden:
                continue
            r = lab.rect.inflate(-2 * PAD, -2 * PAD)
            ax, ay = lab.anchor
            nx, ny = min(max(ax, r.left), r.right), min(max(ay, r.top), r.bottom)
            if math.hypot(nx - ax, ny - ay) > lab.reach_px + 8.0:
                pygame.draw.line(surface, LEADER, (ax, ay), (nx, ny), 1)
                pygame.draw.circle(surface, LEADER, (round(ax), round(ay)), 2)
            draw.text(surface, lab.text, r.center, lab.size, lab.colour, "center", backing=lab.backing)


def overlaps(rects: list[pygame.Rect]) -> list[tuple[int, int]]:
    """The pairs of ``rects`` that overlap (for tests and checks)."""
    return [(i, j) for i in range(len(rects)) for j in range(i + 1, len(rects)) if rects[i].colliderect(rects[j])]
