"""One function says any engine refusal in the game's language.

Engines raise :class:`~voice_host.games.IllegalAction` with a code and parameters; the
sentence comes from the ``[<game>.refusal]`` table of ``host/lang/<lang>/<game>.toml``. Parameters
are put into words here: a sequence of names is joined the language's way ("Ada et Ben"),
and a game may put its own values into words (an icon's French name, a team's colour)
through its ``refusal_words`` function; the sentence starts with a capital. Used by the
session and by the companion page."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any

from voice_host.games import IllegalAction
from voice_host.host.core.narration import Narrator, capitalized
from voice_host.host.core.values import Line

RefusalWords = Callable[[Narrator, IllegalAction], Mapping[str, Any]]
"""A game's words for the parameters it knows (only the ones that need them)."""


def refusal_key(game: str, code: str) -> str:
    """The narration key of a refusal: ``<game>.refusal.<code>`` (``ici_londres`` for
    ``ici-londres``, as the game's narration table is called)."""
    return f"{game.replace('-', '_')}.refusal.{code}"


def plain_params(narrator: Narrator, params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters in words without game knowledge: names joined, enums by value."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, (tuple, list)):
            out[name] = narrator.names([str(v) for v in value])
        elif isinstance(value, enum.Enum):
            out[name] = value.value
        else:
            out[name] = value
    return out


def refusal_text(narrator: Narrator, error: IllegalAction,
                 words: RefusalWords | None = None) -> str:
    """The refusal as one sentence in ``narrator``'s language. A code without a sentence
    in any of the host's tables (a test forbids it) falls back to the engine's English."""
    key = refusal_key(narrator.game, error.code)
    if not narrator.has(key):
        return error.reason
    params = plain_params(narrator, error.params)
    if words is not None:
        params.update(words(narrator, error))
    # a sentence may open with a field ("{icon} was already named"): a capital either way
    return capitalized(narrator.text(key, **params))


def refusal_line(narrator: Narrator, error: IllegalAction,
                 words: RefusalWords | None = None) -> Line:
    return Line(refusal_text(narrator, error, words), lang=narrator.lang)
