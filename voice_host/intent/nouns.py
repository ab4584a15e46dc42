"""The nouns a game names (Ici Londres's icons) with their articles, from the grammar's data:
the language's articles (``[articles]`` of ``common.toml``) and the game's nouns' genders
(``[genders]`` of the game's file). A language whose grammar has no articles (English)
names its nouns bare."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Articles:
    """A language's definite and indefinite articles, by gender, and where they elide."""

    definite: Mapping[str, str]
    """Gender ("masculine", "feminine") -> definite article ("le", "la")."""
    indefinite: Mapping[str, str]
    """Gender -> indefinite article ("un", "une")."""
    elided: str
    """The definite article before a vowel or a mute h, written against the noun ("l'")."""
    vowels: frozenset[str]
    """Letters a noun starts with that elide the article before it."""
    h_muet: tuple[str, ...]
    """Nouns starting with an h that elides it ("horloge"; "hibou" does not)."""

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> Articles:
        return cls(dict(table["definite"]), dict(table["indefinite"]),
                   str(table.get("elided", "")), frozenset(str(table.get("vowels", ""))),
                   tuple(str(w) for w in table.get("h_muet", ())))

    def elides(self, noun: str) -> bool:
        """Whether the definite article elides before ``noun``."""
        return bool(self.elided) and (noun[:1].lower() in self.vowels
                                      or noun.lower().startswith(self.h_muet))

    def forms(self, noun: str, gender: str) -> tuple[str, str, str]:
        """``noun`` bare, with its definite article and with its indefinite one."""
        definite = f"{self.elided}{noun}" if self.elides(noun) else \
            f"{self.definite[gender]} {noun}"
        return noun, definite, f"{self.indefinite[gender]} {noun}"


@dataclass(frozen=True)
class Nouns:
    """The articles of a grammar's language and the genders of its game's nouns."""

    articles: Articles | None
    """None: the language names its nouns bare."""
    genders: Mapping[str, str]
    """Noun -> its gender, for every noun not of ``default_gender``."""
    default_gender: str = "masculine"
    """The gender of a noun the table does not list."""

    @classmethod
    def from_data(cls, articles: Mapping[str, Any] | None,
                  genders: Mapping[str, Any] | None) -> Nouns:
        """From the ``[articles]`` and ``[genders]`` tables (``genders``: gender -> the
        nouns of that gender; ``default`` names the gender of the others)."""
        table = dict(genders or {})
        default = str(table.pop("default", "masculine"))
        by_noun = {str(noun): gender for gender, nouns in table.items() for noun in nouns}
        return cls(Articles.from_table(articles) if articles else None, by_noun, default)

    def gender(self, noun: str) -> str:
        return self.genders.get(noun, self.default_gender)

    def forms(self, noun: str) -> tuple[str, ...]:
        """How a player names ``noun``: bare, and with each of its articles in its gender
        ("lapin", "le lapin", "un lapin"; "l'ancre"); bare only without articles."""
        if self.articles is None:
            return (noun,)
        return self.articles.forms(noun, self.gender(noun))
