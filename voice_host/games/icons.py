"""The 36 message icons of Ici Londres, as data.

The source names five icons (heart, book, bell, key, elephant); the other 31 were chosen for
this project in the designer's spirit: words with several meanings in French and/or English,
words found in proverbs and sayings, and symbols. Each icon has an English name (the engine's
identifier), its French noun without article, and the other words people really use to *name*
the picture (never clue associations). Plurals are the matcher's business and are not listed.

Speech constraints: every English name and synonym is a single common word found in the
US English pronouncing dictionary (the copy in voice_host/games/data, which PocketSphinx also
uses), no two icons share a word, and
no two words are near-homophones (at least two phonemes apart).
"""

from __future__ import annotations

from dataclasses import dataclass

DOUBLE_MEANING = "double meaning"
"""The word has several meanings (in French, in English or both)."""
PROVERB = "proverb"
"""The word appears in well-known proverbs or sayings."""
SYMBOL = "symbol"
"""The picture is a widely recognised symbol."""

KINDS: tuple[str, ...] = (DOUBLE_MEANING, PROVERB, SYMBOL)


@dataclass(frozen=True)
class Icon:
    """One message card's picture."""

    name: str
    """English identifier: one lowercase word, what the engine and the grammars use."""
    french: str
    """French noun without its article, e.g. ``"cœur"``."""
    synonyms: tuple[str, ...]
    """Other English words people use to name the picture (no plurals, no clue words)."""
    french_synonyms: tuple[str, ...]
    """Other French words people use to name the picture."""
    kind: str
    """Why the icon is in the set: one of :data:`KINDS`."""


def _icon(name: str, french: str, kind: str, synonyms: tuple[str, ...] = (),
          french_synonyms: tuple[str, ...] = ()) -> Icon:
    return Icon(name=name, french=french, synonyms=synonyms,
                french_synonyms=french_synonyms, kind=kind)


ICONS: tuple[Icon, ...] = (
    # the five icons the source names
    _icon("heart", "cœur", SYMBOL),
    _icon("book", "livre", DOUBLE_MEANING, ("novel",), ("bouquin",)),  # livre: book / pound
    _icon("bell", "cloche", PROVERB, ("chime",), ("clochette",)),  # Easter bells, saved by the bell
    _icon("key", "clé", DOUBLE_MEANING, (), ("clef",)),  # key / solution / clef in music
    _icon("elephant", "éléphant", PROVERB),  # in a china shop, in the room
    # words with several meanings
    _icon("anchor", "ancre", DOUBLE_MEANING),  # ancre / encre (ink)
    _icon("star", "étoile", DOUBLE_MEANING),  # a celebrity, a dancer
    _icon("candle", "bougie", DOUBLE_MEANING, (), ("chandelle",)),  # bougie: spark plug
    _icon("rose", "rose", DOUBLE_MEANING),  # the flower / the colour pink
    _icon("feather", "plume", DOUBLE_MEANING, ("quill",)),  # plume: pen
    _icon("glass", "verre", DOUBLE_MEANING),  # verre / vert / vers; glasses
    _icon("tower", "tour", DOUBLE_MEANING),  # tour: tower / turn / trick
    _icon("ladder", "échelle", DOUBLE_MEANING),  # échelle: scale; a ladder in tights
    _icon("compass", "boussole", DOUBLE_MEANING),  # north / drawing; perdre la boussole
    _icon("mouse", "souris", DOUBLE_MEANING),  # the animal / the computer's; il sourit
    _icon("owl", "chouette", DOUBLE_MEANING, (), ("hibou",)),  # chouette: great!
    _icon("pipe", "pipe", DOUBLE_MEANING),  # tobacco pipe / a tube
    _icon("umbrella", "parapluie", DOUBLE_MEANING, (), ("pépin",)),  # pépin: seed / trouble
    _icon("lightning", "éclair", DOUBLE_MEANING, ("thunderbolt",), ("foudre",)),  # a pastry
    _icon("violin", "violon", DOUBLE_MEANING, ("fiddle",)),  # violon d'Ingres: a hobby
    # words found in proverbs and sayings
    _icon("moon", "lune", PROVERB, ("crescent",), ("croissant",)),  # demander la lune
    _icon("boat", "bateau", PROVERB, ("ship",), ("navire", "barque")),  # mener en bateau
    _icon("cat", "chat", PROVERB, ("kitten",), ("chaton", "minou")),  # un chat dans la gorge
    _icon("wolf", "loup", PROVERB),  # quand on parle du loup; cry wolf
    _icon("spider", "araignée", PROVERB),  # une araignée au plafond
    _icon("apple", "pomme", PROVERB),  # an apple a day; tomber dans les pommes
    _icon("egg", "œuf", PROVERB),  # all your eggs in one basket
    _icon("fish", "poisson", PROVERB),  # poisson d'avril; a fish out of water
    _icon("rabbit", "lapin", PROVERB, ("bunny",)),  # poser un lapin
    _icon("mirror", "miroir", PROVERB, (), ("glace",)),  # le miroir aux alouettes
    # symbols
    _icon("crown", "couronne", SYMBOL),  # royalty
    _icon("skull", "crâne", SYMBOL, (), ("tête de mort",)),  # pirates, poison
    _icon("sun", "soleil", SYMBOL),  # the Sun King
    _icon("sword", "épée", SYMBOL, ("blade",), ("glaive",)),  # justice, Damocles
    _icon("clock", "horloge", SYMBOL, (), ("pendule",)),  # time running out
    _icon("snake", "serpent", SYMBOL, ("serpent",)),  # medicine, temptation
)

ICON_NAMES: tuple[str, ...] = tuple(icon.name for icon in ICONS)
"""The 36 English identifiers, in the order of :data:`ICONS`."""

_BY_NAME: dict[str, Icon] = {icon.name: icon for icon in ICONS}


def icon_by_name(name: str) -> Icon:
    """The icon called ``name`` (its English identifier, exactly). Raises ``KeyError``."""
    return _BY_NAME[name]


def is_icon(name: str) -> bool:
    """True when ``name`` is one of the 36 English identifiers."""
    return name in _BY_NAME


__all__ = [
    "DOUBLE_MEANING",
    "ICONS",
    "ICON_NAMES",
    "KINDS",
    "PROVERB",
    "SYMBOL",
    "Icon",
    "icon_by_name",
    "is_icon",
]
