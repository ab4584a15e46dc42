"""The rescue rounds (``SearchTuning.rescue_rounds``) only where the free decode began as
the grammar does (``SearchTuning.rescue_from``): "the clueless house too" starts like "the
clue is house two", table talk mostly leaves the grammar at its first word. On made-up
log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``)."""

from __future__ import annotations

from dataclasses import replace

from tests.support.fake_decoder import (
    EOT,
    IDS,
    OPEN,
    VOCAB,
    VOTE,
    TableDecoder,
    drifting,
    ids,
    run,
    searches,
)
from voice_host.speech.decision import SearchTuning
from voice_host.speech.search import judge

GATED = SearchTuning(rounds=1, rescue_rounds=2, rescue_from=1)


def test_rescue_rounds_where_the_free_decode_began_inside_the_grammar() -> None:
    assert run(drifting(True), tuning=SearchTuning(rounds=1, rescue_rounds=0)).reading is None
    rescued = run(drifting(True), tuning=GATED)
    assert rescued.reading is not None and rescued.reading.text == "i vote yes"


def test_no_rescue_rounds_where_the_free_decode_left_the_grammar_at_once() -> None:
    # ungated, the rescue finds the sentence; gated, the search stops after its rounds
    found = run(drifting(False), tuning=SearchTuning(rounds=1, rescue_rounds=3))
    assert found.reading is not None and found.reading.text == "i vote yes"
    decoder = TableDecoder(drifting(False))
    gated = judge(decoder, searches(VOTE), VOCAB, cap=12,
                  tuning=SearchTuning(rounds=1, rescue_rounds=3, rescue_from=1))
    assert gated.reading is None
    assert decoder.calls == 1 + 1  # the free decode and its one round


def test_the_gate_counts_the_free_decodes_tokens_inside_the_grammar() -> None:
    # "i" alone is inside: a gate of two tokens keeps the rescue off
    assert run(drifting(True), tuning=SearchTuning(rounds=1, rescue_rounds=2,
                                                   rescue_from=2)).reading is None


def calls(document: list[str], tuning: SearchTuning) -> int:
    decoder = TableDecoder(drifting(False))
    judge(decoder, [s for d in document for s in searches(d)], VOCAB, cap=12, tuning=tuning)
    return decoder.calls


def test_the_gate_reads_the_first_grammar_not_the_open_slot() -> None:
    # " the" stays inside the second grammar (as any word stays inside an open slot), not
    # inside the first: the rescue rounds stay off for both searches
    gated = SearchTuning(rounds=1, rescue_rounds=3, rescue_from=1)
    assert calls([OPEN], gated) > calls([OPEN], replace(gated, rescue_rounds=0))
    assert calls([VOTE, OPEN], gated) == calls([VOTE, OPEN], replace(gated, rescue_rounds=0))


def test_no_rescue_rounds_where_the_free_decode_was_sure_of_its_words() -> None:
    # "i the" written surely (near 0 nats a step): talk that left the grammar, not a
    # command misheard; where even that counts as unsure, the rescue runs
    sure = drifting(True)
    sure[()] = {IDS["i"]: 12.0, IDS["the"]: 5.5}
    sure[ids("i")] = {IDS["the"]: 9.0, IDS["vote"]: 5.5}
    sure[ids("i", "the")] = {EOT: 12.0}
    assert run(sure, tuning=GATED).reading is None
    rescued = run(sure, tuning=replace(GATED, free_min_logp=0.0))
    assert rescued.reading is not None and rescued.reading.text == "i vote yes"
