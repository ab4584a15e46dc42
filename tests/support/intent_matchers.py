"""Shared set-up for the intent tests and the intent benchmark."""

from __future__ import annotations

from functools import lru_cache

from tests.support.intent_cases import BOARD, PLAYERS, SPEAKER
from voice_host.host.core.registry import registration
from voice_host.intent import Matcher, SlotValues, load_grammar


def slot_values(game: str, lang: str = "en") -> SlotValues:
    """The run-time values the hand-written cases assume: the game's own example lists
    (the 36 icons), the cases' board words."""
    return SlotValues(players=PLAYERS, speaker=SPEAKER,
                      lists=registration(game).example_lists(lang, board_word=BOARD))


@lru_cache(maxsize=64)
def matcher(game: str, phase: str, lang: str = "en") -> Matcher:
    """A matcher for one phase with the cases' values."""
    return Matcher(load_grammar(game, lang).phase(phase, slot_values(game, lang)))
