"""How alike two transcripts sound, from espeak-ng's phonemes.

Whisper writes speech it hears badly as it sounds: base spells a Japanese-accented "la taupe
c'est jack" as "la top se jaque", and "mets pause" as "mepos". Letter by letter these are
far from the grammar's sentence; sound by sound they are nearly the same. Each text is
turned into espeak-ng's IPA in the game's language, folded into a coarse key (stress,
length, word breaks and the vowel qualities accents blur dropped), and the keys are compared
with rapidfuzz. Without espeak-ng there is no figure (None), and the rejection goes on
without it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rapidfuzz import fuzz

from voice_host.speech.pronounce import ESPEAK_VOICES, espeak_ipa

_FOLD = str.maketrans({
    # vowels an accent or a recognizer blurs: open and closed e, o and a, schwa, rounded e
    "ɛ": "e", "ə": "e", "œ": "e", "ø": "e", "ɜ": "e", "ɐ": "a", "ɑ": "a", "æ": "a",
    "ɔ": "o", "ɒ": "o", "ʌ": "a", "ɪ": "i", "ʊ": "u", "y": "u", "ɥ": "u", "ᵻ": "i",
    # r and the glides, however written
    "ʁ": "r", "ɹ": "r", "ɾ": "r", "ɚ": "er", "ɝ": "er", "j": "i", "w": "u",
    # voicing that liaison and accents move: s/z
    "z": "s", "ɡ": "g", "ŋ": "n", "ɲ": "n",
})
_NASAL = "\u0303"
_SWITCH = re.compile(r"\([a-z-]+\)")
"""espeak-ng's language switches, "(en)kˈɛli(fr)"."""


def fold(ipa: str) -> str:
    """A coarse sound key of espeak-ng's IPA: no stress, length, breaks or switches; vowel
    qualities and voicing that accents blur folded together; a nasal vowel keeps its
    nasality as a capital N after it."""
    out: list[str] = []
    for char in unicodedata.normalize("NFD", _SWITCH.sub("", ipa)):
        if char == _NASAL:
            out.append("N")
        elif unicodedata.combining(char) or not char.isalpha() or char in "ˈˌːˑ":
            continue  # stress and length marks are modifier letters
        else:
            out.append(char)
    return "".join(out).translate(_FOLD)


@lru_cache(maxsize=4096)
def _keys(texts: tuple[str, ...], voice: str) -> tuple[str, ...] | None:
    lines = espeak_ipa(list(texts), voice=voice)
    return None if lines is None else tuple(fold(line) for line in lines)


def sound_similarity(a: str, b: str, language: str) -> float | None:
    """0..1: how alike ``a`` and ``b`` sound in ``language`` (rapidfuzz ratio of their sound
    keys), or None when espeak-ng cannot say (not installed, or a text with no letters)."""
    if not a.strip() or not b.strip():
        return None
    keys = _keys((a, b), ESPEAK_VOICES.get(language, language))
    if keys is None or not keys[0] or not keys[1]:
        return None
    return fuzz.ratio(keys[0], keys[1]) / 100
