"""The toy game's voice and its registration (the one line that makes it known is in the
test)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from tests.host.toy import phone
from tests.host.toy.engine import Add, Added, TenState
from voice_host.games import Action, Event, GameState, IllegalAction
from voice_host.host.core.adapter import BaseAdapter, Decision, GameAdapter, Prompt
from voice_host.host.core.narration import Narrator
from voice_host.host.core.options import GameOptions, option
from voice_host.host.core.registry import GameRegistration
from voice_host.host.core.values import Line
from voice_host.intent import IntentMatch, SlotValues


@dataclass(frozen=True)
class TenOptions(GameOptions):
    title: ClassVar[str] = "Ten"

    players: tuple[str, ...] = option((), "names in seating order, A,B", required=True)


def new_game(options: dict[str, Any]) -> GameState:
    return TenState(list(options["players"]))


class Adapter(BaseAdapter):
    game = "ten"

    def _line(self, key: str, **params: Any) -> Line:
        return self.narrator.line(f"ten.{key}", **params)

    def opening(self, state: GameState) -> list[Line]:
        return [self._line("welcome", players=self.narrator.names(state.players))]

    def prompt(self, state: GameState) -> Prompt | None:
        player = state.current_players()[0]
        assert isinstance(state, TenState)
        return Prompt(lines=(self._line("your_turn", player=player, total=state.total),),
                      phase="count", expected=(player,), key=f"count.{state.turn}")

    def slot_values(self, state: GameState) -> SlotValues:
        return SlotValues(players=state.players)

    def interpret(self, state: GameState, match: IntentMatch, speaker: str | None) -> Decision:
        player = speaker or state.current_players()[0]
        return Decision(action=Add(player, int(match.slots["n"])))

    def narrate(self, state: GameState, events: Sequence[Event]) -> list[Line]:
        out = [self._line("added", player=e.player, amount=e.amount, total=e.total)
               for e in events if isinstance(e, Added)]
        if state.is_terminal():
            outcome = state.outcome()
            assert outcome is not None
            out.append(self._line("won", player=outcome.winners[0]))
        return out

    def describe(self, state: GameState, action: Action) -> str:
        assert isinstance(action, Add)
        return f"{action.player} adds {action.amount}"

    def score(self, state: GameState) -> list[Line]:
        return self.status(state)

    def status(self, state: GameState) -> list[Line]:
        assert isinstance(state, TenState)
        return [self._line("total", total=state.total)]

    def board(self, state: GameState) -> list[Line]:
        return self.status(state)

    def tried(self, state: GameState) -> list[Line]:
        return []


def refusal_words(narrator: Narrator, error: IllegalAction) -> dict[str, Any]:
    return {}


def bot_utterance(adapter: GameAdapter, state: GameState, prompt: Prompt,
                  rng: random.Random) -> tuple[str, str]:
    action = rng.choice(state.legal_actions())
    assert isinstance(action, Add)
    return action.player, f"I add {['one', 'two', 'three'][action.amount - 1]}"


REGISTRATION = GameRegistration(
    page_script=Path(__file__).with_name("page.js"), companion=phone,
    state_class=TenState, new_game=new_game, adapter=Adapter, refusal_words=refusal_words,
    bots=bot_utterance,
    options=TenOptions,
    demo_seats={"players": ["Ada", "Ben"]},
)
