"""Every counted line agrees with its number, in both languages: each line of the narration
tables is built with its numbers at 0, 1 and 2, and no noun after a number takes the wrong
number ("1 missions", French "0 cartes")."""

from __future__ import annotations

import re
import string

import pytest

from voice_host.host.core.narration import Narrator, catalogue
from voice_host.host.core.registry import game_names

PLURALS = {
    "en": ("missions", "rejections", "cards", "votes", "words", "guesses", "points", "rounds",
           "picks", "seconds", "agents", "sabotages", "icons", "clues", "tiles"),
    "fr": ("missions", "cartes", "mots", "essais", "points", "manches", "secondes", "agents",
           "sabotages", "icônes", "indices", "tuiles", "rejets"),
}
"""Plural nouns a number may stand before."""
SINGULARS = {
    "en": ("mission", "rejection", "card", "vote", "word", "guess", "point", "round", "pick",
           "second", "agent", "icon", "clue", "tile"),
    "fr": ("mission", "carte", "mot", "essai", "point", "manche", "seconde", "agent", "icône",
           "indice", "tuile"),
}

NUMBERS = {"count", "n", "successes", "failures", "yes_count", "no_count", "sabotages",
           "uncovered", "found", "seconds", "left"}
"""Fields that hold a number that may be 0, 1 or more (the seats at a table, a team's size
and the seven bystanders are never below two, so their lines keep a plural noun)."""


def _fields(template: str) -> list[str]:
    names = []
    for _, name, _, _ in string.Formatter().parse(template):
        if name and name not in names:
            names.append(name)
    return names


def _templates(lang: str) -> list[tuple[str, str]]:
    out = []
    for game in game_names():
        for key, value in catalogue(lang, game).items():
            for template in value if isinstance(value, list) else [value]:
                out.append((f"{game}:{key}", template))
    return out


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("number", [0, 1, 2])
def test_every_counted_line_agrees_with_its_number(lang: str, number: int) -> None:
    narrator = Narrator("resistance", lang)
    singular = narrator.singular(number)
    wrong = PLURALS[lang] if singular else SINGULARS[lang]
    bad = []
    for where, template in _templates(lang):
        game, key = where.split(":", 1)
        if key.endswith(("_0", "_1")) or key.endswith("_one") != singular \
                and key.endswith(("_one", "_many")):
            continue  # a line said only for that number, or for the other form
        counted = [f for f in _fields(template) if f in NUMBERS]
        if not counted:
            continue
        params = {f: (str(number) if f in counted else "Ada") for f in _fields(template)}
        line = Narrator(game, lang)
        try:
            said = line.text(key, variant=0, **params)
        except (KeyError, IndexError, ValueError):
            continue  # a line whose fields are not plain values (formatted elsewhere)
        for noun in wrong:
            if re.search(rf"(?<![\w,.]){number} {noun}\b", said):
                bad.append(f"{where}: {said}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("lang", "count", "expected"), [
    ("en", 0, "0 sabotage cards"), ("en", 1, "1 sabotage card"), ("en", 2, "2 sabotage cards"),
    ("fr", 0, "0 carte sabotage"), ("fr", 1, "1 carte sabotage"), ("fr", 2, "2 cartes sabotage"),
])
def test_a_count_picks_the_form_its_language_gives_that_number(
        lang: str, count: int, expected: str) -> None:
    assert Narrator("resistance", lang).text("resistance.sabotages_n", count=count) == expected


def test_a_number_said_in_words_keeps_the_plural() -> None:
    narrator = Narrator("resistance", "en")
    assert narrator.text("resistance.sabotages_n", count="several") == "several sabotage cards"
