"""Pure rules engines. This package imports nothing else from voice_host; the games are
registered, once each, in :mod:`voice_host.host.core.registry`."""

from __future__ import annotations

from voice_host.games.base import (
    Action,
    Deal,
    Event,
    GameDescription,
    GameError,
    GameState,
    IllegalAction,
    Outcome,
    PlayerAction,
    SetupError,
)

__all__ = [
    "Action",
    "Deal",
    "Event",
    "GameDescription",
    "GameError",
    "GameState",
    "IllegalAction",
    "Outcome",
    "PlayerAction",
    "SetupError",
]
