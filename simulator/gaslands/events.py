"""What happened, as typed values: one frozen class per kind of change the engine makes, each with its page.

Every event names its vehicles by id (``vehicle``) and by name (``name``) so
the table can draw it where it happened and the log can say it in plain
words (:attr:`GameEvent.text`), never with ids. An event that changes one
vehicle's Hull Points, Hazard Tokens or gear carries ``hull_delta``,
``hazard_delta`` and ``gear_delta``: added up from :class:`GameStarted`, they
give every vehicle's dashboard (the log never loses count, DESIGN.md).
:meth:`GameEvent.to_json` is the form ``gaslands replay --events`` prints.

Dice shown with an event come as :class:`DiceGroup` values (what was rolled,
and how each die counted), so a front end lays them out without reading text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from enum import Enum
from typing import ClassVar

from simulator.gaslands.collisions import Orientation, Reaction
from simulator.gaslands.dice import SkidFace
from simulator.gaslands.permitted import Manoeuvre
from simulator.geometry.path import Path
from simulator.geometry.pose import Pose


@dataclass(frozen=True)
class DiceGroup:
    """Dice rolled together: ``label`` (``"attack"``, ``"evade"``, ``"skid"``...), the faces in order, and
    which of them counted (hits, evades, 6s...)."""

    label: str
    faces: tuple[int | str, ...]
    counted: tuple[bool, ...] = ()


@dataclass(frozen=True)
class VehicleSummary:
    """A vehicle's dashboard at the start or end of a game."""

    vehicle: str
    name: str
    player: int
    hull: int
    hazards: int
    gear: int
    status: str = "active"


def _words(template: str) -> str:
    return template.replace("_", " ")


def _signed(n: int) -> str:
    return f"{n:+d}"


def _tokens(n: int) -> str:
    """``"+1 Hazard Token"``, ``"-2 Hazard Tokens"``."""
    return f"{n:+d} Hazard Token{'' if abs(n) == 1 else 's'}"


def _count(n: int, word: str) -> str:
    """``"1 hit"``, ``"2 hits"``, ``"2 dice"``."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {'dice' if word == 'die' else word + 's'}"


def _deg(angle: float) -> str:
    """A turn in whole degrees, signed, in (-180, 180] (never ``-0``)."""
    a = (angle + 180.0) % 360.0 - 180.0
    a = 180.0 if a <= -179.5 else a
    return f"{round(a) or 0:+d}" if round(a) else "0"


def _template_words(template: str, direction: str | None, reverse: bool = False) -> str:
    """``"Turn right"``, ``"Medium Straight in reverse"`` (the direction of a Straight is left out)."""
    words = template.replace("_", " ")
    if direction and "straight" not in template:
        words += f" {direction}"
    return words + (" in reverse" if reverse else "")


def _unit(unit: str, n: int) -> str:
    """``"1 Victory Point"``, ``"2 Victory Points"``: ``unit`` is written in the plural."""
    word = unit[:-1] if abs(n) == 1 and unit.endswith("s") else unit
    return f"{n} {word}"


def _list(names: tuple[str, ...]) -> str:
    """``"Machine Gun and 2 Handguns"``: repeated names counted, joined in plain words."""
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    parts = [n if k == 1 else f"{k} {n}s" for n, k in counts.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class GameEvent:
    """Base of every event: ``RULE`` and ``PAGE`` say where the rulebook has it."""

    RULE: ClassVar[str] = ""
    PAGE: ClassVar[str] = ""

    @property
    def type(self) -> str:
        """The event's kind in snake_case (``"collided"``), as printed by ``replay --events``."""
        return re.sub(r"(?<!^)(?=[A-Z])", "_", type(self).__name__).lower()

    @property
    def page(self) -> str:
        """The rulebook page(s), e.g. ``"p.52-57"``."""
        return self.PAGE

    @property
    def rule(self) -> str:
        """The rule and its page, e.g. ``"Collisions, p.52-57"``."""
        return ", ".join(p for p in (self.RULE, self.page) if p)

    @property
    def text(self) -> str:
        """One line in plain words, with names."""
        return self.type.replace("_", " ")

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        """The dice this event rolled, grouped."""
        return ()

    @property
    def vehicles(self) -> tuple[str, ...]:
        """Ids of the vehicles it is about (for drawing it on the table)."""
        v = getattr(self, "vehicle", "")
        return (v,) if v else ()

    def to_json(self) -> dict[str, object]:
        """The event as a JSON object: ``type``, ``page``, ``rule``, ``text`` and its fields, vehicles by name."""
        out: dict[str, object] = {"type": self.type, "page": self.page, "rule": self.rule, "text": self.text}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.name == "vehicle":
                out["vehicle"] = getattr(self, "name", value)
                out["vehicle_id"] = value
            elif f.name != "name":
                out[f.name] = _plain(value)
        if self.dice:
            out["dice"] = [{"label": g.label, "faces": list(g.faces), "counted": list(g.counted)} for g in self.dice]
        return out


def _plain(value: object) -> object:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Pose):
        return {"x_mm": round(value.x_mm, 3), "y_mm": round(value.y_mm, 3), "heading_deg": round(value.heading_deg, 3)}
    if isinstance(value, Path):
        return [_plain(p) for p in value.sample(10.0)]
    if isinstance(value, VehicleSummary):
        return {"name": value.name, "vehicle_id": value.vehicle, "player": value.player, "hull": value.hull,
                "hazards": value.hazards, "gear": value.gear, "status": value.status}
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class GameStarted(GameEvent):
    """The game begins: every vehicle's dashboard."""

    vehicles_at_start: tuple[VehicleSummary, ...]
    PAGE: ClassVar[str] = "p.15-16"

    @property
    def text(self) -> str:
        return f"The game begins with {len(self.vehicles_at_start)} vehicles"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "page": self.page, "rule": self.rule, "text": self.text,
                "vehicles": [_plain(v) for v in self.vehicles_at_start]}


@dataclass(frozen=True)
class GearPhaseStarted(GameEvent):
    """A new Gear Phase: who has Pole Position and so decides first (p.19-20)."""

    round_no: int
    gear_phase: int
    pole: int
    pole_name: str
    RULE: ClassVar[str] = "Gear Phases"
    PAGE: ClassVar[str] = "p.19-20"

    @property
    def text(self) -> str:
        return f"Round {self.round_no}, Gear Phase {self.gear_phase}: {self.pole_name} has Pole Position"


@dataclass(frozen=True)
class PolePassed(GameEvent):
    """Pole Position passes to another player (Street Race p.62; after a gate p.125)."""

    player: int
    player_name: str
    at_gate: bool = False
    RULE: ClassVar[str] = "Pole Position"

    @property
    def page(self) -> str:
        return "p.125" if self.at_gate else "p.62"

    @property
    def text(self) -> str:
        return f"Pole Position passes to {self.player_name}"


@dataclass(frozen=True)
class PoleStays(GameEvent):
    """Carpe Diem keeps Pole Position where it is (p.90)."""

    RULE: ClassVar[str] = "Carpe Diem"
    PAGE: ClassVar[str] = "p.90"

    @property
    def text(self) -> str:
        return "Pole Position stays put"


@dataclass(frozen=True)
class GridPlaced(GameEvent):
    """A vehicle takes a Starting Grid slot (p.126)."""

    vehicle: str
    name: str
    rank: int
    place: int
    RULE: ClassVar[str] = "Starting Grid"
    PAGE: ClassVar[str] = "p.126"

    @property
    def text(self) -> str:
        return f"{self.name} takes rank {self.rank}, place {self.place} of the Starting Grid"


@dataclass(frozen=True)
class GreenLight(GameEvent):
    """Every vehicle counts as having passed the Starting Line (p.127)."""

    RULE: ClassVar[str] = "Green Light, Go!"
    PAGE: ClassVar[str] = "p.127"

    @property
    def text(self) -> str:
        return "Green Light, Go! Every vehicle counts as having passed the Starting Line"


@dataclass(frozen=True)
class GameOver(GameEvent):
    """The game ends: the winner (or none), why, the standings and every vehicle's dashboard (p.62, p.128)."""

    winner: int | None
    winner_name: str
    reason: str
    standings: tuple[str, ...]
    vehicles_at_end: tuple[VehicleSummary, ...]
    ref: str = ""
    """The scenario's end condition with its page (``"Capture the Flag, p.131"``); empty for a race."""
    RULE: ClassVar[str] = "Game End"
    PAGE: ClassVar[str] = "p.62, p.128"

    @property
    def rule(self) -> str:
        return self.ref or super().rule

    @property
    def page(self) -> str:
        return self.ref.rsplit(", ", 1)[-1] if self.ref else self.PAGE

    @property
    def text(self) -> str:
        head = f"{self.winner_name} wins" if self.winner is not None else "No winner"
        return f"Game over: {head} ({self.reason})"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "page": self.page, "rule": self.rule, "text": self.text, "winner": self.winner_name
                if self.winner is not None else None, "reason": self.reason, "standings": list(self.standings),
                "vehicles": [_plain(v) for v in self.vehicles_at_end]}


# --------------------------------------------------------------------------- Audience Votes (p.88-90, p.127)


@dataclass(frozen=True)
class VotesGained(GameEvent):
    """A player gains Audience Votes: for a wreck, a round without vehicles (p.88) or Catch Up (p.127)."""

    player: int
    player_name: str
    count: int
    reason: str
    catch_up: bool = False
    RULE: ClassVar[str] = "Audience Votes"

    @property
    def page(self) -> str:
        return "p.127" if self.catch_up else "p.88"

    @property
    def text(self) -> str:
        return f"{self.player_name} gains {self.count} Audience Vote{'s' if self.count != 1 else ''}: {self.reason}"


@dataclass(frozen=True)
class CatchUpRolled(GameEvent):
    """Catch Up: a player behind rolls a D6 plus the gates behind; 6 or more gains a vote (p.127)."""

    player: int
    player_name: str
    roll: int
    behind: int
    gained: bool
    RULE: ClassVar[str] = "Catch Up Mechanic"
    PAGE: ClassVar[str] = "p.127"

    @property
    def text(self) -> str:
        result = ": +1 Audience Vote" if self.gained else ": no vote"
        return f"{self.player_name} rolls {self.roll} + {self.behind} gates behind{result}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("catch up", (self.roll,), (self.gained,)),)


@dataclass(frozen=True)
class VotesSpent(GameEvent):
    """A player spends Audience Votes on an effect (p.89-90)."""

    player: int
    player_name: str
    detail: str
    ref: str
    roll: int | None = None

    @property
    def rule(self) -> str:
        return self.ref

    @property
    def page(self) -> str:
        return self.ref.rsplit(", ", 1)[-1]

    @property
    def text(self) -> str:
        return f"{self.player_name} spends votes: {self.detail}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("applause", (self.roll,)),) if self.roll is not None else ()


@dataclass(frozen=True)
class VoteEffectApplied(GameEvent):
    """What an Audience Vote effect did to one vehicle (p.89-90)."""

    vehicle: str
    name: str
    hull_delta: int = 0
    hazard_delta: int = 0
    gear_delta: int = 0
    RULE: ClassVar[str] = "Audience Votes"
    PAGE: ClassVar[str] = "p.89-90"

    @property
    def text(self) -> str:
        parts = [f"Hull {_signed(self.hull_delta)}" if self.hull_delta else "",
                 f"Hazard Tokens {_signed(self.hazard_delta)}" if self.hazard_delta else "",
                 f"Gear {_signed(self.gear_delta)}" if self.gear_delta else ""]
        return f"{self.name}: " + (", ".join(p for p in parts if p) or "no change")


# --------------------------------------------------------------------------- the activation (p.19-26)


@dataclass(frozen=True)
class Activated(GameEvent):
    """A vehicle activates (p.19), or takes a free activation (Slip Away, p.66)."""

    vehicle: str
    name: str
    gear_phase: int
    free: bool = False
    RULE: ClassVar[str] = "Activation"

    @property
    def page(self) -> str:
        return "p.66" if self.free else "p.19"

    @property
    def text(self) -> str:
        if self.free:
            return f"{self.name} slips away: a free activation that does not count as its activation"
        return f"{self.name} activates in Gear Phase {self.gear_phase}"


@dataclass(frozen=True)
class Burned(GameEvent):
    """On Fire: a Hull Point lost at the start of the activation (p.81)."""

    vehicle: str
    name: str
    hull_delta: int = -1
    RULE: ClassVar[str] = "On Fire"
    PAGE: ClassVar[str] = "p.81"

    @property
    def text(self) -> str:
        return f"{self.name} burns: {-self.hull_delta} Hull Point lost"


@dataclass(frozen=True)
class AnchorDropped(GameEvent):
    """Tanker Anchor: a Hazard Token to skip the Movement Step, perhaps up a gear (p.120)."""

    vehicle: str
    name: str
    gear: int
    hazard_delta: int
    gear_delta: int = 0
    RULE: ClassVar[str] = "Tanker Anchor"
    PAGE: ClassVar[str] = "p.120"

    @property
    def text(self) -> str:
        return f"{self.name} drops anchor: {_tokens(self.hazard_delta)}, no Movement Step, Gear {self.gear}"


@dataclass(frozen=True)
class NitroFired(GameEvent):
    """The Jet Engine's compulsory Nitro Booster (p.70, p.84)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Jet Engine, Nitro Booster"
    PAGE: ClassVar[str] = "p.70, p.84"

    @property
    def text(self) -> str:
        return f"{self.name} fires its Jet Engine: Nitro Booster"


@dataclass(frozen=True)
class NitroHazards(GameEvent):
    """Hazard Tokens up to 5 after a Nitro Booster (p.84)."""

    vehicle: str
    name: str
    hazard_delta: int
    RULE: ClassVar[str] = "Nitro Booster"
    PAGE: ClassVar[str] = "p.84"

    @property
    def text(self) -> str:
        return f"{self.name} gains Hazard Tokens up to 5 ({_signed(self.hazard_delta)})"


@dataclass(frozen=True)
class TemplateChosen(GameEvent):
    """A movement template selected (p.22): Hazardous (+1, p.38), Trivial (a free Shift, p.40),
    Articulated off the Straights (+1, p.118)."""

    vehicle: str
    name: str
    chooser: str
    template: str
    direction: str | None
    reverse: bool
    manoeuvre: Manoeuvre
    hazard_delta: int = 0
    articulated: bool = False
    RULE: ClassVar[str] = "Movement"
    PAGE: ClassVar[str] = "p.22"

    @property
    def page(self) -> str:
        extra = [p for p, on in (("p.38", self.manoeuvre is Manoeuvre.HAZARDOUS),
                                 ("p.40", self.manoeuvre is Manoeuvre.TRIVIAL),
                                 ("p.39", self.reverse), ("p.118", self.articulated)) if on]
        return ", ".join(["p.22", *extra])

    @property
    def text(self) -> str:
        what = _template_words(self.template, self.direction, self.reverse)
        how = {Manoeuvre.HAZARDOUS: ", Hazardous", Manoeuvre.TRIVIAL: ", Trivial (a free Shift)"}.get(
            self.manoeuvre, "")
        tokens = f" ({_tokens(self.hazard_delta)})" if self.hazard_delta else ""
        by = f"{self.chooser} chooses for {self.name}: " if self.chooser else f"{self.name} takes "
        return f"{by}the {what}{how}{tokens}"


@dataclass(frozen=True)
class TouchItUseIt(GameEvent):
    """A refused template was touched: the next player chooses one for the vehicle (p.38)."""

    vehicle: str
    name: str
    template: str
    chooser: str
    RULE: ClassVar[str] = "Touch It, Use It"
    PAGE: ClassVar[str] = "p.38"

    @property
    def text(self) -> str:
        return f"The {_words(self.template)} is not permitted for {self.name}: {self.chooser} chooses instead"


@dataclass(frozen=True)
class SkidDiceRolled(GameEvent):
    """Skid Dice rolled all at once (p.22)."""

    vehicle: str
    name: str
    faces: tuple[SkidFace, ...]
    RULE: ClassVar[str] = "Skid Dice"
    PAGE: ClassVar[str] = "p.22"

    @property
    def text(self) -> str:
        if not self.faces:
            return f"{self.name} rolls no Skid Dice"
        return f"{self.name} rolls {len(self.faces)} Skid Dice: {', '.join(f.value for f in self.faces)}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("skid", tuple(f.value for f in self.faces)),) if self.faces else ()


@dataclass(frozen=True)
class PushedIt(GameEvent):
    """Push It: some dice rerolled for a Hazard Token (p.40)."""

    vehicle: str
    name: str
    rerolled: tuple[int, ...]
    faces: tuple[SkidFace, ...]
    hazard_delta: int = 1
    RULE: ClassVar[str] = "Push It"
    PAGE: ClassVar[str] = "p.40"

    @property
    def text(self) -> str:
        return (f"{self.name} pushes it: {_count(len(self.rerolled), 'die')} rerolled, now "
                f"{', '.join(f.value for f in self.faces)} ({_tokens(self.hazard_delta)})")

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("skid", tuple(f.value for f in self.faces),
                          tuple(i in self.rerolled for i in range(len(self.faces)))),)


@dataclass(frozen=True)
class DiceKept(GameEvent):
    """The Skid Dice kept without Push It (p.40)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Push It"
    PAGE: ClassVar[str] = "p.40"

    @property
    def text(self) -> str:
        return f"{self.name} keeps the Skid Dice"


@dataclass(frozen=True)
class ShiftsSpent(GameEvent):
    """The Skid Dice applied: Shifts spent (p.23), Hazards gained, the gear after; Slide and Spin left (p.24)."""

    vehicle: str
    name: str
    spends: tuple[str, ...]
    gear: int
    hazards: int
    slide: bool
    spin: bool
    hazard_delta: int = 0
    gear_delta: int = 0
    RULE: ClassVar[str] = "Shifts"
    PAGE: ClassVar[str] = "p.23-24"

    @property
    def text(self) -> str:
        spent = f"Shifts spent: {', '.join(self.spends)}; " if self.spends else ""
        left = " and ".join(w for w, on in (("a Slide", self.slide), ("a Spin", self.spin)) if on)
        tokens = f" ({_signed(self.hazard_delta)})" if self.hazard_delta else ""
        return (f"{self.name}: {spent}Gear {self.gear}, {_count(self.hazards, 'Hazard Token')}{tokens}"
                + (f"; {left} to come" if left else ""))


@dataclass(frozen=True)
class Moved(GameEvent):
    """A vehicle moved: how (a Movement Step, Spin, Pivot, Flip, Skid to a Halt, Lose Control...), the template,
    the path driven, the Final Position, and what interrupted it (p.22-26, p.35, p.43-50).

    ``met`` names what it collided with; ``stopped_by`` what stopped a turn
    without a Collision; ``requested_deg``/``turned_deg`` the turn asked for and
    the one made (Spin, Pivot, Lose Control). A War Rig's trailer (p.118):
    ``trailer_start`` and ``trailer_final`` (None for a vehicle without one).
    """

    vehicle: str
    name: str
    how: str
    ref: str
    start: Pose
    final: Pose
    template: str = ""
    direction: str | None = None
    reverse: bool = False
    slide: bool = False
    slide_facing: str | None = None
    path: Path | None = None
    interrupted: bool = False
    met: tuple[str, ...] = ()
    stopped_by: tuple[str, ...] = ()
    requested_deg: float | None = None
    turned_deg: float | None = None
    trailer_start: Pose | None = None
    trailer_final: Pose | None = None

    @property
    def rule(self) -> str:
        return self.ref

    def to_json(self) -> dict[str, object]:
        out = super().to_json()
        for key in ("trailer_start", "trailer_final"):
            if out.get(key) is None:
                out.pop(key, None)
        return out

    @property
    def page(self) -> str:
        return self.ref.rsplit(", ", 1)[-1] if ", p." in self.ref else self.ref

    @property
    def text(self) -> str:
        head = f"{self.name} {self.how}"
        if self.template:
            what = _template_words(self.template, self.direction, self.reverse)
            head += f" the {what}" if self.how == "drives" else f" ({what})"
        parts = [head]
        if self.slide:
            parts.append("sliding" + (f" to face {self.slide_facing}" if self.slide_facing else ""))
        if self.requested_deg is not None and self.turned_deg is not None:
            if _deg(self.requested_deg) != _deg(self.turned_deg):
                parts.append(f"{_deg(self.turned_deg)} of the {_deg(self.requested_deg)} degrees asked")
            else:
                parts.append(f"{_deg(self.turned_deg)} degrees")
        if self.met:
            parts.append(f"into {_list(self.met)}")
        if self.stopped_by:
            parts.append(f"stopped by {_list(self.stopped_by)}")
        elif self.interrupted and not self.met:
            parts.append("interrupted")
        if self.trailer_final is not None:
            bend = (self.trailer_final.heading_deg - self.final.heading_deg + 180.0) % 360.0 - 180.0
            parts.append("its trailer in line" if abs(bend) < 0.5 else f"its trailer bent {bend:+.0f} degrees")
        return ", ".join(parts)


@dataclass(frozen=True)
class SlideChosen(GameEvent):
    """Which way a vehicle faces after sliding off a Straight (p.26)."""

    vehicle: str
    name: str
    side: str
    RULE: ClassVar[str] = "Slide"
    PAGE: ClassVar[str] = "p.26"

    @property
    def text(self) -> str:
        return f"{self.name} slides, facing {self.side}"


@dataclass(frozen=True)
class SpinLost(GameEvent):
    """No Spin after a move that ended in an Interrupted Final Position; its Hazard Token stays (p.24)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Spin"
    PAGE: ClassVar[str] = "p.24"

    @property
    def text(self) -> str:
        return f"{self.name} does not Spin: its move ended in an Interrupted Final Position (the Hazard Token stays)"


@dataclass(frozen=True)
class SurfaceHazards(GameEvent):
    """Hazard Tokens for ending a Movement Step on rough or treacherous ground (p.86), dropped templates
    that count as treacherous included (p.79)."""

    vehicle: str
    name: str
    surfaces: tuple[str, ...]
    hazard_delta: int
    RULE: ClassVar[str] = "Surfaces"
    PAGE: ClassVar[str] = "p.86"

    @property
    def text(self) -> str:
        return f"{self.name} ends its move on {' and '.join(self.surfaces)}: {_tokens(self.hazard_delta)}"


@dataclass(frozen=True)
class AllTerrain(GameEvent):
    """All Terrain ignores rough and treacherous surfaces (p.71)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "All Terrain"
    PAGE: ClassVar[str] = "p.71"

    @property
    def text(self) -> str:
        return f"{self.name} ignores rough and treacherous surfaces"


@dataclass(frozen=True)
class SmokeHazard(GameEvent):
    """Touching a Smoke template in a Movement Step gives a Hazard Token (p.80)."""

    vehicle: str
    name: str
    hazard_delta: int = 1
    RULE: ClassVar[str] = "Smoke Dropper"
    PAGE: ClassVar[str] = "p.80"

    @property
    def text(self) -> str:
        return f"{self.name} drives through Smoke: +1 Hazard Token"


@dataclass(frozen=True)
class Glued(GameEvent):
    """Glue: two gears off at the end of the Movement Step, not two activations in a row (p.79)."""

    vehicle: str
    name: str
    gear: int
    gear_delta: int
    resisted: bool = False
    RULE: ClassVar[str] = "Glue Dropper"
    PAGE: ClassVar[str] = "p.79"

    @property
    def text(self) -> str:
        if self.resisted:
            return f"{self.name} is not affected by Glue two activations in a row"
        return f"{self.name} is stuck in Glue: down to Gear {self.gear}"


@dataclass(frozen=True)
class ObstacleRemoved(GameEvent):
    """A destructible obstacle smashed and taken off the table (p.49)."""

    obstacle: str
    obstacle_name: str
    RULE: ClassVar[str] = "Destructible Obstacles"
    PAGE: ClassVar[str] = "p.49"

    @property
    def text(self) -> str:
        return f"Smashed and taken off the table: the {self.obstacle_name}"


@dataclass(frozen=True)
class Disqualified(GameEvent):
    """A vehicle leaves the table and is out of the game (p.87)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Edge of the Table"
    PAGE: ClassVar[str] = "p.87"

    @property
    def text(self) -> str:
        return f"{self.name} leaves the table and is disqualified"


@dataclass(frozen=True)
class CrossedFinish(GameEvent):
    """A vehicle crosses the Street Race Finish Line at ``point`` (p.62), or passes the Death Race's last gate
    (p.128); ``wins`` unless it cannot (a Helicopter or Gyrocopter, p.128)."""

    vehicle: str
    name: str
    point: tuple[float, float] | None
    wins: bool = True
    death_race: bool = False
    why: str = ""
    """Why a crossing does not win: a Helicopter or Gyrocopter (p.128), a Wreck skidding to a halt (p.43)."""
    RULE: ClassVar[str] = "Finish Line"

    @property
    def page(self) -> str:
        return "p.128" if self.death_race else "p.62"

    @property
    def text(self) -> str:
        where = f" at ({self.point[0]:.0f}, {self.point[1]:.0f})" if self.point else ""
        if not self.wins:
            return f"{self.name} passes the Finish Line{where}, but {self.why or 'cannot win'}"
        return f"{self.name} crosses the Finish Line{where} and wins the race"


@dataclass(frozen=True)
class PassedGates(GameEvent):
    """Gates passed in order while travelling their way (p.127)."""

    vehicle: str
    name: str
    gates: tuple[str, ...]
    RULE: ClassVar[str] = "Passing Gates"
    PAGE: ClassVar[str] = "p.127"

    @property
    def text(self) -> str:
        return f"{self.name} passes {', '.join(self.gates)}"


# --------------------------------------------------------------------------- ramps (p.87)


@dataclass(frozen=True)
class RampReached(GameEvent):
    """A move stopped at a ramp's edge (not its entry edge): the D6 against the current Gear decides a Jump
    (at most the Gear) or a Tumble (p.87)."""

    vehicle: str
    name: str
    ramp: str
    ramp_name: str
    roll: int
    gear: int
    jump: bool
    RULE: ClassVar[str] = "Ramps"
    PAGE: ClassVar[str] = "p.87"

    @property
    def text(self) -> str:
        what = "a Jump" if self.jump else "a Tumble"
        return f"{self.name} goes off the edge of the {self.ramp_name}: rolls {self.roll} in Gear {self.gear}, {what}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("ramp", (self.roll,), (self.jump,)),)


@dataclass(frozen=True)
class Jumped(GameEvent):
    """After a Jump: 2 Hazard Tokens (and 1 Audience Vote, :class:`VotesGained`) (p.87)."""

    vehicle: str
    name: str
    hazard_delta: int
    RULE: ClassVar[str] = "Jump"
    PAGE: ClassVar[str] = "p.87"

    @property
    def text(self) -> str:
        return f"{self.name} lands the Jump: {_tokens(self.hazard_delta)}"


@dataclass(frozen=True)
class Tumbled(GameEvent):
    """After a Tumble: a 4D6 attack on the vehicle (Evade as for any attack) and 6 Hazard Tokens (p.87)."""

    vehicle: str
    name: str
    rolls: tuple[int, ...]
    evade_rolls: tuple[int, ...]
    hits: int
    hull_delta: int
    hazard_delta: int
    RULE: ClassVar[str] = "Tumble"
    PAGE: ClassVar[str] = "p.87"

    @property
    def text(self) -> str:
        return (f"{self.name} tumbles: {_count(self.hits, 'hit')}, {-self.hull_delta} damage, "
                f"{_tokens(self.hazard_delta)}")

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("tumble", self.rolls, tuple(r >= 4 for r in self.rolls)),
                DiceGroup("evade", self.evade_rolls, tuple(r == 6 for r in self.evade_rolls)))


@dataclass(frozen=True)
class VolatileRolled(GameEvent):
    """A vehicle collides with a Volatile obstacle: a D6 before reactions, 4+ and it explodes (p.87)."""

    vehicle: str
    name: str
    obstacle: str
    obstacle_name: str
    roll: int
    explodes: bool
    RULE: ClassVar[str] = "Volatile Obstacles"
    PAGE: ClassVar[str] = "p.87"

    @property
    def text(self) -> str:
        what = "it explodes" if self.explodes else "it holds"
        return f"{self.name} hits the volatile {self.obstacle_name}: rolls {self.roll}, {what}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("volatile", (self.roll,), (self.explodes,)),)


# --------------------------------------------------------------------------- pivots and special rules


@dataclass(frozen=True)
class Pivoted(GameEvent):
    """A pivot at the start of an activation (Pivot p.69, p.71; Airwolf p.70 for Hazard Tokens)."""

    vehicle: str
    name: str
    rule_name: str
    angle_deg: float
    hazard_delta: int = 0

    @property
    def rule(self) -> str:
        return {"Pivot": "Pivot, p.69, p.71", "Airwolf": "Airwolf, p.70"}.get(self.rule_name, self.rule_name)

    @property
    def page(self) -> str:
        return {"Pivot": "p.69, p.71", "Airwolf": "p.70"}.get(self.rule_name, "")

    @property
    def text(self) -> str:
        extra = f", {_tokens(self.hazard_delta)}" if self.hazard_delta else ""
        return f"{self.name} pivots {self.angle_deg:+.0f} degrees{extra}"


@dataclass(frozen=True)
class UpAndOverDeclared(GameEvent):
    """A vehicle declares it drives over a lighter one for the rest of its Movement Step (p.71)."""

    vehicle: str
    name: str
    over: str
    over_name: str
    RULE: ClassVar[str] = "Up and Over"
    PAGE: ClassVar[str] = "p.71"

    @property
    def text(self) -> str:
        return f"{self.name} declares Up and Over {self.over_name}"


@dataclass(frozen=True)
class SlipAwayEarned(GameEvent):
    """Evading a Tailgate or T-Bone Smash Attack earns a free activation (p.66)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Slip Away"
    PAGE: ClassVar[str] = "p.66"

    @property
    def text(self) -> str:
        return f"{self.name} may Slip Away after this activation"


@dataclass(frozen=True)
class Piledriven(GameEvent):
    """The Piledriver puts its target somewhere within Short range, any facing (p.120)."""

    vehicle: str
    name: str
    by: str
    pose: Pose
    RULE: ClassVar[str] = "Piledriver"
    PAGE: ClassVar[str] = "p.120"

    @property
    def text(self) -> str:
        p = self.pose
        return f"{self.by} piledrives {self.name} to ({p.x_mm:.0f}, {p.y_mm:.0f}) facing {p.heading_deg:.0f} degrees"


# --------------------------------------------------------------------------- collisions (p.52-57, p.69)


@dataclass(frozen=True)
class Collided(GameEvent):
    """A Collision resolved (p.52-57): its orientation with each side's edge, the reactions, and the dice.

    ``active_dice``/``passive_dice`` are the Smash Attack dice each side
    rolled, with ``*_dice_why`` saying how the number was reached (gear,
    weight, ram, p.54-57); ``*_evades`` the Evade dice.
    """

    active: str
    active_name: str
    passive: str
    passive_name: str
    passive_obstacle: bool
    orientation: Orientation
    active_edge: str
    passive_edge: str
    active_reaction: Reaction
    passive_reaction: Reaction
    active_dice: tuple[int, ...]
    passive_dice: tuple[int, ...]
    active_evades: tuple[int, ...]
    passive_evades: tuple[int, ...]
    active_dice_why: str = ""
    passive_dice_why: str = ""
    active_hits: int = 0
    """Hits of the active vehicle's Smash Attack: 4+, a 6 counting twice (p.42, p.55)."""
    passive_hits: int = 0
    active_piece: str = ""
    passive_piece: str = ""
    """Which piece of a War Rig touched (``"cab"`` or ``"trailer"``, p.118); empty for other vehicles."""
    RULE: ClassVar[str] = "Collisions"
    PAGE: ClassVar[str] = "p.52-57"

    @property
    def vehicles(self) -> tuple[str, ...]:
        return (self.active,) if self.passive_obstacle else (self.active, self.passive)

    def to_json(self) -> dict[str, object]:
        out = super().to_json()
        for key in ("active_piece", "passive_piece"):
            if not out.get(key):
                out.pop(key, None)
        return out

    @property
    def text(self) -> str:
        kind = self.orientation.value.replace("_", "-").title()
        on_a = f" (its {self.active_piece})" if self.active_piece == "trailer" else ""
        on_p = f" (its {self.passive_piece})" if self.passive_piece == "trailer" else ""
        edges = f"{self.active_name}'s {self.active_edge}{on_a}"
        edges += f" against the {self.passive_name}" if self.passive_obstacle else \
            f" against {self.passive_name}'s {self.passive_edge}{on_p}"
        verbs = {Reaction.SMASH: "smashes", Reaction.EVADE: "evades", Reaction.PILEDRIVER: "piledrives"}
        reactions = f"{self.active_name} {verbs[self.active_reaction]}"
        if not self.passive_obstacle:
            reactions += f", {self.passive_name} {verbs[self.passive_reaction]}"
        return f"Collision, {kind}: {edges}; {reactions}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        out = []
        for label, rolls, evade in ((self.active_name, self.active_dice, False),
                                    (self.passive_name, self.passive_dice, False),
                                    (f"{self.active_name} evades", self.active_evades, True),
                                    (f"{self.passive_name} evades", self.passive_evades, True)):
            if rolls:
                out.append(DiceGroup(label, rolls, tuple((r == 6) if evade else (r >= 4) for r in rolls)))
        return tuple(out)


@dataclass(frozen=True)
class CollisionDamage(GameEvent):
    """What a Collision did to one vehicle: damage (``hull_delta``), Hazard Tokens, fire (p.52-57)."""

    vehicle: str
    name: str
    other_name: str
    hits: int
    evaded: int
    hull_delta: int
    hazard_delta: int
    on_fire: bool = False
    self_damage: int = 0
    RULE: ClassVar[str] = "Collisions"
    PAGE: ClassVar[str] = "p.52-57"

    @property
    def text(self) -> str:
        parts = []
        if self.hits:
            evaded = f", {self.evaded} evaded" if self.evaded else ""
            parts.append(f"{_count(self.hits, 'hit')} from {self.other_name}{evaded}")
        if self.self_damage:
            parts.append(f"{self.self_damage} from its own Exploding Ram")
        damage = f"takes {-self.hull_delta} damage" if self.hull_delta else "takes no damage"
        why = f" ({'; '.join(parts)})" if parts else ""
        fire = ", and catches fire" if self.on_fire else ""
        tokens = f", {_tokens(self.hazard_delta)}" if self.hazard_delta else ""
        return f"{self.name} {damage}{why}{tokens}{fire}"


@dataclass(frozen=True)
class Sedated(GameEvent):
    """Downers: the Smash Attack's target sheds Hazard Tokens and loses Crew until the Gear Phase ends (p.69)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Downers"
    PAGE: ClassVar[str] = "p.69"

    @property
    def text(self) -> str:
        return f"{self.name} is sedated: discards 2 Hazard Tokens, Crew -1 until the end of the Gear Phase"


@dataclass(frozen=True)
class UppersGearUp(GameEvent):
    """Uppers: both Evaded, so each changes up a gear with a Hazard Token (p.69)."""

    vehicle: str
    name: str
    gear: int
    gear_delta: int
    hazard_delta: int
    RULE: ClassVar[str] = "Uppers"
    PAGE: ClassVar[str] = "p.69"

    @property
    def text(self) -> str:
        return f"Uppers: {self.name} changes up to Gear {self.gear}, {_tokens(self.hazard_delta)}"


# --------------------------------------------------------------------------- attacks (p.30-33, p.42, p.78-82)


@dataclass(frozen=True)
class Distracted(GameEvent):
    """A vehicle touching an obstruction or Smoke makes no attacks (p.42, p.80)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Distracted"
    PAGE: ClassVar[str] = "p.42"

    @property
    def text(self) -> str:
        return f"{self.name} is Distracted: no attacks"


@dataclass(frozen=True)
class WeaponsInactive(GameEvent):
    """No weapon attacks before Gate 1 (p.127)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Weapons Inactive Until Gate 1"
    PAGE: ClassVar[str] = "p.127"

    @property
    def text(self) -> str:
        return f"{self.name}: weapons inactive until Gate 1"


@dataclass(frozen=True)
class HeldFire(GameEvent):
    """No attacks declared (p.30)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Attack Step"
    PAGE: ClassVar[str] = "p.30"

    @property
    def text(self) -> str:
        return f"{self.name} holds fire"


@dataclass(frozen=True)
class Attacked(GameEvent):
    """One target attacked by the active vehicle's weapons, one Evade roll against them all (p.30-33).

    ``vehicle`` is the target (its ``hull_delta``, ``hazard_delta``); ``hits``
    before and ``evaded`` by the Evade dice; Cover takes a hit off (p.42).
    """

    attacker: str
    attacker_name: str
    vehicle: str
    name: str
    weapons: tuple[str, ...]
    attack_rolls: tuple[tuple[int, ...], ...]
    evade_rolls: tuple[int, ...]
    hits: int
    damage: int
    cover: bool
    hull_delta: int
    hazard_delta: int = 0
    on_fire: bool = False
    RULE: ClassVar[str] = "Attack Step"
    PAGE: ClassVar[str] = "p.30-33"

    @property
    def vehicles(self) -> tuple[str, ...]:
        return (self.attacker, self.vehicle)

    @property
    def text(self) -> str:
        cover = ", in Cover" if self.cover else ""
        extra = f", {_tokens(self.hazard_delta)}" if self.hazard_delta else ""
        fire = ", on fire" if self.on_fire else ""
        sixes = sum(1 for rolls in self.attack_rolls for r in rolls if r == 6)
        crits = f" ({_count(sixes, 'Critical Hit')}: a 6 is 2 hits)" if sixes else ""
        return (f"{self.attacker_name} attacks {self.name} with {_list(self.weapons)}{cover}: "
                f"{_count(self.hits, 'hit')}{crits}, {self.damage} damage{extra}{fire}")

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        groups = tuple(DiceGroup(name, rolls, tuple(r >= 4 for r in rolls))
                       for name, rolls in zip(self.weapons, self.attack_rolls, strict=False))
        return (*groups, DiceGroup("evade", self.evade_rolls, tuple(r == 6 for r in self.evade_rolls)))


@dataclass(frozen=True)
class WeaponDropped(GameEvent):
    """A dropped weapon's template left against an edge (p.78)."""

    vehicle: str
    name: str
    weapon: str
    template_id: str
    edge: str
    RULE: ClassVar[str] = "Dropped Weapons"
    PAGE: ClassVar[str] = "p.78"

    @property
    def text(self) -> str:
        return f"{self.name} drops {self.weapon} at its {self.edge} edge"


@dataclass(frozen=True)
class DropAttacked(GameEvent):
    """A dropped template attacks the vehicle that met it and is removed (Caltrops, Mines, Napalm, p.78-79)."""

    weapon: str
    template_id: str
    vehicle: str
    name: str
    attack_rolls: tuple[tuple[int, ...], ...]
    evade_rolls: tuple[int, ...]
    hits: int
    damage: int
    hull_delta: int
    hazard_delta: int = 0
    on_fire: bool = False
    RULE: ClassVar[str] = "Dropped Weapons"
    PAGE: ClassVar[str] = "p.78-79"

    @property
    def text(self) -> str:
        return (f"{self.weapon} attacks {self.name}: {_count(self.hits, 'hit')}, {self.damage} damage; the template "
                "is removed")

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        rolls = tuple(r for group in self.attack_rolls for r in group)
        return (DiceGroup(self.weapon, rolls, tuple(r >= 4 for r in rolls)),
                DiceGroup("evade", self.evade_rolls, tuple(r == 6 for r in self.evade_rolls)))


# --------------------------------------------------------------------------- wipeouts (p.34-35, p.119)


@dataclass(frozen=True)
class WipedOut(GameEvent):
    """A Wipeout: the Flip check (p.34)."""

    vehicle: str
    name: str
    roll: int
    gear: int
    flips: bool
    RULE: ClassVar[str] = "Wipeout"
    PAGE: ClassVar[str] = "p.34"

    @property
    def text(self) -> str:
        return f"{self.name} wipes out; Flip check {self.roll} in Gear {self.gear}: {'flips' if self.flips else 'no flip'}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("flip check", (self.roll,), (self.flips,)),)


@dataclass(frozen=True)
class Flipped(GameEvent):
    """A Flip: hits that cannot be Evaded, then a forced Medium Straight (p.35)."""

    vehicle: str
    name: str
    hull_delta: int
    RULE: ClassVar[str] = "Flip"
    PAGE: ClassVar[str] = "p.35"

    @property
    def text(self) -> str:
        return f"{self.name} flips: {_count(-self.hull_delta, 'hit')}"


@dataclass(frozen=True)
class Jackknifed(GameEvent):
    """An Articulated vehicle jackknifes instead of flipping (p.119)."""

    vehicle: str
    name: str
    RULE: ClassVar[str] = "Jackknife"
    PAGE: ClassVar[str] = "p.119"

    @property
    def text(self) -> str:
        return f"{self.name} jackknifes"


@dataclass(frozen=True)
class TrailerSwung(GameEvent):
    """A Jackknife's Swing Trailer: the player to the left hinges the trailer about the hitch (p.119).

    ``requested_deg`` is the bend chosen (the trailer's heading minus the cab's), ``reached_deg`` where the
    swing stopped; ``stopped_by`` names what stopped it short without a Collision.
    """

    vehicle: str
    name: str
    chooser: str
    requested_deg: float
    reached_deg: float
    stopped_by: tuple[str, ...] = ()
    RULE: ClassVar[str] = "Jackknife: Swing Trailer"
    PAGE: ClassVar[str] = "p.119"

    @property
    def text(self) -> str:
        head = f"{self.chooser} swings {self.name}'s trailer to {self.reached_deg:+.0f} degrees"
        if abs(self.requested_deg - self.reached_deg) > 0.5:
            why = f", stopped by {_list(self.stopped_by)}" if self.stopped_by else ""
            return f"{head} (of {self.requested_deg:+.0f} asked{why})"
        return head


@dataclass(frozen=True)
class Crunched(GameEvent):
    """The Jackknife's Crunch: attack dice against itself, not Evaded (p.119)."""

    vehicle: str
    name: str
    rolls: tuple[int, ...]
    hull_delta: int
    RULE: ClassVar[str] = "Jackknife"
    PAGE: ClassVar[str] = "p.119"

    @property
    def text(self) -> str:
        return f"{self.name} crunches: {_count(-self.hull_delta, 'hit')} on itself"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("crunch", self.rolls, tuple(r >= 4 for r in self.rolls)),)


@dataclass(frozen=True)
class WipeoutReset(GameEvent):
    """After a Wipeout: Gear 1 and no Hazard Tokens (p.35)."""

    vehicle: str
    name: str
    hazard_delta: int
    gear_delta: int
    RULE: ClassVar[str] = "Wipeout"
    PAGE: ClassVar[str] = "p.35"

    @property
    def text(self) -> str:
        return f"{self.name} resets: Gear 1, no Hazard Tokens"


@dataclass(frozen=True)
class LostControl(GameEvent):
    """Lose Control: the next player clockwise chooses the facing (p.35; a Jackknife's pivot p.119).

    ``requested_deg`` is the heading chosen, ``reached_deg`` where the pivot
    stopped; ``stopped_by`` names what stopped it short.
    """

    vehicle: str
    name: str
    chooser: str
    requested_deg: float
    reached_deg: float
    stopped_by: tuple[str, ...] = ()
    jackknife: bool = False
    RULE: ClassVar[str] = "Lose Control"

    @property
    def rule(self) -> str:
        return "Jackknife, p.119" if self.jackknife else "Lose Control, p.35"

    @property
    def page(self) -> str:
        return "p.119" if self.jackknife else "p.35"

    @property
    def text(self) -> str:
        what = "pivots" if self.jackknife else "loses control"
        short = abs(((self.requested_deg - self.reached_deg + 180.0) % 360.0) - 180.0) > 0.5
        if short:
            why = f" by {', '.join(self.stopped_by)}" if self.stopped_by else ""
            return (f"{self.name} {what}: {self.chooser} chose heading {self.requested_deg:.0f} degrees; "
                    f"stopped{why} at {self.reached_deg:.0f}")
        return f"{self.name} {what}: {self.chooser} turns it to heading {self.reached_deg:.0f} degrees"


# --------------------------------------------------------------------------- wrecks (p.43-44)


@dataclass(frozen=True)
class Wrecked(GameEvent):
    """A vehicle at zero Hull Points is Wrecked: reset, the Explosion check (p.43); Twisted Metal removes it
    (p.44)."""

    vehicle: str
    name: str
    roll: int
    explodes: bool
    stays: bool
    hazard_delta: int
    gear_delta: int
    RULE: ClassVar[str] = "Getting Wrecked"
    PAGE: ClassVar[str] = "p.43-44"

    @property
    def text(self) -> str:
        gone = "" if self.stays else "; Twisted Metal: it leaves the table"
        return f"{self.name} is Wrecked; Explosion check {self.roll}{': it explodes' if self.explodes else ''}{gone}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("explosion check", (self.roll,), (self.explodes,)),)


@dataclass(frozen=True)
class ExplosionHit(GameEvent):
    """An Explosion's dice against one vehicle within Medium range (p.44)."""

    vehicle: str
    name: str
    source_name: str
    rolls: tuple[int, ...]
    evade_rolls: tuple[int, ...]
    hull_delta: int
    hazard_delta: int
    RULE: ClassVar[str] = "Explosions"
    PAGE: ClassVar[str] = "p.44"

    @property
    def text(self) -> str:
        if not self.hull_delta and not self.hazard_delta:
            return f"The explosion of {self.source_name} does nothing to {self.name}"
        return (f"The explosion of {self.source_name} hits {self.name}: {-self.hull_delta} damage, "
                f"{_tokens(self.hazard_delta)}")

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("explosion", self.rolls, tuple(r >= 4 for r in self.rolls)),
                DiceGroup("evade", self.evade_rolls, tuple(r == 6 for r in self.evade_rolls)))


@dataclass(frozen=True)
class PerkUsed(GameEvent):
    """A perk, a sponsor's rule or an upgrade did something (p.83-85, p.91-115): what, in plain words, with the
    Hull Points, Hazard Tokens and gear it changed on ``vehicle`` (``source``: the vehicle whose perk it is, when
    another)."""

    vehicle: str
    name: str
    perk: str
    perk_page: str
    what: str
    hull_delta: int = 0
    hazard_delta: int = 0
    gear_delta: int = 0
    source: str = ""

    @property
    def page(self) -> str:
        return self.perk_page

    @property
    def rule(self) -> str:
        return f"{self.perk}, {self.perk_page}"

    @property
    def text(self) -> str:
        by = f" ({self.source}'s {self.perk})" if self.source else f" ({self.perk})"
        return f"{self.name}{by}: {self.what}"


@dataclass(frozen=True)
class SoulTokens(GameEvent):
    """Soul Harvest (p.101): ``vehicle`` gains a Soul Token (``delta`` 1) when its movement template touches an
    enemy, or hands all of them over (``delta`` minus those) to a living friend its template touches; ``count``:
    the Soul Tokens it carries now, ``why`` in plain words."""

    RULE: ClassVar[str] = "Soul Harvest"
    PAGE: ClassVar[str] = "p.101"
    vehicle: str
    name: str
    count: int
    delta: int
    why: str

    @property
    def text(self) -> str:
        if self.delta > 0:
            return f"{self.name} gains a Soul Token: {self.why} ({self.count} now)"
        return f"{self.name} discards {-self.delta} Soul Token{'s' if self.delta < -1 else ''}: {self.why}"


# --------------------------------------------------------------------------- scenarios (p.122-175)


class _Ref:
    """An event whose rule and page come from the scenario (``ref``: ``"Flag Tag, p.132"``)."""

    ref: str

    @property
    def rule(self) -> str:
        return self.ref

    @property
    def page(self) -> str:
        return self.ref.rsplit(", ", 1)[-1] if ", p." in self.ref else ""


@dataclass(frozen=True)
class ScenarioBegins(_Ref, GameEvent):
    """The scenario's objective and special rules as the game begins (p.122-175)."""

    scenario: str
    summary: str
    tokens: tuple[tuple[str, int], ...]
    """Tokens on the table at the start, ``(kind, count)``."""
    ref: str

    @property
    def text(self) -> str:
        laid = ", ".join(f"{n} {k.replace('_', ' ')}{'s' if n != 1 else ''}" for k, n in self.tokens)
        return f"{self.scenario}: {self.summary}" + (f" On the table: {laid}." if laid else "")


@dataclass(frozen=True)
class TokenPlaced(_Ref, GameEvent):
    """A token is put on the table: a flag redeployed, a crate dropped by a wreck, zombies released (p.130-153)."""

    token: str
    token_name: str
    kind: str
    x_mm: float
    y_mm: float
    why: str
    ref: str
    vehicle: str = ""
    name: str = ""

    @property
    def text(self) -> str:
        return f"{self.token_name} placed at ({self.x_mm:.0f}, {self.y_mm:.0f}): {self.why}"


@dataclass(frozen=True)
class TokenPickedUp(_Ref, GameEvent):
    """A vehicle picks up a token its movement template or Final Position touched (p.131, p.139, p.142)."""

    vehicle: str
    name: str
    token: str
    token_name: str
    kind: str
    ref: str

    @property
    def text(self) -> str:
        return f"{self.name} picks up {self.token_name}"


@dataclass(frozen=True)
class TokenDropped(_Ref, GameEvent):
    """A carried token goes back on the table: touching a wreck, or put down in reach (p.131, p.146, p.148)."""

    vehicle: str
    name: str
    token: str
    token_name: str
    kind: str
    x_mm: float
    y_mm: float
    why: str
    ref: str

    @property
    def text(self) -> str:
        return f"{self.name} drops {self.token_name}: {self.why}"


@dataclass(frozen=True)
class TokenPassed(_Ref, GameEvent):
    """A carried token passes to a touching vehicle at the end of an activation (p.148)."""

    vehicle: str
    name: str
    token: str
    token_name: str
    to_vehicle: str
    to_name: str
    ref: str

    @property
    def text(self) -> str:
        return f"{self.name} passes {self.token_name} to {self.to_name}"

    @property
    def vehicles(self) -> tuple[str, ...]:
        return (self.vehicle, self.to_vehicle)


@dataclass(frozen=True)
class TokenRemoved(_Ref, GameEvent):
    """A token leaves play: a flag or turret destroyed, a crate scored, a zombie collected (p.130-153)."""

    token: str
    token_name: str
    kind: str
    why: str
    ref: str

    @property
    def text(self) -> str:
        return f"{self.token_name} leaves play: {self.why}"


@dataclass(frozen=True)
class PointsScored(_Ref, GameEvent):
    """A player gains (or loses) points in the scenario's unit: Victory Points, kills, zombies (p.130-153)."""

    player: int
    player_name: str
    count: int
    total: int
    unit: str
    why: str
    ref: str
    vehicle: str = ""

    @property
    def text(self) -> str:
        verb = "gains" if self.count >= 0 else "loses"
        return f"{self.player_name} {verb} {_unit(self.unit, abs(self.count))} ({self.total} in all): {self.why}"


@dataclass(frozen=True)
class VehiclePoints(_Ref, GameEvent):
    """A vehicle gains or loses points of its own, e.g. Salvage Points (p.135)."""

    vehicle: str
    name: str
    count: int
    total: int
    unit: str
    why: str
    ref: str

    @property
    def text(self) -> str:
        verb = "gains" if self.count >= 0 else "loses"
        return f"{self.name} {verb} {_unit(self.unit, abs(self.count))} ({self.total} on board): {self.why}"


@dataclass(frozen=True)
class DeployedAtSpawn(_Ref, GameEvent):
    """A vehicle is placed within Short range of its spawn point: deployment or a respawn (p.130)."""

    vehicle: str
    name: str
    pose: Pose
    respawn: bool
    ref: str
    hull_delta: int = 0
    hazard_delta: int = 0
    gear_delta: int = 0

    @property
    def text(self) -> str:
        what = "respawns" if self.respawn else "deploys"
        return f"{self.name} {what} at its spawn point"


@dataclass(frozen=True)
class TokenShot(_Ref, GameEvent):
    """A vehicle's attacks on a token that may be shot at (a gun or rocket turret, p.130, p.146)."""

    vehicle: str
    name: str
    token: str
    token_name: str
    weapons: tuple[str, ...]
    rolls: tuple[int, ...]
    evade_rolls: tuple[int, ...]
    hits: int
    damage: int
    destroyed: bool
    ref: str

    @property
    def text(self) -> str:
        gone = f"; {self.token_name} is destroyed" if self.destroyed else ""
        return f"{self.name} shoots {self.token_name} with {_list(self.weapons)}: {_count(self.damage, 'damage')}{gone}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("attack", self.rolls, tuple(r >= 4 for r in self.rolls)),
                DiceGroup("evade", self.evade_rolls, tuple(r == 6 for r in self.evade_rolls)))


@dataclass(frozen=True)
class TokenFired(_Ref, GameEvent):
    """A turret (a token) attacks a vehicle on its own: gun turrets p.130, rocket turrets p.146."""

    vehicle: str
    name: str
    token: str
    token_name: str
    rolls: tuple[int, ...]
    evade_rolls: tuple[int, ...]
    hull_delta: int
    hazard_delta: int
    ref: str

    @property
    def text(self) -> str:
        if not self.hull_delta and not self.hazard_delta:
            return f"{self.token_name} fires at {self.name}: no harm"
        return f"{self.token_name} fires at {self.name}: {-self.hull_delta} damage, {_tokens(self.hazard_delta)}"

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("attack", self.rolls, tuple(r >= 4 for r in self.rolls)),
                DiceGroup("evade", self.evade_rolls, tuple(r == 6 for r in self.evade_rolls)))


@dataclass(frozen=True)
class ScenarioAttack(_Ref, GameEvent):
    """A scenario's own attack on a vehicle: a creature's Acidic Ichor (p.144), a rocket turret's explosion
    (p.146), an extra 125mm shot bought with votes (On My Mark, p.151)."""

    vehicle: str
    name: str
    source_name: str
    what: str
    rolls: tuple[int, ...]
    evade_rolls: tuple[int, ...]
    hull_delta: int
    hazard_delta: int
    ref: str

    @property
    def text(self) -> str:
        if not self.hull_delta and not self.hazard_delta:
            return f"{self.source_name}'s {self.what} does nothing to {self.name}"
        return (f"{self.source_name}'s {self.what} hits {self.name}: {-self.hull_delta} damage, "
                f"{_tokens(self.hazard_delta)}")

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("attack", self.rolls, tuple(r >= 4 for r in self.rolls)),
                DiceGroup("evade", self.evade_rolls, tuple(r == 6 for r in self.evade_rolls)))


@dataclass(frozen=True)
class ScenarioEffect(_Ref, GameEvent):
    """A scenario's special rule changes a vehicle (Squashed p.148, loot boxes p.140, Acidic Ichor p.144...)."""

    vehicle: str
    name: str
    detail: str
    ref: str
    hull_delta: int = 0
    hazard_delta: int = 0
    gear_delta: int = 0

    @property
    def text(self) -> str:
        return f"{self.name}: {self.detail}"


@dataclass(frozen=True)
class ScenarioNotice(_Ref, GameEvent):
    """A scenario's special rule that changes no vehicle: a Special Prize rolled (p.133), the uplink revealed
    (p.141), Delivery Slips swapped (p.137), a new table (p.138)."""

    detail: str
    ref: str
    vehicle: str = ""
    roll: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        return self.detail

    @property
    def dice(self) -> tuple[DiceGroup, ...]:
        return (DiceGroup("roll", self.roll),) if self.roll else ()


EVENT_TYPES: tuple[type[GameEvent], ...] = (
    GameStarted, GearPhaseStarted, PolePassed, PoleStays, GridPlaced, GreenLight, GameOver, VotesGained,
    CatchUpRolled, VotesSpent, VoteEffectApplied, Activated, Burned, AnchorDropped, NitroFired, NitroHazards,
    TemplateChosen, TouchItUseIt, SkidDiceRolled, PushedIt, DiceKept, ShiftsSpent, Moved, SlideChosen, SpinLost,
    SurfaceHazards, AllTerrain, SmokeHazard, Glued, ObstacleRemoved, Disqualified, CrossedFinish, PassedGates,
    RampReached, Jumped, Tumbled, VolatileRolled,
    Pivoted, UpAndOverDeclared, SlipAwayEarned, Piledriven, Collided, CollisionDamage, Sedated, UppersGearUp,
    Distracted, WeaponsInactive, HeldFire, Attacked, WeaponDropped, DropAttacked, WipedOut, Flipped, Jackknifed,
    TrailerSwung, Crunched, WipeoutReset, LostControl, Wrecked, ExplosionHit, PerkUsed, SoulTokens,
    ScenarioBegins, TokenPlaced, TokenPickedUp, TokenDropped, TokenPassed, TokenRemoved, PointsScored,
    VehiclePoints, DeployedAtSpawn, TokenShot, TokenFired, ScenarioAttack, ScenarioEffect, ScenarioNotice,
)
"""Every kind of event."""
