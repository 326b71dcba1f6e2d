"""The rulebook's numbers, read from ``simulator/data/rules.toml`` where each has its page.

The rule modules name their constants as before (``HIT_ON``, ``FLIP_HITS``...) and take the values from
here, so a number lives in one place, the data file, beside its page.

>>> RULES.dice.hit_on.value, RULES.dice.hit_on.page
(4, 30)
>>> RULES.weight_bonus.classes[1]
2
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

V = TypeVar("V")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Number(_Frozen, Generic[V]):
    """A number (or name) of the rulebook and its page."""

    value: V
    page: int = Field(gt=0)


class Dice(_Frozen):
    hit_on: Number[int]
    critical_on: Number[int]
    evade_on: Number[int]
    cover_penalty: Number[int]
    skid_faces: Number[tuple[str, str, str, str, str, str]]


class RoundNumbers(_Frozen):
    gear_phases: Number[int]


class SmashRow(_Frozen):
    """Smash Attack dice of one orientation: ``own_gear`` x own gear + ``other_gear`` x the other's, made
    positive when ``absolute`` (the Tailgate's difference)."""

    own_gear: int
    other_gear: int
    absolute: bool = False


class SmashDice(_Frozen):
    page: int
    head_on: SmashRow
    t_bone: SmashRow
    tailgate: SmashRow


class WeightBonus(_Frozen):
    page: int
    classes: dict[int, int]


class Rams(_Frozen):
    ram_dice: Number[int]
    exploding_ram_dice: Number[int]


class Explosions(_Frozen):
    page: int
    dice: dict[str, int]
    explodes_on: Number[int]


class Wipeout(_Frozen):
    hazards: Number[int]
    flip_hits: Number[int]
    flip_template: Number[str]


class Wrecks(_Frozen):
    skid_to_a_halt: Number[str]


class Surfaces(_Frozen):
    page: int
    hazards: dict[str, int]


class StartingGrid(_Frozen):
    finger_width_mm: Number[float]


class Special(_Frozen):
    airwolf_hazards: Number[int]
    airwolf_max_deg: Number[float]
    tanker_anchor_hazards: Number[int]
    articulated_turn_hazards: Number[int]
    jackknife_crunch_dice: Number[int]
    uppers_hazards: Number[int]
    downers_discard: Number[int]
    downers_crew: Number[int]
    nitro_template: Number[str]
    nitro_hazards: Number[int]
    glue_gears: Number[int]
    catch_up_target: Number[int]


class Terrain(_Frozen):
    jump_long_from_gear: Number[int]
    jump_hazards: Number[int]
    jump_votes: Number[int]
    tumble_template: Number[str]
    tumble_attack_dice: Number[int]
    tumble_hazards: Number[int]
    volatile_explodes_on: Number[int]


class RuleNumbers(_Frozen):
    """Everything in ``rules.toml``."""

    dice: Dice
    round: RoundNumbers
    smash_dice: SmashDice
    weight_bonus: WeightBonus
    rams: Rams
    explosions: Explosions
    wipeout: Wipeout
    wrecks: Wrecks
    surfaces: Surfaces
    starting_grid: StartingGrid
    special: Special
    terrain: Terrain


def load_rule_numbers() -> RuleNumbers:
    """Read and check ``simulator/data/rules.toml`` (a broken file is a pydantic error naming the key)."""
    text = (files("simulator") / "data" / "rules.toml").read_text("utf-8")
    return RuleNumbers.model_validate(tomllib.loads(text))


RULES = load_rule_numbers()
"""The rulebook's numbers, loaded once."""
