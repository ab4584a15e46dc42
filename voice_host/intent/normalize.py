"""Text normalization shared by the grammar compiler and the matcher.

Every word that reaches a grammar or the matcher is a *token*: lowercase ASCII letters,
digits and inner apostrophes, accents stripped ("Zoë" -> "zoe", "cœur" -> "coeur"). Hyphens
and other punctuation separate tokens; a French elision is split off ("l'éléphant" ->
"l'", "elephant"). JSGF-safe tokens are the subset made of ``[a-z']`` only.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_LIGATURES = str.maketrans({"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ß": "ss",
                            "’": "'", "‘": "'", "ʼ": "'", "`": "'"})
_SPLIT = re.compile(r"[^a-z0-9']+")
_ELISION = re.compile(r"^(l|d|j|qu|c|s|n|m|t)'(?=[a-z])")
_MARKUP = re.compile(r"<[^<>]*>|\[[^\[\]]*\]|\(\d+\)")
"""Recognizer markup: <sil>, [NOISE], [unk], alternate-pronunciation marks like two(2)."""
_ELISION_ALONE = re.compile(r"^(l|d|j|qu|c|s|n|m|t)'$")
_JSGF_TOKEN = re.compile(r"^[a-z](?:[a-z']*[a-z])?$|^(?:[a-z]|qu)'$")
"""A word, or an elision ("l'", "qu'": without "qu'" every French sentence with "qu'est-ce"
or "qu'on" was left out of the recognizer's grammar)."""


def fold(text: str) -> str:
    """Lowercase ``text`` and strip accents and ligatures (ASCII result where possible)."""
    text = text.translate(_LIGATURES)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


@lru_cache(maxsize=4096)
def tokenize(text: str) -> tuple[str, ...]:
    """Split ``text`` into normalized tokens (see the module docstring); recognizer markup
    such as ``<sil>``, ``[noise]`` or ``read(2)`` is dropped."""
    out: list[str] = []
    for raw in _SPLIT.split(fold(_MARKUP.sub(" ", text))):
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


def is_jsgf_token(token: str) -> bool:
    """True when ``token`` may appear in a JSGF grammar (``[a-z']`` only)."""
    return bool(_JSGF_TOKEN.match(token))
