"""The window's modes driven by real mouse and key events (issue 8, items 6-7): a whole activation through the
panel, a Spin to any angle, the Slide previewed before Done, the replay viewer, rulings on a game's table."""

from __future__ import annotations

import math
from pathlib import Path

import pygame
import pytest
from conftest import SIZE
from ui_events import post_key, post_mouse, pump

from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import (
    Activate,
    ChooseTemplate,
    Decision,
    PushIt,
    RollSkid,
    SlideFacing,
    SpendShifts,
    Spin,
)
from simulator.gaslands.events import Moved
from simulator.gaslands.game import Game
from simulator.gaslands.prompts import ActivatePrompt, ShiftsPrompt, SlideFacingPrompt, SpinPrompt
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.gaslands.state import Status
from simulator.scenario import saves as saving
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game
from simulator.ui.app import App
from simulator.ui.game_controller import GameController
from simulator.ui.modes.game import GameMode
from simulator.ui.modes.replay import ReplayMode
from simulator.ui.modes.rulings import RulingsMode
from simulator.ui.panel_actions import Decide, PanelAction, ToggleDie

SPIN_SEED, SPIN_CAR = 1, "red-car"
"""A Street Race whose first activation (Medium Straight, three Skid Dice) rolls a Spin, a Shift and a Hazard."""
SLIDE_SEED, SLIDE_CAR = 4, "blue-car"
"""A Street Race whose first activation (the same) rolls a Spin, a Slide and a Hazard, with a free Shift."""


def _game(seed: int) -> Game:
    return new_game(load_scenario(bundled_scenario()), seed)


def _app(tmp_path: Path, game: Game) -> App:
    pygame.event.clear()
    return App.for_game(GameController(game, autosave_path=tmp_path / "autosave.json"), SIZE,
                        game_path=tmp_path / "game.json")


def _mode(app: App) -> GameMode:
    assert app.game is not None
    return app.game


def _click(app: App, pos: tuple[float, float]) -> None:
    post_mouse(pygame.MOUSEBUTTONDOWN, pos)
    post_mouse(pygame.MOUSEBUTTONUP, pos)
    pump(app)


def _click_action(app: App, action: PanelAction) -> None:
    _click(app, pygame.Rect(_mode(app).panel().button(action).rect).center)


def _rolled(seed: int, car: str) -> Game:
    """The game after ``car`` chose the Medium Straight and rolled three Skid Dice (kept)."""
    g = _game(seed)
    for d in (Activate(car), ChooseTemplate("medium_straight"), RollSkid(3), PushIt(())):
        g.decide(d)
    return g


def _replayed(seed: int, decisions: list[Decision]) -> Game:
    g = _game(seed)
    for d in decisions:
        g.decide(d)
    return g


def test_a_whole_activation_through_the_panel(tmp_path: Path) -> None:
    """Activate by clicking the car, drag the template, then answer every prompt with the panel's own buttons
    (the main one: Roll 0, Done, Spin, No attack...) until the next player activates."""
    app = _app(tmp_path, _game(SPIN_SEED))
    mode = _mode(app)
    ctl = mode.ctl
    first = ctl.prompt
    assert isinstance(first, ActivatePrompt)
    car = first.vehicles[0]
    _click(app, mode.vehicle_screen_pos(car))
    post_key(pygame.K_RETURN)
    pump(app)
    assert ctl.prompt.kind == "template" and ctl.prompt.vehicle_id == car
    start = mode.vehicle_screen_pos(car)
    post_mouse(pygame.MOUSEBUTTONDOWN, mode.tray_cell_centre("medium_straight"))
    pump(app)
    post_mouse(pygame.MOUSEMOTION, start, buttons=(1, 0, 0))
    post_mouse(pygame.MOUSEBUTTONUP, start)
    pump(app)
    assert mode.pending is not None and mode.pending.move.template == "medium_straight"
    _click_action(app, ctl.primary_action() or Decide(RollSkid(0)))  # "Choose it (Enter)"
    steps = 0
    while not isinstance(ctl.prompt, ActivatePrompt) and steps < 20:
        action = ctl.primary_action()
        assert action is not None, ctl.prompt
        _click_action(app, action)
        steps += 1
    assert isinstance(ctl.prompt, ActivatePrompt) and steps >= 2
    decisions = ctl.game.decisions
    assert decisions[:2] == [Activate(car), ChooseTemplate("medium_straight")]
    direct = _replayed(SPIN_SEED, decisions)
    assert direct.state == ctl.state and direct.prompt == ctl.prompt
    assert any(isinstance(e, Moved) and e.vehicle == car for e in ctl.game.log)


def test_spin_to_any_angle_by_dragging_round_the_car_and_with_the_slider(tmp_path: Path) -> None:
    g = _rolled(SPIN_SEED, SPIN_CAR)
    g.decide(SpendShifts(()))
    assert isinstance(g.prompt, SpinPrompt)
    app = _app(tmp_path, g)
    mode = _mode(app)
    pose = mode.ctl.vehicle(SPIN_CAR).pose
    # press beside the car and drag: the car turns to face the pointer (37 degrees counter-clockwise)
    press, towards = pose.turned(10.0).ahead(80.0), pose.turned(37.0).ahead(80.0)
    post_mouse(pygame.MOUSEBUTTONDOWN, app.view.to_screen(press.x_mm, press.y_mm))
    pump(app)
    post_mouse(pygame.MOUSEMOTION, app.view.to_screen(towards.x_mm, towards.y_mm), buttons=(1, 0, 0))
    post_mouse(pygame.MOUSEBUTTONUP, app.view.to_screen(towards.x_mm, towards.y_mm))
    pump(app)
    assert abs(mode.ctl.draft.turn_deg - 37.0) <= 1.0
    # the slider sets it too, within the prompt's range
    slider = mode.panel().slider
    assert slider is not None and (slider.low, slider.high) == (-90.0, 90.0)
    x, y, w, h = slider.rect
    _click(app, (x + w * (90.0 - 23.0) / 180.0, y + h // 2))
    assert abs(mode.ctl.draft.turn_deg + 23.0) <= 1.0
    post_key(pygame.K_RIGHTBRACKET)  # 15 degrees more
    pump(app)
    turn = mode.ctl.draft.turn_deg
    assert abs(turn + 8.0) <= 1.0
    surface = pygame.Surface(SIZE)
    app.draw(surface)  # the ghost of the turned car is drawn
    post_key(pygame.K_RETURN)
    pump(app)
    assert mode.ctl.game.decisions[-1] == Spin(turn)
    spun = [e for e in mode.ctl.game.log if isinstance(e, Moved) and e.how == "spins"]
    assert spun and spun[-1].requested_deg == turn


def test_an_uncancelled_slide_is_drawn_before_done_and_goes_when_cancelled(tmp_path: Path) -> None:
    g = _rolled(SLIDE_SEED, SLIDE_CAR)
    p = g.prompt
    assert isinstance(p, ShiftsPrompt) and p.slide_endings and p.roll.free_shifts == 1
    app = _app(tmp_path, g)
    mode = _mode(app)
    endings = mode.ctl.slide_endings()
    assert endings == p.slide_endings
    ending = endings[0].pose
    at = app.view.to_screen_int(ending.x_mm, ending.y_mm)
    with_slide = pygame.Surface(SIZE)
    app.draw(with_slide)
    slide_die = next(i for i, f in enumerate(p.faces) if f.value == "slide")
    _click_action(app, ToggleDie(slide_die))  # the free Shift cancels the Slide
    assert SpendShift(ShiftUse.CANCEL, slide_die) in mode.ctl.draft.spends
    assert mode.ctl.slide_endings() == ()
    without = pygame.Surface(SIZE)
    app.draw(without)
    assert with_slide.get_at(at) != without.get_at(at)  # the Slide's ending was drawn there, now it is not
    _click_action(app, ToggleDie(slide_die))  # take the cancel back: the Slide is shown again
    assert mode.ctl.slide_endings() == endings
    again = pygame.Surface(SIZE)
    app.draw(again)
    assert again.get_at(at) == with_slide.get_at(at)
    _click_action(app, Decide(SpendShifts(())))  # Done: it slides; off a Straight the facing is chosen next
    facing = mode.ctl.prompt
    assert isinstance(facing, SlideFacingPrompt) and mode.ctl.slide_endings() == facing.endings
    _click_action(app, Decide(SlideFacing("left")))
    assert any(isinstance(e, Moved) and e.slide and e.slide_facing == "left" for e in mode.ctl.game.log)


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bot Street Race of three rounds or more, saved."""
    g, bot = _game(2), Bot()
    while g.state.round.round_no < 4 and g.prompt.kind != "game_over":
        g.decide(bot.decide(g))
    path = tmp_path_factory.mktemp("replay") / "race.json"
    saving.save(g, path)
    return path


def test_the_replay_viewer_steps_plays_and_jumps_to_a_round(saved_game: Path) -> None:
    pygame.event.clear()
    game = saving.load(saved_game)
    entries = game.history.entries
    app = App.for_replay(game, SIZE, saved_game)
    replay = app.replay
    assert isinstance(replay, ReplayMode) and app.mode is replay and replay.position == 0

    def shows(position: int) -> None:
        assert replay.position == position
        assert replay.state == entries[position].state.game
        table = replay.scene.table(replay.state)
        for v in replay.state.vehicles:
            if v.in_play:
                assert table.vehicle(v.id).pose == v.pose

    for key, expected in ((pygame.K_RIGHT, 1), (pygame.K_RIGHT, 2), (pygame.K_LEFT, 1), (pygame.K_PERIOD, 2)):
        post_key(key)
        pump(app)
        shows(expected)
    post_key(pygame.K_PAGEDOWN)
    pump(app)
    round_two = next(i for i, e in enumerate(entries) if e.state.game.round.round_no == 2)
    shows(round_two)
    button = next(b for b in replay.panel_buttons() if b.label == "3")  # the round buttons
    _click(app, pygame.Rect(button.rect).center)
    shows(next(i for i, e in enumerate(entries) if e.state.game.round.round_no == 3))
    post_key(pygame.K_PAGEUP)
    pump(app)
    shows(round_two)
    post_key(pygame.K_END)
    pump(app)
    shows(len(entries) - 1)
    post_key(pygame.K_HOME, pygame.KMOD_CTRL)
    pump(app)
    shows(0)
    # play at 4 decisions a second: the steps come by themselves, their moves driven on screen
    post_key(pygame.K_SPACE)
    post_key(pygame.K_EQUALS)
    post_key(pygame.K_EQUALS)
    pump(app)
    assert replay.playing and replay.speed == 4.0
    for _ in range(60):
        app.update(0.05)
    assert replay.position >= 4
    post_key(pygame.K_SPACE)
    pump(app)
    stopped = replay.position
    app.update(1.0)
    assert replay.position == stopped and not replay.playing
    # the timeline: a click half way along goes half way through the game
    x, y, w, h = replay.timeline_rect()
    _click(app, (x + w // 2, y + h // 2))
    assert abs(replay.position - (len(entries) - 1) / 2) <= 1
    # the log shows the events up to the step shown
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    assert replay.log_rects and max(i for _, i in replay.log_rects) < replay.offsets[replay.position + 1]
    assert game.history.entries == entries  # viewing never changed the game


def test_rulings_from_a_game_open_on_its_table_and_return_to_it_unchanged(tmp_path: Path) -> None:
    g, bot = _game(2), Bot()  # a Street Race with a wreck on the table by decision 76
    while g.prompt.kind != "game_over" and not (any(v.status is Status.WRECK for v in g.state.vehicles)
                                                 and g.prompt.kind == "activate"):
        g.decide(bot.decide(g))
    assert any(v.status is Status.WRECK for v in g.state.vehicles)
    app = _app(tmp_path, g)
    mode = _mode(app)
    before_state, before_decisions = mode.ctl.state, list(mode.ctl.game.decisions)
    post_key(pygame.K_r)
    pump(app)
    rulings = app.rulings
    assert isinstance(rulings, RulingsMode) and app.mode is rulings
    state = before_state
    wrecked = next(v for v in state.vehicles if v.status is Status.WRECK)
    for v in state.vehicles:
        if v.in_play:
            assert rulings.table.vehicle(v.id).pose == v.pose and rulings.table.vehicle(v.id).gear == v.gear
            st = rulings.box.statuses[v.id]
            assert (st.hull, st.hull_max, st.hazards) == (v.hull_points, v.hull, v.hazards)
        else:
            assert v.id not in {p.id for p in rulings.table.vehicles}
    wreck = rulings.table.obstacle(wrecked.id)  # a wreck is an obstacle (p.43)
    assert wreck.destructible and wrecked.label in wreck.label
    boards = {d.vehicle_id: d for d in rulings.dashboards()}
    damaged = next(v for v in state.vehicles if v.in_play and v.hull_points < v.hull)
    assert (boards[damaged.id].hull, boards[damaged.id].hazards) == (damaged.hull_points, damaged.hazards)
    # moving a car by hand in the rulings mode leaves the game alone
    car = next(v for v in rulings.table.vehicles)
    start = app.view.to_screen(car.pose.x_mm, car.pose.y_mm)
    post_mouse(pygame.MOUSEBUTTONDOWN, start)
    pump(app)
    for i in range(1, 9):
        post_mouse(pygame.MOUSEMOTION, (start[0] + 5 * i, start[1]), buttons=(1, 0, 0))
        pump(app)
        app.update(1 / 60)
    post_mouse(pygame.MOUSEBUTTONUP, (start[0] + 40, start[1]))
    pump(app)
    assert rulings.table.vehicle(car.id).pose != car.pose
    post_key(pygame.K_r)  # back to the game, unchanged
    pump(app)
    assert app.mode is mode and mode.ctl.state is before_state and mode.ctl.game.decisions == before_decisions
    post_key(pygame.K_F2)  # the free table opens on the game's table too, and F2 returns
    pump(app)
    assert app.free is not None and app.mode is app.free
    assert app.free.table.obstacle(wrecked.id).destructible
    post_key(pygame.K_r)  # rulings from the free table share its table
    pump(app)
    assert app.mode is app.rulings and app.rulings is not None and app.rulings.box is app.free.box
    post_key(pygame.K_F2)
    pump(app)
    assert app.mode is mode and mode.ctl.state is before_state
    assert math.isfinite(app.view.scale_px_per_mm)


def test_gaslands_replay_refuses_a_file_that_is_not_a_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from simulator.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    assert "bad.json" in capsys.readouterr().err


def test_a_game_played_elsewhere_sends_decisions_and_shows_those_applied(tmp_path: Path) -> None:
    """The seam for online play: with ``submit`` the window sends a decision instead of applying it; when the
    other side applies it, ``applied`` shows it (the moves animated, the panel on the next prompt)."""
    sent: list[Decision] = []
    game = _game(SPIN_SEED)
    ctl = GameController(game, submit=lambda d: sent.append(d) or True)
    pygame.event.clear()
    app = App.for_game(ctl, SIZE)
    mode = _mode(app)
    car = ctl.prompt.vehicles[0] if isinstance(ctl.prompt, ActivatePrompt) else ""
    before = ctl.state
    _click(app, mode.vehicle_screen_pos(car))
    post_key(pygame.K_RETURN)
    pump(app)
    assert sent == [Activate(car)] and ctl.state is before and "waiting" in app.status
    answers = iter((Activate(car), ChooseTemplate("medium_straight"), RollSkid(0)))
    while game.state.vehicle(car).pose == before.vehicle(car).pose:  # the server applies them (then a bot's)
        logged, was = len(game.log), game.state
        game.decide(next(answers, None) or Bot().decide(game))
        ctl.applied(was, game.last_events, logged)
        app.update(1 / 60)
    assert ctl.state.vehicle(car).pose != before.vehicle(car).pose
    assert ctl.anim.moving_pose(car) is not None  # the car drives there on screen
    assert "waiting" not in app.status and app.game_view
    post_key(pygame.K_z, pygame.KMOD_CTRL)
    pump(app)
    assert "cannot be taken back" in app.status and game.decisions[:3] == [Activate(car),
                                                                           ChooseTemplate("medium_straight"),
                                                                           RollSkid(0)]


def test_render_draws_a_save_in_the_replay_viewer_at_a_step(saved_game: Path, tmp_path: Path) -> None:
    from simulator.cli import main

    first, later = tmp_path / "first.png", tmp_path / "later.png"
    assert main(["render", str(saved_game), "--step", "0", "-o", str(first)]) == 0
    assert main(["render", str(saved_game), "--step", "12", "-o", str(later)]) == 0
    a, b = pygame.image.load(str(first)), pygame.image.load(str(later))
    assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB")
    assert main(["render", str(saved_game), "--step", "100000", "-o", str(tmp_path / "x.png")]) == 2
    assert main(["render", str(bundled_scenario()), "--step", "1", "-o", str(tmp_path / "y.png")]) == 2


def test_the_example_game_in_the_docs_still_replays() -> None:
    """docs/games/street_race.json (drawn into docs/replay.png at step 45): the save replays to its end."""
    game = saving.load(Path(__file__).resolve().parents[2] / "docs" / "games" / "street_race.json")
    assert len(game.history.entries) > 45 and game.prompt.kind == "game_over"


def test_the_table_answers_the_grid_and_the_attack_step_by_clicks(tmp_path: Path) -> None:
    """A click on a Starting Grid slot drawn on the table places the car there (p.126); in the Attack Step a
    click on a target car ticks the weapon that can fire at it (p.30)."""
    from simulator.gaslands.decisions import Attack, Deploy
    from simulator.gaslands.prompts import AttacksPrompt, DeployPrompt

    game = new_game(load_scenario(bundled_scenario("death_race.toml")), 5)
    app = _app(tmp_path, game)
    mode = _mode(app)
    p = mode.ctl.prompt
    assert isinstance(p, DeployPrompt)
    car = mode.ctl.deploy_vehicle()
    slot, pose = next(iter(mode.ctl.grid_previews().items()))
    _click(app, app.view.to_screen(pose.x_mm, pose.y_mm))
    assert mode.ctl.game.decisions == [Deploy(car, slot)]
    assert mode.ctl.state.vehicle(car).pose == pose

    g, bot = _game(1), Bot()
    while not (isinstance(g.prompt, AttacksPrompt) and any(w.mount >= 0 and g.prompt.targets(w.mount)
                                                            for w in g.prompt.weapons)):
        g.decide(bot.decide(g))
    app = _app(tmp_path, g)
    mode = _mode(app)
    option = next(o for o in mode.ctl.attack_options())
    target = mode.ctl.vehicle(option.target).pose
    _click(app, app.view.to_screen(target.x_mm, target.y_mm))
    assert mode.ctl.draft.attacks == [Attack(option.mount, option.target)]
    _click(app, app.view.to_screen(target.x_mm, target.y_mm))
    assert mode.ctl.draft.attacks == []
