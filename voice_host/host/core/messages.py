"""What the rest of the program says in English, in the game's language.

The game rules (``SetupError``), the wiring and the speech layer (a missing microphone, a
model not installed) and argparse write their sentences in English; a French game must
print none of them. ``host/lang/<lang>/messages.toml`` is a catalogue in the manner of
gettext: each key is an English sentence as the program writes it, with ``{name}`` where
its variable parts go, and each value is the sentence in the language, with the same
names. :func:`in_language` finds the template a message fits and fills the translation in;
each variable part is itself looked up (so a game's title, "red" or a nested argparse
message come out in the language too). A message the catalogue lacks is shown as written.

The layers below the host keep writing plain English sentences: no key crosses a layer.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cache

from voice_host.host.core.narration import Narrator, _load
from voice_host.host.core.values import Heard, Line

_FIELD = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Template:
    """One entry of the catalogue."""

    english: str
    """The English sentence, with ``{name}`` for each variable part."""
    translated: str
    """The same in the catalogue's language."""
    pattern: re.Pattern[str]
    """What an English message fitting ``english`` looks like."""

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(_FIELD.findall(self.english))


def _pattern(english: str) -> re.Pattern[str]:
    parts: list[str] = []
    at = 0
    for found in _FIELD.finditer(english):
        parts.append(re.escape(english[at:found.start()]))
        parts.append(f"(?P<{found[1]}>.+?)")
        at = found.end()
    parts.append(re.escape(english[at:]))
    return re.compile("".join(parts), re.DOTALL)


@cache
def templates(lang: str) -> tuple[Template, ...]:
    """The catalogue of ``lang``, the most specific templates (most fixed letters) first."""
    table = _load(lang, "messages").get("messages", {})
    found = [Template(english, str(translated), _pattern(english))
             for english, translated in table.items()]
    return tuple(sorted(found, key=lambda t: -len(_FIELD.sub("", t.english))))


def in_language(message: str, lang: str) -> str:
    """``message`` (English) in ``lang``: translated by the catalogue's template it fits,
    its variable parts translated too; as written when no template fits (or in English)."""
    if lang == "en" or not message:
        return message
    return _translate(message, templates(lang))


def _translate(message: str, table: tuple[Template, ...]) -> str:
    for template in table:
        found = template.pattern.fullmatch(message)
        if found is None:
            continue
        parts = {name: _translate(value, table) if value != message else value
                 for name, value in found.groupdict().items()}
        return string.Formatter().vformat(template.translated, (), parts)
    if "\n" in message:  # several lines: each on its own
        return "\n".join(_translate(line, table) for line in message.split("\n"))
    return message


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
    stopped): its narration key when it has one, else its sentence, in the game's language."""
    if heard.error_key and narrator.has(heard.error_key):
        return narrator.line(heard.error_key, **dict(heard.error_params))
    return Line(in_language(heard.error, narrator.lang), lang=narrator.lang)
