"""Quicker frozen dataclasses for the engine's hot paths (issue #13 item 6: bot races per second).

A frozen dataclass's generated ``__init__`` sets every field with its own
``object.__setattr__`` call, and :func:`dataclasses.replace` reads the field
list, checks it and calls that ``__init__`` again: for a 27-field
:class:`~simulator.gaslands.state.VehicleState` a replace costs about 5 µs,
and a bot race makes thousands. This module builds the same values faster:

- :func:`fast_init`, a class decorator put above ``@dataclass(frozen=True)``,
  gives the class an ``__init__`` that fills the instance's ``__dict__`` in one
  go (same parameters, same defaults, same resulting value);
- :func:`replace`, a drop-in for :func:`dataclasses.replace` that copies the
  instance's ``__dict__`` and overwrites the changed fields.

Both fall back to the standard behaviour whenever a shortcut could differ:
a ``__post_init__``, a field with ``init=False``, a ``default_factory``, a
keyword-only field, ``__slots__``, or an instance whose ``__dict__`` holds more
than its fields (a :func:`functools.cached_property` value, which must not be
carried over to the changed copy). The values built are equal, field by field,
to those of the standard path (tests/test_frozen.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_SET = object.__setattr__
_NEW = object.__new__

_PLAIN: dict[type, frozenset[str] | None] = {}
"""Per class: its field names when :func:`replace` may copy ``__dict__``, else None."""


def _plain_fields(cls: type) -> frozenset[str] | None:
    """The field names of ``cls`` if every field is a plain init field and nothing runs after ``__init__``."""
    try:
        return _PLAIN[cls]
    except KeyError:
        pass
    names: frozenset[str] | None = None
    if dataclasses.is_dataclass(cls) and not hasattr(cls, "__post_init__") and "__slots__" not in cls.__dict__:
        fs = dataclasses.fields(cls)
        if all(f.init for f in fs) and not any(
                isinstance(f.type, dataclasses.InitVar) for f in fs):
            names = frozenset(f.name for f in fs)
    _PLAIN[cls] = names
    return names


def replace(obj: T, /, **changes: Any) -> T:
    """``obj`` with ``changes`` applied: the same value :func:`dataclasses.replace` gives, built faster.

    Raises ``TypeError`` for a name that is not a field (as :func:`dataclasses.replace` does, which is
    also what runs for any dataclass the shortcut does not suit).
    """
    cls = type(obj)
    names = _PLAIN.get(cls, ...)
    if names is ...:
        names = _plain_fields(cls)
    if names is not None:
        d = obj.__dict__
        if len(d) == len(names) and names.issuperset(changes):
            new = _NEW(cls)
            state = d.copy()
            state.update(changes)
            _SET(new, "__dict__", state)
            return new
    return dataclasses.replace(obj, **changes)  # type: ignore[type-var]


def fast_init(cls: type[T]) -> type[T]:
    """Give the frozen dataclass ``cls`` a quicker ``__init__`` with the same parameters and defaults.

    Put it above ``@dataclass(frozen=True)``. Raises ``TypeError`` for a class it does not suit (not a
    dataclass, a ``__post_init__``, a field with ``init=False``, ``kw_only`` or a ``default_factory``,
    or ``__slots__``): those keep the standard ``__init__``, so say so at import time rather than build a
    different value.
    """
    if not dataclasses.is_dataclass(cls) or _plain_fields(cls) is None:
        raise TypeError(f"fast_init: {cls.__name__} is not a plain frozen dataclass")
    fs = dataclasses.fields(cls)
    if any(f.kw_only or f.default_factory is not dataclasses.MISSING for f in fs):
        raise TypeError(f"fast_init: {cls.__name__} has a keyword-only field or a default_factory")
    namespace: dict[str, Any] = {"_SET": _SET}
    params = []
    for f in fs:
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
    body = ", ".join(f"{f.name!r}: {f.name}" for f in fs)
    source = f"def __init__(self, {', '.join(params)}):\n    _SET(self, '__dict__', {{{body}}})\n"
    exec(source, namespace)  # noqa: S102 - the source is built from the dataclass's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
