"""Pronunciations for words a recognizer's dictionary lacks.

PocketSphinx's bundled model knows about 134 000 English words, but the games need names and
rarer words ("Wehrmacht", "sabotages", French first names).  A grammar that mentions a word the
dictionary lacks fails to load, so every such word gets a pronunciation here: from espeak-ng's
IPA phonemes mapped onto the 39 ARPAbet phones of the CMU dictionary, or, when espeak-ng is not
installed, from simple spelling rules.  Both paths always return a usable pronunciation.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable

ARPABET = frozenset(
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW "
    "V W Y Z ZH".split()
)
"""The phone set of the CMU dictionary and of PocketSphinx's en-us acoustic model."""

# espeak-ng IPA symbols (one phoneme each, as separated by ``--sep``) -> ARPAbet phones.
_IPA_TO_ARPABET: dict[str, tuple[str, ...]] = {
    # vowels and diphthongs (US and British readings, plus a few French ones)
    "i": ("IY",), "iː": ("IY",), "ɪ": ("IH",), "ᵻ": ("IH",), "ɨ": ("IH",),
    "e": ("EH",), "ɛ": ("EH",), "ɛː": ("EH",), "eɪ": ("EY",), "eː": ("EY",),
    "æ": ("AE",), "a": ("AE",), "aː": ("AA",), "ɐ": ("AH",),
    "ɑ": ("AA",), "ɑː": ("AA",), "ɒ": ("AA",),
    "ɔ": ("AO",), "ɔː": ("AO",), "o": ("OW",), "oː": ("OW",), "oʊ": ("OW",), "əʊ": ("OW",),
    "ʊ": ("UH",), "u": ("UW",), "uː": ("UW",), "ʌ": ("AH",), "ə": ("AH",), "əl": ("AH", "L"),
    "ɚ": ("ER",), "ɜ": ("ER",), "ɜː": ("ER",), "ɝ": ("ER",),
    "aɪ": ("AY",), "aʊ": ("AW",), "ɔɪ": ("OY",),
    "ɛɹ": ("EH", "R"), "eə": ("EH", "R"), "ɪə": ("IH", "R"), "ɪɹ": ("IH", "R"),
    "ʊə": ("UH", "R"), "ʊɹ": ("UH", "R"), "ɔːɹ": ("AO", "R"), "ɔɹ": ("AO", "R"),
    "ɑːɹ": ("AA", "R"), "ɑɹ": ("AA", "R"), "aɪə": ("AY", "ER"), "aɪɚ": ("AY", "ER"),
    "aʊə": ("AW", "ER"), "aʊɚ": ("AW", "ER"), "iə": ("IY", "AH"), "oːɹ": ("AO", "R"),
    "y": ("UW",), "yː": ("UW",), "ø": ("ER",), "øː": ("ER",), "œ": ("ER",),
    "ɑ̃": ("AA", "N"), "ɔ̃": ("OW", "N"), "ɛ̃": ("AE", "N"), "œ̃": ("AH", "N"), "ɐ̃": ("AH", "N"),
    # consonants
    "p": ("P",), "b": ("B",), "t": ("T",), "d": ("D",), "k": ("K",), "g": ("G",), "ɡ": ("G",),
    "f": ("F",), "v": ("V",), "s": ("S",), "z": ("Z",), "h": ("HH",), "ɦ": ("HH",),
    "m": ("M",), "n": ("N",), "ŋ": ("NG",), "ɲ": ("N", "Y"), "l": ("L",), "ɬ": ("L",),
    "ɫ": ("L",), "ɹ": ("R",), "r": ("R",), "ʁ": ("R",), "ɾ": ("T",), "w": ("W",),
    "ʍ": ("W",), "j": ("Y",), "ɥ": ("W",), "θ": ("TH",), "ð": ("DH",), "ʃ": ("SH",),
    "ʒ": ("ZH",), "tʃ": ("CH",), "dʒ": ("JH",), "x": ("K",), "ç": ("HH",), "χ": ("HH",),
    "ts": ("T", "S"), "dz": ("D", "Z"), "n̩": ("AH", "N"), "l̩": ("AH", "L"), "m̩": ("AH", "M"),
    "ʔ": (),
}
_IPA_MARKS = re.compile("[ˈˌ\u0329\u032f\u0361\u200d'%=]")

# Spelling rules for the fallback, longest first.
_LETTER_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("tch", ("CH",)), ("sch", ("SH",)), ("igh", ("AY",)), ("eau", ("OW",)),
    ("ch", ("CH",)), ("sh", ("SH",)), ("th", ("TH",)), ("ph", ("F",)), ("ck", ("K",)),
    ("ng", ("NG",)), ("qu", ("K", "W")), ("wh", ("W",)), ("gh", ("G",)), ("kn", ("N",)),
    ("ee", ("IY",)), ("ea", ("IY",)), ("ie", ("IY",)), ("oo", ("UW",)), ("ou", ("AW",)),
    ("ow", ("OW",)), ("ai", ("EY",)), ("ay", ("EY",)), ("ey", ("EY",)), ("oa", ("OW",)),
    ("oi", ("OY",)), ("oy", ("OY",)), ("au", ("AO",)), ("aw", ("AO",)), ("ew", ("UW",)),
    ("er", ("ER",)), ("ir", ("ER",)), ("ur", ("ER",)), ("ar", ("AA", "R")), ("or", ("AO", "R")),
    ("a", ("AE",)), ("b", ("B",)), ("c", ("K",)), ("d", ("D",)), ("e", ("EH",)), ("f", ("F",)),
    ("g", ("G",)), ("h", ("HH",)), ("i", ("IH",)), ("j", ("JH",)), ("k", ("K",)), ("l", ("L",)),
    ("m", ("M",)), ("n", ("N",)), ("o", ("AA",)), ("p", ("P",)), ("q", ("K",)), ("r", ("R",)),
    ("s", ("S",)), ("t", ("T",)), ("u", ("AH",)), ("v", ("V",)), ("w", ("W",)),
    ("x", ("K", "S")), ("y", ("IY",)), ("z", ("Z",)),
    ("é", ("EY",)), ("è", ("EH",)), ("ê", ("EH",)), ("ë", ("EH",)), ("à", ("AA",)),
    ("â", ("AA",)), ("î", ("IY",)), ("ï", ("IY",)), ("ô", ("OW",)), ("û", ("UW",)),
    ("ü", ("UW",)), ("ù", ("UW",)), ("ç", ("S",)), ("ö", ("ER",)), ("ä", ("EH",)),
    ("ñ", ("N", "Y")),
)


def ipa_to_arpabet(ipa: str) -> list[str]:
    """Map one word's espeak-ng IPA (phonemes separated by ``_``) to ARPAbet phones.

    Unknown symbols are mapped by their longest known prefix, then dropped; the result may
    be empty when nothing was recognisable.
    """
    phones: list[str] = []
    for raw in ipa.strip().split("_"):
        token = _IPA_MARKS.sub("", raw)
        while token:
            for size in range(min(4, len(token)), 0, -1):
                mapped = _IPA_TO_ARPABET.get(token[:size])
                if mapped is not None:
                    phones.extend(mapped)
                    token = token[size:]
                    break
            else:
                token = token[1:]
    return phones


def spell_to_arpabet(word: str) -> list[str]:
    """Rough pronunciation from spelling alone (the fallback when espeak-ng is missing)."""
    text = re.sub(r"[^a-zà-ÿ]", "", word.lower())
    if len(text) > 2 and text.endswith("e") and text[-2] not in "aeiouy":
        text = text[:-1]  # silent final e: "claire", "pierre"
    phones: list[str] = []
    i = 0
    while i < len(text):
        for pattern, mapped in _LETTER_RULES:
            if text.startswith(pattern, i):
                if not (len(mapped) == 1 and phones[-1:] == list(mapped)):  # "nn" -> N
                    phones.extend(mapped)
                i += len(pattern)
                break
        else:
            i += 1
    if phones and phones[0] == "IY" and text.startswith("y"):
        phones[0] = "Y"
    return phones or ["AH"]


ESPEAK_VOICES = {"en": "en-us", "fr": "fr"}
"""espeak-ng's voice for each game language."""


def espeak_available() -> bool:
    """True when the ``espeak-ng`` program can be run."""
    return shutil.which("espeak-ng") is not None


def espeak_ipa(texts: list[str], *, voice: str, separator: str = "") -> list[str] | None:
    """espeak-ng's IPA of each text, from one call (phonemes joined by ``separator``, words
    by spaces), or None when espeak-ng is missing or fails. Each text is one clause, so
    espeak-ng prints one line for it."""
    if not texts or not espeak_available():
        return None
    text = ".\n".join(re.sub(r"[^\w' -]", " ", t).replace("-", " ").strip()
                       for t in texts)
    command = ["espeak-ng", "-v", voice, "-q", "--ipa"]
    if separator:
        command.append(f"--sep={separator}")
    try:
        result = subprocess.run([*command, text], capture_output=True, text=True, timeout=20,
                                check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = [line.strip() for line in result.stdout.splitlines() if line.strip()]
    return lines if len(lines) == len(texts) else None


def espeak_pronunciations(words: Iterable[str], *, voice: str = "en-us") -> dict[str, list[str]]:
    """ARPAbet phones for each word from one espeak-ng call; words it fails on are left out."""
    wanted = [w for w in dict.fromkeys(words) if w.strip()]
    lines = espeak_ipa(wanted, voice=voice, separator="_")
    if lines is None:
        return {}
    out: dict[str, list[str]] = {}
    for word, line in zip(wanted, lines, strict=True):
        phones = [p for chunk in line.split() for p in ipa_to_arpabet(chunk)]
        if phones:
            out[word] = phones
    return out


def pronounce(words: Iterable[str], *, voice: str = "en-us") -> dict[str, str]:
    """A pronunciation (space-separated ARPAbet phones) for every word given, never empty.

    espeak-ng's phonemes are used when it is installed; spelling rules fill the gaps.
    """
    wanted = [w for w in dict.fromkeys(words) if w.strip()]
    from_espeak = espeak_pronunciations(wanted, voice=voice)
    return {w: " ".join(from_espeak.get(w) or spell_to_arpabet(w)) for w in wanted}
