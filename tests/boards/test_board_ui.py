"""Headless front-end tests for the board window: real pygame mouse and key events posted to the App."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from simulator.ui.board_app import (  # noqa: E402
    HELP_DOOM,
    RED,
    App,
    DoomView,
    GulchView,
    glyph_crosshair,
    glyph_wounded,
    render_board,
)

ROOT = Path(__file__).resolve().parents[2]
GULCH = ROOT / "scenarios" / "slaughter_gulch.toml"
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


def gulch() -> tuple[App, GulchView]:
    app = App(GULCH)
    assert isinstance(app.view, GulchView)
    return app, app.view


def doom() -> tuple[App, DoomView]:
    app = App(DOOM)
    assert isinstance(app.view, DoomView)
    return app, app.view


# ---- Slaughter Gulch


def test_drag_a_dude_to_a_legal_space() -> None:
    app, view = gulch()
    drag(app, view.token_centres()["ranger-1"], view.location_rect("doctors_office").center)
    assert view.town.dude("ranger-1").at == "doctors_office"
    assert "moved" in view.message


def test_illegal_drop_snaps_back_with_the_reason() -> None:
    app, view = gulch()
    drag(app, view.token_centres()["ranger-1"], view.location_rect("graveyard").center)
    assert view.town.dude("ranger-1").at == "street:0:2"
    assert view.message.startswith("Illegal") and "Movement" in view.message


def test_from_home_only_a_street_square() -> None:
    app, view = gulch()
    drag(app, view.token_centres()["ranger-3"], view.location_rect("bank").center)
    assert view.town.dude("ranger-3").at == "home" and "Home Movement" in view.message
    drag(app, view.token_centres()["ranger-3"], view.location_rect("street:1:4").center)
    assert view.town.dude("ranger-3").at == "street:1:4"


def test_run_key_allows_four_spaces_and_undo_restores() -> None:
    app, view = gulch()
    key(app, pygame.K_r)
    drag(app, view.token_centres()["huckster-2"], view.location_rect("street:0:4").center)
    assert view.town.dude("huckster-2").at == "street:0:4"
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert view.town.dude("huckster-2").at == "street:0:0"


def test_click_selects_and_escape_cancels() -> None:
    app, view = gulch()
    click(app, view.token_centres()["ranger-1"])
    assert view.selected == "ranger-1" and view.town.dude("ranger-1").at == "street:0:2"
    key(app, pygame.K_ESCAPE)
    assert view.selected is None


def test_planning_mode_hides_then_reveals_together() -> None:
    app, view = gulch()
    key(app, pygame.K_p)
    assert view.curtain and view.planning[0] == "texas_rangers"
    key(app, pygame.K_RETURN)                         # lift the curtain
    drag(app, view.token_centres()["ranger-1"], view.location_rect("street:0:3").center)
    assert view.town.dude("ranger-1").at == "street:0:2"          # planned, not moved
    assert view.plans["ranger-1"].to == "street:0:3"
    key(app, pygame.K_RETURN)                         # pass to the Agency
    assert view.curtain and view.planning[0] == "agency"
    key(app, pygame.K_RETURN)
    drag(app, view.token_centres()["ranger-2"], view.location_rect("street:0:4").center)
    assert "ranger-2" not in view.plans and "turn to plan" in view.message
    drag(app, view.token_centres()["agent-1"], view.location_rect("street:1:4").center)
    for _ in range(5):                                # agency passes; blessed, hucksters: lift and pass
        key(app, pygame.K_RETURN)
    assert not view.planning
    assert view.town.dude("ranger-1").at == "street:0:3" and view.town.dude("agent-1").at == "street:1:4"


def test_end_round_moves_the_deputy() -> None:
    app, view = gulch()
    key(app, pygame.K_e)
    assert view.town.deputy == "rail_station"


def test_help_overlay_toggles() -> None:
    app, _ = gulch()
    key(app, pygame.K_h)
    assert app.show_help
    key(app, pygame.K_ESCAPE)
    assert not app.show_help
    key(app, pygame.K_F1)
    assert app.show_help


# ---- Doomtown


def test_doomtown_free_move_from_home() -> None:
    app, view = doom()
    drag(app, view.token_centre("nate"), view.square_rect().center)
    nate = view.town.dude("nate")
    assert nate.at == "town_square" and not nate.booted and "free" in view.message


def test_doomtown_move_that_boots() -> None:
    app, view = doom()
    drag(app, view.token_centre("nate"), view.location_rect("sunny-side-hotel").center)
    assert view.town.dude("nate").at == "sunny-side-hotel" and view.town.dude("nate").booted


def test_doomtown_booted_dude_is_refused() -> None:
    app, view = doom()
    drag(app, view.token_centre("perriwinkle"), view.square_rect().center)
    assert view.town.dude("perriwinkle").at == "dispatch-office"
    assert view.message.startswith("Refused") and "booted" in view.message


def test_drag_preview_shows_the_cost() -> None:
    app, view = doom()
    start = view.token_centre("tc")
    send(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
         pygame.event.Event(pygame.MOUSEMOTION, pos=view.location_rect("bob-home").center, rel=(1, 1),
                            buttons=(1, 0, 0)))
    assert view.preview == "boots"
    send(app, pygame.event.Event(pygame.MOUSEMOTION, pos=view.location_rect("1st-bank").center, rel=(1, 1),
                                 buttons=(1, 0, 0)))
    assert view.preview == "free"


def test_destroy_closes_the_row_and_add_extends_it() -> None:
    app, view = doom()
    click(app, (view.location_rect("1st-bank").centerx, view.location_rect("1st-bank").bottom - 10))
    assert view.selected_deed == "1st-bank"
    key(app, pygame.K_d)
    assert view.town.street_of("alice").locations == ("dispatch-office", "alice-home", "general-store")
    assert view.town.dude("gabriel").at == "alice-home" and view.town.dude("gabriel").booted
    _, left, _ = view._row_rects(1)
    click(app, left.center)
    assert view.town.street_of("alice").locations[0].startswith("new-deed")
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert "1st-bank" in view.town.street_of("alice").locations


def test_job_target_highlights_the_posses() -> None:
    app, view = doom()
    click(app, view.token_centre("nate"))
    key(app, pygame.K_j)
    click(app, (view.location_rect("1st-bank").centerx, view.location_rect("1st-bank").bottom - 10))
    assert view.posses is not None
    assert [j.dude for j in view.posses.target_side] == ["erik", "holmes", "gabriel"]
    assert view._posse_roles()["gabriel"] == "target"
    key(app, pygame.K_ESCAPE)
    assert view.posses is None


def test_call_out_needs_the_same_location() -> None:
    app, view = doom()
    click(app, view.token_centre("tc"))
    key(app, pygame.K_c)
    click(app, view.token_centre("gabriel"))
    assert view.posses is None and "Not allowed" in view.message


def test_out_of_town_button_adds_a_deed_aside_and_undo_removes_it() -> None:
    app, view = doom()
    before = view.town.out_of_town
    click(app, view.out_of_town_buttons()["alice"].center)
    added = view.town.out_of_town[-1]
    assert view.town.out_of_town[:-1] == before and added.owner == "alice"
    assert added.id not in {d.id for d in before}
    assert view.location_at(view.location_rect(added.id).center) == added.id          # drawn aside
    assert all(added.id not in s.locations for s in view.town.streets)                # not in a street
    assert "adjacent to nothing" in view.message
    drag(app, view.token_centre("nate"), view.location_rect(added.id).center)         # boots: not adjacent
    assert view.town.dude("nate").at == added.id and view.town.dude("nate").booted
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert view.town.out_of_town == before


def test_o_key_adds_an_out_of_town_deed_for_the_selected_dudes_player() -> None:
    app, view = doom()
    key(app, pygame.K_o)                                          # nothing selected: explained, no change
    assert len(view.town.out_of_town) == 2 and "Select" in view.message
    click(app, view.token_centre("nate"))
    key(app, pygame.K_o)
    assert view.town.out_of_town[-1].owner == "bob"
    click(app, (view.location_rect("1st-bank").centerx, view.location_rect("1st-bank").bottom - 10))
    key(app, pygame.K_o)
    assert view.town.out_of_town[-1].owner == "alice"
    assert len({d.id for d in view.town.out_of_town}) == 4
    rects = [view.location_rect(d.id) for d in view.town.out_of_town]
    assert all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(r.bottom < min(b.top for b in view.out_of_town_buttons().values()) for r in rects)


def test_doom_help_lists_the_out_of_town_key() -> None:
    assert any(keys == "O" and "out-of-town" in words for keys, words in HELP_DOOM)


# ---- Slaughter Gulch legend


def test_wounded_marker_is_not_red_and_not_the_shooting_crosshair() -> None:
    wounded, crosshair = pygame.Surface((40, 40)), pygame.Surface((40, 40))
    for surface in (wounded, crosshair):
        surface.fill((0, 0, 0))
    glyph_wounded(wounded, (20, 20))
    glyph_crosshair(crosshair, (20, 20))
    reds = [sum(tuple(s.get_at((x, y)))[:3] == RED for x in range(40) for y in range(40)) for s in (wounded, crosshair)]
    assert reds[0] == 0 and reds[1] > 20


def test_legend_explains_every_marker_including_the_control_band() -> None:
    _, view = gulch()
    words = " ".join(view.LEGEND)
    for meaning in ("townsfolk", "Deputy", "selected", "wounded", "jail cell", "held", "move", "see", "shoot"):
        assert meaning in words
    surface = pygame.Surface((1280, 800))
    view.draw(surface)                                  # every legend glyph draws


# ---- rendering


@pytest.mark.parametrize("scenario", [GULCH, DOOM], ids=["slaughter_gulch", "doomtown"])
def test_render_writes_a_non_trivial_png(tmp_path: Path, scenario: Path) -> None:
    out = tmp_path / "board.png"
    render_board(scenario, out, (1280, 800))
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 800)
    colours = {tuple(image.get_at((x, y)))[:3] for x in range(0, 1280, 37) for y in range(0, 800, 23)}
    assert len(colours) > 8
    assert out.stat().st_size > 10_000


def test_every_view_draws_with_overlays(tmp_path: Path) -> None:
    for path in (GULCH, DOOM):
        app = App(path, (1024, 700))
        key(app, pygame.K_h)
        surface = pygame.Surface((1024, 700))
        app.update()
        app.draw(surface)
        assert surface.get_at((512, 350)) != surface.get_at((5, 5)) or app.show_help


def test_planning_survives_escape_and_undo_takes_back_a_plan() -> None:
    """Esc only deselects while planning; Ctrl+Z takes back the planner's last plan (QA findings)."""
    app, view = gulch()
    key(app, pygame.K_r)                              # Run before planning...
    key(app, pygame.K_p)
    assert not view.run                               # ...does not leak into the secret plans
    key(app, pygame.K_RETURN)
    drag(app, view.token_centres()["ranger-1"], view.location_rect("street:0:3").center)
    key(app, pygame.K_ESCAPE)
    assert view.planning and "ranger-1" in view.plans
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert view.planning and "ranger-1" not in view.plans
    key(app, pygame.K_r)                              # the Rangers plan a Run...
    key(app, pygame.K_RETURN)                         # ...and pass the screen on
    assert not view.run                               # the Agency does not see it
    key(app, pygame.K_p)
    assert not view.planning and not view.plans


def test_doomtown_sizes_each_street_by_its_length_and_names_fit(tmp_path: Path) -> None:
    app, view = doom()
    short_before = view._row_rects(0)[0][0].width
    for _ in range(6):  # a long street for Alice
        click(app, view._row_rects(1)[2].center)
    assert len(view.town.street_of("alice").locations) == 10
    short, long_ = view._row_rects(0)[0], view._row_rects(1)[0]
    assert short[0].width == short_before  # the short street keeps its size
    assert short[0].width > long_[0].width >= DoomView.MIN_CARD_W
    for cards in (short, long_):  # no card on another, all inside the board
        assert all(not a.colliderect(b) for i, a in enumerate(cards) for b in cards[i + 1:])
        assert all(view.area.contains(c) for c in cards)
    for dude_id, rect in view.token_rects().items():  # whole names, shrunk rather than cut
        label, size = view.token_label(view.town.dude(dude_id), rect.width - 8)
        assert label.startswith(view.name(dude_id)) and size >= 11
    surface = pygame.Surface(app.size)
    app.draw(surface)
    pygame.image.save(surface, str(tmp_path / "doomtown_long_street.png"))


def test_out_of_town_button_stays_put_so_a_second_click_adds_another_strike() -> None:
    app, view = doom()
    button = view.out_of_town_buttons()["alice"].copy()
    before = len(view.town.out_of_town)
    click(app, button.center)
    assert view.out_of_town_buttons()["alice"] == button
    click(app, button.center)
    assert len(view.town.out_of_town) == before + 2 and view.selected_deed is None
    for _ in range(6):
        click(app, button.center)
    assert len(view.town.out_of_town) == before + 8 and view.out_of_town_buttons()["alice"] == button
    rects = [view.location_rect(d.id) for d in view.town.out_of_town]
    assert all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(r.bottom < button.top and view.aside.contains(r) for r in rects)
