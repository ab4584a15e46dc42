"""Shared set-up for the intent tests and the intent benchmark."""

from __future__ import annotations

from functools import lru_cache

from intent_cases import BOARD, PLAYERS, SPEAKER

from voice_host.intent import IconEntry, Matcher, SlotValues, load_grammar


@lru_cache(maxsize=1)
def icons() -> tuple[IconEntry, ...]:
    """The game's icons as the grammar takes them."""
    from voice_host.games.icons import ICONS

    return tuple(IconEntry(i.name, tuple(i.synonyms), i.french, tuple(i.french_synonyms))
                 for i in ICONS)


def slot_values(game: str) -> SlotValues:
    """The run-time values the hand-written cases assume."""
    return SlotValues(players=PLAYERS, speaker=SPEAKER,
                      icons=icons() if game == "ici-londres" else (),
                      board_words=BOARD if game == "codenames" else ())


@lru_cache(maxsize=64)
def matcher(game: str, phase: str, lang: str = "en") -> Matcher:
    """A matcher for one phase with the cases' values."""
    return Matcher(load_grammar(game, lang).phase(phase, slot_values(game)))
