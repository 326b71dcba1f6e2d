"""The track editor with real mouse and key events: a Death Race built from nothing, checked live, saved with
the designer's comments, undone and redone."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pygame
import pytest
from ui_events import drag, post_key, post_mouse, pump

from simulator.cli import main
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.track_doc import EMPTY_TRACK, TrackDoc
from simulator.ui.app import App
from simulator.ui.modes.editor import EditorMode

SIZE = (1400, 900)


def _editor(path: Path) -> tuple[App, EditorMode]:
    pygame.event.clear()
    app = App.for_editor(path, SIZE)
    assert isinstance(app.mode, EditorMode)
    return app, app.mode


def _click(app: App, x_mm: float, y_mm: float) -> None:
    pos = app.view.to_screen(x_mm, y_mm)
    post_mouse(pygame.MOUSEBUTTONDOWN, pos)
    post_mouse(pygame.MOUSEBUTTONUP, pos)
    pump(app)


def _type(app: App, text: str) -> None:
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(ch), mod=0, unicode=ch, scancode=0))
    post_key(pygame.K_RETURN)
    pump(app)


def test_a_death_race_built_from_nothing_with_live_checks_saved_with_comments(tmp_path: Path) -> None:
    path = tmp_path / "my_track.toml"
    path.write_text("# My club's track: keep this comment\n" + EMPTY_TRACK, encoding="utf-8")
    app, ed = _editor(path)
    assert [f.message for f in ed.findings][0].startswith("0 gates; a Death Race needs at least 3")
    # three gates, clicked onto the table with the gate tool (key 2), turned with Q (15 degrees a press)
    post_key(pygame.K_2)
    pump(app)
    for x, y in ((600.0, 300.0), (1200.0, 600.0), (600.0, 900.0)):
        _click(app, x, y)
    assert [g["number"] for g in ed.doc.pieces("gate")] == [1, 2, 3]
    for _ in range(6):  # gate 3 now faces north (90 degrees)
        post_key(pygame.K_q)
    pump(app)
    assert ed.doc.heading(("gate", 2)) == pytest.approx(90.0, abs=0.01)
    long_mm = ed.doc.long_mm
    for g in ed.doc.pieces("gate"):  # posts exactly a Long Straight apart, whatever was done (p.124)
        (ax, ay), (bx, by) = g["post_a"], g["post_b"]
        assert abs(((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 - long_mm) <= 0.05
    # the live check finds legs with nothing on them, drawn where they are
    bare = [f for f in ed.findings if "no obstacle on this leg" in f.message]
    assert bare and all(f.shape is not None for f in bare)
    # obstacles: a rectangle (key 3) and a circle (key 4) on the legs, a polygon by clicks (key 5)
    post_key(pygame.K_3)
    pump(app)
    _click(app, 900.0, 450.0)
    post_key(pygame.K_w)  # heavyweight -> lightweight
    post_key(pygame.K_d)  # destructible
    pump(app)
    obstacle = ed.doc.pieces("obstacle")[0]
    assert obstacle["weight"] == "lightweight" and obstacle["destructible"] is True
    post_key(pygame.K_4)
    pump(app)
    _click(app, 900.0, 750.0)
    post_key(pygame.K_5)
    pump(app)
    for x, y in ((300.0, 560.0), (380.0, 560.0), (340.0, 640.0)):
        _click(app, x, y)
    post_key(pygame.K_RETURN)
    pump(app)
    assert len(ed.doc.pieces("obstacle")) == 3
    assert not [f for f in ed.findings if f.severity == "error"]
    # a ramp (key 7) with its entry edge turned (N)
    post_key(pygame.K_7)
    pump(app)
    _click(app, 1500.0, 300.0)
    post_key(pygame.K_n)
    pump(app)
    assert ed.doc.pieces("ramp")[0]["entry_edge"] == 1
    # select and drag the first gate 100 mm to the right with the mouse
    post_key(pygame.K_1)
    pump(app)
    start = app.view.to_screen(600.0, 300.0 + long_mm / 2.0)
    end = app.view.to_screen(700.0, 300.0 + long_mm / 2.0)
    drag(app, start, end)
    assert ed.doc.centre(("gate", 0)) == pytest.approx((700.0, 300.0), abs=0.6)
    # numeric entry: Enter opens the entry line, then x y heading and Enter
    post_key(pygame.K_RETURN)
    pump(app)
    assert ed.entry == ""
    _type(app, "650 320 45")
    assert ed.doc.centre(("gate", 0)) == pytest.approx((650.0, 320.0), abs=0.02)
    assert ed.doc.heading(("gate", 0)) == pytest.approx(45.0, abs=0.05)
    # undo the numeric entry, redo it
    post_key(pygame.K_z, pygame.KMOD_CTRL)
    pump(app)
    assert ed.doc.centre(("gate", 0)) == pytest.approx((700.0, 300.0), abs=0.6)
    post_key(pygame.K_y, pygame.KMOD_CTRL)
    pump(app)
    assert ed.doc.centre(("gate", 0)) == pytest.approx((650.0, 320.0), abs=0.02)
    # save: the comment survives, the file reads as a legal track
    post_key(pygame.K_s, pygame.KMOD_CTRL)
    pump(app)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# My club's track: keep this comment\n")
    assert "# Gates: two posts exactly a Long Straight apart" in text
    scenario = load_scenario(path)
    assert len(scenario.table.gates) == 3 and len(scenario.table.ramps) == 1
    assert not ed.unsaved
    surface = pygame.Surface(SIZE)
    app.draw(surface)  # the checks drawn on the table and listed in the panel


def test_an_invalid_change_keeps_the_last_valid_track_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    app, ed = _editor(path)  # a new file: the empty track
    post_key(pygame.K_2)
    pump(app)
    _click(app, 600.0, 300.0)
    _click(app, 1200.0, 600.0)
    post_key(pygame.K_LEFTBRACKET)  # gate 2 -> gate 1: used twice
    pump(app)
    assert any("already has number 1" in p for p in ed.problems)
    assert len(ed.scenario.table.gates) == 2  # the last valid track is drawn
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    post_key(pygame.K_z, pygame.KMOD_CTRL)
    pump(app)
    assert ed.problems == []


def test_the_editor_is_reachable_from_the_window_with_f4(tmp_path: Path) -> None:
    path = tmp_path / "fig8.toml"
    path.write_text(bundled_scenario("death_race_figure_eight.toml").read_text(encoding="utf-8"))
    pygame.event.clear()
    app = App.from_path(path, size=SIZE)
    post_key(pygame.K_F4)
    pump(app)
    assert isinstance(app.mode, EditorMode) and app.mode.path == path
    assert app.mode.findings == []
    post_key(pygame.K_F4)
    pump(app)
    assert app.mode is app.free


def test_edit_command_starts_from_an_example_layout_and_renders(tmp_path: Path) -> None:
    new = tmp_path / "new.toml"
    shot = tmp_path / "editor.png"
    assert main(["edit", str(new), "--from", "tear-drop", "--render", str(shot)]) == 0
    assert tomllib.loads(new.read_text())["scenario"]["name"] == "Tear-drop"
    assert shot.read_bytes()[:4] == b"\x89PNG"
    assert main(["edit", str(new), "--from", "loop"]) == 2  # never over an existing file


def test_track_doc_keeps_gates_a_long_straight_wide_through_any_turn() -> None:
    doc = TrackDoc(EMPTY_TRACK, "t.toml", 182.0).add_gate_here(500.0, 500.0, 0.0)
    for _ in range(37):
        doc = doc.rotate(("gate", 0), 7.3).move(("gate", 0), 0.37, -0.21)
    g = doc.pieces("gate")[0]
    (ax, ay), (bx, by) = g["post_a"], g["post_b"]
    assert abs(((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 - 182.0) <= 0.02
    assert doc.heading(("gate", 0)) == pytest.approx((37 * 7.3) % 360.0, abs=0.02)


def test_f4_on_a_shipped_scenario_edits_a_copy_in_the_data_folder(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("GASLANDS_DATA_DIR", str(tmp_path / "data"))
    copy = tmp_path / "data" / "tracks" / "death_race_edited.toml"
    shipped = bundled_scenario("death_race.toml")
    before = shipped.read_bytes()
    pygame.event.clear()
    app = App.from_path(shipped, size=SIZE)
    post_key(pygame.K_F4)
    pump(app)
    assert isinstance(app.mode, EditorMode) and app.mode.path == copy
    post_key(pygame.K_2)
    pump(app)
    _click(app, 900.0, 300.0)
    post_key(pygame.K_s, pygame.KMOD_CTRL)
    pump(app)
    assert shipped.read_bytes() == before
    assert len(load_scenario(copy).table.gates) == 7
    assert list(work.iterdir()) == []  # nothing written in the working folder


def test_numeric_entry_says_why_it_ignores_a_key_and_refuses_out_of_range_values(tmp_path: Path) -> None:
    """QA: letters were dropped without a word and a centre off the table or a size of 0 was taken (or silently
    ignored); now each is refused with the reason and nothing changes."""
    path = tmp_path / "t.toml"
    path.write_text(EMPTY_TRACK, encoding="utf-8")
    app, ed = _editor(path)
    post_key(pygame.K_2)
    pump(app)
    _click(app, 600.0, 300.0)
    post_key(pygame.K_1)
    pump(app)
    ed.selected = ("gate", 0)
    before = ed.doc.centre(("gate", 0))
    width, height = ed.doc.table_size()
    for typed, words in ((f"{width + 100:g} 300", f"x {width + 100:g} is out of range (0 to {width:g} mm"),
                         ("- -50", f"y -50 is out of range (0 to {height:g} mm"),
                         ("- - 400", "heading 400 is out of range (-360 to 360 degrees)"),
                         ("- - - 0", "size 0 is out of range"),
                         ("1 2 3 4 5", "5 numbers typed; at most 4")):
        post_key(pygame.K_RETURN)
        pump(app)
        assert ed.entry == ""
        _type(app, typed)
        assert ed.entry is None and app.status.startswith("Nothing changed: ") and words in app.status, app.status
        assert ed.doc.centre(("gate", 0)) == before
    post_key(pygame.K_RETURN)
    pump(app)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord("x"), mod=0, unicode="x", scancode=0))
    pump(app)
    assert ed.entry == "" and "Numeric entry takes digits, '.', '-' and spaces, not 'x'" in app.status
