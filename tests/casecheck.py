"""Comparing rulings results with ``NAME.expected.json`` (shared/cases/README.md).

Numbers match within 0.05 (mm or degrees; headings modulo 360), lists match
in order on the keys given, keys not listed are not checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TOLERANCE = 0.05


def mismatches(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Every difference between an expected fragment and the actual result, as readable lines."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{where}.{key}: missing")
            else:
                out += mismatches(value, actual[key], f"{where}.{key}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {expected!r}, got {actual!r}"]
        return [m for i, (e, a) in enumerate(zip(expected, actual, strict=True)) for m in mismatches(e, a, f"{where}[{i}]")]
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        return [] if expected == actual else [f"{where}: expected {expected!r}, got {actual!r}"]
    if isinstance(expected, int | float):
        if not isinstance(actual, int | float) or isinstance(actual, bool):
            return [f"{where}: expected {expected!r}, got {actual!r}"]
        diff = abs(float(expected) - float(actual))
        if where.endswith("heading_deg"):
            diff = min(diff % 360.0, 360.0 - diff % 360.0)
        return [] if diff <= TOLERANCE else [f"{where}: expected {expected}, got {actual}"]
    return [f"{where}: cannot compare {expected!r}"]


def case_pairs(folder: Path) -> list[Path]:
    """The ``NAME.toml`` files of ``folder`` that have a ``NAME.expected.json`` beside them."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.toml") if p.with_suffix(".expected.json").exists())


def check_case(toml_path: Path, results: list[dict[str, Any]]) -> list[str]:
    """Compare the results of one rulings file with its expected JSON."""
    expected = json.loads(toml_path.with_suffix(".expected.json").read_text())
    by_id = {str(r["id"]): r for r in results}
    out = []
    for qid, fragment in expected.items():
        if qid not in by_id:
            out.append(f"{qid}: no such query in the results")
        else:
            out += mismatches(fragment, by_id[qid], qid)
    return out
