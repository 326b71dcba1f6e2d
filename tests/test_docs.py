"""The user's documents stand on their own: README.md and docs/*.md cite only files inside the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OUTSIDE = re.compile(r"\.\./shared/\S*\.md|\b(?:DESIGN|GEOMETRY|RULINGS|TEAMS|STYLE|BOARDS)\.md\b")
DOC_PATH = re.compile(r"\bdocs/[\w./-]+\.md\b")


def test_docs_cite_no_document_outside_the_repository() -> None:
    found = {f"{doc.name}: {m.group(0)}" for doc in DOCS for m in OUTSIDE.finditer(doc.read_text(encoding="utf-8"))}
    assert not found


def test_every_docs_path_named_exists() -> None:
    named = {m.group(0) for doc in DOCS for m in DOC_PATH.finditer(doc.read_text(encoding="utf-8"))}
    assert "docs/teams.md" in named and "docs/geometry.md" in named
    assert not {p for p in named if not (ROOT / p).is_file()}


def test_teams_doc_gives_the_check_answer_and_exit_codes() -> None:
    text = (ROOT / "docs" / "teams.md").read_text(encoding="utf-8")
    for key in ('"legal"', '"cans"', '"limit"', '"vehicles"', '"slots_used"', '"problems"', '"page"'):
        assert key in text
    assert re.search(r"\| 0 \|.*legal", text) and re.search(r"\| 1 \|", text) and re.search(r"\| 2 \|", text)
    assert "[docs/teams.md](docs/teams.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
