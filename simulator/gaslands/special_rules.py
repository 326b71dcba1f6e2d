"""The special rules the data may name, each with its page: ``simulator/data/special_rules.toml``.

:func:`check_rule_names` is what the vehicle, weapon and upgrade tables call on their ``special_rules``:
a name that is not listed for that kind of row is an error naming the rule and the valid names, so a typo
in a data file fails at load instead of silently switching the rule off.

>>> known_rules()["Slip Away"].page
66
>>> check_rule_names(("Slip Away", "Roll Cage"), "vehicle")
('Slip Away', 'Roll Cage')
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Carrier = Literal["vehicle", "weapon", "upgrade"]


class SpecialRule(BaseModel):
    """One special rule: its page and what may carry it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    page: int = Field(gt=0)
    on: tuple[Carrier, ...]


class _Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    rules: dict[str, SpecialRule]


@cache
def known_rules() -> dict[str, SpecialRule]:
    """Every special rule by name (``"Slip Away"``)."""
    text = (files("simulator") / "data" / "special_rules.toml").read_text("utf-8")
    return _Table.model_validate(tomllib.loads(text)).rules


def check_rule_names(names: tuple[str, ...], carrier: Carrier) -> tuple[str, ...]:
    """``names`` unchanged if each is a special rule a ``carrier`` may have; ``ValueError`` naming the first
    that is not, with the valid names (pydantic reports it under the row's ``special_rules`` key)."""
    rules = known_rules()
    for name in names:
        rule = rules.get(name)
        if rule is None or carrier not in rule.on:
            valid = ", ".join(sorted(n for n, r in rules.items() if carrier in r.on))
            raise ValueError(f"unknown special rule {name!r} for a {carrier}; known: {valid}")
    return names
