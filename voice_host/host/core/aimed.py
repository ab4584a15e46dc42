"""Whether a short line the host could not read was aimed at the phase: the awaited player's
attempt, misheard, rather than talk.

Whisper writes a short command it hears badly as other words ("white bone please" for
"right, bone please", "well our guest is charged" for "well, our guess is judge", "ok
season 42" for "okay, season for two"). Read by its words, such a line is mostly not the
phase's, and would pass for talk; but it still holds a piece of the move: a value of the
phase's moves (a board word, a colour, a number, an icon) or one of the words its example
sentences are made of ("pass", "guess", "vote", "sabotage"), written as they are or spelled
nearly so ("bones" for "bone"). Talk rarely does, and talk that does costs one short re-ask,
never a move. A line that keeps nothing of the move ("okay we boss" for "okay, we pass") is
not told from talk here: its sound alone is as close to some sentence of the phase as talk's
is.

:func:`aimed_at` is that test, on a line's words (the free transcript, or the typed line);
:func:`holds_clue` the one for a phase whose move is any word and a number (the Codenames
clue): a number beside another word."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rapidfuzz import fuzz

from voice_host.host.core.agreement import phase_vocabulary
from voice_host.intent import PhaseGrammar
from voice_host.intent.expand import iter_words
from voice_host.intent.grammar import PLAYER_LIST
from voice_host.text import tokenize

NEAR = 0.85
"""A word stands for a value or a keyword when it is spelled at least this alike (rapidfuzz
ratio, 0..1): "bones" and "bone" 0.89, while "again" and "against" are 0.83, "fini" and
"infini" 0.8. Sounds are not enough: among a board's 25 words some
sounds like almost any word ("tuck" shares the sound key of "dog", "call" that of
"koala")."""
NEAR_MIN_LETTERS = 4
"""Words shorter than this are only taken as they are written ("be" is no "bee")."""
CLUE_WORDS = 6
"""A clue's number beside a word is an attempt at the clue in a line shorter than this (a
longer one needs a word of the clue's sentences too: "clue", "hint")."""


def own_words(phase: PhaseGrammar) -> frozenset[str]:
    """The words of the phase's own moves (not the commands of every phase): the literal
    words of their sentences and the one-word forms of their lists' values."""
    rules = phase.rules
    words = {w for e in phase.entries if e.phases != ("*",) for t in e.templates
             for w in iter_words(t, rules)}
    return frozenset(words) | frozenset(phase_vocabulary(phase))


def _carries_nothing(phase: PhaseGrammar) -> frozenset[str]:
    settings = phase.settings
    return (settings.fillers | settings.function_words | settings.articles
            | settings.discourse | settings.interjections | settings.joiners
            | settings.weak_joiners | settings.object_pronouns | settings.self_words)


@lru_cache(maxsize=64)
def _keywords(phase: PhaseGrammar) -> frozenset[str]:
    from voice_host.host.core.commands import UNIVERSAL

    values = phase_vocabulary(phase)
    empty = _carries_nothing(phase)
    words = {w for intent, phrases in phase.help_phrases(4).items()
             if intent not in UNIVERSAL and intent not in phase.diagnostic_intents
             for phrase in phrases for w in tokenize(phrase)}
    return frozenset(w for w in words if w not in values and w not in empty
                     and w in phase.literal_words)  # "ocean" of "ocean two" is no keyword


def keywords(phase: PhaseGrammar) -> frozenset[str]:
    """The words the phase's example sentences are made of, values and words that carry
    nothing aside: "guess", "pass", "end", "turn" for a Codenames guess; "vote", "everyone",
    "except" for a vote."""
    return _keywords(phase)


def _values(phase: PhaseGrammar) -> frozenset[str]:
    """The one-word values of the phase's moves that talk seldom says: not the players'
    names (a name in a line is as often talk about that player), nor the words of everyday
    talk among them (yes, no, nobody, nothing: answers, the grammar's ``vetoes``, nought)."""
    settings = phase.settings
    names = {w for name in (PLAYER_LIST,) if name in phase.lists
             for tokens, _ in phase.lists[name].forms for w in tokens}
    common = (names | settings.self_words | settings.answer_words | settings.vetoes
              | phase.number_words.get(0, frozenset()))
    return frozenset(w for w in phase_vocabulary(phase) if w not in common)


def _as(word: str, phase: PhaseGrammar) -> tuple[str, ...]:
    """``word`` and the words the grammar's confusions say it is often written for ("too"
    for "two", "guest" for "guess"), small words aside ("for" stays "for")."""
    if word in phase.settings.function_words:
        return (word,)
    return (word, *phase.settings.confusions.get(word, ()))


def _is_number(word: str, numbers: frozenset[str]) -> bool:
    """One of ``numbers``, or digits that are each one ("42" written for "for two")."""
    return word in numbers or (word.isdigit() and all(d in numbers for d in word))


def _near(word: str, targets: frozenset[str]) -> bool:
    if word in targets:
        return True
    if len(word) < NEAR_MIN_LETTERS or not word.isalpha():
        return False
    return any(len(t) >= NEAR_MIN_LETTERS and (
        fuzz.ratio(word, t) / 100 >= NEAR
        # two words written as one ("whitebone" for "right, bone")
        or (len(word) - len(t) >= 2 and (word.endswith(t) or word.startswith(t))))
        for t in targets)


def aimed_at(words: Sequence[str], phase: PhaseGrammar) -> bool:
    """Whether ``words`` hold a piece of a move of ``phase``: a value of its moves (players'
    names and everyday words aside) or one of its keywords (:func:`keywords`), as written,
    nearly (:data:`NEAR`) or as the grammar's confusions read it, or digits that are its
    numbers; and none of the grammar's ``vetoes``, the words of talk ("why", "was", "can",
    "really")."""
    if any(w in phase.settings.vetoes for w in words):
        return False  # "that was a lucky guess", "can you pass the salt": talk about it
    values = _values(phase)
    targets = values | keywords(phase)
    return any(_is_number(w, values) or any(_near(a, targets) for a in _as(w, phase))
               for w in words)


def holds_clue(words: Sequence[str], phase: PhaseGrammar) -> bool:
    """Whether ``words`` hold what a move of a phase with an open slot needs -- one of its
    numbers above nought and another word that carries something ("ok season 42", "it was
    love too") -- in a phase whose moves take any word (the Codenames clue), in fewer than
    :data:`CLUE_WORDS` words, or beside a word of the phase's sentences and none of the
    grammar's ``vetoes`` ("my clue is winning for two", not "that clue could mean three
    different things"); False in any other phase."""
    if not phase.open_vocabulary:
        return False
    words = [w for w in words if w not in phase.settings.discourse]  # "okay", "um"
    numbers = frozenset(w for value, forms in phase.number_words.items() if value > 0
                        for w in forms)
    empty = _carries_nothing(phase)
    said = [any(_is_number(a, numbers) for a in _as(w, phase)) for w in words]
    others = [w for w, n in zip(words, said, strict=True) if not n and w not in empty]
    if not any(said) or not others:
        return False
    if len(words) < CLUE_WORDS:
        return True
    vetoes = phase.settings.vetoes  # "that clue could mean three different things": talk
    own = own_words(phase)  # of the clue's own sentences, not of every phase's commands
    return any(w in own and w not in vetoes for w in others) \
        and not any(w in vetoes for w in words)

