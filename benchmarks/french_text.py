"""French test sentences as a French speaker writes them, for the synthesizers.

The grammars and the chatter lists are written without accents ("revenez en arriere"): the
matcher and the recognizer fold accents away. A synthesizer does not: espeak-ng, and so
Kokoro reading its phonemes, says an unaccented e as a schwa ("desole" as "dəzɔl"), so the
test audio needs its accents back. Each word takes its most frequent written form
(wordfreq's list), except where the words around it decide between two forms that fold
alike:

- ``a`` is the verb after its subject and before a participle ("il y a", "personne n'a
  voté", "la mission a échoué"), the preposition ``à`` before what a preposition takes
  ("c'est à qui", "tout à fait", "à l'unanimité");
- after an auxiliary or ``est`` a word is its participle when it has one ("n'a voté",
  "je me suis trompé", "c'est touché"), after a subject pronoun its present tense
  ("j'approuve", "on touche");
- ``que``, ``de``, ``je``, ``ne``, ``le``, ``la``, ``me``, ``te``, ``se`` elide before a
  vowel, as any French speaker says them ("je pense qu'on", "combien d'agents").
"""

from __future__ import annotations

import functools
import re

from voice_host.text import fold

_PREPOSITION_OBJECTS = frozenset({
    "qui", "quoi", "fait", "part", "notre", "votre", "mon", "ton", "son", "nous", "vous",
    "moi", "toi", "lui", "eux", "la", "le", "les", "l", "vent", "cote", "droite", "gauche",
    "propos", "peu", "plus", "force", "jamais", "nouveau", "quel", "quelle", "tous"})
"""Words after which ``a`` is the preposition ``à``."""
_VERB_BEFORE = frozenset({"il", "elle", "on", "y", "qui", "n", "l", "qu", "ca", "cela"})
"""Words after which ``a`` is the verb (the elided ``n'``, ``l'``, ``qu'`` included)."""
_AUXILIARIES = frozenset({"a", "ai", "as", "ont", "avons", "avez", "est", "es", "suis",
                          "sommes", "etes", "sont", "ete", "etait", "etais"})
"""Words after which a word that has a participle is that participle."""
_SUBJECTS = frozenset({"je", "j", "tu", "on", "il", "elle"})
"""Words after which a word is a verb in the present tense, not a participle."""
_ELIDING = frozenset({"que", "de", "je", "ne", "le", "la", "me", "te", "se"})
"""Short words that elide before a vowel."""
_NO_ELISION = frozenset({"oui", "ouais", "ouaip", "onze"})
"""Vowel-initial words that take no elision before them ("le oui", "le onze")."""
_VOWELS = "aeiouyéèêàâîôû"


@functools.cache
def _forms() -> dict[str, tuple[str, ...]]:
    """Folded French word -> its written forms, most frequent first (wordfreq's list;
    empty without wordfreq)."""
    try:
        import wordfreq
    except ImportError:  # pragma: no cover - wordfreq is a dependency
        return {}
    out: dict[str, list[str]] = {}
    for index, word in enumerate(wordfreq.iter_wordlist("fr")):
        if index >= 200_000:
            break
        out.setdefault(fold(word), []).append(word)
    return {key: tuple(value) for key, value in out.items()}


def _participle(word: str) -> bool:
    return word.endswith(("é", "ée", "és", "ées"))


def _written(word: str, before: str, after: str) -> str:
    """The written form of one folded word between its neighbours (folded too; ``before``
    is ``à`` when the word before was written so)."""
    if word.isdigit():
        return word
    if word == "a":
        if before in _VERB_BEFORE:
            return "a"
        return "à" if after in _PREPOSITION_OBJECTS else "a"
    forms = _forms().get(word, ())
    if not forms:
        return word
    if before in _AUXILIARIES and len(word) >= 4 and (forms[0] == word
                                                      or _participle(forms[0])):
        # (a word whose usual form is accented otherwise is no participle: "très")
        participles = [f for f in forms if _participle(f)]
        if participles:
            return participles[0]
    if before in _SUBJECTS:
        present = [f for f in forms if not _participle(f)]
        if present:
            return present[0]
    return forms[0]


def with_accents(text: str) -> str:
    """French written without accents, as the grammars and the chatter lists are, as a
    French speaker writes it (see the module docstring): "il y a 4 oui", "personne n'a
    voté oui", "revenez en arrière"."""
    pieces = re.split(r"([a-z0-9']+)", text)
    # the words, an elided word's parts apart ("n'a" is "n" and "a")
    words: list[tuple[int, int, str]] = []
    for index in range(1, len(pieces), 2):
        for part_index, part in enumerate(pieces[index].split("'")):
            words.append((index, part_index, part))
    written: dict[tuple[int, int], str] = {}
    before = ""
    for position, (index, part_index, part) in enumerate(words):
        after = words[position + 1][2] if position + 1 < len(words) else ""
        written[(index, part_index)] = _written(part, before, after) if part else part
        before = "à" if written[(index, part_index)] == "à" else part
    for index in range(1, len(pieces), 2):
        parts = pieces[index].split("'")
        pieces[index] = "'".join(written[(index, i)] for i in range(len(parts)))
    return _elide("".join(pieces))


def _elide(text: str) -> str:
    def join(match: re.Match[str]) -> str:
        following = match.group(2).lower()
        if following in _NO_ELISION or following[0] not in _VOWELS:
            return match.group(0)
        return f"{match.group(1)[:-1]}'"

    eliding = "|".join(sorted(_ELIDING))
    return re.sub(rf"(?<![\w'])({eliding}) (?=(\w+))", join, text)
