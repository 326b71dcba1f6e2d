"""The campaign in the window: the pre-game and post-game sequences as screens (p.154-175).

The campaign file (:mod:`simulator.scenario.campaign_file`) is the campaign's state; this mode shows it and
drives one game at a time:

- **before a game**: the standings (Championship Points, the Stash, Dents; Resistance Points are secret),
  the Televised Schedule, the last game's post-game lines, and the next game with its pre-game sequence
  (Handicap Bonus votes p.159, Sabotage Tokens p.160, the Escalating bonus p.154). The panel offers the
  scheduled Televised Event or a Wasteland Skirmish instead (p.157, or roll for one), in Savage Highways the
  War Rig Upgrades to choose (p.167), and who plays: at this screen, or the bots;
- the game itself is an ordinary game window (:class:`~simulator.ui.modes.game.GameMode`) with a
  **Campaign** button once it is over;
- **after a game**: the result, the Spoils, Damage and Injuries as the dice fall (p.161-163), a toggle for
  each team that did not place to contact the Resistance (p.162), and **Save and go on**, which writes the
  campaign file (atomically) before the next pre-game screen.

Nothing here applies a rule: the lines come from :mod:`simulator.gaslands.campaign`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from simulator.gaslands.campaign import Campaign, NextGame, PostGame, next_game, upgrade_choices
from simulator.gaslands.dice import SeededDice
from simulator.gaslands.game import Game
from simulator.scenario.campaign_file import finish_game, load_campaign, save_campaign
from simulator.scenario.loader import Scenario
from simulator.ui import draw
from simulator.ui.modes import Context, HelpLines, TopButton
from simulator.ui.modes.game import GameMode
from simulator.ui.sandbox import Sandbox
from simulator.ui.widgets import Button, button_at, draw_button

SKIRMISHES = ("automated_salvage", "express_delivery", "scavenger_party", "revolution", "zombie_bash")
"""The Wasteland Skirmishes (p.157)."""

HELP: HelpLines = (
    ("Panel buttons", "choose the next game, the War Rig Upgrades, who plays; then play it"),
    ("After a game", "toggle who contacts the Resistance, then Save and go on (the campaign file is written)"),
)


@dataclass(frozen=True)
class Finished:
    """A campaign game just finished in the window: the pre-game record, the game and the upgrades chosen."""

    next: NextGame
    game: Game
    upgrades: tuple[str, ...] = ()


@dataclass
class Choices:
    """What the pre-game screen has chosen so far."""

    skirmish: str = ""
    upgrades: list[str] = field(default_factory=list)
    bots_only: bool = False


class CampaignMode:
    """A campaign's screens (see the module docstring). ``start`` opens a game of it: it is given the pre-game
    record, the upgrades chosen and whether the bots play every seat."""

    title = "CAMPAIGN"

    def __init__(self, ctx: Context, path: Path, scenario: Scenario,
                 start: Callable[[Campaign, NextGame, tuple[str, ...], bool], None],
                 finished: Finished | None = None) -> None:
        self.ctx = ctx
        self.path = Path(path)
        self._scenario = scenario
        self.start = start
        self.campaign = load_campaign(self.path)
        self.finished = finished
        self.choices = Choices()
        self.resistance: set[str] = set()
        self.message = ""
        self._post: PostGame | None = None
        self.refresh()

    # ================================================================ Mode protocol
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    def status(self) -> str:
        return self.message

    def say(self, message: str) -> None:
        self.message = message

    def help_lines(self) -> HelpLines:
        return HELP

    def sandbox(self) -> Sandbox:
        return Sandbox.of_scenario(self._scenario)

    def entered(self) -> None:
        self.refresh()

    def update(self, dt: float) -> None:
        """Nothing moves on these screens."""

    def buttons(self) -> list[TopButton]:
        return []

    def unsaved_work(self) -> str:
        """A finished game whose post-game sequence is not saved yet."""
        return "The last campaign game's result is not saved yet." if self.finished is not None else ""

    # ================================================================ state
    @property
    def next(self) -> NextGame:
        """The next game as chosen so far."""
        return next_game(self.campaign, self.choices.skirmish)

    def post(self) -> PostGame | None:
        """The post-game sequence of the finished game with the Resistance toggles as they stand."""
        if self.finished is None:
            return None
        f = self.finished
        return finish_game(self.campaign, f.next, f.game, frozenset(self.resistance), f.upgrades)

    def refresh(self) -> None:
        if self.finished is not None:
            self._post = self.post()
            self.say("The game is over: the post-game sequence is on the left; toggle who contacts the Resistance, "
                     "then Save and go on.")
        elif self.campaign.over:
            self.say("The campaign is over.")
        else:
            self.say("Choose the next game and who plays, then Play.")

    # ================================================================ actions
    def panel_buttons(self) -> list[Button[Callable[[], None]]]:
        """The panel's buttons for the screen shown."""
        x, y, w, _ = self.ctx.layout.panel
        out: list[Button[Callable[[], None]]] = []
        top = y + 60

        def add(label: str, action: Callable[[], None], enabled: bool = True, active: bool = False,
                height: int = 30) -> None:
            nonlocal top
            out.append(Button((x + 10, top, w - 20, height), label, action, enabled, active))
            top += height + 6

        c = self.campaign
        if self.finished is not None:
            post = self._post
            placed = set(self.finished_places()[:max(1, (len(c.teams) + 1) // 2)])
            if c.kind == "televised":
                for t in c.teams:
                    if t.id not in placed:
                        on = t.id in self.resistance
                        add(f"{t.name}: contact the Resistance ({'yes' if on else 'no'})", self._toggle(t.id),
                            active=on)
            add("Save and go on", self.save_and_go_on, post is not None, height=36)
            return out
        if c.over:
            return out
        nxt = self.next
        if c.kind == "televised":
            scheduled = c.schedule[min(c.events_played, len(c.schedule) - 1)]
            add(f"Televised Event: {_words(scheduled)}", self._skirmish(""), active=not self.choices.skirmish)
            for key in SKIRMISHES:
                add(f"Skirmish: {_words(key)}", self._skirmish(key), active=self.choices.skirmish == key, height=26)
            add("Roll for a Wasteland Skirmish (D6, p.157)", self.roll_skirmish, height=26)
        if c.kind == "savage_highways" and nxt.choose_upgrades:
            for key in upgrade_choices(c, nxt):
                on = key in self.choices.upgrades
                add(f"War Rig Upgrade: {_words(key)}", self._upgrade(key), active=on, height=26)
        add(f"Who plays: {'the bots, every seat' if self.choices.bots_only else 'the teams as the file says'}",
            self.toggle_bots, height=26)
        ready = c.kind != "savage_highways" or len(self.choices.upgrades) == nxt.choose_upgrades
        add(f"Play game {nxt.number}: {_words(nxt.scenario)}", self.play, ready, height=36)
        return out

    def finished_places(self) -> tuple[str, ...]:
        post = self._post
        if post is None or not post.campaign.games:
            return ()
        return post.campaign.games[-1].places

    def _toggle(self, team: str) -> Callable[[], None]:
        def run() -> None:
            self.resistance ^= {team}
            self._post = self.post()
        return run

    def _skirmish(self, key: str) -> Callable[[], None]:
        def run() -> None:
            self.choices.skirmish = key
        return run

    def _upgrade(self, key: str) -> Callable[[], None]:
        def run() -> None:
            chosen = self.choices.upgrades
            if key in chosen:
                chosen.remove(key)
            elif len(chosen) < self.next.choose_upgrades:
                chosen.append(key)
            else:
                self.say(f"Choose {self.next.choose_upgrades} War Rig Upgrade(s) (p.167): take one off first.")
        return run

    def roll_skirmish(self) -> None:
        """A D6 on the Wasteland Skirmish Table (p.157), with the campaign's dice."""
        from simulator.gaslands.campaign import skirmish_from_roll

        (roll,) = SeededDice(self.campaign.seed * 1000 + len(self.campaign.games)).roll_d6(1)
        self.choices.skirmish = skirmish_from_roll(roll)
        self.say(f"Rolled {roll}: {_words(self.choices.skirmish)} (p.157)")

    def toggle_bots(self) -> None:
        self.choices.bots_only = not self.choices.bots_only

    def play(self) -> None:
        """Start the next game in the window."""
        self.start(self.campaign, self.next, tuple(self.choices.upgrades), self.choices.bots_only)

    def save_and_go_on(self) -> None:
        """Write the campaign with the post-game sequence applied; then the next pre-game screen."""
        post = self.post()
        if post is None:
            return
        save_campaign(post.campaign, self.path)
        self.campaign = post.campaign
        self.finished = None
        self._post = None
        self.resistance = set()
        self.choices = Choices()
        self.say(f"Saved {self.path.name}. " + ("The campaign is over." if self.campaign.over else
                                                "Choose the next game."))

    # ================================================================ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            b = button_at(self.panel_buttons(), (int(event.pos[0]), int(event.pos[1])))
            if b is not None:
                b.action()
                return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)

    # ================================================================ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """The campaign on the left, the choices on the right."""
        tx, ty, tw, th = self.ctx.layout.table
        _, _, _, tray_h = self.ctx.layout.tray
        area = pygame.Rect(tx, ty, tw, th + tray_h)
        pygame.draw.rect(surface, (24, 26, 30), area)
        x, y = area.left + 24, area.top + 18
        c = self.campaign
        kind = {"televised": "Televised Season (p.156-164)", "escalating": "Escalating Season (p.154)",
                "championship": "Championship Season (p.155)", "savage_highways": "Savage Highways (p.165-175)"}
        draw.text(surface, f"{c.name}: {kind[c.kind]}", (x, y), 26, (255, 230, 120))
        y += 38
        if c.schedule:
            parts = [("done " if i < c.events_played else "") + _words(k) for i, k in enumerate(c.schedule)]
            draw.text(surface, "Televised Schedule: " + ", ".join(parts), (x, y), 17, draw.TEXT_DIM)
            y += 26
        y = self._standings(surface, x, y + 6)
        lines: tuple[str, ...]
        if self.finished is not None and self._post is not None:
            over = self.finished.game.prompt
            reason = getattr(over, "reason", "")
            draw.text(surface, f"Game {self.finished.next.number} is over: {reason}"[:140], (x, y + 8), 19,
                      (255, 230, 120))
            y += 36
            lines = self._post.lines
            title = "Post-game sequence (p.161-164)"
        elif c.over:
            champion = c.champion()
            general = c.resistance_general()
            lines = tuple(x for x in (
                f"{champion} is the Gaslands Season Champion (p.158)" if champion else "",
                f"{general} is the Pro-Earth Resistance General (p.158)" if general else "",
                *(c.games[-1].lines if c.games else ())) if x)
            title = "The campaign is over"
        else:
            lines = self.next.lines + (("", "Last game:", *c.games[-1].lines) if c.games else ())
            title = "Pre-game sequence (p.159-160)"
        draw.text(surface, title, (x, y + 6), 20, draw.SELECT)
        y += 34
        for line in lines:
            if y > area.bottom - 24:
                break
            draw.text(surface, line[:150], (x, y), 16, draw.TEXT)
            y += 21
        self._panel(surface)

    def _standings(self, surface: pygame.Surface, x: int, y: int) -> int:
        c = self.campaign if self._post is None else self._post.campaign
        head = ("Team", "Championship", "Stash", "Vehicles (Dents)")
        cols = (x, x + 230, x + 370, x + 460)
        for cx, h in zip(cols, head, strict=True):
            draw.text(surface, h, (cx, y), 16, draw.TEXT_DIM)
        y += 22
        for t in c.standings():
            colour = draw.hex_colour(t.colour)
            pygame.draw.rect(surface, colour, (x - 14, y + 3, 9, 12))
            role = f" ({t.role})" if t.role else ""
            draw.text(surface, t.name + role, (cols[0], y), 17, colour)
            draw.text(surface, str(t.championship), (cols[1], y), 17, draw.TEXT)
            draw.text(surface, f"{t.stash} Cans", (cols[2], y), 17, draw.TEXT)
            vehicles = ", ".join(f"{label}" + (f" ({r.dents})" if (r := t.record(label)).dents else "")
                                 for label in _labels(t.team))
            draw.text(surface, vehicles[:90], (cols[3], y), 16, draw.TEXT)
            y += 22
        if c.kind == "savage_highways":
            kept = ", ".join(_words(u) for u in c.rig_upgrades) or "none"
            lost = ", ".join(_words(u) for u in c.lost_upgrades) or "none"
            draw.text(surface, f"War Rig Upgrades kept: {kept}; lost for good: {lost} (p.167-168)", (x, y + 4), 16,
                      draw.TEXT_DIM)
            y += 24
        return y

    def _panel(self, surface: pygame.Surface) -> None:
        x, y, w, h = self.ctx.layout.panel
        pygame.draw.rect(surface, draw.PANEL, (x, y, w, h))
        pygame.draw.line(surface, draw.PANEL_EDGE, (x, y), (x, y + h), 1)
        title = "After the game" if self.finished is not None else "The campaign is over" if self.campaign.over \
            else "The next game"
        draw.text(surface, title, (x + 12, y + 16), 22, draw.SELECT)
        for b in self.panel_buttons():
            draw_button(surface, b, 16)


def _words(key: str) -> str:
    return key.replace("_", " ").title()


def _labels(team: object) -> tuple[str, ...]:
    from simulator.gaslands.teams import Team, vehicle_labels

    assert isinstance(team, Team)
    return vehicle_labels(team)


class CampaignGameMode(GameMode):
    """A campaign's game: the usual game window, with a **Campaign** button once the game is over that brings
    back the campaign's post-game screen (:attr:`back`)."""

    back: Callable[[], None] | None = None

    def buttons(self) -> list[TopButton]:
        out = super().buttons()
        if self.ctl.over() and self.back is not None:
            out.insert(0, TopButton("Campaign", self.back, width_px=100))
        return out

    def refresh(self) -> None:
        super().refresh()
        if self.ctl.over() and self.back is not None:
            self.say(self.message + "  Press Campaign (top bar) for the post-game sequence.")
