"""Reading the files people give the program: checked before anything uses them.

Every file the program reads (scenarios, rulings files, boards, template sets,
saves) comes through here, so one place decides what a readable file is:

- a regular file (not a folder, a pipe or a device) of at most
  :data:`MAX_FILE_BYTES`;
- UTF-8 text (a leading byte-order mark is allowed and dropped); any other
  encoding is a named error giving the byte offset;
- TOML or JSON nested at most :data:`MAX_DEPTH` tables or arrays deep
  (the deepest real file is 5 levels); JSON without ``NaN`` or ``Infinity``
  (not JSON) and without numbers too large for a float.

Each refusal is an :class:`~simulator.errors.InputFileError` naming the file,
``(file)`` or ``(syntax)``, and the reason. No exception of the parsers
(``RecursionError``, ``UnicodeDecodeError``, ``ValueError``) escapes.

>>> parse_json('{"a": [1, 2]}', "x.json")
{'a': [1, 2]}
>>> try:
...     parse_json('{"seed": Infinity}', "x.json")
... except InputFileError as exc:
...     print(exc)
x.json: (syntax): Infinity is not a JSON number
"""

from __future__ import annotations

import json
import math
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from simulator.errors import InputFileError, Problem

MAX_FILE_BYTES = 32 * 1024 * 1024
"""The largest file read (32 MiB): a 10,000-obstacle table is about 2 MB, a long saved game under 1 MB."""

MAX_DEPTH = 32
"""The deepest nesting of tables and arrays accepted in a TOML or JSON file."""


def _fail(source: str, where: str, reason: str) -> InputFileError:
    return InputFileError(source, [Problem(where, reason)])


def read_bytes(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``; :class:`InputFileError` when it is missing, not a
    regular file, unreadable or larger than ``max_bytes``."""
    source = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise _fail(source, "(file)", "no such file") from None
    except OSError as exc:
        raise _fail(source, "(file)", f"cannot be read ({exc.strerror or exc})") from None
    except ValueError:  # a NUL in the name
        raise _fail(source, "(file)", "not a usable file name") from None
    if stat.S_ISDIR(info.st_mode):
        raise _fail(source, "(file)", "is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise _fail(source, "(file)", "is not a regular file")
    if info.st_size > max_bytes:
        raise _fail(source, "(file)", f"is {info.st_size:,} bytes; at most {max_bytes:,} are read")
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise _fail(source, "(file)", f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise _fail(source, "(file)", f"is larger than {max_bytes:,} bytes")
    return data


def decode_text(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text (a byte-order mark dropped); :class:`InputFileError` giving the byte offset
    of the first byte that is not UTF-8, and refusing NUL characters (no text file has one)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(source, "(file)", f"not UTF-8 text (byte {exc.start}: {exc.reason}); save it as UTF-8") from None
    if "\x00" in text:
        raise _fail(source, "(file)", f"not a text file (a NUL character at character {text.index(chr(0))})")
    return text.removeprefix("\ufeff")


def read_text(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """:func:`read_bytes` then :func:`decode_text`."""
    return decode_text(read_bytes(path, max_bytes), str(path))


def depth_of(value: object) -> int:
    """How deeply dicts and lists nest in ``value`` (0 for a scalar), without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                return deepest
        stack.extend((child, depth) for child in children if isinstance(child, dict | list | tuple))
    return deepest


def _check_depth(value: object, source: str) -> None:
    if depth_of(value) > MAX_DEPTH:
        raise _fail(source, "(file)", f"nested more than {MAX_DEPTH} levels deep")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a number")
    return value


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """Parse TOML text; syntax errors, nesting beyond :data:`MAX_DEPTH` and numbers too large become
    :class:`InputFileError`. (``inf`` and ``nan`` stay: the schemas name the key they are under.)"""
    if not isinstance(text, str):
        raise _fail(source, "(file)", "expected TOML text")
    try:
        doc = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise _fail(source, "(syntax)", str(exc)) from None
    except RecursionError:
        raise _fail(source, "(file)", f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise _fail(source, "(syntax)", f"a number too large to read ({exc})") from None
    _check_depth(doc, source)
    return doc


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, source: str) -> Any:
    """Parse JSON text strictly: no ``NaN``/``Infinity``, no numbers beyond a float, nesting at most
    :data:`MAX_DEPTH`; every refusal an :class:`InputFileError`."""
    try:
        doc = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise _fail(source, "(syntax)", str(exc)) from None
    except RecursionError:
        raise _fail(source, "(file)", f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise _fail(source, "(syntax)", str(exc)) from None
    _check_depth(doc, source)
    return doc


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read and parse a TOML file (:func:`read_text`, :func:`parse_toml`)."""
    return parse_toml(read_text(path), str(path))


def read_json(path: str | Path) -> Any:
    """Read and parse a JSON file (:func:`read_text`, :func:`parse_json`)."""
    return parse_json(read_text(path), str(path))
