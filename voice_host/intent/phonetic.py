"""Word similarity by spelling and sound, for near-miss names and mis-heard words."""

from __future__ import annotations

from functools import lru_cache

import jellyfish
from rapidfuzz import fuzz


@lru_cache(maxsize=8192)
def sound_key(word: str) -> str:
    """A Metaphone key with the letters people and recognizers confuse folded together."""
    key = jellyfish.metaphone(word) if word.isalpha() else word
    return key.replace("0", "T").replace("V", "F").replace("Z", "S").replace("W", "")


def _vowels(word: str) -> str:
    return "".join(c for c in word.replace("y", "i") if c in "aeiou")


@lru_cache(maxsize=65536)
def similarity(a: str, b: str) -> float:
    """0..1: how likely ``a`` was heard or typed for ``b`` (1.0 only when equal)."""
    if a == b:
        return 1.0
    if not a or not b or a.isdigit() or b.isdigit():
        return 0.0
    if (a[0] == "h") != (b[0] == "h") and len(a) > 2 and len(b) > 2:
        # a dropped or added initial h is one sound ("Anna" for "Hannah")
        a2, b2 = (a[1:], b) if a[0] == "h" else (a, b[1:])
        return min(0.9, similarity(a2, b2))
    spelling = fuzz.ratio(a, b) / 100.0
    ka, kb = sound_key(a), sound_key(b)
    if ka and ka == kb:
        sound = 0.92 if min(len(a), len(b)) >= 4 else 0.85
        if len(ka) == 1:
            # a key of one consonant says little of a word that is mostly vowels: "see" and
            # "so" share Zoe's, so its vowels have to agree as well
            sound *= 0.5 + 0.5 * fuzz.ratio(_vowels(a), _vowels(b)) / 100.0
    elif ka and kb:
        sound = 0.85 * fuzz.ratio(ka, kb) / 100.0
    else:
        sound = 0.0
    if a[0] != b[0] and sound_key(a[0]) != sound_key(b[0]):
        spelling *= 0.92
        sound *= 0.92
    return min(0.97, max(spelling, sound))
