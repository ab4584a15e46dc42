"""Folding, tokenizing and looking up text: the one shared leaf of voice_host.

Every layer compares what people say, type or send with words it knows ("Zoë" said as
"zoe", "cœur" typed as "coeur", "l’éléphant" written with a curly apostrophe). This module
is the only place that decides how: games, intent, speech and the host import it, and it
imports nothing of voice_host (``tests/test_layers.py`` checks both).

* :func:`fold`: lowercase (Unicode case folding), ligatures spelled out (œ -> oe, æ -> ae,
  ß -> ss), every apostrophe written ``'``, accents stripped (NFKD without combining marks).
* :func:`tokenize`: folded words made of ``[a-z0-9']``; anything else separates words, a
  French elision (l', d', j', qu', c', s', n', m', t') is its own token.
* :func:`fold_marked`: folded text character by character, separators as spaces and any
  other character replaced by a mark (for a character-level search such as the grammar
  search's trie).
* :func:`plain`: a transcript as lowercase words with punctuation dropped, accents kept.
* :func:`letters`: only the folded letters ("Ice-Cream" -> "icecream").
* :func:`spelled`: case-folded with the accents kept (NFC), for real word lists.
* :func:`lookup_key` and :func:`find`: the one lookup of a name or word among candidates,
  blind to case, accents and surrounding spaces.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import TypeVar

LIGATURES: dict[str, str] = {"œ": "oe", "æ": "ae", "ß": "ss"}
"""Letters spelled out by :func:`fold` (applied after case folding)."""
APOSTROPHES = "’‘ʼ`"
"""Characters written as ``'`` by :func:`fold` and :func:`plain`."""
ELISIONS: tuple[str, ...] = ("l'", "d'", "j'", "qu'", "c'", "s'", "n'", "m'", "t'")
"""French elided words, folded; :func:`tokenize` splits them off the word they run into."""
WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789'")
"""The characters of a folded token."""
SEPARATORS = frozenset(" \t\n.,!?;:-\"«»…()[]/")
"""Characters that only separate words (besides any whitespace) for :func:`fold_marked`."""

_QUOTES = str.maketrans(dict.fromkeys(APOSTROPHES, "'"))
_TABLE = str.maketrans({**LIGATURES, **dict.fromkeys(APOSTROPHES, "'")})
_SPLIT = re.compile(r"[^a-z0-9']+")
_ELISION = re.compile(r"^(?:" + "|".join(e[:-1] for e in ELISIONS) + r")'(?=[a-z])")
_ELISION_ALONE = re.compile(r"^(?:" + "|".join(e[:-1] for e in ELISIONS) + r")'$")

T = TypeVar("T", bound=str)


def fold(text: str) -> str:
    """``text`` case-folded, ligatures spelled out, apostrophes unified and accents stripped
    ("Écureuil" -> "ecureuil", "Cœur" -> "coeur", "L’ÎLE" -> "l'ile")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_TABLE))
    # case-folded again: a compatibility form may be a capital ("ℌ" -> "H")
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def tokenize(text: str) -> tuple[str, ...]:
    """The folded words of ``text``: ``[a-z0-9']`` runs, outer apostrophes dropped, a French
    elision split off ("l'éléphant" -> ``("l'", "elephant")``, "Qu’il" -> ``("qu'", "il")``);
    an elision standing alone stays one token."""
    out: list[str] = []
    for raw in _SPLIT.split(fold(text)):
        if _ELISION_ALONE.match(raw):
            out.append(raw)
            continue
        word = raw.strip("'")
        if not word:
            continue
        match = _ELISION.match(word)
        if match:
            out.append(match.group(0))
            word = word[match.end():]
        out.append(word)
    return tuple(out)


def fold_marked(text: str, mark: str) -> str:
    """:func:`fold` of ``text`` with every separator (whitespace, :data:`SEPARATORS`) as one
    space and every character that is neither a word character nor a separator as ``mark``;
    word characters are kept as they are, so the result can be walked character by
    character."""
    out: list[str] = []
    for c in fold(text):
        if c in WORD_CHARS:
            out.append(c)
        elif c in SEPARATORS or c.isspace():
            out.append(" ")
        else:
            out.append(mark)
    return "".join(out)


def plain(text: str) -> str:
    """A transcript as lowercase words: letters, digits and apostrophes (written ``'``)
    kept with their accents, everything else dropped ("Yes, I approve." -> "yes i
    approve")."""
    lowered = text.lower().translate(_QUOTES)
    return " ".join("".join(c if (c.isalnum() or c == "'") else " " for c in lowered).split())


def spelled(text: str) -> str:
    """``text`` case-folded with its accents kept, composed (NFC): the key of a word as it
    is spelled ("Été" -> "été"), for word lists that tell "pâte" from "pate"."""
    return unicodedata.normalize("NFC", text.casefold())


def letters(text: str) -> str:
    """Only the folded letters of ``text`` (spaces, hyphens, apostrophes, digits dropped)."""
    return "".join(c for c in fold(text) if c.isalpha())


def lookup_key(text: str) -> str:
    """The form two names or words are compared in: folded, surrounding spaces dropped
    ("  Zoë " and "ZOE" have the same key)."""
    return fold(text).strip()


def find(candidates: Iterable[T], wanted: object) -> T | None:
    """The candidate that ``wanted`` names (same :func:`lookup_key`), as the candidate spells
    it, or None (also when ``wanted`` is not a string). Candidates should have distinct keys;
    the first wins otherwise."""
    if not isinstance(wanted, str):
        return None
    target = lookup_key(wanted)
    return next((c for c in candidates if lookup_key(c) == target), None)


def same(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are the same name or word (same :func:`lookup_key`)."""
    return lookup_key(a) == lookup_key(b)
