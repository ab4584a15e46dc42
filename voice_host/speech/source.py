"""Audio sources: a stream of 16 kHz mono int16 audio in 30 ms frames, cut into utterances by
the endpointer (:mod:`voice_host.speech.endpointer`, whose names are also importable from
here), from an array or a WAV file (the microphone is in :mod:`voice_host.speech.mic`).

``HalfDuplexGate`` closes the microphone while the host speaks and for a short tail after,
so the host never hears itself. Players and synthesizers notify it.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from voice_host.speech.detectors import NoiseFloor, SileroVad, SpeechProbability
from voice_host.speech.endpointer import (
    TOO_LONG,
    TOO_LOUD,
    Endpointer,
    EndpointerConfig,
    Utterance,
    is_clipped,
    split_frames,
    utterance_problem,
)
from voice_host.speech.types import (
    FRAME_MS,
    FRAME_SAMPLES,
    FRAME_SECONDS,
    SAMPLE_RATE,
    Samples,
    SpeechError,
)
from voice_host.speech.wav import read_wav

__all__ = [
    "FRAME_MS", "FRAME_SAMPLES", "FRAME_SECONDS", "SAMPLE_RATE", "TOO_LONG", "TOO_LOUD",
    "ArraySource", "AudioSource", "EndOfAudio", "EndpointedSource", "Endpointer",
    "EndpointerConfig", "HalfDuplexGate", "NoiseFloor", "SilenceTimeout", "SileroVad",
    "SpeechProbability", "Utterance", "WavSource", "is_clipped", "split_frames",
    "utterance_problem",
]


class SilenceTimeout(SpeechError):
    """Nothing was said within the time allowed."""

    def __init__(self, seconds: float) -> None:
        super().__init__("I did not hear anything.")
        self.seconds = seconds
        """How long the source listened, in seconds of audio."""


class EndOfAudio(SpeechError):
    """The source has no more audio (end of a WAV file, a closed stream)."""

    def __init__(self) -> None:
        super().__init__("The recording has ended.")


class HalfDuplexGate:
    """Closes the microphone while the host speaks and for ``tail`` seconds after.

    Thread-safe. Output code calls ``speaking()`` (a context manager) around blocking
    playback, or ``hold(seconds)`` for playback it does not wait for. Input code asks
    ``is_open(at)`` with the capture time of each block and drops closed ones, or
    ``opened_at()`` to also drop audio captured before the host last spoke.
    """

    def __init__(self, *, tail: float = 0.3, clock: Callable[[], float] = time.monotonic) -> None:
        if tail < 0:
            raise ValueError("tail must not be negative")
        self.tail = tail
        """Seconds the microphone stays closed after the host stops."""
        self._clock = clock
        self._lock = threading.Lock()
        self._ongoing: dict[int, float] = {}  # token -> start time of an ongoing closure
        self._closed: list[tuple[float, float]] = []  # finished closures: (start, end)
        self._latest_end = float("-inf")  # end of the latest closure (never pruned)
        self._next = 0

    def now(self) -> float:
        """The gate's clock."""
        return self._clock()

    def begin_speaking(self) -> int:
        """The host starts making sound. Returns a token for ``end_speaking``."""
        with self._lock:
            self._next += 1
            self._ongoing[self._next] = self._clock()
            return self._next

    def end_speaking(self, token: int) -> None:
        """The sound started with ``token`` has stopped."""
        with self._lock:
            start = self._ongoing.pop(token, None)
            if start is not None:
                end = self._clock()
                self._closed.append((start, end))
                self._latest_end = max(self._latest_end, end)
            self._prune()

    @contextmanager
    def speaking(self) -> Iterator[None]:
        """Keep the microphone closed for the duration of the ``with`` block (plus the tail)."""
        token = self.begin_speaking()
        try:
            yield
        finally:
            self.end_speaking(token)

    def hold(self, seconds: float) -> None:
        """Close the microphone for ``seconds`` from now (plus the tail)."""
        with self._lock:
            now = self._clock()
            end = now + max(0.0, seconds)
            self._closed.append((now, end))
            self._latest_end = max(self._latest_end, end)
            self._prune()

    def is_open(self, at: float | None = None) -> bool:
        """Whether audio captured at time ``at`` (default: now) may be listened to."""
        with self._lock:
            t = self._clock() if at is None else at
            if any(start <= t for start in self._ongoing.values()):
                return False
            return not any(start <= t < end + self.tail for start, end in self._closed)

    def opened_at(self) -> float | None:
        """When the microphone last opened (``-inf`` if it never closed), or ``None`` while it
        is closed. Audio captured before this moment is stale: the host has spoken since."""
        with self._lock:
            now = self._clock()
            if self._ongoing:
                return None
            latest = self._latest_end + self.tail
            return None if now < latest else latest

    @property
    def host_speaking(self) -> bool:
        """True while some sound is playing."""
        with self._lock:
            return bool(self._ongoing)

    def _prune(self) -> None:
        horizon = self._clock() - 60.0
        self._closed = [(s, e) for s, e in self._closed if e + self.tail >= horizon]


@runtime_checkable
class AudioSource(Protocol):
    """Where utterances come from: a microphone, a WAV file, a test array."""

    def frames(self) -> Iterator[Samples]:
        """Raw 30 ms frames (16 kHz mono int16) as they arrive, without endpointing."""
        ...

    def listen(self, *, timeout: float | None = None) -> Utterance:
        """The next utterance. Raises ``SilenceTimeout`` when no speech starts within
        ``timeout`` seconds, ``EndOfAudio`` when the source is exhausted."""
        ...

    def utterances(self) -> Iterator[Utterance]:
        """Every remaining utterance, until the source ends."""
        ...

    def close(self) -> None:
        """Release the device or file."""
        ...


class EndpointedSource:
    """Base for sources: subclasses provide ``_read_frame``; this adds endpointing."""

    def __init__(self, *, config: EndpointerConfig | None = None) -> None:
        self.endpointer = Endpointer(config)
        self._pending: collections.deque[Utterance] = collections.deque()

    def _read_frame(self) -> Samples | None:
        """The next frame, or ``None`` at the end of the stream. Gated frames are not returned
        (subclasses call ``self.endpointer.skip`` for them)."""
        raise NotImplementedError

    def frames(self) -> Iterator[Samples]:
        while (frame := self._read_frame()) is not None:
            yield frame

    def listen(
        self,
        *,
        timeout: float | None = None,
        on_frame: Callable[[Samples, bool, int], None] | None = None,
    ) -> Utterance:
        """The next utterance (see ``AudioSource.listen``).

        ``on_frame(frame, restart, quiet)`` is called with every frame of a possible
        utterance as it arrives, so a recognizer can decode while the player is still
        talking; ``restart`` is True on the first frame of a new attempt (the pre-roll),
        when what was passed before belongs to nothing (a click that was dropped, an
        interrupted utterance); ``quiet`` is the endpointer's count of frames in a row
        without speech up to this one (0: speech; -1: the pre-roll, the room before it)."""
        waited = 0.0
        while not self._pending:
            frame = self._read_frame()
            if frame is None:
                last = self.endpointer.flush()
                if last is not None:
                    return last
                raise EndOfAudio()
            was_active = self.endpointer.in_speech
            finished = self.endpointer.feed(frame)
            self._pending.extend(finished)
            if on_frame is not None:
                if self.endpointer.in_speech and not was_active:
                    held_frames = self.endpointer.current_frames
                    for index, held in enumerate(held_frames):
                        on_frame(held, index == 0, -1 if index < len(held_frames) - 1 else 0)
                elif self.endpointer.in_speech or (was_active and finished):
                    on_frame(frame, False, self.endpointer.quiet_frames)
            if not self._pending and not self.endpointer.in_speech:
                waited += len(frame) / SAMPLE_RATE
                if timeout is not None and waited >= timeout - 1e-9:
                    raise SilenceTimeout(waited)
        return self._pending.popleft()

    def put_back(self, utterance: Utterance) -> None:
        """Hand ``utterance`` out again: the next ``listen`` returns it first (a listener
        that looked ahead and found it was not what it waited for)."""
        self._pending.appendleft(utterance)

    def utterances(self) -> Iterator[Utterance]:
        while True:
            try:
                yield self.listen()
            except EndOfAudio:
                return

    def close(self) -> None:
        pass

    def __enter__(self) -> EndpointedSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ArraySource(EndpointedSource):
    """Utterances from audio already in memory (16 kHz mono int16)."""

    def __init__(self, samples: Samples, *, config: EndpointerConfig | None = None) -> None:
        super().__init__(config=config)
        self._samples = np.asarray(samples, dtype=np.int16)
        self._pos = 0

    def _read_frame(self) -> Samples | None:
        if self._pos >= len(self._samples):
            return None
        frame = self._samples[self._pos : self._pos + FRAME_SAMPLES]
        self._pos += FRAME_SAMPLES
        if len(frame) < FRAME_SAMPLES:
            frame = np.concatenate([frame, np.zeros(FRAME_SAMPLES - len(frame), np.int16)])
        return frame


class WavSource(ArraySource):
    """Utterances from a WAV file of any rate and channel count (resampled to 16 kHz mono).

    Silence timeouts count seconds of audio in the file, so a file behaves like a microphone
    that plays back instantly.
    """

    def __init__(self, path: str | Path, *, config: EndpointerConfig | None = None) -> None:
        super().__init__(read_wav(path), config=config)
        self.path = Path(path)
        """The file read."""
