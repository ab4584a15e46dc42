"""Natural phrasings: hedges before a move, reasons after a yes or a no, counts as
words, questions in many forms, and table talk that buries a word of the phase."""

from __future__ import annotations

import re

import pytest

from tests.support.intent_cases import TENTATIVE
from tests.support.intent_matchers import matcher, slot_values
from tests.support.paraphrases import (
    chatter_split,
    paraphrase_cases,
    paraphrase_chatter,
    paraphrase_split,
)
from voice_host.intent import load_grammar
from voice_host.intent.normalize import is_jsgf_token

CONFIRM_BELOW = 0.75
"""The host's confirmation threshold (host.session.CONFIRM_BELOW)."""


def _understood(case: tuple) -> bool:
    game, phase, lang, text, intent, slots = case
    result = matcher(game, phase, lang).match(text)
    best = result.best
    return best is not None and not result.ambiguous and \
        (best.intent, dict(best.slots)) == (intent, slots)


def test_the_paraphrase_set_is_larger_than_the_grammar_s_own_examples() -> None:
    cases = paraphrase_cases()
    examples = {(lang, text) for lang in ("en", "fr")
                for game in ("resistance", "ici-londres", "codenames")
                for phase in load_grammar(game, lang).phases
                for e in load_grammar(game, lang).phase(phase).entries for text in e.examples}
    assert len(cases) > 5 * len(examples)
    assert {c[2] for c in cases} == {"en", "fr"}
    calib, report = paraphrase_split("calib"), paraphrase_split("report")
    assert len(calib) + len(report) == len(cases)
    assert not {c[:4] for c in calib} & {c[:4] for c in report}


@pytest.mark.parametrize("part", ["calib", "report"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_paraphrases_are_understood(part: str, lang: str) -> None:
    cases = [c for c in paraphrase_split(part) if c[2] == lang]
    missed = [c[3] for c in cases if not _understood(c)]
    # the benchmark measures 98-100% here; a rate, so one new miss is not a failure
    assert len(missed) <= 0.03 * len(cases), missed


@pytest.mark.parametrize("part", ["calib", "report"])
def test_chatter_with_a_phase_word_is_inert(part: str) -> None:
    talk = chatter_split(part)
    acted = [t for g, p, lang, t in talk if matcher(g, p, lang).match(t).best is not None]
    assert acted == []
    assert len(paraphrase_chatter()) >= 50


@pytest.mark.parametrize("case", TENTATIVE, ids=[c[3] for c in TENTATIVE])
def test_a_tentative_move_is_understood_but_confirmed(case: tuple) -> None:
    game, phase, lang, text, slots = case
    best = matcher(game, phase, lang).match(text).best
    assert best is not None and dict(best.slots) == slots
    assert best.confidence < CONFIRM_BELOW


def test_a_hedge_costs_little_and_is_not_a_command_alone() -> None:
    pick = matcher("ici-londres", "guess")
    hedged = pick.match("I'd say the heart").best
    assert hedged is not None and hedged.slots == {"icons": ("heart",)}
    assert hedged.confidence >= CONFIRM_BELOW
    for talk in ("I'd say", "let's try", "I think", "I'd say this is so hard"):
        assert pick.match(talk).best is None, talk


def test_a_hedge_does_not_open_the_universal_commands() -> None:
    # "maybe quit" must not end the game: lead-ins belong to the phase's own moves
    for text in ("maybe quit", "I think undo", "let's try pause"):
        best = matcher("resistance", "vote").match(text).best
        assert best is None or best.intent not in {"quit", "undo", "pause"}, text


def test_a_hedge_after_the_move() -> None:
    """The <hedge_after> rule: "yes, I guess", "the anchor I think", "la chouette je pense";
    a tentative word after the move makes it tentative, as before it; two doubts are talk."""
    cases = [("resistance", "vote", "en", "yes, I guess", {"choice": "yes"}),
             ("ici-londres", "guess", "en", "the anchor I think", {"icons": ("anchor",)}),
             ("codenames", "guess", "en", "castle, final answer", {"word": "castle"}),
             ("resistance", "mission", "en", "two I think", {"sabotages": 2}),
             ("ici-londres", "guess", "fr", "la chouette je pense", {"icons": ("owl",)}),
             ("resistance", "vote", "fr", "non je crois", {"choice": "no"})]
    for game, phase, lang, text, slots in cases:
        best = matcher(game, phase, lang).match(text).best
        assert best is not None and dict(best.slots) == slots, text
        assert best.confidence >= CONFIRM_BELOW, text
    for game, phase, lang, text, slots in (
            ("codenames", "guess", "en", "castle maybe", {"word": "castle"}),
            ("ici-londres", "guess", "fr", "la cloche peut-être", {"icons": ("bell",)})):
        best = matcher(game, phase, lang).match(text).best
        assert best is not None and dict(best.slots) == slots, text
        assert best.confidence < CONFIRM_BELOW, text
    pick = matcher("ici-londres", "guess")
    for talk in ("I think it's the heart, maybe", "maybe the heart I think", "I think",
                 "the heart is lovely I think", "not the heart I think"):
        assert pick.match(talk).best is None, talk
    # the phrase belongs to the moves that take a lead-in, not to the universal commands
    assert matcher("resistance", "vote").match("quit I think").best is None


def test_the_second_fresh_set() -> None:
    """Written and measured before the changes made for it (FRESH_B_FIRST_RUN:
    English 37/53, French 25/30)."""
    from tests.support.paraphrases import FRESH_B, FRESH_B_CHATTER

    missed = [c[3] for c in FRESH_B if not _understood(c)]
    assert len(missed) <= 0.05 * len(FRESH_B), missed
    acted = [t for g, p, lang, t in FRESH_B_CHATTER if matcher(g, p, lang).match(t).best]
    assert acted == []


def test_a_reason_must_agree_with_the_answer() -> None:
    vote = matcher("resistance", "vote")
    for text, choice in (("yes, good team", "yes"), ("no, that's wrong", "no"),
                         ("no, I don't trust them", "no"), ("good team, yes", "yes")):
        best = vote.match(text).best
        assert best is not None and best.slots == {"choice": choice}, text
    for text in ("no, good team", "yes, bad team"):
        best = vote.match(text).best
        assert best is None, text


def test_a_mis_heard_value_needs_a_clean_sentence() -> None:
    pick = matcher("ici-londres", "guess")
    assert pick.match("this is so hard").best is None
    clean = pick.match("the hard").best  # "hard" is often "heart" misheard
    assert clean is not None and clean.slots == {"icons": ("heart",)}
    clue = matcher("codenames", "clue")
    assert clue.match("our spymaster is brilliant").best is None


def test_a_move_word_asked_of_a_person_is_talk() -> None:
    """"Pass me (the salt)" asks someone at the table for something: no pass. The same word
    with a subject, or a request to the host naming who it is for, stays a command."""
    cases = {"en": (("pass me", None), ("okay, pass me", None), ("pass me the salt", None),
                    ("I pass", "pass"), ("pass", "pass"), ("read me the board", "read_board"),
                    ("repeat me that", "repeat")),
             "fr": (("passe-moi", None), ("ok passe moi", None), ("passe-moi le sel", None),
                    ("je passe, moi", "pass"), ("moi je passe", "pass"), ("aide-moi", "help"),
                    ("redis-moi", "repeat"))}
    for lang, pairs in cases.items():
        guess = matcher("codenames", "guess", lang)
        for text, intent in pairs:
            best = guess.match(text).best
            assert (best.intent if best else None) == intent, (lang, text)
    # a pronoun that is a player ("pick me") is a value, not an object
    team = matcher("resistance", "team", "fr").match("prends-moi et lucas").best
    assert team is not None and team.slots == {"players": ("Hannah", "Lucas")}


@pytest.mark.parametrize(("text", "count"), [
    ("sabotaged once", 1), ("twice", 2), ("none", 0), ("not a single one", 0),
    ("not a single sabotage", 0), ("just one sabotage", 1)])
def test_counts_said_as_words(text: str, count: int) -> None:
    best = matcher("resistance", "mission").match(text).best
    assert best is not None and best.slots == {"sabotages": count}, text


@pytest.mark.parametrize(("text", "count"), [
    ("une seule fois", 1), ("deux fois", 2), ("aucun", 0), ("pas un seul", 0),
    ("il n'y a eu aucun sabotage", 0)])
def test_counts_said_as_words_in_french(text: str, count: int) -> None:
    best = matcher("resistance", "mission", "fr").match(text).best
    assert best is not None and best.slots == {"sabotages": count}, text


@pytest.mark.parametrize(("text", "intent", "slots"), [
    ("j'approuve", "vote", {"choice": "yes"}), ("je valide", "vote", {"choice": "yes"}),
    ("je refuse cette équipe", "vote", {"choice": "no"}),
    ("carrément", "vote", {"choice": "yes"}), ("non, c'est faux", "vote", {"choice": "no"}),
    ("on tente oui", "vote", {"choice": "yes"})])
def test_french_votes_with_elisions_and_accents(text: str, intent: str, slots: dict) -> None:
    for spelling in (text, text.replace("'", "’"), text.upper()):
        best = matcher("resistance", "vote", "fr").match(spelling).best
        assert best is not None and (best.intent, dict(best.slots)) == (intent, slots), spelling


def test_french_elided_hedges() -> None:
    pick = matcher("ici-londres", "guess", "fr")
    for text, icons in (("qu'on prenne l'étoile", ("star",)), ("je dirais l'éléphant",
                        ("elephant",)), ("j'essaie l'ancre", ("anchor",))):
        best = pick.match(text).best
        assert best is not None and best.slots == {"icons": icons}, text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_jsgf_offers_the_hedges_once(lang: str) -> None:
    grammar = load_grammar("ici-londres", lang).phase("guess", slot_values("ici-londres", lang))
    jsgf = grammar.jsgf()
    assert jsgf is not None
    assert jsgf.count("<h_hedge> = ") == 1
    assert "[ <h_hedge> ]" in jsgf
    assert {"reckon" if lang == "en" else "dirais"} <= grammar.vocabulary()


def test_the_fresh_set_written_after_tuning() -> None:
    from tests.support.paraphrases import FRESH, FRESH_CHATTER

    missed = [c[3] for c in FRESH if not _understood(c)]
    assert len(missed) <= 0.05 * len(FRESH), missed
    acted = [t for g, p, lang, t in FRESH_CHATTER if matcher(g, p, lang).match(t).best]
    assert acted == []


_OPENER = re.compile(r"^((um|uh|okay|ok|so|well|right|alright then|alright|hmm|sorry|euh|bon|"
                     r"alors|ben|bah|allez)[, ]+)+", re.I)


def test_the_paraphrases_are_sentences_of_the_recognizer_s_grammar() -> None:
    """The grammar search (Whisper) and PocketSphinx get the phase's JSGF: the paraphrases,
    interjections aside (the recognizers' grammars have none), must be inside it, read the
    way the Whisper constraint reads text (folded, elisions run into the next word)."""
    from voice_host.speech.grammar_search import TokenConstraint, WordGraph, fold_text

    constraints: dict[str, TokenConstraint] = {}
    inside = total = 0
    outside = []
    for game, phase, lang, text, _, _ in paraphrase_cases():
        grammar = load_grammar(game, lang).phase(phase, slot_values(game, lang))
        jsgf = grammar.jsgf()
        if jsgf is None:
            continue
        if jsgf not in constraints:
            constraints[jsgf] = TokenConstraint(WordGraph(jsgf), grammar.written_forms())
        constraint = constraints[jsgf]
        positions = constraint.advance(constraint.start, " " + fold_text(_OPENER.sub("", text)))
        total += 1
        if positions and constraint.can_end(positions):
            inside += 1
        else:
            outside.append(text)
    assert inside >= 0.97 * total, outside  # measured: 576/588 with the fresh set


def test_french_elisions_reach_the_recognizer_s_grammar() -> None:
    assert is_jsgf_token("qu'") and is_jsgf_token("l'") and not is_jsgf_token("qu''")
    jsgf = load_grammar("ici-londres", "fr").phase("guess", slot_values("ici-londres", "fr")).jsgf()
    assert jsgf is not None and "qu' est ce qui" in jsgf and "qu' on prenne" in jsgf


def test_an_interjection_that_is_a_name_stays_a_name() -> None:
    # "ben" is a French interjection ("well") and a player's name here
    from voice_host.intent import Matcher, SlotValues

    grammar = load_grammar("resistance", "fr").phase(
        "team", SlotValues(players=("Ada", "Ben", "Cleo", "Dan"), speaker="Ada"))
    result = Matcher(grammar).match("Ben, Cleo et Dan")
    assert result.best is not None and not result.ambiguous
    assert result.best.slots == {"players": ("Ben", "Cleo", "Dan")}
    hedged = Matcher(grammar).match("ben, je propose Cleo et Dan").best
    assert hedged is not None and hedged.slots == {"players": ("Cleo", "Dan")}


def test_openers_before_any_command() -> None:
    for game, phase, text, intent in (("resistance", "mission", "um, sabotaged once",
                                       "mission_result"),
                                      ("codenames", "guess", "okay so, whose turn is it",
                                       "status")):
        best = matcher(game, phase).match(text).best
        assert best is not None and best.intent == intent, text


@pytest.mark.parametrize(("lang", "text", "sabotages"), [
    ("fr", "euh, trois fois", 3), ("fr", "bon alors, aucun sabotage", 0),
    ("fr", "d'accord, euh, aucun sabotage", 0), ("en", "um, sabotaged once", 1),
    ("en", "so, okay, no sabotage", 0)])
def test_lead_fillers_leave_a_command_sure_and_exact(lang: str, text: str,
                                                     sabotages: int) -> None:
    plain = matcher("resistance", "mission", lang)
    for closed in (False, True):  # a grammar sentence may start with them too
        best = plain.match(text, closed=closed).best
        assert best is not None and best.slots == {"sabotages": sabotages}, (text, closed)
        assert CONFIRM_BELOW < best.confidence < 1.0, (text, closed)


def test_lead_fillers_are_never_the_whole_line_nor_a_value() -> None:
    assert matcher("resistance", "mission", "fr").match("bon alors").best is None
    team = matcher("resistance", "team", "en")
    best = team.match("so, Sophie and Thomas").best
    assert best is not None and best.slots == {"players": ("Sophie", "Thomas")}
    # an opener that is not a lead filler costs more
    fr = matcher("resistance", "mission", "fr")
    interjected = fr.match("ah allez aucun sabotage").best
    filled = fr.match("bon alors aucun sabotage").best
    assert interjected is not None and filled is not None
    assert interjected.confidence < filled.confidence


def test_a_lead_filler_inside_a_longer_value_is_still_a_filler() -> None:
    # "bon" is a word of the answer "c'est bon", not a value on its own
    answer = matcher("resistance", "answer", "fr")
    best = answer.match("bon, c'est juste").best
    plain = answer.match("c'est juste").best
    assert best is not None and plain is not None and best.slots == plain.slots
    assert plain.confidence - best.confidence < 0.1  # a lead filler's cost only
