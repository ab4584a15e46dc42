"""Corrections right after a move: "undo", "wait, undo that", "no, that's wrong", "non,
annule", "stop" -- said in any phase, for a few seconds after a move (or as the first line
after it), they take the move back (with the usual "Undo the last move: ...?").

Right after a move is when a wrong one is noticed, and when the recognizer, held to the
phase's sentences, hears a correction worst ("undo" written "ben do", "wait, undo that"
written "wait on do that", "non, annule" written "non à n'y là"). So in that window a line
is a correction, whatever else it reads as ("stop" then means "stop, that's wrong", not
"stop the game"; "no, that's wrong" is no vote), when one of its readings (the transcript,
the recognizer's free transcript)

* is one of the language's correction sentences (``corrections`` in
  ``grammars/<lang>/common.toml``), perhaps with words that carry nothing around it
  ("okay, no, that's wrong": the grammar's ``discourse`` and ``interjections``);
* or is spelled nearly like one (:data:`LOOSE_SIMILARITY`) *and* holds that sentence's
  correction word (``correction_words``: "undo", "wrong", "stop" ...), written as such or as
  a few words that sound like it (:data:`WORD_SIMILARITY`: "on do", "ben do" for "undo").
  Talk spelled a little like a correction holds no such word ("we'll do that", "that's not
  fair at all", "no that's right", "wait for it"). A line that also reads as a move is
  taken loosely only when it holds the word itself: a sound alone does not outweigh a move;
  and a line that reads as a command of every phase ("stop the game") keeps its meaning."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rapidfuzz import fuzz

from voice_host.host.core.understanding import Understood
from voice_host.host.core.values import Heard
from voice_host.intent.grammar import grammar_dir
from voice_host.intent.phonetic import similarity
from voice_host.text import tokenize

WINDOW_SECONDS = 8.0
"""How long after a move a correction is listened for first (the first line heard after
the move is in the window however long it took to come)."""
LOOSE_SIMILARITY = 0.65
"""A line is spelled nearly like a correction sentence when its letters (spaces dropped) are
at least this alike (rapidfuzz ratio, 0..1) to the sentence's, of about the same length
(:data:`LOOSE_LENGTH`): "bendo" and "undo" 0.67, "nonanyla" and "nonannule" 0.71, while
"nope" and "nostop" are 0.6, and "no" is not tried (too short)."""
LOOSE_LENGTH = 1.5
"""The longer of the two spellings compared is at most this many times the shorter ("ohno"
is not compared with "ohnoundo")."""
LOOSE_MIN_LETTERS = 4
"""A line shorter than this (in letters) is never taken loosely ("no", "yes")."""
LOOSE_MAX_WORDS = 5
"""A line longer than this (in words) is never taken loosely: it is talk, not a correction."""
WORD_SIMILARITY = 0.6
"""A run of one to :data:`WORD_SPAN` words, of at least :data:`WORD_MIN_LETTERS` letters,
sounds like a correction word when :func:`voice_host.intent.phonetic.similarity` of its
letters (spaces dropped) and the word is at least this: "ondo" 0.69 and "bendo" 0.61 for
"undo", "anyla" 0.92 for "annule"; "welldo" ("we'll do") is 0.37, "into" 0.52."""
WORD_SPAN = 3
"""The most words that may stand for one correction word ("à n'y là" for "annule")."""
WORD_MIN_LETTERS = 3
"""A run shorter than this never stands for a correction word ("do" is not "undo")."""


@dataclass(frozen=True)
class _Language:
    phrases: tuple[str, ...]
    """The correction sentences, as folded words."""
    words: frozenset[str]
    """The words that make a line a correction."""
    empty: frozenset[str]
    """Words that carry nothing, allowed around a correction sentence."""


@cache
def _language(folder: str, lang: str) -> _Language:
    common = Path(folder) / lang / "common.toml"
    if not common.is_file():
        common = Path(folder) / "en" / "common.toml"
    settings = tomllib.loads(common.read_text(encoding="utf-8")).get("settings", {})
    phrases = tuple(dict.fromkeys(" ".join(tokenize(p)) for p in settings.get("corrections", ())
                                  if tokenize(p)))
    words = frozenset(w for p in settings.get("correction_words", ()) for w in tokenize(p))
    empty = frozenset(w for key in ("discourse", "interjections")
                      for p in settings.get(key, ()) for w in tokenize(p))
    return _Language(phrases, words, empty)


def _of(lang: str) -> _Language:
    return _language(str(grammar_dir()), lang)


def correction_phrases(lang: str) -> tuple[str, ...]:
    """The language's correction sentences, as folded words (the ``corrections`` setting of
    ``grammars/<lang>/common.toml``, read once per grammar folder)."""
    return _of(lang).phrases


def correction_words(lang: str) -> frozenset[str]:
    """The words that make a line a correction (the ``correction_words`` setting)."""
    return _of(lang).words


def exactly(texts: Iterable[str], lang: str) -> bool:
    """Whether one of ``texts`` (the readings of one line) is a correction sentence, perhaps
    with words that carry nothing before or after it ("okay, no, that's wrong")."""
    language = _of(lang)
    phrases = set(language.phrases)
    for text in texts:
        words = tokenize(text or "")
        start, end = 0, len(words)
        while start < end and words[start] in language.empty \
                and " ".join(words[start:end]) not in phrases:
            start += 1
        while end > start and words[end - 1] in language.empty \
                and " ".join(words[start:end]) not in phrases:
            end -= 1
        if start < end and " ".join(words[start:end]) in phrases:
            return True
    return False


def _letters(words: Sequence[str]) -> str:
    return "".join(words).replace("'", "")


def holds_word(words: Sequence[str], word: str) -> float:
    """How well ``words`` hold ``word``: 1 when one of them is it, else the best
    :func:`~voice_host.intent.phonetic.similarity` of a run of them long enough
    (:data:`WORD_SPAN`, :data:`WORD_MIN_LETTERS`), 0 when there is none."""
    if word in words:
        return 1.0
    best = 0.0
    for size in range(1, WORD_SPAN + 1):
        for start in range(len(words) - size + 1):
            letters = _letters(words[start:start + size])
            if len(letters) >= WORD_MIN_LETTERS:
                best = max(best, similarity(letters, word.replace("'", "")))
    return best


def loosely(texts: Iterable[str], lang: str, *, word_itself: bool = False) -> bool:
    """Whether one of ``texts`` is spelled nearly like a correction sentence
    (:data:`LOOSE_SIMILARITY`) and holds its correction word (:data:`WORD_SIMILARITY`; with
    ``word_itself``, the word as it is written)."""
    language = _of(lang)
    bar = 1.0 if word_itself else WORD_SIMILARITY
    for text in texts:
        words = tokenize(text or "")
        letters = _letters(words)
        if len(letters) < LOOSE_MIN_LETTERS or len(words) > LOOSE_MAX_WORDS:
            continue
        for phrase in language.phrases:
            spelled = _letters(phrase.split())
            if max(len(spelled), len(letters)) > LOOSE_LENGTH * min(len(spelled), len(letters)) \
                    or fuzz.ratio(letters, spelled) / 100 < LOOSE_SIMILARITY:
                continue
            if any(holds_word(words, w) >= bar for w in phrase.split() if w in language.words):
                return True
    return False


class RecentMove:
    """When the last move was made, and whether a line heard now is right after it."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.at: float | None = None
        self.lines = 0
        """Lines heard since the move."""

    def moved(self) -> None:
        self.at, self.lines = self.clock(), 0

    def close(self) -> None:
        """The move was taken back (or the window is over for another reason)."""
        self.at = None

    def heard(self) -> bool:
        """A line was heard: True when it is right after a move (the first line since, or
        within :data:`WINDOW_SECONDS`)."""
        if self.at is None:
            return False
        self.lines += 1
        return self.lines == 1 or self.clock() - self.at <= WINDOW_SECONDS


def is_correction(heard: Heard, understood: Understood, lang: str) -> bool:
    """Whether a line heard right after a move is a correction (see the module's rule): one
    of its readings (the transcript, the recognizer's free transcript) is a correction
    sentence, or is spelled nearly like one and holds its correction word -- sounding like
    it when the line reads as no command, as it is written when it reads as a move of the
    phase; a line read as a command of every phase ("stop the game", "go back to the
    score") keeps its meaning."""
    from voice_host.host.core.commands import UNIVERSAL

    texts = [heard.text]
    if heard.judgement is not None:
        texts.append(heard.judgement.free_text)
    if exactly(texts, lang):
        return True
    best = understood.best
    if best is not None and best.intent in UNIVERSAL:
        return False
    return loosely(texts, lang, word_itself=best is not None)
