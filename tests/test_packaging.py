"""Every Python package under ``simulator/`` is listed in ``pyproject.toml``.

setuptools is given an explicit package list (two packages live outside ``simulator/``), so a new
sub-package that is not added there works in the editable checkout but is missing from a plain
``pip install .`` (CI's smoke test once failed this way on ``simulator.gaslands.perks``).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "simulator").rglob("__init__.py")
    }
    assert found, "no packages found under simulator/"
    missing = sorted(found - listed)
    assert not missing, f"add these packages to [tool.setuptools] packages in pyproject.toml: {missing}"
