"""Special Events (p.143-153): Big Game Hunter, Desert Strike, Monster Truck Smash, Tank Commander,
Truckasaurus.

Each is a :class:`~simulator.gaslands.objectives.ScenarioRules` subclass; the shared machinery is in
:mod:`simulator.gaslands.objectives`, the numbers in ``simulator/data/scenarios.toml``. The giant creatures
(p.144) and Truckasaurus (p.152) are vehicles of nobody: their player index is one past the last player, so
they never take a turn of their own; the engine activates them for a player when the rules say (Enraged,
Truckasaurus Lives), and they always Smash in a Collision.
"""

from __future__ import annotations

import math
from dataclasses import replace

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from simulator.gaslands.attacks import count_evades, count_hits, evade_dice, explosion_dice
from simulator.gaslands.audience import VoteChoice, VoteEffect
from simulator.gaslands.events import (
    Attacked,
    GameEvent,
    ScenarioAttack,
    ScenarioEffect,
    ScenarioNotice,
    TokenDropped,
)
from simulator.gaslands.objectives import (
    COMPASS,
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
    table_centre,
    touches_token,
    vehicle_shape,
    within_of_point,
)
from simulator.gaslands.prompts import VotesPrompt
from simulator.gaslands.referee import MoveReport, Referee
from simulator.gaslands.state import GameState, Mount, Status, VehicleState
from simulator.gaslands.tables import Weight, load_vehicle_types, load_weapons
from simulator.gaslands.televised import FlagCarrying, active_vehicle, sites_of, turret_attack
from simulator.gaslands.tokens import Token
from simulator.geometry.pose import TOUCH_MM, Pose

ALL_FACINGS = frozenset({"front", "rear", "side"})
"""A Ram on every facing (p.144, p.152)."""


def nobody(state: GameState) -> int:
    """The player index of the vehicles of nobody (creatures, Truckasaurus): one past the last player."""
    return len(state.players)


def is_neutral(state: GameState, v: VehicleState) -> bool:
    """Whether ``v`` belongs to nobody (or is driven by a player just for one activation)."""
    return v.player >= len(state.players) or bool(state.scenario.note(f"driver:{v.id}"))


def neutral_vehicle(state: GameState, vid: str, name: str, pose: Pose, *, hull: int, handling: int, crew: int,
                    max_gear: int, gear: int, weapons: tuple[Mount, ...], rules: frozenset[str],
                    length_mm: float, width_mm: float) -> VehicleState:
    """A Heavyweight vehicle of nobody (built on the Monster Truck's row for its type: its geometry is a
    grounded Heavyweight's)."""
    base = VehicleState.new(vid, nobody(state), "monster_truck", pose, weapons, ALL_FACINGS)
    return replace(base, hull=hull, handling=handling, crew=crew, max_gear=max_gear, gear=gear, rules=rules,
                   length_mm=length_mm, width_mm=width_mm, weight=Weight.HEAVYWEIGHT, name=name)


def add_vehicle(ctx: Ctx, v: VehicleState, why: str, ref: str) -> None:
    """Put a new vehicle of nobody on the table and say so."""
    ctx.state = replace(ctx.state, vehicles=(*ctx.state.vehicles, v))
    ctx.emit(ScenarioEffect(v.id, v.label, why, ref))


def attack_vehicle(ctx: Ctx, source: str, what: str, target_id: str, dice: int, ref: str, *,
                   blast: bool = False, explosion: bool = False) -> None:
    """A scenario's attack of ``dice`` D6 on a vehicle, which Evades as normal (p.32); ``blast`` also gives a
    Hazard Token per damage (p.81); ``explosion`` counts as an Explosion's dice (p.44)."""
    v = ctx.state.vehicle(target_id)
    if not v.in_play:
        return
    rolls = ctx.dice.roll_d6(dice)
    hits = count_hits(rolls)
    evades = ctx.dice.roll_d6(evade_dice(v.gear)) if hits else ()
    taken = max(0, hits - count_evades(evades))
    hit = replace(v, damage=v.damage + taken, hazards=v.hazards + (taken if blast or explosion else 0))
    ctx.state = ctx.state.with_vehicle(hit)
    ctx.emit(ScenarioAttack(v.id, v.label, source, what, rolls, evades, hit.hull_points - v.hull_points,
                            hit.hazards - v.hazards, ref))


def no_hazards(ctx: Ctx, event: GameEvent, ref: str, who: frozenset[str]) -> None:
    """Vehicles in ``who`` do not gain Hazard Tokens (p.144, p.152): take back what ``event`` gave them."""
    vid = getattr(event, "vehicle", "")
    if vid not in who or getattr(event, "hazard_delta", 0) <= 0 or isinstance(event, ScenarioEffect):
        return
    v = ctx.state.vehicle(vid)
    if v.hazards:
        ctx.state = ctx.state.with_vehicle(replace(v, hazards=0))
        ctx.emit(ScenarioEffect(vid, v.label, "gains no Hazard Tokens", ref, hazard_delta=-v.hazards))


def commercial_break(rules: ScenarioRules, ctx: Ctx) -> None:
    """At the start of each round, every vehicle out of play respawns by its spawn point for free (p.148, p.151)."""
    if ctx.state.round.round_no <= 1:
        return
    for v in ctx.state.vehicles:
        if v.status in (Status.WRECK, Status.REMOVED) and 0 <= v.player < len(ctx.state.players):
            rules.respawn_at_spawn(ctx, v.id)
            ctx.emit(ScenarioNotice(f"{v.label} comes back for free by its spawn point", rules.ref("Commercial Break"),
                                    v.id))


def to_spawn_goals(state: GameState, player: int, value: float, why: str) -> list[Goal]:
    """A goal on ``player``'s spawn point."""
    s = state.scenario.spawn(player)
    return [] if s is None else [Goal(s.x_mm, s.y_mm, value, why, radius_mm=40.0)]


# --------------------------------------------------------------------------- Big Game Hunter (p.143-144)


class BigGameHunter(ScenarioRules):
    """Giant radioactive creatures that activate when enraged, driven by whoever enraged them: lead two home to
    your spawn point, or kill the most (p.143-144)."""

    key = "big_game_hunter"
    token_kinds = frozenset({"creature"})

    def creatures(self, state: GameState) -> tuple[VehicleState, ...]:
        """The creatures still in play."""
        return tuple(v for v in state.vehicles if v.has("Giant Creature") and v.in_play)

    def begin(self, ctx: Ctx) -> None:
        """One creature per player within Double range of the centre, and one more in the centre (p.143): on the
        file's creature sites, in order."""
        sites = sites_of(ctx.state, "creature")
        cx, cy = table_centre(ctx.referee)
        spots = [*sites[:len(ctx.state.players)], (cx, cy)] if sites else [(cx, cy)]
        names = ("Giant Mantis", "Rad Lizard", "Mutant Scorpion", "Atomic Beetle", "Glowing Gila", "Titan Tick")
        flamer = load_weapons()["flamethrower"]
        assert flamer is not None
        for k, (x, y) in enumerate(spots):
            pose = Pose(x, y, (90.0 * k) % 360.0)
            v = neutral_vehicle(ctx.state, f"creature-{k + 1}", names[k % len(names)], pose,
                                hull=self.spec.whole("creature_hull"), handling=0,
                                crew=self.spec.whole("creature_crew"), max_gear=6,
                                gear=self.spec.whole("creature_evade_gear"),
                                weapons=(Mount("flamethrower", "turret", None),),
                                rules=frozenset({"Giant Creature"}), length_mm=90.0, width_mm=50.0)
            add_vehicle(ctx, v, "a giant radioactive creature stalks the arena", self.ref("Giant Radioactive Creatures"))
        super().begin(ctx)

    def observe(self, ctx: Ctx, event: GameEvent) -> None:
        """Enraged (2+ damage from an attack), Acidic Ichor (lost Hull Points this step), no Hazard Tokens."""
        super().observe(ctx, event)
        ids = frozenset(c.id for c in self.creatures(ctx.state))
        no_hazards(ctx, event, self.ref("Giant Radioactive Creatures"), ids)
        if isinstance(event, Attacked) and event.vehicle in ids:
            if -event.hull_delta >= self.spec.whole("enrage_damage"):
                attacker = ctx.state.vehicle(event.attacker)
                self.note(ctx, f"enraged:{event.vehicle}", attacker.player)
            self.note(ctx, f"last_attacker:{event.vehicle}", event.attacker)
        vid = getattr(event, "vehicle", "")
        if vid in ids and getattr(event, "hull_delta", 0) < 0:
            self.note(ctx, f"ichor:{vid}", self.step_stamp(ctx.state))

    def ichor(self, ctx: Ctx) -> None:
        """Acidic Ichor: each creature that lost Hull Points in the step just ended attacks every vehicle within
        Medium range with 1D6 (p.144), once per step."""
        step = self.step_stamp(ctx.state)
        reach = ctx.referee.range_mm(self.spec.text("ichor_range"))
        for c in self.creatures(ctx.state):
            if ctx.state.scenario.note(f"ichor:{c.id}") != step:
                continue
            self.note(ctx, f"ichor:{c.id}", f"{step}:done")
            for v in ctx.state.vehicles:
                if v.in_play and v.id != c.id and vehicle_shape(c).distance(vehicle_shape(v)) <= reach:
                    attack_vehicle(ctx, c.label, "Acidic Ichor", v.id, self.spec.whole("ichor_dice"),
                                   self.ref("Acidic Ichor"))

    def end_of_movement_step(self, ctx: Ctx, vehicle_id: str) -> None:
        self.ichor(ctx)

    def start_of_wipeout_step(self, ctx: Ctx, vehicle_id: str) -> None:
        self.ichor(ctx)

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        """Roar at the start of a creature's activation; which creature when several are enraged (p.144)."""
        vid = active_vehicle(ctx.state)
        if point == "activation_start" and vid and any(c.id == vid for c in self.creatures(ctx.state)):
            stamp = self.activation_stamp(ctx.state)
            last = ctx.state.scenario.note(f"last_attacker:{vid}")
            if last and ctx.state.scenario.note(f"roared:{vid}") != stamp:
                try:
                    who = ctx.state.vehicle(last)
                except KeyError:
                    return None
                if not who.in_play:
                    return None
                c = ctx.state.vehicle(vid)
                return Ask(c.player, vid, self.ref("Roar"), f"{c.label}: roar and turn to face {who.label}?",
                           ("roar", "no"), "roar", vid)
        if point == "activation_end":
            enraged = self.enraged(ctx.state)
            if len(enraged) > 1 and not ctx.state.scenario.note("enraged_choice"):
                player = int(ctx.state.scenario.note(f"enraged:{enraged[0]}"))
                names = tuple(ctx.state.vehicle(c).label for c in enraged)
                return Ask(player, "", self.ref("Enraged"), f"{ctx.player_name(player)}: which creature do you "
                                                             "enrage?", names, "enraged")
        return None

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        if ask.key == "roar":
            self.note(ctx, f"roared:{ask.subject}", self.activation_stamp(ctx.state))
            if choice == "roar":
                self.note(ctx, f"roar_now:{ask.subject}", "1")
        elif ask.key == "enraged":
            for c in self.enraged(ctx.state):
                if ctx.state.vehicle(c).label == choice:
                    self.note(ctx, "enraged_choice", c)

    def pivot_at_start(self, ctx: Ctx, vehicle_id: str) -> float | None:
        """Roar: the creature pivots to face the last vehicle that attacked it (p.144)."""
        if ctx.state.scenario.note(f"roar_now:{vehicle_id}") != "1":
            return None
        self.note(ctx, f"roar_now:{vehicle_id}", "")
        c = ctx.state.vehicle(vehicle_id)
        last = ctx.state.vehicle(ctx.state.scenario.note(f"last_attacker:{vehicle_id}"))
        return math.degrees(math.atan2(last.pose.y_mm - c.pose.y_mm, last.pose.x_mm - c.pose.x_mm)) % 360.0

    def enraged(self, state: GameState) -> list[str]:
        """Creatures enraged in the activation just ended."""
        return [c.id for c in self.creatures(state) if state.scenario.note(f"enraged:{c.id}")]

    def after_activation(self, ctx: Ctx, vehicle_id: str) -> tuple[str, int] | None:
        """Enraged: the creature activates now, driven by the player who enraged it (p.144)."""
        enraged = self.enraged(ctx.state)
        if not enraged:
            return None
        chosen = ctx.state.scenario.note("enraged_choice") or enraged[0]
        player = int(ctx.state.scenario.note(f"enraged:{chosen}"))
        ctx.state = replace(ctx.state, scenario=ctx.state.scenario.without_notes(
            [*(f"enraged:{c}" for c in enraged), "enraged_choice"]))
        ctx.emit(ScenarioNotice(f"{ctx.name(chosen)} is enraged: {ctx.player_name(player)} drives it",
                                self.ref("Enraged"), chosen))
        return chosen, player

    def driven(self, ctx: Ctx, vehicle_id: str, player: int) -> None:
        """A creature activates in the Gear of the Gear Phase (p.144)."""
        v = ctx.state.vehicle(vehicle_id)
        ctx.state = ctx.state.with_vehicle(replace(v, gear=ctx.state.round.gear_phase))

    def undriven(self, ctx: Ctx, vehicle_id: str) -> None:
        """Back to Evading as in Gear 3 (p.144)."""
        v = ctx.state.vehicle(vehicle_id)
        ctx.state = ctx.state.with_vehicle(replace(v, gear=self.spec.whole("creature_evade_gear")))

    def always_smashes(self, state: GameState, vehicle_id: str) -> bool:
        return state.vehicle(vehicle_id).has("Giant Creature") or super().always_smashes(state, vehicle_id)

    def on_wreck(self, ctx: Ctx, vehicle_id: str, exploded: bool) -> None:
        """A creature wrecked is a kill and 2 Audience Votes for whoever wrecked it (p.144)."""
        super().on_wreck(ctx, vehicle_id, exploded)
        v = ctx.state.vehicle(vehicle_id)
        if not v.has("Giant Creature"):
            return
        by = ctx.state.scenario.note(f"hitby:{vehicle_id}")
        if by and 0 <= int(by) < len(ctx.state.players):
            p = int(by)
            self.score_points(ctx, p, 1, f"{v.label} is slain", self.spec.victory_ref)
            self.gain_votes(ctx, p, self.spec.whole("kill_votes"), f"{v.label} slain")

    def home(self, state: GameState, referee: Referee) -> dict[int, int]:
        """Creatures within Short range of each team's spawn point."""
        reach = referee.range_mm(self.spec.text("home_range"))
        out: dict[int, int] = {}
        for c in self.creatures(state):
            for s in state.scenario.spawns:
                if within_of_point(vehicle_shape(c), s.x_mm, s.y_mm, reach, s.radius_mm):
                    side = state.side_of(s.player)
                    out[side] = out.get(side, 0) + 1
        return out

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """Two creatures (or all that are left) at a team's spawn point win (found after each move of a creature,
        :meth:`after_move`); no creatures left: most kills (p.144)."""
        won = state.scenario.note("home_win")
        if won:
            side = int(won)
            return Verdict(state.side_players(side)[0], f"{state.side_name(side)} brought the creatures home",
                           self.spec.victory_ref)
        if not self.creatures(state) and state.round.round_no >= 1 and state.scenario.note("table_size"):
            return self.most_points(state, "no creatures are left")
        return None

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        """A creature that moved may now be home (p.144)."""
        super().after_move(ctx, vehicle_id, report, movement)
        if not ctx.state.vehicle(vehicle_id).has("Giant Creature"):
            return
        left = len(self.creatures(ctx.state))
        need = min(self.spec.whole("creatures_home"), left)
        for side, n in self.home(ctx.state, ctx.referee).items():
            if need and n >= need:
                self.note(ctx, "home_win", side)

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """A creature driven by a player goes to that player's spawn point; a player's vehicle hunts creatures
        (nearest its own spawn point first) and its enemies."""
        v = state.vehicle(vehicle_id)
        if v.has("Giant Creature"):
            return tuple(to_spawn_goals(state, v.player, 4.0, "home"))
        spawn = state.scenario.spawn(v.player)
        out = []
        for c in self.creatures(state):
            near_home = spawn is not None and math.dist(c.pose[:2], (spawn.x_mm, spawn.y_mm)) < 500.0
            out.append(Goal(c.pose.x_mm, c.pose.y_mm, 2.0 if near_home else 1.5, "a creature", c.id, attack=True))
        out += [Goal(e.pose.x_mm, e.pose.y_mm, 0.6, "an enemy", e.id, attack=True) for e in enemies(state, v)
                if not e.has("Giant Creature")]
        return tuple(out)


# --------------------------------------------------------------------------- Desert Strike (p.145-146)


class DesertStrike(FlagCarrying):
    """Helicopters only: carry flags home to your spawn point past six rocket turrets and toxic clouds; two
    flags home wins, else the most after three rounds (p.145-146)."""

    key = "desert_strike"
    token_kinds = frozenset({"flag", "toxic_cloud", "rocket_turret"})

    def begin(self, ctx: Ctx) -> None:
        """Six rocket turrets in a ring, each exactly Double range from the centre (p.145); six flags within
        Double range of the centre if the file has none."""
        self.note(ctx, "medium_mm", f"{ctx.referee.range_mm(self.spec.text('camouflage_range')):g}")
        cx, cy = table_centre(ctx.referee)
        r = ctx.referee.range_mm(self.spec.text("turret_ring"))
        n = self.spec.whole("rocket_turrets")
        hull = self.spec.whole("turret_hull")
        for k in range(n):
            a = 2.0 * math.pi * k / n
            spot = nearest_clear(ctx.referee, ctx.state, cx + r * math.cos(a), cy + r * math.sin(a), 20.0, 60.0)
            if spot is None:
                continue
            t = Token(ctx.state.scenario.new_id("rocket_turret"), "rocket_turret", spot[0], spot[1], 20.0,
                      obstacle="middleweight", hull=hull, label=f"rocket turret {k + 1}")
            ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t))
        if not ctx.state.scenario.of_kind("flag"):
            for k in range(6):
                a = 2.0 * math.pi * (k + 0.5) / 6
                spot = nearest_clear(ctx.referee, ctx.state, cx + 0.55 * r * math.cos(a), cy + 0.55 * r * math.sin(a),
                                     12.0, 60.0)
                if spot is not None:
                    t = Token(ctx.state.scenario.new_id("flag"), "flag", spot[0], spot[1])
                    ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t))
        super().begin(ctx)

    def shootable(self, state: GameState, attacker_id: str) -> tuple[Token, ...]:
        """Rocket turrets, from within Medium range only (Camouflaged, p.146)."""
        v = state.vehicle(attacker_id)
        reach = float(state.scenario.note("medium_mm", "120"))
        return tuple(t for t in state.scenario.on_table("rocket_turret")
                     if within_of_point(vehicle_shape(v), t.x_mm, t.y_mm, reach, t.radius_mm))

    def token_evade_gear(self, token: Token) -> int:
        """Rocket turrets Evade as if in Gear 6 (p.146)."""
        return self.spec.whole("turret_evade_gear") if token.kind == "rocket_turret" else 0

    def token_destroyed(self, ctx: Ctx, token: Token, by: str) -> None:
        """A rocket turret always Explodes (p.146): Middleweight explosion dice against every vehicle within
        Medium range (p.44); Fireworks Show: 2 Audience Votes to whoever wrecked it."""
        super().token_destroyed(ctx, token, by)
        reach = ctx.referee.range_mm("medium")
        for v in ctx.state.vehicles:
            if v.in_play and within_of_point(vehicle_shape(v), token.x_mm, token.y_mm, reach, token.radius_mm):
                attack_vehicle(ctx, token.name, "explosion", v.id, explosion_dice(Weight.MIDDLEWEIGHT),
                               self.ref("Rocket Turrets"), explosion=True)
        p = ctx.state.vehicle(by).player
        self.gain_votes(ctx, p, self.spec.whole("fireworks_votes"), f"{token.name} goes up")

    def start_of_wipeout_step(self, ctx: Ctx, vehicle_id: str) -> None:
        """Auto-defense: each rocket turret within Long range of the active vehicle attacks it with 6D6 (p.146)."""
        reach = ctx.referee.range_mm(self.spec.text("defence_range"))
        for t in ctx.state.scenario.on_table("rocket_turret"):
            v = ctx.state.vehicle(vehicle_id)
            if v.in_play and within_of_point(vehicle_shape(v), t.x_mm, t.y_mm, reach, t.radius_mm):
                turret_attack(ctx, t, vehicle_id, self.spec.whole("defence_dice"), self.ref("Auto-defense"))

    def clouds(self, state: GameState) -> tuple[Token, ...]:
        """The toxic clouds."""
        return state.scenario.on_table("toxic_cloud")

    def distracted(self, state: GameState, vehicle_id: str) -> bool:
        """A vehicle touching a toxic cloud is Distracted (p.146)."""
        shape = vehicle_shape(state.vehicle(vehicle_id))
        return any(touches_token(shape, t) for t in self.clouds(state))

    def shot_blocked(self, state: GameState, attacker_id: str, target_id: str) -> str:
        """A shot through a toxic cloud cannot be made (p.146): the line between the two pieces crosses one."""
        try:
            a = state.vehicle(attacker_id).pose
        except KeyError:
            return ""
        if state.scenario.has_token(target_id):
            t = state.scenario.token(target_id)
            end = (t.x_mm, t.y_mm)
        else:
            b = state.vehicle(target_id).pose
            end = (b.x_mm, b.y_mm)
        line = LineString([(a.x_mm, a.y_mm), end])
        for c in self.clouds(state):
            if line.distance(ShapelyPoint(c.x_mm, c.y_mm)) < c.radius_mm:
                return "a toxic cloud is in the way (p.146)"
        return ""

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        """Toxic Clouds: a Movement Step touching one gains 2 Hazard Tokens (p.146); a flag home may win."""
        super().after_move(ctx, vehicle_id, report, movement)
        v = ctx.state.vehicle(vehicle_id)
        if movement and v.in_play and any(touches_token(move_area(v, report), t) for t in self.clouds(ctx.state)):
            n = self.spec.whole("cloud_hazards")
            ctx.state = ctx.state.with_vehicle(replace(v, hazards=v.hazards + n))
            ctx.emit(ScenarioEffect(v.id, v.label, f"drives through a toxic cloud: +{n} Hazard Tokens",
                                    self.ref("Toxic Clouds"), hazard_delta=n))
        self.count_home(ctx)

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        super().answer(ctx, ask, choice)
        self.count_home(ctx)

    def on_wreck(self, ctx: Ctx, vehicle_id: str, exploded: bool) -> None:
        super().on_wreck(ctx, vehicle_id, exploded)
        self.count_home(ctx)

    def count_home(self, ctx: Ctx) -> None:
        """Flags within Short range of each player's spawn point (carried or not), and carried by their vehicles,
        kept for the score (p.146)."""
        reach = ctx.referee.range_mm(self.spec.text("home_range"))
        n = len(ctx.state.players)
        home = [0] * n
        held = [0] * n
        for t in ctx.state.scenario.of_kind("flag"):
            if t.carrier:
                v = ctx.state.vehicle(t.carrier)
                where = vehicle_shape(v)
                if 0 <= v.player < n:
                    held[v.player] += 1
            else:
                where = ShapelyPoint(t.x_mm, t.y_mm).buffer(t.radius_mm)
            for s in ctx.state.scenario.spawns:
                if within_of_point(where, s.x_mm, s.y_mm, reach, s.radius_mm):
                    home[s.player] += 1
        for p in range(n):
            self.note(ctx, f"home:{p}", home[p])
            self.note(ctx, f"held:{p}", held[p])

    def score(self, state: GameState) -> tuple[int, ...]:
        """Flags within Short range of each player's spawn point or carried by their vehicles (p.146)."""
        return tuple(max(state.scenario.note_int(f"home:{p}"), 0) + state.scenario.note_int(f"held:{p}")
                     for p in range(len(state.players)))

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """Two flags within Short range of a player's spawn point win; else the most flags after three rounds."""
        need = self.spec.whole("flags_home")
        for p in range(len(state.players)):
            if state.scenario.note_int(f"home:{p}") >= need:
                side = state.side_of(p)
                return Verdict(state.side_players(side)[0], f"{state.players[p]} has {need} flags home",
                               self.spec.victory_ref)
        if self.rounds_over(state, self.spec.whole("rounds")):
            return self.most_points(state, f"{self.spec.whole('rounds')} rounds played")
        return None

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """Carrying a flag: home; else the flags, and enemy carriers; keep off the clouds and turrets."""
        v = state.vehicle(vehicle_id)
        out: list[Goal] = []
        if state.scenario.carried(v.id, "flag"):
            out += to_spawn_goals(state, v.player, 4.0, "home with the flag")
        spawn = state.scenario.spawn(v.player)
        for t in state.scenario.on_table("flag"):
            if spawn is not None and math.dist((t.x_mm, t.y_mm), (spawn.x_mm, spawn.y_mm)) < 80.0:
                continue
            out.append(Goal(t.x_mm, t.y_mm, 3.0, "a flag", t.id))
        for e in enemies(state, v):
            n = len(state.scenario.carried(e.id, "flag"))
            if n:
                out.append(Goal(e.pose.x_mm, e.pose.y_mm, 1.0 + n, "an enemy with a flag", e.id, attack=True))
        out += [Goal(t.x_mm, t.y_mm, -1.0, "a toxic cloud", t.id, radius_mm=t.radius_mm) for t in self.clouds(state)]
        out += [Goal(t.x_mm, t.y_mm, -0.5, "a rocket turret", t.id) for t in state.scenario.on_table("rocket_turret")]
        return tuple(out)

    def advise(self, state: GameState, referee: Referee, ask: Ask) -> str:
        """Keep a flag unless it is already home."""
        return "keep"


# --------------------------------------------------------------------------- Monster Truck Smash (p.147-148)


class MonsterTruckSmash(ScenarioRules):
    """The Monster squashes Mice; the Mice carry flags home (p.147-148)."""

    key = "monster_truck_smash"
    pickup = frozenset({"flag"})
    wreck_drops = frozenset({"flag"})
    token_kinds = frozenset({"flag"})

    def monster(self, state: GameState) -> int:
        """The Monster player (``role = "monster"``; else the player with Pole Position)."""
        for p in range(len(state.players)):
            if state.scenario.note(f"role:{p}") == "monster":
                return p
        return state.round.pole

    def layout_problems(self, layout: Layout) -> list[tuple[str, str]]:
        """The Monster's spawn point is in the centre of the table (p.147): not by an edge."""
        cx, cy = layout.width_mm / 2.0, layout.height_mm / 2.0
        central = {f"spawn[{i}]" for i, (_, x, y) in enumerate(layout.spawns, 1) if math.dist((x, y), (cx, cy)) < 30.0}
        return [p for p in super().layout_problems(layout) if p[0] not in central]

    def pickup_ref(self, token: Token) -> str:
        return self.ref("Flags")

    def begin(self, ctx: Ctx) -> None:
        """Eight flags on the points of the compass, each exactly Long range from the centre (p.147)."""
        if not ctx.state.scenario.of_kind("flag"):
            for k in range(self.spec.whole("flags")):
                self.new_flag(ctx, k, "")
        super().begin(ctx)

    def new_flag(self, ctx: Ctx, k: int, why: str) -> None:
        """A flag at compass point ``k`` (0 east, counter-clockwise), Long range from the centre."""
        cx, cy = table_centre(ctx.referee)
        r = ctx.referee.range_mm(self.spec.text("flag_ring"))
        a = math.radians(45.0 * k)
        spot = nearest_clear(ctx.referee, ctx.state, cx + r * math.cos(a), cy + r * math.sin(a), 12.0, 40.0,
                             avoid_vehicles=bool(why))
        if spot is None:
            return
        t = Token(ctx.state.scenario.new_id("flag"), "flag", spot[0], spot[1], label=f"flag ({COMPASS[k]})")
        if why:
            self.place_token(ctx, t, why, self.ref("Chalk One Up"))
        else:
            ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t))

    def may_pick_up(self, state: GameState, vehicle: VehicleState, token: Token) -> bool:
        """The Monster's vehicles ignore flags (p.148)."""
        return vehicle.player != self.monster(state)

    def after_collision(self, ctx: Ctx, active_id: str, other_id: str, obstacle: bool, smashes: tuple[bool, bool],
                        damage: dict[str, int]) -> None:
        """Squashed: a Monster's Smash Attack that damages a Mouse wrecks it at once (p.148)."""
        super().after_collision(ctx, active_id, other_id, obstacle, smashes, damage)
        if obstacle:
            return
        monster = self.monster(ctx.state)
        for me, other, smashed in ((active_id, other_id, smashes[0]), (other_id, active_id, smashes[1])):
            m, mouse = ctx.state.vehicle(me), ctx.state.vehicle(other)
            if m.player == monster and mouse.player != monster and smashed and damage.get(other, 0) > 0 \
                    and mouse.in_play and mouse.damage < mouse.hull:
                ctx.state = replace(ctx.state.with_vehicle(replace(mouse, damage=mouse.hull)),
                                    scenario=ctx.state.scenario.with_note(f"squashed:{mouse.id}", "1"))
                ctx.emit(ScenarioEffect(mouse.id, mouse.label, f"squashed by {m.label}", self.ref("Squashed"),
                                        hull_delta=-mouse.hull_points))

    def on_wreck(self, ctx: Ctx, vehicle_id: str, exploded: bool) -> None:
        """Flags stay touching the wreck; a squashed Mouse's wreck is removed and the Monster scores (p.148)."""
        super().on_wreck(ctx, vehicle_id, exploded)
        if ctx.state.scenario.note(f"squashed:{vehicle_id}") != "1":
            return
        self.note(ctx, f"squashed:{vehicle_id}", "")
        v = ctx.state.vehicle(vehicle_id)
        if v.status is Status.WRECK:
            ctx.state = ctx.state.with_vehicle(replace(v, status=Status.REMOVED))
        self.score_points(ctx, self.monster(ctx.state), 1, f"{v.label} is squashed", self.ref("Squashed"))

    def after_move(self, ctx: Ctx, vehicle_id: str, report: MoveReport, movement: bool) -> None:
        """Chalk One Up: a flag carrier whose move comes within Short range of its spawn point scores 2 Victory
        Points per flag and the flags go back to empty compass points (p.148)."""
        super().after_move(ctx, vehicle_id, report, movement)
        v = ctx.state.vehicle(vehicle_id)
        flags = ctx.state.scenario.carried(vehicle_id, "flag")
        spawn = ctx.state.scenario.spawn(v.player)
        if not flags or spawn is None or not v.in_play:
            return
        reach = ctx.referee.range_mm(self.spec.text("chalk_range"))
        if not within_of_point(move_area(v, report), spawn.x_mm, spawn.y_mm, reach, spawn.radius_mm):
            return
        for t in flags:
            self.remove_token(ctx, t, f"{v.label} chalks it up", self.ref("Chalk One Up"))
        self.score_points(ctx, v.player, self.spec.whole("chalk_points") * len(flags),
                          f"{v.label} brings home {len(flags)} flag(s)", self.ref("Chalk One Up"), v.id)
        for _ in flags:
            empty = self.empty_points(ctx.state, ctx.referee)
            if empty:
                self.new_flag(ctx, empty[0], f"a new flag, deployed by {ctx.player_name(v.player)}")

    def empty_points(self, state: GameState, referee: Referee) -> list[int]:
        """Compass points without a flag near them, from north round."""
        cx, cy = table_centre(referee)
        r = referee.range_mm(self.spec.text("flag_ring"))
        out = []
        for k in (2, 3, 4, 5, 6, 7, 0, 1):
            a = math.radians(45.0 * k)
            x, y = cx + r * math.cos(a), cy + r * math.sin(a)
            if not any(t.on_table and t.distance_mm(x, y) < 60.0 for t in state.scenario.of_kind("flag")):
                out.append(k)
        return out

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        """At the end of its activation a flag carrier may pass a flag to a vehicle it touches (p.148)."""
        if point != "activation_end":
            return None
        vid = active_vehicle(ctx.state)
        if not vid:
            return None
        v = ctx.state.vehicle(vid)
        stamp = self.activation_stamp(ctx.state)
        if not v.in_play or not ctx.state.scenario.carried(vid, "flag") or \
                ctx.state.scenario.note(f"passed:{vid}") == stamp:
            return None
        touching = [o for o in ctx.state.vehicles if o.in_play and o.id != vid and o.player != self.monster(ctx.state)
                    and vehicle_shape(v).distance(vehicle_shape(o)) <= TOUCH_MM]
        if not touching:
            return None
        return Ask(v.player, vid, self.ref("Flags"), f"{v.label}: pass a flag to a vehicle it touches?",
                   ("keep", *(o.label for o in touching)), "pass", vid)

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        from simulator.gaslands.events import TokenPassed

        self.note(ctx, f"passed:{ask.subject}", self.activation_stamp(ctx.state))
        if choice == "keep":
            return
        v = ctx.state.vehicle(ask.subject)
        to = next((o for o in ctx.state.vehicles if o.label == choice), None)
        if to is None:
            return
        t = ctx.state.scenario.carried(v.id, "flag")[0]
        ctx.state = replace(ctx.state, scenario=ctx.state.scenario.with_token(t.carried_by(to.id)))
        ctx.emit(TokenPassed(v.id, v.label, t.id, t.name, to.id, to.label, self.ref("Flags")))

    def start_of_round(self, ctx: Ctx) -> None:
        commercial_break(self, ctx)

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """5 Victory Points at the end of a Gear Phase, else the most after three rounds (p.148)."""
        if phase_end:
            for side, n in self.side_scores(state).items():
                if n >= self.spec.whole("points_to_win"):
                    return self.most_points(state, f"{state.side_name(side)} has {n} Victory Points")
        if self.rounds_over(state, self.spec.whole("rounds")):
            return self.most_points(state, f"{self.spec.whole('rounds')} rounds played")
        return None

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """A Mouse: flags, then home with them, keeping away from Monsters; the Monster: Mice, carriers first."""
        v = state.vehicle(vehicle_id)
        monster = self.monster(state)
        if v.player == monster:
            out = []
            for e in enemies(state, v):
                n = len(state.scenario.carried(e.id, "flag"))
                out.append(Goal(e.pose.x_mm, e.pose.y_mm, 1.0 + n, "a Mouse", e.id, attack=True))
            return tuple(out)
        out = []
        if state.scenario.carried(v.id, "flag"):
            out += to_spawn_goals(state, v.player, 4.0, "home to chalk it up")
        out += [Goal(t.x_mm, t.y_mm, 2.5, "a flag", t.id) for t in state.scenario.on_table("flag")]
        out += [Goal(m.pose.x_mm, m.pose.y_mm, -1.5, "the Monster", m.id) for m in state.vehicles
                if m.player == monster and m.in_play]
        return tuple(out)

    def advise(self, state: GameState, referee: Referee, ask: Ask) -> str:
        return "keep"


# --------------------------------------------------------------------------- Tank Commander (p.150-151)


class TankCommander(ScenarioRules):
    """Two Tanks a side with endless 125mm shells; votes turn the cannon or fire an extra shot; the first to
    3 kills wins (p.150-151)."""

    key = "tank_commander"

    def begin(self, ctx: Ctx) -> None:
        """Give Them A Good Show: the 125mm Cannons have unlimited ammo (p.151)."""
        for v in ctx.state.vehicles:
            mounts = tuple(replace(m, ammo=None) if m.weapon == "cannon_125mm" else m for m in v.weapons)
            if mounts != v.weapons:
                ctx.state = ctx.state.with_vehicle(replace(v, weapons=mounts))
        self.note(ctx, "medium_mm", f"{ctx.referee.range_mm('medium'):g}")
        super().begin(ctx)

    def always_explodes(self, state: GameState, vehicle_id: str) -> bool:
        """A Wrecked Tank with unlimited ammo always Explodes (p.151)."""
        return any(m.weapon == "cannon_125mm" and m.ammo is None for m in state.vehicle(vehicle_id).weapons)

    def reroll_misses(self, state: GameState, referee: Referee, attacker_id: str, target_id: str) -> bool:
        """Close Range: a target within Medium range, misses re-rolled (p.151)."""
        if state.scenario.has_token(target_id):
            return False
        a, t = state.vehicle(attacker_id), state.vehicle(target_id)
        return bool(vehicle_shape(a).distance(vehicle_shape(t)) <= referee.range_mm(self.spec.text("close_range")))

    def cannons(self, state: GameState, player: int) -> list[tuple[VehicleState, int]]:
        """``player``'s vehicles in play with a 125mm Cannon, and its mount."""
        return [(v, i) for v in state.vehicles if v.player == player and v.in_play
                for i, m in enumerate(v.weapons) if m.weapon == "cannon_125mm"]

    def vote_choices(self, state: GameState, player: int) -> tuple[VoteChoice, ...]:
        """Audience Participation (turn a 125mm Cannon) and On My Mark (an extra shot) for 1 vote each (p.151)."""
        have = state.votes_of(player)
        out: list[VoteChoice] = []
        facing_cost = self.spec.whole("facing_cost")
        mark_cost = self.spec.whole("mark_cost")
        for v, i in self.cannons(state, player):
            if have >= facing_cost:
                for facing in ("front", "side", "rear"):
                    if facing != v.weapons[i].facing:
                        out.append(VoteChoice(VoteEffect("cannon_facing", v.id, mount=i, target=facing), facing_cost,
                                              f"Audience Participation: {v.label}'s cannon to the {facing}", 151))
            if have >= mark_cost:
                for e in state.vehicles:
                    if e.in_play and e.player != player and 0 <= e.player < len(state.players) and \
                            self.shot_of(state, v, i, e.id):
                        out.append(VoteChoice(VoteEffect("on_my_mark", v.id, mount=i, target=e.id), mark_cost,
                                              f"On My Mark: {v.label} fires at {e.label}", 151))
        return tuple(out)

    def shot_of(self, state: GameState, v: VehicleState, mount: int, target: str) -> bool:
        """Whether the cannon may shoot ``target`` now, as far as the state alone can say (range and arc are the
        referee's: see :meth:`spend`); here, within Double range."""
        t = state.vehicle(target)
        return bool(vehicle_shape(v).distance(vehicle_shape(t)) <= 302.0)

    def spend(self, ctx: Ctx, player: int, effect: VoteEffect) -> tuple[str, int] | None:
        """Turn the cannon, or fire it at once without it counting as the Attack Step's attack (p.151)."""
        v = ctx.state.vehicle(effect.vehicle_id)
        if effect.effect == "cannon_facing":
            mounts = tuple(replace(m, facing=effect.target) if i == effect.mount else m for i, m in enumerate(v.weapons))
            ctx.state = ctx.state.with_vehicle(replace(v, weapons=mounts))
            ctx.emit(ScenarioEffect(v.id, v.label, f"its 125mm Cannon now faces {effect.target}",
                                    self.ref("Audience Participation")))
        elif effect.effect == "on_my_mark":
            shot = ctx.referee.shot(ctx.state, v.id, effect.mount, effect.target)
            if shot is None:
                ctx.emit(ScenarioNotice(f"{v.label}'s cannon has no shot at {ctx.name(effect.target)}: the vote is "
                                        "spent", self.ref("On My Mark")))
                return None
            weapon = load_weapons()["cannon_125mm"]
            attack_vehicle(ctx, v.label, "125mm Cannon (On My Mark)", effect.target, weapon.attack_dice,
                           self.ref("On My Mark"), blast=weapon.has_rule("Blast"))
            target = ctx.state.vehicle(effect.target)
            scen = ctx.state.scenario.with_note(f"hitby:{target.id}", player).with_note(f"hitshot:{target.id}", "1")
            ctx.state = replace(ctx.state, scenario=scen)
        return None

    def on_wreck(self, ctx: Ctx, vehicle_id: str, exploded: bool) -> None:
        """A kill for whoever wrecked an enemy Tank; BOOM!: 2 Audience Votes for a shooting attack (p.151)."""
        super().on_wreck(ctx, vehicle_id, exploded)
        v = ctx.state.vehicle(vehicle_id)
        by = ctx.state.scenario.note(f"hitby:{vehicle_id}")
        if not by or not 0 <= int(by) < len(ctx.state.players) or ctx.state.same_side(int(by), v.player):
            return
        p = int(by)
        self.score_points(ctx, p, 1, f"{v.label} is destroyed", self.spec.victory_ref)
        if ctx.state.scenario.note(f"hitshot:{vehicle_id}") == "1":
            self.gain_votes(ctx, p, self.spec.whole("boom_votes"), f"BOOM! {v.label}")

    def start_of_round(self, ctx: Ctx) -> None:
        commercial_break(self, ctx)

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """The first player to 3 kills wins (p.151)."""
        return self.first_to(state, self.spec.whole("kills_to_win"), "")

    def advise_votes(self, state: GameState, referee: Referee, prompt: VotesPrompt) -> tuple[VoteEffect, ...]:
        """A bot fires an extra shot at the weakest enemy it can."""
        marks = [c for c in prompt.choices if c.effect.effect == "on_my_mark"]
        if not marks:
            return ()
        best = min(marks, key=lambda c: (state.vehicle(c.effect.target).hull_points, c.label))
        if referee.shot(state, best.effect.vehicle_id, best.effect.mount, best.effect.target) is None:
            return ()
        return (best.effect,)


# --------------------------------------------------------------------------- Truckasaurus (p.152-153)


TRUCKASAURUS = "truckasaurus"
DANGER_MM = 200.0
"""How near Truckasaurus a bot stays while it has the votes to wake it (inside Double range, p.153)."""
WAKE_MM = 250.0
"""A bot wakes Truckasaurus when an enemy is this near it."""


class Truckasaurus(ScenarioRules):
    """A beast of nobody that players activate with Audience Votes; every vehicle it destroys scores the player
    who woke it (p.152-153)."""

    key = "truckasaurus"

    def begin(self, ctx: Ctx) -> None:
        """Truckasaurus in the centre of the table (p.152)."""
        cx, cy = table_centre(ctx.referee)
        types = load_vehicle_types()
        assert "monster_truck" in types
        weapons = (Mount("flamethrower", "turret", None), Mount("cannon_125mm", "turret", None))
        v = neutral_vehicle(ctx.state, TRUCKASAURUS, "Truckasaurus", Pose(cx, cy, 90.0), hull=1_000_000, handling=2,
                            crew=4, max_gear=6, gear=1, weapons=weapons,
                            rules=frozenset({"Pivot", "Pivot In Any Gear", "Up and Over", "Truckasaurus"}),
                            length_mm=100.0, width_mm=50.0)
        add_vehicle(ctx, v, "Truckasaurus lives!", self.ref("Truckasaurus"))
        super().begin(ctx)

    def ask(self, ctx: Ctx, point: AskPoint) -> Ask | None:
        """The player with Pole Position faces Truckasaurus (p.152)."""
        if point != "deployed" or ctx.state.scenario.note("faced"):
            return None
        pole = ctx.state.round.pole
        return Ask(pole, TRUCKASAURUS, self.ref("Truckasaurus"), f"{ctx.player_name(pole)}: which way does "
                                                                 "Truckasaurus face?", COMPASS, "face")

    def answer(self, ctx: Ctx, ask: Ask, choice: str) -> None:
        self.note(ctx, "faced", "1")
        v = ctx.state.vehicle(TRUCKASAURUS)
        heading = 45.0 * COMPASS.index(choice) if choice in COMPASS else v.pose.heading_deg
        ctx.state = ctx.state.with_vehicle(replace(v, pose=Pose(v.pose.x_mm, v.pose.y_mm, heading)))

    def advise(self, state: GameState, referee: Referee, ask: Ask) -> str:
        """Face the enemy spawn point furthest from our own (a bot)."""
        mine = state.scenario.spawn(ask.player)
        v = state.vehicle(TRUCKASAURUS)
        others = [s for s in state.scenario.spawns if s.player != ask.player]
        if not others:
            return ask.choices[0]
        far = max(others, key=lambda s: math.dist((s.x_mm, s.y_mm), (mine.x_mm, mine.y_mm)) if mine else 0.0)
        heading = math.degrees(math.atan2(far.y_mm - v.pose.y_mm, far.x_mm - v.pose.x_mm)) % 360.0
        return COMPASS[round(heading / 45.0) % 8]

    def truck(self, state: GameState) -> VehicleState | None:
        try:
            return state.vehicle(TRUCKASAURUS)
        except KeyError:
            return None

    def observe(self, ctx: Ctx, event: GameEvent) -> None:
        """Truckasaurus gains no Hazard Tokens (p.152)."""
        super().observe(ctx, event)
        no_hazards(ctx, event, self.ref("Truckasaurus"), frozenset({TRUCKASAURUS}))

    def no_push_it(self, state: GameState, vehicle_id: str) -> bool:
        return vehicle_id == TRUCKASAURUS

    def always_smashes(self, state: GameState, vehicle_id: str) -> bool:
        return vehicle_id == TRUCKASAURUS or super().always_smashes(state, vehicle_id)

    def shot_blocked(self, state: GameState, attacker_id: str, target_id: str) -> str:
        """Truckasaurus is immune to weapons (p.152)."""
        return "Truckasaurus is immune to weapons (p.152)" if target_id == TRUCKASAURUS else ""

    def vote_choices(self, state: GameState, player: int) -> tuple[VoteChoice, ...]:
        """Truckasaurus Lives: 3 votes, with a vehicle of one's own in play (p.152)."""
        t = self.truck(state)
        cost = self.spec.whole("activation_cost")
        if t is None or not t.in_play or state.votes_of(player) < cost:
            return ()
        if not any(v.player == player and v.in_play for v in state.vehicles):
            return ()
        return (VoteChoice(VoteEffect("truckasaurus_lives", TRUCKASAURUS), cost,
                           "Truckasaurus Lives: activate Truckasaurus now", 152),)

    def spend(self, ctx: Ctx, player: int, effect: VoteEffect) -> tuple[str, int] | None:
        """Truckasaurus activates at once, driven by ``player`` (p.152)."""
        if effect.effect != "truckasaurus_lives":
            return None
        self.note(ctx, "feeds_friendly", "")
        return TRUCKASAURUS, player

    def driven(self, ctx: Ctx, vehicle_id: str, player: int) -> None:
        """In the Gear of the Gear Phase (p.153)."""
        v = ctx.state.vehicle(vehicle_id)
        ctx.state = ctx.state.with_vehicle(replace(v, gear=ctx.state.round.gear_phase, hazards=0))

    def start_of_activation(self, ctx: Ctx, vehicle_id: str) -> None:
        """Into the Danger Zone: a vehicle starting beyond Double range of Truckasaurus costs a vote (p.153)."""
        t = self.truck(ctx.state)
        v = ctx.state.vehicle(vehicle_id)
        if t is None or vehicle_id == TRUCKASAURUS or not 0 <= v.player < len(ctx.state.players):
            return
        if vehicle_shape(v).distance(vehicle_shape(t)) > ctx.referee.range_mm(self.spec.text("danger_range")) and \
                ctx.state.votes_of(v.player) > 0:
            votes = tuple(n - 1 if i == v.player else n for i, n in enumerate(ctx.state.votes))
            ctx.state = replace(ctx.state, votes=votes)
            ctx.emit(ScenarioNotice(f"{ctx.player_name(v.player)} loses 1 Audience Vote: {v.label} starts beyond "
                                    "Double range of Truckasaurus", self.ref("Into the Danger Zone"), v.id))

    def after_collision(self, ctx: Ctx, active_id: str, other_id: str, obstacle: bool, smashes: tuple[bool, bool],
                        damage: dict[str, int]) -> None:
        """Witness: a Smash Attack on Truckasaurus in a vehicle's own activation gains 1 vote (p.152)."""
        super().after_collision(ctx, active_id, other_id, obstacle, smashes, damage)
        if other_id == TRUCKASAURUS and smashes[0] and active_id == active_vehicle(ctx.state):
            p = ctx.state.vehicle(active_id).player
            self.gain_votes(ctx, p, 1, f"{ctx.name(active_id)} takes on Truckasaurus (Witness, p.152)")

    def on_wreck(self, ctx: Ctx, vehicle_id: str, exploded: bool) -> None:
        """Truckasaurus Feeds: a vehicle destroyed in its activation scores 1 Victory Point for its driver, at most
        1 for the driver's own vehicles in one activation (p.153)."""
        super().on_wreck(ctx, vehicle_id, exploded)
        if active_vehicle(ctx.state) != TRUCKASAURUS:
            return
        driver = ctx.state.vehicle(TRUCKASAURUS).player
        if not 0 <= driver < len(ctx.state.players):
            return
        v = ctx.state.vehicle(vehicle_id)
        if ctx.state.same_side(v.player, driver):
            if ctx.state.scenario.note("feeds_friendly") == self.activation_stamp(ctx.state):
                return
            self.note(ctx, "feeds_friendly", self.activation_stamp(ctx.state))
        self.score_points(ctx, driver, 1, f"Truckasaurus feeds on {v.label}", self.ref("Truckasaurus Feeds"))

    def verdict(self, state: GameState, phase_end: bool) -> Verdict | None:
        """5 Victory Points (3 with two players) wins; else the most after three rounds (p.153)."""
        key = "points_to_win_two_players" if len(state.players) == 2 else "points_to_win"
        won = self.first_to(state, self.spec.whole(key), "")
        if won is not None:
            return won
        if self.rounds_over(state, self.spec.whole("rounds")):
            return self.most_points(state, f"{self.spec.whole('rounds')} rounds played")
        return None

    def goals(self, state: GameState, vehicle_id: str) -> tuple[Goal, ...]:
        """Driving Truckasaurus: the enemies; otherwise stay within Double range of it but out of its reach, and
        fight."""
        v = state.vehicle(vehicle_id)
        if vehicle_id == TRUCKASAURUS:
            return tuple(Goal(e.pose.x_mm, e.pose.y_mm, 2.0, "a snack", e.id, attack=True) for e in enemies(state, v))
        out = [Goal(e.pose.x_mm, e.pose.y_mm, 1.0, "an enemy", e.id, attack=True) for e in enemies(state, v)
               if e.id != TRUCKASAURUS]
        t = self.truck(state)
        if t is not None and t.in_play and 0 <= v.player < len(state.players):
            if state.votes_of(v.player) < self.spec.whole("activation_cost"):
                # Witness (p.152): a Smash Attack on it gains the vote that wakes it
                out.append(Goal(t.pose.x_mm, t.pose.y_mm, 1.5, "Truckasaurus (Witness)", t.id, attack=True))
            else:
                # Into the Danger Zone (p.153): within Double range of it, ready to wake it on an enemy
                out.append(Goal(t.pose.x_mm, t.pose.y_mm, 1.5, "near Truckasaurus", t.id, radius_mm=DANGER_MM))
        return tuple(out)

    def advise_votes(self, state: GameState, referee: Referee, prompt: VotesPrompt) -> tuple[VoteEffect, ...]:
        """A bot wakes Truckasaurus when an enemy is within :data:`WAKE_MM` of it (Truckasaurus Feeds, p.153)."""
        lives = next((c.effect for c in prompt.choices if c.effect.effect == "truckasaurus_lives"), None)
        t = self.truck(state)
        if lives is None or t is None:
            return ()
        theirs = [vehicle_shape(v).distance(vehicle_shape(t)) for v in state.vehicles
                  if v.in_play and v.player != prompt.player and 0 <= v.player < len(state.players)]
        if theirs and min(theirs) < WAKE_MM:
            return (lives,)
        return ()

    def saves_votes(self, state: GameState, player: int) -> bool:
        """A bot keeps its votes for Truckasaurus Lives (3 votes, p.152) rather than shed Hazard Tokens."""
        return self.truck(state) is not None


RULES: tuple[type[ScenarioRules], ...] = (BigGameHunter, DesertStrike, MonsterTruckSmash, TankCommander, Truckasaurus)

__all__ = ["RULES", "beside", "clear_point", "TokenDropped"]
