"""Test set-up: headless SDL for every front-end test, and the tests folder on sys.path."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The window's own files (autosaves, recent files, settings, edited copies) go to a fresh folder, never the
# user's data folder (simulator/ui/user_files.py).
os.environ["GASLANDS_DATA_DIR"] = tempfile.mkdtemp(prefix="gaslands-test-data-")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hypothesis import settings  # noqa: E402

# Property tests draw the same examples on every run (locally and in CI): a failure is reproducible and a
# green run is not luck. HYPOTHESIS_PROFILE=explore draws fresh examples when hunting for new failures.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
