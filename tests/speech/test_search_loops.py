"""A short utterance the decoder loops on ("book, book, book," for a player's single
"book"): the loop ends the sentence as end-of-text would (``search.loops_back``). On
made-up log-probabilities (the fake decoder of ``test_decision``)."""

from __future__ import annotations

from test_decision import BOOK, EOT, IDS, TEXTS, VOTE, ids, run

from voice_host.speech.decision import Rejection
from voice_host.speech.grammar_search import letters
from voice_host.speech.search import loops_back


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
    assert got.looped and got.free_text == "book"
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
