"""The sentences restricted rollouts found are scored again only when that can change the
judgement (``search.settled``), on made-up log-probabilities (the fake decoder of
``test_decision``)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from test_decision import IDS, TUNING, VOCAB, VOTE, TableDecoder, say

from voice_host.speech import search
from voice_host.speech.grammar_search import TokenConstraint, WordGraph
from voice_host.speech.search import Scored, Search, judge

GRAMMAR_TOKENS = {IDS[w] for w in ("i", "vote", "yes", "no", "pass")}


class CountingDecoder(TableDecoder):
    scored = 0

    def score(self, sentences: Sequence[tuple[int, ...]]) -> list[Scored]:
        self.scored += 1
        return super().score(sentences)


def restricted() -> list[Search]:
    suppress = tuple(t for t in range(len(IDS)) if t not in GRAMMAR_TOKENS)
    return [Search(TokenConstraint(WordGraph(VOTE)), suppress)]


def talk_starting_with_yes(rival: float) -> CountingDecoder:
    # the decoder writes "yes the chips": "yes" + end-of-text is in the grammar but forced
    # (the decoder wanted " the"); "no" is a rival ``rival`` nats below "yes", after which
    # the decoder wants " the", else " pass", anything but to end
    table = say(("yes", 5), ("the", 5), ("chips", 5), ("<end>", 5))
    table[()][IDS["no"]] = 5 - rival
    table[(IDS["no"],)] = {IDS["the"]: 5, IDS["pass"]: 4}
    table[(IDS["yes"], IDS["."])] = {IDS["the"]: 5, IDS["pass"]: 4}
    return CountingDecoder(table)


def test_rollouts_that_cannot_rank_above_a_rejected_sentence_are_not_scored_again() -> None:
    decoder = talk_starting_with_yes(rival=3.5)
    got = judge(decoder, restricted(), VOCAB, cap=8, tuning=TUNING)
    assert not got.accepted and got.reading is not None and got.reading.text == "yes"
    assert decoder.scored == 0


def test_a_rollout_that_could_rank_first_is_scored_again() -> None:
    decoder = talk_starting_with_yes(rival=0.5)
    got = judge(decoder, restricted(), VOCAB, cap=8, tuning=TUNING)
    assert decoder.scored == 1
    assert got.reading is not None


def test_skipping_the_rescoring_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    for rival in (0.5, 2.0, 3.5, 6.0):
        skipped = judge(talk_starting_with_yes(rival), restricted(), VOCAB, cap=8,
                        tuning=TUNING)
        with monkeypatch.context() as patch:
            patch.setattr(search, "settled", lambda *args: False)
            scored = judge(talk_starting_with_yes(rival), restricted(), VOCAB, cap=8,
                           tuning=TUNING)
        assert skipped == scored
