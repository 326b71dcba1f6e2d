"""Writing files for the user: atomically, only where asked, never through a link, nothing else touched.

Used for every file the program writes for the user: saves and autosaves,
rulings files, SVG sheets and tiles, rendered pictures (DESIGN.md, Errors:
nothing the user made is lost).

- :func:`write_text_atomic` / :func:`write_atomic_with`: a temporary file in
  the same folder, then ``os.replace``; a crash leaves the old file or the new
  one, never half. Temporary files an interrupted write left behind (a kill -9)
  are removed by the next write of the same file.
- :func:`check_output_file`: ``-o FILE`` is refused, with a named error, when
  it is a folder, a symbolic link, a special file, an existing file of another
  kind, or in a folder that does not exist.
- :class:`ExportFolder`: ``-o DIR`` for commands that write many files. The
  folder holds a list of the files the command wrote there
  (:data:`MANIFEST`); it writes and removes only those, and refuses a folder
  that holds anything else.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from simulator.errors import InputFileError, Problem

STALE_TEMP_SECONDS = 60.0
"""A temporary file of an atomic write older than this was left by an interrupted write."""

MANIFEST = ".gaslands-export.json"
"""The list of files an export wrote into its folder (JSON: ``{"kind": ..., "files": [...]}``)."""


def _output_error(path: str | Path, reason: str) -> InputFileError:
    return InputFileError(str(path), [Problem("-o", reason)])


def remove_stale_temps(path: str | Path, older_than_s: float = STALE_TEMP_SECONDS) -> list[Path]:
    """Remove ``.NAME.*.tmp`` files beside ``path`` older than ``older_than_s`` seconds (left by an
    atomic write of ``path`` that was killed); returns those removed. Never raises."""
    path = Path(path)
    removed = []
    pattern = re.compile(r"\." + re.escape(path.name) + r"\.\w+\.tmp(\.\w+)?")
    now = time.time()
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return []
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > older_than_s:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def write_atomic_with(path: str | Path, write: Callable[[Path], None], extension: str = "",
                      durable: bool = True) -> None:
    """Have ``write(temporary_path)`` create the file, then move it onto ``path`` atomically.

    The temporary file is ``.NAME.RANDOM.tmp`` in the same folder, plus
    ``extension`` when the writer needs one (``".png"`` for pygame). ``path`` itself is replaced: a
    symbolic link there is replaced, its target never written. The file gets
    the usual permissions (0666 less the umask). The folder must exist. Raises
    what ``write`` or the file system raises; the old file is then untouched and
    no temporary file is left behind. ``durable=False`` skips the ``fsync`` (the write is still atomic
    against a crash of the program, but a power cut may lose it): for files rewritten many times a second.
    """
    path = Path(path)
    remove_stale_temps(path)
    umask = os.umask(0)
    os.umask(umask)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp" + extension, dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        if durable:
            with open(tmp, "rb") as fh:
                os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | Path, text: str, durable: bool = True) -> None:
    """Write UTF-8 ``text`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    The file gets the usual permissions (0666 less the umask), not the 0600 of a
    temporary file. The folder must exist. Raises ``OSError`` (the old file is
    then untouched and no temporary file is left behind). Temporary files of
    earlier writes of ``path`` that were interrupted are removed. ``durable``: as
    for :func:`write_atomic_with`.
    """

    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)

    write_atomic_with(path, write, durable=durable)


def check_output_file(path: str | Path, suffix: str, signature: bytes | None = None) -> Path:
    """Check ``-o FILE`` before anything is drawn: it must end with ``suffix``, be in an existing folder,
    and be either new or a regular file starting with ``signature`` (a file of the same kind, which
    is replaced). A folder, a symbolic link, a special file, or a file of another kind is refused.

    Returns the path; raises :class:`InputFileError` naming the path, ``-o`` and the reason.
    """
    path = Path(path)
    if not path.name.lower().endswith(suffix):
        raise _output_error(path, f"name the file *{suffix}")
    if path.is_symlink():
        raise _output_error(path, "is a symbolic link; give the path of a file, not of a link")
    if path.exists():
        if path.is_dir():
            raise _output_error(path, f"is a folder; give a file name ending {suffix}")
        if not path.is_file():
            raise _output_error(path, "is not a regular file")
        if signature is not None:
            try:
                with open(path, "rb") as fh:
                    head = fh.read(len(signature))
            except OSError as exc:
                raise _output_error(path, f"cannot be read ({exc.strerror or exc})") from None
            if head != signature:
                raise _output_error(path, f"exists and is not a {suffix} file written by this program's kind; "
                                          "not overwritten")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise _output_error(path, f"the folder {str(parent)!r} does not exist")
    return path


class ExportFolder:
    """A folder an export command writes many files into, touching only files it wrote (see module doc).

    ``kind`` names the command (``"templates"``, ``"track"``); ``ours`` says
    whether a file name is one the command writes; ``signatures``: text one of
    which every such file holds in its first 2 KB (files written before the
    manifest existed are recognised by it).
    """

    def __init__(self, folder: str | Path, kind: str, ours: re.Pattern[str], *signatures: str) -> None:
        self.folder = Path(folder)
        self.kind = kind
        self.ours = ours
        self.signatures = tuple(s.encode("utf-8") for s in signatures)
        self.owned: set[str] = set()

    def prepare(self) -> None:
        """Check the folder (creating it if it is missing and its parent exists) and learn which files in it
        this command wrote. Raises :class:`InputFileError` naming the folder and the reason; nothing is
        written or removed then."""
        folder = self.folder
        if folder.is_symlink() and not folder.is_dir():
            raise _output_error(folder, "is a symbolic link that leads to no folder")
        if folder.exists() and not folder.is_dir():
            raise _output_error(folder, "is a file, not a folder; name a new or empty folder")
        if not folder.exists():
            parent = folder.parent if str(folder.parent) else Path(".")
            if not parent.is_dir():
                raise _output_error(folder, f"the folder {str(parent)!r} does not exist")
            try:
                folder.mkdir()
            except OSError as exc:
                raise _output_error(folder, f"cannot be made ({exc.strerror or exc})") from None
            return
        listed = self._manifest()
        strangers = []
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            name = entry.name
            if name == MANIFEST or self._temp_of_ours(name):
                continue
            if entry.is_file(follow_symlinks=False) and self.ours.fullmatch(name) and (
                    name in listed or self._signed(Path(entry.path))):
                self.owned.add(name)
            else:
                strangers.append(name)
        if strangers:
            more = f" and {len(strangers) - 1} more" if len(strangers) > 1 else ""
            raise _output_error(folder, f"holds files this command did not write ({strangers[0]!r}{more}); "
                                        f"name a new or empty folder, or one that only holds an earlier "
                                        f"{self.kind} export")

    def _temp_of_ours(self, name: str) -> bool:
        m = re.fullmatch(r"\.(.+)\.\w+\.tmp", name)
        return bool(m and (self.ours.fullmatch(m.group(1)) or m.group(1) == MANIFEST))

    def _manifest(self) -> set[str]:
        path = self.folder / MANIFEST
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return set()
        if not isinstance(data, dict) or data.get("kind") != self.kind or not isinstance(data.get("files"), list):
            return set()
        return {f for f in data["files"] if isinstance(f, str)}

    def _signed(self, path: Path) -> bool:
        try:
            with open(path, "rb") as fh:
                head = fh.read(2048)
        except OSError:
            return False
        return any(s in head for s in self.signatures)

    def finish(self, written: Iterable[str | Path]) -> list[Path]:
        """Record ``written`` (file names in the folder) as this command's files, and remove the files
        it wrote before that are not among them (and temporary files interrupted writes left). Returns
        the removed paths."""
        names = sorted({Path(w).name for w in written})
        write_text_atomic(self.folder / MANIFEST, json.dumps({"kind": self.kind, "files": names}, indent=1) + "\n")
        removed = []
        for name in sorted(self.owned - set(names)):
            path = self.folder / name
            path.unlink(missing_ok=True)
            removed.append(path)
        for name in names:
            removed += remove_stale_temps(self.folder / name)
        return removed
