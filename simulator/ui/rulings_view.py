"""The rulings view (R): ask where a move ends or what a gun sees, and see the answer drawn.

A move question uses the pending template of the window (drag it onto a car
as in play) and shows the swept path, the point of contact, the Interrupted
Final Position and each collision's orientation with both vehicles' edges
(p.45-54). A shoot question names an attacker, a target, an arc and a range
and shows the best template placement, the part of it before the target in
another colour, what gives cover or blocks, and the margin (p.28-30, p.87).
The text panel says the ruling with its page and margin. Everything is
recomputed from the current :class:`Table`, so it follows pieces being
dragged. Situations are saved as rulings files (RULINGS.md) atomically.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import shapely
import tomlkit
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from simulator.geometry.movement import Collision
from simulator.geometry.placement import Move
from simulator.geometry.pose import footprint, normalise_deg
from simulator.geometry.table import Table
from simulator.geometry.templates import TemplateSet
from simulator.scenario.loader import Scenario
from simulator.scenario.rulings_file import write_rulings_file
from simulator.ui import draw
from simulator.ui.outcome import MoveOutcome, ShotOutcome, preview_shot
from simulator.ui.view import View
from simulator.ui.widgets import Button

ARCS = ("front", "rear", "side", "turret")
RANGES = ("short", "medium", "long", "double", "small_burst", "large_burst")
NEAR_PART = (255, 150, 60, 120)
FAR_PART = (120, 200, 255, 70)
COVER = (255, 214, 64)
SWEPT = (120, 220, 255, 45)
BLOCK = (255, 60, 60)

Lines = list[tuple[str, tuple[int, int, int]]]


@dataclass
class RulingsState:
    """The question being asked in the rulings view."""

    question: str = "move"
    arc: str = "front"
    range_name: str = "medium"
    indirect: bool = False
    attacker: str | None = None
    target: str | None = None
    _shot_key: tuple[object, ...] | None = field(default=None, repr=False)
    _shot: ShotOutcome | None = field(default=None, repr=False)
    _swept_key: int | None = field(default=None, repr=False)
    _swept: BaseGeometry | None = field(default=None, repr=False)

    @classmethod
    def from_queries(cls, queries: Sequence[dict[str, Any]], query_id: str | None = None) -> RulingsState:
        """A state asking the chosen query (``query_id``: its id or 1-based index; default the first)
        if it is a shoot query; else a move question."""
        chosen = select_query(queries, query_id)
        if chosen is not None and chosen.get("kind") != "shoot":
            return cls()
        for q in [chosen] if chosen is not None else queries:
            if q.get("kind") == "shoot":
                attacker, target = q.get("attacker"), q.get("target")
                return cls("shoot", str(q.get("arc", "front")), str(q.get("range", "medium")),
                           bool(q.get("indirect", False)), str(attacker) if attacker else None,
                           str(target) if target else None)
        return cls()

    # ---------------------------------------------------------------- input
    def pick(self, vehicle_id: str) -> None:
        """A click on a vehicle in a shoot question: the first is the attacker, the next the target."""
        if self.attacker is None or (self.target is not None and vehicle_id == self.attacker):
            self.attacker, self.target = vehicle_id, None
        elif vehicle_id != self.attacker:
            self.target = vehicle_id

    def describe_pick(self, name: Callable[[str], str]) -> str:
        """What the last pick means, for the status line."""
        if self.attacker is None:
            return "Click the attacker."
        if self.target is None:
            return f"Attacker: {name(self.attacker)}. Now click the target."
        return f"{name(self.attacker)} shoots at {name(self.target)} ({self.arc}, {self.range_name})."

    def key(self, ch: str) -> str:
        """Keys X (question), A (arc), D (range), I (indirect); returns a status message."""
        action = {"x": "question", "a": "arc", "d": "range", "i": "indirect"}[ch]
        return self.apply(action)

    def apply(self, action: str) -> str:
        """Run a rulings action (from a key or a button: ``question``, ``arc``, ``range``, ``indirect``,
        ``clear``, ``arc=NAME``, ``range=NAME``) and describe the new state.

        ``ValueError`` for any other action, arc or range (a button that did nothing would be silent).
        """
        if action == "question":
            self.question = "shoot" if self.question == "move" else "move"
            return ("Shoot question: click the attacker, then the target. A: arc, D: range."
                    if self.question == "shoot" else "Move question: drop a template on a car.")
        if action == "arc":
            self.arc = ARCS[(ARCS.index(self.arc) + 1) % len(ARCS)]
        elif action == "range":
            self.range_name = RANGES[(RANGES.index(self.range_name) + 1) % len(RANGES)]
        elif action == "indirect":
            self.indirect = not self.indirect
        elif action.startswith("arc=") and action[4:] in ARCS:
            self.arc = action[4:]
        elif action.startswith("range=") and action[6:] in RANGES:
            self.range_name = action[6:]
        elif action == "clear":
            self.attacker = self.target = None
            return "Shot cleared: click the attacker."
        else:
            raise ValueError(f"unknown rulings action {action!r}")
        return f"Shot: {self.arc} arc, {self.range_name.replace('_', ' ')} range" + (
            ", indirect" if self.indirect else "")

    def buttons(self, origin: tuple[int, int, int]) -> list[Button[str]]:
        """The question's buttons, laid out from ``(x, y, width)``; each action is one for :meth:`apply`."""
        x, y, w = origin
        out: list[Button[str]] = [Button((x, y, w // 2 - 3, 24), "Move question", "question", active=self.question == "move",
                      enabled=self.question != "move"),
               Button((x + w // 2 + 3, y, w // 2 - 3, 24), "Shoot question (X)", "question",
                      active=self.question == "shoot", enabled=self.question != "shoot")]
        if self.question == "shoot":
            bw = (w - 9) // 4
            for i, a in enumerate(ARCS):
                out.append(Button((x + i * (bw + 3), y + 30, bw, 22), a, f"arc={a}", active=a == self.arc))
            bw = (w - 10) // 3
            for i, r in enumerate(RANGES):
                out.append(Button((x + (i % 3) * (bw + 5), y + 56 + (i // 3) * 26, bw, 22), r.replace("_", " "),
                                  f"range={r}", active=r == self.range_name))
            out.append(Button((x, y + 110, w // 2 - 3, 22), "Indirect (I)", "indirect", active=self.indirect))
            out.append(Button((x + w // 2 + 3, y + 110, w // 2 - 3, 22), "Clear shot", "clear"))
        return out

    def text_top(self, y: int) -> int:
        """Where the ruling text starts below the buttons."""
        return y + (142 if self.question == "shoot" else 32)

    def draw_panel(self, surface: pygame.Surface, origin: tuple[int, int, int], lines: Lines) -> None:
        """The ruling text under the question's buttons."""
        x, y, w = origin
        ty = self.text_top(y)
        pygame.draw.line(surface, draw.PANEL_EDGE, (x, ty - 4), (x + w, ty - 4))
        for message, colour in lines:
            for part in _wrap(message, w, 17):
                if ty > surface.get_height() - 70:
                    return
                draw.text(surface, part, (x, ty), 17, colour)
                ty += 17

    # ---------------------------------------------------------------- answers
    def shot(self, table: Table, template_set: TemplateSet) -> ShotOutcome | None:
        """The shooting ruling for the current question (cached per table value)."""
        if self.question != "shoot" or self.attacker is None or self.target is None:
            return None
        key = (id(table), self.attacker, self.target, self.arc, self.range_name, self.indirect)
        if key != self._shot_key:
            self._shot_key = key
            self._shot = preview_shot(table, self.attacker, self.target, self.range_name, self.arc, template_set,
                                      self.indirect)
        return self._shot

    def swept(self, table: Table, outcome: MoveOutcome) -> BaseGeometry:
        """The area the vehicle's footprint sweeps along the driven path (cached per outcome)."""
        if self._swept_key != id(outcome) or self._swept is None:
            v = table.vehicle(outcome.vehicle_id)
            feet = [footprint(p, v.length_mm, v.width_mm) for p in outcome.path.sample(3.0)]
            self._swept_key, self._swept = id(outcome), shapely.union_all(feet)
        return self._swept


def _wrap(message: str, width_px: int, size: int) -> list[str]:
    words, out, line = message.split(), [], ""
    f = draw.font(size)
    for word in words:
        trial = (line + " " + word).strip()
        if f.size(trial)[0] > width_px and line:
            out.append(line)
            line = word
        else:
            line = trial
    return out + ([line] if line else [])


# -------------------------------------------------------------------- drawing
def draw_rulings_under(overlay: pygame.Surface, view: View, table: Table, state: RulingsState,
                       outcome: MoveOutcome | None) -> None:
    """The area the vehicle sweeps along its driven path (drawn under the template and ghosts)."""
    if state.question == "move" and outcome is not None:
        draw.fill_shape(overlay, view, state.swept(table, outcome), SWEPT, (120, 220, 255, 160), 1)


def draw_rulings_overlay(overlay: pygame.Surface, view: View, table: Table, template_set: TemplateSet,
                         state: RulingsState, outcome: MoveOutcome | None, name: Callable[[str], str]) -> None:
    """Contacts and orientations of a move; template, near part, cover and blocks of a shot."""
    if state.question == "move" and outcome is not None:
        for c in outcome.collisions:
            _draw_collision(overlay, view, outcome, c, name)
    shot = state.shot(table, template_set)
    for vid, word in ((state.attacker, "attacker"), (state.target, "target")):
        if state.question == "shoot" and vid is not None:
            v = table.vehicle(vid)
            px, py = view.to_screen(v.pose.x_mm, v.pose.y_mm)
            r = view.mm_to_px(max(v.length_mm, v.width_mm)) * 0.7 + 6
            pygame.draw.circle(overlay, (255, 255, 255, 200), (px, py), r, 2)
            top = word == "attacker"
            draw.text(overlay, word.upper(), (px, py - r - 2 if top else py + r + 2), 16, (255, 255, 255),
                      "midbottom" if top else "midtop", backing=(10, 10, 10, 190))
    if shot is None or shot.result is None:
        return
    res = shot.result
    if res.placement_polygon is not None:
        draw.fill_shape(overlay, view, res.placement_polygon, FAR_PART, (120, 200, 255), 2)
    if res.near_part is not None:
        draw.fill_shape(overlay, view, res.near_part, NEAR_PART, (255, 150, 60), 2)
    for oid in res.cover_from:
        _outline_piece(overlay, view, table, oid, COVER)
    for oid in res.blocked_by:
        _outline_piece(overlay, view, table, oid, BLOCK)


def _outline_piece(overlay: pygame.Surface, view: View, table: Table, piece_id: str, colour: Sequence[int]) -> None:
    try:
        shape = table.shape_of(piece_id)
    except KeyError:
        return
    draw.outline_shape(overlay, view, shape.buffer(1.5, join_style="mitre"), (colour[0], colour[1], colour[2]), 4)


def _draw_collision(overlay: pygame.Surface, view: View, outcome: MoveOutcome, c: Collision,
                    name: Callable[[str], str]) -> None:
    px, py = view.to_screen(c.point[0], c.point[1])
    pygame.draw.circle(overlay, draw.CONTACT, (px, py), 7)
    pygame.draw.circle(overlay, (255, 255, 255), (px, py), 7, 2)
    label = _orientation_text(c, outcome.vehicle_id, name)
    draw.text(overlay, label, (px + 10, py + 8), 17, draw.CONTACT, "topleft", backing=(10, 10, 10, 210))


def _orientation_text(c: Collision, mover: str, name: Callable[[str], str]) -> str:
    orient = c.orientation.replace("_", "-").title()
    edges = f"{name(mover)} {c.active_edge}"
    if c.passive_edge is not None:
        edges += f" / {name(c.with_id)} {c.passive_edge}"
    else:
        edges += f" / {c.with_id} (obstacle, Gear 0)"
    return f"{orient}: {edges}"


def _clearance(table: Table, outcome: MoveOutcome) -> tuple[str, float] | None:
    v = table.vehicle(outcome.vehicle_id)
    shape = footprint(outcome.final, v.length_mm, v.width_mm)
    ignored = set(outcome.result.ignored)
    best: tuple[str, float] | None = None
    pieces = [(o.label or o.id, o.id, o.polygon) for o in table.all_obstacles]
    pieces += [(x.id, x.id, x.footprint) for x in table.vehicles if x.id != v.id]
    for label, pid, poly in pieces:
        if pid in ignored:
            continue
        d = shape.distance(poly)
        if best is None or d < best[1]:
            best = (f"the {label} ({pid})" if label != pid else pid, d)
    return best


def rulings_lines(table: Table, template_set: TemplateSet, state: RulingsState, outcome: MoveOutcome | None,
                  name: Callable[[str], str]) -> Lines:
    """The ruling as lines of text with colours (reason, page, margin)."""
    white, dim, warn, good = draw.TEXT, draw.TEXT_DIM, draw.INTERRUPT, (110, 210, 130)
    if state.question == "shoot":
        return _shot_lines(table, template_set, state, name)
    if outcome is None:
        return [("Drop a template on a car to ask where the move ends (p.45-50).", dim)]
    out: Lines = []
    m = outcome.move
    t = template_set.template(m.template).label
    out.append((f"{name(outcome.vehicle_id)}: {t}" + (f" {m.direction}" if m.direction else "")
                + (" reversing" if m.reverse else "") + (" + Slide" if m.slide else "")
                + (f", Spin {m.spin_deg:+.0f}" if m.spin_deg else ""), white))
    f = outcome.final.normalised()
    if outcome.interrupted:
        out.append((f"Interrupted (p.45-46): ends at ({f.x_mm:.1f}, {f.y_mm:.1f}) heading {f.heading_deg:.1f}.", warn))
    else:
        out.append((f"Final Position (p.25): ({f.x_mm:.1f}, {f.y_mm:.1f}) heading {f.heading_deg:.1f}.", good))
    if outcome.result.bend_deg is not None:  # a War Rig answers for both pieces (p.118)
        out.append((f"Trailer hitched behind, bent {outcome.result.bend_deg:+.1f} deg from the cab (p.118).", white))
    for c in outcome.collisions:
        out.append(("Collision (p.52-54): " + _orientation_text(c, outcome.vehicle_id, name), draw.CONTACT))
    r = outcome.result
    if r.ignored:
        out.append(("Ignored (touching at the start, p.45): " + ", ".join(r.ignored), dim))
    if r.removed:
        out.append(("Destroyed and removed (p.49): " + ", ".join(r.removed), dim))
    if r.disqualified:
        out.append(("Template leaves the table: disqualified (p.87).", warn))
    kinds = [k for k in ("rough", "treacherous") if r.surfaces.get(k)]
    if kinds:
        out.append(("Surface (p.86): " + ", ".join(kinds), dim))
    if r.gates_passed:
        out.append(("Gates passed (p.124-127): " + ", ".join(r.gates_passed), dim))
    out.append((f"Travel: {r.travel_mm:.1f} mm", dim))
    clear = _clearance(table, outcome)
    if clear is not None:
        label, d = clear
        if d <= 0.01:
            out.append((f"{name(outcome.vehicle_id)} touches {label}.", white))
        else:
            out.append((f"{name(outcome.vehicle_id)} clears {label} by {d:.1f} mm.", white))
    return out


def _named(table: Table, ids: Sequence[str]) -> list[str]:
    out = []
    for pid in ids:
        try:
            label = table.obstacle(pid).label
        except KeyError:
            label = ""
        out.append(f"the {label} ({pid})" if label else pid)
    return out


def _nearest(table: Table, shape: BaseGeometry, skip: set[str | None]) -> tuple[str, float] | None:
    best: tuple[str, float] | None = None
    pieces = [(o.id, o.polygon) for o in table.all_obstacles] + [(v.id, v.footprint) for v in table.vehicles]
    for pid, poly in pieces:
        if pid in skip:
            continue
        d = float(shape.distance(poly))
        if best is None or d < best[1]:
            best = (_named(table, [pid])[0], d)
    return best


def _shot_lines(table: Table, template_set: TemplateSet, state: RulingsState, name: Callable[[str], str]) -> Lines:
    dim, warn, good = draw.TEXT_DIM, draw.INTERRUPT, (110, 210, 130)
    if state.attacker is None:
        return [("Click the attacker, then the target.", dim)]
    if state.target is None:
        return [(f"Attacker {name(state.attacker)}: now click the target.", dim)]
    shot = state.shot(table, template_set)
    head = (f"{name(state.attacker)} -> {name(state.target)}: {state.arc} arc, "
            f"{state.range_name.replace('_', ' ')}" + (", indirect" if state.indirect else ""), draw.TEXT)
    if shot is None or shot.result is None:
        return [head, (shot.note if shot else "", warn)]
    r = shot.result
    out: Lines = [head]
    margin = r.margin_mm
    if not r.in_arc_and_range:
        out.append((f"Not in arc and range (p.28): out by {abs(margin):.1f} mm.", warn))
        return out
    out.append((f"In arc and range (p.28): with {margin:.1f} mm to spare.", good))
    if not r.targetable:
        out.append(("Cannot be targeted: a Tall obstruction blocks every placement (p.87); the one drawn: "
                    + ", ".join(r.blocked_by), warn))
    elif r.cover:
        out.append(("Cover (p.29): -1 to hit; every placement crosses an obstruction before the target "
                    "(the one drawn crosses " + ", ".join(_named(table, r.cover_from)) + ").", draw.SELECT))
    else:
        out.append(("No cover: the best placement reaches the target clear (p.29).", good))
        clear = _nearest(table, r.near_part, {state.attacker, state.target}) if r.near_part is not None else None
        if clear is not None:
            out.append((f"The template clears {clear[0]} by {clear[1]:.1f} mm.", draw.TEXT))
    if r.placement is not None:
        p = r.placement.normalised()
        out.append((f"Template near edge at ({p.x_mm:.1f}, {p.y_mm:.1f}) heading "
                    f"{normalise_deg(round(p.heading_deg, 1)):.1f}.", dim))
    out.append(("Orange: the template before the target. Blue: the rest.", dim))
    return out


# -------------------------------------------------------------------- files
def _coords(poly: Polygon) -> list[list[float]]:
    return [[round(float(x), 4), round(float(y), 4)] for x, y in np.asarray(poly.exterior.coords)[:-1]]


def _current_queries(scenario: Scenario, state: RulingsState, move: Move | None, vehicle_id: str | None,
                     shown: str | None) -> list[dict[str, Any]]:
    """The file's queries with the one on screen (``shown``) replaced by the current question; a
    question that came from no query of the file is added with a fresh id."""
    current: list[dict[str, Any]] = []
    if move is not None and vehicle_id is not None:
        q: dict[str, Any] = {"kind": "move", "vehicle": vehicle_id, "template": move.template}
        if move.direction:
            q["direction"] = move.direction
        q.update({"reverse": move.reverse, "slide": move.slide, "spin_deg": move.spin_deg})
        if move.slide_facing:
            q["slide_facing"] = move.slide_facing
        current.append(q)
    if state.attacker and state.target:
        current.append({"kind": "shoot", "attacker": state.attacker, "target": state.target,
                        "range": state.range_name, "arc": state.arc, "indirect": state.indirect})
    kept = [dict(q) for q in scenario.spec.query]
    ids = {str(q.get("id", i)) for i, q in enumerate(kept, 1)}
    for q in current:
        slot = next((i for i, old in enumerate(kept, 1)
                     if shown is not None and str(old.get("id", i)) == shown and old.get("kind") == q["kind"]), None)
        if slot is not None:
            kept[slot - 1] = {"id": kept[slot - 1].get("id", slot), **q}
            continue
        base, n = q["kind"], 1
        while f"{base}-{n}" in ids:
            n += 1
        ids.add(f"{base}-{n}")
        kept.append({"id": f"{base}-{n}", **q})
    return kept


def rulings_document(scenario: Scenario, table: Table, state: RulingsState, move: Move | None,
                     vehicle_id: str | None, shown: str | None = None) -> tomlkit.TOMLDocument:
    """The situation as a rulings file (RULINGS.md): the table, the file's queries, and the current
    question in place of the query ``shown`` (or added)."""
    doc = tomlkit.document()
    doc.add(tomlkit.comment("Saved from the rulings view of the Gaslands table (the format: docs/rulings.md)."))
    info = tomlkit.table()
    info.update({"name": f"{scenario.name} (rulings)", "kind": "rulings"})
    doc["scenario"] = info
    t = tomlkit.table()
    t.update({"width_mm": table.width_mm, "height_mm": table.height_mm, "template_set": table.template_set})
    doc["table"] = t
    if scenario.spec.player:
        doc["player"] = tomlkit.aot()
        for p in scenario.spec.player:
            doc["player"].append(tomlkit.item({"id": p.id, "name": p.name, "colour": p.colour}))
    vehicles = tomlkit.aot()
    for v in table.vehicles:
        row: dict[str, Any] = {"id": v.id, "type": v.type, "x_mm": round(v.pose.x_mm, 6),
                               "y_mm": round(v.pose.y_mm, 6), "heading_deg": round(v.pose.heading_deg, 6),
                               "gear": v.gear, "length_mm": v.length_mm, "width_mm": v.width_mm,
                               "reversing": v.reversing}
        if v.player is not None:
            row["player"] = v.player
        try:
            spec = scenario.vehicle_spec(v.id)
            if spec.name:
                row["name"] = spec.name
            if spec.weapons:
                row["weapons"] = [{"type": w.type, "arc": w.arc} for w in spec.weapons]
        except KeyError:
            pass
        vehicles.append(tomlkit.item(row))
    doc["vehicle"] = vehicles
    if table.obstacles:
        doc["obstacle"] = tomlkit.aot()
        for o in table.obstacles:
            doc["obstacle"].append(tomlkit.item({"id": o.id, "weight": o.weight, "polygon": _coords(o.polygon),
                                                 "tall": o.tall, "destructible": o.destructible, "label": o.label}))
    if table.surfaces:
        doc["surface"] = tomlkit.aot()
        for s in table.surfaces:
            doc["surface"].append(tomlkit.item({"id": s.id, "kind": s.kind, "polygon": _coords(s.polygon)}))
    if table.gates:
        doc["gate"] = tomlkit.aot()
        for g in table.gates:
            doc["gate"].append(tomlkit.item({"id": g.id, "number": g.number, "post_a": list(g.post_a),
                                             "post_b": list(g.post_b), "post_radius_mm": g.post_radius_mm}))
    if table.lines:
        doc["line"] = tomlkit.aot()
        for ln in table.lines:
            doc["line"].append(tomlkit.item({"id": ln.id, "kind": ln.kind, "a": list(ln.a), "b": list(ln.b)}))
    queries = tomlkit.aot()
    for q in _current_queries(scenario, state, move, vehicle_id, shown):
        queries.append(tomlkit.item(q))
    if queries:
        doc["query"] = queries
    return doc


def save_rulings(path: Path, scenario: Scenario, table: Table, state: RulingsState, move: Move | None,
                 vehicle_id: str | None, shown: str | None = None) -> None:
    """Write :func:`rulings_document` to ``path`` atomically, into the existing file's document when there is
    one so its comments survive (:func:`simulator.scenario.rulings_file.write_rulings_file`)."""
    write_rulings_file(Path(path), rulings_document(scenario, table, state, move, vehicle_id, shown))


def select_query(queries: Sequence[dict[str, Any]], query_id: str | None) -> dict[str, Any] | None:
    """The query whose id is ``query_id`` (or whose 1-based index it is); without ``query_id`` the first.

    Raises ``KeyError`` naming the known ids when there is no such query.
    """
    if query_id is None:
        return queries[0] if queries else None
    for index, q in enumerate(queries, 1):
        if str(q.get("id", index)) == query_id:
            return q
    if query_id.isdigit() and 1 <= int(query_id) <= len(queries):
        return queries[int(query_id) - 1]
    known = ", ".join(str(q.get("id", i)) for i, q in enumerate(queries, 1))
    raise KeyError(f"no query {query_id!r}; the file has: {known}")


def pending_from_queries(queries: Sequence[dict[str, Any]], query_id: str | None = None) -> tuple[str, Move] | None:
    """The chosen query (default the first) as (vehicle id, Move), if it is a move query."""
    chosen = select_query(queries, query_id)
    for q in [chosen] if chosen is not None else queries:
        if q.get("kind") == "move" and "vehicle" in q and "template" in q:
            return str(q["vehicle"]), Move(str(q["template"]), q.get("direction"), bool(q.get("reverse", False)),
                                           bool(q.get("slide", False)), q.get("slide_facing"),
                                           float(q.get("spin_deg", 0.0)))
    return None


__all__ = ["RulingsState", "select_query", "draw_rulings_overlay", "draw_rulings_under", "pending_from_queries", "rulings_document", "rulings_lines",
           "save_rulings"]
