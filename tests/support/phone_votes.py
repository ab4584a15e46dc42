"""A stand-in for the companion page in Resistance session tests: every seat confirmed, no
seat news, and the phones' votes arriving once the vote is open (before anything is said
aloud), as the channel queues them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from voice_host.games.resistance import CastVote
from voice_host.host.companion.news import SeatNews


class VotingPages:
    """The parts of a CompanionChannel the session uses."""

    seats = SimpleNamespace(locked=True, all_confirmed=lambda: True, seats=lambda: [],
                            pending_request=lambda: None)
    wait_for_everyone = False
    news = SeatNews()

    def __init__(self, phone_votes: list[CastVote]) -> None:
        self.queue: list[Any] = []
        self.phone_votes = phone_votes

    def game_started(self) -> None:
        pass

    def pending(self) -> int:
        return len(self.queue)

    def phone_turn(self, state: Any) -> tuple[str, ...]:
        return ()

    def open_turn(self, seats: Any) -> None:
        pass

    def take_seat_events(self) -> list[Any]:
        return []

    def say_seat_news(self, session: Any) -> bool:  # no seat changes here
        return False

    def publish(self, state: Any) -> None:
        if state.phase() == "vote" and not state.votes and self.phone_votes:
            self.queue, self.phone_votes = self.phone_votes, []

    def private_turn(self, state: Any) -> tuple[str, ...]:
        return ()

    def recap(self, lines: Any) -> None:
        self.recapped = list(lines)

    def take_actions(self, state: Any = None) -> list[Any]:
        out, self.queue = self.queue, []
        return out
