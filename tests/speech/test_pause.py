"""The pause test (pure: levels in, pauses out)."""

from __future__ import annotations

import numpy as np

from voice_host.speech.pause import ROOM_LEAST, PauseSettings, PauseTest


def frame(level: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal(0, level, 480), -32768, 32767).astype(np.int16)


def test_the_room_is_the_leading_frames_up_to_the_first_loud_one() -> None:
    test = PauseTest(PauseSettings())
    for i in range(5):
        test.add(frame(100.0, i))
    for i in range(5):
        test.add(frame(3000.0, 10 + i))  # about 30 dB louder: speech
    room = test.room()
    assert room is not None
    level, count = room
    assert count == 5
    assert abs(level - 20 * np.log10(100.0)) < 1.0


def test_a_pre_roll_cut_short_gives_no_room() -> None:
    test = PauseTest(PauseSettings())
    for i in range(ROOM_LEAST - 1):
        test.add(frame(100.0, i))
    for i in range(10):
        test.add(frame(3000.0, 10 + i))
    assert test.room() is None


def test_speech_from_the_first_frame_is_no_room() -> None:
    # no pre-roll: the leading frames are speech, and 5 dB softer speech after them is no
    # pause (it would be within the room test's margin of them), nor is it the 8-dB drop
    test = PauseTest(PauseSettings())
    for i in range(20):
        test.add(frame(3000.0, i))
    for i in range(12):
        test.add(frame(3000.0 * 10 ** (-5 / 20), 50 + i))
    assert test.pause() is None
    test.add(frame(3000.0 * 10 ** (-12 / 20), 99))
    for i in range(12):
        test.add(frame(3000.0 * 10 ** (-12 / 20), 100 + i))
    assert test.pause() is not None
