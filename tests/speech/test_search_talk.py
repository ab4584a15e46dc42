"""Table talk and readings the prompt made (voice_host.speech.search): what is not searched,
and what is not taken as a command, on made-up log-probabilities (the fake decoder of
``tests/support/fake_decoder.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tests.support.fake_decoder import (
    BOOK,
    EOT,
    IDS,
    TUNING,
    VOCAB,
    VOTE,
    TableDecoder,
    ids,
    say,
    searches,
)
from voice_host.speech.decision import (
    Judgement,
    Rejection,
    SearchTuning,
    Verdict,
    decide_judgement,
)
from voice_host.speech.grammar_search import ANY_WORD, TokenConstraint, WordGraph
from voice_host.speech.search import Scored, judge, with_lift
from voice_host.speech.types import ANY_WORD_RULE

# Long talk that no grammar sentence could be believed beside skips the grammar search
# (``SearchTuning.skip_talk``), on made-up log-probabilities (the fake decoder of
# ``tests/support/fake_decoder.py``); and the sentence-length bound it rests on
# (``WordGraph.longest``).

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


# Sure talk in words the grammar lacks skips the grammar search
# (``search.unlike_grammar``), on made-up log-probabilities (the fake decoder of
# ``tests/support/fake_decoder.py``).

UNLIKE_TUNING = SearchTuning(near_sentences=0)
"""English's settings: no search of the nearest sentences."""

CHIPS = (("me", 5), ("the", 5), ("chips", 5), ("please", 5), (".", 5), ("<end>", 5))
"""A confident free transcript of four words, none of them a word of VOTE (too short to be
talk beyond every sentence of it: VOTE's longest has three)."""


def test_sure_talk_in_words_of_its_own_is_not_searched() -> None:
    decoder = TableDecoder(say(*CHIPS))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16, tuning=UNLIKE_TUNING)
    assert decoder.calls == 1  # the free decode only
    assert not got.accepted and got.reading is None and got.reason is Rejection.FOREIGN
    assert got.free_text == "me the chips please"


def test_the_same_talk_is_searched_when_the_skip_is_off() -> None:
    decoder = TableDecoder(say(*CHIPS))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16,
                tuning=replace(UNLIKE_TUNING, skip_talk=False))
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN


def test_talk_mostly_in_the_grammar_s_words_is_searched() -> None:
    said = (("i", 5), ("vote", 5), ("yes", 5), ("please", 5), (".", 5), ("<end>", 5))
    decoder = TableDecoder(say(*said))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16, tuning=UNLIKE_TUNING)
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN


def test_short_or_unsure_talk_is_searched() -> None:
    short = (("the", 5), ("chips", 5), (".", 5), ("<end>", 5))
    decoder = TableDecoder(say(*short))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16, tuning=UNLIKE_TUNING)
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN
    unsure = tuple((word, 0.5) for word, _ in CHIPS)
    decoder = TableDecoder(say(*unsure), floor=0.0)
    got = judge(decoder, searches(VOTE), VOCAB, cap=16, tuning=UNLIKE_TUNING)
    assert got.free_logp < UNLIKE_TUNING.foreign_logp
    assert got.reason is not Rejection.FOREIGN


def test_a_command_cut_in_two_is_searched() -> None:
    # "do" is letters of "undo": two of three words are the grammar's
    said = (("and", 5), ("do", 5), ("please", 5), (".", 5), ("<end>", 5))
    grammar = "#JSGF V1.0;\ngrammar answer;\npublic <s> = undo please | yes | no;\n"
    decoder = TableDecoder(say(*said))
    got = judge(decoder, searches(grammar), VOCAB, cap=16, tuning=UNLIKE_TUNING)
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN


def test_where_near_sentences_are_searched_nothing_is_skipped() -> None:
    decoder = TableDecoder(say(*CHIPS))
    got = judge(decoder, searches(VOTE), VOCAB, cap=16,
                tuning=replace(UNLIKE_TUNING, near_sentences=4))
    assert decoder.calls > 1 and got.reason is not Rejection.FOREIGN


def _unlike(free: str, document: str) -> bool:
    from voice_host.speech.search import unlike_grammar

    return unlike_grammar(free, -0.1, False, searches(document), UNLIKE_TUNING)


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


# A phase with likely words and an open slot (the Codenames clue): a likely-word reading
# taken only because it is spelled like the free transcript yields to the decoder's own
# words when they are a sure sentence of the open grammar (``search.own_words_instead``).
# On made-up log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``).

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


# A reading heard only through the decoder's prompt (``search.with_lift``,
# ``decision.primed``), on made-up log-probabilities (the fake decoder of
# ``tests/support/fake_decoder.py``): the same audio decoded with the phase's words as the
# prompt and without them. Talk the prompt turned into "i vote no" is no command; a command
# the prompt only helped is still one.

class Counting(TableDecoder):
    def __init__(self, table: dict[tuple[int, ...], dict[int, float]]) -> None:
        super().__init__(table)
        self.scored: list[int] = []

    def score(self, sentences: Sequence[tuple[int, ...]]) -> list[Scored]:
        self.scored.append(len(sentences))
        return super().score(sentences)


def prompted() -> TableDecoder:
    """With the prompt the decoder writes "i vote no" and is sure of it."""
    return TableDecoder(say(("i", 6), ("vote", 6), ("no", 6), ("<end>", 6)))


def lift_heard(prompt: TableDecoder) -> Judgement:
    return judge(prompt, searches(VOTE), VOCAB, cap=12, tuning=TUNING)


def test_talk_the_prompt_wrote_as_a_command_is_not_accepted() -> None:
    got = lift_heard(prompted())
    assert got.accepted and got.free_text == "i vote no"
    # without the prompt the same audio is "the chips": "i vote no" is far less likely
    alone = TableDecoder(say(("the", 6), ("chips", 6), ("<end>", 6)))
    lifted = with_lift(alone, got, TUNING)
    assert lifted.reading is not None and lifted.reading.lift > TUNING.prompt_lift
    assert not lifted.accepted and lifted.reason is Rejection.PRIMED
    assert lifted.confidence == 0.0
    assert lifted.free_lift > TUNING.prompt_lift
    assert lifted.figures()["rejected_because"] == "heard only through the prompt"


def test_a_command_the_prompt_only_helped_stays_accepted() -> None:
    got = lift_heard(prompted())
    # without the prompt the decoder still writes "i vote no", a little less sure of it
    alone = TableDecoder(say(("i", 4), ("vote", 4), ("no", 4), ("<end>", 4)))
    lifted = with_lift(alone, got, TUNING)
    assert lifted.accepted and lifted.reason is Rejection.NONE
    assert lifted.reading is not None and 0 < lifted.reading.lift < TUNING.prompt_lift
    assert lifted.confidence == got.confidence


def test_the_lift_is_measured_in_one_call_of_the_unprompted_decoder() -> None:
    got = lift_heard(prompted())
    alone = Counting(say(("the", 6), ("chips", 6), ("<end>", 6)))
    with_lift(alone, got, TUNING)
    assert alone.calls == 0 and alone.scored == [2]  # both readings, one batch
    assert got.free_tokens == ids("i", "vote", "no")
    assert got.reading is not None and got.reading.tokens == ids("i", "vote", "no")


def test_a_primed_free_transcript_is_no_confident_reading() -> None:
    got = lift_heard(prompted())
    alone = TableDecoder(say(("the", 6), ("chips", 6), ("<end>", 6)))
    lifted = with_lift(alone, got, TUNING)
    assert got.free_confident(1.0, TUNING)
    assert not lifted.free_confident(1.0, TUNING)
    assert lifted.free_certainty(TUNING) == 0.5
    vote_no = ("vote", "no")
    decision = decide_judgement(lifted, vote_no, vote_no, key=lambda m: m,
                                match_confidence=lambda m: 1.0, tuning=TUNING)
    assert decision.verdict is Verdict.NEITHER and decision.chosen is None


def test_a_primed_reading_refused_for_its_margin_is_not_taken_on_agreement() -> None:
    # the agreement rule takes a reading refused for its margin alone when the free
    # transcript reads as the same move; one heard only through the prompt is refused
    got = lift_heard(prompted())
    assert got.reading is not None
    low = replace(got, accepted=False, reason=Rejection.LOW_MARGIN,
                  reading=replace(got.reading, margin=-1.1))
    vote_no = ("vote", "no")
    decide = lambda j: decide_judgement(  # noqa: E731
        j, vote_no, vote_no, key=lambda m: m, match_confidence=lambda m: 0.9,
        # the free transcript itself unsure, no rule taking a reading spelled like it
        tuning=replace(TUNING, free_min_logp=0.0, near_close_margin=-1.0))
    assert decide(low).verdict is Verdict.AGREE
    assert low.reading is not None
    primed = replace(low, reading=replace(low.reading, lift=3.0))
    assert decide(primed).verdict is Verdict.NEITHER


def test_the_rule_can_be_turned_off_and_its_figures_come_back() -> None:
    got = lift_heard(prompted())
    alone = TableDecoder(say(("the", 6), ("chips", 6), ("<end>", 6)))
    off = SearchTuning(prompt_lift=100.0)
    lifted = with_lift(alone, got, off)
    assert lifted.accepted
    record = with_lift(alone, got, TUNING).figures()
    again = Judgement.from_figures(record)
    assert again.reading is not None and again.reading.lift == record["lift"]
    assert again.free_lift == record["free_lift"]
    assert again.rejection_of(again.reading, TUNING) is Rejection.PRIMED


def test_nothing_is_measured_for_a_looped_or_unsure_transcript_without_a_reading() -> None:
    unsure = Judgement("i vote no", -2.0, False, None, False, Rejection.NO_SENTENCE, 0.0,
                       free_tokens=ids("i", "vote", "no"))
    alone = TableDecoder(say(("the", 6), ("<end>", 6)))
    assert with_lift(alone, unsure, TUNING) is unsure
    looped = replace(unsure, free_logp=-0.1, looped=True)
    assert with_lift(alone, looped, TUNING) is looped


def test_a_single_word_the_prompt_made_heard_is_still_taken() -> None:
    # the prompt is there to make single words heard (a board word, "pass"): without it
    # the decoder writes "well" for "bell"; a one-word reading is never "primed"
    prompt = TableDecoder(say(("bell", 6), ("<end>", 6)))
    got = judge(prompt, searches(BOOK), VOCAB, cap=12, tuning=TUNING)
    assert got.accepted and got.reading is not None and got.reading.text == "bell"
    alone = TableDecoder(say(("well", 6), ("<end>", 6)))
    lifted = with_lift(alone, got, TUNING)
    assert lifted.reading is not None and lifted.reading.lift > TUNING.prompt_lift
    assert lifted.accepted and lifted.free_confident(1.0, TUNING)
    # were the rule to hold for single words too, it would be refused
    every_sentence = replace(TUNING, prompt_lift_words=1)
    assert not with_lift(alone, got, every_sentence).accepted
