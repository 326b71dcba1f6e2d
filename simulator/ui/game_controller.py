"""A hot-seat game session in the window: the game, the seats, the draft being put together, the save file.

The window never changes the game itself: every answer the player gives
becomes a decision value (:mod:`simulator.gaslands.decisions`) passed to
:meth:`Game.decide`; the engine checks it and answers with the next prompt.
:class:`GameController` keeps only what the screen needs around that:

- the table as it should be drawn (:meth:`GameController.display_table`): the
  scenario's table with the game's poses, gears, destroyed obstacles and wrecks;
- what the player is assembling for the current prompt before it is sent
  (dice marked for Push It, Shifts spent so far, attacks ticked, the facing of
  a Spin or Lose Control): :class:`Draft`, changed by typed panel actions
  (:mod:`simulator.ui.panel_actions`, :meth:`GameController.apply`);
- which seats bots take (:attr:`GameController.bots`) and their visible delay;
- what moves on screen after a decision (:class:`~simulator.ui.animation.Animator`);
- the save file: autosave after every decision (so a crash loses at most the
  decision in progress, DESIGN.md), save, load, and undo (a step back in the
  game's history, :meth:`Game.undo`).

A game played elsewhere (online, :mod:`simulator.net`) drives the same
controller: give it ``submit`` (decisions are sent, not applied), keep
:attr:`GameController.game` the mirrored game, and call
:meth:`GameController.applied` with each confirmed decision's table before and
events; the game mode shows it like a local one.

What may be chosen comes from the typed prompt (:mod:`simulator.gaslands.prompts`);
what happened from the typed events (:mod:`simulator.gaslands.events`). No rule
is checked here and no log text is read.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import assert_never

from shapely.geometry import Polygon

from simulator.errors import IllegalChoice, InputFileError
from simulator.gaslands.bots import Bot
from simulator.gaslands.decisions import (
    Activate,
    Attack,
    ChooseTemplate,
    Decision,
    DeclareAttacks,
    Drop,
    DropEdge,
    LoseControl,
    Piledrive,
    Pivot,
    PushIt,
    RollSkid,
    SpendShifts,
    Spin,
    SwingTrailer,
    Teleport,
)
from simulator.gaslands.events import Activated, GameEvent, TemplateChosen
from simulator.gaslands.game import Game
from simulator.gaslands.perks.sponsors import dashboard_notes
from simulator.gaslands.prompts import (
    ActivatePrompt,
    AttacksPrompt,
    DeclarePrompt,
    DeployPrompt,
    Ending,
    GameOverPrompt,
    LoseControlPrompt,
    PassPolePrompt,
    PiledriverPrompt,
    PivotPrompt,
    Prompt,
    PushItPrompt,
    ReactPrompt,
    ShiftsPrompt,
    SkidPrompt,
    SlideFacingPrompt,
    SpinPrompt,
    SwingTrailerPrompt,
    TeleportPrompt,
    TemplatePrompt,
    VotesPrompt,
)
from simulator.gaslands.round import qualifies
from simulator.gaslands.skid import ShiftUse, SkidOutcome, SpendShift
from simulator.gaslands.state import DroppedTemplate, GameState, Status, VehicleState
from simulator.gaslands.table_referee import vehicle_piece
from simulator.geometry.pose import Pose
from simulator.geometry.table import Table
from simulator.scenario import saves as saving
from simulator.scenario.loader import Scenario, parse_scenario
from simulator.scenario.setup import team_warnings
from simulator.ui import palette
from simulator.ui.animation import Animator
from simulator.ui.panel_actions import (
    AddSpend,
    Decide,
    PanelAction,
    PickDeployCar,
    SetShove,
    SetSpot,
    SetTurn,
    TakeBackSpend,
    TemplateAction,
    ToggleAttack,
    ToggleDie,
    ToggleDrop,
    ToggleSeat,
)
from simulator.ui.pending import Pending
from simulator.ui.sandbox import VehicleStatus
from simulator.vocab import Side, plural

BOT_DELAY_S = 0.8
"""A bot waits this long before each decision so people can follow it."""
ANY_FACING = (-180.0, 180.0)
"""The turn range when any facing may be chosen (Lose Control p.35, Piledriver p.120)."""


def default_autosave_path() -> Path:
    """``autosave.json`` in the user's data folder (:mod:`simulator.ui.user_files`; made on first write)."""
    from simulator.ui.user_files import autosave_path

    return autosave_path()


@dataclass
class Draft:
    """What the player is putting together for the current prompt, before it becomes a decision."""

    marked: set[int] = field(default_factory=set)
    spends: list[SpendShift] = field(default_factory=list)
    attacks: list[Attack] = field(default_factory=list)
    drop: Drop | None = None
    turn_deg: float = 0.0
    deploy: str = ""
    shove_mm: float = 0.0
    spot: tuple[float, float] | None = None


@dataclass(frozen=True)
class AttackOption:
    """A weapon that can fire at a target now (p.30): the mount (``-1`` Handgun), names, range band, Cover."""

    mount: int
    weapon: str
    target: str
    range_band: str
    cover: bool
    friendly: bool = False
    """The target is the attacker's own or a team-mate's vehicle (friendly fire is allowed, p.30; the window marks it)."""


@dataclass(frozen=True)
class DropOption:
    """A dropped weapon that can be dropped now against one vehicle edge (p.78)."""

    mount: int
    weapon: str
    edge: DropEdge


def forced_answer(game: Game) -> Decision | None:
    """The only answer to a prompt with no dice at all (a Shifts or Push It prompt with nothing rolled), else None."""
    p = game.prompt
    if isinstance(p, ShiftsPrompt) and not p.roll.faces:
        return SpendShifts(()) if p.roll.free_shifts == 0 else None
    if isinstance(p, PushItPrompt) and not p.roll.faces:
        return PushIt(())
    return None


def result_line(winner: str | None, reason: str) -> str:
    """The game-over line: ``"Red Team wins! (first across the Finish Line)"``; when the engine's reason
    already says the winner wins (a scenario's verdict: "the Riggers win: ..."), the reason alone, so the win is
    not said twice with the wrong verb."""
    if winner is None:
        return f"Game over: no winner ({reason})."
    if reason and winner.lower() in reason.lower() and "win" in reason.lower():
        line = reason[0].upper() + reason[1:]
        return line if line.endswith((".", "!", ")")) else line + "!"
    return f"{winner} wins! ({reason})" if reason else f"{winner} wins!"


def scenario_of(game: Game) -> Scenario:
    """The scenario a game was started from (re-read from the text saved with it)."""
    if game.origin is None:
        raise ValueError("this game has no origin: create it with setup.new_game")
    return parse_scenario(tomllib.loads(game.origin.scenario_text), game.origin.source)


class GameController:
    """Hot-seat play of a :class:`Game` in the window (see the module docstring)."""

    def __init__(self, game: Game, scenario: Scenario | None = None, *, autosave_path: Path | None = None,
                 bots: set[int] | None = None, bot_delay_s: float = BOT_DELAY_S, animate: bool = True,
                 submit: Callable[[Decision], bool] | None = None) -> None:
        self.game = game
        self.submit = submit
        """Where decisions go in a game played elsewhere (online: the server); None applies them here."""
        self.scenario = scenario or scenario_of(game)
        self.autosave_path = autosave_path
        self.bots: set[int] = set(bots or ())
        self.bot = Bot()
        self.bot_delay_s = bot_delay_s
        self.bot_wait = 0.0
        self.bots_paused = False
        self.anim = Animator(animate)
        self.draft = Draft()
        self.message = " ".join(team_warnings(self.scenario)) if not game.decisions else ""
        """What the status line says next (at the start: any seated team that breaks a team-building rule)."""
        self.revision = 0
        self.fresh = 0
        """Index into the log of the first event of the last decision (newer events are highlighted)."""
        self.autosaved_once = False
        self.on_events: Callable[[Sequence[GameEvent]], object] | None = None
        """Called with each decision's events once they are shown (the window plays their sounds)."""

    # ================================================================ names and state
    @property
    def state(self) -> GameState:
        """The game's table now."""
        return self.game.state

    @property
    def prompt(self) -> Prompt:
        """The question the game asks now."""
        return self.game.prompt

    def active_vehicle(self) -> str:
        """The id of the vehicle whose activation is under way, as the engine says ("" between activations);
        not the vehicle a prompt asks about (in a Collision the other vehicle reacts, p.53)."""
        return self.game.engine_state.activation.active

    def name(self, vehicle_id: str) -> str:
        """The vehicle's name in the game (a team's vehicle too), a scenario token's (``"gun turret 4"``), else the
        scenario's, else the id."""
        try:
            return self.state.vehicle(vehicle_id).label
        except KeyError:
            pass
        if self.state.scenario.has_token(vehicle_id):
            return self.state.scenario.token(vehicle_id).name
        try:
            return self.scenario.vehicle_spec(vehicle_id).name or vehicle_id
        except KeyError:
            return vehicle_id

    def player_name(self, player: int) -> str:
        """The player's name (``Red Team``)."""
        players = self.state.players
        return players[player] if 0 <= player < len(players) else "nobody"

    def player_colour(self, player: int) -> str:
        """The player's colour from the scenario, or the colour-blind-safe one (hex; :mod:`simulator.ui.palette`)."""
        return palette.team_hex([p.colour for p in self.scenario.spec.player], player)

    def vehicle(self, vehicle_id: str) -> VehicleState:
        """The engine's vehicle."""
        return self.state.vehicle(vehicle_id)

    def game_over_hint(self) -> str:
        """What may be done once the game is over (shown under the standings)."""
        return ("Ctrl+S saves the game, Ctrl+Z takes back the last decision, F2 opens the free table, R the rulings "
                "mode on this table.")

    def seat_label(self, player: int) -> str:
        """Who plays ``player``'s seat, for its seat button: ``bot`` or ``person``."""
        return "bot" if player in self.bots else "person"

    def is_bot_turn(self) -> bool:
        """Whether a bot answers the current prompt."""
        return not self.over() and self.prompt.player in self.bots

    def over(self) -> bool:
        """Whether the game has ended."""
        return isinstance(self.prompt, GameOverPrompt)

    def qualifying_now(self) -> tuple[str, ...]:
        """Every vehicle that may still activate in this Gear Phase, whichever player owns it (p.19)."""
        rs = self.state.round
        return tuple(v.id for v in self.state.vehicles if qualifies(v.contender(), rs))

    def display_table(self) -> Table:
        """The scenario's table with the game's poses and gears; removed obstacles gone, wrecks kept as pieces."""
        return display_table(self.scenario, self.state)

    def wrecks(self) -> frozenset[str]:
        """Ids of the vehicles that are wrecks on the table (p.43)."""
        return wrecks_of(self.state)

    def dropped_shapes(self) -> list[tuple[DroppedTemplate, Polygon]]:
        """The dropped templates on the table, bottom of the stack first, with their outlines (p.78)."""
        return [(t, self.game.referee.dropped_polygon(t.template, t.pose)) for t in self.state.dropped]

    def vehicle_status(self, vehicle_id: str) -> VehicleStatus | None:
        """Hazard Tokens, Hull Points and a note (wreck, on fire, gates, active, to activate) from the game."""
        try:
            v = self.vehicle(vehicle_id)
        except KeyError:
            return None
        notes = status_notes(v, len(self.game.options.course.gates) if self.game.options.course.death_race else None,
                             self.state)
        if v.in_play and not self.over():
            if vehicle_id == self.active_vehicle():
                notes.append("ACTIVE")
            elif vehicle_id in self.qualifying_now():
                notes.append("to activate")
        return VehicleStatus(v.hazards, v.hull_points, v.hull, ", ".join(notes))

    # ================================================================ what to do now
    def instruction(self) -> str:
        """One sentence: who decides what now, and how."""
        p = self.prompt
        who = self.player_name(p.player)
        name = self.name(p.vehicle_id) if p.vehicle_id else ""
        if isinstance(p, GameOverPrompt):
            return self.result_text()
        if self.is_bot_turn():
            return f"{who} (bot) is deciding..."
        match p:
            case ActivatePrompt():
                return f"{who}: press a glowing car's Activate button (or click it, then Enter), or drag a template onto it."
            case TemplatePrompt():
                if p.touch_it_use_it:
                    return f"{who}: the template touched was refused; choose a permitted one for {name} (p.38)."
                return f"{who}: drag a permitted template from the tray onto {name}, then Enter."
            case SkidPrompt():
                return f"{who}: choose how many Skid Dice {name} rolls (p.22)."
            case PushItPrompt():
                return f"{who}: keep the dice, or click dice to reroll and Push It (+1 Hazard, p.40)."
            case ShiftsPrompt():
                return f"{who}: click a Hazard/Spin/Slide die to cancel it with a Shift, or use the buttons; Done."
            case SlideFacingPrompt():
                return f"{who}: which way does {name} face after its Slide? Both endings are drawn (p.26)."
            case SpinPrompt():
                return (f"{who}: Spin {name} from {p.min_deg:+.0f} to {p.max_deg:+.0f} degrees: drag round the car or "
                        "use the slider, then Enter (p.24).")
            case ReactPrompt():
                return f"{who}: Smash or Evade? (p.53)"
            case AttacksPrompt():
                return f"{who}: pick targets for {name}'s weapons, then Fire (Enter) (p.30)."
            case LoseControlPrompt():
                page = "p.119" if p.jackknife else "p.35"
                return f"{who}: choose the facing of {name}, which lost control: drag round it or use the slider ({page})."
            case PassPolePrompt():
                return f"{who}: hand Pole Position to another player (p.125)."
            case VotesPrompt():
                return f"{who}: spend Audience Votes before activating, or not (p.89)."
            case DeployPrompt():
                if p.spawn:
                    return f"{who}: place a car by your spawn point: pick a car and a place ({p.rule})."
                return f"{who}: place a car on the Starting Grid: pick a car and a slot (p.126)."
            case DeclarePrompt():
                return f"{who}: {p.question} ({p.rule})"
            case PivotPrompt():
                extra = f" for {plural(p.hazards, 'Hazard Token')}" if p.hazards else ""
                return f"{who}: {p.rule} {name} up to {p.max_deg:.0f} degrees either way{extra}, or not ({p.page})."
            case PiledriverPrompt():
                return f"{who}: place {self.name(p.target)} within Short range, any facing, or leave it (p.120)."
            case SwingTrailerPrompt():
                return (f"{who}: {name} jackknifes: swing its trailer about the hitch, up to {p.max_deg:.0f} degrees "
                        "either side of the cab: drag behind the hitch or use the slider (p.119).")
            case TeleportPrompt():
                return (f"{who}: click where {name} teleports to, within {p.band.title()} range, same facing, "
                        "touching no obstruction or terrain (Experimental Teleporter, p.83-84).")
            case _ as unreachable:
                assert_never(unreachable)

    def result_text(self) -> str:
        """Who won (or why nobody did), from the game-over prompt."""
        p = self.prompt
        if not isinstance(p, GameOverPrompt):
            return ""
        return result_line(None if p.winner is None else self.player_name(p.winner), p.reason)

    def standings(self) -> tuple[str, ...]:
        """Vehicle names from first to last (p.128), as the engine ranked them."""
        p = self.prompt
        return p.standings if isinstance(p, GameOverPrompt) else ()

    def refusal_to_select(self, vehicle_id: str) -> str:
        """Why a click on ``vehicle_id`` does nothing now ("" when it is the one to act or may activate)."""
        p = self.prompt
        if isinstance(p, GameOverPrompt):
            return "The game is over. Ctrl+Z takes the last decision back; F2 opens the free table."
        if self.is_bot_turn():
            return (f"{self.player_name(p.player)} is played by a bot: wait, or give the seat to a person with its "
                    "seat button.")
        if isinstance(p, ActivatePrompt):
            if vehicle_id in p.vehicles:
                return ""
            return (f"{self.name(vehicle_id)} does not qualify now: {self.player_name(p.player)} activates one of "
                    f"{', '.join(self.name(o) for o in p.vehicles)} (p.19)")
        if vehicle_id == p.vehicle_id:
            return ""
        return f"{self.name(p.vehicle_id)} is activated now; answer the panel on the right."

    def template_refusal(self, pending: Pending) -> str:
        """Why the engine refuses the template on the car now, with the page ("" when it may be chosen)."""
        p = self.prompt
        m = pending.move
        if not isinstance(p, TemplatePrompt) or pending.vehicle_id != p.vehicle_id:
            return "No template to choose now: " + self.instruction()
        option = p.option(m.template)
        if option is None:
            return f"{m.template.replace('_', ' ')} is not in the template set"
        if not option.permitted:
            return f"{m.template.replace('_', ' ')}: {option.reason} ({option.page})"
        if m.reverse and not p.reverse_allowed:
            return f"no reversing now: {p.reverse_reason}"
        return ""

    # ================================================================ the draft, read from the prompt
    def shift_outcome(self) -> tuple[SkidOutcome | None, str]:
        """What the Shifts spent so far would give, or why they are illegal (the prompt rules)."""
        p = self.prompt
        if not isinstance(p, ShiftsPrompt):
            return None, ""
        try:
            return p.outcome(tuple(self.draft.spends)), ""
        except IllegalChoice as exc:
            return None, str(exc)

    def shifts_left(self) -> int:
        """Shift results not spent yet in the draft."""
        p = self.prompt
        return (p.shifts if isinstance(p, ShiftsPrompt) else 0) - len(self.draft.spends)

    def cancelled_dice(self) -> frozenset[int]:
        """Dice the draft cancels with Shifts."""
        return frozenset(s.die for s in self.draft.spends if s.use is ShiftUse.CANCEL and s.die is not None)

    def can_spend(self, spend: SpendShift) -> bool:
        """Whether one more Shift spent this way is legal (the prompt says, p.23)."""
        p = self.prompt
        return isinstance(p, ShiftsPrompt) and self.shifts_left() > 0 and p.allows((*self.draft.spends, spend))

    def attack_options(self) -> list[AttackOption]:
        """Every weapon with a target in range and arc now (p.28-31), Handguns included: the prompt's list."""
        p = self.prompt
        if not isinstance(p, AttacksPrompt):
            return []
        me = self.vehicle(p.vehicle_id).player

        def friendly(target: str) -> bool:  # a scenario's token (a gun turret, p.130) is nobody's
            return not self.state.scenario.has_token(target) and self.state.same_side(self.vehicle(target).player, me)

        return [AttackOption(w.mount, w.name, t.vehicle_id, t.range_band, t.cover, friendly(t.vehicle_id))
                for w in p.weapons for t in p.targets(w.mount)]

    def drop_options(self) -> list[DropOption]:
        """Every dropped weapon and each edge of its Arc of Fire it may go against (p.78): the prompt's list."""
        p = self.prompt
        if not isinstance(p, AttacksPrompt):
            return []
        return [DropOption(d.mount, d.name, edge) for d in p.drops for edge in d.edges]

    def attack_limit(self) -> int:
        """Attacks allowed this Attack Step: the Crew Value (p.31), from the prompt."""
        p = self.prompt
        return p.max_attacks if isinstance(p, AttacksPrompt) else 0

    def attack_count(self) -> int:
        """Attacks ticked, the drop counted unless the prompt says drops are free (Bombs Away, p.70)."""
        p = self.prompt
        free_drop = isinstance(p, AttacksPrompt) and p.bombs_away
        return len(self.draft.attacks) + (self.draft.drop is not None and not free_drop)

    def grid_previews(self) -> dict[int, Pose]:
        """For a deploy prompt: where the chosen (or first) waiting car would stand in each open slot (p.126)."""
        p = self.prompt
        if not isinstance(p, DeployPrompt):
            return {}
        vid = self.deploy_vehicle()
        return {s.slot: s.pose for s in p.previews if s.vehicle_id == vid}

    def deploy_vehicle(self) -> str:
        """The waiting car the deploying player has picked (the first one until they pick another)."""
        p = self.prompt
        waiting = list(p.vehicles) if isinstance(p, DeployPrompt) else []
        if self.draft.deploy in waiting:
            return self.draft.deploy
        return waiting[0] if waiting else ""

    def turn_range(self) -> tuple[float, float] | None:
        """How far the facing being chosen may turn either way, from the prompt (None: no facing chosen now)."""
        p = self.prompt
        if isinstance(p, SpinPrompt):
            return (p.min_deg, p.max_deg)
        if isinstance(p, PivotPrompt):
            return (-p.max_deg, p.max_deg)
        if isinstance(p, LoseControlPrompt | PiledriverPrompt):
            return ANY_FACING
        if isinstance(p, SwingTrailerPrompt):
            return (-p.max_deg - p.bend_deg, p.max_deg - p.bend_deg)
        return None

    def turning(self) -> str:
        """The vehicle whose facing the prompt is choosing (Spin, Pivot, Lose Control, Piledriver), else ''."""
        p = self.prompt
        if isinstance(p, PiledriverPrompt):
            return p.target
        return p.vehicle_id if self.turn_range() is not None else ""

    def preview_pose(self) -> Pose | None:
        """Where the facing (and shove) being chosen would put the vehicle, before the engine rules."""
        p = self.prompt
        vid = self.turning()
        if not vid:
            return None
        pose = self.vehicle(vid).pose
        if isinstance(p, PiledriverPrompt):
            return pose.ahead(self.draft.shove_mm).turned(self.draft.turn_deg)
        if isinstance(p, SwingTrailerPrompt):
            return pose  # the cab stays: the trailer swings (:meth:`preview_bend`)
        return pose.turned(self.draft.turn_deg)

    def teleport_pose(self) -> Pose | None:
        """Where the Experimental Teleporter would put its vehicle: the point clicked (or where it stands) with
        its facing (p.83-84); None for other prompts."""
        p = self.prompt
        if not isinstance(p, TeleportPrompt):
            return None
        x, y = self.draft.spot if self.draft.spot is not None else (p.before.x_mm, p.before.y_mm)
        return Pose(x, y, p.before.heading_deg)

    def teleport_problem(self) -> str:
        """Why the teleport being chosen is not legal, as the referee says (``""``: it is, p.83-84)."""
        p = self.prompt
        pose = self.teleport_pose()
        if not isinstance(p, TeleportPrompt) or pose is None or self.draft.spot is None:
            return ""
        return self.game.referee.place(self.state, p.vehicle_id, pose, p.before, "", band=p.band, clear=True)

    def preview_bend(self) -> float | None:
        """The trailer's bend being chosen in a Jackknife's Swing Trailer (p.119), else None."""
        p = self.prompt
        if isinstance(p, SwingTrailerPrompt):
            return p.bend_deg + self.draft.turn_deg
        return None

    def chosen_template(self) -> ChooseTemplate | None:
        """The template the active vehicle chose in this activation, from its
        :class:`~simulator.gaslands.events.TemplateChosen` event (None before one is chosen)."""
        vid = self.prompt.vehicle_id
        log = self.game.log
        for i in range(len(log) - 1, -1, -1):
            e = log[i]
            if isinstance(e, TemplateChosen) and e.vehicle == vid:
                side: Side | None = "left" if e.direction == "left" else "right" if e.direction == "right" else None
                return ChooseTemplate(e.template, side, e.reverse)
            if isinstance(e, Activated):
                return None
        return None

    def slide_endings(self) -> tuple[Ending, ...]:
        """Where an uncancelled Slide would end the move (p.24-26): for a Slide facing prompt both endings; for
        the Shifts prompt the prompt's endings while the Shifts spent so far leave a Slide."""
        p = self.prompt
        if isinstance(p, SlideFacingPrompt):
            return p.endings
        if isinstance(p, DeclarePrompt) and p.plans:  # Maxximum Drift: each template it may slide along (p.99)
            return p.endings
        if isinstance(p, ShiftsPrompt) and p.slide_endings:
            out, _ = self.shift_outcome()
            if out is not None and out.slide:
                return p.slide_endings
        return ()

    # ================================================================ decisions from the draft
    def facing_decision(self) -> Decision | None:
        """The Spin, Pivot, Lose Control or Piledriver answer the draft makes (None for other prompts)."""
        p = self.prompt
        d = self.draft
        if isinstance(p, SpinPrompt):
            return Spin(d.turn_deg)
        if isinstance(p, PivotPrompt):
            return Pivot(d.turn_deg)
        if isinstance(p, LoseControlPrompt):
            return LoseControl((p.heading_deg + d.turn_deg) % 360.0)
        if isinstance(p, PiledriverPrompt):
            pose = self.preview_pose()
            assert pose is not None
            return Piledrive(pose.x_mm, pose.y_mm, pose.heading_deg)
        if isinstance(p, SwingTrailerPrompt):
            return SwingTrailer(p.bend_deg + d.turn_deg)
        return None

    def attacks_decision(self) -> DeclareAttacks:
        """The attacks and the drop ticked so far."""
        d = self.draft
        return DeclareAttacks(tuple(d.attacks), (d.drop,) if d.drop is not None else ())

    def primary_action(self) -> PanelAction | None:
        """What Enter does for the current prompt (None: nothing, the panel's buttons answer it)."""
        p = self.prompt
        match p:
            case TemplatePrompt():
                return TemplateAction("choose")
            case SkidPrompt():  # the safe choice: no dice, no risk (p.22)
                return Decide(RollSkid(0))
            case PushItPrompt():
                return Decide(PushIt(tuple(sorted(self.draft.marked))))
            case ShiftsPrompt():
                return Decide(SpendShifts(tuple(self.draft.spends)))
            case AttacksPrompt():
                return Decide(self.attacks_decision() if self.attack_count() or self.draft.attacks
                              else DeclareAttacks(()))
            case SpinPrompt() | PivotPrompt() | LoseControlPrompt() | PiledriverPrompt() | SwingTrailerPrompt():
                decision = self.facing_decision()
                return Decide(decision) if decision is not None else None
            case TeleportPrompt():
                pose = self.teleport_pose()
                return Decide(Teleport(pose.x_mm, pose.y_mm)) if pose is not None else None
            case (ActivatePrompt() | SlideFacingPrompt() | ReactPrompt() | PassPolePrompt() | VotesPrompt()
                  | DeployPrompt() | DeclarePrompt() | GameOverPrompt()):
                return None
            case _ as unreachable:
                assert_never(unreachable)

    # ================================================================ actions (clicks and keys)
    def apply(self, action: PanelAction) -> bool:
        """Run a panel action; True if it changed anything (the reason is in :attr:`message` when not).

        :class:`TemplateAction` belongs to the window (the template on the car) and is refused here.
        """
        if self.is_bot_turn() and not isinstance(action, ToggleSeat):
            self.message = f"{self.player_name(self.prompt.player)} is a bot seat: wait for it."
            return False
        d = self.draft
        match action:
            case Decide(decision):
                return self.decide(decision)
            case ToggleSeat(player):
                self.toggle_bot(player)
                return True
            case ToggleDie(index):
                return self._toggle_die(index)
            case AddSpend(spend):
                if not self.can_spend(spend):
                    self.message = "No Shift left for that, or it breaks a rule (p.23)."
                    return False
                d.spends.append(spend)
                return True
            case TakeBackSpend():
                if d.spends:
                    d.spends.pop()
                return True
            case SetTurn(turn_deg):
                low, high = self.turn_range() or (0.0, 0.0)
                d.turn_deg = min(max(turn_deg, low), high)
                return True
            case SetShove(shove_mm):
                d.shove_mm = shove_mm
                return True
            case SetSpot(x_mm, y_mm):
                d.spot = (x_mm, y_mm)
                return True
            case ToggleAttack(attack):
                return self._toggle_attack(attack)
            case ToggleDrop(drop):
                return self._toggle_drop(drop)
            case PickDeployCar(vehicle_id):
                d.deploy = vehicle_id
                return True
            case TemplateAction():
                self.message = "the window handles the template on the car"
                return False
            case _ as unreachable:
                assert_never(unreachable)

    def _toggle_attack(self, attack: Attack) -> bool:
        d = self.draft
        if attack in d.attacks:
            d.attacks.remove(attack)
            return True
        same_weapon = [a for a in d.attacks if a.mount == attack.mount and attack.mount >= 0]
        if same_weapon:  # a weapon has one target per Attack Step: the tick moves to the new one
            d.attacks[d.attacks.index(same_weapon[0])] = attack
            return True
        if self.attack_count() >= self.attack_limit():
            self.message = f"Only {plural(self.attack_limit(), 'attack')}: the Crew Value (p.31). Untick one first."
            return False
        d.attacks.append(attack)
        return True

    def _toggle_drop(self, drop: Drop) -> bool:
        d = self.draft
        if d.drop == drop:
            d.drop = None
            return True
        p = self.prompt
        counts = not (isinstance(p, AttacksPrompt) and p.bombs_away)
        if d.drop is None and counts and self.attack_count() >= self.attack_limit():
            self.message = f"Only {plural(self.attack_limit(), 'attack')}: the Crew Value (p.31). Untick one first."
            return False
        d.drop = drop  # one drop per Attack Step: the tick moves (p.78)
        return True

    def _toggle_die(self, index: int) -> bool:
        p = self.prompt
        if isinstance(p, PushItPrompt) and 0 <= index < len(p.faces):
            self.draft.marked ^= {index}
            return True
        if isinstance(p, ShiftsPrompt) and 0 <= index < len(p.faces):
            cancel = SpendShift(ShiftUse.CANCEL, index)
            if cancel in self.draft.spends:
                self.draft.spends.remove(cancel)
                return True
            if not self.can_spend(cancel):
                self.message = "That die cannot be cancelled: no Shift left, or it is a Shift itself (p.23)."
                return False
            self.draft.spends.append(cancel)
            return True
        return False

    def click_vehicle(self, vehicle_id: str) -> bool:
        """A click on a car: activates it when the player is choosing which to activate (p.19)."""
        if isinstance(self.prompt, ActivatePrompt) and not self.is_bot_turn():
            refused = self.refusal_to_select(vehicle_id)
            if refused:
                self.message = refused
                return False
            return self.decide(Activate(vehicle_id))
        return False

    def toggle_bot(self, player: int) -> None:
        """A bot takes the seat, or hands it back to a person."""
        if not 0 <= player < len(self.state.players):
            return
        if player in self.bots:
            self.bots.discard(player)
            self.message = f"{self.player_name(player)} is played by a person now."
        else:
            self.bots.add(player)
            self.bots_paused = False
            self.message = f"A bot plays {self.player_name(player)} now."
        self.bot_wait = 0.0
        self._changed()

    # ================================================================ the log
    def display_log(self) -> tuple[list[GameEvent], int]:
        """The engine's events, and the index where the last decision's events start."""
        return list(self.game.log), self.fresh

    # ================================================================ deciding
    def decide(self, decision: Decision) -> bool:
        """Pass ``decision`` to the engine; animate and autosave. False (with the reason) if it is illegal.

        In a game played elsewhere (``submit`` given) the decision is sent instead; it shows once the
        other side applies it to :attr:`game` and reports it with :meth:`applied`.
        """
        if self.submit is not None:
            if not self.submit(decision):
                self.message = "Not sent: the connection is down or it is not this seat's turn."
                return False
            self.draft = Draft()
            self.message = "Sent: waiting for the server to confirm it."
            self._changed()
            return True
        before = self.state
        logged = len(self.game.log)
        try:
            self.game.decide(decision)
        except IllegalChoice as exc:
            self.message = f"Not allowed: {exc}"
            return False
        self.applied(before, self.game.last_events, logged)
        self._autosave()
        forced = forced_answer(self.game)
        if forced is not None:  # nothing to choose: answered through decide, so it is logged and replayed
            return self.decide(forced)
        return True

    def applied(self, before: GameState, events: Sequence[GameEvent], logged: int | None = None) -> None:
        """A decision has been applied to :attr:`game` (here, or by a server for a remote game): show it.

        ``before`` is the table before it, ``events`` what it caused, ``logged`` where they start in the log
        (default: the last ``len(events)`` events)."""
        self.draft = Draft()
        self.fresh = logged if logged is not None else len(self.game.log) - len(events)
        new = list(events)
        self.message = new[-1].text + (f" ({new[-1].rule})" if new[-1].rule else "") if new else ""
        self.anim.play(before, self.state, new)
        if self.on_events is not None:
            self.on_events(new)
        self._changed()

    def _changed(self) -> None:
        self.revision += 1

    def _autosave(self) -> None:
        if self.autosave_path is None:
            return
        try:
            self.autosave_path.parent.mkdir(parents=True, exist_ok=True)
            saving.save(self.game, self.autosave_path)
        except (OSError, ValueError) as exc:
            self.message = f"Autosave failed: {exc}"
            return
        if not self.autosaved_once:
            self.autosaved_once = True
            self.message += f"  [autosaving to {self.autosave_path}]"

    # ================================================================ time
    def update(self, dt: float) -> None:
        """Advance animations; let a bot decide when its delay is over."""
        self.anim.update(dt)
        if not self.is_bot_turn() or self.bots_paused or self.anim.busy:
            self.bot_wait = 0.0
            return
        self.bot_wait += dt
        if self.bot_wait >= self.bot_delay_s:
            self.bot_wait = 0.0
            self.decide(self.bot.decide(self.game))

    # ================================================================ files
    def replace_game(self, game: Game, message: str) -> None:
        """Continue with another game value (after undo or load)."""
        self.game = game
        self.scenario = scenario_of(game)
        self.draft = Draft()
        self.anim.clear()
        self.fresh = len(game.log)
        self.message = message
        self._changed()

    def undo(self) -> bool:
        """Take back the last decision made by a person (bot answers after it go too): a step back in the history."""
        if self.submit is not None:
            self.message = "A game played online cannot be taken back."
            return False
        if not self.game.history.can_undo:
            self.message = "Nothing to undo: no decision yet."
            return False
        game = self.game.undo()
        steps = 1
        all_bots = len(self.bots) >= len(self.state.players)
        while game.history.can_undo and (forced_answer(game) is not None
                                         or (not all_bots and game.prompt.player in self.bots)):
            game = game.undo()  # a forced answer (no dice) goes back with the decision before it
            steps += 1
        if all_bots:
            self.bots_paused = True
        self.replace_game(game, f"Undone: {steps} decision{'s' if steps > 1 else ''} taken back "
                                f"({len(game.decisions)} remain)." + (" Bots paused: Space resumes."
                                                                       if all_bots else ""))
        return True

    def save(self, path: Path) -> bool:
        """Save the game (seed, scenario, decisions, log) to ``path`` atomically."""
        try:
            saving.save(self.game, path)
        except OSError as exc:
            self.message = f"Could not save {path}: {exc}"
            return False
        self.message = f"Saved the game to {path} ({plural(len(self.game.decisions), 'decision')})."
        return True

    def load(self, path: Path) -> bool:
        """Replace the game with a saved one (replayed); a save that cannot be read leaves the game in hand."""
        try:
            game = saving.load(path)
        except InputFileError as exc:
            self.message = str(exc).splitlines()[0]
            return False
        self.replace_game(game, f"Loaded {path}: {plural(len(game.decisions), 'decision')} replayed.")
        return True


def display_table(scenario: Scenario, state: GameState) -> Table:
    """The scenario's table with a game state's poses and gears; removed obstacles and vehicles gone, wrecks kept
    as pieces (drawn as wrecks, p.43)."""
    base = scenario.table
    pieces = []
    known = {piece.id: piece for piece in base.vehicles}
    for v in state.vehicles:
        if v.status in (Status.REMOVED, Status.DISQUALIFIED, Status.UNDEPLOYED) or v.id in state.removed_obstacles:
            continue  # a wreck destroyed in a collision is gone from the table (p.44, p.49)
        piece = known.get(v.id) or vehicle_piece(v, state.players)  # a team's vehicle, a scenario's creature
        pieces.append(replace(piece, pose=v.pose, gear=v.gear, reversing=v.reversing))
    obstacles = tuple(o for o in base.obstacles if o.id not in state.removed_obstacles)
    return replace(base, vehicles=tuple(pieces), obstacles=obstacles)


def wrecks_of(state: GameState) -> frozenset[str]:
    """Ids of the vehicles that are wrecks on the table (p.43)."""
    return frozenset(v.id for v in state.vehicles if v.status is Status.WRECK and v.id not in state.removed_obstacles)


def status_notes(v: VehicleState, gates: int | None, state: GameState | None = None) -> list[str]:
    """A dashboard's notes for a vehicle: WRECKED, DESTROYED, OFF THE TABLE, ON FIRE, gates passed of ``gates``;
    with ``state``, also GHOST RIDER and its Soul Tokens (p.101, as the engine keeps them)."""
    notes = {Status.WRECK: ["WRECKED"], Status.REMOVED: ["DESTROYED"],
             Status.DISQUALIFIED: ["OFF THE TABLE"]}.get(v.status, [])
    if v.on_fire:
        notes.append("ON FIRE")
    if state is not None:
        notes.extend(dashboard_notes(state, v.id))
    if gates is not None:
        notes.append(f"gates {v.gates_passed}/{gates}")
    return notes
