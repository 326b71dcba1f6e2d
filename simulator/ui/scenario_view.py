"""A scenario's objectives on the table and its score board beside it (p.130-175).

Everything drawn here is read from the game state (:class:`~simulator.gaslands.tokens.ScenarioState`) and the
scenario's rules (:class:`~simulator.gaslands.objectives.ScenarioRules`: its score and data); nothing checks a
rule. Spawn points are rings in the player's colour; flags pennants; crates boxes; zombies small green discs;
Salvage Counters grey cogs; turrets dark octagons with their Hull Points; toxic clouds green haze; the uplink
(p.141) is outlined on its piece of terrain. A vehicle carrying tokens wears a small tag with them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from simulator.gaslands.objectives import Objective
from simulator.gaslands.state import GameState
from simulator.gaslands.tokens import Token
from simulator.geometry.table import Table
from simulator.ui import draw, palette
from simulator.ui.view import View
from simulator.vocab import plural

FLAG = (250, 215, 60)
CRATE = (170, 120, 60)
ZOMBIE = (110, 200, 90)
SALVAGE = (170, 170, 170)
TURRET = (70, 70, 80)
CLOUD = (120, 200, 90, 70)
UPLINK = (230, 80, 230)
BOARD_BACK = (18, 18, 22, 225)
BOARD_WIDTH_PX = 250


def player_colours(colours: Sequence[str]) -> list[tuple[int, int, int]]:
    """The players' colours as RGB (the colour-blind-safe ones with that option on: :mod:`simulator.ui.palette`)."""
    return [draw.hex_colour(palette.team_hex(colours, i)) for i in range(len(colours))]


def draw_objectives(surface: pygame.Surface, view: View, state: GameState, table: Table,
                    colours: Sequence[tuple[int, int, int]]) -> None:
    """Spawn points, the tokens on the table and the uplink, under the vehicles."""
    scen = state.scenario
    for t in scen.on_table("toxic_cloud"):
        _disc(surface, view, t, CLOUD, None)
    for s in scen.spawns:
        c = colours[s.player] if 0 <= s.player < len(colours) else (200, 200, 200)
        x, y = view.to_screen(s.x_mm, s.y_mm)
        r = max(4.0, view.mm_to_px(s.radius_mm))
        pygame.draw.circle(surface, draw.shade(c, 0.5), (x, y), r)
        pygame.draw.circle(surface, c, (x, y), r, 3)
        pygame.draw.circle(surface, c, (x, y), r * 0.35)
    uplink = scen.note("uplink")
    if uplink:
        for o in table.all_obstacles:
            if o.id == uplink:
                draw.outline_shape(surface, view, o.polygon.buffer(4.0), UPLINK, 3)
                c = o.polygon.centroid
                draw.text(surface, "UPLINK", view.to_screen(c.x, c.y), 15, UPLINK, "center", backing=(10, 10, 10, 200))
    for t in scen.on_table():
        if t.kind == "toxic_cloud":
            continue
        owner = colours[t.owner] if 0 <= t.owner < len(colours) else None
        draw_token(surface, view, t, owner)


def draw_token(surface: pygame.Surface, view: View, t: Token, owner: tuple[int, int, int] | None) -> None:
    """One token where it lies, drawn by its kind."""
    x, y = view.to_screen(t.x_mm, t.y_mm)
    r = max(3.0, view.mm_to_px(t.radius_mm))
    if t.kind in ("flag", "tag_flag"):
        colour = owner or FLAG
        pygame.draw.circle(surface, (30, 30, 30), (x, y), r)
        pygame.draw.circle(surface, colour, (x, y), r, 2)
        pole_top = (x - r * 0.3, y - r * 0.9)
        pygame.draw.line(surface, (235, 235, 235), (x - r * 0.3, y + r * 0.7), pole_top, 2)
        pygame.draw.polygon(surface, colour, [pole_top, (x + r * 0.8, y - r * 0.55), (x - r * 0.3, y - r * 0.15)])
    elif t.kind == "crate":
        rect = pygame.Rect(0, 0, 2 * r * 0.85, 2 * r * 0.85)
        rect.center = (round(x), round(y))
        pygame.draw.rect(surface, CRATE, rect)
        pygame.draw.rect(surface, draw.shade(CRATE, 0.5), rect, 2)
        pygame.draw.line(surface, draw.shade(CRATE, 0.5), rect.topleft, rect.bottomright, 1)
        pygame.draw.line(surface, draw.shade(CRATE, 0.5), rect.topright, rect.bottomleft, 1)
    elif t.kind == "zombie":
        pygame.draw.circle(surface, ZOMBIE, (x, y), r)
        pygame.draw.circle(surface, draw.shade(ZOMBIE, 0.4), (x, y), r, 1)
    elif t.kind == "salvage":
        pygame.draw.circle(surface, SALVAGE, (x, y), r)
        for k in range(6):
            a = math.radians(60 * k)
            pygame.draw.line(surface, draw.shade(SALVAGE, 0.45), (x, y), (x + r * math.cos(a), y + r * math.sin(a)), 1)
    elif t.kind in ("gun_turret", "rocket_turret"):
        pts = [(x + r * math.cos(math.radians(22.5 + 45 * k)), y + r * math.sin(math.radians(22.5 + 45 * k)))
               for k in range(8)]
        pygame.draw.polygon(surface, TURRET, pts)
        pygame.draw.polygon(surface, (255, 110, 80) if t.kind == "gun_turret" else (255, 170, 60), pts, 2)
        if t.hull:
            draw.text(surface, str(t.hull_points), (x, y), max(12, int(r)), (255, 255, 255), "center")
    else:
        colour = owner or (220, 220, 220)
        pygame.draw.circle(surface, colour, (x, y), r)
        pygame.draw.circle(surface, (20, 20, 20), (x, y), r, 1)


def _disc(surface: pygame.Surface, view: View, t: Token, fill: tuple[int, ...], edge: tuple[int, ...] | None) -> None:
    x, y = view.to_screen(t.x_mm, t.y_mm)
    r = max(3, round(view.mm_to_px(t.radius_mm)))
    layer = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
    pygame.draw.circle(layer, fill, (r + 1, r + 1), r)
    if edge is not None:
        pygame.draw.circle(layer, edge, (r + 1, r + 1), r, 2)
    surface.blit(layer, (x - r - 1, y - r - 1))


def draw_carried(surface: pygame.Surface, view: View, state: GameState, table: Table) -> None:
    """A tag beside each vehicle carrying tokens: ``2 flags``, ``1 crate`` (p.131, p.139)."""
    on_table = {v.id: v for v in table.vehicles}
    for vid, piece in on_table.items():
        carried = state.scenario.carried(vid)
        points = state.scenario.vehicle_points_of(vid)
        if not carried and not points:
            continue
        counts: dict[str, int] = {}
        for t in carried:
            counts[t.kind] = counts.get(t.kind, 0) + 1
        words = [f"{n} {k.replace('_', ' ')}{'s' if n != 1 else ''}" for k, n in sorted(counts.items())]
        if points:
            words.append(f"{points} salvage")
        x, y = view.to_screen(piece.pose.x_mm, piece.pose.y_mm)
        reach = view.mm_to_px(max(piece.length_mm, piece.width_mm)) / 2 + 6
        draw.text(surface, ", ".join(words), (x + reach, y), 15, FLAG, "midleft", backing=(20, 20, 10, 210))


def scoreboard_lines(state: GameState, objective: Objective, round_no: int) -> list[tuple[str, int]]:
    """The score board's lines: ``(text, player index or -1)``, the scenario first, then each team's score and
    the end condition (p.122-175)."""
    rules = objective.rules
    spec = objective.spec
    out: list[tuple[str, int]] = [(f"{spec.name} ({spec.pages})", -1)]
    scores = rules.side_scores(state)
    for side, n in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])):
        first = state.side_players(side)[0] if state.side_players(side) else -1
        votes = sum(state.votes_of(p) for p in state.side_players(side)) if state.votes else None
        extra = f"  ({plural(votes, 'vote')})" if votes is not None else ""
        unit = spec.unit.replace("vehicles", "vehicle") if n == 1 else spec.unit
        unit = unit[:-1] if n == 1 and unit.endswith("s") else unit
        out.append((f"{state.side_name(side)}: {n} {unit}{extra}", first))
    rounds = spec.numbers.get("rounds")
    if rounds is not None:
        out.append((f"Round {min(round_no, int(rounds.value))} of {rounds.value}", -1))
    return out


def draw_scoreboard(surface: pygame.Surface, rect: pygame.Rect, state: GameState, objective: Objective,
                    colours: Sequence[tuple[int, int, int]], result: str = "", table_left_px: float | None = None
                    ) -> pygame.Rect:
    """The score board in the canvas's top-left corner, beside the table where there is room (``table_left_px``:
    where the table's left edge is drawn): the scenario, each team's score, the rounds, and the result when the
    game is over; returns where it is."""
    lines = scoreboard_lines(state, objective, state.round.round_no)
    summary = objective.spec.summary
    gap = (table_left_px - rect.left - 16) if table_left_px is not None else 0
    width = int(gap) if 170 <= gap < BOARD_WIDTH_PX else BOARD_WIDTH_PX
    chars = max(20, width // 7)
    wrapped = _wrap(summary, chars)
    height = 12 + 22 * len(lines) + 20 * len(wrapped) + (24 if result else 0)
    box = pygame.Rect(rect.left + 8, rect.top + 8, width, height)
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    layer.fill(BOARD_BACK)
    surface.blit(layer, box.topleft)
    pygame.draw.rect(surface, (90, 90, 100), box, 1)
    y = box.top + 6
    for i, (line, player) in enumerate(lines):
        colour = colours[player] if 0 <= player < len(colours) else (FLAG if i == 0 else draw.TEXT)
        if player >= 0:
            pygame.draw.rect(surface, colour, (box.left + 8, y + 3, 10, 10))
        draw.text(surface, line, (box.left + (24 if player >= 0 else 8), y), 17 if i else 18, colour)
        y += 22
    for chunk in wrapped:
        draw.text(surface, chunk, (box.left + 8, y), 15, draw.TEXT_DIM)
        y += 20
    if result:
        draw.text(surface, result[:chars + 4], (box.left + 8, y), 16, (255, 230, 120))
    return box


def _wrap(text: str, width: int) -> list[str]:
    words = text.split()
    out: list[str] = []
    line = ""
    for w in words:
        if len(line) + len(w) + 1 > width and line:
            out.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    if line:
        out.append(line)
    return out
