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
    return WhisperRecognizer.without_model(tuning=WhisperTuning(), decode=decode)


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


def noise(level: float, seed: int) -> np.ndarray:
    """A frame of white noise at an RMS of ``level`` (int16 units)."""
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal(0, level, 480), -32768, 32767).astype(np.int16)


def babble_utterance(ears: WhisperRecognizer, room: float = 1000.0,
                     speech_db: float = 12.0) -> None:
    """A room that talks: its noise before the utterance (the pre-roll), speech only
    ``speech_db`` louder (babble at 12 dB SNR), then the room again."""
    loud = room * 10 ** (speech_db / 20)
    for i in range(10):
        ears.feed(noise(room, i))
    for i in range(25):
        ears.feed(noise(loud, 100 + i))
    for i in range(ears.tuning.speculate_quiet_frames + ears.tuning.speculate_smooth_frames):
        ears.feed(noise(room, 200 + i))


def test_a_decode_starts_in_the_pause_of_a_room_that_talks() -> None:
    # the speech stands only 12 dB above the room: the 15-dB drop never comes, but the
    # endpointer's own end test (8 dB below the speech) does
    decode = SlowDecode()
    ears = recognizer(decode)
    babble_utterance(ears)
    assert decode.started.wait(5)
    decode.step.set()
    transcript = ears.finish()
    assert transcript.text == "done" and ears.speculated == 1
    assert transcript.details["speculated"] == 1


def test_the_drop_test_alone_starts_no_decode_in_such_a_room() -> None:
    decode = SlowDecode()
    ears = recognizer(decode)
    ears.tuning = WhisperTuning(speculate_end_db=0.0)
    ears.start_utterance()
    babble_utterance(ears)
    assert ears._speculation is None and not decode.started.is_set()


def test_speech_again_after_a_pause_in_such_a_room_makes_the_decode_stale() -> None:
    decode = SlowDecode()
    ears = recognizer(decode)
    babble_utterance(ears)
    assert decode.started.wait(5)
    speculation = ears._speculation
    assert speculation is not None
    for i in range(6):  # the player goes on, as loud as before
        ears.feed(noise(1000.0 * 10 ** (12 / 20), 300 + i))
    assert speculation.cancel.is_set()
    decode.step.set()
    speculation.thread.join(5)
    assert speculation.transcript is None


def test_a_new_grammar_s_first_tokens_are_found_when_it_is_set() -> None:
    from voice_host.speech.types import RecognitionGrammar

    texts = {0: " yes", 1: " no", 2: " pass", 3: "."}
    ears = WhisperRecognizer.without_model(vocabulary=texts, eot=4)
    ears.set_grammar(RecognitionGrammar(
        name="vote", jsgf="#JSGF V1.0;\ngrammar g;\npublic <s> = yes | no;\n",
        words=frozenset({"yes", "no"})))
    assert ears._grammar is not None
    constraint = ears._grammar.searches[0].constraint
    assert constraint.start in constraint._arrays  # the search will find them cached


def test_the_room_test_is_off_unless_asked_for() -> None:
    # babble at 6 dB: speech 7 dB above the room is short of the 8-dB end drop; only the
    # room test (back within 4 dB of the room) would start a decode
    decode = SlowDecode()
    ears = recognizer(decode)
    babble_utterance(ears, speech_db=7.0)
    assert ears._speculation is None
    ears.tuning = WhisperTuning(speculate_room_db=4.0)
    ears.start_utterance()
    babble_utterance(ears, speech_db=7.0)
    assert decode.started.wait(5)
    decode.step.set()
    assert ears.finish().text == "done"
