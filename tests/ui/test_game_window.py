"""Hot-seat play in the window, driven headless by real pygame events (issue 4, items 7-9).

Every decision the window makes goes through ``Game.decide``; these tests
replay the same decisions on a plain :class:`Game` and compare the states.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
import shapely
from conftest import SIZE
from ui_events import click_dialog, drag, post_key, post_mouse, pump

from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import (
    Activate,
    ChooseTemplate,
    Decision,
    Deploy,
    Drop,
    PushIt,
    RollSkid,
    SpendShifts,
)
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.game import Game
from simulator.gaslands.skid import ShiftUse, SpendShift
from simulator.scenario import saves as saving
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game
from simulator.ui.app import App
from simulator.ui.game_controller import GameController
from simulator.ui.game_panel import dice_groups
from simulator.ui.panel_actions import Decide, PanelAction, SetTurn, ToggleDie, ToggleDrop
from simulator.ui.window import plays_as_game

TEMPLATE = "medium_straight"


def _new_game(seed: int) -> Game:
    return new_game(load_scenario(bundled_scenario()), seed)


def _game_app(tmp_path: Path, seed: int, bots: set[int] | None = None, **kw: float) -> App:
    pygame.event.clear()
    ctl = GameController(_new_game(seed), autosave_path=tmp_path / "autosave.json", bots=bots, **kw)
    return App.for_game(ctl, SIZE, game_path=tmp_path / "game.json")


def _click(app: App, pos: tuple[float, float]) -> None:
    post_mouse(pygame.MOUSEBUTTONDOWN, pos)
    post_mouse(pygame.MOUSEBUTTONUP, pos)
    pump(app)


def _click_action(app: App, action: PanelAction) -> None:
    """Click the centre of the panel widget (button or die) that runs ``action``."""
    assert app.game is not None
    rect = pygame.Rect(app.game.panel().button(action).rect)
    _click(app, rect.center)


def _ctl(app: App) -> GameController:
    assert app.game is not None
    return app.game.ctl


def _table(app: App):  # type: ignore[no-untyped-def]
    assert app.game is not None
    return app.game.scene.table(app.game.ctl.state)


def _seed_with_shift_and_other() -> tuple[int, str, int]:
    """A seed whose first activation rolls two Skid Dice showing a Shift and a die a Shift can cancel."""
    for seed in range(200):
        g = _new_game(seed)
        vid = str(g.prompt.options[0])
        g.decide(Activate(vid))
        g.decide(ChooseTemplate(TEMPLATE))
        if g.prompt.kind != "skid" or 2 not in g.prompt.options:
            continue
        g.decide(RollSkid(2))
        assert g.prompt.kind == "push_it"
        faces = g.prompt.faces  # type: ignore[union-attr]
        if SkidFace.SHIFT in faces and any(f is not SkidFace.SHIFT for f in faces):
            return seed, vid, next(i for i, f in enumerate(faces) if f is not SkidFace.SHIFT)
    raise AssertionError("no seed found")


def _replayed(seed: int, decisions: list[Decision]) -> Game:
    g = _new_game(seed)
    for d in decisions:
        g.decide(d)
    return g


def _first_activation_by_events(app: App, vid: str, die: int) -> None:
    assert app.game is not None
    g = app.game.ctl
    drag(app, app.game.tray_cell_centre(TEMPLATE), app.game.vehicle_screen_pos(vid))
    assert app.game.pending is not None and app.game.pending.move.template == TEMPLATE
    post_key(pygame.K_RETURN)
    pump(app)
    assert g.prompt.kind == "skid"
    _click_action(app, Decide(RollSkid(2)))
    assert g.prompt.kind == "push_it"
    _click_action(app, Decide(PushIt(())))
    assert g.prompt.kind == "shifts"
    _click_action(app, ToggleDie(die))
    assert SpendShift(ShiftUse.CANCEL, die) in g.draft.spends
    _click_action(app, Decide(SpendShifts((SpendShift(ShiftUse.CANCEL, die),))))


def test_first_activation_through_real_events_matches_the_engine(tmp_path: Path) -> None:
    seed, vid, die = _seed_with_shift_and_other()
    app = _game_app(tmp_path, seed)
    assert app.game is not None and app.game_view
    state0 = _ctl(app).state
    _first_activation_by_events(app, vid, die)
    expected: list[Decision] = [Activate(vid), ChooseTemplate(TEMPLATE), RollSkid(2), PushIt(()),
                                SpendShifts((SpendShift(ShiftUse.CANCEL, die),))]
    assert _ctl(app).game.decisions == expected
    direct = _replayed(seed, expected)
    assert _ctl(app).state == direct.state
    assert _ctl(app).state.vehicle(vid).pose != state0.vehicle(vid).pose  # it drove
    assert _ctl(app).prompt == direct.prompt
    # the window shows the engine's table: the car is where the engine put it
    assert _table(app).vehicle(vid).pose == direct.state.vehicle(vid).pose
    # the move animates along the geometry path, then ends
    assert any(m.vehicle_id == vid for m in _ctl(app).anim.motions)
    for _ in range(120):
        app.update(1 / 60)
    assert not _ctl(app).anim.motions


def test_tray_offers_only_the_engines_templates(tmp_path: Path) -> None:
    app = _game_app(tmp_path, 1)
    g = _ctl(app)
    vid = str(g.prompt.options[0])
    _click(app, app.game.vehicle_screen_pos(vid))  # a click inspects a qualifying car; Enter activates it (p.19)
    assert g.prompt.kind == "activate" and app.game.inspected == vid
    post_key(pygame.K_RETURN)
    pump(app)
    assert g.prompt.kind == "template" and g.prompt.vehicle_id == vid
    refused = next(t for t in ("long_straight", "veer", "swerve") if t not in g.prompt.options)
    assert app.game is not None
    labels = app.game.tray_labels()
    assert labels is not None and labels[refused] == "not permitted"
    post_mouse(pygame.MOUSEBUTTONDOWN, app.game.tray_cell_centre(refused))
    pump(app)
    assert app.game.template_drag is None and "not permitted" in app.status
    for t in g.prompt.options:
        assert labels[str(t)] != "not permitted"


def test_illegal_clicks_leave_the_game_unchanged(tmp_path: Path) -> None:
    app = _game_app(tmp_path, 1)
    g = _ctl(app)
    other = next(v.id for v in g.state.vehicles if v.id not in g.prompt.options)
    before = g.state
    _click(app, app.game.vehicle_screen_pos(other))
    assert g.state == before and g.game.decisions == []
    assert "does not qualify" in app.status
    post_key(pygame.K_EQUALS)  # gear up by hand: refused in a game (p.23)
    pump(app)
    assert g.state == before


def test_undo_restores_the_state_before_the_last_decision(tmp_path: Path) -> None:
    seed, vid, die = _seed_with_shift_and_other()
    app = _game_app(tmp_path, seed)
    _first_activation_by_events(app, vid, die)
    assert app.game is not None
    post_key(pygame.K_z, pygame.KMOD_LCTRL)
    pump(app)
    expected: list[Decision] = [Activate(vid), ChooseTemplate(TEMPLATE), RollSkid(2), PushIt(())]
    assert _ctl(app).game.decisions == expected
    assert _ctl(app).state == _replayed(seed, expected).state
    assert _ctl(app).prompt.kind == "shifts"
    assert _table(app).vehicle(vid).pose == _ctl(app).state.vehicle(vid).pose


def test_save_and_load_round_trip_through_the_window(tmp_path: Path) -> None:
    seed, vid, die = _seed_with_shift_and_other()
    app = _game_app(tmp_path, seed)
    _first_activation_by_events(app, vid, die)
    assert app.game is not None
    post_key(pygame.K_s, pygame.KMOD_LCTRL)
    pump(app)
    saved = tmp_path / "game.json"
    assert saved.is_file() and "Saved" in app.status
    assert json.loads(saved.read_text())["seed"] == seed
    # the autosave was written between activations (DESIGN.md)
    assert saving.load(tmp_path / "autosave.json").state == _ctl(app).state

    other = _game_app(tmp_path, seed + 1)
    assert other.game is not None
    post_key(pygame.K_o, pygame.KMOD_LCTRL)
    pump(other)
    assert other.ctx.dialogs.is_open  # the Open dialog, at the game's file
    click_dialog(other, "OK")
    assert not other.ctx.dialogs.is_open
    assert _ctl(other).game.decisions == _ctl(app).game.decisions
    assert _ctl(other).state == _ctl(app).state
    assert _table(other).vehicle(vid).pose == _table(app).vehicle(vid).pose
    assert plays_as_game(saved)


def test_a_bot_seat_decides_after_a_visible_delay(tmp_path: Path) -> None:
    app = _game_app(tmp_path, 1)
    g = _ctl(app)
    player = g.prompt.player
    post_key(pygame.K_F5 + player)
    pump(app)
    assert player in g.bots and g.is_bot_turn()
    app.update(0.1)
    assert g.game.decisions == []  # still "thinking"
    for _ in range(40):
        app.update(0.05)
    assert g.game.decisions and isinstance(g.game.decisions[0], Activate)


def test_all_bots_play_a_street_race_to_the_end_and_the_winner_is_shown(tmp_path: Path) -> None:
    app = _game_app(tmp_path, 3, bots={0, 1}, bot_delay_s=0.05)
    g = _ctl(app)
    for _ in range(40000):
        if g.over():
            break
        app.update(0.25)
    assert g.over()
    assert g.state.winner is not None
    winner = g.player_name(g.state.winner)
    panel_text = " ".join(line.text for line in app.game.panel().lines)
    assert f"{winner} wins" in panel_text
    assert "Standings" in panel_text
    assert f"{winner} wins" in app.status
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    x, y, w, _ = app.layout.table
    banner = [surface.get_at((px, y + 40 + dy)) for px in range(x, x + w, 2) for dy in range(8, 30, 3)]
    assert any(c.r > 230 and c.g > 200 and c.b < 160 for c in banner)  # the yellow winner banner
    # the autosave holds the finished game
    assert saving.load(tmp_path / "autosave.json").state == g.state


def test_mid_game_render_differs_from_the_free_table(tmp_path: Path) -> None:
    seed, vid, die = _seed_with_shift_and_other()
    app = _game_app(tmp_path, seed)
    _first_activation_by_events(app, vid, die)
    for _ in range(120):
        app.update(1 / 60)
    game_surface = pygame.Surface(SIZE)
    app.draw(game_surface)
    out = tmp_path / "mid_game.png"
    pygame.image.save(game_surface, str(out))
    free = App(load_scenario(bundled_scenario()), SIZE)
    free_surface = pygame.Surface(SIZE)
    free.draw(free_surface)
    assert out.stat().st_size > 0
    assert pygame.image.tobytes(game_surface, "RGB") != pygame.image.tobytes(free_surface, "RGB")
    # the car is drawn where the engine put it, in its team colour
    assert app.game is not None
    pose = _ctl(app).state.vehicle(vid).pose
    px = game_surface.get_at(app.view.to_screen_int(pose.ahead(-20.0).x_mm, pose.ahead(-20.0).y_mm))
    colour = app.game.scene.colour(_ctl(app).state, vid)
    assert sum(abs(a - b) for a, b in zip((px.r, px.g, px.b), colour, strict=True)) < 60


def test_f2_toggles_the_free_table_and_back(tmp_path: Path) -> None:
    app = _game_app(tmp_path, 1)
    assert app.game_view
    post_key(pygame.K_F2)
    pump(app)
    assert not app.game_view and app.free is not None and app.mode is app.free
    # the free table lets the gear change by hand; the game is untouched
    vid = app.free.table.vehicles[0].id
    app.free.select(vid)
    app.free.set_gear(+1)
    assert app.free.table.vehicle(vid).gear == 2
    assert app.game is not None and _ctl(app).state.vehicle(vid).gear == 1
    post_key(pygame.K_F2)
    pump(app)
    assert app.game_view and _table(app).vehicle(vid).gear == 1


@pytest.mark.parametrize("scenario", ["street_race.toml", "death_race.toml"])
def test_races_open_as_games_and_rulings_do_not(scenario: str) -> None:
    assert plays_as_game(bundled_scenario(scenario))
    rulings = Path(__file__).resolve().parents[1] / "cases" / "move_tbone.toml"
    assert not plays_as_game(rulings)


def test_death_race_game_window_plays_an_activation(tmp_path: Path) -> None:
    pygame.event.clear()
    game = new_game(load_scenario(bundled_scenario("death_race.toml")), 5)
    app = App.for_game(GameController(game, autosave_path=tmp_path / "a.json"), SIZE)
    g = _ctl(app)
    deployed = 0
    while g.prompt.kind == "deploy":  # the Starting Grid comes first (p.126): one button per open slot
        assert g.grid_previews()
        _click_action(app, Decide(Deploy(g.deploy_vehicle(), g.prompt.options[0])))
        deployed += 1
    assert deployed == len(g.state.vehicles)
    vid = str(g.prompt.options[0])
    _click_action(app, Decide(Activate(vid)))
    assert g.prompt.kind == "template"
    notes = {v.id: g.vehicle_status(v.id) for v in g.state.vehicles}
    assert all(n is not None and "gates 0/" in n.note for n in notes.values())
    app.game.attach(vid, "short_straight")
    post_key(pygame.K_RETURN)
    pump(app)
    assert g.game.decisions[deployed:deployed + 2] == [Activate(vid), ChooseTemplate("short_straight")]


def test_dice_groups_mark_hits_and_evades() -> None:
    from simulator.gaslands.dice import SkidFace
    from simulator.gaslands.events import Attacked, SkidDiceRolled

    shot = Attacked("a", "A", "b", "B", ("Machine Gun",), ((4, 6, 1),), (6, 2), 2, 1, False, -1)
    groups = dice_groups(shot)
    assert groups == [("Machine Gun", [(4, "hit"), (6, "crit"), (1, "miss")]), ("evade", [(6, "hit"), (2, "miss")])]
    skid = dice_groups(SkidDiceRolled("x", "X", (SkidFace.SHIFT, SkidFace.HAZARD)))
    assert skid == [("Skid Dice", [("shift", ""), ("hazard", "")])]


def test_the_attack_prompt_offers_a_drop_and_the_table_shows_the_template(tmp_path: Path) -> None:
    """Drop a rear Mine Dropper from the panel (p.78); the template is drawn on the table."""
    from dataclasses import replace

    from simulator.gaslands.bots import Bot
    from simulator.gaslands.state import Mount

    pygame.event.clear()
    game = _new_game(3)
    kit = (Mount.fitted("machine_gun"), Mount.fitted("mine_dropper", "rear"))
    game = Game(replace(game.initial_state, vehicles=tuple(replace(v, weapons=kit)
                                                           for v in game.initial_state.vehicles)),
                game.dice, game.referee, game.permissions, game.options)
    game.origin = _new_game(3).origin
    game.decide(Activate(str(game.prompt.options[0])))
    while game.prompt.kind != "attacks":
        game.decide(Bot().decide(game))
    ctl = GameController(game, autosave_path=tmp_path / "autosave.json")
    app = App.for_game(ctl, SIZE, game_path=tmp_path / "game.json")
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    _click_action(app, ToggleDrop(Drop(1, "rear")))
    assert ctl.draft.drop is not None
    app.draw(surface)
    _click_action(app, Decide(ctl.attacks_decision()))
    assert [t.weapon for t in game.state.dropped] == ["mine_dropper"]
    ((t, poly),) = ctl.dropped_shapes()
    far = t.pose.ahead(68.0)
    assert poly.contains(shapely.Point(far.x_mm, far.y_mm))
    x, y = app.view.to_screen(far.x_mm, far.y_mm)
    before = surface.get_at((int(x), int(y)))[:3]
    app.draw(surface)
    assert surface.get_at((int(x), int(y)))[:3] != before  # the template is drawn there


# ---------------------------------------------------------------- QA pass: badges, dice captions, forced answers


def _bot_game(seed: int, steps: int) -> Game:
    from simulator.gaslands.bots import Bot

    game, bot = _new_game(seed), Bot()
    for _ in range(steps):
        game.decide(bot.decide(game))
    return game


def _play_until(game: Game, bot: Bot, wanted: Callable[[Game], bool], limit: int = 400) -> bool:
    """Let ``bot`` play ``game`` until ``wanted(game)`` (True) or the game ends (False)."""
    for _ in range(limit):
        if game.prompt.kind == "game_over":
            return False
        game.decide(bot.decide(game))
        if wanted(game):
            return True
    return False


def _rects_of_cars(app: App) -> dict[str, pygame.Rect]:
    from simulator.ui import draw

    g = _ctl(app)
    return {v.id: draw.vehicle_rect_px(app.view, g.anim.moving_pose(v.id) or v.pose, v.length_mm, v.width_mm)
            for v in _table(app).vehicles}


def test_pile_up_badges_one_per_car_stacked_clear_and_fading(tmp_path: Path) -> None:
    from simulator.gaslands.collisions import Orientation, Reaction
    from simulator.gaslands.events import Attacked, Collided, WipedOut

    app = _game_app(tmp_path, 1)  # the cars start side by side on the grid: a pile-up of badges
    g = _ctl(app)
    red, blue = "red-car", "blue-car"
    g.anim.flash([Collided(red, "Red Car", blue, "Blue Car", False, Orientation.HEAD_ON, "front", "front",
                       Reaction.SMASH, Reaction.SMASH, (4,), (5,), (), ()),
              WipedOut(red, "Red Car", 4, 3, False),
              Attacked(blue, "Blue Car", red, "Red Car", ("Machine Gun",), ((4, 5),), (), 2, 2, False, -2)])
    assert g.anim.flashes[red][0] == "WIPEOUT" and g.anim.flashes[blue][0] == "COLLISION"  # one badge per car, the weightiest
    for v, word in zip(g.state.vehicles[2:], ("2 HITS, 2 DAMAGE", "FLIPPED"), strict=True):
        g.anim.flashes[v.id] = (word, 3.5)
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    out = tmp_path / "pile_up.png"
    pygame.image.save(surface, str(out))
    layout = app.game.badge_layout()
    assert len(layout) == 4
    rects = [r for r, _, _ in layout]
    assert all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])  # never on each other
    cars = _rects_of_cars(app)
    assert all(not r.colliderect(c) for r in rects for c in cars.values())  # nor on a car
    for rect, _, _ in layout:  # drawn: the badge's dark red backing is there
        px = surface.get_at((rect.left + 2, rect.centery))
        assert px.r > px.g + 40 and px.r > px.b + 40
    # they fade out: full, then fainter near the end, then gone
    assert {a for _, _, a in layout} == {255}
    app.update(3.0)
    assert all(0 < a < 255 for _, _, a in app.game.badge_layout())
    app.update(1.0)
    assert app.game.badge_layout() == [] and not g.anim.flashes


def test_lose_control_prompt_shows_the_car_and_its_ghost_without_badges(tmp_path: Path) -> None:
    game = _bot_game(0, 51)
    assert game.prompt.kind == "lose_control"
    pygame.event.clear()
    ctl = GameController(game, autosave_path=tmp_path / "autosave.json")
    app = App.for_game(ctl, SIZE)
    ctl.anim.flash(game.log[-12:])
    chosen = game.prompt.vehicle_id
    assert ctl.anim.flashes.get(chosen, ("",))[0] == "WIPEOUT"
    for v in game.state.vehicles:
        ctl.anim.flashes.setdefault(v.id, ("COLLISION", 3.0))
    _click_action(app, SetTurn(90.0))
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "lose_control.png"))
    layout = app.game.badge_layout()
    assert not any(chosen in word or "WIPEOUT" in word for _, word, _ in layout)
    car = _rects_of_cars(app)[chosen]
    v = _table(app).vehicle(chosen)
    ghost_pose = ctl.preview_pose()
    assert ghost_pose is not None
    from simulator.ui import draw

    ghost = draw.vehicle_rect_px(app.view, ghost_pose, v.length_mm, v.width_mm)
    assert all(not r.colliderect(car) and not r.colliderect(ghost) for r, _, _ in layout)
    # the car itself is visible in its team colour
    px = surface.get_at(app.view.to_screen_int(v.pose.ahead(-20.0).x_mm, v.pose.ahead(-20.0).y_mm))
    assert sum(abs(a - b) for a, b in zip((px.r, px.g, px.b), app.game.scene.colour(_ctl(app).state, chosen), strict=True)) < 60
    lose = ctl.primary_action()
    assert lose is not None
    _click_action(app, lose)  # once the facing is chosen, its badge may show again
    assert game.prompt.kind != "lose_control"


def test_last_roll_skid_dice_captions_fit_the_dice(tmp_path: Path) -> None:
    from simulator.ui import draw
    from simulator.ui.game_panel import ROLL_SKID_DIE_PX, SKID_WORDS, caption_size, draw_skid_die

    for word in (*SKID_WORDS.values(), "spent", "free"):
        assert draw.font(caption_size(word, ROLL_SKID_DIE_PX - 4)).size(word)[0] <= ROLL_SKID_DIE_PX - 4
    # a Hazard die drawn at the last-roll size: its caption's ink stays inside the die
    surface = pygame.Surface((80, 80))
    surface.fill((0, 0, 0))
    rect = pygame.Rect(20, 20, ROLL_SKID_DIE_PX, ROLL_SKID_DIE_PX)
    draw_skid_die(surface, rect, "hazard")
    outside = [surface.get_at((x, y)) for x in range(80) for y in range(80) if not rect.collidepoint(x, y)]
    assert all(tuple(c)[:3] == (0, 0, 0) for c in outside)
    # the panel's last-roll row shows Skid Dice at that size
    from simulator.gaslands.bots import Bot

    def found(game: Game) -> bool:
        last = next((e for e in reversed(game.last_events) if e.dice), None)  # the last decision's roll only
        return (last is not None and all(isinstance(f, str) for d in last.dice for f in d.faces)
                and game.prompt.kind not in ("push_it", "shifts", "game_over"))

    game = next(g for g in (_bot_game(seed, 0) for seed in range(20)) if _play_until(g, Bot(), found))
    app = App.for_game(GameController(game, autosave_path=tmp_path / "a.json"), SIZE)
    skid = [d for d in app.game.panel().dice if isinstance(d.face, str)]
    assert skid and all(d.rect[2] == ROLL_SKID_DIE_PX for d in skid)


def test_no_dice_shifts_prompt_is_answered_through_decide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that asks for Shifts with no dice at all gets SpendShifts(()) from the window: logged, replayable."""
    from simulator.gaslands import engine
    from simulator.gaslands.decisions import RollSkid as Roll
    from simulator.gaslands.prompts import ShiftsPrompt
    from simulator.gaslands.skid import Driving

    def ask_always(self: engine._Run) -> None:  # the engine behaviour the QA pass saw
        v = self._vehicle()
        self.prompt = ShiftsPrompt(v.player, v.id, self._roll, Driving(v.gear, v.hazards, v.max_gear))

    monkeypatch.setattr(engine._Run, "_after_push", ask_always)
    app = _game_app(tmp_path, 1)
    g = _ctl(app)
    vid = str(g.prompt.options[0])
    _click(app, app.game.vehicle_screen_pos(vid))
    post_key(pygame.K_RETURN)
    pump(app)
    app.game.attach(vid, "hard")  # Permitted, not Trivial: no free Shift
    post_key(pygame.K_RETURN)
    pump(app)
    assert g.prompt.kind == "skid" and 0 in g.prompt.options
    _click_action(app, Decide(RollSkid(0)))
    assert g.game.decisions[-2:] == [Roll(0), SpendShifts(())]
    assert g.prompt.kind != "shifts"
    events, _ = g.display_log()
    from simulator.gaslands.events import ShiftsSpent

    assert any(isinstance(e, ShiftsSpent) and e.spends == () for e in events)
    assert _replayed(1, g.game.decisions).state == g.state
    post_key(pygame.K_z, pygame.KMOD_LCTRL)  # undo takes the forced answer back with the roll
    pump(app)
    assert g.prompt.kind == "skid" and Roll(0) not in g.game.decisions


def test_forced_answers_only_when_there_are_no_dice() -> None:
    from types import SimpleNamespace

    from simulator.gaslands.prompts import PushItPrompt, ShiftsPrompt, SkidPrompt
    from simulator.gaslands.skid import Driving, SkidRoll
    from simulator.ui.game_controller import forced_answer

    def fake(kind: str, roll: SkidRoll) -> Game:
        prompt = {"shifts": ShiftsPrompt(0, "x", roll, Driving(1, 0, 6)), "push_it": PushItPrompt(0, "x", roll, 0),
                  "skid": SkidPrompt(0, "x", 2)}[kind]
        return SimpleNamespace(prompt=prompt)  # type: ignore[return-value]

    assert forced_answer(fake("shifts", SkidRoll())) == SpendShifts(())
    assert forced_answer(fake("push_it", SkidRoll())) == PushIt(())
    assert forced_answer(fake("shifts", SkidRoll(free_shifts=1))) is None  # a free Shift is a real choice
    assert forced_answer(fake("shifts", SkidRoll((SkidFace.SHIFT,)))) is None
    assert forced_answer(fake("push_it", SkidRoll((SkidFace.HAZARD,)))) is None
    assert forced_answer(fake("skid", SkidRoll())) is None


def test_activation_headline_wraps_to_two_lines_without_cutting(tmp_path: Path) -> None:
    app = _game_app(tmp_path, 1)
    g = _ctl(app)
    lines = app.game.headline_lines()
    text = " ".join(lines)
    assert len(lines) == 2 and "..." not in text
    assert all(g.name(v) in text for v in g.qualifying_now())
    panel = pygame.Rect(app.layout.panel)
    from simulator.ui import draw

    assert all(draw.font(18).size(line)[0] <= panel.width - 24 for line in lines)
    first_card = app.game.card_rects()[0][1]
    assert first_card[1] >= panel.top + 8 + 2 * 15 + 12  # the cards start below the second line and "Vehicles"
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "headline.png"))
