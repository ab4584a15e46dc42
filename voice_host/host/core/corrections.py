"""Corrections right after a move: "undo", "wait, undo that", "no, that's wrong", "non,
annule", "stop" -- said in any phase, for a few seconds after a move (or as the first line
after it), they take the move back (with the usual "Undo the last move: ...?").

Right after a move is when a wrong one is noticed, and when the recognizer, held to the
phase's sentences, hears a correction worst ("undo" written "ben do", "non, annule" written
"non à n'y là"). So in that window a line that is exactly one of the language's correction
sentences (``corrections`` in ``grammars/<lang>/common.toml``) is a correction, whatever
else it reads as ("stop" then means "stop, that's wrong", not "stop the game"; "no, that's
wrong" is no vote), and a short line the host could not read at all is one when it is
spelled nearly like one (:data:`LOOSE_SIMILARITY`)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from rapidfuzz import fuzz

from voice_host.host.core.understanding import Understood
from voice_host.host.core.values import Heard
from voice_host.intent.grammar import grammar_dir
from voice_host.text import tokenize

WINDOW_SECONDS = 8.0
"""How long after a move a correction is listened for first (the first line heard after
the move is in the window however long it took to come)."""
LOOSE_SIMILARITY = 0.65
"""A line the host could not read is a correction when its letters (spaces dropped) are at
least this alike (rapidfuzz ratio, 0..1) to a correction sentence's of about the same
length (:data:`LOOSE_LENGTH`): "bendo" and "undo" 0.67, "nonanyla" and "nonannule" 0.71,
while "nope" and "nostop" are 0.6, and "no" is not tried (too short)."""
LOOSE_LENGTH = 1.5
"""The longer of the two spellings compared is at most this many times the shorter ("ohno"
is not compared with "ohnoundo")."""
LOOSE_MIN_LETTERS = 4
"""A line shorter than this (in letters) is never taken loosely ("no", "yes")."""
LOOSE_MAX_WORDS = 5
"""A line longer than this (in words) is never taken loosely: it is talk, not a correction."""


@cache
def _phrases(folder: str, lang: str) -> tuple[str, ...]:
    common = Path(folder) / lang / "common.toml"
    if not common.is_file():
        common = Path(folder) / "en" / "common.toml"
    settings = tomllib.loads(common.read_text(encoding="utf-8")).get("settings", {})
    return tuple(dict.fromkeys(" ".join(tokenize(p)) for p in settings.get("corrections", ())
                               if tokenize(p)))


def correction_phrases(lang: str) -> tuple[str, ...]:
    """The language's correction sentences, as folded words (the ``corrections`` setting of
    ``grammars/<lang>/common.toml``, read once per grammar folder)."""
    return _phrases(str(grammar_dir()), lang)


def exactly(texts: Iterable[str], lang: str) -> bool:
    """Whether one of ``texts`` (the readings of one line) is a correction sentence."""
    phrases = set(correction_phrases(lang))
    return any(" ".join(tokenize(t)) in phrases for t in texts if t)


def loosely(texts: Iterable[str], lang: str) -> bool:
    """Whether one of ``texts`` is spelled nearly like a correction sentence (see
    :data:`LOOSE_SIMILARITY`)."""
    phrases = [p.replace(" ", "").replace("'", "") for p in correction_phrases(lang)]
    for text in texts:
        words = tokenize(text or "")
        letters = "".join(words).replace("'", "")
        if len(letters) < LOOSE_MIN_LETTERS or len(words) > LOOSE_MAX_WORDS:
            continue
        if any(max(len(p), len(letters)) <= LOOSE_LENGTH * min(len(p), len(letters))
               and fuzz.ratio(letters, p) / 100 >= LOOSE_SIMILARITY for p in phrases):
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
    """Whether a line heard right after a move is a correction: one of its readings (the
    transcript, the recognizer's free transcript) is a correction sentence, or it was not
    read as any command and is spelled nearly like one."""
    texts = [heard.text]
    if heard.judgement is not None:
        texts.append(heard.judgement.free_text)
    return exactly(texts, lang) or (understood.best is None and loosely(texts, lang))
