"""How many rounds the grammar search gives a reading (voice_host.speech.search), on
made-up log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``)."""

from __future__ import annotations

from dataclasses import replace

from tests.support.fake_decoder import (
    EOT,
    IDS,
    OPEN,
    TUNING,
    VOCAB,
    VOTE,
    TableDecoder,
    drifting,
    ids,
    run,
    say,
    searches,
)
from voice_host.speech.decision import SearchTuning
from voice_host.speech.search import judge

# A grammar sentence cut short by the search ("la lapin" for "la lapin pour jack") is tried
# further when the decoder wrote more (``SearchTuning.complete_rounds``), on made-up
# log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``).

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


# A phase with an open slot searches its likely words first, then the slot open to any
# word; the second search gets its own rounds (``SearchTuning.open_rounds``). On made-up
# log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``).

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


# The rescue rounds (``SearchTuning.rescue_rounds``) only where the free decode began as
# the grammar does (``SearchTuning.rescue_from``): "the clueless house too" starts like "the
# clue is house two", table talk mostly leaves the grammar at its first word. On made-up
# log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``).

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


def rescue_calls(document: list[str], tuning: SearchTuning) -> int:
    decoder = TableDecoder(drifting(False))
    judge(decoder, [s for d in document for s in searches(d)], VOCAB, cap=12, tuning=tuning)
    return decoder.calls


def test_the_gate_reads_the_first_grammar_not_the_open_slot() -> None:
    # " the" stays inside the second grammar (as any word stays inside an open slot), not
    # inside the first: the rescue rounds stay off for both searches
    gated = SearchTuning(rounds=1, rescue_rounds=3, rescue_from=1)
    assert rescue_calls([OPEN], gated) > rescue_calls([OPEN], replace(gated, rescue_rounds=0))
    assert (rescue_calls([VOTE, OPEN], gated)
            == rescue_calls([VOTE, OPEN], replace(gated, rescue_rounds=0)))


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


# Fewer search rounds for sure talk (``SearchTuning.talk_rounds``): a free decode written
# surely, that leaves the grammar and is mostly in words of its own ("the chips" where the
# grammar is "i vote yes"), is table talk written out clearly; its search only forces the
# grammar onto it. On made-up log-probabilities (the fake decoder of
# ``tests/support/fake_decoder.py``), with the other talk skips (``skip_talk``) and the near
# sentences off, so that only this rule decides how many calls are made.

TALK_TUNING = SearchTuning(rounds=2, rescue_rounds=2, near_sentences=0, skip_talk=False,
                      foreign_words=2)


def talk(words: tuple[str, ...], sure: bool = True) -> dict[tuple[int, ...], dict[int, float]]:
    """The decoder writes ``words`` (surely, or barely ahead of "i vote yes"), then ends;
    "i vote yes" is each step's rival."""
    lead = 12.0 if sure else 5.6
    table: dict[tuple[int, ...], dict[int, float]] = {}
    rival = ("i", "vote", "yes")
    for step in range(len(words) + 1):
        prefix = ids(*words[:step])
        row = {IDS[words[step]]: lead} if step < len(words) else {EOT: lead}
        if step < len(rival):
            row.setdefault(IDS[rival[step]], 5.5)
        table[prefix] = row
    for step in range(1, len(rival) + 1):
        table.setdefault(ids(*rival[:step]),
                         {IDS[rival[step]]: 6.0} if step < len(rival) else {EOT: 6.0})
    return table


def talk_calls(table: dict[tuple[int, ...], dict[int, float]], tuning: SearchTuning) -> int:
    decoder = TableDecoder(table)
    judge(decoder, searches(VOTE), VOCAB, cap=12, tuning=tuning)
    return decoder.calls


def test_sure_talk_in_words_of_its_own_is_searched_for_fewer_rounds() -> None:
    table = talk(("the", "chips"))
    assert talk_calls(table, TALK_TUNING) > 1
    assert talk_calls(table, replace(TALK_TUNING, talk_rounds=0)) == 1  # the free decode alone
    assert talk_calls(table, replace(TALK_TUNING, talk_rounds=1)) == 2


def test_unsure_talk_is_searched_in_full() -> None:
    table = talk(("the", "chips"), sure=False)
    assert (talk_calls(table, replace(TALK_TUNING, talk_rounds=0))
            == talk_calls(table, TALK_TUNING) > 1)


def test_a_transcript_mostly_in_the_grammars_words_is_searched_in_full() -> None:
    # "i vote yes chips": three words of four are the grammar's (a command misheard, not talk)
    table = talk(("i", "vote", "yes", "chips"))
    assert (talk_calls(table, replace(TALK_TUNING, talk_rounds=0))
            == talk_calls(table, TALK_TUNING) > 1)
    # at a share of a half, "i vote the chips" (two of four) is talk
    half = talk(("i", "vote", "the", "chips"))
    assert talk_calls(half, replace(TALK_TUNING, talk_rounds=0)) == 1
    assert talk_calls(half, replace(TALK_TUNING, talk_rounds=0, talk_share=0.4)) > 1


def test_a_sure_sentence_of_the_grammar_is_not_cut() -> None:
    # the free decode stays inside the grammar: nothing to cut (and nothing searched)
    table = talk(("i", "vote", "no"))
    assert talk_calls(table, replace(TALK_TUNING, talk_rounds=0)) == talk_calls(table, TALK_TUNING)


def test_two_words_are_no_talk() -> None:
    # "the chips" surely, at three words the least: a short command misheard ("commence
    # please" for "commands please") keeps its whole search
    table = talk(("the", "chips"))
    assert (talk_calls(table, replace(TALK_TUNING, talk_rounds=0, foreign_words=3))
            == talk_calls(table, TALK_TUNING))
