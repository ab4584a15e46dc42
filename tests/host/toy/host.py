"""The toy game's voice and its registration (the one line that makes it known is in the
test)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tests.host.toy.engine import Add, Added, TenState
from voice_host.games import Action, Event, GameState, IllegalAction, Outcome
from voice_host.host.adapter import Decision, GameAdapter, Prompt, Recording
from voice_host.host.io import Heard, Line
from voice_host.host.narration import Narrator
from voice_host.host.options import GameOptions, option
from voice_host.host.registry import GameRegistration
from voice_host.host.secrets import SecretSink
from voice_host.intent import IntentMatch, SlotValues


@dataclass(frozen=True)
class TenOptions(GameOptions):
    title: ClassVar[str] = "Ten"

    players: tuple[str, ...] = option((), "names in seating order, A,B", required=True)


def new_game(options: dict[str, Any]) -> GameState:
    return TenState(list(options["players"]))


class Adapter:
    game = "ten"

    def __init__(self, options: dict[str, Any], *, secret_sink: SecretSink | None = None) -> None:
        self.narrator = Narrator("ten", str(options.get("lang", "en")))
        self.host_state: dict[str, Any] = {}

    def _line(self, key: str, **params: Any) -> Line:
        return self.narrator.line(f"ten.{key}", **params)

    def opening(self, state: GameState) -> list[Line]:
        return [self._line("welcome", players=self.narrator.names(state.players))]

    def chance(self, state: GameState, rng: random.Random) -> Action:
        return state.chance_action(rng)

    def prompt(self, state: GameState) -> Prompt | None:
        player = state.current_players()[0]
        assert isinstance(state, TenState)
        return Prompt(lines=(self._line("your_turn", player=player, total=state.total),),
                      phase="count", expected=(player,), key=f"count.{state.turn}")

    def host_step(self, state: GameState) -> list[Line]:
        return []

    def slot_values(self, state: GameState) -> SlotValues:
        return SlotValues(players=state.players)

    def interpret(self, state: GameState, match: IntentMatch, speaker: str | None) -> Decision:
        player = speaker or state.current_players()[0]
        return Decision(action=Add(player, int(match.slots["n"])))

    def on_recording(self, state: GameState, heard: Heard) -> Recording:
        return Recording()

    def on_timeout(self, state: GameState) -> Action | None:
        return None

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

    def winner_json(self, outcome: Outcome) -> list[str]:
        return list(outcome.winners)


def refusal_words(narrator: Narrator, error: IllegalAction) -> dict[str, Any]:
    return {}


def bot_utterance(adapter: GameAdapter, state: GameState, prompt: Prompt,
                  rng: random.Random) -> tuple[str, str]:
    action = rng.choice(state.legal_actions())
    assert isinstance(action, Add)
    return action.player, f"I add {['one', 'two', 'three'][action.amount - 1]}"


REGISTRATION = GameRegistration(
    state_class=TenState, new_game=new_game, adapter=Adapter, refusal_words=refusal_words,
    bots=bot_utterance,
    options=TenOptions,
    demo_seats={"players": ["Ada", "Ben"]},
)
