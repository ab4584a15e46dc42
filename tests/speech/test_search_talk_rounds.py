"""Fewer search rounds for sure talk (``SearchTuning.talk_rounds``): a free decode written
surely, that leaves the grammar and is mostly in words of its own ("the chips" where the
grammar is "i vote yes"), is table talk written out clearly; its search only forces the
grammar onto it. On made-up log-probabilities (the fake decoder of
``tests/support/fake_decoder.py``), with the other talk skips (``skip_talk``) and the near
sentences off, so that only this rule decides how many calls are made."""

from __future__ import annotations

from dataclasses import replace

from tests.support.fake_decoder import EOT, IDS, VOCAB, VOTE, TableDecoder, ids, searches
from voice_host.speech.decision import SearchTuning
from voice_host.speech.search import judge

TUNING = SearchTuning(rounds=2, rescue_rounds=2, near_sentences=0, skip_talk=False,
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


def calls(table: dict[tuple[int, ...], dict[int, float]], tuning: SearchTuning) -> int:
    decoder = TableDecoder(table)
    judge(decoder, searches(VOTE), VOCAB, cap=12, tuning=tuning)
    return decoder.calls


def test_sure_talk_in_words_of_its_own_is_searched_for_fewer_rounds() -> None:
    table = talk(("the", "chips"))
    assert calls(table, TUNING) > 1
    assert calls(table, replace(TUNING, talk_rounds=0)) == 1  # the free decode alone
    assert calls(table, replace(TUNING, talk_rounds=1)) == 2


def test_unsure_talk_is_searched_in_full() -> None:
    table = talk(("the", "chips"), sure=False)
    assert calls(table, replace(TUNING, talk_rounds=0)) == calls(table, TUNING) > 1


def test_a_transcript_mostly_in_the_grammars_words_is_searched_in_full() -> None:
    # "i vote yes chips": three words of four are the grammar's (a command misheard, not talk)
    table = talk(("i", "vote", "yes", "chips"))
    assert calls(table, replace(TUNING, talk_rounds=0)) == calls(table, TUNING) > 1
    # at a share of a half, "i vote the chips" (two of four) is talk
    half = talk(("i", "vote", "the", "chips"))
    assert calls(half, replace(TUNING, talk_rounds=0)) == 1
    assert calls(half, replace(TUNING, talk_rounds=0, talk_share=0.4)) > 1


def test_a_sure_sentence_of_the_grammar_is_not_cut() -> None:
    # the free decode stays inside the grammar: nothing to cut (and nothing searched)
    table = talk(("i", "vote", "no"))
    assert calls(table, replace(TUNING, talk_rounds=0)) == calls(table, TUNING)


def test_two_words_are_no_talk() -> None:
    # "the chips" surely, at three words the least: a short command misheard ("commence
    # please" for "commands please") keeps its whole search
    table = talk(("the", "chips"))
    assert calls(table, replace(TUNING, talk_rounds=0, foreign_words=3)) == calls(table, TUNING)
