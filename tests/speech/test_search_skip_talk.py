"""Long talk that no grammar sentence could be believed beside skips the grammar search
(``SearchTuning.skip_talk``), on made-up log-probabilities (the fake decoder of
``tests/support/fake_decoder.py``); and the sentence-length bound it rests on
(``WordGraph.longest``)."""

from __future__ import annotations

from dataclasses import replace

from tests.support.fake_decoder import BOOK, TUNING, VOCAB, VOTE, TableDecoder, say, searches
from voice_host.speech.decision import Rejection
from voice_host.speech.grammar_search import ANY_WORD, TokenConstraint, WordGraph
from voice_host.speech.search import judge
from voice_host.speech.types import ANY_WORD_RULE

TALK = (("i", 5), ("vote", 5), ("yes", 5), ("and", 5), ("pass", 5), ("me", 5), ("the", 5),
        ("chips", 5), ("please", 5), (".", 5), ("<end>", 5))
"""A confident free transcript of nine words: "I vote yes and pass me the chips please."""


def size(word: str) -> tuple[int, int]:
    return 1, (7 if word == ANY_WORD else len(word))


def test_the_longest_sentence_counts_words_and_characters() -> None:
    graph = WordGraph("#JSGF V1.0;\ngrammar g;\npublic <s> = yes | i vote [yes | no] please;\n")
    assert graph.longest(size) == (4, len("i vote yes please"))


def test_a_repeat_has_no_longest_sentence() -> None:
    graph = WordGraph("#JSGF V1.0;\ngrammar g;\npublic <s> = vote (yes | no)+;\n")
    assert graph.longest(size) is None


def test_an_open_slot_and_spellings_count_as_written() -> None:
    open_slot = WordGraph("#JSGF V1.0;\ngrammar g;\n"
                          f"public <s> = clue <{ANY_WORD_RULE}> two;\n")
    assert open_slot.longest(size) == (3, len("clue") + 7 + len("two") + 2)
    spelled = TokenConstraint(WordGraph("#JSGF V1.0;\ngrammar g;\npublic <s> = ok;\n"),
                              {"ok": ("o k", "okay")})
    assert spelled.longest(0) == (2, 4)


def test_long_sure_talk_is_not_searched_in_a_short_grammar() -> None:
    decoder = TableDecoder(say(*TALK))
    got = judge(decoder, searches(BOOK), VOCAB, cap=16, tuning=TUNING)
    assert decoder.calls == 1  # the free decode only
    assert not got.accepted and got.reading is None and got.reason is Rejection.TALK
    assert got.free_text == "i vote yes and pass me the chips please"


def test_searched_anyway_the_same_talk_is_rejected() -> None:
    # what the skip saves: the search's calls, for a reading that could not pass
    decoder = TableDecoder(say(*TALK))
    got = judge(decoder, searches(BOOK), VOCAB, cap=16,
                tuning=replace(TUNING, skip_talk=False))
    assert decoder.calls > 1
    assert not got.accepted and got.reason is not Rejection.NONE


def test_talk_within_reach_of_the_grammar_is_still_searched() -> None:
    # "i vote yes" is three words: nine words of talk are not far enough beyond it to be
    # sure no reading is similar (VOTE's longest sentence), so the search runs
    grammar = "#JSGF V1.0;\ngrammar g;\npublic <s> = i vote yes and pass me the chips;\n"
    decoder = TableDecoder(say(*TALK))
    got = judge(decoder, searches(grammar), VOCAB, cap=16, tuning=TUNING)
    assert got.reason is not Rejection.TALK and got.reading is not None


def test_unsure_talk_is_still_searched() -> None:
    unsure = tuple((word, 0.5) for word, _ in TALK)
    decoder = TableDecoder(say(*unsure), floor=0.0)
    got = judge(decoder, searches(VOTE), VOCAB, cap=16, tuning=TUNING)
    assert got.free_logp < TUNING.free_min_logp
    assert got.reason is not Rejection.TALK
