"""The Codenames adapter: one object per session, the game's voice behind
:class:`voice_host.host.adapter.GameAdapter`, each concern in its own module."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from voice_host.games import Action, Event, GameState, Outcome, SetupError
from voice_host.games.codenames import CodenamesState
from voice_host.host.adapter import Decision, Prompt, Recording
from voice_host.host.adapters.codenames import interpret, narrate, prompts, queries
from voice_host.host.adapters.codenames.words import GAME, Words, as_codenames
from voice_host.host.io import Heard, Line
from voice_host.host.narration import Narrator
from voice_host.host.secrets import SecretSink
from voice_host.intent import IntentMatch, SlotValues


def new_game(options: dict[str, Any]) -> GameState:
    """A fresh game from the JSON-able options (red, blue, deal, first, words,
    invalid_clue), every option present: the registry fills in the registration's
    defaults."""
    red = list(options.get("red") or [])
    blue = list(options.get("blue") or [])
    if len(red) + len(blue) >= 4 and min(len(red), len(blue)) < 2:
        small, big = (red, blue) if len(red) < 2 else (blue, red)
        moved = big[-1]
        fixed_red = [*red, moved] if small is red else red[:-1]
        fixed_blue = blue[:-1] if small is red else [*blue, moved]
        which = "red" if small is red else "blue"
        raise SetupError(
            f"Each team needs at least 2 players, a spymaster and an operative; the {which} "
            f"team has {len(small)}. Move a player to it, for example --red "
            f"{','.join(fixed_red)} --blue {','.join(fixed_blue)}.")
    return CodenamesState.new(
        [*red, *blue], deal=options["deal"], red_size=len(red) or None,
        first=options.get("first"), words=options["words"],
        invalid_clue=options["invalid_clue"])


class Adapter:
    """The Codenames adapter (see :class:`voice_host.host.adapter.GameAdapter`)."""

    game = GAME

    def __init__(self, options: dict[str, Any], *, secret_sink: SecretSink | None = None) -> None:
        self.options = dict(options)
        self.narrator = Narrator(GAME, options.get("lang") or "en")
        self.words = Words(self.narrator)
        self.secret_sink = secret_sink
        self.host_state: dict[str, Any] = {}

    # set-up and prompts (prompts.py, narrate.py)

    def opening(self, state: GameState) -> list[Line]:
        return narrate.opening(self.words, as_codenames(state),
                               companion=bool(self.options.get("companion")))

    def chance(self, state: GameState, rng: random.Random) -> Action:
        return as_codenames(state).chance_action(rng)

    def prompt(self, state: GameState) -> Prompt | None:
        return prompts.prompt(self.words, as_codenames(state))

    def host_step(self, state: GameState) -> list[Line]:
        return []

    def slot_values(self, state: GameState) -> SlotValues:
        return prompts.slot_values(as_codenames(state))

    # understanding (interpret.py)

    def interpret(self, state: GameState, match: IntentMatch, speaker: str | None) -> Decision:
        return interpret.interpret(self.words, as_codenames(state), match, speaker)

    def on_recording(self, state: GameState, heard: Heard) -> Recording:
        return Recording()

    def on_timeout(self, state: GameState) -> Action | None:
        return None

    # narration (narrate.py)

    def narrate(self, state: GameState, events: Sequence[Event]) -> list[Line]:
        return narrate.narrate(self.words, as_codenames(state), events, self.secret_sink)

    # universal commands (queries.py)

    def describe(self, state: GameState, action: Action) -> str:
        return queries.describe(self.words, as_codenames(state), action)

    def score(self, state: GameState) -> list[Line]:
        return queries.score(self.words, as_codenames(state))

    def board(self, state: GameState) -> list[Line]:
        return queries.board(self.words, as_codenames(state))

    def status(self, state: GameState) -> list[Line]:
        return queries.status(self.words, as_codenames(state))

    def tried(self, state: GameState) -> list[Line]:
        return queries.tried(self.words, as_codenames(state))

    def winner_json(self, outcome: Outcome) -> list[str]:
        return queries.winner_json(outcome)
