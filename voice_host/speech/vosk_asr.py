"""Vosk recognizer: Kaldi models restricted to the phase's vocabulary.

Each grammar gets its own ``KaldiRecognizer`` built with the phase's words plus ``[unk]``
(cached, so switching phases is cheap); an open-vocabulary grammar (``jsgf is None``) uses the
model's full vocabulary.  Vosk silently drops words its model does not know, so every grammar
word is checked against the model's words (its ``words.txt``, or the word table inside the
runtime-grammar graph ``graph/Gr.fst`` of a model shipped without one) and the unknown ones are
reported.  The escape word that lets out-of-grammar speech out is the model's own: ``[unk]``
in most models, ``<UNK>`` in some.
"""

from __future__ import annotations

import hashlib
import json
import struct
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
UNKNOWN_SPELLINGS = (UNKNOWN, "<UNK>", "<unk>")
"""How models spell the word for speech outside the vocabulary, in the order looked for."""

_WORDS_FILES = ("graph/words.txt", "words.txt", "graph/phones/words.txt")
_GRAMMAR_GRAPH = "graph/Gr.fst"
_FST_MAGIC = 2125659606
_SYMBOLS_MAGIC = 2125658996


def _import_vosk() -> Any:
    try:
        import vosk
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise RecognizerUnavailable(INSTALL_HINT) from error
    return vosk


def model_words(model_path: str | Path) -> list[str] | None:
    """Every word of a Vosk model as the model spells it (from its ``words.txt``, else from
    the word table of its ``graph/Gr.fst``), or None when neither can be read."""
    root = Path(model_path)
    for relative in _WORDS_FILES:
        path = root / relative
        if path.is_file():
            with open(path, encoding="utf-8", errors="replace") as handle:
                return [parts[0] for line in handle if (parts := line.split())]
    graph = root / _GRAMMAR_GRAPH
    if graph.is_file():
        try:
            return fst_output_words(graph)
        except (OSError, ValueError, struct.error, UnicodeDecodeError):
            return None
    return None


def fst_output_words(path: Path) -> list[str]:
    """The output word table stored in an OpenFst binary file's header (Kaldi's lookahead
    grammar graph keeps the model's words.txt there). ValueError when it holds none."""
    data = path.read_bytes()
    at = 0

    def number(fmt: str) -> int:
        nonlocal at
        value = struct.unpack_from(fmt, data, at)[0]
        at += struct.calcsize(fmt)
        return int(value)

    def string() -> str:
        nonlocal at
        size = number("<i")
        at += size
        return data[at - size:at].decode("utf-8")

    if number("<i") != _FST_MAGIC:
        raise ValueError(f"{path} is not an OpenFst file")
    string(), string()  # the FST's type and its arcs' type
    number("<i")  # version
    flags = number("<i")
    at += 32  # properties, start state, state and arc counts
    tables: list[list[str]] = []
    for bit in (1, 2):  # input symbols, then output symbols
        if not flags & bit:
            continue
        if number("<i") != _SYMBOLS_MAGIC:
            raise ValueError(f"{path} has a damaged word table")
        string()  # the table's name
        number("<q")  # the next free key
        words = []
        for _ in range(number("<q")):
            words.append(string())
            at += 8  # the word's key
        tables.append(words)
    if not tables:
        raise ValueError(f"{path} holds no word table")
    return tables[-1]


def model_vocabulary(model_path: str | Path) -> frozenset[str] | None:
    """The words a Vosk model can output, lowercase (markers such as ``<eps>`` and ``#0`` left
    out), or None when they cannot be read."""
    words = model_words(model_path)
    if words is None:
        return None
    return frozenset(w.lower() for w in words if not w.startswith(("<", "#")))


def unknown_word(words: list[str] | None) -> str:
    """The model's word for out-of-vocabulary speech (``[unk]`` when it cannot be told)."""
    present = set(words or ())
    return next((w for w in UNKNOWN_SPELLINGS if w in present), UNKNOWN)


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
        words = model_words(path)
        self.vocabulary = None if words is None else frozenset(
            w.lower() for w in words if not w.startswith(("<", "#")))
        """The model's words, or None when they could not be read."""
        self.unknown_word = unknown_word(words)
        """The model's word for speech outside the grammar (``[unk]`` or ``<UNK>``)."""
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
                # raw UTF-8: Vosk reads "\\u00e9" escapes as the letters, not as "é"
                phrase_list = json.dumps(words + [self.unknown_word], ensure_ascii=False)
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


_UNKNOWN_LOWER = frozenset(w.lower() for w in UNKNOWN_SPELLINGS)


def transcript_from_result(
    result: dict[str, Any], *, audio_seconds: float, decode_seconds: float
) -> Transcript:
    """Turn Vosk's final-result JSON into a Transcript (``[unk]`` or ``<unk>``, in any case,
    marks out-of-grammar speech).

    The utterance is rejected when at least half of the words heard were ``[unk]``.
    """
    items = result.get("result") or []
    words: list[WordInfo] = []
    unknown = 0
    for item in items:
        word = str(item.get("word", "")).lower()
        if word in _UNKNOWN_LOWER:
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
            if w not in _UNKNOWN_LOWER
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
