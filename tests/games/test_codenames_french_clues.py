"""French clue checks at parity with English: a word made from a board word is refused
("argenterie" with "argent" on the board, as "snowman" with "snow"), and unrelated words
that merely begin alike are not."""

from __future__ import annotations

import pytest

from voice_host.games.codenames import clue_problem


@pytest.mark.parametrize(("clue", "visible"), [
    ("argenterie", "argent"), ("argenteries", "argent"), ("Argenterie", "argent"),
    ("bijouterie", "bijou"), ("poissonnerie", "poisson"), ("fromagerie", "fromage"),
    ("chocolaterie", "chocolat"), ("orfèvrerie", "orfèvre"), ("argent", "argenterie"),
])
def test_a_french_word_made_from_a_board_word_is_refused(clue: str, visible: str) -> None:
    found = clue_problem(clue, (visible,), language="fr")
    assert found is not None and found.code == "clue_other_form"
    assert found.params == {"word": clue[0].upper() + clue[1:], "board": visible}


@pytest.mark.parametrize(("clue", "visible"), [
    ("galerie", "gare"), ("série", "ser"), ("prairie", "pré"), ("argenterie", "art"),
    ("château", "chat"),
])
def test_words_that_only_begin_alike_stay_allowed(clue: str, visible: str) -> None:
    assert clue_problem(clue, (visible,), language="fr") is None


def test_english_refuses_its_compound_the_same_way() -> None:
    found = clue_problem("snowman", ("snow",), language="en")
    assert found is not None and found.code == "clue_contains"
