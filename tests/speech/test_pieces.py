"""A line cut into the pieces the narrator renders in turn (``speech/pieces.py``): the first
piece short enough to start on time, cut where a speaker may pause."""

from __future__ import annotations

from voice_host.speech.pieces import PHRASE_STARTS, first_cut, split_sentences

EN = PHRASE_STARTS["en"]


def test_a_short_first_sentence_is_not_cut() -> None:
    assert first_cut("There is nothing to undo.", 40, phrase_starts=EN) is None
    assert split_sentences("Spies, close your eyes. Vote now.", first_max_chars=40,
                           phrase_starts=EN) == ["Spies, close your eyes.", "Vote now."]


def test_the_first_piece_ends_at_the_first_comma_within_the_budget() -> None:
    assert first_cut("Ben is now the Speaker, and Cleo, the Wehrmacht, guesses.", 40) == (
        "Ben is now the Speaker,", "and Cleo, the Wehrmacht, guesses.")
    assert first_cut("Round 2 of 6 begins now for everyone, Bribes de message.", 30) is None
    # a comma that would leave a piece of one word does not count
    assert first_cut("Ben, draw two message cards and look at them.", 40) is None


def test_without_a_comma_the_cut_is_before_a_conjunction_then_a_preposition() -> None:
    assert first_cut("Ben, draw two message cards and look at them without showing anyone.",
                     40, phrase_starts=EN) == (
        "Ben, draw two message cards,", "and look at them without showing anyone.")
    # a conjunction is preferred to a later preposition within the budget
    assert first_cut("Ada was a spy and never went on a mission at all.", 40,
                     phrase_starts=EN) == ("Ada was a spy,", "and never went on a mission at all.")
    assert first_cut("Still waiting for a card from Ada on their phones.", 40,
                     phrase_starts=EN) == ("Still waiting for a card from Ada,",
                                           "on their phones.")
    # "and" before a name joins names: the cut goes to the preposition
    assert first_cut("Eve proposes Ada and Ben for mission 2.", 30, phrase_starts=EN) == (
        "Eve proposes Ada and Ben,", "for mission 2.")
    # case-blind; the word must start a word ("Andrew" is not "and")
    assert first_cut("Everyone looks at Andrew AND the table in silence.", 30,
                     phrase_starts=EN) == ("Everyone looks at Andrew,", "AND the table in silence.")
    assert first_cut("Everyone greets Andrew Bellamy-Smith quietly now.", 30,
                     phrase_starts=EN) is None


def test_no_place_to_cut_leaves_the_sentence_whole() -> None:
    text = "Supercalifragilisticexpialidocious is a remarkably long word."
    assert first_cut(text, 20, phrase_starts=EN) is None
    assert split_sentences(text, first_max_chars=20, phrase_starts=EN) == [text]


def test_only_the_first_sentence_is_cut_early_and_long_ones_still_at_commas() -> None:
    text = ("Eve proposes Ada and Ben for the second mission. Everyone votes with their thumb "
            "and no one speaks.")
    assert split_sentences(text, first_max_chars=40, phrase_starts=EN) == [
        "Eve proposes Ada and Ben,", "for the second mission.",
        "Everyone votes with their thumb and no one speaks."]
    # without phrase starts (an engine quick enough), only commas cut
    assert split_sentences(text, first_max_chars=40) == [
        "Eve proposes Ada and Ben for the second mission.",
        "Everyone votes with their thumb and no one speaks."]
    long = "One, two, three, four, five, six, seven, eight, nine, ten, eleven."
    assert split_sentences(long, max_chars=30) == [
        "One, two, three, four, five,", "six, seven, eight, nine, ten,", "eleven."]


def test_french_phrase_starts() -> None:
    assert first_cut("Bruno propose Ada et Chloé pour la deuxième mission.", 30,
                     phrase_starts=PHRASE_STARTS["fr"]) == (
        "Bruno propose Ada et Chloé,", "pour la deuxième mission.")
    assert first_cut("Bruno tire deux cartes et les regarde sans les montrer.", 30,
                     phrase_starts=PHRASE_STARTS["fr"]) == (
        "Bruno tire deux cartes,", "et les regarde sans les montrer.")
