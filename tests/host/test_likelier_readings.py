"""Two readings of one utterance that differ only in an open slot's word: the likelier one
is taken, not asked about. Whisper's free transcript spelled the clue "love one" as "lobe
one" and "house for two" as "housed for two" (five Codenames demo games, Piper's voice):
the host asked "Did you mean love one, or lobe one?", or refused the grammar sentence
beside the unsure rival. A likely clue word (the grammar's list, the game's word list)
outranks a rarer real word, and any word outranks a spelling that is no word at all."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.support.codenames_table import OPTS, table_session
from voice_host.games import lexicon
from voice_host.games.codenames import CodenamesState
from voice_host.host.adapters import make_adapter, new_game
from voice_host.host.core.adapter import reading_prior
from voice_host.host.core.session import Stop
from voice_host.host.core.understanding import Understood, understand
from voice_host.host.core.values import Heard, HeardKind
from voice_host.intent import IntentMatch, PhaseGrammar, load_grammar
from voice_host.speech.decision import GrammarReading, Judgement, Rejection, Verdict

LIKELY, RARE = "love", "lobe"  # "love" is in grammars/en/clue-words.txt, "lobe" is not


def dealt() -> CodenamesState:
    state = new_game("codenames", OPTS)
    assert isinstance(state, CodenamesState)
    state.apply(state.chance_action(random.Random(OPTS["seed"])))
    assert LIKELY not in state.words and RARE not in state.words
    return state


def _phase(state: CodenamesState, phase: str = "clue") -> PhaseGrammar:
    adapter = make_adapter("codenames", OPTS)
    return load_grammar("codenames", "en").phase(phase, adapter.slot_values(state))


def _heard(grammar: str, free: str, *, accepted: bool = True, margin: float = -0.3,
           free_logp: float = -0.1) -> Heard:
    reading = GrammarReading(grammar, margin=margin, score=-0.4, steps=4, similarity=0.88)
    judgement = Judgement(free_text=free, free_logp=free_logp, looped=False, reading=reading,
                          accepted=accepted,
                          reason=Rejection.NONE if accepted else Rejection.LOW_MARGIN,
                          confidence=0.9 if accepted else 0.0, open_phase=True)
    return Heard(HeardKind.SPEECH, text=grammar if accepted else free, speaker="Hannah",
                 spoken=True, confidence=0.9 if accepted else 0.8, closed_grammar=accepted,
                 judgement=judgement)


def _understood(heard: Heard, *, prior: bool = True) -> Understood:
    state = dealt()
    pg = _phase(state)
    chosen = reading_prior(make_adapter("codenames", OPTS), state, pg) if prior else None
    return understand(heard, pg.matcher, speaker="Hannah", prior=chosen)


def _clue(understood: Understood) -> tuple[object, object] | None:
    best = understood.best
    if best is None or understood.result is None or understood.result.ambiguous:
        return None
    return best.slots.get("word"), best.slots.get("number")


def _needs_dictionary() -> None:
    if not lexicon.dictionary_available("en"):
        pytest.skip("wordfreq's English list is not installed: every word is possible")


def test_the_prior_ranks_likely_words_above_rare_ones_above_no_words() -> None:
    _needs_dictionary()
    state = dealt()
    prior = reading_prior(make_adapter("codenames", OPTS), state, _phase(state))
    assert prior is not None

    def rank(word: str) -> int:
        return prior(IntentMatch("clue", {"word": word, "number": 1}, 1.0, f"{word} one"))

    assert (rank(LIKELY), rank(RARE), rank("putball")) == (2, 1, 0)
    # a common word of the language is as likely as a listed one ("weekend" is not
    # listed): a demo's "travel two" (then unlisted) lost to the search's "triangle two"
    assert rank("weekend") == rank("triangle") == 2
    # ... but not one of its function words: "as for two", Whisper's writing of a demo's
    # "house for two", was asked about beside the grammar search's "house"
    assert rank("as") == rank("for") == 1
    # a rare word of the game's own list is a clue a spymaster could mean (it was ranked
    # with "putball" while "plausible" asked for a common word)
    assert rank("walrus") == 2
    # a closed phase's values are all expected: no prior
    assert reading_prior(make_adapter("codenames", OPTS), state, _phase(state, "guess")) is None


@pytest.mark.parametrize(("grammar", "free", "free_logp"), [
    # both confident: the players were asked "Did you mean love one, or lobe one?"
    (f"{LIKELY} one", f"{RARE} one", -0.1),
    # the free transcript unsure: the grammar sentence was refused beside its rival
    (f"{LIKELY} one", f"{RARE} one", -0.9),
])
def test_a_likely_clue_word_outranks_a_rare_spelling_of_it(grammar: str, free: str,
                                                           free_logp: float) -> None:
    _needs_dictionary()
    heard = _heard(grammar, free, free_logp=free_logp)
    assert _clue(_understood(heard, prior=False)) is None  # as before: asked, or nothing
    understood = _understood(heard)
    assert _clue(understood) == (LIKELY, 1)
    assert understood.verdict is Verdict.GRAMMAR
    assert understood.free is not None and understood.free.slots["word"] == RARE  # kept


def test_a_listed_clue_word_outranks_a_function_word_written_for_it() -> None:
    """A demo's "house for two", written "as for two" (a confident clue of "as") beside the
    grammar search's accepted "house for two": the host asked which was meant."""
    _needs_dictionary()
    heard = _heard("house for two", "as for two")
    assert _clue(_understood(heard, prior=False)) is None  # asked
    understood = _understood(heard)
    assert _clue(understood) == ("house", 2) and understood.verdict is Verdict.GRAMMAR


def test_the_free_transcript_s_likely_word_outranks_the_grammar_s_rare_one() -> None:
    _needs_dictionary()
    understood = _understood(_heard(f"{RARE} one", f"{LIKELY} one"))
    assert _clue(understood) == (LIKELY, 1) and understood.verdict is Verdict.FREE


@pytest.mark.parametrize("heard", [
    # the likelier reading is not confident on its own route: nothing to prefer it on
    _heard(f"{LIKELY} one", f"{RARE} one", accepted=False, free_logp=-0.9),
    _heard(f"{RARE} one", f"{LIKELY} one", free_logp=-0.9, margin=-0.3),
    # they differ in the number too: still a question
    _heard(f"{LIKELY} one", f"{RARE} two"),
])
def test_no_reading_is_preferred_without_the_evidence(heard: Heard) -> None:
    _needs_dictionary()
    before, after = _understood(heard, prior=False), _understood(heard)
    assert (_clue(after), after.verdict) == (_clue(before), before.verdict)


def test_the_session_takes_the_likely_clue_and_confirms_it_against_its_rival(
        tmp_path: Path) -> None:
    """No "Did you mean" question: the likely clue, confirmed (the free transcript means
    another real clue, so it was not said plainly), then played."""
    _needs_dictionary()
    yes = Heard(HeardKind.SPEECH, text="yes", speaker="Hannah")
    session, out, _ = table_session(tmp_path, [_heard(f"{LIKELY} one", f"{RARE} one"), yes])
    assert session.run(fresh=True) is Stop.INPUT_ENDED
    assert "Did you mean" not in out.getvalue()
    assert f"I heard: Hannah gives the clue {LIKELY}, one. Is that right?" in out.getvalue()
    state = session.state
    assert isinstance(state, CodenamesState) and state.clue == (LIKELY, 1)
