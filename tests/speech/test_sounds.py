"""A grammar reading that sounds like what the decoder spelled: the sound key, its
similarity, and the rule of the rejection that uses it (made-up figures, no model)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from voice_host.speech import sounds
from voice_host.speech.decision import (
    GrammarReading,
    Judgement,
    Rejection,
    SearchTuning,
    rejection,
    sound_may_help,
    with_sound,
)
from voice_host.speech.pronounce import espeak_available

needs_espeak = pytest.mark.skipif(not espeak_available(), reason="espeak-ng is not installed")

ON = SearchTuning(sound_similarity=0.85, sound_margin=-1.2)
"""The rule turned on (it is off by default: a similarity above 1)."""


@pytest.mark.parametrize(("ipa", "key"), [
    ("la- tˈɔp sə- ʒˈak", "latopseʒak"),      # stress, breaks and schwa dropped or folded
    ("la- tˈop sɛ ʒˈak", "latopseʒak"),       # open and closed vowels are one
    ("mˈɛ pˈoz", "mepos"),                     # s and z are one (liaison, accents)
    ("atˈɑ̃z œ̃n ɛ̃stˈɑ̃", "ataNseNneNstaN"),     # a nasal vowel keeps its nasality
    ("(en)kˈɛli(fr) laskˈɔʁ", "kelilaskor"),   # espeak-ng's language switches dropped
    ("hˈɛlə", "hele"),
])
def test_the_sound_key_keeps_what_an_accent_does_not_change(ipa: str, key: str) -> None:
    assert sounds.fold(ipa) == key


def test_texts_espeak_ng_cannot_say_have_no_similarity(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    assert sounds.sound_similarity("", "mets pause", "fr") is None
    monkeypatch.setattr(sounds, "espeak_ipa", lambda texts, voice: None)
    sounds._keys.cache_clear()
    try:
        assert sounds.sound_similarity("mepos", "mets pause", "fr") is None
    finally:
        sounds._keys.cache_clear()


@needs_espeak
def test_a_transcript_spelled_as_it_sounds_is_near_its_sentence() -> None:
    # what Whisper base wrote for Kokoro voices saying the French commands
    alike = [("la top se jaque", "la taupe c'est jack"), ("mepos", "mets pause"),
             ("kelly lascore", "quel est le score")]
    unlike = [("il pude aussi", "oui"), ("je vous remercie", "il y a une"),
              ("les enfants dorment en fait", "l'éclair")]
    near = [sounds.sound_similarity(a, b, "fr") for a, b in alike]
    far = [sounds.sound_similarity(a, b, "fr") for a, b in unlike]
    assert all(v is not None for v in near + far)
    assert min(v for v in near if v is not None) >= 0.8
    assert max(v for v in far if v is not None) <= 0.5
    # far more alike by sound than by letters
    from rapidfuzz import fuzz
    by_sound = sounds.sound_similarity("mepos", "mets pause", "fr")
    assert by_sound is not None and by_sound > fuzz.ratio("mepos", "mets pause") / 100 + 0.2


def reading(margin: float, similarity: float, sound: float, steps: int = 6) -> GrammarReading:
    return GrammarReading("la taupe c'est jack", margin, margin - 0.2, steps, similarity,
                          sound=sound)


@pytest.mark.parametrize(("margin", "similarity", "sound", "expected"), [
    (-1.1, 0.45, 0.95, Rejection.NONE),         # sounds alike: down to the sound margin
    (-1.3, 0.45, 0.95, Rejection.LOW_MARGIN),   # too forced even so
    (-1.1, 0.45, 0.80, Rejection.LOW_MARGIN),   # not alike enough in sound
    (-1.1, 0.45, -1.0, Rejection.LOW_MARGIN),   # not measured: the rule does not apply
    (-0.5, 0.30, 0.95, Rejection.NONE),         # a middling margin unlike in letters
    (-0.5, 0.30, 0.50, Rejection.UNLIKE_TRANSCRIPT),
])
def test_a_reading_that_sounds_like_the_transcript_is_taken_down_to_the_sound_margin(
        margin: float, similarity: float, sound: float, expected: Rejection) -> None:
    heard = reading(margin, similarity, sound)
    assert judged(heard, Rejection.LOW_MARGIN).rejection_of(heard, ON) is expected
    assert rejection(heard, ON, sounds_alike=sound >= ON.sound_similarity) is expected


def test_the_rule_is_off_by_default_and_in_a_phase_with_an_open_slot() -> None:
    heard = reading(-1.1, 0.45, 1.0)
    assert judged(heard, Rejection.LOW_MARGIN).rejection_of(heard, SearchTuning()) \
        is Rejection.LOW_MARGIN
    # the Codenames clue: the open slot's word is whatever the transcript wrote
    clue = replace(judged(heard, Rejection.LOW_MARGIN), open_phase=True)
    assert clue.rejection_of(heard, ON) is Rejection.LOW_MARGIN
    assert not with_sound(clue, 0.95, ON).accepted


def judged(reading_: GrammarReading | None, reason: Rejection) -> Judgement:
    return Judgement("la top se jaque", -0.9, False, reading_, False, reason, 0.0)


def test_with_sound_accepts_a_rejected_reading_at_the_lowest_confidence() -> None:
    before = judged(reading(-1.1, 0.45, -1.0), Rejection.LOW_MARGIN)
    after = with_sound(before, 0.95, ON)
    assert after.accepted and after.reason is Rejection.NONE
    assert after.confidence == 0.6  # the host confirms it first
    assert after.reading is not None and after.reading.sound == 0.95
    assert after.figures()["sound"] == 0.95
    # the figures bring the sound back, so the benchmark decides again as the host did
    again = Judgement.from_figures(after.figures())
    assert again.reading is not None and again.reading.sound == 0.95
    assert again.rejection_of(again.reading, ON) is Rejection.NONE


@pytest.mark.parametrize(("sound", "reason", "margin"), [
    (0.70, Rejection.LOW_MARGIN, -1.1),      # not alike enough
    (0.95, Rejection.LOW_MARGIN, -1.5),      # too forced
    (None, Rejection.LOW_MARGIN, -1.1),      # espeak-ng could not say
    (0.95, Rejection.TALK, -1.1),            # talk is never searched, never taken
])
def test_with_sound_leaves_what_it_cannot_change(sound: float | None, reason: Rejection,
                                                 margin: float) -> None:
    before = judged(reading(margin, 0.45, -1.0), reason)
    after = with_sound(before, sound, ON)
    assert not after.accepted and after.reason is reason
    assert after.reading is not None
    assert after.reading.sound == (-1.0 if sound is None else sound)


def test_with_sound_needs_a_reading() -> None:
    before = judged(None, Rejection.NO_SENTENCE)
    assert with_sound(before, 0.95, ON) is before
    accepted = replace(judged(reading(-0.2, 0.9, -1.0), Rejection.NONE), accepted=True,
                       confidence=0.9)
    assert with_sound(accepted, 0.3, ON).accepted


@pytest.mark.parametrize(("change", "worth"), [
    ({}, True),                                     # rejected, within reach: measure it
    ({"accepted": True}, False),                    # nothing to change
    ({"open_phase": True}, False),                  # the rule is not for an open slot
    ({"margin": -1.3}, False),                      # beyond the sound margin
])
def test_the_sound_is_measured_only_where_it_could_change_the_verdict(
        change: dict[str, object], worth: bool) -> None:
    margin = change.pop("margin", -1.1)
    assert isinstance(margin, float)
    judgement = replace(judged(reading(margin, 0.45, -1.0), Rejection.LOW_MARGIN), **change)
    assert sound_may_help(judgement, ON) is worth
    assert not sound_may_help(judgement, SearchTuning())  # off by default
    assert not sound_may_help(judged(None, Rejection.NO_SENTENCE), ON)


@pytest.mark.parametrize(("free_logp", "taken"), [
    (-1.36, True),   # "buzz" for "pass": tiny.en unsure of what it wrote
    (-0.61, True),   # just below free_min_logp
    (-0.60, False),  # at it: the decoder counts its transcript as heard
    (-0.06, False),  # "what did hannah just say", sure: words heard, not a spelling
])
def test_with_the_guard_the_sound_rule_holds_only_beside_an_unsure_transcript(
        free_logp: float, taken: bool) -> None:
    guarded = replace(ON, sound_unsure_only=True)
    heard = reading(-1.1, 0.45, 0.95)
    before = replace(judged(replace(heard, sound=-1.0), Rejection.LOW_MARGIN),
                     free_logp=free_logp)
    assert sound_may_help(before, guarded) is taken  # espeak-ng is asked only if it helps
    assert replace(before, reading=heard).rejection_of(heard, guarded) is (
        Rejection.NONE if taken else Rejection.LOW_MARGIN)
    assert with_sound(before, 0.95, guarded).accepted is taken
    # without the guard, any transcript
    assert with_sound(before, 0.95, ON).accepted


def test_without_sound_near_the_rule_leaves_the_near_search_s_sentence_alone() -> None:
    # the near search tried the sentences spelled most like the transcript, so the one it
    # found sounds like it by the way it was chosen ("our sineister is brilliant", talk
    # at a Codenames table, and "our answer is a civilian", 0.74 alike in sound)
    found = replace(reading(-1.1, 0.45, 0.95), near=True)
    own = judged(found, Rejection.LOW_MARGIN)
    strict = replace(ON, sound_near=False)
    assert own.rejection_of(found, ON) is Rejection.NONE
    assert own.rejection_of(found, strict) is Rejection.LOW_MARGIN
    assert not sound_may_help(own, strict) and sound_may_help(own, ON)
    assert not with_sound(judged(replace(found, sound=-1.0), Rejection.LOW_MARGIN), 0.95,
                          strict).accepted
    # the grammar search's own sentence still has the rule
    assert judged(replace(found, near=False), Rejection.LOW_MARGIN).rejection_of(
        replace(found, near=False), strict) is Rejection.NONE
    # the figures keep where it came from, so the benchmark decides again as the host did
    again = Judgement.from_figures(own.figures())
    assert again.reading is not None and again.reading.near
    assert again.rejection_of(again.reading, strict) is Rejection.LOW_MARGIN
