"""Named errors shared by every layer.

Every "no" the program gives has a name and a reason that a player can read:
bad input files raise :class:`InputFileError` listing each problem with the
file, the table/key path and what was expected; an illegal choice during play
raises :class:`IllegalChoice` naming the rule and its page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file.

    ``where`` is the table and key path, e.g. ``vehicle[2].heading_deg`` or
    ``query[q3].template``; ``reason`` says what was expected.
    """

    where: str
    reason: str

    def render(self, source: str) -> str:
        """Return ``"FILE: WHERE: REASON"``, the one-line form printed on stderr (a line break or other
        control character inside any part, say from a quoted bad value, is written escaped).

        >>> Problem("query[q1].kind", "no kind 'red\\n'").render("r.toml")
        "r.toml: query[q1].kind: no kind 'red\\\\n'"
        """
        return f"{_one_line(source)}: {_one_line(self.where)}: {_one_line(self.reason)}"


def _one_line(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


class SimulatorError(Exception):
    """Base class of every error this package raises on purpose."""


class InputFileError(SimulatorError):
    """A scenario, rulings, template-set or save file is invalid.

    ``source`` is the file name (or ``"<string>"``); ``problems`` lists every
    problem found, each naming its table and key. ``str(error)`` is one line
    per problem.
    """

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = list(problems)
        super().__init__("\n".join(p.render(source) for p in self.problems))


class IllegalChoice(SimulatorError):
    """A decision that the rules do not allow; ``rule`` names it with its page."""

    def __init__(self, reason: str, rule: str = "") -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)


def readable_reason(message: str) -> str:
    """A pydantic error message without the parts that only make sense to a programmer
    (``Value error, `` and ``or instance of SomeModel``)."""
    return re.sub(r" or instance of \w+", "", message.removeprefix("Value error, "))
