"""The grammar search and the two-reading decision on made-up log-probabilities: a fake
decoder whose next-token scores come from a table, so every outcome here is exact and the
same on every CPU (the real model's rates are measured by ``voice-host bench``)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tests.support.fake_decoder import (
    BOOK,
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
from voice_host.speech.decision import (
    Candidate,
    GrammarReading,
    Judgement,
    Rejection,
    SearchTuning,
    Verdict,
    command_in_talk,
    decide,
    decide_judgement,
    free_is_talk,
    rejection,
    split_word,
    without_loops,
)
from voice_host.speech.search import judge


def test_the_decoders_own_words_in_the_grammar_are_accepted_with_no_margin() -> None:
    table = say(("i", 5), ("vote", 5), ("yes", 5), (".", 5), ("<end>", 5))
    got = run(table)
    assert got.accepted and got.reason is Rejection.NONE
    assert got.reading is not None and got.reading.text == "i vote yes"
    assert got.reading.margin == pytest.approx(0.0, abs=1e-9)
    assert got.free_text == "i vote yes" and got.confidence == 1.0
    assert got.reading.similarity == 1.0


def test_the_search_finds_the_grammar_sentence_the_decoder_nearly_wrote() -> None:
    # the decoder prefers " Bye" (not in the grammar) but " book" is close behind
    table = say(("bye", 6), ("<end>", 6))
    table[()][IDS["book"]] = 5.7
    table[(IDS["book"],)] = {EOT: 6}
    got = run(table, BOOK)
    assert got.free_text == "bye"
    assert got.reading is not None and got.reading.text == "book"
    # one step gave up 0.3 nats, end-of-text none: mean margin -0.15 over 2 steps
    assert got.reading.margin == pytest.approx(-0.15, abs=0.01)
    assert got.accepted


def test_table_talk_forced_onto_a_command_is_rejected_by_its_margin() -> None:
    # "pass me the chips": the grammar can only stop after "pass", which the decoder finds
    # very unlikely
    table = say(("pass", 5), ("me", 5), ("the", 5), ("chips", 5), ("<end>", 5))
    table[(IDS["pass"],)][EOT] = -2.0
    got = run(table)
    assert got.free_text == "pass me the chips"
    assert got.reading is not None and got.reading.text == "pass"
    assert not got.accepted and got.reason is Rejection.LOW_MARGIN
    assert got.confidence == 0.0


def test_nothing_in_the_grammar_gives_no_reading() -> None:
    table = say(("the", 5), ("chips", 5), ("<end>", 5))
    # no token of the vocabulary can spell the grammar's only word
    got = run(table, "#JSGF V1.0;\ngrammar g;\npublic <s> = zebra;\n")
    assert got.reading is None and got.reason is Rejection.NO_SENTENCE
    assert got.free_text == "the chips"


def test_a_near_rival_with_another_meaning_is_an_alternative() -> None:
    table = say(("i", 5), ("vote", 5), ("yes", 5), ("<end>", 5))
    table[ids("i", "vote")][IDS["no"]] = 4.9
    table[ids("i", "vote", "no")] = {EOT: 5}
    # (a free decode already sure of its sentence is not searched further: here it is not)
    got = run(table, tuning=SearchTuning(sure_margin=0.01))
    assert got.accepted and got.reading is not None and got.reading.text == "i vote yes"
    assert got.alternatives == ("i vote no",)


def test_a_far_rival_is_no_alternative() -> None:
    table = say(("i", 5), ("vote", 5), ("yes", 5), ("<end>", 5))
    table[ids("i", "vote")][IDS["no"]] = 2.0
    table[ids("i", "vote", "no")] = {EOT: 5}
    assert run(table, tuning=SearchTuning(sure_margin=0.01)).alternatives == ()


def test_rivals_that_change_no_word_do_not_crowd_out_the_grammar_sentence() -> None:
    # the decoder writes "I vote approve"; a comma or a capital after its in-grammar words
    # is nearly as likely as its own token but changes no word of any reading, while
    # "i vote yes" costs 2.5 nats at its last word
    table = say(("i", 0.0), ("vote", 0.0), ("approve", 0.0), ("<end>", 0.0))
    table[ids("i")].update({IDS[","]: -0.3, IDS["VOTE"]: -0.1})
    table[ids("i", "vote")].update({IDS[","]: -0.2, IDS["yes"]: -2.5})
    # after the comma or the capital the decoder goes on as before
    table[ids("i", ",")] = dict(table[ids("i")])
    table[ids("i", "VOTE")] = dict(table[ids("i", "vote")])
    table[ids("i", "vote", ",")] = dict(table[ids("i", "vote")])
    table[ids("i", "vote", "yes")] = {EOT: 0.0}
    tight = SearchTuning(batch=1, rounds=2, near_sentences=0)
    got = run(table, tuning=tight)
    assert got.reading is not None and got.reading.text == "i vote yes"
    # a full stop that ends a sentence is still tried: "yes." then the end
    stop = say(("yes", 0.0), ("approve", 0.0), ("<end>", 0.0))
    stop[ids("yes")].update({IDS["."]: -0.5, EOT: -6.0})
    stop[ids("yes", ".")] = {EOT: 0.0}
    ended = run(stop, tuning=tight)
    assert ended.reading is not None and ended.reading.text == "yes"
    assert ended.reading.margin == pytest.approx(-0.5 / 3, abs=0.01)


def test_a_sure_free_decode_needs_no_rollout() -> None:
    decoder = TableDecoder(say(("yes", 5), ("<end>", 5)))
    judge(decoder, searches(VOTE), VOCAB, cap=12, tuning=TUNING)
    assert decoder.calls == 1  # the free decode alone


def test_the_search_is_bounded_by_its_rounds() -> None:
    decoder = TableDecoder(say(("the", 5), ("chips", 5), ("<end>", 5)), floor=4.0)
    judge(decoder, searches(VOTE), VOCAB, cap=12, tuning=SearchTuning(rounds=2))
    assert decoder.calls <= 1 + 2


def test_extra_rounds_only_while_nothing_was_found() -> None:
    # every rollout writes " the" (out of the grammar) whatever its prefix: the search
    # advances one in-grammar token per round, so "i vote yes" needs the extra rounds
    table: dict[tuple[int, ...], dict[int, float]] = {}
    for prefix in ((), ids("i"), ids("i", "vote")):
        table[prefix] = {IDS["the"]: 6, {(): IDS["i"], ids("i"): IDS["vote"],
                                         ids("i", "vote"): IDS["yes"]}[prefix]: 5.5}
    table[ids("i", "vote", "yes")] = {EOT: 6}
    tight = SearchTuning(rounds=1, rescue_rounds=0)
    assert run(table, tuning=tight).reading is None
    rescued = run(table, tuning=SearchTuning(rounds=1, rescue_rounds=2))
    assert rescued.reading is not None and rescued.reading.text == "i vote yes"


def reading(text: str, margin: float, steps: int, similarity: float = 1.0) -> GrammarReading:
    return GrammarReading(text, margin, margin - 0.1, steps, similarity)


@pytest.mark.parametrize(("margin", "steps", "expected"), [
    (-0.5, 2, Rejection.NONE),          # a single word, close enough
    (-0.7, 2, Rejection.LOW_MARGIN),    # a single word needs more than a sentence
    (-0.7, 5, Rejection.NONE),          # the same margin on a sentence is enough
    (-0.9, 5, Rejection.LOW_MARGIN),
])
def test_short_words_need_a_better_margin_than_sentences(margin: float, steps: int,
                                                         expected: Rejection) -> None:
    # a transcript only somewhat like the reading: the margin decides
    assert rejection(reading("x", margin, steps, similarity=0.6), TUNING) is expected


def test_a_middling_margin_must_read_like_the_transcript() -> None:
    assert rejection(reading("pass", -0.5, 5, similarity=0.2), TUNING) \
        is Rejection.UNLIKE_TRANSCRIPT
    assert rejection(reading("pass", -0.1, 5, similarity=0.2), TUNING) is Rejection.NONE


def test_a_short_word_heard_wrongly_is_caught_by_the_single_word_threshold() -> None:
    # "well" for "bell": the grammar sentence "bell" costs 1.4 nats at its only word
    table = say(("well", 6), ("<end>", 6))
    table[()][IDS["bell"]] = 4.6
    table[(IDS["bell"],)] = {EOT: 6}
    got = run(table, BOOK)
    assert got.reading is not None and got.reading.text == "bell"
    assert not got.accepted and got.reason is Rejection.LOW_MARGIN
    looser = run(table, BOOK, tuning=SearchTuning(short_accept_margin=-0.8))
    assert looser.accepted


def test_a_looping_free_decode_is_cut_capped_and_not_trusted() -> None:
    table: dict[tuple[int, ...], dict[int, float]] = {}
    prefix: tuple[int, ...] = ()
    for _ in range(20):  # "yes yes yes ..." and never an end
        table[prefix] = {IDS["yes"]: 5}
        prefix = (*prefix, IDS["yes"])
    decoder = TableDecoder(table)
    got = judge(decoder, searches(VOTE), VOCAB, cap=8, tuning=TUNING)
    assert got.looped and got.free_text == "yes"
    assert not got.free_confident(1.0, TUNING)
    assert got.free_certainty(TUNING) == 0.0


def test_loops_are_cut_from_a_transcript() -> None:
    assert without_loops("for the full full full full") == "for the full"
    assert without_loops("i vote yes i vote yes i vote yes") == "i vote yes"
    assert without_loops("sophie and thomas") == "sophie and thomas"


def test_the_free_reading_is_confident_only_when_the_decoder_and_matcher_both_are() -> None:
    sure = run(say(("yes", 5), ("approve", 5), ("<end>", 5)))
    assert sure.free_text == "yes approve" and not sure.looped
    assert sure.free_confident(1.0, TUNING)
    assert not sure.free_confident(0.5, TUNING)  # the matcher only half recognizes it
    # every token nearly as likely as the one written: the decoder was guessing
    unsure = run(say(("yes", 0.1), ("approve", 0.1), ("<end>", 0.1)), floor=0.0)
    assert unsure.free_logp < TUNING.free_min_logp
    assert not unsure.free_confident(1.0, TUNING)
    assert unsure.free_certainty(TUNING) == 0.5


# --------------------------------------------------------------------------- decide


def c(meaning: str, confident: bool) -> Candidate[str]:
    return Candidate(meaning, meaning.split("#")[0], confident)


@pytest.mark.parametrize(("grammar", "free", "verdict", "chosen", "other"), [
    (c("yes", True), c("yes#free", True), Verdict.AGREE, "yes", None),
    (c("yes", True), c("yes#free", False), Verdict.AGREE, "yes", None),
    (c("yes", False), c("yes#free", True), Verdict.AGREE, "yes#free", None),
    (c("yes", True), None, Verdict.GRAMMAR, "yes", None),
    (c("yes", True), c("no", False), Verdict.GRAMMAR, "yes", None),
    (None, c("approve", True), Verdict.FREE, "approve", None),
    (c("pass", False), c("approve", True), Verdict.FREE, "approve", None),
    (c("yes", True), c("no", True), Verdict.ASK, "yes", "no"),
    (c("yes", False), c("no", False), Verdict.NEITHER, None, None),
    (None, None, Verdict.NEITHER, None, None),
])
def test_two_readings_one_decision(grammar: Candidate[str] | None, free: Candidate[str] | None,
                                   verdict: Verdict, chosen: str | None,
                                   other: str | None) -> None:
    decision = decide(grammar, free)
    assert (decision.verdict, decision.chosen, decision.other) == (verdict, chosen, other)


CROWDED = ("#JSGF V1.0;\ngrammar crowded;\n"
           "public <s> = book | bell | well | pass | approve | chips | the | i vote yes;\n")


def crowded_table(first: float) -> dict[tuple[int, ...], dict[int, float]]:
    """The decoder freely writes "Bye me vote yes"; at the first step seven one-word
    sentences are likelier than " I", whose sentence it then says with certainty."""
    table = say(("bye", 0.0), ("me", 0.0), ("vote", 0.0), ("yes", 0.0), ("<end>", 0.0))
    for rank, word in enumerate(("book", "bell", "well", "pass", "approve", "chips", "the")):
        table[()][IDS[word]] = -1.0 - 0.2 * rank
    table[()][IDS["i"]] = first
    table[ids("i")] = {IDS["vote"]: 0.0}
    table[ids("i", "vote")] = {IDS["yes"]: 0.0}
    table[ids("i", "vote", "yes")] = {EOT: 0.0}
    return table


def test_the_nearest_sentences_are_searched_when_the_grammar_search_finds_none_good() -> None:
    table = crowded_table(-2.5)
    # alone, the search branches to the seven likelier words and never tries " I" (the
    # skip of talk in words the grammar lacks off: this is the search alone)
    alone = run(table, CROWDED, tuning=SearchTuning(near_sentences=0, skip_talk=False))
    assert not alone.accepted
    assert alone.reading is not None and alone.reading.text == "book"
    # the grammar's sentence nearest "bye me vote yes" letter by letter is tried too
    judged = run(table, CROWDED)
    assert judged.accepted and judged.reading is not None
    assert judged.reading.text == "i vote yes"
    assert judged.reading.margin == pytest.approx(-2.5 / 4, abs=0.02)
    assert judged.reading.near and not alone.reading.near  # which search found it


def test_a_near_sentence_is_judged_as_strictly_as_any() -> None:
    # the same nearness, but the decoder finds " I" far less likely: rejected on its margin
    judged = run(crowded_table(-5.0), CROWDED)
    assert not judged.accepted  # (the first search's rejected reading is kept)
    near = run(crowded_table(-5.0), "#JSGF V1.0;\ngrammar v;\npublic <s> = i vote yes;\n")
    assert near.reading is not None and near.reading.text == "i vote yes"
    assert not near.accepted and near.reason is Rejection.LOW_MARGIN
    # and talk far from every sentence gets no near sentence at all
    far = run(say(("the", 0.0), ("chips", 0.0), ("me", 0.0), ("the", -0.1), ("chips", -0.1),
                  ("<end>", 0.0)), CROWDED)
    assert not far.accepted


UNDO = "#JSGF V1.0;\ngrammar answer;\npublic <s> = undo please | yes | no;\n"


@pytest.mark.parametrize(("undo", "accepted"), [(-3.3, True), (-4.5, False)])
def test_a_near_sentence_spelled_letter_for_letter_is_taken_down_to_the_close_margin(
        undo: float, accepted: bool) -> None:
    # the decoder cut "undo please" as "and do please": the grammar reading costs it a
    # middling margin (-1.1 a step: beyond what reading alike earns), and its letters are
    # nearly the transcript's
    table = say(("and", 0.0), ("do", 0.0), ("please", 0.0), ("<end>", 0.0))
    table[()][IDS["undo"]] = undo
    table[ids("undo")] = {IDS["please"]: 0.0}
    table[ids("undo", "please")] = {EOT: 0.0}
    judged = run(table, UNDO)
    assert judged.reading is not None and judged.reading.text == "undo please"
    assert judged.accepted is accepted
    if accepted:
        assert judged.confidence == 0.6  # the lowest: the host confirms it first
    # the first search's own sentence is judged on its spelling too
    assert run(table, UNDO, tuning=SearchTuning(near_sentences=0)).accepted is accepted


@pytest.mark.parametrize(("margin", "similarity", "expected"), [
    (-0.9, 0.85, Rejection.NONE),        # "we'll pick the boat" for "we'll pick the mode"
    (-1.1, 0.85, Rejection.LOW_MARGIN),  # too forced, however alike
    (-0.9, 0.75, Rejection.LOW_MARGIN),  # "bell" for "well" is not alike enough
    (-0.8, 1.0, Rejection.NONE),         # a single word written exactly ("pardon")
])
def test_a_reading_like_the_transcript_is_taken_down_to_the_close_margin(
        margin: float, similarity: float, expected: Rejection) -> None:
    steps = 3 if similarity == 1.0 else 6
    assert rejection(reading("x", margin, steps, similarity), TUNING) is expected


@pytest.mark.parametrize(("text", "margin", "similarity", "expected"), [
    ("which words are left", -0.85, 0.76, Rejection.NONE),   # "which was on left"
    ("which words are left", -1.1, 0.76, Rejection.LOW_MARGIN),  # too forced even so
    ("which words are left", -0.85, 0.65, Rejection.LOW_MARGIN),  # not alike enough
    ("end turn", -0.85, 0.76, Rejection.LOW_MARGIN),         # two words: the usual bar
    ("bell", -0.85, 0.76, Rejection.LOW_MARGIN),             # "well" is another word
])
def test_a_long_reading_counts_as_close_from_a_lower_similarity(
        text: str, margin: float, similarity: float, expected: Rejection) -> None:
    long_bar = replace(TUNING, long_close_similarity=0.7)
    heard = reading(text, margin, len(text.split()) + 2, similarity)
    assert rejection(heard, long_bar) is expected


def test_by_default_a_long_reading_needs_the_close_rule_s_own_similarity() -> None:
    assert rejection(reading("which words are left", -0.85, 6, 0.76),
                     TUNING) is Rejection.LOW_MARGIN


@pytest.mark.parametrize(("free_text", "margin", "expected"), [
    ("and turn", -1.1, Rejection.NONE),         # spelled alike: down to -1.2
    ("and turn", -1.3, Rejection.LOW_MARGIN),   # too forced even so
    ("the turn", -1.1, Rejection.LOW_MARGIN),   # not spelled alike
])
def test_a_sentence_the_transcript_spells_letter_for_letter_is_taken_down_to_its_margin(
        free_text: str, margin: float, expected: Rejection) -> None:
    # "end turn" written "and turn": the decoder's own word cost the sentence its margin
    heard = reading("end turn", margin, 4, similarity=0.7)
    judged = Judgement(free_text, -0.4, False, heard, False, Rejection.LOW_MARGIN, 0.0)
    assert judged.rejection_of(heard, TUNING) is expected
    # a single word is never taken on its spelling alone ("well" for "bell")
    bell = reading("bell", -0.8, 3, similarity=0.75)
    single = Judgement("well", -0.4, False, bell, False, Rejection.LOW_MARGIN, 0.0)
    assert single.rejection_of(bell, TUNING) is Rejection.LOW_MARGIN


@pytest.mark.parametrize(("free_logp", "margin", "similarity", "expected"), [
    (-0.61, -0.95, 0.83, Rejection.NONE),       # "better", unsure, for the board's "butter"
    (-0.92, -0.76, 0.75, Rejection.NONE),       # "take" for "cake"
    (-0.40, -0.76, 0.75, Rejection.LOW_MARGIN),  # the decoder sure of its own word
    (-0.92, -1.10, 0.75, Rejection.LOW_MARGIN),  # too forced even so
    (-0.92, -0.76, 0.60, Rejection.LOW_MARGIN),  # not alike enough
])
def test_a_single_word_like_an_unsure_transcript_is_taken_down_to_the_close_margin(
        free_logp: float, margin: float, similarity: float, expected: Rejection) -> None:
    word = reading("butter", margin, 3, similarity=similarity)
    judged = Judgement("better", free_logp, False, word, False, Rejection.LOW_MARGIN, 0.0)
    assert judged.rejection_of(word, TUNING) is expected


def test_a_reading_unlike_a_much_longer_unsure_transcript_needs_a_sure_margin() -> None:
    # talk in noise ("yes the new types of high speed ones", written unsurely) forced onto
    # "yes it is" at a margin good enough for a short answer (with a sure_alone bar below
    # the sure margin, as English had)
    tuning = replace(TUNING, sure_alone=-0.2)
    forced = reading("yes it is", -0.19, 6, similarity=0.36)
    assert rejection(forced, tuning) is Rejection.NONE
    assert rejection(forced, tuning, free_longer=True) is Rejection.UNLIKE_TRANSCRIPT
    sure = reading("yes it is", -0.1, 6, similarity=0.36)
    assert rejection(sure, tuning, free_longer=True) is Rejection.NONE
    unsure = Judgement("yes the new types of high speed ones", -1.9, False, forced, True,
                       Rejection.NONE, 0.9)
    assert unsure.rejection_of(forced, tuning) is Rejection.UNLIKE_TRANSCRIPT
    # one word more is no talk: the margin alone decides
    near = Judgement("yes it is so", -1.9, False, forced, True, Rejection.NONE, 0.9)
    assert near.rejection_of(forced, tuning) is Rejection.NONE
    # English's own bar asks that sure margin of every reading unlike its transcript
    assert rejection(forced, TUNING) is Rejection.UNLIKE_TRANSCRIPT


def test_a_reading_unlike_a_confident_transcript_is_rejected_even_at_a_sure_margin() -> None:
    sure = reading("pass", -0.1, 5, similarity=0.2)
    assert rejection(sure, TUNING, free_sure=True) is Rejection.UNLIKE_TRANSCRIPT
    assert rejection(sure, TUNING, free_sure=False) is Rejection.NONE
    # a reading like the transcript is unaffected
    assert rejection(reading("pass", -0.1, 5, similarity=0.8), TUNING, True) is Rejection.NONE
    assert free_is_talk("pass me the chips", -0.3, False, "pass", TUNING)
    assert not free_is_talk("pass me the chips", -0.3, True, "pass", TUNING)  # looped
    assert not free_is_talk("pass me the chips", -1.5, False, "pass", TUNING)  # unsure
    assert not free_is_talk("bye", -0.1, False, "book", TUNING)  # a word for a word
    assert not free_is_talk("", 0.0, False, "book", TUNING)


def test_clear_table_talk_is_not_forced_onto_a_short_answer() -> None:
    # the decoder writes "the chips me" with certainty, but "book" then end-of-text is
    # close behind at every step: a sure-looking margin, a sentence unlike what it wrote
    table = say(("the", 0.0), ("chips", 0.0), ("me", 0.0), ("<end>", 0.0))
    table[()][IDS["book"]] = -0.15
    table[ids("book")] = {EOT: 0.0}
    judged = run(table, BOOK)
    assert judged.reading is not None and judged.reading.text == "book"
    assert judged.reading.margin > TUNING.sure_alone
    assert not judged.accepted and judged.reason is Rejection.UNLIKE_TRANSCRIPT
    # when the transcript itself is unsure (flat at every step), the margin alone decides
    flat = say(("the", 0.0), ("chips", 0.0), ("me", 0.0), ("<end>", 0.0))
    for row in list(flat.values()):
        for word in ("me", "well", "pass", "approve"):
            row.setdefault(IDS[word], -0.05)
    flat[()][IDS["book"]] = -0.15
    flat[ids("book")] = {EOT: 0.0}
    unsure = run(flat, BOOK)
    assert unsure.free_logp < TUNING.free_min_logp
    assert unsure.accepted and unsure.reading is not None and unsure.reading.text == "book"


@pytest.mark.parametrize(("free_text", "reading", "buried"), [
    ("Honestly, I have no idea what is going on.", "what is going on", True),
    ("i vote no more cards from last time", "i vote no", True),
    ("what can i say now what can i say now", "what can i say now", False),  # said twice
    ("what's this score now what's the score now", "what's the score now", False),  # twice
    ("I don't need to hear that", "i didn't hear that", False),  # not the same words
    ("what is going on", "what is going on", False),  # not longer
    ("what is going on here", "what is going on", False),  # one word more: not talk
])
def test_a_command_buried_in_sure_talk(free_text: str, reading: str, buried: bool) -> None:
    assert command_in_talk(free_text, -0.1, False, reading, TUNING) is buried
    # an unsure or looped transcript is no evidence of talk
    assert not command_in_talk(free_text, TUNING.free_min_logp - 1, False, reading, TUNING)
    assert not command_in_talk(free_text, -0.1, True, reading, TUNING)


def test_a_command_buried_in_talk_is_taken_only_when_the_talk_reads_as_a_command() -> None:
    sure = c("status", True)
    assert decide(sure, None, free_talk=True).verdict is Verdict.NEITHER
    assert decide(sure, None, free_talk=False).verdict is Verdict.GRAMMAR
    # the matcher found the command in the whole transcript: the readings agree
    assert decide(sure, c("status", True), free_talk=True).verdict is Verdict.AGREE


def test_a_judgement_comes_back_from_its_recorded_figures() -> None:
    # the recognition benchmark decides again from these records: they must round-trip
    reading = GrammarReading("vote yes", -0.3, -0.9, 4, 0.75)
    judged = Judgement("i vote yes", -0.25, False, reading, True, Rejection.NONE, 0.9,
                       ("vote no",), open_phase=True)
    back = Judgement.from_figures(judged.figures() | {"open_phase": 1})
    assert back.reading == GrammarReading("vote yes", -0.3, -0.9, 4, 0.75)
    assert (back.free_text, back.free_logp, back.looped) == ("i vote yes", -0.25, False)
    assert back.accepted and back.reason is Rejection.NONE and back.open_phase
    silent = Judgement("", -math.inf, False, None, False, Rejection.NO_AUDIO, 0.0)
    assert Judgement.from_figures(silent.figures()).reading is None
    assert Judgement.from_figures(silent.figures()).reason is Rejection.NO_AUDIO


@pytest.mark.parametrize(("margin", "free_logp", "taken"), [
    (-0.52, -0.81, False),  # unsure against an unsure, contrary free transcript: neither
    (-0.10, -0.81, True),  # a sure grammar reading stands
])
def test_an_unsure_reading_is_not_taken_against_a_contrary_free_transcript(
        margin: float, free_logp: float, taken: bool) -> None:
    reading = GrammarReading("i vote yes", margin, margin - 0.3, 4, 0.74)
    judged = Judgement("i vote no", free_logp, False, reading, True, Rejection.NONE, 0.7)

    def decided(free: str | None) -> Verdict:
        return decide_judgement(judged, "vote yes", free, key=lambda m: m,
                                match_confidence=lambda m: 1.0, tuning=TUNING).verdict

    assert decided("vote no") is (Verdict.GRAMMAR if taken else Verdict.NEITHER)
    assert decided(None) is Verdict.GRAMMAR  # the free transcript read as nothing
    assert decided("vote yes") is Verdict.AGREE  # the same command


def test_a_free_transcript_the_matcher_only_guessed_at_is_no_contrary_reading() -> None:
    """"moth" heard by the grammar search at -0.30; Whisper's own "noth" read by the
    matcher's near-miss guess as "knight" (0.6): the guess does not refuse the sentence."""
    reading = GrammarReading("moth", -0.30, -0.6, 3, 0.75)
    judged = Judgement("noth", -0.76, False, reading, True, Rejection.NONE, 0.87)

    def decided(guessed: float) -> Verdict:
        return decide_judgement(judged, "moth", "knight", key=lambda m: m,
                                match_confidence=lambda m: 1.0 if m == "moth" else guessed,
                                tuning=TUNING).verdict

    assert decided(0.6) is Verdict.GRAMMAR
    assert decided(1.0) is Verdict.NEITHER  # read exactly as another command: refused


@pytest.mark.parametrize(("free_text", "sentence", "split"), [
    ("good ball for two", "football for two", True),  # cost 0.19
    ("the clue is foot ball one", "the clue is football one", True),  # the word's letters
    ("pet ball for one", "football for one", True),  # 0.31
    ("the ball for one", "football for one", False),  # 0.44: another word
    ("i vote no", "i vote yes", False),  # nothing split
    ("good ball for three", "football for two", False),  # another number too
    ("football for two", "football for two", False),  # the same sentence
    ("sun flower two", "sunflower two", True),
])
def test_a_word_the_free_transcript_cut_in_two(free_text: str, sentence: str,
                                               split: bool) -> None:
    assert split_word(free_text, sentence, TUNING.split_cost) is split


def test_a_free_transcript_that_cut_the_sentence_s_word_in_two_is_no_rival() -> None:
    """A demo game's "football for two", written "good ball for two" by Whisper (a
    confident clue of two words) and heard whole by the grammar search at -0.35: the
    sentence is taken, not asked about; a free transcript that is another sentence is
    still a rival."""
    reading = GrammarReading("football for two", -0.35, -1.9, 5, 0.85)

    def decided(free_text: str, free: str, split_cost: float = TUNING.split_cost) -> Verdict:
        judged = Judgement(free_text, -0.30, False, reading, True, Rejection.NONE, 0.7)
        return decide_judgement(judged, "clue football 2", free, key=lambda m: m,
                                match_confidence=lambda m: 1.0,
                                tuning=replace(TUNING, split_cost=split_cost)).verdict

    assert decided("good ball for two", "clue two words good ball 2") is Verdict.GRAMMAR
    assert decided("good ball for two", "clue two words good ball 2",
                   split_cost=0.0) is Verdict.ASK
    assert decided("goodwill for two", "clue goodwill 2") is Verdict.ASK


@pytest.mark.parametrize(("margin", "free", "confidence", "looped", "agree_margin", "taken"), [
    (-1.17, "guess stone", 0.85, False, -1.2, True),  # the demo's "guest stone"
    (-1.17, "guess stone", 0.85, False, 0.0, False),  # the rule off
    (-1.30, "guess stone", 0.85, False, -1.2, False),  # below the floor
    (-1.17, "guess stone", 0.60, False, -1.2, False),  # the matcher only guessed
    (-1.17, "guess stone", 0.85, True, -1.2, False),  # a looped transcript vouches for nothing
    (-1.17, "guess snow", 0.85, False, -1.2, False),  # another move: no agreement
])
def test_an_unsure_free_transcript_of_the_same_move_vouches_for_a_refused_sentence(
        margin: float, free: str, confidence: float, looped: bool, agree_margin: float,
        taken: bool) -> None:
    reading = GrammarReading("stone", margin, margin - 0.5, 3, 0.62)
    judged = Judgement("guest stone", -1.00, looped, reading, False, Rejection.LOW_MARGIN,
                       0.0)
    tuning = replace(TUNING, agree_margin=agree_margin)
    assert judged.rejection_of(reading, tuning) is Rejection.LOW_MARGIN
    decision = decide_judgement(judged, "guess stone", free, key=lambda m: m,
                                match_confidence=lambda m: confidence, tuning=tuning)
    assert decision.chosen == ("guess stone" if taken else None)


def test_only_a_sentence_refused_for_its_margin_is_vouched_for() -> None:
    """A sentence refused as unlike the free transcript is not taken back by that
    transcript's reading: the rule is for a margin lost where the two read alike enough."""
    reading = GrammarReading("stone", -0.5, -1.0, 3, 0.3)
    judged = Judgement("i think the stone one is risky", -0.8, False, reading, False,
                       Rejection.UNLIKE_TRANSCRIPT, 0.0)
    assert judged.rejection_of(reading, TUNING) is Rejection.UNLIKE_TRANSCRIPT
    decision = decide_judgement(judged, "guess stone", "guess stone", key=lambda m: m,
                                match_confidence=lambda m: 0.85, tuning=TUNING)
    assert decision.chosen is None
