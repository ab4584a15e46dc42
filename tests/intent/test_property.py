"""Property test: any text never crashes the matcher nor yields a value outside the lists."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.intent_cases import BOARD, PLAYERS, all_phases
from tests.support.intent_matchers import matcher
from voice_host.games.icons import ICON_NAMES

PHASES = all_phases()

WORDS = ["yes", "no", "and", "the", "heart", "book", "two", "too", "pass", "me", "sophie",
         "thomas", "tomas", "vote", "both", "clue", "blue", "piano", "guess", "maybe", "i",
         "pick", "sabotage", "all", "success", "red", "unlimited", "zoe", "jean", "luc",
         "please", "help", ",", "?", "'", "-", "l'", "4", "é", "ocean", "in", "mary", "ann"]

ALLOWED: dict[str, Any] = {
    "players": set(PLAYERS), "player": set(PLAYERS), "choice": {"yes", "no"},
    "sabotages": set(range(10)), "yes": set(range(11)),
    "colour": {"red", "blue", "neutral", "assassin"},
    "number": set(range(10)) | {"unlimited"}, "number_word": set(range(11)),
    # a whole table's votes in one sentence: groups of players (p1..p6, px: "except") and
    # their votes (v1..v6; vr: the rest, va: everyone, vx: the excepted)
    **{f"p{i}": set(PLAYERS) for i in (*range(1, 7), "x")},
    **{f"v{i}": {"yes", "no"} for i in (*range(1, 7), "r", "a", "x")},
}

text = st.one_of(st.text(max_size=60),
                 st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join))


def _check(game: str, slots: Any) -> None:
    icon_names = set(ICON_NAMES)
    for key, value in slots.items():
        values = value if isinstance(value, tuple) else (value,)
        for item in values:
            if key == "icons":
                assert item in icon_names
            elif key in ("word", "word2") and game == "codenames":
                assert isinstance(item, str) and item
            else:
                assert item in ALLOWED[key], (key, item)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PHASES), text)
def test_any_text_is_safe(phase: tuple[str, str], utterance: str) -> None:
    game, name = phase
    result = matcher(game, name).match(utterance, speaker="Hannah")
    for match in result.alternatives:
        assert 0.0 <= match.confidence <= 1.0
        _check(game, match.slots)
        if game == "codenames" and name == "guess" and match.intent == "guess":
            assert match.slots["word"] in BOARD
    if result.best is not None:
        assert result.best == result.alternatives[0]
    else:
        assert result.alternatives == ()
