"""Generated sentences name a player once: "Ada oui, Ben et Ada non" has no one reading."""

from __future__ import annotations

import random

from voice_host.intent import SlotValues, load_grammar


def test_a_generated_french_vote_names_each_player_once() -> None:
    players = ("Ada", "Ben", "Cleo", "Dan", "Eve", "Fred")
    phase = load_grammar("resistance", "fr").phase(
        "vote", SlotValues(players=players, speaker="Ada"))
    samples = [s for s in phase.sample(random.Random(11), 400) if s.intent == "votes"]
    assert len(samples) > 40
    for s in samples:
        named = [p for k, v in s.slots.items() if k.startswith("p") and isinstance(v, tuple)
                 for p in v]
        assert len(named) == len(set(named)), s.text
