"""One function says any engine refusal in the game's language.

Engines raise :class:`~voice_host.games.IllegalAction` with a code and parameters; the
sentence comes from the ``[<game>.refusal]`` table of ``host/lang/<lang>/<game>.toml``. Parameters
are put into words here: a sequence of names is joined the language's way ("Ada et Ben"),
and a game may put its own values into words (an icon's French name, a team's colour)
through its ``refusal_words`` function; the sentence starts with a capital. Used by the
session and by the companion page."""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from voice_host.games import Action, IllegalAction
from voice_host.games.base import public_record
from voice_host.host.core.narration import Narrator, capitalized
from voice_host.host.core.values import Line

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

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


def _jsonable(values: Mapping[str, Any]) -> dict[str, Any]:
    """Values as the log writes them (tuples become lists)."""
    return dict(json.loads(json.dumps(dict(values), default=list)))


@dataclass(frozen=True)
class RefusalRecord:
    """One refused command as the log writes it: the same fields for every refusal, by the
    rules or by the host."""

    reason: str
    """Why, in words: the rules' own sentence (English) when the engine refused, else the
    sentence the host said."""
    code: str | None = None
    """The rules' refusal code (None when the host refused before the rules were asked)."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """The code's parameters."""
    action: Mapping[str, Any] | None = None
    """The refused action, as the public log shows it (None when no action was made)."""
    intent: str | None = None
    """The understood intent (``"record"`` for a refused recording)."""
    slots: Mapping[str, Any] = field(default_factory=dict)
    """The understood slots."""
    speaker: str | None = None
    """Who spoke, when known."""

    def fields(self) -> dict[str, Any]:
        """The log entry's fields."""
        return {"reason": self.reason, "code": self.code, "params": _jsonable(self.params),
                "action": None if self.action is None else dict(self.action),
                "intent": self.intent, "slots": _jsonable(self.slots),
                "speaker": self.speaker}


def refuse(s: Session, action: Action, error: IllegalAction) -> None:
    """Say why the rules refused ``action``, in the game's language; log the code."""
    s.log_refusal(RefusalRecord(reason=error.reason, code=error.code, params=error.params,
                                action=public_record(action)))
    s.say([refusal_line(s.narrator, error, s.registration.refusal_words)])


def dry_run(s: Session, actions: Sequence[Action]) -> bool:
    """Try ``actions`` (a move and its follow-ups) on a copy of the game; on a refusal say
    why and return False. Nothing is asked, applied or saved before this passed."""
    trial = s.state.copy()
    for action in actions:
        try:
            trial.apply(action)
        except IllegalAction as exc:
            refuse(s, action, exc)
            return False
    return True
