"""The demo's players (and the tests'): for each prompt, a legal move phrased as a player
would say it, and the Speaker's coded sentence hinting at the two icons. Not part of the
host's protocol: the registry hands them to the demo and the tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from voice_host.games import GameState
from voice_host.games.ici_londres import IciLondresState, Transmission
from voice_host.games.icons import ICON_NAMES
from voice_host.host.adapters.ici_londres.words import GAME, NS, IciLondresWords
from voice_host.host.core.adapter import GameAdapter, Prompt, PromptKind, narrow
from voice_host.host.core.narration import capitalized, catalogue


def bot_utterance(adapter: GameAdapter, state: GameState, prompt: Prompt,
                  rng: random.Random) -> tuple[str, str]:
    """(speaker, what they say) for ``prompt``."""
    assert isinstance(adapter, IciLondresWords)
    s = narrow(state, IciLondresState)
    if prompt.kind is PromptKind.RECORD:
        message = s.player_view(s.speaker).get("message")
        icons = list(message) if message else rng.sample(ICON_NAMES, 2)
        return s.speaker, coded_sentence(adapter, icons, rng)
    if prompt.phase == "answer":
        key = "hit" if rng.random() < 0.3 else "miss"
        return s.speaker, adapter.bot_text(key, variant=0)
    return _pick(adapter, s, prompt, rng)


def coded_sentence(voice: IciLondresWords, icons: Sequence[str], rng: random.Random) -> str:
    """A subject-verb-object sentence hinting at two icons (demo Speakers)."""
    first, second = (voice.bot_text(f"clue.{name}", variant=_pick_variant(
        voice, f"clue.{name}", rng)) for name in icons[:2])
    return capitalized(voice.bot_text("sentences", variant=_pick_variant(voice, "sentences", rng),
                              first=first, second=second))


def _pick(voice: IciLondresWords, s: IciLondresState, prompt: Prompt,
          rng: random.Random) -> tuple[str, str]:
    player = rng.choice(prompt.expected)
    sizes = s.pick_sizes(player)  # the rules' choice, or 1 or 2 icons (mostly 2)
    size = sizes[0] if len(sizes) == 1 else rng.choice((1, 2, 2))
    picks = _bot_icons(s, size, rng, decode=0.15 if player == s.wehrmacht else 0.4)
    said = [voice.say_icon(i) for i in picks]
    if s.mode is Transmission.COMPETING:
        key = "pick_named_one" if size == 1 else "pick_named_two"
    else:
        key = "pick_one" if size == 1 else "pick_two"
    params: dict[str, Any] = {"player": player}
    if size == 1:
        params["icon"] = said[0]
    else:
        params["first"], params["second"] = said
    return player, voice.bot_text(key, variant=_pick_variant(voice, key, rng), **params)


def _bot_icons(s: IciLondresState, size: int, rng: random.Random, *,
               decode: float = 0.4) -> list[str]:
    """Free icons for a demo receiver; in host mode it decodes the message with
    probability ``decode`` (lower for the Wehrmacht, who is not meant to understand), so
    the demo shows hits as well as misses."""
    taken = set(s.named_icons)
    free = [i for i in ICON_NAMES if i not in taken]
    message = s.player_view(s.speaker).get("message") or []
    picks: list[str] = []
    for _ in range(size):
        hidden = [i for i in message if i in free and i not in picks]
        if hidden and rng.random() < decode:
            picks.append(rng.choice(hidden))
        else:
            picks.append(rng.choice([i for i in free if i not in picks]))
    return picks


def _variants(voice: IciLondresWords, key: str) -> int:
    table = catalogue(voice.narrator.lang, GAME)
    value = table.get(f"{NS}.bot.{key}") or catalogue("en", GAME).get(f"{NS}.bot.{key}")
    return len(value) if isinstance(value, list) else 1


def _pick_variant(voice: IciLondresWords, key: str, rng: random.Random) -> int:
    return rng.randrange(_variants(voice, key))
