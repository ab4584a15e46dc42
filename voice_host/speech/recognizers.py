"""Choose and build the speech recognizer: ``--asr auto|vosk|pocketsphinx``.

``auto`` picks Vosk when a Vosk model is installed for the language (or given with
``--vosk-model``) and the vosk library is present, else the bundled PocketSphinx.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from voice_host.speech import models
from voice_host.speech.pocketsphinx_asr import PocketSphinxRecognizer
from voice_host.speech.types import Recognizer, RecognizerUnavailable
from voice_host.speech.vosk_asr import VoskRecognizer

BACKENDS = ("auto", "vosk", "pocketsphinx")


@dataclass(frozen=True)
class RecognizerChoice:
    """Which backend to start and why."""

    backend: str
    """``"vosk"`` or ``"pocketsphinx"``."""
    model_path: Path | None
    """The Vosk model directory (None for PocketSphinx)."""
    description: str
    """The sentence printed at start, e.g. "Speech recognition: PocketSphinx (...)."."""


def _vosk_importable() -> bool:
    return importlib.util.find_spec("vosk") is not None


def choose_backend(
    asr: str = "auto", *, vosk_model: str | Path | None = None, lang: str = "en"
) -> RecognizerChoice:
    """Decide the backend without loading anything heavy."""
    asr = asr.lower()
    if asr not in BACKENDS:
        raise RecognizerUnavailable(
            f"Unknown recognizer '{asr}'. Choose auto, vosk or pocketsphinx."
        )
    language = models.LANGUAGE_NAMES.get(lang, lang)
    explicit = Path(vosk_model).expanduser() if vosk_model else None
    if explicit is not None and not models.is_vosk_model(explicit):
        raise RecognizerUnavailable(f"There is no unpacked Vosk model at {explicit}.")
    model = explicit or models.installed_model(lang)
    if asr == "pocketsphinx" or (asr == "auto" and model is None):
        note = "" if model is not None else f" no Vosk model installed for {language}."
        if asr == "pocketsphinx":
            note = " chosen with --asr pocketsphinx."
        warning = ""
        if lang != "en":
            warning = (
                f" It only knows English; for {language} run: voice-host models download {lang}."
            )
        return RecognizerChoice(
            backend="pocketsphinx",
            model_path=None,
            description=f"Speech recognition: PocketSphinx (bundled US-English model);{note}"
            + warning,
        )
    if model is None:
        raise RecognizerUnavailable(
            f"No Vosk model is installed for {language}. Run: voice-host models download "
            f"{lang}, give --vosk-model PATH, or use --asr pocketsphinx."
        )
    if not _vosk_importable():
        if asr == "vosk":
            raise RecognizerUnavailable(
                "Vosk is not installed. Install it with: pip install vosk, "
                "or use --asr pocketsphinx."
            )
        return RecognizerChoice(
            backend="pocketsphinx",
            model_path=None,
            description=(
                "Speech recognition: PocketSphinx (bundled US-English model); a Vosk model is "
                f"installed at {model} but the vosk library is missing (pip install vosk)."
            ),
        )
    return RecognizerChoice(
        backend="vosk",
        model_path=model,
        description=f"Speech recognition: Vosk ({model.name}, {model}).",
    )


def create_recognizer(
    asr: str = "auto", *, vosk_model: str | Path | None = None, lang: str = "en"
) -> Recognizer:
    """Build the recognizer; ``describe_choice(recognizer)`` gives the start-up sentence."""
    choice = choose_backend(asr, vosk_model=vosk_model, lang=lang)
    recognizer: VoskRecognizer | PocketSphinxRecognizer
    if choice.backend == "vosk":
        assert choice.model_path is not None
        recognizer = VoskRecognizer(choice.model_path)
    else:
        recognizer = PocketSphinxRecognizer()
    recognizer.description = choice.description
    return recognizer


def describe_choice(recognizer: Recognizer) -> str:
    """The one-line sentence saying which recognizer runs (printed by the CLI at start)."""
    description = getattr(recognizer, "description", None)
    if isinstance(description, str):
        return description
    return f"Speech recognition: {recognizer.name}."
