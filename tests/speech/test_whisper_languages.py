"""What the Whisper recognizer's settings change by language (no model needed)."""

from __future__ import annotations

import os

import pytest

from voice_host.speech.decision import SearchTuning
from voice_host.speech.whisper_asr import WhisperTuning
from voice_host.speech.whisper_languages import LanguageTuning


def test_english_hears_the_default_window_and_french_the_whole_30_seconds() -> None:
    tuning = WhisperTuning()
    assert tuning.window_for("en") == tuning.window_seconds == 8.0
    assert tuning.window_for("fr") == 30.0
    # French's decoder attends to the utterance and 12 s after it; English to its window
    assert tuning.memory_for("fr") == 12.0 and tuning.memory_for("en") == 0.0
    assert WhisperTuning(memory_seconds=2.0).memory_for("fr") == 2.0  # the run's own wins


def test_both_languages_decode_with_voice_hosts_own_decoder_unless_told() -> None:
    # the own decoder keeps the cross-attention memory and every prefix for the utterance
    tuning = WhisperTuning()
    assert tuning.decoder_for("en") == tuning.decoder_for("fr") == "own"
    assert WhisperTuning(decoder="ctranslate2").decoder_for("fr") == "ctranslate2"
    assert WhisperTuning(languages={}).decoder_for("fr") == "ctranslate2"  # the default
    with pytest.raises(ValueError):
        WhisperTuning(decoder="other").decoder_for("fr")


def test_french_and_english_search_with_their_own_settings() -> None:
    tuning = WhisperTuning()
    english = tuning.search_for("en")
    # the nearest sentences; two rescue rounds, only where the free decode began inside
    # the grammar; one round for an open slot's search, and for sure talk; a reading
    # that sounds like a transcript tiny.en was unsure of, unless the near search found it;
    # a reading of three words or more close to the transcript from a similarity of 0.7
    assert english == SearchTuning(rescue_rounds=2, rescue_from=2, open_rounds=1,
                                   talk_rounds=1, sound_similarity=0.6, sound_margin=-1.6,
                                   sound_unsure_only=True, sound_near=False,
                                   long_close_similarity=0.7)
    assert english.near_sentences > 0
    french = tuning.search_for("fr")
    assert french.rescue_rounds == 2 and french.near_sentences > 0
    assert french.complete_rounds == 2 and french.sure_alone > english.sure_alone
    # base's French commands score lower than tiny.en's English: looser acceptance bars,
    # and a stricter likeness for a reading to stand beside its transcript
    assert french.accept_margin < english.accept_margin
    assert french.close_margin < english.close_margin
    assert french.free_min_logp < english.free_min_logp
    assert french.min_similarity > english.min_similarity
    # a reading that sounds like base's French transcript stands, however sure base was
    # of it; in English only beside a transcript tiny.en was unsure of
    assert french.sound_similarity <= 1.0 and english.sound_similarity <= 1.0
    assert not french.sound_unsure_only and english.sound_unsure_only
    assert french.sound_near and not english.sound_near
    assert french.sound_margin <= french.close_margin


def test_a_language_can_be_given_its_own_settings() -> None:
    own = SearchTuning(rounds=5)
    tuning = WhisperTuning(languages={"de": LanguageTuning(window_seconds=12.0, search=own,
                                                           near=True)})
    assert tuning.window_for("de") == 12.0 and tuning.search_for("de") == own
    assert tuning.window_for("fr") == 8.0  # a table without French: the defaults
    assert tuning.search_for("fr") == SearchTuning(near_sentences=0)


def test_english_decodes_on_one_thread_and_french_on_every_core_up_to_four(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    tuning = WhisperTuning()
    assert tuning.threads_for("en") == 1  # tiny.en's steps are too small to share
    assert tuning.threads_for("fr") == 4  # base's 30-s encoder is not
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert tuning.threads_for("fr") == 2
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert tuning.threads_for("fr") == 1
    # a setting given for the recognizer wins over the language's
    assert WhisperTuning(threads=3).threads_for("en") == 3
