"""Televised Events (p.130-134): Arena of Death, Capture the Flag, Flag Tag, Saturday Night Live.

Each is a :class:`~simulator.gaslands.objectives.ScenarioRules` subclass: the shared machinery (spawn
points, tokens, points, asks) is in :mod:`simulator.gaslands.objectives`; the numbers are in
``simulator/data/scenarios.toml``. The Death Race (p.124-128) is a race (:mod:`simulator.gaslands.race`).
"""

from __future__ import annotations

import math
from dataclasses import replace

from shapely.geometry import Point as ShapelyPoint

from simulator.gaslands.attacks import count_evades, count_hits, evade_dice
from simulator.gaslands.collisions import Reaction
from simulator.gaslands.events import (
    Activated,
    Collided,
    GameEvent,
    ScenarioNotice,
    ShiftsSpent,
    TemplateChosen,
    TokenDropped,
    TokenFired,
    TokenPlaced,
    VotesGained,
    WipedOut,
    Wrecked,
)
from simulator.gaslands.objectives import (
    COMPASS,
    Ask,
    AskPoint,
    Ctx,
    Goal,
    ScenarioRules,
    Verdict,
    beside,
    clear_point,
    enemies,
    move_area,
    roll_expression,
    table_centre,
    vehicle_shape,
    within_of_point,
)
from simulator.gaslands.permitted import Manoeuvre
from simulator.gaslands.referee import MoveReport, Referee
from simulator.gaslands.state import GameState, Status, VehicleState
from simulator.gaslands.tokens import Token
from simulator.vocab import Orientation

# --------------------------------------------------------------------------- Arena of Death (p.130)


class ArenaOfDeath(ScenarioRules):
    """The last player with vehicles wins; 2D6 gun turrets shoot the first vehicle to stop near each of them
    in every Gear Phase; no Respawn (p.130)."""

    key = "arena_of_death"
    token_kinds = frozenset({"gun_turret"})

    def begin(self, ctx: Ctx) -> None:
        """Roll 2D6 for the gun turrets and put them on the file's turret sites, in order, where clear (p.130)."""
        n, rolls = roll_expression(ctx.dice, self.spec.text("gun_turrets"))
        sites = sites_of(ctx.state, "gun_turret")
        placed = 0
        hull = self.spec.whole("turret_hull")
        for x, y in sites:
            if placed >= n:
                break
            tid = ctx.state.scenario.new_id("gun_turret")
            if not clear_point(ctx.referee, ctx.state, x, y, 20.0):
                continue
            t = Token(tid, "gun_turret", x, y, 20.0, obstacle="middleweight", hull=hull, label=f"gun turret {placed + 1}")
            ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t))
            placed += 1
        short = f" (only {len(sites)} turret sites in the file)" if placed < n else ""
        ctx.emit(ScenarioNotice(f"{n} gun turrets rolled; {placed} placed{short}", self.ref("Gun Turrets"),
                                roll=rolls))
        super().begin(ctx)

    def score(self, state: GameState) -> tuple[int, ...]:
        """Each player's vehicles still in play (the last player with any wins, p.130)."""
        return tuple(sum(1 for v in state.vehicles if v.player == p and (v.in_play or v.status is Status.UNDEPLOYED))
                     for p in range(len(state.players)))

    def shootable(self, state: GameState, attacker_id: str) -> tuple[Token, ...]:
        """Gun turrets may be targeted with shooting attacks (p.130)."""
        return state.scenario.on_table("gun_turret")

    def end_of_movement_step(self, ctx: Ctx, vehicle_id: str) -> None:
        """Each turret that has not fired this Gear Phase attacks the vehicle if it ended its Movement Step
        within Medium range: 2D6, Evaded as normal (p.130)."""
        reach = ctx.referee.range_mm(self.spec.text("turret_range"))
        for t in ctx.state.scenario.on_table("gun_turret"):
            v = ctx.state.vehicle(vehicle_id)
            if not v.in_play:
                return
            stamp = self.phase_stamp(ctx.state)
            if ctx.state.scenario.note(f"fired:{t.id}") == stamp:
                continue
            if not within_of_point(vehicle_shape(v), t.x_mm, t.y_mm, reach, t.radius_mm):
                continue
            self.note(ctx, f"fired:{t.id}", stamp)
            turret_attack(ctx, t, vehicle_id, self.spec.whole("turret_attack_dice"), self.ref("Gun Turrets"))

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """Fight the nearest enemies; keep away from the turrets."""
        v = state.vehicle(vehicle_id)
        near = [Goal(e.pose.x_mm, e.pose.y_mm, 1.0, "an enemy", e.id, attack=True) for e in enemies(state, v)]
        away = [Goal(t.x_mm, t.y_mm, -0.3, "a gun turret", t.id) for t in state.scenario.on_table("gun_turret")]
        return (*near, *away)


def sites_of(state: GameState, kind: str) -> list[tuple[float, float]]:
    """The file's ``[[site]]`` points for tokens of ``kind``, in file order."""
    out = []
    for _, value in state.scenario.notes_starting(f"site:{kind}:"):
        x, y = value.split(",")
        out.append((float(x), float(y)))
    return out


def turret_attack(ctx: Ctx, t: Token, vehicle_id: str, dice: int, ref: str) -> None:
    """A turret's shooting attack of ``dice`` D6 on a vehicle that may Evade (p.130, p.146)."""
    v = ctx.state.vehicle(vehicle_id)
    rolls = ctx.dice.roll_d6(dice)
    hits = count_hits(rolls)
    evades = ctx.dice.roll_d6(evade_dice(v.gear)) if hits else ()
    damage = max(0, hits - count_evades(evades))
    hit = replace(v, damage=v.damage + damage)
    ctx.state = ctx.state.with_vehicle(hit)
    ctx.emit(TokenFired(v.id, v.label, t.id, t.name, rolls, evades, hit.hull_points - v.hull_points, 0, ref))


# --------------------------------------------------------------------------- flags shared by several scenarios


class FlagCarrying(ScenarioRules):
    """Flags that vehicles pick up, carry, drop at a wreck and may put down within Short range at the end of
    an activation (Capture the Flag p.131, Desert Strike p.146)."""

    pickup = frozenset({"flag"})
    wreck_drops = frozenset({"flag"})
    token_kinds = frozenset({"flag"})

    def pickup_ref(self, token: Token) -> str:
        return self.ref("Flags")

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        """At the end of an activation, the active vehicle may put a carried flag down within Short range."""
        if point != "activation_end":
            return None
        vid = active_vehicle(ctx.state)
        if not vid:
            return None
        v = ctx.state.vehicle(vid)
        carried = ctx.state.scenario.carried(vid, "flag")
        stamp = self.activation_stamp(ctx.state)
        if not v.in_play or not carried or ctx.state.scenario.note(f"put_down:{vid}") == stamp:
            return None
        return Ask(v.player, vid, self.ref("Flags"), f"{v.label}: put a flag down within Short range?",
                   ("keep", "put_down"), "put_down", vid)

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        if ask.key != "put_down":
            return
        self.note(ctx, f"put_down:{ask.subject}", self.activation_stamp(ctx.state))
        if choice != "put_down":
            return
        v = ctx.state.vehicle(ask.subject)
        t = ctx.state.scenario.carried(v.id, "flag")[0]
        for k in (2, 0, 1, 3):
            x, y = beside(v, t.radius_mm, k)
            if clear_point(ctx.referee, ctx.state, x, y, t.radius_mm):
                break
        ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t.put(x, y)))
        ctx.emit(TokenDropped(v.id, v.label, t.id, t.name, t.kind, x, y, "put down within Short range",
                              self.ref("Flags")))


def active_vehicle(state: GameState) -> str:
    """The vehicle whose activation is under way (as the scenario notes it from :class:`Activated`)."""
    return state.scenario.note("active")


# --------------------------------------------------------------------------- Capture the Flag (p.131)


class CaptureTheFlag(FlagCarrying):
    """Each player puts a flag on one of their vehicles after deployment; the first vehicle carrying two flags
    wins (p.131)."""

    key = "capture_the_flag"

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        """After deployment, each player in turn from Pole Position puts their flag on a vehicle (p.131)."""
        if point == "deployed":
            state = ctx.state
            n = len(state.players)
            for k in range(n):
                p = (state.round.pole + k) % n
                if state.scenario.note(f"flag_placed:{p}") or any(t.owner == p for t in state.scenario.of_kind("flag")):
                    continue
                mine = [v for v in state.vehicles if v.player == p and v.in_play]
                if not mine:
                    continue
                return Ask(p, "", self.ref("Flags"), f"{state.players[p]}: put your flag on which vehicle?",
                           tuple(labels_of(mine)), "flag_on", str(p))
            return None
        return super().ask(ctx, point)

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        if ask.key != "flag_on":
            super().answer(ctx, ask, choice)
            return
        p = int(ask.subject)
        mine = [v for v in ctx.state.vehicles if v.player == p and v.in_play]
        v = mine[labels_of(mine).index(choice)]
        tid = ctx.state.scenario.new_id("flag")
        t = Token(tid, "flag", v.pose.x_mm, v.pose.y_mm, owner=p, carrier=v.id, label=f"{ctx.player_name(p)}'s flag")
        ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t).with_note(f"flag_placed:{p}", "1"))
        ctx.emit(TokenPlaced(t.id, t.name, "flag", v.pose.x_mm, v.pose.y_mm, f"on {v.label}'s dashboard",
                             self.ref("Flags"), v.id, v.label))

    def score(self, state: GameState) -> tuple[int, ...]:
        """Flags each player's vehicles carry."""
        out = [0] * len(state.players)
        for t in state.scenario.of_kind("flag"):
            if t.carrier:
                p = state.vehicle(t.carrier).player
                if 0 <= p < len(out):
                    out[p] += 1
        return tuple(out)

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """One vehicle carrying two flags ends the game; its controller wins (p.131)."""
        need = self.spec.whole("flags_to_win")
        for v in state.vehicles:
            if len(state.scenario.carried(v.id, "flag")) >= need:
                side = state.side_of(v.player)
                return Verdict(state.side_players(side)[0], f"{v.label} carries {need} flags",
                               self.spec.victory_ref)
        return None

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """Flags on the table first, then enemy vehicles carrying flags (wreck them and take the flag)."""
        v = state.vehicle(vehicle_id)
        out = [Goal(t.x_mm, t.y_mm, 3.0, "a flag", t.id) for t in state.scenario.on_table("flag")]
        for e in enemies(state, v):
            n = len(state.scenario.carried(e.id, "flag"))
            out.append(Goal(e.pose.x_mm, e.pose.y_mm, 1.0 + 1.5 * n, "an enemy flag carrier" if n else "an enemy",
                            e.id, attack=True))
        return tuple(out)


def labels_of(vehicles: list[VehicleState]) -> list[str]:
    """The vehicles' names, made unique (the id where two share a name)."""
    labels = [v.label for v in vehicles]
    return [v.label if labels.count(v.label) == 1 else v.id for v in vehicles]


# --------------------------------------------------------------------------- Flag Tag (p.132)


class FlagTag(ScenarioRules):
    """Colliding with another player's flag scores 1 Victory Point and destroys it; a player without a flag
    redeploys it by their spawn point at the start of each Gear Phase; the first to 3 wins (p.132)."""

    key = "flag_tag"
    token_kinds = frozenset({"tag_flag"})

    def after_collision(self, ctx: Ctx, active_id: str, other_id: str, obstacle: bool, smashes: tuple[bool, bool],
                        damage: dict[str, int]) -> None:
        """A collision with another player's flag scores 1 Victory Point (p.132); the flag is removed."""
        if not (obstacle and ctx.state.scenario.has_token(other_id)):
            return
        t = ctx.state.scenario.token(other_id)
        who = ctx.state.vehicle(active_id).player
        super().after_collision(ctx, active_id, other_id, obstacle, smashes, damage)
        if t.kind == "tag_flag" and 0 <= who < len(ctx.state.players) and not ctx.state.same_side(t.owner, who):
            self.score_points(ctx, who, 1, f"{ctx.name(active_id)} knocked over {t.name}", self.ref("Flags"),
                              active_id)

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        """At the start of a Gear Phase a player with no flag in play redeploys it (p.132): where?"""
        if point != "phase_start":
            return None
        state = ctx.state
        stamp = self.phase_stamp(state)
        for k in range(len(state.players)):
            p = (state.round.pole + k) % len(state.players)
            if any(t.owner == p for t in state.scenario.of_kind("tag_flag")):
                continue
            if state.scenario.note(f"redeploy:{p}") == stamp:
                continue
            spots = self.flag_spots(ctx.referee, state, p)
            if not spots:
                self.note(ctx, f"redeploy:{p}", stamp)
                ctx.emit(ScenarioNotice(f"{state.players[p]} has nowhere to redeploy their flag", self.ref("Flags")))
                continue
            return Ask(p, "", self.ref("Flags"), f"{state.players[p]}: redeploy your flag by your spawn point",
                       tuple(spots), "redeploy", str(p))
        return None

    def flag_spots(self, referee: Referee, state: GameState, player: int) -> dict[str, tuple[float, float]]:
        """Where ``player`` may redeploy their flag: within Medium range of their spawn point, further than
        Medium range from every table edge, clear of terrain and vehicles (p.132), by compass direction."""
        spawn = state.scenario.spawn(player)
        terrain = referee.terrain()
        if spawn is None:
            return {}
        reach = referee.range_mm(self.spec.text("flag_from_spawn"))
        edge = referee.range_mm(self.spec.text("flag_from_edge"))
        w, h = (terrain.width_mm, terrain.height_mm) if terrain is not None else (math.inf, math.inf)
        radius = 12.0
        out: dict[str, tuple[float, float]] = {}
        for r in (reach - radius - 2.0, reach * 0.6):
            for k, name in enumerate(COMPASS):
                if name in out:
                    continue
                a = math.radians(45.0 * k)
                x, y = spawn.x_mm + r * math.cos(a), spawn.y_mm + r * math.sin(a)
                if min(x, y, w - x, h - y) - radius <= edge:
                    continue
                if clear_point(referee, state, x, y, radius):
                    out[name] = (x, y)
        return out

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        p = int(ask.subject)
        self.note(ctx, f"redeploy:{p}", self.phase_stamp(ctx.state))
        spots = self.flag_spots(ctx.referee, ctx.state, p)
        if choice not in spots:
            return
        x, y = spots[choice]
        tid = ctx.state.scenario.new_id("tag_flag")
        t = Token(tid, "tag_flag", x, y, owner=p, obstacle="lightweight", label=f"{ctx.player_name(p)}'s flag")
        self.place_token(ctx, t, f"{ctx.player_name(p)} redeploys their flag", self.ref("Flags"))

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """The first player (team, p.123) to 3 Victory Points wins at once (p.132)."""
        return self.first_to(state, self.spec.whole("points_to_win"), "")

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """Enemy flags; keep clear of our own."""
        v = state.vehicle(vehicle_id)
        out = []
        for t in state.scenario.on_table("tag_flag"):
            mine = state.same_side(t.owner, v.player)
            out.append(Goal(t.x_mm, t.y_mm, -0.5 if mine else 3.0, "our flag" if mine else "an enemy flag", t.id))
        out += [Goal(e.pose.x_mm, e.pose.y_mm, 0.3, "an enemy", e.id, attack=True) for e in enemies(state, v)]
        return tuple(out)


# --------------------------------------------------------------------------- Saturday Night Live (p.133-134)


class SaturdayNightLive(ScenarioRules):
    """Every Audience Vote is also a Victory Point (within Double range of an enemy); Special Prizes give
    votes to whoever meets the current condition first; 15 Victory Points wins (p.133-134)."""

    key = "saturday_night_live"

    def begin(self, ctx: Ctx) -> None:
        super().begin(ctx)
        cx, cy = table_centre(ctx.referee)
        self.note(ctx, "centre", f"{cx:g},{cy:g}")
        self.new_prize(ctx, "the first round begins")

    def prize(self, state: GameState) -> int:
        """The current Special Prize (3-15, p.134)."""
        return state.scenario.note_int("prize", 0)

    def new_prize(self, ctx: Ctx, why: str) -> None:
        """Roll D6 + Gear Phase + round for a new Special Prize, again while it is the last one (p.133)."""
        last = self.prize(ctx.state)
        rs = ctx.state.round
        rolls: tuple[int, ...] = ()
        for _ in range(50):
            roll = ctx.dice.roll_d6(1)
            rolls += roll
            n = min(15, roll[0] + rs.gear_phase + rs.round_no)
            if n != last:
                break
        self.note(ctx, "prize", n)
        rows = self.spec.tables["special_prizes"].rows
        ctx.emit(ScenarioNotice(f"Special Prize {n} ({why}): claimed when {rows[str(n)]}",
                                self.ref("Special Prizes"), roll=rolls))

    def claim(self, ctx: Ctx, condition: int) -> None:
        """The active vehicle's controller claims the prize: 1 Audience Vote (and so a Victory Point), then a
        new prize; not twice from one condition in an activation (p.133)."""
        vid = active_vehicle(ctx.state)
        if not vid or self.prize(ctx.state) != condition:
            return
        stamp = self.activation_stamp(ctx.state)
        if ctx.state.scenario.note(f"claimed:{condition}") == stamp:
            return
        self.note(ctx, f"claimed:{condition}", stamp)
        player = ctx.state.vehicle(vid).player
        if not 0 <= player < len(ctx.state.players):
            return
        self.gain_votes(ctx, player, 1, f"Special Prize {condition}")
        self.new_prize(ctx, f"{ctx.player_name(player)} claimed the last")

    def observe(self, ctx: Ctx, event: GameEvent) -> None:
        """Prizes Mean Points (p.133) and the Special Prize conditions (p.134) as the events happen."""
        super().observe(ctx, event)
        if isinstance(event, VotesGained) and event.count > 0:
            if self.screen_time(ctx.state, ctx.referee, event.player):
                self.score_points(ctx, event.player, event.count, f"{event.count} Audience Vote(s): {event.reason}",
                                  self.ref("Prizes Mean Points"))
            else:
                ctx.emit(ScenarioNotice(f"{event.player_name} has no vehicle within Double range of an enemy: no "
                                        "Victory Points", self.ref("Screen Time")))
            return
        vid = active_vehicle(ctx.state)
        if not vid or ctx.state.winner is not None:
            return
        try:
            v = ctx.state.vehicle(vid)
        except KeyError:
            return
        prize = self.prize(ctx.state)
        for condition in self.met(ctx, v, event, prize):
            self.claim(ctx, condition)

    def met(self, ctx: Ctx, v: VehicleState, event: GameEvent, prize: int) -> tuple[int, ...]:
        """The prize conditions ``event`` meets for the active vehicle ``v`` (p.134)."""
        state = ctx.state
        out = []
        if isinstance(event, Activated) and event.vehicle == v.id:
            out.append(3)
            if v.player == state.round.pole:
                out.append(6)
        if isinstance(event, Activated | ShiftsSpent) and event.vehicle == v.id:
            gear = event.gear if isinstance(event, ShiftsSpent) else v.gear
            if gear >= 3:
                out.append(4)
            if gear >= v.max_gear:
                out.append(15)
        if isinstance(event, ShiftsSpent) and event.vehicle == v.id and event.hazards == 0 and event.hazard_delta < 0:
            out.append(7)
        if isinstance(event, TemplateChosen) and event.vehicle == v.id and event.manoeuvre is Manoeuvre.HAZARDOUS:
            out.append(8)
        if isinstance(event, Collided) and event.active == v.id and event.active_reaction in (
                Reaction.SMASH, Reaction.PILEDRIVER) and event.orientation is Orientation.T_BONE:
            out.append(9)
        if prize in (10, 11, 12, 13, 14):
            who = getattr(event, "vehicle", "")
            if who and self.near(ctx, v, who):
                if prize == 10 and getattr(event, "hull_delta", 0) < 0:
                    out.append(10)
                if prize == 11 and getattr(event, "hazard_delta", 0) > 0 and state.vehicle(who).hazards >= \
                        self.spec.whole("prize_hazards"):
                    out.append(11)
                if prize == 12 and isinstance(event, WipedOut) and event.flips:
                    out.append(12)
                if prize in (13, 14) and isinstance(event, Wrecked):
                    out.append(13)
                    if event.explodes:
                        out.append(14)
        return tuple(c for c in out if c == prize)

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        """Prize 5: the active vehicle's move comes within Short range of the centre of the table (p.134)."""
        super().after_move(ctx, vehicle_id, report, movement)
        if vehicle_id != active_vehicle(ctx.state) or self.prize(ctx.state) != 5:
            return
        v = ctx.state.vehicle(vehicle_id)
        cx, cy = table_centre(ctx.referee)
        if within_of_point(move_area(v, report), cx, cy, ctx.referee.range_mm(self.spec.text("prize_centre_range"))):
            self.claim(ctx, 5)

    def near(self, ctx: Ctx, v: VehicleState, other_id: str) -> bool:
        """Whether ``other_id`` is within Double range of ``v`` (a vehicle is within range of itself, p.134)."""
        if other_id == v.id:
            return True
        try:
            o = ctx.state.vehicle(other_id)
        except KeyError:
            return False
        reach = ctx.referee.range_mm("double")
        return bool(vehicle_shape(v).distance(vehicle_shape(o)) <= reach)

    def screen_time(self, state: GameState, referee: Referee, player: int) -> bool:
        """Screen Time (p.133): the player has a vehicle in play within Double range of an enemy vehicle (the
        active vehicle when it is theirs)."""
        reach = referee.range_mm(self.spec.text("screen_time_range"))
        vid = active_vehicle(state)
        mine = [v for v in state.vehicles if v.player == player and v.in_play]
        if vid and any(v.id == vid for v in mine):
            mine = [state.vehicle(vid)]
        for v in mine:
            for e in enemies(state, v):
                if vehicle_shape(v).distance(vehicle_shape(e)) <= reach:
                    return True
        return False

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """The first player to 15 Victory Points wins (p.134)."""
        return self.first_to(state, self.spec.whole("points_to_win"), "")

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """Stay on screen: near enemies; through the middle of the table when that is the prize (p.134)."""
        v = state.vehicle(vehicle_id)
        out = [Goal(e.pose.x_mm, e.pose.y_mm, 1.0, "an enemy", e.id, attack=True) for e in enemies(state, v)]
        if self.prize(state) == 5:
            cx, cy = state.scenario.note("centre", "610,610").split(",")
            out.append(Goal(float(cx), float(cy), 2.0, "the centre of the table (Special Prize 5)"))
        return tuple(out)

    def wants(self, state: GameState, vehicle_id: str) -> frozenset[str]:
        """The current Special Prize, for a bot (p.134)."""
        return frozenset({4: {"fast"}, 7: {"no_hazards"}, 8: {"hazardous"}, 9: {"t_bone"},
                          15: {"top_gear"}}.get(self.prize(state), set()))


def distance_to(state: GameState, vehicle_id: str, x_mm: float, y_mm: float) -> float:
    """From a vehicle's footprint to a point (mm)."""
    return float(vehicle_shape(state.vehicle(vehicle_id)).distance(ShapelyPoint(x_mm, y_mm)))


RULES: tuple[type[ScenarioRules], ...] = (ArenaOfDeath, CaptureTheFlag, FlagTag, SaturdayNightLive)
