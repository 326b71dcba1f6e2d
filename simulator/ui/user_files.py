"""Where the window keeps the user's files: the data folder, its sub-folders, recent files, settings.

Everything the window writes on its own (autosaves, a shipped scenario's
editable copy, the default name of a new save) goes into the user's data
folder from :mod:`platformdirs` (``~/.local/share/gaslands`` on Linux,
``%LOCALAPPDATA%\\gaslands`` on Windows, ``~/Library/Application Support/gaslands``
on macOS), never the working folder. ``GASLANDS_DATA_DIR`` replaces it (the
tests use a temporary folder).

One sub-folder per kind of file (:data:`KINDS`): ``games/``, ``scenarios/``,
``rulings/``, ``teams/``, ``tracks/``; the file dialogs open there. The recent
files (:class:`Recent`) and the window's settings (:class:`Settings`: UI scale,
sound, camera, colour-blind palette) are small JSON files beside them, written
atomically; a damaged one is ignored (the defaults come back), never fatal.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Literal

import platformdirs

from simulator.atomic import write_text_atomic

Kind = Literal["game", "scenario", "rulings", "team", "track"]
"""The kinds of file the window opens and saves."""

KINDS: dict[Kind, tuple[str, tuple[str, ...], str]] = {
    "game": ("games", (".json",), "a saved game"),
    "scenario": ("scenarios", (".toml",), "a scenario"),
    "rulings": ("rulings", (".toml",), "a rulings file"),
    "team": ("teams", (".toml",), "a team"),
    "track": ("tracks", (".toml",), "a track"),
}
"""Each kind's folder under the data folder, its file suffixes, and its name in a sentence."""

RECENT_MAX = 8
"""How many recent files the File menu lists."""


def data_dir() -> Path:
    """The user's data folder for the program (``GASLANDS_DATA_DIR`` if set); not created here."""
    override = os.environ.get("GASLANDS_DATA_DIR")
    return Path(override) if override else platformdirs.user_data_path("gaslands", appauthor=False)


def folder(kind: Kind) -> Path:
    """The folder for files of ``kind`` under :func:`data_dir`, created if missing (``OSError`` if it cannot be)."""
    path = data_dir() / KINDS[kind][0]
    path.mkdir(parents=True, exist_ok=True)
    return path


def autosave_path() -> Path:
    """Where a game in progress is autosaved after every decision: ``autosave.json`` in the data folder."""
    return data_dir() / "autosave.json"


def suggested_name(kind: Kind, stem: str) -> Path:
    """A new file of ``kind`` named after ``stem`` and the time (``death_race-20250101-2015.json``) in its folder."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in stem.lower()).strip("_") or kind
    return folder(kind) / f"{safe}-{time.strftime('%Y%m%d-%H%M')}{KINDS[kind][1][0]}"


def is_shipped(path: Path) -> bool:
    """Whether ``path`` is one of the scenarios shipped with the program (never written to)."""
    from simulator.scenario.loader import bundled_scenario

    try:
        return Path(path).resolve().parent == bundled_scenario().parent.resolve()
    except OSError:
        return False


def editable_copy(source: Path) -> Path:
    """The file the track editor opens for a scenario read from ``source``: the file itself, or for a shipped
    scenario (or one not read from a file) ``tracks/NAME_edited.toml`` in the data folder, written from it the
    first time (the shipped file is never changed)."""
    source = Path(source)
    if source.suffix.lower() == ".toml" and source.is_file() and not is_shipped(source):
        return source
    copy = folder("track") / f"{source.stem or 'track'}_edited.toml"
    if not copy.exists() and source.is_file():
        write_text_atomic(copy, source.read_text(encoding="utf-8"))
    return copy


@dataclass
class Recent:
    """The files opened or saved lately, newest first (``recent.json`` in the data folder)."""

    entries: list[tuple[Kind, Path]]

    @classmethod
    def load(cls) -> Recent:
        """The list as saved (files that no longer exist are left out; a damaged list reads as empty)."""
        try:
            raw = json.loads((data_dir() / "recent.json").read_text(encoding="utf-8"))
            entries = [(str(k), Path(str(p))) for k, p in raw if k in KINDS]
        except (OSError, ValueError, TypeError):
            return cls([])
        return cls([(k, p) for k, p in entries if p.is_file()])  # type: ignore[misc]

    def add(self, kind: Kind, path: Path) -> None:
        """Put ``path`` first (once) and write the list; a list that cannot be written is kept in memory."""
        path = Path(path).resolve()
        self.entries = [(kind, path), *((k, p) for k, p in self.entries if p != path)][:RECENT_MAX]
        try:
            data_dir().mkdir(parents=True, exist_ok=True)
            write_text_atomic(data_dir() / "recent.json",
                              json.dumps([[k, str(p)] for k, p in self.entries], indent=1))
        except OSError:
            pass  # the menu still lists them this session


@dataclass
class Settings:
    """The window's settings, kept between sessions (``settings.json`` in the data folder)."""

    ui_scale: float = 1.0
    """Text and controls larger (1.25, 1.5) for high-DPI screens, or smaller (0.85)."""
    muted: bool = False
    follow_camera: bool = True
    colour_blind: bool = False

    @classmethod
    def load(cls) -> Settings:
        """The settings as saved, each bad value replaced by its default."""
        out = cls()
        try:
            raw = json.loads((data_dir() / "settings.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return out
        if not isinstance(raw, dict):
            return out
        for f in fields(cls):
            value = raw.get(f.name)
            if isinstance(getattr(out, f.name), bool) and isinstance(value, bool):
                setattr(out, f.name, value)
            elif f.name == "ui_scale" and isinstance(value, int | float) and not isinstance(value, bool):
                out.ui_scale = min(max(float(value), 0.75), 2.0)
        return out

    def save(self) -> None:
        """Write the settings (quietly kept in memory if the folder cannot be written)."""
        try:
            data_dir().mkdir(parents=True, exist_ok=True)
            write_text_atomic(data_dir() / "settings.json", json.dumps(asdict(self), indent=1))
        except OSError:
            pass
