"""Generated sentences name a player once: "Ada oui, Ben et Ada non" ("myself and Ada
rejected and Ada against") has no one reading."""

from __future__ import annotations

import random

import pytest

from voice_host.intent import SlotValues, load_grammar


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_generated_vote_names_each_player_once(lang: str) -> None:
    players = ("Ada", "Ben", "Cleo", "Dan", "Eve", "Fred")
    phase = load_grammar("resistance", lang).phase(
        "vote", SlotValues(players=players, speaker="Ada"))
    samples = [s for s in phase.sample(random.Random(11), 400) if s.intent == "votes"]
    assert len(samples) > 40
    for s in samples:
        named = [p for k, v in s.slots.items() if k.startswith("p") and isinstance(v, tuple)
                 for p in v]
        assert len(named) == len(set(named)), s.text
