"""Whose turn it is on the phones: :class:`TurnGate`, kept by the channel.

The engine says what the rules allow; the host says when it asks for it. A phone's vote,
pick or guess is taken only from a seat the host asks now (its current prompt, given with
:meth:`TurnGate.open`), and only in the phase it was asked in: before the Speaker's coded
sentence nobody is asked, so an early tap is refused at once instead of being kept and
scored when guessing opens. A change of phase closes every turn and counts a new one; an
input sent in an earlier turn is never taken. A secret input (a mission card) needs no
asking: the engine alone decides when it is due.

Until the host opens its first turn (a channel driven without a session, in tests) the gate
lets through whatever the engine allows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from voice_host.games import GameState


class TurnGate:
    """The seats the host asks now, and the count of phases seen."""

    def __init__(self) -> None:
        self.managed = False
        """The host opens each turn (:meth:`open`); until then every seat may act."""
        self.asked: frozenset[str] = frozenset()
        """The seats the host asks now (when managed)."""
        self.turn = 0
        """Counts the changes of phase: an input sent in an earlier one is never taken."""
        self.phase: str | None = None
        """The engine's phase at the last published state."""

    def open(self, seats: Iterable[str], players: Sequence[str]) -> list[str] | None:
        """The host asks ``seats`` now. Returns the players whose buttons change (every
        player the first time), or None when nothing changed."""
        wanted = frozenset(p for p in seats if p in players)
        if self.managed and wanted == self.asked:
            return None
        first = not self.managed
        self.managed = True
        changed = [p for p in players if first or (p in wanted) != (p in self.asked)]
        self.asked = wanted
        return changed

    def follow(self, state: GameState, may_answer: Iterable[str]) -> None:
        """A new state was published: a change of phase closes every turn; within a phase a
        seat stays asked only while it may still answer on its page (``may_answer``)."""
        phase = state.phase()
        if phase != self.phase:
            self.phase = phase
            self.turn += 1
            self.asked = frozenset()
        elif self.managed:
            self.asked &= frozenset(may_answer)

    def may_act(self, seat: str, private: bool) -> bool:
        """Whether ``seat`` may send an input now (``private``: a secret one)."""
        return private or not self.managed or seat in self.asked

    def still_open(self, seat: str, turn: int, private: bool) -> bool:
        """Whether an input ``seat`` sent in ``turn`` may still be taken."""
        return turn == self.turn and self.may_act(seat, private)
