"""Savage Highways (p.165-175): the Riggers defend their War Rig against the Gangers in three scenarios.

Escape the City (p.168), Rescue (p.169-170), Ambush (p.172-173) and Long Road Home (p.173-174), each a
:class:`~simulator.gaslands.objectives.ScenarioRules` subclass. The players' parts are ``[[player]] role``:
``riggers`` (one player, with the War Rig) and ``gangers`` (one or more, a team under the Team Games rules,
p.123). The War Rig Upgrades attached to the Riggers' War Rig (p.167) are the scenario's ``[options]
rig_upgrades`` (the campaign sets them, :mod:`simulator.gaslands.campaign`); with any attached, the War Rig
cannot be Wrecked (Unlikely Stamina, p.167).

War Rig Upgrades in play (p.167): Hangers On (+4 Crew; lost after two Collisions in one activation),
Selvaggio (once per round, 1 Hull Point for every Hazard Token; lost after two shots without Cover in a Gear
Phase), Grease Monkey (once per Gear Phase, an Evade that cancels a hit gives back a lost Hull Point; lost to
a Blast's Hazard Token), Fuel Pod and Cow Catcher (their losses: an enemy's Tailgate Smash rolling no dice, a
Head-On with a Ganger; their benefits, a Skid Die re-rolled and a piece of terrain made Destructible, are not
played yet). Only one upgrade is lost in an activation.
"""

from __future__ import annotations

import math
from dataclasses import replace

from simulator.gaslands.audience import VoteChoice, VoteEffect
from simulator.gaslands.events import (
    Attacked,
    Collided,
    GameEvent,
    ScenarioEffect,
    ScenarioNotice,
)
from simulator.gaslands.objectives import (
    Ask,
    AskPoint,
    Ctx,
    Goal,
    Layout,
    ScenarioRules,
    Verdict,
    enemies,
    move_area,
    vehicle_shape,
)
from simulator.gaslands.referee import MoveReport, Referee
from simulator.gaslands.skirmishes import RollingRoad, edge_line, inward_heading
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.gaslands.televised import active_vehicle
from simulator.geometry.pose import TOUCH_MM, Pose

UPGRADE_NAMES = {"hangers_on": "Hangers On", "selvaggio": "Selvaggio", "fuel_pod": "Fuel Pod",
                 "grease_monkey": "Grease Monkey", "cow_catcher": "Cow Catcher"}
"""The War Rig Upgrades (p.167) by key."""

HANGERS_ON_CREW = 4
"""Crew the Hangers On add (p.167)."""


def role_players(state: GameState, role: str) -> tuple[int, ...]:
    """The players with ``role`` (``riggers``, ``gangers``)."""
    return tuple(p for p in range(len(state.players)) if state.scenario.note(f"role:{p}") == role)


def war_rig(state: GameState) -> VehicleState | None:
    """The Riggers' War Rig (their first vehicle of type War Rig), or None."""
    riggers = role_players(state, "riggers")
    return next((v for v in state.vehicles if v.player in riggers and v.type_key == "war_rig"), None)


def rig_out(rig: VehicleState) -> bool:
    """Whether the War Rig is Wrecked, destroyed or disqualified."""
    return rig.status in (Status.WRECK, Status.REMOVED, Status.DISQUALIFIED)


def upgrades(state: GameState) -> tuple[str, ...]:
    """The War Rig Upgrades attached now."""
    text = state.scenario.note("rig_upgrades")
    return tuple(u for u in text.split(",") if u)


class Highway(ScenarioRules):
    """What the Savage Highways scenarios share: the parts, the War Rig and its upgrades, respawns at one's
    table edge, escaping over an edge (p.166-168)."""

    escape_key = "gangers"
    """The note naming the edges the War Rig escapes over."""

    def layout_problems(self, layout: Layout) -> list[tuple[str, str]]:
        """No spawn points: the file places the vehicles (p.168)."""
        return []

    def begin(self, ctx: Ctx) -> None:
        """Hangers On add 4 Crew (p.167)."""
        rig = war_rig(ctx.state)
        if rig is not None and "hangers_on" in upgrades(ctx.state):
            ctx.state = ctx.state.with_vehicle(replace(rig, crew=rig.crew + HANGERS_ON_CREW))
        if rig is not None and upgrades(ctx.state):
            names = ", ".join(UPGRADE_NAMES[u] for u in upgrades(ctx.state))
            ctx.emit(ScenarioNotice(f"{rig.label} carries {names}", "War Rig Upgrades, p.167", rig.id))
        super().begin(ctx)

    def edges_of(self, state: GameState, key: str) -> tuple[str, ...]:
        """The table edges the scenario names ``key`` (``riggers``, ``gangers``...)."""
        return tuple(e for e in state.scenario.note(f"edge:{key}").split(",") if e)

    # ------------------------------------------------------------------ respawns at a table edge (p.168)

    def home_edges(self, state: GameState, player: int) -> tuple[str, ...]:
        """The edges a player's vehicles respawn in contact with."""
        role = state.scenario.note(f"role:{player}")
        return self.edges_of(state, role)

    def deploy_pose(self, state: GameState, referee: Referee, vehicle_id: str, slot: int) -> Pose | None:
        """Respawn slot ``slot``: touching one of the player's table edges, facing into the table (p.168)."""
        v = state.vehicle(vehicle_id)
        edges = self.home_edges(state, v.player)
        if not edges:
            return None
        edge = edges[slot // 12 % len(edges)]
        line = edge_line(referee, edge)
        along = line.length * ((slot % 12) + 0.5) / 12.0
        p = line.interpolate(along)
        heading = inward_heading(edge)
        h = math.radians(heading)
        inset = v.length_mm / 2.0 + v.trailer_length_mm + 0.5  # a War Rig's trailer touches the edge (p.118)
        pose = Pose(p.x + inset * math.cos(h), p.y + inset * math.sin(h), heading)
        return pose if referee.fits(state, vehicle_id, pose) else None

    def deploy_slots(self, state: GameState, referee: Referee, player: int) -> tuple[int, ...]:
        waiting = [v for v in state.undeployed(player) if v.id in self.waiting_to_deploy(state)]
        n = 12 * max(1, len(self.home_edges(state, player)))
        return tuple(k for k in range(n) if any(self.deploy_pose(state, referee, v.id, k) is not None
                                                for v in waiting))

    def slot_label(self, slot: int) -> str:
        return f"along the edge, place {slot % 12 + 1}"

    # ------------------------------------------------------------------ the War Rig Upgrades (p.167)

    def cannot_wreck(self, state: GameState, vehicle_id: str) -> bool:
        """Unlikely Stamina: a War Rig with upgrades attached is not Wrecked at 0 Hull Points (p.167)."""
        rig = war_rig(state)
        return rig is not None and rig.id == vehicle_id and bool(upgrades(state))

    def lose_upgrade(self, ctx: Ctx, key: str, why: str) -> None:
        """Discard an attached upgrade (only one per activation, p.167); at 0 Hull Points without any left the
        War Rig is Wrecked at once (Unlikely Stamina)."""
        attached = upgrades(ctx.state)
        stamp = self.activation_stamp(ctx.state)
        if key not in attached or ctx.state.scenario.note("upgrade_lost") == stamp:
            return
        self.note(ctx, "upgrade_lost", stamp)
        self.note(ctx, "rig_upgrades", ",".join(u for u in attached if u != key))
        self.note(ctx, f"lost:{key}", "1")
        rig = war_rig(ctx.state)
        assert rig is not None
        if key == "hangers_on":
            ctx.state = ctx.state.with_vehicle(replace(rig, crew=max(0, rig.crew - HANGERS_ON_CREW)))
        ctx.emit(ScenarioEffect(rig.id, rig.label, f"loses {UPGRADE_NAMES[key]}: {why}", "War Rig Upgrades, p.167"))

    def observe(self, ctx: Ctx, event: GameEvent) -> None:
        """The upgrades' losses and Grease Monkey's repair as they happen (p.167)."""
        super().observe(ctx, event)
        rig = war_rig(ctx.state)
        if rig is None:
            return
        attached = upgrades(ctx.state)
        if isinstance(event, Collided) and rig.id in (event.active, event.passive):
            act = self.activation_stamp(ctx.state)
            n = (ctx.state.scenario.note_int(f"collisions:{act}") + 1)
            self.note(ctx, f"collisions:{act}", n)
            if n >= 2 and "hangers_on" in attached:
                self.lose_upgrade(ctx, "hangers_on", "two Collisions in one activation fling the crew off")
            other = event.passive if event.active == rig.id else event.active
            try:
                o = ctx.state.vehicle(other)
            except KeyError:
                o = None
            ganger = o is not None and o.player in role_players(ctx.state, "gangers")
            if ganger and event.orientation.value == "head_on" and "cow_catcher" in attached:
                self.lose_upgrade(ctx, "cow_catcher", "a Head-On Collision with a Ganger")
            if ganger and event.orientation.value == "tailgate" and "fuel_pod" in attached and \
                    event.passive == rig.id and not event.active_dice:
                self.lose_upgrade(ctx, "fuel_pod", "raiders cut the fuel lines")
        if isinstance(event, Attacked) and event.vehicle == rig.id:
            if not event.cover and "selvaggio" in attached:
                phase = self.phase_stamp(ctx.state)
                key = f"uncovered:{phase}"
                n = ctx.state.scenario.note_int(key) + 1
                self.note(ctx, key, n)
                if n >= 2:
                    self.lose_upgrade(ctx, "selvaggio", "two shots without Cover in one Gear Phase")
            if "grease_monkey" in attached and event.evade_rolls and any(r == 6 for r in event.evade_rolls):
                phase = self.phase_stamp(ctx.state)
                if ctx.state.scenario.note("grease_monkey") != phase:
                    rig = ctx.state.vehicle(rig.id)
                    if rig.damage > 0:
                        self.note(ctx, "grease_monkey", phase)
                        ctx.state = ctx.state.with_vehicle(replace(rig, damage=rig.damage - 1))
                        ctx.emit(ScenarioEffect(rig.id, rig.label, "Grease Monkey patches 1 Hull Point",
                                                "War Rig Upgrades, p.167", hull_delta=1))
            if event.hazard_delta > 0 and "grease_monkey" in attached:
                self.lose_upgrade(ctx, "grease_monkey", "a Blast throws the mechanic from the rig")

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        """Selvaggio: once per round, at the start of its activation, 1 Hull Point for every Hazard Token."""
        rig = war_rig(ctx.state)
        if point != "activation_start" or rig is None or active_vehicle(ctx.state) != rig.id:
            return None
        if "selvaggio" not in upgrades(ctx.state) or rig.hazards == 0 or rig.hull_points <= 1:
            return None
        if ctx.state.scenario.note("selvaggio") == str(ctx.state.round.round_no):
            return None
        return Ask(rig.player, rig.id, "Selvaggio, p.167", f"{rig.label}: lose 1 Hull Point to discard all "
                                                           f"{rig.hazards} Hazard Tokens?", ("no", "yes"), "selvaggio")

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        if ask.key != "selvaggio":
            return
        self.note(ctx, "selvaggio", ctx.state.round.round_no)
        if choice != "yes":
            return
        rig = ctx.state.vehicle(ask.vehicle_id)
        done = replace(rig, damage=rig.damage + 1, hazards=0)
        ctx.state = ctx.state.with_vehicle(done)
        ctx.emit(ScenarioEffect(rig.id, rig.label, "Selvaggio: 1 Hull Point for every Hazard Token", "Selvaggio, p.167",
                                hull_delta=-1, hazard_delta=-rig.hazards))

    def advise(self, state: GameState, referee: Referee, ask: Ask) -> str:
        rig = war_rig(state)
        return "yes" if ask.key == "selvaggio" and rig is not None and rig.hazards >= 4 else ask.choices[0]

    # ------------------------------------------------------------------ escaping (p.168)

    def escaped(self, ctx: Ctx, vehicle_id: str, area: object) -> bool:
        """Whether the War Rig's move touches one of the escape edges."""
        rig = war_rig(ctx.state)
        if rig is None or rig.id != vehicle_id:
            return False
        from shapely.geometry.base import BaseGeometry

        assert isinstance(area, BaseGeometry)
        return any(area.distance(edge_line(ctx.referee, e)) <= TOUCH_MM for e in self.edges_of(ctx.state,
                                                                                                 self.escape_key))

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        """The War Rig touching its escape edge escapes (p.168)."""
        super().after_move(ctx, vehicle_id, report, movement)
        v = ctx.state.vehicle(vehicle_id)
        if v.in_play and self.escaped(ctx, vehicle_id, move_area(v, report)):
            self.note(ctx, "escaped", "1")
            ctx.emit(ScenarioNotice(f"{v.label} escapes over the table edge", self.spec.victory_ref, v.id))

    def leaves_table(self, ctx: Ctx, vehicle_id: str, report: MoveReport) -> bool:
        """Driving off the escape edge is escaping, not disqualification (p.168)."""
        v = ctx.state.vehicle(vehicle_id)
        if self.escaped(ctx, vehicle_id, move_area(v, report)):
            ctx.state = ctx.state.with_vehicle(replace(v, pose=report.pose))
            self.note(ctx, "escaped", "1")
            ctx.emit(ScenarioNotice(f"{v.label} escapes over the table edge", self.spec.victory_ref, v.id))
            return True
        return False

    def goal_edges(self, state: GameState) -> tuple[str, ...]:
        """The edges the War Rig drives for."""
        return self.edges_of(state, self.escape_key)

    def side_winner(self, state: GameState, role: str, why: str) -> Verdict:
        """The Riggers or the Gangers win."""
        players = role_players(state, role)
        first = players[0] if players else None
        return Verdict(first, f"the {role.title()} win: {why}", self.spec.victory_ref)

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """The War Rig escaped: the Riggers win; Wrecked or disqualified: the Gangers win (p.168; the later
        scenarios check it as a Gear Phase begins, :meth:`start_of_phase`)."""
        rig = war_rig(state)
        if state.scenario.note("escaped") == "1":
            return self.side_winner(state, "riggers", "the War Rig escapes")
        lost = state.scenario.note("rig_lost")
        if lost:
            return self.side_winner(state, "gangers", lost)
        if self.lost_at_once and rig is not None and rig_out(rig):
            what = "disqualified" if rig.status is Status.DISQUALIFIED else "Wrecked"
            return self.side_winner(state, "gangers", f"the War Rig is {what}")
        return None

    lost_at_once: bool = True
    """Escape the City ends the moment the War Rig is Wrecked or disqualified (p.168); the later scenarios when
    a Gear Phase begins with it so (p.170, p.173, p.174)."""

    def start_of_phase(self, ctx: Ctx) -> None:
        """A Gear Phase beginning with the War Rig Wrecked or disqualified ends the game (p.170, p.173, p.174)."""
        super().start_of_phase(ctx)
        rig = war_rig(ctx.state)
        if not self.lost_at_once and rig is not None and rig_out(rig) and self.rig_counts(ctx.state):
            what = "disqualified" if rig.status is Status.DISQUALIFIED else "Wrecked"
            self.note(ctx, "rig_lost", f"a Gear Phase begins with the War Rig {what}")

    def rig_counts(self, state: GameState) -> bool:
        """Whether the War Rig's state counts yet (not while it is stalled in Ambush, p.172)."""
        return True

    def score(self, state: GameState) -> tuple[int, ...]:
        """The Riggers score 1 when the War Rig is out, or its Victory Points (Long Road Home)."""
        return tuple(state.scenario.points_of(p) for p in range(len(state.players)))

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """The War Rig heads for its escape edge; Riggers escort it and ram Gangers near it; Gangers attack the
        War Rig."""
        v = state.vehicle(vehicle_id)
        rig = war_rig(state)
        riggers = role_players(state, "riggers")
        size = state.scenario.note("table_size", "1220,1220").split(",")
        w, h = float(size[0]), float(size[1])
        if rig is not None and vehicle_id == rig.id:
            out = []
            for e in self.goal_edges(state):
                x, y = {"north": (v.pose.x_mm, h + 150.0), "south": (v.pose.x_mm, -150.0),
                        "east": (w + 150.0, v.pose.y_mm), "west": (-150.0, v.pose.y_mm)}[e]
                out.append(Goal(x, y, 3.0, "the escape edge"))
            return tuple(out)
        if v.player in riggers:
            out = [Goal(e.pose.x_mm, e.pose.y_mm, 1.0, "a Ganger", e.id, attack=True) for e in enemies(state, v)]
            if rig is not None and rig.status is Status.WRECK:
                out.append(Goal(rig.pose.x_mm, rig.pose.y_mm, 3.0, "the stalled War Rig", radius_mm=40.0))
            return tuple(out)
        out = [Goal(e.pose.x_mm, e.pose.y_mm, 0.5, "a Rigger", e.id, attack=True) for e in enemies(state, v)]
        if rig is not None and rig.in_play:
            out.append(Goal(rig.pose.x_mm, rig.pose.y_mm, 2.0, "the War Rig", rig.id, attack=True))
        return tuple(out)


class EscapeTheCity(Highway):
    """Scenario 1 (p.168): the War Rig escapes over the Gangers' table edge, or is stopped."""

    key = "escape_the_city"


class Rescue(Highway):
    """Scenario 2A (p.169-170): the War Rig drives home to the Riggers' own edge through a sandstorm."""

    key = "rescue"
    escape_key = "riggers"
    lost_at_once = False

    def start_of_round(self, ctx: Ctx) -> None:
        """Sandstorm: after the first round the Gangers turn the War Rig up to 90 degrees (p.170); the War Rig
        pivots as its next activation begins."""
        if ctx.state.round.round_no == 2 and not ctx.state.scenario.note("sandstorm"):
            self.note(ctx, "sandstorm", "due")

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        if point == "phase_start" and ctx.state.scenario.note("sandstorm") == "due":
            gangers = role_players(ctx.state, "gangers")
            rig = war_rig(ctx.state)
            if gangers and rig is not None and rig.in_play:
                return Ask(gangers[0], rig.id, self.ref("Sandstorm"), "The sandstorm: turn the War Rig how far "
                           "(degrees, counter-clockwise +)?", ("-90", "-45", "0", "45", "90"), "sandstorm")
            self.note(ctx, "sandstorm", "done")
        return super().ask(ctx, point)

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        if ask.key == "sandstorm":
            self.note(ctx, "sandstorm", f"turn:{choice}")
            return
        super().answer(ctx, ask, choice)

    def pivot_at_start(self, ctx: Ctx, vehicle_id: str) -> float | None:
        note = ctx.state.scenario.note("sandstorm")
        rig = war_rig(ctx.state)
        if not note.startswith("turn:") or rig is None or rig.id != vehicle_id:
            return None
        self.note(ctx, "sandstorm", "done")
        turn = float(note.split(":", 1)[1])
        return None if turn == 0.0 else (rig.pose.heading_deg + turn) % 360.0

    def advise(self, state: GameState, referee: Referee, ask: Ask) -> str:
        """A Ganger bot turns the War Rig away from its edge."""
        if ask.key != "sandstorm":
            return super().advise(state, referee, ask)
        rig = war_rig(state)
        edges = self.edges_of(state, "riggers")
        if rig is None or not edges:
            return "90"
        want = inward_heading(edges[0])  # facing away from the Riggers' edge
        best = min(ask.choices, key=lambda c: abs(((rig.pose.heading_deg + float(c)) - want + 180.0) % 360.0 - 180.0))
        return best


class Ambush(Highway):
    """Scenario 2B (p.172-173): the War Rig begins Wrecked; a Rigger reaching it restarts it; it escapes over
    either Gangers' edge."""

    key = "ambush"

    def begin(self, ctx: Ctx) -> None:
        """The War Rig begins Wrecked (p.172)."""
        super().begin(ctx)
        rig = war_rig(ctx.state)
        if rig is not None and rig.status is Status.ACTIVE:
            ctx.state = ctx.state.with_vehicle(replace(rig, status=Status.WRECK))
            ctx.emit(ScenarioNotice(f"{rig.label} starts stalled: a Wreck until a Rigger reaches it",
                                    self.ref("Stalled"), rig.id))

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        """A Rigger vehicle moving within Short range of the stalled War Rig restarts it in place (p.172)."""
        super().after_move(ctx, vehicle_id, report, movement)
        rig = war_rig(ctx.state)
        v = ctx.state.vehicle(vehicle_id)
        if rig is None or rig.status is not Status.WRECK or ctx.state.scenario.note("restarted"):
            return
        if v.player != rig.player or v.id == rig.id:
            return
        if move_area(v, report).distance(vehicle_shape(rig)) <= ctx.referee.range_mm(self.spec.text("restart_range")):
            ctx.state = ctx.state.with_vehicle(replace(rig, status=Status.ACTIVE, gear=1, hazards=0))
            self.note(ctx, "restarted", "1")
            ctx.emit(ScenarioNotice(f"{v.label} reaches {rig.label}: its engine starts", self.ref("Stalled"), rig.id))

    lost_at_once = False

    def rig_counts(self, state: GameState) -> bool:
        """The stalled War Rig is a Wreck by the scenario's set-up; it counts once restarted (p.172)."""
        return state.scenario.note("restarted") == "1"


class LongRoadHome(RollingRoad, Highway):
    """Scenario 3 (p.173-174): the War Rig drives off the exit edge of three tables in a row."""

    key = "long_road_home"

    def exits_here(self, state: GameState, v: VehicleState) -> bool:
        """The War Rig leads off each table; the others follow it (p.174)."""
        return v.type_key == "war_rig" or bool(state.scenario.note("leader"))

    def leaves_table(self, ctx: Ctx, vehicle_id: str, report: MoveReport) -> bool:
        return RollingRoad.leaves_table(self, ctx, vehicle_id, report)

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        RollingRoad.after_move(self, ctx, vehicle_id, report, movement)

    def exited(self, ctx: Ctx, vehicle_id: str) -> None:
        """The War Rig off the exit edge: 1 Victory Point for the Riggers (p.174)."""
        rig = war_rig(ctx.state)
        if rig is not None and rig.id == vehicle_id:
            self.score_points(ctx, rig.player, 1, f"{rig.label} reaches the next table", self.ref("Rolling Road"),
                              rig.id)

    lost_at_once = False

    def no_tanker_anchor(self, state: GameState, vehicle_id: str) -> bool:
        """Desperate Flight: no Tanker Anchor (p.174)."""
        rig = war_rig(state)
        return rig is not None and rig.id == vehicle_id

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """3 Victory Points: the Riggers win; a Gear Phase begins with the War Rig lost: the Gangers (p.174)."""
        riggers = role_players(state, "riggers")
        if riggers and state.scenario.points_of(riggers[0]) >= self.spec.whole("points_to_win"):
            return self.side_winner(state, "riggers", "the War Rig reaches the arena")
        lost = state.scenario.note("rig_lost")
        return self.side_winner(state, "gangers", lost) if lost else None

    def vote_choices(self, state: GameState, player: int) -> tuple[VoteChoice, ...]:
        """Wheeled Army: Gangers respawn even with vehicles in play, for 1 vote (Riggers at 0 Victory Points) or 2
        (at 1), not at all from 2 (p.174)."""
        if player not in role_players(state, "gangers"):
            return ()
        riggers = role_players(state, "riggers")
        vp = state.scenario.points_of(riggers[0]) if riggers else 0
        if vp >= 2:
            return ()
        cost = 1 + vp
        if state.votes_of(player) < cost or not any(v.player == player and v.in_play for v in state.vehicles):
            return ()
        return tuple(VoteChoice(VoteEffect("wheeled_army", v.id), cost, f"Wheeled Army: {v.label} comes back", 174)
                     for v in state.vehicles if v.player == player and v.status in (Status.WRECK, Status.REMOVED))

    def spend(self, ctx: Ctx, player: int, effect: VoteEffect) -> tuple[str, int] | None:
        if effect.effect == "wheeled_army":
            self.respawn_at_spawn(ctx, effect.vehicle_id)
        return None

    def waiting_to_deploy(self, state: GameState) -> tuple[str, ...]:
        return RollingRoad.waiting_to_deploy(self, state)

    def goal_edges(self, state: GameState) -> tuple[str, ...]:
        """The exit edge."""
        return (self.edges(state)[1],)

    def home_edges(self, state: GameState, player: int) -> tuple[str, ...]:
        """Respawns come on touching the entry edge (p.174)."""
        entry, _ = self.edges(state)
        return (entry,)


RULES: tuple[type[ScenarioRules], ...] = (EscapeTheCity, Rescue, Ambush, LongRoadHome)
