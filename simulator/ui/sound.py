"""The window's sounds: engine, skid, crash, gunfire and dice, synthesised with NumPy, played from the engine's events.

Nothing is read from a file and nothing is downloaded: each cue is made when the
window first needs it (:func:`synthesise`, a few milliseconds) from a fixed seed,
so every start sounds the same:

* ``engine``: a 0.55 s rev, a sawtooth at 55 to 95 Hz with its second harmonic, soft-clipped;
* ``skid``: a 0.5 s tyre squeal, a wavering 1.1 kHz tone over band-limited noise;
* ``crash``: a 0.7 s low thump (60 Hz falling) under a burst of noise with a fast decay;
* ``gunfire``: four 30 ms cracks of noise, 75 ms apart (a burst of machine-gun fire);
* ``dice``: six short clicks spread over 0.35 s (dice rattling in a cup and landing).

Which cue plays comes from the typed events of a decision (:func:`cue_for`), never
from the log's text: ``SkidDiceRolled`` and other rolls rattle the dice, a ``Moved``
drives (the engine) or slides and spins (the skid), a ``Collided`` or a wreck
crashes, an ``Attacked`` fires. One decision plays each of its cues once, in the
order they happened: :data:`GAP_S` apart, or after a drive or a skid when the car
arrives on screen (:data:`~simulator.ui.animation.MOVE_S`), so a crash is heard as the
cars meet (:meth:`Sound.update` plays them as time passes).

Muting (Ctrl+M, or the Settings menu) is :attr:`Settings.muted`, saved with the other
settings. Where there is no audio device (``SDL_AUDIODRIVER=dummy`` plays into nothing;
a failed mixer start leaves the window silent) nothing is printed: the audio
library's own complaints (ALSA's, on Linux) are kept off the terminal while the
mixer starts, and no error ever reaches the window.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Literal

import numpy as np
import pygame

from simulator.gaslands.events import (
    Attacked,
    CatchUpRolled,
    Collided,
    Crunched,
    DropAttacked,
    ExplosionHit,
    Flipped,
    GameEvent,
    Moved,
    NitroFired,
    PushedIt,
    ScenarioAttack,
    SkidDiceRolled,
    Tumbled,
    VolatileRolled,
    Wrecked,
)
from simulator.ui.animation import MOVE_S
from simulator.ui.user_files import Settings

Cue = Literal["engine", "skid", "crash", "gunfire", "dice"]
"""The sounds the window makes."""

CUES: tuple[Cue, ...] = ("engine", "skid", "crash", "gunfire", "dice")

GAP_S = 0.22
"""Seconds between the cues of one decision."""

VOLUME = 0.5
"""Every cue's volume (0..1)."""

SEED = 1729
"""The noise generator's seed: the same sounds on every start."""

SKID_MOVES = frozenset({"spins", "skids to a halt", "is turned"})
"""``Moved.how`` values that screech rather than drive."""


def cue_for(event: GameEvent) -> Cue | None:
    """The sound of one engine event (None for a silent one: votes, gates, tokens...)."""
    match event:
        case SkidDiceRolled() | PushedIt() | VolatileRolled() | CatchUpRolled():
            return "dice"
        case Moved(how="flips over"):
            return "crash"
        case Moved(slide=True) | Moved(how="spins" | "skids to a halt" | "is turned"):
            return "skid"
        case Moved() | NitroFired():
            return "engine"
        case Collided() | Wrecked() | ExplosionHit() | Tumbled() | Flipped() | Crunched():
            return "crash"
        case Attacked() | DropAttacked() | ScenarioAttack():
            return "gunfire"
        case _:
            return None


def cues_for(events: Sequence[GameEvent]) -> list[Cue]:
    """The cues of one decision's events: each once, in the order they first happened."""
    out: list[Cue] = []
    for event in events:
        cue = cue_for(event)
        if cue is not None and cue not in out:
            out.append(cue)
    return out


# ---------------------------------------------------------------------------- synthesis


def _envelope(n: int, attack_s: float, decay_per_s: float, rate_hz: int) -> np.ndarray:
    t = np.arange(n) / rate_hz
    return np.minimum(t / max(attack_s, 1e-4), 1.0) * np.exp(-decay_per_s * t)


def _noise(rng: np.random.Generator, n: int, smooth: int = 1) -> np.ndarray:
    white = rng.uniform(-1.0, 1.0, n)
    if smooth <= 1:
        return white
    smoothed: np.ndarray = np.convolve(white, np.ones(smooth) / smooth, mode="same") * np.sqrt(smooth)
    return smoothed


@cache
def synthesise(cue: Cue, rate_hz: int = 22050) -> np.ndarray:
    """The cue as mono samples in -1..1 (float32) at ``rate_hz``; the same array for the same arguments."""
    rng = np.random.default_rng(SEED + CUES.index(cue))
    if cue == "engine":
        n = int(0.55 * rate_hz)
        t = np.arange(n) / rate_hz
        freq = 55.0 + 40.0 * np.sin(np.pi * t / t[-1]) ** 2
        phase = np.cumsum(freq) / rate_hz
        wave = 2.0 * (phase % 1.0) - 1.0 + 0.5 * np.sin(4 * np.pi * phase) + 0.15 * _noise(rng, n, 8)
        out = np.tanh(1.8 * wave) * _envelope(n, 0.05, 1.5, rate_hz)
    elif cue == "skid":
        n = int(0.5 * rate_hz)
        t = np.arange(n) / rate_hz
        freq = 1100.0 + 90.0 * np.sin(2 * np.pi * 13.0 * t)
        tone = np.sin(2 * np.pi * np.cumsum(freq) / rate_hz)
        out = (0.55 * tone + 0.45 * _noise(rng, n, 3)) * _envelope(n, 0.03, 3.0, rate_hz)
    elif cue == "crash":
        n = int(0.7 * rate_hz)
        t = np.arange(n) / rate_hz
        thump = np.sin(2 * np.pi * np.cumsum(60.0 * np.exp(-3.0 * t)) / rate_hz) * np.exp(-6.0 * t)
        out = 0.8 * thump + _noise(rng, n, 2) * _envelope(n, 0.002, 7.0, rate_hz)
    elif cue == "gunfire":
        n = int(0.35 * rate_hz)
        out = np.zeros(n)
        shot = _noise(rng, int(0.03 * rate_hz)) * _envelope(int(0.03 * rate_hz), 0.001, 120.0, rate_hz)
        for k in range(4):
            start = int(k * 0.075 * rate_hz)
            out[start:start + shot.size] += shot[:n - start]
    else:  # dice
        n = int(0.35 * rate_hz)
        out = np.zeros(n)
        click = int(0.008 * rate_hz)
        for at_s in (0.0, 0.05, 0.11, 0.16, 0.24, 0.3):
            start = int(at_s * rate_hz)
            tick = np.diff(_noise(rng, click + 1)) * _envelope(click, 0.0005, 500.0, rate_hz)
            out[start:start + click] += 0.7 * tick[:n - start]
    peak = float(np.max(np.abs(out))) or 1.0
    samples: np.ndarray = (out / peak).astype(np.float32)
    return samples


def _samples(cue: Cue, rate_hz: int, size: int, channels: int) -> bytes | None:
    """The cue as raw samples in the mixer's format (None for a format we do not write)."""
    mono = synthesise(cue, rate_hz) * VOLUME
    frames = np.repeat(mono[:, None], channels, axis=1)
    if size == -16:
        return (frames * 32767).astype("<i2").tobytes()
    if size == 32:
        return frames.astype("<f4").tobytes()
    return None


# ---------------------------------------------------------------------------- the mixer


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Send the process's stderr (file descriptor 2, where C libraries such as ALSA print) to the null device."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def start_mixer() -> tuple[int, int, int] | None:
    """Start pygame's mixer quietly if it is not running: its (frequency Hz, sample size, channels), or None
    when there is no audio device (nothing printed, nothing raised)."""
    if pygame.mixer.get_init() is None:
        try:
            with _quiet_stderr():
                pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
        except (pygame.error, OSError, NotImplementedError):
            return None
    return pygame.mixer.get_init()


class Sound:
    """The window's sounds (see the module docstring): give it each decision's events, and the time as it passes.

    The mixer starts the first time a sound is wanted (never while muted); if it cannot,
    :attr:`available` turns False and the window stays silent.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.available: bool | None = None
        """True once the mixer has started, False if it could not (no device), None before the first try."""
        self.played: deque[Cue] = deque(maxlen=32)
        """The cues started lately, oldest first (what the status line and the tests read)."""
        self._sounds: dict[Cue, pygame.mixer.Sound] = {}
        self._queue: list[tuple[float, Cue]] = []
        self._clock_s = 0.0

    @property
    def muted(self) -> bool:
        """Whether the sound is off (the saved setting)."""
        return self.settings.muted

    def _ready(self) -> bool:
        if self.available is None:
            fmt = start_mixer()
            self.available = False
            if fmt is not None:
                rate, size, channels = fmt
                try:
                    for cue in CUES:
                        raw = _samples(cue, rate, size, channels)
                        if raw is not None:
                            self._sounds[cue] = pygame.mixer.Sound(buffer=raw)
                    self.available = bool(self._sounds)
                except pygame.error:
                    self.available = False
        return bool(self.available)

    def prepare(self) -> bool:
        """Start the mixer and make the sounds now (the window does before its first frame, so the first sound
        does not stall a frame); nothing while muted. Whether sound is available."""
        return not self.muted and self._ready()

    def play_events(self, events: Sequence[GameEvent]) -> list[Cue]:
        """Queue the cues of one decision's ``events`` (nothing when muted); the cues queued."""
        if self.muted:
            return []
        cues = cues_for(events)
        at = max([self._clock_s, *(t + GAP_S for t, _ in self._queue)])
        for cue in cues:
            self._queue.append((at, cue))
            at += MOVE_S if cue in ("engine", "skid") else GAP_S
        self.update(0.0)
        return cues

    def play(self, cue: Cue) -> bool:
        """Play ``cue`` now; False when muted or without a device (never an error)."""
        if self.muted or not self._ready() or cue not in self._sounds:
            return False
        try:
            self._sounds[cue].play()
        except pygame.error:  # the mixer was closed under us (pygame.quit)
            self.available = False
            return False
        self.played.append(cue)
        return True

    def update(self, dt: float) -> None:
        """Let ``dt`` seconds pass, playing the queued cues that are due."""
        self._clock_s += dt
        due = [cue for at, cue in self._queue if at <= self._clock_s]
        self._queue = [(at, cue) for at, cue in self._queue if at > self._clock_s]
        for cue in due:
            self.play(cue)

    def set_muted(self, muted: bool) -> None:
        """Turn the sound off (stopping anything playing) or on again; kept in the settings file."""
        self.settings.muted = muted
        self.settings.save()
        if muted:
            self._queue.clear()
            if self.available:
                with contextlib.suppress(pygame.error):
                    pygame.mixer.stop()

    def describe(self) -> str:
        """The state in a few words for the status line: ``sound on``, ``sound off`` or ``no sound device``."""
        if self.muted:
            return "sound off (Ctrl+M)"
        return "no sound device" if self.available is False else "sound on"
