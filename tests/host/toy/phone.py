"""The toy game on the companion page: the player whose turn it is adds one, two or three
from the phone as well as aloud. Choice ids: ``add:1``, ``add:2``, ``add:3``."""

from __future__ import annotations

from typing import Any

from tests.host.toy.engine import Add, TenState
from voice_host.games import Action, GameState
from voice_host.host.companion.games import Choice, ChoiceError, PageWords


def action(seat: str, choice: str, state: GameState | None) -> Action:
    if choice in ("add:1", "add:2", "add:3"):
        return Add(seat, int(choice[4:]))
    raise ChoiceError("unknown")


def choices(state: GameState, seat: str, legal: list[Action], words: PageWords) -> list[Choice]:
    return [Choice(f"add:{a.amount}", words("game.add", n=a.amount),
                   words("game.add_confirm", n=a.amount), kind="add")
            for a in legal if isinstance(a, Add)]


def is_private(action: Action) -> bool:
    return False


def is_phone_input(action: Action) -> bool:
    return isinstance(action, Add)


def phone_turn(state: GameState) -> tuple[str, ...] | None:
    assert isinstance(state, TenState)
    return None


def extras() -> dict[str, Any]:
    return {}
