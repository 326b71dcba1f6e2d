"""Every worked ruling: ../shared/cases/ (the team's) and tests/cases/ (the project's own).

Each NAME.toml runs through ``gaslands rule`` itself (the command's JSON on stdout, parsed
again, so the output is strict JSON) and must match NAME.expected.json (shared/cases/README.md).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from casecheck import case_pairs, check_case

from simulator.cli import main


def run_rulings(case: Path) -> list[dict[str, object]]:
    """``gaslands rule CASE`` in-process: its stdout, parsed as strict JSON."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["rule", str(case)]) == 0
    results: list[dict[str, object]] = json.loads(out.getvalue(), parse_constant=_not_json)
    return results


def _not_json(name: str) -> None:
    raise AssertionError(f"{name} is not JSON")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "cases"
OWN = REPO / "tests" / "cases"

SHARED_CASES = case_pairs(SHARED)
OWN_CASES = case_pairs(OWN) + case_pairs(OWN / "boards")


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/cases is not beside this checkout")
def test_shared_cases_are_found() -> None:
    assert len(SHARED_CASES) >= 4


@pytest.mark.parametrize("case", SHARED_CASES, ids=lambda p: f"shared/{p.stem}")
def test_shared_case(case: Path) -> None:
    problems = check_case(case, run_rulings(case))
    assert not problems, "\n".join(problems)


def test_own_cases_are_found() -> None:
    assert len(OWN_CASES) >= 1


@pytest.mark.parametrize("case", OWN_CASES, ids=lambda p: p.stem)
def test_own_case(case: Path) -> None:
    problems = check_case(case, run_rulings(case))
    assert not problems, "\n".join(problems)
