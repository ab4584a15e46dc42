"""Codenames: the rules engine.

Rules: ``shared/rules/codenames.md`` (an English reading of a French summary, with the parts it
leaves out taken from the standard published rules).

Two knowledge models (:class:`~voice_host.games.base.Deal`):

* ``Deal.HOST`` — the engine deals the 25 words *and* the key (9 tiles for the starting team,
  8 for the other, 7 bystanders, 1 assassin) at the set-up chance node. The key reaches the two
  spymasters only, through :class:`KeyDealt` (an event with an ``audience``) and their
  ``player_view``. A guess is resolved at once.
* ``Deal.TABLE`` — the group plays with a physical key card. The engine knows the words on the
  table and which team starts, never the key: after each guess the active spymaster says the
  touched tile's colour (:class:`StateColour`). The engine only checks that the stated colours
  stay within the key's counts (9/8/7/1).

Clue validation (:func:`clue_problem`) is a pure function, shared with the host. It works on
words folded by :mod:`voice_host.text` (case and accents ignored, "œ" read as "oe") and
refuses, with a :class:`CodenamesRefusal` (a code and its words, said by the host in the
game's language): anything but one word of letters (hyphenated compounds included), a number
word, a visible word, a visible word with an ending added or removed (plural, "-ed", "-ing",
"-er", "-ly", irregular plurals ...; French plural, feminine and verb endings), and a part
of a visible compound word or a compound made with a visible word.
Endings are undone by spelling rules (so "corner" counts as "corn" with an ending). Fused
compounds are split with real word lists (:mod:`voice_host.games.lexicon`: wordfreq's English
and French frequencies, and for English the CMU pronouncing dictionary): "headache" contains
"head" because "ache" is a word and "headache" is said "head" + "ache"; "office" does not
contain "ice". Without those packages the other piece must be in the game's word list or the
common compound parts of ``codenames_words``, or both pieces must be long ("water" +
"fall"). Covered words no longer restrict clues.

An invalid clue is either refused (option ``invalid_clue="refuse"``: the spymaster tries again)
or, with ``invalid_clue="penalty"``, played anyway with the official penalty: the turn ends
at once and the opposing spymaster covers one of their own words (:class:`CoverPenalty`).

Scores (in :class:`GameOver` and :class:`~voice_host.games.base.Outcome`) are the number of
each team's tiles covered (agents found), by team name.
"""

from __future__ import annotations

import enum
import functools
import math
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from voice_host.games import lexicon
from voice_host.games.base import (
    JSON,
    Action,
    Deal,
    Event,
    GameDescription,
    GameError,
    IllegalAction,
    Outcome,
    PlayerAction,
    SetupError,
    action_from_json,
    action_to_json,
    check_player_names,
    replay,
)
from voice_host.games.codenames_words import COMPOUND_PARTS, WORD_LISTS
from voice_host.text import letters, lookup_key, same, spelled
from voice_host.wording import Term

# --------------------------------------------------------------------------- constants


class Team(enum.StrEnum):
    """The two teams."""

    RED = "red"
    BLUE = "blue"

    @property
    def other(self) -> Team:
        return Team.BLUE if self is Team.RED else Team.RED


class Colour(enum.StrEnum):
    """The colour of a tile on the key."""

    RED = "red"
    """A red agent."""
    BLUE = "blue"
    """A blue agent."""
    NEUTRAL = "neutral"
    """An innocent bystander (beige)."""
    ASSASSIN = "assassin"
    """The assassin (black): touching it loses the game."""


def team_colour(team: Team) -> Colour:
    """The tile colour of ``team``."""
    return Colour(team.value)


GRID_SIZE = 25
"""Words on the grid."""
GRID_SIDE = 5
"""The grid is GRID_SIDE x GRID_SIDE."""
STARTING_TEAM_TILES = 9
"""Tiles of the team that starts."""
OTHER_TEAM_TILES = 8
"""Tiles of the other team."""
NEUTRAL_TILES = 7
"""Innocent bystanders."""
ASSASSIN_TILES = 1
"""Assassins."""
MAX_CLUE_NUMBER = 9
"""Highest clue number (0 and "unlimited" are also allowed)."""
LANGUAGES: tuple[str, ...] = tuple(WORD_LISTS)
"""Word-list languages ("en", "fr")."""
INVALID_CLUE_MODES = ("refuse", "penalty")
"""What happens to an invalid clue."""


def key_counts(first: Team) -> dict[Colour, int]:
    """How many tiles of each colour the key has when ``first`` starts."""
    return {
        team_colour(first): STARTING_TEAM_TILES,
        team_colour(first.other): OTHER_TEAM_TILES,
        Colour.NEUTRAL: NEUTRAL_TILES,
        Colour.ASSASSIN: ASSASSIN_TILES,
    }


class Phase(enum.StrEnum):
    """Where the game is."""

    DEAL = "deal"
    """Chance node: the grid (and in host mode the key) is dealt."""
    CLUE = "clue"
    """The active spymaster gives a clue."""
    GUESS = "guess"
    """The active team's operatives touch tiles or pass."""
    COLOUR = "colour"
    """Table mode: the active spymaster states the touched tile's colour."""
    PENALTY = "penalty"
    """After an invalid clue played anyway: the opposing spymaster covers one of their words."""
    OVER = "over"
    """The game has ended."""


VERSION = 2
"""Version of :meth:`CodenamesState.to_json` (2: clues, guesses, passes, colours and penalty
words name the player who acts; version 1 is read by replaying its history)."""


def _upgrade_version_1(state: CodenamesState, record: JSON) -> JSON:
    """A version-1 action record as version 2 writes it, its actor taken from ``state``."""
    kind = record.get("type")
    if kind in ("GiveClue", "StateColour", "CoverPenalty"):
        record.pop("team", None)
        record["player"] = state.current_players()[0]
    elif kind in ("Guess", "EndTurn"):
        record["player"] = state.operatives(Team(record.pop("team")))[0]
    return record


class CodenamesRefusal(IllegalAction):
    """A move the rules refuse: a code and its parameters (the host says it in the game's
    language). Words are passed as said or as on the grid, capitalised when the English
    sentence starts with them; teams and colours as :class:`Team` and :class:`Colour`."""

    messages: ClassVar[Mapping[str, str]] = {
        # any phase
        "not_a_move": "That is not a Codenames move.",
        "game_over": "The game is over.",
        "not_dealt": "The grid has not been dealt yet.",
        "unknown_team": "There is no team called {team}.",
        "unknown_player": "Nobody called {player} is playing.",
        "clue_by_spymaster": "{player}, only {spymaster}, the {team} spymaster, gives the "
                             "clue now.",
        "colour_by_spymaster": "{player}, only {spymaster} can see the key and says the "
                               "colour of {word}.",
        "penalty_by_spymaster": "{player}, {spymaster} chooses the word to cover.",
        "spymaster_cannot_guess": "{player}, spymasters don't guess: {operatives} guess.",
        "other_team_guesses": "{player}, it is the {team} team's turn to guess.",
        "clue_first": "The {team} spymaster must give a clue first.",
        "guessing_now": "The {team} team is guessing now.",
        "colour_first": "The {team} spymaster must first say the colour of {word}.",
        "penalty_first": "The {team} spymaster must first cover one of their words as the "
                         "penalty.",
        # the deal (a grid or key that is not one)
        "already_dealt": "The grid has already been dealt.",
        "first_fixed": "The {team} team starts in this game.",
        "grid_size": "The grid needs {size} words, not {count}.",
        "grid_word_type": "Every grid word must be a word.",
        "grid_word_spaces": "Every grid word must be a word without spaces around it.",
        "grid_word_not_word": "{word} is not a word.",
        "grid_word_twice": "{word} is on the grid twice.",
        "key_missing": "The host deals the key in this game, so the grid needs one.",
        "key_unknown_colour": "The key holds an unknown colour.",
        "key_size": "The key needs {size} colours, not {count}.",
        "key_counts": "The key needs {count} {tile} tiles, not {found}.",
        "key_in_table_mode": "The key is a physical card in this game; the grid has no key.",
        # the clue (see clue_problem)
        "clue_empty": "Please give a clue word.",
        "clue_number_type": "The clue number must be from 0 to 9, or unlimited.",
        "clue_number_range": "The clue number must be from 0 to 9, or unlimited, not {number}.",
        "clue_spaces": "A clue must be a single word.",
        "clue_hyphen": "A clue must be one word, not a hyphenated compound.",
        "clue_digits": "A clue must be a word, not a number.",
        "clue_not_letters": "A clue must be a word made of letters only.",
        "clue_number_word": "{word} is a number, and a number can't be the clue word.",
        "clue_on_board": "{board} is on the board.",
        "clue_other_form": "{word} is just {board} with a different ending.",
        "clue_part_of": "{word} is part of {board}, which is on the board.",
        "clue_contains": "{word} contains {board}, which is on the board.",
        # guesses
        "guess_no_word": "Please name a word on the board.",
        "not_on_board": "{word} is not on the board.",
        "already_covered": "{word} is already covered ({colour}).",
        "pass_too_early": "You must make at least one guess before passing.",
        # table mode: the touched tile's colour
        "colour_of": "Please give the colour of {word}.",
        "colour_unknown": "{colour} is not a colour on the key.",
        "no_assassin_left": "The assassin is already covered.",
        "no_bystander_left": "All {total} bystanders are already covered.",
        "no_team_tile_left": "All {total} {team} tiles are already covered.",
        # the penalty
        "penalty_not_own": "{word} is not a {team} word.",
    }

    @classmethod
    def again(cls, code: str, params: Mapping[str, Any]) -> CodenamesRefusal:
        """A refusal rebuilt from a recorded code and its parameters (an
        :class:`InvalidClue`'s); a code this table does not have is a bug."""
        if code not in cls.messages:
            raise KeyError(code)
        return cls(code, **params)


# --------------------------------------------------------------------------- clue validation

NUMBER_WORDS: Mapping[str, frozenset[str]] = {
    "en": frozenset(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
        "eighty ninety hundred thousand million billion trillion".split()
    ),
    "fr": frozenset(
        "zero un une deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze "
        "quinze seize vingt trente quarante cinquante soixante cent mille million milliard "
        "septante huitante octante nonante".split()
    ),
}
"""Number words (folded) a clue may not be, by language."""

# (suffix, replacements) pairs: a word ending in the suffix may be the base word with one of
# the replacements instead. Doubled final consonants ("running", "chatte") are undone too.
_ENDINGS: Mapping[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "en": (
        ("iest", ("y",)), ("ies", ("y",)), ("ied", ("y",)), ("ier", ("y",)), ("ily", ("y",)),
        ("ves", ("f", "fe")), ("ing", ("", "e")), ("est", ("", "e")), ("ness", ("",)),
        ("less", ("",)), ("ment", ("",)), ("ful", ("",)), ("es", ("",)), ("ed", ("", "e")),
        ("er", ("", "e")), ("ly", ("",)), ("y", ("", "e")), ("s", ("",)),
        # irregular plurals: snowmen, mice, feet, teeth, geese, children
        ("men", ("man",)), ("ice", ("ouse",)), ("eet", ("oot",)), ("eeth", ("ooth",)),
        ("eese", ("oose",)), ("ren", ("",)),
    ),
    "fr": (
        ("euses", ("", "e")), ("euse", ("", "e")), ("eurs", ("", "e")), ("eur", ("", "e")),
        ("ettes", ("", "e")), ("ette", ("", "e")), ("ieres", ("", "e")), ("iere", ("", "e")),
        # a shop, a trade or a collection of the thing: argent -> argenterie, bijou ->
        # bijouterie, poisson -> poissonnerie (what English makes with a compound)
        ("eries", ("", "e")), ("erie", ("", "e")), ("teries", ("",)), ("terie", ("",)),
        ("iers", ("", "e")), ("ier", ("", "e")), ("ement", ("", "e")), ("ment", ("", "e")),
        ("aux", ("al", "ail")), ("ees", ("", "e")), ("ee", ("", "e")), ("ent", ("", "e")),
        ("ant", ("", "e")), ("ons", ("", "e")), ("ait", ("", "e")), ("ais", ("", "e")),
        ("ez", ("", "e")), ("er", ("", "e")), ("es", ("", "e")), ("e", ("",)), ("s", ("",)),
        ("x", ("",)), ("yeux", ("oeil",)), ("ieux", ("iel",)),
    ),
}
"""Endings that make another form of the same word, by language (on folded words)."""

_DOUBLING_SUFFIXES: Mapping[str, frozenset[str]] = {
    "en": frozenset({"ing", "ed", "er", "est", "y"}),
    "fr": frozenset({"e", "es", "ette", "ettes", "ier", "iere", "iers", "ieres", "erie",
                     "eries"}),
}
"""Suffixes before which a final consonant may be doubled ("run" -> "running")."""

MIN_BASE = 3
"""Shortest base a word may be reduced to by removing an ending ..."""
MIN_PLURAL_BASE = 2
"""... or by removing a plural "s", "x" or "es" ("ox" + "en" is not caught; "dés" is "dé")."""
_PLURAL_SUFFIXES = frozenset({"s", "x", "es"})
MIN_COMPOUND_PART = 3
"""Shortest part of a compound word."""
MIN_LONG_PART = 5
"""A part this long at the start or end of a word is taken as a compound part even when the
rest is not a known word ("water" + "fall") ..."""
MIN_LONG_REST = 4
"""... provided the rest has at least this many letters (and a vowel)."""

_VOWELS = frozenset("aeiouy")


@functools.lru_cache(maxsize=65536)
def word_bases(word: str, language: str = "en") -> frozenset[str]:
    """Words that ``word`` (folded) may be formed from by adding one or two endings.

    "runners" -> {"runner", "run", ...}; "churches" -> {"church", ...}; French "chattes" ->
    {"chatte", "chat", ...}. The result holds spurious bases too ("glass" -> "glas"); they are
    harmless because a base only matters when it *is* a visible word (or vice versa)."""
    endings = _ENDINGS.get(language, _ENDINGS["en"])
    doubling = _DOUBLING_SUFFIXES.get(language, _DOUBLING_SUFFIXES["en"])
    found: set[str] = set()
    frontier = {word}
    for _ in range(2):
        new: set[str] = set()
        for w in frontier:
            for suffix, replacements in endings:
                if not w.endswith(suffix):
                    continue
                shortest = MIN_PLURAL_BASE if suffix in _PLURAL_SUFFIXES else MIN_BASE
                stem = w[: -len(suffix)]
                for repl in replacements:
                    base = stem + repl
                    if len(base) >= shortest and base != w:
                        new.add(base)
                if (suffix in doubling and len(stem) > MIN_BASE and stem[-1] == stem[-2]
                        and stem[-1] not in _VOWELS):
                    new.add(stem[:-1])
        new -= found
        found |= new
        frontier = new
    found.discard(word)
    return frozenset(found)


MIN_SHARED_BASE = 4
"""Two words that both add an ending to the same base ("swimmer", "swimming") count as one
word family when that base has at least this many letters ("cats" and "cater" do not)."""


def same_word_family(a: str, b: str, language: str = "en") -> bool:
    """True when one folded word is the other with an ending added or removed, or both are
    the same base with different endings."""
    if a == b:
        return False
    bases_a = word_bases(a, language)
    bases_b = word_bases(b, language)
    if a in bases_b or b in bases_a:
        return True
    return any(len(x) >= MIN_SHARED_BASE for x in bases_a & bases_b)


@functools.lru_cache(maxsize=8)
def _lexicon(language: str) -> frozenset[str]:
    """Folded words known to the engine: the word list and the common compound parts."""
    words = (*WORD_LISTS.get(language, ()), *COMPOUND_PARTS.get(language, ()))
    return frozenset(lookup_key(w) for w in words)


def _known(word: str, language: str) -> bool:
    """In the real word list, or (folded) in the engine's own lists."""
    return lexicon.is_dictionary_word(word, language) or lookup_key(word) in _lexicon(language)


def _is_word(rest: str, language: str) -> bool:
    """A known word, or a known word with an ending: in the real word list when it is
    installed (``lexicon``; ``rest`` spelled with its accents), else in the engine's own
    lists (``rest`` folded)."""
    if lexicon.dictionary_available(language):
        return any(_known(w, language) for w in (rest, *word_bases(rest, language)))
    lexicon_words = _lexicon(language)
    return rest in lexicon_words or any(b in lexicon_words for b in word_bases(rest, language))


def _plausible_boundary(first: str, second: str) -> bool:
    """Spelling check of a join, where no pronunciation is known: a consonant before a vowel
    belongs to the vowel's syllable ("chat|eau" is "châ-teau", "port|ail" is "por-tail"), two
    vowels may be one sound ("feu|ille"), and a doubled consonant is one sound ("pois|son");
    none of these is where two words meet."""
    last, nxt = first[-1], second[0]
    if nxt in _VOWELS:
        return False
    return not (last == nxt and last not in _VOWELS)


def is_compound_part(part: str, whole: str, language: str = "en") -> bool:
    """True when ``whole`` is ``part`` joined to another word, at either end: "fire" in
    "firetruck", "man" in "snowman". Both are lowercase letters (folded, or spelled with
    their accents when the real word lists are there).

    With the real word lists installed (:mod:`voice_host.games.lexicon`) the other piece must
    be a common word, and the join must sound (English, by the pronouncing dictionary) or be
    spelled (otherwise) like two words put together: "head" + "ache", "hedge" + "hog", but not
    "off" + "ice" for "office" nor "chat" + "eau" for "château". Without them the other piece
    must be in the engine's list of words, or both pieces must be long ("water" + "fall")."""
    if len(part) < MIN_COMPOUND_PART or len(whole) - len(part) < MIN_COMPOUND_PART:
        return False
    if whole.startswith(part):
        first, second = part, whole[len(part):]
        rest = second
    elif whole.endswith(part):
        first, second = whole[: -len(part)], part
        rest = first
    else:
        return False
    if lexicon.dictionary_available(language):
        if not _is_word(rest, language):
            return False
        sounds = lexicon.sounds_joined(first, second, whole, language)
        if sounds is not None:
            return sounds
        return _plausible_boundary(first, second)
    part, whole, rest = lookup_key(part), lookup_key(whole), lookup_key(rest)
    if _is_word(rest, language):
        return True
    return (len(part) >= MIN_LONG_PART and len(rest) >= MIN_LONG_REST
            and any(c in _VOWELS for c in rest))


def _spoken(word: str) -> str:
    """A word at the start of a sentence."""
    word = word.strip()
    return word[:1].upper() + word[1:]


def _spelled(word: str) -> str:
    """Lowercase letters of ``word`` with their accents (NFC)."""
    return "".join(c for c in spelled(word) if c.isalpha())


def _word_forms(word: str, language: str) -> tuple[str, ...]:
    """The words ``word`` may be with an ending removed ("lights" -> "light"), when they are
    words of the language."""
    return tuple(b for b in word_bases(word, language)
                 if (len(b) > MIN_COMPOUND_PART or word in (b + "s", b + "x"))
                 and _known(b, language))


def clue_problem(word: str, visible_words: Iterable[str], *,
                 language: str = "en") -> CodenamesRefusal | None:
    """Why ``word`` cannot be a clue while ``visible_words`` are uncovered (a refusal with
    its code: ``clue_on_board``, ``clue_other_form``...), or None if it can.

    Comparisons ignore case and accents. ``language`` ("en" or "fr") chooses the number
    words, the endings that make another form of a word and the known words compounds are
    made of. The refusal's ``word`` is the clue and ``board`` the visible word it clashes
    with.
    """
    text = word.strip()
    if not text:
        return CodenamesRefusal("clue_empty")
    if any(c.isspace() for c in text):
        return CodenamesRefusal("clue_spaces")
    if "-" in text:
        return CodenamesRefusal("clue_hyphen")
    if any(c.isdigit() for c in text):
        return CodenamesRefusal("clue_digits")
    if not all(c.isalpha() for c in text):
        return CodenamesRefusal("clue_not_letters")
    clue = lookup_key(text)
    said = _spoken(text)
    if clue in NUMBER_WORDS.get(language, NUMBER_WORDS["en"]):
        return CodenamesRefusal("clue_number_word", word=said)
    visible = [(v, letters(v), [lookup_key(p) for p in re.split(r"[\s\-'’]+", v) if p])
               for v in visible_words]
    for v, joined, _parts in visible:
        if clue == joined:
            return CodenamesRefusal("clue_on_board", word=said, board=_spoken(v))
    for v, joined, _parts in visible:
        if same_word_family(clue, joined, language):
            return CodenamesRefusal("clue_other_form", word=said, board=v)
    spelled = _spelled(text)
    for v, _joined, parts in visible:
        spelled_v = _spelled(v)
        if len(parts) > 1 and any(
                clue == p or same_word_family(clue, p, language) for p in parts):
            return CodenamesRefusal("clue_part_of", word=said, board=v)
        if any(is_compound_part(form, spelled_v, language)
               for form in (spelled, *_word_forms(spelled, language))):
            return CodenamesRefusal("clue_part_of", word=said, board=v)
        if any(is_compound_part(spelled_v, form, language)
               for form in (spelled, *_word_forms(spelled, language))):
            return CodenamesRefusal("clue_contains", word=said, board=v)
    return None


def number_problem(number: object) -> CodenamesRefusal | None:
    """Why ``number`` cannot be a clue number (None = unlimited is fine), or None."""
    if number is None:
        return None
    if isinstance(number, bool) or not isinstance(number, int):
        return CodenamesRefusal("clue_number_type")
    if not 0 <= number <= MAX_CLUE_NUMBER:
        return CodenamesRefusal("clue_number_range", number=number)
    return None


def guesses_allowed(number: int | None) -> int | None:
    """Guesses a clue allows: number + 1, or None (no limit) for 0 and unlimited."""
    if number is None or number == 0:
        return None
    return number + 1


def grid_word_problem(word: str) -> CodenamesRefusal | None:
    """Why ``word`` cannot be a word on the grid (a physical card may carry "ice cream")."""
    text = word.strip()
    if not text or text != word:
        return CodenamesRefusal("grid_word_spaces")
    if not any(c.isalpha() for c in text) or not all(c.isalpha() or c in " -'" for c in text):
        return CodenamesRefusal("grid_word_not_word", word=_spoken(text))
    return None


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class DealGrid(Action):
    """Chance outcome: the grid, the key (host mode) and the starting team."""

    secret_fields: ClassVar[tuple[str, ...]] = ("key",)

    words: tuple[str, ...]
    """The 25 words, row by row (top row left to right first)."""
    key: tuple[Colour, ...] | None
    """The colour of each position (host mode); None in table mode (a physical key card)."""
    first: Team
    """The team that starts (it has 9 tiles)."""


@dataclass(frozen=True)
class GiveClue(PlayerAction):
    """The active spymaster's (``player``'s) clue."""

    word: str
    """The clue word."""
    number: int | None
    """How many tiles it is about: 0 to 9, or None for unlimited."""


@dataclass(frozen=True)
class Guess(PlayerAction):
    """An operative (``player``) of the team whose turn it is touches a tile: the team
    speaks through whichever operative said it."""

    word: str
    """The touched word (matched ignoring case and accents)."""


@dataclass(frozen=True)
class EndTurn(PlayerAction):
    """The operatives stop guessing (allowed after at least one guess): ``player`` is the
    operative who says so for the team."""


@dataclass(frozen=True)
class StateColour(PlayerAction):
    """Table mode: the active spymaster (``player``) says the colour of the touched tile."""

    word: str
    """The touched word."""
    colour: Colour
    """Its colour on the physical key card."""


@dataclass(frozen=True)
class CoverPenalty(PlayerAction):
    """After an invalid clue (penalty option): the opposing spymaster (``player``) covers one
    of their own words."""

    word: str
    """The word to cover (it must be one of that team's tiles)."""


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class GridDealt(Event):
    """The 25 words are on the table."""

    words: tuple[str, ...]
    """The words, row by row."""
    first: Team
    """The team that starts (with 9 tiles)."""


@dataclass(frozen=True)
class KeyDealt(Event):
    """Secret: the key, for the two spymasters only."""

    key: tuple[Colour, ...]
    """The colour of each position, row by row."""
    first: Team
    """The team that starts."""
    audience: tuple[str, ...]
    """The two spymasters."""


@dataclass(frozen=True)
class TurnStarted(Event):
    """A team's turn begins: its spymaster must give a clue."""

    team: Team
    """The team to play."""
    spymaster: str
    """Who gives the clue."""


@dataclass(frozen=True)
class ClueGiven(Event):
    """A valid clue was given."""

    team: Team
    """The team of the spymaster."""
    spymaster: str
    """Who gave it."""
    word: str
    """The clue word, as said."""
    number: int | None
    """The number (None = unlimited)."""
    guesses_allowed: int | None
    """Guesses the operatives may make (number + 1; None = no limit)."""


@dataclass(frozen=True)
class InvalidClue(Event):
    """Penalty option: an invalid clue was played; the turn ends."""

    team: Team
    """The team whose spymaster gave it."""
    spymaster: str
    """Who gave it."""
    word: str
    """The clue word, as said."""
    number: int | None
    """The number (None = unlimited)."""
    problem: str
    """Why it is invalid: the code of :func:`clue_problem`'s refusal (``"clue_on_board"``)."""
    problem_params: tuple[tuple[str, str], ...]
    """That refusal's parameters as (name, value) pairs, e.g. (("board", "Piano"),)."""

    def refusal(self) -> CodenamesRefusal:
        """Why the clue is invalid, as the refusal :func:`clue_problem` gave (to be said)."""
        return CodenamesRefusal.again(self.problem, dict(self.problem_params))


@dataclass(frozen=True)
class TileTouched(Event):
    """Table mode: a tile was touched; its colour is asked of the spymaster."""

    team: Team
    """The guessing team."""
    word: str
    """The touched word."""
    spymaster: str
    """Who must say the colour."""


@dataclass(frozen=True)
class GuessResolved(Event):
    """A touched tile was covered."""

    team: Team
    """The guessing team."""
    word: str
    """The word (as on the grid)."""
    colour: Colour
    """Its colour."""
    guesses_left: int | None
    """Guesses the team still has this turn (None = no limit; 0 when the turn ends)."""
    remaining: tuple[tuple[str, int], ...]
    """Tiles still to find per team: (("red", n), ("blue", m))."""


@dataclass(frozen=True)
class PenaltyCovered(Event):
    """Penalty option: the opposing spymaster covered one of their own words."""

    team: Team
    """The team that benefits."""
    spymaster: str
    """Who chose the word."""
    word: str
    """The covered word."""
    remaining: tuple[tuple[str, int], ...]
    """Tiles still to find per team."""


@dataclass(frozen=True)
class TurnEnded(Event):
    """A team's turn is over."""

    team: Team
    """The team whose turn ended."""
    next_team: Team
    """The team to play next."""
    why: str
    """"passed", "neutral", "opponent", "guesses_used" or "invalid_clue"."""


@dataclass(frozen=True)
class GameOver(Event):
    """The game has ended."""

    winners: tuple[str, ...]
    """The winning team's name, e.g. ("red",)."""
    reason: str
    """"all_agents_found" (the winners' tiles are all covered) or "assassin" (the other team
    touched the assassin)."""
    scores: tuple[tuple[str, int], ...]
    """Tiles covered (agents found) per team: (("red", n), ("blue", m))."""


# --------------------------------------------------------------------------- the state


def _team_value(value: object) -> Team | None:
    if not isinstance(value, str):
        return None
    try:
        return Team(value)
    except ValueError:
        return None


class CodenamesState:
    """A game of Codenames. Create with :meth:`new`."""

    description: ClassVar[GameDescription] = GameDescription(
        name="codenames",
        title="Codenames",
        min_players=4,
        max_players=12,
    )
    refusals: ClassVar[type[IllegalAction]] = CodenamesRefusal
    action_types: ClassVar[tuple[type[Action], ...]] = (
        DealGrid, GiveClue, Guess, EndTurn, StateColour, CoverPenalty,
    )
    event_types: ClassVar[tuple[type[Event], ...]] = (
        GridDealt, KeyDealt, TurnStarted, ClueGiven, InvalidClue, TileTouched, GuessResolved,
        PenaltyCovered, TurnEnded, GameOver,
    )

    def __init__(self, players: tuple[str, ...], *, red_size: int, deal: Deal,
                 first: Team | None, words: str, invalid_clue: str) -> None:
        self._players = players
        self._red_size = red_size
        self._deal = deal
        self._first_option = first
        self._language = words
        self._invalid_clue = invalid_clue
        self._phase = Phase.DEAL
        self._words: tuple[str, ...] = ()
        self._folded: dict[str, int] = {}
        self._key: tuple[Colour, ...] | None = None
        self._first: Team | None = None
        self._covered: list[Colour | None] = [None] * GRID_SIZE
        self._team: Team = first or Team.RED
        self._clue_word: str | None = None
        self._clue_number: int | None = None
        self._guesses = 0
        self._pending: int | None = None
        self._winner: Team | None = None
        self._end_reason: str | None = None
        self._clues: list[tuple[Team, str, int | None]] = []
        self._history: list[JSON] = []

    @classmethod
    def new(cls, players: Sequence[str], *, deal: Deal | str = Deal.TABLE,
            red_size: int | None = None, first: Team | str | None = None, words: str = "en",
            invalid_clue: str = "refuse") -> CodenamesState:
        """A new game. ``players`` are the red team then the blue team, each in seat order;
        the first player of each team is its spymaster."""
        names = check_player_names(players, cls.description)
        n = len(names)
        try:
            deal = Deal(deal)
        except ValueError:
            raise SetupError("setup.deal", deal=str(deal)) from None
        if red_size is None:
            red_size = math.ceil(n / 2)
        red, blue = Term("red", "red"), Term("blue", "blue")  # a team in a sentence
        if isinstance(red_size, bool) or not isinstance(red_size, int):
            raise SetupError("setup.red_size_number")
        if red_size < 2 or n - red_size < 2:
            small, big = (red, blue) if red_size < 2 else (blue, red)
            raise SetupError("setup.teams_too_small", red=red_size, blue=n - red_size,
                             big=big, small=small)
        first_team: Team | None = None
        if first is not None:
            first_team = _team_value(first)
            if first_team is None:
                raise SetupError("setup.first_team", first=str(first))
        if words not in WORD_LISTS:
            raise SetupError("setup.word_list", words=str(words))
        if invalid_clue not in INVALID_CLUE_MODES:
            raise SetupError("setup.invalid_clue", value=str(invalid_clue))
        return cls(names, red_size=red_size, deal=deal, first=first_team, words=words,
                   invalid_clue=invalid_clue)

    # ----------------------------------------------------------------- read-only facts

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def deal(self) -> Deal:
        return self._deal

    @property
    def language(self) -> str:
        """The word list's language ("en" or "fr"); it also picks the clue rules."""
        return self._language

    @property
    def invalid_clue(self) -> str:
        """"refuse" or "penalty"."""
        return self._invalid_clue

    def phase(self) -> str:
        return self._phase.value

    def team_players(self, team: Team) -> tuple[str, ...]:
        """The players of ``team``, spymaster first."""
        if team is Team.RED:
            return self._players[: self._red_size]
        return self._players[self._red_size:]

    def spymaster(self, team: Team) -> str:
        """The spymaster of ``team``."""
        return self.team_players(team)[0]

    def operatives(self, team: Team) -> tuple[str, ...]:
        """The players of ``team`` who guess."""
        return self.team_players(team)[1:]

    def team_of(self, player: str) -> Team | None:
        """The team of ``player`` (None for an unknown name)."""
        if player not in self._players:
            return None
        return Team.RED if self._players.index(player) < self._red_size else Team.BLUE

    def is_spymaster(self, player: str) -> bool:
        return player in (self.spymaster(Team.RED), self.spymaster(Team.BLUE))

    @property
    def words(self) -> tuple[str, ...]:
        """The 25 grid words, row by row (empty before the deal)."""
        return self._words

    def rows(self) -> tuple[tuple[str, ...], ...]:
        """The grid as 5 rows of 5 words, for reading aloud."""
        return tuple(self._words[i:i + GRID_SIDE] for i in range(0, len(self._words), GRID_SIDE))

    def uncovered_words(self) -> tuple[str, ...]:
        """Words still visible, in grid order."""
        return tuple(w for w, c in zip(self._words, self._covered, strict=False) if c is None)

    def covered_colour(self, word: str) -> Colour | None:
        """The colour a word was covered with (None if visible or not on the board)."""
        i = self._folded.get(lookup_key(word))
        return None if i is None else self._covered[i]

    def find_word(self, word: str) -> str | None:
        """The grid's spelling of ``word`` (matched ignoring case and accents), or None."""
        i = self._folded.get(lookup_key(word))
        return None if i is None else self._words[i]

    @property
    def first(self) -> Team | None:
        """The starting team (None before the deal)."""
        return self._first

    @property
    def current_team(self) -> Team:
        """The team whose turn it is (in the penalty phase, the team that covers a word)."""
        return self._team

    @property
    def clue(self) -> tuple[str, int | None] | None:
        """The current clue (word, number; number None = unlimited), or None."""
        if self._clue_word is None:
            return None
        return (self._clue_word, self._clue_number)

    @property
    def guesses_made(self) -> int:
        """Guesses made this turn."""
        return self._guesses

    @property
    def guesses_left(self) -> int | None:
        """Guesses left this turn (None = no limit; 0 outside the guess phase)."""
        if self._phase not in (Phase.GUESS, Phase.COLOUR):
            return 0
        allowed = guesses_allowed(self._clue_number)
        return None if allowed is None else allowed - self._guesses

    @property
    def pending_word(self) -> str | None:
        """Table mode: the touched word whose colour is awaited."""
        return None if self._pending is None else self._words[self._pending]

    def total_tiles(self, colour: Colour) -> int:
        """How many tiles of ``colour`` the key has (0 before the deal)."""
        if self._first is None:
            return 0
        return key_counts(self._first)[colour]

    def covered_count(self, colour: Colour) -> int:
        return sum(1 for c in self._covered if c is colour)

    def remaining(self, team: Team) -> int:
        """Tiles of ``team`` still to find."""
        colour = team_colour(team)
        return self.total_tiles(colour) - self.covered_count(colour)

    def remaining_tiles(self) -> dict[str, int]:
        """Tiles still to find per team name."""
        return {t.value: self.remaining(t) for t in Team}

    @property
    def clues(self) -> tuple[tuple[Team, str, int | None], ...]:
        """Every clue given so far: (team, word, number)."""
        return tuple(self._clues)

    @property
    def winner(self) -> Team | None:
        return self._winner

    def clue_problem(self, word: str) -> CodenamesRefusal | None:
        """Why ``word`` is not a valid clue on this board now, or None."""
        return clue_problem(word, self.uncovered_words(), language=self._language)

    def is_chance_node(self) -> bool:
        return self._phase is Phase.DEAL

    def is_terminal(self) -> bool:
        return self._phase is Phase.OVER

    def outcome(self) -> Outcome | None:
        if self._winner is None or self._end_reason is None:
            return None
        return Outcome(winners=(self._winner.value,), scores=dict(self._scores()),
                       reason=self._end_reason)

    def current_players(self) -> tuple[str, ...]:
        if self._phase in (Phase.CLUE, Phase.COLOUR, Phase.PENALTY):
            return (self.spymaster(self._team),)
        if self._phase is Phase.GUESS:
            return self.operatives(self._team)
        return ()

    # ----------------------------------------------------------------- chance

    def chance_action(self, rng: random.Random) -> DealGrid:
        """25 distinct words from the word list; in host mode a shuffled key; the starting
        team from the ``first`` option or drawn at random."""
        if self._phase is not Phase.DEAL:
            raise GameError("The grid has already been dealt.")
        words = tuple(rng.sample(WORD_LISTS[self._language], GRID_SIZE))
        first = self._first_option or rng.choice((Team.RED, Team.BLUE))
        key: tuple[Colour, ...] | None = None
        if self._deal is Deal.HOST:
            pile = [c for c, k in key_counts(first).items() for _ in range(k)]
            rng.shuffle(pile)
            key = tuple(pile)
        return DealGrid(words=words, key=key, first=first)

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """Every legal action now (for ``player`` when given).

        In the clue phase the true set is open (any valid word), so this returns a
        representative finite set: the first three valid words of the word list with every
        number 0-9 and unlimited (plus, with the penalty option, one invalid clue: a visible
        word). Empty at the chance node and at the end."""
        if self._phase in (Phase.DEAL, Phase.OVER):
            return []
        if player is not None and player not in self.current_players():
            return []
        team = self._team
        if self._phase is Phase.CLUE:
            numbers: list[int | None] = [*range(MAX_CLUE_NUMBER + 1), None]
            spymaster = self.spymaster(team)
            actions: list[Action] = [GiveClue(spymaster, w, n)
                                     for w in self._clue_candidates(3) for n in numbers]
            if self._invalid_clue == "penalty":
                actions.append(GiveClue(spymaster, self.uncovered_words()[0], 1))
            return actions
        if self._phase is Phase.GUESS:
            guessers = self.operatives(team) if player is None else (player,)
            guesses: list[Action] = [Guess(p, w) for p in guessers
                                     for w in self.uncovered_words()]
            if self._guesses > 0:
                guesses.extend(EndTurn(p) for p in guessers)
            return guesses
        if self._phase is Phase.COLOUR:
            word = self.pending_word
            assert word is not None
            return [StateColour(self.spymaster(team), word, c) for c in Colour
                    if self._colour_left(c) > 0]
        # penalty
        return [CoverPenalty(self.spymaster(team), w) for w in self._penalty_words()]

    def _clue_candidates(self, count: int) -> list[str]:
        visible = self.uncovered_words()
        out: list[str] = []
        for w in WORD_LISTS[self._language]:
            if clue_problem(w, visible, language=self._language) is None:
                out.append(w)
                if len(out) == count:
                    break
        return out

    def _colour_left(self, colour: Colour) -> int:
        return self.total_tiles(colour) - self.covered_count(colour)

    def _penalty_words(self) -> list[str]:
        colour = team_colour(self._team)
        return [w for i, w in enumerate(self._words) if self._covered[i] is None
                and (self._key is None or self._key[i] is colour)]

    def random_action(self, rng: random.Random) -> Action:
        """A random legal action, fast: a random valid clue word from the word list with a
        random number (with the penalty option, now and then a visible word); a random
        uncovered tile or, after a guess, a pass now and then; in table mode a colour drawn
        in proportion to the tiles of each colour still hidden."""
        if self._phase is Phase.DEAL:
            return self.chance_action(rng)
        team = self._team
        if self._phase is Phase.CLUE:
            numbers: list[int | None] = [*range(MAX_CLUE_NUMBER + 1), None]
            number = rng.choice(numbers)
            visible = self.uncovered_words()
            spymaster = self.spymaster(team)
            if self._invalid_clue == "penalty" and rng.random() < 0.05:
                return GiveClue(spymaster, rng.choice(visible), number)
            word_list = WORD_LISTS[self._language]
            for _ in range(50):
                word = rng.choice(word_list)
                if clue_problem(word, visible, language=self._language) is None:
                    return GiveClue(spymaster, word, number)
            return GiveClue(spymaster, rng.choice(self._clue_candidates(1)), number)
        if self._phase is Phase.GUESS:
            operative = rng.choice(self.operatives(team))
            if self._guesses > 0 and rng.random() < 0.25:
                return EndTurn(operative)
            return Guess(operative, rng.choice(self.uncovered_words()))
        if self._phase is Phase.COLOUR:
            touched = self.pending_word
            assert touched is not None
            colours = list(Colour)
            weights = [self._colour_left(c) for c in colours]
            return StateColour(self.spymaster(team), touched,
                               rng.choices(colours, weights=weights)[0])
        if self._phase is Phase.PENALTY:
            return CoverPenalty(self.spymaster(team), rng.choice(self._penalty_words()))
        raise GameError("The game is over.")

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action``; raise IllegalAction (state unchanged) when the rules forbid it."""
        if not isinstance(action, self.action_types):
            raise CodenamesRefusal("not_a_move")
        if self._phase is Phase.OVER:
            raise CodenamesRefusal("game_over")
        if isinstance(action, DealGrid):
            events = self._apply_deal(action)
        elif self._phase is Phase.DEAL:
            raise CodenamesRefusal("not_dealt")
        elif isinstance(action, GiveClue):
            events = self._apply_clue(action)
        elif isinstance(action, Guess):
            events = self._apply_guess(action)
        elif isinstance(action, EndTurn):
            events = self._apply_end_turn(action)
        elif isinstance(action, StateColour):
            events = self._apply_colour(action)
        else:
            assert isinstance(action, CoverPenalty)
            events = self._apply_penalty(action)
        self._history.append(action_to_json(action))
        return events

    def _check_player(self, player: object) -> str:
        if not isinstance(player, str) or self.team_of(player) is None:
            raise CodenamesRefusal("unknown_player", player=str(player))
        return player

    def _check_spymaster(self, player: object, action: Action) -> Team:
        """Only the spymaster of the team whose turn it is gives the clue, says a colour or
        covers the penalty word."""
        name = self._check_player(player)
        team = self._team
        spymaster = self.spymaster(team)
        if name != spymaster:
            if isinstance(action, GiveClue):
                raise CodenamesRefusal("clue_by_spymaster", player=name, spymaster=spymaster,
                                       team=team)
            if isinstance(action, StateColour):
                raise CodenamesRefusal("colour_by_spymaster", player=name, spymaster=spymaster,
                                       word=self.pending_word)
            raise CodenamesRefusal("penalty_by_spymaster", player=name, spymaster=spymaster)
        return team

    def _check_operative(self, player: object) -> Team:
        """Only an operative of the team whose turn it is guesses or passes."""
        name = self._check_player(player)
        team = self._team
        if name == self.spymaster(team):
            raise CodenamesRefusal("spymaster_cannot_guess", player=name,
                                   operatives=self.operatives(team))
        if self.team_of(name) is not team:
            raise CodenamesRefusal("other_team_guesses", player=name, team=team)
        return team

    def _wrong_phase(self) -> CodenamesRefusal:
        """The refusal of a move made in another phase (apply's other checks leave only the
        clue, guess, colour and penalty phases here)."""
        team = self._team
        if self._phase is Phase.CLUE:
            return CodenamesRefusal("clue_first", team=team)
        if self._phase is Phase.GUESS:
            return CodenamesRefusal("guessing_now", team=team)
        if self._phase is Phase.COLOUR:
            return CodenamesRefusal("colour_first", team=team, word=self.pending_word)
        assert self._phase is Phase.PENALTY, self._phase
        return CodenamesRefusal("penalty_first", team=team)

    def _apply_deal(self, action: DealGrid) -> list[Event]:
        if self._phase is not Phase.DEAL:
            raise CodenamesRefusal("already_dealt")
        first = _team_value(action.first)
        if first is None:
            raise CodenamesRefusal("unknown_team", team=str(action.first))
        if self._first_option is not None and first is not self._first_option:
            raise CodenamesRefusal("first_fixed", team=self._first_option)
        words = tuple(action.words)
        if len(words) != GRID_SIZE:
            raise CodenamesRefusal("grid_size", size=GRID_SIZE, count=len(words))
        folded: dict[str, int] = {}
        for i, w in enumerate(words):
            if not isinstance(w, str):
                raise CodenamesRefusal("grid_word_type")
            problem = grid_word_problem(w)
            if problem:
                raise problem
            f = lookup_key(w)
            if f in folded:
                raise CodenamesRefusal("grid_word_twice", word=_spoken(w))
            folded[f] = i
        key: tuple[Colour, ...] | None = None
        if self._deal is Deal.HOST:
            if action.key is None:
                raise CodenamesRefusal("key_missing")
            try:
                key = tuple(Colour(c) for c in action.key)
            except ValueError:
                raise CodenamesRefusal("key_unknown_colour") from None
            if len(key) != GRID_SIZE:
                raise CodenamesRefusal("key_size", size=GRID_SIZE, count=len(key))
            for colour, count in key_counts(first).items():
                if key.count(colour) != count:
                    raise CodenamesRefusal("key_counts", count=count, tile=colour,
                                           found=key.count(colour))
        elif action.key is not None:
            raise CodenamesRefusal("key_in_table_mode")
        # mutate
        self._words = words
        self._folded = folded
        self._key = key
        self._first = first
        self._team = first
        self._phase = Phase.CLUE
        events: list[Event] = [GridDealt(words=words, first=first)]
        if key is not None:
            events.append(KeyDealt(key=key, first=first, audience=(
                self.spymaster(Team.RED), self.spymaster(Team.BLUE))))
        events.append(TurnStarted(team=first, spymaster=self.spymaster(first)))
        return events

    def _apply_clue(self, action: GiveClue) -> list[Event]:
        if self._phase is not Phase.CLUE:
            raise self._wrong_phase()
        team = self._check_spymaster(action.player, action)
        if not isinstance(action.word, str):
            raise CodenamesRefusal("clue_empty")
        number = number_problem(action.number)
        if number:
            raise number
        word = action.word.strip()
        spymaster = self.spymaster(team)
        problem = self.clue_problem(word)
        if problem and (self._invalid_clue == "refuse" or not word):
            raise problem
        if problem:
            # penalty option: the invalid clue was played; the turn ends at once
            nxt = team.other
            self._team = nxt
            self._phase = Phase.PENALTY
            return [
                InvalidClue(team=team, spymaster=spymaster, word=word, number=action.number,
                            problem=problem.code,
                            problem_params=tuple((k, str(v)) for k, v in problem.params.items())),
                TurnEnded(team=team, next_team=nxt, why="invalid_clue"),
            ]
        self._clue_word = word
        self._clue_number = action.number
        self._guesses = 0
        self._phase = Phase.GUESS
        self._clues.append((team, word, action.number))
        return [ClueGiven(team=team, spymaster=spymaster, word=word, number=action.number,
                          guesses_allowed=guesses_allowed(action.number))]

    def _tile_index(self, word: object) -> int:
        if not isinstance(word, str) or not word.strip():
            raise CodenamesRefusal("guess_no_word")
        i = self._folded.get(lookup_key(word))
        if i is None:
            raise CodenamesRefusal("not_on_board", word=_spoken(word))
        covered = self._covered[i]
        if covered is not None:
            raise CodenamesRefusal("already_covered", word=_spoken(self._words[i]),
                                   colour=covered)
        return i

    def _apply_guess(self, action: Guess) -> list[Event]:
        if self._phase is not Phase.GUESS:
            raise self._wrong_phase()
        team = self._check_operative(action.player)
        i = self._tile_index(action.word)
        if self._key is None:
            self._pending = i
            self._phase = Phase.COLOUR
            self._guesses += 1
            return [TileTouched(team=team, word=self._words[i], spymaster=self.spymaster(team))]
        self._guesses += 1
        return self._resolve(i, self._key[i])

    def _apply_colour(self, action: StateColour) -> list[Event]:
        if self._phase is not Phase.COLOUR:
            raise self._wrong_phase()
        assert self._pending is not None
        self._check_spymaster(action.player, action)
        word = self._words[self._pending]
        if not isinstance(action.word, str) or not same(action.word, word):
            raise CodenamesRefusal("colour_of", word=word)
        try:
            colour = Colour(action.colour)
        except ValueError:
            raise CodenamesRefusal("colour_unknown", colour=_spoken(str(action.colour))) \
                from None
        if self._colour_left(colour) <= 0:
            raise self._no_colour_left(colour)
        i = self._pending
        self._pending = None
        return self._resolve(i, colour)

    def _no_colour_left(self, colour: Colour) -> CodenamesRefusal:
        total = self.total_tiles(colour)
        if colour is Colour.ASSASSIN:
            return CodenamesRefusal("no_assassin_left")
        if colour is Colour.NEUTRAL:
            return CodenamesRefusal("no_bystander_left", total=total)
        return CodenamesRefusal("no_team_tile_left", total=total, team=Team(colour.value))

    def _resolve(self, i: int, colour: Colour) -> list[Event]:
        """Cover tile ``i`` with ``colour`` after a guess (mutates; the guess is legal)."""
        team = self._team
        self._covered[i] = colour
        word = self._words[i]
        own = colour is team_colour(team)
        allowed = guesses_allowed(self._clue_number)
        left: int | None
        if not own:
            left = 0
        else:
            left = None if allowed is None else allowed - self._guesses
        events: list[Event] = [GuessResolved(team=team, word=word, colour=colour,
                                             guesses_left=left, remaining=self._remaining_pairs())]
        if colour is Colour.ASSASSIN:
            events.append(self._finish(team.other, "assassin"))
            return events
        winner = self._all_found()
        if winner is not None:
            events.append(self._finish(winner, "all_agents_found"))
            return events
        if own and left != 0:
            self._phase = Phase.GUESS
            return events
        why = "guesses_used" if own else ("neutral" if colour is Colour.NEUTRAL else "opponent")
        events.extend(self._end_turn(why))
        return events

    def _apply_end_turn(self, action: EndTurn) -> list[Event]:
        if self._phase is not Phase.GUESS:
            raise self._wrong_phase()
        self._check_operative(action.player)
        if self._guesses == 0:
            raise CodenamesRefusal("pass_too_early")
        return self._end_turn("passed")

    def _apply_penalty(self, action: CoverPenalty) -> list[Event]:
        if self._phase is not Phase.PENALTY:
            raise self._wrong_phase()
        team = self._check_spymaster(action.player, action)
        i = self._tile_index(action.word)
        colour = team_colour(team)
        if self._key is not None and self._key[i] is not colour:
            raise CodenamesRefusal("penalty_not_own", word=_spoken(self._words[i]), team=team)
        self._covered[i] = colour
        events: list[Event] = [PenaltyCovered(team=team, spymaster=self.spymaster(team),
                                              word=self._words[i],
                                              remaining=self._remaining_pairs())]
        winner = self._all_found()
        if winner is not None:
            events.append(self._finish(winner, "all_agents_found"))
            return events
        self._phase = Phase.CLUE
        events.append(TurnStarted(team=team, spymaster=self.spymaster(team)))
        return events

    def _end_turn(self, why: str) -> list[Event]:
        team = self._team
        nxt = team.other
        self._team = nxt
        self._phase = Phase.CLUE
        self._clue_word = None
        self._clue_number = None
        self._guesses = 0
        return [TurnEnded(team=team, next_team=nxt, why=why),
                TurnStarted(team=nxt, spymaster=self.spymaster(nxt))]

    def _all_found(self) -> Team | None:
        for team in (self._team, self._team.other):
            if self.remaining(team) == 0:
                return team
        return None

    def _finish(self, winner: Team, reason: str) -> GameOver:
        self._winner = winner
        self._end_reason = reason
        self._phase = Phase.OVER
        self._pending = None
        return GameOver(winners=(winner.value,), reason=reason, scores=self._scores())

    def _scores(self) -> tuple[tuple[str, int], ...]:
        return tuple((t.value, self.covered_count(team_colour(t))) for t in Team)

    def _remaining_pairs(self) -> tuple[tuple[str, int], ...]:
        return tuple((t.value, self.remaining(t)) for t in Team)

    # ----------------------------------------------------------------- views

    def public_view(self) -> JSON:
        """Only public facts: the grid with covered colours, whose turn, the clue, guesses
        left and tiles left per team."""
        clue = None
        if self._clue_word is not None:
            clue = {"word": self._clue_word, "number": self._clue_number,
                    "unlimited": self._clue_number is None}
        return {
            "game": self.description.name,
            "phase": self._phase.value,
            "deal": self._deal.value,
            "language": self._language,
            "invalid_clue": self._invalid_clue,
            "teams": {t.value: list(self.team_players(t)) for t in Team},
            "spymasters": {t.value: self.spymaster(t) for t in Team},
            "grid": [{"word": w, "covered": None if c is None else c.value}
                     for w, c in zip(self._words, self._covered, strict=True)]
            if self._words else [],
            "rows": [list(r) for r in self.rows()],
            "first": None if self._first is None else self._first.value,
            "team": None if self._phase in (Phase.DEAL, Phase.OVER) else self._team.value,
            "to_act": list(self.current_players()),
            "clue": clue,
            "guesses_made": self._guesses,
            "guesses_left": self.guesses_left,
            "pending": self.pending_word,
            "remaining": self.remaining_tiles(),
            "clues": [{"team": t.value, "word": w, "number": n} for t, w, n in self._clues],
            "winner": None if self._winner is None else self._winner.value,
            "reason": self._end_reason,
        }

    def player_view(self, player: str) -> JSON:
        """The public view plus, for a spymaster in host mode, the key. Operatives never see
        the key; in table mode nobody does (the engine does not know it)."""
        team = self.team_of(player)
        if team is None:
            raise GameError(f"{player} is not playing.")
        view = self.public_view()
        spymaster = self.is_spymaster(player)
        view["you"] = {"name": player, "team": team.value, "spymaster": spymaster}
        if spymaster and self._key is not None:
            view["key"] = [c.value for c in self._key]
        return view

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> JSON:
        return {
            "game": self.description.name,
            "version": VERSION,
            "players": list(self._players),
            "red_size": self._red_size,
            "deal": self._deal.value,
            "first_option": None if self._first_option is None else self._first_option.value,
            "words_option": self._language,
            "invalid_clue": self._invalid_clue,
            "phase": self._phase.value,
            "words": list(self._words),
            "key": None if self._key is None else [c.value for c in self._key],
            "first": None if self._first is None else self._first.value,
            "covered": [None if c is None else c.value for c in self._covered],
            "team": self._team.value,
            "clue_word": self._clue_word,
            "clue_number": self._clue_number,
            "guesses": self._guesses,
            "pending": self._pending,
            "winner": None if self._winner is None else self._winner.value,
            "end_reason": self._end_reason,
            "clues": [[t.value, w, n] for t, w, n in self._clues],
            "history": [dict(a) for a in self._history],
        }

    def copy(self) -> CodenamesState:
        return CodenamesState.from_json(self.to_json())

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CodenamesState:
        if data.get("game") == cls.description.name and data.get("version") == 1:
            return cls._from_version_1(data)
        if data.get("game") != cls.description.name or data.get("version") != VERSION:
            raise GameError("This saved game is not a Codenames game I can read.")
        first_option = data["first_option"]
        state = cls(tuple(data["players"]), red_size=int(data["red_size"]),
                    deal=Deal(data["deal"]),
                    first=None if first_option is None else Team(first_option),
                    words=str(data["words_option"]), invalid_clue=str(data["invalid_clue"]))
        state._phase = Phase(data["phase"])
        state._words = tuple(data["words"])
        state._folded = {lookup_key(w): i for i, w in enumerate(state._words)}
        state._key = None if data["key"] is None else tuple(Colour(c) for c in data["key"])
        state._first = None if data["first"] is None else Team(data["first"])
        state._covered = [None if c is None else Colour(c) for c in data["covered"]]
        state._team = Team(data["team"])
        state._clue_word = data["clue_word"]
        state._clue_number = data["clue_number"]
        state._guesses = int(data["guesses"])
        state._pending = data["pending"]
        state._winner = None if data["winner"] is None else Team(data["winner"])
        state._end_reason = data["end_reason"]
        state._clues = [(Team(t), w, n) for t, w, n in data["clues"]]
        state._history = [dict(a) for a in data["history"]]
        return state

    @classmethod
    def _from_version_1(cls, data: Mapping[str, Any]) -> CodenamesState:
        """A game saved when clues, guesses and passes named a team, not a player: its
        history is replayed, each clue, colour and penalty the spymaster's and each guess or
        pass the team's first operative's, and the result must be the saved game."""
        first_option = data["first_option"]
        fresh = cls(tuple(data["players"]), red_size=int(data["red_size"]),
                    deal=Deal(data["deal"]),
                    first=None if first_option is None else Team(first_option),
                    words=str(data["words_option"]), invalid_clue=str(data["invalid_clue"]))
        return replay(fresh, data, _upgrade_version_1)

    def history(self) -> list[Action]:
        """Every action applied so far, in order."""
        return [action_from_json(type(self), a) for a in self._history]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CodenamesState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"CodenamesState(phase={self._phase.value}, team={self._team.value}, "
                f"remaining={self.remaining_tiles()})")
