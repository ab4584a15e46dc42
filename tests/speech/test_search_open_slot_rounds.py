"""A phase with an open slot searches its likely words first, then the slot open to any
word; the second search gets its own rounds (``SearchTuning.open_rounds``). On made-up
log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``)."""

from __future__ import annotations

from tests.support.fake_decoder import OPEN, VOCAB, VOTE, TableDecoder, drifting, searches
from voice_host.speech.decision import SearchTuning
from voice_host.speech.search import judge


def calls(documents: list[str], tuning: SearchTuning) -> int:
    decoder = TableDecoder(drifting(False))
    judge(decoder, [s for d in documents for s in searches(d)], VOCAB, cap=12, tuning=tuning)
    return decoder.calls


def test_the_open_search_takes_its_own_rounds() -> None:
    tuning = SearchTuning(rounds=2, rescue_rounds=0)
    first = calls([VOTE], tuning)
    both = calls([VOTE, OPEN], tuning)
    assert both > first + 1  # the second search's two rounds
    assert calls([VOTE, OPEN], SearchTuning(rounds=2, rescue_rounds=0, open_rounds=1)) \
        == first + 1
    # no rounds: the open search only walks the free decode through its grammar
    assert calls([VOTE, OPEN], SearchTuning(rounds=2, rescue_rounds=0, open_rounds=0)) \
        == first
    # the first search keeps its rounds
    assert calls([VOTE], SearchTuning(rounds=2, rescue_rounds=0, open_rounds=0)) == first
