"""The one folding and tokenizing module (voice_host.text): French and English edge cases."""

from __future__ import annotations

import pytest

from voice_host import text


@pytest.mark.parametrize(("raw", "folded"), [
    ("Zoë", "zoe"),
    ("Écureuil", "ecureuil"),
    ("CŒUR", "coeur"),
    ("cœur", "coeur"),
    ("Æsop", "aesop"),
    ("Straße", "strasse"),
    ("L’ÎLE", "l'ile"),
    ("l‘arbre", "l'arbre"),
    ("rock`n", "rock'n"),
    ("ﬁnal", "final"),  # compatibility ligature
    ("ℌello", "hello"),  # a compatibility form that decomposes to a capital
    ("Ana María", "ana maria"),
    ("naïve façade", "naive facade"),
])
def test_fold(raw: str, folded: str) -> None:
    assert text.fold(raw) == folded


@pytest.mark.parametrize(("raw", "tokens"), [
    ("l'éléphant", ("l'", "elephant")),
    ("L’Éléphant", ("l'", "elephant")),
    ("Qu’il vote", ("qu'", "il", "vote")),
    ("j'approuve", ("j'", "approuve")),
    ("d'accord.", ("d'", "accord")),
    ("c'est l' oeuf", ("c'", "est", "l'", "oeuf")),
    ("Ice-Cream, please!", ("ice", "cream", "please")),
    ("don't stop", ("don't", "stop")),
    ("'quoted'", ("quoted",)),
    ("Sophie & Thomas", ("sophie", "thomas")),
    ("team of 3", ("team", "of", "3")),
    ("aujourd'hui", ("aujourd'hui",)),  # not an elision: "aujourd" is no elided word
    ("", ()),
    ("  ...  ", ()),
    ("Crème brûlée", ("creme", "brulee")),
    ("le cœur", ("le", "coeur")),
])
def test_tokenize(raw: str, tokens: tuple[str, ...]) -> None:
    assert text.tokenize(raw) == tokens


def test_every_elision_splits_off_and_stands_alone() -> None:
    for elision in text.ELISIONS:
        assert text.tokenize(f"{elision}ami") == (elision, "ami")
        assert text.tokenize(elision) == (elision,)


def test_fold_marked_keeps_positions_for_a_character_search() -> None:
    assert text.fold_marked("Yes, l’île!", "#") == "yes  l'ile "
    assert text.fold_marked("10 €", "#") == "10 #"
    assert text.fold_marked("a\tb\nc", "#") == "a b c"
    assert text.fold_marked("cœur", "#") == "coeur"


def test_plain_drops_punctuation_and_keeps_accents() -> None:
    assert text.plain("Yes, I approve.") == "yes i approve"
    assert text.plain("  Je vote « oui » !") == "je vote oui"
    assert text.plain("L’éléphant") == "l'éléphant"
    assert text.plain("...") == ""


def test_letters() -> None:
    assert text.letters("Ice-Cream") == "icecream"
    assert text.letters("l'Œil 2") == "loeil"


@pytest.mark.parametrize(("wanted", "found"), [
    ("zoe", "Zoë"), ("  ZOË ", "Zoë"), ("Léa", "Léa"), ("lea", "Léa"), ("ben", "Ben"),
    ("Benjamin", None), ("", None), (None, None), (3, None),
])
def test_find_is_blind_to_case_accents_and_spaces(wanted: object, found: str | None) -> None:
    assert text.find(("Zoë", "Léa", "Ben"), wanted) == found


def test_find_returns_the_candidates_spelling_and_same_compares() -> None:
    assert text.find(["Crème", "Ice-Cream"], "CREME") == "Crème"
    assert text.find(["New York"], "new york ") == "New York"
    assert text.find([], "x") is None
    assert text.same("Cœur", "coeur") and text.same(" Zoë", "zoe")
    assert not text.same("ice cream", "ice-cream")  # separators are part of a name


def test_spelled_keeps_accents_and_composes() -> None:
    assert text.spelled("Été") == "été"
    assert text.spelled("e\u0301te\u0301") == "été"  # decomposed input, composed key
    assert text.spelled("PÂTE") != text.spelled("pate")
