"""The generic history of values: undo and redo move a cursor, push forgets the redo branch."""

import pytest

from simulator.history import History


def test_undo_redo_push() -> None:
    h = History(0)
    for i in range(1, 6):
        h.push(i)
    assert h.current == 5 and h.position == 5 and len(h) == 6
    assert h.undo() == 4 and h.undo() == 3
    assert h.can_redo and h.redo() == 4
    h.push(10)
    assert h.entries == (0, 1, 2, 3, 4, 10)
    assert not h.can_redo


def test_start_is_never_undone() -> None:
    h = History("s")
    assert not h.can_undo
    with pytest.raises(IndexError):
        h.undo()
    with pytest.raises(IndexError):
        h.redo()


def test_seek_keeps_redo_branch() -> None:
    h = History(0)
    for i in range(1, 4):
        h.push(i)
    assert h.seek(1) == 1 and h.last_position == 3 and h.can_redo
    assert h.seek(3) == 3
    with pytest.raises(IndexError):
        h.seek(4)
