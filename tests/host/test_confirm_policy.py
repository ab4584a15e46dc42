"""The confirmation policy: the host asks only for a doubtful reading, a risk the game names,
or an irreversible move that was not said plainly -- and "plainly" is read from the evidence
(the matcher's confidence, the recognizer's two readings agreeing), not from who spoke."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codenames_table import OPTS, clue_word, dealt, table_session
from voice_host.games.codenames import CodenamesState, GiveClue
from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.core.adapter import Decision
from voice_host.host.core.confirm import (
    CONFIRM_BELOW,
    Why,
    echoed,
    said_plainly,
    why_confirm,
)
from voice_host.host.core.session import Stop
from voice_host.host.core.understanding import understand
from voice_host.host.core.values import Heard, HeardKind
from voice_host.intent import IntentMatch
from voice_host.speech.decision import GrammarReading, Judgement, Rejection

CLUE = GiveClue("Hannah", "ocean", 2)


@pytest.mark.parametrize(("decision", "confidence", "plain", "mode", "why"), [
    (Decision(action=CLUE), 1.0, True, "auto", Why.NONE),
    (Decision(action=CLUE), CONFIRM_BELOW - 0.01, False, "auto", Why.DOUBTFUL),
    (Decision(action=CLUE, irreversible="the clue"), 1.0, True, "auto", Why.NONE),
    (Decision(action=CLUE, irreversible="the clue"), 0.95, False, "auto", Why.IRREVERSIBLE),
    (Decision(action=CLUE, irreversible="the clue"), 0.5, False, "auto", Why.DOUBTFUL),
    (Decision(action=CLUE, confirm="the assassin"), 1.0, True, "auto", Why.RISK),
    (Decision(action=CLUE, confirm="the assassin"), 1.0, True, "never", Why.NONE),
    (Decision(action=CLUE, irreversible="the clue"), 0.1, False, "never", Why.NONE),
    (Decision(reply=()), 0.1, False, "auto", Why.NONE),
])
def test_why_confirm(decision: Decision, confidence: float, plain: bool, mode: str,
                     why: Why) -> None:
    assert why_confirm(decision, confidence=confidence, plain=plain, mode=mode) is why


def _judged(free: str, grammar: str | None, *, accepted: bool = True,
            free_logp: float = -0.1, confidence: float = 1.0, looped: bool = False,
            similarity: float = 1.0) -> Heard:
    """An utterance as Whisper's grammar search hands it over: two readings."""
    reading = None if grammar is None else GrammarReading(
        grammar, margin=-0.05, score=-0.1, steps=4, similarity=similarity)
    judgement = Judgement(free_text=free, free_logp=free_logp, looped=looped, reading=reading,
                          accepted=accepted,
                          reason=Rejection.NONE if accepted else Rejection.LOW_MARGIN,
                          confidence=confidence if accepted else 0.0, open_phase=True)
    text = grammar if accepted and grammar else free
    return Heard(HeardKind.SPEECH, text=text, speaker="Hannah", spoken=True,
                 confidence=judgement.confidence if accepted else 0.8,
                 closed_grammar=accepted, judgement=judgement)


def _plain(heard: Heard, state: CodenamesState) -> tuple[bool, IntentMatch | None]:
    adapter = make_adapter("codenames", OPTS)
    from voice_host.intent import load_grammar
    pg = load_grammar("codenames", "en").phase("clue", adapter.slot_values(state))
    understood = understand(heard, pg.matcher, speaker="Hannah")
    if understood.best is None or understood.result is None or understood.result.ambiguous:
        return False, understood.best
    return said_plainly(heard, understood.best, understood), understood.best


@pytest.mark.parametrize("case", ["agree", "free_unsure_grammar_sure", "free_reads_no_move",
                                  "free_spells_it_otherwise", "free_repeats_the_sentence",
                                  "free_repeat_cut", "free_homophone"])
def test_a_clue_is_said_plainly(case: str) -> None:
    state = dealt()
    word = clue_word(state)
    heard = {"agree": _judged(f"{word} two", f"{word} two", confidence=0.8),
             "free_unsure_grammar_sure": _judged(f"{word} too", f"{word} two",
                                                 free_logp=-2.0),
             # the free transcript reads as no move ("house for work"); the grammar is sure
             "free_reads_no_move": _judged(f"{word} for work", f"{word} two",
                                           free_logp=-0.6, similarity=0.6),
             # ... or reads like the sentence, though not the clue word ("marikit one")
             "free_spells_it_otherwise": _judged("the closed foot ball one",
                                                 f"{word} one", similarity=0.8),
             # Whisper said the sentence, then began it again instead of ending the text
             "free_repeats_the_sentence": _judged(f"{word} for two {word} for", f"{word} for two",
                                                  looped=True, similarity=0.8),
             "free_repeat_cut": _judged(f"{word} for two", f"{word} for two", looped=True,
                                        free_logp=-0.5),
             # Whisper wrote a homophone of the number ("to" for "two"); the grammar sentence
             # is not sure enough alone
             "free_homophone": _judged(f"the clue is {word} to", f"the clue is {word} two",
                                       confidence=0.85)}[case]
    plain, best = _plain(heard, state)
    assert best is not None and best.slots.get("word") == word
    assert plain


@pytest.mark.parametrize("case", ["grammar_rejected", "free_unsure", "free_other_word",
                                  "free_is_the_sentence_unsure",
                                  "grammar_unsure", "free_looped", "typed_guess",
                                  "free_backs_nothing", "free_loops_on", "free_near_miss"])
def test_a_clue_is_not_plain_without_the_evidence(case: str) -> None:
    state = dealt()
    word = clue_word(state)
    if case == "typed_guess":
        # a typed line read with a near-miss word is no plain reading either
        match = IntentMatch("clue", {"word": word, "number": 2}, 0.8, f"{word} two")
        assert not said_plainly(Heard(HeardKind.SPEECH, text=f"{word} two"), match, None)
        return
    heard = {
        "grammar_rejected": _judged(f"{word} two", f"{word} two", accepted=False),
        # the grammar sentence is the unsure free transcript itself ("build two" at -0.83
        # a step for "gold two"): its margin is no evidence of its own
        "free_is_the_sentence_unsure": _judged(f"{word} two", f"{word} two", free_logp=-0.83),
        "free_unsure": _judged(f"{word} two", f"{word} two", free_logp=-2.0,
                               confidence=0.85),
        "free_other_word": _judged("motion two", f"{word} two"),
        "grammar_unsure": _judged(f"{word} for work", f"{word} two", confidence=0.85),
        "free_looped": _judged("f o f o", f"{word} two", looped=True),
        # a loop that writes something else after the sentence is lost all the same
        "free_loops_on": _judged(f"{word} two motion motion", f"{word} two", looped=True),
        # the sentence was forced onto other words: Whisper wrote neither the clue word
        # nor anything like the sentence ("the closed foot ball one" -> "good for one")
        "free_backs_nothing": _judged("the closed foot ball one", f"{word} one",
                                      similarity=0.6),
        # the free transcript spells the clue word nearly (a near-miss, not a homophone)
        "free_near_miss": _judged(f"the clue is {word[:-1]}x two", f"the clue is {word} two",
                                  confidence=0.85),
    }[case]
    plain, _ = _plain(heard, state)
    assert not plain


def test_typed_and_one_reading_recognizers() -> None:
    match = IntentMatch("clue", {"word": "ocean", "number": 2}, 1.0, "ocean two")
    assert said_plainly(Heard(HeardKind.SPEECH, text="ocean two"), match, None)
    spoken = Heard(HeardKind.SPEECH, text="ocean two", spoken=True, confidence=0.95)
    assert said_plainly(spoken, match, None)
    assert not said_plainly(Heard(HeardKind.SPEECH, text="ocean two", spoken=True,
                                  confidence=0.8), match, None)
    rival = Heard(HeardKind.SPEECH, text="ocean two", spoken=True, confidence=0.95,
                  alternatives=("motion two",))
    assert not said_plainly(rival, match, None)


def test_a_plainly_spoken_clue_is_taken_without_a_question(tmp_path: Path) -> None:
    word = clue_word(dealt())
    session, out, table = table_session(tmp_path, [_judged(f"{word} two", f"{word} two")])
    assert session.run(fresh=True) is Stop.INPUT_ENDED
    assert "Is that right?" not in out.getvalue()
    assert session.state.clue == (word, 2)
    assert not [r for r in table.requests if r.purpose == "confirm"]


def test_a_clue_the_grammar_search_did_not_accept_is_confirmed(tmp_path: Path) -> None:
    word = clue_word(dealt())
    yes = Heard(HeardKind.SPEECH, text="yes", speaker="Hannah")
    session, out, table = table_session(
        tmp_path, [_judged(f"{word} two", f"{word} two", accepted=False), yes])
    assert session.run(fresh=True) is Stop.INPUT_ENDED
    assert f"I heard: Hannah gives the clue {word}, two. Is that right?" in out.getvalue()
    assert session.state.clue == (word, 2)
    log = (tmp_path / "log.jsonl").read_text(encoding="utf-8")
    assert '"event": "confirmation", "why": "irreversible"' in log


# --------------------------------------------------------------------------- echoed values


def _pick_heard(free: str, grammar: str, *, similarity: float = 0.88,
                looped: bool = False) -> Heard:
    reading = GrammarReading(grammar, margin=-0.6, score=-0.7, steps=8, similarity=similarity)
    judgement = Judgement(free_text=free, free_logp=-0.45, looped=looped, reading=reading,
                          accepted=True, reason=Rejection.NONE, confidence=0.66)
    return Heard(HeardKind.SPEECH, text=grammar, speaker="Ben", spoken=True, confidence=0.66,
                 closed_grammar=True, judgement=judgement)


def _echo(heard: Heard, lang: str = "en") -> tuple[bool, float]:
    from voice_host.intent import load_grammar
    opts = {"players": ["Ada", "Ben", "Cleo"], "deal": "host", "mode": "fragments",
            "rounds": 1, "lang": lang, "seed": 1, "first": None}
    state = new_game("ici-londres", opts)
    adapter = make_adapter("ici-londres", opts)
    pg = load_grammar("ici-londres", lang).phase("guess", adapter.slot_values(state))
    understood = understand(heard, pg.matcher, speaker="Ben")
    assert understood.best is not None
    return echoed(heard, understood.best, understood, pg), understood.confidence


@pytest.mark.parametrize(("free", "grammar", "similarity", "looped", "lang", "expected"), [
    ("my big is the spider", "my pick is the spider", 0.88, False, "en", True),
    ("ben big's the anchor", "ben picks the anchor", 0.87, False, "en", True),
    ("mon gros chou est l'araignée", "mon choix est l'araignée", 0.85, False, "fr", True),
    # the icon itself is not in the free transcript: no echo
    ("my big is the spade", "my pick is the spider", 0.8, False, "en", False),
    ("a brilliant wolf", "umbrella and wolf", 0.8, False, "en", False),
    # the free transcript means another move, holding the values and more
    ("ben picks the spider and the moon", "ben picks the spider", 0.8, False, "en", False),
    # unlike the sentence, or the decode was lost: no echo
    ("my big is the spider", "my pick is the spider", 0.6, False, "en", False),
    ("my big is the spider", "my pick is the spider", 0.88, True, "en", False),
])
def test_a_free_transcript_that_holds_every_value_vouches_for_a_doubtful_reading(
        free: str, grammar: str, similarity: float, looped: bool, lang: str,
        expected: bool) -> None:
    vouched, confidence = _echo(_pick_heard(free, grammar, similarity=similarity,
                                            looped=looped), lang)
    assert confidence < CONFIRM_BELOW  # doubtful by the margin alone
    assert vouched is expected
    decision = Decision(action=CLUE)
    assert (why_confirm(decision, confidence=confidence, plain=False, echoed=vouched)
            is (Why.NONE if expected else Why.DOUBTFUL))


def test_a_move_taken_because_it_sounds_like_the_transcript_is_confirmed_first() -> None:
    # French: base spelled "je choisis la clé" as it sounds; the reading was accepted by
    # the sound rule alone, at the lowest confidence (speech.decision.with_sound)
    from dataclasses import replace

    heard = _pick_heard("jeu choisie la clé", "je choisis la clé", similarity=0.45)
    assert heard.judgement is not None and heard.judgement.reading is not None
    sounded = replace(heard, confidence=0.6, judgement=replace(
        heard.judgement, confidence=0.6,
        reading=replace(heard.judgement.reading, sound=0.9, margin=-1.4)))
    vouched, confidence = _echo(sounded, "fr")
    assert not vouched and confidence < CONFIRM_BELOW
    assert why_confirm(Decision(action=CLUE), confidence=confidence, plain=False,
                       echoed=vouched) is Why.DOUBTFUL


def test_a_universal_command_buried_in_clear_talk_is_not_taken() -> None:
    """The demo's "Honestly, I have no idea what is going on." was read by the grammar as
    "what is going on" (status) and answered; typed, the matcher finds no command in it."""
    from voice_host.intent import load_grammar

    state = dealt()
    pg = load_grammar("codenames", "en").phase("guess", make_adapter(
        "codenames", OPTS).slot_values(state))
    talk = _judged("Honestly, I have no idea what is going on.", "what is going on")
    assert understand(talk, pg.matcher, speaker="Hannah").best is None
    asked = _judged("What is going on?", "what is going on")  # the command itself
    best = understand(asked, pg.matcher, speaker="Hannah").best
    assert best is not None and best.intent == "status"


@pytest.mark.parametrize(("free", "asked"), [
    ("{word}qx two", False),  # no word of English: no clue anyone could mean, no rival
    ("motion two", True),     # a real word: another clue the spymaster may have said
])
def test_a_free_transcript_that_names_no_real_clue_is_no_rival(tmp_path: Path, free: str,
                                                                asked: bool) -> None:
    from voice_host.games import lexicon

    if not lexicon.dictionary_available("en"):
        pytest.skip("wordfreq's English list is not installed: no dictionary to ask")
    word = clue_word(dealt())
    yes = Heard(HeardKind.SPEECH, text="yes", speaker="Hannah")
    # the free transcript unsure (as Whisper's "marikit one" was), the grammar sentence sure
    said = _judged(free.format(word=word), f"{word} two", free_logp=-2.0)
    session, out, table = table_session(tmp_path, [said, yes])
    session.run(fresh=True)
    assert ("Is that right?" in out.getvalue()) is asked
    assert session.state.clue == (word, 2)


def test_plainly_is_judged_with_the_recognizer_s_own_thresholds() -> None:
    """A French Whisper judges with French thresholds: "said plainly" reads its free
    transcript with the tuning the recognizer handed over, not English's defaults."""
    from dataclasses import replace

    from voice_host.speech.decision import SearchTuning

    state = dealt()
    word = clue_word(state)
    # the grammar sentence is not sure enough alone; the free transcript means the same
    # move, at a mean log-probability of -0.7: confident only where the bar is lower
    heard = _judged(f"the clue is {word} to", f"the clue is {word} two", confidence=0.85,
                    free_logp=-0.7)
    assert SearchTuning().free_min_logp > -0.7
    plain, best = _plain(heard, state)
    assert best is not None and not plain
    lenient = replace(SearchTuning(), free_min_logp=-0.8)
    plain, best = _plain(replace(heard, tuning=lenient), state)
    assert best is not None and plain
    strict = replace(SearchTuning(), free_min_logp=-0.05)
    plain, _ = _plain(replace(_judged(f"the clue is {word} to", f"the clue is {word} two",
                                      confidence=0.85), tuning=strict), state)
    assert not plain


@pytest.mark.parametrize(("said", "asked"), [
    ("as", True),     # one of English's most common words: hardly a clue, confirmed
    ("preble", True),  # no word of English (a demo's "travel", heard so by both readings)
    ("{word}", False),  # a clue word, plainly heard: played
])
def test_a_clue_of_a_function_word_or_no_word_is_confirmed_however_plainly_heard(
        tmp_path: Path, said: str, asked: bool) -> None:
    from voice_host.games import lexicon

    if not lexicon.dictionary_available("en"):
        pytest.skip("wordfreq's English list is not installed: no word frequencies")
    clue = said.format(word=clue_word(dealt()))
    yes = Heard(HeardKind.SPEECH, text="yes", speaker="Hannah")
    session, out, _ = table_session(tmp_path, [_judged(f"{clue} for two", f"{clue} for two"), yes])
    session.run(fresh=True)
    assert (f"I heard: Hannah gives the clue {clue}, two. Is that right?"
            in out.getvalue()) is asked
    assert session.state.clue == (clue, 2)


@pytest.mark.parametrize(("free", "asked"), [
    # Whisper mangled "the clue is" but wrote the clue word and the number: heard twice
    ("the clodwis {word} too", False),
    ("the clower {word} 2", False),
    # the number is not in it ("tube"), or another number is ("for one": no "four" then)
    ("the close {word} tube", True),
    ("the close {word} for one", True),
    # the word is not in it
    ("the ball for two", True),
])
def test_a_clue_whose_word_and_number_the_free_transcript_holds_is_played_unasked(
        tmp_path: Path, free: str, asked: bool) -> None:
    word = clue_word(dealt())
    yes = Heard(HeardKind.SPEECH, text="yes", speaker="Hannah")
    # the grammar sentence passed the rejection test, but is not sure enough alone to be
    # plain (0.8), and the free transcript reads as no move
    said = _judged(free.format(word=word), f"the clue is {word} two", confidence=0.8,
                   free_logp=-0.9, similarity=0.81)
    session, out, _ = table_session(tmp_path, [said, yes])
    session.run(fresh=True)
    assert ("Is that right?" in out.getvalue()) is asked, free
    assert session.state.clue == (word, 2)
