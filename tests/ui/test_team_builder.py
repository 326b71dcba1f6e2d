"""The team builder and the New game screen, driven by real mouse clicks and key presses on a headless window.

A small team is built by clicks (a vehicle, a weapon with its facing), a purchase the rules refuse says why with
its page (from ``gaslands team check``'s machinery), the team is saved through the File dialogs into the data
folder, then a Street Race starts with it from the New game screen and a few decisions are played by clicks.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from ui_events import click, click_dialog, drag, post_key, pump

from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import ChooseTemplate
from simulator.gaslands.teams import Fitting, Team, TeamVehicle, check, refused
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.team_file import load_team, save_team
from simulator.ui.app import App
from simulator.ui.new_game import NewGame, NewGameScreen
from simulator.ui.panel_actions import Decide
from simulator.ui.team_builder import TeamBuilder, TeamBuilderScreen

SIZE = (1280, 720)


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data folder; the working folder is another one."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("GASLANDS_DATA_DIR", str(tmp_path / "data"))
    pygame.event.clear()
    return tmp_path / "data"


def _app() -> App:
    return App(load_scenario(bundled_scenario("street_race.toml")), SIZE)


def _click_text(app: App, text: str) -> None:
    """Draw the window, then click the screen's widget showing ``text`` with real mouse events."""
    app.update(1 / 60)
    app.draw(pygame.Surface(SIZE))
    assert app.screen is not None
    click(app, app.screen.centre_of(text))


def _builder(app: App) -> TeamBuilderScreen:
    assert isinstance(app.screen, TeamBuilderScreen)
    return app.screen


def _type(app: App, text: str) -> None:
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    pump(app)
    app.update(1 / 60)
    pump(app)  # the field's change events


def test_refused_names_the_new_problems_and_leaves_out_pending_ones() -> None:
    empty = Team("T", "rustys_bootleggers", 50, ())
    car = Team("T", "rustys_bootleggers", 50, (TeamVehicle("car"),))
    assert not check(car).legal  # Trailer Trash: not finished yet, but buying a car is allowed
    assert refused(empty, car) == ()
    over = Team("T", None, 13, (TeamVehicle("car", weapons=(Fitting("heavy_machine_gun", "front"),)),))
    why = refused(Team("T", None, 13, (TeamVehicle("car"),)), over)
    assert [(p.rule, p.page) for p in why] == [("team over its Cans: 15 of 13 with this vehicle", "p.64")]


def test_builder_logic_buys_refuses_undoes_and_counts() -> None:
    b = TeamBuilder()
    assert b.buy("vehicle", "buggy")
    assert b.buy("weapon", "machine_gun", "front")
    assert not b.buy("perk", "slipstream")
    assert [(p.rule, p.page) for p in b.refusal] == [("Slipstream: perks need a sponsor (its perk classes)", "p.64")]
    assert b.message == "Refused: Slipstream: perks need a sponsor (its perk classes) (p.64)"
    assert b.vehicle_rows() == ["Buggy: 8 Cans, slots 1/2"]
    assert b.report_line() == "8 of 50 Cans, 1 vehicle: legal"
    b.rename("Dust")
    b.rename("Dusty")  # typed letter by letter: one change for Undo
    assert b.undo() and b.team.name == "New team"
    assert b.undo() and b.team.vehicles[0].weapons == ()


def test_build_a_team_by_clicks_see_a_refusal_save_it_and_race_with_it(data: Path) -> None:
    app = _app()
    post_key(pygame.K_t, pygame.KMOD_LCTRL)
    pump(app)
    screen = _builder(app)
    assert app.title == "TEAM BUILDER"
    # a Car from the vehicles
    _click_text(app, "Car: 12 Cans, 2 slots")
    _click_text(app, "Buy this vehicle")
    b = app.team_builder
    assert [v.type for v in b.team.vehicles] == ["car"]
    assert screen.centre_of("Car: 12 Cans, slots 0/2")  # the vehicle's Cans and slots, shown as they change
    # a Heavy Machine Gun, facing front (its first facing) by default
    _click_text(app, "Weapons")
    _click_text(app, "Heavy Machine Gun: 3 Cans, 1 slot")
    _click_text(app, "Buy this weapon for Car")
    assert b.team.vehicles[0].weapons == (Fitting("heavy_machine_gun", "front"),)
    assert screen.centre_of("Car: 15 Cans, slots 1/2")
    assert screen.centre_of("15 of 50 Cans, 1 vehicle: legal")
    # a 125mm Cannon takes 3 slots: refused, with the rule and its page
    _click_text(app, "125mm Cannon: 6 Cans, 3 slots")
    _click_text(app, "Buy this weapon for Car")
    assert len(b.team.vehicles[0].weapons) == 1
    assert b.refusal and b.refusal[0].page == "p.65"
    assert "Refused: build slots: 4 used, 2 available (p.65)" in app.status
    # the team's name, typed into its field
    _click_text(app, "New team")  # the name field
    for _ in range(len("New team")):
        post_key(pygame.K_BACKSPACE)
    pump(app)
    _type(app, "Rust")
    assert b.team.name == "Rust"
    # Ctrl+S asks where, in the data folder's teams folder
    post_key(pygame.K_ESCAPE)  # Esc leaves the text field, the builder stays
    pump(app)
    assert app.screen is screen and not screen.typing()
    post_key(pygame.K_s, pygame.KMOD_LCTRL)
    pump(app)
    assert app.ctx.dialogs.title == "Save the team as"
    click_dialog(app, "OK")
    saved = data / "teams" / "rust.toml"
    assert load_team(saved) == b.team and not b.unsaved
    assert app.unsaved_work() == ""
    # play a Street Race with it: the New game screen seats it, a bot builds the other team
    _click_text(app, "Play a race with it")
    assert isinstance(app.screen, NewGameScreen)
    assert app.screen.state.seats[0].team == b.team and app.screen.state.seats[1].bot
    _click_text(app, "Start the game")
    new = app.successor
    assert new is not None and new.game is not None
    ctl = new.game.ctl
    names = [v.name for v in ctl.state.vehicles if v.player == 0]
    assert len(names) == 1 and names[0].startswith("Car")
    assert ctl.state.vehicle(next(v.id for v in ctl.state.vehicles if v.player == 0)).weapons[0].weapon == \
        "heavy_machine_gun"
    _play_by_clicks(new, decisions=4)


def _play_by_clicks(app: App, decisions: int) -> None:
    """Play ``decisions`` of the person's decisions with real clicks (a panel button, or a template dragged from
    the tray onto the car); the bot seat plays on its own in between."""
    assert app.game is not None
    ctl = app.game.ctl
    made = 0
    for _ in range(2000):
        if made >= decisions or ctl.over():
            break
        app.update(1 / 30)
        if ctl.is_bot_turn() or ctl.anim.busy:
            continue
        before = len(ctl.game.decisions)
        d = Bot().decide(ctl.game)
        app.draw(pygame.Surface(SIZE))
        if isinstance(d, ChooseTemplate):
            vid = ctl.prompt.vehicle_id  # type: ignore[union-attr]
            drag(app, app.game.tray_cell_centre(d.template), app.game.vehicle_screen_pos(vid))
            post_key(pygame.K_RETURN)
            pump(app)
        else:
            try:
                rect = pygame.Rect(app.game.panel().button(Decide(d)).rect)
            except (KeyError, ValueError, LookupError):
                assert ctl.decide(d)
            else:
                click(app, rect.center)
        assert len(ctl.game.decisions) > before
        made += 1
    assert made >= decisions


def test_new_game_refuses_an_illegal_team_with_its_page(data: Path) -> None:
    big = Team("Big", None, 100, (TeamVehicle("performance_car", weapons=(Fitting("minigun", "turret"),)),
                                  TeamVehicle("car")))
    (data / "teams").mkdir(parents=True)
    save_team(big, data / "teams" / "big.toml")
    state = NewGame(bundled_scenario("street_race.toml"))
    assert state.open_team(0, data / "teams" / "big.toml")
    state.cans = 20
    with pytest.raises(ValueError, match=r"Red Team's team Big is not legal at 20 Cans: .*\(p\.64\)"):
        state.scenario_for(1)
    assert state.scenario_for(1, house_teams=True).teams["red"] == big  # the players agreed to play it
    state.cans = 50
    scenario = state.scenario_for(1)
    assert scenario.teams["red"] == big


def test_an_illegal_team_is_played_only_after_a_question(data: Path) -> None:
    app = _app()
    big = Team("Big", None, 100, (TeamVehicle("performance_car", weapons=(Fitting("minigun", "turret"),)),))
    screen = app.open_new_game(bundled_scenario("street_race.toml"))
    screen.state.use_team(0, big, "Team file: big.toml")
    screen.state.cans = 20
    screen.rebuild()
    _click_text(app, "Start the game")
    assert app.successor is None and app.ctx.dialogs.title == "A team breaks a rule"
    assert "(p.64)" in screen.state.refusal
    click_dialog(app, "Start anyway")
    assert app.successor is not None and app.successor.game is not None


def test_new_game_screen_by_clicks_bots_build_both_teams(data: Path) -> None:
    app = _app()
    app.files.new_game()
    click_dialog(app, "Death Race")
    click_dialog(app, "Choose each seat's team and player...")
    assert isinstance(app.screen, NewGameScreen)
    _click_text(app, "The scenario's own cars")  # the first seat's team drop-down opens
    _click_text(app, "Bots build: Rutherford")
    assert app.screen.state.seats[0].source == "bots" and app.screen.state.seats[0].sponsor == "rutherford"
    _click_text(app, "Start the game")
    new = app.successor
    assert new is not None and new.game is not None
    state = new.game.ctl.state
    red = [v.id for v in state.vehicles if v.player == 0]
    assert red and all(state.loadout(vid).sponsor == "rutherford" for vid in red)
    assert new.game.ctl.bots == {1}


def test_builder_png_shows_the_team(data: Path, tmp_path: Path) -> None:
    app = _app()
    screen = app.open_team_builder()
    b = app.team_builder
    b.set_sponsor("miyazaki")
    assert b.buy("vehicle", "buggy") and b.buy("weapon", "machine_gun", "front") and b.buy("perk", "evasive")
    screen.rebuild()
    app.update(1 / 60)
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "builder.png"))
    # the builder covers the table: its background, not the table's green, in the middle
    assert tuple(surface.get_at((SIZE[0] // 2, SIZE[1] // 2)))[:3] != (96, 104, 88)
    assert screen.centre_of("Perk Evasive: 5 Cans")


def test_file_menu_opens_the_builder_and_a_team_file(data: Path) -> None:
    (data / "teams").mkdir(parents=True)
    team = Team("Speedy", None, 30, (TeamVehicle("buggy", "Zip"),))
    save_team(team, data / "teams" / "speedy.toml")
    app = _app()
    click(app, next(b for b in app.buttons() if b.label == "File").rect[:2])
    click_dialog(app, "Team builder...  (Ctrl+T)")
    assert isinstance(app.screen, TeamBuilderScreen)
    post_key(pygame.K_o, pygame.KMOD_LCTRL)
    pump(app)
    assert app.ctx.dialogs.title == "Open a team"
    app.ctx.dialogs.close()
    app.files._open_team_now(data / "teams" / "speedy.toml")  # as a pick in that dialog does
    assert app.team_builder.team == team and app.team_builder.path == data / "teams" / "speedy.toml"
    post_key(pygame.K_ESCAPE)
    pump(app)
    assert app.screen is None and app.title == "FREE TABLE"


def test_gaslands_team_edit_renders_the_builder(data: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from simulator.cli import main

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "teams" / "rust_buckets.toml"
    out = tmp_path / "builder.png"
    assert main(["team", "edit", str(fixture), "--render", str(out)]) == 0
    assert pygame.image.load(str(out)).get_size() == (1400, 900)
    bad = tmp_path / "bad.toml"
    bad.write_text('[team]\nsponsor = "Nobody"\n', encoding="utf-8")
    assert main(["team", "edit", str(bad), "--render", str(out)]) == 2
    assert "bad.toml" in capsys.readouterr().err


def test_a_seat_builds_its_team_in_the_builder_and_comes_back(data: Path) -> None:
    app = _app()
    app.open_new_game(bundled_scenario("street_race.toml"))
    _click_text(app, "Build a team...")
    screen = _builder(app)
    b = app.team_builder
    assert b.buy("vehicle", "war_rig")
    screen.kind, screen.pick, screen.facing = "weapon", "machine_gun", "front"
    screen.rebuild()  # a War Rig's weapons sit on the cab unless the player picks the trailer
    _click_text(app, "Buy this weapon for War Rig")
    assert b.team.vehicles[0].weapons == (Fitting("machine_gun", "front", "cab"),)
    _click_text(app, "Use this team")
    assert isinstance(app.screen, NewGameScreen)
    seat = app.screen.state.seats[0]
    assert seat.source == "team" and seat.team == b.team
    assert "War Rig" not in app.screen.state.summary(0) and "1 vehicle, legal" in app.screen.state.summary(0)


def test_the_new_game_screen_switches_race_and_keeps_the_seats(data: Path) -> None:
    app = _app()
    app.open_new_game(bundled_scenario("street_race.toml"))
    assert isinstance(app.screen, NewGameScreen)
    app.screen.state.set_seat(0, source="bots", sponsor="slime")
    app.screen.rebuild()
    _click_text(app, "Street Race")
    _click_text(app, "Death Race")
    state = app.screen.state
    assert state.scenario.name == "Death Race" and state.path.name == "death_race.toml"
    assert state.seats[0].sponsor == "slime" and state.seats[1].bot


def test_bots_build_a_legal_team_and_new_team_starts_again(data: Path) -> None:
    app = _app()
    screen = app.open_team_builder()
    b = app.team_builder
    b.set_sponsor("idris")
    b.set_cans(40)
    screen.rebuild()
    _click_text(app, "Bots build it")
    assert b.team.vehicles and check(b.team).legal and check(b.team).cans <= 40 and b.team.sponsor == "idris"
    assert b.unsaved
    _click_text(app, "Start a new team")
    assert app.ctx.dialogs.title == "Unsaved changes"
    click_dialog(app, "New team")
    assert b.team == Team("New team", "idris", 40, ()) and not b.unsaved and b.path is None
    assert b.undo() and b.team.vehicles


def test_a_team_built_in_the_window_races_to_the_end_with_its_perks_in_the_log(data: Path) -> None:
    """Issue 10's "done when": a team from the builder plays a Street Race to the end, its perks firing (shown in
    the log with their pages). Bots drive both seats here; the team is unsaved and the race starts without a
    question (the next window keeps the team being built)."""
    from simulator.gaslands.events import PerkUsed

    fired: list[PerkUsed] = []
    for seed in range(1, 6):
        app = _app()
        b = app.team_builder
        b.set_sponsor("miyazaki")
        assert b.bots_build(seed) and b.unsaved
        screen = app.open_new_game(bundled_scenario("street_race.toml"), b.team)
        screen.seed = seed
        screen.state.set_seat(0, bot=True)
        screen.rebuild()
        _click_text(app, "Start the game")
        new = app.successor
        assert new is not None and new.game is not None and new.team_builder is b
        ctl = new.game.ctl
        ctl.bot_delay_s = 0.0
        for _ in range(20000):
            if ctl.over():
                break
            new.update(0.25)
        assert ctl.over()
        red = {v.id for v in ctl.state.vehicles if v.player == 0}
        fired = [e for e in ctl.game.log if isinstance(e, PerkUsed) and e.vehicle in red]
        if fired:
            break
    assert fired, "no perk of the built team fired in five races"
    assert all(e.page.startswith("p.") for e in fired)


def test_a_row_chosen_low_in_a_scrolled_list_stays_where_it_was(data: Path) -> None:
    """Every choice rebuilds the widgets; a scrolled list keeps its place (the row clicked does not jump)."""
    app = _app()
    screen = app.open_team_builder()
    screen.kind = "weapon"
    screen.rebuild()
    app.update(1 / 60)
    catalogue = next(el for el, name in screen._lists.items() if name == "catalogue")
    catalogue.scroll_bar.set_scroll_from_start_percentage(0.5)
    for _ in range(3):
        app.update(1 / 60)
    before = screen.centre_of("Mine Dropper: 1 Can, 1 slot")
    click(app, before)
    assert screen.pick == "mine_dropper" and screen.facing == "rear"
    app.update(1 / 60)
    assert screen.centre_of("Mine Dropper: 1 Can, 1 slot") == before
    post_key(pygame.K_RETURN)  # Enter buys it: no vehicle yet, so the builder says to buy one first (p.64)
    pump(app)
    assert "Buy a vehicle first (p.64)" in app.status


def test_a_seat_playing_a_team_goes_by_the_teams_name(data: Path) -> None:
    vipers = Team("Vipers", None, 50, (TeamVehicle("car"),))
    state = NewGame(bundled_scenario("street_race.toml"))
    state.use_team(0, vipers, "Team file: vipers.toml")
    names = {p.id: p.name for p in state.scenario_for(1).spec.player}
    assert names["red"] == "Vipers" and names["blue"] == "Blue Team"
    state.use_team(1, vipers, "Team file: vipers.toml")  # both seats play the same file
    names = {p.id: p.name for p in state.scenario_for(1).spec.player}
    assert names == {"red": "Vipers (Red Team)", "blue": "Vipers (Blue Team)"}


def test_a_double_click_on_the_catalogue_buys(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import simulator.ui.team_builder as team_builder

    monkeypatch.setattr(team_builder, "DOUBLE_CLICK_MS", 60_000)  # a loaded machine may take 0.5 s between clicks
    app = _app()
    screen = app.open_team_builder()
    _click_text(app, "Car: 12 Cans, 2 slots")
    assert screen.pick == "car" and app.team_builder.team.vehicles == ()  # one click picks
    _click_text(app, "Car: 12 Cans, 2 slots")  # the second click of a double click
    assert [v.type for v in app.team_builder.team.vehicles] == ["car"]
    screen._pick_press = (screen._pick_press[0], screen._pick_press[1] - 100_000, screen._press[2])  # next press: long after
    _click_text(app, "Car: 12 Cans, 2 slots")  # a click on the picked row long after: keeps the pick, buys nothing
    assert [v.type for v in app.team_builder.team.vehicles] == ["car"] and screen.pick == "car"
    _click_text(app, "Buy this vehicle")  # still picked: the button buys it
    assert [v.type for v in app.team_builder.team.vehicles] == ["car", "car"]
