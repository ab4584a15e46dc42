"""What the program says outside the game's narration, in the game's language, by code.

A refusal of the rules (:class:`~voice_host.games.SetupError`), of the speech layer (a
missing microphone, a model not installed, a broken WAV) or of the host (a bad option, a
damaged save, a script that cannot be read) is a code and its values
(:class:`voice_host.wording.Coded`); the sentence is made where it is shown, from the
catalogue of the game's language, by :func:`say` (a code) or :func:`said` (an error).

* ``host/lang/<lang>/messages.toml`` maps each code to its sentence (``{name}`` fields),
  its ``[term]`` table the words a value may be (a game's title, a team's colour, "or").
* The English of the codes of the rules and of the speech layer is theirs
  (:data:`~voice_host.games.base.SETUP_MESSAGES`, :data:`~voice_host.speech.types.SPEECH_MESSAGES`):
  those layers stay usable alone and ``str(error)`` is English in every log. The English of
  the host's own codes is in ``host/lang/en/messages.toml``. Each sentence has one source.
* A code the language lacks is said in English; a code no catalogue has, or a value not
  given, still gives a sentence (``tests/host/test_message_codes.py`` lists every code the
  program uses and checks that each language has it, with the same fields).

``--help`` is written in the language the other way, gettext's: its texts are written in
English where each option is declared, and ``host/lang/<lang>/help.toml`` gives each the
language's text under its exact English (:func:`help_text`); a help text made of parts (a
range, a default) is made in the language from a code of ``messages.toml``. argparse's own
words (its usage errors, "usage:", its section titles) are what argparse passes to gettext:
its ``[argparse]`` table gives each of those format strings in the language
(:func:`argparse_words`). Nothing is translated by matching English against patterns.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from voice_host.games.base import SETUP_MESSAGES, SetupError
from voice_host.host.core.narration import Narrator, _flatten, _load
from voice_host.host.core.values import Heard, Line
from voice_host.speech.types import SPEECH_MESSAGES
from voice_host.wording import Coded, OneOf, Term, fill, joined

LOWER_LAYERS: tuple[Mapping[str, str], ...] = (SETUP_MESSAGES, SPEECH_MESSAGES)
"""The English of the codes the layers below the host raise."""

HELP = "help"
"""The code of a :class:`~voice_host.wording.Term` that is a ``--help`` text (found in the
help table by its English)."""
UNKNOWN_CODE = "unknown_code"
"""The sentence said for a code no catalogue has (``{code}``)."""


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """Code -> sentence in ``lang`` (``term.<code>`` for the words values may be); in
    English, the lower layers' own sentences too."""
    table: dict[str, str] = {}
    if lang == "en":
        for layer in LOWER_LAYERS:
            table.update(layer)
    table.update({k: str(v) for k, v in _flatten(_load(lang, "messages")).items()})
    return table


def forget_loaded() -> None:
    """Forget the catalogues read: the next sentence reads them again."""
    catalogue.cache_clear()
    _help_tables.cache_clear()


def say(code: str, lang: str, /, **params: Any) -> str:
    """The sentence of ``code`` in ``lang`` with ``params`` put into words of ``lang``
    (English when ``lang`` lacks it)."""
    template = catalogue(lang).get(code) or catalogue("en").get(code)
    if template is None:
        return fill(catalogue(lang).get(UNKNOWN_CODE) or catalogue("en")[UNKNOWN_CODE],
                    {"code": code})
    return fill(template, params, lambda value: word(value, lang))


def said(error: BaseException, lang: str) -> str:
    """What ``error`` says in ``lang``: a coded error by its code, any other as written."""
    if isinstance(error, Coded) and error.code in catalogue("en"):
        return say(error.code, lang, **error.params)
    return str(error)


def word(value: Any, lang: str) -> str:
    """One value of a sentence in words of ``lang``: a :class:`~voice_host.wording.Term`
    by its code, alternatives joined with "or", a list with "and", an error by its code."""
    if isinstance(value, Term) and value.code == HELP:
        return help_text(value.english, lang)
    if isinstance(value, Term):
        return catalogue(lang).get(f"term.{value.code}") or value.english
    if isinstance(value, OneOf):
        return joined(value.values, say("term.or", lang))
    if isinstance(value, (list, tuple)):
        return joined([word(v, lang) for v in value], say("term.and", lang))
    if isinstance(value, BaseException):  # a sentence inside a sentence
        return said(value, lang).rstrip(".")
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


@cache
def _help_tables(lang: str) -> Mapping[str, Any]:
    return _load(lang, "help") if lang != "en" else {}


def help_text(text: str, /, lang: str, **params: Any) -> str:
    """A ``--help`` text in ``lang``: the text ``help.toml`` gives under its exact English
    (``text`` itself when it has none, or in English), with ``{name}`` fields filled."""
    found = str(_help_tables(lang).get("help", {}).get(text, text))
    return fill(found, params) if params else found


def argparse_words(lang: str) -> Mapping[str, str]:
    """argparse's own format strings (its gettext message ids) in ``lang``: the
    ``[argparse]`` table of ``help.toml``."""
    return dict(_help_tables(lang).get("argparse", {}))


class HostError(Coded):
    """An error of the host said by code, its English in ``host/lang/en/messages.toml``."""

    def english(self) -> str:
        return say(self.code, "en", **self.params)


class HostOSError(HostError, OSError):
    """A host error that is also an ``OSError`` (a server that cannot listen, a browser that
    does not start), for the callers that catch those."""


class OptionError(SetupError):
    """A game cannot be set up with these options, as the host finds (an unknown option, a
    value out of range, a seat that does not exist): a :class:`SetupError` whose English is
    in ``host/lang/en/messages.toml``."""

    def english(self) -> str:
        return say(self.code, "en", **self.params)


def caption(lang: str, cue: str = "") -> str:
    """What the captions (``--output text``) print before one of the host's lines in
    ``lang`` (``caption(lang)``: "HOST: ", "HÔTE : "), or the name shown for the sound cue
    ``cue`` (its file name where the language has none): the ``[captions]`` table of the
    language's common narration."""
    words = _load(lang, "common").get("captions", {})
    if cue:
        return str(words.get(cue, cue))
    return str(words.get("host", "HOST: "))


_SPACE_BEFORE = re.compile(r" ([:;!?»])")
COLON_SPACE = {"fr": " "}
"""What each language writes before a colon (French typography: a space), where the colon is
added by code (argparse's section titles)."""


def typeset(text: str, lang: str) -> str:
    """``text`` with the spaces of the language's typography that must not break when it is
    wrapped made no-break spaces (in French, before ":", ";", "!", "?", "»" and after "«")."""
    if lang != "fr":
        return text
    return _SPACE_BEFORE.sub("\u00a0\\1", text).replace("« ", "«\u00a0")


def error_line(narrator: Narrator, heard: Heard) -> Line:
    """What the host says of an input error (a WAV that cannot be read, a microphone that
    stopped): its narration key when it has one, else its code's sentence in the game's
    language (its words as written when it has neither)."""
    if heard.error_key and narrator.has(heard.error_key):
        return narrator.line(heard.error_key, **dict(heard.error_params))
    if heard.error_code:
        text = say(heard.error_code, narrator.lang, **dict(heard.error_params))
    else:
        text = heard.error
    return Line(text, lang=narrator.lang)
