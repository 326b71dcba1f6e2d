"""The New game screen: for each seat of a race, who plays it (a person or a bot) and with which team.

A seat's team is the scenario's own cars, a team file, the team built in the
team builder, or a team the bots build for a sponsor and the team size in Cans
(:func:`simulator.gaslands.team_builder.build_team`). The team size is one
number for every seat (p.63). A team that breaks a rule of team building at
that size is refused with the rule and its page
(:func:`simulator.gaslands.teams.check`; nothing is checked here), unless the
players agree to play it anyway as a house team (a question first). The Street
Race and the Death Race deploy any team (p.62, p.126):
:func:`simulator.scenario.setup.with_teams` writes the teams into the game's
scenario, so its save replays without the team files.

:class:`NewGame` is the plain state; :class:`NewGameScreen` its pygame_gui
widgets, opened from the File menu (New game, then "Choose each seat's team").
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import pygame

from simulator.errors import InputFileError
from simulator.gaslands.tables import load_sponsors
from simulator.gaslands.teams import Team, check
from simulator.scenario.loader import Scenario, load_scenario
from simulator.ui.team_builder import GuiScreen, options

Source = Literal["scenario", "bots", "team"]
PERSON, BOT = "Person", "Bot"
SCENARIO_CARS = "The scenario's own cars"
TEAM_FILE = "A team file..."
BUILDER = "The team builder's team"
BOTS_BUILD = "Bots build: "
NO_SPONSOR = "No sponsor"


class IllegalTeam(ValueError):
    """A seat's team breaks a rule of team building at the game's team size (the message names the rule and its
    page); the players may still agree to play it as a house team."""


@dataclass(frozen=True)
class Seat:
    """One player of the scenario: who plays (``bot``) and the team (``source``: the scenario's cars, a team the
    bots build for ``sponsor``, or ``team`` from a file or the builder, named by ``origin``)."""

    player_id: str
    name: str
    bot: bool = False
    source: Source = "scenario"
    sponsor: str | None = None
    team: Team | None = None
    origin: str = ""

    def choice(self) -> str:
        """The team drop-down's line for this seat."""
        if self.source == "scenario":
            return SCENARIO_CARS
        if self.source == "bots":
            return BOTS_BUILD + (load_sponsors()[self.sponsor].name if self.sponsor else NO_SPONSOR)
        return self.origin or BUILDER


class NewGame:
    """The choices of the New game screen for one scenario (see the module docstring)."""

    def __init__(self, path: Path, cans: int = 50) -> None:
        self.path = Path(path)
        self.scenario: Scenario = load_scenario(self.path)
        self.cans = cans
        self.seats = [Seat(p.id, p.name or p.id, bot=i > 0) for i, p in enumerate(self.scenario.spec.player)]
        self.message = "Choose who plays each seat and with which team, then Start."
        self.refusal = ""

    def for_scenario(self, path: Path) -> NewGame:
        """The same choices for another scenario: the team size, and each seat's player and team by position."""
        other = NewGame(path, self.cans)
        for i, seat in enumerate(self.seats[: len(other.seats)]):
            other.seats[i] = replace(seat, player_id=other.seats[i].player_id, name=other.seats[i].name)
        other.message = f"New game of {other.scenario.name}."
        return other

    def set_seat(self, index: int, **changes: Any) -> None:
        """Change seat ``index`` (``bot``, ``source``, ``sponsor``, ``team``, ``origin``)."""
        self.seats[index] = replace(self.seats[index], **changes)
        self.refusal = ""

    def use_team(self, index: int, team: Team, origin: str) -> None:
        """Seat ``index`` plays ``team`` (from a file or the builder; ``origin`` says which)."""
        self.set_seat(index, source="team", team=team, origin=origin)

    def open_team(self, index: int, path: Path) -> bool:
        """Seat ``index`` plays the team file ``path``; False with the reason if it cannot be read."""
        from simulator.scenario.team_file import load_team

        try:
            team = load_team(path)
        except (InputFileError, OSError) as exc:
            self.message = f"Cannot open {Path(path).name}: {str(exc).splitlines()[0]}"
            return False
        self.use_team(index, team, f"Team file: {Path(path).name}")
        self.message = f"{self.seats[index].name} plays {team.name} ({Path(path).name})."
        return True

    def summary(self, index: int) -> str:
        """What seat ``index`` will field, in a line."""
        seat = self.seats[index]
        who = "a bot" if seat.bot else "a person"
        if seat.source == "scenario":
            cars = [v for v in self.scenario.spec.vehicle if v.player == seat.player_id]
            return f"Played by {who} with the scenario's {len(cars)} car" + ("" if len(cars) == 1 else "s") + "."
        if seat.source == "bots":
            return f"Played by {who}; the bots build a team of {self.cans} Cans at the start."
        assert seat.team is not None
        r = check(seat.team, self.cans)
        verdict = "legal" if r.legal else f"not legal: {r.problems[0].rule} ({r.problems[0].page})"
        return f"Played by {who}: {seat.team.name}, {r.cans} of {self.cans} Cans, {len(seat.team.vehicles)} vehicle{'' if len(seat.team.vehicles) == 1 else 's'}, {verdict}."

    def teams(self, seed: int, house_teams: bool = False) -> dict[str, Team]:
        """Each seat's team by player id (the scenario's cars: none). Raises :class:`IllegalTeam` naming the
        seat, the rule and its page when a team is not legal at the team size (unless ``house_teams``: the
        players agreed to play it anyway), ``ValueError`` when the bots cannot build one."""
        from simulator.gaslands.team_builder import build_team

        out: dict[str, Team] = {}
        for k, seat in enumerate(self.seats):
            if seat.source == "bots":
                try:
                    out[seat.player_id] = build_team(seat.sponsor, self.cans, seed=seed + k, name=seat.name)
                except ValueError as exc:
                    raise ValueError(f"{seat.name}: {exc}") from None
            elif seat.source == "team" and seat.team is not None:
                report = check(seat.team, self.cans)
                if not report.legal and not house_teams:
                    first = report.problems[0]
                    who = f"{first.vehicle}: " if first.vehicle else ""
                    raise IllegalTeam(f"{seat.name}'s team {seat.team.name} is not legal at {self.cans} Cans: "
                                     f"{who}{first.rule} ({first.page})")
                out[seat.player_id] = seat.team
        return out

    def bots(self) -> set[int]:
        """The seats bots play (by index)."""
        return {i for i, s in enumerate(self.seats) if s.bot}

    def scenario_for(self, seed: int, house_teams: bool = False) -> Scenario:
        """The scenario with the seats' teams in it (errors as :meth:`teams`)."""
        from simulator.scenario.setup import with_teams

        teams = self.teams(seed, house_teams)
        return with_teams(self.scenario, teams, self.player_names()) if teams else self.scenario

    def player_names(self) -> dict[str, str]:
        """The names the players go by in the game (by player id): a team from a file or the builder lends the
        seat its name (``"Vipers"``), the seat's own name added when two seats would share it
        (``"Vipers (Blue Team)"``); other seats keep the scenario's name."""
        wanted = {s.player_id: s.team.name.strip() for s in self.seats
                  if s.source == "team" and s.team is not None and s.team.name.strip()}
        taken = [wanted.get(s.player_id, s.name) for s in self.seats]
        return {s.player_id: name if taken.count(name) == 1 else f"{name} ({s.name})"
                for s in self.seats if (name := wanted.get(s.player_id)) is not None}


class NewGameScreen(GuiScreen):
    """The New game screen's widgets (see the module docstring).

    ``start(scenario, bots, seed)`` starts the game; ``build(index)`` opens the team builder for a seat;
    ``ask_path`` is the window's file dialog; ``on_close`` goes back.
    """

    title = "NEW GAME"

    def __init__(self, size: tuple[int, int], state: NewGame, start: Callable[[Scenario, set[int], int], None],
                 build: Callable[[int], None], ask_path: Callable[..., None] | None = None,
                 on_close: Callable[[], None] | None = None, builder_team: Callable[[], Team | None] | None = None,
                 seed: int = 1) -> None:
        from simulator.ui.team_builder import manager

        self.state = state
        self.size = size
        self.start_game = start
        self.build = build
        self.ask_path = ask_path
        self.on_close = on_close
        self.builder_team = builder_team or (lambda: None)
        self.seed = seed
        self.confirm: Callable[..., None] | None = None
        """The window's yes/no question (set by the window): a house team is played only after one."""
        self.manager = manager(size)
        self._commands: dict[Any, Callable[[], None]] = {}
        self._drops: dict[Any, tuple[str, int]] = {}
        self._entries: dict[Any, str] = {}
        self.rebuild()

    def options(self, index: int) -> list[str]:
        """The team drop-down's lines for seat ``index``."""
        rows = [SCENARIO_CARS, BOTS_BUILD + NO_SPONSOR, *(BOTS_BUILD + s.name for s in load_sponsors().values()),
                TEAM_FILE]
        if self.builder_team() is not None:
            rows.append(BUILDER)
        current = self.state.seats[index].choice()
        if current not in rows:
            rows.insert(len(rows) - 1, current)
        return rows

    def rebuild(self) -> None:
        """Make every widget afresh from the state."""
        from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextBox, UITextEntryLine

        self.manager.clear_and_reset()
        self._commands, self._drops, self._entries = {}, {}, {}
        s, ui = self.state, self.manager
        area = self.rect
        x, y = area.left + 20, area.top + 12
        width = min(area.width - 40, 1100)
        row = 30
        UILabel(pygame.Rect(x, y + 3, 150, 24), "New game of", ui, object_id="#heading")
        races = self.races()
        names = [name for name, _ in races]
        if s.scenario.name not in names:
            names.append(s.scenario.name)
        race = UIDropDownMenu(options(names), s.scenario.name, pygame.Rect(x + 160, y, 300, row), ui)
        self._drops[race] = ("race", 0)
        y += row + 10
        UILabel(pygame.Rect(x, y + 3, 150, 24), "Team size (Cans)", ui)
        cans = UITextEntryLine(pygame.Rect(x + 160, y, 80, row), ui, initial_text=str(s.cans))
        cans.set_allowed_characters("numbers")
        self._entries[cans] = "cans"
        UILabel(pygame.Rect(x + 250, y + 3, width - 250, 24),
                "for every team built here or by the bots (p.63); a team file must be legal at this size", ui)
        y += row + 16
        name_w, who_w, build_w = 170, 110, 150
        team_w = width - name_w - who_w - build_w - 30
        for i, seat in enumerate(s.seats):
            UILabel(pygame.Rect(x, y + 3, name_w, 24), seat.name, ui, object_id="#heading")
            who = UIDropDownMenu(options([PERSON, BOT]), BOT if seat.bot else PERSON,
                                 pygame.Rect(x + name_w + 10, y, who_w, row), ui)
            self._drops[who] = ("who", i)
            team = UIDropDownMenu(options(self.options(i)), seat.choice(),
                                  pygame.Rect(x + name_w + who_w + 20, y, team_w, row), ui,
                                  expansion_height_limit=max(200, area.bottom - y - 60))
            self._drops[team] = ("team", i)
            b = UIButton(pygame.Rect(x + width - build_w, y, build_w, row), "Build a team...", ui)
            self._commands[b] = self._builder(i)
            y += row + 4
            UILabel(pygame.Rect(x + name_w + 10, y, width - name_w - 10, 24), s.summary(i), ui)
            y += 34
        y += 8
        start = UIButton(pygame.Rect(x, y, 200, row + 4), "Start the game", ui)
        self._commands[start] = self._start
        back = UIButton(pygame.Rect(x + 210, y, 140, row + 4), "Cancel (Esc)", ui)
        self._commands[back] = self.close
        y += row + 16
        text = f"<font color='#ff7060'><b>Refused:</b> {html.escape(s.refusal)}</font>" if s.refusal else \
            html.escape(s.message)
        UITextBox(text, pygame.Rect(x, y, width, max(60, min(120, area.bottom - y - 10))), ui)

    def _builder(self, index: int) -> Callable[[], None]:
        return lambda: self.build(index)

    def _start(self, house_teams: bool = False) -> None:
        try:
            scenario = self.state.scenario_for(self.seed, house_teams)
        except IllegalTeam as exc:
            self.state.refusal = str(exc)
            self.state.message = "Refused: " + str(exc)
            if self.confirm is not None:
                self.confirm("A team breaks a rule", f"{exc}. Play it anyway as a house team?",
                             lambda: self._start(house_teams=True), "Start anyway")
            return
        except ValueError as exc:
            self.state.refusal = str(exc)
            self.state.message = "Refused: " + str(exc)
            return
        self.start_game(scenario, self.state.bots(), self.seed)

    def status(self) -> str:
        """The status line."""
        return self.state.message

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Take one event; False for what the window should have (the top bar, the File keys, help)."""
        import pygame_gui

        routed = self._route_first(event)
        if routed is not None:
            return routed
        if event.type == pygame.KEYDOWN and not self.typing():
            if event.key == pygame.K_ESCAPE:
                self.close()
                return True
            if event.mod & pygame.KMOD_CTRL or event.key in (pygame.K_h, pygame.K_F1):
                return False
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self._commands:
            self._commands[event.ui_element]()
            self.rebuild()
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element in self._drops:
            self._dropped(*self._drops[event.ui_element], str(event.text))
            return True
        if event.type in (pygame_gui.UI_TEXT_ENTRY_FINISHED, pygame_gui.UI_TEXT_ENTRY_CHANGED) \
                and event.ui_element in self._entries:
            if event.text.isdigit():
                self.state.cans = max(1, min(10_000, int(event.text)))
            if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
                self.rebuild()
            return True
        self.manager.process_events(event)
        return True

    @staticmethod
    def races() -> list[tuple[str, Path]]:
        """The races shipped with the program (the File menu's list)."""
        from simulator.ui.file_menu import bundled_races

        return bundled_races()

    def _dropped(self, which: str, index: int, text: str) -> None:
        s = self.state
        if which == "race":
            path = next((p for name, p in self.races() if name == text), None)
            if path is not None and path != s.path:
                self.state = s = s.for_scenario(path)
        elif which == "who":
            s.set_seat(index, bot=text == BOT)
        elif text == SCENARIO_CARS:
            s.set_seat(index, source="scenario", team=None, origin="")
        elif text.startswith(BOTS_BUILD):
            name = text.removeprefix(BOTS_BUILD)
            key = next((k for k, row in load_sponsors().items() if row.name == name), None)
            s.set_seat(index, source="bots", sponsor=key, team=None, origin="")
        elif text == TEAM_FILE:
            self._pick_file(index)
        elif text == BUILDER:
            team = self.builder_team()
            if team is not None:
                s.use_team(index, team, BUILDER)
        self.rebuild()

    def _pick_file(self, index: int) -> None:
        if self.ask_path is None:
            return
        from simulator.ui.user_files import folder

        def picked(path: Path) -> None:
            self.state.open_team(index, path)
            self.rebuild()

        self.ask_path(f"A team for {self.state.seats[index].name}", folder("team"), (".toml",), picked, True)



__all__ = ["IllegalTeam", "NewGame", "NewGameScreen", "Seat"]
