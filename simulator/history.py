"""A history of values: undo and redo in constant time, shared by every board the program plays.

A :class:`History` holds a list of entries (each normally a frozen state, or a
record that carries one) and a cursor. :meth:`History.push` adds an entry after
the cursor and forgets whatever could have been redone; :meth:`History.undo`
and :meth:`History.redo` only move the cursor, so taking back decision 500
costs what taking back decision 10 does (DESIGN.md: undo is a pop).

The Gaslands game (:mod:`simulator.gaslands.history`), the Slaughter Gulch
board and the Doomtown street all keep their play in one of these.

>>> h = History("start")
>>> h.push("a"); h.push("b")
>>> h.undo(), h.current, h.can_redo
('a', 'a', True)
>>> h.push("c"); h.entries, h.can_redo
(('start', 'a', 'c'), False)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

E = TypeVar("E")


class History(Generic[E]):
    """Entries ``0 .. cursor`` are the past and the present; entries after the cursor can be redone.

    The first entry (the start) is never undone. Entries are stored as given:
    pass immutable values.
    """

    def __init__(self, start: E) -> None:
        self._entries: list[E] = [start]
        self._cursor = 0

    @property
    def current(self) -> E:
        """The present entry."""
        return self._entries[self._cursor]

    @property
    def start(self) -> E:
        """The first entry (what a replay starts from)."""
        return self._entries[0]

    @property
    def entries(self) -> tuple[E, ...]:
        """The start, every entry after it up to the present (redoable entries left out)."""
        return tuple(self._entries[: self._cursor + 1])

    @property
    def position(self) -> int:
        """How many entries follow the start up to the present (0 at the start)."""
        return self._cursor

    def __len__(self) -> int:
        return self._cursor + 1

    def __iter__(self) -> Iterator[E]:
        return iter(self.entries)

    @property
    def can_undo(self) -> bool:
        """Whether there is an entry before the present one."""
        return self._cursor > 0

    @property
    def can_redo(self) -> bool:
        """Whether an undone entry can be brought back."""
        return self._cursor + 1 < len(self._entries)

    def push(self, entry: E) -> None:
        """Make ``entry`` the present; whatever could be redone is forgotten."""
        del self._entries[self._cursor + 1:]
        self._entries.append(entry)
        self._cursor += 1

    def undo(self) -> E:
        """Step back one entry and return the new present; ``IndexError`` at the start."""
        if not self.can_undo:
            raise IndexError("nothing to undo")
        self._cursor -= 1
        return self.current

    def redo(self) -> E:
        """Step forward one undone entry and return it; ``IndexError`` if none."""
        if not self.can_redo:
            raise IndexError("nothing to redo")
        self._cursor += 1
        return self.current

    def seek(self, position: int) -> E:
        """Move the present to ``position`` (0 .. the last entry, redoable ones included); returns it."""
        if not 0 <= position < len(self._entries):
            raise IndexError(f"position {position} is outside 0..{len(self._entries) - 1}")
        self._cursor = position
        return self.current

    def copy(self) -> History[E]:
        """An independent history with the same entries and present (the entries themselves are shared)."""
        other: History[E] = History(self._entries[0])
        other._entries = list(self._entries)
        other._cursor = self._cursor
        return other

    @property
    def last_position(self) -> int:
        """The position of the last entry, redoable ones included."""
        return len(self._entries) - 1
