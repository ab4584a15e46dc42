"""A toy game written for the registration test: "Ten". Players in turn add one, two or
three to a running total; whoever brings it to exactly ten wins. Pure, like the real
engines (no I/O, no global random state)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from voice_host.games import Action, Event, GameDescription, IllegalAction, Outcome
from voice_host.games.base import check_player_names

TARGET = 10


class TenRefusal(IllegalAction):
    messages: ClassVar[Mapping[str, str]] = {
        "not_your_turn": "It is {player}'s turn.",
        "one_to_three": "Add one, two or three.",
        "past_ten": "That would pass ten: the total is {total}.",
        "over": "The game is over.",
    }


@dataclass(frozen=True)
class Add(Action):
    player: str
    amount: int


@dataclass(frozen=True)
class Added(Event):
    player: str
    amount: int
    total: int


class TenState:
    description: ClassVar[GameDescription] = GameDescription(
        name="ten", title="Ten", min_players=2, max_players=4)
    refusals: ClassVar[type[IllegalAction]] = TenRefusal
    action_types: ClassVar[tuple[type[Action], ...]] = (Add,)
    event_types: ClassVar[tuple[type[Event], ...]] = (Added,)

    def __init__(self, players: Sequence[str]) -> None:
        self._players = check_player_names(players, self.description)
        self.total = 0
        self.turn = 0

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    def phase(self) -> str:
        return "over" if self.is_terminal() else "count"

    def current_players(self) -> tuple[str, ...]:
        return () if self.is_terminal() else (self._players[self.turn % len(self._players)],)

    def is_chance_node(self) -> bool:
        return False

    def chance_action(self, rng: random.Random) -> Action:
        raise TenRefusal("over")

    def legal_actions(self, player: str | None = None) -> list[Action]:
        now = self.current_players()
        if not now or (player is not None and player not in now):
            return []
        return [Add(now[0], n) for n in (1, 2, 3) if self.total + n <= TARGET]

    def random_action(self, rng: random.Random) -> Action:
        return rng.choice(self.legal_actions())

    def apply(self, action: Action) -> list[Event]:
        if self.is_terminal():
            raise TenRefusal("over")
        assert isinstance(action, Add)
        if action.player not in self.current_players():
            raise TenRefusal("not_your_turn", player=self.current_players()[0])
        if action.amount not in (1, 2, 3):
            raise TenRefusal("one_to_three")
        if self.total + action.amount > TARGET:
            raise TenRefusal("past_ten", total=self.total)
        self.total += action.amount
        self.turn += 1
        return [Added(action.player, action.amount, self.total)]

    def copy(self) -> TenState:
        return TenState.from_json(self.to_json())

    def is_terminal(self) -> bool:
        return self.total >= TARGET

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        winner = self._players[(self.turn - 1) % len(self._players)]
        return Outcome(winners=(winner,), scores={}, reason="ten")

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self._players), "total": self.total, "turn": self.turn}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TenState:
        state = cls(data["players"])
        state.total, state.turn = int(data["total"]), int(data["turn"])
        return state

    def public_view(self) -> dict[str, Any]:
        return self.to_json()

    def player_view(self, player: str) -> dict[str, Any]:
        return self.to_json()
