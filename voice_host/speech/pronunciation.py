"""Words the narrator's voice would say wrong: foreign phrases said by another language's
voice, and words respelled so the voice says them right.

A narration line is plain text (the captions, the log and the companion page show it as
written). Before it is spoken, :func:`spans` cuts it into runs: the foreign phrases of the
line's language (``"Ici Londres"`` in an English line) become runs in their own language,
which the synthesizer renders with that language's voice and joins to the rest; in the other
runs, respelled words are replaced by the spelling the voice says right (``"Wehrmacht"`` ->
``"Vair-markt"``). The tables are data, given per narration language by the host.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Pronunciation:
    """How one narration language's voice handles words it would say wrong."""

    foreign: Mapping[str, str] = field(default_factory=dict)
    """Phrase -> the language whose voice says it (``{"Ici Londres": "fr"}``); matched
    whole-word and case-blind, the longest first."""
    respell: Mapping[str, str] = field(default_factory=dict)
    """Word or phrase -> how to write it for this voice (``{"Wehrmacht": "Vair-markt"}``)."""

    def _pattern(self, phrases: list[str]) -> re.Pattern[str] | None:
        if not phrases:
            return None
        ordered = sorted(phrases, key=len, reverse=True)
        alternatives = "|".join(re.escape(p) for p in ordered)
        # a foreign phrase keeps the punctuation that follows it, so its voice ends the phrase
        return re.compile(rf"(?<!\w)({alternatives})(?!\w)[.,;:!?…]*", re.IGNORECASE)

    def respelled(self, text: str) -> str:
        """``text`` with this voice's respellings applied."""
        pattern = self._pattern(list(self.respell))
        if pattern is None:
            return text
        lookup = {k.casefold(): v for k, v in self.respell.items()}
        return pattern.sub(lambda m: lookup[m.group(1).casefold()] + m.group(0)[len(m.group(1)):],
                           text)


@dataclass(frozen=True)
class Span:
    """A run of a line said by one language's voice."""

    text: str
    lang: str


def spans(text: str, lang: str, rules: Mapping[str, Pronunciation] | None = None) -> list[Span]:
    """Cut ``text`` (a line in ``lang``) into runs by voice, respelled for their voice.

    Runs in ``lang`` get ``lang``'s respellings; a foreign run is said as written (its own
    language's voice knows it). Punctuation stays with the run it follows; an empty run is
    dropped."""
    own = (rules or {}).get(lang, Pronunciation())
    pattern = own._pattern(list(own.foreign))
    lookup = {k.casefold(): v for k, v in own.foreign.items()}
    out: list[Span] = []

    def add(piece: str, piece_lang: str) -> None:
        if not re.search(r"\w", piece):  # spaces and punctuation stay with the run before
            if out:
                out[-1] = Span(out[-1].text + piece, out[-1].lang)
            return
        if piece_lang == lang:
            piece = own.respelled(piece)
        if out and out[-1].lang == piece_lang:
            out[-1] = Span(out[-1].text + piece, piece_lang)
        else:
            out.append(Span(piece, piece_lang))

    position = 0
    if pattern is not None:
        for match in pattern.finditer(text):
            add(text[position:match.start()], lang)
            add(match.group(0), lookup[match.group(1).casefold()])
            position = match.end()
    add(text[position:], lang)
    return [Span(s.text.strip(), s.lang) for s in out if s.text.strip(" ,;:.!?…")]
