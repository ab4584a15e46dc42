"""PocketSphinx recognizer: per-phase JSGF grammars with a garbage escape path.

The PyPI wheel ships a US-English acoustic model, a 134k-word dictionary and a trigram language
model, so this backend works everywhere with no download.

* Each phase's JSGF grammar is compiled once into a decoder search and switched by name.
* Words missing from the dictionary (player names above all) get generated pronunciations
  (:mod:`voice_host.speech.pronounce`) instead of making the grammar fail to load.
* Rejection: a closed grammar forces any chatter onto *some* command.  The grammar is therefore
  wrapped as ``<command> | <garbage>`` where ``<garbage>`` is a loop of common English words
  entered with a small prior weight.  Chatter fits the loop better than any command and comes
  out as garbage; the transcript is then empty and ``rejected`` is True.
* Open vocabulary (``jsgf is None``): the bundled trigram language model.
* Streaming: ``start_utterance() / feed() / finish()`` decode while audio arrives, so only the
  last chunk and the final search cost time after the end of the utterance.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from voice_host.speech.install import pip_install
from voice_host.speech.pronounce import pronounce
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
    f"PocketSphinx is not installed. Install it with: {pip_install('pocketsphinx>=5')}."
)

GARBAGE_PREFIX = "gbg_"
"""Dictionary prefix of the garbage-loop words; never part of a transcript."""

GARBAGE_WORDS = tuple(
    """a about after again all also am an and another any are as at away back be because been
    before but by can come could day did do does done down even every for from get give go going
    good got great had has have he her here him his how i if in is it just know let like look
    lot make man me more much must my need never new no not now of off oh okay on one only or
    other our out over people please put really right said see she should so some still take
    tell than thank that the their them then there they thing think this time to too two up us
    very want was way we well were what when where which who why will with would yeah yes you
    your""".split()
)
"""Common short English words: the loop that absorbs chatter."""

def default_garbage_weight(filler_count: int) -> float:
    """Prior weight of the garbage path against the command path.

    The more filler words the loop keeps (the fewer the grammar itself uses), the better it
    fits any speech, so the heavier its penalty.  A game phase keeps 60-80 fillers: 1e-3,
    calibrated with ``benchmarks/bench_recognition.py`` on its calibration split, trades a
    few commands for far less chatter acted on (a closed grammar with no escape acts on most
    of it).  A tiny grammar (~140 fillers, the tests') needs about 1e-34.
    """
    share = min(1.0, max(0.0, (filler_count - 100) / 40))
    return 10.0 ** -(3 + 31 * share)


_FRAME_SECONDS = 0.01
_RULE_HEAD = re.compile(r"^\s*(public\s+)?<([^>]+)>\s*=", re.MULTILINE)


def _import_pocketsphinx() -> Any:
    try:
        import pocketsphinx
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise RecognizerUnavailable(INSTALL_HINT) from error
    return pocketsphinx


def jsgf_words(jsgf: str) -> list[str]:
    """Every word token a JSGF document can produce (rule names, tags and weights removed)."""
    text = re.sub(r"/\*.*?\*/", " ", jsgf, flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", " ", text)
    words: list[str] = []
    for statement in text.split(";"):
        stripped = statement.strip()
        if not stripped or stripped.startswith(("#", "grammar ", "import ")):
            continue
        if "=" not in stripped:
            continue
        body = stripped.split("=", 1)[1]
        body = re.sub(r"<[^>]*>", " ", body)
        body = re.sub(r"\{[^}]*\}", " ", body)
        body = re.sub(r"/[^/]*/", " ", body)
        for token in re.split(r"[\s()\[\]|*+\"]+", body):
            if token:
                words.append(token)
    return list(dict.fromkeys(words))


def with_garbage_path(
    jsgf: str, *, weight: float | None = None, exclude: frozenset[str] = frozenset()
) -> str:
    """Wrap a JSGF document as ``<its public rules> | <a common-word loop>``.

    Every public rule becomes private; a new public top rule offers the original rules with
    weight 1 and the garbage loop with ``weight`` (by default from the loop's size).  Words
    of the grammar itself (``exclude``) are left out of the loop so that a short command
    ("yes") is not absorbed by it.
    """
    publics = [m.group(2) for m in _RULE_HEAD.finditer(jsgf) if m.group(1)]
    if not publics:
        raise ValueError("The grammar has no public rule.")
    body = _RULE_HEAD.sub(lambda m: f"<{m.group(2)}> =", jsgf).rstrip()
    commands = " | ".join(f"<{name}>" for name in publics)
    fillers = [w for w in GARBAGE_WORDS if w not in exclude] or ["hm"]
    if weight is None:
        weight = default_garbage_weight(len(fillers))
    loop = " | ".join(GARBAGE_PREFIX + w for w in fillers)
    return (
        f"{body}\n"
        f"public <vh_top> = /1/ ({commands}) | /{weight:g}/ <vh_garbage>;\n"
        f"<vh_garbage> = ({loop})+;\n"
    )


class PocketSphinxRecognizer(StreamingRecognizer):
    """The recognizer that needs nothing but its wheel (see the module docstring); it
    streams."""

    name = "pocketsphinx"

    def __init__(
        self,
        *,
        garbage_weight: float | None = None,
        reject: bool = True,
        model_dir: str | None = None,
        word_beam: float = 1e-38,
        garbage_excludes_grammar_words: bool = True,
        chunk_seconds: float = 0.1,
        max_searches: int = 2,
        description: str | None = None,
    ) -> None:
        self.description = description or \
            "Speech recognition: PocketSphinx (bundled US-English model)."
        """The sentence saying which recognizer runs (the factory says why it was chosen)."""
        ps = _import_pocketsphinx()
        base = model_dir or ps.get_model_path()
        hmm = os.path.join(base, "en-us", "en-us")
        self._dict_path = os.path.join(base, "en-us", "cmudict-en-us.dict")
        self._lm_path = os.path.join(base, "en-us", "en-us.lm.bin")
        for path in (hmm, self._dict_path):
            if not os.path.exists(path):
                raise RecognizerUnavailable(
                    "The PocketSphinx model files are missing. Reinstall pocketsphinx."
                )
        config = ps.Config(hmm=hmm, dict=self._dict_path, lm=None)
        config["loglevel"] = "FATAL"
        # The lattice best-path pass is very slow on looping grammars and is not needed.
        config["bestpath"] = False
        # A wider word-exit beam than the default (7e-29) keeps the garbage path alive;
        # 1e-38 rejects as much chatter as 1e-48, with less memory and time.
        config["wbeam"] = word_beam
        self._ps = ps
        self._decoder = ps.Decoder(config)
        self._garbage_weight = garbage_weight
        self._reject = reject
        self._exclude = garbage_excludes_grammar_words
        self._chunk = max(160, int(chunk_seconds * SAMPLE_RATE))
        self._searches: OrderedDict[str, str] = OrderedDict()  # search key -> grammar name
        self._max_searches = max(1, max_searches)
        self._grammar: RecognitionGrammar | None = None
        self._search: str | None = None
        self._in_utterance = False
        self._fed_samples = 0
        self.generated_pronunciations: dict[str, str] = {}
        """Words the dictionary lacked, with the pronunciation generated for each."""
        for word in GARBAGE_WORDS:
            phones = self._decoder.lookup_word(word)
            if phones:
                self._decoder.add_word(GARBAGE_PREFIX + word, phones, False)
        self._decoder.add_word(GARBAGE_PREFIX + "hm", "HH M", True)

    # -- grammars -----------------------------------------------------------------------

    def set_grammar(self, grammar: RecognitionGrammar) -> None:
        """Switch to this phase's grammar, compiling it the first time it is seen."""
        if self._in_utterance:
            self._decoder.end_utt()
            self._in_utterance = False
        key = self._search_key(grammar)
        if key not in self._searches:
            self._compile(grammar, key)
        self._searches[key] = grammar.name
        self._searches.move_to_end(key)
        self._decoder.activate_search(key)
        self._grammar = grammar
        self._search = key
        # Every compiled search holds 10-60 MB and a game keeps producing new grammars (the
        # board shrinks, players change), so only the most recently used ones are kept; a
        # grammar compiles in 20-50 ms, before the player speaks.  With 2 kept the
        # benchmark's worker peaks at 281 MB (4: 331 MB; unbounded: over 500 MB).
        while len(self._searches) > self._max_searches:
            old = next(iter(self._searches))
            del self._searches[old]
            self._decoder.remove_search(old)

    def _search_key(self, grammar: RecognitionGrammar) -> str:
        if grammar.jsgf is None:
            return "vh_lm"
        digest = hashlib.sha1(
            f"{grammar.name}\0{grammar.jsgf}\0{self._garbage_weight}\0{self._reject}"
            f"\0{self._exclude}".encode()
        ).hexdigest()[:12]
        return f"vh_{digest}"

    def _compile(self, grammar: RecognitionGrammar, key: str) -> None:
        words = set(grammar.words)
        if grammar.jsgf is not None:
            words.update(jsgf_words(grammar.jsgf))
        self.ensure_words(words, known=grammar.pronunciations)
        if grammar.jsgf is None:
            self._decoder.add_lm_file(key, self._lm_path)
            return
        document = grammar.jsgf
        if self._reject:
            document = with_garbage_path(
                document,
                weight=self._garbage_weight,
                exclude=frozenset(w.lower() for w in words) if self._exclude else frozenset(),
            )
        try:
            self._decoder.add_jsgf_string(key, document)
        except RuntimeError as error:
            raise RecognizerUnavailable(
                f"The speech grammar for {grammar.name} could not be loaded."
            ) from error

    def ensure_words(
        self, words: set[str], *, known: Mapping[str, str] | None = None
    ) -> list[str]:
        """Give every word a pronunciation; returns the words that had to be added."""
        missing = sorted(w for w in words if w and self._decoder.lookup_word(w) is None)
        if not missing:
            return []
        known = dict(known or {})
        known = {w: p for w, p in known.items() if p.split()}
        generated = pronounce([w for w in missing if w not in known])
        for index, word in enumerate(missing):
            phones = known.get(word) or generated[word]
            try:
                self._decoder.add_word(word, phones, index == len(missing) - 1)
            except RuntimeError:
                # A caller's pronunciation used an unknown phone: fall back to ours.
                phones = pronounce([word])[word]
                self._decoder.add_word(word, phones, index == len(missing) - 1)
            self.generated_pronunciations[word] = phones
        return missing

    # -- decoding -----------------------------------------------------------------------

    def start_utterance(self) -> None:
        """Begin a new utterance (streaming)."""
        if self._search is None:
            raise RuntimeError("set_grammar() must be called before recognition.")
        if self._in_utterance:
            self._decoder.end_utt()
        self._decoder.start_utt()
        self._in_utterance = True
        self._fed_samples = 0

    def feed(self, samples: Samples) -> None:
        """Decode more 16 kHz mono int16 audio of the current utterance."""
        if not self._in_utterance:
            self.start_utterance()
        data = np.ascontiguousarray(samples, dtype=np.int16)
        for start in range(0, len(data), self._chunk):
            self._decoder.process_raw(data[start : start + self._chunk].tobytes(), False, False)
        self._fed_samples += len(data)

    def finish(self) -> Transcript:
        """End the utterance; ``decode_seconds`` is the time spent here."""
        started = time.perf_counter()
        if not self._in_utterance:
            self.start_utterance()
        self._decoder.end_utt()
        self._in_utterance = False
        transcript = self._transcript(started)
        return transcript

    def recognize(self, audio: Samples) -> Transcript:
        """Decode one whole utterance; ``decode_seconds`` covers all of the decoding."""
        started = time.perf_counter()
        self.start_utterance()
        self.feed(audio)
        self._decoder.end_utt()
        self._in_utterance = False
        return self._transcript(started)

    def _transcript(self, started: float) -> Transcript:
        audio_seconds = self._fed_samples / SAMPLE_RATE
        hyp = self._decoder.hyp()
        segments = list(self._decoder.seg() or []) if hyp is not None else []
        words: list[WordInfo] = []
        garbage = 0
        for seg in segments:
            word = seg.word
            if word.startswith(GARBAGE_PREFIX):
                garbage += 1
                continue
            if word.startswith(("<", "[", "+")) or word.lower() == "(null)":
                continue
            words.append(
                WordInfo(
                    word=re.sub(r"\(\d+\)$", "", word).lower(),
                    start=seg.start_frame * _FRAME_SECONDS,
                    end=(seg.end_frame + 1) * _FRAME_SECONDS,
                    confidence=_unit(seg.prob),
                )
            )
        rejected = garbage > 0
        if rejected:
            words = []
        text = " ".join(w.word for w in words)
        # Without the lattice pass the hypothesis posterior is not computed; the words'
        # own posteriors are, and the least sure word bounds the whole sentence.
        confidence = min((w.confidence for w in words), default=0.0)
        return Transcript(
            text=text,
            words=tuple(words),
            confidence=confidence,
            audio_seconds=audio_seconds,
            decode_seconds=time.perf_counter() - started,
            backend=self.name,
            rejected=rejected,
            closed_grammar=self._grammar is not None and self._grammar.jsgf is not None,
        )


def _unit(value: float) -> float:
    """Clamp a probability the decoder reports into 0..1 (NaN -> 0)."""
    if value is None or math.isnan(value):
        return 0.0
    return min(1.0, max(0.0, float(value)))
