"""Everything Doomtown players can tell the street during a turn, as data (``seeds/000``).

Frozen pydantic models with a ``kind`` tag, applied by
:func:`simulator.boards.doom_turn.apply`. A turn is a start position plus a
list of these, saved as JSON and replayed. The poker hands of a shootout stay
with the players: they record who is aced and who is sent home, and the
street keeps where everyone is and whether they are booted.

Sections: "Sequence o' Play" (Gambling, Upkeep, High Noon, Nightfall),
"Shoppin'", "Movin' Around", "Shootin'", "Shootout Sequence", "Jobs",
"Controllin' Deeds", "Winnin' the Game", Glossary.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from simulator.boards.text import Id, Key, Text

Ident = Id


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Lowball(_Action):
    """The Gambling Phase is over: ``winner`` had the lowest hand and acts first this turn."""

    kind: Literal["lowball"] = "lowball"
    winner: Key


class EndUpkeep(_Action):
    """The Upkeep Phase is over (ghost rock stays with the players): High Noon begins with the Winner."""

    kind: Literal["end_upkeep"] = "end_upkeep"


# ---- the High Noon actions of the player whose turn it is


class Move(_Action):
    """Move one of your dudes as a Noon action; it boots unless the move is one of the two free ones."""

    kind: Literal["move"] = "move"
    dude: Key
    to: Key


class CallOut(_Action):
    """One of your unbooted dudes calls out another player's dude at the same location (Shootin')."""

    kind: Literal["call_out"] = "call_out"
    dealer: Key
    target: Key


class StartJob(_Action):
    """Start a job (an Action card) led by ``dealer`` against a location or a dude; the dealer boots (Jobs)."""

    kind: Literal["start_job"] = "start_job"
    dealer: Key
    target: Key
    name: Text = ""


class Shop(_Action):
    """Bring a dude (at home, unbooted) or a deed (at an end of your street, or out of town) into play."""

    kind: Literal["shop"] = "shop"
    card: Literal["dude", "deed", "out_of_town"]
    id: Ident
    end: Literal["left", "right"] = "right"
    influence: int = Field(default=0, ge=0, le=20)
    control_points: int = Field(default=0, ge=0, le=20)
    name: Text = ""


class NoonAction(_Action):
    """Take a Noon action from a card; what it does is done with the card tools (boot, move, ace...)."""

    kind: Literal["noon_action"] = "noon_action"
    note: Text = ""


class Pass(_Action):
    """Pass this action; when everybody passes in a row, it is Nightfall (High Noon: Nothin')."""

    kind: Literal["pass"] = "pass"


# ---- call-outs, posses and shootouts


class Answer(_Action):
    """The called-out dude's player accepts, or refuses and the dude boots and runs home (Shootin')."""

    kind: Literal["answer"] = "answer"
    accept: bool


class Join(_Action):
    """A highlighted dude joins the posse being formed (those from an adjacent location boot)."""

    kind: Literal["join"] = "join"
    dude: Key


class Leave(_Action):
    """Take a dude back out of the posse being formed."""

    kind: Literal["leave"] = "leave"
    dude: Key


class PosseReady(_Action):
    """The side being formed is done; after both sides everyone moves to the location."""

    kind: Literal["posse_ready"] = "posse_ready"


class CardJoin(_Action):
    """A card brings a dude into the shootout (it moves there; ``boots`` when the card boots it)."""

    kind: Literal["card_join"] = "card_join"
    dude: Key
    boots: bool = False


class NextRound(_Action):
    """The shootout goes on to another round (Shootout Sequence, step 7)."""

    kind: Literal["next_round"] = "next_round"


# ---- card effects and bookkeeping, at any time


class Ace(_Action):
    """A dude is aced: into its owner's Boot Hill (a shootout's losses, or a card)."""

    kind: Literal["ace"] = "ace"
    dude: Key


class SendHome(_Action):
    """A dude is sent home booted (chickening out of a shootout, or a card) (Movin' Around)."""

    kind: Literal["send_home"] = "send_home"
    dude: Key


class Boot(_Action):
    """A card boots or unboots a dude."""

    kind: Literal["boot"] = "boot"
    dude: Key
    booted: bool = True


class CardMove(_Action):
    """A card moves a dude: it does not boot, but a booted dude still cannot move (Movin' Around)."""

    kind: Literal["card_move"] = "card_move"
    dude: Key
    to: Key


class Destroy(_Action):
    """A deed is destroyed (a job's effect, a card): the street closes up, dudes there go home booted."""

    kind: Literal["destroy"] = "destroy"
    deed: Key


class SetInfluence(_Action):
    """A card changes a dude's Influence."""

    kind: Literal["set_influence"] = "set_influence"
    dude: Key
    influence: int = Field(ge=0, le=20)


class SetControlPoints(_Action):
    """A card changes a deed's Control Points."""

    kind: Literal["set_control_points"] = "set_control_points"
    deed: Key
    points: int = Field(ge=0, le=20)


class AdjustVictory(_Action):
    """A player gains or loses Victory Points (Glossary: Victory Point)."""

    kind: Literal["victory"] = "victory"
    player: Key
    delta: int = Field(ge=-20, le=20)


class Nightfall(_Action):
    """Nightfall: every booted card unboots, then the next turn's Gambling Phase."""

    kind: Literal["nightfall"] = "nightfall"


Action = Annotated[
    Lowball | EndUpkeep | Move | CallOut | StartJob | Shop | NoonAction | Pass | Answer | Join | Leave
    | PosseReady | CardJoin | NextRound | Ace | SendHome | Boot | CardMove | Destroy | SetInfluence
    | SetControlPoints | AdjustVictory | Nightfall,
    Field(discriminator="kind"),
]
ACTIONS: TypeAdapter[list[Action]] = TypeAdapter(list[Action])
