"""The team builder screen: pick a sponsor, buy vehicles, weapons with a facing, upgrades and perks (p.63-65).

A full-window screen over the mode (the top bar and the status line stay):
on the left the team (name, sponsor, team size in Cans, the total, its
vehicles with their Cans and build slots), in the middle the chosen vehicle
(its statistics and what it was bought with), on the right the catalogue
(vehicles, weapons, upgrades or perks with their cost and slots; a facing and,
on a War Rig or a vehicle towing a trailer, a mount) and what the rules say.

Every change goes through :func:`simulator.gaslands.teams.refused`: a change
that breaks a rule of team building is refused and the screen says which rule
and its page, exactly as ``gaslands team check`` would; the screen never
checks a rule itself. Changes are undone with Ctrl+Z (or Undo). Team files are
opened and saved with the window's File menu and dialogs (Ctrl+O, Ctrl+S,
Ctrl+Shift+S), in the ``teams`` folder of the user's data folder.

The logic (:class:`TeamBuilder`) is plain state with one method per action; the
widgets (:class:`TeamBuilderScreen`, pygame_gui) call those methods and are
rebuilt from the state after each one.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import pygame

from simulator.errors import InputFileError
from simulator.gaslands.tables import (
    load_perk_classes,
    load_perks,
    load_sponsors,
    load_upgrades,
    load_vehicle_types,
    load_weapons,
)
from simulator.gaslands.teams import (
    FACINGS,
    Facing,
    Fitting,
    Mount,
    Team,
    TeamProblem,
    TeamVehicle,
    check,
    refused,
    statistics,
    upgrade_cost,
    upgrade_slots,
    vehicle_labels,
    weapon_cost,
    weapon_slots,
)
from simulator.ui import draw
from simulator.ui.layout import STATUS_PX, TOP_BAR_PX

Catalogue = Literal["vehicle", "weapon", "upgrade", "perk"]
CATALOGUES: tuple[Catalogue, ...] = ("vehicle", "weapon", "upgrade", "perk")
NO_FACING = "no facing"
NO_MOUNT = "no mount"
NO_SPONSOR = "No sponsor"
WINDOW_KEYS = (pygame.K_s, pygame.K_o, pygame.K_n, pygame.K_q, pygame.K_t)
"""Ctrl with these keys is the window's (File menu), even while typing in a field."""
HISTORY_MAX = 200
DOUBLE_CLICK_MS = 500
"""Two clicks on a catalogue row this close together buy it."""
"""How many changes Undo goes back."""


def options(rows: list[str]) -> list[str | tuple[str, str]]:
    """``rows`` as pygame_gui's lists and drop-downs take them."""
    return list(rows)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def route_screen_event(event: pygame.event.Event, typing: bool, leave_field: Callable[[], None]) -> bool | None:
    """What a full-window screen (team builder, New game) does first with ``event``: False for the window's
    (a click on the top bar, a File key with Ctrl), True when Esc left a text field (``leave_field`` called,
    its text kept), None for the screen to handle."""
    if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and event.pos[1] < TOP_BAR_PX:
        return False
    if event.type == pygame.KEYDOWN and event.mod & pygame.KMOD_CTRL and event.key in WINDOW_KEYS:
        return False
    if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and typing:
        leave_field()
        return True
    return None


@dataclass(frozen=True)
class Row:
    """One bought item of a vehicle as the screen lists it: its kind, index in its tuple, and the line shown."""

    kind: Literal["weapon", "upgrade", "perk"]
    index: int
    text: str


class TeamBuilder:
    """The team being built, with undo, the last refusal and the file it came from (see the module docstring)."""

    def __init__(self, team: Team | None = None, path: Path | None = None) -> None:
        self.team = team or Team("New team", None, 50, ())
        self.path = path
        self.saved = self.team if path is not None else Team("New team", None, 50, ())
        """The team as last saved or opened (unsaved changes: :attr:`team` differs)."""
        self.history: list[Team] = []
        self.selected: int | None = 0 if self.team.vehicles else None
        """The vehicle shown in the middle (its index), if any."""
        self.refusal: tuple[TeamProblem, ...] = ()
        """Why the last change was refused (empty: it was not)."""
        self.message = (f"{path.name}: {self.report_line()}." if path is not None and self.team.vehicles
                        else "Pick a sponsor, then buy vehicles from the list on the right.")
        self._typed = ""

    # ---------------------------------------------------------------- state
    @property
    def unsaved(self) -> bool:
        """Whether the team differs from its file (or, never saved, from an empty team)."""
        return self.team != self.saved

    @property
    def vehicle(self) -> TeamVehicle | None:
        """The vehicle shown in the middle."""
        if self.selected is None or not 0 <= self.selected < len(self.team.vehicles):
            return None
        return self.team.vehicles[self.selected]

    def report_line(self) -> str:
        """``"38 of 50 Cans, 2 vehicles: legal"`` (or the number of problems)."""
        r = check(self.team)
        verdict = "legal" if r.legal else _plural(len(r.problems), "problem")
        return f"{r.cans} of {r.limit} Cans, {_plural(len(self.team.vehicles), 'vehicle')}: {verdict}"

    def vehicle_rows(self) -> list[str]:
        """One line per vehicle: its name, type, Cans and build slots used of available."""
        report = check(self.team)
        out = []
        for v, r in zip(self.team.vehicles, report.vehicles, strict=True):
            kind = "" if not v.name else f" ({v.vehicle_type.name})"
            out.append(f"{r.name}{kind}: {r.cans} Cans, slots {r.slots_used}/{r.slots}")
        return out

    def item_rows(self) -> list[Row]:
        """What the shown vehicle was bought with: weapons (facing, mount, Cans), upgrades, perks."""
        v = self.vehicle
        if v is None:
            return []
        weapons, upgrades, perks = load_weapons(), load_upgrades(), load_perks()
        sponsor = self.team.sponsor_row
        out = []
        for i, w in enumerate(v.weapons):
            where = ", ".join(x for x in (w.facing, w.mount) if x)
            out.append(Row("weapon", i, f"{weapons[w.key].name}" + (f" ({where})" if where else "")
                           + f": {_plural(weapon_cost(v, i), 'Can')}, {_plural(weapon_slots(v, w), 'slot')}"))
        for i, u in enumerate(v.upgrades):
            where = ", ".join(x for x in (u.facing, u.mount) if x)
            out.append(Row("upgrade", i, f"{upgrades[u.key].name}" + (f" ({where})" if where else "")
                           + f": {_plural(upgrade_cost(u.key, sponsor), 'Can')}, {_plural(upgrade_slots(u, sponsor), 'slot')}"))
        for i, p in enumerate(v.perks):
            out.append(Row("perk", i, f"Perk {perks[p].name}: {_plural(perks[p].cost, 'Can')}"))
        return out

    def stats_line(self) -> str:
        """The shown vehicle's type, Hull, Handling, max Gear and Crew as built (upgrades and perks counted)."""
        v = self.vehicle
        if v is None:
            return "No vehicle yet: buy one on the right."
        s = statistics(v)
        return f"{v.vehicle_type.name}: Hull {s.hull}, Handling {s.handling}, Gear {s.max_gear}, Crew {s.crew}"

    def catalogue(self, kind: Catalogue) -> list[tuple[str, str]]:
        """What may be bought of ``kind``: (line shown, table key), with cost and slots; perks of the sponsor's
        classes first."""
        sponsor = self.team.sponsor_row
        if kind == "vehicle":
            return [(f"{t.name}: {t.cost} Cans, {_plural(t.build_slots, 'slot')}", k)
                    for k, t in load_vehicle_types().items()]
        if kind == "weapon":
            return [(f"{w.name}: {_plural(w.cost, 'Can')}, " + ("crew fired" if w.crew_fired else _plural(w.slots, "slot")), k)
                    for k, w in load_weapons().items()]
        if kind == "upgrade":
            return [(f"{u.name}: {_plural(upgrade_cost(k, sponsor), 'Can')}, {_plural(u.slots, 'slot')}", k)
                    for k, u in load_upgrades().items()]
        classes = load_perk_classes()
        own = sponsor.perk_classes if sponsor is not None else ()
        rows = sorted(load_perks().items(), key=lambda kv: kv[1].perk_class not in own)
        return [(f"{p.name}: {_plural(p.cost, 'Can')} ({classes[p.perk_class].name})", k) for k, p in rows]

    @staticmethod
    def default_facing(kind: Catalogue, key: str) -> Facing | None:
        """The facing a new item starts with: the first its table row allows (none for most upgrades)."""
        if kind == "weapon":
            facings = load_weapons()[key].facings
        elif kind == "upgrade":
            facings = load_upgrades()[key].facings
        else:
            return None
        first = facings[0] if facings else None
        return first if first in FACINGS else None

    # ---------------------------------------------------------------- changes
    def _change(self, after: Team, done: str) -> bool:
        """Apply ``after`` unless the rules refuse it; True if applied. The refusal is kept with its pages."""
        why = refused(self.team, after)
        if why:
            self.refusal = why
            self.message = "Refused: " + "; ".join(f"{p.rule} ({p.page})" for p in why)
            return False
        self.history = [*self.history, self.team][-HISTORY_MAX:]
        self.team, self.refusal, self.message, self._typed = after, (), done, ""
        return True

    def _set_vehicle(self, vehicle: TeamVehicle) -> Team:
        assert self.selected is not None
        vehicles = list(self.team.vehicles)
        vehicles[self.selected] = vehicle
        return replace(self.team, vehicles=tuple(vehicles))

    def buy(self, kind: Catalogue, key: str, facing: Facing | None = None, mount: Mount | None = None) -> bool:
        """Buy ``key`` of ``kind``: a vehicle for the team, or a weapon, upgrade or perk for the shown vehicle (with
        its ``facing`` and ``mount``). False (and :attr:`refusal` says why, with pages) if the rules refuse it."""
        if kind == "vehicle":
            name = load_vehicle_types()[key].name
            if self._change(replace(self.team, vehicles=(*self.team.vehicles, TeamVehicle(key))), f"Bought a {name}."):
                self.selected = len(self.team.vehicles) - 1
                return True
            return False
        v = self.vehicle
        if v is None:
            self.refusal = ()
            self.message = "Buy a vehicle first (p.64), then its weapons, upgrades and perks."
            return False
        fitting = Fitting(key, facing, mount)
        if kind == "weapon":
            after, name = replace(v, weapons=(*v.weapons, fitting)), load_weapons()[key].name
        elif kind == "upgrade":
            after, name = replace(v, upgrades=(*v.upgrades, fitting)), load_upgrades()[key].name
        else:
            after, name = replace(v, perks=(*v.perks, key)), load_perks()[key].name
        return self._change(self._set_vehicle(after), f"{name} bought for {v.label}.")

    def remove(self, row: Row) -> None:
        """Take ``row``'s item off the shown vehicle."""
        v = self.vehicle
        if v is None:
            return
        if row.kind == "weapon":
            after = replace(v, weapons=tuple(w for i, w in enumerate(v.weapons) if i != row.index))
        elif row.kind == "upgrade":
            after = replace(v, upgrades=tuple(u for i, u in enumerate(v.upgrades) if i != row.index))
        else:
            after = replace(v, perks=tuple(p for i, p in enumerate(v.perks) if i != row.index))
        self._force(self._set_vehicle(after), f"Removed {row.text.split(':')[0]} from {v.label}.")

    def remove_vehicle(self) -> None:
        """Sell the shown vehicle and all it was bought with."""
        if self.selected is None or self.vehicle is None:
            return
        label = vehicle_labels(self.team)[self.selected]
        vehicles = tuple(v for i, v in enumerate(self.team.vehicles) if i != self.selected)
        self._force(replace(self.team, vehicles=vehicles), f"Removed {label}.")
        self.selected = min(self.selected, len(vehicles) - 1) if vehicles else None

    def _force(self, after: Team, done: str, typed: str = "") -> None:
        """A change the rules never refuse (selling, renaming, another sponsor or size): problems are listed.
        ``typed``: the text field it was typed in (letters typed one after another are one change for Undo)."""
        if not typed or typed != self._typed:
            self.history = [*self.history, self.team][-HISTORY_MAX:]
        self._typed = typed
        self.team, self.refusal, self.message = after, (), done

    def set_sponsor(self, sponsor: str | None) -> None:
        """Another sponsor (None: none); what it no longer allows is listed as problems, not removed."""
        if sponsor != self.team.sponsor:
            name = load_sponsors()[sponsor].name if sponsor else "no sponsor"
            self._force(replace(self.team, sponsor=sponsor), f"Sponsor: {name}.")

    def set_cans(self, cans: int) -> None:
        """Another team size in Cans (1 to 10,000)."""
        cans = max(1, min(10_000, cans))
        if cans != self.team.cans:
            self._force(replace(self.team, cans=cans), f"Team size {cans} Cans.", "cans")

    def rename(self, name: str) -> None:
        """The team's name."""
        if name != self.team.name:
            self._force(replace(self.team, name=name[:100]), f"Team name: {name}.", "name")

    def rename_vehicle(self, name: str) -> None:
        """The shown vehicle's name (empty: its type's name)."""
        v = self.vehicle
        if v is not None and name != v.name:
            self._force(self._set_vehicle(replace(v, name=name[:100])), f"Vehicle name: {name or v.vehicle_type.name}.",
                        f"vehicle {self.selected}")

    def undo(self) -> bool:
        """Go back one change; False when there is none."""
        if not self.history:
            self.message = "Nothing to undo."
            return False
        self.team, self.history = self.history[-1], self.history[:-1]
        self.refusal, self._typed = (), ""
        if self.selected is not None and self.selected >= len(self.team.vehicles):
            self.selected = len(self.team.vehicles) - 1 if self.team.vehicles else None
        if self.selected is None and self.team.vehicles:
            self.selected = 0
        self.message = "Undone."
        return True

    def new_team(self) -> None:
        """An empty team of the same sponsor and size, in no file yet (Undo brings the old one back)."""
        self._force(Team("New team", self.team.sponsor, self.team.cans, ()), "A new team: buy its vehicles.")
        self.path, self.selected = None, None
        self.saved = self.team

    def bots_build(self, seed: int) -> bool:
        """Replace the team by a legal one a bot builds for its sponsor and size (undo brings it back)."""
        from simulator.gaslands.team_builder import build_team

        try:
            team = build_team(self.team.sponsor, self.team.cans, seed=seed, name=self.team.name)
        except ValueError as exc:
            self.message = f"The bots cannot build this: {exc}"
            return False
        self._force(team, f"The bots built {_plural(len(team.vehicles), 'vehicle')} for {team.cans} Cans.")
        self.selected = 0
        return True

    # ---------------------------------------------------------------- files
    def open_path(self, path: Path) -> bool:
        """Read a team file (its problems are listed, it is not refused); False with the reason if unreadable."""
        from simulator.scenario.team_file import load_team

        try:
            team = load_team(path)
        except (InputFileError, OSError) as exc:
            self.message = f"Cannot open {Path(path).name}: {str(exc).splitlines()[0]}"
            return False
        self.history = [*self.history, self.team][-HISTORY_MAX:]
        self.team, self.saved, self.path = team, team, Path(path)
        self.selected = 0 if team.vehicles else None
        self.refusal = ()
        self.message = f"Opened {Path(path).name}: {self.report_line()}."
        return True

    def save_path(self, path: Path) -> bool:
        """Write the team file atomically; False with the reason if it cannot be written."""
        from simulator.scenario.team_file import save_team

        try:
            save_team(self.team, path)
        except OSError as exc:
            self.message = f"Cannot save {Path(path).name}: {exc}"
            return False
        self.saved, self.path = self.team, Path(path)
        self.message = f"Saved {Path(path).name}: {self.report_line()}."
        return True

    def problems_html(self) -> str:
        """The refusal (red), then the team's problems with their pages, or that it is legal (green)."""
        out = []
        if self.refusal:
            out += [f"<font color='#ff7060'><b>Refused:</b> {html.escape(p.rule)} ({p.page})</font>"
                    for p in self.refusal]
        report = check(self.team)
        if report.legal:
            out.append(f"<font color='#80e080'>Legal: {report.cans} of {report.limit} Cans.</font>")
        else:
            out.append("<b>Still to mend:</b>" if all(p.pending for p in report.problems) else "<b>Problems:</b>")
            for p in report.problems:
                who = f"{html.escape(p.vehicle)}: " if p.vehicle else ""
                out.append(f"{who}{html.escape(p.rule)} ({p.page})")
        sponsor = self.team.sponsor_row
        if sponsor is not None:
            classes = load_perk_classes()
            perks = ", ".join(f"{html.escape(p.name)} (p.{p.page})" for p in sponsor.perks)
            out += ["", f"<b>{html.escape(sponsor.name)}</b> (p.{sponsor.page}): perks of "
                        + " and ".join(classes[c].name for c in sponsor.perk_classes)
                        + (f"; Sponsored Perks: {perks}" if perks else "")]
        else:
            out += ["", "No sponsor: no perks (p.64)."]
        return "<br>".join(out)


# ==================================================================== the widgets


def _theme() -> dict[str, Any]:
    from simulator.ui.dialogs import _theme as dialog_theme

    theme = dialog_theme(1.0)
    theme["button"]["colours"]["selected_text"] = "#101010"
    theme["selection_list"] = {"colours": {"dark_bg": "#22252b"}}
    theme["@selection_list_item"] = {"colours": {"selected_bg": "#ffd640", "selected_text": "#101010",
                                                 "normal_bg": "#2c3038", "hovered_bg": "#454a56"},
                                     "misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "8"}}
    theme["label"] = {"misc": {"text_horiz_alignment": "left"}}
    theme["#heading"] = {"font": {"name": "noto_sans", "size": "17", "bold": "1"},
                         "colours": {"normal_text": "#ffd640"}}
    return theme


def manager(size: tuple[int, int]) -> Any:
    """A pygame_gui manager with the screens' theme and its fonts loaded."""
    import pygame_gui

    ui = pygame_gui.UIManager(size, _theme(), enable_live_theme_updates=False)
    ui.preload_fonts([{"name": "noto_sans", "point_size": p, "style": "bold", "antialiased": "1"} for p in (14,)])
    return ui


class GuiScreen:
    """What the full-window pygame_gui screens (the team builder, the New game screen) share: their area, the
    widgets' manager and resizing, closing, text fields, drawing and finding a widget by its text.

    A subclass sets ``size``, ``manager``, ``on_close`` and ``_entries`` (its text fields) and defines
    ``rebuild``.
    """

    size: tuple[int, int]
    manager: Any
    on_close: Callable[[], None] | None
    _entries: dict[Any, str]

    def rebuild(self) -> None:
        """Make every widget afresh (the subclass's)."""
        raise NotImplementedError

    @property
    def rect(self) -> pygame.Rect:
        """The screen's area: the window less the top bar and the status line."""
        return pygame.Rect(0, TOP_BAR_PX, self.size[0], self.size[1] - TOP_BAR_PX - STATUS_PX)

    def resize(self, size: tuple[int, int]) -> None:
        """The window was resized."""
        self.size = size
        self.manager.set_window_resolution(size)
        self.rebuild()

    def close(self) -> None:
        """Back to the window underneath."""
        if self.on_close is not None:
            self.on_close()

    def typing(self) -> bool:
        """Whether a text field has the keyboard."""
        return any(e.is_focused for e in self._entries)

    def _leave_field(self) -> None:
        self.manager.set_focus_set(None)
        self.rebuild()

    def _route_first(self, event: pygame.event.Event) -> bool | None:
        """:func:`route_screen_event` for this screen."""
        return route_screen_event(event, self.typing(), self._leave_field)

    def update(self, dt: float) -> None:
        """Advance the widgets by ``dt`` seconds."""
        self.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        """The screen over the window's middle."""
        pygame.draw.rect(surface, draw.BACKGROUND, self.rect)
        self.manager.draw_ui(surface)

    def centre_of(self, text: str) -> tuple[int, int]:
        """The screen centre of the visible widget showing ``text`` (a button, a list row, a drop-down's option;
        ``KeyError`` if none); for tests."""
        for element in self.manager.get_sprite_group().sprites():
            shown = str(getattr(element, "text", ""))
            if shown == text and element.visible and hasattr(element, "rect"):
                return (int(element.rect.centerx), int(element.rect.centery))
        raise KeyError(text)


class TeamBuilderScreen(GuiScreen):
    """The builder's widgets over the window (see the module docstring).

    ``on_use``: when the builder was opened from the New game screen, what "Use this team" gives the team to.
    ``ask_path(title, start, suffixes, on_pick, must_exist)``: the window's file dialog.
    """

    title = "TEAM BUILDER"

    def __init__(self, size: tuple[int, int], builder: TeamBuilder | None = None,
                 ask_path: Callable[..., None] | None = None, on_close: Callable[[], None] | None = None,
                 on_use: Callable[[Team], None] | None = None) -> None:
        self.builder = builder or TeamBuilder()
        self.size = size
        self.ask_path = ask_path
        self.on_close = on_close
        self.on_use = on_use
        self.confirm: Callable[..., None] | None = None
        """The window's yes/no question (set by the window)."""
        self.on_saved: Callable[[Path], None] | None = None
        """Told each file the team is saved to (the window's recent files)."""
        self.use_in_new_game: Callable[[Team], None] | None = None
        """Set by the window: open the New game screen with this team in the first seat."""
        self.kind: Catalogue = "vehicle"
        self.pick: str | None = None
        self._press: tuple[tuple[int, int], int, int] = ((-99, -99), -DOUBLE_CLICK_MS, 0)
        """The last left press (position px, pygame ticks ms, how many presses so far)."""
        self._pick_press = self._press
        """The press that made the pick."""
        """The catalogue item chosen (its key)."""
        self.facing: Facing | None = None
        self.mount: Mount | None = None
        self.item: Row | None = None
        """The bought item chosen in the middle list (for Remove)."""
        self.seed = 1
        self.manager = manager(size)
        self._commands: dict[Any, Callable[[], None]] = {}
        self._lists: dict[Any, str] = {}
        self._drops: dict[Any, str] = {}
        self._entries: dict[Any, str] = {}
        self._labels: dict[str, Any] = {}
        self.rebuild()

    # ---------------------------------------------------------------- layout
    def rebuild(self) -> None:
        """Make every widget afresh from the builder's state."""
        from pygame_gui.elements import (
            UIButton,
            UIDropDownMenu,
            UILabel,
            UISelectionList,
            UITextBox,
            UITextEntryLine,
        )

        scrolled = {name: getattr(el.scroll_bar, "start_percentage", 0.0) for el, name in self._lists.items()
                    if el.scroll_bar is not None}
        self.manager.clear_and_reset()
        self._commands, self._lists, self._drops, self._entries, self._labels = {}, {}, {}, {}, {}
        b, ui = self.builder, self.manager
        area = self.rect
        gap = 10
        col = (area.width - 4 * gap) // 3
        x1, x2, x3 = area.left + gap, area.left + 2 * gap + col, area.left + 3 * gap + 2 * col
        top, bottom = area.top + 8, area.bottom - 8
        row = 30

        def label(text: str, x: int, y: int, w: int, name: str = "", heading: bool = False) -> Any:
            el = UILabel(pygame.Rect(x, y, w, 24), text, ui, object_id="#heading" if heading else None)
            if name:
                self._labels[name] = el
            return el

        def button(text: str, x: int, y: int, w: int, run: Callable[[], None], enabled: bool = True) -> Any:
            el = UIButton(pygame.Rect(x, y, w, row), text, ui)
            if enabled:
                self._commands[el] = run
            else:
                el.disable()  # type: ignore[no-untyped-call]
            return el

        # ------------------------------------------------ the team
        y = top
        label("The team", x1, y, col, heading=True)
        y += 26
        label("Name", x1, y + 3, 90)
        name = UITextEntryLine(pygame.Rect(x1 + 95, y, col - 95, row), ui, initial_text=b.team.name)
        self._entries[name] = "team name"
        y += row + 6
        label("Sponsor", x1, y + 3, 90)
        sponsors = [NO_SPONSOR, *(s.name for s in load_sponsors().values())]
        current = b.team.sponsor_row.name if b.team.sponsor_row else NO_SPONSOR
        drop = UIDropDownMenu(options(sponsors), current, pygame.Rect(x1 + 95, y, col - 95, row), ui, expansion_height_limit=420)
        self._drops[drop] = "sponsor"
        y += row + 6
        label("Team size", x1, y + 3, 90)
        cans = UITextEntryLine(pygame.Rect(x1 + 95, y, 80, row), ui, initial_text=str(b.team.cans))
        cans.set_allowed_characters("numbers")
        self._entries[cans] = "cans"
        label("Cans (p.63)", x1 + 180, y + 3, col - 180)
        y += row + 6
        label(b.report_line(), x1, y, col, name="total")
        y += 28
        label("Vehicles", x1, y, col, heading=True)
        y += 26
        list_h = max(90, bottom - y - 3 * (row + 6) - 40)
        rows = b.vehicle_rows()
        chosen = rows[b.selected] if b.selected is not None and b.selected < len(rows) else None
        vehicles = UISelectionList(pygame.Rect(x1, y, col, list_h), options(rows), ui, default_selection=chosen)
        self._lists[vehicles] = "vehicles"
        y += list_h + 6
        half = (col - gap) // 2
        button("Remove vehicle", x1, y, half, b.remove_vehicle, b.vehicle is not None)
        button("Undo (Ctrl+Z)", x1 + half + gap, y, half, self._undo, bool(b.history))
        y += row + 6
        button("Open team...", x1, y, half, self._open)
        button("Save team...", x1 + half + gap, y, half, self._save_as)
        y += row + 6
        button("Bots build it", x1, y, half, self._bots)
        if self.on_use is not None:
            button("Use this team", x1 + half + gap, y, half, self._use)
        else:
            button("Play a race with it", x1 + half + gap, y, half, self._use_in_new_game)
        button("Start a new team", x1, bottom - row, half, self._new_team)
        button("Close (Esc)", x1 + half + gap, bottom - row, half, self.close)

        # ------------------------------------------------ the vehicle
        y = top
        label("The vehicle", x2, y, col, heading=True)
        y += 26
        v = b.vehicle
        label("Vehicle name", x2, y + 3, 110)
        vname = UITextEntryLine(pygame.Rect(x2 + 115, y, col - 115, row), ui, initial_text=v.name if v else "")
        if v is None:
            vname.disable()  # type: ignore[no-untyped-call]
        self._entries[vname] = "vehicle name"
        y += row + 6
        label(b.stats_line(), x2, y, col, name="stats")
        y += 28
        items = b.item_rows()
        item_h = max(90, (bottom - y) // 2 - 40)
        chosen_item = next((r.text for r in items if r == self.item), None)
        bought = UISelectionList(pygame.Rect(x2, y, col, item_h), options([r.text for r in items]), ui,
                                 default_selection=chosen_item)
        self._lists[bought] = "items"
        y += item_h + 6
        button("Remove item", x2, y, col, self._remove_item, self.item is not None and v is not None)
        y += row + 10
        label("What the rules say", x2, y, col, heading=True)
        y += 26
        UITextBox(b.problems_html(), pygame.Rect(x2, y, col, bottom - y), ui)

        # ------------------------------------------------ the catalogue
        y = top
        label("Buy", x3, y, col, heading=True)
        y += 26
        quarter = (col - 3 * 6) // 4
        for i, kind in enumerate(CATALOGUES):
            text = {"vehicle": "Vehicles", "weapon": "Weapons", "upgrade": "Upgrades", "perk": "Perks"}[kind]
            el = button(text, x3 + i * (quarter + 6), y, quarter, self._kind_setter(kind))
            if kind == self.kind:
                el.select()
        y += row + 6
        rows_c = b.catalogue(self.kind)
        self._catalogue = dict(rows_c)
        chosen_c = next((text for text, key in rows_c if key == self.pick), None)
        cat_h = bottom - y - 2 * (row + 6)
        catalogue = UISelectionList(pygame.Rect(x3, y, col, cat_h), options([t for t, _ in rows_c]), ui,
                                    default_selection=chosen_c)
        self._lists[catalogue] = "catalogue"
        y += cat_h + 6
        if self.kind in ("weapon", "upgrade"):
            label("Facing", x3, y + 3, 60)
            facing = UIDropDownMenu(options([*FACINGS, NO_FACING]), self.facing or NO_FACING,
                                    pygame.Rect(x3 + 62, y, half - 62, row), ui)
            self._drops[facing] = "facing"
            if v is not None and v.articulated:
                self.mount = self.mount or "cab"  # the cab unless the player says the trailer
                mount = UIDropDownMenu(options(["cab", "trailer", NO_MOUNT]), self.mount or NO_MOUNT,
                                       pygame.Rect(x3 + half + gap, y, col - half - gap, row), ui)
                self._drops[mount] = "mount"
        y += row + 6
        what = {"vehicle": "Buy this vehicle", "weapon": "Buy this weapon", "upgrade": "Buy this upgrade",
                "perk": "Buy this perk"}[self.kind]
        target = "" if self.kind == "vehicle" or v is None else f" for {vehicle_labels(b.team)[b.selected or 0]}"
        button(what + target, x3, y, col, self._buy, self.pick is not None)
        for el, which in self._lists.items():
            if el.scroll_bar is not None and scrolled.get(which):
                el.scroll_bar.set_scroll_from_start_percentage(scrolled[which])
                el.update(0.0)

    # ---------------------------------------------------------------- actions
    def _kind_setter(self, kind: Catalogue) -> Callable[[], None]:
        def run() -> None:
            self.kind, self.pick, self.facing = kind, None, None
        return run

    def _buy(self) -> None:
        if self.pick is None:
            return
        mount = self.mount if self.builder.vehicle is not None and self.builder.vehicle.articulated else None
        self.builder.buy(self.kind, self.pick, self.facing if self.kind in ("weapon", "upgrade") else None, mount)

    def _remove_item(self) -> None:
        if self.item is not None:
            self.builder.remove(self.item)
            self.item = None

    def _undo(self) -> None:
        self.builder.undo()
        self.item = None

    def _new_team(self) -> None:
        if self.builder.unsaved and self.confirm is not None:
            self.confirm("Unsaved changes", f"The team {self.builder.team.name} has unsaved changes. Start a new "
                         "team anyway?", self._new_now, "New team")
        else:
            self._new_now()

    def _new_now(self) -> None:
        self.builder.new_team()
        self.item = None
        self.rebuild()

    def _bots(self) -> None:
        self.builder.bots_build(self.seed)
        self.seed += 1

    def _open(self) -> None:
        if self.ask_path is not None:
            from simulator.ui.user_files import folder

            self.ask_path("Open a team", self.builder.path or folder("team"), (".toml",), self.open_file, True)

    def open_file(self, path: Path) -> None:
        """Open a team file (the File menu's Open and this screen's button end here)."""
        self.builder.open_path(path)
        self.item = None
        self.rebuild()

    def _save_as(self) -> None:
        if self.ask_path is None:
            return
        from simulator.scenario.team_file import team_id
        from simulator.ui.user_files import folder

        start = self.builder.path or folder("team") / f"{team_id(self.builder.team.name)}.toml"
        self.ask_path("Save the team as", start, (".toml",), self.save_file, False)

    def save(self) -> None:
        """Ctrl+S: write the team to its file, or ask where."""
        if self.builder.path is None:
            self._save_as()
        else:
            self.save_file(self.builder.path)

    def save_as(self) -> None:
        """Ctrl+Shift+S: ask where to write the team."""
        self._save_as()

    def save_file(self, path: Path) -> None:
        """Write the team to ``path`` (``.toml`` added when missing), asking first before replacing another file."""
        path = Path(path)
        if path.suffix.lower() != ".toml":
            path = path.with_name(path.name + ".toml")
        if path.exists() and path != self.builder.path and self.confirm is not None:
            self.confirm("Replace the file?", f"{path.name} exists in {path.parent}. Replace it?",
                         lambda: self._write(path), "Replace")
        else:
            self._write(path)

    def _write(self, path: Path) -> None:
        if self.builder.save_path(path) and self.on_saved is not None:
            self.on_saved(path)
        self.rebuild()

    def _use(self) -> None:
        if self.on_use is not None:
            self.on_use(self.builder.team)

    def _use_in_new_game(self) -> None:
        if self.use_in_new_game is not None:
            self.use_in_new_game(self.builder.team)

    # ---------------------------------------------------------------- events
    def status(self) -> str:
        """The status line: the last thing done or refused."""
        return self.builder.message

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Take one event; False for what the window should have (the top bar, the File keys, help)."""
        import pygame_gui

        routed = self._route_first(event)
        if routed is not None:
            return routed
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._press = (event.pos, pygame.time.get_ticks(), self._press[2] + 1)
        if event.type == pygame.KEYDOWN and not self.typing():
            if event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
                self._undo()
                self.rebuild()
                return True
            if event.key == pygame.K_ESCAPE:
                self.close()
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.pick is not None:
                self._buy()
                self.rebuild()
                return True
            if event.mod & pygame.KMOD_CTRL or event.key in (pygame.K_h, pygame.K_F1):
                return False
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self._commands:
            self._commands[event.ui_element]()
            self.rebuild()
            return True
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element in self._lists:
            self._pick_press = self._press
            self._selected(self._lists[event.ui_element], str(event.text))
            return True
        if event.type in (pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION,
                          pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION) \
                and self._lists.get(event.ui_element) == "catalogue":
            # The list is rebuilt after the first click, so a double click reaches it as a second click on the
            # row already picked (dropping it): buy it, as Enter does. Picking another row drops this one too
            # (another place), and a slower second click leaves the pick as it was.
            if self.pick is not None and self._catalogue.get(str(event.text)) == self.pick and self._double():
                self._buy()
                self.rebuild()
                return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element in self._drops:
            self._dropped(self._drops[event.ui_element], str(event.text))
            return True
        if event.type in (pygame_gui.UI_TEXT_ENTRY_FINISHED, pygame_gui.UI_TEXT_ENTRY_CHANGED) \
                and event.ui_element in self._entries:
            self._typed(self._entries[event.ui_element], str(event.text),
                        event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED)
            return True
        self.manager.process_events(event)
        return True

    def _double(self) -> bool:
        """Whether the last press was the second of a double click on the press that made the pick."""
        (x0, y0), t0, n0 = self._pick_press
        (x1, y1), t1, n1 = self._press
        return n1 == n0 + 1 and t1 - t0 <= DOUBLE_CLICK_MS and abs(x1 - x0) <= 6 and abs(y1 - y0) <= 6

    def _selected(self, which: str, text: str) -> None:
        b = self.builder
        if which == "vehicles":
            rows = b.vehicle_rows()
            if text in rows:
                b.selected = rows.index(text)
                self.item = None
        elif which == "items":
            self.item = next((r for r in b.item_rows() if r.text == text), None)
        elif which == "catalogue":
            self.pick = self._catalogue.get(text)
            if self.pick is not None:
                self.facing = b.default_facing(self.kind, self.pick)
        self.rebuild()

    def _dropped(self, which: str, text: str) -> None:
        if which == "sponsor":
            key = next((k for k, s in load_sponsors().items() if s.name == text), None)
            self.builder.set_sponsor(key)
        elif which == "facing":
            self.facing = None if text == NO_FACING else text  # type: ignore[assignment]
        elif which == "mount":
            self.mount = None if text == NO_MOUNT else text  # type: ignore[assignment]
        self.rebuild()

    def _typed(self, which: str, text: str, finished: bool) -> None:
        b = self.builder
        if which == "team name":
            b.rename(text)
        elif which == "vehicle name":
            b.rename_vehicle(text)
        elif which == "cans" and text.isdigit():
            b.set_cans(int(text))
        if finished:
            self.rebuild()
        else:
            self._refresh_labels()

    def _refresh_labels(self) -> None:
        if "total" in self._labels:
            self._labels["total"].set_text(self.builder.report_line())



__all__ = ["CATALOGUES", "GuiScreen", "Row", "TeamBuilder", "TeamBuilderScreen"]
