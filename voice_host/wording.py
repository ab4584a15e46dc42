"""Sentences by code: what the layers below the host tell a person, as a code and values.

A user-facing error of the rules (:class:`~voice_host.games.SetupError`) or of the speech
layer (a missing microphone, a model not installed, a broken WAV) is a :class:`Coded`
exception: a stable ``code`` ("setup.players_count") and the ``params`` its sentence needs.
Each class keeps the English sentences of its codes in its ``messages`` table, so
``str(error)`` is English wherever the error is printed or logged, and the layer stays usable
alone. The host says the same code in the game's language from its catalogue
(``host/lang/<lang>/messages.toml``, read by ``voice_host.host.core.messages``).

A value that is itself a word to translate (a game's title, a team's colour, "a whole
number") is a :class:`Term`: a catalogue code with its English; alternatives are
:class:`OneOf` ("red or blue", "rouge ou bleue"). Nothing is translated by reading English.

This module is a shared leaf, like ``voice_host.text``: every layer may import it, and it
imports nothing of voice_host.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

MISSING = "?"
"""What a sentence shows for a value its code needs but was not given."""


@dataclass(frozen=True)
class Term:
    """A value that is a word of the language: said by its catalogue code (``term.<code>``),
    in English as ``english``."""

    code: str
    """Key in the ``[term]`` table of each language's catalogue ("red", "title.resistance")."""
    english: str
    """The word in English (what ``str()`` gives)."""

    def __str__(self) -> str:
        return self.english


@dataclass(frozen=True)
class OneOf:
    """Alternatives, joined with the language's "or": "fragments, competing or countdown"."""

    values: tuple[str, ...]

    def __str__(self) -> str:
        return joined(self.values, "or")


def joined(values: Sequence[object], conj: str) -> str:
    """'a', 'a or b', 'a, b or c' with ``conj`` between the last two."""
    words = [str(v) for v in values]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {conj} " + words[-1]


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return MISSING


def english(value: Any) -> str:
    """A value in English words: an error inside a sentence without its full stop."""
    if isinstance(value, BaseException):
        return str(value).rstrip(".")
    return str(value)


def fill(template: str, params: Mapping[str, Any],
         word: Callable[[Any], str] = english) -> str:
    """``template`` with its ``{name}`` fields filled from ``params``, each value put into
    words by ``word``; a field without a value shows :data:`MISSING` and a template that
    cannot be read is shown as written, so a sentence never becomes a traceback."""
    try:
        return string.Formatter().vformat(template, (), _Lenient(
            {k: word(v) for k, v in params.items()}))
    except (ValueError, IndexError, AttributeError, TypeError, KeyError):
        return template


def fields(template: str) -> set[str]:
    """The names of the fields of ``template`` (``{name}``)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return set()


class Coded(Exception):
    """An error said by code: ``code`` names the sentence, ``params`` its values; ``str()``
    is the English sentence from the class's ``messages`` table. A code that is in no
    table (a test lists every code raised) is shown as ``(code)`` rather than failing."""

    messages: ClassVar[Mapping[str, str]] = {}
    """Code -> English sentence with ``{name}`` fields."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params: dict[str, Any] = params
        self.reason = self.english()
        super().__init__(self.reason)

    def english(self) -> str:
        template = self.messages.get(self.code)
        if template is None:
            return f"({self.code})"
        return fill(template, self.params)

    def __str__(self) -> str:
        return self.reason
