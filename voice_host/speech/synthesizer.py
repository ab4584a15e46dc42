"""Narration: text-to-speech engines and where their sound goes.

Engines (``TtsEngine``) turn one piece of text into audio:

- ``Pyttsx3Engine``: pyttsx3 (its espeak-ng driver on Linux, SAPI5 on Windows, NSSpeech on
  macOS). Audio is rendered with ``save_to_file`` and played by voice-host itself, so that
  playback goes through sounddevice and the half-duplex gate on every platform.
- ``EspeakEngine``: the ``espeak-ng`` program, used when pyttsx3 cannot start.
- ``PiperEngine`` (``speech/piper_tts.py``): Piper's neural en_US-joe-medium voice, for
  English when the speech extra installed it.
- ``MbrolaEngine``: espeak-ng with Debian's MBROLA French diphones (``mb-fr1``), the French
  narrator when installed.
- ``KokoroEngine`` (``speech/kokoro_tts.py``): Kokoro-82M reading espeak-ng's French
  phonemes, the French narrator where MBROLA is missing (loaded in the background).

Each language has its narrator (:func:`narrator_voices`): the first of its preferred voices
the engine has, espeak-ng's last.

Outputs (``AudioOutput``) receive the audio: ``SpeakerOutput`` (sounddevice) or
``WavOutput`` (numbered WAV files plus a transcript).

``TtsSynthesizer`` joins an engine and an output. ``say`` narrates sentence by sentence: the
first sentence is rendered and starts playing while the rest are rendered, so the first
sound comes quickly even for a long paragraph. Rendered pieces are kept (the fixed lines are
said again without rendering), and ``prepare`` renders a line that is coming next while the
current one plays. Rate and volume can be changed at any time ("slower", "louder").
"""

from __future__ import annotations

import collections
import contextlib
import io
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from voice_host.speech.install import apt_install, pip_install
from voice_host.speech.mic import SpeakerPlayer
from voice_host.speech.pieces import PHRASE_STARTS, split_sentences
from voice_host.speech.pronounce import ESPEAK_VOICES
from voice_host.speech.pronunciation import Pronunciation, spans
from voice_host.speech.source import HalfDuplexGate
from voice_host.speech.types import SAMPLE_RATE, AudioFormatError, Samples, SpeechError
from voice_host.speech.wav import decode_wav, resample, to_int16, write_wav


class SynthesisError(SpeechError):
    """The text-to-speech engine failed or is missing; the message says what to do."""


@dataclass(frozen=True)
class VoiceSettings:
    """How the narrator speaks."""

    rate: int = 175
    """Speaking rate in words per minute."""
    volume: float = 1.0
    """Loudness; 1.0 is the engine's normal level."""
    pitch: int = 50
    """espeak pitch, 0-99 (50 is normal)."""


MIN_RATE, MAX_RATE = 90, 360
MIN_VOLUME, MAX_VOLUME = 0.25, 2.0
RATE_STEP = 1.2
VOLUME_STEP = 1.25

def adjusted(settings: VoiceSettings, *, rate: float | None = None,
             volume: float | None = None) -> VoiceSettings:
    """``settings`` with a new rate and/or volume, kept within the allowed range."""
    new = settings
    if rate is not None:
        new = replace(new, rate=int(round(min(MAX_RATE, max(MIN_RATE, rate)))))
    if volume is not None:
        new = replace(new, volume=round(min(MAX_VOLUME, max(MIN_VOLUME, volume)), 3))
    return new


DEFAULT_VOICES = ESPEAK_VOICES
"""espeak-ng voice used for each narration language: the fallback narrator."""

PREFERRED_VOICES: Mapping[str, tuple[str, ...]] = {"en": ("en-us",),
                                                   "fr": ("mb-fr1", "mb-fr4", "kokoro-fr", "fr")}
"""Per language, the voices its narrator is chosen from, best first (``en-us`` is Piper's
voice when Piper is loaded, else espeak-ng's; ``mb-fr1`` and ``mb-fr4`` are espeak-ng with
Debian's MBROLA French voices; ``kokoro-fr`` is Kokoro's French). docs/narration.md says
why this order."""
NARRATOR_VOICES: Mapping[str, Mapping[str, str]] = {
    "piper": {"en": "en-us"}, "kokoro": {"fr": "kokoro-fr"}, "mbrola": {"fr": "mb-fr1"},
    "espeak-ng": DEFAULT_VOICES}
"""The voice of each narrator one can ask for by name, per language."""


@dataclass(frozen=True)
class Rendered:
    """Audio rendered for one piece of text."""

    samples: Samples
    """Mono int16 audio."""
    rate: int
    """Its sample rate in hertz."""
    text: str
    """The text spoken."""

    @property
    def seconds(self) -> float:
        """Length in seconds."""
        return len(self.samples) / self.rate if self.rate else 0.0


@runtime_checkable
class TtsEngine(Protocol):
    """Renders text to audio."""

    name: str

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        """Render ``text`` with an espeak-style voice name (``"en-us"``, ``"fr+f3"``)."""
        ...

    def has_voice(self, voice: str) -> bool:
        """Whether ``voice`` (ignoring a ``+variant``) is installed."""
        ...


def _voice_names(entries: list[tuple[str, list[str]]]) -> set[str]:
    names: set[str] = set()
    for ident, languages in entries:
        ident = ident.lower()
        names.add(ident)
        names.add(ident.split("/")[-1])
        for lang in languages:
            names.add(lang.lower())
            names.add(lang.lower().split("-")[0])
    return names


class Pyttsx3Engine:
    """pyttsx3 rendering to a temporary WAV file (one synthesis at a time)."""

    name = "pyttsx3"
    _lock = threading.Lock()  # pyttsx3 shares one engine per process: one synthesis at a time

    def __init__(self) -> None:
        try:
            import pyttsx3
        except ImportError:
            raise SynthesisError(f"pyttsx3 is not installed: {pip_install('pyttsx3')}") from None
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self._engine: Any = pyttsx3.init()
                voices = self._engine.getProperty("voices") or []
        except Exception as error:  # noqa: BLE001 - pyttsx3 raises many kinds on a bad install
            raise SynthesisError(f"pyttsx3 cannot start: {error}") from None
        entries = [(str(v.id), [str(x) for x in (v.languages or [])]) for v in voices]
        self._voices = _voice_names(entries)
        # Other drivers (SAPI5, NSSpeech) need the voice's id: map names and languages to it.
        self._ids: dict[str, str] = {}
        prefixes: dict[str, str] = {}
        for ident, languages in entries:
            for key in (ident, ident.split("/")[-1], ident.split("\\")[-1], *languages):
                self._ids.setdefault(key.lower().replace("_", "-"), ident)
                prefixes.setdefault(key.lower().replace("_", "-").split("-")[0], ident)
        for key, ident in prefixes.items():
            self._ids.setdefault(key, ident)
        driver = type(getattr(getattr(self._engine, "proxy", None), "_driver", None)).__module__
        self.driver = driver.rsplit(".", 1)[-1] if driver else "unknown"
        """The pyttsx3 driver in use (``espeak`` on Linux)."""
        self._dir = Path(tempfile.mkdtemp(prefix="voice-host-tts-"))
        weakref.finalize(self, shutil.rmtree, self._dir, True)

    def has_voice(self, voice: str) -> bool:
        return voice.split("+")[0].lower() in self._voices

    def _voice_id(self, voice: str) -> str:
        if self.driver == "espeak":
            return voice  # espeak takes names with +variants directly
        base = voice.split("+")[0].lower().replace("_", "-")
        return self._ids.get(base) or self._ids.get(base.split("-")[0]) or voice

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        rendered = self._synthesize_once(text, voice=voice, settings=settings)
        if len(rendered.samples) == 0 and text.strip():
            rendered = self._synthesize_once(text, voice=voice, settings=settings)  # once more
        return rendered

    def _synthesize_once(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        path = self._dir / "say.wav"
        spoken = text
        with self._lock:
            try:
                path.unlink(missing_ok=True)
                with contextlib.redirect_stdout(io.StringIO()):
                    self._engine.setProperty("voice", self._voice_id(voice))
                    if self.driver == "espeak":
                        # pyttsx3's espeak driver loses rate/volume/pitch changes made between
                        # runs (espeak queues them and the driver cancels the queue), so they
                        # travel inside the text as espeak embedded commands instead.
                        amplitude = int(round(max(0.0, min(2.0, settings.volume)) * 100))
                        spoken = (f"\x01{int(settings.rate)}S\x01{amplitude}A"
                                  f"\x01{int(settings.pitch)}P{text}")
                    else:
                        self._engine.setProperty("rate", int(settings.rate))
                        self._engine.setProperty("volume", min(1.0, float(settings.volume)))
                    self._engine.save_to_file(spoken, str(path))
                    self._engine.runAndWait()
                data = path.read_bytes() if path.exists() else b""
            except Exception as error:  # noqa: BLE001
                raise SynthesisError(f"The speech engine failed: {error}") from None
        try:
            audio, rate = decode_wav(data)
        except AudioFormatError:
            return Rendered(np.zeros(0, dtype=np.int16), SAMPLE_RATE, text)
        return Rendered(to_int16(audio), rate, text)


MBROLA_FOLDERS = (Path("/usr/share/mbrola"), Path("/usr/local/share/mbrola"))
"""Where the MBROLA diphone databases are installed (Debian's mbrola-fr4 ...)."""


def mbrola_installed(voice: str) -> bool:
    """Whether espeak-ng's MBROLA voice ``mb/mb-fr4`` (or ``mb-fr4``) has its database."""
    name = voice.split("/")[-1].removeprefix("mb-").split("-")[0]
    return shutil.which("mbrola") is not None and any(
        (folder / name / name).is_file() or (folder / name).is_file()
        or (folder / "voices" / name).is_file() for folder in MBROLA_FOLDERS)


class EspeakEngine:
    """The ``espeak-ng`` (or ``espeak``) command, audio read from its standard output."""

    name = "espeak-ng"

    def __init__(self, program: str | None = None) -> None:
        found = program or shutil.which("espeak-ng") or shutil.which("espeak")
        if not found:
            raise SynthesisError("sound.no_speech_engine", command=apt_install("espeak-ng"))
        self.program = found
        """Path of the espeak program."""
        self.name = Path(found).name
        try:
            listing = subprocess.run(
                [found, "--voices"], capture_output=True, text=True, timeout=10, check=True
            ).stdout
            # MBROLA voices (mb-fr4 ...) are listed apart, whether installed or not: only
            # those whose diphone database is there count
            listing += "\n" + "\n".join(
                line for line in subprocess.run(
                    [found, "--voices=mb"], capture_output=True, text=True, timeout=10,
                    check=False).stdout.splitlines()[1:]
                if len(line.split()) >= 5 and mbrola_installed(line.split()[4]))
        except (OSError, subprocess.SubprocessError) as error:
            raise SynthesisError(f"{self.name} does not run: {error}") from None
        entries: list[tuple[str, list[str]]] = []
        for line in listing.splitlines()[1:]:
            parts = line.split()
            if len(parts) >= 5:
                entries.append((parts[4], [parts[1]]))
        self._voices = _voice_names(entries)

    def has_voice(self, voice: str) -> bool:
        return voice.split("+")[0].lower() in self._voices

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        amplitude = str(int(round(max(0.0, min(2.0, settings.volume)) * 100)))
        cmd = [self.program, "-v", voice, "-s", str(int(settings.rate)), "-a", amplitude,
               "-p", str(int(settings.pitch)), "--stdout", "--", text]
        try:
            result = subprocess.run(cmd, capture_output=True, timeout=60, check=True)
        except (OSError, subprocess.SubprocessError) as error:
            raise SynthesisError(f"The speech engine failed: {error}") from None
        try:
            audio, rate = decode_wav(result.stdout)
        except AudioFormatError:
            return Rendered(np.zeros(0, dtype=np.int16), SAMPLE_RATE, text)
        return Rendered(to_int16(audio), rate, text)


def engine_for(engine: TtsEngine, voice: str) -> TtsEngine:
    """The engine that renders ``voice`` (through any routing)."""
    while (route := getattr(engine, "engine_for", None)) is not None:
        chosen = route(voice)
        if chosen is engine:
            break
        engine = chosen
    return engine


def engine_family(engine: TtsEngine, voice: str) -> str:
    """``"piper"`` or ``"kokoro"`` when that neural engine renders ``voice``, else
    ``"espeak"`` (espeak-ng, also behind pyttsx3 on Linux): the key of the pronunciation
    tables."""
    name = engine_for(engine, voice).name
    return name if name in ("piper", "kokoro") else "espeak"


def narrator_voices(engine: TtsEngine,
                    narrators: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each language's narrator: the one ``narrators`` names (``{"fr": "espeak-ng"}``), else
    the first of its :data:`PREFERRED_VOICES` the engine has (espeak-ng's voice when it has
    none)."""
    out = {}
    for lang, names in PREFERRED_VOICES.items():
        named = NARRATOR_VOICES.get((narrators or {}).get(lang, "auto"), {}).get(lang)
        out[lang] = named or next((v for v in names if engine.has_voice(v)),
                                  DEFAULT_VOICES[lang])
    return out


def describe_narrator(engine: TtsEngine, voice: str) -> str:
    """Who speaks ``voice``, in words: ``"Kokoro-82M (speaker jf_alpha)"``,
    ``"Piper (en_US-joe-medium)"``, ``"espeak-ng (fr)"``."""
    chosen = engine_for(engine, voice)
    describe = getattr(chosen, "describe", None)
    if describe is not None:
        return str(describe(voice))
    return f"{chosen.name} ({voice})"


ENGINES = ("auto", "piper", "pyttsx3", "espeak-ng")
"""The speech engines one can ask for; ``auto`` is Piper for English and MBROLA or Kokoro for
French (each when installed) with pyttsx3, else espeak-ng, for the rest."""

NARRATORS: Mapping[str, tuple[str, ...]] = {
    "en": ("auto", "piper", "espeak-ng"), "fr": ("auto", "mbrola", "kokoro", "espeak-ng")}
"""The narrators one can ask for, per language (``--voice fr=espeak-ng``)."""


def parse_narrators(spec: str | None) -> dict[str, str]:
    """``"fr=espeak-ng,en=piper"`` (or one name, for the languages that have it:
    ``"espeak-ng"``) -> ``{"fr": "espeak-ng", "en": "piper"}``; ``None`` or ``"auto"`` -> ``{}``.
    Raises ``SynthesisError`` naming what is wrong."""
    out: dict[str, str] = {}
    for item in (spec or "").split(","):
        item = item.strip().lower()
        if not item or item == "auto":
            continue
        lang, sep, name = item.partition("=")
        if not sep:
            langs = [code for code, names in NARRATORS.items() if lang in names]
            if not langs:
                raise SynthesisError(f"I do not know the narrator {lang}. Use one of: "
                                     + ", ".join(sorted({n for ns in NARRATORS.values()
                                                         for n in ns})) + ".")
            out.update(dict.fromkeys(langs, lang))
            continue
        if lang not in NARRATORS:
            raise SynthesisError(f"I have no narrator for the language {lang}.")
        if name not in NARRATORS[lang]:
            raise SynthesisError(f"I do not know the narrator {name} for {lang}. Use one of: "
                                 + ", ".join(NARRATORS[lang]) + ".")
        out[lang] = name
    return out


def create_engine(preference: str = "auto", *,
                  narrators: Mapping[str, str] | None = None) -> TtsEngine:
    """``"auto"`` (Piper for English, MBROLA and Kokoro for French, each when installed,
    pyttsx3 or espeak-ng for the other voices), ``"piper"`` (the same, but Piper must load),
    ``"pyttsx3"`` or ``"espeak-ng"`` (that engine alone). ``narrators`` picks per language
    (``{"fr": "espeak-ng"}``): a neural narrator asked for by name must be installed."""
    if preference not in (*ENGINES, "espeak"):
        raise SynthesisError(f"I do not know the speech engine {preference}.")
    chosen = dict(narrators or {})
    classic = _classic_engine(preference)
    if preference not in ("auto", "piper"):
        return classic
    from voice_host.speech.piper_tts import PiperEngine, RoutedEngine

    neural: list[TtsEngine] = []
    english = "piper" if preference == "piper" else chosen.get("en", "auto")
    if english in ("auto", "piper"):
        try:
            neural.append(PiperEngine())
        except SynthesisError:
            if english == "piper":
                raise
    french = chosen.get("fr", "auto")
    if french in ("auto", "mbrola"):
        if any(mbrola_installed(v) for v in MbrolaEngine.VOICES):
            neural.append(MbrolaEngine())
        elif french == "mbrola":
            raise SynthesisError("The MBROLA French voice is not installed: sudo apt install "
                                 "mbrola mbrola-fr1 (Debian's contrib and non-free areas).")
    if french in ("auto", "kokoro"):
        from voice_host.speech.kokoro_tts import LazyKokoro, unavailable_reason

        reason = unavailable_reason()
        if reason is None:
            neural.append(LazyKokoro(fallback=classic))
        elif french == "kokoro":
            raise SynthesisError(reason[0].upper() + reason[1:] + ".")
    return RoutedEngine(neural, classic) if neural else classic


class MbrolaEngine(EspeakEngine):
    """espeak-ng with Debian's MBROLA French diphone voices (``mb-fr1``, ``mb-fr4``):
    espeak-ng writes the phonemes and the pitch, MBROLA joins recorded French diphones."""

    VOICES = ("mb-fr1", "mb-fr4")
    RATE_SCALE = 150 / 175
    """MBROLA's French is heard best a little slower than espeak-ng's own pace."""

    def __init__(self, program: str | None = None) -> None:
        super().__init__(program)
        self.name = "mbrola"

    def has_voice(self, voice: str) -> bool:
        return voice.split("+")[0].lower() in self.VOICES and mbrola_installed(voice)

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        return super().synthesize(text, voice=voice, settings=replace(
            settings, rate=int(round(settings.rate * self.RATE_SCALE))))

    def describe(self, voice: str) -> str:
        return f"espeak-ng with MBROLA ({voice})"


def _classic_engine(preference: str) -> TtsEngine:
    """pyttsx3, else (or when asked) the espeak-ng program."""
    if preference in ("auto", "piper", "pyttsx3"):
        try:
            return Pyttsx3Engine()
        except SynthesisError:
            if preference == "pyttsx3":
                raise
    return EspeakEngine()


@runtime_checkable
class AudioOutput(Protocol):
    """Where narration and cue sounds go."""

    def speak(self, parts: Iterator[Rendered], *, text: str, lang: str) -> float | None:
        """Deliver rendered sentences as they arrive; return ``time.monotonic()`` of the first
        audio delivered (``None`` if there was none)."""
        ...

    def play(self, samples: Samples, rate: int = SAMPLE_RATE, *, label: str = "",
             wait: bool = True, gate: bool = True) -> None:
        """Play (or store) a sound: a cue, or a recording played back."""
        ...


class SpeakerOutput:
    """Plays through the speakers, closing the half-duplex gate while sound plays."""

    def __init__(self, player: SpeakerPlayer | None = None, *,
                 gate: HalfDuplexGate | None = None) -> None:
        self.player = player or SpeakerPlayer(gate=gate)
        """The sounddevice player."""

    def speak(self, parts: Iterator[Rendered], *, text: str, lang: str) -> float | None:
        first = next(parts, None)
        if first is None:
            return None
        with self.player.stream(first.rate) as out:
            out.write(first.samples, first.rate)
            for part in parts:
                out.write(part.samples, part.rate)
            return out.first_write_at

    def play(self, samples: Samples, rate: int = SAMPLE_RATE, *, label: str = "",
             wait: bool = True, gate: bool = True) -> None:
        self.player.play(samples, rate, wait=wait, gate=gate)


class WavOutput:
    """Writes every line and sound to numbered WAV files (0001.wav, ...) in a folder, with
    ``transcript.txt`` listing ``file<TAB>kind<TAB>text`` (kind: the language or ``cue``)."""

    TRANSCRIPT = "transcript.txt"

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        """The folder written to (created if missing)."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            raise SpeechError(f"I cannot create the folder {self.directory}.") from None
        numbers = [int(p.stem) for p in self.directory.glob("[0-9][0-9][0-9][0-9].wav")]
        self._next = max(numbers, default=0) + 1
        self.files: list[Path] = []
        """Files written by this output, in order."""
        self._lock = threading.Lock()

    @property
    def transcript(self) -> Path:
        """The transcript file."""
        return self.directory / self.TRANSCRIPT

    def _write(self, samples: Samples, rate: int, kind: str, text: str) -> Path:
        with self._lock:
            path = self.directory / f"{self._next:04d}.wav"
            self._next += 1
            write_wav(path, samples, rate)
            line = " ".join(text.split())
            with self.transcript.open("a", encoding="utf-8") as f:
                f.write(f"{path.name}\t{kind}\t{line}\n")
            self.files.append(path)
            return path

    def speak(self, parts: Iterator[Rendered], *, text: str, lang: str) -> float | None:
        chunks: list[Samples] = []
        rate = 0
        first_at = None
        for part in parts:
            if first_at is None:
                first_at = time.monotonic()
            if rate and part.rate != rate:
                chunks.append(to_int16(resample(part.samples.astype(np.float32) / 32768.0,
                                                part.rate, rate)))
            else:
                rate = part.rate
                chunks.append(part.samples)
        if not chunks:
            return None
        self._write(np.concatenate(chunks), rate, lang, text)
        return first_at

    def play(self, samples: Samples, rate: int = SAMPLE_RATE, *, label: str = "",
             wait: bool = True, gate: bool = True) -> None:
        if len(samples):
            self._write(np.asarray(samples, dtype=np.int16), rate, "cue", label or "sound")


@dataclass(frozen=True)
class SayStats:
    """Timing of the last ``say``."""

    first_audio_seconds: float
    """From the call to the first audio handed to the output."""
    total_seconds: float
    """From the call to its return (includes playing time on a speaker)."""
    audio_seconds: float
    """Length of the speech produced."""
    sentences: int
    """Number of pieces rendered."""


@runtime_checkable
class Synthesizer(Protocol):
    """What the host needs from narration."""

    name: str
    settings: VoiceSettings

    def say(self, text: str, *, lang: str = "en", voice: str | None = None,
            effect: str | None = None) -> None:
        """Speak ``text`` (blocks until spoken or written); ``effect="radio"``: through the
        short-wave radio effect."""
        ...

    def render(self, text: str, *, lang: str = "en", voice: str | None = None) -> Samples:
        """Render ``text`` to 16 kHz mono int16 without playing it."""
        ...

    def play(self, samples: Samples, rate: int = SAMPLE_RATE, *, label: str = "",
             wait: bool = True, gate: bool = True) -> None:
        """Play a cue or a recording through the same output."""
        ...

    def slower(self) -> bool:
        """Speak slower; False when already at the slowest."""
        ...

    def faster(self) -> bool:
        """Speak faster; False when already at the fastest."""
        ...

    def louder(self) -> bool:
        """Speak louder; False when already at the loudest."""
        ...

    def quieter(self) -> bool:
        """Speak more quietly; False when already at the quietest."""
        ...


class AdjustableVoice:
    """``slower``/``faster``/``louder``/``quieter`` over a ``settings`` attribute; each
    returns False when the setting is already at its limit."""

    settings: VoiceSettings

    def _set(self, *, rate: float | None = None, volume: float | None = None) -> bool:
        old = self.settings
        self.settings = adjusted(old, rate=rate, volume=volume)
        return self.settings != old

    def slower(self) -> bool:
        return self._set(rate=self.settings.rate / RATE_STEP)

    def faster(self) -> bool:
        return self._set(rate=self.settings.rate * RATE_STEP)

    def louder(self) -> bool:
        return self._set(volume=self.settings.volume * VOLUME_STEP)

    def quieter(self) -> bool:
        return self._set(volume=self.settings.volume / VOLUME_STEP)


class TtsSynthesizer(AdjustableVoice):
    """A ``Synthesizer`` made of a ``TtsEngine`` and an ``AudioOutput``."""

    def __init__(self, engine: TtsEngine, output: AudioOutput, *,
                 settings: VoiceSettings | None = None,
                 voices: dict[str, str] | None = None) -> None:
        self.engine = engine
        """Renders text."""
        self.output = output
        """Receives the audio."""
        self.settings = settings or VoiceSettings()
        """Current rate, volume and pitch (changed by ``slower`` ... ``quieter``)."""
        self.voices = dict(narrator_voices(engine) if voices is None else voices)
        """Voice used for each language (its narrator)."""
        self.name = engine.name
        self.last_stats: SayStats | None = None
        """Timing of the last ``say``."""
        self.first_clause_chars = 48
        """A first sentence longer than this starts with its clause up to its first comma
        within that length; an engine with a ``first_piece_chars`` (Piper) sets its own
        budget and is also cut before a phrase's first word (``speech.pieces``)."""
        self.pronunciation: dict[str, dict[str, Pronunciation]] = {}
        """Per engine family (``piper``, ``kokoro``, ``espeak``: see :func:`engine_family`)
        and narration language: phrases said by another language's voice, and words
        respelled for the voice (given by the host from its narration data)."""
        self._rendered: collections.OrderedDict[tuple[Any, ...], Rendered] = \
            collections.OrderedDict()
        self._pending: dict[tuple[Any, ...], Future[Rendered]] = {}
        self._cache_lock = threading.Lock()
        self._ahead: ThreadPoolExecutor | None = None
        self._deferred: list[tuple[tuple[Any, ...], str, str, str, VoiceSettings]] = []
        """Pieces asked for by ``prepare``, rendered once the line due now is rendered."""

    CACHED_PIECES = 256
    """Rendered pieces kept: fixed lines (prompts, the radio call) are said again at once."""

    def narrators(self) -> dict[str, str]:
        """Who narrates each language, in words (for ``doctor`` and the start of a game)."""
        return {lang: describe_narrator(self.engine, voice)
                for lang, voice in sorted(self.voices.items())}

    def forget(self) -> None:
        """Drop the rendered pieces kept so far (a benchmark's cold start)."""
        with self._cache_lock:
            self._rendered.clear()

    def _key(self, sentence: str, lang: str, voice: str,
             settings: VoiceSettings) -> tuple[Any, ...]:
        return (sentence, lang, voice, settings)

    def _piece(self, sentence: str, lang: str, voice: str,
               settings: VoiceSettings) -> Rendered:
        """One piece, from the kept ones, from a rendering under way, or rendered now."""
        key = self._key(sentence, lang, voice, settings)
        with self._cache_lock:
            kept = self._rendered.get(key)
            if kept is not None:
                self._rendered.move_to_end(key)
                return kept
            pending = self._pending.get(key)
        if pending is not None:
            with contextlib.suppress(Exception):
                return pending.result()
        rendered = self._render_sentence(sentence, lang, voice, settings)
        self._keep(key, rendered)
        return rendered

    def _keep(self, key: tuple[Any, ...], rendered: Rendered) -> None:
        if not len(rendered.samples):
            return  # an engine's empty answer is not kept: the next say tries again
        with self._cache_lock:
            self._rendered[key] = rendered
            self._rendered.move_to_end(key)
            while len(self._rendered) > self.CACHED_PIECES:
                self._rendered.popitem(last=False)

    def _pieces_of(self, text: str, voice: str, lang: str) -> list[str]:
        engine = engine_for(self.engine, voice)
        budget = getattr(engine, "first_piece_chars", None)
        return split_sentences(
            text, first_max_chars=budget or self.first_clause_chars,
            phrase_starts=PHRASE_STARTS.get(lang, ()) if budget else (),
            max_chars=getattr(self.engine, "max_chars", None) or 160)

    def prepare(self, text: str, *, lang: str = "en", voice: str | None = None) -> None:
        """Have ``text`` rendered in the background (the line that comes after the one about
        to be said), so that ``say`` finds it ready. The rendering starts once the next
        ``say`` has rendered its own line, or when a sound is played, so that it never holds
        up the line due now. Does nothing for a voice that is not installed."""
        if not text.strip():
            return
        try:
            chosen = self.voice_for(lang, voice)
        except SynthesisError:
            return
        settings = self.settings
        with self._cache_lock:
            for sentence in self._pieces_of(text, chosen, lang):
                key = self._key(sentence, lang, chosen, settings)
                if key not in self._rendered and key not in self._pending:
                    self._deferred.append((key, sentence, lang, chosen, settings))

    def _start_deferred(self) -> None:
        """Start rendering the pieces ``prepare`` asked for."""
        with self._cache_lock:
            deferred, self._deferred = self._deferred, []
            for key, sentence, lang, voice, settings in deferred:
                if key in self._rendered or key in self._pending:
                    continue
                if self._ahead is None:
                    self._ahead = ThreadPoolExecutor(max_workers=1,
                                                     thread_name_prefix="voice-host-tts-ahead")
                    weakref.finalize(self, self._ahead.shutdown, wait=False)
                self._pending[key] = self._ahead.submit(self._render_ahead, key, sentence,
                                                        lang, voice, settings)

    def _render_ahead(self, key: tuple[Any, ...], sentence: str, lang: str, voice: str,
                      settings: VoiceSettings) -> Rendered:
        try:
            with self._cache_lock:
                kept = self._rendered.get(key)
            if kept is not None:
                return kept
            rendered = self._render_sentence(sentence, lang, voice, settings)
            self._keep(key, rendered)
            return rendered
        finally:
            with self._cache_lock:
                self._pending.pop(key, None)

    def voice_for(self, lang: str, voice: str | None = None) -> str:
        """The voice to use; raises ``SynthesisError`` for one that is not installed."""
        chosen = voice or self.voices.get(lang) or lang
        if not self.engine.has_voice(chosen):
            if voice is not None:
                raise SynthesisError(f"I do not have the voice {voice}.")
            raise SynthesisError(f"I have no voice for the language {lang}.")
        return chosen

    def _render_sentence(self, sentence: str, lang: str, voice: str,
                         settings: VoiceSettings) -> Rendered:
        """One sentence, its foreign phrases in their own language's voice, joined."""
        runs = spans(sentence, lang, self.pronunciation.get(engine_family(self.engine, voice)))
        if len(runs) == 1 and runs[0].lang == lang:
            return self.engine.synthesize(runs[0].text, voice=voice, settings=settings)
        pieces: list[Rendered] = []
        for run in runs:
            run_voice = voice
            if run.lang != lang:
                with contextlib.suppress(SynthesisError):  # no such voice: say it as is
                    run_voice = self.voice_for(run.lang)
            pieces.append(self.engine.synthesize(run.text, voice=run_voice, settings=settings))
        pieces = [p for p in pieces if len(p.samples)]
        if not pieces:
            return Rendered(np.zeros(0, dtype=np.int16), SAMPLE_RATE, sentence)
        rate = pieces[0].rate
        gap = np.zeros(int(rate * 0.04), dtype=np.int16)  # a breath between the two voices
        joined: list[Samples] = []
        for piece in pieces:
            if joined:
                joined.append(gap)
            joined.append(piece.samples if piece.rate == rate else to_int16(
                resample(piece.samples.astype(np.float32) / 32768.0, piece.rate, rate)))
        return Rendered(np.concatenate(joined), rate, sentence)

    def _render_parts(self, text: str, voice: str, lang: str = "en") -> Iterator[Rendered]:
        """Render sentence by sentence in a background thread; yield them in order. Once
        all are rendered, the pieces ``prepare`` asked for start rendering."""
        sentences = self._pieces_of(text, voice, lang)
        settings = self.settings
        if len(sentences) <= 1:
            try:
                rendered = [self._piece(s, lang, voice, settings) for s in sentences]
            finally:
                self._start_deferred()
            yield from rendered
            return
        results: queue.Queue[Rendered | BaseException | None] = queue.Queue()

        def work() -> None:
            try:
                for sentence in sentences:
                    results.put(self._piece(sentence, lang, voice, settings))
            except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
                results.put(error)
            finally:
                self._start_deferred()
            results.put(None)

        thread = threading.Thread(target=work, name="voice-host-tts", daemon=True)
        thread.start()
        while (item := results.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
        thread.join()

    def say(self, text: str, *, lang: str = "en", voice: str | None = None,
            effect: str | None = None) -> None:
        """Speak ``text`` sentence by sentence; ``effect="radio"``: the whole line rendered,
        then through the short-wave radio effect (``speech.effects.radio_effect``)."""
        if not text.strip():
            return
        chosen = self.voice_for(lang, voice)
        started = time.monotonic()
        produced: list[Rendered] = []

        def counted() -> Iterator[Rendered]:
            if effect == "radio":
                from voice_host.speech.effects import radio_effect

                whole = self.render(text, lang=lang, voice=chosen)
                parts: Iterator[Rendered] = iter([Rendered(radio_effect(whole), SAMPLE_RATE,
                                                           text)])
            elif effect is not None:
                raise SynthesisError(f"I do not know the sound effect {effect}.")
            else:
                parts = self._render_parts(text, chosen, lang)
            for part in parts:
                produced.append(part)
                yield part

        first_at = self.output.speak(counted(), text=text, lang=lang)
        done = time.monotonic()
        self.last_stats = SayStats(
            first_audio_seconds=(first_at - started) if first_at is not None else done - started,
            total_seconds=done - started,
            audio_seconds=sum(p.seconds for p in produced),
            sentences=len(produced),
        )

    def render(self, text: str, *, lang: str = "en", voice: str | None = None) -> Samples:
        """``text`` as 16 kHz mono int16 (empty for empty text)."""
        chosen = self.voice_for(lang, voice)
        parts = [p for p in self._render_parts(text, chosen, lang) if len(p.samples)]
        if not parts:
            return np.zeros(0, dtype=np.int16)
        pieces = [to_int16(resample(p.samples.astype(np.float32) / 32768.0, p.rate, SAMPLE_RATE))
                  for p in parts]
        return np.concatenate(pieces)

    def play(self, samples: Samples, rate: int = SAMPLE_RATE, *, label: str = "",
             wait: bool = True, gate: bool = True) -> None:
        self._start_deferred()  # rendered while the sound plays
        self.output.play(samples, rate, label=label, wait=wait, gate=gate)



def parse_output(spec: str, *, gate: HalfDuplexGate | None = None) -> AudioOutput:
    """``"speaker"`` or ``"wav:DIR"`` -> an ``AudioOutput``."""
    if spec == "speaker":
        return SpeakerOutput(gate=gate)
    if spec.startswith("wav:") and len(spec) > 4:
        return WavOutput(spec[4:])
    raise SpeechError(f"I do not know the output {spec}. Use speaker or wav:FOLDER.")


def create_synthesizer(
    output: str | AudioOutput = "speaker",
    *,
    engine: str | TtsEngine = "auto",
    gate: HalfDuplexGate | None = None,
    settings: VoiceSettings | None = None,
    narrators: Mapping[str, str] | None = None,
) -> TtsSynthesizer:
    """The narrator: Piper for English, MBROLA (else Kokoro) for French, when installed,
    pyttsx3 (else espeak-ng) for the rest, speaking to ``output``; ``narrators`` picks per
    language."""
    chosen = create_engine(engine, narrators=narrators) if isinstance(engine, str) else engine
    out = parse_output(output, gate=gate) if isinstance(output, str) else output
    return TtsSynthesizer(chosen, out, settings=settings,
                          voices=narrator_voices(chosen, narrators))
