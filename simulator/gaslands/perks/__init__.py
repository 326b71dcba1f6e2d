"""Every perk (p.104-115), sponsor rule (p.91-103) and upgrade (p.83-85) in play.

The engine calls this package at named points (:mod:`~simulator.gaslands.perks.core`):

- ``step`` / ``answer``: the hooks of the activation sequence and the answers to the
  perks' questions (``DeclarePrompt`` with ``perk`` set; bots answer through
  :mod:`~simulator.gaslands.perks.bot`);
- ``observe``: every event, for the perks that react (:mod:`~simulator.gaslands.perks.reactions`);
- the modifiers of :mod:`~simulator.gaslands.perks.modifiers` (templates, Skid Dice,
  Spins, Wipeouts, Explosions) and :mod:`~simulator.gaslands.perks.combat`
  (Collisions and shooting).

:data:`NOT_YET_IN_PLAY` lists the perks that a team may buy but the engine does
not play yet (every other perk is a rule of the engine with a test);
docs/rulings.md names the readings chosen where the rulebook leaves a point
open.
"""

from __future__ import annotations

from simulator.gaslands.perks import combat, more, reactions, sponsors, teleporter, turn
from simulator.gaslands.perks.core import (
    HOOKS,
    PerkAsk,
    PerkStep,
    answer,
    ask,
    handlers,
    has,
    in_play,
    observe,
    step,
)
from simulator.gaslands.perks.modifiers import (
    after_shifts,
    driving,
    explosion,
    flip_gear,
    ignores_distraction,
    manoeuvres,
    many_drops,
    max_skid_dice,
    nitro_hazards,
    push_again,
    spin_range,
    template_hazards,
    wipes_out,
)
from simulator.gaslands.perks.sponsors import respawn_rights
from simulator.gaslands.perks.turn import end_of_gear_phase

NOT_YET_IN_PLAY: tuple[str, ...] = ()
"""Perks bought but not played by the engine yet (they do nothing in a game); none now (Powerslide plays its
straight Slide templates only, docs/rulings.md)."""

SPONSOR_RULES_NOT_YET: tuple[str, ...] = ()
"""Sponsored Perks not played by the engine yet (p.99, p.101)."""

UPGRADES_NOT_YET: tuple[str, ...] = ("improvised_sludge_thrower",)
"""Upgrades not played by the engine yet (p.84-85); their build rules and costs are checked."""

__all__ = [
    "HOOKS", "NOT_YET_IN_PLAY", "SPONSOR_RULES_NOT_YET", "UPGRADES_NOT_YET", "PerkAsk", "PerkStep", "after_shifts", "answer", "ask", "combat", "more", "sponsors", "driving", "end_of_gear_phase", "explosion",
    "flip_gear", "handlers", "has", "ignores_distraction", "in_play", "manoeuvres", "many_drops", "max_skid_dice",
    "nitro_hazards", "observe", "push_again", "reactions", "respawn_rights", "spin_range", "step", "teleporter", "template_hazards", "turn",
    "wipes_out",
]
