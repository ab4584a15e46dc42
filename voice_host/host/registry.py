"""Every game the host can run, registered once.

A game is its engine (``voice_host/games/<game>.py``), its host package (adapter, narration,
bots, companion choices) and its resource files (grammars, narration). Its host package
declares a :class:`GameRegistration` named ``REGISTRATION``; the one line below makes the game known
to the command line, ``simulate``, ``demo``, ``understand``, the companion page and the
tests. Modules are imported on first use, so listing the games costs nothing."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from voice_host.games import GameDescription, GameState, SetupError

if TYPE_CHECKING:
    from voice_host.host.adapter import GameAdapter, Prompt
    from voice_host.host.refusals import RefusalWords
    from voice_host.host.secrets import SecretSink

REGISTERED: dict[str, str] = {
    "resistance": "voice_host.host.adapters.resistance",
    "ici-londres": "voice_host.host.adapters.ici_londres",
    "codenames": "voice_host.host.adapters.codenames",
}
"""Game name -> the host module that declares its ``REGISTRATION``. One line per game."""

GAME_NAMES: tuple[str, ...] = tuple(REGISTERED)

BotUtterance = Callable[["GameAdapter", GameState, "Prompt", random.Random], tuple[str, str]]
"""Demo players: (speaker, what they say) for a prompt — a legal move phrased naturally."""


@dataclass(frozen=True)
class GameRegistration:
    """What the host needs to know of one game."""

    state_class: type[GameState]
    """The engine's state class; its ``description`` is the game's spec (name, players,
    options with their defaults and help)."""
    new_game: Callable[[dict[str, Any]], GameState]
    """A fresh state from the JSON-able options the command line builds (kept in saves)."""
    adapter: Callable[..., GameAdapter]
    """``adapter(options, secret_sink=...)``: the game's voice for one session."""
    refusal_words: RefusalWords
    """The game's values in words for its refusals (icon names, colours...)."""
    bots: BotUtterance
    """Demo and test players."""
    grammar: str = ""
    """The grammar files' name (``grammars/<lang>/<grammar>.toml``); the game's name when
    empty."""

    @property
    def description(self) -> GameDescription:
        return self.state_class.description

    @property
    def name(self) -> str:
        return self.description.name

    @property
    def grammar_name(self) -> str:
        return self.grammar or self.name


@cache
def registration(game: str) -> GameRegistration:
    """The registration of ``game``; a :class:`SetupError` for a name nobody registered."""
    try:
        module_name = REGISTERED[game]
    except KeyError:
        raise SetupError(f"I don't know a game called {game}.") from None
    found: GameRegistration = importlib.import_module(module_name).REGISTRATION
    if found.name != game:
        raise SetupError(f"{module_name} registers {found.name}, not {game}.")
    return found


def make_adapter(game: str, options: Mapping[str, Any], *,
                 secret_sink: SecretSink | None = None) -> GameAdapter:
    return registration(game).adapter(dict(options), secret_sink=secret_sink)


def new_game(game: str, options: Mapping[str, Any]) -> GameState:
    return registration(game).new_game(dict(options))
