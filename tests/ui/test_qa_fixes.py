"""Findings of a QA pass of main (a new user following the README), each checked in the window."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pygame
import pytest
from ui_events import click, post_key, post_mouse, pump

from simulator.errors import IllegalChoice
from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import Deploy
from simulator.gaslands.prompts import DeployPrompt, ReactPrompt
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import team_warnings
from simulator.ui import draw
from simulator.ui.app import App
from simulator.ui.modes.replay import ReplayMode, describe
from simulator.ui.window import game_app


def _bot_game_until(tmp_path: Path, wanted: type, seeds: range = range(1, 30), limit: int = 400) -> App:
    """A Street Race played by bots until its prompt is a ``wanted`` one (the first seed that gets there)."""
    for seed in seeds:
        app = game_app(bundled_scenario("street_race.toml"), (1400, 900), seed=seed,
                       autosave=tmp_path / f"autosave{seed}.json")
        mode = app.game
        assert mode is not None
        bot = Bot()
        for _ in range(limit):
            if mode.ctl.over():
                break
            p = mode.ctl.prompt
            if isinstance(p, wanted) and (not isinstance(p, ReactPrompt) or p.vehicle_id != p.active_id):
                mode.refresh()
                return app
            mode.ctl.decide(bot.decide(mode.ctl.game))
        mode.refresh()
    raise AssertionError(f"no {wanted.__name__} in the bot games tried")


def test_active_badge_stays_on_the_activated_car_while_another_reacts(tmp_path: Path) -> None:
    app = _bot_game_until(tmp_path, ReactPrompt)
    assert app.game is not None
    ctl = app.game.ctl
    p = ctl.prompt
    assert isinstance(p, ReactPrompt)
    notes = {d.vehicle_id: d.note for d in app.game.dashboards()}
    assert p.vehicle_id != p.active_id  # the car hit reacts (p.53); the car driving is still the active one
    assert "ACTIVE" not in notes[p.vehicle_id]
    assert "ACTIVE" in notes[p.active_id]
    status = ctl.vehicle_status(p.vehicle_id)
    assert status is not None and "ACTIVE" not in status.note
    app.draw(pygame.Surface((1400, 900)))


def _drawn_texts(app: App, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string the window draws in one frame."""
    texts: list[str] = []
    real = draw.text

    def spy(surface: pygame.Surface, message: str, *args: Any, **kw: Any) -> pygame.Rect:
        texts.append(message)
        return real(surface, message, *args, **kw)

    monkeypatch.setattr(draw, "text", spy)
    app.draw(pygame.Surface(app.layout.size))
    monkeypatch.setattr(draw, "text", real)
    return texts


def test_starting_grid_slots_are_named_as_the_prompt_names_them(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    app = game_app(bundled_scenario("death_race.toml"), (1400, 900), seed=1, autosave=tmp_path / "a.json")
    assert app.game is not None
    ctl = app.game.ctl
    p = ctl.prompt
    assert isinstance(p, DeployPrompt) and not p.spawn
    texts = _drawn_texts(app, monkeypatch)
    assert "Rank 1, place 1" in texts
    assert not [t for t in texts if t.startswith("slot ")]
    with pytest.raises(IllegalChoice, match="Rank 3, place 1 is not open"):
        ctl.game.decide(Deploy(p.vehicles[0], 2 * p.columns))
    vid, slot = p.vehicles[0], p.slots[0]
    ctl.decide(Deploy(vid, slot))
    replay = ReplayMode(app.ctx, ctl.game, None)
    replay.seek(1)
    assert describe(replay.entry.decision, ctl.name, replay.asked()) == f"Deploy {ctl.name(vid)}: Rank 1, place 1"


def test_an_illegal_team_is_seated_with_a_warning(tmp_path: Path) -> None:
    teams = Path(__file__).resolve().parents[1] / "fixtures" / "teams"
    for name in ("street_race_teams.toml", "speed_freaks.toml"):
        shutil.copy(teams / name, tmp_path / name)
    (tmp_path / "rust_buckets.toml").write_text(
        (teams / "rust_buckets.toml").read_text(encoding="utf-8").replace("cans = 50", "cans = 30"), encoding="utf-8")
    scenario = load_scenario(tmp_path / "street_race_teams.toml")
    warnings = team_warnings(scenario)
    assert len(warnings) == 1
    assert warnings[0].startswith("Red Team's team 'Rust Buckets' is not legal (1 problem, gaslands team check): ")
    assert "team over its Cans" in warnings[0] and "(p.64)" in warnings[0]
    app = game_app(tmp_path / "street_race_teams.toml", (1400, 900), seed=1, autosave=tmp_path / "a.json")
    assert app.game is not None and any(v.id.startswith("red-") for v in app.game.ctl.state.vehicles)  # seated
    assert "'Rust Buckets' is not legal" in app.status
    legal = game_app(teams / "street_race_teams.toml", (1400, 900), seed=1, autosave=tmp_path / "b.json")
    assert "not legal" not in legal.status


def test_a_selected_card_has_no_stray_gear_label(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    assert app.free is not None
    click(app, app.free.vehicle_screen_pos("red-car"))
    assert app.free.selected == "red-car"
    texts = _drawn_texts(app, monkeypatch)
    assert "Red Car" in texts and "Gear" in texts
    assert "gear" not in texts


def test_tooltip_stays_whole_between_the_bars(monkeypatch: pytest.MonkeyPatch) -> None:
    """QA: the collision tooltip ran under the status line or off the window's edge."""
    from simulator.scenario import saves
    from simulator.ui import game_scene
    from simulator.ui.modes import replay as replay_module

    bounds = pygame.Rect(0, 34, 1280, 720 - 34 - 26)
    surface = pygame.Surface((1280, 720))
    long_line = "Red Car smashes: " + "a very long reason " * 12
    box = game_scene.draw_tooltip(surface, (1270, 690), ["Head-On (p.52)", long_line, "Red Car takes 2 damage"],
                                  bounds)
    assert bounds.contains(box) and box.right <= 1270  # beside the pointer, not under it, and wrapped
    assert box.height > 18 * 3 + 10
    app = App.for_replay(saves.load(Path(__file__).resolve().parents[2] / "docs" / "games" / "street_race.json"),
                         (1280, 720))
    assert app.replay is not None
    app.replay.seek(45)
    app.draw(surface)
    assert app.replay.marks
    boxes: list[pygame.Rect] = []

    def spy(*args: Any) -> pygame.Rect:
        boxes.append(game_scene.draw_tooltip(*args))
        return boxes[-1]

    monkeypatch.setattr(replay_module, "draw_tooltip", spy)
    for target in (app.replay.marks[0].pos, (1275, 690)):
        post_mouse(pygame.MOUSEMOTION, target, buttons=(0, 0, 0))
        pump(app)
        app.draw(surface)
    assert boxes and all(pygame.Rect(app.layout.between_bars()).contains(b) for b in boxes)


def _panel_texts(app: App) -> list[str]:
    assert app.game is not None
    return [ln.text for ln in app.game.panel().lines]


def test_last_roll_is_the_last_decisions_and_never_under_the_log(tmp_path: Path) -> None:
    """QA: the panel kept showing an old roll after the game moved on, and at 1280x720 an attack's evade dice were
    drawn under the log."""
    from simulator.ui.game_panel import dice_groups

    for seed in range(1, 40):
        app = game_app(bundled_scenario("street_race.toml"), (1280, 720), seed=seed,
                       autosave=tmp_path / f"a{seed}.json")
        mode = app.game
        assert mode is not None
        bot = Bot()
        for _ in range(400):
            if mode.ctl.over():
                break
            mode.ctl.decide(bot.decide(mode.ctl.game))
            mode.refresh()
            rolled = [e for e in mode.ctl.game.last_events if e.dice]
            if not rolled or mode.ctl.prompt.kind in ("push_it", "shifts", "game_over"):
                continue
            if len(dice_groups(rolled[-1])) < 2:
                continue
            # an attack with its evade dice: every die shown lies above the log
            assert any(t.startswith("Last roll: ") for t in _panel_texts(app))
            log_top = mode.log_rect()[1]
            assert mode.panel().dice and all(d.rect[1] + d.rect[3] <= log_top for d in mode.panel().dice)
            app.draw(pygame.Surface((1280, 720)))
            # the game moves on: a decision without dice, and the old roll is gone from the panel
            while not mode.ctl.over():
                mode.ctl.decide(bot.decide(mode.ctl.game))
                mode.refresh()
                if not any(e.dice for e in mode.ctl.game.last_events):
                    break
            assert not any(t.startswith("Last roll: ") for t in _panel_texts(app))
            return
    raise AssertionError("no roll of two groups of dice in the games tried")


def test_a_friendly_fire_target_is_marked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA: a team-mate in arc and range was offered as a target like any other; now it says OWN TEAM in the panel
    and on the table (friendly fire is allowed, p.30)."""
    for seed in range(1, 60):
        app = game_app(bundled_scenario("street_race.toml"), (1400, 900), seed=seed,
                       autosave=tmp_path / f"a{seed}.json")
        mode = app.game
        assert mode is not None
        bot = Bot()
        for _ in range(300):
            if mode.ctl.over():
                break
            options = mode.ctl.attack_options()
            if any(o.friendly for o in options):
                mode.refresh()
                me = mode.ctl.vehicle(mode.ctl.prompt.vehicle_id).player
                for o in options:
                    assert o.friendly == (mode.ctl.vehicle(o.target).player == me)
                labels = [b.label for b in mode.panel().buttons if "->" in b.label]
                friendly = next(o for o in options if o.friendly)
                assert any("OWN TEAM" in lab and mode.ctl.name(friendly.target) in lab for lab in labels)
                assert not any("OWN TEAM" in lab for o in options if not o.friendly
                               for lab in labels if f"-> {mode.ctl.name(o.target)} (" in lab)
                assert "OWN TEAM" in _drawn_texts(app, monkeypatch)
                return
            mode.ctl.decide(bot.decide(mode.ctl.game))
    raise AssertionError("no friendly target in the games tried")


def test_help_overlay_is_over_the_rulings_buttons(app: App) -> None:
    """QA: with H in the rulings mode the question buttons beside the help card stayed bright, as if above it."""
    post_key(pygame.K_r)
    post_key(pygame.K_x)
    pump(app)
    assert app.rulings is not None and app.mode is app.rulings
    surface = pygame.Surface(app.layout.size)
    app.draw(surface)
    buttons = app.rulings.question_buttons()
    assert buttons
    before = [sum(surface.get_at(pygame.Rect(b.rect).center)[:3]) for b in buttons]
    post_key(pygame.K_h)
    pump(app)
    assert app.help_visible
    app.draw(surface)
    after = [sum(surface.get_at(pygame.Rect(b.rect).center)[:3]) for b in buttons]
    assert all(a < 0.5 * b for a, b in zip(after, before, strict=True) if b > 60)
    click(app, (5, app.layout.size[1] // 2))  # a click anywhere closes the help, and asks nothing else
    assert not app.help_visible and app.rulings.rulings.question == "shoot"


@pytest.mark.parametrize("width", [172, 209, 420])
def test_compact_cards_keep_hull_and_hazard_without_overlap(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (M2): with many cars the cards keep their Hull and Hazard rows (2f401b4); a narrow card's hull count no
    longer runs into the Hazard label."""
    from simulator.ui.dashboard import COMPACT_PX, Dashboard, draw_card

    drawn: list[tuple[str, pygame.Rect]] = []
    real = draw.text

    def spy(surface: pygame.Surface, message: str, *args: Any, **kw: Any) -> pygame.Rect:
        rect = real(surface, message, *args, **kw)
        drawn.append((message, rect))
        return rect

    monkeypatch.setattr(draw, "text", spy)
    card = Dashboard("red-car", "Red Car", "Red Team", (200, 50, 50), "Car", 1, 5, 2, 10, 10)
    draw_card(pygame.Surface((500, 100)), card, (10, 10, width, COMPACT_PX), False)
    words = dict(drawn)
    assert {"Red Car", "G1/5", "Hull", "10/10", "Hz"} <= set(words)
    assert not words["10/10"].colliderect(words["Hz"]) and words["10/10"].right < words["Hz"].left


def test_six_cars_at_1280x720_keep_every_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (M2) at 1280x720 with more than four cars: every card keeps Gear, Hull and Hazard."""
    from simulator.ui.dashboard import COMPACT_PX

    app = game_app(bundled_scenario("arena_of_death.toml"), (1280, 720), seed=1, autosave=tmp_path / "a.json")
    assert app.game is not None and len(app.game.ctl.state.vehicles) >= 6
    rects = app.game.card_rects()
    assert all(r[3] >= COMPACT_PX for _, r in rects)
    texts = _drawn_texts(app, monkeypatch)
    assert texts.count("Hull") == len(rects) and texts.count("Hz") == len(rects)


def test_a_saved_rulings_file_points_to_the_repositorys_docs(app: App, tmp_path: Path) -> None:
    post_key(pygame.K_r)
    pump(app)
    assert app.rulings is not None
    path = tmp_path / "situation.toml"
    app.rulings.save_rulings(path)
    text = path.read_text(encoding="utf-8")
    assert "docs/rulings.md" in text and "RULINGS.md" not in text


def test_the_replay_says_every_kind_of_decision_in_words() -> None:
    from typing import get_args

    from simulator.gaslands import decisions as d
    from simulator.gaslands.audience import VoteEffect
    from simulator.gaslands.skid import ShiftUse, SpendShift

    names = {"red_car": "Red Car", "blue_car": "Blue Car"}.__getitem__
    said = {
        d.PushIt((0, 2)): "Push It: reroll 2 Skid Dice",
        d.PushIt(): "Keep the Skid Dice",
        d.SpendShifts((SpendShift(ShiftUse.GEAR_UP),)): "Spend 1 Shift",
        d.SpendShifts(): "Spend no Shifts",
        d.SlideFacing("left"): "Slide, facing left",
        d.DeclareAttacks((d.Attack(-1, "blue_car"), d.Attack(0, "blue_car"))): "2 attacks at Blue Car",
        d.DeclareAttacks(): "No attacks",
        d.DeclareAttacks(drops=(d.Drop(1),)): "drop 1 weapon",
        d.PassPole(1): "Pass Pole Position to player 2",
        d.SpendVotes((VoteEffect("thunderous_applause", "red_car"),)): "Spend Audience Votes: thunderous applause",
        d.SpendVotes(): "Keep the Audience Votes",
        d.Declare("yes"): "Answer: yes",
        d.Piledrive(1.0, 2.0, 3.0): "Piledriver: place the vehicle hit",
        d.SwingTrailer(-30.0): "Swing the trailer to -30 deg",
        d.Teleport(180.0, 140.4): "Experimental Teleporter: jump to (180, 140)",
        d.Activate("red_car"): "Activate Red Car",
        d.RollSkid(2): "Roll 2 Skid Dice",
    }
    for decision, words in said.items():
        assert describe(decision, names) == words
    assert {type(x) for x in said} | {d.ChooseTemplate, d.Spin, d.React, d.LoseControl, d.Deploy, d.Pivot} \
        == set(get_args(d.Decision))  # every kind is said in words, never its class name
