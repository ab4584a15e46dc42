"""Stand-ins for the speech layer, for tests of the layers above it (no audio, no models).

- ``ScriptedRecognizer``: returns prepared transcripts in order, records the grammars set;
  ``StreamingScriptedRecognizer`` also takes the audio frame by frame, as the real backends do.
- ``RecordingSynthesizer``: records every line said and every sound played.
- ``ScriptedAudioSource``: yields prepared utterances; ``None`` in the script is a silence
  timeout.
- ``FakeSoundDevice``: stands in for the ``sounddevice`` module (simulated microphones and
  speakers that can refuse a rate or disappear mid-stream); pass it as ``sd=``.
- ``ToneEmbedder`` and ``voice_tone``: a speaker "model" for tests, each voice a pure tone
  whose pitch is its print.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from voice_host.speech.source import EndOfAudio, SilenceTimeout, Utterance
from voice_host.speech.synthesizer import AdjustableVoice, VoiceSettings
from voice_host.speech.types import (
    SAMPLE_RATE,
    BufferedStreaming,
    RecognitionGrammar,
    Recognizer,
    Samples,
    Transcript,
    WordInfo,
)


def make_transcript(text: str, *, confidence: float = 0.9, audio_seconds: float = 1.0,
                    backend: str = "text", rejected: bool = False) -> Transcript:
    """A ``Transcript`` for ``text`` with evenly spread words of the same confidence."""
    words = text.lower().split()
    step = audio_seconds / max(1, len(words))
    infos = tuple(
        WordInfo(word=w, start=i * step, end=(i + 1) * step, confidence=confidence)
        for i, w in enumerate(words)
    )
    return Transcript(text=" ".join(words), words=infos, confidence=confidence,
                      audio_seconds=audio_seconds, decode_seconds=0.0, backend=backend,
                      rejected=rejected)


class ScriptedRecognizer(Recognizer):
    """A ``Recognizer`` that hears what it is told to, in order (it does not stream; see
    :class:`StreamingScriptedRecognizer`).

    Each script item is a string (confidence ``confidence``) or a ready ``Transcript``.
    When the script runs out it hears nothing (an empty transcript).
    """

    name = "scripted"

    def __init__(self, script: Iterable[str | Transcript] = (), *, confidence: float = 0.9,
                 description: str = "Speech recognition: scripted.") -> None:
        self.description = description
        self._script = list(script)
        self._confidence = confidence
        self.grammars: list[RecognitionGrammar] = []
        """Every grammar set, in order."""
        self.audio: list[Samples] = []
        """Every utterance decoded, in order."""

    @property
    def grammar(self) -> RecognitionGrammar | None:
        """The grammar in force."""
        return self.grammars[-1] if self.grammars else None

    def add(self, *items: str | Transcript) -> None:
        """Append to the script."""
        self._script.extend(items)

    def set_grammar(self, grammar: RecognitionGrammar) -> None:
        self.grammars.append(grammar)

    def recognize(self, audio: Samples) -> Transcript:
        self.audio.append(audio)
        seconds = len(audio) / SAMPLE_RATE
        if not self._script:
            return make_transcript("", confidence=0.0, audio_seconds=seconds, backend=self.name)
        item = self._script.pop(0)
        if isinstance(item, Transcript):
            return item
        return make_transcript(item, confidence=self._confidence, audio_seconds=seconds,
                               backend=self.name)


class StreamingScriptedRecognizer(ScriptedRecognizer, BufferedStreaming):
    """A ``ScriptedRecognizer`` that also streams: the frames fed since ``start_utterance``
    are decoded as one utterance by ``finish`` (recorded in ``audio`` like a whole one)."""

    def __init__(self, script: Iterable[str | Transcript] = (), *, confidence: float = 0.9,
                 description: str = "Speech recognition: scripted, streaming.") -> None:
        super().__init__(script, confidence=confidence, description=description)
        self.utterances_started = 0
        """How many times ``start_utterance`` was called."""

    def start_utterance(self) -> None:
        self.utterances_started += 1
        super().start_utterance()


@dataclass(frozen=True)
class SpokenLine:
    """One line the fake synthesizer was asked to say."""

    text: str
    """The text."""
    lang: str
    """Its language."""
    voice: str | None
    """The voice asked for, if any."""
    settings: VoiceSettings
    """Rate and volume in force when it was said."""
    effect: str | None = None
    """The sound effect it was said through ("radio"), if any."""


@dataclass(frozen=True)
class PlayedSound:
    """One sound the fake synthesizer was asked to play."""

    label: str
    """The label given (a cue's name)."""
    seconds: float
    """Its length."""
    wait: bool
    """Whether the caller waited for it."""
    gate: bool
    """Whether the microphone was to be closed while it played."""


class RecordingSynthesizer(AdjustableVoice):
    """A ``Synthesizer`` that records instead of speaking. ``events`` keeps lines and sounds
    in the order they happened."""

    name = "recording"

    def __init__(self, *, settings: VoiceSettings | None = None) -> None:
        self.settings = settings or VoiceSettings()
        self.events: list[SpokenLine | PlayedSound] = []
        """Everything said or played, in order."""

    @property
    def lines(self) -> list[SpokenLine]:
        """Lines said, in order."""
        return [e for e in self.events if isinstance(e, SpokenLine)]

    @property
    def texts(self) -> list[str]:
        """Just the text of each line said."""
        return [line.text for line in self.lines]

    @property
    def sounds(self) -> list[PlayedSound]:
        """Sounds played, in order."""
        return [e for e in self.events if isinstance(e, PlayedSound)]

    def say(self, text: str, *, lang: str = "en", voice: str | None = None,
            effect: str | None = None) -> None:
        if text.strip():
            self.events.append(SpokenLine(text, lang, voice, self.settings, effect))

    def render(self, text: str, *, lang: str = "en", voice: str | None = None) -> Samples:
        """A silent stand-in, 60 ms per character (no engine involved)."""
        return np.zeros(int(0.06 * SAMPLE_RATE) * len(text.strip()), dtype=np.int16)

    def play(self, samples: Samples, rate: int = SAMPLE_RATE, *, label: str = "",
             wait: bool = True, gate: bool = True) -> None:
        self.events.append(PlayedSound(label, len(samples) / rate if rate else 0.0, wait, gate))



def make_utterance(samples: Samples | None = None, *, seconds: float = 1.0,
                   clipped: bool = False, truncated: bool = False) -> Utterance:
    """An ``Utterance`` around ``samples`` (silence of ``seconds`` when none are given)."""
    audio = (np.zeros(int(seconds * SAMPLE_RATE), dtype=np.int16)
             if samples is None else np.asarray(samples, dtype=np.int16))
    length = len(audio) / SAMPLE_RATE
    return Utterance(samples=audio, start=0.0, end=length, speech_seconds=length,
                     level_dbfs=-20.0, noise_dbfs=-60.0, clipped=clipped, truncated=truncated)


class ScriptedAudioSource:
    """An ``AudioSource`` that returns prepared utterances; a ``None`` item raises
    ``SilenceTimeout`` once; after the script, ``EndOfAudio``."""

    def __init__(self, script: Iterable[Utterance | Samples | None] = ()) -> None:
        self._script: list[Utterance | Samples | None] = list(script)
        self.timeouts: list[float | None] = []
        """The timeout passed to each ``listen`` call."""
        self.closed = False

    def add(self, *items: Utterance | Samples | None) -> None:
        """Append to the script."""
        self._script.extend(items)

    def frames(self) -> Iterator[Samples]:
        return iter(())

    def listen(self, *, timeout: float | None = None) -> Utterance:
        self.timeouts.append(timeout)
        if not self._script:
            raise EndOfAudio()
        item = self._script.pop(0)
        if item is None:
            raise SilenceTimeout(timeout or 0.0)
        if isinstance(item, Utterance):
            return item
        return make_utterance(item)

    def utterances(self) -> Iterator[Utterance]:
        while True:
            try:
                yield self.listen()
            except EndOfAudio:
                return
            except SilenceTimeout:
                continue

    def close(self) -> None:
        self.closed = True


class PortAudioError(Exception):
    """Same name as sounddevice's error (raised by the fake devices)."""


class _Defaults:
    def __init__(self) -> None:
        self.device = [0, 1]


class FakeSoundDevice:
    """Behaves like the parts of ``sounddevice`` voice-host uses.

    ``devices``: list of dicts like ``query_devices`` returns; ``input_rates`` /
    ``output_rates``: the rates ``check_*_settings`` accept; ``recording``: int16 audio the
    input stream delivers (at the stream's rate) in blocks when started; ``hooks``: block
    index -> function run before that block is delivered; ``fail_after_blocks``: the input
    device disappears after that many blocks; ``fail_after_writes``: the output device
    disappears after that many writes.
    """

    PortAudioError = PortAudioError

    def __init__(
        self,
        *,
        devices: list[dict[str, Any]] | None = None,
        input_rates: tuple[int, ...] = (16000, 44100, 48000),
        output_rates: tuple[int, ...] = (16000, 22050, 44100, 48000),
        recording: np.ndarray | None = None,
        hooks: dict[int, Callable[[], None]] | None = None,
        fail_after_blocks: int | None = None,
        fail_after_writes: int | None = None,
        fail_open: bool = False,
    ) -> None:
        self.devices = devices if devices is not None else [
            {"index": 0, "name": "Fake Mic", "max_input_channels": 1,
             "max_output_channels": 0, "default_samplerate": 48000.0},
            {"index": 1, "name": "Fake Speaker", "max_input_channels": 0,
             "max_output_channels": 2, "default_samplerate": 48000.0},
        ]
        self.default = _Defaults()
        if not any(d["max_input_channels"] for d in self.devices):
            self.default.device[0] = -1
        if not any(d["max_output_channels"] for d in self.devices):
            self.default.device[1] = -1
        self.input_rates = input_rates
        self.output_rates = output_rates
        self.recording = recording if recording is not None else np.zeros(0, np.int16)
        self.hooks = hooks or {}
        self.fail_after_blocks = fail_after_blocks
        self.fail_after_writes = fail_after_writes
        self.fail_open = fail_open
        self.input_streams: list[FakeInputStream] = []
        self.output_streams: list[FakeOutputStream] = []

    def query_devices(self, device: int | str | None = None, kind: str | None = None) -> Any:
        if kind is None and device is None:
            return list(self.devices)
        if device is None:
            index = self.default.device[0 if kind == "input" else 1]
            if index < 0:
                raise PortAudioError(f"Error querying device {index}")
            device = index
        for d in self.devices:
            if d["index"] == device or d["name"] == device:
                return dict(d)
        raise ValueError(f"No device matching {device!r}")

    def _check(self, rates: tuple[int, ...], samplerate: float) -> None:
        if int(samplerate) not in rates:
            raise PortAudioError("Invalid sample rate [PaErrorCode -9997]")

    def check_input_settings(self, device: Any = None, samplerate: float = 0, **_: Any) -> None:
        self._check(self.input_rates, samplerate)

    def check_output_settings(self, device: Any = None, samplerate: float = 0, **_: Any) -> None:
        self._check(self.output_rates, samplerate)

    def InputStream(self, **kwargs: Any) -> FakeInputStream:  # noqa: N802 - sounddevice's name
        if self.fail_open:
            raise PortAudioError("Device unavailable [PaErrorCode -9985]")
        stream = FakeInputStream(self, **kwargs)
        self.input_streams.append(stream)
        return stream

    def OutputStream(self, **kwargs: Any) -> FakeOutputStream:  # noqa: N802
        if self.fail_open:
            raise PortAudioError("Device unavailable [PaErrorCode -9985]")
        stream = FakeOutputStream(self, **kwargs)
        self.output_streams.append(stream)
        return stream


class FakeInputStream:
    def __init__(self, sd: FakeSoundDevice, *, samplerate: float, blocksize: int,
                 callback: Callable[..., None], **kwargs: Any) -> None:
        self.sd = sd
        self.samplerate = samplerate
        self.blocksize = blocksize
        self.callback = callback
        self.kwargs = kwargs
        self.active = False
        self.closed = False

    def start(self) -> None:
        self.active = True
        audio = self.sd.recording
        for index, i in enumerate(range(0, len(audio), self.blocksize)):
            if self.sd.fail_after_blocks is not None and index >= self.sd.fail_after_blocks:
                self.active = False  # the device went away: no more callbacks
                return
            if index in self.sd.hooks:
                self.sd.hooks[index]()
            block = audio[i : i + self.blocksize]
            if len(block) < self.blocksize:
                block = np.concatenate([block, np.zeros(self.blocksize - len(block), np.int16)])
            self.callback(block.reshape(-1, 1), len(block), None, None)

    def stop(self) -> None:
        self.active = False

    def close(self) -> None:
        self.closed = True


class FakeOutputStream:
    def __init__(self, sd: FakeSoundDevice, *, samplerate: float, **kwargs: Any) -> None:
        self.sd = sd
        self.samplerate = samplerate
        self.kwargs = kwargs
        self.written: list[np.ndarray] = []
        self.on_write: Callable[[], None] | None = None
        self.closed = False
        self.started = False

    def start(self) -> None:
        self.started = True

    def write(self, data: np.ndarray) -> None:
        limit = self.sd.fail_after_writes
        if limit is not None and len(self.written) >= limit:
            raise PortAudioError("Unanticipated host error [PaErrorCode -9999]")
        if self.on_write:
            self.on_write()
        self.written.append(np.array(data).reshape(-1))

    @property
    def samples(self) -> np.ndarray:
        return np.concatenate(self.written) if self.written else np.zeros(0, np.int16)

    def stop(self) -> None:
        pass

    def abort(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


TONE_PITCHES: tuple[float, ...] = (200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0, 900.0)
"""The tones :class:`ToneEmbedder` tells apart (one voice each)."""


def voice_tone(index: int, *, seconds: float = 1.0, blend: int | None = None,
               weight: float = 0.0) -> Samples:
    """The "voice" number ``index`` for :class:`ToneEmbedder`: a pure tone, optionally mixed
    with voice ``blend`` at ``weight`` (an utterance the model is less sure of)."""
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    wave = np.sin(2 * np.pi * TONE_PITCHES[index] * t)
    if blend is not None:
        wave = (1 - weight) * wave + weight * np.sin(2 * np.pi * TONE_PITCHES[blend] * t)
    return (8000 * wave).astype(np.int16)


class ToneEmbedder:
    """A stand-in speaker model: the print of an utterance is its energy at each of
    :data:`TONE_PITCHES` (so :func:`voice_tone` ``i`` is axis ``i``); silence has none."""

    name = "fake/tones"
    dim = len(TONE_PITCHES)

    def embed(self, audio: Samples) -> Any:
        x = np.asarray(audio, dtype=np.float64)
        if len(x) < SAMPLE_RATE // 10 or float(np.abs(x).max(initial=0.0)) < 100:
            return None
        t = np.arange(len(x)) / SAMPLE_RATE
        energy = np.array([abs(np.dot(x, np.exp(-2j * np.pi * f * t)))
                           for f in TONE_PITCHES])
        return (energy / np.linalg.norm(energy)).astype(np.float32)
