"""Atomic file writing: a crash or a full disk leaves either the old file or the new one, never half.

Used for every file the program writes for the user: saves and autosaves,
rulings files, SVG sheets (DESIGN.md, Errors: nothing the user made is lost).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    The file gets the usual permissions (0666 less the umask), not the 0600 of a
    temporary file. The folder must exist. Raises ``OSError`` (the old file is
    then untouched and no temporary file is left behind).
    """
    path = Path(path)
    umask = os.umask(0)
    os.umask(umask)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
