"""Whisper recognizer (CTranslate2): decoding searched inside the phase's grammar, with
rejection from the same audio.

Library choice: ``ctranslate2`` runs the model; from ``faster-whisper`` only the log-mel
feature extractor and the tokenizer wrapper are used (and its downloader for hub models).
faster-whisper's own ``transcribe`` always works on 30-second windows and exposes no way to
constrain the next token, while the search here needs ``Whisper.encode`` once per utterance
and ``Whisper.generate`` with forced prefixes and the full next-token distributions
(``return_logits_vocab``).

One utterance:

1. **Encode** the utterance in a short window (8 s of audio and silence, not Whisper's
   30 s: about a sixth of the encoder's cost, and as accurate on short commands; a window
   cut to the utterance itself makes Whisper mishear and loop).
2. **Free decode** (greedy, length capped by the audio's duration): what Whisper hears
   with no grammar.  Its per-step distributions are kept.
3. **Grammar search**: best-first over token prefixes that stay inside the phase's grammar
   (:class:`~voice_host.speech.grammar_search.TokenConstraint`), starting from the free
   decode, whose steps are walked through the grammar with their exact scores; a finished
   sentence is recorded wherever the grammar may end (end-of-text included in its score),
   and the best in-grammar tokens Whisper did not choose are queued as new prefixes.  The
   queue is ordered by how much log-probability a prefix has given up against Whisper's own
   choices so far (not by its total, which would favour short prefixes), and each round
   continues a few prefixes in one batched ``generate`` call, restricted to the tokens that
   occur in the phase's sentences so they stay near the grammar; what those rollouts find is
   scored again, exactly, in one call.  The search stops when Whisper's own words already
   are a sure sentence, when nothing queued is close enough, or after a fixed number of
   rounds (the result does not depend on the machine's speed).
4. **Rejection**: the best sentence is compared with what Whisper would have written at the
   same steps (the mean, over its tokens and end-of-text, of the log-probability given up to
   stay in the grammar).  Table talk has to be forced far from what was said and scores low;
   the threshold was calibrated on the recognition benchmark's calibration split.  A second
   sentence with another reading within a small margin is returned as an alternative, so the
   host can ask "Did you mean X, or Y?".

A phase with an open slot (the Codenames clue) is searched with the slot open (any word
Whisper writes), and when that fails, the free decode is returned for the matcher to judge.
"""

from __future__ import annotations

import heapq
import itertools
import math
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rapidfuzz import fuzz

from voice_host.speech import whisper_models
from voice_host.speech.grammar_search import (
    TokenConstraint,
    TokenTrie,
    WordGraph,
    fold_text,
    phase_tokens,
)
from voice_host.speech.types import (
    SAMPLE_RATE,
    BufferedStreaming,
    RecognitionGrammar,
    RecognizerUnavailable,
    Samples,
    Transcript,
)

INSTALL_HINT = ("The Whisper recognizer needs ctranslate2 and faster-whisper. Install them with: "
                "pip install 'voice-host[speech]', or use --asr pocketsphinx.")

MAX_SECONDS = 29.0
"""The encoder takes fewer than 3000 frames; a longer utterance keeps its last 29 s."""


@dataclass(frozen=True)
class WhisperTuning:
    """The search's and the rejection's settings."""

    accept_margin: float = -0.85
    """Accept the best grammar sentence when its mean per-step margin (log-probability given
    up against Whisper's own choice at each step, end-of-text included) is at least this...
    Calibrated with ``voice-host bench --quick --split calib --calibrate``: of the rules
    tried (margin alone, margin and similarity), "margin >= -0.2, or margin >= -0.85 with
    similarity >= 0.5" understood the most commands (76% clean) while acting on at most 1%
    of the table talk."""
    sure_alone: float = -0.2
    """A margin at least this good is accepted whatever the similarity."""
    min_similarity: float = 0.5
    """... and when it reads like what Whisper wrote freely (rapidfuzz ratio of the two
    texts, 0..1): table talk forced onto a short command ("pass me the chips" -> "pass")
    shares little with its own transcript."""
    sure_margin: float = -0.15
    """At or above this margin the confidence is 1 (between the two it rises from 0.6)."""
    alternative_window: float = 0.7
    """A second reading whose total score is within this many nats is an alternative."""
    branches_per_step: int = 6
    """In-grammar tokens queued where Whisper's own next token leaves the grammar."""
    rivals_per_step: int = 2
    """In-grammar rivals queued where Whisper's own token stays in the grammar (only those
    within ``alternative_window`` of it)."""
    rival_window: float = 4.0
    """A rival of Whisper's own in-grammar token is queued when at most this many nats
    below it (the queue is best-first, so far rivals are tried only when near ones fail)."""
    hopeless_step: float = -12.0
    """A token this far below Whisper's choice at its step is never tried."""
    rounds: int = 2
    """Rounds of batched rollouts after the free decode (one ``generate`` call each); each
    decoder step costs about as much as a whole short batch, so few rounds, wide batches."""
    batch: int = 6
    """Prefixes continued per round."""
    rollout_tokens: int = 6
    """Tokens a later rollout writes at least past its prefix."""
    queue_limit: int = 48
    """Queued prefixes kept (the best ones)."""
    rescored: int = 4
    """Sentences found that are scored exactly at the end (the best and its rivals)."""
    margin_seconds: float = 0.5
    """Silence added after the utterance before encoding, at least."""
    window_seconds: float = 8.0
    """The encoder's window: the utterance and silence up to this length. Whisper learned
    on 30-second windows; on a window cut to the utterance it hears far worse and loops
    (benchmark utterances, greedy: 6 of 60 written exactly with 1 s of margin, 27 of 60
    with an 8-s window, 27 with the full 30 s), while 8 s costs about a sixth of 30 s."""
    tokens_per_second: float = 4.5
    """Length cap of a rollout: this many tokens per second of audio, plus ``min_tokens``."""
    min_tokens: int = 6
    """Length cap of a rollout for the shortest utterance."""


@dataclass(order=True)
class _Prefix:
    sort_key: float
    order: int
    tokens: tuple[int, ...] = field(compare=False)
    score: float = field(compare=False)
    margin: float = field(compare=False)
    positions: Any = field(compare=False)
    exact: bool = field(compare=False, default=True)


@dataclass
class _Finished:
    tokens: tuple[int, ...]
    score: float
    """Sum of log-probabilities of the tokens and end-of-text."""
    margin: float
    """Sum over the same steps of (chosen log-probability - best log-probability)."""
    exact: bool = True
    """False when found by a restricted rollout (scores renormalized over the phase's
    tokens): it is scored again against the whole vocabulary."""

    @property
    def steps(self) -> int:
        return len(self.tokens) + 1


def _import_backend() -> tuple[Any, Any, Any, Any]:
    try:
        import ctranslate2
        import tokenizers
        from faster_whisper.feature_extractor import FeatureExtractor
        from faster_whisper.tokenizer import Tokenizer
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise RecognizerUnavailable(INSTALL_HINT) from error
    return ctranslate2, tokenizers, FeatureExtractor, Tokenizer


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
        self.searches: list[tuple[TokenConstraint, list[int] | None]] = []
        """(constraint, tokens its rollouts may not write -- every token that cannot occur
        in the grammar, or None when any can), in the order they are tried."""
        for document in documents:
            graph = WordGraph(document)
            keep = phase_tokens(graph, spellings, texts)
            suppress = None if keep is None else \
                [-1, *sorted(t for t in range(eot) if t not in keep)]
            self.searches.append((TokenConstraint(graph, spellings), suppress))


class WhisperRecognizer(BufferedStreaming):
    """Whisper behind the :class:`~voice_host.speech.types.StreamingRecognizer` protocol
    (see the module docstring): fed frames are kept and decoded when the utterance ends
    (:class:`~voice_host.speech.types.BufferedStreaming`)."""

    name = "whisper"

    def __init__(self, model_path: str | os.PathLike[str], *, language: str = "en",
                 model_name: str | None = None, threads: int | None = None,
                 tuning: WhisperTuning | None = None, warm: bool = True,
                 description: str | None = None) -> None:
        ctranslate2, tokenizers, feature_extractor, tokenizer_class = _import_backend()
        path = Path(model_path)
        self.model_path = path
        self.model_name = model_name or path.name
        self.tuning = tuning or WhisperTuning()
        self.description = description or f"Speech recognition: Whisper ({self.model_name})."
        """The sentence saying which recognizer runs."""
        self._ct2 = ctranslate2
        cores = threads or min(4, os.cpu_count() or 1)
        try:
            # a split model is read from its parts in place (no joined copy on disk)
            files = whisper_models.model_files(path)
            self._model = ctranslate2.models.Whisper(str(path), device="cpu",
                                                     compute_type="int8", intra_threads=cores,
                                                     files=files)
            if files is not None:
                files["model.bin"].close()
            hf = tokenizers.Tokenizer.from_file(str(path / "tokenizer.json"))
        except (RuntimeError, ValueError, OSError) as error:
            raise RecognizerUnavailable(
                f"The Whisper model at {path} could not be loaded ({error}).") from error
        multilingual = bool(self._model.is_multilingual)
        if not multilingual and language != "en":
            raise RecognizerUnavailable(
                f"The Whisper model {self.model_name} only knows English; for '{language}' use "
                "--whisper-model base (English and French).")
        self.language = language
        self._tokenizer = tokenizer_class(hf, multilingual, task="transcribe",
                                          language=language if multilingual else None)
        self._features = feature_extractor(feature_size=self._model.n_mels)
        self._eot = int(self._tokenizer.eot)
        self._prompt = [*self._tokenizer.sot_sequence, int(self._tokenizer.no_timestamps)]
        self._texts = token_texts(hf.get_vocab(), self._eot)
        self._vocab = TokenTrie(self._texts, ascii_only=language == "en")
        self._grammars: OrderedDict[str, _Grammar] = OrderedDict()
        self._grammar: _Grammar | None = None
        self._lock = threading.Lock()
        self._order = itertools.count()
        if warm:
            self.warm()

    # -- grammars -----------------------------------------------------------------------

    def set_grammar(self, grammar: RecognitionGrammar) -> None:
        """Switch to this phase's grammar (compiled once, a few kept)."""
        spellings = sorted(grammar.spellings.items())
        key = f"{grammar.name}\0{grammar.open_jsgf or grammar.jsgf}\0{spellings}"
        compiled = self._grammars.get(key)
        if compiled is None:
            try:
                compiled = _Grammar(grammar, self._texts, self._eot)
            except ValueError as error:
                raise RecognizerUnavailable(
                    f"The speech grammar for {grammar.name} could not be loaded ({error}).")\
                    from error
            self._grammars[key] = compiled
            while len(self._grammars) > 8:
                self._grammars.popitem(last=False)
        self._grammars.move_to_end(key)
        self._grammar = compiled

    def warm(self) -> None:
        """Run the model once on silence so the first command is not slow."""
        quiet = np.zeros(SAMPLE_RATE, dtype=np.int16)
        self._decode(quiet, None)

    # -- decoding -------------------------------------------------------------------------

    def recognize(self, audio: Samples) -> Transcript:
        """Decode one utterance; ``decode_seconds`` covers everything after the audio."""
        started = time.perf_counter()
        if self._grammar is None:
            raise RuntimeError("set_grammar() must be called before recognition.")
        samples = np.asarray(audio, dtype=np.int16)
        seconds = len(samples) / SAMPLE_RATE
        if len(samples) < SAMPLE_RATE // 10:
            return Transcript("", (), 0.0, seconds, time.perf_counter() - started, self.name)
        with self._lock:
            result = self._decode(samples, self._grammar)
        return Transcript(
            text=result["text"], words=(), confidence=result["confidence"],
            audio_seconds=seconds, decode_seconds=time.perf_counter() - started,
            backend=self.name, rejected=result["rejected"],
            closed_grammar=result["closed"], alternatives=tuple(result["alternatives"]),
            details=result["details"])

    def _encode(self, samples: Samples) -> Any:
        audio = samples.astype(np.float32) / 32768.0
        audio = audio[-int(MAX_SECONDS * SAMPLE_RATE):]
        pad = np.zeros(max(int(self.tuning.margin_seconds * SAMPLE_RATE),
                           int(self.tuning.window_seconds * SAMPLE_RATE) - len(audio)),
                       dtype=np.float32)
        features = self._features(np.concatenate([audio, pad]))
        if features.shape[-1] % 2:
            features = features[..., :-1]
        view = self._ct2.StorageView.from_array(np.ascontiguousarray(features[None]))
        return self._model.encode(view, to_cpu=True)

    def _rollouts(self, encoded: np.ndarray, prefixes: list[tuple[int, ...]],
                  cap: int, suppress: list[int] | None = None
                  ) -> list[tuple[list[int], list[Any]]]:
        """Continue each prefix greedily (one batched call, up to ``cap`` tokens in all); per
        prefix, the new tokens and the log-probabilities of every step after the prefix (one
        more than the tokens when it ended)."""
        total = max(cap, max(len(p) for p in prefixes) + 1)
        batch = self._ct2.StorageView.from_array(
            np.ascontiguousarray(np.repeat(encoded, len(prefixes), axis=0)))
        # generate() counts max_length in half-steps of the prompt it continues
        answers = self._model.generate(
            batch, [self._prompt + list(p) for p in prefixes], beam_size=1,
            max_length=2 * total + 1, return_logits_vocab=True, suppress_blank=False,
            suppress_tokens=suppress if suppress is not None else [-1])
        out: list[tuple[list[int], list[Any]]] = []
        for prefix, answer in zip(prefixes, answers, strict=True):
            length = len(prefix)
            out.append((list(answer.sequences_ids[0])[length:total],
                        [_log_softmax(row) for row in answer.logits[0][length:]]))
        return out

    def _decode(self, samples: Samples, grammar: _Grammar | None) -> dict[str, Any]:
        tuning = self.tuning
        encoded = np.asarray(self._encode(samples))
        seconds = len(samples) / SAMPLE_RATE
        cap = int(tuning.min_tokens + tuning.tokens_per_second * seconds)
        details: dict[str, float | str] = {}
        # the free decode first: what Whisper hears, with exact scores
        (ids, rows), = self._rollouts(encoded, [()], cap)
        free_text = self._tokenizer.decode([t for t in ids if t < self._eot]).strip()
        if grammar is None or not grammar.searches:
            # warming up, or open vocabulary: the free decode is the answer
            text = without_loops(_plain(free_text))
            return {"text": text, "confidence": 0.7 if text else 0.0, "rejected": False,
                    "closed": False, "alternatives": [], "details": details}
        details["free_text"] = free_text
        free = _free_score(ids, rows, self._eot)
        reason = "no grammar sentence"
        for constraint, suppress in grammar.searches:
            finished = self._search(encoded, constraint, suppress, cap, ids, rows)
            if not finished:
                continue
            answer = self._judge(encoded, finished, free_text, free, details)
            if answer is not None:
                return answer
            reason = str(details.get("rejected_because", reason))
        return self._fallback(grammar, free_text, details, reason=reason)

    def _judge(self, encoded: np.ndarray, finished: list[_Finished], free_text: str,
               free: tuple[float, int], details: dict[str, float | str]
               ) -> dict[str, Any] | None:
        """The best sentence found, scored exactly, when it passes the rejection test (else
        None, with the reason in ``details``)."""
        tuning = self.tuning
        # the search ranked sentences by the restricted decoder's scores; score the best few
        # exactly, against Whisper's whole vocabulary, in one batched call
        unique: dict[tuple[int, ...], _Finished] = {}
        for item in sorted(finished, key=lambda f: f.score, reverse=True):
            if item.tokens not in unique or (item.exact and not unique[item.tokens].exact):
                unique[item.tokens] = item
        ranked = sorted(unique.values(), key=lambda f: f.score, reverse=True)
        exact = [f for f in ranked if f.exact][:tuning.rescored]
        inexact = [f for f in ranked if not f.exact][:tuning.rescored]
        scored = exact + (self._exact(encoded, [f.tokens for f in inexact]) if inexact else [])
        # ranked by the mean per-step margin, as they are judged: by their total score a
        # sentence cut short ("I choose Thomas" + end) beats the whole one with one misheard
        # name, since ending early costs Whisper little
        scored.sort(key=lambda f: f.margin / f.steps, reverse=True)
        best = scored[0]
        mean_margin = best.margin / best.steps
        text = _plain(self._tokenizer.decode(list(best.tokens)))
        free_total, free_steps = free
        similarity = fuzz.ratio(_plain(free_text), text) / 100
        details.update(margin=round(mean_margin, 4), score=round(best.score / best.steps, 4),
                       heard=text, similarity=round(similarity, 3),
                       ratio=round((best.score - free_total) / best.steps, 4),
                       free_score=round(free_total / free_steps, 4), steps=best.steps)
        if mean_margin < tuning.accept_margin:
            details["rejected_because"] = "low margin"
            return None
        if similarity < tuning.min_similarity and mean_margin < tuning.sure_alone:
            details["rejected_because"] = "unlike the transcript"
            return None
        details.pop("rejected_because", None)
        alternatives: list[str] = []
        for other in scored[1:]:
            if best.margin - other.margin > tuning.alternative_window:
                break
            alt = _plain(self._tokenizer.decode(list(other.tokens)))
            if alt != text and alt not in alternatives:
                alternatives.append(alt)
        span = max(1e-6, tuning.sure_margin - tuning.accept_margin)
        confidence = 0.6 + 0.4 * min(1.0, (mean_margin - tuning.accept_margin) / span)
        return {"text": text, "confidence": round(confidence, 4), "rejected": False,
                "closed": True, "alternatives": alternatives[:2], "details": details}

    def _exact(self, encoded: np.ndarray, candidates: list[tuple[int, ...]]
               ) -> list[_Finished]:
        """Each candidate's exact score and margin (its tokens and end-of-text) under the
        unrestricted model, in one batched call with the candidates as forced prefixes."""
        longest = max(len(c) for c in candidates)
        batch = self._ct2.StorageView.from_array(
            np.ascontiguousarray(np.repeat(encoded, len(candidates), axis=0)))
        answers = self._model.generate(
            batch, [self._prompt + list(c) for c in candidates], beam_size=1,
            max_length=2 * (longest + 1) + 1, return_logits_vocab=True, suppress_blank=False)
        out = []
        for tokens, answer in zip(candidates, answers, strict=True):
            score = margin = 0.0
            rows = list(answer.logits[0])
            for token, row in zip([*tokens, self._eot], rows, strict=False):
                logp = _log_softmax(row)
                value = float(logp[token])
                score += value
                margin += value - float(logp.max())
            out.append(_Finished(tokens, score, margin))
        return out

    def _fallback(self, grammar: _Grammar, free_text: str | None,
                  details: dict[str, float | str], *, reason: str) -> dict[str, Any]:
        details["rejected_because"] = reason
        if grammar.open and free_text:
            # an open phase: a word nobody listed, or a clue said the wrong way -- the
            # matcher judges the free transcript (and says why a clue is refused)
            return {"text": without_loops(_plain(free_text)), "confidence": 0.6,
                    "rejected": False, "closed": False, "alternatives": [], "details": details}
        return {"text": "", "confidence": 0.0, "rejected": True,
                "closed": False, "alternatives": [], "details": details}

    def _search(self, encoded: np.ndarray, constraint: TokenConstraint,
                suppress: list[int] | None, cap: int, free_ids: list[int],
                free_rows: list[Any]) -> list[_Finished]:
        """Best-first search over in-grammar token prefixes, from the free decode (see the
        module docstring); the sentences found."""
        tuning = self.tuning
        queue: list[_Prefix] = []
        finished: list[_Finished] = []
        best = -math.inf

        def walk(prefix: tuple[int, ...], score: float, margin: float, positions: Any,
                 ids: list[int], rows: list[Any], exact: bool) -> None:
            nonlocal best
            tokens = list(prefix)
            for step, logp in enumerate(rows):
                if len(tokens) >= cap:
                    break
                whole = float(logp.max())
                if constraint.can_end(positions):
                    end = float(logp[self._eot])
                    done = _Finished(tuple(tokens), score + end, margin + end - whole, exact)
                    finished.append(done)
                    best = max(best, done.margin)
                allowed = constraint.allowed_arrays(positions, self._vocab)
                if not len(allowed.ids):
                    break
                chosen = ids[step] if step < len(ids) else None
                chosen_at = np.flatnonzero(allowed.ids == chosen) if chosen is not None \
                    else np.zeros(0, dtype=np.int64)
                on_path = len(chosen_at) > 0
                values = logp[allowed.ids]
                # where Whisper's own token stays in the grammar, only near rivals are worth
                # a rollout (they could be the alternative reading); where it leaves, the
                # best in-grammar tokens are -- one per way of writing the same letters
                wanted = tuning.rivals_per_step if on_path else tuning.branches_per_step
                floor = (float(logp[chosen]) - tuning.rival_window if on_path
                         else float(values.max()) + tuning.hopeless_step)
                taken = {int(allowed.groups[chosen_at[0]])} if on_path else set()
                order = np.argsort(-values)[:8 * wanted + 8]
                picked = 0
                for pick in order:
                    value = float(values[pick])
                    if picked >= wanted or not math.isfinite(value) or value < floor:
                        break
                    group = int(allowed.groups[pick])
                    if group in taken:
                        continue
                    taken.add(group)
                    picked += 1
                    queued = margin + value - whole
                    if queued <= best - tuning.alternative_window:
                        continue
                    heapq.heappush(queue, _Prefix(-queued, next(self._order),
                                                  (*tokens, int(allowed.ids[pick])),
                                                  score + value, queued,
                                                  allowed.after[group], exact))
                if not on_path:
                    break
                assert chosen is not None
                score += float(logp[chosen])
                margin += float(logp[chosen]) - whole
                positions = allowed.after[int(allowed.groups[chosen_at[0]])]
                tokens.append(chosen)
            else:
                # the rollout stopped short while still inside the grammar: go on from there
                if len(tokens) > len(prefix) and len(tokens) < cap and len(rows) == len(ids):
                    heapq.heappush(queue, _Prefix(-margin, next(self._order), tuple(tokens),
                                                  score, margin, positions, exact))
            if len(queue) > tuning.queue_limit:
                queue[:] = heapq.nsmallest(tuning.queue_limit, queue)
                heapq.heapify(queue)

        # the free decode has exact scores, and is often already a sentence of the grammar
        walk((), 0.0, 0.0, constraint.start, free_ids, free_rows, True)
        for _ in range(tuning.rounds):
            if any(f.exact and f.margin / f.steps >= tuning.sure_margin for f in finished):
                break  # Whisper's own words are a sentence of the grammar: nothing to search
            batch: list[_Prefix] = []
            while queue and len(batch) < tuning.batch:
                item = heapq.heappop(queue)
                if item.margin <= best - tuning.alternative_window:
                    queue.clear()
                    break
                batch.append(item)
            if not batch:
                break
            # later rollouts may only write the phase's tokens, so they stay near the
            # grammar; their scores are renormalized, so what they find is scored again
            # a rollout writes a few tokens; one still inside the grammar goes on next round
            longest = max(len(p.tokens) for p in batch)
            limit = min(cap, longest + tuning.rollout_tokens)
            rollouts = self._rollouts(encoded, [p.tokens for p in batch], limit, suppress)
            for item, (ids, rows) in zip(batch, rollouts, strict=True):
                walk(item.tokens, item.score, item.margin, item.positions, ids, rows,
                     item.exact and suppress is None)
        return finished


def _free_score(ids: list[int], rows: list[Any], eot: int) -> tuple[float, int]:
    """Sum of log-probabilities of the free decode (with its end-of-text when it ended) and
    its number of steps."""
    total = sum(float(logp[ids[step] if step < len(ids) else eot])
                for step, logp in enumerate(rows))
    return total, max(1, len(rows))


def _plain(text: str) -> str:
    """Decoder text as the matcher's input: lowercase words, punctuation dropped."""
    folded = []
    for char in text.lower():
        folded.append(char if (char.isalnum() or char in "'’") else " ")
    return " ".join("".join(folded).split())


def without_loops(text: str) -> str:
    """A free transcript with Whisper's loops cut: a word or phrase said again and again in
    a row ("for the full full full full") is kept once."""
    words = text.split()
    out: list[str] = []
    for word in words:
        out.append(word)
        for size in range(1, 5):  # a repeated phrase of up to four words
            if len(out) >= 2 * size and out[-size:] == out[-2 * size:-size]:
                del out[-size:]
                break
    return " ".join(out)
