"""Opening the window on a campaign file (``gaslands campaign play FILE``, ``gaslands play FILE``)."""

from __future__ import annotations

from pathlib import Path


def run_campaign_window(path: Path) -> None:
    """Open the window on a campaign file and run until it is closed (its pre-game screen first)."""
    from simulator.ui.app import App
    from simulator.ui.user_files import Settings
    from simulator.ui.window import _loop, _screen, _size

    screen = _screen()
    settings = Settings.load()
    _loop(App.for_campaign(Path(path), _size(screen, settings), settings=settings), screen)
