"""A lock-free cached property for the geometry's immutable values.

:class:`functools.cached_property` takes a lock on every first read in Python 3.11 (the lock went in 3.12):
measurable when a move's placement, path and footprints are each read once per move, thousands of times a
game. The values here are pure functions of frozen objects, so two threads computing one at once would
store equal values: no lock is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class lazy_property(Generic[T]):  # noqa: N801 - reads as the decorator it replaces
    """Like :class:`functools.cached_property`: computed on first read, then stored in the instance's
    ``__dict__`` (which later reads find first), without a lock."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.attrname = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.attrname = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> lazy_property[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> T | lazy_property[T]:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.attrname] = value
        return value
