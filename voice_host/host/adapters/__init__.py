"""One host package per game: its voice (prompts, interpretation, narration, queries), its
demo bots and its registration (``REGISTRATION``). The games are listed in
:mod:`voice_host.host.core.registry`."""

from __future__ import annotations

from voice_host.host.core.registry import make_adapter, new_game

__all__ = ["make_adapter", "new_game"]
