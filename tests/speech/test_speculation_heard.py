"""The decode during the trailing silence, paced by the endpointer's own verdicts
(``WhisperRecognizer.feed_heard``): it starts ``heard_frames`` frames after the last speech
frame, and the end decodes exactly that audio, so a decode that still stands is the one the
end needs (no model: the recognizer's streaming part with a fake decode)."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from voice_host.speech.endpointer import Endpointer
from voice_host.speech.source import ArraySource
from voice_host.speech.types import Transcript
from voice_host.speech.whisper_asr import Cancelled, WhisperRecognizer, WhisperTuning

FRAME = 480
LOUD = (8000 * np.sin(np.arange(FRAME) / 3)).astype(np.int16)
QUIET = np.zeros(FRAME, dtype=np.int16)


class RecordingDecode:
    """A fake ``_recognize`` that notes how many frames of audio each decode was given and
    waits on ``step`` between its decoder calls, checking the call-off as the real one does."""

    def __init__(self, *, block: bool = False) -> None:
        self.step = threading.Event()
        if not block:
            self.step.set()
        self.frames: list[int] = []
        self.started = threading.Event()

    def __call__(self, audio: Any, grammar: Any, started: float,
                 cancel: threading.Event | None = None) -> Transcript:
        self.frames.append(len(audio) // FRAME)
        self.started.set()
        for _ in range(2):
            if cancel is not None and cancel.is_set():
                raise Cancelled
            self.step.wait(5)
        return Transcript(f"{len(audio) // FRAME} frames", (), 1.0, 0.0, 0.0, "whisper")


def recognizer(decode: RecordingDecode, **tuning: Any) -> WhisperRecognizer:
    return WhisperRecognizer.without_model(tuning=WhisperTuning(**tuning), decode=decode)


def speak(ears: WhisperRecognizer, speech: int, quiet: int) -> None:
    for _ in range(speech):
        ears.feed_heard(LOUD, 0)
    for run in range(1, quiet + 1):
        ears.feed_heard(QUIET, run)


def test_the_decode_starts_after_heard_frames_and_is_the_one_the_end_takes() -> None:
    decode = RecordingDecode()
    ears = recognizer(decode)
    speak(ears, 20, ears.tuning.heard_frames - 1)
    assert ears._speculation is None  # one frame short of the pause
    speak(ears, 0, 0)
    ears.feed_heard(QUIET, ears.tuning.heard_frames)
    assert ears._speculation is not None
    for run in range(ears.tuning.heard_frames + 1, 18):
        ears.feed_heard(QUIET, run)
    transcript = ears.finish()
    assert transcript.details["speculated"] == 1 and ears.speculated == 1
    assert decode.frames == [20 + ears.tuning.heard_frames]  # one decode, not two
    assert transcript.details["ahead_frames"] == 17 - ears.tuning.heard_frames


def test_the_end_decodes_the_speech_and_heard_frames_after_it_only() -> None:
    decode = RecordingDecode()
    ears = recognizer(decode, speculate=False)
    speak(ears, 30, 17)
    transcript = ears.finish()
    assert decode.frames == [30 + ears.tuning.heard_frames]
    assert transcript.text == f"{30 + ears.tuning.heard_frames} frames"
    assert ears.speculated == 0


def test_speech_after_the_pause_calls_the_decode_off_and_a_new_one_starts() -> None:
    decode = RecordingDecode(block=True)
    ears = recognizer(decode)
    speak(ears, 10, ears.tuning.heard_frames)
    first = ears._speculation
    assert first is not None and decode.started.wait(5)
    speak(ears, 5, 0)  # the player goes on
    assert first.cancel.is_set() and ears._speculation is None
    speak(ears, 0, 17)
    second = ears._speculation
    assert second is not None and second is not first
    decode.step.set()
    transcript = ears.finish()
    first.thread.join(5)
    assert first.transcript is None  # called off, its result never used
    assert transcript.details["speculated"] == 1
    # the speech now ends after 10 frames, the pause and 5 more
    k = ears.tuning.heard_frames
    assert decode.frames[-1] == 10 + k + 5 + k


def test_without_verdicts_the_whole_audio_is_decoded() -> None:
    decode = RecordingDecode()
    ears = recognizer(decode, speculate=False)
    for _ in range(12):
        ears.feed(LOUD)
    for _ in range(10):
        ears.feed(QUIET)
    ears.finish()
    assert decode.frames == [22]


def test_the_endpointer_counts_its_quiet_frames_and_keeps_the_last_run() -> None:
    endpointer = Endpointer()
    tone = (6000 * np.sin(np.arange(FRAME) * 0.2)).astype(np.int16)
    for _ in range(40):
        endpointer.feed(QUIET)
    assert endpointer.quiet_frames == 0  # no utterance yet
    for _ in range(15):
        endpointer.feed(tone)
    assert endpointer.in_speech and endpointer.quiet_frames == 0
    endpointer.feed(QUIET)
    endpointer.feed(QUIET)
    assert endpointer.quiet_frames == 2
    done: list[Any] = []
    while not done:
        done = endpointer.feed(QUIET)
    assert not endpointer.in_speech
    assert endpointer.quiet_frames * 0.03 >= endpointer.config.trailing_silence - 1e-9


def test_the_source_passes_the_endpointer_s_verdict_with_every_frame() -> None:
    tone = (6000 * np.sin(np.arange(FRAME) * 0.2)).astype(np.int16)
    audio = np.concatenate([np.zeros(FRAME * 40, np.int16), np.tile(tone, 15),
                            np.zeros(FRAME * 30, np.int16)])
    seen: list[tuple[bool, int]] = []
    utterance = ArraySource(audio).listen(
        on_frame=lambda frame, restart, quiet: seen.append((restart, quiet)))
    assert utterance.speech_seconds > 0.3
    assert seen[0] == (True, -1)
    quiet = [q for _, q in seen]
    assert quiet[-1] == 17 and quiet[-17:] == list(range(1, 18))  # the trailing run
    assert set(quiet[:10]) == {-1} and all(q == 0 for q in quiet[10:-17])  # room, speech


def test_the_room_before_the_speech_stands_in_for_the_trailing_silence() -> None:
    decode = RecordingDecode()
    ears = recognizer(decode, speculate=False)
    room = [np.full(FRAME, 100 + i, np.int16) for i in range(10)]
    for frame in room:
        ears.feed_heard(frame, -1)
    speak(ears, 20, 17)
    ears.finish()
    fill = ears.tuning.heard_fill
    assert decode.frames == [10 + 20 + ears.tuning.heard_frames + fill]


def test_the_room_fill_leaves_out_the_frames_nearest_the_speech() -> None:
    ears = recognizer(RecordingDecode())
    for i in range(5):
        ears.feed_heard(np.full(FRAME, 100 + i, np.int16), -1)
    speak(ears, 3, 0)
    audio = ears._heard_audio(ears._decoded_end())
    tail = audio[-ears.tuning.heard_fill * FRAME:].reshape(-1, FRAME)[:, 0]
    assert set(tail.tolist()) == {100, 101}  # the last three of the pre-roll are left out


def test_no_room_fill_when_it_is_off() -> None:
    decode = RecordingDecode()
    ears = recognizer(decode, speculate=False, heard_fill=0)
    for i in range(10):
        ears.feed_heard(np.full(FRAME, 100 + i, np.int16), -1)
    speak(ears, 20, 17)
    ears.finish()
    assert decode.frames == [10 + 20 + ears.tuning.heard_frames]


def test_a_wait_starts_the_decode_later_on_the_same_audio() -> None:
    decode = RecordingDecode()
    ears = recognizer(decode, speculate_wait_frames=4)
    k = ears.tuning.heard_frames
    speak(ears, 10, k + 3)  # a pause inside the sentence, shorter than the wait
    speak(ears, 10, 0)
    assert not decode.started.is_set()  # nothing started, nothing called off
    speak(ears, 0, k + 4)
    assert decode.started.wait(5)
    for run in range(k + 5, 18):
        ears.feed_heard(QUIET, run)
    transcript = ears.finish()
    assert transcript.details["speculated"] == 1 and transcript.details["called_off"] == 0
    assert decode.frames == [10 + k + 3 + 10 + k]  # the speech and heard_frames after it


def test_french_waits_for_its_own_frames_and_english_does_not() -> None:
    tuning = WhisperTuning()
    assert tuning.speculate_wait_for("en") == 0
    assert tuning.speculate_wait_for("fr") > 0
    assert WhisperTuning(speculate_wait_frames=0).speculate_wait_for("fr") == 0
