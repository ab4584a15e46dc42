from __future__ import annotations

import itertools
import json
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np

from voice_host.speech import whisper_models
from voice_host.speech.decision import Judgement, SearchTuning, sound_may_help, with_sound
from voice_host.speech.grammar_search import (
    TokenConstraint,
    TokenTrie,
    WordGraph,
    fold_text,
    phase_tokens,
    with_lead_words,
)
from voice_host.speech.install import extra_install
from voice_host.speech.pause import Pause, PauseSettings, PauseTest
from voice_host.speech.search import (
    Decoder,
    Rollout,
    Scored,
    Search,
    judge,
    with_lift,
    with_unprompted,
)
from voice_host.speech.sounds import sound_similarity
from voice_host.speech.types import (
    SAMPLE_RATE,
    RecognitionGrammar,
    RecognizerUnavailable,
    Samples,
    StreamingRecognizer,
    Transcript,
)
from voice_host.speech.whisper_decoder import (
    Cancelled,
    DecoderModel,
    DecoderUnavailable,
    OwnDecoder,
    own_decoder_installed,
)
from voice_host.speech.whisper_languages import LANGUAGES, LanguageTuning

_PAUSE = PauseSettings()
"""The pause test's defaults, which the ``speculate_*`` settings start from."""

INSTALL_HINT = ("The Whisper recognizer needs ctranslate2 and faster-whisper. Install them with: "
                f"{extra_install('speech')}, or use --asr pocketsphinx.")

ROOM_GAP_FRAMES = 3
"""The pre-roll's frames nearest the speech are not taken for the room (a soft first sound
may be in them)."""

ENCODER_FRAME_SECONDS = 0.02
"""The audio one frame of Whisper's encoder output stands for (1500 frames in 30 s)."""
MAX_SECONDS = 29.0
"""The encoder takes fewer than 3000 frames; a longer utterance keeps its last 29 s."""

COMPUTE_ENV = "VOICE_HOST_WHISPER_COMPUTE"
"""Environment variable: CTranslate2's compute type (``int8`` by default, or ``float32``)."""

PROMPT_TOKENS = 64
"""At most this many tokens of previous-text prompt (the last ones are kept), by default."""


@dataclass(frozen=True)
class WhisperTuning:
    """How an utterance is encoded and decoded (the search's own settings in ``search``)."""

    search: SearchTuning = field(default_factory=SearchTuning)
    """The grammar search, the rejection and the two-reading decision."""
    margin_seconds: float = 0.5
    """Silence added after the utterance before encoding, at least."""
    window_seconds: float = 8.0
    """The encoder's window: the utterance and silence up to this length. Whisper learned
    on 30-second windows; on a window cut to the utterance it hears far worse and loops
    (benchmark utterances, greedy: 6 of 60 written exactly with 1 s of margin, 27 of 60
    with an 8-s window, 27 with the full 30 s), while 8 s costs about a sixth of 30 s."""
    fit_seconds: float = 0.0
    """When positive, the window fits the utterance: the utterance and this much silence,
    at least ``min_window_seconds`` and at most the window (0 = always the whole window).
    The encoder's cost, and every decoder step's attention over it, grow with the window,
    but Whisper needs the silence: on 60 clean calib utterances a window of the utterance
    plus 2 s (at least 5 s) saved a third of the encoder's time, and made 8 of the 12 table
    talk lines loop ("are you sure about that are you sure about that"), which cost more
    decoder steps than the encoder saved; plus 1 s (at least 4 s) lost a command too."""
    min_window_seconds: float = 4.0
    """The shortest window a fitted one may be."""
    memory_seconds: float = 0.0
    """When positive, the decoder attends to the encoder's output over the utterance and
    this much after it only, while the encoder still sees the whole window; 0 leaves it to
    the language (``LanguageTuning.memory_seconds``; none: all of it). Every decoder call
    projects the whole encoder output for its cross-attention, once a row, so a 30-s
    window makes each call cost about its frames (1500) whatever the utterance's length."""
    tokens_per_second: float = 4.5
    """Length cap of a rollout: this many tokens per second of audio, plus ``min_tokens``."""
    min_tokens: int = 6
    """Length cap of a rollout for the shortest utterance."""
    prompt: bool = True
    """Give the phase's words (:attr:`RecognitionGrammar.prompt`) as Whisper's previous-text
    prompt: Whisper then writes board words and names as the game spells them (more
    commands understood, clean ones most), for about a quarter more decoder time (the
    prompt is read at every step; ``voice-host bench --prompt on|off`` measures it)."""
    prompt_tokens: int = PROMPT_TOKENS
    """At most this many tokens of the prompt are given (its last ones). Every row of every
    decoder call reads the whole prompt again (CTranslate2 keeps no decoder state between
    calls), so its length is paid on each of a search's rollouts and rescorings, but
    little: a row's cost is mostly its steps and its cross-attention over the 8-s window,
    not the prompt (a round of six rollouts takes about the same with 24 tokens as with
    64)."""
    no_repeat_ngram_size: int = 0
    """Loop guard of the free decode (CTranslate2's option; 0 = off)."""
    speculate: bool = True
    """Decode while the endpointer waits for the trailing silence (see the class)."""
    speculate_quiet_frames: int = _PAUSE.quiet
    """Fed frames (about 30 ms each) that must all be quiet before such a decode starts."""
    speculate_drop_db: float = _PAUSE.drop_db
    """Quiet: this many dB below the loud part of the speech so far (the drop test of
    :mod:`voice_host.speech.pause`)..."""
    speculate_end_db: float = _PAUSE.end_db
    """... or the endpointer's own end test: this many dB below the speech's mean power
    (over the last ``speculate_smooth_frames``; 0 = the drop test alone). In a room that
    talks the drop test rarely fires, and this test starts the decode in the trailing
    silence for nearly every utterance in babble, about 0.3 s before the endpointer's
    decision."""
    speculate_room_db: float = _PAUSE.room_db
    """The end test also calls quiet what is back within this many dB of the room before
    the utterance (the endpointer's ``end_above_room_db``; 0 = not). Off: in loud babble it
    would start decodes on audio without the last 0.3 s of babble the full decode hears,
    where chatter reads surer as a command ("i vote yes" at a margin of -0.11 where the
    full audio gives -0.16)."""
    speculate_smooth_frames: int = _PAUSE.smooth
    """Frames the end test's level is the mean power of (the endpointer's)."""
    heard_frames: int = 6
    """Fed with the endpointer's own verdict (:meth:`WhisperRecognizer.feed_heard`), an
    utterance is decoded over its speech and this many frames after the last frame the
    endpointer called speech (the rest of its trailing silence is only waited out), and that
    decode starts as soon as these frames are in: when the endpointer then ends the
    utterance without hearing speech again, the decode it needs is the one already running
    (the same audio, so the same outcome), begun about a third of a second before the end.
    Six, chosen on the benchmark's calibration split: as many commands as decoding the
    whole trailing silence, within one."""
    speculate_wait_frames: int = -1
    """Quiet frames, beyond ``heard_frames``, before that decode starts (it decodes the same
    audio, so the same outcome); -1: the language's own (``LanguageTuning``), else none. A
    pause inside a sentence ("bon, ... la cloche") that starts a decode calls it off when
    the speech goes on, and CTranslate2's encoder, most of a French decode, cannot stop
    halfway."""
    heard_fill: int = 11
    """... and after those frames, this many frames of the room's own sound (its pre-roll
    before the speech, repeated) in place of the rest of the trailing silence (0: none).
    Whisper hears the room's talk after the speech as the full trailing silence gives it;
    without it, it takes more babble for commands."""
    threads: int = 0
    """CTranslate2's threads (intra-op) for the model, when positive; else the language's
    own (``LanguageTuning.threads``: English one), else one per core up to four."""
    workers: int = 0
    """CTranslate2's workers (``inter_threads``), when positive; else the language's own
    (``LanguageTuning.workers``), else one. A decoder call of several rows (a search
    round's rollouts, a rescoring) is split between them, each part run at once on its own
    thread (see ``LanguageTuning.workers`` for what English gains)."""
    decoder: str = ""
    """Which decoder the search asks: ``own`` (:mod:`voice_host.speech.whisper_decoder`,
    the same weights, keeping the prompt's and every prefix's work for the utterance) or
    ``ctranslate2`` (``generate``, every call from the start); empty: the language's own
    (``LanguageTuning.decoder``), else CTranslate2. The audio is encoded by CTranslate2
    either way."""
    languages: Mapping[str, LanguageTuning] = field(default_factory=lambda: dict(LANGUAGES))
    """What differs by language (:mod:`voice_host.speech.whisper_languages`)."""

    def pause_settings(self) -> PauseSettings:
        """The pause test's settings."""
        return PauseSettings(self.speculate_quiet_frames, self.speculate_drop_db,
                             self.speculate_end_db, self.speculate_room_db,
                             self.speculate_smooth_frames)

    def language_tuning(self, language: str) -> LanguageTuning:
        """What ``language`` changes in these defaults (nothing for a language not listed)."""
        return self.languages.get(language, LanguageTuning())

    def threads_for(self, language: str) -> int:
        """CTranslate2's threads for ``language``'s model."""
        if self.threads > 0:
            return self.threads
        own = self.language_tuning(language).threads
        return own if own else min(4, os.cpu_count() or 1)

    def workers_for(self, language: str) -> int:
        """CTranslate2's workers for ``language``'s model (at most one per core)."""
        own = self.workers if self.workers > 0 else self.language_tuning(language).workers
        return max(1, min(own or 1, os.cpu_count() or 1))

    def decoder_for(self, language: str) -> str:
        """The decoder (``own`` or ``ctranslate2``) for ``language``'s model."""
        own = self.decoder or self.language_tuning(language).decoder or "ctranslate2"
        if own not in ("own", "ctranslate2"):
            raise ValueError(f"decoder must be 'own' or 'ctranslate2', not {own!r}")
        return own

    def window_for(self, language: str) -> float:
        """The encoder's window for ``language``."""
        own = self.language_tuning(language).window_seconds
        return self.window_seconds if own is None else own

    def speculate_wait_for(self, language: str) -> int:
        """Quiet frames beyond ``heard_frames`` before the trailing-silence decode starts,
        for ``language``."""
        if self.speculate_wait_frames >= 0:
            return self.speculate_wait_frames
        return self.language_tuning(language).speculate_wait_frames or 0

    def memory_for(self, language: str) -> float:
        """How much of the encoder's output after the utterance the decoder attends to, in
        seconds, for ``language`` (0: the whole window)."""
        if self.memory_seconds > 0:
            return self.memory_seconds
        own = self.language_tuning(language).memory_seconds
        return own or 0.0

    def search_for(self, language: str) -> SearchTuning:
        """The search's settings for ``language`` (its own, else ``search``; the nearest
        sentences only where the language asks for them)."""
        own = self.language_tuning(language)
        search = own.search or self.search
        return search if own.near else replace(search, near_sentences=0)


def _import_backend() -> tuple[Any, Any, Any, Any]:
    try:
        import ctranslate2
        import tokenizers
        from faster_whisper.feature_extractor import FeatureExtractor
        from faster_whisper.tokenizer import Tokenizer
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise RecognizerUnavailable(INSTALL_HINT) from error
    return ctranslate2, tokenizers, FeatureExtractor, Tokenizer


def compute_type() -> str:
    """CTranslate2's compute type for Whisper: ``$VOICE_HOST_WHISPER_COMPUTE`` or int8."""
    return os.environ.get(COMPUTE_ENV, "").strip() or "int8"


def _byte_decoder() -> dict[str, int]:
    """The byte-level BPE alphabet: printable bytes stand for themselves, the others are
    shifted above 255 (the scheme GPT-2-style tokenizers use)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
                 *range(ord("®"), ord("ÿ") + 1)]
    mapping = {chr(b): b for b in printable}
    shift = 0
    for b in range(256):
        if b not in printable:
            mapping[chr(256 + shift)] = b
            shift += 1
    return mapping


def token_texts(vocab: dict[str, int], below: int) -> dict[int, str]:
    """Token id -> its text, for the ordinary tokens (ids below ``below``) whose bytes are
    whole UTF-8 characters."""
    decoder = _byte_decoder()
    out: dict[int, str] = {}
    for piece, token in vocab.items():
        if token >= below:
            continue
        try:
            raw = bytes(decoder[c] for c in piece)
            out[token] = raw.decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            continue
    return out


def _log_softmax(row: Any) -> np.ndarray:
    values = np.asarray(row, dtype=np.float32)
    top = float(values.max())
    return values - (top + math.log(float(np.exp(values - top).sum())))


class _Grammar:
    """A phase grammar compiled for the search."""

    def __init__(self, grammar: RecognitionGrammar, texts: dict[int, str], eot: int) -> None:
        self.open = grammar.open_jsgf is not None or grammar.jsgf is None
        spellings = {w: tuple(fold_text(s) for s in forms)
                     for w, forms in grammar.spellings.items()}
        # an open phase is searched with its likely words first (the grammar's list and the
        # game's), then with the slot open to any word
        documents = [d for d in (grammar.jsgf, grammar.open_jsgf) if d is not None]
        self.searches: list[Search] = []
        for document in documents:
            graph = WordGraph(with_lead_words(document, grammar.lead_words))
            keep = phase_tokens(graph, spellings, texts)
            suppress = None if keep is None else \
                (-1, *sorted(t for t in range(eot) if t not in keep))
            self.searches.append(Search(TokenConstraint(graph, spellings), suppress))
        self.prompt = grammar.prompt
        """The phase's words, for Whisper's previous-text prompt."""


def max_length(tokens: int, previous: int) -> int:
    """CTranslate2's ``max_length`` for Whisper's ``generate`` to write ``tokens`` tokens
    (the forced prefix after the start sequence included) after a previous-text prompt of
    ``previous`` tokens. Measured on CTranslate2 4 (tiny.en): it writes
    ``min(max_length - previous - 1, max_length // 2)`` tokens, so ``2 * tokens`` alone is
    right without a prompt, and with one ``previous + tokens + 1`` is (``previous + 2 *
    tokens + 1``, used before, wrote twice the steps wanted, all thrown away)."""
    return max(previous + tokens + 1, 2 * tokens)


def _parts(rows: int, workers: int) -> list[tuple[int, int]]:
    """A call's rows split into at most ``workers`` runs of consecutive rows, as even as can
    be (start, end)."""
    count = max(1, min(rows, workers))
    bounds = [round(i * rows / count) for i in range(count + 1)]
    return list(itertools.pairwise(bounds))


class _Encoded(Decoder):
    """One encoded utterance as the search's :class:`~voice_host.speech.search.Decoder`."""

    def __init__(self, owner: WhisperRecognizer, encoded: np.ndarray,
                 prompt: list[int], cancel: threading.Event | None = None) -> None:
        self.owner = owner
        self.encoded = encoded
        self.prompt = prompt
        self.eot = owner._eot
        self.cancel = cancel
        """Set from another thread to stop the decode before its next decoder call."""
        self.calls = 0
        """Decoder calls made (for the figures)."""

    def _generate(self, prefixes: Sequence[tuple[int, ...]], length: int,
                  **options: Any) -> Any:
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled
        self.calls += 1
        previous = len(self.prompt) - len(self.owner._start)
        settings = {"beam_size": 1, "max_length": max_length(length, previous),
                    "return_logits_vocab": True, "suppress_blank": False, **options}
        parts = _parts(len(prefixes), self.owner._workers)
        if len(parts) == 1:
            return self.owner._model.generate(self._batch(prefixes), self._prompts(prefixes),
                                              **settings)
        # each part on its own worker at once; the rows are decoded alike either way (each
        # row's greedy steps depend on its own prefix only)
        posted = [self.owner._model.generate(self._batch(prefixes[a:b]),
                                             self._prompts(prefixes[a:b]),
                                             asynchronous=True, **settings)
                  for a, b in parts]
        return [answer.result() for part in posted for answer in part]

    def _batch(self, prefixes: Sequence[tuple[int, ...]]) -> Any:
        """The encoder output, once a row."""
        return self.owner._ct2.StorageView.from_array(
            np.ascontiguousarray(np.repeat(self.encoded, len(prefixes), axis=0)))

    def _prompts(self, prefixes: Sequence[tuple[int, ...]]) -> list[list[int]]:
        return [self.prompt + list(p) for p in prefixes]

    def continue_prefixes(self, prefixes: Sequence[tuple[int, ...]], cap: int,
                          suppress: Sequence[int] | None = None) -> list[Rollout]:
        total = max(cap, max(len(p) for p in prefixes) + 1)
        options: dict[str, Any] = {"suppress_tokens": list(suppress) if suppress else [-1]}
        guard = self.owner.tuning.no_repeat_ngram_size
        if guard and not any(prefixes):
            options["no_repeat_ngram_size"] = guard
        # one step past the cap: the distribution after the last token says whether the
        # text may end there
        answers = self._generate(prefixes, total + 1, **options)
        out = []
        for prefix, answer in zip(prefixes, answers, strict=True):
            length = len(prefix)
            tokens = [t for t in list(answer.sequences_ids[0])[length:total] if t != self.eot]
            rows = tuple(_log_softmax(row) for row in answer.logits[0][length:])
            out.append(Rollout(tuple(tokens), rows[:len(tokens) + 1]))
        return out

    def score(self, sentences: Sequence[tuple[int, ...]]) -> list[Scored]:
        longest = max(len(c) for c in sentences)
        answers = self._generate(sentences, longest + 1)
        return [Scored.of(tokens, (_log_softmax(row) for row in answer.logits[0]), self.eot)
                for tokens, answer in zip(sentences, answers, strict=True)]

    def text(self, tokens: Sequence[int]) -> str:
        return str(self.owner._tokenizer.decode([t for t in tokens if t < self.eot])).strip()


class _Speculation:
    """A decode started while the trailing silence is still being waited for. When the
    speaker goes on talking it is stale: :meth:`call_off` stops it at its next decoder call,
    so it neither holds the decoder while the next one waits to start nor makes
    :meth:`WhisperRecognizer.finish` wait for a whole search it will throw away."""

    def __init__(self, owner: WhisperRecognizer, audio: Samples, pause: Pause,
                 grammar: _Grammar) -> None:
        self.pause = pause
        """The pause it was started in (it covers the frames fed before its end)."""
        self.grammar = grammar
        self.transcript: Transcript | None = None
        self.error: BaseException | None = None
        self.cancel = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(owner, audio), daemon=True)
        self.thread.start()

    def _run(self, owner: WhisperRecognizer, audio: Samples) -> None:
        try:
            self.transcript = owner._recognize(audio, self.grammar, time.perf_counter(),
                                               self.cancel)
        except Cancelled:
            pass
        except BaseException as error:  # noqa: BLE001 - re-raised by the caller's decode
            self.error = error

    def call_off(self) -> None:
        """Stop before the next decoder call (its result will not be used)."""
        self.cancel.set()


class UtteranceDecode(Protocol):
    """What decodes one utterance: its audio, the compiled grammar, when the work started
    (``time.perf_counter()``) and an event that calls it off -> the transcript."""

    def __call__(self, audio: Samples, grammar: Any, started: float,
                 cancel: threading.Event | None = None) -> Transcript: ...


_NO_GRAMMAR = object()
"""The grammar that stands set in :meth:`WhisperRecognizer.without_model` with a decode."""


class WhisperRecognizer(StreamingRecognizer):
    """Whisper behind the :class:`~voice_host.speech.types.StreamingRecognizer` protocol
    (see the module docstring). Fed frames are kept; when the last few are a pause
    (:mod:`voice_host.speech.pause`: the player seems to have stopped), the frames so far
    are decoded in the background while the endpointer still waits for its trailing
    silence, and
    :meth:`finish` takes that result when nothing but quiet came after it (else it decodes
    everything fed)."""

    name = "whisper"

    def __init__(self, model_path: str | os.PathLike[str], *, language: str = "en",
                 model_name: str | None = None, threads: int | None = None,
                 tuning: WhisperTuning | None = None, warm: bool = True,
                 description: str | None = None, compute: str | None = None) -> None:
        ctranslate2, tokenizers, feature_extractor, tokenizer_class = _import_backend()
        path = Path(model_path)
        self.model_path = path
        self.model_name = model_name or path.name
        self.tuning = tuning or WhisperTuning()
        self.compute_type = compute or compute_type()
        """CTranslate2's compute type (int8, float32...)."""
        self.description = description or f"Speech recognition: Whisper ({self.model_name})."
        """The sentence saying which recognizer runs."""
        self._ct2 = ctranslate2
        cores = threads or self.tuning.threads_for(language)
        self._workers = self.tuning.workers_for(language)
        try:
            # a split model is read from its parts in place (no joined copy on disk)
            def load(intra: int, inter: int) -> Any:
                files = whisper_models.model_files(path)
                model = ctranslate2.models.Whisper(str(path), device="cpu",
                                                   compute_type=self.compute_type,
                                                   intra_threads=intra, inter_threads=inter,
                                                   files=files)
                if files is not None:
                    files["model.bin"].close()
                return model

            spread = min(cores * self._workers, os.cpu_count() or 1)
            if self.tuning.decoder_for(language) == "own" and own_decoder_installed():
                # CTranslate2 only encodes: one copy, on every core the workers would use
                cores, self._workers = spread, 1
            self._model = load(cores, self._workers)
            # the encoder, one call an utterance, shares its work well between threads
            # (tiny.en's 8-s window on this kind of machine: 105 ms on one, 60 on two):
            # with several workers of fewer threads, it gets its own copy on all of them
            self._encoder = self._model if spread <= cores else load(spread, 1)
            hf = tokenizers.Tokenizer.from_file(str(path / "tokenizer.json"))
            self._own = self._load_own(path, language, spread)
        except (RuntimeError, ValueError, OSError) as error:
            raise RecognizerUnavailable(
                f"The Whisper model at {path} could not be loaded ({error}).") from error
        multilingual = bool(self._model.is_multilingual)
        if not multilingual and language != "en":
            raise RecognizerUnavailable(
                f"The Whisper model {self.model_name} only knows English; for '{language}' use "
                "--whisper-model base (English and French).")
        self.language = language
        self._window = self.tuning.window_for(language)
        self._memory = self.tuning.memory_for(language)
        self._search = self.tuning.search_for(language)
        self._tokenizer = tokenizer_class(hf, multilingual, task="transcribe",
                                          language=language if multilingual else None)
        self._features = feature_extractor(feature_size=self._model.n_mels)
        self._eot = int(self._tokenizer.eot)
        self._start = [*self._tokenizer.sot_sequence, int(self._tokenizer.no_timestamps)]
        self._previous = int(self._tokenizer.sot_prev)
        self._texts = token_texts(hf.get_vocab(), self._eot)
        self._vocab = TokenTrie(self._texts, ascii_only=language == "en")
        self._grammars: OrderedDict[str, _Grammar] = OrderedDict()
        self._grammar: _Grammar | None = None
        self._frames: list[Samples] = []
        self._pauses = PauseTest(self.tuning.pause_settings())
        self._speculation: _Speculation | None = None
        self.speculated = 0
        """Utterances whose transcript came from a decode done during the trailing silence
        (for the benchmark's figures)."""
        self._lock = threading.Lock()
        self.last_calls = 0
        """Decoder calls made for the last utterance."""
        if warm:
            self.warm()

    @classmethod
    def without_model(cls, *, tuning: WhisperTuning | None = None, language: str = "en",
                      decode: UtteranceDecode | None = None,
                      vocabulary: Mapping[int, str] | None = None,
                      eot: int = 0) -> WhisperRecognizer:
        """A recognizer with no model behind it, for tests of what surrounds the model:
        ``decode(audio, grammar, started, cancel)`` decodes each utterance in the model's
        stead (a grammar then stands set, so :meth:`feed` speculates and :meth:`finish`
        decodes), and ``vocabulary`` (token id -> text; ``eot`` the end-of-text id) stands
        for the tokenizer's, so that :meth:`set_grammar` compiles grammars."""
        ears = cls.__new__(cls)
        ears.tuning = tuning or WhisperTuning()
        ears.language = language
        ears.model_name = "no model"
        ears.description = "Speech recognition: Whisper (no model)."
        ears.speculated = 0
        ears.last_calls = 0
        ears._window = ears.tuning.window_for(language)
        ears._grammars = OrderedDict()
        ears._grammar = None
        ears._lock = threading.Lock()
        if vocabulary is not None:
            ears._texts, ears._eot = dict(vocabulary), eot
            ears._vocab = TokenTrie(ears._texts, ascii_only=language == "en")
        if decode is not None:
            ears._recognize = decode  # type: ignore[method-assign]
            ears._grammar = cast(_Grammar, _NO_GRAMMAR)
        ears.start_utterance()
        return ears

    def _load_own(self, path: Path, language: str,
                  threads: int) -> tuple[DecoderModel, list[int]] | None:
        """Our own decoder's weights and the model's suppressed tokens, when the language
        asks for it (None: CTranslate2 decodes). A model this decoder cannot read is decoded
        by CTranslate2, and ``description`` says so."""
        if self.tuning.decoder_for(language) != "own":
            return None
        if not own_decoder_installed():
            self.description += " (its own decoder needs onnx and onnxruntime: " \
                f"{extra_install('speech')})"
            return None
        files = whisper_models.model_files(path)
        try:
            stream = files["model.bin"] if files is not None else open(path / "model.bin", "rb")
            with stream:
                # float32 recognition (VOICE_HOST_WHISPER_COMPUTE) projects in float32 too
                model = DecoderModel.load(stream, threads,
                                          precise=self.compute_type == "float32")
            config = json.loads((path / "config.json").read_text(encoding="utf-8")) \
                if files is None else json.loads(files["config.json"])
        except (DecoderUnavailable, OSError, KeyError, ValueError) as error:
            self.description += f" (its own decoder is not available: {error})"
            return None
        return model, [int(t) for t in config.get("suppress_ids", [])]

    def _decoder(self, encoded: np.ndarray, prompt: list[int],
                 cancel: threading.Event | None,
                 memory: dict[str, Any] | None = None) -> _Encoded | OwnDecoder:
        """The search's decoder for one encoded utterance and prompt (``memory``: our own
        decoder's cross memory of the same audio, when computed already)."""
        if self._own is None:
            return _Encoded(self, encoded, prompt, cancel)
        model, suppressed = self._own
        return OwnDecoder(model, encoded, prompt, self._eot, suppressed,
                          self._tokenizer.decode, guard=self.tuning.no_repeat_ngram_size,
                          cancel=cancel, memory=memory)

    # -- grammars -----------------------------------------------------------------------

    def set_grammar(self, grammar: RecognitionGrammar) -> None:
        """Switch to this phase's grammar (compiled once, a few kept)."""
        spellings = sorted(grammar.spellings.items())
        key = (f"{grammar.name}\0{grammar.open_jsgf or grammar.jsgf}\0{spellings}"
               f"\0{grammar.prompt}\0{grammar.lead_words}")
        compiled = self._grammars.get(key)
        if compiled is None:
            try:
                compiled = _Grammar(grammar, self._texts, self._eot)
            except ValueError as error:
                raise RecognizerUnavailable(
                    f"The speech grammar for {grammar.name} could not be loaded ({error}).")\
                    from error
            # the tokens that may start a sentence, found now (before the player talks)
            # rather than during the first utterance's search: a walk over the whole
            # vocabulary, up to a tenth of a second for an open slot. Not the walks into an
            # open slot from inside the grammar: the clue phase's (slots after many different
            # words) took a second more here, for about 80 ms of its first utterance; the
            # search keeps them (TokenConstraint._below)
            for item in compiled.searches:
                item.constraint.allowed_arrays(item.constraint.start, self._vocab)
            self._grammars[key] = compiled
            while len(self._grammars) > 8:
                self._grammars.popitem(last=False)
        self._grammars.move_to_end(key)
        self._grammar = compiled

    def warm(self) -> None:
        """Run the model once on silence so the first command is not slow."""
        quiet = np.zeros(SAMPLE_RATE, dtype=np.int16)
        self._decode(quiet, None)

    def prompt_tokens(self, prompt: str) -> list[int]:
        """The decoder's start: the previous-text prompt (when on and given), then Whisper's
        start-of-transcript sequence."""
        if not (self.tuning.prompt and prompt.strip()):
            return list(self._start)
        words = list(self._tokenizer.encode(" " + prompt.strip()))[-self.tuning.prompt_tokens:]
        return [self._previous, *words, *self._start]

    # -- streaming ------------------------------------------------------------------------

    def start_utterance(self) -> None:
        self._frames, self._pauses = [], PauseTest(self.tuning.pause_settings())
        self._speculation = None
        self._called_off = 0
        self._room: list[Samples] = []
        """The frames fed as the room before the speech (the endpointer's pre-roll)."""
        self._speech_end: int | None = None
        """Frames fed up to the last one the endpointer called speech (None: no verdicts)."""

    def feed(self, samples: Samples) -> None:
        frame = np.asarray(samples, dtype=np.int16)
        self._frames.append(frame)
        self._pauses.add(frame)
        if not self.tuning.speculate or self._grammar is None or self._speech_end is not None:
            return
        if self._speculation is not None and self._pauses.holds(self._speculation.pause):
            return  # the decode running (or done) still stands
        if self._speculation is not None and self._speculation.thread.is_alive():
            self._speculation.call_off()  # stale: one at a time, and it stops soon
            self._called_off += 1
            return
        pause = self._pauses.pause()
        if pause is not None:
            audio = np.concatenate(self._frames)
            self._speculation = _Speculation(self, audio, pause, self._grammar)

    def feed_heard(self, samples: Samples, quiet: int) -> None:
        """:meth:`feed` with the endpointer's verdict: the last ``quiet`` frames fed, this
        one included, held no speech (0: this one is speech). The pause test is then the
        endpointer's own (see ``WhisperTuning.heard_frames``)."""
        if self._speech_end is None:
            self._speech_end = len(self._frames)
        frame = np.asarray(samples, dtype=np.int16)
        self._frames.append(frame)
        if quiet < 0:
            self._room.append(frame)
        if quiet <= 0:
            self._speech_end = len(self._frames)
        if not self.tuning.speculate or self._grammar is None:
            return
        end = self._decoded_end()
        running = self._speculation
        if running is not None and running.pause.frames == end:
            return  # it decodes the audio the end will decode
        if running is not None and running.thread.is_alive():
            running.call_off()  # the speaker went on; it stops at its next decoder call
            self._called_off += 1
        self._speculation = None
        wait = self.tuning.speculate_wait_for(self.language)
        if quiet == self.tuning.heard_frames + wait:
            # end: the speech and heard_frames after it, whatever the wait
            # the decoder's lock keeps the called-off decode and this one apart
            self._speculation = _Speculation(self, self._heard_audio(end),
                                             Pause(end, math.inf, smoothed=False),
                                             self._grammar)

    def _decoded_end(self) -> int:
        """How many of the frames fed the end decodes: with the endpointer's verdicts, its
        speech and ``heard_frames`` after it; else all of them."""
        if self._speech_end is None:
            return len(self._frames)
        return min(len(self._frames), self._speech_end + self.tuning.heard_frames)

    def _heard_audio(self, end: int) -> Samples:
        """The audio decoded for the first ``end`` frames fed: with the endpointer's
        verdicts, the room's own sound (the pre-roll, but its frames nearest the speech)
        stands in for the trailing silence not waited for (``heard_fill``)."""
        frames = self._frames[:end]
        room = self._room[:max(0, len(self._room) - ROOM_GAP_FRAMES)]
        if room and self.tuning.heard_fill > 0:  # a room is fed only with verdicts
            frames = [*frames, *(room[i % len(room)] for i in range(self.tuning.heard_fill))]
        return np.concatenate(frames) if frames else np.zeros(0, np.int16)

    def _stands(self, speculation: _Speculation) -> bool:
        """The decode started during the trailing silence is the one the end needs."""
        if speculation.grammar is not self._grammar:
            return False
        if self._speech_end is not None:
            return speculation.pause.frames == self._decoded_end()
        return self._pauses.holds(speculation.pause)

    def finish(self) -> Transcript:
        started = time.perf_counter()
        speculation, self._speculation = self._speculation, None
        if speculation is not None and self._stands(speculation):
            speculation.thread.join()
            if speculation.error is not None:
                raise speculation.error
            assert speculation.transcript is not None
            self.speculated += 1
            audio_seconds = sum(len(f) for f in self._frames) / SAMPLE_RATE
            figures = {"speculated": 1, "called_off": self._called_off,
                       "ahead_frames": len(self._frames) - speculation.pause.frames}
            self.start_utterance()
            return replace(speculation.transcript, audio_seconds=audio_seconds,
                           decode_seconds=time.perf_counter() - started,
                           details={**speculation.transcript.details, **figures})
        if speculation is not None:
            speculation.call_off()
            speculation.thread.join()  # never two decodes at once
        audio = self._heard_audio(self._decoded_end())
        called_off = self._called_off + (speculation is not None)
        self.start_utterance()
        transcript = self.recognize(audio)
        return replace(transcript, details={**transcript.details, "called_off": called_off})

    # -- decoding -------------------------------------------------------------------------

    def recognize(self, audio: Samples) -> Transcript:
        """Decode one utterance; ``decode_seconds`` covers everything after the audio."""
        started = time.perf_counter()
        if self._grammar is None:
            raise RuntimeError("set_grammar() must be called before recognition.")
        return self._recognize(audio, self._grammar, started)

    def _recognize(self, audio: Samples, grammar: _Grammar, started: float,
                   cancel: threading.Event | None = None) -> Transcript:
        samples = np.asarray(audio, dtype=np.int16)
        seconds = len(samples) / SAMPLE_RATE
        if len(samples) < SAMPLE_RATE // 10:
            return Transcript("", (), 0.0, seconds, time.perf_counter() - started, self.name)
        asked = time.perf_counter()
        with self._lock:  # never two decodes at once: a called-off one ends its call first
            waited = time.perf_counter() - asked
            judgement = self._decode(samples, grammar, cancel)
            calls = self.last_calls
        assert judgement is not None
        if judgement.accepted and judgement.reading is not None:
            text, confidence, closed = judgement.reading.text, judgement.confidence, True
        else:
            # the grammar reading is not believed: the free transcript is what was heard,
            # for the host to read as it reads a typed line (or to ignore)
            text, closed = judgement.free_text, False
            confidence = judgement.free_certainty(self._search)
        return Transcript(
            text=text, words=(), confidence=confidence if text else 0.0,
            audio_seconds=seconds, decode_seconds=time.perf_counter() - started,
            backend=self.name, rejected=not judgement.accepted,
            closed_grammar=closed, alternatives=judgement.alternatives,
            details={**judgement.figures(), "calls": calls,
                     "waited_ms": round(1000 * waited)},
            judgement=judgement,
            tuning=self._search)

    def _encode(self, samples: Samples) -> Any:
        audio = samples.astype(np.float32) / 32768.0
        audio = audio[-int(MAX_SECONDS * SAMPLE_RATE):]
        pad = np.zeros(max(int(self.tuning.margin_seconds * SAMPLE_RATE),
                           int(self.window_for(len(audio)) * SAMPLE_RATE) - len(audio)),
                       dtype=np.float32)
        features = self._features(np.concatenate([audio, pad]))
        if features.shape[-1] % 2:
            features = features[..., :-1]
        view = self._ct2.StorageView.from_array(np.ascontiguousarray(features[None]))
        return self._encoder.encode(view, to_cpu=True)

    def encoded(self, samples: Samples) -> np.ndarray:
        """The encoder's output for an utterance, as the decoder attends to it: the whole
        window, or its first frames where the language keeps less (``memory_seconds``)."""
        encoded = np.asarray(self._encode(samples))
        if self._memory > 0:
            seconds = min(len(samples) / SAMPLE_RATE, MAX_SECONDS) + self._memory
            frames = int(math.ceil(seconds / ENCODER_FRAME_SECONDS))
            encoded = np.ascontiguousarray(encoded[:, :frames])
        return encoded

    def token_cap(self, samples: int) -> int:
        """The most tokens a decode of ``samples`` samples writes (its length cap)."""
        seconds = samples / SAMPLE_RATE
        return int(self.tuning.min_tokens + self.tuning.tokens_per_second * seconds)

    def window_for(self, samples: int) -> float:
        """The encoder's window (seconds) for an utterance of ``samples`` samples."""
        fit = self.tuning.fit_seconds
        if fit <= 0:
            return self._window
        seconds = samples / SAMPLE_RATE + fit
        return min(self._window, max(self.tuning.min_window_seconds, seconds))

    def _decode(self, samples: Samples, grammar: _Grammar | None,
                cancel: threading.Event | None = None) -> Judgement | None:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        encoded = self.encoded(samples)
        cap = self.token_cap(len(samples))
        decoder = self._decoder(encoded, self.prompt_tokens(grammar.prompt if grammar else ""),
                                cancel)
        if grammar is None:  # warming up (every worker)
            decoder.continue_prefixes([()] * self._workers, cap)
            return None
        judgement = judge(decoder, grammar.searches, self._vocab, cap=cap,
                          tuning=self._search, open_phase=grammar.open)
        reading = judgement.reading
        if reading is not None and sound_may_help(judgement, self._search):
            judgement = with_sound(judgement, sound_similarity(
                judgement.free_text, reading.text, self.language), self._search)
        calls = decoder.calls
        if len(decoder.prompt) > len(self._start) and self._search.prompt_lift < 50:
            unprompted = self._decoder(encoded, list(self._start), cancel,
                                       getattr(decoder, "memory", None))
            judgement = with_lift(unprompted, judgement, self._search)
            judgement = with_unprompted(unprompted, judgement, self._search, cap=cap)
            calls += unprompted.calls
        self.last_calls = calls
        return judgement


