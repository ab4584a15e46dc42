"""The pages' side of :class:`~.channel.CompanionChannel`: what a seat sends (checked by
the engine on a copy of the game, and against whose turn the host says it is, see
:mod:`.turns`), queued for the host in the order it came, and checked again when taken. A
mixin: the channel owns the state it reads."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Sequence
from typing import Any

from voice_host.games import Action, GameError, GameState, IllegalAction
from voice_host.games.base import actor
from voice_host.host.companion import games
from voice_host.host.companion.seats import SeatBook, safe
from voice_host.host.companion.turns import TurnGate

log = logging.getLogger("voice_host.companion")


class PhoneInputs:
    """The inputs of a channel's seats, as the server and the session see them."""

    game: str
    players: tuple[str, ...]
    seats: SeatBook
    wait_for_everyone: bool
    turns: TurnGate
    _lock: threading.RLock
    _arrived: threading.Condition
    _queue: deque[tuple[Action, int, str]]
    _shadow: GameState | None
    _state_cls: type[GameState] | None
    _state_json: dict[str, Any] | None

    def words(self, key: str, **params: Any) -> str:
        raise NotImplementedError

    def refusal(self, error: IllegalAction) -> str:
        raise NotImplementedError

    def tell(self, seat: str, text: str) -> None:
        raise NotImplementedError

    def _may_show(self, seat: str) -> bool:
        raise NotImplementedError

    def _post_view(self, seat: str, view: dict[str, Any]) -> None:
        raise NotImplementedError

    def _post_views(self, state: GameState, seats: Sequence[str]) -> None:
        raise NotImplementedError

    def _seat_view(self, seat: str, state: GameState | None) -> dict[str, Any]:
        raise NotImplementedError

    def _published_state(self) -> GameState:
        raise NotImplementedError

    # ------------------------------------------------------------------ pages -> host

    def submit(self, seat: str, choice: str) -> tuple[bool, str]:
        """A seat's input (from the server's thread). Checked by the engine on a copy of the
        game; queued for the host when legal. Returns (accepted, sentence for the page)."""
        with self._lock:
            if self._shadow is None or not self._may_show(seat):
                return False, self.words("refusal.not_started")
            try:
                action = games.private_action(self.game, seat, choice, self._shadow)
            except games.ChoiceError:
                return False, self.words("refusal.unknown_choice")
            if not self._may_act(seat, action):
                log.info("companion: input from %s refused out of turn", safe(seat))
                return False, self.words("refusal.not_now")
            try:
                self._shadow.apply(action)
            except IllegalAction as exc:
                return False, self.refusal(exc)
            except GameError as exc:
                return False, str(exc)
            self._queue.append((action, self.turns.turn, seat))
            self._arrived.notify_all()
            log.info("companion: input from %s queued", safe(seat))
            self._post_view(seat, self._seat_view(seat, None))
        done = "sent_card" if games.is_private(self.game, action) else "sent"
        return True, self.words(f"choice.{done}")

    def pending(self) -> int:
        """Secret inputs waiting for the host."""
        with self._lock:
            return len(self._queue)

    def take_actions(self, state: GameState | None = None) -> list[Action]:
        """Every queued secret input, oldest first. With ``state``, each is checked again
        against a copy of it (the game may have changed, e.g. by undo) and dropped with a
        private note to its player when it no longer fits."""
        with self._lock:
            entries = list(self._queue)
            self._queue.clear()
            actions = [entry[0] for entry in entries if self._still_asked(*entry)]
        if state is None or not actions:
            return actions
        trial = state.copy()
        return [action for action in actions if self._fits(trial, action)]

    def wait_for_action(self, timeout: float, state: GameState | None = None) -> Action | None:
        """The oldest queued secret input, waiting up to ``timeout`` seconds; None if none.
        With ``state``, it is checked again like in :meth:`take_actions`."""
        with self._arrived:
            if not self._queue:
                self._arrived.wait(timeout)
            if not self._queue:
                return None
            action, turn, seat = self._queue.popleft()
            if not self._still_asked(action, turn, seat):
                return None
        return action if state is None or self._fits(state.copy(), action) else None

    def private_turn(self, state: GameState) -> tuple[str, ...]:
        """Players who must now act on their page (the host waits for the channel)."""
        return games.private_turn(self.game, state)

    def phone_turn(self, state: GameState) -> tuple[str, ...]:
        """Players who may now answer on their page (or aloud)."""
        ready = self.seats.locked or not self.wait_for_everyone
        return games.phone_turn(self.game, state) if ready else ()

    def open_turn(self, seats: Sequence[str]) -> None:
        """The host asks ``seats`` now (its current prompt; empty while it asks nobody on
        a phone, e.g. before the Speaker's coded sentence). From the first call on, a vote,
        pick or guess is taken only from an asked seat; their pages show the buttons."""
        with self._lock:
            changed = self.turns.open(seats, self.players)
            if not changed or self._state_json is None or self._state_cls is None:
                return
            self._rebuild_shadow()
            self._post_views(self._published_state(),
                             [p for p in changed if self._may_show(p)])

    def _may_act(self, seat: str, action: Action) -> bool:
        """Whether ``seat`` may send ``action`` now (lock held)."""
        return self.turns.may_act(seat, games.is_private(self.game, action))

    def _still_asked(self, action: Action, turn: int, seat: str) -> bool:
        """Whether ``seat``'s queued input may still be taken (lock held): sent in this
        phase, by a seat still asked. Otherwise its player is told privately that it was
        not played."""
        if self.turns.still_open(seat, turn, games.is_private(self.game, action)):
            return True
        self.tell(seat, self.words("choice.too_late"))
        log.info("companion: input from %s dropped (turn over)", safe(seat))
        return False

    def _rebuild_shadow(self) -> None:
        """The published state with the still-queued inputs applied (lock held)."""
        assert self._state_cls is not None and self._state_json is not None
        shadow = self._state_cls.from_json(self._state_json)
        kept: deque[tuple[Action, int, str]] = deque()
        for action, turn, seat in self._queue:
            if not self._still_asked(action, turn, seat):
                continue
            try:
                shadow.apply(action)
            except IllegalAction:
                continue
            kept.append((action, turn, seat))
        self._queue = kept
        self._shadow = shadow

    def _offered(self, seat: str, choice: games.Choice) -> bool:
        """Whether ``seat``'s page shows ``choice`` now (lock held): what it may send."""
        if self.turns.may_act(seat, private=False):
            return True
        assert self._shadow is not None
        try:
            action = games.private_action(self.game, seat, choice.id, self._shadow)
        except games.ChoiceError:
            return False
        return games.is_private(self.game, action)

    def _fits(self, trial: GameState, action: Action) -> bool:
        """Apply ``action`` to the throw-away copy ``trial``; when the rules refuse it, tell
        its player privately why and return False."""
        try:
            trial.apply(action)
        except IllegalAction as exc:
            seat = actor(action)
            if seat is not None:
                self.tell(seat, self.words("choice.not_played", reason=self.refusal(exc)))
            return False
        return True
