"""One adapter per game: the game's voice (prompts, narration, intent -> action)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from voice_host.games import GameState, SetupError
from voice_host.host.adapter import GameAdapter
from voice_host.host.io import Line

_MODULES = {
    "resistance": "voice_host.host.adapters.resistance",
    "ici-londres": "voice_host.host.adapters.ici_londres",
    "codenames": "voice_host.host.adapters.codenames",
}

SecretSink = Callable[[Line], str | None]
"""Receives a PRIVATE line; returns where it was put (a path) or None when nowhere."""


def _module(game: str) -> Any:
    try:
        return importlib.import_module(_MODULES[game])
    except KeyError:
        raise SetupError(f"I don't know a game called {game}.") from None


def new_game(game: str, options: dict[str, Any]) -> GameState:
    """A fresh engine state from the JSON-able options ``play`` builds."""
    state: GameState = _module(game).new_game(options)
    return state


def make_adapter(game: str, options: dict[str, Any], *,
                 secret_sink: SecretSink | None = None) -> GameAdapter:
    adapter: GameAdapter = _module(game).Adapter(options, secret_sink=secret_sink)
    return adapter
