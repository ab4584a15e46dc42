"""Codenames on the companion page: an operative's guess or the end of the team's turn.
Choice ids: ``guess:WORD``, ``end_turn``."""

from __future__ import annotations

from typing import Any

from voice_host.games import Action, GameState
from voice_host.games.codenames import CodenamesState, EndTurn, Guess
from voice_host.host.companion.games import Choice, ChoiceError, PageWords
from voice_host.text import find


def action(seat: str, choice: str, state: GameState | None) -> Action:
    if isinstance(state, CodenamesState):
        if choice == "end_turn":
            return EndTurn(seat)
        if choice.startswith("guess:"):
            word = choice[6:]
            if find(state.uncovered_words(), word) is not None:
                return Guess(seat, word)  # as sent: the engine folds it
    raise ChoiceError("unknown")


def choices(state: GameState, seat: str, legal: list[Action], words: PageWords) -> list[Choice]:
    out: list[Choice] = []
    for act in legal:
        if isinstance(act, Guess):
            out.append(Choice(f"guess:{act.word}", act.word,
                              words("choice.guess_confirm", word=act.word), kind="guess"))
        elif isinstance(act, EndTurn):
            out.append(Choice("end_turn", words("choice.end_turn"),
                              words("choice.end_turn_confirm"), kind="end_turn"))
    return out


def is_private(action: Action) -> bool:
    return False


def is_phone_input(action: Action) -> bool:
    return isinstance(action, Guess | EndTurn)


def phone_turn(state: GameState) -> tuple[str, ...] | None:
    # the whole team may guess, not only the operative the engine names first
    assert isinstance(state, CodenamesState)
    return state.current_players() if state.phase() == "guess" else ()


def extras() -> dict[str, Any]:
    return {}
