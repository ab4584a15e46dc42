"""Every sentence the French grammars generate (for the recognizer, the matcher, the help
and the benchmark's commands) agrees its verb with its subject: "je choisis", "on choisit",
"nous choisissons", "j'accuse" -- never "je choisissons", "on choisis", "je accuse", and
never a verb in the third person after a player slot that may be the speaker's "moi"
("moi veut le cœur")."""

from __future__ import annotations

import pytest

from voice_host.intent.expand import Tok
from voice_host.intent.grammar import PLAYER_LIST, SlotValues, load_grammar

GAMES = ("resistance", "ici-londres", "codenames")
PRONOUNS = frozenset({"me", "m'", "te", "t'", "le", "la", "les", "l'", "leur", "lui", "y",
                      "en", "ne", "n'", "s'", "se", "nous", "vous"})
"""Words that may stand between a subject and its verb."""
VOWELS = tuple("aeiouyh")
THIRD_PERSON = frozenset({"a", "est", "prend", "choisit", "dit", "veut", "voudrait", "vote",
                          "tente", "essaie", "essaye", "pointe", "montre", "propose", "opte",
                          "mise", "parie", "accuse", "designe"})
"""Verbs in the third person singular, as a player named by name takes them."""


def first_singular(word: str) -> bool:
    """A present (or conditional) tense of ``je``: choisis, prends, veux, tente, ai, vais."""
    return word.endswith(("e", "s", "x", "ai")) and not word.endswith(("ons", "ez"))


def third_singular(word: str) -> bool:
    """A present tense of ``on``: choisit, prend, tente, a, va, est."""
    return not word.endswith(("s", "x", "ez", "ent"))


def faults(skeleton: tuple[Tok, ...]) -> list[str]:
    """Each subject-verb pair of a skeleton that does not agree, as "subject verb"."""
    out = []
    for tok, after in zip(skeleton, skeleton[1:], strict=False):
        subject, word = tok.key, after.key
        if after.kind != "lit" or word in PRONOUNS:
            continue
        wrong = False
        if subject == "je":
            wrong = word.startswith(VOWELS) or not first_singular(word)
        elif subject == "j'":
            wrong = not word.startswith(VOWELS) or not first_singular(word)
        elif subject == "nous":
            wrong = not word.endswith("ons") and word not in ("tous", "deja")
        elif subject == "on":
            wrong = not third_singular(word)
        elif tok.kind == "slot" and tok.text == PLAYER_LIST and not tok.repeat:
            wrong = word in THIRD_PERSON  # the slot may be "moi"
        if wrong:
            out.append(f"{subject} {word}")
    return out


@pytest.mark.parametrize("game", GAMES)
def test_subject_and_verb_agree_in_every_french_sentence(game: str) -> None:
    grammar = load_grammar(game, "fr")
    wrong: set[str] = set()
    for phase in grammar.phases:
        pg = grammar.phase(phase, SlotValues(players=("Sophie", "Thomas"), speaker="Sophie"))
        for _entry, skeleton in pg.skeletons(keep_optional=False):
            wrong.update(faults(skeleton))
    assert not wrong, sorted(wrong)


def test_the_check_finds_what_it_looks_for() -> None:
    def lit(*words: str) -> tuple[Tok, ...]:
        return tuple(Tok("lit", w) for w in words)
    assert faults(lit("je", "choisissons")) == ["je choisissons"]
    assert faults(lit("je", "accuse")) == ["je accuse"]
    assert faults(lit("j'", "choisis")) == ["j' choisis"]
    assert faults(lit("on", "choisis")) == ["on choisis"]
    assert faults(lit("nous", "accuse")) == ["nous accuse"]
    moi = (Tok("slot", PLAYER_LIST, "player"), Tok("lit", "veut"))
    assert faults(moi) == ["{player} veut"]
    for good in (("je", "choisis"), ("j'", "accuse"), ("on", "choisit"),
                 ("nous", "choisissons"), ("je", "n'"), ("on", "est")):
        assert faults(lit(*good)) == [], good
    named = (Tok("slot", "player_name", "player"), Tok("lit", "veut"))
    assert faults(named) == []
