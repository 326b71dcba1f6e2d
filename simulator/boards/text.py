"""Text a player gives the boards (names, titles, notes): printable, because it is drawn and logged.

A NUL, a newline or a terminal escape in a name would crash the font renderer
or hide what the text says; such text is refused with a message naming the
character (pydantic reports it under the file's or save's key).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field

ID_PATTERN = r"^[A-Za-z0-9_-]+$"


def printable(text: str) -> str:
    """Return ``text``; raise ``ValueError`` naming the first control, format or unassigned character.

    >>> printable("Judge Gabriel")
    'Judge Gabriel'
    """
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")), None)
    if bad is not None:
        raise ValueError(f"contains the control character U+{ord(bad):04X}; write plain printable text")
    return text


def printable_first(value: Any) -> Any:
    """Check text for control characters before any other check, so the error names the character."""
    return printable(value) if isinstance(value, str) else value


#: Printable text of at most ``n`` characters (names, titles, notes).
Text = Annotated[str, Field(max_length=200), AfterValidator(printable)]
#: An id: ASCII letters, digits, ``-`` and ``_`` (a control character is named as such).
Id = Annotated[str, BeforeValidator(printable_first), Field(pattern=ID_PATTERN, max_length=80)]
#: Any key or location written in an action: printable, at most 80 characters.
Key = Annotated[str, BeforeValidator(printable_first), Field(min_length=1, max_length=80)]
