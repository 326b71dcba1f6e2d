"""Writing a rulings file over an existing one without losing what the person wrote in it (tomlkit).

The rulings view saves the situation on the table as a rulings file
(RULINGS.md). When the file already exists, the new situation is written *into*
the existing document instead of replacing it: every comment, blank line and
key order survives, values that did not change keep their spelling, and only
what changed is rewritten:

- top-level tables (``[table]``, ...) key by key; ``[scenario]`` (its name and
  description) is the person's and is kept as it is (or left out);
- arrays of tables (``[[vehicle]]``, ``[[obstacle]]``, ``[[query]]``, ...) item
  by item, matched by ``id``: a matched item is updated key by key (keys the
  new situation does not mention stay, but for a query, which the view writes
  whole; a key the file left out is not added while its value is still what
  leaving it out means), items no longer on the table are removed, new ones
  appended;
- a circle obstacle or surface that has not moved keeps its ``circle``; one
  that did becomes the ``polygon`` of where it now is.

A file whose ``[[vehicle]]`` and ``[[obstacle]]`` tables alternate is written
with the tables of each kind together (tomlkit keeps arrays of tables whole):
every comment is still there, beside the table it preceded or its neighbour.
A file that is not TOML is replaced by the situation. The file is written
atomically (:func:`simulator.atomic.write_text_atomic`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT, Table
from tomlkit.toml_document import TOMLDocument

from simulator.atomic import write_text_atomic
from simulator.geometry.templates import circle_polygon

_KEEP_AS_IS = ("scenario",)
"""Top-level tables that are the person's own description, kept untouched."""

_WHOLE = ("query",)
"""Arrays of tables whose items the view writes whole (keys it leaves out are removed)."""


def _plain(value: Any) -> Any:
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


def _same(a: Any, b: Any, tol: float = 1e-6) -> bool:
    """Equal values, numbers within ``tol`` (a value the view rounded is the value the file gave)."""
    a, b = _plain(a), _plain(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(float(a), float(b), rel_tol=0.0, abs_tol=tol)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y, tol) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k], tol) for k in a)
    return bool(a == b)


def _circle_unmoved(old: Mapping[str, Any], polygon: Any) -> bool:
    circle = _plain(old.get("circle"))
    if not isinstance(circle, list) or len(circle) != 3:
        return False
    ring = [list(p) for p in list(circle_polygon(*circle).exterior.coords)[:-1]]
    return _same(ring, _plain(polygon), tol=1e-3)


DEFAULTS: dict[str, dict[str, Any]] = {
    "table": {"template_set": "default"},
    "vehicle": {"gear": 1, "reversing": False, "name": "", "hazard_tokens": 0},
    "obstacle": {"weight": "heavyweight", "tall": False, "destructible": False, "label": ""},
    "gate": {"post_radius_mm": 10.0},
    "player": {"name": "", "colour": "#cc3333"},
}
"""What a file means by leaving a key out (scenario schema): such a value is not written into a file
that left it out."""


def _default(kind: str, old: Mapping[str, Any], key: str) -> Any:
    if kind == "vehicle" and key in ("length_mm", "width_mm"):
        from simulator.gaslands.tables import load_vehicle_types

        vtype = load_vehicle_types().get(str(_plain(old.get("type"))))
        return getattr(vtype, key, None) if vtype is not None else None
    return DEFAULTS.get(kind, {}).get(key, _MISSING)


_MISSING = object()


def _merge_item(old: Table, new: Mapping[str, Any], whole: bool, kind: str) -> None:
    for key, value in new.items():
        if key == "polygon" and "circle" in old:
            if _circle_unmoved(old, value):
                continue
            del old["circle"]
        if key in old:
            if not _same(old[key], value):
                old[key] = value
            continue
        if _same(_default(kind, old, key), value):
            continue  # left out, and still what leaving it out means
        keys = [k for k in old]
        if keys:
            old.value._insert_after(keys[-1], key, tomlkit.item(value))  # before the next table's comments
        else:
            old[key] = value
    if whole:
        for key in [k for k in old if k not in new and k != "id"]:
            del old[key]


def _merge_aot(old: AoT, new: AoT | list[Any], whole: bool, kind: str) -> None:
    new_items = [dict(item) for item in new]
    by_id = {str(_plain(item.get("id"))): item for item in new_items if "id" in item}
    kept_ids = set()
    for k in reversed(range(len(old))):
        item = old[k]
        key = str(_plain(item.get("id"))) if "id" in item else None
        if key is None or key not in by_id:
            del old[k]
            continue
        _merge_item(item, by_id[key], whole, kind)
        kept_ids.add(key)
    for fresh in new_items:
        if str(_plain(fresh.get("id"))) not in kept_ids:
            old.append(tomlkit.item(fresh))


def merge_document(original_text: str, new: TOMLDocument) -> str:
    """``original_text`` (a rulings or scenario file) with the situation ``new`` written into it, its
    comments and layout kept (see the module docstring). Returns the TOML text."""
    doc = tomlkit.parse(original_text)
    for key, value in new.items():
        if key in _KEEP_AS_IS:
            continue
        if key not in doc:
            doc[key] = value
            continue
        old = doc[key]
        if isinstance(value, AoT) and isinstance(old, AoT):
            _merge_aot(old, value, key in _WHOLE, key)
        elif isinstance(value, Table | dict) and isinstance(old, Table):
            _merge_item(old, value, whole=False, kind=key)
        elif not _same(old, value):
            doc[key] = value
    for key in [k for k in doc if k not in new and isinstance(doc[k], AoT)]:
        del doc[key]  # every piece of that kind left the table
    return tomlkit.dumps(doc)


def write_rulings_file(path: str | Path, new: TOMLDocument) -> None:
    """Write the situation ``new`` to ``path`` atomically: into the existing file's document when there is
    one (its comments kept, :func:`merge_document`), else as it is. Raises ``OSError``."""
    path = Path(path)
    text = tomlkit.dumps(new)
    if path.is_file():
        try:
            original = path.read_text(encoding="utf-8")
            text = merge_document(original, new)
        except (UnicodeDecodeError, tomlkit.exceptions.ParseError):
            pass  # not a TOML file we can keep anything of: the situation as it is
    write_text_atomic(path, text)
