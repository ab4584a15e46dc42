"""The pause test of a streaming decoder: has the player stopped talking, before the
endpointer has waited out its trailing silence?

This module is pure (levels of fed frames in, a verdict out).  A recognizer that decodes
during the trailing silence (:class:`~voice_host.speech.whisper_asr.WhisperRecognizer`)
starts a decode when :meth:`PauseTest.pause` finds one, and takes that decode's result
only while :meth:`PauseTest.holds` says nothing but quiet came after it.

Two tests, either finds a pause of ``quiet`` frames in a row:

1. **Drop**: every one of them is ``drop_db`` below the loud part (90th percentile) of the
   frames before them. Sure in a quiet room; in a room that talks (babble at 12 dB falls
   only about 12 dB when the player stops, at 6 dB about 7) it never fires.
2. **End**: the endpointer's own end-of-speech test
   (:class:`~voice_host.speech.endpointer.EndpointerConfig`'s ``end_drop_db`` and
   ``end_above_room_db``): the mean power of the last ``smooth`` frames is ``end_db``
   below the mean power of the speech so far, or (when ``room_db`` is set) within
   ``room_db`` of the room before the utterance -- the first frames fed, the
   endpointer's pre-roll, up to the first one ``ROOM_START_DB`` above the quietest of
   them; a room no quieter than what followed (``ROOM_APART_DB``) is none, and the test
   never calls a frame within ``ROOM_CAP_DB`` of the speech quiet. Off by default (see
   ``WhisperTuning.speculate_room_db``).

A pause keeps its threshold: it holds while every later frame (smoothed, for the end
test) stays below it, so a word said after it -- loud enough for the endpointer to call it
speech again -- makes the decode stale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from voice_host.speech.endpointer import SMOOTHED_FRAMES, EndpointerConfig

_ENDPOINTER = EndpointerConfig()
"""The endpointer's own settings, whose end test the pause test's end test is."""

ROOM_FRAMES = 8
"""At most this many leading frames are the room before the utterance."""
ROOM_LEAST = 3
"""Fewer leading frames than this (a pre-roll cut short) give no room level."""
ROOM_START_DB = _ENDPOINTER.start_margin_db
"""A leading frame this far above the quietest before it is speech (the endpointer's own
start margin), and ends the room."""
ROOM_CAP_DB = 5.0
"""The room test never calls a frame within this many dB of the speech's mean quiet."""
ROOM_APART_DB = 5.0
"""The room test needs the frames after the room this much louder than it on average (a
pre-roll that was speech already is no room)."""
LOUD_DB = 6.0
"""The speech's mean power is taken over frames this far above the room."""


@dataclass(frozen=True)
class Pause:
    """A pause found at the end of the frames fed so far."""

    frames: int
    """How many frames come before its end (all of them when it was found)."""
    below: float
    """The level (dB) every later frame must stay below for it to hold."""
    smoothed: bool
    """The level compared is the mean power of the last ``smooth`` frames (the end test),
    not the frame's own (the drop test)."""


@dataclass(frozen=True)
class PauseSettings:
    """The pause test's settings (from ``WhisperTuning``)."""

    quiet: int = 6
    """Frames (30 ms) in a row the pause must last."""
    drop_db: float = 15.0
    """The drop test's fall below the loud part of the speech."""
    end_db: float = _ENDPOINTER.end_drop_db or 0.0
    """The end test's fall below the speech's mean power (0 = no end test; the
    endpointer's ``end_drop_db``)."""
    room_db: float = 0.0
    """The end test's margin over the room's level (0 = no room test)."""
    smooth: int = SMOOTHED_FRAMES
    """Frames the end test's level is the mean power of (the endpointer's)."""


class PauseTest:
    """The levels of one utterance's frames, and the pauses in them."""

    def __init__(self, settings: PauseSettings) -> None:
        self.settings = settings
        self.levels: list[float] = []
        """dB of each frame's mean power (int16 units)."""
        self._powers: list[float] = []
        self._smoothed: list[float] = []
        self._room: tuple[float, int] | None = None
        self._room_done = False

    def add(self, frame: np.ndarray) -> None:
        """One more fed frame."""
        power = float(np.mean(frame.astype(np.float64) ** 2)) if len(frame) else 0.0
        level = 10 * math.log10(power + 1e-3)
        self.levels.append(level)
        self._powers.append(power + 1e-3)
        recent = self._powers[-max(1, self.settings.smooth):]
        self._smoothed.append(10 * math.log10(sum(recent) / len(recent)))
        if not self._room_done:
            self._grow_room(level)

    def _grow_room(self, level: float) -> None:
        count = 0 if self._room is None else self._room[1]
        quietest = min(self.levels[:count], default=level)
        if count >= ROOM_FRAMES or (count and level >= quietest + ROOM_START_DB):
            self._room_done = True
            return
        count += 1
        power = sum(self._powers[:count]) / count
        self._room = (10 * math.log10(power), count)

    def room(self) -> tuple[float, int] | None:
        """The room's level (dB) and how many leading frames it was measured on, or None."""
        if self._room is None or self._room[1] < ROOM_LEAST or not self._room_done:
            return None
        return self._room

    def pause(self) -> Pause | None:
        """A pause that ends with the last frame fed, or None."""
        s = self.settings
        n, quiet = len(self.levels), s.quiet
        if n <= 2 * quiet:
            return None
        speech = float(np.percentile(self.levels[:n - quiet], 90))
        if all(level < speech - s.drop_db for level in self.levels[-quiet:]):
            # later frames are held to the loud part of all the frames before them
            return Pause(n, float(np.percentile(self.levels, 90)) - s.drop_db, smoothed=False)
        if s.end_db <= 0:
            return None
        room = self.room()
        if room is not None:
            after = self._powers[room[1]:n - quiet]
            if not after or 10 * math.log10(sum(after) / len(after)) < room[0] + ROOM_APART_DB:
                room = None  # the "room" was the speech itself (no pre-roll)
        first = room[1] if room is not None else 0
        spoken = [p for p, level in zip(self._powers[first:n - quiet],
                                        self.levels[first:n - quiet], strict=True)
                  if room is None or level > room[0] + LOUD_DB]
        if not spoken:
            return None
        mean = 10 * math.log10(sum(spoken) / len(spoken))
        below = mean - s.end_db
        if room is not None and s.room_db > 0:
            below = max(below, min(room[0] + s.room_db, mean - ROOM_CAP_DB))
        if all(level < below for level in self._smoothed[-quiet:]):
            return Pause(n, below, smoothed=True)
        return None

    def holds(self, pause: Pause) -> bool:
        """True when every frame fed after ``pause`` stays below its level."""
        later = (self._smoothed if pause.smoothed else self.levels)[pause.frames:]
        return not later or max(later) < pause.below
