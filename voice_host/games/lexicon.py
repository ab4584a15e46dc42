"""Real word lists for the Codenames clue check: which strings are words, and (English) how
they are pronounced, so a fused compound ("headache", "hedgehog") can be split.

* Words: the ``wordfreq`` package (word frequencies of English and French from many sources).
  A piece counts as a word when it is common enough: at least ``MIN_ZIPF`` on the Zipf scale
  (``MIN_ZIPF_SHORT`` for three-letter pieces, where abbreviations and fragments abound).
* Pronunciations (English only): the CMU pronouncing dictionary (BSD licence, see
  ``data/CMUDICT-LICENSE``), shipped in this package as ``data/cmudict-en.txt.gz``
  (written by ``scripts/make_pronunciations.py`` from the copy PocketSphinx uses). A split is
  a compound only when the whole word sounds like its two parts said one after the other
  ("head" + "ache" = "headache", but "off" + "ice" is not "office"). It ships with the rules
  so that a clue is judged the same with or without the speech extra.

``wordfreq`` is a base dependency; without it (or without the dictionary file)
:func:`dictionary_available` is False and :func:`sounds_joined` returns None, and the
engine falls back to its own word list and spelling rules. Nothing here imports the rest of
voice_host but the shared text leaf (:mod:`voice_host.text`).
"""

from __future__ import annotations

import functools
import gzip
import math
from collections.abc import Mapping
from importlib import resources

from voice_host.text import fold, spelled

MIN_ZIPF = 3.0
"""Zipf frequency (log10 of occurrences per billion words) a piece of four or more letters
needs to count as a word: "ache" 3.4, "hog" 3.6; "vau" 2.8, "teau" 2.2 are not words."""
MIN_ZIPF_SHORT = 3.5
"""... and a three-letter piece ("pla" 3.3 is an abbreviation, not a word)."""
SHORT = 3
"""Length of a piece that needs ``MIN_ZIPF_SHORT``."""


MIN_ZIPF_REDUCED = 4.0
"""A compound whose second part's vowel is reduced ("fireman": F AY ER M AH N) counts only
when both parts are this common ("fire" 5.3 + "man" 5.8, not "mag" 3.7 + "net" in
"magnet")."""


@functools.lru_cache(maxsize=4)
def zipf_table(language: str) -> Mapping[str, float] | None:
    """Lowercase word (accents kept: "gré" is a word, "gre" in "grenouille" is not) -> its
    Zipf frequency, or None without ``wordfreq``."""
    try:
        import wordfreq
    except ImportError:
        return None
    try:
        # the "small" list holds every word down to Zipf 3 (a millionth), which is as far as
        # the thresholds here look, and loads ten times faster than the large one
        freqs = wordfreq.get_frequency_dict(language, wordlist="small")
    except (LookupError, ValueError, OSError):
        return None
    table: dict[str, float] = {}
    for word, freq in freqs.items():
        if freq <= 0 or not word.isalpha():
            continue
        key = spelled(word)
        zipf = math.log10(freq) + 9.0
        if zipf > table.get(key, -1.0):
            table[key] = zipf
    return table


def dictionary_available(language: str) -> bool:
    """True when a real word list for ``language`` is installed."""
    return zipf_table(language) is not None


def zipf(word: str, language: str) -> float:
    """Zipf frequency of lowercase ``word`` as spelled (0 when unknown or no word list)."""
    table = zipf_table(language)
    return 0.0 if table is None else table.get(spelled(word), 0.0)


def is_dictionary_word(word: str, language: str) -> bool | None:
    """Whether lowercase ``word`` (as spelled) is a common word of ``language``; None without
    a word list."""
    if zipf_table(language) is None:
        return None
    return zipf(word, language) >= (MIN_ZIPF_SHORT if len(word) <= SHORT else MIN_ZIPF)


MIN_ZIPF_FUNCTION = 6.5
"""A word this common (in English "the" 7.7 down to "they" 6.5, with "as", "is", "for",
"at" between; "one" 6.47 and "time" 6.29 are below) is one of the language's function
words: hardly a clue, and what Whisper writes for a word it misheard ("as" for "house")."""


def is_function_word(word: str, language: str) -> bool | None:
    """Whether lowercase ``word`` is among the most common words of ``language`` (at least
    ``MIN_ZIPF_FUNCTION``); None without a word list."""
    if zipf_table(language) is None:
        return None
    return zipf(word, language) >= MIN_ZIPF_FUNCTION


MIN_ZIPF_KNOWN = 2.5
"""A clue this rare in wordfreq's large list (every word down to a billionth) is no word a
spymaster likely means: "preble" 2.2 (a surname; both of Whisper's readings of a demo's
"travel"), "futbok" and "toball" 0. Rare real words stay above it ("walrus" 3.0, "moineau"
3.0, "mousquetaire" 2.7); fewer ("axolotl" 2.0) are only asked about."""


def is_unknown_word(word: str, language: str) -> bool | None:
    """Whether lowercase ``word`` is hardly a word of ``language`` (below ``MIN_ZIPF_KNOWN``
    in wordfreq's large list); None without ``wordfreq``."""
    if zipf_table(language) is None:
        return None
    import wordfreq

    try:
        return wordfreq.zipf_frequency(word, language, wordlist="large") < MIN_ZIPF_KNOWN
    except (LookupError, ValueError, OSError):
        return None


PRONUNCIATIONS = "data/cmudict-en.txt.gz"
"""The English pronouncing dictionary, inside this package (see the module's docstring)."""

Pronunciations = Mapping[str, tuple[tuple[str, ...], ...]]
"""Lowercase word -> its pronunciations (phones without stress marks)."""


def parse_cmudict(text: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """A dictionary in CMU's format ("word(2) PH ONES", stress digits optional) as a table."""
    table: dict[str, list[tuple[str, ...]]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 2 or parts[0].startswith(";;;"):
            continue
        word = parts[0].split("(")[0].casefold()
        phones = tuple(p.rstrip("012") for p in parts[1:])
        if phones not in table.setdefault(word, []):
            table[word].append(phones)
    return {w: tuple(ps) for w, ps in table.items()}


def serialize(table: Pronunciations) -> str:
    """The shipped file's text: "word<TAB>PH ONES | PH ONES", one line a word, sorted."""
    return "".join(f"{word}\t{' | '.join(' '.join(p) for p in table[word])}\n"
                   for word in sorted(table))


def parse_shipped(text: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The shipped file's text back as a table (see :func:`serialize`)."""
    table: dict[str, tuple[tuple[str, ...], ...]] = {}
    for line in text.splitlines():
        word, _, phones = line.partition("\t")
        if word and phones:
            table[word] = tuple(tuple(p.split()) for p in phones.split(" | "))
    return table


@functools.lru_cache(maxsize=1)
def pronunciations() -> Pronunciations | None:
    """Lowercase English word -> its pronunciations, from the dictionary in this package
    (None when the file is missing or unreadable)."""
    try:
        data = resources.files(__package__).joinpath(PRONUNCIATIONS).read_bytes()
        return parse_shipped(gzip.decompress(data).decode("utf-8"))
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile):
        return None


def sounds_joined(first: str, second: str, whole: str, language: str) -> bool | None:
    """Whether ``whole`` is pronounced as ``first`` then ``second`` (English); None when a
    pronunciation is unknown (or for French, which has no dictionary here)."""
    if language != "en":
        return None
    table = pronunciations()
    if table is None:
        return None
    a, b, w = table.get(first), table.get(second), table.get(whole)
    if not (a and b and w):
        return None
    joined = {x + y for x in a for y in b}
    if any(p in joined for p in w):
        return True
    # a compound may reduce the second part's vowel ("fireman": F AY ER M AH N)
    common = min(zipf(first, language), zipf(second, language)) >= MIN_ZIPF_REDUCED
    return common and any(_reduced_match(p, joined) for p in w)


def _reduced_match(phones: tuple[str, ...], joined: set[tuple[str, ...]]) -> bool:
    vowels = {"AA", "AE", "AH", "AO", "EH", "IH", "UH"}
    for j in joined:
        if len(j) != len(phones):
            continue
        if all(x == y or (x == "AH" and y in vowels) for x, y in zip(phones, j, strict=True)):
            differences = sum(x != y for x, y in zip(phones, j, strict=True))
            if differences <= 1:
                return True
    return False


@functools.lru_cache(maxsize=4)
def _written_forms(language: str) -> Mapping[str, str] | None:
    """Folded word (no accents) -> the most common way ``language`` writes it, or None
    without ``wordfreq``."""
    table = zipf_table(language)
    if table is None:
        return None
    best: dict[str, tuple[float, str]] = {}
    for word, value in table.items():
        key = fold(word)
        if key != word and value > best.get(key, (-1.0, ""))[0]:
            best[key] = (value, word)
    for word, value in table.items():  # a word written without accents stays so if likelier
        if word in best and value >= best[word][0]:
            del best[word]
    return {key: word for key, (_, word) in best.items()}


def written(word: str, language: str) -> str:
    """``word`` with the accents ``language`` writes it with, when it was heard without them
    (recognizers and matchers fold "étoile" to "etoile"): the most common accented spelling
    of those letters, or ``word`` as it is when none is likelier or no word list is
    installed."""
    if word != fold(word):
        return word
    forms = _written_forms(language)
    return word if forms is None else forms.get(word, word)
