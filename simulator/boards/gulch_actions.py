"""Everything a Slaughter Gulch player (or the County Clerk) can tell the board, as data.

Each action is a small frozen pydantic model with a ``kind`` tag, so a whole
game is a start position plus a list of actions (saved as JSON and replayed),
and the window, the tests, the conformance suite and ``gaslands rule`` all
drive :func:`simulator.boards.gulch_round.apply` the same way.

Dice are part of the action (chance comes from outside, STYLE.md item 3): the
window rolls them, a test writes them. Rule sections are those of the rulebook
(``seeds/004``): "Playing the Game", "Movement", "Action Tokens", "Events",
"Shootin' and Fightin'", "Death", "The Jail", "Automatic Actions",
"Game End", "Winning the Game".
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from simulator.boards.text import Key, Text

Die = Annotated[int, Field(ge=1, le=6)]
FigureId = Key

#: The action tokens ("Action Tokens"; "Special" covers Brainwash, Epiphany, Telegraph and
#: the Texas Range Bible; "spell" the spells and gadgets that need a token). ``none`` is a
#: token placed face down: the dude moves but takes no action ("Playing the Game", step 2).
TOKENS: tuple[str, ...] = ("fight", "rob", "arrest", "confiscate", "mesmerize", "recruit", "raise", "shop",
                           "spell", "special", "run", "none")
Token = Literal["fight", "rob", "arrest", "confiscate", "mesmerize", "recruit", "raise", "shop", "spell",
                "special", "run", "none"]
Weapon = Literal["gun", "fight", "dynamite", "long_range"]
#: How an attack ended, as the players rolled it ("Shootin' and Fightin'"):
#: ``wounds`` the target takes a wound; ``kills`` a townsfolk dies outright (Vigor 1);
#: ``misses`` nobody is hurt; ``target_runs`` a missed dude runs home, a townsfolk flees;
#: ``attacker_wounded`` the target shot back and hit, a townsfolk drew and shot, or the
#: attacker lost the fight.
Outcome = Literal["wounds", "kills", "misses", "target_runs", "attacker_wounded"]
RobOutcome = Literal["success", "failed", "caught"]


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# ---- game start and steps 1-3


class RollEnd(_Action):
    """The die rolled at the start that picks what ends the game (Game End: conditions 1-6)."""

    kind: Literal["roll_end"] = "roll_end"
    die: Die


class EndSpells(_Action):
    """Step 1 done: spellcasters and the Mad Scientists have a spell or gadget face up."""

    kind: Literal["end_spells"] = "end_spells"


class Plan(_Action):
    """Behind the planning outfit's screen: ``dude`` goes to ``to`` with an action token.

    Step 2 ("Playing the Game", "Movement"): at most two spaces; a Run token stays on
    the dude's own space ("Action Tokens", Run). At the game's start: one of the
    outfit's set-aside dudes onto a street square ("To Start the Game").
    ``number`` is the number printed on the token (lower acts first in a space).
    """

    kind: Literal["plan"] = "plan"
    dude: FigureId
    to: Key
    token: Token = "none"
    number: int = Field(default=0, ge=0, le=99)


class Unplan(_Action):
    """Take a token back off the town card before the screen passes on."""

    kind: Literal["unplan"] = "unplan"
    dude: FigureId


class FinishOrders(_Action):
    """The planning outfit is done; after the last outfit every plan is revealed and carried out (step 3)."""

    kind: Literal["finish_orders"] = "finish_orders"


# ---- step 4: events, filled in by the players


class Arrive(_Action):
    """An event brings ``count`` townsfolk by coach (by the Hotel-Saloon) or train (by the Rail Station)."""

    kind: Literal["arrive"] = "arrive"
    by: Literal["coach", "train"]
    count: int = Field(default=1, ge=1, le=20)


class DeputyArrives(_Action):
    """The Deputy's encounter card is drawn: after step 5 he goes to the Jail (Events; Automatic Actions)."""

    kind: Literal["deputy_arrives"] = "deputy_arrives"


class ClerkWound(_Action):
    """An event wounds a figure (a wounded figure wounded again dies) (Events; Death)."""

    kind: Literal["clerk_wound"] = "clerk_wound"
    figure: FigureId


class ClerkMove(_Action):
    """An event moves a figure to ``to`` (e.g. the jailbreak event moves a townsfolk to the saloon)."""

    kind: Literal["clerk_move"] = "clerk_move"
    figure: FigureId
    to: Key


class ClerkRemove(_Action):
    """An event takes a townsfolk off the board (killed, or it leaves town) (Events; Death)."""

    kind: Literal["clerk_remove"] = "clerk_remove"
    figure: FigureId


class EndEvents(_Action):
    """Step 4 done: the action step begins in the rulebook's order (step 5)."""

    kind: Literal["end_events"] = "end_events"


# ---- step 5: the acting dude's action (the first dude in the queue)


class Attack(_Action):
    """The acting dude (fight token) shoots or fights ``target``; ``outcome`` as the dice fell.

    ``max_range`` is the longest range printed on a long-range gun. ``die`` is
    the 1d6 of ghost rock taken when one outfit's dude kills another's (Death).
    """

    kind: Literal["attack"] = "attack"
    target: FigureId
    weapon: Weapon = "gun"
    outcome: Outcome
    max_range: int = Field(default=2, ge=1, le=12)
    die: Die | None = None


class Rob(_Action):
    """The acting dude (rob token) robs a figure, the coach or the train (Action Tokens, Rob)."""

    kind: Literal["rob"] = "rob"
    target: FigureId
    outcome: RobOutcome
    die: Die | None = None


class Arrest(_Action):
    """The acting dude (arrest token) arrests a figure in its space (Action Tokens; The Jail)."""

    kind: Literal["arrest"] = "arrest"
    target: FigureId
    success: bool
    die: Die | None = None


class Bail(_Action):
    """The acting dude (fight token, at the Jail) posts bail of 1d6 ghost rock for an inmate (The Jail)."""

    kind: Literal["bail"] = "bail"
    inmate: FigureId
    die: Die


class BustOut(_Action):
    """The acting dude (fight token, at the Jail) fights the Sheriff to bust an inmate out (The Jail)."""

    kind: Literal["bust_out"] = "bust_out"
    inmate: FigureId
    won: bool


class Recruit(_Action):
    """The acting dude tries to recruit a townsfolk in its space; one set-aside dude replaces it."""

    kind: Literal["recruit"] = "recruit"
    target: FigureId
    success: bool


class Raise(_Action):
    """The acting dude (in the Graveyard) tries to raise a dead dude, who comes back harrowed (Raise the Dead)."""

    kind: Literal["raise"] = "raise"
    target: FigureId
    success: bool


class RunTo(_Action):
    """The running dude picks its destination now, at its action: up to four spaces (Action Tokens, Run)."""

    kind: Literal["run_to"] = "run_to"
    to: Key


class TakeAction(_Action):
    """The acting dude takes its token's action where the board has nothing to move (shop, mesmerize...)."""

    kind: Literal["take_action"] = "take_action"
    note: Text = ""


class Skip(_Action):
    """The acting dude cannot or chooses not to take its action (Actions)."""

    kind: Literal["skip"] = "skip"


class Defer(_Action):
    """The acting dude lets the next figure in the same space act first (Actions: ties and courtesy)."""

    kind: Literal["defer"] = "defer"


class Scatter(_Action):
    """A townsfolk hit by dynamite moves up to two spaces, where the dynamite's owner says (Item Cards)."""

    kind: Literal["scatter"] = "scatter"
    figure: FigureId
    to: Key


# ---- after step 5, the round's end


class PlaceArrival(_Action):
    """The next new arrival goes to the building numbered by 2d6 (a total with no building is rerolled)."""

    kind: Literal["place_arrival"] = "place_arrival"
    dice: tuple[Die, Die]


class EndRound(_Action):
    """The round ends: the Doctor heals, the Deputy moves on, the game's end is checked."""

    kind: Literal["end_round"] = "end_round"


# ---- bookkeeping, at any time


class AdjustGhostRock(_Action):
    """Ghost rock changes hands in a way the board does not see (shop, rewards, the Bank, the mine)."""

    kind: Literal["ghost_rock"] = "ghost_rock"
    holder: Key
    delta: int = Field(ge=-999, le=999)


class AdjustScore(_Action):
    """An outfit completes objectives or moves cards to the right of its screen (Winning the Game)."""

    kind: Literal["score"] = "score"
    outfit: Key
    objectives: int = Field(default=0, ge=-10, le=10)
    points: int = Field(default=0, ge=-999, le=999)


class Declare(_Action):
    """The players say an end condition the board cannot see has come about (last encounter or event card)."""

    kind: Literal["declare"] = "declare"
    condition: int = Field(ge=1, le=6)


Action = Annotated[
    RollEnd | EndSpells | Plan | Unplan | FinishOrders | Arrive | DeputyArrives | ClerkWound | ClerkMove
    | ClerkRemove | EndEvents | Attack | Rob | Arrest | Bail | BustOut | Recruit | Raise | RunTo | TakeAction
    | Skip | Defer | Scatter | PlaceArrival | EndRound | AdjustGhostRock | AdjustScore | Declare,
    Field(discriminator="kind"),
]
ACTIONS: TypeAdapter[list[Action]] = TypeAdapter(list[Action])
