"""How the grammar search ends a sentence and which rollouts it scores again
(voice_host.speech.search), on made-up log-probabilities (the fake decoder of
``tests/support/fake_decoder.py``)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.support.fake_decoder import (
    BOOK,
    EOT,
    IDS,
    TEXTS,
    TUNING,
    VOCAB,
    VOTE,
    TableDecoder,
    ids,
    run,
    say,
)
from voice_host.speech import search
from voice_host.speech.decision import Rejection
from voice_host.speech.grammar_search import TokenConstraint, WordGraph, letters
from voice_host.speech.search import Scored, Search, free_reading, judge, loops_back, said_again

# A short utterance the decoder loops on ("book, book, book," for a player's single
# "book"): the loop ends the sentence as end-of-text would (``search.loops_back``), and the
# free transcript is the saying read once (``search.said_again``). On made-up
# log-probabilities (the fake decoder of ``tests/support/fake_decoder.py``).

def looping(word: str, copies: int = 4, end: float = 2.0,
            comma: bool = True) -> dict[tuple[int, ...], dict[int, float]]:
    """The decoder writes ``word`` (then a comma) again and again, sure of every token,
    end-of-text always ``end`` logits against the loop's 9."""
    table: dict[tuple[int, ...], dict[int, float]] = {}
    prefix: tuple[int, ...] = ()
    for _ in range(copies):
        for token in ids(word) + (ids(",") if comma else ()):
            table[prefix] = {token: 9.0, EOT: end}
            prefix = (*prefix, token)
    table[prefix] = {EOT: 9.0}
    return table


def spelled(token: int) -> str:
    return letters(TEXTS[token])


def test_a_single_word_said_once_and_looped_by_the_decoder_is_accepted() -> None:
    got = run(looping("book"), document=BOOK, cap=12)
    assert got.free_text == "book"
    assert got.accepted and got.reading is not None and got.reading.text == "book"
    assert got.reading.margin > -0.1


def test_the_loop_without_punctuation_ends_it_too() -> None:
    got = run(looping("book", comma=False), document=BOOK, cap=12)
    assert got.accepted and got.reading is not None and got.reading.text == "book"


def test_without_the_loop_the_end_the_decoder_put_off_still_counts() -> None:
    # the decoder would rather write "bell" after "book": no loop, the end keeps its cost
    table = {(): {IDS["book"]: 9.0}, ids("book"): {IDS["bell"]: 9.0, EOT: 2.0},
             ids("book", "bell"): {EOT: 9.0}}
    got = run(table, document=BOOK, cap=12)
    assert not got.accepted and got.reason is Rejection.LOW_MARGIN


def test_a_loop_of_other_words_ends_nothing() -> None:
    # "yes, i vote yes, i vote yes": the decoder goes on to more than the sentence "yes"
    table: dict[tuple[int, ...], dict[int, float]] = {}
    prefix: tuple[int, ...] = ()
    for token in ids("yes", ",", "i", "vote", "yes", ",", "i", "vote", "yes"):
        table[prefix] = {token: 9.0, EOT: 2.0}
        prefix = (*prefix, token)
    table[prefix] = {EOT: 9.0}
    got = run(table, document=VOTE, cap=12)
    assert not (got.accepted and got.reading is not None and got.reading.text == "yes")


def test_loops_back_reads_letters_whole_tokens_only() -> None:
    book, bell, comma = IDS["book"], IDS["bell"], IDS[","]
    assert loops_back((book,), (comma, book, comma), spelled)
    assert loops_back((book,), (book,), spelled)
    assert loops_back((book, comma), (book,), spelled)
    assert not loops_back((book,), (comma, bell), spelled)
    assert not loops_back((book,), (comma,), spelled)  # no copy yet
    assert not loops_back((), (book,), spelled)
    # a copy that runs on into a longer word is no copy ("i vote" then "i voted")
    assert not loops_back(ids("i"), ids("vote"), spelled)


def test_the_free_transcript_of_a_saying_said_again_is_read_once() -> None:
    # "yes, vote. yes, vote." (every token sure): its first copy, ended where the decoder
    # began the second, not a loop of four words at the cost of the end it put off
    decoder = TableDecoder(looping("vote", copies=2, end=2.0))
    free, = decoder.continue_prefixes([()], 12)
    text, logp, looped = free_reading(decoder, free)
    assert (text, looped) == ("vote", False)
    assert logp > -0.01
    # a decode that goes on to other words is no saying said again
    other = TableDecoder({(): {IDS["book"]: 9.0}, ids("book"): {IDS["bell"]: 9.0},
                          ids("book", "bell"): {IDS["book"]: 9.0},
                          ids("book", "bell", "book"): {EOT: 9.0}})
    free, = other.continue_prefixes([()], 12)
    assert free_reading(other, free)[0] == "book bell book"


def test_said_again_needs_whole_copies() -> None:
    yes, kite, comma, stop = IDS["yes"], IDS["book"], IDS[","], IDS["."]
    saying = (yes, comma, kite, stop)
    assert said_again((*saying, *saying), True, spelled) == 4
    assert said_again((*saying, *saying), False, spelled) is None  # never ended
    assert said_again((*saying, yes, comma), True, spelled) is None  # "yes" of "yesbook"
    assert said_again((*saying, yes, comma, kite), True, spelled) == 4  # all but its stop
    assert said_again((*saying, *saying, yes), True, spelled) is None
    assert said_again(saying, True, spelled) is None  # said once
    assert said_again((yes, yes, yes), True, spelled) == 1
    assert said_again((yes, kite, yes), True, spelled) is None


def test_a_loop_the_decoder_began_unsure_of_ends_nothing() -> None:
    # babble: "no" guessed at first (three other words nearly as likely, none of the
    # grammar's), then said again and
    # again ever more surely; the first copy is no sure saying, and its end still costs
    table = looping("no", copies=4)
    table[()] = {IDS["no"]: 3.0, IDS["book"]: 2.9, IDS["bell"]: 2.9, IDS["chips"]: 2.9}
    got = run(table, document=VOTE, cap=12, floor=-8.0)
    assert not got.accepted
    sure = run(looping("no", copies=4), document=VOTE, cap=12)
    assert sure.accepted and sure.reading is not None and sure.reading.text == "no"


# The sentences restricted rollouts found are scored again only when that can change the
# judgement (``search.settled``), on made-up log-probabilities (the fake decoder of
# ``tests/support/fake_decoder.py``).

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
