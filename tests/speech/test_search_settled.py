"""The sentences restricted rollouts found are scored again only when that can change the
judgement (``search.settled``), on made-up log-probabilities (the fake decoder of
``tests/support/fake_decoder.py``)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.support.fake_decoder import EOT, IDS, TUNING, VOCAB, VOTE, TableDecoder, ids, say
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


def command_a_rollout_finds(end: float) -> CountingDecoder:
    # the decoder writes "pass me"; "pass" + end-of-text is in the grammar, one nat forced;
    # "i" is a near rival, after which it says "vote no" and then wants " the" (a token
    # the restricted rollout may not write) before ending at ``end``: sure enough, "i vote
    # no" is taken however unlike "pass me" it is
    table = say(("pass", 5), ("me", 5), ("<end>", 5))
    table[(IDS["pass"],)][EOT] = 4.0
    table[()][IDS["i"]] = 4.95
    table[ids("i")] = {IDS["vote"]: 5}
    table[ids("i", "vote")] = {IDS["no"]: 5}
    table[ids("i", "vote", "no")] = {IDS["the"]: 5, EOT: end}
    return CountingDecoder(table)


def test_a_rollout_that_could_be_accepted_is_scored_again() -> None:
    decoder = command_a_rollout_finds(end=4.9)
    got = judge(decoder, restricted(), VOCAB, cap=8, tuning=TUNING)
    assert decoder.scored == 1
    assert got.accepted and got.reading is not None and got.reading.text == "i vote no"
    assert not got.reading.bound and "bound" not in got.figures()
    # its restricted margin is a bound: scored exactly, the forced end rejects it, and the
    # decoder's own "pass" is the reading
    decoder = command_a_rollout_finds(end=1.0)
    got = judge(decoder, restricted(), VOCAB, cap=8, tuning=TUNING)
    assert decoder.scored == 1
    assert got.reading is not None and got.reading.text == "pass"


def test_rollouts_rejected_even_at_their_bounds_are_not_scored_again() -> None:
    # "no" could rank above the rejected "yes" by its restricted margin, but talk ("yes the
    # chips", written surely) rejects it however high that margin is
    decoder = talk_starting_with_yes(rival=0.5)
    got = judge(decoder, restricted(), VOCAB, cap=8, tuning=TUNING)
    assert decoder.scored == 0
    assert not got.accepted and got.reading is not None and got.reading.text == "no"
    assert got.reading.bound and got.figures()["bound"] == 1


def test_skipping_the_rescoring_changes_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    def decoders() -> list[CountingDecoder]:
        return ([talk_starting_with_yes(rival) for rival in (0.5, 2.0, 3.5, 6.0)]
                + [command_a_rollout_finds(end) for end in (1.0, 3.0, 4.9)])

    skipped = [judge(d, restricted(), VOCAB, cap=8, tuning=TUNING) for d in decoders()]
    with monkeypatch.context() as patch:
        patch.setattr(search, "settled", lambda *args: False)
        patch.setattr(search, "hopeless", lambda *args: False)
        scored = [judge(d, restricted(), VOCAB, cap=8, tuning=TUNING) for d in decoders()]
    assert any(s.accepted for s in scored) and not all(s.accepted for s in scored)
    for one, other in zip(skipped, scored, strict=True):
        assert one.accepted == other.accepted
        if one.accepted:
            assert one == other
