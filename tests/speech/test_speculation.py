"""The decode started during the trailing silence is called off when the speaker goes on
talking (no model: the recognizer's streaming part with a fake decode)."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from voice_host.speech.types import Transcript
from voice_host.speech.whisper_asr import (
    Cancelled,
    WhisperRecognizer,
    WhisperTuning,
    _Encoded,
)

LOUD = (8000 * np.sin(np.arange(480) / 3)).astype(np.int16)
QUIET = np.zeros(480, dtype=np.int16)


class SlowDecode:
    """A fake ``_recognize``: one decoder call per ``step`` event, checking the call-off
    between calls as the real decoder does."""

    def __init__(self) -> None:
        self.step = threading.Event()
        self.started = threading.Event()
        self.calls = 0

    def __call__(self, audio: Any, grammar: Any, started: float,
                 cancel: threading.Event | None = None) -> Transcript:
        self.started.set()
        for _ in range(3):
            if cancel is not None and cancel.is_set():
                raise Cancelled
            self.step.wait(5)
            self.calls += 1
        return Transcript("done", (), 1.0, 0.0, 0.0, "whisper")


def recognizer(decode: SlowDecode) -> WhisperRecognizer:
    ears = WhisperRecognizer.__new__(WhisperRecognizer)
    ears.tuning = WhisperTuning()
    ears._grammar = object()  # type: ignore[assignment]
    ears._recognize = decode  # type: ignore[method-assign]
    ears.speculated = 0
    ears.start_utterance()
    return ears


def test_a_stale_speculative_decode_is_called_off() -> None:
    decode = SlowDecode()
    ears = recognizer(decode)
    for _ in range(20):
        ears.feed(LOUD)
    for _ in range(ears.tuning.speculate_quiet_frames):
        ears.feed(QUIET)
    assert decode.started.wait(5)
    speculation = ears._speculation
    assert speculation is not None and speculation.thread.is_alive()
    ears.feed(LOUD)  # the speaker goes on
    assert speculation.cancel.is_set()
    decode.step.set()
    speculation.thread.join(5)
    assert not speculation.thread.is_alive()
    assert speculation.transcript is None and speculation.error is None
    assert decode.calls < 3  # it stopped at its next call, not after the whole decode


def test_a_speculative_decode_that_still_stands_is_not_called_off() -> None:
    decode = SlowDecode()
    ears = recognizer(decode)
    for _ in range(20):
        ears.feed(LOUD)
    for _ in range(ears.tuning.speculate_quiet_frames + 5):
        ears.feed(QUIET)
    speculation = ears._speculation
    assert speculation is not None and not speculation.cancel.is_set()
    decode.step.set()
    speculation.thread.join(5)
    assert speculation.transcript is not None and speculation.transcript.text == "done"


def test_a_called_off_decoder_makes_no_further_call() -> None:
    cancel = threading.Event()
    owner = SimpleNamespace(_eot=3, tuning=WhisperTuning())
    decoder = _Encoded(owner, np.zeros((1, 2, 2), np.float32), [0], cancel)  # type: ignore[arg-type]
    cancel.set()
    with pytest.raises(Cancelled):
        decoder.continue_prefixes([()], 4)
    assert decoder.calls == 0
