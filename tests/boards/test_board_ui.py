"""Headless window tests for both boards: real pygame mouse and key events posted to the App.

A whole two-outfit Slaughter Gulch game (setup, a full round, the end and the
score) and the Doomtown "Job and Shootout Example" are carried out with clicks
and drags only, as a player would.
"""

from __future__ import annotations

import json
import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from simulator.boards import gulch_round as gr  # noqa: E402
from simulator.boards.board_play import BoardPlay  # noqa: E402
from simulator.ui.board_app import (  # noqa: E402
    HELP_DOOM,
    HELP_GULCH,
    RED,
    App,
    DoomView,
    GulchView,
    glyph_crosshair,
    glyph_wounded,
    render_board,
)
from simulator.ui.boards.common import HELP_COMMON  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GULCH = ROOT / "scenarios" / "slaughter_gulch.toml"
GULCH2 = ROOT / "scenarios" / "slaughter_gulch_two_players.toml"
DOOM = ROOT / "scenarios" / "doomtown.toml"


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()
    pygame.display.set_mode((1, 1))


def send(app: App, *events: pygame.event.Event) -> None:
    """Post events on pygame's queue, then feed what comes back to the app, as the window loop does."""
    pygame.event.clear()
    for e in events:
        pygame.event.post(e)
    for e in pygame.event.get():
        app.handle_event(e)


def drag(app: App, start: tuple[int, int], end: tuple[int, int]) -> None:
    mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    send(app,
         pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
         pygame.event.Event(pygame.MOUSEMOTION, pos=mid, rel=(1, 1), buttons=(1, 0, 0)),
         pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(1, 1), buttons=(1, 0, 0)),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))


def key(app: App, k: int, mod: int = 0) -> None:
    send(app, pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod))


def click(app: App, pos: tuple[int, int]) -> None:
    send(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def press(app: App, label: str) -> None:
    """Click the enabled panel button whose label starts with ``label``."""
    app.view.build_panel()
    found = [b for b in app.view.panel.buttons if b.label.startswith(label) and b.enabled and not b.plain]
    assert found, f"no button {label!r}: {[b.label for b in app.view.panel.buttons]} ({app.view.message})"
    click(app, found[0].rect.center)


def labels(app: App) -> list[str]:
    app.view.build_panel()
    return [b.label for b in app.view.panel.buttons if b.enabled and not b.plain]


def gulch(path: Path = GULCH) -> tuple[App, GulchView]:
    app = App(path)
    assert isinstance(app.view, GulchView)
    app.view.rng = random.Random(7)
    return app, app.view


def doom() -> tuple[App, DoomView]:
    app = App(DOOM)
    assert isinstance(app.view, DoomView)
    return app, app.view


def card(view: DoomView, location: str) -> tuple[int, int]:
    """A point on a Doomtown card clear of the dude tokens."""
    rect = view.location_rect(location)
    return rect.centerx, rect.bottom - 8


# ---- Slaughter Gulch: a whole two-outfit game


def lift_curtain(app: App, view: GulchView) -> None:
    assert view.curtain
    click(app, view.board_rect.center)
    assert not view.curtain


def test_a_two_outfit_game_from_the_window_to_its_end(tmp_path: Path) -> None:
    app, view = gulch(GULCH2)
    press(app, "Roll for the game's end")
    assert view.state.end_condition is not None
    # Setup: each outfit drags three set-aside dudes onto street squares behind its screen.
    lift_curtain(app, view)
    for i, square in enumerate(("street:0:0", "street:0:1", "street:1:1")):
        drag(app, view.token_centres()[f"ranger-{i + 1}"], view.location_rect(square).center)
    assert view.town.dude("ranger-1").at == "aside"                          # secret until the reveal
    press(app, "Done: pass the screen")
    lift_curtain(app, view)
    click(app, view.token_centres()["ranger-4"])
    assert view.selected is None and "not theirs" in view.message           # not the Hucksters' dude
    for i, square in enumerate(("street:0:2", "street:1:2", "street:1:0")):
        drag(app, view.token_centres()[f"huckster-{i + 1}"], view.location_rect(square).center)
    press(app, "Done: pass the screen")
    assert view.state.step == gr.Step.SPELLS and view.town.dude("huckster-2").at == "street:1:2"
    key(app, pygame.K_RETURN)                                               # step 1 done
    # Step 2: the Rangers walk ranger-1 into the General Store with a fight token; ranger-2 runs.
    lift_curtain(app, view)
    click(app, view.token_centres()["ranger-1"])
    click(app, view.location_rect("general_store").center)
    press(app, "fight")
    key(app, pygame.K_2)
    click(app, view.token_centres()["ranger-2"])
    press(app, "run")
    press(app, "Done: pass the screen")
    # The Hucksters: huckster-1 stays on street:0:2 with a fight token; huckster-3 walks home-wards.
    lift_curtain(app, view)
    click(app, view.token_centres()["huckster-1"])
    press(app, "fight")
    assert view.state.order_of("huckster-1") == gr.Order("street:0:2", "fight", 0)
    press(app, "Done: pass the screen")
    assert view.state.step == gr.Step.EVENTS and view.town.dude("ranger-1").at == "general_store"
    # Step 4: a coach brings one townsfolk.
    press(app, "+ coach arrival")
    press(app, "Events done")
    assert view.state.step == gr.Step.ACTIONS
    # Step 5: the General Store (disk 2) acts before the street.
    assert view.state.actor == "ranger-1"
    click(app, view.token_centres()["huckster-1"])                           # out of the door: in sight
    assert view.target == "huckster-1"
    press(app, "Hit: wounds")
    assert view.town.dude("huckster-1").wounded
    assert view.state.actor == "ranger-2"                                   # huckster-1 was hurt: no action
    click(app, view.location_rect("hotel_saloon").center)                   # the runner picks now: 3 spaces
    assert view.town.dude("ranger-2").at == "hotel_saloon"
    assert view.state.step == gr.Step.ARRIVALS
    press(app, "Roll 2d6")
    assert not view.state.arrivals and len(view.town.townsfolk) == 9
    press(app, "End the round")
    assert view.state.round == 2
    # Round 2: the Rangers complete their fourth objective (the rolled end: 3), the round is played out,
    # and the game ends.
    assert view.state.end_condition == 3
    for _ in range(4):
        app.view.build_panel()
        buttons = app.view.panel.buttons
        plus = buttons[[b.label for b in buttons].index("obj -") + 1]
        click(app, plus.rect.center)
    assert view.state.outfit("texas_rangers").objectives == 4
    for _ in range(2):
        if view.state.step == gr.Step.SPELLS:
            key(app, pygame.K_RETURN)
    for _ in range(2):
        lift_curtain(app, view)
        key(app, pygame.K_RETURN)
    key(app, pygame.K_RETURN)                                               # events done; nobody acts
    key(app, pygame.K_RETURN)                                               # end the round
    assert view.state.step == gr.Step.OVER
    assert "Mayor of Slaughter Gulch" in view.play.log()[-1]
    view.build_panel()
    assert any("Mayor" in line for _, line, _, _ in view.panel.notes)
    surface = pygame.Surface(app.size)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "gulch_over.png"))


def test_orders_stay_secret_and_undo_never_crosses_a_screen() -> None:
    app, view = gulch()
    key(app, pygame.K_RETURN)                                                # step 1 done
    lift_curtain(app, view)
    click(app, view.token_centres()["ranger-1"])
    click(app, view.location_rect("street:0:3").center)
    assert view.town.dude("ranger-1").at == "street:0:2"                    # planned, not moved
    key(app, pygame.K_ESCAPE)
    assert view.state.order_of("ranger-1") is not None                      # Esc keeps the plan
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert view.state.order_of("ranger-1") is None                          # undo takes it back
    click(app, view.token_centres()["ranger-1"])
    click(app, view.location_rect("street:0:3").center)
    press(app, "Done: pass the screen")
    assert view.curtain and view.state.planning == "agency"
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert view.state.planning == "agency" and "secret" in view.message      # refused: would show the plan
    lift_curtain(app, view)
    drag(app, view.token_centres()["ranger-2"], view.location_rect("street:0:4").center)
    assert "not theirs" in view.message or view.state.order_of("ranger-2") is None


def test_an_illegal_plan_is_refused_with_the_rule() -> None:
    app, view = gulch()
    key(app, pygame.K_RETURN)
    lift_curtain(app, view)
    drag(app, view.token_centres()["ranger-1"], view.location_rect("graveyard").center)
    assert view.state.order_of("ranger-1") is None
    assert view.message.startswith("Refused") and "Movement" in view.message
    drag(app, view.token_centres()["ranger-3"], view.location_rect("bank").center)
    assert "Home Movement" in view.message
    drag(app, view.token_centres()["ranger-3"], view.location_rect("street:1:4").center)
    assert view.state.order_of("ranger-3") == gr.Order("street:1:4", "fight", 0)


def test_jail_bail_and_shooting_from_the_window() -> None:
    app, view = gulch()
    state = view.state
    # Put a ranger with a fight token in the Jail, where agent-3 sits in a cell.
    town = state.town.moved("ranger-1", "jail")
    view.play = BoardPlay(view.play.game, view.play.title, view.play.start_doc,
                          state._replace(town=town, outfits=tuple(o._replace(ghost_rock=9) for o in state.outfits)))
    key(app, pygame.K_RETURN)
    lift_curtain(app, view)
    click(app, view.token_centres()["ranger-1"])
    press(app, "fight")
    for _ in range(4):
        press(app, "Done: pass the screen")
        if view.curtain:
            lift_curtain(app, view)
    press(app, "Events done")
    assert view.state.actor == "ranger-1"
    press(app, "Bail")
    assert view.bail_die is not None
    press(app, "Pay")
    door = view.town.board.doors("jail")[0]
    assert view.town.dude("agent-3").at == door and view.town.dude("ranger-1").at == door


# ---- Doomtown: the Job and Shootout Example with the mouse


def test_job_and_shootout_example_from_the_window() -> None:
    app, view = doom()
    press(app, "Alice won lowball")
    key(app, pygame.K_RETURN)                                               # Upkeep done
    press(app, "Pass")
    assert view.state.to_act == "bob"
    click(app, view.token_centre("nate"))
    press(app, "Job")
    click(app, card(view, "1st-bank"))
    assert view.state.fight is not None and view.town.dude("nate").booted
    roles = view._roles()
    assert roles["reverend"] == "may:dealer:boots" and roles["tc"] == "may:dealer:boots"
    click(app, view.token_centre("reverend"))
    click(app, view.token_centre("tc"))
    press(app, "Posse ready")
    roles = view._roles()
    assert roles["gabriel"] == "may:target" and roles["erik"] == "may:target:boots"
    assert "klippstein" not in roles
    for dude in ("erik", "holmes", "gabriel"):
        click(app, view.token_centre(dude))
    key(app, pygame.K_RETURN)                                               # Posse ready
    assert view.state.fight is not None and view.state.fight.stage == "shootout"
    # Round one: Zarkov aced; Klippstein (booting) and Perriwinkle brought in; Gabriel sent home.
    click(app, view.token_centre("erik"))
    press(app, "Ace")
    click(app, view.token_centre("klippstein"))
    press(app, "... and boot")
    click(app, view.token_centre("perriwinkle"))
    press(app, "Card: join shootout")
    click(app, view.token_centre("gabriel"))
    press(app, "Send home booted")
    press(app, "Next round")
    # Round two: T.C. and the Reverend aced; Hunter runs home: the job fails.
    for dude in ("tc", "reverend"):
        click(app, view.token_centre(dude))
        press(app, "Ace")
    click(app, view.token_centre("nate"))
    press(app, "Send home booted")
    state = view.state
    assert state.fight is None and [d.id for d in state.boot_hill] == ["erik", "tc", "reverend"]
    at = {d.id: (d.at, d.booted) for d in state.town.dudes}
    assert at == {"nate": ("bob-home", True), "holmes": ("1st-bank", True), "gabriel": ("alice-home", True),
                  "klippstein": ("1st-bank", True), "perriwinkle": ("1st-bank", True)}
    assert any("fails" in line for line in view.play.log())


def test_a_doomtown_turn_to_nightfall() -> None:
    app, view = doom()
    press(app, "Bob won lowball")
    press(app, "Upkeep done")
    drag(app, view.token_centre("nate"), view.square_rect().center)        # home to Town Square: free
    assert view.town.dude("nate").at == "town_square" and not view.town.dude("nate").booted
    assert view.state.to_act == "alice"
    drag(app, view.token_centre("perriwinkle"), view.square_rect().center)
    assert view.message.startswith("Refused") and "booted" in view.message
    click(app, view.token_centre("gabriel"))
    key(app, pygame.K_c)
    click(app, view.token_centre("tc"))
    assert view.state.fight is None and "at the caller's location" in view.message  # T.C. is elsewhere
    _, left, _ = view._row_rects(1)
    click(app, left.center)                                                 # Alice shops a deed
    assert view.town.street_of("alice").locations[0].startswith("new-deed")
    key(app, pygame.K_p)
    key(app, pygame.K_p)
    assert view.state.phase.value == "nightfall"
    key(app, pygame.K_RETURN)
    assert view.state.turn == 2 and not any(d.booted for d in view.town.dudes)


def test_doomtown_call_out_refused_from_the_panel() -> None:
    app, view = doom()
    press(app, "Bob won lowball")
    press(app, "Upkeep done")
    drag(app, view.token_centre("tc"), view.location_rect("1st-bank").center)
    key(app, pygame.K_p)
    click(app, view.token_centre("tc"))
    press(app, "Call out")
    click(app, view.token_centre("gabriel"))
    assert view.state.fight is not None and view.state.fight.stage == "answer"
    press(app, "Refuse")
    assert view.town.dude("gabriel").at == "alice-home" and view.town.dude("gabriel").booted


def test_drag_preview_shows_the_cost() -> None:
    app, view = doom()
    press(app, "Bob won lowball")
    press(app, "Upkeep done")
    start = view.token_centre("tc")
    send(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
         pygame.event.Event(pygame.MOUSEMOTION, pos=view.location_rect("bob-home").center, rel=(1, 1),
                            buttons=(1, 0, 0)))
    assert view.preview == "boots"
    send(app, pygame.event.Event(pygame.MOUSEMOTION, pos=view.location_rect("1st-bank").center, rel=(1, 1),
                                 buttons=(1, 0, 0)))
    assert view.preview == "free"


def test_destroy_closes_the_row_and_control_points_show() -> None:
    app, view = doom()
    click(app, card(view, "1st-bank"))
    assert view.selected_deed == "1st-bank"
    press(app, "CP +")
    assert view.town.points_of("1st-bank") == 3
    key(app, pygame.K_d)
    assert view.town.street_of("alice").locations == ("dispatch-office", "alice-home", "general-store")
    assert view.town.dude("gabriel").at == "alice-home" and view.town.dude("gabriel").booted
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert "1st-bank" in view.town.street_of("alice").locations
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert "1st-bank" not in view.town.street_of("alice").locations


def test_doomtown_sizes_each_street_by_its_length_and_names_fit(tmp_path: Path) -> None:
    app, view = doom()
    press(app, "Alice won lowball")
    press(app, "Upkeep done")
    short_before = view._row_rects(0)[0][0].width
    for _ in range(6):                                                      # Alice shops, Bob passes
        click(app, view._row_rects(1)[2].center)
        key(app, pygame.K_p)
    assert len(view.town.street_of("alice").locations) == 10
    short, long_ = view._row_rects(0)[0], view._row_rects(1)[0]
    assert short[0].width == short_before
    assert short[0].width > long_[0].width >= DoomView.MIN_CARD_W
    for cards in (short, long_):
        assert all(not a.colliderect(b) for i, a in enumerate(cards) for b in cards[i + 1:])
        assert all(view.area.contains(c) for c in cards)
    for dude_id, rect in view.token_rects().items():
        label, size = view.token_label(view.town.dude(dude_id), rect.width - 8)
        assert label.startswith(view.name(dude_id)) and size >= 11
    surface = pygame.Surface(app.size)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "doomtown_long_street.png"))


# ---- both: help, saves, rendering


def test_help_lists_every_panel_control() -> None:
    gulch_help = " ".join(f"{k} {w}" for k, w in HELP_GULCH)
    for word in ("Setup", "step 2", "fight", "run", "Step 4", "Wound", "Step 5", "target", "dynamite", "2d6",
                 "End the round", "ghost rock", "number"):
        assert word in gulch_help, word
    doom_help = " ".join(f"{k} {w}" for k, w in HELP_DOOM)
    for word in ("lowball", "Upkeep", "Pass", "Nightfall", "call", "job", "join", "Ace", "Send home", "shop",
                 "destroys", "Control Points", "card move"):
        assert word.lower() in doom_help.lower(), word
    common = " ".join(f"{k} {w}" for k, w in HELP_COMMON)
    assert "Ctrl+Z" in common and "Ctrl+S" in common and "Ctrl+O" in common
    app, _ = gulch()
    key(app, pygame.K_h)
    assert app.show_help
    key(app, pygame.K_ESCAPE)
    assert not app.show_help


def test_every_change_is_autosaved_and_ctrl_s_ctrl_o_round_trip(tmp_path: Path) -> None:
    auto = tmp_path / "data" / "boards" / "doomtown_autosave.json"
    app = App(DOOM, autosave=auto, save_dir=tmp_path / "saves")
    press(app, "Bob won lowball")
    assert json.loads(auto.read_text())["actions"] == [{"kind": "lowball", "winner": "bob"}]
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    saved = list((tmp_path / "saves").glob("doomtown_*.json"))
    assert len(saved) == 1 and str(saved[0]) in app.view.message
    press(app, "Upkeep done")
    key(app, pygame.K_o, pygame.KMOD_CTRL)
    assert app.play.state.phase.value == "upkeep" and "Loaded" in app.view.message
    back = App(saved[0])
    assert back.play.state == app.play.state


def test_wounded_marker_is_not_red_and_not_the_shooting_crosshair() -> None:
    wounded, crosshair = pygame.Surface((40, 40)), pygame.Surface((40, 40))
    for surface in (wounded, crosshair):
        surface.fill((0, 0, 0))
    glyph_wounded(wounded, (20, 20))
    glyph_crosshair(crosshair, (20, 20))
    reds = [sum(tuple(s.get_at((x, y)))[:3] == RED for x in range(40) for y in range(40)) for s in (wounded, crosshair)]
    assert reds[0] == 0 and reds[1] > 20


@pytest.mark.parametrize("scenario", [GULCH, GULCH2, DOOM], ids=["slaughter_gulch", "two_players", "doomtown"])
def test_render_writes_a_non_trivial_png(tmp_path: Path, scenario: Path) -> None:
    out = tmp_path / "board.png"
    render_board(scenario, out, (1280, 800))
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 800)
    colours = {tuple(image.get_at((x, y)))[:3] for x in range(0, 1280, 37) for y in range(0, 800, 23)}
    assert len(colours) > 8
    assert out.stat().st_size > 10_000


def test_every_view_draws_with_overlays_at_a_small_size() -> None:
    for path in (GULCH, DOOM):
        app = App(path, (1100, 720))
        key(app, pygame.K_h)
        surface = pygame.Surface((1100, 720))
        app.draw(surface)
        assert app.show_help


MONKEY_KEYS = [pygame.K_RETURN, pygame.K_ESCAPE, pygame.K_f, pygame.K_b, pygame.K_a, pygame.K_r, pygame.K_n,
               pygame.K_2, pygame.K_c, pygame.K_j, pygame.K_p, pygame.K_m, pygame.K_d, pygame.K_z, pygame.K_y]


@pytest.mark.parametrize("scenario", [GULCH, GULCH2, DOOM], ids=["slaughter_gulch", "two_players", "doomtown"])
def test_random_clicks_drags_and_keys_never_break_the_window(scenario: Path) -> None:
    """A seeded monkey: 300 clicks (mostly on offered buttons), drags and keys; every frame draws, the save replays."""
    rng = random.Random(11)
    app = App(scenario)
    app.view.rng = random.Random(11)
    surface = pygame.Surface(app.size)
    w, h = app.size
    for i in range(300):
        roll = rng.random()
        if roll < 0.55:
            app.view.build_panel()
            offered = [b for b in app.view.panel.buttons if b.enabled and not b.plain]
            pos = rng.choice(offered).rect.center if offered and rng.random() < 0.6 else (rng.randrange(w),
                                                                                          rng.randrange(h))
            click(app, pos)
        elif roll < 0.8:
            drag(app, (rng.randrange(w), rng.randrange(h)), (rng.randrange(w), rng.randrange(h)))
        else:
            k = rng.choice(MONKEY_KEYS)
            key(app, k, pygame.KMOD_CTRL if k in (pygame.K_z, pygame.K_y) else 0)
        if i % 30 == 0:
            app.draw(surface)
    assert app.play.actions
    assert BoardPlay.from_json(json.loads(json.dumps(app.play.to_json())), "monkey").state == app.play.state


def test_ctrl_b_draws_the_sides_in_the_colour_blind_palette_and_keeps_the_setting() -> None:
    from simulator.ui import palette
    from simulator.ui.boards.common import PALETTE
    from simulator.ui.user_files import Settings

    okabe = {tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for _, h in palette.OKABE_ITO}
    try:
        for app in (gulch()[0], doom()[0]):
            view = app.view
            ids = view.side_ids()
            assert len(ids) >= 2 and list(view.colours.values()) == list(PALETTE[:len(ids)])
            key(app, pygame.K_b, pygame.KMOD_LCTRL)
            assert Settings.load().colour_blind and "on" in view.message
            safe = list(view.colours.values())
            assert set(safe) <= okabe and len(set(safe)) == len(ids)  # every side its own safe colour
            surface = pygame.Surface(app.size)
            app.draw(surface)
            drawn = {tuple(surface.get_at((x, y)))[:3] for x in range(0, app.size[0], 3)
                     for y in range(0, app.size[1], 3)}
            assert set(safe) & drawn  # the board is drawn in them
            key(app, pygame.K_b, pygame.KMOD_LCTRL)
            assert not Settings.load().colour_blind and list(view.colours.values()) == list(PALETTE[:len(ids)])
    finally:
        palette.use_colour_blind(False)
