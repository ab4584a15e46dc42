"""Text normalization shared by the grammar compiler and the matcher.

Every word that reaches a grammar or the matcher is a *token* of :mod:`voice_host.text`:
lowercase ASCII letters, digits and inner apostrophes, accents stripped ("Zoë" -> "zoe",
"cœur" -> "coeur"), a French elision split off ("l'éléphant" -> "l'", "elephant"). This
module adds what only recognizers need: their markup is dropped before tokenizing, and
JSGF-safe tokens are the subset made of ``[a-z']`` only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from voice_host import text
from voice_host.text import fold

__all__ = ["fold", "is_jsgf_token", "tokenize"]

_MARKUP = re.compile(r"<[^<>]*>|\[[^\[\]]*\]|\(\d+\)")
"""Recognizer markup: <sil>, [NOISE], [unk], alternate-pronunciation marks like two(2)."""
_JSGF_TOKEN = re.compile(r"^[a-z](?:[a-z']*[a-z])?$|^(?:[a-z]|qu)'$")
"""A word, or an elision ("l'", "qu'": without "qu'" every French sentence with "qu'est-ce"
or "qu'on" was left out of the recognizer's grammar)."""


@lru_cache(maxsize=4096)
def tokenize(line: str) -> tuple[str, ...]:
    """:func:`voice_host.text.tokenize` of ``line`` with recognizer markup such as ``<sil>``,
    ``[noise]`` or ``read(2)`` dropped first."""
    return text.tokenize(_MARKUP.sub(" ", line))


def is_jsgf_token(token: str) -> bool:
    """True when ``token`` may appear in a JSGF grammar (``[a-z']`` only)."""
    return bool(_JSGF_TOKEN.match(token))
