"""Cutting a narration line into the pieces the narrator renders one after another.

A line is said piece by piece: the first piece is rendered and starts playing while the rest
render, so the line starts after the time it takes to render its first piece. Pieces are
sentences; a long sentence is cut at its commas; and a first sentence longer than the
engine's first-piece budget is cut early: at its first comma within the budget (past its
first word), else (for a slow engine) before a word that starts a phrase ("and", "that",
"for", "with" ...), the place a speaker may pause. That first piece then ends with a comma
for the voice, which gives it a continuing intonation; the text on the screen is not
changed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

PHRASE_STARTS: Mapping[str, tuple[frozenset[str], ...]] = {
    "en": (frozenset(
        "and but or nor so that which who whom whose when whenever while where if unless "
        "because since before after until though although whether".split()),
        frozenset("for with without from into onto at by on in about against during".split())),
    "fr": (frozenset(
        "et mais ou donc car ni que qui dont où quand lorsque si comme parce puisque "
        "tandis".split()),
        frozenset("avant après pendant pour avec sans dans chez sur sous vers par entre "
                  "contre".split())),
}
"""Per language, words before which a sentence may be cut (a phrase starts there): the
conjunctions first, then the prepositions, tried in that order."""

MIN_FIRST_CHARS = 7
"""A first piece has at least this many characters ("Ben," alone would leave the rest of
its sentence to be rendered while one word plays)."""

_SENTENCE_END = re.compile(r"(?<=[.!?…;:])\s+")
_CLAUSE_END = re.compile(r"[,;:](?=\s)")
_WORD_START = re.compile(r"(?<=\s)[^\W\d_][\w'’-]*")
_NAME_NEXT = re.compile(r"\s+[A-ZÀ-Þ]")


def first_cut(sentence: str, max_chars: int, *,
              phrase_starts: Sequence[frozenset[str]] = (),
              min_chars: int = MIN_FIRST_CHARS) -> tuple[str, str] | None:
    """``sentence`` cut into a first piece of at most ``max_chars`` characters and the rest,
    or None when it is short enough or has no place to cut.

    The cut is at the first comma, semicolon or colon that leaves a first piece of
    ``min_chars`` to ``max_chars`` characters; else before the last word of the first set of
    ``phrase_starts`` (case-blind) that does, then of the next set; the first piece then
    ends with a comma. A conjunction (the first set) before a capitalised word is passed
    over: "Ada and Ben" is a list of names, not two clauses."""
    if len(sentence) <= max_chars:
        return None
    clause = [m.end() for m in _CLAUSE_END.finditer(sentence, 0, max_chars + 1)
              if m.end() >= min_chars]
    if clause:
        return sentence[:clause[0]], sentence[clause[0]:].strip()
    for tier, words in enumerate(phrase_starts):
        starts = [m.start() for m in _WORD_START.finditer(sentence)
                  if m.group(0).casefold() in words
                  and min_chars <= len(sentence[:m.start()].rstrip()) < max_chars
                  and not (tier == 0 and _NAME_NEXT.match(sentence, m.end()))]
        if starts:
            head = sentence[:starts[-1]].rstrip()
            return head.rstrip(",;:") + ",", sentence[starts[-1]:].strip()
    return None


def split_sentences(text: str, *, max_chars: int = 160, first_max_chars: int | None = None,
                    phrase_starts: Sequence[frozenset[str]] = ()) -> list[str]:
    """Split narration into sentences (long ones also at commas) for pipelined speaking.

    ``first_max_chars``: a first sentence longer than this is cut early (:func:`first_cut`;
    at phrase starts only when ``phrase_starts`` is given), so a slow engine starts speaking
    after rendering a clause, not a sentence."""
    out: list[str] = []
    for sentence in _SENTENCE_END.split(text.strip()):
        sentence = sentence.strip()
        if first_max_chars is not None and not out and sentence:
            cut = first_cut(sentence, first_max_chars, phrase_starts=phrase_starts)
            if cut is not None:
                out.append(cut[0])
                sentence = cut[1]
        while len(sentence) > max_chars:
            cut_at = sentence.rfind(", ", 0, max_chars)
            if cut_at <= 0:
                break
            out.append(sentence[: cut_at + 1])
            sentence = sentence[cut_at + 2 :].strip()
        if sentence:
            out.append(sentence)
    return out
