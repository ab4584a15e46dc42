"""Pure rules engines. This package imports nothing else from voice_host."""

from __future__ import annotations

import importlib

from voice_host.games.base import (
    Action,
    Deal,
    Event,
    GameDescription,
    GameError,
    GameState,
    IllegalAction,
    Outcome,
    SetupError,
)

_MODULES = {
    "resistance": ("voice_host.games.resistance", "ResistanceState"),
    "ici-londres": ("voice_host.games.ici_londres", "IciLondresState"),
    "codenames": ("voice_host.games.codenames", "CodenamesState"),
}

GAME_NAMES: tuple[str, ...] = tuple(_MODULES)


def state_class(name: str) -> type[GameState]:
    """The state class registered under ``name`` ("resistance", "ici-londres", "codenames")."""
    try:
        module_name, cls_name = _MODULES[name]
    except KeyError:
        raise SetupError(f"I don't know a game called {name}.") from None
    cls: type[GameState] = getattr(importlib.import_module(module_name), cls_name)
    return cls


__all__ = [
    "Action",
    "Deal",
    "Event",
    "GAME_NAMES",
    "GameDescription",
    "GameError",
    "GameState",
    "IllegalAction",
    "Outcome",
    "SetupError",
    "state_class",
]
