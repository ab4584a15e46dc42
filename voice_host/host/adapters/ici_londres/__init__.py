"""Ici Londres, hosted: the broadcast, the Speaker's recorded sentence, turn prompts by name in
each transmission type, hit/miss questions at the table, scoring and role rotation.

One round, as the session loop sees it:

1. chance: the Speaker draws (host mode: the engine draws and the two icons go to the Speaker
   as a PRIVATE line; table mode: the Speaker draws physical cards).
2. ``prompt`` returns None once: ``host_step`` airs the broadcast — tuning static, the V motif,
   "Ici Londres, les Français parlent aux Français" in the French radio voice.
3. A RECORD prompt: the Speaker says the coded sentence; ``on_recording`` answers "je répète"
   and plays the recording back through the radio effect (typed play: repeats the text).
4. Guessing prompts in the round's transmission type (table mode: after each icon named the
   Speaker says hit or miss); ``on_timeout`` turns a countdown run out into ``TimeUp``.

One module per concern: ``voice`` (the words and the host's facts every part shares),
``prompts`` (what to ask), ``interpret`` (what was said, as a move), ``narrate`` (what the host
says of its own accord), ``queries`` (score, status, board, tried), ``refusals`` (the rules'
refusals in the game's words) and ``bots`` (the demo's players). :class:`Adapter` joins them
into the session's :class:`~voice_host.host.adapter.GameAdapter`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from voice_host.games import Action, Event, GameState, Outcome
from voice_host.games.base import Deal, find_player
from voice_host.games.ici_londres import IciLondresState, Transmission
from voice_host.host.adapter import Decision, Prompt, Recording
from voice_host.host.adapters.ici_londres import interpret, narrate, phone, prompts, queries
from voice_host.host.adapters.ici_londres.bots import bot_utterance, coded_sentence
from voice_host.host.adapters.ici_londres.refusals import refusal_words
from voice_host.host.adapters.ici_londres.voice import GAME, Voice, ici
from voice_host.host.io import Heard, Line
from voice_host.host.options import GameOptions, option
from voice_host.host.registry import GameRegistration
from voice_host.intent import IntentMatch, SlotValues

MAX_ROUNDS = 48
"""Most rounds a game may have (four times round a table of twelve)."""


@dataclass(frozen=True)
class IciLondresOptions(GameOptions):
    """Ici Londres' options (see :mod:`voice_host.host.options`)."""

    title: ClassVar[str] = "Ici Londres"

    players: tuple[str, ...] = option((), "names in seating order, A,B,C", required=True)
    first: str | None = option(None, "first Speaker (default: the first name)")
    mode: str = option("fragments", "first transmission type",
                       choices=("fragments", "competing", "double-zero", "countdown"))
    rounds: int | None = option(None, "rounds (default 12, 10 with 5 players)", low=1,
                                high=MAX_ROUNDS)


def new_game(options: dict[str, Any]) -> IciLondresState:
    """A new game from the JSON-able options, every option present (the registry fills in
    the defaults of the registration below)."""
    players = [str(p) for p in options["players"]]
    first = options.get("first")
    if first:  # as the game spells it; a name nobody has is refused by the engine
        first = find_player([p.strip() for p in players], first) or str(first)
    return IciLondresState.new(players, deal=Deal(options["deal"]),
                               mode=Transmission(options["mode"]),
                               rounds=options["rounds"], first_speaker=first)


class Adapter(Voice):
    """The game's voice for the session loop (see ``host.adapter.GameAdapter``): the shared
    words and facts of :class:`Voice`, each protocol method handed to its concern's module."""

    game = GAME

    def opening(self, state: GameState) -> list[Line]:
        return narrate.opening(self, ici(state))

    def chance(self, state: GameState, rng: random.Random) -> Action:
        return ici(state).chance_action(rng)

    def prompt(self, state: GameState) -> Prompt | None:
        return prompts.ask(self, ici(state))

    def host_step(self, state: GameState) -> list[Line]:
        return narrate.broadcast(self, ici(state))

    def slot_values(self, state: GameState) -> SlotValues:
        return interpret.slot_values(state)

    def interpret(self, state: GameState, match: IntentMatch, speaker: str | None) -> Decision:
        return interpret.decide(self, ici(state), match, speaker)

    def on_recording(self, state: GameState, heard: Heard) -> Recording:
        return interpret.take_recording(self, ici(state), heard)

    def on_timeout(self, state: GameState) -> Action | None:
        return interpret.time_up(self, ici(state))

    def narrate(self, state: GameState, events: Sequence[Event]) -> list[Line]:
        return narrate.events(self, ici(state), events)

    def describe(self, state: GameState, action: Action) -> str:
        return narrate.describe(self, action)

    def score(self, state: GameState) -> list[Line]:
        return queries.score(self, ici(state))

    def status(self, state: GameState) -> list[Line]:
        return queries.status(self, ici(state))

    def board(self, state: GameState) -> list[Line]:
        return queries.board(self, ici(state))

    def tried(self, state: GameState) -> list[Line]:
        return queries.tried(self, ici(state))

    def winner_json(self, outcome: Outcome) -> list[str]:
        return queries.winner_json(outcome)


REGISTRATION = GameRegistration(
    state_class=IciLondresState, new_game=new_game, adapter=Adapter,
    refusal_words=refusal_words, bots=bot_utterance, companion=phone,
    options=IciLondresOptions,
    demo_seats={"players": ["Hannah", "Thomas", "Sophie", "Oliver"]},
    example_slots=lambda lang: {"icons": interpret.ICON_ENTRIES},
)

__all__ = ["REGISTRATION", "Adapter", "IciLondresOptions", "bot_utterance", "coded_sentence",
           "new_game", "refusal_words"]
