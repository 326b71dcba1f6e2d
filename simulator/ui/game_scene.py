"""A game state on the table, and what its events say, drawn: shared by the game mode and the replay viewer.

:class:`GameScene` draws one :class:`~simulator.gaslands.state.GameState`:
the scenario's table with the game's poses and gears, wrecks (p.43), dropped
templates (p.78), each car's Gear and Hazard Tokens, badges over the cars
something just happened to, the dashboards. It also draws what the events of
the last step say, from their typed fields only:

- :class:`~simulator.gaslands.events.Moved`: the path driven (dashed, in the
  car's colour) and, for a move or a turn stopped short, what stopped it
  outlined and the turn asked for as a dashed ghost (p.24, p.45-46);
- :class:`~simulator.gaslands.events.LostControl`: the facing asked for and
  the one reached when an obstruction stopped the pivot (p.35);
- :class:`~simulator.gaslands.events.CrossedFinish`: where the car crossed the
  Finish Line (p.62), for the rest of the game;
- :class:`~simulator.gaslands.events.Collided`: a marker between the two
  pieces; hovering it (or the event in the log) shows the dice arithmetic of
  both sides and the damage (p.52-57).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from simulator.gaslands.events import (
    Activated,
    Collided,
    CollisionDamage,
    CrossedFinish,
    GameEvent,
    LostControl,
    Moved,
)
from simulator.gaslands.referee import Referee
from simulator.gaslands.state import GameState
from simulator.gaslands.tables import load_vehicle_types, load_weapons
from simulator.geometry.pose import Pose, footprint
from simulator.geometry.table import Table
from simulator.scenario.loader import Scenario
from simulator.ui import draw, palette
from simulator.ui.animation import Animator
from simulator.ui.dashboard import Dashboard
from simulator.ui.game_controller import display_table, status_notes, wrecks_of
from simulator.ui.labels import LabelBoard
from simulator.ui.view import View

BADGE_FONT = 17
"""Font size of the badges over cars (COLLISION, WIPEOUT, hits)."""
HOVER_PX = 14
"""How near the pointer must be to a collision marker to explain it."""
NAMED_NEAR_MM = 25.0
"""A piece named in an event is looked for this near the car (two rocks may share a name)."""
ASKED = (200, 200, 200)


@dataclass(frozen=True)
class CollisionMark:
    """Where a collision of the last step is marked on the table, and the event it explains."""

    pos: tuple[float, float]
    event: Collided


def collision_lines(e: Collided, damage: Sequence[CollisionDamage] = ()) -> list[str]:
    """A collision's arithmetic in words, from the event's fields: the orientation and edges, each side's
    reaction with its dice (how many and why, which hit on 4+) and its Evades (6s), then the damage (p.52-57)."""
    kind = e.orientation.value.replace("_", "-").title()
    against = f"the {e.passive_name}" if e.passive_obstacle else f"{e.passive_name}'s {e.passive_edge}"
    lines = [f"{kind} ({e.rule}): {e.active_name}'s {e.active_edge} against {against}"]
    sides = ((e.active_name, e.active_reaction, e.active_dice, e.active_dice_why, e.active_evades, e.active_hits),
             (e.passive_name, e.passive_reaction, e.passive_dice, e.passive_dice_why, e.passive_evades,
              e.passive_hits))
    for name, reaction, dice, why, evades, hits in sides:
        if e.passive_obstacle and name == e.passive_name:
            continue
        if dice:
            crit = " (4+ hits, a 6 is 2 hits)" if 6 in dice else " (4+ hits)"
            lines.append(f"{name} smashes: {why or str(len(dice)) + ' dice'}; rolled "
                         f"{' '.join(map(str, dice))}: {hits} hit{'s' if hits != 1 else ''}{crit}")
        elif evades:
            saved = sum(1 for r in evades if r == 6)
            lines.append(f"{name} evades: rolled {' '.join(map(str, evades))}: "
                         + (f"{saved} six{'es' if saved != 1 else ''}, each cancels a hit" if saved else "no 6"))
        else:
            lines.append(f"{name} {reaction.value}s, no dice")
    lines += [d.text for d in damage]
    return lines


class GameScene:
    """Draws a game state and its last events (see the module docstring)."""

    def __init__(self, scenario: Scenario, referee: Referee) -> None:
        self.scenario = scenario
        self.referee = referee
        self.types = load_vehicle_types()
        self._table_key: GameState | None = None
        self._table: Table = scenario.table

    # ---------------------------------------------------------------- values
    def table(self, state: GameState) -> Table:
        """The table of ``state`` as drawn (wrecks kept as pieces; cached per state)."""
        if state is not self._table_key:
            self._table_key, self._table = state, display_table(self.scenario, state)
        return self._table

    def name(self, vehicle_id: str, state: GameState | None = None) -> str:
        """The vehicle's name in the game (``state``, or the last state drawn: a team's vehicle too), else the
        scenario's, else the id."""
        for s in (state, self._table_key):
            if s is not None:
                try:
                    return s.vehicle(vehicle_id).label
                except KeyError:
                    pass
        try:
            return self.scenario.vehicle_spec(vehicle_id).name or vehicle_id
        except KeyError:
            return vehicle_id

    def player_colour(self, player: int) -> tuple[int, int, int]:
        """A player's colour (grey when the scenario gives none; :mod:`simulator.ui.palette`'s with its option on)."""
        return draw.hex_colour(palette.team_hex([p.colour for p in self.scenario.spec.player], player))

    def colour(self, state: GameState, vehicle_id: str) -> tuple[int, int, int]:
        """A vehicle's team colour."""
        return self.player_colour(state.vehicle(vehicle_id).player)

    def dashboards(self, state: GameState, gates: int | None,
                   note: Callable[[str], str] | None = None) -> list[Dashboard]:
        """A card for every vehicle of the game, on the table or not (``gates``: a Death Race's gate count, p.124);
        ``note`` adds to a card's note."""
        out = []
        weapons = load_weapons()
        for v in state.vehicles:
            vtype = self.types.get(v.type_key)
            notes = status_notes(v, gates, state)
            extra = note(v.id) if note is not None else ""
            try:
                spec_weapons = self.scenario.vehicle_spec(v.id).weapons
            except KeyError:
                spec_weapons = []
            wtext = ", ".join(f"{weapons[w.type].name if w.type in weapons else w.type} ({w.arc})"
                              for w in spec_weapons)
            team = state.players[v.player] if 0 <= v.player < len(state.players) else ""
            out.append(Dashboard(v.id, self.name(v.id, state), team, self.colour(state, v.id),
                                 vtype.name if vtype else v.type_key, v.gear, v.max_gear, v.hazards, v.hull_points,
                                 v.hull, wtext, ", ".join([*notes, extra] if extra else notes)))
        return out

    # ---------------------------------------------------------------- drawing
    def draw_pieces(self, surface: pygame.Surface, view: View, state: GameState, anim: Animator,
                    halos: dict[str, tuple[draw.Colour, int]], selected: str | None,
                    hidden_badge: str = "", labels: LabelBoard | None = None) -> list[pygame.Rect]:
        """Wrecks, cars (where the animation has them), rings round the cars in ``halos``, each car's Gear and
        Hazard Tokens, and the badges; returns the screen rects of the name labels. With ``labels`` each car's
        name, Gear and Hazard Tokens are one label the board places beside the car (none on a car)."""
        table = self.table(state)
        wrecks = wrecks_of(state)
        for v in table.vehicles:
            if v.id in wrecks:
                draw.draw_wreck(surface, view, v, self.colour(state, v.id), self.name(v.id, state), labels)
        names: list[pygame.Rect] = []
        for v in table.vehicles:
            if v.id in wrecks:
                continue
            pose = anim.moving_pose(v.id)
            if v.id in halos and pose is None:
                colour, width = halos[v.id]
                draw.halo(surface, view, v.pose, v.length_mm, v.width_mm, colour, width)
                if v.trailer is not None:
                    draw.halo(surface, view, v.trailer.pose, v.trailer.length_mm, v.trailer.width_mm, colour, width)
            st = state.vehicle(v.id)
            at = pose or v.pose
            tokens = f"G{st.gear}" + (f"  H{st.hazards}" if st.hazards else "")
            if labels is not None:
                draw.draw_vehicle(surface, view, v, self.colour(state, v.id), self.name(v.id, state),
                                  selected=v.id == selected, pose=pose, label=False, labels=labels,
                                  bend_deg=anim.moving_bend(v.id))
                dx, dy = view.screen_direction(at.heading_deg)
                draw.put_label(surface, labels, f"{self.name(v.id, state)}  {tokens}",
                               view.to_screen(at.x_mm, at.y_mm), 16, draw.SELECT if v.id == selected else draw.TEXT, (15, 15, 15, 180), priority=9,
                               reach_px=view.mm_to_px(max(v.length_mm, v.width_mm)) / 2.0, prefer=(-dx, -dy))
                continue
            label = draw.draw_vehicle(surface, view, v, self.colour(state, v.id), self.name(v.id, state),
                                      selected=v.id == selected, pose=pose, bend_deg=anim.moving_bend(v.id))
            if label is not None:
                names.append(label)
            draw.text(surface, tokens, view.to_screen(at.x_mm, at.y_mm), 15, (255, 255, 255), "center",
                      backing=(10, 10, 10, 170))
        return names

    def draw_badges(self, surface: pygame.Surface, layout: Sequence[tuple[pygame.Rect, str, int]]) -> None:
        """The badges laid out by :func:`badge_layout`."""
        for rect, badge, alpha in layout:
            draw.badge(surface, badge, rect, BADGE_FONT, (255, 235, 120), (120, 20, 20, 200), alpha)

    def draw_dropped(self, overlay: pygame.Surface, view: View, state: GameState) -> None:
        """The dropped weapon templates on the table (p.78), in their owners' colours."""
        for t in state.dropped:
            poly = self.referee.dropped_polygon(t.template, t.pose)
            owner = self.colour(state, t.owner)
            draw.draw_dropped(overlay, view, poly, t.weapon, t.rules.name.replace(" Dropper", ""), owner)

    def draw_events(self, under: pygame.Surface, over: pygame.Surface, view: View, state: GameState,
                    events: Sequence[GameEvent], log: Sequence[GameEvent]) -> list[CollisionMark]:
        """What the recent ``events`` say (paths ``under`` the pieces; outlines, ghosts asked for and markers
        ``over`` them), and every finish crossing of the ``log``; returns the collision markers (for hovering)."""
        table = self.table(state)
        for e in log:
            if isinstance(e, CrossedFinish) and e.point is not None:
                self._finish_mark(over, view, e)
        marks = []
        lost = {e.vehicle for e in events if isinstance(e, LostControl)}  # its own label tells the pivot
        for e in events:
            match e:
                case Moved():
                    self._moved(under, over, view, state, table, e, show_asked=e.vehicle not in lost)
                case LostControl():
                    self._lost_control(over, view, state, e)
                case Collided():
                    mark = self._collision_mark(over, view, state, table, e)
                    if mark is not None:
                        marks.append(mark)
                case _:
                    pass  # the other events are told by badges, dashboards and the log
        return marks

    def _moved(self, under: pygame.Surface, overlay: pygame.Surface, view: View, state: GameState, table: Table,
               e: Moved, show_asked: bool = True) -> None:
        try:
            colour = self.colour(state, e.vehicle)
            v = state.vehicle(e.vehicle)
        except KeyError:
            return
        if e.path is not None:
            draw.path_line(under, view, e.path.sample(4.0), (*draw.shade(colour, 1.4), 220), 2)
        if (show_asked and e.requested_deg is not None and e.turned_deg is not None
                and abs(e.requested_deg - e.turned_deg) > 0.5):
            asked = e.start.turned(e.requested_deg)
            draw.ghost_vehicle(overlay, view, asked, v.length_mm, v.width_mm, ASKED, 30, ASKED, dashed=True)
            self._label(overlay, view, asked, max(v.length_mm, v.width_mm),
                        f"asked {e.requested_deg:+.0f} deg, turned {e.turned_deg:+.0f}")
        blockers = (*e.met, *e.stopped_by)
        if blockers:
            for shape in self.pieces_named(state, table, blockers, e.final, e.vehicle):
                draw.outline_shape(overlay, view, shape.buffer(1.5, join_style="mitre"), draw.INTERRUPT, 3)

    def _lost_control(self, overlay: pygame.Surface, view: View, state: GameState, e: LostControl) -> None:
        short = abs(((e.requested_deg - e.reached_deg + 180.0) % 360.0) - 180.0) > 0.5
        if not short:
            return
        try:
            v = state.vehicle(e.vehicle)
        except KeyError:
            return
        asked = Pose(v.pose.x_mm, v.pose.y_mm, e.requested_deg)
        draw.ghost_vehicle(overlay, view, asked, v.length_mm, v.width_mm, ASKED, 30, ASKED, dashed=True)
        why = f" by {', '.join(e.stopped_by)}" if e.stopped_by else ""
        self._label(overlay, view, asked, max(v.length_mm, v.width_mm),
                    f"{e.chooser} chose heading {e.requested_deg:.0f}; stopped{why} at {e.reached_deg:.0f} (p.35)",
                    draw.INTERRUPT)
        for shape in self.pieces_named(state, self.table(state), e.stopped_by, v.pose, e.vehicle):
            draw.outline_shape(overlay, view, shape.buffer(1.5, join_style="mitre"), draw.INTERRUPT, 3)

    def _finish_mark(self, overlay: pygame.Surface, view: View, e: CrossedFinish) -> None:
        assert e.point is not None
        x, y = view.to_screen(*e.point)
        for i, colour in enumerate(((20, 20, 20), (245, 245, 245), (20, 20, 20))):
            pygame.draw.circle(overlay, colour, (x, y), 11 - 4 * i)
        what = "crossed the Finish Line here" if e.wins else "passed the Finish Line here (cannot win)"
        draw.text(overlay, f"{e.name} {what} ({e.page})", (x + 14, y), 16, (255, 255, 255), "midleft",
                  backing=(10, 10, 10, 200))

    def _collision_mark(self, overlay: pygame.Surface, view: View, state: GameState, table: Table,
                        e: Collided) -> CollisionMark | None:
        try:
            a = state.vehicle(e.active)
        except KeyError:
            return None
        mine = footprint(a.pose, a.length_mm, a.width_mm)
        try:
            theirs: BaseGeometry = table.shape_of(e.passive)
            point = nearest_points(mine, theirs)[0]
        except KeyError:
            point = Point(a.pose.x_mm, a.pose.y_mm)  # a destructible obstacle driven through is gone (p.49)
        pos = view.to_screen(point.x, point.y)
        pygame.draw.circle(overlay, draw.CONTACT, pos, 9)
        pygame.draw.circle(overlay, (255, 255, 255), pos, 9, 2)
        draw.text(overlay, "?", pos, 16, (255, 255, 255), "center")
        return CollisionMark(pos, e)

    def _label(self, overlay: pygame.Surface, view: View, pose: Pose, size_mm: float, text: str,
               colour: draw.Colour = (230, 230, 230)) -> None:
        x, y = view.to_screen(pose.x_mm, pose.y_mm)
        draw.text(overlay, text, (x, y + view.mm_to_px(size_mm) / 2 + 4), 15, colour, "midtop",
                  backing=(10, 10, 10, 190))

    def pieces_named(self, state: GameState, table: Table, names: Sequence[str], near: Pose,
                     mover: str) -> list[BaseGeometry]:
        """The shapes of the pieces an event names (vehicles by their names, terrain by the referee's names),
        each the one nearest ``near`` when several share a name."""
        try:
            v = state.vehicle(mover)
            here: BaseGeometry = footprint(near, v.length_mm, v.width_mm)
        except KeyError:
            here = Point(near.x_mm, near.y_mm)
        candidates: list[tuple[str, BaseGeometry]] = [(state.vehicle(p.id).label, p.footprint)
                                                      for p in table.vehicles if p.id != mover]
        candidates += [(self.referee.name_of(o.id), o.polygon) for o in table.all_obstacles]
        out = []
        for name in dict.fromkeys(names):
            named = [(float(shape.distance(here)), shape) for n, shape in candidates if n == name]
            if named:
                d, shape = min(named, key=lambda t: t[0])
                if d <= NAMED_NEAR_MM:
                    out.append(shape)
        return out

    def draw_banner(self, surface: pygame.Surface, rect: pygame.Rect, message: str, standings: Sequence[str]) -> None:
        """The winner (or why nobody won) and the standings across the top of the table (p.62, p.128), each in
        the largest size that fits the table's width (a scenario's reason can be long)."""

        def fitting(words: str, sizes: Sequence[int]) -> int:
            room = rect.width - 24
            return next((s for s in sizes if draw.font(s).size(words)[0] <= room), sizes[-1])

        draw.text(surface, message, (rect.centerx, rect.top + 40), fitting(message, (38, 32, 26, 22, 18)),
                  (255, 230, 120), "midtop", backing=(20, 20, 20, 220))
        order = "  ".join(f"{i}. {n}" for i, n in enumerate(standings, 1))
        if order:
            draw.text(surface, order, (rect.centerx, rect.top + 90), fitting(order, (22, 18, 15, 13)), draw.TEXT,
                      "midtop", backing=(20, 20, 20, 200))


def recent(log: Sequence[GameEvent], activations: int = 2) -> Sequence[GameEvent]:
    """The events of the last ``activations`` activations (p.19) up to now: what the table explains."""
    seen = 0
    for i in range(len(log) - 1, -1, -1):
        if isinstance(log[i], Activated):
            seen += 1
            if seen == activations:
                return log[i:]
    return log


def draw_tooltip(surface: pygame.Surface, pos: tuple[int, int], lines: Sequence[str],
                 bounds: pygame.Rect) -> pygame.Rect:
    """A box of ``lines`` next to ``pos``, kept whole inside ``bounds`` (give the window less its top bar and
    status line, which are drawn over the mode): lines wider than ``bounds`` are wrapped. Returns the box."""
    f = draw.font(16)
    room = max(40, bounds.width - 16)
    lines = [part for line in lines for part in tooltip_wrap(line, f, room)]
    width = min(max(f.size(line)[0] for line in lines) + 16, bounds.width)
    box = pygame.Rect(pos[0] + 16, pos[1] + 12, width, 18 * len(lines) + 10)
    if box.right > bounds.right:  # beside the pointer on the other side, not under it
        box.right = pos[0] - 12
    if box.bottom > bounds.bottom:
        box.bottom = pos[1] - 8
    box.clamp_ip(bounds)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((12, 13, 16, 235))
    surface.blit(shade, box.topleft)
    pygame.draw.rect(surface, draw.CONTACT, box, 2, border_radius=4)
    for i, line in enumerate(lines):
        draw.text(surface, line, (box.left + 8, box.top + 6 + 18 * i), 16, draw.TEXT)
    return box


def tooltip_wrap(line: str, f: pygame.font.Font, width_px: int) -> list[str]:
    """``line`` broken at spaces into parts at most ``width_px`` wide in font ``f`` (a longer word stays whole)."""
    out: list[str] = []
    now = ""
    for word in line.split(" "):
        trial = f"{now} {word}" if now else word
        if now and f.size(trial)[0] > width_px:
            out.append(now)
            now = "  " + word
        else:
            now = trial
    return [*out, now]


def damage_after(events: Sequence[GameEvent], collided: Collided) -> list[CollisionDamage]:
    """The :class:`CollisionDamage` events that follow ``collided`` in ``events`` (up to the next collision)."""
    out: list[CollisionDamage] = []
    seen = False
    for e in events:
        if e is collided:
            seen = True
        elif seen and isinstance(e, Collided):
            break
        elif seen and isinstance(e, CollisionDamage):
            out.append(e)
    return out


def badge_layout(view: View, table_rect: pygame.Rect, table: Table, anim: Animator, name: Callable[[str], str],
                 keep_clear: Sequence[pygame.Rect] = (), chosen: str = "", ghost: Pose | None = None
                 ) -> list[tuple[pygame.Rect, str, int]]:
    """Where each car's badge (COLLISION, WIPEOUT, hits...) goes: (screen rect, word, alpha).

    One badge per car, above it; a badge that would cover another badge, a car, a name label in
    ``keep_clear``, or the ``ghost`` of the car ``chosen`` (whose facing is being chosen) moves up
    until it is clear, and then names its car (``Red Car: WIPEOUT``). That car's own badge waits
    until the facing is chosen.
    """
    on_table = {v.id: v for v in table.vehicles}
    avoid = list(keep_clear)
    for vid, v in on_table.items():
        grow = 12 if vid == chosen else 4
        avoid.append(draw.vehicle_rect_px(view, anim.moving_pose(vid) or v.pose, v.length_mm, v.width_mm)
                     .inflate(grow, grow))
    if ghost is not None and chosen in on_table:
        v = on_table[chosen]
        avoid.append(draw.vehicle_rect_px(view, ghost, v.length_mm, v.width_mm).inflate(12, 12))
    lift = max(view.mm_to_px(45.0), 30.0)  # above the car, never over it
    items = []
    for vid, (word, _) in anim.flashes.items():
        if vid not in on_table or vid == chosen:
            continue
        p = anim.moving_pose(vid) or on_table[vid].pose
        sx, sy = view.to_screen(p.x_mm, p.y_mm)
        items.append((sy, sx, vid, word))
    placed: list[pygame.Rect] = []
    out = []
    for sy, sx, vid, word in sorted(items, key=lambda i: (-i[0], i[1])):  # lowest car first, stack upward
        rect = draw.badge_rect(word, BADGE_FONT, (sx, sy - lift))
        for _ in range(2 * (len(avoid) + len(placed)) + 4):
            hit = next((r for r in (*placed, *avoid) if r.colliderect(rect)), None)
            if hit is None or rect.top <= table_rect.top:
                break
            if not word.startswith(name(vid)):
                word = f"{name(vid)}: {word}"  # moved off its car: say whose it is
                rect = draw.badge_rect(word, BADGE_FONT, (sx, rect.bottom))
                continue
            rect.bottom = hit.top - 2
        rect.top = max(rect.top, table_rect.top)
        placed.append(rect)
        out.append((rect, word, anim.flash_alpha(vid)))
    return out
