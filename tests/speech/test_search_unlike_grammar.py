"""Sure talk in words the grammar lacks skips the grammar search
(``search.unlike_grammar``), on made-up log-probabilities (the fake decoder of
``tests/support/fake_decoder.py``)."""

from __future__ import annotations

from dataclasses import replace

from tests.support.fake_decoder import VOCAB, VOTE, TableDecoder, say, searches
from voice_host.speech.decision import Rejection, SearchTuning
from voice_host.speech.search import judge

TUNING = SearchTuning(near_sentences=0)
"""English's settings: no search of the nearest sentences."""

CHIPS = (("me", 5), ("the", 5), ("chips", 5), ("please", 5), (".", 5), ("<end>", 5))
"""A confident free transcript of four words, none of them a word of VOTE (too short to be
talk beyond every sentence of it: VOTE's longest has three)."""


def test_sure_talk_in_words_of_its_own_is_not_searched() -> None:
    decoder = TableDecoder(say(*CHIPS))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16, tuning=TUNING)
    assert decoder.calls == 1  # the free decode only
    assert not got.accepted and got.reading is None and got.reason is Rejection.FOREIGN
    assert got.free_text == "me the chips please"


def test_the_same_talk_is_searched_when_the_skip_is_off() -> None:
    decoder = TableDecoder(say(*CHIPS))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16,
                tuning=replace(TUNING, skip_talk=False))
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN


def test_talk_mostly_in_the_grammar_s_words_is_searched() -> None:
    said = (("i", 5), ("vote", 5), ("yes", 5), ("please", 5), (".", 5), ("<end>", 5))
    decoder = TableDecoder(say(*said))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16, tuning=TUNING)
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN


def test_short_or_unsure_talk_is_searched() -> None:
    short = (("the", 5), ("chips", 5), (".", 5), ("<end>", 5))
    decoder = TableDecoder(say(*short))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16, tuning=TUNING)
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN
    unsure = tuple((word, 0.5) for word, _ in CHIPS)
    decoder = TableDecoder(say(*unsure), floor=0.0)
    got = judge(decoder, searches(VOTE), VOCAB, cap=16, tuning=TUNING)
    assert got.free_logp < TUNING.foreign_logp
    assert got.reason is not Rejection.FOREIGN


def test_a_command_cut_in_two_is_searched() -> None:
    # "do" is letters of "undo": two of three words are the grammar's
    said = (("and", 5), ("do", 5), ("please", 5), (".", 5), ("<end>", 5))
    grammar = "#JSGF V1.0;\ngrammar answer;\npublic <s> = undo please | yes | no;\n"
    decoder = TableDecoder(say(*said))
    got = judge(decoder, searches(grammar), VOCAB, cap=16, tuning=TUNING)
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN


def test_where_near_sentences_are_searched_nothing_is_skipped() -> None:
    decoder = TableDecoder(say(*CHIPS))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16,
                tuning=replace(TUNING, near_sentences=4))
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN


def _unlike(free: str, document: str) -> bool:
    from voice_host.speech.search import unlike_grammar

    return unlike_grammar(free, -0.1, False, searches(document), TUNING)


def test_an_inflected_grammar_word_is_the_grammar_s() -> None:
    """Whisper wrote "our guess is tire" as "our guests is tired" (a Codenames demo game):
    "guests" and "tired" begin with the grammar's "guess" and "tire", so the line is
    searched; a short grammar word at the start of talk ("the" of "there") counts not."""
    guess = "#JSGF V1.0;\ngrammar guess;\npublic <s> = [our guess is] (tire | wolf);\n"
    assert not _unlike("our guests is tired", guess)
    assert _unlike("remember what happened last time", guess)
    short = "#JSGF V1.0;\ngrammar guess;\npublic <s> = the (tire | wolf);\n"
    assert _unlike("there goes nothing", short)


def test_an_open_slot_takes_one_word_of_the_talk() -> None:
    """"travel for tube" for the clue "travel for two": the open slot takes "travel", so
    two of three words are the grammar's and the line is searched; talk in words of its
    own is still not."""
    from voice_host.speech.types import ANY_WORD_RULE

    clue = (f"#JSGF V1.0;\ngrammar clue;\npublic <s> = <{ANY_WORD_RULE}> for (one | two);\n")
    assert not _unlike("travel for tube", clue)
    assert _unlike("remember what happened last time", clue)
    closed = "#JSGF V1.0;\ngrammar clue;\npublic <s> = house for (one | two);\n"
    assert _unlike("travel for tube", closed)
