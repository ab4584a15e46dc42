"""Typed values passed between the speech layer and the rest of the program."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from voice_host.speech.decision import Judgement, SearchTuning

SAMPLE_RATE = 16_000
"""Every recognizer and audio source in voice-host works on 16 kHz mono int16."""

Samples = npt.NDArray[np.int16]

FRAME_MS = 30
"""Frame length in milliseconds (a size the WebRTC VAD accepts)."""
FRAME_SAMPLES = SAMPLE_RATE * FRAME_MS // 1000
"""Samples per frame at 16 kHz."""
FRAME_SECONDS = FRAME_MS / 1000

ANY_WORD_RULE = "vh_any_word"
"""A JSGF rule reference left undefined on purpose: "any one word here" (the Codenames clue).
Only :attr:`RecognitionGrammar.open_jsgf` uses it, for backends that can search open words."""


class SpeechError(Exception):
    """Base of speech-layer errors. ``str(error)`` is a sentence a person can hear."""


class AudioDeviceError(SpeechError):
    """No usable input/output device, or it went away."""


class AudioFormatError(SpeechError):
    """An empty, corrupt or unsupported WAV or stream."""


class RecordingTooShort(AudioFormatError):
    """A recording that cannot be an utterance: its data is shorter than its header says,
    or too short to hold a word. ``declared`` (None when the header gives no length) and
    ``actual`` are seconds."""

    def __init__(self, message: str, *, actual: float, declared: float | None = None) -> None:
        super().__init__(message)
        self.actual = actual
        self.declared = declared


class RecordingTooLong(AudioFormatError):
    """A recording longer than one utterance may last; ``seconds`` is its length."""

    def __init__(self, message: str, *, seconds: float) -> None:
        super().__init__(message)
        self.seconds = seconds


class RecognizerUnavailable(SpeechError):
    """A backend cannot start (library or model missing); the message says what to do."""


@dataclass(frozen=True)
class RecognitionGrammar:
    """What the recognizer may hear in the current phase."""

    name: str
    """Identifier, e.g. ``"resistance.vote"``; backends cache compiled grammars by it."""
    jsgf: str | None
    """A complete JSGF document whose public rule is the phase's sentences, or ``None`` for
    open vocabulary (the backend's full language model, e.g. the Codenames clue word)."""
    words: frozenset[str]
    """Every word the grammar can produce, lowercase (Vosk's restricted vocabulary; the words
    PocketSphinx needs pronunciations for)."""
    pronunciations: Mapping[str, str] = field(default_factory=dict)
    """Optional extra pronunciations (word -> space-separated CMU phones) the caller knows."""
    open_jsgf: str | None = None
    """For a phase with an open slot: its sentences with the slot as ``<vh_any_word>``
    (:data:`ANY_WORD_RULE`), for backends that can search any word; ``jsgf`` then holds the
    likely-word version (or None)."""
    spellings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Other written forms of grammar words (``"two" -> ("2",)``), for backends that write
    text the way people do."""
    prompt: str = ""
    """The words that can be said now, as a short text (player names as the game spells
    them, icons, board words, the phase's short answers), for backends that can be prompted
    with them (Whisper's previous-text prompt)."""


@dataclass(frozen=True)
class WordInfo:
    """One recognized word."""

    word: str
    """The word as the recognizer spells it (lowercase)."""
    start: float
    """Start time in seconds from the beginning of the utterance."""
    end: float
    """End time in seconds."""
    confidence: float
    """0..1, the backend's posterior or confidence for this word."""


@dataclass(frozen=True)
class Transcript:
    """What a recognizer heard in one utterance."""

    text: str
    """Words joined by single spaces, lowercase; empty when nothing was recognized."""
    words: tuple[WordInfo, ...]
    """Per-word details (may be empty for backends that give none)."""
    confidence: float
    """0..1 confidence of the whole hypothesis."""
    audio_seconds: float
    """Length of the audio decoded."""
    decode_seconds: float
    """Wall time spent decoding after the last audio arrived (end of audio -> transcript)."""
    backend: str
    """``"pocketsphinx"``, ``"vosk"`` or ``"text"``."""
    rejected: bool = False
    """True when the backend's own garbage/escape path judged the audio out of grammar."""
    closed_grammar: bool = False
    """True when ``text`` was decoded inside the phase's sentence grammar, so it is one of
    its sentences (the matcher then accepts only exact readings)."""
    alternatives: tuple[str, ...] = ()
    """Other sentences of the grammar that fit the audio almost as well, best first."""
    details: Mapping[str, float | str] = field(default_factory=dict)
    """Backend-specific figures (scores, margins), for ``understand --json`` and tuning."""
    judgement: Judgement | None = field(default=None, compare=False)
    """The grammar search's full judgement (free transcript, grammar reading, margins,
    reason), for backends that search the grammar; the host decides from both readings."""
    tuning: SearchTuning | None = field(default=None, compare=False)
    """The thresholds the judgement was made with (its recognizer's language's own): the
    host decides the two readings with the same ones (None: the defaults)."""


@runtime_checkable
class Recognizer(Protocol):
    """A speech recognizer restricted to one grammar at a time.

    A backend declares what it offers by subclassing this protocol, or
    :class:`StreamingRecognizer` when it can also decode while the player talks; the host
    asks ``isinstance(recognizer, StreamingRecognizer)``."""

    name: str
    """Short backend name (``"whisper"``, ``"vosk"``, ``"pocketsphinx"``), also in
    :attr:`Transcript.backend`."""
    description: str
    """The sentence saying which recognizer runs and why, set when it is built (printed at
    start, e.g. "Speech recognition: Whisper tiny.en (English, ...)")."""

    def set_grammar(self, grammar: RecognitionGrammar) -> None:
        """Switch to this phase's grammar (cheap when it was used before)."""
        ...

    def recognize(self, audio: Samples) -> Transcript:
        """Decode one whole utterance of 16 kHz mono int16 samples."""
        ...


@runtime_checkable
class StreamingRecognizer(Recognizer, Protocol):
    """A recognizer that can also be fed an utterance frame by frame while it is spoken, so
    only the end of the search is left when the player stops."""

    def start_utterance(self) -> None:
        """Forget anything fed before: a new utterance begins."""
        ...

    def feed(self, samples: Samples) -> None:
        """Decode (or keep) the next frames of the current utterance."""
        ...

    def finish(self) -> Transcript:
        """The transcript of everything fed since :meth:`start_utterance`."""
        ...


@runtime_checkable
class HearsEndpointer(StreamingRecognizer, Protocol):
    """A streaming recognizer that also takes the endpointer's verdict on every frame, so
    the pause it decodes in is the one the endpointer ends the utterance on."""

    def feed_heard(self, samples: Samples, quiet: int) -> None:
        """:meth:`feed`, knowing that the last ``quiet`` frames fed (this one included)
        held no speech by the endpointer (0: this one is speech; -1: it is the pre-roll,
        the room before the speech)."""
        ...


class BufferedStreaming(StreamingRecognizer):
    """Streaming for a recognizer that decodes whole utterances: the frames fed are kept, and
    :meth:`finish` decodes them together with ``recognize``. Nothing to set up: a subclass
    starts with no frames kept."""

    _frames: tuple[Samples, ...] = ()
    """The frames of the current utterance (a class-level empty default, replaced, never
    changed in place)."""

    def start_utterance(self) -> None:
        self._frames = ()

    def feed(self, samples: Samples) -> None:
        self._frames = (*self._frames, np.asarray(samples, dtype=np.int16))

    def finish(self) -> Transcript:
        audio = np.concatenate(self._frames) if self._frames else np.zeros(0, np.int16)
        self._frames = ()
        return self.recognize(audio)
