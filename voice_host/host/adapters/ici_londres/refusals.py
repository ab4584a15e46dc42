"""The rules' refusals in the game's words. The engine's refusals name icons by their
identifiers ("heart"); the host says them as the narrator does ("the heart", "le cœur").
A sentence that opens with one gets its capital from the shared renderer."""

from __future__ import annotations

from typing import Any

from voice_host.games import IllegalAction
from voice_host.games.icons import ICON_NAMES
from voice_host.host.adapters.ici_londres.words import NS
from voice_host.host.core.narration import Narrator

ICON_PARAMS = ("icon", "pending")
"""The parameters of ``games.ici_londres.IciLondresRefusal`` that hold an icon."""

_ICONS = frozenset(ICON_NAMES)


def refusal_words(narrator: Narrator, error: IllegalAction) -> dict[str, Any]:
    """Icons in the narrator's words (an unknown word stays as it was said); names and
    numbers need none."""
    words: dict[str, Any] = {}
    for name in ICON_PARAMS:
        value = error.params.get(name)
        if isinstance(value, str) and value in _ICONS:
            words[name] = narrator.text(f"{NS}.icon.{value}")
    return words
