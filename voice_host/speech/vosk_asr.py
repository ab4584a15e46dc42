"""Vosk recognizer: Kaldi models restricted to the phase's vocabulary.

Each grammar gets its own ``KaldiRecognizer`` built with the phase's words plus ``[unk]``
(cached, so switching phases is cheap); an open-vocabulary grammar (``jsgf is None``) uses the
model's full vocabulary.  Vosk silently drops words its model does not know, so every grammar
word is checked against the model's ``words.txt`` and the unknown ones are reported.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from voice_host.speech.install import pip_install
from voice_host.speech.types import (
    SAMPLE_RATE,
    RecognitionGrammar,
    RecognizerUnavailable,
    Samples,
    StreamingRecognizer,
    Transcript,
    WordInfo,
)

INSTALL_HINT = (
    f"Vosk is not installed. Install it with: {pip_install('vosk')}, or use --asr pocketsphinx."
)
UNKNOWN = "[unk]"

_WORDS_FILES = ("graph/words.txt", "words.txt", "graph/phones/words.txt")


def _import_vosk() -> Any:
    try:
        import vosk
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise RecognizerUnavailable(INSTALL_HINT) from error
    return vosk


def model_vocabulary(model_path: str | Path) -> frozenset[str] | None:
    """The words a Vosk model can output (from its ``words.txt``), or None when not found."""
    root = Path(model_path)
    for relative in _WORDS_FILES:
        path = root / relative
        if path.is_file():
            words: set[str] = set()
            with open(path, encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    parts = line.split()
                    if parts and not parts[0].startswith(("<", "#")):
                        words.add(parts[0].lower())
            return frozenset(words)
    return None


def unknown_words(grammar: RecognitionGrammar, vocabulary: frozenset[str] | None) -> list[str]:
    """Grammar words the model does not know (empty when the vocabulary is unknown)."""
    if vocabulary is None:
        return []
    return sorted(w for w in grammar.words if w.lower() not in vocabulary)


def vocabulary_warning(grammar_name: str, missing: list[str]) -> str | None:
    """A sentence naming the words Vosk will not hear in this grammar, or None."""
    if not missing:
        return None
    listed = ", ".join(missing[:12]) + (" ..." if len(missing) > 12 else "")
    plural = "words" if len(missing) > 1 else "word"
    return (
        f"The Vosk model does not know the {plural} {listed} used in {grammar_name}; "
        "it cannot recognize them. Use --asr pocketsphinx or a larger model."
    )


class VoskRecognizer(StreamingRecognizer):
    """Recognizer backed by a Vosk model directory; it streams."""

    name = "vosk"

    def __init__(self, model_path: str | Path, *, description: str | None = None) -> None:
        path = Path(model_path).expanduser()
        if not path.is_dir():
            raise RecognizerUnavailable(f"There is no Vosk model at {path}.")
        self.description = description or f"Speech recognition: Vosk ({path.name}, {path})."
        """The sentence saying which recognizer runs (the factory says why it was chosen)."""
        vosk = _import_vosk()
        vosk.SetLogLevel(-1)
        try:
            self._model = vosk.Model(str(path))
        except Exception as error:  # vosk raises a bare Exception on a bad model
            raise RecognizerUnavailable(f"The Vosk model at {path} could not be loaded.") from error
        self._vosk = vosk
        self.model_path = path
        self.vocabulary = model_vocabulary(path)
        """The model's words, or None when its words.txt could not be found."""
        self.warnings: list[str] = []
        """Sentences about grammar words the model cannot recognize."""
        self.unknown: dict[str, list[str]] = {}
        """Per grammar name, the words the model does not know."""
        self._cache: dict[str, Any] = {}
        self._active: Any = None
        self._fed_samples = 0
        self._last_partial = ""
        self._segments: list[dict[str, Any]] = []

    def check_grammar(self, grammar: RecognitionGrammar) -> list[str]:
        """Record and return the grammar words this model does not know."""
        missing = unknown_words(grammar, self.vocabulary)
        if grammar.name not in self.unknown:
            self.unknown[grammar.name] = missing
            warning = vocabulary_warning(grammar.name, missing)
            if warning:
                self.warnings.append(warning)
        return missing

    def set_grammar(self, grammar: RecognitionGrammar) -> None:
        """Switch to this phase's vocabulary (a cached recognizer per grammar)."""
        if grammar.jsgf is None:
            key = "__open__"
        else:
            self.check_grammar(grammar)
            words = sorted(w.lower() for w in grammar.words)
            if self.vocabulary is not None:
                words = [w for w in words if w in self.vocabulary]
            key = hashlib.sha1("\n".join(words).encode()).hexdigest()
        recognizer = self._cache.get(key)
        if recognizer is None:
            if key == "__open__":
                recognizer = self._vosk.KaldiRecognizer(self._model, SAMPLE_RATE)
            else:
                phrase_list = json.dumps(words + [UNKNOWN])
                recognizer = self._vosk.KaldiRecognizer(self._model, SAMPLE_RATE, phrase_list)
            recognizer.SetWords(True)
            self._cache[key] = recognizer
        self._active = recognizer

    def start_utterance(self) -> None:
        """Begin a new utterance (streaming)."""
        if self._active is None:
            raise RuntimeError("set_grammar() must be called before recognition.")
        self._active.Reset()
        self._segments = []
        self._fed_samples = 0
        self._last_partial = ""

    def feed(self, samples: Samples) -> None:
        """Decode more 16 kHz mono int16 audio of the current utterance."""
        if self._active is None:
            raise RuntimeError("set_grammar() must be called before recognition.")
        data = np.ascontiguousarray(samples, dtype=np.int16)
        if self._active.AcceptWaveform(data.tobytes()):
            # Vosk found an endpoint inside the utterance: keep that part's words.
            self._segments.append(json.loads(self._active.Result()))
        self._fed_samples += len(data)

    def partial(self) -> str:
        """The words heard so far in the current utterance."""
        if self._active is None:
            return ""
        text = json.loads(self._active.PartialResult()).get("partial", "")
        self._last_partial = text
        return str(text)

    def finish(self) -> Transcript:
        """End the utterance; ``decode_seconds`` is the time spent here."""
        started = time.perf_counter()
        if self._active is None:
            raise RuntimeError("set_grammar() must be called before recognition.")
        last = json.loads(self._active.FinalResult())
        parts = [*self._segments, last]
        self._segments = []
        result = {
            "result": [item for part in parts for item in part.get("result") or []],
            "text": " ".join(str(part.get("text", "")) for part in parts).strip(),
        }
        return transcript_from_result(
            result,
            audio_seconds=self._fed_samples / SAMPLE_RATE,
            decode_seconds=time.perf_counter() - started,
        )

    def recognize(self, audio: Samples) -> Transcript:
        """Decode one whole utterance."""
        started = time.perf_counter()
        self.start_utterance()
        self.feed(audio)
        transcript = self.finish()
        return Transcript(
            text=transcript.text,
            words=transcript.words,
            confidence=transcript.confidence,
            audio_seconds=transcript.audio_seconds,
            decode_seconds=time.perf_counter() - started,
            backend=transcript.backend,
            rejected=transcript.rejected,
        )


def transcript_from_result(
    result: dict[str, Any], *, audio_seconds: float, decode_seconds: float
) -> Transcript:
    """Turn Vosk's final-result JSON into a Transcript (``[unk]`` marks out-of-grammar speech).

    The utterance is rejected when at least half of the words heard were ``[unk]``.
    """
    items = result.get("result") or []
    words: list[WordInfo] = []
    unknown = 0
    for item in items:
        word = str(item.get("word", "")).lower()
        if word == UNKNOWN:
            unknown += 1
            continue
        words.append(
            WordInfo(
                word=word,
                start=float(item.get("start", 0.0)),
                end=float(item.get("end", 0.0)),
                confidence=min(1.0, max(0.0, float(item.get("conf", 0.0)))),
            )
        )
    if not items and result.get("text"):
        words = [
            WordInfo(word=w, start=0.0, end=0.0, confidence=0.0)
            for w in str(result["text"]).lower().split()
            if w != UNKNOWN
        ]
    rejected = unknown > 0 and unknown * 2 >= unknown + len(words)
    if rejected:
        words = []
    confidence = min((w.confidence for w in words), default=0.0)
    return Transcript(
        text=" ".join(w.word for w in words),
        words=tuple(words),
        confidence=confidence,
        audio_seconds=audio_seconds,
        decode_seconds=decode_seconds,
        backend="vosk",
        rejected=rejected,
    )
