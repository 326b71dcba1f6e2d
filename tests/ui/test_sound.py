"""Sound: cues from the engine's typed events, the mute key, and silence without a device (issue 15, item 7)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pygame
import pytest
from conftest import SIZE
from test_game_window import _first_activation_by_events, _game_app, _seed_with_shift_and_other
from ui_events import post_key, pump

from simulator.gaslands.events import Attacked, Collided, Moved, SkidDiceRolled, VotesGained
from simulator.geometry.pose import Pose
from simulator.ui import sound
from simulator.ui.app import App
from simulator.ui.help import SHELL_HELP
from simulator.ui.user_files import Settings, data_dir

P = Pose(0.0, 0.0, 0.0)


def _moved(**kw: object) -> Moved:
    return Moved(vehicle="a", name="A", how=str(kw.pop("how", "drives")), ref="Movement Step, p.22", start=P,
                 final=P, **kw)  # type: ignore[arg-type]


def test_each_event_type_has_its_cue() -> None:
    assert sound.cue_for(SkidDiceRolled("a", "A", ())) == "dice"
    assert sound.cue_for(_moved()) == "engine"
    assert sound.cue_for(_moved(slide=True)) == "skid"
    assert sound.cue_for(_moved(how="spins")) == "skid"
    assert sound.cue_for(_moved(how="flips over")) == "crash"
    assert sound.cue_for(VotesGained(0, "Red", 1, "a wreck")) is None
    collided = Collided.__new__(Collided)
    attacked = Attacked.__new__(Attacked)
    assert sound.cue_for(collided) == "crash"
    assert sound.cue_for(attacked) == "gunfire"
    # one decision: each cue once, in the order they first happened
    assert sound.cues_for([SkidDiceRolled("a", "A", ()), _moved(), collided, _moved(), attacked]) == [
        "dice", "engine", "crash", "gunfire"]


@pytest.mark.parametrize("cue", sound.CUES)
def test_synthesised_cues_are_short_loud_enough_and_repeatable(cue: sound.Cue) -> None:
    a = sound.synthesise(cue, 22050)
    assert 0.2 <= a.size / 22050 <= 0.8
    assert float(np.max(np.abs(a))) == pytest.approx(1.0, abs=1e-6)
    assert float(np.sqrt(np.mean(a ** 2))) > 0.05  # not silence
    sound.synthesise.cache_clear()
    assert np.array_equal(a, sound.synthesise(cue, 22050))  # the same sound every start


def test_a_decision_in_the_window_plays_its_sounds(tmp_path: Path) -> None:
    seed, vid, die = _seed_with_shift_and_other()
    app = _game_app(tmp_path, seed)
    app.settings.muted = False
    _first_activation_by_events(app, vid, die)
    for _ in range(90):
        app.update(1 / 60)
    assert app.sound.available  # the dummy driver plays into nothing
    assert list(app.sound.played) == ["dice", "engine"]  # the Skid Dice, then the move


def test_ctrl_m_mutes_saves_the_setting_and_silences_the_game(tmp_path: Path) -> None:
    seed, vid, die = _seed_with_shift_and_other()
    app = _game_app(tmp_path, seed)
    app.settings.muted = False
    post_key(pygame.K_m, pygame.KMOD_LCTRL)
    pump(app)
    assert app.settings.muted
    assert json.loads((data_dir() / "settings.json").read_text())["muted"] is True
    assert "Sound off" in app.status  # the shell took Ctrl+M (M alone mirrors a template)
    _first_activation_by_events(app, vid, die)
    for _ in range(90):
        app.update(1 / 60)
    assert not app.sound.played
    post_key(pygame.K_m, pygame.KMOD_LCTRL)
    pump(app)
    assert not app.settings.muted and not Settings.load().muted
    assert ("Ctrl+M", SHELL_HELP[[k for k, _ in SHELL_HELP].index("Ctrl+M")][1]) in SHELL_HELP


def test_no_audio_device_is_silent_without_errors(monkeypatch: pytest.MonkeyPatch,
                                                  capfd: pytest.CaptureFixture[str]) -> None:
    def no_device(*args: object, **kw: object) -> None:
        raise pygame.error("ALSA: Couldn't open audio device: No such file or directory")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    s = sound.Sound(Settings(muted=False))
    assert s.play_events([SkidDiceRolled("a", "A", ())]) == ["dice"]
    s.update(1.0)
    assert s.available is False and not s.played
    assert s.describe() == "no sound device"
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_mixer_start_keeps_the_audio_librarys_complaints_off_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                                                          capfd: pytest.CaptureFixture[str]) -> None:
    import os

    def noisy(*args: object, **kw: object) -> None:
        os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
        raise pygame.error("ALSA: Couldn't open audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", noisy)
    assert sound.start_mixer() is None
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"  # stderr is back once the mixer has tried


def test_the_free_table_window_makes_no_sound_and_opens_muted_if_saved(app: App) -> None:
    assert not app.sound.played
    s = Settings(muted=True)
    window = App(app.mode.scenario, SIZE, settings=s)
    assert window.sound.muted and window.sound.play("crash") is False


def test_a_crash_is_heard_when_the_car_arrives_not_as_it_sets_off() -> None:
    from simulator.ui.animation import MOVE_S

    s = sound.Sound(Settings(muted=False))
    assert s.play_events([_moved(), Collided.__new__(Collided)]) == ["engine", "crash"]
    assert list(s.played) == ["engine"]
    s.update(MOVE_S - 0.05)
    assert list(s.played) == ["engine"]
    s.update(0.1)
    assert list(s.played) == ["engine", "crash"]


def test_prepare_starts_the_sound_before_the_first_frame_unless_muted() -> None:
    assert sound.Sound(Settings(muted=True)).prepare() is False
    s = sound.Sound(Settings(muted=False))
    assert s.prepare() is True and s.available and not s.played


def test_a_real_audio_driver_without_a_device_prints_nothing() -> None:
    """SDL's ALSA driver on a machine without a sound card: before, ALSA filled the terminal with errors."""
    import os
    import subprocess
    import sys

    code = ("from simulator.ui.sound import Sound\nfrom simulator.ui.user_files import Settings\n"
            "s = Sound(Settings())\ns.prepare()\ns.play('crash')\nprint(s.describe())\n")
    env = {**os.environ, "SDL_AUDIODRIVER": "alsa", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0
    assert done.stderr == ""
    assert done.stdout.strip() in ("sound on", "no sound device")


def test_stepping_a_replay_forward_plays_each_steps_sounds(tmp_path: Path) -> None:
    from simulator.gaslands.bots import Bot
    from simulator.scenario import saves as saving
    from simulator.scenario.loader import bundled_scenario, load_scenario
    from simulator.scenario.setup import new_game

    g, bot = new_game(load_scenario(bundled_scenario()), 4), Bot()
    for _ in range(12):
        g.decide(bot.decide(g))
    saving.save(g, tmp_path / "race.json")
    pygame.event.clear()
    app = App.for_replay(saving.load(tmp_path / "race.json"), SIZE, tmp_path / "race.json",
                         settings=Settings(muted=False))
    assert app.replay is not None
    app.replay.seek(0)
    for _ in range(12):
        post_key(pygame.K_RIGHT)
        pump(app)
        for _ in range(60):
            app.update(1 / 60)
    assert {"dice", "engine"} <= set(app.sound.played)
    app.sound.played.clear()
    post_key(pygame.K_LEFT)  # stepping back is silent
    pump(app)
    for _ in range(60):
        app.update(1 / 60)
    assert not app.sound.played
