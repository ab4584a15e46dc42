"""A reading heard only through the decoder's prompt (``search.with_lift``,
``decision.primed``), on made-up log-probabilities (the fake decoder of
``tests/support/fake_decoder.py``): the same audio decoded with the phase's words as the prompt and
without them. Talk the prompt turned into "i vote no" is no command; a command the prompt
only helped is still one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tests.support.fake_decoder import BOOK, TUNING, VOCAB, VOTE, TableDecoder, ids, say, searches
from voice_host.speech.decision import (
    Judgement,
    Rejection,
    SearchTuning,
    Verdict,
    decide_judgement,
)
from voice_host.speech.search import Scored, judge, with_lift


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


def heard(prompt: TableDecoder) -> Judgement:
    return judge(prompt, searches(VOTE), VOCAB, cap=12, tuning=TUNING)


def test_talk_the_prompt_wrote_as_a_command_is_not_accepted() -> None:
    got = heard(prompted())
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
    got = heard(prompted())
    # without the prompt the decoder still writes "i vote no", a little less sure of it
    alone = TableDecoder(say(("i", 4), ("vote", 4), ("no", 4), ("<end>", 4)))
    lifted = with_lift(alone, got, TUNING)
    assert lifted.accepted and lifted.reason is Rejection.NONE
    assert lifted.reading is not None and 0 < lifted.reading.lift < TUNING.prompt_lift
    assert lifted.confidence == got.confidence


def test_the_lift_is_measured_in_one_call_of_the_unprompted_decoder() -> None:
    got = heard(prompted())
    alone = Counting(say(("the", 6), ("chips", 6), ("<end>", 6)))
    with_lift(alone, got, TUNING)
    assert alone.calls == 0 and alone.scored == [2]  # both readings, one batch
    assert got.free_tokens == ids("i", "vote", "no")
    assert got.reading is not None and got.reading.tokens == ids("i", "vote", "no")


def test_a_primed_free_transcript_is_no_confident_reading() -> None:
    got = heard(prompted())
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
    got = heard(prompted())
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
    got = heard(prompted())
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
