"""A phase with likely words and an open slot (the Codenames clue): a likely-word reading
taken only because it is spelled like the free transcript yields to the decoder's own
words when they are a sure sentence of the open grammar (``search.own_words_instead``).
On made-up log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``)."""

from __future__ import annotations

from tests.support.fake_decoder import EOT, IDS, TUNING, VOCAB, TableDecoder, ids, searches
from voice_host.speech.search import judge

LIKELY = "#JSGF V1.0;\ngrammar likely;\npublic <s> = well (yes | no);\n"
OPEN = "#JSGF V1.0;\ngrammar open;\npublic <s> = (well | bell | book) (yes | no);\n"


def said(well: float) -> TableDecoder:
    """The decoder writes "bell yes" surely; "well", the likely word, ``well`` logits
    against bell's 9."""
    return TableDecoder({(): {IDS["bell"]: 9.0, IDS["well"]: well},
                         ids("bell"): {IDS["yes"]: 9.0}, ids("well"): {IDS["yes"]: 9.0},
                         ids("bell", "yes"): {EOT: 9.0}, ids("well", "yes"): {EOT: 9.0}})


def heard(decoder: TableDecoder, documents: tuple[str, ...] = (LIKELY, OPEN)) -> str | None:
    got = judge(decoder, [s for d in documents for s in searches(d)], VOCAB, cap=12,
                tuning=TUNING)
    assert got.accepted
    return got.reading.text if got.reading is not None else None


def test_a_likely_word_taken_for_its_spelling_yields_to_the_decoders_own_words() -> None:
    # "well yes" is 2.4 nats a token below "bell yes" on its first step (mean -0.8, under
    # the accept margin), taken only as spelled like the free transcript
    assert heard(said(6.6), (LIKELY,)) == "well yes"
    assert heard(said(6.6)) == "bell yes"


def test_a_likely_word_taken_on_its_own_margin_stays() -> None:
    # one nat below (mean -0.33): the likely word is what was said, misheard a little
    assert heard(said(8.0)) == "well yes"


def test_the_open_walk_costs_no_decoder_call() -> None:
    decoder = said(6.6)
    heard(decoder, (LIKELY,))
    alone = decoder.calls
    decoder = said(6.6)
    heard(decoder)
    assert decoder.calls == alone
