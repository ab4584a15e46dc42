"""Narration text as data: per-language TOML resources under ``host/lang/<lang>/``.

A resource file maps keys to a sentence template or a list of variants (picked in turn, so
a long game does not repeat itself word for word). A key with a ``<key>_again`` sibling is
said in full the first time and by the sibling's (shorter) forms afterwards: the table hears
the vote instructions once, then "Three, two, one, vote!". Templates use ``{name}`` fields. A key
missing in French falls back to English, so a partial translation never silences the host.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from voice_host.games.base import join_names
from voice_host.host.core.langs import LANGS
from voice_host.host.core.values import Line, Style
from voice_host.intent import language_articles
from voice_host.speech.pronunciation import Pronunciation


def capitalized(text: str) -> str:
    """``text`` with its first letter upper-case (a sentence that opens with a field)."""
    return text[:1].upper() + text[1:]


_PLURAL = re.compile(r"\{(\w+):((?:[^{}|]|\{\w+\})*)\|((?:[^{}|]|\{\w+\})*)\}")
"""``{count:card|cards}`` in a template: the word that agrees with the number ``count``
("1 card", "2 cards"; French "0 carte", "1 carte", "2 cartes"). A form may hold fields of
its own: ``{count:once|{count} times}``."""


class NarrationError(KeyError):
    """A narration key is missing in every language (a bug, never a user error)."""


@dataclass(frozen=True)
class Quantity:
    """A measured amount as a narration field: said with the language's decimal mark and
    the unit's singular or plural ("0.9 seconds", "0,9 seconde")."""

    value: float
    unit: str
    """Narration key of the unit's forms: ``<unit>_one`` and ``<unit>_many`` (``{n}``)."""
    digits: int = 1


def narration_dir() -> Traversable:
    """Where the narration files live: the package's ``host/lang``, or the folder
    ``VOICE_HOST_NARRATION`` names (for development)."""
    override = os.environ.get("VOICE_HOST_NARRATION")
    if override:
        return Path(override)
    return resources.files("voice_host.host") / "lang"


@cache
def _load(lang: str, name: str) -> Mapping[str, Any]:
    root = narration_dir() / lang / f"{name}.toml"
    if not root.is_file():
        return {}
    return tomllib.loads(root.read_text(encoding="utf-8"))


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, str | list[str]]:
    out: dict[str, str | list[str]] = {}
    for key, value in data.items():
        full = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flatten(value, full + "."))
        else:
            out[full] = value
    return out


@cache
def catalogue(lang: str, game: str) -> Mapping[str, str | list[str]]:
    """All keys for a game in a language, common ones included."""
    table = _flatten(_load(lang, "common"))
    table.update(_flatten(_load(lang, game)))
    return table


def forget_loaded() -> None:
    """Forget the cached narration files: the next look-up reads them again (after the
    narration folder changed, e.g. ``VOICE_HOST_NARRATION``)."""
    _load.cache_clear()
    catalogue.cache_clear()


@cache
def pronunciations() -> dict[str, dict[str, Pronunciation]]:
    """Per engine family (``piper``, ``espeak``) and narration language, what the voice says
    in another language's voice or respelled (``host/lang/<lang>/speech.toml``)."""
    out: dict[str, dict[str, Pronunciation]] = {}
    for lang in LANGS:
        for family, table in _load(lang, "speech").items():
            out.setdefault(family, {})[lang] = Pronunciation(
                foreign=dict(table.get("foreign", {})), respell=dict(table.get("respell", {})))
    return out


def elides_before(word: str, lang: str) -> bool:
    """Whether a French article or "de", "que" before ``word`` elides ("l'ancre", "d'Eve"):
    the letters (and the mute-h words) are the grammar's (``[articles]`` of its
    ``common.toml``), so the host writes what a player's grammar reads."""
    articles = language_articles(lang)
    return articles is not None and articles.elides(word)


def _elide(template: str, params: Mapping[str, Any], elided: Sequence[str],
           lang: str) -> str:
    """``de {name}`` written ``d'{name}`` when the name starts with a vowel ("l'équipe d'Eve",
    not "de Eve"), for each word of ``elided`` right before a field."""
    if not elided:
        return template

    def one(found: re.Match[str]) -> str:
        value = params.get(found[2])
        if isinstance(value, str) and elides_before(value, lang):
            return found[1][:-1] + "'{" + found[2] + "}"
        return found[0]

    words = "|".join(re.escape(w) for w in elided)
    return re.sub(rf"\b({words}) \{{(\w+)\}}", one, template, flags=re.IGNORECASE)


def grouped(narrator: Narrator, lines: Sequence[Line]) -> list[Line]:
    """``lines`` with each run of two or more lines of one ``group`` (the same sentence for
    one player after another: "Ada, your secret is in the file ...", "Ben, your secret ...")
    said as one line of the key's ``_group`` form, naming the players together."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        run, private = [line], []
        j = i + 1
        while j < len(lines) and line.group:
            if lines[j].style is Style.PRIVATE:  # the secrets themselves go on as they are
                private.append(lines[j])
            elif lines[j].group == line.group and lines[j].lang == line.lang:
                run.append(lines[j])
            else:
                break
            j += 1
        key = f"{line.group}_group"
        if len(run) >= 2 and narrator.has(key, line.lang):
            players = [str(x.player) for x in run]
            out.extend(private)
            out.append(narrator.line(key, lang=line.lang,
                                     players=narrator.names(players, lang=line.lang)))
            i = j
        else:
            out.append(line)
            i += 1
    return out


class Narrator:
    """Turns keys and parameters into Lines in the session's language."""

    def __init__(self, game: str, lang: str = "en") -> None:
        if lang not in LANGS:
            raise ValueError(f"unsupported language {lang!r}")
        self.game = game
        self.lang = lang
        self._turns: dict[str, int] = {}

    @property
    def turns(self) -> dict[str, int]:
        """How far each varied sentence has turned (saved with the game)."""
        return dict(self._turns)

    def restore_turns(self, turns: Mapping[str, int]) -> None:
        self._turns = dict(turns)

    def has(self, key: str, lang: str | None = None) -> bool:
        return key in catalogue(lang or self.lang, self.game) or key in catalogue("en", self.game)

    def text(self, key: str, /, *, lang: str | None = None, variant: int | None = None,
             **params: Any) -> str:
        lang = lang or self.lang
        table = catalogue(lang, self.game)
        if key not in table:
            table = catalogue("en", self.game)
            if key not in table:
                raise NarrationError(key)
        again = f"{key}_again"
        if again in table:  # said once in full, then in short
            if self._turns.get(key, 0) > 0:
                self._turns[key] += 1
                key = again
            elif not isinstance(table[key], list):
                self._turns[key] = 1
        template = table[key]
        if isinstance(template, list):
            n = self._turns.get(key, 0) if variant is None else variant
            self._turns[key] = n + 1
            template = template[n % len(template)]
        for name, value in params.items():
            if isinstance(value, Quantity):
                params[name] = self.quantity(value, lang)
        template = _PLURAL.sub(lambda found: self._agreed(found, params, lang), template)
        return _elide(template, params, self._elided(lang), lang).format(**params)

    def singular(self, count: float, lang: str | None = None) -> bool:
        """Whether a noun after ``count`` is singular in ``lang``: exactly one, or below
        ``common.singular_below`` (French says "0 mission", "1 mission", English "0 missions")."""
        lang = lang or self.lang
        below = float(self.text("common.singular_below", lang=lang)) \
            if self.has("common.singular_below", lang) else 0.0
        return count == 1 or abs(count) < below

    def _agreed(self, found: re.Match[str], params: Mapping[str, Any], lang: str) -> str:
        """The form of ``{field:singular|plural}`` that agrees with the number ``field``."""
        try:
            count = float(params[found[1]])
        except (KeyError, TypeError, ValueError):
            return found[3]
        return found[2] if self.singular(count, lang) else found[3]

    def _elided(self, lang: str) -> tuple[str, ...]:
        """The words ``lang`` elides before a vowel (``common.elided``: French "de que")."""
        table = catalogue(lang, self.game)
        words = table.get("common.elided", "")
        return tuple(words.split()) if isinstance(words, str) else ()

    def quantity(self, amount: Quantity, lang: str | None = None) -> str:
        """``amount`` in words of ``lang``: its decimal mark (``common.decimal_mark``) and the
        unit's form, singular below ``common.singular_below`` (French: under 2), else plural
        unless it is exactly one."""
        lang = lang or self.lang
        number = f"{amount.value:.{amount.digits}f}"
        if self.has("common.decimal_mark", lang):
            number = number.replace(".", self.text("common.decimal_mark", lang=lang))
        one = self.singular(round(amount.value, amount.digits), lang)
        return self.text(f"{amount.unit}_{'one' if one else 'many'}", lang=lang, n=number)

    def line(self, key: str, /, *, lang: str | None = None, style: Style = Style.NARRATOR,
             cue: str | None = None, pause_after: float = 0.0, to: str | None = None,
             **params: Any) -> Line:
        use = lang or self.lang
        return Line(self.text(key, lang=use, **params), lang=use, style=style, cue=cue,
                    pause_after=pause_after, to=to)

    def names(self, names: Sequence[str], *, lang: str | None = None) -> str:
        """'Ada', 'Ada and Ben', 'Ada, Ben and Cleo' in the session's language."""
        if not names:
            return self.text("common.nobody", lang=lang)
        return join_names(names, self.text("common.and", lang=lang))
