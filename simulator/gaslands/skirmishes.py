"""Wasteland Skirmishes (p.135-142): Automated Salvage, Express Delivery, Scavenger Party, The Revolution Will
Be Televised, Zombie Bash.

Each is a :class:`~simulator.gaslands.objectives.ScenarioRules` subclass; the shared machinery (spawn points,
tokens, points, asks) is in :mod:`simulator.gaslands.objectives`, the numbers in
``simulator/data/scenarios.toml``.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shapely.geometry import LineString, Point

from simulator.gaslands.events import (
    Disqualified,
    GameEvent,
    ScenarioEffect,
    ScenarioNotice,
    TokenPlaced,
)
from simulator.gaslands.objectives import (
    Ask,
    AskPoint,
    Ctx,
    Goal,
    Layout,
    ScenarioRules,
    Verdict,
    beside,
    clear_point,
    enemies,
    move_area,
    nearest_clear,
    plural,
    roll_expression,
    table_centre,
    vehicle_shape,
)
from simulator.gaslands.referee import MoveReport, Referee
from simulator.gaslands.round import RoundState
from simulator.gaslands.state import GameState, Mount, Status, VehicleState
from simulator.gaslands.tokens import Token
from simulator.geometry.pose import TOUCH_MM, Pose

# --------------------------------------------------------------------------- Automated Salvage (p.135-136)


class AutomatedSalvage(ScenarioRules):
    """Salvage Points for driving within Short range of enemies and for picking up the Salvage Counters that
    damage sheds; a destroyed vehicle loses its points; most points after three rounds (or when one vehicle
    is left) wins (p.135-136)."""

    key = "automated_salvage"
    pickup = frozenset({"salvage"})
    token_kinds = frozenset({"salvage"})

    def pickup_ref(self, token: Token) -> str:
        return self.ref("Ramshackle")

    def picked_up(self, ctx: Ctx, vehicle_id: str, token: Token) -> None:
        """A counter picked up is 1 Salvage Point and leaves play (p.135)."""
        self.remove_token(ctx, token, f"salvaged by {ctx.name(vehicle_id)}", self.ref("Ramshackle"))
        self.vehicle_points(ctx, vehicle_id, 1, "a Salvage Counter", self.ref("Ramshackle"))

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        """Magnetic Scavenger Hooks: a Movement Step that comes within Short range of an enemy vehicle is 1
        Salvage Point (p.135)."""
        super().after_move(ctx, vehicle_id, report, movement)
        v = ctx.state.vehicle(vehicle_id)
        if not movement or not v.in_play:
            return
        area = move_area(v, report)
        reach = ctx.referee.range_mm(self.spec.text("hook_range"))
        near = [e for e in enemies(ctx.state, v) if area.distance(vehicle_shape(e)) <= reach]
        if near:
            self.vehicle_points(ctx, vehicle_id, 1, f"its hooks reach {near[0].label}",
                                self.ref("Magnetic Scavenger Hooks"))

    def observe(self, ctx: Ctx, event: GameEvent) -> None:
        """Ramshackle: once per step, a vehicle that suffers damage sheds a Salvage Counter by its side (p.135)."""
        super().observe(ctx, event)
        vid = getattr(event, "vehicle", "")
        if not vid or getattr(event, "hull_delta", 0) >= 0:
            return
        try:
            v = ctx.state.vehicle(vid)
        except KeyError:
            return
        step = self.step_stamp(ctx.state)
        if ctx.state.scenario.note(f"ramshackle:{vid}") == step:
            return
        self.note(ctx, f"ramshackle:{vid}", step)
        radius = 10.0
        for k in (0, 1, 4, 5, 6, 7):
            x, y = beside(v, radius + 1.0, k)
            if clear_point(ctx.referee, ctx.state, x, y, radius, avoid_vehicles=False):
                t = Token(ctx.state.scenario.new_id("salvage"), "salvage", x, y, radius)
                ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t))
                ctx.emit(TokenPlaced(t.id, t.name, "salvage", x, y, f"{v.label} sheds it", self.ref("Ramshackle"),
                                     v.id, v.label))
                return

    def on_wreck(self, ctx: Ctx, vehicle_id: str, exploded: bool) -> None:
        """Twisted Metal: a destroyed vehicle loses its Salvage Points (p.135)."""
        super().on_wreck(ctx, vehicle_id, exploded)
        n = ctx.state.scenario.vehicle_points_of(vehicle_id)
        self.vehicle_points(ctx, vehicle_id, -n, "it is destroyed", self.ref("Twisted Metal"))

    def score(self, state: GameState) -> tuple[int, ...]:
        """Each player's Salvage Points, on every vehicle of theirs (Scarpered ones included, p.136)."""
        out = [0] * len(state.players)
        for v in state.vehicles:
            if 0 <= v.player < len(out):
                out[v.player] += state.scenario.vehicle_points_of(v.id)
        return tuple(out)

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """After three rounds, or when only one vehicle is left, the most Salvage Points wins (p.135-136)."""
        if self.rounds_over(state, self.spec.whole("rounds")):
            return self.most_points(state, f"{self.spec.whole('rounds')} rounds played")
        alive = [v for v in state.vehicles if v.in_play or v.status is Status.UNDEPLOYED]
        if len(alive) <= 1 and state.round.round_no > 1 or (len(alive) <= 1 and phase_end):
            return self.most_points(state, "only one vehicle remains" if alive else "no vehicle remains")
        return None

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """Salvage Counters, then enemies (the hooks reach within Short range)."""
        v = state.vehicle(vehicle_id)
        out = [Goal(t.x_mm, t.y_mm, 2.0, "a Salvage Counter", t.id) for t in state.scenario.on_table("salvage")]
        out += [Goal(e.pose.x_mm, e.pose.y_mm, 1.2, "an enemy to hook", e.id, attack=True) for e in enemies(state, v)]
        return tuple(out)


# --------------------------------------------------------------------------- Express Delivery (p.137-138)


EDGES = ("north", "south", "east", "west")


def edge_line(referee: Referee, edge: str) -> LineString:
    """A table edge as a line (north: largest y; east: largest x)."""
    t = referee.terrain()
    w, h = (t.width_mm, t.height_mm) if t is not None else (1000.0, 1000.0)
    return {"north": LineString([(0, h), (w, h)]), "south": LineString([(0, 0), (w, 0)]),
            "east": LineString([(w, 0), (w, h)]), "west": LineString([(0, 0), (0, h)])}[edge]


def opposite(edge: str) -> str:
    """The edge across the table."""
    return {"north": "south", "south": "north", "east": "west", "west": "east"}[edge]


def inward_heading(edge: str) -> float:
    """The heading of a vehicle driving onto the table from ``edge``."""
    return {"south": 90.0, "north": 270.0, "west": 0.0, "east": 180.0}[edge]


class RollingRoad(ScenarioRules):
    """Vehicles leave the table over the exit edge and come back on a new table by the entry edge, marked by
    the Gear Phase they left in (Express Delivery p.138, Long Road Home p.174)."""

    def edges(self, state: GameState) -> tuple[str, str]:
        """``(entry, exit)``: the file's ``edges``, else south to north."""
        entry = state.scenario.note("edge:entry", "south")
        return entry, state.scenario.note("edge:exit", opposite(entry))

    def phase_index(self, state: GameState) -> int:
        """The Gear Phases played so far, counted across rounds."""
        return (state.round.round_no - 1) * 6 + state.round.gear_phase

    def leaves_table(self, ctx: Ctx, vehicle_id: str, report: MoveReport) -> bool:
        """A move that overlaps the exit edge takes the vehicle off this table: it is marked with the Gear Phase
        counted from the Leader's (p.138)."""
        v = ctx.state.vehicle(vehicle_id)
        if not self.exits_here(ctx.state, v):
            return False
        _, exit_edge = self.edges(ctx.state)
        line = edge_line(ctx.referee, exit_edge)
        if move_area(v, report).distance(line) > TOUCH_MM:
            return False
        self.exit(ctx, v, report.pose, line)
        return True

    def exits_here(self, state: GameState, v: VehicleState) -> bool:
        """Whether ``v`` leaves by the exit edge (every vehicle in Express Delivery)."""
        return True

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        """A move whose template or Final Position overlaps the exit edge leaves the table (p.137)."""
        super().after_move(ctx, vehicle_id, report, movement)
        v = ctx.state.vehicle(vehicle_id)
        if v.in_play and movement and self.exits_here(ctx.state, v):
            _, exit_edge = self.edges(ctx.state)
            line = edge_line(ctx.referee, exit_edge)
            if move_area(v, report).distance(line) <= TOUCH_MM:
                self.exit(ctx, v, report.pose, line)

    def exit(self, ctx: Ctx, v: VehicleState, pose: Pose, line: LineString) -> None:
        """Take ``v`` off the table at ``pose``: its mark, where it left, and whatever the scenario scores."""
        phase = self.phase_index(ctx.state)
        leader = ctx.state.scenario.note_int("leader_phase", 0)
        if not leader:
            leader = phase
            self.note(ctx, "leader_phase", phase)
            self.note(ctx, "leader", v.id)
        mark = phase - leader + 1
        along = line.project(Point(pose.x_mm, pose.y_mm))
        table = ctx.state.scenario.note("table", "1")
        off = replace(v, status=Status.UNDEPLOYED, pose=pose)
        ctx.state = replace(ctx.state.with_vehicle(off), scenario=ctx.state.scenario.with_note(
            f"exit:{v.id}", f"{mark},{along:.1f},{table}"))
        ctx.emit(ScenarioNotice(f"{v.label} leaves the table over the exit edge, marked {mark}",
                                self.ref("Rolling Road"), v.id))
        self.exited(ctx, v.id)

    def exited(self, ctx: Ctx, vehicle_id: str) -> None:
        """What leaving the table scores."""

    def waiting_to_deploy(self, state: GameState) -> tuple[str, ...]:
        """Vehicles off the table after leaving it wait for their Gear Phase; only respawns are placed now."""
        return tuple(v.id for v in state.undeployed() if not state.scenario.note(f"exit:{v.id}"))

    def start_of_phase(self, ctx: Ctx) -> None:
        """Disqualify what is still on the table after the Gear Phase that marks 6; a new table when none is
        left; bring back the vehicles marked for this Gear Phase (p.138)."""
        super().start_of_phase(ctx)
        state = ctx.state
        leader = state.scenario.note_int("leader_phase", 0)
        if not leader:
            return
        last = self.spec.whole("last_mark")
        if self.phase_index(state) - leader + 1 > last and not state.scenario.note("new_table_due"):
            for v in state.vehicles:
                if v.in_play:
                    ctx.state = ctx.state.with_vehicle(replace(v, status=Status.DISQUALIFIED))
                    ctx.emit(Disqualified(v.id, v.label))
        if not any(v.in_play for v in ctx.state.vehicles):
            self.new_table(ctx)
        self.bring_back(ctx)

    def new_table(self, ctx: Ctx) -> None:
        """No vehicle left on this table: a new one (the same terrain, whole again), a new round (p.138)."""
        state = ctx.state
        n = state.scenario.note_int("table", 1) + 1
        wrecks = tuple(replace(v, status=Status.REMOVED) if v.status is Status.WRECK else v for v in state.vehicles)
        rs = state.round
        fresh = RoundState.start(rs.players, rs.pole)
        fresh = replace(fresh, round_no=rs.round_no + (0 if rs.gear_phase == 1 else 1))
        scen = state.scenario.with_note("table", n).with_note("leader_phase", "").with_note("leader", "")
        scen = scen.with_note("table_phase", self.phase_index(replace(state, round=fresh)))
        ctx.state = replace(state, vehicles=wrecks, removed_obstacles=frozenset(), dropped=(), round=fresh,
                            scenario=scen)
        ctx.emit(ScenarioNotice(f"Table {n}: every vehicle has left the last one; round {fresh.round_no} begins "
                                "(the terrain stays as it was)", self.ref("Rolling Road")))
        self.new_table_started(ctx)

    def new_table_started(self, ctx: Ctx) -> None:
        """After a new table is laid out."""

    def bring_back(self, ctx: Ctx) -> None:
        """Vehicles marked for this Gear Phase of the new table come on at the entry edge, opposite where they
        left, in the Gear they left in (p.138)."""
        state = ctx.state
        start = state.scenario.note_int("table_phase", 0)
        if not start:
            return
        table = state.scenario.note_int("table", 1)
        k = self.phase_index(state) - start + 1
        entry, _ = self.edges(state)
        line = edge_line(ctx.referee, entry)
        heading = inward_heading(entry)
        for v in state.vehicles:
            mark = state.scenario.note(f"exit:{v.id}")
            if not mark or v.status is not Status.UNDEPLOYED:
                continue
            n, along, left = mark.split(",")
            if int(n) != k or int(left) >= table:
                continue
            p = line.interpolate(float(along))
            inset = v.length_mm / 2.0 + v.trailer_length_mm + 1.0  # a War Rig's trailer on the table (p.118)
            h = math.radians(heading)
            pose = Pose(p.x + inset * math.cos(h), p.y + inset * math.sin(h), heading)
            spot = self.entry_spot(ctx, v, pose)
            if spot is None:
                continue
            ctx.state = replace(ctx.state.with_vehicle(replace(v, pose=spot, status=Status.ACTIVE)),
                                scenario=ctx.state.scenario.with_note(f"exit:{v.id}", ""))
            ctx.emit(ScenarioNotice(f"{v.label} comes onto the new table in Gear {v.gear}", self.ref("Rolling Road"),
                                    v.id))

    def entry_spot(self, ctx: Ctx, v: VehicleState, pose: Pose) -> Pose | None:
        """Where ``v`` enters: ``pose`` or the nearest free place along the entry edge."""
        for shift in (0.0, 40.0, -40.0, 80.0, -80.0, 120.0, -120.0, 160.0, -160.0, 200.0, -200.0):
            h = math.radians(pose.heading_deg)
            cand = Pose(pose.x_mm - shift * math.sin(h), pose.y_mm + shift * math.cos(h), pose.heading_deg)
            if ctx.referee.fits(ctx.state, v.id, cand):
                return cand
        return None


class ExpressDelivery(RollingRoad):
    """Drive off the far edge, table after table: 1 Victory Point per table at most; the first to 2 wins once
    everyone has left the table they are on (p.137-138)."""

    key = "express_delivery"
    spawn_apart = "medium"

    def layout_problems(self, layout: Layout) -> list[tuple[str, str]]:
        """Spawn points touch the entry edge and are more than Medium range apart (p.137)."""
        out = [p for p in super().layout_problems(layout) if "table edge" not in p[1]]
        for i, (_, x, y) in enumerate(layout.spawns, 1):
            gap = min(x, y, layout.width_mm - x, layout.height_mm - y)
            if gap > 10.0 + 1e-6:
                out.append((f"spawn[{i}]", f"{gap:.0f} mm from the nearest edge: in Express Delivery a spawn point "
                                           f"touches the entry edge ({self.ref()})"))
        return out

    def begin(self, ctx: Ctx) -> None:
        """Deal the Delivery Slips at random (p.137)."""
        super().begin(ctx)
        n = len(ctx.state.players)
        rolls = ctx.dice.roll_d6(n)
        order = sorted(range(n), key=lambda p: (rolls[p], p))
        for holder, slip in zip(range(n), order, strict=True):
            self.note(ctx, f"slip:{holder}", slip)
        ctx.emit(ScenarioNotice("The Delivery Slips are dealt", self.ref("Delivery Slips"), roll=rolls))

    def after_collision(self, ctx: Ctx, active_id: str, other_id: str, obstacle: bool, smashes: tuple[bool, bool],
                        damage: dict[str, int]) -> None:
        """Exchanging Details: the controllers of two colliding vehicles swap slips (p.137)."""
        super().after_collision(ctx, active_id, other_id, obstacle, smashes, damage)
        if obstacle:
            return
        a, b = ctx.state.vehicle(active_id).player, ctx.state.vehicle(other_id).player
        if a == b or not (0 <= a < len(ctx.state.players) and 0 <= b < len(ctx.state.players)):
            return
        sa, sb = ctx.state.scenario.note(f"slip:{a}"), ctx.state.scenario.note(f"slip:{b}")
        self.note(ctx, f"slip:{a}", sb)
        self.note(ctx, f"slip:{b}", sa)
        ctx.emit(ScenarioNotice(f"{ctx.player_name(a)} and {ctx.player_name(b)} swap Delivery Slips",
                                self.ref("Delivery Slips")))

    def exited(self, ctx: Ctx, vehicle_id: str) -> None:
        """1 Victory Point for its controller, at most one per table (p.137); a Leader with Pole Position passes
        it to the left (p.137)."""
        p = ctx.state.vehicle(vehicle_id).player
        table = ctx.state.scenario.note("table", "1")
        if ctx.state.scenario.note(f"scored:{p}") != table and 0 <= p < len(ctx.state.players):
            self.note(ctx, f"scored:{p}", table)
            self.score_points(ctx, p, 1, f"{ctx.name(vehicle_id)} delivers", self.ref("Express Delivery"), vehicle_id)
            if ctx.state.scenario.points_of(p) >= self.spec.whole("points_to_win") and \
                    not ctx.state.scenario.note("first_to_two"):
                self.note(ctx, "first_to_two", p)
        self.pass_pole_from_leader(ctx)

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """Once a player has 2 Victory Points, play on until the table is empty; the first to 2 wins (p.138)."""
        first = state.scenario.note("first_to_two")
        if not first or any(v.in_play for v in state.vehicles):
            return None
        p = int(first)
        return Verdict(state.side_players(state.side_of(p))[0],
                       f"{state.players[p]} first reached {self.spec.whole('points_to_win')} Victory Points",
                       self.spec.victory_ref)

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """The exit edge, straight ahead; enemies in the way are fair game."""
        v = state.vehicle(vehicle_id)
        _, exit_edge = self.edges(state)
        w, h = (float(x) for x in state.scenario.note("table_size", "1220,1220").split(","))
        point = {"north": (v.pose.x_mm, h + 200.0), "south": (v.pose.x_mm, -200.0), "east": (w + 200.0, v.pose.y_mm),
                 "west": (-200.0, v.pose.y_mm)}[exit_edge]
        out = [Goal(point[0], point[1], 3.0, "the exit edge")]
        out += [Goal(e.pose.x_mm, e.pose.y_mm, 0.2, "an enemy", e.id, attack=True) for e in enemies(state, v)]
        return tuple(out)

    def start_of_phase(self, ctx: Ctx) -> None:
        """A Leader's controller with Pole Position hands it to the left (p.137)."""
        super().start_of_phase(ctx)
        self.pass_pole_from_leader(ctx)

    def pass_pole_from_leader(self, ctx: Ctx) -> None:
        """If the player with Pole Position controls the Leader, Pole Position goes to the left (p.137)."""
        leader = ctx.state.scenario.note("leader")
        if not leader:
            return
        rs = ctx.state.round
        if ctx.state.vehicle(leader).player == rs.pole:
            ctx.state = ctx.state.with_round(replace(rs, pole=(rs.pole + 1) % rs.players))


# --------------------------------------------------------------------------- Scavenger Party (p.139-140)


LOOT_FACING = {"oil_slick_dropper": "rear", "napalm_dropper": "rear"}
"""Where a Loot Box weapon goes: droppers to the rear, the rest turret-mounted (p.140)."""


class ScavengerParty(ScenarioRules):
    """D6+6 crates in a ring at Double range from the centre; each crate picked up opens a Loot Box; the most
    crates after three rounds (or more than half of them at once) wins (p.139-140)."""

    key = "scavenger_party"
    pickup = frozenset({"crate"})
    wreck_drops = frozenset({"crate"})
    token_kinds = frozenset({"crate"})

    def pickup_ref(self, token: Token) -> str:
        return self.ref("Crates")

    def begin(self, ctx: Ctx) -> None:
        """D6+6 crates, evenly round a circle at Double range from the centre of the table (p.139)."""
        if not ctx.state.scenario.of_kind("crate"):
            n, rolls = roll_expression(ctx.dice, self.spec.text("crates"))
            cx, cy = table_centre(ctx.referee)
            r = ctx.referee.range_mm(self.spec.text("crate_ring"))
            for k in range(n):
                a = 2.0 * math.pi * k / n + math.pi / 2.0
                x, y = cx + r * math.cos(a), cy + r * math.sin(a)
                spot = nearest_clear(ctx.referee, ctx.state, x, y, 12.0, 60.0) or (x, y)
                t = Token(ctx.state.scenario.new_id("crate"), "crate", spot[0], spot[1])
                ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t))
            ctx.emit(ScenarioNotice(f"D6+6 = {n} crates round the middle", self.ref("Crates"), roll=rolls))
        self.note(ctx, "crates", len(ctx.state.scenario.of_kind("crate")))
        super().begin(ctx)

    def picked_up(self, ctx: Ctx, vehicle_id: str, token: Token) -> None:
        """A Loot Box: D6 on the Loot Box Table (p.140): a one-use item that needs no build slot."""
        (roll,) = ctx.dice.roll_d6(1)
        item = self.spec.tables["loot_boxes"].rows[str(roll)]
        v = ctx.state.vehicle(vehicle_id)
        if item == "nitro_booster":  # an upgrade the perks offer at the start of a Movement Step (p.84)
            k = ctx.state.loadout(vehicle_id)
            fitted = replace(k, upgrades=(*k.upgrades, ("nitro_booster", "")))
            ctx.state = replace(ctx.state, loadouts=(*(x for x in ctx.state.loadouts if x.vehicle != vehicle_id), fitted))
            self.note(ctx, f"nitro:{vehicle_id}", "1")
            words = "a Nitro Booster (fired at the start of a Movement Step, once)"
        else:
            mount = Mount(item, LOOT_FACING.get(item, "turret"), 1)
            ctx.state = ctx.state.with_vehicle(replace(v, weapons=(*v.weapons, mount)))
            self.note(ctx, f"loot:{vehicle_id}:{len(v.weapons)}", item)
            words = f"a {item.replace('_', ' ')} with 1 Ammo ({mount.facing})"
        ctx.emit(ScenarioEffect(vehicle_id, v.label, f"Loot Box {roll}: {words}", self.ref("Loot Boxes")))

    def on_wreck(self, ctx: Ctx, vehicle_id: str, exploded: bool) -> None:
        """Crates stay touching the wreck; Loot Box items are lost (p.139-140)."""
        super().on_wreck(ctx, vehicle_id, exploded)
        v = ctx.state.vehicle(vehicle_id)
        loot = {int(k.rsplit(":", 1)[1]) for k, _ in ctx.state.scenario.notes_starting(f"loot:{vehicle_id}:")}
        if loot:
            kept = tuple(m for i, m in enumerate(v.weapons) if i not in loot)
            ctx.state = replace(ctx.state.with_vehicle(replace(v, weapons=kept)),
                                scenario=ctx.state.scenario.without_notes(
                                    k for k, _ in ctx.state.scenario.notes_starting(f"loot:{vehicle_id}:")))
        if ctx.state.scenario.note(f"nitro:{vehicle_id}") == "1":
            k = ctx.state.loadout(vehicle_id)
            ups = list(k.upgrades)
            if ("nitro_booster", "") in ups:
                ups.remove(("nitro_booster", ""))
            ctx.state = replace(ctx.state, loadouts=tuple(replace(x, upgrades=tuple(ups)) if x.vehicle == vehicle_id
                                                          else x for x in ctx.state.loadouts))
            self.note(ctx, f"nitro:{vehicle_id}", "")

    def score(self, state: GameState) -> tuple[int, ...]:
        """Crates each player's vehicles hold (Scarpered ones included, p.140)."""
        out = [0] * len(state.players)
        for t in state.scenario.of_kind("crate"):
            if t.carrier:
                p = state.vehicle(t.carrier).player
                if 0 <= p < len(out):
                    out[p] += 1
        return tuple(out)

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """More than half the crates held by one player, or three rounds played: most crates wins (p.140)."""
        total = state.scenario.note_int("crates", 0)
        for side, n in self.side_scores(state).items():
            if total and n * 2 > total:
                return Verdict(state.side_players(side)[0], f"{state.side_name(side)} holds {n} of the {total} "
                                                            "crates", self.spec.victory_ref)
        if self.rounds_over(state, self.spec.whole("rounds")):
            return self.most_points(state, f"{self.spec.whole('rounds')} rounds played")
        return None

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """Crates on the table, then enemies carrying crates."""
        v = state.vehicle(vehicle_id)
        out = [Goal(t.x_mm, t.y_mm, 2.5, "a crate", t.id) for t in state.scenario.on_table("crate")]
        for e in enemies(state, v):
            n = len(state.scenario.carried(e.id, "crate"))
            out.append(Goal(e.pose.x_mm, e.pose.y_mm, 0.5 + 0.8 * n, "an enemy with crates", e.id, attack=True))
        return tuple(out)


# --------------------------------------------------------------------------- The Revolution Will Be Televised


class Revolution(ScenarioRules):
    """Once per Gear Phase, a collision with the uplink (a piece of terrain the player with Pole Position
    reveals) scores 1 Victory Point and moves it; 3 Victory Points or three rounds (p.141-142)."""

    key = "revolution"

    def terrain_names(self, referee: Referee, state: GameState) -> dict[str, str]:
        """The pieces of terrain that may be the uplink, by a unique name."""
        t = referee.terrain()
        if t is None:
            return {}
        out: dict[str, str] = {}
        for o in t.obstacles:
            if o.id in state.removed_obstacles:
                continue
            name = o.label or o.id
            k = 2
            base = name
            while name in out:
                name = f"{base} {k}"
                k += 1
            out[name] = o.id
        return out

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        """The player with Pole Position reveals the uplink: after deployment, and after each time it scores."""
        state = ctx.state
        need = not state.scenario.note("uplink") or state.scenario.note("uplink_due") == "1"
        if point not in ("deployed", "activation_end", "phase_start") or not need:
            return None
        names = self.terrain_names(ctx.referee, state)
        current = state.scenario.note("uplink")
        choices = tuple(n for n, i in names.items() if i != current)
        if not choices:
            return None
        pole = state.round.pole
        return Ask(pole, "", self.ref("The Uplink"), f"{state.players[pole]}: which piece of terrain is the uplink?",
                   choices, "uplink")

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        names = self.terrain_names(ctx.referee, ctx.state)
        if choice not in names:
            return
        self.note(ctx, "uplink", names[choice])
        self.note(ctx, "uplink_due", "")
        ctx.emit(ScenarioNotice(f"{ctx.player_name(ask.player)} reveals the uplink: {choice}", self.ref("The Uplink")))

    def after_collision(self, ctx: Ctx, active_id: str, other_id: str, obstacle: bool, smashes: tuple[bool, bool],
                        damage: dict[str, int]) -> None:
        """A collision with the uplink: 1 Victory Point, once per Gear Phase; then a new uplink (p.141)."""
        super().after_collision(ctx, active_id, other_id, obstacle, smashes, damage)
        scen = ctx.state.scenario
        if not obstacle or other_id != scen.note("uplink"):
            return
        stamp = self.phase_stamp(ctx.state)
        if scen.note("uplink_scored") == stamp:
            return
        self.note(ctx, "uplink_scored", stamp)
        who = ctx.state.vehicle(active_id).player
        self.score_points(ctx, who, 1, f"{ctx.name(active_id)} hits the uplink", self.ref("The Uplink"), active_id)
        self.note(ctx, "uplink_due", "1")

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """3 Victory Points, or three rounds played: the most Victory Points wins (p.142)."""
        won = self.first_to(state, self.spec.whole("points_to_win"), "")
        if won is not None:
            return won
        if self.rounds_over(state, self.spec.whole("rounds")):
            return self.most_points(state, f"{self.spec.whole('rounds')} rounds played")
        return None

    def advise(self, state: GameState, referee: Referee, ask: Ask) -> str:
        """A bot reveals the piece nearest its own vehicles and furthest from its enemies'."""
        names = self.terrain_names(referee, state)
        t = referee.terrain()
        if t is None:
            return ask.choices[0]
        shapes = {o.id: o.polygon for o in t.obstacles}

        def worth(name: str) -> float:
            shape = shapes.get(names.get(name, ""))
            if shape is None:
                return -math.inf
            mine = [vehicle_shape(v).distance(shape) for v in state.vehicles if v.player == ask.player and v.in_play]
            theirs = [vehicle_shape(v).distance(shape) for v in state.vehicles if v.player != ask.player
                      and v.in_play and 0 <= v.player < len(state.players)]
            return (min(theirs, default=1000.0) - min(mine, default=1000.0))

        return max(ask.choices, key=lambda n: (worth(n), n))

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """The uplink (ram it), unless it has scored this Gear Phase; enemies a little."""
        v = state.vehicle(vehicle_id)
        out = [Goal(e.pose.x_mm, e.pose.y_mm, 0.3, "an enemy", e.id, attack=True) for e in enemies(state, v)]
        uplink = state.scenario.note("uplink")
        box = state.scenario.note(f"shape:{uplink}")
        if uplink and box:
            x, y, r = (float(p) for p in box.split(","))
            out.append(Goal(x, y, 3.0, "the uplink", uplink, radius_mm=r))
        return tuple(out)

    def observe(self, ctx: Ctx, event: GameEvent) -> None:
        """Keep where the uplink is (its centre and size), for the bots' goals."""
        super().observe(ctx, event)
        uplink = ctx.state.scenario.note("uplink")
        if uplink and not ctx.state.scenario.note(f"shape:{uplink}"):
            t = ctx.referee.terrain()
            for o in (t.obstacles if t is not None else ()):
                if o.id == uplink:
                    c = o.polygon.centroid
                    r = max(math.dist((c.x, c.y), p) for p in o.polygon.exterior.coords)
                    self.note(ctx, f"shape:{uplink}", f"{c.x:.1f},{c.y:.1f},{r:.1f}")


# --------------------------------------------------------------------------- Zombie Bash (p.142)


class ZombieBash(ScenarioRules):
    """Zombies all over the table: a move that touches one collects it; a wreck releases 5 of its player's;
    the most zombies wins when fewer than 10 are left, someone has 20, one player has vehicles, or after three
    rounds (p.142)."""

    key = "zombie_bash"
    pickup = frozenset({"zombie"})
    token_kinds = frozenset({"zombie"})

    def pickup_ref(self, token: Token) -> str:
        return self.ref("Zombies")

    def begin(self, ctx: Ctx) -> None:
        """More than 10 zombies per player, spread evenly over the table where there is room (p.142)."""
        if not ctx.state.scenario.of_kind("zombie"):
            n = self.spec.whole("zombies_per_player") * len(ctx.state.players)
            for x, y in spread(ctx.referee, ctx.state, n, 10.0):
                t = Token(ctx.state.scenario.new_id("zombie"), "zombie", x, y, 10.0)
                ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t))
        super().begin(ctx)

    def picked_up(self, ctx: Ctx, vehicle_id: str, token: Token) -> None:
        """Its controller collects the zombie (p.142)."""
        p = ctx.state.vehicle(vehicle_id).player
        self.remove_token(ctx, token, f"collected by {ctx.name(vehicle_id)}", self.ref("Zombies"))
        self.score_points(ctx, p, 1, f"{ctx.name(vehicle_id)} runs one down", self.ref("Zombies"), vehicle_id)

    def on_wreck(self, ctx: Ctx, vehicle_id: str, exploded: bool) -> None:
        """A wreck's controller puts 5 of their collected zombies back within Short range of it (p.142)."""
        super().on_wreck(ctx, vehicle_id, exploded)
        v = ctx.state.vehicle(vehicle_id)
        p = v.player
        have = ctx.state.scenario.points_of(p)
        n = min(have, self.spec.whole("released"))
        if n <= 0:
            return
        reach = ctx.referee.range_mm(self.spec.text("release_range"))
        placed = 0
        for k in range(24):
            if placed >= n:
                break
            a = math.radians(k * 47.0)
            r = v.length_mm / 2.0 + 15.0 + (reach - 20.0) * ((k % 3) / 3.0)
            x, y = v.pose.x_mm + r * math.cos(a), v.pose.y_mm + r * math.sin(a)
            if not clear_point(ctx.referee, ctx.state, x, y, 10.0):
                continue
            t = Token(ctx.state.scenario.new_id("zombie"), "zombie", x, y, 10.0)
            self.place_token(ctx, t, f"released by the wreck of {v.label}", self.ref("Zombies"))
            placed += 1
        self.score_points(ctx, p, -placed, f"{plural(placed, 'zombie')} released by {v.label}'s wreck",
                          self.ref("Zombies"), vehicle_id)

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """Fewer than 10 zombies left, 20 collected, one player with vehicles, or three rounds (p.142)."""
        left = len(state.scenario.on_table("zombie"))
        if left < self.spec.whole("fewest_left"):
            return self.most_points(state, f"only {plural(left, 'zombie')} left")
        for side, n in self.side_scores(state).items():
            if n >= self.spec.whole("zombies_to_win"):
                return self.most_points(state, f"{state.side_name(side)} has {n} zombies")
        if len(state.sides_in_play()) <= 1 and state.round.round_no > 1:
            return self.most_points(state, "only one player has vehicles")
        if self.rounds_over(state, self.spec.whole("rounds")):
            return self.most_points(state, f"{self.spec.whole('rounds')} rounds played")
        return None

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """The nearest zombies."""
        v = state.vehicle(vehicle_id)
        near = sorted(state.scenario.on_table("zombie"), key=lambda t: t.distance_mm(v.pose.x_mm, v.pose.y_mm))[:6]
        out = [Goal(t.x_mm, t.y_mm, 2.0, "a zombie", t.id) for t in near]
        out += [Goal(e.pose.x_mm, e.pose.y_mm, 0.3, "an enemy", e.id, attack=True) for e in enemies(state, v)]
        return tuple(out)


def spread(referee: Referee, state: GameState, n: int, radius_mm: float) -> list[tuple[float, float]]:
    """``n`` points spread evenly over the table where a token of ``radius_mm`` fits (a grid, staggered, finer
    until there are enough clear points), keeping Short range clear round the spawn points."""
    t = referee.terrain()
    if t is None:
        return [(40.0 * k, 0.0) for k in range(n)]
    w, h = t.width_mm, t.height_mm
    short = referee.range_mm("short")
    spawns = state.scenario.spawns
    cols = max(2, round(math.sqrt(n * w / h)))
    for _ in range(20):
        rows = max(2, math.ceil(n / cols) + 1)
        dx, dy = w / (cols + 1), h / (rows + 1)
        pts = []
        for j in range(rows):
            for i in range(cols):
                x = dx * (i + 1) + (dx / 2.0 if j % 2 else 0.0)
                y = dy * (j + 1)
                if x > w - radius_mm or any(math.dist((x, y), (s.x_mm, s.y_mm)) < short + 30.0 for s in spawns):
                    continue
                if clear_point(referee, state, x, y, radius_mm, avoid_vehicles=False):
                    pts.append((x, y))
        if len(pts) >= n:
            step = len(pts) / n
            return [pts[int(k * step)] for k in range(n)]
        cols += 1
    return pts


RULES: tuple[type[ScenarioRules], ...] = (AutomatedSalvage, ExpressDelivery, ScavengerParty, Revolution, ZombieBash)
