"""Small values shared by both Deadlands board models.

A :class:`Verdict` is the answer to "may I do this?": ``legal`` and a
``reason`` a player can read, naming the rule section it comes from. The
models never raise for an illegal *choice* when asked a question; they raise
:class:`simulator.errors.IllegalChoice` only when told to *do* something
illegal.
"""

from __future__ import annotations

from typing import NamedTuple

from simulator.errors import IllegalChoice


class Verdict(NamedTuple):
    """Whether a choice is allowed, and why (the rule section in brackets)."""

    legal: bool
    reason: str

    def require(self) -> None:
        """Raise :class:`IllegalChoice` with the reason when not legal; return ``None`` otherwise."""
        if not self.legal:
            raise IllegalChoice(self.reason)


def allowed(reason: str) -> Verdict:
    """Return a legal :class:`Verdict` with ``reason``."""
    return Verdict(True, reason)


def refused(reason: str) -> Verdict:
    """Return an illegal :class:`Verdict` with ``reason``."""
    return Verdict(False, reason)
