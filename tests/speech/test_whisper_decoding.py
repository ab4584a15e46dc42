"""How the Whisper recognizer asks CTranslate2 for work: the encoder's window fitted to the
utterance (``WhisperTuning.fit_seconds``) and generate's length (no model)."""

from __future__ import annotations

from voice_host.speech.types import SAMPLE_RATE
from voice_host.speech.whisper_asr import WhisperRecognizer, WhisperTuning


def recognizer(tuning: WhisperTuning) -> WhisperRecognizer:
    ears = WhisperRecognizer.__new__(WhisperRecognizer)
    ears.tuning = tuning
    ears._window = tuning.window_seconds
    return ears


def test_the_whole_window_unless_fitted() -> None:
    ears = recognizer(WhisperTuning(window_seconds=8.0))
    assert ears.window_for(SAMPLE_RATE) == 8.0


def test_a_fitted_window_is_the_utterance_and_some_silence_within_bounds() -> None:
    ears = recognizer(WhisperTuning(window_seconds=8.0, fit_seconds=1.5, min_window_seconds=3.0))
    assert ears.window_for(SAMPLE_RATE // 2) == 3.0  # a short word: the shortest window
    assert ears.window_for(3 * SAMPLE_RATE) == 4.5
    assert ears.window_for(12 * SAMPLE_RATE) == 8.0  # never more than the window


def test_generate_is_asked_for_just_the_tokens_wanted() -> None:
    from voice_host.speech.whisper_asr import max_length

    # CTranslate2 writes min(max_length - previous - 1, max_length // 2) tokens
    for previous in (0, 11, 65):
        for tokens in (1, 5, 12, 40):
            length = max_length(tokens, previous)
            assert min(length - previous - 1, length // 2) == tokens
