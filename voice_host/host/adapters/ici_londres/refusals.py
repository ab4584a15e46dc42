"""The rules' refusals in the game's words. The engine's refusals name icons by their
identifiers ("heart"); the host says them as the narrator does ("the heart", "le cœur"),
with a capital when the sentence opens with one ("The heart was already named...")."""

from __future__ import annotations

import string
from typing import Any

from voice_host.games import IllegalAction
from voice_host.games.icons import ICON_NAMES
from voice_host.host.adapters.ici_londres.voice import NS, cap
from voice_host.host.narration import Narrator, catalogue
from voice_host.host.refusals import refusal_key

ICON_PARAMS = ("icon", "pending")
"""The parameters of ``games.ici_londres.Refused`` that hold an icon."""

_ICONS = frozenset(ICON_NAMES)


def refusal_words(narrator: Narrator, error: IllegalAction) -> dict[str, Any]:
    """Icons in the narrator's words (an unknown word stays as it was said); names and
    numbers need none."""
    words: dict[str, Any] = {}
    for name in ICON_PARAMS:
        value = error.params.get(name)
        if isinstance(value, str) and value in _ICONS:
            words[name] = narrator.text(f"{NS}.icon.{value}")
    opening = _opening_field(narrator, refusal_key(narrator.game, error.code))
    if opening in words:
        words[opening] = cap(words[opening])
    return words


def _opening_field(narrator: Narrator, key: str) -> str | None:
    """The field every variant of the refusal's sentence starts with, if any."""
    said = catalogue(narrator.lang, narrator.game).get(key) or catalogue(
        "en", narrator.game).get(key)
    variants = said if isinstance(said, list) else [said] if said else []
    firsts = {_first_field(template) for template in variants}
    return firsts.pop() if len(firsts) == 1 else None


def _first_field(template: str) -> str | None:
    for literal, field, _, _ in string.Formatter().parse(template):
        return field if not literal else None
    return None
