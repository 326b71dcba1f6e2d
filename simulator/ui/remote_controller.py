"""A seat (or a spectator) of a game hosted with ``gaslands host``, in the window (docs/online.md).

:class:`RemoteController` is the hot-seat :class:`~simulator.ui.game_controller.GameController`
driven by a :class:`~simulator.net.remote.RemoteGame`: the table, the prompt,
the panel and the log are read from the client's copy of the server's game
exactly as in hot-seat play, and the player assembles an answer the same way.
Only what happens to an answer differs: :meth:`RemoteController.decide` sends
it to the server, and it takes effect (animated, logged) when the server
confirms it (:meth:`RemoteController.update` pumps the connection each
frame). The other seats' decisions arrive the same way. Undo, save and load
belong to the host (its server autosaves); a bot may play this seat only.
"""

from __future__ import annotations

from pathlib import Path

from simulator.gaslands.decisions import Decision
from simulator.gaslands.game import Game
from simulator.net.remote import RemoteGame, Update
from simulator.ui.game_controller import BOT_DELAY_S, Draft, GameController, forced_answer
from simulator.ui.panel_actions import PanelAction, ToggleSeat


class RemoteController(GameController):
    """The game controller of an online seat or spectator (see the module docstring).

    ``remote`` must have received its welcome (``remote.game`` is set).
    """

    def __init__(self, remote: RemoteGame, *, bot_delay_s: float = BOT_DELAY_S, animate: bool = True) -> None:
        mirror = remote.follower.mirror
        if mirror is None:
            raise ValueError("the remote game has not been welcomed by the server yet")
        super().__init__(mirror.game, mirror.scenario, autosave_path=None, bots=None, bot_delay_s=bot_delay_s,
                         animate=animate)
        self.remote = remote
        self.fresh = len(self.game.log) - len(self.game.last_events)
        self._connected: dict[str, bool] = {}
        self.message = self.joined_text()

    # ================================================================ whose turn
    @property
    def seat_name(self) -> str:
        """This client's player name, or ``a spectator``."""
        player = self.remote.player
        return self.player_name(player) if player is not None else "a spectator"

    def my_prompt(self) -> bool:
        """Whether this seat owes the current prompt."""
        return not self.over() and self.remote.player is not None and self.prompt.player == self.remote.player

    def is_bot_turn(self) -> bool:
        """Whether the window must wait: another seat decides, this seat's answer is on its way, or this seat's
        bot decides."""
        return (not self.over() and (not self.my_prompt() or self.remote.pending is not None
                                     or self.prompt.player in self.bots))

    def joined_text(self) -> str:
        """What the status line says on joining."""
        return f"Online as {self.seat_name}. " + self.instruction()

    def instruction(self) -> str:
        """One sentence: who decides what now (this seat's instructions as in hot-seat play)."""
        if self.over():
            return self.result_text()
        if self.remote.ended:
            return f"Disconnected: {self.remote.ended}."
        who = self.player_name(self.prompt.player)
        if self.remote.pending is not None:
            return "Sent: waiting for the server to confirm..."
        if self.my_prompt() and self.prompt.player in self.bots:
            return f"{who} (bot) is deciding..."
        if not self.my_prompt():
            away = "" if self._connected.get(self._seat_of(self.prompt.player), True) else \
                " (disconnected: the game waits for them to come back)"
            return f"{who} is deciding{away}..."
        return super().instruction()

    def refusal_to_select(self, vehicle_id: str) -> str:
        """Why a click on a car does nothing now."""
        if not self.over() and not self.my_prompt():
            return f"It is {self.player_name(self.prompt.player)}'s turn: wait for them."
        return super().refusal_to_select(vehicle_id)

    def seat_label(self, player: int) -> str:
        """Who plays ``player``'s seat: ``you`` (or ``you: bot``) for this window's, ``online`` or ``AWAY`` for
        the others as the server last said."""
        if player == self.remote.player:
            return "you: bot" if player in self.bots else "you"
        connected = self._connected.get(self._seat_of(player))
        return "online" if connected in (True, None) else "AWAY"

    def game_over_hint(self) -> str:
        """Online, the host's server keeps the finished game."""
        return "The host's server has saved the game. F2 opens the free table, R the rulings mode on this table."

    def online_note(self) -> str:
        """For the top bar: this seat, the round-trip time to the host's server, who else is connected (AWAY: the
        game waits for them), spectators."""
        remote = self.remote
        if remote.result is not None:
            return f"{self.seat_name} (you)" if remote.player is not None else "watching"
        if remote.ended:
            return f"offline: {remote.status}"
        if remote.status in ("connecting", "reconnecting"):
            return f"{remote.status} to the host..."
        parts = [f"{self.seat_name} (you)" if remote.player is not None else "watching",
                 f"{remote.latency_ms:.0f} ms"]
        presence = remote.presence
        if presence is not None:
            for seat, info in presence.seats.items():
                player = self._player_of(seat)
                if player is not None and player != remote.player:
                    parts.append(f"{self.player_name(player)} {'online' if info.connected else 'AWAY'}")
            others = presence.spectators - (1 if remote.player is None else 0)
            if others > 0:
                parts.append(f"{others} watching" if remote.player is not None else f"{others} more watching")
        return "  ·  ".join(parts)

    def _player_of(self, seat: str) -> int | None:
        return next((s.player for s in self.remote.follower.mirror.seats if s.seat == seat), None) \
            if self.remote.follower.mirror is not None else None

    def _seat_of(self, player: int) -> str:
        mirror = self.remote.follower.mirror
        return (mirror.seat_of(player) or "") if mirror is not None else ""

    # ================================================================ answering
    def apply(self, action: PanelAction) -> bool:
        """A panel action; only on this seat's turn (a seat button: only this seat's)."""
        if isinstance(action, ToggleSeat):
            return self._toggle_own_bot(action.player)
        if not self.over() and not self.my_prompt():
            self.message = self.refusal_to_select("")
            return False
        return super().apply(action)

    def _toggle_own_bot(self, player: int) -> bool:
        if player != self.remote.player:
            self.message = (f"Only your own seat ({self.seat_name}) can be given to the bot."
                            if self.remote.player is not None else "A spectator has no seat to give to the bot.")
            return False
        self.toggle_bot(player)
        return True

    def toggle_bot(self, player: int) -> None:
        """A bot takes this seat, or hands it back (other seats are not this window's)."""
        if player == self.remote.player:
            super().toggle_bot(player)

    def decide(self, decision: Decision) -> bool:
        """Send ``decision`` to the server as this seat's answer; it takes effect when the server confirms it."""
        if self.over():
            self.message = self.result_text()
            return False
        if not self.my_prompt():
            self.message = self.refusal_to_select("")
            return False
        if self.remote.pending is not None:
            self.message = "Already sent: waiting for the server to confirm."
            return False
        if not self.remote.submit(decision):
            self.message = f"Not connected ({self.remote.status}): try again when the connection is back."
            return False
        self.message = "Sent: waiting for the server to confirm..."
        self._changed()
        return True

    # ================================================================ time
    def update(self, dt: float) -> None:
        """Advance animations, apply what the server sent, and let this seat's bot answer after its delay."""
        self.anim.update(dt)
        for update in self.remote.pump():
            self._on_update(update)
        if not self.my_prompt() or self.remote.pending is not None or self.prompt.player not in self.bots \
                or self.bots_paused or self.anim.busy:
            self.bot_wait = 0.0
            return
        self.bot_wait += dt
        if self.bot_wait >= self.bot_delay_s:
            self.bot_wait = 0.0
            self.decide(self.bot.decide(self.game))

    def _on_update(self, update: Update) -> None:
        match update.kind:
            case "welcome":
                game = self.remote.game
                if game is not None and game is not self.game:
                    self.replace_game(game, f"Rejoined as {self.seat_name}: the game as the server has it.")
                else:
                    self.message = f"Connected as {self.seat_name}. " + self.instruction()
                self._presence_changed()
                self._answer_forced()
            case "decided":
                self.draft = Draft()
                events = list(update.events)
                self.fresh = len(self.game.log) - len(events)
                last = events[-1] if events else None
                self.message = (last.text + (f" ({last.rule})" if last.rule else "")) if last is not None else ""
                if update.before is not None:
                    self.anim.play(update.before, self.state, events)
                self._changed()
                self._answer_forced()
            case "presence":
                self._presence_changed()
            case "error":
                self.message = f"The server refused it: {update.text}"
                self._changed()
            case "over":
                self.message = self.result_text()
                self._changed()
            case "status" | "ended":
                self.message = update.text if update.kind == "status" else f"Disconnected: {update.text}."
                self._changed()

    def _answer_forced(self) -> None:
        """A prompt of this seat with nothing to choose (no dice) is answered at once, as in hot-seat play."""
        if self.my_prompt() and self.remote.pending is None:
            forced = forced_answer(self.game)
            if forced is not None:
                self.decide(forced)

    def _presence_changed(self) -> None:
        presence = self.remote.presence
        if presence is None:
            return
        now = {seat: info.connected for seat, info in presence.seats.items()}
        for seat, connected in now.items():
            before = self._connected.get(seat)
            player = self._player_of(seat)
            if before is not None and before != connected and player is not None and player != self.remote.player:
                self.message = (f"{self.player_name(player)} is back." if connected else
                                f"{self.player_name(player)} disconnected: the game waits for them to reconnect.")
        self._connected = now
        self._changed()

    # ================================================================ files: the host's
    def replace_game(self, game: Game, message: str) -> None:
        """Continue with a rebuilt copy of the server's game (after a reconnect that needed one)."""
        self.game = game
        self.draft = Draft()
        self.anim.clear()
        self.fresh = len(game.log)
        self.message = message
        self._changed()

    def undo(self) -> bool:
        """Nothing is taken back online: the host's server keeps the game."""
        self.message = "Online, decisions are not taken back: the host's server keeps the game."
        return False

    def save(self, path: Path) -> bool:
        """The host's server autosaves the game after every decision (on the host's computer)."""
        self.message = "Online, the host's server autosaves the game after every decision (on the host's computer)."
        return False

    def load(self, path: Path) -> bool:
        """A game cannot be loaded into an online one."""
        self.message = "Online, the game is the host's: loading another here is not possible."
        return False
