"""A grammar sentence cut short by the search ("la lapin" for "la lapin pour jack") is tried
further when the decoder wrote more (``SearchTuning.complete_rounds``), on made-up
log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``)."""

from __future__ import annotations

from tests.support.fake_decoder import (
    EOT,
    IDS,
    TUNING,
    VOCAB,
    VOTE,
    TableDecoder,
    ids,
    run,
    say,
    searches,
)
from voice_host.speech.decision import SearchTuning
from voice_host.speech.search import judge

LONG = "#JSGF V1.0;\ngrammar long;\npublic <s> = book | book and bell please;\n"


def drifting_table() -> dict[tuple[int, ...], dict[int, float]]:
    """Whatever the prefix, the decoder would rather write " the" (out of the grammar), and
    the grammar's next word is half a nat behind: the search advances one word per round.
    After "book", ending costs three nats; after "please", it is sure."""
    words = ("book", "and", "bell", "please")
    table: dict[tuple[int, ...], dict[int, float]] = {}
    for n, word in enumerate(words):
        table[ids(*words[:n])] = {IDS["the"]: 6.0, IDS[word]: 5.5}
    table[ids("book")][EOT] = 3.0
    table[ids(*words)] = {EOT: 6.0}
    return table


def test_a_sentence_cut_short_is_completed_when_the_decoder_wrote_more() -> None:
    table = drifting_table()
    short = run(table, LONG, tuning=SearchTuning(rounds=1, rescue_rounds=0))
    assert short.reading is not None and short.reading.text == "book"
    completed = run(table, LONG, tuning=SearchTuning(rounds=1, rescue_rounds=0,
                                                     complete_rounds=3))
    assert completed.reading is not None
    assert completed.reading.text == "book and bell please"
    # ranked by the same mean margin: the whole sentence gave up less per step
    assert completed.reading.margin > short.reading.margin


def test_a_sentence_as_long_as_the_free_decode_gets_no_extra_round() -> None:
    # the decoder wrote "yes" and ended: the sentence is not cut short
    decoder = TableDecoder(say(("yes", 0.0), ("<end>", 0.0)), floor=-0.5)
    judge(decoder, searches(VOTE), VOCAB, cap=12,
          tuning=SearchTuning(rounds=1, sure_margin=0.5, complete_rounds=3))
    assert decoder.calls <= 2  # the free decode and the one ordinary round
    assert TUNING.complete_rounds == 0  # off unless a language asks for it
