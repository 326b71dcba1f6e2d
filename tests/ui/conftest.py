"""Headless pygame for the front-end tests (STYLE.md 12): the dummy video and audio drivers."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from simulator.scenario.loader import load_scenario  # noqa: E402
from simulator.ui.app import App  # noqa: E402

SIZE = (1400, 900)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "street_race_v1.toml"
"""The Street Race layout these tests measure against (a frozen copy)."""


@pytest.fixture(scope="session", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(SIZE)
    yield
    pygame.quit()


@pytest.fixture
def app() -> App:
    """A fresh window state on the Street Race (p.61-62), in its frozen test layout."""
    pygame.event.clear()
    return App(load_scenario(FIXTURE), SIZE)
